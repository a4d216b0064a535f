/* test_pmu.c - pipe-model kernels on the chip, the bottleneck report, and pmu.csv for every event group. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/engine/chip_engine.h"
#include "../model/chip/pmu.h"
#include "../model/output/run_report.h"
#include "testutil.h"

#define NS(x) ((ps_t)(x)*PS_PER_NS)

/* stream: 16 tiles of 32 KiB in (1024 cycles), 16384 fp16 (128), 16 KiB out
 * (512), scalar 200: MTE2 paces it, 200 + 1024 + 128 + 512 + 15 x 1024 =
 * 17224 cycles. mm: 8 tiles of 64 KiB in (2048), L1->L0 64 KiB (128), a
 * 256 x 256 x 256 fp16 multiply (16 x 16 x 16 = 4096), 32 KiB out (1024),
 * scalar 200: the cube paces it, 200 + 2048 + 128 + 4096 + 1024 + 7 x 4096
 * = 36168 cycles. */
#define PP_HEADER                                                                                            \
    "{\"ptosim_graph\": 1, \"name\": \"pp\", \"kernels\": [{\"id\": 0, \"name\": \"stream\", \"core\": "     \
    "\"aiv\", \"cost\": {\"tiles\": 16, \"mte2\": {\"bytes\": 32768}, \"vector\": {\"elems\": 16384}, "      \
    "\"mte3\": {\"bytes\": 16384}}}, {\"id\": 1, \"name\": \"mm\", \"core\": \"aic\", \"cost\": "            \
    "{\"tiles\": 8, "                                                                                        \
    "\"mte2\": {\"bytes\": 65536}, \"mte1\": {\"bytes\": 65536}, \"cube\": {\"m\": 256, \"n\": 256, \"k\": " \
    "256}, \"fixpipe\": {\"bytes\": 32768}}}]}\n"
#define PP_GRAPH                                                                                             \
    PP_HEADER "{\"op\": \"submit\", \"kernel\": \"stream\", \"block_num\": 4}\n"                             \
              "{\"op\": \"submit\", \"kernel\": \"mm\", \"block_num\": 2}\n"

static ps_t cycles_ps(uint64_t n)
{
    return ps_from_cycles(n, 1800000000ULL);
}

START_TEST(pipe_model_kernels_run_for_their_pipeline_time)
{
    chip *c = tu_chip(PP_GRAPH, NULL, 1, NULL);
    ck_assert_int_eq(c->status, CHIP_DONE);
    const sl_exec *s = tu_exec(c, 0, NULL), *m = tu_exec(c, 1, NULL);
    ck_assert_uint_eq(s->end - s->start, cycles_ps(17224));
    ck_assert_uint_eq(m->end - m->start, cycles_ps(36168));
    /* per kernel: MTE2 busy 16 x 1024 of 17224 cycles; cube 8 x 4096 of 36168 */
    ck_assert_uint_eq(c->kstats[0].executions, 4);
    ck_assert_double_eq_tol(c->kstats[0].busy_cycles[PIPE_MTE2] / (double)c->kstats[0].window_cycles,
                            16384.0 / 17224, 1e-9);
    ck_assert_double_eq_tol(c->kstats[1].busy_cycles[PIPE_CUBE] / (double)c->kstats[1].window_cycles,
                            32768.0 / 36168, 1e-9);
    /* the run's bottleneck: the kernel with the most core time (mm: 2 x 20.09
     * us vs stream: 4 x 9.57 us) and its busiest pipe, the cube */
    int func, pipe;
    double frac;
    ck_assert(report_bottleneck(c, &func, &pipe, &frac));
    ck_assert_int_eq(func, 1);
    ck_assert_int_eq(pipe, PIPE_CUBE);
    tu_chip_free(c);
}
END_TEST

START_TEST(flat_costs_have_no_pipe_figures)
{
    chip *c =
        tu_chip("{\"ptosim_graph\": 1, \"name\": \"f\", \"kernels\": [{\"id\": 0, \"name\": \"k\", "
                "\"core\": \"aiv\", \"cost\": {\"ns\": 1000}}]}\n{\"op\": \"submit\", \"kernel\": \"k\"}\n",
                NULL, 0, NULL);
    int func, pipe;
    double frac;
    ck_assert(!report_bottleneck(c, &func, &pipe, &frac));
    ck_assert_uint_eq(c->kstats[0].executions, 1);
    ck_assert_uint_eq(c->kstats[0].pipe_executions, 0);
    tu_chip_free(c);
}
END_TEST

START_TEST(a_task_override_with_pipes_changes_only_that_task)
{
    /* the same kernel at 4 tiles instead of 16: 200 + 1024 + 128 + 512 + 3 x 1024 = 4936 cycles */
    chip *c = tu_chip(PP_HEADER
                      "{\"op\": \"submit\", \"kernel\": \"stream\"}\n"
                      "{\"op\": \"submit\", \"kernel\": \"stream\", \"cost\": {\"tiles\": 4, \"mte2\": "
                      "{\"bytes\": 32768}, \"vector\": {\"elems\": 16384}, \"mte3\": {\"bytes\": 16384}}}\n",
                      NULL, 1, NULL);
    const sl_exec *a = tu_exec(c, 0, NULL), *b = tu_exec(c, 1, NULL);
    ck_assert_uint_eq(a->end - a->start, cycles_ps(17224));
    ck_assert_uint_eq(b->end - b->start, cycles_ps(4936));
    tu_chip_free(c);
}
END_TEST

START_TEST(pmu_headers_follow_the_a2a3_rosters)
{
    static const struct {
        int type;
        const char *cols;
    } want[] = {
        {1, "cube_fp16_exec,cube_int8_exec,vec_fp32_exec,vec_fp16_128lane_exec,vec_fp16_64lane_exec,vec_"
            "int32_exec,"
            "vec_misc_exec"},
        {2, "vec_busy_cycles,cube_busy_cycles,scalar_busy_cycles,mte1_busy_cycles,mte2_busy_cycles,mte3_busy_"
            "cycles,"
            "icache_miss,icache_req"},
        {4, "ub_read_req,ub_write_req,l1_read_req,l1_write_req,l2_read_req,l2_write_req,main_read_req,main_"
            "write_req"},
        {5, "l0a_read_req,l0a_write_req,l0b_read_req,l0b_write_req,l0c_read_req,l0c_write_req"},
        {6, "bankgroup_stall_cycles,bank_stall_cycles,vec_resc_conflict_cycles"},
        {7,
         "ub_read_bw_mte,l2_write_bw,main_mem_write_bw,ub_write_bw_mte,ub_read_bw_vector,ub_write_bw_vector,"
         "ub_read_bw_scalar,ub_write_bw_scalar"},
        {8, "write_cache_hit,write_cache_miss_allocate,r0_read_cache_hit,r0_read_cache_miss_allocate,"
            "r1_read_cache_hit,r1_read_cache_miss_allocate"},
    };
    for (size_t i = 0; i < sizeof(want) / sizeof(*want); i++) {
        char *buf = NULL;
        size_t n = 0;
        FILE *f = open_memstream(&buf, &n);
        pmu_write_header(f, want[i].type);
        fclose(f);
        char expect[1024];
        snprintf(expect, sizeof(expect),
                 "thread_id,core_id,task_id,func_id,core_type,pmu_total_cycles,%s,event_type\n",
                 want[i].cols);
        ck_assert_str_eq(buf, expect);
        free(buf);
    }
    ck_assert_int_eq(pmu_ncolumns(3), 0); /* there is no group 3 */
}
END_TEST

START_TEST(counters_derive_from_the_pipe_model)
{
    chip *c = tu_chip(PP_GRAPH, NULL, 0, NULL);
    uint32_t ix = c->kernel_pipe[0];
    ck_assert_uint_ne(ix, 0);
    pmu_exec e = {.core_type = 1,
                  .total_cycles = 17224,
                  .pk = pipe_table_kernel(&c->pipes, ix),
                  .pr = pipe_table_result(&c->pipes, ix),
                  .stretch = 1.0};
    uint32_t v[PMU_SLOTS];
    pmu_counters(2, &e, 32, v);
    ck_assert_uint_eq(v[0], 16 * 128);  /* vec_busy_cycles */
    ck_assert_uint_eq(v[2], 16 * 200);  /* scalar */
    ck_assert_uint_eq(v[4], 16 * 1024); /* mte2 */
    ck_assert_uint_eq(v[5], 16 * 512);  /* mte3 */
    ck_assert_uint_eq(v[1] + v[3] + v[6] + v[7], 0);
    pmu_counters(4, &e, 32, v);
    ck_assert_uint_eq(v[6], 16 * 32768 / 32); /* main_read_req: bytes / 32 */
    ck_assert_uint_eq(v[7], 16 * 16384 / 32); /* main_write_req */
    pmu_counters(1, &e, 32, v);
    ck_assert_uint_eq(v[3], 16 * 128); /* fp16 vector work */
    /* under HBM contention the GM pipes stay busy longer, never past the window */
    e.stretch = 2.0;
    e.total_cycles = 2 * 17224;
    pmu_counters(2, &e, 32, v);
    ck_assert_uint_eq(v[4], 2 * 16 * 1024);
    ck_assert_uint_eq(v[0], 16 * 128);
    e.stretch = 3.0;
    pmu_counters(2, &e, 32, v);
    ck_assert_uint_eq(v[4], 2 * 17224);
    /* a flat cost: zeros */
    e.pk = NULL, e.pr = NULL;
    pmu_counters(2, &e, 32, v);
    ck_assert_uint_eq(v[4], 0);
    tu_chip_free(c);
}
END_TEST

/* Runs PP_GRAPH with --enable-pmu=type into a fresh directory; returns pmu.csv's text (NULL if absent). */
static char *pmu_csv(const char *graph_text, const char *type, run_out *r)
{
    const char *dir = tu_tmpdir();
    char *g = tu_write(dir, "pp.jsonl", graph_text);
    char flag[64];
    snprintf(flag, sizeof(flag), "--enable-pmu=%s", type);
    const char *args[] = {"run", g, "-o", dir, flag, "--quiet", NULL};
    *r = tu_run(args);
    free(g);
    char path[4200];
    snprintf(path, sizeof(path), "%s/dfx_outputs/pmu.csv", dir);
    return tu_exists(path) ? tu_read(path) : NULL;
}

START_TEST(pmu_csv_has_one_row_per_execution_for_every_group)
{
    static const char *const types[] = {"1", "2", "4", "5", "6", "7", "8"};
    for (size_t i = 0; i < sizeof(types) / sizeof(*types); i++) {
        run_out r;
        char *csv = pmu_csv(PP_GRAPH, types[i], &r);
        ck_assert_msg(r.status == 0, "%s", r.err);
        ck_assert_ptr_nonnull(csv);
        /* a header and 6 rows: 4 blocks of stream, 2 of mm */
        int lines = 0, cols_header = 0;
        for (char *p = csv; *p; p++)
            lines += *p == '\n';
        ck_assert_int_eq(lines, 7);
        static const char lead[] = "thread_id,core_id,task_id,func_id,core_type,pmu_total_cycles,";
        ck_assert(strncmp(csv, lead, strlen(lead)) == 0);
        for (char *p = csv; *p != '\n'; p++)
            cols_header += *p == ',';
        ck_assert_int_eq(cols_header, 6 + pmu_ncolumns(atoi(types[i])));
        /* every row ends with the event type; task ids are 0x + 16 hex digits */
        char suffix[8];
        snprintf(suffix, sizeof(suffix), ",%s\n", types[i]);
        ck_assert_ptr_nonnull(strstr(csv, suffix));
        ck_assert_ptr_nonnull(strstr(csv, ",0x0000000000000001,1,0,"));
        free(csv);
        tu_run_free(&r);
    }
}
END_TEST

START_TEST(pmu_csv_and_summary_name_mte2_and_cube_bound_kernels)
{
    run_out r;
    char *csv = pmu_csv(PP_GRAPH, "2", &r);
    /* stream (AIV, func 0): 17224 cycles, vec 2048, cube 0, scalar 3200, mte1 0, mte2 16384, mte3 8192 */
    ck_assert_ptr_nonnull(strstr(csv, ",0x0000000000000000,0,1,17224,2048,0,3200,0,16384,8192,0,0,2\n"));
    /* mm (AIC, func 1): 36168 cycles, cube 32768, scalar 1600, mte1 1024, mte2 16384 */
    ck_assert_ptr_nonnull(strstr(csv, ",0x0000000000000001,1,0,36168,0,32768,1600,1024,16384,0,0,0,2\n"));
    free(csv);
    tu_run_free(&r);
    /* the summary names the bottleneck: mm has the most core time, its cube is busy 32768/36168 */
    const char *dir = tu_tmpdir();
    char *g = tu_write(dir, "pp.jsonl", PP_GRAPH);
    const char *args[] = {"run", g, NULL};
    r = tu_run(args);
    ck_assert_msg(
        strstr(r.out,
               "  bottleneck: cube pipe, busy 90.6% of the 40.187 us that mm (most time on cores) ran\n") !=
            NULL,
        "%s", r.out);
    tu_run_free(&r);
    free(g);
    /* an MTE2-bound run alone */
    g = tu_write(dir, "s.jsonl",
                 PP_HEADER "{\"op\": \"submit\", \"kernel\": \"stream\", \"block_num\": 4}\n");
    const char *args2[] = {"run", g, NULL};
    r = tu_run(args2);
    ck_assert_msg(strstr(r.out, "  bottleneck: mte2 pipe, busy 95.1% of") != NULL, "%s", r.out);
    tu_run_free(&r);
    free(g);
}
END_TEST

START_TEST(no_pmu_csv_without_executions)
{
    run_out r;
    char *csv =
        pmu_csv("{\"ptosim_graph\": 1, \"name\": \"d\", \"kernels\": []}\n{\"op\": \"dummy\"}\n", "2", &r);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_ptr_null(csv);
    tu_run_free(&r);
}
END_TEST

Suite *suite_pmu(void)
{
    Suite *s = suite_create("pmu");
    TCase *tc = tcase_create("pipes and counters");
    tcase_add_test(tc, pipe_model_kernels_run_for_their_pipeline_time);
    tcase_add_test(tc, flat_costs_have_no_pipe_figures);
    tcase_add_test(tc, a_task_override_with_pipes_changes_only_that_task);
    tcase_add_test(tc, pmu_headers_follow_the_a2a3_rosters);
    tcase_add_test(tc, counters_derive_from_the_pipe_model);
    tcase_add_test(tc, pmu_csv_has_one_row_per_execution_for_every_group);
    tcase_add_test(tc, pmu_csv_and_summary_name_mte2_and_cube_bound_kernels);
    tcase_add_test(tc, no_pmu_csv_without_executions);
    suite_add_tcase(s, tc);
    return s;
}
