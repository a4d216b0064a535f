/* perfetto_writer.c - pf_: writes ptosim's Perfetto trace of a finished chip (model/README.md §16.8). */
#include "perfetto_writer.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/chip_engine.h"
#include "../base/outfile.h"
#include "../base/vec.h"
#include "../base/write_buffer.h"
#include "../record/perfetto_trace.h"

/* Process ids of the trace, one per group of tracks in the UI; thread ids are
 * unique over the whole file (Perfetto keys threads by tid). */
enum {
    PID_AICPU = 1,    /* scheduler threads and the orchestrator */
    PID_AICORE = 2,   /* one track per core */
    PID_RINGS = 3,    /* ring occupancy counters */
    PID_HBM = 4,      /* HBM bandwidth counter */
    PID_DUMP = 5,     /* args-dump counters */
    PID_OVERHEAD = 6, /* the overhead model's lines */
};
#define TID_AICPU 1000  /* + AICPU thread index (the orchestrator is the last) */
#define TID_AICORE 2000 /* + core id */

/* Prints simulated time t as microseconds with three decimals: whole
 * nanoseconds, rounded down, so that slices meeting in picoseconds meet in
 * the file too (Perfetto keeps nanoseconds). The file is written through a
 * write_buffer, no printf: it holds millions of numbers. */
static void put_us(wbuf *f, ps_t t)
{
    wbuf_milli(f, t / PS_PER_NS);
}

/* A slice's duration: its end's nanosecond minus its start's. */
static void put_dur(wbuf *f, ps_t start, ps_t end)
{
    uint64_t a = start / PS_PER_NS, b = end > start ? end / PS_PER_NS : a;
    wbuf_milli(f, b - a);
}

/* Writes s as a JSON string Perfetto's reader accepts: it takes no \u
 * escapes, so other control characters become spaces. */
static void put_str(wbuf *f, const char *s)
{
    wbuf_char(f, '"');
    for (const unsigned char *q = (const unsigned char *)s; *q; q++) {
        if (*q == '"' || *q == '\\') {
            wbuf_char(f, '\\');
            wbuf_char(f, (char)*q);
        } else if (*q == '\n') {
            wbuf_lit(f, "\\n");
        } else if (*q == '\t') {
            wbuf_lit(f, "\\t");
        } else {
            wbuf_char(f, *q < 0x20 ? ' ' : (char)*q);
        }
    }
    wbuf_char(f, '"');
}

/* The head of one event: phase, time, process and thread. */
static void put_head(wbuf *f, char ph, ps_t t, int pid, int tid)
{
    wbuf_lit(f, ",\n{\"ph\":\"");
    wbuf_char(f, ph);
    wbuf_lit(f, "\",\"ts\":");
    put_us(f, t);
    wbuf_lit(f, ",\"pid\":");
    wbuf_i64(f, pid);
    wbuf_lit(f, ",\"tid\":");
    wbuf_i64(f, tid);
}

static void put_meta(wbuf *f, const char *what, int pid, int tid, const char *name)
{
    wbuf_lit(f, ",\n{\"ph\":\"M\",\"pid\":");
    wbuf_i64(f, pid);
    wbuf_lit(f, ",\"tid\":");
    wbuf_i64(f, tid);
    wbuf_lit(f, ",\"name\":\"");
    wbuf_str(f, what);
    wbuf_lit(f, "\",\"args\":{\"name\":");
    put_str(f, name);
    wbuf_lit(f, "}}");
}

/* Sort keys: slices of one track by start, the longer first on a tie, so a
 * parent precedes the child that starts with it. */
typedef struct slice_ref {
    int track;  /* core, thread, or 0 for the orchestrator */
    ps_t start; /* slice start */
    ps_t end;   /* slice end */
    size_t ix;  /* index into the source array */
} slice_ref;

static int cmp_slice(const void *a, const void *b)
{
    const slice_ref *x = a, *y = b;
    if (x->track != y->track)
        return x->track < y->track ? -1 : 1;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    if (x->end != y->end)
        return x->end > y->end ? -1 : 1;
    return x->ix < y->ix ? -1 : x->ix > y->ix;
}

/* One task's ends for the flow arrows: the execution that starts first (a
 * consumer's arrow ends there) and the one that ends last (a producer's
 * arrow starts there). */
typedef struct anchor {
    uint64_t task;
    size_t first, last; /* indices into the sorted executions */
} anchor;

static size_t find_anchor(const anchor *a, size_t n, uint64_t task)
{
    size_t lo = vec_lower_bound(a, n, sizeof(*a), offsetof(anchor, task), task);
    return lo < n && a[lo].task == task ? lo : SIZE_MAX;
}

static int cmp_anchor(const void *a, const void *b)
{
    const anchor *x = a, *y = b;
    if (x->task != y->task)
        return x->task < y->task ? -1 : 1;
    return (x->first > y->first) - (x->first < y->first);
}

static int cmp_step(const void *a, const void *b)
{
    const pf_step *x = a, *y = b;
    return (x->t > y->t) - (x->t < y->t);
}

/* Prints a counter value: plain, or bytes/s as GB/s with three decimals. */
static void put_value(wbuf *f, int64_t v, bool giga)
{
    if (giga)
        wbuf_milli_i64(f, (v + 500000) / 1000000); /* to the nearest MB/s */
    else
        wbuf_i64(f, v);
}

/* One "C" event: the track's value (and its capacity, when it has one) from t on. */
static void put_cevent(wbuf *f, ps_t t, int pid, const char *name, const char *unit, int64_t v, bool giga,
                       int64_t cap)
{
    put_head(f, 'C', t, pid, pid);
    wbuf_lit(f, ",\"name\":");
    put_str(f, name);
    wbuf_lit(f, ",\"args\":{\"");
    wbuf_str(f, unit);
    wbuf_lit(f, "\":");
    put_value(f, v, giga);
    if (cap > 0) {
        wbuf_lit(f, ",\"capacity\":");
        put_value(f, cap, giga);
    }
    wbuf_lit(f, "}}");
}

/* Writes one counter track: its value at time 0, then an event wherever the
 * value changes (the steps sorted by time, those at one time summed), up to
 * the horizon. Returns the events written, or -1 when out of memory. */
static long put_counter(wbuf *f, const pf_counter *k, ps_t horizon, int pid, const char *name,
                        const char *unit, bool giga, int64_t cap)
{
    if (!k->n)
        return 0;
    pf_step *v = malloc(k->n * sizeof(*v));
    if (!v)
        return -1;
    /* qsort is not stable, but the steps at one time are summed before use */
    memcpy(v, k->v, k->n * sizeof(*v));
    qsort(v, k->n, sizeof(*v), cmp_step);
    /* steps within one nanosecond (the file's resolution) make one event, at its start */
    size_t i = 0;
    int64_t val = 0;
    while (i < k->n && v[i].t < PS_PER_NS)
        val += v[i++].d;
    put_cevent(f, 0, pid, name, unit, val, giga, cap);
    long events = 1;
    int64_t shown = val;
    while (i < k->n && v[i].t <= horizon) {
        ps_t t = v[i].t / PS_PER_NS * PS_PER_NS;
        while (i < k->n && v[i].t / PS_PER_NS * PS_PER_NS == t)
            val += v[i++].d;
        if (val != shown) {
            put_cevent(f, t, pid, name, unit, val, giga, cap);
            shown = val;
            events++;
        }
    }
    free(v);
    return events;
}

/* Names and units of the counter tracks fed during the run. */
static void counter_label(const chip *c, int id, char *name, size_t len, const char **unit, bool *giga,
                          int64_t *cap, int *pid)
{
    *giga = false;
    *cap = 0;
    if (id < PF_CTR_HBM) {
        static const char *const RES[3] = {"task window", "heap", "dep pool"};
        static const char *const UNIT[3] = {"tasks", "bytes", "entries"};
        int r = id / 3, kind = id % 3;
        snprintf(name, len, "ring %d %s", r, RES[kind]);
        *unit = UNIT[kind];
        *cap = kind == 0   ? (int64_t)c->cfg.ring_task_window[r]
               : kind == 1 ? (int64_t)c->cfg.ring_heap[r]
                           : (int64_t)c->cfg.ring_dep_pool[r];
        *pid = PID_RINGS;
    } else if (id == PF_CTR_HBM) {
        snprintf(name, len, "HBM bandwidth");
        *unit = "GB/s";
        *giga = true;
        *cap = (int64_t)llround(c->plat.hbm_bw);
        *pid = PID_HBM;
    } else if (id < PF_CTR_BACKLOG) {
        snprintf(name, len, "args dump arena thread %d", id - PF_CTR_ARENA0);
        *unit = "bytes";
        *cap = c->plat.dump_arena_bytes;
        *pid = PID_DUMP;
    } else {
        snprintf(name, len, "args dump collector backlog");
        *unit = "records";
        *pid = PID_DUMP;
    }
}

/* The scope site of a task, "" when unknown. */
static const char *site_of(const pf_trace *p, uint64_t task)
{
    int r = task_id_ring(task);
    uint32_t local = task_id_local(task);
    if (r >= PF_RINGS || local >= p->site_cap[r] || !p->site_of[r][local])
        return "";
    return strtab_key(&p->sites, p->site_of[r][local] - 1);
}

static const char *const CALL_NAMES[PF_CALL_KIND_COUNT] = {"submit",    "dummy",     "alloc",
                                                           "scope_end", "user_code", "wait"};

/* Everything pf_write gathers before it writes. */
typedef struct pf_out {
    const chip *c;          /* the run */
    const pf_trace *p;      /* what it collected */
    ps_t horizon;           /* slices starting later are left out */
    pf_exec *ex;            /* executions: the collected ones, then those the run's end cut short */
    size_t nex;             /* ... how many */
    slice_ref *xs;          /* executions sorted by core and start */
    size_t nxs;             /* ... kept (start <= horizon) */
    anchor *an;             /* per task: its first and last execution, by task id */
    size_t nan;             /* ... tasks */
    pf_call *calls;         /* orchestrator slices, with a call and a wait the end cut short */
    size_t ncalls;          /* ... how many */
    uint64_t flows;         /* flow arrows drawn */
    uint64_t flows_missing; /* edges with an end not on a core (dummy, alloc, past the horizon) */
    uint64_t events;        /* events written */
    ps_t overhead_cut; /* the overhead lines stop here, having used their share (PS_NEVER: they do not) */
} pf_out;

/* Gathers the executions (those still on a core at the run's end are cut
 * there), sorts them, and indexes each task's first and last. */
static int gather_execs(pf_out *o)
{
    const chip *c = o->c;
    const pf_trace *p = o->p;
    size_t extra = 0;
    for (int k = 0; k < c->ncores; k++)
        extra += c->cores[k].busy;
    o->ex = malloc((p->nex + extra + 1) * sizeof(*o->ex));
    o->xs = malloc((p->nex + extra + 1) * sizeof(*o->xs));
    o->an = malloc((p->nex + extra + 1) * sizeof(*o->an));
    if (!o->ex || !o->xs || !o->an)
        return -1;
    memcpy(o->ex, p->ex, p->nex * sizeof(*p->ex));
    o->nex = p->nex;
    for (int k = 0; k < c->ncores; k++) {
        const core *co = &c->cores[k];
        if (!co->busy || co->run.start == PS_NEVER || co->run.start >= c->end_time)
            continue;
        const task *tk = chip_task((chip *)c, co->run.task_id);
        o->ex[o->nex++] = (pf_exec){.task = co->run.task_id,
                                    .dispatch = co->run.dispatch,
                                    .receive = co->run.receive,
                                    .start = co->run.start,
                                    .end = co->run.end < c->end_time ? co->run.end : c->end_time,
                                    .finish = PS_NEVER,
                                    .core = k,
                                    .func = tk ? tk->kernel_ids[co->run.subslot] : -1,
                                    .block = co->run.block};
    }
    o->nxs = 0;
    for (size_t i = 0; i < o->nex; i++)
        if (o->ex[i].start <= o->horizon)
            o->xs[o->nxs++] = (slice_ref){o->ex[i].core, o->ex[i].start, o->ex[i].end, i};
    qsort(o->xs, o->nxs, sizeof(*o->xs), cmp_slice);
    /* per task: sort (task, position) pairs, then fold */
    for (size_t i = 0; i < o->nxs; i++)
        o->an[i] = (anchor){.task = o->ex[o->xs[i].ix].task, .first = i, .last = i};
    qsort(o->an, o->nxs, sizeof(*o->an), cmp_anchor);
    size_t n = 0;
    for (size_t i = 0; i < o->nxs; i++) {
        const pf_exec *e = &o->ex[o->xs[o->an[i].first].ix];
        if (n && o->an[n - 1].task == o->an[i].task) {
            anchor *a = &o->an[n - 1];
            const pf_exec *f = &o->ex[o->xs[a->first].ix], *l = &o->ex[o->xs[a->last].ix];
            if (e->start < f->start)
                a->first = o->an[i].first;
            if (e->end > l->end)
                a->last = o->an[i].first;
            continue;
        }
        o->an[n++] = o->an[i];
    }
    o->nan = n;
    return 0;
}

/* The orchestrator's slices, with the call and the wait that the run's end
 * cut short (a deadlock, a kill). */
static int gather_calls(pf_out *o)
{
    const chip *c = o->c;
    const orch *oc = &c->orch;
    o->calls = malloc((o->p->ncalls + 2) * sizeof(*o->calls));
    if (!o->calls)
        return -1;
    memcpy(o->calls, o->p->calls, o->p->ncalls * sizeof(*o->calls));
    o->ncalls = o->p->ncalls;
    if (c->status == CHIP_DONE)
        return 0;
    if (oc->stage != SUB_IDLE && oc->call_start <= c->end_time)
        o->calls[o->ncalls++] = (pf_call){
            .start = oc->call_start, .end = c->end_time, .kind = PF_CALL_SUBMIT, .task_id = TASK_ID_INVALID};
    if (oc->blocked && oc->blocked_since <= c->end_time)
        o->calls[o->ncalls++] = (pf_call){.start = oc->blocked_since,
                                          .end = c->end_time,
                                          .kind = PF_CALL_WAIT,
                                          .res = (uint8_t)oc->res,
                                          .ring = (uint8_t)oc->blocked_ring};
    return 0;
}

/* The AICore slices: one per execution, named by its kernel. */
static void put_execs(wbuf *f, pf_out *o)
{
    const graph *g = &o->c->orch.g;
    for (size_t i = 0; i < o->nxs; i++) {
        const pf_exec *e = &o->ex[o->xs[i].ix];
        const graph_kernel *k = graph_kernel_by_id(g, e->func);
        put_head(f, 'X', e->start, PID_AICORE, TID_AICORE + e->core);
        wbuf_lit(f, ",\"dur\":");
        put_dur(f, e->start, e->end);
        wbuf_lit(f, ",\"name\":");
        if (k) {
            put_str(f, k->name);
        } else {
            wbuf_lit(f, "\"func ");
            wbuf_i64(f, e->func);
            wbuf_char(f, '"');
        }
        wbuf_lit(f, ",\"cat\":\"aicore\",\"args\":{\"task_id\":");
        wbuf_u64(f, e->task);
        wbuf_lit(f, ",\"func_id\":");
        wbuf_i64(f, e->func);
        wbuf_lit(f, ",\"block\":");
        wbuf_i64(f, e->block);
        wbuf_lit(f, ",\"site\":");
        put_str(f, site_of(o->p, e->task));
        wbuf_lit(f, ",\"dispatch_us\":");
        put_us(f, e->dispatch);
        wbuf_lit(f, ",\"receive_us\":");
        put_us(f, e->receive);
        if (e->finish != PS_NEVER) {
            wbuf_lit(f, ",\"finish_us\":");
            put_us(f, e->finish);
        } else {
            wbuf_lit(f, ",\"fin_seen\":false");
        }
        wbuf_lit(f, "}}");
        o->events++;
    }
}

/* The scheduler threads' phases. */
static int put_phases(wbuf *f, pf_out *o)
{
    const pf_trace *p = o->p;
    slice_ref *r = malloc((p->nph + 1) * sizeof(*r));
    if (!r)
        return -1;
    size_t n = 0;
    for (size_t i = 0; i < p->nph; i++)
        if (p->ph[i].start <= o->horizon)
            r[n++] = (slice_ref){p->ph[i].thread, p->ph[i].start, p->ph[i].end, i};
    qsort(r, n, sizeof(*r), cmp_slice);
    for (size_t i = 0; i < n; i++) {
        const pf_phase *x = &p->ph[r[i].ix];
        put_head(f, 'X', x->start, PID_AICPU, TID_AICPU + x->thread);
        wbuf_lit(f, ",\"dur\":");
        put_dur(f, x->start, x->end);
        if (x->kind == PF_PHASE_DUMP_PARK) {
            static const char *const GATE[3] = {"free buffer", "ready slot", "arena"};
            wbuf_lit(f, ",\"name\":\"dump park\",\"cat\":\"scheduler\",\"args\":{\"gate\":\"");
            wbuf_str(f, GATE[x->task_id < 3 ? x->task_id : 2]);
            wbuf_lit(f, "\"}}");
            o->events++;
            continue;
        }
        wbuf_lit(f, ",\"name\":\"");
        wbuf_str(f, swimlane_phase_name(x->kind));
        wbuf_lit(f, "\",\"cat\":\"scheduler\",\"args\":{\"tasks\":");
        wbuf_u64(f, x->tasks);
        if (x->kind == PH_DUMMY_TASK || x->kind == PH_PREDICATED_SKIP) {
            wbuf_lit(f, ",\"task_id\":");
            wbuf_u64(f, x->task_id);
        }
        wbuf_lit(f, "}}");
        o->events++;
    }
    free(r);
    return 0;
}

/* The orchestrator's calls and, inside them, its waits on ring resources. */
static int put_calls(wbuf *f, pf_out *o)
{
    slice_ref *r = malloc((o->ncalls + 1) * sizeof(*r));
    if (!r)
        return -1;
    size_t n = 0;
    for (size_t i = 0; i < o->ncalls; i++)
        if (o->calls[i].start <= o->horizon)
            r[n++] = (slice_ref){0, o->calls[i].start, o->calls[i].end, i};
    qsort(r, n, sizeof(*r), cmp_slice);
    int tid = TID_AICPU + o->c->nsched;
    for (size_t i = 0; i < n; i++) {
        const pf_call *x = &o->calls[r[i].ix];
        put_head(f, 'X', x->start, PID_AICPU, tid);
        wbuf_lit(f, ",\"dur\":");
        put_dur(f, x->start, x->end);
        if (x->kind == PF_CALL_WAIT) {
            wbuf_lit(f, ",\"name\":\"wait ");
            wbuf_str(f, orch_resource_name((orch_resource)x->res));
            wbuf_lit(f, "\",\"cat\":\"orchestrator\",\"args\":{\"ring\":");
            wbuf_i64(f, x->ring);
            wbuf_lit(f, "}}");
        } else if (x->kind <= PF_CALL_ALLOC) {
            wbuf_lit(f, ",\"name\":\"");
            wbuf_str(f, CALL_NAMES[x->kind]);
            wbuf_lit(f, "\",\"cat\":\"orchestrator\",\"args\":{");
            if (x->task_id == TASK_ID_INVALID) {
                wbuf_lit(f, "\"unfinished\":true}}");
            } else {
                wbuf_lit(f, "\"task_id\":");
                wbuf_u64(f, x->task_id);
                wbuf_lit(f, ",\"ring\":");
                wbuf_i64(f, x->ring);
                wbuf_lit(f, ",\"site\":");
                put_str(f, site_of(o->p, x->task_id));
                wbuf_lit(f, "}}");
            }
        } else {
            wbuf_lit(f, ",\"name\":\"");
            wbuf_str(f, CALL_NAMES[x->kind]);
            wbuf_lit(f, "\",\"cat\":\"orchestrator\"}");
        }
        o->events++;
    }
    free(r);
    return 0;
}

/* A flow arrow per dependency edge whose producer and consumer both ran on a
 * core: from inside the producer's last-ending execution to inside the
 * consumer's first-starting one (one nanosecond in from the edge, so the
 * arrow binds to that slice whatever the reader's order of equal times). */
static void put_flows(wbuf *f, pf_out *o)
{
    const pf_trace *p = o->p;
    for (size_t i = 0; i < p->nedges; i++) {
        const pf_edge *d = &p->edges[i];
        size_t a = find_anchor(o->an, o->nan, d->pred), b = find_anchor(o->an, o->nan, d->succ);
        if (a == SIZE_MAX || b == SIZE_MAX || d->pred == d->succ) {
            o->flows_missing++;
            continue;
        }
        const pf_exec *x = &o->ex[o->xs[o->an[a].last].ix], *y = &o->ex[o->xs[o->an[b].first].ix];
        ps_t from = x->end / PS_PER_NS - x->start / PS_PER_NS >= 2 ? x->end - PS_PER_NS : x->start;
        ps_t to = y->end / PS_PER_NS - y->start / PS_PER_NS >= 2 ? y->start + PS_PER_NS : y->start;
        o->flows++;
        put_head(f, 's', from, PID_AICORE, TID_AICORE + x->core);
        wbuf_lit(f, ",\"name\":\"dep\",\"cat\":\"dep\",\"id\":");
        wbuf_u64(f, o->flows);
        wbuf_char(f, '}');
        put_head(f, 'f', to, PID_AICORE, TID_AICORE + y->core);
        wbuf_lit(f, ",\"bp\":\"e\",\"name\":\"dep\",\"cat\":\"dep\",\"id\":");
        wbuf_u64(f, o->flows);
        wbuf_char(f, '}');
        o->events += 2;
    }
}

/* The overhead model's lines (overhead_model.h): per engine whether it is overhead, its
 * ready-undispatched and running counts, and the all / has lines, on the
 * system counter's ticks as the model sees the swimlane. */
static int put_overhead(wbuf *f, pf_out *o, const char **source)
{
    static const char *const ENG[2] = {"aic", "aiv"};
    const chip *c = o->c;
    uint64_t hz = (uint64_t)c->plat.sys_cnt_freq_hz;
    ohm_step *st;
    size_t n;
    bool present[2];
    *source = "model";
    const exec_log *l = &c->oh;
    exec_log own;
    exec_log_init(&own, 0);
    if (c->oh.dropped) {
        /* the run's log passed its limit: the trace's own executions and
         * wired edges, up to the horizon, feed the same model */
        *source = "trace";
        for (size_t i = 0; i < o->nxs; i++) {
            const pf_exec *e = &o->ex[o->xs[i].ix];
            exec_record x = {.task = e->task,
                          .core = e->core,
                          .aiv = c->cores[e->core].type == CORE_AIV,
                          .dispatch = (int64_t)ticks_from_ps(e->dispatch, hz),
                          .receive = (int64_t)ticks_from_ps(e->receive, hz),
                          .start = (int64_t)ticks_from_ps(e->start, hz),
                          .end = (int64_t)ticks_from_ps(e->end, hz),
                          .finish = (int64_t)ticks_from_ps(e->finish == PS_NEVER ? e->end : e->finish, hz)};
            if (exec_log_add(&own, &x) != 0)
                goto oom;
        }
        for (size_t i = 0; i < o->p->nedges; i++)
            if (exec_log_task(&own, o->p->edges[i].succ, &o->p->edges[i].pred, 1) != 0)
                goto oom;
        l = &own;
    }
    if (ohm_steps(l, &st, &n, present) != 0)
        goto oom;
    exec_log_free(&own);
    if (!n)
        *source = "none";
    const ohm_step *last = NULL;
    size_t emitted = 0;
    for (size_t i = 0; i < n; i++) {
        const ohm_step *x = &st[i];
        ps_t t = (ps_t)(((unsigned __int128)(uint64_t)x->t * PS_PER_S) / hz);
        if (t > o->horizon)
            break;
        if (emitted >= o->p->limit / 4 + 3) {
            o->overhead_cut = t; /* their share of the record limit is spent */
            break;
        }
        bool ov = !last || x->all != last->all || x->has != last->has, rd = !last, rn = !last;
        for (int ty = 0; ty < 2 && last; ty++) {
            ov |= x->overhead[ty] != last->overhead[ty];
            rd |= x->ready[ty] != last->ready[ty];
            rn |= x->running[ty] != last->running[ty];
        }
        static const char *const NAMES[3] = {"overhead", "ready undispatched", "running"};
        bool want[3] = {ov, rd, rn};
        for (int w = 0; w < 3; w++) {
            if (!want[w])
                continue;
            put_head(f, 'C', t, PID_OVERHEAD, PID_OVERHEAD);
            wbuf_lit(f, ",\"name\":\"");
            wbuf_str(f, NAMES[w]);
            wbuf_lit(f, "\",\"args\":{");
            const char *sep = "";
            for (int ty = 0; ty < 2; ty++)
                if (present[ty]) {
                    int v = w == 0 ? x->overhead[ty] : w == 1 ? x->ready[ty] : x->running[ty];
                    wbuf_str(f, sep);
                    wbuf_char(f, '"');
                    wbuf_str(f, ENG[ty]);
                    wbuf_lit(f, "\":");
                    wbuf_i64(f, v);
                    sep = ",";
                }
            if (w == 0) {
                wbuf_str(f, sep);
                wbuf_lit(f, "\"all\":");
                wbuf_i64(f, x->all);
                wbuf_lit(f, ",\"has\":");
                wbuf_i64(f, x->has);
            }
            wbuf_lit(f, "}}");
            o->events++;
            emitted++;
        }
        last = x;
    }
    free(st);
    return 0;
oom:
    exec_log_free(&own);
    return -1;
}

/* Process and thread names: one group per part of the chip, one track per
 * AICPU thread and per core. */
static void put_names(wbuf *f, pf_out *o)
{
    const chip *c = o->c;
    const pf_trace *p = o->p;
    static const char *const PROC[6] = {"AICPU", "AICore", "Rings", "HBM", "Args dump", "Overhead model"};
    /* a group only when it has tracks */
    bool has[7] = {false, true, true, false, p->ctr[PF_CTR_HBM].n > 0, false, o->nxs > 0};
    for (int id = PF_CTR_RING0; id < PF_CTR_HBM; id++)
        has[PID_RINGS] |= p->ctr[id].n > 0;
    for (int id = PF_CTR_ARENA0; id <= PF_CTR_BACKLOG; id++)
        has[PID_DUMP] |= p->ctr[id].n > 0;
    char name[64];
    wbuf_lit(f, "{\"ph\":\"M\",\"pid\":1,\"tid\":1000,\"name\":\"process_name\",\"args\":{\"name\":\"AICPU\"}}");
    for (int pid = 1; pid <= 6; pid++) {
        if (!has[pid])
            continue;
        int tid = pid == PID_AICPU ? TID_AICPU : pid == PID_AICORE ? TID_AICORE : pid;
        if (pid > 1)
            put_meta(f, "process_name", pid, tid, PROC[pid - 1]);
        wbuf_lit(f, ",\n{\"ph\":\"M\",\"pid\":");
        wbuf_i64(f, pid);
        wbuf_lit(f, ",\"tid\":");
        wbuf_i64(f, tid);
        wbuf_lit(f, ",\"name\":\"process_sort_index\",\"args\":{\"sort_index\":");
        wbuf_i64(f, pid);
        wbuf_lit(f, "}}");
        o->events += 2;
    }
    for (int t = 0; t < c->nsched; t++) {
        snprintf(name, sizeof(name), "scheduler %d", t);
        put_meta(f, "thread_name", PID_AICPU, TID_AICPU + t, name);
    }
    put_meta(f, "thread_name", PID_AICPU, TID_AICPU + c->nsched, "orchestrator");
    for (int k = 0; k < c->ncores; k++) {
        const core *co = &c->cores[k];
        snprintf(name, sizeof(name), "%s %d (cluster %d, scheduler %d)", co->type == CORE_AIV ? "AIV" : "AIC",
                 k, co->cluster, co->thread);
        put_meta(f, "thread_name", PID_AICORE, TID_AICORE + k, name);
    }
    o->events += (uint64_t)(c->nsched + 1 + c->ncores);
}

/* The file's closing metadata: what the trace covers and what it leaves out. */
static void put_metadata(wbuf *f, const pf_out *o, const char *overhead)
{
    const chip *c = o->c;
    const pf_trace *p = o->p;
    wbuf_lit(f, "\n],\n\"metadata\": {\"generator\": \"ptosim\", \"graph\": ");
    put_str(f, c->orch.g.name);
    wbuf_lit(f, ", \"platform\": ");
    put_str(f, c->plat.name);
    wbuf_lit(f, ", \"time\": \"simulated microseconds from the run's start\", \"makespan_us\": ");
    put_us(f, c->end_time);
    wbuf_lit(f, ", \"horizon_us\": ");
    if (p->horizon == PS_NEVER)
        wbuf_lit(f, "null");
    else
        put_us(f, p->horizon);
    wbuf_lit(f, ", \"overhead_lines_end_us\": ");
    if (o->overhead_cut == PS_NEVER)
        wbuf_lit(f, "null");
    else
        put_us(f, o->overhead_cut);
    wbuf_lit(f, ", \"record_limit\": ");
    wbuf_u64(f, p->limit);
    wbuf_lit(f, ", \"records\": ");
    wbuf_u64(f, p->records);
    wbuf_lit(f, ", \"records_dropped\": ");
    wbuf_u64(f, p->dropped);
    wbuf_lit(f, ", \"complete_before_horizon\": ");
    wbuf_str(f, p->incomplete ? "false" : "true");
    wbuf_lit(f, ",\n  \"events\": ");
    wbuf_u64(f, o->events);
    wbuf_lit(f, ", \"flows\": ");
    wbuf_u64(f, o->flows);
    wbuf_lit(f, ", \"edges_without_flow\": ");
    wbuf_u64(f, o->flows_missing);
    wbuf_lit(f, ", \"overhead_lines\": \"");
    wbuf_str(f, overhead);
    wbuf_lit(f, "\",\n  \"notes\": ");
    char note[512];
    snprintf(note, sizeof(note),
             "%s Flows join the last-ending execution of a producer to the first-starting one of its "
             "consumer; edges from or to a task with no execution on a core (dummy, alloc, past the horizon) "
             "have none. %s",
             p->horizon == PS_NEVER ? "The trace covers the whole run."
                                    : "The record limit was reached: the trace ends at horizon_us.",
             strcmp(overhead, "none") == 0 ? "No overhead lines: no execution ran."
             : strcmp(overhead, "model") == 0
                 ? "The overhead lines are the model's of ptosim_run.json, on the system counter's ticks."
                 : "The overhead lines come from the trace's own executions and wired edges up to the "
                   "horizon (the run had more executions than the model keeps), on the system counter's "
                   "ticks.");
    put_str(f, note);
    wbuf_lit(f, "}\n}\n");
}

int pf_write(const chip *c, const char *path, char *err, size_t errlen)
{
    const pf_trace *p = c->pf;
    if (!p) {
        snprintf(err, errlen, "%s: the run collected no trace", path);
        return -1;
    }
    pf_out o = {.c = c, .p = p, .horizon = p->horizon, .overhead_cut = PS_NEVER};
    int rc = -1;
    outfile of;
    FILE *file = NULL;
    wbuf buf = {.fd = -1}, *f = &buf;
    if (gather_execs(&o) != 0 || gather_calls(&o) != 0)
        goto oom;
    file = outfile_open(&of, path, err, errlen);
    if (!file)
        goto out;
    if (wbuf_open_fd(f, fileno(file)) != 0) /* nothing went through the stream: the bytes go straight in */
        goto oom;
    wbuf_lit(f, "{\"traceEvents\": [\n");
    put_names(f, &o);
    put_execs(f, &o);
    if (put_phases(f, &o) != 0 || put_calls(f, &o) != 0)
        goto oom;
    put_flows(f, &o);
    for (int id = 0; id < PF_CTR_COUNT; id++) {
        char name[64];
        const char *unit;
        bool giga;
        int64_t cap;
        int pid;
        counter_label(c, id, name, sizeof(name), &unit, &giga, &cap, &pid);
        long n = put_counter(f, &p->ctr[id], o.horizon, pid, name, unit, giga, cap);
        if (n < 0)
            goto oom;
        o.events += (uint64_t)n;
    }
    const char *overhead;
    if (put_overhead(f, &o, &overhead) != 0)
        goto oom;
    put_metadata(f, &o, overhead);
    file = NULL;
    if (wbuf_close(f) != 0) {
        snprintf(err, errlen, "%s: write failed: %s", of.path, strerror(errno));
        outfile_abort(&of);
        goto out;
    }
    rc = outfile_commit(&of, err, errlen);
    goto out;
oom:
    snprintf(err, errlen, "%s: out of memory writing the trace", path);
    if (file)
        outfile_abort(&of);
out:
    free(buf.buf); /* left by a failure: dropped, never written */
    free(o.ex);
    free(o.xs);
    free(o.an);
    free(o.calls);
    return rc;
}
