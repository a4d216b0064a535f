/* test_sched.c - scheduler and AICore control path: dual issue, PMU single issue, first-task latency. */
/* And the timeout. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/engine/chip_engine.h"
#include "../model/output/run_report.h"
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
     * reads it after a's FIN and record commit (520 ns, plus 580 ns: a's record
     * is the core's first, written back cold) and starts it after the payload
     * setup (290 ns): 1390 ns after a's end, a core's cold first switch of
     * model/README.md §9.2 (0.81 us once warm), with no AICPU round trip */
    chip *c = tu_chip(TWO_AIC, ONE_CLUSTER, 1, NULL);
    ck_assert_int_eq(c->status, CHIP_DONE);
    const sl_exec *a = &c->sl.per_core[0].v[0], *b = &c->sl.per_core[0].v[1];
    ck_assert_uint_eq(c->sl.per_core[0].n, 2);
    ck_assert_uint_lt(b->dispatch, a->end); /* pre-loaded while a ran */
    ck_assert_uint_eq(b->receive, a->end + NS(520 + 580));
    ck_assert_uint_eq(b->start, a->end + NS(1390));
    /* a is retired when the AICPU sees b's ACK (case 2 of the transition
     * table): a load issued once the ACK is readable (80 ns), within one idle
     * iteration (215 ns), returning 100 ns later */
    ck_assert_uint_ge(a->finish, b->start + NS(80) + NS(100));
    ck_assert_uint_le(a->finish, b->start + NS(80) + NS(215) + NS(100));
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
    ck_assert_uint_eq(c->pending_dispatches, 0);
    ck_assert(report_perturbed(c));
    tu_chip_free(c);
}
END_TEST

START_TEST(swimlane_record_writeback_slows_back_to_back_tasks_unless_disabled)
{
    chip *off = tu_chip(TWO_AIC, ONE_CLUSTER, 0, NULL);
    chip *on = tu_chip(TWO_AIC, ONE_CLUSTER, 1, NULL);
    const char *const free_dfx[] = {"clusters=1", "aicpu_threads=2", "dfx_overhead=0", NULL};
    chip *free_on = tu_chip(TWO_AIC, free_dfx, 1, NULL);
    /* b follows a on core 0 in every case: the record commit (520 ns, and 580
     * more for the core's first record) sits between a's end and b's pickup
     * only when the swimlane is collected and dfx_overhead is on */
    const chip *runs[3] = {off, on, free_on};
    ps_t gap[3] = {0, NS(1390), NS(290)};
    ck_assert_uint_eq(off->cores[0].busy_ps, 2 * NS(10000)); /* no records without a swimlane */
    for (int i = 1; i < 3; i++) {
        const sl_exec *a = &runs[i]->sl.per_core[0].v[0], *b = &runs[i]->sl.per_core[0].v[1];
        ck_assert_uint_eq(b->start - a->end, gap[i]);
    }
    ck_assert_uint_gt(on->end_time, off->end_time);
    ck_assert_uint_eq(free_on->end_time, off->end_time);
    /* only b's pickup waited on a record commit, for all of its 1100 ns */
    ck_assert_uint_eq(on->record_wb_delay, NS(1100));
    ck_assert_uint_eq(off->record_wb_delay, 0);
    ck_assert_uint_eq(free_on->record_wb_delay, 0);
    ck_assert(report_perturbed(on));
    ck_assert(!report_perturbed(off) && !report_perturbed(free_on));
    ck_assert_uint_eq(on->pending_dispatches, 1); /* b went to the pending slot */
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

/* A warm-up SPMD task on all 48 AIV cores (so no first-task latency later),
 * 20 long AIV tasks, a 48-block sync-start AIV task, then 10 more long ones. */
static char *sync_graph(void)
{
    char *g = malloc(8192);
    strcpy(g, "{\"ptosim_graph\": 1, \"name\": \"s\", \"kernels\": [{\"id\": 0, \"name\": \"long\", "
              "\"core\": \"aiv\", "
              "\"cost\": {\"cycles\": 90000}}, {\"id\": 1, \"name\": \"bar\", \"core\": \"aiv\", \"cost\": "
              "{\"cycles\": 9000}}]}\n"
              "{\"op\": \"submit\", \"id\": \"warm\", \"kernel\": \"bar\", \"block_num\": 48}\n");
    for (int i = 0; i < 20; i++)
        strcat(g, "{\"op\": \"submit\", \"kernel\": \"long\", \"deps\": [\"warm\"]}\n");
    strcat(g, "{\"op\": \"submit\", \"kernel\": \"bar\", \"block_num\": 48, \"sync_start\": true, \"deps\": "
              "[\"warm\"]}\n");
    for (int i = 0; i < 10; i++)
        strcat(g, "{\"op\": \"submit\", \"kernel\": \"long\", \"deps\": [\"warm\"]}\n");
    return g;
}

START_TEST(sync_start_places_all_48_blocks_in_one_admission)
{
    char *g = sync_graph();
    chip *c = tu_chip(g, NULL, 3, NULL);
    free(g);
    ck_assert_int_eq(c->status, CHIP_DONE);
    uint64_t sync_id = 21;
    ps_t first = PS_NEVER, last = 0, long_end = 0, later_start = PS_NEVER;
    int blocks = 0;
    for (int k = 24; k < 72; k++)
        for (size_t i = 0; i < c->sl.per_core[k].n; i++) {
            const sl_exec *e = &c->sl.per_core[k].v[i];
            if (e->task_id == sync_id) {
                blocks++;
                first = e->start < first ? e->start : first;
                last = e->start > last ? e->start : last;
            } else if (e->task_id >= 1 && e->task_id <= 20 && e->end > long_end) {
                long_end = e->end;
            } else if (e->task_id > sync_id && e->start < later_start) {
                later_start = e->start;
            }
        }
    ck_assert_int_eq(blocks, 48);
    /* no wave: not one block starts before the other work has left the AIV cores */
    ck_assert_uint_gt(first, long_end);
    /* one admission: the three threads stage 16 blocks each in parallel
     * (16 payloads x 120 ns + barrier + stores), all start within ~2 us */
    ck_assert_uint_lt(last - first, NS(2000));
    /* normal dispatch was frozen during the drain */
    ck_assert_uint_gt(later_start, first);
    int drains = 0;
    for (int t = 0; t < 3; t++)
        for (size_t i = 0; i < c->sl.threads[t].n; i++)
            if (c->sl.threads[t].v[i].kind == PH_DRAIN) {
                ck_assert_uint_eq(c->sl.threads[t].v[i].tasks, 16);
                drains++;
            }
    ck_assert_int_eq(drains, 3);
    ck_assert_uint_eq(c->drain.drains, 1);
    ck_assert_uint_gt(c->drain.attempts_total, 0); /* it had to wait for the long tasks */
    tu_chip_free(c);
}
END_TEST

START_TEST(sync_start_fits_one_thread_without_a_drain)
{
    /* 8 AIC blocks fit thread 0's 8 idle AIC cores: the local fast path */
    chip *c = tu_chip(
        "{\"ptosim_graph\": 1, \"name\": \"s\", \"kernels\": [{\"id\": 0, \"name\": \"mm\", \"core\": "
        "\"aic\", \"cost\": {\"cycles\": 1800}}]}\n"
        "{\"op\": \"submit\", \"kernel\": \"mm\", \"block_num\": 8, \"sync_start\": true}\n",
        NULL, 1, NULL);
    ck_assert_int_eq(c->status, CHIP_DONE);
    ck_assert_uint_eq(c->drain.drains, 0);
    ck_assert_uint_eq(c->executions, 8);
    tu_chip_free(c);
}
END_TEST

/* Producer P (AIV, 10 us) writes t; consumer C (AIV, 1 us) reads it. */
static char *pc_graph(const char *p_flag, bool second_unflagged)
{
    char *g = malloc(2048);
    snprintf(g, 2048,
             "{\"ptosim_graph\": 1, \"name\": \"e\", \"kernels\": [{\"id\": 0, \"name\": \"p\", \"core\": "
             "\"aiv\", "
             "\"cost\": {\"cycles\": 18000}}, {\"id\": 1, \"name\": \"c\", \"core\": \"aiv\", \"cost\": "
             "{\"cycles\": "
             "1800}}]}\n"
             "{\"op\": \"submit\", \"kernel\": \"p\", \"early_resolve\": %s, \"args\": [{\"dir\": \"out\", "
             "\"tensor\": "
             "\"t\", \"dtype\": \"FLOAT32\", \"shape\": [1024]}]}\n"
             "%s"
             "{\"op\": \"submit\", \"kernel\": \"c\", \"args\": [{\"dir\": \"in\", \"tensor\": \"t\"}%s]}\n",
             p_flag,
             second_unflagged
                 ? "{\"op\": \"submit\", \"kernel\": \"p\", \"args\": [{\"dir\": \"out\", \"tensor\": "
                   "\"u\", \"dtype\": \"FLOAT32\", \"shape\": [1024]}]}\n"
                 : "",
             second_unflagged ? ", {\"dir\": \"in\", \"tensor\": \"u\"}" : "");
    return g;
}

/*
 * P: published 874, dispatched in thread 0's iteration at 920, stored 1130,
 * starts 1560, ends 11560; its FIN is read at 11770 and its completion walk
 * (one consumer) ends at 11770 + 40 + 502 = 12312.
 * Without the flag C is dispatched by that walk's thread: stored 12312 + 210 =
 * 12522, starts 12522 + 430 = 12952.
 * With it: C is wired while P, fully published, propagated; at C's publish
 * (1748) it becomes a candidate; thread 1 (idle, iterating every 115 ns from
 * 920) stages it at its iteration 1840 on its first AIV core (26): pop 60 +
 * payload 120 + wmb 30 -> stored at 2050, read at 2190, args filled by 3480.
 * The walk rings the doorbell at 12312; C starts when it is visible, 12452:
 * 500 ns sooner.
 */
START_TEST(early_dispatch_starts_the_consumer_sooner)
{
    char *g = pc_graph("false", false);
    chip *plain = tu_chip(g, NULL, 3, NULL);
    free(g);
    g = pc_graph("true", false);
    chip *early = tu_chip(g, NULL, 3, NULL);
    free(g);
    int core;
    const sl_exec *pp = tu_exec(plain, 0, NULL), *pc = tu_exec(plain, 1, NULL);
    ck_assert_uint_eq(pp->end, NS(11560));
    ck_assert_uint_eq(pc->start, NS(12952));
    const sl_exec *ep = tu_exec(early, 0, NULL), *ec = tu_exec(early, 1, &core);
    ck_assert_uint_eq(ep->end, NS(11560));
    ck_assert_int_eq(core, 26);
    ck_assert_uint_eq(ec->dispatch, NS(2050)); /* staged long before P ended */
    ck_assert_uint_eq(ec->start, NS(12452));
    ck_assert_uint_eq(early->early_staged, 1);
    ck_assert_uint_eq(early->early_rung, 1);
    int records = 0;
    for (size_t i = 0; i < early->sl.threads[1].n; i++)
        records += early->sl.threads[1].v[i].kind == PH_EARLY_DISPATCH;
    ck_assert_int_eq(records, 1);
    tu_chip_free(plain);
    tu_chip_free(early);
}
END_TEST

START_TEST(an_unflagged_producer_disqualifies_early_dispatch)
{
    char *g = pc_graph("true", true);
    chip *c = tu_chip(g, NULL, 3, NULL);
    free(g);
    ck_assert_int_eq(c->status, CHIP_DONE);
    ck_assert_uint_eq(c->early_staged, 0);
    const sl_exec *consumer = tu_exec(c, 2, NULL);
    ck_assert_uint_gt(consumer->dispatch, tu_exec(c, 1, NULL)->end); /* dispatched after both producers */
    tu_chip_free(c);
}
END_TEST

START_TEST(pmu_turns_early_dispatch_off)
{
    char *g = pc_graph("true", false);
    chip *c = tu_chip(g, NULL, 3, pmu_on);
    free(g);
    ck_assert_uint_eq(c->early_staged, 0);
    ck_assert_uint_gt(tu_exec(c, 1, NULL)->dispatch, tu_exec(c, 0, NULL)->end);
    tu_chip_free(c);
}
END_TEST

#define SYNC_PRODUCER(flag, consumer_sync)                                                                   \
    "{\"ptosim_graph\": 1, \"name\": \"se\", \"kernels\": [{\"id\": 0, \"name\": \"v\", \"core\": \"aiv\", " \
    "\"cost\": {\"ns\": 10000}}]}\n{\"op\": \"submit\", \"id\": \"a\", \"kernel\": \"v\", \"block_num\": "   \
    "4, "                                                                                                    \
    "\"sync_start\": true, \"early_resolve\": " flag                                                         \
    "}\n{\"op\": \"submit\", \"kernel\": \"v\", \"block_num\": "                                             \
    "2, \"sync_start\": " consumer_sync ", \"deps\": [\"a\"]}\n"

START_TEST(a_sync_start_producer_lets_its_flagged_consumers_be_pre_staged)
{
    /* the consumer of a flagged 4-block sync_start producer is pre-staged
     * (both its blocks) and starts sooner than without the flag; so is a
     * consumer that is itself sync_start, as one cohort whose two blocks are
     * rung together, one MMIO store (5 ns) apart */
    chip *plain = tu_chip(SYNC_PRODUCER("false", "false"), NULL, 3, NULL);
    chip *early = tu_chip(SYNC_PRODUCER("true", "false"), NULL, 3, NULL);
    chip *sync = tu_chip(SYNC_PRODUCER("true", "true"), NULL, 3, NULL);
    ck_assert_int_eq(early->status, CHIP_DONE);
    ck_assert_int_eq(sync->status, CHIP_DONE);
    ck_assert_uint_eq(plain->early_staged, 0);
    ck_assert_uint_eq(early->early_staged, 2);
    ck_assert_uint_eq(sync->early_staged, 2);
    ck_assert_uint_lt(tu_exec(early, 1, NULL)->start, tu_exec(plain, 1, NULL)->start);
    ck_assert_uint_lt(tu_exec(sync, 1, NULL)->dispatch, tu_exec(sync, 0, NULL)->end);
    ps_t starts[2];
    int n = 0;
    for (int k = 0; k < sync->ncores; k++)
        for (size_t i = 0; i < sync->sl.per_core[k].n; i++)
            if (sync->sl.per_core[k].v[i].task_id == 1)
                starts[n++] = sync->sl.per_core[k].v[i].start;
    ck_assert_int_eq(n, 2);
    ck_assert_uint_eq(starts[1] - starts[0], NS(5));
    tu_chip_free(plain);
    tu_chip_free(early);
    tu_chip_free(sync);
}
END_TEST

START_TEST(early_dispatch_counts_a_mix_consumer_in_blocks)
{
    /* a 2-block MIX consumer of a flagged producer: thread 1 stages both
     * blocks (6 cores) in one pass; the runtime's early_dispatch record and
     * early_staged count 2 blocks, the doorbells 6 cores */
    chip *c =
        tu_chip("{\"ptosim_graph\": 1, \"name\": \"m\", \"kernels\": [{\"id\": 0, \"name\": \"p\", "
                "\"core\": \"aiv\", \"cost\": {\"ns\": 10000}}, {\"id\": 1, \"name\": \"ca\", \"core\": "
                "\"aic\", \"cost\": {\"ns\": 1000}}, {\"id\": 2, \"name\": \"cv\", \"core\": \"aiv\", "
                "\"cost\": {\"ns\": 1000}}]}\n"
                "{\"op\": \"submit\", \"id\": \"p\", \"kernel\": \"p\", \"early_resolve\": true}\n"
                "{\"op\": \"submit\", \"kernels\": [\"ca\", \"cv\", \"cv\"], \"block_num\": 2, "
                "\"deps\": [\"p\"]}\n",
                NULL, 3, NULL);
    ck_assert_int_eq(c->status, CHIP_DONE);
    ck_assert_uint_eq(c->early_staged, 2);
    ck_assert_uint_eq(c->early_rung, 6);
    int records = 0;
    for (size_t i = 0; i < c->sl.threads[1].n; i++)
        if (c->sl.threads[1].v[i].kind == PH_EARLY_DISPATCH) {
            ck_assert_uint_eq(c->sl.threads[1].v[i].tasks, 2);
            records++;
        }
    ck_assert_int_eq(records, 1);
    tu_chip_free(c);
}
END_TEST

/* Producer P (AIV, 10 us, flagged) writes t; C, a 4-block sync_start AIV
 * task, reads it. */
#define SYNC_COHORT                                                                                          \
    "{\"ptosim_graph\": 1, \"name\": \"sc\", \"kernels\": [{\"id\": 0, \"name\": \"p\", \"core\": \"aiv\", " \
    "\"cost\": {\"cycles\": 18000}}, {\"id\": 1, \"name\": \"c\", \"core\": \"aiv\", \"cost\": "             \
    "{\"cycles\": 1800}}]}\n"                                                                                \
    "{\"op\": \"submit\", \"kernel\": \"p\", \"early_resolve\": true, \"args\": [{\"dir\": \"out\", "        \
    "\"tensor\": \"t\", \"dtype\": \"FLOAT32\", \"shape\": [1024]}]}\n"                                      \
    "{\"op\": \"submit\", \"kernel\": \"c\", \"block_num\": 4, \"sync_start\": true, \"args\": [{\"dir\": "  \
    "\"in\", \"tensor\": \"t\"}]}\n"

/*
 * P runs as in early_dispatch_starts_the_consumer_sooner: stored 1130,
 * 1560-11560, its completion walk ends at 12312. C is published at 1748 and
 * becomes a sync-start candidate; thread 1 (idle, every 115 ns from 920)
 * pops it at its iteration 1840: its 16 idle AIV cores hold the whole cohort,
 * so it stages all 4 blocks itself, gated, on its first four AIV cores (26,
 * 27, 32, 33): pop 60 + 4 payloads x 120 + wmb 30 -> one dispatch time,
 * 2410; stores to 2430. Every block took a running slot, so P's walk (12312)
 * is the rendezvous: it rings the four doorbells 5 ns apart and each block
 * starts when its store is visible (140 ns): 12452, 12457, 12462, 12467.
 * The odd cores' 2.5-5 us first-task pickup hides in the wait.
 */
START_TEST(early_dispatch_pre_stages_a_sync_start_cohort_whole)
{
    chip *c = tu_chip(SYNC_COHORT, NULL, 3, NULL);
    ck_assert_int_eq(c->status, CHIP_DONE);
    ck_assert_uint_eq(c->early_staged, 4);
    ck_assert_uint_eq(c->early_rung, 4);
    ck_assert_uint_eq(c->drain.drains, 0);
    ck_assert_uint_eq(tu_exec(c, 0, NULL)->end, NS(11560));
    const int cores[4] = {26, 27, 32, 33};
    for (int b = 0; b < 4; b++) {
        ck_assert_uint_eq(c->sl.per_core[cores[b]].n, 1);
        const sl_exec *e = &c->sl.per_core[cores[b]].v[0];
        ck_assert_uint_eq(e->task_id, 1);
        ck_assert_uint_eq(e->dispatch, NS(2410));
        ck_assert_uint_eq(e->start, NS(12452) + (ps_t)b * NS(5));
    }
    int records = 0;
    for (size_t i = 0; i < c->sl.threads[1].n; i++)
        if (c->sl.threads[1].v[i].kind == PH_EARLY_DISPATCH) {
            ck_assert_uint_eq(c->sl.threads[1].v[i].tasks, 4); /* blocks, as the runtime counts them */
            records++;
        }
    ck_assert_int_eq(records, 1);
    tu_chip_free(c);
}
END_TEST

/* One scheduler thread owning one cluster (AIC 0, AIV 1 and 2): L1 (20 us)
 * and L2 (30 us) fill the AIV cores; after 5 us of user code, P (AIC, 5 us,
 * flagged) and C (AIV, 2 blocks, sync_start, after P). */
static const char *const ONE_THREAD_ONE_CLUSTER[] = {"clusters=1", "aicpu_threads=2", NULL};
#define PENDING_COHORT(sync)                                                                                 \
    "{\"ptosim_graph\": 1, \"name\": \"pc\", \"kernels\": ["                                                 \
    "{\"id\": 0, \"name\": \"l1\", \"core\": \"aiv\", \"cost\": {\"ns\": 20000}}, "                          \
    "{\"id\": 1, \"name\": \"l2\", \"core\": \"aiv\", \"cost\": {\"ns\": 30000}}, "                          \
    "{\"id\": 2, \"name\": \"p\", \"core\": \"aic\", \"cost\": {\"ns\": 5000}}, "                            \
    "{\"id\": 3, \"name\": \"c\", \"core\": \"aiv\", \"cost\": {\"ns\": 1000}}]}\n"                          \
    "{\"op\": \"submit\", \"kernel\": \"l1\"}\n"                                                             \
    "{\"op\": \"submit\", \"kernel\": \"l2\"}\n"                                                             \
    "{\"op\": \"user_code\", \"ns\": 5000}\n"                                                                \
    "{\"op\": \"submit\", \"id\": \"p\", \"kernel\": \"p\", \"early_resolve\": true}\n"                      \
    "{\"op\": \"submit\", \"kernel\": \"c\", \"block_num\": 2, \"sync_start\": " sync                        \
    ", \"deps\": [\"p\"]}\n"

/*
 * L1 goes to core 1 (stored 1130), L2 to core 2 in the dispatch phase at
 * 1880: stored 2090, seen 2230, 2520-32520. P is published at 7622, C at
 * 8496. The thread, asleep since 7865 (3 busy cores: 415 ns iterations),
 * stages C at its dispatch phase of 8580: no idle AIV core, but both AIV
 * cores' ACKs were seen, so the cohort fits their pending slots: pop 60 + 2
 * x 120 + wmb 30 -> dispatched 8910, gated, no drain. P (stored 7860,
 * 8290-13290) completes and releases C while neither block holds a running
 * slot; core 1's block gets one when L1 ends (about 24.4 us): no doorbell
 * yet. The thread, asleep from 25667 with one core to poll (215 ns
 * iterations), first samples L2's FIN (32520 + 80) at 25667 + 33 x 215 =
 * 32762; the load returns at 32862, retiring L2 takes 40 + its walk 410 ->
 * 33312, and the promotion of C's second block completes the rendezvous
 * there: core 1's block starts when its doorbell is visible, 33452, held
 * 7 us past its own pickup; core 2's starts after the record commit (its
 * first: 520 + 580 cold), setup and its own arg fill: 32520 + 1100 + 290 +
 * 1000 = 34910. Without
 * sync_start the first block starts on its own, before L2 ends.
 */
START_TEST(a_sync_start_cohort_in_pending_slots_launches_at_its_last_promotion)
{
    chip *c = tu_chip(PENDING_COHORT("true"), ONE_THREAD_ONE_CLUSTER, 3, NULL);
    chip *plain = tu_chip(PENDING_COHORT("false"), ONE_THREAD_ONE_CLUSTER, 3, NULL);
    ck_assert_int_eq(c->status, CHIP_DONE);
    ck_assert_uint_eq(c->early_staged, 2);
    ck_assert_uint_eq(c->pending_dispatches, 2);
    ck_assert_uint_eq(c->drain.drains, 0);
    ck_assert_uint_eq(tu_exec(c, 1, NULL)->end, NS(32520));
    const sl_exec *b1 = &c->sl.per_core[1].v[1], *b2 = &c->sl.per_core[2].v[1];
    ck_assert_uint_eq(b1->task_id, 3);
    ck_assert_uint_eq(b2->task_id, 3);
    ck_assert_uint_eq(b1->dispatch, NS(8910));
    ck_assert_uint_eq(b2->dispatch, NS(8910));
    ck_assert_uint_eq(b1->start, NS(33452));
    ck_assert_uint_eq(b2->start, NS(34910));
    /* the ring is the end of the complete phase that retired L2 */
    bool seen = false;
    for (size_t i = 0; i < c->sl.threads[0].n; i++) {
        const sl_phase *p = &c->sl.threads[0].v[i];
        if (p->kind == PH_COMPLETE && p->start == NS(32762)) {
            ck_assert_uint_eq(p->end, NS(33312));
            seen = true;
        }
    }
    ck_assert(seen);
    ck_assert_uint_lt(tu_exec(plain, 3, NULL)->start, NS(32520));
    tu_chip_free(c);
    tu_chip_free(plain);
}
END_TEST

/* The 3-task chain of test_chip.c with the runtime's pre-#1293 AICore order (record, then FIN): a's
 * FIN is readable at 11560 + 520 (record) + 580 (the core's first record is cold) + 80 = 12740
 * instead of 11640. Thread 0 samples COND at 1135 + 215 k: the first sample at or after 12740 is
 * k = 54, 12745, ending at 12845 = a's finish (was 11770). b is ready 40 + 410 + 92 later, 13387, and
 * its store goes out 60 + 120 + 30 after that: 13597 (was 12522). a's own kernel window does not
 * move. */
static const char *CHAIN3_TEXT =
    "{\"ptosim_graph\": 1, \"name\": \"chain3\", \"kernels\": [{\"id\": 0, \"name\": \"vadd\", \"core\": "
    "\"aiv\", \"cost\": {\"cycles\": 18000}}], \"tensors\": [{\"name\": \"x\", \"dtype\": \"FLOAT32\", "
    "\"shape\": [16384]}]}\n"
    "{\"op\": \"submit\", \"kernel\": \"vadd\", \"args\": [{\"dir\": \"in\", \"tensor\": \"x\"}, {\"dir\": "
    "\"out\", \"tensor\": \"t0\", \"dtype\": \"FLOAT32\", \"shape\": [16384]}]}\n"
    "{\"op\": \"submit\", \"kernel\": \"vadd\", \"args\": [{\"dir\": \"in\", \"tensor\": \"t0\"}, {\"dir\": "
    "\"out\", \"tensor\": \"t1\", \"dtype\": \"FLOAT32\", \"shape\": [16384]}]}\n"
    "{\"op\": \"submit\", \"kernel\": \"vadd\", \"args\": [{\"dir\": \"in\", \"tensor\": \"t1\"}, {\"dir\": "
    "\"out\", \"tensor\": \"y\", \"dtype\": \"FLOAT32\", \"shape\": [16384]}]}\n";

START_TEST(fin_after_the_record_delays_completion_by_the_write_back)
{
    static const char *const sets[] = {"aicore_fin_after_record=1", NULL};
    chip *c = tu_chip(CHAIN3_TEXT, sets, 4, NULL);
    ck_assert_int_eq(c->status, CHIP_DONE);
    const sl_exec *a = tu_exec(c, 0, NULL), *b = tu_exec(c, 1, NULL);
    ck_assert_uint_eq(a->end, 11560 * PS_PER_NS);
    ck_assert_uint_eq(a->finish, 12845 * PS_PER_NS);
    ck_assert_uint_eq(b->dispatch, 13597 * PS_PER_NS);
    tu_chip_free(c);
    /* with the swimlane off there is no record to wait for */
    c = tu_chip(CHAIN3_TEXT, sets, 0, NULL);
    ck_assert_uint_eq(c->end_time, 35084 * PS_PER_NS);
    tu_chip_free(c);
}
END_TEST

/* The no-progress check of an idle thread, on chain3 (test_chip.c's timeline, ns). Threads 1 and 2
 * own no core that runs anything, so they never progress: each checks at its first idle iteration
 * (every 115 ns: no core to poll) past last_progress + timeout, and then either refreshes (a core
 * is owned) or latches code 100 (none is, tasks remain). A core is owned as the runtime's
 * running_slot_state is: from its payload (dispatch phase + 60 pop + 120 payload) until its
 * completion is handled (FIN seen + 40 + the walk). Thread 0 sees a's FIN in the iteration
 * 11670..11770, hands a over until 11770 + 40 + 502 = 12312, and b's payload is built at 12312 + 180
 * = 12492; b's FIN is seen in 23102..23202 and handled until 23744; c's payload at 23924. */
static ps_t idle_check_timeout;
static void idle_check_tweak(chip_config *cfg)
{
    cfg->scheduler_timeout = idle_check_timeout;
}

START_TEST(an_idle_thread_looking_during_a_completion_sees_its_core_owned)
{
    /* timeout 11700: the first checks land in [11700, 11815), while thread 0 still hands a over
     * (it used to see core 24 idle from its iteration's start, 11670, and latch S3:
     * completed=1/3 running=0 ready=1); they refresh, and the next ones land in [23400, 23630),
     * while b runs or is handed over; the third would come after 35084, the makespan */
    idle_check_timeout = NS(11700);
    chip *c = tu_chip(CHAIN3_TEXT, NULL, 0, idle_check_tweak);
    ck_assert_msg(c->status == CHIP_DONE, "%s", c->message);
    ck_assert_uint_eq(c->tasks_completed, 3);
    ck_assert_uint_eq(c->end_time, NS(35084));
    tu_chip_free(c);
}
END_TEST

START_TEST(an_idle_thread_looking_while_a_payload_is_built_latches_s3_and_says_it_was_a_hand_off)
{
    /* timeout 12320: the first check is the first 115 ns iteration past 12320, 108 x 115 = 12420,
     * inside b's hand-off [12312, 12492): no core owned, b ready, c waiting. The runtime latches
     * there too (scheduler_dispatch.cpp's idle-thread branch); ptosim says the run was moving:
     * core 24's payload was being built, and a's completion (its walk done) at 12312 was
     * 12420 - 12312 = 108 ns before the check. Thread 1 was woken for b at 12420 (the first of its
     * iterations whose dispatch phase comes after b was queued); thread 0 took b, so that iteration
     * was idle, and it is the one that checks. */
    idle_check_timeout = NS(12320);
    chip *c = tu_chip(CHAIN3_TEXT, NULL, 0, idle_check_tweak);
    ck_assert_int_eq(c->status, CHIP_FATAL);
    ck_assert_int_eq(c->fatal_code, 100);
    ck_assert_str_eq(c->message, "PTO2 scheduler timeout sub_class=S3:ready-but-all-idle (detail=3) "
                                 "completed=1/3 running=0 ready=1 waiting=1 orch_done=1 stuck_task_id=-1 "
                                 "stuck_core=-1");
    ck_assert_uint_eq(c->end_time, NS(12420));
    ck_assert_str_eq(c->note, "scheduler thread 1 made no progress for 0.012 ms; yet the run was not stuck: "
                              "it looked while a dispatch to core 24 was being prepared (the last task "
                              "completed 0.108 us before), a hand-off in which no thread owns a running "
                              "task, and the runtime's check reads that as a stall on silicon too; raise "
                              "--scheduler-timeout-ms to run past it");
    tu_chip_free(c);
}
END_TEST

/* One 100 us AIV producer on thread 0's first AIV core and N AIC consumers that read its output, all
 * wired before it ends. Its completion walk reaches them newest first (fanout lists are prepended):
 * N, N-1, ..., 1. Through the global queue (FIFO) thread 0 places consumer N on its first AIC core
 * (core 0); with local-first buffers (pre-#1245) it pops its own buffer last-in first: consumer 1
 * goes to core 0. With 40 consumers its budget is 8 (24 clusters / 3 threads): it keeps the first 8
 * the walk pushed (40..33) and spills the 32 others to the peers, which have idle AIC cores. */
static char *fan_graph(int n)
{
    char *t = malloc(512 + 200 * (size_t)n);
    strcpy(
        t,
        "{\"ptosim_graph\": 1, \"name\": \"fan\", \"kernels\": [{\"id\": 0, \"name\": \"p\", \"core\": "
        "\"aiv\", \"cost\": {\"ns\": 100000}}, {\"id\": 1, \"name\": \"c\", \"core\": \"aic\", \"cost\": "
        "{\"ns\": 20000}}], \"tensors\": [{\"name\": \"x\", \"dtype\": \"FLOAT32\", \"shape\": [64]}]}\n"
        "{\"op\": \"submit\", \"kernel\": \"p\", \"args\": [{\"dir\": \"in\", \"tensor\": \"x\"}, {\"dir\": "
        "\"out\", \"tensor\": \"t\", \"dtype\": \"FLOAT32\", \"shape\": [64]}]}\n");
    for (int i = 0; i < n; i++) {
        char l[200];
        snprintf(l, sizeof(l),
                 "{\"op\": \"submit\", \"kernel\": \"c\", \"args\": [{\"dir\": \"in\", \"tensor\": \"t\"}, "
                 "{\"dir\": \"out\", \"tensor\": \"o%d\", \"dtype\": \"FLOAT32\", \"shape\": [64]}]}\n",
                 i);
        strcat(t, l);
    }
    return t;
}

START_TEST(local_first_ready_buffers_pop_newest_first_and_spill_past_the_budget)
{
    static const char *const local[] = {"sched_local_ready=1", NULL};
    char *t = fan_graph(8);
    int core;
    chip *c = tu_chip(t, NULL, 2, NULL);
    tu_exec(c, 8, &core);
    ck_assert_int_eq(core, 0);
    tu_chip_free(c);
    c = tu_chip(t, local, 2, NULL);
    tu_exec(c, 1, &core);
    ck_assert_int_eq(core, 0);
    tu_exec(c, 8, &core);
    ck_assert_int_eq(core, 21); /* thread 0's eighth AIC core: clusters 0, 3, ..., 21 */
    tu_chip_free(c);
    free(t);
    t = fan_graph(40);
    c = tu_chip(t, local, 2, NULL);
    for (uint64_t id = 1; id <= 40; id++) {
        tu_exec(c, id, &core);
        if (id >= 33)
            ck_assert_msg(c->cores[core].thread == 0, "consumer %d ran on thread %d", (int)id,
                          c->cores[core].thread);
    }
    tu_exec(c, 33, &core);
    ck_assert_int_eq(core, 0);
    tu_chip_free(c);
    free(t);
}
END_TEST

Suite *suite_sched(void)
{
    Suite *s = suite_create("sched");
    TCase *tc = tcase_create("control path");
    tcase_add_test(tc, dual_issue_starts_the_pending_task_right_after_the_running_one);
    tcase_add_test(tc, fin_after_the_record_delays_completion_by_the_write_back);
    tcase_add_test(tc, local_first_ready_buffers_pop_newest_first_and_spill_past_the_budget);
    tcase_add_test(tc, pmu_forces_single_issue);
    tcase_add_test(tc, swimlane_record_writeback_slows_back_to_back_tasks_unless_disabled);
    tcase_add_test(tc, first_task_on_half_the_cores_is_slower);
    tcase_add_test(tc, a_kernel_that_never_ends_is_scheduler_timeout_100);
    tcase_add_test(tc, an_idle_thread_looking_during_a_completion_sees_its_core_owned);
    tcase_add_test(tc, an_idle_thread_looking_while_a_payload_is_built_latches_s3_and_says_it_was_a_hand_off);
    tcase_add_test(tc, sync_start_places_all_48_blocks_in_one_admission);
    tcase_add_test(tc, sync_start_fits_one_thread_without_a_drain);
    tcase_add_test(tc, early_dispatch_starts_the_consumer_sooner);
    tcase_add_test(tc, an_unflagged_producer_disqualifies_early_dispatch);
    tcase_add_test(tc, pmu_turns_early_dispatch_off);
    tcase_add_test(tc, a_sync_start_producer_lets_its_flagged_consumers_be_pre_staged);
    tcase_add_test(tc, early_dispatch_counts_a_mix_consumer_in_blocks);
    tcase_add_test(tc, early_dispatch_pre_stages_a_sync_start_cohort_whole);
    tcase_add_test(tc, a_sync_start_cohort_in_pending_slots_launches_at_its_last_promotion);
    tcase_set_timeout(tc, 30);
    suite_add_tcase(s, tc);
    return s;
}
