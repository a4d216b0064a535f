/* swimlane.c - collection and export of chip_swimlane_records.json (model/README.md §16.2). */
#include "swimlane.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/outfile.h"
#include "../base/vec.h"
#include "../base/write_buffer.h"

static const char *const PHASE_NAMES[PH_KIND_COUNT] = {
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

static uint64_t tick(const swimlane_meta *m, ps_t t)
{
    return m->origin_ticks + ticks_from_ps(t, m->tick_hz);
}

static void write_depths(wbuf *f, const char *key, const uint32_t d[3])
{
    wbuf_lit(f, ", \"");
    wbuf_str(f, key);
    wbuf_lit(f, "\": [");
    for (int i = 0; i < 3; i++) {
        if (i)
            wbuf_lit(f, ", ");
        wbuf_u64(f, d[i]);
    }
    wbuf_char(f, ']');
}

static void write_phase(wbuf *f, const swimlane_meta *m, const sl_phase *p)
{
    wbuf_lit(f, "{\"kind\": \"");
    wbuf_str(f, PHASE_NAMES[p->kind]);
    wbuf_lit(f, "\", \"start_cycles\": ");
    wbuf_u64(f, tick(m, p->start));
    wbuf_lit(f, ", \"end_cycles\": ");
    wbuf_u64(f, tick(m, p->end));
    wbuf_lit(f, ", \"loop_iter\": ");
    wbuf_u64(f, p->loop_iter);
    wbuf_lit(f, ", \"tasks_processed\": ");
    wbuf_u64(f, p->tasks);
    if (p->kind == PH_DISPATCH) {
        wbuf_lit(f, ", \"pop_hit\": ");
        wbuf_u64(f, p->pop_hit);
        wbuf_lit(f, ", \"pop_miss\": ");
        wbuf_u64(f, p->pop_miss);
    }
    if (p->kind == PH_DUMMY_TASK || p->kind == PH_PREDICATED_SKIP) {
        wbuf_lit(f, ", \"task_id\": ");
        wbuf_u64(f, p->task_id);
    }
    write_depths(f, "shared_at_start", p->shared_start);
    write_depths(f, "shared_at_end", p->shared_end);
    wbuf_char(f, '}');
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
    int first = 1;
    for (int c = 0; c < s->ncores; c++)
        for (size_t i = 0; i < s->per_core[c].n; i++) {
            const sl_exec *e = &s->per_core[c].v[i];
            uint64_t st = tick(m, e->start), rc = tick(m, e->receive);
            wbuf_str(f, first ? "\n    [" : ",\n    [");
            wbuf_i64(f, c);
            wbuf_lit(f, ", ");
            wbuf_u64(f, e->task_id);
            wbuf_lit(f, ", ");
            wbuf_u64(f, e->reg);
            wbuf_lit(f, ", ");
            wbuf_u64(f, st);
            wbuf_lit(f, ", ");
            wbuf_u64(f, tick(m, e->end));
            wbuf_lit(f, ", ");
            wbuf_u64(f, st - rc);
            wbuf_char(f, ']');
            first = 0;
        }
    wbuf_str(f, first ? "],\n  \"aicpu_tasks\": [" : "\n  ],\n  \"aicpu_tasks\": [");
    first = 1;
    if (s->level >= 2)
        for (int c = 0; c < s->ncores; c++)
            for (size_t i = 0; i < s->per_core[c].n; i++) {
                const sl_exec *e = &s->per_core[c].v[i];
                wbuf_str(f, first ? "\n    [" : ",\n    [");
                wbuf_i64(f, c);
                wbuf_lit(f, ", ");
                wbuf_u64(f, e->reg);
                wbuf_lit(f, ", ");
                wbuf_u64(f, tick(m, e->dispatch));
                wbuf_lit(f, ", ");
                wbuf_u64(f, tick(m, e->finish));
                wbuf_char(f, ']');
                first = 0;
            }
    wbuf_str(f, first ? "]" : "\n  ]");
    if (s->level >= 3) {
        wbuf_lit(f, ",\n  \"aicpu_scheduler_phases\": [");
        for (int t = 0; t < SWIMLANE_THREAD_SLOTS; t++) {
            const sl_thread_lane *l = &s->threads[t];
            wbuf_str(f, t ? ",\n    [" : "\n    [");
            for (size_t i = 0; i < l->n; i++) {
                wbuf_str(f, i ? ",\n      " : "\n      ");
                write_phase(f, m, &l->v[i]);
            }
            wbuf_str(f, l->n ? "\n    ]" : "]");
        }
        wbuf_lit(f, "\n  ]");
    }
    if (s->level >= 4 && s->norch) {
        wbuf_lit(f, ",\n  \"aicpu_orchestrator_phases\": [\n    [");
        for (size_t i = 0; i < s->norch; i++) {
            const sl_orch *o = &s->orch[i];
            wbuf_str(f, i ? ",\n      {\"submit_idx\": " : "\n      {\"submit_idx\": ");
            wbuf_u64(f, o->submit_idx);
            wbuf_lit(f, ", \"task_id\": ");
            wbuf_u64(f, o->task_id);
            wbuf_lit(f, ", \"start_cycles\": ");
            wbuf_u64(f, tick(m, o->start));
            wbuf_lit(f, ", \"end_cycles\": ");
            wbuf_u64(f, tick(m, o->end));
            wbuf_char(f, '}');
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
