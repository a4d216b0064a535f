/* report_html_dump.c - rh_: the report page's args-dump section (what the dump cost a run). */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "report_html_draw.h"
#include "report_html_dump.h"

/* ------------------------------------------------------------------ */
/* Args dump                                                           */
/* ------------------------------------------------------------------ */

/* What bounded the dump in time, as bars from launch: the watchdog's deadline (when one fired), how long
 * the collector needs for what the device produced, when the host finished, how long the threads froze. */
static void dump_time_svg(FILE *f, const rd_run *run)
{
    const rd_dump *d = &run->dump;
    typedef struct {
        const char *name, *fill;
        double us;
    } bar;
    bar row[4];
    int n = 0;
    bool stars = strcmp(run->dev_watchdog, "stars_op_execute") == 0;
    if (run->dev_error && stars && run->stars_deadline_us > 0)
        row[n++] = (bar){"STARS deadline", COL_CP, run->stars_deadline_us};
    else if (run->dev_error && run->stream_sync_ms > 0)
        row[n++] = (bar){"stream sync timeout", COL_CP, run->stream_sync_ms * 1e3};
    if (d->drain_bps > 0)
        row[n++] =
            (bar){"drain needs (produced / rate)", "#8e5cc2", (double)d->payload_bytes / d->drain_bps * 1e6};
    if (d->host_done_us > 0)
        row[n++] = (bar){"host finished args.bin", "#7f7f7f", d->host_done_us};
    row[n++] = (bar){"scheduler threads frozen", COL_AIV, d->frozen_us};
    double top = 0;
    for (int i = 0; i < n; i++)
        top = row[i].us > top ? row[i].us : top;
    const int x0 = 200, bw = 320, w = 620;
    int h = 8 + 26 * n;
    rh_hp(f,
          "<svg id=\"dump-chart\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
          "aria-label=\"args dump: deadline, drain and freeze from launch\">\n",
          w, h, w, h);
    for (int i = 0; i < n; i++) {
        char t[32];
        rh_fmt_time(t, sizeof(t), row[i].us);
        int y = 8 + i * 26;
        double bwid = top > 0 ? row[i].us / top * bw : 0;
        rh_hp(f,
              "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text><rect x=\"%d\" y=\"%d\" width=\"%d\" "
              "height=\"16\" fill=\"#eef0f3\"/><rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"16\" "
              "fill=\"%s\"/><text x=\"%d\" y=\"%d\">%s</text>\n",
              x0 - 8, y + 12, row[i].name, x0, y, bw, x0, y, bwid, row[i].fill, x0 + bw + 8, y + 12, t);
    }
    fputs("</svg>\n", f);
}

/* The args dump (ptosim_run.json args_dump): what the device produced and the host drained, the parks,
 * and the kill when a watchdog fired. */
void rh_section_dump(rep *r)
{
    FILE *f = r->f;
    const rd_run *run = &r->run;
    const rd_dump *d = &run->dump;
    char a[64], b[64], c[64], t[64], msg[1024];
    fputs("<section id=\"dump\">\n<h2>Args dump</h2>\n", f);
    rh_fmt_bytes(a, sizeof(a), (double)d->arena);
    rh_fmt_dec_bytes(b, sizeof(b), d->drain_bps);
    rh_hp(f,
          "<p class=\"sub\">Level %d: %" PRIu64 " task%s dumped, %" PRIu64
          " records. Each scheduler thread copies payloads into its %s arena; the host's collector drains "
          "them at %s/s. A thread whose next payload would wrap its arena parks until the host has "
          "written what it published, and every scheduler thread freezes with it "
          "(model/README.md §14.2).</p>\n",
          d->level, d->tasks, d->tasks == 1 ? "" : "s", d->records, a, b);
    if (run->dev_error) {
        rh_fmt_time(t, sizeof(t), run->dev_at_us);
        bool stars = strcmp(run->dev_watchdog, "stars_op_execute") == 0;
        fputs("<div class=\"banner\" id=\"dump-kill\"><b class=\"bad\">", f);
        if (stars && run->stars_deadline_us > 0) {
            rh_fmt_time(a, sizeof(a), run->op_timeout_us);
            rh_fmt_time(b, sizeof(b), run->stars_deadline_us);
            rh_hp(
                f,
                "Killed by STARS at %s</b>: the op-execute timeout of %s requested rounds up to %.0f credit%s "
                "= "
                "%s",
                t, a, run->stars_credits, run->stars_credits == 1 ? "" : "s", b);
        } else {
            rh_hp(f, "Killed at %s</b> by the %s watchdog", t,
                  run->dev_watchdog[0] ? run->dev_watchdog : "device");
        }
        fputs(d->killed_parked ? ", while the scheduler threads were parked waiting for the host." : ".", f);
        if (d->reconciled)
            rh_hp(f, " The host recovered %d thread%s' un-flushed buffer%s.", d->reconciled,
                  d->reconciled == 1 ? "" : "s", d->reconciled == 1 ? "" : "s");
        fputs("</div>\n", f);
    }
    fputs("<div class=\"cards\">\n", f);
    rh_fmt_dec_bytes(a, sizeof(a), (double)d->payload_bytes);
    snprintf(msg, sizeof(msg), "%" PRIu64 " bytes copied into the arenas", d->payload_bytes);
    rh_card(f, "produced", NULL, a, msg);
    rh_fmt_dec_bytes(a, sizeof(a), (double)d->written_at_end);
    rh_card(f, run->dev_error ? "drained by the kill" : "drained by the device's end", NULL, a,
            "written to args.bin by the host");
    rh_fmt_dec_bytes(a, sizeof(a), (double)d->deficit);
    rh_card(f, "deficit", d->deficit ? "bad" : NULL, a, "produced, not yet drained");
    rh_fmt_time(a, sizeof(a), d->frozen_us);
    snprintf(msg, sizeof(msg), "%.1f%% of the run: no dispatch, no completion",
             run->makespan_us > 0 ? 100 * d->frozen_us / run->makespan_us : 0);
    rh_card(f, "threads frozen", NULL, a, msg);
    if (d->host_done_us > 0) {
        rh_fmt_time(a, sizeof(a), d->host_done_us);
        rh_fmt_dec_bytes(b, sizeof(b), (double)d->written);
        snprintf(msg, sizeof(msg), "%s in all", b);
        rh_card(f, "host finished args.bin", NULL, a, msg);
    }
    snprintf(a, sizeof(a), "%" PRIu64 " / %" PRIu64, d->truncated, d->dropped);
    rh_card(f, "truncated / dropped", d->dropped ? "bad" : NULL, a,
            "args cut at half the arena / records lost");
    fputs("</div>\n<h3>From launch</h3>\n", f);
    dump_time_svg(f, run);
    if (d->drain_bps > 0) {
        double need_us = (double)d->payload_bytes / d->drain_bps * 1e6;
        rh_fmt_dec_bytes(a, sizeof(a), d->drain_bps);
        rh_fmt_time(b, sizeof(b), need_us);
        rh_fmt_dec_bytes(c, sizeof(c), (double)d->payload_bytes);
        if (run->dev_error) {
            char cap[64];
            rh_fmt_time(t, sizeof(t), run->dev_at_us);
            rh_fmt_dec_bytes(cap, sizeof(cap), d->drain_bps * run->dev_at_us / 1e6);
            snprintf(
                msg, sizeof(msg),
                "At %s/s the collector needs %s for the %s the device produced; in the %s before the kill it "
                "could write at most %s/s × %s = %s.",
                a, b, c, t, a, t, cap);
        } else {
            snprintf(msg, sizeof(msg), "At %s/s the collector needs %s for the %s the device produced.", a, b,
                     c);
        }
        rh_hp(f, "<p id=\"dump-why\">%s</p>\n", msg);
    }
    fputs("<table id=\"dump-threads\"><tr><th>thread</th><th>payload</th><th>parks</th><th>parked</th>"
          "<th>share of the run</th></tr>\n",
          f);
    for (int i = 0; i < d->nthreads; i++) {
        const rd_dump_thread *th = &d->th[i];
        rh_fmt_dec_bytes(a, sizeof(a), (double)th->bytes);
        rh_fmt_time(b, sizeof(b), th->parked_us);
        rh_hp(f, "<tr><td>%d</td><td>%s</td><td>%" PRIu64 "</td><td>%s</td><td>%.1f%%</td></tr>\n", i, a,
              th->parks, b, run->makespan_us > 0 ? 100 * th->parked_us / run->makespan_us : 0);
    }
    fputs("</table>\n</section>\n", f);
}
