/* test_hbm.c - shared HBM bandwidth: max-min fair shares, pinned flows, and contention on the chip. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/engine/chip_engine.h"
#include "../model/chip/hbm.h"
#include "testutil.h"

START_TEST(water_filling_serves_small_demands_in_full)
{
    /* 10 bytes/ps among demands 2, 4 and 8: an equal split is 3.33, so 2 is
     * served in full; 8 left for two, 4 each: 4 in full, 8 gets 4 (half speed) */
    hbm h;
    hbm_init(&h, 10.0 * PS_PER_S);
    hbm_add(&h, 0, 2, 1000);
    hbm_add(&h, 1, 4, 1000);
    hbm_add(&h, 2, 8, 1000);
    hbm_share(&h);
    ck_assert_double_eq(h.flows[0].speed, 1.0);
    ck_assert_double_eq(h.flows[1].speed, 1.0);
    ck_assert_double_eq(h.flows[2].speed, 0.5);
    ck_assert_uint_eq(hbm_end(&h, 2), 2000);
    /* enough bandwidth for everyone: full speed */
    hbm_init(&h, 100.0 * PS_PER_S);
    hbm_add(&h, 5, 8, 1000);
    hbm_add(&h, 6, 8, 1000);
    hbm_share(&h);
    ck_assert_double_eq(h.flows[5].speed, 1.0);
    ck_assert_double_eq(h.flows[6].speed, 1.0);
}
END_TEST

START_TEST(flows_on_cores_past_64_take_part_in_shares_starts_and_ends)
{
    /* the scans follow masks of 64-core words: cores 63, 64 and 71 sit on both sides of the boundary */
    hbm h;
    hbm_init(&h, 3.0 * PS_PER_S);
    hbm_add(&h, 63, 2, 1000);
    hbm_add(&h, 64, 2, 1000);
    hbm_add(&h, 71, 2, 1000);
    hbm_share(&h); /* 3 bytes/ps for three demands of 2: one each, half speed */
    for (int k = 63; k <= 71; k += (k == 64 ? 7 : 1))
        ck_assert_double_eq(h.flows[k].speed, 0.5);
    ck_assert_double_eq(hbm_used(&h), 3.0);
    hbm_remove(&h, 64);
    hbm_share(&h); /* two left: 1.5 each of 2 */
    ck_assert_double_eq(h.flows[71].speed, 0.75);
    hbm_advance(&h, 400);
    ck_assert_double_eq_tol(h.flows[71].work, 700, 1e-9);
    ck_assert_double_eq(h.flows[64].work, 0); /* removed: not advanced */
    /* a start on core 70 and an end on core 65: begin finds both, in core order */
    hbm_expect(&h, 70, (hbm_ref){1, 0, 1}, 500);
    hbm_start(&h, 65, (hbm_ref){2, 0, 1}, 0.5, 100, 500);
    ps_t t;
    uint64_t gen;
    ck_assert(hbm_reschedule(&h, &t, &gen));
    ck_assert_uint_eq(t, 500);
    uint8_t ks[PLATFORM_MAX_CORES];
    ck_assert_int_eq(hbm_begin(&h, 500, ks), 1);
    ck_assert_int_eq(ks[0], 70);
    ck_assert(!h.flows[65].active); /* its end came: the flow is gone */
    ck_assert_uint_eq(h.end_at[65], PS_NEVER);
}
END_TEST

START_TEST(work_advances_at_the_shared_speed_and_pinned_flows_keep_theirs)
{
    /* two flows of demand 1 on a capacity of 1: half speed each */
    hbm h;
    hbm_init(&h, 1.0 * PS_PER_S);
    hbm_add(&h, 0, 1, 1000);
    hbm_add(&h, 1, 1, 1000);
    hbm_share(&h);
    ck_assert_uint_eq(hbm_end(&h, 0), 2000);
    hbm_advance(&h, 400); /* 200 ps of work done each */
    ck_assert_double_eq_tol(h.flows[0].work, 800, 1e-9);
    /* flow 0's end was observed: it keeps half speed even when flow 1 leaves */
    hbm_pin(&h, 0);
    hbm_remove(&h, 1);
    hbm_share(&h);
    ck_assert_double_eq(h.flows[0].speed, 0.5);
    ck_assert_uint_eq(hbm_end(&h, 0), 2000);
    /* a pinned flow's share is taken first: a newcomer gets what is left */
    hbm_add(&h, 2, 1, 1000);
    hbm_share(&h);
    ck_assert_double_eq(h.flows[2].speed, 0.5);
}
END_TEST

/* A pure MTE2 stream: 64 tiles of 64 KiB at 32 B/cycle, no scalar overhead:
 * 131072 cycles = 72.818 us at exactly 57.6 GB/s, the per-core ceiling. */
#define STREAM_HDR                                                                                           \
    "{\"ptosim_graph\": 1, \"name\": \"bw\", \"kernels\": [{\"id\": 0, \"name\": \"stream\", \"core\": "     \
    "\"aiv\", "                                                                                              \
    "\"cost\": {\"tiles\": 64, \"scalar\": 0, \"mte2\": {\"bytes\": 65536}}}]}\n"

static ps_t window(const sl_exec *e)
{
    return e->end - e->start;
}

START_TEST(two_streams_on_one_cores_worth_of_hbm_share_it_half_and_half)
{
    /* with the die's HBM cut to one core's ceiling (57.6 GB/s), two streams
     * that overlap share it: A runs alone for d = startB - startA, then both
     * at half speed until A is done (2 x (D - d)), then B alone for d. Each
     * window is 2D - d. */
    const char *const sets[] = {"hbm_bw=57600000000", NULL};
    chip *c = tu_chip(STREAM_HDR "{\"op\": \"submit\", \"kernel\": \"stream\"}\n"
                                 "{\"op\": \"submit\", \"kernel\": \"stream\"}\n",
                      sets, 1, NULL);
    ck_assert_int_eq(c->status, CHIP_DONE);
    ps_t D = ps_from_cycles(131072, 1800000000ULL);
    const sl_exec *a = tu_exec(c, 0, NULL), *b = tu_exec(c, 1, NULL);
    ck_assert_uint_gt(b->start, a->start);
    ps_t d = b->start - a->start;
    ck_assert_uint_lt(d, D);
    ck_assert_int_le(llabs((long long)(window(a) - (2 * D - d))), 2);
    ck_assert_int_le(llabs((long long)(window(b) - (2 * D - d))), 2);
    ck_assert_int_le(llabs((long long)(b->end - a->end - d)), 2);
    /* the same graph on the real die: no contention, each runs D */
    chip *free_run = tu_chip(STREAM_HDR "{\"op\": \"submit\", \"kernel\": \"stream\"}\n"
                                        "{\"op\": \"submit\", \"kernel\": \"stream\"}\n",
                             NULL, 1, NULL);
    ck_assert_uint_eq(window(tu_exec(free_run, 0, NULL)), D);
    ck_assert_uint_eq(window(tu_exec(free_run, 1, NULL)), D);
    tu_chip_free(c);
    tu_chip_free(free_run);
}
END_TEST

START_TEST(forty_eight_streams_slow_down_by_demand_over_bandwidth)
{
    /* 48 AIV cores each wanting 57.6 GB/s from a 1.6 TB/s die get 33.3 GB/s:
     * a stream that overlaps all the others the whole time takes
     * 48 x 57.6 / 1600 = 1.728 times as long as one alone. The blocks start
     * a few us apart (dispatch order, first-task pickup), so the ones at the
     * edges run alone for a moment: the mean lies a little below 1.728. */
    const char *const sets[] = {"aicore_first_task_min_ns=0", "aicore_first_task_max_ns=0", NULL};
    chip *one = tu_chip(STREAM_HDR "{\"op\": \"submit\", \"kernel\": \"stream\"}\n", sets, 1, NULL);
    chip *all = tu_chip(STREAM_HDR "{\"op\": \"submit\", \"kernel\": \"stream\", \"block_num\": 48}\n", sets,
                        1, NULL);
    ck_assert_int_eq(all->status, CHIP_DONE);
    double alone = (double)window(tu_exec(one, 0, NULL));
    double sum = 0, first = 1e30, last = 0;
    int n = 0;
    for (int k = 0; k < all->ncores; k++)
        for (size_t i = 0; i < all->sl.per_core[k].n; i++) {
            const sl_exec *e = &all->sl.per_core[k].v[i];
            sum += (double)window(e);
            first = fmin(first, (double)e->start);
            last = fmax(last, (double)e->end);
            n++;
        }
    ck_assert_int_eq(n, 48);
    double ratio = sum / n / alone, predicted = 48 * 57.6e9 / 1.6e12;
    ck_assert_msg(ratio > 0.97 * predicted && ratio <= predicted, "ratio %.4f, predicted %.4f", ratio,
                  predicted);
    /* the die never moves more than 1.6 TB/s: 48 x 4 MiB take at least 125.8 us */
    double bytes = 48.0 * 64 * 65536;
    ck_assert_double_le(bytes / ((last - first) / PS_PER_S), 1.6e12 * 1.000001);
    /* saturated for most of the run, never longer than it */
    ck_assert_uint_gt(all->mem.saturated_ps, (ps_t)(0.8 * (last - first)));
    ck_assert_uint_lt(all->mem.saturated_ps, (ps_t)(last - first));
    ck_assert_uint_eq(all->gm_bytes, 48ULL * 64 * 65536);
    /* the kernel report says how much contention stretched it */
    double stretch = (double)all->kstats[0].core_ps / (double)all->kstats[0].idle_mem_ps;
    ck_assert_double_eq_tol(stretch, ratio, 1e-6);
    tu_chip_free(one);
    tu_chip_free(all);
}
END_TEST

START_TEST(contention_moves_the_pending_task_behind_a_slowed_one)
{
    /* one cluster (two AIV cores), four streams, HBM cut to one core's
     * ceiling: the first two run side by side at about half speed while the
     * next two wait in the pending slots. The moved end carries the pending
     * task with it: it still starts 1.39 us (record commit, the core's first
     * and so cold, 0.52 + 0.58, + setup 0.29) after the slowed task ends. */
    const char *const sets[] = {"clusters=1", "aicpu_threads=2", "hbm_bw=57600000000", NULL};
    chip *c = tu_chip(STREAM_HDR "{\"op\": \"submit\", \"kernel\": \"stream\"}\n"
                                 "{\"op\": \"submit\", \"kernel\": \"stream\"}\n"
                                 "{\"op\": \"submit\", \"kernel\": \"stream\"}\n"
                                 "{\"op\": \"submit\", \"kernel\": \"stream\"}\n",
                      sets, 1, NULL);
    ck_assert_int_eq(c->status, CHIP_DONE);
    ps_t D = ps_from_cycles(131072, 1800000000ULL);
    int k0;
    const sl_exec *first = tu_exec(c, 0, &k0);
    ck_assert_uint_gt(window(first), D + D / 2); /* shared for most of its run */
    ck_assert_uint_eq(c->sl.per_core[k0].n, 2);
    const sl_exec *next = &c->sl.per_core[k0].v[1];
    ck_assert_uint_lt(next->dispatch, first->end); /* it was pre-loaded in the pending slot */
    ck_assert_uint_eq(next->start, first->end + 1390 * PS_PER_NS);
    ck_assert_uint_eq(c->pending_dispatches, 2);
    tu_chip_free(c);
}
END_TEST

START_TEST(the_one_pending_reshare_follows_the_earliest_start_or_end)
{
    hbm h;
    hbm_init(&h, 1.0 * PS_PER_S);
    ps_t t;
    uint64_t gen;
    ck_assert(!hbm_reschedule(&h, &t, &gen)); /* nothing expected: no event */
    hbm_expect(&h, 3, (hbm_ref){7, 0, 1}, 100);
    ck_assert(hbm_reschedule(&h, &t, &gen));
    ck_assert_uint_eq(t, 100);
    ck_assert(hbm_live(&h, gen));
    ck_assert(!hbm_reschedule(&h, &t, &gen)); /* unchanged: the event stays live */
    /* the earliest start moves later: the event follows it, the old one goes stale */
    uint64_t old = gen;
    hbm_restart(&h, 3, (hbm_ref){7, 0, 1}, 200);
    hbm_expect(&h, 5, (hbm_ref){8, 0, 1}, 150);
    ck_assert(hbm_reschedule(&h, &t, &gen));
    ck_assert_uint_eq(t, 150);
    ck_assert(!hbm_live(&h, old));
    /* another execution's restart leaves core 3's start alone */
    hbm_restart(&h, 3, (hbm_ref){9, 0, 1}, 50);
    ck_assert(!hbm_reschedule(&h, &t, &gen));
    /* at 150 core 5's flow starts (ends at 1150 at full speed); core 3 still waits */
    uint8_t ks[PLATFORM_MAX_CORES];
    ck_assert_int_eq(hbm_begin(&h, 150, ks), 1);
    ck_assert_int_eq(ks[0], 5);
    hbm_start(&h, 5, h.next[5], 0.8, 1000, 1150);
    hbm_share(&h);
    ck_assert_int_eq(hbm_moved(&h, ks), 0); /* alone at full speed: its end stands */
    ck_assert(hbm_reschedule(&h, &t, &gen));
    ck_assert_uint_eq(t, 200);
    /* at 200 core 3's joins: 0.8 + 1.0 > 1 byte/ps, half each: both slow, both ends move */
    ck_assert_int_eq(hbm_begin(&h, 200, ks), 1);
    hbm_start(&h, 3, h.next[3], 1.0, 1000, 1200);
    hbm_share(&h);
    ck_assert_int_eq(hbm_moved(&h, ks), 2);
    ck_assert_int_eq(ks[0], 3);
    ck_assert_int_eq(ks[1], 5);
    ck_assert(h.end_at[5] > 1150);
    ck_assert(hbm_reschedule(&h, &t, &gen));
    ck_assert_uint_eq(t, h.end_at[5] < h.end_at[3] ? h.end_at[5] : h.end_at[3]);
}
END_TEST

Suite *suite_hbm(void)
{
    Suite *s = suite_create("hbm");
    TCase *tc = tcase_create("bandwidth");
    tcase_add_test(tc, water_filling_serves_small_demands_in_full);
    tcase_add_test(tc, flows_on_cores_past_64_take_part_in_shares_starts_and_ends);
    tcase_add_test(tc, the_one_pending_reshare_follows_the_earliest_start_or_end);
    tcase_add_test(tc, work_advances_at_the_shared_speed_and_pinned_flows_keep_theirs);
    tcase_add_test(tc, two_streams_on_one_cores_worth_of_hbm_share_it_half_and_half);
    tcase_add_test(tc, forty_eight_streams_slow_down_by_demand_over_bandwidth);
    tcase_add_test(tc, contention_moves_the_pending_task_behind_a_slowed_one);
    suite_add_tcase(s, tc);
    return s;
}
