/* whatif.c - `ptosim whatif`: each lever a `ptosim run` forked from one compiled graph, ranked by makespan. */
/* The baseline is simulated here once to find the levers (the kernels on its critical path, its rings, its
 * thread count, what bounds it); then the baseline and every lever run as `ptosim run` would, each a child
 * mapping the graph compiled once (sweep_fork_run), and the makespan each printed is the figure. */
#include "whatif.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <fcntl.h>

#include "../../model/analysis/makespan_parts.h"
#include "../../model/base/int_text.h"
#include "../../model/base/json_writer.h"
#include "../../model/base/msg_text.h"
#include "../../model/base/outfile.h"
#include "../../model/engine/chip_engine.h"
#include "../../model/graph/graph_compiled.h"
#include "../../model/base/userdir.h"
#include "../../model/graph/graph_source.h"
#include "../../model/output/run_folder.h"
#include "../../model/output/run_report.h"
#include "../../model/runtime/run_config.h"
#include "../cli/cli.h"
#include "../cli/stop_signal.h"
#include "../run/run.h"
#include "../sweep/sweep.h"

#define WHATIF_TOP 5          /* kernels tried, by default: on the critical path, then most time on cores */
#define WHATIF_MAX_TOP 64     /* --top's ceiling */
#define WHATIF_MAX_LEVERS 32  /* levers run, by default */
#define WHATIF_CEIL_LEVERS 1000
#define WHATIF_ALL (3 * WHATIF_MAX_TOP + 8) /* every lever make_levers can make */
#define WHATIF_WORDS 4        /* flags of one lever, at most */
#define WHATIF_OUT_MAX (1 << 20) /* bytes of a run's summary read back */
#define WHATIF_PICKED_TEXT (WHATIF_MAX_TOP * (GRAPH_NAME_MAX + 32) + 512) /* the kernels tried, said */

/* The factors a kernel is tried at, in millionths, and how the table says them. */
static const uint32_t SPEEDUPS[] = {900000, 750000, 500000};
static const char *const SPEEDUP_WORDS[] = {"10%", "25%", "50%"};

/* whatif's own options */
typedef struct whatif_opts {
    long top;        /* --top N */
    long max_levers; /* --max-levers N */
    long jobs;       /* -j N, 0 = the cores */
    bool json;       /* --json */
} whatif_opts;

/* One simulation: the baseline (no flags) or a lever. */
typedef struct lever {
    char name[256];                      /* what the table calls it */
    char words[WHATIF_WORDS][GRAPH_NAME_MAX + 160]; /* the `ptosim run` flags added to the run options */
    int nwords;
    pid_t pid;        /* its run while it runs, 0 before, -1 once reaped */
    int out, err;     /* its stdout and stderr, unnamed files */
    int status;       /* exit status, -1 = did not exit */
    char ms[40];      /* the makespan as the run's summary printed it ("35.084"), "" = none */
    double ms_us;     /* ... as a number */
    char why[512];    /* a failed run: its first line on stderr */
    char odir[4300];     /* its run's -o DIR ("" = none): the baseline's staging folder, or a lever's scratch
                          * folder (removed once the run ended) */
    bool scratch;        /* odir is a scratch folder */
} lever;

static int store_count(const opt_def *d, const char *word, const char *value, void *dest, char *err,
                       size_t errlen)
{
    (void)word;
    int64_t n;
    if (strint_parse(value, (int64_t)d->min, (int64_t)d->max, &n) != STRINT_OK) {
        snprintf(err, errlen, d->missing, word);
        return -1;
    }
    *(long *)((char *)dest + d->off) = (long)n;
    return 0;
}

static const opt_def WHATIF_OPTS[] = {
    {.name = "top",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_NUMBER,
     .min = 0,
     .max = WHATIF_MAX_TOP,
     .meta = "N",
     .help = "N kernels are each tried 10%, 25% and 50% faster: those with the most\n"
             "time on the critical path first, then the most time on cores (default 5)",
     .store = store_count,
     .off = offsetof(whatif_opts, top),
     .missing = "--top needs an integer in [0, 64]"},
    {.name = "max-levers",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_NUMBER,
     .min = 1,
     .max = WHATIF_CEIL_LEVERS,
     .meta = "N",
     .help = "run at most N levers, the first N in the order kernels, rings,\n"
             "threads, platform values (default 32)",
     .store = store_count,
     .off = offsetof(whatif_opts, max_levers),
     .missing = "--max-levers needs an integer in [1, 1000]"},
    {.name = "jobs",
     .letter = 'j',
     .arg = OPT_VALUE,
     .kind = OPT_KIND_NUMBER,
     .min = 1,
     .max = 1024,
     .meta = "N",
     .help = "runs at a time (default: the cores)",
     .store = store_count,
     .off = offsetof(whatif_opts, jobs),
     .missing = "-j, --jobs needs an integer in [1, 1024]"},
    {.name = "json",
     .arg = OPT_FLAG,
     .help = "print an object for scripts: baseline_makespan_us, the kernels tried and\n"
             "levers, a list of {\"lever\", \"flags\", \"makespan_us\"} sorted by makespan",
     .store = opt_store_true,
     .off = offsetof(whatif_opts, json)},
    {.name = "seed",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_NUMBER,
     .meta = "N",
     .help = "variation on, the same seed in every run (ptosim run --help)",
     .flags = OPT_PASS},
};

const opt_table whatif_options = {
    .cmd = "whatif",
    .opts = WHATIF_OPTS,
    .nopts = OPT_COUNT(WHATIF_OPTS),
    .operand_kind = OPT_KIND_FILE,
    .unknown = "unknown option '%s' (ptosim whatif --help lists the options)", /* unused: run's parser says */
    .pass = &cli_run_options,
};

static void usage(FILE *f)
{
    fputs("usage: ptosim whatif GRAPH [--top N] [--max-levers N] [-j N] [--json] [run options] [-o DIR]\n"
          "\n"
          "Which change would pay: simulates the run, then each lever, and ranks them by makespan. The\n"
          "levers: --top kernels each 10%, 25% and 50% faster (--kernel-scale NAME=0.9, 0.75, 0.5: every\n"
          "task of it), those with the most time on the critical path first (the kernel parts of the\n"
          "makespan, as ptosim diff names them), then the most time on cores; each ring knob doubled on\n"
          "all four rings (--ring-task-window, --ring-heap, --ring-dep-pool); one more AICPU thread, below\n"
          "4; and the platform value the run's bottleneck names (--set: hbm_bw or host_collector_bw\n"
          "doubled, orch_submit_ns halved, the bottleneck pipe's rate doubled). Each figure is an actual\n"
          "simulation, `ptosim run GRAPH [run options] FLAGS` with the row's FLAGS, its makespan as that\n"
          "run prints it. Run options (-p, --set, --kernel-set, --kernel-scale, --ring-*,\n"
          "--aicpu-thread-num, --seed, timeouts) set the baseline; a lever's factor or size is the\n"
          "baseline's times the lever's.\n"
          "\n",
          f);
    opt_help(&whatif_options, f);
    fputs("\n"
          "GRAPH may be - (standard input) or a pipe: whatif copies it to a temporary file first.\n"
          "\n"
          "-o DIR: DIR becomes the baseline's run folder, what `ptosim run GRAPH [run options] -o DIR`\n"
          "writes (ptosim_run.json, and dfx_outputs/ with --enable-*, --dump-args or --enable-pmu), plus\n"
          "DIR/whatif.json, the object --json prints; all of it or nothing, once every run ended.\n"
          "`ptosim report DIR` then shows the ranking. The output options go to every lever's run too\n"
          "(each into a scratch folder, removed when it ends), as some of them change what is simulated\n"
          "(the args dump, PMU collection, the swimlane's records). Without -o whatif writes no files and\n"
          "takes no output option; it never takes --perfetto FILE, --quiet, --summary-csv or --repeat.\n"
          "\n"
          "exit status: 0 ranked (a lever whose run failed is listed as failed); 1 the simulator failed;\n"
          "2 bad command line or platform; 3 a malformed graph; the baseline run's own status when it\n"
          "fails (4 runtime error, 5 device error, 6 stalled); 130/143 interrupted\n",
          f);
}

/* ---- the levers ---- */

static lever *add(lever *v, int *n, int cap, const char *name)
{
    if (*n >= cap)
        return NULL;
    lever *l = &v[(*n)++];
    memset(l, 0, sizeof(*l));
    snprintf(l->name, sizeof(l->name), "%s", name);
    l->out = l->err = -1;
    l->status = -1;
    return l;
}

static void word(lever *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void word(lever *l, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(l->words[l->nwords++], sizeof(l->words[0]), fmt, ap);
    va_end(ap);
}

/* A kernel tried, and what picked it. */
typedef struct picked {
    int func;
    char name[GRAPH_NAME_MAX];
    int64_t path_ns; /* its time on the makespan's path, in ns; 0: picked for its time on cores */
    ps_t core_ps;    /* its time on cores */
} picked;

/* The kernels tried, at most want: first those holding time on the path that ended the baseline (its
 * "kernel" makespan parts: exact, what the makespan is made of, what `ptosim diff` attributes), most first;
 * then the most time on cores. Ties: the lower func id. *why says why the path named none (NULL when it was
 * walked). Returns how many, or -1 when out of memory. */
static int pick_kernels(const chip *c, int want, picked *out, const char **why)
{
    int n = 0;
    *why = NULL;
    mkp_result r;
    if (c->status != CHIP_DONE) {
        *why = "the run did not finish";
    } else if (want > 0) {
        /* no names given: each kernel's part is "kernel func N", one per func id */
        if (mkp_compute(&c->mk, c->end_time, c->orch.end_time, NULL, NULL, NULL, &r) != 0)
            return -1;
        if (!r.computed)
            *why = r.why;
        while (r.computed && n < want) {
            int best = -1;
            int64_t best_ns = 0;
            for (size_t i = 0; i < r.nparts; i++) {
                unsigned f;
                int end = 0;
                if (sscanf(r.parts[i].what, "kernel func %u%n", &f, &end) != 1 || r.parts[i].what[end] ||
                    f >= GRAPH_MAX_FUNC_ID || r.parts[i].ns <= 0 || !graph_kernel_by_id(&c->orch.g, (int)f))
                    continue;
                bool taken = false;
                for (int j = 0; j < n; j++)
                    taken |= out[j].func == (int)f;
                if (!taken && (r.parts[i].ns > best_ns || (r.parts[i].ns == best_ns && (int)f < best)))
                    best = (int)f, best_ns = r.parts[i].ns;
            }
            if (best < 0)
                break;
            out[n++] = (picked){.func = best, .path_ns = best_ns};
        }
        mkp_result_free(&r);
    }
    while (n < want) {
        int best = -1;
        for (int f = 0; f < GRAPH_MAX_FUNC_ID; f++) {
            bool taken = false;
            for (int j = 0; j < n; j++)
                taken |= out[j].func == f;
            if (!taken && c->kstats[f].executions && graph_kernel_by_id(&c->orch.g, f) &&
                (best < 0 || c->kstats[f].core_ps > c->kstats[best].core_ps))
                best = f;
        }
        if (best < 0)
            break;
        out[n++] = (picked){.func = best};
    }
    for (int i = 0; i < n; i++) {
        snprintf(out[i].name, sizeof(out[i].name), "%s", graph_kernel_by_id(&c->orch.g, out[i].func)->name);
        out[i].core_ps = c->kstats[out[i].func].core_ps;
    }
    return n;
}

/* The line that says which kernels were tried and why, into buf: "kernels on the critical path: NAME
 * 30.000 us, ...; then the most time on cores: NAME 40.000 us, ...". */
static void picked_text(const picked *k, int nk, const char *why, char *buf, size_t len)
{
    size_t u = 0;
    buf[0] = '\0';
    for (int i = 0; i < nk && u < len; i++) {
        bool first_core = !k[i].path_ns && (i == 0 || k[i - 1].path_ns);
        if (i == 0 && k[i].path_ns)
            u += (size_t)snprintf(buf + u, len - u, "kernels on the critical path: ");
        else if (first_core && i == 0)
            u += (size_t)snprintf(buf + u, len - u,
                                  "kernels on the critical path: none (%.200s); the most time on cores: ",
                                  why ? why : "no kernel holds time on it");
        else if (first_core)
            u += (size_t)snprintf(buf + u, len - u, "; then the most time on cores: ");
        else
            u += (size_t)snprintf(buf + u, len - u, ", ");
        if (u >= len)
            break;
        double us = k[i].path_ns ? (double)k[i].path_ns / 1e3 : (double)k[i].core_ps / 1e6;
        u += (size_t)snprintf(buf + u, len - u, "%s %.3f us", k[i].name, us);
    }
}

/* A platform value v as --set takes it back: shortest of 15 and 17 digits. */
static void value_text(double v, char *buf, size_t len)
{
    snprintf(buf, len, "%.15g", v);
    if (strtod(buf, NULL) != v)
        snprintf(buf, len, "%.17g", v);
}

/* Adds the lever "--set name=value x factor" (an integer parameter rounded to the nearest) when the platform
 * takes it. */
static void platform_lever(lever *v, int *n, int cap, const platform *plat, const char *name, double factor,
                           const char *why)
{
    char cur[64], text[96], set[160], err[512];
    size_t i = 0;
    while (platform_param_name(i) && strcmp(platform_param_name(i), name) != 0)
        i++;
    if (!platform_param_name(i))
        return;
    platform_param_value(plat, i, cur, sizeof(cur));
    double x = strtod(cur, NULL) * factor;
    bool integer = !strpbrk(cur, ".eE");
    if (integer)
        x = (double)(int64_t)(x + 0.5);
    value_text(x, text, sizeof(text));
    if (strcmp(text, cur) == 0 || x <= 0)
        return;
    snprintf(set, sizeof(set), "%s=%s", name, text);
    platform p = *plat;
    if (platform_set(&p, set, err, sizeof(err)) != 0 || platform_validate(&p, err, sizeof(err)) != 0)
        return;
    char label[256];
    snprintf(label, sizeof(label), "%s %s (%s)", name, factor > 1 ? "x2" : "/2", why);
    lever *l = add(v, n, cap, label);
    if (l) {
        word(l, "--set");
        word(l, "%s", set);
    }
}

/* The platform value a bottleneck names, as a lever. */
static void bound_levers(lever *v, int *n, int cap, const chip *c, const platform *plat)
{
    report_bound b;
    report_bound_of(c, &b);
    char why[200];
    snprintf(why, sizeof(why), "bottleneck: %.150s", b.what);
    switch (b.kind) {
    case REPORT_BOUND_HBM:
        platform_lever(v, n, cap, plat, "hbm_bw", 2, why);
        break;
    case REPORT_BOUND_DUMP:
        platform_lever(v, n, cap, plat, "host_collector_bw", 2, why);
        break;
    case REPORT_BOUND_SUBMISSION:
        platform_lever(v, n, cap, plat, "orch_submit_ns", 0.5, why);
        break;
    case REPORT_BOUND_PIPE: {
        int func, pipe;
        double frac;
        if (!report_bottleneck(c, &func, &pipe, &frac))
            break;
        static const char *const RATE[PIPE_COUNT] = {
            [PIPE_SCALAR] = "scalar_cycles_per_tile", [PIPE_MTE1] = "mte1_bytes_per_cycle",
            [PIPE_MTE2] = "gm_bytes_per_cycle",       [PIPE_MTE3] = "gm_bytes_per_cycle",
            [PIPE_CUBE] = "cube_k_bytes",             [PIPE_VECTOR] = "vec_bytes_per_cycle",
            [PIPE_FIXPIPE] = "gm_bytes_per_cycle"};
        platform_lever(v, n, cap, plat, RATE[pipe], pipe == PIPE_SCALAR ? 0.5 : 2, why);
        break;
    }
    default: /* a ring: the ring levers; scheduling, dependencies, the kernels' time: the others */
        break;
    }
}

/* Every lever of the baseline c (run with cfg on plat, the user's --kernel-scale factors in cfg), in the
 * order kernels (the nk picked), rings, threads, platform values. Returns how many (at most cap). */
static int make_levers(const chip *c, const chip_config *cfg, const platform *plat, const picked *kern,
                       int nk, lever *v, int cap)
{
    int n = 0;
    for (int k = 0; k < nk; k++) {
        const char *kn = kern[k].name;
        uint32_t base = cfg->kernel_scale[kern[k].func] ? cfg->kernel_scale[kern[k].func] : 1000000u;
        for (size_t s = 0; s < sizeof(SPEEDUPS) / sizeof(SPEEDUPS[0]); s++) {
            char label[256], f[32];
            uint32_t ppm = (uint32_t)pipe_scale(base, SPEEDUPS[s]);
            if (!ppm)
                continue;
            snprintf(label, sizeof(label), "%.200s %s faster", kn, SPEEDUP_WORDS[s]);
            lever *l = add(v, &n, cap, label);
            if (!l)
                return n;
            word(l, "--kernel-scale");
            word(l, "%s=%s", kn, runcfg_scale_text(ppm, f, sizeof(f)));
        }
    }
    for (int k = 0; k < 3; k++) {
        uint64_t now[RUNCFG_RINGS], back[RUNCFG_RINGS];
        char list[160], err[512];
        for (int r = 0; r < RUNCFG_RINGS; r++)
            now[r] = k == KNOB_TASK_WINDOW ? cfg->ring_task_window[r]
                     : k == KNOB_HEAP      ? cfg->ring_heap[r]
                                           : cfg->ring_dep_pool[r];
        snprintf(list, sizeof(list), "%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64, 2 * now[0], 2 * now[1],
                 2 * now[2], 2 * now[3]);
        if (runcfg_parse_ring((runcfg_knob)k, list, back, err, sizeof(err)) != 0)
            continue; /* past what RunConfig takes */
        char label[96];
        snprintf(label, sizeof(label), "%s x2 (all four rings)", runcfg_knob_name((runcfg_knob)k));
        lever *l = add(v, &n, cap, label);
        if (!l)
            return n;
        word(l, "%s", runcfg_knob_flag((runcfg_knob)k));
        word(l, "%s", list);
    }
    if (plat->aicpu_threads < RUNCFG_MAX_THREADS) {
        platform p = *plat;
        char err[512], label[96];
        p.aicpu_threads = plat->aicpu_threads + 1;
        if (platform_validate(&p, err, sizeof(err)) == 0) {
            snprintf(label, sizeof(label), "one more AICPU thread (%" PRId64 " -> %" PRId64 ")",
                     plat->aicpu_threads, p.aicpu_threads);
            lever *l = add(v, &n, cap, label);
            if (!l)
                return n;
            word(l, "--aicpu-thread-num");
            word(l, "%" PRId64, p.aicpu_threads);
        }
    }
    bound_levers(v, &n, cap, c, plat);
    return n;
}

/* ---- the runs ---- */

/* Reads what a run's descriptor fd holds (from its start), at most WHATIF_OUT_MAX bytes (malloc'd,
 * NUL-terminated; NULL when out of memory or unreadable). */
static char *read_back(int fd)
{
    char *buf = malloc(WHATIF_OUT_MAX + 1);
    size_t n = 0;
    if (!buf || lseek(fd, 0, SEEK_SET) != 0) {
        free(buf);
        return NULL;
    }
    for (;;) {
        ssize_t r = read(fd, buf + n, WHATIF_OUT_MAX - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        n += (size_t)r;
    }
    buf[n] = '\0';
    return buf;
}

/* The run of l ended with wait status st: its makespan from its summary ("makespan X us"), or why not. */
static void finish(lever *l, int st)
{
    l->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    char *out = read_back(l->out), *err = read_back(l->err);
    const char *m = out ? strstr(out, ", makespan ") : NULL;
    if (l->status == 0 && m) {
        m += strlen(", makespan ");
        size_t k = strspn(m, "0123456789.");
        if (k > 0 && k < sizeof(l->ms) && strncmp(m + k, " us\n", 4) == 0) {
            memcpy(l->ms, m, k);
            l->ms[k] = '\0';
            l->ms_us = strtod(l->ms, NULL);
        }
    }
    if (!l->ms[0]) {
        const char *e = err && *err ? err : "";
        size_t k = strcspn(e, "\n");
        if (!WIFEXITED(st))
            snprintf(l->why, sizeof(l->why), "killed by signal %d", WIFSIGNALED(st) ? WTERMSIG(st) : 0);
        else
            snprintf(l->why, sizeof(l->why), "exit %d%s%.*s", l->status, k ? ": " : "",
                     (int)(k < 400 ? k : 400), e);
    }
    free(out);
    free(err);
    close(l->out);
    close(l->err);
    l->out = l->err = -1;
    if (l->scratch)
        workdir_remove_tree(l->odir); /* its files were for its figure only */
}

/* Starts l's run: argv of `ptosim run` (the run options, then l's flags). Returns 0, or -1 after printing
 * why. */
static int start(lever *l, const char **base, int nbase, const gcomp *gc, int devnull)
{
    const char **av = malloc(((size_t)nbase + WHATIF_WORDS + 3) * sizeof(*av));
    int n = 0;
    if (!av) {
        fputs("ptosim whatif: out of memory\n", stderr);
        return -1;
    }
    if (l->odir[0]) {
        av[n++] = "-o";
        av[n++] = l->odir;
    }
    for (int i = 0; i < nbase; i++)
        av[n++] = base[i];
    for (int i = 0; i < l->nwords; i++)
        av[n++] = l->words[i];
    av[n] = NULL;
    l->out = outfile_temp_fd("ptosim-whatif", NULL);
    l->err = l->out >= 0 ? outfile_temp_fd("ptosim-whatif", NULL) : -1;
    if (l->out < 0 || l->err < 0) {
        msgtext_print(stderr, "ptosim whatif: cannot make a temporary file: %s", strerror(errno));
        free(av);
        return -1;
    }
    l->pid = sweep_fork_run(n, av, gc, devnull, l->out, l->err);
    free(av);
    if (l->pid < 0) {
        msgtext_print(stderr, "ptosim whatif: cannot start a process: %s", strerror(errno));
        return -1;
    }
    return 0;
}

/* Runs every lever of v, jobs at a time. Returns 0, SWEEP-like: the signal that stopped it (its runs
 * told and waited for), or -1 after printing why. */
static int run_all(lever *v, int n, long jobs, const char **base, int nbase, const gcomp *gc)
{
    int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (devnull < 0) {
        msgtext_print(stderr, "ptosim whatif: /dev/null: %s", strerror(errno));
        return -1;
    }
    int next = 0, running = 0, rc = 0;
    bool forwarded = false;
    while (next < n || running > 0) {
        if (intr_signal() && !forwarded) { /* start nothing more; pass it on to every run, wait for them */
            for (int i = 0; i < n; i++)
                if (v[i].pid > 0)
                    kill(v[i].pid, intr_signal());
            forwarded = true;
            next = n;
        }
        while (!forwarded && rc == 0 && next < n && running < jobs) {
            if (start(&v[next], base, nbase, gc, devnull) != 0) {
                rc = -1;
                next = n;
                break;
            }
            next++;
            running++;
        }
        if (running == 0)
            break;
        int st;
        pid_t pid = waitpid(-1, &st, 0);
        if (pid < 0) {
            if (errno == EINTR)
                continue;
            msgtext_print(stderr, "ptosim whatif: waitpid: %s", strerror(errno));
            rc = -1;
            break;
        }
        for (int i = 0; i < n; i++)
            if (v[i].pid == pid) {
                finish(&v[i], st);
                v[i].pid = -1;
                running--;
                break;
            }
    }
    close(devnull);
    if (rc == 0 && intr_signal())
        return intr_signal();
    return rc;
}

/* ---- the table ---- */

static int by_makespan(const void *a, const void *b)
{
    const lever *x = *(const lever *const *)a, *y = *(const lever *const *)b;
    bool ox = x->ms[0], oy = y->ms[0];
    if (ox != oy)
        return ox ? -1 : 1; /* failed runs last */
    if (ox && x->ms_us != y->ms_us)
        return x->ms_us < y->ms_us ? -1 : 1;
    return (x > y) - (x < y);
}

static void print_table(const lever *base, const lever **rows, int n, const char *gname, const char *pname,
                        const char *graph, const report_bound *b, const char *kernels)
{
    char what[4 * sizeof(b->what)], gshown[4 * PATH_MAX];
    msgtext_escape(what, sizeof(what), b->what);
    msgtext_escape(gshown, sizeof(gshown), graph);
    printf("ptosim whatif: %s on %s: baseline makespan %s us", gname, pname, base->ms);
    if (b->kind != REPORT_BOUND_NONE)
        printf(" (bottleneck: %s)", what);
    printf(", %d lever%s\n", n, n == 1 ? "" : "s");
    if (kernels[0]) {
        char shown[4 * WHATIF_PICKED_TEXT];
        msgtext_escape(shown, sizeof(shown), kernels);
        printf("%s\n", shown);
    }
    int wide = 40; /* the lever column: as wide as its longest name, so the flags line up */
    for (int i = 0; i < n; i++) {
        char name[4 * sizeof(rows[i]->name)];
        msgtext_escape(name, sizeof(name), rows[i]->name);
        if ((int)strlen(name) > wide)
            wide = (int)strlen(name);
    }
    printf("%12s %10s %7s  %-*s %s\n", "makespan us", "gain us", "gain", wide, "lever", "ptosim run flags");
    for (int i = 0; i < n; i++) {
        const lever *l = rows[i];
        char flags[1024];
        size_t u = 0;
        flags[0] = '\0';
        for (int k = 0; k < l->nwords && u < sizeof(flags); k++)
            u += (size_t)snprintf(flags + u, sizeof(flags) - u, "%s%s", k ? " " : "", l->words[k]);
        char name[4 * sizeof(l->name)], shown[4 * sizeof(flags)], why[4 * sizeof(l->why)];
        msgtext_escape(name, sizeof(name), l->name);
        msgtext_escape(shown, sizeof(shown), flags);
        msgtext_escape(why, sizeof(why), l->why);
        if (l->ms[0]) {
            double gain = base->ms_us - l->ms_us;
            printf("%12s %10.3f %6.1f%%  %-*s %s\n", l->ms, gain, base->ms_us > 0 ? 100 * gain / base->ms_us : 0,
                   wide, name, shown);
        } else
            printf("%12s %10s %7s  %-*s %s (failed: %s)\n", "-", "-", "-", wide, name, shown, why);
    }
    printf("each row: ptosim run %s [the run options given] FLAGS\n", gshown);
}

/* The --json object, also DIR/whatif.json: into f. */
static void print_json(FILE *f, const lever *base, const lever **rows, int n, const char *gname,
                       const char *pname, const picked *kern, int nk)
{
    fputs("{\"graph\": ", f);
    jsonw_str(f, gname);
    fputs(", \"platform\": ", f);
    jsonw_str(f, pname);
    outfile_printf(f, ", \"baseline_makespan_us\": %s, \"kernels\": [", base->ms);
    for (int i = 0; i < nk; i++) { /* those tried, in the order picked */
        fputs(i ? ", {\"kernel\": " : "{\"kernel\": ", f);
        jsonw_str(f, kern[i].name);
        outfile_printf(f, ", \"critical_path_us\": %.3f, \"core_us\": %.3f}", (double)kern[i].path_ns / 1e3,
                       (double)kern[i].core_ps / 1e6);
    }
    fputs("], \"levers\": [", f);
    for (int i = 0; i < n; i++) {
        const lever *l = rows[i];
        fputs(i ? ",\n  {\"lever\": " : "\n  {\"lever\": ", f);
        jsonw_str(f, l->name);
        fputs(", \"flags\": [", f);
        for (int k = 0; k < l->nwords; k++) {
            fputs(k ? ", " : "", f);
            jsonw_str(f, l->words[k]);
        }
        if (l->ms[0]) {
            double gain = base->ms_us - l->ms_us;
            outfile_printf(f, "], \"makespan_us\": %s, \"gain_us\": %.3f}", l->ms, gain);
        } else {
            fputs("], \"makespan_us\": null, \"failed\": ", f);
            jsonw_str(f, l->why);
            fputc('}', f);
        }
    }
    fputs(n ? "\n]}\n" : "]}\n", f);
}

/* ---- the command ---- */

/* Takes -o DIR (every spelling, each time given) out of rest, the words every run is given: o is rest parsed,
 * parsed again each time. Returns 0, or -1 with a message in err. */
static int strip_work_dir(const char **rest, int *nrest, cli_run *o, char *err, size_t errlen)
{
    while (o->work_dir) {
        int at = -1, drop = 0;
        for (int i = 0; i < *nrest && at < 0; i++) {
            size_t len = strlen(rest[i]);
            if (o->work_dir == rest[i] && i > 0)
                at = i - 1, drop = 2; /* -o DIR, --work-dir DIR */
            else if (o->work_dir > rest[i] && o->work_dir <= rest[i] + len)
                at = i, drop = 1; /* -oDIR, --work-dir=DIR */
        }
        if (at < 0) {
            snprintf(err, errlen, "-o DIR: cannot tell its words apart");
            return -1;
        }
        memmove(rest + at, rest + at + drop, (size_t)(*nrest - at - drop) * sizeof(*rest));
        *nrest -= drop;
        if (cli_parse_run_args(*nrest, (char **)rest, o, err, errlen) != 0)
            return -1;
    }
    return 0;
}

/* -o DIR: whatif.json beside the baseline's files in the staging folder, then the folder's commit, as
 * `ptosim run` commits (the files of a previous run or whatif go). Returns 0, or -1 after saying why (DIR is
 * left as it was, as left says). */
static int commit_folder(workdir *wd, const workdir_programs *old_programs, const lever *base,
                         const lever **rows, int n, const char *gname, const char *pname, const picked *kern,
                         int nk, const char *left)
{
    char path[PATH_MAX + 64], err[2 * PATH_MAX + 256];
    snprintf(path, sizeof(path), "%.4000s/whatif.json", wd->stage);
    outfile of;
    FILE *f = outfile_open(&of, path, err, sizeof(err));
    if (f) {
        print_json(f, base, rows, n, gname, pname, kern, nk);
        if (outfile_commit(&of, err, sizeof(err)) != 0)
            f = NULL;
    }
    const char *new_files[3] = {"ptosim_run.json", "whatif.json", "dfx_outputs/"};
    int nnew = 2, crc = -1;
    struct stat st;
    snprintf(path, sizeof(path), "%.4000s/dfx_outputs", wd->stage);
    if (userdir_stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        nnew = 3;
    if (f)
        crc = workdir_commit(wd, run_managed, run_nmanaged, new_files, nnew, err, sizeof(err));
    if (crc != 0) {
        msgtext_print(stderr, "ptosim whatif: %s", err);
        workdir_abort(wd);
        workdir_close(wd);
        if (crc == -1)
            msgtext_print(stderr, "ptosim whatif: %s", left);
        return -1;
    }
    workdir_drop_programs(wd->dir, old_programs, NULL, 0); /* the folder is this run's now */
    workdir_close(wd);
    return 0;
}

/* The graph compiled once into a private temporary folder, mapped, and its names removed: the mapping lives
 * on in this process and the runs it forks. Returns 0, or an exit status after printing why. */
static int compile(const char *graph, gcomp *gc)
{
    const char *tmp = getenv("TMPDIR");
    char dir[PATH_MAX], path[PATH_MAX + 32], err[2 * PATH_MAX + GRAPH_ERR_MAX];
    snprintf(dir, sizeof(dir), "%s/ptosim-whatif-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        msgtext_print(stderr, "ptosim whatif: cannot make a temporary folder %s: %s", dir, strerror(errno));
        return EXIT_INTERNAL;
    }
    snprintf(path, sizeof(path), "%s/graph.compiled", dir);
    int rc = gcomp_compile_map(gc, graph, path, err, sizeof(err));
    unlink(path);
    rmdir(dir);
    if (rc != 0 && intr_signal())
        return intr_status(intr_signal());
    if (rc != 0) {
        msgtext_print(stderr, "ptosim whatif: %s", err);
        return rc > 0 ? EXIT_GRAPH : EXIT_INTERNAL;
    }
    return 0;
}

int whatif_main(int argc, char **argv)
{
    whatif_opts wo = {.top = WHATIF_TOP, .max_levers = WHATIF_MAX_LEVERS};
    char err[4096];
    const char **rest = malloc(((size_t)argc + 1) * sizeof(*rest));
    int nrest = 0;
    if (!rest) {
        fputs("ptosim whatif: out of memory\n", stderr);
        return EXIT_INTERNAL;
    }
    int own = opt_parse(&whatif_options, argc, argv, &wo, rest, &nrest, err, sizeof(err));
    if (own != 0) {
        free(rest);
        if (own == 1) {
            usage(stdout);
            return EXIT_OK;
        }
        msgtext_print(stderr, "ptosim whatif: %s", err);
        return EXIT_USAGE;
    }
    cli_run opt;
    int rc = cli_parse_run_args(nrest, (char **)rest, &opt, err, sizeof(err));
    if (rc == 1) {
        free(rest);
        return EXIT_OK;
    }
    if (rc != 0) {
        free(rest);
        opt_unknown_passed(&whatif_options, "whatif", err, sizeof(err));
        msgtext_print(stderr, "ptosim whatif: %s", err);
        return EXIT_USAGE;
    }
    if (opt.ngraphs != 1 || opt.perfetto || opt.quiet || opt.summary_csv || opt.repeat) {
        free(rest);
        msgtext_print(stderr,
                      "ptosim whatif: takes one GRAPH and none of --perfetto FILE, --quiet, --summary-csv "
                      "or --repeat: whatif reads each run's summary; run ptosim run with a row's flags for "
                      "those");
        return EXIT_USAGE;
    }
    /* the output options, which -o DIR needs, as `ptosim run` takes them (--enable-pmu=0 is off) */
    bool outputs = opt.swimlane_level || opt.dep_gen || opt.scope_stats || opt.dump_level ||
                   (opt.pmu_given && (!opt.pmu_value || strcmp(opt.pmu_value, "0") != 0)) ||
                   opt.enable_perfetto;
    if (outputs && !opt.work_dir) {
        free(rest);
        msgtext_print(stderr, "ptosim whatif: --enable-*, --dump-args and --enable-pmu write into the "
                              "baseline's run folder: give -o DIR");
        return EXIT_USAGE;
    }
    char wdir[PATH_MAX] = "";
    if (opt.work_dir) { /* -o DIR is the baseline's alone: the words go from what every run is given */
        if (strlen(opt.work_dir) >= sizeof(wdir)) {
            free(rest);
            msgtext_print(stderr, "ptosim whatif: -o DIR: path too long");
            return EXIT_USAGE;
        }
        snprintf(wdir, sizeof(wdir), "%s", opt.work_dir);
        if (strip_work_dir(rest, &nrest, &opt, err, sizeof(err)) != 0) {
            free(rest);
            msgtext_print(stderr, "ptosim whatif: %s", err);
            return EXIT_USAGE;
        }
        userdir_add(wdir); /* named: nothing below it is written through a link */
    }
    platform plat;
    chip_config cfg;
    int code = run_prepare(&opt, &plat, &cfg, NULL);
    if (code != EXIT_OK) {
        free(rest);
        return code;
    }
    const char *shown = opt.graph;
    char spooled[64];
    if (gsrc_read_once(opt.graph)) { /* read once per run: a pipe is copied to a temporary file first */
        int src = gsrc_spool_temp(opt.graph, spooled, sizeof(spooled), err, sizeof(err));
        if (src != 0) {
            free(rest);
            msgtext_print(stderr, "ptosim whatif: %s", err);
            return src > 0 ? EXIT_GRAPH : EXIT_INTERNAL;
        }
        for (int i = 0; i < nrest; i++)
            if (rest[i] == opt.graph)
                rest[i] = spooled;
        opt.graph = opt.graphs[0] = spooled;
    }
    graph hdr;
    if (graph_open(&hdr, opt.graph, err, sizeof(err)) != 0) {
        free(rest);
        msgtext_print(stderr, "ptosim whatif: %s", err);
        return graph_err_oom(err) ? EXIT_INTERNAL : EXIT_GRAPH;
    }
    run_apply_rings(&cfg, &hdr, &opt);
    int ks = run_apply_kernel_sets(&cfg, &hdr, &opt);
    graph_close(&hdr);
    if (ks != EXIT_OK) {
        free(rest);
        return ks;
    }
    intr_install();
    gcomp gc;
    if ((rc = compile(opt.graph, &gc)) != 0) {
        free(rest);
        return rc;
    }
    /* the baseline here, once, for its levers; with its makespan parts, the path its kernels are picked on */
    chip *c = malloc(sizeof(*c));
    cfg.compiled = &gc;
    cfg.no_makespan_parts = false;
    if (!c || chip_init(c, &plat, &cfg, opt.graph, err, sizeof(err)) != 0) {
        msgtext_print(stderr, "ptosim whatif: %s", c ? err : "out of memory");
        free(c);
        gcomp_close(&gc);
        free(rest);
        return EXIT_INTERNAL;
    }
    c->stop = intr_flag();
    chip_run(c);
    int cap = 1 + (int)wo.max_levers;
    lever *v = calloc(1 + WHATIF_ALL, sizeof(*v)); /* every lever, so those past the cap are counted */
    int n = 0;
    report_bound bound;
    report_bound_of(c, &bound);
    char gname[4 * GRAPH_NAME_MAX], pname[4 * sizeof(plat.name)], graw[GRAPH_NAME_MAX];
    snprintf(graw, sizeof(graw), "%s", c->orch.g.name);
    msgtext_escape(gname, sizeof(gname), c->orch.g.name);
    msgtext_escape(pname, sizeof(pname), plat.name);
    picked kern[WHATIF_MAX_TOP];
    char ktext[WHATIF_PICKED_TEXT] = "";
    const char *kwhy = NULL;
    int nk = v ? pick_kernels(c, (int)wo.top, kern, &kwhy) : -1;
    if (nk >= 0) {
        picked_text(kern, nk, kwhy, ktext, sizeof(ktext));
        add(v, &n, 1, "baseline");
        n += make_levers(c, &cfg, &plat, kern, nk, v + 1, WHATIF_ALL);
    }
    chip_free(c);
    free(c);
    if (nk < 0) {
        free(v);
        fputs("ptosim whatif: out of memory\n", stderr);
        gcomp_close(&gc);
        free(rest);
        return EXIT_INTERNAL;
    }
    if (n > cap) {
        fprintf(stderr, "ptosim whatif: %d levers past --max-levers %ld left out\n", n - cap, wo.max_levers);
        n = cap;
    }
    /* -o DIR: locked from here to the commit; the baseline runs into its staging folder, each lever into a
     * scratch folder of its own when the output options may change what is simulated */
    workdir wd;
    workdir_programs old_programs = {0};
    char scratch[PATH_MAX] = "", left[PATH_MAX + 64] = "";
    if (wdir[0]) {
        int lr = workdir_open(&wd, wdir, err, sizeof(err));
        if (lr < 0) {
            msgtext_print(stderr, "ptosim whatif: %s", err);
            gcomp_close(&gc);
            free(rest);
            free(v);
            return EXIT_INTERNAL;
        }
        if (lr > 0)
            msgtext_print(stderr, "ptosim whatif: warning: %s", err);
        workdir_left(&wd, left, sizeof(left));
        workdir_old_programs(wdir, &old_programs);
        snprintf(v[0].odir, sizeof(v[0].odir), "%s", wd.stage);
        const char *tmp = getenv("TMPDIR");
        snprintf(scratch, sizeof(scratch), "%s/ptosim-whatif-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (outputs && !mkdtemp(scratch)) {
            msgtext_print(stderr, "ptosim whatif: cannot make a temporary folder %s: %s; %s", scratch,
                          strerror(errno), left);
            workdir_abort(&wd);
            workdir_close(&wd);
            gcomp_close(&gc);
            free(rest);
            free(v);
            return EXIT_INTERNAL;
        }
        for (int i = 1; outputs && i < n; i++) {
            snprintf(v[i].odir, sizeof(v[i].odir), "%.4000s/lever-%d", scratch, i);
            v[i].scratch = true;
        }
        if (!outputs)
            scratch[0] = '\0';
    }
    long jobs = wo.jobs ? wo.jobs : sysconf(_SC_NPROCESSORS_ONLN);
    rc = intr_signal() ? intr_signal() : run_all(v, n, jobs < 1 ? 1 : jobs, rest, nrest, &gc);
    gcomp_close(&gc);
    free(rest);
    if (scratch[0])
        workdir_remove_tree(scratch);
    bool ok = rc == 0 && v[0].ms[0];
    if (wdir[0] && !ok) { /* a failed whatif commits nothing */
        workdir_abort(&wd);
        workdir_close(&wd);
    }
    const char *sep = left[0] ? "; " : "";
    if (rc > 0) {
        int done = 0;
        for (int i = 0; i < n; i++)
            done += v[i].status >= 0;
        msgtext_print(stderr, "ptosim whatif: interrupted by %s: %d of %d runs finished; nothing ranked%s%s",
                      intr_name(rc), done, n, sep, left);
        free(v);
        return intr_status(rc);
    }
    if (rc < 0) {
        if (left[0])
            msgtext_print(stderr, "ptosim whatif: %s", left);
        free(v);
        return EXIT_INTERNAL;
    }
    if (!v[0].ms[0]) {
        msgtext_print(stderr, "ptosim whatif: the baseline run failed (%s); nothing to rank%s%s", v[0].why,
                      sep, left);
        int st = v[0].status > 0 ? v[0].status : EXIT_INTERNAL;
        free(v);
        return st;
    }
    const lever **rows = malloc((size_t)n * sizeof(*rows));
    if (!rows) {
        fputs("ptosim whatif: out of memory\n", stderr);
        free(v);
        return EXIT_INTERNAL;
    }
    for (int i = 1; i < n; i++)
        rows[i - 1] = &v[i];
    qsort(rows, (size_t)n - 1, sizeof(*rows), by_makespan);
    if (wdir[0] &&
        commit_folder(&wd, &old_programs, &v[0], rows, n - 1, graw, plat.name, kern, nk, left) != 0) {
        free(rows);
        free(v);
        return EXIT_INTERNAL;
    }
    if (wo.json)
        print_json(stdout, &v[0], rows, n - 1, graw, plat.name, kern, nk);
    else
        print_table(&v[0], rows, n - 1, gname, pname, shown, &bound, ktext);
    free(rows);
    free(v);
    return EXIT_OK;
}
