/* scheduler.h - sched_: the AICPU scheduler threads. */
/* The complete / dummy / dispatch loop, with idle iterations skipped analytically. */
#ifndef PTOSIM_SCHEDULER_H
#define PTOSIM_SCHEDULER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../chip/platform.h"
#include "../base/simtime.h"

struct rt;
struct task;

#define SCHED_DUMMY_THREADS 3  /* only threads 0-2 drain the dummy queue (model/README.md §7.1) */
#define SCHED_DUMMY_PER_ITER 8 /* dummy tasks completed per iteration */
#define SCHED_WIRE_BACKOFF 32  /* thread 0 pops a short wiring queue every 33rd call (pto_scheduler.h before #1263) */
#define SCHED_DEFERRED_CAP 256 /* PTO2_DEFERRED_RELEASE_CAP (model/README.md §3.4) */
/* LOCAL_READY_CAP_PER_TYPE of the runtime's local-first ready buffers, which it
 * had until hw-native-sys/simpler #1245 (2026-07-02; platform sched_local_ready) */
#define SCHED_LOCAL_READY_CAP 64

/* Words of a thread's poll mask: one bit per core it can own. */
#define SCHED_POLL_WORDS 2
_Static_assert(PLATFORM_MAX_CORES <= 64 * SCHED_POLL_WORDS, "a thread's poll mask must cover every core");

/* One scheduler thread. While an iteration finds nothing to do the thread
 * "sleeps": its iterations are periodic (period = polls + idle overhead), so
 * the next iteration that can observe a FIN, or see a newly queued task, is
 * computed instead of simulated one by one. */
typedef struct sched_thread {
    /* read on every iteration: first, a few cache lines together */
    int index;                      /* thread index (0 .. schedulers-1) */
    int ncores;                     /* owned cores */
    int nclusters;                  /* owned clusters */
    bool sleeping;                  /* idle: no event except a wake-up */
    uint32_t iter_completions;      /* running slots retired in the current iteration */
    uint64_t gen;                   /* generation of the live scheduled events */
    uint64_t loop_iter;             /* iteration counter */
    ps_t iter_start;                /* start of the current iteration */
    ps_t sleep_base;                /* start of the idle iteration that began the sleep */
    ps_t sleep_period;              /* length of one idle iteration */
    uint64_t sleep_base_iter;       /* loop_iter at sleep_base */
    int sleep_nbusy;                /* running cores polled per idle iteration */
    uint32_t sleep_misses_per_iter; /* ready-queue pop misses per idle iteration */
    ps_t wake_at;                   /* time of the poll wake-up, PS_NEVER if none */
    ps_t last_progress;             /* end of the last iteration that made progress */
    uint32_t pop_hit, pop_miss;     /* pop counts since the last dispatch record */
    int units[2][3];  /* owned AIC/AIV cores that fit each staging phase (kept as cores change) */
    int mix_units[3]; /* owned clusters with two or more cores that fit each phase */
    int mix_full[3];  /* owned clusters whose three cores all fit each phase */
    int nlocal[3];    /* entries of each local-first ready buffer (below) */
    /* What the complete phase polls, kept as cores change (resync in scheduler.c) so an
     * iteration reads these few lines instead of every owned core's state: */
    int npolled;                         /* bits set in pollmask */
    uint64_t pollmask[SCHED_POLL_WORDS]; /* bit i: core_ids[i] is busy and not waiting for a doorbell */
    ps_t timeout_due;                    /* the no-progress check of the current sleep, PS_NEVER if none */
    ps_t timeout_event_at;               /* the one queued timeout event, PS_NEVER if none */
    uint64_t dispatched;                 /* subtasks dispatched */
    uint64_t completed;                  /* running slots retired */
    uint64_t wire_base_iter;             /* thread 0, sched_wire_batch: the iteration its wiring backoff was 0 */
    bool wired;                          /* ... this iteration wired tasks; its dispatch phase resumes after */
    uint64_t *deferred;                  /* completed tasks awaiting their deferred release */
    size_t ndeferred, deferred_cap;
    ps_t due[PLATFORM_MAX_CORES];     /* per polling index: first COND read that sees a change */
    ps_t due_fin[PLATFORM_MAX_CORES]; /* ... ignoring the running task's ACK (plan_wake without want_ack) */
    int core_ids[PLATFORM_MAX_CORES]; /* owned cores in polling order */
    int cluster_ids[PLATFORM_MAX_CLUSTERS];   /* owned clusters in order */
    uint64_t local[3][SCHED_LOCAL_READY_CAP]; /* local-first ready buffer per shape (sched_local_ready),
                                                 popped last-in first-out */
} sched_thread;

/* The scheduler threads, working on the shared runtime state. */
typedef struct sched {
    struct rt *rt; /* the shared runtime state and the engine's services (runtime_state.h) */
    sched_thread threads[PLATFORM_MAX_AICPU_THREADS];
    uint8_t cluster_fit[PLATFORM_MAX_CLUSTERS][3]; /* cores of each cluster that fit each staging phase */
    uint8_t idle_threads[3]; /* per shape: bit t while thread t has an idle unit of it (other_has_idle) */
} sched;

/* Sets up r->nsched threads, each owning its cores from the core topology. */
void sched_init(sched *sc, struct rt *r);

/* Frees the threads' buffers. */
void sched_free(sched *sc);

/* Event handlers: start of an iteration (complete phase); its dummy and
 * dispatch phases; the no-progress timeout of a sleeping thread. */
void sched_on_iter(sched *sc, int ti, ps_t t);
void sched_on_dispatch(sched *sc, int ti, ps_t t);
void sched_on_timeout(sched *sc, int ti, ps_t t);

/* The queued timeout event of thread ti fires at t: checks the current
 * sleep's no-progress deadline (and queues the next one). */
void sched_on_timeout_event(sched *sc, int ti, ps_t t);

/* GM flows start or end at time t: reshare the HBM bandwidth and move the
 * ends of the executions whose speed changed. */
void sched_on_hbm(sched *sc, ps_t t);

/* Every scheduler reached the sync-start drain barrier: thread 0 counts idle
 * capacity; short starts another round, enough stages the task everywhere. */
void sched_on_drain_resolve(sched *sc, ps_t t);

/* sched_local_ready: thread ti's completion made tk ready; it goes to ti's
 * local buffer, unseen by peers until ti spills or flushes it in its dispatch
 * phase. Returns false when the buffer is full (the caller queues it globally). */
bool sched_push_local(sched *sc, int ti, const struct task *tk);

/* A task was queued at time t: wake sleeping threads that could take it. */
void sched_notify_queued(sched *sc, const struct task *tk, ps_t t);

/* An early-dispatch candidate was queued: wake threads that may stage it. */
void sched_notify_early(sched *sc, ps_t t);

/* sched_wire_batch: the wiring queue grew, or orchestration ended, at time t:
 * wakes thread 0 for the iteration that will pop it (model/README.md §7.6). */
void sched_notify_wiring(sched *sc, ps_t t);

/* The doorbell of core `core_id` rang at time t for task_id's gated block:
 * its timeline is fixed and its owner polls it again. */
void sched_ring_core(sched *sc, int core_id, uint64_t task_id, ps_t t);

/* Queues a completed task for thread ti's deferred release. */
void sched_defer_release(sched *sc, int ti, uint64_t task_id, ps_t t);

#endif
