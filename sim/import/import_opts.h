/* import_opts.h - import_: the options of `ptosim import`. */
/* Apart from import.h so the import's shared state (import_state.h) can hold them without including the
 * command's header. */
#ifndef PTOSIM_IMPORT_OPTS_H
#define PTOSIM_IMPORT_OPTS_H

#include <stdbool.h>
#include <stdio.h>

/* Where an imported graph's kernel times come from. */
typedef enum {
    IMPORT_COSTS_AUTO,     /* the swimlane's on silicon (72 cores); the model's on a simulator or without one */
    IMPORT_COSTS_SWIMLANE, /* the medians of the capture's swimlane times */
    IMPORT_COSTS_MODEL,    /* pipe forms derived from each kernel's args (kernel_cost.h) */
    IMPORT_COSTS_PERFSIM,  /* each task signature run through its kernel's code under Perf-Sim (perfsim.h) */
} import_costs;

/* Options of an import. */
typedef struct import_opts {
    import_costs costs;     /* where kernel times come from */
    const char *costs_file; /* a table of kernel costs that overrides the model (JSON or CSV), NULL = none */
    /* --costs perf-sim */
    const char **kernel_args;  /* "NAME=FILE" (--kernel) */
    int nkernel_args;
    const char *kernels_file;  /* a kernel table: JSON, or a runtime test .py (--kernels) */
    const char *values_file;   /* scalars and inputs' contents per kernel (--values), NULL = none */
    const char *pto_isa;       /* --pto-isa, NULL = $PTO_ISA_ROOT */
    const char *runtime_root;  /* --runtime-include, NULL = $SIMPLER_ROOT */
    const char *cache_dir;     /* --cache, NULL = ~/.cache/ptosim/perf-sim */
    bool shared_cache;         /* --shared-cache: a cache other users write, each entry checked */
    double time_limit;         /* --time-limit: seconds a compile or a batch of runs may take, 0 = default */
    int jobs;                  /* -j, 0 = the cores online */
    bool fallback_model;       /* --fallback model: a kernel Perf-Sim cannot price keeps the model's cost */
    int progress;              /* what stderr is told of Perf-Sim's work: a progress_mode (sim/cli/progress.h) */
    bool hint;                 /* say on stderr when --costs perf-sim could price this capture (not --quiet) */
    bool checked; /* deps.json and the swimlane were checked by sim/jstream just before (conform):
                     their lists are found without checking them again */
    FILE *warn;   /* where notes and warnings go, NULL = stderr */
} import_opts;

#endif
