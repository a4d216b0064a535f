/* test_tune.c - `ptosim tune`: races and serialising edges in the graph, and the ring search. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/graph/graph_reader.h"
#include "../model/graph/graph_lint.h"
#include "testutil.h"

/* x is 8 x 8 FLOAT32: 64 elements, row-major. */
#define HDR                                                                                                  \
    "{\"ptosim_graph\": 1, \"name\": \"g\", \"kernels\": [{\"id\": 0, \"name\": \"rd\", \"core\": \"aiv\", " \
    "\"cost\": {\"ns\": 1000}}, {\"id\": 1, \"name\": \"wr\", \"core\": \"aiv\", \"cost\": {\"ns\": "        \
    "1000}}], \"tensors\": [{\"name\": \"x\", \"dtype\": \"FLOAT32\", \"shape\": [8, 8]}]}\n"

static lint_report lint_text(const char *ops)
{
    char *text = malloc(strlen(HDR) + strlen(ops) + 1);
    strcpy(text, HDR);
    strcat(text, ops);
    char *path = tu_write(tu_tmpdir(), "g.jsonl", text);
    free(text);
    graph g;
    lint_report r;
    char err[GRAPH_ERR_MAX];
    ck_assert_msg(lint_graph(path, &g, &r, err, sizeof(err)) == 0, "%s", err);
    graph_close(&g);
    free(path);
    return r;
}

static size_t total(const lint_report *r)
{
    size_t n = 0;
    for (int k = 0; k < LINT_KINDS; k++)
        n += r->count[k];
    return n;
}

/* line 2 reads rows 0-3 of x; line 3 writes rows 2-5 with nothing ordering it
 * after the read: the runtime does not track write-after-read. */
START_TEST(a_write_after_an_unordered_read_is_a_race)
{
    lint_report r =
        lint_text("{\"op\": \"submit\", \"id\": \"r\", \"kernel\": \"rd\", \"args\": [{\"dir\": \"in\", "
                  "\"tensor\": \"x\", \"shape\": [4, 8], \"offset\": [0, 0]}]}\n"
                  "{\"op\": \"submit\", \"kernel\": \"wr\", \"args\": [{\"dir\": \"out_existing\", "
                  "\"tensor\": \"x\", \"shape\": [4, 8], \"offset\": [2, 0]}]}\n");
    ck_assert_int_eq(r.count[LINT_WAR], 1);
    ck_assert_int_eq(total(&r), 1);
    ck_assert_int_eq(r.shown[0].line_a, 2);
    ck_assert_int_eq(r.shown[0].line_b, 3);
    ck_assert_int_eq(r.shown[0].kernel_a, 0);
    ck_assert_int_eq(r.shown[0].kernel_b, 1);
    lint_report_free(&r);

    /* an explicit dep orders them; disjoint rows never race */
    r = lint_text("{\"op\": \"submit\", \"id\": \"r\", \"kernel\": \"rd\", \"args\": [{\"dir\": \"in\", "
                  "\"tensor\": \"x\", \"shape\": [4, 8], \"offset\": [0, 0]}]}\n"
                  "{\"op\": \"submit\", \"kernel\": \"wr\", \"deps\": [\"r\"], \"args\": [{\"dir\": "
                  "\"out_existing\", \"tensor\": \"x\", \"shape\": [4, 8], \"offset\": [2, 0]}]}\n"
                  "{\"op\": \"submit\", \"kernel\": \"wr\", \"args\": [{\"dir\": \"out_existing\", "
                  "\"tensor\": \"x\", \"shape\": [2, 8], \"offset\": [6, 0]}]}\n");
    ck_assert_int_eq(total(&r), 0);
    lint_report_free(&r);

    /* an order through a chain of edges counts: read -> (dep) a -> (RAW) b writes */
    r = lint_text("{\"op\": \"submit\", \"id\": \"r\", \"kernel\": \"rd\", \"args\": [{\"dir\": \"in\", "
                  "\"tensor\": \"x\", \"shape\": [4, 8], \"offset\": [0, 0]}]}\n"
                  "{\"op\": \"submit\", \"kernel\": \"wr\", \"deps\": [\"r\"], \"args\": [{\"dir\": \"out\", "
                  "\"tensor\": \"t\", \"dtype\": \"FLOAT32\", \"shape\": [4]}]}\n"
                  "{\"op\": \"submit\", \"kernel\": \"wr\", \"args\": [{\"dir\": \"in\", \"tensor\": \"t\"}, "
                  "{\"dir\": \"inout\", \"tensor\": \"x\", \"shape\": [4, 8], \"offset\": [0, 0]}]}\n");
    ck_assert_int_eq(total(&r), 0);
    lint_report_free(&r);
}
END_TEST

START_TEST(unordered_writes_and_opt_outs_are_races)
{
    /* out_existing does not look up earlier writers */
    lint_report r =
        lint_text("{\"op\": \"submit\", \"kernel\": \"wr\", \"args\": [{\"dir\": \"out_existing\", "
                  "\"tensor\": \"x\", \"shape\": [4, 8], \"offset\": [0, 0]}]}\n"
                  "{\"op\": \"submit\", \"kernel\": \"wr\", \"args\": [{\"dir\": \"out_existing\", "
                  "\"tensor\": \"x\", \"shape\": [1, 8], \"offset\": [3, 0]}]}\n");
    ck_assert_int_eq(r.count[LINT_WAW], 1);
    ck_assert_int_eq(total(&r), 1);
    lint_report_free(&r);
    /* inout looks them up: ordered */
    r = lint_text("{\"op\": \"submit\", \"kernel\": \"wr\", \"args\": [{\"dir\": \"out_existing\", "
                  "\"tensor\": \"x\", \"shape\": [4, 8], \"offset\": [0, 0]}]}\n"
                  "{\"op\": \"submit\", \"kernel\": \"wr\", \"args\": [{\"dir\": \"inout\", "
                  "\"tensor\": \"x\", \"shape\": [1, 8], \"offset\": [3, 0]}]}\n");
    ck_assert_int_eq(total(&r), 0);
    lint_report_free(&r);
    /* a manual_dep reader of what a writer just wrote, and a no_dep one, and a manual scope */
    r = lint_text(
        "{\"op\": \"submit\", \"kernel\": \"wr\", \"args\": [{\"dir\": \"out_existing\", "
        "\"tensor\": \"x\", \"shape\": [4, 8], \"offset\": [0, 0]}]}\n"
        "{\"op\": \"submit\", \"kernel\": \"rd\", \"args\": [{\"dir\": \"in\", \"tensor\": \"x\", "
        "\"shape\": [1, 8], \"offset\": [0, 0], \"manual_dep\": true}]}\n"
        "{\"op\": \"submit\", \"kernel\": \"rd\", \"args\": [{\"dir\": \"no_dep\", \"tensor\": \"x\", "
        "\"shape\": [1, 8], \"offset\": [1, 0]}]}\n"
        "{\"op\": \"scope_begin\", \"mode\": \"manual\"}\n"
        "{\"op\": \"submit\", \"kernel\": \"rd\", \"args\": [{\"dir\": \"in\", \"tensor\": \"x\", "
        "\"shape\": [1, 8], \"offset\": [2, 0]}]}\n"
        "{\"op\": \"scope_end\"}\n"
        "{\"op\": \"submit\", \"kernel\": \"rd\", \"args\": [{\"dir\": \"in\", \"tensor\": \"x\", "
        "\"shape\": [1, 8], \"offset\": [3, 0]}]}\n");
    ck_assert_int_eq(r.count[LINT_OPT_OUT], 3);
    ck_assert_int_eq(total(&r), 3);
    ck_assert_int_eq(r.shown[2].line_b, 6);
    lint_report_free(&r);
}
END_TEST

/* Columns 0-3 and a transposed view of columns 4-7 share no element, but the
 * overlap test sees different strides and keeps the edge (OTHER); a newer
 * version does the same on rows that do not meet. A real overlap is no
 * finding. */
START_TEST(an_edge_between_disjoint_views_is_a_suspicious_serialisation)
{
    lint_report r =
        lint_text("{\"op\": \"submit\", \"kernel\": \"wr\", \"args\": [{\"dir\": \"out_existing\", "
                  "\"tensor\": \"x\", \"shape\": [8, 4], \"offset\": [0, 0]}]}\n"
                  "{\"op\": \"submit\", \"kernel\": \"rd\", \"args\": [{\"dir\": \"in\", "
                  "\"tensor\": \"x\", \"shape\": [4, 8], \"strides\": [1, 8], \"start_offset\": 4}]}\n"
                  "{\"op\": \"submit\", \"kernel\": \"rd\", \"args\": [{\"dir\": \"in\", "
                  "\"tensor\": \"x\", \"shape\": [8, 4], \"offset\": [0, 4], \"version\": 1}]}\n"
                  "{\"op\": \"submit\", \"kernel\": \"rd\", \"args\": [{\"dir\": \"in\", "
                  "\"tensor\": \"x\", \"shape\": [8, 4], \"strides\": [8, 1], \"start_offset\": 2}]}\n");
    ck_assert_int_eq(r.count[LINT_FALSE_EDGE], 2);
    ck_assert_int_eq(total(&r), 2);
    ck_assert_int_eq(r.shown[0].line_b, 3);
    ck_assert_str_eq(r.shown[0].why, "views that are not nested row-major boxes");
    ck_assert_int_eq(r.shown[1].line_b, 4);
    ck_assert_str_eq(r.shown[1].why, "the reader's view has a newer version");
    lint_report_free(&r);
}
END_TEST

START_TEST(inout_chains_are_counted)
{
    char ops[4096] = "";
    for (int i = 0; i < 5; i++)
        strcat(ops,
               "{\"op\": \"submit\", \"kernel\": \"wr\", \"args\": [{\"dir\": \"inout\", \"tensor\": \"x\", "
               "\"shape\": [1, 8], \"offset\": [0, 0]}]}\n");
    /* three on another row are too short to report */
    for (int i = 0; i < 3; i++)
        strcat(ops,
               "{\"op\": \"submit\", \"kernel\": \"wr\", \"args\": [{\"dir\": \"inout\", \"tensor\": \"x\", "
               "\"shape\": [1, 8], \"offset\": [1, 0]}]}\n");
    lint_report r = lint_text(ops);
    ck_assert_int_eq(r.count[LINT_INOUT_CHAIN], 1);
    ck_assert_int_eq(total(&r), 1);
    ck_assert_int_eq(r.shown[0].chain, 5);
    ck_assert_int_eq(r.shown[0].line_a, 2);
    ck_assert_int_eq(r.shown[0].line_b, 6);
    lint_report_free(&r);
}
END_TEST

START_TEST(exact_intersection_of_views)
{
    tmap_view a = {.buffer_numel = 64, .start = 0, .ndims = 2}, b = a;
    a.shape[0] = 8, a.shape[1] = 4, a.strides[0] = 8, a.strides[1] = 1; /* columns 0-3 */
    b.start = 4;
    b.shape[0] = 4, b.shape[1] = 8, b.strides[0] = 1, b.strides[1] = 8; /* columns 4-7, transposed */
    ck_assert_int_eq(lint_views_intersect(&a, &b), 0);
    b.start = 3; /* columns 3-6: column 3 is shared */
    ck_assert_int_eq(lint_views_intersect(&a, &b), 1);
    tmap_view c = {.buffer_numel = 64, .start = 32, .ndims = 1}; /* elements 32-63, dense */
    c.shape[0] = 32, c.strides[0] = 1;
    tmap_view d = c;
    d.start = 0;
    ck_assert_int_eq(lint_views_intersect(&c, &d), 0);
    d.start = 1;
    ck_assert_int_eq(lint_views_intersect(&c, &d), 1);
}
END_TEST

START_TEST(shipped_clean_graphs_have_no_findings)
{
    static const char *const clean[] = {TRACE("forkjoin.jsonl"), TRACE("gen_fan.jsonl"),
                                        TRACE("chain3.jsonl"), TRACE("kv_prefill.jsonl")};
    for (size_t i = 0; i < sizeof(clean) / sizeof(clean[0]); i++) {
        graph g;
        lint_report r;
        char err[GRAPH_ERR_MAX];
        ck_assert_msg(lint_graph(clean[i], &g, &r, err, sizeof(err)) == 0, "%s", err);
        ck_assert_msg(total(&r) == 0, "%s: %zu findings", clean[i], total(&r));
        ck_assert(!r.truncated);
        graph_close(&g);
        lint_report_free(&r);
    }
}
END_TEST

/* ---- the ptosim tune program ---- */

static char *fan_graph(void)
{
    run_out g = tu_run((const char *[]){"gen", "fan", "--n", "400", "--cost-ns", "20000", NULL});
    ck_assert_int_eq(g.status, 0);
    char *path = tu_write(tu_tmpdir(), "fan.jsonl", g.out);
    tu_run_free(&g);
    return path;
}

/* The makespan and task-window wait of one ptosim run. */
static void run_threads(const char *graph, const char *window, const char *threads, double *makespan,
                        double *blocked)
{
    const char *dir = tu_tmpdir();
    const char *args[] = {
        "run",   graph, "-o", dir, "--quiet", "--ring-task-window", window, "--aicpu-thread-num",
        threads, NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char p[4300];
    snprintf(p, sizeof(p), "%s/ptosim_run.json", dir);
    cJSON *j = tu_json_file(p);
    *makespan = cJSON_GetObjectItem(j, "makespan_us")->valuedouble;
    *blocked =
        cJSON_GetObjectItem(cJSON_GetObjectItem(j, "orchestrator_blocked_us"), "task_window")->valuedouble;
    cJSON_Delete(j);
}

/* run_threads at the platform's 4 threads. */
static void run_with(const char *graph, const char *window, double *makespan, double *blocked)
{
    run_threads(graph, window, "4", makespan, blocked);
}

/* 400 scoped 20 us AIV tasks, one per scope on ring 1, with 8 slots per
 * ring: the orchestrator waits for slots. Doubling ring 1's window helps up
 * to 64, the first size at which it never waits; tune stops there and
 * reports what ptosim run measures for that setting. */
START_TEST(tune_grows_an_undersized_task_window_until_the_stall_is_gone)
{
    char *g = fan_graph();
    const char *args[] = {"tune", g, "--ring-task-window", "8", NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "ring 1 task_window full: the orchestrator waited") != NULL, "%s", r.out);
    ck_assert_msg(strstr(r.out, "ring 1 ring_task_window 32 -> 64: makespan") != NULL, "%s", r.out);
    /* then the thread count at 64 slots, each against the best so far: what ptosim run measures */
    double m64, b64, m32, b32, m8, b8, m2, b2, m3, b3;
    run_with(g, "8,64,8,8", &m64, &b64);
    run_with(g, "8,32,8,8", &m32, &b32);
    run_with(g, "8", &m8, &b8);
    run_threads(g, "8,64,8,8", "2", &m2, &b2);
    run_threads(g, "8,64,8,8", "3", &m3, &b3);
    ck_assert_double_eq(b64, 0);
    ck_assert(b32 > 0 && m32 > m64);
    char want[256];
    snprintf(want, sizeof(want),
             "   aicpu_thread_num 4 -> 2: makespan %.3f us, %s\n   aicpu_thread_num 4 -> 3: makespan %.3f "
             "us, %s\n",
             m2, m2 < m64 ? "kept" : "dropped", m3, m3 < (m2 < m64 ? m2 : m64) ? "kept" : "dropped");
    ck_assert_msg(strstr(r.out, want) != NULL, "want '%s' in %s", want, r.out);
    /* the platform's 4 threads (3 schedulers) are best here, 379.910 us against 414.790 with 3 and 533.310
     * with 2: fewer schedulers dispatch the 400 tasks more slowly; both trials are dropped */
    ck_assert(m64 < m3 && m64 < m2);
    ck_assert_msg(strstr(r.out, "   ptosim flags: --ring-task-window 8,64,8,8\n") != NULL, "%s", r.out);
    ck_assert_msg(strstr(r.out, "RunConfig(platform=\"a2a3\", ring_task_window=[8, 64, 8, 8])\n") != NULL, "%s",
                  r.out);
    snprintf(want, sizeof(want), "measured: makespan %.3f us (was: makespan %.3f us", m64, m8);
    ck_assert_msg(strstr(r.out, want) != NULL, "want '%s' in %s", want, r.out);
    ck_assert_msg(strstr(r.out, "-> 128") == NULL, "%s", r.out); /* nothing left to try after 64 */
    tu_run_free(&r);

    /* with the default 16384 slots nothing waits: nothing changes */
    const char *args2[] = {"tune", g, NULL};
    r = tu_run(args2);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "nothing to try: no ring held the orchestrator back") != NULL, "%s", r.out);
    ck_assert_msg(strstr(r.out, "keep the current settings") != NULL, "%s", r.out);
    ck_assert_msg(strstr(r.out, " kept") == NULL, "%s", r.out);
    tu_run_free(&r);
    free(g);
}
END_TEST

/* Issue 24: a 36-layer decode waits for ring 2's heap; tune doubles it up to
 * 2 GiB. That trial used to fail (code 100: two submit calls ran at once
 * after ring 3's dep pool filled, model/README.md §4.6); it now completes at
 * the makespan ptosim run gives with that heap (tests/test_rings.c). */
START_TEST(tune_measures_the_2_gib_heap_trial_of_a_36_layer_decode)
{
    run_out g = tu_run((const char *[]){"gen", "decode_layer", "--layers", "36", NULL});
    ck_assert_int_eq(g.status, 0);
    char *path = tu_write(tu_tmpdir(), "dl36.jsonl", g.out);
    tu_run_free(&g);
    run_out r = tu_run((const char *[]){"tune", path, NULL});
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "ring 2 ring_heap 268435456 -> 2147483648: makespan 31767.389 us") != NULL,
                  "%s", r.out);
    ck_assert_msg(strstr(r.out, "fails") == NULL, "%s", r.out);
    tu_run_free(&r);
    free(path);
}
END_TEST

/* 100 tasks at depth 0 with 64 slots: the scope pre-check fails the run
 * (code 1). Tune grows ring 0's window until it runs, and never recommends
 * the failing size. */
/* The runtime's benchmark_bgemm (Case0, 1000 tasks) is scheduler-bound: with 2 AICPU threads one scheduler
 * dispatches every task, and a core sits idle beside a ready task most of the run. Tune tries 3 and 4
 * threads (nothing waits on a ring), each more schedulers, each faster, and recommends 4, the makespan
 * ptosim run measures with it. */
START_TEST(tune_tries_the_aicpu_thread_count)
{
    run_out gr = tu_run((const char *[]){"gen", "bgemm", NULL});
    ck_assert_int_eq(gr.status, 0);
    char *g = tu_write(tu_tmpdir(), "bgemm.jsonl", gr.out);
    tu_run_free(&gr);
    double m2, m3, m4, b;
    run_threads(g, "0,0,0,0", "2", &m2, &b);
    run_threads(g, "0,0,0,0", "3", &m3, &b);
    run_threads(g, "0,0,0,0", "4", &m4, &b);
    ck_assert(m4 < m3 && m3 < m2);
    const char *args[] = {"tune", g, "--aicpu-thread-num", "2", NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    char want[512];
    snprintf(want, sizeof(want),
             "   nothing to try: no ring held the orchestrator back\n"
             "   aicpu_thread_num 2 -> 3: makespan %.3f us, kept\n"
             "   aicpu_thread_num 2 -> 4: makespan %.3f us, kept\n"
             "Recommended\n"
             "   ptosim flags: --aicpu-thread-num 4\n"
             "   RunConfig(platform=\"a2a3\", aicpu_thread_num=4)\n"
             "   measured: makespan %.3f us (was: makespan %.3f us, %.1f%% less)\n",
             m3, m4, m4, m2, 100 * (1 - m4 / m2));
    ck_assert_msg(strstr(r.out, want) != NULL, "want\n%s\nin\n%s", want, r.out);
    tu_run_free(&r);
    /* a count the platform cannot have is said and not simulated: 4 threads are 3 schedulers, 2 clusters */
    const char *two[] = {"tune", g, "--aicpu-thread-num", "2", "--set", "clusters=2", NULL};
    r = tu_run(two);
    ck_assert_msg(strstr(r.out,
                         "   aicpu_thread_num 2 -> 4: not on this platform (aicpu_threads=4: more schedulers "
                         "than clusters (2))\n"),
                  "%s", r.out);
    tu_run_free(&r);
    /* --max-trials 1 stops after the first count */
    const char *one[] = {"tune", g, "--aicpu-thread-num", "2", "--max-trials", "1", NULL};
    r = tu_run(one);
    ck_assert_msg(strstr(r.out, "-> 3: makespan") && !strstr(r.out, "-> 4: makespan") &&
                      strstr(r.out, "   stopped after 1 trials (--max-trials)\n"),
                  "%s", r.out);
    tu_run_free(&r);
    free(g);
}
END_TEST

START_TEST(tune_recovers_a_run_that_fails_on_a_ring)
{
    char text[16384];
    size_t n = (size_t)snprintf(text, sizeof(text), "%s", HDR);
    for (int i = 0; i < 100; i++)
        n += (size_t)snprintf(text + n, sizeof(text) - n, "{\"op\": \"submit\", \"kernel\": \"rd\"}\n");
    char *g = tu_write(tu_tmpdir(), "flat.jsonl", text);
    const char *args[] = {"tune", g, "--ring-task-window", "64", NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(
        strstr(r.out, "the run ends with runtime error 1: ring 0's ring_task_window is too small") != NULL,
        "%s", r.out);
    ck_assert_msg(strstr(r.out, "ring 0 ring_task_window 64 -> 128: makespan") != NULL, "%s", r.out);
    ck_assert_msg(strstr(r.out, "ptosim flags: --ring-task-window 128,64,64,64") != NULL, "%s", r.out);
    ck_assert_msg(strstr(r.out, "(was: fails: runtime error 1 SCOPE_DEADLOCK)") != NULL, "%s", r.out);
    tu_run_free(&r);
    free(g);
}
END_TEST

START_TEST(tune_reports_a_planted_race_and_serialising_edge_and_nothing_on_a_clean_graph)
{
    char *g =
        tu_write(tu_tmpdir(), "planted.jsonl",
                 HDR "{\"op\": \"submit\", \"kernel\": \"wr\", \"args\": [{\"dir\": \"out_existing\", "
                     "\"tensor\": \"x\", \"shape\": [8, 4], \"offset\": [0, 0]}]}\n"
                     "{\"op\": \"submit\", \"kernel\": \"rd\", \"args\": [{\"dir\": \"in\", \"tensor\": "
                     "\"x\", \"shape\": [4, 8], \"strides\": [1, 8], \"start_offset\": 4}]}\n"
                     "{\"op\": \"submit\", \"kernel\": \"wr\", \"args\": [{\"dir\": \"out_existing\", "
                     "\"tensor\": \"x\", \"shape\": [1, 8], \"offset\": [7, 0]}]}\n");
    const char *args[] = {"tune", g, NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    /* line 3 reads columns 4-7 (row 7 included) and line 4 writes all of row 7 with no edge after
     * it: WAR. Line 2 wrote columns 0-3 of row 7 too, and out_existing does not look up: WAW.
     * Line 2 -> line 3 is the edge between disjoint column sets. */
    ck_assert_msg(strstr(r.out, "a chain where a fan-out was expected: 1 suspicious serialising pattern\n") !=
                      NULL,
                  "%s", r.out);
    ck_assert_msg(strstr(r.out, "a fan-out where a chain was needed: 2 latent races\n") != NULL, "%s", r.out);
    ck_assert_msg(strstr(r.out, "1 x write-after-read race") != NULL, "%s", r.out);
    ck_assert_msg(strstr(r.out, "line 3 (rd) and line 4 (wr) on x\n") != NULL, "%s", r.out);
    ck_assert_msg(strstr(r.out, "1 x write-after-write race") != NULL, "%s", r.out);
    ck_assert_msg(strstr(r.out, "line 2 (wr) and line 4 (wr) on x\n") != NULL, "%s", r.out);
    ck_assert_msg(
        strstr(r.out, "line 2 (wr) and line 3 (rd) on x: views that are not nested row-major boxes") != NULL,
        "%s", r.out);
    tu_run_free(&r);

    const char *args2[] = {"tune", TRACE("forkjoin.jsonl"), NULL};
    r = tu_run(args2);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, ": 0 suspicious serialising patterns\n") != NULL, "%s", r.out);
    ck_assert_msg(strstr(r.out, ": 0 latent races\n") != NULL, "%s", r.out);
    tu_run_free(&r);
    free(g);
}
END_TEST

/* Step 2 carries the overhead model. The 3-task chain's figures are worked out in test_ohm.c: AIV
 * overhead 98 of 1641 ticks (6.0 %), the only engine, so all and has too; the makespan-determining path
 * 33.060 us of which 30 us compute (90.7 %) and 3.26 us scheduler-injected (9.9 %). The critical_path
 * tool's: the chain itself, 3 tasks of 10 us (500 ticks) each, the first at the window's start: compute
 * 1500 of the 1641 ticks (91.4 %), the other 141 the two data waits (8.6 %), and the static CPM the same
 * 30 us. */
START_TEST(tune_step_2_shows_the_overhead_model)
{
    const char *a[] = {"tune", TRACE("chain3.jsonl"), NULL};
    run_out r = tu_run(a);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out,
                         "   scheduler overhead (a core idle while a ready task waits to be dispatched): "
                         "AIV 6.0%, all 6.0%, has 6.0% of the makespan: compute/dependency-bound\n"
                         "   makespan-determining path (sched_overhead_analysis): 33.060 us, compute 90.7%, "
                         "scheduler-injected 9.9%\n"
                         "   critical path (critical_path): 3 tasks observed, compute 91.4%, stall 8.6% "
                         "(data-wait 8.6%); static CPM 30.000 us over 3 tasks (91.4%)\n"),
                  "%s", r.out);
    tu_run_free(&r);
}
END_TEST

/* Step 2's two waits, named for what they measure, on the 3-task chain worked out in test_ohm.c. Each
 * consumer is released by the scheduler thread that saw its producer finish, into that thread's own buffer,
 * and dispatched from there: it never sits in a shared ready queue, and only the first task does, from its
 * submit to the first dispatch phase (well under 1 us of the 48 x 35 us of AIV core time: 0.0 %). The
 * overhead model counts each consumer's whole wait, from its producer's end to its dispatch: 48 + 50 ticks,
 * 6.0 % of the makespan. The AIV cores ran 30 us of 48 x 35.084 us (1.8 %): too little parallel work, and the
 * verdict gives both waits instead of claiming that no task ever waits. */
START_TEST(tune_names_each_wait_for_what_it_measures)
{
    const char *a[] = {"tune", TRACE("chain3.jsonl"), NULL};
    run_out r = tu_run(a);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(
        strstr(r.out,
               "   AIC: busy 0.0%, idle while a task of its type sat in a shared ready queue 0.0% of its core "
               "time\n"
               "   AIV: busy 1.8%, idle while a task of its type sat in a shared ready queue 0.0% of its core "
               "time\n"
               "   (a shared queue holds tasks submitted ready and tasks one scheduler thread leaves to another; "
               "a\n"
               "   task its producer's thread releases waits in that thread's own buffer instead; the overhead\n"
               "   below counts every ready task's wait, from its last producer's end to its dispatch)\n"
               "   scheduler overhead (a core idle while a ready task waits to be dispatched): AIV 6.0%,"),
        "%s", r.out);
    ck_assert_msg(strstr(r.out, "What settings cannot fix\n"
                                "   parallelism: AIV cores are busy 1.8% and their ready tasks seldom wait (queued "
                                "0.0% of core time,\n"
                                "   waiting for dispatch 6.0% of the makespan): the graph offers too little "
                                "parallel work to fill\n"
                                "   48 cores (split tasks, or overlap independent work)\n"),
                  "%s", r.out);
    ck_assert_ptr_null(strstr(r.out, "ever waits"));
    tu_run_free(&r);
}
END_TEST

/* The shipped decoder layer is one long chain of SPMD tasks: between every producer and its consumer the
 * cores wait for the scheduler (the bottleneck line says scheduling). The verdict on what settings cannot
 * fix must say the same, with the bottleneck's own figure, and never call it too little parallel work. */
START_TEST(tune_cannot_fix_agrees_with_a_scheduling_bottleneck)
{
    const char *a[] = {"tune", TRACE("default.jsonl"), NULL};
    run_out r = tu_run(a);
    ck_assert_msg(r.status == 0, "%s", r.err);
    const char *b = strstr(r.out, "   bottleneck: scheduling: a core sat idle while a ready task waited to be "
                                  "dispatched ");
    ck_assert_msg(b != NULL, "%s", r.out);
    double has = atof(b + strlen("   bottleneck: scheduling: a core sat idle while a ready task waited to be "
                                 "dispatched "));
    ck_assert(has >= 25);
    char want[512];
    snprintf(want, sizeof(want),
             "What settings cannot fix\n"
             "   scheduling: a core still sits idle while a ready task waits to be dispatched %.1f%% of the\n"
             "   makespan: each producer -> consumer hop waits for a scheduler thread to see the producer end,\n"
             "   release the consumer and dispatch it; fewer, larger tasks (fewer hops) wait less\n",
             has);
    ck_assert_msg(strstr(r.out, want), "%s", r.out);
    ck_assert_ptr_null(strstr(r.out, "parallelism:"));
    ck_assert_ptr_null(strstr(r.out, "ever waits"));
    tu_run_free(&r);
}
END_TEST

/* With --repeat every trial is a mean over seeds, and a gain no larger than two standard errors of the
 * difference is not kept. A huge kernel spread (sigma 2) makes the 400-task fan's makespans vary by a
 * third: the first doubling of its 8-slot window gains less than the noise and is dropped; the step to
 * 32 slots gains more and is kept. The rule is checked on the printed means and sds. */
START_TEST(tune_repeat_drops_a_gain_inside_the_noise)
{
    const char *dir = tu_tmpdir();
    const char *g[] = {"gen", "fan", "--n", "400", "--cost-ns", "20000", NULL};
    run_out r = tu_run(g);
    char *path = tu_write(dir, "fan400.jsonl", r.out);
    tu_run_free(&r);
    const char *a[] = {"tune", path,    "--ring-task-window", "8", "--repeat",
                       "4",    "--set", "kernel_spread=2",    NULL};
    r = tu_run(a);
    ck_assert_msg(r.status == 0, "%s", r.err);
    double bm, bs, m16, s16, m32, s32;
    const char *base = strstr(r.out, "2. Did tasks overlap?  (makespan ");
    const char *l16 = strstr(r.out, "ring_task_window 8 -> 16: makespan ");
    const char *l32 = strstr(r.out, "ring_task_window 8 -> 32: makespan ");
    ck_assert_msg(base && l16 && l32, "%s", r.out);
    ck_assert_int_eq(sscanf(base, "2. Did tasks overlap?  (makespan %lf +/- %lf us over 4 seeds", &bm, &bs),
                     2);
    ck_assert_int_eq(
        sscanf(l16, "ring_task_window 8 -> 16: makespan %lf +/- %lf us over 4 seeds", &m16, &s16), 2);
    ck_assert_int_eq(
        sscanf(l32, "ring_task_window 8 -> 32: makespan %lf +/- %lf us over 4 seeds", &m32, &s32), 2);
    ck_assert(m16 < bm && bm - m16 <= 2 * sqrt(bs * bs / 4 + s16 * s16 / 4));
    static const char DROPPED[] =
        "over 4 seeds, inside the noise (two standard errors of the difference), dropped\n";
    ck_assert_msg(strncmp(strstr(l16, "over 4 seeds"), DROPPED, strlen(DROPPED)) == 0, "%s", r.out);
    ck_assert(bm - m32 > 2 * sqrt(bs * bs / 4 + s32 * s32 / 4));
    ck_assert_msg(strncmp(strstr(l32, "over 4 seeds"), "over 4 seeds, kept\n", 19) == 0, "%s", r.out);
    tu_run_free(&r);
    free(path);
}
END_TEST

START_TEST(tune_usage_errors_are_named)
{
    static const struct {
        const char *a[6];
        int status;
        const char *want;
    } cases[] = {
        {{"tune", TRACE("chain3.jsonl"), "--max-trials", "x", NULL},
         2,
         "--max-trials needs an integer in [0, 10000]"},
        {{"tune", TRACE("chain3.jsonl"), "-o", "/tmp/x", NULL}, 2, "takes one GRAPH and no output options"},
        {{"tune", TRACE("chain3.jsonl"), TRACE("fan200.jsonl"), NULL}, 2, "takes one GRAPH"},
        {{"tune", "/nonexistent.jsonl", NULL}, 3, "/nonexistent.jsonl: cannot open graph file"},
        {{"tune", TRACE("chain3.jsonl"), "--ring-task-window", "6", NULL}, 2, "power of 2"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        run_out r = tu_run(cases[i].a);
        ck_assert_msg(r.status == cases[i].status, "case %zu: status %d: %s", i, r.status, r.err);
        ck_assert_msg(strstr(r.err, cases[i].want) != NULL, "case %zu: %s", i, r.err);
        tu_run_free(&r);
    }
}
END_TEST

Suite *suite_tune(void)
{
    Suite *s = suite_create("tune");
    TCase *tc = tcase_create("tune");
    tcase_add_test(tc, a_write_after_an_unordered_read_is_a_race);
    tcase_add_test(tc, unordered_writes_and_opt_outs_are_races);
    tcase_add_test(tc, an_edge_between_disjoint_views_is_a_suspicious_serialisation);
    tcase_add_test(tc, inout_chains_are_counted);
    tcase_add_test(tc, exact_intersection_of_views);
    tcase_add_test(tc, shipped_clean_graphs_have_no_findings);
    tcase_add_test(tc, tune_grows_an_undersized_task_window_until_the_stall_is_gone);
    tcase_add_test(tc, tune_recovers_a_run_that_fails_on_a_ring);
    tcase_add_test(tc, tune_tries_the_aicpu_thread_count);
    tcase_add_test(tc, tune_reports_a_planted_race_and_serialising_edge_and_nothing_on_a_clean_graph);
    tcase_add_test(tc, tune_usage_errors_are_named);
    tcase_add_test(tc, tune_step_2_shows_the_overhead_model);
    tcase_add_test(tc, tune_names_each_wait_for_what_it_measures);
    tcase_add_test(tc, tune_cannot_fix_agrees_with_a_scheduling_bottleneck);
    tcase_add_test(tc, tune_repeat_drops_a_gain_inside_the_noise);
    tcase_add_test(tc, tune_measures_the_2_gib_heap_trial_of_a_36_layer_decode);
    tcase_set_timeout(tc, 120);
    suite_add_tcase(s, tc);
    return s;
}
