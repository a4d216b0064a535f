/* test_gen.c - `ptosim gen`: every kind validates and runs, hand-counted task counts and edges, determinism,
 * parameter errors, and why generators open scopes. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/chip.h"
#include "testutil.h"

/* Runs `ptosim gen ARGS...` (NULL-terminated) and returns its stdout, failing on any error. */
static char *gen(const char *first, ...)
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

START_TEST(synthetic_kinds_have_their_task_counts)
{
    check_kind(gen("chain", "--n", "50", NULL), 50, 0);
    check_kind(gen("fan", "--n", "200", "--cost-ns", "2000", NULL), 200, 0);
    check_kind(gen("forkjoin", "--width", "5", "--stages", "3", NULL), 3 * (5 + 2), 0);
    check_kind(gen("random", NULL), 100, 0);
    check_kind(gen("random", "--n", "300", "--fat", "0.7", "--jump", "3", "--density", "0.2", NULL), 300, 0);
    /* a scope per loop body: one per task for chain and fan, per stage and worker for forkjoin */
    char *t = gen("chain", "--n", "7", NULL);
    ck_assert_int_eq(count(t, "scope_begin"), 7);
    free(t);
    t = gen("forkjoin", "--width", "5", "--stages", "3", NULL);
    ck_assert_int_eq(count(t, "scope_begin"), 3 * (1 + 5));
    free(t);
}
END_TEST

START_TEST(chain_is_a_chain_and_fan_has_no_edges)
{
    /* 10 tasks of 10 us: in a chain they run one after another (more than 100 us), as a fan side
     * by side on 10 AIV cores (the orchestrator's 10 submits plus one task, well under 40 us) */
    char *t = gen("chain", "--n", "10", NULL);
    chip *c = runs(t, 10, 10);
    ck_assert_uint_gt(c->end_time, (ps_t)100 * 1000 * PS_PER_NS);
    tu_chip_free(c);
    free(t);
    t = gen("fan", "--n", "10", NULL);
    c = runs(t, 10, 10);
    ck_assert_uint_lt(c->end_time, (ps_t)40 * 1000 * PS_PER_NS);
    tu_chip_free(c);
    free(t);
}
END_TEST

START_TEST(granularity_mirrors_make_traces)
{
    /* --k 48 is grain_right.jsonl but for the name, description and scope site: same makespan */
    char *t = gen("granularity", "--k", "48", "--total-us", "4800", NULL);
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
    t = gen("granularity", "--k", "4", "--total-us", "10", NULL);
    ck_assert_int_eq(count(t, "\"cost\": {\"cycles\": 5400}"), 2);
    ck_assert_int_eq(count(t, "\"shape\": [2, 256]"), 4); /* two tasks, in and out */
    check_kind(t, 4, 0);
}
END_TEST

START_TEST(bgemm_defaults_are_the_runtime_example)
{
    /* 2 batches x 4 x 4 output tiles, each a scope of 4 x (gemm, add): 256 tasks, 32 chains of 8 */
    char *t = gen("bgemm", NULL);
    ck_assert_int_eq(count(t, "scope_begin"), 32);
    ck_assert_int_eq(count(t, "\"kernel\": \"gemm_tile\""), 128);
    ck_assert_int_eq(count(t, "\"kernel\": \"tile_add\""), 128);
    ck_assert_msg(strstr(t, "\"cube\": {\"m\": 64, \"n\": 64, \"k\": 64, \"dtype\": \"FLOAT16\"}") != NULL,
                  "pipe-form gemm cost");
    check_kind(t, 256, 0);
    check_kind(gen("bgemm", "--batch", "1", "--grid-m", "2", "--grid-n", "3", "--grid-k", "5", "--tile",
                   "128", NULL),
               2 * 3 * 5 * 2, 0);
}
END_TEST

START_TEST(paged_attention_variants_have_their_task_counts)
{
    /* B=1, H=16 (q_loop 1), 2 KV blocks: plain is 1 alloc + 2 blocks x 4 */
    const char *shape[] = {"--batch", "1", "--heads", "16", "--block-size", "128", "--context", "256"};
#define PA(var, u)                                                                                           \
    gen("paged_attention", shape[0], shape[1], shape[2], shape[3], shape[4], shape[5], shape[6], shape[7],   \
        "--variant", var, "--unroll", u, NULL)
    char *t = PA("plain", "64");
    ck_assert_int_eq(count(t, "scope_begin"), 1 + 2);
    check_kind(t, 8, 1);
    check_kind(PA("unroll", "64"), 1 + 4, 0); /* hub + one group of both blocks */
    check_kind(PA("unroll", "1"), 1 + 2 * 4, 0);
    t = PA("manual", "1");
    ck_assert_int_eq(count(t, "\"mode\": \"manual\""), 1 + 2);
    ck_assert_int_eq(count(t, "\"deps\""), 2 * 3);                /* SF, PV and UP of each group */
    ck_assert_int_eq(count(t, "\"deps\": [\"pv\", \"up0\"]"), 1); /* the second UP also waits for the first */
    check_kind(t, 8, 1);
    t = PA("spmd", "64");
    chip *c = runs(t, 1, 1);
    ck_assert_uint_eq(c->executions, 24 * 3); /* 24 MIX blocks, each an AIC and two AIVs */
    tu_chip_free(c);
    free(t);
#undef PA
    /* H=200: q_tile 128, q_loop 2, the second tile 72 rows; C=300 with BS 128: 3 blocks */
    t = gen("paged_attention", "--batch", "2", "--heads", "200", "--context", "300", NULL);
    ck_assert_int_eq(count(t, "\"shape\": [72, 128], \"offset\": [128, 0]"), 2 * 3);
    check_kind(t, 2 * 2 * 3 * 4, 2 * 2);
}
END_TEST

START_TEST(paged_attention_plain_edges_by_hand)
{
    /* B=2, H=16 (q_loop 1), C = 2 x BS: per batch QK0 SF0 PV0 UP0 QK1 SF1 PV1 UP1 (task i = 8b + 4bn + k);
     * the allocs are not in deps.json */
    char *t = gen("paged_attention", "--batch", "2", "--heads", "16", "--block-size", "128", "--context",
                  "256", NULL);
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

START_TEST(decode_layer_has_542_tasks_per_layer)
{
    char *t = gen("decode_layer", NULL);
    ck_assert_int_eq(count(t, "\"kernel\": \"q_proj\""), 40);
    ck_assert_int_eq(count(t, "\"kernel\": \"gate_proj\""), 34);
    ck_assert_int_eq(count(t, "\"kernel\": \"silu\""), 22);
    ck_assert_int_eq(count(t, "\"kernel\": \"rope_qkv\""), 16);
    ck_assert_int_eq(count(t, "\"kernels\": [\"fa_fused_aic\""),
                     16 * 7); /* ceil(3500 / 512) chunks per row */
    chip *c = runs(t, 542, 542);
    ck_assert_uint_eq(c->executions, 542 + 2 * 16 * 7); /* a MIX task runs on three cores */
    tu_chip_free(c);
    free(t);
    t = gen("decode_layer", "--layers", "2", NULL);
    ck_assert_int_eq(count(t, "gen_decode_layer:1\""), 2);
    check_kind(t, 2 * 542, 0);
    /* 254 + 4 B + 2 B ceil(S/512) per layer */
    check_kind(gen("decode_layer", "--batch", "2", "--seq", "1025", NULL), 254 + 8 + 2 * 2 * 3, 0);
}
END_TEST

START_TEST(output_is_deterministic)
{
    char *a = gen("random", "--n", "200", NULL), *b = gen("random", "--n=200", "--seed", "1", NULL);
    char *c = gen("random", "--n", "200", "--seed", "2", NULL);
    ck_assert_str_eq(a, b);
    ck_assert_str_ne(a, c);
    ck_assert_int_eq(count(c, SUBMIT), 200);
    free(a);
    free(b);
    free(c);
    a = gen("decode_layer", "--batch", "2", NULL);
    b = gen("decode_layer", "--batch", "2", NULL);
    ck_assert_str_eq(a, b);
    /* the description records every parameter, so a file says how to make it again */
    ck_assert_msg(strstr(a, "\"description\": \"ptosim gen decode_layer --batch 2 --seq 3500 --layers 1\"") !=
                      NULL,
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
    gen_fails(
        a5,
        "ptosim gen: paged_attention: --variant: must be one of plain, unroll, manual, spmd, got 'fast'\n");
    const char *a6[] = {"gen", "chain", "--n", NULL};
    gen_fails(a6, "ptosim gen: chain: --n: missing value\n");
    const char *a7[] = {"gen", "granularity", "--k", "11", "--total-us", "10", NULL};
    gen_fails(
        a7,
        "ptosim gen: granularity: --k: must be at most --total-us (10) so every task gets a row, got 11\n");
    const char *a8[] = {"gen", "bgemm", "--tile", "1024", "--grid-m", "4096", "--grid-k", "4096", NULL};
    gen_fails(a8, "ptosim gen: bgemm: --batch: A, B or C would exceed 2^40 elements");
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
    char *t = gen("fan", "--n", "100", "--cost-ns", "1000", NULL);
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

Suite *suite_gen(void)
{
    Suite *s = suite_create("gen");
    TCase *tc = tcase_create("gen");
    tcase_add_test(tc, synthetic_kinds_have_their_task_counts);
    tcase_add_test(tc, chain_is_a_chain_and_fan_has_no_edges);
    tcase_add_test(tc, granularity_mirrors_make_traces);
    tcase_add_test(tc, bgemm_defaults_are_the_runtime_example);
    tcase_add_test(tc, paged_attention_variants_have_their_task_counts);
    tcase_add_test(tc, paged_attention_plain_edges_by_hand);
    tcase_add_test(tc, decode_layer_has_542_tasks_per_layer);
    tcase_add_test(tc, output_is_deterministic);
    tcase_add_test(tc, bad_parameters_are_named);
    tcase_add_test(tc, a_flat_graph_longer_than_the_window_deadlocks);
    suite_add_tcase(s, tc);
    return s;
}
