/* occupancy.c - occ_: ring occupancy over simulated time, in buckets that double as the run grows. */
#include "occupancy.h"

#include <stdlib.h>
#include <string.h>

#include "../base/json_writer.h"

void occ_init(occ *o)
{
    memset(o, 0, sizeof(*o));
    o->width = OCC_WIDTH0_PS;
}

/* Merges neighbouring buckets and doubles the width: bucket i becomes the union of 2i and 2i + 1. */
static void coarsen(occ *o)
{
    int m = (o->n + 1) / 2;
    for (int i = 0; i < m; i++)
        for (int r = 0; r < RING_COUNT; r++)
            for (int k = 0; k < OCC_RES; k++) {
                occ_range a = o->b[2 * i][r][k];
                if (2 * i + 1 < o->n) {
                    const occ_range *b = &o->b[2 * i + 1][r][k];
                    a.lo = b->lo < a.lo ? b->lo : a.lo;
                    a.hi = b->hi > a.hi ? b->hi : a.hi;
                }
                o->b[i][r][k] = a;
            }
    o->n = m;
    o->width *= 2;
}

/* The bucket of time t, opening every bucket up to it: a bucket opens holding the values carried in. */
static int bucket_of(occ *o, ps_t t)
{
    while (t / o->width >= OCC_BUCKETS)
        coarsen(o);
    int idx = (int)(t / o->width);
    for (; o->n <= idx; o->n++)
        for (int r = 0; r < RING_COUNT; r++)
            for (int k = 0; k < OCC_RES; k++)
                o->b[o->n][r][k] = (occ_range){o->cur[r][k], o->cur[r][k]};
    return idx;
}

void occ_note(occ *o, ps_t t, int r, uint64_t task_window, uint64_t heap, uint64_t dep_pool)
{
    const uint64_t v[OCC_RES] = {task_window, heap, dep_pool};
    if (memcmp(v, o->cur[r], sizeof(v)) == 0)
        return;
    int i = bucket_of(o, t);
    for (int k = 0; k < OCC_RES; k++) {
        occ_range *b = &o->b[i][r][k];
        o->cur[r][k] = v[k];
        b->lo = v[k] < b->lo ? v[k] : b->lo;
        b->hi = v[k] > b->hi ? v[k] : b->hi;
        if (v[k])
            o->used[r] = true;
    }
}

int occ_write_json(FILE *f, const occ *o, ps_t end)
{
    static const char *const RES[OCC_RES] = {"task_window", "heap", "dep_pool"};
    occ *c = malloc(sizeof(*c));
    if (!c)
        return -1;
    *c = *o;
    bucket_of(c, end ? end - 1 : 0); /* the series runs to the makespan */
    fprintf(f, "{\"bucket_us\": %.6f, \"buckets\": %d, \"rings\": [", us_from_ps(c->width), c->n);
    for (int r = 0; r < RING_COUNT; r++) {
        fputs(r ? ", " : "", f);
        if (!c->used[r]) {
            fputs("null", f);
            continue;
        }
        fputc('{', f);
        for (int k = 0; k < OCC_RES; k++) {
            fprintf(f, "%s\"%s\": {\"low\": [", k ? ", " : "", RES[k]);
            for (int i = 0; i < c->n; i++) {
                fputs(i ? ", " : "", f);
                jsonw_u64(f, c->b[i][r][k].lo);
            }
            fputs("], \"high\": [", f);
            for (int i = 0; i < c->n; i++) {
                fputs(i ? ", " : "", f);
                jsonw_u64(f, c->b[i][r][k].hi);
            }
            fputs("]}", f);
        }
        fputc('}', f);
    }
    fputs("]}", f);
    free(c);
    return 0;
}
