/* report_html_diff.c - rh_: `ptosim diff -o DIR`'s page: the attribution as a waterfall, and the tables. */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "report_html_diff.h"
#include "report_html_draw.h"

/* Waterfall geometry (px): part names on the left, values right of each bar. */
#define WF_W 1080
#define WF_LEFT 330
#define WF_RIGHT 110
#define WF_TOP 30
#define WF_ROW 24
#define WF_BAR 16
#define WF_PLOT (WF_W - WF_LEFT - WF_RIGHT)
#define WF_NAME_MAX 52     /* a longer name is cut on the chart (its tooltip holds it whole) */
#define COL_UP "#c62828"   /* B spends more time in this part */
#define COL_DOWN "#1a7f37" /* B spends less */
#define COL_TOTAL "#5b7290"

/* Whole nanoseconds as microseconds with three decimals, exactly; sign: a '+' before a positive value. */
static void us_text(int64_t ns, bool sign, char *out, size_t n)
{
    uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
    snprintf(out, n, "%s%" PRIu64 ".%03" PRIu64,
             ns < 0           ? "-"
             : sign && ns > 0 ? "+"
                              : "",
             a / 1000, a % 1000);
}

/* A name cut to WF_NAME_MAX bytes on a character's boundary, "..." marking the cut. */
static void short_name(const char *s, char *out, size_t n)
{
    size_t len = strlen(s);
    if (len <= WF_NAME_MAX || n < WF_NAME_MAX + 4) {
        snprintf(out, n, "%s", s);
        return;
    }
    size_t k = WF_NAME_MAX - 3;
    while (k > 0 && ((unsigned char)s[k] & 0xC0) == 0x80)
        k--;
    memcpy(out, s, k);
    memcpy(out + k, "...", 4);
}

/* One row: a bar from ns value `from` to `to` (either order), its name and its label. */
static void wf_row(FILE *f, const axis *ax, int row, const char *what, int64_t from, int64_t to,
                   const char *col, const char *label, const char *kind)
{
    double y = WF_TOP + row * WF_ROW + (WF_ROW - WF_BAR) / 2.0;
    double x0 = rh_ax_px(ax, (double)(from < to ? from : to) / 1000),
           x1 = rh_ax_px(ax, (double)(from < to ? to : from) / 1000);
    if (x0 < WF_LEFT)
        x0 = WF_LEFT; /* a makespan bar on an axis that does not start at 0 */
    char name[WF_NAME_MAX + 8];
    short_name(what, name, sizeof(name));
    rh_hp(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", WF_LEFT - 6, y + WF_BAR - 4, name);
    rh_hp(
        f,
        "<rect class=\"wf\" data-kind=\"%s\" data-what=\"%s\" data-from-ns=\"%" PRId64
        "\" data-to-ns=\"%" PRId64
        "\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>%s: %s µs</title></rect>\n",
        kind, what, from, to, x0, y, x1 - x0 < 1 ? 1 : x1 - x0, WF_BAR, col, what, label);
    rh_hp(f, "<text x=\"%.1f\" y=\"%.1f\">%s µs</text>\n", (x1 - x0 < 1 ? x0 + 1 : x1) + 5, y + WF_BAR - 4,
          label);
}

void rh_diff_waterfall(FILE *f, const rh_diff *d)
{
    fputs("<section id=\"waterfall\">\n<h2>Where the change went</h2>\n", f);
    if (!d->parts) {
        rh_note_text(f, d->cannot ? d->cannot : "cannot attribute the makespan change");
        fputs("</section>\n", f);
        return;
    }
    /* the running total from A's makespan through each part that moved to B's */
    int64_t lo = d->makespan_ns[0], hi = d->makespan_ns[0], c = d->makespan_ns[0];
    size_t moved = 0;
    for (size_t i = 0; i < d->nparts; i++) {
        int64_t dn = d->parts[i].b_ns - d->parts[i].a_ns;
        if (!dn)
            continue;
        moved++;
        c += dn;
        lo = c < lo ? c : lo;
        hi = c > hi ? c : hi;
    }
    /* small moves on a long run: the axis starts near them, not at 0 */
    double vlo = 0, vhi = (double)hi / 1000, range = (double)(hi - lo) / 1000;
    bool cut = lo > 0 && range < 0.5 * vhi;
    if (cut)
        vlo = (double)lo / 1000 - 0.15 * range;
    double step = rh_nice_step(vhi - vlo > 0 ? vhi - vlo : 1, 8);
    vlo = floor(vlo / step) * step;
    vhi = ceil(vhi / step) * step + (vhi == ceil(vhi / step) * step ? step : 0);
    axis ax = {.lo = vlo, .hi = vhi, .p0 = WF_LEFT, .p1 = WF_LEFT + WF_PLOT};
    char ta[40], tb[40], td[40];
    us_text(d->makespan_ns[0], false, ta, sizeof(ta));
    us_text(d->makespan_ns[1], false, tb, sizeof(tb));
    us_text(d->makespan_ns[1] - d->makespan_ns[0], true, td, sizeof(td));
    rh_hp(f,
          "<p class=\"sub\">From A's makespan (%s µs) to B's (%s µs, a change of %s µs): a bar per part that "
          "moved, in the table's order, most moved first; red where B spends more time in it, green where "
          "less. %zu of %zu parts moved; the table below lists them all.</p>\n",
          ta, tb, td, moved, d->nparts);
    int rows = (int)moved + 2, bottom = WF_TOP + rows * WF_ROW, h = bottom + 40;
    rh_hp(f,
          "<svg id=\"waterfall-chart\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
          "aria-label=\"waterfall: the makespan change from A to B, part by part\">\n",
          WF_W, h, WF_W, h);
    rh_hp(
        f,
        "<rect x=\"%d\" y=\"8\" width=\"14\" height=\"10\" fill=\"%s\"/><text x=\"%d\" "
        "y=\"17\">makespan</text>"
        "<rect x=\"%d\" y=\"8\" width=\"14\" height=\"10\" fill=\"%s\"/><text x=\"%d\" y=\"17\">more time in "
        "B"
        "</text><rect x=\"%d\" y=\"8\" width=\"14\" height=\"10\" fill=\"%s\"/><text x=\"%d\" y=\"17\">less "
        "time in B</text>\n",
        WF_LEFT, COL_TOTAL, WF_LEFT + 18, WF_LEFT + 100, COL_UP, WF_LEFT + 118, WF_LEFT + 230, COL_DOWN,
        WF_LEFT + 248);
    int dec = rh_step_decimals(step);
    for (double t = vlo; t <= vhi + step * 1e-9; t += step) {
        double x = rh_ax_px(&ax, t);
        char lab[32];
        rh_fmt_num(lab, sizeof(lab), t, dec);
        rh_hp(f,
              "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/><text class=\"tick\" "
              "x=\"%.1f\" "
              "y=\"%d\" text-anchor=\"middle\">%s</text>\n",
              x, WF_TOP - 4, x, bottom + 2, x, bottom + 15, lab);
    }
    rh_hp(f, "<text class=\"title\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">makespan (µs)%s</text>\n",
          WF_LEFT + WF_PLOT / 2, bottom + 32, cut ? ", the axis starting near the change" : "");
    fputs("<g id=\"waterfall-bars\">\n", f);
    wf_row(f, &ax, 0, "makespan A", 0, d->makespan_ns[0], COL_TOTAL, ta, "total");
    c = d->makespan_ns[0];
    int row = 1;
    for (size_t i = 0; i < d->nparts; i++) {
        int64_t dn = d->parts[i].b_ns - d->parts[i].a_ns;
        if (!dn)
            continue;
        char lab[40];
        us_text(dn, true, lab, sizeof(lab));
        double xc = rh_ax_px(&ax, (double)c / 1000);
        rh_hp(f,
              "<line class=\"axis\" stroke-dasharray=\"3 3\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>\n",
              xc, WF_TOP + row * WF_ROW - (WF_ROW - WF_BAR) / 2, xc,
              WF_TOP + row * WF_ROW + (WF_ROW - WF_BAR) / 2);
        wf_row(f, &ax, row++, d->parts[i].what, c, c + dn, dn > 0 ? COL_UP : COL_DOWN, lab, "part");
        c += dn;
    }
    double xc = rh_ax_px(&ax, (double)c / 1000);
    rh_hp(f, "<line class=\"axis\" stroke-dasharray=\"3 3\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>\n",
          xc, WF_TOP + row * WF_ROW - (WF_ROW - WF_BAR) / 2, xc,
          WF_TOP + row * WF_ROW + (WF_ROW - WF_BAR) / 2);
    wf_row(f, &ax, row, "makespan B", 0, d->makespan_ns[1], COL_TOTAL, tb, "total");
    rh_hp(f, "</g>\n<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n</svg>\n", WF_LEFT,
          bottom + 2, WF_LEFT + WF_PLOT, bottom + 2);
    if (cut) {
        char s0[32];
        rh_fmt_num(s0, sizeof(s0), vlo, dec);
        rh_hp(
            f,
            "<p class=\"note\">The axis starts at %s µs, so the moves show: the makespan bars are cut at its "
            "left edge.</p>\n",
            s0);
    }
    fputs("<table id=\"attribution\"><tr><th class=\"l\">part</th><th>A (µs)</th><th>B (µs)</th>"
          "<th>change (µs)</th></tr>\n",
          f);
    for (size_t i = 0; i < d->nparts; i++) {
        char pa[40], pb[40], pd[40];
        us_text(d->parts[i].a_ns, false, pa, sizeof(pa));
        us_text(d->parts[i].b_ns, false, pb, sizeof(pb));
        us_text(d->parts[i].b_ns - d->parts[i].a_ns, true, pd, sizeof(pd));
        rh_hp(f, "<tr><td class=\"l\">%s</td><td>%s</td><td>%s</td><td>%s</td></tr>\n", d->parts[i].what, pa,
              pb, pd);
    }
    rh_hp(f, "<tr><th class=\"l\">makespan</th><th>%s</th><th>%s</th><th>%s</th></tr>\n</table>\n", ta, tb,
          td);
    fputs("</section>\n", f);
}

/* One text section of the table, as printed. */
static void text_block(FILE *f, const char *id, const char *title, const char *text)
{
    rh_hp(f, "<section id=\"%s\">\n<h2>%s</h2>\n", id, title);
    if (text && text[0]) {
        fputs("<pre>", f);
        rh_esc(f, text);
        fputs("</pre>\n", f);
    } else {
        rh_note(f, "No difference.");
    }
    fputs("</section>\n", f);
}

void rh_diff_tables(FILE *f, const rh_diff *d)
{
    text_block(f, "inputs", "What differs in the inputs", d->inputs);
    text_block(f, "kernels", "Kernel execution totals (core time, µs)", d->kernels);
    text_block(f, "rings", "Ring peaks (A -> B)", d->rings);
    text_block(f, "bound", "What bounds each run", d->bound);
}
