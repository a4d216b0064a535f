/* report_html_overhead.c - rh_: the report page's scheduler-overhead section. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../../model/analysis/overhead_model.h"
#include "report_html_draw.h"
#include "report_html_overhead.h"

/* ------------------------------------------------------------------ */
/* Scheduler overhead                                                  */
/* ------------------------------------------------------------------ */

/* Per-engine, all and has overhead as horizontal bars (% of the makespan). */
static void overhead_svg(FILE *f, const rd_overhead *oh)
{
    const int x0 = 48, bw = 420;
    typedef struct {
        const char *name, *fill;
        double pct;
    } bar;
    bar row[4];
    int n = 0;
    if (oh->eng[0].present)
        row[n++] = (bar){"AIC", COL_AIC, oh->eng[0].overhead_pct};
    if (oh->eng[1].present)
        row[n++] = (bar){"AIV", COL_AIV, oh->eng[1].overhead_pct};
    row[n++] = (bar){"all", "#7f7f7f", oh->all_pct};
    row[n++] = (bar){"has", COL_CP, oh->has_pct};
    int h = 8 + 26 * n;
    rh_hp(f,
          "<svg id=\"overhead-chart\" width=\"560\" height=\"%d\" viewBox=\"0 0 560 %d\" role=\"img\" "
          "aria-label=\"scheduler overhead, share of the makespan\">\n",
          h, h);
    for (int i = 0; i < n; i++) {
        double v = row[i].pct < 0 ? 0 : row[i].pct > 100 ? 100 : row[i].pct;
        int y = 8 + i * 26;
        rh_hp(f,
              "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text><rect x=\"%d\" y=\"%d\" width=\"%d\" "
              "height=\"16\" fill=\"#eef0f3\"/><rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"16\" "
              "fill=\"%s\"/><text x=\"%.1f\" y=\"%d\">%.1f%%</text>\n",
              x0 - 8, y + 12, row[i].name, x0, y, bw, x0, y, v / 100 * bw, row[i].fill, x0 + bw + 8.0, y + 12,
              row[i].pct);
    }
    fputs("</svg>\n", f);
}

void rh_section_overhead(rep *r)
{
    FILE *f = r->f;
    const rd_overhead *oh = &r->run.oh;
    char v[128], d[512];
    fputs("<section id=\"overhead\">\n<h2>Scheduler overhead</h2>\n", f);
    if (r->capture && !oh->given) {
        rh_hp(f, "<p class=\"note\">No overhead model or critical-path tool for this capture: %s.</p>\n",
              r->cap_no_oh ? r->cap_no_oh : "");
        fputs("</section>\n", f);
        return;
    }
    if (r->capture && r->cap_unmatched)
        rh_hp(
            f,
            "<p class=\"note\">%zu aicpu_tasks row%s of the swimlane ha%s no aicore_tasks row and %s left out, "
            "as the runtime's reader does.</p>\n",
            r->cap_unmatched, r->cap_unmatched == 1 ? "" : "s", r->cap_unmatched == 1 ? "s" : "ve",
            r->cap_unmatched == 1 ? "is" : "are");
    if (!oh->given) {
        rh_note(
            f, "This <code>ptosim_run.json</code> has no <code>overhead</code>: it was written before ptosim "
               "computed the scheduler-overhead model; run the graph again.");
        fputs("</section>\n", f);
        return;
    }
    if (!oh->computed) {
        snprintf(d, sizeof(d),
                 "Not computed: the model keeps every execution and edge, and stops past %.0f executions or "
                 "tasks.",
                 oh->limit);
        rh_note_text(f, d);
        fputs("</section>\n", f);
        return;
    }
    if (rh_dump_bound(&r->run)) {
        snprintf(
            d, sizeof(d),
            "The args dump froze the scheduler threads for %.1f%% of this run (Args dump above): the model "
            "sees idle cores and ready tasks, so it counts that freeze as scheduler overhead, and its tail "
            "and wait gaps are the parks.",
            100 * r->run.dump.frozen_us / r->run.makespan_us);
        rh_note_text(f, d);
    } else if (!r->capture && strcmp(r->run.status, "ok") != 0) {
        snprintf(d, sizeof(d),
                 "The run did not finish: the model covers the %" PRIu64 " execution%s that ran.",
                 r->run.executions, r->run.executions == 1 ? "" : "s");
        rh_note_text(f, d);
    }
    fputs("<p class=\"sub\">The runtime's model (hw-native-sys/simpler docs/dfx/sched-overhead-model.md): an "
          "engine is overhead while one of its cores is idle and a task of its type is ready (its producers "
          "ended) but not dispatched; a MIX task counts for both engines. <i>all</i>: every engine is "
          "overhead; "
          "<i>has</i>: every engine with ready work is.</p>\n<div class=\"cards\">\n",
          f);
    static const char *const TY[2] = {"AIC", "AIV"};
    for (int ty = 0; ty < 2; ty++)
        if (oh->eng[ty].present) {
            char k[32];
            snprintf(k, sizeof(k), "%s overhead", TY[ty]);
            snprintf(v, sizeof(v), "%.1f%%", oh->eng[ty].overhead_pct);
            rh_card(f, k, NULL, v, NULL);
        }
    snprintf(v, sizeof(v), "%.1f%%", oh->all_pct);
    rh_card(f, "all", NULL, v, "every engine blocked");
    snprintf(v, sizeof(v), "%.1f%%", oh->has_pct);
    rh_card(f, "has", NULL, v, oh->verdict[0] ? oh->verdict : NULL);
    if (oh->cp_span_us > 0) {
        snprintf(v, sizeof(v), "%.1f%% scheduler", 100 * oh->cp_sched_us / oh->cp_span_us);
        char span[32];
        rh_fmt_time(span, sizeof(span), oh->cp_span_us);
        snprintf(d, sizeof(d), "of the %s critical path (%.0f hops); compute %.1f%%%s%s", span, oh->cp_hops,
                 100 * oh->cp_compute_us / oh->cp_span_us,
                 ohm_cp_over_100(oh->cp_span_us, oh->cp_sched_us) ? "; " : "",
                 ohm_cp_over_100(oh->cp_span_us, oh->cp_sched_us) ? OHM_CP_OVER_100 : "");
        rh_card(f, "critical path", NULL, v, d);
    }
    fputs("</div>\n<h3>Share of the makespan</h3>\n", f);
    overhead_svg(f, oh);
    fputs("<h3>AICore switch (per core)</h3>\n<table id=\"switch-table\"><tr><th class=\"l\">engine</th>"
          "<th>cores</th><th>min/core µs</th><th>mean/core µs</th><th>max/core µs</th><th>switches</th>"
          "<th>µs/switch</th><th>during overhead</th></tr>\n",
          f);
    for (int ty = 0; ty < 2; ty++) {
        const rd_switch *e = &oh->eng[ty];
        if (!e->present)
            continue;
        double tot = e->during_us + e->indep_us;
        rh_hp(f,
              "<tr><td class=\"l\">%s</td><td>%" PRIu64
              "</td><td>%.3f</td><td>%.3f</td><td>%.3f</td><td>%" PRIu64 "</td><td>%.3f</td>",
              TY[ty], e->cores, e->min_us, e->mean_us, e->max_us, e->events, e->us_per_event);
        if (tot > 0)
            rh_hp(f, "<td>%.0f%%</td></tr>\n", 100 * e->during_us / tot);
        else
            fputs("<td>–</td></tr>\n", f);
    }
    fputs("</table>\n<h3>Distributions (µs)</h3>\n<table id=\"gap-table\"><tr><th class=\"l\">what</th>"
          "<th>n</th><th>P50</th><th>P90</th><th>P99</th><th>max</th><th>mean</th></tr>\n",
          f);
    static const char *const DN[RD_DISTS] = {"head: start − max(dispatch, previous end)",
                                             "tail: finish − end",
                                             "switch (steady): start − previous end",
                                             "… previous tail: receive − previous end",
                                             "… setup: start − receive",
                                             "first switch of a core",
                                             "wait gap (dispatched after the previous end)"};
    for (int i = 0; i < RD_DISTS; i++) {
        const rd_dist *x = &oh->dist[i];
        rh_hp(f,
              "<tr><td class=\"l\">%s</td><td>%" PRIu64
              "</td><td>%.3f</td><td>%.3f</td><td>%.3f</td><td>%.3f</td><td>%.3f</td></tr>\n",
              DN[i], x->n, x->p50, x->p90, x->p99, x->max, x->mean);
    }
    fputs("</table>\n", f);
    if (oh->cp_span_us > 0) {
        rh_hp(
            f,
            "<p id=\"oh-cp\">Critical path (each task's producer that ended last): %.3f µs of compute, %.3f "
            "µs "
            "injected by the scheduler (producer end to consumer start, and the first task's dispatch to "
            "start), %.3f µs other.</p>\n",
            oh->cp_compute_us, oh->cp_sched_us, oh->cp_other_us);
    }
    if (oh->tool) {
        rh_hp(
            f,
            "<h3>The runtime's critical_path tool</h3>\n<p class=\"sub\">simpler_setup/tools/critical_path.py: "
            "a static CPM over the happens-before edges (a producer ended before its consumer started), and the "
            "observed path walked back from the last task to end, each gap blamed.</p>\n<table "
            "id=\"cp-tool\"><tr><th class=\"l\">what</th><th>value</th></tr>\n"
            "<tr><td class=\"l\">tasks with an execution</td><td>%.0f</td></tr>\n"
            "<tr><td class=\"l\">happens-before edges</td><td>%.0f</td></tr>\n"
            "<tr><td class=\"l\">makespan (first start to last end)</td><td>%.3f µs</td></tr>\n"
            "<tr><td class=\"l\">static CPM</td><td>%.3f µs, %.0f tasks</td></tr>\n"
            "<tr><td class=\"l\">observed path</td><td>%.0f tasks</td></tr>\n"
            "<tr><td class=\"l\">… compute</td><td>%.3f µs</td></tr>\n"
            "<tr><td class=\"l\">… stall</td><td>%.3f µs</td></tr>\n"
            "<tr><td class=\"l\">… … data-wait</td><td>%.3f µs</td></tr>\n"
            "<tr><td class=\"l\">… … core-wait</td><td>%.3f µs</td></tr>\n"
            "<tr><td class=\"l\">… … front-gap</td><td>%.3f µs</td></tr>\n</table>\n",
            oh->tool_tasks, oh->tool_hb_edges, oh->tool_makespan_us, oh->tool_cpm_us, oh->tool_cpm_tasks,
            oh->tool_observed_tasks, oh->tool_compute_us, oh->tool_stall_us, oh->tool_wait_us[0],
            oh->tool_wait_us[1], oh->tool_wait_us[2]);
    }
    fputs("</section>\n", f);
}
