/* perfetto_writer.c - pf_: writes ptosim's Perfetto trace of a finished chip (model/README.md §16.8). */
#include "perfetto_writer.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../analysis/exec_index.h"
#include "../base/outfile.h"
#include "../base/vec.h"
#include "../base/write_buffer.h"
#include "../engine/chip_engine.h"
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

/* The same at p (24 bytes at most): events are written a room at a time (wbuf_room). */
static char *us_at(char *p, ps_t t)
{
    return wbuf_milli_at(p, t / PS_PER_NS);
}

/* A slice's duration: its end's nanosecond minus its start's. */
static char *dur_at(char *p, ps_t start, ps_t end)
{
    uint64_t a = start / PS_PER_NS, b = end > start ? end / PS_PER_NS : a;
    return wbuf_milli_at(p, b - a);
}

/* An event's text but its strings is at most this long: its keys and a few numbers of 24 bytes. */
#define PF_EVENT_MAX 512

/* Writes the n bytes of s escaped as Perfetto's reader accepts them, at p (room for 2 n bytes): it takes
 * no \u escapes, so other control characters become spaces. */
static char *esc_at(char *p, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            *p++ = '\\';
            *p++ = (char)c;
        } else if (c == '\n') {
            *p++ = '\\';
            *p++ = 'n';
        } else if (c == '\t') {
            *p++ = '\\';
            *p++ = 't';
        } else {
            *p++ = c < 0x20 ? ' ' : (char)c;
        }
    }
    return p;
}

/* s as a JSON string (esc_at's escapes) at p, room for 2 n + 2 bytes. */
static char *str_at(char *p, const char *s, size_t n)
{
    *p++ = '"';
    p = esc_at(p, s, n);
    *p++ = '"';
    return p;
}

/* s as a JSON string, in pieces that fit a room whatever its length. */
static void put_str(wbuf *f, const char *s)
{
    size_t n = strlen(s);
    wbuf_char(f, '"');
    while (n) {
        size_t k = n < 4096 ? n : 4096;
        char *p = wbuf_room(f, 2 * k);
        if (!p)
            return;
        wbuf_commit(f, esc_at(p, s, k));
        s += k;
        n -= k;
    }
    wbuf_char(f, '"');
}

/* An event's process and thread as text, kept for the next event: events come a track at a time. */
typedef struct track_text {
    int pid, tid;  /* whose text it is (none while n is 0) */
    size_t n;      /* its length */
    char text[48]; /* ,"pid":P,"tid":T (36 bytes at most), zeros after it */
} track_text;

/* The head of one event at p: phase, time, process and thread (room for 96 bytes). */
static char *head_at(char *p, track_text *k, char ph, ps_t t, int pid, int tid)
{
    p = wbuf_lit_at(p, ",\n{\"ph\":\"");
    *p++ = ph;
    p = wbuf_lit_at(p, "\",\"ts\":");
    p = us_at(p, t);
    if (!k->n || pid != k->pid || tid != k->tid) {
        char *q = wbuf_lit_at(k->text, ",\"pid\":");
        q = wbuf_sdec_at(q, pid);
        q = wbuf_lit_at(q, ",\"tid\":");
        q = wbuf_sdec_at(q, tid);
        k->n = (size_t)(q - k->text);
        k->pid = pid;
        k->tid = tid;
    }
    memcpy(p, k->text, sizeof(k->text)); /* all of it, a copy of known size: the room holds it */
    return p + k->n;
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

static bool slice_less(const slice_ref *x, const slice_ref *y)
{
    if (x->start != y->start)
        return x->start < y->start;
    if (x->end != y->end)
        return x->end > y->end;
    return x->ix < y->ix;
}

/* Sorts r[0..n) by cmp_slice, a total order (ix breaks every tie), so the order is qsort's: a counting
 * sort by track, then an insertion sort that moves a slice only within its track, linear when a track's
 * slices come nearly in start order as the run records them; past a budget of moves, or out of
 * memory, qsort. */
static void sort_slices(slice_ref *r, size_t n)
{
    if (n < 2)
        return;
    int lo = r[0].track, hi = r[0].track;
    for (size_t i = 1; i < n; i++) {
        lo = r[i].track < lo ? r[i].track : lo;
        hi = r[i].track > hi ? r[i].track : hi;
    }
    size_t range = (size_t)((long long)hi - lo) + 1;
    slice_ref *t = range <= 65536 ? malloc(n * sizeof(*t)) : NULL;
    size_t *at = t ? calloc(range, sizeof(*at)) : NULL;
    if (!at) {
        free(t);
        qsort(r, n, sizeof(*r), cmp_slice);
        return;
    }
    for (size_t i = 0; i < n; i++)
        at[r[i].track - lo]++;
    for (size_t k = 0, sum = 0; k < range; k++) {
        size_t c = at[k];
        at[k] = sum;
        sum += c;
    }
    for (size_t i = 0; i < n; i++)
        t[at[r[i].track - lo]++] = r[i];
    memcpy(r, t, n * sizeof(*r));
    free(t);
    free(at);
    size_t moves = 0, budget = 8 * n;
    for (size_t i = 1; i < n; i++) {
        slice_ref v = r[i];
        size_t j = i;
        while (j > 0 && r[j - 1].track == v.track && slice_less(&v, &r[j - 1])) {
            r[j] = r[j - 1];
            j--;
            if (++moves > budget) {
                r[j] = v;
                qsort(r, n, sizeof(*r), cmp_slice);
                return;
            }
        }
        r[j] = v;
    }
}

/* One task's ends for the flow arrows: the execution that starts first (a
 * consumer's arrow ends there) and the one that ends last (a producer's
 * arrow starts there). */
typedef struct anchor {
    uint64_t task;
    size_t first, last; /* indices into the sorted executions */
} anchor;

static int cmp_step(const void *a, const void *b)
{
    const pf_step *x = a, *y = b;
    return (x->t > y->t) - (x->t < y->t);
}

/* Sorts steps by time. The order of steps at one time does not matter (they are summed), so an insertion
 * sort does, linear when they come nearly in order as the run records them; past a budget, qsort. */
static void sort_steps(pf_step *v, size_t n)
{
    size_t moves = 0, budget = 8 * n;
    for (size_t i = 1; i < n; i++) {
        pf_step x = v[i];
        size_t j = i;
        while (j > 0 && v[j - 1].t > x.t) {
            v[j] = v[j - 1];
            j--;
            if (++moves > budget) {
                v[j] = x;
                qsort(v, n, sizeof(*v), cmp_step);
                return;
            }
        }
        v[j] = x;
    }
}

/* A counter track's text: each event's after its head, up to the value, and before its capacity. */
typedef struct ctr_text {
    char pre[320]; /* ,"name":"NAME","args":{"UNIT": */
    size_t npre;
    int pid;
    bool giga;
    int64_t cap;
} ctr_text;

/* Prints a counter value at p: plain, or bytes/s as GB/s with three decimals. */
static char *value_at(wbuf *f, char *p, int64_t v, bool giga)
{
    if (!giga)
        return wbuf_sdec_at(p, v);
    wbuf_commit(f, p);                         /* the signed form is written by its own writer */
    wbuf_milli_i64(f, (v + 500000) / 1000000); /* to the nearest MB/s */
    return wbuf_room(f, PF_EVENT_MAX);
}

/* One "C" event: the track's value (and its capacity, when it has one) from t on. */
static void put_cevent(wbuf *f, track_text *tt, const ctr_text *k, ps_t t, int64_t v)
{
    char *p = wbuf_room(f, PF_EVENT_MAX + k->npre);
    if (!p)
        return;
    p = head_at(p, tt, 'C', t, k->pid, k->pid);
    memcpy(p, k->pre, k->npre);
    p += k->npre;
    p = value_at(f, p, v, k->giga);
    if (!p)
        return;
    if (k->cap > 0) {
        p = wbuf_lit_at(p, ",\"capacity\":");
        p = value_at(f, p, k->cap, k->giga);
        if (!p)
            return;
    }
    p = wbuf_lit_at(p, "}}");
    wbuf_commit(f, p);
}

/* Writes one counter track: its value at time 0, then an event wherever the
 * value changes (the steps sorted by time, those at one time summed), up to
 * the horizon. Returns the events written, or -1 when out of memory. */
static long put_counter(wbuf *f, track_text *tt, const pf_counter *c, ps_t horizon, const ctr_text *k)
{
    if (!c->n)
        return 0;
    pf_step *v = malloc(c->n * sizeof(*v));
    if (!v)
        return -1;
    memcpy(v, c->v, c->n * sizeof(*v));
    sort_steps(v, c->n);
    /* steps within one nanosecond (the file's resolution) make one event, at its start */
    size_t i = 0;
    int64_t val = 0;
    while (i < c->n && v[i].t < PS_PER_NS)
        val += v[i++].d;
    put_cevent(f, tt, k, 0, val);
    long events = 1;
    int64_t shown = val;
    while (i < c->n && v[i].t <= horizon) {
        ps_t t = v[i].t / PS_PER_NS * PS_PER_NS;
        while (i < c->n && v[i].t / PS_PER_NS * PS_PER_NS == t)
            val += v[i++].d;
        if (val != shown) {
            put_cevent(f, tt, k, t, val);
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

/* The slot of a task's scope site in the trace's sites, -1 when unknown. */
static int site_slot(const pf_trace *p, uint64_t task)
{
    int r = task_id_ring(task);
    uint32_t local = task_id_local(task);
    if (r >= PF_RINGS || local >= p->site_cap[r] || !p->site_of[r][local])
        return -1;
    return (int)p->site_of[r][local] - 1;
}

static const char *const CALL_NAMES[PF_CALL_KIND_COUNT] = {"submit",    "dummy",     "alloc",
                                                           "scope_end", "user_code", "wait"};

/* Everything pf_write gathers before it writes. */
typedef struct pf_out {
    const chip *c;          /* the run */
    const pf_trace *p;      /* what it collected */
    ps_t horizon;           /* slices starting later are left out */
    const pf_exec *ex;      /* executions: the collected ones, then those the run's end cut short */
    pf_exec *ex_own;        /* ... a copy when the end cut some (else ex is the trace's own) */
    size_t nex;             /* ... how many */
    slice_ref *xs;          /* executions sorted by core and start */
    size_t nxs;             /* ... kept (start <= horizon) */
    anchor *an;             /* per task: its first and last execution */
    size_t nan;             /* ... tasks */
    idmap an_of;            /* task id -> its anchor */
    pf_call *calls;         /* orchestrator slices, with a call and a wait the end cut short */
    size_t ncalls;          /* ... how many */
    uint64_t flows;         /* flow arrows drawn */
    uint64_t flows_missing; /* edges with an end not on a core (dummy, alloc, past the horizon) */
    uint64_t events;        /* events written */
    ps_t overhead_cut; /* the overhead lines stop here, having used their share (PS_NEVER: they do not) */
    char *quoted;      /* the kernels' names, then the scope sites, each a JSON string (see quote_names) */
    size_t *qoff;      /* ... string i is quoted[qoff[i]..qoff[i + 1]), empty when left to put_str */
    track_text track;  /* the last event's process and thread */
} pf_out;

/* A string quote_names keeps quoted is this long at most: longer ones are escaped where they go. */
#define PF_QUOTED_MAX 1024

/* Escapes and quotes once the strings every execution names, its kernel's and its site: tens of
 * thousands of events repeat a few of them. Returns 0, or -1 when out of memory. */
static int quote_names(pf_out *o)
{
    const graph *g = &o->c->orch.g;
    const strtab *t = &o->p->sites;
    size_t nk = g->nkernels > 0 ? (size_t)g->nkernels : 0, n = nk + t->count, len = 0;
    o->qoff = malloc((n + 1) * sizeof(*o->qoff));
    if (!o->qoff)
        return -1;
    for (size_t i = 0; i < n; i++) {
        size_t l = strlen(i < nk ? g->kernels[i].name : strtab_key(t, (int)(i - nk)));
        len += 2 * l + 2 <= PF_QUOTED_MAX ? 2 * l + 2 : 0;
    }
    o->quoted = malloc(len + 1);
    if (!o->quoted)
        return -1;
    char *q = o->quoted;
    for (size_t i = 0; i < n; i++) {
        const char *s = i < nk ? g->kernels[i].name : strtab_key(t, (int)(i - nk));
        size_t l = strlen(s);
        o->qoff[i] = (size_t)(q - o->quoted);
        if (2 * l + 2 <= PF_QUOTED_MAX)
            q = str_at(q, s, l);
    }
    o->qoff[n] = (size_t)(q - o->quoted);
    return 0;
}

/* String i of quote_names (-1: none, written "") at p, room for PF_QUOTED_MAX bytes there; one it left
 * out (s) is written by put_str, and the room made again: NULL when there is none. */
static char *quoted_at(wbuf *f, char *p, const pf_out *o, int i, const char *s)
{
    if (i < 0)
        return wbuf_lit_at(p, "\"\"");
    size_t a = o->qoff[i], n = o->qoff[i + 1] - a;
    if (n) {
        memcpy(p, o->quoted + a, n);
        return p + n;
    }
    wbuf_commit(f, p);
    put_str(f, s);
    return wbuf_room(f, PF_EVENT_MAX + PF_QUOTED_MAX);
}

/* A task's site (quoted_at), with the room it leaves. */
static char *site_at(wbuf *f, char *p, const pf_out *o, uint64_t task)
{
    int slot = site_slot(o->p, task), nk = o->c->orch.g.nkernels > 0 ? o->c->orch.g.nkernels : 0;
    return quoted_at(f, p, o, slot < 0 ? -1 : nk + slot, slot < 0 ? "" : strtab_key(&o->p->sites, slot));
}

/* Gathers the executions (those still on a core at the run's end are cut
 * there), sorts them, and indexes each task's first and last. */
static int gather_execs(pf_out *o)
{
    const chip *c = o->c;
    const pf_trace *p = o->p;
    size_t extra = 0;
    for (int k = 0; k < c->ncores; k++)
        extra += c->cores[k].busy;
    /* the trace's executions are used where they are, copied only to add those the end cut */
    o->ex = p->ex;
    o->ex_own = extra ? malloc((p->nex + extra) * sizeof(*o->ex_own)) : NULL;
    o->xs = malloc((p->nex + extra + 1) * sizeof(*o->xs));
    o->an = malloc((p->nex + extra + 1) * sizeof(*o->an));
    if ((extra && !o->ex_own) || !o->xs || !o->an)
        return -1;
    if (extra) {
        memcpy(o->ex_own, p->ex, p->nex * sizeof(*p->ex));
        o->ex = o->ex_own;
    }
    o->nex = p->nex;
    for (int k = 0; k < c->ncores; k++) {
        const core *co = &c->cores[k];
        if (!co->busy || co->run.start == PS_NEVER || co->run.start >= c->end_time)
            continue;
        const task *tk = chip_task((chip *)c, co->run.task_id);
        o->ex_own[o->nex++] = (pf_exec){.task = co->run.task_id,
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
    sort_slices(o->xs, o->nxs);
    /* per task, its executions in sorted order: the first to start and the last to end (the earlier
     * one on a tie) */
    if (idmap_init(&o->an_of, o->nxs) != 0)
        return -1;
    size_t n = 0;
    for (size_t i = 0; i < o->nxs; i++) {
        const pf_exec *e = &o->ex[o->xs[i].ix];
        size_t k = idmap_put(&o->an_of, e->task, n);
        if (k == n) {
            o->an[n++] = (anchor){.task = e->task, .first = i, .last = i};
            continue;
        }
        anchor *a = &o->an[k];
        const pf_exec *f = &o->ex[o->xs[a->first].ix], *l = &o->ex[o->xs[a->last].ix];
        if (e->start < f->start)
            a->first = i;
        if (e->end > l->end)
            a->last = i;
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
        char *p = wbuf_room(f, PF_EVENT_MAX + 2 * PF_QUOTED_MAX); /* the text, its kernel's name, its site */
        if (!p)
            return;
        p = head_at(p, &o->track, 'X', e->start, PID_AICORE, TID_AICORE + e->core);
        p = wbuf_lit_at(p, ",\"dur\":");
        p = dur_at(p, e->start, e->end);
        p = wbuf_lit_at(p, ",\"name\":");
        if (k) {
            p = quoted_at(f, p, o, (int)(k - g->kernels), k->name);
            if (!p)
                return;
        } else {
            p = wbuf_lit_at(p, "\"func ");
            p = wbuf_sdec_at(p, e->func);
            *p++ = '"';
        }
        p = wbuf_lit_at(p, ",\"cat\":\"aicore\",\"args\":{\"task_id\":");
        p = wbuf_dec_at(p, e->task);
        p = wbuf_lit_at(p, ",\"func_id\":");
        p = wbuf_sdec_at(p, e->func);
        p = wbuf_lit_at(p, ",\"block\":");
        p = wbuf_sdec_at(p, e->block);
        p = wbuf_lit_at(p, ",\"site\":");
        p = site_at(f, p, o, e->task);
        if (!p)
            return;
        p = wbuf_lit_at(p, ",\"dispatch_us\":");
        p = us_at(p, e->dispatch);
        p = wbuf_lit_at(p, ",\"receive_us\":");
        p = us_at(p, e->receive);
        if (e->finish != PS_NEVER) {
            p = wbuf_lit_at(p, ",\"finish_us\":");
            p = us_at(p, e->finish);
        } else {
            p = wbuf_lit_at(p, ",\"fin_seen\":false");
        }
        p = wbuf_lit_at(p, "}}");
        wbuf_commit(f, p);
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
    sort_slices(r, n);
    uint8_t name_len[256] = {0}; /* by kind: its name's length + 1, once known */
    for (size_t i = 0; i < n; i++) {
        const pf_phase *x = &p->ph[r[i].ix];
        char *q = wbuf_room(f, PF_EVENT_MAX);
        if (!q)
            break;
        q = head_at(q, &o->track, 'X', x->start, PID_AICPU, TID_AICPU + x->thread);
        q = wbuf_lit_at(q, ",\"dur\":");
        q = dur_at(q, x->start, x->end);
        if (x->kind == PF_PHASE_DUMP_PARK) {
            static const char *const GATE[3] = {"free buffer", "ready slot", "arena"};
            const char *gate = GATE[x->task_id < 3 ? x->task_id : 2];
            q = wbuf_lit_at(q, ",\"name\":\"dump park\",\"cat\":\"scheduler\",\"args\":{\"gate\":\"");
            size_t gl = strlen(gate);
            memcpy(q, gate, gl);
            q = wbuf_lit_at(q + gl, "\"}}");
            wbuf_commit(f, q);
            o->events++;
            continue;
        }
        const char *name = swimlane_phase_name(x->kind); /* a short name of the runtime's */
        if (!name_len[x->kind])
            name_len[x->kind] = (uint8_t)(strlen(name) + 1);
        size_t nl = name_len[x->kind] - 1u;
        q = wbuf_lit_at(q, ",\"name\":\"");
        memcpy(q, name, nl);
        q = wbuf_lit_at(q + nl, "\",\"cat\":\"scheduler\",\"args\":{\"tasks\":");
        q = wbuf_dec_at(q, x->tasks);
        if (x->kind == PH_DUMMY_TASK || x->kind == PH_PREDICATED_SKIP) {
            q = wbuf_lit_at(q, ",\"task_id\":");
            q = wbuf_dec_at(q, x->task_id);
        }
        q = wbuf_lit_at(q, "}}");
        wbuf_commit(f, q);
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
    sort_slices(r, n);
    int tid = TID_AICPU + o->c->nsched;
    for (size_t i = 0; i < n; i++) {
        const pf_call *x = &o->calls[r[i].ix];
        char *q = wbuf_room(f, PF_EVENT_MAX);
        if (!q)
            break;
        q = head_at(q, &o->track, 'X', x->start, PID_AICPU, tid);
        q = wbuf_lit_at(q, ",\"dur\":");
        q = dur_at(q, x->start, x->end);
        wbuf_commit(f, q);
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
            } else if ((q = wbuf_room(f, PF_EVENT_MAX + PF_QUOTED_MAX))) {
                q = wbuf_lit_at(q, "\"task_id\":");
                q = wbuf_dec_at(q, x->task_id);
                q = wbuf_lit_at(q, ",\"ring\":");
                q = wbuf_sdec_at(q, x->ring);
                q = wbuf_lit_at(q, ",\"site\":");
                q = site_at(f, q, o, x->task_id);
                if (q)
                    wbuf_commit(f, wbuf_lit_at(q, "}}"));
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
        size_t a = idmap_get(&o->an_of, d->pred), b = idmap_get(&o->an_of, d->succ);
        if (a == SIZE_MAX || b == SIZE_MAX || d->pred == d->succ) {
            o->flows_missing++;
            continue;
        }
        const pf_exec *x = &o->ex[o->xs[o->an[a].last].ix], *y = &o->ex[o->xs[o->an[b].first].ix];
        ps_t from = x->end / PS_PER_NS - x->start / PS_PER_NS >= 2 ? x->end - PS_PER_NS : x->start;
        ps_t to = y->end / PS_PER_NS - y->start / PS_PER_NS >= 2 ? y->start + PS_PER_NS : y->start;
        o->flows++;
        o->events += 2;
        char *q = wbuf_room(f, 2 * PF_EVENT_MAX);
        if (!q)
            continue;
        q = head_at(q, &o->track, 's', from, PID_AICORE, TID_AICORE + x->core);
        q = wbuf_lit_at(q, ",\"name\":\"dep\",\"cat\":\"dep\",\"id\":");
        q = wbuf_dec_at(q, o->flows);
        *q++ = '}';
        q = head_at(q, &o->track, 'f', to, PID_AICORE, TID_AICORE + y->core);
        q = wbuf_lit_at(q, ",\"bp\":\"e\",\"name\":\"dep\",\"cat\":\"dep\",\"id\":");
        q = wbuf_dec_at(q, o->flows);
        *q++ = '}';
        wbuf_commit(f, q);
    }
}

/* The overhead model's lines (overhead_model.h): per engine whether it is overhead, its
 * ready-undispatched and running counts, and the all / has lines, on the
 * system counter's ticks as the model sees the swimlane. */
static int put_overhead(wbuf *f, pf_out *o, const char **source)
{
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
        static const size_t NAME_LEN[3] = {sizeof("overhead") - 1, sizeof("ready undispatched") - 1,
                                           sizeof("running") - 1};
        bool want[3] = {ov, rd, rn};
        for (int w = 0; w < 3; w++) {
            if (!want[w])
                continue;
            o->events++;
            emitted++;
            char *q = wbuf_room(f, PF_EVENT_MAX);
            if (!q)
                continue;
            q = head_at(q, &o->track, 'C', t, PID_OVERHEAD, PID_OVERHEAD);
            q = wbuf_lit_at(q, ",\"name\":\"");
            size_t nl = NAME_LEN[w];
            memcpy(q, NAMES[w], nl);
            q = wbuf_lit_at(q + nl, "\",\"args\":{");
            bool sep = false;
            for (int ty = 0; ty < 2; ty++)
                if (present[ty]) {
                    int v = w == 0 ? x->overhead[ty] : w == 1 ? x->ready[ty] : x->running[ty];
                    if (sep)
                        *q++ = ',';
                    q = ty ? wbuf_lit_at(q, "\"aiv\":") : wbuf_lit_at(q, "\"aic\":");
                    q = wbuf_sdec_at(q, v);
                    sep = true;
                }
            if (w == 0) {
                if (sep)
                    *q++ = ',';
                q = wbuf_lit_at(q, "\"all\":");
                q = wbuf_sdec_at(q, x->all);
                q = wbuf_lit_at(q, ",\"has\":");
                q = wbuf_sdec_at(q, x->has);
            }
            q = wbuf_lit_at(q, "}}");
            wbuf_commit(f, q);
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
    if (gather_execs(&o) != 0 || gather_calls(&o) != 0 || quote_names(&o) != 0)
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
        ctr_text k;
        counter_label(c, id, name, sizeof(name), &unit, &k.giga, &k.cap, &k.pid);
        /* the track's name and unit, escaped once: each event copies them */
        char *q = wbuf_lit_at(k.pre, ",\"name\":");
        q = str_at(q, name, strlen(name));
        q = wbuf_lit_at(q, ",\"args\":{\"");
        size_t ul = strlen(unit);
        memcpy(q, unit, ul);
        q = wbuf_lit_at(q + ul, "\":");
        k.npre = (size_t)(q - k.pre);
        long n = put_counter(f, &o.track, &p->ctr[id], o.horizon, &k);
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
    free(o.ex_own);
    free(o.xs);
    free(o.an);
    if (o.an_of.key)
        idmap_free(&o.an_of);
    free(o.calls);
    free(o.quoted);
    free(o.qoff);
    return rc;
}
