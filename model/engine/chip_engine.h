/* chip_engine.h - chip_: the chip engine: one event heap driving the AICPU threads and the AICores. */
#ifndef PTOSIM_CHIP_ENGINE_H
#define PTOSIM_CHIP_ENGINE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event_queue.h"
#include "../analysis/overhead_model.h"
#include "../aicpu/orchestrator.h"
#include "../aicpu/runtime_state.h"
#include "../aicpu/scheduler.h"

typedef struct chip {
    /* the state shared with the orchestrator and the schedulers (runtime_state.h): the
     * engine names its fields directly (c->rings), the components reach them
     * through &c->rt (r->rings), the same memory */
    union {
        rt rt;
        struct {
            RT_FIELDS
        };
    };
    evq q;                   /* the event heap */
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
    sched sched;            /* the scheduler threads */
    orch orch;              /* the orchestrator thread */
    int device_code;        /* ACL error when CHIP_DEVICE_ERROR (507018, 507046) */
    ps_t stars_deadline;    /* when the AICore launch's op-execute watchdog fires (PS_NEVER: no STARS) */
    ps_t stream_deadline;   /* when the host's stream sync gives up (PS_NEVER: none) */
    uint32_t stars_credits; /* credits programmed for the AICore launch */
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

/* Handles the next event. Returns 1 while the run goes on, 0 once it ended
 * (see c->status). */
int chip_step(chip *c);

/* Time of the next event, PS_NEVER when none. */
static inline ps_t chip_next_time(const chip *c)
{
    ps_t t = evq_peek_time(&c->q);
    return c->wake_next >= 0 && c->wake_t[c->wake_next] < t ? c->wake_t[c->wake_next] : t;
}

/* The scheduler-overhead model of the run so far (overhead_model.h). Returns 0, or -1
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

#endif
