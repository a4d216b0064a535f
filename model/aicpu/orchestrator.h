/* orchestrator.h - orch_: the orchestrator thread, which submits the graph's tasks in order. */
/* Walks the graph's operations in order, submits tasks, opens and closes scopes. */
#ifndef PTOSIM_ORCHESTRATOR_H
#define PTOSIM_ORCHESTRATOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../graph/graph_compiled.h"
#include "../graph/graph_reader.h"
#include "../base/simtime.h"
#include "../runtime/task_slots.h"

struct rt;

#define ORCH_MAX_SCOPES 64                   /* PTO2_MAX_SCOPE_DEPTH, the root scope included */
#define ORCH_CHECK_SPINS 1024                /* deadlock checks run every 1024 spins without progress */
#define ORCH_STEP_RETRY 1                    /* EV_ORCH_STEP arg of the retry after progress */
#define ORCH_BACKSTOP_PS (500 * PS_PER_MS)   /* PTO2_ALLOC_DEADLOCK_TIMEOUT_CYCLES: 500 ms */
#define ORCH_HEAP_ARENA_BASE 0x2000000000ULL /* device address of ring 0's heap */

/* The model's state of the tensor currently bound to a name. */
typedef struct orch_tensor {
    uint64_t owner; /* creator task id (runtime-created tensors) */
    uint64_t addr;  /* heap address of a runtime-created buffer */
    bool owned;     /* runtime-created: owner and addr are meaningful */
} orch_tensor;

/* One open scope. */
typedef struct orch_scope {
    size_t list_start;         /* first entry of this scope in the flat scope-task list */
    bool manual;               /* manual scope */
    char site[GRAPH_SITE_MAX]; /* "<file>:<line>" */
} orch_scope;

/* Where a submit call is (each stage may block, model/README.md §4.6 recipe). */
typedef enum {
    SUB_IDLE,  /* no call in progress */
    SUB_ALLOC, /* task slot + heap, together */
    SUB_FANIN, /* explicit, creator and TensorMap edges; claims */
    SUB_SPILL, /* fanin spill entries beyond 64 producers */
    SUB_TMAP,  /* TensorMap entries for the task's writers */
    SUB_WIRE,  /* dependency-pool nodes, wiring */
} orch_stage;

/* What a blocked orchestrator waits for. */
typedef enum {
    RES_NONE,
    RES_TASK_WINDOW, /* code 3 on deadlock */
    RES_HEAP,        /* code 2 */
    RES_SPILL,       /* code 4 (500 ms backstop only) */
    RES_TENSORMAP,   /* code 11 (500 ms backstop only) */
    RES_DEP_POOL,    /* code 4 */
    RES_COUNT
} orch_resource;

#define ORCH_BLOCK_SITES 16 /* distinct (resource, ring, site) waits kept; the rest add to the last */

/* Where the orchestrator waited: which ring resource, inside which scope. */
typedef struct orch_block_site {
    orch_resource res;
    int ring;
    char site[GRAPH_SITE_MAX];
    ps_t ps;
} orch_block_site;

typedef struct orch {
    struct rt *rt;                            /* the shared runtime state and the engine's services (runtime_state.h) */
    graph g;                                  /* the graph being streamed */
    struct readahead *ra;                     /* its reader thread, NULL if parsed here */
    gcomp_cursor gcur;                        /* where in the compiled graph, when gcur.gc is set */
    graph_op *op;                             /* current operation */
    bool have_op;                             /* op read but not yet carried out (e.g. blocked) */
    orch_stage stage;                         /* progress of the current submit call */
    ps_t call_start;                          /* start of the current submit call, blocking included */
    uint64_t cur;                             /* task being submitted, once allocated */
    uint64_t heap_need;                       /* heap bytes of the current task */
    uint32_t dep_need;                        /* dependency-pool entries its wiring waits for */
    uint64_t out_addr[GRAPH_MAX_TENSOR_ARGS]; /* addresses of its runtime-created outputs */
    bool eof_seen;                            /* graph exhausted, root scope released */
    bool done;                                /* orchestration finished */
    bool blocked;                             /* waiting for a resource */
    orch_resource res;                        /* what it waits for */
    int blocked_ring;                         /* ring of that resource */
    ps_t blocked_since;                       /* when the wait began */
    bool retry_queued;  /* a retry step is queued: at most one, two would run two submit calls at once */
    ps_t anchor;        /* backstop anchor: first check without progress (PS_NEVER = unarmed) */
    uint64_t check_gen; /* generation of the pending deadlock check */
    ps_t blocked_ps[RING_COUNT];               /* total wait per ring */
    ps_t blocked_res_ps[RES_COUNT];            /* total wait per resource */
    ps_t blocked_rr_ps[RING_COUNT][RES_COUNT]; /* total wait per ring and resource */
    orch_block_site sites[ORCH_BLOCK_SITES];   /* waits by resource, ring and innermost scope site */
    int nsites;
    uint64_t submit_idx;                /* submits so far (orchestrator record index) */
    orch_scope scopes[ORCH_MAX_SCOPES]; /* open scopes, [0] = root */
    int nscopes;                        /* open scopes, root included */
    uint64_t *scope_list;               /* flat scope-task list */
    size_t nscope_list, scope_list_cap;
    orch_tensor *tensors; /* per tensor slot */
    size_t tensors_cap;
    uint64_t *labels; /* label slot -> task id */
    size_t labels_cap;
    ps_t end_time;                /* when orchestration finished */
    char read_err[GRAPH_ERR_MAX]; /* the graph error that stopped the run, when read on this thread */
} orch;

/* Takes over the open graph g (its header read; g is left empty) and begins
 * the root scope, working on the shared state r. Returns 0, or -1 with a
 * message in err. */
int orch_init(orch *o, struct rt *r, graph *g, char *err, size_t errlen);

/* Frees everything. */
/* Waits until every line of the graph has been checked (the reader goes on
 * past where the simulation stopped). Returns 0, or -1 with the file's first
 * error in err. */
int orch_finish_reading(orch *o, char *err, size_t errlen);

void orch_free(orch *o);

/* Event handlers: carry out operations from time t; finish a submit at t;
 * run a deadlock check of a blocked allocation. */
void orch_on_step(orch *o, ps_t t);
/* The retry a blocked wait queued when its ring moved (EV_ORCH_STEP with arg ORCH_STEP_RETRY). */
void orch_on_retry(orch *o, ps_t t);
void orch_on_publish(orch *o, uint64_t task_id, ps_t t);
void orch_on_check(orch *o, uint64_t gen, ps_t t);

/* Ring r advanced its watermark at time t: a blocked orchestrator retries. */
void orch_on_ring_advance(orch *o, int ring, ps_t t);

/* Name of a resource for reports ("task_window", "heap", ...). */
const char *orch_resource_name(orch_resource r);

#endif
