/* makespan_parts.c - the makespan cut into named parts: path nodes accumulated forward, summed at the end. */
#include "makespan_parts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MKP_RES_MAX 8 /* orchestrator resources kept apart (orch_resource has fewer) */
/* Part ids: the fixed parts, then the waits by resource and ring, a kernel with no func id, the kernels. */
#define PID_WAIT MKP_P_FIXED
#define PID_OTHER (PID_WAIT + MKP_RES_MAX * MKP_RINGS)
#define PID_KERN (PID_OTHER + 1)
#define PS_NONE UINT64_MAX

/* One step of the walk back, as it would go from a cursor c (at most hi): to max(c - dump, lo) for part top,
 * then to lo for part bot; a step whose point is above the cursor takes the cursor (the walk's clamp). */
typedef struct mkp_el {
    ps_t hi, lo, dump;
    int32_t top, bot;
} mkp_el;

/* A part's nanoseconds, in a vector sorted by part id. */
typedef struct mkp_pv {
    int32_t part;
    int64_t ns;
} mkp_pv;

struct mkp_node {
    mkp_node *parent; /* the path that made it ready (or the orchestrator's waits); the next free node */
    uint32_t refs;    /* its task slot, its children, the log */
    uint8_t by;       /* MKP_BY_* */
    bool has_exec, final;
    int32_t func;      /* the kernel of its execution that ended last, -1 when none ran */
    int32_t open_part; /* the orchestrator's wait open at its publish, -1 when none */
    ps_t open_from;
    ps_t pub, ready, dispatch, start, end, idle, dump_pre, dump_post; /* until final */
    ps_t cap;     /* where its own points took the cursor: the clip on its parent's steps */
    ps_t floor;   /* no cursor below it reaches this node: steps under it are folded */
    ps_t fold_hi; /* the highest step folded (a cursor below it would make the folded parts wrong) */
    uint64_t ntasks; /* tasks merged into it */
    mkp_el *el;      /* steps kept, bottom first: el[head .. head + nel) */
    uint32_t head, nel, elcap;
    int64_t fixed[MKP_P_FIXED]; /* the folded parts: the fixed ones in place, */
    mkp_pv *pv;                 /* ... the rest (kernels, waits) by part id */
    uint32_t npv, pvcap;
    bool folded; /* a part holding time was folded (so no cursor may come below fold_hi) */
};

#define MKP_CHUNK 256
struct mkp_chunk {
    struct mkp_chunk *next;
    mkp_node n[MKP_CHUNK];
};

static int64_t ns_of(ps_t t)
{
    return (int64_t)(t / PS_PER_NS);
}

static ps_t min_ps(ps_t a, ps_t b)
{
    return a < b ? a : b;
}

static ps_t max_ps(ps_t a, ps_t b)
{
    return a > b ? a : b;
}

static ps_t sat_sub(ps_t a, ps_t b)
{
    return a > b ? a - b : 0;
}

static void inexact(mkp_log *l, const char *why)
{
    if (!l->why)
        l->why = why;
}

void mkp_init(mkp_log *l)
{
    memset(l, 0, sizeof(*l));
    l->staged_min = PS_NONE;
}

void mkp_off(mkp_log *l)
{
    l->off = true;
    inexact(l, "not kept: the run wrote no ptosim_run.json");
}

void mkp_free(mkp_log *l)
{
    for (struct mkp_chunk *c = l->chunks, *next; c; c = next) {
        next = c->next;
        for (int i = 0; i < MKP_CHUNK; i++) {
            free(c->n[i].el);
            free(c->n[i].pv);
        }
        free(c);
    }
    for (int r = 0; r < MKP_RINGS; r++)
        free(l->tasks[r]);
    mkp_init(l);
}

int mkp_windows(mkp_log *l, const uint32_t window[MKP_RINGS])
{
    if (l->off)
        return 0;
    for (int r = 0; r < MKP_RINGS; r++) {
        if (!window[r] || (window[r] & (window[r] - 1)))
            continue; /* not a window (the task ring refuses it first) */
        /* calloc: untouched entries cost no memory until the ring reaches them */
        if (!(l->tasks[r] = calloc(window[r], sizeof(mkp_task)))) {
            inexact(l, "out of memory");
            return -1;
        }
        l->tmask[r] = window[r] - 1;
    }
    return 0;
}

/* A fresh node (one reference). NULL when out of memory. */
static mkp_node *node_get(mkp_log *l)
{
    if (!l->free) {
        struct mkp_chunk *c = calloc(1, sizeof(*c));
        if (!c) {
            inexact(l, "out of memory");
            return NULL;
        }
        c->next = l->chunks;
        l->chunks = c;
        for (int i = MKP_CHUNK - 1; i >= 0; i--) {
            c->n[i].parent = l->free;
            l->free = &c->n[i];
        }
    }
    mkp_node *n = l->free;
    l->free = n->parent;
    /* its arrays stay for reuse: no malloc per task */
    mkp_el *el = n->el;
    mkp_pv *pv = n->pv;
    uint32_t elcap = n->elcap, pvcap = n->pvcap;
    memset(n, 0, sizeof(*n));
    n->el = el;
    n->pv = pv;
    n->elcap = elcap;
    n->pvcap = pvcap;
    n->refs = 1;
    n->func = -1;
    n->open_part = -1;
    if (++l->live > l->peak)
        l->peak = l->live;
    return n;
}

static void node_put(mkp_log *l, mkp_node *n)
{
    /* it keeps its arrays for the next (nodes are made from a task's ready on, so few are free at once) */
    n->parent = l->free;
    l->free = n;
    l->live--;
}

/* Drops a reference; a node nobody holds goes, and with it its reference on its parent. */
static void node_release(mkp_log *l, mkp_node *n)
{
    while (n && --n->refs == 0) {
        mkp_node *p = n->parent;
        node_put(l, n);
        n = p;
    }
}

/* Adds ns to part `part` of n's folded vector. Returns 0, or -1 when out of memory. */
static int pv_add(mkp_log *l, mkp_node *n, int32_t part, int64_t ns)
{
    if (!ns)
        return 0;
    n->folded = true;
    if (part < MKP_P_FIXED) { /* the common case: no search */
        n->fixed[part] += ns;
        return 0;
    }
    uint32_t i = n->npv;
    while (i > 0 && n->pv[i - 1].part > part)
        i--;
    if (i > 0 && n->pv[i - 1].part == part) {
        n->pv[i - 1].ns += ns;
        return 0;
    }
    if (n->npv == n->pvcap) {
        uint32_t cap = n->pvcap ? n->pvcap * 2 : 8;
        mkp_pv *v = realloc(n->pv, (size_t)cap * sizeof(*v));
        if (!v) {
            inexact(l, "out of memory");
            return -1;
        }
        n->pv = v;
        n->pvcap = cap;
    }
    memmove(&n->pv[i + 1], &n->pv[i], (size_t)(n->npv - i) * sizeof(*n->pv));
    n->pv[i] = (mkp_pv){.part = part, .ns = ns};
    n->npv++;
    return 0;
}

/* What step e gives its two parts from a cursor at c. */
static void el_eval(const mkp_el *e, ps_t c, int64_t *top, int64_t *bot)
{
    c = min_ps(c, e->hi);
    ps_t p = min_ps(c, max_ps(sat_sub(c, e->dump), e->lo));
    ps_t q = min_ps(c, e->lo);
    *top = ns_of(c) - ns_of(p);
    *bot = ns_of(p) - ns_of(q);
}

/* Folds step e into n's vector: a cursor reaching it is at least its hi. */
static int el_fold(mkp_log *l, mkp_node *n, const mkp_el *e)
{
    int64_t top, bot;
    el_eval(e, e->hi, &top, &bot);
    if (e->hi > n->fold_hi)
        n->fold_hi = e->hi;
    return pv_add(l, n, e->top, top) | pv_add(l, n, e->bot, bot);
}

/* Room for k more steps at the top of n's array. Returns 0, or -1 when out of memory. */
static int el_room(mkp_log *l, mkp_node *n, uint32_t k)
{
    if (n->head + n->nel + k <= n->elcap)
        return 0;
    if (n->head) { /* folded from the bottom: move the rest down first */
        memmove(n->el, n->el + n->head, (size_t)n->nel * sizeof(*n->el));
        n->head = 0;
        if (n->nel + k <= n->elcap)
            return 0;
    }
    uint32_t cap = n->elcap ? n->elcap : 8;
    while (cap < n->nel + k) {
        if (cap > UINT32_MAX / 2) {
            inexact(l, "out of memory");
            return -1;
        }
        cap *= 2;
    }
    mkp_el *v = realloc(n->el, (size_t)cap * sizeof(*v));
    if (!v) {
        inexact(l, "out of memory");
        return -1;
    }
    n->el = v;
    n->elcap = cap;
    return 0;
}

/* Folds n's bottom steps that no cursor can clip any more (hi at most its floor). */
static int fold_bottom(mkp_log *l, mkp_node *n)
{
    while (n->nel && n->el[n->head].hi <= n->floor) {
        if (el_fold(l, n, &n->el[n->head]) != 0)
            return -1;
        n->head++;
        n->nel--;
    }
    if (!n->nel)
        n->head = 0;
    return 0;
}

/* Merges n's parent, held by n alone, into n: its steps clipped at n's cap go under n's, its folded parts add
 * to n's, and n takes its parent. */
static int merge_parent(mkp_log *l, mkp_node *n)
{
    mkp_node *p = n->parent;
    if (p->folded && p->fold_hi > n->cap)
        inexact(l, "internal: a point before a part already folded");
    while (p->nel && p->el[p->head + p->nel - 1].lo >= n->cap)
        p->nel--;
    if (p->nel) {
        mkp_el *t = &p->el[p->head + p->nel - 1];
        t->hi = min_ps(t->hi, n->cap);
    }
    if (n->nel) {
        if (el_room(l, p, n->nel) != 0)
            return -1;
        memcpy(&p->el[p->head + p->nel], &n->el[n->head], (size_t)n->nel * sizeof(*n->el));
        p->nel += n->nel;
    }
    /* n takes p's steps; p (about to be freed) keeps n's old array for reuse */
    mkp_el *el = n->el;
    uint32_t elcap = n->elcap;
    n->el = p->el;
    n->elcap = p->elcap;
    n->head = p->head;
    n->nel = p->nel;
    p->el = el;
    p->elcap = elcap;
    p->head = p->nel = 0;
    if (p->npv > n->npv) { /* add the shorter vector into the longer */
        mkp_pv *pv = n->pv;
        uint32_t npv = n->npv, pvcap = n->pvcap;
        n->pv = p->pv;
        n->npv = p->npv;
        n->pvcap = p->pvcap;
        p->pv = pv;
        p->npv = npv;
        p->pvcap = pvcap;
    }
    for (uint32_t i = 0; i < p->npv; i++)
        if (pv_add(l, n, p->pv[i].part, p->pv[i].ns) != 0)
            return -1;
    p->npv = 0;
    for (int i = 0; i < MKP_P_FIXED; i++)
        n->fixed[i] += p->fixed[i];
    n->folded |= p->folded;
    n->fold_hi = max_ps(n->fold_hi, p->fold_hi);
    n->cap = min_ps(n->cap, p->cap);
    n->ntasks += p->ntasks;
    n->parent = p->parent; /* p's reference on it passes to n */
    node_put(l, p);
    return fold_bottom(l, n);
}

int mkp_published(mkp_log *l, mkp_task *k, ps_t t, bool blocked, int res, int ring, ps_t since)
{
    if (l->off || !k) /* the task keeps nothing: every logger below ignores it */
        return 0;
    if (k->ref)
        node_release(l, k->ref);
    *k = (mkp_task){.pub = t, .open_part = -1};
    if (!l->orch && !(l->orch = node_get(l)))
        return -1;
    l->orch->final = true;
    k->ref = l->orch; /* the waits so far, taken by its node when it is made */
    l->orch->refs++;
    if (blocked && since < t) {
        res = res >= 0 && res < MKP_RES_MAX ? res : MKP_RES_MAX - 1;
        ring = ring >= 0 && ring < MKP_RINGS ? ring : 0;
        k->open_part = (int16_t)(PID_WAIT + res * MKP_RINGS + ring);
        k->open_from = since;
    }
    if (l->wait_to_max > t) /* the snapshot of the waits would hold time after the publish */
        inexact(l, "internal: a wait ended after a publish it precedes");
    return 0;
}

/* k's node, made now if it has none (it takes k's reference on the waits); NULL when k keeps nothing or out
 * of memory (the parts then say so). */
static mkp_node *task_node(mkp_log *l, mkp_task *k)
{
    if (!k)
        return NULL;
    if (!k->ref || k->has_node)
        return k->ref;
    mkp_node *n = node_get(l);
    if (!n)
        return NULL;
    n->pub = k->pub;
    n->ntasks = 1;
    n->open_part = k->open_part;
    n->open_from = k->open_from;
    n->parent = k->ref;
    k->ref = n;
    k->has_node = true;
    return n;
}

void mkp_ready(mkp_log *l, mkp_task *k, int by, const mkp_task *maker, ps_t t)
{
    mkp_node *n = task_node(l, k);
    if (!n)
        return;
    n->ready = t;
    n->by = (uint8_t)by;
    if (by == MKP_BY_PRODUCER) {
        mkp_node *m = maker && maker->has_node ? maker->ref : NULL;
        node_release(l, n->parent);
        n->parent = m;
        if (m)
            m->refs++;
        else
            inexact(l, "a task on the path left no record");
    }
}

void mkp_staged(mkp_log *l, mkp_task *k, ps_t t)
{
    if (!k || !k->ref || k->staged)
        return;
    k->staged = true;
    l->nstaged++;
    l->staged_min = min_ps(l->staged_min, t);
}

void mkp_exec(mkp_log *l, mkp_task *k, int32_t func, ps_t dispatch, ps_t start, ps_t end, ps_t idle,
              ps_t dump_pre)
{
    mkp_node *n = task_node(l, k);
    if (n && (!n->has_exec || end > n->end)) { /* the execution that ended last (the first of equals) */
        n->has_exec = true;
        n->func = func;
        n->dispatch = dispatch;
        n->start = start;
        n->end = end;
        n->idle = idle;
        n->dump_pre = dump_pre;
    }
}

void mkp_dump_post(mkp_log *l, mkp_task *k, ps_t spent)
{
    mkp_node *n = task_node(l, k);
    if (n)
        n->dump_post = spent;
}

/* The sum of n's folded parts. */
static int64_t pv_sum(const mkp_node *n)
{
    int64_t s = 0;
    for (uint32_t i = 0; n && i < n->npv; i++)
        s += n->pv[i].ns;
    for (int i = 0; n && i < MKP_P_FIXED; i++)
        s += n->fixed[i];
    return s;
}

/* n's own steps, from its completion at t back to what made it ready; folded where no cursor reaches. */
static int finalize(mkp_log *l, mkp_node *n, ps_t t)
{
    mkp_el e[6];
    int k = 0;
    ps_t r = t;
#define STEP(LO, DUMP, TOP, BOT)                                                                                  \
    do {                                                                                                          \
        e[k++] = (mkp_el){.hi = r, .lo = (LO), .dump = (DUMP), .top = (TOP), .bot = (BOT)};                       \
        r = min_ps(r, (LO));                                                                                      \
    } while (0)
    if (n->has_exec) {
        int32_t kern = n->func >= 0 ? PID_KERN + n->func : PID_OTHER;
        STEP(n->end, n->dump_post, MKP_P_DUMP, MKP_P_COMPLETION);
        STEP(n->start + n->idle, 0, MKP_P_HBM, MKP_P_HBM);
        STEP(n->start, 0, kern, kern);
        STEP(n->dispatch, 0, MKP_P_DISPATCH, MKP_P_DISPATCH);
        STEP(n->ready, n->dump_pre, MKP_P_DUMP, MKP_P_QUEUE);
    } else {
        STEP(n->ready, 0, MKP_P_QUEUE, MKP_P_QUEUE);
    }
    if (n->by == MKP_BY_PUBLISH)
        STEP(n->pub, 0, MKP_P_TO_READY, MKP_P_TO_READY);
#undef STEP
    n->cap = r;
    ps_t staged = l->nstaged ? min_ps(t, l->staged_min) : t;
    n->floor = max_ps(n->pub, staged);
    n->final = true;
    for (int i = k - 1; i >= 0; i--) { /* bottom first */
        if (e[i].lo >= e[i].hi)
            continue; /* no time for any cursor */
        if (e[i].hi <= n->floor) {
            if (el_fold(l, n, &e[i]) != 0)
                return -1;
        } else {
            if (el_room(l, n, 1) != 0)
                return -1;
            n->el[n->head + n->nel++] = e[i];
        }
    }
    if (n->by == MKP_BY_PUBLISH) {
        /* the orchestrator up to the publish: its waits (the parent's, and one open then), the rest submission */
        if (r < n->pub)
            inexact(l, "internal: a point before its publish");
        int64_t open = n->open_part >= 0 ? ns_of(n->pub) - ns_of(n->open_from) : 0;
        int64_t waited = pv_sum(n->parent) + open;
        if ((n->open_part >= 0 && pv_add(l, n, n->open_part, open) != 0) ||
            pv_add(l, n, MKP_P_ORCH, ns_of(n->pub) - waited) != 0)
            return -1;
        n->fold_hi = max_ps(n->fold_hi, n->pub);
    } else if (n->by == MKP_BY_NONE) { /* never made ready: the walk stops at 0 */
        node_release(l, n->parent);
        n->parent = NULL;
    }
    /* merge parents held by one child alone, a few hops up past those held by more */
    for (int hops = 0; n->parent && hops < 4;) {
        if (n->parent->refs == 1 && n->parent->final) {
            if (merge_parent(l, n) != 0)
                return -1;
        } else {
            n = n->parent;
            hops++;
        }
    }
    return 0;
}

int mkp_completed(mkp_log *l, mkp_task *k, ps_t t)
{
    if (l->off)
        return 0;
    if (k && k->staged) {
        k->staged = false;
        if (--l->nstaged == 0)
            l->staged_min = PS_NONE;
    }
    mkp_node *n = task_node(l, k);
    if (k && k->ref && !n) /* out of memory */
        return -1;
    if (!l->have_last || t > l->last_t) { /* first, so a parent only the last held can merge */
        node_release(l, l->last);
        l->last = n;
        l->have_last = true;
        l->last_t = t;
        if (n)
            n->refs++;
        else
            inexact(l, "a task on the path left no record");
    }
    return n ? finalize(l, n, t) : 0;
}

void mkp_task_done(mkp_log *l, mkp_task *k)
{
    if (!k)
        return;
    node_release(l, k->ref);
    *k = (mkp_task){.open_part = -1};
}

int mkp_wait_add(mkp_log *l, int res, int ring, ps_t from, ps_t to)
{
    if (l->off)
        return 0;
    if (to <= from)
        return 0;
    if (!l->orch || l->orch->refs > 1) { /* the snapshot tasks hold stays as it is */
        mkp_node *n = node_get(l);
        if (!n)
            return -1;
        n->final = true;
        if (l->orch) {
            for (uint32_t i = 0; i < l->orch->npv; i++)
                if (pv_add(l, n, l->orch->pv[i].part, l->orch->pv[i].ns) != 0)
                    return -1;
            memcpy(n->fixed, l->orch->fixed, sizeof(n->fixed));
            n->folded = l->orch->folded;
            n->fold_hi = l->orch->fold_hi;
            node_release(l, l->orch);
        }
        l->orch = n;
    }
    res = res >= 0 && res < MKP_RES_MAX ? res : MKP_RES_MAX - 1;
    ring = ring >= 0 && ring < MKP_RINGS ? ring : 0;
    l->orch->fold_hi = max_ps(l->orch->fold_hi, to);
    l->wait_to_max = max_ps(l->wait_to_max, to);
    return pv_add(l, l->orch, PID_WAIT + res * MKP_RINGS + ring, ns_of(to) - ns_of(from));
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

/* The walk's sums, by part. */
typedef struct walk {
    int64_t fixed[MKP_P_FIXED];
    int64_t wait[MKP_RES_MAX][MKP_RINGS];
    int64_t *kern; /* by func id */
    size_t nkern;
    int64_t other; /* kernel time of an execution with no func id */
} walk;

static int walk_add(walk *w, int32_t part, int64_t ns)
{
    if (part < PID_WAIT) {
        w->fixed[part] += ns;
    } else if (part < PID_OTHER) {
        w->wait[(part - PID_WAIT) / MKP_RINGS][(part - PID_WAIT) % MKP_RINGS] += ns;
    } else if (part == PID_OTHER) {
        w->other += ns;
    } else {
        size_t f = (size_t)(part - PID_KERN);
        if (f >= w->nkern) {
            size_t n = f + 1;
            int64_t *k = realloc(w->kern, n * sizeof(*k));
            if (!k)
                return -1;
            memset(k + w->nkern, 0, (n - w->nkern) * sizeof(*k));
            w->kern = k;
            w->nkern = n;
        }
        w->kern[f] += ns;
    }
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
    if (l->why) {
        r->why = l->why;
        return 0;
    }
    walk w = {0};
    if (l->have_last && l->last_t > orch_end) {
        ps_t c = makespan;
        w.fixed[MKP_P_TO_READY] += ns_of(c) - ns_of(min_ps(c, l->last_t));
        c = min_ps(c, l->last_t);
        for (const mkp_node *n = l->last; n; n = n->parent) {
            for (uint32_t i = n->nel; i-- > 0;) {
                const mkp_el *e = &n->el[n->head + i];
                int64_t top, bot;
                el_eval(e, c, &top, &bot);
                if (walk_add(&w, e->top, top) != 0 || walk_add(&w, e->bot, bot) != 0) {
                    free(w.kern);
                    return -1;
                }
            }
            if (n->folded && c < n->fold_hi) {
                free(w.kern);
                r->why = "internal: a point before a part already folded";
                return 0;
            }
            for (int i = 0; i < MKP_P_FIXED; i++)
                w.fixed[i] += n->fixed[i];
            for (uint32_t i = 0; i < n->npv; i++)
                if (walk_add(&w, n->pv[i].part, n->pv[i].ns) != 0) {
                    free(w.kern);
                    return -1;
                }
            r->path_tasks += n->ntasks;
            c = min_ps(c, n->cap);
        }
    } else { /* the orchestrator ended the run: its waits, the rest its submission */
        int64_t waited = 0;
        for (uint32_t i = 0; l->orch && i < l->orch->npv; i++) {
            if (walk_add(&w, l->orch->pv[i].part, l->orch->pv[i].ns) != 0) {
                free(w.kern);
                return -1;
            }
            waited += l->orch->pv[i].ns;
        }
        for (int i = 0; l->orch && i < MKP_P_FIXED; i++) {
            w.fixed[i] += l->orch->fixed[i];
            waited += l->orch->fixed[i];
        }
        w.fixed[MKP_P_ORCH] += ns_of(makespan) - waited;
    }
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
