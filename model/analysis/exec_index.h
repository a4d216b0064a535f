/* exec_index.h - idmap_, xsort_: a task id to index map and a sort of executions by core. */
/* For the analyses after a run (model/analysis/overhead_model.c, model/analysis/critical_path.c): the sort
 * gives exactly the order of a stable comparison sort in O(n) when each core's executions come nearly in
 * order, as a run logs them. */
#ifndef PTOSIM_EXEC_INDEX_H
#define PTOSIM_EXEC_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "exec_log.h"

/* An open-addressing hash map from a 64-bit key to an index (any key; SIZE_MAX is no index). */
typedef struct idmap {
    uint64_t *key;
    size_t *val; /* SIZE_MAX: an empty slot */
    size_t mask; /* slots - 1 (a power of two, at least twice the entries) */
    int shift;   /* 64 - log2(slots) */
} idmap;

/* Room for up to n entries. Returns 0, or -1 when out of memory. */
int idmap_init(idmap *m, size_t n);
void idmap_free(idmap *m);

/* The index of key, or SIZE_MAX when absent. */
static inline size_t idmap_get(const idmap *m, uint64_t key)
{
    size_t i = (size_t)((key * 0x9E3779B97F4A7C15ULL) >> m->shift);
    for (;; i = (i + 1) & m->mask) {
        if (m->val[i] == SIZE_MAX || m->key[i] == key)
            return m->val[i];
    }
}

/* Adds key with index v unless key is there already; returns the index key has now. Never more entries
 * than idmap_init was given room for. */
static inline size_t idmap_put(idmap *m, uint64_t key, size_t v)
{
    size_t i = (size_t)((key * 0x9E3779B97F4A7C15ULL) >> m->shift);
    for (;; i = (i + 1) & m->mask) {
        if (m->val[i] == SIZE_MAX) {
            m->key[i] = key;
            m->val[i] = v;
            return v;
        }
        if (m->key[i] == key)
            return m->val[i];
    }
}

/* Sorts ord[0..n), which holds 0..n-1 in order, by cmp (qsort's convention on elements of ord, indices
 * into x), whose first key must be x[].core ascending: the order a stable sort by cmp gives. A counting
 * sort by core, then an insertion sort bounded to a few moves per element; past that bound (or when out
 * of memory) qsort, as before, which is a stable merge sort in glibc at these sizes. */
void xsort_by_core(size_t *ord, size_t n, const exec_record *x, int (*cmp)(const void *, const void *));

#endif
