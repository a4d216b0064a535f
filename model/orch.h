/* orch.h - the orchestrator thread: walks the graph's operations in order, submits tasks, opens and closes
 * scopes. */
#ifndef PTOSIM_ORCH_H
#define PTOSIM_ORCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "graph.h"
#include "simtime.h"
#include "task.h"

struct chip;

#define ORCH_MAX_SCOPES 64 /* PTO2_MAX_SCOPE_DEPTH, the root scope included */

/* The model's state of the tensor currently bound to a name. */
typedef struct orch_tensor {
    uint64_t owner; /* creator task id (runtime-created tensors) */
    bool owned;     /* owner is meaningful */
} orch_tensor;

/* One open scope. */
typedef struct orch_scope {
    size_t list_start;         /* first entry of this scope in the flat scope-task list */
    bool manual;               /* manual scope */
    char site[GRAPH_SITE_MAX]; /* "<file>:<line>" */
} orch_scope;

typedef struct orch {
    graph g;                            /* the graph being streamed */
    graph_op *op;                       /* current operation */
    bool have_op;                       /* op read but not yet carried out (e.g. blocked) */
    bool call_started;                  /* the current submit call began (call_start valid) */
    ps_t call_start;                    /* start of the current submit call, blocking included */
    bool eof_seen;                      /* graph exhausted, root scope released */
    bool done;                          /* orchestration finished */
    bool blocked;                       /* waiting for ring space */
    int blocked_ring;                   /* ring it waits on */
    ps_t blocked_since;                 /* when the wait began */
    ps_t blocked_ps[RING_COUNT];        /* total wait per ring */
    uint64_t submit_idx;                /* submits so far (orchestrator record index) */
    orch_scope scopes[ORCH_MAX_SCOPES]; /* open scopes, [0] = root */
    int nscopes;                        /* open scopes, root included */
    uint64_t *scope_list;               /* flat scope-task list */
    size_t nscope_list, scope_list_cap;
    orch_tensor *tensors; /* per tensor slot */
    size_t tensors_cap;
    uint64_t *labels; /* label slot -> task id */
    size_t labels_cap;
    ps_t end_time; /* when orchestration finished */
} orch;

/* Opens the graph and prepares the root scope. Returns 0, or -1 with a message in err. */
int orch_init(struct chip *c, const char *graph_path, char *err, size_t errlen);

/* Frees everything. */
void orch_free(orch *o);

/* Event handlers: carry out operations from time t; finish a submit at t. */
void orch_on_step(struct chip *c, ps_t t);
void orch_on_publish(struct chip *c, uint64_t task_id, ps_t t);

/* Ring r advanced its watermark at time t: resume a blocked orchestrator. */
void orch_on_ring_advance(struct chip *c, int ring, ps_t t);

#endif
