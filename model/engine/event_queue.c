/* event_queue.c - evq_: binary min-heap of events ordered by (time, insertion sequence). */
/* The earliest event is held outside the heap when it arrives last. */
#include "event_queue.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* (time, seq) as one 128-bit key: one compare-and-borrow, no branch */
static inline unsigned __int128 ev_key(const evq_event *e)
{
    return (unsigned __int128)e->t << 64 | e->seq;
}

static inline int ev_before(const evq_event *a, const evq_event *b)
{
    return ev_key(a) < ev_key(b);
}

int evq_init(evq *q, size_t initial_cap)
{
    q->len = 0;
    q->has_front = false;
    q->next_seq = 0;
    q->pushed = 0;
    q->now = 0;
    q->cap = initial_cap ? initial_cap : 64;
    q->heap = malloc(q->cap * sizeof(*q->heap));
    q->far_len = 0;
    q->far_t = PS_NEVER;
    q->far_seq = UINT64_MAX;
    q->far_cap = 16;
    q->far = malloc(q->far_cap * sizeof(*q->far));
    return q->heap && q->far ? 0 : -1;
}

void evq_free(evq *q)
{
    free(q->heap);
    free(q->far);
    q->heap = q->far = NULL;
    q->len = q->cap = q->far_len = q->far_cap = 0;
}

/* Two 64-bit lanes: an event is written as two of these, because the heap
 * moves entries in 16-byte loads, and a load that spans several narrower
 * stores still in flight stalls on store forwarding. */
typedef uint64_t u64x2 __attribute__((vector_size(16)));
_Static_assert(offsetof(evq_event, seq) == 8 && offsetof(evq_event, kind) == 16 &&
                   offsetof(evq_event, who) == 20 && offsetof(evq_event, arg) == 24 && sizeof(evq_event) == 32,
               "evq_event is written as two 16-byte halves");

/* Opens a hole for key in the heap (sifted up) and returns it, or NULL when
 * out of memory; the caller fills it. */
static evq_event *heap_hole(evq_event **hp, size_t *len, size_t *cap, unsigned __int128 key)
{
    if (*len == *cap) {
        size_t ncap = *cap * 2;
        evq_event *nh = realloc(*hp, ncap * sizeof(*nh));
        if (!nh)
            return NULL;
        *hp = nh;
        *cap = ncap;
    }
    evq_event *h = *hp;
    size_t i = (*len)++;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (key >= ev_key(&h[parent]))
            break;
        h[i] = h[parent];
        i = parent;
    }
    return &h[i];
}

/* A hole for an event at t with this key, in the near or the far heap. */
static evq_event *hole_for(evq *q, ps_t t, unsigned __int128 key)
{
    if (t > q->now && t - q->now > EVQ_FAR_PS) {
        evq_event *h = heap_hole(&q->far, &q->far_len, &q->far_cap, key);
        if (h == q->far) { /* the new far top: its caller fills in the same time and sequence */
            q->far_t = (ps_t)(key >> 64);
            q->far_seq = (uint64_t)key;
        }
        return h;
    }
    return heap_hole(&q->heap, &q->len, &q->cap, key);
}

/* An event that is earlier than everything queued (the common case: a
 * thread's next phase) waits in the front slot and never touches the heap. */
int evq_push(evq *q, ps_t t, uint32_t kind, uint32_t who, uint64_t arg)
{
    uint64_t seq = q->next_seq++;
    unsigned __int128 key = (unsigned __int128)t << 64 | seq;
    evq_event *slot;
    q->pushed++;
    if (!q->has_front) {
        if ((q->len == 0 || key < ev_key(&q->heap[0])) && key < ((unsigned __int128)q->far_t << 64 | q->far_seq)) {
            slot = &q->front;
            q->has_front = true;
        } else {
            slot = hole_for(q, t, key);
        }
    } else if (key < ev_key(&q->front)) {
        slot = hole_for(q, q->front.t, ev_key(&q->front));
        if (slot) {
            *slot = q->front;
            slot = &q->front;
        }
    } else {
        slot = hole_for(q, t, key);
    }
    if (!slot)
        return -1;
    /* two 16-byte stores, the width at which the heap moves entries (see heap_hole) */
    const uint32_t kw[2] = {kind, who};
    uint64_t both;
    memcpy(&both, kw, sizeof(both));
    const u64x2 lo = {t, seq}, hi = {both, arg};
    memcpy(&slot->t, &lo, sizeof(lo));
    memcpy(&slot->kind, &hi, sizeof(hi));
    return 0;
}

int evq_pop(evq *q, evq_event *out)
{
    const evq_event *top = evq_top(q);
    if (!top)
        return -1;
    out->t = top->t;
    out->seq = top->seq;
    out->kind = top->kind;
    out->who = top->who;
    out->arg = top->arg;
    evq_drop(q);
    return 0;
}

/* Removes h[0] from a heap of *len events. */
static void heap_drop(evq_event *h, size_t *len)
{
    size_t n = --*len;
    if (!n)
        return;
    /* Floyd's pop: the hole goes down to a leaf along the earlier child (one
     * compare a level), then the last entry, usually late, rises from there */
    size_t i = 0, child;
    while ((child = 2 * i + 1) + 1 < n) {
        child += ev_before(&h[child + 1], &h[child]);
        h[i] = h[child];
        i = child;
    }
    if (child < n) {
        h[i] = h[child];
        i = child;
    }
    evq_event last = h[n];
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!ev_before(&last, &h[parent]))
            break;
        h[i] = h[parent];
        i = parent;
    }
    h[i] = last;
}

void evq_drop(evq *q)
{
    const evq_event *top = evq_top(q);
    q->now = top->t;
    if (top == &q->front)
        q->has_front = false;
    else if (top == q->far) {
        heap_drop(q->far, &q->far_len);
        q->far_t = q->far_len ? q->far[0].t : PS_NEVER;
        q->far_seq = q->far_len ? q->far[0].seq : UINT64_MAX;
    }
    else
        heap_drop(q->heap, &q->len);
}
