/* swimlane.h - chip swimlane records and their JSON file. */
/* AICore executions, AICPU dispatch/finish, scheduler and orchestrator phases. */
#ifndef PTOSIM_SWIMLANE_H
#define PTOSIM_SWIMLANE_H

#include <stddef.h>
#include <stdint.h>

#include "../base/simtime.h"

#define SWIMLANE_THREAD_SLOTS 4 /* PLATFORM_MAX_AICPU_THREADS lanes in the file (model/README.md §16.2) */

/* Scheduler phase kinds (model/README.md §16.2). */
typedef enum {
    PH_COMPLETE,
    PH_ASYNC_POLL,
    PH_DISPATCH,
    PH_RELEASE,
    PH_DUMMY,
    PH_EARLY_DISPATCH,
    PH_DRAIN,
    PH_RESOLVE,
    PH_DRAIN_PREPARE,
    PH_DRAIN_PUBLISH,
    PH_DUMMY_TASK,
    PH_PREDICATED_SKIP,
    PH_KIND_COUNT
} phase_kind;

/* One AICore execution (task x core x block) as both sides stamp it. */
typedef struct sl_exec {
    uint64_t task_id; /* full task id */
    uint32_t reg;     /* per-core dispatch token: the join key */
    ps_t dispatch;    /* AICPU wrote DATA_MAIN_BASE */
    ps_t receive;     /* AICore read the token */
    ps_t start;       /* kernel start */
    ps_t end;         /* kernel end */
    ps_t finish;      /* AICPU observed FIN */
} sl_exec;

/* One scheduler phase record. */
typedef struct sl_phase {
    uint8_t kind;             /* phase_kind */
    ps_t start, end;          /* window */
    uint64_t loop_iter;       /* scheduler loop iteration */
    uint32_t tasks;           /* tasks_processed */
    uint32_t pop_hit;         /* dispatch only */
    uint32_t pop_miss;        /* dispatch only */
    uint64_t task_id;         /* dummy_task / predicated_skip markers */
    uint32_t shared_start[3]; /* ready-queue depths [AIC, AIV, MIX] at start */
    uint32_t shared_end[3];   /* ... and at end */
} sl_phase;

/* One orchestrator submit record. */
typedef struct sl_orch {
    uint64_t submit_idx; /* monotonic per run */
    uint64_t task_id;    /* task the call created */
    ps_t start, end;     /* whole call, blocking included */
} sl_orch;

typedef struct sl_core_lane {
    sl_exec *v;
    size_t n, cap;
} sl_core_lane;

typedef struct sl_thread_lane {
    sl_phase *v;
    size_t n, cap;
} sl_thread_lane;

/* Everything collected for chip_swimlane_records.json. */
typedef struct swimlane {
    int level;                                     /* 0 = off, 1..4 */
    int ncores;                                    /* lanes in per_core */
    sl_core_lane *per_core;                        /* executions, grouped by core in collection order */
    sl_thread_lane threads[SWIMLANE_THREAD_SLOTS]; /* phase records per AICPU thread */
    sl_orch *orch;                                 /* orchestrator records */
    size_t norch, orch_cap;
} swimlane;

/* Facts the file's metadata needs. */
typedef struct swimlane_meta {
    int num_cores;             /* cores on the platform */
    const int *core_is_aiv;    /* per core: 0 = aic, 1 = aiv */
    const int *core_to_thread; /* per core: owning scheduler thread */
    uint64_t tick_hz;          /* system counter */
    uint64_t origin_ticks;     /* counter at time 0 */
} swimlane_meta;

/* Prepares collection at the given level for ncores cores. Returns 0 or -1. */
int swimlane_init(swimlane *s, int level, int ncores);

/* Frees everything. */
void swimlane_free(swimlane *s);

/* Adds an execution observed on a core (level >= 1). Returns 0 or -1. */
int swimlane_add_exec(swimlane *s, int core, const sl_exec *e);

/* Adds a scheduler phase record (level >= 3). Returns 0 or -1. */
int swimlane_add_phase(swimlane *s, int thread, const sl_phase *p);

/* Adds an orchestrator record (level 4). Returns 0 or -1. */
int swimlane_add_orch(swimlane *s, const sl_orch *o);

/* Name of a phase kind as written in the file. */
const char *swimlane_phase_name(int kind);

/* Writes chip_swimlane_records.json. Writes nothing when no record exists
 * (the runtime's "No performance data to export"); *written says which.
 * Returns 0, or -1 with a message in err. */
int swimlane_write(const swimlane *s, const swimlane_meta *m, const char *path, int *written, char *err,
                   size_t errlen);

#endif
