/* report_html_draw.h - rh_: the report page's state, colours, chart layout and the drawing it all shares. */
/* Only sim/report/report_html*.c include it. report_html.c (the page) calls the sections, each of which draws
 * with report_html_draw.c and reads report_data.h only: no section calls the page or another section, and
 * report_html_draw.c calls none of them. Its functions carry rh_ (they link with the whole program); its
 * types and layout macros are short. */
#ifndef PTOSIM_REPORT_HTML_DRAW_H
#define PTOSIM_REPORT_HTML_DRAW_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report_data.h"

/* Colours: core types as deps_viewer draws them (AIC blue, AIV orange), the
 * critical path red, rings and sweep groups from a qualitative palette. */
#define COL_AIC "#3b78c2"
#define COL_AIV "#f08a24"
#define COL_CP "#d62728"
static const char *const RING_COL[RD_RINGS] = {"#2e9e4f", "#8e5cc2", "#8c564b", "#d64fa6"};
/* Small line charts (rings, sweep). */
#define CH_W 540
#define CH_LEFT 72
#define CH_RIGHT 18
#define CH_TOP 22
#define CH_PLOT_H 190
#define CH_BOTTOM 52
#define CH_PLOT_W (CH_W - CH_LEFT - CH_RIGHT)
#define CH_H (CH_TOP + CH_PLOT_H + CH_BOTTOM)

typedef struct rep {
    const char *dir; /* as given */
    FILE *f;         /* the page being written */
    bool has_run;    /* ptosim_run.json read */
    rd_run run;
    int sl_rc; /* RD_OK or RD_ABSENT */
    rd_swimlane sl;
    int deps_rc;
    rd_deps deps;
    rd_task *by_id; /* deps tasks sorted by id */
    rd_path cp;     /* critical path (n = 0 without deps.json) */
    int sc_rc;
    rd_scopes sc;
    int pmu_rc;
    rd_pmu pmu;
    bool has_sweep;
    rd_sweep sw;
    bool has_whatif; /* whatif.json read (`ptosim whatif -o`) */
    rd_whatif wi;
    bool capture;          /* a runtime capture: the runtime's own files, no ptosim_run.json (run holds what
                            * the page derives from them) */
    char dfx[PATH_MAX];    /* the folder of the DFX files: DIR/dfx_outputs, or DIR for a capture without one */
    const char *dfx_rel;   /* how the page names that folder: "dfx_outputs/" or "" */
    bool cap_namemap;      /* a capture's name_map_*.json was read (kernel names) */
    bool cap_args;         /* a capture's args_dump/ folder is there */
    uint64_t cap_tasks;    /* distinct tasks among the swimlane's executions */
    int cap_cores[2];      /* AIC and AIV cores in the swimlane's metadata */
    size_t cap_unmatched;  /* aicpu_tasks rows the overhead model could not join */
    const char *cap_no_oh; /* why a capture has no overhead model (NULL: it has one) */
} rep;

/* A value axis mapped onto pixels [p0, p1] (p1 < p0 for a y axis). */
typedef struct axis {
    double lo, hi; /* values at p0 and p1 (log2 of them when log) */
    double p0, p1;
    bool log; /* log2 scale */
} axis;

/* ---- report_html_draw.c: the one path strings from the inputs take to the page, and shared drawing ---- */

/* Writes s with HTML's five special characters escaped (text, and double-quoted attribute values). */
void rh_esc(FILE *f, const char *s);

/* fprintf for the page: the format written as it is (the page's own markup), every %s argument through
 * rh_esc(). */
void rh_hp(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Writes s as a relative URL inside a double-quoted href: true when s is one, false writing nothing. */
bool rh_url_rel(FILE *f, const char *s);

/* Number formats: a plain number with at most dec decimals; bytes in binary units; bytes in decimal units;
 * a time given in µs in the unit that reads best. */
void rh_fmt_num(char *b, size_t n, double v, int dec);
void rh_fmt_bytes(char *b, size_t n, double v);
void rh_fmt_dec_bytes(char *b, size_t n, double v);
void rh_fmt_time(char *b, size_t n, double us);

/* Time axis unit (divisor and name) for a span in microseconds. */
void rh_time_unit(double span_us, double *div, const char **name);

/* Did the args dump freeze the scheduler threads for most of the run (the host's collector bounds it)? */
bool rh_dump_bound(const rd_run *run);

/* Appends the len bytes at s to b (n bytes) from *m on, as snprintf(b + *m, *m < n ? n - *m : 0, "%s", s)
 * does: cut to fit, NUL-ended; *m grows by len whatever fits. */
void rh_put_cut(char *b, size_t n, size_t *m, const char *s, size_t len);

/* Names: the runtime tools' task name (t<local>, r<ring>t<local>); a func id's kernel label; the kernel a
 * task ran on a core type (core_aic < 0: every active kernel joined with '+'). */
void rh_task_name(char *b, size_t n, uint64_t id);
void rh_func_label(const rep *r, char *b, size_t n, int func);
void rh_task_kernel(const rep *r, char *b, size_t n, uint64_t id, int core_aic);

/* A summary card: key, value (cls: its CSS class, NULL none) and an optional detail line. */
void rh_card(FILE *f, const char *key, const char *cls, const char *value, const char *detail);

/* A note of something the page cannot show: html is the page's own markup (a literal); rh_note_text escapes
 * text formatted from the inputs. */
void rh_note(FILE *f, const char *html);
void rh_note_text(FILE *f, const char *text);

/* Axes: a value's pixel; a step of 1, 2 or 5 times a power of ten, about span/target; the decimals a step
 * needs; a linear y axis's grid lines and labels (fmt 'b': bytes). */
double rh_ax_px(const axis *a, double v);
double rh_nice_step(double span, int target);
int rh_step_decimals(double step);
void rh_y_ticks(FILE *f, const axis *a, double step, int x0, int x1, char fmt);

#endif
