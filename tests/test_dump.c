/* test_dump.c - args dump: the manifest and payload bytes, level selection, capture points. */
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "../model/record/args_dump.h"
#include "testutil.h"

/* model/README.md §16.5: one AIV add of two 4-element FLOAT32 tensors and a float scalar. */
#define ADD_GRAPH                                                                                            \
    "{\"ptosim_graph\": 1, \"name\": \"add\", \"kernels\": [{\"id\": 0, \"name\": \"add\", \"core\": "       \
    "\"aiv\", "                                                                                              \
    "\"cost\": {\"cycles\": 1800}}], \"tensors\": [{\"name\": \"x\", \"dtype\": \"FLOAT32\", \"shape\": "    \
    "[4], "                                                                                                  \
    "\"data\": [1, 2, 3, 4]}, {\"name\": \"y\", \"dtype\": \"FLOAT32\", \"shape\": [4], \"data\": [10, 20, " \
    "30, "                                                                                                   \
    "40]}]}\n{\"op\": \"submit\", \"kernel\": \"add\"%s, \"args\": [{\"dir\": \"in\", \"tensor\": "          \
    "\"x\"%s}, "                                                                                             \
    "{\"dir\": \"in\", \"tensor\": \"y\"}, {\"dir\": \"out\", \"tensor\": \"z\", \"dtype\": \"FLOAT32\", "   \
    "\"shape\": [4], \"data\": [12, 23, 34, 45]}, {\"scalar\": 1.0, \"dtype\": \"FLOAT32\"}]}\n"

static const char SPEC_MANIFEST[] =
    "{\n"
    "  \"run_dir\": \"args_dump\",\n"
    "  \"bin_format\": {\"type\": \"logical_contiguous\", \"byte_order\": \"little_endian\"},\n"
    "  \"dump_args_level\": 2,\n"
    "  \"total_args\": 4,\n"
    "  \"before_dispatch\": 3,\n"
    "  \"after_completion\": 1,\n"
    "  \"input_args\": 3,\n"
    "  \"output_args\": 1,\n"
    "  \"inout_args\": 0,\n"
    "  \"truncated_args\": 0,\n"
    "  \"dropped_records\": 0,\n"
    "  \"dropped_overwrite\": 0,\n"
    "  \"bin_file\": \"args.bin\",\n"
    "  \"args\": [\n"
    "    {\"task_id\": \"0x0000000000000000\", \"func_id\": [0], \"arg_index\": 0, \"role\": \"input\", "
    "\"stage\": "
    "\"before_dispatch\", \"kind\": \"tensor\", \"dtype\": \"FLOAT32\", \"is_contiguous\": true, \"shape\": "
    "[4], "
    "\"strides\": [1], \"start_offset\": 0, \"numel\": 4, \"bin_offset\": 0, \"bin_size\": 16, "
    "\"truncated\": false, "
    "\"overwritten\": false},\n"
    "    {\"task_id\": \"0x0000000000000000\", \"func_id\": [0], \"arg_index\": 1, \"role\": \"input\", "
    "\"stage\": "
    "\"before_dispatch\", \"kind\": \"tensor\", \"dtype\": \"FLOAT32\", \"is_contiguous\": true, \"shape\": "
    "[4], "
    "\"strides\": [1], \"start_offset\": 0, \"numel\": 4, \"bin_offset\": 16, \"bin_size\": 16, "
    "\"truncated\": false, "
    "\"overwritten\": false},\n"
    "    {\"task_id\": \"0x0000000000000000\", \"func_id\": [0], \"arg_index\": 3, \"role\": \"input\", "
    "\"stage\": "
    "\"before_dispatch\", \"kind\": \"scalar\", \"dtype\": \"FLOAT32\", \"value\": 1.0, \"is_contiguous\": "
    "true, "
    "\"shape\": [], \"strides\": [], \"start_offset\": 0, \"numel\": 1, \"bin_offset\": 0, \"bin_size\": 0, "
    "\"truncated\": false, \"overwritten\": false},\n"
    "    {\"task_id\": \"0x0000000000000000\", \"func_id\": [0], \"arg_index\": 2, \"role\": \"output\", "
    "\"stage\": "
    "\"after_completion\", \"kind\": \"tensor\", \"dtype\": \"FLOAT32\", \"is_contiguous\": true, \"shape\": "
    "[4], "
    "\"strides\": [1], \"start_offset\": 0, \"numel\": 4, \"bin_offset\": 32, \"bin_size\": 16, "
    "\"truncated\": false, "
    "\"overwritten\": false}\n"
    "  ]\n"
    "}\n";

static char last_err[4096]; /* run_add's stderr */

/* Runs the add graph (task_tag / x_tag spliced into the submit and x's arg) at a dump level; returns the work
 * dir. */
static const char *run_add(const char *level, const char *task_tag, const char *x_tag)
{
    const char *dir = tu_tmpdir();
    char text[4096];
    snprintf(text, sizeof(text), ADD_GRAPH, task_tag, x_tag);
    char *g = tu_write(dir, "add.jsonl", text);
    char flag[32];
    snprintf(flag, sizeof(flag), "--dump-args=%s", level);
    const char *args[] = {"run", g, "-o", dir, flag, "--quiet", NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    snprintf(last_err, sizeof(last_err), "%s", r.err);
    tu_run_free(&r);
    free(g);
    return dir;
}

/* What a level-1 dump with nothing tagged says: the runtime's host line, then how to tag. */
#define UNTAGGED_NOTE                                                                                        \
    "ptosim: [host] No args dump data to export\nptosim: note: --dump-args=1 dumps only the arguments a "      \
    "graph tags with \"dump\": true (a tensor or scalar argument's field, docs/reference/graph-format.md), "  \
    "and none ran; --dump-args=2 dumps every argument\n"

static char *file_in(const char *dir, const char *rel, size_t *len)
{
    char p[4200];
    snprintf(p, sizeof(p), "%s/dfx_outputs/args_dump/%s", dir, rel);
    FILE *f = fopen(p, "rb");
    if (!f)
        return NULL;
    char *buf = malloc(1 << 16);
    *len = fread(buf, 1, 1 << 16, f);
    fclose(f);
    return buf;
}

START_TEST(the_spec_example_is_reproduced_byte_for_byte)
{
    const char *dir = run_add("2", "", "");
    size_t n;
    char *m = file_in(dir, "args_dump.json", &n);
    ck_assert_ptr_nonnull(m);
    m[n] = '\0';
    ck_assert_str_eq(m, SPEC_MANIFEST);
    free(m);
    /* 48 bytes: little-endian f32 1,2,3,4 then 10,20,30,40 then 12,23,34,45 */
    char *bin = file_in(dir, "args.bin", &n);
    ck_assert_uint_eq(n, 48);
    float want[12] = {1, 2, 3, 4, 10, 20, 30, 40, 12, 23, 34, 45};
    ck_assert(memcmp(bin, want, sizeof(want)) == 0);
    free(bin);
}
END_TEST

START_TEST(a_manifest_that_cannot_be_written_whole_leaves_no_file)
{
    /* the file may not grow past 64 bytes: the manifest (its head alone is ~400) is refused by name,
     * and neither it nor its temporary file is left */
    argsdump d;
    ck_assert_int_eq(argsdump_init(&d, 2, DUMP_PAYLOAD_SPARSE, 0), 0);
    char path[4200], tmp[4300], err[4096], want[4400];
    snprintf(path, sizeof(path), "%s/args_dump.json", tu_tmpdir());
    snprintf(tmp, sizeof(tmp), "%s.tmp", path);
    struct rlimit old, small;
    getrlimit(RLIMIT_FSIZE, &old);
    small = old;
    small.rlim_cur = 64;
    signal(SIGXFSZ, SIG_IGN);
    setrlimit(RLIMIT_FSIZE, &small);
    int rc = argsdump_write_manifest(&d, path, false, err, sizeof(err));
    setrlimit(RLIMIT_FSIZE, &old);
    ck_assert_int_eq(rc, -1);
    snprintf(want, sizeof(want), "%s: write failed: File too large", path);
    ck_assert_str_eq(err, want);
    ck_assert(!tu_exists(path));
    ck_assert(!tu_exists(tmp));
    argsdump_free(&d);
}
END_TEST

START_TEST(level_one_without_a_tag_writes_nothing)
{
    const char *dir = run_add("1", "", "");
    char p[4200];
    snprintf(p, sizeof(p), "%s/dfx_outputs/args_dump", dir);
    struct stat st;
    ck_assert_int_ne(stat(p, &st), 0);
    ck_assert_msg(strstr(last_err, UNTAGGED_NOTE), "%s", last_err);
}
END_TEST

START_TEST(level_one_dumps_only_the_tagged_argument)
{
    const char *dir = run_add("1", "", ", \"dump\": true");
    size_t n;
    char *m = file_in(dir, "args_dump.json", &n);
    m[n] = '\0';
    ck_assert_ptr_nonnull(strstr(m, "\"dump_args_level\": 1,\n  \"total_args\": 1,\n"));
    ck_assert_ptr_nonnull(strstr(m, "\"arg_index\": 0, \"role\": \"input\""));
    ck_assert_ptr_nonnull(strstr(m, "\"bin_offset\": 0, \"bin_size\": 16"));
    free(m);
    char *bin = file_in(dir, "args.bin", &n);
    ck_assert_uint_eq(n, 16);
    float want[4] = {1, 2, 3, 4};
    ck_assert(memcmp(bin, want, sizeof(want)) == 0);
    free(bin);
    /* a tagged task dumps all of its args, like level 2 */
    dir = run_add("1", ", \"dump\": true", "");
    m = file_in(dir, "args_dump.json", &n);
    m[n] = '\0';
    ck_assert_ptr_nonnull(strstr(m, "\"total_args\": 4,"));
    free(m);
    ck_assert_msg(!strstr(last_err, "No args dump data") && !strstr(last_err, "--dump-args=1 dumps only"), "%s",
                  last_err);
}
END_TEST

START_TEST(level_three_lists_every_arg_with_payload_only_where_tagged)
{
    const char *dir = run_add("3", "", ", \"dump\": true");
    size_t n;
    char *m = file_in(dir, "args_dump.json", &n);
    m[n] = '\0';
    ck_assert_ptr_nonnull(strstr(m, "\"dump_args_level\": 3,\n  \"total_args\": 4,\n"));
    /* x (tagged) has its 16 bytes; y and z are metadata only */
    ck_assert_ptr_nonnull(
        strstr(m, "\"arg_index\": 0, \"role\": \"input\", \"stage\": \"before_dispatch\", \"kind\": "
                  "\"tensor\", \"dtype\": \"FLOAT32\", \"is_contiguous\": true, \"shape\": [4], "
                  "\"strides\": [1], \"start_offset\": 0, \"numel\": 4, \"bin_offset\": 0, "
                  "\"bin_size\": 16"));
    ck_assert_ptr_nonnull(
        strstr(m, "\"arg_index\": 1, \"role\": \"input\", \"stage\": \"before_dispatch\", \"kind\": "
                  "\"tensor\", \"dtype\": \"FLOAT32\", \"is_contiguous\": true, \"shape\": [4], "
                  "\"strides\": [1], \"start_offset\": 0, \"numel\": 4, \"bin_offset\": 0, "
                  "\"bin_size\": 0"));
    ck_assert_ptr_nonnull(strstr(m, "\"bin_file\": \"args.bin\""));
    free(m);
    /* no tag at all: metadata for everything, no args.bin, bin_file null */
    dir = run_add("3", "", "");
    m = file_in(dir, "args_dump.json", &n);
    m[n] = '\0';
    ck_assert_ptr_nonnull(strstr(m, "\"total_args\": 4,"));
    ck_assert_ptr_nonnull(strstr(m, "\"bin_file\": null,"));
    free(m);
    ck_assert_ptr_null(file_in(dir, "args.bin", &n));
}
END_TEST

START_TEST(dump_level_errors_are_clear)
{
    const char *args[] = {"run", TRACE("chain3.jsonl"), "-o", tu_tmpdir(), "--dump-args=4", NULL};
    run_out r = tu_run(args);
    ck_assert_int_eq(r.status, 2);
    ck_assert_str_eq(r.err,
                     "ptosim: --dump-args: enable_dump_args must be a level in [0, 3] (0=off, 1=tagged args, "
                     "2=every arg, 3=every arg's metadata with tagged payload), got 4\n" TU_USAGE_RUN);
    tu_run_free(&r);
    const char *noprefix[] = {"run", TRACE("chain3.jsonl"), "--dump-args", NULL};
    r = tu_run(noprefix);
    ck_assert_int_eq(r.status, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "CallConfig: output_prefix must be set"));
    tu_run_free(&r);
}
END_TEST

START_TEST(data_errors_name_the_field)
{
    const char *dir = tu_tmpdir();
    char *g = tu_write(
        dir, "d.jsonl",
        "{\"ptosim_graph\": 1, \"name\": \"d\", \"kernels\": [{\"id\": 0, \"name\": \"k\", \"core\": "
        "\"aiv\", \"cost\": {\"ns\": 1}}], \"tensors\": [{\"name\": \"x\", \"dtype\": \"FLOAT32\", "
        "\"shape\": [2], \"data\": [1, 2, 3]}]}\n");
    const char *args[] = {"validate", g, NULL};
    run_out r = tu_run(args);
    ck_assert_int_eq(r.status, 3);
    ck_assert_ptr_nonnull(
        strstr(r.err, "d.jsonl:1: tensors[0].data: more values (3) than the tensor has elements (2)"));
    tu_run_free(&r);
    free(g);
    g = tu_write(
        dir, "e.jsonl",
        "{\"ptosim_graph\": 1, \"name\": \"e\", \"kernels\": [{\"id\": 0, \"name\": \"k\", \"core\": "
        "\"aiv\", \"cost\": {\"ns\": 1}}], \"tensors\": [{\"name\": \"x\", \"dtype\": \"FLOAT32\", "
        "\"shape\": [2]}]}\n{\"op\": \"submit\", \"kernel\": \"k\", \"args\": [{\"dir\": \"in\", \"tensor\": "
        "\"x\", \"data\": [1, 2]}]}\n{\"op\": \"submit\", \"kernel\": \"k\", \"args\": [{\"dir\": \"out\", "
        "\"tensor\": \"y\", \"dtype\": \"FLOAT32\", \"shape\": [3], \"data\": [1]}]}\n");
    const char *args2[] = {"validate", g, NULL};
    r = tu_run(args2);
    ck_assert_ptr_nonnull(
        strstr(r.err, "e.jsonl:2: args[0].data: only outputs (out, inout, out_existing) give data"));
    tu_run_free(&r);
    free(g);
}
END_TEST

/* 8 AIV tasks, each reading a 256 KiB row of x and writing a 256 KiB y: a full dump of 16 x 256 KiB = 4 MiB.
 */
static char *bp8_graph(const char *dir)
{
    char text[8192];
    int n = snprintf(
        text, sizeof(text),
        "{\"ptosim_graph\": 1, \"name\": \"bp8\", \"kernels\": [{\"id\": 0, \"name\": \"k\", \"core\": "
        "\"aiv\", \"cost\": {\"ns\": 10000}}], \"tensors\": [{\"name\": \"x\", \"dtype\": \"FLOAT16\", "
        "\"shape\": [8, 131072]}]}\n{\"op\": \"scope_begin\"}\n");
    for (int i = 0; i < 8; i++)
        n += snprintf(
            text + n, sizeof(text) - (size_t)n,
            "{\"op\": \"submit\", \"kernel\": \"k\", \"args\": [{\"dir\": \"in\", \"tensor\": \"x\", "
            "\"shape\": [1, 131072], \"offset\": [%d, 0]}, {\"dir\": \"out\", \"tensor\": \"y%d\", "
            "\"dtype\": \"FLOAT16\", \"shape\": [131072]}]}\n",
            i, i);
    snprintf(text + n, sizeof(text) - (size_t)n, "{\"op\": \"scope_end\"}\n");
    return tu_write(dir, "bp8.jsonl", text);
}

START_TEST(back_pressure_stretches_the_run_to_the_drain_deficit)
{
    /* one scheduler thread, a 1 MiB arena, a 1 MB/s host drain, D = 4 MiB
     * dumped in 256 KiB payloads: every fourth payload fills the arena, and
     * the fifth waits until the host has written all four (1 MiB at 1 MB/s
     * = 1.048576 s). Three such waits: the run takes (D - A) / R =
     * 3 MiB / 1 MB/s = 3.145728 s plus its (microsecond) compute; the last
     * 1 MiB is written after the device is done. */
    const char *dir = tu_tmpdir();
    char *g = bp8_graph(dir);
    const char *args[] = {"run",
                          g,
                          "-o",
                          dir,
                          "--dump-args=2",
                          "--aicpu-thread-num",
                          "2",
                          "--set",
                          "dump_arena_bytes=1048576",
                          "--set",
                          "host_collector_bw=1000000",
                          "--quiet",
                          NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    char p[4200];
    snprintf(p, sizeof(p), "%s/ptosim_run.json", dir);
    cJSON *j = tu_json_file(p);
    double makespan = cJSON_GetObjectItem(j, "makespan_us")->valuedouble;
    ck_assert_msg(makespan >= 3145728.0 && makespan < 3145728.0 + 1000, "makespan %.3f us", makespan);
    const cJSON *d = cJSON_GetObjectItem(j, "args_dump");
    ck_assert(cJSON_GetObjectItem(d, "payload_bytes")->valuedouble == 4194304);
    ck_assert(cJSON_GetObjectItem(d, "written_bytes_at_device_end")->valuedouble == 3145728);
    ck_assert(cJSON_GetObjectItem(d, "drain_deficit_bytes")->valuedouble == 1048576);
    const cJSON *t0 = cJSON_GetArrayItem(cJSON_GetObjectItem(d, "threads"), 0);
    ck_assert_int_eq(cJSON_GetObjectItem(t0, "parks")->valueint, 3);
    double parked = cJSON_GetObjectItem(t0, "parked_us")->valuedouble;
    ck_assert_msg(parked >= 3145728.0 && parked < 3145728.0 + 1000, "parked %.3f us", parked);
    /* the host writes the last arena after the device: 1.048576 s more */
    double done = cJSON_GetObjectItem(d, "host_done_us")->valuedouble;
    ck_assert_double_eq_tol(done, makespan + 1048576.0, 100);
    cJSON_Delete(j);
    /* the payloads are all in args.bin, holes and all */
    snprintf(p, sizeof(p), "%s/dfx_outputs/args_dump/args.bin", dir);
    struct stat st;
    ck_assert_int_eq(stat(p, &st), 0);
    ck_assert_int_eq(st.st_size, 4194304);
    tu_run_free(&r);
    free(g);
}
END_TEST

/* A chain of n one-second AIV tasks (progress every second: the scheduler timeout never fires). */
static char *chain_graph(const char *dir, int n)
{
    size_t cap = 256 + (size_t)n * 96;
    char *out = malloc(cap);
    int o = snprintf(
        out, cap,
        "{\"ptosim_graph\": 1, \"name\": \"secs\", \"kernels\": [{\"id\": 0, \"name\": \"sec\", \"core\": "
        "\"aiv\", \"cost\": {\"ns\": 1000000000}}]}\n{\"op\": \"submit\", \"id\": \"t0\", \"kernel\": "
        "\"sec\"}\n");
    for (int i = 1; i < n; i++)
        o += snprintf(out + o, cap - (size_t)o,
                      "{\"op\": \"submit\", \"id\": \"t%d\", \"kernel\": \"sec\", \"deps\": [\"t%d\"]}\n", i,
                      i - 1);
    char *g = tu_write(dir, "secs.jsonl", out);
    free(out);
    return g;
}

static cJSON *report_of(const char *dir)
{
    char p[4200];
    snprintf(p, sizeof(p), "%s/ptosim_run.json", dir);
    return tu_json_file(p);
}

START_TEST(stars_kills_at_the_credit_deadline_and_outputs_survive)
{
    /* 45 s requested = ceil(45 / 4.294967296) = 11 credits = 47.244640256 s:
     * a 60 s chain is reaped then, not at 45 s; the host sees 507018 */
    const char *dir = tu_tmpdir();
    char *g = chain_graph(dir, 60);
    const char *args[] = {"run",     g,   "-o", dir, "--enable-chip-swimlane", "--enable-scope-stats",
                          "--quiet", NULL};
    run_out r = tu_run(args);
    ck_assert_int_eq(r.status, 5);
    /* the runtime's host lines, unprefixed, as the first lines */
    ck_assert_msg(tu_starts(r.err,
                            "aclrtSynchronizeStreamWithTimeout (AICPU) failed: 507018\n"
                            "ACL error detail: 507018 ACL_ERROR_RT_AICPU_EXCEPTION - an AICPU task raised an "
                            "exception; several distinct on-device mechanisms all surface as this one "
                            "generic code\n"),
                  "%s", r.err);
    cJSON *j = report_of(dir);
    ck_assert(cJSON_GetObjectItem(j, "makespan_us")->valuedouble == 47244640.256);
    const cJSON *o = cJSON_GetObjectItem(j, "outcome");
    ck_assert_str_eq(cJSON_GetObjectItem(o, "status")->valuestring, "device_error");
    const cJSON *de = cJSON_GetObjectItem(o, "device_error");
    ck_assert_int_eq(cJSON_GetObjectItem(de, "code")->valueint, 507018);
    ck_assert_str_eq(cJSON_GetObjectItem(de, "watchdog")->valuestring, "stars_op_execute");
    ck_assert_int_eq(cJSON_GetObjectItem(de, "stars_credits")->valueint, 11);
    /* 47 tasks finished before the kill; the collected outputs are still written */
    ck_assert_int_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "tasks"), "completed")->valueint, 47);
    /* the 47th ended about 0.24 s before the kill, well within the scheduler's 10 s: a slow run, which
     * silicon kills too (the watchdog bounds the whole graph); the line names the knob */
    const char *slow = strstr(r.err, "ptosim: not a hang: a task completed 2");
    ck_assert_msg(slow, "%s", r.err);
    ck_assert_msg(strstr(slow, " us before the kill; the op-execute timeout bounds the whole graph (one AICPU "
                               "launch), so silicon kills it too: raise --op-execute-timeout-us (and "
                               "--stream-sync-timeout-ms above it)\n"),
                  "%s", r.err);
    ck_assert_ptr_null(strstr(r.err, "not proof of a deadlock"));
    cJSON_Delete(j);
    char p[4200];
    snprintf(p, sizeof(p), "%s/dfx_outputs/chip_swimlane_records.json", dir);
    ck_assert(tu_exists(p));
    snprintf(p, sizeof(p), "%s/dfx_outputs/scope_stats/scope_stats.jsonl", dir);
    char *ss = tu_read(p);
    ck_assert(strncmp(ss, "{\"version\": 6, \"fatal\": true,", 29) == 0);
    free(ss);
    tu_run_free(&r);
    free(g);
}
END_TEST

START_TEST(a_run_inside_the_credit_rounding_is_not_killed)
{
    /* 8 s requested is 2 credits = 8.589934592 s: an 8.0001 s chain finishes.
     * With an exact watchdog (stars_credit_us=0) the same run dies at 8 s. */
    const char *dir = tu_tmpdir();
    char *g = chain_graph(dir, 8);
    const char *ok[] = {"run",
                        g,
                        "-o",
                        dir,
                        "--op-execute-timeout-us",
                        "8000000",
                        "--scheduler-timeout-ms",
                        "5000",
                        "--stream-sync-timeout-ms",
                        "20000",
                        "--quiet",
                        NULL};
    run_out r = tu_run(ok);
    ck_assert_msg(r.status == 0, "%s", r.err);
    cJSON *j = report_of(dir);
    double m = cJSON_GetObjectItem(j, "makespan_us")->valuedouble;
    ck_assert(m > 8000000.0 && m < 8589934.592);
    cJSON_Delete(j);
    tu_run_free(&r);
    const char *exact[] = {"run",
                           g,
                           "-o",
                           dir,
                           "--op-execute-timeout-us",
                           "8000000",
                           "--scheduler-timeout-ms",
                           "5000",
                           "--stream-sync-timeout-ms",
                           "20000",
                           "--set",
                           "stars_credit_us=0",
                           "--quiet",
                           NULL};
    r = tu_run(exact);
    ck_assert_int_eq(r.status, 5);
    j = report_of(dir);
    ck_assert(cJSON_GetObjectItem(j, "makespan_us")->valuedouble == 8000000.0);
    cJSON_Delete(j);
    tu_run_free(&r);
    free(g);
}
END_TEST

START_TEST(the_scheduler_timeout_fires_first_on_a_hang_and_stars_on_a_slow_run)
{
    /* a kernel that never ends: its owner sees no progress for 10 s and
     * latches code 100 long before STARS at 47.2 s */
    const char *dir = tu_tmpdir();
    char *g =
        tu_write(dir, "hang.jsonl",
                 "{\"ptosim_graph\": 1, \"name\": \"hang\", \"kernels\": [{\"id\": 0, \"name\": \"spin\", "
                 "\"core\": \"aiv\", \"cost\": {\"ns\": 1000000000000}}]}\n{\"op\": \"submit\", \"kernel\": "
                 "\"spin\"}\n");
    const char *args[] = {"run", g, "-o", dir, "--quiet", NULL};
    run_out r = tu_run(args);
    ck_assert_int_eq(r.status, 4);
    ck_assert_msg(tu_starts(r.err, TU_SCHED_FAILED(100)), "%s", r.err);
    cJSON *j = report_of(dir);
    double m = cJSON_GetObjectItem(j, "makespan_us")->valuedouble;
    ck_assert(m > 10e6 && m < 10.01e6);
    cJSON_Delete(j);
    tu_run_free(&r);
    free(g);
    /* a chain that keeps completing a task every second never trips it:
     * STARS reaps it (the test above); and on a sim platform nothing does */
    g = chain_graph(dir, 50);
    const char *sim[] = {"run", g, "-o", dir, "-p", "a2a3sim", "--quiet", NULL};
    r = tu_run(sim);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    free(g);
}
END_TEST

START_TEST(misordered_timeouts_are_ignored_with_a_warning)
{
    /* 3 s op-execute below the 10 s scheduler timeout breaks the ordering */
    const char *dir = tu_tmpdir();
    char *g = chain_graph(dir, 1);
    const char *args[] = {"run", g, "-o", dir, "--op-execute-timeout-us", "3000000", "--quiet", NULL};
    run_out r = tu_run(args);
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(
        r.err, "ptosim: warning: timeouts scheduler 10000 ms, op-execute 3000000 us, stream-sync 50000 ms "
               "break the ordering scheduler < op-execute < stream-sync (and stream-sync > scheduler + "
               "1.5 s); ignored, using the defaults 10000 ms / 45000000 us / 50000 ms\n");
    tu_run_free(&r);
    /* the CI values are ordered: the host's 4 s stream sync gives up before
     * the one-credit (4.295 s) STARS deadline */
    char *g60 = chain_graph(dir, 60);
    const char *ci[] = {"run",
                        g60,
                        "-o",
                        dir,
                        "--op-execute-timeout-us",
                        "3000000",
                        "--scheduler-timeout-ms",
                        "2000",
                        "--stream-sync-timeout-ms",
                        "4000",
                        "--quiet",
                        NULL};
    r = tu_run(ci);
    ck_assert_int_eq(r.status, 5);
    ck_assert_msg(tu_starts(r.err,
                            "Stream sync timeout: stream=AICPU timeout_ms=4000 device_id=0 block_dim=24\n"
                            "ACL error detail: 507046 ACL_ERROR_RT_STREAM_SYNC_TIMEOUT - "),
                  "%s", r.err);
    tu_run_free(&r);
    free(g);
    free(g60);
}
END_TEST

START_TEST(the_shipped_dump_stall_scenario)
{
    /* traces/dump_stall.jsonl: a full dump is reaped by STARS at the 11-credit
     * deadline while the scheduler threads are parked; by then the host has
     * drained about R x T = 42 MB/s x 47.24 s = 1.984 GB (whole payloads of
     * 64 MiB, so up to one less) */
    const char *dir = tu_tmpdir();
    const char *full[] = {"run", TRACE("dump_stall.jsonl"), "-o", dir, "--dump-args=2", "--quiet", NULL};
    run_out r = tu_run(full);
    ck_assert_int_eq(r.status, 5);
    cJSON *j = report_of(dir);
    ck_assert(cJSON_GetObjectItem(j, "makespan_us")->valuedouble == 47244640.256);
    const cJSON *d = cJSON_GetObjectItem(j, "args_dump");
    double written = cJSON_GetObjectItem(d, "written_bytes_at_device_end")->valuedouble;
    double rt = 42e6 * 47.244640256;
    ck_assert_msg(written <= rt && written > rt - 67108864.0, "written %.0f", written);
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(d, "killed_while_parked")));
    ck_assert(cJSON_GetObjectItem(d, "frozen_us")->valuedouble > 0.9 * 47244640.256);
    ck_assert_int_eq(cJSON_GetObjectItem(d, "reconciled_threads")->valueint, 2);
    cJSON_Delete(j);
    ck_assert_ptr_nonnull(strstr(r.err, "Dump reconcile: thread 1 had an un-flushed buffer"));
    char p[4200];
    snprintf(p, sizeof(p), "%s/dfx_outputs/args_dump/args_dump.json", dir);
    ck_assert(tu_exists(p)); /* a partial dump survives the kill */
    tu_run_free(&r);
    /* the cure: level 1 with two small tagged tensors stays within 1 % of a run without dump */
    const char *off[] = {"run", TRACE("dump_stall.jsonl"), "-o", dir, "--quiet", NULL};
    r = tu_run(off);
    ck_assert_int_eq(r.status, 0);
    j = report_of(dir);
    double base = cJSON_GetObjectItem(j, "makespan_us")->valuedouble;
    cJSON_Delete(j);
    tu_run_free(&r);
    const char *tagged[] = {"run", TRACE("dump_stall.jsonl"), "-o", dir, "--dump-args=1", "--quiet", NULL};
    r = tu_run(tagged);
    ck_assert_msg(r.status == 0, "%s", r.err);
    j = report_of(dir);
    double one = cJSON_GetObjectItem(j, "makespan_us")->valuedouble;
    ck_assert(one >= base && one < base * 1.01);
    /* 64 batches: context_lens (256 B) on each first QK, out (2 KiB view) on each last update */
    ck_assert_int_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "args_dump"), "tasks")->valueint, 128);
    cJSON_Delete(j);
    tu_run_free(&r);
}
END_TEST

START_TEST(a_park_past_the_backstop_drops_records)
{
    /* one thread, 1 MiB arena (four 256 KiB payloads), a 20 kB/s host: the
     * fifth payload waits for 52.4 s of drain, so after 30 s it is dropped;
     * the sixth waits out the rest and the arena restarts. Every fifth
     * payload of the 16 is lost: p5, p10, p15. (a2a3sim: no STARS.) */
    const char *dir = tu_tmpdir();
    char *g = bp8_graph(dir);
    const char *args[] = {"run",
                          g,
                          "-o",
                          dir,
                          "-p",
                          "a2a3sim",
                          "--dump-args=2",
                          "--aicpu-thread-num",
                          "2",
                          "--set",
                          "dump_arena_bytes=1048576",
                          "--set",
                          "host_collector_bw=20000",
                          "--quiet",
                          NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_ptr_nonnull(strstr(r.err, "Dump reconcile: 3 records dropped on device side."));
    ck_assert_ptr_nonnull(strstr(r.err, "Args dump anomalies: truncated=0, dropped_records=3\n"));
    size_t n;
    char *m = file_in(dir, "args_dump.json", &n);
    m[n] = '\0';
    ck_assert_ptr_nonnull(strstr(m, "\"total_args\": 13,"));
    ck_assert_ptr_nonnull(strstr(m, "\"dropped_records\": 3,"));
    free(m);
    tu_run_free(&r);
    free(g);
}
END_TEST

START_TEST(the_pattern_payload_writes_element_indices)
{
    /* dump_payload=1: unknown FLOAT16 elements read 0, 1, 2, 3 ... (0x0000, 0x3c00, 0x4000, 0x4200) */
    const char *dir = tu_tmpdir();
    char *g = bp8_graph(dir);
    const char *args[] = {"run", g, "-o", dir, "--dump-args=2", "--set", "dump_payload=1", "--quiet", NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    size_t n;
    unsigned char *bin = (unsigned char *)file_in(dir, "args.bin", &n);
    ck_assert_uint_ge(n, 8);
    const unsigned char want[8] = {0x00, 0x00, 0x00, 0x3c, 0x00, 0x40, 0x00, 0x42};
    ck_assert(memcmp(bin, want, 8) == 0);
    free(bin);
    tu_run_free(&r);
    free(g);
}
END_TEST

/* A dump perturbs the makespan and ptosim_run.json says so: the add graph at level 2 captures 4 records
 * (dump_record_ns 100 each) and 3 payloads of 16 B at aicpu_copy_bw 8 GB/s (2 ns each): 406 ns of the
 * scheduler thread's time, no park; "perturbed" is true, and the summary names the dump. Without the dump
 * nothing perturbs the run. */
START_TEST(a_dump_is_counted_as_perturbing_the_makespan)
{
    for (int level = 0; level <= 2; level += 2) {
        const char *dir = tu_tmpdir();
        char text[4096];
        snprintf(text, sizeof(text), ADD_GRAPH, "", "");
        char *g = tu_write(dir, "add.jsonl", text);
        char flag[32];
        snprintf(flag, sizeof(flag), "--dump-args=%d", level);
        const char *args[] = {"run", g, "-o", dir, flag, NULL};
        run_out r = tu_run(args);
        ck_assert_msg(r.status == 0, "%s", r.err);
        char p[4200];
        snprintf(p, sizeof(p), "%s/ptosim_run.json", dir);
        cJSON *j = tu_json_file(p);
        const cJSON *prof = cJSON_GetObjectItem(j, "profiling");
        ck_assert_int_eq(cJSON_IsTrue(cJSON_GetObjectItem(prof, "perturbed")), level > 0);
        ck_assert_double_eq_tol(cJSON_GetObjectItem(prof, "args_dump_capture_us")->valuedouble,
                                level ? 0.406 : 0, 1e-9);
        ck_assert_double_eq_tol(cJSON_GetObjectItem(prof, "args_dump_parked_us")->valuedouble, 0, 1e-9);
        ck_assert_int_eq(strstr(r.out, "  profiling perturbed this makespan: the args dump took 0.406 us of the "
                                       "scheduler threads to capture and parked them 0.000 us (a run without "
                                       "--dump-args is faster)\n") != NULL,
                         level > 0);
        cJSON_Delete(j);
        tu_run_free(&r);
        free(g);
    }
}
END_TEST

/* Every share of the makespan the dump-bound line gives is a share of what it names. A paged attention of
 * 33,024 tasks at level 2 fills the arena and parks the threads; a run that ends with them still parked (the
 * orchestrator's dep pool, not reclaimed meanwhile, ends it in a runtime error) counts only the freeze inside
 * the makespan (it printed "parked 9531655.686 us of the 522210.164 us (1825.3%)"), and says how long the
 * threads stayed parked past it: frozen_us = frozen_in_makespan_us + that. */
START_TEST(the_parked_share_is_a_share_of_the_makespan)
{
    const char *dir = tu_tmpdir();
    const char *gen[] = {"gen", "paged_attention", "--batch", "256", "--context", "4096", NULL};
    run_out r = tu_run(gen);
    ck_assert_int_eq(r.status, 0);
    char *g = tu_write(dir, "pa.jsonl", r.out);
    tu_run_free(&r);
    const char *args[] = {"run", g, "-o", dir, "--dump-args=2", NULL};
    r = tu_run(args);
    char p[4200];
    snprintf(p, sizeof(p), "%s/ptosim_run.json", dir);
    cJSON *j = tu_json_file(p);
    double makespan = cJSON_GetObjectItem(j, "makespan_us")->valuedouble;
    const cJSON *d = cJSON_GetObjectItem(j, "args_dump");
    double frozen = cJSON_GetObjectItem(d, "frozen_us")->valuedouble,
           inside = cJSON_GetObjectItem(d, "frozen_in_makespan_us")->valuedouble;
    ck_assert_msg(inside <= makespan && inside <= frozen, "%f %f %f", inside, frozen, makespan);
    const char *line = strstr(r.out, "bottleneck: the args dump collector: the scheduler threads were parked, all "
                                     "at once, ");
    ck_assert_msg(line, "%s", r.out);
    char want[256];
    snprintf(want, sizeof(want), "(%.1f%%)", 100 * inside / makespan);
    ck_assert_msg(strstr(line, want) && 100 * inside / makespan <= 100, "%s", line);
    if (frozen > inside) {
        snprintf(want, sizeof(want), "(and still parked when the run ended: %.3f ", frozen - inside);
        ck_assert_msg(strstr(r.out, want), "%s", r.out);
    }
    const char *status = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "outcome"), "status")->valuestring;
    if (strcmp(status, "ok") != 0) /* an unfinished run has no makespan-determining path */
        ck_assert_msg(!strstr(r.out, "makespan-determining path"), "%s", r.out);
    cJSON_Delete(j);
    tu_run_free(&r);
    free(g);
}
END_TEST

START_TEST(a_collector_actor_gone_mid_run_ends_the_run_naming_it_and_commits_nothing)
{
    /* the platform's SimGrid XML turns the host CPU, or the collector link, off (a state profile): SimGrid
     * ends the drain and the writer that run on the host, or fails the copies over the link (it aborted
     * the process when a copy was under way: an exception no C frame catches). The run used to wait for them
     * or abort; it ends with status 1 naming what went, and the folder keeps the previous run.
     * chain3's six args fill no 256-record buffer: none is published before the device's flush at its end
     * (85 us), so at 10 us nothing was collected, and at 2 ms all six were, the first copy (1.560 ms each)
     * done; the engine sees the loss at its once-a-second check (1.0 s) */
    static const struct {
        const char *what, *at, *log, *why;
    } cases[] = {
        {"host", "0.00001", "No args dump data to export",
         "the args dump collector's SimGrid actor dump-drain ended before the collector did: its host \"host\" "
         "was turned off (a state profile in the platform's SimGrid XML)"},
        {"host", "0.002", "Collected 6 args, wrote 0.0 GB to disk (1.0s)",
         "the args dump collector's SimGrid actor dump-drain ended before the collector did: its host \"host\" "
         "was turned off (a state profile in the platform's SimGrid XML)"},
        {"link", "0.002", "Collected 6 args, wrote 0.0 GB to disk (1.0s)",
         "the args dump collector lost a copy to the host: the link \"dfx_collector\" failed (a state profile "
         "in the platform's SimGrid XML?)"},
    };
    const char *dir = tu_tmpdir();
    char out[1024], runjson[1100], stage[1100], want[4096], text[2048];
    snprintf(out, sizeof(out), "%s/o", dir);
    snprintf(runjson, sizeof(runjson), "%s/ptosim_run.json", out);
    snprintf(stage, sizeof(stage), "%s/.ptosim-run", out);
    const char *a[] = {"run", TRACE("chain3.jsonl"), "-o", out, "--dump-args=2", "--no-host-timing", "--quiet",
                       NULL};
    run_out r = tu_run(a);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char *before = tu_read(runjson);
    char *pj = tu_write(dir, "off.json",
                        "{\"ptosim_platform\": 1, \"base\": \"a2a3\", \"name\": \"off\", "
                        "\"simgrid_platform\": \"off.xml\"}\n");
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        bool host = strcmp(cases[i].what, "host") == 0;
        snprintf(text, sizeof(text),
                 "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                 "<platform version=\"4.1\"><zone id=\"a2a3\" routing=\"Full\">"
                 "<host id=\"aicpu\" speed=\"1Gf\" core=\"6\"/>"
                 "<host id=\"host\" speed=\"1Gf\" core=\"4\"%s/>"
                 "<link id=\"dfx_collector\" bandwidth=\"42MBps\" latency=\"0\"%s/>"
                 "<route src=\"aicpu\" dst=\"host\"><link_ctn id=\"dfx_collector\"/></route>"
                 "</zone></platform>\n",
                 host ? " state_file=\"off.state\"" : "", host ? "" : " state_file=\"off.state\"");
        free(tu_write(dir, "off.xml", text));
        snprintf(text, sizeof(text), "%s 0\n", cases[i].at);
        free(tu_write(dir, "off.state", text));
        const char *b[] = {"run", TRACE("chain3.jsonl"), "-p", pj, "-o", out, "--dump-args=2", "--no-host-timing",
                           "--quiet", NULL};
        r = tu_run(b);
        ck_assert_msg(r.status == 1, "%s off at %s: status %d: %s", cases[i].what, cases[i].at, r.status, r.err);
        snprintf(want, sizeof(want),
                 "ptosim: [host] %s\nptosim: error: %s\nptosim: %s keeps the previous run's outputs\n",
                 cases[i].log, cases[i].why, out);
        ck_assert_str_eq(r.err, want);
        tu_run_free(&r);
        char *after = tu_read(runjson);
        ck_assert_str_eq(after, before);
        ck_assert(!tu_exists(stage));
        free(after);
    }
    free(before);
    free(pj);
}
END_TEST

Suite *suite_dump(void)
{
    Suite *s = suite_create("dump");
    TCase *tc = tcase_create("args dump");
    tcase_add_test(tc, the_spec_example_is_reproduced_byte_for_byte);
    tcase_add_test(tc, level_one_without_a_tag_writes_nothing);
    tcase_add_test(tc, level_one_dumps_only_the_tagged_argument);
    tcase_add_test(tc, level_three_lists_every_arg_with_payload_only_where_tagged);
    tcase_add_test(tc, dump_level_errors_are_clear);
    tcase_add_test(tc, data_errors_name_the_field);
    tcase_add_test(tc, back_pressure_stretches_the_run_to_the_drain_deficit);
    tcase_add_test(tc, stars_kills_at_the_credit_deadline_and_outputs_survive);
    tcase_add_test(tc, a_run_inside_the_credit_rounding_is_not_killed);
    tcase_add_test(tc, the_scheduler_timeout_fires_first_on_a_hang_and_stars_on_a_slow_run);
    tcase_add_test(tc, misordered_timeouts_are_ignored_with_a_warning);
    tcase_add_test(tc, the_shipped_dump_stall_scenario);
    tcase_add_test(tc, a_park_past_the_backstop_drops_records);
    tcase_add_test(tc, the_pattern_payload_writes_element_indices);
    tcase_add_test(tc, a_dump_is_counted_as_perturbing_the_makespan);
    tcase_add_test(tc, a_manifest_that_cannot_be_written_whole_leaves_no_file);
    tcase_add_test(tc, a_collector_actor_gone_mid_run_ends_the_run_naming_it_and_commits_nothing);
    suite_add_tcase(s, tc);
    /* 33,024 tasks at level 2: a second here, several under the sanitizers */
    TCase *big = tcase_create("args dump, a paged attention");
    tcase_set_timeout(big, 120);
    tcase_add_test(big, the_parked_share_is_a_share_of_the_makespan);
    suite_add_tcase(s, big);
    return s;
}
