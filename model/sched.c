/* sched.c - scheduler thread loop (runtime.md §3.3): complete, dummy, dispatch, deferred release, idle. */
#include "sched.h"

#include <stdlib.h>
#include <string.h>

#include "chip.h"
#include "vec.h"

void sched_init_thread(chip *c, int ti)
{
    sched_thread *th = &c->threads[ti];
    memset(th, 0, sizeof(*th));
    th->index = ti;
    th->wake_at = PS_NEVER;
    /* clusters round-robin; poll order per cluster: AIC, AIV0, AIV1 */
    for (int cl = ti; cl < c->plat.clusters; cl += c->nsched) {
        th->cluster_ids[th->nclusters++] = cl;
        th->core_ids[th->ncores++] = cl;
        th->core_ids[th->ncores++] = (int)c->plat.clusters + 2 * cl;
        th->core_ids[th->ncores++] = (int)c->plat.clusters + 2 * cl + 1;
    }
}

void sched_free_thread(sched_thread *th)
{
    free(th->deferred);
    th->deferred = NULL;
}

static void add_phase(chip *c, int ti, phase_kind kind, ps_t start, ps_t end, uint32_t tasks,
                      uint64_t task_id, const uint32_t shared_start[3])
{
    if (c->sl.level < 3)
        return;
    sched_thread *th = &c->threads[ti];
    sl_phase p = {.kind = (uint8_t)kind,
                  .start = start,
                  .end = end,
                  .loop_iter = th->loop_iter,
                  .tasks = tasks,
                  .task_id = task_id};
    if (kind == PH_COMPLETE || kind == PH_DISPATCH) {
        memcpy(p.shared_start, shared_start, sizeof(p.shared_start));
        chip_queue_depths(c, p.shared_end);
    }
    if (kind == PH_DISPATCH) {
        p.pop_hit = th->pop_hit;
        p.pop_miss = th->pop_miss;
        th->pop_hit = th->pop_miss = 0;
    }
    if (swimlane_add_phase(&c->sl, ti, &p) != 0)
        chip_error(c, "out of memory for swimlane records");
}

/* Completion walk cost: a fixed part plus one step per consumer (runtime.md §5.4). */
static ps_t walk_cost(const chip *c, const task *tk)
{
    return c->cost.resolve_base + c->cost.resolve_per * tk->consumers;
}

/* A FIN was read at time t: record the execution and free the core. */
static void observe_fin(chip *c, core *co, ps_t t)
{
    sl_exec e = {.task_id = co->task_id,
                 .reg = co->reg,
                 .dispatch = co->dispatch,
                 .receive = co->receive,
                 .start = co->start,
                 .end = co->end,
                 .finish = t};
    if (swimlane_add_exec(&c->sl, co->id, &e) != 0)
        chip_error(c, "out of memory for swimlane records");
    co->busy = false;
    co->executions++;
    co->busy_ps += co->end - co->start;
    c->executions++;
}

void sched_on_iter(chip *c, int ti, ps_t t)
{
    sched_thread *th = &c->threads[ti];
    if (th->sleeping) {
        uint64_t j = (t - th->sleep_base) / th->sleep_period;
        th->loop_iter = th->sleep_base_iter + j;
        th->pop_miss += (uint32_t)(j - 1) * th->sleep_misses_per_iter;
        th->sleeping = false;
    }
    th->iter_start = t;
    uint32_t shared[3];
    chip_queue_depths(c, shared);
    ps_t cur = t;
    uint32_t done = 0;
    for (int k = 0; k < th->ncores; k++) {
        core *co = &c->cores[th->core_ids[k]];
        if (!co->busy)
            continue;
        cur += c->cost.poll; /* one serial COND load */
        if (co->fin_visible > cur)
            continue;
        uint64_t tid = co->task_id;
        observe_fin(c, co, cur);
        cur += c->cost.subtask;
        th->completed++;
        done++;
        task *tk = chip_task(c, tid);
        if (!tk) {
            chip_error(c, "internal: FIN of unknown task %llu", (unsigned long long)tid);
            return;
        }
        if (++tk->subtasks_done == tk->subtasks_total) {
            ps_t w = walk_cost(c, tk);
            if (w >= PS_PER_US)
                add_phase(c, ti, PH_RESOLVE, cur, cur + w, tk->consumers, 0, shared);
            cur += w;
            chip_schedule(c, cur, EV_TASK_DONE, (uint32_t)ti, tid);
        }
    }
    th->iter_completions = done;
    if (done)
        add_phase(c, ti, PH_COMPLETE, t, cur, done, 0, shared);
    chip_schedule(c, cur, EV_SCHED_DISPATCH, (uint32_t)ti, th->gen);
}

/* Is core id idle? */
static bool idle(const chip *c, int id)
{
    return !c->cores[id].busy;
}

/* Cores of cluster cl that a task with this mask needs; returns how many. */
static int cluster_cores(const chip *c, int cl, uint8_t mask, int out[3])
{
    int n = 0;
    int ids[3] = {cl, (int)c->plat.clusters + 2 * cl, (int)c->plat.clusters + 2 * cl + 1};
    for (int s = 0; s < 3; s++)
        if (mask & (1u << s))
            out[n++] = ids[s];
    return n;
}

static bool cluster_idle_for(const chip *c, int cl, uint8_t mask)
{
    int ids[3];
    int n = cluster_cores(c, cl, mask, ids);
    for (int i = 0; i < n; i++)
        if (!idle(c, ids[i]))
            return false;
    return true;
}

/* Units (cores, or clusters for MIX) of a shape that thread th can dispatch to now. */
static int idle_units(const chip *c, const sched_thread *th, int shape, uint8_t mask)
{
    int n = 0;
    if (shape == SHAPE_MIX) {
        for (int i = 0; i < th->nclusters; i++)
            n += cluster_idle_for(c, th->cluster_ids[i], mask ? mask : 7);
        return n;
    }
    for (int i = 0; i < th->ncores; i++) {
        const core *co = &c->cores[th->core_ids[i]];
        if (!co->busy && (int)co->type == (shape == SHAPE_AIC ? CORE_AIC : CORE_AIV))
            n++;
    }
    return n;
}

static void notify_shape(chip *c, int shape, ps_t t);

/* One core's share of a dispatch batch. */
typedef struct dispatch_slot {
    int core;
    uint64_t task_id;
    int block;
    int subslot; /* task subslot whose kernel runs there */
} dispatch_slot;

/* Subslot of the single kernel of an AIC/AIV task. */
static int single_subslot(const task *tk)
{
    for (int s = 0; s < 3; s++)
        if (tk->mask & (1u << s))
            return s;
    return 0;
}

/* Pops tasks of one shape and places their blocks on idle units of thread th.
 * Adds the placements to batch; returns false on an internal failure. */
static bool stage_shape(chip *c, sched_thread *th, int shape, dispatch_slot *batch, int *nbatch, ps_t *cur)
{
    readyq *q = &c->ready[shape];
    for (;;) {
        if (q->len == 0) {
            if (idle_units(c, th, shape, 7) > 0)
                th->pop_miss++; /* an idle unit looked and found nothing */
            return true;
        }
        task *tk = chip_task(c, readyq_peek(q));
        if (!tk) {
            chip_error(c, "internal: queued task %llu is not live", (unsigned long long)readyq_peek(q));
            return false;
        }
        int units = idle_units(c, th, shape, tk->mask);
        if (units == 0)
            return true; /* the head task needs cores this thread does not have idle */
        uint64_t tid;
        readyq_pop(q, &tid);
        *cur += c->cost.pop;
        th->pop_hit++;
        int remaining = tk->block_num - tk->blocks_claimed;
        int take = remaining < units ? remaining : units;
        for (int b = 0; b < take; b++) {
            int block = tk->blocks_claimed++;
            if (shape == SHAPE_MIX) {
                for (int i = 0; i < th->nclusters; i++) {
                    int cl = th->cluster_ids[i];
                    if (!cluster_idle_for(c, cl, tk->mask))
                        continue;
                    int ids[3];
                    int n = cluster_cores(c, cl, tk->mask, ids);
                    for (int k = 0; k < n; k++) {
                        batch[*nbatch] = (dispatch_slot){ids[k], tid, block, c->cores[ids[k]].subslot};
                        c->cores[ids[k]].busy = true; /* reserved for this batch */
                        (*nbatch)++;
                        *cur += c->cost.payload;
                    }
                    break;
                }
            } else {
                for (int i = 0; i < th->ncores; i++) {
                    core *co = &c->cores[th->core_ids[i]];
                    if (co->busy || (int)co->type != (shape == SHAPE_AIC ? CORE_AIC : CORE_AIV))
                        continue;
                    batch[*nbatch] = (dispatch_slot){co->id, tid, block, single_subslot(tk)};
                    co->busy = true; /* reserved for this batch */
                    (*nbatch)++;
                    *cur += c->cost.payload;
                    break;
                }
            }
        }
        if (tk->blocks_claimed < tk->block_num) {
            /* blocks remain: back to the queue so any thread can claim them */
            if (readyq_push(q, tid) != 0)
                return false;
            sched_notify_queued(c, tk, c->now);
        } else if (shape == SHAPE_MIX && q->len == 0) {
            /* AIC/AIV work held back while MIX waited may now go anywhere */
            notify_shape(c, SHAPE_AIC, c->now);
            notify_shape(c, SHAPE_AIV, c->now);
        }
    }
}

/* Dispatch phase: MIX on idle clusters, then AIC/AIV on idle cores (AIC first
 * on even threads, AIV first on odd ones; skipped while MIX work waits), then
 * one barrier and a burst of MMIO stores. Returns subtasks dispatched. */
static int dispatch_ready(chip *c, int ti, ps_t *cur)
{
    sched_thread *th = &c->threads[ti];
    dispatch_slot batch[PLATFORM_MAX_CORES];
    int nbatch = 0;
    ps_t start = *cur;
    uint32_t shared[3];
    chip_queue_depths(c, shared);
    if (!stage_shape(c, th, SHAPE_MIX, batch, &nbatch, cur))
        goto oom;
    if (c->ready[SHAPE_MIX].len == 0 || idle_units(c, th, SHAPE_MIX, 7) > 0) {
        int first = th->index % 2 == 0 ? SHAPE_AIC : SHAPE_AIV;
        if (!stage_shape(c, th, first, batch, &nbatch, cur) ||
            !stage_shape(c, th, first == SHAPE_AIC ? SHAPE_AIV : SHAPE_AIC, batch, &nbatch, cur))
            goto oom;
    }
    if (nbatch == 0)
        return 0;
    *cur += c->cost.wmb;
    for (int k = 0; k < nbatch; k++) {
        core *co = &c->cores[batch[k].core];
        task *tk = chip_task(c, batch[k].task_id);
        co->busy = true;
        co->task_id = batch[k].task_id;
        co->block = batch[k].block;
        co->reg = core_next_reg(co);
        co->dispatch = *cur; /* stamped just before its store */
        *cur += c->cost.store;
        co->receive = co->dispatch + c->cost.visible;
        co->start = co->receive + c->cost.setup;
        co->end = co->start + tk->dur[batch[k].subslot];
        co->fin_visible = co->end + c->cost.fin_latency;
    }
    th->dispatched += (uint64_t)nbatch;
    add_phase(c, ti, PH_DISPATCH, start, *cur, (uint32_t)nbatch, 0, shared);
    return nbatch;
oom:
    chip_error(c, "out of memory in the scheduler");
    return 0;
}

/* Drains up to 8 dependency-only tasks (threads 0-2). Returns how many. */
static int drain_dummies(chip *c, int ti, ps_t *cur)
{
    if (ti >= SCHED_DUMMY_THREADS || c->dummyq.len == 0)
        return 0;
    ps_t start = *cur;
    int n = 0;
    uint64_t tid;
    while (n < SCHED_DUMMY_PER_ITER && readyq_pop(&c->dummyq, &tid) == 0) {
        task *tk = chip_task(c, tid);
        if (!tk) {
            chip_error(c, "internal: queued dummy %llu is not live", (unsigned long long)tid);
            return n;
        }
        add_phase(c, ti, tk->predicate ? PH_DUMMY_TASK : PH_PREDICATED_SKIP, *cur, *cur, 1, tid, NULL);
        *cur += walk_cost(c, tk);
        chip_schedule(c, *cur, EV_TASK_DONE, (uint32_t)ti, tid);
        n++;
    }
    add_phase(c, ti, PH_DUMMY, start, *cur, (uint32_t)n, 0, NULL);
    return n;
}

/* Runs every queued deferred release. Returns how many. */
static int run_releases(chip *c, int ti, ps_t *cur)
{
    sched_thread *th = &c->threads[ti];
    size_t n = th->ndeferred;
    if (!n)
        return 0;
    ps_t start = *cur;
    for (size_t i = 0; i < n; i++) {
        task *tk = chip_task(c, th->deferred[i]);
        if (tk)
            chip_release(c, tk, *cur);
        *cur += c->cost.release;
    }
    th->ndeferred = 0;
    add_phase(c, ti, PH_RELEASE, start, *cur, (uint32_t)n, 0, NULL);
    return (int)n;
}

void sched_defer_release(chip *c, int ti, uint64_t task_id, ps_t t)
{
    sched_thread *th = &c->threads[ti];
    if (th->ndeferred >= SCHED_DEFERRED_CAP) {
        /* a full queue is drained before the next push (scheduler_completion.cpp) */
        ps_t cur = t;
        run_releases(c, ti, &cur);
    }
    if (vec_grow((void **)&th->deferred, &th->deferred_cap, th->ndeferred, sizeof(*th->deferred)) != 0) {
        chip_error(c, "out of memory for deferred releases");
        return;
    }
    th->deferred[th->ndeferred++] = task_id;
}

/* Nothing happened this iteration: sleep until a FIN can be observed. */
static void go_to_sleep(chip *c, sched_thread *th)
{
    ps_t poll = c->cost.poll;
    int nbusy = 0;
    for (int k = 0; k < th->ncores; k++)
        nbusy += c->cores[th->core_ids[k]].busy;
    th->sleeping = true;
    th->sleep_base = th->iter_start;
    th->sleep_nbusy = nbusy;
    th->sleep_period = (ps_t)nbusy * poll + c->cost.idle_iter;
    th->sleep_base_iter = th->loop_iter;
    th->sleep_misses_per_iter = 0;
    for (int s = 0; s < 3; s++)
        th->sleep_misses_per_iter += idle_units(c, th, s, 7) > 0;
    ps_t wake = PS_NEVER;
    int kb = 0;
    for (int k = 0; k < th->ncores; k++) {
        const core *co = &c->cores[th->core_ids[k]];
        if (!co->busy)
            continue;
        kb++;
        /* iteration j reads this core at sleep_base + j*P + kb*poll */
        ps_t first_read = th->sleep_base + (ps_t)kb * poll;
        uint64_t j = 1;
        if (co->fin_visible > first_read) {
            uint64_t need = co->fin_visible - first_read;
            j = (need + th->sleep_period - 1) / th->sleep_period;
            if (j < 1)
                j = 1;
        }
        ps_t at = th->sleep_base + j * th->sleep_period;
        if (at < wake)
            wake = at;
    }
    th->gen++;
    th->wake_at = wake;
    if (wake != PS_NEVER)
        chip_schedule(c, wake, EV_SCHED_ITER, (uint32_t)th->index, th->gen);
}

void sched_on_dispatch(chip *c, int ti, ps_t t)
{
    sched_thread *th = &c->threads[ti];
    ps_t cur = t;
    int progressed = th->iter_completions > 0;
    progressed += drain_dummies(c, ti, &cur);
    progressed += dispatch_ready(c, ti, &cur);
    if (!progressed)
        progressed += run_releases(c, ti, &cur);
    if (c->status != CHIP_RUNNING)
        return;
    if (progressed) {
        th->loop_iter++;
        chip_schedule(c, cur, EV_SCHED_ITER, (uint32_t)ti, th->gen);
        return;
    }
    go_to_sleep(c, th);
}

/* Wakes thread ti, if it sleeps, for the first iteration whose dispatch phase
 * starts at or after t. */
static void kick(chip *c, int ti, ps_t t)
{
    sched_thread *th = &c->threads[ti];
    if (!th->sleeping)
        return;
    ps_t polls = (ps_t)th->sleep_nbusy * c->cost.poll;
    ps_t first_dispatch = th->sleep_base + polls;
    uint64_t j = 1;
    if (t > first_dispatch) {
        j = (t - first_dispatch + th->sleep_period - 1) / th->sleep_period;
        if (j < 1)
            j = 1;
    }
    ps_t s = th->sleep_base + j * th->sleep_period;
    if (s >= th->wake_at)
        return; /* the FIN wake-up comes first and will see the queue */
    th->sleeping = false;
    th->gen++;
    th->loop_iter = th->sleep_base_iter + j;
    th->pop_miss += (uint32_t)(j - 1) * th->sleep_misses_per_iter;
    th->iter_start = s;
    th->iter_completions = 0;
    chip_schedule(c, s + polls, EV_SCHED_DISPATCH, (uint32_t)ti, th->gen);
}

/* Wakes sleeping threads that have idle units for queued work of a shape. */
static void notify_shape(chip *c, int shape, ps_t t)
{
    if (c->ready[shape].len == 0)
        return;
    for (int ti = 0; ti < c->nsched; ti++)
        if (idle_units(c, &c->threads[ti], shape, 7) > 0)
            kick(c, ti, t);
}

void sched_notify_queued(chip *c, const task *tk, ps_t t)
{
    if (tk->shape == SHAPE_DUMMY || !tk->predicate) {
        for (int ti = 0; ti < c->nsched && ti < SCHED_DUMMY_THREADS; ti++)
            kick(c, ti, t);
        return;
    }
    for (int ti = 0; ti < c->nsched; ti++)
        if (idle_units(c, &c->threads[ti], tk->shape, tk->mask) > 0)
            kick(c, ti, t);
}
