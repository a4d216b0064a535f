/* test_rings.c - rings and back-pressure: the runtime's fatal reproducers, hand-worked ring cases, scope
 * stats. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/chip.h"
#include "../model/ringres.h"
#include "testutil.h"

#define NS(x) ((ps_t)(x)*PS_PER_NS)

/* Kernels: long = 100 us, short = 1 us (AIV); mm = 1 us (AIC). */
#define HDR                                                                                                  \
    "{\"ptosim_graph\": 1, \"name\": \"r\", \"kernels\": [{\"id\": 0, \"name\": \"long\", \"core\": "        \
    "\"aiv\", "                                                                                              \
    "\"cost\": {\"cycles\": 180000}}, {\"id\": 1, \"name\": \"short\", \"core\": \"aiv\", \"cost\": "        \
    "{\"cycles\": "                                                                                          \
    "1800}}, {\"id\": 2, \"name\": \"mm\", \"core\": \"aic\", \"cost\": {\"cycles\": 1800}}], \"tensors\": " \
    "[{\"name\": \"x\", \"dtype\": \"FLOAT32\", \"shape\": [64, 64]}]}\n"
#define SUBMIT(k) "{\"op\": \"submit\", \"kernel\": \"" k "\"}\n"
#define BEGIN "{\"op\": \"scope_begin\"}\n"
#define END "{\"op\": \"scope_end\"}\n"

/* Appends printf-style text to a growing buffer. */
static void add(char **buf, size_t *len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add(char **buf, size_t *len, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
    va_end(ap);
    *buf = realloc(*buf, *len + (size_t)n + 1);
    memcpy(*buf + *len, tmp, (size_t)n + 1);
    *len += (size_t)n;
}

/* ---- the runtime's fatal-code reproducers (runtime.md §1.8) ---- */

START_TEST(eight_tasks_in_one_scope_with_window_4_is_code_1)
{
    const char *sets[] = {"ring_task_window=4", NULL};
    chip *c = tu_chip(HDR BEGIN SUBMIT("short") SUBMIT("short") SUBMIT("short") SUBMIT("short")
                          SUBMIT("short") SUBMIT("short") SUBMIT("short") SUBMIT("short") END,
                      sets, 0, NULL);
    ck_assert_int_eq(c->status, CHIP_FATAL);
    ck_assert_int_eq(c->fatal_code, 1);
    ck_assert_uint_eq(c->tasks_submitted, 3); /* the 4th fails the pre-check */
    tu_chip_free(c);
}
END_TEST

START_TEST(a_32k_output_with_a_1k_heap_is_code_2_after_500_ms)
{
    /* the request can never fit; no task of ring 0 exists, so the structural
     * check cannot fire and the 500 ms backstop does: armed at the first
     * check (1024 x 50 ns = 51.2 us), it fires at the first 1024-spin mark
     * at least 500 ms later: 51.2 us x (1 + ceil(500 ms / 51.2 us)) =
     * 51.2 us x 9767 = 500.0704 ms */
    const char *sets[] = {"ring_heap=1024", NULL};
    chip *c =
        tu_chip(HDR "{\"op\": \"submit\", \"kernel\": \"short\", \"args\": [{\"dir\": \"out\", \"tensor\": "
                    "\"o\", \"dtype\": \"INT8\", \"shape\": [32768]}]}\n",
                sets, 0, NULL);
    ck_assert_int_eq(c->status, CHIP_FATAL);
    ck_assert_int_eq(c->fatal_code, 2);
    ck_assert_msg(strstr(c->message, "Heap Exhausted") &&
                      strstr(c->message, "No reclaim progress for ~500 ms"),
                  "%s", c->message);
    ck_assert_uint_eq(c->end_time, NS(51200) * 9767);
    ck_assert_uint_eq(c->orch.res, RES_HEAP);
    tu_chip_free(c);
}
END_TEST

START_TEST(eight_nested_scopes_of_3_tasks_is_code_3)
{
    /* depths 3..8 share ring 3 (window 4 holds 3): the depth-4 scope's first
     * submit waits for the head of ring 3, which is the first task of the
     * still-open depth-3 scope -> provable head-of-line deadlock */
    char *g = NULL;
    size_t n = 0;
    add(&g, &n, "%s", HDR);
    for (int d = 0; d < 8; d++)
        add(&g, &n, BEGIN SUBMIT("short") SUBMIT("short") SUBMIT("short"));
    for (int d = 0; d < 8; d++)
        add(&g, &n, END);
    const char *sets[] = {"ring_task_window=4", NULL};
    chip *c = tu_chip(g, sets, 0, NULL);
    free(g);
    ck_assert_int_eq(c->status, CHIP_FATAL);
    ck_assert_int_eq(c->fatal_code, 3);
    ck_assert_msg(strstr(c->message, "Task Ring Full! ring=3") && strstr(c->message, "head-of-line deadlock"),
                  "%s", c->message);
    tu_chip_free(c);
}
END_TEST

START_TEST(one_consumer_of_128_producers_with_dep_pool_4_is_code_4)
{
    char *g = NULL;
    size_t n = 0;
    add(&g, &n, "%s", HDR);
    for (int i = 0; i < 128; i++)
        add(&g, &n, "{\"op\": \"submit\", \"id\": \"p%d\", \"kernel\": \"long\"}\n", i);
    add(&g, &n, "{\"op\": \"submit\", \"kernel\": \"short\", \"deps\": [");
    for (int i = 0; i < 128; i++)
        add(&g, &n, "%s\"p%d\"", i ? ", " : "", i);
    add(&g, &n, "]}\n");
    const char *sets[] = {"ring_dep_pool=4", NULL};
    chip *c = tu_chip(g, sets, 0, NULL);
    free(g);
    ck_assert_int_eq(c->status, CHIP_FATAL);
    ck_assert_int_eq(c->fatal_code, 4);
    tu_chip_free(c);
}
END_TEST

START_TEST(auto_scope_inside_manual_scope_is_code_5)
{
    chip *c =
        tu_chip(HDR "{\"op\": \"scope_begin\", \"mode\": \"manual\"}\n"
                    "{\"op\": \"scope_begin\", \"mode\": \"manual\"}\n" END /* manual in manual is fine */
                    "{\"op\": \"scope_begin\"}\n" END END,
                NULL, 0, NULL);
    ck_assert_int_eq(c->status, CHIP_FATAL);
    ck_assert_int_eq(c->fatal_code, 5);
    ck_assert_msg(strstr(c->message, ":5: auto scope nested inside manual scope is not supported"), "%s",
                  c->message);
    tu_chip_free(c);
}
END_TEST

START_TEST(sync_start_aiv_task_with_1000_blocks_is_code_7)
{
    chip *c = tu_chip(
        HDR "{\"op\": \"submit\", \"kernel\": \"short\", \"block_num\": 48, \"sync_start\": true}\n"
            "{\"op\": \"submit\", \"kernel\": \"short\", \"block_num\": 1000, \"sync_start\": true}\n",
        NULL, 0, NULL);
    ck_assert_int_eq(c->status, CHIP_FATAL);
    ck_assert_int_eq(c->fatal_code, 7);
    ck_assert_msg(strstr(c->message, "require_sync_start block_num=1000 > limit=48 (deadlock guaranteed)"),
                  "%s", c->message);
    ck_assert_uint_eq(c->tasks_submitted, 1); /* 48 blocks = the limit is allowed */
    tu_chip_free(c);
    /* MIX and AIC are limited by clusters (24) */
    c = tu_chip(HDR "{\"op\": \"submit\", \"kernel\": \"mm\", \"block_num\": 25, \"sync_start\": true}\n",
                NULL, 0, NULL);
    ck_assert_int_eq(c->fatal_code, 7);
    ck_assert_msg(strstr(c->message, "block_num=25 > limit=24"), "%s", c->message);
    tu_chip_free(c);
}
END_TEST

START_TEST(a_full_tensormap_with_no_retirement_is_code_11)
{
    char *g = NULL;
    size_t n = 0;
    add(&g, &n, "%s", HDR);
    for (int i = 0; i < 5; i++)
        add(&g, &n,
            "{\"op\": \"submit\", \"kernel\": \"short\", \"args\": [{\"dir\": \"inout\", \"tensor\": \"x\", "
            "\"shape\": [1, 64], \"offset\": [%d, 0]}]}\n",
            i);
    const char *sets[] = {"tensormap_pool=4", NULL};
    chip *c = tu_chip(g, sets, 0, NULL);
    free(g);
    ck_assert_int_eq(c->status, CHIP_FATAL);
    ck_assert_int_eq(c->fatal_code, 11);
    ck_assert_msg(strstr(c->message, "TensorMap Entry Pool Deadlock Detected!"), "%s", c->message);
    ck_assert_uint_eq(c->tm.peak_used, 4);
    tu_chip_free(c);
}
END_TEST

/* ---- hand-worked ring cases ---- */

/*
 * Window 4 on ring 1: scope{A (100 us)} scope{B, C, D (1 us each)}.
 * A publishes at 874; its scope_end releases 1 task (22 ns) -> 896; B is
 * submitted [896, 1770], C [1770, 2644]; D's call starts at 2644 and blocks:
 * A, B and C are in flight (3 = window - 1).
 * A runs on thread 0: dispatched in the iteration at 920, stored at
 * 920 + 60 + 120 + 30 = 1130, starts 1130 + 140 + 290 = 1560, ends 101560, FIN
 * readable at 101640. Thread 0 then sleeps with one running core (period 215
 * ns); kicked for C at 2644 it runs an iteration at 2640 (poll ends 2740), and
 * 2740 + 460 x 215 = 101640 is the poll that sees A's FIN. Completion:
 * 101640 + 40 + walk 410 = 102090. In that iteration nothing else happens, so
 * the next one (102090, no running core) is idle and runs A's deferred release:
 * A (completed, scope ended, no consumers) is CONSUMED, ring 1's watermark moves
 * to 1 and D is admitted at 102090 after 102090 - 2644 = 99446 ns blocked; it
 * publishes at 102090 + 874 = 102964.
 */
START_TEST(fourth_submit_of_a_window_4_ring_blocks_until_the_first_task_is_consumed)
{
    const char *sets[] = {"ring_task_window=4", NULL};
    chip *c = tu_chip(HDR BEGIN SUBMIT("long") END BEGIN SUBMIT("short") SUBMIT("short") SUBMIT("short") END,
                      sets, 4, NULL);
    ck_assert_int_eq(c->status, CHIP_DONE);
    ck_assert_uint_eq(c->sl.norch, 4);
    const sl_orch *d = &c->sl.orch[3];
    ck_assert_uint_eq(d->task_id, task_make_id(1, 3));
    ck_assert_uint_eq(d->start, NS(2644));
    ck_assert_uint_eq(d->end, NS(102964));
    ck_assert_uint_eq(c->orch.blocked_ps[1], NS(99446));
    ck_assert_uint_eq(c->orch.blocked_res_ps[RES_TASK_WINDOW], NS(99446));
    ck_assert_uint_eq(c->rings[1].peak_active, 3);
    tu_chip_free(c);
}
END_TEST

START_TEST(a_scope_of_k_tasks_needs_a_window_of_k_plus_1)
{
    const char *w4[] = {"ring_task_window=4", NULL};
    chip *c = tu_chip(HDR BEGIN SUBMIT("short") SUBMIT("short") SUBMIT("short") END, w4, 0, NULL);
    ck_assert_int_eq(c->status, CHIP_DONE); /* k = 3, window 4 */
    tu_chip_free(c);
    c = tu_chip(HDR BEGIN SUBMIT("short") SUBMIT("short") SUBMIT("short") SUBMIT("short") END, w4, 0, NULL);
    ck_assert_int_eq(c->status, CHIP_FATAL); /* k = 4 needs 5 -> window 8 */
    ck_assert_int_eq(c->fatal_code, 1);
    tu_chip_free(c);
    const char *w8[] = {"ring_task_window=8", NULL};
    c = tu_chip(HDR BEGIN SUBMIT("short") SUBMIT("short") SUBMIT("short") SUBMIT("short") END, w8, 0, NULL);
    ck_assert_int_eq(c->status, CHIP_DONE);
    tu_chip_free(c);
}
END_TEST

START_TEST(heap_bump_wrap_and_rebase_follow_the_runtime_rules)
{
    ring_heap h;
    uint64_t off;
    ck_assert_uint_eq(heap_round_output(1), 1024); /* each output rounds to 1024 B */
    ck_assert_uint_eq(heap_round_output(1025), 2048);
    ring_heap_init(&h, 4096);
    ck_assert_int_eq(ring_heap_alloc(&h, 1024, &off), 0);
    ck_assert_uint_eq(off, 0);
    ck_assert_int_eq(ring_heap_alloc(&h, 2048, &off), 0);
    ck_assert_uint_eq(off, 1024);                          /* packed: top 3072 */
    ck_assert_int_eq(ring_heap_alloc(&h, 2048, &off), -1); /* 1024 left before the end, tail 0 */
    ck_assert_int_eq(ring_heap_alloc(&h, 0, &off), 0);     /* a task without outputs always fits */
    ck_assert_uint_eq(off, 3072);
    ring_heap_set_tail(&h, 1024, 1024); /* the first block retired */
    ck_assert_int_eq(ring_heap_alloc(&h, 1024, &off), 0);
    ck_assert_uint_eq(off, 3072);                          /* fits before the end: top 4096 */
    ck_assert_int_eq(ring_heap_alloc(&h, 1024, &off), -1); /* a wrap needs tail > 1024, strictly */
    ring_heap_set_tail(&h, 3072, 3072);                    /* the second retired */
    ck_assert_int_eq(ring_heap_alloc(&h, 2048, &off), 0);
    ck_assert_uint_eq(off, 0); /* wrapped */
    ck_assert_uint_eq(h.top, 2048);
    ck_assert_uint_eq(h.alloc_cum, 4096 + 2048); /* cumulative: monotonic across the wrap */
    ck_assert_uint_eq(ring_heap_used(&h), 6144 - 3072);
    ck_assert_int_eq(ring_heap_alloc(&h, 1024, &off), -1); /* top < tail needs tail - top > 1024 */
    ring_heap_set_tail(&h, 4096, 4096);                    /* the block at the end retired */
    ck_assert_int_eq(ring_heap_alloc(&h, 1024, &off), 0);
    ck_assert_uint_eq(off, 2048); /* 4096 - 2048 > 1024 */

    /* an empty ring rebases: 3584 B cannot fit after 1024 and a wrap would
     * need tail > 3584, but nothing is held */
    ring_heap_init(&h, 4096);
    ck_assert_int_eq(ring_heap_alloc(&h, 1024, &off), 0);
    ring_heap_set_tail(&h, 1024, 1024);
    ck_assert_int_eq(ring_heap_alloc(&h, 3584, &off), 0);
    ck_assert_uint_eq(off, 0);
    ck_assert_uint_eq(ring_heap_used(&h), 3584);
    ck_assert_uint_eq(h.alloc_cum, 4096 + 3584);
}
END_TEST

START_TEST(dep_pool_reclaims_in_batches_of_64_retired_tasks)
{
    dep_pool d;
    dep_pool_init(&d, 16);
    ck_assert_uint_eq(dep_pool_available(&d), 16);
    dep_pool_take(&d, 10);
    ck_assert_uint_eq(d.top, 11); /* linear counters start at 1 */
    ck_assert_uint_eq(dep_pool_available(&d), 6);
    ck_assert(!dep_pool_reclaim(&d, 63, 9)); /* 63 retired: not yet */
    ck_assert_uint_eq(d.tail, 1);
    ck_assert(dep_pool_reclaim(&d, 64, 9)); /* 64: tail jumps to task 63's mark */
    ck_assert_uint_eq(d.tail, 9);
    ck_assert_uint_eq(dep_pool_available(&d), 14);
    ck_assert(!dep_pool_reclaim(&d, 127, 11)); /* 63 more: not yet */
    ck_assert(dep_pool_reclaim(&d, 128, 11));
    ck_assert_uint_eq(dep_pool_available(&d), 16);
    ck_assert_uint_eq(d.peak_used, 10);
}
END_TEST

/* 200 scopes of {producer (100 us) -> consumer}: each consumer is wired while
 * its producer runs and takes one dependency-pool node. Nodes come back only
 * when the ring's watermark has moved 64 tasks since the last reclaim. */
static char *pairs_graph(void)
{
    char *g = NULL;
    size_t n = 0;
    add(&g, &n, "%s", HDR);
    for (int i = 0; i < 200; i++)
        add(&g, &n,
            BEGIN "{\"op\": \"submit\", \"kernel\": \"long\", \"args\": [{\"dir\": \"out\", \"tensor\": "
                  "\"t\", \"dtype\": \"FLOAT32\", \"shape\": [256]}]}\n"
                  "{\"op\": \"submit\", \"kernel\": \"short\", \"args\": [{\"dir\": \"in\", \"tensor\": "
                  "\"t\"}]}\n" END);
    return g;
}

START_TEST(a_small_dep_pool_blocks_until_a_batch_retires_then_completes)
{
    /* 40 nodes: the orchestrator stops at the 41st pair, 82 tasks in flight;
     * once 64 of them retire, the tail jumps and it goes on */
    char *g = pairs_graph();
    const char *sets[] = {"ring_dep_pool=40", NULL};
    chip *c = tu_chip(g, sets, 0, NULL);
    free(g);
    ck_assert_msg(c->status == CHIP_DONE, "%s", c->message);
    ck_assert_uint_eq(c->tasks_completed, 400);
    ck_assert_uint_gt(c->orch.blocked_res_ps[RES_DEP_POOL], 50 * PS_PER_US);
    ck_assert_uint_eq(c->deppools[1].peak_used, 40);
    tu_chip_free(c);
}
END_TEST

START_TEST(a_dep_pool_that_cannot_cover_64_retirements_deadlocks_with_code_4)
{
    /* 4 nodes: the 5th consumer waits, but only 10 tasks exist, so the
     * watermark can never move 64: once the 4 closed pairs retire, the head of
     * ring 1 is the open scope's producer -> head-of-line deadlock */
    char *g = pairs_graph();
    const char *sets[] = {"ring_dep_pool=4", NULL};
    chip *c = tu_chip(g, sets, 0, NULL);
    free(g);
    ck_assert_int_eq(c->status, CHIP_FATAL);
    ck_assert_int_eq(c->fatal_code, 4);
    ck_assert_msg(strstr(c->message, "Dependency Pool Deadlock Detected! ring=1") &&
                      strstr(c->message, "head-of-line deadlock"),
                  "%s", c->message);
    ck_assert_uint_eq(c->tasks_submitted, 10);
    tu_chip_free(c);
}
END_TEST

Suite *suite_rings(void)
{
    Suite *s = suite_create("rings");
    TCase *tc = tcase_create("fatal");
    tcase_add_test(tc, eight_tasks_in_one_scope_with_window_4_is_code_1);
    tcase_add_test(tc, a_32k_output_with_a_1k_heap_is_code_2_after_500_ms);
    tcase_add_test(tc, eight_nested_scopes_of_3_tasks_is_code_3);
    tcase_add_test(tc, one_consumer_of_128_producers_with_dep_pool_4_is_code_4);
    tcase_add_test(tc, auto_scope_inside_manual_scope_is_code_5);
    tcase_add_test(tc, sync_start_aiv_task_with_1000_blocks_is_code_7);
    tcase_add_test(tc, a_full_tensormap_with_no_retirement_is_code_11);
    tcase_set_timeout(tc, 30);
    suite_add_tcase(s, tc);
    tc = tcase_create("cases");
    tcase_add_test(tc, fourth_submit_of_a_window_4_ring_blocks_until_the_first_task_is_consumed);
    tcase_add_test(tc, a_scope_of_k_tasks_needs_a_window_of_k_plus_1);
    tcase_add_test(tc, heap_bump_wrap_and_rebase_follow_the_runtime_rules);
    tcase_add_test(tc, dep_pool_reclaims_in_batches_of_64_retired_tasks);
    tcase_add_test(tc, a_small_dep_pool_blocks_until_a_batch_retires_then_completes);
    tcase_add_test(tc, a_dep_pool_that_cannot_cover_64_retirements_deadlocks_with_code_4);
    tcase_set_timeout(tc, 30);
    suite_add_tcase(s, tc);
    return s;
}
