/* import_read.c - import_read_: the capture's files read: deps.json, swimlane, scope stats, name map. */
/* Tasks, args and edges from deps.json, kernel times and sync-start drains from the swimlane, scope samples
 * and ring sizes from scope stats, kernel names from the name map. deps.json and the swimlane are read in one
 * pass that checks as it reads (import_lex.h); a file that pass does not take, or whose content it would
 * refuse, is read the reference way, whose messages name the fault: its large lists a value at a time
 * (sim/json/json_stream.h) or from a tree, through one list type. */
#include "import_read.h"

#include <cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../model/base/dtype.h"
#include "../../model/base/json_reader.h"
#include "../../model/base/readall.h"
#include "../../model/base/vec.h"
#include "../json/json_span.h"
#include "../json/json_stream.h"
#include "import_lex.h"
#include "import_state.h"

/* Is v a JSON number holding an integer in [lo, hi]? (Before any cast of a
 * capture's number: casting a double outside the target type is undefined.) */
static bool int_in(const cJSON *v, double lo, double hi)
{
    return cJSON_IsNumber(v) && v->valuedouble == floor(v->valuedouble) && v->valuedouble >= lo &&
           v->valuedouble <= hi;
}

/* A u64 given as a decimal string or a number. */
static bool get_u64(const cJSON *v, uint64_t *out)
{
    if (cJSON_IsString(v))
        return jspan_u64_text(v->valuestring, out);
    if (cJSON_IsNumber(v) && v->valuedouble >= 0 && v->valuedouble < 1.8e19) {
        *out = (uint64_t)v->valuedouble;
        return true;
    }
    return false;
}

static bool get_dims(const cJSON *v, int64_t *out, int *n)
{
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) > GRAPH_MAX_DIMS)
        return false;
    *n = 0;
    const cJSON *x;
    cJSON_ArrayForEach(x, v)
    {
        if (!cJSON_IsNumber(x) || x->valuedouble < 0 || x->valuedouble > 9e15)
            return false;
        out[(*n)++] = (int64_t)x->valuedouble;
    }
    return true;
}

static size_t tid_slot(uint64_t tid, size_t mask)
{
    return (size_t)((tid * 0x9E3779B97F4A7C15ULL) >> 17) & mask;
}

static long find_tensor(const importer *im, uint64_t tid)
{
    if (!im->tid_hash)
        return -1;
    for (size_t h = tid_slot(tid, im->tid_mask);; h = (h + 1) & im->tid_mask) {
        uint32_t v = im->tid_hash[h];
        if (!v)
            return -1;
        if (im->tensors[v - 1].tid == tid)
            return (long)v - 1;
    }
}

/* Indexes tensors[] by tensor id (the first record of an id wins). */
static int hash_tensors(importer *im)
{
    size_t n = 16;
    while (n < 2 * im->ntensors + 2)
        n *= 2;
    im->tid_hash = calloc(n, sizeof(*im->tid_hash));
    if (!im->tid_hash)
        return imp_oom(im);
    im->tid_mask = n - 1;
    for (size_t i = 0; i < im->ntensors; i++) {
        if (find_tensor(im, im->tensors[i].tid) >= 0)
            continue;
        size_t h = tid_slot(im->tensors[i].tid, im->tid_mask);
        while (im->tid_hash[h])
            h = (h + 1) & im->tid_mask;
        im->tid_hash[h] = (uint32_t)i + 1;
    }
    return 0;
}

static imp_task *add_task(importer *im)
{
    if (vec_grow((void **)&im->tasks, &im->taskcap, im->ntasks, sizeof(*im->tasks)) != 0)
        return NULL;
    imp_task *t = &im->tasks[im->ntasks++];
    memset(t, 0, sizeof(*t));
    t->ns = -1;
    t->block_num = 1;
    t->k[0] = t->k[1] = t->k[2] = -1;
    return t;
}

static int add_edge(importer *im, imp_task *t, imp_edge e)
{
    if (vec_grow_from((void **)&t->edges, &t->edgecap, t->nedges, sizeof(*t->edges), 4) != 0)
        return imp_oom(im);
    t->edges[t->nedges++] = e;
    return 0;
}

/* ---- reading ---- */

/* ---- lists read from a tree or from a file ---- */

/* The elements of one JSON array, either the children of a tree or values read from the file a value at a
 * time (sim/json/json_stream.h), so that a capture's large lists are never held whole. */
typedef struct imp_list {
    const cJSON *node; /* tree: the next element */
    jstream *js;       /* file: the stream (one stream serves several lists, read one after another) */
    const char *file;  /* file: its name, for messages */
    uint64_t off;      /* file: the offset of the array */
    bool open;         /* file: the stream is inside the array (seeked at the first step) */
    bool first;        /* file: no element read yet */
    cJSON *own;        /* file: the element handed out last, freed at the next step */
} imp_list;

/* The children of a tree node (of any node, as cJSON_ArrayForEach walks them). */
static void list_tree(imp_list *l, const cJSON *node)
{
    memset(l, 0, sizeof(*l));
    l->node = node ? node->child : NULL;
}

/* The array at file offset off of a stream. */
static void list_file(imp_list *l, jstream *js, const char *file, uint64_t off)
{
    memset(l, 0, sizeof(*l));
    l->js = js;
    l->file = file;
    l->off = off;
    l->first = true;
}

/* Puts a file list's stream inside its array at the first step. */
static void list_open(imp_list *l)
{
    if (l->open)
        return;
    l->open = true;
    jstream_seek(l->js, l->off);
    jstream_eat(l->js, '[');
}

static void list_done(imp_list *l)
{
    cJSON_Delete(l->own);
    l->own = NULL;
}

/* A failure of a file that was checked before: it changed, or could not be read again. */
static int list_fault(importer *im, const imp_list *l)
{
    if (l->js->err == ENOMEM)
        return imp_oom(im);
    if (l->js->err)
        return imp_fail(im, l->file, "cannot read: %s", strerror(l->js->err));
    return imp_fail(im, l->file, "changed while it was read");
}

static int list_text(importer *im, imp_list *l, const char **t, size_t *n, int *rc);
static const cJSON *list_parse(importer *im, imp_list *l, const char *t, size_t n, int *rc);

/* The next element, NULL at the end or on a failure (*rc set, with the message). */
static const cJSON *list_next(importer *im, imp_list *l, int *rc)
{
    list_done(l);
    if (!l->js) {
        const cJSON *x = l->node;
        if (x)
            l->node = x->next;
        return x;
    }
    const char *t;
    size_t n;
    return list_text(im, l, &t, &n, rc) == 1 ? list_parse(im, l, t, n, rc) : NULL;
}

/* The next element of a file list as text (valid until the next step): 1, 0 at the end, -1 on a failure
 * (*rc set). The caller parses it with list_parse when it needs a tree. */
static int list_text(importer *im, imp_list *l, const char **t, size_t *n, int *rc)
{
    list_done(l);
    list_open(l);
    int r = jstream_next(l->js, ']', &l->first);
    if (r == 0)
        return 0;
    if (r < 0 || !jstream_value(l->js, t, n)) {
        *rc = list_fault(im, l);
        return -1;
    }
    return 1;
}

/* The text list_text gave as the list's current element (a tree, freed at the next step); NULL on a failure
 * (*rc set). */
static const cJSON *list_parse(importer *im, imp_list *l, const char *t, size_t n, int *rc)
{
    if (!(l->own = jsonl_parse(t, n, NULL)))
        *rc = jstream_check(t, n) ? imp_oom(im) : list_fault(im, l);
    return l->own;
}

/* Steps outer to its next element and makes sub its elements (a list of lists, read without holding the
 * outer element whole). False at the end or on a failure (*rc set). */
static bool list_enter(importer *im, imp_list *outer, imp_list *sub, int *rc)
{
    if (!outer->js) {
        const cJSON *x = outer->node;
        if (!x)
            return false;
        outer->node = x->next;
        list_tree(sub, x);
        return true;
    }
    list_open(outer);
    int r = jstream_next(outer->js, ']', &outer->first);
    if (r == 0)
        return false;
    if (r < 0 || !jstream_eat(outer->js, '[')) {
        *rc = list_fault(im, outer);
        return false;
    }
    memset(sub, 0, sizeof(*sub));
    sub->js = outer->js;
    sub->file = outer->file;
    sub->open = true;
    sub->first = true;
    return true;
}

/* What a check of a capture file by stream found: the offsets of its top-level arrays. */
typedef struct imp_scan {
    const char *const *keys; /* the top-level keys looked for */
    int nkeys;               /* how many */
    bool have[8];            /* keys[k] occurs */
    bool array[8];           /* ... and is an array */
    uint64_t off[8];         /* file offset of its value */
    long n[8];               /* elements of the array */
    cJSON *tree[8];          /* the value of keys[k] as a tree, for the keys marked small */
    bool small[8];           /* keys[k] is small: keep its tree */
    bool nested[8];          /* keys[k] is walked as a list of lists: its elements must be arrays */
} imp_scan;

static void scan_free(imp_scan *sc)
{
    for (int k = 0; k < sc->nkeys; k++)
        cJSON_Delete(sc->tree[k]);
}

/* Checks path whole by stream (the rules of sim/json/json_stream.h, which model/base/json_reader.c accepts), noting where the
 * keys' values are. Returns true when the file suits the stream; false when it does not (the caller
 * reads it whole, which names any fault as before). */
static bool scan_file(jstream *js, const char *path, imp_scan *sc, bool checked)
{
    if (jstream_open(js, path) != 0)
        return false;
    if (checked)
        jstream_trust(js);
    bool ok = jstream_eat(js, '{'), first = true;
    char key[64];
    int r = -1;
    jstream_keys seen = {.n = 0};
    while (ok && (r = jstream_member(js, &first, key, sizeof(key))) == 1 &&
           (ok = jstream_new_key(&seen, key))) {
        int k = 0;
        while (k < sc->nkeys && strcmp(key, sc->keys[k]) != 0)
            k++;
        if (k == sc->nkeys) {
            ok = jstream_skip(js);
            continue;
        }
        sc->have[k] = true;
        int c = jstream_peek(js);
        sc->off[k] = jstream_tell(js);
        if (sc->small[k]) {
            const char *t;
            size_t n;
            ok = jstream_value(js, &t, &n) && (sc->tree[k] = jsonl_parse(t, n, NULL)) != NULL;
            continue;
        }
        if (c != '[') {
            ok = jstream_skip(js);
            continue;
        }
        sc->array[k] = true;
        jstream_eat(js, '[');
        bool f2 = true;
        int q;
        while ((q = jstream_next(js, ']', &f2)) == 1 &&
               (ok = (!sc->nested[k] || jstream_peek(js) == '[') && jstream_skip(js)))
            sc->n[k]++;
        ok = ok && q == 0;
    }
    return ok && r == 0 && jstream_peek(js) == 0 && !js->bad;
}

static int read_tensor(importer *im, const cJSON *x, int i)
{
    imp_tensor *t = &im->tensors[im->ntensors];
    memset(t, 0, sizeof(*t));
    const cJSON *dt = cJSON_GetObjectItemCaseSensitive(x, "dtype");
    if (!get_u64(cJSON_GetObjectItemCaseSensitive(x, "tensor_id"), &t->tid) ||
        !get_u64(cJSON_GetObjectItemCaseSensitive(x, "buffer_addr"), &t->addr) ||
        !get_u64(cJSON_GetObjectItemCaseSensitive(x, "buffer_numel"), &t->numel) || !cJSON_IsString(dt) ||
        dtype_parse(dt->valuestring) < 0)
        return imp_fail(im, "deps.json",
                        "tensors[%d]: needs tensor_id, buffer_addr, buffer_numel and a known dtype", i);
    t->dtype = dtype_parse(dt->valuestring);
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(x, "version");
    if (v && !int_in(v, 0, INT32_MAX)) /* checked before the cast: a double beyond int is undefined */
        return imp_fail(im, "deps.json", "tensors[%d].version: must be an integer in [0, 2^31)", i);
    t->version = v ? (int)v->valuedouble : 0;
    t->first_use = SIZE_MAX;
    im->ntensors++;
    return 0;
}

static int read_task(importer *im, const cJSON *x, int i)
{
    imp_task *t = add_task(im);
    if (!t)
        return imp_oom(im);
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(x, "kernel_ids"),
                *args = cJSON_GetObjectItemCaseSensitive(x, "args"),
                *sc = cJSON_GetObjectItemCaseSensitive(x, "scope"),
                *bn = cJSON_GetObjectItemCaseSensitive(x, "block_num");
    if (!get_u64(cJSON_GetObjectItemCaseSensitive(x, "task_id"), &t->id) || !cJSON_IsArray(k) ||
        cJSON_GetArraySize(k) != 3 || !cJSON_IsArray(args))
        return imp_fail(im, "deps.json", "tasks[%d]: needs task_id, kernel_ids [aic, aiv0, aiv1] and args",
                        i);
    if (imp_ring_of(t->id) >= RINGS)
        return imp_fail(im, "deps.json", "tasks[%d].task_id: %" PRIu64 " names ring %" PRIu64 " (rings are 0..3)",
                        i, t->id, t->id >> 32);
    t->ring = imp_ring_of(t->id);
    t->local = (uint32_t)t->id;
    for (int s = 0; s < 3; s++) {
        const cJSON *kv = cJSON_GetArrayItem(k, s);
        if (cJSON_IsNumber(kv) && kv->valuedouble >= GRAPH_MAX_FUNC_ID)
            return imp_fail(im, "deps.json", "tasks[%d].kernel_ids: func id %.17g is out of range", i,
                            kv->valuedouble);
        t->k[s] = cJSON_IsNumber(kv) && kv->valuedouble >= 0 ? (int32_t)kv->valuedouble : -1;
    }
    t->manual = cJSON_IsString(sc) && strcmp(sc->valuestring, "manual") == 0;
    t->early = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(x, "early_dispatch"));
    t->block_num =
        cJSON_IsNumber(bn) && bn->valuedouble >= 1 && bn->valuedouble <= 32767 ? (int)bn->valuedouble : 1;
    int na = cJSON_GetArraySize(args);
    if (na > GRAPH_MAX_TENSOR_ARGS)
        return imp_fail(im, "deps.json", "tasks[%d].args: %d tensor args, at most %d", i, na,
                        GRAPH_MAX_TENSOR_ARGS);
    t->args = calloc(na ? (size_t)na : 1, sizeof(*t->args));
    if (!t->args)
        return imp_oom(im);
    const cJSON *a;
    cJSON_ArrayForEach(a, args)
    {
        imp_arg *ia = &t->args[t->nargs];
        const cJSON *ty = cJSON_GetObjectItemCaseSensitive(a, "type");
        const char *tn = cJSON_IsString(ty) ? ty->valuestring : "";
        ia->tensor = -1;
        ia->buf = -1;
        ia->type = strcmp(tn, "INPUT") == 0             ? A_IN
                   : strcmp(tn, "OUTPUT") == 0          ? A_OUT
                   : strcmp(tn, "INOUT") == 0           ? A_INOUT
                   : strcmp(tn, "OUTPUT_EXISTING") == 0 ? A_OUT_EXISTING
                                                        : A_NO_DEP;
        if (ia->type == A_OUT) {
            t->nslots++;
        } else {
            uint64_t tid;
            int nd_shape = 0, nd_strides = 0;
            if (!get_u64(cJSON_GetObjectItemCaseSensitive(a, "tensor_id"), &tid) ||
                (ia->tensor = (int)find_tensor(im, tid)) < 0 ||
                !get_dims(cJSON_GetObjectItemCaseSensitive(a, "shape"), ia->shape, &nd_shape) ||
                !get_dims(cJSON_GetObjectItemCaseSensitive(a, "strides"), ia->strides, &nd_strides) ||
                nd_shape != nd_strides ||
                !get_u64(cJSON_GetObjectItemCaseSensitive(a, "start_offset"), &ia->start))
                return imp_fail(
                    im, "deps.json",
                    "tasks[%d].args[%d]: needs a known tensor_id, shape, strides and start_offset", i,
                    t->nargs);
            ia->ndim = nd_shape;
            const cJSON *dt = cJSON_GetObjectItemCaseSensitive(a, "dtype");
            ia->dtype = cJSON_IsString(dt) ? dtype_parse(dt->valuestring) : -1;
            if (ia->dtype < 0)
                ia->dtype = im->tensors[ia->tensor].dtype;
        }
        t->nargs++;
    }
    return 0;
}

#define IMPORT_ALLOC_SLACK 65536 /* inferred allocs past the listed tasks a capture may imply */

/* Indexes tasks by (ring, local id); ids a ring handed out that deps.json
 * does not list are alloc_tensors calls (the only other kind of task). */
static int index_tasks(importer *im)
{
    for (size_t i = 0; i < im->ntasks; i++) {
        imp_task *t = &im->tasks[i];
        if ((uint64_t)t->local + 1 > im->ring_count[t->ring])
            im->ring_count[t->ring] = (uint64_t)t->local + 1;
    }
    uint64_t handed_out = 0;
    for (int r = 0; r < RINGS; r++) {
        if (im->ring_count[r] > (64u << 20))
            return imp_fail(im, "deps.json",
                            "ring %d: local task id %" PRIu64 " is beyond what a capture can hold", r,
                            im->ring_count[r] - 1);
        handed_out += im->ring_count[r];
    }
    /* every id not listed becomes an alloc, and allocs are a small part of any
     * orchestration (one per scope or loop body, consumed by the tasks after
     * it): ids far past the listed tasks were never handed out, and would cost
     * memory and graph lines in proportion (found by make fuzz: a 50-byte
     * capture claiming id 2^26 asked for 2.4 GB) */
    if (handed_out > 2 * (uint64_t)im->ntasks + IMPORT_ALLOC_SLACK)
        return imp_fail(im, "deps.json",
                        "the rings handed out %" PRIu64 " task ids but deps.json lists %zu tasks: the other %" PRIu64
                        " would all be alloc_tensors calls, more than the tasks (+%d); are its task ids or scope "
                        "samples from another run?",
                        handed_out, im->ntasks, handed_out - im->ntasks, IMPORT_ALLOC_SLACK);
    for (int r = 0; r < RINGS; r++) {
        free(im->by_local[r]);
        im->by_local[r] = malloc((im->ring_count[r] ? im->ring_count[r] : 1) * sizeof(long));
        if (!im->by_local[r])
            return imp_oom(im);
        for (uint64_t l = 0; l < im->ring_count[r]; l++)
            im->by_local[r][l] = -1;
    }
    for (size_t i = 0; i < im->ntasks; i++) {
        imp_task *t = &im->tasks[i];
        if (im->by_local[t->ring][t->local] >= 0)
            return imp_fail(im, "deps.json", "task %" PRIu64 " is listed twice", t->id);
        im->by_local[t->ring][t->local] = (long)i;
    }
    for (int r = 0; r < RINGS; r++)
        for (uint64_t l = 0; l < im->ring_count[r]; l++) {
            if (im->by_local[r][l] >= 0)
                continue;
            imp_task *t = add_task(im);
            if (!t)
                return imp_oom(im);
            t->id = ((uint64_t)r << 32) | l;
            t->ring = r;
            t->local = (uint32_t)l;
            t->alloc = true;
            im->by_local[r][l] = (long)(im->ntasks - 1);
        }
    return 0;
}

/* What read_edges and count_edge_preds read of an edge, from its tree or from its text. */
typedef struct imp_edge_in {
    bool pred_ok, succ_ok, tid_ok; /* the id is there and a u64 (get_u64) */
    uint64_t pred, succ, tid;
    const char *src; /* source when it is a string, else NULL */
    bool arg_bad;    /* arg is there, not null and no argument index */
    int arg;         /* the index; -1 when absent or null */
    char srcbuf[64]; /* src read from text */
} imp_edge_in;

static void edge_in_tree(const cJSON *x, imp_edge_in *e)
{
    const cJSON *src = cJSON_GetObjectItemCaseSensitive(x, "source"),
                *arg = cJSON_GetObjectItemCaseSensitive(x, "arg");
    e->pred_ok = get_u64(cJSON_GetObjectItemCaseSensitive(x, "pred"), &e->pred);
    e->succ_ok = get_u64(cJSON_GetObjectItemCaseSensitive(x, "succ"), &e->succ);
    e->tid_ok = get_u64(cJSON_GetObjectItemCaseSensitive(x, "tensor_id"), &e->tid);
    e->src = cJSON_IsString(src) ? src->valuestring : NULL;
    e->arg_bad = arg && !cJSON_IsNull(arg) && !int_in(arg, -1, INT32_MAX);
    e->arg = cJSON_IsNumber(arg) && !e->arg_bad ? (int)arg->valuedouble : -1;
}

/* get_u64 of a span: true when the span decides (*ok set), false when only the tree can. */
static bool span_u64(jspan v, bool *ok, uint64_t *x)
{
    char buf[64];
    *ok = false;
    if (!v.p || v.p[0] == 'n' || v.p[0] == 't' || v.p[0] == 'f' || v.p[0] == '[' || v.p[0] == '{')
        return true; /* absent, or neither a string nor a number */
    if (v.p[0] == '"') {
        if (!jspan_string(v, buf, sizeof(buf)))
            return false;
        *ok = jspan_u64_text(buf, x);
        return true;
    }
    if (!jspan_compact(v, buf, sizeof(buf)) || buf[0] == '-')
        return false; /* a fraction, an exponent, a sign: the tree's double decides */
    *ok = jspan_u64_text(buf, x);
    return true;
}

/* edge_in_tree from an edge's text (checked by the stream); false when only its tree can tell. */
static bool edge_in_text(const char *t, size_t n, imp_edge_in *e)
{
    enum { PRED, SUCC, SRC, ARG, TID, NKEYS };
    static const char *const KEYS[NKEYS] = {"pred", "succ", "source", "arg", "tensor_id"};
    jspan f[NKEYS];
    if (!jspan_members(t, n, KEYS, NKEYS, f) || !span_u64(f[PRED], &e->pred_ok, &e->pred) ||
        !span_u64(f[SUCC], &e->succ_ok, &e->succ) || !span_u64(f[TID], &e->tid_ok, &e->tid))
        return false;
    e->src = NULL;
    if (f[SRC].p && f[SRC].p[0] == '"') {
        if (!jspan_string(f[SRC], e->srcbuf, sizeof(e->srcbuf)))
            return false;
        e->src = e->srcbuf;
    }
    e->arg = -1;
    e->arg_bad = false;
    if (f[ARG].p && !(f[ARG].n == 4 && memcmp(f[ARG].p, "null", 4) == 0)) {
        char buf[16];
        if (!jspan_compact(f[ARG], buf, sizeof(buf)) || !(buf[0] == '-' || (buf[0] >= '0' && buf[0] <= '9')))
            return false;
        long v = strtol(buf, NULL, 10); /* at most 9 digits: jspan_compact */
        e->arg_bad = v < -1 || v > INT32_MAX;
        e->arg = e->arg_bad ? -1 : (int)v;
    }
    return true;
}

/* The next edge of a list into *e: 1, 0 at the end, -1 on a failure (*rc set). Its text when that tells,
 * else its tree. */
static int next_edge(importer *im, imp_list *l, imp_edge_in *e, int *rc)
{
    const cJSON *x;
    if (l->js) {
        const char *t;
        size_t n;
        int q = list_text(im, l, &t, &n, rc);
        if (q != 1)
            return q;
        if (edge_in_text(t, n, e))
            return 1;
        x = list_parse(im, l, t, n, rc);
    } else {
        x = list_next(im, l, rc);
        if (!x && *rc == 0)
            return 0;
    }
    if (!x)
        return -1;
    edge_in_tree(x, e);
    return 1;
}

static int read_edges(importer *im, imp_list *edges)
{
    imp_edge_in in;
    int i = 0, rc = 0, q;
    while ((q = next_edge(im, edges, &in, &rc)) == 1) {
        if (!in.pred_ok || !in.succ_ok || !in.src)
            return imp_fail(im, "deps.json", "edges[%d]: needs pred, succ and source", i);
        long s = imp_find_task(im, in.succ);
        if (s < 0 || (size_t)s >= im->nknown)
            return imp_fail(im, "deps.json", "edges[%d]: succ %" PRIu64 " is not in tasks", i, in.succ);
        if (in.arg_bad)
            return imp_fail(im, "deps.json", "edges[%d].arg: must be an argument index", i);
        imp_edge e = {.pred_id = in.pred, .arg = in.arg, .tensor = -1};
        e.source = strcmp(in.src, "explicit") == 0    ? 0
                   : strcmp(in.src, "creator") == 0   ? 1
                   : strcmp(in.src, "tensormap") == 0 ? 2
                                                      : -1;
        if (e.source < 0)
            return imp_fail(im, "deps.json", "edges[%d].source: \"%s\" is not explicit, creator or tensormap",
                            i, in.src);
        long p = imp_find_task(im, in.pred);
        e.pred = p < 0 ? SIZE_MAX : (size_t)p;
        if (e.source != 0) {
            long ti;
            if (p < 0)
                return imp_fail(im, "deps.json", "edges[%d]: pred %" PRIu64 " of a %s edge is no task", i,
                                in.pred, in.src);
            if (!in.tid_ok || (ti = find_tensor(im, in.tid)) < 0)
                ti = -1;
            e.tensor = (int)ti;
            if (e.source == 1 && ti >= 0) {
                imp_tensor *tn = &im->tensors[ti];
                bool seen = false;
                for (size_t c = 0; c < tn->ncreators; c++)
                    seen |= tn->creators[c] == (size_t)p;
                if (!seen) {
                    imp_task *pt = &im->tasks[p];
                    if (imp_grow(im, (void **)&tn->creators, &tn->creatorcap, tn->ncreators, sizeof(size_t),
                                 4) != 0 ||
                        imp_grow(im, (void **)&pt->anchored, &pt->anchorcap, pt->nanchored, sizeof(int), 4) !=
                            0)
                        return imp_oom(im);
                    tn->creators[tn->ncreators++] = (size_t)p;
                    pt->anchored[pt->nanchored++] = (int)ti;
                }
            }
        }
        if (add_edge(im, &im->tasks[s], e) != 0)
            return -1;
        i++;
    }
    return q < 0 ? -1 : rc;
}

/* Ids named by creator or explicit edges that no ring counted yet extend the
 * rings: allocs reached only that way (an alloc consumed only in a manual
 * scope is named by nothing else). Explicit preds beyond what scope stats
 * counted are ids never issued, kept as raw dependencies. */
static int count_edge_preds(importer *im, imp_list *edges)
{
    imp_edge_in in;
    int rc = 0, q;
    while ((q = next_edge(im, edges, &in, &rc)) == 1) {
        if (!in.pred_ok || !in.src || imp_ring_of(in.pred) >= RINGS)
            continue;
        bool creator = strcmp(in.src, "creator") == 0;
        bool expl = strcmp(in.src, "explicit") == 0;
        int r = imp_ring_of(in.pred);
        uint64_t local = in.pred & 0xFFFFFFFFu;
        if (creator || (expl && !im->have_stats)) {
            if (local + 1 > im->ring_count[r] && local < (64u << 20))
                im->ring_count[r] = local + 1;
        }
    }
    return q < 0 ? -1 : rc;
}

/* Reads deps.json's lists in the order import_read_deps reads them: tensors, tasks, the edges twice. */
static int read_lists(importer *im, imp_list *tensors, imp_list *tasks, imp_list *edges1, imp_list *edges2,
                      int nt)
{
    im->tensors = calloc(nt ? (size_t)nt : 1, sizeof(*im->tensors));
    if (!im->tensors)
        return imp_oom(im);
    const cJSON *x;
    int i = 0, rc = 0;
    while (rc == 0 && (x = list_next(im, tensors, &rc)) != NULL)
        rc = read_tensor(im, x, i++);
    list_done(tensors);
    if (rc != 0 || hash_tensors(im) != 0)
        return -1;
    i = 0;
    while (rc == 0 && (x = list_next(im, tasks, &rc)) != NULL)
        rc = read_task(im, x, i++);
    list_done(tasks);
    if (rc != 0)
        return -1;
    im->nknown = im->ntasks;
    rc = count_edge_preds(im, edges1);
    list_done(edges1);
    if (rc == 0 && index_tasks(im) == 0)
        rc = read_edges(im, edges2);
    else
        rc = -1;
    list_done(edges2);
    return rc;
}

/* import_read_deps a value at a time: 1 when done, -1 on a failure (with its message), 0 when the file
 * does not suit the stream (import_read_deps then reads it whole, which names the fault as before). */
static int read_deps_stream(importer *im)
{
    static const char *const KEYS[] = {"tensors", "tasks", "edges"};
    char path[PATH_MAX];
    snprintf(path, sizeof(path), "%s/deps.json", im->dir);
    imp_scan sc = {.keys = KEYS, .nkeys = 3};
    jstream js;
    int rc = 0;
    if (scan_file(&js, path, &sc, im->checked) && sc.array[1] && sc.array[2] &&
        (!sc.have[0] || sc.array[0]) && sc.n[0] <= INT_MAX) {
        jstream_trust(&js); /* checked whole; list_next parses each element strictly */
        imp_list lt, lk, e1, e2;
        if (sc.have[0])
            list_file(&lt, &js, "deps.json", sc.off[0]);
        else
            list_tree(&lt, NULL);
        list_file(&lk, &js, "deps.json", sc.off[1]);
        list_file(&e1, &js, "deps.json", sc.off[2]);
        list_file(&e2, &js, "deps.json", sc.off[2]);
        rc = read_lists(im, &lt, &lk, &e1, &e2, (int)sc.n[0]) == 0 ? 1 : -1;
    }
    if (js.peak_cap > im->peak_window)
        im->peak_window = js.peak_cap;
    jstream_close(&js);
    scan_free(&sc);
    return rc;
}

/* ---- deps.json in one pass (import_lex.h) ---- */

/* An edge as deps.json gives it, held until the tasks are indexed. */
typedef struct raw_edge {
    uint64_t pred, succ, tid;
    long p, s;   /* tasks[] indexes of pred and succ, once found */
    int32_t arg; /* -1: absent or null */
    int ti;      /* the tensor a creator or tensormap edge names, once found (-1: none) */
    int8_t source;
    bool tid_ok;
} raw_edge;

/* What one pass over deps.json holds until the end of the file: the tasks are the importer's already. */
typedef struct fast_deps {
    importer *im;
    ilex_keys task_keys, arg_keys, tensor_keys, edge_keys;
    imp_arg *args;  /* every task's args in file order (t->pos: its first, until the end) */
    uint64_t *tids; /* ... and the tensor id each names */
    size_t nargs, argcap;
    imp_tensor *tensors;
    size_t ntensors, tensorcap;
    raw_edge *edges;
    size_t nedges, edgecap;
    const char *dt_text; /* the last dtype read, and its value: most args repeat it */
    size_t dt_len;
    char dt_buf[16];
    int dt;
} fast_deps;

enum { TK_ID, TK_SCOPE, TK_EARLY, TK_KIDS, TK_BLOCKS, TK_ARGS };
static const char *const TASK_KEYS[] = {"task_id",    "scope",     "early_dispatch",
                                        "kernel_ids", "block_num", "args"};
enum { AK_TYPE, AK_TID, AK_DTYPE, AK_SHAPE, AK_STRIDES, AK_START, AK_IDX };
static const char *const ARG_KEYS[] = {"type",    "tensor_id",    "dtype", "shape",
                                       "strides", "start_offset", "idx"};
enum { TN_TID, TN_ADDR, TN_NUMEL, TN_DTYPE, TN_VERSION };
static const char *const TENSOR_KEYS[] = {"tensor_id", "buffer_addr", "buffer_numel", "dtype", "version"};
enum { EK_PRED, EK_SUCC, EK_SRC, EK_ARG, EK_TID };
/* the keys past EK_TID are passed over: known, so that telling them from repeats costs no hashing */
static const char *const EDGE_KEYS[] = {"pred",
                                        "succ",
                                        "source",
                                        "arg",
                                        "tensor_id",
                                        "flags",
                                        "overlap",
                                        "consumer_dtype",
                                        "consumer_shape",
                                        "consumer_start_offset",
                                        "consumer_strides",
                                        "producer_shape",
                                        "producer_start_offset",
                                        "producer_strides"};

/* get_u64 of the value at p: ILEX_OK with *ok (and *v when true); ILEX_BAD also when only its tree could
 * tell (a number past 15 digits, a string strtoull might read past a sign or a blank). */
static inline __attribute__((always_inline)) int val_u64(const ilex *lx, const char *p, const char **after,
                                                         bool *ok, uint64_t *v)
{
    if (*p == '"') {
        const char *q = p + 1;
        uint64_t x = 0, y;
        bool over = false;
        if (ilex_digits8(q, &x)) { /* ids are long */
            q += 8;
            if (ilex_digits8(q, &y)) {
                x = x * 100000000u + y;
                q += 8;
            }
        }
        while ((unsigned)(*q - '0') < 10u && q - p <= 19) /* 19 digits cannot overflow */
            x = x * 10 + (unsigned)(*q++ - '0');
        while ((unsigned)(*q - '0') < 10u) {
            over |= __builtin_mul_overflow(x, 10u, &x);
            over |= __builtin_add_overflow(x, (unsigned)(*q - '0'), &x);
            q++;
        }
        if (*q == '"' && q > p + 1) {
            *ok = !over; /* strtoull's ERANGE */
            *v = x;
            *after = q + 1;
            return ILEX_OK;
        }
        char c0 = p[1];
        q = ilex_plain(q);
        if (*q != '"')
            return ilex_stop(lx, q);
        if (c0 == ' ' || c0 == '+')
            return ILEX_BAD;
        *ok = false; /* empty, signed, or text after the digits */
        *after = q + 1;
        return ILEX_OK;
    }
    if (*p == '-' || (unsigned)(*p - '0') < 10u) {
        bool is_int;
        int64_t x;
        int r = ilex_number(lx, p, after, &is_int, &x);
        if (r != ILEX_OK || !is_int)
            return r == ILEX_OK ? ILEX_BAD : r;
        *ok = x >= 0;
        *v = (uint64_t)x;
        return ILEX_OK;
    }
    *ok = false;
    return ilex_skip(lx, p, after);
}

/* get_dims of the value at p: ILEX_OK with *ok, and the dims in out[0 .. *n) when true. */
static inline __attribute__((always_inline)) int val_dims(const ilex *lx, const char *p, const char **after,
                                                          bool *ok, int64_t *out, int *n)
{
    *n = 0;
    *ok = *p == '[';
    if (!*ok)
        return ilex_skip(lx, p, after);
    p = ilex_ws(p + 1);
    if (*p == ']') {
        *after = p + 1;
        return ILEX_OK;
    }
    for (int count = 0;; count++) {
        int r;
        int64_t x;
        if (count < GRAPH_MAX_DIMS && ilex_uint(p, &p, &x)) { /* the usual dim */
            out[(*n)++] = x;
        } else if (*p == '-' || (unsigned)(*p - '0') < 10u) {
            bool is_int;
            if ((r = ilex_number(lx, p, &p, &is_int, &x)) != ILEX_OK)
                return r;
            if (!is_int)
                return ILEX_BAD; /* a fraction: the tree's double decides */
            if (x < 0 || count >= GRAPH_MAX_DIMS)
                *ok = false;
            else
                out[(*n)++] = x;
        } else {
            *ok = false;
            if ((r = ilex_skip(lx, p, &p)) != ILEX_OK)
                return r;
        }
        p = ilex_ws(p);
        if (*p == ',') {
            p = ilex_ws(p + 1);
            continue;
        }
        if (*p == ']') {
            *after = p + 1;
            return ILEX_OK;
        }
        return ilex_stop(lx, p);
    }
}

/* A plain string at p: its text [*s, *s + *n), ILEX_OK; anything else gives *s NULL, skipped. */
static inline int val_str(const ilex *lx, const char *p, const char **after, const char **s, size_t *n)
{
    *s = NULL;
    *n = 0;
    if (*p != '"')
        return ilex_skip(lx, p, after);
    const char *q = ilex_plain(p + 1);
    if (*q != '"')
        return ilex_stop(lx, q);
    *s = p + 1;
    *n = (size_t)(q - p - 1);
    *after = q + 1;
    return ILEX_OK;
}

/* dtype_parse of a string's text (-1 when s is NULL). */
static int fast_dtype(fast_deps *fd, const char *s, size_t n)
{
    if (!s || n >= sizeof(fd->dt_buf))
        return -1;
    if (fd->dt_text && n == fd->dt_len && memcmp(s, fd->dt_buf, n) == 0)
        return fd->dt;
    memcpy(fd->dt_buf, s, n);
    fd->dt_buf[n] = '\0';
    fd->dt_text = fd->dt_buf;
    fd->dt_len = n;
    return fd->dt = dtype_parse(fd->dt_buf);
}

static bool same(const char *s, size_t n, const char *lit)
{
    return s && strlen(lit) == n && memcmp(s, lit, n) == 0;
}

/* One element of a task's args, appended to fd->args (read_task's rules). */
static int fast_arg(fast_deps *fd, const ilex *lx, const char *p, const char **after, imp_task *t)
{
    if (*p != '{')
        return ILEX_BAD; /* read_task fails on it */
    imp_arg a;
    memset(&a, 0, sizeof(a));
    a.tensor = -1;
    a.buf = -1;
    const char *ts = NULL, *ds = NULL;
    size_t tn = 0, dn = 0;
    uint64_t tid = 0;
    bool tid_ok = false, start_ok = false, shape_ok = false, strides_ok = false;
    int nd_shape = 0, nd_strides = 0, r = ILEX_OK, key;
    ilex_seen seen;
    ilex_seen_init(&seen);
    p = ilex_ws(p + 1);
    if (*p != '}')
        for (;;) {
            if (!ilex_member_key(lx, &fd->arg_keys, &seen, p, &p, &key, &r))
                return r;
            switch (key) {
            case AK_TYPE:
                r = val_str(lx, p, &p, &ts, &tn);
                break;
            case AK_TID:
                r = val_u64(lx, p, &p, &tid_ok, &tid);
                break;
            case AK_DTYPE:
                r = val_str(lx, p, &p, &ds, &dn);
                break;
            case AK_SHAPE:
                r = val_dims(lx, p, &p, &shape_ok, a.shape, &nd_shape);
                break;
            case AK_STRIDES:
                r = val_dims(lx, p, &p, &strides_ok, a.strides, &nd_strides);
                break;
            case AK_START:
                r = val_u64(lx, p, &p, &start_ok, &a.start);
                break;
            default:
                r = ilex_skip_quick(lx, p, &p);
            }
            if (r != ILEX_OK)
                return r;
            int m = ilex_member_next(lx, &p, after, &r);
            if (m < 0)
                return r;
            if (m == 0)
                break;
        }
    else
        *after = p + 1;
    a.type = same(ts, tn, "INPUT")             ? A_IN
             : same(ts, tn, "OUTPUT")          ? A_OUT
             : same(ts, tn, "INOUT")           ? A_INOUT
             : same(ts, tn, "OUTPUT_EXISTING") ? A_OUT_EXISTING
                                               : A_NO_DEP;
    if (a.type == A_OUT) { /* nothing else of it is read */
        memset(&a, 0, sizeof(a));
        a.type = A_OUT;
        a.tensor = -1;
        a.buf = -1;
        t->nslots++;
    } else {
        if (!tid_ok || !shape_ok || !strides_ok || nd_shape != nd_strides || !start_ok)
            return ILEX_BAD;
        a.ndim = nd_shape;
        a.dtype = fast_dtype(fd, ds, dn); /* < 0: the tensor's, once tensors are known */
    }
    if (fd->nargs == fd->argcap) {
        size_t cap = fd->argcap ? 2 * fd->argcap : 1024;
        imp_arg *na = realloc(fd->args, cap * sizeof(*na));
        uint64_t *nt = na ? realloc(fd->tids, cap * sizeof(*nt)) : NULL;
        if (na)
            fd->args = na;
        if (!nt)
            return ILEX_BAD;
        fd->tids = nt;
        fd->argcap = cap;
    }
    fd->tids[fd->nargs] = tid;
    fd->args[fd->nargs++] = a;
    t->nargs++;
    return ILEX_OK;
}

/* A task's kernel_ids (read_task's rules): exactly three, each a func id, or -1 when it is no number. */
static int fast_kernel_ids(const ilex *lx, const char *p, const char **after, int32_t k[3])
{
    if (*p != '[')
        return ILEX_BAD;
    p = ilex_ws(p + 1);
    if (*p == ']')
        return ILEX_BAD;
    for (int n = 0;; n++) {
        int r;
        if (n == 3)
            return ILEX_BAD;
        if (*p == '-' || (unsigned)(*p - '0') < 10u) {
            bool is_int;
            int64_t x;
            if ((r = ilex_number(lx, p, &p, &is_int, &x)) != ILEX_OK)
                return r;
            if (!is_int || x >= GRAPH_MAX_FUNC_ID)
                return ILEX_BAD;
            k[n] = x >= 0 ? (int32_t)x : -1;
        } else {
            k[n] = -1;
            if ((r = ilex_skip(lx, p, &p)) != ILEX_OK)
                return r;
        }
        p = ilex_ws(p);
        if (*p == ',') {
            p = ilex_ws(p + 1);
            continue;
        }
        if (*p == ']' && n == 2) {
            *after = p + 1;
            return ILEX_OK;
        }
        return *p == ']' ? ILEX_BAD : ilex_stop(lx, p);
    }
}

/* A task's args (read_task's rules). */
static int fast_args(fast_deps *fd, const ilex *lx, const char *p, const char **after, imp_task *t)
{
    if (*p != '[')
        return ILEX_BAD;
    p = ilex_ws(p + 1);
    if (*p == ']') {
        *after = p + 1;
        return ILEX_OK;
    }
    for (;;) {
        int r;
        if (t->nargs == GRAPH_MAX_TENSOR_ARGS)
            return ILEX_BAD;
        if ((r = fast_arg(fd, lx, p, &p, t)) != ILEX_OK)
            return r;
        p = ilex_ws(p);
        if (*p == ',') {
            p = ilex_ws(p + 1);
            continue;
        }
        if (*p == ']') {
            *after = p + 1;
            return ILEX_OK;
        }
        return ilex_stop(lx, p);
    }
}

/* One element of tasks (read_task's rules), appended to the importer's tasks. */
static int fast_task_in(fast_deps *fd, const ilex *lx, const char *p, const char **after, imp_task *t)
{
    if (*p != '{')
        return ILEX_BAD;
    bool have_id = false, id_ok = false, have_k = false, have_args = false;
    int r = ILEX_OK, key;
    ilex_seen seen;
    ilex_seen_init(&seen);
    p = ilex_ws(p + 1);
    if (*p == '}')
        return ILEX_BAD;
    for (;;) {
        if (!ilex_member_key(lx, &fd->task_keys, &seen, p, &p, &key, &r))
            return r;
        switch (key) {
        case TK_ID:
            have_id = true;
            r = val_u64(lx, p, &p, &id_ok, &t->id);
            break;
        case TK_SCOPE: {
            const char *s;
            size_t n;
            r = val_str(lx, p, &p, &s, &n);
            t->manual = same(s, n, "manual");
            break;
        }
        case TK_EARLY:
            t->early = *p == 't'; /* cJSON_IsTrue: the literal true only */
            r = ilex_skip_quick(lx, p, &p);
            break;
        case TK_KIDS:
            have_k = true;
            r = fast_kernel_ids(lx, p, &p, t->k);
            break;
        case TK_BLOCKS:
            if (*p == '-' || (unsigned)(*p - '0') < 10u) {
                bool is_int = false;
                int64_t x = 0;
                r = ilex_number(lx, p, &p, &is_int, &x);
                if (r == ILEX_OK && !is_int)
                    r = ILEX_BAD; /* a fraction: the tree's double decides */
                t->block_num = x >= 1 && x <= 32767 ? (int)x : 1;
            } else {
                r = ilex_skip_quick(lx, p, &p);
            }
            break;
        case TK_ARGS:
            have_args = true;
            r = fast_args(fd, lx, p, &p, t);
            break;
        default:
            r = ilex_skip_quick(lx, p, &p);
        }
        if (r != ILEX_OK)
            return r;
        int m = ilex_member_next(lx, &p, after, &r);
        if (m < 0)
            return r;
        if (m == 0)
            break;
    }
    return have_id && id_ok && have_k && have_args && imp_ring_of(t->id) < RINGS ? ILEX_OK : ILEX_BAD;
}

static int fast_task(void *ctx, const ilex *lx, const char *p, const char **after)
{
    fast_deps *fd = ctx;
    importer *im = fd->im;
    size_t arg0 = fd->nargs;
    imp_task t;
    memset(&t, 0, sizeof(t));
    t.ns = -1;
    t.block_num = 1;
    t.k[0] = t.k[1] = t.k[2] = -1;
    int r = fast_task_in(fd, lx, p, after, &t);
    if (r != ILEX_OK) {
        fd->nargs = arg0; /* a value read again from its start, or given up */
        return r;
    }
    imp_task *nt = add_task(im);
    if (!nt)
        return ILEX_BAD;
    t.ring = imp_ring_of(t.id);
    t.local = (uint32_t)t.id;
    t.pos = arg0; /* its first arg, until the args stop moving */
    *nt = t;
    return ILEX_OK;
}

/* One element of tensors (read_tensor's rules). */
static int fast_tensor(void *ctx, const ilex *lx, const char *p, const char **after)
{
    fast_deps *fd = ctx;
    if (*p != '{')
        return ILEX_BAD;
    imp_tensor t;
    memset(&t, 0, sizeof(t));
    t.dtype = -1;
    bool ok[3] = {false, false, false};
    int r = ILEX_OK, key;
    ilex_seen seen;
    ilex_seen_init(&seen);
    p = ilex_ws(p + 1);
    if (*p == '}')
        return ILEX_BAD;
    for (;;) {
        if (!ilex_member_key(lx, &fd->tensor_keys, &seen, p, &p, &key, &r))
            return r;
        switch (key) {
        case TN_TID:
            r = val_u64(lx, p, &p, &ok[0], &t.tid);
            break;
        case TN_ADDR:
            r = val_u64(lx, p, &p, &ok[1], &t.addr);
            break;
        case TN_NUMEL:
            r = val_u64(lx, p, &p, &ok[2], &t.numel);
            break;
        case TN_DTYPE: {
            const char *s;
            size_t n;
            r = val_str(lx, p, &p, &s, &n);
            t.dtype = fast_dtype(fd, s, n);
            break;
        }
        case TN_VERSION: {
            bool is_int = false;
            int64_t x = -1;
            if (*p == '-' || (unsigned)(*p - '0') < 10u)
                r = ilex_number(lx, p, &p, &is_int, &x);
            else
                r = ILEX_BAD;
            if (r == ILEX_OK && (!is_int || x < 0 || x > INT32_MAX))
                r = ILEX_BAD;
            t.version = (int)x;
            break;
        }
        default:
            r = ilex_skip_quick(lx, p, &p);
        }
        if (r != ILEX_OK)
            return r;
        int m = ilex_member_next(lx, &p, after, &r);
        if (m < 0)
            return r;
        if (m == 0)
            break;
    }
    if (!ok[0] || !ok[1] || !ok[2] || t.dtype < 0)
        return ILEX_BAD;
    t.first_use = SIZE_MAX;
    if (vec_grow((void **)&fd->tensors, &fd->tensorcap, fd->ntensors, sizeof(*fd->tensors)) != 0)
        return ILEX_BAD;
    fd->tensors[fd->ntensors++] = t;
    return ILEX_OK;
}

/* One element of edges (edge_in_tree's reading; every edge read_edges would refuse is refused). */
static int fast_edge(void *ctx, const ilex *lx, const char *p, const char **after)
{
    fast_deps *fd = ctx;
    if (*p != '{')
        return ILEX_BAD;
    raw_edge e = {.arg = -1, .source = -1, .ti = -1};
    bool pred_ok = false, succ_ok = false;
    int r = ILEX_OK, key;
    ilex_seen seen;
    ilex_seen_init(&seen);
    p = ilex_ws(p + 1);
    if (*p == '}')
        return ILEX_BAD;
    for (;;) {
        if (!ilex_member_key(lx, &fd->edge_keys, &seen, p, &p, &key, &r))
            return r;
        switch (key) {
        case EK_PRED:
            r = val_u64(lx, p, &p, &pred_ok, &e.pred);
            break;
        case EK_SUCC:
            r = val_u64(lx, p, &p, &succ_ok, &e.succ);
            break;
        case EK_TID:
            r = val_u64(lx, p, &p, &e.tid_ok, &e.tid);
            break;
        case EK_SRC: {
            const char *s;
            size_t n;
            r = val_str(lx, p, &p, &s, &n);
            e.source = same(s, n, "explicit")    ? 0
                       : same(s, n, "creator")   ? 1
                       : same(s, n, "tensormap") ? 2
                                                 : -1;
            break;
        }
        case EK_ARG:
            if (*p == 'n') {
                r = ilex_literal(lx, p, &p);
            } else if (*p == '-' || (unsigned)(*p - '0') < 10u) {
                bool is_int;
                int64_t x = 0;
                r = ilex_number(lx, p, &p, &is_int, &x);
                if (r == ILEX_OK && (!is_int || x < -1 || x > INT32_MAX))
                    r = ILEX_BAD; /* edges[i].arg: must be an argument index */
                e.arg = (int32_t)x;
            } else {
                r = ILEX_BAD;
            }
            break;
        default:
            r = ilex_skip_quick(lx, p, &p);
        }
        if (r != ILEX_OK)
            return r;
        int m = ilex_member_next(lx, &p, after, &r);
        if (m < 0)
            return r;
        if (m == 0)
            break;
    }
    if (!pred_ok || !succ_ok || e.source < 0)
        return ILEX_BAD; /* read_edges fails on it */
    if (vec_grow((void **)&fd->edges, &fd->edgecap, fd->nedges, sizeof(*fd->edges)) != 0)
        return ILEX_BAD;
    fd->edges[fd->nedges++] = e;
    return ILEX_OK;
}

/* An array at the cursor, each element read by fn: straight from the window while it holds them, the
 * careful way (ilex_next, ilex_value) where the window ends. */
static bool fast_list(ilex *lx, ilex_fn fn, void *ctx)
{
    if (!ilex_eat(lx, '['))
        return false;
    bool first = true;
    for (;;) {
        const char *p = ilex_ws(lx->buf + lx->pos), *after;
        if (*p == ']') {
            lx->pos = (size_t)(p + 1 - lx->buf);
            return true;
        }
        if (!first && *p == ',') {
            p = ilex_ws(p + 1);
        } else if (!first || !*p) { /* the window's end, or bad text */
            int r = ilex_next(lx, &first);
            if (r != 1)
                return r == 0;
            if (!ilex_value(lx, fn, ctx))
                return false;
            continue;
        }
        first = false;
        int r = *p ? fn(ctx, lx, p, &after) : ILEX_MORE;
        if (r == ILEX_OK) {
            lx->pos = (size_t)(after - lx->buf);
            continue;
        }
        if (r == ILEX_BAD)
            return false;
        lx->pos = (size_t)(p - lx->buf); /* the element again from its start, the window read on */
        if (!ilex_value(lx, fn, ctx))
            return false;
    }
}

/* What read_lists does after reading, on what one pass read: tensors indexed, args bound to them, the
 * rings counted and indexed, edges checked and given to their tasks. -1 when read_lists would fail. */
static int fast_deps_finish(fast_deps *fd)
{
    importer *im = fd->im;
    if (!fd->tensors && !(fd->tensors = calloc(1, sizeof(*fd->tensors))))
        return -1;
    im->tensors = fd->tensors;
    im->ntensors = fd->ntensors;
    fd->tensors = NULL;
    if (hash_tensors(im) != 0)
        return -1;
    if (!fd->args && !(fd->args = calloc(1, sizeof(*fd->args))))
        return -1;
    for (size_t i = 0; i < fd->nargs; i++) {
        imp_arg *a = &fd->args[i];
        if (a->type == A_OUT)
            continue;
        long ti = find_tensor(im, fd->tids[i]);
        if (ti < 0)
            return -1;
        a->tensor = (int)ti;
        if (a->dtype < 0)
            a->dtype = im->tensors[ti].dtype;
    }
    im->arg_pool = fd->args;
    fd->args = NULL;
    for (size_t i = 0; i < im->ntasks; i++) {
        im->tasks[i].args = im->arg_pool + im->tasks[i].pos;
        im->tasks[i].pos = 0;
    }
    im->nknown = im->ntasks;
    /* count_edge_preds */
    for (size_t i = 0; i < fd->nedges; i++) {
        const raw_edge *e = &fd->edges[i];
        int r = imp_ring_of(e->pred);
        uint64_t local = e->pred & 0xFFFFFFFFu;
        if (r < RINGS && (e->source == 1 || (e->source == 0 && !im->have_stats)) &&
            local + 1 > im->ring_count[r] && local < (64u << 20))
            im->ring_count[r] = local + 1;
    }
    if (index_tasks(im) != 0)
        return -1;
    /* read_edges */
    size_t *at = calloc(im->nknown + 1, sizeof(*at));
    if (!at)
        return -1;
    for (size_t i = 0; i < fd->nedges; i++) {
        raw_edge *e = &fd->edges[i];
        e->s = imp_find_task(im, e->succ);
        if (e->s < 0 || (size_t)e->s >= im->nknown) {
            free(at);
            return -1;
        }
        e->p = imp_find_task(im, e->pred);
        at[e->s]++;
        if (e->source == 0)
            continue;
        if (e->p < 0) {
            free(at);
            return -1;
        }
        long ti = e->tid_ok ? find_tensor(im, e->tid) : -1;
        e->ti = ti < 0 ? -1 : (int)ti;
        if (e->source != 1 || ti < 0)
            continue;
        imp_tensor *tn = &im->tensors[ti];
        bool seen = false;
        for (size_t c = 0; c < tn->ncreators; c++)
            seen |= tn->creators[c] == (size_t)e->p;
        if (seen)
            continue;
        imp_task *pt = &im->tasks[e->p];
        if (imp_grow(im, (void **)&tn->creators, &tn->creatorcap, tn->ncreators, sizeof(size_t), 4) != 0 ||
            imp_grow(im, (void **)&pt->anchored, &pt->anchorcap, pt->nanchored, sizeof(int), 4) != 0) {
            free(at);
            return -1;
        }
        tn->creators[tn->ncreators++] = (size_t)e->p;
        pt->anchored[pt->nanchored++] = (int)ti;
    }
    if (!(im->edge_pool = malloc((fd->nedges ? fd->nedges : 1) * sizeof(*im->edge_pool)))) {
        free(at);
        return -1;
    }
    size_t off = 0;
    for (size_t t = 0; t < im->nknown; t++) { /* each task's edges in file order, side by side */
        size_t n = at[t];
        im->tasks[t].edges = im->edge_pool + off;
        im->tasks[t].nedges = 0;
        im->tasks[t].edgecap = n;
        off += n;
    }
    for (size_t i = 0; i < fd->nedges; i++) {
        const raw_edge *e = &fd->edges[i];
        imp_task *t = &im->tasks[e->s];
        t->edges[t->nedges++] = (imp_edge){.pred = e->p < 0 ? SIZE_MAX : (size_t)e->p,
                                           .pred_id = e->pred,
                                           .arg = e->arg,
                                           .source = e->source,
                                           .tensor = e->source != 0 ? e->ti : -1};
    }
    free(at);
    return 0;
}

/* Takes back what a pass that gave up left in the importer: it is as before import_read_deps. */
static void fast_deps_undo(importer *im, const uint64_t ring_count[RINGS])
{
    for (size_t i = 0; i < im->ntasks; i++) { /* anchors and creators stay in their blocks (imp_grow) */
        if (!im->arg_pool)
            free(im->tasks[i].args);
        if (!im->edge_pool)
            free(im->tasks[i].edges);
    }
    for (int r = 0; r < RINGS; r++) {
        free(im->by_local[r]);
        im->by_local[r] = NULL;
    }
    free(im->tasks);
    free(im->tensors);
    free(im->tid_hash);
    free(im->arg_pool);
    free(im->edge_pool);
    im->tasks = NULL;
    im->tensors = NULL;
    im->tid_hash = NULL;
    im->arg_pool = NULL;
    im->edge_pool = NULL;
    im->ntasks = im->taskcap = im->nknown = im->ntensors = 0;
    im->tid_mask = 0;
    memcpy(im->ring_count, ring_count, sizeof(im->ring_count));
}

/* import_read_deps in one pass over the file, checking it as it reads (import_lex.h): 1 when read, 0 when
 * the file is not one this reads, or read_lists would refuse it (the importer then is as it was, and the
 * reference reading names the fault). */
static int fast_read_deps(importer *im)
{
    char path[PATH_MAX];
    snprintf(path, sizeof(path), "%s/deps.json", im->dir);
    ilex lx;
    if (ilex_open(&lx, path) != 0)
        return 0;
    fast_deps fd = {.im = im};
    ilex_keys_init(&fd.task_keys, TASK_KEYS, (int)(sizeof(TASK_KEYS) / sizeof(TASK_KEYS[0])));
    ilex_keys_init(&fd.arg_keys, ARG_KEYS, (int)(sizeof(ARG_KEYS) / sizeof(ARG_KEYS[0])));
    ilex_keys_init(&fd.tensor_keys, TENSOR_KEYS, (int)(sizeof(TENSOR_KEYS) / sizeof(TENSOR_KEYS[0])));
    ilex_keys_init(&fd.edge_keys, EDGE_KEYS, (int)(sizeof(EDGE_KEYS) / sizeof(EDGE_KEYS[0])));
    uint64_t ring_count[RINGS];
    memcpy(ring_count, im->ring_count, sizeof(ring_count));
    bool ok = ilex_eat(&lx, '{'), first = true, have_tasks = false, have_edges = false;
    jstream_keys seen = {.n = 0};
    char key[64];
    int r = -1;
    while (ok && (r = ilex_member(&lx, &first, key, sizeof(key))) == 1 &&
           (ok = jstream_new_key(&seen, key))) {
        if (strcmp(key, "tasks") == 0)
            ok = have_tasks = fast_list(&lx, fast_task, &fd);
        else if (strcmp(key, "tensors") == 0)
            ok = fast_list(&lx, fast_tensor, &fd);
        else if (strcmp(key, "edges") == 0)
            ok = have_edges = fast_list(&lx, fast_edge, &fd);
        else
            ok = ilex_skip_stream(&lx);
    }
    ok = ok && r == 0 && ilex_peek(&lx) == 0 && !lx.bad && have_tasks && have_edges;
    if (lx.peak > im->peak_window)
        im->peak_window = lx.peak;
    ilex_close(&lx);
    if (ok && fast_deps_finish(&fd) != 0)
        ok = false;
    if (!ok)
        fast_deps_undo(im, ring_count);
    free(fd.args);
    free(fd.tids);
    free(fd.tensors);
    free(fd.edges);
    return ok;
}

int import_read_deps(importer *im)
{
    if (fast_read_deps(im))
        return 0;
    int st = read_deps_stream(im);
    if (st != 0)
        return st > 0 ? 0 : -1;
    size_t len;
    char *text = imp_slurp(im, "deps.json", READALL_RECORDS, &len);
    if (!text && errno == EFBIG)
        return -1;
    if (!text)
        return imp_fail(im, "deps.json", "cannot read: %s (capture with --enable-dep-gen)", readall_why(errno));
    if (len > im->peak_window) /* held whole */
        im->peak_window = len;
    cJSON *root = imp_parse_json(im, "deps.json", text, len, 0);
    free(text);
    if (!root)
        return -1;
    int rc = -1;
    const cJSON *tensors = cJSON_GetObjectItemCaseSensitive(root, "tensors"),
                *tasks = cJSON_GetObjectItemCaseSensitive(root, "tasks"),
                *edges = cJSON_GetObjectItemCaseSensitive(root, "edges");
    if (!cJSON_IsArray(tasks) || !cJSON_IsArray(edges)) {
        imp_fail(im, "deps.json", "needs the arrays \"tasks\" and \"edges\"");
        goto out;
    }
    if (tensors && !cJSON_IsArray(tensors)) { /* its members would be read into a list sized for none */
        imp_fail(im, "deps.json", "\"tensors\" must be an array");
        goto out;
    }
    int nt = tensors ? cJSON_GetArraySize(tensors) : 0;
    imp_list lt, lk, e1, e2;
    list_tree(&lt, tensors);
    list_tree(&lk, tasks);
    list_tree(&e1, edges);
    list_tree(&e2, edges);
    if (read_lists(im, &lt, &lk, &e1, &e2, nt) != 0)
        goto out;
    rc = 0;
out:
    cJSON_Delete(root);
    return rc;
}

/* A drain_publish record: thread and span in swimlane ticks. */
typedef struct imp_span {
    uint64_t thread, start, end;
} imp_span;

/* One execution by its dispatch token: core and reg. */
typedef struct imp_token {
    uint64_t core, reg;
} imp_token;

static int cmp_span(const void *a, const void *b)
{
    const imp_span *x = a, *y = b;
    return x->thread != y->thread ? (x->thread < y->thread ? -1 : 1)
           : x->start < y->start  ? -1
                                  : x->start > y->start;
}

static int cmp_token(const void *a, const void *b)
{
    const imp_token *x = a, *y = b;
    return x->core != y->core ? (x->core < y->core ? -1 : 1) : x->reg < y->reg ? -1 : x->reg > y->reg;
}

/* Does a drain_publish span of `thread` hold time ts? spans sorted by thread, then start. */
static bool in_drain(const imp_span *sp, size_t n, uint64_t thread, uint64_t ts)
{
    size_t lo = 0, hi = n; /* the first span past (thread, ts) */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (sp[mid].thread < thread || (sp[mid].thread == thread && sp[mid].start <= ts))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo > 0 && sp[lo - 1].thread == thread && sp[lo - 1].end >= ts;
}

/* Only require_sync_start tasks go through the sync-start drain (enter_drain_mode
 * in scheduler_dispatch.cpp dispatch_shape and try_early_dispatch), and a
 * drain's blocks carry the dispatch time of its drain_publish record: a task
 * with an execution dispatched inside one is sync_start. deps.json has no such
 * flag, and a cohort placed by one thread alone leaves no drain to tell. */
/* The parts of the swimlane import reads, from a tree or a stream. */
typedef struct imp_swim {
    const cJSON *meta;     /* metadata */
    bool phases_array;     /* aicpu_scheduler_phases is an array */
    bool dispatches_array; /* aicpu_tasks is an array */
    bool execs_array;      /* aicore_tasks is an array */
    size_t nexecs;         /* its rows */
    imp_list phases;       /* aicpu_scheduler_phases: lanes of records */
    imp_list dispatches;   /* aicpu_tasks rows */
    imp_list execs[2];     /* aicore_tasks rows, for the two walks */
} imp_swim;

/* Does t[0..n) hold s? */
static bool holds(const char *t, size_t n, const char *s)
{
    size_t k = strlen(s);
    for (const char *p = t, *end = t + n; (size_t)(end - p) >= k && (p = memchr(p, s[0], (size_t)(end - p) - k + 1));
         p++)
        if (memcmp(p, s, k) == 0)
            return true;
    return false;
}

/* The next phase record that may be a drain_publish: one whose text names it (or holds an escape, which
 * may spell it otherwise) as a tree, the others passed over by their text, as most phases are. */
static const cJSON *next_drain(importer *im, imp_list *l, int *rc)
{
    if (!l->js)
        return list_next(im, l, rc);
    const char *t;
    size_t n;
    while (list_text(im, l, &t, &n, rc) == 1)
        if (memchr(t, '\\', n) || holds(t, n, "drain_publish"))
            return list_parse(im, l, t, n, rc);
    return NULL;
}

/* The first k elements of a swimlane row's text (an array) when each is a plain whole number of at most 15
 * digits, which get_u64 reads exactly from cJSON's double; false when the row's tree must say. */
static bool row_u64s(const char *t, size_t n, uint64_t *v, int k)
{
    jspan row = {t, n}, e;
    const char *at = t;
    int i = 0;
    while (i < k && jspan_next(row, &at, &e)) {
        if (e.n == 0 || e.n > 15)
            return false;
        uint64_t x = 0;
        for (size_t j = 0; j < e.n; j++) {
            if (e.p[j] < '0' || e.p[j] > '9')
                return false;
            x = x * 10 + (uint64_t)(e.p[j] - '0');
        }
        v[i++] = x;
    }
    return i == k;
}

static int mark_drained(importer *im, imp_swim *sw)
{
    const cJSON *owner = cJSON_GetObjectItemCaseSensitive(sw->meta, "core_to_thread");
    if (!sw->phases_array || !sw->dispatches_array || !cJSON_IsArray(owner))
        return 0;
    imp_span *sp = NULL;
    imp_token *tok = NULL;
    size_t nsp = 0, ntok = 0, cap = 0;
    int rc = 0;
    uint64_t thread = 0;
    const cJSON *p, *d, *e;
    imp_list lane;
    memset(&lane, 0, sizeof(lane));
    while (list_enter(im, &sw->phases, &lane, &rc)) {
        while ((p = next_drain(im, &lane, &rc)) != NULL) {
            const cJSON *kind = cJSON_GetObjectItemCaseSensitive(p, "kind");
            imp_span s = {.thread = thread};
            if (!cJSON_IsString(kind) || strcmp(kind->valuestring, "drain_publish") != 0 ||
                !get_u64(cJSON_GetObjectItemCaseSensitive(p, "start_cycles"), &s.start) ||
                !get_u64(cJSON_GetObjectItemCaseSensitive(p, "end_cycles"), &s.end))
                continue;
            if (nsp == cap) {
                cap = cap ? 2 * cap : 16;
                imp_span *ns = realloc(sp, cap * sizeof(*ns));
                if (!ns)
                    goto oom;
                sp = ns;
            }
            sp[nsp++] = s;
        }
        list_done(&lane);
        if (rc != 0)
            goto out;
        thread++;
    }
    if (rc != 0 || !nsp)
        goto out;
    qsort(sp, nsp, sizeof(*sp), cmp_span);
    cap = 0;
    while ((d = list_next(im, &sw->dispatches, &rc)) != NULL) {
        imp_token t;
        uint64_t ts, th;
        if (!get_u64(cJSON_GetArrayItem(d, 0), &t.core) || !get_u64(cJSON_GetArrayItem(d, 1), &t.reg) ||
            !get_u64(cJSON_GetArrayItem(d, 2), &ts) || t.core >= (uint64_t)cJSON_GetArraySize(owner) ||
            !get_u64(cJSON_GetArrayItem(owner, (int)t.core), &th) || !in_drain(sp, nsp, th, ts))
            continue;
        if (ntok == cap) {
            cap = cap ? 2 * cap : 64;
            imp_token *nt = realloc(tok, cap * sizeof(*nt));
            if (!nt)
                goto oom;
            tok = nt;
        }
        tok[ntok++] = t;
    }
    if (rc != 0 || !ntok)
        goto out;
    qsort(tok, ntok, sizeof(*tok), cmp_token);
    while ((e = list_next(im, &sw->execs[0], &rc)) != NULL) {
        imp_token t;
        uint64_t id;
        long ti;
        if (get_u64(cJSON_GetArrayItem(e, 0), &t.core) && get_u64(cJSON_GetArrayItem(e, 1), &id) &&
            get_u64(cJSON_GetArrayItem(e, 2), &t.reg) && bsearch(&t, tok, ntok, sizeof(*tok), cmp_token) &&
            (ti = imp_find_task(im, id)) >= 0)
            im->tasks[ti].sync = true;
    }
    goto out;
oom:
    rc = imp_oom(im);
out:
    list_done(&lane);
    list_done(&sw->dispatches);
    list_done(&sw->execs[0]);
    free(sp);
    free(tok);
    return rc;
}

/* One AICore execution: its task (or func), kernel and time. */
typedef struct exec_rec {
    uint64_t key;
    int func;
    bool mix;
    double ns;
} exec_rec;

static int cmp_rec(const void *a, const void *b)
{
    const exec_rec *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->ns < y->ns ? -1 : x->ns > y->ns;
}

#define REC_AFTER(a, b) ((a)->key != (b)->key ? (a)->key > (b)->key : (a)->ns > (b)->ns)
IMP_STABLE_SORT(sort_recs, exec_rec, REC_AFTER)

/* v sorted as qsort with cmp_rec sorts it: a NaN time (a clock of almost no hertz) orders nothing, and only
 * qsort's own steps then give its order. */
static void sort_execs(exec_rec *v, size_t n, bool nan)
{
    if (nan)
        qsort(v, n, sizeof(*v), cmp_rec);
    else
        sort_recs(v, n, cmp_rec);
}

/* From m executions (their times, tasks[] indexes and func ids): each task's median execution time, and each
 * func id's median per task (a MIX task's kernels: their executions' median). */
static int swim_medians(importer *im, const double *dur, const long *task, const int *func, size_t m)
{
    /* per task: the median of its executions */
    bool nan = false;
    exec_rec *rec = malloc((m ? m : 1) * sizeof(*rec));
    if (!rec)
        return imp_oom(im);
    for (size_t i = 0; i < m; i++) {
        const imp_task *tk = &im->tasks[task[i]];
        bool mix = (tk->k[0] >= 0) + (tk->k[1] >= 0) + (tk->k[2] >= 0) > 1;
        rec[i] = (exec_rec){.key = (uint64_t)task[i], .func = func[i], .mix = mix, .ns = dur[i]};
        nan |= isnan(dur[i]);
    }
    sort_execs(rec, m, nan);
    exec_rec *per = malloc((m ? m : 1) * sizeof(*per)); /* (func, median) of single-kernel tasks */
    if (!per) {
        free(rec);
        return imp_oom(im);
    }
    size_t nper = 0;
    for (size_t i = 0; i < m;) {
        size_t j = i;
        while (j < m && rec[j].key == rec[i].key)
            j++;
        imp_task *tk = &im->tasks[rec[i].key];
        tk->ns = rec[i + (j - i) / 2].ns;
        if (!rec[i].mix)
            per[nper++] = (exec_rec){.key = (uint64_t)rec[i].func, .ns = tk->ns};
        i = j;
    }
    /* per func: a MIX task runs its kernels' costs, so their executions' median;
     * a kernel only single-kernel tasks run (each with its own cost) takes the
     * median of those tasks' costs, so that re-importing a rerun changes nothing */
    for (size_t i = 0; i < m; i++)
        rec[i].key = rec[i].mix ? (uint64_t)rec[i].func : UINT64_MAX;
    sort_execs(rec, m, nan);
    sort_execs(per, nper, nan);
    for (int pass = 0; pass < 2; pass++) {
        const exec_rec *v = pass ? per : rec;
        size_t n = pass ? nper : m;
        for (size_t i = 0; i < n && v[i].key != UINT64_MAX;) {
            size_t j = i;
            while (j < n && v[j].key == v[i].key)
                j++;
            if (im->func_ns[v[i].key] < 0)
                im->func_ns[v[i].key] = v[i + (j - i) / 2].ns;
            i = j;
        }
    }
    free(per);
    free(rec);
    return 0;
}

/* Median execution times from the swimlane's parts, per task and per func id; tasks placed by a sync-start
 * drain are marked sync_start. */
static int swim_times(importer *im, imp_swim *sw)
{
    const cJSON *meta = sw->meta;
    const cJSON *ncores = cJSON_GetObjectItemCaseSensitive(meta, "num_cores");
    im->swim_cores = cJSON_IsNumber(ncores) && ncores->valuedouble > 0 && ncores->valuedouble < 1e6
                         ? (int)ncores->valuedouble
                         : -1;
    const cJSON *hz = cJSON_GetObjectItemCaseSensitive(meta, "clock_freq_hz"),
                *types = cJSON_GetObjectItemCaseSensitive(meta, "core_types");
    if (!cJSON_IsNumber(hz) || hz->valuedouble <= 0 || !sw->execs_array)
        return imp_fail(im, "chip_swimlane_records.json", "needs metadata.clock_freq_hz and aicore_tasks");
    if (mark_drained(im, sw) != 0)
        return -1;
    double ns_per_tick = 1e9 / hz->valuedouble;
    size_t n = sw->nexecs;
    double *dur = malloc((n ? n : 1) * sizeof(*dur));
    long *task = malloc((n ? n : 1) * sizeof(*task));
    int *func = malloc((n ? n : 1) * sizeof(*func));
    if (!dur || !task || !func) {
        free(dur), free(task), free(func);
        return imp_oom(im);
    }
    size_t m = 0;
    int rc = 0;
    /* which cores are AIV, looked up per row */
    int ntypes = cJSON_GetArraySize(types);
    bool *is_aiv = calloc(ntypes > 0 ? (size_t)ntypes : 1, sizeof(*is_aiv));
    if (!is_aiv) {
        free(dur), free(task), free(func);
        return imp_oom(im);
    }
    const cJSON *ct;
    int ci = 0;
    cJSON_ArrayForEach(ct, types) is_aiv[ci++] = cJSON_IsString(ct) && strcmp(ct->valuestring, "aiv") == 0;
    for (;;) {
        /* a row of plain numbers from its text, any other from its tree */
        uint64_t v[5], core, id, start, end;
        const char *rt;
        size_t rn;
        const cJSON *e = NULL;
        bool plain = false;
        if (sw->execs[1].js) {
            if (list_text(im, &sw->execs[1], &rt, &rn, &rc) != 1 || m >= n)
                break;
            plain = row_u64s(rt, rn, v, 5);
            if (!plain && !(e = list_parse(im, &sw->execs[1], rt, rn, &rc)))
                break;
        } else if (!(e = list_next(im, &sw->execs[1], &rc)) || m >= n) {
            break;
        }
        if (plain) {
            core = v[0], id = v[1], start = v[3], end = v[4];
        } else if (!get_u64(cJSON_GetArrayItem(e, 0), &core) || !get_u64(cJSON_GetArrayItem(e, 1), &id) ||
                   !get_u64(cJSON_GetArrayItem(e, 3), &start) || !get_u64(cJSON_GetArrayItem(e, 4), &end)) {
            continue;
        }
        if (end < start)
            continue;
        long t = imp_find_task(im, id);
        if (t < 0 || (size_t)t >= im->nknown)
            continue;
        bool aiv = core < (uint64_t)ntypes && is_aiv[core];
        const imp_task *tk = &im->tasks[t];
        dur[m] = (double)(end - start) * ns_per_tick;
        task[m] = t;
        func[m] = aiv ? (tk->k[1] >= 0 ? tk->k[1] : tk->k[2]) : tk->k[0];
        m++;
    }
    list_done(&sw->execs[1]);
    free(is_aiv);
    if (rc != 0) {
        free(dur), free(task), free(func);
        return rc;
    }
    rc = swim_medians(im, dur, task, func, m);
    free(dur), free(task), free(func);
    return rc;
}

/* import_read_swimlane a value at a time: as read_deps_stream. */
static int read_swimlane_stream(importer *im, const char *path)
{
    static const char *const KEYS[] = {"metadata", "aicpu_scheduler_phases", "aicpu_tasks", "aicore_tasks"};
    imp_scan sc = {.keys = KEYS, .nkeys = 4, .small = {true}, .nested = {false, true}};
    jstream js;
    int rc = 0;
    if (scan_file(&js, path, &sc, im->checked)) {
        jstream_trust(&js);
        imp_swim sw = {.meta = sc.tree[0],
                       .phases_array = sc.array[1],
                       .dispatches_array = sc.array[2],
                       .execs_array = sc.array[3],
                       .nexecs = (size_t)sc.n[3]};
        const char *f = "chip_swimlane_records.json";
        list_file(&sw.phases, &js, f, sc.off[1]);
        list_file(&sw.dispatches, &js, f, sc.off[2]);
        list_file(&sw.execs[0], &js, f, sc.off[3]);
        list_file(&sw.execs[1], &js, f, sc.off[3]);
        rc = swim_times(im, &sw) == 0 ? 1 : -1;
    }
    if (js.peak_cap > im->peak_window)
        im->peak_window = js.peak_cap;
    jstream_close(&js);
    scan_free(&sc);
    return rc;
}

/* ---- the swimlane in one pass (import_lex.h) ---- */

/* A row of aicore_tasks or aicpu_tasks: its first five elements as get_u64 reads them. */
typedef struct swim_row {
    uint64_t v[5];
    unsigned ok; /* bit i: v[i] was read */
} swim_row;

typedef struct row_list {
    swim_row *v;
    size_t n, cap;
} row_list;

/* What one pass over the swimlane holds until the end of the file. */
typedef struct fast_swim {
    ilex_keys phase_keys, submit_keys;
    cJSON *meta;                                      /* metadata, as a tree (it is small) */
    bool phases_array, dispatches_array, execs_array; /* as imp_swim */
    row_list execs, dispatches;
    imp_span *spans; /* drain_publish records, in file order */
    size_t nspans, spancap;
    uint64_t thread; /* the lane being read */
} fast_swim;

static const char *const PHASE_KEYS[] = {"kind",      "start_cycles",    "end_cycles",
                                         "loop_iter", "tasks_processed", "pop_hit",
                                         "pop_miss",  "shared_at_start", "shared_at_end"};
static const char *const SUBMIT_KEYS[] = {"submit_idx", "task_id", "start_cycles", "end_cycles"};

/* A row as its tree gives it (cJSON_GetArrayItem also reads an object's members). */
static void row_from_tree(const cJSON *e, swim_row *row)
{
    row->ok = 0;
    for (int i = 0; i < 5; i++)
        if (get_u64(cJSON_GetArrayItem(e, i), &row->v[i]))
            row->ok |= 1u << i;
}

/* One row of aicore_tasks or aicpu_tasks (ctx: its row_list): a plain array from its text, any other from
 * its tree. */
static int fast_row(void *ctx, const ilex *lx, const char *p, const char **after)
{
    row_list *rl = ctx;
    swim_row row = {.ok = 0};
    int r = ILEX_BAD;
    if (*p == '[') {
        const char *q = ilex_ws(p + 1);
        r = ILEX_OK;
        if (*q == ']')
            *after = q + 1;
        else
            for (int i = 0;; i++) {
                int64_t x;
                if (i < 5 && ilex_uint(q, &q, &x)) { /* the usual element: a plain count or id */
                    row.v[i] = (uint64_t)x;
                    row.ok |= 1u << i;
                } else if (i < 5) {
                    bool ok;
                    r = val_u64(lx, q, &q, &ok, &row.v[i]);
                    row.ok |= (unsigned)(r == ILEX_OK && ok) << i;
                } else {
                    r = ilex_skip_quick(lx, q, &q);
                }
                if (r != ILEX_OK)
                    break;
                q = ilex_ws(q);
                if (*q == ',') {
                    q = ilex_ws(q + 1);
                    continue;
                }
                if (*q == ']')
                    *after = q + 1;
                else
                    r = ilex_stop(lx, q);
                break;
            }
    }
    if (r == ILEX_MORE)
        return r;
    if (r == ILEX_BAD) {
        if ((r = ilex_skip(lx, p, after)) != ILEX_OK)
            return r;
        cJSON *e = jsonl_parse(p, (size_t)(*after - p), NULL);
        if (!e)
            return ILEX_BAD;
        row_from_tree(e, &row);
        cJSON_Delete(e);
    }
    if (vec_grow((void **)&rl->v, &rl->cap, rl->n, sizeof(*rl->v)) != 0)
        return ILEX_BAD;
    rl->v[rl->n++] = row;
    return ILEX_OK;
}

/* One record of a scheduler lane: a drain_publish one (kind says so) is read from its tree as mark_drained
 * reads it, into a span of the lane; the others are only checked. */
static int fast_phase(void *ctx, const ilex *lx, const char *p, const char **after)
{
    fast_swim *fs = ctx;
    if (*p != '{')
        return ilex_skip(lx, p, after); /* it has no kind */
    const char *at = p;
    bool drain = false;
    int r = ILEX_OK, key;
    ilex_seen seen;
    ilex_seen_init(&seen);
    p = ilex_ws(p + 1);
    if (*p == '}')
        *after = p + 1;
    else
        for (;;) {
            if (!ilex_member_key(lx, &fs->phase_keys, &seen, p, &p, &key, &r))
                return r;
            if (key == 0) {
                const char *s;
                size_t n;
                r = val_str(lx, p, &p, &s, &n);
                drain = same(s, n, "drain_publish");
            } else {
                r = ilex_skip_quick(lx, p, &p);
            }
            if (r != ILEX_OK)
                return r;
            int m = ilex_member_next(lx, &p, after, &r);
            if (m < 0)
                return r;
            if (m == 0)
                break;
        }
    if (!drain)
        return ILEX_OK;
    cJSON *x = jsonl_parse(at, (size_t)(*after - at), NULL);
    if (!x)
        return ILEX_BAD;
    imp_span s = {.thread = fs->thread};
    bool ok = get_u64(cJSON_GetObjectItemCaseSensitive(x, "start_cycles"), &s.start) &&
              get_u64(cJSON_GetObjectItemCaseSensitive(x, "end_cycles"), &s.end);
    cJSON_Delete(x);
    if (ok && vec_grow((void **)&fs->spans, &fs->spancap, fs->nspans, sizeof(*fs->spans)) != 0)
        return ILEX_BAD;
    if (ok)
        fs->spans[fs->nspans++] = s;
    return ILEX_OK;
}

/* A record only checked: an object's keys told apart by the table ctx (its kind's keys, learnt as they come)
 * rather than each hashed, its values checked. */
static int fast_pass(void *ctx, const ilex *lx, const char *p, const char **after)
{
    ilex_keys *ks = ctx;
    if (*p != '{')
        return ilex_skip(lx, p, after);
    int r = ILEX_OK, key;
    ilex_seen seen;
    ilex_seen_init(&seen);
    p = ilex_ws(p + 1);
    if (*p == '}') {
        *after = p + 1;
        return ILEX_OK;
    }
    for (;;) {
        if (!ilex_member_key(lx, ks, &seen, p, &p, &key, &r))
            return r;
        if ((r = ilex_skip_quick(lx, p, &p)) != ILEX_OK)
            return r;
        int m = ilex_member_next(lx, &p, after, &r);
        if (m <= 0)
            return m < 0 ? r : ILEX_OK;
    }
}

/* Lanes of records at the cursor (an array of arrays; else false, and the reference reads the file), each
 * record only checked. */
static bool fast_pass_lanes(ilex *lx, ilex_keys *ks)
{
    if (!ilex_eat(lx, '['))
        return false;
    bool first = true;
    int r;
    while ((r = ilex_next(lx, &first)) == 1)
        if (!fast_list(lx, fast_pass, ks))
            return false;
    return r == 0;
}

/* aicpu_scheduler_phases at the cursor: lanes of records, each lane an array (else the reference reads the
 * file). */
static bool fast_lanes(ilex *lx, fast_swim *fs)
{
    if (!ilex_eat(lx, '['))
        return false;
    bool first = true;
    int r;
    while ((r = ilex_next(lx, &first)) == 1) {
        if (!fast_list(lx, fast_phase, fs))
            return false;
        fs->thread++;
    }
    return r == 0;
}

/* metadata: its tree. */
static int fast_meta(void *ctx, const ilex *lx, const char *p, const char **after)
{
    fast_swim *fs = ctx;
    int r = ilex_skip(lx, p, after);
    if (r != ILEX_OK)
        return r;
    cJSON_Delete(fs->meta);
    fs->meta = jsonl_parse(p, (size_t)(*after - p), NULL);
    return fs->meta ? ILEX_OK : ILEX_BAD;
}

/* mark_drained on what one pass read. */
static int fast_mark_drained(importer *im, fast_swim *fs)
{
    const cJSON *owner = cJSON_GetObjectItemCaseSensitive(fs->meta, "core_to_thread");
    if (!fs->phases_array || !fs->dispatches_array || !cJSON_IsArray(owner) || !fs->nspans)
        return 0;
    qsort(fs->spans, fs->nspans, sizeof(*fs->spans), cmp_span);
    int nowner = cJSON_GetArraySize(owner);
    imp_token *tok = malloc((fs->dispatches.n ? fs->dispatches.n : 1) * sizeof(*tok));
    if (!tok)
        return imp_oom(im);
    size_t ntok = 0;
    for (size_t i = 0; i < fs->dispatches.n; i++) {
        const swim_row *d = &fs->dispatches.v[i];
        uint64_t th;
        if ((d->ok & 7) == 7 && d->v[0] < (uint64_t)nowner &&
            get_u64(cJSON_GetArrayItem(owner, (int)d->v[0]), &th) &&
            in_drain(fs->spans, fs->nspans, th, d->v[2]))
            tok[ntok++] = (imp_token){.core = d->v[0], .reg = d->v[1]};
    }
    if (ntok) {
        qsort(tok, ntok, sizeof(*tok), cmp_token);
        for (size_t i = 0; i < fs->execs.n; i++) {
            const swim_row *e = &fs->execs.v[i];
            imp_token t = {.core = e->v[0], .reg = e->v[2]};
            long ti;
            if ((e->ok & 7) == 7 && bsearch(&t, tok, ntok, sizeof(*tok), cmp_token) &&
                (ti = imp_find_task(im, e->v[1])) >= 0)
                im->tasks[ti].sync = true;
        }
    }
    free(tok);
    return 0;
}

/* swim_times on what one pass read: 0, or -1 with its message. */
static int fast_swim_times(importer *im, fast_swim *fs)
{
    const cJSON *meta = fs->meta;
    const cJSON *ncores = cJSON_GetObjectItemCaseSensitive(meta, "num_cores");
    im->swim_cores = cJSON_IsNumber(ncores) && ncores->valuedouble > 0 && ncores->valuedouble < 1e6
                         ? (int)ncores->valuedouble
                         : -1;
    const cJSON *hz = cJSON_GetObjectItemCaseSensitive(meta, "clock_freq_hz"),
                *types = cJSON_GetObjectItemCaseSensitive(meta, "core_types");
    if (!cJSON_IsNumber(hz) || hz->valuedouble <= 0 || !fs->execs_array)
        return imp_fail(im, "chip_swimlane_records.json", "needs metadata.clock_freq_hz and aicore_tasks");
    if (fast_mark_drained(im, fs) != 0)
        return -1;
    double ns_per_tick = 1e9 / hz->valuedouble;
    size_t n = fs->execs.n;
    double *dur = malloc((n ? n : 1) * sizeof(*dur));
    long *task = malloc((n ? n : 1) * sizeof(*task));
    int *func = malloc((n ? n : 1) * sizeof(*func));
    int ntypes = cJSON_GetArraySize(types);
    bool *is_aiv = calloc(ntypes > 0 ? (size_t)ntypes : 1, sizeof(*is_aiv));
    if (!dur || !task || !func || !is_aiv) {
        free(dur), free(task), free(func), free(is_aiv);
        return imp_oom(im);
    }
    const cJSON *ct;
    int ci = 0;
    cJSON_ArrayForEach(ct, types) is_aiv[ci++] = cJSON_IsString(ct) && strcmp(ct->valuestring, "aiv") == 0;
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        const swim_row *e = &fs->execs.v[i];
        uint64_t core = e->v[0], id = e->v[1], start = e->v[3], end = e->v[4];
        if ((e->ok & 0x1b) != 0x1b || end < start)
            continue;
        long t = imp_find_task(im, id);
        if (t < 0 || (size_t)t >= im->nknown)
            continue;
        bool aiv = core < (uint64_t)ntypes && is_aiv[core];
        const imp_task *tk = &im->tasks[t];
        dur[m] = (double)(end - start) * ns_per_tick;
        task[m] = t;
        func[m] = aiv ? (tk->k[1] >= 0 ? tk->k[1] : tk->k[2]) : tk->k[0];
        m++;
    }
    free(is_aiv);
    int rc = swim_medians(im, dur, task, func, m);
    free(dur), free(task), free(func);
    return rc;
}

/* import_read_swimlane in one pass over the file, checking it as it reads: 1 when read, -1 on a failure
 * (with its message), 0 when the file is not one this reads (the reference reading then reads it). */
static int fast_read_swimlane(importer *im, const char *path)
{
    ilex lx;
    if (ilex_open(&lx, path) != 0)
        return 0;
    fast_swim fs;
    memset(&fs, 0, sizeof(fs));
    ilex_keys_init(&fs.phase_keys, PHASE_KEYS, (int)(sizeof(PHASE_KEYS) / sizeof(PHASE_KEYS[0])));
    ilex_keys_init(&fs.submit_keys, SUBMIT_KEYS, (int)(sizeof(SUBMIT_KEYS) / sizeof(SUBMIT_KEYS[0])));
    bool ok = ilex_eat(&lx, '{'), first = true;
    jstream_keys seen = {.n = 0};
    char key[64];
    int r = -1;
    while (ok && (r = ilex_member(&lx, &first, key, sizeof(key))) == 1 &&
           (ok = jstream_new_key(&seen, key))) {
        bool array = ilex_peek(&lx) == '[';
        if (strcmp(key, "metadata") == 0)
            ok = ilex_value(&lx, fast_meta, &fs);
        else if (array && strcmp(key, "aicpu_scheduler_phases") == 0)
            ok = fs.phases_array = fast_lanes(&lx, &fs);
        else if (array && strcmp(key, "aicpu_tasks") == 0)
            ok = fs.dispatches_array = fast_list(&lx, fast_row, &fs.dispatches);
        else if (array && strcmp(key, "aicore_tasks") == 0)
            ok = fs.execs_array = fast_list(&lx, fast_row, &fs.execs);
        else if (array && strcmp(key, "aicpu_orchestrator_phases") == 0)
            ok = fast_pass_lanes(&lx, &fs.submit_keys);
        else
            ok = ilex_skip_stream(&lx);
    }
    ok = ok && r == 0 && ilex_peek(&lx) == 0 && !lx.bad;
    if (lx.peak > im->peak_window)
        im->peak_window = lx.peak;
    ilex_close(&lx);
    int rc = ok ? (fast_swim_times(im, &fs) == 0 ? 1 : -1) : 0;
    cJSON_Delete(fs.meta);
    free(fs.execs.v);
    free(fs.dispatches.v);
    free(fs.spans);
    return rc;
}

/* Median execution times from the swimlane, per task and per func id; tasks
 * placed by a sync-start drain are marked sync_start. */
int import_read_swimlane(importer *im)
{
    char path[PATH_MAX];
    snprintf(path, sizeof(path), "%s/chip_swimlane_records.json", im->dir);
    if (access(path, F_OK) != 0)
        return 0; /* optional */
    int st = fast_read_swimlane(im, path);
    if (st == 0)
        st = read_swimlane_stream(im, path);
    if (st != 0)
        return st > 0 ? 0 : -1;
    size_t len;
    char *text = imp_slurp(im, "chip_swimlane_records.json", READALL_RECORDS, &len);
    if (!text)
        return errno == EFBIG ? -1 : 0; /* optional, but not when there and too big */
    if (len > im->peak_window) /* held whole */
        im->peak_window = len;
    cJSON *root = imp_parse_json(im, "chip_swimlane_records.json", text, len, 0);
    free(text);
    if (!root)
        return -1;
    const cJSON *execs = cJSON_GetObjectItemCaseSensitive(root, "aicore_tasks");
    imp_swim sw = {.meta = cJSON_GetObjectItemCaseSensitive(root, "metadata"),
                   .phases_array =
                       cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(root, "aicpu_scheduler_phases")),
                   .dispatches_array = cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(root, "aicpu_tasks")),
                   .execs_array = cJSON_IsArray(execs),
                   .nexecs = (size_t)cJSON_GetArraySize(execs)};
    list_tree(&sw.phases, cJSON_GetObjectItemCaseSensitive(root, "aicpu_scheduler_phases"));
    list_tree(&sw.dispatches, cJSON_GetObjectItemCaseSensitive(root, "aicpu_tasks"));
    list_tree(&sw.execs[0], execs);
    list_tree(&sw.execs[1], execs);
    int rc = swim_times(im, &sw);
    cJSON_Delete(root);
    return rc;
}

void import_read_name_map(importer *im)
{
    DIR *d = opendir(im->dir);
    if (!d)
        return;
    struct dirent *de;
    char best[NAME_MAX + 1] = "";
    while ((de = readdir(d)))
        if (strncmp(de->d_name, "name_map", 8) == 0 && strstr(de->d_name, ".json") &&
            strcmp(de->d_name, best) > 0)
            snprintf(best, sizeof(best), "%s", de->d_name);
    closedir(d);
    if (!best[0])
        return;
    if (strncmp(best, "name_map_", 9) == 0) {
        snprintf(im->graph_name, sizeof(im->graph_name), "%.120s", best + 9);
        char *dot = strstr(im->graph_name, ".json");
        if (dot)
            *dot = '\0';
        for (char *p = im->graph_name; *p; p++) /* a graph name names files */
            if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
                  *p == '_' || *p == '-' || *p == '.'))
                *p = '_';
    }
    size_t len;
    char *text = imp_slurp(im, best, READALL_TABLE, &len);
    if (!text && errno == EFBIG) { /* optional: said, and the names stay unknown */
        imp_note(im, "%s; imported without it", im->err);
        im->err[0] = '\0';
    }
    jsonl_error je; /* optional: names stay unknown when it cannot be read */
    cJSON *root = text ? jsonl_parse(text, len, &je) : NULL;
    free(text);
    const cJSON *map = cJSON_GetObjectItemCaseSensitive(root, "callable_id_to_name"), *e;
    const cJSON *orch = cJSON_GetObjectItemCaseSensitive(root, "orchestrator_name");
    if (cJSON_IsString(orch))
        snprintf(im->orchestrator, sizeof(im->orchestrator), "%s", orch->valuestring);
    cJSON_ArrayForEach(e, map)
    {
        long id = strtol(e->string, NULL, 10);
        if (id >= 0 && id < GRAPH_MAX_FUNC_ID && cJSON_IsString(e))
            snprintf(im->names[id], sizeof(im->names[id]), "%s", e->valuestring);
    }
    cJSON_Delete(root);
    /* a graph's kernel names are unique: a name the map gives two func ids is kept by the lower, and the
     * others are called NAME_ID, said once each */
    for (int id = 0; id < GRAPH_MAX_FUNC_ID; id++) {
        if (!im->names[id][0])
            continue;
        for (int first = 0; first < id; first++)
            if (strcmp(im->names[first], im->names[id]) == 0) {
                char renamed[sizeof(im->names[id])];
                snprintf(renamed, sizeof(renamed), "%.*s_%d", (int)sizeof(renamed) - 8, im->names[id], id);
                imp_note(im, "%s: func ids %d and %d are both named '%s': func id %d is called '%s' in the graph",
                         best, first, id, im->names[id], id, renamed);
                snprintf(im->names[id], sizeof(im->names[id]), "%s", renamed);
                break;
            }
    }
}

static bool get_ring_array(const cJSON *meta, const char *key, uint64_t out[RINGS])
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(meta, key);
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != RINGS)
        return false;
    for (int r = 0; r < RINGS; r++)
        if (!get_u64(cJSON_GetArrayItem(a, r), &out[r]))
            return false;
    return true;
}

/* ---- scope stats: a sample a line ---- */

enum { SK_SITE, SK_PHASE, SK_DEPTH, SK_RING, SK_END, SK_HEAP_END };
/* the keys past SK_HEAP_END are passed over */
static const char *const SCOPE_KEYS[] = {"site",
                                         "phase",
                                         "depth",
                                         "ring",
                                         "task_window_end",
                                         "heap_end",
                                         "task_window_start",
                                         "heap_start",
                                         "dep_pool_start",
                                         "dep_pool_end",
                                         "tensormap"};
#define SCOPE_LINE_MAX 4096 /* a longer line is read from its tree */

/* An integer of at most 15 digits at p into *v: ILEX_OK; ILEX_BAD for any other value. */
static int val_int(const ilex *lx, const char *p, const char **after, int64_t *v)
{
    bool is_int = false;
    int r = *p == '-' || (unsigned)(*p - '0') < 10u ? ilex_number(lx, p, after, &is_int, v) : ILEX_BAD;
    return r == ILEX_OK && !is_int ? ILEX_BAD : r;
}

/* A sample (a line after the first) from its text as its tree gives it: true with *s filled; false when only
 * the tree can tell, or it is refused (then the tree's reading says why). text[n] and ILEX_SLACK bytes after
 * it must be readable. */
static bool fast_scope_line(ilex_keys *ks, const char *text, size_t n, imp_scope *s)
{
    ilex lx;
    ilex_text(&lx, text, n);
    const char *p = ilex_ws(text), *ph = NULL, *site = NULL;
    size_t phn = 0, siten = 0;
    int64_t depth = -1, ring = -1, end = -1, hend = 0;
    int r = ILEX_OK, key;
    ilex_seen seen;
    ilex_seen_init(&seen);
    if (*p != '{')
        return false;
    p = ilex_ws(p + 1);
    if (*p == '}')
        return false;
    for (;;) {
        if (!ilex_member_key(&lx, ks, &seen, p, &p, &key, &r))
            return false;
        switch (key) {
        case SK_SITE:
            r = val_str(&lx, p, &p, &site, &siten);
            break;
        case SK_PHASE:
            r = val_str(&lx, p, &p, &ph, &phn);
            break;
        case SK_DEPTH:
            r = val_int(&lx, p, &p, &depth);
            break;
        case SK_RING:
            r = val_int(&lx, p, &p, &ring);
            break;
        case SK_END:
            r = val_int(&lx, p, &p, &end);
            break;
        case SK_HEAP_END:
            if (*p == 'n') { /* null: none */
                r = ilex_literal(&lx, p, &p);
            } else {
                r = val_int(&lx, p, &p, &hend);
                if (r == ILEX_OK && hend < 0)
                    r = ILEX_BAD;
            }
            break;
        default:
            r = ilex_skip_quick(&lx, p, &p);
        }
        if (r != ILEX_OK)
            return false;
        const char *after;
        int m = ilex_member_next(&lx, &p, &after, &r);
        if (m < 0)
            return false;
        if (m == 0) {
            p = after;
            break;
        }
    }
    if (ilex_ws(p) != text + n || !ph || depth < 0 || depth > (1 << 20) || ring < 0 || ring >= RINGS ||
        end < 0)
        return false;
    memset(s, 0, sizeof(*s));
    s->begin = same(ph, phn, "begin");
    s->depth = (int)depth;
    s->ring = (int)ring;
    s->head = (uint64_t)end;
    s->heap_end = (uint64_t)hend;
    if (!site) {
        site = "(unknown):0";
        siten = strlen(site);
    }
    if (siten >= sizeof(s->site))
        siten = sizeof(s->site) - 1; /* snprintf's "%s" keeps what fits */
    memcpy(s->site, site, siten);
    s->site[siten] = '\0';
    return true;
}

#define SCOPE_FILE "scope_stats/scope_stats.jsonl"

/* One line of scope_stats.jsonl, l[n] == '\0' (line counts the lines that are not empty, as strtok's tokens
 * are): 0, or -1 with the error said. pad is the fast reading's copy of it. */
static int scope_stats_line(importer *im, ilex_keys *keys, char *pad, const char *l, size_t n, long line)
{
    imp_scope fast;
    if (line > 1 && n <= SCOPE_LINE_MAX) {
        memcpy(pad, l, n);
        pad[n] = '\0';
        if (fast_scope_line(keys, pad, n, &fast)) {
            if (vec_grow((void **)&im->scopes, &im->scopecap, im->nscopes, sizeof(*im->scopes)) != 0)
                return imp_oom(im);
            fast.line = line;
            im->scopes[im->nscopes++] = fast;
            return 0;
        }
    }
    cJSON *r = imp_parse_json(im, SCOPE_FILE, l, n, line);
    if (!r)
        return -1;
    if (line == 1) {
        const cJSON *fatal = cJSON_GetObjectItemCaseSensitive(r, "fatal"),
                    *dropped = cJSON_GetObjectItemCaseSensitive(r, "dropped");
        static const char *const KEYS[3] = {"task_window_max", "heap_max", "dep_pool_max"};
        for (int k = 0; k < 3; k++)
            if (!get_ring_array(r, KEYS[k], im->cap[k]))
                memset(im->cap[k], 0, sizeof(im->cap[k]));
        /* samples of a fatal run or with some dropped are tried, and scopes
         * guessed from the rings if they do not fit */
        im->stats_suspect = cJSON_IsTrue(fatal) || (cJSON_IsNumber(dropped) && dropped->valuedouble > 0);
        cJSON_Delete(r);
        return 0;
    }
    const cJSON *ph = cJSON_GetObjectItemCaseSensitive(r, "phase"),
                *depth = cJSON_GetObjectItemCaseSensitive(r, "depth"),
                *ring = cJSON_GetObjectItemCaseSensitive(r, "ring"),
                *end = cJSON_GetObjectItemCaseSensitive(r, "task_window_end"),
                *hend = cJSON_GetObjectItemCaseSensitive(r, "heap_end"),
                *site = cJSON_GetObjectItemCaseSensitive(r, "site");
    /* ranges first: the casts below are undefined past them */
    if (!cJSON_IsString(ph) || !int_in(depth, 0, 1 << 20) || !int_in(ring, 0, RINGS - 1) ||
        !int_in(end, 0, 9007199254740992.0) || (hend && !cJSON_IsNull(hend) && !int_in(hend, 0, 1.8e19))) {
        cJSON_Delete(r);
        return imp_fail(im, SCOPE_FILE,
                        "line %ld: needs phase, depth, ring (0..3) and task_window_end (integers, as is "
                        "heap_end when given)",
                        line);
    }
    if (vec_grow((void **)&im->scopes, &im->scopecap, im->nscopes, sizeof(*im->scopes)) != 0) {
        cJSON_Delete(r);
        return imp_oom(im);
    }
    imp_scope *s = &im->scopes[im->nscopes++];
    s->begin = strcmp(ph->valuestring, "begin") == 0;
    s->depth = (int)depth->valuedouble;
    s->ring = (int)ring->valuedouble;
    s->head = (uint64_t)end->valuedouble;
    s->heap_end = cJSON_IsNumber(hend) ? (uint64_t)hend->valuedouble : 0;
    s->line = line;
    snprintf(s->site, sizeof(s->site), "%s", cJSON_IsString(site) ? site->valuestring : "(unknown):0");
    cJSON_Delete(r);
    return 0;
}

/* The lines of f (or of text, n bytes, when f is NULL) given to scope_stats_line through a window, as strtok
 * splits a file read whole: the lines that are not empty, up to the first NUL. 0, -1 with the error said, or
 * 1 when f cannot be read to its end (readall's failures but the cap's) or grows past the cap. */
static int scope_stats_lines(importer *im, FILE *f, char *text, size_t n)
{
    ilex_keys keys;
    ilex_keys_init(&keys, SCOPE_KEYS, (int)(sizeof(SCOPE_KEYS) / sizeof(SCOPE_KEYS[0])));
    char pad[SCOPE_LINE_MAX + 1 + ILEX_SLACK] = {0}; /* a line with room to read whole words past it */
    size_t cap = f ? (size_t)1 << 16 : n, len = f ? 0 : n, pos = 0;
    uint64_t total = 0;
    char *buf = f ? malloc(cap + 1) : text;
    bool eof = !f;
    long line = 0;
    int rc = buf ? 0 : 1;
    while (rc == 0) {
        char *s = buf + pos, *end = buf + len, *nl = memchr(s, '\n', (size_t)(end - s));
        if (!nl && !eof) { /* the window ends inside a line: keep it, read on */
            memmove(buf, s, (size_t)(end - s));
            len -= pos;
            pos = 0;
            if (len == cap) {
                char *nb = cap < SIZE_MAX / 4 ? realloc(buf, 2 * cap + 1) : NULL;
                if (!nb) {
                    rc = 1; /* readall's ENOMEM */
                    break;
                }
                buf = nb;
                cap *= 2;
            }
            size_t got = fread(buf + len, 1, cap - len, f);
            total += got;
            len += got;
            if (got == 0 && ferror(f))
                rc = 1; /* readall's EIO */
            else if (total > readall_cap(READALL_RECORDS))
                rc = 1; /* grown past the cap while read: readall refuses it */
            eof = got == 0;
            continue;
        }
        char *e = nl ? nl : end, *z = memchr(s, '\0', (size_t)(e - s));
        if (z) /* strtok's text ends at a NUL */
            e = z;
        if (e > s) {
            *e = '\0';
            rc = scope_stats_line(im, &keys, pad, s, (size_t)(e - s), ++line);
        }
        if (z || !nl)
            break;
        pos = (size_t)(nl + 1 - buf);
    }
    if (f)
        free(buf);
    return rc;
}

/* Read a window at a time: a whole 8 MB file cost its pages, and freeing it raised malloc's mmap threshold
 * past the deps arrays read next, which then were copied each time they doubled. */
int import_read_scope_stats(importer *im)
{
    char path[PATH_MAX];
    snprintf(path, sizeof(path), "%s/%s", im->dir, SCOPE_FILE);
    FILE *f = readall_open(path);
    if (!f)
        return 0; /* optional (scopes are then guessed from the rings) */
    struct stat st;
    bool sized = fstat(fileno(f), &st) == 0 && (unsigned long long)st.st_size <= readall_cap(READALL_RECORDS);
    bool suspect = im->stats_suspect;
    uint64_t caps[3][RINGS];
    memcpy(caps, im->cap, sizeof(caps));
    int rc = sized ? scope_stats_lines(im, f, NULL, 0) : 1;
    fclose(f);
    if (rc == 1) { /* as it was, and read whole: readall says why it cannot be (too big: an error) */
        im->nscopes = 0;
        im->stats_suspect = suspect;
        memcpy(im->cap, caps, sizeof(caps));
        size_t n;
        char *text = imp_slurp(im, SCOPE_FILE, READALL_RECORDS, &n);
        if (!text)
            return errno == EFBIG ? -1 : 0; /* not when too big */
        rc = scope_stats_lines(im, NULL, text, n);
        free(text);
    }
    if (rc != 0)
        return -1;
    im->have_stats = im->nscopes > 0;
    if (im->have_stats) /* every ring's last sample counts all it handed out */
        for (size_t i = 0; i < im->nscopes; i++)
            if (im->scopes[i].head > im->ring_count[im->scopes[i].ring])
                im->ring_count[im->scopes[i].ring] = im->scopes[i].head;
    return 0;
}
