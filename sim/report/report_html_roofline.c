/* report_html_roofline.c - rh_: the roofline section: a log-log chart of every kernel and its table. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_html_roofline.h"

/* Chart layout: a log10 axis each way. */
#define RF_W 820
#define RF_LEFT 78
#define RF_RIGHT 24
#define RF_TOP 24
#define RF_PLOT_H 330
#define RF_BOTTOM 48
#define RF_PLOT_W (RF_W - RF_LEFT - RF_RIGHT)
#define RF_H (RF_TOP + RF_PLOT_H + RF_BOTTOM)
#define RF_MAX_DECADES 9 /* the y axis spans at most this many powers of ten below its top */
#define RF_LABEL_NAMES 3 /* kernels named at one spot, the rest counted */

/* v with an SI prefix and unit: "74.5 T" "FLOP/s". */
static void si(char *b, size_t n, double v, const char *unit)
{
    static const char *const pre[] = {"", "k", "M", "G", "T", "P", "E"};
    int i = 0;
    while (fabs(v) >= 1000 && i < 6) {
        v /= 1000;
        i++;
    }
    snprintf(b, n, "%.*f %s%s", fabs(v) < 10 ? 2 : fabs(v) < 100 ? 1 : 0, v, pre[i], unit);
}

/* An intensity: three significant digits. */
static void fmt_ai(char *b, size_t n, double v, bool aic)
{
    snprintf(b, n, "%.3g %s", v, aic ? "FLOP/B" : "op/B");
}

typedef struct {
    double xlo, xhi, ylo, yhi; /* log10 of the ranges */
} frame;

static double px_x(const frame *fr, double v)
{
    return RF_LEFT + (log10(v) - fr->xlo) / (fr->xhi - fr->xlo) * RF_PLOT_W;
}

static double px_y(const frame *fr, double v)
{
    return RF_TOP + RF_PLOT_H - (log10(v) - fr->ylo) / (fr->yhi - fr->ylo) * RF_PLOT_H;
}

/* Axis labels of a power of ten: "0.01", "1", "100", "10k"... */
static void decade_label(char *b, size_t n, int e, const char *unit)
{
    if (e >= 3) {
        static const char *const pre[] = {"k", "M", "G", "T", "P", "E"};
        int i = e / 3 - 1 < 5 ? e / 3 - 1 : 5;
        snprintf(b, n, "%g%s%s", pow(10, e - 3 * (i + 1)), pre[i], unit);
    } else {
        snprintf(b, n, "%g%s", pow(10, e), unit);
    }
}

static const rd_roof_kernel *g_sort;
static int by_share(const void *a, const void *b)
{
    const rd_roof_kernel *x = &g_sort[*(const int *)a], *y = &g_sort[*(const int *)b];
    double sx = x->has_cp ? x->cp_share : -1, sy = y->has_cp ? y->cp_share : -1;
    if (sx != sy)
        return sx > sy ? -1 : 1;
    return (x->func_id > y->func_id) - (x->func_id < y->func_id);
}

/* A ceiling: a horizontal peak from its ridge point on, with its label above the line's right end. */
static void peak_line(FILE *f, const frame *fr, double peak, double bw, const char *label, const char *col,
                      bool below)
{
    double ridge = peak / bw, x0 = px_x(fr, ridge), y = px_y(fr, peak), x1 = RF_LEFT + RF_PLOT_W;
    if (log10(peak) > fr->yhi || log10(peak) < fr->ylo)
        return;
    if (x0 < RF_LEFT)
        x0 = RF_LEFT;
    rh_hp(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2.5\"/>", x0,
          y, x1, y, col);
    rh_hp(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>", x0, y, col);
    rh_hp(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"%s\">%s</text>\n", x1 - 4,
          below ? y + 15 : y - 5, col, label);
}

static void chart(rep *r, const int *idx, int n)
{
    FILE *f = r->f;
    const rd_roof *ro = &r->run.roof;
    double bw = ro->hbm_bw, cr = ro->cube_peak / bw, vr = ro->vector_peak / bw;
    double amin = vr < cr ? vr : cr, amax = vr > cr ? vr : cr, ymin = ro->vector_peak;
    for (int i = 0; i < n; i++) {
        const rd_roof_kernel *k = &ro->k[idx[i]];
        if (!k->has_ai || !(k->achieved > 0))
            continue;
        amin = k->ai < amin ? k->ai : amin;
        amax = k->ai > amax ? k->ai : amax;
        ymin = k->achieved < ymin ? k->achieved : ymin;
    }
    frame fr;
    fr.xlo = floor(log10(amin)) - 1;
    fr.xhi = ceil(log10(amax)) + 1;
    fr.yhi = ceil(log10(ro->cube_peak * 1.5));
    double ybw = bw * pow(10, fr.xlo); /* the slope where the x axis starts */
    fr.ylo = floor(log10((ybw < ymin ? ybw : ymin) / 1.5));
    if (fr.ylo < fr.yhi - RF_MAX_DECADES)
        fr.ylo = fr.yhi - RF_MAX_DECADES;
    rh_hp(f,
          "<svg id=\"roofline-chart\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
          "aria-label=\"roofline: each kernel's throughput against its arithmetic intensity\">\n",
          RF_W, RF_H, RF_W, RF_H);
    char b[64];
    for (int e = (int)fr.xlo; e <= (int)fr.xhi; e++) {
        double x = px_x(&fr, pow(10, e));
        rh_hp(f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>", x, RF_TOP, x,
              RF_TOP + RF_PLOT_H);
        decade_label(b, sizeof(b), e, "");
        rh_hp(f, "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", x,
              RF_TOP + RF_PLOT_H + 14, b);
    }
    for (int e = (int)fr.ylo; e <= (int)fr.yhi; e++) {
        double y = px_y(&fr, pow(10, e));
        rh_hp(f, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>", RF_LEFT, y,
              RF_LEFT + RF_PLOT_W, y);
        decade_label(b, sizeof(b), e, "");
        rh_hp(f, "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", RF_LEFT - 6,
              y + 3, b);
    }
    rh_hp(f,
          "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/><line class=\"axis\" x1=\"%d\" "
          "y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n",
          RF_LEFT, RF_TOP, RF_LEFT, RF_TOP + RF_PLOT_H, RF_LEFT, RF_TOP + RF_PLOT_H, RF_LEFT + RF_PLOT_W,
          RF_TOP + RF_PLOT_H);
    rh_hp(
        f,
        "<text class=\"title\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">arithmetic intensity (operations per "
        "byte of HBM traffic)</text>",
        RF_LEFT + RF_PLOT_W / 2, RF_H - 10);
    rh_hp(
        f,
        "<text class=\"title\" transform=\"translate(14,%d) rotate(-90)\" text-anchor=\"middle\">operations "
        "per second (die)</text>\n",
        RF_TOP + RF_PLOT_H / 2);
    /* the bandwidth slope, from where it enters the frame to the higher ridge */
    double x0 = pow(10, fr.xlo), y0 = bw * x0;
    if (y0 < pow(10, fr.ylo)) {
        y0 = pow(10, fr.ylo);
        x0 = y0 / bw;
    }
    double xs = px_x(&fr, x0), ys = px_y(&fr, y0);
    rh_hp(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#555\" stroke-width=\"2.5\"/>",
          xs, ys, px_x(&fr, cr), px_y(&fr, ro->cube_peak));
    si(b, sizeof(b), bw, "B/s");
    char lab[160];
    snprintf(lab, sizeof(lab), "HBM %s", b);
    /* under the slope, near where it enters */
    double la = pow(10, log10(x0) + 0.6), lx = px_x(&fr, la) + 4, ly = px_y(&fr, bw * la) + 16;
    rh_hp(f, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#555\" transform=\"rotate(%.1f %.1f %.1f)\">%s</text>\n", lx,
          ly, -atan2(px_y(&fr, bw) - px_y(&fr, bw * 10), px_x(&fr, 10) - px_x(&fr, 1)) * 180 / M_PI, lx, ly,
          lab);
    si(b, sizeof(b), ro->cube_peak, "FLOP/s");
    snprintf(lab, sizeof(lab), "cube peak %s (16-bit), ridge %.0f FLOP/B", b, cr);
    peak_line(f, &fr, ro->cube_peak, bw, lab, COL_AIC, false);
    si(b, sizeof(b), ro->vector_peak, "op/s");
    snprintf(lab, sizeof(lab), "vector peak %s (16-bit), ridge %.2f op/B", b, vr);
    peak_line(f, &fr, ro->vector_peak, bw, lab, COL_AIV, true);
    /* the points; kernels at one spot share a label */
    double *px = malloc((size_t)(n ? n : 1) * 2 * sizeof(*px));
    struct lbox {
        double x, y, w;
    } *box = malloc((size_t)(n ? n : 1) * sizeof(*box));
    int nbox = 0;
    if (!px || !box) {
        free(px);
        free(box);
        fputs("</svg>\n", f);
        return;
    }
    for (int i = 0; i < n; i++) {
        const rd_roof_kernel *k = &ro->k[idx[i]];
        px[2 * i] = -1;
        if (!k->has_ai || !(k->achieved > 0) || log10(k->achieved) < fr.ylo)
            continue;
        double x = px_x(&fr, k->ai), y = px_y(&fr, k->achieved);
        px[2 * i] = x;
        px[2 * i + 1] = y;
        char a[64], c[64];
        fmt_ai(a, sizeof(a), k->ai, k->aic);
        si(c, sizeof(c), k->achieved, k->aic ? "FLOP/s" : "op/s");
        rh_hp(f, "<circle class=\"pt %s\" cx=\"%.1f\" cy=\"%.1f\" r=\"5.5\"><title>", k->aic ? "aic" : "aiv",
              x, y);
        rh_hp(f, "%s: %s, %s, %.1f%% of its roof</title></circle>\n", k->name, a, c, 100 * k->fraction);
    }
    for (int i = 0; i < n; i++) {
        if (px[2 * i] < 0)
            continue;
        bool shown = false;
        for (int j = 0; j < i && !shown; j++)
            shown =
                px[2 * j] >= 0 && fabs(px[2 * j] - px[2 * i]) < 4 && fabs(px[2 * j + 1] - px[2 * i + 1]) < 4;
        if (shown)
            continue;
        /* the label's text first, to know its width: moved down while it would cover one placed before */
        char text[512];
        size_t len = 0;
        text[0] = 0;
        int m = 0;
        for (int j = i; j < n; j++) {
            if (px[2 * j] < 0 || fabs(px[2 * j] - px[2 * i]) >= 4 || fabs(px[2 * j + 1] - px[2 * i + 1]) >= 4)
                continue;
            if (m++ >= RF_LABEL_NAMES)
                continue;
            const char *name = ro->k[idx[j]].name;
            int w = snprintf(text + len, sizeof(text) - len, "%s%.20s%s", m > 1 ? ", " : "", name,
                             strlen(name) > 20 ? "..." : "");
            if (w > 0 && (size_t)w < sizeof(text) - len)
                len += (size_t)w;
        }
        if (m > RF_LABEL_NAMES) {
            int w = snprintf(text + len, sizeof(text) - len, " +%d", m - RF_LABEL_NAMES);
            if (w > 0 && (size_t)w < sizeof(text) - len)
                len += (size_t)w;
        }
        /* right of the point, or left of it when the plot ends first */
        double lw = 6.2 * (double)len, lx = px[2 * i] + 8, ly = px[2 * i + 1] + 4;
        if (lx + lw > RF_LEFT + RF_PLOT_W)
            lx = px[2 * i] - 8 - lw;
        for (bool moved = true; moved;) {
            moved = false;
            for (int b = 0; b < nbox; b++)
                if (fabs(box[b].y - ly) < 11 && lx < box[b].x + box[b].w && box[b].x < lx + lw) {
                    ly = box[b].y + 12;
                    moved = true;
                }
        }
        box[nbox++] = (struct lbox){lx, ly, lw};
        rh_hp(f, "<text x=\"%.1f\" y=\"%.1f\">%s</text>\n", lx, ly, text);
    }
    free(px);
    free(box);
    fputs("</svg>\n", f);
}

static void table(rep *r, const int *idx, int n)
{
    FILE *f = r->f;
    const rd_roof *ro = &r->run.roof;
    fputs(
        "<table id=\"roofline-table\"><tr><th class=\"l\">kernel</th><th class=\"l\">core</th><th>arithmetic "
        "intensity</th><th>achieved</th><th>roof at its intensity</th><th class=\"l\">bound</th><th>% of "
        "roof</th><th class=\"l\">busiest pipe</th><th>critical-path share</th></tr>\n",
        f);
    for (int i = 0; i < n; i++) {
        const rd_roof_kernel *k = &ro->k[idx[i]];
        const char *unit = k->aic ? "FLOP/s" : "op/s";
        char a[64] = "", c[64] = "", d[64] = "";
        rh_hp(f, "<tr><td class=\"l\">%s</td><td class=\"l\">%s</td>", k->name, k->aic ? "AIC" : "AIV");
        if (k->has_ai) {
            fmt_ai(a, sizeof(a), k->ai, k->aic);
            rh_hp(f, "<td>%s</td>", a);
        } else {
            rh_hp(f, "<td class=\"l\">%s</td>", k->note);
        }
        if (k->placed) {
            si(c, sizeof(c), k->achieved, unit);
            si(d, sizeof(d), k->roof, unit);
            rh_hp(f, "<td>%s</td><td>%s</td><td class=\"l\">%s</td><td>%.1f%%</td>", c, d,
                  k->compute_bound ? "compute" : "memory", 100 * k->fraction);
        } else {
            fputs("<td>-</td><td>-</td><td class=\"l\">-</td><td>-</td>", f);
        }
        rh_hp(f, "<td class=\"l\">%s</td>", k->busiest[0] ? k->busiest : "-");
        if (k->has_cp)
            rh_hp(f, "<td>%.1f%%</td></tr>\n", 100 * k->cp_share);
        else
            fputs("<td>-</td></tr>\n", f);
    }
    fputs("</table>\n", f);
}

void rh_section_roofline(rep *r)
{
    FILE *f = r->f;
    const rd_roof *ro = &r->run.roof;
    fputs("<section id=\"roofline\">\n<h2>Roofline</h2>\n", f);
    if (!ro->given) {
        rh_note(f,
                "This <code>ptosim_run.json</code> has no <code>roofline</code> (an older ptosim wrote it).");
        fputs("</section>\n", f);
        return;
    }
    char cube[64], vec[64], hbm[64];
    si(cube, sizeof(cube), ro->cube_peak, "FLOP/s");
    si(vec, sizeof(vec), ro->vector_peak, "op/s");
    si(hbm, sizeof(hbm), ro->hbm_bw, "B/s");
    rh_hp(
        f,
        "<p class=\"sub\">Each kernel's operations per byte of HBM traffic against what it achieved, as the "
        "die would if every core of its type ran it as it ran here (ptosim_run.json <code>roofline</code>). "
        "The ceilings are the platform's: cube peak %s, vector peak %s (16-bit elements), HBM %s. Left of a "
        "ridge point a kernel can at best be memory-bound, right of it compute-bound; a kernel over its roof "
        "(more than 100%%) had more HBM than an equal share of the die's.</p>\n",
        cube, vec, hbm);
    int *idx = malloc((size_t)(ro->n ? ro->n : 1) * sizeof(*idx)), placed = 0;
    if (!idx) {
        fputs("</section>\n", f);
        return;
    }
    for (int i = 0; i < ro->n; i++) {
        idx[i] = i;
        placed += ro->k[i].has_ai && ro->k[i].achieved > 0;
    }
    g_sort = ro->k;
    qsort(idx, (size_t)ro->n, sizeof(*idx), by_share);
    if (placed)
        chart(r, idx, ro->n);
    else
        rh_note(f,
                "No kernel has an operation count and GM traffic (flat costs or Perf-Sim profiles only), so "
                "no kernel has a point on the roofline.");
    if (ro->n)
        table(r, idx, ro->n);
    free(idx);
    fputs("</section>\n", f);
}
