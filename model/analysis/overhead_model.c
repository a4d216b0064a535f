/* overhead_model.c - ohm_: the scheduler-overhead model's figures. */
/* Overhead per engine, all/has, aicore switch, head/tail, gaps, critical path. */
#include "overhead_model.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../base/vec.h"
#include "exec_index.h"

/* The definitions follow hw-native-sys/simpler docs/dfx/sched-overhead-model.md
 * and its tool simpler_setup/tools/sched_overhead_analysis.py, so the figures
 * equal what the tool prints for the same swimlane and deps.json; the gap
 * decomposition follows docs/investigations/2026-07-aicore-swimlane-switch-
 * overhead-and-ack-gate.md. Everything is integer ticks until the end. */

/* ---- helpers ---- */

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Sorts n elements of `size` bytes by the 64-bit unsigned key(e), stably:
 * LSD radix, a byte at a time, skipping the bytes every key shares (tick
 * counts leave most high bytes alike). The order equals that of a stable
 * comparison sort on the same key, which glibc's qsort (a merge sort at
 * these sizes) gave before, at a fraction of its compares. Each key is read
 * once into an array, the passes move 32-bit indices, and each element moves
 * once at the end. Falls back to qsort with cmp when out of memory (or past
 * 2^32 elements). */
static void radix_sort(void *base, size_t n, size_t size, uint64_t (*key)(const void *),
                       int (*cmp)(const void *, const void *))
{
    if (n < 2)
        return;
    unsigned char *a = base, *b = n <= UINT32_MAX ? malloc(n * size) : NULL;
    uint64_t *k = b ? malloc(n * sizeof(*k)) : NULL;
    uint32_t *p = k ? malloc(n * sizeof(*p)) : NULL, *q = p ? malloc(n * sizeof(*q)) : NULL;
    size_t(*cnt)[256] = q ? calloc(8, sizeof(*cnt)) : NULL; /* every byte's counts in one pass */
    if (!cnt) {
        free(b);
        free(k);
        free(p);
        free(q);
        qsort(base, n, size, cmp);
        return;
    }
    uint64_t all_or = 0, all_and = ~(uint64_t)0;
    for (size_t i = 0; i < n; i++) {
        uint64_t v = k[i] = key(a + i * size);
        p[i] = (uint32_t)i;
        all_or |= v;
        all_and &= v;
        for (int byte = 0; byte < 8; byte++)
            cnt[byte][(v >> (8 * byte)) & 0xff]++;
    }
    bool moved = false;
    for (int byte = 0; byte < 8; byte++) {
        int shift = 8 * byte;
        if ((((all_or ^ all_and) >> shift) & 0xff) == 0)
            continue; /* every key has this byte: the pass would keep the order */
        size_t *c = cnt[byte], at = 0;
        for (int d = 0; d < 256; d++) {
            size_t m = c[d];
            c[d] = at;
            at += m;
        }
        for (size_t i = 0; i < n; i++)
            q[c[(k[p[i]] >> shift) & 0xff]++] = p[i];
        uint32_t *t = p; /* the next pass reads what this one wrote */
        p = q;
        q = t;
        moved = true;
    }
    if (moved) {
        /* fixed sizes copy inline; the sorted indices say where each element comes from */
        if (size == 8)
            for (size_t i = 0; i < n; i++)
                memcpy(b + i * 8, a + (size_t)p[i] * 8, 8);
        else if (size == 16)
            for (size_t i = 0; i < n; i++)
                memcpy(b + i * 16, a + (size_t)p[i] * 16, 16);
        else
            for (size_t i = 0; i < n; i++)
                memcpy(b + i * size, a + (size_t)p[i] * size, size);
        memcpy(a, b, n * size);
    }
    free(cnt);
    free(b);
    free(k);
    free(p);
    free(q);
}

static uint64_t key_i64(const void *p)
{
    return *(const uint64_t *)p ^ (1ULL << 63); /* signed order as unsigned */
}

static uint64_t key_u64(const void *p)
{
    return *(const uint64_t *)p;
}

/* Fills a distribution from n tick values (sorted in place). */
static void dist_of(int64_t *v, size_t n, double us_per_tick, ohm_dist *d)
{
    static const int P[OHM_PCTS] = {10, 25, 50, 75, 90, 95, 99};
    memset(d, 0, sizeof(*d));
    d->n = n;
    if (!n)
        return;
    radix_sort(v, n, sizeof(*v), key_i64, cmp_i64);
    int64_t sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += v[i];
    for (int k = 0; k < OHM_PCTS; k++) {
        size_t ix = n * (size_t)P[k] / 100;
        d->pct[k] = (double)v[ix < n - 1 ? ix : n - 1] * us_per_tick;
    }
    d->max = (double)v[n - 1] * us_per_tick;
    d->sum = (double)sum * us_per_tick;
    d->mean = d->sum / (double)n;
}

/* Per task: its executions folded (earliest dispatch and start, latest end and finish). */
typedef struct otask {
    uint64_t id;
    int64_t dispatch, start, end, finish, ready;
    unsigned types; /* bit 0 AIC, bit 1 AIV */
} otask;

/* The index of task id in t (by map), or SIZE_MAX, trying first the index
 * after `near` and `near` itself: executions and edges come mostly in task
 * order. */
static size_t task_ix_near(const otask *t, size_t n, const idmap *map, uint64_t id, size_t near)
{
    if (near + 1 < n && t[near + 1].id == id)
        return near + 1;
    if (near < n && t[near].id == id)
        return near;
    return idmap_get(map, id);
}

/* An edge between two tasks of the table, by index. */
typedef struct oedge {
    size_t pred, succ;
} oedge;

static int cmp_oedge(const void *a, const void *b)
{
    const oedge *x = a, *y = b;
    if (x->succ != y->succ)
        return (x->succ > y->succ) - (x->succ < y->succ);
    return (x->pred > y->pred) - (x->pred < y->pred);
}

/* cmp_oedge's order as one key (indices below 2^32: see build_tasks). */
static uint64_t key_oedge(const void *p)
{
    const oedge *e = p;
    return (uint64_t)e->succ << 32 | (uint64_t)e->pred;
}

/* A change of the running or the ready-undispatched count of one engine. */
typedef struct oevent {
    int64_t t;
    int8_t aiv;   /* engine */
    int8_t ready; /* 1: the ready count, 0: the running count */
    int8_t d;     /* +1 or -1 */
} oevent;

static int cmp_oevent(const void *a, const void *b)
{
    const oevent *x = a, *y = b;
    return (x->t > y->t) - (x->t < y->t);
}

static uint64_t key_oevent(const void *p)
{
    return key_i64(&((const oevent *)p)->t);
}

/* Executions ordered by core, then (start, end, dispatch), as the tool sorts them.
 * qsort has no context argument, so the array being sorted is a file-level
 * pointer: ohm_compute is not reentrant across threads (ptosim calls it from
 * one thread only). */
static const exec_record *sort_x;
static int cmp_xcore(const void *a, const void *b)
{
    const exec_record *x = &sort_x[*(const size_t *)a], *y = &sort_x[*(const size_t *)b];
    if (x->core != y->core)
        return (x->core > y->core) - (x->core < y->core);
    if (x->start != y->start)
        return (x->start > y->start) - (x->start < y->start);
    if (x->end != y->end)
        return (x->end > y->end) - (x->end < y->end);
    return (x->dispatch > y->dispatch) - (x->dispatch < y->dispatch);
}

/* Ticks in [a, b) during which engine ty had ready, undispatched work: the
 * step function (times[i], ready[i]) holds ready[i] from times[i] on (0
 * before the first time). */
static int64_t ready_ticks(const int64_t *times, const int32_t *ready, size_t n, int64_t a, int64_t b)
{
    /* the last step at or before a */
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (times[mid] <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    int64_t tot = 0, at = a;
    int32_t cur = lo ? ready[lo - 1] : 0;
    for (size_t i = lo; i < n && times[i] < b; i++) {
        if (cur > 0)
            tot += times[i] - at;
        at = times[i];
        cur = ready[i];
    }
    if (cur > 0)
        tot += b - at;
    return tot;
}

void ohm_result_free(ohm_result *r)
{
    free(r->cores);
    memset(r, 0, sizeof(*r));
}

double ohm_pct(const ohm_result *r, double us)
{
    return r->window_us > 0 ? 100.0 * us / r->window_us : 0.0;
}

bool ohm_cp_over_100(double span_us, double sched_us)
{
    return span_us > 0 && sched_us > span_us;
}

const char *ohm_verdict(double has_pct)
{
    if (has_pct >= 25)
        return "scheduler-bound";
    if (has_pct >= 8)
        return "partially scheduler-limited";
    return "compute/dependency-bound";
}

/* ---- the model ---- */

/* Builds the task table (sorted by id) with each task's readiness. */
static otask *build_tasks(const exec_log *l, size_t *ntasks, oedge **edges, size_t *nedges)
{
    uint64_t *ids = malloc((l->nx ? l->nx : 1) * sizeof(*ids));
    if (!ids)
        return NULL;
    for (size_t i = 0; i < l->nx; i++)
        ids[i] = l->x[i].task;
    radix_sort(ids, l->nx, sizeof(*ids), key_u64, cmp_u64);
    size_t n = 0;
    for (size_t i = 0; i < l->nx; i++)
        if (!n || ids[i] != ids[n - 1])
            ids[n++] = ids[i];
    otask *t = malloc((n ? n : 1) * sizeof(*t));
    oedge *e = malloc((l->ne ? l->ne : 1) * sizeof(*e));
    idmap map;
    if (!t || !e || idmap_init(&map, n) != 0) {
        free(ids);
        free(t);
        free(e);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        t[i] = (otask){
            .id = ids[i], .dispatch = INT64_MAX, .start = INT64_MAX, .end = INT64_MIN, .finish = INT64_MIN};
        idmap_put(&map, ids[i], i);
    }
    free(ids);
    size_t near = 0;
    for (size_t i = 0; i < l->nx; i++) {
        const exec_record *x = &l->x[i];
        near = task_ix_near(t, n, &map, x->task, near);
        otask *k = &t[near];
        k->dispatch = x->dispatch < k->dispatch ? x->dispatch : k->dispatch;
        k->start = x->start < k->start ? x->start : k->start;
        k->end = x->end > k->end ? x->end : k->end;
        k->finish = x->finish > k->finish ? x->finish : k->finish;
        k->types |= 1u << (x->aiv ? 1 : 0);
    }
    /* edges between tasks that ran (a predecessor without an execution, a
     * dummy or a host-side load, is not in the perf set) */
    size_t ne = 0, near_pred = 0, near_succ = 0;
    for (size_t i = 0; i < l->ne; i++) {
        if (l->e[i].pred == l->e[i].succ)
            continue;
        size_t p = task_ix_near(t, n, &map, l->e[i].pred, near_pred),
               s = task_ix_near(t, n, &map, l->e[i].succ, near_succ);
        if (p != SIZE_MAX && s != SIZE_MAX) {
            e[ne++] = (oedge){.pred = p, .succ = s};
            near_pred = p;
            near_succ = s;
        }
    }
    idmap_free(&map);
    if (n <= UINT32_MAX)
        radix_sort(e, ne, sizeof(*e), key_oedge, cmp_oedge);
    else
        qsort(e, ne, sizeof(*e), cmp_oedge);
    size_t u = 0;
    for (size_t i = 0; i < ne; i++)
        if (!u || e[i].pred != e[u - 1].pred || e[i].succ != e[u - 1].succ)
            e[u++] = e[i];
    ne = u;
    /* ready = the latest producer end; a task with none falls back to its own dispatch */
    for (size_t i = 0; i < n; i++)
        t[i].ready = INT64_MIN;
    for (size_t i = 0; i < ne; i++) {
        otask *s = &t[e[i].succ];
        if (t[e[i].pred].end > s->ready)
            s->ready = t[e[i].pred].end;
    }
    for (size_t i = 0; i < n; i++)
        if (t[i].ready == INT64_MIN)
            t[i].ready = t[i].dispatch;
    *ntasks = n;
    *edges = e;
    *nedges = ne;
    return t;
}

/* Part 1: the sweep over the window. Fills the engines' overhead, all/has,
 * and the ready-count step functions (times[], ready[ty][]) for the switch
 * split. */
static int sweep(const exec_log *l, const otask *t, size_t nt, int64_t w0, int64_t w1, const int k[2],
                 const bool present[2], int64_t ov[2], int64_t *all, int64_t *has, int64_t **times_out,
                 int32_t *ready_out[2], size_t *nsteps, ohm_step **steps_out)
{
    size_t cap = 2 * l->nx + 4 * nt + 2, n = 0;
    oevent *ev = malloc(cap * sizeof(*ev));
    if (!ev)
        return -1;
    ev[n++] = (oevent){.t = w0};
    ev[n++] = (oevent){.t = w1};
    for (size_t i = 0; i < l->nx; i++) {
        int64_t s = clamp64(l->x[i].start, w0, w1), e = clamp64(l->x[i].end, w0, w1);
        if (e > s) {
            ev[n++] = (oevent){.t = s, .aiv = (int8_t)(l->x[i].aiv != 0), .d = 1};
            ev[n++] = (oevent){.t = e, .aiv = (int8_t)(l->x[i].aiv != 0), .d = -1};
        }
    }
    for (size_t i = 0; i < nt; i++) {
        int64_t r = clamp64(t[i].ready, w0, w1), dd = clamp64(t[i].dispatch, w0, w1);
        if (dd <= r)
            continue;
        for (int ty = 0; ty < 2; ty++) /* a MIX task is ready work for both engines */
            if (t[i].types & (1u << ty)) {
                ev[n++] = (oevent){.t = r, .aiv = (int8_t)ty, .ready = 1, .d = 1};
                ev[n++] = (oevent){.t = dd, .aiv = (int8_t)ty, .ready = 1, .d = -1};
            }
    }
    radix_sort(ev, n, sizeof(*ev), key_oevent, cmp_oevent); /* stable: events at one time keep their order */
    int64_t *times = malloc(n * sizeof(*times));
    int32_t *rd[2] = {malloc(n * sizeof(int32_t)), malloc(n * sizeof(int32_t))};
    ohm_step *st = steps_out ? malloc(n * sizeof(*st)) : NULL;
    if (!times || !rd[0] || !rd[1] || (steps_out && !st)) {
        free(ev);
        free(times);
        free(rd[0]);
        free(rd[1]);
        free(st);
        return -1;
    }
    int32_t run[2] = {0, 0}, wait[2] = {0, 0};
    size_t ns = 0;
    for (size_t i = 0; i < n;) {
        int64_t a = ev[i].t;
        for (; i < n && ev[i].t == a; i++) {
            if (ev[i].ready)
                wait[ev[i].aiv] += ev[i].d;
            else
                run[ev[i].aiv] += ev[i].d;
        }
        if (i == n)
            break; /* the last time ends the window */
        times[ns] = a;
        rd[0][ns] = wait[0];
        rd[1][ns] = wait[1];
        ns++;
        int64_t len = ev[i].t - a;
        bool o[2] = {false, false}, any = false, all_ov = true, work = false, work_idle = true;
        for (int ty = 0; ty < 2; ty++) {
            if (!present[ty])
                continue;
            any = true;
            o[ty] = k[ty] - run[ty] > 0 && wait[ty] > 0;
            if (o[ty])
                ov[ty] += len;
            all_ov &= o[ty];
            if (wait[ty] > 0) {
                work = true;
                work_idle &= k[ty] - run[ty] > 0;
            }
        }
        if (any && all_ov)
            *all += len;
        if (work && work_idle)
            *has += len;
        if (st) {
            ohm_step *x = &st[ns - 1];
            *x = (ohm_step){.t = a, .all = any && all_ov, .has = work && work_idle};
            for (int ty = 0; ty < 2; ty++) {
                x->running[ty] = run[ty];
                x->ready[ty] = wait[ty];
                x->overhead[ty] = present[ty] && o[ty];
            }
        }
    }
    if (st) /* the window's end: nothing runs any more */
        st[ns] = (ohm_step){.t = w1};
    free(ev);
    *times_out = times;
    ready_out[0] = rd[0];
    ready_out[1] = rd[1];
    *nsteps = ns;
    if (steps_out)
        *steps_out = st;
    return 0;
}

/* Part 6: walks back from the task that finished last, each time to the
 * producer that ended last (the larger id on a tie), and splits the path into
 * kernel time and what the scheduler added. */
static void critical_path(const otask *t, size_t nt, const oedge *e, size_t ne, double us, ohm_result *r)
{
    if (!nt)
        return;
    size_t cur = 0;
    for (size_t i = 1; i < nt; i++)
        if (t[i].finish > t[cur].finish)
            cur = i;
    int64_t end = t[cur].finish, sched = 0, exec = 0, path_start = t[cur].start;
    int hops = 0;
    for (size_t guard = 0; guard <= nt; guard++) {
        exec += t[cur].end - t[cur].start > 0 ? t[cur].end - t[cur].start : 0;
        /* the edges into cur, found by binary search on succ */
        size_t lo = 0, hi = ne;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (e[mid].succ < cur)
                lo = mid + 1;
            else
                hi = mid;
        }
        size_t best = SIZE_MAX;
        for (size_t i = lo; i < ne && e[i].succ == cur; i++) {
            size_t p = e[i].pred;
            if (best == SIZE_MAX || t[p].end > t[best].end ||
                (t[p].end == t[best].end && t[p].id > t[best].id))
                best = p;
        }
        if (best == SIZE_MAX) {
            sched += t[cur].start - t[cur].dispatch > 0 ? t[cur].start - t[cur].dispatch : 0;
            break;
        }
        sched += t[cur].start - t[best].end > 0 ? t[cur].start - t[best].end : 0;
        hops++;
        cur = best;
        if (t[cur].start < path_start)
            path_start = t[cur].start;
    }
    int64_t span = end - path_start;
    r->cp_hops = hops;
    r->cp_span_us = (double)span * us;
    r->cp_exec_us = (double)exec * us;
    r->cp_sched_us = (double)sched * us;
    r->cp_other_us = span - exec - sched > 0 ? (double)(span - exec - sched) * us : 0.0;
}

/* The task table and the sweep ohm_steps made of a log, kept for the ohm_compute of the same log that
 * follows it in a run with a trace (the trace's overhead lines, then ptosim_run.json): the log's stamp
 * says it has not changed since. One at a time; ohm_compute takes it over. */
static struct {
    const exec_log *l;
    uint64_t stamp;
    otask *t;
    size_t nt;
    oedge *e;
    size_t ne;
    int k[2];
    bool present[2];
    int64_t w0, w1, ov[2], all, has;
    int64_t *times;
    int32_t *ready[2];
    size_t nsteps;
} memo;

static void memo_drop(void)
{
    free(memo.t);
    free(memo.e);
    free(memo.times);
    free(memo.ready[0]);
    free(memo.ready[1]);
    memset(&memo, 0, sizeof(memo));
}

int ohm_compute(const exec_log *l, uint64_t tick_hz, ohm_result *r)
{
    memset(r, 0, sizeof(*r));
    if (l->dropped || !l->nx || !tick_hz)
        return 0;
    double us = 1e6 / (double)tick_hz;
    int rc = -1;
    size_t nt = 0, ne = 0, nsteps = 0;
    oedge *e = NULL;
    int64_t *times = NULL, *vals = NULL, *v2 = NULL, *v3 = NULL;
    int32_t *ready[2] = {NULL, NULL};
    size_t *ord = NULL;
    bool kept = memo.t && memo.l == l && memo.stamp == l->stamp; /* ohm_steps just swept this log */
    otask *t = kept ? memo.t : build_tasks(l, &nt, &e, &ne);
    if (kept) {
        nt = memo.nt;
        e = memo.e;
        ne = memo.ne;
        memo.t = NULL;
        memo.e = NULL;
    }
    if (!t)
        goto out;
    r->executions = l->nx;
    r->tasks = nt;
    r->tick_hz = tick_hz;
    if (cpath_compute(l, &r->tool) != 0)
        goto out;

    int64_t w0 = INT64_MAX, w1 = INT64_MIN;
    for (size_t i = 0; i < l->nx; i++) {
        w0 = l->x[i].start < w0 ? l->x[i].start : w0;
        w1 = l->x[i].end > w1 ? l->x[i].end : w1;
    }
    r->window_us = (double)(w1 - w0) * us;

    /* executions by core in start order: k per engine, the switches and the gaps */
    ord = malloc(l->nx * sizeof(*ord));
    vals = malloc(l->nx * sizeof(*vals));
    v2 = malloc(l->nx * sizeof(*v2));
    v3 = malloc(l->nx * sizeof(*v3));
    if (!ord || !vals || !v2 || !v3)
        goto out;
    for (size_t i = 0; i < l->nx; i++)
        ord[i] = i;
    sort_x = l->x;
    xsort_by_core(ord, l->nx, l->x, cmp_xcore);
    int k[2] = {0, 0};
    bool present[2] = {false, false};
    int ncores = 0;
    for (size_t i = 0; i < l->nx; i++)
        if (!i || l->x[ord[i]].core != l->x[ord[i - 1]].core) {
            int ty = l->x[ord[i]].aiv != 0;
            k[ty]++;
            present[ty] = true;
            ncores++;
        }
    r->cores = calloc((size_t)ncores, sizeof(*r->cores));
    if (!r->cores)
        goto out;
    r->ncores = ncores;

    int64_t ov[2] = {0, 0}, all = 0, has = 0;
    if (kept && memo.times && memo.w0 == w0 && memo.w1 == w1 && memo.k[0] == k[0] && memo.k[1] == k[1] &&
        memo.present[0] == present[0] && memo.present[1] == present[1]) {
        times = memo.times; /* the same inputs: the same sweep */
        ready[0] = memo.ready[0];
        ready[1] = memo.ready[1];
        nsteps = memo.nsteps;
        ov[0] = memo.ov[0];
        ov[1] = memo.ov[1];
        all = memo.all;
        has = memo.has;
        memo.times = NULL;
        memo.ready[0] = memo.ready[1] = NULL;
    } else if (sweep(l, t, nt, w0, w1, k, present, ov, &all, &has, &times, ready, &nsteps, NULL) != 0) {
        goto out;
    }
    for (int ty = 0; ty < 2; ty++) {
        r->eng[ty].present = present[ty];
        r->eng[ty].cores = k[ty];
        r->eng[ty].overhead_us = (double)ov[ty] * us;
    }
    r->all_us = (double)all * us;
    r->has_us = (double)has * us;

    /* Part 2 and the gap decomposition, core by core */
    int64_t sw_min[2] = {INT64_MAX, INT64_MAX}, sw_max[2] = {0, 0}, sw_sum[2] = {0, 0};
    int64_t sw_ov[2] = {0, 0}, sw_ind[2] = {0, 0};
    size_t nsteady = 0, nfirst = 0, nwait = 0, nhead = 0;
    int64_t *head = malloc(l->nx * sizeof(*head)), *tail = malloc(l->nx * sizeof(*tail));
    int64_t *first = malloc((size_t)ncores * sizeof(*first)), *wait = malloc(l->nx * sizeof(*wait));
    if (!head || !tail || !first || !wait) {
        free(head);
        free(tail);
        free(first);
        free(wait);
        goto out;
    }
    int ci = -1;
    int64_t core_sw = 0;
    bool seen_switch = false;
    for (size_t i = 0; i < l->nx; i++) {
        const exec_record *b = &l->x[ord[i]];
        int ty = b->aiv != 0;
        bool new_core = !i || b->core != l->x[ord[i - 1]].core;
        if (new_core) {
            ci++;
            r->cores[ci] = (ohm_core_gaps){.core = b->core, .aiv = ty};
            core_sw = 0;
            seen_switch = false;
        }
        int64_t h = b->start - b->dispatch;
        if (!new_core) {
            const exec_record *a = &l->x[ord[i - 1]];
            h = b->start - a->end < h ? b->start - a->end : h;
            ohm_core_gaps *cg = &r->cores[ci];
            if (b->dispatch < a->end) {
                /* a switch: the next task was already waiting in the pending slot */
                int64_t g = b->start - a->end;
                cg->switches++;
                cg->switch_us += (double)g * us;
                if (!seen_switch)
                    first[nfirst++] = g;
                else {
                    vals[nsteady] = g;
                    v2[nsteady] = b->receive - a->end;
                    v3[nsteady] = b->start - b->receive;
                    nsteady++;
                }
                seen_switch = true;
            } else {
                cg->waits++;
                cg->wait_us += (double)(b->start - a->end) * us;
                wait[nwait++] = b->start - a->end;
            }
            /* the tool's switch: clipped to the window, and only a gap that exists */
            int64_t ga = a->end > w0 ? a->end : w0, gb = b->start < w1 ? b->start : w1;
            if (gb - ga > 0 && b->dispatch < a->end) {
                core_sw += gb - ga;
                r->eng[ty].sw_events++;
                int64_t o = ready_ticks(times, ready[ty], nsteps, ga, gb);
                sw_ov[ty] += o;
                sw_ind[ty] += (gb - ga) - o;
            }
        }
        head[nhead] = h > 0 ? h : 0;
        tail[nhead] = b->finish - b->end > 0 ? b->finish - b->end : 0;
        nhead++;
        bool last = i + 1 == l->nx || l->x[ord[i + 1]].core != b->core;
        if (last) {
            sw_sum[ty] += core_sw;
            sw_min[ty] = core_sw < sw_min[ty] ? core_sw : sw_min[ty];
            sw_max[ty] = core_sw > sw_max[ty] ? core_sw : sw_max[ty];
        }
    }
    int64_t lo = INT64_MAX, hi = 0;
    for (int ty = 0; ty < 2; ty++) {
        ohm_engine *en = &r->eng[ty];
        if (!present[ty])
            continue;
        en->sw_min_us = (double)sw_min[ty] * us;
        en->sw_max_us = (double)sw_max[ty] * us;
        en->sw_mean_us = (double)sw_sum[ty] * us / k[ty];
        en->sw_overhead_us = (double)sw_ov[ty] * us;
        en->sw_independent_us = (double)sw_ind[ty] * us;
        lo = sw_min[ty] < lo ? sw_min[ty] : lo;
        hi += sw_min[ty];
    }
    r->bound_lo_us = (double)lo * us;
    r->bound_hi_us = (double)hi * us;
    dist_of(head, nhead, us, &r->head);
    dist_of(tail, nhead, us, &r->tail);
    dist_of(vals, nsteady, us, &r->steady);
    dist_of(v2, nsteady, us, &r->prev_tail);
    dist_of(v3, nsteady, us, &r->setup);
    dist_of(first, nfirst, us, &r->first_switch);
    dist_of(wait, nwait, us, &r->wait);
    free(head);
    free(tail);
    free(first);
    free(wait);

    critical_path(t, nt, e, ne, us, r);
    r->computed = true;
    rc = 0;
out:
    memo_drop(); /* taken over, or of another log */
    free(t);
    free(e);
    free(times);
    free(ready[0]);
    free(ready[1]);
    free(ord);
    free(vals);
    free(v2);
    free(v3);
    if (rc != 0)
        ohm_result_free(r);
    return rc;
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* k and present from the n signed core ids (an AIV core below zero): the distinct ids per engine, counted
 * on a flag per id when they span at most 2^16 (a chip's cores), else by sorting them. */
static void count_cores(int32_t *cores, size_t n, int k[2], bool present[2])
{
    int32_t lo = cores[0], hi = cores[0];
    for (size_t i = 1; i < n; i++) {
        lo = cores[i] < lo ? cores[i] : lo;
        hi = cores[i] > hi ? cores[i] : hi;
    }
    size_t range = (size_t)((int64_t)hi - lo) + 1;
    unsigned char *seen = range <= 65536 ? calloc(range, 1) : NULL;
    if (seen) {
        for (size_t i = 0; i < n; i++)
            if (!seen[cores[i] - lo]) {
                seen[cores[i] - lo] = 1;
                k[cores[i] < 0]++;
                present[cores[i] < 0] = true;
            }
        free(seen);
        return;
    }
    qsort(cores, n, sizeof(*cores), cmp_i32);
    for (size_t i = 0; i < n; i++)
        if (!i || cores[i] != cores[i - 1]) {
            k[cores[i] < 0]++;
            present[cores[i] < 0] = true;
        }
}

int ohm_steps(const exec_log *l, ohm_step **steps, size_t *n, bool present[2])
{
    *steps = NULL;
    *n = 0;
    present[0] = present[1] = false;
    if (l->dropped || !l->nx)
        return 0;
    size_t nt = 0, ne = 0, nsteps = 0;
    oedge *e = NULL;
    int64_t *times = NULL;
    int32_t *ready[2] = {NULL, NULL};
    int32_t *cores = malloc(l->nx * sizeof(*cores));
    otask *t = cores ? build_tasks(l, &nt, &e, &ne) : NULL;
    int rc = -1;
    if (!t)
        goto out;
    /* k per engine: the distinct cores that ran one of its executions
     * (an AIV core's id is never an AIC's, so the ids are told apart by sign) */
    int64_t w0 = INT64_MAX, w1 = INT64_MIN;
    for (size_t i = 0; i < l->nx; i++) {
        cores[i] = l->x[i].aiv ? -1 - l->x[i].core : l->x[i].core;
        w0 = l->x[i].start < w0 ? l->x[i].start : w0;
        w1 = l->x[i].end > w1 ? l->x[i].end : w1;
    }
    int k[2] = {0, 0};
    count_cores(cores, l->nx, k, present);
    int64_t ov[2] = {0, 0}, all = 0, has = 0;
    if (sweep(l, t, nt, w0, w1, k, present, ov, &all, &has, &times, ready, &nsteps, steps) != 0)
        goto out;
    *n = nsteps + 1;
    rc = 0;
    /* kept for the ohm_compute of this log that follows (a run's ptosim_run.json after its trace) */
    memo_drop();
    memo.l = l;
    memo.stamp = l->stamp;
    memo.t = t;
    memo.nt = nt;
    memo.e = e;
    memo.ne = ne;
    memo.times = times;
    memo.ready[0] = ready[0];
    memo.ready[1] = ready[1];
    memo.nsteps = nsteps;
    memo.w0 = w0;
    memo.w1 = w1;
    for (int ty = 0; ty < 2; ty++) {
        memo.k[ty] = k[ty];
        memo.present[ty] = present[ty];
        memo.ov[ty] = ov[ty];
    }
    memo.all = all;
    memo.has = has;
    t = NULL;
    e = NULL;
    times = NULL;
    ready[0] = ready[1] = NULL;
out:
    free(cores);
    free(t);
    free(e);
    free(times);
    free(ready[0]);
    free(ready[1]);
    return rc;
}

/* ---- ptosim_run.json ---- */

static void write_dist(FILE *f, const char *key, const ohm_dist *d)
{
    static const char *const P[OHM_PCTS] = {"p10", "p25", "p50", "p75", "p90", "p95", "p99"};
    fprintf(f, "\"%s\": {\"n\": %" PRIu64, key, d->n);
    for (int k = 0; k < OHM_PCTS; k++)
        fprintf(f, ", \"%s\": %.3f", P[k], d->pct[k]);
    fprintf(f, ", \"max\": %.3f, \"mean\": %.3f, \"total\": %.3f}", d->max, d->mean, d->sum);
}

void ohm_write_json(FILE *f, const ohm_result *r, size_t limit, int indent)
{
    static const char *const TY[2] = {"aic", "aiv"};
    if (!r->computed) {
        fprintf(f, "{\"computed\": false, \"limit_executions\": %zu}", limit);
        return;
    }
    fprintf(
        f, "{\"computed\": true, \"executions\": %" PRIu64 ", \"tasks\": %" PRIu64 ", \"window_us\": %.3f,\n",
        r->executions, r->tasks, r->window_us);
    fprintf(f, "%*s\"overhead_pct\": {", indent + 2, "");
    bool sep = false;
    for (int ty = 0; ty < 2; ty++)
        if (r->eng[ty].present) {
            fprintf(f, "%s\"%s\": %.3f", sep ? ", " : "", TY[ty], ohm_pct(r, r->eng[ty].overhead_us));
            sep = true;
        }
    fprintf(f, "%s\"all\": %.3f, \"has\": %.3f},\n", sep ? ", " : "", ohm_pct(r, r->all_us),
            ohm_pct(r, r->has_us));
    fprintf(f, "%*s\"verdict\": \"%s\",\n", indent + 2, "", ohm_verdict(ohm_pct(r, r->has_us)));
    fprintf(f, "%*s\"aicore_switch\": {", indent + 2, "");
    for (int ty = 0; ty < 2; ty++) {
        const ohm_engine *en = &r->eng[ty];
        if (!en->present)
            continue;
        fprintf(f,
                "\"%s\": {\"cores\": %d, \"min_us_per_core\": %.3f, \"mean_us_per_core\": %.3f, "
                "\"max_us_per_core\": %.3f, \"events\": %" PRIu64
                ", \"us_per_event\": %.3f, \"during_overhead_us\": %.3f, \"independent_us\": %.3f}, ",
                TY[ty], en->cores, en->sw_min_us, en->sw_mean_us, en->sw_max_us, en->sw_events,
                en->sw_events ? en->sw_mean_us * en->cores / (double)en->sw_events : 0.0, en->sw_overhead_us,
                en->sw_independent_us);
    }
    fprintf(f, "\"makespan_bound_us\": [%.3f, %.3f]},\n", r->bound_lo_us, r->bound_hi_us);
    fprintf(f, "%*s", indent + 2, "");
    write_dist(f, "head_us", &r->head);
    fprintf(f, ",\n%*s", indent + 2, "");
    write_dist(f, "tail_us", &r->tail);
    fprintf(f, ",\n%*s\"gaps\": {", indent + 2, "");
    write_dist(f, "steady_switch_us", &r->steady);
    fputs(", ", f);
    write_dist(f, "prev_tail_us", &r->prev_tail);
    fputs(", ", f);
    write_dist(f, "setup_us", &r->setup);
    fputs(", ", f);
    write_dist(f, "first_switch_us", &r->first_switch);
    fputs(", ", f);
    write_dist(f, "wait_us", &r->wait);
    fputs(",\n", f);
    fprintf(f, "%*s  \"per_core\": [", indent + 2, "");
    for (int i = 0; i < r->ncores; i++) {
        const ohm_core_gaps *g = &r->cores[i];
        fprintf(f,
                "%s{\"core\": %d, \"type\": \"%s\", \"switches\": %" PRIu64 ", \"switch_us\": %.3f, "
                "\"waits\": %" PRIu64 ", \"wait_us\": %.3f}",
                i ? ", " : "", g->core, TY[g->aiv != 0], g->switches, g->switch_us, g->waits, g->wait_us);
    }
    fputs("]},\n", f);
    fprintf(f,
            "%*s\"critical_path\": {\"hops\": %d, \"span_us\": %.3f, \"compute_us\": %.3f, \"scheduler_us\": "
            "%.3f, \"other_us\": %.3f},\n",
            indent + 2, "", r->cp_hops, r->cp_span_us, r->cp_exec_us, r->cp_sched_us, r->cp_other_us);
    const cpath_result *c = &r->tool;
    double us = 1e6 / (double)r->tick_hz;
    fprintf(f,
            "%*s\"critical_path_tool\": {\"tasks\": %" PRIu64 ", \"happens_before_edges\": %" PRIu64
            ", \"makespan_us\": %.3f, \"static_cpm_us\": %.3f, \"static_cpm_tasks\": %" PRIu64
            ", \"observed_tasks\": %" PRIu64 ", \"compute_us\": %.3f, \"stall_us\": %.3f, \"data_wait_us\": "
            "%.3f, \"core_wait_us\": %.3f, \"front_gap_us\": %.3f}}",
            indent + 2, "", c->tasks, c->hb_edges, (double)c->makespan * us, (double)c->cpm * us, c->cpm_tasks,
            c->observed_tasks, (double)c->compute * us, (double)c->stall * us,
            (double)c->kind[CPATH_DATA_WAIT] * us, (double)c->kind[CPATH_CORE_WAIT] * us,
            (double)c->kind[CPATH_FRONT_GAP] * us);
}
