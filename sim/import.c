/* import.c - rebuilds a graph file from a runtime capture: tasks, args and edges from deps.json, the op
 * order and scopes from scope stats, created buffers from heap offsets, kernel times and sync-start drains
 * from the swimlane. */
#include "import.h"

#include <cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../model/dtype.h"
#include "../model/graph.h"
#include "../model/jsonl.h"
#include "../model/readall.h"
#include "../model/ringres.h"
#include "../model/tmap.h"
#include "../model/vec.h"
#include "cli.h"

#define RINGS 4                               /* PTO2_MAX_RING_DEPTH */
#define MAX_SCOPE_DEPTH 64                    /* PTO2_MAX_SCOPE_DEPTH, the root scope included */
#define DEFAULT_RING_HEAP (256ULL << 20)      /* the runtime's default heap per ring */
#define GUESSED_SCOPE_TASKS 1024              /* guessed scopes close after this many tasks */
#define UNCONSUMED_SLOT_BYTES HEAP_OUTPUT_ALIGN /* least heap an output nobody read can take */
#define IMPORT_MAX_NOTES 20                   /* notes printed; the rest are counted */

enum { A_IN, A_OUT, A_INOUT, A_OUT_EXISTING, A_NO_DEP };
static const char *const DIRS[] = {"in", "out", "inout", "out_existing", "no_dep"};

typedef struct imp_arg {
    int type;   /* A_* */
    int dtype;  /* the view's dtype */
    bool manual_dep; /* inferred: the tensor takes no part in TensorMap lookups */
    int tensor; /* tensors[] index of the view, -1 for OUTPUT */
    int buf;    /* the buffer it names (bufs[] index), -1 until resolved */
    int ndim;
    int64_t shape[GRAPH_MAX_DIMS], strides[GRAPH_MAX_DIMS];
    uint64_t start;
} imp_arg;

/* An edge into a task, as deps.json lists it. */
typedef struct imp_edge {
    size_t pred; /* tasks[] index, SIZE_MAX = names no task (a raw dependency) */
    uint64_t pred_id;
    int arg;    /* consumer arg, -1 explicit */
    int source; /* 0 explicit, 1 creator, 2 tensormap */
    int tensor; /* tensors[] index (creator, tensormap), -1 otherwise */
} imp_edge;

typedef struct imp_task {
    uint64_t id;
    int ring;
    uint32_t local;
    bool alloc;  /* alloc_tensors: not in tasks[], known from ids and creator edges */
    bool manual; /* submitted inside a manual scope */
    bool early;  /* allow_early_resolve */
    bool sync;   /* require_sync_start: its blocks went out in a sync-start drain */
    int32_t k[3];
    int block_num;
    int nargs;
    imp_arg *args;
    imp_edge *edges; /* edges into this task, in file order */
    size_t nedges, edgecap;
    int nslots;      /* OUTPUT args (submits) */
    int *outs;       /* created buffers in slot order */
    size_t nouts, outcap;
    size_t pos;      /* index in the op order */
    int *anchored;   /* tensors creator edges say it made */
    size_t nanchored, anchorcap;
    double ns;       /* median execution time, < 0 = not seen */
} imp_task;

/* One deps.json tensors[] record. */
typedef struct imp_tensor {
    uint64_t tid, addr, numel;
    int version, dtype;
    size_t *creators; /* tasks named by creator edges of this tensor */
    size_t ncreators, creatorcap;
    bool heap;        /* runtime-created: lies in the heap arena */
    int ring;         /* its heap ring */
    uint64_t off;     /* its offset inside that ring */
    size_t first_use; /* op position of the first task reading it */
    size_t *readers;  /* auto-scope readers without a creator edge: (task << 6) | arg */
    size_t nreaders, readercap;
    int *made;        /* created buffers holding it, in creation order */
    size_t nmade, madecap;
} imp_tensor;

/* A buffer of the graph file: an external tensor or one created output. */
typedef struct imp_buf {
    bool created;
    int tensor;     /* tensors[] record, -1 = an output nobody read */
    size_t task;    /* creator, created only */
    uint64_t bytes; /* heap bytes, created only */
} imp_buf;

/* One scope-stats sample of a scope at depth >= 1 (the root scope is implicit). */
typedef struct imp_scope {
    bool begin;
    int depth, ring;
    uint64_t head;     /* task_window_end: tasks the ring had handed out */
    uint64_t heap_end; /* cumulative heap bytes allocated on the ring */
    long line;
    char site[GRAPH_SITE_MAX];
} imp_scope;

enum { OP_TASK, OP_BEGIN, OP_END };
typedef struct imp_op {
    int kind;
    size_t task;                 /* OP_TASK */
    bool manual;                 /* OP_BEGIN */
    const char *site;            /* OP_BEGIN: the capture's site, NULL for a guessed scope */
} imp_op;

typedef struct importer {
    const char *dir;
    char *err;
    size_t errlen;
    imp_task *tasks;
    size_t ntasks, taskcap;
    size_t nknown; /* tasks[0 .. nknown) are deps.json's, in submission order */
    imp_tensor *tensors;
    size_t ntensors;
    uint32_t *tid_hash; /* open addressing: tensors[] index + 1, 0 = empty */
    size_t tid_mask;
    imp_buf *bufs;
    size_t nbufs, bufcap;
    imp_scope *scopes;
    size_t nscopes, scopecap;
    bool have_stats;                 /* scope stats with samples */
    bool stats_suspect;              /* ... of a fatal run, or with samples dropped */
    uint64_t cap[3][RINGS];          /* the capture's task window, heap and dep pool per ring */
    uint64_t ring_count[RINGS];      /* tasks each ring handed out */
    long *by_local[RINGS];           /* ring -> local id -> tasks[] index */
    imp_op *ops;
    size_t nops, opcap;
    char names[GRAPH_MAX_FUNC_ID][GRAPH_NAME_MAX]; /* func id -> kernel name ("" = unknown) */
    char graph_name[GRAPH_NAME_MAX], orchestrator[GRAPH_NAME_MAX];
    double func_ns[GRAPH_MAX_FUNC_ID]; /* median per func id, < 0 = none */
    int func_core[GRAPH_MAX_FUNC_ID];  /* 0 AIC, 1 AIV, -1 unused */
    FILE *warn;                        /* notes on what a capture could not tell */
    size_t notes;                      /* notes so far (past IMPORT_MAX_NOTES only counted) */
} importer;

static int fail(importer *im, const char *file, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(importer *im, const char *file, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    snprintf(im->err, im->errlen, "%s/%s: %s", im->dir, file, msg);
    return -1;
}

/* Parses len bytes of text from file strictly (jsonl_parse: a duplicate key,
 * bad UTF-8 or an out-of-range number is an error, as in a graph); NULL after
 * fail() with the place (line > 0: the text is that line of a JSON Lines file). */
static cJSON *parse_json(importer *im, const char *file, const char *text, size_t len, long line)
{
    jsonl_error je;
    cJSON *root = jsonl_parse(text, len, &je);
    if (root)
        return root;
    long l, col;
    jsonl_where(text, je.at, &l, &col);
    if (line > 0)
        l = line;
    if (je.what)
        fail(im, file, "line %ld, column %ld: %s: %s", l, col, je.path[0] ? je.path : "json", je.what);
    else
        fail(im, file, "not valid JSON (line %ld, column %ld)", l, col);
    return NULL;
}

static int oom(importer *im)
{
    snprintf(im->err, im->errlen, "out of memory");
    return -1;
}

static void note(importer *im, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(importer *im, const char *fmt, ...)
{
    if (!im->warn || im->notes++ >= IMPORT_MAX_NOTES)
        return;
    va_list ap;
    va_start(ap, fmt);
    fputs("ptosim import: note: ", im->warn);
    vfprintf(im->warn, fmt, ap);
    fputc('\n', im->warn);
    va_end(ap);
}

/* Reads a whole file; NULL when it cannot (errno set: ENOENT when it does not exist). */
static char *slurp(const char *dir, const char *name, size_t *len)
{
    char path[PATH_MAX];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = readall(f, len);
    int e = errno;
    fclose(f);
    errno = e;
    return buf;
}

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
    if (cJSON_IsString(v)) {
        char *end;
        errno = 0;
        unsigned long long x = strtoull(v->valuestring, &end, 10);
        if (end == v->valuestring || *end || errno || v->valuestring[0] == '-')
            return false;
        *out = x;
        return true;
    }
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

static int ring_of(uint64_t id)
{
    return (int)(id >> 32);
}

/* The tasks[] index of a task id, or -1. */
static long find_task(const importer *im, uint64_t id)
{
    int r = ring_of(id);
    uint64_t local = id & 0xFFFFFFFFu;
    if (r < RINGS && im->by_local[r] && local < im->ring_count[r])
        return im->by_local[r][local];
    return -1;
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
        return oom(im);
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
    if (vec_grow((void **)&t->edges, &t->edgecap, t->nedges, sizeof(*t->edges)) != 0)
        return oom(im);
    t->edges[t->nedges++] = e;
    return 0;
}

static int add_buf(importer *im, imp_buf b)
{
    if (vec_grow((void **)&im->bufs, &im->bufcap, im->nbufs, sizeof(*im->bufs)) != 0)
        return -1;
    im->bufs[im->nbufs] = b;
    return (int)im->nbufs++;
}

/* ---- reading ---- */

static int read_tensor(importer *im, const cJSON *x, int i)
{
    imp_tensor *t = &im->tensors[im->ntensors];
    memset(t, 0, sizeof(*t));
    const cJSON *dt = cJSON_GetObjectItemCaseSensitive(x, "dtype");
    if (!get_u64(cJSON_GetObjectItemCaseSensitive(x, "tensor_id"), &t->tid) ||
        !get_u64(cJSON_GetObjectItemCaseSensitive(x, "buffer_addr"), &t->addr) ||
        !get_u64(cJSON_GetObjectItemCaseSensitive(x, "buffer_numel"), &t->numel) || !cJSON_IsString(dt) ||
        dtype_parse(dt->valuestring) < 0)
        return fail(im, "deps.json", "tensors[%d]: needs tensor_id, buffer_addr, buffer_numel and a known dtype",
                    i);
    t->dtype = dtype_parse(dt->valuestring);
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(x, "version");
    if (v && !int_in(v, 0, INT32_MAX)) /* checked before the cast: a double beyond int is undefined */
        return fail(im, "deps.json", "tensors[%d].version: must be an integer in [0, 2^31)", i);
    t->version = v ? (int)v->valuedouble : 0;
    t->first_use = SIZE_MAX;
    im->ntensors++;
    return 0;
}

static int read_task(importer *im, const cJSON *x, int i)
{
    imp_task *t = add_task(im);
    if (!t)
        return oom(im);
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(x, "kernel_ids"),
                *args = cJSON_GetObjectItemCaseSensitive(x, "args"),
                *sc = cJSON_GetObjectItemCaseSensitive(x, "scope"),
                *bn = cJSON_GetObjectItemCaseSensitive(x, "block_num");
    if (!get_u64(cJSON_GetObjectItemCaseSensitive(x, "task_id"), &t->id) || !cJSON_IsArray(k) ||
        cJSON_GetArraySize(k) != 3 || !cJSON_IsArray(args))
        return fail(im, "deps.json", "tasks[%d]: needs task_id, kernel_ids [aic, aiv0, aiv1] and args", i);
    if (ring_of(t->id) >= RINGS)
        return fail(im, "deps.json", "tasks[%d].task_id: %" PRIu64 " names ring %d (rings are 0..3)", i, t->id,
                    ring_of(t->id));
    t->ring = ring_of(t->id);
    t->local = (uint32_t)t->id;
    for (int s = 0; s < 3; s++) {
        const cJSON *kv = cJSON_GetArrayItem(k, s);
        if (cJSON_IsNumber(kv) && kv->valuedouble >= GRAPH_MAX_FUNC_ID)
            return fail(im, "deps.json", "tasks[%d].kernel_ids: func id %.17g is out of range", i, kv->valuedouble);
        t->k[s] = cJSON_IsNumber(kv) && kv->valuedouble >= 0 ? (int32_t)kv->valuedouble : -1;
    }
    t->manual = cJSON_IsString(sc) && strcmp(sc->valuestring, "manual") == 0;
    t->early = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(x, "early_dispatch"));
    t->block_num = cJSON_IsNumber(bn) && bn->valuedouble >= 1 && bn->valuedouble <= 32767 ? (int)bn->valuedouble
                                                                                          : 1;
    int na = cJSON_GetArraySize(args);
    if (na > GRAPH_MAX_TENSOR_ARGS)
        return fail(im, "deps.json", "tasks[%d].args: %d tensor args, at most %d", i, na, GRAPH_MAX_TENSOR_ARGS);
    t->args = calloc(na ? (size_t)na : 1, sizeof(*t->args));
    if (!t->args)
        return oom(im);
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
                nd_shape != nd_strides || !get_u64(cJSON_GetObjectItemCaseSensitive(a, "start_offset"), &ia->start))
                return fail(im, "deps.json",
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
            return fail(im, "deps.json", "ring %d: local task id %" PRIu64 " is beyond what a capture can hold", r,
                        im->ring_count[r] - 1);
        handed_out += im->ring_count[r];
    }
    /* every id not listed becomes an alloc, and allocs are a small part of any
     * orchestration (one per scope or loop body, consumed by the tasks after
     * it): ids far past the listed tasks were never handed out, and would cost
     * memory and graph lines in proportion (found by make fuzz: a 50-byte
     * capture claiming id 2^26 asked for 2.4 GB) */
    if (handed_out > 2 * (uint64_t)im->ntasks + IMPORT_ALLOC_SLACK)
        return fail(im, "deps.json",
                    "the rings handed out %" PRIu64 " task ids but deps.json lists %zu tasks: the other %" PRIu64
                    " would all be alloc_tensors calls, more than the tasks (+%d); are its task ids or scope "
                    "samples from another run?",
                    handed_out, im->ntasks, handed_out - im->ntasks, IMPORT_ALLOC_SLACK);
    for (int r = 0; r < RINGS; r++) {
        free(im->by_local[r]);
        im->by_local[r] = malloc((im->ring_count[r] ? im->ring_count[r] : 1) * sizeof(long));
        if (!im->by_local[r])
            return oom(im);
        for (uint64_t l = 0; l < im->ring_count[r]; l++)
            im->by_local[r][l] = -1;
    }
    for (size_t i = 0; i < im->ntasks; i++) {
        imp_task *t = &im->tasks[i];
        if (im->by_local[t->ring][t->local] >= 0)
            return fail(im, "deps.json", "task %" PRIu64 " is listed twice", t->id);
        im->by_local[t->ring][t->local] = (long)i;
    }
    for (int r = 0; r < RINGS; r++)
        for (uint64_t l = 0; l < im->ring_count[r]; l++) {
            if (im->by_local[r][l] >= 0)
                continue;
            imp_task *t = add_task(im);
            if (!t)
                return oom(im);
            t->id = ((uint64_t)r << 32) | l;
            t->ring = r;
            t->local = (uint32_t)l;
            t->alloc = true;
            im->by_local[r][l] = (long)(im->ntasks - 1);
        }
    return 0;
}

static int read_edges(importer *im, const cJSON *edges)
{
    const cJSON *x;
    int i = 0;
    cJSON_ArrayForEach(x, edges)
    {
        uint64_t pred, succ;
        const cJSON *src = cJSON_GetObjectItemCaseSensitive(x, "source"),
                    *arg = cJSON_GetObjectItemCaseSensitive(x, "arg");
        if (!get_u64(cJSON_GetObjectItemCaseSensitive(x, "pred"), &pred) ||
            !get_u64(cJSON_GetObjectItemCaseSensitive(x, "succ"), &succ) || !cJSON_IsString(src))
            return fail(im, "deps.json", "edges[%d]: needs pred, succ and source", i);
        long s = find_task(im, succ);
        if (s < 0 || (size_t)s >= im->nknown)
            return fail(im, "deps.json", "edges[%d]: succ %" PRIu64 " is not in tasks", i, succ);
        if (arg && !cJSON_IsNull(arg) && !int_in(arg, -1, INT32_MAX))
            return fail(im, "deps.json", "edges[%d].arg: must be an argument index", i);
        imp_edge e = {.pred_id = pred, .arg = cJSON_IsNumber(arg) ? (int)arg->valuedouble : -1, .tensor = -1};
        e.source = strcmp(src->valuestring, "explicit") == 0   ? 0
                   : strcmp(src->valuestring, "creator") == 0  ? 1
                   : strcmp(src->valuestring, "tensormap") == 0 ? 2
                                                               : -1;
        if (e.source < 0)
            return fail(im, "deps.json", "edges[%d].source: \"%s\" is not explicit, creator or tensormap", i,
                        src->valuestring);
        long p = find_task(im, pred);
        e.pred = p < 0 ? SIZE_MAX : (size_t)p;
        if (e.source != 0) {
            uint64_t tid;
            long ti;
            if (p < 0)
                return fail(im, "deps.json", "edges[%d]: pred %" PRIu64 " of a %s edge is no task", i, pred,
                            src->valuestring);
            if (!get_u64(cJSON_GetObjectItemCaseSensitive(x, "tensor_id"), &tid) || (ti = find_tensor(im, tid)) < 0)
                ti = -1;
            e.tensor = (int)ti;
            if (e.source == 1 && ti >= 0) {
                imp_tensor *tn = &im->tensors[ti];
                bool seen = false;
                for (size_t c = 0; c < tn->ncreators; c++)
                    seen |= tn->creators[c] == (size_t)p;
                if (!seen) {
                    imp_task *pt = &im->tasks[p];
                    if (vec_grow((void **)&tn->creators, &tn->creatorcap, tn->ncreators, sizeof(size_t)) != 0 ||
                        vec_grow((void **)&pt->anchored, &pt->anchorcap, pt->nanchored, sizeof(int)) != 0)
                        return oom(im);
                    tn->creators[tn->ncreators++] = (size_t)p;
                    pt->anchored[pt->nanchored++] = (int)ti;
                }
            }
        }
        if (add_edge(im, &im->tasks[s], e) != 0)
            return -1;
        i++;
    }
    return 0;
}

/* Ids named by creator or explicit edges that no ring counted yet extend the
 * rings: allocs reached only that way (an alloc consumed only in a manual
 * scope is named by nothing else). Explicit preds beyond what scope stats
 * counted are ids never issued, kept as raw dependencies. */
static void count_edge_preds(importer *im, const cJSON *edges)
{
    const cJSON *x;
    cJSON_ArrayForEach(x, edges)
    {
        uint64_t pred;
        const cJSON *src = cJSON_GetObjectItemCaseSensitive(x, "source");
        if (!get_u64(cJSON_GetObjectItemCaseSensitive(x, "pred"), &pred) || !cJSON_IsString(src) ||
            ring_of(pred) >= RINGS)
            continue;
        bool creator = strcmp(src->valuestring, "creator") == 0;
        bool expl = strcmp(src->valuestring, "explicit") == 0;
        int r = ring_of(pred);
        uint64_t local = pred & 0xFFFFFFFFu;
        if (creator || (expl && !im->have_stats)) {
            if (local + 1 > im->ring_count[r] && local < (64u << 20))
                im->ring_count[r] = local + 1;
        }
    }
}

static int read_deps(importer *im)
{
    size_t len;
    char *text = slurp(im->dir, "deps.json", &len);
    if (!text)
        return fail(im, "deps.json", "cannot read: %s (capture with --enable-dep-gen)", strerror(errno));
    cJSON *root = parse_json(im, "deps.json", text, len, 0);
    free(text);
    if (!root)
        return -1;
    int rc = -1;
    const cJSON *tensors = cJSON_GetObjectItemCaseSensitive(root, "tensors"),
                *tasks = cJSON_GetObjectItemCaseSensitive(root, "tasks"),
                *edges = cJSON_GetObjectItemCaseSensitive(root, "edges");
    if (!cJSON_IsArray(tasks) || !cJSON_IsArray(edges)) {
        fail(im, "deps.json", "needs the arrays \"tasks\" and \"edges\"");
        goto out;
    }
    int nt = cJSON_IsArray(tensors) ? cJSON_GetArraySize(tensors) : 0;
    im->tensors = calloc(nt ? (size_t)nt : 1, sizeof(*im->tensors));
    if (!im->tensors) {
        oom(im);
        goto out;
    }
    const cJSON *x;
    int i = 0;
    cJSON_ArrayForEach(x, tensors) if (read_tensor(im, x, i++) != 0) goto out;
    if (hash_tensors(im) != 0)
        goto out;
    i = 0;
    cJSON_ArrayForEach(x, tasks) if (read_task(im, x, i++) != 0) goto out;
    im->nknown = im->ntasks;
    count_edge_preds(im, edges);
    if (index_tasks(im) != 0 || read_edges(im, edges) != 0)
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
static int mark_drained(importer *im, const cJSON *root)
{
    const cJSON *phases = cJSON_GetObjectItemCaseSensitive(root, "aicpu_scheduler_phases"),
                *dispatches = cJSON_GetObjectItemCaseSensitive(root, "aicpu_tasks"),
                *execs = cJSON_GetObjectItemCaseSensitive(root, "aicore_tasks"),
                *owner = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(root, "metadata"),
                                                          "core_to_thread");
    if (!cJSON_IsArray(phases) || !cJSON_IsArray(dispatches) || !cJSON_IsArray(owner))
        return 0;
    imp_span *sp = NULL;
    imp_token *tok = NULL;
    size_t nsp = 0, ntok = 0, cap = 0;
    int rc = 0;
    uint64_t thread = 0;
    const cJSON *lane, *p, *d, *e;
    cJSON_ArrayForEach(lane, phases)
    {
        cJSON_ArrayForEach(p, lane)
        {
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
        thread++;
    }
    if (!nsp)
        goto out;
    qsort(sp, nsp, sizeof(*sp), cmp_span);
    cap = 0;
    cJSON_ArrayForEach(d, dispatches)
    {
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
    if (!ntok)
        goto out;
    qsort(tok, ntok, sizeof(*tok), cmp_token);
    cJSON_ArrayForEach(e, execs)
    {
        imp_token t;
        uint64_t id;
        long ti;
        if (get_u64(cJSON_GetArrayItem(e, 0), &t.core) && get_u64(cJSON_GetArrayItem(e, 1), &id) &&
            get_u64(cJSON_GetArrayItem(e, 2), &t.reg) && bsearch(&t, tok, ntok, sizeof(*tok), cmp_token) &&
            (ti = find_task(im, id)) >= 0)
            im->tasks[ti].sync = true;
    }
    goto out;
oom:
    rc = oom(im);
out:
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

/* Median execution times from the swimlane, per task and per func id; tasks
 * placed by a sync-start drain are marked sync_start. */
static int read_swimlane(importer *im)
{
    size_t len;
    char *text = slurp(im->dir, "chip_swimlane_records.json", &len);
    if (!text)
        return 0; /* optional */
    cJSON *root = parse_json(im, "chip_swimlane_records.json", text, len, 0);
    free(text);
    if (!root)
        return -1;
    const cJSON *meta = cJSON_GetObjectItemCaseSensitive(root, "metadata"),
                *execs = cJSON_GetObjectItemCaseSensitive(root, "aicore_tasks");
    const cJSON *hz = cJSON_GetObjectItemCaseSensitive(meta, "clock_freq_hz"),
                *types = cJSON_GetObjectItemCaseSensitive(meta, "core_types");
    if (!cJSON_IsNumber(hz) || hz->valuedouble <= 0 || !cJSON_IsArray(execs)) {
        cJSON_Delete(root);
        return fail(im, "chip_swimlane_records.json", "needs metadata.clock_freq_hz and aicore_tasks");
    }
    if (mark_drained(im, root) != 0) {
        cJSON_Delete(root);
        return -1;
    }
    double ns_per_tick = 1e9 / hz->valuedouble;
    size_t n = (size_t)cJSON_GetArraySize(execs);
    double *dur = malloc((n ? n : 1) * sizeof(*dur));
    long *task = malloc((n ? n : 1) * sizeof(*task));
    int *func = malloc((n ? n : 1) * sizeof(*func));
    if (!dur || !task || !func) {
        free(dur), free(task), free(func);
        cJSON_Delete(root);
        return oom(im);
    }
    size_t m = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, execs)
    {
        uint64_t core, id, start, end;
        if (!get_u64(cJSON_GetArrayItem(e, 0), &core) || !get_u64(cJSON_GetArrayItem(e, 1), &id) ||
            !get_u64(cJSON_GetArrayItem(e, 3), &start) || !get_u64(cJSON_GetArrayItem(e, 4), &end) || end < start)
            continue;
        long t = find_task(im, id);
        if (t < 0 || (size_t)t >= im->nknown)
            continue;
        const cJSON *ct = cJSON_GetArrayItem(types, (int)core);
        bool aiv = cJSON_IsString(ct) && strcmp(ct->valuestring, "aiv") == 0;
        const imp_task *tk = &im->tasks[t];
        dur[m] = (double)(end - start) * ns_per_tick;
        task[m] = t;
        func[m] = aiv ? (tk->k[1] >= 0 ? tk->k[1] : tk->k[2]) : tk->k[0];
        m++;
    }
    cJSON_Delete(root);
    /* per task: the median of its executions */
    exec_rec *rec = malloc((m ? m : 1) * sizeof(*rec));
    if (!rec) {
        free(dur), free(task), free(func);
        return oom(im);
    }
    for (size_t i = 0; i < m; i++) {
        const imp_task *tk = &im->tasks[task[i]];
        bool mix = (tk->k[0] >= 0) + (tk->k[1] >= 0) + (tk->k[2] >= 0) > 1;
        rec[i] = (exec_rec){.key = (uint64_t)task[i], .func = func[i], .mix = mix, .ns = dur[i]};
    }
    qsort(rec, m, sizeof(*rec), cmp_rec);
    exec_rec *per = malloc((m ? m : 1) * sizeof(*per)); /* (func, median) of single-kernel tasks */
    if (!per) {
        free(rec), free(dur), free(task), free(func);
        return oom(im);
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
    qsort(rec, m, sizeof(*rec), cmp_rec);
    qsort(per, nper, sizeof(*per), cmp_rec);
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
    free(dur), free(task), free(func);
    return 0;
}

static void read_name_map(importer *im)
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
    char *text = slurp(im->dir, best, &len);
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

static int read_scope_stats(importer *im)
{
    static const char *const FILE_NAME = "scope_stats/scope_stats.jsonl";
    char *text = slurp(im->dir, FILE_NAME, NULL);
    if (!text)
        return 0; /* optional: scopes are then guessed from the rings */
    char *save = NULL;
    long line = 0;
    for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        line++;
        cJSON *r = parse_json(im, FILE_NAME, l, strlen(l), line);
        if (!r) {
            free(text);
            return -1;
        }
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
            continue;
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
            free(text);
            return fail(im, FILE_NAME,
                        "line %ld: needs phase, depth, ring (0..3) and task_window_end (integers, as is heap_end "
                        "when given)",
                        line);
        }
        if (vec_grow((void **)&im->scopes, &im->scopecap, im->nscopes, sizeof(*im->scopes)) != 0) {
            cJSON_Delete(r);
            free(text);
            return oom(im);
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
    }
    free(text);
    im->have_stats = im->nscopes > 0;
    if (im->have_stats) /* every ring's last sample counts all it handed out */
        for (size_t i = 0; i < im->nscopes; i++)
            if (im->scopes[i].head > im->ring_count[im->scopes[i].ring])
                im->ring_count[im->scopes[i].ring] = im->scopes[i].head;
    return 0;
}

/* ---- the op order ---- */

static int push_op(importer *im, imp_op op)
{
    if (vec_grow((void **)&im->ops, &im->opcap, im->nops, sizeof(*im->ops)) != 0)
        return oom(im);
    if (op.kind == OP_TASK)
        im->tasks[op.task].pos = im->nops;
    im->ops[im->nops++] = op;
    return 0;
}

static int ring_of_depth(int depth)
{
    return depth < RINGS - 1 ? depth : RINGS - 1;
}

/* Emits the next ids of ring r while they are allocs and fewer than limit
 * (the head of ring r's next scope sample). */
static int emit_allocs(importer *im, int r, uint64_t *emitted, uint64_t limit)
{
    while (emitted[r] < im->ring_count[r] && emitted[r] < limit) {
        size_t ti = (size_t)im->by_local[r][emitted[r]];
        if (!im->tasks[ti].alloc)
            break;
        if (push_op(im, (imp_op){.kind = OP_TASK, .task = ti}) != 0)
            return -1;
        emitted[r]++;
    }
    return 0;
}

static int order_merge(importer *im, const uint64_t *limit);

/* Merges the submission order of deps.json, the per-ring id order (allocs
 * fill the gaps) and the scope samples into one op sequence. A task can be
 * issued only while the current depth maps to its ring, and a sample of ring
 * r comes exactly when r has handed out `head` ids. */
static int order_with_stats(importer *im)
{
    /* limit[si * RINGS + r]: head of the first sample of ring r at or after si */
    uint64_t *limit = malloc((im->nscopes + 1) * RINGS * sizeof(*limit));
    if (!limit)
        return oom(im);
    for (int r = 0; r < RINGS; r++)
        limit[im->nscopes * RINGS + r] = UINT64_MAX;
    for (size_t i = im->nscopes; i-- > 0;)
        for (int r = 0; r < RINGS; r++)
            limit[i * RINGS + r] = im->scopes[i].ring == r ? im->scopes[i].head : limit[(i + 1) * RINGS + r];
    int rc = order_merge(im, limit);
    free(limit);
    return rc;
}

static int order_merge(importer *im, const uint64_t *limit)
{
    uint64_t emitted[RINGS] = {0};
    size_t gi = 0, si = 0;
    int depth = 0;
    static const char *const F = "scope_stats/scope_stats.jsonl";
    for (;;) {
        while (si < im->nscopes && im->scopes[si].depth == 0)
            si++; /* the root scope's samples: implicit */
        const imp_scope *next = si < im->nscopes ? &im->scopes[si] : NULL;
        int r = ring_of_depth(depth);
        if (emit_allocs(im, r, emitted, limit[si * RINGS + r]) != 0)
            return -1;
        if (gi < im->nknown) {
            const imp_task *t = &im->tasks[gi];
            bool head_ok = emitted[r] < limit[si * RINGS + r];
            if (t->ring == r && t->local == emitted[r] && head_ok) {
                if (push_op(im, (imp_op){.kind = OP_TASK, .task = gi}) != 0)
                    return -1;
                gi++;
                emitted[r]++;
                continue;
            }
        }
        if (!next)
            break;
        if (next->ring == r && emitted[r] != next->head)
            return fail(im, F,
                        "line %ld: ring %d had handed out %" PRIu64 " tasks, but deps.json lists task %" PRIu64
                        " next (the files are not of one run)",
                        next->line, r, next->head,
                        gi < im->nknown ? im->tasks[gi].id : (uint64_t)r << 32 | emitted[r]);
        if (next->begin) {
            if (next->depth != depth + 1)
                return fail(im, F, "line %ld: a scope begins at depth %d inside depth %d", next->line, next->depth,
                            depth);
            if (depth + 1 >= MAX_SCOPE_DEPTH)
                return fail(im, F, "line %ld: scopes nest deeper than %d", next->line, MAX_SCOPE_DEPTH - 1);
            if (push_op(im, (imp_op){.kind = OP_BEGIN, .site = next->site}) != 0)
                return -1;
            depth++;
        } else {
            if (next->depth != depth)
                return fail(im, F, "line %ld: a scope of depth %d ends inside depth %d", next->line, next->depth,
                            depth);
            if (push_op(im, (imp_op){.kind = OP_END}) != 0)
                return -1;
            depth--;
        }
        si++;
    }
    if (gi < im->nknown)
        return fail(im, F, "task %" PRIu64 " (ring %d) cannot be placed in the scopes sampled (a scope of ring %d "
                    "would have to be open)",
                    im->tasks[gi].id, im->tasks[gi].ring, im->tasks[gi].ring);
    for (int r = 0; r < RINGS; r++)
        if (emitted[r] != im->ring_count[r])
            return fail(im, F, "ring %d handed out %" PRIu64 " tasks but only %" PRIu64 " fit its scopes", r,
                        im->ring_count[r], emitted[r]);
    while (depth-- > 0)
        if (push_op(im, (imp_op){.kind = OP_END}) != 0)
            return -1;
    return 0;
}

/* Without scope stats: scopes follow the rings (a task of ring r runs at
 * depth r, deeper rings share ring 3), closed every GUESSED_SCOPE_TASKS
 * tasks so a long run of one ring does not hold the whole window. */
static int order_guessed(importer *im)
{
    uint64_t emitted[RINGS] = {0};
    int depth = 0;
    size_t in_scope = 0;
    for (size_t gi = 0;; gi++) {
        int want;
        if (gi < im->nknown) {
            want = im->tasks[gi].ring;
        } else {
            want = -1; /* trailing allocs of some ring */
            for (int r = 0; r < RINGS && want < 0; r++)
                if (emitted[r] < im->ring_count[r])
                    want = r;
            if (want < 0)
                break;
        }
        if (depth == want && want > 0 && in_scope >= GUESSED_SCOPE_TASKS) {
            if (push_op(im, (imp_op){.kind = OP_END}) != 0 || push_op(im, (imp_op){.kind = OP_BEGIN}) != 0)
                return -1;
            in_scope = 0;
        }
        while (depth > want) {
            if (push_op(im, (imp_op){.kind = OP_END}) != 0)
                return -1;
            depth--;
            in_scope = 0;
            if (emit_allocs(im, ring_of_depth(depth), emitted, UINT64_MAX) != 0)
                return -1;
        }
        while (depth < want) {
            if (push_op(im, (imp_op){.kind = OP_BEGIN}) != 0)
                return -1;
            depth++;
            in_scope = 0;
            if (emit_allocs(im, ring_of_depth(depth), emitted, UINT64_MAX) != 0)
                return -1;
        }
        if (gi >= im->nknown) {
            if (emit_allocs(im, want, emitted, UINT64_MAX) != 0)
                return -1;
            if (emitted[want] < im->ring_count[want])
                return fail(im, "deps.json", "ring %d: task %" PRIu64 " is listed out of its ring's order", want,
                            ((uint64_t)want << 32) | emitted[want]);
            gi--;
            continue;
        }
        const imp_task *t = &im->tasks[gi];
        if (t->local != emitted[want])
            return fail(im, "deps.json", "task %" PRIu64 " is listed before task %" PRIu64 " of its ring", t->id,
                        ((uint64_t)want << 32) | emitted[want]);
        if (push_op(im, (imp_op){.kind = OP_TASK, .task = gi}) != 0)
            return -1;
        emitted[want]++;
        in_scope++;
        if (emit_allocs(im, want, emitted, UINT64_MAX) != 0)
            return -1;
    }
    while (depth-- > 0)
        if (push_op(im, (imp_op){.kind = OP_END}) != 0)
            return -1;
    return 0;
}

/* Scope modes: a scope is manual when a task directly inside it was
 * submitted in a manual scope, or when a scope around it is (the runtime
 * rejects an auto scope inside a manual one). */
static int assign_modes(importer *im)
{
    size_t stack[MAX_SCOPE_DEPTH + 1];
    int top = 0;
    for (size_t i = 0; i < im->nops; i++) {
        imp_op *op = &im->ops[i];
        if (op->kind == OP_BEGIN) {
            stack[++top] = i;
            op->manual = false;
        } else if (op->kind == OP_END) {
            top--;
        } else if (im->tasks[op->task].manual) {
            if (top == 0)
                return fail(im, "deps.json", "task %" PRIu64 " was submitted in a manual scope, but no scope is open",
                            im->tasks[op->task].id);
            im->ops[stack[top]].manual = true;
        }
    }
    bool manual[MAX_SCOPE_DEPTH + 1] = {false};
    top = 0;
    for (size_t i = 0; i < im->nops; i++) {
        imp_op *op = &im->ops[i];
        if (op->kind == OP_BEGIN) {
            top++;
            op->manual |= manual[top - 1];
            manual[top] = op->manual;
        } else if (op->kind == OP_END) {
            top--;
        } else if (!im->tasks[op->task].alloc && !im->tasks[op->task].manual && manual[top]) {
            return fail(im, "deps.json", "task %" PRIu64 " is an auto-scope task inside a manual scope",
                        im->tasks[op->task].id);
        }
    }
    return 0;
}

/* ---- created buffers from heap offsets ---- */

static uint64_t tensor_bytes(const imp_tensor *t)
{
    return heap_round_output(t->numel * (uint64_t)(dtype_size(t->dtype) ? dtype_size(t->dtype) : 1));
}

/* A created tensor's creator is named by a creator edge only for the first
 * consumer that reaches that producer: the replay drops it when the producer
 * already is a predecessor (explicit deps, earlier args), and a manual scope
 * records none. So the heap arena is located from the creator edges (and,
 * without any, from where the most tensors fit the sizes scope stats
 * recorded), and every tensor inside it belongs to the task whose block of
 * consecutive outputs holds its offset. */
static void locate_heap(importer *im, uint64_t size[RINGS], uint64_t prefix[RINGS + 1], uint64_t used[RINGS])
{
    for (int r = 0; r < RINGS; r++) {
        size[r] = im->cap[1][r] ? im->cap[1][r] : DEFAULT_RING_HEAP;
        used[r] = size[r];
    }
    prefix[0] = 0;
    for (int r = 0; r < RINGS; r++)
        prefix[r + 1] = prefix[r] + size[r];
    if (im->have_stats) {
        memset(used, 0, RINGS * sizeof(*used));
        for (size_t i = 0; i < im->nscopes; i++) {
            const imp_scope *s = &im->scopes[i];
            if (s->heap_end > used[s->ring])
                used[s->ring] = s->heap_end;
        }
        for (int r = 0; r < RINGS; r++)
            if (used[r] > size[r])
                used[r] = size[r];
    }
    bool allocating[RINGS] = {false};
    size_t first_alloc[RINGS] = {SIZE_MAX, SIZE_MAX, SIZE_MAX, SIZE_MAX}; /* op position of the ring's first */
    for (size_t i = 0; i < im->ntasks; i++)
        if (im->tasks[i].alloc || im->tasks[i].nslots) {
            allocating[im->tasks[i].ring] = true;
            if (im->tasks[i].pos < first_alloc[im->tasks[i].ring])
                first_alloc[im->tasks[i].ring] = im->tasks[i].pos;
        }
    /* the highest base every anchored tensor allows */
    uint64_t bound = UINT64_MAX;
    bool anchored = false;
    for (size_t x = 0; x < im->ntensors; x++)
        for (size_t c = 0; c < im->tensors[x].ncreators; c++) {
            const imp_task *p = &im->tasks[im->tensors[x].creators[c]];
            uint64_t lo = prefix[p->ring];
            if (im->tensors[x].addr >= lo && im->tensors[x].addr - lo < bound)
                bound = im->tensors[x].addr - lo;
            anchored = true;
        }
    uint64_t best = 0;
    size_t best_score = 0;
    bool found = false;
    for (size_t y = 0; y < im->ntensors; y++)
        for (int r = 0; r < RINGS; r++) {
            if (!allocating[r] || im->tensors[y].addr < prefix[r])
                continue;
            uint64_t base = im->tensors[y].addr - prefix[r];
            if (anchored && base > bound)
                continue;
            size_t score = 0;
            bool consistent = true;
            for (size_t x = 0; x < im->ntensors; x++) {
                const imp_tensor *t = &im->tensors[x];
                if (t->addr < base || t->addr - base >= prefix[RINGS])
                    continue;
                uint64_t rel = t->addr - base;
                int tr = 0;
                while (rel >= prefix[tr + 1])
                    tr++;
                /* only a tensor some earlier task of that ring could have made counts */
                bool in = allocating[tr] && rel - prefix[tr] < used[tr] && first_alloc[tr] < t->first_use;
                for (size_t c = 0; c < t->ncreators; c++)
                    if (im->tasks[t->creators[c]].ring != tr)
                        consistent = false;
                score += in;
            }
            for (size_t x = 0; x < im->ntensors && consistent; x++)
                if (im->tensors[x].ncreators &&
                    (im->tensors[x].addr < base || im->tensors[x].addr - base >= prefix[RINGS]))
                    consistent = false;
            if (!consistent)
                continue;
            if (!found || score > best_score || (score == best_score && base > best)) {
                best = base;
                best_score = score;
                found = true;
            }
        }
    if (!found || (!anchored && best_score == 0))
        return; /* nothing is runtime-created */
    for (size_t x = 0; x < im->ntensors; x++) {
        imp_tensor *t = &im->tensors[x];
        if (t->addr < best || t->addr - best >= prefix[RINGS])
            continue;
        uint64_t rel = t->addr - best;
        int tr = 0;
        while (rel >= prefix[tr + 1])
            tr++;
        if (!allocating[tr] || (rel - prefix[tr] >= used[tr] && !t->ncreators))
            continue;
        t->heap = true;
        t->ring = tr;
        t->off = rel - prefix[tr];
    }
}

/* Is task p (tasks[] index) a predecessor of task t before its arg i (explicit
 * deps, edges of earlier args)? */
static bool pred_before(const imp_task *t, int i, size_t p)
{
    for (size_t e = 0; e < t->nedges; e++)
        if (t->edges[e].pred == p && t->edges[e].arg < i)
            return true;
    return false;
}

/* Could task p have created tensor x? */
static bool may_create(const importer *im, size_t p, size_t x)
{
    const imp_tensor *t = &im->tensors[x];
    const imp_task *pt = &im->tasks[p];
    if (!t->heap || t->ring != pt->ring)
        return false;
    if (t->ncreators) {
        for (size_t c = 0; c < t->ncreators; c++)
            if (t->creators[c] == p)
                return true;
        return false;
    }
    if (pt->pos >= t->first_use)
        return false;
    /* an auto-scope reader without a creator edge already had the creator as a predecessor */
    for (size_t k = 0; k < t->nreaders; k++)
        if (!pred_before(&im->tasks[t->readers[k] >> 6], (int)(t->readers[k] & 63), p))
            return false;
    return true;
}

typedef struct heap_walk {
    importer *im;
    size_t *items; /* heap tensors of the ring, by offset */
    size_t nitems;
    size_t *taken; /* per item: times taken (a tensor rebased to the same offset is made again) */
    uint64_t cursor;
    size_t scan;     /* items before it are taken or below the cursor */
    size_t later_need; /* slot_need of the ring's tasks after the current one */
    int pending_buf; /* the last output nobody read, which can still grow */
} heap_walk;

/* Has item i been made as often as creator edges say (once without them)? */
static bool spent(const heap_walk *w, size_t i)
{
    size_t n = w->im->tensors[w->items[i]].ncreators;
    return w->taken[i] >= (n ? n : 1);
}

/* The first untaken item at or after the cursor. */
static long next_item(heap_walk *w)
{
    while (w->scan < w->nitems &&
           (spent(w, w->scan) || w->im->tensors[w->items[w->scan]].off < w->cursor))
        w->scan++;
    return w->scan < w->nitems ? (long)w->scan : -1;
}

static int add_output(importer *im, size_t p, int tensor, uint64_t bytes)
{
    imp_task *t = &im->tasks[p];
    int b = add_buf(im, (imp_buf){.created = true, .tensor = tensor, .task = p, .bytes = bytes});
    if (b < 0 || vec_grow((void **)&t->outs, &t->outcap, t->nouts, sizeof(*t->outs)) != 0)
        return oom(im);
    t->outs[t->nouts++] = b;
    if (tensor >= 0) {
        imp_tensor *tn = &im->tensors[tensor];
        if (vec_grow((void **)&tn->made, &tn->madecap, tn->nmade, sizeof(*tn->made)) != 0)
            return oom(im);
        tn->made[tn->nmade++] = b;
    }
    return b;
}

/* Has task p already taken tensor x as an output? */
static bool made_by(const importer *im, int x, size_t p)
{
    const imp_tensor *t = &im->tensors[x];
    for (size_t i = 0; i < t->nmade; i++)
        if (im->bufs[t->made[i]].task == p)
            return true;
    return false;
}

/* Unanchored tensors still to place at or after the cursor, against the
 * slots later tasks of the ring still need filled (each submit's outputs
 * beyond its anchored ones, at least one per alloc): an alloc takes another
 * tensor only while there are more tensors than later slots. */
static bool alloc_may_take_more(const heap_walk *w, size_t from)
{
    const importer *im = w->im;
    size_t unanchored = 0;
    for (size_t i = from; i < w->nitems; i++)
        if (!spent(w, i) && !im->tensors[w->items[i]].ncreators && im->tensors[w->items[i]].off >= w->cursor)
            unanchored++;
    return unanchored > w->later_need;
}

/* One output slot of task p: the tensor at the cursor if p may have made it;
 * else an output nobody read, as large as the gap to the next tensor p may
 * have made, or (nothing of p's ahead) the least an output takes, growing
 * when the next tensor is reached. alloc_more asks for another entry of an
 * alloc, which there is only if a tensor it may have made is next. Returns 0,
 * 1 when an alloc has no more entries, -1 when out of memory. */
static int take_slot(heap_walk *w, size_t p, bool alloc_more)
{
    importer *im = w->im;
    long i = next_item(w);
    bool mine = i >= 0 && may_create(im, p, w->items[i]) && !made_by(im, (int)w->items[i], p);
    if (mine && alloc_more && (im->tensors[w->items[i]].ncreators == 0 && !alloc_may_take_more(w, (size_t)i)))
        mine = false;
    if (mine) {
        const imp_tensor *t = &im->tensors[w->items[i]];
        if (t->off > w->cursor) {
            if (w->pending_buf >= 0) {
                im->bufs[w->pending_buf].bytes += t->off - w->cursor;
            } else if (alloc_more) {
                return 1; /* an alloc's next entry would start at the cursor */
            } else { /* this slot was not read; the tensor is a later slot's */
                int b = add_output(im, p, -1, t->off - w->cursor);
                if (b < 0)
                    return -1;
                w->cursor = t->off;
                return 0;
            }
            w->cursor = t->off;
        }
        if (add_output(im, p, (int)w->items[i], tensor_bytes(t)) < 0)
            return -1;
        w->taken[i]++;
        w->cursor += tensor_bytes(t);
        w->pending_buf = -1;
        return 0;
    }
    if (alloc_more)
        return 1;
    int b = add_output(im, p, -1, UNCONSUMED_SLOT_BYTES);
    if (b < 0)
        return -1;
    w->cursor += UNCONSUMED_SLOT_BYTES;
    w->pending_buf = b;
    return 0;
}

typedef struct off_item {
    uint64_t off;
    size_t x;
} off_item;

static int cmp_off(const void *a, const void *b)
{
    const off_item *x = a, *y = b;
    if (x->off != y->off)
        return x->off < y->off ? -1 : 1;
    return x->x < y->x ? -1 : x->x > y->x;
}

/* Heap tensors of ring r by offset (ties in record order). Returns the count, or -1. */
static long ring_items(const importer *im, int r, size_t *out)
{
    size_t n = 0;
    off_item *v = malloc((im->ntensors ? im->ntensors : 1) * sizeof(*v));
    if (!v)
        return -1;
    for (size_t x = 0; x < im->ntensors; x++)
        if (im->tensors[x].heap && im->tensors[x].ring == r)
            v[n++] = (off_item){im->tensors[x].off, x};
    qsort(v, n, sizeof(*v), cmp_off);
    for (size_t i = 0; i < n; i++)
        out[i] = v[i].x;
    free(v);
    return (long)n;
}

/* Slots task p still needs from unanchored tensors. */
static size_t slot_need(const imp_task *t)
{
    if (t->alloc)
        return t->nanchored ? 0 : 1;
    return (size_t)t->nslots > t->nanchored ? (size_t)t->nslots - t->nanchored : 0;
}

/* The ring's outputs laid out as the runtime's heap does: each task's
 * outputs packed in slot order where the last task's ended, back at 0 when
 * the block does not fit the end. Scope stats' cumulative heap counter fixes
 * the size of the last output nobody read before each sample. */
static int walk_ring(importer *im, int r, uint64_t size)
{
    heap_walk w = {.im = im, .pending_buf = -1};
    w.items = malloc((im->ntensors ? im->ntensors : 1) * sizeof(*w.items));
    w.taken = calloc(im->ntensors ? im->ntensors : 1, sizeof(*w.taken));
    if (!w.items || !w.taken) {
        free(w.items);
        free(w.taken);
        return oom(im);
    }
    long n = ring_items(im, r, w.items);
    if (n < 0) {
        free(w.items);
        free(w.taken);
        return oom(im);
    }
    w.nitems = (size_t)n;
    for (uint64_t l = 0; l < im->ring_count[r]; l++)
        w.later_need += slot_need(&im->tasks[im->by_local[r][l]]);
    size_t si = 0; /* next scope sample of this ring */
    uint64_t wraps = 0;
    int rc = 0;
    for (uint64_t l = 0; l < im->ring_count[r] && rc == 0; l++) {
        size_t p = (size_t)im->by_local[r][l];
        imp_task *t = &im->tasks[p];
        /* samples taken before this task: the heap counter says where the cursor is */
        for (; im->have_stats && si < im->nscopes; si++) {
            const imp_scope *s = &im->scopes[si];
            if (s->ring != r)
                continue;
            if (s->head > l)
                break;
            uint64_t at = wraps * size + w.cursor;
            if (s->heap_end > at && w.pending_buf >= 0) {
                im->bufs[w.pending_buf].bytes += s->heap_end - at;
                w.cursor += s->heap_end - at;
            }
            w.pending_buf = -1;
        }
        w.later_need -= slot_need(t);
        if (!t->alloc && !t->nslots)
            continue;
        /* a block that starts below the cursor wrapped (or the empty ring rebased) */
        for (size_t a = 0; a < t->nanchored; a++) {
            const imp_tensor *at = &im->tensors[t->anchored[a]];
            if (at->heap && at->ring == r && at->off < w.cursor && !made_by(im, t->anchored[a], p)) {
                w.cursor = 0;
                w.scan = 0;
                w.pending_buf = -1;
                wraps++;
                break;
            }
        }
        if (t->alloc) {
            if ((rc = take_slot(&w, p, false)) < 0)
                break;
            while ((rc = take_slot(&w, p, true)) == 0)
                ;
            rc = rc < 0 ? -1 : 0;
        } else {
            for (int s = 0; s < t->nslots && rc == 0; s++)
                rc = take_slot(&w, p, false) < 0 ? -1 : 0;
        }
    }
    for (; rc == 0 && im->have_stats && si < im->nscopes; si++) {
        const imp_scope *s = &im->scopes[si];
        uint64_t at = wraps * size + w.cursor;
        if (s->ring == r && s->heap_end > at && w.pending_buf >= 0) {
            im->bufs[w.pending_buf].bytes += s->heap_end - at;
            w.cursor += s->heap_end - at;
        }
    }
    for (size_t i = 0; i < w.nitems && rc == 0; i++)
        if (!w.taken[i]) {
            imp_tensor *t = &im->tensors[w.items[i]];
            if (t->ncreators) { /* anchored but skipped by the layout: keep its creator */
                if (add_output(im, t->creators[0], (int)w.items[i], tensor_bytes(t)) < 0)
                    rc = -1;
                note(im, "tensor %" PRIu64 " (ring %d, offset %" PRIu64 ") does not fit its creator's block", t->tid,
                     r, t->off);
            } else {
                t->heap = false;
                note(im, "tensor %" PRIu64 " lies in ring %d's heap but no task before its first reader could "
                     "have made it; it is imported as an external tensor",
                     t->tid, r);
            }
        }
    free(w.items);
    free(w.taken);
    return rc;
}

/* Points every arg at its buffer: the creation its creator edge names, else
 * the latest creation of that tensor before the reader, else the external
 * tensor. */
static int resolve_args(importer *im)
{
    int *external = malloc((im->ntensors ? im->ntensors : 1) * sizeof(*external));
    if (!external)
        return oom(im);
    for (size_t x = 0; x < im->ntensors; x++)
        external[x] = -1;
    int rc = 0;
    for (size_t k = 0; k < im->nknown && rc == 0; k++) {
        imp_task *t = &im->tasks[k];
        for (int i = 0; i < t->nargs; i++) {
            imp_arg *a = &t->args[i];
            if (a->type == A_OUT)
                continue;
            size_t named = SIZE_MAX;
            for (size_t e = 0; e < t->nedges; e++)
                if (t->edges[e].source == 1 && t->edges[e].arg == i)
                    named = t->edges[e].pred;
            int best = -1;
            const imp_tensor *tn = &im->tensors[a->tensor];
            for (size_t m = 0; m < tn->nmade; m++) {
                int b = tn->made[m];
                const imp_buf *bf = &im->bufs[b];
                if (im->tasks[bf->task].pos >= t->pos)
                    continue;
                if (named != SIZE_MAX ? bf->task == named
                                      : (best < 0 || im->tasks[bf->task].pos > im->tasks[im->bufs[best].task].pos))
                    best = b;
            }
            if (best < 0 && im->tensors[a->tensor].heap) /* an output of another address names the same tensor */
                note(im, "task %" PRIu64 " arg %d reads tensor %" PRIu64 " before any task made it", t->id, i,
                     im->tensors[a->tensor].tid);
            if (best < 0) {
                if (external[a->tensor] < 0 &&
                    (external[a->tensor] = add_buf(im, (imp_buf){.tensor = a->tensor})) < 0) {
                    rc = oom(im);
                    break;
                }
                best = external[a->tensor];
            }
            a->buf = best;
        }
    }
    free(external);
    return rc;
}

static tmap_view view_of(const importer *im, const imp_arg *a)
{
    const imp_tensor *t = &im->tensors[a->tensor];
    tmap_view v = {.addr = t->addr,
                   .buffer_numel = t->numel,
                   .start = a->start,
                   .version = t->version,
                   .dtype = (uint8_t)a->dtype,
                   .ndims = (uint8_t)a->ndim};
    for (int d = 0; d < a->ndim; d++) {
        v.shape[d] = a->shape[d];
        v.strides[d] = a->strides[d];
    }
    return v;
}

static bool is_writer(const imp_task *t, const imp_arg *a)
{
    return !t->manual && (a->type == A_INOUT || a->type == A_OUT_EXISTING);
}

/* deps.json does not say which tensors were made with manual_dep (no
 * TensorMap lookup or insert; e.g. the batched paged attention's `out`). A
 * buffer written and then read in auto scopes with overlapping views, yet
 * named by no TensorMap edge at all, was: its args are marked manual_dep. */
static int infer_manual_dep(importer *im)
{
    bool *edged = calloc(im->ntensors ? im->ntensors : 1, sizeof(*edged));
    bool *decided = calloc(im->ntensors ? im->ntensors : 1, sizeof(*decided));
    if (!edged || !decided) {
        free(edged);
        free(decided);
        return oom(im);
    }
    /* buffers (by address) some TensorMap edge reaches */
    for (size_t k = 0; k < im->nknown; k++) {
        const imp_task *t = &im->tasks[k];
        for (size_t e = 0; e < t->nedges; e++)
            if (t->edges[e].source == 2 && t->edges[e].arg >= 0 && t->edges[e].arg < t->nargs &&
                t->args[t->edges[e].arg].tensor >= 0)
                edged[t->args[t->edges[e].arg].tensor] = true;
    }
    for (size_t x = 0; x < im->ntensors; x++) /* spread over records of the same address */
        if (edged[x])
            for (size_t y = 0; y < im->ntensors; y++)
                if (im->tensors[y].addr == im->tensors[x].addr)
                    edged[y] = true;
    for (size_t k = 0; k < im->nknown; k++) {
        const imp_task *r = &im->tasks[k];
        for (int i = 0; i < r->nargs; i++) {
            const imp_arg *ra = &r->args[i];
            if (r->manual || (ra->type != A_IN && ra->type != A_INOUT) || edged[ra->tensor] || decided[ra->tensor])
                continue;
            uint64_t addr = im->tensors[ra->tensor].addr;
            tmap_view rv = view_of(im, ra);
            bool predicted = false;
            for (size_t w = 0; w < k && !predicted; w++) {
                const imp_task *wt = &im->tasks[w];
                for (int j = 0; j < wt->nargs && !predicted; j++) {
                    const imp_arg *wa = &wt->args[j];
                    if (!is_writer(wt, wa) || im->tensors[wa->tensor].addr != addr)
                        continue;
                    tmap_view wv = view_of(im, wa);
                    predicted = tmap_check_overlap(&wv, &rv) != OV_NONE;
                }
            }
            if (!predicted)
                continue;
            for (size_t y = 0; y < im->ntensors; y++)
                if (im->tensors[y].addr == addr)
                    decided[y] = true;
            note(im, "tensor %" PRIu64 " is written and read in auto scopes but no TensorMap edge names it: "
                 "imported as manual_dep",
                 im->tensors[ra->tensor].tid);
        }
    }
    for (size_t k = 0; k < im->nknown; k++)
        for (int i = 0; i < im->tasks[k].nargs; i++) {
            imp_arg *a = &im->tasks[k].args[i];
            if (a->tensor >= 0 && decided[a->tensor])
                a->manual_dep = true;
        }
    free(edged);
    free(decided);
    return 0;
}

static int infer_buffers(importer *im)
{
    for (size_t k = 0; k < im->nknown; k++) {
        const imp_task *t = &im->tasks[k];
        for (int i = 0; i < t->nargs; i++) {
            if (t->args[i].tensor < 0)
                continue;
            imp_tensor *tn = &im->tensors[t->args[i].tensor];
            if (t->pos < tn->first_use)
                tn->first_use = t->pos;
            bool named = false;
            for (size_t e = 0; e < t->nedges; e++)
                named |= t->edges[e].source == 1 && t->edges[e].arg == i;
            if (!t->manual && !named) {
                if (vec_grow((void **)&tn->readers, &tn->readercap, tn->nreaders, sizeof(size_t)) != 0)
                    return oom(im);
                tn->readers[tn->nreaders++] = k << 6 | (size_t)i;
            }
        }
    }
    uint64_t size[RINGS], prefix[RINGS + 1], used[RINGS];
    locate_heap(im, size, prefix, used);
    for (int r = 0; r < RINGS; r++)
        if (walk_ring(im, r, size[r]) != 0)
            return -1;
    if (resolve_args(im) != 0)
        return -1;
    return infer_manual_dep(im);
}

/* ---- writing ---- */

static void put_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void put_dims(FILE *f, const int64_t *v, int n)
{
    fputc('[', f);
    for (int i = 0; i < n; i++)
        fprintf(f, "%s%" PRId64, i ? ", " : "", v[i]);
    fputc(']', f);
}

/* A buffer's name: e<k> for external tensors, o<task>_<slot> for outputs. */
static void buf_name(const importer *im, int b, char *out, size_t len)
{
    const imp_buf *bf = &im->bufs[b];
    if (!bf->created) {
        snprintf(out, len, "e%d", bf->tensor);
        return;
    }
    const imp_task *t = &im->tasks[bf->task];
    size_t slot = 0;
    while (slot < t->nouts && t->outs[slot] != b)
        slot++;
    snprintf(out, len, "o%" PRIu64 "_%zu", t->id, slot);
}

/* dtype and shape of a created buffer: its tensor record, or bytes. */
static void put_new_tensor(const importer *im, int b, const char *key, FILE *f)
{
    const imp_buf *bf = &im->bufs[b];
    char name[64];
    buf_name(im, b, name, sizeof(name));
    if (bf->tensor >= 0) {
        const imp_tensor *t = &im->tensors[bf->tensor];
        fprintf(f, "\"%s\": \"%s\", \"dtype\": \"%s\", \"shape\": [%" PRIu64 "]", key, name,
                dtype_name(t->dtype), t->numel ? t->numel : 1);
    } else { /* nobody read it: only its heap size is known */
        fprintf(f, "\"%s\": \"%s\", \"dtype\": \"INT8\", \"shape\": [%" PRIu64 "]", key, name, bf->bytes);
    }
}

static void put_task(const importer *im, const imp_task *t, FILE *f)
{
    if (t->alloc) {
        fprintf(f, "{\"op\": \"alloc\", \"id\": \"t%" PRIu64 "\", \"tensors\": [", t->id);
        for (size_t o = 0; o < t->nouts; o++) {
            fputs(o ? ", {" : "{", f);
            put_new_tensor(im, t->outs[o], "name", f);
            fputc('}', f);
        }
        fputs("]}\n", f);
        return;
    }
    bool dummy = t->k[0] < 0 && t->k[1] < 0 && t->k[2] < 0;
    fprintf(f, "{\"op\": \"%s\", \"id\": \"t%" PRIu64 "\"", dummy ? "dummy" : "submit", t->id);
    if (!dummy) {
        fputs(", \"kernels\": [", f);
        for (int s = 0; s < 3; s++)
            if (t->k[s] >= 0)
                fprintf(f, "%s%d", s ? ", " : "", t->k[s]);
            else
                fprintf(f, "%snull", s ? ", " : "");
        fputc(']', f);
        if (t->block_num > 1)
            fprintf(f, ", \"block_num\": %d", t->block_num);
        if (t->sync && t->block_num > 1)
            fputs(", \"sync_start\": true", f);
        if (t->early)
            fputs(", \"early_resolve\": true", f);
        int active = (t->k[0] >= 0) + (t->k[1] >= 0) + (t->k[2] >= 0);
        if (t->ns >= 0 && active == 1) /* its own measured time (MIX tasks take their kernels') */
            fprintf(f, ", \"cost\": {\"ns\": %.0f}", t->ns);
    }
    fputs(", \"args\": [", f);
    size_t slot = 0;
    for (int a = 0; a < t->nargs; a++) {
        const imp_arg *ia = &t->args[a];
        fputs(a ? ", " : "", f);
        if (ia->type == A_OUT) {
            fputs("{\"dir\": \"out\", ", f);
            put_new_tensor(im, t->outs[slot++], "tensor", f);
            fputc('}', f);
            continue;
        }
        char name[64];
        buf_name(im, ia->buf, name, sizeof(name));
        fprintf(f, "{\"dir\": \"%s\", \"tensor\": \"%s\", \"shape\": ", DIRS[ia->type], name);
        put_dims(f, ia->shape, ia->ndim);
        fputs(", \"strides\": ", f);
        put_dims(f, ia->strides, ia->ndim);
        fprintf(f, ", \"start_offset\": %" PRIu64, ia->start);
        const imp_buf *bf = &im->bufs[ia->buf];
        int base_version = bf->created ? 0 : im->tensors[bf->tensor].version;
        if (im->tensors[ia->tensor].version != base_version)
            fprintf(f, ", \"version\": %d", im->tensors[ia->tensor].version);
        if (ia->manual_dep)
            fputs(", \"manual_dep\": true", f);
        fputc('}', f);
    }
    fputc(']', f);
    bool first = true;
    for (size_t e = 0; e < t->nedges; e++) {
        const imp_edge *ed = &t->edges[e];
        if (ed->source != 0)
            continue;
        fputs(first ? ", \"deps\": [" : ", ", f);
        first = false;
        if (ed->pred != SIZE_MAX)
            fprintf(f, "\"t%" PRIu64 "\"", ed->pred_id);
        else /* an id no task had: the runtime counts it as retired */
            fprintf(f, "%" PRIu64, ed->pred_id);
    }
    if (!first)
        fputc(']', f);
    fputs("}\n", f);
}

static void put_ops(const importer *im, FILE *f)
{
    for (size_t i = 0; i < im->nops; i++) {
        const imp_op *op = &im->ops[i];
        if (op->kind == OP_TASK) {
            put_task(im, &im->tasks[op->task], f);
        } else if (op->kind == OP_END) {
            fputs("{\"op\": \"scope_end\"}\n", f);
        } else {
            fputs("{\"op\": \"scope_begin\"", f);
            if (op->site) {
                fputs(", \"site\": ", f);
                put_str(f, op->site);
            }
            fputs(op->manual ? ", \"mode\": \"manual\"}\n" : "}\n", f);
        }
    }
}

static void put_run_config(const importer *im, FILE *f)
{
    static const char *const KEYS[3] = {"ring_task_window", "ring_heap", "ring_dep_pool"};
    bool any = false;
    for (int k = 0; k < 3; k++)
        any |= im->cap[k][0] != 0;
    if (!any)
        return;
    fputs(", \"run_config\": {", f);
    bool first = true;
    for (int k = 0; k < 3; k++) {
        if (!im->cap[k][0])
            continue;
        fprintf(f, "%s\"%s\": [", first ? "" : ", ", KEYS[k]);
        for (int r = 0; r < RINGS; r++)
            fprintf(f, "%s%" PRIu64, r ? ", " : "", im->cap[k][r]);
        fputc(']', f);
        first = false;
    }
    fputc('}', f);
}

static void put_header(importer *im, FILE *f)
{
    for (int i = 0; i < GRAPH_MAX_FUNC_ID; i++)
        im->func_core[i] = -1;
    for (size_t i = 0; i < im->nknown; i++)
        for (int s = 0; s < 3; s++)
            if (im->tasks[i].k[s] >= 0)
                im->func_core[im->tasks[i].k[s]] = s == 0 ? 0 : 1;
    fputs("{\"ptosim_graph\": 1, \"name\": ", f);
    put_str(f, im->graph_name[0] ? im->graph_name : "imported");
    if (im->orchestrator[0]) {
        fputs(", \"orchestrator\": ", f);
        put_str(f, im->orchestrator);
    }
    put_run_config(im, f);
    fputs(", \"kernels\": [", f);
    int n = 0;
    for (int id = 0; id < GRAPH_MAX_FUNC_ID; id++) {
        if (im->func_core[id] < 0)
            continue;
        char fallback[32];
        snprintf(fallback, sizeof(fallback), "func%d", id);
        fprintf(f, "%s{\"id\": %d, \"name\": ", n++ ? ", " : "", id);
        put_str(f, im->names[id][0] ? im->names[id] : fallback);
        fprintf(f, ", \"core\": \"%s\", \"cost\": {\"ns\": %.0f}}", im->func_core[id] ? "aiv" : "aic",
                im->func_ns[id] >= 0 ? im->func_ns[id] : 1000.0);
    }
    fputs("], \"tensors\": [", f);
    n = 0;
    for (size_t b = 0; b < im->nbufs; b++) {
        const imp_buf *bf = &im->bufs[b];
        if (bf->created)
            continue;
        const imp_tensor *t = &im->tensors[bf->tensor];
        fprintf(f,
                "%s{\"name\": \"e%d\", \"dtype\": \"%s\", \"shape\": [%" PRIu64 "], \"addr\": \"%" PRIu64
                "\", \"version\": %d}",
                n++ ? ", " : "", bf->tensor, dtype_name(t->dtype), t->numel ? t->numel : 1, t->addr, t->version);
    }
    fputs("]}\n", f);
}

static void free_importer(importer *im)
{
    for (size_t i = 0; i < im->ntasks; i++) {
        free(im->tasks[i].args);
        free(im->tasks[i].edges);
        free(im->tasks[i].outs);
        free(im->tasks[i].anchored);
    }
    for (size_t i = 0; i < im->ntensors; i++) {
        free(im->tensors[i].creators);
        free(im->tensors[i].readers);
        free(im->tensors[i].made);
    }
    free(im->tid_hash);
    for (int r = 0; r < RINGS; r++)
        free(im->by_local[r]);
    free(im->tasks);
    free(im->tensors);
    free(im->bufs);
    free(im->scopes);
    free(im->ops);
    free(im);
}

int import_capture(const char *dfx_dir, FILE *out, char *err, size_t errlen)
{
    importer *im = calloc(1, sizeof(*im));
    if (!im) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    im->dir = dfx_dir;
    im->err = err;
    im->errlen = errlen;
    im->warn = stderr;
    for (int i = 0; i < GRAPH_MAX_FUNC_ID; i++)
        im->func_ns[i] = -1;
    /* scope stats first: their heads count the allocs no edge names */
    int rc = read_scope_stats(im);
    if (rc == 0)
        rc = read_deps(im);
    if (rc == 0 && im->have_stats) {
        rc = order_with_stats(im);
        if (rc != 0 && im->stats_suspect) {
            note(im, "%s (the run was fatal or dropped samples): scopes are guessed from the rings", err);
            im->nops = 0;
            im->have_stats = false;
            rc = 0;
        }
    }
    if (rc == 0 && !im->have_stats)
        rc = order_guessed(im);
    if (rc == 0)
        rc = assign_modes(im);
    if (rc == 0)
        rc = infer_buffers(im);
    if (rc == 0)
        rc = read_swimlane(im);
    if (rc == 0) {
        read_name_map(im);
        put_header(im, out);
        put_ops(im, out);
    }
    if (im->notes > IMPORT_MAX_NOTES && im->warn)
        fprintf(im->warn, "ptosim import: note: %zu more notes like these\n", im->notes - IMPORT_MAX_NOTES);
    free_importer(im);
    return rc;
}

int import_main(int argc, char **argv)
{
    if (argc != 1 || argv[0][0] == '-') {
        fputs("usage: ptosim import DFX_DIR > graph.jsonl\n"
              "  DFX_DIR: a run's dfx_outputs/ with deps.json (--enable-dep-gen); chip_swimlane_records.json\n"
              "  gives the kernel times and scope_stats/scope_stats.jsonl the scopes, when present\n",
              argc == 1 && strcmp(argv[0], "--help") == 0 ? stdout : stderr);
        return argc == 1 && strcmp(argv[0], "--help") == 0 ? EXIT_OK : EXIT_USAGE;
    }
    char err[2048];
    if (import_capture(argv[0], stdout, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptosim import: %s\n", err);
        return EXIT_GRAPH;
    }
    return EXIT_OK;
}
