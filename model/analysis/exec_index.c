/* exec_index.c - idmap_, xsort_: an id-to-index map and a sort of executions by core. */
#include "exec_index.h"

#include <stdlib.h>
#include <string.h>

int idmap_init(idmap *m, size_t n)
{
    memset(m, 0, sizeof(*m));
    size_t slots = 16;
    int bits = 4;
    while (slots < 2 * n) {
        if (slots > SIZE_MAX / 4 / sizeof(uint64_t))
            return -1;
        slots *= 2;
        bits++;
    }
    m->key = malloc(slots * sizeof(*m->key));
    m->val = malloc(slots * sizeof(*m->val));
    if (!m->key || !m->val) {
        idmap_free(m);
        return -1;
    }
    memset(m->val, 0xff, slots * sizeof(*m->val)); /* every slot SIZE_MAX: empty */
    m->mask = slots - 1;
    m->shift = 64 - bits;
    return 0;
}

void idmap_free(idmap *m)
{
    free(m->key);
    free(m->val);
    memset(m, 0, sizeof(*m));
}

/* The qsort it replaces, on ord as it was given (0..n-1). */
static void fallback(size_t *ord, size_t n, int (*cmp)(const void *, const void *))
{
    for (size_t i = 0; i < n; i++)
        ord[i] = i;
    qsort(ord, n, sizeof(*ord), cmp);
}

void xsort_by_core(size_t *ord, size_t n, const exec_record *x, int (*cmp)(const void *, const void *))
{
    if (n < 2)
        return;
    int32_t lo = x[0].core, hi = x[0].core;
    for (size_t i = 1; i < n; i++) {
        lo = x[i].core < lo ? x[i].core : lo;
        hi = x[i].core > hi ? x[i].core : hi;
    }
    size_t range = (size_t)((int64_t)hi - (int64_t)lo) + 1;
    size_t *at = range <= 65536 ? calloc(range, sizeof(*at)) : NULL;
    if (!at) {
        fallback(ord, n, cmp);
        return;
    }
    /* counting sort by core, stable: each core's executions in log order */
    for (size_t i = 0; i < n; i++)
        at[x[i].core - lo]++;
    for (size_t c = 0, sum = 0; c < range; c++) {
        size_t k = at[c];
        at[c] = sum;
        sum += k;
    }
    for (size_t i = 0; i < n; i++)
        ord[at[x[i].core - lo]++] = i;
    free(at);
    /* then by the rest of cmp: an insertion sort moves an element only past greater ones (stable), and
     * a run logs a core's executions nearly in order, so it is linear; a budget keeps it so */
    size_t moves = 0, budget = 8 * n;
    for (size_t i = 1; i < n; i++) {
        size_t v = ord[i], j = i;
        while (j > 0 && cmp(&ord[j - 1], &v) > 0) {
            ord[j] = ord[j - 1];
            j--;
            if (++moves > budget) {
                fallback(ord, n, cmp);
                return;
            }
        }
        ord[j] = v;
    }
}
