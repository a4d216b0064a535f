/* vec.h - helpers for growable arrays: room for one more element, or for an index. */
#ifndef PTOSIM_VEC_H
#define PTOSIM_VEC_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

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

#endif
