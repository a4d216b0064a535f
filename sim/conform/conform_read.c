/* conform_read.c - cf_: the capture's and ptosim's dfx_outputs folders read, streamed or whole. */
/* What both folders hold, read before anything is compared: each file checked by the stream (sim/json/
 * json_stream.h) or, where the stream refuses it, read whole as cJSON trees, which names the fault. */
#include "conform.h"

#include <cJSON.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../model/aicpu/orchestrator.h"
#include "../../model/base/json_reader.h"
#include "../../model/base/readall.h"
#include "../../model/base/string_table.h"
#include "../json/json_scan.h"
#include "../json/json_span.h"
#include "../json/json_stream.h"
#include "conform_int.h"

/* ---- files ---- */

/* The largest window a stream of the last comparison or capture read held, or the size of a file it read
 * whole (conform_peak_window). */
_Atomic size_t cf_peak_window; /* atomic: a side's digest is read on a thread of its own */

size_t conform_peak_window(void)
{
    return atomic_load(&cf_peak_window);
}

static void peak_note(size_t n)
{
    size_t was = atomic_load(&cf_peak_window);
    while (n > was && !atomic_compare_exchange_weak(&cf_peak_window, &was, n))
        ;
}

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Reads a whole file of kind (malloc'd, NUL-terminated; *len its size). NULL with a message in err. */
static char *slurp(const char *path, readall_kind kind, size_t *len, char *err, size_t errlen)
{
    FILE *f = readall_open(path);
    if (!f) {
        cf_fail(err, errlen, "%s: cannot read: %s", path, readall_why(errno));
        return NULL;
    }
    char why[128];
    char *buf = readall(f, kind, len, why, sizeof(why));
    if (!buf)
        cf_fail(err, errlen, "%s: cannot read: %s", path,
                errno == EFBIG    ? why
                : errno == ENOMEM ? "out of memory"
                                  : "I/O error");
    else
        peak_note(*len); /* held whole */
    fclose(f);
    return buf;
}

/* Parses one JSON value from text[0..len) strictly (jsonl_parse: a duplicate key or bad UTF-8 is refused, as
 * everywhere); NULL with "FILE:LINE:COL: FIELD: WHAT" in err (line > 0: the text is that line of file). */
static cJSON *parse(const char *text, size_t len, const char *file, long line, char *err, size_t errlen)
{
    jsonl_error je;
    cJSON *j = jsonl_parse(text, len, &je);
    if (!j)
        jsonl_message(err, errlen, file, text, &je, line);
    return j;
}

/* Loads a JSON file of kind that must be an object. */
static cJSON *load_object(const char *path, readall_kind kind, char *err, size_t errlen)
{
    size_t len;
    char *text = slurp(path, kind, &len, err, errlen);
    if (!text)
        return NULL;
    cJSON *j = parse(text, len, path, 0, err, errlen);
    free(text);
    if (j && !cJSON_IsObject(j)) {
        cJSON_Delete(j);
        cf_fail(err, errlen, "%s: not a JSON object", path);
        return NULL;
    }
    return j;
}

static void lines_free(cf_lines *l)
{
    for (size_t i = 0; i < l->n; i++)
        cJSON_Delete(l->v[i]);
    free(l->v);
    free(l->lineno);
    memset(l, 0, sizeof(*l));
}

static int load_lines(const char *path, cf_lines *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof(*out));
    size_t len;
    char *text = slurp(path, READALL_RECORDS, &len, err, errlen);
    if (!text)
        return -1;
    size_t cap = 0;
    int lineno = 0, rc = 0;
    for (char *p = text; p < text + len;) {
        char *eol = memchr(p, '\n', (size_t)(text + len - p));
        size_t n = eol ? (size_t)(eol - p) : (size_t)(text + len - p);
        lineno++;
        bool blank = true;
        for (size_t k = 0; k < n && blank; k++)
            blank = p[k] == ' ' || p[k] == '\t' || p[k] == '\r';
        if (!blank) {
            char what[PATH_MAX + 32];
            snprintf(what, sizeof(what), "%s:%d", path, lineno);
            cJSON *j = parse(p, n, path, lineno, err, errlen);
            if (j && !cJSON_IsObject(j)) {
                cJSON_Delete(j);
                j = NULL;
                cf_fail(err, errlen, "%s: not a JSON object", what);
            }
            if (!j) {
                rc = -1;
                break;
            }
            if (out->n == cap) {
                size_t nc = cap ? cap * 2 : 64;
                cJSON **nv = realloc(out->v, nc * sizeof(*nv));
                int *nl = nv ? realloc(out->lineno, nc * sizeof(*nl)) : NULL;
                if (nv)
                    out->v = nv;
                if (!nl) {
                    cJSON_Delete(j);
                    rc = cf_fail(err, errlen, "%s: out of memory", path);
                    break;
                }
                out->lineno = nl;
                cap = nc;
            }
            out->v[out->n] = j;
            out->lineno[out->n++] = lineno;
        }
        p += n + 1;
    }
    free(text);
    if (rc == 0 && out->n == 0)
        rc = cf_fail(err, errlen, "%s: empty (the first line is the run's header)", path);
    if (rc != 0)
        lines_free(out);
    return rc;
}

/* ---- the shape the comparison walks ---- */

/* An array member of obj, or an error naming path and where. */
static const cJSON *need_array(const cJSON *obj, const char *key, const char *path, const char *where,
                               char *err, size_t errlen)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!cJSON_IsArray(a)) {
        cf_fail(err, errlen, "%s: %s%s%s: %s", path, where, *where ? "." : "", key,
                a ? "not an array" : "missing");
        return NULL;
    }
    return a;
}

/* Checks that deps.json has tasks, tensors and edges arrays of objects and each task an args array of
 * objects. */
static int check_deps(const cJSON *d, const char *path, char *err, size_t errlen)
{
    static const char *const LISTS[] = {"tasks", "tensors", "edges"};
    for (int l = 0; l < 3; l++) {
        const cJSON *a = need_array(d, LISTS[l], path, "", err, errlen);
        if (!a)
            return -1;
        int i = 0;
        const cJSON *e;
        cJSON_ArrayForEach(e, a)
        {
            char where[64];
            snprintf(where, sizeof(where), "%s[%d]", LISTS[l], i);
            if (!cJSON_IsObject(e))
                return cf_fail(err, errlen, "%s: %s: not an object", path, where);
            if (l == 0) {
                const cJSON *args = need_array(e, "args", path, where, err, errlen), *g;
                if (!args)
                    return -1;
                int k = 0;
                cJSON_ArrayForEach(g, args)
                {
                    if (!cJSON_IsObject(g))
                        return cf_fail(err, errlen, "%s: %s.args[%d]: not an object", path, where, k);
                    k++;
                }
            }
            if (l == 1 && !cJSON_GetObjectItemCaseSensitive(e, "buffer_addr"))
                return cf_fail(err, errlen, "%s: %s.buffer_addr: missing", path, where);
            i++;
        }
    }
    return 0;
}

/* Checks what the comparison walks: a metadata object, row lists of arrays, phase lists of arrays of objects.
 */
static int check_swimlane(const cJSON *j, const char *path, char *err, size_t errlen)
{
    const cJSON *md = cJSON_GetObjectItemCaseSensitive(j, "metadata");
    if (!cJSON_IsObject(md))
        return cf_fail(err, errlen, "%s: metadata: %s", path, md ? "not an object" : "missing");
    static const char *const ROWS[] = {"aicore_tasks", "aicpu_tasks"};
    for (int k = 0; k < 2; k++) {
        const cJSON *a = cJSON_GetObjectItemCaseSensitive(j, ROWS[k]), *row;
        if (a && !cJSON_IsArray(a))
            return cf_fail(err, errlen, "%s: %s: not an array", path, ROWS[k]);
        cJSON_ArrayForEach(row, a)
        {
            if (!cJSON_IsArray(row))
                return cf_fail(err, errlen, "%s: %s: a row is not an array", path, ROWS[k]);
        }
    }
    static const char *const PHASES[] = {"aicpu_scheduler_phases", "aicpu_orchestrator_phases"};
    for (int k = 0; k < 2; k++) {
        const cJSON *a = cJSON_GetObjectItemCaseSensitive(j, PHASES[k]), *lane, *rec;
        if (!a)
            continue;
        if (!cJSON_IsArray(a))
            return cf_fail(err, errlen, "%s: %s: not an array", path, PHASES[k]);
        int i = 0;
        cJSON_ArrayForEach(lane, a)
        {
            if (!cJSON_IsArray(lane))
                return cf_fail(err, errlen, "%s: %s[%d]: not an array", path, PHASES[k], i);
            cJSON_ArrayForEach(rec, lane)
            {
                if (!cJSON_IsObject(rec))
                    return cf_fail(err, errlen, "%s: %s[%d]: a record is not an object", path, PHASES[k], i);
            }
            i++;
        }
    }
    return 0;
}

/* ---- a folder read whole ---- */

void cf_dfx_free(cf_dfx *d)
{
    cJSON_Delete(d->deps);
    cJSON_Delete(d->swim);
    if (d->has_scope)
        lines_free(&d->scope);
}

/* Loads what of dir's three files exists; a real capture must have deps.json. The files are held as cJSON
 * trees, about ten times their text: only for folders the streaming reading (cf_sdfx_load) refuses, where
 * this reading names the fault, or compares what cJSON reads and the stream does not. */
int cf_dfx_load(cf_dfx *d, const char *dir, bool real, char *err, size_t errlen)
{
    memset(d, 0, sizeof(*d));
    struct stat st;
    if (stat(dir, &st) != 0)
        return cf_fail(err, errlen, "%s: %s", dir, errno == ENOENT ? "no such folder" : strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return cf_fail(err, errlen, "%s: not a folder", dir);
    snprintf(d->deps_path, sizeof(d->deps_path), "%s/deps.json", dir);
    snprintf(d->scope_path, sizeof(d->scope_path), "%s/scope_stats/scope_stats.jsonl", dir);
    snprintf(d->swim_path, sizeof(d->swim_path), "%s/chip_swimlane_records.json", dir);
    if (is_file(d->deps_path)) {
        if (!(d->deps = load_object(d->deps_path, READALL_RECORDS, err, errlen)) ||
            check_deps(d->deps, d->deps_path, err, errlen))
            return -1;
    } else if (real) {
        return cf_fail(err, errlen, "%s: no deps.json (the capture needs --enable-dep-gen)", dir);
    }
    if (is_file(d->scope_path)) {
        if (load_lines(d->scope_path, &d->scope, err, errlen) != 0)
            return -1;
        d->has_scope = true;
    }
    if (is_file(d->swim_path)) {
        if (!(d->swim = load_object(d->swim_path, READALL_RECORDS, err, errlen)) ||
            check_swimlane(d->swim, d->swim_path, err, errlen))
            return -1;
    }
    return 0;
}

/* Per-ring heap sizes of ptosim's run: its scope_stats header, else ../ptosim_run.json, else the default. */
void cf_sim_arena(const cJSON *scope_header, const char *sim_dir, cf_arena *a, FILE *report)
{
    const cJSON *heaps = scope_header ? cJSON_GetObjectItemCaseSensitive(scope_header, "heap_max") : NULL;
    cJSON *run = NULL;
    if (!heaps) {
        char path[PATH_MAX + 32], err[PATH_MAX + 64];
        snprintf(path, sizeof(path), "%s/../ptosim_run.json", sim_dir);
        size_t peak = atomic_load(&cf_peak_window); /* a small file of the run's settings, not a capture's */
        if (is_file(path) && (run = load_object(path, READALL_RUN, err, sizeof(err))) != NULL)
            heaps = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(run, "config"),
                                                     "ring_heap");
        atomic_store(&cf_peak_window, peak);
    }
    a->base = ORCH_HEAP_ARENA_BASE;
    a->size = 0;
    bool ok = cJSON_GetArraySize(heaps) == CF_RING_COUNT;
    for (int r = 0; ok && r < CF_RING_COUNT; r++) {
        uint64_t v;
        ok = cf_get_u64(cJSON_GetArrayItem(heaps, r), &v);
        a->size += v;
    }
    if (!ok) {
        a->size = CF_RING_COUNT * CF_DEFAULT_RING_HEAP;
        fprintf(report,
                "deps.json: (not compared) ptosim's ring heap sizes are unknown (no scope_stats header, no "
                "ptosim_run.json): its arena is taken as 4 x 256 MiB\n");
    }
    cJSON_Delete(run);
}

/* ---- the streaming comparison: each file read a value at a time (sim/json/json_stream.h) ---- */

static const char *const DEPS_LISTS[] = {"tasks", "tensors", "edges"};

void cf_sdfx_free(cf_sdfx *d)
{
    cJSON_Delete(d->scope_header);
    cJSON_Delete(d->level);
    cJSON_Delete(d->metadata);
    strtab_free(&d->items[0]);
    strtab_free(&d->items[1]);
}

void cf_stream_done(jstream *js)
{
    peak_note(js->peak_cap);
    jstream_close(js);
}

/* An item of a task's args (jspan_each_fn): an object, passed over. */
static bool arg_is_object(const char *item, size_t avail, size_t *used, void *arg)
{
    (void)arg;
    jscan s;
    jscan_init(&s, item, avail);
    if (jscan_peek(&s) != '{' || !jscan_pass(&s))
        return false;
    *used = jscan_offset(&s);
    return true;
}

/* Is text (checked by the stream) an element of list l shaped as check_deps requires? (Its first member of
 * each name, as cJSON_GetObjectItemCaseSensitive finds it; the checked text has no escape in a key.) */
static bool deps_elem_ok(int l, const char *text, size_t len, const jstream_mspan *m, size_t nm)
{
    static const char *const ADDR[] = {"buffer_addr"}, *const ARGS[] = {"args"};
    jspan v;
    if (l == CF_EDGES) {
        jscan s;
        jscan_init(&s, text, len);
        return jscan_peek(&s) == '{';
    }
    if (nm != SIZE_MAX) { /* the members the check gave: no escape, no repeat in a checked key */
        const char *want = l == CF_TENSORS ? ADDR[0] : ARGS[0];
        size_t wl = strlen(want);
        for (size_t i = 0, from = 0; i < nm; i++) {
            if (m[i].depth != 0)
                continue;
            if (m[i].klen == wl && memcmp(m[i].key, want, wl) == 0) {
                if (l == CF_TENSORS)
                    return true;
                if (m[i].v[0] != '[')
                    return false;
                for (size_t k = from; k < i; k++) /* its items' marks: each an object */
                    if (m[k].depth == 1 && m[k].klen != 1)
                        return false;
                return true;
            }
            from = i + 1;
        }
        return false;
    }
    if (l == CF_TENSORS)
        return jspan_members(text, len, ADDR, 1, &v) && v.p;
    return jspan_members_each(text, len, ARGS, 1, &v, 0, arg_is_object, NULL) && v.p;
}

/* Checks deps.json as cf_dfx_load does, finding its lists, each element checked handed to w (NULL: none).
 * False for anything the stream refuses. */
static bool sdeps_check(cf_sdfx *d, cf_digester *w)
{
    jstream js;
    if (jstream_open(&js, d->deps_path) != 0)
        return false;
    bool ok = jstream_eat(&js, '{'), first = true;
    char key[64];
    int r = -1;
    jstream_keys seen = {.n = 0};
    while (ok && (r = jstream_member(&js, &first, key, sizeof(key))) == 1 &&
           (ok = jstream_new_key(&seen, key))) {
        int l = -1;
        for (int k = 0; k < 3; k++)
            if (strcmp(key, DEPS_LISTS[k]) == 0 && !d->lists[k].have)
                l = k;
        const char *t;
        size_t n;
        if (l < 0) {
            ok = jstream_value(&js, &t, &n);
            continue;
        }
        cf_list *L = &d->lists[l];
        L->have = true;
        jstream_peek(&js);
        L->off = jstream_tell(&js);
        ok = jstream_eat(&js, '[');
        bool f2 = true;
        int q = -1;
        while (ok && (q = jstream_next(&js, ']', &f2)) == 1) {
            jstream_mspan m[1024]; /* a task's members and its args' (more: read from the text) */
            size_t nm;
            ok = jstream_value_members(&js, &t, &n, m, 1024, &nm) && deps_elem_ok(l, t, n, m, nm);
            if (ok)
                cf_digester_elem(w, l, t, n, m, nm);
            L->n++;
        }
        ok = ok && q == 0;
    }
    ok = ok && r == 0 && jstream_peek(&js) == 0 && !js.bad;
    for (int k = 0; k < 3; k++)
        ok = ok && d->lists[k].have;
    cf_stream_done(&js);
    return ok;
}

/* Checks the scope stats as load_lines does, keeping the header. */
static bool sscope_check(cf_sdfx *d)
{
    jstream js;
    if (jstream_open(&js, d->scope_path) != 0)
        return false;
    const char *t;
    size_t n;
    int lineno = 0;
    bool ok = true;
    while (ok && jstream_line(&js, &t, &n)) {
        lineno++;
        size_t k = 0;
        while (k < n && (t[k] == ' ' || t[k] == '\t' || t[k] == '\r'))
            k++;
        if (k == n)
            continue;
        ok = jstream_check(t, n);
        while (ok && (t[k] == ' ' || t[k] == '\t' || t[k] == '\r' || t[k] == '\n'))
            k++;
        ok = ok && t[k] == '{';
        if (ok && d->scope_n == 0) {
            ok = (d->scope_header = jsonl_parse(t, n, NULL)) != NULL;
            d->header_line = lineno;
        }
        d->scope_n++;
    }
    ok = ok && !js.bad && d->scope_n > 0;
    cf_stream_done(&js);
    return ok;
}

/* The number of elements of the array text (checked by the stream). */
static int array_len(const char *text, size_t len)
{
    /* a row of numbers (no string or container inside): its commas tell, without walking its items */
    int commas = 0;
    bool empty = true;
    size_t i = 1;
    for (; i + 1 < len; i++) {
        char c = text[i];
        if (c == '"' || c == '[' || c == '{')
            break;
        commas += c == ',';
        empty = empty && (c == ' ' || c == '\t' || c == '\n' || c == '\r');
    }
    if (i + 1 >= len && len >= 2)
        return empty ? 0 : commas + 1;
    jscan s;
    jscan_init(&s, text, len);
    jscan_eat(&s, '[');
    bool first = true;
    int n = 0;
    while (jscan_next(&s, ']', &first) == 1 && jscan_pass(&s))
        n++;
    return n;
}

/* cf_phase_item of a record's text (checked) without a tree, for records whose keys and kind have no escapes
 * and keys are shorter than 64 bytes (all the runtime writes); false for the others. */
static bool quick_phase_item(const char *text, size_t len, char *item, size_t size)
{
    char keys[64][64], kind[256] = "-";
    const char *names[64];
    int n = 0;
    bool first = true, have_kind = false;
    jscan s;
    jscan_init(&s, text, len);
    if (memchr(text, '\\', len) || !jscan_eat(&s, '{'))
        return false;
    for (;;) {
        char key[64];
        int r = jscan_member(&s, &first, key, sizeof(key));
        if (r == 0)
            break;
        if (r < 0 || strlen(key) >= sizeof(key) - 1) /* perhaps cut */
            return false;
        if (n < 64) {
            memcpy(keys[n], key, strlen(key) + 1);
            names[n] = keys[n];
            n++;
        }
        if (strcmp(key, "kind") == 0 && !have_kind) {
            have_kind = true;
            if (jscan_peek(&s) == '"') {
                if (!jscan_string(&s, kind, sizeof(kind)) || strlen(kind) >= sizeof(kind) - 1)
                    return false;
                continue;
            }
        }
        if (!jscan_pass(&s))
            return false;
    }
    qsort(names, (size_t)n, sizeof(names[0]), cf_cmp_str);
    size_t l = 0; /* as cf_phase_item's snprintf chain */
    item[0] = '\0';
    cf_cat(item, &l, size, kind);
    cf_cat(item, &l, size, "{");
    for (int i = 0; i < n && l < size; i++) {
        if (i)
            cf_cat(item, &l, size, ",");
        cf_cat(item, &l, size, names[i]);
    }
    if (l < size)
        cf_cat(item, &l, size, "}");
    return true;
}

#define CF_LAYOUTS 16      /* phase-record layouts one list remembers */
#define CF_LAYOUT_MAX 1024 /* the longest layout remembered */

/* The layouts of the phase records seen in one list: a record's keys in order and its kind's text decide
 * its cf_phase_item, so a record laid out as one seen before adds nothing (its item is interned already). A
 * lane of 10^5 records has a handful of layouts. */
typedef struct cf_layouts {
    int n, last;                         /* layouts held; the one the last record had */
    size_t len[CF_LAYOUTS];              /* each one's length */
    char sig[CF_LAYOUTS][CF_LAYOUT_MAX]; /* keys, each ending in a NUL, then \1 and the kind's text */
} cf_layouts;

/* Ends a layout of n bytes of keys in sig with \1 and the kind's text: its length, 0 when it does not fit. */
static size_t layout_end(char *sig, size_t n, const char *kind, size_t kind_len)
{
    if (n + 1 + kind_len > CF_LAYOUT_MAX)
        return 0;
    sig[n++] = '\1';
    if (kind_len)
        memcpy(sig + n, kind, kind_len);
    return n + kind_len;
}

/* The layout of a phase record (text checked by the stream) into sig: its length, 0 when it has none to
 * remember (an escape, or longer than CF_LAYOUT_MAX). Keys and strings hold no control characters, so NUL
 * and \1 delimit. */
static size_t layout_of(const char *text, size_t len, char *sig)
{
    jscan s;
    jscan_init(&s, text, len);
    if (memchr(text, '\\', len) || !jscan_eat(&s, '{'))
        return 0;
    size_t n = 0, kind_len = 0;
    const char *kind = NULL;
    bool more = !jscan_eat(&s, '}');
    while (more) {
        if (!jscan_eat(&s, '"'))
            return 0;
        const char *k = s.p, *q = memchr(k, '"', (size_t)(s.end - k));
        if (!q || n + (size_t)(q - k) + 1 >= CF_LAYOUT_MAX)
            return 0;
        size_t kl = (size_t)(q - k);
        memcpy(sig + n, k, kl);
        sig[n + kl] = '\0';
        n += kl + 1;
        s.p = q + 1;
        if (!jscan_eat(&s, ':'))
            return 0;
        jscan_peek(&s);
        const char *v = s.p;
        if (!jscan_pass(&s))
            return 0;
        if (!kind && kl == 4 && memcmp(k, "kind", 4) == 0) {
            kind = v;
            kind_len = (size_t)(s.p - v);
        }
        more = !jscan_eat(&s, '}');
        if (more && !jscan_eat(&s, ','))
            return 0;
    }
    return layout_end(sig, n, kind, kind_len);
}

/* layout_of from the members the check gave of the record (nm SIZE_MAX: none, read from the text then). */
static size_t layout_given(const char *text, size_t len, const jstream_mspan *m, size_t nm, char *sig)
{
    if (nm == SIZE_MAX)
        return layout_of(text, len, sig);
    if (memchr(text, '\\', len))
        return 0;
    size_t n = 0, kind_len = 0;
    const char *kind = NULL;
    for (size_t i = 0; i < nm; i++) {
        if (m[i].depth != 0)
            continue;
        size_t kl = m[i].klen;
        if (n + kl + 1 >= CF_LAYOUT_MAX)
            return 0;
        memcpy(sig + n, m[i].key, kl);
        sig[n + kl] = '\0';
        n += kl + 1;
        if (!kind && kl == 4 && memcmp(m[i].key, "kind", 4) == 0) {
            kind = m[i].v;
            kind_len = m[i].vlen;
        }
    }
    return layout_end(sig, n, kind, kind_len);
}

/* Is sig[0..n) a layout seen before (and remembered)? */
static bool layout_seen(cf_layouts *l, const char *sig, size_t n)
{
    for (int k = 0; k < l->n; k++) {
        int i = (l->last + k) % l->n; /* the last one first: records of a lane repeat */
        if (l->len[i] == n && memcmp(l->sig[i], sig, n) == 0) {
            l->last = i;
            return true;
        }
    }
    return false;
}

static bool sphase_lanes(cf_sdfx *d, jstream *js, int k, cf_layouts *lay);

/* Reads one phase list of the swimlane (js at its value) into d. */
static bool sphases(cf_sdfx *d, jstream *js, int k)
{
    d->phases[k] = true;
    if (!jstream_eat(js, '['))
        return false;
    cf_layouts *lay = malloc(sizeof(*lay));
    if (!lay)
        return false; /* read whole then, which says what failed */
    lay->n = lay->last = 0;
    bool ok = sphase_lanes(d, js, k, lay);
    free(lay);
    return ok;
}

/* sphases' lanes, remembering their records' layouts in lay. */
static bool sphase_lanes(cf_sdfx *d, jstream *js, int k, cf_layouts *lay)
{
    bool f1 = true;
    int r;
    while ((r = jstream_next(js, ']', &f1)) == 1) {
        if (!jstream_eat(js, '['))
            return false;
        d->lanes[k]++;
        bool f2 = true;
        int q;
        while ((q = jstream_next(js, ']', &f2)) == 1) {
            const char *t;
            size_t n, nm;
            jstream_mspan m[64];
            if (jstream_peek(js) != '{' || !jstream_value_members(js, &t, &n, m, 64, &nm))
                return false;
            char sig[CF_LAYOUT_MAX];
            size_t sl = layout_given(t, n, m, nm, sig);
            if (sl && layout_seen(lay, sig, sl))
                continue;
            char item[1024];
            if (!quick_phase_item(t, n, item, sizeof(item))) {
                cJSON *rec = jsonl_parse(t, n, NULL);
                if (rec)
                    cf_phase_item(rec, item, sizeof(item));
                cJSON_Delete(rec);
                if (!rec)
                    return false;
            }
            if (strtab_intern(&d->items[k], item) < 0)
                return false;
            if (sl && lay->n < CF_LAYOUTS) {
                memcpy(lay->sig[lay->n], sig, sl);
                lay->len[lay->n] = sl;
                lay->last = lay->n++;
            }
        }
        if (q != 0)
            return false;
    }
    return r == 0;
}

/* Checks the swimlane as check_swimlane does, keeping what cf_cmp_swimlane reads. */
static bool sswim_check(cf_sdfx *d)
{
    jstream js;
    if (jstream_open(&js, d->swim_path) != 0)
        return false;
    bool ok = jstream_eat(&js, '{'), first = true;
    char key[1100];
    size_t klen = 0;
    int r = -1;
    jstream_keys seen = {.n = 0};
    while (ok && (r = jstream_member(&js, &first, key, sizeof(key))) == 1 &&
           (ok = jstream_new_key(&seen, key))) {
        if (!d->top_full) { /* as key_list: stop at the first key that does not fit */
            int w = snprintf(d->top_keys + klen, sizeof(d->top_keys) - klen, "%s%s", klen ? "," : "", key);
            if (w < 0 || (size_t)w >= sizeof(d->top_keys) - klen) {
                d->top_keys[klen] = '\0';
                d->top_full = true;
            } else {
                klen += (size_t)w;
            }
        }
        const char *t;
        size_t n;
        int row = -1, ph = -1;
        for (int k = 0; k < 2; k++) {
            if (strcmp(key, ROW_LISTS[k]) == 0 && !d->rows[k])
                row = k;
            if (strcmp(key, PHASE_LISTS[k]) == 0 && !d->phases[k])
                ph = k;
        }
        if (ph >= 0) {
            ok = sphases(d, &js, ph);
        } else if (row >= 0) {
            d->rows[row] = true;
            ok = jstream_eat(&js, '[');
            bool f2 = true;
            int q = -1;
            while (ok && (q = jstream_next(&js, ']', &f2)) == 1) {
                ok = jstream_peek(&js) == '[' && jstream_value(&js, &t, &n);
                if (ok) {
                    int a = array_len(t, n);
                    d->arity[row][a < 63 ? a : 63] = true;
                }
            }
            ok = ok && q == 0;
        } else if (!jstream_value(&js, &t, &n)) {
            ok = false;
        } else if (strcmp(key, "chip_swimlane_level") == 0 && !d->level) {
            ok = (d->level = jsonl_parse(t, n, NULL)) != NULL;
        } else if (strcmp(key, "metadata") == 0 && !d->metadata) {
            ok = (d->metadata = jsonl_parse(t, n, NULL)) != NULL && cJSON_IsObject(d->metadata);
        }
    }
    ok = ok && r == 0 && jstream_peek(&js) == 0 && !js.bad && d->metadata;
    cf_stream_done(&js);
    return ok;
}

/* Checks d's scope stats and swimlane, when they exist. */
static bool check_rest(cf_sdfx *d)
{
    if (is_file(d->scope_path)) {
        if (!sscope_check(d))
            return false;
        d->has_scope = true;
    }
    if (is_file(d->swim_path)) {
        if (!sswim_check(d))
            return false;
        d->has_swim = true;
    }
    return true;
}

typedef struct cf_check_job {
    cf_sdfx *d;
    bool ok;
    void (*then)(void *); /* called after a check that passed, on the same thread */
    void *arg;
} cf_check_job;

static void *check_main(void *arg)
{
    cf_check_job *j = arg;
    j->ok = check_rest(j->d);
    if (j->ok && j->then)
        j->then(j->arg);
    return NULL;
}

/* Starts fn(arg) on a thread with every signal blocked (they stay with the main thread); false when no
 * thread could be had. */
bool cf_thread_start(pthread_t *t, void *(*fn)(void *), void *arg)
{
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    bool started = pthread_create(t, NULL, fn, arg) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return started;
}

int cf_sdfx_load_with(cf_sdfx *d, const char *dir, bool real, bool split, cf_digest *g, void (*then)(void *),
                      void *arg)
{
    memset(d, 0, sizeof(*d));
    if (g)
        memset(g, 0, sizeof(*g));
    strtab_init(&d->items[0]);
    strtab_init(&d->items[1]);
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return -1;
    snprintf(d->deps_path, sizeof(d->deps_path), "%s/deps.json", dir);
    snprintf(d->scope_path, sizeof(d->scope_path), "%s/scope_stats/scope_stats.jsonl", dir);
    snprintf(d->swim_path, sizeof(d->swim_path), "%s/chip_swimlane_records.json", dir);
    const char *paths[3] = {d->deps_path, d->scope_path, d->swim_path};
    for (int k = 0; k < 3; k++)
        if (stat(paths[k], &d->st[k]) != 0)
            d->st[k].st_size = -1;
    cf_check_job cj = {d, false, then, arg};
    pthread_t t;
    bool started = split && cf_thread_start(&t, check_main, &cj);
    bool ok = true;
    if (is_file(d->deps_path)) {
        cf_digester *w = g ? cf_digester_new() : NULL;
        ok = d->has_deps = sdeps_check(d, w);
        if (ok && g)
            cf_digester_end(w, g);
        else
            cf_digester_free(w);
    } else if (real) {
        ok = false;
    }
    if (started)
        pthread_join(t, NULL);
    else if (ok)
        check_main(&cj);
    if (!(ok && cj.ok) && g)
        cf_digest_free(g);
    return ok && cj.ok ? 0 : -1;
}

/* cf_sdfx_load; with split, the scope stats and the swimlane on a second thread while this one checks
 * deps.json (each writes its own fields of d). */
int cf_sdfx_load_split(cf_sdfx *d, const char *dir, bool real, bool split)
{
    return cf_sdfx_load_with(d, dir, real, split, NULL, NULL, NULL);
}

/* Checks what of dir's three files exists, as cf_dfx_load does. Returns 0, or -1 when cf_dfx_load would fail
 * or the stream refuses a file (cf_dfx_load then names the fault). */
int cf_sdfx_load(cf_sdfx *d, const char *dir, bool real)
{
    return cf_sdfx_load_split(d, dir, real, false);
}

/* A checked value's text as a tree, by jsonl_parse: the stream checked it by the same rules, so NULL means
 * out of memory, or a file changed since it was checked (the callers tell which by checking the text again).
 * Nothing is taken that the check would refuse: no lenient second reading. */
cJSON *cf_tree(const char *text, size_t len)
{
    return jsonl_parse(text, len, NULL);
}

/* Are dir's files as cf_sdfx_load checked them (same sizes and modification times)? */
bool cf_sdfx_same(const cf_sdfx *d)
{
    const char *paths[3] = {d->deps_path, d->scope_path, d->swim_path};
    for (int k = 0; k < 3; k++) {
        struct stat st;
        if (stat(paths[k], &st) != 0)
            st.st_size = -1;
        if (st.st_size != d->st[k].st_size ||
            (st.st_size >= 0 && (st.st_mtim.tv_sec != d->st[k].st_mtim.tv_sec ||
                                 st.st_mtim.tv_nsec != d->st[k].st_mtim.tv_nsec)))
            return false;
    }
    return true;
}
