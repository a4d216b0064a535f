/* event_queue.h - evq_: the chip engine's event queue: a binary min-heap keyed by (time, insertion order). */
#ifndef PTOSIM_EVENT_QUEUE_H
#define PTOSIM_EVENT_QUEUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../base/simtime.h"

/* One pending event. Ties at equal time pop in insertion order, which makes
 * every run with the same inputs replay identically. */
typedef struct evq_event {
    ps_t t;        /* when it fires */
    uint64_t seq;  /* insertion counter: the tie breaker */
    uint32_t kind; /* what to do; meaning belongs to the caller */
    uint32_t who;  /* which entity (thread index, core id, ...) */
    uint64_t arg;  /* caller data, e.g. a generation number for lazy cancel */
} evq_event;

/* Events more than EVQ_FAR_PS after the last one taken (timeouts, watchdogs:
 * seconds away) wait in a second heap, so the near one, where nearly every
 * push and pop happens, stays two levels shallower. Which heap holds an event
 * changes nothing but speed: the earliest is always the lesser of the tops. */
#define EVQ_FAR_PS 1000000000ULL /* 1 ms */

typedef struct evq {
    evq_event *heap;   /* the near heap: heap[0] is its earliest event */
    size_t len;        /* events in the near heap */
    size_t cap;        /* allocated slots */
    evq_event *far;    /* the far heap */
    size_t far_len, far_cap;
    ps_t far_t;        /* far[0]'s time and sequence, kept here (the far heap's lines go cold): */
    uint64_t far_seq;  /* PS_NEVER and UINT64_MAX when it is empty */
    ps_t now;          /* time of the last event taken */
    uint64_t next_seq; /* sequence number of the next push */
    uint64_t pushed;   /* events pushed over the queue's life */
    bool has_front;    /* front holds an event earlier than every heap entry */
    evq_event front;
} evq;

/* Initialises an empty queue. Returns 0, or -1 when out of memory. */
int evq_init(evq *q, size_t initial_cap);

/* Frees the queue's storage. */
void evq_free(evq *q);

/* Adds an event. Returns 0, or -1 when out of memory. */
int evq_push(evq *q, ps_t t, uint32_t kind, uint32_t who, uint64_t arg);

/* Removes the earliest event into *out. Returns 0, or -1 if the queue is empty. */
int evq_pop(evq *q, evq_event *out);

/* The earliest event, left in place, or NULL when empty: read its fields one
 * by one (it may have been written field by field just now, and a struct copy
 * would read it back in wider loads that stall), then evq_drop it. */
static inline const evq_event *evq_top(const evq *q)
{
    if (q->has_front)
        return &q->front;
    if (q->len && (q->heap[0].t < q->far_t || (q->heap[0].t == q->far_t && q->heap[0].seq < q->far_seq)))
        return &q->heap[0];
    return q->far_len ? &q->far[0] : NULL;
}

/* Removes the earliest event (the queue must not be empty). */
void evq_drop(evq *q);

/* Time of the earliest event, or PS_NEVER when empty. */
static inline ps_t evq_peek_time(const evq *q)
{
    const evq_event *e = evq_top(q);
    return e ? e->t : PS_NEVER;
}

#endif
