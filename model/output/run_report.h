/* run_report.h - report_: what a run tells its user: ptosim_run.json, the name map, the summary. */
#ifndef PTOSIM_RUN_REPORT_H
#define PTOSIM_RUN_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "../engine/chip_engine.h"
#include "../analysis/critical_path.h"

#define REPORT_OVERHEAD_SHOWN_PCT 8.0 /* has-overhead share (%) from which the summary shows the model */
/* Share of the makespan the args dump's back-pressure froze the scheduler threads from which the host's
 * dump collector, not a pipe, is named the run's bottleneck (model/README.md §14.2). */
#define REPORT_DUMP_BOUND_SHARE 0.5

/* --repeat: the makespan over runs with consecutive seeds. */
typedef struct report_repeat {
    int runs;             /* N, >= 1 */
    uint64_t seed0;       /* seeds seed0 .. seed0 + N - 1 */
    int not_ok;           /* runs that did not end ok (left out of the statistics) */
    double mean;          /* makespan over the ok runs, us */
    double sigma;         /* ... sample standard deviation (0 with one run) */
    double min, p50, max; /* ... p50 is the value of rank ceil(n / 2) */
} report_repeat;

/* Fills r's statistics from the makespans v[0 .. n) of the ok runs (n >= 1; v is sorted in place). */
void report_repeat_stats(double *v, int n, report_repeat *r);

/* Is the difference of two means inside the noise: no larger than two
 * standard errors of the difference, 2 sqrt(sa^2 / na + sb^2 / nb)? */
bool report_inside_noise(double mean_a, double sigma_a, int na, double mean_b, double sigma_b, int nb);

/* Facts about the run that live outside the chip model. */
typedef struct report_info {
    const char *version;       /* ptosim version */
    const char *graph_path;    /* graph file */
    const char *graph_sha256;  /* SHA-256 of its text as read (gsrc_sha256), NULL = not known */
    const char *const *sg_cfg; /* SimGrid configuration items, "key:value" */
    int nsg_cfg;
    double host_seconds;        /* host time of the simulation, < 0 = not measured */
    double simgrid_clock;       /* SimGrid's clock at the end, seconds */
    int exit_code;              /* exit status the program will return */
    const char *const *outputs; /* files written under the work dir */
    int noutputs;
    /* the host-side args dump collector (dump on) */
    double dump_host_done_s;      /* when the writer finished, seconds */
    uint64_t dump_written_at_end; /* payload bytes written when the device finished */
    uint64_t dump_written;        /* payload bytes written in all */
    int dump_reconciled;          /* threads whose un-flushed buffer the host recovered */
    const report_repeat *repeat;  /* --repeat statistics, or NULL */
    const char *const *warnings;  /* warnings that replaced something asked for (repeated in the summary) */
    int nwarnings;
} report_info;

/* Outcome keyword for a status: "ok", "runtime_error", "stalled", "error". */
const char *report_status_name(chip_status s);

/* Writes ptosim_run.json. Returns 0, or -1 with a message in err. */
int report_write_run(const chip *c, const report_info *ri, const char *path, char *err, size_t errlen);

/* Writes name_map_<graph>.json (model/README.md §16.6). Returns 0, or -1 with a message in err. */
int report_write_name_map(const graph *g, const char *path, char *err, size_t errlen);

/* Prints the run as CSV: a header line and one row (for sweeps). Per-ring
 * values are joined with '/'; the graph and platform names are quoted per
 * RFC 4180 when they hold a comma, a quote or a line break. */
void report_csv(const chip *c, const report_info *ri, FILE *out, bool header);

/* The columns report_csv's header line starts with (--repeat adds six; no newline). */
extern const char report_csv_header[];

/* True when profiling self-costs shaped the simulated makespan: a task
 * pickup waited on a swimlane record commit, or the PMU forced single issue. */
bool report_perturbed(const chip *c);

/* The run's bottleneck pipe: the busiest pipe of the pipe-model kernel
 * with the most time on cores. False when no kernel has a pipe model. */
bool report_bottleneck(const chip *c, int *func, int *pipe, double *fraction);

/* True when the args dump froze the scheduler threads (parked, waiting for
 * the host to drain) for at least REPORT_DUMP_BOUND_SHARE of the makespan:
 * the collector bounds the run, whatever its pipes did. */
bool report_dump_bound(const chip *c);

/* What bounds a run: one analysis for the summary, ptosim_run.json ("bound"), tune and the report page. */
typedef enum {
    REPORT_BOUND_NONE,       /* nothing to say (no execution; a run that did not finish says why elsewhere) */
    REPORT_BOUND_DUMP,       /* the args dump collector froze the scheduler threads */
    REPORT_BOUND_RING,       /* the orchestrator, submitting to the end, waited on a ring resource */
    REPORT_BOUND_SUBMISSION, /* the orchestrator, submitting to the end, was busy submitting */
    REPORT_BOUND_HBM,        /* the die's HBM was saturated */
    REPORT_BOUND_SCHEDULING, /* cores sat idle while ready tasks waited to be dispatched */
    REPORT_BOUND_PIPE,       /* the busiest pipe of the kernel with the most time on cores */
    REPORT_BOUND_DEPENDENCIES, /* no pipe model: the longest chain of producers and consumers */
    REPORT_BOUND_COMPUTE,      /* no pipe model: the kernels' own time on the cores */
} report_bound_kind;

#define REPORT_SUBMISSION_SHARE 0.9    /* the orchestrator's last submit this late in the makespan holds it */
#define REPORT_RING_BLOCKED_SHARE 0.25 /* ... and a ring when it waited this share of its time on rings */
#define REPORT_HBM_SHARE 0.5           /* HBM saturated this share of the makespan */
#define REPORT_SCHED_SHARE 25.0        /* has-overhead percent: sched_overhead_analysis's "scheduler-bound" */
#define REPORT_CPM_SHARE 0.5           /* the static CPM this share of the span: the dependencies hold it */

typedef struct report_bound {
    report_bound_kind kind;
    char what[128]; /* "task submission", "ring 2 heap", "mte2 pipe of qk_matmul", ... */
    char text[512]; /* the whole verdict with its evidence, as the summary prints it after "bottleneck: " */
} report_bound;

/* Decides what bounds the run, in this order: the args dump (its freeze is at least
 * REPORT_DUMP_BOUND_SHARE of the makespan); the orchestrator, when its last submit came at
 * REPORT_SUBMISSION_SHARE of the makespan or later (a ring when it waited REPORT_RING_BLOCKED_SHARE of
 * its time on rings, else submission itself); HBM saturated REPORT_HBM_SHARE of the makespan; scheduling,
 * when the overhead model's has-overhead reaches REPORT_SCHED_SHARE; else the busiest pipe of the kernel
 * with the most time on cores; without a pipe model, the dependencies when the critical_path tool's static
 * CPM is REPORT_CPM_SHARE of its span, else the kernels' time. A run that did not finish is bound by
 * nothing here (its error says why). */
void report_bound_of(const chip *c, report_bound *b);

/* "args_dump", "ring", "submission", "hbm", "scheduling", "pipe", "dependencies", "compute", "none" */
const char *report_bound_name(report_bound_kind k);

#define REPORT_NEAR_FULL_PERMILLE 900 /* a peak above 90.0 % of its capacity is near full (the summary) */
#define REPORT_SCOPE_DEPTH_MAX (ORCH_MAX_SCOPES - 1) /* deepest scope depth: ring 3 takes depths 3 and on */

/* One ring resource that ran near full, or one the orchestrator waited on. */
typedef struct report_ring_res {
    int ring;          /* 0-3; -1 for the TensorMap, one pool for all rings */
    orch_resource res; /* which resource */
    uint64_t peak;     /* most held at once (near full) */
    uint64_t cap;      /* its capacity: the knob's value (slots, bytes, entries) */
    ps_t ps;           /* time the orchestrator waited on it (blocked) */
} report_ring_res;

/* Resources whose peak passed REPORT_NEAR_FULL_PERMILLE of their capacity,
 * or a task window that held window - 1 tasks (all it can), in ring order
 * then resource order (task window, heap, dep pool, spill pool), the
 * TensorMap last. Writes at most REPORT_RING_RES_MAX into out; returns how
 * many. */
#define REPORT_RING_RES_MAX (RING_COUNT * RES_COUNT + 1)
int report_near_full(const chip *c, report_ring_res *out);

/* What the orchestrator waited on, over waits that ended: every ring and
 * resource with time, the most first (ties: ring, then resource); TensorMap
 * waits of every ring are summed as ring -1. Returns how many. */
int report_blocked_by(const chip *c, report_ring_res *out);

/* The user's words for a resource ("dep pool"), its unit ("entries"), the
 * knob (RunConfig name, or the TensorMap's compile-time constant) and
 * ptosim's flag. */
void report_res_words(orch_resource res, const char **name, const char **unit, const char **knob,
                      const char **flag);

/* Prints what the host says when a run fails (nothing for CHIP_DONE): for a
 * runtime fatal the runtime's own host lines, byte for byte, then ptosim's
 * context, each line of which starts "ptosim: ". */
void report_failure(const chip *c, FILE *f);

/* Prints the short human summary. */
void report_summary(const chip *c, const report_info *ri, FILE *out);

/* Busy fraction of one core type over the makespan, 0..1. */
double report_busy_fraction(const chip *c, core_type type);

/* The runtime's critical_path tool's reading of a run (model/analysis/critical_path.h), one line after indent: the observed
 * path's tasks, compute and stall with the gaps by blame (largest first), and the static CPM. Nothing when
 * it was not computed. */
void report_critical_path(const cpath_result *c, uint64_t tick_hz, const char *indent, FILE *out);

#endif
