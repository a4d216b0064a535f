/* test_vary.c - the variation model: its draws, the spreads a seeded run shows, same seed same bytes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../model/engine/chip_engine.h"
#include "../model/output/run_report.h"
#include "../model/chip/variation.h"
#include "testutil.h"

/* The spreads are fitted to the switch study's p50 and p90: a lognormal
 * through (p50, p90) has sigma = ln(p90 / p50) / z90, z90 = 1.2815516:
 * record write-back ln(0.66 / 0.50) / z90 = 0.27763 / 1.28155 = 0.2166,
 * setup ln(0.40 / 0.28) / z90 = 0.35667 / 1.28155 = 0.2783. */
START_TEST(spreads_are_lognormals_through_the_published_p50_and_p90)
{
    ck_assert_double_eq_tol(vary_sigma_from_p50_p90(0.50, 0.66), 0.2166, 1e-4);
    ck_assert_double_eq_tol(vary_sigma_from_p50_p90(0.28, 0.40), 0.2783, 1e-4);
    platform p;
    platform_defaults(&p);
    ck_assert_double_eq_tol(p.aicore_record_spread, 0.217, 1e-12);
    ck_assert_double_eq_tol(p.aicore_setup_spread, 0.278, 1e-12);
    ck_assert_double_eq_tol(p.kernel_spread, 0.08, 1e-12);
}
END_TEST

START_TEST(off_or_zero_spread_draws_the_constant)
{
    vary v;
    vary_init(&v, false, 1);
    for (int i = 0; i < 100; i++)
        ck_assert_uint_eq(vary_draw(&v, 290000, 0.3), 290000);
    vary_init(&v, true, 1);
    ck_assert_uint_eq(vary_draw(&v, 290000, 0), 290000);
    ck_assert_uint_eq(vary_draw(&v, 0, 0.3), 0);
}
END_TEST

START_TEST(same_seed_same_draws_other_seed_other_draws)
{
    vary a, b, c;
    vary_init(&a, true, 42);
    vary_init(&b, true, 42);
    vary_init(&c, true, 43);
    int differ = 0;
    for (int i = 0; i < 1000; i++) {
        ps_t x = vary_draw(&a, 1000000, 0.1), y = vary_draw(&b, 1000000, 0.1),
             z = vary_draw(&c, 1000000, 0.1);
        ck_assert_uint_eq(x, y);
        differ += x != z;
    }
    ck_assert_int_gt(differ, 990);
}
END_TEST

/* 200,000 draws of mean 1 us and sigma 0.2: the sample mean stays within
 * 0.5 % of 1 us (the lognormal's sd is 1 us x sqrt(exp(0.04) - 1) = 0.2020 us,
 * so the mean's sd is 0.00045 us), the sd of the logs within 1 % of 0.2, the
 * median near exp(-0.02) = 0.9802 us. */
START_TEST(draws_keep_the_mean_and_have_the_sigma)
{
    enum { N = 200000 };
    vary v;
    vary_init(&v, true, 7);
    double *x = malloc(N * sizeof(*x));
    double sum = 0, sl = 0, sl2 = 0;
    for (int i = 0; i < N; i++) {
        x[i] = (double)vary_draw(&v, PS_PER_US, 0.2) / PS_PER_US;
        sum += x[i];
        sl += log(x[i]);
        sl2 += log(x[i]) * log(x[i]);
    }
    double mean = sum / N, ml = sl / N, sdl = sqrt(sl2 / N - ml * ml);
    ck_assert_double_eq_tol(mean, 1.0, 0.005);
    ck_assert_double_eq_tol(sdl, 0.2, 0.002);
    ck_assert_double_eq_tol(exp(ml), exp(-0.02), 0.002);
    free(x);
}
END_TEST

/* 1440 AIV tasks of 1 ms on 48 cores, swimlane on, seed 5: each core runs
 * 30 back to back, the later 29 of them out of its pending slot, so every
 * execution shows its kernel time (end - start), its setup (start -
 * receive) and, for a pending pickup, the previous task's record write-back
 * (receive - previous end). Each sample's log sd is the parameter's sigma
 * (within sampling error: about sigma / sqrt(2n), under 2 % for 1440 samples) and
 * its mean the constant's. */
static void seeded(chip_config *cfg)
{
    cfg->seeded = true;
    cfg->seed = 5;
}

START_TEST(a_seeded_run_shows_the_spreads_of_the_parameters)
{
    char *text = malloc(1440 * 40 + 512);
    strcpy(text,
           "{\"ptosim_graph\": 1, \"name\": \"fan\", \"kernels\": [{\"id\": 1, \"name\": \"v\", \"core\": "
           "\"aiv\", \"cost\": {\"ns\": 1000000}}]}\n");
    for (int i = 0; i < 1440; i++)
        strcat(text, "{\"op\": \"submit\", \"kernel\": \"v\"}\n");
    chip *c = tu_chip(text, NULL, 4, seeded);
    free(text);
    ck_assert_int_eq(c->status, CHIP_DONE);
    double k[3] = {0}, k2[3] = {0}, m[3] = {0};
    int n[3] = {0};
    for (int core = 0; core < c->ncores; core++) {
        const sl_core_lane *l = &c->sl.per_core[core];
        for (size_t i = 0; i < l->n; i++) {
            const sl_exec *e = &l->v[i];
            double x[3] = {us_from_ps(e->end - e->start), us_from_ps(e->start - e->receive), -1};
            /* pending pickup: read after the record commit (not the core's first record, which is cold) */
            if (i > 1 && e->dispatch < l->v[i - 1].end)
                x[2] = us_from_ps(e->receive - l->v[i - 1].end);
            for (int j = 0; j < 3; j++)
                if (x[j] > 0) {
                    k[j] += log(x[j]);
                    k2[j] += log(x[j]) * log(x[j]);
                    m[j] += x[j];
                    n[j]++;
                }
        }
    }
    static const double sigma[3] = {0.08, 0.278, 0.217}, mean[3] = {1000.0, 0.29, 0.52};
    ck_assert_int_eq(n[0], 1440);
    ck_assert_int_eq(n[1], 1440);
    ck_assert_int_ge(n[2], 1300);
    for (int j = 0; j < 3; j++) {
        double ml = k[j] / n[j], sd = sqrt(k2[j] / n[j] - ml * ml);
        ck_assert_msg(fabs(sd - sigma[j]) < 0.1 * sigma[j], "spread %d: log sd %.4f, expected %.3f", j, sd,
                      sigma[j]);
        ck_assert_msg(fabs(m[j] / n[j] - mean[j]) < 0.03 * mean[j], "spread %d: mean %.4f, expected %.3f", j,
                      m[j] / n[j], mean[j]);
    }
    tu_chip_free(c);
}
END_TEST

static char *file_of(const char *dir, const char *name)
{
    char p[4200];
    snprintf(p, sizeof(p), "%s/%s", dir, name);
    char *t = tu_read(p);
    ck_assert_msg(t != NULL, "%s missing", p);
    return t;
}

static void run_into(const char *dir, const char *seed)
{
    const char *a[] = {
        "run",     TRACE("default.jsonl"), "-o", dir, "--enable-chip-swimlane", "--no-host-timing",
        "--quiet", seed ? "--seed" : NULL, seed, NULL};
    run_out r = tu_run(a);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
}

START_TEST(same_seed_same_bytes_other_seed_other_timeline_no_seed_unchanged)
{
    const char *d1 = tu_tmpdir(), *d2 = tu_tmpdir(), *d3 = tu_tmpdir(), *d0 = tu_tmpdir();
    run_into(d1, "11");
    run_into(d2, "11");
    run_into(d3, "12");
    run_into(d0, NULL);
    static const char *const files[] = {"ptosim_run.json", "dfx_outputs/chip_swimlane_records.json"};
    for (int i = 0; i < 2; i++) {
        char *a = file_of(d1, files[i]), *b = file_of(d2, files[i]), *c = file_of(d3, files[i]);
        ck_assert_msg(strcmp(a, b) == 0, "%s differs between two runs with seed 11", files[i]);
        ck_assert_msg(strcmp(a, c) != 0, "%s is the same with seeds 11 and 12", files[i]);
        free(a);
        free(b);
        free(c);
    }
    /* without --seed the timeline is the deterministic one: the README's 752.468 us, the swimlane as ever */
    char p[4200];
    snprintf(p, sizeof(p), "%s/ptosim_run.json", d0);
    cJSON *r0 = tu_json_file(p);
    ck_assert_double_eq_tol(cJSON_GetObjectItem(r0, "makespan_us")->valuedouble, 752.468, 1e-9);
    ck_assert(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetObjectItem(r0, "config"), "seed")));
    cJSON_Delete(r0);
    snprintf(p, sizeof(p), "%s/ptosim_run.json", d1);
    cJSON *r1 = tu_json_file(p);
    ck_assert_int_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(r1, "config"), "seed")->valueint, 11);
    cJSON_Delete(r1);
}
END_TEST

START_TEST(seed_and_repeat_values_are_checked)
{
    static const struct {
        const char *opt, *val, *want;
    } cases[] = {
        {"--seed", "x", "--seed: 'x' is not an integer in [0, 2^64-1]"},
        {"--seed", "-1", "--seed: '-1' is not an integer in [0, 2^64-1]"},
        {"--repeat", "0", "--repeat: '0' is not an integer in [1, 10000]"},
        {"--repeat", "10001", "--repeat: '10001' is not an integer in [1, 10000]"},
        {"--repeat", "2 --dump-args",
         "--repeat does not combine with --dump-args (the host's dump collector runs once)"},
        {"--repeat", "2 two graphs", "--repeat takes one GRAPH, not programs on one worker"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const char *a[] = {"run", TRACE("chain3.jsonl"), cases[i].opt, cases[i].val, NULL, NULL, NULL, NULL};
        if (strstr(cases[i].val, "--dump-args")) {
            a[3] = "2";
            a[4] = "--dump-args";
            a[5] = "-o";
            a[6] = tu_tmpdir();
        } else if (strstr(cases[i].val, "two graphs")) {
            a[3] = "2";
            a[4] = TRACE("fan200.jsonl");
        }
        run_out r = tu_run(a);
        ck_assert_int_eq(r.status, 2);
        ck_assert_msg(strstr(r.err, cases[i].want) != NULL, "case %zu: %s", i, r.err);
        tu_run_free(&r);
    }
}
END_TEST

/* {3, 1, 2, 6}: mean 3, squared deviations 0 + 4 + 1 + 9 = 14 over n - 1 = 3: sigma sqrt(14/3) =
 * 2.1602; sorted 1 2 3 6, p50 the value of rank ceil(4/2) = 2: 2. {5, 1, 4, 2, 3}: mean 3, sigma
 * sqrt(10/4) = 1.5811, p50 rank 3: 3. Noise: 100 +/- 4 and 103 +/- 4 over 4 runs each differ by 3,
 * inside 2 sqrt(16/4 + 16/4) = 5.657; 100 and 106 differ by 6, outside. */
START_TEST(repeat_statistics_and_noise_by_hand)
{
    report_repeat r;
    double a[4] = {3, 1, 2, 6};
    report_repeat_stats(a, 4, &r);
    ck_assert_double_eq_tol(r.mean, 3, 1e-12);
    ck_assert_double_eq_tol(r.sigma, sqrt(14.0 / 3), 1e-12);
    ck_assert_double_eq_tol(r.min, 1, 1e-12);
    ck_assert_double_eq_tol(r.p50, 2, 1e-12);
    ck_assert_double_eq_tol(r.max, 6, 1e-12);
    double b[5] = {5, 1, 4, 2, 3};
    report_repeat_stats(b, 5, &r);
    ck_assert_double_eq_tol(r.sigma, sqrt(2.5), 1e-12);
    ck_assert_double_eq_tol(r.p50, 3, 1e-12);
    double one[1] = {7};
    report_repeat_stats(one, 1, &r);
    ck_assert_double_eq_tol(r.sigma, 0, 1e-12);
    ck_assert(report_inside_noise(100, 4, 4, 103, 4, 4));
    ck_assert(!report_inside_noise(100, 4, 4, 106, 4, 4));
}
END_TEST

static double makespan_of(const char *dir)
{
    char p[4200];
    snprintf(p, sizeof(p), "%s/ptosim_run.json", dir);
    cJSON *j = tu_json_file(p);
    double m = cJSON_GetObjectItem(j, "makespan_us")->valuedouble;
    cJSON_Delete(j);
    return m;
}

/* --repeat 3 --seed 5 runs seeds 5, 6 and 7: its statistics are those of three separate seeded runs, and
 * its files are the seed-5 run's. */
START_TEST(repeat_reports_the_makespans_of_its_seeds)
{
    double m[3];
    for (int i = 0; i < 3; i++) {
        const char *d = tu_tmpdir();
        char seed[16];
        snprintf(seed, sizeof(seed), "%d", 5 + i);
        const char *a[] = {"run", TRACE("default.jsonl"), "-o", d, "--seed", seed, "--quiet", NULL};
        run_out r = tu_run(a);
        ck_assert_msg(r.status == 0, "%s", r.err);
        tu_run_free(&r);
        m[i] = makespan_of(d);
    }
    const char *d = tu_tmpdir();
    const char *a[] = {"run", TRACE("default.jsonl"), "-o", d, "--seed", "5", "--repeat", "3", NULL};
    run_out r = tu_run(a);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_double_eq_tol(makespan_of(d), m[0], 1e-9);
    char p[4200];
    snprintf(p, sizeof(p), "%s/ptosim_run.json", d);
    cJSON *j = tu_json_file(p);
    const cJSON *rp = cJSON_GetObjectItem(j, "repeat"), *ms = cJSON_GetObjectItem(rp, "makespan_us");
    ck_assert_int_eq(cJSON_GetObjectItem(rp, "runs")->valueint, 3);
    ck_assert_int_eq(cJSON_GetArrayItem(cJSON_GetObjectItem(rp, "seeds"), 0)->valueint, 5);
    ck_assert_int_eq(cJSON_GetArrayItem(cJSON_GetObjectItem(rp, "seeds"), 1)->valueint, 7);
    double mean = (m[0] + m[1] + m[2]) / 3, ss = 0, lo = m[0], hi = m[0];
    for (int i = 0; i < 3; i++) {
        ss += (m[i] - mean) * (m[i] - mean);
        lo = m[i] < lo ? m[i] : lo;
        hi = m[i] > hi ? m[i] : hi;
    }
    double mid = m[0] + m[1] + m[2] - lo - hi;
    ck_assert_double_eq_tol(cJSON_GetObjectItem(ms, "mean")->valuedouble, mean, 1e-5);
    ck_assert_double_eq_tol(cJSON_GetObjectItem(ms, "sigma")->valuedouble, sqrt(ss / 2), 1e-5);
    ck_assert_double_eq_tol(cJSON_GetObjectItem(ms, "min")->valuedouble, lo, 1e-5);
    ck_assert_double_eq_tol(cJSON_GetObjectItem(ms, "p50")->valuedouble, mid, 1e-5);
    ck_assert_double_eq_tol(cJSON_GetObjectItem(ms, "max")->valuedouble, hi, 1e-5);
    ck_assert_msg(strstr(r.out, "makespan over 3 runs (seeds 5-7): mean "), "%s", r.out);
    cJSON_Delete(j);
    tu_run_free(&r);
    /* the CSV row carries the same figures */
    const char *c[] = {"run", TRACE("default.jsonl"), "--seed", "5", "--repeat", "3", "--summary-csv", NULL};
    r = tu_run(c);
    ck_assert_msg(strstr(r.out,
                         ",aicpu_thread_num,repeat_runs,makespan_mean_us,makespan_sigma_us,makespan_min_us,"
                         "makespan_p50_us,makespan_max_us\n"),
                  "%s", r.out);
    char want[128];
    snprintf(want, sizeof(want), ",4,3,%.6f,", mean);
    ck_assert_msg(strstr(r.out, want), "%s lacks %s", r.out, want);
    tu_run_free(&r);
    /* without --seed, --repeat starts at seed 1 */
    const char *e[] = {"run", TRACE("chain3.jsonl"), "--repeat", "2", NULL};
    r = tu_run(e);
    ck_assert_msg(strstr(r.out, "makespan over 2 runs (seeds 1-2)"), "%s", r.out);
    tu_run_free(&r);
}
END_TEST

Suite *suite_vary(void)
{
    Suite *s = suite_create("vary");
    TCase *tc = tcase_create("vary");
    tcase_add_test(tc, spreads_are_lognormals_through_the_published_p50_and_p90);
    tcase_add_test(tc, off_or_zero_spread_draws_the_constant);
    tcase_add_test(tc, same_seed_same_draws_other_seed_other_draws);
    tcase_add_test(tc, draws_keep_the_mean_and_have_the_sigma);
    tcase_add_test(tc, a_seeded_run_shows_the_spreads_of_the_parameters);
    tcase_add_test(tc, same_seed_same_bytes_other_seed_other_timeline_no_seed_unchanged);
    tcase_add_test(tc, seed_and_repeat_values_are_checked);
    tcase_add_test(tc, repeat_statistics_and_noise_by_hand);
    tcase_add_test(tc, repeat_reports_the_makespans_of_its_seeds);
    suite_add_tcase(s, tc);
    return s;
}
