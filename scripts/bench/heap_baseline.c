/* heap_baseline.c - the bare minimum a discrete-event simulator pays: a C binary heap pushing and popping N events. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef struct ev {
    uint64_t t, seq;
} ev;

static ev *heap;
static size_t len;

static int before(const ev *a, const ev *b)
{
    return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static void push(ev e)
{
    size_t i = len++;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!before(&e, &heap[p]))
            break;
        heap[i] = heap[p];
        i = p;
    }
    heap[i] = e;
}

static ev pop(void)
{
    ev top = heap[0], last = heap[--len];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= len)
            break;
        if (c + 1 < len && before(&heap[c + 1], &heap[c]))
            c++;
        if (!before(&heap[c], &last))
            break;
        heap[i] = heap[c];
        i = c;
    }
    if (len)
        heap[i] = last;
    return top;
}

/* Usage: heap_baseline EVENTS [LIVE]: pops EVENTS events from a heap holding LIVE
 * (default 64) pending ones, each pop pushing a successor a pseudo-random time
 * later, and prints the seconds it took. */
int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    uint64_t n = strtoull(argv[1], NULL, 10), live = argc > 2 ? strtoull(argv[2], NULL, 10) : 64, x = 88172645463325252ULL;
    heap = malloc((live + 1) * sizeof(*heap));
    if (!heap)
        return 1;
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    uint64_t seq = 0, sum = 0;
    for (uint64_t i = 0; i < live; i++)
        push((ev){i, seq++});
    for (uint64_t i = 0; i < n; i++) {
        ev e = pop();
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        sum += e.t;
        push((ev){e.t + 1 + (x & 1023), seq++});
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    printf("%.6f %llu\n", (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9,
           (unsigned long long)(sum & 1));
    return 0;
}
