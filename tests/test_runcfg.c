/* test_runcfg.c - ring knobs and thread count: accepted forms and every RunConfig message. */
#include <stdlib.h>
#include <string.h>

#include "../model/runcfg.h"
#include "testutil.h"

static const char *reject(runcfg_knob k, const char *text)
{
    static char err[512];
    uint64_t v[4];
    ck_assert_msg(runcfg_parse_ring(k, text, v, err, sizeof(err)) == -1, "accepted '%s'", text);
    return err;
}

START_TEST(scalars_broadcast_and_lists_keep_zero_as_default)
{
    uint64_t v[4];
    char err[256];
    ck_assert_int_eq(runcfg_parse_ring(KNOB_TASK_WINDOW, "64", v, err, sizeof(err)), 0);
    for (int r = 0; r < 4; r++)
        ck_assert_uint_eq(v[r], 64);
    ck_assert_int_eq(runcfg_parse_ring(KNOB_HEAP, "0,1024,0,268435456", v, err, sizeof(err)), 0);
    ck_assert_uint_eq(v[0], 0);
    ck_assert_uint_eq(v[1], 1024);
    ck_assert_uint_eq(v[3], 268435456);
    ck_assert_int_eq(runcfg_parse_ring(KNOB_DEP_POOL, "5", v, err, sizeof(err)),
                     0); /* no power of 2 needed */
    ck_assert_int_eq(runcfg_parse_ring(KNOB_DEP_POOL, "2147483647", v, err, sizeof(err)), 0);
}
END_TEST

START_TEST(task_window_messages)
{
    ck_assert_str_eq(reject(KNOB_TASK_WINDOW, "100"),
                     "--ring-task-window: ring_task_window must be a power of 2 >= 4, got 100");
    ck_assert_str_eq(reject(KNOB_TASK_WINDOW, "2"),
                     "--ring-task-window: ring_task_window must be a power of 2 >= 4, got 2");
    ck_assert_str_eq(reject(KNOB_TASK_WINDOW, "0"), /* scalar 0 is not "default" */
                     "--ring-task-window: ring_task_window must be a power of 2 >= 4, got 0");
    ck_assert_str_eq(reject(KNOB_TASK_WINDOW, "abc"),
                     "--ring-task-window: ring_task_window must be a power of 2 >= 4, got 'abc'");
    ck_assert_str_eq(reject(KNOB_TASK_WINDOW, "16,0,64"),
                     "--ring-task-window: ring_task_window must have exactly 4 entries (one per scope-depth "
                     "ring), got 3");
    ck_assert_str_eq(reject(KNOB_TASK_WINDOW, "16,0,64,3"),
                     "--ring-task-window: ring_task_window entries must be a power of 2 >= 4 (or 0 to keep "
                     "default), got 3");
}
END_TEST

START_TEST(heap_messages_reject_64_bytes)
{
    /* 64 means 64 bytes, not 64 buffers */
    ck_assert_str_eq(reject(KNOB_HEAP, "64"),
                     "--ring-heap: ring_heap must be a power of 2 >= 1024 (bytes per ring), got 64");
    ck_assert_str_eq(reject(KNOB_HEAP, "3000"),
                     "--ring-heap: ring_heap must be a power of 2 >= 1024 (bytes per ring), got 3000");
    ck_assert_str_eq(
        reject(KNOB_HEAP, "1024,1024,1024,1000"),
        "--ring-heap: ring_heap entries must be a power of 2 >= 1024 (bytes per ring) (or 0 to keep "
        "default), got 1000");
    ck_assert_str_eq(reject(KNOB_HEAP, "1,2,3,4,5"),
                     "--ring-heap: ring_heap must have exactly 4 entries (one per scope-depth ring), got 5");
}
END_TEST

START_TEST(dep_pool_messages)
{
    ck_assert_str_eq(reject(KNOB_DEP_POOL, "3"),
                     "--ring-dep-pool: ring_dep_pool must be in [4, INT32_MAX], got 3");
    ck_assert_str_eq(reject(KNOB_DEP_POOL, "2147483648"),
                     "--ring-dep-pool: ring_dep_pool must be in [4, INT32_MAX], got 2147483648");
    ck_assert_str_eq(reject(KNOB_DEP_POOL, "-4"),
                     "--ring-dep-pool: ring_dep_pool must be in [4, INT32_MAX], got -4");
    ck_assert_str_eq(
        reject(KNOB_DEP_POOL, "4,x,4,4"),
        "--ring-dep-pool: ring_dep_pool entries must be in [4, INT32_MAX] (or 0 to keep default), "
        "got 'x'");
}
END_TEST

START_TEST(thread_count_is_auto_or_two_to_four)
{
    char err[256];
    ck_assert_int_eq(runcfg_check_threads(0, err, sizeof(err)), 0);
    ck_assert_int_eq(runcfg_check_threads(2, err, sizeof(err)), 0);
    ck_assert_int_eq(runcfg_check_threads(4, err, sizeof(err)), 0);
    ck_assert_int_eq(runcfg_check_threads(1, err, sizeof(err)), -1);
    ck_assert_str_eq(err, "--aicpu-thread-num: launch_aicpu_num (1) must be 0 (auto) or in range [2, 4]");
    ck_assert_int_eq(runcfg_check_threads(6, err, sizeof(err)), -1);
}
END_TEST

START_TEST(retired_ring_variables_only_warn)
{
    char out[1024];
    unsetenv("PTO2_RING_TASK_WINDOW");
    unsetenv("PTO2_RING_HEAP");
    unsetenv("PTO2_RING_DEP_POOL");
    ck_assert_int_eq(runcfg_warn_retired_env(out, sizeof(out)), 0);
    ck_assert_str_eq(out, "");
    setenv("PTO2_RING_TASK_WINDOW", "64", 1);
    ck_assert_int_eq(runcfg_warn_retired_env(out, sizeof(out)), 1);
    ck_assert_str_eq(out,
                     "warning: PTO2_RING_TASK_WINDOW is set but no longer read (the process-wide PTO2_RING_* "
                     "variables are retired); use --ring-task-window\n");
    unsetenv("PTO2_RING_TASK_WINDOW");
}
END_TEST

START_TEST(pmu_event_type_resolution_and_messages)
{
    char warn[256], err[256];
    int t = -1;
    ck_assert_int_eq(runcfg_pmu_type(0, NULL, "4", &t, warn, sizeof(warn), err, sizeof(err)), 0);
    ck_assert_int_eq(t, 0); /* no --enable-pmu: off, whatever the environment says */
    ck_assert_int_eq(runcfg_pmu_type(1, NULL, NULL, &t, warn, sizeof(warn), err, sizeof(err)), 0);
    ck_assert_int_eq(t, 2); /* bare flag: PIPE_UTILIZATION */
    ck_assert_str_eq(warn, "");
    ck_assert_int_eq(runcfg_pmu_type(1, NULL, "4", &t, warn, sizeof(warn), err, sizeof(err)), 0);
    ck_assert_int_eq(t, 4); /* bare flag takes a valid SIMPLER_PMU_EVENT_TYPE */
    ck_assert_int_eq(runcfg_pmu_type(1, "5", "4", &t, warn, sizeof(warn), err, sizeof(err)), 0);
    ck_assert_int_eq(t, 5); /* an explicit value wins */
    ck_assert_int_eq(runcfg_pmu_type(1, NULL, "3", &t, warn, sizeof(warn), err, sizeof(err)), 0);
    ck_assert_int_eq(t, 2); /* 3 is not an a2a3 event group */
    ck_assert_str_eq(warn, "Invalid SIMPLER_PMU_EVENT_TYPE=3, using default (PIPE_UTILIZATION=2)");
    ck_assert_int_eq(runcfg_pmu_type(1, "9", NULL, &t, warn, sizeof(warn), err, sizeof(err)), 0);
    ck_assert_int_eq(t, 2);
    ck_assert_str_eq(warn, "Invalid PMU event type 9, using default (PIPE_UTILIZATION=2)");
    ck_assert_int_eq(runcfg_pmu_type(1, "0", NULL, &t, warn, sizeof(warn), err, sizeof(err)), 0);
    ck_assert_int_eq(t, 0); /* explicitly off */
    ck_assert_int_eq(runcfg_pmu_type(1, "pipe", NULL, &t, warn, sizeof(warn), err, sizeof(err)), -1);
    ck_assert_str_eq(err, "--enable-pmu: 'pipe' is not an integer event type");
}
END_TEST

START_TEST(timeout_flag_wins_over_environment)
{
    char warn[256], err[256];
    long ms = 0;
    unsetenv("PTOSIM_TEST_TIMEOUT_MS");
    ck_assert_int_eq(runcfg_timeout("--t", NULL, "PTOSIM_TEST_TIMEOUT_MS", "milliseconds", 10000, &ms, warn,
                                    sizeof(warn), err, sizeof(err)),
                     0);
    ck_assert_int_eq(ms, 10000);
    setenv("PTOSIM_TEST_TIMEOUT_MS", "2000", 1);
    ck_assert_int_eq(runcfg_timeout("--t", NULL, "PTOSIM_TEST_TIMEOUT_MS", "milliseconds", 10000, &ms, warn,
                                    sizeof(warn), err, sizeof(err)),
                     0);
    ck_assert_int_eq(ms, 2000);
    ck_assert_int_eq(runcfg_timeout("--t", "30", "PTOSIM_TEST_TIMEOUT_MS", "milliseconds", 10000, &ms, warn,
                                    sizeof(warn), err, sizeof(err)),
                     0);
    ck_assert_int_eq(ms, 30);
    setenv("PTOSIM_TEST_TIMEOUT_MS", "soon", 1);
    ck_assert_int_eq(runcfg_timeout("--t", NULL, "PTOSIM_TEST_TIMEOUT_MS", "milliseconds", 10000, &ms, warn,
                                    sizeof(warn), err, sizeof(err)),
                     0);
    ck_assert_int_eq(ms, 10000);
    ck_assert_str_eq(warn, "PTOSIM_TEST_TIMEOUT_MS=soon is not a positive integer, ignored (using 10000)");
    ck_assert_int_eq(runcfg_timeout("--t", "0", "PTOSIM_TEST_TIMEOUT_MS", "milliseconds", 10000, &ms, warn,
                                    sizeof(warn), err, sizeof(err)),
                     -1);
    ck_assert_str_eq(err, "--t: must be a positive integer (milliseconds), got '0'");
    unsetenv("PTOSIM_TEST_TIMEOUT_MS");
}
END_TEST

Suite *suite_runcfg(void)
{
    Suite *s = suite_create("runcfg");
    TCase *tc = tcase_create("knobs");
    tcase_add_test(tc, scalars_broadcast_and_lists_keep_zero_as_default);
    tcase_add_test(tc, task_window_messages);
    tcase_add_test(tc, heap_messages_reject_64_bytes);
    tcase_add_test(tc, dep_pool_messages);
    tcase_add_test(tc, thread_count_is_auto_or_two_to_four);
    tcase_add_test(tc, retired_ring_variables_only_warn);
    tcase_add_test(tc, pmu_event_type_resolution_and_messages);
    tcase_add_test(tc, timeout_flag_wins_over_environment);
    suite_add_tcase(s, tc);
    return s;
}
