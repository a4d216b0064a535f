/* test_mkp.c - the makespan parts' log (analysis/makespan_parts) driven directly, against sums by hand. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "../model/analysis/makespan_parts.h"
#include "testutil.h"

#define NS(x) ((ps_t)(x)*PS_PER_NS)

static const char *kname_step(int32_t func, void *arg)
{
    (void)arg;
    return func == 0 ? "step" : NULL;
}

/* The part named what in r, or -1 when absent. */
static long long part_of(const mkp_result *r, const char *what)
{
    for (size_t i = 0; i < r->nparts; i++)
        if (strcmp(r->parts[i].what, what) == 0)
            return (long long)r->parts[i].ns;
    return -1;
}

/*
 * A chain of N tasks, the way the engine logs it, with four task entries reused as a window.
 * Task 0: published at 5 ns (the orchestrator, no waits), ready by its publish at 6, dispatched at 8, starts
 * at 11, ends at 21, completion observed at 22. Task i >= 1: published when task i-1 became ready, ready at
 * task i-1's completion C(i-1), dispatched 2 ns later, starts 3 ns after that, runs 10 ns, completion
 * observed 1 ns after its end: C(i) = 22 + 16 i ns. The makespan is C(N-1) = 16 N + 6 ns: kernel step 10 N,
 * ready to dispatch 2 N, dispatch to start 3 N, end to completion N, publish to ready 1, orchestrator
 * submission 5, the rest 0. A log that kept every task until the end would hold N nodes; this one merges the
 * chain as it goes.
 */
START_TEST(a_long_chain_keeps_few_nodes_and_its_parts_are_exact)
{
    enum { N = 20000, W = 4 };
    mkp_log l;
    mkp_init(&l);
    mkp_task k[W];
    memset(k, 0, sizeof(k));
    ck_assert_int_eq(mkp_published(&l, &k[0], NS(5), false, 0, 0, 0), 0);
    mkp_ready(&l, &k[0], MKP_BY_PUBLISH, NULL, NS(6));
    ps_t ready = NS(6), orch_end = NS(5);
    size_t live_max = 0;
    for (int i = 0; i < N; i++) {
        mkp_task *cur = &k[i % W], *next = &k[(i + 1) % W];
        if (i + 1 < N) { /* the next task is published once this one is ready */
            ck_assert_int_eq(mkp_published(&l, next, ready, false, 0, 0, 0), 0);
            orch_end = ready;
        }
        ps_t dispatch = ready + NS(2), start = dispatch + NS(3), end = start + NS(10);
        ps_t done = end + NS(1);
        mkp_exec(&l, cur, 0, dispatch, start, end, NS(10), 0); /* its 10 ns unstretched: no HBM stretch */
        ck_assert_int_eq(mkp_completed(&l, cur, done), 0);
        if (i + 1 < N) /* the completion's fanout walk makes the next one ready */
            mkp_ready(&l, next, MKP_BY_PRODUCER, cur, done);
        mkp_task_done(&l, cur);
        ck_assert_uint_eq(done, NS(22 + 16LL * i));
        ready = done;
        if (l.live > live_max)
            live_max = l.live;
    }
    ck_assert_msg(l.peak <= 4, "peak %zu live nodes over a chain of %d tasks", l.peak, N);
    ck_assert_uint_le(live_max, 4);
    mkp_result r;
    ck_assert_int_eq(mkp_compute(&l, NS(16LL * N + 6), orch_end, kname_step, NULL, NULL, &r), 0);
    ck_assert_msg(r.computed, "%s", r.why ? r.why : "");
    ck_assert_int_eq(r.makespan_ns, 16LL * N + 6);
    ck_assert_uint_eq(r.path_tasks, N);
    ck_assert_uint_eq(r.nparts, 1 + MKP_P_FIXED);
    ck_assert_str_eq(r.parts[0].what, "kernel step");
    ck_assert_int_eq(part_of(&r, "kernel step"), 10LL * N);
    ck_assert_int_eq(part_of(&r, "shared-HBM stretch"), 0);
    ck_assert_int_eq(part_of(&r, "completion: kernel end to completion observed"), N);
    ck_assert_int_eq(part_of(&r, "scheduler: completion or publish to ready"), 1);
    ck_assert_int_eq(part_of(&r, "scheduler: ready to dispatch"), 2LL * N);
    ck_assert_int_eq(part_of(&r, "dispatch to kernel start"), 3LL * N);
    ck_assert_int_eq(part_of(&r, "args dump"), 0);
    ck_assert_int_eq(part_of(&r, "orchestrator submission"), 5);
    mkp_result_free(&r);
    mkp_free(&l);
}
END_TEST

Suite *suite_mkp(void)
{
    Suite *s = suite_create("mkp");
    TCase *tc = tcase_create("log");
    tcase_add_test(tc, a_long_chain_keeps_few_nodes_and_its_parts_are_exact);
    suite_add_tcase(s, tc);
    return s;
}
