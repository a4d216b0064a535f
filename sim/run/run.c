/* run.c - `ptosim run`: load the platform, validate the graph, simulate it, write the run's files. */
#include "run.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../model/base/int_text.h"
#include "../../model/base/msg_text.h"
#include "../../model/base/outfile.h"
#include "../../model/base/sha256.h"
#include "../../model/base/userdir.h"
#include "../../model/engine/chip_engine.h"
#include "../../model/graph/graph_source.h"
#include "../../model/graph/worker.h"
#include "../../model/output/perfetto_writer.h"
#include "../../model/output/run_folder.h"
#include "../../model/output/run_report.h"
#include "../../model/runtime/run_config.h"
#include "../cli/cli.h"
#include "../cli/progress.h"
#include "../cli/stop_signal.h"
#include "../simgrid/simgrid_load.h"
#include "../simgrid/simgrid_run.h"

#ifndef PTOSIM_DATADIR
#define PTOSIM_DATADIR "platforms"
#endif

static int file_exists(const char *path)
{
    return access(path, R_OK) == 0;
}

void run_platform_dir(char *out, int outlen)
{
    const char *env = getenv("PTOSIM_PLATFORM_DIR");
    if (env && *env) {
        snprintf(out, (size_t)outlen, "%s", env);
        return;
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            char probe[PATH_MAX + 64];
            snprintf(probe, sizeof(probe), "%s/../platforms/a2a3.json", exe);
            if (file_exists(probe)) {
                snprintf(out, (size_t)outlen, "%s/../platforms", exe);
                return;
            }
            snprintf(probe, sizeof(probe), "%s/platforms/a2a3.json", exe);
            if (file_exists(probe)) {
                snprintf(out, (size_t)outlen, "%s/platforms", exe);
                return;
            }
            /* make install: PREFIX/bin/ptosim beside PREFIX/share/ptosim/platforms */
            snprintf(probe, sizeof(probe), "%s/../share/ptosim/platforms/a2a3.json", exe);
            if (file_exists(probe)) {
                snprintf(out, (size_t)outlen, "%s/../share/ptosim/platforms", exe);
                return;
            }
        }
    }
    snprintf(out, (size_t)outlen, "%s", PTOSIM_DATADIR);
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Finishes args_dump/: args.bin (levels 1-2: whenever a record was
 * collected, even if empty; level 3: only when a payload byte was written)
 * and the manifest. No record at all: no args_dump/ (model/README.md §16.5). */
static int write_args_dump(chip *c, const char *work_dir, outfile *binf, char *err, size_t errlen)
{
    argsdump *ad = &c->dump.ad;
    char path[PATH_MAX + 300];
    snprintf(path, sizeof(path), "%s/dfx_outputs/args_dump", work_dir);
    bool keep_bin = ad->n && (ad->level != 3 || ad->bin_end > 0);
    if (!keep_bin) {
        outfile_abort(binf);
        ad->bin = NULL;
        if (!ad->n) {
            rmdir(path);
            return 0;
        }
    } else {
        if (argsdump_finish_bin(ad) != 0) {
            snprintf(err, errlen, "%.3900s/args.bin: cannot write: %s", path, strerror(errno));
            outfile_abort(binf);
            ad->bin = NULL;
            return -1;
        }
        ad->bin = NULL;
        if (outfile_commit(binf, err, errlen) != 0)
            return -1;
    }
    snprintf(path, sizeof(path), "%s/dfx_outputs/args_dump/args_dump.json", work_dir);
    return argsdump_write_manifest(ad, path, keep_bin, err, errlen);
}

/* ptosim's Perfetto trace: to --perfetto FILE and, with --enable-perfetto,
 * to dfx_outputs/ptosim_trace.json of the run's staging folder out (listed in outputs). Returns 0, or -1
 * after printing why a file could not be written. */
static int write_trace(const chip *c, const cli_run *opt, const char *out, const char **outputs, int *nout)
{
    char err[PATH_MAX + 512], path[PATH_MAX + 256];
    int rc = 0;
    if (opt->perfetto && pf_write(c, opt->perfetto, err, sizeof(err)) != 0) {
        msgtext_print(stderr, "ptosim: %s", err);
        rc = -1;
    }
    if (opt->enable_perfetto && out) {
        snprintf(path, sizeof(path), "%s/dfx_outputs/ptosim_trace.json", out);
        if (pf_write(c, path, err, sizeof(err)) != 0) {
            msgtext_print(stderr, "ptosim: %s", err);
            rc = -1;
        } else {
            outputs[(*nout)++] = "dfx_outputs/ptosim_trace.json";
        }
    }
    return rc;
}

static int exit_for(chip_status s)
{
    switch (s) {
    case CHIP_DONE:
        return EXIT_OK;
    case CHIP_FATAL:
        return EXIT_RUNTIME;
    case CHIP_DEVICE_ERROR:
        return EXIT_DEVICE;
    case CHIP_STALLED:
        return EXIT_STALLED;
    default:
        return EXIT_INTERNAL;
    }
}

/* Lays the non-zero sizes of one layer (per knob and ring) over cfg's. The
 * values are checked where they are read, so they fit the fields. */
static void lay_rings(chip_config *cfg, const uint64_t layer[3][RUNCFG_RINGS])
{
    for (int r = 0; r < RING_COUNT; r++) {
        if (layer[KNOB_TASK_WINDOW][r])
            cfg->ring_task_window[r] = (uint32_t)layer[KNOB_TASK_WINDOW][r];
        if (layer[KNOB_HEAP][r])
            cfg->ring_heap[r] = layer[KNOB_HEAP][r];
        if (layer[KNOB_DEP_POOL][r])
            cfg->ring_dep_pool[r] = (uint32_t)layer[KNOB_DEP_POOL][r];
    }
}

/* Everything of a run that comes before a graph: the platform with its
 * overrides, the timeouts and the collectors. Returns EXIT_OK or the exit
 * status to end with. */
/* Prints a warning and keeps it for the summary and ptosim_run.json. */
static void warn_user(run_warnings *w, const char *text)
{
    msgtext_print(stderr, "ptosim: warning: %s", text);
    if (w && w->n < RUN_MAX_WARNINGS) {
        snprintf(w->text[w->n], sizeof(w->text[w->n]), "%s", text);
        w->list[w->n] = w->text[w->n];
        w->n++;
    }
}

int run_prepare(const cli_run *o, platform *pl, chip_config *cf, run_warnings *warnings)
{
    if (warnings)
        warnings->n = 0;
    cli_run opt = *o;
    char err[4096];
    platform plat;
    char pdir[PATH_MAX];
    run_platform_dir(pdir, sizeof(pdir));
    int prc = platform_load(&plat, opt.platform, pdir, err, sizeof(err));
    if (prc != 0) {
        msgtext_print(stderr, "ptosim: %s", err);
        return prc == PLATFORM_OOM ? EXIT_INTERNAL : EXIT_USAGE;
    }
    char warn[1024];
    if (opt.aicpu_thread_num)
        plat.aicpu_threads = opt.aicpu_thread_num;
    for (int i = 0; i < opt.nsets; i++)
        if (platform_set(&plat, opt.sets[i], err, sizeof(err)) != 0) {
            msgtext_print(stderr, "ptosim: %s", err);
            return EXIT_USAGE;
        }
    if (platform_validate(&plat, err, sizeof(err)) != 0) {
        msgtext_print(stderr, "ptosim: platform %s: %s", plat.name, err);
        return EXIT_USAGE;
    }
    /* a platform SimGrid cannot run is a bad platform file: said before anything runs or is written */
    int src = sgrun_check_platform(plat.xml_path, err, sizeof(err));
    if (src != 0) {
        msgtext_print(stderr, "ptosim: platform %s: %s", plat.name, err);
        return src == SGRUN_OOM ? EXIT_INTERNAL : EXIT_USAGE;
    }

    chip_config cfg;
    chip_config_defaults(&cfg, &plat);
    /* the PTO2_RING_* variables are retired (model/README.md §4.1): a set one only draws a line on
     * stderr, kept out of the summary and ptosim_run.json so every output is that of a run without it */
    runcfg_env_retired(stderr, "ptosim: warning: ");
    cfg.swimlane_level = opt.swimlane_level;
    long timeout_ms;
    if (runcfg_pmu_type(opt.pmu_given, opt.pmu_value, getenv("SIMPLER_PMU_EVENT_TYPE"), &cfg.pmu_event_type,
                        warn, sizeof(warn), err, sizeof(err)) != 0) {
        msgtext_print(stderr, "ptosim: %s", err);
        return EXIT_USAGE;
    }
    if (warn[0])
        warn_user(warnings, warn);
    /* the timeout chain: flag, then the runtime's environment variable, then the platform */
    long op_us, stream_ms;
    struct {
        const char *flag, *value, *env, *unit;
        long def, *out;
    } chain[3] = {
        {"--scheduler-timeout-ms", opt.sched_timeout, "SIMPLER_SCHEDULER_TIMEOUT_MS", "milliseconds",
         (long)plat.scheduler_timeout_ms, &timeout_ms},
        {"--op-execute-timeout-us", opt.op_timeout, "SIMPLER_OP_EXECUTE_TIMEOUT_US", "microseconds",
         (long)plat.op_execute_timeout_us, &op_us},
        {"--stream-sync-timeout-ms", opt.stream_timeout, "SIMPLER_STREAM_SYNC_TIMEOUT_MS", "milliseconds",
         (long)plat.stream_sync_timeout_ms, &stream_ms},
    };
    for (int k = 0; k < 3; k++) {
        if (runcfg_timeout(chain[k].flag, chain[k].value, chain[k].env, chain[k].unit, chain[k].def,
                           chain[k].out, warn, sizeof(warn), err, sizeof(err)) != 0) {
            msgtext_print(stderr, "ptosim: %s", err);
            return EXIT_USAGE;
        }
        if (warn[0])
            warn_user(warnings, warn);
    }
    /* onboard, the three must be ordered, else every override is ignored (model/README.md §14.4) */
    if (plat.has_stars && !runcfg_timeouts_ordered(timeout_ms, op_us, stream_ms)) {
        snprintf(warn, sizeof(warn),
                 "timeouts scheduler %ld ms, op-execute %ld us, stream-sync %ld ms break the ordering "
                 "scheduler < op-execute < stream-sync (and stream-sync > scheduler + 1.5 s); ignored, using "
                 "the defaults %ld ms / %ld us / %ld ms",
                 timeout_ms, op_us, stream_ms, (long)plat.scheduler_timeout_ms,
                 (long)plat.op_execute_timeout_us, (long)plat.stream_sync_timeout_ms);
        warn_user(warnings, warn);
        timeout_ms = (long)plat.scheduler_timeout_ms;
        op_us = (long)plat.op_execute_timeout_us;
        stream_ms = (long)plat.stream_sync_timeout_ms;
    }
    cfg.scheduler_timeout = (ps_t)timeout_ms * PS_PER_MS;
    cfg.op_execute_timeout_us = op_us;
    cfg.stream_sync_timeout_ms = stream_ms;
    cfg.dump_level = opt.dump_level;
    cfg.dep_gen = opt.dep_gen;
    cfg.scope_stats = opt.scope_stats;
    cfg.no_makespan_parts = !opt.work_dir; /* only ptosim_run.json holds them */
    cfg.perfetto_records = opt.perfetto || opt.enable_perfetto ? PF_MAX_RECORDS : 0;
    /* --repeat without --seed starts at seed 1 */
    cfg.seeded = opt.seeded || opt.repeat > 0;
    cfg.seed = opt.seeded ? opt.seed : 1;
    *pl = plat;
    *cf = cfg;
    return EXIT_OK;
}

/* Ring sizes of one program, lowest first: what cfg has from run_prepare
 * (the platform default), the graph header's run_config,
 * the flags (0 keeps the lower layer; runtime_maker.cpp resolve_ring_config). */
void run_apply_rings(chip_config *cfg, const graph *hdr, const cli_run *opt)
{
    if (hdr)
        lay_rings(cfg, hdr->run_rings);
    lay_rings(cfg, opt->rings);
}

int run_kernel_of(const graph *hdr, const char *kernel_set, char *name, size_t namelen, int *field,
                  bool *value)
{
    char err[512];
    cli_kfield f = CLI_KFIELD_SYNC_START;
    if (cli_kernel_set(kernel_set, name, namelen, &f, value, err, sizeof(err)) != 0)
        return -1; /* checked when parsed: not reached */
    *field = (int)f;
    for (int k = 0; k < hdr->nkernels; k++)
        if (strcmp(hdr->kernels[k].name, name) == 0)
            return k;
    return -1;
}

int run_apply_kernel_sets(chip_config *cfg, const graph *hdr, const cli_run *opt)
{
    for (int i = 0; i < opt->nkernel_sets; i++) {
        char name[GRAPH_NAME_MAX];
        int field;
        bool value;
        int k = run_kernel_of(hdr, opt->kernel_sets[i], name, sizeof(name), &field, &value);
        if (k < 0) {
            msgtext_print(stderr, "ptosim: --kernel-set %s: graph %s (%s) has no kernel '%s'", opt->kernel_sets[i],
                    hdr->name, hdr->path, name);
            return EXIT_USAGE;
        }
        uint8_t *to = field == CLI_KFIELD_SYNC_START ? cfg->kernel_sync_start : cfg->kernel_early_resolve;
        to[hdr->kernels[k].id] = value ? CHIP_FLAG_TRUE : CHIP_FLAG_FALSE;
        cfg->kernel_sets = true;
    }
    for (int i = 0; i < opt->nkernel_scales; i++) {
        char name[GRAPH_NAME_MAX], why[8192];
        uint32_t ppm;
        int k = run_kernel_scale_of(hdr, opt->kernel_scales[i], name, sizeof(name), &ppm, why, sizeof(why));
        if (k < 0) {
            msgtext_print(stderr, "ptosim: %s", why);
            return EXIT_USAGE;
        }
        cfg->kernel_scale[hdr->kernels[k].id] = ppm; /* the last one of a kernel wins */
        cfg->kernel_scales = true;
    }
    return EXIT_OK;
}

int run_kernel_scale_of(const graph *hdr, const char *kernel_scale, char *name, size_t namelen, uint32_t *ppm,
                        char *why, size_t whylen)
{
    char err[512];
    if (runcfg_parse_scale(kernel_scale, name, namelen, ppm, err, sizeof(err)) != 0) {
        snprintf(why, whylen, "%s", err); /* checked when parsed: not reached */
        return -1;
    }
    for (int k = 0; k < hdr->nkernels; k++)
        if (strcmp(hdr->kernels[k].name, name) == 0)
            return k;
    /* the graph's kernels, blank-separated for opt_near, then listed */
    char words[4096], near[GRAPH_NAME_MAX];
    size_t n = 0;
    words[0] = '\0';
    for (int k = 0; k < hdr->nkernels; k++) {
        size_t l = strlen(hdr->kernels[k].name);
        if (n + l + 2 >= sizeof(words))
            break;
        n += (size_t)snprintf(words + n, sizeof(words) - n, "%s%s", n ? " " : "", hdr->kernels[k].name);
    }
    int w = snprintf(why, whylen, "--kernel-scale %s: graph %s (%s) has no kernel '%s' (its kernels:", kernel_scale,
                     hdr->name, hdr->path, name);
    for (int k = 0; k < hdr->nkernels && w > 0 && (size_t)w < whylen; k++) {
        if (k == RUN_KERNELS_NAMED) {
            w += snprintf(why + w, whylen - (size_t)w, " ... %d in all", hdr->nkernels);
            break;
        }
        w += snprintf(why + w, whylen - (size_t)w, "%s %s", k ? "," : "", hdr->kernels[k].name);
    }
    if (w > 0 && (size_t)w < whylen)
        w += snprintf(why + w, whylen - (size_t)w, "%s)", hdr->nkernels ? "" : " none");
    if (w > 0 && (size_t)w < whylen && opt_near(words, name, near, sizeof(near)))
        snprintf(why + w, whylen - (size_t)w, "; did you mean %s?", near);
    return -1;
}

/* The sizing vector the worker caches its arena on. */
static void rings_of(const chip_config *cfg, uint64_t out[3][4])
{
    for (int r = 0; r < RING_COUNT; r++) {
        out[KNOB_TASK_WINDOW][r] = cfg->ring_task_window[r];
        out[KNOB_HEAP][r] = cfg->ring_heap[r];
        out[KNOB_DEP_POOL][r] = cfg->ring_dep_pool[r];
    }
}

/* --repeat: runs 2 .. N of the graph at path (a pipe's spooled copy) with seeds seed0 + 1 .. seed0 + N - 1,
 * without SimGrid and without files (run 1 is the one whose files are
 * written), and the makespan statistics over every run that ended ok. */
static int repeat_runs(const cli_run *o, const char *path, const platform *pl, const chip_config *cf,
                       const chip *first, report_repeat *rp, char *err, size_t errlen)
{
    double *v = malloc((size_t)o->repeat * sizeof(*v));
    if (!v) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    memset(rp, 0, sizeof(*rp));
    rp->runs = (int)o->repeat;
    rp->seed0 = cf->seed;
    int n = 0;
    if (first->status == CHIP_DONE)
        v[n++] = us_from_ps(first->end_time);
    for (long i = 1; i < o->repeat; i++) {
        chip_config cfg = *cf;
        cfg.seed = cf->seed + (uint64_t)i;
        cfg.swimlane_level = first->cfg.swimlane_level; /* profiling costs what it cost in run 1 */
        cfg.dep_gen = cfg.scope_stats = false;
        cfg.no_makespan_parts = true;
        cfg.perfetto_records = 0;
        chip *c = malloc(sizeof(*c));
        if (!c || chip_init(c, pl, &cfg, path, err, errlen) != 0) {
            free(c);
            free(v);
            return -1;
        }
        chip_run(c);
        if (c->status == CHIP_DONE)
            v[n++] = us_from_ps(c->end_time);
        chip_free(c);
        free(c);
    }
    rp->not_ok = rp->runs - n;
    if (n)
        report_repeat_stats(v, n, rp);
    free(v);
    return 0;
}

/* Files a run replaces in its work dir: dfx_outputs/ goes whole at the commit
 * (workdir_commit), whatever is in it; these names go too, so a folder never
 * mixes two runs (report.html: a page of the previous run; whatif.json: `ptosim whatif -o`'s ranking of
 * the previous run). */
const char *const run_managed[] = {
    "dfx_outputs/chip_swimlane_records.json",
    "dfx_outputs/deps.json",
    "dfx_outputs/pmu.csv",
    "dfx_outputs/scope_stats/scope_stats.jsonl",
    "dfx_outputs/args_dump/args_dump.json",
    "dfx_outputs/args_dump/args.bin",
    "dfx_outputs/name_map_*.json",
    "dfx_outputs/ptosim_trace.json",
    "ptosim_run.json",
    "report.html",
    "whatif.json",
};
const int run_nmanaged = (int)(sizeof(run_managed) / sizeof(run_managed[0]));

/* The work dir of the run in progress, for on_abort. */
static workdir *volatile abort_wd;

/* on_abort's line, written when the handler is put in place: a handler may not format or allocate. */
static char abort_line[4400];
static size_t abort_len;

/* SimGrid ends the process with abort() on some of its own failures (out of memory inside it, an
 * exception it does not catch): the staging folder goes first, so the work dir is left as it was (a
 * SIGKILL still leaves it, for the next run to remove), and a line says so. Then the default action:
 * status 134. It runs on a stack of its own (intr_on_abort): under ulimit -v the one in use cannot grow
 * once memory is gone, and the handler died there of SIGSEGV (status 139) with the staging folder left. */
static void on_abort(int sig)
{
    workdir *w = abort_wd;
    abort_wd = NULL;
    if (w) {
        workdir_abort(w);
        ssize_t n = write(STDERR_FILENO, abort_line, abort_len);
        (void)n; /* nothing more to do if stderr is gone */
    }
    raise(sig); /* SA_RESETHAND: the default action now */
}

/* Removes wd's staging folder if the process aborts, and says what the folder holds. */
static void catch_abort(workdir *wd)
{
    char left[4300];
    workdir_left(wd, left, sizeof(left));
    int n = snprintf(abort_line, sizeof(abort_line), "ptosim: aborted (SIGABRT); %s", left);
    msgtext_fix(abort_line, sizeof(abort_line) - 1); /* room for the newline */
    abort_len = n < 0 ? 0 : strlen(abort_line);
    abort_line[abort_len++] = '\n';
    abort_wd = wd;
    intr_on_abort(on_abort);
}

/* Ends a run whose files must not reach the work dir: its staging folder goes,
 * the folder keeps what it had. */
static void drop_outputs(workdir *wd, bool have)
{
    abort_wd = NULL;
    if (have) {
        workdir_abort(wd);
        workdir_close(wd);
    }
}

/* A run that writes nothing after all: the half-written args.bin (binf, or NULL) goes, the chip is freed
 * and the work dir is left as it was. */
static void abandon_run(chip *c, outfile *binf, workdir *wd, bool have_wd)
{
    if (binf)
        outfile_abort(binf);
    c->dump.ad.bin = NULL;
    chip_free(c);
    free(c);
    drop_outputs(wd, have_wd);
}

/* Simulates one program, the graph g whose header is read (taken over and
 * closed), and writes its files to work_dir (NULL: none): into a staging
 * folder, moved into place only when every file was written, so the work dir
 * holds one whole run. src: the path g was opened from (a pipe's spooled copy), read again for the
 * graph's SHA-256 when ptosim_run.json is written. csv_header: --summary-csv prints its header line.
 * Fills res when given. Returns the exit status. */
static int simulate(const cli_run *o, const platform *pl, const chip_config *cf, const run_warnings *warn,
                    graph *g, const char *src, const char *work_dir, bool csv_header, worker_result *res)
{
    cli_run opt = *o;
    char graph_path[sizeof(g->path)];
    snprintf(graph_path, sizeof(graph_path), "%s", g->path);
    opt.graph = graph_path;
    opt.work_dir = work_dir;
    platform plat = *pl;
    chip_config cfg = *cf;
    cfg.no_makespan_parts = !work_dir; /* only this program's ptosim_run.json holds them */
    char err[4096];
    if (res) {
        res->exit_code = EXIT_INTERNAL;
        snprintf(res->status, sizeof(res->status), "error");
    }

    /* the work dir first: a second run into it fails here, before any work */
    workdir wd;
    bool have_wd = opt.work_dir != NULL;
    if (have_wd) {
        int lr = workdir_open(&wd, opt.work_dir, err, sizeof(err));
        if (lr < 0) {
            msgtext_print(stderr, "ptosim: %s", err);
            graph_close(g);
            return EXIT_INTERNAL;
        }
        if (lr > 0)
            msgtext_print(stderr, "ptosim: warning: %s", err);
        catch_abort(&wd);
    }
    const char *out = have_wd ? wd.stage : NULL; /* where the files are written */
    workdir_programs old_programs = {0}; /* the folders a session left here, read before this run replaces
                                          * its ptosim_run.json */
    if (have_wd)
        workdir_old_programs(opt.work_dir, &old_programs);

    /* the graph is parsed on the second core while the first simulates, and
     * to its last line even when the run stops early: a malformed graph ends
     * the run with its error and no output at all */
    chip *c = malloc(sizeof(*c));
    if (!c) {
        msgtext_print(stderr, "ptosim: out of memory");
        graph_close(g);
        drop_outputs(&wd, have_wd);
        return EXIT_INTERNAL;
    }
    /* the header is read: what can fail here is memory, and the file is not opened again */
    if (chip_init_graph(c, &plat, &cfg, g, err, sizeof(err)) != 0) {
        msgtext_print(stderr, "ptosim: %s", err);
        free(c);
        drop_outputs(&wd, have_wd);
        return EXIT_INTERNAL;
    }

    progress prog;
    progress_start(&prog, graph_path);
    c->on_progress = progress_tick;
    c->progress_arg = &prog;

    /* args.bin is written while the simulated host collector persists payloads */
    outfile binf;
    bool bin_open = false;
    char path_early[PATH_MAX + 300];
    if (c->dump_on && out) {
        snprintf(path_early, sizeof(path_early), "%s/dfx_outputs/args_dump", out);
        if (outfile_mkdirs(path_early, err, sizeof(err)) != 0 ||
            (snprintf(path_early, sizeof(path_early), "%s/dfx_outputs/args_dump/args.bin", out),
             !(c->dump.ad.bin = outfile_open(&binf, path_early, err, sizeof(err))))) {
            msgtext_print(stderr, "ptosim: %s", err);
            abandon_run(c, NULL, &wd, have_wd);
            return EXIT_INTERNAL;
        }
        bin_open = true;
    }

    /* deps.json's tasks[] is written as the run goes, into the file itself */
    if (c->dep_gen_on && out) {
        snprintf(path_early, sizeof(path_early), "%s/dfx_outputs", out);
        if (outfile_mkdirs(path_early, err, sizeof(err)) != 0 ||
            (snprintf(path_early, sizeof(path_early), "%s/dfx_outputs/deps.json", out),
             depgen_open(&c->dg, path_early, err, sizeof(err)) != 0)) {
            msgtext_print(stderr, "ptosim: %s", err);
            abandon_run(c, bin_open ? &binf : NULL, &wd, have_wd);
            return EXIT_INTERNAL;
        }
    }

    sgrun_cfg sgcfg;
    sgrun_result sgres = {0};
    double t0 = now_seconds();
    sgrun_chip sc = {.c = c};
    int sgrc = sgrun_run(plat.xml_path, plat.host_collector_bw, opt.sg_args, sgrun_chip_body, &sc, &sgcfg,
                         &sgres, err, sizeof(err));
    double host_s = now_seconds() - t0;
    progress_end(&prog);
    int sig = intr_signal();
    char gerr[GRAPH_ERR_MAX];
    if (!sig && orch_finish_reading(&c->orch, gerr, sizeof(gerr)) != 0) {
        msgtext_print(stderr, "ptosim: %s", gerr);
        abandon_run(c, bin_open ? &binf : NULL, &wd, have_wd);
        return graph_err_oom(gerr) ? EXIT_INTERNAL : EXIT_GRAPH;
    }
    sig = intr_signal();
    if (sig) /* SIGINT or SIGTERM stopped the simulation: nothing is written */
        goto interrupted;
    char dfx[sizeof(wd.stage) + 16];
    if (out) {
        snprintf(dfx, sizeof(dfx), "%s/dfx_outputs", out);
        if (outfile_mkdirs(dfx, err, sizeof(err)) != 0) {
            msgtext_print(stderr, "ptosim: %s", err);
            abandon_run(c, bin_open ? &binf : NULL, &wd, have_wd);
            return EXIT_INTERNAL;
        }
    }
    int exit_code = sgrc != 0 ? EXIT_INTERNAL : exit_for(c->status);
    if (exit_code == EXIT_INTERNAL) {
        /* the simulator itself failed (memory, an actor stuck): what it collected is not a run's, and the
         * work dir keeps what it had. SimGrid finding the chip engine (or the host collector after it)
         * blocked for good is such a failure: the model never blocks there (it says itself when nothing
         * can progress, status 6), so one of SimGrid's calls failed under an actor (out of memory inside
         * SimGrid) or ptosim lost a wake-up */
        if (sgrc != 0)
            msgtext_print(stderr, "ptosim: %s%s", err,
                    sgres.finished ? "" : "; ptosim's SimGrid actors were left waiting (out of memory inside SimGrid?)");
        else
            report_failure(c, stderr);
        abandon_run(c, bin_open ? &binf : NULL, &wd, have_wd);
        if (have_wd) {
            char left[4400];
            workdir_left(&wd, left, sizeof(left));
            msgtext_print(stderr, "ptosim: %s", left);
        }
        return EXIT_INTERNAL;
    }

    const char *outputs[10];
    int nout = 0;
    int write_failed = 0;
    char namemap_rel[256], path[sizeof(wd.stage) + 300];
    if (out) {
        snprintf(namemap_rel, sizeof(namemap_rel), "dfx_outputs/name_map_%s.json", c->orch.g.name);
        snprintf(path, sizeof(path), "%s/%s", out, namemap_rel);
        if (report_write_name_map(&c->orch.g, path, err, sizeof(err)) != 0) {
            msgtext_print(stderr, "ptosim: %s", err);
            write_failed = 1;
        } else {
            outputs[nout++] = namemap_rel;
        }
        int ncores = c->ncores, is_aiv[PLATFORM_MAX_CORES], owner[PLATFORM_MAX_CORES];
        for (int i = 0; i < ncores; i++) {
            is_aiv[i] = c->cores[i].type == CORE_AIV;
            owner[i] = c->cores[i].thread;
        }
        swimlane_meta meta = {.num_cores = ncores,
                              .core_is_aiv = is_aiv,
                              .core_to_thread = owner,
                              .tick_hz = (uint64_t)plat.sys_cnt_freq_hz,
                              .origin_ticks = (uint64_t)plat.sys_cnt_origin_ticks};
        snprintf(path, sizeof(path), "%s/dfx_outputs/chip_swimlane_records.json", out);
        int written = 0;
        if (swimlane_write(&c->sl, &meta, path, &written, err, sizeof(err)) != 0) {
            msgtext_print(stderr, "ptosim: %s", err);
            write_failed = 1;
        } else if (written) {
            outputs[nout++] = "dfx_outputs/chip_swimlane_records.json";
        } else if (opt.swimlane_level > 0) {
            msgtext_print(stderr, "ptosim: Warning: No performance data to export.");
        }
    }
    if (out && c->dep_gen_on) {
        snprintf(path, sizeof(path), "%s/dfx_outputs/deps.json", out);
        if (depgen_write(&c->dg, path, err, sizeof(err)) != 0) {
            msgtext_print(stderr, "ptosim: %s", err);
            write_failed = 1;
        } else {
            outputs[nout++] = "dfx_outputs/deps.json";
        }
    }
    if (bin_open) {
        if (write_args_dump(c, out, &binf, err, sizeof(err)) != 0) {
            msgtext_print(stderr, "ptosim: %s", err);
            write_failed = 1;
        } else if (c->dump.ad.n) {
            outputs[nout++] = "dfx_outputs/args_dump/args_dump.json";
            if (c->dump.ad.bin_end || c->dump.level != 3)
                outputs[nout++] = "dfx_outputs/args_dump/args.bin";
        }
    }
    if (out && c->pmu_on) {
        snprintf(path, sizeof(path), "%s/dfx_outputs/pmu.csv", out);
        int written = 0;
        if (pmu_log_write(&c->pmu, path, &written, err, sizeof(err)) != 0) {
            msgtext_print(stderr, "ptosim: %s", err);
            write_failed = 1;
        } else if (written) {
            outputs[nout++] = "dfx_outputs/pmu.csv";
        }
    }
    if (out && c->scope_stats_on) {
        snprintf(path, sizeof(path), "%s/dfx_outputs/scope_stats", out);
        scope_caps caps = {.tensormap = (uint32_t)plat.tensormap_pool};
        for (int r = 0; r < RING_COUNT; r++) {
            caps.task_window[r] = cfg.ring_task_window[r];
            caps.heap[r] = cfg.ring_heap[r];
            caps.dep_pool[r] = cfg.ring_dep_pool[r];
        }
        if (outfile_mkdirs(path, err, sizeof(err)) != 0 ||
            (snprintf(path, sizeof(path), "%s/dfx_outputs/scope_stats/scope_stats.jsonl", out),
             scopestats_write(&c->ss, path, c->status == CHIP_FATAL || c->status == CHIP_DEVICE_ERROR, &caps,
                              err, sizeof(err)) != 0)) {
            msgtext_print(stderr, "ptosim: %s", err);
            write_failed = 1;
        } else {
            outputs[nout++] = "dfx_outputs/scope_stats/scope_stats.jsonl";
        }
    }
    if (write_trace(c, &opt, out, outputs, &nout) != 0)
        write_failed = 1;
    if (write_failed && exit_code == EXIT_OK)
        exit_code = EXIT_INTERNAL;
    report_repeat rep;
    if (opt.repeat && repeat_runs(&opt, o->graph, &plat, &cfg, c, &rep, err, sizeof(err)) != 0) {
        msgtext_print(stderr, "ptosim: --repeat: %s", err);
        chip_free(c);
        free(c);
        drop_outputs(&wd, have_wd);
        return EXIT_INTERNAL;
    }

    report_info ri = {.version = PTOSIM_VERSION,
                      .graph_path = opt.graph,
                      .sg_cfg = sgcfg.items,
                      .nsg_cfg = sgcfg.n,
                      .host_seconds = opt.no_host_timing ? -1 : host_s,
                      .simgrid_clock = sgres.clock,
                      .exit_code = exit_code,
                      .outputs = outputs,
                      .noutputs = nout,
                      .dump_host_done_s = sc.dump.done_s,
                      .dump_written_at_end = sc.dump.bytes_at_device_end,
                      .dump_written = sc.dump.bytes_written,
                      .dump_reconciled = sc.dump.reconciled_threads,
                      .repeat = opt.repeat ? &rep : NULL,
                      .warnings = warn ? warn->list : NULL,
                      .nwarnings = warn ? warn->n : 0};
    char graph_sha[SHA256_HEX];
    if (out && !write_failed) { /* what diff compares: the graph's content, whatever its name */
        int hr = gsrc_sha256(src, graph_sha, err, sizeof(err));
        if (hr < 0) {
            msgtext_print(stderr, "ptosim: %s", err);
            write_failed = 1;
            if (exit_code == EXIT_OK)
                exit_code = ri.exit_code = EXIT_INTERNAL;
        } else if (hr == 0) {
            ri.graph_sha256 = graph_sha; /* past GSRC_HASH_MAX: null, not known */
        }
    }
    if (out && !write_failed) {
        snprintf(path, sizeof(path), "%s/ptosim_run.json", out);
        if (report_write_run(c, &ri, path, err, sizeof(err)) != 0) {
            msgtext_print(stderr, "ptosim: %s", err);
            write_failed = 1;
            if (exit_code == EXIT_OK)
                exit_code = ri.exit_code = EXIT_INTERNAL;
        } else {
            outputs[nout++] = "ptosim_run.json";
        }
    }
    sig = intr_signal();
    if (sig) /* during the writing: the staged files go */
        goto interrupted;
    if (have_wd) {
        /* all or nothing: a file that could not be written leaves the folder as it was */
        int crc = write_failed ? -1
                               : workdir_commit(&wd, run_managed, run_nmanaged,
                                                outputs, nout, err, sizeof(err));
        if (crc != 0 && !write_failed)
            msgtext_print(stderr, "ptosim: %s", err);
        if (crc != 0) {
            write_failed = 1;
            drop_outputs(&wd, true);
            if (crc == -1) {
                char left[4400];
                workdir_left(&wd, left, sizeof(left));
                msgtext_print(stderr, "ptosim: %s", left);
            }
            if (exit_code == EXIT_OK)
                exit_code = EXIT_INTERNAL;
        } else {
            abort_wd = NULL;
            /* a session's program folders from before: this run's files are the folder's now */
            workdir_drop_programs(opt.work_dir, &old_programs, NULL, 0);
            workdir_close(&wd);
        }
    }
    if (c->status != CHIP_DONE) {
        report_failure(c, stderr);
    } else if (sgrc != 0) {
        msgtext_print(stderr, "ptosim: %s", err);
    }
    /* no summary for a run whose files are not where they should be: a sweep
     * takes a row as a run that reached its folder */
    if (!write_failed && opt.summary_csv)
        report_csv(c, &ri, stdout, csv_header);
    else if (!write_failed && !opt.quiet)
        report_summary(c, &ri, stdout); /* main flushes and checks stdout */
    if (res) {
        res->exit_code = exit_code;
        snprintf(res->status, sizeof(res->status), "%s", report_status_name(c->status));
        res->makespan_us = us_from_ps(c->end_time);
        res->tasks_completed = c->tasks_completed;
    }
    chip_free(c);
    free(c);
    return exit_code;

interrupted:
    abandon_run(c, bin_open ? &binf : NULL, &wd, have_wd);
    if (have_wd) {
        char left[4400];
        workdir_left(&wd, left, sizeof(left));
        msgtext_print(stderr, "ptosim: interrupted by %s; %s", intr_name(sig), left);
    } else
        msgtext_print(stderr, "ptosim: interrupted by %s", intr_name(sig));
    if (res) {
        res->exit_code = intr_status(sig);
        snprintf(res->status, sizeof(res->status), "interrupted");
    }
    return intr_status(sig);
}

/* After a graph's error: when path is a runtime capture (a folder with deps.json, the swimlane or
 * dfx_outputs/, or one of those files), the way to a graph, `ptosim import`. */
static void capture_hint(const char *path)
{
    static const char *const files[] = {"deps.json", "chip_swimlane_records.json", "dfx_outputs"};
    char dir[PATH_MAX];
    struct stat st;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    bool found = false;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        for (size_t i = 0; i < sizeof(files) / sizeof(*files) && !found; i++) {
            char p[PATH_MAX + 32];
            snprintf(p, sizeof(p), "%s/%s", path, files[i]);
            found = access(p, F_OK) == 0;
        }
        snprintf(dir, sizeof(dir), "%s", path);
    } else {
        for (size_t i = 0; i < 2 && !found; i++)
            found = strcmp(base, files[i]) == 0;
        if (base == path)
            snprintf(dir, sizeof(dir), ".");
        else
            snprintf(dir, sizeof(dir), "%.*s", (int)(base - path - 1 > 0 ? base - path - 1 : 1), path);
    }
    if (found)
        msgtext_print(stderr,
                      "ptosim: %s is a runtime capture, not a graph: make a graph of it first with "
                      "'ptosim import %s > graph.jsonl', then run graph.jsonl",
                      path, dir);
}

/* Reads a graph's header (the whole graph is checked later). Returns 0, or
 * prints the graph's error and returns -1. */
static int read_header(const char *path, graph *g)
{
    char err[GRAPH_ERR_MAX];
    if (graph_open(g, path, err, sizeof(err)) != 0) {
        msgtext_print(stderr, "ptosim: %s", err);
        capture_hint(path);
        return graph_err_oom(err) ? EXIT_INTERNAL : EXIT_GRAPH;
    }
    return 0;
}

/* Runs one program of the worker in a child process (each run has its own
 * SimGrid engine, which a process can start only once); its accesses to
 * resident tensors and its result come back through log. Returns 0, or -1
 * when the child died without a result. */
void run_preload_engine(void)
{
    (void)sgload_open(NULL, 0);
}

static int run_program(const cli_run *opt, const platform *plat, const chip_config *base,
                       const run_warnings *warn, worker *w, int p, const char *work_dir)
{
    worker_program *pr = &w->prog[p];
    FILE *log = tmpfile();
    if (!log) {
        msgtext_print(stderr, "ptosim: cannot create a temporary file: %s", strerror(errno));
        return -1;
    }
    run_preload_engine();
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        msgtext_print(stderr, "ptosim: cannot start program %d: %s", p, strerror(errno));
        fclose(log);
        return -1;
    }
    if (pid == 0) {
        /* its own process group: a Ctrl-C reaches the parent alone, which
         * forwards it once (twice would end the program without cleaning up) */
        setpgid(0, 0);
        chip_config cfg = *base;
        for (int r = 0; r < RING_COUNT; r++) {
            cfg.ring_task_window[r] = (uint32_t)pr->rings[KNOB_TASK_WINDOW][r];
            cfg.ring_heap[r] = pr->rings[KNOB_HEAP][r];
            cfg.ring_dep_pool[r] = (uint32_t)pr->rings[KNOB_DEP_POOL][r];
        }
        cfg.worker = w;
        cfg.worker_program = p;
        cfg.worker_log = log;
        /* the run's files carry its place on the worker's clock */
        platform pl = *plat;
        pl.sys_cnt_origin_ticks += (int64_t)(pr->start_us * (double)pl.sys_cnt_freq_hz / 1e6 + 0.5);
        char dir[PATH_MAX + 300];
        if (work_dir)
            snprintf(dir, sizeof(dir), "%s/%s", work_dir, pr->dir);
        if (!opt->quiet && !opt->summary_csv)
            printf("== program %d of %d: %s (%s)\n", p + 1, w->nprograms, pr->name, pr->path); /* shown name */
        worker_result res = {.exit_code = EXIT_INTERNAL};
        graph g;
        char derr[PATH_MAX + 400];
        int code;
        /* DIR/N_NAME is the session's own folder: a link there (a folder someone sent) is refused, never
         * followed, so nothing of the link's target is written or removed */
        if (work_dir && outfile_own_dir(dir, 0, derr, sizeof(derr)) != 0) {
            msgtext_print(stderr, "ptosim: %s", derr);
            code = EXIT_INTERNAL;
            snprintf(res.status, sizeof(res.status), "error");
        } else {
            /* pr->path is the name to show; the kernel names were checked before the first program */
            code = read_header(opt->graphs[p], &g);
            if (code == 0)
                code = run_apply_kernel_sets(&cfg, &g, opt) != EXIT_OK
                           ? EXIT_USAGE
                           : simulate(opt, &pl, &cfg, warn, &g, opt->graphs[p], work_dir ? dir : NULL, p == 0,
                                      &res);
        }
        if ((fflush(stdout) != 0 || ferror(stdout)) && code != EXIT_INTERNAL) { /* _exit flushes nothing */
            msgtext_print(stderr, "ptosim: cannot write standard output: %s", strerror(errno));
            code = code == EXIT_OK ? EXIT_INTERNAL : code;
            res.exit_code = code; /* the session ends here */
        }
        worker_log_result(log, &res);
        fflush(log);
        fflush(stderr);
        _exit(code);
    }
    int status = 0;
    bool forwarded = false;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        if (intr_signal() && !forwarded) { /* a signal to this process alone reaches the program too */
            kill(pid, intr_signal());
            forwarded = true;
        }
    int rc = worker_take_log(w, p, log);
    fclose(log);
    if (rc != 0)
        msgtext_print(stderr, "ptosim: program %d (%s) ended without a result (%s %d)", p, pr->path,
                WIFSIGNALED(status) ? "signal" : "exit status",
                WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
    return rc;
}

/* Several graphs: successive programs on one worker (model/README.md §15). Each graph is read twice
 * (checked, then run): one that can be read only once is a spooled copy by then. */
static int run_worker(const cli_run *opt, const platform *plat, const chip_config *cfg,
                      const run_warnings *warn)
{
    worker *w = calloc(1, sizeof(*w));
    if (!w) {
        msgtext_print(stderr, "ptosim: out of memory");
        return EXIT_INTERNAL;
    }
    worker_init(w);
    int code = EXIT_OK;
    char err[GRAPH_ERR_MAX + 256];
    /* every graph is checked before the first program runs: no half-written worker */
    for (int p = 0; p < opt->ngraphs && code == EXIT_OK; p++) {
        graph hdr;
        if ((code = read_header(opt->graphs[p], &hdr)) != 0)
            break;
        chip_config pc = *cfg;
        run_apply_rings(&pc, &hdr, opt);
        if (run_apply_kernel_sets(&pc, &hdr, opt) != EXIT_OK) {
            graph_close(&hdr);
            code = EXIT_USAGE;
            break;
        }
        uint64_t rings[3][4];
        rings_of(&pc, rings);
        if (worker_add_program(w, &hdr, rings, err, sizeof(err)) != 0) {
            msgtext_print(stderr, "ptosim: %s", err);
            code = EXIT_GRAPH;
        }
        graph_close(&hdr);
        if (code == EXIT_OK && graph_validate(opt->graphs[p], err, sizeof(err)) != 0) {
            msgtext_print(stderr, "ptosim: %s", err);
            capture_hint(opt->graphs[p]);
            code = graph_err_oom(err) ? EXIT_INTERNAL : EXIT_GRAPH;
        }
        if (code == EXIT_OK && intr_signal()) { /* nothing is written yet */
            msgtext_print(stderr, "ptosim: interrupted by %s", intr_name(intr_signal()));
            code = intr_status(intr_signal());
        }
    }
    bool checked = code == EXIT_OK; /* else no program ran and nothing is written */
    worker_costs costs = {.init_us = plat->worker_init_us,
                          .register_us = plat->register_us,
                          .arena_build_us = plat->arena_build_us,
                          .first_launch_us = plat->first_launch_us,
                          .preamble_us = plat->run_preamble_us,
                          .prep_us = plat->run_prep_us,
                          .sm_reset_slot_ns = plat->sm_reset_slot_ns};
    /* the session's folder is locked like a single run's (each program locks
     * and stages its own N_NAME folder); the parent writes only ptosim_run.json,
     * atomically, so the staging folder the lock comes with stays empty */
    workdir wd;
    bool have_wd = false;
    if (code == EXIT_OK && opt->work_dir) {
        int lr = workdir_open(&wd, opt->work_dir, err, sizeof(err));
        if (lr < 0) {
            msgtext_print(stderr, "ptosim: %s", err);
            code = EXIT_INTERNAL;
            checked = false;
        } else {
            have_wd = true;
            if (lr > 0)
                msgtext_print(stderr, "ptosim: warning: %s", err);
        }
    }
    workdir_programs old_programs = {
        0}; /* the previous session's folders, before this one rewrites the list */
    if (have_wd)
        workdir_old_programs(opt->work_dir, &old_programs);
    for (int p = 0; p < w->nprograms && code == EXIT_OK; p++) {
        worker_timeline(w, &costs); /* places program p after the ones that ran */
        if (run_program(opt, plat, cfg, warn, w, p, opt->work_dir) != 0)
            code = EXIT_INTERNAL;
        else if (w->prog[p].result.exit_code != EXIT_OK)
            code = w->prog[p].result.exit_code; /* a failed or interrupted run ends the session */
        else if (intr_signal())                 /* came as the program ended: the next does not start */
            code = intr_status(intr_signal());
    }
    if (checked && w->nprograms) {
        worker_timeline(w, &costs);
        if (opt->work_dir) {
            char path[PATH_MAX + 32];
            snprintf(path, sizeof(path), "%s/ptosim_run.json", opt->work_dir);
            if (worker_write_json(w, &costs, path, err, sizeof(err)) != 0) {
                msgtext_print(stderr, "ptosim: %s", err);
                if (code == EXIT_OK)
                    code = EXIT_INTERNAL;
            } else if (have_wd) { /* the last session's program folders this one did not replace */
                const char *keep[WORKDIR_MAX_PROGRAMS];
                int nkeep = 0;
                for (int p = 0; p < w->nprograms && nkeep < WORKDIR_MAX_PROGRAMS; p++)
                    keep[nkeep++] = w->prog[p].dir;
                workdir_drop_programs(opt->work_dir, &old_programs, keep, nkeep);
            }
        }
        if (!opt->quiet && !opt->summary_csv && !intr_signal())
            worker_summary(w, stdout);
    }
    drop_outputs(&wd, have_wd); /* the lock, and the unused staging folder */
    worker_free(w);
    free(w);
    return code;
}

int run_main(int argc, char **argv)
{
    return run_main_from(argc, argv, NULL);
}

int run_main_from(int argc, char **argv, const gcomp *gc)
{
    intr_install(); /* SIGINT and SIGTERM stop the run cleanly from here on */
    /* `ptosim conform` holds its work dir's lock while this runs into it, and hands it over */
    const char *held = getenv(RUN_HELD_LOCK_ENV);
    int64_t lock_fd;
    if (held && strint_parse(held, 0, INT32_MAX, &lock_fd) == STRINT_OK &&
        fcntl((int)lock_fd, F_SETFD, FD_CLOEXEC) == 0)
        workdir_inherit_lock((int)lock_fd);
    if (held)
        unsetenv(RUN_HELD_LOCK_ENV);
    cli_run opt;
    char err[4096];
    int rc = cli_parse_run(argc, argv, &opt, err, sizeof(err));
    if (rc == 1)
        return EXIT_OK;
    if (rc != 0) {
        msgtext_print(stderr, "ptosim: %s", err);
        return EXIT_USAGE;
    }
    /* the work dir is named: nothing below it is reached through a link (a sweep's point, named below the
     * sweep's folder, is reached from that one) */
    if (opt.work_dir)
        userdir_add(opt.work_dir);
    platform plat;
    chip_config cfg;
    run_warnings warn;
    int code = run_prepare(&opt, &plat, &cfg, &warn);
    if (code != EXIT_OK)
        return code;
    /* a pipe read more than once (each program is checked before any runs; --repeat reruns the graph;
     * ptosim_run.json's graph SHA-256 reads it again) is copied to a temporary file first, named after the
     * pipe in every message */
    char spooled[CLI_MAX_GRAPHS][64];
    for (int p = 0; p < opt.ngraphs && (opt.ngraphs > 1 || opt.repeat || opt.work_dir); p++)
        if (gsrc_read_once(opt.graphs[p])) {
            int src = gsrc_spool_temp(opt.graphs[p], spooled[p], sizeof(spooled[p]), err, sizeof(err));
            if (src != 0) {
                msgtext_print(stderr, "ptosim: %s", err);
                return src > 0 ? EXIT_GRAPH : EXIT_INTERNAL;
            }
            opt.graphs[p] = spooled[p];
        }
    opt.graph = opt.graphs[0];
    if (opt.ngraphs > 1)
        return run_worker(&opt, &plat, &cfg, &warn);
    graph hdr;
    if ((code = read_header(opt.graph, &hdr)) != 0)
        return code;
    run_apply_rings(&cfg, &hdr, &opt);
    if (run_apply_kernel_sets(&cfg, &hdr, &opt) != EXIT_OK) {
        graph_close(&hdr);
        return EXIT_USAGE;
    }
    cfg.compiled = gc;
    return simulate(&opt, &plat, &cfg, &warn, &hdr, opt.graph, opt.work_dir, true, NULL);
}

static void validate_usage(void)
{
    fputs("usage: ptosim validate GRAPH\n"
          "\n"
          "Checks every line of a graph file without simulating it. GRAPH may be - (standard input), a\n"
          "pipe or gzip-compressed.\n"
          "\n",
          stdout);
    opt_help(&run_validate_options, stdout);
    puts("\n"
         "exit status: 0 well-formed; 2 bad command line; 3 a malformed graph (FILE:LINE: field: what)");
}

/* validate has no option but -h/--help, which it takes anywhere; its words are counted as they come */
const opt_table run_validate_options = {
    .cmd = "validate",
    .operand_kind = OPT_KIND_FILE,
    .unknown = "unknown option",
    .help_anywhere = true,
};

int run_validate_main(int argc, char **argv)
{
    const char **words = malloc(((size_t)argc + 1) * sizeof(*words));
    char err[GRAPH_ERR_MAX];
    int n = 0;
    if (!words) {
        fputs("ptosim validate: out of memory\n", stderr);
        return EXIT_INTERNAL;
    }
    if (opt_parse(&run_validate_options, argc, argv, NULL, words, &n, err, sizeof(err)) == 1) {
        free(words);
        validate_usage();
        return EXIT_OK;
    }
    const char *path = n == 1 ? words[0] : NULL;
    free(words);
    if (!path || (path[0] == '-' && path[1])) {
        msgtext_print(stderr, "ptosim validate: %s",
                      !n      ? "missing GRAPH"
                      : n > 1 ? "one GRAPH at a time"
                              : "unknown option");
        return EXIT_USAGE;
    }
    if (graph_validate(path, err, sizeof(err)) != 0) {
        msgtext_print(stderr, "ptosim: %s", err);
        capture_hint(path);
        return EXIT_GRAPH;
    }
    printf("%s: ok\n", gsrc_name(path));
    return EXIT_OK;
}

static void params_usage(void)
{
    fputs("usage: ptosim params [-p NAME|FILE]\n"
          "\n"
          "Lists the platform's parameters with their values and where each comes from (the platform\n"
          "file, its base, a default); --set KEY=VALUE on run, tune and sweep overrides them.\n"
          "\n",
          stdout);
    opt_help(&run_params_options, stdout);
    puts("\n"
         "exit status: 0 listed; 2 bad command line or platform");
}

/* params takes no operand: a word that is no option is refused by name */
static int params_operand(const char *word, void *dest, char *err, size_t errlen)
{
    (void)dest;
    snprintf(err, errlen, "%s: %s", word,
             word[0] == '-' ? "unknown option" : "takes no argument (-p NAME|FILE names the platform)");
    return -1;
}

static const opt_def PARAMS_OPTS[] = {
    {.name = "platform",
     .letter = 'p',
     .arg = OPT_VALUE,
     .kind = OPT_KIND_PLATFORM,
     .meta = "NAME|FILE",
     .help = "platform (default a2a3)",
     .runconfig = "platform",
     .store = opt_store_text,
     .off = 0},
};

const opt_table run_params_options = {
    .cmd = "params",
    .opts = PARAMS_OPTS,
    .nopts = OPT_COUNT(PARAMS_OPTS),
    .operand_kind = OPT_KIND_NONE,
    .operand = params_operand,
    .unknown = "%s: unknown option",
};

int run_params_main(int argc, char **argv)
{
    const char *name = "a2a3"; /* PARAMS_OPTS's --platform stores here (off 0) */
    char dir[PATH_MAX], err[4096];
    int rc = opt_parse(&run_params_options, argc, argv, &name, NULL, NULL, err, sizeof(err));
    if (rc == 1) {
        params_usage();
        return EXIT_OK;
    }
    if (rc != 0) {
        msgtext_print(stderr, "ptosim params: %s", err);
        return EXIT_USAGE;
    }
    run_platform_dir(dir, sizeof(dir));
    platform p;
    int prc = platform_load(&p, name, dir, err, sizeof(err));
    if (prc != 0) {
        msgtext_print(stderr, "ptosim: %s", err);
        return prc == PLATFORM_OOM ? EXIT_INTERNAL : EXIT_USAGE;
    }
    platform_print_table(&p, stdout);
    return EXIT_OK;
}
