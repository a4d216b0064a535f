/* pmu.h - the PMU counters the AICPU reads after every FIN, and pmu.csv (model/README.md §16.4). */
#ifndef PTOSIM_PMU_H
#define PTOSIM_PMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pipe.h"
#include "../base/write_buffer.h"

#define PMU_SLOTS 8 /* a2a3 (DAV_2201) programmable counters */

/* One AICore execution as the PMU saw it. */
typedef struct pmu_exec {
    int thread_id;         /* scheduler thread that owns the core */
    int core_id;           /* logical core id */
    uint64_t task_id;      /* full task id */
    uint32_t func_id;      /* kernel of the subslot that ran */
    int core_type;         /* 0 = AIC, 1 = AIV */
    uint64_t total_cycles; /* kernel window in AICore cycles */
    const pipe_kernel *pk; /* the kernel's pipe model, NULL for a flat cost */
    const pipe_result *pr; /* its result on an idle memory system */
    double stretch;        /* kernel window / its idle-memory duration (>= 1 under HBM contention) */
} pmu_exec;

/* Is t an a2a3 event type (1, 2, 4-8)? */
bool pmu_type_valid(int t);

/* Number of named counter columns of event type t (0 if invalid). */
int pmu_ncolumns(int t);

/* Name of counter column i of event type t. */
const char *pmu_column(int t, int i);

/* Writes the pmu.csv header for event type t. */
void pmu_write_header(FILE *f, int t);

/* The counter columns of event type t for one execution, derived from the
 * pipe model: busy cycles per pipe (GM pipes stretched by contention),
 * execution counts from the work, request counts from bytes at
 * bytes_per_req. Unmodelled counters (icache, bank conflicts, L2 hits) are 0,
 * and so is every counter of a flat-cost kernel. Values saturate at 2^32-1. */
void pmu_counters(int t, const pmu_exec *e, uint64_t bytes_per_req, uint32_t out[PMU_SLOTS]);

/* Writes one pmu.csv row. */
void pmu_write_row(wbuf *f, int t, const pmu_exec *e, uint64_t bytes_per_req);

/* pmu.csv rows collected during a run (in a temporary file, so memory stays flat). */
typedef struct pmu_log {
    int type;               /* event type */
    uint64_t bytes_per_req; /* for request counters */
    wbuf rows;              /* rows so far */
    uint64_t n;             /* how many */
} pmu_log;

/* Starts an empty log for event type t. Returns 0, or -1 with a message in err. */
int pmu_log_init(pmu_log *l, int t, uint64_t bytes_per_req, char *err, size_t errlen);

/* Appends one execution's row. */
void pmu_log_add(pmu_log *l, const pmu_exec *e);

/* Writes pmu.csv at path: the header and every row. Writes nothing (and
 * sets *written to 0) when there are no rows, as the runtime does. Returns
 * 0, or -1 with a message in err. */
int pmu_log_write(pmu_log *l, const char *path, int *written, char *err, size_t errlen);

void pmu_log_free(pmu_log *l);

#endif
