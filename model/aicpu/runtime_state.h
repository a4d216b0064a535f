/* runtime_state.h - rt_: the state the engine shares with the AICPU threads, and its services. */
/* The runtime state the chip engine shares with the orchestrator and the scheduler threads, and the engine
 * services they call: what lets orchestrator.c and scheduler.c work without knowing the engine
 * (chip_engine.h). */
#ifndef PTOSIM_RUNTIME_STATE_H
#define PTOSIM_RUNTIME_STATE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../chip/aicore.h"
#include "../record/dep_gen.h"
#include "../record/device_dump.h"
#include "../chip/hbm.h"
#include "../record/occupancy.h"
#include "../analysis/exec_log.h"
#include "../analysis/makespan_parts.h"
#include "../record/perfetto_trace.h"
#include "../chip/pipe.h"
#include "../chip/platform.h"
#include "../chip/pmu.h"
#include "../runtime/ready_queue.h"
#include "../runtime/ring_resources.h"
#include "../record/scope_stats.h"
#include "../base/simtime.h"
#include "../record/swimlane.h"
#include "../runtime/task_slots.h"
#include "../runtime/tensor_map.h"
#include "../chip/variation.h"

/* The chip's own vocabulary (its run options, event kinds, status, costs)
 * keeps the chip_ names sim/ and tests/ know it by; it is defined here
 * because the components share it. */

/* What the user asked for on the command line (the runtime's RunConfig). */
typedef struct chip_config {
    int swimlane_level;                    /* enable_chip_swimlane, 0..4 */
    uint32_t ring_task_window[RING_COUNT]; /* effective task window per ring, slots */
    uint64_t ring_heap[RING_COUNT];        /* effective heap per ring, bytes */
    uint32_t ring_dep_pool[RING_COUNT];    /* effective dependency-list pool per ring, entries */
    bool dep_gen;                          /* enable_dep_gen: collect deps.json */
    bool scope_stats;                      /* enable_scope_stats: collect scope_stats.jsonl */
    bool no_makespan_parts;                /* keep no makespan parts (no ptosim_run.json is written) */
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
    const struct gcomp *compiled;          /* the graph's ops parsed beforehand (graph_compiled.h), or NULL */
    /* --kernel-set NAME.FIELD=VALUE resolved to func ids: every submit running the kernel gets the flag
     * (CHIP_FLAG_KEEP: as its line says; zero-initialised configs keep every line as it is) */
    uint8_t kernel_sync_start[GRAPH_MAX_FUNC_ID];    /* require_sync_start, a chip_flag */
    uint8_t kernel_early_resolve[GRAPH_MAX_FUNC_ID]; /* allow_early_resolve, a chip_flag */
    bool kernel_sets;                                /* some entry above is not CHIP_FLAG_KEEP */
    /* --kernel-scale NAME=F resolved to func ids: every task of the kernel runs F times as long, F in
     * millionths (0: as the graph says; pipe_scale) */
    uint32_t kernel_scale[GRAPH_MAX_FUNC_ID];
    bool kernel_scales; /* some entry above is set */
} chip_config;

/* A per-kernel override of a submit's flag (chip_config.kernel_*). */
enum chip_flag { CHIP_FLAG_KEEP = 0, CHIP_FLAG_FALSE = 1, CHIP_FLAG_TRUE = 2 };

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
    EV_WIRE_DONE,   /* thread 0 has wired a submitted task (sched_wire_batch); arg = task id */
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
    /* the roofline (model/output/roofline.h): over the pipe-model executions whose operations are counted */
    uint64_t ops_executions; /* executions counted */
    double ops;              /* their operations (pipe_ops) */
    double ops_peak_cycles;  /* the cycles one core would take for them at its peak rate */
    uint64_t ops_gm_bytes;   /* their GM bytes (HBM traffic) */
    ps_t ops_ps;             /* their time on cores */
} kernel_stats;

/* Control-path costs in picoseconds, from the platform. */
typedef struct chip_costs {
    ps_t submit, scope_end_per_task, spin;
    ps_t poll, store, wmb, idle_iter, pop, payload, subtask, resolve_base, resolve_per, release;
    ps_t visible, setup, fin_latency;
    ps_t record_wb;            /* AICore swimlane record commit after each task (0 when off) */
    ps_t first_min, first_max; /* first-task extra pickup latency on half the cores */
    ps_t cold_record;          /* extra write-back of a core's first record (0 when records are off) */
    ps_t drain_sync;           /* the drain's acknowledgement tree across the scheduler threads */
    ps_t arg_fill;             /* a gated core filling its own args (hidden in the doorbell wait) */
    ps_t wire_task, wire_edge; /* thread 0 wiring a task, and each of its fanin edges (sched_wire_batch) */
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

struct rt;

/* What the engine does for its components: the event queue and the task
 * lifecycle (model/README.md §3.4), which reaches every component. chip_engine.c
 * fills the table; a test may fill it with fakes. */
typedef struct rt_services {
    void (*schedule)(struct rt *r, ps_t t, enum chip_event kind, uint32_t who, uint64_t arg);
    void (*schedule_last)(struct rt *r, ps_t t, enum chip_event kind, uint32_t who, uint64_t arg);
    void (*route_ready)(struct rt *r, struct task *tk, ps_t t);         /* to a ready or the dummy queue */
    void (*try_early_candidate)(struct rt *r, struct task *tk, ps_t t); /* an early-dispatch candidate */
    void (*check_consumed)(struct rt *r, struct task *tk, ps_t t);      /* retire it if nothing holds it */
    void (*check_finished)(struct rt *r); /* the orchestrator finished: is the run done? */
    void (*propagate_dispatch)(struct rt *r, struct task *producer, ps_t t); /* its blocks are all out */
    bool (*sync_rendezvous)(struct rt *r, struct task *tk, ps_t t); /* ring a staged cohort if it can */
    void (*release)(struct rt *r, struct task *tk, ps_t t);         /* deferred release of RETAIN pins */
    bool (*orch_done)(struct rt *r);                                /* has orchestration finished? */
    void (*set_wake)(struct rt *r, int ti, ps_t t); /* sleeping thread ti's poll wake-up, replaced in place */
    void (*clear_wake)(struct rt *r, int ti);       /* ... dropped (its generation moved on) */
    void (*wire_queued)(struct rt *r, ps_t t);      /* the wiring queue grew, or orchestration ended */
} rt_services;

/* The shared fields, listed once: struct rt is made of them, and the engine's
 * struct chip holds the same list in an anonymous struct beside an rt in a
 * union, so chip code writes c->rings and a component given &c->rt writes
 * r->rings to the same memory (chip_engine.h). */
#define RT_FIELDS                                                                                            \
    platform plat;                         /* parameters */                                                  \
    chip_config cfg;                       /* run options */                                                 \
    chip_costs cost;                       /* derived costs */                                               \
    rt_services svc;                       /* the engine's services */                                       \
    ps_t now;                              /* time of the event being handled */                             \
    task_ring rings[RING_COUNT];           /* task windows */                                                \
    ring_heap heaps[RING_COUNT];           /* heap rings */                                                  \
    dep_pool deppools[RING_COUNT];         /* dependency-list pools */                                       \
    uint64_t spill_used[RING_COUNT];       /* fanin spill entries held per ring */                           \
    uint64_t spill_peak[RING_COUNT];       /* most held at once */                                           \
    uint64_t retired_heap_off[RING_COUNT]; /* heap block end of the newest retired task */                   \
    uint64_t retired_heap_cum[RING_COUNT]; /* ... cumulative */                                              \
    uint64_t retired_dep_mark[RING_COUNT]; /* dependency-pool mark of the newest retired task */             \
    tmap tm;                               /* the TensorMap */                                               \
    occ occ;                               /* ring occupancy over simulated time (ring_occupancy) */         \
    bool dep_gen_on;                       /* deps.json collection */                                        \
    bool logical_on;                       /* the dependency replay runs (deps.json, overhead model) */      \
    depgen dg;                             /* ... its state */                                               \
    exec_log oh;                            /* executions and edges for the overhead model */                 \
    mkp_log mk;                            /* per-task times for the makespan parts */                       \
    vary vr;                               /* the variation model's generator (off without --seed) */        \
    bool scope_stats_on;                   /* scope stats collection */                                      \
    scopestats ss;                         /* ... its state */                                               \
    readyq ready[3];                       /* global ready queues per shape: AIC, AIV, MIX */                \
    readyq dummyq;                         /* dependency-only tasks and false predicates */                  \
    readyq wireq;                          /* submitted tasks thread 0 has yet to wire (sched_wire_batch) */ \
    readyq ready_sync[3];                  /* sync-start lane per shape (tier 0) */                          \
    readyq early[3];                       /* early-dispatch candidates per shape (64 each) */               \
    readyq early_sync;                     /* sync-start early candidates, every shape (64) */               \
    uint64_t early_staged;                 /* blocks pre-staged as gated payloads */                         \
    uint64_t early_rung;                   /* doorbells rung: completion walks, sync-start rendezvous */     \
    uint64_t pending_dispatches;           /* blocks written to a pending slot (dual issue) */               \
    ps_t record_wb_delay;                  /* task pickups held back by swimlane record commits */           \
    drain_state drain;                     /* the global sync-start drain */                                 \
    int ncores;                            /* AICores */                                                     \
    core cores[PLATFORM_MAX_CORES];                                                                          \
    int nsched;         /* scheduler threads */                                                              \
    fanout_node *nodes; /* fanout list nodes; [0] is the null sentinel */                                    \
    size_t nodes_cap;                                                                                        \
    uint32_t nodes_free; /* free list head */                                                                \
    uint32_t nodes_used; /* nodes in use */                                                                  \
    swimlane sl;         /* swimlane records */                                                              \
    pf_trace *pf;        /* the Perfetto trace's records, NULL when off (costs no time) */                   \
    pipe_table pipes;    /* pipe-model results of every distinct pipe cost */                                \
    uint32_t kernel_pipe[GRAPH_MAX_FUNC_ID]; /* func id -> pipes index (0 = flat cost or not seen yet) */    \
    kernel_stats *kstats;                    /* per func id */                                               \
    hbm mem;                                 /* the die's shared HBM bandwidth */                            \
    uint64_t gm_bytes;                       /* GM bytes moved by pipe-model executions */                   \
    bool dump_on;                            /* args dump collected */                                       \
    dump_state dump;                         /* ... its state */                                             \
    bool pmu_on;                             /* pmu.csv rows are collected */                                \
    pmu_log pmu;                             /* ... here */                                                  \
    uint64_t tasks_submitted;                /* submit + dummy + alloc */                                    \
    uint64_t tasks_completed;                                                                                \
    uint64_t kernel_tasks;  /* submitted tasks for AICores (no dummies, allocs), run or not */               \
    uint64_t executions;    /* AICore executions (task x core x block) */                                    \
    uint64_t ring_advances; /* watermark advances (progress for the scheduler timeout) */                    \
    ps_t last_completion;   /* latest completion */                                                          \
    ps_t end_time;          /* when the run ended */                                                         \
    chip_status status;                                                                                      \
    int fatal_code;     /* runtime error code when CHIP_FATAL */                                             \
    char message[4096]; /* what ended the run, when not CHIP_DONE */                                         \
    char note[512];     /* ptosim's context for a fatal beyond the runtime's text, or "" */

typedef struct rt {
    RT_FIELDS
} rt;

/* The makespan parts' share of task id (NULL when the log keeps nothing). */
static inline mkp_task *rt_mkp(rt *r, uint64_t id)
{
    return mkp_task_of(&r->mk, task_id_ring(id), task_id_local(id));
}

/* The live task with this id, or NULL when retired or never allocated. */
static inline struct task *rt_task(rt *r, uint64_t id)
{
    int ring = task_id_ring(id);
    if (ring >= RING_COUNT)
        return NULL;
    return task_ring_get(&r->rings[ring], task_id_local(id));
}

/* The engine's services, called by name. */
static inline void rt_schedule(rt *r, ps_t t, enum chip_event kind, uint32_t who, uint64_t arg)
{
    r->svc.schedule(r, t, kind, who, arg);
}
/* As a handler's last act: the engine may run the event at once (model/README.md §1.1);
 * nothing may be scheduled after it in the same handler. */
static inline void rt_schedule_last(rt *r, ps_t t, enum chip_event kind, uint32_t who, uint64_t arg)
{
    r->svc.schedule_last(r, t, kind, who, arg);
}
static inline void rt_route_ready(rt *r, struct task *tk, ps_t t)
{
    r->svc.route_ready(r, tk, t);
}
static inline void rt_try_early_candidate(rt *r, struct task *tk, ps_t t)
{
    r->svc.try_early_candidate(r, tk, t);
}
static inline void rt_check_consumed(rt *r, struct task *tk, ps_t t)
{
    r->svc.check_consumed(r, tk, t);
}
static inline void rt_check_finished(rt *r)
{
    r->svc.check_finished(r);
}
static inline void rt_propagate_dispatch(rt *r, struct task *producer, ps_t t)
{
    r->svc.propagate_dispatch(r, producer, t);
}
static inline bool rt_sync_rendezvous(rt *r, struct task *tk, ps_t t)
{
    return r->svc.sync_rendezvous(r, tk, t);
}
static inline void rt_release(rt *r, struct task *tk, ps_t t)
{
    r->svc.release(r, tk, t);
}
static inline bool rt_orch_done(rt *r)
{
    return r->svc.orch_done(r);
}
static inline void rt_set_wake(rt *r, int ti, ps_t t)
{
    r->svc.set_wake(r, ti, t);
}
static inline void rt_clear_wake(rt *r, int ti)
{
    r->svc.clear_wake(r, ti);
}
static inline void rt_wire_queued(rt *r, ps_t t)
{
    r->svc.wire_queued(r, t);
}

/* Ends the run with a runtime error code (model/README.md §4.7); the first end stands. */
void rt_fatal(rt *r, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void rt_vfatal(rt *r, int code, const char *fmt, va_list ap);

/* Ends the run because the simulator failed (not the simulated runtime). */
void rt_error(rt *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void rt_verror(rt *r, const char *fmt, va_list ap);

/* Records ring's occupancy (live task slots, heap bytes, dependency-pool
 * entries) at time t in the occupancy series; called wherever one moves. */
void rt_note_occupancy(rt *r, int ring, ps_t t);

/* The Perfetto trace samples ring `ring`'s task window, heap and dependency
 * pool at t (call only with r->pf set). */
void rt_trace_ring(rt *r, int ring, ps_t t);

/* Counts queued ready tasks per shape into d[3]. */
void rt_queue_depths(const rt *r, uint32_t d[3]);

/* Adds consumer to producer's fanout list. Returns 0, or -1 when out of memory. */
int rt_add_fanout(rt *r, struct task *producer, uint64_t consumer);

#endif
