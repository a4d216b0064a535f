/* report_data.h - rd_: what `ptosim report` reads from a run or sweep directory and derives from it. */
/* What it derives: the critical path, the swept knobs. */
#ifndef PTOSIM_REPORT_DATA_H
#define PTOSIM_REPORT_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../model/chip/pipe.h"

#define RD_RINGS 4         /* scope-depth rings (model/README.md §3.2) */
#define RD_NAME_MAX 128    /* graph, platform and kernel names kept */
#define RD_TEXT_MAX 512    /* details, hints, messages kept */
#define RD_ERR_MAX 1024    /* error messages */
#define RD_MAX_COUNTERS 16 /* PMU counter columns (a2a3 rosters have at most 8) */
#define RD_MAX_THREADS 16  /* args dump threads read (PLATFORM_MAX_AICPU_THREADS is 4) */
#define RD_MAX_EXTRA 24    /* swept columns past the run's own in sweep.csv (sweep_int.h SWEEP_MAX_EXTRA) */
#define RD_VALUE_MAX 64    /* a swept column's value kept (its name too) */

/* Loaders return RD_OK, RD_ABSENT when the file does not exist (an optional
 * input), or RD_BAD with "FILE[:LINE]: FIELD: what is wrong" in err. */
enum { RD_OK = 0, RD_ABSENT = 1, RD_BAD = -1 };

/* ------------------------------------------------------------------ */
/* ptosim_run.json                                                     */
/* ------------------------------------------------------------------ */

typedef struct rd_kernel {
    int func_id;
    char name[RD_NAME_MAX];
    bool aic;                /* runs on AIC cores (else AIV) */
    uint64_t executions;     /* AICore executions */
    double core_time_us;     /* time on cores, all executions */
    bool has_pipes;          /* pipe_busy_fraction given (pipe cost model) */
    double pipe[PIPE_COUNT]; /* busy fraction per pipe, < 0 = not a pipe of its core */
    int busiest;             /* busiest pipe, -1 = none */
} rd_kernel;

typedef struct rd_ring {
    uint64_t task_window, task_window_peak; /* slots */
    uint64_t heap, heap_peak;               /* bytes */
    uint64_t dep_pool, dep_pool_peak;       /* entries */
    double blocked_us;                      /* orchestrator blocked on this ring */
} rd_ring;

/* A distribution of the overhead model (µs). */
typedef struct rd_dist {
    uint64_t n;                      /* values */
    double p50, p90, p99, max, mean; /* ... */
} rd_dist;

/* One engine's aicore switch. */
typedef struct rd_switch {
    bool present;                   /* the engine ran something */
    double overhead_pct;            /* overhead_pct of the engine */
    uint64_t cores, events;         /* cores, switches */
    double min_us, mean_us, max_us; /* switch time per core */
    double us_per_event;            /* ... per switch */
    double during_us, indep_us;     /* during overhead, independent */
} rd_switch;

#define RD_DISTS 7 /* head, tail, steady switch, prev tail, setup, first switch, wait gap */

/* ptosim_run.json's "overhead": the runtime's scheduler-overhead model. */
typedef struct rd_overhead {
    bool given;       /* the key is there (older runs lack it) */
    bool computed;    /* computed (false past the execution limit) */
    double limit;     /* limit_executions when not computed */
    double window_us; /* first start to last end */
    double all_pct, has_pct;
    char verdict[64];
    rd_switch eng[2]; /* AIC, AIV */
    rd_dist dist[RD_DISTS];
    double cp_hops, cp_span_us, cp_compute_us, cp_sched_us, cp_other_us; /* critical path */
    bool tool;                             /* critical_path_tool given: the runtime's critical_path tool */
    double tool_tasks, tool_hb_edges;      /* tasks with an execution, happens-before edges kept */
    double tool_makespan_us;               /* first start to last end */
    double tool_cpm_us, tool_cpm_tasks;    /* static CPM: the longest duration-weighted path, its tasks */
    double tool_observed_tasks;            /* the observed path, walked back from the last task to end */
    double tool_compute_us, tool_stall_us; /* its compute and gaps (compute + stall = makespan) */
    double tool_wait_us[3];                /* its gaps by blame: data-wait, core-wait, front-gap */
} rd_overhead;

/* One scheduler thread of the args dump. */
typedef struct rd_dump_thread {
    uint64_t bytes;   /* payload_bytes it copied into its arena */
    uint64_t parks;   /* times it parked waiting for the host */
    double parked_us; /* time parked */
} rd_dump_thread;

/* ptosim_run.json's "args_dump" (null without --dump-args): what the device
 * produced, what the host drained, how long the threads were parked. */
typedef struct rd_dump {
    bool given;              /* not null */
    int level;               /* --dump-args level */
    uint64_t tasks, records; /* tasks dumped, records captured */
    uint64_t payload_bytes;  /* copied into the arenas on the device */
    uint64_t written_at_end; /* written by the host when the device finished (or was killed) */
    uint64_t deficit;        /* drain_deficit_bytes: payload_bytes - written_at_end */
    uint64_t written;        /* written in all, once the host finished */
    uint64_t arena;          /* arena_bytes_per_thread */
    uint64_t truncated;      /* truncated_args */
    uint64_t dropped;        /* dropped_records */
    int reconciled;          /* reconciled_threads: un-flushed buffers the host recovered */
    double drain_bps;        /* drain_bytes_per_s: the host collector's rate */
    double frozen_us;        /* every scheduler thread frozen (union of the parks) */
    double host_done_us;     /* the host finished writing args.bin */
    bool killed_parked;      /* killed_while_parked */
    int nthreads;            /* entries in th */
    rd_dump_thread th[RD_MAX_THREADS];
} rd_dump;

/* ptosim_run.json's "ring_occupancy": per ring and resource (task window, heap, dependency pool), the
 * lowest and highest value in each time bucket of the run (model/record/occupancy.h). */
typedef struct rd_occ {
    bool given;                /* the key is there (older runs lack it) */
    double bucket_us;          /* bucket width: bucket i covers [i, i + 1) x bucket_us */
    int n;                     /* buckets */
    bool used[RD_RINGS];       /* the ring held something at some time (else null in the file) */
    uint64_t *lo[RD_RINGS][3]; /* per ring and resource, n lows (malloc'd; NULL when unused) */
    uint64_t *hi[RD_RINGS][3]; /* ... and n highs */
} rd_occ;

/* ptosim_run.json's "roofline": the die's ceilings and each kernel against them. */
typedef struct rd_roof_kernel {
    int func_id;
    char name[RD_NAME_MAX];
    bool aic;                /* AIC: FLOPs against the cube peak; AIV: element ops against the vector peak */
    char status[32];         /* ok, no_gm_traffic, no_work, not_run, no_pipe_profile, perf_sim_profile, ... */
    char note[RD_NAME_MAX];  /* the status in words ("no pipe profile") */
    bool has_ai;             /* arithmetic_intensity given (not null) */
    double ai;               /* ops per GM byte */
    bool placed;             /* achieved, peak, roof and bound given */
    double achieved, peak, roof, fraction; /* ops/s, ops/s, ops/s, achieved / roof */
    bool compute_bound;      /* bound: "compute" (else "memory") */
    char busiest[16];        /* busiest pipe ("" = none) */
    bool has_cp;             /* critical_path_share given */
    double cp_share;         /* share of the critical path's span */
} rd_roof_kernel;

typedef struct rd_roof {
    bool given;                                /* the key is there (older runs lack it) */
    double cube_peak, vector_peak, hbm_bw;     /* FLOP/s, element ops/s (16-bit), B/s */
    rd_roof_kernel *k;                         /* kernels, in file order (malloc'd) */
    int n;
} rd_roof;

typedef struct rd_run {
    char version[64];           /* ptosim_version */
    char graph[RD_NAME_MAX];    /* graph.name ("" = not given) */
    char platform[RD_NAME_MAX]; /* platform.name */
    char status[32];            /* outcome.status: ok, runtime_error, device_error, stalled, ... */
    int exit_code;              /* outcome.exit_code */
    bool rt_error;              /* outcome.runtime_error present */
    int rt_code;                /* its code, name, detail and hint */
    char rt_name[RD_NAME_MAX];
    char rt_detail[RD_TEXT_MAX], rt_hint[RD_TEXT_MAX];
    bool dev_error; /* outcome.device_error present */
    int dev_code;   /* its code, name, when, which watchdog */
    char dev_name[RD_NAME_MAX];
    double dev_at_us;
    char dev_watchdog[64];     /* stars_op_execute or stream_sync */
    double op_timeout_us;      /* op_execute_timeout_us requested, 0 = not given */
    double stars_credits;      /* whole credits the STARS timeout rounds up to */
    double stars_deadline_us;  /* the deadline those credits give */
    double stream_sync_ms;     /* stream_sync_timeout_ms */
    char message[RD_TEXT_MAX]; /* outcome.message ("" = null) */
    double makespan_us;
    double orch_end_us; /* orchestrator_end_us: the last submit done, 0 = not given */
    uint64_t submitted, completed, kernel_tasks, executions; /* tasks.* */
    double busy_aic, busy_aiv;                               /* busy_fraction.* */
    rd_kernel *kernels;                                      /* kernels[], in file order */
    int nkernels;
    bool bottleneck;  /* bottleneck given (not null) */
    char bn_pipe[32]; /* its pipe, kernel and busy fraction */
    char bn_kernel[RD_NAME_MAX];
    double bn_fraction;
    char bound_kind[32];           /* bound.kind ("" = not given: an older ptosim_run.json) */
    char bound_what[RD_NAME_MAX];  /* bound.what */
    char bound_text[RD_TEXT_MAX];  /* bound.text, the summary's "bottleneck:" sentence */
    rd_ring rings[RD_RINGS];
    uint64_t tensormap_capacity, tensormap_peak;
    int swimlane_level; /* config.enable_chip_swimlane */
    bool dep_gen;       /* config.enable_dep_gen */
    bool scope_stats;   /* config.enable_scope_stats */
    bool pmu;           /* profiling.pmu_single_issue: PMU collection was on */
    bool perturbed;     /* profiling.perturbed */
    double hbm_saturated_us;
    uint64_t origin_ticks; /* platform.params.sys_cnt_origin_ticks (time 0), 0 = not given */
    rd_overhead oh;        /* overhead */
    rd_dump dump;          /* args_dump */
    rd_occ occ;            /* ring_occupancy */
    rd_roof roof;          /* roofline */
} rd_run;

/* Reads text, a JSON object holding an "overhead" key as ptosim_run.json writes it (ohm_write_json), into
 * oh; messages name the file as what. Returns RD_OK or RD_BAD. */
int rd_parse_overhead(const char *text, const char *what, rd_overhead *oh, char *err, size_t errlen);

/* Parses the len bytes of text as one JSON value by the rules of every reader of JSON (model/base/json_reader.c: a key
 * given twice, bad UTF-8 or 1e999 refused); NULL when it is not such a value or memory ran out. For readers
 * that only look for a value, without a message. cJSON_Delete frees the tree. */
struct cJSON *rd_parse_json(const char *text, size_t len);

/* Reads the name_map_*.json in dir (the last by name when there are several; none: RD_ABSENT): its
 * callable_id_to_name as kernels (func id and name; *k malloc'd), its graph name (what follows name_map_)
 * into graph. A map that cannot be read leaves the names unknown (RD_ABSENT), as import does. */
int rd_load_name_map(const char *dir, char *graph, size_t n, rd_kernel **k, int *nk);

/* Reads path (a ptosim_run.json). */
int rd_load_run(const char *path, rd_run *r, char *err, size_t errlen);
void rd_run_free(rd_run *r);

/* ------------------------------------------------------------------ */
/* chip_swimlane_records.json (model/README.md §16.2)                       */
/* ------------------------------------------------------------------ */

typedef struct rd_exec {
    uint64_t task;       /* task id (ring << 32 | local) */
    uint64_t start, end; /* system-counter ticks */
    uint64_t r2s;        /* receive_to_start_cycles (0 when the row has none) */
    int64_t reg;         /* reg_task_id: with the core, the key of the AICPU's row */
    int32_t core;        /* core id */
} rd_exec;

/* One aicpu_tasks row: the AICPU's side of an execution. */
typedef struct rd_cpu {
    int32_t core;              /* core id */
    int64_t reg;               /* reg_task_id */
    uint64_t dispatch, finish; /* system-counter ticks */
} rd_cpu;

typedef struct rd_swimlane {
    int level;         /* chip_swimlane_level, 1..4 */
    uint64_t clock_hz; /* metadata.clock_freq_hz */
    int ncores;
    bool *aic;   /* per core: an AIC (else AIV) */
    rd_exec *ex; /* aicore_tasks, in file order */
    size_t nex;
    rd_cpu *cpu; /* aicpu_tasks, in file order (level >= 2) */
    size_t ncpu;
} rd_swimlane;

/* Reads path (only the level, clock, core types, aicore_tasks and aicpu_tasks; the rest is skipped). */
int rd_load_swimlane(const char *path, rd_swimlane *sl, char *err, size_t errlen);
void rd_swimlane_free(rd_swimlane *sl);

/* ------------------------------------------------------------------ */
/* deps.json (model/README.md §16.1)                                           */
/* ------------------------------------------------------------------ */

typedef struct rd_task {
    uint64_t id;  /* task_id */
    int32_t k[3]; /* kernel_ids [aic, aiv0, aiv1], -1 = inactive */
} rd_task;

typedef struct rd_edge {
    uint64_t pred, succ;
} rd_edge;

typedef struct rd_deps {
    rd_task *tasks; /* in submission order */
    size_t ntasks;
    rd_edge *edges; /* sorted by successor, then predecessor; each pair once */
    size_t nedges;
} rd_deps;

/* Reads path (task ids, kernel ids and edge endpoints). */
int rd_load_deps(const char *path, rd_deps *d, char *err, size_t errlen);
void rd_deps_free(rd_deps *d);

/* ------------------------------------------------------------------ */
/* Critical path                                                       */
/* ------------------------------------------------------------------ */

typedef struct rd_step {
    uint64_t task;       /* task id */
    bool executed;       /* ran on AICores (dummy and alloc tasks did not) */
    uint64_t start, end; /* first start, last end over its executions (ticks), executed only */
} rd_step;

typedef struct rd_path {
    rd_step *v; /* first task to last */
    size_t n;
} rd_path;

/* The dependency-critical path: from the task that finished last, step back
 * to the predecessor that finished last, until a task has none. A task that
 * never ran (dummy) finishes when its last predecessor did. Ties go to the
 * lower task id. Returns 0, or -1 when out of memory. */
int rd_critical_path(const rd_swimlane *sl, const rd_deps *d, rd_path *out);
void rd_path_free(rd_path *p);

/* ------------------------------------------------------------------ */
/* scope_stats/scope_stats.jsonl (model/README.md §16.3)                       */
/* ------------------------------------------------------------------ */

/* One sample: live occupancy of its ring's resources at a scope boundary. */
typedef struct rd_sample {
    int ring;
    bool begin;
    uint64_t task_window; /* task_window_end - task_window_start (slots) */
    uint64_t heap;        /* heap_end - heap_start (bytes) */
    uint64_t dep_pool;    /* dep_pool_end - dep_pool_start (entries) */
} rd_sample;

typedef struct rd_scopes {
    uint64_t task_window_max[RD_RINGS], heap_max[RD_RINGS], dep_pool_max[RD_RINGS];
    bool fatal;       /* a runtime fatal was latched */
    uint64_t dropped; /* records dropped on the device */
    rd_sample *v;     /* samples, file order */
    size_t n;
} rd_scopes;

int rd_load_scopes(const char *path, rd_scopes *s, char *err, size_t errlen);
void rd_scopes_free(rd_scopes *s);

/* ------------------------------------------------------------------ */
/* pmu.csv (model/README.md §16.4)                                             */
/* ------------------------------------------------------------------ */

/* The rows of one func id, summed. */
typedef struct rd_pmu_func {
    uint32_t func_id;
    int core_type;                     /* 0 AIC, 1 AIV (of its first row) */
    uint64_t rows;                     /* executions */
    uint64_t total_cycles;             /* sum of pmu_total_cycles */
    uint64_t counter[RD_MAX_COUNTERS]; /* sum of each event counter */
} rd_pmu_func;

typedef struct rd_pmu {
    int event_type; /* the group (event_type column) */
    int ncounters;
    char counter_name[RD_MAX_COUNTERS][48];
    rd_pmu_func *funcs; /* ascending func id */
    int nfuncs;
    uint64_t rows;
} rd_pmu;

int rd_load_pmu(const char *path, rd_pmu *p, char *err, size_t errlen);
void rd_pmu_free(rd_pmu *p);

/* ------------------------------------------------------------------ */
/* sweep.csv (the columns of `ptosim run --summary-csv`)              */
/* ------------------------------------------------------------------ */

/* The knob columns: the three ring knobs (a value per ring) and the thread count (one value, kept in
 * every ring's slot). A swept column past the run's own is knob column RD_KNOB_COLUMNS + its index. */
enum { RD_KNOB_TASK_WINDOW, RD_KNOB_HEAP, RD_KNOB_DEP_POOL, RD_KNOB_THREADS, RD_KNOB_COLUMNS };

/* The orchestrator's blocked time per resource (blocked_*_us columns). */
enum { RD_RES_TASK_WINDOW, RD_RES_HEAP, RD_RES_DEP_POOL, RD_RES_TENSORMAP, RD_RES_COUNT };

typedef struct rd_row {
    int line;  /* line in the file */
    int group; /* index of its (graph, platform) pair */
    uint64_t knob[RD_KNOB_COLUMNS]
                 [RD_RINGS];          /* ring_task_window, ring_heap, ring_dep_pool, aicpu_thread_num */
    char status[32];                  /* ok, runtime_error, ... */
    int code, exit;                   /* runtime error code, exit status */
    double makespan_us;               /* makespan_us */
    double blocked[RD_RINGS];         /* blocked_us: the orchestrator blocked on each ring (µs) */
    double blocked_res[RD_RES_COUNT]; /* blocked_task_window_us .. blocked_tensormap_us */
    int runs;                         /* repeat_runs: ok runs the mean is over (0 without --repeat) */
    double mean_us, sigma_us;         /* makespan_mean_us, makespan_sigma_us (--repeat) */
    double value_us;                  /* what the curves draw: the mean with --repeat, else makespan_us */
    uint32_t extra[RD_MAX_EXTRA];     /* per swept column past the run's own: the rank of its value */
} rd_row;

typedef struct rd_sweep {
    rd_row *rows;                   /* in file order */
    size_t nrows;                   /* entries in rows */
    char (*groups)[2][RD_NAME_MAX]; /* distinct (graph, platform), first-seen order */
    int ngroups;                    /* entries in groups */
    bool has_threads;               /* an aicpu_thread_num column (older files lack it) */
    bool has_blocked;               /* a blocked_us column */
    bool has_blocked_res;           /* the four blocked_*_us columns */
    bool has_repeat;                /* the --repeat columns (repeat_runs, makespan_mean_us, ..._sigma_us) */
    int nextra;                     /* columns past the run's own: --set KEY, --kernel-set NAME.FIELD, gen.PARAM */
    char extra_name[RD_MAX_EXTRA][RD_VALUE_MAX];  /* their names, header order */
    char (*extra_val[RD_MAX_EXTRA])[RD_VALUE_MAX]; /* each one's distinct values, in order (numeric when every
                                                    * value is a number, else text); a row holds the rank */
    int nextra_val[RD_MAX_EXTRA];                 /* entries in extra_val[e] */
} rd_sweep;

int rd_load_sweep(const char *path, rd_sweep *s, char *err, size_t errlen);

/* ------------------------------------------------------------------ */
/* whatif.json (`ptosim whatif -o DIR`: the levers ranked)             */
/* ------------------------------------------------------------------ */

typedef struct rd_lever {
    char lever[RD_TEXT_MAX]; /* what it is ("vadd 50% faster") */
    char flags[RD_TEXT_MAX]; /* its `ptosim run` flags as a shell reads them back (a word quoted as needed) */
    bool ran;                /* makespan_us given (else its run failed: failed says why) */
    double makespan_us;      /* the lever's makespan */
    double gain_us;          /* the baseline's minus the lever's (ran only) */
    char failed[RD_TEXT_MAX];
} rd_lever;

typedef struct rd_whatif {
    char graph[RD_NAME_MAX], platform[RD_NAME_MAX];
    double baseline_us; /* baseline_makespan_us */
    rd_lever *v;        /* levers, in file order (sorted by makespan, failed last; malloc'd) */
    int n;
} rd_whatif;

/* Reads path (a whatif.json). */
int rd_load_whatif(const char *path, rd_whatif *w, char *err, size_t errlen);
void rd_whatif_free(rd_whatif *w);
void rd_sweep_free(rd_sweep *s);

/* A swept knob: one ring column, for the rings in mask, which move together; or the thread count. */
typedef struct rd_knob {
    int column;     /* RD_KNOB_* */
    unsigned mask;  /* rings whose value varies (bit r = ring r); 1 for the thread count */
    char label[64]; /* "ring_task_window (ring 1)", "ring_heap (all rings)", "aicpu_thread_num" */
} rd_knob;

/* Finds the swept knobs: a ring column is swept when some ring's value takes
 * more than one value over the rows; the varying rings form one knob when
 * they hold equal values in every row, else one knob per varying ring. The
 * thread count is one knob when it takes more than one value, and so is each
 * column past the run's own. Returns how many (at most max), in column order. */
int rd_sweep_knobs(const rd_sweep *s, rd_knob *out, int max);

/* The knob's value in a row (the value of the lowest ring in its mask; for a column past the run's own, the
 * rank of its value: the text is s->extra_val[column - RD_KNOB_COLUMNS][rank]). */
uint64_t rd_knob_value(const rd_knob *k, const rd_row *r);

/* Is a swept knob one of the columns past the run's own? */
#define RD_KNOB_IS_EXTRA(k) ((k)->column >= RD_KNOB_COLUMNS)

/* One point of a makespan-versus-knob curve. */
typedef struct rd_point {
    uint64_t x;         /* knob value */
    int nrows, nok;     /* rows at this value, of which ok */
    double makespan_us; /* least value_us over the ok rows (whatever the other knobs) */
    const rd_row *best; /* the ok row of least makespan, ties to the least blocked time in all, then the
                         * first; its blocked times are the point's (NULL when no row is ok) */
    const rd_row *fail; /* no ok row: the first row, for its status and code */
} rd_point;

/* The curve of knob k over the rows of group g: one point per distinct
 * value, ascending. Returns the number of points (malloc'd in *out), -1 when
 * out of memory. */
int rd_sweep_curve(const rd_sweep *s, const rd_knob *k, int group, rd_point **out);

/* Sorts n records of size bytes by the 128-bit key that key() gives each (k[0] first, then k[1]), in the
 * order of a stable sort: glibc's qsort (a merge sort) gave it before, here an LSD radix sort on the bytes
 * the keys do not all share. Returns 0, or -1 when out of memory or past 2^32 records (nothing moved: the
 * caller sorts with qsort). */
int rd_sort_by_key(void *base, size_t n, size_t size, void (*key)(const void *rec, uint64_t k[2]));

#endif
