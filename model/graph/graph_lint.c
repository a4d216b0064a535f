/* graph_lint.c - lint_: is the graph the one you meant (model/README.md §5.3). */
/* Latent races the runtime does not order, and edges that serialise without a real overlap. */
#include "graph_lint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/vec.h"

#define HISTORY_CAP 1024      /* accesses and writer entries kept per buffer */
#define PATH_VISIT_CAP 200000 /* tasks one path search may visit */
#define ENUM_SMALL (1 << 16)  /* element offsets enumerated for an exact intersection */
#define ENUM_LARGE (1 << 20)
#define LINT_MAX_SCOPES 64 /* PTO2_MAX_SCOPE_DEPTH; the reader rejects deeper nesting */
/* A buffer's first room for accesses and writer entries, doubled as needed: most buffers are one task's
 * outputs, written once and read once or twice; 64 apiece (vec_reserve_zeroed's start) took 17 KB a buffer:
 * 1.4 GB to lint a 65,536-task paged attention in `ptosim tune`, 17 GB for a 10^6-task chain. */
#define LINT_FIRST_SLOTS 2

/* A task's use of a buffer. */
typedef struct access {
    uint32_t task;
    bool write;
    bool opt_out;
    int slot; /* tensor slot: the name it was used under */
    tmap_view v;
} access;

/* A TensorMap writer entry as the runtime would hold it (without retirement). */
typedef struct entry {
    uint32_t task;
    bool inout;
    int chain;        /* inout tasks on exactly this view so far */
    long chain_first; /* line of the first */
    int slot;
    tmap_view v;
} entry;

typedef struct buffer {
    int32_t creator; /* task that created it, -1 = external */
    access *acc;
    size_t nacc, acap;
    entry *ent;
    size_t nent, ecap;
} buffer;

typedef struct task_info {
    long line;
    int kernel;
    uint32_t pred_start, npred;
} task_info;

/* A pair to check once the task's edges are known. */
typedef struct candidate {
    uint32_t a;
    bool a_write, a_opt, b_write, b_opt;
    int slot;
} candidate;

typedef struct lint {
    graph *g;
    lint_report *r;
    task_info *tasks;
    size_t ntasks, tcap;
    uint32_t *preds;
    size_t npreds, pcap;
    buffer *bufs;
    size_t nbufs, bcap;
    int32_t *slot_buf; /* tensor slot -> current buffer */
    size_t slot_cap;
    int32_t *label_task; /* label slot -> task + 1, 0 = unbound */
    size_t label_cap;
    uint32_t *stamp; /* path search marks */
    size_t stamp_cap;
    uint32_t stamp_now;
    uint32_t *queue;
    size_t qcap;
    candidate *cand;
    size_t ncand, ccap;
    int manual_depth; /* open scopes that are manual, inner ones included */
    int scope_manual[LINT_MAX_SCOPES];
    int depth;
    bool oom;
} lint;

const char *lint_kind_text(lint_kind k)
{
    static const char *const T[LINT_KINDS] = {
        "write-after-read race: a write no edge orders after an earlier reader (the runtime does not track "
        "WAR)",
        "write-after-write race: two writes no edge orders (out_existing does not look up earlier writers)",
        "read of a region an earlier write may still be producing, with no edge between them",
        "an opt-out (no_dep, manual_dep or a manual scope) over a region another task uses, with no edge",
        "a serialising edge between views that share no element (the overlap test could not prove them "
        "disjoint)",
        "a chain of tasks that inout one region, one edge per task: serial by construction",
    };
    return T[k];
}

/* ---- exact intersection of two views of one buffer ---- */

static bool dense(const tmap_view *v)
{
    int64_t s = 1;
    for (int d = v->ndims - 1; d >= 0; d--) {
        if (v->shape[d] > 1 && v->strides[d] != s)
            return false;
        s *= v->shape[d];
    }
    return true;
}

static uint64_t numel(const tmap_view *v)
{
    uint64_t n = 1;
    for (int d = 0; d < v->ndims; d++)
        n *= (uint64_t)v->shape[d];
    return n;
}

static uint64_t last_offset(const tmap_view *v)
{
    uint64_t o = v->start;
    for (int d = 0; d < v->ndims; d++)
        o += (uint64_t)(v->shape[d] - 1) * (uint64_t)v->strides[d];
    return o;
}

/* Calls out every element offset of v, in row-major order of the view. */
static void offsets(const tmap_view *v, uint64_t *out)
{
    int64_t idx[TMAP_MAX_DIMS] = {0};
    uint64_t n = numel(v);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t o = v->start;
        for (int d = 0; d < v->ndims; d++)
            o += (uint64_t)idx[d] * (uint64_t)v->strides[d];
        out[i] = o;
        for (int d = v->ndims - 1; d >= 0; d--) {
            if (++idx[d] < v->shape[d])
                break;
            idx[d] = 0;
        }
    }
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

int lint_views_intersect(const tmap_view *a, const tmap_view *b)
{
    if (last_offset(a) < b->start || last_offset(b) < a->start)
        return 0;
    if (dense(a) && dense(b))
        return 1; /* contiguous ranges whose extents meet */
    const tmap_view *s = numel(a) <= numel(b) ? a : b, *l = s == a ? b : a;
    if (numel(s) > ENUM_SMALL || numel(l) > ENUM_LARGE)
        return -1;
    uint64_t *so = malloc(numel(s) * sizeof(*so)), *lo = malloc(numel(l) * sizeof(*lo));
    int hit = -1;
    if (so && lo) {
        offsets(s, so);
        offsets(l, lo);
        qsort(so, numel(s), sizeof(*so), cmp_u64);
        hit = 0;
        for (uint64_t i = 0; i < numel(l) && !hit; i++)
            hit = bsearch(&lo[i], so, numel(s), sizeof(*so), cmp_u64) != NULL;
    }
    free(so);
    free(lo);
    return hit;
}

/* ---- findings ---- */

/* Counts a finding of kind k and returns a slot to describe it, or NULL when
 * LINT_SHOW of that kind are already kept. */
static lint_finding *add_finding(lint *L, lint_kind k)
{
    lint_report *r = L->r;
    if (r->count[k]++ >= LINT_SHOW)
        return NULL;
    if (vec_reserve_zeroed((void **)&r->shown, &r->shown_cap, r->nshown + 1, sizeof(*r->shown)) != 0) {
        L->oom = true;
        return NULL;
    }
    lint_finding *f = &r->shown[r->nshown++];
    memset(f, 0, sizeof(*f));
    f->kind = k;
    return f;
}

static void report(lint *L, lint_kind k, uint32_t a, uint32_t b, int slot, const char *why)
{
    lint_finding *f = add_finding(L, k);
    if (!f)
        return;
    f->line_a = L->tasks[a].line;
    f->line_b = L->tasks[b].line;
    f->kernel_a = L->tasks[a].kernel;
    f->kernel_b = L->tasks[b].kernel;
    f->tensor = slot;
    snprintf(f->why, sizeof(f->why), "%s", why ? why : "");
}

/* A chain of inout tasks ends: report it if long enough. */
static void end_chain(lint *L, const entry *e)
{
    if (e->chain < LINT_CHAIN_MIN)
        return;
    lint_finding *f = add_finding(L, LINT_INOUT_CHAIN);
    if (!f)
        return;
    f->line_a = e->chain_first;
    f->line_b = L->tasks[e->task].line;
    f->kernel_a = f->kernel_b = L->tasks[e->task].kernel;
    f->tensor = e->slot;
    f->chain = e->chain;
}

/* ---- the walk ---- */

static bool same_view(const tmap_view *a, const tmap_view *b)
{
    if (a->start != b->start || a->ndims != b->ndims)
        return false;
    for (int d = 0; d < a->ndims; d++)
        if (a->shape[d] != b->shape[d] || a->strides[d] != b->strides[d])
            return false;
    return true;
}

static void add_pred(lint *L, uint32_t t, uint32_t p)
{
    if (p == t)
        return;
    task_info *ti = &L->tasks[t];
    for (uint32_t i = ti->pred_start; i < ti->pred_start + ti->npred; i++)
        if (L->preds[i] == p)
            return;
    if (vec_reserve_zeroed((void **)&L->preds, &L->pcap, L->npreds + 1, sizeof(*L->preds)) != 0) {
        L->oom = true;
        return;
    }
    L->preds[L->npreds++] = p;
    ti->npred++;
}

static int32_t new_buffer(lint *L, int32_t creator)
{
    if (vec_reserve_zeroed((void **)&L->bufs, &L->bcap, L->nbufs + 1, sizeof(*L->bufs)) != 0) {
        L->oom = true;
        return -1;
    }
    buffer *b = &L->bufs[L->nbufs];
    memset(b, 0, sizeof(*b));
    b->creator = creator;
    return (int32_t)L->nbufs++;
}

/* Marks every task from which t is reachable, down to task lo. Returns false
 * when the search was cut short. */
static bool mark_ancestors(lint *L, uint32_t t, uint32_t lo)
{
    if (vec_reserve_zeroed((void **)&L->stamp, &L->stamp_cap, L->ntasks, sizeof(*L->stamp)) != 0 ||
        vec_reserve_zeroed((void **)&L->queue, &L->qcap, L->ntasks, sizeof(*L->queue)) != 0) {
        L->oom = true;
        return false;
    }
    L->stamp_now++;
    size_t head = 0, tail = 0, visits = 0;
    L->queue[tail++] = t;
    L->stamp[t] = L->stamp_now;
    while (head < tail) {
        if (++visits > PATH_VISIT_CAP)
            return false;
        const task_info *ti = &L->tasks[L->queue[head++]];
        for (uint32_t i = ti->pred_start; i < ti->pred_start + ti->npred; i++) {
            uint32_t p = L->preds[i];
            if (p < lo || L->stamp[p] == L->stamp_now)
                continue;
            L->stamp[p] = L->stamp_now;
            L->queue[tail++] = p;
        }
    }
    return true;
}

static void add_access(lint *L, buffer *b, const access *x)
{
    if (b->nacc == HISTORY_CAP) {
        memmove(b->acc, b->acc + 1, (HISTORY_CAP - 1) * sizeof(*b->acc));
        b->nacc--;
        L->r->truncated = true;
    }
    if (vec_grow_from((void **)&b->acc, &b->acap, b->nacc, sizeof(*b->acc), LINT_FIRST_SLOTS) != 0) {
        L->oom = true;
        return;
    }
    b->acc[b->nacc++] = *x;
}

static void add_entry(lint *L, buffer *b, const entry *e)
{
    if (b->nent == HISTORY_CAP) {
        end_chain(L, &b->ent[0]);
        memmove(b->ent, b->ent + 1, (HISTORY_CAP - 1) * sizeof(*b->ent));
        b->nent--;
        L->r->truncated = true;
    }
    if (vec_grow_from((void **)&b->ent, &b->ecap, b->nent, sizeof(*b->ent), LINT_FIRST_SLOTS) != 0) {
        L->oom = true;
        return;
    }
    b->ent[b->nent++] = *e;
}

static tmap_view view_of(const graph_arg *a, int32_t buf)
{
    tmap_view v = {.addr = (uint64_t)buf,
                   .buffer_numel = a->buffer_numel,
                   .start = a->start_offset,
                   .version = a->version,
                   .dtype = (uint8_t)a->dtype,
                   .ndims = (uint8_t)a->ndim};
    for (int d = 0; d < a->ndim; d++) {
        v.shape[d] = a->shape[d];
        v.strides[d] = a->strides[d];
    }
    return v;
}

static bool writes(graph_dir d)
{
    return d == DIR_OUT || d == DIR_OUT_EXISTING || d == DIR_INOUT;
}

static void task_op(lint *L, const graph_op *op)
{
    graph *g = L->g;
    if (vec_reserve_zeroed((void **)&L->tasks, &L->tcap, L->ntasks + 1, sizeof(*L->tasks)) != 0) {
        L->oom = true;
        return;
    }
    uint32_t t = (uint32_t)L->ntasks++;
    task_info *ti = &L->tasks[t];
    ti->line = op->line;
    ti->kernel = -1;
    for (int k = 0; k < 3 && ti->kernel < 0; k++)
        if (op->kernel_ids[k] >= 0)
            ti->kernel = g->func_to_kernel[op->kernel_ids[k]];
    ti->pred_start = (uint32_t)L->npreds;
    ti->npred = 0;
    bool manual = L->manual_depth > 0;
    for (int i = 0; i < op->ndeps; i++) /* raw task ids cannot be mapped without simulating */
        if (op->deps[i].label >= 0 && (size_t)op->deps[i].label < L->label_cap &&
            L->label_task[op->deps[i].label] > 0)
            add_pred(L, t, (uint32_t)L->label_task[op->deps[i].label] - 1);

    int32_t bufs[GRAPH_MAX_TENSOR_ARGS];
    entry inherit[GRAPH_MAX_TENSOR_ARGS];
    memset(inherit, 0, sizeof(inherit));
    /* edges first, as the runtime wires them: creators, then TensorMap lookups */
    for (int i = 0; i < op->nargs; i++) {
        const graph_arg *a = &op->args[i];
        if (vec_reserve_zeroed((void **)&L->slot_buf, &L->slot_cap, (size_t)a->tensor + 1,
                               sizeof(*L->slot_buf)) != 0) {
            L->oom = true;
            return;
        }
        if (a->dir == DIR_OUT || op->kind == OP_ALLOC) {
            bufs[i] = new_buffer(L, (int32_t)t);
            if (bufs[i] < 0)
                return;
            L->slot_buf[a->tensor] = bufs[i] + 1; /* 0 = none yet */
            continue;
        }
        bufs[i] = L->slot_buf[a->tensor] - 1;
        if (bufs[i] < 0) { /* an external tensor's first use */
            bufs[i] = new_buffer(L, -1);
            if (bufs[i] < 0)
                return;
            L->slot_buf[a->tensor] = bufs[i] + 1;
        }
        buffer *b = &L->bufs[bufs[i]];
        if (manual)
            continue;
        if (b->creator >= 0)
            add_pred(L, t, (uint32_t)b->creator);
        if ((a->dir != DIR_IN && a->dir != DIR_INOUT) || a->manual_dep)
            continue;
        tmap_view v = view_of(a, bufs[i]);
        size_t keep = 0;
        for (size_t k = 0; k < b->nent; k++) {
            entry *e = &b->ent[k];
            tmap_overlap ov = tmap_check_overlap(&e->v, &v);
            if (ov != OV_NONE && e->task != t) {
                add_pred(L, t, e->task);
                if (ov == OV_OTHER && lint_views_intersect(&e->v, &v) == 0)
                    report(L, LINT_FALSE_EDGE, e->task, t, a->tensor,
                           v.version > e->v.version ? "the reader's view has a newer version"
                                                    : "views that are not nested row-major boxes");
            }
            if (a->dir == DIR_INOUT && ov == OV_COVERED) {
                /* an inout that covers a writer replaces it: a chain when it is the same view */
                if (e->inout && same_view(&e->v, &v))
                    inherit[i] = *e;
                else
                    end_chain(L, e);
                continue;
            }
            b->ent[keep++] = *e;
        }
        b->nent = keep;
    }
    if (L->oom)
        return;
    if (op->label >= 0) {
        if (vec_reserve_zeroed((void **)&L->label_task, &L->label_cap, (size_t)op->label + 1,
                               sizeof(*L->label_task)) != 0) {
            L->oom = true;
            return;
        }
        L->label_task[op->label] = (int32_t)t + 1;
    }

    /* every pair with an earlier task that shares an element, one side writing */
    L->ncand = 0;
    uint32_t lo = t;
    for (int i = 0; i < op->nargs; i++) {
        const graph_arg *a = &op->args[i];
        buffer *b = &L->bufs[bufs[i]];
        tmap_view v = view_of(a, bufs[i]);
        bool w = writes(a->dir) || op->kind == OP_ALLOC;
        bool opt = manual || a->manual_dep || a->dir == DIR_NO_DEP;
        for (size_t k = 0; k < b->nacc; k++) {
            const access *x = &b->acc[k];
            if (x->task == t || (!x->write && !w) || lint_views_intersect(&x->v, &v) != 1)
                continue;
            if (vec_reserve_zeroed((void **)&L->cand, &L->ccap, L->ncand + 1, sizeof(*L->cand)) != 0) {
                L->oom = true;
                return;
            }
            L->cand[L->ncand++] = (candidate){.a = x->task,
                                              .a_write = x->write,
                                              .a_opt = x->opt_out,
                                              .b_write = w,
                                              .b_opt = opt,
                                              .slot = a->tensor};
            if (x->task < lo)
                lo = x->task;
        }
    }
    if (L->ncand) {
        bool complete = mark_ancestors(L, t, lo);
        if (!complete)
            L->r->truncated = true;
        for (size_t k = 0; k < L->ncand && complete; k++) {
            const candidate *c = &L->cand[k];
            if (L->stamp[c->a] == L->stamp_now)
                continue;     /* ordered: a path of edges leads from a to t */
            bool dup = false; /* one finding per pair of tasks */
            for (size_t j = 0; j < k && !dup; j++)
                dup = L->cand[j].a == c->a;
            if (dup)
                continue;
            lint_kind kind = (c->a_opt || c->b_opt) ? LINT_OPT_OUT
                             : !c->a_write          ? LINT_WAR
                             : c->b_write           ? LINT_WAW
                                                    : LINT_RAW;
            report(L, kind, c->a, t, c->slot, NULL);
        }
    }

    /* then this task's own accesses and TensorMap entries */
    for (int i = 0; i < op->nargs; i++) {
        const graph_arg *a = &op->args[i];
        buffer *b = &L->bufs[bufs[i]];
        access x = {.task = t,
                    .write = writes(a->dir) || op->kind == OP_ALLOC,
                    .opt_out = manual || a->manual_dep || a->dir == DIR_NO_DEP,
                    .slot = a->tensor,
                    .v = view_of(a, bufs[i])};
        if (x.write) {
            /* what this write covers needs no checking again: later tasks meet it here first */
            size_t keep = 0;
            for (size_t k = 0; k < b->nacc; k++)
                if (tmap_check_overlap(&b->acc[k].v, &x.v) != OV_COVERED)
                    b->acc[keep++] = b->acc[k];
            b->nacc = keep;
        }
        add_access(L, b, &x);
        if (x.write && !x.opt_out && op->kind != OP_ALLOC) {
            entry e = {.task = t, .inout = a->dir == DIR_INOUT, .slot = a->tensor, .v = x.v};
            e.chain = e.inout ? inherit[i].chain + 1 : 0;
            e.chain_first = inherit[i].chain ? inherit[i].chain_first : op->line;
            add_entry(L, b, &e);
        }
    }
}

int lint_graph(const char *path, graph *g, lint_report *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof(*r));
    if (graph_open(g, path, err, errlen) != 0)
        return -1;
    lint L = {.g = g, .r = r};
    graph_op *op = malloc(sizeof(*op));
    int rc = op ? 0 : -1;
    if (!op)
        snprintf(err, errlen, "%s: out of memory", path);
    while (rc == 0 && !L.oom) {
        int n = graph_next(g, op, err, errlen);
        if (n <= 0) {
            rc = n;
            break;
        }
        switch (op->kind) {
        case OP_SCOPE_BEGIN:
            L.scope_manual[L.depth++] = op->manual;
            L.manual_depth += op->manual;
            break;
        case OP_SCOPE_END:
            L.manual_depth -= L.scope_manual[--L.depth];
            break;
        case OP_SUBMIT:
        case OP_DUMMY:
        case OP_ALLOC:
            task_op(&L, op);
            break;
        default:
            break;
        }
    }
    if (rc == 0 && L.oom) {
        snprintf(err, errlen, "%s: out of memory while checking the graph", path);
        rc = -1;
    }
    if (rc == 0)
        for (size_t i = 0; i < L.nbufs; i++)
            for (size_t k = 0; k < L.bufs[i].nent; k++)
                end_chain(&L, &L.bufs[i].ent[k]);
    r->tasks = (long)L.ntasks;
    for (size_t i = 0; i < L.nbufs; i++) {
        free(L.bufs[i].acc);
        free(L.bufs[i].ent);
    }
    free(L.bufs);
    free(L.tasks);
    free(L.preds);
    free(L.slot_buf);
    free(L.label_task);
    free(L.stamp);
    free(L.queue);
    free(L.cand);
    free(op);
    return rc;
}

void lint_report_free(lint_report *r)
{
    free(r->shown);
    memset(r, 0, sizeof(*r));
}
