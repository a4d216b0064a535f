/* test_calib.c - calibration: micro-graphs held against the control-path figures measured on silicon. */
/* Their swimlane records reproduce model/README.md §9.1-9.3, and a whole decode layer is held against the
 * runtime's published overhead. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/engine/chip_engine.h"
#include "../model/runtime/run_config.h"
#include "../model/graph/worker.h"
#include "testutil.h"

#define NS(x) ((ps_t)(x)*PS_PER_NS)

/* Waves of `per_wave` independent AIV tasks of 20-38 us, one scope each, with
 * 40 us of orchestrator user code between waves. */
static chip *waves(int per_wave, int nwaves)
{
    size_t cap = 256 + (size_t)nwaves * (size_t)(per_wave + 3) * 80;
    char *g = malloc(cap);
    size_t n = (size_t)snprintf(g, cap,
                                "{\"ptosim_graph\": 1, \"name\": \"w\", \"kernels\": [{\"id\": 0, \"name\": "
                                "\"v\", \"core\": \"aiv\", \"cost\": {\"cycles\": 36000}}]}\n");
    for (int w = 0; w < nwaves; w++) {
        n += (size_t)snprintf(g + n, cap - n, "{\"op\": \"scope_begin\"}\n");
        for (int i = 0; i < per_wave; i++)
            n += (size_t)snprintf(g + n, cap - n,
                                  "{\"op\": \"submit\", \"kernel\": \"v\", \"cost\": {\"cycles\": %d}}\n",
                                  36000 + 1800 * ((i * 7 + w * 3) % 11));
        n += (size_t)snprintf(g + n, cap - n,
                              "{\"op\": \"scope_end\"}\n{\"op\": \"user_code\", \"ns\": 40000}\n");
    }
    chip *c = tu_chip(g, NULL, 4, NULL);
    free(g);
    ck_assert_int_eq(c->status, CHIP_DONE);
    return c;
}

START_TEST(fin_to_finish_matches_the_cond_polling_measurement)
{
    /* model/README.md §9.1: AICore FIN -> AICPU observes via COND: avg ~600 ns, min
     * ~180 ns, max ~2 us. Here 24 tasks in flight (8 running cores per thread) */
    chip *c = waves(24, 20);
    ps_t lo = PS_NEVER, hi = 0, sum = 0;
    int n = 0;
    for (int k = 0; k < c->ncores; k++)
        for (size_t i = 0; i < c->sl.per_core[k].n; i++) {
            const sl_exec *e = &c->sl.per_core[k].v[i];
            ps_t d = e->finish - e->end;
            lo = d < lo ? d : lo;
            hi = d > hi ? d : hi;
            sum += d;
            n++;
        }
    ck_assert_int_eq(n, 480);
    ck_assert_uint_eq(lo, NS(180)); /* 80 ns until readable + one 100 ns load */
    ck_assert_uint_le(hi, NS(2000));
    ck_assert_uint_ge(sum / (ps_t)n, NS(400));
    ck_assert_uint_le(sum / (ps_t)n, NS(800));
    tu_chip_free(c);
}
END_TEST

START_TEST(dispatch_to_start_and_receive_to_start_match)
{
    /* model/README.md §9.2: steady dispatch -> start 0.2-0.5 us; receive -> start
     * mean 0.29 us (payload invalidate + ACK). Cores already warm (second
     * wave on) pay no first-task latency. */
    chip *c = waves(24, 20);
    int steady = 0;
    for (int k = 0; k < c->ncores; k++)
        for (size_t i = 1; i < c->sl.per_core[k].n; i++) {
            const sl_exec *e = &c->sl.per_core[k].v[i];
            ck_assert_uint_eq(e->start - e->receive, NS(290));
            ps_t head = e->start - e->dispatch;
            ck_assert_uint_ge(head, NS(200));
            ck_assert_uint_le(head, NS(500));
            steady++;
        }
    ck_assert_int_gt(steady, 300);
    tu_chip_free(c);
}
END_TEST

START_TEST(orchestrator_spends_0_874_us_per_submit)
{
    /* model/README.md §6.2: 0.874 us per task (14.6 ms over 16,704 tasks) */
    chip *c = waves(24, 5);
    for (size_t i = 0; i < c->sl.norch; i++)
        ck_assert_uint_eq(c->sl.orch[i].end - c->sl.orch[i].start, NS(874));
    ck_assert_uint_eq(c->sl.norch, 120);
    tu_chip_free(c);
}
END_TEST

START_TEST(polling_24_running_cores_takes_2_4_us)
{
    /* model/README.md §9.1: one thread polls 24 cores in ~2.4 us (COND loads of
     * 95-105 ns, serial within a thread). Fill every core of the chip with a
     * long task of a distinct length: the first completion thread 0 sees is
     * read in a loop over its 24 running cores. */
    char *g = malloc(72 * 96 + 256);
    size_t n = (size_t)sprintf(
        g, "{\"ptosim_graph\": 1, \"name\": \"p\", \"kernels\": [{\"id\": 0, \"name\": \"m\", "
           "\"core\": \"aic\", \"cost\": {\"cycles\": 1}}, {\"id\": 1, \"name\": \"v\", \"core\": "
           "\"aiv\", \"cost\": {\"cycles\": 1}}]}\n");
    for (int i = 0; i < 72; i++)
        n += (size_t)sprintf(g + n, "{\"op\": \"submit\", \"kernel\": \"%s\", \"cost\": {\"cycles\": %d}}\n",
                             i < 24 ? "m" : "v", 1800000 + 18000 * i);
    chip *c = tu_chip(g, NULL, 3, NULL);
    free(g);
    ck_assert_int_eq(c->status, CHIP_DONE);
    const sl_phase *first = NULL;
    for (size_t i = 0; i < c->sl.threads[0].n && !first; i++)
        if (c->sl.threads[0].v[i].kind == PH_COMPLETE)
            first = &c->sl.threads[0].v[i];
    ck_assert_ptr_nonnull(first);
    ck_assert_uint_eq(first->tasks, 1);
    /* 24 loads x 100 ns, then the FIN's bookkeeping (40 ns) and its walk (410 ns) */
    ck_assert_uint_eq(first->end - first->start, NS(24 * 100 + 40 + 410));
    tu_chip_free(c);
}
END_TEST

START_TEST(back_to_back_switch_with_swimlane_is_0_81_us_and_1_39_us_cold)
{
    /* model/README.md §9.2: back-to-back switch with swimlane on: mean 0.81 us =
     * 0.52 record write-back + 0.29 setup; a core's first switch, right after its
     * first record, 1.39 us (that record's write-back is cold: 0.58 us more). A
     * saturated chip pre-loads every core's next task into its pending slot. */
    char *g = malloc(72 * 3 * 64 + 256);
    size_t n = (size_t)sprintf(
        g, "{\"ptosim_graph\": 1, \"name\": \"s\", \"kernels\": [{\"id\": 0, \"name\": \"v\", "
           "\"core\": \"aiv\", \"cost\": {\"cycles\": 180000}}]}\n");
    for (int i = 0; i < 48 * 3; i++)
        n += (size_t)sprintf(g + n, "{\"op\": \"submit\", \"kernel\": \"v\"}\n");
    chip *c = tu_chip(g, NULL, 1, NULL);
    free(g);
    int switches = 0;
    for (int k = 24; k < 72; k++)
        for (size_t i = 1; i < c->sl.per_core[k].n; i++) {
            const sl_exec *a = &c->sl.per_core[k].v[i - 1], *b = &c->sl.per_core[k].v[i];
            ck_assert_uint_eq(b->start - a->end, i == 1 ? NS(1390) : NS(810));
            switches++;
        }
    ck_assert_int_eq(switches, 96); /* 3 tasks per AIV core: 2 switches each */
    tu_chip_free(c);
}
END_TEST

START_TEST(completion_walk_grows_with_the_consumer_count)
{
    /* model/README.md §9.3: the fan-out walk takes ~0.5 us for 1-2 consumers and ~5
     * us for 50; a walk of 1 us or more gets a nested resolve record */
    char *g = malloc(60 * 128 + 512);
    size_t n = (size_t)sprintf(
        g, "{\"ptosim_graph\": 1, \"name\": \"r\", \"kernels\": [{\"id\": 0, \"name\": \"v\", "
           "\"core\": \"aiv\", \"cost\": {\"cycles\": 180000}}]}\n"
           "{\"op\": \"submit\", \"kernel\": \"v\", \"args\": [{\"dir\": \"out\", \"tensor\": "
           "\"t\", \"dtype\": \"FLOAT32\", \"shape\": [64]}]}\n");
    for (int i = 0; i < 50; i++)
        n += (size_t)sprintf(
            g + n, "{\"op\": \"submit\", \"kernel\": \"v\", \"args\": [{\"dir\": \"in\", \"tensor\": "
                   "\"t\"}]}\n");
    chip *c = tu_chip(g, NULL, 3, NULL);
    free(g);
    const sl_phase *resolve = NULL;
    for (int t = 0; t < 3 && !resolve; t++)
        for (size_t i = 0; i < c->sl.threads[t].n && !resolve; i++)
            if (c->sl.threads[t].v[i].kind == PH_RESOLVE)
                resolve = &c->sl.threads[t].v[i];
    ck_assert_ptr_nonnull(resolve);
    ck_assert_uint_eq(resolve->tasks, 50);
    ck_assert_uint_eq(resolve->end - resolve->start, NS(410 + 50 * 92)); /* 5.01 us */
    tu_chip_free(c);
}
END_TEST

/* hw-native-sys/simpler docs/dfx/sched-overhead-model.md measured qwen3-14b decode_layer on a2a3 silicon
 * (swimlane level >= 3, mid-June 2026): overhead AIC 15.0 %, AIV 10.3 %, all 3.3 %, has 20.2 % of the
 * makespan, switches of ~0.8 us. gen decode_layer is that kernel set; a2a3_2606 is the runtime of that
 * time; silicon varies from run to run, so the figures are the mean over seeds 1-4 with the variation
 * model on. Each must lie within 3 points of silicon, and AIV, which a2a3_2606's June dispatch and
 * submit costs (model/README.md §9.3, §6.2) brought from 8.2 to 10.8 %, within 1.5. */
START_TEST(decode_layer_overhead_is_within_3_points_of_silicon_aiv_within_1_5)
{
    static const double silicon[4] = {15.0, 10.3, 3.3, 20.2};
    static const char *const name[4] = {"AIC", "AIV", "all", "has"};
    platform p;
    char err[4096];
    ck_assert_msg(platform_load(&p, "a2a3_2606", PTOSIM_SRCDIR "/platforms", err, sizeof(err)) == 0, "%s",
                  err);
    ck_assert_int_eq(p.sched_local_ready, 1);
    ck_assert_int_eq(p.aicore_fin_after_record, 1);
    double sum[4] = {0}, per_event = 0;
    for (int seed = 1; seed <= 4; seed++) {
        chip_config cfg;
        chip_config_defaults(&cfg, &p);
        cfg.swimlane_level = 4;
        cfg.seeded = true;
        cfg.seed = (uint64_t)seed;
        chip *c = malloc(sizeof(*c));
        ck_assert_msg(chip_init(c, &p, &cfg, TRACE("gen_decode_layer.jsonl"), err, sizeof(err)) == 0, "%s",
                      err);
        chip_run(c);
        ck_assert_int_eq(c->status, CHIP_DONE);
        ohm_result r;
        ck_assert_int_eq(chip_overhead(c, &r), 0);
        ck_assert(r.computed);
        ck_assert_uint_eq(r.executions, 545);
        sum[0] += ohm_pct(&r, r.eng[0].overhead_us);
        sum[1] += ohm_pct(&r, r.eng[1].overhead_us);
        sum[2] += ohm_pct(&r, r.all_us);
        sum[3] += ohm_pct(&r, r.has_us);
        per_event += r.eng[0].sw_mean_us * r.eng[0].cores / (double)r.eng[0].sw_events;
        ohm_result_free(&r);
        chip_free(c);
        free(c);
    }
    for (int i = 0; i < 4; i++)
        ck_assert_msg(fabs(sum[i] / 4 - silicon[i]) <= 3.0, "%s overhead %.2f %%, silicon %.1f %%", name[i],
                      sum[i] / 4, silicon[i]);
    ck_assert_msg(fabs(sum[1] / 4 - silicon[1]) <= 1.5, "AIV overhead %.2f %%, silicon %.1f %%", sum[1] / 4,
                  silicon[1]);
    ck_assert_msg(fabs(per_event / 4 - 0.8) <= 0.1, "AIC switch %.3f us each, silicon ~0.8", per_event / 4);
}
END_TEST

/* hw-native-sys/simpler #1328 (2026-07-11) took cold per-core writes off every dispatch (the deferred
 * slab reset, the async context, two context pointers) and measured the sync-start drain of the qwen3
 * 2-layer decode at ~38.9 us before and ~12 us after. a2a3_2606 (the June runtime) charges a core's
 * dispatch, payload plus store, that ratio times a2a3's: (120 + 5) x 38.9 / 12 = 405 ns, payload 400. */
START_TEST(june_dispatch_costs_the_1328_ratio_of_a2a3s)
{
    platform a, june;
    char err[4096];
    ck_assert_msg(platform_load(&a, "a2a3", PTOSIM_SRCDIR "/platforms", err, sizeof(err)) == 0, "%s", err);
    ck_assert_msg(platform_load(&june, "a2a3_2606", PTOSIM_SRCDIR "/platforms", err, sizeof(err)) == 0, "%s",
                  err);
    ck_assert_int_eq(a.dispatch_payload_ns + a.mmio_store_ns, 125);
    double want = 125 * 38.9 / 12; /* 405.2 ns */
    ck_assert_msg(fabs((double)(june.dispatch_payload_ns + june.mmio_store_ns) - want) <= 1.0,
                  "June dispatch %lld ns a core, want %.1f",
                  (long long)(june.dispatch_payload_ns + june.mmio_store_ns), want);
    ck_assert_int_eq(june.dispatch_pop_ns, a.dispatch_pop_ns); /* #1328 left the pops alone */
}
END_TEST

/* orch_submit_ns 874 is the average submit of a February 2026 run (TRB/docs/device_log_profiling.md), when
 * the submit wired each task's fanout itself. From #496 (2026-04-13) to #1263 (2026-07-09) scheduler thread
 * 0 did that wiring, and #496 measured what left the orchestrator: alternating_matmul_add's 1000
 * zero-fanin submits went 915.8 -> 785.5 us, 130 ns each. a2a3_2606 charges that 130 ns on thread 0
 * (wire_task_ns, model/README.md §7.6), so its submit is 874 - 130 = 744 ns, not both. */
START_TEST(june_submit_leaves_the_wiring_to_thread_0)
{
    platform a, june;
    char err[4096];
    ck_assert_msg(platform_load(&a, "a2a3", PTOSIM_SRCDIR "/platforms", err, sizeof(err)) == 0, "%s", err);
    ck_assert_msg(platform_load(&june, "a2a3_2606", PTOSIM_SRCDIR "/platforms", err, sizeof(err)) == 0, "%s",
                  err);
    ck_assert_int_eq(a.orch_submit_ns, 874);
    ck_assert_int_eq(june.wire_task_ns, 130);
    ck_assert_int_eq(june.orch_submit_ns, 874 - 130);
}
END_TEST

/* Runs the graph at path on a2a3_2606 (the runtime of mid-June 2026) at swimlane level 4 with the
 * variation model's seed; the caller frees the chip with tu_chip_free. */
static chip *run_2606(const char *path, int seed)
{
    platform p;
    char err[4096];
    ck_assert_msg(platform_load(&p, "a2a3_2606", PTOSIM_SRCDIR "/platforms", err, sizeof(err)) == 0, "%s",
                  err);
    chip_config cfg;
    chip_config_defaults(&cfg, &p);
    cfg.swimlane_level = 4;
    cfg.seeded = true;
    cfg.seed = (uint64_t)seed;
    chip *c = malloc(sizeof(*c));
    ck_assert_msg(chip_init(c, &p, &cfg, path, err, sizeof(err)) == 0, "%s", err);
    chip_run(c);
    ck_assert_int_eq(c->status, CHIP_DONE);
    return c;
}

/* `gen paged_attention --variant unroll` as the runtime's Case1 (paged_attention_unroll). */
static const char *const PA_UNROLL_CASE1[] = {"gen",       "paged_attention", "--variant", "unroll",
                                              "--batch",   "256",             "--heads",   "16",
                                              "--head-dim", "128",            "--block-size", "128",
                                              "--context", "8192",            "--max-model-len", "32768",
                                              NULL};

/* hw-native-sys/simpler docs/investigations/2026-06-chip-swimlane-defer-wmb.md: paged_attention_unroll
 * Case1 at swimlane level 4 (2026-06-01), the sum over the scheduler threads of sched_cost (each thread's
 * "Thread N: sched_cost" line, sched_end - sched_start: from its dispatch loop's start to its exit once
 * every task has completed, TRB/runtime/scheduler/scheduler_dispatch.cpp and scheduler_cold_path.cpp
 * log_l2_swimlane_summary of that date) was 3574.2 us, mean of 16 runs. Case1 runs with aicpu_thread_num 4,
 * which is 3 scheduler threads (aicpu_executor.cpp: sched_thread_num_ = aicpu_thread_num_ - 1; the
 * orchestrator thread prints no sched_cost unless PTO2_ORCH_TO_SCHED is set): 1191.4 us a thread. (The
 * document says "4 scheduler threads"; the code of that date has 3.) In ptosim every scheduler thread
 * starts its loop at the launch and leaves it when the last task completes (its peers at their next loop
 * top, within one iteration), so a thread's sched_cost is the makespan. Held within 10 %. */
START_TEST(paged_attention_unroll_case1_scheduler_time_is_within_10_pct_of_silicon)
{
    run_out g = tu_run(PA_UNROLL_CASE1);
    ck_assert_int_eq(g.status, 0);
    char *path = tu_write(tu_tmpdir(), "pa_case1.jsonl", g.out);
    tu_run_free(&g);
    double sum = 0;
    for (int seed = 1; seed <= 4; seed++) {
        chip *c = run_2606(path, seed);
        size_t execs = 0;
        for (int k = 0; k < c->ncores; k++)
            execs += c->sl.per_core[k].n;
        ck_assert_uint_eq(execs, 1024); /* 4 tasks per (batch, q tile); its 256 allocs run on no core */
        sum += (double)c->end_time / (double)PS_PER_US;
        tu_chip_free(c);
    }
    free(path);
    const double silicon = 3574.2 / 3;
    ck_assert_msg(fabs(sum / 4 - silicon) <= 0.10 * silicon, "sched_cost %.1f us a thread, silicon %.1f",
                  sum / 4, silicon);
}
END_TEST

/* hw-native-sys/simpler docs/investigations/2026-07-aicore-swimlane-switch-overhead-and-ack-gate.md:
 * qwen3_14b_decode StressBatch16Seq3500 (1088 AICore executions, gen decode_layer --layers 2) at
 * swimlane level 4 on silicon: a core's first switch took 1.39 us on average (p50 1.48, p90 1.86), a
 * steady one 0.81 us. ptosim models the first as cold by its record write-back
 * (aicore_cold_record_ns, model/README.md §9.2); over seeds 1-4 on a2a3_2606 the mean first switch must
 * lie within 25 % of silicon's and the steady one stay at 0.81 us (within 0.05). The study's switches were
 * on 32 cores, 24 AIC and so 8 AIV: an AIV task queued behind a busy AIV core, which in this run happens
 * only when the June submit is cheap enough (744 ns, model/README.md §6.2) for the second layer's seeds to
 * find every AIV core busy; held within 10 %. */
START_TEST(decode_first_switch_is_within_25_pct_of_silicon)
{
    const char *args[] = {"gen", "decode_layer", "--layers", "2", NULL};
    run_out g = tu_run(args);
    ck_assert_int_eq(g.status, 0);
    char *path = tu_write(tu_tmpdir(), "decode2.jsonl", g.out);
    tu_run_free(&g);
    double first = 0, steady = 0, switching = 0;
    for (int seed = 1; seed <= 4; seed++) {
        chip *c = run_2606(path, seed);
        ohm_result r;
        ck_assert_int_eq(chip_overhead(c, &r), 0);
        ck_assert(r.computed);
        ck_assert_uint_eq(r.executions, 1088);
        ck_assert_uint_ge(r.first_switch.n, 20);
        first += r.first_switch.mean;
        steady += r.steady.mean;
        for (int i = 0; i < r.ncores; i++)
            switching += r.cores[i].switches > 0;
        ohm_result_free(&r);
        tu_chip_free(c);
    }
    free(path);
    ck_assert_msg(fabs(first / 4 - 1.39) <= 0.25 * 1.39, "first switch %.3f us, silicon 1.39", first / 4);
    ck_assert_msg(fabs(steady / 4 - 0.81) <= 0.05, "steady switch %.3f us, silicon 0.81", steady / 4);
    ck_assert_msg(fabs(switching / 4 - 32) <= 0.10 * 32, "%.2f cores with a switch, silicon 32",
                  switching / 4);
}
END_TEST

/* hw-native-sys/simpler docs/investigations/2026-06-aicore-cold-start-warmup.md: spmd_serial_chain_mix
 * (4 chained MIX tasks of 24 blocks, 72 cores, each busy 50 us) at swimlane level 2 on silicon, the
 * shipped design (#989's eager head resolve, no warmup): a core's first task starts 0.36 / 2.61 / 5.62 us
 * (min / mean / max over the 72 cores) after its dispatch. ptosim's first-task extra
 * (aicore_first_task_min_ns, _max_ns, model/README.md §8.1) comes from that study; the mean is held within
 * 15 % and the maximum within 10 %. (Its later tasks, 0.23-0.39 us on silicon, take 0.48 us here.) */
START_TEST(chain_mix_first_task_head_matches_the_cold_start_study)
{
    char g[1024];
    size_t n =
        (size_t)snprintf(g, sizeof(g),
                         "{\"ptosim_graph\": 1, \"name\": \"chain_mix\", \"kernels\": [{\"id\": 0, "
                         "\"name\": \"c\", \"core\": \"aic\", \"cost\": {\"ns\": 50000}}, {\"id\": 1, "
                         "\"name\": \"v\", \"core\": \"aiv\", \"cost\": {\"ns\": 50000}}], \"tensors\": "
                         "[{\"name\": \"t\", \"dtype\": \"FLOAT32\", \"shape\": [1024]}]}\n");
    for (int i = 0; i < 4; i++)
        n += (size_t)snprintf(g + n, sizeof(g) - n,
                              "{\"op\": \"submit\", \"kernels\": [\"c\", \"v\", \"v\"], \"block_num\": 24, "
                              "\"args\": [{\"dir\": \"inout\", \"tensor\": \"t\"}]}\n");
    ck_assert_uint_lt(n, sizeof(g));
    chip *c = tu_chip(g, NULL, 2, NULL);
    ck_assert_int_eq(c->status, CHIP_DONE);
    double sum = 0, max = 0;
    for (int k = 0; k < c->ncores; k++) {
        ck_assert_uint_eq(c->sl.per_core[k].n, 4); /* one block of each task on every core */
        const sl_exec *first = &c->sl.per_core[k].v[0];
        for (size_t i = 1; i < c->sl.per_core[k].n; i++)
            if (c->sl.per_core[k].v[i].dispatch < first->dispatch)
                first = &c->sl.per_core[k].v[i];
        double head = (double)(first->start - first->dispatch) / (double)PS_PER_US;
        sum += head;
        max = head > max ? head : max;
    }
    ck_assert_int_eq(c->ncores, 72);
    ck_assert_msg(fabs(sum / 72 - 2.61) <= 0.15 * 2.61, "first-task head %.3f us on average, silicon 2.61",
                  sum / 72);
    ck_assert_msg(fabs(max - 5.62) <= 0.10 * 5.62, "first-task head %.3f us at most, silicon 5.62", max);
    tu_chip_free(c);
}
END_TEST

/* hw-native-sys/simpler docs/investigations/2026-07-aicore-fills-all-args-ready-path.md:
 * paged_attention_unroll (1024 AICore tasks, Case1) on a2a3 silicon, swimlane on, the shipped design: an
 * AICore's setup (receive -> start, payload invalidate + ACK) 349 ns on average, p50 320 ns (2026-07-11, so
 * the a2a3 runtime). ptosim's aicore_setup_ns is the decode switch study's 0.29 us (model/README.md §9.2):
 * held within 20 % of the paged-attention mean. */
START_TEST(paged_attention_unroll_setup_is_within_20_pct_of_silicon)
{
    run_out g = tu_run(PA_UNROLL_CASE1);
    ck_assert_int_eq(g.status, 0);
    chip *c = tu_chip(g.out, NULL, 4, NULL);
    tu_run_free(&g);
    ck_assert_int_eq(c->status, CHIP_DONE);
    double sum = 0;
    size_t n = 0;
    for (int k = 0; k < c->ncores; k++)
        for (size_t i = 0; i < c->sl.per_core[k].n; i++, n++)
            sum +=
                (double)(c->sl.per_core[k].v[i].start - c->sl.per_core[k].v[i].receive) / (double)PS_PER_NS;
    ck_assert_uint_eq(n, 1024);
    ck_assert_msg(fabs(sum / (double)n - 349) <= 0.20 * 349, "setup %.1f ns on average, silicon 349",
                  sum / (double)n);
    tu_chip_free(c);
}
END_TEST

/* hw-native-sys/simpler docs/investigations/2026-07-qwen-scene-test-406s-decomposition.md: the
 * qwen3_14b_decode example (40 layers, StressBatch16Seq3500, default RunConfig) measured a device wall
 * (runner_run.device_wall, the AICPU's whole-run wall) of 35.416 ms on a2a3 on 2026-08-03. ptosim's
 * device time of a run is preamble + per-run prep + makespan (model/README.md §15) with the August
 * runtime's costs: a ~9 us preamble (#1323) and no per-slot SM reset (#1199). Held within 10 %. */
START_TEST(qwen3_14b_decode_40_layers_device_wall_is_within_10_pct_of_silicon)
{
    const char *args[] = {"gen", "decode_layer", "--variant", "qwen3_14b_decode", "--layers", "40", NULL};
    run_out g = tu_run(args);
    ck_assert_int_eq(g.status, 0);
    const char *dir = tu_tmpdir();
    char *path = tu_write(dir, "qwen40.jsonl", g.out);
    tu_run_free(&g);
    platform p;
    char err[4096];
    ck_assert_msg(platform_load(&p, "a2a3", PTOSIM_SRCDIR "/platforms", err, sizeof(err)) == 0, "%s", err);
    chip_config cfg;
    chip_config_defaults(&cfg, &p);
    chip *c = malloc(sizeof(*c));
    ck_assert_msg(chip_init(c, &p, &cfg, path, err, sizeof(err)) == 0, "%s", err);
    chip_run(c);
    ck_assert_int_eq(c->status, CHIP_DONE);
    worker_costs k = {
        .preamble_us = p.run_preamble_us, .prep_us = p.run_prep_us, .sm_reset_slot_ns = p.sm_reset_slot_ns};
    uint64_t rings[3][4] = {{0}}; /* the task windows the run had (4 x 16384 by default) */
    for (int r = 0; r < 4; r++)
        rings[KNOB_TASK_WINDOW][r] = c->cfg.ring_task_window[r];
    double wall_ms = worker_device_us(&k, rings, (double)c->end_time / (double)PS_PER_US) / 1e3;
    tu_chip_free(c);
    free(path);
    ck_assert_msg(fabs(wall_ms - 35.416) <= 0.10 * 35.416, "device wall %.3f ms, silicon 35.416", wall_ms);
}
END_TEST

/* model/README.md §7.6: with the June runtime's wiring on thread 0 (sched_wire_batch 30), a lone
 * zero-fanin task waits in the wiring queue for thread 0's backoff (at most 33 idle iterations of
 * 115 ns; the run starts with it at 0) and its own wiring (130 ns) before any thread can dispatch it;
 * without it the task is ready at its publish. */
START_TEST(june_wiring_delays_a_lone_task_by_the_backoff_and_130_ns)
{
    const char *g = "{\"ptosim_graph\": 1, \"name\": \"w\", \"kernels\": [{\"id\": 0, \"name\": \"v\", "
                    "\"core\": \"aiv\", \"cost\": {\"cycles\": 1800}}]}\n"
                    "{\"op\": \"submit\", \"kernel\": \"v\"}\n";
    const char *june[] = {"sched_wire_batch=30", NULL};
    chip *a = tu_chip(g, NULL, 4, NULL), *b = tu_chip(g, june, 4, NULL);
    ck_assert_uint_eq(b->sl.norch, 1);
    ck_assert_int_eq(a->status, CHIP_DONE);
    ck_assert_int_eq(b->status, CHIP_DONE);
    int ka, kb;
    const sl_exec *ea = tu_exec(a, b->sl.orch[0].task_id, &ka), *eb = tu_exec(b, b->sl.orch[0].task_id, &kb);
    ck_assert_ptr_nonnull(ea);
    ck_assert_ptr_nonnull(eb);
    ps_t publish = b->sl.orch[0].end;
    ck_assert_uint_eq(a->sl.orch[0].end, publish);
    ck_assert_uint_ge(eb->dispatch, publish + NS(130));
    ck_assert_uint_le(eb->dispatch, publish + NS(33 * 115 + 130 + 115 + 60 + 120 + 30));
    ck_assert_uint_gt(eb->dispatch, ea->dispatch);
    tu_chip_free(a);
    tu_chip_free(b);
}
END_TEST

Suite *suite_calib(void)
{
    Suite *s = suite_create("calib");
    TCase *tc = tcase_create("control path");
    tcase_add_test(tc, fin_to_finish_matches_the_cond_polling_measurement);
    tcase_add_test(tc, dispatch_to_start_and_receive_to_start_match);
    tcase_add_test(tc, orchestrator_spends_0_874_us_per_submit);
    tcase_add_test(tc, polling_24_running_cores_takes_2_4_us);
    tcase_add_test(tc, back_to_back_switch_with_swimlane_is_0_81_us_and_1_39_us_cold);
    tcase_add_test(tc, completion_walk_grows_with_the_consumer_count);
    tcase_add_test(tc, decode_layer_overhead_is_within_3_points_of_silicon_aiv_within_1_5);
    tcase_add_test(tc, june_dispatch_costs_the_1328_ratio_of_a2a3s);
    tcase_add_test(tc, june_submit_leaves_the_wiring_to_thread_0);
    tcase_add_test(tc, paged_attention_unroll_case1_scheduler_time_is_within_10_pct_of_silicon);
    tcase_add_test(tc, decode_first_switch_is_within_25_pct_of_silicon);
    tcase_add_test(tc, chain_mix_first_task_head_matches_the_cold_start_study);
    tcase_add_test(tc, paged_attention_unroll_setup_is_within_20_pct_of_silicon);
    tcase_add_test(tc, qwen3_14b_decode_40_layers_device_wall_is_within_10_pct_of_silicon);
    tcase_add_test(tc, june_wiring_delays_a_lone_task_by_the_backoff_and_130_ns);
    tcase_set_timeout(tc, 30);
    suite_add_tcase(s, tc);
    return s;
}
