/* test_sched.c - scheduler and AICore control path: dual issue, PMU single issue, first-task latency,
 * timeout. */
#include <stdlib.h>
#include <string.h>

#include "../model/chip.h"
#include "testutil.h"

#define NS(x) ((ps_t)(x)*PS_PER_NS)

/* One cluster, one scheduler thread: every AIC task lands on core 0. */
static const char *const ONE_CLUSTER[] = {"clusters=1", "aicpu_threads=2", NULL};

#define TWO_AIC                                                                                              \
    "{\"ptosim_graph\": 1, \"name\": \"d\", \"kernels\": [{\"id\": 0, \"name\": \"mm\", \"core\": \"aic\", " \
    "\"cost\": {\"cycles\": 18000}}]}\n{\"op\": \"submit\", \"kernel\": \"mm\"}\n{\"op\": \"submit\", "      \
    "\"kernel\": \"mm\"}\n"

static void pmu_on(chip_config *cfg)
{
    cfg->pmu_event_type = 2;
}

START_TEST(dual_issue_starts_the_pending_task_right_after_the_running_one)
{
    /* b is written into core 0's pending slot once a's ACK is seen; the core
     * reads it after a's FIN and record commit (520 ns) and starts it after
     * the payload setup (290 ns): 810 ns after a's end, the 0.81 us
     * back-to-back switch of runtime.md §5.3, with no AICPU round trip */
    chip *c = tu_chip(TWO_AIC, ONE_CLUSTER, 1, NULL);
    ck_assert_int_eq(c->status, CHIP_DONE);
    const sl_exec *a = &c->sl.per_core[0].v[0], *b = &c->sl.per_core[0].v[1];
    ck_assert_uint_eq(c->sl.per_core[0].n, 2);
    ck_assert_uint_lt(b->dispatch, a->end); /* pre-loaded while a ran */
    ck_assert_uint_eq(b->receive, a->end + NS(520));
    ck_assert_uint_eq(b->start, a->end + NS(810));
    /* a is retired when the AICPU sees b's ACK (case 2 of the transition table) */
    ck_assert_uint_ge(a->finish, b->start + NS(80));
    ck_assert_uint_le(a->finish, b->start + NS(80) + NS(215));
    tu_chip_free(c);
}
END_TEST

START_TEST(pmu_forces_single_issue)
{
    chip *c = tu_chip(TWO_AIC, ONE_CLUSTER, 1, pmu_on);
    ck_assert_int_eq(c->status, CHIP_DONE);
    const sl_exec *a = &c->sl.per_core[0].v[0], *b = &c->sl.per_core[0].v[1];
    ck_assert_uint_ge(b->dispatch, a->finish); /* only after a's FIN was observed */
    ck_assert_uint_gt(b->start, a->end + NS(810));
    tu_chip_free(c);
}
END_TEST

START_TEST(swimlane_record_writeback_slows_back_to_back_tasks_unless_disabled)
{
    chip *off = tu_chip(TWO_AIC, ONE_CLUSTER, 0, NULL);
    chip *on = tu_chip(TWO_AIC, ONE_CLUSTER, 1, NULL);
    const char *const free_dfx[] = {"clusters=1", "aicpu_threads=2", "dfx_overhead=0", NULL};
    chip *free_on = tu_chip(TWO_AIC, free_dfx, 1, NULL);
    /* b follows a on core 0 in every case: the record commit (520 ns) sits
     * between a's end and b's pickup only when the swimlane is collected and
     * dfx_overhead is on */
    const chip *runs[3] = {off, on, free_on};
    ps_t gap[3] = {0, NS(810), NS(290)};
    ck_assert_uint_eq(off->cores[0].busy_ps, 2 * NS(10000)); /* no records without a swimlane */
    for (int i = 1; i < 3; i++) {
        const sl_exec *a = &runs[i]->sl.per_core[0].v[0], *b = &runs[i]->sl.per_core[0].v[1];
        ck_assert_uint_eq(b->start - a->end, gap[i]);
    }
    ck_assert_uint_gt(on->end_time, off->end_time);
    ck_assert_uint_eq(free_on->end_time, off->end_time);
    tu_chip_free(off);
    tu_chip_free(on);
    tu_chip_free(free_on);
}
END_TEST

START_TEST(first_task_on_half_the_cores_is_slower)
{
    /* 48 independent AIV tasks: one per AIV core; odd cores pay 2.5-5 us */
    char *g = malloc(48 * 40 + 256);
    strcpy(g, "{\"ptosim_graph\": 1, \"name\": \"f\", \"kernels\": [{\"id\": 0, \"name\": \"v\", \"core\": "
              "\"aiv\", "
              "\"cost\": {\"cycles\": 1800000}}]}\n");
    for (int i = 0; i < 48; i++)
        strcat(g, "{\"op\": \"submit\", \"kernel\": \"v\"}\n");
    chip *c = tu_chip(g, NULL, 1, NULL);
    free(g);
    int slow = 0, fast = 0;
    for (int k = 24; k < 72; k++) {
        ck_assert_uint_eq(c->sl.per_core[k].n, 1);
        const sl_exec *e = &c->sl.per_core[k].v[0];
        ps_t head = e->start - e->dispatch; /* dispatch -> start */
        if (k & 1) {
            ck_assert_uint_ge(head, NS(140 + 290 + 2500));
            ck_assert_uint_le(head, NS(140 + 290 + 5000) + NS(5 * 24));
            slow++;
        } else {
            ck_assert_uint_le(head, NS(500)); /* steady 0.2-0.5 us */
            fast++;
        }
    }
    ck_assert_int_eq(slow, 24);
    ck_assert_int_eq(fast, 24);
    tu_chip_free(c);
}
END_TEST

static void timeout_50ms(chip_config *cfg)
{
    cfg->scheduler_timeout = 50 * PS_PER_MS;
}

START_TEST(a_kernel_that_never_ends_is_scheduler_timeout_100)
{
    /* 1e15 cycles is ~6.5 days; the thread owning the core sees no progress */
    chip *c = tu_chip("{\"ptosim_graph\": 1, \"name\": \"h\", \"kernels\": [{\"id\": 0, \"name\": \"spin\", "
                      "\"core\": \"aic\", \"cost\": {\"cycles\": 1000000000000000}}]}\n"
                      "{\"op\": \"submit\", \"kernel\": \"spin\"}\n",
                      NULL, 0, timeout_50ms);
    ck_assert_int_eq(c->status, CHIP_FATAL);
    ck_assert_int_eq(c->fatal_code, 100);
    ck_assert_msg(strstr(c->message,
                         "PTO2 scheduler timeout sub_class=S1:running-stalled (detail=1) completed=0/1 "
                         "running=1 ready=0 waiting=0 orch_done=1 stuck_task_id=0 stuck_core=0"),
                  "%s", c->message);
    /* the last progress was the dispatch iteration (ending at 1135 ns); the
     * timeout fires at the first idle check more than 50 ms later */
    ck_assert_uint_gt(c->end_time, NS(1135) + 50 * PS_PER_MS);
    ck_assert_uint_le(c->end_time, NS(1135) + 50 * PS_PER_MS + NS(215) + NS(100));
    tu_chip_free(c);
}
END_TEST

Suite *suite_sched(void)
{
    Suite *s = suite_create("sched");
    TCase *tc = tcase_create("control path");
    tcase_add_test(tc, dual_issue_starts_the_pending_task_right_after_the_running_one);
    tcase_add_test(tc, pmu_forces_single_issue);
    tcase_add_test(tc, swimlane_record_writeback_slows_back_to_back_tasks_unless_disabled);
    tcase_add_test(tc, first_task_on_half_the_cores_is_slower);
    tcase_add_test(tc, a_kernel_that_never_ends_is_scheduler_timeout_100);
    tcase_set_timeout(tc, 30);
    suite_add_tcase(s, tc);
    return s;
}
