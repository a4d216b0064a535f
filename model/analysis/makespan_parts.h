/* makespan_parts.h - mkp_: a run's makespan cut into named parts along the path that ended it. */
/* The engine logs, per task, the times the walk needs (ready, its last-ending execution, completion, what
 * made it ready) and the orchestrator's waits; the walk goes back from whatever ended the run to time 0 and
 * names every nanosecond on the way, so the parts add up to the makespan exactly
 * (docs/explanation/diff-attribution.md). */
#ifndef PTOSIM_MAKESPAN_PARTS_H
#define PTOSIM_MAKESPAN_PARTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../base/simtime.h"

#define MKP_RINGS 4              /* task id rings (RING_COUNT) */
#define MKP_MAX_TASKS (1u << 21) /* tasks logged at most; past it the log is dropped (about 170 MB) */
#define MKP_WHAT_MAX 96          /* a part's name, NUL included */

/* What made a task ready. */
enum { MKP_BY_NONE = 0, MKP_BY_PRODUCER = 1, MKP_BY_PUBLISH = 2 };

/* One task as the walk needs it (picoseconds). */
typedef struct mkp_task {
    ps_t pub;             /* the orchestrator published it */
    ps_t ready;           /* it became ready */
    ps_t dispatch, start; /* its execution that ended last: dispatched, kernel start, */
    ps_t end, idle;       /* ... kernel end, and its kernel time on an idle memory system */
    ps_t dump_pre;        /* args dump captures in the batch that dispatched that execution */
    ps_t dump_post;       /* ... the capture of its outputs after its last FIN */
    ps_t completed;       /* its completion was observed */
    uint64_t maker;       /* the producer whose completion made it ready (by == MKP_BY_PRODUCER) */
    int32_t func;         /* that execution's kernel, -1 when none ran */
    uint8_t by;           /* MKP_BY_* */
    bool has_exec, done;  /* an execution ended; the completion was observed */
} mkp_task;

/* One orchestrator wait: on resource res (orch_resource) of ring `ring`, from..to. */
typedef struct mkp_wait {
    ps_t from, to;
    int32_t res, ring;
} mkp_wait;

typedef struct mkp_log {
    mkp_task *t[MKP_RINGS]; /* per ring, by local task id */
    size_t n[MKP_RINGS], cap[MKP_RINGS];
    size_t ntasks;
    mkp_wait *w;
    size_t nw, wcap;
    bool dropped;   /* past MKP_MAX_TASKS: nothing kept */
    bool have_last; /* a completion was observed */
    uint64_t last;  /* the task whose completion came last (the first of equals) */
    ps_t last_t;
} mkp_log;

void mkp_init(mkp_log *l);
void mkp_free(mkp_log *l);

/* The task's record, grown into place (zeroed, func -1); NULL once dropped, or when out of memory (*oom). */
mkp_task *mkp_at(mkp_log *l, uint64_t task_id, bool *oom);

/* Loggers for the engine; each returns 0, or -1 when out of memory. */
int mkp_published(mkp_log *l, uint64_t task_id, ps_t t);
int mkp_ready(mkp_log *l, uint64_t task_id, int by, uint64_t maker, ps_t t);
int mkp_exec(mkp_log *l, uint64_t task_id, int32_t func, ps_t dispatch, ps_t start, ps_t end, ps_t idle,
             ps_t dump_pre);
int mkp_dump_post(mkp_log *l, uint64_t task_id, ps_t spent);
int mkp_completed(mkp_log *l, uint64_t task_id, ps_t t);
int mkp_wait_add(mkp_log *l, int res, int ring, ps_t from, ps_t to);

/* One named part, in whole nanoseconds. */
typedef struct mkp_part {
    char what[MKP_WHAT_MAX];
    int64_t ns;
} mkp_part;

/* The fixed parts, in the order they are listed after the kernels. */
enum {
    MKP_P_HBM,        /* "shared-HBM stretch" */
    MKP_P_COMPLETION, /* "completion: kernel end to completion observed" */
    MKP_P_TO_READY,   /* "scheduler: completion or publish to ready" */
    MKP_P_QUEUE,      /* "scheduler: ready to dispatch" */
    MKP_P_DISPATCH,   /* "dispatch to kernel start" */
    MKP_P_DUMP,       /* "args dump" */
    MKP_P_ORCH,       /* "orchestrator submission" */
    MKP_P_FIXED
};

typedef struct mkp_result {
    bool computed;       /* false: see why */
    const char *why;     /* why there are no parts (a static string), NULL when computed */
    int64_t makespan_ns; /* the makespan in whole nanoseconds (rounded down) */
    uint64_t path_tasks; /* tasks on the walked path */
    mkp_part *parts;     /* kernels by name, the fixed parts, then the waits by resource and ring */
    size_t nparts;
} mkp_result;

/* Names a kernel (func id) for its part, or NULL for "func N". */
typedef const char *(*mkp_kernel_name)(int32_t func, void *arg);

/* Names an orchestrator wait's resource ("task_window", "heap", ...). */
typedef const char *(*mkp_res_name)(int32_t res);

/* Walks the path back from the run's end: makespan = max(orch_end, the last completion). The parts (every
 * fixed one, kernels and waits only when they hold time) add up to makespan_ns exactly. Returns 0, or -1 when
 * out of memory; the caller frees r with mkp_result_free. A dropped log gives computed = false. */
int mkp_compute(const mkp_log *l, ps_t makespan, ps_t orch_end, mkp_kernel_name kname, void *karg,
                mkp_res_name rname, mkp_result *r);

void mkp_result_free(mkp_result *r);

/* The name of fixed part i (MKP_P_*). */
const char *mkp_fixed_name(int i);

#endif
