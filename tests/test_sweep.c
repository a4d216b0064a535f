/* test_sweep.c - ptosim sweep: point order, rows and makespans worked by hand, determinism across -j. */
/* The Slurm array run task by task, GNU parallel's command line, the collect step, progress and every
 * error. */
#define _XOPEN_SOURCE 700 /* posix_openpt and friends, for the progress test's terminal */
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../model/base/csv.h"
#include "../model/graph/graph_compiled.h"
#include "../model/graph/graph_source.h"
#include "../model/graph/op_record.h"
#include "testutil.h"

#define HEADER                                                                                               \
    "graph,platform,ring_task_window,ring_heap,ring_dep_pool,status,code,exit,makespan_us,tasks_completed,"  \
    "task_window_peak,heap_peak,dep_pool_peak,tensormap_peak,blocked_us,blocked_task_window_us,"             \
    "blocked_heap_us,blocked_dep_pool_us,blocked_tensormap_us,aicpu_thread_num\n"
#define LISTS_HINT                                                                                           \
    "; only --ring-task-window, --ring-heap, --ring-dep-pool, --aicpu-thread-num, --set KEY=, "              \
    "--kernel-set NAME.FIELD= and --gen-PARAM take lists, every other option goes to each run as it is\n"

/* 60 scopes of one 10 us AIV task (18000 cycles at 1.8 GHz), no dependencies: each task sits in ring 1
 * (scope depth 1) and needs no dependency-pool entry. */
static char *write_scoped_fan(const char *dir)
{
    char *text = malloc(60 * 120 + 256);
    strcpy(text,
           "{\"ptosim_graph\": 1, \"name\": \"sf\", \"kernels\": [{\"id\": 0, \"name\": \"v\", \"core\": "
           "\"aiv\", \"cost\": {\"cycles\": 18000}}]}\n");
    for (int i = 0; i < 60; i++)
        strcat(text, "{\"op\": \"scope_begin\"}\n{\"op\": \"submit\", \"kernel\": \"v\"}\n{\"op\": "
                     "\"scope_end\"}\n");
    char *p = tu_write(dir, "sf.jsonl", text);
    free(text);
    return p;
}

static char *path_in(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    snprintf(p, n, "%s/%s", dir, name);
    return p;
}

static char *read_in(const char *dir, const char *name)
{
    char *p = path_in(dir, name);
    char *text = tu_read(p);
    free(p);
    return text;
}

static int count_lines(const char *text)
{
    int n = 0;
    for (; *text; text++)
        n += *text == '\n';
    return n;
}

/* Line k (0-based) of text, copied. */
static char *line_of(const char *text, int k)
{
    for (; k > 0 && text; k--) {
        text = strchr(text, '\n');
        if (text)
            text++;
    }
    ck_assert_ptr_nonnull(text);
    const char *e = strchr(text, '\n');
    return strndup(text, e ? (size_t)(e - text) : strlen(text));
}

/* Field k (0-based) of a CSV line, copied. */
static char *field(const char *line, int k)
{
    for (; k > 0; k--) {
        line = strchr(line, ',');
        ck_assert_ptr_nonnull(line);
        line++;
    }
    const char *e = strchr(line, ',');
    return strndup(line, e ? (size_t)(e - line) : strlen(line));
}

/* Asserts field k of row r (1 = first row after the header) of csv. */
static void assert_field(const char *csv, int r, int k, const char *want)
{
    char *line = line_of(csv, r), *got = field(line, k);
    ck_assert_msg(strcmp(got, want) == 0, "row %d field %d: '%s', want '%s' (%s)", r, k, got, want, line);
    free(got);
    free(line);
}

static double makespan(const char *csv, int r)
{
    char *line = line_of(csv, r), *f = field(line, 8);
    double v = atof(f);
    free(f);
    free(line);
    return v;
}

/* Runs ptosim with args and checks it exits with status and writes exactly err to stderr. */
static void expect_error(const char *const *args, int status, const char *err)
{
    run_out r = tu_run(args);
    ck_assert_msg(r.status == status, "status %d, want %d: %s", r.status, status, r.err);
    char want[16384];
    snprintf(want, sizeof(want), "%s%s", err, status == 2 ? TU_USAGE_SWEEP : ""); /* a usage error's line */
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
}

/* --repeat goes to every point; the sweep then names the best point and those inside its noise. The
 * scoped fan of 60 tasks of 10 us: window 4 on ring 1 takes at least 200 us, window 64 about 62 us,
 * whatever the seed (10 us kernels vary by sigma 8 %: microseconds, not a hundred). The dependency pool
 * changes nothing here, so at window 64 its two points run the same seeds to the same makespans: the
 * second one is inside the best one's noise, the window-4 points are not. */
START_TEST(repeat_reaches_every_point_and_names_the_points_inside_the_noise)
{
    const char *dir = tu_tmpdir();
    char *g = write_scoped_fan(dir), *out = path_in(dir, "s");
    const char *args[] = {"sweep",
                          g,
                          "--ring-task-window",
                          "0/4/0/0,0/64/0/0",
                          "--ring-dep-pool",
                          "16,64",
                          "--repeat",
                          "3",
                          "-j",
                          "1",
                          "-o",
                          out,
                          NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "  makespan over 3 seeds a point: best point 2 (--ring-task-window 0/64/0/0 "
                                "--ring-dep-pool 16) "),
                  "%s", r.out);
    ck_assert_msg(strstr(r.out, "  inside its noise (no more than two standard errors apart): point 3 "
                                "(--ring-task-window 0/64/0/0 --ring-dep-pool 64) "),
                  "%s", r.out);
    ck_assert_msg(!strstr(r.out, "point 0 (") && !strstr(r.out, "point 1 ("), "%s", r.out);
    char *csv = read_in(out, "sweep.csv");
    ck_assert_msg(strstr(csv, ",repeat_runs,makespan_mean_us,makespan_sigma_us,"), "%s", csv);
    free(csv);
    tu_run_free(&r);
    free(g);
    free(out);
}
END_TEST

START_TEST(local_sweep_gives_one_row_per_point_in_nested_loop_order)
{
    /* window 4 on ring 1 holds at most 3 tasks in flight: 60 tasks of 10 us take at least 60 / 3 x 10 =
     * 200 us. Window 64 leaves the orchestrator (0.874 us per submit) as the only limit: about 60 x 0.874
     * + 10 = 62 us. With no dependencies the dependency pool changes nothing. */
    const char *dir = tu_tmpdir();
    char *g = write_scoped_fan(dir), *out = path_in(dir, "s");
    const char *args[] = {"sweep",
                          g,
                          "--ring-task-window",
                          "0/4/0/0,0/64/0/0",
                          "--ring-dep-pool",
                          "16,64,256",
                          "-j",
                          "2",
                          "-o",
                          out,
                          NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_str_eq(r.err, ""); /* stderr is not a terminal: no progress */
    char want[512];
    snprintf(want, sizeof(want), "ptosim sweep: 6 points -> %s/sweep.csv\n", out);
    ck_assert_str_eq(r.out, want);
    tu_run_free(&r);
    char *csv = read_in(out, "sweep.csv");
    ck_assert_ptr_nonnull(csv);
    ck_assert_int_eq(count_lines(csv), 7); /* the header once, 2 x 3 points */
    ck_assert_msg(strncmp(csv, HEADER, strlen(HEADER)) == 0, "%s", csv);
    /* the first knob varies slowest */
    const char *windows[] = {"16384/4/16384/16384", "16384/64/16384/16384"};
    const char *pools[] = {"16/16/16/16", "64/64/64/64", "256/256/256/256"};
    for (int w = 0; w < 2; w++)
        for (int d = 0; d < 3; d++) {
            int row = 1 + 3 * w + d;
            assert_field(csv, row, 0, "sf");
            assert_field(csv, row, 2, windows[w]);
            assert_field(csv, row, 3, "268435456/268435456/268435456/268435456");
            assert_field(csv, row, 4, pools[d]);
            assert_field(csv, row, 5, "ok");
            assert_field(csv, row, 9, "60");
            assert_field(csv, row, 12, "0/0/0/0"); /* no dependency-pool entry used */
            ck_assert(makespan(csv, row) == makespan(csv, 1 + 3 * w));
        }
    assert_field(csv, 1, 10, "0/3/0/0"); /* window 4: 3 in flight at most */
    ck_assert_msg(makespan(csv, 1) >= 200 && makespan(csv, 4) < 100, "window 4: %f us, window 64: %f us",
                  makespan(csv, 1), makespan(csv, 4));
    /* the manifest and a folder per point you can open */
    char *manifest = read_in(out, "points.csv");
    ck_assert_str_eq(manifest, "point,dir,ring_task_window,ring_heap,ring_dep_pool,aicpu_thread_num\n"
                               "0,points/0000,0/4/0/0,,16,\n1,points/0001,0/4/0/0,,64,\n"
                               "2,points/0002,0/4/0/0,,256,\n3,points/0003,0/64/0/0,,16,\n"
                               "4,points/0004,0/64/0/0,,64,\n5,points/0005,0/64/0/0,,256,\n");
    char *row5 = read_in(out, "points/0005/row.csv");
    char *last = line_of(csv, 6);
    ck_assert_msg(strncmp(row5, HEADER, strlen(HEADER)) == 0 &&
                      strncmp(row5 + strlen(HEADER), last, strlen(last)) == 0,
                  "%s", row5);
    char *run = path_in(out, "points/0005/ptosim_run.json");
    cJSON *j = tu_json_file(run);
    cJSON *cfg = cJSON_GetObjectItem(j, "config");
    ck_assert_int_eq(cJSON_GetArrayItem(cJSON_GetObjectItem(cfg, "ring_task_window"), 1)->valueint, 64);
    ck_assert_int_eq(cJSON_GetArrayItem(cJSON_GetObjectItem(cfg, "ring_dep_pool"), 0)->valueint, 256);
    cJSON_Delete(j);
    free(run);
    free(last);
    free(row5);
    free(manifest);
    free(csv);
    free(out);
    free(g);
}
END_TEST

START_TEST(shared_options_reach_every_point_and_thread_counts_sweep)
{
    /* --aicpu-thread-num is not a CSV column: the manifest and each point's ptosim_run.json carry it; a
     * shared diagnostic flag writes its file into every point's folder */
    const char *dir = tu_tmpdir();
    char *out = path_in(dir, "s");
    const char *args[] = {
        "sweep", TRACE("chain3.jsonl"), "--aicpu-thread-num", "2,4", "--enable-dep-gen", "--quiet", "-o", out,
        NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char *manifest = read_in(out, "points.csv");
    ck_assert_str_eq(manifest, "point,dir,ring_task_window,ring_heap,ring_dep_pool,aicpu_thread_num\n"
                               "0,points/0000,,,,2\n1,points/0001,,,,4\n");
    for (int i = 0; i < 2; i++) {
        char name[64];
        snprintf(name, sizeof(name), "points/%04d/ptosim_run.json", i);
        char *p = path_in(out, name);
        cJSON *j = tu_json_file(p);
        ck_assert_int_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "config"), "aicpu_thread_num")->valueint,
                         i ? 4 : 2);
        cJSON_Delete(j);
        free(p);
        snprintf(name, sizeof(name), "%s/points/%04d/dfx_outputs/deps.json", out, i);
        ck_assert_msg(tu_exists(name), "%s", name);
    }
    free(manifest);
    free(out);
}
END_TEST

START_TEST(a_point_that_ends_in_a_runtime_error_still_gives_its_row)
{
    /* fan200 submits 200 tasks in the outer scope: window 4 fails the scope pre-check (code 1, exit 4) */
    const char *dir = tu_tmpdir();
    char *out = path_in(dir, "s");
    const char *args[] = {"sweep", TRACE("fan200.jsonl"), "--ring-task-window", "4,256", "-o", out, NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    char want[512];
    snprintf(want, sizeof(want), "ptosim sweep: 2 points -> %s/sweep.csv (1 not ok: see the status column)\n",
             out);
    ck_assert_str_eq(r.out, want);
    tu_run_free(&r);
    char *csv = read_in(out, "sweep.csv");
    ck_assert_int_eq(count_lines(csv), 3);
    assert_field(csv, 1, 5, "runtime_error");
    assert_field(csv, 1, 6, "1");
    assert_field(csv, 1, 7, "4");
    assert_field(csv, 2, 5, "ok");
    char *err = read_in(out, "points/0000/stderr.txt");
    ck_assert_msg(tu_starts(err, TU_ORCH_FAILED(1)), "%s", err);
    free(err);
    free(csv);
    free(out);
}
END_TEST

/* A platform named with a comma and quotes: run --summary-csv quotes the name (RFC 4180), so its row has
 * the header's 20 fields; every sweep point then gives its row, and the report reads the name back. */
START_TEST(a_name_with_a_comma_is_quoted_and_every_point_still_gives_its_row)
{
    const char *dir = tu_tmpdir();
    char *plat = tu_write(dir, "myplat.json",
                          "{\"ptosim_platform\": 1, \"name\": \"my,plat \\\"x\\\"\", \"base\": \"a2a3\", "
                          "\"params\": {}}\n"),
         *out = path_in(dir, "s");
    const char *run[] = {"run", TRACE("chain3.jsonl"), "-p", plat, "--summary-csv", NULL};
    run_out r = tu_run(run);
    ck_assert_msg(r.status == 0, "%s", r.err);
    char *row = line_of(r.out, 1);
    ck_assert_msg(tu_starts(row, "chain3,\"my,plat \"\"x\"\"\",16384/16384/16384/16384,"), "%s", row);
    ck_assert_int_eq(csv_count(r.out), 20);
    ck_assert_int_eq(csv_count(row), 20);
    free(row);
    tu_run_free(&r);
    const char *args[] = {"sweep", TRACE("chain3.jsonl"), "-p", plat, "--aicpu-thread-num", "2,4", "-o", out,
                          NULL};
    r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char *csv = read_in(out, "sweep.csv");
    ck_assert_int_eq(count_lines(csv), 3);
    for (int k = 1; k <= 2; k++) {
        char *line = line_of(csv, k), cell[64];
        ck_assert_int_eq(csv_count(line), 20);
        ck_assert(csv_get(line, 1, cell, sizeof(cell)));
        ck_assert_str_eq(cell, "my,plat \"x\"");
        ck_assert(csv_get(line, 19, cell, sizeof(cell)));
        ck_assert_str_eq(cell, k == 1 ? "2" : "4");
        free(line);
    }
    const char *rep[] = {"report", out, NULL};
    r = tu_run(rep);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char *page = read_in(out, "report.html");
    ck_assert_msg(strstr(page, "<h1>ptosim report: sweep of chain3 on my,plat &quot;x&quot;</h1>"), "%.400s",
                  page);
    free(page);
    free(csv);
    free(out);
    free(plat);
}
END_TEST

START_TEST(j1_and_j2_give_byte_identical_csv)
{
    const char *dir = tu_tmpdir();
    char *a = path_in(dir, "a"), *b = path_in(dir, "b");
    const char *j1[] = {"sweep",
                        TRACE("default.jsonl"),
                        "--ring-task-window",
                        "16,64",
                        "--ring-heap",
                        "65536,268435456",
                        "-j",
                        "1",
                        "-o",
                        a,
                        NULL};
    const char *j2[] = {"sweep",
                        TRACE("default.jsonl"),
                        "--ring-task-window",
                        "16,64",
                        "--ring-heap",
                        "65536,268435456",
                        "-j2",
                        "-o",
                        b,
                        NULL};
    run_out r = tu_run(j1);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    r = tu_run(j2);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char *ca = read_in(a, "sweep.csv"), *cb = read_in(b, "sweep.csv");
    ck_assert_int_eq(count_lines(ca), 5);
    ck_assert_str_eq(ca, cb);
    assert_field(ca, 1, 5, "runtime_error"); /* a 64 KiB heap is too small for the decoder: code 2 */
    assert_field(ca, 1, 6, "2");
    assert_field(ca, 2, 5, "ok");
    free(ca);
    free(cb);
    free(a);
    free(b);
}
END_TEST

/* Runs cmd through sh; returns its exit status. */
static int sh(const char *cmd)
{
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

START_TEST(slurm_array_tasks_run_locally_merge_to_the_local_csv)
{
    const char *dir = tu_tmpdir();
    char *g = write_scoped_fan(dir), *local = path_in(dir, "local"), *arr = path_in(dir, "array");
    const char *lo[] = {"sweep",
                        g,
                        "--ring-task-window",
                        "0/4/0/0,0/64/0/0",
                        "--ring-heap",
                        "1048576,268435456",
                        "--set",
                        "dfx_overhead=0",
                        "-o",
                        local,
                        NULL};
    run_out r = tu_run(lo);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    const char *sl[] = {"sweep",
                        g,
                        "--ring-task-window",
                        "0/4/0/0,0/64/0/0",
                        "--ring-heap",
                        "1048576,268435456",
                        "--set",
                        "dfx_overhead=0",
                        "--engine",
                        "slurm",
                        "-j",
                        "2",
                        "-o",
                        arr,
                        NULL};
    r = tu_run(sl);
    ck_assert_msg(r.status == 0, "%s", r.err);
    char want[1024];
    snprintf(want, sizeof(want), "  jobid=$(sbatch --parsable %s/sweep.sbatch)\n", arr);
    ck_assert_msg(strstr(r.out, want) != NULL, "%s", r.out);
    snprintf(want, sizeof(want), "  sbatch --dependency=afterany:$jobid %s/collect.sbatch\n", arr);
    ck_assert_msg(strstr(r.out, want) != NULL, "%s", r.out);
    tu_run_free(&r);
    char *script = read_in(arr, "sweep.sbatch");
    ck_assert_msg(strstr(script, "\n#SBATCH --array=0-3%2\n") != NULL, "%s", script);
    snprintf(want, sizeof(want), "sweep '%s' --ring-task-window '0/4/0/0,0/64/0/0'", g); /* absolute paths */
    ck_assert_msg(strstr(script, want) != NULL, "%s", script);
    char *row0 = path_in(arr, "points/0000/row.csv");
    ck_assert_msg(!tu_exists(row0), "nothing runs before sbatch");
    free(row0);
    /* without the array's variable the script refuses to guess a point */
    char cmd[2048];
    snprintf(cmd, sizeof(cmd), "env -u SLURM_ARRAY_TASK_ID sh %s/sweep.sbatch 2>/dev/null", arr);
    ck_assert_int_ne(sh(cmd), 0);
    for (int i = 0; i < 4; i++) {
        snprintf(cmd, sizeof(cmd), "SLURM_ARRAY_TASK_ID=%d sh %s/sweep.sbatch", i, arr);
        ck_assert_int_eq(sh(cmd), 0);
    }
    snprintf(cmd, sizeof(cmd), "sh %s/collect.sbatch >/dev/null", arr);
    ck_assert_int_eq(sh(cmd), 0);
    char *a = read_in(local, "sweep.csv"), *b = read_in(arr, "sweep.csv");
    ck_assert_int_eq(count_lines(a), 5);
    ck_assert_str_eq(a, b);
    char *ma = read_in(local, "points.csv"), *mb = read_in(arr, "points.csv");
    ck_assert_str_eq(ma, mb);
    free(ma);
    free(mb);
    free(a);
    free(b);
    free(script);
    free(g);
    free(local);
    free(arr);
}
END_TEST

START_TEST(a_point_writes_byte_for_byte_what_ptosim_run_writes)
{
    /* the points run from the graph compiled once; every file a run writes is the same as a fresh `ptosim
     * run` of the same graph (the absolute path the sweep passes) with the same options, DFX outputs included
     */
    const char *dir = tu_tmpdir();
    char *sw = path_in(dir, "sweep"), *rd = path_in(dir, "run"), graph[4096];
    ck_assert_ptr_nonnull(realpath(TRACE("default.jsonl"), graph));
    const char *a[] = {"sweep",
                       graph,
                       "--ring-task-window",
                       "64",
                       "--no-host-timing",
                       "--dump-args=2",
                       "--enable-chip-swimlane",
                       "--enable-pmu",
                       "--enable-dep-gen",
                       "--enable-scope-stats",
                       "-o",
                       sw,
                       NULL};
    run_out r = tu_run(a);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    const char *b[] = {"run",
                       graph,
                       "--ring-task-window",
                       "64",
                       "--no-host-timing",
                       "--dump-args=2",
                       "--enable-chip-swimlane",
                       "--enable-pmu",
                       "--enable-dep-gen",
                       "--enable-scope-stats",
                       "--summary-csv",
                       "-o",
                       rd,
                       NULL};
    r = tu_run(b);
    ck_assert_msg(r.status == 0, "%s", r.err);
    char *row = read_in(sw, "points/0000/row.csv");
    ck_assert_str_eq(row, r.out);
    tu_run_free(&r);
    const char *files[] = {"ptosim_run.json",
                           "dfx_outputs/chip_swimlane_records.json",
                           "dfx_outputs/deps.json",
                           "dfx_outputs/pmu.csv",
                           "dfx_outputs/name_map_default.json",
                           "dfx_outputs/scope_stats/scope_stats.jsonl",
                           "dfx_outputs/args_dump/args_dump.json",
                           "dfx_outputs/args_dump/args.bin",
                           NULL};
    for (int i = 0; files[i]; i++) {
        char cmd[16384];
        snprintf(cmd, sizeof(cmd), "cmp %s/points/0000/%s %s/%s", sw, files[i], rd, files[i]);
        ck_assert_msg(sh(cmd) == 0, "%s", cmd);
    }
    char *compiled = path_in(sw, "graph.compiled");
    ck_assert(tu_exists(compiled));
    free(compiled);
    free(row);
    free(sw);
    free(rd);
}
END_TEST

START_TEST(a_malformed_graph_stops_the_sweep_before_any_point_runs)
{
    /* the graph is checked once, whole, when it is compiled: its error, exit 3, and no point started */
    const char *dir = tu_tmpdir();
    char *g = tu_write(
        dir, "bad.jsonl",
        "{\"ptosim_graph\": 1, \"name\": \"b\", \"kernels\": [{\"id\": 0, \"name\": \"v\", \"core\": "
        "\"aiv\", \"cost\": {\"cycles\": 10}}]}\n{\"op\": \"submit\", \"kernel\": \"v\"}\n"
        "{\"op\": \"submit\", \"kernel\": \"w\"}\n");
    char *out = path_in(dir, "s"), want[8192];
    for (int e = 0; e < 3; e++) {
        const char *engines[] = {"local", "slurm", "parallel"};
        const char *args[] = {"sweep", g,   "--ring-task-window", "4,8", "--engine", engines[e], "-o",
                              out,     NULL};
        snprintf(want, sizeof(want),
                 "ptosim sweep: %s:3: kernel: unknown kernel 'w' (not in the header's kernel table)\n", g);
        if (e == 2) { /* a GNU parallel that must not be started */
            char *fake = tu_write(dir, "parallel", "#!/bin/sh\nexit 99\n");
            chmod(fake, 0755);
            setenv("PATH", dir, 1);
            free(fake);
        }
        expect_error(args, 3, want);
        char *points = path_in(out, "points");
        ck_assert_msg(!tu_exists(points), "%s engine started a point", engines[e]);
        free(points);
    }
    free(out);
    free(g);
}
END_TEST

/* The names in dir, sorted, one a line (malloc'd). */
static char *listing(const char *dir)
{
    char cmd[8192];
    snprintf(cmd, sizeof(cmd), "ls -A '%s'", dir);
    run_out r = tu_run_prog((const char *[]){"/bin/sh", "-c", cmd, NULL});
    free(r.err);
    return r.out;
}

START_TEST(a_malformed_graph_leaves_a_finished_sweep_folder_as_it_was)
{
    /* the graph is read whole before the folder is touched: the finished sweep keeps its sweep.csv,
     * points.csv and sweep.cmd byte for byte (--best and --resume still work), and a new folder is not made,
     * not even for a pipe's copy */
    const char *dir = tu_tmpdir();
    char *g = tu_write(
        dir, "bad.jsonl",
        "{\"ptosim_graph\": 1, \"name\": \"b\", \"kernels\": [{\"id\": 0, \"name\": \"v\", "
        "\"core\": \"aiv\", \"cost\": {\"cycles\": 10}}]}\n{\"op\": \"submit\", \"kernal\": \"v\"}\n");
    char *out = path_in(dir, "s"), *fresh = path_in(dir, "new"), want[8192], cmd[8192];
    const char *good[] = {"sweep", TRACE("chain3.jsonl"), "--ring-task-window", "16,64", "-o", out, NULL};
    run_out r = tu_run(good);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    const char *names[] = {"sweep.csv", "points.csv", "sweep.cmd", "graph.compiled"};
    char *before[4], *list = listing(out);
    for (int k = 0; k < 4; k++)
        ck_assert_ptr_nonnull(before[k] = read_in(out, names[k]));
    snprintf(want, sizeof(want), "ptosim sweep: %s:2: kernal: unknown field\n", g);
    const char *bad[] = {"sweep", g, "--ring-task-window", "16,64", "-o", out, NULL};
    expect_error(bad, 3, want);
    for (int k = 0; k < 4; k++) {
        char *now = read_in(out, names[k]);
        ck_assert_msg(now && strcmp(now, before[k]) == 0, "%s changed", names[k]);
        free(now);
        free(before[k]);
    }
    char *list2 = listing(out);
    ck_assert_str_eq(list2, list);
    free(list);
    free(list2);
    const char *best[] = {"sweep", "--best", out, NULL};
    r = tu_run(best);
    ck_assert_int_eq(r.status, 0);
    tu_run_free(&r);
    const char *bad_new[] = {"sweep", g, "--ring-task-window", "16,64", "-o", fresh, NULL};
    expect_error(bad_new, 3, want);
    ck_assert(!tu_exists(fresh));
    snprintf(cmd, sizeof(cmd), "cat %s | %s sweep - --ring-task-window 16,64 -o %s", g, PTOSIM_BIN, fresh);
    r = tu_run_prog((const char *[]){"/bin/bash", "-c", cmd, NULL});
    ck_assert_int_eq(r.status, 3);
    ck_assert_str_eq(r.err, "ptosim sweep: <stdin>:2: kernal: unknown field\n");
    tu_run_free(&r);
    ck_assert(!tu_exists(fresh));
    free(out);
    free(fresh);
    free(g);
}
END_TEST

START_TEST(a_second_sweep_into_a_busy_folder_is_refused_at_once)
{
    /* two sweeps into one folder would both rewrite its points.csv, sweep.cmd and sweep.csv: the second
     * finds the folder locked (here by the test, as a sweep holds it) and stops, touching nothing */
    const char *dir = tu_tmpdir();
    char *out = path_in(dir, "s"), want[8192];
    ck_assert_int_eq(mkdir(out, 0777), 0);
    int fd = open(out, O_RDONLY | O_DIRECTORY);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(flock(fd, LOCK_EX | LOCK_NB), 0);
    const char *args[] = {"sweep", TRACE("chain3.jsonl"), "--ring-task-window", "16,64", "-o", out, NULL};
    snprintf(want, sizeof(want),
             "ptosim sweep: %s: another ptosim sweep or run is writing to this folder; wait for it to end or "
             "give another -o\n",
             out);
    expect_error(args, 1, want);
    char *list = listing(out);
    ck_assert_str_eq(list, "");
    free(list);
    close(fd); /* released: the same sweep now runs */
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char *csv = read_in(out, "sweep.csv");
    ck_assert_int_eq(count_lines(csv), 3);
    free(csv);
    free(out);
}
END_TEST

START_TEST(a_collect_into_a_busy_folder_waits_for_the_sweep_that_holds_it)
{
    /* --collect rewrites DIR/sweep.csv from the rows a running sweep is still writing: it takes the sweep's
     * lock (here held by the test, as a sweep holds it) and is refused while another holds it */
    const char *dir = tu_tmpdir();
    char *out = path_in(dir, "s"), want[8192];
    const char *args[] = {"sweep", TRACE("chain3.jsonl"), "--ring-task-window", "16,64", "-o", out, NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char *csv = read_in(out, "sweep.csv"), *path = path_in(out, "sweep.csv");
    ck_assert_int_eq(count_lines(csv), 3);
    ck_assert_int_eq(unlink(path), 0); /* so a merge that went ahead shows */
    int fd = open(out, O_RDONLY | O_DIRECTORY);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(flock(fd, LOCK_EX | LOCK_NB), 0);
    const char *col[] = {"sweep", "--collect", out, NULL};
    snprintf(want, sizeof(want),
             "ptosim sweep: %s: another ptosim sweep or run is writing to this folder; wait for it to end, then "
             "collect\n",
             out);
    expect_error(col, 1, want);
    ck_assert(!tu_exists(path));
    close(fd); /* released: the merge writes the same rows */
    r = tu_run(col);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char *again = read_in(out, "sweep.csv");
    ck_assert_str_eq(again, csv);
    free(again);
    free(csv);
    free(path);
    free(out);
}
END_TEST

START_TEST(a_sweep_folder_that_cannot_be_opened_is_refused_before_anything_is_written)
{
    /* the lock is taken on the folder opened for reading: one that can be written into but not read
     * (mode 0300, for a user) stops the sweep, and a --collect, before they write anything there */
    const char *dir = tu_tmpdir();
    char *out = path_in(dir, "s"), want[8192];
    ck_assert_int_eq(mkdir(out, 0300), 0);
    ck_assert_int_eq(chmod(out, 0300), 0); /* whatever the umask */
    snprintf(want, sizeof(want), "ptosim sweep: %s: cannot open the sweep folder: Permission denied\n", out);
    const char *args[] = {"sweep", TRACE("chain3.jsonl"), "--ring-task-window", "16,64", "-o", out, NULL};
    const char *col[] = {"sweep", "--collect", out, NULL};
    for (int k = 0; k < 2; k++) {
        run_out r = tu_run_bound_by_modes(k ? col : args);
        ck_assert_msg(r.status == 1, "status %d: %s", r.status, r.err);
        ck_assert_str_eq(r.err, want);
        ck_assert_str_eq(r.out, "");
        tu_run_free(&r);
    }
    ck_assert_int_eq(chmod(out, 0700), 0);
    char *list = listing(out);
    ck_assert_str_eq(list, "");
    free(list);
    free(out);
}
END_TEST

START_TEST(a_sweep_on_a_file_system_without_locks_warns_and_runs)
{
    /* flock failing for want of locks (NFS without its lock daemon; here a preloaded flock that fails with
     * ENOLCK) is no reason to refuse the sweep: it says the folder is unprotected and goes on, as a run
     * does (each point warns in its stderr.txt) */
    const char *dir = tu_tmpdir();
    char *out = path_in(dir, "s"), want[8192];
    const char *args[] = {"sweep", TRACE("chain3.jsonl"), "--ring-task-window", "16,64", "--quiet", "-o", out,
                          NULL};
    run_out r = tu_run_preloaded(args, PTOSIM_NOLOCK, NULL);
    snprintf(want, sizeof(want),
             "ptosim sweep: %s: cannot lock the sweep folder (No locks available); do not let two sweeps write "
             "to it at once\n",
             out);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    char *csv = read_in(out, "sweep.csv");
    ck_assert_int_eq(count_lines(csv), 3);
    free(csv);
    char *p0 = path_in(out, "points/0000/stderr.txt"), *text = tu_read(p0);
    snprintf(want, sizeof(want),
             "ptosim: warning: %s/points/0000: cannot lock the work dir (No locks available); do not let two "
             "runs write to it at once\n",
             out);
    ck_assert_str_eq(text, want);
    free(text);
    free(p0);
    free(out);
}
END_TEST

START_TEST(a_point_job_refuses_a_compiled_graph_that_no_longer_fits)
{
    /* a job of the array maps DIR/graph.compiled: a graph edited after the sweep compiled it, or a damaged
     * compiled graph, stops the point with why (the points would otherwise mix two graphs) */
    const char *dir = tu_tmpdir();
    char *text = tu_read(TRACE("chain3.jsonl"));
    char *g = tu_write(dir, "g.jsonl", text), *out = path_in(dir, "s"), want[16384];
    const char *sl[] = {"sweep", g, "--ring-task-window", "4,8", "--engine", "slurm", "-o", out, NULL};
    run_out r = tu_run(sl);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    const char *p0[] = {"sweep", g, "--ring-task-window", "4,8", "-o", out, "--point", "0", NULL};
    r = tu_run(p0);
    ck_assert_msg(r.status == 0 && !r.err[0], "%s", r.err);
    tu_run_free(&r);
    char *more = malloc(strlen(text) + 64);
    sprintf(more, "%s{\"op\": \"user_code\", \"ns\": 5}\n", text);
    free(tu_write(dir, "g.jsonl", more));
    snprintf(
        want, sizeof(want),
        "ptosim sweep: point 0: %s does not match %s/graph.compiled: it has %zu bytes, the graph compiled "
        "there had %zu; run the sweep again, so that its points do not mix two versions of the graph\n",
        g, out, strlen(more), strlen(text));
    expect_error(p0, 1, want);
    free(tu_write(dir, "g.jsonl", text));
    r = tu_run(sl); /* the sweep compiles it again */
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char *cpath = path_in(out, "graph.compiled");
    FILE *f = fopen(cpath, "r+b");
    ck_assert_ptr_nonnull(f);
    fseek(f, 200, SEEK_SET);
    fputc(0x5a ^ 0xff, f);
    fclose(f);
    snprintf(
        want, sizeof(want),
        "ptosim sweep: point 0: %s: damaged: its records do not match the hash in its head; ptosim sweep "
        "--resume %s compiles the graph anew and keeps the finished points\n",
        cpath, out);
    expect_error(p0, 1, want);
    free(cpath);
    free(more);
    free(out);
    free(g);
    free(text);
}
END_TEST

/* The makespan column of a sweep.csv's row i (1 = the first point). */
static double makespan_of(const char *dir, int i)
{
    char *csv = read_in(dir, "sweep.csv"), *line = csv;
    for (int k = 0; k < i && line; k++)
        line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL;
    ck_assert_ptr_nonnull(line);
    const char *f = line;
    for (int c = 0; c < 8; c++) /* the ninth column, makespan_us */
        f = strchr(f, ',') + 1;
    double v = atof(f);
    free(csv);
    return v;
}

START_TEST(a_graph_edited_keeping_its_size_and_time_is_not_taken_for_the_compiled_one)
{
    /* cp -p, rsync -t or touch -r keep a file's time: chain3 with 98000 cycles in place of 18000 has its size
     * too. The sweep compares the bytes (their hash), so -o compiles the new graph (it simulated the old
     * one), and --resume refuses the folder whose finished points ran the old one */
    const char *dir = tu_tmpdir();
    char *text = tu_read(TRACE("chain3.jsonl"));
    char *g = tu_write(dir, "g.jsonl", text), *out = path_in(dir, "s"), want[8192];
    const char *args[] = {"sweep", g, "--ring-task-window", "4,8", "-o", out, NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    ck_assert_double_eq_tol(makespan_of(out, 1), 35.084, 1e-6); /* 18000 cycles each (README) */
    struct stat st;
    ck_assert_int_eq(stat(g, &st), 0);
    uint64_t then, now;
    ck_assert_int_eq(gcomp_hash_file(g, &then), 0);
    char *cyc = strstr(text, "18000");
    cyc[0] = '9';
    free(tu_write(dir, "g.jsonl", text));
    struct timespec times[2] = {st.st_mtim, st.st_mtim};
    ck_assert_int_eq(utimensat(AT_FDCWD, g, times, 0), 0);
    ck_assert_int_eq(gcomp_hash_file(g, &now), 0);
    const char *resume[] = {"sweep", g, "--ring-task-window", "4,8", "--resume", out, NULL};
    snprintf(
        want, sizeof(want),
        "ptosim sweep: --resume %s: %s has changed since the sweep began (%zu bytes hashing to %016" PRIx64
        " then, %zu bytes hashing to %016" PRIx64 " now), so its finished points are of another graph; start "
        "the sweep again with -o\n",
        out, g, strlen(text), then, strlen(text), now);
    expect_error(resume, 2, want);
    r = tu_run(args);
    ck_assert_msg(r.status == 0 && !r.err[0], "%s", r.err);
    tu_run_free(&r);
    const char *run[] = {"run", g, "--ring-task-window", "4", "--summary-csv", NULL};
    r = tu_run(run);
    ck_assert_int_eq(r.status, 0);
    const char *row = strchr(r.out, '\n') + 1, *f = row;
    for (int c = 0; c < 8; c++)
        f = strchr(f, ',') + 1;
    double fresh = atof(f);
    tu_run_free(&r);
    ck_assert_double_gt(fresh, 35.084 + 100); /* three kernels of 98000 cycles */
    ck_assert_double_eq_tol(makespan_of(out, 1), fresh, 1e-9);
    free(out);
    free(g);
    free(text);
}
END_TEST

START_TEST(resume_over_another_graphs_compiled_file_names_that_file)
{
    /* another sweep's graph.compiled copied into the folder: the graph is the one the sweep began with
     * (sweep.cmd says so), so the compiled file is the stranger, named as such and compiled again; the
     * resumed sweep.csv is the one the sweep gave. A sweep.cmd of an older ptosim, without the graph line,
     * cannot tell which of the two changed: refused, naming both */
    const char *dir = tu_tmpdir();
    char *g = tu_copy(dir, "g.jsonl", TRACE("chain3.jsonl")),
         *other = tu_copy(dir, "other.jsonl", TRACE("forkjoin.jsonl")), *out = path_in(dir, "s"),
         *o = path_in(dir, "o"), cmd[8192], want[8192];
    const char *args[] = {"sweep", g, "--ring-task-window", "4,8", "-o", out, NULL};
    const char *oargs[] = {"sweep", other, "--ring-task-window", "4,8", "-o", o, NULL};
    const char *resume[] = {"sweep", g, "--ring-task-window", "4,8", "--resume", out, NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    r = tu_run(oargs);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char *ref = read_in(out, "sweep.csv"), *foreign = path_in(o, "graph.compiled");
    unsigned char head[GCOMP_HEAD_BYTES];
    FILE *f = fopen(foreign, "rb");
    ck_assert_int_eq(fread(head, 1, sizeof(head), f), sizeof(head));
    fclose(f);
    gcomp_head h;
    memcpy(&h, head, sizeof(h));
    uint64_t mine;
    ck_assert_int_eq(gcomp_hash_file(g, &mine), 0);
    struct stat st;
    ck_assert_int_eq(stat(g, &st), 0);
    snprintf(cmd, sizeof(cmd), "cp %s %s/graph.compiled && rm %s/points/0001/row.csv", foreign, out, out);
    ck_assert_int_eq(sh(cmd), 0);
    r = tu_run(resume);
    ck_assert_msg(r.status == 0, "%s", r.err);
    snprintf(want, sizeof(want),
             "ptosim sweep: --resume %s: %s/graph.compiled is another graph's (compiled from %" PRIu64
             " bytes hashing to %016" PRIx64 "), not compiled from %s (%lld bytes hashing to %016" PRIx64
             ", as when the sweep began); compiling %s again\n",
             out, out, h.src_size, h.src_hash, g, (long long)st.st_size, mine, g);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    char *csv = read_in(out, "sweep.csv");
    ck_assert_str_eq(csv, ref);
    free(csv);
    /* the same, in a folder whose sweep.cmd an older ptosim wrote */
    snprintf(
        cmd, sizeof(cmd),
        "cp %s %s/graph.compiled && rm %s/points/0001/row.csv && sed -i '/^# the graph: /d' %s/sweep.cmd",
        foreign, out, out, out);
    ck_assert_int_eq(sh(cmd), 0);
    snprintf(
        want, sizeof(want),
        "ptosim sweep: --resume %s: %s does not match %s/graph.compiled: it has %lld bytes, the graph "
        "compiled there had %" PRIu64 "; either the graph changed since the sweep began or %s/graph.compiled "
        "is another graph's, and %s/sweep.cmd (of an older ptosim) does not say which graph the finished "
        "points ran; start the sweep again with -o\n",
        out, g, out, (long long)st.st_size, h.src_size, out, out);
    expect_error(resume, 2, want);
    free(foreign);
    free(ref);
    free(o);
    free(out);
    free(other);
    free(g);
}
END_TEST

START_TEST(a_point_job_refuses_a_forged_record)
{
    /* a record of graph.compiled changed under a recomputed hash (the hash is not a signature): the point's
     * run refuses it like a malformed line (exit 3, no files), naming the record and the field */
    const char *dir = tu_tmpdir();
    char *g = tu_copy(dir, "g.jsonl", TRACE("chain3.jsonl")), *out = path_in(dir, "s"), want[8192];
    const char *sl[] = {"sweep", g, "--ring-task-window", "4", "--engine", "slurm", "-o", out, NULL};
    const char *p0[] = {"sweep", g, "--ring-task-window", "4", "-o", out, "--point", "0", NULL};
    run_out r = tu_run(sl);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char *cpath = path_in(out, "graph.compiled");
    FILE *f = fopen(cpath, "r+b");
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    size_t n = (size_t)ftell(f);
    unsigned char *c = malloc(n);
    rewind(f);
    ck_assert_int_eq(fread(c, 1, n, f), n);
    graph_op *op = malloc(sizeof(*op));
    size_t pos = 0;
    oprec_read(c + GCOMP_HEAD_BYTES, &pos, op); /* chain3's first submit: vadd, an AIV kernel */
    ck_assert_int_eq(op->kernel_ids[1], 0);
    op->kernel_ids[1] = 977;
    oprec_buf b = {0};
    ck_assert_int_eq(oprec_append(&b, op, 0), 0);
    ck_assert_uint_eq(b.used, pos);
    memcpy(c + GCOMP_HEAD_BYTES, b.buf, b.used);
    gcomp_head h;
    memcpy(&h, c, sizeof(h));
    gcomp_hasher hs;
    gcomp_hash_init(&hs);
    gcomp_hash_update(&hs, c + GCOMP_HEAD_BYTES, h.rec_bytes);
    h.rec_hash = gcomp_hash_final(&hs);
    memcpy(c, &h, sizeof(h));
    rewind(f);
    ck_assert_int_eq(fwrite(c, 1, n, f), n);
    fclose(f);
    r = tu_run(p0);
    ck_assert_int_eq(r.status, 1);
    /* the point compiles g.jsonl again and compares before it runs a record: refused at the forged byte
     * (the run's own range checks, which would refuse it too, are test_graph.c's) */
    size_t at = GCOMP_HEAD_BYTES + ((offsetof(graph_op, site) + 7) & ~(size_t)7) + offsetof(graph_op, kernel_ids) +
                sizeof(int32_t) - offsetof(graph_op, label);
    snprintf(want, sizeof(want),
             "ptosim sweep: point 0: %s is not what %s compiles to: its records differ from the graph's at byte "
             "%zu; ptosim sweep --resume %s compiles the graph anew and keeps the finished points\n",
             cpath, g, at, out);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    char *done = path_in(out, "points/0000/ptosim_run.json");
    ck_assert(!tu_exists(done));
    free(done);
    free(b.buf);
    free(op);
    free(c);
    free(cpath);
    free(out);
    free(g);
}
END_TEST

/* Forges the compiled graph at path as a sweep folder someone sent might: the first user_code record's time
 * becomes ns (a value in range, which every check of a record passes), the records' hash is recomputed.
 * Returns the file offset of the first byte changed. */
static size_t forge_user_code(const char *path, uint64_t ns)
{
    char *text = NULL;
    FILE *f = fopen(path, "r+b");
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    size_t n = (size_t)ftell(f);
    unsigned char *c = malloc(n), *was = malloc(n);
    rewind(f);
    ck_assert_int_eq(fread(c, 1, n, f), n);
    memcpy(was, c, n);
    gcomp_head h;
    memcpy(&h, c, sizeof(h));
    graph_op *op = malloc(sizeof(*op));
    bool done = false;
    for (size_t pos = 0; pos < h.rec_bytes && !done;) {
        size_t at = pos;
        ck_assert_int_eq(oprec_read_checked(c + GCOMP_HEAD_BYTES, h.rec_bytes, &pos, op), 0);
        if (op->kind != OP_USER_CODE)
            continue;
        op->user_ns = ns;
        oprec_buf b = {0};
        ck_assert_int_eq(oprec_append(&b, op, 0), 0);
        ck_assert_uint_eq(b.used, pos - at); /* the same length: only the value changed */
        memcpy(c + GCOMP_HEAD_BYTES + at, b.buf, b.used);
        free(b.buf);
        done = true;
    }
    ck_assert_msg(done, "%s has no user_code record", path);
    gcomp_hasher hs;
    gcomp_hash_init(&hs);
    gcomp_hash_update(&hs, c + GCOMP_HEAD_BYTES, h.rec_bytes);
    h.rec_hash = gcomp_hash_final(&hs);
    memcpy(c, &h, sizeof(h));
    rewind(f);
    ck_assert_int_eq(fwrite(c, 1, n, f), n);
    fclose(f);
    size_t first = GCOMP_HEAD_BYTES; /* the head's hash changed too */
    while (first < n && c[first] == was[first])
        first++;
    ck_assert_uint_lt(first, n);
    free(op);
    free(c);
    free(was);
    free(text);
    return first;
}

START_TEST(a_compiled_graph_forged_in_range_is_never_run)
{
    /* a forged graph.compiled whose changed value stays in range passed every check: the point ran the forged
     * operations (another makespan), status ok, exit 0. A point run alone compiles GRAPH again and compares
     * before it runs; a sweep (-o, --resume) compiles GRAPH anew and never uses the file it finds */
    const char *dir = tu_tmpdir();
    char *g = tu_copy(dir, "g.jsonl", TRACE("default.jsonl")), *out = path_in(dir, "s"), want[8192];
    const char *sw[] = {"sweep", g, "--ring-task-window", "16", "--no-host-timing", "-o", out, "-j1", NULL};
    const char *p0[] = {"sweep", g, "--ring-task-window", "16", "--no-host-timing", "-o", out, "--point", "0",
                        NULL};
    const char *res[] = {"sweep", g,   "--ring-task-window", "16", "--no-host-timing", "--resume", out,
                         "-j1",   NULL};
    run_out r = tu_run(sw);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char *genuine = read_in(out, "points/0000/row.csv"), *cpath = path_in(out, "graph.compiled");
    size_t at = forge_user_code(cpath, 300000); /* a user_code of 300 ns made 300 us */
    r = tu_run(p0);
    ck_assert_int_eq(r.status, 1);
    snprintf(want, sizeof(want),
             "ptosim sweep: point 0: %s is not what %s compiles to: its records differ from the graph's at byte "
             "%zu; ptosim sweep --resume %s compiles the graph anew and keeps the finished points\n",
             cpath, g, at, out);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    char *row = read_in(out, "points/0000/row.csv");
    ck_assert_str_eq(row, genuine); /* nothing ran */
    free(row);
    /* --resume compiles g.jsonl anew: the point it runs again is the genuine graph's */
    char *rp = path_in(out, "points/0000/row.csv");
    ck_assert_int_eq(unlink(rp), 0);
    forge_user_code(cpath, 400000);
    r = tu_run(res);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    row = read_in(out, "points/0000/row.csv");
    ck_assert_str_eq(row, genuine);
    free(row);
    /* and so does -o */
    ck_assert_int_eq(unlink(rp), 0);
    forge_user_code(cpath, 500000);
    r = tu_run(sw);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    row = read_in(out, "points/0000/row.csv");
    ck_assert_str_eq(row, genuine);
    free(row);
    /* the compiled file is the genuine one again: a point alone runs */
    r = tu_run(p0);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    free(rp);
    free(cpath);
    free(genuine);
    free(out);
    free(g);
}
END_TEST

START_TEST(a_generated_graph_forged_in_a_sweep_folder_is_never_run)
{
    /* gen:KIND: a point run alone reads DIR/graphs/NNNN.jsonl; one edited (and compiled again to match) is
     * not the generator's graph and is refused before the point runs */
    const char *dir = tu_tmpdir();
    char *out = path_in(dir, "s"), want[8192];
    const char *sw[] = {"sweep", "gen:granularity", "--gen-k", "24,48", "-o", out, "-j1", NULL};
    const char *p1[] = {"sweep", "gen:granularity", "--gen-k", "24,48", "-o", out, "--point", "1", NULL};
    run_out r = tu_run(sw);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char *gpath = path_in(out, "graphs/0001.jsonl"), *cpath = path_in(out, "graphs/0001.compiled");
    char *text = tu_read(gpath);
    char *cyc = strstr(text, "\"cycles\": ");
    ck_assert_ptr_nonnull(cyc);
    size_t at = (size_t)(cyc - text) + 10;
    ck_assert(text[at] >= '1' && text[at] <= '8');
    text[at]++; /* the kernel's cost, in range: every task is slower */
    char *slash = strrchr(gpath, '/');
    *slash = '\0';
    free(tu_write(gpath, "0001.jsonl", text));
    *slash = '/';
    char err[4096];
    ck_assert_int_eq(gcomp_compile(gpath, cpath, err, sizeof(err)), 0); /* the compiled file to match */
    r = tu_run(p1);
    ck_assert_int_eq(r.status, 1);
    snprintf(want, sizeof(want),
             "ptosim sweep: point 1: %s is not the graph ptosim gen granularity writes for this point (they part "
             "at byte %zu); ptosim sweep --resume %s writes the graphs anew and keeps the finished points\n",
             gpath, at, out);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    free(text);
    free(gpath);
    free(cpath);
    free(out);
}
END_TEST

START_TEST(a_signal_while_the_sweep_reads_its_graph_stops_it)
{
    /* SIGINT in the first half second of a sweep (reading and compiling its graph) was lost where it came in
     * ignored, as in a script's background job: every point ran, exit 0. The graph here is a FIFO this test
     * holds open, so the reading is provably under way when the signal comes */
    const char *dir = tu_tmpdir();
    char *fifo = path_in(dir, "g.fifo"), *out = path_in(dir, "s"), *errp = path_in(dir, "err.txt");
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        int fe = open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0644), fo = open("/dev/null", O_WRONLY);
        if (fe < 0 || fo < 0 || dup2(fe, 2) < 0 || dup2(fo, 1) < 0)
            _exit(127);
        signal(SIGINT, SIG_IGN); /* as a background job of a script gets it */
        execl(PTOSIM_BIN, PTOSIM_BIN, "sweep", fifo, "--ring-task-window", "16,64", "-o", out, "-j1", (char *)NULL);
        _exit(127);
    }
    /* the open for writing returns once the sweep has opened the FIFO to read it (a child that failed before
     * would leave it waiting: the test's timeout says so) */
    int w = open(fifo, O_WRONLY);
    ck_assert_int_ge(w, 0);
    char *text = tu_read(TRACE("chain3.jsonl")); /* a whole graph, smaller than the pipe's buffer */
    ck_assert_int_eq(write(w, text, strlen(text)), (ssize_t)strlen(text));
    ck_assert_int_eq(kill(pid, SIGINT), 0);
    /* the end of the graph only now: the sweep cannot have read past it before the signal reached it (one
     * that reads on runs every point, exit 0) */
    close(w);
    int st;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert_msg(WIFEXITED(st), "killed by signal %d", WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    ck_assert_int_eq(WEXITSTATUS(st), 130);
    char *err = tu_read(errp);
    ck_assert_str_eq(err, "ptosim sweep: interrupted by SIGINT before any point ran; nothing was written\n");
    ck_assert(!tu_exists(out));
    free(err);
    free(text);
    free(errp);
    free(out);
    free(fifo);
}
END_TEST

START_TEST(a_stopped_graph_reading_ends_at_its_next_line)
{
    /* the flag a sweep's SIGINT sets ends a check, a compile and a copy of the graph at once, with nothing
     * written */
    const char *dir = tu_tmpdir();
    char *g = tu_copy(dir, "g.jsonl", TRACE("chain3.jsonl")), *cpath = path_in(dir, "g.compiled"),
         *copy = path_in(dir, "copy.jsonl"), err[4096], want[4400];
    volatile sig_atomic_t flag = 1;
    gsrc_stop_on(&flag);
    ck_assert_int_ne(graph_validate(g, err, sizeof(err)), 0);
    snprintf(want, sizeof(want), "%s:2: interrupted", g); /* line 1, the header, was read by the open */
    ck_assert_str_eq(err, want);
    ck_assert_int_eq(gcomp_compile(g, cpath, err, sizeof(err)), 1);
    ck_assert_str_eq(err, want);
    ck_assert(!tu_exists(cpath));
    char tmp[4300];
    snprintf(tmp, sizeof(tmp), "%s.tmp", cpath);
    ck_assert(!tu_exists(tmp));
    ck_assert_int_eq(gsrc_spool(g, copy, err, sizeof(err)), 1);
    snprintf(want, sizeof(want), "%s: interrupted", g);
    ck_assert_str_eq(err, want);
    ck_assert(!tu_exists(copy));
    flag = 0; /* not set: as ever */
    ck_assert_int_eq(graph_validate(g, err, sizeof(err)), 0);
    gsrc_stop_on(NULL);
    free(copy);
    free(cpath);
    free(g);
}
END_TEST

/* The inode of dir/name, 0 when it is missing: a row rewritten is a new file (renamed into place). */
static ino_t inode_of(const char *dir, const char *name)
{
    char *p = path_in(dir, name);
    struct stat st;
    ino_t ino = stat(p, &st) == 0 ? st.st_ino : 0;
    free(p);
    return ino;
}

START_TEST(a_point_without_a_row_is_marked_missing_and_resume_runs_only_it)
{
    /* point 1's dfx_outputs is a file, so its run cannot write and prints no row (exit 1); the other points
     * still run; sweep.csv marks point 1 missing, the exit status is 1; --resume runs point 1 alone. The
     * file is put into the folder of the same sweep run once before (-o takes its own sweep's folder) */
    const char *dir = tu_tmpdir();
    char *out = path_in(dir, "s"), *blocker = path_in(dir, "s/points/0001/dfx_outputs"),
         *ref = path_in(dir, "r");
    const char *args[] = {"sweep", TRACE("chain3.jsonl"), "--ring-task-window", "4,8,16", "-o", out, NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char cmd[1024];
    snprintf(cmd, sizeof(cmd), "rm -r %s && : > %s", blocker, blocker);
    ck_assert_int_eq(sh(cmd), 0);
    r = tu_run(args);
    ck_assert_int_eq(r.status, 1);
    char want[2048];
    snprintf(want, sizeof(want),
             "ptosim sweep: point 1 (--ring-task-window 8) gave no row: exit 1 (%s/points/0001/row.csv is "
             "empty); its stderr (%s/points/0001/stderr.txt):\nptosim: %s: not a directory\n",
             out, out, blocker);
    ck_assert_msg(strncmp(r.err, want, strlen(want)) == 0, "%s", r.err);
    snprintf(want, sizeof(want),
             "ptosim sweep: 1 of 3 points gave no row (status \"missing\" in %s/sweep.csv); ptosim sweep "
             "--resume %s runs only those\n",
             out, out);
    ck_assert_msg(strstr(r.err, want) != NULL, "%s", r.err);
    snprintf(want, sizeof(want),
             "ptosim sweep: 3 points -> %s/sweep.csv (1 missing: see the status column)\n", out);
    ck_assert_str_eq(r.out, want);
    tu_run_free(&r);
    char *csv = read_in(out, "sweep.csv");
    ck_assert_int_eq(count_lines(csv), 4);
    assert_field(csv, 1, 5, "ok");
    char *line = line_of(csv, 2);
    ck_assert_str_eq(line, ",,,,,missing,,1,,,,,,,,,,,,"); /* status and the run's exit status, 20 fields */
    free(line);
    assert_field(csv, 3, 5, "ok");
    free(csv);
    ino_t row0 = inode_of(out, "points/0000/row.csv"), row2 = inode_of(out, "points/0002/row.csv");
    ck_assert(row0 && row2);
    unlink(blocker);
    const char *again[] = {"sweep", TRACE("chain3.jsonl"), "--ring-task-window", "4,8,16", "--resume", out,
                           NULL};
    r = tu_run(again);
    ck_assert_msg(r.status == 0 && !r.err[0], "%d %s", r.status, r.err);
    snprintf(want, sizeof(want),
             "ptosim sweep: resuming %s: 2 of 3 points have their row; 1 to run\nptosim sweep: 3 points -> "
             "%s/sweep.csv\n",
             out, out);
    ck_assert_str_eq(r.out, want);
    tu_run_free(&r);
    ck_assert(inode_of(out, "points/0000/row.csv") == row0 && inode_of(out, "points/0002/row.csv") == row2);
    const char *fresh[] = {"sweep", TRACE("chain3.jsonl"), "--ring-task-window", "4,8,16", "-o", ref, NULL};
    r = tu_run(fresh);
    ck_assert_int_eq(r.status, 0);
    tu_run_free(&r);
    char *a = read_in(out, "sweep.csv"), *b = read_in(ref, "sweep.csv");
    ck_assert_str_eq(a, b);
    free(a);
    free(b);
    /* a point rerun by hand, then merged, still works */
    const char *one[] = {
        "sweep", TRACE("chain3.jsonl"), "--ring-task-window", "4,8,16", "-o", out, "--point", "1", NULL};
    r = tu_run(one);
    ck_assert_msg(r.status == 0 && !r.out[0] && !r.err[0], "%d %s %s", r.status, r.out, r.err);
    tu_run_free(&r);
    const char *col[] = {"sweep", "--collect", out, NULL};
    r = tu_run(col);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    a = read_in(out, "sweep.csv");
    b = read_in(ref, "sweep.csv");
    ck_assert_str_eq(a, b);
    free(a);
    free(b);
    free(blocker);
    free(out);
    free(ref);
}
END_TEST

START_TEST(collect_names_the_points_without_a_row)
{
    const char *dir = tu_tmpdir();
    char *out = path_in(dir, "s");
    const char *sl[] = {
        "sweep", TRACE("chain3.jsonl"), "--ring-heap", "1024,2048/0/0/0", "--engine", "slurm", "-o", out,
        NULL};
    run_out r = tu_run(sl);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "#") == NULL && strstr(r.out, "ptosim sweep: 2 points; wrote ") == r.out,
                  "%s", r.out);
    tu_run_free(&r);
    char *script = read_in(out, "sweep.sbatch");
    ck_assert_msg(strstr(script, "\n#SBATCH --array=0-1\n") != NULL, "%s", script); /* no -j: no throttle */
    free(script);
    const char *col[] = {"sweep", "--collect", out, NULL};
    char want[2048];
    snprintf(
        want, sizeof(want),
        "ptosim sweep: point 0 (--ring-heap 1024) gave no row (%s/points/0000/row.csv is missing)\n"
        "ptosim sweep: point 1 (--ring-heap 2048/0/0/0) gave no row (%s/points/0001/row.csv is missing)\n"
        "ptosim sweep: 2 of 2 points gave no row (status \"missing\" in %s/sweep.csv); ptosim sweep "
        "--resume %s runs only those\n",
        out, out, out, out);
    expect_error(col, 1, want);
    /* no row at all: this build's header, then a row per point marked missing (how they ended is unknown) */
    char *csv = read_in(out, "sweep.csv");
    ck_assert_str_eq(csv, HEADER ",,,,,missing,,,,,,,,,,,,,,\n,,,,,missing,,,,,,,,,,,,,,\n");
    free(csv);
    /* a row from another binary's header is refused too */
    const char *p0[] = {
        "sweep", TRACE("chain3.jsonl"), "--ring-heap", "1024,2048/0/0/0", "-o", out, "--point", "0", NULL};
    const char *p1[] = {
        "sweep", TRACE("chain3.jsonl"), "--ring-heap", "1024,2048/0/0/0", "-o", out, "--point", "1", NULL};
    r = tu_run(p0);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    r = tu_run(p1);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char *row = read_in(out, "points/0001/row.csv");
    row[0] = 'G';
    char *rp = path_in(out, "points/0001");
    free(tu_write(rp, "row.csv", row));
    snprintf(want, sizeof(want),
             "ptosim sweep: point 1 (--ring-heap 2048/0/0/0): %s/points/0001/row.csv has another header than "
             "point 0's\nptosim sweep: 1 of 2 points gave no row (status \"missing\" in %s/sweep.csv); "
             "ptosim sweep "
             "--resume %s runs only those\n",
             out, out, out);
    expect_error(col, 1, want);
    free(rp);
    free(row);
    /* not a sweep's folder */
    const char *none[] = {"sweep", "--collect", dir, NULL};
    snprintf(
        want, sizeof(want),
        "ptosim sweep: %s/points.csv: cannot read: No such file or directory (is %s a sweep's folder?)\n",
        dir, dir);
    expect_error(none, 2, want);
    const char *bare[] = {"sweep", "--collect", NULL};
    expect_error(bare, 2, "ptosim sweep: --collect takes one DIR and nothing else\n");
    free(out);
}
END_TEST

START_TEST(parallel_engine_hands_the_points_to_gnu_parallel)
{
    /* a stand-in for GNU parallel on PATH: it records its arguments and runs the command once per line of
     * the :::: file with {} replaced, as parallel -q does */
    const char *dir = tu_tmpdir();
    char *fake = tu_write(dir, "parallel",
                          "#!/bin/bash\n"
                          "printf '%s\\n' \"$@\" > \"${0%/*}/args.txt\"\n"
                          "args=(\"$@\")\n"
                          "n=${#args[@]}\n"
                          "i=0; while [[ ${args[i+1]} != sweep ]]; do i=$((i + 1)); done\n"
                          "cmd=(\"${args[@]:i:n-i-2}\")\n"
                          "while read -r p; do \"${cmd[@]//\\{\\}/$p}\"; done < \"${args[n-1]}\"\n");
    chmod(fake, 0755);
    char *out = path_in(dir, "s"), *local = path_in(dir, "local");
    const char *lo[] = {"sweep", TRACE("chain3.jsonl"), "--ring-task-window", "4,8", "-o", local, NULL};
    run_out r = tu_run(lo);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    setenv("PATH", dir, 1);
    const char *pa[] = {
        "sweep", TRACE("chain3.jsonl"), "--ring-task-window", "4,8", "--engine", "parallel", "-j", "2", "-S",
        "host1", "--parallel-args",     "--bar  --eta",       "-o",  out,        NULL};
    r = tu_run(pa);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char *a = read_in(local, "sweep.csv"), *b = read_in(out, "sweep.csv");
    ck_assert_str_eq(a, b);
    char *list = read_in(out, "points.txt");
    ck_assert_str_eq(list, "0\n1\n");
    char *got = read_in(dir, "args.txt"), cwd[4096], want[16384];
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof(cwd)));
    char exe[4096];
    ck_assert_ptr_nonnull(realpath(PTOSIM_BIN, exe));
    char graph[4096];
    ck_assert_ptr_nonnull(realpath(TRACE("chain3.jsonl"), graph));
    snprintf(want, sizeof(want),
             "-q\n-j\n2\n-S\nhost1\n--wd\n%s\n--bar\n--eta\n%s\nsweep\n%s\n--ring-task-window\n4,8\n-o\n%s\n"
             "--point\n{}\n::::\n%s/points.txt\n",
             cwd, exe, graph, out, out);
    ck_assert_str_eq(got, want);
    /* without GNU parallel: say so, run nothing */
    setenv("PATH", "/nonexistent", 1);
    expect_error(pa, 2,
                 "ptosim sweep: --engine parallel needs GNU parallel, which is not on PATH (Debian: apt-get "
                 "install parallel); --engine local runs the points here\n");
    free(got);
    free(list);
    free(a);
    free(b);
    free(out);
    free(local);
    free(fake);
}
END_TEST

START_TEST(progress_shows_on_a_terminal_only)
{
    /* stderr on a pseudo-terminal; the one-second threshold lowered to 0 so a small sweep shows it */
    int m = posix_openpt(O_RDWR | O_NOCTTY);
    ck_assert(m >= 0 && grantpt(m) == 0 && unlockpt(m) == 0);
    int s = open(ptsname(m), O_RDWR | O_NOCTTY);
    ck_assert(s >= 0);
    const char *dir = tu_tmpdir();
    char *out = path_in(dir, "s");
    pid_t pid = fork();
    if (pid == 0) {
        setenv("PTOSIM_SWEEP_PROGRESS_AFTER", "0", 1);
        int devnull = open("/dev/null", O_WRONLY);
        dup2(devnull, 1);
        dup2(s, 2);
        execl(PTOSIM_BIN, PTOSIM_BIN, "sweep", TRACE("chain3.jsonl"), "--ring-task-window", "4,8", "-j", "1",
              "-o", out, (char *)NULL);
        _exit(127);
    }
    int st;
    waitpid(pid, &st, 0);
    ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    char buf[4096];
    size_t n = 0;
    struct pollfd pf = {.fd = m, .events = POLLIN};
    while (n < sizeof(buf) - 1 && poll(&pf, 1, 200) > 0) {
        ssize_t got = read(m, buf + n, sizeof(buf) - 1 - n);
        if (got <= 0)
            break;
        n += (size_t)got;
    }
    buf[n] = '\0';
    ck_assert_msg(strstr(buf, "\rptosim sweep: 1/2 points, ") != NULL, "%s", buf);
    ck_assert_msg(strstr(buf, ", ETA 0:00") != NULL, "%s", buf);
    ck_assert_msg(strstr(buf, "\rptosim sweep: 2/2 points in ") != NULL, "%s", buf);
    close(s);
    close(m);
    /* the same on a file: nothing */
    setenv("PTOSIM_SWEEP_PROGRESS_AFTER", "0", 1);
    const char *args[] = {"sweep", TRACE("chain3.jsonl"), "--ring-task-window", "4,8", "-o", out, NULL};
    run_out r = tu_run(args);
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.err, "");
    tu_run_free(&r);
    free(out);
}
END_TEST

START_TEST(every_command_line_error_is_named_before_any_point_runs)
{
    const char *dir = tu_tmpdir();
    char *out = path_in(dir, "s");
    const char *g = TRACE("chain3.jsonl");
    const char *unknown[] = {"sweep", g, "--ring-foo", "4,8", "-o", out, NULL};
    expect_error(
        unknown, 2,
        "ptosim sweep: unknown option '--ring-foo' (ptosim sweep --help and ptosim run --help list the options)"
            LISTS_HINT);
    /* a near miss of the sweep's own option or of run's is named, and the list hint left out */
    const char *engin[] = {"sweep", g, "--engin", "slurm", "-o", out, NULL};
    expect_error(engin, 2,
                 "ptosim sweep: unknown option '--engin' (ptosim sweep --help and ptosim run --help list the "
                 "options); did you mean --engine?\n");
    const char *windo[] = {"sweep", g, "--ring-task-windo", "4,8", "-o", out, NULL};
    expect_error(windo, 2,
                 "ptosim sweep: unknown option '--ring-task-windo' (ptosim sweep --help and ptosim run --help "
                 "list the options); did you mean --ring-task-window?\n");
    const char *shared[] = {"sweep", g, "--scheduler-timeout-ms", "10,20", "-o", out, NULL};
    expect_error(shared, 2,
                 "ptosim sweep: --scheduler-timeout-ms: must be a positive integer (milliseconds), got "
                 "'10,20'" LISTS_HINT);
    /* knob values: the messages of ptosim run */
    const char *heap[] = {"sweep", g, "--ring-heap", "1024,64", "-o", out, NULL};
    expect_error(heap, 2,
                 "ptosim sweep: --ring-heap: ring_heap must be a power of 2 >= 1024 (bytes per ring), got 64\n");
    const char *three[] = {"sweep", g, "--ring-task-window", "0/4/0", "-o", out, NULL};
    expect_error(three, 2,
                 "ptosim sweep: --ring-task-window: ring_task_window must have exactly 4 entries (one per "
                 "scope-depth ring), got 3\n");
    const char *entry[] = {"sweep", g, "--ring-dep-pool", "16,0/2/0/0", "-o", out, NULL};
    expect_error(
        entry, 2,
        "ptosim sweep: --ring-dep-pool: ring_dep_pool entries must be in [4, INT32_MAX] (or 0 to keep "
        "default), got 2\n");
    const char *empty[] = {"sweep", g, "--ring-task-window", "16,,64", "-o", out, NULL};
    expect_error(empty, 2,
                 "ptosim sweep: --ring-task-window: ring_task_window must be a power of 2 >= 4, got ''\n");
    const char *threads[] = {"sweep", g, "--aicpu-thread-num", "2,5", "-o", out, NULL};
    expect_error(
        threads, 2,
        "ptosim sweep: --aicpu-thread-num: launch_aicpu_num (5) must be 0 (auto) or in range [2, 4]\n");
    const char *twice[] = {"sweep", g, "--ring-heap", "1024", "--ring-heap=2048", "-o", out, NULL};
    expect_error(twice, 2, "ptosim sweep: --ring-heap given twice (give one list per knob)\n");
    const char *novalue[] = {"sweep", g, "-o", out, "--ring-heap", NULL};
    expect_error(novalue, 2, "ptosim sweep: --ring-heap: missing value\n");
    const char *noout[] = {"sweep", g, "--ring-heap", "1024", NULL};
    expect_error(noout, 2,
                 "ptosim sweep: missing -o DIR (the sweep writes DIR/sweep.csv and a folder per point under "
                 "DIR/points/), or --resume DIR\n");
    const char *both[] = {"sweep", g, "-o", out, "--resume", out, NULL};
    expect_error(
        both, 2,
        "ptosim sweep: give the sweep's folder once: -o DIR, or --resume DIR to go on with the sweep in "
        "it\n");
    const char *best[] = {"sweep", g, "--best", out, NULL};
    expect_error(best, 2, "ptosim sweep: --best DIR takes no other argument (ptosim sweep --best DIR)\n");
    const char *bestbare[] = {"sweep", "--best", NULL};
    expect_error(bestbare, 2, "ptosim sweep: --best takes one DIR and nothing else\n");
    const char *nograph[] = {"sweep", "--ring-heap", "1024", "-o", out, NULL};
    expect_error(nograph, 2, "ptosim sweep: missing GRAPH\n");
    const char *bare[] = {"sweep", NULL};
    expect_error(bare, 2, "ptosim sweep: missing GRAPH\n");
    const char *missing[] = {"sweep", "/nonexistent.jsonl", "-o", out, NULL};
    expect_error(missing, 2,
                 "ptosim sweep: /nonexistent.jsonl: cannot read the graph: No such file or directory\n");
    const char *jobs[] = {"sweep", g, "-j", "0", "-o", out, NULL};
    expect_error(jobs, 2, "ptosim sweep: -j: '0' is not a number of jobs in [1, 1024]\n");
    const char *engine[] = {"sweep", g, "--engine", "pbs", "-o", out, NULL};
    expect_error(engine, 2, "ptosim sweep: --engine: 'pbs' is not an engine (local, slurm, parallel)\n");
    const char *pf[] = {"sweep", g, "--perfetto", "t.json", "-o", out, NULL};
    expect_error(pf, 2,
                 "ptosim sweep: --perfetto FILE would have every point write the same file; give "
                 "--enable-perfetto for a trace in each point's folder\n");
    const char *hosts[] = {"sweep", g, "-S", "h1", "-o", out, NULL};
    expect_error(hosts, 2, "ptosim sweep: --parallel-args and -S are options of --engine parallel\n");
    const char *point[] = {"sweep", g, "--ring-heap", "1024,2048", "--point", "2", "-o", out, NULL};
    expect_error(point, 2, "ptosim sweep: --point 2: the sweep has 2 points (0-1)\n");
    const char *pointx[] = {"sweep", g, "--point", "x", "-o", out, NULL};
    expect_error(pointx, 2, "ptosim sweep: --point: 'x' is not a point index\n");
    const char *collect[] = {"sweep", g, "--collect", out, NULL};
    expect_error(collect, 2,
                 "ptosim sweep: --collect DIR takes no other argument (ptosim sweep --collect DIR)\n");
    const char *set[] = {"sweep", g, "--set", "no_such_parameter=1", "-o", out, NULL};
    run_out r = tu_run(set);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strncmp(r.err, "ptosim sweep: ", 14) == 0 && strstr(r.err, "no_such_parameter") != NULL,
                  "%s", r.err);
    tu_run_free(&r);
    /* over a million points: 2000 dependency pools x 29 windows x 31 heaps */
    static char pools[2000 * 6], windows[29 * 12], heaps[31 * 16];
    size_t n = 0;
    for (int i = 0; i < 2000; i++)
        n += (size_t)snprintf(pools + n, sizeof(pools) - n, "%s%d", i ? "," : "", 4 + i);
    n = 0;
    for (int i = 2; i <= 30; i++)
        n += (size_t)snprintf(windows + n, sizeof(windows) - n, "%s%lu", i > 2 ? "," : "", 1UL << i);
    n = 0;
    for (int i = 10; i <= 40; i++)
        n += (size_t)snprintf(heaps + n, sizeof(heaps) - n, "%s%llu", i > 10 ? "," : "", 1ULL << i);
    const char *huge[] = {
        "sweep", g,   "--ring-dep-pool", pools, "--ring-task-window", windows, "--ring-heap", heaps, "-o",
        out,     NULL};
    expect_error(huge, 2, "ptosim sweep: more than 1000000 points; split the sweep\n");
    /* none of these made the sweep's folder */
    ck_assert(!tu_exists(out));
    free(out);
}
END_TEST

/* --set KEY=LIST sweeps a platform parameter: a column named KEY in points.csv and at the end of sweep.csv.
 * On the scoped fan with 64 slots on ring 1 nothing waits for a ring, so the orchestrator bounds the run: at
 * least 60 submits of orch_submit_ns each plus the last 10 us task, 60 x 0.874 + 10 = 62.44 us at the default
 * 874 ns, 60 x 0.2 + 10 = 22 us at 200 ns. A single --set value still goes to every point as it is. */
START_TEST(set_lists_sweep_a_platform_parameter_in_its_own_column)
{
    const char *dir = tu_tmpdir();
    char *g = write_scoped_fan(dir), *out = path_in(dir, "s");
    const char *args[] = {"sweep",
                          g,
                          "--ring-task-window",
                          "0/64/0/0",
                          "--set",
                          "orch_submit_ns=874,200",
                          "--set",
                          "dfx_overhead=0",
                          "-o",
                          out,
                          NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char *manifest = read_in(out, "points.csv");
    ck_assert_str_eq(manifest,
                     "point,dir,ring_task_window,ring_heap,ring_dep_pool,aicpu_thread_num,orch_submit_ns\n"
                     "0,points/0000,0/64/0/0,,,,874\n1,points/0001,0/64/0/0,,,,200\n");
    char *csv = read_in(out, "sweep.csv");
    char header[1024];
    snprintf(header, sizeof(header), "%.*s,orch_submit_ns\n", (int)strlen(HEADER) - 1, HEADER);
    ck_assert_msg(strncmp(csv, header, strlen(header)) == 0, "%s", csv);
    assert_field(csv, 1, 20, "874");
    assert_field(csv, 2, 20, "200");
    double slow = makespan(csv, 1), fast = makespan(csv, 2);
    ck_assert_msg(slow >= 62.44 && fast >= 22 && fast < 62.44, "874 ns: %f us, 200 ns: %f us", slow, fast);
    /* each point ran with its value, and with the one passed through */
    char *run = path_in(out, "points/0001/ptosim_run.json");
    char *json = tu_read(run);
    ck_assert_msg(strstr(json, "\"orch_submit_ns\": 200") && strstr(json, "\"dfx_overhead\": 0"), "%s", json);
    free(json);
    free(run);
    char *cmd = read_in(out, "sweep.cmd"), want[8192];
    snprintf(want, sizeof(want),
             "'%s' --ring-task-window '0/64/0/0' --set 'orch_submit_ns=874,200' '--set' 'dfx_overhead=0'\n"
             "# the graph: ",
             g);
    ck_assert_msg(strncmp(cmd, want, strlen(want)) == 0, "%s", cmd); /* then its bytes and hash */
    /* --best gives the value as a flag; a platform parameter is no RunConfig setting */
    const char *best[] = {"sweep", "--best", out, NULL};
    r = tu_run(best);
    ck_assert_msg(r.status == 0, "%s", r.err);
    char *line = line_of(csv, 2), *ms = field(line, 8);
    snprintf(
        want, sizeof(want),
        "point 1 of 2 (points/0001): makespan %s us\n--ring-task-window 0,64,0,0 --set orch_submit_ns=200\n"
        "RunConfig(platform=\"a2a3\", ring_task_window=[0, 64, 0, 0])\n",
        ms);
    ck_assert_str_eq(r.out, want);
    tu_run_free(&r);
    /* a point without its row is named by its values, and its missing row keeps them */
    char *row1 = path_in(out, "points/0001/row.csv");
    ck_assert_int_eq(unlink(row1), 0);
    const char *col[] = {"sweep", "--collect", out, NULL};
    snprintf(want, sizeof(want),
             "ptosim sweep: point 1 (--ring-task-window 0/64/0/0 --set orch_submit_ns=200) gave no row "
             "(%s/points/0001/row.csv is missing)\n"
             "ptosim sweep: 1 of 2 points gave no row (status \"missing\" in %s/sweep.csv); ptosim sweep "
             "--resume %s runs only those\n",
             out, out, out);
    expect_error(col, 1, want);
    char *merged = read_in(out, "sweep.csv");
    char *last = line_of(merged, 2);
    ck_assert_str_eq(last, ",,,,,missing,,,,,,,,,,,,,,,200");
    free(last);
    free(merged);
    free(row1);
    free(ms);
    free(line);
    free(cmd);
    free(csv);
    free(manifest);
    free(out);
    free(g);
}
END_TEST

/* --kernel-set NAME.FIELD=LIST sweeps a flag of every submit of a kernel. The early-resolved producer lets
 * the 4-block sync-start consumer be staged before it ends: 28.277 us without, 23.590 us with (test_cli.c:
 * the same bytes as the graph with the flag on its line). */
START_TEST(kernel_set_lists_sweep_a_flag_of_a_kernels_submits)
{
    const char *dir = tu_tmpdir();
    char *g = tu_write(
        dir, "ks.jsonl",
        "{\"ptosim_graph\": 1, \"name\": \"ks\", \"kernels\": [{\"id\": 0, \"name\": \"p\", \"core\": "
        "\"aiv\", "
        "\"cost\": {\"ns\": 10000}}, {\"id\": 1, \"name\": \"c\", \"core\": \"aiv\", \"cost\": {\"ns\": "
        "10000}}]}\n"
        "{\"op\": \"submit\", \"kernel\": \"p\", \"args\": [{\"dir\": \"out\", \"tensor\": \"x\", \"dtype\": "
        "\"FLOAT32\", \"shape\": [16]}]}\n"
        "{\"op\": \"submit\", \"kernel\": \"c\", \"block_num\": 4, \"args\": [{\"dir\": \"in\", \"tensor\": "
        "\"x\", "
        "\"shape\": [16]}]}\n");
    char *out = path_in(dir, "s");
    const char *args[] = {
        "sweep", g,   "--kernel-set", "p.early_resolve=false,true", "--kernel-set", "c.sync_start=true", "-o",
        out,     NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char *manifest = read_in(out, "points.csv"), *csv = read_in(out, "sweep.csv");
    ck_assert_str_eq(manifest,
                     "point,dir,ring_task_window,ring_heap,ring_dep_pool,aicpu_thread_num,p.early_resolve\n"
                     "0,points/0000,,,,,false\n1,points/0001,,,,,true\n");
    assert_field(csv, 0, 20, "p.early_resolve");
    assert_field(csv, 1, 8, "28.277000");
    assert_field(csv, 2, 8, "23.590000");
    assert_field(csv, 2, 20, "true");
    const char *best[] = {"sweep", "--best", out, NULL};
    r = tu_run(best);
    ck_assert_str_eq(r.out,
                     "point 1 of 2 (points/0001): makespan 23.590000 us\n--kernel-set p.early_resolve=true\n"
                     "RunConfig(platform=\"a2a3\")\n");
    tu_run_free(&r);
    /* a kernel the graph does not have, swept or passed through: nothing runs, no folder */
    char *none = path_in(dir, "none"), want[8192];
    const char *bad[] = {"sweep", g, "--kernel-set", "q.sync_start=false,true", "-o", none, NULL};
    snprintf(want, sizeof(want), "ptosim sweep: --kernel-set q.sync_start: graph ks (%s) has no kernel 'q'\n",
             g);
    expect_error(bad, 2, want);
    const char *bad1[] = {"sweep", g, "--kernel-set", "q.sync_start=true", "-o", none, NULL};
    expect_error(bad1, 2, want);
    const char *value[] = {"sweep", g, "--kernel-set", "p.sync_start=true,yes", "-o", none, NULL};
    expect_error(value, 2,
                 "ptosim sweep: --kernel-set p.sync_start=yes: the value is true or false, got 'yes'\n");
    ck_assert(!tu_exists(none));
    /* a graph from a pipe is checked on a temporary copy, named as the pipe, before the folder is made */
    char cmd[8192];
    snprintf(cmd, sizeof(cmd), "cat %s | %s sweep - --kernel-set q.sync_start=false,true -o %s", g,
             PTOSIM_BIN, none);
    r = tu_run_prog((const char *[]){"/bin/bash", "-c", cmd, NULL});
    ck_assert_int_eq(r.status, 2);
    ck_assert_str_eq(
        r.err,
        "ptosim sweep: --kernel-set q.sync_start: graph ks (<stdin>) has no kernel 'q'\n" TU_USAGE_SWEEP);
    tu_run_free(&r);
    ck_assert(!tu_exists(none));
    free(none);
    free(csv);
    free(manifest);
    free(out);
    free(g);
}
END_TEST

/* GRAPH gen:KIND with --gen-PARAM LIST: one graph per value, written by the generator into DIR/graphs/ and
 * compiled once, a column gen.PARAM. granularity cuts 4800 us of AIV work (1 us rows) into K tasks: K = 24
 * runs 24 tasks of 200 us at once (at least 200 us); K = 48 fills the 48 AIV cores with 100 us tasks (at
 * least 100 us, and 48 submits of 0.874 us before the last starts); K = 4800 is bound by the orchestrator,
 * at least 4800 x 0.874 = 4195.2 us. So 48 is best, then 24, then 4800. Slurm's array gives the same rows. */
START_TEST(gen_lists_sweep_the_generators_parameters)
{
    const char *dir = tu_tmpdir();
    char *out = path_in(dir, "s"), *arr = path_in(dir, "a");
    const char *args[] = {
        "sweep", "gen:granularity", "--gen-k", "24,48,4800", "--gen-total-us=4800", "-o", out, NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char *manifest = read_in(out, "points.csv"), *csv = read_in(out, "sweep.csv");
    ck_assert_str_eq(
        manifest, "point,dir,ring_task_window,ring_heap,ring_dep_pool,aicpu_thread_num,gen.k,gen.total-us\n"
                  "0,points/0000,,,,,24,4800\n1,points/0001,,,,,48,4800\n2,points/0002,,,,,4800,4800\n");
    assert_field(csv, 0, 20, "gen.k");
    assert_field(csv, 0, 21, "gen.total-us");
    assert_field(csv, 3, 0, "gen_granularity");
    double k24 = makespan(csv, 1), k48 = makespan(csv, 2), k4800 = makespan(csv, 3);
    ck_assert_msg(k24 >= 200 && k48 >= 100 + 47 * 0.874 && k4800 >= 4195.2 && k48 < k24 && k24 < k4800,
                  "%f %f %f", k24, k48, k4800);
    /* the same bytes one point at a time */
    char *seq = path_in(dir, "one");
    const char *j1[] = {
        "sweep", "gen:granularity", "--gen-k", "24,48,4800", "--gen-total-us=4800", "-j", "1", "-o", seq,
        NULL};
    r = tu_run(j1);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char *csv1 = read_in(seq, "sweep.csv");
    ck_assert_str_eq(csv1, csv);
    free(csv1);
    free(seq);
    /* each graph is the generator's own bytes */
    const char *gen[] = {"gen", "granularity", "--k", "4800", "--total-us", "4800", NULL};
    r = tu_run(gen);
    char *g2 = read_in(out, "graphs/0002.jsonl");
    ck_assert_str_eq(g2, r.out);
    tu_run_free(&r);
    const char *best[] = {"sweep", "--best", out, NULL};
    r = tu_run(best);
    char *line = line_of(csv, 2), *ms = field(line, 8), want[1024];
    snprintf(want, sizeof(want),
             "point 1 of 3 (points/0001): makespan %s us\n\nRunConfig(platform=\"a2a3\")\n"
             "ptosim gen granularity --k 48 --total-us 4800\n",
             ms);
    ck_assert_str_eq(r.out, want);
    tu_run_free(&r);
    /* the same sweep as a Slurm array, each task run here: its point command regenerates nothing */
    const char *sl[] = {"sweep",    "gen:granularity", "--gen-k", "24,48,4800", "--gen-total-us=4800",
                        "--engine", "slurm",           "-o",      arr,          NULL};
    r = tu_run(sl);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char *script = read_in(arr, "sweep.sbatch");
    ck_assert_msg(strstr(script, "sweep 'gen:granularity' --gen-k '24,48,4800' --gen-total-us '4800' -o '"),
                  "%s", script);
    char cmd[2048];
    for (int i = 0; i < 3; i++) {
        snprintf(cmd, sizeof(cmd), "SLURM_ARRAY_TASK_ID=%d sh %s/sweep.sbatch", i, arr);
        ck_assert_int_eq(sh(cmd), 0);
    }
    snprintf(cmd, sizeof(cmd), "sh %s/collect.sbatch >/dev/null", arr);
    ck_assert_int_eq(sh(cmd), 0);
    char *b = read_in(arr, "sweep.csv");
    ck_assert_str_eq(csv, b);
    /* --resume with every row: nothing runs again, the same rows */
    const char *res[] = {
        "sweep", "gen:granularity", "--gen-k", "24,48,4800", "--gen-total-us=4800", "--resume", out, NULL};
    r = tu_run(res);
    ck_assert_msg(r.status == 0, "%s", r.err);
    char done[8192];
    snprintf(done, sizeof(done),
             "ptosim sweep: resuming %s: 3 of 3 points have their row; 0 to run\nptosim sweep: 3 points -> "
             "%s/sweep.csv\n",
             out, out);
    ck_assert_str_eq(r.out, done);
    tu_run_free(&r);
    char *again = read_in(out, "sweep.csv");
    ck_assert_str_eq(again, csv);
    free(again);
    /* DIR/graphs is the sweep's own: a link there (a folder someone sent) is refused before anything is
     * written, its target untouched */
    char *lk = path_in(dir, "lk"), *target = path_in(dir, "target"), link[8192], lk_abs[PATH_MAX];
    ck_assert_int_eq(mkdir(lk, 0755), 0);
    ck_assert_int_eq(mkdir(target, 0755), 0);
    ck_assert_ptr_nonnull(realpath(lk, lk_abs));
    snprintf(link, sizeof(link), "%s/graphs", lk);
    ck_assert_int_eq(symlink(target, link), 0);
    const char *one[] = {"sweep", "gen:granularity", "--gen-k", "24", "-o", lk, NULL};
    r = tu_run(one);
    ck_assert_int_eq(r.status, 1);
    char refused[PATH_MAX + 200];
    snprintf(refused, sizeof(refused),
             "ptosim sweep: %s/graphs: is a symbolic link, which ptosim did not make and does not follow; "
             "remove it\n",
             lk_abs);
    ck_assert_str_eq(r.err, refused);
    tu_run_free(&r);
    snprintf(link, sizeof(link), "%s/0000.jsonl", target);
    ck_assert(!tu_exists(link));
    snprintf(link, sizeof(link), "%s/points.csv", lk);
    ck_assert(!tu_exists(link));
    /* with the link gone the sweep makes a folder of its own */
    snprintf(link, sizeof(link), "%s/graphs", lk);
    ck_assert_int_eq(unlink(link), 0);
    r = tu_run(one);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    snprintf(link, sizeof(link), "%s/graphs/0000.jsonl", lk);
    ck_assert(tu_exists(link));
    free(target);
    free(lk);
    free(b);
    free(script);
    free(ms);
    free(line);
    free(g2);
    free(csv);
    free(manifest);
    free(arr);
    free(out);
}
END_TEST

/* Every message of the new knob lists and of the words an engine cannot carry, each before the folder
 * exists. */
START_TEST(knob_list_errors_are_named_before_anything_runs)
{
    const char *dir = tu_tmpdir();
    char *out = path_in(dir, "s");
    const char *g = TRACE("chain3.jsonl");
    const char *stray[] = {"sweep", g, "--ring-task-window", "16", "64", "-o", out, NULL};
    expect_error(stray, 2,
                 "ptosim sweep: '64' is not an option nor an option's value: a knob's values are one "
                 "comma-separated list (--ring-task-window 16,64)\n");
    const char *stray2[] = {"sweep", g, "--quiet", "extra.jsonl", "-o", out, NULL};
    char want[8192];
    snprintf(
        want, sizeof(want),
        "ptosim sweep: 'extra.jsonl' is not an option nor an option's value: a sweep takes one GRAPH (%s), "
        "and a knob's values are one comma-separated list\n",
        g);
    expect_error(stray2, 2, want);
    const char *ring[] = {"sweep", g, "--set", "ring_heap=1024,2048", "-o", out, NULL};
    expect_error(ring, 2,
                 "ptosim sweep: --set ring_heap=1024,2048: ring_heap is the run's own knob; sweep it as "
                 "--ring-heap 1024,2048\n");
    const char *twice[] = {"sweep", g,   "--set", "hbm_bw=1e12,2e12", "--set=hbm_bw=3e12,4e12",
                           "-o",    out, NULL};
    expect_error(twice, 2, "ptosim sweep: --set hbm_bw given twice (give one list per knob)\n");
    const char *both[] = {"sweep", g, "--set", "hbm_bw=1e12,2e12", "--set", "hbm_bw=3e12", "-o", out, NULL};
    expect_error(both, 2, "ptosim sweep: --set hbm_bw given twice (a list and hbm_bw=3e12)\n");
    const char *nokey[] = {"sweep", g, "--set", "=1,2", "-o", out, NULL};
    expect_error(nokey, 2, "ptosim sweep: --set =1,2: expected KEY=LIST\n");
    const char *unknown[] = {"sweep", g, "--set", "no_such=1,2", "-o", out, NULL};
    expect_error(unknown, 2,
                 "ptosim sweep: --set no_such=1: unknown platform parameter 'no_such' (ptosim params lists "
                 "them)\n");
    const char *nogen[] = {"sweep", g, "--gen-k", "24,48", "-o", out, NULL};
    expect_error(nogen, 2,
                 "ptosim sweep: --gen-k: a generator's parameter: give GRAPH as gen:KIND (ptosim sweep "
                 "gen:granularity --gen-k 24,48 -o DIR)\n");
    const char *genval[] = {"sweep", "gen:granularity", "--gen-k", "24,0", "-o", out, NULL};
    expect_error(genval, 2,
                 "ptosim sweep: granularity: --k: must be an integer in [1, 10000000], got '0' (GRAPH "
                 "gen:granularity)\n");
    const char *gentwo[] = {"sweep", "gen:granularity", "--gen-k", "24", "--gen-k", "48", "-o", out, NULL};
    expect_error(gentwo, 2, "ptosim sweep: --gen-k given twice (give one list per knob)\n");
    const char *genkind[] = {"sweep", "gen:nope", "-o", out, NULL};
    expect_error(genkind, 2,
                 "ptosim sweep: nope: unknown kind; kinds are chain, fan, forkjoin, granularity, bgemm, "
                 "paged_attention, decode_layer, random (GRAPH gen:nope)\n");
    const char *genparam[] = {"sweep", "gen:granularity", "--gen-q", "1", "-o", out, NULL};
    expect_error(
        genparam, 2,
        "ptosim sweep: granularity: --q: unknown parameter; granularity takes --k, --total-us (GRAPH "
        "gen:granularity)\n");
    /* GNU parallel replaces {#} and its kin in every word; a Slurm #SBATCH line ends at a line break */
    char *braces = path_in(dir, "o{#}x");
    const char *par[] = {"sweep", g,   "--ring-task-window", "16,64", "--engine", "parallel", "-o",
                         braces,  NULL};
    snprintf(want, sizeof(want),
             "ptosim sweep: --engine parallel: the sweep's folder '%s' holds a '{', which GNU parallel would "
             "replace with its own strings ({}, {#}, ...); rename it, or run with --engine local or slurm\n",
             braces);
    expect_error(par, 2, want);
    ck_assert(!tu_exists(braces));
    char *nl = path_in(dir, "o\ntouch x\n#");
    const char *slurm[] = {"sweep", g, "--ring-task-window", "16,64", "--engine", "slurm", "-o", nl, NULL};
    expect_error(slurm, 2,
                 "ptosim sweep: --engine slurm: the sweep's folder holds a line break, which would end the "
                 "script's #SBATCH line; give another -o DIR\n");
    ck_assert(!tu_exists(nl));
    const char *cfg[] = {
        "sweep", g, "--ring-task-window", "16,64", "--engine", "parallel", "--cfg=foo:{#}", "-o", out, NULL};
    expect_error(
        cfg, 2,
        "ptosim sweep: --engine parallel: '--cfg=foo:{#}' holds a '{', which GNU parallel would replace "
        "with its own strings ({}, {#}, ...); run it with --engine local or slurm\n");
    /* the platform of every combination of the thread count and the --set lists, named when one is refused:
     * 4 threads are 3 schedulers, more than 1 cluster */
    const char *plat[] = {"sweep", g, "--set", "clusters=1,2", "--aicpu-thread-num", "4", "-o", out, NULL};
    expect_error(plat, 2,
                 "ptosim sweep: platform a2a3: aicpu_threads=4: more schedulers than clusters (1) (at --set "
                 "clusters=1 --aicpu-thread-num 4)\n");
    /* at most 24 lists past the run's knobs, and 1000 generated graphs */
    const char *many[64] = {"sweep", g};
    char sets[25][32];
    int n = 2;
    for (int i = 0; i < 25; i++) {
        snprintf(sets[i], sizeof(sets[i]), "k%d=1,2", i);
        many[n++] = "--set";
        many[n++] = sets[i];
    }
    many[n++] = "-o";
    many[n++] = out;
    many[n] = NULL;
    expect_error(many, 2,
                 "ptosim sweep: more than 24 --set, --kernel-set and --gen-* lists; split the sweep\n");
    static char ks[1001 * 6];
    size_t used = 0;
    for (int i = 1; i <= 1001; i++)
        used += (size_t)snprintf(ks + used, sizeof(ks) - used, "%s%d", i > 1 ? "," : "", i);
    const char *graphs[] = {"sweep", "gen:granularity", "--gen-k", ks, "-o", out, NULL};
    expect_error(graphs, 2, "ptosim sweep: the --gen-* lists make more than 1000 graphs; split the sweep\n");
    ck_assert(!tu_exists(out));
    free(nl);
    free(braces);
    free(out);
}
END_TEST

START_TEST(help_lists_the_knobs_and_engines)
{
    const char *help[] = {"sweep", "--help", NULL};
    run_out r = tu_run(help);
    ck_assert_int_eq(r.status, 0);
    const char *must[] = {"--ring-task-window LIST",
                          "--ring-heap LIST",
                          "--ring-dep-pool LIST",
                          "--aicpu-thread-num LIST",
                          "--engine ENGINE",
                          "\n                                slurm: write DIR/sweep.sbatch",
                          "\n                                parallel: run the points through GNU parallel",
                          "--collect DIR",
                          "--point I",
                          "-j, --jobs N",
                          "--set KEY=LIST",
                          "--kernel-set NAME.FIELD=LIST",
                          "--gen-PARAM LIST",
                          "gen:KIND",
                          NULL};
    for (int i = 0; must[i]; i++)
        ck_assert_msg(strstr(r.out, must[i]) != NULL, "%s missing from\n%s", must[i], r.out);
    tu_run_free(&r);
    const char *top[] = {"--help", NULL};
    r = tu_run(top);
    ck_assert_msg(strstr(r.out, "\n  sweep GRAPH") != NULL, "%s", r.out);
    tu_run_free(&r);
}
END_TEST

/* --ring-dep-pool 4,5,...: n points. */
static char *dep_pool_list(int n)
{
    char *list = malloc((size_t)n * 8 + 1), *w = list;
    for (int i = 0; i < n; i++)
        w += sprintf(w, "%s%d", i ? "," : "", 4 + i);
    return list;
}

START_TEST(a_job_array_past_slurms_max_array_size_warns_on_stderr)
{
    /* MaxArraySize 1001 takes task indices 0-1000: 1001 points fit, 1002 do not */
    for (int n = 1001; n <= 1002; n++) {
        const char *dir = tu_tmpdir();
        char *out = path_in(dir, "s"), *list = dep_pool_list(n);
        const char *args[] = {
            "sweep", TRACE("chain3.jsonl"), "--ring-dep-pool", list, "--engine", "slurm", "-o", out, NULL};
        run_out r = tu_run(args);
        ck_assert_msg(r.status == 0, "%s", r.err);
        ck_assert_str_eq(r.err, n == 1001
                                    ? ""
                                    : "ptosim: warning: a job array of 1002 tasks (indices 0-1001) is past "
                                      "Slurm's default MaxArraySize of 1001 (indices 0-1000); ask your "
                                      "admins, or split the sweep\n");
        ck_assert_msg(strstr(r.out, "note:") == NULL, "%s", r.out);
        tu_run_free(&r);
        free(list);
        free(out);
    }
}
END_TEST

START_TEST(a_points_csv_that_is_not_a_sweeps_is_named)
{
    /* --collect and --best read DIR/points.csv first: each way it can be wrong, with its line */
    const char *dir = tu_tmpdir();
    const char *col[] = {"sweep", "--collect", dir, NULL}, *best[] = {"sweep", "--best", dir, NULL};
    char want[8192];
    free(tu_write(dir, "points.csv", "point,dir\n0,points/0000\n"));
    snprintf(want, sizeof(want),
             "ptosim sweep: %s/points.csv: not a sweep's list of points (the first line is not "
             "point,dir,ring_task_window,ring_heap,ring_dep_pool,aicpu_thread_num)\n",
             dir);
    expect_error(col, 2, want);
    expect_error(best, 2, want);
    const char *bad[] = {"0,points/0000,4,,,\n2,points/0002,8,,,\n", "0,points/0000,4,,\n",
                         "0,/etc/points,4,,,\n", "0,../points/0000,4,,,\n"};
    const int line[] = {3, 2, 2, 2};
    for (int i = 0; i < 4; i++) {
        char text[512];
        snprintf(text, sizeof(text),
                 "point,dir,ring_task_window,ring_heap,ring_dep_pool,aicpu_thread_num\n%s", bad[i]);
        free(tu_write(dir, "points.csv", text));
        snprintf(want, sizeof(want),
                 "ptosim sweep: %s/points.csv:%d: not a point line (point,dir,4 knob values)\n", dir,
                 line[i]);
        expect_error(col, 2, want);
        expect_error(best, 2, want);
    }
    free(
        tu_write(dir, "points.csv", "point,dir,ring_task_window,ring_heap,ring_dep_pool,aicpu_thread_num\n"));
    snprintf(want, sizeof(want), "ptosim sweep: %s/points.csv lists no point\n", dir);
    expect_error(col, 2, want);
    expect_error(best, 2, want);
}
END_TEST

START_TEST(a_sweep_killed_midway_resumes_to_the_same_csv)
{
    /* twelve points of a paged attention one after another (about a second in all); the whole process group
     * is killed (as a lost node or a wall-clock limit would) once the first row is in; no point is left with
     * a partial row, and --resume runs the others to the sweep.csv of a sweep never cut short */
    const char *dir = tu_tmpdir();
    char cmd[4096];
    snprintf(cmd, sizeof(cmd), "%s gen paged_attention --batch 64 --context 8192 > %s/pa.jsonl", PTOSIM_BIN,
             dir);
    ck_assert_int_eq(sh(cmd), 0);
    char *g = path_in(dir, "pa.jsonl"), *cut = path_in(dir, "cut"), *ref = path_in(dir, "ref");
    const char *lists = "256,1024,4096,16384", *heaps = "16777216,67108864,268435456";
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        int devnull = open("/dev/null", O_WRONLY);
        dup2(devnull, 1);
        dup2(devnull, 2);
        execl(PTOSIM_BIN, PTOSIM_BIN, "sweep", g, "--ring-task-window", lists, "--ring-heap", heaps, "-j",
              "1", "-o", cut, (char *)NULL);
        _exit(127);
    }
    setpgid(pid, pid);
    char *row0 = path_in(cut, "points/0000/row.csv");
    for (int i = 0; i < 3000 && !tu_exists(row0); i++)
        usleep(2000);
    ck_assert_msg(tu_exists(row0), "no row after 6 s");
    kill(-pid, SIGKILL);
    int st;
    waitpid(pid, &st, 0);
    ck_assert(WIFSIGNALED(st));
    /* the running point is in its own process group and dies with the sweep (its parent-death signal), a
     * moment later: it must, or it would run on holding its folder's lock; wait for the locks to be free */
    for (int i = 0; i < 12; i++) {
        char name[64];
        snprintf(name, sizeof(name), "points/%04d", i);
        char *pd = path_in(cut, name);
        int fd = open(pd, O_RDONLY | O_DIRECTORY);
        int free_now = fd < 0;
        for (int t = 0; t < 2500 && !free_now; t++) {
            free_now = flock(fd, LOCK_EX | LOCK_NB) == 0;
            if (!free_now)
                usleep(2000);
        }
        ck_assert_msg(free_now, "point %d still locked 5 s after its sweep was killed", i);
        if (fd >= 0)
            close(fd);
        free(pd);
    }
    int done = 0;
    for (int i = 0; i < 12; i++) {
        char name[64];
        snprintf(name, sizeof(name), "points/%04d/row.csv", i);
        char *row = read_in(cut, name);
        if (row) { /* a row is whole or absent */
            ck_assert_int_eq(count_lines(row), 2);
            done++;
        }
        free(row);
    }
    ck_assert_msg(done >= 1 && done < 12, "%d rows when killed", done);
    const char *resume[] = {"sweep", g,   "--ring-task-window", lists, "--ring-heap", heaps, "--resume",
                            cut,     NULL};
    run_out r = tu_run(resume);
    ck_assert_msg(r.status == 0, "%s", r.err);
    char want[8192];
    snprintf(
        want, sizeof(want),
        "ptosim sweep: resuming %s: %d of 12 points have their row; %d to run\nptosim sweep: 12 points -> "
        "%s/sweep.csv\n",
        cut, done, 12 - done, cut);
    ck_assert_str_eq(r.out, want);
    tu_run_free(&r);
    const char *whole[] = {"sweep", g, "--ring-task-window", lists, "--ring-heap", heaps, "-o", ref, NULL};
    r = tu_run(whole);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char *a = read_in(cut, "sweep.csv"), *b = read_in(ref, "sweep.csv");
    ck_assert_int_eq(count_lines(a), 13);
    ck_assert_str_eq(a, b);
    free(a);
    free(b);
    free(row0);
    free(g);
    free(cut);
    free(ref);
}
END_TEST

START_TEST(resume_hands_only_the_unfinished_points_to_slurm_and_parallel)
{
    const char *dir = tu_tmpdir();
    char *g = write_scoped_fan(dir), *local = path_in(dir, "local"), *arr = path_in(dir, "array"),
         *par = path_in(dir, "par");
    const char *lo[] = {
        "sweep", g,   "--ring-task-window", "0/4/0/0,0/64/0/0", "--ring-heap", "1048576,268435456", "-o",
        local,   NULL};
    run_out r = tu_run(lo);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    /* Slurm: tasks 0 and 2 ran before the allocation ended; the resumed array holds tasks 1 and 3 */
    const char *sl[] = {"sweep",
                        g,
                        "--ring-task-window",
                        "0/4/0/0,0/64/0/0",
                        "--ring-heap",
                        "1048576,268435456",
                        "--engine",
                        "slurm",
                        "-j",
                        "2",
                        "-o",
                        arr,
                        NULL};
    r = tu_run(sl);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char cmd[4096];
    for (int i = 0; i < 4; i += 2) {
        snprintf(cmd, sizeof(cmd), "SLURM_ARRAY_TASK_ID=%d sh %s/sweep.sbatch", i, arr);
        ck_assert_int_eq(sh(cmd), 0);
    }
    const char *sr[] = {"sweep",
                        g,
                        "--ring-task-window",
                        "0/4/0/0,0/64/0/0",
                        "--ring-heap",
                        "1048576,268435456",
                        "--engine",
                        "slurm",
                        "-j",
                        "2",
                        "--resume",
                        arr,
                        NULL};
    r = tu_run(sr);
    ck_assert_msg(r.status == 0, "%s", r.err);
    char want[4096];
    snprintf(
        want, sizeof(want),
        "ptosim sweep: resuming %s: 2 of 4 points have their row; 2 to run\nptosim sweep: 2 of 4 points to "
        "run; wrote ",
        arr);
    ck_assert_msg(tu_starts(r.out, want), "%s", r.out);
    tu_run_free(&r);
    char *script = read_in(arr, "sweep.sbatch");
    ck_assert_msg(strstr(script, "\n#SBATCH --array=1,3%2\n") != NULL, "%s", script);
    free(script);
    for (int i = 1; i < 4; i += 2) {
        snprintf(cmd, sizeof(cmd), "SLURM_ARRAY_TASK_ID=%d sh %s/sweep.sbatch", i, arr);
        ck_assert_int_eq(sh(cmd), 0);
    }
    snprintf(cmd, sizeof(cmd), "sh %s/collect.sbatch >/dev/null", arr);
    ck_assert_int_eq(sh(cmd), 0);
    char *a = read_in(local, "sweep.csv"), *b = read_in(arr, "sweep.csv");
    ck_assert_str_eq(a, b);
    free(b);
    /* every row there: a resumed Slurm sweep has nothing to submit and merges at once */
    r = tu_run(sr);
    ck_assert_msg(r.status == 0, "%s", r.err);
    snprintf(want, sizeof(want),
             "ptosim sweep: resuming %s: 4 of 4 points have their row; 0 to run\nptosim sweep: 4 points -> "
             "%s/sweep.csv\n",
             arr, arr);
    ck_assert_str_eq(r.out, want);
    tu_run_free(&r);
    /* GNU parallel (a stand-in that runs each line of the :::: file): only point 1 is listed */
    char *fake = tu_write(dir, "parallel",
                          "#!/bin/bash\n"
                          "args=(\"$@\")\n"
                          "n=${#args[@]}\n"
                          "i=0; while [[ ${args[i+1]} != sweep ]]; do i=$((i + 1)); done\n"
                          "cmd=(\"${args[@]:i:n-i-2}\")\n"
                          "while read -r p; do \"${cmd[@]//\\{\\}/$p}\"; done < \"${args[n-1]}\"\n");
    chmod(fake, 0755);
    char *oldpath = strdup(getenv("PATH"));
    setenv("PATH", dir, 1);
    const char *pa[] = {"sweep",
                        g,
                        "--ring-task-window",
                        "0/4/0/0,0/64/0/0",
                        "--ring-heap",
                        "1048576,268435456",
                        "--engine",
                        "parallel",
                        "-o",
                        par,
                        NULL};
    r = tu_run(pa);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char *row1 = path_in(par, "points/0001/row.csv");
    ck_assert_int_eq(unlink(row1), 0);
    free(row1);
    pa[8] = "--resume";
    r = tu_run(pa);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char *list = read_in(par, "points.txt");
    ck_assert_str_eq(list, "1\n");
    b = read_in(par, "sweep.csv");
    ck_assert_str_eq(a, b);
    setenv("PATH", oldpath, 1);
    free(oldpath);
    free(list);
    free(a);
    free(b);
    free(fake);
    free(g);
    free(local);
    free(arr);
    free(par);
}
END_TEST

/* -o takes an empty (or missing) folder or its own sweep's, nothing else: a run's folder, another sweep's
 * and a folder of other files are refused with status 2, saying what they hold, and nothing is written */
START_TEST(sweep_o_refuses_a_folder_of_a_run_or_of_another_sweep)
{
    const char *dir = tu_tmpdir();
    char *text = tu_read(TRACE("chain3.jsonl"));
    char *g = tu_write(dir, "g.jsonl", text), *h = tu_write(dir, "h.jsonl", text), want[8192];
    /* a run's folder: the sweep would sit beside it, and report would draw both on one page */
    char *run_dir = path_in(dir, "run");
    const char *run[] = {"run", g, "-o", run_dir, "--quiet", NULL};
    run_out r = tu_run(run);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    const char *into_run[] = {"sweep", g, "--ring-task-window", "4,8", "-o", run_dir, NULL};
    snprintf(
        want, sizeof(want),
        "ptosim sweep: -o %s holds a run (ptosim_run.json), not a sweep; a sweep writes only into an empty "
        "folder or its own sweep's: give another -o DIR\n",
        run_dir);
    expect_error(into_run, 2, want);
    const char *resume_run[] = {"sweep", g, "--ring-task-window", "4,8", "--resume", run_dir, NULL};
    snprintf(
        want, sizeof(want),
        "ptosim sweep: --resume %s holds a run (ptosim_run.json), not a sweep; a sweep writes only into an "
        "empty folder or its own sweep's: give another --resume DIR\n",
        run_dir);
    expect_error(resume_run, 2, want);
    char p[4400];
    snprintf(p, sizeof(p), "%s/points.csv", run_dir);
    ck_assert(!tu_exists(p));
    snprintf(p, sizeof(p), "%s/sweep.cmd", run_dir);
    ck_assert(!tu_exists(p));
    snprintf(p, sizeof(p), "%s/points", run_dir);
    ck_assert(!tu_exists(p));
    /* another graph's sweep: its sweep.csv, points.csv and sweep.cmd stay as they are */
    char *out = path_in(dir, "s");
    const char *first[] = {"sweep", g, "--ring-task-window", "4,8", "-o", out, NULL};
    r = tu_run(first);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char *csv = read_in(out, "sweep.csv"), *points = read_in(out, "points.csv"),
         *cmd = read_in(out, "sweep.cmd");
    const char *other[] = {"sweep", h, "--ring-task-window", "4,8", "-o", out, NULL};
    snprintf(
        want, sizeof(want),
        "ptosim sweep: -o %s holds another sweep (of another graph, other knob lists or other run options):\n"
        "  there: '%s' --ring-task-window '4,8'\n"
        "  this:  '%s' --ring-task-window '4,8'\n"
        "go on with that one with ptosim sweep --resume %s, or give this one another -o DIR\n",
        out, g, h, out);
    expect_error(other, 2, want);
    const char *lists[] = {"sweep", g, "--ring-task-window", "4,8,16", "-o", out, NULL};
    snprintf(
        want, sizeof(want),
        "ptosim sweep: -o %s holds another sweep (of another graph, other knob lists or other run options):\n"
        "  there: '%s' --ring-task-window '4,8'\n"
        "  this:  '%s' --ring-task-window '4,8,16'\n"
        "go on with that one with ptosim sweep --resume %s, or give this one another -o DIR\n",
        out, g, g, out);
    expect_error(lists, 2, want);
    char *csv2 = read_in(out, "sweep.csv"), *points2 = read_in(out, "points.csv"),
         *cmd2 = read_in(out, "sweep.cmd");
    ck_assert_str_eq(csv2, csv);
    ck_assert_str_eq(points2, points);
    ck_assert_str_eq(cmd2, cmd);
    /* its own sweep (the same command, the graph edited since) is run again from the start */
    char *more = malloc(strlen(text) + 64);
    sprintf(more, "%s{\"op\": \"user_code\", \"ns\": 5}\n", text);
    free(tu_write(dir, "g.jsonl", more));
    r = tu_run(first);
    ck_assert_msg(r.status == 0, "%s", r.err);
    snprintf(want, sizeof(want), "ptosim sweep: 2 points -> %s/sweep.csv\n", out);
    ck_assert_str_eq(r.out, want);
    tu_run_free(&r);
    /* a folder of other files: named, first three in byte order */
    char *misc = path_in(dir, "misc");
    ck_assert_int_eq(mkdir(misc, 0755), 0);
    free(tu_write(misc, "notes.txt", "x"));
    free(tu_write(misc, "b", "x"));
    free(tu_write(misc, "a", "x"));
    free(tu_write(misc, "c", "x"));
    const char *into_misc[] = {"sweep", g, "--ring-task-window", "4,8", "-o", misc, NULL};
    snprintf(
        want, sizeof(want),
        "ptosim sweep: -o %s is not empty and holds no sweep (no points.csv and sweep.cmd; it holds a, b, c "
        "and 1 more); a sweep writes only into an empty folder or its own sweep's: give another -o DIR\n",
        misc);
    expect_error(into_misc, 2, want);
    snprintf(p, sizeof(p), "%s/points.csv", misc);
    ck_assert(!tu_exists(p));
    /* an empty folder is taken */
    char *empty = path_in(dir, "empty");
    ck_assert_int_eq(mkdir(empty, 0755), 0);
    const char *into_empty[] = {"sweep", g, "--ring-task-window", "4,8", "-o", empty, NULL};
    r = tu_run(into_empty);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    free(csv), free(points), free(cmd), free(csv2), free(points2), free(cmd2);
    free(more), free(misc), free(empty), free(out), free(run_dir), free(g), free(h), free(text);
}
END_TEST

/* `ptosim sweep --resume DIR` alone: GRAPH, the lists and the run options are DIR/sweep.cmd's, split as the
 * sweep wrote them and never run through a shell; the command the messages give is that one, DIR quoted
 * for sh when it must be. A sweep.cmd the sweep did not write is refused, naming what is wrong. */
START_TEST(resume_alone_takes_the_command_from_sweep_cmd)
{
    const char *dir = tu_tmpdir();
    char *text = tu_read(TRACE("chain3.jsonl"));
    char *g = tu_write(dir, "g.jsonl", text), *out = path_in(dir, "s x"), want[8192];
    const char *args[] = {"sweep",
                          g,
                          "--ring-task-window",
                          "4,8,16",
                          "--set",
                          "hbm_bw=1.6e12,3.2e12",
                          "--enable-dep-gen",
                          "-o",
                          out,
                          NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char *csv = read_in(out, "sweep.csv");
    char p[4400];
    snprintf(p, sizeof(p), "%s/points/0001/row.csv", out);
    ck_assert_int_eq(unlink(p), 0);
    snprintf(p, sizeof(p), "%s/points/0004/row.csv", out);
    ck_assert_int_eq(unlink(p), 0);
    snprintf(p, sizeof(p), "%s/sweep.csv", out);
    ck_assert_int_eq(unlink(p), 0);
    const char *alone[] = {"sweep", "--resume", out, NULL};
    r = tu_run(alone);
    ck_assert_msg(r.status == 0 && !r.err[0], "%d %s", r.status, r.err);
    snprintf(want, sizeof(want),
             "ptosim sweep: resuming %s: 4 of 6 points have their row; 2 to run\n"
             "ptosim sweep: 6 points -> %s/sweep.csv\n",
             out, out);
    ck_assert_str_eq(r.out, want);
    tu_run_free(&r);
    char *again = read_in(out, "sweep.csv");
    ck_assert_str_eq(again, csv);
    free(again);
    /* --resume=DIR, with the sweep's own options after it */
    char eq[4400];
    snprintf(eq, sizeof(eq), "--resume=%s", out);
    const char *alone_eq[] = {"sweep", eq, "-j", "1", NULL};
    r = tu_run(alone_eq);
    ck_assert_msg(r.status == 0 && !r.err[0], "%d %s", r.status, r.err);
    snprintf(want, sizeof(want),
             "ptosim sweep: resuming %s: 6 of 6 points have their row; 0 to run\n"
             "ptosim sweep: 6 points -> %s/sweep.csv\n",
             out, out);
    ck_assert_str_eq(r.out, want);
    tu_run_free(&r);
    /* a point without a row: the message gives the command that runs it, the folder quoted for sh */
    char *blocker = path_in(out, "points/0002/dfx_outputs"), cmd[9000];
    snprintf(cmd, sizeof(cmd), "rm -r '%s' '%s/points/0002/row.csv' && : > '%s'", blocker, out, blocker);
    ck_assert_int_eq(sh(cmd), 0);
    r = tu_run(alone);
    ck_assert_int_eq(r.status, 1);
    snprintf(want, sizeof(want),
             "ptosim sweep: 1 of 6 points gave no row (status \"missing\" in %s/sweep.csv); ptosim sweep "
             "--resume '%s' runs only those\n",
             out, out);
    ck_assert_msg(strstr(r.err, want) != NULL, "%s", r.err);
    tu_run_free(&r);
    ck_assert_int_eq(unlink(blocker), 0);
    r = tu_run(alone);
    ck_assert_msg(r.status == 0 && !r.err[0], "%d %s", r.status, r.err);
    tu_run_free(&r);
    again = read_in(out, "sweep.csv");
    ck_assert_str_eq(again, csv);
    free(again);
    /* with GRAPH and options too, the command typed is checked against the folder's as ever */
    const char *other[] = {
        "sweep", g, "--ring-task-window", "4,8,16", "--set", "hbm_bw=1.6e12,3.2e12", "--resume", out, NULL};
    snprintf(want, sizeof(want),
             "ptosim sweep: --resume %s: the sweep there is of another graph or other run options:\n"
             "  then: '%s' --ring-task-window '4,8,16' --set 'hbm_bw=1.6e12,3.2e12' '--enable-dep-gen'\n"
             "  now:  '%s' --ring-task-window '4,8,16' --set 'hbm_bw=1.6e12,3.2e12'\n"
             "resume with the same command, or start a new sweep with -o\n",
             out, g, g);
    expect_error(other, 2, want);
    /* a sweep.cmd the sweep did not write: nothing of it runs, and nothing is written */
    char *sent = path_in(dir, "sent");
    ck_assert_int_eq(mkdir(sent, 0755), 0);
    const char *resume_sent[] = {"sweep", "--resume", sent, NULL};
    snprintf(
        want, sizeof(want),
        "ptosim sweep: --resume %s: cannot read %s/sweep.cmd: No such file or directory; give the sweep's "
        "command: ptosim sweep GRAPH [KNOB LIST ...] [run options] --resume %s\n",
        sent, sent, sent);
    expect_error(resume_sent, 2, want);
    free(tu_write(sent, "sweep.cmd", "'g.jsonl' $(touch pwned) --ring-task-window '4'\n"));
    snprintf(
        want, sizeof(want),
        "ptosim sweep: --resume %s: %s/sweep.cmd is not a command ptosim sweep wrote (a byte ptosim sweep "
        "writes only in quotes, at byte 10); give the sweep's command: ptosim sweep GRAPH [KNOB LIST ...] "
        "[run options] --resume %s\n",
        sent, sent, sent);
    expect_error(resume_sent, 2, want);
    free(tu_write(sent, "sweep.cmd", "'g.jsonl' --ring-task-window '4\n"));
    snprintf(
        want, sizeof(want),
        "ptosim sweep: --resume %s: %s/sweep.cmd is not a command ptosim sweep wrote (a quote that is not "
        "closed, at byte 29); give the sweep's command: ptosim sweep GRAPH [KNOB LIST ...] [run options] "
        "--resume %s\n",
        sent, sent, sent);
    expect_error(resume_sent, 2, want);
    free(tu_write(sent, "sweep.cmd", "'g.jsonl' --ring-task-window '4' '--engine' 'parallel'\n"));
    snprintf(want, sizeof(want),
             "ptosim sweep: --resume %s: %s/sweep.cmd holds '--engine', an option of the sweep itself, which "
             "ptosim sweep never writes there; give the sweep's command: ptosim sweep GRAPH [KNOB LIST ...] "
             "[run options] --resume %s\n",
             sent, sent, sent);
    expect_error(resume_sent, 2, want);
    free(tu_write(sent, "sweep.cmd", "'g.jsonl' '-o' '/tmp'\n"));
    snprintf(want, sizeof(want),
             "ptosim sweep: --resume %s: %s/sweep.cmd holds '-o', an option of the sweep itself, which "
             "ptosim sweep never writes there; give the sweep's command: ptosim sweep GRAPH [KNOB LIST ...] "
             "[run options] --resume %s\n",
             sent, sent, sent);
    expect_error(resume_sent, 2, want);
    const char *nodir[] = {"sweep", "--resume", NULL};
    expect_error(nodir, 2, "ptosim sweep: --resume: missing DIR\n");
    snprintf(p, sizeof(p), "%s/pwned", sent);
    ck_assert(!tu_exists(p));
    snprintf(p, sizeof(p), "%s/points.csv", sent);
    ck_assert(!tu_exists(p));
    free(csv), free(blocker), free(sent), free(out), free(g), free(text);
}
END_TEST

START_TEST(resume_refuses_a_folder_of_another_sweep)
{
    const char *dir = tu_tmpdir();
    char *text = tu_read(TRACE("chain3.jsonl"));
    char *g = tu_write(dir, "g.jsonl", text), *out = path_in(dir, "s"), want[8192];
    /* --resume on a folder without a sweep starts one */
    const char *first[] = {"sweep", g, "--ring-task-window", "4,8", "--resume", out, NULL};
    run_out r = tu_run(first);
    ck_assert_msg(r.status == 0, "%s", r.err);
    snprintf(want, sizeof(want), "ptosim sweep: 2 points -> %s/sweep.csv\n", out);
    ck_assert_str_eq(r.out, want);
    tu_run_free(&r);
    char *cmd = read_in(out, "sweep.cmd");
    uint64_t then, now;
    ck_assert_int_eq(gcomp_hash_file(g, &then), 0);
    snprintf(want, sizeof(want),
             "'%s' --ring-task-window '4,8'\n# the graph: %zu bytes hashing to %016" PRIx64 "\n", g,
             strlen(text), then);
    ck_assert_str_eq(cmd, want);
    const char *lists[] = {"sweep", g, "--ring-task-window", "8,4", "--resume", out, NULL};
    snprintf(
        want, sizeof(want),
        "ptosim sweep: --resume %s: its points.csv lists other points than this command's knob lists give; "
        "resume with the same lists in the same order, or start a new sweep with -o\n",
        out);
    expect_error(lists, 2, want);
    const char *opts[] = {"sweep", g, "--ring-task-window", "4,8", "--enable-dep-gen", "--resume", out, NULL};
    snprintf(want, sizeof(want),
             "ptosim sweep: --resume %s: the sweep there is of another graph or other run options:\n"
             "  then: '%s' --ring-task-window '4,8'\n"
             "  now:  '%s' --ring-task-window '4,8' '--enable-dep-gen'\n"
             "resume with the same command, or start a new sweep with -o\n",
             out, g, g);
    expect_error(opts, 2, want);
    /* the graph edited since: its finished rows are of the old graph */
    char *more = malloc(strlen(text) + 64);
    sprintf(more, "%s{\"op\": \"user_code\", \"ns\": 5}\n", text);
    free(tu_write(dir, "g.jsonl", more));
    ck_assert_int_eq(gcomp_hash_file(g, &now), 0);
    snprintf(
        want, sizeof(want),
        "ptosim sweep: --resume %s: %s has changed since the sweep began (%zu bytes hashing to %016" PRIx64
        " then, %zu bytes hashing to %016" PRIx64 " now), so its finished points are of another graph; start "
        "the sweep again with -o\n",
        out, g, strlen(text), then, strlen(more), now);
    expect_error(first, 2, want);
    /* the same bytes written again (only its time changed): the sweep goes on */
    free(tu_write(dir, "g.jsonl", text));
    r = tu_run(first);
    ck_assert_msg(r.status == 0, "%s", r.err);
    snprintf(want, sizeof(want),
             "ptosim sweep: resuming %s: 2 of 2 points have their row; 0 to run\nptosim sweep: 2 points -> "
             "%s/sweep.csv\n",
             out, out);
    ck_assert_str_eq(r.out, want);
    tu_run_free(&r);
    free(more);
    free(cmd);
    free(out);
    free(g);
    free(text);
}
END_TEST

START_TEST(best_prints_the_fastest_ok_point_as_flags_and_runconfig)
{
    /* the scoped fan of the first test: window 4 on ring 1 takes >= 200 us, window 64 about 62 us, and the
     * dependency pool changes nothing, so points 2 and 3 tie and the first of them is the best */
    const char *dir = tu_tmpdir();
    char *g = write_scoped_fan(dir), *out = path_in(dir, "s");
    const char *args[] = {
        "sweep", g, "--ring-task-window", "0/4/0/0,0/64/0/0", "--ring-dep-pool", "16,64", "-o", out, NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char *csv = read_in(out, "sweep.csv"), *line = line_of(csv, 3), *ms = field(line, 8);
    ck_assert_msg(atof(ms) < 100, "%s", ms);
    const char *best[] = {"sweep", "--best", out, NULL};
    r = tu_run(best);
    ck_assert_msg(r.status == 0, "%s", r.err);
    char want[4096];
    snprintf(want, sizeof(want),
             "point 2 of 4 (points/0002): makespan %s us\n--ring-task-window 0,64,0,0 --ring-dep-pool 16\n"
             "RunConfig(platform=\"a2a3\", ring_task_window=[0, 64, 0, 0], ring_dep_pool=16)\n",
             ms);
    ck_assert_str_eq(r.out, want);
    ck_assert_str_eq(r.err, "");
    tu_run_free(&r);
    /* the flags are ptosim run's: the best point reruns to the same row */
    char cmd[8192];
    snprintf(cmd, sizeof(cmd),
             "%s run %s $(%s sweep --best %s | sed -n 2p) --summary-csv | tail -n 1 > %s/again.csv",
             PTOSIM_BIN, g, PTOSIM_BIN, out, dir);
    ck_assert_int_eq(sh(cmd), 0);
    char *again = read_in(dir, "again.csv"), *row2 = read_in(out, "points/0002/row.csv");
    ck_assert_str_eq(again, strchr(row2, '\n') + 1);
    free(again);
    free(row2);
    /* with --repeat the mean over the seeds decides (the platform's spreads make the seeds differ), and
     * --best names the point with the least mean: field 21 of 26, after repeat_runs */
    char *rp = path_in(dir, "rp");
    const char *rargs[] = {"sweep", g,   "--ring-task-window", "0/4/0/0,0/64/0/0", "--repeat", "3", "-o",
                           rp,      NULL};
    r = tu_run(rargs);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char *rcsv = read_in(rp, "sweep.csv"), *r1 = line_of(rcsv, 1), *r2 = line_of(rcsv, 2);
    char *m1 = field(r1, 21), *m2 = field(r2, 21), *n2 = field(r2, 20);
    ck_assert_msg(atof(m2) < atof(m1), "%s %s", m1, m2);
    ck_assert_str_eq(n2, "3");
    const char *rbest[] = {"sweep", "--best", rp, NULL};
    r = tu_run(rbest);
    ck_assert_msg(r.status == 0, "%s", r.err);
    snprintf(want, sizeof(want),
             "point 1 of 2 (points/0001): mean makespan %s us over 3 seeds\n--ring-task-window 0,64,0,0\n"
             "RunConfig(platform=\"a2a3\", ring_task_window=[0, 64, 0, 0])\n",
             m2);
    ck_assert_str_eq(r.out, want);
    tu_run_free(&r);
    free(m1);
    free(m2);
    free(n2);
    free(r1);
    free(r2);
    free(rcsv);
    free(rp);
    /* a point missing: the best of the others, said so, exit 1 */
    snprintf(cmd, sizeof(cmd), "rm %s/points/0003/row.csv && %s sweep --collect %s >/dev/null 2>&1", out,
             PTOSIM_BIN, out);
    sh(cmd);
    r = tu_run(best);
    ck_assert_int_eq(r.status, 1);
    ck_assert(tu_starts(r.out, "point 2 of 4 (points/0002)"));
    snprintf(
        want, sizeof(want),
        "ptosim sweep: --best: 1 of 4 points of %s have no row (status missing): that is the best of the "
        "others; ptosim sweep --resume %s runs the rest\n",
        out, out);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    free(ms);
    free(line);
    free(csv);
    free(out);
    free(g);
}
END_TEST

START_TEST(best_names_what_it_cannot_use)
{
    const char *dir = tu_tmpdir();
    char *out = path_in(dir, "s"), want[8192];
    /* no point ended ok: fan200 in one scope of 200 tasks fails the scope pre-check at windows 4 and 8 */
    const char *fail[] = {"sweep", TRACE("fan200.jsonl"), "--ring-task-window", "4,8", "-o", out, NULL};
    run_out r = tu_run(fail);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    const char *best[] = {"sweep", "--best", out, NULL};
    snprintf(want, sizeof(want),
             "ptosim sweep: --best: no point of %s ended ok (2 points, 0 missing); nothing to recommend\n",
             out);
    expect_error(best, 1, want);
    /* a bad makespan in an ok row */
    char *csv = read_in(out, "sweep.csv");
    char *p = strstr(csv, "runtime_error");
    ck_assert_ptr_nonnull(p);
    memcpy(p, "ok,", 3);
    memmove(p + 3, p + strlen("runtime_error,"), strlen(p + strlen("runtime_error,")) + 1);
    char *fields = strchr(p + 3, ','); /* code, then exit, then makespan */
    fields = strchr(fields + 1, ',');
    fields[1] = 'x';
    free(tu_write(out, "sweep.csv", csv));
    char *bad = read_in(out, "sweep.csv"), *line = line_of(bad, 1), *ms = field(line, 8);
    snprintf(want, sizeof(want), "ptosim sweep: --best: %s/sweep.csv:2: makespan_us: '%s' is not a number\n",
             out, ms);
    expect_error(best, 2, want);
    /* rows and points that do not pair up */
    free(tu_write(out, "sweep.csv", HEADER));
    snprintf(want, sizeof(want),
             "ptosim sweep: --best: %s/sweep.csv has 0 rows, %s/points.csv lists 2 points\n", out, out);
    expect_error(best, 2, want);
    free(tu_write(out, "sweep.csv", "graph,platform\n"));
    snprintf(want, sizeof(want),
             "ptosim sweep: --best: %s/sweep.csv: no status column (not a sweep's merged rows)\n", out);
    expect_error(best, 2, want);
    char *csvp = path_in(out, "sweep.csv");
    unlink(csvp);
    snprintf(want, sizeof(want),
             "ptosim sweep: --best: %s/sweep.csv: cannot read: No such file or directory (ptosim sweep "
             "--collect %s "
             "writes it from the points' rows)\n",
             out, out);
    expect_error(best, 2, want);
    const char *none[] = {"sweep", "--best", dir, NULL};
    snprintf(
        want, sizeof(want),
        "ptosim sweep: %s/points.csv: cannot read: No such file or directory (is %s a sweep's folder?)\n",
        dir, dir);
    expect_error(none, 2, want);
    free(csvp);
    free(ms);
    free(line);
    free(bad);
    free(csv);
    free(out);
}
END_TEST

Suite *suite_sweep(void)
{
    Suite *s = suite_create("sweep");
    TCase *tc = tcase_create("sweep");
    tcase_add_test(tc, local_sweep_gives_one_row_per_point_in_nested_loop_order);
    tcase_add_test(tc, repeat_reaches_every_point_and_names_the_points_inside_the_noise);
    tcase_add_test(tc, shared_options_reach_every_point_and_thread_counts_sweep);
    tcase_add_test(tc, a_point_that_ends_in_a_runtime_error_still_gives_its_row);
    tcase_add_test(tc, j1_and_j2_give_byte_identical_csv);
    tcase_add_test(tc, a_name_with_a_comma_is_quoted_and_every_point_still_gives_its_row);
    tcase_add_test(tc, slurm_array_tasks_run_locally_merge_to_the_local_csv);
    tcase_add_test(tc, a_point_writes_byte_for_byte_what_ptosim_run_writes);
    tcase_add_test(tc, a_malformed_graph_stops_the_sweep_before_any_point_runs);
    tcase_add_test(tc, a_malformed_graph_leaves_a_finished_sweep_folder_as_it_was);
    tcase_add_test(tc, a_second_sweep_into_a_busy_folder_is_refused_at_once);
    tcase_add_test(tc, a_collect_into_a_busy_folder_waits_for_the_sweep_that_holds_it);
    tcase_add_test(tc, a_sweep_folder_that_cannot_be_opened_is_refused_before_anything_is_written);
    tcase_add_test(tc, a_sweep_on_a_file_system_without_locks_warns_and_runs);
    tcase_add_test(tc, a_point_job_refuses_a_compiled_graph_that_no_longer_fits);
    tcase_add_test(tc, a_graph_edited_keeping_its_size_and_time_is_not_taken_for_the_compiled_one);
    tcase_add_test(tc, resume_over_another_graphs_compiled_file_names_that_file);
    tcase_add_test(tc, a_point_job_refuses_a_forged_record);
    tcase_add_test(tc, a_compiled_graph_forged_in_range_is_never_run);
    tcase_add_test(tc, a_generated_graph_forged_in_a_sweep_folder_is_never_run);
    tcase_add_test(tc, a_signal_while_the_sweep_reads_its_graph_stops_it);
    tcase_add_test(tc, a_stopped_graph_reading_ends_at_its_next_line);
    tcase_add_test(tc, a_point_without_a_row_is_marked_missing_and_resume_runs_only_it);
    tcase_add_test(tc, collect_names_the_points_without_a_row);
    tcase_add_test(tc, a_points_csv_that_is_not_a_sweeps_is_named);
    tcase_add_test(tc, a_sweep_killed_midway_resumes_to_the_same_csv);
    tcase_add_test(tc, resume_hands_only_the_unfinished_points_to_slurm_and_parallel);
    tcase_add_test(tc, resume_refuses_a_folder_of_another_sweep);
    tcase_add_test(tc, sweep_o_refuses_a_folder_of_a_run_or_of_another_sweep);
    tcase_add_test(tc, resume_alone_takes_the_command_from_sweep_cmd);
    tcase_add_test(tc, best_prints_the_fastest_ok_point_as_flags_and_runconfig);
    tcase_add_test(tc, best_names_what_it_cannot_use);
    tcase_add_test(tc, parallel_engine_hands_the_points_to_gnu_parallel);
    tcase_add_test(tc, progress_shows_on_a_terminal_only);
    tcase_add_test(tc, every_command_line_error_is_named_before_any_point_runs);
    tcase_add_test(tc, help_lists_the_knobs_and_engines);
    tcase_add_test(tc, set_lists_sweep_a_platform_parameter_in_its_own_column);
    tcase_add_test(tc, kernel_set_lists_sweep_a_flag_of_a_kernels_submits);
    tcase_add_test(tc, gen_lists_sweep_the_generators_parameters);
    tcase_add_test(tc, knob_list_errors_are_named_before_anything_runs);
    tcase_add_test(tc, a_job_array_past_slurms_max_array_size_warns_on_stderr);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    return s;
}
