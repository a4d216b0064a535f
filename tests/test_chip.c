/* test_chip.c - the chip model without SimGrid: hand-worked timings, waves, MIX placement, back-pressure. */
#include <stdlib.h>
#include <string.h>

#include "../model/engine/chip_engine.h"
#include "testutil.h"

#define NS(x) ((ps_t)(x)*PS_PER_NS)

static chip *run_graph(const char *text, const char *const *sets, int level)
{
    return tu_chip(text, sets, level, NULL);
}

static void done(chip *c)
{
    tu_chip_free(c);
}

static const sl_exec *find_exec(const chip *c, uint64_t id, int *core_out)
{
    return tu_exec(c, id, core_out);
}

static const char *CHAIN3 =
    "{\"ptosim_graph\": 1, \"name\": \"chain3\", \"kernels\": [{\"id\": 0, \"name\": \"vadd\", \"core\": "
    "\"aiv\", \"cost\": {\"cycles\": 18000}}], \"tensors\": [{\"name\": \"x\", \"dtype\": \"FLOAT32\", "
    "\"shape\": [16384]}]}\n"
    "{\"op\": \"submit\", \"kernel\": \"vadd\", \"args\": [{\"dir\": \"in\", \"tensor\": \"x\"}, {\"dir\": "
    "\"out\", \"tensor\": \"t0\", \"dtype\": \"FLOAT32\", \"shape\": [16384]}]}\n"
    "{\"op\": \"submit\", \"kernel\": \"vadd\", \"args\": [{\"dir\": \"in\", \"tensor\": \"t0\"}, {\"dir\": "
    "\"out\", \"tensor\": \"t1\", \"dtype\": \"FLOAT32\", \"shape\": [16384]}]}\n"
    "{\"op\": \"submit\", \"kernel\": \"vadd\", \"args\": [{\"dir\": \"in\", \"tensor\": \"t1\"}, {\"dir\": "
    "\"out\", \"tensor\": \"y\", \"dtype\": \"FLOAT32\", \"shape\": [16384]}]}\n";

/*
 * The 3-task chain by hand, with the a2a3 defaults (ns): submit 874, idle
 * iteration 115, COND read 100, pop 60, payload 120, wmb 30, store 5,
 * visible 140, setup 290, FIN latency 80, FIN bookkeeping 40, walk 410 + 92
 * per consumer, deferred release 40; kernel 18000 cycles at 1.8 GHz = 10000.
 *
 * a published at 874. Idle schedulers iterate every 115 ns from 0; the first
 * dispatch phase at or after 874 is 8 x 115 = 920 (thread 0 wins the tie).
 * Dispatch: 920 + 60 + 120 + 30 = 1130 is a's store; receive 1130 + 140 =
 * 1270; start 1270 + 290 = 1560; end 11560; FIN readable 11640.
 * Thread 0 then iterates with one running core: 1135 (poll ends 1235),
 * period 100 + 115 = 215; the first poll at or after 11640 ends at
 * 1235 + 49 x 215 = 11770 = a's finish. +40 bookkeeping, + walk 410 + 92
 * (b was wired while a ran) -> b ready at 12312.
 * b: store 12312 + 210 = 12522, start 12522 + 430 = 12952, end 22952, FIN
 * 23032. Next iteration 12527: poll to 12627, then, the iteration being
 * otherwise idle, a's deferred release (40) and the idle loop overhead (115):
 * the next iteration starts at 12782, and idle from there with period 215 the
 * poll ending 12882 + 48 x 215 = 23202 is b's finish. c ready at 23202 + 40 +
 * 502 = 23744.
 * c: store 23954, start 24384, end 34384, FIN 34464. Iteration 23959, poll to
 * 24059, b's release and the idle overhead to 24214; polls end 24314 + 48 x
 * 215 = 34634 = c's finish; + 40 + walk 410 (no consumer) = 35084 = makespan.
 */
START_TEST(chain3_timeline_matches_the_hand_computation)
{
    chip *c = run_graph(CHAIN3, NULL, 4);
    ck_assert_int_eq(c->status, CHIP_DONE);
    ck_assert_uint_eq(c->tasks_completed, 3);
    struct {
        ps_t dispatch, receive, start, end, finish;
    } want[3] = {
        {NS(1130), NS(1270), NS(1560), NS(11560), NS(11770)},
        {NS(12522), NS(12662), NS(12952), NS(22952), NS(23202)},
        {NS(23954), NS(24094), NS(24384), NS(34384), NS(34634)},
    };
    for (int i = 0; i < 3; i++) {
        int core;
        const sl_exec *e = find_exec(c, (uint64_t)i, &core);
        ck_assert_int_eq(core, 24); /* thread 0's first AIV core */
        ck_assert_uint_eq(e->reg, (uint32_t)i + 1);
        ck_assert_uint_eq(e->dispatch, want[i].dispatch);
        ck_assert_uint_eq(e->receive, want[i].receive);
        ck_assert_uint_eq(e->start, want[i].start);
        ck_assert_uint_eq(e->end, want[i].end);
        ck_assert_uint_eq(e->finish, want[i].finish);
    }
    ck_assert_uint_eq(c->end_time, NS(35084));
    /* one orchestrator record per submit, back to back at 874 ns */
    ck_assert_uint_eq(c->sl.norch, 3);
    ck_assert_uint_eq(c->sl.orch[2].start, NS(1748));
    ck_assert_uint_eq(c->sl.orch[2].end, NS(2622));
    done(c);
}
END_TEST

START_TEST(fan_of_200_aiv_tasks_runs_in_five_waves_on_48_cores)
{
    /* 1 ms kernels: submission (200 x 0.874 us) is negligible, so every AIV
     * core runs its tasks back to back; 200 = 4 x 48 + 8 -> ceil(200/48) = 5 */
    char *text = malloc(200 * 80 + 512);
    strcpy(text,
           "{\"ptosim_graph\": 1, \"name\": \"fan\", \"kernels\": [{\"id\": 1, \"name\": \"v\", \"core\": "
           "\"aiv\", \"cost\": {\"cycles\": 1800000}}]}\n");
    for (int i = 0; i < 200; i++)
        strcat(text, "{\"op\": \"submit\", \"kernel\": \"v\"}\n");
    chip *c = run_graph(text, NULL, 1);
    free(text);
    ck_assert_int_eq(c->status, CHIP_DONE);
    int five = 0, four = 0;
    for (int k = 0; k < c->ncores; k++) {
        size_t n = c->sl.per_core[k].n;
        if (k < 24)
            ck_assert_uint_eq(n, 0); /* AIC cores stay idle */
        else if (n == 5)
            five++;
        else if (n == 4)
            four++;
        else
            ck_abort_msg("core %d ran %zu tasks", k, n);
    }
    ck_assert_int_eq(five, 8);
    ck_assert_int_eq(four, 40);
    ck_assert_uint_gt(c->end_time, 5 * PS_PER_MS);                  /* five full kernels in a row */
    ck_assert_uint_lt(c->end_time, 5 * PS_PER_MS + 60 * PS_PER_US); /* + submission and control path */
    done(c);
}
END_TEST

static const char *MIXHDR =
    "{\"ptosim_graph\": 1, \"name\": \"mix\", \"kernels\": [{\"id\": 0, \"name\": \"mm\", \"core\": \"aic\", "
    "\"cost\": {\"cycles\": 9000}}, {\"id\": 1, \"name\": \"post\", \"core\": \"aiv\", \"cost\": "
    "{\"cycles\": 4500}}]}\n";

START_TEST(mix_task_occupies_one_aic_and_both_aivs_of_one_cluster)
{
    char text[1024];
    snprintf(text, sizeof(text), "%s{\"op\": \"submit\", \"kernels\": [\"mm\", \"post\", \"post\"]}\n",
             MIXHDR);
    chip *c = run_graph(text, NULL, 1);
    ck_assert_int_eq(c->status, CHIP_DONE);
    ck_assert_uint_eq(c->executions, 3);
    int cores[3], n = 0;
    for (int k = 0; k < c->ncores; k++)
        if (c->sl.per_core[k].n) {
            ck_assert_int_lt(n, 3);
            cores[n++] = k;
            ck_assert_uint_eq(c->sl.per_core[k].v[0].task_id, 0);
        }
    ck_assert_int_eq(n, 3);
    int cl = cores[0];
    ck_assert_int_lt(cl, 24);                /* the AIC of cluster cl */
    ck_assert_int_eq(cores[1], 24 + 2 * cl); /* its AIV0 */
    ck_assert_int_eq(cores[2], 25 + 2 * cl); /* its AIV1 */
    /* each core runs its own subslot's kernel: 9000 vs 4500 cycles */
    ck_assert_uint_eq(c->sl.per_core[cores[0]].v[0].end - c->sl.per_core[cores[0]].v[0].start, NS(5000));
    ck_assert_uint_eq(c->sl.per_core[cores[1]].v[0].end - c->sl.per_core[cores[1]].v[0].start, NS(2500));
    done(c);
}
END_TEST

START_TEST(spmd_blocks_beyond_free_cores_run_in_waves)
{
    char text[1024];
    snprintf(text, sizeof(text), "%s{\"op\": \"submit\", \"kernel\": \"post\", \"block_num\": 100}\n",
             MIXHDR);
    chip *c = run_graph(text, NULL, 1);
    ck_assert_int_eq(c->status, CHIP_DONE);
    ck_assert_uint_eq(c->executions, 100);
    ck_assert_uint_eq(c->tasks_completed, 1);
    size_t most = 0;
    for (int k = 24; k < c->ncores; k++)
        if (c->sl.per_core[k].n > most)
            most = c->sl.per_core[k].n;
    ck_assert_uint_eq(most, 3); /* 100 blocks = 2 x 48 + 4: three waves */
    /* on every core the blocks run one after another; with dual issue the
     * next one may start before the AICPU has seen the previous FIN */
    for (int k = 24; k < c->ncores; k++)
        for (size_t i = 1; i < c->sl.per_core[k].n; i++)
            ck_assert_uint_gt(c->sl.per_core[k].v[i].start, c->sl.per_core[k].v[i - 1].end);
    /* three 2.5 us waves; between waves a thread polls its 16 busy AIV cores
     * and retires each FIN (16 x 140 ns), then builds and stores up to 16
     * payloads (60 + 16 x 125 + 30 ns) and the cores start 430 ns later:
     * under 5.6 us per wave */
    ck_assert_uint_gt(c->end_time, NS(3 * 2500));
    ck_assert_uint_lt(c->end_time, NS(3 * (2500 + 5600)));
    done(c);
}
END_TEST

START_TEST(dummy_and_explicit_deps_order_tasks)
{
    char text[2048];
    snprintf(text, sizeof(text),
             "%s{\"op\": \"submit\", \"id\": \"a\", \"kernel\": \"mm\"}\n"
             "{\"op\": \"dummy\", \"id\": \"d\", \"deps\": [\"a\"]}\n"
             "{\"op\": \"submit\", \"id\": \"b\", \"kernel\": \"post\", \"deps\": [\"d\"]}\n"
             "{\"op\": \"submit\", \"kernel\": \"post\"}\n",
             MIXHDR);
    chip *c = run_graph(text, NULL, 3);
    ck_assert_int_eq(c->status, CHIP_DONE);
    ck_assert_uint_eq(c->tasks_completed, 4);
    ck_assert_uint_eq(c->executions, 3); /* the dummy runs on no core */
    const sl_exec *a = find_exec(c, 0, NULL), *b = find_exec(c, 2, NULL), *free_task = find_exec(c, 3, NULL);
    ck_assert_uint_gt(b->dispatch, a->finish);   /* b waited for a through the dummy */
    ck_assert_uint_lt(free_task->start, a->end); /* the unrelated task did not */
    /* a dummy_task marker with the dummy's id exists */
    int markers = 0;
    for (int t = 0; t < 3; t++)
        for (size_t i = 0; i < c->sl.threads[t].n; i++)
            if (c->sl.threads[t].v[i].kind == PH_DUMMY_TASK && c->sl.threads[t].v[i].task_id == 1)
                markers++;
    ck_assert_int_eq(markers, 1);
    done(c);
}
END_TEST

START_TEST(full_task_window_blocks_the_orchestrator_until_a_slot_is_consumed)
{
    /* window 4: at most 3 tasks of ring 1 in flight. The 4th submit waits
     * until the first scope's tasks are completed, released and consumed. */
    char text[2048];
    snprintf(
        text, sizeof(text),
        "%s{\"op\": \"scope_begin\"}\n"
        "{\"op\": \"submit\", \"kernel\": \"post\"}\n{\"op\": \"submit\", \"kernel\": \"post\"}\n"
        "{\"op\": \"submit\", \"kernel\": \"post\"}\n{\"op\": \"scope_end\"}\n"
        "{\"op\": \"scope_begin\"}\n{\"op\": \"submit\", \"kernel\": \"post\"}\n{\"op\": \"scope_end\"}\n",
        MIXHDR);
    const char *sets[] = {"ring_task_window=4", NULL};
    chip *c = run_graph(text, sets, 4);
    ck_assert_int_eq(c->status, CHIP_DONE);
    ck_assert_uint_gt(c->orch.blocked_ps[1], 0);
    ck_assert_uint_eq(c->orch.blocked_ps[0], 0);
    const sl_exec *first = find_exec(c, task_make_id(1, 0), NULL);
    const sl_orch *fourth = &c->sl.orch[3];
    ck_assert_uint_eq(fourth->task_id, task_make_id(1, 3));
    /* its call began after the third submit and the first scope_end (3 x 22 ns),
     * and ended only after task 0 finished */
    ck_assert_uint_eq(fourth->start, c->sl.orch[2].end + 3 * c->cost.scope_end_per_task);
    ck_assert_uint_gt(fourth->end, first->finish + c->cost.submit);
    ck_assert_uint_eq(fourth->end - fourth->start, c->orch.blocked_ps[1] + c->cost.submit);
    ck_assert_uint_eq(c->rings[1].peak_active, 3);
    done(c);
}
END_TEST

START_TEST(flat_graph_longer_than_the_window_is_scope_deadlock)
{
    /* depth-0 tasks are only released when orchestration ends, so with
     * window 4 the root scope can hold 3: the 4th submit fails the scope
     * pre-check at once (code 1), at 3 x 874 ns, before allocating */
    char text[2048];
    snprintf(text, sizeof(text), "%s", MIXHDR);
    for (int i = 0; i < 5; i++)
        strcat(text, "{\"op\": \"submit\", \"kernel\": \"post\"}\n");
    const char *sets[] = {"ring_task_window=4", NULL};
    chip *c = run_graph(text, sets, 0);
    ck_assert_int_eq(c->status, CHIP_FATAL);
    ck_assert_int_eq(c->fatal_code, 1);
    ck_assert_uint_eq(c->tasks_submitted, 3);
    ck_assert_msg(strstr(c->message, "Scope Deadlock Detected! (ring 0) Tasks in current scope (3) >= "
                                     "task_window_size (4)"),
                  "%s", c->message);
    ck_assert_uint_eq(c->end_time, NS(3 * 874));
    done(c);
}
END_TEST

START_TEST(only_the_invalid_task_id_is_runtime_error_5)
{
    /* PTO2TaskId::invalid() (all ones, written -1) is the one id
     * set_dependencies rejects (submit_task_common) */
    char text[1024];
    snprintf(text, sizeof(text), "%s{\"op\": \"submit\", \"kernel\": \"post\", \"deps\": [-1]}\n", MIXHDR);
    chip *c = run_graph(text, NULL, 0);
    ck_assert_int_eq(c->status, CHIP_FATAL);
    ck_assert_int_eq(c->fatal_code, 5);
    ck_assert_msg(strstr(c->message, ":2: deps[0]: Arg.set_dependencies(...) requires valid task ids") != NULL,
                  "%s", c->message);
    done(c);
}
END_TEST

START_TEST(dependency_on_a_task_never_issued_counts_as_retired)
{
    /* ring 0 local 7 was never handed out: the runtime finds no live task in
     * its slot and adds no edge, so both tasks run at once */
    char text[1024];
    snprintf(text, sizeof(text),
             "%s{\"op\": \"submit\", \"kernel\": \"post\", \"deps\": [7]}\n"
             "{\"op\": \"submit\", \"kernel\": \"post\", \"deps\": [12884901895]}\n",
             MIXHDR);
    chip *c = run_graph(text, NULL, 1);
    ck_assert_int_eq(c->status, CHIP_DONE);
    ck_assert_uint_eq(c->tasks_completed, 2);
    const sl_exec *a = find_exec(c, 0, NULL), *b = find_exec(c, 1, NULL);
    ck_assert_uint_lt(b->start, a->end);
    done(c);
}
END_TEST

START_TEST(explicit_dependency_on_an_alloc_task)
{
    /* the manual-scope pattern of the runtime's paged_attention_manual_scope:
     * add_dep(alloc task); the alloc completes inline, so the edge costs nothing */
    char text[1024];
    snprintf(text, sizeof(text),
             "%s{\"op\": \"scope_begin\", \"mode\": \"manual\"}\n"
             "{\"op\": \"alloc\", \"id\": \"acc\", \"tensors\": [{\"name\": \"o\", \"dtype\": "
             "\"FLOAT32\", \"shape\": [256]}]}\n"
             "{\"op\": \"submit\", \"kernel\": \"post\", \"deps\": [\"acc\"], \"args\": [{\"dir\": "
             "\"inout\", \"tensor\": \"o\"}]}\n{\"op\": \"scope_end\"}\n",
             MIXHDR);
    chip *c = run_graph(text, NULL, 1);
    ck_assert_int_eq(c->status, CHIP_DONE);
    ck_assert_uint_eq(c->tasks_completed, 2);
    ck_assert_uint_eq(c->executions, 1);
    done(c);
}
END_TEST

/* A scheduler iteration's dispatch phase, due when nothing else is, runs in
 * the event of its completion phase (chip_schedule_last): fewer events, the
 * same timeline (the hand-worked makespan holds; tests/golden checks every
 * output byte). */
START_TEST(phases_with_nothing_due_between_them_share_one_event)
{
    chip *c = run_graph(CHAIN3, NULL, 0);
    ck_assert_int_eq(c->status, CHIP_DONE);
    ck_assert_uint_eq(c->end_time, NS(35084));
    ck_assert_uint_gt(c->inlined, 0);
    ck_assert(!c->has_last);
    done(c);
}
END_TEST

Suite *suite_chip(void)
{
    Suite *s = suite_create("chip");
    TCase *tc = tcase_create("model");
    tcase_add_test(tc, chain3_timeline_matches_the_hand_computation);
    tcase_add_test(tc, phases_with_nothing_due_between_them_share_one_event);
    tcase_add_test(tc, fan_of_200_aiv_tasks_runs_in_five_waves_on_48_cores);
    tcase_add_test(tc, mix_task_occupies_one_aic_and_both_aivs_of_one_cluster);
    tcase_add_test(tc, spmd_blocks_beyond_free_cores_run_in_waves);
    tcase_add_test(tc, dummy_and_explicit_deps_order_tasks);
    tcase_add_test(tc, full_task_window_blocks_the_orchestrator_until_a_slot_is_consumed);
    tcase_add_test(tc, flat_graph_longer_than_the_window_is_scope_deadlock);
    tcase_add_test(tc, only_the_invalid_task_id_is_runtime_error_5);
    tcase_add_test(tc, dependency_on_a_task_never_issued_counts_as_retired);
    tcase_add_test(tc, explicit_dependency_on_an_alloc_task);
    tcase_set_timeout(tc, 30);
    suite_add_tcase(s, tc);
    return s;
}
