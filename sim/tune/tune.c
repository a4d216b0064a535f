/* tune.c - `ptosim tune`: the tuning loop on simulated runs, ending in recommended ring settings. */
#include "tune.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../model/base/msg_text.h"
#include "../../model/engine/chip_engine.h"
#include "../../model/graph/graph_source.h"
#include "../../model/graph/graph_lint.h"
#include "../../model/output/run_report.h"
#include "../../model/runtime/runtime_error.h"
#include "../../model/runtime/run_config.h"
#include "../../model/base/int_text.h"
#include "../cli/cli.h"
#include "../run/run.h"

#define TUNE_MAX_TRIALS 24    /* simulations the search may spend, by default */
#define TUNE_STEPS_PER_KNOB 3 /* x2, x4, x8 of one ring knob before giving up on it */
#define TUNE_GAIN 1e-6        /* a makespan must drop by this fraction to count as better */
#define TUNE_TOP_KERNELS 3

/* One ring knob of one ring. */
typedef struct knob_ref {
    runcfg_knob knob;
    int ring;
} knob_ref;

/* What one simulated run showed. */
typedef struct trial {
    chip_status status;
    int code;           /* runtime error code when CHIP_FATAL */
    double makespan_us; /* the run's end */
    double orch_end_us; /* orchestration returned */
    uint64_t tasks;     /* completed */
    double res_us[RES_COUNT];
    orch_block_site sites[ORCH_BLOCK_SITES];
    int nsites;
    knob_ref fail;        /* the ring knob a ring deadlock names, ring -1 if none */
    double idle_ready[2]; /* fraction of core time idle while a task of the type was queued */
    double busy[2];       /* busy fraction per core type */
    int ncores[2];
    int top[TUNE_TOP_KERNELS]; /* func ids by time on cores, -1 = none */
    double top_us[TUNE_TOP_KERNELS];
    int top_pipe[TUNE_TOP_KERNELS];
    double top_frac[TUNE_TOP_KERNELS];
    bool top_pipes[TUNE_TOP_KERNELS];  /* the kernel has a pipe model */
    bool oh;                           /* the overhead model was computed */
    bool oh_present[2];                /* ... an engine ran something */
    double oh_pct[2];                  /* ... per-engine overhead, % of the makespan */
    double oh_all, oh_has;             /* ... all and has, % */
    double cp_span, cp_exec, cp_sched; /* ... makespan-determining path: span, compute, scheduler-injected, us */
    cpath_result tool;                 /* ... the runtime's critical_path tool's figures */
    report_bound bound;                /* what bounds the run: the summary's analysis */
    uint64_t tick_hz;                  /* ... the counter they count */
    int runs;                          /* --repeat: seeds whose run ended ok (0: one plain run) */
    double sigma_us; /* ... the makespan's sample sd over them (makespan_us is their mean) */
} trial;

static bool ok(const trial *t)
{
    return t->status == CHIP_DONE;
}

static uint64_t knob_value(const chip_config *cfg, knob_ref k)
{
    return k.knob == KNOB_TASK_WINDOW ? cfg->ring_task_window[k.ring]
           : k.knob == KNOB_HEAP      ? cfg->ring_heap[k.ring]
                                      : cfg->ring_dep_pool[k.ring];
}

static void set_knob(chip_config *cfg, knob_ref k, uint64_t v)
{
    if (k.knob == KNOB_TASK_WINDOW)
        cfg->ring_task_window[k.ring] = (uint32_t)v;
    else if (k.knob == KNOB_HEAP)
        cfg->ring_heap[k.ring] = v;
    else
        cfg->ring_dep_pool[k.ring] = (uint32_t)v;
}

/* Largest value the search tries: the RunConfig limits, and 64 GiB of heap. */
static uint64_t knob_max(runcfg_knob k)
{
    return k == KNOB_HEAP ? (1ULL << 36) : (1ULL << 30);
}

/* The ring knob a resource wait belongs to, ring -1 when no RunConfig knob sizes it. */
static knob_ref knob_of(orch_resource res, int ring)
{
    switch (res) {
    case RES_TASK_WINDOW:
        return (knob_ref){KNOB_TASK_WINDOW, ring};
    case RES_HEAP:
        return (knob_ref){KNOB_HEAP, ring};
    case RES_DEP_POOL:
    case RES_SPILL:
        return (knob_ref){KNOB_DEP_POOL, ring};
    default:
        return (knob_ref){KNOB_TASK_WINDOW, -1};
    }
}

/* Simulates the graph without SimGrid (no collector is on) and keeps what tune reads. */
static int simulate(const platform *plat, const chip_config *cfg, const char *path, trial *t, char *err,
                    size_t errlen)
{
    memset(t, 0, sizeof(*t));
    t->fail.ring = -1;
    chip *c = malloc(sizeof(*c));
    if (!c) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (chip_init(c, plat, cfg, path, err, errlen) != 0) {
        free(c);
        return -1;
    }
    c->measure_idle = true;
    chip_run(c);
    t->status = c->status;
    t->code = c->status == CHIP_FATAL ? c->fatal_code : 0;
    t->makespan_us = us_from_ps(c->end_time);
    t->orch_end_us = us_from_ps(c->orch.end_time);
    t->tasks = c->tasks_completed;
    for (int r = 0; r < RES_COUNT; r++)
        t->res_us[r] = us_from_ps(c->orch.blocked_res_ps[r]);
    memcpy(t->sites, c->orch.sites, sizeof(t->sites));
    t->nsites = c->orch.nsites;
    if (c->status == CHIP_FATAL && t->code >= 1 && t->code <= 4) {
        /* code 1 is the scope pre-check of the innermost scope's ring; 2-4 a blocked allocation */
        int ring = c->orch.nscopes - 1 < 3 ? c->orch.nscopes - 1 : 3;
        t->fail =
            t->code == 1 ? (knob_ref){KNOB_TASK_WINDOW, ring} : knob_of(c->orch.res, c->orch.blocked_ring);
    }
    for (int ty = 0; ty < 2; ty++) {
        for (int i = 0; i < c->ncores; i++)
            t->ncores[ty] += c->cores[i].type == (core_type)ty;
        t->busy[ty] = report_busy_fraction(c, (core_type)ty);
        double denom = (double)t->ncores[ty] * (double)c->end_time;
        t->idle_ready[ty] = denom > 0 ? c->idle_ready_ps[ty] / denom : 0;
    }
    for (int k = 0; k < TUNE_TOP_KERNELS; k++) {
        t->top[k] = -1;
        for (int f = 0; f < GRAPH_MAX_FUNC_ID; f++) {
            const kernel_stats *ks = &c->kstats[f];
            bool taken = false;
            for (int j = 0; j < k; j++)
                taken |= t->top[j] == f;
            if (!taken && ks->executions && (t->top[k] < 0 || ks->core_ps > c->kstats[t->top[k]].core_ps))
                t->top[k] = f;
        }
        if (t->top[k] < 0)
            break;
        const kernel_stats *ks = &c->kstats[t->top[k]];
        t->top_us[k] = us_from_ps(ks->core_ps);
        t->top_pipes[k] = ks->pipe_executions > 0;
        int best = 0;
        for (int p = 1; p < PIPE_COUNT; p++)
            if (ks->busy_cycles[p] > ks->busy_cycles[best])
                best = p;
        t->top_pipe[k] = best;
        t->top_frac[k] = ks->window_cycles ? ks->busy_cycles[best] / (double)ks->window_cycles : 0;
    }
    report_bound_of(c, &t->bound);
    ohm_result oh;
    if (chip_overhead(c, &oh) == 0 && oh.computed) {
        t->oh = true;
        for (int ty = 0; ty < 2; ty++) {
            t->oh_present[ty] = oh.eng[ty].present;
            t->oh_pct[ty] = ohm_pct(&oh, oh.eng[ty].overhead_us);
        }
        t->oh_all = ohm_pct(&oh, oh.all_us);
        t->oh_has = ohm_pct(&oh, oh.has_us);
        t->cp_span = oh.cp_span_us;
        t->cp_exec = oh.cp_exec_us;
        t->cp_sched = oh.cp_sched_us;
        t->tool = oh.tool;
        t->tick_hz = oh.tick_hz;
    }
    ohm_result_free(&oh);
    chip_free(c);
    free(c);
    return 0;
}

/* --repeat N: the trial's makespan is the mean over seeds seed .. seed + N - 1
 * (the other figures are the first seed's). */
static int simulate_n(const platform *plat, const chip_config *cfg, const char *path, long n, trial *t,
                      char *err, size_t errlen)
{
    if (simulate(plat, cfg, path, t, err, errlen) != 0)
        return -1;
    if (n <= 0 || !ok(t))
        return 0;
    double *v = malloc((size_t)n * sizeof(*v));
    if (!v) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int k = 0;
    v[k++] = t->makespan_us;
    for (long i = 1; i < n; i++) {
        chip_config c = *cfg;
        c.seed = cfg->seed + (uint64_t)i;
        trial u;
        if (simulate(plat, &c, path, &u, err, errlen) != 0) {
            free(v);
            return -1;
        }
        if (ok(&u))
            v[k++] = u.makespan_us;
    }
    report_repeat r;
    report_repeat_stats(v, k, &r);
    free(v);
    t->runs = k;
    t->makespan_us = r.mean;
    t->sigma_us = r.sigma;
    return 0;
}

/* Is trial a's makespan inside the noise of b's (both --repeat means)? */
static bool inside_noise(const trial *a, const trial *b)
{
    return a->runs > 1 && b->runs > 1 &&
           report_inside_noise(a->makespan_us, a->sigma_us, a->runs, b->makespan_us, b->sigma_us, b->runs);
}

static void describe(const trial *t, char *out, size_t len)
{
    if (ok(t) && t->runs > 1)
        snprintf(out, len, "makespan %.3f +/- %.3f us over %d seeds", t->makespan_us, t->sigma_us, t->runs);
    else if (ok(t))
        snprintf(out, len, "makespan %.3f us", t->makespan_us);
    else if (t->status == CHIP_FATAL)
        snprintf(out, len, "fails: runtime error %d %s", t->code, rterr_name(t->code));
    else
        snprintf(out, len, "fails: %s", report_status_name(t->status));
}

/* A knob's value as a flag or RunConfig argument: a scalar when every ring
 * differs from the default by the same value, else four values with 0 for
 * the rings left at their default. */
static void knob_text(const chip_config *cfg, const platform *plat, runcfg_knob k, bool python, char *out,
                      size_t len)
{
    uint64_t def = k == KNOB_TASK_WINDOW ? (uint64_t)plat->ring_task_window
                   : k == KNOB_HEAP      ? (uint64_t)plat->ring_heap
                                         : (uint64_t)plat->ring_dep_pool;
    uint64_t v[4];
    bool same = true;
    for (int r = 0; r < 4; r++) {
        v[r] = knob_value(cfg, (knob_ref){k, r});
        same &= v[r] == v[0];
    }
    if (same) {
        snprintf(out, len, "%" PRIu64, v[0]);
        return;
    }
    snprintf(out, len,
             python ? "[%" PRIu64 ", %" PRIu64 ", %" PRIu64 ", %" PRIu64 "]"
                    : "%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64,
             v[0] == def ? 0 : v[0], v[1] == def ? 0 : v[1], v[2] == def ? 0 : v[2], v[3] == def ? 0 : v[3]);
}

static bool knob_changed(const chip_config *a, const chip_config *b, runcfg_knob k)
{
    for (int r = 0; r < 4; r++)
        if (knob_value(a, (knob_ref){k, r}) != knob_value(b, (knob_ref){k, r}))
            return true;
    return false;
}

static const char *kernel_name(const graph *g, int idx)
{
    return idx >= 0 && idx < g->nkernels ? g->kernels[idx].name : "dummy";
}

/* Prints what trial t measured and whether it beats best (a makespan lower by more than TUNE_GAIN and, with
 * --repeat, beyond the seeds' noise): "makespan ... us, kept". Returns whether it does. */
static bool judge(const trial *t, const trial *best)
{
    char what[160];
    describe(t, what, sizeof(what));
    bool better = ok(t) && (!ok(best) || t->makespan_us < best->makespan_us * (1 - TUNE_GAIN));
    /* with --repeat, a gain the seeds' noise could explain is not one */
    bool noise = better && ok(best) && inside_noise(t, best);
    better &= !noise;
    printf("%s, %s\n", what,
           better  ? "kept"
           : noise ? "inside the noise (two standard errors of the difference), dropped"
                   : "dropped");
    return better;
}

/* Step 1: is the graph the one you meant. */
static void print_lint(const lint_report *r, const graph *g)
{
    puts("1. Is the graph the one you meant?");
    size_t chain = r->count[LINT_FALSE_EDGE] + r->count[LINT_INOUT_CHAIN];
    size_t race = r->count[LINT_WAR] + r->count[LINT_WAW] + r->count[LINT_RAW] + r->count[LINT_OPT_OUT];
    printf("   a chain where a fan-out was expected: %zu suspicious serialising pattern%s\n", chain,
           chain == 1 ? "" : "s");
    printf("   a fan-out where a chain was needed: %zu latent race%s\n", race, race == 1 ? "" : "s");
    for (int k = 0; k < LINT_KINDS; k++) {
        if (!r->count[k])
            continue;
        printf("   - %zu x %s\n", r->count[k], lint_kind_text((lint_kind)k));
        for (size_t i = 0; i < r->nshown; i++) {
            const lint_finding *f = &r->shown[i];
            if (f->kind != (lint_kind)k)
                continue;
            const char *tensor = strtab_key(&g->tensor_names, f->tensor);
            if (f->kind == LINT_INOUT_CHAIN)
                printf("       lines %ld..%ld: %d tasks of %s inout the same region of %s\n", f->line_a,
                       f->line_b, f->chain, kernel_name(g, f->kernel_b), tensor);
            else
                printf("       line %ld (%s) and line %ld (%s) on %s%s%s\n", f->line_a,
                       kernel_name(g, f->kernel_a), f->line_b, kernel_name(g, f->kernel_b), tensor,
                       f->why[0] ? ": " : "", f->why);
        }
        if (r->count[k] > LINT_SHOW)
            printf("       ... and %zu more\n", r->count[k] - LINT_SHOW);
    }
    if (race)
        puts(
            "   fix a race with an explicit dep from the reader to the writer (or declare the reader inout,\n"
            "   which serialises the readers), and keep opt-outs to regions no other task uses");
    if (r->truncated)
        puts("   (some pairs were left unchecked: a buffer's history or a path search hit its cap)");
}

static int by_wait(const void *a, const void *b)
{
    ps_t x = ((const orch_block_site *)a)->ps, y = ((const orch_block_site *)b)->ps;
    return x < y ? 1 : x > y ? -1 : 0;
}

static void print_run(const trial *t, const graph *g)
{
    static const char *const TYPES[2] = {"AIC", "AIV"};
    char what[160];
    describe(t, what, sizeof(what));
    printf("2. Did tasks overlap?  (%s)\n", what);
    if (t->bound.kind != REPORT_BOUND_NONE)
        printf("   bottleneck: %s\n", t->bound.text);
    for (int ty = 0; ty < 2; ty++)
        printf("   %s: busy %.1f%%, idle while a task of its type sat in a shared ready queue %.1f%% of its core "
               "time\n",
               TYPES[ty], 100 * t->busy[ty], 100 * t->idle_ready[ty]);
    if (t->oh) {
        /* the two figures measure different waits: say which, so a 0.0 above never reads as "nothing waits" */
        puts("   (a shared queue holds tasks submitted ready and tasks one scheduler thread leaves to another; a\n"
             "   task its producer's thread releases waits in that thread's own buffer instead; the overhead\n"
             "   below counts every ready task's wait, from its last producer's end to its dispatch)");
        fputs("   scheduler overhead (a core idle while a ready task waits to be dispatched):", stdout);
        for (int ty = 0; ty < 2; ty++)
            if (t->oh_present[ty])
                printf(" %s %.1f%%,", TYPES[ty], t->oh_pct[ty]);
        printf(" all %.1f%%, has %.1f%% of the makespan: %s\n", t->oh_all, t->oh_has, ohm_verdict(t->oh_has));
        if (t->cp_span > 0)
            printf("   makespan-determining path (sched_overhead_analysis): %.3f us, compute %.1f%%, "
                   "scheduler-injected %.1f%%\n",
                   t->cp_span, 100 * t->cp_exec / t->cp_span, 100 * t->cp_sched / t->cp_span);
        if (ohm_cp_over_100(t->cp_span, t->cp_sched))
            printf("   (%s)\n", OHM_CP_OVER_100);
        report_critical_path(&t->tool, t->tick_hz, "   ", stdout);
    } else if (t->tasks > 0) {
        printf("   scheduler overhead: not computed (more than %u executions or tasks)\n",
               EXEC_LOG_MAX);
    }
    puts("3. Is a ring the limit?");
    orch_block_site sites[ORCH_BLOCK_SITES];
    memcpy(sites, t->sites, sizeof(sites));
    qsort(sites, (size_t)t->nsites, sizeof(sites[0]), by_wait);
    int shown = 0;
    for (int k = 0; k < t->nsites && sites[k].ps > 0; k++, shown++)
        printf("   ring %d %s full: the orchestrator waited %.3f us inside scope %s\n", sites[k].ring,
               orch_resource_name(sites[k].res), us_from_ps(sites[k].ps), sites[k].site);
    if (t->fail.ring >= 0)
        printf("   the run ends with runtime error %d: ring %d's %s is too small\n", t->code, t->fail.ring,
               runcfg_knob_name(t->fail.knob));
    else if (!shown)
        puts("   no: the orchestrator never waited for a ring");
    puts("4. Which pipe bounds the hottest kernels?");
    for (int k = 0; k < TUNE_TOP_KERNELS && t->top[k] >= 0; k++) {
        const graph_kernel *gk = graph_kernel_by_id(g, t->top[k]);
        if (t->top_pipes[k])
            printf("   %s: %.3f us on cores, %s pipe busy %.1f%%\n", gk ? gk->name : "?", t->top_us[k],
                   pipe_name((pipe_id)t->top_pipe[k]), 100 * t->top_frac[k]);
        else
            printf("   %s: %.3f us on cores (flat cost: no pipe model)\n", gk ? gk->name : "?", t->top_us[k]);
    }
}

/* The ring knobs to try next, most waited-on first; the failing one alone
 * when the run failed on a ring. */
static int candidates(const trial *t, knob_ref *out)
{
    if (t->fail.ring >= 0) {
        out[0] = t->fail;
        return 1;
    }
    int n = 0;
    double wait[3][4] = {{0}};
    for (int k = 0; k < t->nsites; k++) {
        knob_ref kr = knob_of(t->sites[k].res, t->sites[k].ring);
        if (kr.ring >= 0)
            wait[kr.knob][kr.ring] += (double)t->sites[k].ps;
    }
    for (;;) {
        int bk = -1, br = -1;
        for (int k = 0; k < 3; k++)
            for (int r = 0; r < 4; r++)
                if (wait[k][r] > 0 && (bk < 0 || wait[k][r] > wait[bk][br]))
                    bk = k, br = r;
        if (bk < 0)
            return n;
        out[n++] = (knob_ref){(runcfg_knob)bk, br};
        wait[bk][br] = 0;
    }
}

/* --max-trials N */
static int store_trials(const opt_def *d, const char *word, const char *value, void *dest, char *err,
                        size_t errlen)
{
    (void)word;
    int64_t n;
    if (strint_parse(value, 0, 10000, &n) != STRINT_OK) {
        snprintf(err, errlen, "%s", d->missing);
        return -1;
    }
    *(long *)dest = (long)n;
    return 0;
}

/* tune's own option, and the run options its help says more of (passed on to run's parser) */
static const opt_def TUNE_OPTS[] = {
    {.name = "max-trials",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_NUMBER,
     .meta = "N",
     .help = "simulations the search may spend (default 24)",
     .store = store_trials,
     .missing = "--max-trials needs an integer in [0, 10000]"},
    {.name = "seed",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_NUMBER,
     .meta = "N",
     .help = "variation on (ptosim run --help)",
     .flags = OPT_PASS},
    {.name = "repeat",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_NUMBER,
     .meta = "N",
     .help = "every trial is N seeds, and a change is kept only when its gain is\n"
             "beyond the seeds' noise",
     .flags = OPT_PASS},
};

const opt_table tune_options = {
    .cmd = "tune",
    .opts = TUNE_OPTS,
    .nopts = OPT_COUNT(TUNE_OPTS),
    .operand_kind = OPT_KIND_FILE,
    .unknown = "unknown option '%s' (ptosim tune --help lists the options)", /* unused: run's parser says */
    .pass = &cli_run_options,
};

static void usage(FILE *f)
{
    fputs("usage: ptosim tune GRAPH [--max-trials N] [run options]\n"
          "\n"
          "Walks the tuning loop on simulated runs: is the graph the one you meant (suspicious serialising\n"
          "edges, latent races), did tasks overlap, is a ring the limit, which pipe bounds the hottest\n"
          "kernels; then changes one ring knob at a time (powers of two, per ring), then the AICPU\n"
          "thread count (each other of 2-4 at the rings kept), keeps a change only when the makespan\n"
          "improves, and prints the recommended settings as ptosim flags and as a RunConfig. Run options\n"
          "(-p, --set, --kernel-set, --ring-*, --aicpu-thread-num, timeouts) set the start.\n"
          "\n",
          f);
    opt_help(&tune_options, f);
    fputs("\n"
          "GRAPH may be - (standard input) or a pipe: tune copies it to a temporary file first. Tune\n"
          "writes no files, so it takes none of run's output options (-o, --enable-*, --dump-args,\n"
          "--perfetto).\n"
          "\n"
          "exit status: 0 recommended; 1 the simulator failed; 2 bad command line or platform; 3 a\n"
          "malformed graph\n",
          f);
}

int tune_main(int argc, char **argv)
{
    long max_trials = TUNE_MAX_TRIALS;
    char err[4096];
    /* tune's own option here; every other word goes to run's parser */
    const char **rest = malloc(((size_t)argc + 1) * sizeof(*rest));
    int nrest = 0;
    if (!rest) {
        fputs("ptosim tune: out of memory\n", stderr);
        return EXIT_INTERNAL;
    }
    int own = opt_parse(&tune_options, argc, argv, &max_trials, rest, &nrest, err, sizeof(err));
    if (own != 0) {
        free(rest);
        if (own == 1) {
            usage(stdout);
            return EXIT_OK;
        }
        msgtext_print(stderr, "ptosim tune: %s", err);
        return EXIT_USAGE;
    }
    cli_run opt;
    int rc =
        cli_parse_run_args(nrest, (char **)rest, &opt, err, sizeof(err)); /* tune refuses outputs below */
    free(rest);                                                           /* opt's strings are argv's */
    if (rc == 1)
        return EXIT_OK;
    if (rc != 0) {
        opt_unknown_passed(&tune_options, "tune", err, sizeof(err));
        msgtext_print(stderr, "ptosim tune: %s", err);
        return EXIT_USAGE;
    }
    if (opt.ngraphs != 1 || opt.work_dir || opt.swimlane_level || opt.dep_gen || opt.scope_stats ||
        opt.dump_level || opt.pmu_given || opt.perfetto) {
        msgtext_print(stderr, "ptosim tune: takes one GRAPH and no output options (-o, --enable-*, --dump-args, "
                        "--perfetto: tune writes no files; run ptosim run with the recommended flags for "
                        "those)");
        return EXIT_USAGE;
    }
    platform plat;
    chip_config cfg;
    int code = run_prepare(&opt, &plat, &cfg, NULL); /* tune's report has no summary to repeat them in */
    if (code != EXIT_OK)
        return code;
    /* tune reads the graph once per trial: a pipe is copied to a temporary file first */
    char spooled[64];
    if (gsrc_read_once(opt.graph)) {
        int src = gsrc_spool_temp(opt.graph, spooled, sizeof(spooled), err, sizeof(err));
        if (src != 0) {
            msgtext_print(stderr, "ptosim: %s", err);
            return src > 0 ? EXIT_GRAPH : EXIT_INTERNAL;
        }
        opt.graph = opt.graphs[0] = spooled;
    }
    graph g;
    lint_report lr;
    if (lint_graph(opt.graph, &g, &lr, err, sizeof(err)) != 0) {
        msgtext_print(stderr, "ptosim: %s", err);
        if (g.f)
            graph_close(&g);
        lint_report_free(&lr);
        return EXIT_GRAPH;
    }
    graph hdr;
    if (graph_open(&hdr, opt.graph, err, sizeof(err)) != 0) {
        msgtext_print(stderr, "ptosim: %s", err);
        graph_close(&g);
        lint_report_free(&lr);
        return EXIT_GRAPH;
    }
    run_apply_rings(&cfg, &hdr, &opt);
    int ks = run_apply_kernel_sets(&cfg, &hdr, &opt);
    graph_close(&hdr);
    if (ks != EXIT_OK) {
        graph_close(&g);
        lint_report_free(&lr);
        return ks;
    }

    printf("ptosim tune: %s (%ld tasks) on %s\n", g.name, lr.tasks, plat.name);
    print_lint(&lr, &g);
    trial base, best, t;
    if (simulate_n(&plat, &cfg, opt.graph, opt.repeat, &base, err, sizeof(err)) != 0) {
        msgtext_print(stderr, "ptosim: %s", err);
        graph_close(&g);
        lint_report_free(&lr);
        return EXIT_INTERNAL;
    }
    print_run(&base, &g);

    /* 5: one change at a time, kept only when the makespan improves */
    puts("5. One change at a time");
    best = base;
    chip_config cur = cfg;
    long trials = 0;
    bool any = false;
    while (trials < max_trials) {
        knob_ref cand[12];
        int nc = candidates(&best, cand);
        bool kept = false;
        for (int i = 0; i < nc && !kept && trials < max_trials; i++) {
            uint64_t v = knob_value(&cur, cand[i]);
            for (int step = 1; step <= TUNE_STEPS_PER_KNOB && !kept && trials < max_trials; step++) {
                uint64_t nv = v << step;
                if (nv > knob_max(cand[i].knob) || nv < v)
                    break;
                chip_config next = cur;
                set_knob(&next, cand[i], nv);
                if (simulate_n(&plat, &next, opt.graph, opt.repeat, &t, err, sizeof(err)) != 0) {
                    msgtext_print(stderr, "ptosim: %s", err);
                    graph_close(&g);
                    lint_report_free(&lr);
                    return EXIT_INTERNAL;
                }
                trials++;
                any = true;
                printf("   ring %d %s %" PRIu64 " -> %" PRIu64 ": ", cand[i].ring,
                       runcfg_knob_name(cand[i].knob), v, nv);
                if (judge(&t, &best)) {
                    cur = next;
                    best = t;
                    kept = true;
                }
            }
        }
        if (!kept)
            break;
    }
    if (!any)
        puts("   nothing to try: no ring held the orchestrator back");
    /* the AICPU thread count at the rings kept: every other count the runtime takes (2 to 4: the
     * orchestrator and 1 to 3 schedulers), each kept only when it beats the best so far */
    platform cur_plat = plat;
    for (int64_t th = RUNCFG_MIN_THREADS; th <= RUNCFG_MAX_THREADS && trials < max_trials; th++) {
        if (th == plat.aicpu_threads)
            continue;
        platform p = plat;
        p.aicpu_threads = th;
        if (platform_validate(&p, err, sizeof(err)) != 0) {
            printf("   aicpu_thread_num %" PRId64 " -> %" PRId64 ": not on this platform (%s)\n",
                   plat.aicpu_threads, th, err);
            continue;
        }
        if (simulate_n(&p, &cur, opt.graph, opt.repeat, &t, err, sizeof(err)) != 0) {
            msgtext_print(stderr, "ptosim: %s", err);
            graph_close(&g);
            lint_report_free(&lr);
            return EXIT_INTERNAL;
        }
        trials++;
        printf("   aicpu_thread_num %" PRId64 " -> %" PRId64 ": ", plat.aicpu_threads, th);
        if (judge(&t, &best)) {
            cur_plat = p;
            best = t;
        }
    }
    if (trials >= max_trials && max_trials > 0)
        printf("   stopped after %ld trials (--max-trials)\n", trials);

    puts("Recommended");
    char what[160];
    describe(&best, what, sizeof(what));
    bool threads = cur_plat.aicpu_threads != plat.aicpu_threads, changed = threads;
    for (int k = 0; k < 3; k++)
        changed |= knob_changed(&cur, &cfg, (runcfg_knob)k);
    if (!changed) {
        printf("   keep the current settings (%s)\n", what);
    } else {
        char text[128];
        fputs("   ptosim flags:", stdout);
        for (int k = 0; k < 3; k++)
            if (knob_changed(&cur, &cfg, (runcfg_knob)k)) {
                knob_text(&cur, &plat, (runcfg_knob)k, false, text, sizeof(text));
                printf(" %s %s", runcfg_knob_flag((runcfg_knob)k), text);
            }
        if (threads)
            printf(" --aicpu-thread-num %" PRId64, cur_plat.aicpu_threads);
        printf("\n   RunConfig(platform=\"%s\"", plat.name);
        for (int k = 0; k < 3; k++)
            if (knob_changed(&cur, &cfg, (runcfg_knob)k)) {
                knob_text(&cur, &plat, (runcfg_knob)k, true, text, sizeof(text));
                printf(", %s=%s", runcfg_knob_name((runcfg_knob)k), text);
            }
        if (threads)
            printf(", aicpu_thread_num=%" PRId64, cur_plat.aicpu_threads);
        char was[160];
        describe(&base, was, sizeof(was));
        printf(")\n   measured: %s (was: %s", what, was);
        if (ok(&base))
            printf(", %.1f%% less", 100 * (1 - best.makespan_us / base.makespan_us));
        puts(")");
    }

    puts("What settings cannot fix");
    int said = 0;
    if (!ok(&best)) {
        printf("   the run still fails (%s): no ring setting within the limits the search tried helps\n",
               what);
        said++;
    }
    if (ok(&best) && best.orch_end_us > 0.9 * best.makespan_us && best.busy[0] < 0.5 && best.busy[1] < 0.5 &&
        best.tasks > 0) {
        printf("   granularity: orchestration runs until %.1f%% of the makespan while the cores are mostly "
               "idle;\n"
               "   at %.3f us per submit the orchestrator bounds the run: make tasks coarser (or SPMD)\n",
               100 * best.orch_end_us / best.makespan_us, (double)plat.orch_submit_ns / 1e3);
        said++;
    }
    /* the bottleneck line's verdict: the scheduler's latency between producer and consumer, which neither a
     * ring nor the thread counts tried removed */
    if (ok(&best) && best.bound.kind == REPORT_BOUND_SCHEDULING) {
        printf("   scheduling: a core still sits idle while a ready task waits to be dispatched %.1f%% of the\n"
               "   makespan: each producer -> consumer hop waits for a scheduler thread to see the producer end,\n"
               "   release the consumer and dispatch it; fewer, larger tasks (fewer hops) wait less\n",
               best.oh_has);
        said++;
    }
    /* too little parallel work: the cores are idle and neither queue nor dispatch holds their tasks back
     * (the overhead model's share of the engine below the summary's 8 % line) */
    for (int ty = 0; ty < 2 && ok(&best) && best.bound.kind != REPORT_BOUND_SCHEDULING; ty++)
        if (best.tasks > 0 && best.busy[ty] > 0 && best.busy[ty] < 0.25 && best.idle_ready[ty] < 0.01 &&
            (!best.oh || best.oh_pct[ty] < REPORT_OVERHEAD_SHOWN_PCT) && best.orch_end_us < 0.5 * best.makespan_us) {
            printf("   parallelism: %s cores are busy %.1f%% and their ready tasks seldom wait (queued %.1f%% of "
                   "core time",
                   ty ? "AIV" : "AIC", 100 * best.busy[ty], 100 * best.idle_ready[ty]);
            if (best.oh)
                printf(",\n   waiting for dispatch %.1f%% of the makespan", best.oh_pct[ty]);
            printf("): the graph offers too little parallel work to fill\n"
                   "   %d cores (split tasks, or overlap independent work)\n",
                   best.ncores[ty]);
            said++;
        }
    for (int k = 0; k < TUNE_TOP_KERNELS && best.top[k] >= 0; k++)
        if (best.top_pipes[k] && best.top_frac[k] > 0.8) {
            const graph_kernel *gk = graph_kernel_by_id(&g, best.top[k]);
            printf("   %s is bound by its %s pipe (busy %.1f%%): the kernel itself must move less or reuse "
                   "more\n",
                   gk ? gk->name : "?", pipe_name((pipe_id)best.top_pipe[k]), 100 * best.top_frac[k]);
            said++;
        }
    if (!said)
        puts("   nothing stands out");
    graph_close(&g);
    lint_report_free(&lr);
    return EXIT_OK;
}
