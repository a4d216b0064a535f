/* test_basics.c - unit tests of the small components: event heap, string table, queues, topology, time. */
#include <stdlib.h>
#include <string.h>

#include "../model/core.h"
#include "../model/dtype.h"
#include "../model/evq.h"
#include "../model/readyq.h"
#include "../model/simtime.h"
#include "../model/strtab.h"
#include "../model/task.h"
#include "testutil.h"

START_TEST(evq_pops_in_time_order_and_ties_in_insertion_order)
{
    evq q;
    ck_assert_int_eq(evq_init(&q, 2), 0);
    /* pushed out of order; two pairs share a time */
    uint64_t times[] = {50, 10, 30, 10, 50, 20};
    for (uint32_t i = 0; i < 6; i++)
        ck_assert_int_eq(evq_push(&q, times[i], 0, i, 0), 0);
    uint32_t want_who[] = {1, 3, 5, 2, 0, 4};
    uint64_t want_t[] = {10, 10, 20, 30, 50, 50};
    for (int i = 0; i < 6; i++) {
        evq_event ev;
        ck_assert_int_eq(evq_pop(&q, &ev), 0);
        ck_assert_uint_eq(ev.t, want_t[i]);
        ck_assert_uint_eq(ev.who, want_who[i]);
    }
    evq_event ev;
    ck_assert_int_eq(evq_pop(&q, &ev), -1);
    ck_assert_uint_eq(evq_peek_time(&q), PS_NEVER);
    evq_free(&q);
}
END_TEST

START_TEST(evq_stays_ordered_under_many_random_pushes)
{
    evq q;
    evq_init(&q, 4);
    uint64_t x = 12345;
    for (int i = 0; i < 10000; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        evq_push(&q, (x >> 33) % 1000, 0, 0, (uint64_t)i);
    }
    evq_event prev = {0}, ev;
    int n = 0;
    while (evq_pop(&q, &ev) == 0) {
        if (n)
            ck_assert(prev.t < ev.t || (prev.t == ev.t && prev.seq < ev.seq));
        prev = ev;
        n++;
    }
    ck_assert_int_eq(n, 10000);
    evq_free(&q);
}
END_TEST

START_TEST(strtab_gives_dense_slots_in_first_seen_order)
{
    strtab t;
    strtab_init(&t);
    char name[32];
    for (int i = 0; i < 1000; i++) {
        snprintf(name, sizeof(name), "tensor_%d", i);
        ck_assert_int_eq(strtab_intern(&t, name), i);
    }
    ck_assert_int_eq(strtab_intern(&t, "tensor_7"), 7); /* reuse keeps the slot */
    ck_assert_int_eq(strtab_find(&t, "tensor_999"), 999);
    ck_assert_int_eq(strtab_find(&t, "absent"), -1);
    ck_assert_str_eq(strtab_key(&t, 42), "tensor_42");
    ck_assert_uint_eq(t.count, 1000);
    strtab_free(&t);
}
END_TEST

START_TEST(readyq_is_fifo_across_growth)
{
    readyq q;
    readyq_init(&q);
    uint64_t id;
    for (uint64_t i = 0; i < 300; i++)
        readyq_push(&q, i);
    for (uint64_t i = 0; i < 100; i++) {
        readyq_pop(&q, &id);
        ck_assert_uint_eq(id, i);
    }
    for (uint64_t i = 300; i < 1000; i++) /* wraps, then grows */
        readyq_push(&q, i);
    for (uint64_t i = 100; i < 1000; i++) {
        ck_assert_int_eq(readyq_pop(&q, &id), 0);
        ck_assert_uint_eq(id, i);
    }
    ck_assert_int_eq(readyq_pop(&q, &id), -1);
    ck_assert_uint_eq(q.peak, 900);
    readyq_free(&q);
}
END_TEST

START_TEST(core_topology_matches_runtime_numbering)
{
    /* formats.md §0.4: AIC c = c; AIV 24 + 2c, 24 + 2c + 1; cluster c -> thread c % 3 */
    core cores[72];
    core_topology(cores, 24, 3);
    ck_assert_int_eq(cores[5].type, CORE_AIC);
    ck_assert_int_eq(cores[5].cluster, 5);
    ck_assert_int_eq(cores[5].thread, 2);
    ck_assert_int_eq(cores[24 + 2 * 5].cluster, 5);
    ck_assert_int_eq(cores[24 + 2 * 5 + 1].cluster, 5);
    ck_assert_int_eq(cores[24 + 2 * 5 + 1].subslot, 2);
    ck_assert_int_eq(cores[24 + 2 * 5].thread, 2);
    ck_assert_int_eq(cores[71].type, CORE_AIV);
    ck_assert_int_eq(cores[71].thread, 23 % 3);
    /* the spec's sim-shaped example: 8 clusters, core_to_thread of core 8.. */
    core small[24];
    core_topology(small, 8, 3);
    int want[24] = {0, 1, 2, 0, 1, 2, 0, 1, 0, 0, 1, 1, 2, 2, 0, 0, 1, 1, 2, 2, 0, 0, 1, 1};
    for (int i = 0; i < 24; i++)
        ck_assert_int_eq(small[i].thread, want[i]);
}
END_TEST

START_TEST(dispatch_tokens_count_from_one_and_skip_reserved_band)
{
    core c = {0};
    ck_assert_uint_eq(core_next_reg(&c), 1);
    ck_assert_uint_eq(core_next_reg(&c), 2);
    c.last_reg = CORE_REG_RESERVED_LOW - 1;
    ck_assert_uint_eq(core_next_reg(&c), 1); /* 0x7FFFFFF0.. is reserved */
}
END_TEST

START_TEST(time_conversions_round_as_documented)
{
    ck_assert_uint_eq(ps_from_cycles(18000, 1800000000ULL), 10 * PS_PER_US);
    ck_assert_uint_eq(ps_from_cycles(1, 1800000000ULL), 556); /* 555.6 rounds to nearest */
    ck_assert_uint_eq(ticks_from_ps(19999, 50000000ULL), 0);  /* 20 ns per tick, floor */
    ck_assert_uint_eq(ticks_from_ps(20000, 50000000ULL), 1);
    ck_assert_uint_eq(cycles_from_ps(10 * PS_PER_US, 1800000000ULL), 18000);
}
END_TEST

START_TEST(dtype_names_and_sizes_follow_the_runtime_table)
{
    ck_assert_str_eq(dtype_name(DT_FLOAT32), "FLOAT32");
    ck_assert_int_eq(dtype_size(DT_BFLOAT16), 2);
    ck_assert_int_eq(dtype_parse("UINT64"), DT_UINT64);
    ck_assert_int_eq(dtype_parse("float32"), -1); /* upper case only */
    ck_assert_str_eq(dtype_name(99), "UNKNOWN");
}
END_TEST

START_TEST(task_links_deduplicate_and_or_flags)
{
    task t;
    memset(&t, 0, sizeof(t));
    ck_assert_int_eq(task_add_link(&t, 7, false), 1);
    ck_assert_int_eq(task_add_link(&t, 7, true), 0); /* same producer: flags OR-ed */
    for (uint64_t p = 100; p < 110; p++)
        ck_assert_int_eq(task_add_link(&t, p, p % 2), 1); /* spills past the inline ones */
    ck_assert_uint_eq(t.nlinks, 11);
    ck_assert(task_link_at(&t, 0)->retain);
    ck_assert_uint_eq(task_link_at(&t, 10)->producer, 109);
    task_clear_links(&t);
    ck_assert_uint_eq(t.nlinks, 0);
}
END_TEST

Suite *suite_basics(void)
{
    Suite *s = suite_create("basics");
    TCase *tc = tcase_create("components");
    tcase_add_test(tc, evq_pops_in_time_order_and_ties_in_insertion_order);
    tcase_add_test(tc, evq_stays_ordered_under_many_random_pushes);
    tcase_add_test(tc, strtab_gives_dense_slots_in_first_seen_order);
    tcase_add_test(tc, readyq_is_fifo_across_growth);
    tcase_add_test(tc, core_topology_matches_runtime_numbering);
    tcase_add_test(tc, dispatch_tokens_count_from_one_and_skip_reserved_band);
    tcase_add_test(tc, time_conversions_round_as_documented);
    tcase_add_test(tc, dtype_names_and_sizes_follow_the_runtime_table);
    tcase_add_test(tc, task_links_deduplicate_and_or_flags);
    suite_add_tcase(s, tc);
    return s;
}
