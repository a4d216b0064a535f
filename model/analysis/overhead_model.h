/* overhead_model.h - ohm_: the runtime's scheduler-overhead model of a run. */
/* hw-native-sys/simpler docs/dfx/sched-overhead-model.md, computed from a run's AICore executions and its
 * dependency graph. */
#ifndef PTOSIM_OVERHEAD_MODEL_H
#define PTOSIM_OVERHEAD_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "critical_path.h"
#include "exec_log.h"

#define OHM_PCTS 7 /* percentiles of a distribution: P10 P25 P50 P75 P90 P95 P99 */

/* A distribution of microsecond values, as sched_overhead_analysis prints
 * them: percentile p is the value at index min(n p / 100, n - 1) of the
 * sorted list. */
typedef struct ohm_dist {
    uint64_t n;            /* values */
    double pct[OHM_PCTS];  /* P10 P25 P50 P75 P90 P95 P99 */
    double max, mean, sum; /* of the values */
} ohm_dist;

/* One core type's figures. */
typedef struct ohm_engine {
    bool present;             /* some execution ran on this type */
    int cores;                /* cores of the type that ran an execution (k) */
    double overhead_us;       /* an idle core and a ready, undispatched task of the type */
    double sw_min_us;         /* aicore switch per core: least, mean and most */
    double sw_mean_us;        /* ... */
    double sw_max_us;         /* ... */
    uint64_t sw_events;       /* switches */
    double sw_overhead_us;    /* switch time while the type had ready, undispatched work */
    double sw_independent_us; /* ... and while it had none */
} ohm_engine;

/* One core's gaps between consecutive executions. */
typedef struct ohm_core_gaps {
    int32_t core;      /* core id */
    int32_t aiv;       /* its type */
    uint64_t switches; /* gaps whose next execution was dispatched before the previous ended */
    double switch_us;  /* ... their length */
    uint64_t waits;    /* the other gaps: the core sat idle */
    double wait_us;    /* ... their length */
} ohm_core_gaps;

/* The model's figures for one run. Times in microseconds. */
typedef struct ohm_result {
    bool computed;         /* false: too many executions, or none */
    uint64_t executions;   /* AICore executions */
    uint64_t tasks;        /* distinct tasks among them */
    double window_us;      /* first start to last end */
    ohm_engine eng[2];     /* [0] AIC, [1] AIV */
    double all_us;         /* every present engine is overhead */
    double has_us;         /* every engine with ready work is overhead */
    double bound_lo_us;    /* makespan switch bound: least switch total of any core */
    double bound_hi_us;    /* ... the sum over engines of their least */
    ohm_dist head;         /* per execution: min(start - dispatch, start - previous end on the core), >= 0 */
    ohm_dist tail;         /* per execution: finish - end, >= 0 */
    ohm_dist steady;       /* switches but each core's first: next start - previous end */
    ohm_dist prev_tail;    /* ... their receive - previous end (record write-back and loop-around) */
    ohm_dist setup;        /* ... their start - receive (payload invalidate and ACK) */
    ohm_dist first_switch; /* each core's first switch (cold) */
    ohm_dist wait;         /* wait gaps */
    ohm_core_gaps *cores;  /* per core that ran an execution, by core id */
    int ncores;
    int cp_hops;        /* critical path: producer -> consumer hops */
    double cp_span_us;  /* its first start to the final task's finish */
    double cp_exec_us;  /* kernel time on it */
    double cp_sched_us; /* scheduler-injected: producer end -> consumer start, and the root's head */
    double cp_other_us; /* what neither explains */
    cpath_result tool;  /* what the runtime's critical_path tool computes (a different path: model/analysis/critical_path.h) */
    uint64_t tick_hz;   /* the counter the tool's ticks count */
} ohm_result;

/* What a scheduler-injected share of the makespan-determining path above 100 % means, said wherever one is
 * printed: the walk adds the path's first task's head (start - dispatch, as sched_overhead_analysis does),
 * which comes before the first start the span is measured from. True when the share is above 100 %. */
#define OHM_CP_OVER_100                                                                                      \
    "scheduler-injected above 100%: it includes the first task's wait from its dispatch to its start, "      \
    "which comes before the path's span, and that wait is longer than the whole path"
bool ohm_cp_over_100(double span_us, double sched_us);

/* One step of the model's sweep over the window: the state from t on, until
 * the next step. These are the lines the overhead figures integrate. */
typedef struct ohm_step {
    int64_t t;           /* ticks */
    int32_t running[2];  /* executions running per engine, [0] AIC, [1] AIV */
    int32_t ready[2];    /* ready, undispatched tasks per engine (a MIX task counts for both) */
    uint8_t overhead[2]; /* the engine is overhead: one of its cores idle while it has ready work */
    uint8_t all;         /* every present engine is overhead */
    uint8_t has;         /* every engine with ready work is overhead */
} ohm_step;

/* The model's step function over the window (first start to last end), one
 * step per change, the last at the window's end with nothing running. The
 * caller frees *steps. present[ty] says which engines ran an execution. A
 * dropped or empty log gives no step. Returns 0, or -1 when out of memory.
 * Its task table and sweep are kept for an ohm_compute of the same log while
 * the log is unchanged (its stamp): a run's trace, then its ptosim_run.json. */
int ohm_steps(const exec_log *l, ohm_step **steps, size_t *n, bool present[2]);

/* Computes the model from a log, times on a tick_hz counter. Returns 0, or
 * -1 when out of memory. A dropped or empty log gives computed = false. The
 * caller frees the result with ohm_result_free. */
int ohm_compute(const exec_log *l, uint64_t tick_hz, ohm_result *r);

/* Frees what a result holds. */
void ohm_result_free(ohm_result *r);

/* Share of the window, in percent (0 for an empty window). */
double ohm_pct(const ohm_result *r, double us);

/* The verdict sched_overhead_analysis gives for a has-overhead share in
 * percent: "scheduler-bound" (25 or more), "partially scheduler-limited" (8
 * or more), else "compute/dependency-bound". */
const char *ohm_verdict(double has_pct);

/* Writes the result as the value of ptosim_run.json's "overhead" key
 * (an object; one line per part, each indented by `indent` spaces). */
void ohm_write_json(FILE *f, const ohm_result *r, size_t limit, int indent);

#endif
