/* makespan_parts.h - mkp_: a run's makespan cut into named parts along the path that ended it. */
/* Accumulated forward: each task from its ready on holds a path node, the parts of the path that made it
 * ready; a node held by one child is merged into it, so memory follows the tasks in flight, not the graph's
 * length. The parts are those of a walk back in time from the run's end
 * (docs/explanation/diff-attribution.md): steps a later point could still clip are kept as steps until no clip
 * can reach them. */
#ifndef PTOSIM_MAKESPAN_PARTS_H
#define PTOSIM_MAKESPAN_PARTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../base/simtime.h"

#define MKP_RINGS 4     /* task id rings (RING_COUNT) */
#define MKP_WHAT_MAX 96 /* a part's name, NUL included */

/* What made a task ready. */
enum { MKP_BY_NONE = 0, MKP_BY_PRODUCER = 1, MKP_BY_PUBLISH = 2 };

/* A path node (makespan_parts.c); a task slot holds its own once made. */
typedef struct mkp_node mkp_node;

/* A task's share of the log, in the log's windows beside the task slots. Its path node is made only when the
 * task becomes ready (or runs, or completes, whichever comes first): a window of published tasks waiting for
 * their producers costs these few bytes each, not a node. */
typedef struct mkp_task {
    mkp_node *ref;     /* its node once made, else the orchestrator's waits at its publish; NULL: none kept */
    ps_t pub;          /* its publish */
    ps_t open_from;    /* the start of the orchestrator's wait open at its publish */
    int16_t open_part; /* ... its part, -1 when none */
    bool has_node;     /* ref is its node */
    bool staged;       /* an early-dispatch candidate not yet completed */
} mkp_task;

typedef struct mkp_log {
    mkp_node *free;           /* nodes to reuse */
    struct mkp_chunk *chunks; /* every node, freed together */
    mkp_node *orch;           /* the orchestrator's waits so far (this log's reference), NULL before any */
    mkp_node *last;           /* the node of the completion that came last (the first of equals) */
    bool have_last;           /* a completion was observed */
    ps_t last_t;
    ps_t wait_to_max;  /* the latest end of a finished wait */
    size_t nstaged;    /* early-dispatch candidates not yet completed */
    ps_t staged_min;   /* ... no later than their staging (a lower bound of their points) */
    size_t live, peak; /* nodes in use, the most at once */
    mkp_task *tasks[MKP_RINGS]; /* per ring, by local task id modulo its window (mkp_windows), NULL: none */
    uint32_t tmask[MKP_RINGS];  /* window - 1 */
    const char *why;   /* why the parts cannot be exact (a static string), NULL while they can */
    bool off;          /* nothing kept: a run whose ptosim_run.json no one writes pays nothing for it */
} mkp_log;

void mkp_init(mkp_log *l);

/* Keeps nothing from here on (before the first task): the parts then say why they are absent. */
void mkp_off(mkp_log *l);
void mkp_free(mkp_log *l);

/* Room for the tasks in flight: window[r] (a power of two) per ring, beside the task slots. Returns 0, or -1
 * when out of memory. Nothing for a log that is off. */
int mkp_windows(mkp_log *l, const uint32_t window[MKP_RINGS]);

/* The share of task `local` of ring `ring`; NULL when the log keeps nothing (every logger ignores NULL). */
static inline mkp_task *mkp_task_of(mkp_log *l, int ring, uint32_t local)
{
    return ring >= 0 && ring < MKP_RINGS && l->tasks[ring] ? &l->tasks[ring][local & l->tmask[ring]] : NULL;
}

/* Loggers for the engine. The int ones return 0, or -1 when out of memory; every one ignores a task that
 * keeps nothing (NULL, or ref NULL). One that cannot make a node leaves the parts absent ("out of memory"),
 * never wrong. */

/* The task is published at t. `blocked`: the orchestrator is waiting on resource res of ring `ring` since
 * `since`. */
int mkp_published(mkp_log *l, mkp_task *k, ps_t t, bool blocked, int res, int ring, ps_t since);
/* It became ready at t, by its publish or the completion of the producer `maker` (NULL: retired). */
void mkp_ready(mkp_log *l, mkp_task *k, int by, const mkp_task *maker, ps_t t);
/* It became an early-dispatch candidate at t (its points may come before its ready, never before t). */
void mkp_staged(mkp_log *l, mkp_task *k, ps_t t);
/* One execution ended; the one that ended last is kept (the first of equals). */
void mkp_exec(mkp_log *l, mkp_task *k, int32_t func, ps_t dispatch, ps_t start, ps_t end, ps_t idle,
              ps_t dump_pre);
/* Args dump: the capture of its outputs after its last FIN took `spent`. */
void mkp_dump_post(mkp_log *l, mkp_task *k, ps_t spent);
/* Its completion was observed at t: its parts are final (its consumers made ready now take its node). */
int mkp_completed(mkp_log *l, mkp_task *k, ps_t t);
/* The task slot lets go of its node (after its completion's fanout walk); *k is cleared. */
void mkp_task_done(mkp_log *l, mkp_task *k);
/* The orchestrator waited on resource res (orch_resource) of ring `ring` from..to. */
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
    uint64_t path_tasks; /* tasks on the path */
    mkp_part *parts;     /* kernels by name, the fixed parts, then the waits by resource and ring */
    size_t nparts;
} mkp_result;

/* Names a kernel (func id) for its part, or NULL for "func N". */
typedef const char *(*mkp_kernel_name)(int32_t func, void *arg);

/* Names an orchestrator wait's resource ("task_window", "heap", ...). */
typedef const char *(*mkp_res_name)(int32_t res);

/* The parts of the path from whatever ended the run: makespan = max(orch_end, the last completion). The parts
 * (every fixed one, kernels and waits only when they hold time) add up to makespan_ns exactly. Returns 0, or
 * -1 when out of memory; the caller frees r with mkp_result_free. computed = false says why there are none. */
int mkp_compute(const mkp_log *l, ps_t makespan, ps_t orch_end, mkp_kernel_name kname, void *karg,
                mkp_res_name rname, mkp_result *r);

void mkp_result_free(mkp_result *r);

/* The name of fixed part i (MKP_P_*). */
const char *mkp_fixed_name(int i);

#endif
