/* runtime_state.c - rt_: the shared state's own helpers: ending the run, occupancy samples, fanout nodes. */
#include "runtime_state.h"
#include "../base/msg_text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void rt_vfatal(rt *r, int code, const char *fmt, va_list ap)
{
    if (r->status != CHIP_RUNNING)
        return;
    vsnprintf(r->message, sizeof(r->message), fmt, ap);
    msgtext_fix(r->message, sizeof(r->message)); /* it may quote the graph: printed on stderr */
    r->status = CHIP_FATAL;
    r->fatal_code = code;
    r->end_time = r->now;
}

void rt_fatal(rt *r, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rt_vfatal(r, code, fmt, ap);
    va_end(ap);
}

void rt_verror(rt *r, const char *fmt, va_list ap)
{
    if (r->status != CHIP_RUNNING && r->status != CHIP_DONE)
        return;
    vsnprintf(r->message, sizeof(r->message), fmt, ap);
    msgtext_fix(r->message, sizeof(r->message));
    r->status = CHIP_ERROR;
    r->end_time = r->now;
}

void rt_error(rt *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rt_verror(r, fmt, ap);
    va_end(ap);
}

void rt_trace_ring(rt *r, int ring, ps_t t)
{
    const dep_pool *d = &r->deppools[ring];
    int id = PF_CTR_RING0 + 3 * ring;
    int64_t heap = (int64_t)ring_heap_used(&r->heaps[ring]);
    if (pf_counter_set(r->pf, id, t, task_ring_active(&r->rings[ring])) != 0 ||
        pf_counter_set(r->pf, id + 1, t, heap) != 0 ||
        pf_counter_set(r->pf, id + 2, t, (int64_t)(d->top - d->tail)) != 0)
        rt_error(r, "out of memory for the Perfetto trace");
}

void rt_queue_depths(const rt *r, uint32_t d[3])
{
    for (int s = 0; s < 3; s++)
        d[s] = (uint32_t)(r->ready[s].len + r->ready_sync[s].len);
}

int rt_add_fanout(rt *r, task *producer, uint64_t consumer)
{
    if (!r->nodes_free) {
        size_t ncap = r->nodes_cap * 2;
        fanout_node *nn = realloc(r->nodes, ncap * sizeof(*nn));
        if (!nn)
            return -1;
        r->nodes = nn;
        for (size_t i = ncap - 1; i >= r->nodes_cap; i--) {
            r->nodes[i].next = r->nodes_free;
            r->nodes_free = (uint32_t)i;
        }
        r->nodes_cap = ncap;
    }
    uint32_t n = r->nodes_free;
    r->nodes_free = r->nodes[n].next;
    r->nodes[n].consumer = consumer;
    r->nodes[n].next = producer->fanout_head;
    producer->fanout_head = n;
    producer->consumers++;
    r->nodes_used++;
    return 0;
}

void rt_note_occupancy(rt *r, int ring, ps_t t)
{
    const dep_pool *d = &r->deppools[ring];
    occ_note(&r->occ, t, ring, task_ring_active(&r->rings[ring]), ring_heap_used(&r->heaps[ring]),
             d->top - d->tail);
}
