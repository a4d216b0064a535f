/* occupancy.h - occ_: ring occupancy over simulated time, per ring and resource. */
/* The lowest and highest value in each of a bounded number of time buckets, which double in width as the
 * run grows. */
#ifndef PTOSIM_OCCUPANCY_H
#define PTOSIM_OCCUPANCY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../base/simtime.h"
#include "../runtime/task_slots.h"

/* Buckets kept: once a time falls past the last one, neighbours merge and the width doubles, so a run ends
 * with between OCC_BUCKETS / 2 and OCC_BUCKETS of them whatever its length (a chart's pixel columns). */
#define OCC_BUCKETS 256
#define OCC_WIDTH0_PS 10000 /* the first bucket width, 10 ns: a 2.56 us run keeps it */

/* The resources of a ring: scope stats' three (model/README.md §16.3). */
enum { OCC_TASK_WINDOW, OCC_HEAP, OCC_DEP_POOL, OCC_RES };

/* The range a resource held in one bucket. */
typedef struct occ_range {
    uint64_t lo; /* lowest value in the bucket (the value carried in counts) */
    uint64_t hi; /* highest */
} occ_range;

typedef struct occ {
    ps_t width;                        /* bucket width; bucket i covers [i * width, (i + 1) * width) */
    int n;                             /* buckets opened: [0, n) */
    uint64_t cur[RING_COUNT][OCC_RES]; /* each value now */
    bool used[RING_COUNT];             /* the ring ever held something */
    occ_range b[OCC_BUCKETS][RING_COUNT][OCC_RES]; /* per bucket, ring and resource */
} occ;

/* An empty series: every ring at 0, no bucket yet. */
void occ_init(occ *o);

/* Ring r holds task_window slots, heap bytes and dep_pool entries from time
 * t on. Times never go back between calls; a call that changes nothing
 * costs a comparison. */
void occ_note(occ *o, ps_t t, int r, uint64_t task_window, uint64_t heap, uint64_t dep_pool);

/* Writes the series closed at end (the makespan) as a JSON object:
 * bucket_us, buckets, and per ring null (never used) or its resources'
 * "low" and "high" arrays. o is not changed: the closing is done on a copy.
 * Returns 0, or -1 when out of memory. */
int occ_write_json(FILE *f, const occ *o, ps_t end);

#endif
