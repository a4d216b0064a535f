/* aicore.h - core_: AICore state: topology, running and pending slots, COND transitions. */
/* The running and pending slots (dual issue), and the COND transitions the AICPU observes. */
#ifndef PTOSIM_AICORE_H
#define PTOSIM_AICORE_H

#include <stdbool.h>
#include <stdint.h>

#include "pipe.h"
#include "../base/simtime.h"

#define CORE_REG_RESERVED_LOW 0x7FFFFFF0U /* start of the reserved token band (model/README.md §8.1) */

/* One execution bound to a core slot. Its timeline is fixed when the
 * scheduler writes the dispatch, so a core needs no events of its own. */
typedef struct core_slot {
    uint64_t task_id; /* task */
    int block;        /* SPMD block index */
    int subslot;      /* task subslot whose kernel runs (0 AIC, 1 AIV0, 2 AIV1) */
    uint32_t reg;     /* dispatch token: the swimlane join key */
    ps_t dispatch;    /* AICPU store to DATA_MAIN_BASE */
    ps_t receive;     /* AICore read the token */
    ps_t start;       /* ACK written, kernel body starts */
    ps_t end;         /* kernel body returned, FIN written */
    bool gated;       /* an early-dispatch payload: the core waits for the doorbell, no ACK */
    ps_t ring;        /* when the doorbell rang, PS_NEVER while gated */
    ps_t seen;        /* when the dispatch store became visible to the core */
    ps_t setup;       /* receive -> start of this execution (the platform's, or a variation draw) */
    ps_t wb;          /* its swimlane record write-back after the end (0 when off) */
    ps_t dur;         /* its kernel time on an idle memory system */
    ps_t dump_pre;    /* args dump captures of its batch before the dispatch (makespan parts) */
} core_slot;

/* One AICore. */
typedef struct core {
    int id;                 /* logical core id (AIC first, model/README.md §2.1) */
    core_type type;         /* AIC or AIV */
    int cluster;            /* cluster index */
    int subslot;            /* 0 = AIC, 1 = AIV0, 2 = AIV1 of its cluster */
    int thread;             /* owning scheduler thread */
    int poll_ix;            /* its index in the owner's polling order (sched_thread.core_ids) */
    bool busy;              /* the running slot holds an execution */
    core_slot run;          /* running slot */
    bool has_pending;       /* the pending slot holds an execution */
    core_slot pend;         /* pending slot (dual issue, model/README.md §8.2) */
    bool pending_occupied;  /* set by every dispatch, cleared when the AICPU sees the ACK: no pending write
                               before */
    bool picked_up;         /* the first task after launch was received (it pays extra latency) */
    ps_t free_at;           /* the core reads its next token from here on (after FIN + record commit) */
    uint32_t last_reg;      /* last token handed out */
    uint64_t executions;    /* executions run */
    ps_t busy_ps;           /* sum of kernel windows */
    bool fin_after_wb;      /* FIN follows the swimlane record write-back (aicore_fin_after_record) */
    /* the runtime's running_slot_state, as its no-progress check reads it: set once the core's payload
     * is built, cleared once the completion of what ran is handled (model/README.md §7.4) */
    ps_t owned_from;        /* the dispatch that made it busy set running_slot_state here */
    ps_t owned_until;       /* its last completion was handled (fanout walked) up to here */
} core;

/* Does a scheduler thread own a running task on core c at time t (running_slot_state != nullptr)? */
static inline bool core_owned_at(const core *c, ps_t t)
{
    return (c->busy && t >= c->owned_from) || t < c->owned_until;
}

/* What one COND read changed (decide_slot_transition, model/README.md §7.2). */
typedef enum {
    POLL_NOTHING,   /* no visible change, or a running FIN while a pending task waits */
    POLL_ACK,       /* the running task's ACK: the pending slot is usable (not progress) */
    POLL_RUN_DONE,  /* the running task is done, the core is idle */
    POLL_PROMOTED,  /* the pending task's ACK: the running one is done, the pending one runs */
    POLL_BOTH_DONE, /* the pending task's FIN: both are done, the core is idle */
} core_poll;

/* Fills cores[0 .. 3*clusters) with ids, types, clusters and owner threads:
 * AIC c = c, AIV = clusters + 2c (+1); cluster c belongs to thread c % nsched
 * (model/README.md §4.1, §2.1). */
void core_topology(core *cores, int clusters, int nsched);

/* Next dispatch token of a core: 1, 2, 3 ... skipping the reserved band. */
uint32_t core_next_reg(core *c);

/* When slot s's FIN is written: at its end, or after its record write-back. */
static inline ps_t core_fin_at(const core *c, const core_slot *s)
{
    return s->end + (c->fin_after_wb ? s->wb : 0);
}

/* Applies the COND value visible at time r (events become visible `lat`
 * after they happen). Finished slots are copied to done[0] (and done[1]
 * for POLL_BOTH_DONE, the pending one) before the core's state changes. */
core_poll core_poll_at(core *c, ps_t r, ps_t lat, core_slot done[2]);


/* Is the running slot a gated payload whose doorbell has not rung? The AICPU
 * does not poll such a core. */
static inline bool core_waiting_doorbell(const core *c)
{
    return c->busy && c->run.gated && c->run.ring == PS_NEVER;
}

/* Earliest time a COND read would observe a completion on this busy core
 * (and, when want_ack, the running task's ACK that frees the pending slot).
 * Inline: the scheduler's resync calls it twice on every change of a core. */
static inline ps_t core_next_observable(const core *c, ps_t lat, bool want_ack)
{
    if (!c->busy || core_waiting_doorbell(c))
        return PS_NEVER;
    if (c->has_pending && c->pend.gated && c->pend.ring == PS_NEVER)
        return core_fin_at(c, &c->run) + lat;
    if (c->has_pending)
        return c->pend.start + lat;
    if (want_ack && c->pending_occupied)
        return c->run.start + lat;
    return core_fin_at(c, &c->run) + lat;
}

/* Can a task be written into the pending slot now (a busy core whose ACK the
 * AICPU has seen, with an empty pending slot)? */
static inline bool core_pending_ready(const core *c)
{
    return c->busy && !c->pending_occupied && !c->has_pending;
}

#endif
