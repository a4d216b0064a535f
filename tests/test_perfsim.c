/* test_perfsim.c - `ptosim import --costs perf-sim`: every task priced by its kernel's code. */
/* The cache, the refusals and the messages with a stand-in compiler everywhere, the reference figures
 * with pto-isa when the build has it (make perfsim-dep unpacks ../shared/). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"

#define REAL(name) PTOSIM_SRCDIR "/tests/real/" name
#define FAKECXX PTOSIM_SRCDIR "/tests/perfsim/fakecxx.sh"
#define PTO_TREE PTOSIM_SRCDIR "/build/perfsim/pto-isa"
#define RT_TREE PTOSIM_SRCDIR "/build/perfsim/simpler"
#define PERF_CACHE PTOSIM_SRCDIR "/build/perfsim/cache"
#define RT_EXAMPLES RT_TREE "/examples/a2a3/tensormap_and_ringbuffer"

/* ---- with the stand-in compiler ---- */

static void mkdirs(const char *path)
{
    char p[4096];
    snprintf(p, sizeof(p), "%s", path);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            mkdir(p, 0755);
            *s = '/';
        }
    mkdir(p, 0755);
}

typedef struct fake {
    const char *dir;
    char pto[1024], rt[1024], cache[1024], clog[1024], rlog[1024];
    char src[4][1024]; /* QK, SF, PV, UP */
} fake;

static const char *const NAMES[4] = {"QK", "SF", "PV", "UP"};

/* The figures each stand-in kernel answers with (TOTAL INSTR SYNC SCALAR MTE2 MTE1 CUBE FIXP VEC MTE3 GM_MTE2
 * GM_MTE3 GM_FIXP), as in shared/spec/perfsim.md's reference table. */
static const char *const FIGURES[4] = {"41 11 8 5 12 7 7 13 0 0 1024 0 1024", "431 20 6 0 17 0 0 0 403 10 1600 0 0",
                                       "42 11 8 5 12 8 7 13 0 0 1024 0 1024", "45 19 6 0 38 0 0 0 2 5 3328 2176 0"};

static void fake_kernel(fake *f, int i, const char *figures, const char *extra)
{
    char name[64], text[512];
    snprintf(name, sizeof(name), "%s.cpp", NAMES[i]);
    snprintf(text, sizeof(text), "// a stand-in kernel\n// fake: %s\n%s\n", figures, extra ? extra : "");
    char *p = tu_write(f->dir, name, text);
    snprintf(f->src[i], sizeof(f->src[i]), "%s", p);
    free(p);
}

/* Stand-in pto-isa and runtime trees, the four kernels of pa_small1, and CXX set to the stand-in compiler. */
static void fake_setup(fake *f)
{
    memset(f, 0, sizeof(*f));
    f->dir = tu_tmpdir();
    snprintf(f->pto, sizeof(f->pto), "%s/pto", f->dir);
    snprintf(f->rt, sizeof(f->rt), "%s/rt", f->dir);
    snprintf(f->cache, sizeof(f->cache), "%s/cache", f->dir);
    snprintf(f->clog, sizeof(f->clog), "%s/compiles.log", f->dir);
    snprintf(f->rlog, sizeof(f->rlog), "%s/runs.log", f->dir);
    char p[2048];
    snprintf(p, sizeof(p), "%s/include/pto/costmodel/perf_sim", f->pto);
    mkdirs(p);
    free(tu_write(p, "launch.hpp", "// stand-in\n"));
    snprintf(p, sizeof(p), "%s/simpler_setup/incore", f->rt);
    mkdirs(p);
    free(tu_write(p, "pipe_sync.h", "// stand-in\n"));
    snprintf(p, sizeof(p), "%s/src/common/task_interface", f->rt);
    mkdirs(p);
    free(tu_write(p, "tensor.h", "// stand-in\n"));
    for (int i = 0; i < 4; i++)
        fake_kernel(f, i, FIGURES[i], NULL);
    setenv("CXX", FAKECXX, 1);
    setenv("FAKECXX_LOG", f->clog, 1);
    setenv("FAKERUN_LOG", f->rlog, 1);
}

/* Lines in a log (0 when it does not exist). */
static int lines(const char *path)
{
    char *t = tu_read(path);
    int n = 0;
    for (const char *s = t; s && *s; s++)
        n += *s == '\n';
    free(t);
    return n;
}

/* Imports pa_small1_dump with the four kernels plus up to four more arguments. */
static run_out fake_import(const fake *f, const char *a1, const char *a2, const char *a3, const char *a4)
{
    char k[4][1200];
    for (int i = 0; i < 4; i++)
        snprintf(k[i], sizeof(k[i]), "%s=%s", NAMES[i], f->src[i]);
    const char *args[32] = {"import", REAL("pa_small1_dump"), "--costs", "perf-sim", "--pto-isa", f->pto,
                            "--runtime-include", f->rt, "--cache", f->cache, "-j", "2"};
    int n = 12;
    for (int i = 0; i < 4; i++) {
        args[n++] = "--kernel";
        args[n++] = k[i];
    }
    const char *more[4] = {a1, a2, a3, a4};
    for (int i = 0; i < 4 && more[i]; i++)
        args[n++] = more[i];
    args[n] = NULL;
    return tu_run(args);
}

START_TEST(every_kernel_is_priced_once_and_a_second_import_compiles_and_runs_nothing)
{
    fake f;
    fake_setup(&f);
    run_out r = fake_import(&f, NULL, NULL, NULL, NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    /* QK's figures in the documented form: busy per AIC pipe (scalar, mte1, mte2, cube, fixpipe), GM bytes per
     * GM pipe; SF's per AIV pipe (scalar, mte2, mte3, vector) */
    ck_assert_msg(strstr(r.out, "\"name\": \"QK\", \"core\": \"aic\", \"cost\": {\"perf_sim\": {\"ghz\": 1.85, "
                                "\"cycles\": 41, \"busy\": {\"scalar\": 5, \"mte1\": 7, \"mte2\": 12, \"cube\": 7, "
                                "\"fixpipe\": 13}, \"gm_bytes\": {\"mte2\": 1024, \"fixpipe\": 1024}}}"),
                  "%s", r.out);
    ck_assert_msg(strstr(r.out, "\"name\": \"SF\", \"core\": \"aiv\", \"cost\": {\"perf_sim\": {\"ghz\": 1.85, "
                                "\"cycles\": 431, \"busy\": {\"scalar\": 0, \"mte2\": 17, \"mte3\": 10, \"vector\": "
                                "403}, \"gm_bytes\": {\"mte2\": 1600, \"mte3\": 0}}}"),
                  "%s", r.out);
    ck_assert_msg(strstr(r.out, "busiest pipe vector"), "%s", r.out);
    /* four kernels compiled, each run once with all its signatures */
    ck_assert_int_eq(lines(f.clog), 4);
    ck_assert_int_eq(lines(f.rlog), 4);
    char *first = strdup(r.out);
    tu_run_free(&r);
    r = fake_import(&f, NULL, NULL, NULL, NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_str_eq(r.out, first);
    ck_assert_int_eq(lines(f.clog), 4);
    ck_assert_int_eq(lines(f.rlog), 4);
    tu_run_free(&r);
    /* a kernel whose code changed is compiled again, the others are not */
    fake_kernel(&f, 1, "500 20 6 0 17 0 0 0 480 10 1600 0 0", "// changed");
    r = fake_import(&f, NULL, NULL, NULL, NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_int_eq(lines(f.clog), 5);
    ck_assert_int_eq(lines(f.rlog), 5);
    ck_assert_msg(strstr(r.out, "\"cycles\": 500"), "%s", r.out);
    tu_run_free(&r);
    free(first);
}
END_TEST

START_TEST(a_kernel_that_does_not_compile_is_named_and_fails_unless_the_model_stands_in)
{
    fake f;
    fake_setup(&f);
    fake_kernel(&f, 0, FIGURES[0], "FAKE_COMPILE_ERROR");
    run_out r = fake_import(&f, NULL, NULL, NULL, NULL);
    ck_assert_int_eq(r.status, 3);
    char want[4096];
    snprintf(want, sizeof(want),
             "ptosim import: kernel QK (%s): does not compile: %s:3:1: error: fake failure (--fallback model keeps "
             "the model's cost for these)\n",
             f.src[0], f.src[0]);
    ck_assert_str_eq(r.err, want);
    ck_assert_str_eq(r.out, "");
    tu_run_free(&r);
    r = fake_import(&f, "--fallback", "model", NULL, NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    snprintf(want, sizeof(want),
             "ptosim: warning: kernel QK: the model's cost, not Perf-Sim's (does not compile: %s:3:1: error: fake "
             "failure), for its tasks 0x0000000200000000, 0x0000000200000004, 0x0000000200000008\n",
             f.src[0]);
    ck_assert_msg(strstr(r.err, want), "%s", r.err);
    /* QK keeps the model's pipe form; SF is Perf-Sim's */
    ck_assert_msg(strstr(r.out, "\"name\": \"QK\", \"core\": \"aic\", \"cost\": {\"tiles\": 1"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "\"name\": \"SF\", \"core\": \"aiv\", \"cost\": {\"perf_sim\""), "%s", r.out);
    tu_run_free(&r);
}
END_TEST

START_TEST(a_pto_isa_tree_that_does_not_compile_or_records_no_sync_events_is_refused)
{
    fake f;
    fake_setup(&f);
    fake_kernel(&f, 2, FIGURES[2], "FAKE_TREE_ERROR");
    run_out r = fake_import(&f, NULL, NULL, NULL, NULL);
    ck_assert_int_eq(r.status, 3);
    char want[4096];
    snprintf(want, sizeof(want),
             "ptosim import: the pto-isa tree at %s does not compile under __COSTMODEL (kernel PV, first error: "
             "%s/include/pto/common/type.hpp:9:5: error: no member named 'kMicrosPerSecond'); pto-isa 995589ab is "
             "known to work\n",
             f.pto, f.pto);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    /* no sync event from a kernel whose code calls set_flag: the no-op stubs of later trees */
    fake_kernel(&f, 2, "42 11 0 5 12 8 7 13 0 0 1024 0 1024", "set_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);");
    r = fake_import(&f, NULL, NULL, NULL, NULL);
    ck_assert_int_eq(r.status, 3);
    snprintf(want, sizeof(want),
             "ptosim import: the pto-isa tree at %s recorded no sync events for kernel PV, whose code calls "
             "set_flag: its set_flag/wait_flag are no-op stubs, which makes every kernel look faster than it is; "
             "pto-isa 995589ab is known to work\n",
             f.pto);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    /* a kernel with no set_flag of its own may record none */
    fake_kernel(&f, 2, "42 11 0 5 12 8 7 13 0 0 1024 0 1024", NULL);
    r = fake_import(&f, NULL, NULL, NULL, NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
}
END_TEST

START_TEST(a_kernel_run_that_records_no_instructions_is_never_priced_silently)
{
    fake f;
    fake_setup(&f);
    fake_kernel(&f, 1, "0 0 0 0 0 0 0 0 0 0 0 0 0", NULL);
    run_out r = fake_import(&f, NULL, NULL, NULL, NULL);
    ck_assert_int_eq(r.status, 3);
    char want[4096];
    snprintf(want, sizeof(want),
             "ptosim import: kernel SF (%s): Perf-Sim recorded no instructions for 3 of its 3 tasks (--fallback "
             "model keeps the model's cost for these)\n",
             f.src[1]);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
}
END_TEST

START_TEST(perf_sim_options_and_tables_are_checked_before_anything_compiles)
{
    fake f;
    fake_setup(&f);
    const char *no_tree[] = {"import", REAL("pa_small1_dump"), "--costs", "perf-sim", NULL};
    unsetenv("PTO_ISA_ROOT");
    run_out r = tu_run(no_tree);
    ck_assert_int_eq(r.status, 3);
    ck_assert_str_eq(r.err, "ptosim import: --costs perf-sim needs a pto-isa tree: --pto-isa DIR or PTO_ISA_ROOT "
                            "(pto-isa 995589ab is known to work)\n");
    tu_run_free(&r);
    const char *not_tree[] = {"import", REAL("pa_small1_dump"), "--costs", "perf-sim", "--pto-isa", f.dir,
                              "--runtime-include", f.rt, NULL};
    r = tu_run(not_tree);
    ck_assert_int_eq(r.status, 3);
    char want[4096];
    snprintf(want, sizeof(want),
             "ptosim import: %s: no pto-isa tree with Perf-Sim (include/pto/costmodel/perf_sim/launch.hpp is "
             "missing; pto-isa 995589ab is known to work)\n",
             f.dir);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    /* one kernel named: the other three are listed */
    char qk[1200];
    snprintf(qk, sizeof(qk), "QK=%s", f.src[0]);
    const char *one[] = {"import", REAL("pa_small1_dump"), "--costs", "perf-sim", "--pto-isa", f.pto,
                         "--runtime-include", f.rt, "--cache", f.cache, "--kernel", qk, NULL};
    r = tu_run(one);
    ck_assert_int_eq(r.status, 3);
    ck_assert_str_eq(r.err, "ptosim import: no kernel source for SF, PV, UP: name each with --kernel NAME=FILE or "
                            "--kernels TABLE (JSON, or the runtime's test .py), or keep the model's cost with "
                            "--fallback model\n");
    ck_assert_int_eq(lines(f.clog), 0);
    tu_run_free(&r);
    /* a table that names QK's core wrongly */
    char *table = tu_write(f.dir, "k.json", "{\"QK\": {\"source\": \"QK.cpp\", \"core\": \"aiv\"}}");
    const char *wrong[] = {"import", REAL("pa_small1_dump"), "--costs", "perf-sim", "--pto-isa", f.pto,
                           "--runtime-include", f.rt, "--cache", f.cache, "--kernels", table, NULL};
    r = tu_run(wrong);
    ck_assert_int_eq(r.status, 3);
    snprintf(want, sizeof(want),
             "ptosim import: %s: kernel QK is aiv in the table but runs on AIC cores in the capture\n", table);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    free(table);
    /* usage: a perf-sim option without --costs perf-sim, a bad -j, a fallback that is not the model */
    static const struct {
        const char *a, *b, *err;
    } usage[] = {
        {"--kernel", "QK=x.cpp", "ptosim import: --kernel is for --costs perf-sim\n"},
        {"-j", "0", "ptosim import: -j 0: give a whole number in [1, 256]\n"},
        {"--fallback", "swimlane", "ptosim import: --fallback swimlane: the only fallback is model\n"},
    };
    for (size_t i = 0; i < sizeof(usage) / sizeof(usage[0]); i++) {
        const char *args[] = {"import", REAL("pa_small1_dump"), usage[i].a, usage[i].b, NULL};
        r = tu_run(args);
        ck_assert_int_eq(r.status, 2);
        char want2[512];
        snprintf(want2, sizeof(want2), "%s%s", usage[i].err,
                 "usage: ptosim import [--costs swimlane|model|perf-sim|FILE] DFX_DIR > graph.jsonl (ptosim import "
                 "--help)\n");
        ck_assert_str_eq(r.err, want2);
        tu_run_free(&r);
    }
    const char *bad_kernel[] = {"import", REAL("pa_small1_dump"), "--costs", "perf-sim", "--pto-isa", f.pto,
                                "--runtime-include", f.rt, "--cache", f.cache, "--kernel", "QK", NULL};
    r = tu_run(bad_kernel);
    ck_assert_int_eq(r.status, 3);
    ck_assert_str_eq(r.err, "ptosim import: --kernel QK: expected NAME=FILE\n");
    tu_run_free(&r);
}
END_TEST

START_TEST(a_values_table_gives_what_a_capture_without_an_args_dump_lacks)
{
    fake f;
    fake_setup(&f);
    const char *gemm = tu_write(f.dir, "GEMM.cpp", "// fake: 19696 44 32 20 6688 1544 8216 3228 0 0 524288 0 262144\n");
    const char *add = tu_write(f.dir, "ADD.cpp", "// fake: 11464 28 24 0 8952 0 0 0 104 2396 524288 262144 0\n");
    char kg[1200], ka[1200];
    snprintf(kg, sizeof(kg), "GEMM=%s", gemm);
    snprintf(ka, sizeof(ka), "ADD=%s", add);
    const char *args[] = {"import", REAL("bgemm_case1"), "--costs", "perf-sim", "--pto-isa", f.pto,
                          "--runtime-include", f.rt, "--cache", f.cache, "--kernel", kg, "--kernel", ka, NULL, NULL,
                          NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    /* without --values: both kernels' config contents are unknown, said on stderr and in the graph's note */
    ck_assert_msg(strstr(r.err, "ptosim: note: kernel GEMM: 64 tasks priced without the contents of its INT64 "
                                "input arg 3 (the capture has no args dump) (zeros); give them with --values\n"),
                  "%s", r.err);
    ck_assert_msg(strstr(r.out, "64 tasks priced without the contents of its INT64 input arg 3"), "%s", r.out);
    tu_run_free(&r);
    char *values = tu_write(f.dir, "v.json", "{\"GEMM\": {\"inputs\": {\"3\": [128, 2, 32, 4]}}, "
                                             "\"ADD\": {\"inputs\": {\"2\": [128, 2, 32, 4]}}}");
    args[14] = "--values";
    args[15] = values;
    r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(!strstr(r.err, "priced without"), "%s", r.err);
    ck_assert_msg(strstr(r.out, "\"cycles\": 19696"), "%s", r.out);
    tu_run_free(&r);
    /* a slot that is no input tensor of the kernel's tasks */
    char *bad = tu_write(f.dir, "bad.json", "{\"GEMM\": {\"inputs\": {\"2\": [1]}}}");
    args[15] = bad;
    r = tu_run(args);
    ck_assert_int_eq(r.status, 3);
    char want[2048];
    snprintf(want, sizeof(want),
             "ptosim import: %s: GEMM.inputs.2: not an input tensor arg of its tasks, or not an array of numbers\n",
             bad);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    free(bad);
    free(values);
    free((void *)gemm);
    free((void *)add);
}
END_TEST

/* A measured profile drives the chip: bgemm's GEMM as Perf-Sim measured it, on the 1.8 GHz a2a3 clock:
 * 19,696 x 1.8 / 1.85 = 19,164 cycles = 10.647 us; cube 8,216 -> 7,994 cycles, 7,994 / 19,164 = 41.71 %
 * busy, the busiest pipe; pmu.csv's group-2 counters are those cycles. */
START_TEST(a_perf_sim_cost_gives_the_kernel_its_time_pipes_and_pmu_counters)
{
    const char *dir = tu_tmpdir();
    char *g = tu_write(dir, "g.jsonl",
                       "{\"ptosim_graph\": 1, \"name\": \"m\", \"kernels\": [{\"id\": 0, \"name\": \"GEMM\", "
                       "\"core\": \"aic\", \"cost\": {\"perf_sim\": {\"ghz\": 1.85, \"cycles\": 19696, \"busy\": "
                       "{\"scalar\": 20, \"mte2\": 6688, \"mte1\": 1544, \"cube\": 8216, \"fixpipe\": 3228}, "
                       "\"gm_bytes\": {\"mte2\": 131072, \"fixpipe\": 65536}}}}], \"tensors\": [{\"name\": \"x\", "
                       "\"dtype\": \"FLOAT32\", \"shape\": [16384]}]}\n"
                       "{\"op\": \"submit\", \"kernel\": \"GEMM\", \"args\": [{\"dir\": \"in\", \"tensor\": "
                       "\"x\"}]}\n");
    char out[1024];
    snprintf(out, sizeof(out), "%s/o", dir);
    const char *args[] = {"run", g, "-o", out, "--enable-pmu", "--quiet", NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char p[1200];
    snprintf(p, sizeof(p), "%s/ptosim_run.json", out);
    cJSON *run = tu_json_file(p);
    const cJSON *k = cJSON_GetArrayItem(cJSON_GetObjectItem(run, "kernels"), 0);
    ck_assert_double_eq_tol(cJSON_GetObjectItem(k, "core_time_us")->valuedouble, 19164 / 1800.0, 1e-6);
    ck_assert_str_eq(cJSON_GetObjectItem(k, "busiest_pipe")->valuestring, "cube");
    ck_assert_double_eq_tol(cJSON_GetObjectItem(k, "busiest_pipe_busy_fraction")->valuedouble, 7994.0 / 19164, 1e-6);
    ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(run, "bottleneck"), "pipe")->valuestring, "cube");
    cJSON_Delete(run);
    snprintf(p, sizeof(p), "%s/dfx_outputs/pmu.csv", out);
    char *pmu = tu_read(p);
    /* pmu_total_cycles, vec, cube, scalar, mte1, mte2, mte3 busy: 19,164; 0; 7,994; 19; 1,502; 6,507; 0 */
    ck_assert_msg(pmu && strstr(pmu, ",19164,0,7994,19,1502,6507,0,"), "%s", pmu);
    free(pmu);
    free(g);
}
END_TEST

/* ---- with pto-isa and the runtime's kernels (build/perfsim/, from ../shared/) ---- */

static bool have_trees(void)
{
    return access(PTO_TREE "/include/pto/costmodel/perf_sim/launch.hpp", F_OK) == 0 &&
           access(RT_TREE "/simpler_setup/incore/pipe_sync.h", F_OK) == 0;
}

static run_out real_import(const char *capture, const char *kernels, const char *a1, const char *a2,
                           const char *a3, const char *a4)
{
    unsetenv("CXX"); /* clang++-19, installed by make perfsim-dep */
    const char *args[] = {"import", capture, "--costs", "perf-sim", "--kernels", kernels, "--pto-isa", PTO_TREE,
                          "--runtime-include", RT_TREE, "--cache", PERF_CACHE, a1, a2, a3, a4, NULL};
    return tu_run(args);
}

/* The kernel header entry's perf_sim cycles of kernel name. */
static double kernel_cycles(const char *graph, const char *name, const char **busiest_out)
{
    const char *nl = strchr(graph, '\n');
    char *head = strndup(graph, nl ? (size_t)(nl - graph) : strlen(graph));
    cJSON *h = cJSON_Parse(head);
    free(head);
    ck_assert_ptr_nonnull(h);
    double cyc = -1;
    static char busiest[32];
    const cJSON *k;
    cJSON_ArrayForEach(k, cJSON_GetObjectItem(h, "kernels"))
    {
        if (strcmp(cJSON_GetObjectItem(k, "name")->valuestring, name) != 0)
            continue;
        const cJSON *ps = cJSON_GetObjectItem(cJSON_GetObjectItem(k, "cost"), "perf_sim");
        ck_assert_msg(ps != NULL, "kernel %s has no perf_sim cost", name);
        cyc = cJSON_GetObjectItem(ps, "cycles")->valuedouble;
        double best = -1;
        const cJSON *b;
        cJSON_ArrayForEach(b, cJSON_GetObjectItem(ps, "busy")) if (b->valuedouble > best)
        {
            best = b->valuedouble;
            snprintf(busiest, sizeof(busiest), "%s", b->string);
        }
    }
    cJSON_Delete(h);
    if (busiest_out)
        *busiest_out = busiest;
    return cyc;
}

/* shared/spec/perfsim.md's reference figures, from the runtime's paged attention kernels unmodified: QK 41,
 * PV 42, SF 431 (vector 403 of them), UP 45 / 418 / 531 by its is_first / is_last scalars. */
START_TEST(the_runtimes_paged_attention_kernels_reproduce_perf_sims_figures)
{
    run_out r = real_import(REAL("pa_small1_dump"), RT_EXAMPLES "/paged_attention/test_paged_attention.py", "-j", "2",
                            NULL, NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    const char *busiest;
    ck_assert_double_eq(kernel_cycles(r.out, "QK", &busiest), 41);
    ck_assert_str_eq(busiest, "fixpipe");
    ck_assert_double_eq(kernel_cycles(r.out, "PV", &busiest), 42);
    ck_assert_double_eq(kernel_cycles(r.out, "SF", &busiest), 431);
    ck_assert_str_eq(busiest, "vector");
    ck_assert_double_eq(kernel_cycles(r.out, "UP", NULL), 45);
    /* the other two online updates carry their own cost */
    ck_assert_msg(strstr(r.out, "\"cost\": {\"perf_sim\": {\"ghz\": 1.85, \"cycles\": 418,"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "\"cost\": {\"perf_sim\": {\"ghz\": 1.85, \"cycles\": 531,"), "%s", r.out);
    ck_assert_msg(!strstr(r.err, "priced without"), "%s", r.err); /* the dump held every scalar */
    tu_run_free(&r);
}
END_TEST

/* bgemm Case1's GEMM 19,696 (cube-bound) and ADD 11,464 (MTE2-bound) cycles with config [128, 2, 32, 4]
 * (the capture has no args dump: the values table gives it); ptosim's run names the same busiest pipes. */
START_TEST(the_runtimes_bgemm_kernels_reproduce_perf_sims_figures_and_pipes)
{
    const char *dir = tu_tmpdir();
    char *values = tu_write(dir, "v.json", "{\"GEMM\": {\"inputs\": {\"3\": [128, 2, 32, 4]}}, "
                                           "\"ADD\": {\"inputs\": {\"2\": [128, 2, 32, 4]}}}");
    run_out r = real_import(REAL("bgemm_case1"), RT_EXAMPLES "/benchmark_bgemm/test_benchmark_bgemm.py", "--values",
                            values, NULL, NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    const char *busiest;
    ck_assert_double_eq(kernel_cycles(r.out, "GEMM", &busiest), 19696);
    ck_assert_str_eq(busiest, "cube");
    ck_assert_double_eq(kernel_cycles(r.out, "ADD", &busiest), 11464);
    ck_assert_str_eq(busiest, "mte2");
    char *g = tu_write(dir, "bgemm.jsonl", r.out);
    tu_run_free(&r);
    char out[1024], p[1200];
    snprintf(out, sizeof(out), "%s/o", dir);
    const char *run[] = {"run", g, "-o", out, "--quiet", NULL};
    r = tu_run(run);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    snprintf(p, sizeof(p), "%s/ptosim_run.json", out);
    cJSON *j = tu_json_file(p);
    const cJSON *k;
    int seen = 0;
    cJSON_ArrayForEach(k, cJSON_GetObjectItem(j, "kernels"))
    {
        const char *name = cJSON_GetObjectItem(k, "name")->valuestring;
        const char *pipe = cJSON_GetObjectItem(k, "busiest_pipe")->valuestring;
        ck_assert_str_eq(pipe, strcmp(name, "GEMM") == 0 ? "cube" : "mte2");
        seen++;
    }
    ck_assert_int_eq(seen, 2);
    cJSON_Delete(j);
    free(values);
    free(g);
}
END_TEST

/* ptosim's own kernels (tests/perfsim/), through ptosim's own capture with an args dump: vadd takes its tile
 * count from a scalar (1, 3, and 3 over 3 SPMD blocks: 1 a block), mm from an INT32 input ([2, 3]: 2). Per tile vadd records 7 instructions and
 * moves 2 x 16 KiB in and 16 KiB out; mm 11 instructions, 32 KiB in, 16 KiB out (their header comments). */
START_TEST(ptosims_own_kernels_are_priced_from_its_own_capture)
{
    const char *dir = tu_tmpdir();
    char out[1024], dfx[1200];
    snprintf(out, sizeof(out), "%s/cap", dir);
    snprintf(dfx, sizeof(dfx), "%s/dfx_outputs", out);
    const char *run[] = {"run", PTOSIM_SRCDIR "/tests/perfsim/own.jsonl", "-o", out, "--enable-dep-gen",
                         "--dump-args=2", "--quiet", NULL};
    run_out r = tu_run(run);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char *table = tu_write(dir, "k.json", "{\"vadd\": \"" PTOSIM_SRCDIR "/tests/perfsim/vadd.cpp\", \"mm\": \""
                                          PTOSIM_SRCDIR "/tests/perfsim/mm.cpp\"}");
    r = real_import(dfx, table, NULL, NULL, NULL, NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "\"gm_bytes\": {\"mte2\": 32768, \"mte3\": 16384}}"), "%s", r.out);   /* 1 tile */
    ck_assert_msg(strstr(r.out, "\"gm_bytes\": {\"mte2\": 98304, \"mte3\": 49152}}"), "%s", r.out);   /* 3 tiles */
    ck_assert_msg(strstr(r.out, "\"gm_bytes\": {\"mte2\": 65536, \"fixpipe\": 32768}}"), "%s", r.out); /* mm x 2 */
    ck_assert_msg(strstr(r.out, "7 instructions"), "%s", r.out);
    /* the SPMD task (3 tiles over 3 blocks) prices one block: 1 tile, the kernel's own cost, none of its own */
    const char *spmd = strstr(r.out, "\"id\": \"t3\"");
    ck_assert_msg(spmd && strstr(spmd, "\"block_num\": 3") && !strstr(spmd, "\"cost\""), "%s", r.out);
    ck_assert_msg(strstr(r.out, "3 distinct task signatures"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "22 instructions"), "%s", r.out);
    ck_assert_msg(kernel_cycles(r.out, "vadd", NULL) > 0 && kernel_cycles(r.out, "mm", NULL) > 0, "%s", r.out);
    tu_run_free(&r);
    free(table);
}
END_TEST

Suite *suite_perfsim(void)
{
    Suite *s = suite_create("perfsim");
    TCase *tc = tcase_create("stand-in compiler");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, every_kernel_is_priced_once_and_a_second_import_compiles_and_runs_nothing);
    tcase_add_test(tc, a_kernel_that_does_not_compile_is_named_and_fails_unless_the_model_stands_in);
    tcase_add_test(tc, a_pto_isa_tree_that_does_not_compile_or_records_no_sync_events_is_refused);
    tcase_add_test(tc, a_kernel_run_that_records_no_instructions_is_never_priced_silently);
    tcase_add_test(tc, perf_sim_options_and_tables_are_checked_before_anything_compiles);
    tcase_add_test(tc, a_values_table_gives_what_a_capture_without_an_args_dump_lacks);
    tcase_add_test(tc, a_perf_sim_cost_gives_the_kernel_its_time_pipes_and_pmu_counters);
    suite_add_tcase(s, tc);
    if (!have_trees()) {
        printf("perf-sim: 3 tests skipped: no pto-isa and runtime trees in build/perfsim/ (make perfsim-dep "
               "unpacks them from ../shared/)\n");
        return s;
    }
    TCase *real = tcase_create("pto-isa");
    tcase_set_timeout(real, 600); /* compiling a kernel takes 6-9 s; the cache keeps the second run short */
    tcase_add_test(real, the_runtimes_paged_attention_kernels_reproduce_perf_sims_figures);
    tcase_add_test(real, the_runtimes_bgemm_kernels_reproduce_perf_sims_figures_and_pipes);
    tcase_add_test(real, ptosims_own_kernels_are_priced_from_its_own_capture);
    suite_add_tcase(s, real);
    return s;
}
