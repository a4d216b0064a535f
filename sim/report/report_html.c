/* report_html.c - htmlrep_: `ptosim report DIR`: reading a run, the page's head and summary, workers. */
#include "report_html.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cJSON.h>

#include "../../model/base/msg_text.h"
#include "../../model/base/outfile.h"
#include "../../model/base/readall.h"
#include "../../model/base/userdir.h"
#include "../../model/output/run_folder.h"
#include "../cli/cli.h"
#include "overhead.h"
#include "report_data.h"
#include "report_html_diff.h"
#include "report_html_draw.h"
#include "report_html_dump.h"
#include "report_html_overhead.h"
#include "report_html_pipes.h"
#include "report_html_rings.h"
#include "report_html_roofline.h"
#include "report_html_sweep.h"
#include "report_html_swimlane.h"
#include "report_html_whatif.h"

/* ------------------------------------------------------------------ */
/* Page head                                                           */
/* ------------------------------------------------------------------ */

static const char CSS[] =
    "body{font-family:'DejaVu Sans',Verdana,Arial,sans-serif;color:#222;background:#fff;max-width:1120px;"
    "margin:0 auto;padding:12px 20px 40px;font-size:14px}\n"
    "h1{font-size:22px;margin:8px 0 2px}h2{font-size:18px;margin:30px 0 8px;padding-bottom:4px;"
    "border-bottom:1px solid #ddd}h3{font-size:15px;margin:18px 0 6px}\n"
    ".sub{color:#666;font-size:13px;margin:2px 0 8px}nav{margin:6px 0 4px}nav a{margin-right:16px}\n"
    ".cards{display:flex;flex-wrap:wrap;gap:10px;margin:8px 0}.card{border:1px solid #ddd;border-radius:6px;"
    "padding:8px 12px;min-width:140px}.card .k{font-size:12px;color:#666}.card .v{font-size:18px;"
    "font-weight:bold;margin-top:2px}.card .d{font-size:12px;color:#444}\n"
    ".ok{color:#1a7f37}.bad{color:#c62828}.banner{border:1px solid #e0a0a0;background:#fdf0f0;"
    "border-radius:6px;padding:8px 12px;margin:8px 0}\n"
    ".note{background:#f5f7fa;border-left:4px solid #9aa7b5;padding:6px 10px;color:#444;font-size:13px}\n"
    "svg{display:block;max-width:100%;height:auto;margin:4px 0}svg text{font-size:11px;fill:#333}\n"
    "svg .tick{font-size:10px;fill:#555}svg .title{font-size:12px;fill:#222}svg "
    ".lane{font-size:9px;fill:#444}\n"
    "svg .grid{stroke:#e6e6e6;stroke-width:1}svg .axis{stroke:#888;stroke-width:1}\n"
    "svg .aic{fill:" COL_AIC "}svg .aiv{fill:" COL_AIV "}svg .cp{fill:" COL_CP "}"
    "svg .cpl{stroke:" COL_CP ";stroke-width:1.2;stroke-opacity:0.75;fill:none}\n"
    "svg .series{fill:none;stroke-width:1.6}svg .band{fill-opacity:0.22;stroke:none}svg "
    ".cap{stroke-dasharray:5 4;stroke-width:1.2;fill:none}\n"
    "svg .curve{fill:none;stroke-width:2}svg .blocked{fill:none;stroke-width:1.8}svg "
    ".pt{stroke:#fff;stroke-width:1}svg .fail{stroke:" COL_CP ";stroke-width:2}\n"
    ".charts{display:flex;flex-wrap:wrap;gap:12px 24px}figure{margin:0}figcaption{font-weight:bold;"
    "font-size:13px;margin:4px 0}\n"
    ".sweep-fig{flex-basis:100%}.pair{display:flex;gap:8px}.pair svg{width:49.5%}\n"
    ".legend{list-style:none;padding:0;margin:2px 0 0 8px;font-size:12px}.legend li{margin:1px 0}"
    ".sw{display:inline-block;width:14px;height:9px;margin-right:6px;border-radius:2px}\n"
    "table{border-collapse:collapse;font-size:12px;margin:6px 0}th,td{border:1px solid #ddd;padding:2px 7px;"
    "text-align:right}th{background:#f3f4f6}.l{text-align:left}\n"
    "details{margin:8px 0}summary{cursor:pointer;color:#345}footer{margin-top:30px;color:#888;"
    "font-size:12px}\n";

static void page_head(rep *r)
{
    FILE *f = r->f;
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>ptosim report", f);
    if ((r->has_run || r->capture) && r->run.graph[0]) {
        fputs(": ", f);
        rh_esc(f, r->run.graph);
    }
    if (r->capture)
        fputs(": runtime capture", f);
    fputs("</title>\n<style>\n", f);
    fputs(CSS, f); /* a constant */
    fputs("</style>\n</head>\n<body>\n", f);
    fputs("<h1>ptosim report", f);
    if (r->capture) {
        fputs(": runtime capture", f);
        if (r->run.graph[0]) {
            fputs(" of ", f);
            rh_esc(f, r->run.graph);
        }
    } else if (r->has_run) {
        fputs(": ", f);
        rh_esc(f, r->run.graph[0] ? r->run.graph : "run");
        if (r->run.platform[0]) {
            fputs(" on ", f);
            rh_esc(f, r->run.platform);
        }
    } else if (r->has_sweep) {
        fputs(": sweep", f);
        if (r->sw.ngroups == 1) {
            fputs(" of ", f);
            rh_esc(f, r->sw.groups[0][0]);
            fputs(" on ", f);
            rh_esc(f, r->sw.groups[0][1]);
        }
    }
    fputs("</h1>\n<nav>", f);
    if (r->capture)
        fputs(
            "<a href=\"#summary\">Summary</a><a href=\"#overhead\">Overhead</a><a href=\"#swimlane\">Swimlane</a>"
            "<a href=\"#rings\">Rings</a><a href=\"#pipes\">Pipes</a>",
            f);
    if (r->has_run) {
        fputs("<a href=\"#summary\">Summary</a>", f);
        if (r->run.dump.given)
            fputs("<a href=\"#dump\">Args dump</a>", f);
        fputs("<a href=\"#overhead\">Overhead</a><a href=\"#swimlane\">Swimlane</a>"
              "<a href=\"#rings\">Rings</a><a href=\"#pipes\">Pipes</a><a href=\"#roofline\">Roofline</a>",
              f);
        if (r->has_whatif)
            fputs("<a href=\"#whatif\">What would pay</a>", f);
    }
    if (r->has_sweep)
        fputs("<a href=\"#sweep\">Sweep</a>", f);
    fputs("</nav>\n", f);
}

/* Which inputs were read, and how to get the missing ones. */
static void inputs_table(rep *r)
{
    FILE *f = r->f;
    struct {
        const char *file;
        bool there;
        const char *how;
    } in[] = {
        {"ptosim_run.json", r->has_run, "ptosim run GRAPH -o DIR"},
        {"chip_swimlane_records.json", r->sl_rc == RD_OK, "--enable-chip-swimlane"},
        {"deps.json", r->deps_rc == RD_OK, "--enable-dep-gen"},
        {"scope_stats/scope_stats.jsonl", r->sc_rc == RD_OK, "--enable-scope-stats"},
        {"pmu.csv", r->pmu_rc == RD_OK, "--enable-pmu"},
        {"sweep.csv", r->has_sweep, "ptosim sweep (one row per configuration point)"},
        {"name_map_*.json", r->cap_namemap, "the runtime, with the swimlane (kernel names)"},
        {"args_dump/", r->cap_args, "--dump-args (not drawn: ptosim import reads it)"},
    };
    size_t nin = sizeof(in) / sizeof(in[0]) - (r->capture ? 0 : 2);
    fputs("<details><summary>Inputs read from this directory</summary>\n<table><tr><th class=\"l\">file</th>"
          "<th class=\"l\">status</th><th class=\"l\">written by</th></tr>\n",
          f);
    for (size_t i = 0; i < nin; i++) {
        if ((!r->has_run && !r->capture && i > 0 && i < 5) || (r->capture && (i == 0 || i == 5)))
            continue;
        rh_hp(f, "<tr><td class=\"l\">%s%s</td><td class=\"l\">%s</td><td class=\"l\">%s</td></tr>\n",
              i > 0 && i < 5 ? r->dfx_rel : i > 5 ? r->dfx_rel : "", in[i].file,
              in[i].there ? "read" : "absent", in[i].how);
    }
    fputs("</table></details>\n", f);
}

/* ------------------------------------------------------------------ */
/* Summary                                                             */
/* ------------------------------------------------------------------ */

/* Busy fraction per core type as two horizontal bars. */
static void busy_svg(FILE *f, const rd_run *run)
{
    const int w = 560, x0 = 48, bw = 420;
    rh_hp(f,
          "<svg id=\"busy-chart\" width=\"%d\" height=\"64\" viewBox=\"0 0 %d 64\" role=\"img\" "
          "aria-label=\"busy fraction per core type\">\n",
          w, w);
    struct {
        const char *name, *cls;
        double v;
    } row[2] = {{"AIC", "aic", run->busy_aic}, {"AIV", "aiv", run->busy_aiv}};
    for (int i = 0; i < 2; i++) {
        double v = row[i].v < 0 ? 0 : row[i].v > 1 ? 1 : row[i].v;
        int y = 8 + i * 26;
        rh_hp(f,
              "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text><rect x=\"%d\" y=\"%d\" width=\"%d\" "
              "height=\"16\" fill=\"#eef0f3\"/><rect class=\"%s\" x=\"%d\" y=\"%d\" width=\"%.1f\" "
              "height=\"16\"/><text x=\"%.1f\" y=\"%d\">%.1f%% busy</text>\n",
              x0 - 8, y + 12, row[i].name, x0, y, bw, row[i].cls, x0, y, v * bw, x0 + bw + 8.0, y + 12,
              100 * row[i].v);
    }
    fputs("</svg>\n", f);
}

static void section_summary(rep *r)
{
    FILE *f = r->f;
    const rd_run *run = &r->run;
    char v[256], d[512];
    fputs("<section id=\"summary\">\n<h2>Summary</h2>\n", f);
    if (run->version[0] || run->swimlane_level || run->dep_gen || run->scope_stats || run->pmu) {
        fputs("<p class=\"sub\">", f);
        if (run->version[0]) {
            fputs("written by ptosim ", f);
            rh_esc(f, run->version);
        }
        rh_hp(f, "; DFX: swimlane level %d%s%s%s</p>\n", run->swimlane_level, run->dep_gen ? ", dep gen" : "",
              run->scope_stats ? ", scope stats" : "", run->pmu ? ", PMU" : "");
    }
    bool ok = strcmp(run->status, "ok") == 0;
    if (run->rt_error)
        snprintf(v, sizeof(v), "runtime error %d %s", run->rt_code, run->rt_name);
    else if (run->dev_error)
        snprintf(v, sizeof(v), "device error %d %s", run->dev_code, run->dev_name);
    else
        snprintf(v, sizeof(v), "%s", run->status);
    if (!ok) {
        fputs("<div class=\"banner\" id=\"outcome-banner\"><b class=\"bad\">", f);
        rh_esc(f, v);
        rh_hp(f, "</b> (exit status %d)", run->exit_code);
        if (run->rt_error && run->rt_detail[0]) {
            fputs(": ", f);
            rh_esc(f, run->rt_detail);
        }
        if (run->dev_error) {
            char at[32];
            rh_fmt_time(at, sizeof(at), run->dev_at_us);
            rh_hp(f, " at %s", at);
            if (run->dev_watchdog[0]) {
                fputs(", fired by the ", f);
                rh_esc(f, run->dev_watchdog);
                fputs(" watchdog", f);
            }
        }
        if (run->rt_error && run->rt_hint[0]) {
            fputs("<br>Hint: ", f);
            rh_esc(f, run->rt_hint);
        }
        if (run->message[0]) {
            fputs("<br>", f);
            rh_esc(f, run->message);
        }
        fputs("</div>\n", f);
    }
    fputs("<div class=\"cards\">\n", f);
    char ms[64];
    snprintf(ms, sizeof(ms), "%.3f µs", run->makespan_us);
    d[0] = '\0';
    if (run->makespan_us >= 1e6)
        snprintf(d, sizeof(d), "%.3f s", run->makespan_us / 1e6);
    else if (run->makespan_us >= 1e4)
        snprintf(d, sizeof(d), "%.3f ms", run->makespan_us / 1e3);
    rh_card(f, "makespan", NULL, ms, d[0] ? d : NULL);
    rh_card(f, "outcome", ok ? "ok" : "bad", v, NULL);
    snprintf(v, sizeof(v), "%" PRIu64 " / %" PRIu64, run->completed, run->submitted);
    /* kernel_tasks counts submits, executions what ran: a killed run has many more of the first */
    snprintf(d, sizeof(d), "completed; %" PRIu64 " AICore task%s submitted, %" PRIu64 " execution%s run",
             run->kernel_tasks, run->kernel_tasks == 1 ? "" : "s", run->executions,
             run->executions == 1 ? "" : "s");
    rh_card(f, "tasks", NULL, v, d);
    snprintf(v, sizeof(v), "%.1f%%", 100 * run->busy_aic);
    rh_card(f, "AIC busy", NULL, v, NULL);
    snprintf(v, sizeof(v), "%.1f%%", 100 * run->busy_aiv);
    rh_card(f, "AIV busy", NULL, v, NULL);
    if (run->orch_end_us > 0) {
        snprintf(v, sizeof(v), "%.3f µs", run->orch_end_us);
        double blocked = 0;
        for (int i = 0; i < RD_RINGS; i++)
            blocked += run->rings[i].blocked_us;
        snprintf(d, sizeof(d), "last submit done (%.1f%% of the makespan); blocked on rings %.3f µs",
                 run->makespan_us > 0 ? 100 * run->orch_end_us / run->makespan_us : 0, blocked);
        rh_card(f, "orchestrator", NULL, v, d);
    }
    if (rh_dump_bound(run)) {
        char rate[32];
        rh_fmt_dec_bytes(rate, sizeof(rate), run->dump.drain_bps);
        snprintf(d, sizeof(d),
                 "the scheduler threads were parked %.1f%% of the run, waiting for the host's %s/s",
                 100 * run->dump.frozen_us / run->makespan_us, rate);
        rh_card(f, "bottleneck", "bad", "args dump collector", d);
    } else if (!ok) {
        snprintf(d, sizeof(d), "the run did not finish; Pipes shows the %" PRIu64 " execution%s that ran",
                 run->executions, run->executions == 1 ? "" : "s");
        rh_card(f, "bottleneck", NULL, "none named", d);
    } else if (run->bound_kind[0] && strcmp(run->bound_kind, "none") != 0) {
        /* the run's own analysis (ptosim_run.json bound): what the summary and tune name too */
        const char *colon = strchr(run->bound_text, ':');
        rh_card(f, "bottleneck", NULL, run->bound_what, colon ? colon + 2 : run->bound_text);
    } else if (run->bottleneck) {
        snprintf(v, sizeof(v), "%s pipe", run->bn_pipe);
        snprintf(d, sizeof(d), "%.1f%% busy in %s (most time on cores)", 100 * run->bn_fraction,
                 run->bn_kernel);
        rh_card(f, "bottleneck", NULL, v, d);
    } else {
        rh_card(f, "bottleneck", NULL, "none", "no kernel has a pipe cost model");
    }
    fputs("</div>\n<h3>Busy fraction per core type</h3>\n", f);
    busy_svg(f, run);
    if (run->perturbed)
        rh_note(f,
                "Profiling perturbed this makespan (swimlane record write-back, PMU single issue or the args "
                "dump; <code>profiling</code> in ptosim_run.json says which).");
    if (run->bound_kind[0]) {
        if (strcmp(run->bound_kind, "none") != 0) {
            rh_hp(f, "<p class=\"note\">What bounds this run: %s.</p>\n", run->bound_text);
        }
    } else if (run->orch_end_us >= 0.9 * run->makespan_us && run->busy_aic < 0.5 && run->busy_aiv < 0.5 &&
               run->makespan_us > 0) { /* an older ptosim_run.json without its bound */
        snprintf(
            d, sizeof(d),
            "The orchestrator was still submitting at %.1f%% of the makespan while the cores were mostly "
            "idle: this run is bound by task submission, not by the cores.",
            100 * run->orch_end_us / run->makespan_us);
        rh_note_text(f, d);
    }
    if (run->hbm_saturated_us > 0) {
        snprintf(d, sizeof(d), "Shared HBM was saturated for %.3f µs of the run.", run->hbm_saturated_us);
        rh_note_text(f, d);
    }
    inputs_table(r);
    fputs("</section>\n", f);
}

/* A runtime capture's summary: what its files say, and what a capture cannot say. */
static void section_capture_summary(rep *r)
{
    FILE *f = r->f;
    const rd_run *run = &r->run;
    char v[256], d[512];
    fputs("<section id=\"summary\">\n<h2>Summary</h2>\n", f);
    rh_hp(f,
          "<p class=\"sub\" id=\"capture-sub\">A capture of the real runtime (its own files%s%s, no "
          "<code>ptosim_run.json</code>)",
          r->dfx_rel[0] ? " in " : "", r->dfx_rel);
    if (r->sl_rc == RD_OK)
        rh_hp(f, "; swimlane level %d, a %" PRIu64 " Hz counter, %d AIC and %d AIV cores",
              run->swimlane_level, r->sl.clock_hz, r->cap_cores[0], r->cap_cores[1]);
    fputs(".</p>\n", f);
    rh_note(
        f, "What a capture cannot say: the runtime records no time the orchestrator spent blocked on a "
           "ring (its scope stats are samples at scope boundaries, without time), no analysis of what "
           "bounds the run beyond the scheduler-overhead model below, and no kernel cost model, so no pipe "
           "busy fractions and no bottleneck pipe. <code>ptosim import</code> turns the capture into a graph "
           "that <code>ptosim run</code> can answer those for.");
    fputs("<div class=\"cards\">\n", f);
    if (r->sl_rc == RD_OK && run->executions) {
        snprintf(v, sizeof(v), "%.3f µs", run->makespan_us);
        rh_card(f, "makespan", NULL, v, "first start to last end of the swimlane's executions");
        snprintf(v, sizeof(v), "%" PRIu64, run->executions);
        if (r->deps_rc == RD_OK)
            snprintf(d, sizeof(d), "AICore executions of %" PRIu64 " task%s; deps.json lists %zu task%s",
                     r->cap_tasks, r->cap_tasks == 1 ? "" : "s", r->deps.ntasks,
                     r->deps.ntasks == 1 ? "" : "s");
        else
            snprintf(d, sizeof(d), "AICore executions of %" PRIu64 " task%s", r->cap_tasks,
                     r->cap_tasks == 1 ? "" : "s");
        rh_card(f, "executions", NULL, v, d);
        snprintf(v, sizeof(v), "%.1f%%", 100 * run->busy_aic);
        snprintf(d, sizeof(d), "over %d AIC core%s", r->cap_cores[0], r->cap_cores[0] == 1 ? "" : "s");
        rh_card(f, "AIC busy", NULL, v, d);
        snprintf(v, sizeof(v), "%.1f%%", 100 * run->busy_aiv);
        snprintf(d, sizeof(d), "over %d AIV core%s", r->cap_cores[1], r->cap_cores[1] == 1 ? "" : "s");
        rh_card(f, "AIV busy", NULL, v, d);
    } else if (r->deps_rc == RD_OK) {
        snprintf(v, sizeof(v), "%zu", r->deps.ntasks);
        snprintf(d, sizeof(d), "in deps.json, with %zu edge%s", r->deps.nedges,
                 r->deps.nedges == 1 ? "" : "s");
        rh_card(f, "tasks", NULL, v, d);
    }
    fputs("</div>\n", f);
    if (r->sl_rc != RD_OK)
        rh_note(f, "No <code>chip_swimlane_records.json</code> (the runtime writes it with "
                "<code>--enable-chip-swimlane</code>): no makespan, executions or busy fractions.");
    else if (!run->executions)
        rh_note(f, "The swimlane holds no AICore execution: no makespan or busy fractions.");
    else {
        fputs("<h3>Busy fraction per core type</h3>\n", f);
        busy_svg(f, run);
    }
    inputs_table(r);
    fputs("</section>\n", f);
}

/* A capture's rings: the highest sampled live value per ring against the capacity its scope stats header
 * gives (no time series: the samples carry no time stamp). */
static void section_capture_rings(rep *r)
{
    FILE *f = r->f;
    const rd_scopes *sc = &r->sc;
    fputs("<section id=\"rings\">\n<h2>Rings</h2>\n", f);
    if (r->sc_rc != RD_OK) {
        rh_note(f,
                "No scope stats: <code>scope_stats/scope_stats.jsonl</code> is absent (the runtime writes it "
                "with <code>--enable-scope-stats</code>): no ring occupancy.");
        fputs("</section>\n", f);
        return;
    }
    uint64_t mx[RD_RINGS][3] = {{0}};
    for (size_t i = 0; i < sc->n; i++) {
        const rd_sample *x = &sc->v[i];
        uint64_t v[3] = {x->task_window, x->heap, x->dep_pool};
        for (int k = 0; k < 3; k++)
            mx[x->ring][k] = v[k] > mx[x->ring][k] ? v[k] : mx[x->ring][k];
    }
    fputs(
        "<h3>Highest sampled occupancy against capacity (scope stats)</h3>\n<p class=\"sub\">The capacities "
        "are the scope stats header's <code>task_window_max</code>, <code>heap_max</code> and "
        "<code>dep_pool_max</code>; the occupancy is the most a ring held at a scope begin or end, so a "
        "peak between two boundaries is not seen. The runtime does not record how long the orchestrator "
        "waited for a ring.</p>\n<table id=\"ring-peaks\"><tr><th>ring</th><th>task window sampled / "
        "capacity</th><th>heap sampled / capacity</th><th>dep pool sampled / capacity</th></tr>\n",
        f);
    for (int g = 0; g < RD_RINGS; g++) {
        rh_hp(f, "<tr><td>%d</td>", g);
        rh_pct_cell(f, mx[g][0], sc->task_window_max[g], false);
        rh_pct_cell(f, mx[g][1], sc->heap_max[g], true);
        rh_pct_cell(f, mx[g][2], sc->dep_pool_max[g], false);
        fputs("</tr>\n", f);
    }
    fputs("</table>\n<h3>Scope stats</h3>\n", f);
    if (!sc->n)
        rh_note(f, "The scope stats file has no samples (no scope was recorded).");
    else
        rh_scope_table(r);
    fputs("</section>\n", f);
}

/* ------------------------------------------------------------------ */
/* The command                                                         */
/* ------------------------------------------------------------------ */

static int cmp_task_id(const void *a, const void *b)
{
    const rd_task *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

static void key_task_id(const void *a, uint64_t k[2])
{
    k[0] = ((const rd_task *)a)->id;
    k[1] = 0;
}

static void rep_free(rep *r)
{
    rd_run_free(&r->run);
    rd_swimlane_free(&r->sl);
    rd_deps_free(&r->deps);
    free(r->by_id);
    rd_path_free(&r->cp);
    rd_scopes_free(&r->sc);
    rd_pmu_free(&r->pmu);
    rd_sweep_free(&r->sw);
    rd_whatif_free(&r->wi);
}

/* Below DIR nothing is reached through a link (userdir.h): a link there is neither. */
static bool is_file(const char *p)
{
    struct stat st;
    return userdir_stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static bool is_dir(const char *p)
{
    struct stat st;
    return userdir_stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Whether folder d holds any file of a runtime capture (the DFX files, a name map, args_dump/). */
static bool capture_in(const char *d)
{
    static const char *const F[] = {"chip_swimlane_records.json", "deps.json",
                                    "scope_stats/scope_stats.jsonl", "pmu.csv"};
    char p[PATH_MAX + 64], g[8];
    for (size_t i = 0; i < sizeof(F) / sizeof(F[0]); i++) {
        snprintf(p, sizeof(p), "%s/%s", d, F[i]);
        if (is_file(p))
            return true;
    }
    snprintf(p, sizeof(p), "%s/args_dump", d);
    rd_kernel *k;
    int nk;
    bool named = rd_load_name_map(d, g, sizeof(g), &k, &nk) == RD_OK;
    free(k);
    return named || is_dir(p);
}

static int cmp_u64_key(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static void key_u64(const void *a, uint64_t k[2])
{
    k[0] = *(const uint64_t *)a;
    k[1] = 0;
}

/* A capture's overhead model and critical-path tool: what `ptosim overhead` computes from the swimlane
 * (level 2 or more) and deps.json, read back as ptosim_run.json's "overhead" so the section is the run's.
 * Sets r->cap_no_oh when the files cannot give it. */
static int capture_overhead(rep *r, char *err, size_t errlen)
{
    if (r->sl_rc != RD_OK || r->deps_rc != RD_OK) {
        r->cap_no_oh = "it needs both chip_swimlane_records.json (level 2 or more) and deps.json";
        return EXIT_OK;
    }
    if (r->sl.level < 2) {
        r->cap_no_oh = "the swimlane is level 1, without the AICPU's dispatch and finish times it needs";
        return EXIT_OK;
    }
    char sp[PATH_MAX + 64], dp[PATH_MAX + 64];
    snprintf(sp, sizeof(sp), "%s/chip_swimlane_records.json", r->dfx);
    snprintf(dp, sizeof(dp), "%s/deps.json", r->dfx);
    exec_log l;
    unsigned long long hz;
    int status = overhead_load(sp, dp, &l, &hz, &r->cap_unmatched, err, errlen);
    if (status != EXIT_OK)
        return status;
    ohm_result res;
    char *text = NULL;
    size_t len = 0;
    if (ohm_compute(&l, hz, &res) != 0) {
        exec_log_free(&l);
        snprintf(err, errlen, "out of memory");
        return EXIT_INTERNAL;
    }
    FILE *m = open_memstream(&text, &len);
    if (m) {
        fputs("{\"overhead\": ", m);
        ohm_write_json(m, &res, 0, 0);
        fputs("}", m);
        fclose(m);
    }
    ohm_result_free(&res);
    exec_log_free(&l);
    if (!m || !text) {
        free(text);
        snprintf(err, errlen, "out of memory");
        return EXIT_INTERNAL;
    }
    int rc = rd_parse_overhead(text, "overhead model", &r->run.oh, err, errlen);
    free(text);
    return rc == RD_OK ? EXIT_OK : EXIT_INTERNAL;
}

/* What a capture's files say of the run: makespan (first start to last end of the swimlane), executions,
 * tasks, busy fraction per core type, kernel names, the overhead model. */
static int capture_figures(rep *r, char *err, size_t errlen)
{
    rd_run *run = &r->run;
    if (rd_load_name_map(r->dfx, run->graph, sizeof(run->graph), &run->kernels, &run->nkernels) == RD_OK)
        r->cap_namemap = true;
    char p[PATH_MAX + 64];
    snprintf(p, sizeof(p), "%s/args_dump", r->dfx);
    r->cap_args = is_dir(p);
    snprintf(run->status, sizeof(run->status), "capture");
    if (r->sl_rc == RD_OK) {
        const rd_swimlane *sl = &r->sl;
        run->swimlane_level = sl->level;
        for (int c = 0; c < sl->ncores; c++)
            r->cap_cores[sl->aic[c] ? 0 : 1]++;
        uint64_t lo = UINT64_MAX, hi = 0;
        double busy[2] = {0, 0};
        uint64_t *ids = malloc((sl->nex ? sl->nex : 1) * sizeof(*ids));
        if (!ids) {
            snprintf(err, errlen, "out of memory");
            return EXIT_INTERNAL;
        }
        for (size_t i = 0; i < sl->nex; i++) {
            const rd_exec *x = &sl->ex[i];
            lo = x->start < lo ? x->start : lo;
            hi = x->end > hi ? x->end : hi;
            if (x->core >= 0 && x->core < sl->ncores && x->end > x->start)
                busy[sl->aic[x->core] ? 0 : 1] += (double)(x->end - x->start);
            ids[i] = x->task;
        }
        if (rd_sort_by_key(ids, sl->nex, sizeof(*ids), key_u64) != 0)
            qsort(ids, sl->nex, sizeof(*ids), cmp_u64_key);
        for (size_t i = 0; i < sl->nex; i++)
            r->cap_tasks += !i || ids[i] != ids[i - 1];
        free(ids);
        run->executions = sl->nex;
        if (sl->nex && hi > lo && sl->clock_hz) {
            double span = (double)(hi - lo);
            run->makespan_us = span * 1e6 / (double)sl->clock_hz;
            run->busy_aic = r->cap_cores[0] ? busy[0] / (span * r->cap_cores[0]) : 0;
            run->busy_aiv = r->cap_cores[1] ? busy[1] / (span * r->cap_cores[1]) : 0;
        }
    }
    run->dep_gen = r->deps_rc == RD_OK;
    run->scope_stats = r->sc_rc == RD_OK;
    run->pmu = r->pmu_rc == RD_OK;
    return capture_overhead(r, err, errlen);
}

/* Reads every input; an optional one may be absent. */
static int rep_load(rep *r, char *err, size_t errlen)
{
    char p[PATH_MAX + 64];
    snprintf(p, sizeof(p), "%s/ptosim_run.json", r->dir);
    int rc = rd_load_run(p, &r->run, err, errlen);
    if (rc == RD_BAD)
        return EXIT_GRAPH;
    r->has_run = rc == RD_OK;
    snprintf(p, sizeof(p), "%s/sweep.csv", r->dir);
    rc = rd_load_sweep(p, &r->sw, err, errlen);
    if (rc == RD_BAD)
        return EXIT_GRAPH;
    r->has_sweep = rc == RD_OK;
    if (r->has_run) { /* `ptosim whatif -o DIR`'s ranking beside the baseline's run */
        snprintf(p, sizeof(p), "%s/whatif.json", r->dir);
        rc = rd_load_whatif(p, &r->wi, err, errlen);
        if (rc == RD_BAD)
            return EXIT_GRAPH;
        r->has_whatif = rc == RD_OK;
    }
    snprintf(r->dfx, sizeof(r->dfx), "%s/dfx_outputs", r->dir);
    r->dfx_rel = "dfx_outputs/";
    if (!r->has_run && !r->has_sweep) {
        /* a runtime capture: its files in DIR/dfx_outputs, or in DIR itself */
        if (!capture_in(r->dfx)) {
            snprintf(r->dfx, sizeof(r->dfx), "%s", r->dir);
            r->dfx_rel = "";
        }
        if (!capture_in(r->dfx)) {
            snprintf(err, errlen,
                     "%s: no ptosim_run.json, sweep.csv or runtime capture (chip_swimlane_records.json, "
                     "deps.json, scope_stats/, pmu.csv, name_map_*.json or args_dump/, in DIR or "
                     "DIR/dfx_outputs); run ptosim run -o %s first",
                     r->dir, r->dir);
            return EXIT_USAGE;
        }
        r->capture = true;
    }
    r->sl_rc = r->deps_rc = r->sc_rc = r->pmu_rc = RD_ABSENT;
    if (!r->has_run && !r->capture)
        return EXIT_OK; /* the run sections need ptosim_run.json or a capture */
    snprintf(p, sizeof(p), "%s/chip_swimlane_records.json", r->dfx);
    if ((r->sl_rc = rd_load_swimlane(p, &r->sl, err, errlen)) == RD_BAD)
        return EXIT_GRAPH;
    snprintf(p, sizeof(p), "%s/deps.json", r->dfx);
    if ((r->deps_rc = rd_load_deps(p, &r->deps, err, errlen)) == RD_BAD)
        return EXIT_GRAPH;
    snprintf(p, sizeof(p), "%s/scope_stats/scope_stats.jsonl", r->dfx);
    if ((r->sc_rc = rd_load_scopes(p, &r->sc, err, errlen)) == RD_BAD)
        return EXIT_GRAPH;
    snprintf(p, sizeof(p), "%s/pmu.csv", r->dfx);
    if ((r->pmu_rc = rd_load_pmu(p, &r->pmu, err, errlen)) == RD_BAD)
        return EXIT_GRAPH;
    if (r->capture) {
        int st = capture_figures(r, err, errlen);
        if (st != EXIT_OK)
            return st;
    }
    if (r->deps_rc == RD_OK) {
        r->by_id = malloc((r->deps.ntasks ? r->deps.ntasks : 1) * sizeof(*r->by_id));
        if (!r->by_id) {
            snprintf(err, errlen, "out of memory");
            return EXIT_INTERNAL;
        }
        if (r->deps.ntasks)
            memcpy(r->by_id, r->deps.tasks, r->deps.ntasks * sizeof(*r->by_id));
        if (rd_sort_by_key(r->by_id, r->deps.ntasks, sizeof(*r->by_id), key_task_id) != 0)
            qsort(r->by_id, r->deps.ntasks, sizeof(*r->by_id), cmp_task_id);
        if (r->sl_rc == RD_OK && rd_critical_path(&r->sl, &r->deps, &r->cp) != 0) {
            snprintf(err, errlen, "out of memory");
            return EXIT_INTERNAL;
        }
    }
    return EXIT_OK;
}

/* ------------------------------------------------------------------ */
/* A worker's folder: several programs (ptosim run A.jsonl B.jsonl)     */
/* ------------------------------------------------------------------ */

static double jnum(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

static const char *jstr(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(v) ? v->valuestring : "";
}

/* The worker's clock as one bar: setup, then per program an arena rebuild
 * (when its sizing changed) and its run, to scale. */
static void worker_timeline(FILE *f, const cJSON *progs, const cJSON *wk, const cJSON *costs)
{
    double total = jnum(wk, "total_us"), x0 = 10, width = 1100;
    if (total <= 0)
        return;
    fputs("<svg width=\"1120\" height=\"74\" role=\"img\" aria-label=\"worker timeline\">\n", f);
    double setup = jnum(wk, "setup_us");
    rh_hp(f,
          "<rect x=\"%.1f\" y=\"10\" width=\"%.1f\" height=\"26\" fill=\"#b8c0c8\"><title>setup %.3f ms"
          "</title></rect>\n",
          x0, width * setup / total, setup / 1e3);
    const cJSON *p;
    int i = 0;
    cJSON_ArrayForEach(p, progs)
    {
        double start = jnum(p, "start_us"), dev = jnum(p, "device_us");
        if (i > 0 && strcmp(jstr(p, "arena"), "built") == 0) {
            double b = jnum(costs, "arena_build");
            rh_hp(f,
                  "<rect x=\"%.1f\" y=\"10\" width=\"%.1f\" height=\"26\" fill=\"#d9534f\"><title>arena "
                  "rebuilt for program %d: %.3f ms</title></rect>\n",
                  x0 + width * (start - b) / total, width * b / total, i, b / 1e3);
        }
        rh_hp(f, "<rect x=\"%.1f\" y=\"10\" width=\"%.1f\" height=\"26\" fill=\"%s\"><title>%d ",
              x0 + width * start / total, width * dev / total > 1 ? width * dev / total : 1,
              i % 2 ? "#4a7bd0" : "#2c5aa0", i);
        rh_esc(f, jstr(p, "name"));
        rh_hp(f, ": %.3f ms</title></rect>\n", dev / 1e3);
        i++;
    }
    rh_hp(f,
          "<text x=\"%.1f\" y=\"54\" font-size=\"11\">0</text><text x=\"%.1f\" y=\"54\" font-size=\"11\" "
          "text-anchor=\"end\">%.3f ms</text>\n",
          x0, x0 + width, total / 1e3);
    fputs(
        "<text x=\"10\" y=\"70\" font-size=\"11\" fill=\"#555\">grey: setup (init, registration, arena, "
        "first "
        "launch); red: arena rebuilt for a new ring sizing; blue: runs (preamble + prep + makespan)</text>\n"
        "</svg>\n",
        f);
}

/* Does DIR hold a sweep's points.csv (its header) and sweep.cmd as `ptosim sweep` writes them, regular files
 * and no link? */
static bool sweep_written_by_ptosim(const char *dir)
{
    char path[PATH_MAX + 64], head[16];
    struct stat st;
    snprintf(path, sizeof(path), "%s/sweep.cmd", dir);
    if (userdir_stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return false;
    snprintf(path, sizeof(path), "%s/points.csv", dir);
    FILE *f = readall_open(path);
    if (!f)
        return false;
    size_t n = fread(head, 1, 10, f);
    fclose(f);
    head[n] = '\0';
    return strcmp(head, "point,dir,") == 0;
}

/* The folder the page goes into: out, made when missing, or with out NULL DIR itself when ptosim wrote it (a
 * run's ptosim_run.json, or a sweep's points.csv and sweep.cmd beside its sweep.csv): a capture someone sent
 * is not written into. what says what DIR holds, for the refusal. Returns 0, or an exit status with err. */
static int page_folder(const char *dir, const char *out, bool ours, const char *what, char *err,
                       size_t errlen)
{
    if (!out && !ours) {
        snprintf(err, errlen,
                 "%s holds %s, not a folder ptosim wrote (no ptosim_run.json, nor a sweep's points.csv and "
                 "sweep.cmd), and the report writes into no other: give -o OUT to write OUT/report.html",
                 dir, what);
        return EXIT_USAGE;
    }
    if (out && outfile_mkdirs(out, err, errlen) != 0)
        return EXIT_INTERNAL;
    return EXIT_OK;
}

/* A worker's pages: the index into OUT (NULL: DIR, the worker's own), each program's into OUT/N_NAME. */
static int worker_page(const char *dir, const char *out, const cJSON *w, char *err, size_t errlen)
{
    const cJSON *progs = cJSON_GetObjectItemCaseSensitive(w, "programs"),
                *wk = cJSON_GetObjectItemCaseSensitive(w, "worker"),
                *costs = cJSON_GetObjectItemCaseSensitive(w, "costs_us"), *p;
    if (!cJSON_IsArray(progs) || !cJSON_IsObject(wk) || !cJSON_IsObject(costs)) {
        snprintf(err, errlen, "%s/ptosim_run.json: programs, worker, costs_us: missing or of the wrong type",
                 dir);
        return EXIT_GRAPH;
    }
    /* the folders come from a file in DIR, which may be someone else's: each must be one a session names
     * (N_NAME, inside DIR) and a folder itself, not a link out of DIR; checked all before any page is
     * written */
    int i = 0;
    cJSON_ArrayForEach(p, progs)
    {
        const char *name = jstr(p, "dir");
        char sub[PATH_MAX + 300];
        struct stat st;
        snprintf(sub, sizeof(sub), "%s/%s", dir, name);
        if (!workdir_program_dir_name(name)) {
            snprintf(
                err, errlen,
                "%s/ptosim_run.json: programs[%d].dir \"%.256s\" is not a program's folder (N_NAME, inside "
                "%s); the report follows no path out of the folder",
                dir, i, name, dir);
            return EXIT_GRAPH;
        }
        if (userdir_stat(sub, &st) == 0 && !S_ISDIR(st.st_mode)) {
            snprintf(err, errlen, "%s: programs[%d]'s folder is %s; the report follows no link out of %s",
                     sub, i, S_ISLNK(st.st_mode) ? "a symbolic link" : "not a folder", dir);
            return EXIT_GRAPH;
        }
        i++;
    }
    /* a worker's folder is ptosim's: the pages go into it, or into OUT */
    int made = page_folder(dir, out, true, NULL, err, errlen);
    if (made != EXIT_OK)
        return made;
    if (!out)
        out = dir;
    /* each program's own page first, in OUT/N_NAME, where the index's links find it */
    cJSON_ArrayForEach(p, progs)
    {
        char sub[PATH_MAX + 300], sub_out[PATH_MAX + 300], probe[PATH_MAX + 400];
        snprintf(sub, sizeof(sub), "%s/%s", dir, jstr(p, "dir"));
        snprintf(sub_out, sizeof(sub_out), "%s/%s", out, jstr(p, "dir"));
        snprintf(probe, sizeof(probe), "%s/ptosim_run.json", sub);
        struct stat st;
        if (userdir_stat(probe, &st) != 0)
            continue;
        int rc = htmlrep_write(sub, sub_out, err, errlen);
        if (rc != EXIT_OK)
            return rc;
    }
    char path[PATH_MAX + 64];
    snprintf(path, sizeof(path), "%s/report.html", out);
    outfile of;
    FILE *f = outfile_open(&of, path, err, errlen);
    if (!f)
        return EXIT_INTERNAL;
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>ptosim report: "
          "worker</title>\n<style>\n",
          f);
    fputs(CSS, f); /* a constant */
    rh_hp(f,
          "</style>\n</head>\n<body>\n<h1>ptosim report: %d programs on one worker</h1>\n<section "
          "id=\"worker\"><h2>Worker</h2>\n<div class=\"cards\">\n",
          cJSON_GetArraySize(progs));
    char v[64], d[96];
    snprintf(v, sizeof(v), "%.3f ms", jnum(wk, "setup_us") / 1e3);
    snprintf(d, sizeof(d), "arena built %d time(s)", (int)jnum(wk, "arena_builds"));
    rh_card(f, "setup", "", v, d);
    snprintf(v, sizeof(v), "%.3f ms", jnum(wk, "total_us") / 1e3);
    rh_card(f, "total on this worker", "", v, "setup, rebuilds and runs");
    snprintf(v, sizeof(v), "%.3f ms", jnum(wk, "fresh_workers_us") / 1e3);
    rh_card(f, "on fresh workers", "", v, "each program set up alone");
    snprintf(v, sizeof(v), "%.3f ms", jnum(wk, "saved_us") / 1e3);
    rh_card(f, "saved", "", v, "by sharing the worker");
    fputs("</div>\n", f);
    worker_timeline(f, progs, wk, costs);
    fputs("<table><tr><th>#</th><th class=\"l\">program</th><th>status</th><th>arena</th><th>start ms</th>"
          "<th>device ms</th><th>makespan us</th><th>tasks</th></tr>\n",
          f);
    i = 0;
    cJSON_ArrayForEach(p, progs)
    {
        bool ran = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(p, "ran"));
        rh_hp(f, "<tr><td>%d</td><td class=\"l\">", i++);
        /* the folder was checked above (N_NAME, inside DIR); url_rel refuses anything else all the same */
        if (ran) {
            fputs("<a href=\"", f);
            if (!rh_url_rel(f, jstr(p, "dir"))) {
                snprintf(err, errlen, "%s/ptosim_run.json: programs[%d].dir is not a relative link", dir,
                         i - 1);
                outfile_abort(&of);
                return EXIT_GRAPH;
            }
            fputs("/report.html\">", f);
        }
        rh_esc(f, jstr(p, "name"));
        fputs(ran ? "</a></td><td>" : "</td><td>", f);
        rh_esc(f, jstr(p, "status"));
        rh_hp(f, "</td><td>%s</td><td>%.3f</td><td>%.3f</td><td>%.3f</td><td>%.0f</td></tr>\n",
              jstr(p, "arena"), jnum(p, "start_us") / 1e3, jnum(p, "device_us") / 1e3, jnum(p, "makespan_us"),
              jnum(p, "tasks_completed"));
    }
    fputs("</table>\n</section>\n", f);
    const cJSON *res = cJSON_GetObjectItemCaseSensitive(w, "resident"),
                *edges = cJSON_GetObjectItemCaseSensitive(w, "cross_program_edges"), *e;
    rh_hp(f,
          "<section id=\"resident\"><h2>Resident tensors</h2>\n<p>%d resident tensor(s); %d edge(s) across "
          "programs: a later program's reader of a resident region and the earlier program's task that wrote "
          "it last.</p>\n<table><tr><th class=\"l\">tensor</th><th>address</th><th>placed by</th><th>read "
          "across programs</th></tr>\n",
          cJSON_GetArraySize(res), cJSON_GetArraySize(edges));
    cJSON_ArrayForEach(p, res)
    {
        int n = 0;
        cJSON_ArrayForEach(e, edges) n += strcmp(jstr(e, "tensor"), jstr(p, "name")) == 0;
        fputs("<tr><td class=\"l\">", f);
        rh_esc(f, jstr(p, "name"));
        fputs("</td><td>", f);
        rh_esc(f, jstr(p, "addr"));
        rh_hp(f, "</td><td>%d</td><td>%d</td></tr>\n", (int)jnum(p, "placed_by"), n);
    }
    fputs("</table>\n</section>\n<footer>Written by <code>ptosim report</code> from the worker's "
          "<code>ptosim_run.json</code>; each program's page is in its folder.</footer>\n</body>\n</html>\n",
          f);
    return outfile_commit(&of, err, errlen) == 0 ? EXIT_OK : EXIT_INTERNAL;
}

/* The worker's ptosim_run.json (parsed), or NULL when DIR holds a single run. */
static cJSON *worker_json(const char *dir)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof(path), "%s/ptosim_run.json", dir);
    FILE *f = readall_open(path); /* not a FIFO, which would block here: the run reader then says why */
    if (!f)
        return NULL;
    char head[64] = "";
    size_t n = fread(head, 1, sizeof(head) - 1, f);
    head[n] = '\0';
    if (!strstr(head, "\"ptosim_worker\"")) {
        fclose(f);
        return NULL;
    }
    rewind(f);
    size_t len;
    char *text = readall(f, READALL_RUN, &len, NULL, 0); /* too big: the run reader says so */
    cJSON *j = text ? rd_parse_json(text, len) : NULL;
    free(text);
    fclose(f);
    return j;
}

int htmlrep_write(const char *dir, const char *out, char *err, size_t errlen)
{
    struct stat st;
    if (userdir_stat(dir, &st) != 0) {
        snprintf(err, errlen, "%s: cannot open directory: %s", dir, userdir_why(errno));
        return EXIT_USAGE;
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s: not a directory", dir);
        return EXIT_USAGE;
    }
    cJSON *w = worker_json(dir);
    if (w) {
        int rc = worker_page(dir, out, w, err, errlen);
        cJSON_Delete(w);
        return rc;
    }
    rep r;
    memset(&r, 0, sizeof(r));
    r.dir = dir;
    int status = rep_load(&r, err, errlen);
    if (status == EXIT_OK)
        status = page_folder(dir, out, r.has_run || (r.has_sweep && sweep_written_by_ptosim(dir)),
                             r.capture ? "a capture of the runtime" : "a sweep.csv alone", err, errlen);
    if (status != EXIT_OK) {
        rep_free(&r);
        return status;
    }
    char path[PATH_MAX + 64];
    snprintf(path, sizeof(path), "%s/report.html", out ? out : dir);
    outfile of;
    r.f = outfile_open(&of, path, err, errlen);
    if (!r.f) {
        rep_free(&r);
        return EXIT_INTERNAL;
    }
    page_head(&r);
    if (r.capture) {
        section_capture_summary(&r);
        rh_section_overhead(&r);
        rh_section_swimlane(&r);
        section_capture_rings(&r);
        rh_section_pipes(&r);
    } else if (r.has_run) {
        section_summary(&r);
        if (r.run.dump.given)
            rh_section_dump(&r);
        rh_section_overhead(&r);
        rh_section_swimlane(&r);
        rh_section_rings(&r);
        rh_section_pipes(&r);
        rh_section_roofline(&r);
        if (r.has_whatif)
            rh_section_whatif(&r);
    } else {
        rh_note(
            r.f,
            "No <code>ptosim_run.json</code> in this directory: the run sections (summary, swimlane, rings, "
            "pipes) are absent; it holds a sweep.");
        inputs_table(&r);
    }
    if (r.has_sweep && rh_section_sweep(&r) != 0) {
        outfile_abort(&of);
        rep_free(&r);
        snprintf(err, errlen, "out of memory");
        return EXIT_INTERNAL;
    }
    fputs("<footer>Written by <code>ptosim report</code> from the files in this directory; the page loads "
          "nothing else.</footer>\n</body>\n</html>\n",
          r.f);
    rep_free(&r);
    if (outfile_commit(&of, err, errlen) != 0)
        return EXIT_INTERNAL;
    return EXIT_OK;
}

/* ------------------------------------------------------------------ */
/* `ptosim diff A B -o OUT`'s page                                      */
/* ------------------------------------------------------------------ */

static const char DIFF_CSS[] =
    "pre{font-size:12px;background:#f7f8fa;border:1px solid #e3e6ea;padding:6px 10px;"
    "overflow-x:auto}\n";

/* The page's folder: made when missing; one there may hold only an earlier page (diff.html, and the
 * temporary file of a write that was killed): the page is never mixed into a run's or someone's folder. */
static int diff_folder(const char *out, char *err, size_t errlen)
{
    struct stat st;
    if (userdir_stat(out, &st) != 0) {
        if (errno != ENOENT) {
            snprintf(err, errlen, "%s: %s", out, userdir_why(errno));
            return EXIT_USAGE;
        }
        return outfile_mkdirs(out, err, errlen) != 0 ? EXIT_INTERNAL : EXIT_OK;
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s: not a directory", out);
        return EXIT_USAGE;
    }
    DIR *dp = opendir(out);
    if (!dp) {
        snprintf(err, errlen, "%s: %s", out, strerror(errno));
        return EXIT_USAGE;
    }
    char other[NAME_MAX + 1] = ""; /* the first name (in byte order) that is not the page's */
    struct dirent *e;
    while ((e = readdir(dp)) != NULL) {
        const char *n = e->d_name;
        if (!strcmp(n, ".") || !strcmp(n, "..") || !strcmp(n, "diff.html") || !strcmp(n, "diff.html.tmp"))
            continue;
        if (!other[0] || strcmp(n, other) < 0)
            snprintf(other, sizeof(other), "%s", n);
    }
    closedir(dp);
    if (other[0]) {
        snprintf(err, errlen,
                 "%s: holds %s: -o takes a new or empty folder, or one holding only an earlier diff.html",
                 out, other);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

/* One run's swimlane on the page's time axis (span_us), or why it is not drawn. */
static void diff_swimlane(rep *r, const char *side, double span_us, const char *idp)
{
    FILE *f = r->f;
    rh_hp(f, "<h3>%s: %s (makespan %.3f µs)</h3>\n", side, r->dir, r->run.makespan_us);
    if (r->sl_rc != RD_OK)
        rh_hp(
            f,
            "<p class=\"note\" id=\"%snoswimlane\">%s has no <code>%schip_swimlane_records.json</code>: run "
            "with <code>--enable-chip-swimlane</code> to see its swimlane.</p>\n",
            idp, side, r->dfx_rel);
    else if (!r->sl.nex || !r->sl.ncores)
        rh_note(f, "Its swimlane holds no AICore executions (the run ended before any task ran).");
    else if (rh_swimlane_chart(r, span_us, idp) != 0)
        rh_note(f, "Out of memory drawing the swimlane.");
}

int htmlrep_diff_write(const rh_diff *d, const char *out, char *err, size_t errlen)
{
    int status = diff_folder(out, err, errlen);
    if (status != EXIT_OK)
        return status;
    rep r[2];
    memset(r, 0, sizeof(r));
    for (int k = 0; k < 2 && status == EXIT_OK; k++) {
        r[k].dir = d->dir[k];
        status = rep_load(&r[k], err, errlen);
    }
    char path[PATH_MAX + 64];
    if ((size_t)snprintf(path, sizeof(path), "%s/diff.html", out) >= sizeof(path) && status == EXIT_OK) {
        snprintf(err, errlen, "%.200s...: path too long", out);
        status = EXIT_USAGE;
    }
    outfile of;
    FILE *f = status == EXIT_OK ? outfile_open(&of, path, err, errlen) : NULL;
    if (!f) {
        rep_free(&r[0]);
        rep_free(&r[1]);
        return status == EXIT_OK ? EXIT_INTERNAL : status;
    }
    r[0].f = r[1].f = f;
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>ptosim diff: ", f);
    rh_hp(f, "%s vs %s</title>\n<style>\n", d->dir[0], d->dir[1]);
    fputs(CSS, f); /* constants */
    fputs(DIFF_CSS, f);
    fputs("</style>\n</head>\n<body>\n<h1>ptosim diff</h1>\n", f);
    rh_hp(f, "<p class=\"sub\">A: <code>%s</code> &nbsp; B: <code>%s</code></p>\n", d->dir[0], d->dir[1]);
    fputs("<nav><a href=\"#waterfall\">Where the change went</a><a href=\"#swimlanes\">Swimlanes</a>"
          "<a href=\"#inputs\">Inputs</a><a href=\"#kernels\">Kernels</a><a href=\"#rings\">Rings</a>"
          "<a href=\"#bound\">Bound</a></nav>\n<div class=\"cards\">\n",
          f);
    char v[64];
    for (int k = 0; k < 2; k++) {
        snprintf(v, sizeof(v), "%.3f µs", (double)d->makespan_ns[k] / 1000);
        rh_card(f, k ? "makespan B" : "makespan A", NULL, v, NULL);
    }
    int64_t dn = d->makespan_ns[1] - d->makespan_ns[0];
    snprintf(v, sizeof(v), "%+.3f µs", (double)dn / 1000);
    rh_card(f, "change", dn > 0 ? "bad" : dn < 0 ? "ok" : NULL, v, NULL);
    fputs("</div>\n", f);
    rh_diff_waterfall(f, d);
    double span = r[0].run.makespan_us > r[1].run.makespan_us ? r[0].run.makespan_us : r[1].run.makespan_us;
    fputs("<section id=\"swimlanes\">\n<h2>Swimlanes</h2>\n", f);
    rh_hp(
        f,
        "<p class=\"sub\">A above B, on one time axis from the launch to %.3f µs (the longer makespan), so a "
        "bar's place and length compare across the two.</p>\n",
        span);
    diff_swimlane(&r[0], "A", span, "a-");
    diff_swimlane(&r[1], "B", span, "b-");
    fputs("</section>\n", f);
    rh_diff_tables(f, d);
    fputs("<footer>Written by <code>ptosim diff -o</code> from the two run folders; the page loads nothing "
          "else.</footer>\n</body>\n</html>\n",
          f);
    rep_free(&r[0]);
    rep_free(&r[1]);
    if (outfile_commit(&of, err, errlen) != 0)
        return EXIT_INTERNAL;
    return EXIT_OK;
}

static void usage(FILE *out)
{
    fputs(
        "usage: ptosim report DIR [-o OUT]\n"
        "\n"
        "Writes DIR/report.html: one self-contained page (inline SVG and CSS; no script, nothing\n"
        "fetched) of a run written by `ptosim run GRAPH -o DIR`, of a sweep (DIR/sweep.csv), or of a\n"
        "capture of the real runtime (its dfx_outputs/ files in DIR or DIR/dfx_outputs, no ptosim_run.json):\n"
        "  summary   makespan, outcome, busy fraction per core type, bottleneck (ptosim_run.json)\n"
        "  args dump with --dump-args: bytes produced and drained, parks per thread, the kill\n"
        "  swimlane  executions per core with the dependency-critical path in red\n"
        "            (dfx_outputs/chip_swimlane_records.json, dfx_outputs/deps.json)\n"
        "  rings     ring peaks against capacity, occupancy over simulated time (ptosim_run.json),\n"
        "            samples per ring (dfx_outputs/scope_stats/scope_stats.jsonl)\n"
        "  pipes     pipe busy fraction per kernel (ptosim_run.json kernels, dfx_outputs/pmu.csv)\n"
        "  sweep     makespan and the orchestrator's blocked time per ring against each swept knob,\n"
        "            the thread count included (sweep.csv: the columns of --summary-csv)\n"
        "\n"
        "A missing optional file gives a note in the page. Above 10000 executions the swimlane\n"
        "shades each core's busy share of 1000 time columns instead of drawing every execution.\n"
        "Same directory, same page, byte for byte. Without -o the page goes into DIR only when\n"
        "ptosim wrote DIR (a run's ptosim_run.json, a sweep's points.csv and sweep.cmd); a capture or\n"
        "any other folder needs -o OUT, so a folder someone sent is never written into.\n"
        "\n"
        "A capture's page shows what its files say: makespan (first start to last end), executions,\n"
        "busy fraction per core type, the overhead model and the critical_path tool, the swimlane,\n"
        "ring occupancy sampled by scope stats against the header's capacities, and pmu.csv.\n"
        "\n"
        "options:\n",
        out);
    opt_help(&htmlrep_options, out);
    fputs("\n"
          "exit status: 0 written; 1 I/O error; 2 bad command line, DIR holds no ptosim_run.json,\n"
          "sweep.csv or capture file, or no -o for a folder ptosim did not write; 3 a malformed input\n"
          "(the message names file and field)\n",
          out);
}

/* report's words: the first, and how many (the first decides what is wrong, after them all); -o OUT */
typedef struct report_words {
    const char *first;
    int n;
    const char *out;
} report_words;

static int report_word(const char *word, void *dest, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    report_words *w = dest;
    if (w->n++ == 0)
        w->first = word;
    return 0;
}

static const opt_def REPORT_OPTS[] = {
    {.name = "work-dir",
     .letter = 'o',
     .arg = OPT_VALUE,
     .kind = OPT_KIND_DIR,
     .meta = "OUT",
     .help = "write OUT/report.html (made when missing) instead of DIR/report.html;\n"
             "needed when ptosim did not write DIR (a capture, a folder sent)",
     .store = opt_store_text,
     .off = offsetof(report_words, out),
     .missing = "%s: missing value (the folder the page goes into)"},
};

/* report has -o OUT and -h/--help, which it takes anywhere; every other word, an unknown option too, is
 * counted by report_word */
const opt_table htmlrep_options = {
    .cmd = "report",
    .opts = REPORT_OPTS,
    .nopts = OPT_COUNT(REPORT_OPTS),
    .operand_kind = OPT_KIND_DIR,
    .operand = report_word,
    .help_anywhere = true,
};

int htmlrep_main(int argc, char **argv)
{
    report_words w = {NULL, 0, NULL};
    char err[RD_ERR_MAX + PATH_MAX];
    /* 0, or 1 for the help: report_word takes every other word */
    if (opt_parse(&htmlrep_options, argc, argv, &w, NULL, NULL, err, sizeof(err)) == 1) {
        usage(stdout);
        return EXIT_OK;
    }
    if (w.n != 1 || w.first[0] == '-') {
        msgtext_print(stderr, "ptosim report: %s",
                !w.n                 ? "missing DIR"
                : w.first[0] == '-' ? "unknown option"
                                    : "one DIR at a time");
        return EXIT_USAGE;
    }
    char dir[PATH_MAX];
    snprintf(dir, sizeof(dir), "%s", w.first);
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        dir[--n] = '\0';
    userdir_add(dir); /* named: nothing below it is read or written through a link */
    char out[PATH_MAX];
    if (w.out) {
        snprintf(out, sizeof(out), "%s", w.out);
        for (n = strlen(out); n > 1 && out[n - 1] == '/';)
            out[--n] = '\0';
        userdir_add(out);
    }
    int status = htmlrep_write(dir, w.out ? out : NULL, err, sizeof(err));
    if (status != EXIT_OK) {
        msgtext_print(stderr, "ptosim report: %s", err);
        return status;
    }
    printf("ptosim report: wrote %s/report.html\n", w.out ? out : dir);
    return EXIT_OK;
}
