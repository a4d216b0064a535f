/* report_html_sweep.c - rh_: the report page's sweep section: a chart per swept knob, the runs' table. */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../model/runtime/runtime_error.h"
#include "report_html_draw.h"
#include "report_html_sweep.h"

/* ------------------------------------------------------------------ */
/* Sweep                                                               */
/* ------------------------------------------------------------------ */

static const char *const GROUP_COL[] = {"#3b78c2", "#d62728", "#2e9e4f", "#8e5cc2",
                                        "#f08a24", "#17becf", "#8c564b", "#7f7f7f"};
#define NGROUP_COL (sizeof(GROUP_COL) / sizeof(GROUP_COL[0]))

static void knob_value_label(char *b, size_t n, const rd_sweep *sw, const rd_knob *k, uint64_t v)
{
    if (RD_KNOB_IS_EXTRA(k))
        snprintf(b, n, "%s", sw->extra_val[k->column - RD_KNOB_COLUMNS][v]);
    else if (k->column == RD_KNOB_HEAP)
        rh_fmt_bytes(b, n, (double)v);
    else
        snprintf(b, n, "%" PRIu64, v);
}

static void row_status(char *b, size_t n, const rd_row *row)
{
    if (strcmp(row->status, "runtime_error") == 0)
        snprintf(b, n, "runtime error %d %s", row->code, rterr_name(row->code));
    else
        snprintf(b, n, "%s (exit %d)", row->status, row->exit);
}

/* x ticks at the values swept (each once over the groups), skipping labels that would touch the previous
 * one, and the axis title. */
static void sweep_x_axis(FILE *f, const rd_sweep *sw, const rd_knob *k, rd_point *const *pts, const int *np,
                         const axis *ax, int plot_top)
{
    double last_x = -1e9;
    for (int g = 0; g < sw->ngroups; g++)
        for (int i = 0; i < np[g]; i++) {
            bool dup = false;
            for (int h = 0; h < g && !dup; h++)
                for (int j = 0; j < np[h]; j++)
                    dup |= pts[h][j].x == pts[g][i].x;
            if (dup)
                continue;
            double x = rh_ax_px(ax, (double)pts[g][i].x);
            char lab[RD_VALUE_MAX];
            knob_value_label(lab, sizeof(lab), sw, k, pts[g][i].x);
            rh_hp(f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>", x, plot_top, x,
                  CH_TOP + CH_PLOT_H + 4);
            if (x - last_x >= 7.0 * (double)strlen(lab) + 6) {
                rh_hp(f, "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>", x,
                      CH_TOP + CH_PLOT_H + 16, lab);
                last_x = x;
            }
            fputc('\n', f);
        }
    rh_hp(f, "<text class=\"title\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">", CH_LEFT + CH_PLOT_W / 2,
          CH_TOP + CH_PLOT_H + 36);
    rh_esc(f, k->label);
    rh_hp(f, "%s</text>\n", ax->log ? " (log2 scale)" : "");
    rh_hp(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", CH_LEFT, CH_TOP + CH_PLOT_H,
          CH_LEFT + CH_PLOT_W, CH_TOP + CH_PLOT_H);
}

/* Beside the makespan: the orchestrator's blocked time per ring of each point's row (the row of least
 * makespan), on the same x axis; a line per ring that waited at some point, dashed for later groups.
 * Returns the rings drawn (bit r = ring r). */
static unsigned sweep_blocked_svg(FILE *f, const rd_sweep *sw, const rd_knob *k, rd_point *const *pts,
                                  const int *np, const axis *ax)
{
    unsigned rings = 0;
    double ymax = 0;
    for (int g = 0; g < sw->ngroups; g++)
        for (int i = 0; i < np[g]; i++)
            for (int q = 0; pts[g][i].best && q < RD_RINGS; q++)
                if (pts[g][i].best->blocked[q] > 0) {
                    rings |= 1u << q;
                    ymax = pts[g][i].best->blocked[q] > ymax ? pts[g][i].best->blocked[q] : ymax;
                }
    if (!rings)
        return 0;
    double step = rh_nice_step(ymax * 1.05, 5), top = ceil(ymax * 1.05 / step) * step;
    axis ay = {0, top, CH_TOP + CH_PLOT_H, CH_TOP, false};
    rh_hp(f,
          "<svg class=\"blocked-chart\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
          "aria-label=\"orchestrator blocked per ring against %s\">\n",
          CH_W, CH_H, CH_W, CH_H, k->label);
    rh_y_ticks(f, &ay, step, CH_LEFT, CH_LEFT + CH_PLOT_W, 'n');
    rh_hp(f,
          "<text class=\"title\" transform=\"translate(14 %d) rotate(-90)\" text-anchor=\"middle\">blocked "
          "(µs)</text>\n",
          CH_TOP + CH_PLOT_H / 2);
    sweep_x_axis(f, sw, k, pts, np, ax, CH_TOP);
    for (int g = 0; g < sw->ngroups; g++)
        for (int q = 0; q < RD_RINGS; q++) {
            if (!(rings >> q & 1))
                continue;
            rh_hp(f, "<polyline class=\"blocked\" data-group=\"%d\" data-ring=\"%d\" stroke=\"%s\"", g, q,
                  RING_COL[q]);
            fputs(g ? " stroke-dasharray=\"5 3\" data-points=\"" : " data-points=\"", f);
            for (int i = 0, n = 0; i < np[g]; i++)
                if (pts[g][i].best)
                    rh_hp(f, "%s%" PRIu64 ":%.3f", n++ ? " " : "", pts[g][i].x, pts[g][i].best->blocked[q]);
            fputs("\" points=\"", f);
            for (int i = 0, n = 0; i < np[g]; i++)
                if (pts[g][i].best)
                    rh_hp(f, "%s%.1f,%.1f", n++ ? " " : "", rh_ax_px(ax, (double)pts[g][i].x),
                          rh_ax_px(&ay, pts[g][i].best->blocked[q]));
            fputs("\"/>\n", f);
            for (int i = 0; i < np[g]; i++) {
                const rd_point *p = &pts[g][i];
                if (!p->best)
                    continue;
                char lab[RD_VALUE_MAX];
                knob_value_label(lab, sizeof(lab), sw, k, p->x);
                rh_hp(
                    f,
                    "<circle class=\"pt\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"><title>ring %d at %s: "
                    "blocked %.3f µs (line %d)</title></circle>\n",
                    rh_ax_px(ax, (double)p->x), rh_ax_px(&ay, p->best->blocked[q]), RING_COL[q], q, lab,
                    p->best->blocked[q], p->best->line);
            }
        }
    fputs("</svg>\n", f);
    return rings;
}

/* Where a row's orchestrator waited: the resources with blocked time, largest first as listed. */
static void blocked_on(char *b, size_t n, const rd_row *row)
{
    static const char *const RES[RD_RES_COUNT] = {"task window", "heap", "dep pool", "tensormap"};
    size_t m = 0;
    b[0] = '\0';
    for (int k = 0; k < RD_RES_COUNT && m < n; k++)
        if (row->blocked_res[k] > 0)
            m += (size_t)snprintf(b + m, n - m, "%s%s %.3f", m ? ", " : "", RES[k], row->blocked_res[k]);
    if (!b[0])
        snprintf(b, n, "-");
}

/* One chart per knob: the least makespan at each value (over the other knobs' values), per group; beside
 * it the orchestrator's blocked time per ring of the rows those points come from. */
static int sweep_chart(rep *r, const rd_knob *k, int ki, int nknobs)
{
    FILE *f = r->f;
    const rd_sweep *sw = &r->sw;
    rd_point **pts = calloc((size_t)sw->ngroups, sizeof(*pts));
    int *np = calloc((size_t)sw->ngroups, sizeof(*np));
    if (!pts || !np) {
        free(pts);
        free(np);
        return -1;
    }
    int rc = 0;
    double ymin = INFINITY, ymax = 0;
    uint64_t xlo = UINT64_MAX, xhi = 0;
    bool any_fail = false;
    const rd_point *best = NULL; /* the ok point of least makespan over the groups (the first of equals) */
    int best_g = -1;
    for (int g = 0; g < sw->ngroups; g++) {
        np[g] = rd_sweep_curve(sw, k, g, &pts[g]);
        if (np[g] < 0) {
            rc = -1;
            goto out;
        }
        for (int i = 0; i < np[g]; i++) {
            const rd_point *p = &pts[g][i];
            if (p->nok) {
                /* with --repeat the band around the mean must fit too */
                double sd = sw->has_repeat ? p->best->sigma_us : 0;
                ymax = p->makespan_us + sd > ymax ? p->makespan_us + sd : ymax;
                ymin = p->makespan_us - sd < ymin ? p->makespan_us - sd : ymin;
                if (!best || p->makespan_us < best->makespan_us) {
                    best = p;
                    best_g = g;
                }
            }
            any_fail |= !p->nok;
            xlo = p->x < xlo ? p->x : xlo;
            xhi = p->x > xhi ? p->x : xhi;
        }
    }
    bool log = !RD_KNOB_IS_EXTRA(k) && xlo > 0 && xhi >= 4 * xlo;
    /* y from 0, unless every point sits within a quarter of the largest: then a range around the data, so
     * a spread of a few percent shows, and a note says where the axis starts */
    double ylo = 0, step, top;
    bool zoom = best && ymin > 0 && ymax - ymin < 0.25 * ymax;
    if (zoom) {
        double span = ymax - ymin > 0 ? ymax - ymin : 0.02 * ymax, pad = 0.15 * span;
        step = rh_nice_step(span + 2 * pad, 5);
        ylo = floor((ymin - pad) / step) * step;
        top = ceil((ymax + pad) / step) * step;
        if (ylo < 0)
            ylo = 0;
    } else {
        step = rh_nice_step(ymax > 0 ? ymax * 1.05 : 1, 5);
        top = ceil((ymax > 0 ? ymax * 1.05 : 1) / step) * step;
    }
    int plot_top = CH_TOP + (any_fail ? 14 : 0);
    axis ax = {log ? log2((double)xlo) : (double)xlo, log ? log2((double)xhi) : (double)xhi, CH_LEFT + 14,
               CH_LEFT + CH_PLOT_W - 14, log};
    if (xlo == xhi) {
        ax.lo -= 1;
        ax.hi += 1;
    }
    axis ay = {ylo, top, CH_TOP + CH_PLOT_H, plot_top, false};
    rh_hp(f, "<figure class=\"sweep-fig\" id=\"sweep-knob-%d\"><figcaption>makespan", ki);
    if (sw->has_repeat)
        fputs(" (mean over seeds)", f);
    if (sw->has_blocked)
        fputs(" and orchestrator blocked time", f);
    fputs(" against ", f);
    rh_esc(f, k->label);
    fputs("</figcaption>\n<div class=\"pair\">\n", f);
    rh_hp(f,
          "<svg class=\"sweep-chart\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
          "aria-label=\"makespan against %s\" data-y-range=\"%.6g %.6g\">\n",
          CH_W, CH_H, CH_W, CH_H, k->label, ylo, top);
    rh_y_ticks(f, &ay, step, CH_LEFT, CH_LEFT + CH_PLOT_W, 'n');
    rh_hp(f,
          "<text class=\"title\" transform=\"translate(14 %d) rotate(-90)\" text-anchor=\"middle\">makespan "
          "(µs)</text>\n",
          CH_TOP + CH_PLOT_H / 2);
    if (zoom) {
        char from[32];
        rh_fmt_num(from, sizeof(from), ylo, rh_step_decimals(step));
        rh_hp(
            f,
            "<path class=\"axis-break\" d=\"M%d %dl6 -3m-6 7l6 -3\" stroke=\"#555\"/><text class=\"baseline-note\" "
            "x=\"%d\" y=\"%d\" fill=\"#555\">y axis from %s µs, not 0: the points lie within %.1f%% of each "
            "other</text>\n",
            CH_LEFT - 3, CH_TOP + CH_PLOT_H - 2, CH_LEFT + 4, CH_TOP + CH_PLOT_H - 4, from,
            100 * (ymax - ymin) / ymax);
    }
    sweep_x_axis(f, sw, k, pts, np, &ax, plot_top);
    for (int g = 0; g < sw->ngroups && sw->has_repeat; g++) { /* the noise: mean ± one standard deviation */
        const char *col = GROUP_COL[(size_t)g % NGROUP_COL];
        rh_hp(f,
              "<polygon class=\"noise\" data-group=\"%d\" fill=\"%s\" fill-opacity=\"0.18\" stroke=\"none\" "
              "points=\"",
              g, col);
        int n = 0;
        for (int i = 0; i < np[g]; i++)
            if (pts[g][i].nok)
                rh_hp(f, "%s%.1f,%.1f", n++ ? " " : "", rh_ax_px(&ax, (double)pts[g][i].x),
                      rh_ax_px(&ay, pts[g][i].makespan_us + pts[g][i].best->sigma_us));
        for (int i = np[g] - 1; i >= 0; i--)
            if (pts[g][i].nok) {
                double lo = pts[g][i].makespan_us - pts[g][i].best->sigma_us;
                rh_hp(f, " %.1f,%.1f", rh_ax_px(&ax, (double)pts[g][i].x),
                      rh_ax_px(&ay, lo > ylo ? lo : ylo));
            }
        fputs("\"/>\n", f);
    }
    for (int g = 0; g < sw->ngroups; g++) {
        const char *col = GROUP_COL[(size_t)g % NGROUP_COL];
        rh_hp(f, "<polyline class=\"curve\" data-group=\"%d\" stroke=\"%s\" data-points=\"", g, col);
        for (int i = 0, n = 0; i < np[g]; i++)
            if (pts[g][i].nok)
                rh_hp(f, "%s%" PRIu64 ":%.3f", n++ ? " " : "", pts[g][i].x, pts[g][i].makespan_us);
        fputs("\" points=\"", f);
        for (int i = 0, n = 0; i < np[g]; i++)
            if (pts[g][i].nok)
                rh_hp(f, "%s%.1f,%.1f", n++ ? " " : "", rh_ax_px(&ax, (double)pts[g][i].x),
                      rh_ax_px(&ay, pts[g][i].makespan_us));
        fputs("\"/>\n", f);
        for (int i = 0; i < np[g]; i++) {
            const rd_point *p = &pts[g][i];
            char lab[RD_VALUE_MAX], st[RD_NAME_MAX + 64];
            knob_value_label(lab, sizeof(lab), sw, k, p->x);
            double x = rh_ax_px(&ax, (double)p->x);
            if (p->nok && sw->has_repeat) {
                rh_hp(
                    f,
                    "<circle class=\"pt\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"><title>%s: mean %.3f µs, "
                    "sigma %.3f over %d runs (best of %d ok of %d rows)</title></circle>\n",
                    x, rh_ax_px(&ay, p->makespan_us), col, lab, p->makespan_us, p->best->sigma_us,
                    p->best->runs, p->nok, p->nrows);
            } else if (p->nok) {
                rh_hp(f,
                      "<circle class=\"pt\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"><title>%s: %.3f µs "
                      "(best of %d ok of %d rows)</title></circle>\n",
                      x, rh_ax_px(&ay, p->makespan_us), col, lab, p->makespan_us, p->nok, p->nrows);
            } else {
                row_status(st, sizeof(st), p->fail);
                rh_hp(f,
                      "<path class=\"fail\" d=\"M%.1f %dl8 8m0 -8l-8 8\"><title>%s: every row failed, first: "
                      "line %d, %s</title></path>\n",
                      x - 4, CH_TOP + 2, lab, p->fail->line, st);
            }
        }
    }
    if (best) {
        char lab[RD_VALUE_MAX];
        knob_value_label(lab, sizeof(lab), sw, k, best->x);
        double x = rh_ax_px(&ax, (double)best->x), y = rh_ax_px(&ay, best->makespan_us);
        rh_hp(f,
              "<circle class=\"best\" data-group=\"%d\" cx=\"%.1f\" cy=\"%.1f\" r=\"8\" fill=\"none\" "
              "stroke=\"#111\" stroke-width=\"2\"><title>best: %s, %.3f µs (line %d)</title></circle><text "
              "class=\"best-label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#111\">best</text>\n",
              best_g, x, y, lab, best->makespan_us, best->best->line, x, y > CH_TOP + 30 ? y - 12 : y + 20);
    }
    fputs("</svg>\n", f);
    unsigned rings = sw->has_blocked ? sweep_blocked_svg(f, sw, k, pts, np, &ax) : 0;
    fputs("</div>\n", f);
    /* legend and the points as a table */
    fputs("<ul class=\"legend\">", f);
    if (sw->ngroups > 1)
        for (int g = 0; g < sw->ngroups; g++) {
            rh_hp(f, "<li><span class=\"sw\" style=\"background:%s\"></span>",
                  GROUP_COL[(size_t)g % NGROUP_COL]);
            rh_esc(f, sw->groups[g][0]);
            fputs(" on ", f);
            rh_esc(f, sw->groups[g][1]);
            rh_hp(f, "%s</li>", sw->ngroups > 1 && g ? " (its blocked lines dashed)" : "");
        }
    for (int q = 0; q < RD_RINGS; q++)
        if (rings >> q & 1)
            rh_hp(f, "<li><span class=\"sw\" style=\"background:%s\"></span>blocked on ring %d</li>",
                  RING_COL[q], q);
    if (sw->has_blocked && !rings)
        fputs("<li>the orchestrator waited on no ring at any point: no blocked-time chart</li>", f);
    if (nknobs > 1)
        fputs(
            "<li>each point: the ok row of least makespan at that value, whatever the other knobs (of equal "
            "makespans, the least blocked)</li>",
            f);
    if (any_fail)
        fputs("<li><b style=\"color:" COL_CP
              "\">&#x2715;</b> at the top: every row at that value failed</li>",
              f);
    if (best)
        fputs("<li>&#x25CB; best: the point of least makespan</li>", f);
    if (sw->has_repeat)
        fputs("<li>shaded: the noise, the mean &#xB1; one standard deviation over the point's seeds "
              "(--repeat)</li>",
              f);
    fputs("</ul>\n<table class=\"curve-table\"><tr>", f);
    if (sw->ngroups > 1)
        fputs("<th class=\"l\">graph on platform</th>", f);
    fputs(sw->has_repeat
              ? "<th>value</th><th>makespan mean (µs)</th><th>sigma (µs)</th><th>runs</th><th>rows ok / "
                "all</th>"
              : "<th>value</th><th>makespan (µs)</th><th>rows ok / all</th>",
          f);
    if (sw->has_blocked)
        fputs("<th>blocked per ring (µs)</th>", f);
    if (sw->has_blocked_res)
        fputs("<th class=\"l\">waiting for (µs)</th>", f);
    fputs("<th>line</th><th class=\"l\">failure</th></tr>\n", f);
    for (int g = 0; g < sw->ngroups; g++)
        for (int i = 0; i < np[g]; i++) {
            const rd_point *p = &pts[g][i];
            char lab[RD_VALUE_MAX], st[RD_NAME_MAX + 64] = "";
            knob_value_label(lab, sizeof(lab), sw, k, p->x);
            fputs("<tr>", f);
            if (sw->ngroups > 1) {
                fputs("<td class=\"l\">", f);
                rh_esc(f, sw->groups[g][0]);
                fputs(" on ", f);
                rh_esc(f, sw->groups[g][1]);
                fputs("</td>", f);
            }
            if (p->fail)
                row_status(st, sizeof(st), p->fail);
            rh_hp(f, "<td>%s</td>", lab);
            if (p->nok && sw->has_repeat)
                rh_hp(f, "<td>%.3f</td><td>%.3f</td><td>%d</td><td>%d / %d</td>", p->makespan_us,
                      p->best->sigma_us, p->best->runs, p->nok, p->nrows);
            else if (p->nok)
                rh_hp(f, "<td>%.3f</td><td>%d / %d</td>", p->makespan_us, p->nok, p->nrows);
            else
                rh_hp(f,
                      sw->has_repeat ? "<td>-</td><td>-</td><td>-</td><td>0 / %d</td>"
                                     : "<td>-</td><td>0 / %d</td>",
                      p->nrows);
            if (sw->has_blocked) {
                if (p->best)
                    rh_hp(f, "<td>%.3f / %.3f / %.3f / %.3f</td>", p->best->blocked[0], p->best->blocked[1],
                          p->best->blocked[2], p->best->blocked[3]);
                else
                    fputs("<td>-</td>", f);
            }
            if (sw->has_blocked_res) {
                char on[160] = "-";
                if (p->best)
                    blocked_on(on, sizeof(on), p->best);
                rh_hp(f, "<td class=\"l\">%s</td>", on);
            }
            rh_hp(f, "<td>%d</td><td class=\"l\">%s%s</td></tr>\n", p->best ? p->best->line : p->fail->line,
                  p->nok && p->fail ? "others: first " : "", st);
        }
    fputs("</table></figure>\n", f);
out:
    for (int g = 0; g < sw->ngroups; g++)
        free(pts[g]);
    free(pts);
    free(np);
    return rc;
}

static void rings_cell(FILE *f, const uint64_t v[RD_RINGS], bool bytes)
{
    char b[4][32];
    for (int i = 0; i < RD_RINGS; i++) {
        if (bytes)
            rh_fmt_bytes(b[i], sizeof(b[i]), (double)v[i]);
        else
            snprintf(b[i], sizeof(b[i]), "%" PRIu64, v[i]);
    }
    if (v[0] == v[1] && v[1] == v[2] && v[2] == v[3])
        rh_hp(f, "<td>%s</td>", b[0]);
    else
        rh_hp(f, "<td>%s / %s / %s / %s</td>", b[0], b[1], b[2], b[3]);
}

int rh_section_sweep(rep *r)
{
    FILE *f = r->f;
    const rd_sweep *sw = &r->sw;
    fputs("<section id=\"sweep\">\n<h2>Sweep</h2>\n", f);
    rh_hp(f, "<p class=\"sub\">%zu configuration points from sweep.csv", sw->nrows);
    if (sw->ngroups == 1) {
        fputs(" (", f);
        rh_esc(f, sw->groups[0][0]);
        fputs(" on ", f);
        rh_esc(f, sw->groups[0][1]);
        fputs(")", f);
    } else if (sw->ngroups > 1) {
        rh_hp(f, " over %d graph and platform pairs (a curve each)", sw->ngroups);
    }
    fputs(".</p>\n", f);
    rd_knob knobs[RD_KNOB_COLUMNS * RD_RINGS + RD_MAX_EXTRA];
    int nk = rd_sweep_knobs(sw, knobs, (int)(sizeof(knobs) / sizeof(knobs[0])));
    if (!sw->nrows)
        rh_note(f, "sweep.csv has a header and no rows: nothing to plot.");
    else if (!nk)
        rh_note(
            f, "No knob takes more than one value over the rows (ring_task_window, ring_heap, ring_dep_pool, "
               "aicpu_thread_num and any swept column past the run's own are each the same in every row): "
               "nothing to plot against.");
    else {
        rh_hp(
            f,
            "<p class=\"sub\">%d swept knob%s: a chart each. A knob is swept when its value changes between "
            "rows (a ring knob: some ring's value); rings that always hold equal values are one knob.%s%s%s"
            "</p>\n<div class=\"charts\">\n",
            nk, nk == 1 ? "" : "s",
            sw->nextra
                ? " A column past the run's own (--set KEY, --kernel-set NAME.FIELD, gen.PARAM) has its "
                  "values evenly spaced, in numeric order (text in text order)."
                : "",
            sw->has_repeat ? " Each makespan is the mean over the point's seeds (--repeat)." : "",
            sw->has_blocked
                ? " Beside each makespan curve, the time the orchestrator spent blocked on each ring "
                  "in the rows those points come from: a flat makespan can hide a ring that cost "
                  "the orchestrator its time."
                : "");
        for (int i = 0; i < nk; i++)
            if (sweep_chart(r, &knobs[i], i, nk) != 0)
                return -1;
        fputs("</div>\n", f);
    }
    if (sw->nrows) {
        rh_hp(f,
              "<details><summary>All %zu rows</summary>\n<table id=\"sweep-rows\"><tr><th>line</th>"
              "<th class=\"l\">graph</th><th "
              "class=\"l\">platform</th><th>ring_task_window</th><th>ring_heap</th>"
              "<th>ring_dep_pool</th>",
              sw->nrows);
        fputs(sw->has_threads ? "<th>aicpu_thread_num</th>" : "", f);
        for (int e = 0; e < sw->nextra; e++)
            rh_hp(f, "<th>%s</th>", sw->extra_name[e]);
        fputs("<th class=\"l\">status</th><th>makespan (µs)</th>", f);
        fputs(sw->has_repeat ? "<th>mean (µs)</th><th>sigma (µs)</th><th>runs</th>" : "", f);
        fputs(sw->has_blocked ? "<th>blocked per ring (µs)</th></tr>\n" : "</tr>\n", f);
        for (size_t i = 0; i < sw->nrows; i++) {
            const rd_row *row = &sw->rows[i];
            char st[RD_NAME_MAX + 64];
            rh_hp(f, "<tr><td>%d</td><td class=\"l\">", row->line);
            rh_esc(f, sw->groups[row->group][0]);
            fputs("</td><td class=\"l\">", f);
            rh_esc(f, sw->groups[row->group][1]);
            fputs("</td>", f);
            rings_cell(f, row->knob[RD_KNOB_TASK_WINDOW], false);
            rings_cell(f, row->knob[RD_KNOB_HEAP], true);
            rings_cell(f, row->knob[RD_KNOB_DEP_POOL], false);
            if (sw->has_threads)
                rh_hp(f, "<td>%" PRIu64 "</td>", row->knob[RD_KNOB_THREADS][0]);
            for (int e = 0; e < sw->nextra; e++)
                rh_hp(f, "<td>%s</td>", sw->extra_val[e][row->extra[e]]);
            if (strcmp(row->status, "ok") == 0)
                snprintf(st, sizeof(st), "ok");
            else
                row_status(st, sizeof(st), row);
            rh_hp(f, "<td class=\"l\">%s</td><td>%.3f</td>", st, row->makespan_us);
            if (sw->has_repeat)
                rh_hp(f, "<td>%.3f</td><td>%.3f</td><td>%d</td>", row->mean_us, row->sigma_us, row->runs);
            if (sw->has_blocked)
                rh_hp(f, "<td>%.3f / %.3f / %.3f / %.3f</td>", row->blocked[0], row->blocked[1],
                      row->blocked[2], row->blocked[3]);
            fputs("</tr>\n", f);
        }
        fputs("</table></details>\n", f);
    }
    fputs("</section>\n", f);
    return 0;
}
