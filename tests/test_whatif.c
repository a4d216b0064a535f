/* test_whatif.c - --kernel-scale worked by hand in every cost form, its errors and sweep list; ptosim whatif. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../model/chip/pipe.h"
#include "../model/engine/chip_engine.h"
#include "testutil.h"

#define NS(x) ((ps_t)(x)*PS_PER_NS)
#define CHAIN3 TRACE("chain3.jsonl")

/* ---- the model: each cost form scaled where it becomes a duration ---- */

/* Two AIV kernels with the same cost (a:0 scaled, b:1 not), one task each, and a task of a with its own
 * cost; COST is the kernels' cost, OVR the override's. */
static char *two_kernels(const char *cost, const char *ovr)
{
    static char text[2048];
    snprintf(text, sizeof(text),
             "{\"ptosim_graph\": 1, \"name\": \"two\", \"kernels\": [{\"id\": 0, \"name\": \"a\", \"core\": \"aiv\", "
             "\"cost\": %s}, {\"id\": 1, \"name\": \"b\", \"core\": \"aiv\", \"cost\": %s}]}\n"
             "{\"op\": \"submit\", \"kernel\": \"a\"}\n"
             "{\"op\": \"submit\", \"kernel\": \"b\"}\n"
             "{\"op\": \"submit\", \"kernel\": \"a\", \"cost\": %s}\n",
             cost, cost, ovr);
    return text;
}

static void half_a(chip_config *cfg)
{
    cfg->kernel_scale[0] = 500000; /* a at 0.5 */
    cfg->kernel_scales = true;
}

/* The kernel window (end - start) of task id. */
static ps_t window(const chip *c, uint64_t id)
{
    int core;
    const sl_exec *e = tu_exec(c, id, &core);
    return e->end - e->start;
}

START_TEST(kernel_scale_halves_ns_and_cycles_costs_and_a_tasks_own)
{
    /* ns: 1001 ns = 1001000 ps, x 0.5 = 500500 ps; b keeps 1001 ns. The override of a's third task:
     * 9000 cycles at 1.8 GHz = 5000 ns, x 0.5 = 2500 ns. */
    chip *c = tu_chip(two_kernels("{\"ns\": 1001}", "{\"cycles\": 9000}"), NULL, 1, half_a);
    ck_assert_int_eq(c->status, CHIP_DONE);
    ck_assert_uint_eq(window(c, 0), 500500);
    ck_assert_uint_eq(window(c, 1), NS(1001));
    ck_assert_uint_eq(window(c, 2), NS(2500));
    tu_chip_free(c);
    /* cycles: 18001 at 1.8 GHz = 10000.555... ns -> 10000556 ps (nearest), x 0.5 = 5000278 ps */
    c = tu_chip(two_kernels("{\"cycles\": 18001}", "{\"ns\": 7}"), NULL, 1, half_a);
    ck_assert_int_eq(c->status, CHIP_DONE);
    ck_assert_uint_eq(window(c, 0), 5000278);
    ck_assert_uint_eq(window(c, 1), 10000556);
    ck_assert_uint_eq(window(c, 2), 3500); /* 7 ns x 0.5 */
    tu_chip_free(c);
}
END_TEST

START_TEST(kernel_scale_scales_a_pipe_form_and_every_pipe_busy_time)
{
    /* one tile, no scalar, 3600 vector cycles: 3600 cycles = 2000 ns; x 0.5: 1000 ns and 1800 busy vector
     * cycles. b has the very same pipe form and keeps 2000 ns and 3600 busy cycles: the scaled copy does not
     * take its place. */
    const char *pipe = "{\"tiles\": 1, \"scalar\": 0, \"vector\": {\"cycles\": 3600}}";
    chip *c = tu_chip(two_kernels(pipe, pipe), NULL, 1, half_a);
    ck_assert_int_eq(c->status, CHIP_DONE);
    ck_assert_uint_eq(window(c, 0), NS(1000));
    ck_assert_uint_eq(window(c, 1), NS(2000));
    ck_assert_uint_eq(window(c, 2), NS(1000));
    ck_assert_uint_eq((uint64_t)c->kstats[0].busy_cycles[PIPE_VECTOR], 2 * 1800);
    ck_assert_uint_eq((uint64_t)c->kstats[1].busy_cycles[PIPE_VECTOR], 3600);
    tu_chip_free(c);
    /* a Perf-Sim profile: 431 cycles at 1.85 GHz are 419 at 1.8 GHz (431 x 1.8 / 1.85 = 419.35), 232778 ps
     * (419 / 1.8 GHz = 232777.8); x 0.5 = 116389 ps */
    const char *ps = "{\"perf_sim\": {\"ghz\": 1.85, \"cycles\": 431}}";
    c = tu_chip(two_kernels(ps, ps), NULL, 1, half_a);
    ck_assert_int_eq(c->status, CHIP_DONE);
    ck_assert_uint_eq(window(c, 0), 116389);
    ck_assert_uint_eq(window(c, 1), 232778);
    tu_chip_free(c);
}
END_TEST

START_TEST(a_scaled_copy_never_takes_its_kernels_place_when_the_table_grows)
{
    pipe_rates r = {.gm_bytes_per_cycle = 32, .mte1_bytes_per_cycle = 512, .vec_bytes_per_cycle = 256,
                    .cube_m = 16, .cube_n = 16, .cube_k_bytes = 32, .scalar_cycles_per_tile = 0,
                    .clock_hz = 1800000000};
    pipe_table t;
    ck_assert_int_eq(pipe_table_init(&t, &r), 0);
    pipe_kernel k;
    memset(&k, 0, sizeof(k));
    k.tiles = 1;
    k.buffers = 1;
    k.scalar_given = true;
    k.work.cycles[PIPE_VECTOR] = 1000;
    uint32_t ix = pipe_table_get(&t, &k);
    uint32_t sx = pipe_table_scaled(&t, ix, 250000);
    ck_assert_uint_ne(sx, ix);
    ck_assert_uint_eq(pipe_table_scaled(&t, ix, 250000), sx); /* made once */
    ck_assert_uint_eq(pipe_table_result(&t, sx)->total_cycles, 250);
    ck_assert_uint_eq(pipe_table_result(&t, sx)->busy_cycles[PIPE_VECTOR], 250);
    /* 100 more kernels: the hash is rebuilt past 32 entries; the kernel is still found at its own index */
    for (int i = 1; i <= 100; i++) {
        k.work.cycles[PIPE_VECTOR] = 1000 + (uint64_t)i;
        ck_assert_uint_ne(pipe_table_get(&t, &k), 0);
    }
    k.work.cycles[PIPE_VECTOR] = 1000;
    ck_assert_uint_eq(pipe_table_get(&t, &k), ix);
    ck_assert_uint_eq(pipe_table_result(&t, ix)->total_cycles, 1000);
    ck_assert_uint_eq(pipe_scale(3, 500000), 2);  /* 1.5: halves go up */
    ck_assert_uint_eq(pipe_scale(10, 333333), 3); /* 3.33333 */
    pipe_table_free(&t);
}
END_TEST

/* ---- ptosim run --kernel-scale ---- */

/*
 * chain3 with vadd at 0.5, from test_chip.c's hand timeline (a2a3 defaults, ns): the kernel is 18000 cycles
 * = 10000 ns, now 5000. A scheduler's COND load samples the register when issued and returns 100 ns later:
 * a FIN is seen by the first poll issued at or after it is readable (end + 80).
 * a: start 1560, end 6560, FIN readable 6640. Thread 0 polls from 1135 every 215: the first poll issued at
 * or after 6640 is 1135 + 26 x 215 = 6725, ending 6825 = a's finish; b ready 6825 + 40 + 502 = 7367.
 * b: store 7367 + 210 = 7577, start 7577 + 430 = 8007, end 13007, FIN 13087. Next iteration 7582: poll to
 * 7682, a's release and the idle overhead (40 + 115) to 7837, then polls issued 7837 + k x 215: k = 25
 * (13212) is the first at or after 13087, ending 13312 = b's finish; c ready 13312 + 542 = 13854.
 * c: store 14064, start 14494, end 19494, FIN 19574. Iteration 14069, poll to 14169, + 155 = 14324; polls
 * issued 14324 + 25 x 215 = 19699 (>= 19574), ending 19799 = c's finish; + 40 + 410 = 20249 = makespan.
 */
START_TEST(run_kernel_scale_on_chain3_matches_the_hand_computation)
{
    const char *args[] = {"run", CHAIN3, "--kernel-scale", "vadd=0.5", NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "makespan 20.249 us\n") != NULL, "%s", r.out);
    ck_assert_msg(strstr(r.out, "\n  kernel time scaled (--kernel-scale): vadd x0.5\n") != NULL, "%s", r.out);
    tu_run_free(&r);
    /* the last one of a kernel wins; 1 is the graph's own time */
    const char *again[] = {"run", CHAIN3, "--kernel-scale", "vadd=0.5", "--kernel-scale", "vadd=1", NULL};
    r = tu_run(again);
    ck_assert_msg(strstr(r.out, "makespan 35.084 us\n") != NULL, "%s", r.out);
    tu_run_free(&r);
}
END_TEST

START_TEST(run_json_config_names_the_scale_only_when_given)
{
    const char *dir = tu_tmpdir();
    char a[4096], b[4096];
    snprintf(a, sizeof(a), "%s/a", dir);
    snprintf(b, sizeof(b), "%s/b", dir);
    const char *with[] = {"run", CHAIN3, "--kernel-scale", "vadd=0.75", "-o", a, "--quiet", NULL};
    const char *without[] = {"run", CHAIN3, "-o", b, "--quiet", NULL};
    run_out r = tu_run(with);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    r = tu_run(without);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char p[4200];
    snprintf(p, sizeof(p), "%s/ptosim_run.json", a);
    cJSON *j = tu_json_file(p);
    cJSON *ks = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "config"), "kernel_scale");
    ck_assert_ptr_nonnull(ks);
    ck_assert_double_eq(cJSON_GetObjectItem(ks, "vadd")->valuedouble, 0.75);
    cJSON_Delete(j);
    snprintf(p, sizeof(p), "%s/ptosim_run.json", b);
    j = tu_json_file(p);
    ck_assert_ptr_null(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "config"), "kernel_scale"));
    cJSON_Delete(j);
}
END_TEST

/* ptosim run chain3 --kernel-scale TEXT: exit 2 and stderr's first line. */
static void expect_refused(const char *text, const char *want)
{
    const char *args[] = {"run", CHAIN3, "--kernel-scale", text, NULL};
    run_out r = tu_run(args);
    ck_assert_int_eq(r.status, 2);
    size_t n = strcspn(r.err, "\n");
    ck_assert_msg(strlen(want) == n && strncmp(r.err, want, n) == 0, "want\n%s\ngot\n%s", want, r.err);
    ck_assert_str_eq(r.out, "");
    tu_run_free(&r);
}

START_TEST(kernel_scale_errors_say_what_is_wrong)
{
    expect_refused("vad=0.5", "ptosim: --kernel-scale vad=0.5: graph chain3 (" CHAIN3
                              ") has no kernel 'vad' (its kernels: vadd); did you mean vadd?");
    expect_refused("softmax=0.5",
                   "ptosim: --kernel-scale softmax=0.5: graph chain3 (" CHAIN3 ") has no kernel 'softmax' (its "
                   "kernels: vadd)");
    expect_refused("vadd", "ptosim: --kernel-scale vadd: expected NAME=F (a kernel's name and the factor on its "
                           "execution time: 0.9 = 10% faster)");
    expect_refused("vadd=0", "ptosim: --kernel-scale vadd=0: F must be above 0 (the factor on the kernel's time), "
                             "got '0'");
    expect_refused("vadd=-0.5", "ptosim: --kernel-scale vadd=-0.5: F must be above 0 (the factor on the kernel's "
                                "time), got '-0.5'");
    expect_refused("vadd=fast", "ptosim: --kernel-scale vadd=fast: F is a decimal number such as 0.9 or 1.5, got "
                                "'fast'");
    expect_refused("vadd=1e3", "ptosim: --kernel-scale vadd=1e3: F is a decimal number such as 0.9 or 1.5, got "
                               "'1e3'");
    expect_refused("vadd=1000.5", "ptosim: --kernel-scale vadd=1000.5: F must be at most 1000, got '1000.5'");
    expect_refused("vadd=0.1234567", "ptosim: --kernel-scale vadd=0.1234567: F has at most 6 decimals, got "
                                     "'0.1234567'");
}
END_TEST

START_TEST(sweep_takes_a_kernel_scale_list)
{
    const char *dir = tu_tmpdir();
    char out[4096], p[4200];
    snprintf(out, sizeof(out), "%s/sw", dir);
    const char *args[] = {"sweep", CHAIN3, "--kernel-scale", "vadd=1,0.5", "-o", out, "-j", "1", NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    snprintf(p, sizeof(p), "%s/points.csv", out);
    char *pts = tu_read(p);
    ck_assert_str_eq(pts, "point,dir,ring_task_window,ring_heap,ring_dep_pool,aicpu_thread_num,vadd.scale\n"
                          "0,points/0000,,,,,1\n"
                          "1,points/0001,,,,,0.5\n");
    free(pts);
    snprintf(p, sizeof(p), "%s/sweep.csv", out);
    char *csv = tu_read(p);
    ck_assert_msg(strstr(csv, ",vadd.scale\n") != NULL, "%s", csv);
    ck_assert_msg(strstr(csv, ",35.084000,") != NULL && strstr(csv, ",20.249000,") != NULL, "%s", csv);
    free(csv);
    const char *best[] = {"sweep", "--best", out, NULL};
    r = tu_run(best);
    ck_assert_msg(strstr(r.out, "\n--kernel-scale vadd=0.5\n") != NULL, "%s", r.out);
    tu_run_free(&r);
    snprintf(out, sizeof(out), "%s/sw2", dir);
    const char *bad[] = {"sweep", CHAIN3, "--kernel-scale", "vad=1,0.5", "-o", out, NULL};
    r = tu_run(bad);
    ck_assert_int_eq(r.status, 2);
    const char *want = "ptosim sweep: --kernel-scale vad=1: graph chain3 (" CHAIN3
                       ") has no kernel 'vad' (its kernels: vadd); did you mean vadd?\n";
    ck_assert_msg(strncmp(r.err, want, strlen(want)) == 0, "%s", r.err);
    tu_run_free(&r);
}
END_TEST

/* ---- ptosim whatif ---- */

/* The makespan text of a `ptosim run` summary ("35.084"), into out. */
static void run_makespan(const char *const *args, char *out, size_t len)
{
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    const char *m = strstr(r.out, ", makespan ");
    ck_assert_ptr_nonnull(m);
    m += strlen(", makespan ");
    size_t k = strcspn(m, " ");
    ck_assert_uint_lt(k, len);
    memcpy(out, m, k);
    out[k] = '\0';
    tu_run_free(&r);
}

START_TEST(every_whatif_figure_is_the_makespan_of_a_run_with_its_flags)
{
    /* default.jsonl at 3 threads: the thread lever too */
    const char *args[] = {"whatif", TRACE("default.jsonl"), "--aicpu-thread-num", "3", "-j", "2", NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    char base[64];
    const char *bargs[] = {"run", TRACE("default.jsonl"), "--aicpu-thread-num", "3", NULL};
    run_makespan(bargs, base, sizeof(base));
    char head[256];
    snprintf(head, sizeof(head), "ptosim whatif: default on a2a3: baseline makespan %s us", base);
    ck_assert_msg(strncmp(r.out, head, strlen(head)) == 0, "%s", r.out);
    ck_assert_msg(strstr(r.out, ", 19 levers\n") != NULL, "%s", r.out);
    ck_assert_msg(strstr(r.out, "one more AICPU thread (3 -> 4)") != NULL, "%s", r.out);
    /* each row: makespan, gain, %, lever..., then its flags from "--" to the end */
    int rows = 0;
    double last = 0;
    char *cols = strstr(r.out, "\n makespan us ");
    ck_assert_ptr_nonnull(cols);
    for (char *line = strchr(cols + 1, '\n') + 1; *line && strncmp(line, "each row", 8) != 0;
         line = strchr(line, '\n') + 1) {
        char *nl = strchr(line, '\n');
        *nl = '\0';
        char ms[64];
        ck_assert_int_eq(sscanf(line, "%63s", ms), 1);
        const char *flags = strstr(line, "  --");
        ck_assert_msg(flags != NULL, "%s", line);
        const char *av[16] = {"run", TRACE("default.jsonl"), "--aicpu-thread-num", "3"};
        int n = 4;
        char buf[512];
        snprintf(buf, sizeof(buf), "%s", flags + 2);
        for (char *w = strtok(buf, " "); w && n < 15; w = strtok(NULL, " "))
            av[n++] = w;
        av[n] = NULL;
        char want[64];
        run_makespan(av, want, sizeof(want));
        ck_assert_msg(strcmp(ms, want) == 0, "row '%s': ptosim run says %s", line, want);
        ck_assert(strtod(ms, NULL) >= last); /* sorted by makespan */
        last = strtod(ms, NULL);
        *nl = '\n';
        rows++;
    }
    ck_assert_int_eq(rows, 19);
    tu_run_free(&r);
}
END_TEST

START_TEST(whatif_json_lists_levers_sorted_by_makespan)
{
    const char *args[] = {"whatif", CHAIN3, "--json", NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    cJSON *j = cJSON_Parse(r.out);
    ck_assert_ptr_nonnull(j);
    ck_assert_double_eq_tol(cJSON_GetObjectItem(j, "baseline_makespan_us")->valuedouble, 35.084, 1e-9);
    cJSON *lv = cJSON_GetObjectItem(j, "levers");
    ck_assert_int_eq(cJSON_GetArraySize(lv), 6); /* vadd x3, three rings; 4 threads already, no --set bound */
    cJSON *first = cJSON_GetArrayItem(lv, 0);
    ck_assert_str_eq(cJSON_GetObjectItem(first, "lever")->valuestring, "vadd 50% faster");
    cJSON *fl = cJSON_GetObjectItem(first, "flags");
    ck_assert_int_eq(cJSON_GetArraySize(fl), 2);
    ck_assert_str_eq(cJSON_GetArrayItem(fl, 0)->valuestring, "--kernel-scale");
    ck_assert_str_eq(cJSON_GetArrayItem(fl, 1)->valuestring, "vadd=0.5");
    ck_assert_double_eq_tol(cJSON_GetObjectItem(first, "makespan_us")->valuedouble, 20.249, 1e-9);
    double last = 0;
    for (int i = 0; i < cJSON_GetArraySize(lv); i++) {
        double ms = cJSON_GetObjectItem(cJSON_GetArrayItem(lv, i), "makespan_us")->valuedouble;
        ck_assert(ms >= last);
        last = ms;
    }
    cJSON_Delete(j);
    ck_assert_msg(strstr(r.out, "\"makespan_us\": 27.989") != NULL, "%s", r.out); /* the run's own text */
    tu_run_free(&r);
    /* a factor the user gave is the baseline's: vadd at 0.5 tried 10% faster is 0.45 */
    const char *scaled[] = {"whatif", CHAIN3, "--kernel-scale", "vadd=0.5", "--top", "1", "--max-levers", "1",
                            "--json", NULL};
    r = tu_run(scaled);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "\"flags\": [\"--kernel-scale\", \"vadd=0.45\"]") != NULL, "%s", r.out);
    ck_assert_str_eq(r.err, "ptosim whatif: 5 levers past --max-levers 1 left out\n");
    tu_run_free(&r);
}
END_TEST

START_TEST(whatif_refuses_outputs_and_bad_counts)
{
    const char *out[] = {"whatif", CHAIN3, "--quiet", NULL};
    run_out r = tu_run(out);
    ck_assert_int_eq(r.status, 2);
    const char *want = "ptosim whatif: takes one GRAPH and none of --perfetto FILE, --quiet, --summary-csv or "
                       "--repeat: whatif reads each run's summary; run ptosim run with a row's flags for those\n";
    ck_assert_msg(strncmp(r.err, want, strlen(want)) == 0, "%s", r.err);
    ck_assert_str_eq(r.out, "");
    tu_run_free(&r);
    const char *no_dir[] = {"whatif", CHAIN3, "--enable-dep-gen", NULL};
    r = tu_run(no_dir);
    ck_assert_int_eq(r.status, 2);
    want = "ptosim whatif: --enable-*, --dump-args and --enable-pmu write into the baseline's run folder: give -o "
           "DIR\n";
    ck_assert_msg(strncmp(r.err, want, strlen(want)) == 0, "%s", r.err);
    ck_assert_str_eq(r.out, "");
    tu_run_free(&r);
    const char *top[] = {"whatif", CHAIN3, "--top", "65", NULL};
    r = tu_run(top);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strncmp(r.err, "ptosim whatif: --top needs an integer in [0, 64]\n", 49) == 0, "%s", r.err);
    tu_run_free(&r);
    const char *kernel[] = {"whatif", CHAIN3, "--kernel-scale", "vad=0.5", NULL};
    r = tu_run(kernel);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "has no kernel 'vad' (its kernels: vadd); did you mean vadd?") != NULL, "%s", r.err);
    ck_assert_str_eq(r.out, "");
    tu_run_free(&r);
}
END_TEST

/* A chain of three 10 us tasks of kernel "chain", then eight independent 5 us tasks of kernel "wide" (all
 * AIV): wide has the most time on cores, 8 x 5 = 40 us against 3 x 10 = 30 us, but the eight run side by side
 * on eight cores and end long before the chain, whose three kernels are the makespan's path: 30.000 us of
 * it. */
static char *chain_and_wide(const char *dir)
{
    char text[4096];
    int u = snprintf(text, sizeof(text),
                     "{\"ptosim_graph\": 1, \"name\": \"chainwide\", \"kernels\": [{\"id\": 0, "
                     "\"name\": \"chain\", \"core\": \"aiv\", \"cost\": {\"ns\": 10000}}, {\"id\": 1, "
                     "\"name\": \"wide\", \"core\": \"aiv\", \"cost\": {\"ns\": 5000}}], \"tensors\": "
                     "[{\"name\": \"x\", \"dtype\": \"FLOAT32\", \"shape\": [16]}]}\n");
    const char *link[4] = {"x", "t0", "t1", "y"};
    for (int i = 0; i < 3; i++)
        u += snprintf(text + u, sizeof(text) - (size_t)u,
                      "{\"op\": \"submit\", \"kernel\": \"chain\", \"args\": [{\"dir\": \"in\", "
                      "\"tensor\": \"%s\"}, {\"dir\": \"out\", \"tensor\": \"%s\", \"dtype\": \"FLOAT32\", "
                      "\"shape\": [16]}]}\n",
                      link[i], link[i + 1]);
    for (int i = 0; i < 8; i++)
        u += snprintf(text + u, sizeof(text) - (size_t)u, "{\"op\": \"submit\", \"kernel\": \"wide\"}\n");
    ck_assert_int_lt(u, (int)sizeof(text));
    return tu_write(dir, "chainwide.jsonl", text);
}

START_TEST(whatif_tries_the_kernels_on_the_critical_path_first)
{
    char *g = chain_and_wide(tu_tmpdir());
    /* --top 1: chain, on the path, not wide, the most time on cores */
    const char *one[] = {"whatif", g, "--top", "1", "--max-levers", "3", "--json", "-j", "2", NULL};
    run_out r = tu_run(one);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "\"flags\": [\"--kernel-scale\", \"chain=0.5\"]") != NULL, "%s", r.out);
    ck_assert_msg(strstr(r.out, "\"flags\": [\"--kernel-scale\", \"chain=0.9\"]") != NULL, "%s", r.out);
    ck_assert_msg(strstr(r.out, "wide=") == NULL, "%s", r.out);
    ck_assert_msg(strstr(r.out, "\"kernel\": \"wide\"") == NULL, "%s", r.out);
    ck_assert_msg(strstr(r.out, "\"kernels\": [{\"kernel\": \"chain\", \"critical_path_us\": 30.000, "
                                "\"core_us\": 30.000}], \"levers\"") != NULL, "%s", r.out);
    tu_run_free(&r);
    /* --top 2: chain for its path, then wide for its time on cores, as the second line says */
    const char *two[] = {"whatif", g, "--top", "2", "-j", "2", NULL};
    r = tu_run(two);
    ck_assert_msg(r.status == 0, "%s", r.err);
    const char *second = strchr(r.out, '\n');
    ck_assert_ptr_nonnull(second);
    const char *want = "\nkernels on the critical path: chain 30.000 us; then the most time on cores: wide "
                       "40.000 us\n makespan us ";
    ck_assert_msg(strncmp(second, want, strlen(want)) == 0, "%s", r.out);
    ck_assert_msg(strstr(r.out, "--kernel-scale wide=0.5\n") != NULL, "%s", r.out);
    tu_run_free(&r);
    /* --top 0: no kernel tried, nothing said of them */
    const char *none[] = {"whatif", g, "--top", "0", "-j", "2", NULL};
    r = tu_run(none);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "kernels on") == NULL, "%s", r.out);
    ck_assert_msg(strstr(r.out, "\n makespan us ") != NULL, "%s", r.out);
    tu_run_free(&r);
    free(g);
    /* one 10 us task (18000 cycles at 1.8 GHz), then 100 us of the orchestrator's own code: the run ends with
     * the orchestrator, no kernel is on the path, and the kernel is tried for its time on cores */
    g = tu_write(tu_tmpdir(), "orch_ends.jsonl",
                 "{\"ptosim_graph\": 1, \"name\": \"orch_ends\", \"kernels\": [{\"id\": 0, "
                 "\"name\": \"vadd\", \"core\": \"aiv\", \"cost\": {\"cycles\": 18000}}]}\n"
                 "{\"op\": \"submit\", \"kernel\": \"vadd\"}\n"
                 "{\"op\": \"user_code\", \"ns\": 100000}\n");
    const char *orch[] = {"whatif", g, "--top", "1", "--max-levers", "1", NULL};
    r = tu_run(orch);
    ck_assert_msg(r.status == 0, "%s", r.err);
    want = "\nkernels on the critical path: none (no kernel holds time on it); the most time on cores: vadd "
           "10.000 us\n";
    ck_assert_msg(strstr(r.out, want) != NULL, "%s", r.out);
    tu_run_free(&r);
    free(g);
}
END_TEST

/* ---- ptosim whatif -o DIR ---- */

START_TEST(whatif_o_writes_the_baselines_run_folder_and_the_json_ranking)
{
    /* DIR holds what `ptosim run -o` of the same graph and options writes, byte for byte (no host timing),
     * and whatif.json is --json's stdout */
    const char *dir = tu_tmpdir();
    char w[4096], b[4096], p[4200], q[4200];
    snprintf(w, sizeof(w), "%s/w", dir);
    snprintf(b, sizeof(b), "%s/b", dir);
    const char *wi[] = {"whatif", CHAIN3, "--top", "1", "--json", "--no-host-timing", "--aicpu-thread-num", "3",
                        "-o", w, "-j", "2", NULL};
    run_out r = tu_run(wi);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_str_eq(r.err, "");
    const char *run[] = {"run", CHAIN3, "--no-host-timing", "--aicpu-thread-num", "3", "-o", b, "--quiet", NULL};
    run_out rb = tu_run(run);
    ck_assert_msg(rb.status == 0, "%s", rb.err);
    tu_run_free(&rb);
    snprintf(p, sizeof(p), "%s/ptosim_run.json", w);
    snprintf(q, sizeof(q), "%s/ptosim_run.json", b);
    char *got = tu_read(p), *want = tu_read(q);
    ck_assert_ptr_nonnull(got);
    ck_assert_ptr_nonnull(want);
    ck_assert_str_eq(got, want);
    ck_assert_msg(strstr(got, "\"makespan_us\": 35.084") != NULL, "%s", got); /* chain3's hand timeline */
    free(got);
    free(want);
    snprintf(p, sizeof(p), "%s/whatif.json", w);
    got = tu_read(p);
    ck_assert_ptr_nonnull(got);
    ck_assert_str_eq(got, r.out);
    free(got);
    tu_run_free(&r);
    snprintf(p, sizeof(p), "%s/.ptosim-run", w); /* the staging folder went with the commit */
    ck_assert(!tu_exists(p));
    /* a later run into the folder takes the ranking of the previous one away */
    const char *again[] = {"run", CHAIN3, "-o", w, "--quiet", NULL};
    r = tu_run(again);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    snprintf(p, sizeof(p), "%s/whatif.json", w);
    ck_assert(!tu_exists(p));
}
END_TEST

START_TEST(whatif_o_with_outputs_runs_every_lever_with_them)
{
    /* --enable-chip-swimlane goes to the levers' runs too, each into a scratch folder: the figures are those
     * of `ptosim run ... -o DIR --enable-chip-swimlane 1 FLAGS`; DIR gets the baseline's swimlane */
    const char *dir = tu_tmpdir();
    char w[4096], b[4096], p[4200];
    snprintf(w, sizeof(w), "%s/w", dir);
    snprintf(b, sizeof(b), "%s/b", dir);
    const char *wi[] = {"whatif", CHAIN3, "--top", "1", "--max-levers", "1", "--json", "-o", w,
                        "--enable-chip-swimlane", "1", NULL};
    run_out r = tu_run(wi);
    ck_assert_msg(r.status == 0, "%s", r.err);
    char ms[64];
    const char *run[] = {"run", CHAIN3, "-o", b, "--enable-chip-swimlane", "1", "--kernel-scale", "vadd=0.9", NULL};
    run_makespan(run, ms, sizeof(ms));
    char row[256];
    snprintf(row, sizeof(row), "\"flags\": [\"--kernel-scale\", \"vadd=0.9\"], \"makespan_us\": %s,", ms);
    ck_assert_msg(strstr(r.out, row) != NULL, "%s", r.out);
    tu_run_free(&r);
    snprintf(p, sizeof(p), "%s/dfx_outputs/chip_swimlane_records.json", w);
    ck_assert(tu_exists(p));
}
END_TEST

START_TEST(whatif_o_replaces_a_linked_whatif_json_and_keeps_its_target)
{
    /* DIR/whatif.json a link to a file of the user's: renamed over, never written through */
    const char *dir = tu_tmpdir();
    char w[4096], p[4200];
    snprintf(w, sizeof(w), "%s/w", dir);
    ck_assert_int_eq(mkdir(w, 0755), 0);
    char *precious = tu_write(dir, "precious", "precious bytes\n");
    snprintf(p, sizeof(p), "%s/whatif.json", w);
    ck_assert_int_eq(symlink(precious, p), 0);
    const char *wi[] = {"whatif", CHAIN3, "--top", "0", "-o", w, NULL};
    run_out r = tu_run(wi);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char *keep = tu_read(precious);
    ck_assert_str_eq(keep, "precious bytes\n");
    free(keep);
    struct stat st;
    ck_assert_int_eq(lstat(p, &st), 0);
    ck_assert(S_ISREG(st.st_mode));
    free(precious);
}
END_TEST

START_TEST(whatif_o_commits_nothing_when_the_baseline_fails)
{
    /* a heap of 1 KiB cannot hold a task's output (HEAP_RING_DEADLOCK, exit 4): nothing ranked; a folder
     * whatif made goes again, one that held a run keeps it byte for byte */
    const char *dir = tu_tmpdir();
    char w[4096], p[4200];
    snprintf(w, sizeof(w), "%s/w", dir);
    const char *wi[] = {"whatif", CHAIN3, "--ring-heap", "1024,1024,1024,1024", "--top", "0", "-o", w, NULL};
    run_out r = tu_run(wi);
    ck_assert_int_eq(r.status, 4);
    ck_assert_str_eq(r.out, "");
    char want[4400];
    snprintf(want, sizeof(want), "; nothing to rank; nothing was written to %s\n", w);
    ck_assert_msg(strstr(r.err, want) != NULL, "%s", r.err);
    tu_run_free(&r);
    ck_assert(!tu_exists(w));
    const char *first[] = {"run", CHAIN3, "-o", w, "--quiet", NULL};
    r = tu_run(first);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    snprintf(p, sizeof(p), "%s/ptosim_run.json", w);
    char *before = tu_read(p);
    r = tu_run(wi);
    ck_assert_int_eq(r.status, 4);
    snprintf(want, sizeof(want), "; nothing to rank; %s keeps the previous run's outputs\n", w);
    ck_assert_msg(strstr(r.err, want) != NULL, "%s", r.err);
    tu_run_free(&r);
    char *after = tu_read(p);
    ck_assert_str_eq(after, before);
    snprintf(p, sizeof(p), "%s/whatif.json", w);
    ck_assert(!tu_exists(p));
    free(before);
    free(after);
}
END_TEST

Suite *suite_whatif(void)
{
    Suite *s = suite_create("whatif");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, kernel_scale_halves_ns_and_cycles_costs_and_a_tasks_own);
    tcase_add_test(tc, kernel_scale_scales_a_pipe_form_and_every_pipe_busy_time);
    tcase_add_test(tc, a_scaled_copy_never_takes_its_kernels_place_when_the_table_grows);
    tcase_add_test(tc, run_kernel_scale_on_chain3_matches_the_hand_computation);
    tcase_add_test(tc, run_json_config_names_the_scale_only_when_given);
    tcase_add_test(tc, kernel_scale_errors_say_what_is_wrong);
    tcase_add_test(tc, sweep_takes_a_kernel_scale_list);
    tcase_add_test(tc, every_whatif_figure_is_the_makespan_of_a_run_with_its_flags);
    tcase_add_test(tc, whatif_json_lists_levers_sorted_by_makespan);
    tcase_add_test(tc, whatif_refuses_outputs_and_bad_counts);
    tcase_add_test(tc, whatif_tries_the_kernels_on_the_critical_path_first);
    tcase_add_test(tc, whatif_o_writes_the_baselines_run_folder_and_the_json_ranking);
    tcase_add_test(tc, whatif_o_with_outputs_runs_every_lever_with_them);
    tcase_add_test(tc, whatif_o_replaces_a_linked_whatif_json_and_keeps_its_target);
    tcase_add_test(tc, whatif_o_commits_nothing_when_the_baseline_fails);
    suite_add_tcase(s, tc);
    return s;
}
