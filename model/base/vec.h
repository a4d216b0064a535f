/* vec.h - helpers for arrays: room for one more element or for an index, and search in a sorted one. */
#ifndef PTOSIM_VEC_H
#define PTOSIM_VEC_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* vec_grow starting at first items: for the many short lists of one record each (a task's edges), where
 * 64 slots apiece would cost more than the records. */
static inline int vec_grow_from(void **buf, size_t *cap, size_t len, size_t elem, size_t first)
{
    if (len < *cap)
        return 0;
    size_t ncap = *cap ? *cap * 2 : first;
    if (ncap > SIZE_MAX / elem)
        return -1;
    void *nb = realloc(*buf, ncap * elem);
    if (!nb)
        return -1;
    *buf = nb;
    *cap = ncap;
    return 0;
}

/* Ensures *buf (of elem-sized items, *cap allocated) can hold len + 1 items,
 * doubling the capacity. Returns 0, or -1 when out of memory (buf untouched). */
static inline int vec_grow(void **buf, size_t *cap, size_t len, size_t elem)
{
    if (len < *cap)
        return 0;
    size_t ncap = *cap ? *cap * 2 : 64;
    if (ncap > SIZE_MAX / elem)
        return -1;
    void *nb = realloc(*buf, ncap * elem);
    if (!nb)
        return -1;
    *buf = nb;
    *cap = ncap;
    return 0;
}

/* Ensures *buf can hold need items, zero-filling the new ones (arrays
 * indexed by an id, where 0 means "none"). Returns 0, or -1 when out of
 * memory (buf untouched). */
static inline int vec_reserve_zeroed(void **buf, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t ncap = *cap ? *cap * 2 : 64;
    while (ncap < need)
        ncap *= 2;
    char *nb = realloc(*buf, ncap * elem);
    if (!nb)
        return -1;
    memset(nb + *cap * elem, 0, (ncap - *cap) * elem);
    *buf = nb;
    *cap = ncap;
    return 0;
}

/* The first of n items (stride bytes apart from base, sorted by the
 * uint64_t at key_off in each) whose key is not below key: n when none is.
 * For a struct array: vec_lower_bound(a, n, sizeof(*a), offsetof(T, id), id). */
static inline size_t vec_lower_bound(const void *base, size_t n, size_t stride, size_t key_off, uint64_t key)
{
    const unsigned char *b = base;
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uint64_t k;
        memcpy(&k, b + mid * stride + key_off, sizeof(k));
        if (k < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* A zeroed array of n items of elem bytes that will be written all over (a hash table's slots). calloc's
 * fresh pages are the kernel's shared zero page until written, so probing a slot before filling it cost
 * two faults a page, the second a copy that also interrupts the other thread's CPU to flush its TLB. A
 * large one is made writable at once instead (MADV_POPULATE_WRITE; a kernel without it keeps the faults).
 * Returns NULL when out of memory or n * elem overflows. */
static inline void *vec_zalloc(size_t n, size_t elem)
{
    if (elem && n > SIZE_MAX / elem)
        return NULL;
    char *p = calloc(n, elem);
    const size_t pg = 4096;
    if (p && n * elem >= 16 * pg) {
        uintptr_t a = ((uintptr_t)p + pg - 1) & ~(uintptr_t)(pg - 1), e = ((uintptr_t)p + n * elem) & ~(uintptr_t)(pg - 1);
        if (e > a)
            (void)madvise((void *)a, e - a, MADV_POPULATE_WRITE);
    }
    return p;
}

#endif
