/* perfetto_trace.h - pf_: ptosim's own Chrome/Perfetto JSON trace of a run. */
/* Slices per AICore and AICPU thread, dependency flows, and counters over simulated time. */
#ifndef PTOSIM_PERFETTO_TRACE_H
#define PTOSIM_PERFETTO_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../base/simtime.h"
#include "../base/string_table.h"

struct hbm;
struct task;

/* Records kept before the trace's horizon. A record is one slice, one flow
 * (two events) or one counter change, about 130 bytes of JSON, so the
 * default keeps a trace near 65 MB, which ui.perfetto.dev opens. Once the
 * limit is reached the trace ends at that record's simulated time (the
 * horizon, named in the file's metadata): later records are not kept, earlier
 * ones still are, up to twice the limit. */
#define PF_MAX_RECORDS 500000

#define PF_RINGS 4   /* RING_COUNT */
#define PF_THREADS 4 /* PLATFORM_MAX_AICPU_THREADS */

/* Counter tracks fed during the run (the overhead lines are computed at the end). */
enum {
    PF_CTR_RING0 = 0,                            /* ring r: 3r task window, 3r+1 heap, 3r+2 dep pool */
    PF_CTR_HBM = 3 * PF_RINGS,                   /* HBM bandwidth in use, bytes per second */
    PF_CTR_ARENA0 = PF_CTR_HBM + 1,              /* args-dump arena fill of AICPU thread t, bytes */
    PF_CTR_BACKLOG = PF_CTR_ARENA0 + PF_THREADS, /* args-dump records the host has not written yet */
    PF_CTR_COUNT,
};

/* A scheduler thread's slice that is no swimlane phase kind: parked by the
 * args dump's back-pressure (task_id holds the dump_gate it waited at). */
#define PF_PHASE_DUMP_PARK 255

/* What an orchestrator slice is. */
typedef enum {
    PF_CALL_SUBMIT,    /* a submit call, blocking included */
    PF_CALL_DUMMY,     /* a dummy task's submit call */
    PF_CALL_ALLOC,     /* an alloc_tensors call */
    PF_CALL_SCOPE_END, /* end_scope releasing its tasks */
    PF_CALL_USER_CODE, /* the graph's user_code */
    PF_CALL_WAIT,      /* blocked on a ring resource, inside a call */
    PF_CALL_KIND_COUNT
} pf_call_kind;

/* One AICore execution (task x core x block). */
typedef struct pf_exec {
    uint64_t task; /* task id */
    ps_t dispatch; /* AICPU wrote the payload */
    ps_t receive;  /* the core read the token */
    ps_t start;    /* kernel start: the slice begins */
    ps_t end;      /* kernel end: the slice ends */
    ps_t finish;   /* AICPU saw the FIN (PS_NEVER: never, the run ended first) */
    int32_t core;  /* core id */
    int32_t func;  /* func id of the kernel this subslot ran */
    int32_t block; /* SPMD block index */
} pf_exec;

/* One scheduler phase on an AICPU thread (swimlane phase kinds). */
typedef struct pf_phase {
    ps_t start, end;  /* window */
    uint64_t task_id; /* dummy_task / predicated_skip markers, else 0 */
    uint32_t tasks;   /* tasks processed */
    uint8_t kind;     /* phase_kind */
    uint8_t thread;   /* scheduler thread */
} pf_phase;

/* One orchestrator slice. */
typedef struct pf_call {
    ps_t start, end;  /* window */
    uint64_t task_id; /* task the call created (submit, dummy, alloc) */
    uint8_t kind;     /* pf_call_kind */
    uint8_t res;      /* orch_resource waited for (PF_CALL_WAIT) */
    uint8_t ring;     /* ring of that resource, or of the task */
} pf_call;

/* One dependency edge, producer -> consumer, as the orchestrator wired it. */
typedef struct pf_edge {
    uint64_t pred, succ; /* task ids */
} pf_edge;

/* A counter track's changes, in the order they were made: a change is a
 * signed step at a time, so changes made out of time order (the host
 * collector runs behind the chip) still add up once sorted. */
typedef struct pf_step {
    ps_t t;    /* when */
    int64_t d; /* by how much */
} pf_step;

typedef struct pf_counter {
    pf_step *v; /* steps */
    size_t n, cap;
    int64_t last; /* the value after the last step recorded */
} pf_counter;

/* Everything collected for the trace. */
typedef struct pf_trace {
    size_t limit;     /* records kept before the horizon */
    size_t records;   /* records kept */
    ps_t horizon;     /* the trace ends here (PS_NEVER: it covers the whole run) */
    bool incomplete;  /* records before the horizon were dropped too (twice the limit) */
    uint64_t dropped; /* records not kept */
    pf_exec *ex;      /* AICore executions, in retirement order */
    size_t nex, excap;
    pf_phase *ph; /* scheduler phases, in recording order */
    size_t nph, phcap;
    pf_call *calls; /* orchestrator slices, in recording order */
    size_t ncalls, callcap;
    pf_edge *edges; /* dependency edges, in wiring order */
    size_t nedges, edgecap;
    int32_t *site_of[PF_RINGS];   /* per ring, local task id -> scope site slot + 1 (0 = unknown) */
    size_t site_cap[PF_RINGS];    /* entries of site_of */
    strtab sites;                 /* scope sites ("file:line") */
    pf_counter ctr[PF_CTR_COUNT]; /* counter tracks */
} pf_trace;

/* Starts an empty trace keeping `limit` records before its horizon (0 =
 * PF_MAX_RECORDS). Returns 0, or -1 when out of memory. */
int pf_init(pf_trace *p, size_t limit);

/* Frees everything. */
void pf_free(pf_trace *p);

/* Adds an AICore execution. Returns 0, or -1 when out of memory. */
int pf_exec_add(pf_trace *p, const pf_exec *e);

/* Adds a scheduler phase of thread `thread`. Returns 0 or -1 (memory). */
int pf_phase_add(pf_trace *p, int thread, int kind, ps_t start, ps_t end, uint32_t tasks, uint64_t task_id);

/* Adds an orchestrator slice. Returns 0 or -1 (memory). */
int pf_call_add(pf_trace *p, pf_call_kind kind, ps_t start, ps_t end, uint64_t task_id, int res, int ring);

/* A submit, dummy or alloc call ended at t (published): its slice from
 * call_start, the task's scope site, and an edge from each of its producers.
 * Returns 0 or -1 (memory). */
int pf_publish(pf_trace *p, struct task *tk, const char *site, ps_t call_start, ps_t t);

/* Counter `id` has value v from time t on (a change is kept only when v
 * differs from the last value recorded). Returns 0 or -1 (memory). */
int pf_counter_set(pf_trace *p, int id, ps_t t, int64_t v);

/* Counter `id` changes by d at time t. Returns 0 or -1 (memory). */
int pf_counter_add(pf_trace *p, int id, ps_t t, int64_t d);

/* The HBM bandwidth in use after a re-share at t: the running GM flows'
 * demands scaled by their speeds. Returns 0 or -1 (memory). */
int pf_hbm(pf_trace *p, ps_t t, const struct hbm *h);

#endif
