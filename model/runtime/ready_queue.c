/* ready_queue.c - readyq_: growable FIFO ring buffer. */
#include "ready_queue.h"

#include <stdlib.h>
#include <string.h>

void readyq_init(readyq *q)
{
    memset(q, 0, sizeof(*q));
}

void readyq_free(readyq *q)
{
    free(q->buf);
    memset(q, 0, sizeof(*q));
}

int readyq_push(readyq *q, uint64_t id)
{
    if (q->len == q->cap) {
        size_t ncap = q->cap ? q->cap * 2 : 256;
        uint64_t *nb = malloc(ncap * sizeof(*nb));
        if (!nb)
            return -1;
        for (size_t i = 0; i < q->len; i++)
            nb[i] = q->buf[(q->head + i) & (q->cap - 1)];
        free(q->buf);
        q->buf = nb;
        q->cap = ncap;
        q->head = 0;
    }
    q->buf[(q->head + q->len) & (q->cap - 1)] = id;
    q->len++;
    if (q->len > q->peak)
        q->peak = q->len;
    return 0;
}

int readyq_pop(readyq *q, uint64_t *id)
{
    if (!q->len)
        return -1;
    *id = q->buf[q->head];
    q->head = (q->head + 1) & (q->cap - 1);
    q->len--;
    return 0;
}
