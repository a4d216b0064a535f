/* swimlane.c - collection and export of chip_swimlane_records.json (model/README.md §16.2). */
#include "swimlane.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonw.h"
#include "outfile.h"
#include "vec.h"

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

static void write_depths(FILE *f, const char *key, const uint32_t d[3])
{
    fputs(", \"", f);
    fputs(key, f);
    fputs("\": [", f);
    for (int i = 0; i < 3; i++) {
        if (i)
            fputs(", ", f);
        jsonw_u64(f, d[i]);
    }
    fputc(']', f);
}

static void write_phase(FILE *f, const swimlane_meta *m, const sl_phase *p)
{
    fputs("{\"kind\": \"", f);
    fputs(PHASE_NAMES[p->kind], f);
    fputs("\", \"start_cycles\": ", f);
    jsonw_u64(f, tick(m, p->start));
    fputs(", \"end_cycles\": ", f);
    jsonw_u64(f, tick(m, p->end));
    fputs(", \"loop_iter\": ", f);
    jsonw_u64(f, p->loop_iter);
    fputs(", \"tasks_processed\": ", f);
    jsonw_u64(f, p->tasks);
    if (p->kind == PH_DISPATCH) {
        fputs(", \"pop_hit\": ", f);
        jsonw_u64(f, p->pop_hit);
        fputs(", \"pop_miss\": ", f);
        jsonw_u64(f, p->pop_miss);
    }
    if (p->kind == PH_DUMMY_TASK || p->kind == PH_PREDICATED_SKIP) {
        fputs(", \"task_id\": ", f);
        jsonw_u64(f, p->task_id);
    }
    write_depths(f, "shared_at_start", p->shared_start);
    write_depths(f, "shared_at_end", p->shared_end);
    fputc('}', f);
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
    FILE *f = outfile_open(&of, path, err, errlen);
    if (!f)
        return -1;
    fprintf(f, "{\n  \"chip_swimlane_level\": %d,\n  \"metadata\": {\n", s->level);
    fprintf(f, "    \"clock_freq_hz\": %" PRIu64 ",\n    \"num_cores\": %d,\n    \"core_types\": [",
            m->tick_hz, m->num_cores);
    for (int c = 0; c < m->num_cores; c++)
        fprintf(f, "%s\"%s\"", c ? ", " : "", m->core_is_aiv[c] ? "aiv" : "aic");
    fputc(']', f);
    if (s->level >= 3) {
        fputs(",\n    \"core_to_thread\": [", f);
        for (int c = 0; c < m->num_cores; c++)
            fprintf(f, "%s%d", c ? ", " : "", m->core_to_thread[c]);
        fputc(']', f);
    }
    fputs("\n  },\n  \"aicore_tasks\": [", f);
    int first = 1;
    for (int c = 0; c < s->ncores; c++)
        for (size_t i = 0; i < s->per_core[c].n; i++) {
            const sl_exec *e = &s->per_core[c].v[i];
            uint64_t st = tick(m, e->start), rc = tick(m, e->receive);
            fputs(first ? "\n    [" : ",\n    [", f);
            jsonw_i64(f, c);
            fputs(", ", f);
            jsonw_u64(f, e->task_id);
            fputs(", ", f);
            jsonw_u64(f, e->reg);
            fputs(", ", f);
            jsonw_u64(f, st);
            fputs(", ", f);
            jsonw_u64(f, tick(m, e->end));
            fputs(", ", f);
            jsonw_u64(f, st - rc);
            fputc(']', f);
            first = 0;
        }
    fputs(first ? "],\n  \"aicpu_tasks\": [" : "\n  ],\n  \"aicpu_tasks\": [", f);
    first = 1;
    if (s->level >= 2)
        for (int c = 0; c < s->ncores; c++)
            for (size_t i = 0; i < s->per_core[c].n; i++) {
                const sl_exec *e = &s->per_core[c].v[i];
                fputs(first ? "\n    [" : ",\n    [", f);
                jsonw_i64(f, c);
                fputs(", ", f);
                jsonw_u64(f, e->reg);
                fputs(", ", f);
                jsonw_u64(f, tick(m, e->dispatch));
                fputs(", ", f);
                jsonw_u64(f, tick(m, e->finish));
                fputc(']', f);
                first = 0;
            }
    fputs(first ? "]" : "\n  ]", f);
    if (s->level >= 3) {
        fputs(",\n  \"aicpu_scheduler_phases\": [", f);
        for (int t = 0; t < SWIMLANE_THREAD_SLOTS; t++) {
            const sl_thread_lane *l = &s->threads[t];
            fprintf(f, "%s\n    [", t ? "," : "");
            for (size_t i = 0; i < l->n; i++) {
                fputs(i ? ",\n      " : "\n      ", f);
                write_phase(f, m, &l->v[i]);
            }
            fputs(l->n ? "\n    ]" : "]", f);
        }
        fputs("\n  ]", f);
    }
    if (s->level >= 4 && s->norch) {
        fputs(",\n  \"aicpu_orchestrator_phases\": [\n    [", f);
        for (size_t i = 0; i < s->norch; i++) {
            const sl_orch *o = &s->orch[i];
            fputs(i ? ",\n      {\"submit_idx\": " : "\n      {\"submit_idx\": ", f);
            jsonw_u64(f, o->submit_idx);
            fputs(", \"task_id\": ", f);
            jsonw_u64(f, o->task_id);
            fputs(", \"start_cycles\": ", f);
            jsonw_u64(f, tick(m, o->start));
            fputs(", \"end_cycles\": ", f);
            jsonw_u64(f, tick(m, o->end));
            fputc('}', f);
        }
        fputs("\n    ]\n  ]", f);
    }
    fputs("\n}\n", f);
    if (outfile_commit(&of, err, errlen) != 0)
        return -1;
    *written = 1;
    return 0;
}
