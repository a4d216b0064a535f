/* test_ohm.c - the scheduler-overhead model on hand-worked small logs and the 3-task chain's timeline. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../model/engine/chip_engine.h"
#include "../model/analysis/exec_index.h"
#include "../model/analysis/overhead_model.h"
#include "../sim/cli/cli.h"
#include "../sim/report/overhead.h"
#include "testutil.h"

#define MHZ 1000000ULL /* a 1 MHz counter: one tick is one microsecond */
#define TOL 1e-9

/* One execution: task, core, AIV?, dispatch, receive, start, end, finish (ticks). */
static void add(exec_log *l, uint64_t task, int core, int aiv, int64_t d, int64_t rc, int64_t s, int64_t e,
                int64_t f)
{
    exec_record x = {.task = task,
                  .core = core,
                  .aiv = aiv,
                  .dispatch = d,
                  .receive = rc,
                  .start = s,
                  .end = e,
                  .finish = f};
    ck_assert_int_eq(exec_log_add(l, &x), 0);
}

static void edges(exec_log *l, uint64_t succ, int n, ...)
{
    uint64_t p[8];
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        p[i] = va_arg(ap, uint64_t);
    va_end(ap);
    ck_assert_int_eq(exec_log_task(l, succ, p, (size_t)n), 0);
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
    exec_log l;
    exec_log_init(&l, 0);
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
    exec_log_free(&l);
}
END_TEST

/* The trace's overhead lines (ohm_steps) then ptosim_run.json's figures (ohm_compute) of one log: the second
 * reuses the first's sweep, and only while the log is unchanged. The log of the test above, then F (6) on
 * AIC core 0 after E: ready 33, dispatched 36, runs 37-40: [33,36) is AIC overhead and has (AIV has no
 * work): AIC 5 + 3 = 8, AIV 7, all 3, has 9 + 3 = 12, window 39. */
START_TEST(the_figures_after_the_steps_are_those_of_the_log_as_it_is_then)
{
    exec_log l;
    exec_log_init(&l, 0);
    add(&l, 1, 0, 0, 0, 1, 1, 11, 12);
    add(&l, 2, 1, 1, 15, 15, 16, 20, 21);
    add(&l, 3, 2, 1, 0, 2, 2, 30, 31);
    add(&l, 4, 0, 0, 22, 23, 23, 25, 26);
    add(&l, 5, 0, 0, 28, 29, 29, 33, 34);
    add(&l, 5, 1, 1, 28, 29, 29, 33, 34);
    edges(&l, 2, 2, (uint64_t)1, (uint64_t)99);
    edges(&l, 3, 1, (uint64_t)99);
    edges(&l, 4, 3, (uint64_t)1, (uint64_t)2, (uint64_t)1);
    edges(&l, 5, 1, (uint64_t)4);
    ohm_step *st;
    size_t n;
    bool present[2];
    ohm_result r;
    ck_assert_int_eq(ohm_steps(&l, &st, &n, present), 0);
    free(st);
    ck_assert_int_eq(ohm_compute(&l, MHZ, &r), 0);
    ck_assert_double_eq_tol(r.window_us, 32, TOL);
    ck_assert_double_eq_tol(r.eng[0].overhead_us, 5, TOL);
    ck_assert_double_eq_tol(r.eng[1].overhead_us, 7, TOL);
    ck_assert_double_eq_tol(r.all_us, 3, TOL);
    ck_assert_double_eq_tol(r.has_us, 9, TOL);
    ck_assert_int_eq(r.cp_hops, 3); /* A -> B -> D -> E, from the task table the steps made */
    ohm_result_free(&r);
    /* the steps of the log, then a change to it: the figures are the changed log's */
    ck_assert_int_eq(ohm_steps(&l, &st, &n, present), 0);
    free(st);
    add(&l, 6, 0, 0, 36, 37, 37, 40, 41);
    edges(&l, 6, 1, (uint64_t)5);
    ck_assert_int_eq(ohm_compute(&l, MHZ, &r), 0);
    ck_assert_double_eq_tol(r.window_us, 39, TOL);
    ck_assert_double_eq_tol(r.eng[0].overhead_us, 8, TOL);
    ck_assert_double_eq_tol(r.eng[1].overhead_us, 7, TOL);
    ck_assert_double_eq_tol(r.all_us, 3, TOL);
    ck_assert_double_eq_tol(r.has_us, 12, TOL);
    ohm_result_free(&r);
    exec_log_free(&l);
}
END_TEST

START_TEST(the_steps_are_the_lines_the_overhead_figures_integrate)
{
    /* the log of overhead_per_engine_all_and_has_by_hand, as a step function:
     * t, running AIC/AIV, ready AIC/AIV, overhead AIC/AIV, all, has */
    exec_log l;
    exec_log_init(&l, 0);
    add(&l, 1, 0, 0, 0, 1, 1, 11, 12);
    add(&l, 2, 1, 1, 15, 15, 16, 20, 21);
    add(&l, 3, 2, 1, 0, 2, 2, 30, 31);
    add(&l, 4, 0, 0, 22, 23, 23, 25, 26);
    add(&l, 5, 0, 0, 28, 29, 29, 33, 34);
    add(&l, 5, 1, 1, 28, 29, 29, 33, 34);
    edges(&l, 2, 2, (uint64_t)1, (uint64_t)99);
    edges(&l, 3, 1, (uint64_t)99);
    edges(&l, 4, 3, (uint64_t)1, (uint64_t)2, (uint64_t)1);
    edges(&l, 5, 1, (uint64_t)4);
    static const int64_t W[13][9] = {
        {1, 1, 0, 0, 0, 0, 0, 0, 0},  /* A starts */
        {2, 1, 1, 0, 0, 0, 0, 0, 0},  /* C starts */
        {11, 0, 1, 0, 1, 0, 1, 0, 1}, /* A ends, B ready: AIV has an idle core */
        {15, 0, 1, 0, 0, 0, 0, 0, 0}, /* B dispatched */
        {16, 0, 2, 0, 0, 0, 0, 0, 0}, /* B starts */
        {20, 0, 1, 1, 0, 1, 0, 0, 1}, /* B ends, D ready: AIC idle */
        {22, 0, 1, 0, 0, 0, 0, 0, 0}, /* D dispatched */
        {23, 1, 1, 0, 0, 0, 0, 0, 0}, /* D starts */
        {25, 0, 1, 1, 1, 1, 1, 1, 1}, /* D ends, the MIX task E ready on both engines */
        {28, 0, 1, 0, 0, 0, 0, 0, 0}, /* E dispatched */
        {29, 1, 2, 0, 0, 0, 0, 0, 0}, /* E starts on both */
        {30, 1, 1, 0, 0, 0, 0, 0, 0}, /* C ends */
        {33, 0, 0, 0, 0, 0, 0, 0, 0}, /* the window's end */
    };
    ohm_step *st;
    size_t n;
    bool present[2];
    ck_assert_int_eq(ohm_steps(&l, &st, &n, present), 0);
    ck_assert(present[0] && present[1]);
    ck_assert_uint_eq(n, 13);
    int64_t ov[2] = {0, 0}, all = 0, has = 0;
    for (size_t i = 0; i < n; i++) {
        const ohm_step *x = &st[i];
        int64_t got[9] = {x->t,           x->running[0],  x->running[1], x->ready[0], x->ready[1],
                          x->overhead[0], x->overhead[1], x->all,        x->has};
        for (int k = 0; k < 9; k++)
            ck_assert_msg(got[k] == W[i][k], "step %zu field %d: %lld, expected %lld", i, k,
                          (long long)got[k], (long long)W[i][k]);
        if (i + 1 < n) {
            int64_t len = st[i + 1].t - x->t;
            ov[0] += x->overhead[0] * len;
            ov[1] += x->overhead[1] * len;
            all += x->all * len;
            has += x->has * len;
        }
    }
    /* what ohm_compute reports for this log: AIC 5, AIV 7, all 3, has 9 */
    ck_assert_int_eq(ov[0], 5);
    ck_assert_int_eq(ov[1], 7);
    ck_assert_int_eq(all, 3);
    ck_assert_int_eq(has, 9);
    free(st);
    /* a dropped log has no step */
    l.dropped = true;
    ck_assert_int_eq(ohm_steps(&l, &st, &n, present), 0);
    ck_assert_uint_eq(n, 0);
    ck_assert(st == NULL);
    l.dropped = false;
    exec_log_free(&l);
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
static void switch_log(exec_log *l)
{
    exec_log_init(l, 0);
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
    exec_log l;
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
    exec_log_free(&l);
}
END_TEST

START_TEST(head_and_tail_distributions_by_hand)
{
    exec_log l;
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
    exec_log_free(&l);
}
END_TEST

START_TEST(gap_decomposition_splits_switches_into_tail_and_setup)
{
    exec_log l;
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
    exec_log_free(&l);
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
static void path_log(exec_log *l, int64_t s_end)
{
    exec_log_init(l, 0);
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
    exec_log l;
    ohm_result r;
    path_log(&l, 16);
    ck_assert_int_eq(ohm_compute(&l, MHZ, &r), 0);
    ck_assert_int_eq(r.cp_hops, 2);
    ck_assert_double_eq_tol(r.cp_span_us, 32, TOL);
    ck_assert_double_eq_tol(r.cp_exec_us, 20, TOL);
    ck_assert_double_eq_tol(r.cp_sched_us, 10, TOL);
    ck_assert_double_eq_tol(r.cp_other_us, 2, TOL);
    ohm_result_free(&r);
    exec_log_free(&l);
    path_log(&l, 20);
    ck_assert_int_eq(ohm_compute(&l, MHZ, &r), 0);
    ck_assert_double_eq_tol(r.cp_exec_us, 19, TOL);
    ck_assert_double_eq_tol(r.cp_sched_us, 11, TOL);
    ck_assert_double_eq_tol(r.cp_other_us, 2, TOL);
    ohm_result_free(&r);
    exec_log_free(&l);
}
END_TEST

/*
 * The runtime's critical_path tool (model/analysis/critical_path.c) on the same log, tick = 1 us. Happens-before: all four
 * edges (each producer ended within 2 ticks of its consumer's start and started earlier). Static CPM over
 * the task spans 1: 8, 2: 7, 3: 2, 4: 5: finish 1 = 8, 2 = 15, 3 = 10, 4 = 15 + 5 = 20, the path 1 2 4, 3
 * tasks. Observed, back from 4 (the last end, 30): its candidates 2 (ended 20, data), 3 (16, data) and 1 (its
 * core's last, 10, core): 2; then 1 (data); 1 has none: front-gap. Forward from t0 = 2: 1 computes 8; 2
 * stalls 13 - 10 = 3 (data-wait) and computes 7; 4 stalls 25 - 20 = 5 (data-wait), computes 5: compute 20,
 * stall 8, makespan 30 - 2 = 28.
 * With S ending at 20 too, 2 and 3 tie at 20 and the tool takes the larger id as a string, "3": 3 stalls 4
 * and computes 6; compute 19, stall 9. The CPM still goes through 2 (15 > 8 + 6).
 * A core wait: task 1 on core 0 runs 1-10, task 2, with no edge, waits for the core and runs 12-20: back
 * from 2 its core's last, 1 (core-wait), then front-gap; 1 computes 9, 2 stalls 2 (core-wait) and computes
 * 8: compute 17, stall 2, makespan 19; no happens-before edge, so the CPM is the longest single task, 1's 9.
 */
START_TEST(the_critical_path_tool_by_hand)
{
    exec_log l;
    cpath_result c;
    path_log(&l, 16);
    ck_assert_int_eq(cpath_compute(&l, &c), 0);
    ck_assert(c.computed);
    ck_assert_uint_eq(c.tasks, 4);
    ck_assert_uint_eq(c.hb_edges, 4);
    ck_assert_int_eq(c.makespan, 28);
    ck_assert_int_eq(c.cpm, 20);
    ck_assert_uint_eq(c.cpm_tasks, 3);
    ck_assert_uint_eq(c.observed_tasks, 3);
    ck_assert_int_eq(c.compute, 20);
    ck_assert_int_eq(c.stall, 8);
    ck_assert_int_eq(c.kind[CPATH_DATA_WAIT], 8);
    ck_assert_int_eq(c.kind[CPATH_CORE_WAIT], 0);
    ck_assert_int_eq(c.kind[CPATH_FRONT_GAP], 0);
    exec_log_free(&l);
    path_log(&l, 20);
    ck_assert_int_eq(cpath_compute(&l, &c), 0);
    ck_assert_int_eq(c.compute, 19);
    ck_assert_int_eq(c.stall, 9);
    ck_assert_int_eq(c.cpm, 20);
    exec_log_free(&l);
    /* the tie again with Q as task 10 and S as task 9: as strings "9" is the larger, so S is taken
     * (compared as numbers, Q would be: compute 20, stall 8) */
    exec_log_init(&l, 0);
    add(&l, 1, 0, 0, 0, 2, 2, 10, 11);
    add(&l, 10, 1, 1, 12, 13, 13, 20, 22);
    add(&l, 9, 2, 1, 12, 14, 14, 20, 21);
    add(&l, 4, 0, 0, 23, 25, 25, 30, 34);
    edges(&l, 10, 1, (uint64_t)1);
    edges(&l, 9, 1, (uint64_t)1);
    edges(&l, 4, 2, (uint64_t)10, (uint64_t)9);
    ck_assert_int_eq(cpath_compute(&l, &c), 0);
    ck_assert_int_eq(c.compute, 19);
    ck_assert_int_eq(c.stall, 9);
    exec_log_free(&l);
    exec_log_init(&l, 0);
    add(&l, 1, 0, 0, 0, 1, 1, 10, 11);
    add(&l, 2, 0, 0, 0, 11, 12, 20, 21);
    ck_assert_int_eq(cpath_compute(&l, &c), 0);
    ck_assert_uint_eq(c.hb_edges, 0);
    ck_assert_int_eq(c.makespan, 19);
    ck_assert_uint_eq(c.observed_tasks, 2);
    ck_assert_int_eq(c.compute, 17);
    ck_assert_int_eq(c.kind[CPATH_CORE_WAIT], 2);
    ck_assert_int_eq(c.cpm, 9);
    ck_assert_uint_eq(c.cpm_tasks, 1);
    exec_log_free(&l);
}
END_TEST

/* tests/real/critical_path_oracle.txt holds what the runtime's critical_path tool computed of each capture's
 * own swimlane and deps.json (scripts/critical_path_oracle.sh): ptosim's must be the same, tick for tick. */
START_TEST(the_critical_path_of_each_real_capture_equals_the_runtime_tool)
{
    char *text = tu_read(PTOSIM_SRCDIR "/tests/real/critical_path_oracle.txt");
    ck_assert_ptr_nonnull(text);
    int captures = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#')
            continue;
        char name[64];
        long long v[11];
        ck_assert_int_eq(sscanf(line, "%63s %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld", name,
                                &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9], &v[10]),
                         12);
        char sl[512], dp[512], err[2048];
        snprintf(sl, sizeof(sl), PTOSIM_SRCDIR "/tests/real/%s/chip_swimlane_records.json", name);
        snprintf(dp, sizeof(dp), PTOSIM_SRCDIR "/tests/real/%s/deps.json", name);
        exec_log l;
        unsigned long long hz;
        size_t unmatched;
        ck_assert_msg(overhead_load(sl, dp, &l, &hz, &unmatched, err, sizeof(err)) == EXIT_OK, "%s", err);
        cpath_result c;
        ck_assert_int_eq(cpath_compute(&l, &c), 0);
        long long got[11] = {(long long)c.tasks,
                             (long long)c.hb_edges,
                             c.makespan,
                             c.cpm,
                             (long long)c.cpm_tasks,
                             (long long)c.observed_tasks,
                             c.compute,
                             c.stall,
                             c.kind[CPATH_DATA_WAIT],
                             c.kind[CPATH_CORE_WAIT],
                             c.kind[CPATH_FRONT_GAP]};
        static const char *const what[11] = {"tasks",     "hb_edges",  "makespan", "cpm",
                                             "cpm_tasks", "observed",  "compute",  "stall",
                                             "data_wait", "core_wait", "front_gap"};
        for (int i = 0; i < 11; i++)
            ck_assert_msg(got[i] == v[i], "%s %s: ptosim %lld, critical_path %lld", name, what[i], got[i],
                          v[i]);
        exec_log_free(&l);
        captures++;
    }
    free(text);
    ck_assert_int_ge(captures, 17);
}
END_TEST

START_TEST(a_log_past_its_limit_is_dropped_and_not_computed)
{
    exec_log l;
    exec_log_init(&l, 2);
    add(&l, 1, 0, 0, 0, 1, 1, 2, 3);
    add(&l, 2, 0, 0, 0, 1, 3, 4, 5);
    ck_assert(!l.dropped);
    add(&l, 3, 0, 0, 0, 1, 5, 6, 7);
    ck_assert(l.dropped);
    ck_assert_uint_eq(l.nx, 0);
    ohm_result r;
    ck_assert_int_eq(ohm_compute(&l, MHZ, &r), 0);
    ck_assert(!r.computed);
    exec_log_free(&l);
    exec_log_init(&l, 2);
    edges(&l, 1, 0);
    edges(&l, 2, 0);
    edges(&l, 3, 0); /* the third task passes the limit too */
    ck_assert(l.dropped);
    exec_log_free(&l);
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

/* ---- from files: the runtime's own tool as the oracle ---- */

/* Does |got - want| stay within half a unit of the last digit the tool printed (want as text)? */
static void near_printed(double got, const char *want, const char *where)
{
    const char *dot = strchr(want, '.');
    int decimals = dot ? (int)strlen(dot + 1) : 0;
    double tol = 0.5;
    for (int i = 0; i < decimals; i++)
        tol /= 10;
    ck_assert_msg(fabs(got - atof(want)) <= tol + 1e-9, "%s: ptosim %.6f, sched_overhead_analysis %s", where,
                  got, want);
}

/* The figure a line of tests/real/overhead_oracle.txt names, computed by ptosim, checked against it. */
static void check_figure(const ohm_result *r, const char *capture, const char *key, char **v, int nv)
{
    char where[160];
    snprintf(where, sizeof(where), "%s %s", capture, key);
    int ty = strncmp(key, "aiv", 3) == 0;
    const ohm_engine *e = &r->eng[ty];
    if (!strcmp(key, "executions")) {
        ck_assert_uint_eq(r->executions, strtoull(v[0], NULL, 10));
    } else if (!strcmp(key, "window_us")) {
        near_printed(r->window_us, v[0], where);
    } else if (!strcmp(key, "aic") || !strcmp(key, "aiv")) {
        near_printed(ohm_pct(r, e->overhead_us), v[0], where);
    } else if (!strcmp(key, "all")) {
        near_printed(ohm_pct(r, r->all_us), v[0], where);
    } else if (!strcmp(key, "has")) {
        near_printed(ohm_pct(r, r->has_us), v[0], where);
    } else if (strstr(key, "_sw")) {
        ck_assert_int_eq(nv, 6);
        ck_assert_int_eq(e->cores, atoi(v[0]));
        near_printed(e->sw_min_us, v[1], where);
        near_printed(e->sw_mean_us, v[2], where);
        near_printed(e->sw_max_us, v[3], where);
        ck_assert_uint_eq(e->sw_events, strtoull(v[4], NULL, 10));
        near_printed(e->sw_events ? e->sw_mean_us * e->cores / (double)e->sw_events : 0, v[5], where);
    } else if (strstr(key, "_split")) {
        near_printed(100 * e->sw_overhead_us / (e->sw_overhead_us + e->sw_independent_us), v[0], where);
    } else if (!strcmp(key, "bound")) {
        near_printed(r->bound_lo_us, v[0], where);
        near_printed(r->bound_hi_us, v[1], where);
    } else if (!strcmp(key, "head") || !strcmp(key, "tail")) {
        const ohm_dist *d = !strcmp(key, "head") ? &r->head : &r->tail;
        ck_assert_int_eq(nv, 11);
        ck_assert_uint_eq(d->n, strtoull(v[0], NULL, 10));
        for (int k = 0; k < OHM_PCTS; k++)
            near_printed(d->pct[k], v[1 + k], where);
        near_printed(d->max, v[8], where);
        near_printed(d->mean, v[9], where);
        near_printed(d->sum, v[10], where);
    } else if (!strcmp(key, "cp")) {
        ck_assert_int_eq(nv, 5);
        ck_assert_int_eq(r->cp_hops, atoi(v[0]));
        near_printed(r->cp_span_us, v[1], where);
        near_printed(r->cp_exec_us, v[2], where);
        near_printed(r->cp_sched_us, v[3], where);
        near_printed(r->cp_other_us, v[4], where);
    } else {
        ck_abort_msg("%s: unknown figure", where);
    }
}

/* tests/real/overhead_oracle.txt holds what the runtime's sched_overhead_analysis printed for each
 * capture's own swimlane and deps.json; ptosim's model of the same files must print the same. */
START_TEST(overhead_of_each_real_capture_equals_the_runtime_tool)
{
    char *text = tu_read(PTOSIM_SRCDIR "/tests/real/overhead_oracle.txt");
    ck_assert_ptr_nonnull(text);
    char capture[64] = "";
    ohm_result r = {0};
    int figures = 0, captures = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#')
            continue;
        char *v[16];
        int nv = 0;
        char *save, *name = strtok_r(line, " ", &save), *key = strtok_r(NULL, " ", &save);
        while (nv < 16 && (v[nv] = strtok_r(NULL, " ", &save)))
            nv++;
        ck_assert_msg(name && key && nv > 0, "malformed oracle line");
        if (strcmp(name, capture) != 0) {
            ohm_result_free(&r);
            snprintf(capture, sizeof(capture), "%s", name);
            char sl[512], dp[512], err[2048];
            snprintf(sl, sizeof(sl), PTOSIM_SRCDIR "/tests/real/%s/chip_swimlane_records.json", name);
            snprintf(dp, sizeof(dp), PTOSIM_SRCDIR "/tests/real/%s/deps.json", name);
            exec_log l;
            unsigned long long hz;
            size_t unmatched;
            ck_assert_msg(overhead_load(sl, dp, &l, &hz, &unmatched, err, sizeof(err)) == EXIT_OK, "%s", err);
            ck_assert_int_eq(ohm_compute(&l, hz, &r), 0);
            ck_assert(r.computed);
            exec_log_free(&l);
            captures++;
        }
        check_figure(&r, name, key, v, nv);
        figures++;
    }
    ohm_result_free(&r);
    free(text);
    ck_assert_int_ge(captures, 16);
    ck_assert_int_ge(figures, 180);
}
END_TEST

/* The figures a run writes into ptosim_run.json are those its own files give. */
static void run_equals_files(const char *trace)
{
    const char *dir = tu_tmpdir();
    const char *args[] = {"run",     trace, "-o", dir, "--enable-chip-swimlane=4", "--enable-dep-gen",
                          "--quiet", NULL};
    run_out o = tu_run(args);
    ck_assert_msg(o.status == 0, "%s: %s", trace, o.err);
    tu_run_free(&o);
    char p[1024], sl[1024], dp[1024], err[2048];
    snprintf(p, sizeof(p), "%s/ptosim_run.json", dir);
    snprintf(sl, sizeof(sl), "%s/dfx_outputs/chip_swimlane_records.json", dir);
    snprintf(dp, sizeof(dp), "%s/dfx_outputs/deps.json", dir);
    exec_log l;
    unsigned long long hz;
    size_t unmatched;
    ck_assert_msg(overhead_load(sl, dp, &l, &hz, &unmatched, err, sizeof(err)) == EXIT_OK, "%s", err);
    ck_assert_uint_eq(unmatched, 0);
    ohm_result r;
    ck_assert_int_eq(ohm_compute(&l, hz, &r), 0);
    cJSON *j = tu_json_file(p);
    const cJSON *o2 = cJSON_GetObjectItem(j, "overhead");
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(o2, "computed")));
    ck_assert_uint_eq((uint64_t)cJSON_GetObjectItem(o2, "executions")->valuedouble, r.executions);
    const cJSON *pct = cJSON_GetObjectItem(o2, "overhead_pct");
    ck_assert_double_eq_tol(cJSON_GetObjectItem(pct, "has")->valuedouble, ohm_pct(&r, r.has_us), 5e-4);
    ck_assert_double_eq_tol(cJSON_GetObjectItem(pct, "all")->valuedouble, ohm_pct(&r, r.all_us), 5e-4);
    static const char *const TY[2] = {"aic", "aiv"};
    for (int ty = 0; ty < 2; ty++)
        if (r.eng[ty].present)
            ck_assert_double_eq_tol(cJSON_GetObjectItem(pct, TY[ty])->valuedouble,
                                    ohm_pct(&r, r.eng[ty].overhead_us), 5e-4);
    const cJSON *cp = cJSON_GetObjectItem(o2, "critical_path");
    ck_assert_double_eq_tol(cJSON_GetObjectItem(cp, "scheduler_us")->valuedouble, r.cp_sched_us, 5e-4);
    ck_assert_double_eq_tol(cJSON_GetObjectItem(cp, "span_us")->valuedouble, r.cp_span_us, 5e-4);
    /* the critical_path tool's figures: what the tool computes of the run's own files */
    const cJSON *tool = cJSON_GetObjectItem(o2, "critical_path_tool");
    double us = 1e6 / (double)hz;
    ck_assert_uint_eq((uint64_t)cJSON_GetObjectItem(tool, "observed_tasks")->valuedouble,
                      r.tool.observed_tasks);
    ck_assert_uint_eq((uint64_t)cJSON_GetObjectItem(tool, "static_cpm_tasks")->valuedouble, r.tool.cpm_tasks);
    ck_assert_double_eq_tol(cJSON_GetObjectItem(tool, "compute_us")->valuedouble, (double)r.tool.compute * us,
                            5e-4);
    ck_assert_double_eq_tol(cJSON_GetObjectItem(tool, "static_cpm_us")->valuedouble, (double)r.tool.cpm * us,
                            5e-4);
    ck_assert_double_eq_tol(cJSON_GetObjectItem(tool, "data_wait_us")->valuedouble,
                            (double)r.tool.kind[CPATH_DATA_WAIT] * us, 5e-4);
    const cJSON *tail = cJSON_GetObjectItem(o2, "tail_us");
    ck_assert_double_eq_tol(cJSON_GetObjectItem(tail, "p90")->valuedouble, r.tail.pct[4], 5e-4);
    cJSON_Delete(j);
    ohm_result_free(&r);
    exec_log_free(&l);
}

START_TEST(a_run_and_its_own_files_give_the_same_figures)
{
    run_equals_files(TRACE("gen_decode_layer.jsonl"));
    run_equals_files(TRACE("mix_spmd.jsonl"));
    run_equals_files(TRACE("gen_paged_attention_spmd.jsonl"));
    run_equals_files(TRACE("kv_decode.jsonl"));
}
END_TEST

static run_out overhead_cmd(const char *a1, const char *a2, const char *a3)
{
    const char *args[] = {"overhead", a1, a2, a3, NULL};
    return tu_run(args);
}

START_TEST(overhead_command_reports_and_rejects_bad_input)
{
    run_out o = overhead_cmd(PTOSIM_SRCDIR "/tests/real/vector", NULL, NULL);
    ck_assert_msg(o.status == 0, "%s", o.err);
    ck_assert_msg(strstr(o.out, "5 executions of 5 tasks") && strstr(o.out, "per engine: aiv 12.9%"), "%s",
                  o.out);
    tu_run_free(&o);
    o = overhead_cmd(NULL, NULL, NULL);
    ck_assert_int_eq(o.status, 2);
    ck_assert_str_eq(o.err, "ptosim overhead: missing DIR or SWIMLANE.json\n" TU_USAGE_OVERHEAD);
    tu_run_free(&o);
    const char *dir = tu_tmpdir();
    o = overhead_cmd(dir, NULL, NULL);
    ck_assert_int_eq(o.status, 2);
    ck_assert_msg(strstr(o.err, "no chip_swimlane_records.json (run with --enable-chip-swimlane)"), "%s",
                  o.err);
    tu_run_free(&o);
    o = overhead_cmd(PTOSIM_SRCDIR "/tests/real/vector", "--deps-json", NULL);
    ck_assert_int_eq(o.status, 2);
    ck_assert_str_eq(o.err, "ptosim overhead: --deps-json needs a file\n" TU_USAGE_OVERHEAD);
    tu_run_free(&o);
    o = overhead_cmd(PTOSIM_SRCDIR "/tests/real/vector", "--deps-json", "/nonexistent/deps.json");
    ck_assert_int_eq(o.status, 2);
    ck_assert_msg(strstr(o.err, "/nonexistent/deps.json: no such file; the model needs the task graph"), "%s",
                  o.err);
    tu_run_free(&o);
    /* level 1 has no dispatch or finish times */
    free(tu_write(
        dir, "chip_swimlane_records.json",
        "{\"chip_swimlane_level\": 1, \"metadata\": {\"clock_freq_hz\": 50000000, \"num_cores\": 1, "
        "\"core_types\": [\"aiv\"]}, \"aicore_tasks\": [[0, 7, 1, 10, 20, 0]], \"aicpu_tasks\": []}"));
    free(tu_write(dir, "deps.json", "{\"tasks\": [], \"edges\": []}"));
    o = overhead_cmd(dir, NULL, NULL);
    ck_assert_int_eq(o.status, 3);
    ck_assert_msg(strstr(o.err, "chip_swimlane_level 1 has no dispatch and finish times; the overhead model "
                                "needs level 2 or more (--enable-chip-swimlane=2)"),
                  "%s", o.err);
    tu_run_free(&o);
    free(
        tu_write(dir, "chip_swimlane_records.json",
                 "{\"chip_swimlane_level\": 2, \"metadata\": {\"clock_freq_hz\": 50000000, \"num_cores\": 1, "
                 "\"core_types\": [\"aiv\"]}, \"aicore_tasks\": [[0, 7, 1, 10, 20, 0]], \"aicpu_tasks\": "
                 "[[0, 1, 5]]}"));
    o = overhead_cmd(dir, NULL, NULL);
    ck_assert_int_eq(o.status, 3);
    ck_assert_msg(strstr(o.err, "aicpu_tasks[0]: not [core_id, reg_task_id, dispatch, finish] non-negative "
                                "integers"),
                  "%s", o.err);
    tu_run_free(&o);
    /* a row the AICore side never recorded is left out and counted */
    free(
        tu_write(dir, "chip_swimlane_records.json",
                 "{\"chip_swimlane_level\": 2, \"metadata\": {\"clock_freq_hz\": 50000000, \"num_cores\": 1, "
                 "\"core_types\": [\"aiv\"]}, \"aicore_tasks\": [[0, 7, 1, 10, 20, 0]], \"aicpu_tasks\": "
                 "[[0, 1, 5, 25], [0, 2, 30, 40]]}"));
    o = overhead_cmd(dir, NULL, NULL);
    ck_assert_msg(o.status == 0, "%s", o.err);
    ck_assert_msg(strstr(o.out, "1 aicpu_tasks rows have no aicore_tasks row and are left out") &&
                      strstr(o.out, "1 executions of 1 tasks, window 0.200 us"),
                  "%s", o.out);
    tu_run_free(&o);
    free(tu_write(dir, "deps.json", "{\"tasks\": 3}"));
    o = overhead_cmd(dir, NULL, NULL);
    ck_assert_int_eq(o.status, 3);
    ck_assert_msg(strstr(o.err, "deps.json: tasks: not an array"), "%s", o.err);
    tu_run_free(&o);
}
END_TEST

/* The makespan-determining path adds its first task's head (start - dispatch), which falls before the
 * first start its span is measured from, so the scheduler-injected share can pass 100 %; wherever it is
 * printed a share above 100 % is explained.
 * By hand, `ptosim overhead` on one task at 50 MHz (20 ns a tick): dispatched at 1000000, it starts at
 * 1000500, ends at 1000600 and is seen finished at 1000610. No producer: 0 hops, span 1000610 - 1000500 =
 * 110 ticks (2.200 us), compute 100 ticks (2.000 us, 90.9 %), scheduler-injected its head, 500 ticks
 * (10.000 us, 454.5 %), other 0.
 * In a run: 24 AIC tasks of 100 us fill the 24 AIC cores; a 25th of 40 us, submitted right after them, is
 * written into the pending slot of the core that started first and starts when that core's task ends, about
 * 80 us later; it ends last (the others ended within 25 us of each other), so the path is that task alone
 * (0 hops, compute 40 us) and its head is twice its span. A chain of 30 1-us AIV tasks beside them keeps
 * the AIV engine waiting on the scheduler between its hops (has above the summary's 8 % line), so the
 * summary prints the path too. */
static char *pending_slot_graph(void)
{
    size_t cap = 16384, n = 0;
    char *g = malloc(cap);
    ck_assert_ptr_nonnull(g);
    n += (size_t)snprintf(g + n, cap - n,
                          "{\"ptosim_graph\": 1, \"name\": \"pending\", \"kernels\": [{\"id\": 0, \"name\": "
                          "\"long\", \"core\": \"aic\", \"cost\": {\"ns\": 100000}}, {\"id\": 1, \"name\": "
                          "\"short\", \"core\": \"aic\", \"cost\": {\"ns\": 40000}}, {\"id\": 2, \"name\": "
                          "\"step\", \"core\": \"aiv\", \"cost\": {\"ns\": 1000}}], \"tensors\": [{\"name\": "
                          "\"x\", \"dtype\": \"FLOAT32\", \"shape\": [16]}]}\n");
    for (int i = 0; i < 25; i++)
        n += (size_t)snprintf(g + n, cap - n,
                              "{\"op\": \"submit\", \"kernel\": \"%s\", \"args\": [{\"dir\": \"in\", \"tensor\": "
                              "\"x\"}, {\"dir\": \"out\", \"tensor\": \"o%d\", \"dtype\": \"FLOAT32\", "
                              "\"shape\": [16]}]}\n",
                              i < 24 ? "long" : "short", i);
    for (int i = 0; i < 30; i++) {
        char in[16];
        snprintf(in, sizeof(in), i ? "c%d" : "x", i - 1);
        n += (size_t)snprintf(g + n, cap - n,
                              "{\"op\": \"submit\", \"kernel\": \"step\", \"args\": [{\"dir\": \"in\", "
                              "\"tensor\": \"%s\"}, {\"dir\": \"out\", \"tensor\": \"c%d\", \"dtype\": "
                              "\"FLOAT32\", \"shape\": [16]}]}\n",
                              in, i);
    }
    ck_assert_uint_lt(n, cap);
    return g;
}

#define OVER_100                                                                                             \
    "(scheduler-injected above 100%: it includes the first task's wait from its dispatch to its start, "     \
    "which comes before the path's span, and that wait is longer than the whole path)\n"

/* The share printed after "scheduler-injected " in text, which must be there. */
static double injected_share(const char *text)
{
    const char *p = strstr(text, "scheduler-injected ");
    ck_assert_msg(p != NULL, "%s", text);
    return atof(p + strlen("scheduler-injected "));
}

START_TEST(a_scheduler_injected_share_above_100_percent_is_explained_where_printed)
{
    const char *dir = tu_tmpdir();
    free(tu_write(dir, "chip_swimlane_records.json",
                  "{\"chip_swimlane_level\": 2, \"metadata\": {\"clock_freq_hz\": 50000000, \"num_cores\": 1, "
                  "\"core_types\": [\"aiv\"]}, \"aicore_tasks\": [[0, 7, 1, 1000500, 1000600, 0]], "
                  "\"aicpu_tasks\": [[0, 1, 1000000, 1000610]]}"));
    free(tu_write(dir, "deps.json", "{\"tasks\": [], \"edges\": []}"));
    run_out o = overhead_cmd(dir, NULL, NULL);
    ck_assert_msg(o.status == 0, "%s", o.err);
    ck_assert_msg(strstr(o.out, "4. Critical path: 0 hops, span 2.200 us\n"
                                "   compute 2.000 us (90.9%), scheduler-injected 10.000 us (454.5%), other "
                                "0.000 us\n   " OVER_100),
                  "%s", o.out);
    tu_run_free(&o);

    char *g = pending_slot_graph();
    char *path = tu_write(dir, "pending.jsonl", g);
    free(g);
    const char *run[] = {"run", path, NULL};
    o = tu_run(run);
    ck_assert_msg(o.status == 0, "%s", o.err);
    const char *line = strstr(o.out, "  makespan-determining path (sched_overhead_analysis): ");
    ck_assert_msg(line && strstr(line, " over 0 hops, compute "), "%s", o.out);
    ck_assert_msg(injected_share(line) > 100, "%s", o.out);
    const char *eol = strchr(line, '\n');
    ck_assert_msg(eol && !strncmp(eol + 1, "  " OVER_100, strlen("  " OVER_100)), "%s", o.out);
    tu_run_free(&o);
    const char *tune[] = {"tune", path, "--max-trials", "0", NULL};
    o = tu_run(tune);
    ck_assert_msg(o.status == 0, "%s", o.err);
    line = strstr(o.out, "   makespan-determining path (sched_overhead_analysis): ");
    ck_assert_msg(line && injected_share(line) > 100, "%s", o.out);
    eol = strchr(line, '\n');
    ck_assert_msg(eol && !strncmp(eol + 1, "   " OVER_100, strlen("   " OVER_100)), "%s", o.out);
    tu_run_free(&o);
    free(path);

    /* below 100 % nothing more is said: the 3-task chain's 9.9 % */
    const char *chain[] = {"tune", TRACE("chain3.jsonl"), "--max-trials", "0", NULL};
    o = tu_run(chain);
    ck_assert_msg(o.status == 0, "%s", o.err);
    ck_assert_msg(strstr(o.out, "scheduler-injected 9.9%\n") && !strstr(o.out, "above 100%"), "%s", o.out);
    tu_run_free(&o);
}
END_TEST

/* The task-id map the analyses and the Perfetto writer share: every key finds the index put first, keys
 * that share a home slot (task ids of two rings, 0 and UINT64_MAX among them) are told apart, a second put
 * keeps the first index, and an absent key is SIZE_MAX. */
START_TEST(the_id_map_finds_each_key_it_was_given)
{
    idmap m;
    ck_assert_int_eq(idmap_init(&m, 1000), 0);
    ck_assert_uint_eq(m.mask + 1, 2048); /* 16, doubled while under twice the entries */
    ck_assert_uint_eq(idmap_get(&m, 42), SIZE_MAX);
    for (uint64_t i = 0; i < 500; i++) { /* ring 1's and ring 2's local ids 0..499 */
        ck_assert_uint_eq(idmap_put(&m, (1ull << 32) | i, (size_t)i), (size_t)i);
        ck_assert_uint_eq(idmap_put(&m, (2ull << 32) | i, (size_t)(500 + i)), (size_t)(500 + i));
    }
    ck_assert_uint_eq(idmap_put(&m, 0, 7), 7);
    ck_assert_uint_eq(idmap_put(&m, UINT64_MAX, 8), 8);
    ck_assert_uint_eq(idmap_put(&m, (1ull << 32) | 3, 999), 3); /* there already: its first index */
    for (uint64_t i = 0; i < 500; i++) {
        ck_assert_uint_eq(idmap_get(&m, (1ull << 32) | i), (size_t)i);
        ck_assert_uint_eq(idmap_get(&m, (2ull << 32) | i), (size_t)(500 + i));
        ck_assert_uint_eq(idmap_get(&m, (3ull << 32) | i), SIZE_MAX);
    }
    ck_assert_uint_eq(idmap_get(&m, 0), 7);
    ck_assert_uint_eq(idmap_get(&m, UINT64_MAX), 8);
    size_t used = 0;
    for (size_t i = 0; i <= m.mask; i++)
        used += m.val[i] != SIZE_MAX;
    ck_assert_uint_eq(used, 1002);
    idmap_free(&m);
    ck_assert_ptr_null(m.key);
}
END_TEST

Suite *suite_ohm(void)
{
    Suite *s = suite_create("ohm");
    TCase *tc = tcase_create("ohm");
    tcase_add_test(tc, overhead_per_engine_all_and_has_by_hand);
    tcase_add_test(tc, the_figures_after_the_steps_are_those_of_the_log_as_it_is_then);
    tcase_add_test(tc, the_steps_are_the_lines_the_overhead_figures_integrate);
    tcase_add_test(tc, aicore_switch_per_core_split_and_bound_by_hand);
    tcase_add_test(tc, head_and_tail_distributions_by_hand);
    tcase_add_test(tc, gap_decomposition_splits_switches_into_tail_and_setup);
    tcase_add_test(tc, critical_path_splits_compute_and_scheduler_by_hand);
    tcase_add_test(tc, the_critical_path_tool_by_hand);
    tcase_add_test(tc, the_critical_path_of_each_real_capture_equals_the_runtime_tool);
    tcase_add_test(tc, a_log_past_its_limit_is_dropped_and_not_computed);
    tcase_add_test(tc, the_3_task_chain_in_a_run_by_hand);
    tcase_add_test(tc, overhead_of_each_real_capture_equals_the_runtime_tool);
    tcase_add_test(tc, a_run_and_its_own_files_give_the_same_figures);
    tcase_add_test(tc, overhead_command_reports_and_rejects_bad_input);
    tcase_add_test(tc, a_scheduler_injected_share_above_100_percent_is_explained_where_printed);
    tcase_add_test(tc, the_id_map_finds_each_key_it_was_given);
    suite_add_tcase(s, tc);
    return s;
}
