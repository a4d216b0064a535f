/* test_worker.c - several programs on one worker: resident tensors, the timeline, edges across programs. */
/* Ring sizing from the graph header. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/graph/graph_reader.h"
#include "../model/graph/worker.h"
#include "testutil.h"

#define KERN "\"kernels\": [{\"id\": 0, \"name\": \"k\", \"core\": \"aiv\", \"cost\": {\"ns\": 1000}}]"

static void open_graph(graph *g, const char *path)
{
    char err[GRAPH_ERR_MAX];
    ck_assert_msg(graph_open(g, path, err, sizeof(err)) == 0, "%s", err);
}

static const uint64_t DEFAULT_RINGS[3][4] = {
    {16384, 16384, 16384, 16384}, {268435456, 268435456, 268435456, 268435456}, {16384, 16384, 16384, 16384}};

/* Auto-placed tensors of a later program go after the earlier programs'
 * (64 KiB-aligned from 0x12c0000000); a resident tensor keeps the address of
 * the program that placed it first. */
START_TEST(resident_tensors_keep_their_address_and_others_do_not_alias)
{
    const char *dir = tu_tmpdir();
    char *a =
        tu_write(dir, "a.jsonl",
                 "{\"ptosim_graph\": 1, \"name\": \"a\", " KERN ", \"tensors\": ["
                 "{\"name\": \"x\", \"dtype\": \"FLOAT32\", \"shape\": [1024]},"
                 "{\"name\": \"kv\", \"dtype\": \"BFLOAT16\", \"shape\": [64, 128], \"resident\": true}]}\n");
    char *b =
        tu_write(dir, "b.jsonl",
                 "{\"ptosim_graph\": 1, \"name\": \"b\", " KERN ", \"tensors\": ["
                 "{\"name\": \"y\", \"dtype\": \"FLOAT32\", \"shape\": [1024]},"
                 "{\"name\": \"kv\", \"dtype\": \"BFLOAT16\", \"shape\": [64, 128], \"resident\": true},"
                 "{\"name\": \"w\", \"dtype\": \"FLOAT32\", \"shape\": [16], \"addr\": \"4096\"}]}\n");
    worker w;
    worker_init(&w);
    graph ga, gb;
    char err[512];
    open_graph(&ga, a);
    open_graph(&gb, b);
    ck_assert_int_eq(worker_add_program(&w, &ga, DEFAULT_RINGS, err, sizeof(err)), 0);
    ck_assert_int_eq(worker_add_program(&w, &gb, DEFAULT_RINGS, err, sizeof(err)), 0);
    worker_place(&w, 0, &ga);
    worker_place(&w, 1, &gb);
    /* a: x 4 KiB at the base, kv 16 KiB at the next 64 KiB step; a's range ends at base + 0x20000 */
    ck_assert_uint_eq(ga.tensors[0].addr, 0x12c0000000ULL);
    ck_assert_uint_eq(ga.tensors[1].addr, 0x12c0010000ULL);
    ck_assert_uint_eq(gb.tensors[0].addr, 0x12c0020000ULL); /* after a's, not on top of x */
    ck_assert_uint_eq(gb.tensors[1].addr, 0x12c0010000ULL); /* a's kv */
    ck_assert_uint_eq(gb.tensors[2].addr, 4096);            /* a given address stays */
    ck_assert_int_eq(w.nres, 1);
    ck_assert_int_eq(worker_resident_of(&w, 0x12c0010000ULL), 0);
    ck_assert_int_eq(worker_resident_of(&w, 0x12c0000000ULL), -1);
    graph_close(&ga);
    graph_close(&gb);
    worker_free(&w);
    free(a);
    free(b);
}
END_TEST

START_TEST(a_resident_tensor_declared_differently_is_rejected)
{
    const char *dir = tu_tmpdir();
    char *a =
        tu_write(dir, "a.jsonl",
                 "{\"ptosim_graph\": 1, \"name\": \"a\", " KERN ", \"tensors\": ["
                 "{\"name\": \"kv\", \"dtype\": \"BFLOAT16\", \"shape\": [64, 128], \"resident\": true}]}\n");
    char *b =
        tu_write(dir, "b.jsonl",
                 "{\"ptosim_graph\": 1, \"name\": \"b\", " KERN ", \"tensors\": ["
                 "{\"name\": \"q\", \"dtype\": \"FLOAT32\", \"shape\": [8]},"
                 "{\"name\": \"kv\", \"dtype\": \"BFLOAT16\", \"shape\": [32, 128], \"resident\": true}]}\n");
    worker w;
    worker_init(&w);
    graph ga, gb;
    char err[1024];
    open_graph(&ga, a);
    open_graph(&gb, b);
    ck_assert_int_eq(worker_add_program(&w, &ga, DEFAULT_RINGS, err, sizeof(err)), 0);
    ck_assert_int_eq(worker_add_program(&w, &gb, DEFAULT_RINGS, err, sizeof(err)), -1);
    ck_assert_msg(strstr(err, "/b.jsonl:1: tensors[1]: resident tensor 'kv' is BFLOAT16 [32, 128] here but "
                              "BFLOAT16 [64, 128] in ") != NULL,
                  "%s", err);
    ck_assert_msg(strstr(err, "/a.jsonl, which placed it") != NULL, "%s", err);
    graph_close(&ga);
    graph_close(&gb);
    worker_free(&w);

    /* the same through the program: no program runs, no files */
    const char *out = tu_tmpdir();
    char o[4200];
    snprintf(o, sizeof(o), "%s/run", out);
    const char *args[] = {"run", a, b, "-o", o, NULL};
    run_out r = tu_run(args);
    ck_assert_int_eq(r.status, 3);
    ck_assert_msg(strstr(r.err, "resident tensor 'kv' is BFLOAT16 [32, 128] here") != NULL, "%s", r.err);
    ck_assert(!tu_exists(o));
    tu_run_free(&r);
    free(a);
    free(b);
}
END_TEST

/* The timeline worked by hand: init 10, register 5 per distinct program,
 * arena 800, first launch 0.4, preamble 0.1, prep 2 (us). Programs A, B
 * (same sizing) then A with another sizing; makespans 100, 50, 100. */
START_TEST(setup_is_paid_once_and_a_new_sizing_rebuilds_the_arena)
{
    worker w;
    worker_init(&w);
    w.nprograms = 3;
    const char *names[] = {"a", "b", "a"};
    double makespans[] = {100, 50, 100};
    for (int p = 0; p < 3; p++) {
        snprintf(w.prog[p].name, sizeof(w.prog[p].name), "%s", names[p]);
        memcpy(w.prog[p].rings, DEFAULT_RINGS, sizeof(DEFAULT_RINGS));
        w.prog[p].registers = p < 2;
        w.prog[p].ran = true;
        w.prog[p].result.makespan_us = makespans[p];
    }
    w.prog[2].rings[0][1] = 64; /* ring 1's task window differs */
    worker_costs k = {.init_us = 10,
                      .register_us = 5,
                      .arena_build_us = 800,
                      .first_launch_us = 0.4,
                      .preamble_us = 0.1,
                      .prep_us = 2};
    worker_timeline(&w, &k);
    ck_assert_int_eq(w.arena_builds, 2);
    ck_assert(w.prog[0].builds_arena && !w.prog[1].builds_arena && w.prog[2].builds_arena);
    ck_assert_double_eq_tol(w.setup_us, 10 + 0.4 + 2 * 5 + 800, 1e-9);
    ck_assert_double_eq_tol(w.prog[0].start_us, 820.4, 1e-9);
    ck_assert_double_eq_tol(w.prog[0].device_us, 102.1, 1e-9);
    ck_assert_double_eq_tol(w.prog[1].start_us, 922.5, 1e-9);
    ck_assert_double_eq_tol(w.prog[2].start_us, 922.5 + 52.1 + 800, 1e-9);
    ck_assert_double_eq_tol(w.total_us, 1774.6 + 102.1, 1e-9);
    ck_assert_double_eq_tol(w.fresh_us, 3 * (10 + 5 + 800 + 0.4) + 102.1 + 52.1 + 102.1, 1e-9);
    worker_free(&w);
}
END_TEST

/* The June runtime reset every task-window slot of every ring on every run (init_per_ring, until
 * hw-native-sys/simpler #1199): ~19 ms a decode step at 4 x 524288 slots, 9.06 ns a slot. With its
 * 3 ms rest of the prep and 283 us preamble that is the ~22 ms prep docs/dfx/device-phases.md
 * measured; at the default 4 x 16384 slots it is 0.59 ms, and since #1199 nothing. */
START_TEST(the_per_run_sm_reset_scales_with_the_task_windows)
{
    worker_costs june = {.preamble_us = 283, .prep_us = 3000, .sm_reset_slot_ns = 9.06};
    uint64_t big[3][4] = {{524288, 524288, 524288, 524288}}, dflt[3][4] = {{16384, 16384, 16384, 16384}};
    ck_assert_double_eq_tol(worker_device_us(&june, big, 1000), 283 + 3000 + 9.06 * 2097152 / 1e3 + 1000,
                            1e-6);
    ck_assert_double_eq_tol(worker_device_us(&june, big, 0) - 283, 22000, 5); /* 22,000.2 us of prep */
    ck_assert_double_eq_tol(worker_device_us(&june, dflt, 0), 283 + 3000 + 593.75, 1e-2);
    worker_costs aug = {.preamble_us = 9, .prep_us = 3000};
    ck_assert_double_eq_tol(worker_device_us(&aug, big, 1000), 9 + 3000 + 1000, 1e-9);
}
END_TEST

static tmap_view rows(uint64_t addr, int64_t first, int64_t n)
{
    tmap_view v = {
        .addr = addr, .buffer_numel = 64 * 8, .start = (uint64_t)first * 8, .dtype = 0, .ndims = 2};
    v.shape[0] = n;
    v.shape[1] = 8;
    v.strides[0] = 8;
    v.strides[1] = 1;
    return v;
}

/* Program 0 writes rows 0-3 (task 7) and 4-7 (task 8). Program 1 rewrites
 * rows 0-1, then reads 0-1 (its own data: no edge), 2-3 (task 7's) and
 * 16-17 (nobody's). Program 2 reads 0-7: rows 0-1 are program 1's, 2-7
 * program 0's tasks 7 and 8. */
START_TEST(reads_link_to_the_last_writer_in_an_earlier_program)
{
    worker w;
    worker_init(&w);
    w.nprograms = 3;
    w.nres = 0;
    const uint64_t A = 0x1000;
    FILE *log = tmpfile();
    tmap_view v = rows(A, 0, 4);
    worker_log_access(log, 7, 0, true, &v);
    v = rows(A, 4, 4);
    worker_log_access(log, 8, 0, true, &v);
    worker_result res = {.exit_code = 0, .status = "ok", .makespan_us = 1};
    worker_log_result(log, &res);
    ck_assert_int_eq(worker_take_log(&w, 0, log), 0);
    ck_assert_int_eq(w.nedges, 0);
    fclose(log);

    log = tmpfile();
    v = rows(A, 0, 2);
    worker_log_access(log, 100, 0, true, &v);
    worker_log_access(log, 101, 0, false, &v);
    v = rows(A, 2, 2);
    worker_log_access(log, 102, 0, false, &v);
    v = rows(A, 16, 2);
    worker_log_access(log, 103, 0, false, &v);
    worker_log_result(log, &res);
    ck_assert_int_eq(worker_take_log(&w, 1, log), 0);
    fclose(log);
    ck_assert_int_eq(w.nedges, 1);
    ck_assert_int_eq(w.edges[0].from_program, 0);
    ck_assert_uint_eq(w.edges[0].from_task, 7);
    ck_assert_uint_eq(w.edges[0].to_task, 102);

    log = tmpfile();
    v = rows(A, 0, 8);
    worker_log_access(log, 200, 0, false, &v);
    worker_log_result(log, &res);
    ck_assert_int_eq(worker_take_log(&w, 2, log), 0);
    fclose(log);
    ck_assert_int_eq(w.nedges, 4);
    int from1 = 0, from7 = 0, from8 = 0;
    for (size_t i = 1; i < w.nedges; i++) {
        ck_assert_uint_eq(w.edges[i].to_task, 200);
        from1 += w.edges[i].from_program == 1 && w.edges[i].from_task == 100;
        from7 += w.edges[i].from_program == 0 && w.edges[i].from_task == 7;
        from8 += w.edges[i].from_program == 0 && w.edges[i].from_task == 8;
    }
    ck_assert(from1 == 1 && from7 == 1 && from8 == 1);

    /* a run that died leaves no result */
    log = tmpfile();
    worker_log_access(log, 300, 0, false, &v);
    ck_assert_int_eq(worker_take_log(&w, 2, log), -1);
    fclose(log);
    worker_free(&w);
}
END_TEST

static cJSON *worker_json(const char *dir)
{
    char p[4400];
    snprintf(p, sizeof(p), "%s/ptosim_run.json", dir);
    return tu_json_file(p);
}

static double num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItem(o, key);
    ck_assert_msg(cJSON_IsNumber(v), "no number %s", key);
    return v->valuedouble;
}

/* Makespan of a graph run alone. */
static double alone(const char *graph)
{
    const char *dir = tu_tmpdir();
    const char *args[] = {"run", graph, "-o", dir, "--quiet", NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    cJSON *j = worker_json(dir);
    double m = num(j, "makespan_us");
    cJSON_Delete(j);
    return m;
}

/* The shipped prefill + decode pair: setup once, each run in its own folder,
 * decode's readers of the KV cache linked to prefill's writers. Prefill's
 * block b writer (ring 2, local 3b) feeds decode's qk (k_cache, local 4b)
 * and pv (v_cache, local 4b + 2) of block b, b < 8: 16 edges per decode
 * run. Block 8 holds only the token decode appends itself, and a second
 * decode rewrites it before reading, so it adds none. */
START_TEST(prefill_and_decode_share_the_kv_cache_on_one_worker)
{
    const char *dir = tu_tmpdir();
    const char *args[] = {"run",
                          TRACE("kv_prefill.jsonl"),
                          TRACE("kv_decode.jsonl"),
                          TRACE("kv_decode.jsonl"),
                          "-o",
                          dir,
                          "--enable-dep-gen",
                          NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "== program 2 of 3: kv_decode") != NULL, "%s", r.out);
    ck_assert_msg(strstr(r.out, "saves 1600.800 ms") != NULL, "%s", r.out);
    tu_run_free(&r);
    const char *sub[] = {"0_kv_prefill", "1_kv_decode", "2_kv_decode"};
    for (int p = 0; p < 3; p++) {
        char path[4300];
        snprintf(path, sizeof(path), "%s/%s/ptosim_run.json", dir, sub[p]);
        ck_assert_msg(tu_exists(path), "%s", path);
        snprintf(path, sizeof(path), "%s/%s/dfx_outputs/deps.json", dir, sub[p]);
        ck_assert_msg(tu_exists(path), "%s", path);
    }
    cJSON *j = worker_json(dir);
    const cJSON *wk = cJSON_GetObjectItem(j, "worker");
    ck_assert_int_eq((int)num(wk, "arena_builds"), 1);
    ck_assert_double_eq_tol(num(wk, "setup_us"), 800000 + 400, 1e-6);
    double m[2] = {alone(TRACE("kv_prefill.jsonl")), alone(TRACE("kv_decode.jsonl"))};
    const cJSON *progs = cJSON_GetObjectItem(j, "programs");
    double total = 800400;
    for (int p = 0; p < 3; p++) {
        const cJSON *pr = cJSON_GetArrayItem(progs, p);
        /* a program runs on the worker as it runs alone */
        ck_assert_double_eq_tol(num(pr, "makespan_us"), m[p ? 1 : 0], 1e-3);
        ck_assert_double_eq_tol(num(pr, "start_us"), total, 2e-3);
        ck_assert_double_eq_tol(num(pr, "device_us"), 9 + 3000 + m[p ? 1 : 0], 2e-3);
        total += 9 + 3000 + m[p ? 1 : 0];
        ck_assert_str_eq(cJSON_GetObjectItem(pr, "arena")->valuestring, p ? "cached" : "built");
    }
    ck_assert_double_eq_tol(num(wk, "total_us"), total, 5e-3);
    ck_assert_double_eq_tol(num(wk, "saved_us"), 2 * 800400, 5e-3);
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(j, "resident")), 2);
    const cJSON *edges = cJSON_GetObjectItem(j, "cross_program_edges"), *e;
    ck_assert_int_eq(cJSON_GetArraySize(edges), 32);
    int n = 0;
    cJSON_ArrayForEach(e, edges)
    {
        ck_assert_int_eq((int)num(e, "from_program"), 0);
        int to = (int)num(e, "to_program");
        ck_assert(to == 1 || to == 2);
        uint64_t pred = strtoull(cJSON_GetObjectItem(e, "pred")->valuestring, NULL, 10);
        uint64_t succ = strtoull(cJSON_GetObjectItem(e, "succ")->valuestring, NULL, 10);
        ck_assert_uint_eq(pred >> 32, 2);
        ck_assert_uint_eq(succ >> 32, 2);
        uint64_t b = (pred & 0xffffffffu) / 3;
        ck_assert_uint_eq((pred & 0xffffffffu) % 3, 0);
        bool k = strcmp(cJSON_GetObjectItem(e, "tensor")->valuestring, "k_cache") == 0;
        ck_assert_uint_eq(succ & 0xffffffffu, 4 * b + (k ? 0 : 2));
        ck_assert_uint_lt(b, 8);
        n++;
    }
    ck_assert_int_eq(n, 32);
    cJSON_Delete(j);

    /* ptosim report on the worker's folder: each program's page, and an index over them */
    const char *rep[] = {"report", dir, NULL};
    r = tu_run(rep);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char path[4300];
    snprintf(path, sizeof(path), "%s/report.html", dir);
    char *page = tu_read(path);
    ck_assert_ptr_nonnull(page);
    for (int p = 0; p < 3; p++) {
        char link[128];
        snprintf(link, sizeof(link), "<a href=\"%s/report.html\">", sub[p]);
        ck_assert_msg(strstr(page, link) != NULL, "no link %s", link);
        snprintf(path, sizeof(path), "%s/%s/report.html", dir, sub[p]);
        ck_assert_msg(tu_exists(path), "%s", path);
    }
    ck_assert_msg(strstr(page, "2 resident tensor(s); 32 edge(s) across programs") != NULL, "%s", page);
    ck_assert_msg(strstr(page, "<td class=\"l\">k_cache</td><td>") != NULL, "%s", page);
    ck_assert_ptr_null(strstr(page, "arena rebuilt for program"));
    /* with -o OUT the same index goes into OUT and each program's page into OUT/N_NAME, where its link finds
     * it */
    char out[4000], want[4400];
    snprintf(out, sizeof(out), "%s/pages/w", tu_tmpdir());
    const char *rep_o[] = {"report", dir, "-o", out, NULL};
    r = tu_run(rep_o);
    ck_assert_msg(r.status == 0, "%s", r.err);
    snprintf(want, sizeof(want), "ptosim report: wrote %s/report.html\n", out);
    ck_assert_str_eq(r.out, want);
    tu_run_free(&r);
    snprintf(path, sizeof(path), "%s/report.html", out);
    char *page_o = tu_read(path);
    ck_assert_ptr_nonnull(page_o);
    ck_assert_str_eq(page_o, page);
    free(page_o);
    for (int p = 0; p < 3; p++) {
        snprintf(path, sizeof(path), "%s/%s/report.html", out, sub[p]);
        ck_assert_msg(tu_exists(path), "%s", path);
    }
    free(page);
}
END_TEST

/* A graph of n single-task scopes with a run_config in its header. */
static char *sized_graph(const char *dir, const char *name, const char *run_config)
{
    char text[1024];
    snprintf(text, sizeof(text),
             "{\"ptosim_graph\": 1, \"name\": \"%s\", " KERN "%s%s}\n"
             "{\"op\": \"scope_begin\"}\n{\"op\": \"submit\", \"kernel\": \"k\"}\n{\"op\": \"scope_end\"}\n",
             name, run_config ? ", \"run_config\": " : "", run_config ? run_config : "");
    char file[160];
    snprintf(file, sizeof(file), "%s.jsonl", name);
    return tu_write(dir, file, text);
}

/* Sizing A, A, B, A: the arena is built for A, kept, rebuilt for B, rebuilt
 * for A again (one cached sizing per worker). */
START_TEST(a_changed_ring_sizing_between_programs_pays_the_rebuild)
{
    const char *dir = tu_tmpdir();
    char *a = sized_graph(dir, "a", "{\"ring_task_window\": 64}");
    char *b = sized_graph(dir, "b", "{\"ring_task_window\": [0, 128, 0, 0]}");
    char out[4200];
    snprintf(out, sizeof(out), "%s/run", dir);
    const char *args[] = {"run", a, a, b, a, "-o", out, "--quiet", NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    cJSON *j = worker_json(out);
    const cJSON *progs = cJSON_GetObjectItem(j, "programs");
    const char *want[] = {"built", "cached", "built", "built"};
    double device = 0;
    for (int p = 0; p < 4; p++) {
        const cJSON *pr = cJSON_GetArrayItem(progs, p);
        ck_assert_str_eq(cJSON_GetObjectItem(pr, "arena")->valuestring, want[p]);
        device += num(pr, "device_us");
        int w1 = cJSON_GetArrayItem(cJSON_GetObjectItem(pr, "ring_task_window"), 1)->valueint;
        ck_assert_int_eq(w1, p == 2 ? 128 : 64);
    }
    const cJSON *wk = cJSON_GetObjectItem(j, "worker");
    ck_assert_int_eq((int)num(wk, "arena_builds"), 3);
    ck_assert_double_eq_tol(num(wk, "setup_us"), 800400, 1e-6);
    ck_assert_double_eq_tol(num(wk, "total_us"), 800400 + 2 * 800000 + device, 5e-3);
    /* fresh workers: 4 setups; this worker: 1 setup + 2 rebuilds */
    ck_assert_double_eq_tol(num(wk, "saved_us"), 4 * 800400 - 800400 - 2 * 800000, 5e-3);
    cJSON_Delete(j);
    /* the report's timeline shows the two rebuilds */
    const char *rep[] = {"report", out, NULL};
    r = tu_run(rep);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char path[4400];
    snprintf(path, sizeof(path), "%s/report.html", out);
    char *page = tu_read(path);
    ck_assert_ptr_nonnull(page);
    int rebuilds = 0;
    for (const char *q = page; (q = strstr(q, "arena rebuilt for program")) != NULL; q++)
        rebuilds++;
    ck_assert_int_eq(rebuilds, 2);
    free(page);

    /* a flag sets every program's sizing: no rebuild */
    const char *args2[] = {"run", a, b, "-o", out, "--quiet", "--ring-task-window", "256", NULL};
    r = tu_run(args2);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    j = worker_json(out);
    ck_assert_int_eq((int)num(cJSON_GetObjectItem(j, "worker"), "arena_builds"), 1);
    cJSON_Delete(j);
    free(a);
    free(b);
}
END_TEST

/* A single run takes its sizing from the header; a flag wins ring by ring. */
START_TEST(run_config_in_the_header_sizes_the_rings_and_flags_win)
{
    const char *dir = tu_tmpdir();
    char *g = sized_graph(dir, "g", "{\"ring_task_window\": 64, \"ring_heap\": [0, 0, 1048576, 0]}");
    const char *args[] = {"run", g, "-o", dir, "--quiet", "--ring-task-window", "0,0,0,32", NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    cJSON *j = worker_json(dir);
    const cJSON *cfg = cJSON_GetObjectItem(j, "config");
    int want_w[] = {64, 64, 64, 32};
    double want_h[] = {268435456, 268435456, 1048576, 268435456};
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(cJSON_GetArrayItem(cJSON_GetObjectItem(cfg, "ring_task_window"), i)->valueint,
                         want_w[i]);
        ck_assert_double_eq(cJSON_GetArrayItem(cJSON_GetObjectItem(cfg, "ring_heap"), i)->valuedouble,
                            want_h[i]);
    }
    cJSON_Delete(j);
    free(g);
}
END_TEST

START_TEST(bad_run_config_is_rejected_with_runconfig_messages)
{
    static const struct {
        const char *rc, *want;
    } cases[] = {
        {"{\"ring_task_window\": 100}",
         "g.jsonl:1: run_config.ring_task_window: ring_task_window must be a power of 2 >= 4, got 100"},
        {"{\"ring_heap\": [1024, 2048]}", "g.jsonl:1: run_config.ring_heap: ring_heap must have exactly 4 "
                                          "entries (one per scope-depth ring), got 2"},
        /* a value that is no int gets RunConfig's message with Python's repr, as the flag does */
        {"{\"ring_dep_pool\": \"big\"}",
         "g.jsonl:1: run_config.ring_dep_pool: ring_dep_pool must be in [4, INT32_MAX], got 'big'"},
        {"{\"ring_dep_pool\": true}",
         "g.jsonl:1: run_config.ring_dep_pool: ring_dep_pool must be in [4, INT32_MAX], got True"},
        {"{\"ring_task_window\": [4, 4.5, 4, 4]}",
         "g.jsonl:1: run_config.ring_task_window: ring_task_window entries must be a power of 2 >= 4 (or 0 "
         "to keep default), got 4.5"},
        {"{\"ring_heap\": null}",
         "g.jsonl:1: run_config.ring_heap: must be a non-negative integer or a list of 4 of them, got null"},
        /* each documented constraint (model/README.md §4.1), scalar and list entry */
        {"{\"ring_task_window\": 0}",
         "g.jsonl:1: run_config.ring_task_window: ring_task_window must be a power of 2 >= 4, got 0"},
        {"{\"ring_task_window\": 2}",
         "g.jsonl:1: run_config.ring_task_window: ring_task_window must be a power of 2 >= 4, got 2"},
        {"{\"ring_task_window\": [16, 0, 48, 0]}",
         "g.jsonl:1: run_config.ring_task_window: ring_task_window entries must be a power of 2 >= 4 (or 0 "
         "to keep default), got 48"},
        {"{\"ring_heap\": 64}",
         "g.jsonl:1: run_config.ring_heap: ring_heap must be a power of 2 >= 1024 (bytes per ring), got 64"},
        {"{\"ring_heap\": 0}",
         "g.jsonl:1: run_config.ring_heap: ring_heap must be a power of 2 >= 1024 (bytes per ring), got 0"},
        {"{\"ring_heap\": [0, 0, 0, 512]}",
         "g.jsonl:1: run_config.ring_heap: ring_heap entries must be a power of 2 >= 1024 (bytes per ring) (or 0 to keep "
         "default), got 512"},
        {"{\"ring_dep_pool\": 3}",
         "g.jsonl:1: run_config.ring_dep_pool: ring_dep_pool must be in [4, INT32_MAX], got 3"},
        {"{\"ring_dep_pool\": 2147483648}",
         "g.jsonl:1: run_config.ring_dep_pool: ring_dep_pool must be in [4, INT32_MAX], got 2147483648"},
        {"{\"ring_dep_pool\": [4, 4, 0, 3]}",
         "g.jsonl:1: run_config.ring_dep_pool: ring_dep_pool entries must be in [4, INT32_MAX] (or 0 to keep "
         "default), got 3"},
        /* the count is checked first, and counts every entry */
        {"{\"ring_dep_pool\": [4, 4, 4, 4, 4, 4]}",
         "g.jsonl:1: run_config.ring_dep_pool: ring_dep_pool must have exactly 4 entries (one per "
         "scope-depth ring), got 6"},
        {"{\"ring_heap\": [0, \"x\", 0]}",
         "g.jsonl:1: run_config.ring_heap: ring_heap must have exactly 4 entries (one per scope-depth "
         "ring), got 3"},
        {"{\"ring_windows\": 64}", "g.jsonl:1: run_config.ring_windows: unknown field"},
        {"[64]", "g.jsonl:1: run_config: must be an object, got an array"},
        /* 2^32 passes RunConfig (a power of 2 >= 4); simpler's RuntimeEnv refuses it */
        {"{\"ring_task_window\": [0, 4294967296, 0, 0]}",
         "g.jsonl:1: run_config.ring_task_window: RuntimeEnv: ring_task_window must be a power of 2 in [4, "
         "INT32_MAX]"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const char *dir = tu_tmpdir();
        char *g = sized_graph(dir, "g", cases[i].rc);
        const char *args[] = {"run", g, "--quiet", NULL};
        run_out r = tu_run(args);
        ck_assert_int_eq(r.status, 3);
        ck_assert_msg(strstr(r.err, cases[i].want) != NULL, "want '%s', got '%s'", cases[i].want, r.err);
        tu_run_free(&r);
        free(g);
    }
}
END_TEST

/* A graph whose header ends in SIZES (e.g. "\"runtime_env\": {...}"), the rest as sized_graph's. */
static char *keyed_graph(const char *dir, const char *sizes)
{
    char text[1024];
    snprintf(text, sizeof(text),
             "{\"ptosim_graph\": 1, \"name\": \"g\", " KERN ", %s}\n"
             "{\"op\": \"scope_begin\"}\n{\"op\": \"submit\", \"kernel\": \"k\"}\n{\"op\": \"scope_end\"}\n",
             sizes);
    return tu_write(dir, "g.jsonl", text);
}

/* runtime_env holds the sizes a capture's runtime ran with: simpler's RuntimeEnv::validate rules (a heap of
 * any size from 1024 bytes, 0 = unset) and messages; run_config, RunConfig's, refuses the same 1572864. */
START_TEST(runtime_env_takes_a_captures_heap_with_runtimeenvs_rules)
{
    const char *dir = tu_tmpdir();
    char *g = keyed_graph(dir, "\"runtime_env\": {\"ring_heap\": [0, 1572864, 1024, 0]}");
    const char *args[] = {"run", g, "-o", dir, "--quiet", NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    cJSON *j = worker_json(dir);
    const cJSON *heap = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "config"), "ring_heap");
    double want_h[] = {268435456, 1572864, 1024, 268435456};
    for (int i = 0; i < 4; i++)
        ck_assert_double_eq(cJSON_GetArrayItem(heap, i)->valuedouble, want_h[i]);
    cJSON_Delete(j);
    free(g);
    static const struct {
        const char *header, *want;
    } cases[] = {
        {"\"run_config\": {\"ring_heap\": [0, 1572864, 0, 0]}",
         "g.jsonl:1: run_config.ring_heap: ring_heap entries must be a power of 2 >= 1024 (bytes per ring) (or "
         "0 to keep default), got 1572864"},
        {"\"runtime_env\": {\"ring_heap\": 1000}",
         "g.jsonl:1: runtime_env.ring_heap: RuntimeEnv: ring_heap must be >= 1024 (bytes per ring)"},
        {"\"runtime_env\": {\"ring_task_window\": [16, 16, 16, 24]}",
         "g.jsonl:1: runtime_env.ring_task_window: RuntimeEnv: ring_task_window must be a power of 2 in [4, "
         "INT32_MAX]"},
        {"\"runtime_env\": {\"ring_dep_pool\": 3}",
         "g.jsonl:1: runtime_env.ring_dep_pool: RuntimeEnv: ring_dep_pool must be in [4, INT32_MAX]"},
        {"\"runtime_env\": {\"ring_heap\": [1024, 1024]}",
         "g.jsonl:1: runtime_env.ring_heap: RuntimeEnv.ring_heap list must contain exactly 4 entries"},
        {"\"runtime_env\": {\"ring_heap\": \"1MiB\"}",
         "g.jsonl:1: runtime_env.ring_heap: RuntimeEnv.ring_heap must be an int (broadcast) or a list of 4 ints"},
        {"\"runtime_env\": {\"heap\": 1024}", "g.jsonl:1: runtime_env.heap: unknown field"},
        {"\"run_config\": {\"ring_heap\": 1024}, \"runtime_env\": {\"ring_heap\": 1024}",
         "g.jsonl:1: runtime_env: a graph gives its ring sizes in run_config or in runtime_env, not both"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const char *d = tu_tmpdir();
        char *b = keyed_graph(d, cases[i].header);
        const char *bad[] = {"run", b, "--quiet", NULL};
        r = tu_run(bad);
        ck_assert_int_eq(r.status, 3);
        ck_assert_msg(strstr(r.err, cases[i].want) != NULL, "want '%s', got '%s'", cases[i].want, r.err);
        tu_run_free(&r);
        free(b);
    }
}
END_TEST

/* A program that fails ends the worker's session: the rest do not run. */
START_TEST(a_failing_program_stops_the_ones_after_it)
{
    const char *dir = tu_tmpdir();
    char *ok = sized_graph(dir, "ok", NULL);
    /* 8 tasks at depth 0 with a 4-slot window: the scope pre-check stops it (code 1) */
    char text[2048];
    size_t n = (size_t)snprintf(text, sizeof(text),
                                "{\"ptosim_graph\": 1, \"name\": \"flat\", " KERN
                                ", \"run_config\": {\"ring_task_window\": 4}}\n");
    for (int i = 0; i < 8; i++)
        n += (size_t)snprintf(text + n, sizeof(text) - n, "{\"op\": \"submit\", \"kernel\": \"k\"}\n");
    char *flat = tu_write(dir, "flat.jsonl", text);
    char out[4200];
    snprintf(out, sizeof(out), "%s/run", dir);
    const char *args[] = {"run", ok, flat, ok, "-o", out, NULL};
    run_out r = tu_run(args);
    ck_assert_int_eq(r.status, 4);
    ck_assert_msg(tu_starts(r.err, TU_ORCH_FAILED(1)), "%s", r.err);
    ck_assert_msg(strstr(r.out, "2 ok: not run") != NULL, "%s", r.out);
    tu_run_free(&r);
    cJSON *j = worker_json(out);
    const cJSON *progs = cJSON_GetObjectItem(j, "programs");
    ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(progs, 1), "status")->valuestring,
                     "runtime_error");
    ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(cJSON_GetArrayItem(progs, 2), "ran")));
    cJSON_Delete(j);
    free(ok);
    free(flat);
}
END_TEST

Suite *suite_worker(void)
{
    Suite *s = suite_create("worker");
    TCase *tc = tcase_create("worker");
    tcase_add_test(tc, resident_tensors_keep_their_address_and_others_do_not_alias);
    tcase_add_test(tc, a_resident_tensor_declared_differently_is_rejected);
    tcase_add_test(tc, setup_is_paid_once_and_a_new_sizing_rebuilds_the_arena);
    tcase_add_test(tc, the_per_run_sm_reset_scales_with_the_task_windows);
    tcase_add_test(tc, reads_link_to_the_last_writer_in_an_earlier_program);
    tcase_add_test(tc, prefill_and_decode_share_the_kv_cache_on_one_worker);
    tcase_add_test(tc, a_changed_ring_sizing_between_programs_pays_the_rebuild);
    tcase_add_test(tc, run_config_in_the_header_sizes_the_rings_and_flags_win);
    tcase_add_test(tc, bad_run_config_is_rejected_with_runconfig_messages);
    tcase_add_test(tc, runtime_env_takes_a_captures_heap_with_runtimeenvs_rules);
    tcase_add_test(tc, a_failing_program_stops_the_ones_after_it);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    return s;
}
