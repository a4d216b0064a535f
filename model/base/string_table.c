/* string_table.c - strtab_: open-addressing string table with FNV-1a hashing. */
#include "string_table.h"

#include "vec.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t hash_str(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 0x100000001b3ULL;
    }
    /* FNV-1a's low bits depend only on the inputs' low bits, and the buckets are the low bits: ids that
     * differ in their digits alone crowded a few runs of buckets. A finaliser (MurmurHash3's) spreads them. */
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h;
}

void strtab_init(strtab *t)
{
    memset(t, 0, sizeof(*t));
}

void strtab_free(strtab *t)
{
    for (size_t i = 0; i < t->count; i++)
        free(t->keys[i]);
    free(t->keys);
    free(t->index);
    memset(t, 0, sizeof(*t));
}

int strtab_find(const strtab *t, const char *s)
{
    if (!t->nbuckets)
        return -1;
    size_t mask = t->nbuckets - 1;
    for (size_t i = hash_str(s) & mask;; i = (i + 1) & mask) {
        int e = t->index[i];
        if (e == 0)
            return -1;
        if (strcmp(t->keys[e - 1], s) == 0)
            return e - 1;
    }
}

static int rehash(strtab *t, size_t nb)
{
    int *ni = vec_zalloc(nb, sizeof(*ni));
    if (!ni)
        return -1;
    for (size_t s = 0; s < t->count; s++) {
        size_t i = hash_str(t->keys[s]) & (nb - 1);
        while (ni[i])
            i = (i + 1) & (nb - 1);
        ni[i] = (int)s + 1;
    }
    free(t->index);
    t->index = ni;
    t->nbuckets = nb;
    return 0;
}

int strtab_intern(strtab *t, const char *s)
{
    int found = strtab_find(t, s);
    if (found >= 0)
        return found;
    /* keep the load factor under one half */
    if ((t->count + 1) * 2 > t->nbuckets && rehash(t, t->nbuckets ? t->nbuckets * 2 : 64) != 0)
        return -1;
    if (t->count == t->keys_cap) {
        size_t ncap = t->keys_cap ? t->keys_cap * 2 : 64;
        char **nk = realloc(t->keys, ncap * sizeof(*nk));
        if (!nk)
            return -1;
        t->keys = nk;
        t->keys_cap = ncap;
    }
    char *copy = strdup(s);
    if (!copy)
        return -1;
    int slot = (int)t->count++;
    t->keys[slot] = copy;
    size_t i = hash_str(s) & (t->nbuckets - 1);
    while (t->index[i])
        i = (i + 1) & (t->nbuckets - 1);
    t->index[i] = slot + 1;
    return slot;
}
