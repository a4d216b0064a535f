/* test_perfsim.c - `ptosim import --costs perf-sim`: every task priced by its kernel's code. */
/* The cache, the refusals and the messages with a stand-in compiler everywhere, the reference figures
 * with pto-isa when the build has it (make perfsim-dep unpacks ../shared/). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../sim/perfsim/perfsim.h"
#include "../model/base/sha256.h"
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
                            "--runtime-include", f->rt, "--cache", f->cache, "-j", "2", "--quiet"};
    int n = 13;
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

/* ---- progress on stderr ---- */

/* Imports pa_small1_dump with the four kernels, saying its progress (no --quiet); jobs NULL: -j's default. */
static run_out loud_import(const fake *f, const char *jobs, const char *more)
{
    char k[4][1200];
    const char *args[32] = {"import", REAL("pa_small1_dump"), "--costs", "perf-sim", "--pto-isa", f->pto,
                            "--runtime-include", f->rt, "--cache", f->cache};
    int n = 10;
    if (jobs) {
        args[n++] = "-j";
        args[n++] = jobs;
    }
    for (int i = 0; i < 4; i++) {
        snprintf(k[i], sizeof(k[i]), "%s=%s", NAMES[i], f->src[i]);
        args[n++] = "--kernel";
        args[n++] = k[i];
    }
    args[n++] = more;
    args[n] = NULL;
    return tu_run(args);
}

START_TEST(progress_is_a_line_a_step_when_stderr_is_no_terminal_and_nothing_with_quiet)
{
    fake f;
    fake_setup(&f);
    /* one job: the steps end in the kernels' order. pa_small1_dump's 12 tasks (3 a kernel) have 9 signatures
     * (its args dump): QK 2 and PV 2 (key offsets 512, 512, 256), SF 2 (arg 0 16x16, 16x16, 16x1), UP 3
     * (is_first/is_last 1/0, 0/0, 0/1) */
    run_out r = loud_import(&f, "1", NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    char want[4096];
    snprintf(want, sizeof(want),
             "ptosim: perf-sim: 12 tasks, 9 distinct signatures of 4 kernels\n"
             "ptosim: perf-sim: compiling 4 kernels with %s (-j 1)\n"
             "ptosim: perf-sim: compiled QK (1/4 kernels)\n"
             "ptosim: perf-sim: compiled SF (2/4 kernels)\n"
             "ptosim: perf-sim: compiled PV (3/4 kernels)\n"
             "ptosim: perf-sim: compiled UP (4/4 kernels)\n"
             "ptosim: perf-sim: running 9 task signatures in 4 batches\n"
             "ptosim: perf-sim: ran QK (2/9 signatures)\n"
             "ptosim: perf-sim: ran SF (4/9 signatures)\n"
             "ptosim: perf-sim: ran PV (6/9 signatures)\n"
             "ptosim: perf-sim: ran UP (9/9 signatures)\n",
             FAKECXX);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    /* warm: nothing compiles or runs */
    r = loud_import(&f, "1", NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_str_eq(r.err, "ptosim: perf-sim: 12 tasks, 9 distinct signatures of 4 kernels\n"
                            "ptosim: perf-sim: 4 of 4 kernels compiled before, from the cache\n");
    tu_run_free(&r);
    /* a kernel changed: compiled with -j's default, the cores online up to 8, the others from the cache */
    fake_kernel(&f, 1, "500 20 6 0 17 0 0 0 480 10 1600 0 0", "// changed");
    r = loud_import(&f, NULL, NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    snprintf(want, sizeof(want),
             "ptosim: perf-sim: 12 tasks, 9 distinct signatures of 4 kernels\n"
             "ptosim: perf-sim: 3 of 4 kernels compiled before, from the cache\n"
             "ptosim: perf-sim: compiling 1 kernel with %s (-j %ld)\n"
             "ptosim: perf-sim: compiled SF (1/1 kernels)\n"
             "ptosim: perf-sim: running 2 task signatures in 1 batch\n"
             "ptosim: perf-sim: ran SF (2/2 signatures)\n",
             FAKECXX, cores > 8 ? 8 : cores);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    /* --quiet: nothing on stderr, and the work done all the same */
    fake_kernel(&f, 1, "501 20 6 0 17 0 0 0 480 10 1600 0 0", "// changed again");
    r = loud_import(&f, "1", "--quiet");
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_str_eq(r.err, "");
    ck_assert_msg(strstr(r.out, "\"cycles\": 501"), "%s", r.out);
    tu_run_free(&r);
    ck_assert_int_eq(lines(f.clog), 6);
}
END_TEST

/* ---- an import without --costs perf-sim says what Perf-Sim could do ---- */

#define MODEL_NOTE                                                                                           \
    "ptosim: kernel costs from the model: the swimlane has 24 cores, a simulator platform's, whose times are " \
    "the host's (--costs swimlane takes them anyway)\n"

static run_out plain_import(const char *capture, const char *more)
{
    const char *args[] = {"import", capture, more, NULL};
    return tu_run(args);
}

START_TEST(an_import_with_the_trees_and_an_args_dump_says_perf_sim_could_price_it_and_compiles_nothing)
{
    fake f;
    fake_setup(&f);
    char xdg[900];
    snprintf(xdg, sizeof(xdg), "%.880s/xdg", f.dir);
    snprintf(f.cache, sizeof(f.cache), "%s/ptosim/perf-sim", xdg); /* the default cache */
    setenv("XDG_CACHE_HOME", xdg, 1);
    run_out r = plain_import(REAL("pa_small1_dump"), NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_str_eq(r.err, MODEL_NOTE); /* no trees found: nothing said */
    char *plain = strdup(r.out);
    tu_run_free(&r);
    setenv("PTO_ISA_ROOT", f.pto, 1);
    setenv("SIMPLER_ROOT", f.rt, 1);
    char note[4096];
    int n = snprintf(note, sizeof(note),
                     MODEL_NOTE "ptosim import: note: pto-isa (%s) and the runtime's tree (%s) are here and the "
                                "capture has an args dump: --costs perf-sim with --kernels (the runtime's test .py) "
                                "prices each kernel by its own code",
                     f.pto, f.rt);
    r = plain_import(REAL("pa_small1_dump"), NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    snprintf(note + n, sizeof(note) - (size_t)n, "\n");
    ck_assert_str_eq(r.err, note);
    ck_assert_str_eq(r.out, plain); /* the graph as without it */
    ck_assert(!tu_exists(xdg));     /* no cache made by a look */
    tu_run_free(&r);
    /* with --quiet, or a capture without an args dump: nothing */
    r = plain_import(REAL("pa_small1_dump"), "--quiet");
    ck_assert_str_eq(r.err, MODEL_NOTE);
    ck_assert_str_eq(r.out, plain);
    tu_run_free(&r);
    r = plain_import(REAL("pams_small1"), NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(!strstr(r.err, "--costs perf-sim"), "%s", r.err);
    tu_run_free(&r);
    /* once --costs perf-sim has priced these kernels, the cache's figures against the model's. Perf-Sim's at
     * 1.85 GHz: QK 41 cycles 22 ns, fixpipe 13 the busiest; SF 431, 233 ns, vector 403; PV 42, 23 ns; UP 45, 24
     * ns, mte2 38. The model's on a2a3 (1.8 GHz, a pipe's bytes rounded up to whole cycles): QK and PV 1024 B at
     * 135 GiB/s (13 cycles) + mte1 2 + cube 1 + fixpipe 1024 B at 139.9 GiB/s (13): 29 cycles, 16 ns; SF 1024 B
     * at 100.9 GiB/s (18) + 359 vector + 640 B at 188.46 GiB/s (6): 383 cycles, 213 ns; UP 3328 B at 100.9 GiB/s
     * (56) + 256 FLOAT32 at 256 B a cycle (4) + 2176 B at 188.46 GiB/s (20): 80 cycles, 44 ns */
    r = fake_import(&f, NULL, NULL, NULL, NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    ck_assert_int_eq(lines(f.clog), 4);
    r = plain_import(REAL("pa_small1_dump"), NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    snprintf(note + n, sizeof(note) - (size_t)n,
             "; its cache holds Perf-Sim's figures for them, against the model's: QK 22 ns (fixpipe) vs 16 ns "
             "(mte2), SF 233 ns (vector) vs 213 ns (vector), PV 23 ns (fixpipe) vs 16 ns (mte2), UP 24 ns (mte2) "
             "vs 44 ns (mte2)\n");
    ck_assert_str_eq(r.err, note);
    ck_assert_str_eq(r.out, plain);
    tu_run_free(&r);
    /* a kernel changed since: its binary is not in the cache, so no figures, and nothing compiled */
    fake_kernel(&f, 1, "500 20 6 0 17 0 0 0 480 10 1600 0 0", "// changed");
    r = plain_import(REAL("pa_small1_dump"), NULL);
    note[n] = '\0';
    ck_assert_msg(strncmp(r.err, note, (size_t)n) == 0 && !strcmp(r.err + n, "\n"), "%s", r.err);
    tu_run_free(&r);
    ck_assert_int_eq(lines(f.clog), 4);
    ck_assert_int_eq(lines(f.rlog), 4);
    unsetenv("PTO_ISA_ROOT");
    unsetenv("SIMPLER_ROOT");
    unsetenv("XDG_CACHE_HOME");
    free(plain);
}
END_TEST

/* ---- the cache keyed by content: the bytes a compile read, never the paths it read them by ---- */

/* Imports pa_small1_dump with the trees from the environment (PTO_ISA_ROOT, SIMPLER_ROOT), not flags. */
static run_out env_import(const fake *f, const char *pto, const char *rt)
{
    setenv("PTO_ISA_ROOT", pto, 1);
    setenv("SIMPLER_ROOT", rt, 1);
    char k[4][1200];
    const char *args[32] = {"import", REAL("pa_small1_dump"), "--costs", "perf-sim", "--cache", f->cache, "-j",
                            "2", "--quiet"};
    int n = 9;
    for (int i = 0; i < 4; i++) {
        snprintf(k[i], sizeof(k[i]), "%s=%s", NAMES[i], f->src[i]);
        args[n++] = "--kernel";
        args[n++] = k[i];
    }
    args[n] = NULL;
    run_out r = tu_run(args);
    unsetenv("PTO_ISA_ROOT");
    unsetenv("SIMPLER_ROOT");
    return r;
}

START_TEST(two_spellings_of_one_tree_compile_once)
{
    fake f;
    fake_setup(&f);
    run_out r = fake_import(&f, NULL, NULL, NULL, NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    char *first = strdup(r.out);
    tu_run_free(&r);
    ck_assert_int_eq(lines(f.clog), 4);
    /* the same trees spelled otherwise on the command line, then through a link in the environment */
    char pto[1200], rt[1200];
    snprintf(f.pto, sizeof(f.pto), "%s/./pto", f.dir);
    snprintf(f.rt, sizeof(f.rt), "%s/rt/../rt/", f.dir);
    r = fake_import(&f, NULL, NULL, NULL, NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_str_eq(r.out, first);
    tu_run_free(&r);
    snprintf(pto, sizeof(pto), "%s/pto-link", f.dir);
    snprintf(rt, sizeof(rt), "%s/rt", f.dir);
    ck_assert_int_eq(symlink("pto", pto), 0);
    r = env_import(&f, pto, rt);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_str_eq(r.out, first);
    tu_run_free(&r);
    ck_assert_int_eq(lines(f.clog), 4); /* compiled nothing, ran nothing */
    ck_assert_int_eq(lines(f.rlog), 4);
    free(first);
}
END_TEST

/* Copies a folder whole (cp -R: the test's own files). */
static void copy_tree(const char *from, const char *to)
{
    const char *args[] = {"/bin/cp", "-R", from, to, NULL};
    run_out r = tu_run_prog(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
}

/* The kernels' copies in folder dir (made), as the sources f names. */
static void move_kernels(fake *f, const char *dir)
{
    mkdirs(dir);
    for (int i = 0; i < 4; i++) {
        char *p = tu_copy(dir, strrchr(f->src[i], '/') + 1, f->src[i]);
        snprintf(f->src[i], sizeof(f->src[i]), "%s", p);
        free(p);
    }
}

/* Another user's checkout of the same trees, and another capture's copies of the same kernels: one compile. A
 * byte changed in a header the compile read compiles again every kernel that read it. */
START_TEST(two_copies_of_one_tree_and_of_its_kernels_compile_once_and_a_changed_header_compiles_again)
{
    fake f;
    fake_setup(&f);
    run_out r = fake_import(&f, NULL, NULL, NULL, NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char p[1200];
    snprintf(p, sizeof(p), "%s/other/pto", f.dir);
    mkdirs(p);
    copy_tree(f.pto, p);
    snprintf(f.pto, sizeof(f.pto), "%s/other/pto/pto", f.dir);
    snprintf(p, sizeof(p), "%s/other", f.dir);
    copy_tree(f.rt, p);
    snprintf(f.rt, sizeof(f.rt), "%s/other/rt", f.dir);
    snprintf(p, sizeof(p), "%s/twin/kernels", f.dir);
    move_kernels(&f, p);
    r = fake_import(&f, NULL, NULL, NULL, NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "\"cycles\": 431"), "%s", r.out);
    tu_run_free(&r);
    ck_assert_int_eq(lines(f.clog), 4);
    ck_assert_int_eq(lines(f.rlog), 4);
    /* one byte of the runtime's tensor.h (every kernel's compile read it) */
    char *t = tu_write(f.rt, "src/common/task_interface/tensor.h", "// stand-iN\n");
    free(t);
    r = fake_import(&f, NULL, NULL, NULL, NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    ck_assert_int_eq(lines(f.clog), 8);
}
END_TEST

/* A kernel's quoted include is looked for beside it first: a copy of the kernel beside a header of that name is
 * compiled again (that header is what it would read), a copy beside none is not. */
START_TEST(a_kernel_beside_a_header_it_includes_by_quotes_is_compiled_again)
{
    fake f;
    fake_setup(&f);
    fake_kernel(&f, 0, FIGURES[0], "#include \"pipe_sync.h\"");
    run_out r = fake_import(&f, NULL, NULL, NULL, NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    ck_assert_int_eq(lines(f.clog), 4);
    char p[1200];
    snprintf(p, sizeof(p), "%s/plain", f.dir);
    move_kernels(&f, p);
    r = fake_import(&f, NULL, NULL, NULL, NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    ck_assert_int_eq(lines(f.clog), 4);
    snprintf(p, sizeof(p), "%s/beside", f.dir);
    move_kernels(&f, p);
    free(tu_write(p, "pipe_sync.h", "// the kernel's own\n"));
    r = fake_import(&f, NULL, NULL, NULL, NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    ck_assert_int_eq(lines(f.clog), 5); /* QK alone */
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

/* A graph holds at most 10^12 cycles and 2^40 GM bytes a pipe (pipe.h): a figure past them (found by the fuzz
 * target of the result readers) fails the kernel by name, rather than the graph import writes. */
START_TEST(a_result_past_what_a_graph_holds_is_a_kernel_failure_not_a_graph_that_does_not_validate)
{
    fake f;
    fake_setup(&f);
    fake_kernel(&f, 1, "1000000000001 20 6 0 17 0 0 0 403 10 1600 0 0", NULL);
    fake_kernel(&f, 2, "42 11 8 5 12 8 7 13 0 0 1099511627777 0 1024", NULL);
    run_out r = fake_import(&f, NULL, NULL, NULL, NULL);
    ck_assert_int_eq(r.status, 3);
    char want[4096];
    snprintf(want, sizeof(want),
             "ptosim import: kernel SF (%s): Perf-Sim measured more than a graph holds (1000000000000 cycles, "
             "1099511627776 GM bytes a pipe) for 3 of its 3 tasks; kernel PV (%s): Perf-Sim measured more than a "
             "graph holds (1000000000000 cycles, 1099511627776 GM bytes a pipe) for 3 of its 3 tasks (--fallback "
             "model keeps the model's cost for these)\n",
             f.src[1], f.src[2]);
    ck_assert_str_eq(r.err, want);
    ck_assert_str_eq(r.out, "");
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
    ck_assert_str_eq(r.err, "ptosim import: --costs perf-sim needs a pto-isa tree: --pto-isa DIR, PTO_ISA_ROOT or "
                            "a folder pto-isa where import runs (pto-isa 995589ab is known to work)\n");
    tu_run_free(&r);
    /* ./pto-isa and ./simpler where import runs are the trees, as the note of a plain import says: with only
     * the first, the second is what is missing; with both, the import prices */
    char here[1024], link[1100];
    ck_assert_ptr_nonnull(getcwd(here, sizeof(here)));
    ck_assert_int_eq(chdir(f.dir), 0);
    snprintf(link, sizeof(link), "%s/pto-isa", f.dir);
    ck_assert_int_eq(symlink(f.pto, link), 0);
    unsetenv("SIMPLER_ROOT");
    r = tu_run(no_tree);
    ck_assert_int_eq(r.status, 3);
    ck_assert_str_eq(r.err, "ptosim import: --costs perf-sim needs the runtime's tree for its kernels' headers "
                            "(simpler_setup/incore, src/common): --runtime-include DIR, SIMPLER_ROOT or a folder "
                            "simpler where import runs\n");
    tu_run_free(&r);
    snprintf(link, sizeof(link), "%s/simpler", f.dir);
    ck_assert_int_eq(symlink(f.rt, link), 0);
    char k0[1200];
    snprintf(k0, sizeof(k0), "%s=%s", NAMES[0], f.src[0]);
    char cache[1100];
    snprintf(cache, sizeof(cache), "%s/cache-here", f.dir); /* the test's own cache stays unused below */
    const char *here_trees[] = {"import", REAL("pa_small1_dump"), "--costs", "perf-sim", "--cache", cache,
                                "--quiet", "--fallback", "model", "--kernel", k0, NULL};
    r = tu_run(here_trees);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_ptr_nonnull(strstr(r.out, "\"name\": \"QK\", \"core\": \"aic\", \"cost\": {\"perf_sim\""));
    tu_run_free(&r);
    ck_assert_int_eq(lines(f.clog), 1); /* QK's compile; the checks below compile nothing */
    FILE *clog = fopen(f.clog, "w");
    ck_assert_ptr_nonnull(clog);
    fclose(clog);
    ck_assert_int_eq(chdir(here), 0);
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
    /* usage: a perf-sim option without --costs perf-sim, a bad -j or time limit, a fallback that is not the
     * model */
    static const struct {
        const char *a, *b, *err;
    } usage[] = {
        {"--kernel", "QK=x.cpp", "ptosim import: --kernel is for --costs perf-sim\n"},
        {"-j", "0", "ptosim import: -j 0: give a whole number in [1, 256]\n"},
        {"--fallback", "swimlane", "ptosim import: --fallback swimlane: the only fallback is model\n"},
        {"--time-limit", "0", "ptosim import: --time-limit 0: give seconds, a number in (0, 86400]\n"},
        {"--time-limit", "2", "ptosim import: --time-limit is for --costs perf-sim\n"},
        {"--shared-cache", NULL, "ptosim import: --shared-cache is for --costs perf-sim\n"},
        {"--jobs", "0", "ptosim import: --jobs 0: give a whole number in [1, 256]\n"},
        {"-j4", NULL, "ptosim import: -j is for --costs perf-sim\n"}, /* a letter's value attached */
        /* a value quoted in a message: the bytes a terminal would act on escaped */
        {"--time-limit", "\033[2J",
         "ptosim import: --time-limit \\x1b[2J: give seconds, a number in (0, 86400]\n"},
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

/* bgemm64_dump's args dump holds only the args in each kernel's signature (GEMM: 0-2, ADD: 0-1), while its
 * tasks read the INT64[4] config too (deps.json: GEMM arg 3, ADD arg 2, on each of their 32 tasks). Nothing
 * compiles until every value is given; --values gives it, and the harness reads it: [64, 4, 8, 1] as INT64
 * (dtype 7), little-endian, one element of stride 1 at offset 0. */
START_TEST(a_value_the_args_dump_lacks_is_refused_before_anything_compiles_and_values_give_it)
{
    fake f;
    fake_setup(&f);
    char *gemm = tu_write(f.dir, "GEMM.cpp", "// fake: 985 11 8 5 418 98 262 202 0 0 32768 0 16384\n");
    char *add = tu_write(f.dir, "ADD.cpp", "// fake: 862 7 6 0 558 0 0 0 152 149 32768 16384 0\n");
    char kg[1200], ka[1200], spec[1200];
    snprintf(kg, sizeof(kg), "GEMM=%s", gemm);
    snprintf(ka, sizeof(ka), "ADD=%s", add);
    snprintf(spec, sizeof(spec), "%s/spec.log", f.dir);
    const char *args[] = {"import", REAL("bgemm64_dump"), "--costs", "perf-sim", "--pto-isa", f.pto,
                          "--runtime-include", f.rt, "--cache", f.cache, "--kernel", kg, "--kernel", ka, NULL, NULL,
                          NULL};
    run_out r = tu_run(args);
    ck_assert_int_eq(r.status, 3);
    ck_assert_str_eq(r.err, "ptosim import: kernel GEMM arg 3 (an INT64 [4] input of 32 tasks), kernel ADD arg 2 (an "
                            "INT64 [4] input of 32 tasks): not in the args dump (the runtime dumps only the args in a "
                            "kernel's signature) and not given by --values; give them in a --values table: {\"GEMM\": "
                            "{\"inputs\": {\"3\": [4 numbers]}}, \"ADD\": {\"inputs\": {\"2\": [4 numbers]}}}\n");
    ck_assert_str_eq(r.out, "");
    ck_assert_int_eq(lines(f.clog), 0);
    tu_run_free(&r);
    /* one of the two given: the other is still named, alone */
    char *half = tu_write(f.dir, "half.json", "{\"GEMM\": {\"inputs\": {\"3\": [64, 4, 8, 1]}}}");
    args[14] = "--values";
    args[15] = half;
    r = tu_run(args);
    ck_assert_int_eq(r.status, 3);
    ck_assert_str_eq(r.err, "ptosim import: kernel ADD arg 2 (an INT64 [4] input of 32 tasks): not in the args dump "
                            "(the runtime dumps only the args in a kernel's signature) and not given by --values; give "
                            "it in a --values table: {\"ADD\": {\"inputs\": {\"2\": [4 numbers]}}}\n");
    ck_assert_int_eq(lines(f.clog), 0);
    tu_run_free(&r);
    /* both given (ADD by its id): priced, and the runs read the config */
    char *values = tu_write(f.dir, "v.json", "{\"GEMM\": {\"inputs\": {\"3\": [64, 4, 8, 1]}}, "
                                             "\"1\": {\"inputs\": {\"2\": [64, 4, 8, 1]}}}");
    args[15] = values;
    setenv("FAKE_SPEC", spec, 1);
    r = tu_run(args);
    unsetenv("FAKE_SPEC");
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "\"cycles\": 985"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "\"cycles\": 862"), "%s", r.out);
    ck_assert_int_eq(lines(f.clog), 2);
    tu_run_free(&r);
    char *sp = tu_read(spec);
    ck_assert_msg(strstr(sp, "\nt 3 7 1 4 1 0 4 32 4000000000000000040000000000000008000000000000000100000000000000\n"),
                  "%s", sp);
    ck_assert_msg(strstr(sp, "\nt 2 7 1 4 1 0 4 32 4000000000000000040000000000000008000000000000000100000000000000\n"),
                  "%s", sp);
    free(sp);
    /* a kernel given twice, by its name and by its id */
    char *twice = tu_write(f.dir, "twice.json", "{\"GEMM\": {\"inputs\": {\"3\": [64, 4, 8, 1]}}, "
                                                "\"0\": {\"inputs\": {\"3\": [64, 4, 8, 1]}}}");
    args[15] = twice;
    r = tu_run(args);
    ck_assert_int_eq(r.status, 3);
    char want[2048];
    snprintf(want, sizeof(want), "ptosim import: %s: 0: kernel GEMM has an entry already\n", twice);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    free(twice);
    free(values);
    free(half);
    free(gemm);
    free(add);
}
END_TEST

/* A harness run that crashes or fails is said as such (the signal, the exit status, what it printed), never as
 * a compile failure, and nothing of it is kept: the next import runs it again (and compiles nothing). */
START_TEST(a_crashed_harness_run_is_named_by_its_signal_and_not_cached)
{
    fake f;
    fake_setup(&f);
    fake_kernel(&f, 1, FIGURES[1], "// FAKE_RUN_EXIT");
    fake_kernel(&f, 2, FIGURES[2], "// FAKE_RUN_NORESULT");
    fake_kernel(&f, 3, FIGURES[3], "// FAKE_RUN_SEGV");
    setenv("FAKE_RUN_FAIL", "1", 1);
    run_out r = fake_import(&f, NULL, NULL, NULL, NULL);
    unsetenv("FAKE_RUN_FAIL");
    ck_assert_int_eq(r.status, 3);
    char want[8192];
    snprintf(want, sizeof(want),
             "ptosim import: kernel SF (%s): its Perf-Sim run failed with exit status 3 (fake harness: bad tensor "
             "line); kernel PV (%s): its Perf-Sim run wrote no results (it printed nothing); kernel UP (%s): its "
             "Perf-Sim run was killed by SIGSEGV (it printed nothing) (--fallback model keeps the model's cost for "
             "these)\n",
             f.src[1], f.src[2], f.src[3]);
    ck_assert_str_eq(r.err, want);
    ck_assert_str_eq(r.out, "");
    ck_assert_int_eq(lines(f.clog), 4);
    ck_assert_int_eq(lines(f.rlog), 4); /* one batch a kernel */
    tu_run_free(&r);
    /* the same binaries, now running well: the three failed runs run again, QK's result comes from the cache */
    r = fake_import(&f, NULL, NULL, NULL, NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_int_eq(lines(f.clog), 4);
    ck_assert_int_eq(lines(f.rlog), 7);
    ck_assert_msg(strstr(r.out, "\"cycles\": 45,"), "%s", r.out);
    tu_run_free(&r);
}
END_TEST

/* The runtime's vector_example names its incores by func_id only ("func_id": 0, no "name"), and vector_dump2
 * has no name map: the graph shows func0, func1, func2. A test file's func_ids, and a JSON table keyed by those
 * names or by the ids, give the kernels their sources. func1 (add a scalar) takes the FLOAT32 scalar 1.0 in
 * args[2], which the dump writes as a value and the kernel reads as its bits: 0x3f800000 = 1065353216. */
START_TEST(a_test_files_incores_by_func_id_and_a_table_of_the_graphs_names_give_the_sources)
{
    fake f;
    fake_setup(&f);
    char p[2048], spec[1200];
    snprintf(p, sizeof(p), "%s/ve/kernels/aiv", f.dir);
    mkdirs(p);
    static const char *const files[3] = {"kernel_add.cpp", "kernel_add_scalar.cpp", "kernel_mul.cpp"};
    for (int i = 0; i < 3; i++)
        free(tu_write(p, files[i], "// fake: 2884 7 6 0 2238 0 0 0 44 599 131072 65536 0\n"));
    snprintf(p, sizeof(p), "%s/ve", f.dir);
    char *py = tu_write(p, "test_vector_example.py",
                        "CALLABLE = {\n    \"incores\": [\n"
                        "        {\n            \"func_id\": 0,\n            \"source\": \"kernels/aiv/kernel_add.cpp\",\n"
                        "            \"core_type\": \"aiv\",\n            \"signature\": [D.IN, D.IN, D.OUT],\n        },\n"
                        "        {\"func_id\": 1, \"source\": \"kernels/aiv/kernel_add_scalar.cpp\", \"core_type\": \"aiv\"},\n"
                        "        {\"func_id\": 2, \"source\": \"kernels/aiv/kernel_mul.cpp\", \"core_type\": \"aiv\"},\n"
                        "    ],\n}\n");
    snprintf(spec, sizeof(spec), "%s/spec.log", f.dir);
    const char *args[] = {"import", REAL("vector_dump2"), "--costs", "perf-sim", "--pto-isa", f.pto,
                          "--runtime-include", f.rt, "--cache", f.cache, "--kernels", py, NULL};
    setenv("FAKE_SPEC", spec, 1);
    run_out r = tu_run(args);
    unsetenv("FAKE_SPEC");
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_int_eq(lines(f.clog), 3);
    for (int i = 0; i < 3; i++) {
        char want[256];
        snprintf(want, sizeof(want), "{\"id\": %d, \"name\": \"func%d\", \"core\": \"aiv\", \"cost\": {\"perf_sim\"", i,
                 i);
        ck_assert_msg(strstr(r.out, want), "%s", r.out);
    }
    tu_run_free(&r);
    char *sp = tu_read(spec);
    ck_assert_msg(strstr(sp, "\ns 2 1065353216\ns 3 3\n"), "%s", sp);
    free(sp);
    /* a JSON table keyed by the graph's names, or by the ids */
    char *table = tu_write(f.dir, "k.json", "{\"func0\": \"ve/kernels/aiv/kernel_add.cpp\", \"1\": "
                                            "\"ve/kernels/aiv/kernel_add_scalar.cpp\", \"func2\": {\"source\": "
                                            "\"ve/kernels/aiv/kernel_mul.cpp\", \"core\": \"aiv\"}}");
    args[11] = table;
    r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_int_eq(lines(f.clog), 3); /* the same sources: nothing compiles again */
    tu_run_free(&r);
    /* a func_id given twice, and a test file with neither names nor func_ids */
    char *dup = tu_write(p, "dup.py", "CALLABLE = {\"incores\": [{\"func_id\": 1, \"source\": \"a.cpp\"}, "
                                      "{\"func_id\": 1, \"source\": \"b.cpp\"}]}\n");
    args[11] = dup;
    r = tu_run(args);
    ck_assert_int_eq(r.status, 3);
    char want[4096];
    snprintf(want, sizeof(want), "ptosim import: %s: kernel func_id 1 has a source already (%s)\n", dup, dup);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    char *none = tu_write(p, "none.py", "CALLABLE = {\"incores\": [{\"source\": \"a.cpp\", \"core_type\": \"aiv\"}]}\n");
    args[11] = none;
    r = tu_run(args);
    ck_assert_int_eq(r.status, 3);
    snprintf(want, sizeof(want),
             "ptosim import: %s: no kernels found (a runtime test file lists them in CALLABLE[\"incores\"] as "
             "{\"func_id\": ..., \"name\": ..., \"source\": ..., \"core_type\": ...}, with a name or a func_id)\n",
             none);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    free(none);
    free(dup);
    free(table);
    free(py);
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

/* ---- the cache: trusted only as its user chose, each entry checked against what it records ---- */

/* FIPS 180-4's examples (and its one-million-'a' message) */
START_TEST(sha256_gives_the_standards_digests)
{
    static const struct {
        const char *msg, *hex;
    } v[] = {
        {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
    };
    /* both sets of rounds: the portable ones, then the CPU's SHA extensions where it has them */
    for (int want = 0; want <= 1; want++) {
        if (sha256_accel(want) != want) {
            printf("sha256: this CPU has no SHA extensions; only the portable rounds were checked\n");
            continue;
        }
        char hex[SHA256_HEX];
        for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
            sha256_ctx c;
            sha256_init(&c);
            sha256_update(&c, v[i].msg, strlen(v[i].msg));
            sha256_hex(&c, hex);
            ck_assert_str_eq(hex, v[i].hex);
        }
        sha256_ctx c;
        sha256_init(&c);
        char a[1000];
        memset(a, 'a', sizeof(a));
        for (int i = 0; i < 1000; i++) /* 500,000 bytes in pieces that straddle the 64-byte blocks */
            sha256_update(&c, a, i % 2 ? 1 : 999);
        for (int i = 0; i < 500; i++) /* and 500,000 more */
            sha256_update(&c, a, 1000);
        sha256_hex(&c, hex);
        ck_assert_str_eq(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    }
    sha256_accel(1); /* the default: the extensions where present */
}
END_TEST

/* The two sets of rounds agree on every length from 0 to 300 bytes and on a 1 MiB message given whole,
 * in one call and in pieces of odd sizes. */
START_TEST(sha256_the_cpus_rounds_give_the_portable_digests)
{
    if (!sha256_accel(1)) {
        printf("sha256: this CPU has no SHA extensions; the comparison was skipped\n");
        return;
    }
    size_t big = 1 << 20;
    unsigned char *m = malloc(big);
    ck_assert_ptr_nonnull(m);
    uint32_t x = 2463534242u; /* xorshift32: any bytes will do, the same each time */
    for (size_t i = 0; i < big; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        m[i] = (unsigned char)x;
    }
    char port[SHA256_HEX], cpu[SHA256_HEX];
    for (size_t len = 0; len <= 301; len++) {
        size_t n = len == 301 ? big : len;
        sha256_ctx c;
        sha256_accel(0);
        sha256_init(&c);
        sha256_update(&c, m, n);
        sha256_hex(&c, port);
        sha256_accel(1);
        sha256_init(&c);
        for (size_t off = 0, step = 1; off < n; off += step, step = step * 3 % 257 + 1)
            sha256_update(&c, m + off, step < n - off ? step : n - off);
        sha256_hex(&c, cpu);
        ck_assert_msg(strcmp(port, cpu) == 0, "%zu bytes: %s (portable) vs %s (SHA extensions)", n, port,
                      cpu);
    }
    sha256_accel(1); /* the default: the extensions where present */
    free(m);
}
END_TEST

/* The first entry of a cache folder (its name, "" if none). */
static void first_entry(const fake *f, const char *sub, char *path, size_t len)
{
    char dir[1200];
    snprintf(dir, sizeof(dir), "%s/%s", f->cache, sub);
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    struct dirent *e;
    path[0] = '\0';
    while ((e = readdir(d)))
        if (e->d_name[0] != '.') {
            snprintf(path, len, "%s/%s", dir, e->d_name);
            break;
        }
    closedir(d);
    ck_assert_msg(path[0], "no entry in %s", dir);
}

static unsigned mode_of(const char *path)
{
    struct stat st;
    ck_assert_int_eq(lstat(path, &st), 0);
    return (unsigned)(st.st_mode & 07777);
}

/* The refusal of a cache folder or entry someone else can write (as root: the owner and mode are set). */
static void assert_refused(const fake *f, const char *path, const char *what, const char *cause, unsigned uid,
                           unsigned mode, const char *fix)
{
    run_out r = fake_import(f, NULL, NULL, NULL, NULL);
    ck_assert_int_eq(r.status, 3);
    char want[4096];
    snprintf(
        want, sizeof(want),
        "ptosim import: %s: refused: a Perf-Sim cache %s %s (owner uid %u, mode %04o; you are uid %u): "
        "ptosim "
        "runs what its cache holds and takes its figures as measured, so no other user may be able to write "
        "it; %s, or give --shared-cache if this cache is shared on purpose\n",
        path, what, cause, uid, mode, (unsigned)geteuid(), fix);
    ck_assert_str_eq(r.err, want);
    ck_assert_str_eq(r.out, "");
    tu_run_free(&r);
}

#define OTHER_UID 4242 /* "another user": the tests run as root, which can give a file away */

START_TEST(the_cache_is_made_for_its_user_alone_and_refused_when_another_can_write_it)
{
    fake f;
    fake_setup(&f);
    umask(022);
    run_out r = fake_import(&f, NULL, NULL, NULL, NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    /* made 0700, its entries 0600 */
    char p[2048], res[2048], bin[2048];
    ck_assert_uint_eq(mode_of(f.cache), 0700);
    static const char *const subs[] = {"bin", "dep", "res"};
    for (int i = 0; i < 3; i++) {
        snprintf(p, sizeof(p), "%s/%s", f.cache, subs[i]);
        ck_assert_uint_eq(mode_of(p), 0700);
    }
    first_entry(&f, "res", res, sizeof(res));
    first_entry(&f, "bin", bin, sizeof(bin));
    ck_assert_uint_eq(mode_of(res), 0600);
    ck_assert_uint_eq(mode_of(bin), 0600);
    /* the folder: others can write it; another user owns it */
    char fix[2100];
    ck_assert_int_eq(chmod(f.cache, 0770), 0);
    snprintf(fix, sizeof(fix), "chmod go-w %s", f.cache);
    assert_refused(&f, f.cache, "folder", "that others can write", (unsigned)geteuid(), 0770, fix);
    ck_assert_int_eq(chmod(f.cache, 0700), 0);
    ck_assert_int_eq(chown(f.cache, OTHER_UID, OTHER_UID), 0);
    assert_refused(&f, f.cache, "folder", "owned by another user", OTHER_UID, 0700,
                   "use a folder of your own (--cache DIR)");
    r = fake_import(&f, "--shared-cache", NULL, NULL, NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    ck_assert_int_eq(chown(f.cache, geteuid(), getegid()), 0);
    /* a folder in it */
    snprintf(p, sizeof(p), "%s/dep", f.cache);
    ck_assert_int_eq(chmod(p, 0702), 0);
    snprintf(fix, sizeof(fix), "chmod go-w %s", p);
    assert_refused(&f, p, "folder", "that others can write", (unsigned)geteuid(), 0702, fix);
    ck_assert_int_eq(chmod(p, 0700), 0);
    /* an entry another user owns, one others can write */
    ck_assert_int_eq(chown(res, OTHER_UID, OTHER_UID), 0);
    assert_refused(&f, res, "entry", "owned by another user", OTHER_UID, 0600, "delete it");
    r = fake_import(&f, "--shared-cache", NULL, NULL, NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    ck_assert_int_eq(chown(res, geteuid(), getegid()), 0);
    ck_assert_int_eq(chmod(bin, 0620), 0);
    snprintf(fix, sizeof(fix), "chmod go-w %s", bin);
    assert_refused(&f, bin, "entry", "that others can write", (unsigned)geteuid(), 0620, fix);
    ck_assert_int_eq(chmod(bin, 0600), 0);
    /* links are never followed: an entry, a folder */
    char moved[2100], want[4600];
    snprintf(moved, sizeof(moved), "%s.moved", res);
    ck_assert_int_eq(rename(res, moved), 0);
    ck_assert_int_eq(symlink(moved, res), 0);
    r = fake_import(&f, NULL, NULL, NULL, NULL);
    ck_assert_int_eq(r.status, 3);
    snprintf(
        want, sizeof(want),
        "ptosim import: %s: refused: a Perf-Sim cache entry that is a symbolic link or not a regular file; "
        "delete it\n",
        res);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    ck_assert_int_eq(unlink(res), 0);
    ck_assert_int_eq(rename(moved, res), 0);
    snprintf(p, sizeof(p), "%s/res", f.cache);
    snprintf(moved, sizeof(moved), "%s/res.moved", f.cache);
    ck_assert_int_eq(rename(p, moved), 0);
    ck_assert_int_eq(symlink(moved, p), 0);
    r = fake_import(&f, NULL, NULL, NULL, NULL);
    ck_assert_int_eq(r.status, 3);
    snprintf(
        want, sizeof(want),
        "ptosim import: %s: refused: a Perf-Sim cache folder that is a symbolic link or not a folder; delete "
        "it\n",
        p);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    ck_assert_int_eq(unlink(p), 0);
    ck_assert_int_eq(rename(moved, p), 0);
    /* everything back as it was: the cache serves again, nothing compiled or run */
    r = fake_import(&f, NULL, NULL, NULL, NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    ck_assert_int_eq(lines(f.clog), 4);
    ck_assert_int_eq(lines(f.rlog), 4);
}
END_TEST

/* Replaces path's content (keeping the entry's owner and mode, as another writer of a shared cache could). */
static void overwrite(const char *path, const char *text, size_t len)
{
    FILE *fp = fopen(path, "r+");
    ck_assert_ptr_nonnull(fp);
    ck_assert_uint_eq(fwrite(text, 1, len, fp), len);
    ck_assert_int_eq(ftruncate(fileno(fp), (off_t)len), 0);
    fclose(fp);
}

/* A cache shared on purpose (mode 1777, as /tmp): another member who swaps a binary or edits a result is
 * found out by the entry's digest, and nothing of theirs runs. */
START_TEST(a_shared_cache_runs_no_swapped_binary_and_takes_no_forged_figures)
{
    fake f;
    fake_setup(&f);
    ck_assert_int_eq(mkdir(f.cache, 0700), 0);
    ck_assert_int_eq(chmod(f.cache, 01777), 0);
    run_out r = fake_import(&f, "--shared-cache", NULL, NULL, NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char p[2048], res[2048], bin[2048], want[4600];
    snprintf(p, sizeof(p), "%s/res", f.cache);
    ck_assert_uint_eq(mode_of(p), 01777); /* the team's folder's own mode */
    first_entry(&f, "res", res, sizeof(res));
    ck_assert_uint_eq(mode_of(res), 0644);
    /* a result edited in place, its length kept */
    char *t = tu_read(res);
    char *fig = strstr(t, "\nr ");
    ck_assert_ptr_nonnull(fig);
    char *num = strchr(fig + 3, ' ') + 1; /* the total, after the id */
    ck_assert(*num >= '1' && *num <= '8');
    (*num)++;
    overwrite(res, t, strlen(t));
    free(t);
    r = fake_import(&f, "--shared-cache", NULL, NULL, NULL);
    ck_assert_int_eq(r.status, 3);
    snprintf(
        want, sizeof(want),
        "ptosim import: %s: refused: a Perf-Sim cache entry that is not what its name says (its content's "
        "SHA-256 is not the one its header records): it was changed after ptosim wrote it; delete it to have "
        "it made again\n",
        res);
    ck_assert_str_eq(r.err, want);
    ck_assert_str_eq(r.out, "");
    tu_run_free(&r);
    /* the same figures without the header; a longer line under it */
    overwrite(res, "r 0 999999 11 8 5 12 7 7 13 0 0 1024 0 1024\n", 44);
    r = fake_import(&f, "--shared-cache", NULL, NULL, NULL);
    ck_assert_int_eq(r.status, 3);
    snprintf(
        want, sizeof(want),
        "ptosim import: %s: refused: a Perf-Sim cache entry that is not what its name says (it has no "
        "ptosim-perfsim-3 header): it was changed after ptosim wrote it; delete it to have it made again\n",
        res);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    ck_assert_int_eq(unlink(res), 0); /* deleted: made again by a run */
    r = fake_import(&f, "--shared-cache", NULL, NULL, NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    ck_assert_int_eq(lines(f.rlog), 5);
    /* a binary swapped for a script of the other member's, the results dropped so that it would run */
    first_entry(&f, "bin", bin, sizeof(bin));
    char pwned[1100], script[1300];
    snprintf(pwned, sizeof(pwned), "%s/PWNED", f.dir);
    snprintf(script, sizeof(script), "#!/bin/sh\ntouch %s\n", pwned);
    ck_assert_int_eq(unlink(bin), 0);
    DIR *d = opendir(p); /* p: res/ */
    ck_assert_ptr_nonnull(d);
    for (struct dirent *e; (e = readdir(d));)
        if (e->d_name[0] != '.')
            ck_assert_int_eq(unlinkat(dirfd(d), e->d_name, 0), 0);
    closedir(d);
    char *b = tu_write(f.dir, "evil", script);
    ck_assert_int_eq(chmod(b, 0755), 0);
    ck_assert_int_eq(rename(b, bin), 0);
    free(b);
    r = fake_import(&f, "--shared-cache", NULL, NULL, NULL);
    ck_assert_int_eq(r.status, 3);
    snprintf(
        want, sizeof(want),
        "ptosim import: %s: refused: a Perf-Sim cache entry that is not what its name says (it has no "
        "ptosim-perfsim-3 header): it was changed after ptosim wrote it; delete it to have it made again\n",
        bin);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    ck_assert(!tu_exists(pwned));
}
END_TEST

/* A dep list names the files a compile read; one written whole, with its own digest, by another member of a
 * shared cache may name a FIFO or /dev/zero, which would block or never end being read: those are no files
 * a compile read, and the kernel is compiled again. */
START_TEST(a_dep_list_naming_a_fifo_or_a_device_does_not_hang_the_import)
{
    fake f;
    fake_setup(&f);
    ck_assert_int_eq(mkdir(f.cache, 01777), 0);
    ck_assert_int_eq(chmod(f.cache, 01777), 0);
    run_out r = fake_import(&f, "--shared-cache", NULL, NULL, NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char fifo[1100], list[2400], p[1200];
    snprintf(fifo, sizeof(fifo), "%s/fifo", f.dir);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    snprintf(p, sizeof(p), "%s/dep", f.cache);
    DIR *d = opendir(p);
    ck_assert_ptr_nonnull(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char entry[3000];
        snprintf(list, sizeof(list), "%s/%s", p, e->d_name);
        char *was = tu_read(list);
        bool manifest = strncmp(was, "ptosim-perfsim-3 dep ", 21) == 0; /* not a kernel's source (src) */
        free(was);
        if (!manifest)
            continue;
        /* a manifest line: ROOT DIGEST PLACE */
        snprintf(list, sizeof(list), "abs %064d %s\nabs %064d %s\n", 0, n % 2 ? fifo : "/dev/zero", 0,
                 f.src[n % 4]);
        int hn = perfsim_entry_header(entry, sizeof(entry), "dep", e->d_name, list, strlen(list));
        ck_assert_int_gt(hn, 0);
        snprintf(entry + hn, sizeof(entry) - (size_t)hn, "%s", list);
        char *path = tu_write(p, e->d_name, entry);
        free(path);
        n++;
    }
    closedir(d);
    ck_assert_int_eq(n, 4);
    r = fake_import(&f, "--shared-cache", NULL, NULL, NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    ck_assert_int_eq(lines(f.clog), 8);
}
END_TEST

/* What the entry and result readers refuse, each with its reason. */
START_TEST(a_cache_entry_is_read_only_as_what_its_header_records)
{
    static const char key[] = "0123456789abcdef0123456789abcdef";
    const char *line = "r 7 41 11 8 5 12 7 7 13 0 0 1024 0 1024\n";
    char text[512];
    int hn = perfsim_entry_header(text, sizeof(text), "res", key, line, strlen(line));
    ck_assert_int_gt(hn, 0);
    /* the header: format, kind, key, size, SHA-256 of the payload */
    sha256_ctx c;
    sha256_init(&c);
    sha256_update(&c, line, strlen(line));
    char hex[SHA256_HEX], head[256];
    sha256_hex(&c, hex);
    snprintf(head, sizeof(head), "ptosim-perfsim-3 res %s 40 %s\n", key, hex); /* 40 bytes of line */
    ck_assert_str_eq(text, head);
    snprintf(text + hn, sizeof(text) - (size_t)hn, "%s", line);
    size_t len = strlen(text), off;
    const char *why = NULL;
    perfsim_result r;
    ck_assert_int_eq(perfsim_entry_check(text, len, "res", key, &off, &why), 0);
    ck_assert_uint_eq(off, (size_t)hn);
    ck_assert_int_eq(perfsim_read_cached(text, len, key, &r, &why), 0);
    ck_assert_uint_eq(r.total, 41);
    ck_assert_uint_eq(r.busy[PIPE_FIXPIPE], 13);
    ck_assert_uint_eq(r.gm_bytes[PIPE_FIXPIPE], 1024);
    /* another key, another kind, another format, a size or digest that does not match */
    ck_assert_int_eq(perfsim_read_cached(text, len, "0123456789abcdef0123456789abcdee", &r, &why), -1);
    ck_assert_str_eq(why, "its header names another entry");
    ck_assert_int_eq(perfsim_entry_check(text, len, "bin", key, &off, &why), -1);
    ck_assert_str_eq(why, "its header names another entry");
    char bad[512];
    snprintf(bad, sizeof(bad), "ptosim-perfsim-1%s", text + 16);
    ck_assert_int_eq(perfsim_read_cached(bad, len, key, &r, &why), -1);
    ck_assert_str_eq(why, "it has no ptosim-perfsim-3 header");
    ck_assert_int_eq(perfsim_read_cached(text, len - 1, key, &r, &why), -1);
    ck_assert_str_eq(why, "its size is not the size its header records");
    snprintf(bad, sizeof(bad), "%s", text);
    bad[hn + 3] = '8';
    ck_assert_int_eq(perfsim_read_cached(bad, len, key, &r, &why), -1);
    ck_assert_str_eq(why, "its content's SHA-256 is not the one its header records");
    snprintf(bad, sizeof(bad), "ptosim-perfsim-3 res %s 40 %.63sX\n%s", key, hex, line);
    ck_assert_int_eq(perfsim_read_cached(bad, strlen(bad), key, &r, &why), -1);
    ck_assert_str_eq(why, "its header does not read");
    /* a payload with a valid header that is no result line */
    static const char *const not_results[] = {
        "r 7 41 11\n", "r 7 -41 11 8 5 12 7 7 13 0 0 1024 0 1024\n",
        "r 7 18446744073709551616 11 8 5 12 7 7 13 0 0 1024 0 1024\n",
        "r 7 41 11 8 5 12 7 7 13 0 0 1024 0 1024 5\n",
        "r 7 41 11 8 5 12 7 7 13 0 0 1024 0 1024\nr 8 1 1 1 1 1 1 1 1 1 1 1 1\n"};
    for (size_t i = 0; i < sizeof(not_results) / sizeof(not_results[0]); i++) {
        hn = perfsim_entry_header(bad, sizeof(bad), "res", key, not_results[i], strlen(not_results[i]));
        snprintf(bad + hn, sizeof(bad) - (size_t)hn, "%s", not_results[i]);
        ck_assert_int_eq(perfsim_read_cached(bad, strlen(bad), key, &r, &why), -1);
        ck_assert_str_eq(why, "its result does not read");
    }
    /* 2^64 - 1 is a number; the batch reader takes the lines of its kernel's signatures only */
    const char *batch =
        "r 1 18446744073709551615 1 1 1 1 1 1 1 1 1 1 1 1\nnoise\nr 0 5 1 1 1 1 1 1 1 1 1 1 1 1\r\n"
        "r 9 5 1 1 1 1 1 1 1 1 1 1 1 1\n";
    perfsim_sig sigs[2];
    memset(sigs, 0, sizeof(sigs));
    sigs[1].kernel = 1;
    perfsim_result res[2];
    bool have[2] = {false, false};
    ck_assert_uint_eq(perfsim_read_batch(batch, strlen(batch), sigs, 2, 0, res, have), 1);
    ck_assert(have[0] && !have[1]);
    ck_assert_uint_eq(res[0].total, 5);
    ck_assert_uint_eq(perfsim_read_batch(batch, strlen(batch), sigs, 2, 1, res, have), 1);
    ck_assert_uint_eq(res[1].total, UINT64_MAX);
}
END_TEST

/* tmpfs /tmp and ~/.cache on disk: the compiled kernel is stored by a copy in the cache's own folder, never
 * renamed across file systems. /dev/shm is a file system of its own where it exists. */
START_TEST(a_temporary_folder_on_another_file_system_than_the_cache_changes_nothing)
{
    fake f;
    fake_setup(&f);
    char tmp[] = "/dev/shm/ptosim-test-XXXXXX";
    struct stat a, b;
    if (!mkdtemp(tmp)) {
        printf("perf-sim: no /dev/shm: the test of a temporary folder on another file system is skipped\n");
        return;
    }
    ck_assert_int_eq(stat(tmp, &a), 0);
    ck_assert_int_eq(stat(f.dir, &b), 0);
    if (a.st_dev == b.st_dev) {
        rmdir(tmp);
        printf("perf-sim: /dev/shm is no file system of its own: the test is skipped\n");
        return;
    }
    setenv("TMPDIR", tmp, 1);
    run_out r = fake_import(&f, NULL, NULL, NULL, NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "\"cycles\": 431"), "%s", r.out);
    tu_run_free(&r);
    r = fake_import(&f, NULL, NULL, NULL, NULL); /* from the cache */
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    ck_assert_int_eq(lines(f.clog), 4);
    ck_assert_int_eq(lines(f.rlog), 4);
    ck_assert_int_eq(rmdir(tmp), 0); /* and nothing left in it */
}
END_TEST

/* clang writes '$' as "$$", '#' as "\#" and a space as "\ " in its dep file (the stand-in compiler too): a
 * kernel under such a path is found again, and a second import compiles nothing. */
START_TEST(a_kernel_path_with_dollar_hash_and_space_is_read_back_from_the_dep_file)
{
    fake f;
    fake_setup(&f);
    char dir[1200];
    snprintf(dir, sizeof(dir), "%s/k$1 C#2", f.dir);
    mkdirs(dir);
    for (int i = 0; i < 4; i++) {
        char *p = tu_copy(dir, strrchr(f.src[i], '/') + 1, f.src[i]);
        snprintf(f.src[i], sizeof(f.src[i]), "%s", p);
        free(p);
    }
    run_out r = fake_import(&f, NULL, NULL, NULL, NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    r = fake_import(&f, NULL, NULL, NULL, NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    ck_assert_int_eq(lines(f.clog), 4);
    /* the key holds the kernel's content: an edit is seen through the escapes */
    fake_kernel(&f, 1, "500 20 6 0 17 0 0 0 480 10 1600 0 0", "// changed");
    char *p = tu_copy(dir, "SF.cpp", f.src[1]);
    snprintf(f.src[1], sizeof(f.src[1]), "%s", p);
    free(p);
    r = fake_import(&f, NULL, NULL, NULL, NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_int_eq(lines(f.clog), 5);
    ck_assert_msg(strstr(r.out, "\"cycles\": 500"), "%s", r.out);
    tu_run_free(&r);
}
END_TEST

/* ---- compiles and runs: bounded in time, killed with their children, never outliving ptosim ---- */

/* The pids a stand-in hang wrote (up to max); how many. */
static int read_pids(const char *path, pid_t *pids, int max)
{
    char *t = tu_read(path);
    int n = 0;
    for (char *s = t; s && *s && n < max;) {
        pids[n++] = (pid_t)strtol(s, &s, 10);
        while (*s == '\n')
            s++;
    }
    free(t);
    return n;
}

/* Is pid gone (or a zombie no one reaped yet)? Waits a little for a SIGKILL to land. */
static bool gone(pid_t pid)
{
    for (int i = 0; i < 500; i++) {
        if (kill(pid, 0) != 0 && errno == ESRCH)
            return true;
        char p[64], st[512] = "";
        snprintf(p, sizeof(p), "/proc/%d/stat", (int)pid);
        FILE *fp = fopen(p, "r");
        if (fp) {
            size_t n = fread(st, 1, sizeof(st) - 1, fp);
            st[n] = '\0';
            fclose(fp);
            const char *close = strrchr(st, ')');
            if (close && close[1] == ' ' && close[2] == 'Z')
                return true;
        }
        usleep(10000);
    }
    return false;
}

/* A fresh TMPDIR for ptosim, so that what it leaves there is seen. */
static const char *fresh_tmpdir(void)
{
    const char *t = tu_tmpdir();
    setenv("TMPDIR", t, 1);
    return t;
}

static bool empty_dir(const char *path)
{
    DIR *d = opendir(path);
    ck_assert_ptr_nonnull(d);
    struct dirent *e;
    bool empty = true;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            empty = false;
    closedir(d);
    return empty;
}

START_TEST(a_compile_or_run_that_never_ends_is_killed_with_its_children_at_the_time_limit)
{
    fake f;
    fake_setup(&f);
    char pids[1100];
    snprintf(pids, sizeof(pids), "%s/pids", f.dir);
    setenv("FAKE_PIDS", pids, 1);
    const char *tmp = fresh_tmpdir();
    fake_kernel(&f, 0, FIGURES[0], "FAKE_RUN_HANG");
    fake_kernel(&f, 1, FIGURES[1], "FAKE_COMPILE_HANG");
    run_out r = fake_import(&f, "--time-limit", "3", NULL, NULL);
    ck_assert_int_eq(r.status, 3);
    char want[4096];
    snprintf(
        want, sizeof(want),
        "ptosim import: kernel QK (%s): its Perf-Sim run was killed after 3 s, the time limit (--time-limit "
        "SECONDS raises it); kernel SF (%s): its compile was killed after 3 s, the time limit (--time-limit "
        "SECONDS raises it) (--fallback model keeps the model's cost for these)\n",
        f.src[0], f.src[1]);
    ck_assert_str_eq(r.err, want);
    ck_assert_str_eq(r.out, "");
    tu_run_free(&r);
    pid_t pid[8];
    int n = read_pids(pids, pid, 8);
    ck_assert_int_eq(n, 4); /* the compiler and its sleep, the kernel and its sleep */
    for (int i = 0; i < n; i++)
        ck_assert_msg(gone(pid[i]), "process %d is still running", (int)pid[i]);
    ck_assert_msg(empty_dir(tmp), "ptosim left files in %s", tmp);
}
END_TEST

/* A kernel run holds its stdin, stdout and stderr and nothing else of ptosim's: not the graph import writes
 * aside in $TMPDIR (the shell running the stand-in holds its own script too). */
START_TEST(a_kernel_run_inherits_no_file_of_ptosims)
{
    fake f;
    fake_setup(&f);
    char fds[1100];
    snprintf(fds, sizeof(fds), "%s/fds", f.dir);
    setenv("FAKE_FDS", fds, 1);
    fresh_tmpdir();
    fake_kernel(&f, 0, FIGURES[0], "FAKE_RUN_FDS");
    run_out r = fake_import(&f, NULL, NULL, NULL, NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char *t = tu_read(fds);
    ck_assert_ptr_nonnull(t);
    ck_assert_msg(!strstr(t, "ptosim-import."), "the kernel run holds the graph import writes aside:\n%s", t);
    ck_assert_msg(!strstr(t, f.cache), "the kernel run holds a folder of the cache:\n%s", t);
    free(t);
}
END_TEST

/* Starts ptosim with args in the background, its stdout and stderr into files of dir. */
static pid_t start_import(const char *const *args, const char *dir)
{
    char out[1200], err[1200];
    snprintf(out, sizeof(out), "%s/out", dir);
    snprintf(err, sizeof(err), "%s/err", dir);
    const char *argv[64] = {PTOSIM_BIN};
    int n = 1;
    for (int i = 0; args[i] && n < 63; i++)
        argv[n++] = args[i];
    argv[n] = NULL;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0) {
        int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600),
            fe = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fo < 0 || fe < 0 || dup2(fo, 1) < 0 || dup2(fe, 2) < 0)
            _exit(127);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    return pid;
}

/* Waits (boundedly) for a stand-in hang to have written want pids. */
static void wait_pids(const char *path, int want)
{
    pid_t pid[8];
    for (int i = 0; i < 6000 && read_pids(path, pid, 8) < want; i++)
        usleep(10000);
    ck_assert_int_eq(read_pids(path, pid, 8), want);
}

/* The import's command line of fake_import, for start_import. */
static void import_args(const fake *f, const char **args, char k[4][1200])
{
    int n = 0;
    static const char *const head[] = {"import", REAL("pa_small1_dump"), "--costs", "perf-sim", "-j", "2",
                                       "--quiet", NULL};
    for (int i = 0; head[i]; i++)
        args[n++] = head[i];
    args[n++] = "--pto-isa";
    args[n++] = f->pto;
    args[n++] = "--runtime-include";
    args[n++] = f->rt;
    args[n++] = "--cache";
    args[n++] = f->cache;
    for (int i = 0; i < 4; i++) {
        snprintf(k[i], 1200, "%s=%s", NAMES[i], f->src[i]);
        args[n++] = "--kernel";
        args[n++] = k[i];
    }
    args[n] = NULL;
}

START_TEST(sigterm_to_import_kills_the_kernel_runs_and_removes_the_temporary_folder)
{
    fake f;
    fake_setup(&f);
    char pids[1100];
    snprintf(pids, sizeof(pids), "%s/pids", f.dir);
    setenv("FAKE_PIDS", pids, 1);
    const char *tmp = fresh_tmpdir();
    fake_kernel(&f, 2, FIGURES[2], "FAKE_RUN_HANG");
    const char *args[40];
    char k[4][1200];
    import_args(&f, args, k);
    pid_t pid = start_import(args, f.dir);
    wait_pids(pids, 2); /* the kernel runs, its sleep started */
    ck_assert_int_eq(kill(pid, SIGTERM), 0);
    int st;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 143, "status %d", st);
    char p[1200];
    snprintf(p, sizeof(p), "%s/err", f.dir);
    char *err = tu_read(p);
    ck_assert_str_eq(err, "ptosim import: interrupted by SIGTERM\n");
    free(err);
    snprintf(p, sizeof(p), "%s/out", f.dir);
    char *out = tu_read(p);
    ck_assert_str_eq(out, "");
    free(out);
    pid_t kp[4];
    ck_assert_int_eq(read_pids(pids, kp, 4), 2);
    ck_assert_msg(gone(kp[0]) && gone(kp[1]), "a kernel process outlived the import");
    ck_assert_msg(empty_dir(tmp), "ptosim left files in %s", tmp);
}
END_TEST

/* Killed outright, ptosim cannot clean up; Linux still ends the process it started (PR_SET_PDEATHSIG). The
 * kernel's own child outlives it (and is ended here). */
START_TEST(a_kernel_run_dies_with_an_import_killed_outright)
{
    fake f;
    fake_setup(&f);
    char pids[1100];
    snprintf(pids, sizeof(pids), "%s/pids", f.dir);
    setenv("FAKE_PIDS", pids, 1);
    fresh_tmpdir();
    fake_kernel(&f, 3, FIGURES[3], "FAKE_RUN_HANG");
    const char *args[40];
    char k[4][1200];
    import_args(&f, args, k);
    pid_t pid = start_import(args, f.dir);
    wait_pids(pids, 2);
    ck_assert_int_eq(kill(pid, SIGKILL), 0);
    int st;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    pid_t kp[4];
    ck_assert_int_eq(read_pids(pids, kp, 4), 2);
    bool kernel_gone = gone(kp[0]);
    kill(kp[1], SIGKILL); /* the sleep this test's stand-in started */
    ck_assert_msg(kernel_gone, "the kernel process %d outlived ptosim", (int)kp[0]);
}
END_TEST

/* The options of the cache and the time limit: in import's help, the man page and bash completion. */
START_TEST(the_cache_and_time_limit_options_are_in_the_help_the_man_page_and_completion)
{
    const char *help[] = {"import", "--help", NULL};
    run_out r = tu_run(help);
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(strstr(r.out, "\n  --shared-cache ") && strstr(r.out, "\n  --time-limit SECONDS "), "%s",
                  r.out);
    tu_run_free(&r);
    char *man = tu_read(PTOSIM_SRCDIR "/sim/ptosim.1");
    ck_assert_msg(man && strstr(man, ".RB [ \\-\\-shared\\-cache ]") && strstr(man, ".RB [ \\-\\-time\\-limit"),
                  "the man page's synopsis of import lacks --shared-cache or --time-limit");
    free(man);
    const char *comp[] = {"/bin/bash", "-c",
                          "source " PTOSIM_SRCDIR "/sim/ptosim.bash; COMP_WORDS=(" PTOSIM_BIN
                          " import d --); COMP_CWORD=3; _ptosim; echo \"${COMPREPLY[*]}\"",
                          NULL};
    r = tu_run_prog(comp);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "--shared-cache") && strstr(r.out, "--time-limit"), "%s", r.out);
    tu_run_free(&r);
    /* --costs offers every source it takes, perf-sim too, then files */
    const char *costs[] = {"/bin/bash", "-c",
                           "source " PTOSIM_SRCDIR "/sim/ptosim.bash; COMP_WORDS=(" PTOSIM_BIN
                           " import --costs perf-); COMP_CWORD=3; _ptosim; echo \"${COMPREPLY[*]}\"",
                           NULL};
    r = tu_run_prog(costs);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_str_eq(r.out, "perf-sim\n");
    tu_run_free(&r);
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

/* The entries of a folder (not "." and ".."). */
static int entries(const char *path)
{
    DIR *d = opendir(path);
    ck_assert_ptr_nonnull(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return n;
}

/* paged attention's kernels and its manual-scope twin's are the same bytes in two folders: once one capture's
 * import has compiled them, the other's compiles none, whatever spelling names the trees. */
START_TEST(two_captures_with_the_same_kernels_compile_once)
{
    run_out r = real_import(REAL("pa_small1_dump"), RT_EXAMPLES "/paged_attention/test_paged_attention.py", "-j", "2",
                            NULL, NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    const char *args[] = {"import", REAL("pams_small1"), "--costs", "perf-sim", "--kernels",
                          RT_EXAMPLES "/paged_attention_manual_scope/test_paged_attention_manual_scope.py",
                          "--pto-isa", PTOSIM_SRCDIR "/build/../build/perfsim/pto-isa/", "--runtime-include",
                          PTOSIM_SRCDIR "/build/perfsim/./simpler", "--cache", PERF_CACHE, "--fallback", "model", NULL};
    int bins = entries(PERF_CACHE "/bin");
    r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_int_eq(entries(PERF_CACHE "/bin"), bins); /* no binary made */
    ck_assert_msg(strstr(r.err, "ptosim: perf-sim: 4 of 4 kernels compiled before, from the cache\n"), "%s", r.err);
    ck_assert_msg(!strstr(r.err, "compiling"), "%s", r.err);
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

/* bgemm Bgemm64 with its args dump (tests/real/bgemm64_dump: args.bin left out, it holds FLOAT32 contents only):
 * the dump lacks the INT64[4] config, refused before anything compiles; with --values [64, 4, 8, 1] (tile 64,
 * grid_k 4, 32 tasks / 4 = 8 groups, incore_loop 1) each kernel runs one 64 x 64 tile: Case1's 44 GEMM and 28
 * ADD instructions are 4 tiles of 11 and 7; GEMM loads two tiles (2 x 64 x 64 x 4 = 32768 bytes) and stores one
 * through FIXPIPE (16384), ADD loads two and stores one through MTE3. */
START_TEST(the_runtimes_bgemm64_capture_with_its_args_dump_is_priced_once_its_config_is_given)
{
    const char *dir = tu_tmpdir();
    run_out r = real_import(REAL("bgemm64_dump"), RT_EXAMPLES "/benchmark_bgemm/test_benchmark_bgemm.py", NULL,
                            NULL, NULL, NULL);
    ck_assert_int_eq(r.status, 3);
    ck_assert_str_eq(r.err, "ptosim import: kernel GEMM arg 3 (an INT64 [4] input of 32 tasks), kernel ADD arg 2 (an "
                            "INT64 [4] input of 32 tasks): not in the args dump (the runtime dumps only the args in a "
                            "kernel's signature) and not given by --values; give them in a --values table: {\"GEMM\": "
                            "{\"inputs\": {\"3\": [4 numbers]}}, \"ADD\": {\"inputs\": {\"2\": [4 numbers]}}}\n");
    tu_run_free(&r);
    char *values = tu_write(dir, "v.json", "{\"GEMM\": {\"inputs\": {\"3\": [64, 4, 8, 1]}}, "
                                           "\"ADD\": {\"inputs\": {\"2\": [64, 4, 8, 1]}}}");
    r = real_import(REAL("bgemm64_dump"), RT_EXAMPLES "/benchmark_bgemm/test_benchmark_bgemm.py", "--values", values,
                    "-j", "2");
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "\"gm_bytes\": {\"mte2\": 32768, \"fixpipe\": 16384}}"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "\"gm_bytes\": {\"mte2\": 32768, \"mte3\": 16384}}"), "%s", r.out);
    ck_assert_msg(strstr(r.out, ", 11 instructions, busiest pipe"), "%s", r.out);
    ck_assert_msg(strstr(r.out, ", 7 instructions, busiest pipe"), "%s", r.out);
    ck_assert_msg(kernel_cycles(r.out, "GEMM", NULL) > 0 && kernel_cycles(r.out, "ADD", NULL) > 0, "%s", r.out);
    tu_run_free(&r);
    free(values);
}
END_TEST

/* vector_example (tests/real/vector_dump2, args.bin left out: FLOAT32 contents only; the scalars are in the
 * dump's JSON), its test file naming incores by func_id: f = (a+b+1)*(a+b+2) + (a+b) on 128 x 128 FLOAT32, one
 * tile each: add and mul load two 64 KiB tiles and store one, add-scalar loads one; add-scalar runs with 1.0
 * and with 2.0, two signatures. */
START_TEST(the_runtimes_vector_example_is_priced_from_a_test_file_of_func_ids)
{
    run_out r = real_import(REAL("vector_dump2"), RT_EXAMPLES "/vector_example/test_vector_example.py", "-j", "2",
                            NULL, NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "\"gm_bytes\": {\"mte2\": 131072, \"mte3\": 65536}}"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "\"gm_bytes\": {\"mte2\": 65536, \"mte3\": 65536}}"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "kernel_add_scalar.cpp): "), "%s", r.out);
    ck_assert_msg(strstr(strstr(r.out, "kernel_add_scalar.cpp): "), "; 2 distinct task signatures\""), "%s", r.out);
    for (int i = 0; i < 3; i++) {
        char name[16];
        snprintf(name, sizeof(name), "func%d", i);
        ck_assert_msg(kernel_cycles(r.out, name, NULL) > 0, "%s", r.out);
    }
    tu_run_free(&r);
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
    tcase_add_test(tc, progress_is_a_line_a_step_when_stderr_is_no_terminal_and_nothing_with_quiet);
    tcase_add_test(tc, two_spellings_of_one_tree_compile_once);
    tcase_add_test(tc, an_import_with_the_trees_and_an_args_dump_says_perf_sim_could_price_it_and_compiles_nothing);
    tcase_add_test(tc, two_copies_of_one_tree_and_of_its_kernels_compile_once_and_a_changed_header_compiles_again);
    tcase_add_test(tc, a_kernel_beside_a_header_it_includes_by_quotes_is_compiled_again);
    tcase_add_test(tc, a_kernel_that_does_not_compile_is_named_and_fails_unless_the_model_stands_in);
    tcase_add_test(tc, a_pto_isa_tree_that_does_not_compile_or_records_no_sync_events_is_refused);
    tcase_add_test(tc, a_kernel_run_that_records_no_instructions_is_never_priced_silently);
    tcase_add_test(tc, a_result_past_what_a_graph_holds_is_a_kernel_failure_not_a_graph_that_does_not_validate);
    tcase_add_test(tc, perf_sim_options_and_tables_are_checked_before_anything_compiles);
    tcase_add_test(tc, a_values_table_gives_what_a_capture_without_an_args_dump_lacks);
    tcase_add_test(tc, a_value_the_args_dump_lacks_is_refused_before_anything_compiles_and_values_give_it);
    tcase_add_test(tc, a_crashed_harness_run_is_named_by_its_signal_and_not_cached);
    tcase_add_test(tc, a_test_files_incores_by_func_id_and_a_table_of_the_graphs_names_give_the_sources);
    tcase_add_test(tc, a_perf_sim_cost_gives_the_kernel_its_time_pipes_and_pmu_counters);
    tcase_add_test(tc, sha256_gives_the_standards_digests);
    tcase_add_test(tc, sha256_the_cpus_rounds_give_the_portable_digests);
    tcase_add_test(tc, the_cache_is_made_for_its_user_alone_and_refused_when_another_can_write_it);
    tcase_add_test(tc, a_shared_cache_runs_no_swapped_binary_and_takes_no_forged_figures);
    tcase_add_test(tc, a_cache_entry_is_read_only_as_what_its_header_records);
    tcase_add_test(tc, a_dep_list_naming_a_fifo_or_a_device_does_not_hang_the_import);
    tcase_add_test(tc, a_temporary_folder_on_another_file_system_than_the_cache_changes_nothing);
    tcase_add_test(tc, a_kernel_path_with_dollar_hash_and_space_is_read_back_from_the_dep_file);
    tcase_add_test(tc, a_compile_or_run_that_never_ends_is_killed_with_its_children_at_the_time_limit);
    tcase_add_test(tc, sigterm_to_import_kills_the_kernel_runs_and_removes_the_temporary_folder);
    tcase_add_test(tc, a_kernel_run_dies_with_an_import_killed_outright);
    tcase_add_test(tc, a_kernel_run_inherits_no_file_of_ptosims);
    tcase_add_test(tc, the_cache_and_time_limit_options_are_in_the_help_the_man_page_and_completion);
    suite_add_tcase(s, tc);
    if (!have_trees()) {
        printf("perf-sim: 6 tests skipped: no pto-isa and runtime trees in build/perfsim/ (make perfsim-dep "
               "unpacks them from ../shared/)\n");
        return s;
    }
    TCase *real = tcase_create("pto-isa");
    tcase_set_timeout(real, 600); /* compiling a kernel takes 6-9 s; the cache keeps the second run short */
    tcase_add_test(real, the_runtimes_paged_attention_kernels_reproduce_perf_sims_figures);
    tcase_add_test(real, two_captures_with_the_same_kernels_compile_once);
    tcase_add_test(real, the_runtimes_bgemm_kernels_reproduce_perf_sims_figures_and_pipes);
    tcase_add_test(real, ptosims_own_kernels_are_priced_from_its_own_capture);
    tcase_add_test(real, the_runtimes_bgemm64_capture_with_its_args_dump_is_priced_once_its_config_is_given);
    tcase_add_test(real, the_runtimes_vector_example_is_priced_from_a_test_file_of_func_ids);
    suite_add_tcase(s, real);
    return s;
}
