/* orchestrator.c - orch_: the orchestrator thread's steps, staged submits and deadlock detection. */
/* Scopes, staged submits with back-pressure on every ring resource, deadlock detection (model/README.md
 * §4, §5). */
#include "orchestrator.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../base/dtype.h"
#include "../graph/graph_readahead.h"
#include "runtime_state.h"
#include "../base/vec.h"
#include "../graph/worker.h"

static const char *const RES_NAMES[RES_COUNT] = {"none",        "task_window", "heap",
                                                 "fanin_spill", "tensormap",   "dep_pool"};

const char *orch_resource_name(orch_resource r)
{
    return RES_NAMES[r];
}

static int current_ring(const orch *o)
{
    int depth = o->nscopes - 1;
    return depth < RING_COUNT - 1 ? depth : RING_COUNT - 1;
}

static bool in_manual_scope(const orch *o)
{
    for (int i = 1; i < o->nscopes; i++)
        if (o->scopes[i].manual)
            return true;
    return false;
}

/* Makes sure per-slot arrays cover slot n. */
static int ensure_slots(void **buf, size_t *cap, size_t n, size_t elem)
{
    if (n < *cap)
        return 0;
    size_t ncap = *cap ? *cap : 64;
    while (ncap <= n)
        ncap *= 2;
    char *nb = realloc(*buf, ncap * elem);
    if (!nb)
        return -1;
    memset(nb + *cap * elem, 0, (ncap - *cap) * elem);
    *buf = nb;
    *cap = ncap;
    return 0;
}

/* A scope-stats sample of the current scope (model/README.md §16.3). */
static void sample_scope(orch *o, bool begin)
{
    rt *r = o->rt;
    if (!r->scope_stats_on)
        return;
    int depth = o->nscopes - 1, ring = current_ring(o);
    scope_sample x = {.site = o->scopes[depth].site,
                      .begin = begin,
                      .depth = depth,
                      .ring = ring,
                      .task_window_start = r->rings[ring].last_alive,
                      .task_window_end = r->rings[ring].next_local,
                      .heap_start = r->heaps[ring].tail_cum,
                      .heap_end = r->heaps[ring].alloc_cum,
                      .dep_pool_start = r->deppools[ring].tail,
                      .dep_pool_end = r->deppools[ring].top,
                      .tensormap = tmap_used(&r->tm)};
    scopestats_add(&r->ss, &x);
}

int orch_init(orch *o, rt *r, graph *g, char *err, size_t errlen)
{
    memset(o, 0, sizeof(*o));
    o->rt = r;
    o->anchor = PS_NEVER;
    o->g = *g;
    memset(g, 0, sizeof(*g)); /* the caller's copy must not close the file */
    if (r->cfg.worker)
        worker_place(r->cfg.worker, r->cfg.worker_program, &o->g);
    /* the graph's lines were checked when it was compiled: only the header is read here */
    if (r->cfg.compiled)
        o->gcur = (gcomp_cursor){.gc = r->cfg.compiled};
    else
        o->ra = readahead_start(&o->g); /* NULL: parse on this thread */
    o->op = malloc(sizeof(*o->op));
    if (!o->op) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    /* the executor's implicit root scope: depth 0, ring 0, no site */
    o->nscopes = 1;
    snprintf(o->scopes[0].site, sizeof(o->scopes[0].site), "(unknown):0");
    sample_scope(o, true);
    return 0;
}

int orch_finish_reading(orch *o, char *err, size_t errlen)
{
    if (!o->ra && o->read_err[0]) { /* a line, or a compiled record, that stopped the run */
        snprintf(err, errlen, "%s", o->read_err);
        return -1;
    }
    if (o->gcur.gc)
        return 0; /* the records past where the run stopped go unused */
    if (!o->ra) { /* read the rest here, from where the run stopped */
        int rc;
        while ((rc = graph_next(&o->g, o->op, err, errlen)) == 1)
            ;
        return rc;
    }
    int rc = readahead_finish(o->ra, err, errlen);
    o->ra = NULL;
    return rc;
}

void orch_free(orch *o)
{
    if (o->ra)
        readahead_cancel(o->ra);
    graph_close(&o->g);
    gcomp_cursor_free(&o->gcur);
    free(o->op);
    free(o->scope_list);
    free(o->tensors);
    free(o->labels);
    memset(o, 0, sizeof(*o));
}

/* Releases the scope reference of every task in list[from ..) (end_scope). */
static size_t release_scope(orch *o, size_t from, ps_t t)
{
    rt *r = o->rt;
    size_t n = o->nscope_list - from;
    for (size_t i = from; i < o->nscope_list; i++) {
        task *tk = rt_task(r, o->scope_list[i]);
        if (tk) {
            tk->scope_released = true;
            rt_check_consumed(r, tk, t);
        }
    }
    o->nscope_list = from;
    return n;
}

/* Time of one block of kernel func with this cost (the kernel's own, or a
 * task's override) on an idle memory system; *pipe_ix gets its pipe-model
 * result, 0 for a flat cost. */
static ps_t kernel_time(orch *o, const graph_cost *cost, int func, bool override, uint32_t *pipe_ix)
{
    rt *r = o->rt;
    *pipe_ix = 0;
    uint32_t scale = r->cfg.kernel_scales ? r->cfg.kernel_scale[func] : 0;
    if (cost->kind == COST_NS)
        return scale ? pipe_scale(ps_from_ns(cost->value), scale) : ps_from_ns(cost->value);
    uint64_t cycles = cost->value;
    if (cost->kind == COST_PIPES) {
        /* a kernel's own cost is looked up once; overrides go through the table's hash */
        uint32_t ix = override ? 0 : r->kernel_pipe[func];
        if (!ix)
            ix = pipe_table_get(&r->pipes, &cost->pipe);
        if (!ix) {
            rt_error(r, "out of memory for pipe-model results");
            return 0;
        }
        if (!override)
            r->kernel_pipe[func] = ix;
        *pipe_ix = ix;
        cycles = pipe_table_result(&r->pipes, ix)->total_cycles;
        if (scale) { /* --kernel-scale: the time below, and every pipe's busy cycles in the copy's result */
            *pipe_ix = pipe_table_scaled(&r->pipes, ix, scale);
            if (!*pipe_ix) {
                rt_error(r, "out of memory for pipe-model results");
                return 0;
            }
        }
    }
    ps_t t = ps_from_cycles(cycles, (uint64_t)r->plat.aicore_freq_hz);
    return scale ? pipe_scale(t, scale) : t;
}

/* Shape from the active subslots (model/README.md §7.3). */
static task_shape shape_of(uint8_t mask)
{
    switch (mask) {
    case 0:
        return SHAPE_DUMMY;
    case 1:
        return SHAPE_AIC;
    case 2:
    case 4:
        return SHAPE_AIV;
    default:
        return SHAPE_MIX;
    }
}

static uint8_t mask_of(const int32_t kernel_ids[3])
{
    uint8_t m = 0;
    for (int s = 0; s < 3; s++)
        if (kernel_ids[s] >= 0)
            m |= (uint8_t)(1u << s);
    return m;
}

/* An orchestrator slice for the Perfetto trace (an empty one is left out). */
static void trace_call(orch *o, pf_call_kind kind, ps_t start, ps_t end)
{
    rt *r = o->rt;
    if (r->pf && end > start && pf_call_add(r->pf, kind, start, end, 0, 0, 0) != 0)
        rt_error(r, "out of memory for the Perfetto trace");
}

/* ---- blocking and deadlock detection (model/README.md §4.7) ---- */

static void schedule_check(orch *o, ps_t at)
{
    rt *r = o->rt;
    o->check_gen++;
    rt_schedule(r, at, EV_ORCH_CHECK, 0, o->check_gen);
}

/* The allocation at this stage cannot proceed: wait (and count spins). */
static void block(orch *o, orch_resource res, int ring, ps_t t)
{
    rt *r = o->rt;
    if (!o->blocked) {
        o->blocked = true;
        o->blocked_since = t;
        o->anchor = PS_NEVER;
        schedule_check(o, t + ORCH_CHECK_SPINS * r->cost.spin);
    }
    o->res = res;
    o->blocked_ring = ring;
}

/* The stage went through: account the wait, cancel the pending check. */
static void unblock(orch *o, ps_t t)
{
    rt *r = o->rt;
    if (!o->blocked)
        return;
    o->blocked = false;
    if (r->pf && pf_call_add(r->pf, PF_CALL_WAIT, o->blocked_since, t, 0, o->res, o->blocked_ring) != 0)
        rt_error(r, "out of memory for the Perfetto trace");
    if (mkp_wait_add(&r->mk, (int)o->res, o->blocked_ring, o->blocked_since, t) != 0)
        rt_error(r, "out of memory for the makespan parts");
    o->blocked_ps[o->blocked_ring] += t - o->blocked_since;
    o->blocked_res_ps[o->res] += t - o->blocked_since;
    o->blocked_rr_ps[o->blocked_ring][o->res] += t - o->blocked_since;
    const char *site = o->scopes[o->nscopes - 1].site;
    int k = 0;
    while (k < o->nsites && !(o->sites[k].res == o->res && o->sites[k].ring == o->blocked_ring &&
                              strcmp(o->sites[k].site, site) == 0))
        k++;
    if (k == o->nsites && o->nsites < ORCH_BLOCK_SITES) {
        o->sites[k] = (orch_block_site){.res = o->res, .ring = o->blocked_ring};
        memcpy(o->sites[k].site, site, sizeof(o->sites[k].site));
        o->nsites++;
    }
    o->sites[k < o->nsites ? k : o->nsites - 1].ps += t - o->blocked_since;
    o->check_gen++;
}

/* Progress while blocked: spins and the backstop start over, then retry. */
static void progress(orch *o, ps_t t)
{
    rt *r = o->rt;
    o->anchor = PS_NEVER;
    schedule_check(o, t + ORCH_CHECK_SPINS * r->cost.spin);
    /* several rings can move at one instant; one retry sees them all */
    if (!o->retry_queued) {
        o->retry_queued = true;
        rt_schedule(r, t, EV_ORCH_STEP, 0, ORCH_STEP_RETRY);
    }
}

/* The oldest task pinned by an open scope mapped to this ring, or UINT64_MAX. */
static uint64_t oldest_open_task(const orch *o, int ring)
{
    if (ring >= o->nscopes)
        return UINT64_MAX;
    size_t i = o->scopes[ring].list_start;
    return i < o->nscope_list ? o->scope_list[i] : UINT64_MAX;
}

static int code_of(orch_resource r)
{
    switch (r) {
    case RES_HEAP:
        return 2;
    case RES_TASK_WINDOW:
        return 3;
    case RES_TENSORMAP:
        return 11;
    default:
        return 4;
    }
}

/* The least power of two >= v, but at most max (a power of two): the
 * largest size the knob takes. */
static uint64_t pow2_ceil(uint64_t v, uint64_t max)
{
    uint64_t p = 1;
    while (p < v && p < max)
        p <<= 1;
    return p;
}

/* The runtime's "Solution:" for the resource the orchestrator waits on, with
 * its example size, said the way a ptosim user changes it: the RunConfig knob
 * and the flag, four values with only the blocked ring's set (0 keeps a
 * ring's size). The runtime names the retired PTO2_RING_* variables instead
 * (pto_ring_buffer.h TaskAllocator::report_deadlock, pto_ring_buffer.cpp
 * PTO2DepListPool::report_deadlock, PTO2FaninPool::ensure_space); its example
 * is 2 x the size or the high water, here at least what the waiting call
 * asks for, and a power of 2 where the knob needs one. */
static void solution(const orch *o, bool structural, char *buf, size_t len)
{
    rt *r = o->rt;
    int ring = o->blocked_ring;
    const char *what, *knob, *flag;
    uint64_t now, eg;
    switch (o->res) {
    case RES_TENSORMAP:
        snprintf(
            buf, len,
            "Solution: raise the TensorMap entry pool, one for all rings (now %u, e.g. %" PRIu64
            "): the runtime's compile-time PTO2_TENSORMAP_POOL_SIZE, ptosim --set tensormap_pool=%" PRIu64
            ".",
            r->tm.capacity, 2 * (uint64_t)r->tm.capacity, 2 * (uint64_t)r->tm.capacity);
        return;
    case RES_HEAP:
        what = "heap", knob = "ring_heap", flag = "--ring-heap";
        now = r->heaps[ring].cap;
        /* ring_heap <= INT64_MAX, so 2 x now cannot wrap; its largest power of 2 is 2^62 */
        eg = pow2_ceil(2 * now > o->heap_need ? 2 * now : o->heap_need, (uint64_t)1 << 62);
        break;
    case RES_TASK_WINDOW:
        what = "task window", knob = "ring_task_window", flag = "--ring-task-window";
        now = r->rings[ring].window;
        eg = pow2_ceil(2 * now, (uint64_t)1 << 30); /* a power of 2 <= INT32_MAX */
        break;
    case RES_SPILL: {
        const task *tk = rt_task(r, o->cur);
        uint64_t need = tk && tk->nlinks > FANIN_INLINE_CAP ? tk->nlinks - FANIN_INLINE_CAP : 0;
        what = "fanin spill pool, sized by its dep pool", knob = "ring_dep_pool", flag = "--ring-dep-pool";
        now = r->cfg.ring_dep_pool[ring];
        eg = 2 * r->spill_peak[ring] > need ? 2 * r->spill_peak[ring] : need;
        break;
    }
    default:
        what = "dep pool", knob = "ring_dep_pool", flag = "--ring-dep-pool";
        now = r->deppools[ring].cap;
        eg = 2 * r->deppools[ring].peak_used > o->dep_need ? 2 * r->deppools[ring].peak_used : o->dep_need;
        break;
    }
    if (o->res == RES_SPILL || o->res == RES_DEP_POOL) {
        if (eg <= now)
            eg = 2 * now;
        if (eg > INT32_MAX)
            eg = INT32_MAX; /* the knob's upper bound */
    }
    char vals[96];
    int n = 0;
    for (int i = 0; i < RING_COUNT; i++)
        n += snprintf(vals + n, sizeof(vals) - (size_t)n, "%s%" PRIu64, i ? "," : "", i == ring ? eg : 0);
    snprintf(buf, len,
             "Solution: %sraise ring %d's %s (now %" PRIu64 ", e.g. %" PRIu64
             "): RunConfig %s, ptosim %s %s.",
             structural ? "split the open scope that holds the head, or " : "", ring, what, now, eg, knob,
             flag, vals);
}

static void deadlock(orch *o, bool structural)
{
    rt *r = o->rt;
    int ring = o->blocked_ring;
    const task_ring *tr = &r->rings[ring];
    char why[512];
    if (structural)
        snprintf(
            why, sizeof(why),
            "Head task %u on ring %d is the oldest task owned by an open scope on this ring -> only "
            "scope_end can free it and the orchestrator is blocked here. Provable head-of-line deadlock.",
            tr->last_alive, ring);
    else
        snprintf(why, sizeof(why), "No reclaim progress for ~500 ms (%" PRIu64 " cycles wall clock).",
                 (uint64_t)r->plat.sys_cnt_freq_hz / 2);
    const char *head;
    switch (o->res) {
    case RES_HEAP:
        head = "Task Allocator Deadlock - Heap Exhausted!";
        break;
    case RES_TASK_WINDOW:
        head = "Task Allocator Deadlock - Task Ring Full!";
        break;
    case RES_SPILL:
        head = "Fanin Spill Pool Deadlock Detected!";
        break;
    case RES_TENSORMAP:
        head = "TensorMap Entry Pool Deadlock Detected!";
        break;
    default:
        head = "Dependency Pool Deadlock Detected!";
    }
    const ring_heap *h = &r->heaps[ring];
    const dep_pool *d = &r->deppools[ring];
    char fix[400], need[32] = "";
    solution(o, structural, fix, sizeof(fix));
    if (o->res == RES_DEP_POOL)
        snprintf(need, sizeof(need), ", needed %u", o->dep_need);
    rt_fatal(r, code_of(o->res),
             "FATAL: %s ring=%d (%s:%ld). %s Task ring %d: current=%u, last_alive=%u, active=%u/%u. "
             "Heap ring %d: top=%" PRIu64 ", tail=%" PRIu64 ", size=%" PRIu64 ", requested=%" PRIu64
             ". Dep pool: used=%" PRIu64 "/%" PRIu64 ", high water %" PRIu64 "%s. TensorMap: used=%u/%u. %s",
             head, ring, o->g.path, o->op->line, why, ring, tr->next_local, tr->last_alive,
             task_ring_active(tr), tr->window, ring, h->top, h->tail, h->cap, o->heap_need, d->top - d->tail,
             d->cap, d->peak_used, need, tmap_used(&r->tm), r->tm.capacity, fix);
}

void orch_on_check(orch *o, uint64_t gen, ps_t t)
{
    rt *r = o->rt;
    if (gen != o->check_gen || !o->blocked || r->status != CHIP_RUNNING)
        return;
    int ring = o->blocked_ring;
    /* structural head-of-line check: task window, heap and dependency pool */
    if (o->res == RES_TASK_WINDOW || o->res == RES_HEAP || o->res == RES_DEP_POOL) {
        const task_ring *tr = &r->rings[ring];
        if (tr->last_alive != tr->next_local &&
            task_make_id(ring, tr->last_alive) == oldest_open_task(o, ring)) {
            deadlock(o, true);
            return;
        }
    }
    ps_t period = ORCH_CHECK_SPINS * r->cost.spin;
    if (o->anchor == PS_NEVER) {
        /* the backstop is armed at the first check and fires at the first
         * 1024-spin mark at least 500 ms later */
        o->anchor = t;
        schedule_check(o, t + (ORCH_BACKSTOP_PS + period - 1) / period * period);
        return;
    }
    if (t - o->anchor >= ORCH_BACKSTOP_PS)
        deadlock(o, false);
}

void orch_on_ring_advance(orch *o, int ring, ps_t t)
{
    rt *r = o->rt;
    if (!o->blocked)
        return;
    if (o->res == RES_TENSORMAP) {
        /* the TensorMap counts progress in entries freed, over every ring */
        uint32_t alive[RING_COUNT];
        for (int i = 0; i < RING_COUNT; i++)
            alive[i] = r->rings[i].last_alive;
        if (tmap_reclaim_all(&r->tm, alive))
            progress(o, t);
        return;
    }
    if (o->blocked_ring == ring)
        progress(o, t);
}

/* ---- the submit call ---- */

/* Resolves the op's explicit deps to task ids. Only the invalid id (all ones)
 * is rejected: an id that names no live task, never-issued ones included,
 * counts as already retired (the runtime's submit_task_common skips it, and
 * append_fanin_or_fail finds no live producer). Returns 0, or -1 after ending
 * the run with code 5. */
static int resolve_deps(orch *o, uint64_t *ids)
{
    rt *r = o->rt;
    const graph_op *op = o->op;
    for (int i = 0; i < op->ndeps; i++) {
        uint64_t id = op->deps[i].label >= 0 ? o->labels[op->deps[i].label] : op->deps[i].raw_id;
        if (id == TASK_ID_INVALID) {
            rt_fatal(r, 5, "%s:%ld: deps[%d]: Arg.set_dependencies(...) requires valid task ids", o->g.path,
                     op->line, i);
            return -1;
        }
        ids[i] = id;
    }
    return 0;
}

/* Binds the op's "id" label to the task just allocated; its deps were
 * resolved against the earlier binding. */
static int bind_label(orch *o, const task *tk)
{
    rt *r = o->rt;
    const graph_op *op = o->op;
    if (op->label < 0)
        return 0;
    if (ensure_slots((void **)&o->labels, &o->labels_cap, (size_t)op->label, sizeof(*o->labels)) != 0) {
        rt_error(r, "out of memory in the orchestrator");
        return -1;
    }
    o->labels[op->label] = tk->id;
    return 0;
}

/* The view an arg describes, with the buffer address the model knows. */
static tmap_view view_of(const orch *o, const graph_arg *a, uint64_t out_addr)
{
    tmap_view v = {.buffer_numel = a->buffer_numel,
                   .start = a->start_offset,
                   .version = a->version,
                   .dtype = (uint8_t)a->dtype,
                   .ndims = (uint8_t)a->ndim};
    if (a->dir == DIR_OUT)
        v.addr = out_addr;
    else if ((size_t)a->tensor < o->tensors_cap && o->tensors[a->tensor].owned)
        v.addr = o->tensors[a->tensor].addr;
    else
        v.addr = o->g.tensors[a->tensor].addr;
    for (int d = 0; d < a->ndim; d++) {
        v.shape[d] = a->shape[d];
        v.strides[d] = a->strides[d];
    }
    return v;
}

static bool creator_of(const orch *o, const graph_arg *a, uint64_t *owner)
{
    if (a->dir == DIR_OUT || (size_t)a->tensor >= o->tensors_cap || !o->tensors[a->tensor].owned)
        return false;
    *owner = o->tensors[a->tensor].owner;
    return true;
}

/* Adds an edge producer -> tk unless the producer is retired or consumed. */
static int add_edge(orch *o, task *tk, uint64_t producer, bool retain)
{
    rt *r = o->rt;
    task *p = rt_task(r, producer);
    if (!p || p->state == TASK_CONSUMED)
        return 0; /* already retired: silently skipped (model/README.md §5.1) */
    int fresh = task_add_link(tk, producer, retain);
    if (fresh < 0) {
        rt_error(r, "out of memory for dependency links");
        return -1;
    }
    if (fresh)
        p->fanout_claims++; /* every edge claims the producer (model/README.md §3.4) */
    return 0;
}

typedef struct lookup_ctx {
    orch *o;
    task *tk;
    bool inout;
    int failed;
} lookup_ctx;

static int tensormap_edge(void *vctx, const tmap_entry *e, tmap_overlap ov)
{
    lookup_ctx *x = vctx;
    if (add_edge(x->o, x->tk, e->producer, false) != 0)
        x->failed = 1;
    return (x->inout && ov == OV_COVERED) ? 1 : 0;
}

/* Allocates the task slot and heap block of the current op (stage ALLOC). */
static task *create_task(orch *o, int ring, uint64_t heap_off)
{
    rt *r = o->rt;
    const graph_op *op = o->op;
    task_ring *tr = &r->rings[ring];
    uint32_t local = tr->next_local++;
    if (task_ring_active(tr) > tr->peak_active)
        tr->peak_active = task_ring_active(tr);
    uint32_t slot = local & (tr->window - 1);
    task *tk = &tr->slots[slot];
    if (slot < tr->touched) { /* a reused slot: what its last task held goes */
        task_clear_links(tk);
        dump_desc_free(tk->dump); /* a task that never reached its capture (none in a clean run) */
    } else {
        /* a fresh slot is calloc's zero pages: reading it first would map the shared zero page and make the
         * write below a second fault, with a TLB flush on every core */
        tr->touched = slot + 1;
    }
    memset(tk, 0, sizeof(*tk));
    tk->id = task_make_id(ring, local);
    tk->submit_idx = o->submit_idx;
    tk->block_num = op->block_num;
    tk->predicate = op->predicate;
    tk->early_resolve = op->early_resolve || op->kind == OP_ALLOC;
    /* the runtime keeps the flag only when it means something (pto_orchestrator.cpp submit_task) */
    tk->sync_start = op->sync_start && op->block_num > 1;
    tk->fanin_count = 1; /* the orchestrator's guard, released at publish */
    tk->heap_end_off = r->heaps[ring].top;
    tk->heap_end_cum = r->heaps[ring].alloc_cum;
    for (int s = 0; s < 3; s++) {
        tk->kernel_ids[s] = op->kernel_ids[s];
        if (op->kernel_ids[s] < 0)
            continue;
        const graph_kernel *k = graph_kernel_by_id(&o->g, op->kernel_ids[s]);
        tk->dur[s] =
            kernel_time(o, op->has_cost ? &op->cost : &k->cost, k->id, op->has_cost, &tk->pipe_ix[s]);
    }
    if (r->dump_on) {
        /* with dump on every kernel ends with a full pipe barrier before its FIN */
        for (int s = 0; s < 3; s++)
            if (op->kernel_ids[s] >= 0)
                tk->dur[s] += ps_from_ns((uint64_t)r->plat.aicore_dump_barrier_ns);
        if (dump_submit(&r->dump, &o->g, tk, op) != 0)
            rt_error(r, "out of memory for args dump records");
    }
    tk->mask = mask_of(op->kernel_ids);
    tk->shape = op->kind == OP_ALLOC ? SHAPE_ALLOC : (uint8_t)shape_of(tk->mask);
    tk->subtasks_total = tk->block_num * __builtin_popcount(tk->mask);
    r->tasks_submitted++;
    if (tk->shape != SHAPE_DUMMY && tk->shape != SHAPE_ALLOC)
        r->kernel_tasks++;
    /* output addresses: packed in the block, each rounded to 1024 B */
    uint64_t base = ORCH_HEAP_ARENA_BASE;
    for (int rr = 0; rr < ring; rr++)
        base += r->cfg.ring_heap[rr];
    uint64_t off = heap_off;
    for (int i = 0; i < op->nargs; i++) {
        const graph_arg *a = &op->args[i];
        if (a->dir != DIR_OUT)
            continue;
        o->out_addr[i] = base + off;
        off += heap_round_output((uint64_t)a->buffer_numel * (uint64_t)dtype_size(a->dtype));
    }
    if (vec_grow((void **)&o->scope_list, &o->scope_list_cap, o->nscope_list, sizeof(*o->scope_list)) != 0)
        goto oom;
    o->scope_list[o->nscope_list++] = tk->id;
    return tk;
oom:
    rt_error(r, "out of memory in the orchestrator");
    return NULL;
}

/* Binds the op's runtime-created outputs to their names. */
static int bind_outputs(orch *o, const task *tk)
{
    rt *r = o->rt;
    const graph_op *op = o->op;
    for (int i = 0; i < op->nargs; i++) {
        const graph_arg *a = &op->args[i];
        if (a->dir != DIR_OUT)
            continue;
        if (ensure_slots((void **)&o->tensors, &o->tensors_cap, (size_t)a->tensor, sizeof(*o->tensors)) !=
            0) {
            rt_error(r, "out of memory in the orchestrator");
            return -1;
        }
        o->tensors[a->tensor] = (orch_tensor){.owner = tk->id, .addr = o->out_addr[i], .owned = true};
    }
    return 0;
}

/* Records the task in deps.json, as the runtime's replay sees it, and its
 * producers for the overhead model. */
static int record_dep_gen(orch *o, const task *tk, const uint64_t *dep_ids)
{
    rt *r = o->rt;
    const graph_op *op = o->op;
    depgen_arg args[GRAPH_MAX_TENSOR_ARGS];
    static const int TYPE_OF[] = {
        [DIR_IN] = 0, [DIR_OUT] = 1, [DIR_INOUT] = 2, [DIR_OUT_EXISTING] = 3, [DIR_NO_DEP] = 4};
    for (int i = 0; i < op->nargs; i++) {
        const graph_arg *a = &op->args[i];
        args[i] = (depgen_arg){.type = TYPE_OF[a->dir], .manual_dep = a->manual_dep};
        args[i].v = view_of(o, a, o->out_addr[i]);
        args[i].has_owner = creator_of(o, a, &args[i].owner);
    }
    depgen_task dt = {.id = tk->id,
                      .manual = in_manual_scope(o),
                      .early_dispatch = op->early_resolve,
                      .block_num = op->block_num,
                      .nargs = op->nargs,
                      .args = args,
                      .ndeps = op->ndeps,
                      .deps = dep_ids};
    memcpy(dt.kernel_ids, op->kernel_ids, sizeof(dt.kernel_ids));
    if (depgen_add(&r->dg, &dt) != 0 || exec_log_task(&r->oh, tk->id, r->dg.preds, r->dg.npreds) != 0) {
        rt_error(r, "out of memory collecting deps.json");
        return -1;
    }
    if (r->oh.dropped && !r->dep_gen_on) {
        /* the overhead model gave up on this run: the replay has no other use */
        depgen_free(&r->dg);
        r->logical_on = false;
    }
    return 0;
}

/* Tells the worker which resident tensors the task reads and writes: a later
 * program's readers link to the last writer (worker.h). */
static void log_resident_access(orch *o, const task *tk)
{
    rt *r = o->rt;
    const graph_op *op = o->op;
    for (int i = 0; i < op->nargs; i++) {
        const graph_arg *a = &op->args[i];
        if (a->dir == DIR_OUT || a->dir == DIR_NO_DEP || (size_t)a->tensor >= (size_t)o->g.nexternal ||
            !o->g.tensors[a->tensor].resident)
            continue;
        tmap_view v = view_of(o, a, 0);
        int res = worker_resident_of(r->cfg.worker, v.addr);
        if (res < 0)
            continue;
        if (a->dir == DIR_IN || a->dir == DIR_INOUT)
            worker_log_access(r->cfg.worker_log, tk->id, res, false, &v);
        if (a->dir == DIR_OUT_EXISTING || a->dir == DIR_INOUT)
            worker_log_access(r->cfg.worker_log, tk->id, res, true, &v);
    }
}

/* Stage FANIN: explicit deps first, then per argument the creator edge and the
 * TensorMap lookup (model/README.md §5.1). Claims every producer. */
static int compute_fanin(orch *o, task *tk, int ring)
{
    rt *r = o->rt;
    const graph_op *op = o->op;
    uint64_t dep_ids_small[16], *dep_ids = dep_ids_small;
    if (op->ndeps > 16 && !(dep_ids = malloc((size_t)op->ndeps * sizeof(*dep_ids)))) {
        rt_error(r, "out of memory");
        return -1;
    }
    int rc = -1;
    tmap_sync(&r->tm, ring, task_id_local(tk->id), r->rings[ring].last_alive);
    if (resolve_deps(o, dep_ids) != 0)
        goto out;
    /* the op's own label is bound only now: its deps see the earlier binding */
    if (bind_label(o, tk) != 0)
        goto out;
    if (r->logical_on && op->kind != OP_ALLOC && record_dep_gen(o, tk, dep_ids) != 0)
        goto out;
    if (r->cfg.worker_log && op->kind != OP_ALLOC)
        log_resident_access(o, tk);
    for (int i = 0; i < op->ndeps; i++)
        if (dep_ids[i] != tk->id && add_edge(o, tk, dep_ids[i], true) != 0)
            goto out;
    if (!in_manual_scope(o) && op->kind != OP_ALLOC)
        for (int i = 0; i < op->nargs; i++) {
            const graph_arg *a = &op->args[i];
            uint64_t owner;
            if (a->dir == DIR_OUT)
                continue;
            if (creator_of(o, a, &owner) && add_edge(o, tk, owner, true) != 0)
                goto out;
            if ((a->dir == DIR_IN || a->dir == DIR_INOUT) && !a->manual_dep) {
                tmap_view v = view_of(o, a, 0);
                lookup_ctx x = {.o = o, .tk = tk, .inout = a->dir == DIR_INOUT};
                tmap_lookup(&r->tm, &v, tensormap_edge, &x);
                if (x.failed)
                    goto out;
            }
        }
    rc = 0;
out:
    if (dep_ids != dep_ids_small)
        free(dep_ids);
    return rc;
}

/* Writers this task registers in the TensorMap. */
static uint32_t registrable(const orch *o)
{
    const graph_op *op = o->op;
    if (op->kind == OP_ALLOC || in_manual_scope(o))
        return 0;
    uint32_t n = 0;
    for (int i = 0; i < op->nargs; i++)
        n += (op->args[i].dir == DIR_INOUT || op->args[i].dir == DIR_OUT_EXISTING) && !op->args[i].manual_dep;
    return n;
}

/* Stage WIRE: a pending producer gets the task in its fanout list (one
 * dependency-pool node); a completed one counts at once; WAIT-only edges give
 * their claim back (model/README.md §3.4). */
static int wire(orch *o, task *tk, int ring, ps_t t)
{
    rt *r = o->rt;
    uint64_t pending = 0;
    bool all_flagged = true;
    for (uint32_t i = 0; i < tk->nlinks; i++) {
        task_link *l = task_link_at(tk, i);
        task *p = rt_task(r, l->producer);
        tk->fanin_count++;
        if (p->state == TASK_PENDING) {
            if (rt_add_fanout(r, p, tk->id) != 0) {
                rt_error(r, "out of memory for fanout lists");
                return -1;
            }
            pending++;
            /* early dispatch: one unflagged producer disqualifies the consumer */
            all_flagged &= p->early_resolve;
            tk->dispatch_fanin += p->propagated;
        } else {
            tk->fanin_refcount++;
            tk->dispatch_fanin++;
        }
        if (!l->retain) {
            p->fanout_released++;
            rt_check_consumed(r, p, t);
        }
    }
    dep_pool_take(&r->deppools[ring], pending);
    tk->dep_pool_mark = r->deppools[ring].top;
    /* a consumer whose producers all completed is simply ready; a sync-start
     * consumer is a candidate too, pre-staged as a whole cohort
     * (pto_scheduler.h try_enqueue_early_dispatch_candidate) */
    tk->early_target = (int32_t)tk->nlinks;
    tk->early_ok = pending > 0 && all_flagged && tk->predicate && tk->shape <= SHAPE_MIX;
    return 0;
}

/* Dependency-pool entries stage WIRE must see free: one per producer edge,
 * or none when every producer has already completed, since then the runtime
 * publishes the task without wiring (pto_orchestrator.cpp submit_task STEP 6:
 * all_claimed_fanin_completed skips orch_wire_live_fanin_task and its
 * PTO2DepListPool::ensure_space). */
static uint32_t wire_need(rt *r, task *tk)
{
    for (uint32_t i = 0; i < tk->nlinks; i++)
        if (rt_task(r, task_link_at(tk, i)->producer)->state == TASK_PENDING)
            return tk->nlinks;
    return 0;
}

/* Carries out the current submit/dummy/alloc op from its current stage.
 * Returns when it blocks, fails, or has scheduled its publish. */
static void step_submit(orch *o, ps_t t)
{
    rt *r = o->rt;
    const graph_op *op = o->op;
    int ring = current_ring(o);
    task_ring *tr = &r->rings[ring];
    task *tk = NULL;
    if (o->stage == SUB_IDLE) {
        o->call_start = t;
        /* sync_start above the physical limit can never be admitted (code 7) */
        if (op->kind == OP_SUBMIT && op->sync_start && op->block_num > 1) {
            int limit = shape_of(mask_of(op->kernel_ids)) == SHAPE_AIV ? 2 * (int)r->plat.clusters
                                                                       : (int)r->plat.clusters;
            if (op->block_num > limit) {
                rt_fatal(r, 7, "%s:%ld: require_sync_start block_num=%d > limit=%d (deadlock guaranteed)",
                         o->g.path, op->line, op->block_num, limit);
                return;
            }
        }
        /* scope pre-check: the innermost scope may hold at most window - 2 tasks before this one */
        size_t in_scope = o->nscope_list - o->scopes[o->nscopes - 1].list_start;
        if (in_scope >= tr->window - 1) {
            /* the runtime's report (pto_orchestrator.cpp check_scope_can_accept_task) on one
             * line; its scope_depth is scope_stack_top + 1, so the root scope is 1 */
            rt_fatal(r, 1,
                     "%s:%ld: FATAL: Scope Deadlock Detected! (ring %d) Tasks in current scope (%zu) >= "
                     "task_window_size (%u). scope_depth: %d, ring_id: %d, scope_task_count: %zu, "
                     "active_tasks: %u / %u (scope opened at %s)",
                     o->g.path, op->line, ring, in_scope, tr->window, o->nscopes, ring, in_scope,
                     task_ring_active(tr), tr->window, o->scopes[o->nscopes - 1].site);
            return;
        }
        o->heap_need = 0;
        for (int i = 0; i < op->nargs; i++)
            if (op->args[i].dir == DIR_OUT)
                o->heap_need +=
                    heap_round_output(op->args[i].buffer_numel * (uint64_t)dtype_size(op->args[i].dtype));
        o->stage = SUB_ALLOC;
    }
    if (o->stage == SUB_ALLOC) {
        /* the heap tail follows the watermark lazily, at the orchestrator's alloc */
        ring_heap_set_tail(&r->heaps[ring], r->retired_heap_off[ring], r->retired_heap_cum[ring]);
        rt_note_occupancy(r, ring, t);
        if (!task_ring_has_space(tr)) {
            block(o, RES_TASK_WINDOW, ring, t);
            return;
        }
        uint64_t heap_off;
        if (ring_heap_alloc(&r->heaps[ring], o->heap_need, &heap_off) != 0) {
            block(o, RES_HEAP, ring, t);
            return;
        }
        unblock(o, t);
        tk = create_task(o, ring, heap_off);
        if (!tk)
            return;
        rt_note_occupancy(r, ring, t);
        o->cur = tk->id;
        if (op->kind == OP_ALLOC) {
            /* an alloc has no fanin stage, but later deps may name it (alloc_outs.task_id()) */
            if (bind_label(o, tk) != 0 || bind_outputs(o, tk) != 0)
                return;
            o->stage = SUB_IDLE;
            o->have_op = false;
            rt_schedule_last(r, t + r->cost.submit, EV_ORCH_PUBLISH, 0, tk->id);
            return;
        }
        o->stage = SUB_FANIN;
    }
    tk = rt_task(r, o->cur);
    if (o->stage == SUB_FANIN) {
        if (compute_fanin(o, tk, ring) != 0 || bind_outputs(o, tk) != 0)
            return;
        o->stage = SUB_SPILL;
    }
    if (o->stage == SUB_SPILL) {
        /* producers beyond the 64 inline ones take fanin spill entries */
        uint32_t need = tk->nlinks > FANIN_INLINE_CAP ? tk->nlinks - FANIN_INLINE_CAP : 0;
        if (need && r->spill_used[ring] + need > r->cfg.ring_dep_pool[ring]) {
            block(o, RES_SPILL, ring, t);
            return;
        }
        unblock(o, t);
        r->spill_used[ring] += need;
        tk->spill = need;
        if (r->spill_used[ring] > r->spill_peak[ring])
            r->spill_peak[ring] = r->spill_used[ring];
        o->stage = SUB_TMAP;
    }
    if (o->stage == SUB_TMAP) {
        uint32_t need = registrable(o);
        if (tmap_available(&r->tm) < need) {
            uint32_t alive[RING_COUNT];
            for (int rr = 0; rr < RING_COUNT; rr++)
                alive[rr] = r->rings[rr].last_alive;
            tmap_reclaim_all(&r->tm, alive);
            if (tmap_available(&r->tm) < need) {
                block(o, RES_TENSORMAP, ring, t);
                return;
            }
        }
        unblock(o, t);
        if (need)
            for (int i = 0; i < op->nargs; i++) {
                const graph_arg *a = &op->args[i];
                if ((a->dir == DIR_INOUT || a->dir == DIR_OUT_EXISTING) && !a->manual_dep) {
                    tmap_view v = view_of(o, a, 0);
                    tmap_insert(&r->tm, &v, tk->id);
                }
            }
        /* decided once, as the runtime does before it waits in ensure_space:
         * a producer completing during the wait does not cancel it */
        o->dep_need = wire_need(r, tk);
        o->stage = SUB_WIRE;
    }
    if (o->stage == SUB_WIRE) {
        dep_pool *d = &r->deppools[ring];
        uint32_t need = o->dep_need;
        if (dep_pool_available(d) < need) {
            if (dep_pool_reclaim(d, tr->last_alive, r->retired_dep_mark[ring]))
                rt_note_occupancy(r, ring, t);
            if (dep_pool_available(d) < need) {
                block(o, RES_DEP_POOL, ring, t);
                return;
            }
        }
        unblock(o, t);
        if (wire(o, tk, ring, t) != 0)
            return;
        rt_note_occupancy(r, ring, t);
        o->stage = SUB_IDLE;
        o->have_op = false;
        rt_schedule_last(r, t + r->cost.submit, EV_ORCH_PUBLISH, 0, tk->id);
    }
}

/* --kernel-set: a submit running a kernel given one takes its flags from it (the later kernel slot wins on
 * a MIX task whose kernels disagree), as if its line had said so. */
static void apply_kernel_sets(const chip_config *cfg, graph_op *op)
{
    for (int s = 0; s < 3; s++) {
        int id = op->kernel_ids[s];
        if (id < 0 || id >= GRAPH_MAX_FUNC_ID)
            continue;
        if (cfg->kernel_sync_start[id] != CHIP_FLAG_KEEP)
            op->sync_start = cfg->kernel_sync_start[id] == CHIP_FLAG_TRUE;
        if (cfg->kernel_early_resolve[id] != CHIP_FLAG_KEEP)
            op->early_resolve = cfg->kernel_early_resolve[id] == CHIP_FLAG_TRUE;
    }
}

void orch_on_step(orch *o, ps_t t)
{
    rt *r = o->rt;
    char err[GRAPH_ERR_MAX];
    while (r->status == CHIP_RUNNING) {
        if (o->done)
            return;
        if (o->eof_seen) {
            o->done = true;
            o->end_time = t;
            if (r->plat.sched_wire_batch) /* thread 0 now drains the wiring queue without backoff */
                rt_wire_queued(r, t);
            rt_check_finished(r);
            return;
        }
        if (!o->have_op) {
            int rc = o->gcur.gc ? gcomp_next(&o->gcur, &o->g, o->op, err, sizeof(err))
                     : o->ra    ? readahead_next(o->ra, &o->g, o->op, err, sizeof(err))
                                : graph_next(&o->g, o->op, err, sizeof(err));
            if (rc < 0) {
                if (!o->ra) /* orch_finish_reading gives it again */
                    snprintf(o->read_err, sizeof(o->read_err), "%s", err);
                rt_error(r, "%s", err);
                return;
            }
            if (rc == 0) {
                /* orchestration returned: the executor ends the root scope */
                sample_scope(o, false);
                size_t n = release_scope(o, 0, t);
                trace_call(o, PF_CALL_SCOPE_END, t, t + n * r->cost.scope_end_per_task);
                o->eof_seen = true;
                rt_schedule_last(r, t + n * r->cost.scope_end_per_task, EV_ORCH_STEP, 0, 0);
                return;
            }
            o->have_op = true;
            o->stage = SUB_IDLE;
            if (r->cfg.kernel_sets && o->op->kind == OP_SUBMIT)
                apply_kernel_sets(&r->cfg, o->op);
        }
        graph_op *op = o->op;
        switch (op->kind) {
        case OP_SCOPE_BEGIN:
            o->have_op = false;
            if (!op->manual && in_manual_scope(o)) {
                rt_fatal(r, 5, "%s:%ld: auto scope nested inside manual scope is not supported", o->g.path,
                         op->line);
                return;
            }
            orch_scope *s = &o->scopes[o->nscopes++];
            s->list_start = o->nscope_list;
            s->manual = op->manual;
            memcpy(s->site, op->site, sizeof(s->site));
            sample_scope(o, true);
            continue;
        case OP_SCOPE_END: {
            o->have_op = false;
            sample_scope(o, false); /* taken before the scope's tasks are released */
            orch_scope *s = &o->scopes[--o->nscopes];
            size_t n = release_scope(o, s->list_start, t);
            trace_call(o, PF_CALL_SCOPE_END, t, t + n * r->cost.scope_end_per_task);
            if (n) {
                rt_schedule_last(r, t + n * r->cost.scope_end_per_task, EV_ORCH_STEP, 0, 0);
                return;
            }
            continue;
        }
        case OP_USER_CODE:
            o->have_op = false;
            if (op->user_ns) {
                trace_call(o, PF_CALL_USER_CODE, t, t + ps_from_ns(op->user_ns));
                rt_schedule_last(r, t + ps_from_ns(op->user_ns), EV_ORCH_STEP, 0, 0);
                return;
            }
            continue;
        case OP_SUBMIT:
        case OP_DUMMY:
        case OP_ALLOC:
            step_submit(o, t);
            if (r->pf) /* the submit may have allocated, reclaimed or wired on its ring */
                rt_trace_ring(r, current_ring(o), t);
            return;
        }
    }
}

void orch_on_retry(orch *o, ps_t t)
{
    o->retry_queued = false;
    orch_on_step(o, t);
}

void orch_on_publish(orch *o, uint64_t task_id, ps_t t)
{
    rt *r = o->rt;
    task *tk = rt_task(r, task_id);
    if (!tk) {
        rt_error(r, "internal: published task %" PRIu64 " is not live", task_id);
        return;
    }
    sl_orch rec = {.submit_idx = o->submit_idx++, .task_id = task_id, .start = o->call_start, .end = t};
    if (swimlane_add_orch(&r->sl, &rec) != 0) {
        rt_error(r, "out of memory for swimlane records");
        return;
    }
    if (r->pf && pf_publish(r->pf, tk, o->scopes[o->nscopes - 1].site, o->call_start, t) != 0) {
        rt_error(r, "out of memory for the Perfetto trace");
        return;
    }
    tk->published = true;
    tk->ready_by = TASK_ID_INVALID;
    if (tk->shape != SHAPE_ALLOC && /* alloc_tensors completes below, never on a path */
        mkp_published(&r->mk, rt_mkp(r, tk->id), t, o->blocked, (int)o->res, o->blocked_ring,
                      o->blocked_since) != 0) {
        rt_error(r, "out of memory for the makespan parts");
        return;
    }
    if (tk->shape == SHAPE_ALLOC) {
        /* alloc_tensors completes inline on the orchestrator, no fanout walk */
        tk->state = TASK_COMPLETED;
        tk->completed_at = t;
        r->tasks_completed++;
        tk->releases_done = true;
        rt_check_consumed(r, tk, t);
    } else if (r->plat.sched_wire_batch) {
        /* the runtime before hw-native-sys/simpler #1263 (2026-07-09): the submit only pushes the
         * task to the wiring queue; scheduler thread 0 wires it and releases the guard
         * (pto_scheduler.h drain_wiring_queue; scheduler.c drain_wiring, model/README.md §7.6) */
        if (readyq_push(&r->wireq, task_id) != 0) {
            rt_error(r, "out of memory in the wiring queue");
            return;
        }
        rt_wire_queued(r, t);
    } else {
        tk->fanin_refcount++; /* release the guard: wiring is complete */
        if (tk->fanin_refcount == tk->fanin_count)
            rt_route_ready(r, tk, t);
        else
            rt_try_early_candidate(r, tk, t);
    }
    orch_on_step(o, t);
}
