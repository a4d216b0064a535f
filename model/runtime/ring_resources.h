/* ring_resources.h - ring_, dep_, heap_: per-ring resources besides the task window. */
/* The heap ring, the dependency-list pool and the fanin spill pool (model/README.md §4.3-4.4). */
#ifndef PTOSIM_RING_RESOURCES_H
#define PTOSIM_RING_RESOURCES_H

#include <stdbool.h>
#include <stdint.h>

#define HEAP_OUTPUT_ALIGN 1024       /* PTO2_PACKED_OUTPUT_ALIGN */
#define HEAP_TASK_ALIGN 64           /* PTO2_ALIGN_SIZE */
#define DEP_POOL_CLEANUP_INTERVAL 64 /* PTO2_DEP_POOL_CLEANUP_INTERVAL */
#define FANIN_INLINE_CAP 64          /* PTO2_FANIN_INLINE_CAP */

/* The heap of one ring: a bump pointer over [0, cap) whose tail follows the
 * ring's watermark. Offsets wrap; the cumulative counters never do (scope
 * stats, v6). */
typedef struct ring_heap {
    uint64_t cap;       /* bytes */
    uint64_t top;       /* next free offset */
    uint64_t tail;      /* reclaim frontier offset (end of the last retired block) */
    uint64_t alloc_cum; /* cumulative allocation frontier, wrap waste included */
    uint64_t tail_cum;  /* cumulative reclaim frontier */
    uint64_t peak_used; /* most bytes held at once (alloc_cum - tail_cum) */
} ring_heap;

/* Bytes a task's runtime-created outputs take: each rounded to 1024, packed,
 * the total rounded to 64 (a no-op after the 1024 rounding). */
uint64_t heap_round_output(uint64_t bytes);

/* Prepares an empty heap of cap bytes. */
void ring_heap_init(ring_heap *h, uint64_t cap);

/* Tries to allocate need bytes with the runtime's rules: at top if it fits
 * before the end; else, on an empty ring, rebase to 0; else wrap to 0 if
 * tail > need; when top < tail, only if tail - top > need. A zero-byte
 * request always succeeds at top. On success writes the block's offset and
 * returns 0 (the caller then reads top/alloc_cum for the block's end);
 * returns -1 when it does not fit now. */
int ring_heap_alloc(ring_heap *h, uint64_t need, uint64_t *offset);

/* Moves the tail to the end of the newest retired block (offset and
 * cumulative position). Called lazily, at the orchestrator's next alloc. */
void ring_heap_set_tail(ring_heap *h, uint64_t end_off, uint64_t end_cum);

/* Bytes held, wrap waste included. */
static inline uint64_t ring_heap_used(const ring_heap *h)
{
    return h->alloc_cum - h->tail_cum;
}

/* The dependency-list pool of one ring: linear counters starting at 1. */
typedef struct dep_pool {
    uint64_t cap;            /* entries */
    uint64_t top;            /* next entry (linear) */
    uint64_t tail;           /* oldest live entry (linear) */
    uint32_t last_reclaimed; /* ring watermark at the last reclaim */
    uint64_t peak_used;      /* most entries held at once */
} dep_pool;

/* Prepares an empty pool of cap entries. */
void dep_pool_init(dep_pool *d, uint64_t cap);

/* Entries free now. */
static inline uint64_t dep_pool_available(const dep_pool *d)
{
    return d->cap - (d->top - d->tail);
}

/* Takes n entries (the caller checked availability). */
void dep_pool_take(dep_pool *d, uint64_t n);

/* The runtime's reclaim: once the watermark moved >= 64 tasks since the last
 * reclaim, the tail jumps to mark (the pool top recorded after wiring task
 * last_alive - 1). Returns true if the tail moved. */
bool dep_pool_reclaim(dep_pool *d, uint32_t last_alive, uint64_t mark);

#endif
