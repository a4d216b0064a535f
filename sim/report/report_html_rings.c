/* report_html_rings.c - rh_: the report page's ring occupancy section and its scope table. */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../../model/base/write_buffer.h"
#include "report_html_draw.h"
#include "report_html_rings.h"

/* ------------------------------------------------------------------ */
/* Rings                                                               */
/* ------------------------------------------------------------------ */

void rh_pct_cell(FILE *f, uint64_t peak, uint64_t cap, bool bytes)
{
    char a[32], b[32];
    if (bytes) {
        rh_fmt_bytes(a, sizeof(a), (double)peak);
        rh_fmt_bytes(b, sizeof(b), (double)cap);
    } else {
        snprintf(a, sizeof(a), "%" PRIu64, peak);
        snprintf(b, sizeof(b), "%" PRIu64, cap);
    }
    double p = cap ? 100.0 * (double)peak / (double)cap : 0;
    rh_hp(f, "<td style=\"background:rgba(214,39,40,%.2f)\">%s / %s (%.1f%%)</td>", p >= 100 ? 0.5 : p / 200,
          a, b, p);
}

/* Peaks against capacity from ptosim_run.json (exact, unlike the sampled charts). */
static void rings_table(rep *r)
{
    FILE *f = r->f;
    fputs("<table id=\"ring-peaks\"><tr><th>ring</th><th>task window peak / capacity</th>"
          "<th>heap peak / capacity</th><th>dep pool peak / capacity</th><th>orchestrator blocked (µs)</th>"
          "</tr>\n",
          f);
    for (int i = 0; i < RD_RINGS; i++) {
        const rd_ring *g = &r->run.rings[i];
        rh_hp(f, "<tr><td>%d</td>", i);
        rh_pct_cell(f, g->task_window_peak, g->task_window, false);
        rh_pct_cell(f, g->heap_peak, g->heap, true);
        rh_pct_cell(f, g->dep_pool_peak, g->dep_pool, false);
        fputs(g->blocked_us > 0 ? "<td style=\"background:rgba(214,39,40,0.25)\">" : "<td>", f);
        rh_hp(f, "%.3f</td></tr>\n", g->blocked_us);
    }
    fputs("</table>\n", f);
}

/* "%.1f,%.1f" of (x, y) into b (n bytes), as snprintf writes it: a point per bucket, without printf. */
static void point_text(char *b, size_t n, double x, double y)
{
    char t[80];
    size_t lx = wbuf_fixed_text(t, x, 1), ly = lx ? wbuf_fixed_text(t + lx + 1, y, 1) : 0;
    if (!ly) {
        snprintf(b, n, "%.1f,%.1f", x, y);
        return;
    }
    t[lx] = ',';
    size_t m = 0;
    rh_put_cut(b, n, &m, t, lx + 1 + ly);
}

/* One resource's chart over simulated time (ptosim_run.json ring_occupancy): per ring that held something,
 * a band from the lowest to the highest value of each time bucket and a line along the highest, against
 * the capacity line. */
static void ring_chart(rep *r, int res)
{
    static const char *const id[3] = {"task_window", "heap", "dep_pool"};
    static const char *const title[3] = {"Task window: live task slots", "Heap: live bytes",
                                         "Dependency pool: live entries"};
    FILE *f = r->f;
    const rd_run *run = &r->run;
    const rd_occ *oc = &run->occ;
    uint64_t cap[RD_RINGS], peak[RD_RINGS] = {0};
    for (int g = 0; g < RD_RINGS; g++) {
        const rd_ring *rg = &run->rings[g];
        cap[g] = res == 0 ? rg->task_window : res == 1 ? rg->heap : rg->dep_pool;
        for (int i = 0; oc->used[g] && i < oc->n; i++)
            peak[g] = oc->hi[g][res][i] > peak[g] ? oc->hi[g][res][i] : peak[g];
    }
    /* scale: up to the capacity when some ring comes within 20% of it; else zoom on the values */
    double maxv = 0, mincap = 0;
    bool same_cap = true;
    int first = -1;
    for (int g = 0; g < RD_RINGS; g++) {
        if (!oc->used[g])
            continue;
        if (first < 0)
            first = g;
        else if (cap[g] != cap[first])
            same_cap = false;
        if ((double)peak[g] > maxv)
            maxv = (double)peak[g];
        if (!mincap || (double)cap[g] < mincap)
            mincap = (double)cap[g];
    }
    bool show_cap = mincap > 0 && maxv >= 0.2 * mincap;
    double top = show_cap ? (maxv > mincap ? maxv : mincap) * 1.05 : (maxv > 0 ? maxv * 1.25 : 1);
    if (res != 1 && top < 4)
        top = 4;
    double step = rh_nice_step(top, 5);
    if (res == 1) { /* byte ticks on binary steps */
        double s = 1;
        while (s * 6 < top)
            s *= 2;
        step = s;
    }
    top = ceil(top / step) * step;
    double span_us = run->makespan_us > 0 ? run->makespan_us : oc->bucket_us * oc->n, div;
    const char *unit;
    rh_time_unit(span_us, &div, &unit);
    axis ax = {0, span_us, CH_LEFT, CH_LEFT + CH_PLOT_W, false};
    axis ay = {0, top, CH_TOP + CH_PLOT_H, CH_TOP, false};

    rh_hp(f, "<figure id=\"ring-%s\"><figcaption>%s per ring</figcaption>\n", id[res], title[res]);
    rh_hp(f,
          "<svg class=\"ring-chart\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
          "aria-label=\"%s over simulated time\">\n",
          CH_W, CH_H, CH_W, CH_H, title[res]);
    rh_y_ticks(f, &ay, step, CH_LEFT, CH_LEFT + CH_PLOT_W, res == 1 ? 'b' : 'n');
    /* x ticks: simulated time */
    double xs = rh_nice_step(span_us / div, 6);
    int dec = rh_step_decimals(xs);
    for (double v = 0; v <= span_us / div * (1 + 1e-9); v += xs) {
        char lab[32];
        rh_fmt_num(lab, sizeof(lab), v, dec);
        rh_hp(f, "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>",
              rh_ax_px(&ax, v * div), CH_TOP + CH_PLOT_H + 14, lab);
    }
    rh_hp(f,
          "\n<text class=\"title\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">simulated time since launch "
          "(%s)</text>\n",
          CH_LEFT + CH_PLOT_W / 2, CH_TOP + CH_PLOT_H + 34, unit);
    rh_hp(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", CH_LEFT, CH_TOP + CH_PLOT_H,
          CH_LEFT + CH_PLOT_W, CH_TOP + CH_PLOT_H);
    if (show_cap) {
        for (int g = 0; g < RD_RINGS; g++) {
            if (!oc->used[g] || (same_cap && g != first))
                continue;
            double yc = rh_ax_px(&ay, (double)cap[g]);
            rh_hp(f,
                  "<line class=\"cap\" data-ring=\"%d\" stroke=\"%s\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" "
                  "y2=\"%.1f\"/>",
                  same_cap ? -1 : g, same_cap ? "#555" : RING_COL[g], CH_LEFT, yc, CH_LEFT + CH_PLOT_W, yc);
            if (same_cap)
                rh_hp(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">capacity</text>",
                      CH_LEFT + CH_PLOT_W - 4, yc - 4);
            fputc('\n', f);
        }
    }
    /* each bucket as a step [i, i + 1) x width, cut at the end of the run */
    for (int g = 0; g < RD_RINGS; g++) {
        if (!oc->used[g])
            continue;
        rh_hp(f, "<polygon class=\"band\" data-ring=\"%d\" fill=\"%s\" points=\"", g, RING_COL[g]);
        for (int pass = 0; pass < 2; pass++) /* the highs left to right, then the lows back */
            for (int j = 0; j < oc->n; j++) {
                int i = pass ? oc->n - 1 - j : j;
                double x0 = rh_ax_px(&ax, i * oc->bucket_us),
                       x1 = rh_ax_px(&ax,
                                     (i + 1) * oc->bucket_us < span_us ? (i + 1) * oc->bucket_us : span_us);
                double y = rh_ax_px(&ay, (double)(pass ? oc->lo[g][res][i] : oc->hi[g][res][i]));
                rh_hp(f, "%s%.1f,%.1f %.1f,%.1f", pass || j ? " " : "", pass ? x1 : x0, y, pass ? x0 : x1, y);
            }
        rh_hp(f, "\"/>\n<polyline class=\"series\" data-ring=\"%d\" stroke=\"%s\" points=\"", g, RING_COL[g]);
        double lx = -1, ly = -1;
        for (int i = 0; i < oc->n; i++) {
            double x0 = rh_ax_px(&ax, i * oc->bucket_us),
                   x1 = rh_ax_px(&ax, (i + 1) * oc->bucket_us < span_us ? (i + 1) * oc->bucket_us : span_us);
            double y = rh_ax_px(&ay, (double)oc->hi[g][res][i]);
            char a[48], b[48];
            point_text(a, sizeof(a), x0, y);
            point_text(b, sizeof(b), lx, ly);
            if (strcmp(a, b) != 0) /* the step's start, unless the last point was already there */
                rh_hp(f, "%s%s", i ? " " : "", a);
            rh_hp(f, " %.1f,%.1f", x1, y);
            lx = x1;
            ly = y;
        }
        fputs("\"/>\n", f);
    }
    fputs("</svg>\n<ul class=\"legend\">", f);
    for (int g = 0; g < RD_RINGS; g++) {
        char a[32], b[32];
        if (res == 1) {
            rh_fmt_bytes(a, sizeof(a), (double)peak[g]);
            rh_fmt_bytes(b, sizeof(b), (double)cap[g]);
        } else {
            snprintf(a, sizeof(a), "%" PRIu64, peak[g]);
            snprintf(b, sizeof(b), "%" PRIu64, cap[g]);
        }
        if (oc->used[g])
            rh_hp(f,
                  "<li><span class=\"sw\" style=\"background:%s\"></span>ring %d: highest %s of %s "
                  "(%.1f%%)</li>",
                  RING_COL[g], g, a, b, cap[g] ? 100.0 * (double)peak[g] / (double)cap[g] : 0);
        else
            rh_hp(f, "<li><span class=\"sw\" style=\"background:#ccc\"></span>ring %d: never used</li>", g);
    }
    if (!show_cap && maxv > 0)
        rh_hp(
            f,
            "<li>the capacity lines are above this scale (every ring stays under 20%% of its capacity)</li>");
    fputs("</ul></figure>\n", f);
}

/* Scope stats (dfx_outputs/scope_stats/scope_stats.jsonl): per ring, how many scope boundaries were sampled
 * and the most each resource held at one. */
void rh_scope_table(rep *r)
{
    FILE *f = r->f;
    const rd_scopes *sc = &r->sc;
    uint64_t n[RD_RINGS] = {0}, mx[RD_RINGS][3] = {{0}};
    for (size_t i = 0; i < sc->n; i++) {
        const rd_sample *s = &sc->v[i];
        uint64_t v[3] = {s->task_window, s->heap, s->dep_pool};
        n[s->ring]++;
        for (int k = 0; k < 3; k++)
            mx[s->ring][k] = v[k] > mx[s->ring][k] ? v[k] : mx[s->ring][k];
    }
    rh_hp(f,
          "<p class=\"sub\">%zu samples, one at every scope begin and end; the runtime stamps them with no "
          "time, so they are counted here, not drawn%s.%s%s</p>\n",
          sc->n, r->capture ? "" : " (the charts above are over simulated time)",
          sc->fatal ? " A runtime fatal was latched: later samples are diagnostic only." : "",
          sc->dropped ? " Some records were dropped on the device." : "");
    fputs("<table id=\"scope-table\"><tr><th>ring</th><th>samples</th><th>highest task window</th>"
          "<th>highest heap</th><th>highest dep pool</th></tr>\n",
          f);
    for (int g = 0; g < RD_RINGS; g++) {
        char h[32];
        rh_fmt_bytes(h, sizeof(h), (double)mx[g][1]);
        if (n[g])
            rh_hp(f,
                  "<tr><td>%d</td><td>%" PRIu64 "</td><td>%" PRIu64 "</td><td>%s</td><td>%" PRIu64
                  "</td></tr>\n",
                  g, n[g], mx[g][0], h, mx[g][2]);
        else
            rh_hp(f, "<tr><td>%d</td><td>0</td><td>-</td><td>-</td><td>-</td></tr>\n", g);
    }
    fputs("</table>\n", f);
}

void rh_section_rings(rep *r)
{
    FILE *f = r->f;
    const rd_occ *oc = &r->run.occ;
    fputs("<section id=\"rings\">\n<h2>Rings</h2>\n<h3>Peaks against capacity (ptosim_run.json)</h3>\n", f);
    rings_table(r);
    fputs("<h3>Occupancy over simulated time (ptosim_run.json ring_occupancy)</h3>\n", f);
    bool any = false;
    for (int g = 0; g < RD_RINGS; g++)
        any |= oc->used[g];
    if (!oc->given)
        rh_note(f,
                "This <code>ptosim_run.json</code> has no <code>ring_occupancy</code>: it was written before "
                "ptosim recorded ring occupancy over time; run the graph again.");
    else if (!any || !oc->n)
        rh_note(f, "No ring held anything during the run.");
    else {
        char w[32];
        rh_fmt_time(w, sizeof(w), oc->bucket_us);
        rh_hp(f,
              "<p class=\"sub\">What each ring held from launch to the end of the run, in %d buckets of %s: "
              "the band spans the least to the most a ring held within a bucket, the line is the most. The "
              "heap and the dependency pool are reclaimed lazily, at the orchestrator's next allocation on "
              "that ring (model/README.md §4.3, §4.4), so after a ring's last submit they keep what its last "
              "tasks held.</p>\n<div class=\"charts\">\n",
              oc->n, w);
        for (int res = 0; res < 3; res++)
            ring_chart(r, res);
        fputs("</div>\n", f);
    }
    fputs("<h3>Scope stats</h3>\n", f);
    if (r->sc_rc != RD_OK)
        rh_note(f,
                "No scope stats: <code>dfx_outputs/scope_stats/scope_stats.jsonl</code> is absent (run with "
                "<code>--enable-scope-stats</code>).");
    else if (!r->sc.n)
        rh_note(f, "The scope stats file has no samples (no scope was recorded).");
    else
        rh_scope_table(r);
    fputs("</section>\n", f);
}
