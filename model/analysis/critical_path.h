/* critical_path.h - cpath_: the runtime's critical_path tool over a run's executions and edges. */
/* Static CPM and the observed blame path, over a run's executions and dependency edges. */
#ifndef PTOSIM_CRITICAL_PATH_H
#define PTOSIM_CRITICAL_PATH_H

#include <stdbool.h>
#include <stdint.h>

struct exec_log;

#define CPATH_TOL_TICKS 2 /* the tool's --tol: ticks of slack in "finished before" */

/* How each gap on the observed path is blamed. */
typedef enum { CPATH_DATA_WAIT, CPATH_CORE_WAIT, CPATH_FRONT_GAP, CPATH_KINDS } cpath_kind;

/* What hw-native-sys/simpler's simpler_setup/tools/critical_path.py computes of one rank, in ticks of the
 * swimlane's counter. */
typedef struct cpath_result {
    bool computed;             /* false: no execution (or the log was dropped) */
    uint64_t tasks;            /* tasks with an execution */
    uint64_t hb_edges;         /* dependency edges kept as happens-before (producer ended before the consumer
                                * started, within CPATH_TOL_TICKS, and started strictly earlier) */
    int64_t makespan;          /* first start to last end */
    int64_t cpm;               /* static CPM: the longest duration-weighted happens-before path */
    uint64_t cpm_tasks;        /* ... its tasks */
    uint64_t observed_tasks;   /* the observed path, walked back from the last task to end */
    int64_t compute;           /* its compute: each task's span past the path's frontier */
    int64_t stall;             /* its gaps; compute + stall = makespan */
    int64_t kind[CPATH_KINDS]; /* the gaps by blame */
} cpath_result;

/* The tool's figures for a log, executions and edges taken in the log's order (the files' order: it breaks
 * ties as the tool does). Returns 0, or -1 when out of memory. */
int cpath_compute(const struct exec_log *l, cpath_result *r);

/* Called for each task of the observed path, in the path's order: its task id and its compute on the
 * path (its span past the path's frontier, in ticks; the computes add up to cpath_result.compute). */
typedef void (*cpath_visit)(void *ctx, uint64_t task, int64_t compute);

/* cpath_compute, calling visit (when not NULL) for each task of the observed path. */
int cpath_compute_visit(const struct exec_log *l, cpath_result *r, cpath_visit visit, void *ctx);

/* The blame's name as the tool prints it: "data-wait", "core-wait", "front-gap". */
const char *cpath_kind_name(cpath_kind k);

#endif
