/* evq.c - binary min-heap of events ordered by (time, insertion sequence), with the earliest event held
 * outside the heap when it arrives last. */
#include "evq.h"

#include <stdlib.h>

static int ev_before(const evq_event *a, const evq_event *b)
{
    return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

int evq_init(evq *q, size_t initial_cap)
{
    q->len = 0;
    q->has_front = false;
    q->next_seq = 0;
    q->pushed = 0;
    q->cap = initial_cap ? initial_cap : 64;
    q->heap = malloc(q->cap * sizeof(*q->heap));
    return q->heap ? 0 : -1;
}

void evq_free(evq *q)
{
    free(q->heap);
    q->heap = NULL;
    q->len = q->cap = 0;
}

static int heap_push(evq *q, evq_event ev)
{
    if (q->len == q->cap) {
        size_t ncap = q->cap * 2;
        evq_event *nh = realloc(q->heap, ncap * sizeof(*nh));
        if (!nh)
            return -1;
        q->heap = nh;
        q->cap = ncap;
    }
    size_t i = q->len++;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!ev_before(&ev, &q->heap[parent]))
            break;
        q->heap[i] = q->heap[parent];
        i = parent;
    }
    q->heap[i] = ev;
    return 0;
}

/* An event that is earlier than everything queued (the common case: a
 * thread's next phase) waits in the front slot and never touches the heap. */
int evq_push(evq *q, ps_t t, uint32_t kind, uint32_t who, uint64_t arg)
{
    evq_event ev = {.t = t, .seq = q->next_seq++, .kind = kind, .who = who, .arg = arg};
    q->pushed++;
    if (!q->has_front) {
        if (q->len == 0 || ev_before(&ev, &q->heap[0])) {
            q->front = ev;
            q->has_front = true;
            return 0;
        }
        return heap_push(q, ev);
    }
    if (ev_before(&ev, &q->front)) {
        if (heap_push(q, q->front) != 0)
            return -1;
        q->front = ev;
        return 0;
    }
    return heap_push(q, ev);
}

int evq_pop(evq *q, evq_event *out)
{
    if (q->has_front) {
        *out = q->front;
        q->has_front = false;
        return 0;
    }
    if (q->len == 0)
        return -1;
    *out = q->heap[0];
    evq_event last = q->heap[--q->len];
    size_t i = 0;
    for (;;) {
        size_t child = 2 * i + 1;
        if (child >= q->len)
            break;
        if (child + 1 < q->len && ev_before(&q->heap[child + 1], &q->heap[child]))
            child++;
        if (!ev_before(&q->heap[child], &last))
            break;
        q->heap[i] = q->heap[child];
        i = child;
    }
    if (q->len)
        q->heap[i] = last;
    return 0;
}
