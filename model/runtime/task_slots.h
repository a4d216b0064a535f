/* task_slots.h - task_: task slots in per-ring windows, task ids and their reference counts. */
/* The reference counts decide when a slot is reclaimed. */
#ifndef PTOSIM_TASK_SLOTS_H
#define PTOSIM_TASK_SLOTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../base/simtime.h"

#define RING_COUNT 4        /* PTO2_MAX_RING_DEPTH (model/README.md §4.1) */
#define TASK_FANIN_INLINE 4 /* producers kept inside the slot before the overflow array */

/* Resource shape of a task (model/README.md §7.3). */
typedef enum {
    SHAPE_AIC = 0,
    SHAPE_AIV = 1,
    SHAPE_MIX = 2,
    SHAPE_DUMMY = 3, /* dependency-only, or a false predicate */
    SHAPE_ALLOC = 4, /* alloc_tensors: completes inline, never queued */
} task_shape;

/* Early-dispatch state of a consumer (model/README.md §8.5). */
typedef enum {
    EARLY_NONE = 0,       /* not a candidate (yet) */
    EARLY_STAGING = 1,    /* queued or staged as gated payloads, waiting for its producers */
    EARLY_DISPATCHED = 2, /* released: doorbells rung, or routed the normal way */
} early_state;

/* Task states (pto_runtime2_types.h): PENDING covers waiting, queued and running. */
typedef enum { TASK_PENDING = 0, TASK_COMPLETED = 1, TASK_CONSUMED = 2 } task_state;

/* Task ids are (ring << 32) | local (model/README.md §3.2); all ones is
 * PTO2TaskId::invalid() (hw-native-sys/simpler src/common/task_interface/pto_task_id.h). */
#define TASK_ID_INVALID UINT64_MAX
static inline uint64_t task_make_id(int ring, uint32_t local)
{
    return ((uint64_t)ring << 32) | local;
}
static inline int task_id_ring(uint64_t id)
{
    return (int)((id >> 32) & 0xFF);
}
static inline uint32_t task_id_local(uint64_t id)
{
    return (uint32_t)id;
}

/* One producer this task waits on or retains. */
typedef struct task_link {
    uint64_t producer; /* producer task id */
    bool retain;       /* DEP_RETAIN: holds a fanout claim until this task is released */
} task_link;

/* One task slot. */
typedef struct task {
    uint64_t id;             /* full task id; the slot is valid for this id only */
    uint64_t submit_idx;     /* position in the orchestrator's submit order */
    int32_t kernel_ids[3];   /* [aic, aiv0, aiv1], -1 = inactive */
    uint8_t shape;           /* task_shape */
    uint8_t state;           /* task_state */
    uint8_t mask;            /* active subslots: bit0 AIC, bit1 AIV0, bit2 AIV1 */
    bool predicate;          /* false: retired without dispatch */
    bool early_resolve;      /* allow_early_resolve */
    bool sync_start;         /* require_sync_start (kept only with block_num > 1) */
    bool published;          /* orchestrator finished wiring (the +1 fanin released) */
    bool queued;             /* routed to a ready queue (exactly once) */
    int32_t block_num;       /* SPMD blocks */
    int32_t blocks_claimed;  /* blocks handed to cores so far */
    int32_t subtasks_done;   /* FINs observed */
    int32_t subtasks_total;  /* block_num x popcount(mask) */
    ps_t dur[3];             /* kernel time per subslot, per block */
    uint32_t pipe_ix[3];     /* pipe-model result per subslot (chip pipes), 0 = flat cost */
    int32_t fanin_count;     /* distinct WAIT producers + 1 (released at publish) */
    int32_t fanin_refcount;  /* producers completed + released guard */
    int32_t fanout_claims;   /* consumer edges claimed on this task */
    int32_t fanout_released; /* claims released */
    bool scope_released;     /* the owning scope has ended (scope bit) */
    bool releases_done;      /* this task's RETAIN pins on its producers were released */
    uint32_t consumers;      /* consumers in the fanout list (for the walk cost) */
    uint32_t fanout_head;    /* first fanout node (index into the chip's node pool), 0 = none */
    uint32_t nlinks;         /* producers linked */
    task_link links_inline[TASK_FANIN_INLINE];
    task_link *links_more;      /* producers beyond the inline ones (malloc'd) */
    uint32_t links_more_cap;    /* capacity of links_more */
    uint64_t heap_end_off;      /* end offset of its heap block */
    uint64_t heap_end_cum;      /* ... as a cumulative heap position */
    uint64_t dep_pool_mark;     /* dependency-pool top after its wiring */
    uint32_t spill;             /* fanin spill entries it holds */
    uint8_t early;              /* early_state */
    bool early_ok;              /* every WAIT producer is flagged early_resolve (or was complete at wiring) */
    bool propagated;            /* this producer told its consumers it is fully published */
    int32_t dispatch_fanin;     /* producers fully published, or complete at wiring */
    int32_t early_target;       /* producers to count (WAIT edges) */
    int32_t subtasks_published; /* subtasks written to cores */
    uint64_t staged_mask[2];    /* cores holding a gated block of this task */
    int32_t sync_running;       /* sync-start cohort: its gated cores in running slots (rendezvous count) */
    ps_t ready_at;              /* when it became ready */
    uint64_t ready_by;          /* ... by this producer's completion, TASK_ID_INVALID: by its publish */
    ps_t completed_at;          /* when the completion was observed */
    struct dump_desc *dump;     /* args it will dump (args dump on), NULL = none */
} task;

/* Producer link i of t. */
static inline task_link *task_link_at(task *t, uint32_t i)
{
    return i < TASK_FANIN_INLINE ? &t->links_inline[i] : &t->links_more[i - TASK_FANIN_INLINE];
}

/* Appends a producer link (deduplicated: flags are OR-ed). Returns 1 if new,
 * 0 if merged, -1 when out of memory. */
int task_add_link(task *t, uint64_t producer, bool retain);

/* Frees the overflow link array. */
void task_clear_links(task *t);

/* A task window of one ring: slots indexed by local id modulo the size. */
typedef struct task_ring {
    task *slots;          /* window slots */
    uint32_t window;      /* power of two */
    uint32_t next_local;  /* next local id to hand out */
    uint32_t last_alive;  /* oldest local id not yet CONSUMED (watermark) */
    uint32_t touched;     /* slots [0, touched) were handed out at least once */
    uint64_t peak_active; /* most tasks in flight at once */
} task_ring;

/* Allocates a window. Returns 0, or -1 when out of memory. */
int task_ring_init(task_ring *r, uint32_t window);

/* Frees a window. */
void task_ring_free(task_ring *r);

/* Tasks in flight: allocated and not yet past the watermark. */
static inline uint32_t task_ring_active(const task_ring *r)
{
    return r->next_local - r->last_alive;
}

/* At most window - 1 tasks in flight (model/README.md §4.2). */
static inline bool task_ring_has_space(const task_ring *r)
{
    return task_ring_active(r) + 1 < r->window;
}

/* The live task with this id, or NULL when it is retired (or never existed). */
static inline task *task_ring_get(task_ring *r, uint32_t local)
{
    if ((uint32_t)(local - r->last_alive) >= (uint32_t)(r->next_local - r->last_alive))
        return NULL;
    return &r->slots[local & (r->window - 1)];
}

#endif
