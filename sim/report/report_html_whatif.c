/* report_html_whatif.c - rh_: the "What would pay" section: each lever's gain as a bar, and its flags. */
#include <stdio.h>
#include <string.h>

#include "report_html_whatif.h"

/* Chart layout: a row per lever, its name left of the bar, the gain right of it. */
#define WI_W 1000
#define WI_LABEL 330 /* the lever names' column */
#define WI_VALUE 150 /* room right of the longest bar for its figure */
#define WI_ROW 22
#define WI_TOP 8
#define WI_BAR (WI_W - WI_LABEL - WI_VALUE)

static double pct(const rd_whatif *w, double us)
{
    return w->baseline_us > 0 ? 100 * us / w->baseline_us : 0;
}

static void chart(FILE *f, const rd_whatif *w)
{
    double top = 0;
    for (int i = 0; i < w->n; i++)
        if (w->v[i].ran && w->v[i].gain_us > top)
            top = w->v[i].gain_us;
    int h = WI_TOP + w->n * WI_ROW + 8;
    fprintf(f,
            "<svg id=\"whatif-chart\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
            "aria-label=\"makespan gain per lever\">\n",
            WI_W, h, WI_W, h);
    fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", WI_LABEL, WI_TOP, WI_LABEL,
            h - 8);
    for (int i = 0; i < w->n; i++) {
        const rd_lever *l = &w->v[i];
        int y = WI_TOP + i * WI_ROW;
        char name[80];
        size_t k = strlen(l->lever);
        if (k >= sizeof(name)) { /* cut at a character's start; the table has it whole */
            k = sizeof(name) - 4;
            while (k > 0 && ((unsigned char)l->lever[k] & 0xC0) == 0x80)
                k--;
            memcpy(name, l->lever, k);
            memcpy(name + k, "...", 4);
        } else
            memcpy(name, l->lever, k + 1);
        rh_hp(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>", WI_LABEL - 6, y + 15, name);
        if (!l->ran) {
            fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"" COL_CP "\">run failed</text>\n", WI_LABEL + 6,
                    y + 15);
            continue;
        }
        double wpx = top > 0 && l->gain_us > 0 ? l->gain_us / top * WI_BAR : 0;
        if (wpx > 0)
            fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#2e9e4f\"/>", WI_LABEL,
                    y + 4, wpx, WI_ROW - 7);
        fprintf(f, "<text x=\"%.1f\" y=\"%d\"%s>%.3f us (%.1f%%)</text>\n", WI_LABEL + wpx + 6, y + 15,
                l->gain_us < 0 ? " fill=\"" COL_CP "\"" : "", l->gain_us, pct(w, l->gain_us));
    }
    fputs("</svg>\n", f);
}

void rh_section_whatif(rep *r)
{
    FILE *f = r->f;
    const rd_whatif *w = &r->wi;
    fputs("<section id=\"whatif\">\n<h2>What would pay</h2>\n", f);
    rh_hp(f,
          "<p class=\"sub\" id=\"whatif-sub\">Each lever simulated on its own by <code>ptosim whatif</code> "
          "(whatif.json): %s on %s, baseline makespan %.3f us. A lever's gain is the baseline's makespan "
          "minus its own; each row is <code>ptosim run GRAPH [the run options given] FLAGS</code>.</p>\n",
          w->graph, w->platform, w->baseline_us);
    if (r->has_run && (strcmp(r->run.graph, w->graph) != 0 || r->run.makespan_us != w->baseline_us))
        rh_note_text(f,
                     "whatif.json ranks another run than ptosim_run.json's (its graph or baseline makespan "
                     "differs): the two files were not written together.");
    if (!w->n) {
        rh_note(f, "No lever was run.");
        fputs("</section>\n", f);
        return;
    }
    chart(f, w);
    fputs("<table id=\"whatif-table\"><tr><th>#</th><th class=\"l\">lever</th><th>makespan us</th><th>gain "
          "us</th><th>gain</th><th class=\"l\">ptosim run flags</th></tr>\n",
          f);
    for (int i = 0; i < w->n; i++) {
        const rd_lever *l = &w->v[i];
        rh_hp(f, "<tr><td>%d</td><td class=\"l\">%s</td>", i + 1, l->lever);
        if (l->ran)
            fprintf(f, "<td>%.3f</td><td>%.3f</td><td>%.1f%%</td>", l->makespan_us, l->gain_us,
                    pct(w, l->gain_us));
        else
            rh_hp(f, "<td colspan=\"3\" class=\"bad\">failed: %s</td>", l->failed);
        rh_hp(f, "<td class=\"l\"><code>%s</code></td></tr>\n", l->flags);
    }
    fputs("</table>\n</section>\n", f);
}
