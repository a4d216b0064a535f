/* orch.c - orchestrator thread: scopes, submits (allocation, dependency wiring, publish), back-pressure on
 * full rings. */
#include "orch.h"

#include <stdlib.h>
#include <string.h>

#include "chip.h"
#include "vec.h"

int orch_init(chip *c, const char *graph_path, char *err, size_t errlen)
{
    orch *o = &c->orch;
    memset(o, 0, sizeof(*o));
    if (graph_open(&o->g, graph_path, err, errlen) != 0)
        return -1;
    o->op = malloc(sizeof(*o->op));
    if (!o->op) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    /* the executor's implicit root scope: depth 0, ring 0 */
    o->nscopes = 1;
    snprintf(o->scopes[0].site, sizeof(o->scopes[0].site), "(unknown):0");
    return 0;
}

void orch_free(orch *o)
{
    graph_close(&o->g);
    free(o->op);
    free(o->scope_list);
    free(o->tensors);
    free(o->labels);
    memset(o, 0, sizeof(*o));
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

/* Makes sure per-slot arrays cover tensor slot / label slot n. */
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

/* Releases the scope reference of every task in list[from ..) (end_scope). */
static size_t release_scope(chip *c, size_t from, ps_t t)
{
    orch *o = &c->orch;
    size_t n = o->nscope_list - from;
    for (size_t i = from; i < o->nscope_list; i++) {
        task *tk = chip_task(c, o->scope_list[i]);
        if (tk) {
            tk->scope_released = true;
            chip_check_consumed(c, tk, t);
        }
    }
    o->nscope_list = from;
    return n;
}

static ps_t kernel_time(const chip *c, const graph_cost *cost)
{
    if (cost->kind == COST_NS)
        return ps_from_ns(cost->value);
    return ps_from_cycles(cost->value, (uint64_t)c->plat.aicore_freq_hz);
}

/* Shape from the active subslots (runtime.md §3.2). */
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

/* Resolves the op's explicit deps to task ids, before this task takes an id.
 * Returns 0, or -1 after ending the run with code 5. */
static int resolve_deps(chip *c, uint64_t *ids)
{
    orch *o = &c->orch;
    const graph_op *op = o->op;
    for (int i = 0; i < op->ndeps; i++) {
        uint64_t id = op->deps[i].label >= 0 ? o->labels[op->deps[i].label] : op->deps[i].raw_id;
        const task_ring *r = &c->rings[task_id_ring(id)];
        if (task_id_local(id) >= r->next_local) { /* never handed out: invalid (code 5) */
            chip_fatal(c, 5,
                       "%s:%ld: deps[%d]: Arg.set_dependencies(...) requires valid task ids; task "
                       "%llu (ring %d, local %u) was never submitted",
                       o->g.path, op->line, i, (unsigned long long)id, task_id_ring(id), task_id_local(id));
            return -1;
        }
        ids[i] = id;
    }
    return 0;
}

/* Adds an edge producer -> tk (deduplicated, flags OR-ed). Retired producers give no edge. */
static int add_edge(chip *c, task *tk, uint64_t producer, bool retain)
{
    if (!chip_task(c, producer))
        return 0; /* already retired: silently skipped (runtime.md §2.1) */
    if (task_add_link(tk, producer, retain) < 0) {
        chip_error(c, "out of memory for dependency links");
        return -1;
    }
    return 0;
}

/* Allocates the task of the current op and wires its dependencies at time t. */
static task *submit_task(chip *c, int ring, ps_t t)
{
    orch *o = &c->orch;
    const graph_op *op = o->op;
    uint64_t *dep_ids = NULL;
    if (op->ndeps) {
        dep_ids = malloc((size_t)op->ndeps * sizeof(*dep_ids));
        if (!dep_ids) {
            chip_error(c, "out of memory");
            return NULL;
        }
        if (resolve_deps(c, dep_ids) != 0) {
            free(dep_ids);
            return NULL;
        }
    }
    task_ring *r = &c->rings[ring];
    uint32_t local = r->next_local++;
    if (task_ring_active(r) > r->peak_active)
        r->peak_active = task_ring_active(r);
    task *tk = &r->slots[local & (r->window - 1)];
    task_clear_links(tk);
    memset(tk, 0, sizeof(*tk));
    tk->id = task_make_id(ring, local);
    tk->submit_idx = o->submit_idx;
    tk->block_num = op->block_num;
    tk->predicate = op->predicate;
    tk->early_resolve = op->early_resolve;
    tk->sync_start = op->sync_start;
    tk->fanin_count = 1; /* the orchestrator's guard, released at publish */
    for (int s = 0; s < 3; s++) {
        tk->kernel_ids[s] = op->kernel_ids[s];
        if (op->kernel_ids[s] < 0)
            continue;
        tk->mask |= (uint8_t)(1u << s);
        const graph_kernel *k = graph_kernel_by_id(&o->g, op->kernel_ids[s]);
        tk->dur[s] = kernel_time(c, op->has_cost ? &op->cost : &k->cost);
    }
    tk->shape = op->kind == OP_ALLOC ? SHAPE_ALLOC : (uint8_t)shape_of(tk->mask);
    tk->subtasks_total = tk->block_num * __builtin_popcount(tk->mask);
    c->tasks_submitted++;
    if (tk->shape != SHAPE_DUMMY && tk->shape != SHAPE_ALLOC)
        c->kernel_tasks++;

    if (vec_grow((void **)&o->scope_list, &o->scope_list_cap, o->nscope_list, sizeof(*o->scope_list)) != 0)
        goto oom;
    o->scope_list[o->nscope_list++] = tk->id;
    if (op->label >= 0) {
        if (ensure_slots((void **)&o->labels, &o->labels_cap, (size_t)op->label, sizeof(*o->labels)) != 0)
            goto oom;
        o->labels[op->label] = tk->id;
    }

    /* edges: explicit deps first, then creator retention per arg (runtime.md §2.1) */
    for (int i = 0; i < op->ndeps; i++)
        if (add_edge(c, tk, dep_ids[i], true) != 0)
            goto fail;
    if (!in_manual_scope(o) && op->kind != OP_ALLOC)
        for (int i = 0; i < op->nargs; i++) {
            const graph_arg *a = &op->args[i];
            if (a->dir == DIR_OUT || (size_t)a->tensor >= o->tensors_cap)
                continue;
            const orch_tensor *ts = &o->tensors[a->tensor];
            if (ts->owned && add_edge(c, tk, ts->owner, true) != 0)
                goto fail;
        }

    /* wiring: claim a fanout slot on every producer; a pending producer gets
     * this task in its fanout list, a completed one counts right away */
    for (uint32_t i = 0; i < tk->nlinks; i++) {
        task_link *l = task_link_at(tk, i);
        task *p = chip_task(c, l->producer);
        p->fanout_claims++;
        tk->fanin_count++;
        if (p->state == TASK_PENDING) {
            if (chip_add_fanout(c, p, tk->id) != 0)
                goto oom;
        } else {
            tk->fanin_refcount++;
        }
        if (!l->retain) { /* WAIT-only edges release their claim at wiring */
            p->fanout_released++;
            chip_check_consumed(c, p, t);
        }
    }

    /* outputs: later readers find their creator through the owner */
    for (int i = 0; i < op->nargs; i++) {
        const graph_arg *a = &op->args[i];
        if (a->dir != DIR_OUT)
            continue;
        if (ensure_slots((void **)&o->tensors, &o->tensors_cap, (size_t)a->tensor, sizeof(*o->tensors)) != 0)
            goto oom;
        o->tensors[a->tensor] = (orch_tensor){.owner = tk->id, .owned = true};
    }
    free(dep_ids);
    return tk;
oom:
    chip_error(c, "out of memory in the orchestrator");
fail:
    free(dep_ids);
    return NULL;
}

/* Carries out scope_begin. Returns 0, or -1 after ending the run. */
static int begin_scope(chip *c)
{
    orch *o = &c->orch;
    const graph_op *op = o->op;
    orch_scope *s = &o->scopes[o->nscopes++];
    s->list_start = o->nscope_list;
    s->manual = op->manual;
    memcpy(s->site, op->site, sizeof(s->site));
    return 0;
}

void orch_on_step(chip *c, ps_t t)
{
    orch *o = &c->orch;
    char err[GRAPH_ERR_MAX];
    while (c->status == CHIP_RUNNING) {
        if (o->done)
            return;
        if (o->eof_seen) {
            o->done = true;
            o->end_time = t;
            /* a run with nothing submitted ends here */
            if (c->tasks_completed == c->tasks_submitted) {
                c->status = CHIP_DONE;
                c->end_time = t > c->last_completion ? t : c->last_completion;
            }
            return;
        }
        if (!o->have_op) {
            int rc = graph_next(&o->g, o->op, err, sizeof(err));
            if (rc < 0) {
                chip_error(c, "%s", err);
                return;
            }
            if (rc == 0) {
                /* orchestration returned: the executor ends the root scope */
                size_t n = release_scope(c, 0, t);
                o->eof_seen = true;
                chip_schedule(c, t + n * c->cost.scope_end_per_task, EV_ORCH_STEP, 0, 0);
                return;
            }
            o->have_op = true;
            o->call_started = false;
        }
        graph_op *op = o->op;
        switch (op->kind) {
        case OP_SCOPE_BEGIN:
            o->have_op = false;
            if (begin_scope(c) != 0)
                return;
            continue;
        case OP_SCOPE_END: {
            o->have_op = false;
            orch_scope *s = &o->scopes[--o->nscopes];
            size_t n = release_scope(c, s->list_start, t);
            if (n) {
                chip_schedule(c, t + n * c->cost.scope_end_per_task, EV_ORCH_STEP, 0, 0);
                return;
            }
            continue;
        }
        case OP_USER_CODE:
            o->have_op = false;
            if (op->user_ns) {
                chip_schedule(c, t + ps_from_ns(op->user_ns), EV_ORCH_STEP, 0, 0);
                return;
            }
            continue;
        case OP_SUBMIT:
        case OP_DUMMY:
        case OP_ALLOC: {
            if (!o->call_started) {
                o->call_started = true;
                o->call_start = t;
            }
            int ring = current_ring(o);
            if (!task_ring_has_space(&c->rings[ring])) {
                o->blocked = true;
                o->blocked_ring = ring;
                o->blocked_since = t;
                return; /* resumed by orch_on_ring_advance */
            }
            task *tk = submit_task(c, ring, t);
            if (!tk)
                return;
            o->have_op = false;
            chip_schedule(c, t + c->cost.submit, EV_ORCH_PUBLISH, 0, tk->id);
            return;
        }
        }
    }
}

void orch_on_publish(chip *c, uint64_t task_id, ps_t t)
{
    orch *o = &c->orch;
    task *tk = chip_task(c, task_id);
    if (!tk) {
        chip_error(c, "internal: published task %llu is not live", (unsigned long long)task_id);
        return;
    }
    sl_orch rec = {.submit_idx = o->submit_idx++, .task_id = task_id, .start = o->call_start, .end = t};
    if (swimlane_add_orch(&c->sl, &rec) != 0) {
        chip_error(c, "out of memory for swimlane records");
        return;
    }
    tk->published = true;
    if (tk->shape == SHAPE_ALLOC) {
        /* alloc_tensors completes inline on the orchestrator, no fanout walk */
        tk->state = TASK_COMPLETED;
        tk->completed_at = t;
        c->tasks_completed++;
        tk->releases_done = true;
    } else {
        tk->fanin_refcount++; /* release the guard: wiring is complete */
        if (tk->fanin_refcount == tk->fanin_count)
            chip_route_ready(c, tk, t);
    }
    orch_on_step(c, t);
}

void orch_on_ring_advance(chip *c, int ring, ps_t t)
{
    orch *o = &c->orch;
    if (!o->blocked || o->blocked_ring != ring || !task_ring_has_space(&c->rings[ring]))
        return;
    o->blocked = false;
    o->blocked_ps[ring] += t - o->blocked_since;
    chip_schedule(c, t, EV_ORCH_STEP, 0, 0);
}
