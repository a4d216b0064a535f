/* test_import.c - `ptosim import`: a capture round-trips through a graph file; bad captures are named. */
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

Suite *suite_import(void)
{
    Suite *s = suite_create("import");
    TCase *tc = tcase_create("round trip");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, a_capture_round_trips_through_import);
    tcase_add_test(tc, without_scope_stats_the_scopes_follow_the_rings);
    tcase_add_test(tc, import_errors_name_the_file);
    suite_add_tcase(s, tc);
    return s;
}
