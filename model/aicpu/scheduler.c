/* scheduler.c - sched_: the scheduler thread loop (model/README.md §7.1). */
/* Complete, dummy, dispatch (idle then pending stages), deferred release, idle, timeout. */
#include "scheduler.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime_state.h"
#include "../runtime/runtime_error.h"
#include "../base/vec.h"

/* Sets up thread ti's ownership from the core topology. */
static void init_thread(sched *sc, int ti)
{
    rt *r = sc->rt;
    sched_thread *th = &sc->threads[ti];
    memset(th, 0, sizeof(*th));
    th->index = ti;
    th->wake_at = PS_NEVER;
    th->timeout_due = th->timeout_event_at = PS_NEVER;
    /* clusters round-robin; poll order per cluster: AIC, AIV0, AIV1 */
    for (int cl = ti; cl < r->plat.clusters; cl += r->nsched) {
        th->cluster_ids[th->nclusters++] = cl;
        th->core_ids[th->ncores++] = cl;
        th->core_ids[th->ncores++] = (int)r->plat.clusters + 2 * cl;
        th->core_ids[th->ncores++] = (int)r->plat.clusters + 2 * cl + 1;
    }
    for (int i = 0; i < th->ncores; i++)
        r->cores[th->core_ids[i]].poll_ix = i;
    /* every core starts idle (pollmask empty) */
    th->units[CORE_AIC][0] = th->nclusters;
    th->units[CORE_AIV][0] = 2 * th->nclusters;
    th->mix_units[0] = th->nclusters;
    th->mix_full[0] = th->nclusters;
    for (int i = 0; i < th->nclusters; i++)
        sc->cluster_fit[th->cluster_ids[i]][0] = 3;
    for (int s = 0; s < 3; s++)
        if (th->nclusters)
            sc->idle_threads[s] |= (uint8_t)(1u << ti);
}

void sched_init(sched *sc, rt *r)
{
    memset(sc, 0, sizeof(*sc));
    sc->rt = r;
    for (int ti = 0; ti < r->nsched; ti++)
        init_thread(sc, ti);
}

void sched_free(sched *sc)
{
    for (int ti = 0; ti < PLATFORM_MAX_AICPU_THREADS;
         ti++) { /* a chip that failed half-built has no rt here */
        free(sc->threads[ti].deferred);
        sc->threads[ti].deferred = NULL;
    }
}

static bool single_issue(const sched *sc)
{
    const rt *r = sc->rt;
    return r->cfg.pmu_event_type > 0;
}

static unsigned phase_bits(const core *co);
static void track(sched *sc, const core *co, unsigned before);

/* Core co's state changed: its owner's poll mask and due times follow. Called
 * by track (every busy / pending change) and wherever a slot's times move. */
static void resync(sched *sc, const core *co)
{
    const rt *r = sc->rt;
    sched_thread *th = &sc->threads[co->thread];
    int i = co->poll_ix;
    uint64_t bit = 1ULL << (i & 63);
    if (co->busy && !core_waiting_doorbell(co)) {
        th->npolled += !(th->pollmask[i >> 6] & bit);
        th->pollmask[i >> 6] |= bit;
        th->due[i] = core_next_observable(co, r->cost.fin_latency, true);
        th->due_fin[i] = core_next_observable(co, r->cost.fin_latency, false);
    } else {
        th->npolled -= !!(th->pollmask[i >> 6] & bit);
        th->pollmask[i >> 6] &= ~bit;
    }
}

/* The first polled index at or after i, or -1. */
static inline int next_polled(const sched_thread *th, int i)
{
    for (int w = i >> 6; w < SCHED_POLL_WORDS; w++) {
        uint64_t m = th->pollmask[w];
        if (w == i >> 6)
            m &= ~0ULL << (i & 63);
        if (m)
            return w * 64 + __builtin_ctzll(m);
    }
    return -1;
}

static void add_phase(sched *sc, int ti, phase_kind kind, ps_t start, ps_t end, uint32_t tasks,
                      uint64_t task_id, const uint32_t shared_start[3])
{
    rt *r = sc->rt;
    if (r->pf && pf_phase_add(r->pf, ti, kind, start, end, tasks, task_id) != 0)
        rt_error(r, "out of memory for the Perfetto trace");
    if (r->sl.level < 3)
        return;
    sched_thread *th = &sc->threads[ti];
    sl_phase p = {.kind = (uint8_t)kind,
                  .start = start,
                  .end = end,
                  .loop_iter = th->loop_iter,
                  .tasks = tasks,
                  .task_id = task_id};
    if (kind == PH_COMPLETE || kind == PH_DISPATCH) {
        memcpy(p.shared_start, shared_start, sizeof(p.shared_start));
        rt_queue_depths(r, p.shared_end);
    }
    if (kind == PH_DISPATCH) {
        p.pop_hit = th->pop_hit;
        p.pop_miss = th->pop_miss;
        th->pop_hit = th->pop_miss = 0;
    }
    if (swimlane_add_phase(&r->sl, ti, &p) != 0)
        rt_error(r, "out of memory for swimlane records");
}

/* An args-dump capture point of tk on thread ti at t; returns the AICPU time it took, and ends the run on a
 * failure the dump reported. */
static ps_t capture(sched *sc, int ti, task *tk, dump_stage stage, ps_t t)
{
    rt *r = sc->rt;
    ps_t spent = dump_capture(&r->dump, ti, tk, stage, t);
    if (r->dump.error) {
        rt_error(r, "%s", r->dump.error);
        r->dump.error = NULL;
    }
    return spent;
}

/* Completion walk cost: a fixed part plus one step per consumer (model/README.md §9.3). */
static ps_t walk_cost(const sched *sc, const task *tk)
{
    const rt *r = sc->rt;
    return r->cost.resolve_base + r->cost.resolve_per * tk->consumers;
}

/* A subtask left core k at time t (read by the poll ending then): record it
 * and, when it was the task's last, schedule the task's completion after the
 * fan-out walk. Returns the time the thread spent. */
static void plan_wake(sched *sc, sched_thread *th);

/* ---- shared HBM bandwidth: what the scheduler tells model/chip/hbm.c ---- */

static hbm_ref ref_of(const core_slot *s)
{
    return (hbm_ref){s->task_id, s->block, s->subslot};
}

static bool flow_is(const hbm_ref *r, const core_slot *s)
{
    return r->task_id == s->task_id && r->block == s->block && r->subslot == s->subslot;
}

/* The GM traffic of slot s's kernel: average demand at full speed (bytes
 * per ps) and full-speed duration. False when it moves no GM bytes. */
static bool slot_traffic(sched *sc, const core_slot *s, double *demand, ps_t *work)
{
    rt *r = sc->rt;
    const task *tk = rt_task(r, s->task_id);
    if (!tk || !tk->pipe_ix[s->subslot])
        return false;
    const pipe_result *pr = pipe_table_result(&r->pipes, tk->pipe_ix[s->subslot]);
    *work = s->dur;
    if (!pr->gm_bytes || !*work)
        return false;
    *demand = (double)pr->gm_bytes / (double)*work;
    return true;
}

/* Schedules the one EV_HBM at the earliest flow start or end, if it moved. */
static void hbm_resched(sched *sc)
{
    rt *r = sc->rt;
    ps_t t;
    uint64_t gen;
    if (hbm_reschedule(&r->mem, &t, &gen))
        rt_schedule(r, t, EV_HBM, 0, gen);
}

/* Slot s on core co has a known start: if its kernel moves GM bytes, its
 * flow joins the HBM share then. */
static void expect_flow(sched *sc, core *co, const core_slot *s)
{
    rt *r = sc->rt;
    double demand;
    ps_t work;
    if (!slot_traffic(sc, s, &demand, &work))
        return;
    hbm_expect(&r->mem, co->id, ref_of(s), s->start);
    hbm_resched(sc);
}

/* The slot of core co that holds execution r, or NULL. */
static core_slot *slot_of(core *co, const hbm_ref *r)
{
    if (co->busy && flow_is(r, &co->run))
        return &co->run;
    if (co->has_pending && flow_is(r, &co->pend))
        return &co->pend;
    return NULL;
}

/* The running slot's end moved: the pending task behind it reads its token
 * after the new end and the record commit, and starts (or, gated, becomes
 * ready for its doorbell) accordingly. */
static void retime_behind(sched *sc, core *co, const core_slot *moved)
{
    rt *r = sc->rt;
    if (moved != &co->run || !co->has_pending) {
        co->free_at = moved->end + moved->wb;
        return;
    }
    core_slot *p = &co->pend;
    ps_t ready = co->run.end + co->run.wb;
    p->receive = p->seen > ready ? p->seen : ready;
    if (p->gated && p->ring == PS_NEVER) {
        co->free_at = co->run.end + co->run.wb;
        return;
    }
    ps_t start = p->receive + p->setup;
    if (p->gated) {
        ps_t filled = start + r->cost.arg_fill, rung = p->ring + r->cost.visible;
        start = filled > rung ? filled : rung;
    }
    p->start = start;
    p->end = start + p->dur;
    co->free_at = p->end + p->wb;
    hbm_restart(&r->mem, co->id, ref_of(p), p->start);
}

void sched_on_hbm(sched *sc, ps_t t)
{
    rt *r = sc->rt;
    hbm *h = &r->mem;
    uint8_t ks[PLATFORM_MAX_CORES];
    int n = hbm_begin(h, t, ks);
    for (int i = 0; i < n; i++) {
        int k = ks[i];
        core_slot *s = slot_of(&r->cores[k], &h->next[k]);
        double demand;
        ps_t work;
        if (s && slot_traffic(sc, s, &demand, &work))
            hbm_start(h, k, h->next[k], demand, (double)work, s->end);
    }
    hbm_share(h);
    h->reshares++;
    if (r->pf && pf_hbm(r->pf, t, h) != 0)
        rt_error(r, "out of memory for the Perfetto trace");
    bool retimed[PLATFORM_MAX_AICPU_THREADS] = {false};
    n = hbm_moved(h, ks);
    for (int i = 0; i < n; i++) {
        core *co = &r->cores[ks[i]];
        core_slot *s = slot_of(co, &h->cur[ks[i]]);
        if (!s)
            continue;
        s->end = h->end_at[ks[i]];
        retime_behind(sc, co, s);
        resync(sc, co);
        retimed[co->thread] = true;
    }
    /* a sleeping owner re-plans the poll that will see the moved end */
    for (int ti = 0; ti < r->nsched; ti++)
        if (retimed[ti] && sc->threads[ti].sleeping)
            plan_wake(sc, &sc->threads[ti]);
    hbm_resched(sc);
}

/* Adds one finished execution to its kernel's pipe figures and, with the
 * PMU on, to pmu.csv. */
static void account_execution(sched *sc, const core *co, const task *tk, const core_slot *s)
{
    rt *r = sc->rt;
    int func = tk->kernel_ids[s->subslot];
    if (func < 0 || func >= GRAPH_MAX_FUNC_ID)
        return;
    kernel_stats *ks = &r->kstats[func];
    ps_t window = s->end - s->start, idle = s->dur;
    /* nearest whole cycle: a window of N cycles is N cycles rounded to the picosecond */
    uint64_t freq = (uint64_t)r->plat.aicore_freq_hz;
    uint64_t cycles = window <= (UINT64_MAX - PS_PER_S / 2) / freq /* the same in 64 bits, no __udivti3 */
                          ? (window * freq + PS_PER_S / 2) / PS_PER_S
                          : (uint64_t)(((unsigned __int128)window * freq + PS_PER_S / 2) / PS_PER_S);
    double stretch = idle ? (double)window / (double)idle : 1.0;
    uint32_t ix = tk->pipe_ix[s->subslot];
    const pipe_result *pr = ix ? pipe_table_result(&r->pipes, ix) : NULL;
    ks->executions++;
    ks->core_ps += window;
    ks->idle_mem_ps += idle;
    if (pr) {
        r->gm_bytes += pr->gm_bytes;
        ks->pipe_executions++;
        ks->window_cycles += cycles;
        for (int p = 0; p < PIPE_COUNT; p++) {
            double b = (double)pr->busy_cycles[p] * (pipe_is_gm((pipe_id)p) ? stretch : 1.0);
            ks->busy_cycles[p] += b < (double)cycles ? b : (double)cycles;
        }
        double ops, per_cycle;
        const pipe_kernel *pk = pipe_table_kernel(&r->pipes, ix);
        if (pipe_ops(pk, &r->pipes.rates, &ops, &per_cycle) == PIPE_OPS_COUNTED) {
            ks->ops_executions++;
            ks->ops += ops;
            ks->ops_peak_cycles += per_cycle > 0 ? ops / per_cycle : 0;
            ks->ops_gm_bytes += pr->gm_bytes;
            ks->ops_ps += window;
        }
    }
    if (r->pmu_on) {
        pmu_exec e = {.thread_id = co->thread,
                      .core_id = co->id,
                      .task_id = tk->id,
                      .func_id = (uint32_t)func,
                      .core_type = co->type == CORE_AIV,
                      .total_cycles = cycles,
                      .pk = ix ? pipe_table_kernel(&r->pipes, ix) : NULL,
                      .pr = pr,
                      .stretch = stretch};
        pmu_log_add(&r->pmu, &e);
    }
}

static ps_t retire(sched *sc, int ti, int k, const core_slot *s, ps_t t, const uint32_t shared[3])
{
    rt *r = sc->rt;
    core *co = &r->cores[k];
    sl_exec e = {.task_id = s->task_id,
                 .reg = s->reg,
                 .dispatch = s->dispatch,
                 .receive = s->receive,
                 .start = s->start,
                 .end = s->end,
                 .finish = t};
    if (swimlane_add_exec(&r->sl, k, &e) != 0)
        rt_error(r, "out of memory for swimlane records");
    /* the overhead model sees the execution as the swimlane stamps it (its
     * five tick conversions are 128-bit divisions: none once the log is dropped) */
    if (!r->oh.dropped) {
        uint64_t hz = (uint64_t)r->plat.sys_cnt_freq_hz;
        const task *xt = rt_task(r, s->task_id);
        exec_record ox = {.task = s->task_id,
                       .core = k,
                       .aiv = co->type == CORE_AIV,
                       .dispatch = (int64_t)ticks_from_ps(s->dispatch, hz),
                       .receive = (int64_t)ticks_from_ps(s->receive, hz),
                       .start = (int64_t)ticks_from_ps(s->start, hz),
                       .end = (int64_t)ticks_from_ps(s->end, hz),
                       .finish = (int64_t)ticks_from_ps(t, hz),
                       .func = xt ? xt->kernel_ids[s->subslot] : -1};
        if (exec_log_add(&r->oh, &ox) != 0)
            rt_error(r, "out of memory for the overhead model");
    }
    co->executions++;
    co->busy_ps += s->end - s->start;
    r->executions++;
    sc->threads[ti].completed++;
    ps_t spent = r->cost.subtask + r->cost.pmu_read;
    task *tk = rt_task(r, s->task_id);
    if (!tk) {
        rt_error(r, "internal: FIN of unknown task %" PRIu64, s->task_id);
        return spent;
    }
    account_execution(sc, co, tk, s);
    mkp_exec(&r->mk, rt_mkp(r, tk->id), tk->kernel_ids[s->subslot], s->dispatch, s->start, s->end, s->dur,
             s->dump_pre);
    if (r->pf) {
        pf_exec x = {.task = s->task_id,
                     .dispatch = s->dispatch,
                     .receive = s->receive,
                     .start = s->start,
                     .end = s->end,
                     .finish = t,
                     .core = k,
                     .func = tk->kernel_ids[s->subslot],
                     .block = s->block};
        if (pf_exec_add(r->pf, &x) != 0)
            rt_error(r, "out of memory for the Perfetto trace");
    }
    /* the AICPU saw this end: the flow keeps its speed so the end stays where it was seen */
    hbm_observe_end(&r->mem, k, ref_of(s), r->now);
    if (++tk->subtasks_done == tk->subtasks_total) {
        if (tk->dump) { /* args dump: outputs are captured once every block is done */
            ps_t d = capture(sc, ti, tk, DUMP_AFTER_COMPLETION, t + spent);
            spent += d;
            mkp_dump_post(&r->mk, rt_mkp(r, tk->id), d);
        }
        ps_t w = walk_cost(sc, tk);
        if (w >= PS_PER_US)
            add_phase(sc, ti, PH_RESOLVE, t + spent, t + spent + w, tk->consumers, 0, shared);
        spent += w;
        rt_schedule(r, t + spent, EV_TASK_DONE, (uint32_t)ti, s->task_id);
    }
    return spent;
}

/* Core co just promoted its pending slot at time t. A gated block of a
 * sync-start cohort now holds a running slot: the rendezvous counts it, and
 * the last one in rings the cohort when its producers have released it
 * (check_running_cores_for_completion, scheduler_completion.cpp). */
static void promoted_gated(sched *sc, const core *co, ps_t t)
{
    rt *r = sc->rt;
    if (!co->run.gated || co->run.ring != PS_NEVER)
        return;
    task *tk = rt_task(r, co->run.task_id);
    if (!tk || !tk->sync_start)
        return;
    tk->sync_running++;
    rt_sync_rendezvous(r, tk, t);
}

void sched_on_iter(sched *sc, int ti, ps_t t)
{
    rt *r = sc->rt;
    sched_thread *th = &sc->threads[ti];
    if (th->sleeping) {
        uint64_t j = (t - th->sleep_base) / th->sleep_period;
        th->loop_iter = th->sleep_base_iter + j;
        th->pop_miss += (uint32_t)(j - 1) * th->sleep_misses_per_iter;
        th->sleeping = false;
    }
    th->iter_start = t;
#ifdef PTOSIM_CHECK_UNITS /* verify the poll mask and due times against the cores */
    for (int i = 0; i < th->ncores; i++) {
        const core *co = &r->cores[th->core_ids[i]];
        bool polled = co->busy && !core_waiting_doorbell(co);
        if (polled != ((th->pollmask[i >> 6] >> (i & 63)) & 1) ||
            (polled && (th->due[i] != core_next_observable(co, r->cost.fin_latency, true) ||
                        th->due_fin[i] != core_next_observable(co, r->cost.fin_latency, false))))
            abort();
    }
    if (th->npolled != __builtin_popcountll(th->pollmask[0]) + __builtin_popcountll(th->pollmask[1]))
        abort();
#endif
    uint32_t shared[3] = {0, 0, 0};
    if (r->sl.level >= 3) /* only level 3 records carry the queue depths */
        rt_queue_depths(r, shared);
    ps_t cur = t;
    uint32_t done = 0;
    /* idle cores, and staged gated ones, are not polled; the mask is read
     * afresh at each step, as a retire may ring a later core's doorbell */
    for (int i = next_polled(th, 0); i >= 0; i = next_polled(th, i + 1)) {
        int k = th->core_ids[i];
        /* one serial COND load: it samples the register when issued and
         * returns 100 ns later, when the thread can act on it */
        if (cur < th->due[i]) { /* nothing visible yet: the load changes nothing */
            cur += r->cost.poll;
            continue;
        }
        core_slot fin[2];
        unsigned before = phase_bits(&r->cores[k]);
        core_poll polled = core_poll_at(&r->cores[k], cur, r->cost.fin_latency, fin);
        track(sc, &r->cores[k], before);
        cur += r->cost.poll;
        switch (polled) {
        case POLL_RUN_DONE:
            cur += retire(sc, ti, k, &fin[0], cur, shared);
            r->cores[k].owned_until = cur; /* clear_running_slot follows complete_slot_task */
            done++;
            break;
        case POLL_PROMOTED:
            cur += retire(sc, ti, k, &fin[0], cur, shared);
            done++;
            promoted_gated(sc, &r->cores[k], cur);
            break;
        case POLL_BOTH_DONE:
            cur += retire(sc, ti, k, &fin[0], cur, shared);
            cur += retire(sc, ti, k, &fin[1], cur, shared);
            r->cores[k].owned_until = cur;
            done += 2;
            break;
        default:
            break;
        }
    }
    th->iter_completions = done;
    if (done)
        add_phase(sc, ti, PH_COMPLETE, t, cur, done, 0, shared);
    rt_schedule_last(r, cur, EV_SCHED_DISPATCH, (uint32_t)ti, th->gen);
}

/* ---- dispatch ---- */

typedef enum {
    STAGE_IDLE,    /* idle cores */
    STAGE_PENDING, /* pending slots of running cores whose ACK the thread has seen */
    STAGE_SOON,    /* pending slots once the thread polls the ACK (for wake-ups only) */
} stage_phase;

/* Does core co take a block at this phase? */
static bool core_phase_fits(const core *co, stage_phase ph)
{
    switch (ph) {
    case STAGE_IDLE:
        return !co->busy;
    case STAGE_PENDING:
        return core_pending_ready(co);
    default:
        return co->busy && !co->has_pending;
    }
}

/* The staging phases core co fits, one bit per stage_phase. */
static unsigned phase_bits(const core *co)
{
    return (unsigned)core_phase_fits(co, STAGE_IDLE) | (unsigned)core_phase_fits(co, STAGE_PENDING) << 1 |
           (unsigned)core_phase_fits(co, STAGE_SOON) << 2;
}

/* Core co changed from phase bits `before`: its owner's unit counts follow. */
static void track(sched *sc, const core *co, unsigned before)
{
    resync(sc, co);
    unsigned after = phase_bits(co);
    if (after == before)
        return;
    sched_thread *th = &sc->threads[co->thread];
    int *u = th->units[co->type];
    uint8_t *fit = sc->cluster_fit[co->cluster];
    for (int p = 0; p < 3; p++)
        if ((before ^ after) & (1u << p)) {
            int d = (after >> p) & 1 ? 1 : -1;
            u[p] += d;
            /* a cluster can take some MIX block while two of its cores fit */
            bool was = fit[p] >= 2, was_full = fit[p] == 3;
            fit[p] = (uint8_t)(fit[p] + d);
            if (was != (fit[p] >= 2))
                th->mix_units[p] += d;
            if (was_full != (fit[p] == 3))
                th->mix_full[p] += d;
        }
    if ((before ^ after) & 1) { /* the idle counts moved: peers read them through one byte per shape */
        uint8_t bit = (uint8_t)(1u << co->thread);
        const int n[3] = {th->units[CORE_AIC][0], th->units[CORE_AIV][0], th->mix_full[0]};
        for (int s = 0; s < 3; s++)
            sc->idle_threads[s] =
                (uint8_t)(n[s] > 0 ? sc->idle_threads[s] | bit : sc->idle_threads[s] & ~bit);
    }
}

/* Cores of cluster cl that a task with this mask uses; returns how many. */
static int cluster_cores(const sched *sc, int cl, uint8_t mask, int out[3])
{
    const rt *r = sc->rt;
    int n = 0;
    int ids[3] = {cl, (int)r->plat.clusters + 2 * cl, (int)r->plat.clusters + 2 * cl + 1};
    for (int s = 0; s < 3; s++)
        if (mask & (1u << s))
            out[n++] = ids[s];
    return n;
}

/* classify_mix_cluster: a cluster takes a MIX block at this phase when every
 * core the task uses is idle (IDLE) or running with a free pending slot
 * (PENDING); any pending-occupied core rejects it. */
static bool cluster_fits(const sched *sc, int cl, uint8_t mask, stage_phase ph)
{
    const rt *r = sc->rt;
    int ids[3];
    int n = cluster_cores(sc, cl, mask, ids);
    for (int i = 0; i < n; i++)
        if (!core_phase_fits(&r->cores[ids[i]], ph))
            return false;
    return true;
}

/* Is core k a dispatch target of this shape and phase? */
static bool core_fits(const core *co, int shape, stage_phase ph)
{
    if ((int)co->type != (shape == SHAPE_AIC ? CORE_AIC : CORE_AIV))
        return false;
    return core_phase_fits(co, ph);
}

/* Units of a shape thread th can dispatch to at this phase (clusters for MIX). */
static int units(const sched *sc, const sched_thread *th, int shape, uint8_t mask, stage_phase ph)
{
    int n = 0;
    if (shape == SHAPE_MIX) {
        if (!mask || mask == 7) {
#ifdef PTOSIM_CHECK_UNITS
            for (int i = 0; i < th->nclusters; i++)
                n += cluster_fits(sc, th->cluster_ids[i], 7, ph);
            if (n != th->mix_full[ph])
                abort();
#endif
            return th->mix_full[ph]; /* whole clusters: kept as cores change */
        }
        for (int i = 0; i < th->nclusters; i++)
            n += cluster_fits(sc, th->cluster_ids[i], mask, ph);
        return n;
    }
#ifdef PTOSIM_CHECK_UNITS /* build with -DPTOSIM_CHECK_UNITS to verify the counts against a scan */
    for (int i = 0; i < th->ncores; i++)
        n += core_fits(&sc->rt->cores[th->core_ids[i]], shape, ph);
    if (n != th->units[shape == SHAPE_AIC ? CORE_AIC : CORE_AIV][ph])
        abort();
#endif
    (void)sc;
    return th->units[shape == SHAPE_AIC ? CORE_AIC : CORE_AIV][ph];
}

/* Could some MIX block (any two or three cores of a cluster) be placed at this phase? */
static bool mix_possible(const sched *sc, const sched_thread *th, stage_phase ph)
{
#ifdef PTOSIM_CHECK_UNITS /* verify the kept count against a scan */
    bool any = false;
    for (int i = 0; i < th->nclusters; i++) {
        int ids[3], fit = 0;
        cluster_cores(sc, th->cluster_ids[i], 7, ids);
        for (int k = 0; k < 3; k++)
            fit += core_phase_fits(&sc->rt->cores[ids[k]], ph);
        any |= fit >= 2;
    }
    if (any != (th->mix_units[ph] > 0))
        abort();
#endif
    (void)sc;
    return th->mix_units[ph] > 0;
}

/* has_idle_in_other_threads: a peer with an idle unit of this shape takes the
 * work before anyone fills a pending slot. */
static inline bool other_has_idle(const sched *sc, int ti, int shape)
{
#ifdef PTOSIM_CHECK_UNITS /* verify the kept bits against the counts */
    for (int t = 0; t < r->nsched; t++)
        if ((units(sc, &sc->threads[t], shape, 7, STAGE_IDLE) > 0) != ((sc->idle_threads[shape] >> t) & 1))
            abort();
#endif
    return (sc->idle_threads[shape] & ~(1u << ti)) != 0;
}

/* One core's share of a publish batch. */
typedef struct dispatch_slot {
    int core;
    uint64_t task_id;
    int block;
    int subslot;     /* task subslot whose kernel runs there */
    bool to_pending; /* into the pending slot of a running core */
} dispatch_slot;

static int single_subslot(const task *tk)
{
    for (int s = 0; s < 3; s++)
        if (tk->mask & (1u << s))
            return s;
    return 0;
}

/* The extra pickup latency of a core's first task: half of the cores (odd
 * ids) pay 2.5-5 us of NoC routing, spread deterministically (model/README.md §9.2). */
static ps_t first_task_extra(const sched *sc, int k)
{
    const rt *r = sc->rt;
    if (!(k & 1))
        return 0;
    if (r->cost.first_max <= r->cost.first_min)
        return r->cost.first_min;
    uint64_t h = ((uint64_t)(uint32_t)k * 2654435761u) >> 8;
    return r->cost.first_min + h % (r->cost.first_max - r->cost.first_min + 1);
}

/* Publishes a batch: one store barrier, one dispatch timestamp, then one MMIO
 * store per subtask; fixes each core's timeline (model/README.md §7.1, §8.2). A
 * gated batch (early dispatch) waits for its doorbell: no start yet. */
static void publish(sched *sc, int ti, dispatch_slot *batch, int n, ps_t *cur, bool gated)
{
    rt *r = sc->rt;
    /* args dump: a task's inputs are captured before its first block goes out */
    ps_t dumped = 0;
    for (int i = 0; r->dump_on && i < n; i++) {
        task *tk = rt_task(r, batch[i].task_id);
        if (tk && tk->dump) {
            ps_t d = capture(sc, ti, tk, DUMP_BEFORE_DISPATCH, *cur);
            *cur += d;
            dumped += d;
        }
    }
    *cur += r->cost.wmb;
    ps_t ts = *cur; /* one get_sys_cnt for the whole batch */
    for (int i = 0; i < n; i++) {
        core *co = &r->cores[batch[i].core];
        unsigned before = phase_bits(co);
        task *tk = rt_task(r, batch[i].task_id);
        core_slot *s = batch[i].to_pending ? &co->pend : &co->run;
        /* a pending token is read after the running task's FIN and record commit */
        ps_t ready = batch[i].to_pending ? co->run.end + co->run.wb : co->free_at;
        ps_t prev_wb = co->picked_up ? co->run.wb : 0; /* the commit this pickup may wait for */
        s->task_id = batch[i].task_id;
        s->block = batch[i].block;
        s->subslot = batch[i].subslot;
        s->reg = core_next_reg(co);
        s->dispatch = ts;
        s->dump_pre = dumped;
        ps_t seen = ts + (ps_t)i * r->cost.store + r->cost.visible;
        s->seen = seen;
        s->receive = seen > ready ? seen : ready;
        if (ready > seen) /* the part of the wait the record commit caused */
            r->record_wb_delay += ready - seen < prev_wb ? ready - seen : prev_wb;
        /* this execution's own costs: the constants, or variation draws (--seed). A core's first
         * swimlane record is written back to lines it never touched since launch: a cold write-back,
         * which a switch right after its first task waits for (model/README.md §9.2) */
        s->setup = vary_draw(&r->vr, r->cost.setup, r->cost.setup_spread);
        s->wb = vary_draw(&r->vr, r->cost.record_wb + (co->picked_up ? 0 : r->cost.cold_record),
                          r->cost.record_spread);
        s->dur = vary_draw(&r->vr, tk->dur[batch[i].subslot], r->cost.kernel_spread);
        if (!co->picked_up) {
            s->receive += first_task_extra(sc, co->id);
            co->picked_up = true;
        }
        s->gated = gated;
        s->ring = PS_NEVER;
        if (gated) {
            s->start = s->end = PS_NEVER; /* fixed when the doorbell rings */
            tk->staged_mask[co->id / 64] |= 1ULL << (co->id % 64);
        } else {
            s->start = s->receive + s->setup;
            s->end = s->start + s->dur;
            co->free_at = s->end + s->wb;
            expect_flow(sc, co, s);
        }
        co->pending_occupied = true; /* cleared when the AICPU sees this task's ACK */
        if (batch[i].to_pending) {
            co->has_pending = true;
            r->pending_dispatches++;
        } else {
            co->busy = true;
        }
        track(sc, co, before);
    }
    *cur += (ps_t)n * r->cost.store;
    sc->threads[ti].dispatched += (uint64_t)n;
    /* a flagged producer whose last block is out tells its consumers (early dispatch) */
    for (int i = 0; i < n; i++) {
        task *tk = rt_task(r, batch[i].task_id);
        tk->subtasks_published++;
        if (!gated)
            rt_propagate_dispatch(r, tk, r->now);
    }
}

static void notify_shape(sched *sc, int shape, ps_t t);

/* dispatch_shape: pops up to as many tasks as there are units, claims block
 * ranges (re-pushing a task whose blocks remain), prepares each subtask, and
 * publishes the batch. Returns subtasks published, or for early staging the
 * blocks staged (what the runtime's early_dispatch record counts:
 * stage_consumer_blocks, scheduler_dispatch.cpp); -1 on failure. */
static void enter_drain(sched *sc, int ti, task *tk, bool gated);

/* How many tasks dispatch_shape pops at most: MIX as many as the thread has
 * clusters, AIC/AIV as many as it has usable cores. */
static inline int dispatch_want(const sched *sc, const sched_thread *th, int shape, stage_phase ph)
{
    return shape == SHAPE_MIX ? (mix_possible(sc, th, ph) ? th->nclusters : 0) : units(sc, th, shape, 7, ph);
}

static int dispatch_shape(sched *sc, int ti, readyq *q, int shape, stage_phase ph, ps_t *cur,
                          bool *entered_drain, bool early, bool local_first)
{
    rt *r = sc->rt;
    sched_thread *th = &sc->threads[ti];
    /* local-first (sched_local_ready): this thread's own buffer, newest first, then the global queue */
    int *nlocal = local_first ? &th->nlocal[shape] : NULL;
    int want = dispatch_want(sc, th, shape, ph);
    if (want == 0)
        return 0;
    if (q->len == 0 && !(nlocal && *nlocal)) {
        th->pop_miss++;
        return 0;
    }
    dispatch_slot batch[PLATFORM_MAX_CORES];
    int nb = 0, blocks = 0;
    int popped = 0;
    uint64_t requeue[PLATFORM_MAX_CORES];
    int nrequeue = 0;
    while (popped < want && (q->len || (nlocal && *nlocal)) &&
           (shape == SHAPE_MIX || units(sc, th, shape, 7, ph) > 0)) {
        uint64_t tid;
        if (nlocal && *nlocal)
            tid = th->local[shape][--*nlocal];
        else
            readyq_pop(q, &tid);
        popped++;
        th->pop_hit++;
        *cur += r->cost.pop;
        task *tk = rt_task(r, tid);
        if (early && (!tk || tk->early != EARLY_STAGING || tk->queued))
            continue; /* released or routed meanwhile: a stale candidate is dropped */
        if (!tk) {
            rt_error(r, "internal: queued task %" PRIu64 " is not live", tid);
            return -1;
        }
        if (tk->sync_start && ph != STAGE_IDLE) {
            requeue[nrequeue++] = tid; /* sync-start blocks never take pending slots */
            continue;
        }
        int avail = units(sc, th, shape, tk->mask, ph);
        if (tk->sync_start && avail < tk->block_num) {
            /* not every block fits this thread's idle cores: the global drain */
            if (nb) {
                publish(sc, ti, batch, nb, cur, early);
                nb = 0;
            }
            if (r->drain.active)
                requeue[nrequeue++] = tid;
            else
                enter_drain(sc, ti, tk, false);
            *entered_drain = true;
            break;
        }
        if (avail == 0) {
            requeue[nrequeue++] = tid; /* no cluster fits this task's cores at this phase */
            continue;
        }
        int take = tk->block_num - tk->blocks_claimed;
        if (take > avail)
            take = avail;
        blocks += take;
        int first_block = tk->blocks_claimed;
        tk->blocks_claimed += take;
        if (tk->blocks_claimed < tk->block_num)
            requeue[nrequeue++] = tid; /* re-pushed before preparing, so peers can claim the rest */
        for (int b = 0; b < take; b++) {
            if (shape == SHAPE_MIX) {
                for (int i = 0; i < th->nclusters; i++) {
                    int cl = th->cluster_ids[i];
                    if (!cluster_fits(sc, cl, tk->mask, ph))
                        continue;
                    int ids[3];
                    int n = cluster_cores(sc, cl, tk->mask, ids);
                    for (int k = 0; k < n; k++) {
                        core *co = &r->cores[ids[k]];
                        batch[nb++] =
                            (dispatch_slot){ids[k], tid, first_block + b, co->subslot, ph == STAGE_PENDING};
                        /* reserve it for this batch */
                        unsigned before = phase_bits(co);
                        if (ph == STAGE_IDLE)
                            co->busy = true;
                        else
                            co->has_pending = true;
                        track(sc, co, before);
                        *cur += r->cost.payload;
                        if (ph == STAGE_IDLE)
                            co->owned_from = *cur;
                    }
                    break;
                }
            } else {
                for (int i = 0; i < th->ncores; i++) {
                    core *co = &r->cores[th->core_ids[i]];
                    if (!core_fits(co, shape, ph))
                        continue;
                    batch[nb++] = (dispatch_slot){co->id, tid, first_block + b, single_subslot(tk),
                                                  ph == STAGE_PENDING};
                    unsigned before = phase_bits(co);
                    if (ph == STAGE_IDLE)
                        co->busy = true;
                    else
                        co->has_pending = true;
                    track(sc, co, before);
                    *cur += r->cost.payload;
                    if (ph == STAGE_IDLE)
                        co->owned_from = *cur;
                    break;
                }
            }
        }
        if (tk->sync_start) { /* local fast path: every block at once, its own store barrier */
            publish(sc, ti, batch, nb, cur, early);
            nb = 0;
        }
    }
    if (nb) /* publish turns the reservations into the real state (its track counts from them) */
        publish(sc, ti, batch, nb, cur, early);
    for (int i = 0; i < nrequeue; i++) {
        if (readyq_push(q, requeue[i]) != 0) {
            rt_error(r, "out of memory in a ready queue");
            return -1;
        }
    }
    if (nrequeue && !early)
        notify_shape(sc, shape, r->now);
    if (!early)
        return nb;
    r->early_staged += (uint64_t)blocks;
    return blocks;
}

/* One step of the runtime's staging order: a shape into idle units or pending slots. */
typedef struct staging_step {
    int shape;
    stage_phase ph;
} staging_step;

/* The staging order of thread ti: MIX, then AIC/AIV (AIC first on even
 * threads, AIV first on odd ones), into idle units, then the same into
 * pending slots. */
static void staging_order(int ti, staging_step out[6])
{
    int first = ti % 2 == 0 ? SHAPE_AIC : SHAPE_AIV, second = first == SHAPE_AIC ? SHAPE_AIV : SHAPE_AIC;
    const staging_step order[6] = {{SHAPE_MIX, STAGE_IDLE}, {first, STAGE_IDLE},
                                   {second, STAGE_IDLE},    {SHAPE_MIX, STAGE_PENDING},
                                   {first, STAGE_PENDING},  {second, STAGE_PENDING}};
    memcpy(out, order, sizeof(order));
}

bool sched_push_local(sched *sc, int ti, const task *tk)
{
    sched_thread *th = &sc->threads[ti];
    if (th->nlocal[tk->shape] >= SCHED_LOCAL_READY_CAP)
        return false;
    th->local[tk->shape][th->nlocal[tk->shape]++] = tk->id;
    return true;
}

/* Moves entries [from, nlocal) of a local buffer to the global queue, oldest
 * first, and wakes the peers that can take them. */
static void local_to_global(sched *sc, int ti, int shape, int from)
{
    rt *r = sc->rt;
    sched_thread *th = &sc->threads[ti];
    for (int i = from; i < th->nlocal[shape]; i++)
        if (readyq_push(&r->ready[shape], th->local[shape][i]) != 0) {
            rt_error(r, "out of memory in a ready queue");
            return;
        }
    th->nlocal[shape] = from;
    notify_shape(sc, shape, r->now);
}

/* Before dispatching, the overflow a thread cannot place even in its pending
 * slots goes to the global queue when a peer has an idle unit of the shape
 * (the per-shape budget: its share of the clusters, times the shape's cores
 * per cluster; dispatch_ready_tasks of the runtime before #1245). */
static void spill_local(sched *sc, int ti)
{
    rt *r = sc->rt;
    sched_thread *th = &sc->threads[ti];
    int per = (int)r->plat.clusters / r->nsched;
    const int budget[3] = {per, 2 * per, per};
    for (int s = 0; s < 3; s++)
        if (th->nlocal[s] > budget[s] && other_has_idle(sc, ti, s))
            local_to_global(sc, ti, s, budget[s]);
}

/* What is left in the local buffers becomes visible to every thread. */
static void flush_local(sched *sc, int ti)
{
    for (int s = 0; s < 3; s++)
        if (sc->threads[ti].nlocal[s])
            local_to_global(sc, ti, s, 0);
}

/* run_staging_order over the regular ready queues: MIX on idle clusters; AIC
 * and AIV on idle cores (AIC first on even threads), unless MIX work is left;
 * not under PMU: MIX, then AIC/AIV into pending slots, each only when no other
 * thread has an idle unit of that shape. */
static int dispatch_ready(sched *sc, int ti, ps_t *cur)
{
    rt *r = sc->rt;
    uint32_t shared[3] = {0, 0, 0};
    if (r->sl.level >= 3) /* only level 3 records carry the queue depths */
        rt_queue_depths(r, shared);
    ps_t start = *cur;
    /* the stages in order; a pending stage is skipped under PMU or when a peer has an idle unit */
    staging_step stages[6];
    staging_order(ti, stages);
    int n = 0;
    bool drained = false;
    /* tier 0: the sync-start lane; tier 1: the regular ready queues */
    for (int tier = 0; tier < 2 && !drained; tier++) {
        readyq *lane = tier == 0 ? r->ready_sync : r->ready;
        bool local = tier == 1 && r->plat.sched_local_ready;
        if (local)
            spill_local(sc, ti);
        for (int i = 0; i < 6 && !drained; i++) {
            int shape = stages[i].shape;
            if (stages[i].ph == STAGE_PENDING && (single_issue(sc) || other_has_idle(sc, ti, shape)))
                continue;
            if (shape != SHAPE_MIX && (lane[SHAPE_MIX].len || (local && sc->threads[ti].nlocal[SHAPE_MIX])))
                continue; /* AIC/AIV wait while MIX work is queued */
            if (local && i == 3)
                flush_local(sc, ti); /* between the idle and the pending stages */
            /* dispatch_shape's own early exits, here: most stages find nothing to
             * place or nothing queued, and its batch frame is large */
            if (dispatch_want(sc, &sc->threads[ti], shape, stages[i].ph) == 0)
                continue;
            if (lane[shape].len == 0 && !(local && i < 3 && sc->threads[ti].nlocal[shape])) {
                sc->threads[ti].pop_miss++;
                continue;
            }
            int got = dispatch_shape(sc, ti, &lane[shape], shape, stages[i].ph, cur, &drained, false,
                                     local && i < 3);
            if (got < 0)
                return n;
            n += got;
        }
    }
    if (r->plat.sched_local_ready)
        flush_local(sc, ti); /* every exit flushes (the runtime's FlushGuard) */
    if (n) {
        add_phase(sc, ti, PH_DISPATCH, start, *cur, (uint32_t)n, 0, shared);
        /* cores this thread just filled may leave work that peers can now put in pending slots */
        for (int s = 0; s < 3; s++)
            notify_shape(sc, s, r->now);
    }
    return n;
}

static int stage_cohort(sched *sc, int ti, task *tk, int want, bool gated, bool record, ps_t t, ps_t *end);
static int cohort_capacity(const sched *sc, const sched_thread *th, const task *tk, bool gated);

/* Tier 0 of early dispatch (try_early_dispatch, scheduler_dispatch.cpp): one
 * sync-start candidate per pass. Its owner stages the whole cohort, gated, on
 * its own idle and pending slots when they hold it; otherwise it claims the
 * global drain, which does the same across every thread. Never part of a
 * cohort: a partial one would hold gated cores nobody can ring. Returns
 * blocks staged. */
static int early_sync_cohort(sched *sc, int ti, ps_t *cur)
{
    rt *r = sc->rt;
    uint64_t tid;
    if (readyq_pop(&r->early_sync, &tid) != 0)
        return 0;
    *cur += r->cost.pop;
    task *tk = rt_task(r, tid);
    if (!tk || tk->early != EARLY_STAGING || tk->queued)
        return 0; /* released meanwhile: its entry is dropped */
    if (r->drain.active) {
        /* the drain slot is taken: back in the queue (cancel_early_sync_drain) */
        if (readyq_push(&r->early_sync, tid) != 0)
            rt_error(r, "out of memory in an early-dispatch queue");
        return 0;
    }
    if (cohort_capacity(sc, &sc->threads[ti], tk, true) < tk->block_num) {
        enter_drain(sc, ti, tk, true);
        return 0;
    }
    ps_t end;
    int n = stage_cohort(sc, ti, tk, tk->block_num, true, false, *cur, &end);
    *cur = end;
    r->early_staged += (uint64_t)n;
    rt_sync_rendezvous(r, tk, end);
    return n;
}

/* Phase 4b (model/README.md §8.5): with PMU off, a free slot, and every normal
 * ready queue empty, stage early-dispatch candidates as gated payloads: a
 * sync-start cohort first, then the others in the normal staging order.
 * Returns blocks staged. */
static int try_early_dispatch(sched *sc, int ti, ps_t *cur)
{
    rt *r = sc->rt;
    if (single_issue(sc) || !(r->early[0].len + r->early[1].len + r->early[2].len + r->early_sync.len))
        return 0;
    for (int s = 0; s < 3; s++)
        if (r->ready[s].len || r->ready_sync[s].len)
            return 0; /* normal work strictly before speculative work */
    sched_thread *th = &sc->threads[ti];
    if (units(sc, th, SHAPE_AIC, 7, STAGE_IDLE) + units(sc, th, SHAPE_AIV, 7, STAGE_IDLE) +
            units(sc, th, SHAPE_AIC, 7, STAGE_PENDING) + units(sc, th, SHAPE_AIV, 7, STAGE_PENDING) ==
        0)
        return 0; /* no free slot */
    ps_t start = *cur;
    staging_step stages[6];
    staging_order(ti, stages);
    int n = early_sync_cohort(sc, ti, cur);
    bool unused = false;
    for (int i = 0; i < 6; i++) {
        int shape = stages[i].shape;
        if (stages[i].ph == STAGE_PENDING && other_has_idle(sc, ti, shape))
            continue;
        int got = dispatch_shape(sc, ti, &r->early[shape], shape, stages[i].ph, cur, &unused, true, false);
        if (got < 0)
            break;
        n += got;
    }
    if (n)
        add_phase(sc, ti, PH_EARLY_DISPATCH, start, *cur, (uint32_t)n, 0, NULL);
    return n;
}

/* sched_wire_batch (the runtime before hw-native-sys/simpler #1263): thread 0
 * wires submitted tasks (pto_scheduler.h drain_wiring_queue, called every
 * iteration between the completion and dispatch phases). A queue shorter than a
 * batch is popped only on every 33rd call (a backoff of 32), unless
 * orchestration has ended; a popped batch is wired whole, each task costing
 * wire_task_ns + wire_edge_ns a fanin edge, and reaches the global ready
 * queues at the end of its own wiring (EV_WIRE_DONE). Returns how many. */
static int drain_wiring(sched *sc, int ti, ps_t *cur)
{
    rt *r = sc->rt;
    sched_thread *th = &sc->threads[ti];
    if (ti != 0 || !r->plat.sched_wire_batch)
        return 0;
    uint64_t batch = (uint64_t)r->plat.sched_wire_batch;
    if (!rt_orch_done(r) && r->wireq.len < batch &&
        (th->loop_iter - th->wire_base_iter) % (SCHED_WIRE_BACKOFF + 1) < SCHED_WIRE_BACKOFF)
        return 0;
    th->wire_base_iter = th->loop_iter + 1; /* the pop resets the backoff */
    int n = 0;
    uint64_t id;
    while ((uint64_t)n < batch && readyq_pop(&r->wireq, &id) == 0) {
        const task *tk = rt_task(r, id);
        if (!tk) {
            rt_error(r, "internal: task %" PRIu64 " to wire is not live", id);
            return n;
        }
        *cur += r->cost.wire_task + (ps_t)tk->nlinks * r->cost.wire_edge;
        rt_schedule(r, *cur, EV_WIRE_DONE, (uint32_t)ti, id);
        n++;
    }
    return n;
}

/* Drains up to 8 dependency-only tasks (threads 0-2). Returns how many. */
static int drain_dummies(sched *sc, int ti, ps_t *cur)
{
    rt *r = sc->rt;
    if (ti >= SCHED_DUMMY_THREADS || r->dummyq.len == 0)
        return 0;
    ps_t start = *cur;
    int n = 0;
    uint64_t tid;
    while (n < SCHED_DUMMY_PER_ITER && readyq_pop(&r->dummyq, &tid) == 0) {
        task *tk = rt_task(r, tid);
        if (!tk) {
            rt_error(r, "internal: queued dummy %" PRIu64 " is not live", tid);
            return n;
        }
        add_phase(sc, ti, tk->predicate ? PH_DUMMY_TASK : PH_PREDICATED_SKIP, *cur, *cur, 1, tid, NULL);
        *cur += walk_cost(sc, tk);
        rt_schedule(r, *cur, EV_TASK_DONE, (uint32_t)ti, tid);
        n++;
    }
    add_phase(sc, ti, PH_DUMMY, start, *cur, (uint32_t)n, 0, NULL);
    return n;
}

/* Runs every queued deferred release. Returns how many. */
static int run_releases(sched *sc, int ti, ps_t *cur)
{
    rt *r = sc->rt;
    sched_thread *th = &sc->threads[ti];
    size_t n = th->ndeferred;
    if (!n)
        return 0;
    ps_t start = *cur;
    for (size_t i = 0; i < n; i++) {
        task *tk = rt_task(r, th->deferred[i]);
        if (tk)
            rt_release(r, tk, *cur);
        *cur += r->cost.release;
    }
    th->ndeferred = 0;
    add_phase(sc, ti, PH_RELEASE, start, *cur, (uint32_t)n, 0, NULL);
    return (int)n;
}

void sched_defer_release(sched *sc, int ti, uint64_t task_id, ps_t t)
{
    rt *r = sc->rt;
    sched_thread *th = &sc->threads[ti];
    if (th->ndeferred >= SCHED_DEFERRED_CAP) {
        /* a full queue is drained before the next push (scheduler_completion.cpp) */
        ps_t cur = t;
        run_releases(sc, ti, &cur);
    }
    if (vec_grow((void **)&th->deferred, &th->deferred_cap, th->ndeferred, sizeof(*th->deferred)) != 0) {
        rt_error(r, "out of memory for deferred releases");
        return;
    }
    th->deferred[th->ndeferred++] = task_id;
}

/* ---- idle: sleeping, waking, the no-progress timeout ---- */

/* Would queued work make this thread want to see its running tasks' ACKs
 * (to fill pending slots)? */
static bool wants_acks(const sched *sc)
{
    const rt *r = sc->rt;
    if (single_issue(sc))
        return false;
    for (int s = 0; s < 3; s++)
        if (r->ready[s].len)
            return true;
    return false;
}

/* Iteration j >= 1 of a sleep, the first whose time base + j*P + offset is at or after `at`. */
static uint64_t first_iter_at(const sched_thread *th, ps_t offset, ps_t at)
{
    ps_t first = th->sleep_base + offset;
    if (at <= first + th->sleep_period)
        return 1;
    return (at - first + th->sleep_period - 1) / th->sleep_period;
}

/* Notes the first idle iteration of this sleep whose check finds no progress
 * for longer than the timeout, if it comes before the wake-up. A thread keeps
 * at most one timeout event queued: sleeps come and go a million times, and
 * their (10 s later) timeouts would otherwise fill the event queue. */
static void arm_timeout(sched *sc, sched_thread *th)
{
    rt *r = sc->rt;
    ps_t polls = (ps_t)th->sleep_nbusy * r->cost.poll;
    ps_t due = th->last_progress + r->cfg.scheduler_timeout + 1; /* strictly more than the timeout */
    if (th->wake_at != PS_NEVER && due >= th->wake_at + polls) {
        th->timeout_due = PS_NEVER; /* the wake-up comes first (what the division below would find) */
        return;
    }
    uint64_t j = first_iter_at(th, polls, due);
    ps_t at = th->sleep_base + j * th->sleep_period;
    th->timeout_due = PS_NEVER;
    if (at >= th->wake_at)
        return;
    th->timeout_due = at + polls > r->now ? at + polls : r->now;
    if (th->timeout_event_at <= th->timeout_due)
        return; /* the queued one fires first and looks again */
    th->timeout_event_at = th->timeout_due;
    rt_schedule(r, th->timeout_due, EV_SCHED_TIMEOUT, (uint32_t)th->index, 0);
}

void sched_on_timeout_event(sched *sc, int ti, ps_t t)
{
    rt *r = sc->rt;
    sched_thread *th = &sc->threads[ti];
    if (t != th->timeout_event_at)
        return; /* replaced by an earlier one */
    th->timeout_event_at = PS_NEVER;
    ps_t due = th->sleeping ? th->timeout_due : PS_NEVER;
    if (due == PS_NEVER)
        return; /* awake: its next sleep arms it again */
    if (r->dump_on && due < r->dump.freeze_until)
        due = r->dump.freeze_until; /* a parked thread checks nothing */
    if (due > t) {
        th->timeout_event_at = due;
        rt_schedule(r, due, EV_SCHED_TIMEOUT, (uint32_t)ti, 0);
        return;
    }
    sched_on_timeout(sc, ti, t);
}

static void plan_wake(sched *sc, sched_thread *th);
static void check_this_iteration(sched *sc, sched_thread *th);

/* Nothing happened this iteration: sleep until a poll can observe a change. */
static void go_to_sleep(sched *sc, sched_thread *th)
{
    rt *r = sc->rt;
    ps_t poll = r->cost.poll;
    int nbusy = th->npolled;
    th->sleeping = true;
    th->sleep_base = th->iter_start;
    th->sleep_nbusy = nbusy;
    th->sleep_period = (ps_t)nbusy * poll + r->cost.idle_iter;
    th->sleep_base_iter = th->loop_iter;
    th->sleep_misses_per_iter = 0;
    for (int s = 0; s < 3; s++)
        th->sleep_misses_per_iter += units(sc, th, s, 7, STAGE_IDLE) > 0;
    plan_wake(sc, th);
    check_this_iteration(sc, th);
    if (th->index == 0)
        sched_notify_wiring(sc, th->iter_start); /* tasks it backed off from */
}

/* The iteration that just found nothing is an idle one too, and the runtime checks the timeout in
 * every iteration without progress (scheduler_dispatch.cpp); arm_timeout looks from the sleep's next
 * iteration on. It matters to a thread woken for a queued task another thread takes first: that
 * iteration falls in the hand-off. */
static void check_this_iteration(sched *sc, sched_thread *th)
{
    rt *r = sc->rt;
    if (th->last_progress + r->cfg.scheduler_timeout + 1 > r->now)
        return;
    if (r->dump_on && r->now < r->dump.freeze_until)
        return; /* parked: arm_timeout's event looks again after the park */
    th->timeout_due = r->now;
    if (th->timeout_event_at <= r->now)
        return;
    th->timeout_event_at = r->now;
    rt_schedule(r, r->now, EV_SCHED_TIMEOUT, (uint32_t)th->index, 0);
}

/* The first idle iteration of a sleeping thread that can observe a change on
 * one of its cores: schedules it (and the timeout check, if that comes
 * first). Called again when a running task's end moves. */
static void plan_wake(sched *sc, sched_thread *th)
{
    rt *r = sc->rt;
    ps_t poll = r->cost.poll;
    const ps_t *due = wants_acks(sc) ? th->due : th->due_fin;
    ps_t wake = PS_NEVER, first = PS_NEVER;
    int kb = 0;
    /* iteration j samples the kb-th polled core at base + j*P + kb*poll, so
     * the first iteration that sees it is monotone in due - kb*poll: one
     * division for the earliest instead of one per core */
    for (int i = next_polled(th, 0); i >= 0; i = next_polled(th, i + 1)) {
        ps_t off = (ps_t)kb++ * poll;
        ps_t key = due[i] >= off ? due[i] - off : 0;
        if (key < first)
            first = key;
    }
    if (kb)
        wake = th->sleep_base + first_iter_at(th, 0, first) * th->sleep_period;
    th->gen++;
    th->wake_at = wake;
    if (wake != PS_NEVER)
        rt_set_wake(r, th->index, wake);
    else
        rt_clear_wake(r, th->index);
    arm_timeout(sc, th);
}

/* Counts not-yet-completed tasks by state for the stall report at time t, as classify_stall_reason
 * (scheduler_cold_path.cpp) does: running is read from core ownership (running_slot_state), so a task in a
 * pending slot, or one whose payload is still being built, counts as ready. */
static void classify_stall(sched *sc, ps_t t, int *running, int *ready, int *waiting, uint64_t *stuck,
                           int *stuck_core)
{
    rt *r = sc->rt;
    *running = *ready = *waiting = 0;
    *stuck = UINT64_MAX;
    *stuck_core = -1;
    for (int ring = 0; ring < RING_COUNT; ring++) {
        task_ring *tr = &r->rings[ring];
        for (uint32_t l = tr->last_alive; l != tr->next_local; l++) {
            task *tk = &tr->slots[l & (tr->window - 1)];
            if (tk->state != TASK_PENDING || tk->shape == SHAPE_ALLOC)
                continue;
            int on = -1;
            for (int k = 0; k < r->ncores && on < 0; k++)
                if (r->cores[k].busy && core_owned_at(&r->cores[k], t) && r->cores[k].run.task_id == tk->id)
                    on = k;
            if (on >= 0) {
                if (!*running)
                    *stuck = tk->id, *stuck_core = on;
                (*running)++;
            } else if (tk->published && tk->fanin_refcount >= tk->fanin_count) {
                (*ready)++;
            } else {
                (*waiting)++;
            }
        }
    }
}

void sched_on_timeout(sched *sc, int ti, ps_t t)
{
    rt *r = sc->rt;
    sched_thread *th = &sc->threads[ti];
    bool self_owns = false, anyone_owns = false;
    for (int k = 0; k < r->ncores; k++)
        if (core_owned_at(&r->cores[k], t)) {
            anyone_owns = true;
            self_owns |= r->cores[k].thread == ti;
        }
    bool global_stuck = !self_owns && r->tasks_completed < r->tasks_submitted && !anyone_owns;
    if (!self_owns && !global_stuck) {
        th->last_progress = t; /* nothing of ours is stuck: keep spinning */
        arm_timeout(sc, th);
        return;
    }
    if (r->status != CHIP_RUNNING)
        return; /* another error ended the run first; its message stands */
    int running, ready, waiting, stuck_core;
    uint64_t stuck;
    classify_stall(sc, t, &running, &ready, &waiting, &stuck, &stuck_core);
    int detail = running ? 1 : ready ? 3 : waiting ? 4 : !rt_orch_done(r) ? 5 : 99;
    /* the message is the host's sub_class= line (runtime_maker.cpp validate_runtime_impl) */
    rt_fatal(r, 100,
             "PTO2 scheduler timeout sub_class=%s (detail=%d) completed=%" PRIu64 "/%" PRIu64
             " running=%d ready=%d waiting=%d orch_done=%d stuck_task_id=%" PRId64 " stuck_core=%d",
             rterr_stall_name(detail), detail, r->tasks_completed, r->tasks_submitted, running, ready,
             waiting, rt_orch_done(r) ? 1 : 0, stuck == UINT64_MAX ? (int64_t)-1 : (int64_t)stuck,
             stuck_core);
    int n = snprintf(r->note, sizeof(r->note), "scheduler thread %d made no progress for %.3f ms", ti,
                     (double)(t - th->last_progress) / (double)PS_PER_MS);
    /* The runtime's idle thread judges the whole chip by one look at the cores. A dispatch whose
     * payload is still being built (popped, running_slot_state not yet set) is a hand-off, not a
     * stall: say so, since the sub_class line alone reads as a hang. */
    int handoff = -1;
    for (int k = 0; k < r->ncores && handoff < 0; k++)
        if (r->cores[k].busy && t < r->cores[k].owned_from)
            handoff = k;
    if (global_stuck && handoff >= 0 && n > 0 && (size_t)n < sizeof(r->note))
        snprintf(r->note + n, sizeof(r->note) - (size_t)n,
                 "; yet the run was not stuck: it looked while a dispatch to core %d was being prepared "
                 "(the last task completed %.3f us before), a hand-off in which no thread owns a running "
                 "task, and the runtime's check reads that as a stall on silicon too; raise "
                 "--scheduler-timeout-ms to run past it",
                 handoff, (double)(t - r->last_completion) / (double)PS_PER_US);
}

/* ---- the sync-start drain (model/README.md §8.4) ---- */

static void kick(sched *sc, int ti, ps_t t);

/* Claims the single global drain for task tk, gated for an early cohort;
 * every thread joins it at its next iteration (sleeping ones are woken). */
static void enter_drain(sched *sc, int ti, task *tk, bool gated)
{
    rt *r = sc->rt;
    drain_state *d = &r->drain;
    (void)ti;
    d->active = true;
    d->task_id = tk->id;
    d->gated = gated;
    d->attempt++;
    d->arrived = 0;
    memset(d->at_barrier, 0, sizeof(d->at_barrier));
    d->drains++;
    for (int t = 0; t < r->nsched; t++)
        kick(sc, t, r->now);
}

/* Thread ti reached the drain check of its iteration at time t: it waits at
 * the acknowledgement tree; the last arrival lets thread 0 decide. */
static void drain_arrive(sched *sc, int ti, ps_t t)
{
    rt *r = sc->rt;
    drain_state *d = &r->drain;
    if (d->at_barrier[ti])
        return;
    d->at_barrier[ti] = true;
    d->arrive_at[ti] = t;
    if (++d->arrived == r->nsched)
        rt_schedule(r, t + r->cost.drain_sync, EV_DRAIN_RESOLVE, 0, d->attempt);
}

/* Can every core of cluster cl that the task uses take a gated block, idle
 * (running slot) or busy with a free pending slot? A gated MIX block is split
 * core by core (mix_cluster_all_slots, scheduler_types.h). */
static bool split_fits(const sched *sc, int cl, uint8_t mask)
{
    const rt *r = sc->rt;
    int ids[3];
    int n = cluster_cores(sc, cl, mask, ids);
    for (int i = 0; i < n; i++)
        if (!core_phase_fits(&r->cores[ids[i]], STAGE_IDLE) &&
            !core_phase_fits(&r->cores[ids[i]], STAGE_PENDING))
            return false;
    return n > 0;
}

/* Blocks of sync-start task tk that thread th could place now
 * (count_available_blocks, scheduler_types.h): idle units, plus pending slots
 * for a gated cohort. */
static int cohort_capacity(const sched *sc, const sched_thread *th, const task *tk, bool gated)
{
    int n = units(sc, th, tk->shape, tk->mask, STAGE_IDLE);
    if (!gated)
        return n;
    if (tk->shape != SHAPE_MIX)
        return n + units(sc, th, tk->shape, tk->mask, STAGE_PENDING);
    n = 0;
    for (int i = 0; i < th->nclusters; i++)
        n += split_fits(sc, th->cluster_ids[i], tk->mask);
    return n;
}

/* Thread ti places up to `want` blocks of sync-start task tk on its own cores
 * at time t (stage_sync_start_cores, scheduler_completion.cpp): a ready
 * cohort on idle units only; a gated (early) one on idle cores' running
 * slots, then on busy cores' pending slots, a MIX block split core by core.
 * Each pass is one publish batch; with `record` it leaves its drain_prepare
 * and drain_publish records. The gated cores that took running slots count
 * towards the rendezvous. Returns blocks staged; *end is when the last
 * publish finished (t if none). */
static int stage_cohort(sched *sc, int ti, task *tk, int want, bool gated, bool record, ps_t t, ps_t *end)
{
    rt *r = sc->rt;
    sched_thread *th = &sc->threads[ti];
    int shape = tk->shape, staged = 0;
    int passes = gated && shape != SHAPE_MIX ? 2 : 1;
    ps_t cur = t;
    for (int pass = 0; pass < passes && staged < want; pass++) {
        dispatch_slot batch[PLATFORM_MAX_CORES];
        int nb = 0;
        ps_t start = cur;
        if (shape == SHAPE_MIX) {
            for (int i = 0; i < th->nclusters && staged < want; i++) {
                int cl = th->cluster_ids[i];
                if (gated ? !split_fits(sc, cl, tk->mask) : !cluster_fits(sc, cl, tk->mask, STAGE_IDLE))
                    continue;
                int ids[3], n = cluster_cores(sc, cl, tk->mask, ids), block = tk->blocks_claimed++;
                for (int k = 0; k < n; k++) {
                    core *co = &r->cores[ids[k]];
                    bool to_pending = co->busy; /* only a gated split finds a busy core here */
                    batch[nb++] = (dispatch_slot){ids[k], tk->id, block, co->subslot, to_pending};
                    unsigned before = phase_bits(co);
                    if (to_pending)
                        co->has_pending = true;
                    else
                        co->busy = true;
                    track(sc, co, before);
                    tk->sync_running += gated && !to_pending;
                    cur += r->cost.payload;
                    if (!to_pending)
                        co->owned_from = cur;
                }
                staged++;
            }
        } else {
            stage_phase ph = pass == 0 ? STAGE_IDLE : STAGE_PENDING;
            for (int i = 0; i < th->ncores && staged < want; i++) {
                core *co = &r->cores[th->core_ids[i]];
                if (!core_fits(co, shape, ph))
                    continue;
                batch[nb++] =
                    (dispatch_slot){co->id, tk->id, tk->blocks_claimed++, single_subslot(tk), pass == 1};
                unsigned before = phase_bits(co);
                if (pass == 1)
                    co->has_pending = true;
                else
                    co->busy = true;
                track(sc, co, before);
                tk->sync_running += gated && pass == 0;
                cur += r->cost.payload;
                if (pass == 0)
                    co->owned_from = cur;
                staged++;
            }
        }
        if (!nb)
            continue;
        ps_t prep_end = cur;
        publish(sc, ti, batch, nb, &cur, gated);
        if (record) {
            add_phase(sc, ti, PH_DRAIN_PREPARE, start, prep_end, (uint32_t)nb, 0, NULL);
            add_phase(sc, ti, PH_DRAIN_PUBLISH, prep_end, cur, (uint32_t)nb, 0, NULL);
        }
    }
    *end = cur;
    return staged;
}

void sched_on_drain_resolve(sched *sc, ps_t t)
{
    rt *r = sc->rt;
    drain_state *d = &r->drain;
    task *tk = rt_task(r, d->task_id);
    if (!tk) {
        rt_error(r, "internal: the drained task %" PRIu64 " is not live", d->task_id);
        return;
    }
    int need = tk->block_num - tk->blocks_claimed, have = 0;
    for (int ti = 0; ti < r->nsched; ti++)
        have += cohort_capacity(sc, &sc->threads[ti], tk, d->gated);
    if (have < need) {
        /* short: another attempt; everyone polls completions once more and returns */
        d->attempt++;
        d->attempts_total++;
        d->arrived = 0;
        memset(d->at_barrier, 0, sizeof(d->at_barrier));
        for (int ti = 0; ti < r->nsched; ti++) {
            sc->threads[ti].loop_iter++;
            rt_schedule(r, t, EV_SCHED_ITER, (uint32_t)ti, sc->threads[ti].gen);
        }
        return;
    }
    /* enough: every thread stages its share of blocks in parallel */
    int staged[PLATFORM_MAX_AICPU_THREADS] = {0};
    ps_t done = t;
    for (int ti = 0; ti < r->nsched && tk->blocks_claimed < tk->block_num; ti++) {
        ps_t end;
        staged[ti] = stage_cohort(sc, ti, tk, tk->block_num - tk->blocks_claimed, d->gated, true, t, &end);
        if (end > done)
            done = end;
        if (d->gated)
            r->early_staged += (uint64_t)staged[ti];
    }
    d->active = false;
    d->staged_any = true;
    /* a gated cohort whose producers released it while the drain ran, and
     * whose blocks all took running slots, launches now
     * (retry_sync_start_rendezvous_after_staging) */
    if (d->gated)
        rt_sync_rendezvous(r, tk, done);
    for (int ti = 0; ti < r->nsched; ti++) {
        sched_thread *th = &sc->threads[ti];
        add_phase(sc, ti, PH_DRAIN, d->arrive_at[ti], done, (uint32_t)staged[ti], 0, NULL);
        if (staged[ti])
            th->last_progress = done;
        th->loop_iter++;
        rt_schedule(r, done, EV_SCHED_ITER, (uint32_t)ti, th->gen);
    }
}

void sched_on_dispatch(sched *sc, int ti, ps_t t)
{
    rt *r = sc->rt;
    sched_thread *th = &sc->threads[ti];
    if (r->drain.active) { /* phase 2: a drain replaces dummy, dispatch and the idle tail */
        drain_arrive(sc, ti, t);
        return;
    }
    ps_t cur = t;
    int progressed = th->iter_completions > 0;
    if (th->wired) {
        th->wired = false; /* resumed after its wiring: that was progress */
        progressed++;
    } else if (drain_wiring(sc, ti, &cur)) {
        /* the dummy and dispatch phases come after the wired tasks are queued */
        th->wired = true;
        rt_schedule_last(r, cur, EV_SCHED_DISPATCH, (uint32_t)ti, th->gen);
        return;
    }
    progressed += drain_dummies(sc, ti, &cur);
    progressed += dispatch_ready(sc, ti, &cur);
    if (!r->drain.active)
        progressed += try_early_dispatch(sc, ti, &cur);
    if (r->status != CHIP_RUNNING)
        return;
    if (r->drain.active) { /* this thread just entered it: it arrives at its next iteration */
        if (progressed)
            th->last_progress = cur;
        th->loop_iter++;
        rt_schedule_last(r, cur + (progressed ? 0 : r->cost.idle_iter), EV_SCHED_ITER, (uint32_t)ti, th->gen);
        return;
    }
    if (progressed) {
        th->last_progress = cur;
        th->loop_iter++;
        rt_schedule_last(r, cur, EV_SCHED_ITER, (uint32_t)ti, th->gen);
        return;
    }
    /* an idle iteration runs the deferred releases; a ring they advance counts as progress */
    uint64_t advances = r->ring_advances;
    if (run_releases(sc, ti, &cur)) {
        if (r->ring_advances != advances)
            th->last_progress = cur;
        th->loop_iter++;
        rt_schedule_last(r, cur + r->cost.idle_iter, EV_SCHED_ITER, (uint32_t)ti, th->gen);
        return;
    }
    go_to_sleep(sc, th);
}

/* Wakes thread ti, if it sleeps, for the first iteration whose dispatch phase
 * starts at or after t. */
static void wake_at_iter(sched *sc, int ti, uint64_t j);

static void kick(sched *sc, int ti, ps_t t)
{
    rt *r = sc->rt;
    sched_thread *th = &sc->threads[ti];
    if (!th->sleeping)
        return;
    ps_t polls = (ps_t)th->sleep_nbusy * r->cost.poll;
    wake_at_iter(sc, ti, first_iter_at(th, polls, t));
}

/* Wakes sleeping thread ti into iteration j of its sleep, unless its poll
 * wake-up comes first (and will see what j would). */
static void wake_at_iter(sched *sc, int ti, uint64_t j)
{
    rt *r = sc->rt;
    sched_thread *th = &sc->threads[ti];
    ps_t polls = (ps_t)th->sleep_nbusy * r->cost.poll;
    ps_t s = th->sleep_base + j * th->sleep_period;
    if (s >= th->wake_at)
        return; /* the poll wake-up comes first and will see the queue */
    th->sleeping = false;
    th->gen++;
    rt_clear_wake(r, ti);
    th->loop_iter = th->sleep_base_iter + j;
    th->pop_miss += (uint32_t)(j - 1) * th->sleep_misses_per_iter;
    th->iter_start = s;
    th->iter_completions = 0;
    rt_schedule(r, s + polls, EV_SCHED_DISPATCH, (uint32_t)ti, th->gen);
}

/* Could thread ti place work of this shape, in any stage? */
static inline bool could_take(const sched *sc, int ti, int shape, uint8_t mask)
{
    const sched_thread *th = &sc->threads[ti];
    /* a running core whose ACK the thread will read in the iteration it wakes into counts */
    if (shape == SHAPE_MIX && mask == 7)
        return mix_possible(sc, th, STAGE_IDLE) || (!single_issue(sc) && mix_possible(sc, th, STAGE_SOON));
    return units(sc, th, shape, mask, STAGE_IDLE) > 0 ||
           (!single_issue(sc) && units(sc, th, shape, mask, STAGE_SOON) > 0);
}

/* Wakes sleeping threads that can place queued work of a shape. */
static void notify_shape(sched *sc, int shape, ps_t t)
{
    rt *r = sc->rt;
    if (r->ready[shape].len == 0 && r->ready_sync[shape].len == 0)
        return;
    for (int ti = 0; ti < r->nsched; ti++)
        if (could_take(sc, ti, shape, 7))
            kick(sc, ti, t);
}

void sched_notify_queued(sched *sc, const task *tk, ps_t t)
{
    rt *r = sc->rt;
    if (tk->shape == SHAPE_DUMMY || !tk->predicate) {
        for (int ti = 0; ti < r->nsched && ti < SCHED_DUMMY_THREADS; ti++)
            kick(sc, ti, t);
        return;
    }
    for (int ti = 0; ti < r->nsched; ti++)
        if (could_take(sc, ti, tk->shape, tk->mask))
            kick(sc, ti, t);
}

void sched_notify_wiring(sched *sc, ps_t t)
{
    rt *r = sc->rt;
    sched_thread *th = &sc->threads[0];
    if (!r->plat.sched_wire_batch || r->wireq.len == 0 || !th->sleeping)
        return; /* an awake thread 0 calls drain_wiring every iteration */
    ps_t polls = (ps_t)th->sleep_nbusy * r->cost.poll;
    uint64_t j = first_iter_at(th, polls, t);
    if (!rt_orch_done(r) && r->wireq.len < (uint64_t)r->plat.sched_wire_batch) {
        /* the first of those iterations whose call ends the backoff */
        uint64_t c = (th->sleep_base_iter + j - th->wire_base_iter) % (SCHED_WIRE_BACKOFF + 1);
        j += SCHED_WIRE_BACKOFF - c;
    }
    wake_at_iter(sc, 0, j);
}

void sched_notify_early(sched *sc, ps_t t)
{
    rt *r = sc->rt;
    for (int ti = 0; ti < r->nsched; ti++) {
        const sched_thread *th = &sc->threads[ti];
        if (units(sc, th, SHAPE_AIC, 7, STAGE_IDLE) + units(sc, th, SHAPE_AIV, 7, STAGE_IDLE) +
                units(sc, th, SHAPE_AIC, 7, STAGE_SOON) + units(sc, th, SHAPE_AIV, 7, STAGE_SOON) >
            0)
            kick(sc, ti, t);
    }
}

void sched_ring_core(sched *sc, int core_id, uint64_t task_id, ps_t t)
{
    rt *r = sc->rt;
    core *co = &r->cores[core_id];
    core_slot *s =
        co->busy && co->run.task_id == task_id && co->run.gated && co->run.ring == PS_NEVER ? &co->run
        : co->has_pending && co->pend.task_id == task_id && co->pend.gated && co->pend.ring == PS_NEVER
            ? &co->pend
            : NULL;
    if (!s)
        return;
    /* the core filled its args while it waited; it ACKs and starts once the
     * doorbell store is visible (model/README.md §8.5) */
    s->ring = t;
    ps_t ready = s->receive + s->setup + r->cost.arg_fill, rung = t + r->cost.visible;
    s->start = ready > rung ? ready : rung;
    s->end = s->start + s->dur;
    co->free_at = s->end + s->wb;
    resync(sc, co);
    expect_flow(sc, co, s);
    /* its owner now has one more core to poll */
    kick(sc, co->thread, t);
}
