/* swimlane.c - collection and export of chip_swimlane_records.json (model/README.md §16.2). */
#include "swimlane.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/outfile.h"
#include "../base/vec.h"
#include "../base/write_buffer.h"

static const char PHASE_NAMES[PH_KIND_COUNT][24] = { /* under 24 bytes, padded: write_phase copies one whole */
    "complete", "async_poll", "dispatch",      "release",       "dummy",      "early_dispatch",
    "drain",    "resolve",    "drain_prepare", "drain_publish", "dummy_task", "predicated_skip",
};

const char *swimlane_phase_name(int kind)
{
    return kind >= 0 && kind < PH_KIND_COUNT ? PHASE_NAMES[kind] : "unknown";
}

int swimlane_init(swimlane *s, int level, int ncores)
{
    memset(s, 0, sizeof(*s));
    s->level = level;
    s->ncores = ncores;
    if (level <= 0)
        return 0;
    s->per_core = calloc((size_t)ncores, sizeof(*s->per_core));
    return s->per_core ? 0 : -1;
}

void swimlane_free(swimlane *s)
{
    if (s->per_core)
        for (int i = 0; i < s->ncores; i++)
            free(s->per_core[i].v);
    free(s->per_core);
    for (int t = 0; t < SWIMLANE_THREAD_SLOTS; t++)
        free(s->threads[t].v);
    free(s->orch);
    memset(s, 0, sizeof(*s));
}

int swimlane_add_exec(swimlane *s, int core, const sl_exec *e)
{
    if (s->level < 1)
        return 0;
    sl_core_lane *l = &s->per_core[core];
    if (vec_grow((void **)&l->v, &l->cap, l->n, sizeof(*l->v)) != 0)
        return -1;
    l->v[l->n++] = *e;
    return 0;
}

int swimlane_add_phase(swimlane *s, int thread, const sl_phase *p)
{
    if (s->level < 3)
        return 0;
    sl_thread_lane *l = &s->threads[thread];
    if (vec_grow((void **)&l->v, &l->cap, l->n, sizeof(*l->v)) != 0)
        return -1;
    l->v[l->n++] = *p;
    return 0;
}

int swimlane_add_orch(swimlane *s, const sl_orch *o)
{
    if (s->level < 4)
        return 0;
    if (vec_grow((void **)&s->orch, &s->orch_cap, s->norch, sizeof(*s->orch)) != 0)
        return -1;
    s->orch[s->norch++] = *o;
    return 0;
}

/* The system counter the file's times are on. */
typedef struct sl_clock {
    uint64_t origin; /* ticks at time 0 */
    uint64_t hz;     /* ticks per second */
    ps_t fits;       /* times up to this one: t * hz fits 64 bits */
} sl_clock;

/* ticks_from_ps from the origin, in 64-bit arithmetic while the product fits (its quotient is the same):
 * the 128-bit division is a library call, and the file has one per time. */
static uint64_t tick(const sl_clock *k, ps_t t)
{
    if (t <= k->fits)
        return k->origin + t * k->hz / PS_PER_S;
    return k->origin + ticks_from_ps(t, k->hz);
}

/* A phase record's longest text: its fixed keys, the longest name, 11 numbers of 20 digits. */
#define SL_PHASE_MAX 512

/* The three ready-queue depths as "a, b, c" at p. */
static char *put_depths(char *p, const uint32_t d[3])
{
    p = wbuf_dec_at(p, d[0]);
    p = wbuf_lit_at(p, ", ");
    p = wbuf_dec_at(p, d[1]);
    p = wbuf_lit_at(p, ", ");
    p = wbuf_dec_at(p, d[2]);
    return p;
}

/* A phase record at one room; nlen: the lengths of PHASE_NAMES, worked out once a file. */
static void write_phase(wbuf *f, const sl_clock *k, const sl_phase *ph, bool first, const uint8_t *nlen)
{
    char *p = wbuf_room(f, SL_PHASE_MAX);
    if (!p)
        return;
    p = first ? wbuf_lit_at(p, "\n      {\"kind\": \"") : wbuf_lit_at(p, ",\n      {\"kind\": \"");
    memcpy(p, PHASE_NAMES[ph->kind], sizeof(PHASE_NAMES[0]));
    p += nlen[ph->kind];
    p = wbuf_lit_at(p, "\", \"start_cycles\": ");
    p = wbuf_dec_at(p, tick(k, ph->start));
    p = wbuf_lit_at(p, ", \"end_cycles\": ");
    p = wbuf_dec_at(p, tick(k, ph->end));
    p = wbuf_lit_at(p, ", \"loop_iter\": ");
    p = wbuf_dec_at(p, ph->loop_iter);
    p = wbuf_lit_at(p, ", \"tasks_processed\": ");
    p = wbuf_dec_at(p, ph->tasks);
    if (ph->kind == PH_DISPATCH) {
        p = wbuf_lit_at(p, ", \"pop_hit\": ");
        p = wbuf_dec_at(p, ph->pop_hit);
        p = wbuf_lit_at(p, ", \"pop_miss\": ");
        p = wbuf_dec_at(p, ph->pop_miss);
    }
    if (ph->kind == PH_DUMMY_TASK || ph->kind == PH_PREDICATED_SKIP) {
        p = wbuf_lit_at(p, ", \"task_id\": ");
        p = wbuf_dec_at(p, ph->task_id);
    }
    p = wbuf_lit_at(p, ", \"shared_at_start\": [");
    p = put_depths(p, ph->shared_start);
    p = wbuf_lit_at(p, "], \"shared_at_end\": [");
    p = put_depths(p, ph->shared_end);
    p = wbuf_lit_at(p, "]}");
    wbuf_commit(f, p);
}

int swimlane_write(const swimlane *s, const swimlane_meta *m, const char *path, int *written, char *err,
                   size_t errlen)
{
    *written = 0;
    if (s->level < 1)
        return 0;
    size_t any = s->norch;
    for (int c = 0; c < s->ncores; c++)
        any += s->per_core[c].n;
    for (int t = 0; t < SWIMLANE_THREAD_SLOTS; t++)
        any += s->threads[t].n;
    if (!any)
        return 0; /* the runtime writes no file when no stream has a record */

    outfile of;
    FILE *file = outfile_open(&of, path, err, errlen);
    if (!file)
        return -1;
    wbuf w, *f = &w;
    if (fflush(file) != 0 || wbuf_open_fd(f, fileno(file)) != 0) {
        snprintf(err, errlen, "%s: write failed: %s", path, strerror(errno));
        outfile_abort(&of);
        return -1;
    }
    wbuf_lit(f, "{\n  \"chip_swimlane_level\": ");
    wbuf_i64(f, s->level);
    wbuf_lit(f, ",\n  \"metadata\": {\n    \"clock_freq_hz\": ");
    wbuf_u64(f, m->tick_hz);
    wbuf_lit(f, ",\n    \"num_cores\": ");
    wbuf_i64(f, m->num_cores);
    wbuf_lit(f, ",\n    \"core_types\": [");
    for (int c = 0; c < m->num_cores; c++) {
        if (c)
            wbuf_lit(f, ", ");
        wbuf_str(f, m->core_is_aiv[c] ? "\"aiv\"" : "\"aic\"");
    }
    wbuf_char(f, ']');
    if (s->level >= 3) {
        wbuf_lit(f, ",\n    \"core_to_thread\": [");
        for (int c = 0; c < m->num_cores; c++) {
            if (c)
                wbuf_lit(f, ", ");
            wbuf_i64(f, m->core_to_thread[c]);
        }
        wbuf_char(f, ']');
    }
    wbuf_lit(f, "\n  },\n  \"aicore_tasks\": [");
    sl_clock k = {
        .origin = m->origin_ticks, .hz = m->tick_hz, .fits = m->tick_hz ? UINT64_MAX / m->tick_hz : 0};
    int first = 1;
    for (int c = 0; c < s->ncores; c++)
        for (size_t i = 0; i < s->per_core[c].n; i++) {
            const sl_exec *e = &s->per_core[c].v[i];
            uint64_t st = tick(&k, e->start), rc = tick(&k, e->receive);
            char *p = wbuf_room(f, 160); /* 7 + 5 * 22 + 22 + 1 */
            if (!p)
                break;
            p = first ? wbuf_lit_at(p, "\n    [") : wbuf_lit_at(p, ",\n    [");
            p = wbuf_sdec_at(p, c);
            p = wbuf_lit_at(p, ", ");
            p = wbuf_dec_at(p, e->task_id);
            p = wbuf_lit_at(p, ", ");
            p = wbuf_dec_at(p, e->reg);
            p = wbuf_lit_at(p, ", ");
            p = wbuf_dec_at(p, st);
            p = wbuf_lit_at(p, ", ");
            p = wbuf_dec_at(p, tick(&k, e->end));
            p = wbuf_lit_at(p, ", ");
            p = wbuf_dec_at(p, st - rc);
            *p++ = ']';
            wbuf_commit(f, p);
            first = 0;
        }
    wbuf_str(f, first ? "],\n  \"aicpu_tasks\": [" : "\n  ],\n  \"aicpu_tasks\": [");
    first = 1;
    if (s->level >= 2)
        for (int c = 0; c < s->ncores; c++)
            for (size_t i = 0; i < s->per_core[c].n; i++) {
                const sl_exec *e = &s->per_core[c].v[i];
                char *p = wbuf_room(f, 120); /* 7 + 3 * 22 + 21 + 1 */
                if (!p)
                    break;
                p = first ? wbuf_lit_at(p, "\n    [") : wbuf_lit_at(p, ",\n    [");
                p = wbuf_sdec_at(p, c);
                p = wbuf_lit_at(p, ", ");
                p = wbuf_dec_at(p, e->reg);
                p = wbuf_lit_at(p, ", ");
                p = wbuf_dec_at(p, tick(&k, e->dispatch));
                p = wbuf_lit_at(p, ", ");
                p = wbuf_dec_at(p, tick(&k, e->finish));
                *p++ = ']';
                wbuf_commit(f, p);
                first = 0;
            }
    wbuf_str(f, first ? "]" : "\n  ]");
    if (s->level >= 3) {
        uint8_t nlen[PH_KIND_COUNT];
        for (int i = 0; i < PH_KIND_COUNT; i++)
            nlen[i] = (uint8_t)strlen(PHASE_NAMES[i]);
        wbuf_lit(f, ",\n  \"aicpu_scheduler_phases\": [");
        for (int t = 0; t < SWIMLANE_THREAD_SLOTS; t++) {
            const sl_thread_lane *l = &s->threads[t];
            wbuf_str(f, t ? ",\n    [" : "\n    [");
            for (size_t i = 0; i < l->n; i++)
                write_phase(f, &k, &l->v[i], i == 0, nlen);
            wbuf_str(f, l->n ? "\n    ]" : "]");
        }
        wbuf_lit(f, "\n  ]");
    }
    if (s->level >= 4 && s->norch) {
        wbuf_lit(f, ",\n  \"aicpu_orchestrator_phases\": [\n    [");
        for (size_t i = 0; i < s->norch; i++) {
            const sl_orch *o = &s->orch[i];
            char *p = wbuf_room(f, 200); /* 24 + 13 + 18 + 16 + 4 * 20 + 1 */
            if (!p)
                break;
            p = i ? wbuf_lit_at(p, ",\n      {\"submit_idx\": ")
                  : wbuf_lit_at(p, "\n      {\"submit_idx\": ");
            p = wbuf_dec_at(p, o->submit_idx);
            p = wbuf_lit_at(p, ", \"task_id\": ");
            p = wbuf_dec_at(p, o->task_id);
            p = wbuf_lit_at(p, ", \"start_cycles\": ");
            p = wbuf_dec_at(p, tick(&k, o->start));
            p = wbuf_lit_at(p, ", \"end_cycles\": ");
            p = wbuf_dec_at(p, tick(&k, o->end));
            *p++ = '}';
            wbuf_commit(f, p);
        }
        wbuf_lit(f, "\n    ]\n  ]");
    }
    wbuf_lit(f, "\n}\n");
    if (wbuf_close(f) != 0) {
        snprintf(err, errlen, "%s: write failed: %s", path, strerror(errno));
        outfile_abort(&of);
        return -1;
    }
    if (outfile_commit(&of, err, errlen) != 0)
        return -1;
    *written = 1;
    return 0;
}
