/* import_state.h - imp_: the state `ptosim import` builds from a capture, and its shared helpers. */
/* The bottom of the import: import.c (the command) and import_read.c, import_graph.c, import_heap.c,
 * import_cost.c and import_perfsim.c (the steps it calls) all work on one importer; this module calls none
 * of them. The option types come from import_opts.h, not import.h, so nothing here includes the command. */
#ifndef PTOSIM_IMPORT_STATE_H
#define PTOSIM_IMPORT_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../model/base/readall.h"
#include "../../model/graph/graph_reader.h"
#include "../../model/chip/kernel_cost.h"
#include "import_opts.h"

#define RINGS 4                                 /* PTO2_MAX_RING_DEPTH */
#define MAX_SCOPE_DEPTH 64                      /* PTO2_MAX_SCOPE_DEPTH, the root scope included */
#define DEFAULT_RING_HEAP (256ULL << 20)        /* the runtime's default heap per ring */
#define GUESSED_SCOPE_TASKS 1024                /* guessed scopes close after this many tasks */
#define UNCONSUMED_SLOT_BYTES HEAP_OUTPUT_ALIGN /* least heap an output nobody read can take */
#define IMPORT_MAX_NOTES 20                     /* notes printed; the rest are counted */

enum { A_IN, A_OUT, A_INOUT, A_OUT_EXISTING, A_NO_DEP };

typedef struct imp_arg {
    int type;        /* A_* */
    int dtype;       /* the view's dtype */
    bool manual_dep; /* inferred: the tensor takes no part in TensorMap lookups */
    int tensor;      /* tensors[] index of the view, -1 for OUTPUT */
    int buf;         /* the buffer it names (bufs[] index), -1 until resolved */
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
    int nslots; /* OUTPUT args (submits) */
    int *outs;  /* created buffers in slot order */
    size_t nouts, outcap;
    size_t pos;    /* index in the op order */
    int *anchored; /* tensors it made: creator edges' first, then those its readers' preds imply */
    size_t nanchored, anchorcap;
    size_t nedge_anchored;     /* ... how many of them creator edges name */
    double ns;                 /* median execution time, < 0 = not seen */
    kcost_status model_status; /* its pipe form derived from its args (single-kernel tasks) */
    uint32_t model;            /* ... when not KCOST_UNKNOWN: its index in importer.models (imp_task_model) */
    bool own_cost;             /* the graph gives it its own cost (its args differ from its kernel's) */
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
    int *made; /* created buffers holding it, in creation order */
    size_t nmade, madecap;
} imp_tensor;

/* A buffer of the graph file: an external tensor or one created output. */
typedef struct imp_buf {
    bool created;
    int tensor;          /* tensors[] record, -1 = an output nobody read */
    size_t task;         /* creator, created only */
    uint64_t bytes;      /* heap bytes, created only */
    int dtype;           /* created: its dtype (its readers'), INT8 for an output nobody read */
    uint64_t numel;      /* created: its elements of that dtype (its storage) */
    const imp_arg *view; /* its largest view an arg names (NULL: no task reads it) */
    uint64_t view_bytes; /* ... and the bytes that view covers */
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
    size_t task;      /* OP_TASK */
    bool manual;      /* OP_BEGIN */
    const char *site; /* OP_BEGIN: the capture's site, NULL for a guessed scope */
} imp_op;

/* A kernel's cost in the graph file and where it came from. */
typedef struct imp_kernel {
    bool used;                 /* some task runs it */
    bool aic;                  /* its core type */
    kcost_status status;       /* the model's verdict on its most common args */
    pipe_kernel model;         /* the pipe form of its most common args */
    char note[KCOST_NOTE_MAX]; /* how the model found it (or why it could not) */
    char *table;               /* its cost from a --costs table (JSON text, malloc'd), NULL = none */
    long table_line;           /* where the table gave it */
} imp_kernel;

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
    size_t peak_window; /* the largest window a file's stream held (tests: flat in the capture's size) */
    bool checked;       /* import_opts.checked */
    imp_buf *bufs;
    size_t nbufs, bufcap;
    imp_scope *scopes;
    size_t nscopes, scopecap;
    bool have_stats;            /* scope stats with samples */
    bool stats_suspect;         /* ... of a fatal run, or with samples dropped */
    uint64_t cap[3][RINGS];     /* the capture's task window, heap and dep pool per ring */
    uint64_t ring_count[RINGS]; /* tasks each ring handed out */
    long *by_local[RINGS];      /* ring -> local id -> tasks[] index */
    imp_op *ops;
    size_t nops, opcap;
    char names[GRAPH_MAX_FUNC_ID][GRAPH_NAME_MAX]; /* func id -> kernel name ("" = unknown) */
    char graph_name[GRAPH_NAME_MAX], orchestrator[GRAPH_NAME_MAX];
    double func_ns[GRAPH_MAX_FUNC_ID]; /* median per func id, < 0 = none */
    int func_core[GRAPH_MAX_FUNC_ID];  /* 0 AIC, 1 AIV, -1 unused */
    FILE *warn;                        /* notes on what a capture could not tell */
    size_t notes;                      /* notes so far (past IMPORT_MAX_NOTES only counted) */
    import_costs costs;                /* where kernel times come from (resolved: never AUTO) */
    int swim_cores;                    /* the swimlane's metadata.num_cores, 0 = no swimlane */
    imp_kernel *kernels;               /* per func id: its cost in the graph file */
    pipe_set models;                   /* the tasks' distinct pipe forms (most tasks share a few) */
    imp_arg *arg_pool;                 /* every task's args, when deps.json was read in one pass (else each */
    imp_edge *edge_pool;               /* ... task's own), and every task's edges likewise */
    char *block;                       /* the small lists' block being filled (imp_grow) */
    size_t block_used, block_size;
    void **blocks; /* every block, freed with the importer */
    size_t nblocks, blockcap;
} importer;

/* Defines static void NAME(T *v, size_t n, int (*cmp)(const void *, const void *)): v sorted as glibc's
 * qsort(v, n, sizeof(T), cmp) sorts it, where a comes after b exactly when AFTER(a, b) (cmp(a, b) > 0) and
 * AFTER orders the records (no NaN): glibc's qsort is a merge sort, which keeps equal records in their order,
 * and so is this one (runs already in order kept as they are, short ones by insertion), without a call per
 * comparison; qsort itself when its buffer cannot be had (as glibc's then sorts in place). The sorts of an
 * import's tens of thousands of records were a tenth of it. */
#define IMP_STABLE_SORT(NAME, T, AFTER)                                                                      \
    static void NAME##_into(T *v, T *out, size_t n, bool into);                                              \
    /* v[0..n) sorted, into out (into) or in place (out is then the scratch) */                              \
    static void NAME##_into(T *v, T *out, size_t n, bool into)                                               \
    {                                                                                                        \
        if (n <= 12) {                                                                                       \
            T *d = into ? out : v;                                                                           \
            if (into)                                                                                        \
                memcpy(out, v, n * sizeof(*v));                                                              \
            for (size_t i = 1; i < n; i++) {                                                                 \
                T x = d[i];                                                                                  \
                size_t j = i;                                                                                \
                for (; j > 0 && AFTER(&d[j - 1], &x); j--)                                                   \
                    d[j] = d[j - 1];                                                                         \
                d[j] = x;                                                                                    \
            }                                                                                                \
            return;                                                                                          \
        }                                                                                                    \
        size_t n1 = n / 2, n2 = n - n1;                                                                      \
        /* the halves sorted where the merge reads them: the other buffer */                                 \
        NAME##_into(v, out, n1, !into);                                                                      \
        NAME##_into(v + n1, out + n1, n2, !into);                                                            \
        const T *b1 = into ? v : out, *b2 = b1 + n1;                                                         \
        T *t = into ? out : v;                                                                               \
        if (!AFTER(&b1[n1 - 1], &b2[0])) { /* in order already */                                            \
            memcpy(t, b1, n * sizeof(*t));                                                                   \
            return;                                                                                          \
        }                                                                                                    \
        while (n1 > 0 && n2 > 0) {                                                                           \
            if (!(AFTER(b1, b2))) {                                                                          \
                *t++ = *b1++;                                                                                \
                n1--;                                                                                        \
            } else {                                                                                         \
                *t++ = *b2++;                                                                                \
                n2--;                                                                                        \
            }                                                                                                \
        }                                                                                                    \
        memcpy(t, n1 ? b1 : b2, (n1 ? n1 : n2) * sizeof(*t));                                                \
    }                                                                                                        \
    static void NAME(T *v, size_t n, int (*cmp)(const void *, const void *))                                 \
    {                                                                                                        \
        if (n <= 1)                                                                                          \
            return;                                                                                          \
        T *tmp = malloc(n * sizeof(*tmp));                                                                   \
        if (!tmp) {                                                                                          \
            qsort(v, n, sizeof(*v), cmp);                                                                    \
            return;                                                                                          \
        }                                                                                                    \
        NAME##_into(v, tmp, n, false);                                                                       \
        free(tmp);                                                                                           \
    }

/* Fails with "DIR/FILE: message" in im->err; returns -1. */
int imp_fail(importer *im, const char *file, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Fails with "out of memory"; returns -1. */
int imp_oom(importer *im);

/* A note on stderr about something the capture left open (at most IMPORT_MAX_NOTES). */
void imp_note(importer *im, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A task's pipe form (t->model_status not KCOST_UNKNOWN). */
static inline const pipe_kernel *imp_task_model(const importer *im, const imp_task *t)
{
    return pipe_set_kernel(&im->models, t->model);
}

/* vec_grow_from for the importer's small lists (a task's outputs, a tensor's creators, ...): room for one
 * more of elem bytes after len in *buf (*cap of them), from blocks freed with the importer (a malloc and a
 * free for each of a hundred thousand lists cost more than what they hold). 0, or -1 when out of memory. */
int imp_grow(importer *im, void **buf, size_t *cap, size_t len, size_t elem, size_t first);

/* Frees the blocks of imp_grow. */
void imp_free_blocks(importer *im);

/* Appends a buffer; returns its index, or -1 when out of memory. */
int imp_add_buf(importer *im, imp_buf b);

/* Writes s as a JSON string. */
void imp_put_str(FILE *f, const char *s);

/* The capture's file DIR/name, a file of kind, read whole (NUL-terminated), NULL with errno (EFBIG: past the
 * kind's cap, said in im->err). */
char *imp_slurp(importer *im, const char *name, readall_kind kind, size_t *len);

/* Parses text strictly (as a graph); NULL after imp_fail() naming file, line and column. */
struct cJSON *imp_parse_json(importer *im, const char *file, const char *text, size_t len, long line);

/* The ring of a task id (its high 32 bits), or RINGS when they name none: an int of the high bits
 * themselves would be negative from bit 63 on, and pass every "< RINGS" check. */
static inline int imp_ring_of(uint64_t id)
{
    uint64_t r = id >> 32;
    return r < RINGS ? (int)r : RINGS;
}

/* The tasks[] index of a task id, or -1 (inline: the edge reader asks it for every edge). */
static inline long imp_find_task(const importer *im, uint64_t id)
{
    int r = imp_ring_of(id);
    uint64_t local = id & 0xFFFFFFFFu;
    if (r < RINGS && im->by_local[r] && local < im->ring_count[r])
        return im->by_local[r][local];
    return -1;
}

#endif
