/* conform_deps.c - cf_: deps.json compared: whole trees, streamed in step, or by each side's digest. */
/* The largest part of the comparison, and the only one that grows with the capture's tasks and edges: the
 * trees' reference, the spans the stream compares without trees, and the digests that spare equal
 * captures the walk in step. */
#include "conform.h"

#include <cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../model/base/string_table.h"
#include "../json/json_span.h"
#include "../json/json_stream.h"
#include "conform_int.h"

/* ---- deps.json ---- */

/* prefix then x in decimal into buf (n > 24 bytes). */
static void put_dec(char *buf, const char *prefix, uint64_t x)
{
    char d[24];
    int k = 0;
    do
        d[k++] = (char)('0' + x % 10);
    while ((x /= 10) != 0);
    size_t p = strlen(prefix);
    memcpy(buf, prefix, p);
    while (k > 0)
        buf[p++] = d[--k];
    buf[p] = '\0';
}

static const char *id_label(uint64_t id, char *buf, size_t n);

/* A task id as the swimlane converter shows it: t<local> on ring 0, r<ring>t<local> otherwise. */
static const char *task_label(const cJSON *v, char *buf, size_t n)
{
    uint64_t id;
    if (!cf_get_u64(v, &id))
        return cf_jtext(v, buf, n);
    return id_label(id, buf, n);
}

/* A task id's label (task_label). */
static const char *id_label(uint64_t id, char *buf, size_t n)
{
    unsigned ring = (unsigned)((id >> 32) & 0xFF), local = (unsigned)(id & 0xFFFFFFFFu);
    char a[32], b[32];
    put_dec(b, "t", local);
    if (ring) {
        put_dec(a, "r", ring);
        snprintf(buf, n, "%s%s", a, b);
    } else {
        snprintf(buf, n, "%s", b);
    }
    return buf;
}

/* The key of tensor_id values: a string as it is, anything else as JSON text. */
static const char *id_key(const cJSON *v, char *buf, size_t n)
{
    return cJSON_IsString(v) ? v->valuestring : cf_jtext(v, buf, n);
}

/* Numbers every distinct tensor_id in order of first appearance: tasks[].args, edges, tensors[]. */
static int number_tensors(const cJSON *d, strtab *t)
{
    static const char *const LISTS[] = {"tasks", "edges", "tensors"};
    char buf[CF_VALUE_MAX];
    for (int l = 0; l < 3; l++) {
        const cJSON *e;
        cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(d, LISTS[l]))
        {
            if (l == 0) {
                const cJSON *g;
                cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(e, "args"))
                {
                    const cJSON *id = cJSON_GetObjectItemCaseSensitive(g, "tensor_id");
                    if (id && strtab_intern(t, id_key(id, buf, sizeof(buf))) < 0)
                        return -1;
                }
            } else {
                const cJSON *id = cJSON_GetObjectItemCaseSensitive(e, "tensor_id");
                if (id && strtab_intern(t, id_key(id, buf, sizeof(buf))) < 0)
                    return -1;
            }
        }
    }
    return 0;
}

/* "T<k>" (k < 0: the id is not numbered). */
static void tensor_label(int k, char *buf, size_t n)
{
    char d[32];
    if (k >= 0)
        put_dec(d, "T", (uint64_t)k);
    else
        snprintf(d, sizeof(d), "T%d", k);
    snprintf(buf, n, "%s", d);
}

/* "T<n>" of a tensor_id value, "-" when absent. */
static const char *tensor_name(const strtab *t, const cJSON *id, char *buf, size_t n)
{
    char kb[CF_VALUE_MAX];
    if (!id) {
        snprintf(buf, n, "-");
    } else {
        tensor_label(strtab_find(t, id_key(id, kb, sizeof(kb))), buf, n);
    }
    return buf;
}

static const char *const TASK_KEYS[] = {"task_id", "scope", "early_dispatch", "kernel_ids", "block_num"};
static const char *const ARG_KEYS[] = {"idx", "type", "dtype", "shape", "start_offset", "strides"};

/* Compares tasks[i] of both sides (checked by check_deps), tensors by the numbering in rt and st. */
/* The T<n> number of a tensor_id value, -1 when absent. */
static int tensor_no(const strtab *t, const cJSON *id)
{
    char kb[CF_VALUE_MAX];
    return id ? strtab_find(t, id_key(id, kb, sizeof(kb))) : -1;
}

/* Would cmp_task find nothing? (Without building the place names it prints: most tasks are equal.) */
static bool task_same(const cJSON *r, const cJSON *s, const strtab *rt, const strtab *st)
{
    for (size_t k = 0; k < sizeof(TASK_KEYS) / sizeof(TASK_KEYS[0]); k++)
        if (!cf_same(cJSON_GetObjectItemCaseSensitive(r, TASK_KEYS[k]),
                     cJSON_GetObjectItemCaseSensitive(s, TASK_KEYS[k])))
            return false;
    const cJSON *rg = cJSON_GetObjectItemCaseSensitive(r, "args"),
                *sg = cJSON_GetObjectItemCaseSensitive(s, "args");
    if (cJSON_GetArraySize(rg) != cJSON_GetArraySize(sg))
        return false;
    for (const cJSON *x = rg->child, *y = sg->child; x && y; x = x->next, y = y->next) {
        for (size_t q = 0; q < sizeof(ARG_KEYS) / sizeof(ARG_KEYS[0]); q++)
            if (!cf_same(cJSON_GetObjectItemCaseSensitive(x, ARG_KEYS[q]),
                         cJSON_GetObjectItemCaseSensitive(y, ARG_KEYS[q])))
                return false;
        if (tensor_no(rt, cJSON_GetObjectItemCaseSensitive(x, "tensor_id")) !=
            tensor_no(st, cJSON_GetObjectItemCaseSensitive(y, "tensor_id")))
            return false;
    }
    return true;
}

static void cmp_task(cf_file *f, int i, const cJSON *r, const cJSON *s, const strtab *rt, const strtab *st)
{
    if (task_same(r, s, rt, st))
        return;
    {
        char lab[CF_VALUE_MAX], where[CF_VALUE_MAX + 32];
        snprintf(where, sizeof(where), "tasks[%d] %s", i,
                 task_label(cJSON_GetObjectItemCaseSensitive(r, "task_id"), lab, sizeof(lab)));
        for (size_t k = 0; k < sizeof(TASK_KEYS) / sizeof(TASK_KEYS[0]); k++)
            cf_cmp_key(f, where, r, s, TASK_KEYS[k]);
        const cJSON *rg = cJSON_GetObjectItemCaseSensitive(r, "args"),
                    *sg = cJSON_GetObjectItemCaseSensitive(s, "args");
        int rgn = cJSON_GetArraySize(rg), sgn = cJSON_GetArraySize(sg);
        if (rgn != sgn)
            cf_diff(f, "%s args: real %d, ptosim %d", where, rgn, sgn);
        const cJSON *x = rg->child, *y = sg->child;
        for (int k = 0; x && y; k++, x = x->next, y = y->next) {
            char aw[sizeof(where) + 32];
            snprintf(aw, sizeof(aw), "%s args[%d]", where, k);
            for (size_t q = 0; q < sizeof(ARG_KEYS) / sizeof(ARG_KEYS[0]); q++)
                cf_cmp_key(f, aw, x, y, ARG_KEYS[q]);
            char ta[32], tb[32];
            tensor_name(rt, cJSON_GetObjectItemCaseSensitive(x, "tensor_id"), ta, sizeof(ta));
            tensor_name(st, cJSON_GetObjectItemCaseSensitive(y, "tensor_id"), tb, sizeof(tb));
            if (strcmp(ta, tb) != 0)
                cf_diff(f, "%s tensor: real %s, ptosim %s", aw, ta, tb);
        }
    }
}

static void cmp_tasks(cf_file *f, const cJSON *rd, const cJSON *sd, const strtab *rt, const strtab *st)
{
    const cJSON *ra = cJSON_GetObjectItemCaseSensitive(rd, "tasks"),
                *sa = cJSON_GetObjectItemCaseSensitive(sd, "tasks");
    int rn = cJSON_GetArraySize(ra), sn = cJSON_GetArraySize(sa);
    if (rn != sn)
        cf_diff(f, "tasks: real %d, ptosim %d", rn, sn);
    const cJSON *r = ra->child, *s = sa->child;
    for (int i = 0; r && s; i++, r = r->next, s = s->next)
        cmp_task(f, i, r, s, rt, st);
}

/* The fields of an edge line, in its order, and how each is shown. */
enum { PRED, SUCC, ARG, SOURCE, FLAGS, OVERLAP, TID, CDT, CSH, COFF, CSTR, PSH, POFF, PSTR, EDGE_NKEYS };
static const char *const EDGE_KEYS[EDGE_NKEYS] = {"pred",
                                                  "succ",
                                                  "arg",
                                                  "source",
                                                  "flags",
                                                  "overlap",
                                                  "tensor_id",
                                                  "consumer_dtype",
                                                  "consumer_shape",
                                                  "consumer_start_offset",
                                                  "consumer_strides",
                                                  "producer_shape",
                                                  "producer_start_offset",
                                                  "producer_strides"};
enum { SHOW_LABEL, SHOW_TEXT, SHOW_RAW, SHOW_TENSOR }; /* task_label, cf_jtext, cf_jraw, tensor_name */
static const int EDGE_SHOW[EDGE_NKEYS] = {SHOW_LABEL, SHOW_LABEL, SHOW_TEXT, SHOW_RAW,  SHOW_TEXT,
                                          SHOW_RAW,   SHOW_TENSOR, SHOW_RAW, SHOW_TEXT, SHOW_RAW,
                                          SHOW_TEXT,  SHOW_TEXT,  SHOW_RAW,  SHOW_TEXT};

/* An edge's fields as its line shows them ("-" when absent), and which are present. */
typedef struct cf_edge_texts {
    char v[EDGE_NKEYS][CF_VALUE_MAX];
    bool have[EDGE_NKEYS];
} cf_edge_texts;

/* The texts of edge e (a tree). */
static void edge_texts_tree(const cJSON *e, const strtab *t, cf_edge_texts *x)
{
    /* each key's first member, as cJSON_GetObjectItemCaseSensitive finds it, in one walk */
    const cJSON *f[EDGE_NKEYS] = {NULL};
    for (const cJSON *c = e->child; c; c = c->next)
        for (int k = 0; c->string && k < EDGE_NKEYS; k++)
            if (!f[k] && c->string[0] == EDGE_KEYS[k][0] && strcmp(c->string, EDGE_KEYS[k]) == 0) {
                f[k] = c;
                break;
            }
    for (int k = 0; k < EDGE_NKEYS; k++) {
        x->have[k] = f[k] != NULL;
        char *v = x->v[k];
        switch (EDGE_SHOW[k]) {
        case SHOW_LABEL:
            task_label(f[k], v, CF_VALUE_MAX);
            break;
        case SHOW_TEXT:
            cf_jtext(f[k], v, CF_VALUE_MAX);
            break;
        case SHOW_RAW:
            cf_jraw(f[k], v, CF_VALUE_MAX);
            break;
        default:
            tensor_name(t, f[k], v, CF_VALUE_MAX);
            break;
        }
    }
}

/* One edge as a line: every compared field, the tensor as T<n>; the overlap, the tensor, the consumer view
 * and the producer view only when the edge has some field of them (an absent one inside shows as "-").
 * The line is also the sort key. Returns a malloc'd string, NULL when out of memory. */
static char *edge_line_of(const cf_edge_texts *x)
{
    char line[16 * CF_VALUE_MAX];
    size_t n = 0, cap = sizeof(line);
    line[0] = '\0';
    cf_cat(line, &n, cap, x->v[PRED]);
    cf_cat(line, &n, cap, " -> ");
    cf_cat(line, &n, cap, x->v[SUCC]);
    cf_cat(line, &n, cap, " arg ");
    cf_cat(line, &n, cap, x->v[ARG]);
    cf_cat(line, &n, cap, " ");
    cf_cat(line, &n, cap, x->v[SOURCE]);
    cf_cat(line, &n, cap, " ");
    cf_cat(line, &n, cap, x->v[FLAGS]);
    if (x->have[OVERLAP]) {
        cf_cat(line, &n, cap, " overlap ");
        cf_cat(line, &n, cap, x->v[OVERLAP]);
    }
    if (x->have[TID]) {
        cf_cat(line, &n, cap, " ");
        cf_cat(line, &n, cap, x->v[TID]);
    }
    if (x->have[CDT] || x->have[CSH] || x->have[COFF] || x->have[CSTR]) {
        cf_cat(line, &n, cap, " consumer ");
        cf_cat(line, &n, cap, x->v[CDT]);
        cf_cat(line, &n, cap, " ");
        cf_cat(line, &n, cap, x->v[CSH]);
        cf_cat(line, &n, cap, " off ");
        cf_cat(line, &n, cap, x->v[COFF]);
        cf_cat(line, &n, cap, " strides ");
        cf_cat(line, &n, cap, x->v[CSTR]);
    }
    if (x->have[PSH] || x->have[POFF] || x->have[PSTR]) {
        cf_cat(line, &n, cap, " producer ");
        cf_cat(line, &n, cap, x->v[PSH]);
        cf_cat(line, &n, cap, " off ");
        cf_cat(line, &n, cap, x->v[POFF]);
        cf_cat(line, &n, cap, " strides ");
        cf_cat(line, &n, cap, x->v[PSTR]);
    }
    return strdup(line);
}

static char *edge_line(const cJSON *e, const strtab *t)
{
    cf_edge_texts x;
    edge_texts_tree(e, t, &x);
    return edge_line_of(&x);
}

/* ---- the streamed comparison's spans (sim/json/json_span.h): the same texts as the trees give, or false ---- */

/* A span as cf_jtext shows it. */
static bool span_text(jspan v, char *buf)
{
    if (!v.p) {
        snprintf(buf, CF_VALUE_MAX, "-");
        return true;
    }
    return jspan_compact(v, buf, CF_VALUE_MAX);
}

/* A span as cf_jraw shows it. */
static bool span_raw(jspan v, char *buf)
{
    if (v.p && v.p[0] == '"')
        return jspan_string(v, buf, CF_VALUE_MAX);
    return span_text(v, buf);
}

/* A span as task_label shows it. */
static bool span_label(jspan v, char *buf)
{
    char s[CF_VALUE_MAX];
    uint64_t id = 0;
    if (!v.p) {
        snprintf(buf, CF_VALUE_MAX, "-");
        return true;
    }
    if (v.p[0] == '"') {
        if (!jspan_string(v, s, sizeof(s)) || !jspan_u64_text(s, &id))
            return false;
    } else {
        if (!jspan_compact(v, s, sizeof(s)))
            return false;
        for (const char *q = s; *q; q++) { /* at most 9 digits: a whole double */
            if (*q < '0' || *q > '9')
                return false;
            id = id * 10 + (uint64_t)(*q - '0');
        }
    }
    id_label(id, buf, CF_VALUE_MAX);
    return true;
}

/* The id key of a tensor_id span that is a plain string (id_key), into buf; false for any other. */
static bool span_id(jspan v, char *buf)
{
    return jspan_string(v, buf, CF_VALUE_MAX);
}

/* The texts of an edge from its members' spans (numbered in t already); false when the tree must say. */
static bool edge_texts_spans(const jspan *f, const strtab *t, cf_edge_texts *x)
{
    for (int k = 0; k < EDGE_NKEYS; k++) {
        x->have[k] = f[k].p != NULL;
        char *v = x->v[k], id[CF_VALUE_MAX];
        bool ok;
        switch (EDGE_SHOW[k]) {
        case SHOW_LABEL:
            ok = span_label(f[k], v);
            break;
        case SHOW_TEXT:
            ok = span_text(f[k], v);
            break;
        case SHOW_RAW:
            ok = span_raw(f[k], v);
            break;
        default:
            if ((ok = !f[k].p))
                snprintf(v, CF_VALUE_MAX, "-");
            else if ((ok = span_id(f[k], id)))
                tensor_label(strtab_find(t, id), v, CF_VALUE_MAX);
            break;
        }
        if (!ok)
            return false;
    }
    return true;
}

#define CF_FAST_ARGS 64 /* args of a task the spans compare; a task with more goes to the trees */
enum { A_IDX, A_TYPE, A_DTYPE, A_SHAPE, A_OFF, A_STRIDES, A_TID, ARG_NSPANS };
static const char *const ARG_SPAN_KEYS[ARG_NSPANS] = {"idx", "type", "dtype", "shape", "start_offset",
                                                      "strides", "tensor_id"};
#define TASK_NSPANS 6 /* TASK_KEYS, then "args" */

/* A task element as spans: its TASK_KEYS and args, each arg's ARG_SPAN_KEYS and its id key. */
typedef struct cf_task_spans {
    jspan f[TASK_NSPANS];
    int nargs;
    jspan arg[CF_FAST_ARGS][ARG_NSPANS];
    char id[CF_FAST_ARGS][CF_VALUE_MAX]; /* the arg's id key, "" when it has no tensor_id */
} cf_task_spans;

/* One arg of a task (jspan_each_fn): its spans and its id key. */
static bool arg_spans(const char *item, size_t avail, size_t *used, void *arg)
{
    cf_task_spans *x = arg;
    if (x->nargs == CF_FAST_ARGS || !jspan_object_at(item, avail, ARG_SPAN_KEYS, ARG_NSPANS, x->arg[x->nargs], used))
        return false;
    jspan id = x->arg[x->nargs][A_TID];
    if (id.p && !span_id(id, x->id[x->nargs]))
        return false;
    if (!id.p)
        x->id[x->nargs][0] = '\0';
    x->nargs++;
    return true;
}

static const char *const TASK_SPAN_KEYS[TASK_NSPANS] = {"task_id", "scope", "early_dispatch", "kernel_ids",
                                                         "block_num", "args"};

/* Reads a task element's spans, its args as the walk meets them; false when the trees must compare it. */
static bool task_spans(const char *text, size_t len, cf_task_spans *x)
{
    x->nargs = 0;
    return jspan_members_each(text, len, TASK_SPAN_KEYS, TASK_NSPANS, x->f, 5, arg_spans, x) && x->f[5].p;
}

static const char *const TENSOR_SPAN_KEYS[] = {"tensor_id", "version", "dtype", "buffer_numel", "buffer_addr"};

/* The lengths of the keys the digest looks for, taken once (cf_digester_new). */
typedef struct cf_keylens {
    size_t task[TASK_NSPANS], arg[ARG_NSPANS], edge[EDGE_NKEYS], tensor[5];
} cf_keylens;

static void keylens_init(cf_keylens *l)
{
    for (int k = 0; k < TASK_NSPANS; k++)
        l->task[k] = strlen(TASK_SPAN_KEYS[k]);
    for (int k = 0; k < ARG_NSPANS; k++)
        l->arg[k] = strlen(ARG_SPAN_KEYS[k]);
    for (int k = 0; k < EDGE_NKEYS; k++)
        l->edge[k] = strlen(EDGE_KEYS[k]);
    for (int k = 0; k < 5; k++)
        l->tensor[k] = strlen(TENSOR_SPAN_KEYS[k]);
}

/* The spans of keys (lens: their lengths) among the members of depth the check gave (checked text: no
 * repeated key, no escape, so the first member named so is the only one). */
static void spans_of_depth(const jstream_mspan *m, size_t nm, int depth, const char *const *keys,
                           const size_t *lens, int nkeys, jspan *out)
{
    for (int k = 0; k < nkeys; k++)
        out[k] = (jspan){NULL, 0};
    int next = 0;
    for (size_t i = 0; i < nm; i++) {
        if (m[i].depth != depth)
            continue;
        for (int j = 0; j < nkeys; j++) {
            int k = next + j < nkeys ? next + j : next + j - nkeys;
            if (lens[k] == m[i].klen && keys[k][0] == m[i].key[0] && jspan_same_bytes(keys[k], m[i].key, m[i].klen)) {
                out[k] = (jspan){m[i].v, m[i].vlen};
                next = k + 1 < nkeys ? k + 1 : 0;
                break;
            }
        }
    }
}

/* task_spans from what the check gave: the args' spans from the marks and members of the items before the
 * args member (json_stream.h). */
static bool task_spans_of(const jstream_mspan *m, size_t nm, const cf_keylens *kl, cf_task_spans *x)
{
    x->nargs = 0;
    spans_of_depth(m, nm, 0, TASK_SPAN_KEYS, kl->task, TASK_NSPANS, x->f);
    if (!x->f[5].p || x->f[5].p[0] != '[')
        return false;
    size_t at = 0; /* the args member's entry */
    while (m[at].depth != 0 || m[at].v != x->f[5].p)
        at++;
    size_t from = at; /* its items: the entries back to the member before it */
    while (from > 0 && m[from - 1].depth != 0)
        from--;
    for (size_t i = from; i < at;) {
        if (m[i].klen != 1 || x->nargs == CF_FAST_ARGS) /* an item that is no object, or too many */
            return false;
        size_t end = i + 1;
        while (end < at && m[end].depth == 2)
            end++;
        spans_of_depth(m + i + 1, end - i - 1, 2, ARG_SPAN_KEYS, kl->arg, ARG_NSPANS, x->arg[x->nargs]);
        jspan id = x->arg[x->nargs][A_TID];
        if (id.p && !span_id(id, x->id[x->nargs]))
            return false;
        if (!id.p)
            x->id[x->nargs][0] = '\0';
        x->nargs++;
        i = end;
    }
    return true;
}

/* Numbers a task's tensor ids in t as number_elem does. */
static int number_spans(const cf_task_spans *x, strtab *t)
{
    for (int k = 0; k < x->nargs; k++)
        if (x->arg[k][A_TID].p && strtab_intern(t, x->id[k]) < 0)
            return -1;
    return 0;
}

/* task_same on spans: true when the tasks are the same (their ids numbered); false when they may differ. */
static bool task_same_spans(const cf_task_spans *r, const cf_task_spans *s, const strtab *rt, const strtab *st)
{
    for (int k = 0; k < TASK_NSPANS - 1; k++)
        if (!jspan_same_text(r->f[k], s->f[k]))
            return false;
    if (r->nargs != s->nargs)
        return false;
    for (int a = 0; a < r->nargs; a++) {
        for (int q = 0; q < A_TID; q++)
            if (!jspan_same_text(r->arg[a][q], s->arg[a][q]))
                return false;
        int x = r->arg[a][A_TID].p ? strtab_find(rt, r->id[a]) : -1,
            y = s->arg[a][A_TID].p ? strtab_find(st, s->id[a]) : -1;
        if (x != y)
            return false;
    }
    return true;
}

int cf_cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The edges of d as sorted lines; NULL when out of memory. */
static char **edge_lines(const cJSON *d, const strtab *t, size_t *n)
{
    const cJSON *edges = cJSON_GetObjectItemCaseSensitive(d, "edges"), *e;
    *n = (size_t)cJSON_GetArraySize(edges);
    char **v = calloc(*n ? *n : 1, sizeof(*v));
    size_t i = 0;
    cJSON_ArrayForEach(e, edges)
    {
        if (!v || !(v[i++] = edge_line(e, t))) {
            for (size_t k = 0; v && k < i; k++)
                free(v[k]);
            free(v);
            return NULL;
        }
    }
    qsort(v, *n, sizeof(*v), cf_cmp_str);
    return v;
}

/* The edge multisets: a sorted merge; what is left on one side is an edge only there. */
static int cmp_edges(cf_file *f, const cJSON *rd, const cJSON *sd, const strtab *rt, const strtab *st)
{
    size_t rn, sn;
    char **r = edge_lines(rd, rt, &rn), **s = r ? edge_lines(sd, st, &sn) : NULL;
    if (!s) {
        for (size_t i = 0; r && i < rn; i++)
            free(r[i]);
        free(r);
        return -1;
    }
    if (rn != sn)
        cf_diff(f, "edges: real %zu, ptosim %zu", rn, sn);
    size_t i = 0, j = 0;
    while (i < rn || j < sn) {
        int c = i == rn ? 1 : j == sn ? -1 : strcmp(r[i], s[j]);
        if (c == 0) {
            i++;
            j++;
        } else if (c < 0) {
            cf_diff(f, "edge only in real: %s", r[i++]);
        } else {
            cf_diff(f, "edge only in ptosim: %s", s[j++]);
        }
    }
    for (i = 0; i < rn; i++)
        free(r[i]);
    for (j = 0; j < sn; j++)
        free(s[j]);
    free(r);
    free(s);
    return 0;
}

static const char *const TENSOR_KEYS[] = {"version", "dtype", "buffer_numel"};

/* The real arena base the first runtime-created tensor gives, for the tensors after it. */
typedef struct cf_base {
    bool have;     /* a runtime-created tensor was seen */
    uint64_t real; /* real address of ptosim's arena offset 0 */
    int from;      /* the index of the tensor that gave it */
} cf_base;

/* Compares tensors[i] of both sides (checked by check_deps). */
static void cmp_tensor(cf_file *f, int i, const cJSON *r, const cJSON *s, const strtab *rt, const strtab *st,
                       const cf_arena *arena, cf_base *b)
{
    {
        char where[64], ta[32], tb[32], va[CF_VALUE_MAX], vb[CF_VALUE_MAX];
        snprintf(where, sizeof(where), "tensors[%d]", i);
        tensor_name(rt, cJSON_GetObjectItemCaseSensitive(r, "tensor_id"), ta, sizeof(ta));
        tensor_name(st, cJSON_GetObjectItemCaseSensitive(s, "tensor_id"), tb, sizeof(tb));
        if (strcmp(ta, tb) != 0)
            cf_diff(f, "%s tensor: real %s, ptosim %s", where, ta, tb);
        for (size_t k = 0; k < sizeof(TENSOR_KEYS) / sizeof(TENSOR_KEYS[0]); k++)
            cf_cmp_key(f, where, r, s, TENSOR_KEYS[k]);
        const cJSON *rv = cJSON_GetObjectItemCaseSensitive(r, "buffer_addr"),
                    *sv = cJSON_GetObjectItemCaseSensitive(s, "buffer_addr");
        uint64_t ra64, sa64;
        if (!cf_get_u64(rv, &ra64) || !cf_get_u64(sv, &sa64)) {
            if (!cf_same(rv, sv))
                cf_diff(f, "%s buffer_addr: real %s, ptosim %s (not both decimal u64)", where,
                        cf_jtext(rv, va, sizeof(va)), cf_jtext(sv, vb, sizeof(vb)));
            return;
        }
        if (sa64 < arena->base || sa64 - arena->base >= arena->size) {
            if (ra64 != sa64)
                cf_diff(f, "%s buffer_addr: real %" PRIu64 ", ptosim %" PRIu64 " (external: must be equal)",
                        where, ra64, sa64);
            return;
        }
        uint64_t off = sa64 - arena->base;
        if (!b->have) {
            b->have = true;
            b->real = ra64 - off;
            b->from = i;
        } else if (ra64 - off != b->real) {
            cf_diff(f,
                    "%s buffer_addr: heap offset real 0x%" PRIx64 ", ptosim 0x%" PRIx64
                    " (offsets from the real heap base 0x%" PRIx64 " that tensors[%d] gives)",
                    where, ra64 - b->real, off, b->real, b->from);
        }
    }
}

static void cmp_tensors(cf_file *f, const cJSON *rd, const cJSON *sd, const strtab *rt, const strtab *st,
                        const cf_arena *arena)
{
    const cJSON *ra = cJSON_GetObjectItemCaseSensitive(rd, "tensors"),
                *sa = cJSON_GetObjectItemCaseSensitive(sd, "tensors");
    int rn = cJSON_GetArraySize(ra), sn = cJSON_GetArraySize(sa);
    if (rn != sn)
        cf_diff(f, "tensors: real %d, ptosim %d", rn, sn);
    cf_base b = {false, 0, -1};
    const cJSON *r = ra->child, *s = sa->child;
    for (int i = 0; r && s; i++, r = r->next, s = s->next)
        cmp_tensor(f, i, r, s, rt, st, arena, &b);
}

int cf_cmp_deps(cf_file *f, const cJSON *rd, const cJSON *sd, const cf_arena *arena)
{
    strtab rt, st;
    strtab_init(&rt);
    strtab_init(&st);
    int rc = -1;
    if (number_tensors(rd, &rt) != 0 || number_tensors(sd, &st) != 0)
        goto out;
    if (rt.count != st.count)
        cf_diff(f, "distinct tensor ids: real %zu, ptosim %zu", rt.count, st.count);
    cmp_tasks(f, rd, sd, &rt, &st);
    if (cmp_edges(f, rd, sd, &rt, &st) != 0)
        goto out;
    cmp_tensors(f, rd, sd, &rt, &st, arena);
    rc = 0;
out:
    strtab_free(&rt);
    strtab_free(&st);
    return rc;
}

/* ---- deps.json streamed: its lists walked in step, the edges by their hashes ---- */

/* A stream at the first element of a list; -1 with a message when the file cannot be opened. */
static int list_open(jstream *js, const char *path, const cf_list *l, char *err, size_t errlen)
{
    if (jstream_open(js, path) != 0)
        return cf_fail(err, errlen, "%s: cannot read: %s", path, strerror(errno));
    jstream_trust(js); /* checked by sdeps_check; cf_tree() parses each element strictly */
    jstream_seek(js, l->off);
    jstream_eat(js, '[');
    return 0;
}

/* Why a list's element could not be had: a read failed, the file changed since it was checked, or (the
 * text was had) memory ran out. Returns -1. */
static int list_fault(const jstream *js, bool had_text, const char *path, char *err, size_t errlen)
{
    if (js->err)
        return cf_fail(err, errlen, "%s: cannot read: %s", path, strerror(js->err));
    if (js->bad || !had_text)
        return cf_fail(err, errlen, "%s: changed while conform read it", path);
    return cf_fail(err, errlen, "out of memory");
}

/* The next element of a list as text in the stream's window (valid until the next call): 1, 0 at its end
 * (*end true), -1 with a message. */
static int list_text(jstream *js, bool *first, bool *end, const char **t, size_t *n, const char *path, char *err,
                     size_t errlen)
{
    int r = *end ? 0 : jstream_next(js, ']', first);
    if (r == 0) {
        *end = true;
        return 0;
    }
    if (r == 1 && jstream_value(js, t, n))
        return 1;
    return list_fault(js, false, path, err, errlen);
}

/* Numbers the tensor_id of an element (with args: of its args) in t. */
static int number_elem(const cJSON *e, bool args, strtab *t)
{
    char buf[CF_VALUE_MAX];
    const cJSON *g;
    if (!args) {
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(e, "tensor_id");
        return id && strtab_intern(t, id_key(id, buf, sizeof(buf))) < 0 ? -1 : 0;
    }
    cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(e, "args"))
    {
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(g, "tensor_id");
        if (id && strtab_intern(t, id_key(id, buf, sizeof(buf))) < 0)
            return -1;
    }
    return 0;
}

/* Compares one pair of list l's elements (either may be absent at the end of its list) by their trees:
 * numbers each element's tensors, then compares them. Returns 0, or -1 with a message. */
static int spair_trees(cf_file *f, int l, int i, const char *xt, size_t xn, const char *yt, size_t yn,
                       const cf_sdfx *r, const cf_sdfx *s, strtab *rt, strtab *st, const cf_arena *arena,
                       cf_base *base, char *err, size_t errlen)
{
    cJSON *x = xt ? cf_tree(xt, xn) : NULL, *y = yt ? cf_tree(yt, yn) : NULL;
    int rc = 0;
    if ((xt && !x) || (yt && !y)) {
        bool xbad = xt && !x;
        rc = jstream_check(xbad ? xt : yt, xbad ? xn : yn)
                 ? cf_fail(err, errlen, "out of memory")
                 : cf_fail(err, errlen, "%s: changed while conform read it",
                           xbad ? r->deps_path : s->deps_path);
    } else if ((x && number_elem(x, l == CF_TASKS, rt) != 0) || (y && number_elem(y, l == CF_TASKS, st) != 0)) {
        rc = cf_fail(err, errlen, "out of memory");
    } else if (x && y) {
        if (l == CF_TASKS)
            cmp_task(f, i, x, y, rt, st);
        else
            cmp_tensor(f, i, x, y, rt, st, arena, base);
    }
    cJSON_Delete(x);
    cJSON_Delete(y);
    return rc;
}

/* Walks list l of both sides in step: numbers each element's tensors, then compares the pair (tasks or
 * tensors). A pair of tasks the spans find the same needs no tree. Returns 0, or -1 with a message. */
static int swalk(cf_file *f, int l, const cf_sdfx *r, const cf_sdfx *s, strtab *rt, strtab *st,
                 const cf_arena *arena, char *err, size_t errlen)
{
    jstream a, b;
    if (list_open(&a, r->deps_path, &r->lists[l], err, errlen) != 0)
        return -1;
    if (list_open(&b, s->deps_path, &s->lists[l], err, errlen) != 0) {
        cf_stream_done(&a);
        return -1;
    }
    cf_task_spans *sp = l == CF_TASKS ? malloc(2 * sizeof(*sp)) : NULL;
    bool fa = true, fb = true, ea = false, eb = false;
    cf_base base = {false, 0, -1};
    int rc = l == CF_TASKS && !sp ? cf_fail(err, errlen, "out of memory") : 0;
    for (int i = 0; rc == 0; i++) {
        const char *xt = NULL, *yt = NULL;
        size_t xn = 0, yn = 0;
        int qa = list_text(&a, &fa, &ea, &xt, &xn, r->deps_path, err, errlen);
        int qb = qa < 0 ? -1 : list_text(&b, &fb, &eb, &yt, &yn, s->deps_path, err, errlen);
        if (qa < 0 || qb < 0) {
            rc = -1;
            break;
        }
        if (qa == 0 && qb == 0)
            break;
        if (qa == 1 && qb == 1 && sp && task_spans(xt, xn, &sp[0]) && task_spans(yt, yn, &sp[1])) {
            if (number_spans(&sp[0], rt) != 0 || number_spans(&sp[1], st) != 0) {
                rc = cf_fail(err, errlen, "out of memory");
                break;
            }
            if (task_same_spans(&sp[0], &sp[1], rt, st))
                continue;
        }
        rc = spair_trees(f, l, i, qa == 1 ? xt : NULL, xn, qb == 1 ? yt : NULL, yn, r, s, rt, st, arena, &base,
                         err, errlen);
    }
    free(sp);
    cf_stream_done(&a);
    cf_stream_done(&b);
    return rc;
}

#define FNV_PRIME 1099511628211ULL
#define FNV_BASIS 14695981039346656037ULL

/* The finaliser of line_hash and the digests' hashes. */
static uint64_t hash_done(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h;
}

/* A 64-bit hash of a string (FNV-1a, then a finaliser that spreads it). */
static uint64_t line_hash(const char *s)
{
    uint64_t h = FNV_BASIS;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * FNV_PRIME;
    return hash_done(h);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* A hash with how many more times one side has it than the other. */
typedef struct cf_extra {
    uint64_t hash; /* the edge line's hash */
    long count;    /* edges with it only on this side */
    bool kept;     /* its line is among the kept ones */
} cf_extra;

/* One of the smallest difference lines. */
typedef struct cf_kept {
    char *line; /* the edge line */
    bool real;  /* only in real (else only in ptosim) */
    long count; /* how many times */
} cf_kept;

static int cmp_extra(const void *a, const void *b)
{
    return cmp_u64(&((const cf_extra *)a)->hash, &((const cf_extra *)b)->hash);
}

/* Walks the edges of one side: numbers their tensors and, with hashes, appends each line's hash; with
 * extras, keeps the lines of the hashes in extras among the CONFORM_MAX_LINES smallest in kept. */
static int sedges(const cf_sdfx *d, strtab *t, uint64_t **hashes, size_t *n, cf_extra *extras, size_t nextra,
                  bool real, cf_kept *kept, size_t *nkept, char *err, size_t errlen)
{
    jstream js;
    if (list_open(&js, d->deps_path, &d->lists[CF_EDGES], err, errlen) != 0)
        return -1;
    bool first = true, end = false;
    size_t cap = 0;
    int rc = 0;
    cf_edge_texts *x = malloc(sizeof(*x));
    if (!x)
        rc = cf_fail(err, errlen, "out of memory");
    while (rc == 0) {
        const char *text;
        size_t len;
        int q = list_text(&js, &first, &end, &text, &len, d->deps_path, err, errlen);
        if (q <= 0) {
            rc = q;
            break;
        }
        /* the spans when they can tell; the tree otherwise (numbering an id again changes nothing) */
        jspan f[EDGE_NKEYS];
        char id[CF_VALUE_MAX];
        char *line = NULL;
        bool fast = jspan_members(text, len, EDGE_KEYS, EDGE_NKEYS, f) && (!f[TID].p || span_id(f[TID], id));
        if (fast && f[TID].p && strtab_intern(t, id) < 0) {
            rc = cf_fail(err, errlen, "out of memory");
            break;
        }
        if (fast && edge_texts_spans(f, t, x)) {
            line = edge_line_of(x);
        } else {
            cJSON *e = cf_tree(text, len);
            if (!e) {
                rc = list_fault(&js, jstream_check(text, len), d->deps_path, err, errlen);
                break;
            }
            line = number_elem(e, false, t) == 0 ? edge_line(e, t) : NULL;
            cJSON_Delete(e);
        }
        if (!line) {
            rc = cf_fail(err, errlen, "out of memory");
            break;
        }
        uint64_t h = line_hash(line);
        if (hashes) {
            if (*n == cap) {
                size_t nc = cap ? cap * 2 : 1024;
                uint64_t *nh = nc <= SIZE_MAX / sizeof(*nh) ? realloc(*hashes, nc * sizeof(*nh)) : NULL;
                if (!nh) {
                    free(line);
                    rc = cf_fail(err, errlen, "out of memory");
                    break;
                }
                *hashes = nh;
                cap = nc;
            }
            (*hashes)[(*n)++] = h;
        }
        cf_extra key = {h, 0, false},
                 *xt = extras ? bsearch(&key, extras, nextra, sizeof(*extras), cmp_extra) : NULL;
        if (!xt || xt->kept) {
            free(line);
            continue;
        }
        /* insert in order among the kept lines; the largest falls out past CONFORM_MAX_LINES */
        size_t at = *nkept;
        while (at > 0 && strcmp(kept[at - 1].line, line) > 0)
            at--;
        if (at >= CONFORM_MAX_LINES) {
            free(line);
            continue;
        }
        if (*nkept == CONFORM_MAX_LINES)
            free(kept[--*nkept].line);
        memmove(kept + at + 1, kept + at, (*nkept - at) * sizeof(*kept));
        kept[at] = (cf_kept){line, real, xt->count};
        ++*nkept;
        xt->kept = true;
    }
    free(x);
    cf_stream_done(&js);
    return rc;
}

/* The edge multisets, as cmp_edges compares them, holding 8 bytes per edge: each side's line hashes are
 * sorted and merged; the lines of the hashes one side has more often are found in a second walk, of which
 * the CONFORM_MAX_LINES smallest are printed (as the sorted merge of the lines would) and the rest
 * counted. Two different lines with one hash would pass as equal (about 1 in 10^9 for 10^5 edges). */
static int scmp_edges(cf_file *f, const cf_sdfx *r, const cf_sdfx *s, strtab *rt, strtab *st, char *err,
                      size_t errlen)
{
    uint64_t *hr = NULL, *hs = NULL;
    size_t rn = 0, sn = 0, nr = 0, ns = 0, nkept = 0;
    cf_extra *xr = NULL, *xs = NULL;
    cf_kept kept[CONFORM_MAX_LINES + 1];
    int rc = -1;
    if (sedges(r, rt, &hr, &rn, NULL, 0, true, NULL, NULL, err, errlen) != 0 ||
        sedges(s, st, &hs, &sn, NULL, 0, false, NULL, NULL, err, errlen) != 0)
        goto out;
    if (rn != sn)
        cf_diff(f, "edges: real %zu, ptosim %zu", rn, sn);
    if (rn) /* no edges: no array (qsort takes no NULL) */
        qsort(hr, rn, sizeof(*hr), cmp_u64);
    if (sn)
        qsort(hs, sn, sizeof(*hs), cmp_u64);
    long total = 0;
    for (int pass = 0; pass < 2; pass++) { /* count the hashes that differ, then keep them */
        if (pass == 1) {
            xr = calloc(nr ? nr : 1, sizeof(*xr));
            xs = calloc(ns ? ns : 1, sizeof(*xs));
            if (!xr || !xs) {
                cf_fail(err, errlen, "out of memory");
                goto out;
            }
            nr = ns = 0;
            total = 0;
        }
        for (size_t i = 0, j = 0; i < rn || j < sn;) {
            uint64_t h = i < rn && (j == sn || hr[i] <= hs[j]) ? hr[i] : hs[j];
            long a = 0, b = 0;
            for (; i < rn && hr[i] == h; i++)
                a++;
            for (; j < sn && hs[j] == h; j++)
                b++;
            if (a > b && xr)
                xr[nr] = (cf_extra){h, a - b, false};
            if (b > a && xs)
                xs[ns] = (cf_extra){h, b - a, false};
            nr += a > b;
            ns += b > a;
            total += a > b ? a - b : b - a;
        }
    }
    if (total) {
        if (sedges(r, rt, NULL, NULL, xr, nr, true, kept, &nkept, err, errlen) != 0 ||
            sedges(s, st, NULL, NULL, xs, ns, false, kept, &nkept, err, errlen) != 0)
            goto out;
        long shown = 0;
        for (size_t k = 0; k < nkept; k++)
            for (long c = 0; c < kept[k].count; c++, shown++)
                cf_diff(f, "edge only in %s: %s", kept[k].real ? "real" : "ptosim", kept[k].line);
        f->diffs += total - shown;
    }
    rc = 0;
out:
    for (size_t k = 0; k < nkept; k++)
        free(kept[k].line);
    free(hr);
    free(hs);
    free(xr);
    free(xs);
    return rc;
}

/* The streaming cf_cmp_deps: tasks in step, the edges, tensors in step; the tensor numbering grows as the
 * walks meet the ids, in the order number_tensors gives them. The difference lines are held until the
 * count of distinct ids, which comes first, is known. */
int cf_scmp_deps(FILE *report, long *diffs, const cf_sdfx *r, const cf_sdfx *s, const cf_arena *arena,
                 char *err, size_t errlen)
{
    char *held[CONFORM_MAX_LINES] = {NULL};
    cf_file f = {report, "deps.json", 0, held, false};
    strtab rt, st;
    strtab_init(&rt);
    strtab_init(&st);
    int rc = -1;
    if (r->lists[CF_TASKS].n != s->lists[CF_TASKS].n)
        cf_diff(&f, "tasks: real %ld, ptosim %ld", r->lists[CF_TASKS].n, s->lists[CF_TASKS].n);
    if (swalk(&f, CF_TASKS, r, s, &rt, &st, arena, err, errlen) != 0 ||
        scmp_edges(&f, r, s, &rt, &st, err, errlen) != 0)
        goto out;
    if (r->lists[CF_TENSORS].n != s->lists[CF_TENSORS].n)
        cf_diff(&f, "tensors: real %ld, ptosim %ld", r->lists[CF_TENSORS].n, s->lists[CF_TENSORS].n);
    if (swalk(&f, CF_TENSORS, r, s, &rt, &st, arena, err, errlen) != 0)
        goto out;
    if (f.oom) {
        cf_fail(err, errlen, "out of memory");
        goto out;
    }
    cf_file out = {report, "deps.json", 0, NULL, false};
    if (rt.count != st.count)
        cf_diff(&out, "distinct tensor ids: real %zu, ptosim %zu", rt.count, st.count);
    for (long k = 0; k < f.diffs; k++)
        if (out.diffs++ < CONFORM_MAX_LINES && k < CONFORM_MAX_LINES)
            fputs(held[k], report);
    *diffs = out.diffs;
    rc = 0;
out:
    for (int k = 0; k < CONFORM_MAX_LINES; k++)
        free(held[k]);
    strtab_free(&rt);
    strtab_free(&st);
    return rc;
}

/* ---- one side's digest: equal captures compared without walking both sides in step ---- */

void cf_digest_free(cf_digest *g)
{
    free(g->tasks);
    free(g->edges);
    free(g->tens);
    free(g->addr);
    memset(g, 0, sizeof(*g));
}

/* The digests' hash: eight bytes a step (a word mixed in, then its high bits folded down, so that every
 * byte reaches every bit of what follows). Each step is one-to-one in its word. */
static inline uint64_t mix_word(uint64_t x, uint64_t w)
{
    x = (x ^ w) * 0x9e3779b97f4a7c15ULL;
    return x ^ (x >> 29);
}

/* A text fed to the hash a byte at a time, a word mixed in at every eighth: the bytes so far in w (nb of
 * them, the first lowest). */
typedef struct cf_hasher {
    uint64_t x, w;
    unsigned nb;
} cf_hasher;

static inline void hasher_byte(cf_hasher *s, unsigned char c)
{
    s->w |= (uint64_t)c << (8 * s->nb);
    if (++s->nb == 8) {
        s->x = mix_word(s->x, s->w);
        s->w = 0;
        s->nb = 0;
    }
}

/* Does the word hold a byte below '!' (white space, or what no checked text holds outside a string: the
 * byte path then decides) or a backslash? */
static inline bool word_has_ws_bs(uint64_t x)
{
    const uint64_t ones = 0x0101010101010101ULL, high = ones * 0x80, bs = x ^ (ones * '\\');
    return (((x - ones * '!') & ~x) | ((bs - ones) & ~bs)) & high;
}

/* hash_span's way for a text with white space or an escape: a byte at a time from i on (the words before it
 * hold neither: their quotes say whether i is inside a string), the strings followed. */
static __attribute__((noinline)) bool hash_bytes(uint64_t *h, cf_hasher s, jspan v, size_t i)
{
    bool in_str = false;
    for (size_t k = 0; k < i; k++)
        in_str ^= v.p[k] == '"';
    for (; i < v.n; i++) {
        unsigned char c = (unsigned char)v.p[i];
        if (!in_str && (c == ' ' || c == '\t' || c == '\n' || c == '\r'))
            continue;
        if (c == '\\')
            return false;
        if (c == '"')
            in_str = !in_str;
        hasher_byte(&s, c);
    }
    s.x = mix_word(s.x, s.w);
    *h = mix_word(s.x, 0x100 + s.nb);
    return true;
}

/* Adds v's text without the white space outside its strings, then its end (absent: a mark of its own), so
 * that equal hashes mean texts jspan_same_text finds the same (a checked text holds no NUL byte, so a
 * value's last bytes and their count tell it). v lies in a text that starts at lo (its last bytes are read
 * as one word when eight bytes of that text end there). False on an escape, which may write one value two
 * ways. */
static inline __attribute__((always_inline)) bool hash_span(uint64_t *h, jspan v, const char *lo)
{
    if (!v.p) {
        *h = mix_word(*h, 0x1ff);
        return true;
    }
    cf_hasher s = {*h, 0, 0};
    size_t i = 0;
    /* the words without white space or a backslash, the most of a compact text, as they are */
    while (v.n - i >= 8) {
        uint64_t w;
        memcpy(&w, v.p + i, 8);
        if (word_has_ws_bs(w))
            break;
        s.x = mix_word(s.x, w);
        i += 8;
    }
    size_t t = v.n - i;
    if (t < 8) { /* the last t bytes as one word, the rest of it zero (no text byte is) */
        uint64_t w = 0;
        if (t && (size_t)(v.p - lo) + v.n >= 8) {
            memcpy(&w, v.p + v.n - 8, 8);
            w >>= 8 * (8 - t);
        } else {
            for (size_t k = 0; k < t; k++)
                w |= (uint64_t)(unsigned char)v.p[i + k] << (8 * k);
        }
        /* the zero bytes above them tested as letters */
        if (!t || !word_has_ws_bs(w | 0x4141414141414141ULL << (8 * t))) {
            *h = mix_word(mix_word(s.x, w), 0x100 + t);
            return true;
        }
    }
    return hash_bytes(h, s, v, i);
}

/* Adds a whole number (a count, a T<n> or -1). */
static void hash_int(uint64_t *h, int64_t v)
{
    *h = mix_word(mix_word(*h, (uint64_t)v), 0x200);
}

/* Appends v to a growing array (*a, *n, *cap). False when out of memory. */
static bool push_u64(uint64_t **a, size_t *n, size_t *cap, uint64_t v)
{
    if (*n == *cap) {
        size_t nc = *cap ? *cap * 2 : 1024;
        uint64_t *na = nc <= SIZE_MAX / sizeof(*na) ? realloc(*a, nc * sizeof(*na)) : NULL;
        if (!na)
            return false;
        *a = na;
        *cap = nc;
    }
    (*a)[(*n)++] = v;
    return true;
}

/* Calls each(text, len, arg) on every element of d's list l while g->ok (each returns whether it took the
 * element); a read that fails clears g->ok. */
static void digest_walk(const cf_sdfx *d, int l, cf_digest *g, bool (*each)(const char *, size_t, void *),
                        void *arg)
{
    jstream js;
    if (!g->ok)
        return;
    if (list_open(&js, d->deps_path, &d->lists[l], g->err, sizeof(g->err)) != 0) {
        g->ok = false;
        return;
    }
    bool first = true, end = false;
    while (g->ok) {
        const char *text;
        size_t len;
        int q = list_text(&js, &first, &end, &text, &len, d->deps_path, g->err, sizeof(g->err));
        if (q <= 0) {
            g->ok = q == 0;
            break;
        }
        g->ok = each(text, len, arg);
    }
    cf_stream_done(&js);
}

/* The members the check gave of the element being digested (cf_digester_elem), or none (m NULL): read
 * from its text then. */
typedef struct cf_given {
    const jstream_mspan *m;
    size_t n;
    const cf_keylens *kl; /* the keys' lengths */
} cf_given;

typedef struct cf_task_walk {
    strtab *t;          /* the side's numbering */
    cf_task_spans *sp;  /* scratch */
    cf_digest *g;       /* tasks, ntasks */
    size_t cap;         /* of g->tasks */
    cf_given given;     /* the element's members, when the check gave them */
} cf_task_walk;

/* A task: its ids numbered, a hash of what task_same_spans compares. */
static bool task_digest(const char *text, size_t len, void *arg)
{
    cf_task_walk *w = arg;
    cf_task_spans *sp = w->sp;
    uint64_t h = FNV_BASIS;
    bool ok = w->given.m ? task_spans_of(w->given.m, w->given.n, w->given.kl, sp) : task_spans(text, len, sp);
    for (int k = 0; ok && k < TASK_NSPANS - 1; k++)
        ok = hash_span(&h, sp->f[k], text);
    hash_int(&h, sp->nargs);
    for (int a = 0; ok && a < sp->nargs; a++) { /* each id numbered as number_spans numbers them */
        int no = sp->arg[a][A_TID].p ? strtab_intern(w->t, sp->id[a]) : -1;
        for (int k = 0; ok && k < A_TID; k++)
            ok = hash_span(&h, sp->arg[a][k], text);
        ok = ok && (no >= 0 || !sp->arg[a][A_TID].p);
        hash_int(&h, no);
    }
    return ok && push_u64(&w->g->tasks, &w->g->ntasks, &w->cap, hash_done(h));
}

/* The tasks of d, numbered into t. */
static void digest_tasks(const cf_sdfx *d, strtab *t, cf_digest *g)
{
    cf_task_walk w = {t, malloc(sizeof(cf_task_spans)), g, 0, {NULL, 0, NULL}};
    g->ok = w.sp != NULL;
    digest_walk(d, CF_TASKS, g, task_digest, &w);
    free(w.sp);
}

/* A list digested before its tensor ids can be numbered (the tasks' numbering is made at the same time):
 * each element's hash without its id, and the id's slot in a table of the list's own ids in order of first
 * appearance (-1: none). digest_number then numbers those ids after the ones before them, as the walk
 * would, and finishes the hashes. */
typedef struct cf_pending {
    uint64_t *h;  /* per element: the hash of all but the id */
    int *local;   /* per element: the id's slot in ids, -1 when absent */
    size_t n, cap; /* elements, allocated */
    strtab ids;   /* the list's ids */
    cf_given given; /* the element's members, when the check gave them */
} cf_pending;

static bool pending_push(cf_pending *q, uint64_t h, int local)
{
    if (q->n == q->cap) {
        size_t nc = q->cap ? q->cap * 2 : 1024;
        uint64_t *nh = nc <= SIZE_MAX / sizeof(*nh) ? realloc(q->h, nc * sizeof(*nh)) : NULL;
        if (nh)
            q->h = nh;
        int *nl = nh && nc <= SIZE_MAX / sizeof(*nl) ? realloc(q->local, nc * sizeof(*nl)) : NULL;
        if (!nl)
            return false;
        q->local = nl;
        q->cap = nc;
    }
    q->h[q->n] = h;
    q->local[q->n++] = local;
    return true;
}

static void pending_free(cf_pending *q)
{
    free(q->h);
    free(q->local);
    strtab_free(&q->ids);
}

/* An edge: a hash of its members' texts but the tensor (aside). Equal texts make equal edge lines; an edge
 * whose texts the spans cannot hash (an escape) leaves the side without a digest. */
static bool edge_digest(const char *text, size_t len, void *arg)
{
    cf_pending *q = arg;
    jspan f[EDGE_NKEYS];
    char id[CF_VALUE_MAX];
    int local = -1;
    uint64_t h = FNV_BASIS;
    bool ok = q->given.m ? (spans_of_depth(q->given.m, q->given.n, 0, EDGE_KEYS, q->given.kl->edge, EDGE_NKEYS, f),
                            true)
                         : jspan_members(text, len, EDGE_KEYS, EDGE_NKEYS, f);
    ok = ok && (!f[TID].p || span_id(f[TID], id));
    if (ok && f[TID].p && (local = strtab_intern(&q->ids, id)) < 0)
        ok = false;
    for (int k = 0; ok && k < EDGE_NKEYS; k++)
        ok = k == TID || hash_span(&h, f[k], text);
    return ok && pending_push(q, h, local);
}

typedef struct cf_tensor_walk {
    cf_pending *q;  /* the hashes and ids */
    cf_digest *g;   /* addr */
    size_t n, cap;  /* of g->addr */
    cf_given given; /* the element's members, when the check gave them */
} cf_tensor_walk;

/* A tensor: a hash of what cmp_tensor compares but the tensor (aside) and the address, which is kept as it
 * is (whether it is in ptosim's arena is the comparison's to say). */
static bool tensor_digest(const char *text, size_t len, void *arg)
{
    const char *const *KEYS = TENSOR_SPAN_KEYS;
    cf_tensor_walk *w = arg;
    jspan f[5];
    char id[CF_VALUE_MAX], v[CF_VALUE_MAX];
    uint64_t h = FNV_BASIS, addr = 0;
    int local = -1;
    bool ok = w->given.m ? (spans_of_depth(w->given.m, w->given.n, 0, KEYS, w->given.kl->tensor, 5, f), true)
                         : jspan_members(text, len, KEYS, 5, f);
    ok = ok && (!f[0].p || span_id(f[0], id));
    if (ok && f[0].p && (local = strtab_intern(&w->q->ids, id)) < 0)
        ok = false;
    for (int k = 1; ok && k < 4; k++)
        ok = hash_span(&h, f[k], text);
    /* cf_get_u64: a decimal string, or a whole number (jspan_compact: at most 9 digits) */
    if (ok && f[4].p && f[4].p[0] == '"')
        ok = jspan_string(f[4], v, sizeof(v)) && jspan_u64_text(v, &addr);
    else if (ok)
        ok = f[4].p && jspan_compact(f[4], v, sizeof(v)) && v[0] >= '0' && v[0] <= '9' && jspan_u64_text(v, &addr);
    return ok && pending_push(w->q, h, local) && push_u64(&w->g->addr, &w->n, &w->cap, addr);
}

/* Numbers q's ids in t after those already there (in q's order of first appearance, as the walk meets
 * them) and gives each element its hash with its T<n>. NULL when out of memory. */
static uint64_t *digest_number(cf_pending *q, strtab *t)
{
    int *no = malloc((q->ids.count ? q->ids.count : 1) * sizeof(*no));
    uint64_t *out = malloc((q->n ? q->n : 1) * sizeof(*out));
    for (size_t k = 0; no && out && k < q->ids.count; k++)
        if ((no[k] = strtab_intern(t, strtab_key(&q->ids, (int)k))) < 0) {
            free(out);
            out = NULL;
        }
    for (size_t i = 0; no && out && i < q->n; i++) {
        uint64_t h = q->h[i];
        hash_int(&h, q->local[i] < 0 ? -1 : no[q->local[i]]);
        out[i] = hash_done(h);
    }
    free(no);
    return out;
}

/* The edges and tensors of a side, digested apart from its tasks (on a second thread, or after them). */
typedef struct cf_rest_job {
    const cf_sdfx *d;
    cf_pending eq, tq; /* edges, tensors */
    cf_digest g;       /* its ok and err, and the tensors' addresses */
} cf_rest_job;

static void *rest_main(void *arg)
{
    cf_rest_job *j = arg;
    j->g.ok = true;
    digest_walk(j->d, CF_EDGES, &j->g, edge_digest, &j->eq);
    cf_tensor_walk tw = {&j->tq, &j->g, 0, 0, {NULL, 0, NULL}};
    digest_walk(j->d, CF_TENSORS, &j->g, tensor_digest, &tw);
    return NULL;
}

/* Makes d's digest (g->ok when whole); with split, its edges and tensors on a second thread while this one
 * reads the tasks. */
void cf_digest_side(const cf_sdfx *d, bool split, cf_digest *g)
{
    memset(g, 0, sizeof(*g));
    strtab t;
    strtab_init(&t);
    cf_rest_job rj = {.d = d};
    strtab_init(&rj.eq.ids);
    strtab_init(&rj.tq.ids);
    pthread_t rt;
    bool started = split && cf_thread_start(&rt, rest_main, &rj);
    digest_tasks(d, &t, g);
    if (started)
        pthread_join(rt, NULL);
    else if (g->ok)
        rest_main(&rj);
    g->ok = g->ok && rj.g.ok;
    g->addr = rj.g.addr;
    if (g->ok) { /* the walk's order: the tasks' ids, then the edges', then the tensors' */
        g->nedges = rj.eq.n;
        g->ntens = rj.tq.n;
        g->ok = (g->edges = digest_number(&rj.eq, &t)) != NULL && (g->tens = digest_number(&rj.tq, &t)) != NULL;
    }
    if (g->ok && g->nedges)
        qsort(g->edges, g->nedges, sizeof(*g->edges), cmp_u64);
    pending_free(&rj.eq);
    pending_free(&rj.tq);
    g->ids = t.count;
    strtab_free(&t);
}

/* ---- a side's digest made while its check reads deps.json: no second reading ---- */

struct cf_digester {
    bool ok;          /* every element so far digested */
    strtab t;         /* the side's numbering: the tasks' ids (the first the walk numbers) */
    cf_task_spans sp; /* scratch of a task */
    cf_task_walk tw;  /* the tasks */
    cf_rest_job rj;   /* the edges' and tensors' hashes and ids, the tensors' addresses */
    cf_tensor_walk ten;
    cf_digest g;      /* the tasks' hashes */
    cf_keylens kl;    /* the keys' lengths */
};

cf_digester *cf_digester_new(void)
{
    cf_digester *w = calloc(1, sizeof(*w));
    if (!w)
        return NULL;
    w->ok = true;
    strtab_init(&w->t);
    strtab_init(&w->rj.eq.ids);
    strtab_init(&w->rj.tq.ids);
    keylens_init(&w->kl);
    w->tw = (cf_task_walk){&w->t, &w->sp, &w->g, 0, {NULL, 0, &w->kl}};
    w->ten = (cf_tensor_walk){&w->rj.tq, &w->rj.g, 0, 0, {NULL, 0, &w->kl}};
    return w;
}

void cf_digester_elem(cf_digester *w, int list, const char *text, size_t len, const jstream_mspan *m, size_t nm)
{
    if (!w || !w->ok)
        return;
    cf_given given = {nm == SIZE_MAX ? NULL : m, nm, &w->kl};
    w->tw.given = w->rj.eq.given = w->ten.given = given;
    if (list == CF_TASKS)
        w->ok = task_digest(text, len, &w->tw);
    else if (list == CF_EDGES)
        w->ok = edge_digest(text, len, &w->rj.eq);
    else
        w->ok = tensor_digest(text, len, &w->ten);
}

void cf_digester_free(cf_digester *w)
{
    if (!w)
        return;
    strtab_free(&w->t);
    pending_free(&w->rj.eq);
    pending_free(&w->rj.tq);
    cf_digest_free(&w->g);
    cf_digest_free(&w->rj.g);
    free(w);
}

void cf_digester_end(cf_digester *w, cf_digest *g)
{
    memset(g, 0, sizeof(*g));
    if (!w)
        return;
    if (w->ok) { /* as cf_digest_side finishes: the tasks' ids, then the edges', then the tensors' */
        *g = w->g;
        memset(&w->g, 0, sizeof(w->g));
        g->addr = w->rj.g.addr;
        w->rj.g.addr = NULL;
        g->nedges = w->rj.eq.n;
        g->ntens = w->rj.tq.n;
        g->ok = (g->edges = digest_number(&w->rj.eq, &w->t)) != NULL &&
                (g->tens = digest_number(&w->rj.tq, &w->t)) != NULL;
        if (g->ok && g->nedges)
            qsort(g->edges, g->nedges, sizeof(*g->edges), cmp_u64);
        g->ids = w->t.count;
        g->err[0] = '\0';
    }
    cf_digester_free(w);
}

/* Would cf_scmp_deps find nothing? True only when both digests are whole and agree, and every runtime-created
 * tensor's real address less its offset in ptosim's arena is one base (cmp_tensor). */
bool cf_digests_agree(const cf_digest *r, const cf_digest *s, const cf_arena *arena)
{
    if (!r->ok || !s->ok || r->ntasks != s->ntasks || r->nedges != s->nedges || r->ntens != s->ntens ||
        r->ids != s->ids)
        return false;
    if ((r->ntasks && memcmp(r->tasks, s->tasks, r->ntasks * sizeof(*r->tasks)) != 0) ||
        (r->nedges && memcmp(r->edges, s->edges, r->nedges * sizeof(*r->edges)) != 0) ||
        (r->ntens && memcmp(r->tens, s->tens, r->ntens * sizeof(*r->tens)) != 0))
        return false;
    bool have = false;
    uint64_t base = 0;
    for (size_t i = 0; i < r->ntens; i++) {
        uint64_t ra = r->addr[i], sa = s->addr[i];
        if (sa < arena->base || sa - arena->base >= arena->size) {
            if (ra != sa)
                return false;
            continue;
        }
        uint64_t off = sa - arena->base;
        if (!have) {
            have = true;
            base = ra - off;
        } else if (ra - off != base) {
            return false;
        }
    }
    return true;
}

static void *digest_main(void *arg)
{
    cf_digest_job *j = arg;
    cf_digest_side(j->d, false, &j->g);
    return NULL;
}

/* Starts d's digest on a thread of its own; without a thread, it is made at cf_digest_join. */
void cf_digest_start(cf_digest_job *j, const cf_sdfx *d)
{
    memset(j, 0, sizeof(*j));
    j->d = d;
    j->started = cf_thread_start(&j->thread, digest_main, j);
}

cf_digest *cf_digest_join(cf_digest_job *j)
{
    if (j->started)
        pthread_join(j->thread, NULL);
    else if (!j->done)
        cf_digest_side(j->d, false, &j->g);
    j->started = false;
    j->done = true;
    return &j->g;
}
