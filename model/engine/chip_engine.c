/* chip_engine.c - chip_: the chip engine: event dispatch and the task lifecycle. */
/* Ready, complete, release, consumed, watermark. */
#include "chip_engine.h"

#include <assert.h>

#include <math.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/vec.h"

/* What the orchestrator and the schedulers call the engine for (runtime_state.h); defined at the end. */
static const rt_services SERVICES;

static ps_t ns(int64_t v)
{
    return ps_from_ns((uint64_t)v);
}

void chip_config_defaults(chip_config *cfg, const platform *p)
{
    memset(cfg, 0, sizeof(*cfg));
    for (int r = 0; r < RING_COUNT; r++) {
        cfg->ring_task_window[r] = (uint32_t)p->ring_task_window;
        cfg->ring_heap[r] = (uint64_t)p->ring_heap;
        cfg->ring_dep_pool[r] = (uint32_t)p->ring_dep_pool;
    }
    cfg->scheduler_timeout = (ps_t)p->scheduler_timeout_ms * PS_PER_MS;
    cfg->op_execute_timeout_us = (long)p->op_execute_timeout_us;
    cfg->stream_sync_timeout_ms = (long)p->stream_sync_timeout_ms;
}

/* The device's watchdogs (model/README.md §14.4): the AICore launch's STARS
 * op-execute timer, ceil(timeout / credit) credits of 2^32 ns, armed at
 * launch for the whole run (the AICPU launch has 4 credits more, so it never
 * fires first); the host's stream sync gives up at its own timeout. Sim
 * platforms have neither. */
static void arm_watchdogs(chip *c)
{
    c->stars_deadline = c->stream_deadline = PS_NEVER;
    if (!c->plat.has_stars)
        return;
    double us = (double)c->cfg.op_execute_timeout_us;
    if (c->plat.stars_credit_us > 0) {
        double credits = ceil(us / c->plat.stars_credit_us);
        if (credits < 1)
            credits = 1;
        if (credits > 254) /* 8-bit credit field; 255 would mean "never" */
            credits = 254;
        c->stars_credits = (uint32_t)credits;
        us = credits * c->plat.stars_credit_us;
    }
    c->stars_deadline = (ps_t)llround(us * 1e6);
    c->stream_deadline = (ps_t)c->cfg.stream_sync_timeout_ms * PS_PER_MS;
    ps_t kill = c->stars_deadline < c->stream_deadline ? c->stars_deadline : c->stream_deadline;
    if (c->dump_on)
        c->dump.kill_at = kill;
    chip_schedule(c, kill, EV_DEVICE_KILL, 0, 0);
}

/* Everything of a chip but its orchestrator. Returns 0, or -1 with a message in err (c freed). */
static int chip_build(chip *c, const platform *p, const chip_config *cfg, char *err, size_t errlen)
{
    memset(c, 0, sizeof(*c));
    c->svc = SERVICES;
    occ_init(&c->occ);
    c->plat = *p;
    c->cfg = *cfg;
    c->ncores = platform_num_cores(p);
    c->nsched = platform_num_sched(p);
    for (int t = 0; t < PLATFORM_MAX_AICPU_THREADS; t++)
        c->wake_t[t] = PS_NEVER;
    c->wake_next = -1;
    c->cost = (chip_costs){
        .submit = ns(p->orch_submit_ns),
        .scope_end_per_task = ns(p->orch_scope_end_per_task_ns),
        .spin = ns(p->orch_spin_ns),
        .poll = ns(p->mmio_cond_read_ns),
        .store = ns(p->mmio_store_ns),
        .wmb = ns(p->sched_wmb_ns),
        .idle_iter = ns(p->sched_idle_iter_ns),
        .pop = ns(p->dispatch_pop_ns),
        .payload = ns(p->dispatch_payload_ns),
        .subtask = ns(p->complete_subtask_ns),
        .resolve_base = ns(p->resolve_base_ns),
        .resolve_per = ns(p->resolve_per_consumer_ns),
        .wire_task = ns(p->wire_task_ns),
        .wire_edge = ns(p->wire_edge_ns),
        .release = ns(p->complete_subtask_ns),
        .visible = ns(p->dispatch_visible_ns),
        .setup = ns(p->aicore_setup_ns),
        .fin_latency = ns(p->fin_cond_latency_ns),
        .record_wb = cfg->swimlane_level > 0 && p->dfx_overhead ? ns(p->aicore_record_ns) : 0,
        .setup_spread = p->aicore_setup_spread,
        .record_spread = p->aicore_record_spread,
        .kernel_spread = p->kernel_spread,
        .first_min = ns(p->aicore_first_task_min_ns),
        .first_max = ns(p->aicore_first_task_max_ns),
        .cold_record = cfg->swimlane_level > 0 && p->dfx_overhead ? ns(p->aicore_cold_record_ns) : 0,
        .drain_sync = ns(p->drain_sync_ns),
        .arg_fill = ns(p->aicore_arg_fill_ns),
        .pmu_read = cfg->pmu_event_type ? (ps_t)p->pmu_fin_reads * ns(p->mmio_cond_read_ns) : 0,
    };
    pipe_rates rates;
    platform_pipe_rates(p, &rates);
    if (pipe_table_init(&c->pipes, &rates) != 0)
        goto oom;
    hbm_init(&c->mem, p->hbm_bw);
    c->kstats = calloc(GRAPH_MAX_FUNC_ID, sizeof(*c->kstats));
    if (!c->kstats)
        goto oom;
    if (cfg->dump_level) {
        dump_params dp = {.record = ns(p->dump_record_ns),
                          .copy_bps = p->aicpu_copy_bw,
                          .gather_bps = p->aicpu_gather_bw,
                          .arena = (uint64_t)p->dump_arena_bytes,
                          .buf_records = (uint32_t)p->dump_buf_records,
                          .buffers = (int)p->dump_buffers,
                          .free_queue = (int)p->dump_free_queue,
                          .ready_queue = (int)p->dump_ready_queue,
                          .backstop = (ps_t)p->dfx_park_timeout_ms * PS_PER_MS};
        if (dump_init(&c->dump, cfg->dump_level, &dp,
                      p->dump_payload ? DUMP_PAYLOAD_PATTERN : DUMP_PAYLOAD_SPARSE) != 0)
            goto oom;
        c->dump_on = true;
    }
    if (cfg->pmu_event_type) {
        if (pmu_log_init(&c->pmu, cfg->pmu_event_type, (uint64_t)p->pmu_bytes_per_req, err, errlen) != 0) {
            chip_free(c);
            return -1;
        }
        c->pmu_on = true;
    }
    if (evq_init(&c->q, 1024) != 0)
        goto oom;
    for (int r = 0; r < RING_COUNT; r++) {
        if (task_ring_init(&c->rings[r], cfg->ring_task_window[r]) != 0)
            goto oom;
        ring_heap_init(&c->heaps[r], cfg->ring_heap[r]);
        dep_pool_init(&c->deppools[r], cfg->ring_dep_pool[r]);
    }
    if (tmap_init(&c->tm, (uint32_t)p->tensormap_pool, cfg->ring_task_window, false) != 0)
        goto oom;
    /* the overhead model needs the logical edges deps.json has (a replay
     * where nothing retires), so the replay runs even without deps.json */
    exec_log_init(&c->oh, EXEC_LOG_MAX);
    _Static_assert(MKP_RINGS == RING_COUNT, "the makespan parts keep waits per ring");
    mkp_init(&c->mk);
    if (cfg->no_makespan_parts)
        mkp_off(&c->mk);
    if (mkp_windows(&c->mk, cfg->ring_task_window) != 0)
        goto oom;
    vary_init(&c->vr, cfg->seeded, cfg->seed);
    if (depgen_init(&c->dg, cfg->ring_task_window, cfg->dep_gen, err, errlen) != 0) {
        chip_free(c);
        return -1;
    }
    c->logical_on = true;
    c->dep_gen_on = cfg->dep_gen;
    if (cfg->scope_stats) {
        if (scopestats_init(&c->ss, err, errlen) != 0) {
            chip_free(c);
            return -1;
        }
        c->scope_stats_on = true;
    }
    for (int s = 0; s < 3; s++)
        readyq_init(&c->ready[s]);
    readyq_init(&c->dummyq);
    readyq_init(&c->wireq);
    for (int s = 0; s < 3; s++) {
        readyq_init(&c->ready_sync[s]);
        readyq_init(&c->early[s]);
    }
    readyq_init(&c->early_sync);
    core_topology(c->cores, (int)p->clusters, c->nsched);
    for (int k = 0; k < c->ncores; k++)
        c->cores[k].fin_after_wb = p->aicore_fin_after_record != 0;
    sched_init(&c->sched, &c->rt);
    c->nodes_cap = 1024;
    c->nodes = calloc(c->nodes_cap, sizeof(*c->nodes));
    if (!c->nodes)
        goto oom;
    c->nodes_used = 0;
    c->nodes_free = 0;
    /* node 0 is the null sentinel; 1 .. cap-1 start on the free list */
    for (size_t i = c->nodes_cap - 1; i >= 1; i--) {
        c->nodes[i].next = c->nodes_free;
        c->nodes_free = (uint32_t)i;
    }
    if (swimlane_init(&c->sl, cfg->swimlane_level, c->ncores) != 0)
        goto oom;
    if (cfg->perfetto_records) {
        c->pf = malloc(sizeof(*c->pf));
        if (!c->pf || pf_init(c->pf, cfg->perfetto_records) != 0)
            goto oom;
        c->dump.pf = c->pf;
    }
    return 0;
oom:
    snprintf(err, errlen, "out of memory while building the chip model");
    chip_free(c);
    return -1;
}

int chip_init_graph(chip *c, const platform *p, const chip_config *cfg, graph *g, char *err, size_t errlen)
{
    if (chip_build(c, p, cfg, err, errlen) != 0) {
        graph_close(g);
        return -1;
    }
    if (orch_init(&c->orch, &c->rt, g, err, errlen) != 0) {
        chip_free(c);
        return -1;
    }
    c->status = CHIP_RUNNING;
    arm_watchdogs(c);
    chip_schedule(c, 0, EV_ORCH_STEP, 0, 0);
    for (int t = 0; t < c->nsched; t++)
        chip_schedule(c, 0, EV_SCHED_ITER, (uint32_t)t, c->sched.threads[t].gen);
    return 0;
}

int chip_init(chip *c, const platform *p, const chip_config *cfg, const char *graph_path, char *err,
              size_t errlen)
{
    graph g;
    if (graph_open(&g, graph_path, err, errlen) != 0)
        return -1;
    return chip_init_graph(c, p, cfg, &g, err, errlen);
}

void chip_free(chip *c)
{
    if (c->dump_on) {
        for (int r = 0; r < RING_COUNT; r++)
            for (uint32_t i = 0; c->rings[r].slots && i < c->rings[r].touched; i++) {
                dump_desc_free(c->rings[r].slots[i].dump);
                c->rings[r].slots[i].dump = NULL;
            }
        dump_free(&c->dump);
        c->dump_on = false;
    }
    evq_free(&c->q);
    for (int r = 0; r < RING_COUNT; r++)
        task_ring_free(&c->rings[r]);
    for (int s = 0; s < 3; s++)
        readyq_free(&c->ready[s]);
    readyq_free(&c->dummyq);
    readyq_free(&c->wireq);
    for (int s = 0; s < 3; s++) {
        readyq_free(&c->ready_sync[s]);
        readyq_free(&c->early[s]);
    }
    readyq_free(&c->early_sync);
    sched_free(&c->sched);
    free(c->nodes);
    c->nodes = NULL;
    if (c->tm.pool)
        tmap_free(&c->tm);
    if (c->logical_on)
        depgen_free(&c->dg);
    exec_log_free(&c->oh);
    mkp_free(&c->mk);
    if (c->scope_stats_on)
        scopestats_free(&c->ss);
    c->dep_gen_on = c->logical_on = c->scope_stats_on = false;
    swimlane_free(&c->sl);
    if (c->pf)
        pf_free(c->pf);
    free(c->pf);
    c->pf = NULL;
    pipe_table_free(&c->pipes);
    free(c->kstats);
    c->kstats = NULL;
    if (c->pmu_on)
        pmu_log_free(&c->pmu);
    c->pmu_on = false;
    orch_free(&c->orch);
}

void chip_schedule(chip *c, ps_t t, enum chip_event kind, uint32_t who, uint64_t arg)
{
    assert(!c->has_last); /* chip_schedule_last must be a handler's last act */
    if (evq_push(&c->q, t, (uint32_t)kind, who, arg) != 0)
        chip_error(c, "out of memory in the event queue");
}

void chip_schedule_last(chip *c, ps_t t, enum chip_event kind, uint32_t who, uint64_t arg)
{
    assert(!c->has_last && t >= c->now);
    c->last_t = t;
    c->last_kind = (uint32_t)kind;
    c->last_who = who;
    c->last_arg = arg;
    c->has_last = true;
}

/* Is wake-up a earlier than wake-up b (time, then insertion order)? */
static inline bool wake_before(const chip *c, int a, int b)
{
    return c->wake_t[a] < c->wake_t[b] || (c->wake_t[a] == c->wake_t[b] && c->wake_seq[a] < c->wake_seq[b]);
}

static void wake_refresh(chip *c)
{
    int best = -1;
    for (int t = 0; t < c->nsched; t++)
        if (c->wake_t[t] != PS_NEVER && (best < 0 || wake_before(c, t, best)))
            best = t;
    c->wake_next = best;
}

void chip_set_wake(chip *c, int ti, ps_t t)
{
    assert(!c->has_last && t != PS_NEVER);
    c->wake_t[ti] = t;
    c->wake_seq[ti] = c->q.next_seq++; /* the place a push now would take */
    c->q.pushed++;
    wake_refresh(c);
}

void chip_clear_wake(chip *c, int ti)
{
    if (c->wake_t[ti] == PS_NEVER)
        return;
    c->wake_t[ti] = PS_NEVER;
    wake_refresh(c);
}

void chip_fatal(chip *c, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rt_vfatal(&c->rt, code, fmt, ap);
    va_end(ap);
}

void chip_device_kill(chip *c, ps_t t)
{
    if (c->status != CHIP_RUNNING)
        return;
    c->status = CHIP_DEVICE_ERROR;
    c->end_time = t;
    bool stars = c->stars_deadline <= c->stream_deadline;
    c->device_code = stars ? 507018 : 507046;
    if (stars)
        snprintf(c->message, sizeof(c->message),
                 "STARS op-execute timeout: the AICore launch ran past its deadline (%u credit(s), %.6f s) "
                 "and was "
                 "reaped with the AICPU (HandleTaskTimeout / kill aicpu-sd)",
                 c->stars_credits, sec_from_ps(c->stars_deadline));
    else
        snprintf(c->message, sizeof(c->message),
                 "Stream sync timeout: stream=AICPU timeout_ms=%ld device_id=0 block_dim=%d",
                 c->cfg.stream_sync_timeout_ms, c->ncores / 3);
}

void chip_error(chip *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rt_verror(&c->rt, fmt, ap);
    va_end(ap);
}

task *chip_task(chip *c, uint64_t id)
{
    return rt_task(&c->rt, id);
}

/* Ends the run (CHIP_DONE) once orchestration finished and every submitted
 * task completed; the end time is the later of the two. */
static void chip_check_finished(chip *c);

/* Task lifecycle (model/README.md §3.4): the engine's own, which the orchestrator and the
 * schedulers reach through rt's services (SERVICES, at the end). */
static void chip_route_ready(chip *c, task *tk, ps_t t);           /* to a ready or the dummy queue */
static void chip_task_done(chip *c, task *tk, int thread, ps_t t); /* completion effects */
static void chip_release(chip *c, task *tk, ps_t t);               /* deferred release of RETAIN pins */
/* Early dispatch (model/README.md §8.5): a flagged producer fully published tells its
 * consumers; a consumer whose producers all did becomes a candidate. */
static void chip_propagate_dispatch(chip *c, task *producer, ps_t t);
static void chip_try_early_candidate(chip *c, task *tk, ps_t t);
/* The sync-start rendezvous: once every gated core of tk's cohort holds a
 * running slot and its producers have released it, rings them all at t and
 * returns true (it rings once); else false. */
static bool chip_sync_rendezvous(chip *c, task *tk, ps_t t);
static void chip_check_consumed(chip *c, task *tk, ps_t t);

#define EARLY_QUEUE_CAP 256 /* PTO2_EARLY_DISPATCH_QUEUE_SIZE (tensormap_and_ringbuffer runtime/pto_runtime2_types.h; 64 is host_build_graph's) */

static void chip_try_early_candidate(chip *c, task *tk, ps_t t)
{
    if (tk->early != EARLY_NONE || !tk->early_ok || !tk->published || tk->queued ||
        tk->dispatch_fanin < tk->early_target || c->cfg.pmu_event_type > 0)
        return;
    /* a sync-start cohort waits in one queue for every shape, for an owner
     * that stages it whole (pto_scheduler.h try_enqueue_early_dispatch_candidate) */
    readyq *q = tk->sync_start ? &c->early_sync : &c->early[tk->shape];
    if (q->len >= EARLY_QUEUE_CAP)
        return; /* full: the task simply takes the normal path later */
    if (readyq_push(q, tk->id) != 0) {
        chip_error(c, "out of memory in an early-dispatch queue");
        return;
    }
    tk->early = EARLY_STAGING;
    mkp_staged(&c->mk, rt_mkp(&c->rt, tk->id), t);
    sched_notify_early(&c->sched, t);
}

static void chip_propagate_dispatch(chip *c, task *p, ps_t t)
{
    /* gated blocks not yet rung are not launch-visible (a staged sync-start
     * cohort waiting for its rendezvous) */
    if (p->propagated || !p->early_resolve || p->early == EARLY_STAGING ||
        p->subtasks_published < p->subtasks_total || p->staged_mask[0] || p->staged_mask[1])
        return;
    p->propagated = true;
    for (uint32_t n = p->fanout_head; n; n = c->nodes[n].next) {
        task *cons = chip_task(c, c->nodes[n].consumer);
        if (!cons || !cons->early_ok || !cons->predicate)
            continue;
        cons->dispatch_fanin++;
        chip_try_early_candidate(c, cons, t);
    }
}

/* Rings the doorbell of every gated core of tk, one MMIO store apart, from t. */
static void ring_staged(chip *c, task *tk, ps_t t)
{
    int k = 0;
    for (int w = 0; w < 2; w++)
        for (uint64_t m = tk->staged_mask[w]; m; m &= m - 1) {
            int id = w * 64 + __builtin_ctzll(m);
            sched_ring_core(&c->sched, id, tk->id, t + (ps_t)k++ * c->cost.store);
        }
    tk->staged_mask[0] = tk->staged_mask[1] = 0;
    c->early_rung += (uint64_t)k;
}

static bool chip_sync_rendezvous(chip *c, task *tk, ps_t t)
{
    /* maybe_rendezvous_ring (pto_scheduler.h): staged cores counted, not
     * blocks, so a MIX block split over running and pending slots counts right */
    int staged = __builtin_popcountll(tk->staged_mask[0]) + __builtin_popcountll(tk->staged_mask[1]);
    if (!staged || tk->sync_running != staged || tk->early != EARLY_DISPATCHED)
        return false;
    ring_staged(c, tk, t);
    chip_propagate_dispatch(c, tk, t);
    return true;
}

/* Releases a pre-staged consumer (try_early_dispatch_release, pto_scheduler.h):
 * its doorbells ring inline in the producer's completion walk, and blocks never
 * staged go to the ready queue. A sync-start cohort rings only at its
 * rendezvous, now or at the promotion of its last pending block; one that a
 * gated drain is placing is left to that drain. Returns true when handled. */
static bool ring_doorbells(chip *c, task *tk, ps_t t)
{
    tk->early = EARLY_DISPATCHED;
    if (tk->sync_start) {
        chip_sync_rendezvous(c, tk, t);
        return tk->blocks_claimed >= tk->block_num ||
               (c->drain.active && c->drain.gated && c->drain.task_id == tk->id);
    }
    ring_staged(c, tk, t);
    chip_propagate_dispatch(c, tk, t);
    return tk->blocks_claimed >= tk->block_num; /* every block staged: handled */
}

/* The makespan parts' log: tk became ready at t, by its producer ready_by or its publish. */
static void note_ready(chip *c, const task *tk, ps_t t)
{
    const task *maker = tk->ready_by == TASK_ID_INVALID ? NULL : chip_task(c, tk->ready_by);
    int by = tk->ready_by == TASK_ID_INVALID ? MKP_BY_PUBLISH : MKP_BY_PRODUCER;
    mkp_ready(&c->mk, rt_mkp(&c->rt, tk->id), by, maker ? rt_mkp(&c->rt, maker->id) : NULL, t);
}

/* A completion by scheduler thread `thread` made tk ready: with local-first
 * ready buffers (sched_local_ready), a regular task goes to that thread's
 * buffer; everything else, and a full buffer, goes to the global queues. */
static void route_ready_from(chip *c, task *tk, int thread, ps_t t)
{
    if (c->plat.sched_local_ready && thread >= 0 && !tk->queued && tk->shape <= SHAPE_MIX && tk->predicate &&
        !tk->sync_start && tk->early != EARLY_STAGING && sched_push_local(&c->sched, thread, tk)) {
        tk->queued = true;
        tk->ready_at = t;
        note_ready(c, tk, t);
        tk->early = EARLY_DISPATCHED;
        return;
    }
    chip_route_ready(c, tk, t);
}

static void chip_route_ready(chip *c, task *tk, ps_t t)
{
    if (tk->queued)
        return;
    tk->queued = true;
    tk->ready_at = t;
    note_ready(c, tk, t);
    if (tk->early == EARLY_STAGING) {
        if (ring_doorbells(c, tk, t))
            return;
    } else {
        tk->early = EARLY_DISPATCHED; /* a stale candidate entry is dropped when popped */
    }
    readyq *q = (tk->shape == SHAPE_DUMMY || !tk->predicate) ? &c->dummyq
                : tk->sync_start                             ? &c->ready_sync[tk->shape]
                                                             : &c->ready[tk->shape];
    if (readyq_push(q, tk->id) != 0) {
        chip_error(c, "out of memory in a ready queue");
        return;
    }
    sched_notify_queued(&c->sched, tk, t);
}

static void chip_check_finished(chip *c)
{
    if (c->status == CHIP_RUNNING && c->orch.done && c->tasks_completed == c->tasks_submitted) {
        c->status = CHIP_DONE;
        c->end_time = c->orch.end_time > c->last_completion ? c->orch.end_time : c->last_completion;
    }
}

static void chip_task_done(chip *c, task *tk, int thread, ps_t t)
{
    tk->state = TASK_COMPLETED;
    tk->completed_at = t;
    if (mkp_completed(&c->mk, rt_mkp(&c->rt, tk->id), t) != 0)
        chip_error(c, "out of memory for the makespan parts");
    c->tasks_completed++;
    if (t > c->last_completion)
        c->last_completion = t;
    /* the fanout walk: every consumer wired while this task was pending */
    uint32_t n = tk->fanout_head;
    while (n) {
        fanout_node *node = &c->nodes[n];
        task *cons = chip_task(c, node->consumer);
        if (cons) {
            cons->fanin_refcount++;
            if (cons->published && cons->fanin_refcount == cons->fanin_count) {
                cons->ready_by = tk->id;
                route_ready_from(c, cons, thread, t);
            }
        }
        uint32_t next = node->next;
        node->next = c->nodes_free;
        c->nodes_free = n;
        c->nodes_used--;
        n = next;
    }
    tk->fanout_head = 0;
    mkp_task_done(&c->mk, rt_mkp(&c->rt, tk->id)); /* its consumers made ready hold its node now */
    if (thread >= 0)
        sched_defer_release(&c->sched, thread, tk->id, t);
    else
        chip_release(c, tk, t);
    chip_check_finished(c);
}

/* Walks the ring's watermark over consumed slots, in ring order (model/README.md §4.2). */
static void advance_watermark(chip *c, int ring, ps_t t)
{
    task_ring *r = &c->rings[ring];
    uint32_t before = r->last_alive;
    while (r->last_alive != r->next_local) {
        task *s = &r->slots[r->last_alive & (r->window - 1)];
        if (s->state != TASK_CONSUMED)
            break;
        /* what the orchestrator's lazy reclaim will read (model/README.md §4.3-4.4) */
        c->retired_heap_off[ring] = s->heap_end_off;
        c->retired_heap_cum[ring] = s->heap_end_cum;
        c->retired_dep_mark[ring] = s->dep_pool_mark;
        c->spill_used[ring] -= s->spill;
        task_clear_links(s);
        r->last_alive++;
    }
    if (r->last_alive != before) {
        c->ring_advances++;
        rt_note_occupancy(&c->rt, ring, t);
        if (c->pf)
            rt_trace_ring(&c->rt, ring, t);
        orch_on_ring_advance(&c->orch, ring, t);
    }
}

static void chip_check_consumed(chip *c, task *tk, ps_t t)
{
    if (tk->state != TASK_COMPLETED || !tk->scope_released || !tk->releases_done ||
        tk->fanout_released != tk->fanout_claims)
        return;
    tk->state = TASK_CONSUMED;
    advance_watermark(c, task_id_ring(tk->id), t);
}

static void chip_release(chip *c, task *tk, ps_t t)
{
    for (uint32_t i = 0; i < tk->nlinks; i++) {
        task_link *l = task_link_at(tk, i);
        if (!l->retain)
            continue;
        task *p = chip_task(c, l->producer);
        if (p) {
            p->fanout_released++;
            chip_check_consumed(c, p, t);
        }
    }
    tk->releases_done = true;
    chip_check_consumed(c, tk, t);
}

/* Idle cores that could have run a ready task, over the dt before the next
 * event: min(idle cores of a type, tasks of that type or MIX queued). */
static void measure_idle(chip *c, ps_t dt)
{
    for (int ty = 0; ty < 2; ty++) {
        int idle = 0;
        for (int t = 0; t < c->nsched; t++)
            idle += c->sched.threads[t].units[ty][0]; /* [0]: cores fitting the IDLE staging phase */
        size_t ready =
            c->ready[ty].len + c->ready[SHAPE_MIX].len + c->ready_sync[ty].len + c->ready_sync[SHAPE_MIX].len;
        c->idle_ready_ps[ty] += (double)dt * (double)((size_t)idle < ready ? (size_t)idle : ready);
    }
}

/* Runs one event at its time (c->now is already there). */
static inline void handle(chip *c, evq_event ev)
{
    switch ((enum chip_event)ev.kind) {
    case EV_ORCH_STEP:
        if (ev.arg == ORCH_STEP_RETRY)
            orch_on_retry(&c->orch, ev.t);
        else
            orch_on_step(&c->orch, ev.t);
        break;
    case EV_ORCH_PUBLISH:
        orch_on_publish(&c->orch, ev.arg, ev.t);
        break;
    case EV_SCHED_TIMEOUT:
        sched_on_timeout_event(&c->sched, (int)ev.who, ev.t);
        break;
    case EV_SCHED_ITER:
    case EV_SCHED_DISPATCH:
        /* args dump back-pressure: every scheduler thread is parked until the freeze opens */
        if (c->dump_on && ev.t < c->dump.freeze_until && ev.arg == c->sched.threads[ev.who].gen) {
            chip_schedule(c, c->dump.freeze_until, (enum chip_event)ev.kind, ev.who, ev.arg);
            break;
        }
        if (ev.kind == EV_SCHED_DISPATCH) {
            if (ev.arg == c->sched.threads[ev.who].gen)
                sched_on_dispatch(&c->sched, (int)ev.who, ev.t);
            break;
        }
        if (ev.arg == c->sched.threads[ev.who].gen)
            sched_on_iter(&c->sched, (int)ev.who, ev.t);
        break;
    case EV_DRAIN_RESOLVE:
        if (ev.arg == c->drain.attempt)
            sched_on_drain_resolve(&c->sched, ev.t);
        break;
    case EV_DEVICE_KILL:
        chip_device_kill(c, ev.t);
        break;
    case EV_HBM:
        if (hbm_live(&c->mem, ev.arg))
            sched_on_hbm(&c->sched, ev.t);
        break;
    case EV_ORCH_CHECK:
        orch_on_check(&c->orch, ev.arg, ev.t);
        break;
    case EV_WIRE_DONE: {
        /* the guard released at wiring: ready now, or when its producers complete */
        task *tk = chip_task(c, ev.arg);
        if (!tk) {
            chip_error(c, "internal: wiring of unknown task %llu", (unsigned long long)ev.arg);
            break;
        }
        tk->fanin_refcount++;
        tk->ready_by = TASK_ID_INVALID;
        if (tk->fanin_refcount == tk->fanin_count)
            chip_route_ready(c, tk, ev.t);
        else
            chip_try_early_candidate(c, tk, ev.t);
        break;
    }
    case EV_TASK_DONE: {
        task *tk = chip_task(c, ev.arg);
        if (!tk)
            chip_error(c, "internal: completion of unknown task %llu", (unsigned long long)ev.arg);
        else
            chip_task_done(c, tk, (int)ev.who, ev.t);
        break;
    }
    }
}

int chip_step(chip *c)
{
    if (c->status != CHIP_RUNNING)
        return 0;
    const evq_event *top = evq_top(&c->q);
    int w = c->wake_next;
    if (!top && w < 0) {
        c->status = CHIP_STALLED;
        c->end_time = c->now;
        if (c->orch.blocked)
            snprintf(c->message, sizeof(c->message),
                     "nothing can progress: the orchestrator waits for a slot on ring %d "
                     "(%u tasks in flight, window %u) and no task can complete; "
                     "%llu of %llu submitted tasks completed",
                     c->orch.blocked_ring, task_ring_active(&c->rings[c->orch.blocked_ring]),
                     c->rings[c->orch.blocked_ring].window, (unsigned long long)c->tasks_completed,
                     (unsigned long long)c->tasks_submitted);
        else
            snprintf(c->message, sizeof(c->message),
                     "nothing can progress: %llu of %llu submitted tasks completed",
                     (unsigned long long)c->tasks_completed, (unsigned long long)c->tasks_submitted);
        return 0;
    }
    evq_event ev;
    if (w >= 0 && (!top || c->wake_t[w] < top->t || (c->wake_t[w] == top->t && c->wake_seq[w] < top->seq))) {
        ev.t = c->wake_t[w]; /* a thread's poll wake-up: live by construction */
        ev.seq = c->wake_seq[w];
        ev.kind = EV_SCHED_ITER;
        ev.who = (uint32_t)w;
        ev.arg = c->sched.threads[w].gen;
        chip_clear_wake(c, w);
    } else {
        ev.t = top->t; /* field by field: see evq_top */
        ev.seq = top->seq;
        ev.kind = top->kind;
        ev.who = top->who;
        ev.arg = top->arg;
        evq_drop(&c->q);
    }
    if (c->measure_idle && ev.t > c->now)
        measure_idle(c, ev.t - c->now);
    c->now = ev.t;
    c->events++;
    handle(c, ev);
    /* the handler's last event, when nothing else is due at or before it:
     * popped next anyway, so it runs now (a freeze of the args dump, which
     * parks it, and a stopped chip leave it to the queue) */
    while (c->has_last) {
        c->has_last = false;
        ev.t = c->last_t;
        ev.kind = c->last_kind;
        ev.who = c->last_who;
        ev.arg = c->last_arg;
        if (c->status != CHIP_RUNNING || chip_next_time(c) <= ev.t ||
            (c->dump_on && ev.t < c->dump.freeze_until)) {
            chip_schedule(c, ev.t, (enum chip_event)ev.kind, ev.who, ev.arg);
            break;
        }
        if (c->measure_idle && ev.t > c->now)
            measure_idle(c, ev.t - c->now);
        c->now = ev.t;
        c->inlined++;
        handle(c, ev);
    }
    return c->status == CHIP_RUNNING;
}

chip_status chip_run(chip *c)
{
    while (chip_step(c)) {
        if ((c->events & 0xfff) != 0)
            continue;
        if (c->stop && *c->stop) { /* every 4096 events: about a millisecond of host time */
            c->stopped = true;
            return c->status;
        }
        if (c->on_progress && (c->events & 0xffff) == 0)
            c->on_progress(c, c->progress_arg);
    }
    /* without a host collector the args dump is drained at once */
    if (c->dump_on && !c->dump.host)
        dump_flush(&c->dump, c->end_time, c->dump.killed, NULL, NULL);
    return c->status;
}

int chip_overhead(const chip *c, ohm_result *r)
{
    int rc = ohm_compute(&c->oh, (uint64_t)c->plat.sys_cnt_freq_hz, r);
    if (rc != 0) /* out of memory: the outputs that quote it (bound, overhead, critical path) go unwritten */
        outfile_note_failure();
    return rc;
}

/* ---- the services: a component holds &c->rt, the engine finds its chip around it ---- */

_Static_assert(offsetof(chip, note) == offsetof(chip, rt.note), "chip's shared fields lie over its rt");

static chip *chip_of(rt *r)
{
    return (chip *)((char *)r - offsetof(chip, rt));
}

static void svc_schedule(rt *r, ps_t t, enum chip_event kind, uint32_t who, uint64_t arg)
{
    chip_schedule(chip_of(r), t, kind, who, arg);
}

static void svc_schedule_last(rt *r, ps_t t, enum chip_event kind, uint32_t who, uint64_t arg)
{
    chip_schedule_last(chip_of(r), t, kind, who, arg);
}

static void svc_route_ready(rt *r, task *tk, ps_t t)
{
    chip_route_ready(chip_of(r), tk, t);
}

static void svc_try_early_candidate(rt *r, task *tk, ps_t t)
{
    chip_try_early_candidate(chip_of(r), tk, t);
}

static void svc_check_consumed(rt *r, task *tk, ps_t t)
{
    chip_check_consumed(chip_of(r), tk, t);
}

static void svc_check_finished(rt *r)
{
    chip_check_finished(chip_of(r));
}

static void svc_propagate_dispatch(rt *r, task *producer, ps_t t)
{
    chip_propagate_dispatch(chip_of(r), producer, t);
}

static bool svc_sync_rendezvous(rt *r, task *tk, ps_t t)
{
    return chip_sync_rendezvous(chip_of(r), tk, t);
}

static void svc_release(rt *r, task *tk, ps_t t)
{
    chip_release(chip_of(r), tk, t);
}

static bool svc_orch_done(rt *r)
{
    return chip_of(r)->orch.done;
}

static void svc_set_wake(rt *r, int ti, ps_t t)
{
    chip_set_wake(chip_of(r), ti, t);
}

static void svc_wire_queued(rt *r, ps_t t)
{
    sched_notify_wiring(&chip_of(r)->sched, t);
}

static void svc_clear_wake(rt *r, int ti)
{
    chip_clear_wake(chip_of(r), ti);
}

static const rt_services SERVICES = {
    .schedule = svc_schedule,
    .schedule_last = svc_schedule_last,
    .route_ready = svc_route_ready,
    .try_early_candidate = svc_try_early_candidate,
    .check_consumed = svc_check_consumed,
    .check_finished = svc_check_finished,
    .propagate_dispatch = svc_propagate_dispatch,
    .sync_rendezvous = svc_sync_rendezvous,
    .release = svc_release,
    .orch_done = svc_orch_done,
    .wire_queued = svc_wire_queued,
    .set_wake = svc_set_wake,
    .clear_wake = svc_clear_wake,
};
