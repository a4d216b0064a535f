/* scope_stats.h - scopestats_: scope_stats.jsonl (model/README.md §16.3). */
/* Per-ring resource counters sampled at every scope begin and end. */
#ifndef PTOSIM_SCOPE_STATS_H
#define PTOSIM_SCOPE_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../base/write_buffer.h"

#define SCOPESTATS_VERSION 6
#define SCOPESTATS_MAX_DEPTH 64     /* deeper scopes are not recorded */
#define SCOPESTATS_SITE_BASENAME 31 /* basename truncated to 31 characters */

/* One sample. */
typedef struct scope_sample {
    const char *site; /* "<file>:<line>" as the graph gave it */
    bool begin;       /* begin or end */
    int depth;        /* nesting depth, 0 = root */
    int ring;         /* min(depth, 3) */
    uint32_t task_window_start, task_window_end;
    uint64_t heap_start, heap_end;
    uint64_t dep_pool_start, dep_pool_end;
    uint32_t tensormap;
} scope_sample;

/* Capacities reported on line 1. */
typedef struct scope_caps {
    uint32_t task_window[4];
    uint64_t heap[4];
    uint32_t dep_pool[4];
    uint32_t tensormap;
} scope_caps;

typedef struct scopestats {
    wbuf body;      /* sample lines, written before line 1 is known */
    uint64_t total; /* records attempted */
} scopestats;

/* Opens the temporary body. Returns 0, or -1 with a message in err. */
int scopestats_init(scopestats *s, char *err, size_t errlen);

/* Frees it. */
void scopestats_free(scopestats *s);

/* Formats the runtime's site: basename of the file part cut to 31
 * characters, then ":line" ("(unknown):0" when there is none). */
void scopestats_site(const char *site, char *out, size_t outlen);

/* Appends one sample (ignored deeper than 64). */
void scopestats_add(scopestats *s, const scope_sample *x);

/* Writes scope_stats.jsonl: metadata line, then the samples. Returns 0, or
 * -1 with a message in err. */
int scopestats_write(scopestats *s, const char *path, bool fatal, const scope_caps *caps, char *err,
                     size_t errlen);

#endif
