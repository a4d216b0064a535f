/* test_import.c - `ptosim import`: a capture round-trips through a graph file; bad captures are named; the
 * real captures of sync-start early dispatch come out as the runtime ran them. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    ck_assert_ptr_nonnull(strstr(r.err, "/deps.json: not valid JSON"));
    tu_run_free(&r);
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

    const char *args[] = {"import", REAL("sse_pending"), NULL};
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

Suite *suite_import(void)
{
    Suite *s = suite_create("import");
    TCase *tc = tcase_create("round trip");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, a_capture_round_trips_through_import);
    tcase_add_test(tc, without_scope_stats_the_scopes_follow_the_rings);
    tcase_add_test(tc, import_errors_name_the_file);
    suite_add_tcase(s, tc);
    TCase *real = tcase_create("sync-start cohorts");
    tcase_set_timeout(real, 60);
    tcase_add_test(real, a_cohort_placed_by_a_drain_comes_back_sync_start);
    tcase_add_test(real, the_spmd_ss_early_cohort_is_pre_staged_as_in_the_capture);
    tcase_add_test(real, the_sse_pending_cohort_is_staged_locally_as_in_the_capture);
    suite_add_tcase(s, real);
    return s;
}
