/* overhead.c - `ptosim overhead`: a capture's scheduler-overhead model and its text report. */
/* The capture: its swimlane and deps.json. */
#include "overhead.h"

#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../model/base/msg_text.h"
#include "../cli/cli.h"
#include "report_data.h"

static void usage(FILE *out)
{
    fputs("usage: ptosim overhead DIR|SWIMLANE.json [--deps-json DEPS.json]\n"
          "\n"
          "The runtime's scheduler-overhead model (hw-native-sys/simpler docs/dfx/sched-overhead-model.md)\n"
          "of a run's chip_swimlane_records.json (level 2 or more) and its deps.json: the figures the\n"
          "runtime's sched_overhead_analysis prints for the same files, and the per-core gap decomposition.\n"
          "DIR is a run's work dir (its dfx_outputs/) or a dfx_outputs folder; deps.json is taken from\n"
          "beside the swimlane unless --deps-json names it.\n"
          "\n"
          "options:\n",
          out);
    opt_help(&overhead_options, out);
    fputs("\n"
          "exit status: 0 printed; 1 out of memory; 2 bad command line or a missing file; 3 a malformed\n"
          "file (or a swimlane below level 2)\n",
          out);
}

/* What overhead's command line gives. */
typedef struct overhead_args {
    const char *in;   /* DIR or SWIMLANE.json */
    const char *deps; /* --deps-json, or NULL */
} overhead_args;

/* One DIR or swimlane; "-" is no name here, as an unknown option */
static int overhead_operand(const char *word, void *dest, char *err, size_t errlen)
{
    overhead_args *a = dest;
    if (word[0] == '-' || a->in) {
        snprintf(err, errlen, "%s: %s", word,
                 word[0] == '-' ? "unknown option" : "one DIR or swimlane at a time");
        return -1;
    }
    a->in = word;
    return 0;
}

static const opt_def OVERHEAD_OPTS[] = {
    {.name = "deps-json",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_FILE,
     .meta = "DEPS.json",
     .help = "the task graph (default: deps.json beside the swimlane)",
     .store = opt_store_text,
     .off = offsetof(overhead_args, deps),
     .missing = "--deps-json needs a file"},
};

const opt_table overhead_options = {
    .cmd = "overhead",
    .opts = OVERHEAD_OPTS,
    .nopts = OPT_COUNT(OVERHEAD_OPTS),
    .operand_kind = OPT_KIND_FILE, /* a folder or a swimlane file */
    .operand = overhead_operand,
    .unknown = "%s: unknown option",
};

static bool is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static bool is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Orders aicore rows by (core, reg) for the join. */
static int cmp_exec_key(const void *a, const void *b)
{
    const rd_exec *x = a, *y = b;
    if (x->core != y->core)
        return (x->core > y->core) - (x->core < y->core);
    return (x->reg > y->reg) - (x->reg < y->reg);
}

int overhead_load(const char *swimlane, const char *deps, exec_log *l, unsigned long long *tick_hz,
                  size_t *unmatched, char *err, size_t errlen)
{
    rd_swimlane sl;
    rd_deps d;
    exec_log_init(l, 0);
    *unmatched = 0;
    int rc = rd_load_swimlane(swimlane, &sl, err, errlen);
    if (rc == RD_ABSENT)
        return EXIT_USAGE;
    if (rc != RD_OK)
        return EXIT_GRAPH;
    if (sl.level < 2) {
        snprintf(
            err, errlen,
            "%s: chip_swimlane_level %d has no dispatch and finish times; the overhead model needs level 2 "
            "or more (--enable-chip-swimlane=2)",
            swimlane, sl.level);
        rd_swimlane_free(&sl);
        return EXIT_GRAPH;
    }
    rc = rd_load_deps(deps, &d, err, errlen);
    if (rc != RD_OK) {
        rd_swimlane_free(&sl);
        return rc == RD_ABSENT ? EXIT_USAGE : EXIT_GRAPH;
    }
    int status = EXIT_OK;
    qsort(sl.ex, sl.nex, sizeof(*sl.ex), cmp_exec_key);
    for (size_t i = 0; i < sl.ncpu && status == EXIT_OK; i++) {
        const rd_cpu *c = &sl.cpu[i];
        rd_exec key = {.core = c->core, .reg = c->reg};
        const rd_exec *x = bsearch(&key, sl.ex, sl.nex, sizeof(*sl.ex), cmp_exec_key);
        if (!x || c->core >= sl.ncores) {
            (*unmatched)++;
            continue;
        }
        exec_record ox = {.task = x->task,
                       .core = x->core,
                       .aiv = !sl.aic[x->core],
                       .dispatch = (int64_t)c->dispatch,
                       .receive = (int64_t)(x->start - x->r2s),
                       .start = (int64_t)x->start,
                       .end = (int64_t)x->end,
                       .finish = (int64_t)c->finish};
        if (exec_log_add(l, &ox) != 0)
            status = EXIT_INTERNAL;
    }
    for (size_t i = 0; i < d.nedges && status == EXIT_OK; i++)
        if (exec_log_task(l, d.edges[i].succ, &d.edges[i].pred, 1) != 0)
            status = EXIT_INTERNAL;
    if (status != EXIT_OK) {
        snprintf(err, errlen, "out of memory");
        exec_log_free(l);
    }
    *tick_hz = sl.clock_hz;
    rd_swimlane_free(&sl);
    rd_deps_free(&d);
    return status;
}

/* One row of a distribution: n, the percentiles, max, mean, total. */
static void dist_row(FILE *f, const char *label, const ohm_dist *d)
{
    fprintf(f, "   %-14s %6" PRIu64, label, d->n);
    for (int k = 0; k < OHM_PCTS; k++)
        fprintf(f, " %8.2f", d->pct[k]);
    fprintf(f, " %8.2f %8.2f %10.1f\n", d->max, d->mean, d->sum);
}

void overhead_print(FILE *f, const ohm_result *r)
{
    static const char *const TY[2] = {"aic", "aiv"};
    if (!r->computed) {
        fputs("overhead: no AICore execution to analyse\n", f);
        return;
    }
    double has = ohm_pct(r, r->has_us);
    fprintf(
        f, "1. Overhead: a core idle while a ready, undispatched task of its type exists (%% of makespan)\n");
    fprintf(f, "   %" PRIu64 " executions of %" PRIu64 " tasks, window %.3f us (first start -> last end)\n",
            r->executions, r->tasks, r->window_us);
    fputs("   per engine:", f);
    for (int ty = 0; ty < 2; ty++)
        if (r->eng[ty].present)
            fprintf(f, " %s %.1f%%", TY[ty], ohm_pct(r, r->eng[ty].overhead_us));
    fprintf(f, "\n   all %.1f%% (every engine blocked), has %.1f%% (every engine with ready work starved)\n",
            ohm_pct(r, r->all_us), has);
    fprintf(f, "   -> %s\n", ohm_verdict(has));
    fputs("2. AICore switch: gap [previous end, start] when dispatched before the previous end (per core)\n",
          f);
    fputs("   engine  cores  min/core mean/core  max/core  events  us/event  during overhead\n", f);
    for (int ty = 0; ty < 2; ty++) {
        const ohm_engine *e = &r->eng[ty];
        if (!e->present)
            continue;
        double tot = e->sw_overhead_us + e->sw_independent_us;
        fprintf(f, "   %-6s %6d %9.3f %9.3f %9.3f %7" PRIu64 " %9.3f  ", TY[ty], e->cores, e->sw_min_us,
                e->sw_mean_us, e->sw_max_us, e->sw_events,
                e->sw_events ? e->sw_mean_us * e->cores / (double)e->sw_events : 0.0);
        if (tot > 0)
            fprintf(f, "%.0f%%\n", 100 * e->sw_overhead_us / tot);
        else
            fputs("-\n", f);
    }
    fprintf(f, "   makespan switch bound: [%.3f, %.3f] us (%.2f%% .. %.2f%% of the makespan)\n",
            r->bound_lo_us, r->bound_hi_us, ohm_pct(r, r->bound_lo_us), ohm_pct(r, r->bound_hi_us));
    fputs(
        "3. Distributions (us)      n      P10      P25      P50      P75      P90      P95      P99      max"
        "     mean      total\n",
        f);
    dist_row(f, "head", &r->head);
    dist_row(f, "tail", &r->tail);
    dist_row(f, "steady switch", &r->steady);
    dist_row(f, "  prev tail", &r->prev_tail);
    dist_row(f, "  setup", &r->setup);
    dist_row(f, "first switch", &r->first_switch);
    dist_row(f, "wait gap", &r->wait);
    fputs(
        "   head = min(start - dispatch, start - previous end); tail = finish - end; a switch (steady: not\n"
        "   a core's first) = prev tail (receive - previous end) + setup (start - receive)\n",
        f);
    fprintf(f, "4. Critical path: %d hops, span %.3f us\n", r->cp_hops, r->cp_span_us);
    if (r->cp_span_us > 0)
        fprintf(f, "   compute %.3f us (%.1f%%), scheduler-injected %.3f us (%.1f%%), other %.3f us\n",
                r->cp_exec_us, 100 * r->cp_exec_us / r->cp_span_us, r->cp_sched_us,
                100 * r->cp_sched_us / r->cp_span_us, r->cp_other_us);
    if (ohm_cp_over_100(r->cp_span_us, r->cp_sched_us))
        fprintf(f, "   (%s)\n", OHM_CP_OVER_100);
}

int overhead_main(int argc, char **argv)
{
    overhead_args a = {NULL, NULL};
    char err[RD_ERR_MAX + PATH_MAX];
    int rc = opt_parse(&overhead_options, argc, argv, &a, NULL, NULL, err, sizeof(err));
    if (rc == 1) {
        usage(stdout);
        return EXIT_OK;
    }
    if (rc != 0) {
        msgtext_print(stderr, "ptosim overhead: %s", err);
        return EXIT_USAGE;
    }
    const char *in = a.in, *deps = a.deps;
    if (!in) {
        fputs("ptosim overhead: missing DIR or SWIMLANE.json\n", stderr);
        return EXIT_USAGE;
    }
    char sl[PATH_MAX], dp[PATH_MAX];
    if (is_dir(in)) {
        snprintf(sl, sizeof(sl), "%s/dfx_outputs/chip_swimlane_records.json", in);
        if (!is_file(sl))
            snprintf(sl, sizeof(sl), "%s/chip_swimlane_records.json", in);
    } else {
        snprintf(sl, sizeof(sl), "%s", in);
    }
    if (!is_file(sl)) {
        msgtext_print(stderr, "ptosim overhead: %s: no chip_swimlane_records.json (run with --enable-chip-swimlane)", in);
        return EXIT_USAGE;
    }
    if (deps) {
        snprintf(dp, sizeof(dp), "%s", deps);
    } else {
        const char *slash = strrchr(sl, '/');
        snprintf(dp, sizeof(dp), "%.*sdeps.json", slash ? (int)(slash - sl + 1) : 0, sl);
    }
    if (!is_file(dp)) {
        msgtext_print(stderr, "ptosim overhead: %s: no such file; the model needs the task graph (deps.json from a run with "
            "--enable-dep-gen; --deps-json names it)",
            dp);
        return EXIT_USAGE;
    }
    exec_log l;
    unsigned long long hz;
    size_t unmatched;
    int status = overhead_load(sl, dp, &l, &hz, &unmatched, err, sizeof(err));
    if (status != EXIT_OK) {
        msgtext_print(stderr, "ptosim overhead: %s", err);
        return status;
    }
    ohm_result r;
    if (ohm_compute(&l, hz, &r) != 0) {
        fputs("ptosim overhead: out of memory\n", stderr);
        exec_log_free(&l);
        return EXIT_INTERNAL;
    }
    printf("ptosim overhead: %s with %s\n", sl, dp);
    if (unmatched)
        printf("   %zu aicpu_tasks rows have no aicore_tasks row and are left out\n", unmatched);
    overhead_print(stdout, &r);
    ohm_result_free(&r);
    exec_log_free(&l);
    return EXIT_OK;
}
