/* ready_queue.h - readyq_: FIFO queues of task ids: the global ready queues per shape and the dummy queue. */
#ifndef PTOSIM_READY_QUEUE_H
#define PTOSIM_READY_QUEUE_H

#include <stddef.h>
#include <stdint.h>

/* A growable ring buffer. The runtime's queues hold 65536 entries per shape
 * (model/README.md §7.3) and never overflow with default windows; this one grows. */
typedef struct readyq {
    uint64_t *buf; /* entries */
    size_t cap;    /* power of two */
    size_t head;   /* index of the oldest entry */
    size_t len;    /* entries queued */
    size_t peak;   /* most entries queued at once */
} readyq;

/* Initialises an empty queue. */
void readyq_init(readyq *q);

/* Frees the queue. */
void readyq_free(readyq *q);

/* Appends an id. Returns 0, or -1 when out of memory. */
int readyq_push(readyq *q, uint64_t id);

/* The oldest id, without removing it (the queue must not be empty). */
static inline uint64_t readyq_peek(const readyq *q)
{
    return q->buf[q->head];
}

/* Removes the oldest id into *id. Returns 0, or -1 when empty. */
int readyq_pop(readyq *q, uint64_t *id);

#endif
