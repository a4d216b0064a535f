/* perfsim.h - perfsim_: kernels priced by their own code under pto-isa's Perf-Sim. */
/* Each kernel compiled once with ptosim's harness (sim/perfsim/perfsim_harness.cpp), each distinct task
 * signature run once, both cached by content; every compile and run bounded in time. */
#ifndef PTOSIM_PERFSIM_H
#define PTOSIM_PERFSIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../../model/chip/pipe.h"

#define PERFSIM_SLOTS 48             /* args[] slots a task fills (the harness's HARNESS_SLOTS; 48/49 hold the
                                      * block's contexts, as the runtime's dispatch puts them) */
#define PERFSIM_MAX_DIMS 5           /* ChipTensor::shapes[5] */
#define PERFSIM_HZ 1850000000ULL     /* Perf-Sim's clock: kMainFrequencyHz, include/pto/costmodel/arch_config.hpp */
#define PERFSIM_KNOWN_COMMIT "995589ab" /* the pto-isa commit whose costmodel compiles and records sync events */
#define PERFSIM_MSG_MAX 1024
#define PERFSIM_JOBS_MAX 8           /* compiles at once by default, whatever the cores: each takes ~1 GB */
#define PERFSIM_TIME_LIMIT 300       /* seconds a compile or a batch of runs may take, unless told: a kernel
                                      * compiles in 6-9 s on 2 cores and runs a signature in under 1 ms */

/* One argument of a task as the kernel sees it in args[slot]. */
typedef struct perfsim_arg {
    bool used;
    bool scalar;
    uint64_t value; /* a scalar's bits */
    int dtype;      /* a tensor's element type (the runtime's DataType code) */
    int ndim;
    uint32_t shape[PERFSIM_MAX_DIMS], stride[PERFSIM_MAX_DIMS];
    uint64_t start;              /* start_offset, elements */
    uint64_t buffer_elems;       /* elements the buffer must hold: start + the view's extent */
    const unsigned char *data;   /* the view's contents (logically contiguous), NULL = unknown (zeros) */
    size_t datalen;
} perfsim_arg;

/* One distinct task signature of a kernel. */
typedef struct perfsim_sig {
    int kernel;    /* index into the kernels given to perfsim_price */
    int block_num; /* the task's SPMD blocks: block 0 of them is priced (get_block_num() reads it) */
    int nslots;    /* slots [0, nslots) */
    perfsim_arg arg[PERFSIM_SLOTS];
} perfsim_sig;

/* What Perf-Sim measured for one signature. */
typedef struct perfsim_result {
    uint64_t total;                 /* end-to-end cycles at PERFSIM_HZ */
    uint64_t instructions;          /* PTO instructions recorded */
    uint64_t sync_events;           /* set_flag / wait_flag / barrier records */
    uint64_t busy[PIPE_COUNT];      /* busy cycles per pipe at PERFSIM_HZ */
    uint64_t gm_bytes[PIPE_COUNT];  /* bytes TLOAD / TSTORE move to or from GM (MTE2, MTE3, FIXPIPE) */
} perfsim_result;

/* A kernel and its source. */
typedef struct perfsim_kernel {
    const char *name;
    const char *source; /* its .cpp (kernel_entry) */
    bool aic;           /* compiled with __DAV_CUBE__ (else __DAV_VEC__) */
    bool failed;        /* out: it did not compile or its run failed */
    char why[PERFSIM_MSG_MAX]; /* out: the compiler's first error, or what went wrong */
} perfsim_kernel;

typedef struct perfsim_opts {
    const char *pto_isa;      /* pto-isa tree (include/pto/costmodel) */
    const char *runtime_root; /* the runtime's tree: simpler_setup/incore and src/common */
    const char *cxx;          /* the C++ compiler */
    const char *cache_dir;    /* compiled kernels and results by content */
    bool shared_cache;        /* the cache may be another user's or writable by others: each entry is checked
                               * against its digest, and nothing else is asked of it */
    int jobs;                 /* compiles and runs at once, 0 = the cores online (at most PERFSIM_JOBS_MAX) */
    double time_limit;        /* seconds a compile or a batch of runs may take, 0 = PERFSIM_TIME_LIMIT */
    int progress;             /* what stderr is told of the work: a progress_mode (sim/cli/progress.h) */
} perfsim_opts;

/* Fills the unset fields of o: pto_isa from $PTO_ISA_ROOT, runtime_root from $SIMPLER_ROOT, cxx from $CXX
 * (else clang++-19 or clang++ on the PATH), cache_dir from $XDG_CACHE_HOME or ~/.cache (ptosim/perf-sim),
 * jobs from the cores online, time_limit. Checks that the trees hold what the harness includes. Returns 0, or
 * -1 with why in err. */
int perfsim_resolve(perfsim_opts *o, char *err, size_t errlen);

/* Prices every signature: compiles each kernel a signature names (once, in parallel, cached), runs its
 * signatures, and fills res[i] for sigs[i]. A kernel that does not compile, or whose compile or run fails or
 * passes the time limit, is marked failed with the reason and its signatures' results left zero. A pto-isa
 * tree that cannot build the harness, or that records no sync events for a kernel with set_flag calls, fails
 * the whole call naming PERFSIM_KNOWN_COMMIT; so does a cache someone else can write (unless shared_cache) or
 * an entry that is not what its name says. The compiles and runs are in their own process groups, killed with
 * ptosim (PR_SET_PDEATHSIG) and, on SIGINT or SIGTERM, by it: the call then fails ("interrupted by SIGTERM")
 * and intr_signal() names the signal. Returns 0, or -1 with why in err. */
int perfsim_price(const perfsim_opts *o, perfsim_kernel *kernels, int nkernels, const perfsim_sig *sigs,
                  size_t nsigs, perfsim_result *res, char *err, size_t errlen);

/* Looks up what perfsim_price would give, compiling and running nothing: a kernel's binary by its compile's key
 * and manifest, its signatures' results by the binary. A kernel whose source is NULL is the one the last
 * pricing of a kernel of its name and core type used (the cache records it). have[i] says res[i] was found. A
 * cache that is not there is not made (nothing is found); one that cannot be trusted is refused as
 * perfsim_price refuses it. Returns 0, or -1 with why in err. */
int perfsim_lookup(const perfsim_opts *o, const perfsim_kernel *kernels, int nkernels, const perfsim_sig *sigs,
                   size_t nsigs, perfsim_result *res, bool *have, char *err, size_t errlen);

/* ---- the readers of what a run and the cache hold (exposed for the fuzz target) ---- */

/* One result line "r ID TOTAL INSTR SYNC SCALAR MTE2 MTE1 CUBE FIXP VEC MTE3 GM_MTE2 GM_MTE3 GM_FIXP" of
 * line[0, len): unsigned decimal numbers of 64 bits, nothing else. Returns 0, or -1. */
int perfsim_parse_result(const char *line, size_t len, size_t *id, perfsim_result *r);

/* The line perfsim_parse_result reads, with its newline; snprintf's return. */
int perfsim_format_result(char *out, size_t outlen, size_t id, const perfsim_result *r);

/* A batch's results file: each line of a signature id < nsigs of kernel fills res[id] and have[id]; any other
 * line is skipped. Returns the lines taken. */
size_t perfsim_read_batch(const char *text, size_t len, const perfsim_sig *sigs, size_t nsigs, int kernel,
                          perfsim_result *res, bool *have);

/* A cache entry's header for payload[0, len) under kind ("bin", "dep", "res") and key: "ptosim-perfsim-2 KIND
 * KEY SIZE SHA256\n". Returns its length, or -1 when out is too small. */
int perfsim_entry_header(char *out, size_t outlen, const char *kind, const char *key, const void *payload,
                         size_t len);

/* Checks text[0, len) is the entry kind/key: its header, its size and its content's SHA-256. Returns 0 with
 * the payload's offset, or -1 with why (a static string). */
int perfsim_entry_check(const char *text, size_t len, const char *kind, const char *key, size_t *payload,
                        const char **why);

/* A cached result file (res/KEY): the entry checked, then its one result line. Returns 0, or -1 with why. */
int perfsim_read_cached(const char *text, size_t len, const char *key, perfsim_result *r, const char **why);

/* The harness's C++ source (generated from sim/perfsim/perfsim_harness.cpp at build time). */
extern const char perfsim_harness_src[];

#endif
