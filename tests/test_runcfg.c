/* test_runcfg.c - ring knobs and thread count: accepted forms and every RunConfig message. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/runtime/run_config.h"
#include "../model/base/int_text.h"
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
    /* powers of 2 above INT32_MAX pass pypto's RunConfig and meet simpler's
     * RuntimeEnv::validate, which names the real range */
    ck_assert_str_eq(
        reject(KNOB_TASK_WINDOW, "4294967296"),
        "--ring-task-window: RuntimeEnv: ring_task_window must be a power of 2 in [4, INT32_MAX]");
    ck_assert_str_eq(
        reject(KNOB_TASK_WINDOW, "2147483648"),
        "--ring-task-window: RuntimeEnv: ring_task_window must be a power of 2 in [4, INT32_MAX]");
    ck_assert_str_eq(
        reject(KNOB_TASK_WINDOW, "0,4294967296,0,0"),
        "--ring-task-window: RuntimeEnv: ring_task_window must be a power of 2 in [4, INT32_MAX]");
    uint64_t v[4];
    char err[256];
    ck_assert_int_eq(runcfg_parse_ring(KNOB_TASK_WINDOW, "1073741824", v, err, sizeof(err)), 0);
    ck_assert_uint_eq(v[3], 1073741824);
    const uint64_t big[4] = {4294967296ULL};
    ck_assert_int_eq(runcfg_ring_values(KNOB_TASK_WINDOW, big, 1, false, v, err, sizeof(err)), -1);
    ck_assert_str_eq(err, "RuntimeEnv: ring_task_window must be a power of 2 in [4, INT32_MAX]");
    ck_assert_str_eq(reject(KNOB_TASK_WINDOW, "16,0,64,3"),
                     "--ring-task-window: ring_task_window entries must be a power of 2 >= 4 (or 0 to keep "
                     "default), got 3");
}
END_TEST

START_TEST(heap_messages_reject_64_bytes)
{
    /* 64 means 64 bytes, not 64 buffers; pypto's RunConfig has one rule and one message for both */
    ck_assert_str_eq(reject(KNOB_HEAP, "64"),
                     "--ring-heap: ring_heap must be a power of 2 >= 1024 (bytes per ring), got 64");
    ck_assert_str_eq(reject(KNOB_HEAP, "3000"),
                     "--ring-heap: ring_heap must be a power of 2 >= 1024 (bytes per ring), got 3000");
    ck_assert_str_eq(reject(KNOB_HEAP, "1024,1024,1024,1000"),
                     "--ring-heap: ring_heap entries must be a power of 2 >= 1024 (bytes per ring) (or 0 to keep "
                     "default), got 1000");
    ck_assert_str_eq(reject(KNOB_HEAP, "1024,1024,1024,3000"),
                     "--ring-heap: ring_heap entries must be a power of 2 >= 1024 (bytes per ring) (or 0 to "
                     "keep default), got 3000");
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

START_TEST(one_strict_integer_reader_refuses_blanks_plus_signs_and_wrapping)
{
    int64_t v = 7;
    uint64_t u = 7;
    ck_assert_int_eq(strint_parse("16", 0, 100, &v), STRINT_OK);
    ck_assert_int_eq(v, 16);
    ck_assert_int_eq(strint_parse("-9223372036854775808", INT64_MIN, INT64_MAX, &v), STRINT_OK);
    ck_assert(v == INT64_MIN);
    ck_assert_int_eq(strint_parse("9223372036854775807", INT64_MIN, INT64_MAX, &v), STRINT_OK);
    ck_assert(v == INT64_MAX);
    static const char *const syntax[] = {"", " 16", "16 ", "+16", "0x10", "1e2", "-", "--1", "1,6", "16\n"};
    for (size_t i = 0; i < sizeof(syntax) / sizeof(*syntax); i++)
        ck_assert_msg(strint_parse(syntax[i], INT64_MIN, INT64_MAX, &v) == STRINT_SYNTAX, "'%s'", syntax[i]);
    /* past 64 bits and past the bounds: out of range, never wrapped */
    ck_assert_int_eq(strint_parse("9223372036854775808", INT64_MIN, INT64_MAX, &v), STRINT_RANGE);
    ck_assert_int_eq(strint_parse("-9223372036854775809", INT64_MIN, INT64_MAX, &v), STRINT_RANGE);
    ck_assert_int_eq(strint_parse("4294967297", 0, 3, &v), STRINT_RANGE);
    ck_assert_int_eq(strint_parse("99999999999999999999999", 0, 3, &v), STRINT_RANGE);
    ck_assert_int_eq(v, INT64_MAX); /* untouched by failures */
    ck_assert_int_eq(strint_parse_u64("18446744073709551615", UINT64_MAX, &u), STRINT_OK);
    ck_assert(u == UINT64_MAX);
    ck_assert_int_eq(strint_parse_u64("18446744073709551616", UINT64_MAX, &u), STRINT_RANGE);
    ck_assert_int_eq(strint_parse_u64("-1", UINT64_MAX, &u), STRINT_RANGE);
    ck_assert_int_eq(strint_parse_u64("+1", UINT64_MAX, &u), STRINT_SYNTAX);
    char err[128];
    ck_assert_int_eq(strint_arg("-j", "+2", 1, 64, &v, err, sizeof(err)), -1);
    ck_assert_str_eq(err, "-j: must be an integer in [1, 64], got '+2'");
}
END_TEST

START_TEST(every_integer_flag_takes_the_same_text)
{
    /* --dump-args=4294967297 ran at level 1 and --enable-chip-swimlane=4294967300 at 4 (a long -> int
     * cast); 2^63 threads was reported as 2^63 - 1 */
    static const struct {
        const char *arg, *err;
    } named[] = {
        {"--dump-args=4294967297", "ptosim: --dump-args: enable_dump_args must be a level in [0, 3] (0=off, "
                                   "1=tagged args, 2=every arg, 3=every arg's metadata with tagged payload), "
                                   "got 4294967297\n"},
        {"--enable-chip-swimlane=4294967300",
         "ptosim: --enable-chip-swimlane: enable_chip_swimlane must be a collection level in [0, 4] (0=off, "
         "1=AICore timing, 2=+dispatch/finish, 3=+sched phases, 4=+orch phases), got 4294967300\n"},
        {"--aicpu-thread-num=9223372036854775808", "ptosim: --aicpu-thread-num: launch_aicpu_num "
                                                   "(9223372036854775808) must be 0 (auto) or in range [2, "
                                                   "4]\n"},
        {"--aicpu-thread-num=+4", "ptosim: --aicpu-thread-num: '+4' is not an integer\n"},
        {"--aicpu-thread-num= 4", "ptosim: --aicpu-thread-num: ' 4' is not an integer\n"},
        {"--scheduler-timeout-ms=+16",
         "ptosim: --scheduler-timeout-ms: must be a positive integer (milliseconds), got '+16'\n"},
        {"--op-execute-timeout-us= 16",
         "ptosim: --op-execute-timeout-us: must be a positive integer (microseconds), got ' 16'\n"},
        {"--enable-pmu=+2", "ptosim: --enable-pmu: '+2' is not an integer event type\n"},
        {"--ring-dep-pool=+16",
         "ptosim: --ring-dep-pool: ring_dep_pool must be in [4, INT32_MAX], got '+16'\n"},
        {"--set=aicpu_threads= 3", "ptosim: --set aicpu_threads= 3: ' 3' is not an integer\n"},
        {"--set=aicpu_threads=99999999999999999999", "ptosim: --set aicpu_threads=99999999999999999999: "
                                                     "99999999999999999999 is out of range\n"},
    };
    const char *dir = tu_tmpdir();
    for (size_t i = 0; i < sizeof(named) / sizeof(*named); i++) {
        const char *args[] = {"run", TRACE("chain3.jsonl"), "-o", dir, named[i].arg, NULL};
        run_out r = tu_run(args);
        ck_assert_msg(r.status == 2, "%s: exit %d", named[i].arg, r.status);
        char want[1024];
        snprintf(want, sizeof(want), "%s" TU_USAGE_RUN, named[i].err);
        ck_assert_str_eq(r.err, want);
        tu_run_free(&r);
    }
    /* every integer flag of run: ' 2', '+2', '2 ' and '0x2' are refused alike, '2' taken */
    static const char *const flags[] = {"--dump-args",
                                        "--enable-chip-swimlane",
                                        "--aicpu-thread-num",
                                        "--ring-task-window",
                                        "--ring-heap",
                                        "--ring-dep-pool",
                                        "--scheduler-timeout-ms",
                                        "--op-execute-timeout-us",
                                        "--stream-sync-timeout-ms",
                                        "--enable-pmu"};
    static const char *const good[] = {"2", "2", "2", "4", "1048576", "4", "2", "2000000", "60000", "2"};
    static const char *const bad[] = {" 2", "+2", "2 ", "0x2"};
    for (size_t f = 0; f < sizeof(flags) / sizeof(*flags); f++) {
        for (size_t b = 0; b <= sizeof(bad) / sizeof(*bad); b++) {
            char arg[64];
            snprintf(arg, sizeof(arg), "%s=%s", flags[f], b < 4 ? bad[b] : good[f]);
            const char *args[] = {"run", TRACE("chain3.jsonl"), "-o", dir, arg, "--quiet", NULL};
            run_out r = tu_run(args);
            ck_assert_msg(r.status == (b < 4 ? 2 : 0), "%s: exit %d: %s", arg, r.status, r.err);
            tu_run_free(&r);
        }
    }
    /* the other commands' integers: sweep -j, tune --max-trials, gen's parameters and block table */
    const char *sweep[] = {"sweep", TRACE("chain3.jsonl"), "--ring-task-window", "4", "-j", "+1", "-o", dir,
                           NULL};
    const char *tune[] = {"tune", TRACE("chain3.jsonl"), "--max-trials", " 3", NULL};
    const char *gen_int[] = {"gen", "chain", "--n", "+5", NULL};
    const char *gen_table[] = {"gen", "paged_attention", "--batch", "1", "--context",
                               "256", "--block-table",   "0, 1",    NULL};
    const char *gen_real[] = {"gen", "fan", "--cost-ns", " 5", NULL};
    const char *const *others[] = {sweep, tune, gen_int, gen_table, gen_real};
    for (size_t i = 0; i < sizeof(others) / sizeof(*others); i++) {
        run_out r = tu_run(others[i]);
        ck_assert_msg(r.status == 2, "%s %s: exit %d: %s", others[i][0], others[i][1], r.status, r.err);
        tu_run_free(&r);
    }
}
END_TEST

/* A ring size is refused with one message whichever way it is given: as a flag of run and tune, in a
 * sweep's list, in a graph header's run_config (read by validate and by run); only the prefix says which.
 * The messages, by RunConfig's rules (model/README.md §4.1): 3 is no power of 2 >= 4, 2 is below a pool's
 * 4, 100 bytes below a heap's 1024, and 1500 bytes no power of 2 (a heap's rule wherever it is given). */
START_TEST(a_ring_size_is_refused_with_one_message_from_every_entry_point)
{
    static const struct {
        const char *flag, *key;
        const char *value, *json, *sweep; /* as a flag's value, in run_config, in a sweep's list */
        const char *msg;
    } cases[] = {
        {"--ring-task-window", "ring_task_window", "3", "3", "16,3",
         "ring_task_window must be a power of 2 >= 4, got 3"},
        {"--ring-dep-pool", "ring_dep_pool", "2", "2", "16,2",
         "ring_dep_pool must be in [4, INT32_MAX], got 2"},
        {"--ring-heap", "ring_heap", "100", "100", "1024,100",
         "ring_heap must be a power of 2 >= 1024 (bytes per ring), got 100"},
        {"--ring-heap", "ring_heap", "1500", "1500", "1024,1500",
         "ring_heap must be a power of 2 >= 1024 (bytes per ring), got 1500"},
        {"--ring-heap", "ring_heap", "0", "0", "1024,0", "ring_heap must be a power of 2 >= 1024 (bytes per ring), got 0"},
        {"--ring-heap", "ring_heap", "1024,100,0,0", "[1024, 100, 0, 0]", "1024/100/0/0",
         "ring_heap entries must be a power of 2 >= 1024 (bytes per ring) (or 0 to keep default), got 100"},
        {"--ring-task-window", "ring_task_window", "abc", "\"abc\"", "16,abc",
         "ring_task_window must be a power of 2 >= 4, got 'abc'"},
        {"--ring-dep-pool", "ring_dep_pool", "4,4", "[4, 4]", "4/4",
         "ring_dep_pool must have exactly 4 entries (one per scope-depth ring), got 2"},
        {"--ring-task-window", "ring_task_window", "4294967296", "4294967296", "16,4294967296",
         "RuntimeEnv: ring_task_window must be a power of 2 in [4, INT32_MAX]"},
    };
    const char *dir = tu_tmpdir();
    char *chain = tu_read(TRACE("chain3.jsonl"));
    char *body = strchr(chain, '\n') + 1;
    for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
        char want[1024], text[8192], out[4200];
        /* run and tune: the flag */
        const char *run[] = {"run", TRACE("chain3.jsonl"), cases[i].flag, cases[i].value, NULL};
        run_out r = tu_run(run);
        ck_assert_int_eq(r.status, 2);
        snprintf(want, sizeof(want), "ptosim: %s: %s\n" TU_USAGE_RUN, cases[i].flag, cases[i].msg);
        ck_assert_str_eq(r.err, want);
        tu_run_free(&r);
        const char *tune[] = {"tune", TRACE("chain3.jsonl"), cases[i].flag, cases[i].value, NULL};
        r = tu_run(tune);
        ck_assert_int_eq(r.status, 2);
        snprintf(want, sizeof(want), "ptosim tune: %s: %s\n" TU_USAGE_TUNE, cases[i].flag, cases[i].msg);
        ck_assert_str_eq(r.err, want);
        tu_run_free(&r);
        /* sweep: a point's value in its list, given apart or attached (--ring-heap=LIST) */
        snprintf(out, sizeof(out), "%s/sweep%zu", dir, i);
        char attached[256];
        snprintf(attached, sizeof(attached), "%s=%s", cases[i].flag, cases[i].sweep);
        const char *sweep[] = {"sweep", TRACE("chain3.jsonl"), cases[i].flag, cases[i].sweep, "-o", out,
                               NULL};
        const char *sweep_attached[] = {"sweep", TRACE("chain3.jsonl"), attached, "-o", out, NULL};
        snprintf(want, sizeof(want), "ptosim sweep: %s: %s\n" TU_USAGE_SWEEP, cases[i].flag, cases[i].msg);
        for (int k = 0; k < 2; k++) {
            r = tu_run(k ? sweep_attached : sweep);
            ck_assert_int_eq(r.status, 2);
            ck_assert_str_eq(r.err, want);
            ck_assert(!tu_exists(out));
            tu_run_free(&r);
        }
        /* a graph's run_config: validate and run read it */
        snprintf(
            text, sizeof(text),
            "{\"ptosim_graph\": 1, \"name\": \"rc\", \"run_config\": {\"%s\": %s}, \"kernels\": [{\"id\": 0, "
            "\"name\": \"vadd\", \"core\": \"aiv\", \"cost\": {\"cycles\": 18000}}], \"tensors\": "
            "[{\"name\": \"x\", \"dtype\": \"FLOAT32\", \"shape\": [16384]}]}\n%s",
            cases[i].key, cases[i].json, body);
        char *g = tu_write(dir, "rc.jsonl", text);
        snprintf(want, sizeof(want), "ptosim: %s:1: run_config.%s: %s\n", g, cases[i].key, cases[i].msg);
        const char *validate[] = {"validate", g, NULL}, *rung[] = {"run", g, NULL};
        for (int k = 0; k < 2; k++) {
            r = tu_run(k ? rung : validate);
            ck_assert_int_eq(r.status, 3);
            ck_assert_str_eq(r.err, want);
            tu_run_free(&r);
        }
        free(g);
        /* a platform's default ring size, by --set and in a platform file: one value (no list) */
        if (strchr(cases[i].value, ','))
            continue;
        char set[128];
        snprintf(set, sizeof(set), "%s=%s", cases[i].key, cases[i].value);
        const char *runset[] = {"run", TRACE("chain3.jsonl"), "--set", set, NULL};
        r = tu_run(runset);
        ck_assert_int_eq(r.status, 2);
        snprintf(want, sizeof(want), "ptosim: --set %s: %s\n" TU_USAGE_RUN, set, cases[i].msg);
        ck_assert_str_eq(r.err, want);
        tu_run_free(&r);
        if (cases[i].json[0] == '"')
            continue; /* a platform file's value is a number or refused as no number */
        snprintf(text, sizeof(text),
                 "{\"ptosim_platform\": 1, \"name\": \"p\", \"base\": \"a2a3\", \"params\": {\"%s\": %s}}\n",
                 cases[i].key, cases[i].json);
        char *pf = tu_write(dir, "p.json", text);
        const char *runp[] = {"run", TRACE("chain3.jsonl"), "-p", pf, NULL};
        r = tu_run(runp);
        ck_assert_int_eq(r.status, 2);
        /* the value's column: after the 64 bytes up to and with "params": {", the key in its quotes' first
         * and ": " (3 bytes more), counted from 1 */
        snprintf(want, sizeof(want), "ptosim: %s:1:%zu: params.%s: %s\n" TU_USAGE_RUN, pf,
                 (size_t)64 + strlen(cases[i].key) + 3 + 1, cases[i].key, cases[i].msg);
        ck_assert_str_eq(r.err, want);
        tu_run_free(&r);
        free(pf);
    }
    free(chain);
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

/* Calls runcfg_env_retired with only the variables of names (NULL-ended) set
 * to value; returns what it wrote (static) and its count in n. */
static const char *env_retired(const char *const *names, const char *value, int *n)
{
    static char buf[1024];
    static const char *const all[] = {"PTO2_RING_TASK_WINDOW", "PTO2_RING_HEAP", "PTO2_RING_DEP_POOL"};
    for (int k = 0; k < 3; k++)
        unsetenv(all[k]);
    for (int i = 0; names[i]; i++)
        setenv(names[i], value, 1);
    FILE *f = tmpfile();
    ck_assert(f != NULL);
    *n = runcfg_env_retired(f, "w: ");
    long len = ftell(f);
    ck_assert(len >= 0 && (size_t)len < sizeof(buf));
    rewind(f);
    buf[fread(buf, 1, (size_t)len, f)] = '\0';
    fclose(f);
    for (int i = 0; names[i]; i++)
        unsetenv(names[i]);
    return buf;
}

START_TEST(retired_ring_variables_draw_one_warning_each_naming_the_knob_and_flag)
{
    /* the user's RunConfig documentation retires PTO2_RING_* (model/README.md §4.1): any value, even
     * an empty or a malformed one, is one line naming the knob and the flag, in knob order */
    int n = -1;
    static const char *const none[] = {NULL};
    ck_assert_str_eq(env_retired(none, "", &n), "");
    ck_assert_int_eq(n, 0);
    static const char *const heap[] = {"PTO2_RING_HEAP", NULL};
    ck_assert_str_eq(env_retired(heap, "64", &n),
                     "w: PTO2_RING_HEAP is retired and not read; use RunConfig ring_heap (--ring-heap)\n");
    ck_assert_int_eq(n, 1);
    static const char *const all[] = {"PTO2_RING_DEP_POOL", "PTO2_RING_TASK_WINDOW", "PTO2_RING_HEAP", NULL};
    ck_assert_str_eq(env_retired(all, "", &n),
                     "w: PTO2_RING_TASK_WINDOW is retired and not read; use RunConfig ring_task_window "
                     "(--ring-task-window)\n"
                     "w: PTO2_RING_HEAP is retired and not read; use RunConfig ring_heap (--ring-heap)\n"
                     "w: PTO2_RING_DEP_POOL is retired and not read; use RunConfig ring_dep_pool "
                     "(--ring-dep-pool)\n");
    ck_assert_int_eq(n, 3);
    /* no stream: nothing written, still counted */
    setenv("PTO2_RING_DEP_POOL", "4", 1);
    ck_assert_int_eq(runcfg_env_retired(NULL, NULL), 1);
    unsetenv("PTO2_RING_DEP_POOL");
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
    /* the runtime falls back to 2 on an invalid type; ptosim's command line refuses it (exit 2) */
    static const char *const bad[] = {"9", "3", "-1", "99999999999999999999"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
        char want[160];
        ck_assert_int_eq(runcfg_pmu_type(1, bad[i], NULL, &t, warn, sizeof(warn), err, sizeof(err)), -1);
        snprintf(want, sizeof(want), "--enable-pmu: must be 0 (off) or an event type 1, 2 or 4-8, got %s",
                 bad[i]);
        ck_assert_str_eq(err, want);
    }
    ck_assert_int_eq(runcfg_pmu_type(1, "0", NULL, &t, warn, sizeof(warn), err, sizeof(err)), 0);
    ck_assert_int_eq(t, 0); /* explicitly off */
    ck_assert_int_eq(runcfg_pmu_type(1, "pipe", NULL, &t, warn, sizeof(warn), err, sizeof(err)), -1);
    ck_assert_str_eq(err, "--enable-pmu: 'pipe' is not an integer event type");
}
END_TEST

/* --enable-pmu=3 (no such event group) warned, ran with 2 and exited 0; run and sweep now refuse it before
 * anything runs, as a bad command line (exit 2), and write nothing. */
START_TEST(a_pmu_event_type_out_of_range_is_a_bad_command_line)
{
    const char *dir = tu_tmpdir();
    char out[4200];
    snprintf(out, sizeof(out), "%s/o", dir);
    const char *run[] = {"run", TRACE("chain3.jsonl"), "--enable-pmu=3", "-o", out, NULL};
    run_out r = tu_run(run);
    ck_assert_int_eq(r.status, 2);
    ck_assert_str_eq(r.err,
                     "ptosim: --enable-pmu: must be 0 (off) or an event type 1, 2 or 4-8, got 3\n" TU_USAGE_RUN);
    ck_assert(!tu_exists(out));
    tu_run_free(&r);
    const char *sweep[] = {"sweep", TRACE("chain3.jsonl"), "--ring-heap", "65536,131072", "--enable-pmu=9",
                           "-o", out, NULL};
    r = tu_run(sweep);
    ck_assert_int_eq(r.status, 2);
    ck_assert_ptr_nonnull(
        strstr(r.err, "ptosim sweep: --enable-pmu: must be 0 (off) or an event type 1, 2 or 4-8, got 9"));
    ck_assert(!tu_exists(out));
    tu_run_free(&r);
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
    tcase_set_timeout(tc,
                      60); /* every_integer_flag_takes_the_same_text starts 55 processes (slow under ASan) */
    tcase_add_test(tc, scalars_broadcast_and_lists_keep_zero_as_default);
    tcase_add_test(tc, task_window_messages);
    tcase_add_test(tc, heap_messages_reject_64_bytes);
    tcase_add_test(tc, dep_pool_messages);
    tcase_add_test(tc, a_ring_size_is_refused_with_one_message_from_every_entry_point);
    tcase_add_test(tc, thread_count_is_auto_or_two_to_four);
    tcase_add_test(tc, one_strict_integer_reader_refuses_blanks_plus_signs_and_wrapping);
    tcase_add_test(tc, every_integer_flag_takes_the_same_text);
    tcase_add_test(tc, retired_ring_variables_draw_one_warning_each_naming_the_knob_and_flag);
    tcase_add_test(tc, pmu_event_type_resolution_and_messages);
    tcase_add_test(tc, a_pmu_event_type_out_of_range_is_a_bad_command_line);
    tcase_add_test(tc, timeout_flag_wins_over_environment);
    suite_add_tcase(s, tc);
    return s;
}
