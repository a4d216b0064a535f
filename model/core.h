/* core.h - AICore state: topology (ids, clusters, owning scheduler thread) and the running execution. */
#ifndef PTOSIM_CORE_H
#define PTOSIM_CORE_H

#include <stdbool.h>
#include <stdint.h>

#include "graph.h"
#include "simtime.h"

#define CORE_REG_RESERVED_LOW 0x7FFFFFF0U /* start of the reserved token band (runtime.md §3.4) */

/* One AICore. Its timeline for an execution is fixed when the scheduler
 * writes the dispatch, so a core needs no events of its own. */
typedef struct core {
    int id;              /* logical core id (AIC first, formats.md §0.4) */
    core_type type;      /* AIC or AIV */
    int cluster;         /* cluster index */
    int subslot;         /* 0 = AIC, 1 = AIV0, 2 = AIV1 of its cluster */
    int thread;          /* owning scheduler thread */
    bool busy;           /* an execution is bound to the core */
    uint64_t task_id;    /* running task */
    int block;           /* SPMD block index of the running execution */
    uint32_t reg;        /* dispatch token of the running execution */
    uint32_t last_reg;   /* last token handed out on this core */
    ps_t dispatch;       /* AICPU store to DATA_MAIN_BASE */
    ps_t receive;        /* AICore read the token */
    ps_t start;          /* kernel body starts */
    ps_t end;            /* kernel body returned */
    ps_t fin_visible;    /* FIN readable in COND */
    uint64_t executions; /* executions run */
    ps_t busy_ps;        /* sum of kernel windows */
} core;

/* Fills cores[0 .. 3*clusters) with ids, types, clusters and owner threads:
 * AIC c = c, AIV = clusters + 2c (+1); cluster c belongs to thread c % nsched
 * (runtime.md §1.9, formats.md §0.4). */
void core_topology(core *cores, int clusters, int nsched);

/* Next dispatch token of a core: 1, 2, 3 ... skipping the reserved band. */
uint32_t core_next_reg(core *c);

#endif
