/* test_import.c - `ptosim import`: a capture round-trips through a graph file; bad captures are named. */
/* The real captures of sync-start early dispatch come out as the runtime ran them. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../sim/import/import.h"
#include "../sim/import/import_lex.h"
#include "../sim/import/import_state.h"
#include "../sim/json/json_stream.h"
#include "testutil.h"

/* Runs graph with dep gen, swimlane and (maybe) scope stats into dir; returns makespan in us. */
static double capture(const char *graph, const char *dir, bool scopes)
{
    const char *args[] = {"run",
                          graph,
                          "-o",
                          dir,
                          "--enable-dep-gen",
                          "--enable-chip-swimlane",
                          "1",
                          scopes ? "--enable-scope-stats" : "--quiet",
                          "--quiet",
                          NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char p[4200];
    snprintf(p, sizeof(p), "%s/ptosim_run.json", dir);
    cJSON *j = tu_json_file(p);
    double m = cJSON_GetObjectItem(j, "makespan_us")->valuedouble;
    cJSON_Delete(j);
    return m;
}

/* Imports dir's dfx_outputs into a graph file; returns its path. */
static char *import_of(const char *dir)
{
    char dfx[4200];
    snprintf(dfx, sizeof(dfx), "%s/dfx_outputs", dir);
    const char *args[] = {"import", dfx, NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    char *g = tu_write(dir, "imported.jsonl", r.out);
    tu_run_free(&r);
    return g;
}

static char *deps_of(const char *dir)
{
    char p[4200];
    snprintf(p, sizeof(p), "%s/dfx_outputs/deps.json", dir);
    return tu_read(p);
}

static void round_trip(const char *trace, bool scopes)
{
    const char *a = tu_tmpdir(), *b = tu_tmpdir();
    double m1 = capture(trace, a, scopes);
    char *g = import_of(a);
    double m2 = capture(g, b, scopes);
    /* the same tasks and edges (deps.json byte for byte), the makespan within 2 % */
    char *d1 = deps_of(a), *d2 = deps_of(b);
    ck_assert_msg(strcmp(d1, d2) == 0, "deps.json differs after the round trip of %s", trace);
    ck_assert_msg(m2 > m1 * 0.98 && m2 < m1 * 1.02, "%s: makespan %.3f us, imported %.3f us", trace, m1, m2);
    free(d1);
    free(d2);
    free(g);
}

START_TEST(a_capture_round_trips_through_import)
{
    round_trip(TRACE("forkjoin.jsonl"), true);
    round_trip(TRACE("default.jsonl"), true);
    round_trip(TRACE("mix_spmd.jsonl"), true);
    round_trip(TRACE("dump_stall.jsonl"), true);
}
END_TEST

START_TEST(without_scope_stats_the_scopes_follow_the_rings)
{
    round_trip(TRACE("forkjoin.jsonl"), false);
    round_trip(TRACE("default.jsonl"), false);
}
END_TEST

/* scope_stats.jsonl is read a window at a time: its lines are what strtok gives of the whole file -- empty lines
 * are not counted, a line longer than the 64 KiB window is read whole, and the text ends at a NUL */
START_TEST(scope_stats_lines_are_counted_past_the_window)
{
    const char *dir = tu_tmpdir();
    const char *args[] = {"import", dir, NULL};
    char sub[4200], want[8400];
    free(tu_write(dir, "deps.json", "{\"tasks\": [], \"tensors\": [], \"edges\": []}"));
    snprintf(sub, sizeof(sub), "%s/scope_stats", dir);
    ck_assert_int_eq(mkdir(sub, 0777), 0);
    const size_t site = 70000; /* past the window: read after it grew */
    char *text = malloc(site + 400);
    ck_assert_ptr_nonnull(text);
    int n = snprintf(text, 400, "{\"version\": 1}\n\n\n{\"phase\": \"begin\", \"depth\": 1, \"ring\": 0, "
                                "\"task_window_end\": 0, \"site\": \"");
    memset(text + n, 'a', site);
    snprintf(text + n + site, 400,
             "\"}\n\n\n\n{\"phase\": \"begin\", \"depth\": 1, \"ring\": 9, \"task_window_end\": 0}\n");
    free(tu_write(sub, "scope_stats.jsonl", text));
    free(text);
    run_out r = tu_run(args);
    ck_assert_int_eq(r.status, 3);
    snprintf(want, sizeof(want),
             "ptosim import: %s/scope_stats/scope_stats.jsonl: line 3: needs phase, depth, ring (0..3) and "
             "task_window_end (integers, as is heap_end when given)\n",
             dir);
    ck_assert_str_eq(r.err, want);
    ck_assert_str_eq(r.out, "");
    tu_run_free(&r);
    /* the bad sample after the NUL is never read */
    snprintf(want, sizeof(want), "%s/scope_stats.jsonl", sub);
    static const char NUL_TEXT[] = "{\"version\": 1}\n{\"phase\": \"begin\", \"depth\": 1, \"ring\": 0, "
                                   "\"task_window_end\": 0}\n{\"phase\": \"end\", \"depth\": 1, \"ring\": 0, "
                                   "\"task_window_end\": 0}\n\0{\"phase\": \"begin\", \"depth\": 1, \"ring\": 9, "
                                   "\"task_window_end\": 0}\n";
    FILE *f = fopen(want, "w");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(NUL_TEXT, 1, sizeof(NUL_TEXT) - 1, f), sizeof(NUL_TEXT) - 1);
    ck_assert_int_eq(fclose(f), 0);
    r = tu_run(args);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    ck_assert_ptr_nonnull(strstr(r.out, "{\"op\": \"scope_begin\", \"site\": \"(unknown):0\"}\n"
                                        "{\"op\": \"scope_end\"}"));
    tu_run_free(&r);
    unlink(want);
    rmdir(sub);
}
END_TEST

START_TEST(import_errors_name_the_file)
{
    const char *dir = tu_tmpdir();
    const char *args[] = {"import", dir, NULL};
    run_out r = tu_run(args);
    ck_assert_int_eq(r.status, 3);
    char want[4400];
    snprintf(want, sizeof(want),
             "ptosim import: %s/deps.json: cannot read: No such file or directory (capture with "
             "--enable-dep-gen)\n",
             dir);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    free(tu_write(dir, "deps.json", "{\"tasks\": [1, 2"));
    r = tu_run(args);
    ck_assert_int_eq(r.status, 3);
    snprintf(want, sizeof(want), "ptosim import: %s/deps.json:1:16: json: not valid JSON\n", dir);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    /* strict as a graph: a key given twice, bad UTF-8 (a site goes on into the graph) */
    free(tu_write(dir, "deps.json", "{\"tasks\": [],\n \"edges\": [], \"tasks\": []}"));
    r = tu_run(args);
    ck_assert_int_eq(r.status, 3);
    snprintf(want, sizeof(want), "ptosim import: %s/deps.json:2:15: tasks: duplicate key\n", dir);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    free(tu_write(dir, "deps.json", "{\"tasks\": [], \"tensors\": [], \"edges\": []}"));
    char sub[4200];
    snprintf(sub, sizeof(sub), "%s/scope_stats", dir);
    ck_assert_int_eq(mkdir(sub, 0777), 0);
    free(tu_write(sub, "scope_stats.jsonl", "{\"version\": 1}\n{\"site\": \"a\xc3.cpp:3\"}\n"));
    r = tu_run(args);
    ck_assert_int_eq(r.status, 3);
    snprintf(want, sizeof(want),
             "ptosim import: %s/scope_stats/scope_stats.jsonl:2:12: site: invalid UTF-8 in a string\n", dir);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    /* numbers past what they are cast to (found by make fuzz: 3.3e88 as a task_window_end) */
    free(tu_write(sub, "scope_stats.jsonl",
                  "{\"version\": 1}\n{\"phase\": \"begin\", \"depth\": 1, \"ring\": 1, "
                  "\"task_window_end\": 3.3e88}\n"));
    r = tu_run(args);
    ck_assert_int_eq(r.status, 3);
    snprintf(want, sizeof(want),
             "ptosim import: %s/scope_stats/scope_stats.jsonl: line 2: needs phase, depth, ring (0..3) and "
             "task_window_end (integers, as is heap_end when given)\n",
             dir);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    snprintf(want, sizeof(want), "%s/scope_stats.jsonl", sub);
    unlink(want);
    rmdir(sub);
#define TWO_TASKS                                                                                            \
    "{\"tasks\": [{\"task_id\": 0, \"kernel_ids\": [-1, 0, -1], \"args\": []}, {\"task_id\": 1, "           \
    "\"kernel_ids\": [-1, 0, -1], \"args\": []}], \"edges\": ["
#define END_EDGES "], \"tensors\": []}"
    static const struct {
        const char *deps, *err;
    } casts[] = {
        /* an object's members were read into a list sized for an array of none (a heap overflow) */
        {"{\"tasks\": [], \"edges\": [], \"tensors\": {\"a\": {\"tensor_id\": 1}, \"b\": {\"tensor_id\": 2}}}",
         "deps.json: \"tensors\" must be an array"},
        {"{\"tasks\": [], \"edges\": [], \"tensors\": [{\"tensor_id\": 1, \"buffer_addr\": 4096, "
         "\"buffer_numel\": 4, "
         "\"dtype\": \"INT8\", \"version\": 1e300}]}",
         "deps.json: tensors[0].version: must be an integer in [0, 2^31)"},
        {"{\"tasks\": [{\"task_id\": 0, \"kernel_ids\": [1e300, -1, -1], \"args\": []}], \"edges\": [], "
         "\"tensors\": []}",
         "deps.json: tasks[0].kernel_ids: func id 1.0000000000000001e+300 is out of range"},
        {"{\"tasks\": [{\"task_id\": 0, \"kernel_ids\": [-1, 0, -1], \"args\": []}, {\"task_id\": 1, "
         "\"kernel_ids\": [-1, 0, -1], \"args\": []}], \"edges\": [{\"pred\": 0, \"succ\": 1, \"source\": "
         "\"explicit\", \"arg\": 1e300}], \"tensors\": []}",
         "deps.json: edges[0].arg: must be an argument index"},
        /* bit 63 set: its high half is no ring, not ring -2147483648 (an index -1, found by make fuzz) */
        {"{\"tasks\": [{\"task_id\": \"9223372041149743104\", \"kernel_ids\": [-1, 0, -1], \"args\": []}], "
         "\"edges\": [], \"tensors\": []}",
         "deps.json: tasks[0].task_id: 9223372041149743104 names ring 2147483649 (rings are 0..3)"},
        {"{\"tasks\": [{\"task_id\": 0, \"kernel_ids\": [-1, 0, -1], \"args\": []}], \"edges\": [{\"pred\": "
         "\"18446744069414584320\", \"succ\": \"0\", \"source\": \"creator\"}], \"tensors\": []}",
         "deps.json: edges[0]: pred 18446744069414584320 of a creator edge is no task"},
        /* an edge is read from its text when that tells, from its tree otherwise: the same messages */
        {TWO_TASKS "{\"pred\": 0, \"succ\": 1, \"source\": \"explicit\", \"arg\": -2}" END_EDGES,
         "deps.json: edges[0].arg: must be an argument index"},
        {TWO_TASKS "{\"pred\": 0, \"succ\": 1, \"source\": \"explicit\", \"arg\": \"0\"}" END_EDGES,
         "deps.json: edges[0].arg: must be an argument index"},
        {TWO_TASKS "{\"pred\": 0, \"succ\": 1, \"source\": \"explicit\", \"arg\": 2147483648}" END_EDGES,
         "deps.json: edges[0].arg: must be an argument index"},
        {TWO_TASKS "{\"pred\": 0, \"succ\": 1, \"arg\": -1}" END_EDGES,
         "deps.json: edges[0]: needs pred, succ and source"},
        {TWO_TASKS "{\"pred\": 0, \"succ\": -1, \"source\": \"explicit\"}" END_EDGES,
         "deps.json: edges[0]: needs pred, succ and source"},
        {TWO_TASKS "{\"pred\": 0, \"succ\": \"7\", \"source\": \"explicit\"}" END_EDGES,
         "deps.json: edges[0]: succ 7 is not in tasks"},
        {TWO_TASKS "{\"pred\": 0, \"succ\": 1e0, \"source\": \"creator\\u0021\"}" END_EDGES,
         "deps.json: edges[0].source: \"creator!\" is not explicit, creator or tensormap"},
        {TWO_TASKS "{\"pred\": 0, \"succ\": 1, \"source\": "
                   "\"a-source-name-longer-than-sixty-four-bytes-that-the-text-reader-leaves-to-the-tree\"}" END_EDGES,
         "deps.json: edges[0].source: \"a-source-name-longer-than-sixty-four-bytes-that-the-text-reader-leaves-to-"
         "the-tree\" is not explicit, creator or tensormap"},
    };
    /* ids far past the listed tasks: a 90-byte capture asked for 2.4 GB of alloc tasks (make fuzz) */
    free(tu_write(dir, "deps.json",
                  "{\"tasks\": [{\"task_id\": 4294967296, \"kernel_ids\": [-1, 0, -1], \"args\": "
                  "[]}], \"edges\": [], \"tensors\": []}"));
    ck_assert_int_eq(mkdir(sub, 0777), 0);
    snprintf(want, sizeof(want), "%s/scope_stats.jsonl", sub);
    free(tu_write(sub, "scope_stats.jsonl",
                  "{\"version\": 1}\n{\"phase\": \"begin\", \"depth\": 1, \"ring\": 1, "
                  "\"task_window_end\": 60000000}\n"));
    r = tu_run(args);
    ck_assert_int_eq(r.status, 3);
    unlink(want);
    rmdir(sub);
    snprintf(
        want, sizeof(want),
        "ptosim import: %s/deps.json: the rings handed out 60000000 task ids but deps.json lists 1 tasks: "
        "the "
        "other 59999999 would all be alloc_tensors calls, more than the tasks (+65536); are its task ids or "
        "scope samples from another run?\n",
        dir);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    for (size_t i = 0; i < sizeof(casts) / sizeof(*casts); i++) {
        free(tu_write(dir, "deps.json", casts[i].deps));
        r = tu_run(args);
        ck_assert_int_eq(r.status, 3);
        snprintf(want, sizeof(want), "ptosim import: %s/%s\n", dir, casts[i].err);
        ck_assert_str_eq(r.err, want);
        tu_run_free(&r);
    }
    free(tu_write(dir, "deps.json", "{\"tasks\": [{\"task_id\": \"0\"}], \"tensors\": [], \"edges\": []}"));
    r = tu_run(args);
    ck_assert_ptr_nonnull(
        strstr(r.err, "/deps.json: tasks[0]: needs task_id, kernel_ids [aic, aiv0, aiv1] and args"));
    tu_run_free(&r);
    const char *none[] = {"import", NULL};
    r = tu_run(none);
    ck_assert_int_eq(r.status, 2);
    tu_run_free(&r);
}
END_TEST

#define REAL(name) PTOSIM_SRCDIR "/tests/real/" name

/* tests/real/NAME for a name known only at run time (a static buffer). */
static const char *real_dir(const char *name)
{
    static char buf[2048];
    snprintf(buf, sizeof(buf), "%s/tests/real/%.64s", PTOSIM_SRCDIR, name);
    return buf;
}

/* tasks_processed summed over the scheduler phase records of a kind, on one
 * thread (or every thread when thread < 0). */
static int phase_sum(const cJSON *records, const char *kind, int thread)
{
    const cJSON *lanes = cJSON_GetObjectItem(records, "aicpu_scheduler_phases"), *lane, *p;
    int sum = 0, t = 0;
    cJSON_ArrayForEach(lane, lanes)
    {
        cJSON_ArrayForEach(p, lane)
        {
            if ((thread < 0 || thread == t) && strcmp(cJSON_GetObjectItem(p, "kind")->valuestring, kind) == 0)
                sum += cJSON_GetObjectItem(p, "tasks_processed")->valueint;
        }
        t++;
    }
    return sum;
}

/* The scheduler section of dir/ptosim_run.json: member `key`. */
static int scheduler_count(const char *dir, const char *key)
{
    char p[4200];
    snprintf(p, sizeof(p), "%s/ptosim_run.json", dir);
    cJSON *j = tu_json_file(p);
    const cJSON *v = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "scheduler"), key);
    ck_assert_msg(cJSON_IsNumber(v), "%s: no scheduler.%s", p, key);
    int n = v->valueint;
    cJSON_Delete(j);
    return n;
}

/* Runs graph on a2a3sim with the swimlane into dir (plus extra, or NULL);
 * returns its swimlane records (the caller deletes). */
static cJSON *run_a2a3sim(const char *graph, const char *dir, const char *extra)
{
    const char *args[] = {
        "run",     graph, "-p", "a2a3sim", "-o", dir, "--enable-chip-swimlane", "--no-host-timing",
        "--quiet", extra, NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char p[4200];
    snprintf(p, sizeof(p), "%s/dfx_outputs/chip_swimlane_records.json", dir);
    return tu_json_file(p);
}

/* text with the one occurrence of `what` replaced by `with` (malloc'd),
 * failing the test when `what` is missing. */
static char *replace_once(const char *text, const char *what, const char *with)
{
    const char *at = strstr(text, what);
    ck_assert_msg(at != NULL, "no %s", what);
    ck_assert_msg(strstr(at + 1, what) == NULL, "%s is not unique", what);
    size_t head = (size_t)(at - text), n = strlen(text) - strlen(what) + strlen(with);
    char *out = malloc(n + 1);
    memcpy(out, text, head);
    strcpy(out + head, with);
    strcat(out, at + strlen(what));
    return out;
}

/* The first import line whose id is `id` (a pointer into text), failing if none. */
static const char *line_of(const char *text, const char *id)
{
    char key[64];
    snprintf(key, sizeof(key), "\"id\": \"%s\"", id);
    const char *at = strstr(text, key);
    ck_assert_msg(at != NULL, "no %s in the imported graph", id);
    while (at > text && at[-1] != '\n')
        at--;
    return at;
}

static bool line_has(const char *line, const char *what)
{
    const char *at = strstr(line, what), *end = strchr(line, '\n');
    return at && (!end || at < end);
}

/* A 48-block sync_start task fits no thread's 16 AIV cores, so a drain places
 * it (drain_publish records); a 2-block one fits thread 0 alone and leaves no
 * record of its flag. */
START_TEST(a_cohort_placed_by_a_drain_comes_back_sync_start)
{
    const char *dir = tu_tmpdir();
    char *g = tu_write(dir, "sync.jsonl",
                       "{\"ptosim_graph\": 1, \"name\": \"s\", \"kernels\": [{\"id\": 0, \"name\": \"v\", "
                       "\"core\": \"aiv\", \"cost\": {\"ns\": 10000}}]}\n"
                       "{\"op\": \"submit\", \"id\": \"wide\", \"kernel\": \"v\", \"block_num\": 48, "
                       "\"sync_start\": true}\n"
                       "{\"op\": \"submit\", \"id\": \"narrow\", \"kernel\": \"v\", \"block_num\": 2, "
                       "\"sync_start\": true, \"deps\": [\"wide\"]}\n");
    const char *args[] = {"run", g, "-o", dir, "--enable-dep-gen", "--enable-chip-swimlane", "--quiet", NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char dfx[4200];
    snprintf(dfx, sizeof(dfx), "%s/dfx_outputs", dir);
    const char *imp[] = {"import", dfx, NULL};
    r = tu_run(imp);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert(line_has(line_of(r.out, "t0"), "\"sync_start\": true"));
    ck_assert(!line_has(line_of(r.out, "t1"), "\"sync_start\""));
    tu_run_free(&r);
    free(g);
}
END_TEST

/*
 * spmd_ss_early: a flagged 50-block AIC producer and an 8-block MIX
 * sync_start consumer (spmd_sync_start_early_dispatch_orch.cpp). The runtime
 * placed the consumer through the sync-start drain, 3 + 3 + 2 blocks on its
 * three scheduler threads (drain records; 9 + 9 + 6 subtasks in drain_publish),
 * all 24 subtasks before the producer's last block ended: 8 blocks pre-staged.
 * deps.json does not say sync_start; the import learns it from those drain
 * records. Simulated, the cohort no thread holds alone goes through a gated
 * drain the same way: 8 blocks staged early, split 3/3/2.
 */
START_TEST(the_spmd_ss_early_cohort_is_pre_staged_as_in_the_capture)
{
    char p[4200];
    snprintf(p, sizeof(p), "%s/chip_swimlane_records.json", REAL("spmd_ss_early"));
    cJSON *real = tu_json_file(p);
    int real_staged = phase_sum(real, "drain", -1);
    ck_assert_int_eq(real_staged, 8);
    /* every consumer subtask went out before the producer's last block ended */
    const cJSON *e, *d;
    uint64_t producer_end = 0;
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(real, "aicore_tasks"))
    {
        uint64_t end = (uint64_t)cJSON_GetArrayItem(e, 4)->valuedouble;
        if (cJSON_GetArrayItem(e, 1)->valuedouble == 4294967296.0 && end > producer_end)
            producer_end = end;
    }
    int early = 0;
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(real, "aicore_tasks"))
    {
        if (cJSON_GetArrayItem(e, 1)->valuedouble != 4294967297.0)
            continue;
        /* its dispatch: the AICPU record of the same core and token */
        cJSON_ArrayForEach(d, cJSON_GetObjectItem(real, "aicpu_tasks"))
        {
            if (cJSON_GetArrayItem(d, 0)->valueint == cJSON_GetArrayItem(e, 0)->valueint &&
                cJSON_GetArrayItem(d, 1)->valueint == cJSON_GetArrayItem(e, 2)->valueint &&
                (uint64_t)cJSON_GetArrayItem(d, 2)->valuedouble < producer_end)
                early++;
        }
    }
    ck_assert_int_eq(early, 24);

    const char *args[] = {"import", REAL("spmd_ss_early"), NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert(line_has(line_of(r.out, "t4294967297"), "\"sync_start\": true"));
    ck_assert(!line_has(line_of(r.out, "t4294967296"), "\"sync_start\""));
    const char *dir = tu_tmpdir();
    char *g = tu_write(dir, "imported.jsonl", r.out);
    tu_run_free(&r);
    cJSON *sim = run_a2a3sim(g, dir, NULL);
    ck_assert_int_eq(scheduler_count(dir, "early_staged"), real_staged);
    ck_assert_int_eq(scheduler_count(dir, "sync_start_drains"), 1);
    for (int t = 0; t < 3; t++) {
        ck_assert_int_eq(phase_sum(sim, "drain", t), phase_sum(real, "drain", t));
        ck_assert_int_eq(phase_sum(sim, "drain_publish", t), phase_sum(real, "drain_publish", t));
    }
    cJSON_Delete(sim);
    cJSON_Delete(real);
    free(g);
}
END_TEST

static char *replace_all(const char *text, const char *what, const char *with);

/* The swimlane's rows and phases are read from their text when it is plain; a capture that writes the same
 * values another way (a row's numbers with a fraction or an exponent, the drain's kind with an escape) must
 * import to the same graph, sync_start included. */
START_TEST(a_swimlane_written_another_way_imports_the_same)
{
    const char *dir = tu_tmpdir();
    char path[4200], sub[4200];
    snprintf(path, sizeof(path), "%s/chip_swimlane_records.json", REAL("spmd_ss_early"));
    char *swim = tu_read(path);
    char *a = replace_once(swim, "[0, 4294967296, 1, 198395693799, 198397257702, 50]",
                           "[0, 4294967296, 1, 198395693799.0, 1.98397257702e11, 50]"),
         *b = replace_all(a, "\"drain_publish\"", "\"\\u0064rain_publish\"");
    free(tu_write(dir, "chip_swimlane_records.json", b));
    free(tu_copy(dir, "deps.json", REAL("spmd_ss_early") "/deps.json"));
    snprintf(sub, sizeof(sub), "%s/scope_stats", dir);
    ck_assert_int_eq(mkdir(sub, 0755), 0);
    free(tu_copy(sub, "scope_stats.jsonl", REAL("spmd_ss_early") "/scope_stats/scope_stats.jsonl"));
    free(tu_copy(dir, "name_map_TestSpmdSyncStartEarlyDispatch_Case1.json",
                 REAL("spmd_ss_early") "/name_map_TestSpmdSyncStartEarlyDispatch_Case1.json"));
    const char *orig[] = {"import", REAL("spmd_ss_early"), NULL}, *other[] = {"import", dir, NULL};
    run_out r = tu_run(orig), o = tu_run(other);
    ck_assert_msg(r.status == 0 && o.status == 0, "%s%s", r.err, o.err);
    ck_assert(line_has(line_of(o.out, "t4294967297"), "\"sync_start\": true"));
    ck_assert_str_eq(o.out, r.out);
    tu_run_free(&r);
    tu_run_free(&o);
    free(swim), free(a), free(b);
}
END_TEST

/*
 * sse_pending: a flagged 16-block AIV blocker fills every AIV core of one
 * scheduler thread; an 8-block AIV sync_start consumer follows it
 * (sync_start_early_local_owner_orch.cpp, mode 1). The runtime staged the
 * whole cohort on that thread's pending slots, with no drain: one
 * early_dispatch record of 8 blocks, on cores 8-15. Nothing in the capture
 * says the consumer is sync_start, nor that the orchestration waited for every
 * blocker to start before submitting it; the graph says both (user code
 * standing for the wait). Simulated with one scheduler thread, the same.
 */
START_TEST(the_sse_pending_cohort_is_staged_locally_as_in_the_capture)
{
    char p[4200];
    snprintf(p, sizeof(p), "%s/chip_swimlane_records.json", REAL("sse_pending"));
    cJSON *real = tu_json_file(p);
    ck_assert_int_eq(phase_sum(real, "early_dispatch", -1), 8);
    ck_assert_int_eq(phase_sum(real, "drain", -1) + phase_sum(real, "drain_publish", -1), 0);

    /* the swimlane's times: the blockers must still run when the consumer comes */
    const char *args[] = {"import", "--costs", "swimlane", REAL("sse_pending"), NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert(!line_has(line_of(r.out, "t4294967299"), "\"sync_start\""));
    /* the graph with the consumer's flag and the orchestration's wait */
    char *flagged = replace_once(r.out, "\"block_num\": 8, ", "\"block_num\": 8, \"sync_start\": true, ");
    char *text =
        replace_once(flagged, "{\"op\": \"dummy\", \"id\": \"t4294967297\"",
                     "{\"op\": \"user_code\", \"ns\": 100000}\n{\"op\": \"dummy\", \"id\": \"t4294967297\"");
    free(flagged);
    tu_run_free(&r);
    const char *dir = tu_tmpdir();
    char *g = tu_write(dir, "graph.jsonl", text);
    free(text);
    cJSON *sim = run_a2a3sim(g, dir, "--aicpu-thread-num=2"); /* one orchestrator, one scheduler */
    ck_assert_int_eq(scheduler_count(dir, "early_staged"), 8);
    ck_assert_int_eq(scheduler_count(dir, "sync_start_drains"), 0);
    ck_assert_int_eq(phase_sum(sim, "early_dispatch", -1), phase_sum(real, "early_dispatch", -1));
    /* the same cores: the thread's first eight AIV cores */
    const cJSON *e;
    int on[24] = {0}, real_on[24] = {0};
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(sim, "aicore_tasks"))
    {
        if (cJSON_GetArrayItem(e, 1)->valuedouble == 4294967299.0)
            on[cJSON_GetArrayItem(e, 0)->valueint]++;
    }
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(real, "aicore_tasks"))
    {
        if (cJSON_GetArrayItem(e, 1)->valuedouble == 4294967299.0)
            real_on[cJSON_GetArrayItem(e, 0)->valueint]++;
    }
    for (int k = 0; k < 24; k++)
        ck_assert_int_eq(on[k], real_on[k]);
    cJSON_Delete(sim);
    cJSON_Delete(real);
    free(g);
}
END_TEST

/* ---- the divergences found against the real runtime (issue 11) ---- */

/* Imports a real capture; returns the graph text (malloc'd). */
static char *import_real(const char *name)
{
    const char *args[] = {"import", real_dir(name), NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s: %s", name, r.err);
    char *g = r.out;
    r.out = NULL;
    tu_run_free(&r);
    return g;
}

/* Imports a real capture and runs it on a2a3sim with dep gen and scope stats
 * into a fresh folder, which it returns. */
static const char *rerun_real(const char *name)
{
    char *text = import_real(name);
    const char *dir = tu_tmpdir();
    char *g = tu_write(dir, "imported.jsonl", text);
    const char *args[] = {
        "run", g, "-p", "a2a3sim", "-o", dir, "--enable-dep-gen", "--enable-scope-stats", "--quiet", NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s: %s", name, r.err);
    tu_run_free(&r);
    free(text);
    free(g);
    return dir;
}

/* Edges of deps.json at path with this source (NULL: all). */
static int edges_of(const char *path, const char *source)
{
    cJSON *d = tu_json_file(path);
    int n = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(d, "edges"))
    {
        n += !source || strcmp(cJSON_GetObjectItem(e, "source")->valuestring, source) == 0;
    }
    cJSON_Delete(d);
    return n;
}

/* The same count of edges of each source in the capture and in the rerun. */
static void same_edge_counts(const char *name, const char *dir)
{
    char real[4200], sim[4200];
    snprintf(real, sizeof(real), "%s/deps.json", real_dir(name));
    snprintf(sim, sizeof(sim), "%s/dfx_outputs/deps.json", dir);
    static const char *const SOURCES[] = {"explicit", "creator", "tensormap"};
    for (int k = 0; k < 3; k++)
        ck_assert_msg(edges_of(real, SOURCES[k]) == edges_of(sim, SOURCES[k]), "%s: %s edges %d vs %d", name,
                      SOURCES[k], edges_of(real, SOURCES[k]), edges_of(sim, SOURCES[k]));
}

/* The last scope-stats sample of ring r in a scope_stats.jsonl: its heap_end. */
static long last_heap_end(const char *path, int ring)
{
    char *text = tu_read(path);
    ck_assert_ptr_nonnull(text);
    long v = -1;
    for (char *l = strtok(text, "\n"); l; l = strtok(NULL, "\n")) {
        cJSON *j = cJSON_Parse(l);
        const cJSON *r = cJSON_GetObjectItem(j, "ring"), *h = cJSON_GetObjectItem(j, "heap_end");
        if (r && h && r->valueint == ring)
            v = (long)h->valuedouble;
        cJSON_Delete(j);
    }
    free(text);
    return v;
}

/* pa_small1: ring 1's alloc (the accumulators) comes inside the batch scope,
 * before the block scopes of ring 2 that read it, not after them. */
START_TEST(import_keeps_submission_order_across_rings)
{
    char *g = import_real("pa_small1");
    const char *alloc = strstr(g, "{\"op\": \"alloc\", \"id\": \"t4294967296\"");
    const char *batch = strstr(g, "\"site\": \"paged_attention_orch.cpp:157\"");
    const char *first_block = strstr(g, "\"id\": \"t8589934592\"");
    ck_assert(alloc && batch && first_block);
    ck_assert(batch < alloc);
    ck_assert(alloc < first_block);
    free(g);
    /* ptosim's own paged attention comes back through a capture too */
    round_trip(TRACE("gen_paged_attention.jsonl"), true);
    round_trip(TRACE("gen_paged_attention_manual.jsonl"), true);
}
END_TEST

/* pams_small1: every task is in a manual scope, so no creator edge names the
 * alloc; task 12 reaches it through add_dep. It comes back as an alloc of
 * three accumulators (oi 1024 B, li and mi rounded to 1024 B), and the ring's
 * heap ends at the capture's 18432 bytes (3 + 3 x (1 + 3 + 1) outputs of
 * 1024 B). */
START_TEST(an_alloc_reached_only_through_explicit_deps_comes_back)
{
    char *g = import_real("pams_small1");
    const char *alloc = strstr(g, "{\"op\": \"alloc\", \"id\": \"t4294967296\", \"tensors\": [");
    ck_assert_ptr_nonnull(alloc);
    int entries = 0;
    for (const char *p = alloc; *p && *p != '\n'; p++)
        entries += strncmp(p, "{\"name\"", 7) == 0;
    ck_assert_int_eq(entries, 3);
    ck_assert(line_has(line_of(g, "t4294967308"), "\"t4294967296\"]"));
    ck_assert(line_has(strstr(g, "{\"op\": \"scope_begin\""), "\"mode\": \"manual\""));
    free(g);
    const char *dir = rerun_real("pams_small1");
    char p[4200];
    snprintf(p, sizeof(p), "%s/dfx_outputs/scope_stats/scope_stats.jsonl", dir);
    ck_assert_int_eq(last_heap_end(p, 1), 18432);
    snprintf(p, sizeof(p), "%s/scope_stats/scope_stats.jsonl", real_dir("pams_small1"));
    ck_assert_int_eq(last_heap_end(p, 1), 18432);
    same_edge_counts("pams_small1", dir);
}
END_TEST

/* The outputs each alloc of a graph holds, in op order, into n[0 .. max); returns the allocs. */
static int alloc_outputs(const char *g, int *n, int max)
{
    int k = 0;
    for (const char *a = strstr(g, "{\"op\": \"alloc\""); a; a = strstr(a + 1, "{\"op\": \"alloc\"")) {
        int entries = 0;
        for (const char *p = a; *p && *p != '\n'; p++)
            entries += strncmp(p, "{\"name\"", 7) == 0;
        if (k < max)
            n[k] = entries;
        k++;
    }
    return k;
}

/* Every scope-stats record of the rerun in dir has the capture's site, phase, ring and allocation
 * counters (task_window_end, heap_end); returns how many records were compared. */
static int same_scope_counters(const char *name, const char *dir)
{
    char rp[4200], sp[4200];
    snprintf(rp, sizeof(rp), "%s/scope_stats/scope_stats.jsonl", real_dir(name));
    snprintf(sp, sizeof(sp), "%s/dfx_outputs/scope_stats/scope_stats.jsonl", dir);
    char *rt = tu_read(rp), *st = tu_read(sp);
    ck_assert(rt && st);
    char *rs, *ss;
    int n = 0;
    for (char *rl = strtok_r(rt, "\n", &rs), *sl = strtok_r(st, "\n", &ss); rl || sl;
         rl = strtok_r(NULL, "\n", &rs), sl = strtok_r(NULL, "\n", &ss), n++) {
        ck_assert_msg(rl && sl, "%s: scope stats have %s records", name, rl ? "fewer" : "more");
        if (n == 0)
            continue; /* the header */
        cJSON *r = cJSON_Parse(rl), *s = cJSON_Parse(sl);
        static const char *const STR[] = {"site", "phase"};
        static const char *const NUM[] = {"ring", "task_window_end", "heap_end"};
        for (int k = 0; k < 2; k++)
            ck_assert_str_eq(cJSON_GetObjectItem(r, STR[k])->valuestring,
                             cJSON_GetObjectItem(s, STR[k])->valuestring);
        for (int k = 0; k < 3; k++)
            ck_assert_msg(
                cJSON_GetObjectItem(r, NUM[k])->valuedouble == cJSON_GetObjectItem(s, NUM[k])->valuedouble,
                "%s: line %d %s: real %.0f, ptosim %.0f", name, n + 1, NUM[k],
                cJSON_GetObjectItem(r, NUM[k])->valuedouble, cJSON_GetObjectItem(s, NUM[k])->valuedouble);
        cJSON_Delete(r);
        cJSON_Delete(s);
    }
    free(rt);
    free(st);
    return n - 1;
}

/* pams_varseq2: two MANUAL scopes, each opening with alloc_tensors(oi, li, mi): a hidden task with
 * three outputs in one packed block, no dep-gen record, and (manual scope) no creator edges. Each
 * alloc holds its own three buffers, not the first five and the second one: scope 1 (the alloc,
 * then 3 groups of QK 1, SF 3 and PV 1 outputs of 1024 B) ends at (3 + 3 x 5) x 1024 = 18432, the
 * runtime's figure, where the ring-wide count gave 20480; scope 2 (the alloc and 2 groups) at
 * 18432 + 13 x 1024 = 31744. */
START_TEST(each_manual_scope_alloc_holds_its_own_outputs)
{
    char *g = import_real("pams_varseq2");
    int n[4];
    ck_assert_int_eq(alloc_outputs(g, n, 4), 2);
    ck_assert_int_eq(n[0], 3);
    ck_assert_int_eq(n[1], 3);
    ck_assert(line_has(strstr(g, "{\"op\": \"alloc\", \"id\": \"t4294967309\""), "\"o4294967309_2\""));
    free(g);
    const char *dir = rerun_real("pams_varseq2");
    char p[4200];
    snprintf(p, sizeof(p), "%s/dfx_outputs/scope_stats/scope_stats.jsonl", dir);
    char *text = tu_read(p);
    ck_assert_ptr_nonnull(strstr(text,
                                 "\"phase\": \"end\", \"depth\": 1, \"ring\": 1, \"task_window_start\": 0, "
                                 "\"task_window_end\": 13, \"heap_start\": 0, \"heap_end\": 18432"));
    free(text);
    ck_assert_int_eq(last_heap_end(p, 1), 31744);
    ck_assert_int_eq(same_scope_counters("pams_varseq2", dir), 6);
    same_edge_counts("pams_varseq2", dir);
}
END_TEST

/* paums_unroll_case2: 64 MANUAL scopes of one alloc (oi 32768 B, li and mi 1024 B) and two groups
 * of QK (1048576 B), SF (524288 + 1024 + 1024 B), PV (32768 B) and UP (none): each scope allocates
 * 34816 + 2 x 1607680 = 3250176 bytes. The ring-wide count gave the first alloc 3 + 2 x 63 = 129
 * buffers, which the run refused ("more than 32 tensors in one alloc"); now every alloc holds 3 and
 * every scope sample's counters are the capture's. */
START_TEST(unrolled_manual_scopes_import_and_run_with_the_captures_counters)
{
    char *g = import_real("paums_unroll_case2");
    int n[64];
    ck_assert_int_eq(alloc_outputs(g, n, 64), 64);
    for (int i = 0; i < 64; i++)
        ck_assert_msg(n[i] == 3, "alloc %d holds %d outputs", i, n[i]);
    free(g);
    const char *dir = rerun_real("paums_unroll_case2");
    ck_assert_int_eq(same_scope_counters("paums_unroll_case2", dir), 130);
    char p[4200];
    snprintf(p, sizeof(p), "%s/dfx_outputs/scope_stats/scope_stats.jsonl", dir);
    ck_assert_int_eq(last_heap_end(p, 1), 64L * 3250176);
    same_edge_counts("paums_unroll_case2", dir);
}
END_TEST

/* ptosim's manual paged attention (4 scopes, each one 3-output alloc and 8 groups of QK 1, SF 3,
 * PV 1 and UP 0 outputs) on 256 KiB rings: scope 1 ends at 190464 heap bytes, ring 1 wraps in
 * scope 2 and ends at 768000, so scope 1's offsets [0, 190464) also hold 38 buffers of later laps
 * besides its own 3 + 8 x 5 = 43. Counting those, the first alloc took 23 buffers; counting only the
 * buffers first read before scope 2 it takes 43 - 40 = 3. (A manual scope across a wrap is not
 * imported right yet: with no creator edge the walk sees no wrap, and an address used again is one
 * tensor record.) */
START_TEST(on_a_wrapping_ring_an_alloc_counts_only_its_segments_buffers)
{
    const char *gen[] = {"gen",
                         "paged_attention",
                         "--batch",
                         "4",
                         "--heads",
                         "16",
                         "--head-dim",
                         "128",
                         "--block-size",
                         "128",
                         "--context",
                         "1024",
                         "--variant",
                         "manual",
                         "--unroll",
                         "2",
                         NULL};
    run_out r = tu_run(gen);
    ck_assert_msg(r.status == 0, "%s", r.err);
    const char *dir = tu_tmpdir();
    char *g = tu_write(dir, "manual.jsonl", r.out);
    tu_run_free(&r);
    const char *run[] = {
        "run",         g,        "-p",      "a2a3sim", "-o", dir, "--enable-dep-gen", "--enable-scope-stats",
        "--ring-heap", "262144", "--quiet", NULL};
    r = tu_run(run);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char p[4200];
    snprintf(p, sizeof(p), "%s/dfx_outputs/scope_stats/scope_stats.jsonl", dir);
    char *text = tu_read(p);
    ck_assert_ptr_nonnull(strstr(text, "\"task_window_end\": 33, \"heap_start\": 0, \"heap_end\": 190464"));
    ck_assert_int_eq(last_heap_end(p, 1), 768000); /* ring 1 wrapped: 2 x 262144 < 768000 */
    free(text);
    /* the allocs, from the importer itself: the graph as a whole does not validate (README: a manual scope
     * whose blocks wrap imports a view past its buffer), so `ptosim import` writes none and says why */
    char dfx[4200], err[4096];
    snprintf(dfx, sizeof(dfx), "%s/dfx_outputs", dir);
    char *t = NULL;
    size_t tlen = 0;
    FILE *mem = open_memstream(&t, &tlen);
    ck_assert_ptr_nonnull(mem);
    FILE *old_err = stderr;
    stderr = fopen("/dev/null", "w"); /* its notes */
    int rc = import_capture(dfx, NULL, mem, err, sizeof(err));
    fclose(stderr);
    stderr = old_err;
    fclose(mem);
    ck_assert_msg(rc == 0, "%s", err);
    int n[4];
    ck_assert_int_eq(alloc_outputs(t, n, 4), 4);
    ck_assert_int_eq(n[0], 3);
    free(t);
    const char *imp[] = {"import", dfx, NULL};
    r = tu_run(imp);
    ck_assert_int_eq(r.status, 3);
    ck_assert_str_eq(r.out, "");
    ck_assert_msg(strstr(r.err, ": the graph made from this capture does not validate, so none is written: line "),
                  "%s", r.err);
    tu_run_free(&r);
    free(g);
}
END_TEST

/* pa_small1: the runtime keeps one creator edge per producer and consumer, so
 * online_update's second input (softmax's third output) and its second and
 * third accumulators have none; their heap offsets say whose they are. No
 * output is invented. */
START_TEST(created_tensors_come_back_from_heap_offsets)
{
    char *g = import_real("pa_small1");
    const char *up = line_of(g, "t8589934595");
    ck_assert(line_has(up, "{\"dir\": \"in\", \"tensor\": \"o8589934593_1\""));
    ck_assert(line_has(up, "{\"dir\": \"in\", \"tensor\": \"o8589934593_2\""));
    ck_assert(line_has(up, "{\"dir\": \"in\", \"tensor\": \"o8589934594_0\""));
    ck_assert(line_has(up, "{\"dir\": \"inout\", \"tensor\": \"o4294967296_2\""));
    ck_assert(line_has(up, "{\"dir\": \"inout\", \"tensor\": \"o4294967296_1\""));
    ck_assert(line_has(up, "{\"dir\": \"inout\", \"tensor\": \"o4294967296_0\""));
    ck_assert_ptr_null(strstr(g, "\"INT8\""));
    free(g);
    same_edge_counts("pa_small1", rerun_real("pa_small1"));
    /* heap_rebase: the second producer's output lands where the first one's
     * was (the empty ring rebased to 0): one tensor id, two buffers */
    g = import_real("heap_rebase");
    ck_assert(line_has(line_of(g, "t4294967296"),
                       "{\"dir\": \"out\", \"tensor\": \"o4294967296_0\", \"dtype\": "
                       "\"FLOAT32\", \"shape\": [262144]}"));
    ck_assert(line_has(line_of(g, "t4294967299"), "{\"dir\": \"in\", \"tensor\": \"o4294967298_0\""));
    /* its ring 1 heap, 1.5 MiB, is one RunConfig cannot ask for (no power of 2); the runtime's own
     * RuntimeEnv took it, so the header says runtime_env, which run reads by that rule */
    ck_assert(line_has(g, "\"runtime_env\": {\"ring_task_window\": [16384, 16384, 16384, 16384], \"ring_heap\": "
                          "[268435456, 1572864, 268435456, 268435456]"));
    ck_assert_ptr_null(strstr(g, "\"run_config\""));
    free(g);
    /* sizes RunConfig takes stay run_config */
    g = import_real("bgemm_case1");
    ck_assert(line_has(g, "\"run_config\": {\"ring_task_window\": [16384, 16384, 16384, 16384], \"ring_heap\": "
                          "[268435456, 268435456, 268435456, 268435456]"));
    ck_assert_ptr_null(strstr(g, "\"runtime_env\""));
    free(g);
    same_edge_counts("heap_rebase", rerun_real("heap_rebase"));
}
END_TEST

/* qwen3_noop2L: scope modes where the tasks say (the MANUAL scopes at lines
 * 115 and 232 of the orchestration, the auto ones around them), the layer
 * allocs' creator edges, every one of the 1185 edges; batch_pa_small1: `out`
 * was made with manual_dep (make_tensor_external(..., true)), so no TensorMap
 * edge links the online updates through it. */
START_TEST(scope_modes_creators_and_manual_dep_come_back)
{
    char *g = import_real("qwen3_noop2L");
    static const struct {
        const char *site;
        bool manual;
    } scopes[] = {{"decode_fwd_layers_2l.cpp:60\"", false}, {"decode_fwd_layers_2l.cpp:101\"", false},
                  {"decode_fwd_layers_2l.cpp:115\"", true}, {"decode_fwd_layers_2l.cpp:140\"", false},
                  {"decode_fwd_layers_2l.cpp:232\"", true}, {"decode_fwd_layers_2l.cpp:1969\"", false}};
    for (size_t k = 0; k < sizeof(scopes) / sizeof(scopes[0]); k++) {
        const char *at = strstr(g, scopes[k].site);
        ck_assert_msg(at != NULL, "%s", scopes[k].site);
        ck_assert_msg(line_has(at, "\"mode\": \"manual\"") == scopes[k].manual, "%s", scopes[k].site);
    }
    free(g);
    const char *dir = rerun_real("qwen3_noop2L");
    char p[4200];
    snprintf(p, sizeof(p), "%s/dfx_outputs/deps.json", dir);
    ck_assert_int_eq(edges_of(p, NULL), 1185);
    same_edge_counts("qwen3_noop2L", dir);
    g = import_real("batch_pa_small1");
    ck_assert(line_has(line_of(g, "t8589934595"), "\"manual_dep\": true"));
    free(g);
    same_edge_counts("batch_pa_small1", rerun_real("batch_pa_small1"));
}
END_TEST

/* import -> run -> import gives back the same graph file, on every shipped
 * trace and on a small instance of every generator kind. */
START_TEST(import_of_a_rerun_is_a_fixed_point)
{
    /* every graph file in traces/, the generators' committed instances included */
    DIR *d = opendir(PTOSIM_SRCDIR "/traces");
    ck_assert_ptr_nonnull(d);
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t len = strlen(de->d_name);
        if (len < 7 || strcmp(de->d_name + len - 6, ".jsonl") != 0)
            continue;
        char path[4200];
        snprintf(path, sizeof(path), "%s/traces/%s", PTOSIM_SRCDIR, de->d_name);
        const char *a = tu_tmpdir(), *b = tu_tmpdir();
        capture(path, a, true);
        char *g1 = import_of(a);
        capture(g1, b, true);
        char *g2 = import_of(b);
        char *t1 = tu_read(g1), *t2 = tu_read(g2);
        ck_assert_msg(strcmp(t1, t2) == 0, "%s: the imported graph changes when imported again", de->d_name);
        free(t1);
        free(t2);
        free(g1);
        free(g2);
        n++;
    }
    closedir(d);
    ck_assert_int_ge(n, 24);
    /* the one generator variant with no committed instance */
    const char *gen[] = {"gen", "paged_attention", "--variant", "batch", "--batch",
                         "2",   "--context",       "256",       NULL};
    run_out r = tu_run(gen);
    ck_assert_msg(r.status == 0, "%s", r.err);
    const char *dir = tu_tmpdir(), *a = tu_tmpdir(), *b = tu_tmpdir();
    char *g0 = tu_write(dir, "batch.jsonl", r.out);
    tu_run_free(&r);
    capture(g0, a, true);
    char *g1 = import_of(a);
    capture(g1, b, true);
    char *g2 = import_of(b);
    char *t1 = tu_read(g1), *t2 = tu_read(g2);
    ck_assert_msg(strcmp(t1, t2) == 0, "paged_attention --variant batch: the imported graph changes");
    free(t1);
    free(t2);
    free(g0);
    free(g1);
    free(g2);
}
END_TEST

/* Notes on what import decided: the batched paged attention's `out` named,
 * and no more than 20 of them before a count of the rest. */
START_TEST(import_notes_what_it_inferred_and_caps_them)
{
    const char *args[] = {"import", real_dir("batch_pa_small1"), NULL};
    run_out r = tu_run(args);
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.err, "ptosim: note: tensor 3463261816522170288 is written and read in auto scopes "
                            "but no TensorMap edge names it: imported as manual_dep\n"
                            "ptosim: kernel costs from the model: the swimlane has 24 cores, a simulator "
                            "platform's, whose times are the host's (--costs swimlane takes them anyway)\n");
    tu_run_free(&r);
    /* 25 external tensors, each written then read with no TensorMap edge */
    char *deps = malloc(65536);
    size_t n = (size_t)snprintf(deps, 65536, "{\"tasks\":[");
    for (int k = 0; k < 50; k++)
        n += (size_t)snprintf(
            deps + n, 65536 - n,
            "%s{\"task_id\":\"%d\",\"scope\":\"auto\",\"early_dispatch\":false,\"kernel_ids\":[-1,0,"
            "-1],\"block_num\":1,\"args\":[{\"idx\":0,\"type\":\"%s\",\"tensor_id\":\"%d\",\"dtype\":"
            "\"FLOAT32\",\"shape\":[16],\"start_offset\":\"0\",\"strides\":[1]}]}",
            k ? "," : "", k, k % 2 ? "INPUT" : "INOUT", 1000 + k / 2);
    n += (size_t)snprintf(deps + n, 65536 - n, "],\"tensors\":[");
    for (int k = 0; k < 25; k++)
        n += (size_t)snprintf(
            deps + n, 65536 - n,
            "%s{\"tensor_id\":\"%d\",\"buffer_addr\":\"%d\",\"version\":0,\"dtype\":\"FLOAT32\","
            "\"buffer_numel\":\"16\"}",
            k ? "," : "", 1000 + k, 4096 * (k + 1));
    snprintf(deps + n, 65536 - n, "],\"edges\":[]}\n");
    const char *dir = tu_tmpdir();
    free(tu_write(dir, "deps.json", deps));
    free(deps);
    const char *imp[] = {"import", dir, NULL};
    r = tu_run(imp);
    ck_assert_msg(r.status == 0, "%s", r.err);
    int lines = 0;
    for (const char *p = r.err; *p; p++)
        lines += *p == '\n';
    ck_assert_int_eq(lines, 22); /* the costs notice, 20 notes, the count of the rest */
    ck_assert_ptr_nonnull(strstr(r.err, "\nptosim: note: 5 more notes like these\n"));
    tu_run_free(&r);
}
END_TEST

/* A ring heap of 64 KiB holds under three blocks of paged attention (22.5
 * KiB each): the ring wraps, heap addresses are made again by later tasks,
 * as other dtypes and sizes (a BF16 pij's address later holds a FLOAT32
 * sij). Each creation is found from its readers, and the rerun gives back
 * deps.json byte for byte. */
START_TEST(a_wrapping_heap_ring_round_trips)
{
    const char *gen[] = {"gen", "paged_attention", "--batch", "2", "--context", "1024", NULL};
    run_out r = tu_run(gen);
    ck_assert_int_eq(r.status, 0);
    const char *dir = tu_tmpdir(), *a = tu_tmpdir(), *b = tu_tmpdir();
    char *g0 = tu_write(dir, "pa.jsonl", r.out);
    tu_run_free(&r);
    const char *run1[] = {"run",
                          g0,
                          "-o",
                          a,
                          "--ring-heap",
                          "0,0,65536,0",
                          "--enable-dep-gen",
                          "--enable-scope-stats",
                          "--enable-chip-swimlane",
                          "1",
                          "--quiet",
                          NULL};
    r = tu_run(run1);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char *g1 = import_of(a);
    char *text = tu_read(g1);
    ck_assert_ptr_nonnull(strstr(text, "\"ring_heap\": [268435456, 268435456, 65536, 268435456]"));
    free(text);
    capture(g1, b, true);
    char *d1 = deps_of(a), *d2 = deps_of(b);
    ck_assert_msg(strcmp(d1, d2) == 0, "deps.json differs after the round trip of a wrapping heap");
    free(d1);
    free(d2);
    free(g0);
    free(g1);
}
END_TEST

/* ---- kernel costs (issue 12) ---- */

/* The "kernels" entry of func f in an imported graph's header (caller deletes). */
static cJSON *kernel_entry(const char *graph, int f)
{
    const char *nl = strchr(graph, '\n');
    char *head = strndup(graph, (size_t)(nl - graph));
    cJSON *h = cJSON_Parse(head);
    free(head);
    ck_assert_ptr_nonnull(h);
    cJSON *k = NULL;
    cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(h, "kernels"))
    {
        if (cJSON_GetObjectItem(e, "id")->valueint == f)
            k = cJSON_Duplicate(e, true);
    }
    cJSON_Delete(h);
    ck_assert_msg(k != NULL, "no kernel %d", f);
    return k;
}

static char *cost_text(const cJSON *kernel)
{
    return cJSON_PrintUnformatted(cJSON_GetObjectItem(kernel, "cost"));
}

/* Imports dir with extra args (NULL-terminated, may be empty); returns the run. */
static run_out import_with(const char *dir, const char *a1, const char *a2)
{
    const char *args[] = {"import", a1 ? a1 : dir, a1 ? a2 : NULL, a1 ? dir : NULL, NULL};
    return tu_run(args);
}

/* pa_small1 was captured on a2a3sim (24 cores): by default import derives
 * every kernel's cost from its args (test_kcost.c works them out) and says
 * so on stderr; the graph reads them as pipe forms with a note each. */
START_TEST(a_simulator_capture_gets_the_models_costs_by_default)
{
    run_out r = import_with(real_dir("pa_small1"), NULL, NULL);
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.err, "ptosim: kernel costs from the model: the swimlane has 24 cores, a simulator "
                            "platform's, whose times are the host's (--costs swimlane takes them anyway)\n");
    static const char *const want[4] = {
        "{\"tiles\":1,\"buffers\":2,\"scalar\":0,\"mte2\":{\"bytes\":1024,\"gib_per_s\":135},\"mte1\":{"
        "\"bytes\":1024},\"cube\":{\"m\":16,\"n\":16,"
        "\"k\":16,\"dtype\":\"FLOAT16\"},\"fixpipe\":{\"bytes\":1024,\"gib_per_s\":139.9}}",
        "{\"tiles\":1,\"buffers\":2,\"scalar\":0,\"mte2\":{\"bytes\":1024,\"gib_per_s\":100.9},\"vector\":{"
        "\"cycles\":359},"
        "\"mte3\":{\"bytes\":640,\"gib_per_s\":188.46}}",
        "{\"tiles\":1,\"buffers\":2,\"scalar\":0,\"mte2\":{\"bytes\":1024,\"gib_per_s\":135},\"mte1\":{"
        "\"bytes\":1024},\"cube\":{\"m\":16,\"n\":16,"
        "\"k\":16,\"dtype\":\"FLOAT16\"},\"fixpipe\":{\"bytes\":1024,\"gib_per_s\":139.9}}",
        "{\"tiles\":1,\"buffers\":2,\"scalar\":0,\"mte2\":{\"bytes\":3328,\"gib_per_s\":100.9},\"vector\":{"
        "\"elems\":256,\"dtype\":\"FLOAT32\"},"
        "\"mte3\":{\"bytes\":2176,\"gib_per_s\":188.46}}"};
    for (int f = 0; f < 4; f++) {
        cJSON *k = kernel_entry(r.out, f);
        char *c = cost_text(k);
        ck_assert_str_eq(c, want[f]);
        ck_assert_ptr_nonnull(strstr(cJSON_GetObjectItem(k, "note")->valuestring, "from its args"));
        free(c);
        cJSON_Delete(k);
    }
    /* the third block's softmax reads a [16, 1] view: its own, smaller cost */
    ck_assert(line_has(line_of(r.out, "t8589934601"),
                       "\"cost\": {\"tiles\": 1, \"buffers\": 2, \"scalar\": 0, \"mte2\": {\"bytes\": 64, \"gib_per_s\": "
                       "100.9}"));
    ck_assert(!line_has(line_of(r.out, "t8589934597"), "\"cost\""));
    /* chip-scale: the graph runs in microseconds, where the host-clock times gave 5.4 ms */
    const char *dir = tu_tmpdir();
    char *g = tu_write(dir, "pa.jsonl", r.out);
    tu_run_free(&r);
    const char *run[] = {"run", g, "-p", "a2a3sim", "-o", dir, "--quiet", NULL};
    r = tu_run(run);
    ck_assert_int_eq(r.status, 0);
    tu_run_free(&r);
    char p[4200];
    snprintf(p, sizeof(p), "%s/ptosim_run.json", dir);
    cJSON *j = tu_json_file(p);
    double m = cJSON_GetObjectItem(j, "makespan_us")->valuedouble;
    ck_assert_msg(m > 5 && m < 50, "makespan %.3f us", m);
    cJSON_Delete(j);
    free(g);
}
END_TEST

/* --costs swimlane: each kernel's median time in the capture (ticks of 20 ns),
 * as import always did; a time orders of magnitude from the model's is said. */
START_TEST(costs_swimlane_takes_the_capture_times_and_says_when_they_are_implausible)
{
    char p[4200];
    snprintf(p, sizeof(p), "%s/chip_swimlane_records.json", real_dir("bgemm_case1"));
    cJSON *sw = tu_json_file(p);
    double d[256];
    int n = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(sw, "aicore_tasks"))
    {
        /* GEMM runs on the 8 AIC cores, 0..7 */
        if (cJSON_GetArrayItem(e, 0)->valueint < 8 && n < 256)
            d[n++] = (cJSON_GetArrayItem(e, 4)->valuedouble - cJSON_GetArrayItem(e, 3)->valuedouble) * 20;
    }
    cJSON_Delete(sw);
    ck_assert_int_eq(n, 64);
    for (int i = 1; i < n; i++) /* insertion sort: the median */
        for (int j = i; j > 0 && d[j - 1] > d[j]; j--) {
            double x = d[j];
            d[j] = d[j - 1];
            d[j - 1] = x;
        }
    run_out r = import_with(real_dir("bgemm_case1"), "--costs", "swimlane");
    ck_assert_int_eq(r.status, 0);
    cJSON *k = kernel_entry(r.out, 0);
    ck_assert_double_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(k, "cost"), "ns")->valuedouble, d[n / 2]);
    cJSON_Delete(k);
    char want[256];
    snprintf(want, sizeof(want), "ptosim: warning: kernel GEMM: the swimlane's %.0f ns is ", d[n / 2]);
    ck_assert_msg(strstr(r.err, want) &&
                      strstr(r.err, "x the model's 7214 ns for its args, not a time of this "
                                    "kernel on a2a3; --costs model derives it instead\n"),
                  "%s", r.err);
    tu_run_free(&r);
}
END_TEST

/* A table overrides the model kernel by kernel (by name or func id, JSON or
 * CSV); its kernels' tasks lose their own costs. */
START_TEST(a_costs_table_overrides_the_model)
{
    const char *dir = tu_tmpdir();
    char *json =
        tu_write(dir, "costs.json",
                 "{\n  \"QK\": {\"ns\": 500},\n  \"1\": {\"cycles\": 900},\n  \"UP\": {\"tiles\": 2, "
                 "\"vector\": {\"elems\": 128, \"dtype\": \"FLOAT32\"}}\n}\n");
    run_out r = import_with(real_dir("pa_small1"), "--costs", json);
    ck_assert_msg(r.status == 0, "%s", r.err);
    static const char *const want[4] = {"{\"ns\":500}", "{\"cycles\":900}", NULL,
                                        "{\"tiles\":2,\"vector\":{\"elems\":128,\"dtype\":\"FLOAT32\"}}"};
    static const char *const notes[4] = {"the --costs table, line 2", "the --costs table, line 3", NULL,
                                         "the --costs table, line 4"};
    for (int f = 0; f < 4; f++) {
        if (!want[f])
            continue;
        cJSON *k = kernel_entry(r.out, f);
        char *c = cost_text(k);
        ck_assert_str_eq(c, want[f]);
        ck_assert_str_eq(cJSON_GetObjectItem(k, "note")->valuestring, notes[f]);
        free(c);
        cJSON_Delete(k);
    }
    cJSON *pv = kernel_entry(r.out, 2); /* not in the table: the model's */
    ck_assert_ptr_nonnull(strstr(cJSON_GetObjectItem(pv, "note")->valuestring, "AIC from its args"));
    cJSON_Delete(pv);
    ck_assert(!line_has(line_of(r.out, "t8589934601"), "\"cost\"")); /* SF's [16, 1] task takes the table's */
    tu_run_free(&r);
    char *csv = tu_write(dir, "costs.csv", "kernel,ns\nSF,700\r\n\n2,1200\n");
    r = import_with(real_dir("pa_small1"), "--costs", csv);
    ck_assert_msg(r.status == 0, "%s", r.err);
    cJSON *k = kernel_entry(r.out, 1);
    char *c = cost_text(k);
    ck_assert_str_eq(c, "{\"ns\":700}");
    free(c);
    cJSON_Delete(k);
    k = kernel_entry(r.out, 2);
    c = cost_text(k);
    ck_assert_str_eq(c, "{\"ns\":1200}");
    free(c);
    cJSON_Delete(k);
    tu_run_free(&r);
    free(json);
    free(csv);
}
END_TEST

/* Every way a table can be wrong is named with its file and line. */
START_TEST(costs_table_errors_name_the_file_line_and_kernel)
{
    const char *dir = tu_tmpdir();
    static const struct {
        const char *name, *text, *want;
    } cases[] = {
        {"unknown.json", "{\"QK\": {\"ns\": 1},\n \"NOPE\": {\"ns\": 2}}",
         "unknown.json:2: kernel 'NOPE' is not one of the capture's kernels: QK (func 0), SF (func 1), PV "
         "(func 2), "
         "UP (func 3)\n"},
        {"twice.csv", "kernel,ns\nQK,1\n0,2\n", "twice.csv:3: kernel '0' has a cost already (line 2)\n"},
        {"bad.json", "{\"SF\": {\"cube\": {\"m\": 16, \"n\": 16, \"k\": 16}}}",
         "bad.json:1: SF.cube: the AIV has no cube pipe (its pipes: scalar, mte2, mte3, vector)\n"},
        {"header.csv", "name,time\nQK,1\n",
         "header.csv:1: a CSV table starts with the header kernel,ns or kernel,cycles (got \"name,time\")\n"},
        {"row.csv", "kernel,cycles\nQK,-5\n",
         "row.csv:2: a row is KERNEL,cycles with a whole number of cycles (got \"QK,-5\")\n"},
        {"array.json", "[1, 2]",
         "array.json: not a JSON object of kernel name or func id -> cost (e.g. {\"GEMM\": {\"ns\": "
         "5000}})\n"},
        {"empty.csv", "",
         "empty.csv: empty (a CSV table starts with the header kernel,ns or kernel,cycles)\n"},
        /* malformed JSON as every reader names it: FILE:LINE:COL: FIELD: WHAT */
        {"syntax.json", "{\"QK\": {\"ns\": 1},}", "syntax.json:1:18: json: not valid JSON\n"},
        {"dup.json", "{\"QK\": {\"ns\": 1},\n \"QK\": {\"ns\": 2}}", "dup.json:2:2: QK: duplicate key\n"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char *path = tu_write(dir, cases[i].name, cases[i].text);
        run_out r = import_with(real_dir("pa_small1"), "--costs", path);
        ck_assert_int_eq(r.status, 3);
        char want[1024];
        snprintf(want, sizeof(want), "ptosim import: %s/%s", dir, cases[i].want);
        ck_assert_msg(strstr(r.err, want), "%s\nwanted %s", r.err, want);
        ck_assert_str_eq(r.out, ""); /* nothing written before the costs are known */
        tu_run_free(&r);
        free(path);
    }
    run_out r = import_with(real_dir("pa_small1"), "--costs", "/nonexistent/costs.json");
    ck_assert_int_eq(r.status, 3);
    ck_assert_ptr_nonnull(
        strstr(r.err, "ptosim import: /nonexistent/costs.json: cannot read the costs table: No such "
                      "file or directory\n"));
    tu_run_free(&r);
    const char *none[] = {"import", "--costs", NULL};
    r = tu_run(none);
    ck_assert_int_eq(r.status, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "ptosim import: --costs needs swimlane, model, perf-sim or a file\n"));
    tu_run_free(&r);
}
END_TEST

/* A matmul whose m, n, k the args cannot tell is named, with what to add;
 * a table entry for it lets the import through. */
START_TEST(a_kernel_the_model_cannot_cost_is_named)
{
    const char *dir = tu_tmpdir();
    free(tu_write(
        dir, "deps.json",
        "{\"tasks\":[{\"task_id\":\"0\",\"scope\":\"auto\",\"early_dispatch\":false,\"kernel_ids\":[0,-1,-1],"
        "\"block_num\":1,\"args\":[{\"idx\":0,\"type\":\"INPUT\",\"tensor_id\":\"1\",\"dtype\":\"FLOAT16\","
        "\"shape\":[16,32],\"start_offset\":\"0\",\"strides\":[32,1]},{\"idx\":1,\"type\":\"INPUT\","
        "\"tensor_id\":\"2\",\"dtype\":\"FLOAT16\",\"shape\":[48,64],\"start_offset\":\"0\",\"strides\":[64,"
        "1]}"
        "]}],\"tensors\":[{\"tensor_id\":\"1\",\"buffer_addr\":\"4096\",\"version\":0,\"dtype\":\"FLOAT16\","
        "\"buffer_numel\":\"512\"},{\"tensor_id\":\"2\",\"buffer_addr\":\"8192\",\"version\":0,\"dtype\":"
        "\"FLOAT16\",\"buffer_numel\":\"3072\"}],\"edges\":[]}\n"));
    const char *args[] = {"import", dir, NULL};
    run_out r = tu_run(args);
    ck_assert_int_eq(r.status, 3);
    char want[4400];
    snprintf(
        want, sizeof(want),
        "ptosim: kernel costs from the model: the capture has no swimlane to time them\n"
        "ptosim import: no cost for func0 (func 0): cannot infer m, n, k from arg 1 [48, 64] and arg 0 [16, "
        "32] "
        "(no dimension pair matches): give its cost (ns, cycles or the pipe form with cube m, n, k) in a "
        "--costs table; give it in a table with --costs FILE, e.g. {\"NAME\": {\"ns\": 5000}}\n");
    ck_assert_str_eq(r.err, want);
    ck_assert_str_eq(r.out, "");
    tu_run_free(&r);
    char *t = tu_write(dir, "t.csv", "kernel,ns\n0,3000\n");
    r = import_with(dir, "--costs", t);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    free(t);
}
END_TEST

/* deps.json of one AIV kernel (func 0) run by tasks 0, 1, 2 on FLOAT16 inputs of
 * shapes [16, 16], [16, 16] and [4096, 4096]. */
static const char *outlier_capture(const char *dir)
{
    free(tu_write(
        dir, "deps.json",
        "{\"tasks\":["
        "{\"task_id\":\"0\",\"scope\":\"auto\",\"early_dispatch\":false,\"kernel_ids\":[-1,0,-1],"
        "\"block_num\":1,\"args\":[{\"idx\":0,\"type\":\"INPUT\",\"tensor_id\":\"1\",\"dtype\":"
        "\"FLOAT16\",\"shape\":[16,16],\"start_offset\":\"0\",\"strides\":[16,1]}]},"
        "{\"task_id\":\"1\",\"scope\":\"auto\",\"early_dispatch\":false,\"kernel_ids\":[-1,0,-1],"
        "\"block_num\":1,\"args\":[{\"idx\":0,\"type\":\"INPUT\",\"tensor_id\":\"1\",\"dtype\":"
        "\"FLOAT16\",\"shape\":[16,16],\"start_offset\":\"0\",\"strides\":[16,1]}]},"
        "{\"task_id\":\"2\",\"scope\":\"auto\",\"early_dispatch\":false,\"kernel_ids\":[-1,0,-1],"
        "\"block_num\":1,\"args\":[{\"idx\":0,\"type\":\"INPUT\",\"tensor_id\":\"2\",\"dtype\":"
        "\"FLOAT16\",\"shape\":[4096,4096],\"start_offset\":\"0\",\"strides\":[4096,1]}]}],"
        "\"tensors\":[{\"tensor_id\":\"1\",\"buffer_addr\":\"4096\",\"version\":0,\"dtype\":\"FLOAT16\","
        "\"buffer_numel\":\"256\"},{\"tensor_id\":\"2\",\"buffer_addr\":\"1048576\",\"version\":0,"
        "\"dtype\":\"FLOAT16\",\"buffer_numel\":\"16777216\"}],\"edges\":[]}\n"));
    return dir;
}

/*
 * A task the model prices at over 100x the median of its kernel's other
 * tasks is said, on stderr and in the kernel's note. Tasks 0 and 1 read
 * [16, 16] FLOAT16 (512 B): one tile, MTE2 at GM -> UB's 100.9 GiB/s =
 * 60.189 B/cycle, 512 / 60.189 = 8.5 -> 9 cycles, the vector pass 256 x 2 B /
 * 256 = 2: 11 cycles, 6.111 ns at 1.8 GHz. Task 2 reads [4096, 4096] FLOAT16
 * (33554432 B): 2 buffers fit the 196608 B UB at 512 tiles (256 would need
 * 262144 B), each MTE2 65536 B = 1088.8 -> 1089 cycles and a vector pass of
 * 32768 elements = 256 cycles; MTE2 paces them: 512 x 1089 + 256 = 557824
 * cycles = 309902.2 ns, 50711x the others' median of 6.111 ns.
 */
START_TEST(a_task_priced_far_above_its_kernels_others_is_said)
{
    const char *dir = outlier_capture(tu_tmpdir());
    run_out r = import_with(dir, NULL, NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    const char *want =
        "task 2 is priced at 309.902 us a block, 5.07e+04x the median 0.00611111 us of the kernel's "
        "other tasks (1 of its 3 tasks are over 100x and 10 us): check its args or give its cost in a "
        "--costs table";
    char line[1024];
    snprintf(line, sizeof(line), "ptosim: warning: kernel func0: %s\n", want);
    ck_assert_msg(strstr(r.err, line), "%s", r.err);
    cJSON *k = kernel_entry(r.out, 0);
    ck_assert_msg(strstr(cJSON_GetObjectItem(k, "note")->valuestring, want), "%s",
                  cJSON_GetObjectItem(k, "note")->valuestring);
    cJSON_Delete(k);
    tu_run_free(&r);
}
END_TEST

/* Every capture imports with chip-scale costs by default; --costs swimlane
 * gives back the capture's times. */
START_TEST(every_fixture_imports_with_the_models_costs)
{
    DIR *d = opendir(PTOSIM_SRCDIR "/tests/real");
    ck_assert_ptr_nonnull(d);
    struct dirent *de;
    int n = 0;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.' || strchr(de->d_name, '.'))
            continue;
        run_out r = import_with(real_dir(de->d_name), NULL, NULL);
        ck_assert_msg(r.status == 0, "%s: %s", de->d_name, r.err);
        char swim[4200];
        snprintf(swim, sizeof(swim), "%s/chip_swimlane_records.json", real_dir(de->d_name));
        bool timed = tu_exists(swim); /* the cuts of larger captures (tests/real/README.md) have none */
        ck_assert_msg(strstr(r.err, timed
                                        ? "ptosim: kernel costs from the model: the swimlane has 24 cores"
                                        : "ptosim: kernel costs from the model: the capture has no swimlane"),
                      "%s: %s", de->d_name, r.err);
        ck_assert_msg(!strstr(r.out, "\"ns\""), "%s: a flat time in a model-costed graph", de->d_name);
        /* the real runtime ran every one of them to the end: so must ptosim, on the model's costs */
        char *g = tu_write(tu_tmpdir(), "model.jsonl", r.out);
        tu_run_free(&r);
        const char *run[] = {"run", g, "--quiet", NULL};
        r = tu_run(run);
        ck_assert_msg(r.status == 0, "%s: the model-costed graph does not run: %s", de->d_name, r.err);
        free(g);
        tu_run_free(&r);
        r = import_with(real_dir(de->d_name), "--costs", "swimlane");
        ck_assert_msg(r.status == 0, "%s: %s", de->d_name, r.err);
        ck_assert_msg(!strstr(r.err, "kernel costs from the model"), "%s", de->d_name);
        ck_assert_msg(timed || !strstr(r.out, "\"ns\""), "%s: a swimlane time without a swimlane",
                      de->d_name);
        tu_run_free(&r);
        n++;
    }
    closedir(d);
    ck_assert_int_ge(n, 24);
}
END_TEST

/* One AIC task of 24 blocks, FLOAT16 A . B into C, all [n, n]: the args a capture records of an SPMD GEMM,
 * the whole tensors. */
static const char *spmd_gemm_capture(const char *dir, int n)
{
    char deps[2048];
    long long e = (long long)n * n;
    snprintf(deps, sizeof(deps),
             "{\"tasks\":[{\"task_id\":\"0\",\"scope\":\"auto\",\"early_dispatch\":false,\"kernel_ids\":[0,-1,-1],"
             "\"block_num\":24,\"args\":["
             "{\"idx\":0,\"type\":\"INPUT\",\"tensor_id\":\"1\",\"dtype\":\"FLOAT16\",\"shape\":[%d,%d],"
             "\"start_offset\":\"0\",\"strides\":[%d,1]},"
             "{\"idx\":1,\"type\":\"INPUT\",\"tensor_id\":\"2\",\"dtype\":\"FLOAT16\",\"shape\":[%d,%d],"
             "\"start_offset\":\"0\",\"strides\":[%d,1]},"
             "{\"idx\":2,\"type\":\"OUTPUT_EXISTING\",\"tensor_id\":\"3\",\"dtype\":\"FLOAT16\",\"shape\":[%d,%d],"
             "\"start_offset\":\"0\",\"strides\":[%d,1]}]}],"
             "\"tensors\":[{\"tensor_id\":\"1\",\"buffer_addr\":\"4096\",\"version\":0,\"dtype\":\"FLOAT16\","
             "\"buffer_numel\":\"%lld\"},{\"tensor_id\":\"2\",\"buffer_addr\":\"1073741824\",\"version\":0,"
             "\"dtype\":\"FLOAT16\",\"buffer_numel\":\"%lld\"},{\"tensor_id\":\"3\",\"buffer_addr\":\"2147483648\","
             "\"version\":0,\"dtype\":\"FLOAT16\",\"buffer_numel\":\"%lld\"}],\"edges\":[]}\n",
             n, n, n, n, n, n, n, n, n, e, e, e);
    free(tu_write(dir, "deps.json", deps));
    return dir;
}

/*
 * pto-isa's published silicon GEMM (docs/figures/performance: 24 cores, FLOAT16, 1536^3 / 3072^3 / 6144^3 in
 * 38.8 / 206.7 / 1506 us): imported from the args a capture has and run, the shape model's makespan is
 * within 25 % of each. One block takes a 4 x 6 share of the output (n / 4 x n / 6) in 128 x 256 tiles that
 * re-read their panels from the L2, at pto-isa's GM -> L1 rate, and the 24 share the HBM.
 */
START_TEST(an_spmd_gemm_holds_to_silicon)
{
    static const struct {
        int n;
        double silicon_us;
    } cases[] = {{1536, 38.8}, {3072, 206.7}, {6144, 1506}};
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const char *dir = spmd_gemm_capture(tu_tmpdir(), cases[i].n);
        run_out r = import_with(dir, NULL, NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        char *g = tu_write(dir, "gemm.jsonl", r.out);
        tu_run_free(&r);
        char out[4200];
        snprintf(out, sizeof(out), "%s/out", dir);
        const char *run[] = {"run", g, "-o", out, "--quiet", NULL};
        r = tu_run(run);
        ck_assert_msg(r.status == 0, "%s", r.err);
        tu_run_free(&r);
        char p[4300];
        snprintf(p, sizeof(p), "%s/ptosim_run.json", out);
        cJSON *j = tu_json_file(p);
        double m = cJSON_GetObjectItem(j, "makespan_us")->valuedouble, ratio = m / cases[i].silicon_us;
        ck_assert_msg(ratio >= 0.75 && ratio <= 1.25, "GEMM %d^3: %.3f us against silicon's %.1f (%.2fx)",
                      cases[i].n, m, cases[i].silicon_us, ratio);
        cJSON_Delete(j);
        free(g);
    }
}
END_TEST

/*
 * A task the model prices past a watchdog is said: the runtime ran it, so a run that ends in a timeout
 * would be the model misreading its args. Attention of Q, K and V [1048576, 128] BF16 into O of that shape,
 * one AIC task: m 1048576 (Q's rows), n 1048576, k 2 x 128. In 3 x 268435456 = 805306368 B; two buffers fit
 * the L1 once k is cut in 4096: 4096 tiles of k 1, each a cube of 65536 x 65536 x 1 steps = 4294967296
 * cycles, MTE2 196608 B (2442 cycles at 80.531 B/cycle), MTE1 384, FIXPIPE 65536 B of BF16 at 41.727
 * B/cycle, 1571. The cube paces them: 2442 + 384 + 4096 x 4294967296 + 1571 = 17592186048813 cycles,
 * 9773.44 s at 1.8 GHz, past a2a3's 10 s scheduler no-progress timeout (the shorter of its two watchdogs).
 */
START_TEST(a_task_priced_past_a_watchdog_is_said)
{
    const char *dir = tu_tmpdir();
    char deps[2048] = "{\"tasks\":[{\"task_id\":\"0\",\"scope\":\"auto\",\"early_dispatch\":false,"
                      "\"kernel_ids\":[0,-1,-1],\"block_num\":1,\"args\":[";
    static const char *const types[] = {"INPUT", "INPUT", "INPUT", "OUTPUT_EXISTING"};
    for (int i = 0; i < 4; i++)
        snprintf(deps + strlen(deps), sizeof(deps) - strlen(deps),
                 "%s{\"idx\":%d,\"type\":\"%s\",\"tensor_id\":\"%d\",\"dtype\":\"BFLOAT16\",\"shape\":[1048576,"
                 "128],\"start_offset\":\"0\",\"strides\":[128,1]}",
                 i ? "," : "", i, types[i], i + 1);
    strcat(deps, "]}],\"tensors\":[");
    for (int i = 0; i < 4; i++)
        snprintf(deps + strlen(deps), sizeof(deps) - strlen(deps),
                 "%s{\"tensor_id\":\"%d\",\"buffer_addr\":\"%lld\",\"version\":0,\"dtype\":\"BFLOAT16\","
                 "\"buffer_numel\":\"134217728\"}",
                 i ? "," : "", i + 1, 4096 + (long long)i * 268435456);
    strcat(deps, "],\"edges\":[]}\n");
    free(tu_write(dir, "deps.json", deps));
    run_out r = import_with(dir, NULL, NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.err, "ptosim: warning: kernel func0: task 0 is priced at 9773.44 s a block, past "
                                "a2a3's scheduler no-progress timeout (10 s; 1 of its 1 tasks are): a run "
                                "would end in a timeout the runtime did not hit; check its args or give its "
                                "cost in a --costs table\n"),
                  "%s", r.err);
    tu_run_free(&r);
}
END_TEST

/* text with every `what` replaced by `with` (malloc'd; at least one must occur). */
static char *replace_all(const char *text, const char *what, const char *with)
{
    size_t nw = strlen(what), nt = strlen(with), n = 0;
    for (const char *p = strstr(text, what); p; p = strstr(p + nw, what))
        n++;
    ck_assert_msg(n > 0, "no %s", what);
    char *out = malloc(strlen(text) + n * nt + 1), *w = out;
    ck_assert_ptr_nonnull(out);
    for (const char *p = text, *q;; p = q + nw) {
        q = strstr(p, what);
        if (!q) {
            strcpy(w, p);
            break;
        }
        memcpy(w, p, (size_t)(q - p));
        w += q - p;
        memcpy(w, with, nt);
        w += nt;
    }
    return out;
}

/* import_capture of dir into a string (malloc'd), asserting success. */
static char *import_text(const char *dir)
{
    char *buf = NULL, err[4096] = "";
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    int rc = import_capture(dir, NULL, f, err, sizeof(err));
    fclose(f);
    ck_assert_msg(rc == 0, "%s", err);
    return buf;
}

START_TEST(a_large_capture_is_read_through_a_window_and_reads_as_whole)
{
    /* paged attention, 1024 tasks: deps.json 1.3 MB, the swimlane 0.7 MB */
    const char *dir = tu_tmpdir();
    const char *gen[] = {"gen", "paged_attention", "--batch", "8",         "--heads", "16", "--head-dim",
                         "128", "--block-size",    "128",     "--context", "4096",    NULL};
    run_out g = tu_run(gen);
    ck_assert_int_eq(g.status, 0);
    char *graph = tu_write(dir, "pa.jsonl", g.out);
    tu_run_free(&g);
    capture(graph, dir, true);
    char dfx[4200];
    snprintf(dfx, sizeof(dfx), "%s/dfx_outputs", dir);
    char *whole = import_text(dfx);
    jstream_window = 4096;
    char *windowed = import_text(dfx);
    /* neither file nor any of their lists was held: one window of 4 KiB that never grew */
    ck_assert_uint_eq(import_peak_window(), 4096);
    jstream_window = JSTREAM_WINDOW;
    ck_assert_str_eq(windowed, whole);
    /* keys written with escapes: the stream leaves the file to the whole-file reading, which reads the
     * same graph */
    char *deps = deps_of(dir), *esc = replace_all(deps, "\"task_id\"", "\"task\\u005fid\"");
    char *edir = (char *)tu_tmpdir(), sub[4300];
    free(tu_write(edir, "deps.json", esc));
    static const char *const KEEP[] = {"chip_swimlane_records.json", "scope_stats/scope_stats.jsonl",
                                       "name_map_gen_paged_attention.json"};
    snprintf(sub, sizeof(sub), "%s/scope_stats", edir);
    ck_assert_int_eq(mkdir(sub, 0755), 0);
    for (int k = 0; k < 3; k++) {
        char from[4300], *text;
        snprintf(from, sizeof(from), "%s/%s", dfx, KEEP[k]);
        text = tu_read(from);
        free(tu_write(edir, KEEP[k], text));
        free(text);
    }
    char *escaped = import_text(edir);
    ck_assert_str_eq(escaped, whole);
    free(escaped), free(esc), free(deps), free(windowed), free(whole), free(graph);
}
END_TEST

START_TEST(a_capture_that_changed_since_it_was_checked_is_named)
{
    /* checked: conform's own check accepted the files a moment ago, so the import only delimits their
     * values; each is still parsed strictly, and one that is not JSON means the file changed since */
    const char *dir = tu_tmpdir();
    free(tu_write(dir, "deps.json", "{\"tasks\": [{\"task_id\": 1 2}], \"tensors\": [], \"edges\": []}"));
    import_opts opt = {.costs = IMPORT_COSTS_AUTO, .checked = true};
    char err[4400], want[4400];
    FILE *f = fopen("/dev/null", "w");
    ck_assert_int_eq(import_capture(dir, &opt, f, err, sizeof(err)), -1);
    snprintf(want, sizeof(want), "%s/deps.json: changed while it was read", dir);
    ck_assert_str_eq(err, want);
    /* unchecked, the same file is named as any malformed one */
    opt.checked = false;
    ck_assert_int_eq(import_capture(dir, &opt, f, err, sizeof(err)), -1);
    snprintf(want, sizeof(want), "%s/deps.json:1:26: json: not valid JSON", dir);
    ck_assert_str_eq(err, want);
    fclose(f);
}
END_TEST

/* A capture's files are read only when they are regular files: deps.json a link to /dev/zero was read without
 * end (13.8 GB in a minute) and a FIFO blocked import, and a FIFO ptosim_run.json blocked report, forever. */
START_TEST(a_device_or_a_fifo_in_a_capture_is_refused_not_read)
{
    const char *dir = tu_tmpdir();
    char deps[4200], want[4400];
    snprintf(deps, sizeof(deps), "%s/deps.json", dir);
    ck_assert_int_eq(symlink("/dev/zero", deps), 0);
    const char *args[] = {"import", dir, NULL};
    run_out r = tu_run(args);
    ck_assert_int_eq(r.status, 3);
    /* a link in the capture is not followed at all (test_links.c) */
    snprintf(
        want, sizeof(want),
        "ptosim import: %s: is a symbolic link, which ptosim did not make and does not follow; remove it\n",
        deps);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    ck_assert_int_eq(unlink(deps), 0);
    ck_assert_int_eq(mkfifo(deps, 0600), 0);
    snprintf(want, sizeof(want),
             "ptosim import: %s: cannot read: not a regular file (capture with --enable-dep-gen)\n", deps);
    r = tu_run(args);
    ck_assert_int_eq(r.status, 3);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    /* report: a FIFO where ptosim_run.json should be */
    const char *rdir = tu_tmpdir();
    char run_json[4200];
    snprintf(run_json, sizeof(run_json), "%s/ptosim_run.json", rdir);
    ck_assert_int_eq(mkfifo(run_json, 0600), 0);
    const char *rep[] = {"report", rdir, NULL};
    r = tu_run(rep);
    ck_assert_int_eq(r.status, 3);
    snprintf(want, sizeof(want), "ptosim report: %s: cannot read: not a regular file\n", run_json);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
}
END_TEST

/* Makes path a sparse file of size bytes (ftruncate: no disk is used). */
static void sparse(const char *path, off_t size)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(ftruncate(fd, size), 0);
    close(fd);
}

/* A file read whole has a cap by its kind, checked by its size before it is read: a sent folder's sparse
 * 3 GiB ptosim_run.json cost report 3.1 GB and 15 s before "not valid JSON"; a capture's, a costs table's
 * the same. The message names the file, its size and the cap. */
START_TEST(a_file_past_its_kinds_cap_is_refused_before_it_is_read)
{
    const char *dir = tu_tmpdir();
    char path[4200], want[4600];
    /* report: a run folder's ptosim_run.json of 3 GiB */
    snprintf(path, sizeof(path), "%s/ptosim_run.json", dir);
    sparse(path, (off_t)3 << 30);
    const char *rep[] = {"report", dir, NULL};
    run_out r = tu_run(rep);
    ck_assert_int_eq(r.status, 3);
    snprintf(want, sizeof(want),
             "ptosim report: %s: cannot read: 3221225472 bytes, over the 64 MiB cap for a run file\n", path);
    ck_assert_str_eq(r.err, want);
    ck_assert(!tu_exists(strcat(strcpy(path, dir), "/report.html")));
    tu_run_free(&r);
    /* import: a capture's deps.json of 9 GiB, past a record file's cap */
    const char *cap = tu_tmpdir();
    snprintf(path, sizeof(path), "%s/deps.json", cap);
    sparse(path, (off_t)9 << 30);
    const char *imp[] = {"import", cap, NULL};
    r = tu_run(imp);
    ck_assert_int_eq(r.status, 3);
    snprintf(want, sizeof(want),
             "ptosim import: %s: cannot read: 9663676416 bytes, over the 8 GiB cap for a record file\n", path);
    ck_assert_str_eq(r.err, want);
    ck_assert_str_eq(r.out, "");
    tu_run_free(&r);
    /* conform reads it whole too where the stream refuses it */
    const char *con[] = {"conform", cap, NULL};
    r = tu_run(con);
    ck_assert_int_eq(r.status, 3);
    snprintf(want, sizeof(want),
             "ptosim conform: %s: cannot read: 9663676416 bytes, over the 8 GiB cap for a record file\n", path);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    /* a costs table of 100 MiB */
    snprintf(path, sizeof(path), "%s/costs.csv", dir);
    sparse(path, (off_t)100 << 20);
    r = import_with(real_dir("pa_small1"), "--costs", path);
    ck_assert_int_eq(r.status, 3);
    snprintf(want, sizeof(want),
             "ptosim import: %s: cannot read the costs table: 104857600 bytes, over the 64 MiB cap for a table\n",
             path);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
}
END_TEST

/* An import that exits 0 has written a graph ptosim accepts: the graph is checked before any byte reaches
 * stdout. A name_map that gives two func ids one name keeps it for the lower and calls the other NAME_ID (it
 * wrote "kernel name 'QK' is used twice" into the graph); scope stats whose task window is no power of 2 are
 * refused with what the graph would have said, and nothing is written. */
START_TEST(an_import_that_succeeds_writes_a_graph_that_validates)
{
    const char *dir = tu_tmpdir();
    char cmd[8192];
    snprintf(cmd, sizeof(cmd),
             "cp -r %s %s/a && sed -i 's/\"3\": \"UP\"/\"3\": \"QK\"/' %s/a/name_map_*.json && cp -r %s %s/b && "
             "sed -i '1s/\"task_window_max\": \\[16384,/\"task_window_max\": [16383,/' "
             "%s/b/scope_stats/scope_stats.jsonl",
             real_dir("pa_small1"), dir, dir, real_dir("pa_small1"), dir, dir);
    ck_assert_int_eq(system(cmd), 0);
    char a[4200], b[4200], want[8192];
    snprintf(a, sizeof(a), "%s/a", dir);
    snprintf(b, sizeof(b), "%s/b", dir);
    const char *args_a[] = {"import", a, NULL};
    run_out r = tu_run(args_a);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.err, "ptosim: note: name_map_TestPagedAttention_CaseSmall1.json: func ids 0 and 3 are "
                                "both named 'QK': func id 3 is called 'QK_3' in the graph\n"),
                  "%s", r.err);
    cJSON *k = kernel_entry(r.out, 3);
    ck_assert_str_eq(cJSON_GetObjectItem(k, "name")->valuestring, "QK_3");
    cJSON_Delete(k);
    char *g = tu_write(dir, "a.jsonl", r.out);
    tu_run_free(&r);
    const char *val[] = {"validate", g, NULL};
    r = tu_run(val);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    free(g);
    const char *args_b[] = {"import", b, NULL};
    r = tu_run(args_b);
    ck_assert_int_eq(r.status, 3);
    ck_assert_str_eq(r.out, "");
    snprintf(want, sizeof(want),
             "ptosim import: %s: the graph made from this capture does not validate, so none is written: line 1: "
             "run_config.ring_task_window: ring_task_window entries must be a power of 2 >= 4 (or 0 to keep "
             "default), got 16383\n",
             b);
    ck_assert_msg(strstr(r.err, want), "%s", r.err);
    tu_run_free(&r);
}
END_TEST

/* ptosim import of dir with stdout on fd (closed here; when rd >= 0 it is a pipe's write end, and what comes
 * out of rd is read into *out while ptosim runs, else *out is ""). Stderr into *err; the exit status. */
static int import_to_fd(const char *dir, int fd, int rd, char **out, char **err)
{
    char errp[] = "/tmp/ptosim-ie-XXXXXX";
    int fe = mkstemp(errp);
    ck_assert_int_ge(fe, 0);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        dup2(fd, 1);
        dup2(fe, 2);
        if (rd >= 0)
            close(rd);
        execl(PTOSIM_BIN, PTOSIM_BIN, "import", dir, (char *)NULL);
        _exit(127);
    }
    close(fd);
    size_t n = 0, cap = 1 << 12;
    char *o = malloc(cap + 1);
    ck_assert_ptr_nonnull(o);
    while (rd >= 0) { /* 4 KiB at a time: the writer meets a full pipe */
        ssize_t got = read(rd, o + n, cap - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        n += (size_t)got;
        if (n == cap) {
            o = realloc(o, 2 * cap + 1);
            ck_assert_ptr_nonnull(o);
            cap *= 2;
        }
    }
    if (rd >= 0)
        close(rd);
    o[n] = '\0';
    *out = o;
    int st = 0;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    close(fe);
    *err = tu_read(errp);
    unlink(errp);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The graph is copied from the file it was checked in to stdout by the kernel (sendfile) where it can, by
 * read and write where it cannot: the same bytes into a file, into a pipe read slower than it is written (the
 * graph is 4.5 pipe buffers), after what a file opened to append holds; on a full device the failure is said
 * once, and the status is 1. */
START_TEST(the_graph_reaches_a_file_a_pipe_or_a_full_device_whole)
{
    const char *dir = tu_tmpdir(), *cap = REAL("paums_unroll_case2");
    const char *args[] = {"import", cap, NULL};
    run_out ref = tu_run(args); /* stdout a file of its own */
    ck_assert_msg(ref.status == 0, "%s", ref.err);
    size_t len = strlen(ref.out);
    ck_assert_uint_gt(len, 4 * 65536);
    char *g = tu_write(dir, "ref.jsonl", ref.out);
    const char *val[] = {"validate", g, NULL};
    run_out r = tu_run(val);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    free(g);
    char *out, *err;
    int p[2];
    ck_assert_int_eq(pipe(p), 0);
    ck_assert_int_eq(import_to_fd(cap, p[1], p[0], &out, &err), 0);
    ck_assert_str_eq(err, ref.err);
    ck_assert_uint_eq(strlen(out), len);
    ck_assert_msg(strcmp(out, ref.out) == 0, "the graph through a pipe differs");
    free(out);
    free(err);
    /* appended after what the file holds */
    char *path = tu_write(dir, "append.jsonl", "{\"kept\": 1}\n");
    int fd = open(path, O_WRONLY | O_APPEND);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(import_to_fd(cap, fd, -1, &out, &err), 0);
    free(out);
    free(err);
    char *got = tu_read(path);
    ck_assert_uint_eq(strlen(got), strlen("{\"kept\": 1}\n") + len);
    ck_assert_int_eq(strncmp(got, "{\"kept\": 1}\n", strlen("{\"kept\": 1}\n")), 0);
    ck_assert_msg(strcmp(got + strlen("{\"kept\": 1}\n"), ref.out) == 0, "the appended graph differs");
    free(got);
    free(path);
    /* no room: said once, status 1 */
    fd = open("/dev/full", O_WRONLY);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(import_to_fd(cap, fd, -1, &out, &err), 1);
    char want[8192];
    snprintf(want, sizeof(want), "%sptosim: cannot write standard output: No space left on device\n", ref.err);
    ck_assert_str_eq(err, want);
    free(out);
    free(err);
    tu_run_free(&ref);
}
END_TEST

/* ---- the one-pass reader (sim/import/import_lex.h) ---- */

/* text in a buffer with the slack the reader reads words from */
static const ilex *lex_text(ilex *lx, char *buf, size_t size, const char *text)
{
    size_t n = strlen(text);
    ck_assert_uint_lt(n + 1 + ILEX_SLACK, size);
    memset(buf, 0, size);
    memcpy(buf, text, n);
    ilex_text(lx, buf, n);
    return lx;
}

START_TEST(the_one_pass_reader_takes_plain_json_and_leaves_the_rest)
{
    static const struct {
        const char *text;
        int want;    /* ILEX_OK or ILEX_BAD */
        size_t upto; /* OK: the value's length */
    } cases[] = {
        {"\"abc\" ", ILEX_OK, 5},
        {"\"a\\\"b\"", ILEX_BAD, 0},      /* an escape: the reference reads it */
        {"\"caf\xc3\xa9\"", ILEX_BAD, 0}, /* not ASCII */
        {"\"a\tb\"", ILEX_BAD, 0},        /* a control character */
        {"123,", ILEX_OK, 3},
        {"-0]", ILEX_OK, 2},
        {"1.5e3}", ILEX_OK, 5},
        {"[01]", ILEX_BAD, 0}, /* 0, then a digit where a comma belongs */
        {"1.", ILEX_BAD, 0},
        {"-", ILEX_BAD, 0},
        {"true", ILEX_OK, 4},
        {"tru", ILEX_BAD, 0},
        {"nul ", ILEX_BAD, 0},
        {"[1, 2 ,3]", ILEX_OK, 9},
        {"[\"wait\", \"x\"]", ILEX_OK, 13},
        {"{\"a\": 1, \"b\": [true, null]}", ILEX_OK, 27},
        {"{\"a\": 1, \"a\": 2}", ILEX_BAD, 0}, /* a repeated key: jsonl refuses it */
        {"[1,]", ILEX_BAD, 0},
        {"{,}", ILEX_BAD, 0},
        {"[1 2]", ILEX_BAD, 0},
        {"{\"a\" 1}", ILEX_BAD, 0},
        {"[1\0]", ILEX_BAD, 0}, /* a NUL inside the text */
    };
    char buf[256];
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        ilex lx;
        lex_text(&lx, buf, sizeof(buf), cases[i].text);
        const char *after = NULL;
        int r = ilex_skip(&lx, buf, &after);
        ck_assert_msg(r == cases[i].want, "%s: %d", cases[i].text, r);
        if (r == ILEX_OK)
            ck_assert_msg((size_t)(after - buf) == cases[i].upto, "%s: %zu", cases[i].text,
                          (size_t)(after - buf));
        /* the quick skip takes the same values */
        r = ilex_skip_quick(&lx, buf, &after);
        ck_assert_msg(r == cases[i].want, "quick %s: %d", cases[i].text, r);
    }
    /* at most 48 members, no deeper than 64 */
    char big[4096] = "{";
    for (int k = 0; k < 49; k++)
        snprintf(big + strlen(big), sizeof(big) - strlen(big), "%s\"k%d\": %d", k ? ", " : "", k, k);
    strcat(big, "}");
    char text[4096 + 128];
    ilex lx;
    const char *after;
    lex_text(&lx, text, sizeof(text), big);
    ck_assert_int_eq(ilex_skip(&lx, text, &after), ILEX_BAD);
    *strrchr(big, ',') = '}';
    *(strrchr(big, '}') + 1) = '\0';
    lex_text(&lx, text, sizeof(text), big);
    ck_assert_int_eq(ilex_skip(&lx, text, &after), ILEX_OK);
    char deep[256] = "";
    for (int d = 0; d < 64; d++)
        strcat(deep, "[");
    for (int d = 0; d < 64; d++)
        strcat(deep, "]");
    lex_text(&lx, text, sizeof(text), deep);
    ck_assert_int_eq(ilex_skip(&lx, text, &after), ILEX_OK);
    memmove(deep + 1, deep, strlen(deep) + 1);
    deep[0] = '[';
    strcat(deep, "]");
    lex_text(&lx, text, sizeof(text), deep);
    ck_assert_int_eq(ilex_skip(&lx, text, &after), ILEX_BAD);
}
END_TEST

START_TEST(the_one_pass_reader_reads_integers_a_double_holds_exactly)
{
    static const struct {
        const char *text;
        bool is_int;
        int64_t v;
    } cases[] = {
        {"0,", true, 0},
        {"15]", true, 15},
        {"-1 ", true, -1},
        {"-0,", false, 0}, /* the tree's -0.0 */
        {"123456789012345,", true, 123456789012345},
        {"1234567890123456,", false, 0}, /* past 15 digits: the tree's double decides */
        {"1.5,", false, 0},
        {"1e3,", false, 0},
    };
    char buf[128];
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        ilex lx;
        lex_text(&lx, buf, sizeof(buf), cases[i].text);
        const char *after;
        bool is_int = !cases[i].is_int;
        int64_t v = -42;
        ck_assert_int_eq(ilex_number(&lx, buf, &after, &is_int, &v), ILEX_OK);
        ck_assert_msg(is_int == cases[i].is_int, "%s", cases[i].text);
        if (is_int)
            ck_assert_int_eq(v, cases[i].v);
        ck_assert_int_eq(after - buf, strcspn(cases[i].text, ",] "));
    }
    uint64_t x;
    ck_assert(ilex_digits8("12345678", &x));
    ck_assert_uint_eq(x, 12345678);
    ck_assert(ilex_digits8("00000901", &x));
    ck_assert_uint_eq(x, 901);
    ck_assert(!ilex_digits8("1234567a", &x));
    ck_assert(!ilex_digits8("/2345678", &x));
    ck_assert(!ilex_digits8("1234567:", &x));
}
END_TEST

/* ilex_ws: the one space after ':' or ',' taken at once, any other run of space, tab, CR and LF walked */
START_TEST(the_one_pass_reader_skips_white_space)
{
    static const struct {
        const char *text;
        size_t skipped;
    } cases[] = {
        {"x", 0},     {" x", 1},     {"  x", 2},   {" \n  \"k\"", 4}, {"\t\r\n 1", 4},
        {" ", 1},     {"", 0},       {" \x01", 1}, {" \x7f", 1},      {"\n", 1},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char buf[16] = {0}; /* the NUL after the text: no white space */
        memcpy(buf, cases[i].text, strlen(cases[i].text));
        ck_assert_msg((size_t)(ilex_ws(buf) - buf) == cases[i].skipped, "case %zu", i);
    }
}
END_TEST

START_TEST(the_one_pass_reader_reads_a_file_through_its_window)
{
    /* a window of 16 bytes: values cut by its end are read again whole; one larger than it grows it */
    const char *dir = tu_tmpdir();
    char *path = tu_write(dir, "list.json", "[123456789012, \"abcdefghijklmnopq\", {\"k\": [1, 2, 3]}, 7]");
    jstream_window = 16;
    ilex lx;
    ck_assert_int_eq(ilex_open(&lx, path), 0);
    ck_assert(ilex_eat(&lx, '['));
    bool first = true;
    int n = 0;
    while (ilex_next(&lx, &first) == 1) {
        ck_assert(ilex_skip_stream(&lx));
        n++;
    }
    ck_assert_int_eq(n, 4);
    ck_assert_int_eq(ilex_peek(&lx), 0);
    ck_assert(!lx.bad);
    ck_assert_uint_eq(lx.peak, 32); /* the 19-byte string */
    ilex_close(&lx);
    jstream_window = JSTREAM_WINDOW;
    free(path);
}
END_TEST

START_TEST(the_one_pass_reader_tells_known_keys_in_any_order_and_refuses_repeats)
{
    static const char *const KEYS[] = {"pred", "succ", "consumer_start_offset"};
    ilex_keys ks;
    ilex_keys_init(&ks, KEYS, 3);
    ck_assert_int_eq(ilex_key(&ks, "succ", 4), 1);
    ck_assert_int_eq(ilex_key(&ks, "suc", 3), -1);
    /* the same object twice (the second time the keys are guessed from the first), then the keys swapped,
     * an unknown key, and a repeat */
    static const struct {
        const char *text;
        int keys[4];
        bool ok;
    } objs[] = {
        {"{\"pred\": 1, \"succ\": 2, \"consumer_start_offset\": 3}", {0, 1, 2, -2}, true},
        {"{\"pred\":1,\"succ\":2,\"consumer_start_offset\":3}", {0, 1, 2, -2}, true},
        {"{\"consumer_start_offset\": 3, \"x\": 0, \"pred\": 1}", {2, -1, 0, -2}, true},
        {"{\"pred\": 1, \"x\": 0, \"x\": 1}", {0, -1, -2, -2}, false},
        {"{\"succ\": 1, \"succ\": 1}", {1, -2, -2, -2}, false},
        {"{\"consumer_start_offse\": 1}", {-1, -2, -2, -2}, true},
    };
    char buf[256];
    for (size_t i = 0; i < sizeof(objs) / sizeof(objs[0]); i++) {
        ilex lx;
        lex_text(&lx, buf, sizeof(buf), objs[i].text);
        ilex_seen seen;
        ilex_seen_init(&seen);
        const char *p = buf + 1, *after;
        int k = 0, key, r, m;
        bool ok = true;
        for (;;) {
            if (!ilex_member_key(&lx, &ks, &seen, p, &p, &key, &r)) {
                ok = false;
                break;
            }
            ck_assert_msg(key == objs[i].keys[k], "%s: key %d is %d", objs[i].text, k, key);
            k++;
            ck_assert_int_eq(ilex_skip(&lx, p, &p), ILEX_OK);
            if ((m = ilex_member_next(&lx, &p, &after, &r)) <= 0)
                break;
        }
        ck_assert_msg(ok == objs[i].ok, "%s", objs[i].text);
        ck_assert_int_eq(k < 4 ? objs[i].keys[k] : -2, ok ? -2 : objs[i].keys[k]);
    }
}
END_TEST

typedef struct tied {
    int key;
    char id;
} tied;

static int cmp_tied(const void *a, const void *b)
{
    const tied *x = a, *y = b;
    return x->key < y->key ? -1 : x->key > y->key;
}

#define TIED_AFTER(a, b) ((a)->key > (b)->key)
IMP_STABLE_SORT(sort_tied, tied, TIED_AFTER)

START_TEST(the_import_sorts_order_ties_as_qsort_did)
{
    /* glibc's qsort is a merge sort that keeps the order of equal records: the graph depends on it */
    tied v[] = {{2, 'a'}, {1, 'b'}, {2, 'c'}, {1, 'd'}, {0, 'e'}, {2, 'f'}, {1, 'g'}};
    sort_tied(v, sizeof(v) / sizeof(v[0]), cmp_tied);
    char got[8] = "";
    for (size_t i = 0; i < 7; i++)
        got[i] = v[i].id;
    ck_assert_str_eq(got, "ebdgacf");
    /* long enough for merges, runs in order and short runs: each key's records keep their order, as a plain
     * insertion sort (stable by its construction) leaves them */
    enum { N = 1000 };
    tied *w = malloc(N * sizeof(*w)), *ref = malloc(N * sizeof(*ref));
    ck_assert(w && ref);
    for (int i = 0; i < N; i++)
        w[i] = (tied){i < 300 ? i / 30 : (i * 7919) % 13, (char)(i % 127)};
    memcpy(ref, w, N * sizeof(*w));
    for (int i = 1; i < N; i++)
        for (int j = i; j > 0 && ref[j - 1].key > ref[j].key; j--) {
            tied x = ref[j];
            ref[j] = ref[j - 1];
            ref[j - 1] = x;
        }
    sort_tied(w, N, cmp_tied);
    for (int i = 0; i < N; i++)
        ck_assert_msg(w[i].key == ref[i].key && w[i].id == ref[i].id, "record %d", i);
    free(w);
    free(ref);
}
END_TEST

Suite *suite_import(void)
{
    Suite *s = suite_create("import");
    TCase *tc = tcase_create("round trip");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, a_capture_round_trips_through_import);
    tcase_add_test(tc, without_scope_stats_the_scopes_follow_the_rings);
    tcase_add_test(tc, import_errors_name_the_file);
    tcase_add_test(tc, scope_stats_lines_are_counted_past_the_window);
    tcase_add_test(tc, a_large_capture_is_read_through_a_window_and_reads_as_whole);
    tcase_add_test(tc, a_capture_that_changed_since_it_was_checked_is_named);
    suite_add_tcase(s, tc);
    TCase *real = tcase_create("sync-start cohorts");
    tcase_set_timeout(real, 60);
    tcase_add_test(real, a_cohort_placed_by_a_drain_comes_back_sync_start);
    tcase_add_test(real, a_swimlane_written_another_way_imports_the_same);
    tcase_add_test(real, the_spmd_ss_early_cohort_is_pre_staged_as_in_the_capture);
    tcase_add_test(real, the_sse_pending_cohort_is_staged_locally_as_in_the_capture);
    suite_add_tcase(s, real);
    TCase *conf = tcase_create("real captures");
    tcase_set_timeout(conf, 120);
    tcase_add_test(conf, import_keeps_submission_order_across_rings);
    tcase_add_test(conf, an_alloc_reached_only_through_explicit_deps_comes_back);
    tcase_add_test(conf, each_manual_scope_alloc_holds_its_own_outputs);
    tcase_add_test(conf, unrolled_manual_scopes_import_and_run_with_the_captures_counters);
    tcase_add_test(conf, on_a_wrapping_ring_an_alloc_counts_only_its_segments_buffers);
    tcase_add_test(conf, created_tensors_come_back_from_heap_offsets);
    tcase_add_test(conf, scope_modes_creators_and_manual_dep_come_back);
    tcase_add_test(conf, import_of_a_rerun_is_a_fixed_point);
    tcase_add_test(conf, import_notes_what_it_inferred_and_caps_them);
    tcase_add_test(conf, a_wrapping_heap_ring_round_trips);
    suite_add_tcase(s, conf);
    TCase *lex = tcase_create("one-pass reader");
    tcase_add_test(lex, the_one_pass_reader_takes_plain_json_and_leaves_the_rest);
    tcase_add_test(lex, the_one_pass_reader_reads_integers_a_double_holds_exactly);
    tcase_add_test(lex, the_one_pass_reader_skips_white_space);
    tcase_add_test(lex, the_one_pass_reader_reads_a_file_through_its_window);
    tcase_add_test(lex, the_one_pass_reader_tells_known_keys_in_any_order_and_refuses_repeats);
    tcase_add_test(lex, the_import_sorts_order_ties_as_qsort_did);
    suite_add_tcase(s, lex);
    TCase *costs = tcase_create("kernel costs");
    tcase_set_timeout(costs, 60);
    tcase_add_test(costs, a_simulator_capture_gets_the_models_costs_by_default);
    tcase_add_test(costs, costs_swimlane_takes_the_capture_times_and_says_when_they_are_implausible);
    tcase_add_test(costs, a_costs_table_overrides_the_model);
    tcase_add_test(costs, costs_table_errors_name_the_file_line_and_kernel);
    tcase_add_test(costs, a_kernel_the_model_cannot_cost_is_named);
    tcase_add_test(costs, a_task_priced_far_above_its_kernels_others_is_said);
    tcase_add_test(costs, an_spmd_gemm_holds_to_silicon);
    tcase_add_test(costs, a_task_priced_past_a_watchdog_is_said);
    tcase_add_test(costs, a_device_or_a_fifo_in_a_capture_is_refused_not_read);
    tcase_add_test(costs, a_file_past_its_kinds_cap_is_refused_before_it_is_read);
    tcase_add_test(costs, an_import_that_succeeds_writes_a_graph_that_validates);
    tcase_add_test(costs, the_graph_reaches_a_file_a_pipe_or_a_full_device_whole);
    tcase_add_test(costs, every_fixture_imports_with_the_models_costs);
    suite_add_tcase(s, costs);
    return s;
}
