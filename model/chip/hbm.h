/* hbm.h - the die's shared HBM bandwidth as a fluid: the running GM flows and their fair shares. */
/* Max-min fair shares of the running executions' GM flows, and the one pending re-share. */
#ifndef PTOSIM_HBM_H
#define PTOSIM_HBM_H

#include <stdbool.h>
#include <stdint.h>

#include "platform.h"
#include "../base/simtime.h"

/* The GM traffic of one AICore execution. It needs `work` picoseconds at
 * full speed, during which it moves bytes at `demand` bytes per picosecond
 * on average; when the die cannot serve every demand, it gets a max-min fair
 * share and runs at share / demand of full speed. */
typedef struct hbm_flow {
    bool active;   /* running */
    bool pinned;   /* its end was observed: it keeps its speed to the end */
    double demand; /* bytes per ps at full speed */
    double work;   /* full-speed picoseconds left */
    double speed;  /* fraction of full speed now, (0, 1] */
    bool changed;  /* the last share changed its speed (or it just started): its end moved */
} hbm_flow;

/* Which execution a core's GM flow belongs to (it may sit in the core's
 * running or pending slot, and move between them). */
typedef struct hbm_ref {
    uint64_t task_id;
    int block;
    int subslot;
} hbm_ref;


#define HBM_MASK_WORDS ((PLATFORM_MAX_CORES + 63) / 64)

typedef struct hbm {
    double capacity;                        /* die bandwidth, bytes per ps */
    ps_t last;                              /* when work was last brought up to date */
    int active;                             /* running flows */
    bool saturated;                         /* the running demands exceed the capacity */
    ps_t saturated_ps;                      /* time spent saturated so far */
    hbm_flow flows[PLATFORM_MAX_CORES];     /* one per core */
    /* the scans below visit only these cores, in core order as before */
    uint64_t active_mask[HBM_MASK_WORDS];   /* cores whose flow is active */
    uint64_t pend_mask[HBM_MASK_WORDS];     /* cores with a start_at or an end_at */
    /* each core's flow lifecycle (PS_NEVER: none) */
    ps_t start_at[PLATFORM_MAX_CORES];      /* its next execution with GM traffic starts here */
    hbm_ref next[PLATFORM_MAX_CORES];       /* ... which one */
    ps_t end_at[PLATFORM_MAX_CORES];        /* its running flow ends here */
    hbm_ref cur[PLATFORM_MAX_CORES];        /* ... which execution it is */
    ps_t lo;                                /* the earliest of start_at and end_at ... */
    bool lo_stale;                          /* ... unless this says it must be found again */
    /* the one pending re-share event */
    ps_t due;                               /* its time (PS_NEVER: none) */
    uint64_t gen;                           /* its generation: an older event is stale */
    uint64_t reshares;                      /* bandwidth re-shares over the run */
} hbm;

/* An idle memory system of bytes_per_s. */
void hbm_init(hbm *h, double bytes_per_s);

/* ---- the fluid: flows and their shares ---- */

/* Brings every running flow's work up to time now (>= the last update). */
void hbm_advance(hbm *h, ps_t now);

/* Starts core k's flow (call hbm_advance first, hbm_share after). */
void hbm_add(hbm *h, int k, double demand, double work);

/* Ends core k's flow (call hbm_advance first, hbm_share after). */
void hbm_remove(hbm *h, int k);

/* Fixes core k's speed from now on (its end was observed). */
void hbm_pin(hbm *h, int k);

/* Shares the bandwidth among the running flows: pinned flows keep theirs;
 * the rest get max-min fair shares of what is left, never more than their
 * demand. Marks the flows whose speed changed. */
void hbm_share(hbm *h);

/* When core k's flow will end at its current speed, counted from the last update. */
ps_t hbm_end(const hbm *h, int k);

/* The bandwidth the running flows use now, bytes per ps. */
double hbm_used(const hbm *h);

/* ---- the lifecycle: what the scheduler tells it, and the one pending event ---- */

/* Core k's execution r, which moves GM bytes, will start at `start`. */
void hbm_expect(hbm *h, int k, hbm_ref r, ps_t start);

/* Execution r's start moved to `start` (the slot ahead of it was retimed):
 * if it is core k's expected flow, it joins the share then. */
void hbm_restart(hbm *h, int k, hbm_ref r, ps_t start);

/* The AICPU saw execution r end on core k at time now: if it is the running
 * flow, it keeps its speed to the end (its load may run ahead of the event
 * clock, and the end must stay where it was seen). */
void hbm_observe_end(hbm *h, int k, hbm_ref r, ps_t now);

/* Whether the one pending re-share must move: true with its new time and
 * generation when an event is to be scheduled (an older one goes stale). */
bool hbm_reschedule(hbm *h, ps_t *t, uint64_t *gen);

/* Whether a re-share event of generation gen is the live one. */
bool hbm_live(const hbm *h, uint64_t gen);

/* The re-share at time t, in three steps. hbm_begin brings work up to t,
 * ends the flows due and lists in `starting` the cores whose expected flow
 * (next[k]) starts: the caller finds each execution and calls hbm_start
 * when it moves GM bytes (the flow ends at `end` at full speed), then
 * hbm_share. hbm_moved lists the cores whose running, unpinned flow's end
 * moved (end_at[k], for execution cur[k]). Both return their count. */
int hbm_begin(hbm *h, ps_t t, uint8_t starting[PLATFORM_MAX_CORES]);
void hbm_start(hbm *h, int k, hbm_ref r, double demand, double work, ps_t end);
int hbm_moved(hbm *h, uint8_t moved[PLATFORM_MAX_CORES]);

#endif
