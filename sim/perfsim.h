/* perfsim.h - perfsim_: kernels priced by their own code under pto-isa's Perf-Sim. */
/* Each kernel compiled once with ptosim's harness (sim/perfsim_harness.cpp), each distinct task
 * signature run once, both cached by content. */
#ifndef PTOSIM_PERFSIM_H
#define PTOSIM_PERFSIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../model/chip/pipe.h"

#define PERFSIM_SLOTS 48             /* args[] slots a task fills (the harness's HARNESS_SLOTS; 48/49 hold the
                                      * block's contexts, as the runtime's dispatch puts them) */
#define PERFSIM_MAX_DIMS 5           /* ChipTensor::shapes[5] */
#define PERFSIM_HZ 1850000000ULL     /* Perf-Sim's clock: kMainFrequencyHz, include/pto/costmodel/arch_config.hpp */
#define PERFSIM_KNOWN_COMMIT "995589ab" /* the pto-isa commit whose costmodel compiles and records sync events */
#define PERFSIM_MSG_MAX 1024

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
    int jobs;                 /* compiles and runs at once */
    bool progress;            /* a progress line on stderr */
} perfsim_opts;

/* Fills the unset fields of o: pto_isa from $PTO_ISA_ROOT, runtime_root from $SIMPLER_ROOT, cxx from $CXX
 * (else clang++-19 or clang++ on the PATH), cache_dir from $XDG_CACHE_HOME or ~/.cache (ptosim/perf-sim),
 * jobs from the cores online. Checks that the trees hold what the harness includes. Returns 0, or -1 with
 * why in err. */
int perfsim_resolve(perfsim_opts *o, char *err, size_t errlen);

/* Prices every signature: compiles each kernel a signature names (once, in parallel, cached), runs its
 * signatures, and fills res[i] for sigs[i]. A kernel that does not compile, or whose run fails, is marked
 * failed with the reason and its signatures' results left zero. A pto-isa tree that cannot build the harness,
 * or that records no sync events for a kernel with set_flag calls, fails the whole call naming
 * PERFSIM_KNOWN_COMMIT. Returns 0, or -1 with why in err. */
int perfsim_price(const perfsim_opts *o, perfsim_kernel *kernels, int nkernels, const perfsim_sig *sigs,
                  size_t nsigs, perfsim_result *res, char *err, size_t errlen);

/* The harness's C++ source (generated from sim/perfsim_harness.cpp at build time). */
extern const char perfsim_harness_src[];

#endif
