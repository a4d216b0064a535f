/* test_gen.c - `ptosim gen`: every kind validates and runs, with hand-counted tasks and edges. */
/* Also determinism, parameter errors, and why generators open scopes. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/engine/chip_engine.h"
#include "../sim/gen/gen.h"
#include "../sim/gen/gen_int.h"
#include "depcmp.h"
#include "testutil.h"

/* Runs `ptosim gen ARGS...` (NULL-terminated) and returns its stdout, failing on any error. */
static char *gen_graph(const char *first, ...)
{
    const char *args[32] = {"gen", first};
    int n = 2;
    va_list ap;
    va_start(ap, first);
    for (const char *a; (a = va_arg(ap, const char *)) != NULL && n < 31;)
        args[n++] = a;
    va_end(ap);
    args[n] = NULL;
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "gen %s: exit %d: %s", first, r.status, r.err);
    ck_assert_msg(r.err[0] == '\0', "gen %s: stderr: %s", first, r.err);
    free(r.err);
    return r.out;
}

/* Occurrences of needle in text. */
static int count(const char *text, const char *needle)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, needle)) != NULL; p += strlen(needle))
        n++;
    return n;
}

/* Runs `ptosim gen ARGS...` (NULL-terminated), simulates the graph on a2a3sim
 * with dep-gen and scope stats, and compares the outputs with the real
 * runtime's capture tests/real/CAPTURE: deps.json into *d, and the scope
 * records' differences returned (the caller frees both). */
static char *vs_capture(const char *capture, depcmp *d, const char *first, ...)
{
    const char *args[32] = {"gen", first};
    int n = 2;
    va_list ap;
    va_start(ap, first);
    for (const char *a; (a = va_arg(ap, const char *)) != NULL && n < 31;)
        args[n++] = a;
    va_end(ap);
    args[n] = NULL;
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "gen %s: exit %d: %s", first, r.status, r.err);
    const char *dir = tu_tmpdir();
    char *path = tu_write(dir, "graph.jsonl", r.out);
    tu_run_free(&r);
    const char *run[] = {"run", "-p", "a2a3sim", "--enable-dep-gen", "--enable-scope-stats",
                         "-o",  dir,  path,      "--quiet",          NULL};
    r = tu_run(run);
    ck_assert_msg(r.status == 0, "run %s: exit %d: %s", path, r.status, r.err);
    tu_run_free(&r);
    free(path);
    char real[512], sim[512];
    snprintf(real, sizeof(real), "%s/tests/real/%s/deps.json", PTOSIM_SRCDIR, capture);
    snprintf(sim, sizeof(sim), "%s/dfx_outputs/deps.json", dir);
    depcmp_deps(real, sim, d);
    snprintf(real, sizeof(real), "%s/tests/real/%s/scope_stats/scope_stats.jsonl", PTOSIM_SRCDIR, capture);
    snprintf(sim, sizeof(sim), "%s/dfx_outputs/scope_stats/scope_stats.jsonl", dir);
    int nreal, nsim;
    char *scopes = depcmp_scopes(real, sim, &nreal, &nsim);
    ck_assert_int_eq(nsim, nreal);
    return scopes;
}

/* Asserts that the generated graph gives exactly the capture's tasks, edges and scope records. */
static void assert_same_as_capture(depcmp *d, char *scopes, int tasks, int edges)
{
    ck_assert_int_eq(d->tasks_real, tasks);
    ck_assert_int_eq(d->edges_real, edges);
    ck_assert_msg(d->task_diff[0] == '\0', "tasks differ:\n%.2000s", d->task_diff);
    ck_assert_msg(d->edge_diff[0] == '\0', "edges differ:\n%.2000s", d->edge_diff);
    ck_assert_msg(scopes[0] == '\0', "scope records differ:\n%.2000s", scopes);
    ck_assert_int_eq(d->tasks_sim, tasks);
    ck_assert_int_eq(d->edges_sim, edges);
    depcmp_free(d);
    free(scopes);
}

#define SUBMIT "\"op\": \"submit\""
#define ALLOC "\"op\": \"alloc\""

/* Validates and runs graph text without SimGrid; checks that it completed with
 * `kernels` tasks on AICores and `submitted` tasks in all (allocs included). */
static chip *runs(const char *text, uint64_t kernels, uint64_t submitted)
{
    chip *c = tu_chip(text, NULL, 0, NULL);
    ck_assert_msg(c->status == CHIP_DONE, "%s", c->message);
    ck_assert_uint_eq(c->kernel_tasks, kernels);
    ck_assert_uint_eq(c->tasks_submitted, submitted);
    ck_assert_uint_eq(c->tasks_completed, submitted);
    return c;
}

static void check_kind(char *text, int submits, int allocs)
{
    ck_assert_int_eq(count(text, SUBMIT), submits);
    ck_assert_int_eq(count(text, ALLOC), allocs);
    ck_assert_int_eq(count(text, "scope_begin"), count(text, "scope_end"));
    tu_chip_free(runs(text, (uint64_t)submits, (uint64_t)(submits + allocs)));
    free(text);
}

START_TEST(depcmp_reports_what_differs)
{
    /* pa_small1 against itself: nothing; against a copy with one edge's arg changed and task 1's input
     * reading the query: that edge on both sides, and task 1 (the tensor order shifts after it) */
    char real[512];
    snprintf(real, sizeof(real), "%s/tests/real/pa_small1/deps.json", PTOSIM_SRCDIR);
    depcmp d;
    depcmp_deps(real, real, &d);
    ck_assert_int_eq(d.tasks_real, 12);
    ck_assert_int_eq(d.edges_sim, 23);
    ck_assert_str_eq(d.task_diff, "");
    ck_assert_str_eq(d.edge_diff, "");
    depcmp_free(&d);
    cJSON *j = tu_json_file(real);
    cJSON *e0 = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "edges"), 0);
    cJSON_SetNumberValue(cJSON_GetObjectItem(e0, "arg"), 1);
    cJSON *tasks = cJSON_GetObjectItem(j, "tasks");
    const char *query =
        cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetArrayItem(tasks, 0), "args"), 0),
                            "tensor_id")
            ->valuestring;
    cJSON *a1 = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetArrayItem(tasks, 1), "args"), 0);
    cJSON_ReplaceItemInObject(a1, "tensor_id", cJSON_CreateString(query));
    char *text = cJSON_PrintUnformatted(j);
    char *mod = tu_write(tu_tmpdir(), "deps.json", text);
    depcmp_deps(real, mod, &d);
    ck_assert_str_eq(d.edge_diff, "- \"8589934592\" \"8589934593\" 0 \"creator\" -\n"
                                  "+ \"8589934592\" \"8589934593\" 1 \"creator\" -\n");
    ck_assert_msg(strncmp(d.task_diff, "task 1\n", 7) == 0, "%s", d.task_diff);
    ck_assert_msg(strstr(d.task_diff, "| \"INPUT\" \"FLOAT32\" [16,16] \"0\" [16,1] t2 |") != NULL, "%s",
                  d.task_diff);
    ck_assert_msg(strstr(d.task_diff, "| \"INPUT\" \"FLOAT32\" [16,16] \"0\" [16,1] t0 |") != NULL, "%s",
                  d.task_diff);
    depcmp_free(&d);
    /* scope records: a site renamed consistently is the same site; a changed window end is not */
    char sreal[512];
    snprintf(sreal, sizeof(sreal), "%s/tests/real/pa_small1/scope_stats/scope_stats.jsonl", PTOSIM_SRCDIR);
    char *st = tu_read(sreal);
    for (char *p; (p = strstr(st, "paged_attention_orch.cpp:177")) != NULL;)
        memcpy(p, "gen_paged_attention:2________", strlen("paged_attention_orch.cpp:177"));
    char *last = strstr(st, "\"task_window_end\": 12");
    ck_assert_ptr_nonnull(last);
    last[strlen("\"task_window_end\": 1")] = '3';
    char *smod = tu_write(tu_tmpdir(), "scope_stats.jsonl", st);
    int nr, ns;
    char *diff = depcmp_scopes(sreal, smod, &nr, &ns);
    ck_assert_int_eq(nr, 10);
    ck_assert_int_eq(ns, 10);
    ck_assert_str_eq(diff, "record 7\n- site2 \"end\" 2 2 12\n+ site2 \"end\" 2 2 13\n");
    free(diff);
    free(smod);
    free(st);
    free(mod);
    free(text);
    cJSON_Delete(j);
}
END_TEST

START_TEST(synthetic_kinds_have_their_task_counts)
{
    check_kind(gen_graph("chain", "--n", "50", NULL), 50, 0);
    check_kind(gen_graph("fan", "--n", "200", "--cost-ns", "2000", NULL), 200, 0);
    check_kind(gen_graph("forkjoin", "--width", "5", "--stages", "3", NULL), 3 * (5 + 2), 0);
    check_kind(gen_graph("random", NULL), 100, 0);
    check_kind(gen_graph("random", "--n", "300", "--fat", "0.7", "--jump", "3", "--density", "0.2", NULL),
               300, 0);
    /* a scope per loop body: one per task for chain and fan, per stage and worker for forkjoin */
    char *t = gen_graph("chain", "--n", "7", NULL);
    ck_assert_int_eq(count(t, "scope_begin"), 7);
    free(t);
    t = gen_graph("forkjoin", "--width", "5", "--stages", "3", NULL);
    ck_assert_int_eq(count(t, "scope_begin"), 3 * (1 + 5));
    free(t);
}
END_TEST

START_TEST(chain_is_a_chain_and_fan_has_no_edges)
{
    /* 10 tasks of 10 us: in a chain they run one after another (more than 100 us), as a fan side
     * by side on 10 AIV cores (the orchestrator's 10 submits plus one task, well under 40 us) */
    char *t = gen_graph("chain", "--n", "10", NULL);
    chip *c = runs(t, 10, 10);
    ck_assert_uint_gt(c->end_time, (ps_t)100 * 1000 * PS_PER_NS);
    tu_chip_free(c);
    free(t);
    t = gen_graph("fan", "--n", "10", NULL);
    c = runs(t, 10, 10);
    ck_assert_uint_lt(c->end_time, (ps_t)40 * 1000 * PS_PER_NS);
    tu_chip_free(c);
    free(t);
}
END_TEST

START_TEST(granularity_mirrors_make_traces)
{
    /* --k 48 is grain_right.jsonl but for the name, description and scope site: same makespan */
    char *t = gen_graph("granularity", "--k", "48", "--total-us", "4800", NULL);
    ck_assert_int_eq(count(t, SUBMIT), 48);
    ck_assert_int_eq(count(t, "scope_begin"), 1);
    chip *c = runs(t, 48, 48);
    char *ref = tu_read(TRACE("grain_right.jsonl"));
    chip *r = runs(ref, 48, 48);
    ck_assert_uint_eq(c->end_time, r->end_time);
    tu_chip_free(c);
    tu_chip_free(r);
    free(ref);
    free(t);
    /* 10 rows in 4 tasks: 3, 3, 2, 2; the longer two override the kernel's 2-row cost */
    t = gen_graph("granularity", "--k", "4", "--total-us", "10", NULL);
    ck_assert_int_eq(count(t, "\"cost\": {\"cycles\": 5400}"), 2);
    ck_assert_int_eq(count(t, "\"shape\": [2, 256]"), 4); /* two tasks, in and out */
    check_kind(t, 4, 0);
}
END_TEST

START_TEST(bgemm_defaults_are_benchmark_bgemm_case0)
{
    /* test_benchmark_bgemm.py Case0: 500 pairs over grid_k 2 = 250 groups, each a scope of 2 x (gemm, add) */
    char *t = gen_graph("bgemm", NULL);
    ck_assert_int_eq(count(t, "scope_begin"), 250);
    ck_assert_int_eq(count(t, "\"kernel\": \"gemm_tile\""), 500);
    ck_assert_int_eq(count(t, "\"kernel\": \"tile_add\""), 500);
    /* every task reads config = [tile_size, grid_k, num_groups, incore_loop] */
    ck_assert_int_eq(count(t, "{\"dir\": \"in\", \"tensor\": \"config\"}"), 1000);
    ck_assert_msg(
        strstr(t, "\"name\": \"config\", \"dtype\": \"INT64\", \"shape\": [4], \"data\": [128, 2, 250, 4]") !=
            NULL,
        "config tensor");
    /* a group is incore_loop 4 tiles of 128 x 128: 65536 elements, the tile 128 x 128 x 128 on the cube */
    ck_assert_msg(strstr(t, "\"cube\": {\"m\": 128, \"n\": 128, \"k\": 128, \"dtype\": \"FLOAT16\"}") != NULL,
                  "pipe-form gemm cost");
    /* offset 65536: A and B of group 0's second K step, and C of group 1 in its two adds */
    ck_assert_int_eq(count(t, "\"shape\": [65536], \"offset\": [65536]"), 2 + 2);
    check_kind(t, 1000, 0);
    /* 7 pairs over grid_k 3: 2 groups (the last pair is dropped, as the test's // does) */
    check_kind(
        gen_graph("bgemm", "--matmul-add-task-num", "7", "--grid-k", "3", "--incore-data-size", "16", NULL),
        2 * 3 * 2, 0);
}
END_TEST

START_TEST(bgemm_matches_the_runtime_case1_capture)
{
    /* test_benchmark_bgemm.py Case1: 64 pairs, tiles of 128, 4 tiles per task, grid_k 2: 32 groups,
     * 128 tasks; 64 creator edges (gemm -> add) and 32 TensorMap edges (add -> add on C) */
    depcmp d;
    char *s = vs_capture("bgemm_case1", &d, "bgemm", "--matmul-add-task-num", "64", "--incore-data-size",
                         "128", "--incore-loop", "4", "--grid-k", "2", NULL);
    assert_same_as_capture(&d, s, 128, 96);
}
END_TEST

START_TEST(paged_attention_variants_have_their_task_counts)
{
    /* B=1, H=16 (q_loop 1), 2 KV blocks: plain is 1 alloc + 2 blocks x 4 */
    const char *shape[] = {"--batch", "1", "--heads", "16", "--block-size", "128", "--context", "256"};
#define PA(var, u)                                                                                           \
    gen_graph("paged_attention", shape[0], shape[1], shape[2], shape[3], shape[4], shape[5], shape[6],       \
              shape[7], "--variant", var, "--unroll", u, NULL)
    char *t = PA("plain", "64");
    ck_assert_int_eq(count(t, "scope_begin"), 1 + 2);
    check_kind(t, 8, 1);
    /* unroll: the alloc, then one group of both blocks (or two of one) in the same scope */
    t = PA("unroll", "64");
    ck_assert_int_eq(count(t, "scope_begin"), 1);
    check_kind(t, 4, 1);
    t = PA("unroll", "1");
    ck_assert_int_eq(count(t, "scope_begin"), 1);
    check_kind(t, 2 * 4, 1);
    /* manual: one manual scope per (b, q), no per-block scopes; SF, PV and UP of each block name their
     * producer, the second UP also the first, and the last UP the alloc */
    t = PA("manual", "64");
    ck_assert_int_eq(count(t, "scope_begin"), 1);
    ck_assert_int_eq(count(t, "\"mode\": \"manual\""), 1);
    ck_assert_int_eq(count(t, "\"deps\""), 2 * 3);
    ck_assert_int_eq(count(t, "\"id\": \"alloc\""), 1);
    ck_assert_int_eq(count(t, "\"deps\": [\"pv\"]}"), 1);
    ck_assert_int_eq(count(t, "\"deps\": [\"pv\", \"up\", \"alloc\"]}"), 1);
    check_kind(t, 8, 1);
    t = PA("batch", "64"); /* one chunk of batches: a scope with the alloc, a nested scope per block */
    ck_assert_int_eq(count(t, "scope_begin"), 1 + 2);
    ck_assert_int_eq(count(t, "{\"dir\": \"inout\", \"tensor\": \"out\", \"manual_dep\": true}"), 2);
    check_kind(t, 8, 1);
    t = PA("spmd", "64");
    chip *c = runs(t, 1, 1);
    ck_assert_uint_eq(c->executions, 24 * 3); /* 24 MIX blocks, each an AIC and two AIVs */
    tu_chip_free(c);
    free(t);
#undef PA
    /* batch with 17 batches: chunks of 16 and 1 (256 and 16 query rows), each 2 blocks x 4 tasks */
    t = gen_graph("paged_attention", "--variant", "batch", "--batch", "17", "--context", "256", NULL);
    ck_assert_int_eq(count(t, "scope_begin"), 2 * (1 + 2));
    ck_assert_int_eq(count(t, "\"tensor\": \"sij\", \"dtype\": \"FLOAT32\", \"shape\": [256, 128]"), 2);
    ck_assert_int_eq(count(t, "\"tensor\": \"sij\", \"dtype\": \"FLOAT32\", \"shape\": [16, 128]"), 2);
    check_kind(t, 2 * 2 * 4, 2);
    /* H=200: q_tile 128, q_loop 2, the second tile 72 rows; C=300 with BS 128: 3 blocks */
    t = gen_graph("paged_attention", "--batch", "2", "--heads", "200", "--context", "300", NULL);
    ck_assert_int_eq(count(t, "\"shape\": [72, 128], \"offset\": [128, 0]"), 2 * 3);
    check_kind(t, 2 * 2 * 3 * 4, 2 * 2);
}
END_TEST

START_TEST(paged_attention_matches_the_runtime_small1_capture)
{
    /* test_paged_attention.py CaseSmall1: 1 batch, 16 heads of 16, blocks of 16 tokens, context 33
     * (3 blocks, the last holding 1 token), max_model_len 256; its random block table was [2, 1, 1]
     * (the key views start at elements 512, 256, 256). 12 tasks, the alloc on ring 1, an FP32 out */
    depcmp d;
    char *s = vs_capture("pa_small1", &d, "paged_attention", "--batch", "1", "--heads", "16", "--head-dim",
                         "16", "--block-size", "16", "--context", "33", "--max-model-len", "256",
                         "--block-table", "2,1,1", NULL);
    assert_same_as_capture(&d, s, 12, 23);
}
END_TEST

START_TEST(paged_attention_manual_matches_the_runtime_manual_scope_capture)
{
    /* test_paged_attention_manual_scope.py CaseSmall1: the shapes of pa_small1 with the drawn table
     * [2, 1, 2]; 12 tasks in one manual scope on ring 1 (the alloc is local 0) and only explicit
     * edges: QK -> SF -> PV -> UP per block, UP -> UP, and the alloc -> the last UP */
    depcmp d;
    char *s = vs_capture("pams_small1", &d, "paged_attention", "--variant", "manual", "--batch", "1",
                         "--heads", "16", "--head-dim", "16", "--block-size", "16", "--context", "33",
                         "--max-model-len", "256", "--block-table", "2,1,2", NULL);
    assert_same_as_capture(&d, s, 12, 12);
}
END_TEST

START_TEST(paged_attention_batch_matches_the_runtime_batch_capture)
{
    /* tests/st batch_paged_attention CaseSmall1 (the shapes of pa_small1): one chunk, so a scope with
     * the alloc and 3 nested block scopes; whole-tensor views, and `out` manual_dep, so the updates
     * chain through the three accumulators only (3 covered TensorMap edges per later update) */
    depcmp d;
    char *s = vs_capture("batch_pa_small1", &d, "paged_attention", "--variant", "batch", "--batch", "1",
                         "--heads", "16", "--head-dim", "16", "--block-size", "16", "--context", "33",
                         "--max-model-len", "256", NULL);
    assert_same_as_capture(&d, s, 12, 21);
}
END_TEST

START_TEST(paged_attention_plain_edges_by_hand)
{
    /* B=2, H=16 (q_loop 1), C = 2 x BS: per batch QK0 SF0 PV0 UP0 QK1 SF1 PV1 UP1 (task i = 8b + 4bn + k);
     * the allocs are not in deps.json */
    char *t = gen_graph("paged_attention", "--batch", "2", "--heads", "16", "--block-size", "128",
                        "--context", "256", NULL);
    const char *dir = tu_tmpdir();
    char *path = tu_write(dir, "pa.jsonl", t);
    const char *args[] = {"run", path, "-o", dir, "--enable-dep-gen", "--quiet", NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    char deps[256];
    snprintf(deps, sizeof(deps), "%s/dfx_outputs/deps.json", dir);
    cJSON *d = tu_json_file(deps);
    const cJSON *tasks = cJSON_GetObjectItem(d, "tasks"), *e;
    ck_assert_int_eq(cJSON_GetArraySize(tasks), 16);
    char ids[16][24];
    for (int i = 0; i < 16; i++)
        snprintf(ids[i], sizeof(ids[i]), "%s",
                 cJSON_GetObjectItem(cJSON_GetArrayItem(tasks, i), "task_id")->valuestring);
    bool edge[16][16] = {{false}};
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(d, "edges"))
    {
        const char *pred = cJSON_GetObjectItem(e, "pred")->valuestring;
        const char *succ = cJSON_GetObjectItem(e, "succ")->valuestring;
        int p = -1, s = -1;
        for (int i = 0; i < 16; i++) {
            if (!strcmp(ids[i], pred))
                p = i;
            if (!strcmp(ids[i], succ))
                s = i;
        }
        ck_assert_int_ge(s, 0);
        if (p < 0) {
            /* a creator edge from batch b's alloc (ring 1, local b) to an update of batch b */
            char alloc[24];
            snprintf(alloc, sizeof(alloc), "%llu", (1ULL << 32) + (unsigned long long)(s / 8));
            ck_assert_str_eq(pred, alloc);
            ck_assert_int_eq(s % 4, 3);
            continue;
        }
        edge[p][s] = true;
    }
    enum { QK, SF, PV, UP };
    bool want[16][16] = {{false}};
    for (int b = 0; b < 2; b++) {
        for (int bn = 0; bn < 2; bn++) {
            int o = 8 * b + 4 * bn;
            want[o + QK][o + SF] = true; /* sij */
            want[o + SF][o + PV] = true; /* pij */
            want[o + SF][o + UP] = true; /* mij, lij */
            want[o + PV][o + UP] = true; /* oi_tmp */
        }
        want[8 * b + UP][8 * b + 4 + UP] = true; /* mi, li, oi, out view: the previous update */
    }
    /* exactly these: in particular nothing between the two batches */
    for (int p = 0; p < 16; p++)
        for (int s = 0; s < 16; s++)
            ck_assert_msg(edge[p][s] == want[p][s], "edge %d -> %d: got %d, expected %d", p, s, edge[p][s],
                          want[p][s]);
    cJSON_Delete(d);
    tu_run_free(&r);
    free(path);
    free(t);
}
END_TEST

START_TEST(decode_layer_fa_fused_has_the_harvested_structure)
{
    /* decode_fwd_layers.cpp at b6c9b5b, one layer: copy_hidden, then in the layer scope two allocs and 19
     * tasks (x_gamma of 5 blocks, rms_recip, 3 seeds with q_proj 40 / k_proj 8 / v_proj 8 blocks,
     * fa_work_build, qk_gamma, qk_recip, rope_qkv 16, 3 MLP seeds, fa_fused MIX 24, online_softmax 48,
     * out_seed, attn_fence), a manual scope of 333 (50 out_proj, 5 casts, post_rms_reduce, 85 gate and 85
     * up, 17 silu, 85 down_proj, 5 down_cast_residual), out_consolidate; copy_out. Executions:
     * 5 + 1 + 1 + 40 + 1 + 8 + 1 + 8 + 1 + 1 + 1 + 16 + 3 + 24 x 3 + 48 + 1 + 1 = 209 in the auto part,
     * 333 in the manual scope, 1 out_consolidate: 543 a layer, plus copy_hidden and copy_out */
    char *t = gen_graph("decode_layer", NULL);
    ck_assert_int_eq(count(t, "\"mode\": \"manual\""), 1);
    ck_assert_int_eq(count(t, "\"kernel\": \"q_proj\", \"block_num\": 40"), 1);
    ck_assert_int_eq(count(t, "\"kernel\": \"rope_qkv\", \"block_num\": 16"), 1);
    ck_assert_int_eq(
        count(t, "\"kernels\": [\"fa_fused_aic\", \"fa_fused_aiv\", \"fa_fused_aiv\"], \"block_num\": 24"),
        1);
    ck_assert_int_eq(count(t, "\"kernel\": \"online_softmax\", \"block_num\": 48"), 1);
    ck_assert_int_eq(count(t, "\"kernel\": \"out_proj\""), 50);
    ck_assert_int_eq(count(t, "\"kernel\": \"gate_proj\""), 85);
    ck_assert_int_eq(count(t, "\"kernel\": \"silu\""), 17);
    ck_assert_int_eq(count(t, "\"kernel\": \"down_proj\""), 85);
    ck_assert_int_eq(count(t, ALLOC), 3);
    chip *c = runs(t, 2 + 353, 2 + 353 + 3);
    ck_assert_uint_eq(c->executions, 2 + 209 + 333 + 1);
    tu_chip_free(c);
    free(t);
    /* two layers: the 1088 AICore tasks of the runtime's StressBatch16Seq3500 at that commit */
    t = gen_graph("decode_layer", "--layers", "2", NULL);
    c = runs(t, 2 + 2 * 353, 2 + 2 * 353 + 1 + 2 * 2);
    ck_assert_uint_eq(c->executions, 1088);
    tu_chip_free(c);
    free(t);
}
END_TEST

START_TEST(decode_layer_qwen3_variant_has_the_example_structure)
{
    /* one layer, attention_core_num 24: 4 AICore tasks outside the layer (tiling, copy_hidden,
     * x_gamma0, copy_out) + 265 in it; 1 + 12 dummies; 3 allocs. Executions: 8 outside; in the layer
     * 8 seeds and projections (75 blocks), the MIX attention (24 x 3), 26 + 24 out_proj units, 5 casts,
     * the reduce, 5 x 2 SPMD gate/up tasks of 6 blocks, 110 late gate/up, 17 silu, 85 down, dcr (5) */
    char *t = gen_graph("decode_layer", "--variant", "qwen3_14b_decode", NULL);
    ck_assert_int_eq(count(t, "\"op\": \"dummy\""), 13);
    ck_assert_int_eq(count(t, ALLOC), 3);
    ck_assert_int_eq(count(t, "\"mode\": \"manual\""), 2);
    ck_assert_int_eq(count(t, "\"kernel\": \"down_proj\""), 85);
    ck_assert_int_eq(count(t, "\"kernel\": \"gate_proj_4\""), 55);
    ck_assert_int_eq(count(t, "\"block_num\": 50"), 1);
    ck_assert_int_eq(count(t, "\"block_num\": 24, \"sync_start\": true"), 1);
    chip *c = runs(t, 4 + 265, 4 + 265 + 13 + 3);
    ck_assert_uint_eq(c->executions, 8 + 75 + 72 + 50 + 5 + 1 + 60 + 110 + 17 + 85 + 5);
    tu_chip_free(c);
    free(t);
}
END_TEST

START_TEST(decode_layer_qwen3_matches_the_runtime_noop_capture)
{
    /* the capture ran examples/.../qwen3_14b_decode with no-op kernels, 2 layers and
     * attention_core_num 8: 559 tasks, 1185 edges (1177 explicit, 7 creator, 1 TensorMap). Tensors'
     * buffer_numel is not compared: ptosim does not round a created tensor's storage up to 1024 B */
    depcmp d;
    char *s = vs_capture("qwen3_noop2L", &d, "decode_layer", "--variant", "qwen3_14b_decode", "--layers", "2",
                         "--attention-core-num", "8", NULL);
    assert_same_as_capture(&d, s, 559, 1185);
}
END_TEST

START_TEST(output_is_deterministic)
{
    char *a = gen_graph("random", "--n", "200", NULL),
         *b = gen_graph("random", "--n=200", "--seed", "1", NULL);
    char *c = gen_graph("random", "--n", "200", "--seed", "2", NULL);
    ck_assert_str_eq(a, b);
    ck_assert_str_ne(a, c);
    ck_assert_int_eq(count(c, SUBMIT), 200);
    free(a);
    free(b);
    free(c);
    a = gen_graph("decode_layer", "--seq", "1000", NULL);
    b = gen_graph("decode_layer", "--seq", "1000", NULL);
    ck_assert_str_eq(a, b);
    /* the description records every parameter, so a file says how to make it again */
    ck_assert_msg(strstr(a, "\"description\": \"ptosim gen decode_layer --batch 16 --seq 1000 --layers 1 "
                            "--variant fa_fused --attention-core-num 24\"") != NULL,
                  "description");
    free(a);
    free(b);
}
END_TEST

static void gen_fails(const char *const *args, const char *msg)
{
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 2, "%s: exit %d", args[1], r.status);
    ck_assert_msg(strstr(r.err, msg) != NULL, "expected '%s' in: %s", msg, r.err);
    ck_assert_str_eq(r.out, "");
    tu_run_free(&r);
}

START_TEST(bad_parameters_are_named)
{
    const char *a1[] = {"gen", "spiral", NULL};
    gen_fails(a1, "ptosim gen: spiral: unknown kind; kinds are chain, fan,");
    const char *a2[] = {"gen", "chain", "--m", "3", NULL};
    gen_fails(a2, "ptosim gen: chain: --m: unknown parameter; chain takes --n, --cost-ns\n");
    const char *a3[] = {"gen", "fan", "--n", "0", NULL};
    gen_fails(a3, "ptosim gen: fan: --n: must be an integer in [1, 1000000000], got '0'\n");
    const char *a4[] = {"gen", "random", "--density", "1.5", NULL};
    gen_fails(a4, "ptosim gen: random: --density: must be a number in [0, 1], got '1.5'\n");
    const char *a5[] = {"gen", "paged_attention", "--variant", "fast", NULL};
    gen_fails(a5, "ptosim gen: paged_attention: --variant: must be one of plain, unroll, manual, batch, "
                  "spmd, got 'fast'\n");
    const char *a6[] = {"gen", "chain", "--n", NULL};
    gen_fails(a6, "ptosim gen: chain: --n: missing value\n");
    const char *a7[] = {"gen", "granularity", "--k", "11", "--total-us", "10", NULL};
    gen_fails(
        a7,
        "ptosim gen: granularity: --k: must be at most --total-us (10) so every task gets a row, got 11\n");
    const char *a8[] = {"gen", "bgemm", "--incore-data-size", "1024", "--incore-loop", "65536", NULL};
    gen_fails(a8, "ptosim gen: bgemm: --matmul-add-task-num: A and B would exceed 2^40 elements");
    const char *a10[] = {"gen", "bgemm", "--matmul-add-task-num", "3", "--grid-k", "4", NULL};
    gen_fails(a10,
              "ptosim gen: bgemm: --matmul-add-task-num: must be at least --grid-k (4) to make one group, "
              "got 3\n");
    const char *a11[] = {"gen", "paged_attention", "--batch", "1", "--context",
                         "300", "--block-table",   "2,1",     NULL};
    gen_fails(a11, "ptosim gen: paged_attention: --block-table: must be identity or 3 comma-separated block "
                   "indices below 3 (batch x blocks), got '2,1'\n");
    const char *a12[] = {"gen", "paged_attention", "--batch", "1", "--context",
                         "300", "--block-table",   "0,3,1",   NULL};
    gen_fails(a12, "--block-table: must be identity or 3 comma-separated block indices below 3");
    const char *a13[] = {"gen", "paged_attention", "--batch", "1", "--context",
                         "300", "--block-table",   "0,1,2,0", NULL};
    gen_fails(a13,
              "ptosim gen: paged_attention: --block-table: has more than 3 entries (batch x blocks), got "
              "'0,1,2,0'\n");
    const char *a14[] = {"gen", "paged_attention", "--context", "300", "--max-model-len", "256", NULL};
    gen_fails(a14,
              "ptosim gen: paged_attention: --max-model-len: must hold the context's 3 blocks of 128 tokens, "
              "got 256\n");
    const char *a15[] = {"gen", "paged_attention", "--block-table", "1,\"2", NULL};
    gen_fails(a15,
              "ptosim gen: paged_attention: --block-table: must not contain quotes, backslashes or control "
              "characters, got '1,\"2'\n");
    const char *a16[] = {"gen", "decode_layer", "--variant", "qwen3_14b_decode", "--batch", "8", NULL};
    gen_fails(a16,
              "ptosim gen: decode_layer: --batch: qwen3_14b_decode is generated code for batch 16, got 8\n");
    const char *a17[] = {"gen", "decode_layer", "--variant", "qwen3_14b_decode", "--seq", "5501", NULL};
    gen_fails(
        a17, "ptosim gen: decode_layer: --seq: qwen3_14b_decode sizes its KV pool for 5500 tokens (MAX_SEQ), "
             "got 5501\n");
    const char *a18[] = {"gen", "decode_layer", "--batch", "2", NULL};
    gen_fails(a18, "ptosim gen: decode_layer: --batch: fa_fused is generated code for batch 16, got 2\n");
    const char *a19[] = {"gen", "decode_layer", "--seq", "6000", NULL};
    gen_fails(
        a19,
        "ptosim gen: decode_layer: --seq: fa_fused sizes its KV pool for 5500 tokens (MAX_SEQ), got 6000\n");
    const char *a9[] = {"gen", NULL};
    gen_fails(a9, "usage: ptosim gen KIND");

    const char *h1[] = {"gen", "--help", NULL};
    run_out r = tu_run(h1);
    ck_assert_int_eq(r.status, 0);
    const char *kinds[] = {"chain",           "fan",          "forkjoin", "granularity", "bgemm",
                           "paged_attention", "decode_layer", "random"};
    for (int i = 0; i < 8; i++)
        ck_assert_msg(strstr(r.out, kinds[i]) != NULL, "help lists %s", kinds[i]);
    ck_assert_msg(strstr(r.out, "--seed 1 ") != NULL, "help shows defaults");
    tu_run_free(&r);
    const char *h2[] = {"gen", "paged_attention", "--help", NULL};
    r = tu_run(h2);
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(strstr(r.out, "65,536 tasks") != NULL, "%s", r.out);
    tu_run_free(&r);
}
END_TEST

START_TEST(a_flat_graph_longer_than_the_window_deadlocks)
{
    /* the same fan without its scopes: 100 tasks at depth 0 are reclaimed only when orchestration ends,
     * so with 64 slots the runtime's scope pre-check stops the 64th submit (code 1); scoped, it runs */
    char *t = gen_graph("fan", "--n", "100", "--cost-ns", "1000", NULL);
    char *flat = malloc(strlen(t) + 1), *w = flat;
    for (char *line = t; *line;) {
        char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line + 1) : strlen(line);
        if (strncmp(line, "{\"op\": \"scope_", strlen("{\"op\": \"scope_")) != 0) {
            memcpy(w, line, len);
            w += len;
        }
        line += len;
    }
    *w = '\0';
    ck_assert_int_eq(count(flat, "scope_"), 0);
    ck_assert_int_eq(count(flat, SUBMIT), 100);
    const char *dir = tu_tmpdir();
    char *pf = tu_write(dir, "flat.jsonl", flat), *ps = tu_write(dir, "scoped.jsonl", t);
    const char *a1[] = {"run", pf, "--ring-task-window", "64", "--quiet", NULL};
    run_out r = tu_run(a1);
    ck_assert_int_eq(r.status, 4);
    ck_assert_msg(tu_starts(r.err, TU_ORCH_FAILED(1)), "%s", r.err);
    ck_assert_msg(strstr(r.err, "Tasks in current scope (63) >= task_window_size (64)") != NULL, "%s", r.err);
    tu_run_free(&r);
    const char *a2[] = {"run", ps, "--ring-task-window", "64", "--quiet", NULL};
    r = tu_run(a2);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    free(pf);
    free(ps);
    free(flat);
    free(t);
}
END_TEST

START_TEST(gen_cat_writes_text_as_snprintf_cuts_it)
{
    /* the labels and costs the generators build without printf: the text, its would-be length, the cut */
    char b[16];
    size_t n = gen_cat_int(b, sizeof(b), gen_cat(b, sizeof(b), 0, "out"), 26);
    ck_assert_str_eq(b, "out26");
    ck_assert_uint_eq(n, 5);
    n = gen_cat_int(b, sizeof(b),
                    gen_cat(b, sizeof(b), gen_cat_int(b, sizeof(b), gen_cat(b, sizeof(b), 0, "t"), 0), "_"),
                    9);
    ck_assert_str_eq(b, "t0_9");
    ck_assert_uint_eq(n, 4);
    n = gen_cat_int(b, sizeof(b), 0, -7);
    ck_assert_str_eq(b, "-7");
    ck_assert_uint_eq(n, 2);
    /* the extremes: 20 characters each, cut to 15 as snprintf into 16 bytes cuts them */
    n = gen_cat_int(b, sizeof(b), 0, INT64_MIN);
    ck_assert_str_eq(b, "-92233720368547");
    ck_assert_uint_eq(n, 20);
    n = gen_cat_int(b, sizeof(b), 0, INT64_MAX);
    ck_assert_str_eq(b, "922337203685477");
    ck_assert_uint_eq(n, 19);
    /* past the end: nothing more is written, the length still counts */
    n = gen_cat(b, sizeof(b), n, "xyz");
    ck_assert_str_eq(b, "922337203685477");
    ck_assert_uint_eq(n, 22);
    /* one byte: only the NUL; a string that just fits */
    char one[1] = {'q'};
    ck_assert_uint_eq(gen_cat(one, 1, 0, "ab"), 2);
    ck_assert_int_eq(one[0], '\0');
    char four[4];
    ck_assert_uint_eq(gen_cat_int(four, 4, gen_cat(four, 4, 0, "a"), 99), 3);
    ck_assert_str_eq(four, "a99");
    ck_assert_uint_eq(gen_cat_int(four, 4, 0, 1000), 4);
    ck_assert_str_eq(four, "100");
    ck_assert_uint_eq(gen_cat_int(four, 4, 0, 0), 1);
    ck_assert_str_eq(four, "0");
}
END_TEST

START_TEST(gen_write_puts_the_graph_through_the_stream_s_descriptor)
{
    /* a sweep writes each graph to a file through gen_write: the bytes of `ptosim gen`, after what the
     * stream held */
    const char *want =
        "pre\n"
        "{\"ptosim_graph\": 1, \"name\": \"gen_chain\", \"description\": \"ptosim gen chain --n 1 "
        "--cost-ns 5\", \"kernels\": [{\"id\": 0, \"name\": \"step\", \"core\": \"aiv\", \"cost\": "
        "{\"ns\": 5}}], \"tensors\": [{\"name\": \"x\", \"dtype\": \"FLOAT32\", \"shape\": [64]}]}\n"
        "{\"op\": \"scope_begin\", \"site\": \"gen_chain:1\"}\n"
        "{\"op\": \"submit\", \"kernel\": \"step\", \"args\": [{\"dir\": \"in\", \"tensor\": \"x\"}, "
        "{\"dir\": \"out\", \"tensor\": \"h\", \"dtype\": \"FLOAT32\", \"shape\": [64]}]}\n"
        "{\"op\": \"scope_end\"}\n";
    char *av[] = {"chain", "--n", "1", "--cost-ns", "5", NULL}, err[600] = "";
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    fputs("pre\n", f);
    ck_assert_int_eq(gen_write(5, av, f, err, sizeof(err)), 0);
    ck_assert_str_eq(err, "");
    rewind(f);
    char got[1024];
    size_t n = fread(got, 1, sizeof(got) - 1, f);
    got[n] = '\0';
    fclose(f);
    ck_assert_str_eq(got, want);
    /* a stream without a descriptor cannot take it: said, not dropped */
    char mem[64];
    f = fmemopen(mem, sizeof(mem), "w");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(gen_write(5, av, f, err, sizeof(err)), 1);
    ck_assert_str_eq(err, "ptosim gen: chain: writing the graph failed: Bad file descriptor");
    fclose(f);
}
END_TEST

Suite *suite_gen(void)
{
    Suite *s = suite_create("gen");
    TCase *tc = tcase_create("gen");
    tcase_set_timeout(tc, 60); /* many gen runs: slow under the sanitizers on a loaded machine */
    tcase_add_test(tc, depcmp_reports_what_differs);
    tcase_add_test(tc, synthetic_kinds_have_their_task_counts);
    tcase_add_test(tc, chain_is_a_chain_and_fan_has_no_edges);
    tcase_add_test(tc, granularity_mirrors_make_traces);
    tcase_add_test(tc, bgemm_defaults_are_benchmark_bgemm_case0);
    tcase_add_test(tc, bgemm_matches_the_runtime_case1_capture);
    tcase_add_test(tc, paged_attention_variants_have_their_task_counts);
    tcase_add_test(tc, paged_attention_matches_the_runtime_small1_capture);
    tcase_add_test(tc, paged_attention_manual_matches_the_runtime_manual_scope_capture);
    tcase_add_test(tc, paged_attention_batch_matches_the_runtime_batch_capture);
    tcase_add_test(tc, paged_attention_plain_edges_by_hand);
    tcase_add_test(tc, decode_layer_fa_fused_has_the_harvested_structure);
    tcase_add_test(tc, decode_layer_qwen3_variant_has_the_example_structure);
    tcase_add_test(tc, decode_layer_qwen3_matches_the_runtime_noop_capture);
    tcase_add_test(tc, output_is_deterministic);
    tcase_add_test(tc, bad_parameters_are_named);
    tcase_add_test(tc, a_flat_graph_longer_than_the_window_deadlocks);
    tcase_add_test(tc, gen_cat_writes_text_as_snprintf_cuts_it);
    tcase_add_test(tc, gen_write_puts_the_graph_through_the_stream_s_descriptor);
    suite_add_tcase(s, tc);
    return s;
}
