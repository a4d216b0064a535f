/* chip.h - the chip engine: one event heap driving the orchestrator, the scheduler threads and the AICores.
 */
#ifndef PTOSIM_CHIP_H
#define PTOSIM_CHIP_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core.h"
#include "depgen.h"
#include "dump.h"
#include "evq.h"
#include "hbm.h"
#include "occ.h"
#include "ohm.h"
#include "orch.h"
#include "perfetto.h"
#include "pipe.h"
#include "platform.h"
#include "pmu.h"
#include "readyq.h"
#include "ringres.h"
#include "sched.h"
#include "scopestats.h"
#include "simtime.h"
#include "swimlane.h"
#include "task.h"
#include "tmap.h"
#include "vary.h"

/* What the user asked for on the command line (the runtime's RunConfig). */
typedef struct chip_config {
    int swimlane_level;                    /* enable_chip_swimlane, 0..4 */
    uint32_t ring_task_window[RING_COUNT]; /* effective task window per ring, slots */
    uint64_t ring_heap[RING_COUNT];        /* effective heap per ring, bytes */
    uint32_t ring_dep_pool[RING_COUNT];    /* effective dependency-list pool per ring, entries */
    bool dep_gen;                          /* enable_dep_gen: collect deps.json */
    bool scope_stats;                      /* enable_scope_stats: collect scope_stats.jsonl */
    int pmu_event_type;                    /* enable_pmu: 0 off, else the event group */
    int dump_level;                        /* enable_dump_args: 0 off, 1 partial, 2 full, 3 hybrid */
    ps_t scheduler_timeout;                /* scheduler no-progress timeout */
    long op_execute_timeout_us;            /* STARS op-execute timeout requested */
    long stream_sync_timeout_ms;           /* host stream-sync timeout */
    const struct worker *worker;           /* several programs on one worker: where tensors live, or NULL */
    int worker_program;                    /* this program's index on it */
    FILE *worker_log;                      /* accesses to resident tensors go here, or NULL */
    bool seeded;                           /* --seed: the variation model draws per-execution costs */
    uint64_t seed;                         /* ... from this seed */
    size_t perfetto_records;               /* the Perfetto trace: records kept (0: off) */
    const struct gcomp *compiled;          /* the graph's ops parsed beforehand (gcomp.h), or NULL */
} chip_config;

/* Event kinds of the chip heap. */
enum chip_event {
    EV_ORCH_STEP,      /* orchestrator carries out its next operation */
    EV_ORCH_PUBLISH,   /* a submit call ends: the task is wired and published */
    EV_SCHED_ITER,     /* a scheduler iteration starts (complete phase); arg = generation */
    EV_SCHED_DISPATCH, /* a scheduler iteration's dummy + dispatch phases; arg = generation */
    EV_TASK_DONE,      /* a completion walk ends: effects of a task completing; arg = task id */
    EV_ORCH_CHECK,     /* deadlock check of a blocked allocation; arg = generation */
    EV_SCHED_TIMEOUT,  /* a sleeping scheduler's no-progress timeout; arg = generation */
    EV_DRAIN_RESOLVE,
    /* every scheduler reached the sync-start drain: count capacity, stage or retry */
    EV_HBM,         /* a GM flow starts or ends: reshare HBM bandwidth; arg = generation */
    EV_DEVICE_KILL, /* the STARS watchdog or the host stream sync gives up on the run */
};

typedef enum {
    CHIP_RUNNING, /* events remain */
    CHIP_DONE,    /* every submitted task completed, orchestration finished */
    CHIP_FATAL,   /* a runtime error code ended the run */
    CHIP_STALLED,
    /* nothing left to happen but work remains */ CHIP_ERROR, /* the simulator itself failed (out of memory,
                                                                 unreadable graph) */
    CHIP_DEVICE_ERROR, /* the device was killed (STARS op-execute timeout) or the host gave up (stream sync)
                        */
} chip_status;

/* The single global sync-start drain (model/README.md §8.4): while active, every
 * scheduler stops dispatching and, once all have arrived, thread 0 counts
 * idle capacity; short means another round, enough means all stage. */
typedef struct drain_state {
    bool active;                                 /* a drain is in progress */
    uint64_t task_id;                            /* the sync-start task it places */
    bool gated;                                  /* an early cohort: idle and pending slots, gated blocks */
    uint64_t attempt;                            /* attempt number (rounds) */
    uint64_t attempts_total;                     /* rounds over the run */
    int arrived;                                 /* threads at the barrier this attempt */
    bool at_barrier[PLATFORM_MAX_AICPU_THREADS]; /* which ones */
    ps_t arrive_at[PLATFORM_MAX_AICPU_THREADS];  /* when they arrived (first arrival of the drain) */
    bool staged_any;                             /* a drain that placed blocks (for reports) */
    uint64_t drains;                             /* drains over the run */
} drain_state;

/* What the executions of one kernel did on the cores (the pipe report). */
typedef struct kernel_stats {
    uint64_t executions;            /* AICore executions */
    ps_t core_ps;                   /* kernel windows, summed */
    ps_t idle_mem_ps;               /* the same executions on an idle memory system */
    uint64_t window_cycles;         /* kernel windows in AICore cycles, pipe-model executions only */
    double busy_cycles[PIPE_COUNT]; /* pipe busy cycles, GM pipes stretched by contention */
    uint64_t pipe_executions;       /* executions with a pipe model */
} kernel_stats;

/* Control-path costs in picoseconds, from the platform. */
typedef struct chip_costs {
    ps_t submit, scope_end_per_task, spin;
    ps_t poll, store, wmb, idle_iter, pop, payload, subtask, resolve_base, resolve_per, release;
    ps_t visible, setup, fin_latency;
    ps_t record_wb;            /* AICore swimlane record commit after each task (0 when off) */
    ps_t first_min, first_max; /* first-task extra pickup latency on half the cores */
    ps_t drain_sync;           /* the drain's acknowledgement tree across the scheduler threads */
    ps_t arg_fill;             /* a gated core filling its own args (hidden in the doorbell wait) */
    double setup_spread;       /* variation: lognormal sigma of setup, record write-back and kernel time */
    double record_spread;      /* ... */
    double kernel_spread;      /* ... */
    ps_t pmu_read;             /* PMU on: the AICPU's counter loads after each FIN */
} chip_costs;

/* One node of a producer's fanout list. */
typedef struct fanout_node {
    uint64_t consumer; /* consumer task id */
    uint32_t next;     /* next node, 0 = end */
} fanout_node;

typedef struct chip {
    platform plat;           /* parameters */
    chip_config cfg;         /* run options */
    chip_costs cost;         /* derived costs */
    evq q;                   /* the event heap */
    ps_t now;                /* time of the event being handled */
    uint64_t events;         /* events handled */
    uint64_t inlined;        /* of which run at once, without the queue (chip_schedule_last) */
    bool has_last;           /* the event chip_schedule_last left for chip_step: */
    uint32_t last_kind, last_who; /* kept field by field, as written (a struct copy stalls on them) */
    ps_t last_t;
    uint64_t last_arg;
    /* Each sleeping scheduler thread's poll wake-up (EV_SCHED_ITER at its
     * generation), kept beside the queue: a kick or a re-plan replaces it in
     * place, where a queued one would pop later as a stale event. */
    ps_t wake_t[PLATFORM_MAX_AICPU_THREADS];     /* PS_NEVER: none */
    uint64_t wake_seq[PLATFORM_MAX_AICPU_THREADS]; /* its insertion order, from the queue's counter */
    int wake_next;                                 /* thread of the earliest, -1 when none */
    bool measure_idle;       /* accumulate idle_ready_ps (ptosim tune) */
    double idle_ready_ps[2]; /* per core type: idle cores x time while a task of the type was queued */
    void (*on_progress)(const struct chip *c, void *arg); /* called every 65536 events, or NULL */
    const volatile sig_atomic_t *stop; /* non-zero: end the run at the next check (a signal), NULL = never */
    bool stopped;                      /* the run was ended through stop, unfinished */
    void *progress_arg;
    task_ring rings[RING_COUNT];           /* task windows */
    ring_heap heaps[RING_COUNT];           /* heap rings */
    dep_pool deppools[RING_COUNT];         /* dependency-list pools */
    uint64_t spill_used[RING_COUNT];       /* fanin spill entries held per ring */
    uint64_t spill_peak[RING_COUNT];       /* most held at once */
    uint64_t retired_heap_off[RING_COUNT]; /* heap block end of the newest retired task */
    uint64_t retired_heap_cum[RING_COUNT]; /* ... cumulative */
    uint64_t retired_dep_mark[RING_COUNT]; /* dependency-pool mark of the newest retired task */
    tmap tm;                               /* the TensorMap */
    occ occ;                               /* ring occupancy over simulated time (ring_occupancy) */
    bool dep_gen_on;                       /* deps.json collection */
    bool logical_on;                       /* the dependency replay runs (deps.json or the overhead model) */
    depgen dg;                             /* ... its state */
    ohm_log oh;                            /* executions and edges for the overhead model */
    vary vr;                               /* the variation model's generator (off without --seed) */
    bool scope_stats_on;                   /* scope stats collection */
    scopestats ss;                         /* ... its state */
    readyq ready[3];                       /* global ready queues per shape: AIC, AIV, MIX */
    readyq dummyq;                         /* dependency-only tasks and false predicates */
    readyq ready_sync[3];                  /* sync-start lane per shape (tier 0) */
    readyq early[3];                       /* early-dispatch candidates per shape (64 each) */
    readyq early_sync;                     /* sync-start early candidates, every shape (64) */
    uint64_t early_staged;                 /* blocks pre-staged as gated payloads */
    uint64_t early_rung;                   /* doorbells rung: completion walks, sync-start rendezvous */
    uint64_t pending_dispatches;           /* blocks written to a pending slot (dual issue) */
    ps_t record_wb_delay;                  /* task pickups held back by swimlane record commits */
    drain_state drain;                     /* the global sync-start drain */
    int ncores;                            /* AICores */
    core cores[PLATFORM_MAX_CORES];
    uint8_t cluster_fit[PLATFORM_MAX_CLUSTERS][3]; /* cores of each cluster that fit each staging phase */
    uint8_t idle_threads[3]; /* per shape: bit t while thread t has an idle unit of it (other_has_idle) */
    int nsched;                                    /* scheduler threads */
    sched_thread threads[PLATFORM_MAX_AICPU_THREADS];
    orch orch;          /* the orchestrator thread */
    fanout_node *nodes; /* fanout list nodes; [0] is the null sentinel */
    size_t nodes_cap;
    uint32_t nodes_free;                     /* free list head */
    uint32_t nodes_used;                     /* nodes in use */
    swimlane sl;                             /* swimlane records */
    pf_trace *pf;                            /* the Perfetto trace's records, NULL when off (costs no time) */
    pipe_table pipes;                        /* pipe-model results of every distinct pipe cost */
    uint32_t kernel_pipe[GRAPH_MAX_FUNC_ID]; /* func id -> pipes index (0 = flat cost or not seen yet) */
    kernel_stats *kstats;                    /* per func id */
    hbm mem;                                 /* the die's shared HBM bandwidth */
    uint64_t gm_bytes;                       /* GM bytes moved by pipe-model executions */
    bool dump_on;                            /* args dump collected */
    dump_state dump;                         /* ... its state */
    bool pmu_on;                             /* pmu.csv rows are collected */
    pmu_log pmu;                             /* ... here */
    uint64_t tasks_submitted;                /* submit + dummy + alloc */
    uint64_t tasks_completed;
    uint64_t kernel_tasks;  /* submitted tasks meant for AICores (not dummies or allocs), run or not */
    uint64_t executions;    /* AICore executions (task x core x block) */
    uint64_t ring_advances; /* watermark advances (progress for the scheduler timeout) */
    ps_t last_completion;   /* latest completion */
    ps_t end_time;          /* when the run ended */
    chip_status status;
    int fatal_code;         /* runtime error code when CHIP_FATAL */
    int device_code;        /* ACL error when CHIP_DEVICE_ERROR (507018, 507046) */
    ps_t stars_deadline;    /* when the AICore launch's op-execute watchdog fires (PS_NEVER: no STARS) */
    ps_t stream_deadline;   /* when the host's stream sync gives up (PS_NEVER: none) */
    uint32_t stars_credits; /* credits programmed for the AICore launch */
    char message[4096];     /* what ended the run, when not CHIP_DONE */
    char note[160];         /* ptosim's own context for a fatal beyond the runtime's text, or empty */
} chip;

/* Fills cfg with the platform's ring defaults and everything off. */
void chip_config_defaults(chip_config *cfg, const platform *p);

/* Builds a chip for a validated graph. Returns 0, or -1 with a message in err. */
int chip_init(chip *c, const platform *p, const chip_config *cfg, const char *graph_path, char *err,
              size_t errlen);

/* The same for a graph whose header is read (graph_open): the chip takes g
 * over, on failure too, and the file is not opened again. */
int chip_init_graph(chip *c, const platform *p, const chip_config *cfg, graph *g, char *err, size_t errlen);

/* Frees everything. */
void chip_free(chip *c);

/* Records ring's occupancy (live task slots, heap bytes, dependency-pool
 * entries) at time t in the occupancy series; called wherever one moves. */
void chip_note_occupancy(chip *c, int ring, ps_t t);

/* Handles the next event. Returns 1 while the run goes on, 0 once it ended
 * (see c->status). */
int chip_step(chip *c);

/* Time of the next event, PS_NEVER when none. */
static inline ps_t chip_next_time(const chip *c)
{
    ps_t t = evq_peek_time(&c->q);
    return c->wake_next >= 0 && c->wake_t[c->wake_next] < t ? c->wake_t[c->wake_next] : t;
}

/* The scheduler-overhead model of the run so far (ohm.h). Returns 0, or -1
 * when out of memory; the caller frees r with ohm_result_free. */
int chip_overhead(const chip *c, ohm_result *r);

/* Runs to the end without any outside world. Returns the final status. */
chip_status chip_run(chip *c);

/* The live task with this id, or NULL when retired or never allocated. */
struct task *chip_task(chip *c, uint64_t id);

/* Schedules an event. */
void chip_schedule(chip *c, ps_t t, enum chip_event kind, uint32_t who, uint64_t arg);

/* chip_schedule as the handler's last act: when nothing else is due at or
 * before t once the handler returns, the engine runs the event at once,
 * without a trip through the queue (the same order, so the same outputs;
 * one event fewer). Nothing may be scheduled after it in the same handler. */
void chip_schedule_last(chip *c, ps_t t, enum chip_event kind, uint32_t who, uint64_t arg);

/* Sets scheduler thread ti's poll wake-up: EV_SCHED_ITER at t with its
 * current generation, ordered as if queued now; replaces the one before. */
void chip_set_wake(chip *c, int ti, ps_t t);

/* Drops thread ti's poll wake-up (its generation moved on). */
void chip_clear_wake(chip *c, int ti);

/* Ends the run with a runtime error code (model/README.md §4.7). */
void chip_fatal(chip *c, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Ends the run at time t with a device error: the STARS watchdog reaped the
 * op (507018), or the host's stream sync gave up first (507046). */
void chip_device_kill(chip *c, ps_t t);

/* Ends the run because the simulator failed (not the simulated runtime). */
void chip_error(chip *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Ends the run (CHIP_DONE) once orchestration finished and every submitted
 * task completed; the end time is the later of the two. */
void chip_check_finished(chip *c);

/* The Perfetto trace samples ring `ring`'s task window, heap and dependency
 * pool at t (call only with c->pf set). */
void chip_trace_ring(chip *c, int ring, ps_t t);

/* Counts queued ready tasks per shape into d[3]. */
void chip_queue_depths(const chip *c, uint32_t d[3]);

/* Task lifecycle (model/README.md §3.4), shared by the orchestrator and the schedulers. */
void chip_route_ready(chip *c, struct task *tk, ps_t t);           /* to a ready or the dummy queue */
void chip_task_done(chip *c, struct task *tk, int thread, ps_t t); /* completion effects */
void chip_release(chip *c, struct task *tk, ps_t t);               /* deferred release of RETAIN pins */
/* Early dispatch (model/README.md §8.5): a flagged producer fully published tells its
 * consumers; a consumer whose producers all did becomes a candidate. */
void chip_propagate_dispatch(chip *c, struct task *producer, ps_t t);
void chip_try_early_candidate(chip *c, struct task *tk, ps_t t);
/* The sync-start rendezvous: once every gated core of tk's cohort holds a
 * running slot and its producers have released it, rings them all at t and
 * returns true (it rings once); else false. */
bool chip_sync_rendezvous(chip *c, struct task *tk, ps_t t);
void chip_check_consumed(chip *c, struct task *tk, ps_t t);
int chip_add_fanout(chip *c, struct task *producer, uint64_t consumer); /* 0 or -1 (OOM) */

#endif
