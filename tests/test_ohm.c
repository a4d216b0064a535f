/* test_ohm.c - the scheduler-overhead model on small logs worked out by hand, and on the 3-task chain's
 * timeline. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../model/chip.h"
#include "../model/ohm.h"
#include "testutil.h"

#define MHZ 1000000ULL /* a 1 MHz counter: one tick is one microsecond */
#define TOL 1e-9

/* One execution: task, core, AIV?, dispatch, receive, start, end, finish (ticks). */
static void add(ohm_log *l, uint64_t task, int core, int aiv, int64_t d, int64_t rc, int64_t s, int64_t e,
                int64_t f)
{
    ohm_exec x = {.task = task,
                  .core = core,
                  .aiv = aiv,
                  .dispatch = d,
                  .receive = rc,
                  .start = s,
                  .end = e,
                  .finish = f};
    ck_assert_int_eq(ohm_log_exec(l, &x), 0);
}

static void edges(ohm_log *l, uint64_t succ, int n, ...)
{
    uint64_t p[8];
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        p[i] = va_arg(ap, uint64_t);
    va_end(ap);
    ck_assert_int_eq(ohm_log_task(l, succ, p, (size_t)n), 0);
}

/*
 * AIC core 0, AIV cores 1 and 2 (k = 1 and 2):
 *   A (1) AIC core 0: start 1, end 11.
 *   B (2) AIV core 1: preds A and the dummy 99 (no execution, ignored): ready 11, dispatched 15, runs 16-20.
 *   C (3) AIV core 2: only the dummy before it, so ready = its own dispatch 0: no wait; runs 2-30.
 *   D (4) AIC core 0: preds A, B: ready 20, dispatched 22, runs 23-25.
 *   E (5) MIX, AIC core 0 and AIV core 1: pred D: ready 25, dispatched 28, runs 29-33.
 * Window 1-33 = 32.
 *   [11,15) B waits: AIV has an idle core (C runs on one of two): AIV overhead 4; AIC has no ready work, so
 *           not all; the only engine with work is starved: has 4.
 *   [20,22) D waits: AIC idle: AIC 2, has 2; AIV has nothing ready: not all.
 *   [25,28) E waits on both engines (MIX counts for both), both have an idle core: AIC 3, AIV 3, all 3,
 * has 3. AIC 5 (15.625 %), AIV 7 (21.875 %), all 3 (9.375 %), has 9 (28.125 %).
 */
START_TEST(overhead_per_engine_all_and_has_by_hand)
{
    ohm_log l;
    ohm_log_init(&l, 0);
    add(&l, 1, 0, 0, 0, 1, 1, 11, 12);
    add(&l, 2, 1, 1, 15, 15, 16, 20, 21);
    add(&l, 3, 2, 1, 0, 2, 2, 30, 31);
    add(&l, 4, 0, 0, 22, 23, 23, 25, 26);
    add(&l, 5, 0, 0, 28, 29, 29, 33, 34);
    add(&l, 5, 1, 1, 28, 29, 29, 33, 34);
    edges(&l, 2, 2, (uint64_t)1, (uint64_t)99);
    edges(&l, 3, 1, (uint64_t)99);
    edges(&l, 4, 3, (uint64_t)1, (uint64_t)2, (uint64_t)1); /* a duplicate edge changes nothing */
    edges(&l, 5, 1, (uint64_t)4);
    ohm_result r;
    ck_assert_int_eq(ohm_compute(&l, MHZ, &r), 0);
    ck_assert(r.computed);
    ck_assert_uint_eq(r.executions, 6);
    ck_assert_uint_eq(r.tasks, 5);
    ck_assert_double_eq_tol(r.window_us, 32, TOL);
    ck_assert_int_eq(r.eng[0].cores, 1);
    ck_assert_int_eq(r.eng[1].cores, 2);
    ck_assert_double_eq_tol(r.eng[0].overhead_us, 5, TOL);
    ck_assert_double_eq_tol(r.eng[1].overhead_us, 7, TOL);
    ck_assert_double_eq_tol(r.all_us, 3, TOL);
    ck_assert_double_eq_tol(r.has_us, 9, TOL);
    ck_assert_double_eq_tol(ohm_pct(&r, r.eng[0].overhead_us), 15.625, TOL);
    ck_assert_double_eq_tol(ohm_pct(&r, r.has_us), 28.125, TOL);
    ck_assert_str_eq(ohm_verdict(ohm_pct(&r, r.has_us)), "scheduler-bound");
    /* every gap waited for work: A-D 12 and D-E 4 on core 0, B-E 9 on core 1 */
    ck_assert_uint_eq(r.wait.n, 3);
    ck_assert_double_eq_tol(r.wait.pct[0], 4, TOL);
    ck_assert_double_eq_tol(r.wait.pct[2], 9, TOL);
    ck_assert_double_eq_tol(r.wait.max, 12, TOL);
    ck_assert_uint_eq(r.steady.n + r.first_switch.n, 0);
    ck_assert_int_eq(r.ncores, 3);
    ck_assert_uint_eq(r.cores[0].waits, 2);
    ck_assert_double_eq_tol(r.cores[0].wait_us, 16, TOL);
    ck_assert_uint_eq(r.cores[2].waits, 0);
    ohm_result_free(&r);
    ohm_log_free(&l);
}
END_TEST

/*
 * AIC core 0: Z1 runs 1-5; Z2 dispatched at 3 (before Z1 ended: a switch), received 6, runs 8-9.
 * AIV core 1: X1 runs 1-10; X2 dispatched 5, received 11, runs 12-20; X3 dispatched 15, received 21,
 *   runs 22-30 (finish 34).
 * AIV core 2: Y1 runs 3-25 (finish 27); Y2 (pred X2: ready 20) dispatched 24, received 26, runs 28-29.
 * Window 1-30.
 * Switches: Z2 [5,8) = 3; X2 [10,12) = 2; X3 [20,22) = 2; Y2 [25,28) = 3.
 *   AIC: one core with 3: min = mean = max = 3, one event, nothing ready then: independent 3.
 *   AIV: core 1 has 4, core 2 has 3: min 3, mean 3.5, max 4; 3 events of 11/3 us. Y2 is ready and
 *   undispatched in [20,24), so X3's switch is overhead (2); X2's and Y2's are independent (5).
 *   Bound: least of any core 3; sum of the engines' least 3 + 3 = 6.
 * Gaps: each core's first switch is cold (Z2 3, X2 2, Y2 3); X3 is the steady one: 2 = prev tail
 *   (21 - 20) 1 + setup (22 - 21) 1.
 * Head: Z1 1, Z2 min(5, 3) = 3, X1 1, X2 min(7, 2) = 2, X3 min(7, 2) = 2, Y1 3, Y2 min(4, 3) = 3:
 *   sorted 1 1 2 2 3 3 3: P10 = [0] 1, P25 = [1] 1, P50 = [3] 2, P75 = [5] 3; sum 15.
 * Tail: 1 1 1 1 4 2 1: sorted 1 1 1 1 1 2 4: P50 1, P75 2, P90 4; sum 11.
 */
static void switch_log(ohm_log *l)
{
    ohm_log_init(l, 0);
    add(l, 10, 0, 0, 0, 0, 1, 5, 6);
    add(l, 11, 0, 0, 3, 6, 8, 9, 10);
    add(l, 20, 1, 1, 0, 1, 1, 10, 11);
    add(l, 21, 1, 1, 5, 11, 12, 20, 21);
    add(l, 22, 1, 1, 15, 21, 22, 30, 34);
    add(l, 30, 2, 1, 0, 3, 3, 25, 27);
    add(l, 31, 2, 1, 24, 26, 28, 29, 30);
    edges(l, 31, 1, (uint64_t)21);
    edges(l, 22, 1, (uint64_t)21); /* ready 20 after its dispatch at 15: nothing waits */
}

START_TEST(aicore_switch_per_core_split_and_bound_by_hand)
{
    ohm_log l;
    switch_log(&l);
    ohm_result r;
    ck_assert_int_eq(ohm_compute(&l, MHZ, &r), 0);
    ck_assert_double_eq_tol(r.window_us, 29, TOL);
    const ohm_engine *c = &r.eng[0], *v = &r.eng[1];
    ck_assert_double_eq_tol(c->sw_min_us, 3, TOL);
    ck_assert_double_eq_tol(c->sw_mean_us, 3, TOL);
    ck_assert_double_eq_tol(c->sw_max_us, 3, TOL);
    ck_assert_uint_eq(c->sw_events, 1);
    ck_assert_double_eq_tol(c->sw_overhead_us, 0, TOL);
    ck_assert_double_eq_tol(c->sw_independent_us, 3, TOL);
    ck_assert_double_eq_tol(v->sw_min_us, 3, TOL);
    ck_assert_double_eq_tol(v->sw_mean_us, 3.5, TOL);
    ck_assert_double_eq_tol(v->sw_max_us, 4, TOL);
    ck_assert_uint_eq(v->sw_events, 3);
    ck_assert_double_eq_tol(v->sw_overhead_us, 2, TOL);
    ck_assert_double_eq_tol(v->sw_independent_us, 5, TOL);
    ck_assert_double_eq_tol(r.bound_lo_us, 3, TOL);
    ck_assert_double_eq_tol(r.bound_hi_us, 6, TOL);
    /* Y2 waits [20,24); core 1 is idle in [20,22) (between X2 and X3), busy after: AIV overhead 2 */
    ck_assert_double_eq_tol(v->overhead_us, 2, TOL);
    ck_assert_double_eq_tol(r.has_us, 2, TOL);
    ohm_result_free(&r);
    ohm_log_free(&l);
}
END_TEST

START_TEST(head_and_tail_distributions_by_hand)
{
    ohm_log l;
    switch_log(&l);
    ohm_result r;
    ck_assert_int_eq(ohm_compute(&l, MHZ, &r), 0);
    ck_assert_uint_eq(r.head.n, 7);
    ck_assert_double_eq_tol(r.head.pct[0], 1, TOL);
    ck_assert_double_eq_tol(r.head.pct[1], 1, TOL);
    ck_assert_double_eq_tol(r.head.pct[2], 2, TOL);
    ck_assert_double_eq_tol(r.head.pct[3], 3, TOL);
    ck_assert_double_eq_tol(r.head.pct[6], 3, TOL);
    ck_assert_double_eq_tol(r.head.max, 3, TOL);
    ck_assert_double_eq_tol(r.head.sum, 15, TOL);
    ck_assert_double_eq_tol(r.head.mean, 15.0 / 7, TOL);
    ck_assert_double_eq_tol(r.tail.pct[2], 1, TOL);
    ck_assert_double_eq_tol(r.tail.pct[3], 2, TOL);
    ck_assert_double_eq_tol(r.tail.pct[4], 4, TOL);
    ck_assert_double_eq_tol(r.tail.sum, 11, TOL);
    ohm_result_free(&r);
    ohm_log_free(&l);
}
END_TEST

START_TEST(gap_decomposition_splits_switches_into_tail_and_setup)
{
    ohm_log l;
    switch_log(&l);
    ohm_result r;
    ck_assert_int_eq(ohm_compute(&l, MHZ, &r), 0);
    ck_assert_uint_eq(r.first_switch.n, 3);
    ck_assert_double_eq_tol(r.first_switch.pct[0], 2, TOL); /* sorted 2 3 3 */
    ck_assert_double_eq_tol(r.first_switch.pct[2], 3, TOL);
    ck_assert_double_eq_tol(r.first_switch.mean, 8.0 / 3, TOL);
    ck_assert_uint_eq(r.steady.n, 1);
    ck_assert_double_eq_tol(r.steady.mean, 2, TOL);
    ck_assert_double_eq_tol(r.prev_tail.mean, 1, TOL);
    ck_assert_double_eq_tol(r.setup.mean, 1, TOL);
    ck_assert_uint_eq(r.wait.n, 0);
    ck_assert_int_eq(r.ncores, 3);
    ck_assert_uint_eq(r.cores[1].switches, 2);
    ck_assert_double_eq_tol(r.cores[1].switch_us, 4, TOL);
    ck_assert_uint_eq(r.cores[2].switches, 1);
    ck_assert_double_eq_tol(r.cores[2].switch_us, 3, TOL);
    ohm_result_free(&r);
    ohm_log_free(&l);
}
END_TEST

/*
 * P (1) AIC core 0 runs 2-10 (dispatched 0); Q (2) and S (3) on AIV cores 1 and 2 after P; R (4) on
 * core 0 after Q and S, finishing last at 34.
 * Q ends 20, S ends 16: R -> Q (scheduler 25 - 20 = 5), Q -> P (13 - 10 = 3), P the root (2 - 0 = 2):
 *   2 hops, compute 5 + 7 + 8 = 20, scheduler 10, span 34 - 2 = 32, other 2.
 * With S ending at 20 too, the tie goes to the larger id: R -> S (5), S -> P (14 - 10 = 4), root 2:
 *   compute 5 + 6 + 8 = 19, scheduler 11, other 2.
 */
static void path_log(ohm_log *l, int64_t s_end)
{
    ohm_log_init(l, 0);
    add(l, 1, 0, 0, 0, 2, 2, 10, 11);
    add(l, 2, 1, 1, 12, 13, 13, 20, 22);
    add(l, 3, 2, 1, 12, 14, 14, s_end, s_end + 1);
    add(l, 4, 0, 0, 23, 25, 25, 30, 34);
    edges(l, 2, 1, (uint64_t)1);
    edges(l, 3, 1, (uint64_t)1);
    edges(l, 4, 2, (uint64_t)2, (uint64_t)3);
}

START_TEST(critical_path_splits_compute_and_scheduler_by_hand)
{
    ohm_log l;
    ohm_result r;
    path_log(&l, 16);
    ck_assert_int_eq(ohm_compute(&l, MHZ, &r), 0);
    ck_assert_int_eq(r.cp_hops, 2);
    ck_assert_double_eq_tol(r.cp_span_us, 32, TOL);
    ck_assert_double_eq_tol(r.cp_exec_us, 20, TOL);
    ck_assert_double_eq_tol(r.cp_sched_us, 10, TOL);
    ck_assert_double_eq_tol(r.cp_other_us, 2, TOL);
    ohm_result_free(&r);
    ohm_log_free(&l);
    path_log(&l, 20);
    ck_assert_int_eq(ohm_compute(&l, MHZ, &r), 0);
    ck_assert_double_eq_tol(r.cp_exec_us, 19, TOL);
    ck_assert_double_eq_tol(r.cp_sched_us, 11, TOL);
    ck_assert_double_eq_tol(r.cp_other_us, 2, TOL);
    ohm_result_free(&r);
    ohm_log_free(&l);
}
END_TEST

START_TEST(a_log_past_its_limit_is_dropped_and_not_computed)
{
    ohm_log l;
    ohm_log_init(&l, 2);
    add(&l, 1, 0, 0, 0, 1, 1, 2, 3);
    add(&l, 2, 0, 0, 0, 1, 3, 4, 5);
    ck_assert(!l.dropped);
    add(&l, 3, 0, 0, 0, 1, 5, 6, 7);
    ck_assert(l.dropped);
    ck_assert_uint_eq(l.nx, 0);
    ohm_result r;
    ck_assert_int_eq(ohm_compute(&l, MHZ, &r), 0);
    ck_assert(!r.computed);
    ohm_log_free(&l);
    ohm_log_init(&l, 2);
    edges(&l, 1, 0);
    edges(&l, 2, 0);
    edges(&l, 3, 0); /* the third task passes the limit too */
    ck_assert(l.dropped);
    ohm_log_free(&l);
}
END_TEST

/*
 * The 3-task chain of test_chip.c, whose timeline is worked out there (ns), on the 50 MHz counter
 * (20 ns ticks, rounded down): a 56/63/78/578/588, b 626/633/647/1147/1160, c 1197/1204/1219/1719/1731
 * (dispatch/receive/start/end/finish), all on AIV core 24.
 * Window 78-1719 = 1641 ticks = 32.82 us. b waits ready [578, 626), c [1147, 1197) with the one AIV core
 * that ran anything idle: AIV overhead 98 ticks = 1.96 us = all = has (the only engine).
 * Head: a 78 - 56 = 22, b min(21, 69) = 21, c min(22, 72) = 22 ticks. Tail: 10, 13, 12 ticks.
 * Critical path c -> b -> a: scheduler 72 + 69 + 22 = 163 ticks = 3.26 us, compute 30 us, span
 * 1731 - 78 = 1653 ticks = 33.06 us.
 */
START_TEST(the_3_task_chain_in_a_run_by_hand)
{
    static const char *CHAIN3 =
        "{\"ptosim_graph\": 1, \"name\": \"chain3\", \"kernels\": [{\"id\": 0, \"name\": \"vadd\", \"core\": "
        "\"aiv\", \"cost\": {\"cycles\": 18000}}], \"tensors\": [{\"name\": \"x\", \"dtype\": \"FLOAT32\", "
        "\"shape\": [16384]}]}\n"
        "{\"op\": \"submit\", \"kernel\": \"vadd\", \"args\": [{\"dir\": \"in\", \"tensor\": \"x\"}, "
        "{\"dir\": "
        "\"out\", \"tensor\": \"t0\", \"dtype\": \"FLOAT32\", \"shape\": [16384]}]}\n"
        "{\"op\": \"submit\", \"kernel\": \"vadd\", \"args\": [{\"dir\": \"in\", \"tensor\": \"t0\"}, "
        "{\"dir\": "
        "\"out\", \"tensor\": \"t1\", \"dtype\": \"FLOAT32\", \"shape\": [16384]}]}\n"
        "{\"op\": \"submit\", \"kernel\": \"vadd\", \"args\": [{\"dir\": \"in\", \"tensor\": \"t1\"}, "
        "{\"dir\": "
        "\"out\", \"tensor\": \"y\", \"dtype\": \"FLOAT32\", \"shape\": [16384]}]}\n";
    chip *c = tu_chip(CHAIN3, NULL, 4, NULL);
    ck_assert_int_eq(c->status, CHIP_DONE);
    ohm_result r;
    ck_assert_int_eq(chip_overhead(c, &r), 0);
    ck_assert(r.computed);
    ck_assert(!r.eng[0].present);
    ck_assert_int_eq(r.eng[1].cores, 1);
    ck_assert_double_eq_tol(r.window_us, 32.82, 1e-9);
    ck_assert_double_eq_tol(r.eng[1].overhead_us, 1.96, 1e-9);
    ck_assert_double_eq_tol(r.all_us, 1.96, 1e-9);
    ck_assert_double_eq_tol(r.has_us, 1.96, 1e-9);
    ck_assert_double_eq_tol(r.head.sum, 65 * 0.02, 1e-9);
    ck_assert_double_eq_tol(r.head.pct[0], 0.42, 1e-9);
    ck_assert_double_eq_tol(r.tail.sum, 35 * 0.02, 1e-9);
    ck_assert_double_eq_tol(r.tail.max, 0.26, 1e-9);
    ck_assert_int_eq(r.cp_hops, 2);
    ck_assert_double_eq_tol(r.cp_sched_us, 3.26, 1e-9);
    ck_assert_double_eq_tol(r.cp_exec_us, 30, 1e-9);
    ck_assert_double_eq_tol(r.cp_span_us, 33.06, 1e-9);
    ck_assert_uint_eq(r.wait.n, 2);
    ohm_result_free(&r);
    tu_chip_free(c);
}
END_TEST

Suite *suite_ohm(void)
{
    Suite *s = suite_create("ohm");
    TCase *tc = tcase_create("ohm");
    tcase_add_test(tc, overhead_per_engine_all_and_has_by_hand);
    tcase_add_test(tc, aicore_switch_per_core_split_and_bound_by_hand);
    tcase_add_test(tc, head_and_tail_distributions_by_hand);
    tcase_add_test(tc, gap_decomposition_splits_switches_into_tail_and_setup);
    tcase_add_test(tc, critical_path_splits_compute_and_scheduler_by_hand);
    tcase_add_test(tc, a_log_past_its_limit_is_dropped_and_not_computed);
    tcase_add_test(tc, the_3_task_chain_in_a_run_by_hand);
    suite_add_tcase(s, tc);
    return s;
}
