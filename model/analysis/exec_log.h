/* exec_log.h - what a run logs for the analyses after it: its executions and edges. */
/* Every AICore execution and every dependency edge, up to a limit past which the log is dropped. */
#ifndef PTOSIM_EXEC_LOG_H
#define PTOSIM_EXEC_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Every execution and edge is kept until the run ends (the critical path and
 * the percentiles need them all), and the dependency replay that finds the
 * edges keeps every writer; past this many executions or tasks the log is
 * dropped, so a long run's memory stays bounded (about 30 MB at the limit). */
#define EXEC_LOG_MAX (1u << 16)

/* One AICore execution, on the system counter (ticks), as the swimlane
 * records it: dispatch and finish from the AICPU, receive/start/end from the
 * core. */
typedef struct exec_record {
    uint64_t task;    /* task id */
    int32_t core;     /* core id */
    int32_t aiv;      /* 1 on an AIV core, 0 on an AIC */
    int64_t dispatch; /* AICPU wrote the payload */
    int64_t receive;  /* the core read the token */
    int64_t start;    /* kernel start */
    int64_t end;      /* kernel end */
    int64_t finish;   /* AICPU observed the FIN */
    int32_t func;     /* its kernel's func id (ptosim's own runs; a log read from files leaves 0) */
} exec_record;

/* One dependency edge (deps.json pred -> succ). */
typedef struct exec_edge {
    uint64_t pred, succ;
} exec_edge;

/* What a run collects for the model. */
typedef struct exec_log {
    exec_record *x; /* executions, in any order */
    size_t nx, xcap;
    exec_edge *e; /* edges, duplicates allowed */
    size_t ne, ecap;
    size_t ntasks; /* tasks whose edges were added */
    size_t limit;  /* most executions or tasks kept (EXEC_LOG_MAX; 0 = no limit) */
    bool dropped;  /* the limit was passed: nothing is kept */
    uint64_t stamp; /* new at every change, unique in the process: what the analyses know a log by */
} exec_log;

/* Empties a log with the given execution limit (0 = none). */
void exec_log_init(exec_log *l, size_t limit);

/* Frees a log's arrays. */
void exec_log_free(exec_log *l);

/* Adds one execution; past the limit the log is freed and marked dropped.
 * Returns 0, or -1 when out of memory. */
int exec_log_add(exec_log *l, const exec_record *x);

/* Adds task succ with its edges preds[i] -> succ; past the limit of tasks
 * the log is freed and marked dropped. Returns 0, or -1 when out of memory. */
int exec_log_task(exec_log *l, uint64_t succ, const uint64_t *preds, size_t n);

#endif
