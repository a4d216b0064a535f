/* test_pipe.c - the AICore pipe model: hand-worked pipelines, derived pipe times, pipe-form costs. */
/* The pipe-form cost as graph files give it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/graph/graph_reader.h"
#include "../model/chip/pipe.h"
#include "testutil.h"

/* a2a3 rates (platforms/a2a3.json) */
static const pipe_rates A2A3 = {.gm_bytes_per_cycle = 32,
                                .mte1_bytes_per_cycle = 512,
                                .vec_bytes_per_cycle = 256,
                                .cube_m = 16,
                                .cube_n = 16,
                                .cube_k_bytes = 32,
                                .scalar_cycles_per_tile = 200};

/* An AIV kernel with explicit cycles per tile for scalar, MTE2, vector, MTE3. */
static pipe_kernel aiv_cycles(uint32_t tiles, uint32_t buffers, uint64_t s, uint64_t m2, uint64_t v,
                              uint64_t m3)
{
    pipe_kernel k;
    memset(&k, 0, sizeof(k));
    k.tiles = tiles;
    k.buffers = buffers;
    k.scalar_given = true;
    k.work.cycles[PIPE_SCALAR] = s;
    k.work.cycles[PIPE_MTE2] = m2;
    k.work.cycles[PIPE_VECTOR] = v;
    k.work.cycles[PIPE_MTE3] = m3;
    return k;
}

START_TEST(one_tile_is_the_serial_sum_of_its_stages)
{
    pipe_result r;
    pipe_kernel k = aiv_cycles(1, 2, 50, 100, 80, 10);
    pipe_run(&k, &A2A3, &r);
    ck_assert_uint_eq(r.total_cycles, 50 + 100 + 80 + 10);
    ck_assert_uint_eq(r.busy_cycles[PIPE_MTE2], 100);
    ck_assert_int_eq(r.busiest, PIPE_MTE2);
}
END_TEST

START_TEST(four_double_buffered_tiles_are_paced_by_the_slowest_pipe)
{
    /* scalar 50, MTE2 100, vector 80, MTE3 10 per tile, 2 buffers:
     * prologue: tile 0 through scalar (50), then MTE2 paces tiles 0-3
     * (4 x 100 = 400, MTE2 of tile i+1 overlapping vector of tile i), then
     * the epilogue drains tile 3 through vector and MTE3 (80 + 10):
     * 50 + 4 x 100 + 90 = 540 = the first tile's 240 + 3 x 100 */
    pipe_result r;
    pipe_kernel k = aiv_cycles(4, 2, 50, 100, 80, 10);
    pipe_run(&k, &A2A3, &r);
    ck_assert_uint_eq(r.total_cycles, 540);
    ck_assert_uint_eq(r.busy_cycles[PIPE_MTE2], 400);
    ck_assert_uint_eq(r.busy_cycles[PIPE_VECTOR], 320);
    ck_assert_uint_eq(r.busy_cycles[PIPE_SCALAR], 200);
}
END_TEST

START_TEST(single_buffering_serialises_load_and_compute)
{
    /* one buffer: MTE2 of tile i+1 waits until the vector unit released
     * tile i's buffer, so after the first tile (240) each tile costs
     * MTE2 + vector = 180: tile 1 loads 230-330, computes 330-410 ... and
     * tile 3 stores 770-780. 240 + 3 x 180 = 780 vs 540 double-buffered */
    pipe_result single, dbl;
    pipe_kernel k1 = aiv_cycles(4, 1, 50, 100, 80, 10), k2 = aiv_cycles(4, 2, 50, 100, 80, 10);
    pipe_run(&k1, &A2A3, &single);
    pipe_run(&k2, &A2A3, &dbl);
    ck_assert_uint_eq(single.total_cycles, 780);
    ck_assert_uint_eq(dbl.total_cycles, 540);
    /* the same work either way */
    for (int p = 0; p < PIPE_COUNT; p++)
        ck_assert_uint_eq(single.busy_cycles[p], dbl.busy_cycles[p]);
}
END_TEST

START_TEST(pipe_times_derive_from_bytes_shapes_and_elements)
{
    pipe_kernel v;
    memset(&v, 0, sizeof(v));
    v.tiles = 1;
    v.buffers = 2;
    v.work.bytes[PIPE_MTE2] = 32768; /* 32 KiB at 32 B/cycle: 1024 cycles */
    v.work.vec_elems = 16384;        /* 16384 fp16 = 32 KiB at 256 B/cycle: 128 */
    v.work.vec_elem_bytes = 2;
    v.work.bytes[PIPE_MTE3] = 16384; /* 512 */
    uint64_t c[PIPE_COUNT];
    pipe_tile_cycles(&v, &A2A3, c);
    ck_assert_uint_eq(c[PIPE_SCALAR], 200); /* the platform default */
    ck_assert_uint_eq(c[PIPE_MTE2], 1024);
    ck_assert_uint_eq(c[PIPE_VECTOR], 128);
    ck_assert_uint_eq(c[PIPE_MTE3], 512);
    v.work.vec_elem_bytes = 4; /* fp32: 64 lanes */
    pipe_tile_cycles(&v, &A2A3, c);
    ck_assert_uint_eq(c[PIPE_VECTOR], 256);

    pipe_kernel m;
    memset(&m, 0, sizeof(m));
    m.aic = true;
    m.tiles = 1;
    m.buffers = 2;
    m.work.mnk[0] = 128, m.work.mnk[1] = 128, m.work.mnk[2] = 64; /* 8 x 8 x 4 fp16 steps */
    m.work.cube_elem_bytes = 2;
    m.work.bytes[PIPE_MTE1] = 32768;  /* 64 cycles at 512 B/cycle */
    m.work.bytes[PIPE_FIXPIPE] = 100; /* 3.125 -> 4 cycles */
    pipe_tile_cycles(&m, &A2A3, c);
    ck_assert_uint_eq(c[PIPE_CUBE], 256);
    ck_assert_uint_eq(c[PIPE_MTE1], 64);
    ck_assert_uint_eq(c[PIPE_FIXPIPE], 4);
    m.work.cube_elem_bytes = 1; /* int8: k steps of 32 */
    pipe_tile_cycles(&m, &A2A3, c);
    ck_assert_uint_eq(c[PIPE_CUBE], 128);
    m.work.cube_elem_bytes = 4; /* fp32: k steps of 8, 8 x 8 x 8 */
    pipe_tile_cycles(&m, &A2A3, c);
    ck_assert_uint_eq(c[PIPE_CUBE], 512);
}
END_TEST

/* A pipe's own rate in GiB/s, at the core's clock: 135 GiB/s at 1.8 GHz is 135 x 2^30 / 1.8e9 =
 * 80.530 B/cycle, so 65536 B take 813.8 -> 814 cycles; re-read bytes take MTE2's time but are no GM
 * traffic: 65536 + 16384 B take 1017.3 -> 1018 cycles and the result's GM bytes stay 65536 a tile.
 * A pipe without a rate keeps the platform's (FIXPIPE 4096 B at 32 B/cycle: 128). */
START_TEST(a_stated_rate_and_re_reads_price_mte2)
{
    pipe_rates r = A2A3;
    r.clock_hz = 1800000000;
    pipe_kernel m;
    memset(&m, 0, sizeof(m));
    m.aic = true;
    m.tiles = 2;
    m.buffers = 2;
    m.scalar_given = true;
    m.work.bytes[PIPE_MTE2] = 65536;
    m.work.gib_per_s[PIPE_MTE2] = 135;
    m.work.bytes[PIPE_FIXPIPE] = 4096;
    uint64_t c[PIPE_COUNT];
    pipe_tile_cycles(&m, &r, c);
    ck_assert_uint_eq(c[PIPE_MTE2], 814);
    ck_assert_uint_eq(c[PIPE_FIXPIPE], 128);
    m.work.mte2_reread = 16384;
    pipe_tile_cycles(&m, &r, c);
    ck_assert_uint_eq(c[PIPE_MTE2], 1018);
    pipe_result res;
    pipe_run(&m, &r, &res);
    ck_assert_uint_eq(res.bytes[PIPE_MTE2], 2 * 65536);
    ck_assert_uint_eq(res.gm_bytes, 2 * 65536 + 2 * 4096);
    ck_assert_uint_eq(res.busy_cycles[PIPE_MTE2], 2 * 1018);
    /* two tiles, double-buffered: MTE2 1018, 2036; FIXPIPE after each: 1146, 2164 */
    ck_assert_uint_eq(res.total_cycles, 2164);
}
END_TEST

START_TEST(the_table_runs_each_distinct_kernel_once)
{
    pipe_table t;
    ck_assert_int_eq(pipe_table_init(&t, &A2A3), 0);
    pipe_kernel a = aiv_cycles(4, 2, 50, 100, 80, 10), b = aiv_cycles(4, 1, 50, 100, 80, 10);
    uint32_t ia = pipe_table_get(&t, &a), ib = pipe_table_get(&t, &b);
    ck_assert_uint_ne(ia, 0);
    ck_assert_uint_ne(ia, ib);
    ck_assert_uint_eq(pipe_table_get(&t, &a), ia);
    ck_assert_uint_eq(pipe_table_result(&t, ia)->total_cycles, 540);
    ck_assert_uint_eq(pipe_table_result(&t, ib)->total_cycles, 780);
    /* many distinct entries survive rehashing */
    for (uint32_t n = 1; n <= 200; n++) {
        pipe_kernel k = aiv_cycles(n, 2, 0, 10, 0, 0);
        uint32_t ix = pipe_table_get(&t, &k);
        ck_assert_uint_eq(pipe_table_result(&t, ix)->total_cycles, 10 * n);
    }
    ck_assert_uint_eq(pipe_table_get(&t, &a), ia);
    pipe_table_free(&t);
}
END_TEST

/* Validates a one-kernel graph whose kernel has the given core and cost;
 * returns the error ("" when valid). */
static const char *check_cost(const char *core, const char *cost)
{
    static char err[GRAPH_ERR_MAX];
    char text[2048];
    snprintf(
        text, sizeof(text),
        "{\"ptosim_graph\": 1, \"name\": \"p\", \"kernels\": [{\"id\": 0, \"name\": \"k\", \"core\": \"%s\", "
        "\"cost\": %s}]}\n{\"op\": \"submit\", \"kernel\": \"k\"}\n",
        core, cost);
    char *path = tu_write(tu_tmpdir(), "p.jsonl", text);
    err[0] = '\0';
    if (graph_validate(path, err, sizeof(err)) == 0)
        err[0] = '\0';
    free(path);
    return err;
}

static void expect_cost_error(const char *core, const char *cost, const char *msg)
{
    const char *err = check_cost(core, cost);
    ck_assert_msg(strstr(err, msg) != NULL, "for %s got '%s', expected '%s'", cost, err, msg);
}

/* bgemm's GEMM as Perf-Sim measured it (shared/spec/perfsim.md): 19,696 cycles at 1.85 GHz, scalar 20,
 * mte2 6,688, mte1 1,544, cube 8,216, fixpipe 3,228. On the 1.8 GHz a2a3 clock each figure is
 * x 1.8 / 1.85, rounded: 19,696 -> 19,163.68 -> 19,164; cube 8,216 -> 7,993.95 -> 7,994;
 * mte2 6,688 -> 6,507.03 -> 6,507; scalar 20 -> 19.46 -> 19. */
START_TEST(a_measured_profile_is_converted_to_the_platform_clock_not_run)
{
    pipe_rates r = A2A3;
    r.clock_hz = 1800000000;
    pipe_kernel k;
    memset(&k, 0, sizeof(k));
    k.aic = true;
    k.tiles = k.buffers = 1;
    k.measured = true;
    k.measured_hz = 1850000000;
    k.measured_cycles = 19696;
    k.work.cycles[PIPE_SCALAR] = 20;
    k.work.cycles[PIPE_MTE2] = 6688;
    k.work.cycles[PIPE_MTE1] = 1544;
    k.work.cycles[PIPE_CUBE] = 8216;
    k.work.cycles[PIPE_FIXPIPE] = 3228;
    k.work.bytes[PIPE_MTE2] = 131072;
    k.work.bytes[PIPE_FIXPIPE] = 65536;
    pipe_result res;
    pipe_run(&k, &r, &res);
    ck_assert_uint_eq(res.total_cycles, 19164);
    ck_assert_uint_eq(res.busy_cycles[PIPE_CUBE], 7994);
    ck_assert_uint_eq(res.busy_cycles[PIPE_MTE2], 6507);
    ck_assert_uint_eq(res.busy_cycles[PIPE_SCALAR], 19);
    ck_assert_int_eq(res.busiest, PIPE_CUBE);
    ck_assert_uint_eq(res.gm_bytes, 131072 + 65536);
    ck_assert_uint_eq(res.bytes[PIPE_MTE1], 0);
    /* on the measuring clock nothing changes */
    r.clock_hz = 1850000000;
    pipe_run(&k, &r, &res);
    ck_assert_uint_eq(res.total_cycles, 19696);
    ck_assert_uint_eq(res.busy_cycles[PIPE_FIXPIPE], 3228);
    /* the rounding is to nearest: 1 cycle at 1.85 GHz is 0.97 at 1.8 GHz, 3 is 2.92 */
    ck_assert_uint_eq(pipe_convert_cycles(1, 1850000000, 1800000000), 1);
    ck_assert_uint_eq(pipe_convert_cycles(3, 1850000000, 1800000000), 3);
    ck_assert_uint_eq(pipe_convert_cycles(1000000000000ULL, 1850000000, 1800000000), 972972972973ULL);
}
END_TEST

START_TEST(graph_files_accept_the_perf_sim_form)
{
    ck_assert_str_eq(check_cost("aic", "{\"perf_sim\": {\"ghz\": 1.85, \"cycles\": 19696, \"busy\": {\"scalar\": 20, "
                                       "\"mte2\": 6688, \"mte1\": 1544, \"cube\": 8216, \"fixpipe\": 3228}, "
                                       "\"gm_bytes\": {\"mte2\": 131072, \"fixpipe\": 65536}}}"),
                     "");
    ck_assert_str_eq(check_cost("aiv", "{\"perf_sim\": {\"ghz\": 1.85, \"cycles\": 431}}"), "");
    expect_cost_error("aiv", "{\"perf_sim\": {\"cycles\": 431}}",
                      ":1: kernels[0].cost.perf_sim.ghz: must be the clock Perf-Sim counts at, in GHz (1.85), got "
                      "nothing");
    expect_cost_error("aiv", "{\"perf_sim\": {\"ghz\": 0, \"cycles\": 431}}",
                      ":1: kernels[0].cost.perf_sim.ghz: must be in [0.001, 100] GHz, got 0");
    expect_cost_error("aiv", "{\"perf_sim\": {\"ghz\": 1.85}}",
                      ":1: kernels[0].cost.perf_sim.cycles: missing (the kernel's end-to-end cycles)");
    expect_cost_error("aiv", "{\"perf_sim\": {\"ghz\": 1.85, \"cycles\": 431, \"busy\": {\"cube\": 10}}}",
                      ":1: kernels[0].cost.perf_sim.busy.cube: the AIV has no such pipe (its pipes: scalar, mte2, "
                      "mte3, vector)");
    expect_cost_error("aiv", "{\"perf_sim\": {\"ghz\": 1.85, \"cycles\": 431, \"busy\": {\"vector\": 432}}}",
                      ":1: kernels[0].cost.perf_sim.busy.vector: 432 busy cycles exceed the kernel's 431");
    expect_cost_error("aiv",
                      "{\"perf_sim\": {\"ghz\": 1.85, \"cycles\": 431, \"gm_bytes\": {\"vector\": 1}}}",
                      ":1: kernels[0].cost.perf_sim.gm_bytes.vector: moves no GM bytes (GM pipes: mte2, mte3, "
                      "fixpipe)");
    expect_cost_error("aiv", "{\"perf_sim\": {\"ghz\": 1.85, \"cycles\": 431}, \"tiles\": 2}",
                      ":1: kernels[0].cost.tiles: unknown field");
    expect_cost_error("aiv", "{\"perf_sim\": {\"ghz\": 1.85, \"cycles\": 431, \"total\": 2}}",
                      ":1: kernels[0].cost.perf_sim.total: unknown field");
}
END_TEST

START_TEST(graph_files_accept_the_pipe_form)
{
    ck_assert_str_eq(
        check_cost("aiv", "{\"tiles\": 8, \"mte2\": {\"bytes\": 32768}, \"vector\": {\"elems\": 16384}, "
                          "\"mte3\": {\"bytes\": 32768}}"),
        "");
    ck_assert_str_eq(
        check_cost("aic", "{\"tiles\": 4, \"buffers\": 2, \"scalar\": 100, \"mte2\": {\"bytes\": 65536}, "
                          "\"mte1\": {\"bytes\": 65536}, \"cube\": {\"m\": 128, \"n\": 128, \"k\": 128, "
                          "\"dtype\": \"BFLOAT16\"}, \"fixpipe\": {\"bytes\": 32768}}"),
        "");
    ck_assert_str_eq(check_cost("aiv", "{\"vector\": 900}"), ""); /* cycles per tile, one tile */
    ck_assert_str_eq(check_cost("aic", "{\"mte2\": {\"bytes\": 4096, \"reread\": 8192, \"gib_per_s\": 135}, "
                                       "\"cube\": {\"m\": 16, \"n\": 16, \"k\": 16, \"dtype\": \"FLOAT32\"}, "
                                       "\"fixpipe\": {\"bytes\": 1024, \"gib_per_s\": 139.9}}"),
                     "");
}
END_TEST

START_TEST(pipe_form_errors_name_the_field)
{
    expect_cost_error(
        "aic", "{\"vector\": 100}",
        ":1: kernels[0].cost.vector: the AIC has no vector pipe (its pipes: scalar, mte1, mte2, cube, "
        "fixpipe)");
    expect_cost_error(
        "aiv", "{\"cube\": {\"m\": 16, \"n\": 16, \"k\": 16}}",
        ":1: kernels[0].cost.cube: the AIV has no cube pipe (its pipes: scalar, mte2, mte3, vector)");
    expect_cost_error("aiv", "{\"tiles\": 0, \"vector\": 10}",
                      ":1: kernels[0].cost.tiles: must be >= 1, got 0");
    expect_cost_error("aiv", "{\"tiles\": 2000000, \"vector\": 10}",
                      ":1: kernels[0].cost.tiles: must be <= 1000000, got 2000000");
    expect_cost_error("aiv", "{\"buffers\": 0, \"vector\": 10}",
                      ":1: kernels[0].cost.buffers: must be >= 1, got 0");
    expect_cost_error("aiv", "{\"vector\": -4}",
                      ":1: kernels[0].cost.vector: must be in [0, 1000000000000] cycles");
    expect_cost_error("aiv", "{\"mte2\": {\"bytes\": 1.5}}",
                      ":1: kernels[0].cost.mte2.bytes: must be an integer");
    expect_cost_error("aiv", "{\"mte2\": {\"elems\": 4}}", ":1: kernels[0].cost.mte2.elems: unknown field");
    expect_cost_error("aiv", "{\"tile\": 4, \"vector\": 10}", ":1: kernels[0].cost.tile: unknown field");
    expect_cost_error("aiv", "{\"scalar\": 10}",
                      ":1: kernels[0].cost: the pipe form needs work on at least one pipe besides scalar");
    expect_cost_error("aic", "{\"cube\": {\"m\": 16, \"n\": 16}}",
                      ":1: kernels[0].cost.cube: give all of m, n and k (one m x n x k multiply per tile)");
    expect_cost_error(
        "aic", "{\"cube\": {\"m\": 16, \"n\": 16, \"k\": 16, \"dtype\": \"INT32\"}}",
        ":1: kernels[0].cost.cube.dtype: the cube takes FLOAT16, BFLOAT16, FLOAT32 or INT8, got INT32");
    expect_cost_error("aic", "{\"mte2\": {\"bytes\": 64, \"gib_per_s\": 0}}",
                      ":1: kernels[0].cost.mte2.gib_per_s: must be in [0.001, 1000000] GiB/s, got 0");
    expect_cost_error("aiv", "{\"mte3\": {\"bytes\": 64, \"gib_per_s\": \"fast\"}}",
                      ":1: kernels[0].cost.mte3.gib_per_s: must be a number (GiB/s), got a string");
    expect_cost_error("aiv", "{\"mte3\": {\"bytes\": 64, \"reread\": 64}}",
                      ":1: kernels[0].cost.mte3.reread: unknown field");
    expect_cost_error("aic", "{\"mte2\": {\"bytes\": 64, \"reread\": -1}}",
                      ":1: kernels[0].cost.mte2.reread: must be >= 0, got -1");
    /* the re-read panel occupies L1 too: 2 x (131072 + 131073) > 512 KiB */
    expect_cost_error("aic", "{\"mte2\": {\"bytes\": 131072, \"reread\": 131073}}",
                      ":1: kernels[0].cost: 2 buffers x mte2 262145 B = 524290 B do not fit the AIC's 512 KiB "
                      "L1; use more, smaller tiles");
    expect_cost_error("aiv", "{\"vector\": {\"elems\": 8, \"dtype\": \"FLOAT8\"}}",
                      ":1: kernels[0].cost.vector.dtype: unknown dtype 'FLOAT8'");
    /* 2 x (64 + 64 KiB) = 256 KiB > 192 KiB UB; 2 x 512 KiB > 512 KiB L1 */
    expect_cost_error(
        "aiv", "{\"mte2\": {\"bytes\": 65536}, \"mte3\": {\"bytes\": 65536}}",
        ":1: kernels[0].cost: 2 buffers x (mte2 65536 B + mte3 65536 B) = 262144 B do not fit the "
        "AIV's 192 KiB UB; use more, smaller tiles");
    expect_cost_error(
        "aic", "{\"mte2\": {\"bytes\": 524288}}",
        ":1: kernels[0].cost: 2 buffers x mte2 524288 B = 1048576 B do not fit the AIC's 512 KiB L1; "
        "use more, smaller tiles");
    expect_cost_error("aiv", "{\"cycles\": 10, \"tiles\": 2}", ":1: kernels[0].cost.tiles: unknown field");
}
END_TEST

START_TEST(a_mix_task_cannot_override_with_pipes)
{
    char *path =
        tu_write(tu_tmpdir(), "m.jsonl",
                 "{\"ptosim_graph\": 1, \"name\": \"m\", \"kernels\": [{\"id\": 0, \"name\": \"c\", "
                 "\"core\": \"aic\", "
                 "\"cost\": {\"cycles\": 10}}, {\"id\": 1, \"name\": \"v\", \"core\": \"aiv\", \"cost\": "
                 "{\"cycles\": 10}}]}\n"
                 "{\"op\": \"submit\", \"kernel\": \"v\", \"cost\": {\"tiles\": 4, \"vector\": 100}}\n"
                 "{\"op\": \"submit\", \"kernels\": [\"c\", \"v\", null], \"cost\": {\"tiles\": 4, "
                 "\"vector\": 100}}\n");
    char err[GRAPH_ERR_MAX] = "";
    ck_assert_int_eq(graph_validate(path, err, sizeof(err)), -1);
    ck_assert_msg(
        strstr(err, ":3: cost: a MIX task's cost override must be flat ({\"cycles\": N} or {\"ns\": N}); "
                    "give pipe costs in the kernel table") != NULL,
        "%s", err);
    free(path);
}
END_TEST

Suite *suite_pipe(void)
{
    Suite *s = suite_create("pipe");
    TCase *tc = tcase_create("pipeline");
    tcase_add_test(tc, one_tile_is_the_serial_sum_of_its_stages);
    tcase_add_test(tc, four_double_buffered_tiles_are_paced_by_the_slowest_pipe);
    tcase_add_test(tc, single_buffering_serialises_load_and_compute);
    tcase_add_test(tc, pipe_times_derive_from_bytes_shapes_and_elements);
    tcase_add_test(tc, a_stated_rate_and_re_reads_price_mte2);
    tcase_add_test(tc, the_table_runs_each_distinct_kernel_once);
    tcase_add_test(tc, graph_files_accept_the_pipe_form);
    tcase_add_test(tc, a_measured_profile_is_converted_to_the_platform_clock_not_run);
    tcase_add_test(tc, graph_files_accept_the_perf_sim_form);
    tcase_add_test(tc, pipe_form_errors_name_the_field);
    tcase_add_test(tc, a_mix_task_cannot_override_with_pipes);
    suite_add_tcase(s, tc);
    return s;
}
