/* hbm.h - the die's shared HBM bandwidth as a fluid: max-min fair shares of the running GM traffic. */
#ifndef PTOSIM_HBM_H
#define PTOSIM_HBM_H

#include <stdbool.h>

#include "platform.h"
#include "simtime.h"

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

typedef struct hbm {
    double capacity;                    /* die bandwidth, bytes per ps */
    ps_t last;                          /* when work was last brought up to date */
    int active;                         /* running flows */
    bool saturated;                     /* the running demands exceed the capacity */
    ps_t saturated_ps;                  /* time spent saturated so far */
    hbm_flow flows[PLATFORM_MAX_CORES]; /* one per core */
} hbm;

/* An idle memory system of bytes_per_s. */
void hbm_init(hbm *h, double bytes_per_s);

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

#endif
