/* report_html_swimlane.c - rh_: the report page's swimlane (a lane per core) and its critical path. */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "report_html_draw.h"
#include "report_html_swimlane.h"

/* ------------------------------------------------------------------ */
/* Swimlane                                                            */
/* ------------------------------------------------------------------ */

/* Swimlane geometry (px): the plot is HTMLREP_BINS px wide, so a bin is a pixel column. */
#define SL_LEFT 84
#define SL_RIGHT 16
#define SL_TOP 34
#define SL_W (SL_LEFT + HTMLREP_BINS + SL_RIGHT)
#define SL_MAX_LINKS 2000 /* critical-path connectors drawn at most */
#define CP_LANE_H 18      /* the critical path's own lane, above the cores */
#define SL_MIN_LANE_H 11  /* a core's lane at least: room for its 9 px label */

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* A critical task and its place among the path's executed steps. */
typedef struct crit_task {
    uint64_t id;
    size_t step;
} crit_task;

static int cmp_crit(const void *a, const void *b)
{
    return cmp_u64(&((const crit_task *)a)->id, &((const crit_task *)b)->id);
}

/* Marks the executions of critical tasks (mark 1) and, of each, the one that
 * ended last (mark 2: the one its successor waited on); gate[k] is that
 * execution for the k-th executed step of the path. Returns 0, or -1 when out
 * of memory. */
static int mark_critical(const rep *r, unsigned char **mark, long **gate, size_t *ngate)
{
    const rd_swimlane *sl = &r->sl;
    *mark = calloc(sl->nex ? sl->nex : 1, 1);
    *gate = malloc((r->cp.n ? r->cp.n : 1) * sizeof(**gate));
    crit_task *ct = malloc((r->cp.n ? r->cp.n : 1) * sizeof(*ct));
    *ngate = 0;
    if (!*mark || !*gate || !ct) {
        free(ct);
        return -1;
    }
    for (size_t i = 0; i < r->cp.n; i++)
        if (r->cp.v[i].executed) {
            ct[*ngate] = (crit_task){r->cp.v[i].task, *ngate};
            (*gate)[(*ngate)++] = -1;
        }
    qsort(ct, *ngate, sizeof(*ct), cmp_crit);
    for (size_t i = 0; i < sl->nex && *ngate; i++) {
        crit_task key = {sl->ex[i].task, 0};
        const crit_task *c = bsearch(&key, ct, *ngate, sizeof(*ct), cmp_crit);
        if (!c)
            continue;
        (*mark)[i] = 1;
        long *g = &(*gate)[c->step];
        if (*g < 0 || sl->ex[i].end > sl->ex[*g].end)
            *g = (long)i;
    }
    for (size_t k = 0; k < *ngate; k++)
        if ((*gate)[k] >= 0)
            (*mark)[(*gate)[k]] = 2;
    free(ct);
    return 0;
}

/* The swimlane's layout: a lane per core, AIC lanes first as the file numbers them, a gap where the type
 * changes. */
typedef struct lanes {
    int lh;          /* lane height */
    int cp_y;        /* top of the critical path's lane, -1 = none */
    int *y;          /* top of each core's lane */
    int bottom;      /* below the last lane */
    uint64_t t0, t1; /* ticks at the left and right edges */
    double sx;       /* px per tick */
} lanes;

static void swimlane_axis(FILE *f, const rep *r, const lanes *L)
{
    double span_us = (double)(L->t1 - L->t0) * 1e6 / (double)r->sl.clock_hz, div;
    const char *unit;
    rh_time_unit(span_us, &div, &unit);
    double span = span_us / div, step = rh_nice_step(span, 10);
    int dec = rh_step_decimals(step);
    for (double t = 0; t <= span * (1 + 1e-9); t += step) {
        double x = SL_LEFT + (span > 0 ? t / span : 0) * HTMLREP_BINS;
        char lab[32];
        rh_fmt_num(lab, sizeof(lab), t, dec);
        rh_hp(f,
              "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/><text class=\"tick\" "
              "x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
              x, SL_TOP - 4, x, L->bottom + 2, x, L->bottom + 15, lab);
    }
    rh_hp(f, "<text class=\"title\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">time since launch (%s)</text>\n",
          SL_LEFT + HTMLREP_BINS / 2, L->bottom + 32, unit);
}

/* Lane backgrounds and labels: every lane is named (lanes are at least SL_MIN_LANE_H high). */
static void swimlane_lanes(FILE *f, const rep *r, const lanes *L, const char *idp)
{
    const rd_swimlane *sl = &r->sl;
    if (L->cp_y >= 0)
        rh_hp(
            f,
            "<rect id=\"%scp-lane-bg\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fbeaea\"/><text "
            "class=\"lane\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">critical path</text>\n",
            idp, SL_LEFT, L->cp_y, HTMLREP_BINS, CP_LANE_H, SL_LEFT - 5, L->cp_y + CP_LANE_H / 2.0 + 3);
    for (int c = 0; c < sl->ncores; c++) {
        bool aic = sl->aic[c];
        rh_hp(f,
              "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/><text class=\"lane\" x=\"%d\" "
              "y=\"%.1f\" text-anchor=\"end\">%s_%d</text>\n",
              SL_LEFT, L->y[c], HTMLREP_BINS, L->lh,
              aic ? (c % 2 ? "#e8f0fa" : "#f1f6fc") : (c % 2 ? "#fcefe2" : "#fdf6ee"), SL_LEFT - 5,
              L->y[c] + L->lh / 2.0 + 3, aic ? "AIC" : "AIV", c);
    }
}

/* Bar mode: one rectangle per execution, with a tooltip. */
static void swimlane_bars(FILE *f, const rep *r, const lanes *L, const unsigned char *mark)
{
    const rd_swimlane *sl = &r->sl;
    double us = 1e6 / (double)sl->clock_hz;
    for (int pass = 0; pass < 3; pass++) { /* AIC, AIV, then critical on top */
        rh_hp(f, "<g class=\"%s\">\n", pass == 0 ? "aic" : pass == 1 ? "aiv" : "cp");
        for (size_t i = 0; i < sl->nex; i++) {
            const rd_exec *e = &sl->ex[i];
            bool cp = mark[i] == 2;
            if (pass == 2 ? !cp : (cp || sl->aic[e->core] != (pass == 0)))
                continue;
            double x = SL_LEFT + (double)(e->start - L->t0) * L->sx, w = (double)(e->end - e->start) * L->sx;
            char tn[32], kn[2 * RD_NAME_MAX];
            rh_task_name(tn, sizeof(tn), e->task);
            rh_task_kernel(r, kn, sizeof(kn), e->task, sl->aic[e->core]);
            rh_hp(f, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\"><title>%s ", x,
                  L->y[e->core] + 1, w < 0.6 ? 0.6 : w, L->lh - 2, tn);
            rh_esc(f, kn);
            rh_hp(f, " on %s_%d: %.3f–%.3f µs (%.3f µs)%s</title></rect>\n", sl->aic[e->core] ? "AIC" : "AIV",
                  e->core, (double)(e->start - L->t0) * us, (double)(e->end - L->t0) * us,
                  (double)(e->end - e->start) * us,
                  cp        ? ", on the critical path"
                  : mark[i] ? ", a block of a critical task"
                            : "");
        }
        fputs("</g>\n", f);
    }
}

/* The critical path in a lane of its own above the cores: a bar per critical task from its first start to
 * its last end, and connectors along the lane through the waits between them, so no connector crosses a
 * core's lane. Bin mode shades the lane's columns where a critical task ran instead. */
static void swimlane_path_lane(FILE *f, const rep *r, const lanes *L, const long *gate, bool bars,
                               const char *idp)
{
    const rd_swimlane *sl = &r->sl;
    double us = 1e6 / (double)sl->clock_hz, yc = L->cp_y + CP_LANE_H / 2.0;
    if (!bars) {
        unsigned char col[HTMLREP_BINS] = {0};
        double span = (double)(L->t1 - L->t0);
        for (size_t i = 0; i < r->cp.n; i++) {
            const rd_step *s = &r->cp.v[i];
            if (!s->executed)
                continue;
            size_t b0 = (size_t)((double)(s->start - L->t0) / span * HTMLREP_BINS),
                   b1 = (size_t)ceil((double)(s->end - L->t0) / span * HTMLREP_BINS);
            for (size_t b = b0; b < (b1 > b0 ? b1 : b0 + 1) && b < HTMLREP_BINS; b++)
                col[b] = 1;
        }
        rh_hp(f, "<path class=\"cp\" id=\"%scp-lane\" d=\"", idp);
        for (int b = 0; b < HTMLREP_BINS;) {
            if (!col[b]) {
                b++;
                continue;
            }
            int e = b + 1;
            while (e < HTMLREP_BINS && col[e])
                e++;
            rh_hp(f, "M%d %dh%dv%dh-%dz", SL_LEFT + b, L->cp_y + 2, e - b, CP_LANE_H - 4, e - b);
            b = e;
        }
        fputs("\"/>\n", f);
        return;
    }
    rh_hp(f, "<g class=\"cp\" id=\"%scp-lane\">\n", idp);
    for (size_t i = 0, k = 0; i < r->cp.n; i++) {
        const rd_step *s = &r->cp.v[i];
        if (!s->executed)
            continue;
        double x = SL_LEFT + (double)(s->start - L->t0) * L->sx, w = (double)(s->end - s->start) * L->sx;
        char tn[32], kn[3 * RD_NAME_MAX];
        rh_task_name(tn, sizeof(tn), s->task);
        rh_task_kernel(r, kn, sizeof(kn), s->task, -1);
        rh_hp(f, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\"><title>%s ", x, L->cp_y + 2,
              w < 0.6 ? 0.6 : w, CP_LANE_H - 4, tn);
        rh_esc(f, kn);
        rh_hp(f, ": %.3f–%.3f µs (%.3f µs)", (double)(s->start - L->t0) * us, (double)(s->end - L->t0) * us,
              (double)(s->end - s->start) * us);
        long g = gate[k++];
        if (g >= 0)
            rh_hp(f, ", last block on %s_%d", sl->aic[sl->ex[g].core] ? "AIC" : "AIV", sl->ex[g].core);
        fputs("</title></rect>\n", f);
    }
    fputs("</g>\n<g class=\"cpl\">\n", f);
    const rd_step *prev = NULL;
    size_t links = 0;
    for (size_t i = 0; i < r->cp.n && links < SL_MAX_LINKS; i++) {
        const rd_step *s = &r->cp.v[i];
        if (!s->executed)
            continue;
        if (prev && s->start > prev->end) {
            rh_hp(f, "<path d=\"M%.1f %.1fH%.1f\"/>\n", SL_LEFT + (double)(prev->end - L->t0) * L->sx, yc,
                  SL_LEFT + (double)(s->start - L->t0) * L->sx);
            links++;
        }
        prev = s;
    }
    fputs("</g>\n", f);
}

/* Bin mode: per core, how busy each pixel column was, in four shades; critical columns in red. */
static int swimlane_bins(FILE *f, const rep *r, const lanes *L, const unsigned char *mark)
{
    const rd_swimlane *sl = &r->sl;
    size_t nb = (size_t)sl->ncores * HTMLREP_BINS;
    float *busy = calloc(nb, sizeof(*busy));
    unsigned char *cp = calloc(nb, 1);
    if (!busy || !cp) {
        free(busy);
        free(cp);
        return -1;
    }
    double span = (double)(L->t1 - L->t0);
    for (size_t i = 0; i < sl->nex; i++) {
        const rd_exec *e = &sl->ex[i];
        double x0 = (double)(e->start - L->t0) / span * HTMLREP_BINS,
               x1 = (double)(e->end - L->t0) / span * HTMLREP_BINS;
        bool c = mark[i] == 2;
        size_t b0 = (size_t)x0, b1 = (size_t)ceil(x1);
        if (b1 <= b0)
            b1 = b0 + 1;
        for (size_t b = b0; b < b1 && b < HTMLREP_BINS; b++) {
            double lo = x0 > (double)b ? x0 : (double)b, hi = x1 < (double)b + 1 ? x1 : (double)b + 1;
            size_t k = (size_t)e->core * HTMLREP_BINS + b;
            busy[k] += (float)(hi > lo ? hi - lo : 0);
            if (c)
                cp[k] = 1;
        }
    }
    static const char *const shade[5] = {"", "0.3", "0.5", "0.75", "1"};
    for (int c = 0; c < sl->ncores; c++) {
        int y = L->y[c] + 1, h = L->lh - 2;
        for (int lv = 1; lv <= 5; lv++) { /* 1-4 busy shades, 5 = critical */
            bool any = false;
            for (int b = 0; b < HTMLREP_BINS;) {
                size_t k = (size_t)c * HTMLREP_BINS + (size_t)b;
                int l = lv == 5 ? (cp[k] ? 5 : 0) : (busy[k] > 0 ? (int)ceil(busy[k] * 4 - 1e-6) : 0);
                if (l > 4 && lv < 5)
                    l = 4;
                if (l != lv) {
                    b++;
                    continue;
                }
                int e = b + 1;
                while (e < HTMLREP_BINS) {
                    size_t k2 = (size_t)c * HTMLREP_BINS + (size_t)e;
                    int l2 = lv == 5 ? (cp[k2] ? 5 : 0) : (busy[k2] > 0 ? (int)ceil(busy[k2] * 4 - 1e-6) : 0);
                    if (l2 > 4 && lv < 5)
                        l2 = 4;
                    if (l2 != lv)
                        break;
                    e++;
                }
                if (!any) {
                    if (lv == 5)
                        fputs("<path class=\"cp\" d=\"", f);
                    else
                        rh_hp(f, "<path class=\"%s\" fill-opacity=\"%s\" d=\"", sl->aic[c] ? "aic" : "aiv",
                              shade[lv]);
                    any = true;
                }
                rh_hp(f, "M%d %dh%dv%dh-%dz", SL_LEFT + b, y, e - b, h, e - b);
                b = e;
            }
            if (any)
                fputs("\"/>\n", f);
        }
    }
    free(busy);
    free(cp);
    return 0;
}

/* The critical path as a table: the first and last rows when it is long. */
static void path_table(rep *r, uint64_t t0)
{
    FILE *f = r->f;
    double us = 1e6 / (double)r->sl.clock_hz;
    fputs(
        "<details open><summary>Critical path, task by task</summary>\n<table id=\"cp-table\"><tr><th>#</th>"
        "<th class=\"l\">task</th><th class=\"l\">kernel</th><th>start (µs)</th><th>end (µs)</th>"
        "<th>ran (µs)</th><th>wait before (µs)</th></tr>\n",
        f);
    size_t n = r->cp.n, half = HTMLREP_MAX_PATH_ROWS / 2;
    uint64_t prev_end = 0;
    bool have_prev = false;
    for (size_t i = 0; i < n; i++) {
        const rd_step *s = &r->cp.v[i];
        bool shown = n <= HTMLREP_MAX_PATH_ROWS || i < half || i >= n - half;
        if (!shown) {
            if (i == half)
                rh_hp(f, "<tr><td colspan=\"7\" class=\"l\">... %zu more tasks ...</td></tr>\n",
                      n - 2 * half);
        } else {
            char tn[32], kn[3 * RD_NAME_MAX];
            rh_task_name(tn, sizeof(tn), s->task);
            rh_task_kernel(r, kn, sizeof(kn), s->task, -1);
            rh_hp(f, "<tr><td>%zu</td><td class=\"l\">%s</td><td class=\"l\">", i + 1, tn);
            rh_esc(f, kn[0] ? kn : "?");
            if (s->executed) {
                rh_hp(f, "</td><td>%.3f</td><td>%.3f</td><td>%.3f</td>", (double)(s->start - t0) * us,
                      (double)(s->end - t0) * us, (double)(s->end - s->start) * us);
                if (have_prev)
                    rh_hp(f, "<td>%.3f</td>", ((double)s->start - (double)prev_end) * us);
                else
                    fputs("<td></td>", f);
            } else {
                fputs(" (did not run on a core)</td><td></td><td></td><td></td><td></td>", f);
            }
            fputs("</tr>\n", f);
        }
        if (s->executed) {
            prev_end = s->end;
            have_prev = true;
        }
    }
    fputs("</table></details>\n", f);
}

/* Where the axis starts: the launch (sys_cnt_origin_ticks), so the axis ends at the makespan; the first
 * start when the records have no origin. */
static uint64_t swimlane_t0(const rep *r)
{
    const rd_swimlane *sl = &r->sl;
    uint64_t lo = UINT64_MAX;
    for (size_t i = 0; i < sl->nex; i++)
        if (sl->ex[i].start < lo)
            lo = sl->ex[i].start;
    return r->run.origin_ticks && r->run.origin_ticks <= lo ? r->run.origin_ticks : lo;
}

int rh_swimlane_chart(rep *r, double span_us, const char *idp)
{
    FILE *f = r->f;
    const rd_swimlane *sl = &r->sl;
    lanes L = {0};
    /* every lane keeps room for its 9 px label, so a 72-core chip is 792 px of lanes */
    L.lh = sl->ncores <= 16 ? 18 : sl->ncores <= 32 ? 14 : SL_MIN_LANE_H;
    L.cp_y = -1;
    L.y = malloc((size_t)sl->ncores * sizeof(*L.y));
    if (!L.y)
        return -1;
    int y = SL_TOP;
    if (r->cp.n) {
        L.cp_y = y;
        y += CP_LANE_H + 6;
    }
    for (int c = 0; c < sl->ncores; c++) {
        if (c && sl->aic[c] != sl->aic[c - 1])
            y += 6;
        L.y[c] = y;
        y += L.lh;
    }
    L.bottom = y;
    uint64_t hi = 0;
    for (size_t i = 0; i < sl->nex; i++)
        if (sl->ex[i].end > hi)
            hi = sl->ex[i].end;
    L.t0 = swimlane_t0(r);
    if (span_us <= 0)
        span_us = r->run.makespan_us;
    uint64_t mk = L.t0 + (uint64_t)llround(span_us * (double)sl->clock_hz / 1e6);
    L.t1 = mk > hi ? mk : hi;
    if (L.t1 <= L.t0)
        L.t1 = L.t0 + 1;
    L.sx = (double)HTMLREP_BINS / (double)(L.t1 - L.t0);

    unsigned char *mark = NULL;
    long *gate = NULL;
    size_t ngate = 0;
    if (mark_critical(r, &mark, &gate, &ngate) != 0) {
        free(mark);
        free(gate);
        free(L.y);
        return -1;
    }
    bool bars = sl->nex <= HTMLREP_MAX_BARS;
    int h = L.bottom + 44;
    rh_hp(f,
          "<svg id=\"%sswimlane-chart\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
          "aria-label=\"swimlane: executions per core over time\" data-mode=\"%s\">\n",
          idp, SL_W, h, SL_W, h, bars ? "bars" : "bins");
    /* legend */
    int lx = SL_LEFT;
    rh_hp(f,
          "<rect class=\"aic\" x=\"%d\" y=\"8\" width=\"14\" height=\"10\"/><text x=\"%d\" y=\"17\">AIC "
          "(cube)</text>",
          lx, lx + 18);
    lx += 100;
    rh_hp(f,
          "<rect class=\"aiv\" x=\"%d\" y=\"8\" width=\"14\" height=\"10\"/><text x=\"%d\" y=\"17\">AIV "
          "(vector)</text>",
          lx, lx + 18);
    lx += 110;
    if (r->cp.n) {
        rh_hp(f,
              "<rect class=\"cp\" x=\"%d\" y=\"8\" width=\"14\" height=\"10\"/><text x=\"%d\" "
              "y=\"17\">critical path</text>",
              lx, lx + 18);
        lx += 120;
    }
    if (!bars) {
        static const char *const sh[4] = {"0.3", "0.5", "0.75", "1"};
        rh_hp(f, "<text x=\"%d\" y=\"17\">busy share of a column:</text>", lx);
        lx += 150;
        for (int i = 0; i < 4; i++, lx += 52)
            rh_hp(f,
                  "<rect class=\"aic\" fill-opacity=\"%s\" x=\"%d\" y=\"8\" width=\"14\" height=\"10\"/>"
                  "<text x=\"%d\" y=\"17\">%d%%</text>",
                  sh[i], lx, lx + 18, 25 * (i + 1));
    }
    fputc('\n', f);
    swimlane_lanes(f, r, &L, idp);
    swimlane_axis(f, r, &L);
    if (bars)
        swimlane_bars(f, r, &L, mark);
    else if (swimlane_bins(f, r, &L, mark) != 0)
        fputs("<text x=\"100\" y=\"60\">out of memory</text>", f);
    if (L.cp_y >= 0)
        swimlane_path_lane(f, r, &L, gate, bars, idp);
    rh_hp(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n</svg>\n", SL_LEFT,
          L.bottom + 2, SL_LEFT + HTMLREP_BINS, L.bottom + 2);
    free(mark);
    free(gate);
    free(L.y);
    return 0;
}

void rh_section_swimlane(rep *r)
{
    FILE *f = r->f;
    const rd_swimlane *sl = &r->sl;
    fputs("<section id=\"swimlane\">\n<h2>Swimlane</h2>\n", f);
    if (r->sl_rc != RD_OK) {
        rh_hp(f,
              "<p class=\"note\">No swimlane: <code>%schip_swimlane_records.json</code> is absent (run with "
              "<code>--enable-chip-swimlane</code>).</p>\n",
              r->dfx_rel);
        fputs("</section>\n", f);
        return;
    }
    if (!sl->nex || !sl->ncores) {
        rh_note(f, "The swimlane file holds no AICore executions (the run ended before any task ran).");
        fputs("</section>\n", f);
        return;
    }
    uint64_t t0 = swimlane_t0(r);
    bool bars = sl->nex <= HTMLREP_MAX_BARS;
    double us = 1e6 / (double)sl->clock_hz;

    rh_hp(f, "<p class=\"sub\">%zu AICore executions on %d cores (level %d records). ", sl->nex, sl->ncores,
          sl->level);
    if (bars)
        fputs("Each bar is one execution, from kernel start to end; hover for its task and times.</p>\n", f);
    else
        rh_hp(f,
              "Too many to draw one by one (more than %d): each core's time line is cut into %d columns, "
              "each shaded by the share of it the core was busy (4 shades); columns where a critical task's "
              "last execution ran are red.</p>\n",
              HTMLREP_MAX_BARS, HTMLREP_BINS);
    if (r->deps_rc != RD_OK)
        rh_hp(f,
              "<p class=\"note\">No <code>%sdeps.json</code> (run with <code>--enable-dep-gen</code>): the "
              "critical path is not highlighted.</p>\n",
              r->dfx_rel);
    else if (r->cp.n) {
        double ran = 0;
        uint64_t first = 0, last = 0;
        bool seen = false;
        for (size_t i = 0; i < r->cp.n; i++)
            if (r->cp.v[i].executed) {
                ran += (double)(r->cp.v[i].end - r->cp.v[i].start) * us;
                first = seen ? first : r->cp.v[i].start;
                last = r->cp.v[i].end;
                seen = true;
            }
        char a[32], b[32];
        rh_task_name(a, sizeof(a), r->cp.v[0].task);
        rh_task_name(b, sizeof(b), r->cp.v[r->cp.n - 1].task);
        double span = (double)(last - first) * us;
        rh_hp(
            f,
            "<p id=\"cp-summary\">Critical path (red): <b>%zu tasks</b>, %s to %s, walked back from the "
            "task that finished last through the predecessor that finished last (deps.json edges). It has a "
            "lane of its own above the cores: a bar per task from its first start to its last end, joined "
            "through the waits between them. In a core's lane a red bar is a critical task's last execution "
            "(of an SPMD or MIX task, the block its successor waited on). It starts at %.3f µs; in the %.3f "
            "µs from there to its end its tasks ran %.3f µs "
            "(%.1f%%), the rest is waiting between them.</p>\n",
            r->cp.n, a, b, (double)(first - t0) * us, span, ran, span > 0 ? 100 * ran / span : 0);
    }
    if (rh_swimlane_chart(r, 0, "") != 0)
        rh_note(f, "Out of memory drawing the swimlane.");
    else if (r->cp.n)
        path_table(r, t0);
    fputs("</section>\n", f);
}
