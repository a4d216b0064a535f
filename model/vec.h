/* vec.h - one helper for growable arrays: make room for one more element. */
#ifndef PTOSIM_VEC_H
#define PTOSIM_VEC_H

#include <stddef.h>
#include <stdlib.h>

/* Ensures *buf (of elem-sized items, *cap allocated) can hold len + 1 items,
 * doubling the capacity. Returns 0, or -1 when out of memory (buf untouched). */
static inline int vec_grow(void **buf, size_t *cap, size_t len, size_t elem)
{
    if (len < *cap)
        return 0;
    size_t ncap = *cap ? *cap * 2 : 64;
    void *nb = realloc(*buf, ncap * elem);
    if (!nb)
        return -1;
    *buf = nb;
    *cap = ncap;
    return 0;
}

#endif
