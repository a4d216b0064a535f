/* test_rings.c - rings and back-pressure: the runtime's fatal reproducers, hand-worked ring cases. */
/* Scope stats, occupancy over time. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/engine/chip_engine.h"
#include "../model/record/occupancy.h"
#include "../model/output/run_report.h"
#include "../model/runtime/ring_resources.h"
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

/* ---- the runtime's fatal-code reproducers (model/README.md §4.7) ---- */

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
                      strstr(c->message, "No reclaim progress for ~500 ms") &&
                      strstr(c->message, "Solution: raise ring 0's heap (now 1024, e.g. 32768): RunConfig "
                                         "ring_heap, ptosim --ring-heap 32768,0,0,0."),
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
    ck_assert_msg(
        strstr(c->message, "Task Ring Full! ring=3") && strstr(c->message, "head-of-line deadlock") &&
            strstr(c->message, "Solution: split the open scope that holds the head, or raise ring 3's "
                               "task window (now 4, e.g. 8): RunConfig ring_task_window, ptosim "
                               "--ring-task-window 0,0,0,8."),
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
    /* 64 producers past the inline 64 take spill entries, sized by the dep pool */
    ck_assert_msg(strstr(c->message, "Fanin Spill Pool Deadlock Detected! ring=0") &&
                      strstr(c->message,
                             "Solution: raise ring 0's fanin spill pool, sized by its dep pool (now "
                             "4, e.g. 64): RunConfig ring_dep_pool, ptosim --ring-dep-pool 64,0,0,0."),
                  "%s", c->message);
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
    ck_assert_msg(strstr(c->message, "TensorMap Entry Pool Deadlock Detected!") &&
                      strstr(c->message,
                             "Solution: raise the TensorMap entry pool, one for all rings (now 4, e.g. "
                             "8): the runtime's compile-time PTO2_TENSORMAP_POOL_SIZE, ptosim --set "
                             "tensormap_pool=8."),
                  "%s", c->message);
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
 * ns); kicked for C at 2644 it runs an iteration at 2640, and a COND load
 * samples the register when issued: the iteration at 2640 + 460 x 215 =
 * 101540 misses the FIN, the one at 101755 sees it, its load returning at
 * 101855. Completion: 101855 + 40 + walk 410 = 102305. In that iteration
 * nothing else happens, so the next one (102305, no running core) is idle
 * and runs A's deferred release: A (completed, scope ended, no consumers) is
 * CONSUMED, ring 1's watermark moves to 1 and D is admitted at 102305 after
 * 102305 - 2644 = 99661 ns blocked; it publishes at 102305 + 874 = 103179.
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
    ck_assert_uint_eq(d->end, NS(103179));
    ck_assert_uint_eq(c->orch.blocked_ps[1], NS(99661));
    ck_assert_uint_eq(c->orch.blocked_res_ps[RES_TASK_WINDOW], NS(99661));
    ck_assert_uint_eq(c->rings[1].peak_active, 3);
    tu_chip_free(c);
}
END_TEST

START_TEST(two_ring_moves_at_one_instant_resume_one_submit_call)
{
    /* ring 1, window 4: P (100 us, writes t), C (reads t, retains P), X
     * (100 us) fill it; D waits for a slot. C's release consumes P, then C:
     * two watermark moves at one instant. One retry must follow them: D's
     * call ends orch_submit_ns after it, and E's call starts only then (a
     * second retry used to start E's call at that same instant, with D
     * unpublished: two submit calls at once, issue 24) */
    const char *sets[] = {"ring_task_window=4", NULL};
    chip *c = tu_chip(HDR BEGIN "{\"op\": \"submit\", \"kernel\": \"long\", \"args\": [{\"dir\": \"out\", "
                                "\"tensor\": \"t\", \"dtype\": \"FLOAT32\", \"shape\": [256]}]}\n" END BEGIN
                                "{\"op\": \"submit\", \"kernel\": \"short\", \"args\": [{\"dir\": \"in\", "
                                "\"tensor\": \"t\"}]}\n" END BEGIN SUBMIT("long") END BEGIN SUBMIT("short")
                                    END BEGIN SUBMIT("short") END,
                      sets, 4, NULL);
    ck_assert_msg(c->status == CHIP_DONE, "%s", c->message);
    ck_assert_uint_eq(c->sl.norch, 5);
    /* calls of 874 ns (orch_submit_ns), each scope end of one task 22 ns:
     * D starts at 3 x (874 + 22) = 2688 ns and waits; the moves come at
     * T = D's end - 874 ns; E starts one scope end after D's end */
    const sl_orch *d = &c->sl.orch[3], *e = &c->sl.orch[4];
    ck_assert_uint_eq(d->task_id, task_make_id(1, 3));
    ck_assert_uint_eq(d->start, NS(2688));
    ck_assert_uint_eq(c->orch.blocked_res_ps[RES_TASK_WINDOW], d->end - NS(874) - d->start);
    ck_assert_uint_gt(d->end, NS(100000)); /* after P's 100 us */
    ck_assert_uint_eq(e->start, d->end + NS(22));
    ck_assert_uint_eq(e->end, e->start + NS(874));
    for (size_t i = 1; i < c->sl.norch; i++)
        ck_assert_msg(
            c->sl.orch[i].start >= c->sl.orch[i - 1].end, "call %zu starts at %llu, call %zu ends at %llu", i,
            (unsigned long long)c->sl.orch[i].start, i - 1, (unsigned long long)c->sl.orch[i - 1].end);
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
                      strstr(c->message, "head-of-line deadlock") &&
                      strstr(c->message,
                             "Solution: split the open scope that holds the head, or raise ring 1's "
                             "dep pool (now 4, e.g. 8): RunConfig ring_dep_pool, ptosim "
                             "--ring-dep-pool 0,8,0,0."),
                  "%s", c->message);
    ck_assert_uint_eq(c->tasks_submitted, 10);
    tu_chip_free(c);
}
END_TEST

START_TEST(a_dep_pool_held_by_a_running_head_is_code_4_after_500_ms_naming_ring_and_knob)
{
    /* ring 1, pool 4: L (1 s) in a closed scope is ring 1's head; then, in
     * one open scope, P (100 us, writes t) and five readers of t, each wired
     * while P runs. C5 finds the pool full (4/4) at the start of its call,
     * 874 + 22 + 5 x 874 = 5266 ns. The head is not an open scope's task, so
     * only the backstop can fire: armed at the first check (51.2 us), fatal
     * at the first 1024-spin mark at least 500 ms later, 51.2 us x 9767 */
    char *g = NULL;
    size_t n = 0;
    add(&g, &n, "%s", HDR);
    add(&g, &n, BEGIN "{\"op\": \"submit\", \"kernel\": \"long\", \"cost\": {\"ns\": 1000000000}}\n" END);
    add(&g, &n,
        BEGIN "{\"op\": \"submit\", \"kernel\": \"long\", \"args\": [{\"dir\": \"out\", \"tensor\": "
              "\"t\", \"dtype\": \"FLOAT32\", \"shape\": [256]}]}\n");
    for (int i = 0; i < 5; i++)
        add(&g, &n,
            "{\"op\": \"submit\", \"kernel\": \"short\", \"args\": [{\"dir\": \"in\", \"tensor\": "
            "\"t\"}]}\n");
    add(&g, &n, END);
    const char *sets[] = {"ring_dep_pool=4", NULL};
    chip *c = tu_chip(g, sets, 0, NULL);
    free(g);
    ck_assert_int_eq(c->status, CHIP_FATAL);
    ck_assert_int_eq(c->fatal_code, 4);
    ck_assert_uint_eq(c->orch.res, RES_DEP_POOL);
    ck_assert_int_eq(c->orch.blocked_ring, 1);
    ck_assert_uint_eq(c->end_time, NS(5266) + NS(51200) * 9767);
    ck_assert_uint_eq(c->tasks_submitted, 7); /* C5 was allocated, never published */
    ck_assert_msg(strstr(c->message, "Dependency Pool Deadlock Detected! ring=1") &&
                      strstr(c->message, "No reclaim progress for ~500 ms") &&
                      strstr(c->message, "Dep pool: used=4/4, high water 4, needed 1.") &&
                      strstr(c->message, "Solution: raise ring 1's dep pool (now 4, e.g. 8): RunConfig "
                                         "ring_dep_pool, ptosim --ring-dep-pool 0,8,0,0."),
                  "%s", c->message);
    tu_chip_free(c);
}
END_TEST

START_TEST(a_consumer_of_completed_producers_takes_no_dep_pool_entry)
{
    /* five 1 us producers in the root scope (ring 0), 50 us of user code,
     * then their consumer: every producer has completed, so the runtime
     * publishes it without wiring and never asks the pool of 4 for the 5
     * entries it could not give (submit_task STEP 6). Waiting would be fatal
     * here: the root scope pins ring 0's head, so code 4 at the first check */
    char *g = NULL;
    size_t n = 0;
    add(&g, &n, "%s", HDR);
    for (int i = 0; i < 5; i++)
        add(&g, &n,
            "{\"op\": \"submit\", \"kernel\": \"short\", \"args\": [{\"dir\": \"out\", \"tensor\": \"t%d\", "
            "\"dtype\": \"FLOAT32\", \"shape\": [256]}]}\n",
            i);
    add(&g, &n,
        "{\"op\": \"user_code\", \"ns\": 50000}\n{\"op\": \"submit\", \"kernel\": \"short\", \"args\": [");
    for (int i = 0; i < 5; i++)
        add(&g, &n, "%s{\"dir\": \"in\", \"tensor\": \"t%d\"}", i ? ", " : "", i);
    add(&g, &n, "]}\n");
    const char *sets[] = {"ring_dep_pool=4", NULL};
    chip *c = tu_chip(g, sets, 0, NULL);
    free(g);
    ck_assert_msg(c->status == CHIP_DONE, "%s", c->message);
    ck_assert_uint_eq(c->tasks_completed, 6);
    ck_assert_uint_eq(c->orch.blocked_res_ps[RES_DEP_POOL], 0);
    ck_assert_uint_eq(c->deppools[0].peak_used, 0);
    tu_chip_free(c);
}
END_TEST

START_TEST(a_36_layer_decode_with_a_2_gib_ring_2_heap_completes)
{
    /* issue 24's reproducer: with ring 2's heap no longer the limit, ring 3's
     * dependency pool fills and holds the orchestrator back (back-pressure,
     * as the runtime's ensure_space spins) but the run completes, at the
     * makespan a pool four times larger gives, within 0.25 us;
     * it used to end in code 100, 347 tasks waiting, after two retries
     * ran two submit calls at once */
    run_out g = tu_run((const char *[]){"gen", "decode_layer", "--layers", "36", NULL});
    ck_assert_int_eq(g.status, 0);
    char *path = tu_write(tu_tmpdir(), "dl36.jsonl", g.out);
    tu_run_free(&g);
    run_out r = tu_run((const char *[]){"run", path, "--ring-heap", "0,0,2147483648,0", NULL});
    ck_assert_msg(r.status == 0, "%s%s", r.out, r.err);
    ck_assert_msg(strstr(r.out, "tasks 12783/12783 completed") && strstr(r.out, "makespan 31767.389 us"),
                  "%s", r.out);
    tu_run_free(&r);
    r = tu_run(
        (const char *[]){"run", path, "--ring-heap", "0,0,2147483648,0", "--ring-dep-pool", "65536", NULL});
    ck_assert_msg(r.status == 0 && strstr(r.out, "makespan 31767.146 us"), "%s%s", r.out, r.err);
    tu_run_free(&r);
    free(path);
}
END_TEST

/* ---- what the summary and ptosim_run.json say about the rings ---- */

/* Runs `ptosim run` on graph text with extra args and -o DIR; *j gets
 * DIR/ptosim_run.json (the caller frees both). */
static run_out run_graph(const char *text, const char *const *extra, cJSON **j)
{
    const char *dir = tu_tmpdir();
    char *path = tu_write(dir, "g.jsonl", text);
    char out[512];
    snprintf(out, sizeof(out), "%s/out", dir);
    const char *args[16] = {"run", path, "-o", out};
    int n = 4;
    while (extra && *extra && n < 15)
        args[n++] = *extra++;
    args[n] = NULL;
    run_out r = tu_run(args);
    char js[600];
    snprintf(js, sizeof(js), "%s/ptosim_run.json", out);
    *j = tu_json_file(js);
    free(path);
    return r;
}

/* Asserts one entry of a JSON array of ring facts. */
static void assert_ring_fact(const cJSON *e, int ring, const char *res)
{
    ck_assert_ptr_nonnull(e);
    const cJSON *rg = cJSON_GetObjectItem(e, "ring");
    if (ring < 0)
        ck_assert(cJSON_IsNull(rg));
    else
        ck_assert_int_eq(rg->valueint, ring);
    ck_assert_str_eq(cJSON_GetObjectItem(e, "resource")->valuestring, res);
}

START_TEST(summary_says_which_ring_blocked_the_orchestrator_and_that_its_window_was_full)
{
    /* the hand-worked window-4 case above: D waits 99661 ns for ring 1's
     * task window, which held 3 tasks, all a window of 4 can (75 %) */
    const char *extra[] = {"--ring-task-window", "4", NULL};
    cJSON *j;
    run_out r = run_graph(
        HDR BEGIN SUBMIT("long") END BEGIN SUBMIT("short") SUBMIT("short") SUBMIT("short") END, extra, &j);
    ck_assert_msg(r.status == 0, "%s%s", r.out, r.err);
    ck_assert_msg(strstr(r.out,
                         "; orchestrator blocked 99.661 us\n"
                         "  orchestrator blocked by ring 1 task window 99.661 us\n"
                         "  near full: ring 1 (scope depth 1) task window, 3/4 slots at its peak (75.0%): "
                         "RunConfig ring_task_window, ptosim --ring-task-window\n"),
                  "%s", r.out);
    ck_assert_msg(!strstr(r.out, "still waiting"), "%s", r.out);
    const cJSON *b = cJSON_GetObjectItem(j, "orchestrator_blocked_by");
    ck_assert_int_eq(cJSON_GetArraySize(b), 1);
    assert_ring_fact(cJSON_GetArrayItem(b, 0), 1, "task_window");
    ck_assert(cJSON_GetObjectItem(cJSON_GetArrayItem(b, 0), "us")->valuedouble == 99.661);
    ck_assert(cJSON_IsNull(cJSON_GetObjectItem(j, "orchestrator_waiting_at_end")));
    const cJSON *nf = cJSON_GetObjectItem(j, "near_full"), *e = cJSON_GetArrayItem(nf, 0);
    ck_assert_int_eq(cJSON_GetArraySize(nf), 1);
    assert_ring_fact(e, 1, "task_window");
    ck_assert_int_eq(cJSON_GetArrayItem(cJSON_GetObjectItem(e, "scope_depths"), 0)->valueint, 1);
    ck_assert_int_eq(cJSON_GetArrayItem(cJSON_GetObjectItem(e, "scope_depths"), 1)->valueint, 1);
    ck_assert_int_eq(cJSON_GetObjectItem(e, "peak")->valueint, 3);
    ck_assert_int_eq(cJSON_GetObjectItem(e, "capacity")->valueint, 4);
    ck_assert_str_eq(cJSON_GetObjectItem(e, "knob")->valuestring, "ring_task_window");
    ck_assert_str_eq(cJSON_GetObjectItem(e, "flag")->valuestring, "--ring-task-window");
    cJSON_Delete(j);
    tu_run_free(&r);
}
END_TEST

/* Ring 3 (scopes at depth 3 and 4): a 100 us producer of 1 KiB, then nine
 * 1 us readers, each wired while the producer runs: one dep-pool entry each,
 * 9 at the peak; 10 x 1 KiB of heap, none freed before the last submit (the
 * producer retires only after its readers). */
static char *fan9_graph(void)
{
    char *g = NULL;
    size_t n = 0;
    add(&g, &n, "%s", HDR BEGIN BEGIN BEGIN BEGIN);
    add(&g, &n,
        "{\"op\": \"submit\", \"kernel\": \"long\", \"args\": [{\"dir\": \"out\", \"tensor\": \"t\", "
        "\"dtype\": \"INT8\", \"shape\": [1024]}]}\n");
    for (int i = 0; i < 9; i++)
        add(&g, &n,
            "{\"op\": \"submit\", \"kernel\": \"short\", \"args\": [{\"dir\": \"in\", \"tensor\": \"t\"}, "
            "{\"dir\": \"out\", \"tensor\": \"u%d\", \"dtype\": \"INT8\", \"shape\": [1000]}]}\n",
            i);
    add(&g, &n, END END END END);
    return g;
}

START_TEST(summary_names_each_ring_resource_above_90_percent_with_its_knob)
{
    /* ring 3's heap of 16 KiB holds 10 x 1 KiB at its peak: 62.5 %, unsaid;
     * dep pool 10 holds 9: 90.0 %, not above, unsaid; dep pool 9 holds 9:
     * 100 %, said, with the depth "3 and deeper" */
    char *g = fan9_graph();
    const char *big[] = {"--ring-heap", "0,0,0,16384", "--ring-dep-pool", "0,0,0,10", NULL};
    cJSON *j;
    run_out r = run_graph(g, big, &j);
    ck_assert_msg(r.status == 0, "%s%s", r.out, r.err);
    ck_assert_msg(!strstr(r.out, "near full") && !strstr(r.out, "blocked by"), "%s", r.out);
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(j, "near_full")), 0);
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(j, "orchestrator_blocked_by")), 0);
    const cJSON *r3 = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rings"), 3);
    ck_assert_int_eq(cJSON_GetObjectItem(r3, "heap_peak")->valueint, 10240);
    ck_assert_int_eq(cJSON_GetObjectItem(r3, "dep_pool_peak")->valueint, 9);
    cJSON_Delete(j);
    tu_run_free(&r);
    const char *tight[] = {"--ring-heap", "0,0,0,16384", "--ring-dep-pool", "0,0,0,9", NULL};
    r = run_graph(g, tight, &j);
    ck_assert_msg(r.status == 0, "%s%s", r.out, r.err);
    ck_assert_msg(strstr(r.out, "  near full: ring 3 (scope depth 3 and deeper) dep pool, 9/9 entries at its "
                                "peak (100.0%): RunConfig ring_dep_pool, ptosim --ring-dep-pool\n"),
                  "%s", r.out);
    ck_assert_msg(!strstr(r.out, "heap, ") && !strstr(r.out, "blocked by"), "%s", r.out);
    const cJSON *nf = cJSON_GetObjectItem(j, "near_full"), *e = cJSON_GetArrayItem(nf, 0);
    ck_assert_int_eq(cJSON_GetArraySize(nf), 1);
    assert_ring_fact(e, 3, "dep_pool");
    ck_assert_int_eq(cJSON_GetArrayItem(cJSON_GetObjectItem(e, "scope_depths"), 0)->valueint, 3);
    ck_assert_int_eq(cJSON_GetArrayItem(cJSON_GetObjectItem(e, "scope_depths"), 1)->valueint, 63);
    ck_assert_int_eq(cJSON_GetObjectItem(e, "peak")->valueint, 9);
    ck_assert_int_eq(cJSON_GetObjectItem(e, "capacity")->valueint, 9);
    cJSON_Delete(j);
    tu_run_free(&r);
    free(g);
}
END_TEST

START_TEST(summary_says_what_the_orchestrator_still_waited_on_when_the_run_ended)
{
    /* the code-11 case: four writers fill a TensorMap of 4 by 4 x 874 =
     * 3496 ns; the fifth waits until the backstop, 51.2 us x 9767 =
     * 500070.4 us later. That wait is in no blocked total */
    char *g = NULL;
    size_t n = 0;
    add(&g, &n, "%s", HDR);
    for (int i = 0; i < 5; i++)
        add(&g, &n,
            "{\"op\": \"submit\", \"kernel\": \"short\", \"args\": [{\"dir\": \"inout\", \"tensor\": \"x\", "
            "\"shape\": [1, 64], \"offset\": [%d, 0]}]}\n",
            i);
    const char *extra[] = {"--set", "tensormap_pool=4", NULL};
    cJSON *j;
    run_out r = run_graph(g, extra, &j);
    free(g);
    ck_assert_int_eq(r.status, 4);
    ck_assert_msg(strstr(r.out,
                         "; orchestrator blocked 0.000 us\n"
                         "  orchestrator still waiting on the TensorMap when the run ended, for 500070.400 "
                         "us\n"
                         "  near full: the TensorMap, 4/4 entries at its peak (100.0%): the runtime's "
                         "compile-time PTO2_TENSORMAP_POOL_SIZE, ptosim --set tensormap_pool=N\n"),
                  "%s", r.out);
    const cJSON *w = cJSON_GetObjectItem(j, "orchestrator_waiting_at_end");
    assert_ring_fact(w, -1, "tensormap");
    ck_assert(cJSON_GetObjectItem(w, "since_us")->valuedouble == 3.496);
    ck_assert(cJSON_GetObjectItem(w, "us")->valuedouble == 500070.4);
    const cJSON *e = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "near_full"), 0);
    assert_ring_fact(e, -1, "tensormap");
    ck_assert(cJSON_IsNull(cJSON_GetObjectItem(e, "scope_depths")));
    ck_assert_str_eq(cJSON_GetObjectItem(e, "knob")->valuestring, "PTO2_TENSORMAP_POOL_SIZE");
    cJSON_Delete(j);
    tu_run_free(&r);
}
END_TEST

START_TEST(near_full_is_strictly_above_90_percent_even_for_a_heap_near_2_to_the_63)
{
    /* a chip with nothing but sizes and peaks: 2^62 x 1000 would overflow */
    chip *c = calloc(1, sizeof(*c));
    const uint64_t cap = 1ULL << 62;
    for (int r = 0; r < RING_COUNT; r++) {
        c->rings[r].window = 16384;
        c->heaps[r].cap = cap;
        c->deppools[r].cap = 1000;
        c->cfg.ring_dep_pool[r] = 1000;
    }
    /* 90 % of 2^62 is ...113.6: cap - floor(cap / 10) = ...114 is above it, ...113 below */
    c->heaps[0].peak_used = cap - cap / 10;     /* just above 90 % */
    c->heaps[1].peak_used = cap - cap / 10 - 1; /* just below */
    c->deppools[2].peak_used = 900;             /* exactly 90 %: not above */
    c->deppools[3].peak_used = 901;             /* 90.1 % */
    c->rings[3].peak_active = 16383;            /* window - 1: full */
    report_ring_res v[REPORT_RING_RES_MAX];
    ck_assert_int_eq(report_near_full(c, v), 3);
    ck_assert(v[0].ring == 0 && v[0].res == RES_HEAP && v[0].peak == cap - cap / 10 && v[0].cap == cap);
    ck_assert(v[1].ring == 3 && v[1].res == RES_TASK_WINDOW && v[1].peak == 16383);
    ck_assert(v[2].ring == 3 && v[2].res == RES_DEP_POOL && v[2].peak == 901);
    free(c);
}
END_TEST

/* ---- scope stats ---- */

static uint32_t g_window1 = 16384; /* ring 1's window for the next tweak_stats */

static void tweak_stats(chip_config *cfg)
{
    cfg->scope_stats = true;
    cfg->ring_task_window[1] = g_window1;
}

/* Writes the chip's scope stats and reads them back, one cJSON per line. */
static cJSON **read_stats(chip *c, int *n)
{
    const char *dir = tu_tmpdir();
    char path[256], err[1024];
    snprintf(path, sizeof(path), "%s/scope_stats.jsonl", dir);
    scope_caps caps = {.tensormap = c->tm.capacity};
    for (int r = 0; r < RING_COUNT; r++) {
        caps.task_window[r] = c->cfg.ring_task_window[r];
        caps.heap[r] = c->cfg.ring_heap[r];
        caps.dep_pool[r] = c->cfg.ring_dep_pool[r];
    }
    ck_assert_msg(scopestats_write(&c->ss, path, c->status == CHIP_FATAL, &caps, err, sizeof(err)) == 0, "%s",
                  err);
    char *text = tu_read(path);
    cJSON **lines = NULL;
    *n = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        lines = realloc(lines, (size_t)(*n + 1) * sizeof(*lines));
        lines[*n] = cJSON_Parse(line);
        ck_assert_msg(lines[*n] != NULL, "not JSON: %s", line);
        (*n)++;
    }
    free(text);
    return lines;
}

static void free_lines(cJSON **l, int n)
{
    for (int i = 0; i < n; i++)
        cJSON_Delete(l[i]);
    free(l);
}

static int num(const cJSON *o, const char *k)
{
    return cJSON_GetObjectItem(o, k)->valueint;
}

START_TEST(scope_stats_samples_every_scope_with_the_runtime_fields)
{
    g_window1 = 64;
    chip *c = tu_chip(HDR "{\"op\": \"scope_begin\", \"site\": \"/very/long/path/"
                          "abcdefghijklmnopqrstuvwxyz0123456789.cpp:77\"}\n" SUBMIT(
                              "short") "{\"op\": \"scope_begin\", \"site\": \"inner.py:9\"}\n" SUBMIT("short")
                              SUBMIT("short") END END,
                      NULL, 0, tweak_stats);
    ck_assert_int_eq(c->status, CHIP_DONE);
    int n;
    cJSON **l = read_stats(c, &n);
    static const char *const head[] = {"version",      "fatal",           "dropped",
                                       "total",        "task_window_max", "heap_max",
                                       "dep_pool_max", "tensormap_max",   NULL};
    tu_assert_keys(l[0], head, "line 1");
    ck_assert_int_eq(num(l[0], "version"), 6);
    ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(l[0], "fatal")));
    ck_assert_int_eq(num(l[0], "total"), 6); /* root + 2 scopes, begin and end */
    ck_assert_int_eq(cJSON_GetArrayItem(cJSON_GetObjectItem(l[0], "task_window_max"), 1)->valueint, 64);
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(l[0], "heap_max")), 4);
    ck_assert_int_eq(n, 7);
    static const char *const rec[] = {
        "site",       "phase",    "depth",          "ring",         "task_window_start", "task_window_end",
        "heap_start", "heap_end", "dep_pool_start", "dep_pool_end", "tensormap",         NULL};
    const char *sites[] = {"(unknown):0", "abcdefghijklmnopqrstuvwxyz01234:77", "inner.py:9",
                           "inner.py:9",  "abcdefghijklmnopqrstuvwxyz01234:77", "(unknown):0"};
    const char *phases[] = {"begin", "begin", "begin", "end", "end", "end"};
    int depths[] = {0, 1, 2, 2, 1, 0};
    for (int i = 1; i < n; i++) {
        tu_assert_keys(l[i], rec, "record");
        ck_assert_str_eq(cJSON_GetObjectItem(l[i], "site")->valuestring, sites[i - 1]);
        ck_assert_str_eq(cJSON_GetObjectItem(l[i], "phase")->valuestring, phases[i - 1]);
        ck_assert_int_eq(num(l[i], "depth"), depths[i - 1]);
        ck_assert_int_eq(num(l[i], "ring"), depths[i - 1]);
    }
    /* the inner scope's end sample: ring 2 allocated 2 tasks; the end is taken
     * before its tasks are released */
    ck_assert_int_eq(num(l[4], "task_window_end") - num(l[3], "task_window_start"), 2);
    free_lines(l, n);
    tu_chip_free(c);
}
END_TEST

/* 200 independent 10 us AIV tasks, each in its own scope on ring 1. */
static char *scoped_fan(void)
{
    char *g = NULL;
    size_t n = 0;
    add(&g, &n,
        "{\"ptosim_graph\": 1, \"name\": \"sf\", \"kernels\": [{\"id\": 0, \"name\": \"v\", \"core\": "
        "\"aiv\", \"cost\": {\"cycles\": 18000}}]}\n");
    for (int i = 0; i < 200; i++)
        add(&g, &n, "{\"op\": \"scope_begin\", \"site\": \"loop.py:3\"}\n" SUBMIT("v") END);
    return g;
}

/* Largest scope high-water mark on ring 1: end.task_window_end - begin.task_window_start. */
static int ring1_high_water(cJSON **l, int n)
{
    int best = 0;
    for (int i = 1; i + 1 < n; i++)
        if (num(l[i], "ring") == 1 && !strcmp(cJSON_GetObjectItem(l[i], "phase")->valuestring, "begin")) {
            int hw = num(l[i + 1], "task_window_end") - num(l[i], "task_window_start");
            if (hw > best)
                best = hw;
        }
    return best;
}

START_TEST(raising_a_saturated_task_window_shortens_the_makespan)
{
    /* window 4: at most 3 tasks in flight, so 48 AIV cores run 3 at a time and
     * every scope's high-water mark reaches the capacity; window 64: the
     * orchestrator (0.874 us per submit) is the only limit, 10 us kernels keep
     * about 12 in flight */
    char *g = scoped_fan();
    g_window1 = 4;
    chip *small = tu_chip(g, NULL, 0, tweak_stats);
    g_window1 = 64;
    chip *big = tu_chip(g, NULL, 0, tweak_stats);
    free(g);
    ck_assert_int_eq(small->status, CHIP_DONE);
    ck_assert_int_eq(big->status, CHIP_DONE);
    int n1, n2;
    cJSON **l1 = read_stats(small, &n1), **l2 = read_stats(big, &n2);
    ck_assert_int_eq(ring1_high_water(l1, n1), 4); /* at capacity */
    ck_assert_int_lt(ring1_high_water(l2, n2), 32);
    ck_assert_int_gt(ring1_high_water(l2, n2), 4);
    /* 200 tasks 3 at a time: at least 200 / 3 x 10 us; with room, the
     * submission rate bounds it: about 200 x 0.874 us + one kernel */
    ck_assert_uint_gt(small->end_time, 666 * PS_PER_US);
    ck_assert_uint_lt(big->end_time, 200 * PS_PER_US);
    ck_assert_uint_gt(small->orch.blocked_ps[1], 400 * PS_PER_US);
    ck_assert_uint_eq(big->orch.blocked_ps[1], 0);
    free_lines(l1, n1);
    free_lines(l2, n2);
    tu_chip_free(small);
    tu_chip_free(big);
}
END_TEST

/* Writes o closed at end into a memory stream; returns the JSON text (malloc'd). */
static char *occ_json(const occ *o, ps_t end)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(occ_write_json(f, o, end), 0);
    fclose(f);
    return buf;
}

/* Ring 1 takes a task (1 slot, 1 KiB) at 0, a second one with a dependency entry at 15 ns, retires the first
 * at 17 ns; the run ends at 30 ns. Buckets of 10 ns: [0, 10) goes from 0 to 1 slot; [10, 20) carries 1 in,
 * rises to 2 and falls back to 1; [20, 30) holds what it carried in. A bucket's range includes the value
 * it carried in, so [0, 10) starts at 0. */
START_TEST(ring_occupancy_keeps_each_buckets_range_and_doubles_its_width_past_the_last)
{
    occ *o = malloc(sizeof(*o));
    occ_init(o);
    occ_note(o, 0, 1, 1, 1024, 0);
    occ_note(o, NS(15), 1, 2, 2048, 1);
    occ_note(o, NS(15), 1, 2, 2048, 1); /* nothing changed: nothing recorded */
    occ_note(o, NS(17), 1, 1, 2048, 1); /* the first task retires; the heap's tail moves at the next alloc */
    char *j = occ_json(o, NS(30));
    ck_assert_str_eq(
        j, "{\"bucket_us\": 0.010000, \"buckets\": 3, \"rings\": [null, {\"task_window\": {\"low\": "
           "[0, 1, 1], \"high\": [1, 2, 1]}, \"heap\": {\"low\": [0, 1024, 2048], \"high\": [1024, "
           "2048, 2048]}, \"dep_pool\": {\"low\": [0, 0, 1], \"high\": [0, 1, 1]}}, null, null]}");
    free(j);
    /* a note at 2.56 us falls in bucket 256, past the last: pairs merge ([0, 20) is 0..2 slots, [20, 40)
     * is bucket 2 alone, 1 slot) and the width doubles to 20 ns; buckets 2..127 carry 1 slot, and bucket 128
     * goes from 1 to 0 */
    occ_note(o, NS(2560), 1, 0, 2048, 1);
    j = occ_json(o, NS(2560) + 1);
    ck_assert_msg(tu_starts(j,
                            "{\"bucket_us\": 0.020000, \"buckets\": 129, \"rings\": [null, {\"task_window\": "
                            "{\"low\": [0, 1, 1, "),
                  "%.200s", j);
    ck_assert_msg(strstr(j, ", 1, 0], \"high\": [2, 1, 1, ") != NULL, "%.400s", j);
    ck_assert_msg(strstr(j, ", 1, 1]}, \"heap\"") != NULL, "%.2000s", j); /* the last high: 1 */
    free(j);
    /* a run of nothing: one bucket, every ring null */
    occ_init(o);
    j = occ_json(o, 0);
    ck_assert_str_eq(j, "{\"bucket_us\": 0.010000, \"buckets\": 1, \"rings\": [null, null, null, null]}");
    free(j);
    free(o);
}
END_TEST

START_TEST(a_scope_site_is_its_basename_cut_to_31_and_its_line_number)
{
    /* scope_stats.jsonl's "site": the file's basename (31 characters at most), ':' and the line as
     * strtol reads it; a site without a line is "(unknown):0"; the text is cut to the room given */
    static const struct {
        const char *site, *want;
    } cases[] = {
        {"src/orch/pa.cpp:42", "pa.cpp:42"},
        {"C:\\work\\win.cpp:7", "win.cpp:7"},
        {"a:-3", "a:-3"},
        {"a:12abc", "a:12"},
        {"a:abc", "a:0"},
        {"a:99999999999999999999", "a:9223372036854775807"},
        {"a:-99999999999999999999", "a:-9223372036854775808"},
        {"0123456789012345678901234567890123456789:5", "0123456789012345678901234567890:5"},
        {"no line", "(unknown):0"},
        {"trailing:", "(unknown):0"},
        {":9", ":9"},
    };
    char out[80];
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        scopestats_site(cases[i].site, out, sizeof(out));
        ck_assert_str_eq(out, cases[i].want);
    }
    char small[5] = "xxxx";
    scopestats_site("dir/pa.cpp:42", small, sizeof(small));
    ck_assert_str_eq(small, "pa.c");
    scopestats_site("no line", small, sizeof(small));
    ck_assert_str_eq(small, "(unk");
    scopestats_site("dir/pa.cpp:42", small, 0); /* no room: nothing written */
    ck_assert_str_eq(small, "(unk");
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
    tcase_add_test(tc, two_ring_moves_at_one_instant_resume_one_submit_call);
    tcase_add_test(tc, a_scope_of_k_tasks_needs_a_window_of_k_plus_1);
    tcase_add_test(tc, heap_bump_wrap_and_rebase_follow_the_runtime_rules);
    tcase_add_test(tc, dep_pool_reclaims_in_batches_of_64_retired_tasks);
    tcase_add_test(tc, a_small_dep_pool_blocks_until_a_batch_retires_then_completes);
    tcase_add_test(tc, a_dep_pool_that_cannot_cover_64_retirements_deadlocks_with_code_4);
    tcase_add_test(tc, a_consumer_of_completed_producers_takes_no_dep_pool_entry);
    tcase_add_test(tc, a_dep_pool_held_by_a_running_head_is_code_4_after_500_ms_naming_ring_and_knob);
    tcase_add_test(tc, a_36_layer_decode_with_a_2_gib_ring_2_heap_completes);
    tcase_add_test(tc, summary_says_which_ring_blocked_the_orchestrator_and_that_its_window_was_full);
    tcase_add_test(tc, summary_names_each_ring_resource_above_90_percent_with_its_knob);
    tcase_add_test(tc, summary_says_what_the_orchestrator_still_waited_on_when_the_run_ended);
    tcase_add_test(tc, near_full_is_strictly_above_90_percent_even_for_a_heap_near_2_to_the_63);
    tcase_add_test(tc, scope_stats_samples_every_scope_with_the_runtime_fields);
    tcase_add_test(tc, raising_a_saturated_task_window_shortens_the_makespan);
    tcase_add_test(tc, ring_occupancy_keeps_each_buckets_range_and_doubles_its_width_past_the_last);
    tcase_add_test(tc, a_scope_site_is_its_basename_cut_to_31_and_its_line_number);
    tcase_set_timeout(tc, 30);
    suite_add_tcase(s, tc);
    return s;
}
