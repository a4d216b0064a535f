/* conform_scope_swim.c - cf_: scope_stats.jsonl and the swimlane's schema and core map compared. */
/* The two small files: their headers, records and schemas, whole as trees or streamed; neither needs
 * deps.json, so the comparison makes them on a thread beside deps.json's. */
#include <cJSON.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../model/base/json_reader.h"
#include "../../model/base/string_table.h"
#include "../json/json_span.h"
#include "../json/json_stream.h"
#include "conform_int.h"

/* ---- scope_stats.jsonl ---- */

static const char *const HEADER_KEYS[] = {"version",         "fatal",    "dropped",      "total",
                                          "task_window_max", "heap_max", "dep_pool_max", "tensormap_max"};
static const char *const RECORD_KEYS[] = {"site", "phase", "depth", "ring", "task_window_end", "heap_end"};

/* Peaks of what is not compared: per ring the most live task slots, heap bytes and dep-pool entries
 * (end - start) at any sample, and the most TensorMap entries in use. */
typedef struct cf_peaks {
    bool seen[CF_RING_COUNT];          /* the ring has a record */
    double task_window[CF_RING_COUNT]; /* task slots */
    double heap[CF_RING_COUNT];        /* heap bytes */
    double dep_pool[CF_RING_COUNT];    /* dep-pool entries */
    double tensormap;                  /* TensorMap entries (one global pool) */
} cf_peaks;

static double live(const cJSON *rec, const char *start, const char *end)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(rec, start),
                *b = cJSON_GetObjectItemCaseSensitive(rec, end);
    return cJSON_IsNumber(a) && cJSON_IsNumber(b) ? b->valuedouble - a->valuedouble : 0;
}

/* A record's live task window, heap and dep pool on ring r, kept where they are the ring's peak so far. */
static void ring_peaks(cf_peaks *p, int r, double tw, double hp, double dp)
{
    p->seen[r] = true;
    if (tw > p->task_window[r])
        p->task_window[r] = tw;
    if (hp > p->heap[r])
        p->heap[r] = hp;
    if (dp > p->dep_pool[r])
        p->dep_pool[r] = dp;
}

/* Adds one record to the peaks. */
static void peaks_add(cf_peaks *p, const cJSON *rec)
{
    {
        const cJSON *ring = cJSON_GetObjectItemCaseSensitive(rec, "ring"),
                    *tm = cJSON_GetObjectItemCaseSensitive(rec, "tensormap");
        if (cJSON_IsNumber(tm) && tm->valuedouble > p->tensormap)
            p->tensormap = tm->valuedouble;
        if (!cJSON_IsNumber(ring) || ring->valueint < 0 || ring->valueint >= CF_RING_COUNT)
            return;
        int r = ring->valueint;
        ring_peaks(p, r, live(rec, "task_window_start", "task_window_end"), live(rec, "heap_start", "heap_end"),
                   live(rec, "dep_pool_start", "dep_pool_end"));
    }
}

static void peaks_of(const cf_lines *l, cf_peaks *p)
{
    memset(p, 0, sizeof(*p));
    for (size_t i = 1; i < l->n; i++)
        peaks_add(p, l->v[i]);
}

/* Compares one record (at line lineno of the real file) of both sides. */
static void cmp_record(cf_file *f, int lineno, const cJSON *rec, const cJSON *srec)
{
    size_t k = 0; /* most records are equal: their place is named only when one is not */
    while (k < sizeof(RECORD_KEYS) / sizeof(RECORD_KEYS[0]) &&
           cf_same(cJSON_GetObjectItemCaseSensitive(rec, RECORD_KEYS[k]),
                   cJSON_GetObjectItemCaseSensitive(srec, RECORD_KEYS[k])))
        k++;
    if (k == sizeof(RECORD_KEYS) / sizeof(RECORD_KEYS[0]))
        return;
    char where[CF_VALUE_MAX + 64], site[CF_VALUE_MAX], phase[32], ring[32];
    snprintf(where, sizeof(where), "line %d (%s %s, ring %s)", lineno,
             cf_jraw(cJSON_GetObjectItemCaseSensitive(rec, "site"), site, sizeof(site)),
             cf_jraw(cJSON_GetObjectItemCaseSensitive(rec, "phase"), phase, sizeof(phase)),
             cf_jtext(cJSON_GetObjectItemCaseSensitive(rec, "ring"), ring, sizeof(ring)));
    for (size_t k = 0; k < sizeof(RECORD_KEYS) / sizeof(RECORD_KEYS[0]); k++)
        cf_cmp_key(f, where, rec, srec, RECORD_KEYS[k]);
}

/* The information lines of the peaks of both sides. */
static void print_peaks(cf_file *f, const cf_peaks *pr, const cf_peaks *ps)
{
    for (int g = 0; g < CF_RING_COUNT; g++)
        if (pr->seen[g] || ps->seen[g])
            cf_info(f,
                    "ring %d peak live: task_window real %.0f, ptosim %.0f; heap real %.0f, ptosim %.0f; "
                    "dep_pool real %.0f, ptosim %.0f",
                    g, pr->task_window[g], ps->task_window[g], pr->heap[g], ps->heap[g], pr->dep_pool[g],
                    ps->dep_pool[g]);
    cf_info(f, "tensormap peak: real %.0f, ptosim %.0f", pr->tensormap, ps->tensormap);
}

void cf_cmp_scope(cf_file *f, const cf_lines *r, const cf_lines *s)
{
    for (size_t k = 0; k < sizeof(HEADER_KEYS) / sizeof(HEADER_KEYS[0]); k++)
        cf_cmp_key(f, "header", r->v[0], s->v[0], HEADER_KEYS[k]);
    if (r->n != s->n)
        cf_diff(f, "records: real %zu, ptosim %zu", r->n - 1, s->n - 1);
    for (size_t i = 1; i < r->n && i < s->n; i++)
        cmp_record(f, r->lineno[i], r->v[i], s->v[i]);
    cf_peaks pr, ps;
    peaks_of(r, &pr);
    peaks_of(s, &ps);
    print_peaks(f, &pr, &ps);
}

/* ---- chip_swimlane_records.json ---- */

/* The keys of obj in order, comma-separated, into buf. */
static const char *key_list(const cJSON *obj, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    const cJSON *c;
    cJSON_ArrayForEach(c, obj)
    {
        int w = snprintf(buf + len, n - len, "%s%s", len ? "," : "", c->string ? c->string : "?");
        if (w < 0 || (size_t)w >= n - len)
            break;
        len += (size_t)w;
    }
    return buf;
}

/* The row lengths marked in seen, as "6" or "5,6" ("" for none), into buf. */
static void arity_text(const bool seen[64], char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int k = 0; k < 64; k++)
        if (seen[k])
            len += (size_t)snprintf(buf + len, n - len, "%s%d", len ? "," : "", k);
}

/* The distinct lengths of the rows of a list of arrays, as "6" or "5,6" ("" for no rows), into buf. */
static void arities(const cJSON *rows, char *buf, size_t n)
{
    bool seen[64] = {false};
    const cJSON *row;
    cJSON_ArrayForEach(row, rows)
    {
        int k = cJSON_GetArraySize(row);
        seen[k < 63 ? k : 63] = true;
    }
    arity_text(seen, buf, n);
}

/* A phase record as "kind{key,key,...}" (keys sorted; "-" when it has no kind, as orchestrator records). */
void cf_phase_item(const cJSON *rec, char *item, size_t size)
{
    const char *names[64];
    int n = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, rec)
    {
        if (n < 64)
            names[n++] = c->string ? c->string : "?";
    }
    qsort(names, (size_t)n, sizeof(names[0]), cf_cmp_str);
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(rec, "kind");
    size_t len = (size_t)snprintf(item, size, "%s{", cJSON_IsString(kind) ? kind->valuestring : "-");
    for (int i = 0; i < n && len < size; i++)
        len += (size_t)snprintf(item + len, size - len, "%s%s", i ? "," : "", names[i]);
    if (len < size)
        snprintf(item + len, size - len, "}");
}

/* The distinct phase items of a list of lanes, in t. Returns 0, or -1 when out of memory. */
static int kinds_of(const cJSON *phases, strtab *t)
{
    const cJSON *lane, *rec;
    cJSON_ArrayForEach(lane, phases)
    {
        cJSON_ArrayForEach(rec, lane)
        {
            char item[1024];
            cf_phase_item(rec, item, sizeof(item));
            if (strtab_intern(t, item) < 0)
                return -1;
        }
    }
    return 0;
}

/* Does the kind of item (the text before '{') occur among t's items? */
static bool has_kind(const strtab *t, const char *item)
{
    size_t n = strcspn(item, "{");
    for (size_t i = 0; i < t->count; i++)
        if (strncmp(t->keys[i], item, n) == 0 && t->keys[i][n] == '{')
            return true;
    return false;
}

/* Compares the lane counts and the phase items of one phase list of both sides. */
static void cmp_phase_items(cf_file *f, const char *list, int rlanes, int slanes, const strtab *r,
                            const strtab *s)
{
    if (rlanes != slanes)
        cf_diff(f, "%s: real %d lanes, ptosim %d", list, rlanes, slanes);
    for (size_t i = 0; i < r->count; i++) {
        const char *it = r->keys[i];
        if (strtab_find(s, it) >= 0)
            continue;
        if (has_kind(s, it))
            cf_diff(f, "%s: keys only in real: %s", list, it);
        else
            cf_info(f, "%s: kind %.*s recorded only in real", list, (int)strcspn(it, "{"), it);
    }
    for (size_t i = 0; i < s->count; i++) {
        const char *it = s->keys[i];
        if (strtab_find(r, it) >= 0)
            continue;
        if (has_kind(r, it))
            cf_diff(f, "%s: keys only in ptosim: %s", list, it);
        else
            cf_info(f, "%s: kind %.*s recorded only in ptosim", list, (int)strcspn(it, "{"), it);
    }
}

static int cmp_phase_keys(cf_file *f, const char *list, const cJSON *ra, const cJSON *sa)
{
    if (!ra || !sa)
        return 0; /* an absent list is a top-level key difference */
    strtab r, s;
    strtab_init(&r);
    strtab_init(&s);
    int rc = kinds_of(ra, &r) != 0 || kinds_of(sa, &s) != 0 ? -1 : 0;
    if (rc == 0)
        cmp_phase_items(f, list, cJSON_GetArraySize(ra), cJSON_GetArraySize(sa), &r, &s);
    strtab_free(&r);
    strtab_free(&s);
    return rc;
}

/* Compares two arrays of equal length element by element: how many differ, and the first. */
static void cmp_per_core(cf_file *f, const char *what, const cJSON *a, const cJSON *b)
{
    if (cf_same(a, b))
        return;
    char ta[CF_VALUE_MAX], tb[CF_VALUE_MAX];
    if (!cJSON_IsArray(a) || !cJSON_IsArray(b) || cJSON_GetArraySize(a) != cJSON_GetArraySize(b)) {
        cf_diff(f, "%s: real %s, ptosim %s", what, cf_jtext(a, ta, sizeof(ta)), cf_jtext(b, tb, sizeof(tb)));
        return;
    }
    int n = 0, first = -1, i = 0;
    for (const cJSON *x = a->child, *y = b->child; x && y; x = x->next, y = y->next, i++)
        if (!cf_same(x, y)) {
            n++;
            if (first < 0)
                first = i;
        }
    cf_diff(f, "%s: %d of %d cores differ; core %d: real %s, ptosim %s", what, n, i, first,
            cf_jtext(cJSON_GetArrayItem(a, first), ta, sizeof(ta)),
            cf_jtext(cJSON_GetArrayItem(b, first), tb, sizeof(tb)));
}

/* Compares two swimlane files (checked by check_swimlane). Returns 0, or -1 when out of memory. */
int cf_cmp_swimlane(cf_file *f, const cJSON *r, const cJSON *s)
{
    char ka[1024], kb[1024];
    if (strcmp(key_list(r, ka, sizeof(ka)), key_list(s, kb, sizeof(kb))) != 0)
        cf_diff(f, "top-level keys: real %s; ptosim %s", ka, kb);
    cf_cmp_key(f, "", r, s, "chip_swimlane_level");
    const cJSON *rm = cJSON_GetObjectItemCaseSensitive(r, "metadata"),
                *sm = cJSON_GetObjectItemCaseSensitive(s, "metadata");
    if (strcmp(key_list(rm, ka, sizeof(ka)), key_list(sm, kb, sizeof(kb))) != 0)
        cf_diff(f, "metadata keys: real %s; ptosim %s", ka, kb);
    cf_cmp_key(f, "metadata", rm, sm, "num_cores");
    cmp_per_core(f, "metadata.core_types", cJSON_GetObjectItemCaseSensitive(rm, "core_types"),
                 cJSON_GetObjectItemCaseSensitive(sm, "core_types"));
    cmp_per_core(f, "metadata.core_to_thread", cJSON_GetObjectItemCaseSensitive(rm, "core_to_thread"),
                 cJSON_GetObjectItemCaseSensitive(sm, "core_to_thread"));
    static const char *const ROWS[] = {"aicore_tasks", "aicpu_tasks"};
    for (int k = 0; k < 2; k++) {
        const cJSON *a = cJSON_GetObjectItemCaseSensitive(r, ROWS[k]),
                    *b = cJSON_GetObjectItemCaseSensitive(s, ROWS[k]);
        if (!a || !b)
            continue; /* a top-level key difference */
        arities(a, ka, sizeof(ka));
        arities(b, kb, sizeof(kb));
        if (*ka && *kb && strcmp(ka, kb) != 0) /* no rows on one side: nothing to compare */
            cf_diff(f, "%s rows: real %s values, ptosim %s", ROWS[k], ka, kb);
    }
    static const char *const PHASES[] = {"aicpu_scheduler_phases", "aicpu_orchestrator_phases"};
    for (int k = 0; k < 2; k++)
        if (cmp_phase_keys(f, PHASES[k], cJSON_GetObjectItemCaseSensitive(r, PHASES[k]),
                           cJSON_GetObjectItemCaseSensitive(s, PHASES[k])) != 0)
            return -1;
    return 0;
}

/* ---- both streamed: the records in step, the swimlane on what its check kept ---- */

/* The next record (non-blank line after the header) of a scope-stats stream as a tree, with its line
 * number; NULL at the end (*end) or with a message. */
static cJSON *next_record(jstream *js, int *lineno, bool *end, const char *path, char *err, size_t errlen)
{
    const char *t;
    size_t n;
    while (!*end) {
        if (!jstream_line(js, &t, &n)) {
            *end = true;
            if (js->err)
                cf_fail(err, errlen, "%s: cannot read: %s", path, strerror(js->err));
            return NULL;
        }
        ++*lineno;
        size_t k = 0;
        while (k < n && (t[k] == ' ' || t[k] == '\t' || t[k] == '\r'))
            k++;
        if (k == n)
            continue;
        cJSON *rec = cf_tree(t, n);
        if (!rec && jstream_check(t, n))
            cf_fail(err, errlen, "out of memory");
        else if (!rec)
            cf_fail(err, errlen, "%s:%d: changed while conform read it", path, *lineno);
        return rec;
    }
    return NULL;
}

/* The next non-blank line of a scope-stats stream: true with its text (valid until the next call on js);
 * false at the end, or on a read failure (its message in err). */
static bool next_line(jstream *js, int *lineno, bool *end, const char *path, char *err, size_t errlen,
                      const char **t, size_t *n)
{
    while (!*end) {
        if (!jstream_line(js, t, n)) {
            *end = true;
            if (js->err)
                cf_fail(err, errlen, "%s: cannot read: %s", path, strerror(js->err));
            return false;
        }
        ++*lineno;
        size_t k = 0;
        while (k < *n && ((*t)[k] == ' ' || (*t)[k] == '\t' || (*t)[k] == '\r'))
            k++;
        if (k < *n)
            return true;
    }
    return false;
}

/* A record's tree (next_record's, with its messages). */
static cJSON *record_tree(const char *t, size_t n, int lineno, const char *path, char *err, size_t errlen)
{
    cJSON *rec = cf_tree(t, n);
    if (!rec && jstream_check(t, n))
        cf_fail(err, errlen, "out of memory");
    else if (!rec)
        cf_fail(err, errlen, "%s:%d: changed while conform read it", path, lineno);
    return rec;
}

/* RECORD_KEYS, then the rest peaks_add reads. */
enum { SP_TENSORMAP = 6, SP_TW_START, SP_HEAP_START, SP_DP_START, SP_DP_END, SP_N };
static const char *const SPAN_KEYS[SP_N] = {"site",    "phase",      "depth",          "ring",
                                            "task_window_end", "heap_end", "tensormap", "task_window_start",
                                            "heap_start",      "dep_pool_start",        "dep_pool_end"};
enum { SP_RING = 3, SP_TW_END = 4, SP_HEAP_END = 5 };

/* One record as read: its text, its spans when the text is checked (jstream_check: what jsonl_parse reads
 * alike), its tree once one is needed. */
typedef struct cf_rec {
    const char *t;
    size_t n;
    int lineno;
    bool spans;
    jspan f[SP_N];
    cJSON *tree;
} cf_rec;

/* Does v start as a number does (cJSON_IsNumber of a checked text's value)? */
static bool is_num(jspan v)
{
    return v.p && (v.p[0] == '-' || (v.p[0] >= '0' && v.p[0] <= '9'));
}

/* A number value as jsonl_parse holds it (valuedouble); false when it is not read whole. */
static bool span_num(jspan v, double *d)
{
    return jsonl_lex_number(v.p, v.p + v.n, d, NULL) == v.p + v.n;
}

/* peaks_add of a record's spans (checked text); false, nothing added, when a number is not read whole (the
 * tree then says). */
static bool peaks_add_spans(cf_peaks *p, const jspan *f)
{
    static const int K[8] = {SP_TENSORMAP, SP_RING,       SP_TW_START, SP_TW_END,
                             SP_HEAP_START, SP_HEAP_END, SP_DP_START, SP_DP_END};
    double v[8] = {0};
    bool num[8];
    for (int k = 0; k < 8; k++)
        if ((num[k] = is_num(f[K[k]])) && !span_num(f[K[k]], &v[k]))
            return false;
    if (num[0] && v[0] > p->tensormap)
        p->tensormap = v[0];
    /* ring->valueint: the value saturated to int, as jsonl_parse stores it */
    int r = v[1] >= 2147483647.0 ? 2147483647 : v[1] <= -2147483648.0 ? -2147483647 - 1 : (int)v[1];
    if (!num[1] || r < 0 || r >= CF_RING_COUNT)
        return true;
    ring_peaks(p, r, num[2] && num[3] ? v[3] - v[2] : 0, num[4] && num[5] ? v[5] - v[4] : 0,
               num[6] && num[7] ? v[7] - v[6] : 0);
    return true;
}

/* The tree of a record, parsed now if it was not; NULL with err set. */
static cJSON *rec_tree(cf_rec *x, const char *path, char *err, size_t errlen)
{
    if (!x->tree)
        x->tree = record_tree(x->t, x->n, x->lineno, path, err, errlen);
    return x->tree;
}

/* Reads the next record of js into x (x->t NULL at the end); a text the stream does not take is parsed at
 * once (its message, as next_record's, in err). */
static void rec_read(cf_rec *x, jstream *js, int *lineno, bool *end, const char *path, char *err, size_t errlen)
{
    x->t = NULL;
    x->tree = NULL;
    x->spans = false;
    if (!next_line(js, lineno, end, path, err, errlen, &x->t, &x->n)) {
        x->t = NULL;
        return;
    }
    x->lineno = *lineno;
    x->spans = jstream_check(x->t, x->n) && jspan_members(x->t, x->n, SPAN_KEYS, SP_N, x->f);
    if (!x->spans)
        rec_tree(x, path, err, errlen);
}

/* The streaming cf_cmp_scope: the headers, then the records in step; the peaks of each whole file. A pair
 * of records whose compared values have the same text, and the peaks of plain numbers, need no tree. */
int cf_scmp_scope(cf_file *f, const cf_sdfx *r, const cf_sdfx *s, char *err, size_t errlen)
{
    for (size_t k = 0; k < sizeof(HEADER_KEYS) / sizeof(HEADER_KEYS[0]); k++)
        cf_cmp_key(f, "header", r->scope_header, s->scope_header, HEADER_KEYS[k]);
    if (r->scope_n != s->scope_n)
        cf_diff(f, "records: real %zu, ptosim %zu", r->scope_n - 1, s->scope_n - 1);
    jstream a, b;
    if (jstream_open(&a, r->scope_path) != 0)
        return cf_fail(err, errlen, "%s: cannot read: %s", r->scope_path, strerror(errno));
    if (jstream_open(&b, s->scope_path) != 0) {
        cf_stream_done(&a);
        return cf_fail(err, errlen, "%s: cannot read: %s", s->scope_path, strerror(errno));
    }
    cf_peaks pr, ps;
    memset(&pr, 0, sizeof(pr));
    memset(&ps, 0, sizeof(ps));
    int la = 0, lb = 0, rc = 0;
    bool ea = false, eb = false;
    err[0] = '\0';
    cJSON_Delete(next_record(&a, &la, &ea, r->scope_path, err, errlen)); /* the headers */
    cJSON_Delete(next_record(&b, &lb, &eb, s->scope_path, err, errlen));
    for (;;) {
        cf_rec x, y;
        rec_read(&x, &a, &la, &ea, r->scope_path, err, errlen);
        rec_read(&y, &b, &lb, &eb, s->scope_path, err, errlen);
        bool stop = err[0] != '\0' || (!x.t && !y.t);
        if (!stop && x.t && y.t) {
            size_t k = 0;
            while (x.spans && y.spans && k < sizeof(RECORD_KEYS) / sizeof(RECORD_KEYS[0]) &&
                   jspan_same_text(x.f[k], y.f[k]))
                k++;
            if (k < sizeof(RECORD_KEYS) / sizeof(RECORD_KEYS[0])) { /* the trees say what differs */
                if (!rec_tree(&x, r->scope_path, err, errlen) || !rec_tree(&y, s->scope_path, err, errlen))
                    stop = true;
                else
                    cmp_record(f, la, x.tree, y.tree);
            }
        }
        for (int q = 0; !stop && q < 2; q++) {
            cf_rec *z = q ? &y : &x;
            cf_peaks *p = q ? &ps : &pr;
            if (!z->t || (z->spans && !z->tree && peaks_add_spans(p, z->f)))
                continue;
            if (!rec_tree(z, q ? s->scope_path : r->scope_path, err, errlen))
                stop = true;
            else
                peaks_add(p, z->tree);
        }
        cJSON_Delete(x.tree);
        cJSON_Delete(y.tree);
        if (stop) {
            rc = err[0] ? -1 : 0;
            break;
        }
    }
    cf_stream_done(&a);
    cf_stream_done(&b);
    if (rc == 0)
        print_peaks(f, &pr, &ps);
    return rc;
}

/* The streaming cf_cmp_swimlane, on what sswim_check kept. */
void cf_scmp_swimlane(cf_file *f, const cf_sdfx *r, const cf_sdfx *s)
{
    char ka[1024], kb[1024];
    if (strcmp(r->top_keys, s->top_keys) != 0)
        cf_diff(f, "top-level keys: real %s; ptosim %s", r->top_keys, s->top_keys);
    cf_cmp_vals(f, "", "chip_swimlane_level", r->level, s->level);
    const cJSON *rm = r->metadata, *sm = s->metadata;
    if (strcmp(key_list(rm, ka, sizeof(ka)), key_list(sm, kb, sizeof(kb))) != 0)
        cf_diff(f, "metadata keys: real %s; ptosim %s", ka, kb);
    cf_cmp_key(f, "metadata", rm, sm, "num_cores");
    cmp_per_core(f, "metadata.core_types", cJSON_GetObjectItemCaseSensitive(rm, "core_types"),
                 cJSON_GetObjectItemCaseSensitive(sm, "core_types"));
    cmp_per_core(f, "metadata.core_to_thread", cJSON_GetObjectItemCaseSensitive(rm, "core_to_thread"),
                 cJSON_GetObjectItemCaseSensitive(sm, "core_to_thread"));
    for (int k = 0; k < 2; k++) {
        if (!r->rows[k] || !s->rows[k])
            continue;
        arity_text(r->arity[k], ka, sizeof(ka));
        arity_text(s->arity[k], kb, sizeof(kb));
        if (*ka && *kb && strcmp(ka, kb) != 0)
            cf_diff(f, "%s rows: real %s values, ptosim %s", ROW_LISTS[k], ka, kb);
    }
    for (int k = 0; k < 2; k++)
        if (r->phases[k] && s->phases[k])
            cmp_phase_items(f, PHASE_LISTS[k], r->lanes[k], s->lanes[k], &r->items[k], &s->items[k]);
}
