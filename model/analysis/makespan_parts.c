/* makespan_parts.c - the makespan cut into named parts: the per-task log and the walk back from the end. */
#include "makespan_parts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/vec.h"

void mkp_init(mkp_log *l)
{
    memset(l, 0, sizeof(*l));
}

void mkp_free(mkp_log *l)
{
    for (int i = 0; i < MKP_RINGS; i++)
        free(l->t[i]);
    free(l->w);
    bool dropped = l->dropped;
    memset(l, 0, sizeof(*l));
    l->dropped = dropped;
}

mkp_task *mkp_at(mkp_log *l, uint64_t task_id, bool *oom)
{
    *oom = false;
    int ring = (int)((task_id >> 32) & 0xFF);
    size_t local = (uint32_t)task_id;
    if (l->dropped || ring >= MKP_RINGS)
        return NULL;
    if (local >= l->n[ring]) {
        if (l->ntasks + (local + 1 - l->n[ring]) > MKP_MAX_TASKS) {
            mkp_free(l);
            l->dropped = true;
            return NULL;
        }
        while (local >= l->cap[ring])
            if (vec_grow((void **)&l->t[ring], &l->cap[ring], l->cap[ring], sizeof(mkp_task)) != 0) {
                *oom = true;
                return NULL;
            }
        for (size_t i = l->n[ring]; i <= local; i++)
            l->t[ring][i] = (mkp_task){.func = -1};
        l->ntasks += local + 1 - l->n[ring];
        l->n[ring] = local + 1;
    }
    return &l->t[ring][local];
}

int mkp_published(mkp_log *l, uint64_t task_id, ps_t t)
{
    bool oom;
    mkp_task *k = mkp_at(l, task_id, &oom);
    if (k)
        k->pub = t;
    return oom ? -1 : 0;
}

int mkp_ready(mkp_log *l, uint64_t task_id, int by, uint64_t maker, ps_t t)
{
    bool oom;
    mkp_task *k = mkp_at(l, task_id, &oom);
    if (k) {
        k->ready = t;
        k->by = (uint8_t)by;
        k->maker = maker;
    }
    return oom ? -1 : 0;
}

int mkp_exec(mkp_log *l, uint64_t task_id, int32_t func, ps_t dispatch, ps_t start, ps_t end, ps_t idle,
             ps_t dump_pre)
{
    bool oom;
    mkp_task *k = mkp_at(l, task_id, &oom);
    if (k && (!k->has_exec || end > k->end)) { /* the execution that ended last (the first of equals) */
        k->has_exec = true;
        k->func = func;
        k->dispatch = dispatch;
        k->start = start;
        k->end = end;
        k->idle = idle;
        k->dump_pre = dump_pre;
    }
    return oom ? -1 : 0;
}

int mkp_dump_post(mkp_log *l, uint64_t task_id, ps_t spent)
{
    bool oom;
    mkp_task *k = mkp_at(l, task_id, &oom);
    if (k)
        k->dump_post = spent;
    return oom ? -1 : 0;
}

int mkp_completed(mkp_log *l, uint64_t task_id, ps_t t)
{
    bool oom;
    mkp_task *k = mkp_at(l, task_id, &oom);
    if (k) {
        k->completed = t;
        k->done = true;
    }
    if (!l->dropped && !oom && (!l->have_last || t > l->last_t)) {
        l->have_last = true;
        l->last = task_id;
        l->last_t = t;
    }
    return oom ? -1 : 0;
}

int mkp_wait_add(mkp_log *l, int res, int ring, ps_t from, ps_t to)
{
    if (l->dropped || to <= from)
        return 0;
    if (vec_grow((void **)&l->w, &l->wcap, l->nw, sizeof(*l->w)) != 0)
        return -1;
    l->w[l->nw++] = (mkp_wait){.from = from, .to = to, .res = res, .ring = ring};
    return 0;
}

static const char *const fixed_names[MKP_P_FIXED] = {
    "shared-HBM stretch",
    "completion: kernel end to completion observed",
    "scheduler: completion or publish to ready",
    "scheduler: ready to dispatch",
    "dispatch to kernel start",
    "args dump",
    "orchestrator submission",
};

const char *mkp_fixed_name(int i)
{
    return i >= 0 && i < MKP_P_FIXED ? fixed_names[i] : "?";
}

#define MKP_RES_MAX 8 /* orchestrator resources kept apart (orch_resource has fewer) */

/* The walk's state: a cursor going back from the makespan, and what each part got. */
typedef struct walk {
    ps_t cur;
    int64_t fixed[MKP_P_FIXED];
    int64_t wait[MKP_RES_MAX][MKP_RINGS];
    int64_t *kern; /* by func id */
    size_t nkern;
    int64_t other; /* kernel time of an execution with no func id */
} walk;

static int64_t ns_of(ps_t t)
{
    return (int64_t)(t / PS_PER_NS);
}

/* The cursor moves back to b (never forward); the nanoseconds it passed go to *acc. */
static void seg(walk *w, int64_t *acc, ps_t b)
{
    if (b > w->cur)
        b = w->cur;
    *acc += ns_of(w->cur) - ns_of(b);
    w->cur = b;
}

static ps_t sat_sub(ps_t a, ps_t b)
{
    return a > b ? a - b : 0;
}

static ps_t max_ps(ps_t a, ps_t b)
{
    return a > b ? a : b;
}

/* The orchestrator's time from 0 to the cursor: its waits, and the rest its submission work. */
static void orchestrator(walk *w, const mkp_log *l)
{
    int64_t waited = 0;
    for (size_t i = 0; i < l->nw; i++) {
        const mkp_wait *x = &l->w[i];
        if (x->from >= w->cur)
            continue;
        ps_t to = x->to < w->cur ? x->to : w->cur;
        int64_t ns = ns_of(to) - ns_of(x->from);
        int res = x->res >= 0 && x->res < MKP_RES_MAX ? x->res : MKP_RES_MAX - 1;
        int ring = x->ring >= 0 && x->ring < MKP_RINGS ? x->ring : 0;
        w->wait[res][ring] += ns;
        waited += ns;
    }
    w->fixed[MKP_P_ORCH] += ns_of(w->cur) - waited;
    w->cur = 0;
}

static const mkp_task *task_of(const mkp_log *l, uint64_t id)
{
    int ring = (int)((id >> 32) & 0xFF);
    size_t local = (uint32_t)id;
    return ring < MKP_RINGS && local < l->n[ring] ? &l->t[ring][local] : NULL;
}

static int kern_acc(walk *w, int32_t func, int64_t **acc)
{
    if (func < 0) {
        *acc = &w->other;
        return 0;
    }
    if ((size_t)func >= w->nkern) {
        size_t n = (size_t)func + 1;
        int64_t *k = realloc(w->kern, n * sizeof(*k));
        if (!k)
            return -1;
        memset(k + w->nkern, 0, (n - w->nkern) * sizeof(*k));
        w->kern = k;
        w->nkern = n;
    }
    *acc = &w->kern[func];
    return 0;
}

static int part_cmp(const void *a, const void *b)
{
    return strcmp(((const mkp_part *)a)->what, ((const mkp_part *)b)->what);
}

int mkp_compute(const mkp_log *l, ps_t makespan, ps_t orch_end, mkp_kernel_name kname, void *karg,
                mkp_res_name rname, mkp_result *r)
{
    memset(r, 0, sizeof(*r));
    r->makespan_ns = ns_of(makespan);
    if (l->dropped) {
        r->why = "more tasks than the per-task log keeps";
        return 0;
    }
    walk w = {.cur = makespan};
    if (l->have_last && l->last_t > orch_end) {
        uint64_t id = l->last;
        for (size_t steps = 0;; steps++) {
            const mkp_task *k = task_of(l, id);
            if (!k || !k->done || steps > l->ntasks) {
                free(w.kern);
                r->why = "a task on the path left no record";
                return 0;
            }
            r->path_tasks++;
            seg(&w, &w.fixed[MKP_P_TO_READY], k->completed);
            if (k->has_exec) {
                seg(&w, &w.fixed[MKP_P_DUMP], max_ps(sat_sub(w.cur, k->dump_post), k->end));
                seg(&w, &w.fixed[MKP_P_COMPLETION], k->end);
                ps_t window = sat_sub(w.cur, k->start);
                seg(&w, &w.fixed[MKP_P_HBM], w.cur - sat_sub(window, k->idle));
                int64_t *acc;
                if (kern_acc(&w, k->func, &acc) != 0) {
                    free(w.kern);
                    return -1;
                }
                seg(&w, acc, k->start);
                seg(&w, &w.fixed[MKP_P_DISPATCH], k->dispatch);
                seg(&w, &w.fixed[MKP_P_DUMP], max_ps(sat_sub(w.cur, k->dump_pre), k->ready));
            }
            seg(&w, &w.fixed[MKP_P_QUEUE], k->ready);
            if (k->by == MKP_BY_PRODUCER) {
                id = k->maker;
                continue;
            }
            if (k->by == MKP_BY_PUBLISH)
                seg(&w, &w.fixed[MKP_P_TO_READY], k->pub);
            break;
        }
    }
    orchestrator(&w, l);
    /* the parts: kernels holding time (by name, equal names merged), the fixed ones, the waits holding time
     */
    size_t cap = w.nkern + 1 + MKP_P_FIXED + MKP_RES_MAX * MKP_RINGS;
    mkp_part *p = calloc(cap, sizeof(*p));
    if (!p) {
        free(w.kern);
        return -1;
    }
    size_t n = 0;
    for (size_t f = 0; f < w.nkern; f++)
        if (w.kern[f]) {
            const char *nm = kname ? kname((int32_t)f, karg) : NULL;
            if (nm)
                snprintf(p[n].what, sizeof(p[n].what), "kernel %s", nm);
            else
                snprintf(p[n].what, sizeof(p[n].what), "kernel func %zu", f);
            p[n++].ns = w.kern[f];
        }
    if (w.other) {
        snprintf(p[n].what, sizeof(p[n].what), "kernel (unnamed)");
        p[n++].ns = w.other;
    }
    qsort(p, n, sizeof(*p), part_cmp);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (m && strcmp(p[m - 1].what, p[i].what) == 0)
            p[m - 1].ns += p[i].ns;
        else
            p[m++] = p[i];
    }
    n = m;
    for (int i = 0; i < MKP_P_FIXED; i++) {
        snprintf(p[n].what, sizeof(p[n].what), "%s", fixed_names[i]);
        p[n++].ns = w.fixed[i];
    }
    for (int res = 0; res < MKP_RES_MAX; res++)
        for (int ring = 0; ring < MKP_RINGS; ring++)
            if (w.wait[res][ring]) {
                const char *nm = rname ? rname(res) : NULL;
                snprintf(p[n].what, sizeof(p[n].what), "orchestrator wait: %s, ring %d", nm ? nm : "?", ring);
                p[n++].ns = w.wait[res][ring];
            }
    free(w.kern);
    int64_t sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += p[i].ns;
    if (sum != r->makespan_ns) { /* cannot happen: every step moved the one cursor */
        free(p);
        r->why = "internal: the parts do not add up";
        return 0;
    }
    r->computed = true;
    r->parts = p;
    r->nparts = n;
    return 0;
}

void mkp_result_free(mkp_result *r)
{
    free(r->parts);
    r->parts = NULL;
    r->nparts = 0;
}
