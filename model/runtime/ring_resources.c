/* ring_resources.c - ring_, dep_, heap_: heap ring bump/wrap allocation and the dependency-list pool. */
#include "ring_resources.h"

uint64_t heap_round_output(uint64_t bytes)
{
    return (bytes + HEAP_OUTPUT_ALIGN - 1) / HEAP_OUTPUT_ALIGN * HEAP_OUTPUT_ALIGN;
}

void ring_heap_init(ring_heap *h, uint64_t cap)
{
    *h = (ring_heap){.cap = cap};
}

static void note_peak(ring_heap *h)
{
    if (ring_heap_used(h) > h->peak_used)
        h->peak_used = ring_heap_used(h);
}

int ring_heap_alloc(ring_heap *h, uint64_t need, uint64_t *offset)
{
    need = (need + HEAP_TASK_ALIGN - 1) / HEAP_TASK_ALIGN * HEAP_TASK_ALIGN;
    if (need == 0) {
        *offset = h->top; /* a zero-length block at top */
        return 0;
    }
    if (h->top >= h->tail) {
        if (h->cap - h->top >= need) {
            *offset = h->top;
        } else if (h->top == h->tail && need <= h->cap) {
            /* empty ring: rebase both frontiers to the start of the next lap */
            uint64_t lap = h->alloc_cum + (h->cap - h->top);
            h->tail_cum = lap;
            h->alloc_cum = lap;
            h->top = h->tail = 0;
            *offset = 0;
        } else if (h->tail > need) {
            /* wrap: [top, cap) is wasted until the tail passes it */
            h->alloc_cum += h->cap - h->top;
            h->top = 0;
            *offset = 0;
        } else {
            return -1;
        }
    } else if (h->tail - h->top > need) {
        *offset = h->top;
    } else {
        return -1;
    }
    h->top = *offset + need;
    h->alloc_cum += need;
    note_peak(h);
    return 0;
}

void ring_heap_set_tail(ring_heap *h, uint64_t end_off, uint64_t end_cum)
{
    if (end_cum <= h->tail_cum)
        return; /* a rebase already moved past it */
    h->tail = end_off;
    h->tail_cum = end_cum;
}

void dep_pool_init(dep_pool *d, uint64_t cap)
{
    *d = (dep_pool){.cap = cap, .top = 1, .tail = 1};
}

void dep_pool_take(dep_pool *d, uint64_t n)
{
    d->top += n;
    if (d->top - d->tail > d->peak_used)
        d->peak_used = d->top - d->tail;
}

bool dep_pool_reclaim(dep_pool *d, uint32_t last_alive, uint64_t mark)
{
    if (last_alive == 0 || last_alive - d->last_reclaimed < DEP_POOL_CLEANUP_INTERVAL)
        return false;
    d->last_reclaimed = last_alive;
    if (mark <= d->tail)
        return false;
    d->tail = mark;
    return true;
}
