/* pipe.h - the AICore pipe model: a kernel as N-buffered tiles flowing through its pipes. */
#ifndef PTOSIM_PIPE_H
#define PTOSIM_PIPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PIPE_UB_BYTES (192u * 1024)            /* AIV unified buffer (model/README.md §10.3) */
#define PIPE_L1_BYTES (512u * 1024)            /* AIC L1 */
#define GRAPH_MAX_TILES 1000000                /* tiles of one kernel */
#define GRAPH_MAX_PIPE_CYCLES 1000000000000ULL /* cycles per tile of one pipe */
#define GRAPH_MAX_PIPE_BYTES (1ULL << 40)      /* bytes or elements per tile */
#define GRAPH_MAX_CUBE_DIM (1u << 20)          /* m, n or k of one tile's multiply */

/* Core type of a kernel: an AICore is a cube core (AIC) or a vector core (AIV). */
typedef enum { CORE_AIC = 0, CORE_AIV = 1 } core_type;

/* The pipes of an AICore (model/README.md §10.1): AIC = scalar, MTE1, MTE2,
 * cube, FIXPIPE; AIV = scalar, MTE2, MTE3, vector. */
typedef enum {
    PIPE_SCALAR,
    PIPE_MTE1,    /* L1 -> L0A/L0B (AIC) */
    PIPE_MTE2,    /* GM -> L1 (AIC) or UB (AIV) */
    PIPE_MTE3,    /* UB -> GM (AIV) */
    PIPE_CUBE,    /* matrix unit (AIC) */
    PIPE_VECTOR,  /* vector unit (AIV) */
    PIPE_FIXPIPE, /* L0C -> GM (AIC) */
    PIPE_COUNT
} pipe_id;

/* What one tile asks of each pipe, as written in the graph file. A pipe's
 * time per tile is its explicit cycles plus what its work costs at the
 * platform's rates (pipe_tile_cycles). */
typedef struct pipe_work {
    uint64_t cycles[PIPE_COUNT]; /* explicit cycles per tile */
    uint64_t bytes[PIPE_COUNT];  /* bytes per tile moved by MTE1, MTE2, MTE3, FIXPIPE */
    uint64_t mnk[3];             /* cube: one m x n x k matrix multiply per tile (0 = none) */
    uint32_t cube_elem_bytes;    /* cube operand element size: 2 (fp16/bf16) or 1 (int8) */
    uint64_t vec_elems;          /* vector: elements processed per tile */
    uint32_t vec_elem_bytes;     /* vector element size (2 = 128 fp16 lanes per cycle) */
    double
        gib_per_s[PIPE_COUNT]; /* a pipe's own transfer rate in GiB/s (pto-isa's unit), 0 = the platform's */
    uint64_t mte2_reread;      /* bytes per tile MTE2 reads again (a panel re-read): they take MTE2's
                                * time but come from the L2, not HBM, so they are no GM traffic */
} pipe_work;

/* A kernel in the pipe model. */
typedef struct pipe_kernel {
    bool aic;          /* AIC pipes (else AIV) */
    uint32_t tiles;    /* tiles processed, >= 1 */
    uint32_t buffers;  /* N-buffering depth between consecutive pipes, >= 1 */
    bool scalar_given; /* the graph gave scalar cycles (else the platform default applies) */
    bool measured;     /* a measured profile of one block (Perf-Sim): total_cycles end to end, work.cycles[p]
                        * each pipe's busy cycles and work.bytes[p] its GM bytes, all at measured_hz; no tiles */
    uint64_t measured_hz;     /* the clock the measured cycles count (Perf-Sim: 1.85 GHz) */
    uint64_t measured_cycles; /* the measured kernel's end-to-end cycles at measured_hz */
    pipe_work work;           /* per tile (measured: the whole block) */
} pipe_kernel;

/* Per-core rates of the platform (model/README.md §10.1, §12.1). */
typedef struct pipe_rates {
    double gm_bytes_per_cycle;       /* MTE2/MTE3/FIXPIPE ceiling per core (32) */
    double mte1_bytes_per_cycle;     /* L1 -> L0 (512) */
    double vec_bytes_per_cycle;      /* vector unit: 128 fp16 lanes = 256 B */
    uint32_t cube_m, cube_n;         /* cube step per cycle: 16 x 16 ... */
    uint32_t cube_k_bytes;           /* ... x 32 bytes of k (16 fp16 or 32 int8) */
    uint64_t scalar_cycles_per_tile; /* default scalar issue overhead per tile */
    uint64_t clock_hz;               /* AICore clock: measured profiles are converted to it */
} pipe_rates;

/* A kernel's execution on an otherwise idle memory system. */
typedef struct pipe_result {
    uint64_t total_cycles;            /* first issue to last pipe done */
    uint64_t busy_cycles[PIPE_COUNT]; /* cycles each pipe was busy */
    uint64_t gm_bytes;                /* GM traffic (MTE2 + MTE3 + FIXPIPE), all tiles */
    uint64_t bytes[PIPE_COUNT];       /* bytes per pipe, all tiles */
    pipe_id busiest;                  /* pipe with the most busy cycles */
} pipe_result;

/* Name of a pipe as in the PMU columns: "scalar", "mte1", "mte2", "mte3",
 * "cube", "vector", "fixpipe". */
const char *pipe_name(pipe_id p);

/* True when core type aic (else AIV) has pipe p. */
bool pipe_on_core(pipe_id p, bool aic);

/* True when pipe p moves data to or from GM (and so shares HBM bandwidth). */
bool pipe_is_gm(pipe_id p);

/* How a kernel's operations are known (its arithmetic intensity, model/README.md §10.6). */
typedef enum {
    PIPE_OPS_COUNTED,  /* from its work: the cube's m x n x k, the vector unit's elements (0 when no work) */
    PIPE_OPS_MEASURED, /* a measured profile: busy cycles and GM bytes, no operation count */
    PIPE_OPS_CYCLES,   /* its compute pipe given in cycles only: no operation count */
} pipe_ops_kind;

/* The operations of one block of k, all tiles: cube FLOPs (2 m n k a tile) on an AIC, vector element
 * operations (elements a tile) on an AIV, in *ops; and in *per_cycle what one core of that type does at
 * most in a cycle at k's element size (cube: 2 cube_m cube_n (cube_k_bytes / element size); vector:
 * vec_bytes_per_cycle / element size). Both 0 unless PIPE_OPS_COUNTED. */
pipe_ops_kind pipe_ops(const pipe_kernel *k, const pipe_rates *r, double *ops, double *per_cycle);

/* Cycles each pipe spends on one tile at the given rates (rounded up). */
void pipe_tile_cycles(const pipe_kernel *k, const pipe_rates *r, uint64_t out[PIPE_COUNT]);

/* Cycles c counted at from_hz, as whole cycles at to_hz (rounded to nearest). */
uint64_t pipe_convert_cycles(uint64_t c, uint64_t from_hz, uint64_t to_hz);

/* Runs the tiles through the pipes in dataflow order (AIV: scalar, MTE2,
 * vector, MTE3; AIC: scalar, MTE2, MTE1, cube, FIXPIPE; pipes with no work
 * are skipped). A pipe starts tile i once it finished tile i-1, the previous
 * pipe finished tile i, and the next pipe finished tile i-N (its buffer is
 * free). One tile is the serial sum; many are paced by the slowest pipe.
 * A measured kernel is not run: its profile is converted to the rates' clock. */
void pipe_run(const pipe_kernel *k, const pipe_rates *r, pipe_result *out);

/* Distinct pipe-form costs of a run and their results, so a kernel (or a
 * task's cost override) is run through the pipes once. Index 0 = none. */
/* The distinct kernels seen, each with an index >= 1 (0: none): a run's tasks, an import's, share a few. */
typedef struct pipe_set {
    pipe_kernel *keys; /* [1..n) */
    size_t n, cap;     /* entries in use (index 0 included), allocated */
    uint32_t *slots;   /* open-addressing hash of indexes, 0 = empty */
    size_t nslots;     /* a power of two, at least twice n */
} pipe_set;

/* Starts an empty set. Returns 0, or -1 when out of memory. */
int pipe_set_init(pipe_set *s);

void pipe_set_free(pipe_set *s);

/* Index of k, added when new (k compared byte for byte: zero-filled beyond its fields, as kcost_derive and
 * the graph reader make it). Returns 0 when out of memory. */
uint32_t pipe_set_put(pipe_set *s, const pipe_kernel *k);

/* The kernel at index ix (>= 1). */
static inline const pipe_kernel *pipe_set_kernel(const pipe_set *s, uint32_t ix)
{
    return &s->keys[ix];
}

typedef struct pipe_table {
    pipe_rates rates;     /* the platform's */
    pipe_set set;         /* the kernels */
    pipe_result *results; /* [1..set.n): each kernel's run through the pipes */
    size_t rcap;          /* results allocated */
    uint64_t *scaled;     /* pipe_table_scaled's copies: open-addressing keys (ix << 32 | ppm), 0 = empty */
    uint32_t *scaled_ix;  /* ... and the copy's index for each key */
    size_t nscaled, scaled_slots; /* keys in use, slots (a power of two, 0 = none yet) */
} pipe_table;

/* Starts an empty table. Returns 0, or -1 when out of memory. */
int pipe_table_init(pipe_table *t, const pipe_rates *r);

void pipe_table_free(pipe_table *t);

/* Index of k's result, running it through the pipes the first time it is
 * seen. k must be zero-filled beyond its fields (as the graph reader makes
 * it). Returns 0 when out of memory. */
uint32_t pipe_table_get(pipe_table *t, const pipe_kernel *k);

/* A factor on a kernel's time in millionths (--kernel-scale: 900000 = 0.9): v x ppm / 10^6, rounded to the
 * nearest whole unit (halves up), exact in 128 bits. */
uint64_t pipe_scale(uint64_t v, uint32_t ppm);

/* The index of a copy of kernel ix (>= 1) whose result is ix's with the time F = ppm / 10^6 times as long: the
 * end-to-end and every pipe's busy cycles scaled as a whole (pipe_scale), the bytes as they are. Made once
 * per (ix, ppm); the copy's kernel is ix's (pipe_table_kernel), not found by pipe_table_get. Returns ix for
 * ppm 1000000, 0 when out of memory. */
uint32_t pipe_table_scaled(pipe_table *t, uint32_t ix, uint32_t ppm);

/* The result at index ix (>= 1). */
static inline const pipe_result *pipe_table_result(const pipe_table *t, uint32_t ix)
{
    return &t->results[ix];
}

/* The kernel at index ix (>= 1). */
static inline const pipe_kernel *pipe_table_kernel(const pipe_table *t, uint32_t ix)
{
    return pipe_set_kernel(&t->set, ix);
}

#endif
