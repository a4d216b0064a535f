/* test_roofline.c - each kernel against the die's roofline: hand-worked figures, ptosim_run.json, the page.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/engine/chip_engine.h"
#include "../model/output/roofline.h"
#include "testutil.h"

#define REL 1e-9

static void near_rel(double got, double want, double rel, const char *what)
{
    ck_assert_msg(fabs(got - want) <= rel * fabs(want), "%s: got %.12g, want %.12g", what, got, want);
}

static void near(double got, double want, const char *what)
{
    near_rel(got, want, REL, what);
}

/* A figure of a time the model keeps in whole picoseconds: 9728 cycles at 1.8 GHz are 5,404,444.4 ps. */
#define PS_REL 2e-7

/* mm: an AIC pipe-form kernel; flat: a cycles cost; vec32: an FLOAT32 vector kernel; ps: a Perf-Sim
 * profile. One task each, independent. */
#define HEADER(MMNAME)                                                                                       \
    "{\"ptosim_graph\": 1, \"name\": \"roof\", \"kernels\": ["                                               \
    "{\"id\": 0, \"name\": \"" MMNAME "\", \"core\": \"aic\", \"cost\": {\"tiles\": 4, \"buffers\": 2, "     \
    "\"scalar\": 0, \"mte2\": {\"bytes\": 65536}, \"cube\": {\"m\": 128, \"n\": 128, \"k\": 128, "           \
    "\"dtype\": "                                                                                            \
    "\"FLOAT16\"}, \"fixpipe\": {\"bytes\": 32768}}},"                                                       \
    "{\"id\": 1, \"name\": \"flat\", \"core\": \"aiv\", \"cost\": {\"cycles\": 18000}},"                     \
    "{\"id\": 2, \"name\": \"vec32\", \"core\": \"aiv\", \"cost\": {\"tiles\": 2, \"scalar\": 0, \"mte2\": " \
    "{\"bytes\": 32768}, \"vector\": {\"elems\": 8192, \"dtype\": \"FLOAT32\"}, \"mte3\": {\"bytes\": "      \
    "32768}}},"                                                                                              \
    "{\"id\": 3, \"name\": \"ps\", \"core\": \"aic\", \"cost\": {\"perf_sim\": {\"ghz\": 1.85, \"cycles\": " \
    "19696, \"busy\": {\"scalar\": 20, \"mte2\": 6688, \"mte1\": 1544, \"cube\": 8216, \"fixpipe\": 3228}, " \
    "\"gm_bytes\": {\"mte2\": 131072, \"fixpipe\": 65536}}}}]}\n"
#define SUBMITS                                                                                              \
    "{\"op\": \"submit\", \"kernel\": 0}\n{\"op\": \"submit\", \"kernel\": 1}\n"                             \
    "{\"op\": \"submit\", \"kernel\": 2}\n{\"op\": \"submit\", \"kernel\": 3}\n"

static const char GRAPH[] = HEADER("mm") SUBMITS;

START_TEST(ceilings_come_from_the_platform_figures)
{
    /* a2a3: 24 clusters, 1.8 GHz, a 16 x 16 x 16 fp16 cube step (2 x 4096 FLOP a cycle), 128 fp16 lanes,
     * 1.6 TB/s of HBM */
    chip *c = tu_chip(GRAPH, NULL, 0, NULL);
    roof_ceilings ce;
    roof_ceilings_of(&c->plat, &ce);
    ck_assert_int_eq(ce.aic_cores, 24);
    ck_assert_int_eq(ce.aiv_cores, 48);
    near(ce.cube_peak, 24 * 8192 * 1.8e9, "cube peak");    /* 353.8944 TFLOP/s */
    near(ce.vector_peak, 48 * 128 * 1.8e9, "vector peak"); /* 11.0592 Top/s */
    near(ce.hbm_bw, 1.6e12, "hbm");
    near(ce.cube_peak / ce.hbm_bw, 221.184, "cube ridge");
    near(ce.vector_peak / ce.hbm_bw, 6.912, "vector ridge");
    tu_chip_free(c);
}
END_TEST

START_TEST(a_pipe_kernel_stands_where_its_numbers_put_it)
{
    chip *c = tu_chip(GRAPH, NULL, 0, NULL);
    ck_assert_int_eq(c->status, CHIP_DONE);
    roof_ceilings ce;
    roof_ceilings_of(&c->plat, &ce);
    roof_kernel k;
    roof_kernel_of(c, &ce, 0, &k);
    ck_assert_int_eq(k.status, ROOF_OK);
    ck_assert(k.aic);
    /* 4 tiles of one 128^3 multiply: 4 x 2 x 128^3 FLOP; GM: 4 x (65536 + 32768) bytes */
    near(k.ops, 16777216.0, "ops");
    near(k.gm_bytes, 393216.0, "gm bytes");
    near(k.intensity, 16777216.0 / 393216.0, "intensity"); /* 42.67 FLOP/B, left of the 221 ridge */
    near(k.peak, 353.8944e12, "peak");
    ck_assert(!k.compute_bound);
    near(k.roof, 16777216.0 / 393216.0 * 1.6e12, "roof"); /* min(peak, AI x bw) = 68.27 TFLOP/s */
    /* per tile: MTE2 65536 / 32 = 2048 cycles, cube 8 x 8 x 8 = 512, FIXPIPE 32768 / 32 = 1024; MTE2 paces
     * the 4 tiles and the last drains through cube and FIXPIPE: 4 x 2048 + 512 + 1024 = 9728 cycles alone on
     * HBM. Achieved on the die: FLOP a cycle x 1.8 GHz x 24 AICs = 74.50 TFLOP/s, 109.1 % of its roof */
    near_rel(k.time_us, 9728 / 1800.0, PS_REL, "time");
    near_rel(k.achieved, 16777216.0 / 9728 * 1.8e9 * 24, PS_REL, "achieved");
    near_rel(k.roof_fraction, (16777216.0 / 9728 * 1.8e9 * 24) / (16777216.0 / 393216.0 * 1.6e12), PS_REL,
             "fraction");
    ck_assert_int_eq(k.busiest, PIPE_MTE2);
    near(k.busiest_fraction, 8192.0 / 9728, "busiest fraction");
    tu_chip_free(c);
}
END_TEST

START_TEST(a_vector_kernel_is_held_to_the_peak_of_its_element_size)
{
    chip *c = tu_chip(GRAPH, NULL, 0, NULL);
    roof_ceilings ce;
    roof_ceilings_of(&c->plat, &ce);
    roof_kernel k;
    roof_kernel_of(c, &ce, 2, &k);
    ck_assert_int_eq(k.status, ROOF_OK);
    near(k.ops, 2 * 8192.0, "ops");
    near(k.gm_bytes, 2 * 65536.0, "gm bytes");
    near(k.intensity, 0.125, "intensity");
    near(k.peak, 48 * (256 / 4) * 1.8e9, "fp32 peak"); /* 64 FLOAT32 lanes: half the fp16 ceiling */
    ck_assert(!k.compute_bound);
    near(k.roof, 0.125 * 1.6e12, "roof");
    tu_chip_free(c);
}
END_TEST

START_TEST(kernels_without_an_operation_count_say_why)
{
    chip *c = tu_chip(GRAPH, NULL, 0, NULL);
    roof_ceilings ce;
    roof_ceilings_of(&c->plat, &ce);
    roof_kernel k;
    roof_kernel_of(c, &ce, 1, &k);
    ck_assert_int_eq(k.status, ROOF_NO_PROFILE);
    ck_assert_str_eq(roof_status_text(k.status, k.aic), "no pipe profile");
    ck_assert_int_eq(k.busiest, -1);
    roof_kernel_of(c, &ce, 3, &k);
    ck_assert_int_eq(k.status, ROOF_MEASURED);
    ck_assert_str_eq(roof_status_text(k.status, k.aic), "Perf-Sim profile: no operation count");
    ck_assert_int_eq(k.busiest, PIPE_CUBE); /* its profile still names the busiest pipe */
    tu_chip_free(c);
}
END_TEST

START_TEST(the_critical_path_is_shared_by_the_kernels_on_it)
{
    /* a (10 us on an AIC) writes c, b (5 us on an AIV) reads it: the path is a then b, their computes 10
     * and 5 us; the span adds the hand-over between them */
    static const char g[] =
        "{\"ptosim_graph\": 1, \"name\": \"cp\", \"kernels\": ["
        "{\"id\": 0, \"name\": \"a\", \"core\": \"aic\", \"cost\": {\"cycles\": 18000}},"
        "{\"id\": 1, \"name\": \"b\", \"core\": \"aiv\", \"cost\": {\"cycles\": 9000}},"
        "{\"id\": 2, \"name\": \"idle\", \"core\": \"aiv\", \"cost\": {\"cycles\": 9000}}]}\n"
        "{\"op\": \"submit\", \"kernel\": \"a\", \"args\": [{\"dir\": \"out\", \"tensor\": \"c\", \"dtype\": "
        "\"FLOAT32\", \"shape\": [16]}]}\n"
        "{\"op\": \"submit\", \"kernel\": \"b\", \"args\": [{\"dir\": \"in\", \"tensor\": \"c\"}]}\n";
    chip *c = tu_chip(g, NULL, 0, NULL);
    ck_assert_int_eq(c->status, CHIP_DONE);
    double *us = malloc(GRAPH_MAX_FUNC_ID * sizeof(*us)), span = 0;
    ck_assert_int_eq(roof_critical_path(c, us, &span), 1);
    ck_assert_double_eq(us[0], 10.0);
    ck_assert_double_eq(us[1], 5.0);
    ck_assert_double_eq(us[2], 0.0);
    ck_assert(span > 15.0 && span < 20.0);
    free(us);
    tu_chip_free(c);
}
END_TEST

/* Runs GRAPH text into a run folder and writes its report page: the folder's path. */
static const char *run_and_report(const char *text)
{
    const char *d = tu_tmpdir();
    char *g = tu_write(d, "g.jsonl", text);
    char out[4096];
    snprintf(out, sizeof(out), "%s/run", d);
    const char *run[] = {"run", g, "-o", out, "--quiet", "--no-host-timing", NULL};
    run_out r = tu_run(run);
    ck_assert_msg(r.status == 0, "run: %s", r.err);
    tu_run_free(&r);
    const char *rep[] = {"report", out, NULL};
    r = tu_run(rep);
    ck_assert_msg(r.status == 0, "report: %s", r.err);
    tu_run_free(&r);
    free(g);
    static char keep[4096];
    snprintf(keep, sizeof(keep), "%s", out);
    return keep;
}

START_TEST(ptosim_run_json_holds_each_kernel_against_the_roof)
{
    const char *dir = run_and_report(GRAPH);
    char path[4200];
    snprintf(path, sizeof(path), "%s/ptosim_run.json", dir);
    cJSON *j = tu_json_file(path);
    const cJSON *ro = cJSON_GetObjectItem(j, "roofline");
    ck_assert(cJSON_IsObject(ro));
    const cJSON *ce = cJSON_GetObjectItem(ro, "ceilings");
    ck_assert_double_eq(cJSON_GetObjectItem(ce, "cube_peak_flop_per_s")->valuedouble, 353894400000000.0);
    ck_assert_double_eq(cJSON_GetObjectItem(ce, "hbm_bytes_per_s")->valuedouble, 1.6e12);
    const cJSON *ks = cJSON_GetObjectItem(ro, "kernels");
    ck_assert_int_eq(cJSON_GetArraySize(ks), 4);
    const cJSON *mm = cJSON_GetArrayItem(ks, 0), *flat = cJSON_GetArrayItem(ks, 1);
    ck_assert_str_eq(cJSON_GetObjectItem(mm, "status")->valuestring, "ok");
    ck_assert_str_eq(cJSON_GetObjectItem(mm, "bound")->valuestring, "memory");
    ck_assert_str_eq(cJSON_GetObjectItem(mm, "ops_unit")->valuestring, "flop");
    near(cJSON_GetObjectItem(mm, "arithmetic_intensity")->valuedouble, 42.6666667, "json intensity");
    ck_assert_str_eq(cJSON_GetObjectItem(flat, "status")->valuestring, "no_pipe_profile");
    ck_assert_str_eq(cJSON_GetObjectItem(flat, "note")->valuestring, "no pipe profile");
    ck_assert(cJSON_IsNull(cJSON_GetObjectItem(flat, "arithmetic_intensity")));
    ck_assert(cJSON_IsNull(cJSON_GetObjectItem(flat, "bound")));
    cJSON_Delete(j);
}
END_TEST

START_TEST(the_report_page_shows_the_roofline_table)
{
    const char *dir = run_and_report(GRAPH);
    char path[4200];
    snprintf(path, sizeof(path), "%s/report.html", dir);
    char *html = tu_read(path);
    ck_assert_ptr_nonnull(html);
    ck_assert_ptr_nonnull(strstr(html, "<section id=\"roofline\">"));
    ck_assert_ptr_nonnull(strstr(html, "<svg id=\"roofline-chart\""));
    /* 42.67 FLOP/B; 74.50 and 68.27 TFLOP/s; 109.1 % of the roof; MTE2 the busiest */
    ck_assert_ptr_nonnull(strstr(html,
                                 "<tr><td class=\"l\">mm</td><td class=\"l\">AIC</td><td>42.7 FLOP/B</td>"
                                 "<td>74.5 TFLOP/s</td><td>68.3 TFLOP/s</td><td class=\"l\">memory</td>"
                                 "<td>109.1%</td><td class=\"l\">mte2</td>"));
    ck_assert_ptr_nonnull(strstr(html,
                                 "<tr><td class=\"l\">flat</td><td class=\"l\">AIV</td><td class=\"l\">no "
                                 "pipe profile</td><td>-</td><td>-</td><td class=\"l\">-</td><td>-</td>"
                                 "<td class=\"l\">-</td>"));
    free(html);
}
END_TEST

START_TEST(a_hostile_kernel_name_is_escaped_on_the_page)
{
    static const char g[] = HEADER("<img src=x onerror='alert(1)'>&amp;") SUBMITS;
    const char *dir = run_and_report(g);
    char path[4200];
    snprintf(path, sizeof(path), "%s/report.html", dir);
    char *html = tu_read(path);
    ck_assert_ptr_nonnull(html);
    char *sec = strstr(html, "<section id=\"roofline\">");
    ck_assert_ptr_nonnull(sec);
    ck_assert_ptr_null(strstr(html, "<img"));
    ck_assert_ptr_nonnull(strstr(sec,
                                 "<tr><td class=\"l\">&lt;img src=x onerror=&#39;alert(1)&#39;&gt;&amp;amp;"
                                 "</td>"));
    /* the chart's point title and label too */
    ck_assert_ptr_nonnull(strstr(sec, "<title>&lt;img src=x onerror=&#39;alert(1)&#39;&gt;&amp;amp;: 42.7 "
                                      "FLOP/B"));
    free(html);
}
END_TEST

Suite *suite_roofline(void)
{
    Suite *s = suite_create("roofline");
    TCase *tc = tcase_create("roofline");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, ceilings_come_from_the_platform_figures);
    tcase_add_test(tc, a_pipe_kernel_stands_where_its_numbers_put_it);
    tcase_add_test(tc, a_vector_kernel_is_held_to_the_peak_of_its_element_size);
    tcase_add_test(tc, kernels_without_an_operation_count_say_why);
    tcase_add_test(tc, the_critical_path_is_shared_by_the_kernels_on_it);
    tcase_add_test(tc, ptosim_run_json_holds_each_kernel_against_the_roof);
    tcase_add_test(tc, the_report_page_shows_the_roofline_table);
    tcase_add_test(tc, a_hostile_kernel_name_is_escaped_on_the_page);
    suite_add_tcase(s, tc);
    return s;
}
