/* depcmp.c - test helper: compares ptosim's deps.json and scope stats with a real runtime capture's. */
#include "depcmp.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* A growing NUL-terminated string. */
typedef struct sbuf {
    char *s;
    size_t len, cap;
} sbuf;

static void sb_add(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_add(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    ck_assert(n >= 0);
    if (b->len + (size_t)n + 1 > b->cap) {
        b->cap = (b->len + (size_t)n + 1) * 2;
        b->s = realloc(b->s, b->cap);
        ck_assert(b->s != NULL);
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

/* The text, "" when nothing was added; the caller owns it. */
static char *sb_take(sbuf *b)
{
    return b->s ? b->s : strdup("");
}

/* A field as compact JSON, "-" when absent. */
static void sb_field(sbuf *b, const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!v) {
        sb_add(b, " -");
        return;
    }
    char *t = cJSON_PrintUnformatted(v);
    sb_add(b, " %s", t);
    free(t);
}

/* Tensor ids in order of first appearance: the index of id, added if new. */
typedef struct idmap {
    const char **ids;
    int n, cap;
} idmap;

static int idmap_index(idmap *m, const char *id)
{
    for (int i = 0; i < m->n; i++) /* a few hundred tensors at most: linear is fine */
        if (strcmp(m->ids[i], id) == 0)
            return i;
    if (m->n == m->cap) {
        m->cap = m->cap ? 2 * m->cap : 64;
        m->ids = realloc(m->ids, (size_t)m->cap * sizeof(*m->ids));
        ck_assert(m->ids != NULL);
    }
    m->ids[m->n] = id;
    return m->n++;
}

/* One task as comparable text (tensors named by first appearance). */
static char *task_text(const cJSON *t, idmap *m)
{
    sbuf b = {0};
    static const char *const keys[] = {"task_id", "scope", "early_dispatch", "kernel_ids", "block_num"};
    for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
        sb_field(&b, t, keys[k]);
    const cJSON *a;
    cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(t, "args"))
    {
        static const char *const akeys[] = {"type", "dtype", "shape", "start_offset", "strides"};
        sb_add(&b, " |");
        for (size_t k = 0; k < sizeof(akeys) / sizeof(akeys[0]); k++)
            sb_field(&b, a, akeys[k]);
        const cJSON *tid = cJSON_GetObjectItemCaseSensitive(a, "tensor_id");
        if (cJSON_IsString(tid))
            sb_add(&b, " t%d", idmap_index(m, tid->valuestring));
    }
    return sb_take(&b);
}

static char *edge_text(const cJSON *e)
{
    sbuf b = {0};
    static const char *const keys[] = {"pred", "succ", "arg", "source", "overlap"};
    for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
        sb_field(&b, e, keys[k]);
    return sb_take(&b);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The edges of d as sorted text; *n gets the count. */
static char **edge_texts(const cJSON *d, int *n)
{
    const cJSON *edges = cJSON_GetObjectItemCaseSensitive(d, "edges");
    *n = cJSON_GetArraySize(edges);
    char **v = calloc((size_t)*n + 1, sizeof(*v));
    ck_assert(v != NULL);
    int i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, edges) v[i++] = edge_text(e);
    qsort(v, (size_t)*n, sizeof(*v), cmp_str);
    return v;
}

static void free_texts(char **v, int n)
{
    for (int i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

static cJSON *load_deps(const char *path)
{
    cJSON *d = tu_json_file(path);
    ck_assert_msg(cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(d, "tasks")) &&
                      cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(d, "edges")),
                  "%s: not a deps.json", path);
    return d;
}

void depcmp_deps(const char *real_path, const char *sim_path, depcmp *out)
{
    cJSON *dr = load_deps(real_path), *ds = load_deps(sim_path);
    const cJSON *tr = cJSON_GetObjectItemCaseSensitive(dr, "tasks");
    const cJSON *ts = cJSON_GetObjectItemCaseSensitive(ds, "tasks");
    memset(out, 0, sizeof(*out));
    out->tasks_real = cJSON_GetArraySize(tr);
    out->tasks_sim = cJSON_GetArraySize(ts);

    sbuf tb = {0};
    idmap mr = {0}, ms = {0};
    const cJSON *a = tr ? tr->child : NULL, *b = ts ? ts->child : NULL;
    for (int i = 0; a || b; i++) {
        char *x = a ? task_text(a, &mr) : strdup(" (none)");
        char *y = b ? task_text(b, &ms) : strdup(" (none)");
        if (strcmp(x, y) != 0)
            sb_add(&tb, "task %d\n-%s\n+%s\n", i, x, y);
        free(x);
        free(y);
        a = a ? a->next : NULL;
        b = b ? b->next : NULL;
    }
    out->task_diff = sb_take(&tb);
    free(mr.ids);
    free(ms.ids);

    /* multiset difference of two sorted lists */
    char **er = edge_texts(dr, &out->edges_real), **es = edge_texts(ds, &out->edges_sim);
    sbuf eb = {0};
    int i = 0, j = 0;
    while (i < out->edges_real || j < out->edges_sim) {
        int c = i == out->edges_real ? 1 : j == out->edges_sim ? -1 : strcmp(er[i], es[j]);
        if (c == 0) {
            i++;
            j++;
        } else if (c < 0) {
            sb_add(&eb, "-%s\n", er[i++]);
        } else {
            sb_add(&eb, "+%s\n", es[j++]);
        }
    }
    out->edge_diff = sb_take(&eb);
    free_texts(er, out->edges_real);
    free_texts(es, out->edges_sim);
    cJSON_Delete(dr);
    cJSON_Delete(ds);
}

/* The records of a scope_stats.jsonl after its header line, parsed. */
static cJSON **scope_records(const char *path, int *n)
{
    char *text = tu_read(path);
    ck_assert_msg(text != NULL, "missing file %s", path);
    int cap = 64;
    cJSON **v = malloc((size_t)cap * sizeof(*v));
    ck_assert(v != NULL);
    *n = 0;
    int line = 0;
    for (char *p = text, *nl; *p; p = nl ? nl + 1 : p + strlen(p), line++) {
        nl = strchr(p, '\n');
        if (nl)
            *nl = '\0';
        if (line == 0 || !*p) /* the header carries the ring limits, not a scope */
            continue;
        cJSON *o = cJSON_Parse(p);
        ck_assert_msg(o != NULL, "%s:%d: not JSON", path, line + 1);
        if (*n == cap) {
            cap *= 2;
            v = realloc(v, (size_t)cap * sizeof(*v));
            ck_assert(v != NULL);
        }
        v[(*n)++] = o;
        if (!nl)
            break;
    }
    free(text);
    return v;
}

static const char *str_of(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : "";
}

char *depcmp_scopes(const char *real_path, const char *sim_path, int *nreal, int *nsim)
{
    cJSON **r = scope_records(real_path, nreal), **s = scope_records(sim_path, nsim);
    idmap mr = {0}, ms = {0};
    sbuf b = {0};
    for (int i = 0; i < *nreal || i < *nsim; i++) {
        sbuf x = {0}, y = {0};
        static const char *const keys[] = {"phase", "depth", "ring", "task_window_end"};
        if (i < *nreal) {
            sb_add(&x, " site%d", idmap_index(&mr, str_of(r[i], "site")));
            for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
                sb_field(&x, r[i], keys[k]);
        }
        if (i < *nsim) {
            sb_add(&y, " site%d", idmap_index(&ms, str_of(s[i], "site")));
            for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
                sb_field(&y, s[i], keys[k]);
        }
        char *tx = sb_take(&x), *ty = sb_take(&y);
        if (strcmp(tx, ty) != 0)
            sb_add(&b, "record %d\n-%s\n+%s\n", i, tx, ty);
        free(tx);
        free(ty);
    }
    for (int i = 0; i < *nreal; i++)
        cJSON_Delete(r[i]);
    for (int i = 0; i < *nsim; i++)
        cJSON_Delete(s[i]);
    free(r);
    free(s);
    free(mr.ids);
    free(ms.ids);
    return sb_take(&b);
}

void depcmp_free(depcmp *d)
{
    free(d->task_diff);
    free(d->edge_diff);
    d->task_diff = d->edge_diff = NULL;
}
