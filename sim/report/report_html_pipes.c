/* report_html_pipes.c - rh_: the report page's pipes section: a per-kernel pipe heatmap, PMU counters. */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_html_draw.h"
#include "report_html_pipes.h"

/* ------------------------------------------------------------------ */
/* Pipes                                                               */
/* ------------------------------------------------------------------ */

static const rd_kernel *g_sort_k;
static int cmp_kernel_time(const void *a, const void *b)
{
    const rd_kernel *x = &g_sort_k[*(const int *)a], *y = &g_sort_k[*(const int *)b];
    if (x->core_time_us != y->core_time_us)
        return x->core_time_us > y->core_time_us ? -1 : 1;
    return x->func_id < y->func_id ? -1 : x->func_id > y->func_id;
}

/* A heat map: a row per pipe-model kernel (most time on cores first), a column per pipe. */
static void pipes_heatmap(rep *r)
{
    FILE *f = r->f;
    const rd_run *run = &r->run;
    int *idx = malloc((size_t)run->nkernels * sizeof(*idx)), n = 0;
    if (!idx)
        return;
    double tmax = 0;
    for (int i = 0; i < run->nkernels; i++)
        if (run->kernels[i].has_pipes) {
            idx[n++] = i;
            if (run->kernels[i].core_time_us > tmax)
                tmax = run->kernels[i].core_time_us;
        }
    g_sort_k = run->kernels;
    qsort(idx, (size_t)n, sizeof(*idx), cmp_kernel_time);
    const int name_w = 190, bar_w = 150, cw = 72, rh = 24, top = 40, x0 = name_w + bar_w + 20;
    int w = x0 + PIPE_COUNT * cw + 10, h = top + n * rh + 10;
    rh_hp(f,
          "<svg id=\"pipes-chart\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
          "aria-label=\"pipe busy fraction per kernel\">\n",
          w, h, w, h);
    rh_hp(f, "<text class=\"title\" x=\"8\" y=\"%d\">kernel</text>", top - 10);
    rh_hp(f, "<text class=\"title\" x=\"%d\" y=\"%d\">time on cores (µs)</text>", name_w + 10, top - 10);
    for (int p = 0; p < PIPE_COUNT; p++)
        rh_hp(f, "<text class=\"title\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>",
              x0 + p * cw + cw / 2, top - 10, pipe_name((pipe_id)p));
    fputc('\n', f);
    for (int i = 0; i < n; i++) {
        const rd_kernel *k = &run->kernels[idx[i]];
        int y = top + i * rh;
        bool bn = run->bottleneck && strcmp(k->name, run->bn_kernel) == 0;
        rh_hp(f, "<g class=\"krow\" data-kernel=\"");
        rh_esc(f, k->name);
        rh_hp(f, "\"><rect x=\"0\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>", y,
              x0 + PIPE_COUNT * cw, rh, bn ? "#fff4d6" : (i % 2 ? "#fafafa" : "#ffffff"));
        rh_hp(f, "<rect class=\"%s\" x=\"8\" y=\"%d\" width=\"8\" height=\"%d\"/>", k->aic ? "aic" : "aiv",
              y + 5, rh - 10);
        char nm[RD_NAME_MAX + 8];
        snprintf(nm, sizeof(nm), "%.24s%s", k->name, strlen(k->name) > 24 ? "..." : "");
        rh_hp(f, "<text x=\"22\" y=\"%d\">", y + 16);
        rh_esc(f, nm);
        rh_hp(f, "%s</text>", bn ? " *" : "");
        double bw = tmax > 0 ? k->core_time_us / tmax * (bar_w - 60) : 0;
        rh_hp(f,
              "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#9aa7b5\"/><text x=\"%.1f\" "
              "y=\"%d\">%.1f</text>",
              name_w + 10, y + 6, bw, rh - 12, name_w + 14 + bw, y + 16, k->core_time_us);
        for (int p = 0; p < PIPE_COUNT; p++) {
            int x = x0 + p * cw;
            double v = k->pipe[p];
            if (v < 0) {
                rh_hp(f,
                      "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#f0f0f0\"/><text x=\"%d\" "
                      "y=\"%d\" text-anchor=\"middle\" fill=\"#aaa\">-</text>",
                      x + 1, y + 1, cw - 2, rh - 2, x + cw / 2, y + 16);
                continue;
            }
            double t = v > 1 ? 1 : v;
            /* white to deep red */
            int cr = (int)lround(255 - t * (255 - 183)), cg = (int)lround(255 - t * (255 - 28)),
                cb = (int)lround(255 - t * (255 - 28));
            bool busiest = p == k->busiest;
            rh_hp(
                f,
                "<rect class=\"cell%s\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"rgb(%d,%d,%d)\"",
                busiest ? " busiest" : "", x + 1, y + 1, cw - 2, rh - 2, cr, cg, cb);
            fputs(busiest ? " stroke=\"#111\" stroke-width=\"2\"/>" : "/>", f);
            rh_hp(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\"", x + cw / 2, y + 16);
            fputs(t > 0.55 ? " style=\"fill:#fff\">" : ">", f);
            rh_hp(f, "%.0f%%</text>", 100 * v);
        }
        fputs("</g>\n", f);
    }
    fputs("</svg>\n", f);
    free(idx);
}

static const char *pmu_group_name(int t)
{
    switch (t) {
    case 1:
        return "ARITHMETIC_UTILIZATION";
    case 2:
        return "PIPE_UTILIZATION";
    case 4:
        return "MEMORY";
    case 5:
        return "MEMORY_L0";
    case 6:
        return "RESOURCE_CONFLICT";
    case 7:
        return "MEMORY_UB";
    case 8:
        return "L2_CACHE";
    default:
        return "unknown group";
    }
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* pmu.csv per kernel: cycle counters as a share of the kernel window, other counters summed. */
static void pmu_table(rep *r)
{
    FILE *f = r->f;
    const rd_pmu *pm = &r->pmu;
    rh_hp(
        f,
        "<h3>PMU counters per kernel (pmu.csv, event group %d %s, %" PRIu64 " rows)</h3>\n<p "
        "class=\"sub\">Counters ending in <code>_cycles</code> as a share of <code>pmu_total_cycles</code>; "
        "the others summed over the kernel's executions.</p>\n<table id=\"pmu-table\"><tr><th "
        "class=\"l\">kernel</th><th class=\"l\">core</th><th>rows</th><th>mean total cycles</th>",
        pm->event_type, pmu_group_name(pm->event_type), pm->rows);
    for (int c = 0; c < pm->ncounters; c++) { /* let long counter names wrap at their underscores */
        fputs("<th>", f);
        for (const char *q = pm->counter_name[c]; *q; q++) {
            char one[2] = {*q, 0};
            rh_esc(f, one);
            if (*q == '_')
                fputs("<wbr>", f);
        }
        fputs("</th>", f);
    }
    fputs("</tr>\n", f);
    for (int i = 0; i < pm->nfuncs; i++) {
        const rd_pmu_func *pf = &pm->funcs[i];
        char nm[RD_NAME_MAX];
        rh_func_label(r, nm, sizeof(nm), (int)pf->func_id);
        fputs("<tr><td class=\"l\">", f);
        rh_esc(f, nm);
        rh_hp(f, "</td><td class=\"l\">%s</td><td>%" PRIu64 "</td><td>%.0f</td>",
              pf->core_type ? "AIV" : "AIC", pf->rows,
              pf->rows ? (double)pf->total_cycles / (double)pf->rows : 0);
        for (int c = 0; c < pm->ncounters; c++) {
            if (ends_with(pm->counter_name[c], "_cycles")) {
                double v = pf->total_cycles ? (double)pf->counter[c] / (double)pf->total_cycles : 0;
                rh_hp(f, "<td style=\"background:rgba(183,28,28,%.2f)\">%.1f%%</td>", v > 1 ? 0.6 : v * 0.6,
                      100 * v);
            } else {
                rh_hp(f, "<td>%" PRIu64 "</td>", pf->counter[c]);
            }
        }
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
}

void rh_section_pipes(rep *r)
{
    FILE *f = r->f;
    const rd_run *run = &r->run;
    fputs("<section id=\"pipes\">\n<h2>Pipes</h2>\n", f);
    if (r->capture) {
        rh_note(f, "A capture has no kernel cost model, so no pipe busy fractions: only the PMU counters the "
                "runtime read.");
        if (r->pmu_rc == RD_OK)
            pmu_table(r);
        else
            rh_note(f,
                    "No <code>pmu.csv</code> (the runtime writes it with <code>--enable-pmu</code>): no PMU "
                    "counters.");
        fputs("</section>\n", f);
        return;
    }
    int npipes = 0;
    for (int i = 0; i < run->nkernels; i++)
        npipes += run->kernels[i].has_pipes;
    if (npipes) {
        fputs("<p class=\"sub\">Busy fraction of each pipe over each kernel's executions (ptosim_run.json "
              "<code>kernels</code>); the busiest pipe of each kernel is outlined",
              f);
        if (run->bottleneck) {
            /* a run that did not finish, or that the dump collector bounded, has no pipe bottleneck */
            bool named = strcmp(run->status, "ok") == 0 && !rh_dump_bound(run);
            fputs(named ? "; the run's bottleneck"
                        : "; the busiest pipe of the kernel with the most time on cores",
                  f);
            rh_hp(f, " (*) is the <b>%s</b> pipe of <b>", run->bn_pipe);
            rh_esc(f, run->bn_kernel);
            rh_hp(f, "</b>, busy %.1f%% of its time on cores", 100 * run->bn_fraction);
        }
        fputs(".</p>\n", f);
        pipes_heatmap(r);
    } else {
        rh_note(f, "No kernel has a pipe cost model (flat costs only), so there are no pipe busy fractions.");
    }
    if (npipes < run->nkernels) {
        fputs("<p class=\"note\">Kernels with a flat cost (no pipe model): ", f);
        for (int i = 0, k = 0; i < run->nkernels; i++)
            if (!run->kernels[i].has_pipes) {
                fputs(k++ ? ", " : "", f);
                rh_esc(f, run->kernels[i].name);
            }
        fputs(".</p>\n", f);
    }
    if (r->pmu_rc == RD_OK)
        pmu_table(r);
    else
        rh_note(f,
                "No <code>dfx_outputs/pmu.csv</code> (run with <code>--enable-pmu</code>): no PMU counters.");
    fputs("</section>\n", f);
}
