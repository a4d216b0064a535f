/* report_html.c - htmlrep_: `ptosim report DIR`, one self-contained HTML page of a run or a sweep. */
/* Summary, swimlane with the critical path, ring occupancy, pipes and sweep curves. */
#include "report_html.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cJSON.h>

#include "../model/outfile.h"
#include "../model/readall.h"
#include "../model/report.h"
#include "../model/rterr.h"
#include "../model/vec.h"
#include "../model/workdir.h"
#include "cli.h"
#include "overhead.h"
#include "report_data.h"

/* Colours: core types as deps_viewer draws them (AIC blue, AIV orange), the
 * critical path red, rings and sweep groups from a qualitative palette. */
#define COL_AIC "#3b78c2"
#define COL_AIV "#f08a24"
#define COL_CP "#d62728"
static const char *const RING_COL[RD_RINGS] = {"#2e9e4f", "#8e5cc2", "#8c564b", "#d64fa6"};
static const char *const GROUP_COL[] = {"#3b78c2", "#d62728", "#2e9e4f", "#8e5cc2",
                                        "#f08a24", "#17becf", "#8c564b", "#7f7f7f"};
#define NGROUP_COL (sizeof(GROUP_COL) / sizeof(GROUP_COL[0]))

/* Swimlane geometry (px): the plot is HTMLREP_BINS px wide, so a bin is a pixel column. */
#define SL_LEFT 84
#define SL_RIGHT 16
#define SL_TOP 34
#define SL_W (SL_LEFT + HTMLREP_BINS + SL_RIGHT)
#define SL_MAX_LINKS 2000 /* critical-path connectors drawn at most */
#define CP_LANE_H 18      /* the critical path's own lane, above the cores */
#define SL_MIN_LANE_H 11  /* a core's lane at least: room for its 9 px label */

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

/* ------------------------------------------------------------------ */
/* Text helpers                                                        */
/* ------------------------------------------------------------------ */

/* How strings from the inputs reach the page: one path, by context.
 *  - text and double-quoted attribute values: esc(), which escapes HTML's five special characters (every
 *    attribute this page writes is double-quoted, so the same five suffice in both);
 *  - everything written with a format goes through hp(), whose %s arguments are always passed through
 *    esc(): markup is only ever in the format, a literal, never in an argument;
 *  - a link: url_rel(), a relative URL of a folder inside DIR or nothing (no scheme, no //, no \);
 *  - no script and no JSON data are embedded, and the CSS is a constant (its colours, the style="" values
 *    below, come from the palettes above, never from an input).
 * A string from an input file is never written with fputs or a bare fprintf. */

/* Writes s with HTML's five special characters escaped: safe as text and inside a double-quoted attribute
 * value (also in SVG, and in <title>, whose text the browser decodes but never parses as markup). */
static void esc(FILE *f, const char *s)
{
    for (; *s; s++)
        switch (*s) {
        case '&':
            fputs("&amp;", f);
            break;
        case '<':
            fputs("&lt;", f);
            break;
        case '>':
            fputs("&gt;", f);
            break;
        case '"':
            fputs("&quot;", f);
            break;
        case '\'':
            fputs("&#39;", f);
            break;
        default:
            fputc(*s, f);
        }
}

/* fprintf for the page: the format is written as it is (it is the page's own markup, a literal), every %s
 * argument through esc(); numbers as printf writes them. Conversions: d i u x X o c s f F e E g G and %%,
 * with flags, width, precision (also *) and the length modifiers hh h l ll z j t. */
static void hp(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void hp(FILE *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const char *p = fmt;
    while (*p) {
        const char *pct = strchr(p, '%');
        if (!pct) {
            fputs(p, f);
            break;
        }
        fwrite(p, 1, (size_t)(pct - p), f);
        /* the conversion, with any * replaced by its argument, into spec */
        char spec[64];
        size_t n = 0;
        const char *q = pct;
        spec[n++] = *q++;
        while (*q && strchr("-+ #0", *q) && n < 8)
            spec[n++] = *q++;
        for (int part = 0; part < 2; part++) {
            if (part == 1) {
                if (*q != '.')
                    break;
                spec[n++] = *q++;
            }
            if (*q == '*') {
                n += (size_t)snprintf(spec + n, sizeof(spec) - n - 8, "%d", va_arg(ap, int));
                q++;
            } else
                while (*q >= '0' && *q <= '9' && n < 40)
                    spec[n++] = *q++;
        }
        int longs = 0; /* 1 l, 2 ll, 3 z, 4 j, 5 t; h and hh promote to int */
        while (*q && strchr("hlzjt", *q) && n < 48) {
            longs = *q == 'l' ? (longs == 1 ? 2 : 1) : *q == 'z' ? 3 : *q == 'j' ? 4 : *q == 't' ? 5 : longs;
            spec[n++] = *q++;
        }
        char conv = *q ? *q++ : '\0';
        spec[n++] = conv;
        spec[n] = '\0';
        switch (conv) {
        case '%':
            fputc('%', f);
            break;
        case 's': {
            const char *s = va_arg(ap, const char *);
            if (!s)
                s = "(null)"; /* what glibc's printf writes */
            if (n == 2) {     /* plain %s */
                esc(f, s);
                break;
            }
            int len = snprintf(NULL, 0, spec, s); /* width or precision: cut or padded, then escaped */
            char *buf = len >= 0 ? malloc((size_t)len + 1) : NULL;
            if (buf) {
                snprintf(buf, (size_t)len + 1, spec, s);
                esc(f, buf);
                free(buf);
            }
            break;
        }
        case 'c': {
            char one[2] = {(char)va_arg(ap, int), '\0'};
            esc(f, one);
            break;
        }
        case 'd':
        case 'i':
            if (longs == 1)
                outfile_printf(f, spec, va_arg(ap, long));
            else if (longs == 2)
                outfile_printf(f, spec, va_arg(ap, long long));
            else if (longs == 3)
                outfile_printf(f, spec, va_arg(ap, ssize_t));
            else if (longs == 4)
                outfile_printf(f, spec, va_arg(ap, intmax_t));
            else if (longs == 5)
                outfile_printf(f, spec, va_arg(ap, ptrdiff_t));
            else
                outfile_printf(f, spec, va_arg(ap, int));
            break;
        case 'u':
        case 'x':
        case 'X':
        case 'o':
            if (longs == 1)
                outfile_printf(f, spec, va_arg(ap, unsigned long));
            else if (longs == 2)
                outfile_printf(f, spec, va_arg(ap, unsigned long long));
            else if (longs == 3)
                outfile_printf(f, spec, va_arg(ap, size_t));
            else if (longs == 4)
                outfile_printf(f, spec, va_arg(ap, uintmax_t));
            else if (longs == 5)
                outfile_printf(f, spec, va_arg(ap, ptrdiff_t));
            else
                outfile_printf(f, spec, va_arg(ap, unsigned));
            break;
        case 'f':
        case 'F':
        case 'e':
        case 'E':
        case 'g':
        case 'G':
            outfile_printf(f, spec, va_arg(ap, double));
            break;
        default: /* a conversion this page does not use (the format attribute has checked the rest) */
            assert(!"hp: unsupported conversion");
            break;
        }
        p = q;
    }
    va_end(ap);
}

/* Writes s as a relative URL inside a double-quoted href: true when s is one (no scheme such as
 * javascript:, no leading / or //, no backslash, no control character), every byte but letters, digits and
 * -._~/ percent-encoded; false, writing nothing, otherwise. */
static bool url_rel(FILE *f, const char *s)
{
    if (!s[0] || s[0] == '/')
        return false;
    for (const char *c = s; *c; c++) {
        if (*c == ':' || *c == '\\' || (unsigned char)*c < 0x20 || *c == 0x7f)
            return false; /* a ':' before any '/' is a scheme; after one, encoding it would do, but no
                           * folder of ours has one */
    }
    for (const unsigned char *c = (const unsigned char *)s; *c; c++)
        if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
            strchr("-._~/", *c))
            fputc(*c, f);
        else
            hp(f, "%%%02X", *c);
    return true;
}

/* A plain number with at most `dec` decimals, trailing zeros dropped. */
static void fmt_num(char *b, size_t n, double v, int dec)
{
    snprintf(b, n, "%.*f", dec, v);
    if (strchr(b, '.')) {
        size_t k = strlen(b);
        while (k && b[k - 1] == '0')
            b[--k] = '\0';
        if (k && b[k - 1] == '.')
            b[--k] = '\0';
    }
    if (strcmp(b, "-0") == 0)
        snprintf(b, n, "0");
}

/* Bytes with a binary unit: 512 B, 1 KiB, 1.25 MiB, 256 MiB. */
static void fmt_bytes(char *b, size_t n, double v)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (u < 4 && fabs(v) >= 1024) {
        v /= 1024;
        u++;
    }
    char num[32];
    fmt_num(num, sizeof(num), v, 2);
    if (snprintf(b, n, "%s %s", num, unit[u]) < 0)
        b[0] = '\0';
}

/* Bytes in decimal units, as the collector's rate is given: 272 B, 42 MB, 2.148 GB. */
static void fmt_dec_bytes(char *b, size_t n, double v)
{
    static const char *const unit[] = {"B", "kB", "MB", "GB", "TB"};
    int u = 0;
    while (u < 4 && fabs(v) >= 1000) {
        v /= 1000;
        u++;
    }
    char num[32];
    fmt_num(num, sizeof(num), v, 3);
    if (snprintf(b, n, "%s %s", num, unit[u]) < 0)
        b[0] = '\0';
}

/* A time given in µs, in the unit that reads best: 35.084 µs, 12.500 ms, 47.245 s. */
static void fmt_time(char *b, size_t n, double us)
{
    if (fabs(us) >= 1e6)
        snprintf(b, n, "%.3f s", us / 1e6);
    else if (fabs(us) >= 1e4)
        snprintf(b, n, "%.3f ms", us / 1e3);
    else
        snprintf(b, n, "%.3f µs", us);
}

/* Did the args dump freeze the scheduler threads for most of the run? Then the host's collector bounds it
 * (report_dump_bound, model/report.c, makes the same call for the summary). */
static bool dump_bound(const rd_run *run)
{
    return run->dump.given && run->makespan_us > 0 &&
           run->dump.frozen_us >= REPORT_DUMP_BOUND_SHARE * run->makespan_us;
}

/* The runtime tools' task names: t<local> in ring 0, r<ring>t<local> otherwise. */
static void task_name(char *b, size_t n, uint64_t id)
{
    unsigned ring = (unsigned)(id >> 32) & 0xff, local = (unsigned)(id & 0xffffffffu);
    if (ring)
        snprintf(b, n, "r%ut%u", ring, local);
    else
        snprintf(b, n, "t%u", local);
}

static const char *kernel_name(const rep *r, int func)
{
    for (int i = 0; i < r->run.nkernels; i++)
        if (r->run.kernels[i].func_id == func && r->run.kernels[i].name[0])
            return r->run.kernels[i].name;
    return NULL;
}

static void func_label(const rep *r, char *b, size_t n, int func)
{
    const char *k = kernel_name(r, func);
    if (k)
        snprintf(b, n, "%s", k);
    else
        snprintf(b, n, "func %d", func);
}

static const rd_task *deps_task(const rep *r, uint64_t id)
{
    size_t lo = vec_lower_bound(r->by_id, r->deps.ntasks, sizeof(*r->by_id), offsetof(rd_task, id), id);
    return lo < r->deps.ntasks && r->by_id[lo].id == id ? &r->by_id[lo] : NULL;
}

/* What ran: the kernel of a task on a core type (aic: slot 0, else slot 1 or 2),
 * or for the whole task (core < 0) every active kernel joined with '+'. */
static void task_kernel(const rep *r, char *b, size_t n, uint64_t id, int core_aic)
{
    const rd_task *t = r->by_id ? deps_task(r, id) : NULL;
    b[0] = '\0';
    if (!t)
        return;
    int k[3] = {t->k[0], t->k[1], t->k[2]};
    if (core_aic == 1)
        k[1] = k[2] = -1;
    else if (core_aic == 0) {
        k[0] = -1;
        if (k[1] < 0)
            k[1] = k[2];
        k[2] = -1;
    } else if (k[2] == k[1])
        k[2] = -1;
    size_t m = 0;
    for (int i = 0; i < 3; i++)
        if (k[i] >= 0) {
            char name[RD_NAME_MAX];
            func_label(r, name, sizeof(name), k[i]);
            m += (size_t)snprintf(b + m, m < n ? n - m : 0, "%s%s", m ? "+" : "", name);
            if (m >= n)
                return;
        }
    if (!m)
        snprintf(b, n, "dummy");
}

/* A note: something the page cannot show, and why. */
static void note(FILE *f, const char *html)
{
    fputs("<p class=\"note\">", f);
    fputs(html, f); /* the page's own markup: a literal at every call, never from an input */
    fputs("</p>\n", f);
}

/* A note whose text was formatted from the inputs: escaped. */
static void note_text(FILE *f, const char *text)
{
    hp(f, "<p class=\"note\">%s</p>\n", text);
}

/* ------------------------------------------------------------------ */
/* Axes                                                                */
/* ------------------------------------------------------------------ */

/* A value axis mapped onto pixels [p0, p1] (p1 < p0 for a y axis). */
typedef struct axis {
    double lo, hi; /* values at p0 and p1 (log2 of them when log) */
    double p0, p1;
    bool log; /* log2 scale */
} axis;

static double ax_px(const axis *a, double v)
{
    double x = a->log ? log2(v > 0 ? v : 1) : v;
    double span = a->hi - a->lo;
    return a->p0 + (span > 0 ? (x - a->lo) / span : 0.5) * (a->p1 - a->p0);
}

/* 1, 2 or 5 times a power of ten, about span/target. */
static double nice_step(double span, int target)
{
    if (!(span > 0))
        return 1;
    double raw = span / target, mag = pow(10, floor(log10(raw))), q = raw / mag;
    return (q <= 1 ? 1 : q <= 2 ? 2 : q <= 5 ? 5 : 10) * mag;
}

static int step_decimals(double step)
{
    int d = (int)-floor(log10(step) + 1e-9);
    return d < 0 ? 0 : d > 6 ? 6 : d;
}

/* Horizontal grid lines and labels of a linear y axis from a->lo (0, or a multiple of step) to a->hi;
 * fmt == 'b' formats bytes. */
static void y_ticks(FILE *f, const axis *a, double step, int x0, int x1, char fmt)
{
    int dec = step_decimals(step);
    for (double v = a->lo; v <= a->hi + step * 1e-6; v += step) {
        double y = ax_px(a, v);
        char lab[32];
        if (fmt == 'b')
            fmt_bytes(lab, sizeof(lab), v);
        else
            fmt_num(lab, sizeof(lab), v, dec);
        hp(f, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>", x0, y, x1, y);
        hp(f, "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", x0 - 5, y + 3.5,
           lab);
    }
}

/* ------------------------------------------------------------------ */
/* Page head                                                           */
/* ------------------------------------------------------------------ */

static const char CSS[] =
    "body{font-family:'DejaVu Sans',Verdana,Arial,sans-serif;color:#222;background:#fff;max-width:1120px;"
    "margin:0 auto;padding:12px 20px 40px;font-size:14px}\n"
    "h1{font-size:22px;margin:8px 0 2px}h2{font-size:18px;margin:30px 0 8px;padding-bottom:4px;"
    "border-bottom:1px solid #ddd}h3{font-size:15px;margin:18px 0 6px}\n"
    ".sub{color:#666;font-size:13px;margin:2px 0 8px}nav{margin:6px 0 4px}nav a{margin-right:16px}\n"
    ".cards{display:flex;flex-wrap:wrap;gap:10px;margin:8px 0}.card{border:1px solid #ddd;border-radius:6px;"
    "padding:8px 12px;min-width:140px}.card .k{font-size:12px;color:#666}.card .v{font-size:18px;"
    "font-weight:bold;margin-top:2px}.card .d{font-size:12px;color:#444}\n"
    ".ok{color:#1a7f37}.bad{color:#c62828}.banner{border:1px solid #e0a0a0;background:#fdf0f0;"
    "border-radius:6px;padding:8px 12px;margin:8px 0}\n"
    ".note{background:#f5f7fa;border-left:4px solid #9aa7b5;padding:6px 10px;color:#444;font-size:13px}\n"
    "svg{display:block;max-width:100%;height:auto;margin:4px 0}svg text{font-size:11px;fill:#333}\n"
    "svg .tick{font-size:10px;fill:#555}svg .title{font-size:12px;fill:#222}svg "
    ".lane{font-size:9px;fill:#444}\n"
    "svg .grid{stroke:#e6e6e6;stroke-width:1}svg .axis{stroke:#888;stroke-width:1}\n"
    "svg .aic{fill:" COL_AIC "}svg .aiv{fill:" COL_AIV "}svg .cp{fill:" COL_CP "}"
    "svg .cpl{stroke:" COL_CP ";stroke-width:1.2;stroke-opacity:0.75;fill:none}\n"
    "svg .series{fill:none;stroke-width:1.6}svg .band{fill-opacity:0.22;stroke:none}svg "
    ".cap{stroke-dasharray:5 4;stroke-width:1.2;fill:none}\n"
    "svg .curve{fill:none;stroke-width:2}svg .blocked{fill:none;stroke-width:1.8}svg "
    ".pt{stroke:#fff;stroke-width:1}svg .fail{stroke:" COL_CP ";stroke-width:2}\n"
    ".charts{display:flex;flex-wrap:wrap;gap:12px 24px}figure{margin:0}figcaption{font-weight:bold;"
    "font-size:13px;margin:4px 0}\n"
    ".sweep-fig{flex-basis:100%}.pair{display:flex;gap:8px}.pair svg{width:49.5%}\n"
    ".legend{list-style:none;padding:0;margin:2px 0 0 8px;font-size:12px}.legend li{margin:1px 0}"
    ".sw{display:inline-block;width:14px;height:9px;margin-right:6px;border-radius:2px}\n"
    "table{border-collapse:collapse;font-size:12px;margin:6px 0}th,td{border:1px solid #ddd;padding:2px 7px;"
    "text-align:right}th{background:#f3f4f6}.l{text-align:left}\n"
    "details{margin:8px 0}summary{cursor:pointer;color:#345}footer{margin-top:30px;color:#888;"
    "font-size:12px}\n";

static void page_head(rep *r)
{
    FILE *f = r->f;
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>ptosim report", f);
    if ((r->has_run || r->capture) && r->run.graph[0]) {
        fputs(": ", f);
        esc(f, r->run.graph);
    }
    if (r->capture)
        fputs(": runtime capture", f);
    fputs("</title>\n<style>\n", f);
    fputs(CSS, f); /* a constant */
    fputs("</style>\n</head>\n<body>\n", f);
    fputs("<h1>ptosim report", f);
    if (r->capture) {
        fputs(": runtime capture", f);
        if (r->run.graph[0]) {
            fputs(" of ", f);
            esc(f, r->run.graph);
        }
    } else if (r->has_run) {
        fputs(": ", f);
        esc(f, r->run.graph[0] ? r->run.graph : "run");
        if (r->run.platform[0]) {
            fputs(" on ", f);
            esc(f, r->run.platform);
        }
    } else if (r->has_sweep) {
        fputs(": sweep", f);
        if (r->sw.ngroups == 1) {
            fputs(" of ", f);
            esc(f, r->sw.groups[0][0]);
            fputs(" on ", f);
            esc(f, r->sw.groups[0][1]);
        }
    }
    fputs("</h1>\n<nav>", f);
    if (r->capture)
        fputs("<a href=\"#summary\">Summary</a><a href=\"#overhead\">Overhead</a><a href=\"#swimlane\">Swimlane</a>"
              "<a href=\"#rings\">Rings</a><a href=\"#pipes\">Pipes</a>",
              f);
    if (r->has_run) {
        fputs("<a href=\"#summary\">Summary</a>", f);
        if (r->run.dump.given)
            fputs("<a href=\"#dump\">Args dump</a>", f);
        fputs("<a href=\"#overhead\">Overhead</a><a href=\"#swimlane\">Swimlane</a>"
              "<a href=\"#rings\">Rings</a><a href=\"#pipes\">Pipes</a>",
              f);
    }
    if (r->has_sweep)
        fputs("<a href=\"#sweep\">Sweep</a>", f);
    fputs("</nav>\n", f);
}

/* Which inputs were read, and how to get the missing ones. */
static void inputs_table(rep *r)
{
    FILE *f = r->f;
    struct {
        const char *file;
        bool there;
        const char *how;
    } in[] = {
        {"ptosim_run.json", r->has_run, "ptosim run GRAPH -o DIR"},
        {"chip_swimlane_records.json", r->sl_rc == RD_OK, "--enable-chip-swimlane"},
        {"deps.json", r->deps_rc == RD_OK, "--enable-dep-gen"},
        {"scope_stats/scope_stats.jsonl", r->sc_rc == RD_OK, "--enable-scope-stats"},
        {"pmu.csv", r->pmu_rc == RD_OK, "--enable-pmu"},
        {"sweep.csv", r->has_sweep, "ptosim sweep (one row per configuration point)"},
        {"name_map_*.json", r->cap_namemap, "the runtime, with the swimlane (kernel names)"},
        {"args_dump/", r->cap_args, "--dump-args (not drawn: ptosim import reads it)"},
    };
    size_t nin = sizeof(in) / sizeof(in[0]) - (r->capture ? 0 : 2);
    fputs("<details><summary>Inputs read from this directory</summary>\n<table><tr><th class=\"l\">file</th>"
          "<th class=\"l\">status</th><th class=\"l\">written by</th></tr>\n",
          f);
    for (size_t i = 0; i < nin; i++) {
        if ((!r->has_run && !r->capture && i > 0 && i < 5) || (r->capture && (i == 0 || i == 5)))
            continue;
        hp(f, "<tr><td class=\"l\">%s%s</td><td class=\"l\">%s</td><td class=\"l\">%s</td></tr>\n",
           i > 0 && i < 5 ? r->dfx_rel : i > 5 ? r->dfx_rel : "", in[i].file, in[i].there ? "read" : "absent",
           in[i].how);
    }
    fputs("</table></details>\n", f);
}

/* ------------------------------------------------------------------ */
/* Summary                                                             */
/* ------------------------------------------------------------------ */

static void card(FILE *f, const char *key, const char *cls, const char *value, const char *detail)
{
    hp(f, "<div class=\"card\"><div class=\"k\">%s</div><div class=\"v%s%s\">", key, cls ? " " : "",
       cls ? cls : "");
    esc(f, value);
    fputs("</div>", f);
    if (detail) {
        fputs("<div class=\"d\">", f);
        esc(f, detail);
        fputs("</div>", f);
    }
    fputs("</div>\n", f);
}

/* Busy fraction per core type as two horizontal bars. */
static void busy_svg(FILE *f, const rd_run *run)
{
    const int w = 560, x0 = 48, bw = 420;
    hp(f,
       "<svg id=\"busy-chart\" width=\"%d\" height=\"64\" viewBox=\"0 0 %d 64\" role=\"img\" "
       "aria-label=\"busy fraction per core type\">\n",
       w, w);
    struct {
        const char *name, *cls;
        double v;
    } row[2] = {{"AIC", "aic", run->busy_aic}, {"AIV", "aiv", run->busy_aiv}};
    for (int i = 0; i < 2; i++) {
        double v = row[i].v < 0 ? 0 : row[i].v > 1 ? 1 : row[i].v;
        int y = 8 + i * 26;
        hp(f,
           "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text><rect x=\"%d\" y=\"%d\" width=\"%d\" "
           "height=\"16\" fill=\"#eef0f3\"/><rect class=\"%s\" x=\"%d\" y=\"%d\" width=\"%.1f\" "
           "height=\"16\"/><text x=\"%.1f\" y=\"%d\">%.1f%% busy</text>\n",
           x0 - 8, y + 12, row[i].name, x0, y, bw, row[i].cls, x0, y, v * bw, x0 + bw + 8.0, y + 12,
           100 * row[i].v);
    }
    fputs("</svg>\n", f);
}

static void section_summary(rep *r)
{
    FILE *f = r->f;
    const rd_run *run = &r->run;
    char v[256], d[512];
    fputs("<section id=\"summary\">\n<h2>Summary</h2>\n", f);
    if (run->version[0] || run->swimlane_level || run->dep_gen || run->scope_stats || run->pmu) {
        fputs("<p class=\"sub\">", f);
        if (run->version[0]) {
            fputs("written by ptosim ", f);
            esc(f, run->version);
        }
        hp(f, "; DFX: swimlane level %d%s%s%s</p>\n", run->swimlane_level, run->dep_gen ? ", dep gen" : "",
           run->scope_stats ? ", scope stats" : "", run->pmu ? ", PMU" : "");
    }
    bool ok = strcmp(run->status, "ok") == 0;
    if (run->rt_error)
        snprintf(v, sizeof(v), "runtime error %d %s", run->rt_code, run->rt_name);
    else if (run->dev_error)
        snprintf(v, sizeof(v), "device error %d %s", run->dev_code, run->dev_name);
    else
        snprintf(v, sizeof(v), "%s", run->status);
    if (!ok) {
        fputs("<div class=\"banner\" id=\"outcome-banner\"><b class=\"bad\">", f);
        esc(f, v);
        hp(f, "</b> (exit status %d)", run->exit_code);
        if (run->rt_error && run->rt_detail[0]) {
            fputs(": ", f);
            esc(f, run->rt_detail);
        }
        if (run->dev_error) {
            char at[32];
            fmt_time(at, sizeof(at), run->dev_at_us);
            hp(f, " at %s", at);
            if (run->dev_watchdog[0]) {
                fputs(", fired by the ", f);
                esc(f, run->dev_watchdog);
                fputs(" watchdog", f);
            }
        }
        if (run->rt_error && run->rt_hint[0]) {
            fputs("<br>Hint: ", f);
            esc(f, run->rt_hint);
        }
        if (run->message[0]) {
            fputs("<br>", f);
            esc(f, run->message);
        }
        fputs("</div>\n", f);
    }
    fputs("<div class=\"cards\">\n", f);
    char ms[64];
    snprintf(ms, sizeof(ms), "%.3f µs", run->makespan_us);
    d[0] = '\0';
    if (run->makespan_us >= 1e6)
        snprintf(d, sizeof(d), "%.3f s", run->makespan_us / 1e6);
    else if (run->makespan_us >= 1e4)
        snprintf(d, sizeof(d), "%.3f ms", run->makespan_us / 1e3);
    card(f, "makespan", NULL, ms, d[0] ? d : NULL);
    card(f, "outcome", ok ? "ok" : "bad", v, NULL);
    snprintf(v, sizeof(v), "%" PRIu64 " / %" PRIu64, run->completed, run->submitted);
    /* kernel_tasks counts submits, executions what ran: a killed run has many more of the first */
    snprintf(d, sizeof(d), "completed; %" PRIu64 " AICore task%s submitted, %" PRIu64 " execution%s run",
             run->kernel_tasks, run->kernel_tasks == 1 ? "" : "s", run->executions,
             run->executions == 1 ? "" : "s");
    card(f, "tasks", NULL, v, d);
    snprintf(v, sizeof(v), "%.1f%%", 100 * run->busy_aic);
    card(f, "AIC busy", NULL, v, NULL);
    snprintf(v, sizeof(v), "%.1f%%", 100 * run->busy_aiv);
    card(f, "AIV busy", NULL, v, NULL);
    if (run->orch_end_us > 0) {
        snprintf(v, sizeof(v), "%.3f µs", run->orch_end_us);
        double blocked = 0;
        for (int i = 0; i < RD_RINGS; i++)
            blocked += run->rings[i].blocked_us;
        snprintf(d, sizeof(d), "last submit done (%.1f%% of the makespan); blocked on rings %.3f µs",
                 run->makespan_us > 0 ? 100 * run->orch_end_us / run->makespan_us : 0, blocked);
        card(f, "orchestrator", NULL, v, d);
    }
    if (dump_bound(run)) {
        char rate[32];
        fmt_dec_bytes(rate, sizeof(rate), run->dump.drain_bps);
        snprintf(d, sizeof(d),
                 "the scheduler threads were parked %.1f%% of the run, waiting for the host's %s/s",
                 100 * run->dump.frozen_us / run->makespan_us, rate);
        card(f, "bottleneck", "bad", "args dump collector", d);
    } else if (!ok) {
        snprintf(d, sizeof(d), "the run did not finish; Pipes shows the %" PRIu64 " execution%s that ran",
                 run->executions, run->executions == 1 ? "" : "s");
        card(f, "bottleneck", NULL, "none named", d);
    } else if (run->bound_kind[0] && strcmp(run->bound_kind, "none") != 0) {
        /* the run's own analysis (ptosim_run.json bound): what the summary and tune name too */
        const char *colon = strchr(run->bound_text, ':');
        card(f, "bottleneck", NULL, run->bound_what, colon ? colon + 2 : run->bound_text);
    } else if (run->bottleneck) {
        snprintf(v, sizeof(v), "%s pipe", run->bn_pipe);
        snprintf(d, sizeof(d), "%.1f%% busy in %s (most time on cores)", 100 * run->bn_fraction,
                 run->bn_kernel);
        card(f, "bottleneck", NULL, v, d);
    } else {
        card(f, "bottleneck", NULL, "none", "no kernel has a pipe cost model");
    }
    fputs("</div>\n<h3>Busy fraction per core type</h3>\n", f);
    busy_svg(f, run);
    if (run->perturbed)
        note(f, "Profiling perturbed this makespan (swimlane record write-back, PMU single issue or the args "
                "dump; <code>profiling</code> in ptosim_run.json says which).");
    if (run->bound_kind[0]) {
        if (strcmp(run->bound_kind, "none") != 0) {
            hp(f, "<p class=\"note\">What bounds this run: %s.</p>\n", run->bound_text);
        }
    } else if (run->orch_end_us >= 0.9 * run->makespan_us && run->busy_aic < 0.5 && run->busy_aiv < 0.5 &&
               run->makespan_us > 0) { /* an older ptosim_run.json without its bound */
        snprintf(
            d, sizeof(d),
            "The orchestrator was still submitting at %.1f%% of the makespan while the cores were mostly "
            "idle: this run is bound by task submission, not by the cores.",
            100 * run->orch_end_us / run->makespan_us);
        note_text(f, d);
    }
    if (run->hbm_saturated_us > 0) {
        snprintf(d, sizeof(d), "Shared HBM was saturated for %.3f µs of the run.", run->hbm_saturated_us);
        note_text(f, d);
    }
    inputs_table(r);
    fputs("</section>\n", f);
}

static void pct_cell(FILE *f, uint64_t peak, uint64_t cap, bool bytes);
static void scope_table(rep *r);

/* A runtime capture's summary: what its files say, and what a capture cannot say. */
static void section_capture_summary(rep *r)
{
    FILE *f = r->f;
    const rd_run *run = &r->run;
    char v[256], d[512];
    fputs("<section id=\"summary\">\n<h2>Summary</h2>\n", f);
    hp(f,
       "<p class=\"sub\" id=\"capture-sub\">A capture of the real runtime (its own files%s%s, no "
       "<code>ptosim_run.json</code>)",
       r->dfx_rel[0] ? " in " : "", r->dfx_rel);
    if (r->sl_rc == RD_OK)
        hp(f, "; swimlane level %d, a %" PRIu64 " Hz counter, %d AIC and %d AIV cores", run->swimlane_level,
           r->sl.clock_hz, r->cap_cores[0], r->cap_cores[1]);
    fputs(".</p>\n", f);
    note(f, "What a capture cannot say: the runtime records no time the orchestrator spent blocked on a "
            "ring (its scope stats are samples at scope boundaries, without time), no analysis of what "
            "bounds the run beyond the scheduler-overhead model below, and no kernel cost model, so no pipe "
            "busy fractions and no bottleneck pipe. <code>ptosim import</code> turns the capture into a graph "
            "that <code>ptosim run</code> can answer those for.");
    fputs("<div class=\"cards\">\n", f);
    if (r->sl_rc == RD_OK && run->executions) {
        snprintf(v, sizeof(v), "%.3f µs", run->makespan_us);
        card(f, "makespan", NULL, v, "first start to last end of the swimlane's executions");
        snprintf(v, sizeof(v), "%" PRIu64, run->executions);
        if (r->deps_rc == RD_OK)
            snprintf(d, sizeof(d), "AICore executions of %" PRIu64 " task%s; deps.json lists %zu task%s",
                     r->cap_tasks, r->cap_tasks == 1 ? "" : "s", r->deps.ntasks, r->deps.ntasks == 1 ? "" : "s");
        else
            snprintf(d, sizeof(d), "AICore executions of %" PRIu64 " task%s", r->cap_tasks,
                     r->cap_tasks == 1 ? "" : "s");
        card(f, "executions", NULL, v, d);
        snprintf(v, sizeof(v), "%.1f%%", 100 * run->busy_aic);
        snprintf(d, sizeof(d), "over %d AIC core%s", r->cap_cores[0], r->cap_cores[0] == 1 ? "" : "s");
        card(f, "AIC busy", NULL, v, d);
        snprintf(v, sizeof(v), "%.1f%%", 100 * run->busy_aiv);
        snprintf(d, sizeof(d), "over %d AIV core%s", r->cap_cores[1], r->cap_cores[1] == 1 ? "" : "s");
        card(f, "AIV busy", NULL, v, d);
    } else if (r->deps_rc == RD_OK) {
        snprintf(v, sizeof(v), "%zu", r->deps.ntasks);
        snprintf(d, sizeof(d), "in deps.json, with %zu edge%s", r->deps.nedges, r->deps.nedges == 1 ? "" : "s");
        card(f, "tasks", NULL, v, d);
    }
    fputs("</div>\n", f);
    if (r->sl_rc != RD_OK)
        note(f, "No <code>chip_swimlane_records.json</code> (the runtime writes it with "
                "<code>--enable-chip-swimlane</code>): no makespan, executions or busy fractions.");
    else if (!run->executions)
        note(f, "The swimlane holds no AICore execution: no makespan or busy fractions.");
    else {
        fputs("<h3>Busy fraction per core type</h3>\n", f);
        busy_svg(f, run);
    }
    inputs_table(r);
    fputs("</section>\n", f);
}

/* A capture's rings: the highest sampled live value per ring against the capacity its scope stats header
 * gives (no time series: the samples carry no time stamp). */
static void section_capture_rings(rep *r)
{
    FILE *f = r->f;
    const rd_scopes *sc = &r->sc;
    fputs("<section id=\"rings\">\n<h2>Rings</h2>\n", f);
    if (r->sc_rc != RD_OK) {
        note(f, "No scope stats: <code>scope_stats/scope_stats.jsonl</code> is absent (the runtime writes it "
                "with <code>--enable-scope-stats</code>): no ring occupancy.");
        fputs("</section>\n", f);
        return;
    }
    uint64_t mx[RD_RINGS][3] = {{0}};
    for (size_t i = 0; i < sc->n; i++) {
        const rd_sample *x = &sc->v[i];
        uint64_t v[3] = {x->task_window, x->heap, x->dep_pool};
        for (int k = 0; k < 3; k++)
            mx[x->ring][k] = v[k] > mx[x->ring][k] ? v[k] : mx[x->ring][k];
    }
    fputs("<h3>Highest sampled occupancy against capacity (scope stats)</h3>\n<p class=\"sub\">The capacities "
          "are the scope stats header's <code>task_window_max</code>, <code>heap_max</code> and "
          "<code>dep_pool_max</code>; the occupancy is the most a ring held at a scope begin or end, so a "
          "peak between two boundaries is not seen. The runtime does not record how long the orchestrator "
          "waited for a ring.</p>\n<table id=\"ring-peaks\"><tr><th>ring</th><th>task window sampled / "
          "capacity</th><th>heap sampled / capacity</th><th>dep pool sampled / capacity</th></tr>\n",
          f);
    for (int g = 0; g < RD_RINGS; g++) {
        hp(f, "<tr><td>%d</td>", g);
        pct_cell(f, mx[g][0], sc->task_window_max[g], false);
        pct_cell(f, mx[g][1], sc->heap_max[g], true);
        pct_cell(f, mx[g][2], sc->dep_pool_max[g], false);
        fputs("</tr>\n", f);
    }
    fputs("</table>\n<h3>Scope stats</h3>\n", f);
    if (!sc->n)
        note(f, "The scope stats file has no samples (no scope was recorded).");
    else
        scope_table(r);
    fputs("</section>\n", f);
}

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
    hp(f,
       "<svg id=\"dump-chart\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
       "aria-label=\"args dump: deadline, drain and freeze from launch\">\n",
       w, h, w, h);
    for (int i = 0; i < n; i++) {
        char t[32];
        fmt_time(t, sizeof(t), row[i].us);
        int y = 8 + i * 26;
        double bwid = top > 0 ? row[i].us / top * bw : 0;
        hp(f,
           "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text><rect x=\"%d\" y=\"%d\" width=\"%d\" "
           "height=\"16\" fill=\"#eef0f3\"/><rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"16\" "
           "fill=\"%s\"/><text x=\"%d\" y=\"%d\">%s</text>\n",
           x0 - 8, y + 12, row[i].name, x0, y, bw, x0, y, bwid, row[i].fill, x0 + bw + 8, y + 12, t);
    }
    fputs("</svg>\n", f);
}

/* The args dump (ptosim_run.json args_dump): what the device produced and the host drained, the parks,
 * and the kill when a watchdog fired. */
static void section_dump(rep *r)
{
    FILE *f = r->f;
    const rd_run *run = &r->run;
    const rd_dump *d = &run->dump;
    char a[64], b[64], c[64], t[64], msg[1024];
    fputs("<section id=\"dump\">\n<h2>Args dump</h2>\n", f);
    fmt_bytes(a, sizeof(a), (double)d->arena);
    fmt_dec_bytes(b, sizeof(b), d->drain_bps);
    hp(f,
       "<p class=\"sub\">Level %d: %" PRIu64 " task%s dumped, %" PRIu64
       " records. Each scheduler thread copies payloads into its %s arena; the host's collector drains "
       "them at %s/s. A thread whose next payload would wrap its arena parks until the host has "
       "written what it published, and every scheduler thread freezes with it "
       "(model/README.md §14.2).</p>\n",
       d->level, d->tasks, d->tasks == 1 ? "" : "s", d->records, a, b);
    if (run->dev_error) {
        fmt_time(t, sizeof(t), run->dev_at_us);
        bool stars = strcmp(run->dev_watchdog, "stars_op_execute") == 0;
        fputs("<div class=\"banner\" id=\"dump-kill\"><b class=\"bad\">", f);
        if (stars && run->stars_deadline_us > 0) {
            fmt_time(a, sizeof(a), run->op_timeout_us);
            fmt_time(b, sizeof(b), run->stars_deadline_us);
            hp(f,
               "Killed by STARS at %s</b>: the op-execute timeout of %s requested rounds up to %.0f credit%s "
               "= "
               "%s",
               t, a, run->stars_credits, run->stars_credits == 1 ? "" : "s", b);
        } else {
            hp(f, "Killed at %s</b> by the %s watchdog", t,
               run->dev_watchdog[0] ? run->dev_watchdog : "device");
        }
        fputs(d->killed_parked ? ", while the scheduler threads were parked waiting for the host." : ".", f);
        if (d->reconciled)
            hp(f, " The host recovered %d thread%s' un-flushed buffer%s.", d->reconciled,
               d->reconciled == 1 ? "" : "s", d->reconciled == 1 ? "" : "s");
        fputs("</div>\n", f);
    }
    fputs("<div class=\"cards\">\n", f);
    fmt_dec_bytes(a, sizeof(a), (double)d->payload_bytes);
    snprintf(msg, sizeof(msg), "%" PRIu64 " bytes copied into the arenas", d->payload_bytes);
    card(f, "produced", NULL, a, msg);
    fmt_dec_bytes(a, sizeof(a), (double)d->written_at_end);
    card(f, run->dev_error ? "drained by the kill" : "drained by the device's end", NULL, a,
         "written to args.bin by the host");
    fmt_dec_bytes(a, sizeof(a), (double)d->deficit);
    card(f, "deficit", d->deficit ? "bad" : NULL, a, "produced, not yet drained");
    fmt_time(a, sizeof(a), d->frozen_us);
    snprintf(msg, sizeof(msg), "%.1f%% of the run: no dispatch, no completion",
             run->makespan_us > 0 ? 100 * d->frozen_us / run->makespan_us : 0);
    card(f, "threads frozen", NULL, a, msg);
    if (d->host_done_us > 0) {
        fmt_time(a, sizeof(a), d->host_done_us);
        fmt_dec_bytes(b, sizeof(b), (double)d->written);
        snprintf(msg, sizeof(msg), "%s in all", b);
        card(f, "host finished args.bin", NULL, a, msg);
    }
    snprintf(a, sizeof(a), "%" PRIu64 " / %" PRIu64, d->truncated, d->dropped);
    card(f, "truncated / dropped", d->dropped ? "bad" : NULL, a, "args cut at half the arena / records lost");
    fputs("</div>\n<h3>From launch</h3>\n", f);
    dump_time_svg(f, run);
    if (d->drain_bps > 0) {
        double need_us = (double)d->payload_bytes / d->drain_bps * 1e6;
        fmt_dec_bytes(a, sizeof(a), d->drain_bps);
        fmt_time(b, sizeof(b), need_us);
        fmt_dec_bytes(c, sizeof(c), (double)d->payload_bytes);
        if (run->dev_error) {
            char cap[64];
            fmt_time(t, sizeof(t), run->dev_at_us);
            fmt_dec_bytes(cap, sizeof(cap), d->drain_bps * run->dev_at_us / 1e6);
            snprintf(
                msg, sizeof(msg),
                "At %s/s the collector needs %s for the %s the device produced; in the %s before the kill it "
                "could write at most %s/s × %s = %s.",
                a, b, c, t, a, t, cap);
        } else {
            snprintf(msg, sizeof(msg), "At %s/s the collector needs %s for the %s the device produced.", a, b,
                     c);
        }
        hp(f, "<p id=\"dump-why\">%s</p>\n", msg);
    }
    fputs("<table id=\"dump-threads\"><tr><th>thread</th><th>payload</th><th>parks</th><th>parked</th>"
          "<th>share of the run</th></tr>\n",
          f);
    for (int i = 0; i < d->nthreads; i++) {
        const rd_dump_thread *th = &d->th[i];
        fmt_dec_bytes(a, sizeof(a), (double)th->bytes);
        fmt_time(b, sizeof(b), th->parked_us);
        hp(f, "<tr><td>%d</td><td>%s</td><td>%" PRIu64 "</td><td>%s</td><td>%.1f%%</td></tr>\n", i, a,
           th->parks, b, run->makespan_us > 0 ? 100 * th->parked_us / run->makespan_us : 0);
    }
    fputs("</table>\n</section>\n", f);
}

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
    hp(f,
       "<svg id=\"overhead-chart\" width=\"560\" height=\"%d\" viewBox=\"0 0 560 %d\" role=\"img\" "
       "aria-label=\"scheduler overhead, share of the makespan\">\n",
       h, h);
    for (int i = 0; i < n; i++) {
        double v = row[i].pct < 0 ? 0 : row[i].pct > 100 ? 100 : row[i].pct;
        int y = 8 + i * 26;
        hp(f,
           "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text><rect x=\"%d\" y=\"%d\" width=\"%d\" "
           "height=\"16\" fill=\"#eef0f3\"/><rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"16\" "
           "fill=\"%s\"/><text x=\"%.1f\" y=\"%d\">%.1f%%</text>\n",
           x0 - 8, y + 12, row[i].name, x0, y, bw, x0, y, v / 100 * bw, row[i].fill, x0 + bw + 8.0, y + 12,
           row[i].pct);
    }
    fputs("</svg>\n", f);
}

static void section_overhead(rep *r)
{
    FILE *f = r->f;
    const rd_overhead *oh = &r->run.oh;
    char v[128], d[256];
    fputs("<section id=\"overhead\">\n<h2>Scheduler overhead</h2>\n", f);
    if (r->capture && !oh->given) {
        hp(f, "<p class=\"note\">No overhead model or critical-path tool for this capture: %s.</p>\n",
           r->cap_no_oh ? r->cap_no_oh : "");
        fputs("</section>\n", f);
        return;
    }
    if (r->capture && r->cap_unmatched)
        hp(f,
           "<p class=\"note\">%zu aicpu_tasks row%s of the swimlane ha%s no aicore_tasks row and %s left out, "
           "as the runtime's reader does.</p>\n",
           r->cap_unmatched, r->cap_unmatched == 1 ? "" : "s", r->cap_unmatched == 1 ? "s" : "ve",
           r->cap_unmatched == 1 ? "is" : "are");
    if (!oh->given) {
        note(f,
             "This <code>ptosim_run.json</code> has no <code>overhead</code>: it was written before ptosim "
             "computed the scheduler-overhead model; run the graph again.");
        fputs("</section>\n", f);
        return;
    }
    if (!oh->computed) {
        snprintf(d, sizeof(d),
                 "Not computed: the model keeps every execution and edge, and stops past %.0f executions or "
                 "tasks.",
                 oh->limit);
        note_text(f, d);
        fputs("</section>\n", f);
        return;
    }
    if (dump_bound(&r->run)) {
        snprintf(
            d, sizeof(d),
            "The args dump froze the scheduler threads for %.1f%% of this run (Args dump above): the model "
            "sees idle cores and ready tasks, so it counts that freeze as scheduler overhead, and its tail "
            "and wait gaps are the parks.",
            100 * r->run.dump.frozen_us / r->run.makespan_us);
        note_text(f, d);
    } else if (!r->capture && strcmp(r->run.status, "ok") != 0) {
        snprintf(d, sizeof(d),
                 "The run did not finish: the model covers the %" PRIu64 " execution%s that ran.",
                 r->run.executions, r->run.executions == 1 ? "" : "s");
        note_text(f, d);
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
            card(f, k, NULL, v, NULL);
        }
    snprintf(v, sizeof(v), "%.1f%%", oh->all_pct);
    card(f, "all", NULL, v, "every engine blocked");
    snprintf(v, sizeof(v), "%.1f%%", oh->has_pct);
    card(f, "has", NULL, v, oh->verdict[0] ? oh->verdict : NULL);
    if (oh->cp_span_us > 0) {
        snprintf(v, sizeof(v), "%.1f%% scheduler", 100 * oh->cp_sched_us / oh->cp_span_us);
        char span[32];
        fmt_time(span, sizeof(span), oh->cp_span_us);
        snprintf(d, sizeof(d), "of the %s critical path (%.0f hops); compute %.1f%%", span, oh->cp_hops,
                 100 * oh->cp_compute_us / oh->cp_span_us);
        card(f, "critical path", NULL, v, d);
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
        hp(f,
           "<tr><td class=\"l\">%s</td><td>%" PRIu64
           "</td><td>%.3f</td><td>%.3f</td><td>%.3f</td><td>%" PRIu64 "</td><td>%.3f</td>",
           TY[ty], e->cores, e->min_us, e->mean_us, e->max_us, e->events, e->us_per_event);
        if (tot > 0)
            hp(f, "<td>%.0f%%</td></tr>\n", 100 * e->during_us / tot);
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
        hp(f,
           "<tr><td class=\"l\">%s</td><td>%" PRIu64
           "</td><td>%.3f</td><td>%.3f</td><td>%.3f</td><td>%.3f</td><td>%.3f</td></tr>\n",
           DN[i], x->n, x->p50, x->p90, x->p99, x->max, x->mean);
    }
    fputs("</table>\n", f);
    if (oh->cp_span_us > 0) {
        hp(f,
           "<p id=\"oh-cp\">Critical path (each task's producer that ended last): %.3f µs of compute, %.3f "
           "µs "
           "injected by the scheduler (producer end to consumer start, and the first task's dispatch to "
           "start), %.3f µs other.</p>\n",
           oh->cp_compute_us, oh->cp_sched_us, oh->cp_other_us);
    }
    if (oh->tool) {
        hp(f,
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

/* ------------------------------------------------------------------ */
/* Swimlane                                                            */
/* ------------------------------------------------------------------ */

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

/* Time axis unit for a span in microseconds. */
static void time_unit(double span_us, double *div, const char **name)
{
    if (span_us >= 1e7) {
        *div = 1e6;
        *name = "s";
    } else if (span_us >= 1e4) {
        *div = 1e3;
        *name = "ms";
    } else {
        *div = 1;
        *name = "µs";
    }
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
    time_unit(span_us, &div, &unit);
    double span = span_us / div, step = nice_step(span, 10);
    int dec = step_decimals(step);
    for (double t = 0; t <= span * (1 + 1e-9); t += step) {
        double x = SL_LEFT + (span > 0 ? t / span : 0) * HTMLREP_BINS;
        char lab[32];
        fmt_num(lab, sizeof(lab), t, dec);
        hp(f,
           "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/><text class=\"tick\" "
           "x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
           x, SL_TOP - 4, x, L->bottom + 2, x, L->bottom + 15, lab);
    }
    hp(f, "<text class=\"title\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">time since launch (%s)</text>\n",
       SL_LEFT + HTMLREP_BINS / 2, L->bottom + 32, unit);
}

/* Lane backgrounds and labels: every lane is named (lanes are at least SL_MIN_LANE_H high). */
static void swimlane_lanes(FILE *f, const rep *r, const lanes *L)
{
    const rd_swimlane *sl = &r->sl;
    if (L->cp_y >= 0)
        hp(f,
           "<rect id=\"cp-lane-bg\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fbeaea\"/><text "
           "class=\"lane\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">critical path</text>\n",
           SL_LEFT, L->cp_y, HTMLREP_BINS, CP_LANE_H, SL_LEFT - 5, L->cp_y + CP_LANE_H / 2.0 + 3);
    for (int c = 0; c < sl->ncores; c++) {
        bool aic = sl->aic[c];
        hp(f,
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
        hp(f, "<g class=\"%s\">\n", pass == 0 ? "aic" : pass == 1 ? "aiv" : "cp");
        for (size_t i = 0; i < sl->nex; i++) {
            const rd_exec *e = &sl->ex[i];
            bool cp = mark[i] == 2;
            if (pass == 2 ? !cp : (cp || sl->aic[e->core] != (pass == 0)))
                continue;
            double x = SL_LEFT + (double)(e->start - L->t0) * L->sx, w = (double)(e->end - e->start) * L->sx;
            char tn[32], kn[2 * RD_NAME_MAX];
            task_name(tn, sizeof(tn), e->task);
            task_kernel(r, kn, sizeof(kn), e->task, sl->aic[e->core]);
            hp(f, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\"><title>%s ", x, L->y[e->core] + 1,
               w < 0.6 ? 0.6 : w, L->lh - 2, tn);
            esc(f, kn);
            hp(f, " on %s_%d: %.3f–%.3f µs (%.3f µs)%s</title></rect>\n", sl->aic[e->core] ? "AIC" : "AIV",
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
static void swimlane_path_lane(FILE *f, const rep *r, const lanes *L, const long *gate, bool bars)
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
        fputs("<path class=\"cp\" id=\"cp-lane\" d=\"", f);
        for (int b = 0; b < HTMLREP_BINS;) {
            if (!col[b]) {
                b++;
                continue;
            }
            int e = b + 1;
            while (e < HTMLREP_BINS && col[e])
                e++;
            hp(f, "M%d %dh%dv%dh-%dz", SL_LEFT + b, L->cp_y + 2, e - b, CP_LANE_H - 4, e - b);
            b = e;
        }
        fputs("\"/>\n", f);
        return;
    }
    fputs("<g class=\"cp\" id=\"cp-lane\">\n", f);
    for (size_t i = 0, k = 0; i < r->cp.n; i++) {
        const rd_step *s = &r->cp.v[i];
        if (!s->executed)
            continue;
        double x = SL_LEFT + (double)(s->start - L->t0) * L->sx, w = (double)(s->end - s->start) * L->sx;
        char tn[32], kn[3 * RD_NAME_MAX];
        task_name(tn, sizeof(tn), s->task);
        task_kernel(r, kn, sizeof(kn), s->task, -1);
        hp(f, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\"><title>%s ", x, L->cp_y + 2,
           w < 0.6 ? 0.6 : w, CP_LANE_H - 4, tn);
        esc(f, kn);
        hp(f, ": %.3f–%.3f µs (%.3f µs)", (double)(s->start - L->t0) * us, (double)(s->end - L->t0) * us,
           (double)(s->end - s->start) * us);
        long g = gate[k++];
        if (g >= 0)
            hp(f, ", last block on %s_%d", sl->aic[sl->ex[g].core] ? "AIC" : "AIV", sl->ex[g].core);
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
            hp(f, "<path d=\"M%.1f %.1fH%.1f\"/>\n", SL_LEFT + (double)(prev->end - L->t0) * L->sx, yc,
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
                        hp(f, "<path class=\"%s\" fill-opacity=\"%s\" d=\"", sl->aic[c] ? "aic" : "aiv",
                           shade[lv]);
                    any = true;
                }
                hp(f, "M%d %dh%dv%dh-%dz", SL_LEFT + b, y, e - b, h, e - b);
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
                hp(f, "<tr><td colspan=\"7\" class=\"l\">... %zu more tasks ...</td></tr>\n", n - 2 * half);
        } else {
            char tn[32], kn[3 * RD_NAME_MAX];
            task_name(tn, sizeof(tn), s->task);
            task_kernel(r, kn, sizeof(kn), s->task, -1);
            hp(f, "<tr><td>%zu</td><td class=\"l\">%s</td><td class=\"l\">", i + 1, tn);
            esc(f, kn[0] ? kn : "?");
            if (s->executed) {
                hp(f, "</td><td>%.3f</td><td>%.3f</td><td>%.3f</td>", (double)(s->start - t0) * us,
                   (double)(s->end - t0) * us, (double)(s->end - s->start) * us);
                if (have_prev)
                    hp(f, "<td>%.3f</td>", ((double)s->start - (double)prev_end) * us);
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

static void section_swimlane(rep *r)
{
    FILE *f = r->f;
    const rd_swimlane *sl = &r->sl;
    fputs("<section id=\"swimlane\">\n<h2>Swimlane</h2>\n", f);
    if (r->sl_rc != RD_OK) {
        hp(f,
           "<p class=\"note\">No swimlane: <code>%schip_swimlane_records.json</code> is absent (run with "
           "<code>--enable-chip-swimlane</code>).</p>\n",
           r->dfx_rel);
        fputs("</section>\n", f);
        return;
    }
    if (!sl->nex || !sl->ncores) {
        note(f, "The swimlane file holds no AICore executions (the run ended before any task ran).");
        fputs("</section>\n", f);
        return;
    }
    lanes L = {0};
    /* every lane keeps room for its 9 px label, so a 72-core chip is 792 px of lanes */
    L.lh = sl->ncores <= 16 ? 18 : sl->ncores <= 32 ? 14 : SL_MIN_LANE_H;
    L.cp_y = -1;
    L.y = malloc((size_t)sl->ncores * sizeof(*L.y));
    if (!L.y) {
        note(f, "Out of memory drawing the swimlane.");
        fputs("</section>\n", f);
        return;
    }
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
    uint64_t lo = UINT64_MAX, hi = 0;
    for (size_t i = 0; i < sl->nex; i++) {
        if (sl->ex[i].start < lo)
            lo = sl->ex[i].start;
        if (sl->ex[i].end > hi)
            hi = sl->ex[i].end;
    }
    /* time 0 is the launch (sys_cnt_origin_ticks), so the axis ends at the makespan */
    L.t0 = r->run.origin_ticks && r->run.origin_ticks <= lo ? r->run.origin_ticks : lo;
    uint64_t mk = L.t0 + (uint64_t)llround(r->run.makespan_us * (double)sl->clock_hz / 1e6);
    L.t1 = mk > hi ? mk : hi;
    if (L.t1 <= L.t0)
        L.t1 = L.t0 + 1;
    L.sx = (double)HTMLREP_BINS / (double)(L.t1 - L.t0);

    unsigned char *mark = NULL;
    long *gate = NULL;
    size_t ngate = 0;
    if (mark_critical(r, &mark, &gate, &ngate) != 0) {
        note(f, "Out of memory drawing the swimlane.");
        free(mark);
        free(gate);
        free(L.y);
        fputs("</section>\n", f);
        return;
    }
    bool bars = sl->nex <= HTMLREP_MAX_BARS;
    double us = 1e6 / (double)sl->clock_hz;

    hp(f, "<p class=\"sub\">%zu AICore executions on %d cores (level %d records). ", sl->nex, sl->ncores,
       sl->level);
    if (bars)
        fputs("Each bar is one execution, from kernel start to end; hover for its task and times.</p>\n", f);
    else
        hp(f,
           "Too many to draw one by one (more than %d): each core's time line is cut into %d columns, "
           "each shaded by the share of it the core was busy (4 shades); columns where a critical task's "
           "last execution ran are red.</p>\n",
           HTMLREP_MAX_BARS, HTMLREP_BINS);
    if (r->deps_rc != RD_OK)
        hp(f,
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
        task_name(a, sizeof(a), r->cp.v[0].task);
        task_name(b, sizeof(b), r->cp.v[r->cp.n - 1].task);
        double span = (double)(last - first) * us;
        hp(f,
           "<p id=\"cp-summary\">Critical path (red): <b>%zu tasks</b>, %s to %s, walked back from the "
           "task that finished last through the predecessor that finished last (deps.json edges). It has a "
           "lane of its own above the cores: a bar per task from its first start to its last end, joined "
           "through the waits between them. In a core's lane a red bar is a critical task's last execution "
           "(of an SPMD or MIX task, the block its successor waited on). It starts at %.3f µs; in the %.3f "
           "µs from there to its end its tasks ran %.3f µs "
           "(%.1f%%), the rest is waiting between them.</p>\n",
           r->cp.n, a, b, (double)(first - L.t0) * us, span, ran, span > 0 ? 100 * ran / span : 0);
    }

    int h = L.bottom + 44;
    hp(f,
       "<svg id=\"swimlane-chart\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
       "aria-label=\"swimlane: executions per core over time\" data-mode=\"%s\">\n",
       SL_W, h, SL_W, h, bars ? "bars" : "bins");
    /* legend */
    int lx = SL_LEFT;
    hp(f,
       "<rect class=\"aic\" x=\"%d\" y=\"8\" width=\"14\" height=\"10\"/><text x=\"%d\" y=\"17\">AIC "
       "(cube)</text>",
       lx, lx + 18);
    lx += 100;
    hp(f,
       "<rect class=\"aiv\" x=\"%d\" y=\"8\" width=\"14\" height=\"10\"/><text x=\"%d\" y=\"17\">AIV "
       "(vector)</text>",
       lx, lx + 18);
    lx += 110;
    if (r->cp.n) {
        hp(f,
           "<rect class=\"cp\" x=\"%d\" y=\"8\" width=\"14\" height=\"10\"/><text x=\"%d\" "
           "y=\"17\">critical path</text>",
           lx, lx + 18);
        lx += 120;
    }
    if (!bars) {
        static const char *const sh[4] = {"0.3", "0.5", "0.75", "1"};
        hp(f, "<text x=\"%d\" y=\"17\">busy share of a column:</text>", lx);
        lx += 150;
        for (int i = 0; i < 4; i++, lx += 52)
            hp(f,
               "<rect class=\"aic\" fill-opacity=\"%s\" x=\"%d\" y=\"8\" width=\"14\" height=\"10\"/>"
               "<text x=\"%d\" y=\"17\">%d%%</text>",
               sh[i], lx, lx + 18, 25 * (i + 1));
    }
    fputc('\n', f);
    swimlane_lanes(f, r, &L);
    swimlane_axis(f, r, &L);
    if (bars)
        swimlane_bars(f, r, &L, mark);
    else if (swimlane_bins(f, r, &L, mark) != 0)
        fputs("<text x=\"100\" y=\"60\">out of memory</text>", f);
    if (L.cp_y >= 0)
        swimlane_path_lane(f, r, &L, gate, bars);
    hp(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n</svg>\n", SL_LEFT, L.bottom + 2,
       SL_LEFT + HTMLREP_BINS, L.bottom + 2);
    if (r->cp.n)
        path_table(r, L.t0);
    free(mark);
    free(gate);
    free(L.y);
    fputs("</section>\n", f);
}

/* ------------------------------------------------------------------ */
/* Rings                                                               */
/* ------------------------------------------------------------------ */

static void pct_cell(FILE *f, uint64_t peak, uint64_t cap, bool bytes)
{
    char a[32], b[32];
    if (bytes) {
        fmt_bytes(a, sizeof(a), (double)peak);
        fmt_bytes(b, sizeof(b), (double)cap);
    } else {
        snprintf(a, sizeof(a), "%" PRIu64, peak);
        snprintf(b, sizeof(b), "%" PRIu64, cap);
    }
    double p = cap ? 100.0 * (double)peak / (double)cap : 0;
    hp(f, "<td style=\"background:rgba(214,39,40,%.2f)\">%s / %s (%.1f%%)</td>", p >= 100 ? 0.5 : p / 200, a,
       b, p);
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
        hp(f, "<tr><td>%d</td>", i);
        pct_cell(f, g->task_window_peak, g->task_window, false);
        pct_cell(f, g->heap_peak, g->heap, true);
        pct_cell(f, g->dep_pool_peak, g->dep_pool, false);
        fputs(g->blocked_us > 0 ? "<td style=\"background:rgba(214,39,40,0.25)\">" : "<td>", f);
        hp(f, "%.3f</td></tr>\n", g->blocked_us);
    }
    fputs("</table>\n", f);
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
    double step = nice_step(top, 5);
    if (res == 1) { /* byte ticks on binary steps */
        double s = 1;
        while (s * 6 < top)
            s *= 2;
        step = s;
    }
    top = ceil(top / step) * step;
    double span_us = run->makespan_us > 0 ? run->makespan_us : oc->bucket_us * oc->n, div;
    const char *unit;
    time_unit(span_us, &div, &unit);
    axis ax = {0, span_us, CH_LEFT, CH_LEFT + CH_PLOT_W, false};
    axis ay = {0, top, CH_TOP + CH_PLOT_H, CH_TOP, false};

    hp(f, "<figure id=\"ring-%s\"><figcaption>%s per ring</figcaption>\n", id[res], title[res]);
    hp(f,
       "<svg class=\"ring-chart\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
       "aria-label=\"%s over simulated time\">\n",
       CH_W, CH_H, CH_W, CH_H, title[res]);
    y_ticks(f, &ay, step, CH_LEFT, CH_LEFT + CH_PLOT_W, res == 1 ? 'b' : 'n');
    /* x ticks: simulated time */
    double xs = nice_step(span_us / div, 6);
    int dec = step_decimals(xs);
    for (double v = 0; v <= span_us / div * (1 + 1e-9); v += xs) {
        char lab[32];
        fmt_num(lab, sizeof(lab), v, dec);
        hp(f, "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>",
           ax_px(&ax, v * div), CH_TOP + CH_PLOT_H + 14, lab);
    }
    hp(f,
       "\n<text class=\"title\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">simulated time since launch "
       "(%s)</text>\n",
       CH_LEFT + CH_PLOT_W / 2, CH_TOP + CH_PLOT_H + 34, unit);
    hp(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", CH_LEFT, CH_TOP + CH_PLOT_H,
       CH_LEFT + CH_PLOT_W, CH_TOP + CH_PLOT_H);
    if (show_cap) {
        for (int g = 0; g < RD_RINGS; g++) {
            if (!oc->used[g] || (same_cap && g != first))
                continue;
            double yc = ax_px(&ay, (double)cap[g]);
            hp(f,
               "<line class=\"cap\" data-ring=\"%d\" stroke=\"%s\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" "
               "y2=\"%.1f\"/>",
               same_cap ? -1 : g, same_cap ? "#555" : RING_COL[g], CH_LEFT, yc, CH_LEFT + CH_PLOT_W, yc);
            if (same_cap)
                hp(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">capacity</text>",
                   CH_LEFT + CH_PLOT_W - 4, yc - 4);
            fputc('\n', f);
        }
    }
    /* each bucket as a step [i, i + 1) x width, cut at the end of the run */
    for (int g = 0; g < RD_RINGS; g++) {
        if (!oc->used[g])
            continue;
        hp(f, "<polygon class=\"band\" data-ring=\"%d\" fill=\"%s\" points=\"", g, RING_COL[g]);
        for (int pass = 0; pass < 2; pass++) /* the highs left to right, then the lows back */
            for (int j = 0; j < oc->n; j++) {
                int i = pass ? oc->n - 1 - j : j;
                double x0 = ax_px(&ax, i * oc->bucket_us),
                       x1 = ax_px(&ax, (i + 1) * oc->bucket_us < span_us ? (i + 1) * oc->bucket_us : span_us);
                double y = ax_px(&ay, (double)(pass ? oc->lo[g][res][i] : oc->hi[g][res][i]));
                hp(f, "%s%.1f,%.1f %.1f,%.1f", pass || j ? " " : "", pass ? x1 : x0, y, pass ? x0 : x1, y);
            }
        hp(f, "\"/>\n<polyline class=\"series\" data-ring=\"%d\" stroke=\"%s\" points=\"", g, RING_COL[g]);
        double lx = -1, ly = -1;
        for (int i = 0; i < oc->n; i++) {
            double x0 = ax_px(&ax, i * oc->bucket_us),
                   x1 = ax_px(&ax, (i + 1) * oc->bucket_us < span_us ? (i + 1) * oc->bucket_us : span_us);
            double y = ax_px(&ay, (double)oc->hi[g][res][i]);
            char a[48], b[48];
            snprintf(a, sizeof(a), "%.1f,%.1f", x0, y);
            snprintf(b, sizeof(b), "%.1f,%.1f", lx, ly);
            if (strcmp(a, b) != 0) /* the step's start, unless the last point was already there */
                hp(f, "%s%s", i ? " " : "", a);
            hp(f, " %.1f,%.1f", x1, y);
            lx = x1;
            ly = y;
        }
        fputs("\"/>\n", f);
    }
    fputs("</svg>\n<ul class=\"legend\">", f);
    for (int g = 0; g < RD_RINGS; g++) {
        char a[32], b[32];
        if (res == 1) {
            fmt_bytes(a, sizeof(a), (double)peak[g]);
            fmt_bytes(b, sizeof(b), (double)cap[g]);
        } else {
            snprintf(a, sizeof(a), "%" PRIu64, peak[g]);
            snprintf(b, sizeof(b), "%" PRIu64, cap[g]);
        }
        if (oc->used[g])
            hp(f,
               "<li><span class=\"sw\" style=\"background:%s\"></span>ring %d: highest %s of %s "
               "(%.1f%%)</li>",
               RING_COL[g], g, a, b, cap[g] ? 100.0 * (double)peak[g] / (double)cap[g] : 0);
        else
            hp(f, "<li><span class=\"sw\" style=\"background:#ccc\"></span>ring %d: never used</li>", g);
    }
    if (!show_cap && maxv > 0)
        hp(f,
           "<li>the capacity lines are above this scale (every ring stays under 20%% of its capacity)</li>");
    fputs("</ul></figure>\n", f);
}

/* Scope stats (dfx_outputs/scope_stats/scope_stats.jsonl): per ring, how many scope boundaries were sampled
 * and the most each resource held at one. */
static void scope_table(rep *r)
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
    hp(f,
       "<p class=\"sub\">%zu samples, one at every scope begin and end; the runtime stamps them with no "
       "time, so they are counted here, not drawn%s.%s%s</p>\n",
       sc->n, r->capture ? "" : " (the charts above are over simulated time)", sc->fatal ? " A runtime fatal was latched: later samples are diagnostic only." : "",
       sc->dropped ? " Some records were dropped on the device." : "");
    fputs("<table id=\"scope-table\"><tr><th>ring</th><th>samples</th><th>highest task window</th>"
          "<th>highest heap</th><th>highest dep pool</th></tr>\n",
          f);
    for (int g = 0; g < RD_RINGS; g++) {
        char h[32];
        fmt_bytes(h, sizeof(h), (double)mx[g][1]);
        if (n[g])
            hp(f,
               "<tr><td>%d</td><td>%" PRIu64 "</td><td>%" PRIu64 "</td><td>%s</td><td>%" PRIu64
               "</td></tr>\n",
               g, n[g], mx[g][0], h, mx[g][2]);
        else
            hp(f, "<tr><td>%d</td><td>0</td><td>-</td><td>-</td><td>-</td></tr>\n", g);
    }
    fputs("</table>\n", f);
}

static void section_rings(rep *r)
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
        note(f, "This <code>ptosim_run.json</code> has no <code>ring_occupancy</code>: it was written before "
                "ptosim recorded ring occupancy over time; run the graph again.");
    else if (!any || !oc->n)
        note(f, "No ring held anything during the run.");
    else {
        char w[32];
        fmt_time(w, sizeof(w), oc->bucket_us);
        hp(f,
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
        note(f, "No scope stats: <code>dfx_outputs/scope_stats/scope_stats.jsonl</code> is absent (run with "
                "<code>--enable-scope-stats</code>).");
    else if (!r->sc.n)
        note(f, "The scope stats file has no samples (no scope was recorded).");
    else
        scope_table(r);
    fputs("</section>\n", f);
}

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
    hp(f,
       "<svg id=\"pipes-chart\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
       "aria-label=\"pipe busy fraction per kernel\">\n",
       w, h, w, h);
    hp(f, "<text class=\"title\" x=\"8\" y=\"%d\">kernel</text>", top - 10);
    hp(f, "<text class=\"title\" x=\"%d\" y=\"%d\">time on cores (µs)</text>", name_w + 10, top - 10);
    for (int p = 0; p < PIPE_COUNT; p++)
        hp(f, "<text class=\"title\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>",
           x0 + p * cw + cw / 2, top - 10, pipe_name((pipe_id)p));
    fputc('\n', f);
    for (int i = 0; i < n; i++) {
        const rd_kernel *k = &run->kernels[idx[i]];
        int y = top + i * rh;
        bool bn = run->bottleneck && strcmp(k->name, run->bn_kernel) == 0;
        hp(f, "<g class=\"krow\" data-kernel=\"");
        esc(f, k->name);
        hp(f, "\"><rect x=\"0\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>", y, x0 + PIPE_COUNT * cw,
           rh, bn ? "#fff4d6" : (i % 2 ? "#fafafa" : "#ffffff"));
        hp(f, "<rect class=\"%s\" x=\"8\" y=\"%d\" width=\"8\" height=\"%d\"/>", k->aic ? "aic" : "aiv",
           y + 5, rh - 10);
        char nm[RD_NAME_MAX + 8];
        snprintf(nm, sizeof(nm), "%.24s%s", k->name, strlen(k->name) > 24 ? "..." : "");
        hp(f, "<text x=\"22\" y=\"%d\">", y + 16);
        esc(f, nm);
        hp(f, "%s</text>", bn ? " *" : "");
        double bw = tmax > 0 ? k->core_time_us / tmax * (bar_w - 60) : 0;
        hp(f,
           "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#9aa7b5\"/><text x=\"%.1f\" "
           "y=\"%d\">%.1f</text>",
           name_w + 10, y + 6, bw, rh - 12, name_w + 14 + bw, y + 16, k->core_time_us);
        for (int p = 0; p < PIPE_COUNT; p++) {
            int x = x0 + p * cw;
            double v = k->pipe[p];
            if (v < 0) {
                hp(f,
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
            hp(f,
               "<rect class=\"cell%s\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"rgb(%d,%d,%d)\"",
               busiest ? " busiest" : "", x + 1, y + 1, cw - 2, rh - 2, cr, cg, cb);
            fputs(busiest ? " stroke=\"#111\" stroke-width=\"2\"/>" : "/>", f);
            hp(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\"", x + cw / 2, y + 16);
            fputs(t > 0.55 ? " style=\"fill:#fff\">" : ">", f);
            hp(f, "%.0f%%</text>", 100 * v);
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
    hp(f,
       "<h3>PMU counters per kernel (pmu.csv, event group %d %s, %" PRIu64 " rows)</h3>\n<p "
       "class=\"sub\">Counters ending in <code>_cycles</code> as a share of <code>pmu_total_cycles</code>; "
       "the others summed over the kernel's executions.</p>\n<table id=\"pmu-table\"><tr><th "
       "class=\"l\">kernel</th><th class=\"l\">core</th><th>rows</th><th>mean total cycles</th>",
       pm->event_type, pmu_group_name(pm->event_type), pm->rows);
    for (int c = 0; c < pm->ncounters; c++) { /* let long counter names wrap at their underscores */
        fputs("<th>", f);
        for (const char *q = pm->counter_name[c]; *q; q++) {
            char one[2] = {*q, 0};
            esc(f, one);
            if (*q == '_')
                fputs("<wbr>", f);
        }
        fputs("</th>", f);
    }
    fputs("</tr>\n", f);
    for (int i = 0; i < pm->nfuncs; i++) {
        const rd_pmu_func *pf = &pm->funcs[i];
        char nm[RD_NAME_MAX];
        func_label(r, nm, sizeof(nm), (int)pf->func_id);
        fputs("<tr><td class=\"l\">", f);
        esc(f, nm);
        hp(f, "</td><td class=\"l\">%s</td><td>%" PRIu64 "</td><td>%.0f</td>", pf->core_type ? "AIV" : "AIC",
           pf->rows, pf->rows ? (double)pf->total_cycles / (double)pf->rows : 0);
        for (int c = 0; c < pm->ncounters; c++) {
            if (ends_with(pm->counter_name[c], "_cycles")) {
                double v = pf->total_cycles ? (double)pf->counter[c] / (double)pf->total_cycles : 0;
                hp(f, "<td style=\"background:rgba(183,28,28,%.2f)\">%.1f%%</td>", v > 1 ? 0.6 : v * 0.6,
                   100 * v);
            } else {
                hp(f, "<td>%" PRIu64 "</td>", pf->counter[c]);
            }
        }
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
}

static void section_pipes(rep *r)
{
    FILE *f = r->f;
    const rd_run *run = &r->run;
    fputs("<section id=\"pipes\">\n<h2>Pipes</h2>\n", f);
    if (r->capture) {
        note(f, "A capture has no kernel cost model, so no pipe busy fractions: only the PMU counters the "
                "runtime read.");
        if (r->pmu_rc == RD_OK)
            pmu_table(r);
        else
            note(f, "No <code>pmu.csv</code> (the runtime writes it with <code>--enable-pmu</code>): no PMU "
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
            bool named = strcmp(run->status, "ok") == 0 && !dump_bound(run);
            fputs(named ? "; the run's bottleneck"
                        : "; the busiest pipe of the kernel with the most time on cores",
                  f);
            hp(f, " (*) is the <b>%s</b> pipe of <b>", run->bn_pipe);
            esc(f, run->bn_kernel);
            hp(f, "</b>, busy %.1f%% of its time on cores", 100 * run->bn_fraction);
        }
        fputs(".</p>\n", f);
        pipes_heatmap(r);
    } else {
        note(f, "No kernel has a pipe cost model (flat costs only), so there are no pipe busy fractions.");
    }
    if (npipes < run->nkernels) {
        fputs("<p class=\"note\">Kernels with a flat cost (no pipe model): ", f);
        for (int i = 0, k = 0; i < run->nkernels; i++)
            if (!run->kernels[i].has_pipes) {
                fputs(k++ ? ", " : "", f);
                esc(f, run->kernels[i].name);
            }
        fputs(".</p>\n", f);
    }
    if (r->pmu_rc == RD_OK)
        pmu_table(r);
    else
        note(f, "No <code>dfx_outputs/pmu.csv</code> (run with <code>--enable-pmu</code>): no PMU counters.");
    fputs("</section>\n", f);
}

/* ------------------------------------------------------------------ */
/* Sweep                                                               */
/* ------------------------------------------------------------------ */

static void knob_value_label(char *b, size_t n, const rd_sweep *sw, const rd_knob *k, uint64_t v)
{
    if (RD_KNOB_IS_EXTRA(k))
        snprintf(b, n, "%s", sw->extra_val[k->column - RD_KNOB_COLUMNS][v]);
    else if (k->column == RD_KNOB_HEAP)
        fmt_bytes(b, n, (double)v);
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
            double x = ax_px(ax, (double)pts[g][i].x);
            char lab[RD_VALUE_MAX];
            knob_value_label(lab, sizeof(lab), sw, k, pts[g][i].x);
            hp(f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>", x, plot_top, x,
               CH_TOP + CH_PLOT_H + 4);
            if (x - last_x >= 7.0 * (double)strlen(lab) + 6) {
                hp(f, "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>", x,
                   CH_TOP + CH_PLOT_H + 16, lab);
                last_x = x;
            }
            fputc('\n', f);
        }
    hp(f, "<text class=\"title\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">", CH_LEFT + CH_PLOT_W / 2,
       CH_TOP + CH_PLOT_H + 36);
    esc(f, k->label);
    hp(f, "%s</text>\n", ax->log ? " (log2 scale)" : "");
    hp(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", CH_LEFT, CH_TOP + CH_PLOT_H,
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
    double step = nice_step(ymax * 1.05, 5), top = ceil(ymax * 1.05 / step) * step;
    axis ay = {0, top, CH_TOP + CH_PLOT_H, CH_TOP, false};
    hp(f,
       "<svg class=\"blocked-chart\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
       "aria-label=\"orchestrator blocked per ring against %s\">\n",
       CH_W, CH_H, CH_W, CH_H, k->label);
    y_ticks(f, &ay, step, CH_LEFT, CH_LEFT + CH_PLOT_W, 'n');
    hp(f,
       "<text class=\"title\" transform=\"translate(14 %d) rotate(-90)\" text-anchor=\"middle\">blocked "
       "(µs)</text>\n",
       CH_TOP + CH_PLOT_H / 2);
    sweep_x_axis(f, sw, k, pts, np, ax, CH_TOP);
    for (int g = 0; g < sw->ngroups; g++)
        for (int q = 0; q < RD_RINGS; q++) {
            if (!(rings >> q & 1))
                continue;
            hp(f, "<polyline class=\"blocked\" data-group=\"%d\" data-ring=\"%d\" stroke=\"%s\"", g, q,
               RING_COL[q]);
            fputs(g ? " stroke-dasharray=\"5 3\" data-points=\"" : " data-points=\"", f);
            for (int i = 0, n = 0; i < np[g]; i++)
                if (pts[g][i].best)
                    hp(f, "%s%" PRIu64 ":%.3f", n++ ? " " : "", pts[g][i].x, pts[g][i].best->blocked[q]);
            fputs("\" points=\"", f);
            for (int i = 0, n = 0; i < np[g]; i++)
                if (pts[g][i].best)
                    hp(f, "%s%.1f,%.1f", n++ ? " " : "", ax_px(ax, (double)pts[g][i].x),
                       ax_px(&ay, pts[g][i].best->blocked[q]));
            fputs("\"/>\n", f);
            for (int i = 0; i < np[g]; i++) {
                const rd_point *p = &pts[g][i];
                if (!p->best)
                    continue;
                char lab[RD_VALUE_MAX];
                knob_value_label(lab, sizeof(lab), sw, k, p->x);
                hp(f,
                   "<circle class=\"pt\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"><title>ring %d at %s: "
                   "blocked %.3f µs (line %d)</title></circle>\n",
                   ax_px(ax, (double)p->x), ax_px(&ay, p->best->blocked[q]), RING_COL[q], q, lab,
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
        step = nice_step(span + 2 * pad, 5);
        ylo = floor((ymin - pad) / step) * step;
        top = ceil((ymax + pad) / step) * step;
        if (ylo < 0)
            ylo = 0;
    } else {
        step = nice_step(ymax > 0 ? ymax * 1.05 : 1, 5);
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
    hp(f, "<figure class=\"sweep-fig\" id=\"sweep-knob-%d\"><figcaption>makespan", ki);
    if (sw->has_repeat)
        fputs(" (mean over seeds)", f);
    if (sw->has_blocked)
        fputs(" and orchestrator blocked time", f);
    fputs(" against ", f);
    esc(f, k->label);
    fputs("</figcaption>\n<div class=\"pair\">\n", f);
    hp(f,
       "<svg class=\"sweep-chart\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
       "aria-label=\"makespan against %s\" data-y-range=\"%.6g %.6g\">\n",
       CH_W, CH_H, CH_W, CH_H, k->label, ylo, top);
    y_ticks(f, &ay, step, CH_LEFT, CH_LEFT + CH_PLOT_W, 'n');
    hp(f,
       "<text class=\"title\" transform=\"translate(14 %d) rotate(-90)\" text-anchor=\"middle\">makespan "
       "(µs)</text>\n",
       CH_TOP + CH_PLOT_H / 2);
    if (zoom) {
        char from[32];
        fmt_num(from, sizeof(from), ylo, step_decimals(step));
        hp(f,
           "<path class=\"axis-break\" d=\"M%d %dl6 -3m-6 7l6 -3\" stroke=\"#555\"/><text class=\"baseline-note\" "
           "x=\"%d\" y=\"%d\" fill=\"#555\">y axis from %s µs, not 0: the points lie within %.1f%% of each "
           "other</text>\n",
           CH_LEFT - 3, CH_TOP + CH_PLOT_H - 2, CH_LEFT + 4, CH_TOP + CH_PLOT_H - 4, from,
           100 * (ymax - ymin) / ymax);
    }
    sweep_x_axis(f, sw, k, pts, np, &ax, plot_top);
    for (int g = 0; g < sw->ngroups && sw->has_repeat; g++) { /* the noise: mean ± one standard deviation */
        const char *col = GROUP_COL[(size_t)g % NGROUP_COL];
        hp(f, "<polygon class=\"noise\" data-group=\"%d\" fill=\"%s\" fill-opacity=\"0.18\" stroke=\"none\" "
              "points=\"", g, col);
        int n = 0;
        for (int i = 0; i < np[g]; i++)
            if (pts[g][i].nok)
                hp(f, "%s%.1f,%.1f", n++ ? " " : "", ax_px(&ax, (double)pts[g][i].x),
                   ax_px(&ay, pts[g][i].makespan_us + pts[g][i].best->sigma_us));
        for (int i = np[g] - 1; i >= 0; i--)
            if (pts[g][i].nok) {
                double lo = pts[g][i].makespan_us - pts[g][i].best->sigma_us;
                hp(f, " %.1f,%.1f", ax_px(&ax, (double)pts[g][i].x), ax_px(&ay, lo > ylo ? lo : ylo));
            }
        fputs("\"/>\n", f);
    }
    for (int g = 0; g < sw->ngroups; g++) {
        const char *col = GROUP_COL[(size_t)g % NGROUP_COL];
        hp(f, "<polyline class=\"curve\" data-group=\"%d\" stroke=\"%s\" data-points=\"", g, col);
        for (int i = 0, n = 0; i < np[g]; i++)
            if (pts[g][i].nok)
                hp(f, "%s%" PRIu64 ":%.3f", n++ ? " " : "", pts[g][i].x, pts[g][i].makespan_us);
        fputs("\" points=\"", f);
        for (int i = 0, n = 0; i < np[g]; i++)
            if (pts[g][i].nok)
                hp(f, "%s%.1f,%.1f", n++ ? " " : "", ax_px(&ax, (double)pts[g][i].x),
                   ax_px(&ay, pts[g][i].makespan_us));
        fputs("\"/>\n", f);
        for (int i = 0; i < np[g]; i++) {
            const rd_point *p = &pts[g][i];
            char lab[RD_VALUE_MAX], st[RD_NAME_MAX + 64];
            knob_value_label(lab, sizeof(lab), sw, k, p->x);
            double x = ax_px(&ax, (double)p->x);
            if (p->nok && sw->has_repeat) {
                hp(f,
                   "<circle class=\"pt\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"><title>%s: mean %.3f µs, "
                   "sigma %.3f over %d runs (best of %d ok of %d rows)</title></circle>\n",
                   x, ax_px(&ay, p->makespan_us), col, lab, p->makespan_us, p->best->sigma_us, p->best->runs,
                   p->nok, p->nrows);
            } else if (p->nok) {
                hp(f,
                   "<circle class=\"pt\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"><title>%s: %.3f µs "
                   "(best of %d ok of %d rows)</title></circle>\n",
                   x, ax_px(&ay, p->makespan_us), col, lab, p->makespan_us, p->nok, p->nrows);
            } else {
                row_status(st, sizeof(st), p->fail);
                hp(f,
                   "<path class=\"fail\" d=\"M%.1f %dl8 8m0 -8l-8 8\"><title>%s: every row failed, first: "
                   "line %d, %s</title></path>\n",
                   x - 4, CH_TOP + 2, lab, p->fail->line, st);
            }
        }
    }
    if (best) {
        char lab[RD_VALUE_MAX];
        knob_value_label(lab, sizeof(lab), sw, k, best->x);
        double x = ax_px(&ax, (double)best->x), y = ax_px(&ay, best->makespan_us);
        hp(f,
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
            hp(f, "<li><span class=\"sw\" style=\"background:%s\"></span>",
               GROUP_COL[(size_t)g % NGROUP_COL]);
            esc(f, sw->groups[g][0]);
            fputs(" on ", f);
            esc(f, sw->groups[g][1]);
            hp(f, "%s</li>", sw->ngroups > 1 && g ? " (its blocked lines dashed)" : "");
        }
    for (int q = 0; q < RD_RINGS; q++)
        if (rings >> q & 1)
            hp(f, "<li><span class=\"sw\" style=\"background:%s\"></span>blocked on ring %d</li>",
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
    fputs(sw->has_repeat ? "<th>value</th><th>makespan mean (µs)</th><th>sigma (µs)</th><th>runs</th><th>rows ok / "
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
                esc(f, sw->groups[g][0]);
                fputs(" on ", f);
                esc(f, sw->groups[g][1]);
                fputs("</td>", f);
            }
            if (p->fail)
                row_status(st, sizeof(st), p->fail);
            hp(f, "<td>%s</td>", lab);
            if (p->nok && sw->has_repeat)
                hp(f, "<td>%.3f</td><td>%.3f</td><td>%d</td><td>%d / %d</td>", p->makespan_us, p->best->sigma_us,
                   p->best->runs, p->nok, p->nrows);
            else if (p->nok)
                hp(f, "<td>%.3f</td><td>%d / %d</td>", p->makespan_us, p->nok, p->nrows);
            else
                hp(f, sw->has_repeat ? "<td>-</td><td>-</td><td>-</td><td>0 / %d</td>" : "<td>-</td><td>0 / %d</td>",
                   p->nrows);
            if (sw->has_blocked) {
                if (p->best)
                    hp(f, "<td>%.3f / %.3f / %.3f / %.3f</td>", p->best->blocked[0], p->best->blocked[1],
                       p->best->blocked[2], p->best->blocked[3]);
                else
                    fputs("<td>-</td>", f);
            }
            if (sw->has_blocked_res) {
                char on[160] = "-";
                if (p->best)
                    blocked_on(on, sizeof(on), p->best);
                hp(f, "<td class=\"l\">%s</td>", on);
            }
            hp(f, "<td>%d</td><td class=\"l\">%s%s</td></tr>\n", p->best ? p->best->line : p->fail->line,
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
            fmt_bytes(b[i], sizeof(b[i]), (double)v[i]);
        else
            snprintf(b[i], sizeof(b[i]), "%" PRIu64, v[i]);
    }
    if (v[0] == v[1] && v[1] == v[2] && v[2] == v[3])
        hp(f, "<td>%s</td>", b[0]);
    else
        hp(f, "<td>%s / %s / %s / %s</td>", b[0], b[1], b[2], b[3]);
}

static int section_sweep(rep *r)
{
    FILE *f = r->f;
    const rd_sweep *sw = &r->sw;
    fputs("<section id=\"sweep\">\n<h2>Sweep</h2>\n", f);
    hp(f, "<p class=\"sub\">%zu configuration points from sweep.csv", sw->nrows);
    if (sw->ngroups == 1) {
        fputs(" (", f);
        esc(f, sw->groups[0][0]);
        fputs(" on ", f);
        esc(f, sw->groups[0][1]);
        fputs(")", f);
    } else if (sw->ngroups > 1) {
        hp(f, " over %d graph and platform pairs (a curve each)", sw->ngroups);
    }
    fputs(".</p>\n", f);
    rd_knob knobs[RD_KNOB_COLUMNS * RD_RINGS + RD_MAX_EXTRA];
    int nk = rd_sweep_knobs(sw, knobs, (int)(sizeof(knobs) / sizeof(knobs[0])));
    if (!sw->nrows)
        note(f, "sweep.csv has a header and no rows: nothing to plot.");
    else if (!nk)
        note(f, "No knob takes more than one value over the rows (ring_task_window, ring_heap, ring_dep_pool, "
                "aicpu_thread_num and any swept column past the run's own are each the same in every row): "
                "nothing to plot against.");
    else {
        hp(f,
           "<p class=\"sub\">%d swept knob%s: a chart each. A knob is swept when its value changes between "
           "rows (a ring knob: some ring's value); rings that always hold equal values are one knob.%s%s%s"
           "</p>\n<div class=\"charts\">\n",
           nk, nk == 1 ? "" : "s",
           sw->nextra ? " A column past the run's own (--set KEY, --kernel-set NAME.FIELD, gen.PARAM) has its "
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
        hp(f,
           "<details><summary>All %zu rows</summary>\n<table id=\"sweep-rows\"><tr><th>line</th>"
           "<th class=\"l\">graph</th><th "
           "class=\"l\">platform</th><th>ring_task_window</th><th>ring_heap</th>"
           "<th>ring_dep_pool</th>",
           sw->nrows);
        fputs(sw->has_threads ? "<th>aicpu_thread_num</th>" : "", f);
        for (int e = 0; e < sw->nextra; e++)
            hp(f, "<th>%s</th>", sw->extra_name[e]);
        fputs("<th class=\"l\">status</th><th>makespan (µs)</th>", f);
        fputs(sw->has_repeat ? "<th>mean (µs)</th><th>sigma (µs)</th><th>runs</th>" : "", f);
        fputs(sw->has_blocked ? "<th>blocked per ring (µs)</th></tr>\n" : "</tr>\n", f);
        for (size_t i = 0; i < sw->nrows; i++) {
            const rd_row *row = &sw->rows[i];
            char st[RD_NAME_MAX + 64];
            hp(f, "<tr><td>%d</td><td class=\"l\">", row->line);
            esc(f, sw->groups[row->group][0]);
            fputs("</td><td class=\"l\">", f);
            esc(f, sw->groups[row->group][1]);
            fputs("</td>", f);
            rings_cell(f, row->knob[RD_KNOB_TASK_WINDOW], false);
            rings_cell(f, row->knob[RD_KNOB_HEAP], true);
            rings_cell(f, row->knob[RD_KNOB_DEP_POOL], false);
            if (sw->has_threads)
                hp(f, "<td>%" PRIu64 "</td>", row->knob[RD_KNOB_THREADS][0]);
            for (int e = 0; e < sw->nextra; e++)
                hp(f, "<td>%s</td>", sw->extra_val[e][row->extra[e]]);
            if (strcmp(row->status, "ok") == 0)
                snprintf(st, sizeof(st), "ok");
            else
                row_status(st, sizeof(st), row);
            hp(f, "<td class=\"l\">%s</td><td>%.3f</td>", st, row->makespan_us);
            if (sw->has_repeat)
                hp(f, "<td>%.3f</td><td>%.3f</td><td>%d</td>", row->mean_us, row->sigma_us, row->runs);
            if (sw->has_blocked)
                hp(f, "<td>%.3f / %.3f / %.3f / %.3f</td>", row->blocked[0], row->blocked[1], row->blocked[2],
                   row->blocked[3]);
            fputs("</tr>\n", f);
        }
        fputs("</table></details>\n", f);
    }
    fputs("</section>\n", f);
    return 0;
}

/* ------------------------------------------------------------------ */
/* The command                                                         */
/* ------------------------------------------------------------------ */

static int cmp_task_id(const void *a, const void *b)
{
    const rd_task *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

static void rep_free(rep *r)
{
    rd_run_free(&r->run);
    rd_swimlane_free(&r->sl);
    rd_deps_free(&r->deps);
    free(r->by_id);
    rd_path_free(&r->cp);
    rd_scopes_free(&r->sc);
    rd_pmu_free(&r->pmu);
    rd_sweep_free(&r->sw);
}

static bool is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static bool is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Whether folder d holds any file of a runtime capture (the DFX files, a name map, args_dump/). */
static bool capture_in(const char *d)
{
    static const char *const F[] = {"chip_swimlane_records.json", "deps.json", "scope_stats/scope_stats.jsonl",
                                    "pmu.csv"};
    char p[PATH_MAX + 64], g[8];
    for (size_t i = 0; i < sizeof(F) / sizeof(F[0]); i++) {
        snprintf(p, sizeof(p), "%s/%s", d, F[i]);
        if (is_file(p))
            return true;
    }
    snprintf(p, sizeof(p), "%s/args_dump", d);
    rd_kernel *k;
    int nk;
    bool named = rd_load_name_map(d, g, sizeof(g), &k, &nk) == RD_OK;
    free(k);
    return named || is_dir(p);
}

static int cmp_u64_key(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* A capture's overhead model and critical-path tool: what `ptosim overhead` computes from the swimlane
 * (level 2 or more) and deps.json, read back as ptosim_run.json's "overhead" so the section is the run's.
 * Sets r->cap_no_oh when the files cannot give it. */
static int capture_overhead(rep *r, char *err, size_t errlen)
{
    if (r->sl_rc != RD_OK || r->deps_rc != RD_OK) {
        r->cap_no_oh = "it needs both chip_swimlane_records.json (level 2 or more) and deps.json";
        return EXIT_OK;
    }
    if (r->sl.level < 2) {
        r->cap_no_oh = "the swimlane is level 1, without the AICPU's dispatch and finish times it needs";
        return EXIT_OK;
    }
    char sp[PATH_MAX + 64], dp[PATH_MAX + 64];
    snprintf(sp, sizeof(sp), "%s/chip_swimlane_records.json", r->dfx);
    snprintf(dp, sizeof(dp), "%s/deps.json", r->dfx);
    ohm_log l;
    unsigned long long hz;
    int status = overhead_load(sp, dp, &l, &hz, &r->cap_unmatched, err, errlen);
    if (status != EXIT_OK)
        return status;
    ohm_result res;
    char *text = NULL;
    size_t len = 0;
    if (ohm_compute(&l, hz, &res) != 0) {
        ohm_log_free(&l);
        snprintf(err, errlen, "out of memory");
        return EXIT_INTERNAL;
    }
    FILE *m = open_memstream(&text, &len);
    if (m) {
        fputs("{\"overhead\": ", m);
        ohm_write_json(m, &res, 0, 0);
        fputs("}", m);
        fclose(m);
    }
    ohm_result_free(&res);
    ohm_log_free(&l);
    if (!m || !text) {
        free(text);
        snprintf(err, errlen, "out of memory");
        return EXIT_INTERNAL;
    }
    int rc = rd_parse_overhead(text, "overhead model", &r->run.oh, err, errlen);
    free(text);
    return rc == RD_OK ? EXIT_OK : EXIT_INTERNAL;
}

/* What a capture's files say of the run: makespan (first start to last end of the swimlane), executions,
 * tasks, busy fraction per core type, kernel names, the overhead model. */
static int capture_figures(rep *r, char *err, size_t errlen)
{
    rd_run *run = &r->run;
    if (rd_load_name_map(r->dfx, run->graph, sizeof(run->graph), &run->kernels, &run->nkernels) == RD_OK)
        r->cap_namemap = true;
    char p[PATH_MAX + 64];
    snprintf(p, sizeof(p), "%s/args_dump", r->dfx);
    r->cap_args = is_dir(p);
    snprintf(run->status, sizeof(run->status), "capture");
    if (r->sl_rc == RD_OK) {
        const rd_swimlane *sl = &r->sl;
        run->swimlane_level = sl->level;
        for (int c = 0; c < sl->ncores; c++)
            r->cap_cores[sl->aic[c] ? 0 : 1]++;
        uint64_t lo = UINT64_MAX, hi = 0;
        double busy[2] = {0, 0};
        uint64_t *ids = malloc((sl->nex ? sl->nex : 1) * sizeof(*ids));
        if (!ids) {
            snprintf(err, errlen, "out of memory");
            return EXIT_INTERNAL;
        }
        for (size_t i = 0; i < sl->nex; i++) {
            const rd_exec *x = &sl->ex[i];
            lo = x->start < lo ? x->start : lo;
            hi = x->end > hi ? x->end : hi;
            if (x->core >= 0 && x->core < sl->ncores && x->end > x->start)
                busy[sl->aic[x->core] ? 0 : 1] += (double)(x->end - x->start);
            ids[i] = x->task;
        }
        qsort(ids, sl->nex, sizeof(*ids), cmp_u64_key);
        for (size_t i = 0; i < sl->nex; i++)
            r->cap_tasks += !i || ids[i] != ids[i - 1];
        free(ids);
        run->executions = sl->nex;
        if (sl->nex && hi > lo && sl->clock_hz) {
            double span = (double)(hi - lo);
            run->makespan_us = span * 1e6 / (double)sl->clock_hz;
            run->busy_aic = r->cap_cores[0] ? busy[0] / (span * r->cap_cores[0]) : 0;
            run->busy_aiv = r->cap_cores[1] ? busy[1] / (span * r->cap_cores[1]) : 0;
        }
    }
    run->dep_gen = r->deps_rc == RD_OK;
    run->scope_stats = r->sc_rc == RD_OK;
    run->pmu = r->pmu_rc == RD_OK;
    return capture_overhead(r, err, errlen);
}

/* Reads every input; an optional one may be absent. */
static int rep_load(rep *r, char *err, size_t errlen)
{
    char p[PATH_MAX + 64];
    snprintf(p, sizeof(p), "%s/ptosim_run.json", r->dir);
    int rc = rd_load_run(p, &r->run, err, errlen);
    if (rc == RD_BAD)
        return EXIT_GRAPH;
    r->has_run = rc == RD_OK;
    snprintf(p, sizeof(p), "%s/sweep.csv", r->dir);
    rc = rd_load_sweep(p, &r->sw, err, errlen);
    if (rc == RD_BAD)
        return EXIT_GRAPH;
    r->has_sweep = rc == RD_OK;
    snprintf(r->dfx, sizeof(r->dfx), "%s/dfx_outputs", r->dir);
    r->dfx_rel = "dfx_outputs/";
    if (!r->has_run && !r->has_sweep) {
        /* a runtime capture: its files in DIR/dfx_outputs, or in DIR itself */
        if (!capture_in(r->dfx)) {
            snprintf(r->dfx, sizeof(r->dfx), "%s", r->dir);
            r->dfx_rel = "";
        }
        if (!capture_in(r->dfx)) {
            snprintf(err, errlen,
                     "%s: no ptosim_run.json, sweep.csv or runtime capture (chip_swimlane_records.json, "
                     "deps.json, scope_stats/, pmu.csv, name_map_*.json or args_dump/, in DIR or "
                     "DIR/dfx_outputs); run ptosim run -o %s first",
                     r->dir, r->dir);
            return EXIT_USAGE;
        }
        r->capture = true;
    }
    r->sl_rc = r->deps_rc = r->sc_rc = r->pmu_rc = RD_ABSENT;
    if (!r->has_run && !r->capture)
        return EXIT_OK; /* the run sections need ptosim_run.json or a capture */
    snprintf(p, sizeof(p), "%s/chip_swimlane_records.json", r->dfx);
    if ((r->sl_rc = rd_load_swimlane(p, &r->sl, err, errlen)) == RD_BAD)
        return EXIT_GRAPH;
    snprintf(p, sizeof(p), "%s/deps.json", r->dfx);
    if ((r->deps_rc = rd_load_deps(p, &r->deps, err, errlen)) == RD_BAD)
        return EXIT_GRAPH;
    snprintf(p, sizeof(p), "%s/scope_stats/scope_stats.jsonl", r->dfx);
    if ((r->sc_rc = rd_load_scopes(p, &r->sc, err, errlen)) == RD_BAD)
        return EXIT_GRAPH;
    snprintf(p, sizeof(p), "%s/pmu.csv", r->dfx);
    if ((r->pmu_rc = rd_load_pmu(p, &r->pmu, err, errlen)) == RD_BAD)
        return EXIT_GRAPH;
    if (r->capture) {
        int st = capture_figures(r, err, errlen);
        if (st != EXIT_OK)
            return st;
    }
    if (r->deps_rc == RD_OK) {
        r->by_id = malloc((r->deps.ntasks ? r->deps.ntasks : 1) * sizeof(*r->by_id));
        if (!r->by_id) {
            snprintf(err, errlen, "out of memory");
            return EXIT_INTERNAL;
        }
        if (r->deps.ntasks)
            memcpy(r->by_id, r->deps.tasks, r->deps.ntasks * sizeof(*r->by_id));
        qsort(r->by_id, r->deps.ntasks, sizeof(*r->by_id), cmp_task_id);
        if (r->sl_rc == RD_OK && rd_critical_path(&r->sl, &r->deps, &r->cp) != 0) {
            snprintf(err, errlen, "out of memory");
            return EXIT_INTERNAL;
        }
    }
    return EXIT_OK;
}

/* ------------------------------------------------------------------ */
/* A worker's folder: several programs (ptosim run A.jsonl B.jsonl)     */
/* ------------------------------------------------------------------ */

static double jnum(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

static const char *jstr(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(v) ? v->valuestring : "";
}

/* The worker's clock as one bar: setup, then per program an arena rebuild
 * (when its sizing changed) and its run, to scale. */
static void worker_timeline(FILE *f, const cJSON *progs, const cJSON *wk, const cJSON *costs)
{
    double total = jnum(wk, "total_us"), x0 = 10, width = 1100;
    if (total <= 0)
        return;
    fputs("<svg width=\"1120\" height=\"74\" role=\"img\" aria-label=\"worker timeline\">\n", f);
    double setup = jnum(wk, "setup_us");
    hp(f,
       "<rect x=\"%.1f\" y=\"10\" width=\"%.1f\" height=\"26\" fill=\"#b8c0c8\"><title>setup %.3f ms"
       "</title></rect>\n",
       x0, width * setup / total, setup / 1e3);
    const cJSON *p;
    int i = 0;
    cJSON_ArrayForEach(p, progs)
    {
        double start = jnum(p, "start_us"), dev = jnum(p, "device_us");
        if (i > 0 && strcmp(jstr(p, "arena"), "built") == 0) {
            double b = jnum(costs, "arena_build");
            hp(f,
               "<rect x=\"%.1f\" y=\"10\" width=\"%.1f\" height=\"26\" fill=\"#d9534f\"><title>arena "
               "rebuilt for program %d: %.3f ms</title></rect>\n",
               x0 + width * (start - b) / total, width * b / total, i, b / 1e3);
        }
        hp(f, "<rect x=\"%.1f\" y=\"10\" width=\"%.1f\" height=\"26\" fill=\"%s\"><title>%d ",
           x0 + width * start / total, width * dev / total > 1 ? width * dev / total : 1,
           i % 2 ? "#4a7bd0" : "#2c5aa0", i);
        esc(f, jstr(p, "name"));
        hp(f, ": %.3f ms</title></rect>\n", dev / 1e3);
        i++;
    }
    hp(f,
       "<text x=\"%.1f\" y=\"54\" font-size=\"11\">0</text><text x=\"%.1f\" y=\"54\" font-size=\"11\" "
       "text-anchor=\"end\">%.3f ms</text>\n",
       x0, x0 + width, total / 1e3);
    fputs(
        "<text x=\"10\" y=\"70\" font-size=\"11\" fill=\"#555\">grey: setup (init, registration, arena, "
        "first "
        "launch); red: arena rebuilt for a new ring sizing; blue: runs (preamble + prep + makespan)</text>\n"
        "</svg>\n",
        f);
}

static int worker_page(const char *dir, const cJSON *w, char *err, size_t errlen)
{
    const cJSON *progs = cJSON_GetObjectItemCaseSensitive(w, "programs"),
                *wk = cJSON_GetObjectItemCaseSensitive(w, "worker"),
                *costs = cJSON_GetObjectItemCaseSensitive(w, "costs_us"), *p;
    if (!cJSON_IsArray(progs) || !cJSON_IsObject(wk) || !cJSON_IsObject(costs)) {
        snprintf(err, errlen, "%s/ptosim_run.json: programs, worker, costs_us: missing or of the wrong type",
                 dir);
        return EXIT_GRAPH;
    }
    /* the folders come from a file in DIR, which may be someone else's: each must be one a session names
     * (N_NAME, inside DIR) and a folder itself, not a link out of DIR; checked all before any page is
     * written */
    int i = 0;
    cJSON_ArrayForEach(p, progs)
    {
        const char *name = jstr(p, "dir");
        char sub[PATH_MAX + 300];
        struct stat st;
        snprintf(sub, sizeof(sub), "%s/%s", dir, name);
        if (!workdir_program_dir_name(name)) {
            snprintf(
                err, errlen,
                "%s/ptosim_run.json: programs[%d].dir \"%.256s\" is not a program's folder (N_NAME, inside "
                "%s); the report follows no path out of the folder",
                dir, i, name, dir);
            return EXIT_GRAPH;
        }
        if (lstat(sub, &st) == 0 && !S_ISDIR(st.st_mode)) {
            snprintf(err, errlen, "%s: programs[%d]'s folder is %s; the report follows no link out of %s",
                     sub, i, S_ISLNK(st.st_mode) ? "a symbolic link" : "not a folder", dir);
            return EXIT_GRAPH;
        }
        i++;
    }
    /* each program's own page first */
    cJSON_ArrayForEach(p, progs)
    {
        char sub[PATH_MAX + 300], probe[PATH_MAX + 400];
        snprintf(sub, sizeof(sub), "%s/%s", dir, jstr(p, "dir"));
        snprintf(probe, sizeof(probe), "%s/ptosim_run.json", sub);
        if (access(probe, R_OK) != 0)
            continue;
        int rc = htmlrep_write(sub, err, errlen);
        if (rc != EXIT_OK)
            return rc;
    }
    char path[PATH_MAX + 64];
    snprintf(path, sizeof(path), "%s/report.html", dir);
    outfile of;
    FILE *f = outfile_open(&of, path, err, errlen);
    if (!f)
        return EXIT_INTERNAL;
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>ptosim report: "
          "worker</title>\n<style>\n",
          f);
    fputs(CSS, f); /* a constant */
    hp(f,
       "</style>\n</head>\n<body>\n<h1>ptosim report: %d programs on one worker</h1>\n<section "
       "id=\"worker\"><h2>Worker</h2>\n<div class=\"cards\">\n",
       cJSON_GetArraySize(progs));
    char v[64], d[96];
    snprintf(v, sizeof(v), "%.3f ms", jnum(wk, "setup_us") / 1e3);
    snprintf(d, sizeof(d), "arena built %d time(s)", (int)jnum(wk, "arena_builds"));
    card(f, "setup", "", v, d);
    snprintf(v, sizeof(v), "%.3f ms", jnum(wk, "total_us") / 1e3);
    card(f, "total on this worker", "", v, "setup, rebuilds and runs");
    snprintf(v, sizeof(v), "%.3f ms", jnum(wk, "fresh_workers_us") / 1e3);
    card(f, "on fresh workers", "", v, "each program set up alone");
    snprintf(v, sizeof(v), "%.3f ms", jnum(wk, "saved_us") / 1e3);
    card(f, "saved", "", v, "by sharing the worker");
    fputs("</div>\n", f);
    worker_timeline(f, progs, wk, costs);
    fputs("<table><tr><th>#</th><th class=\"l\">program</th><th>status</th><th>arena</th><th>start ms</th>"
          "<th>device ms</th><th>makespan us</th><th>tasks</th></tr>\n",
          f);
    i = 0;
    cJSON_ArrayForEach(p, progs)
    {
        bool ran = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(p, "ran"));
        hp(f, "<tr><td>%d</td><td class=\"l\">", i++);
        /* the folder was checked above (N_NAME, inside DIR); url_rel refuses anything else all the same */
        if (ran) {
            fputs("<a href=\"", f);
            if (!url_rel(f, jstr(p, "dir"))) {
                snprintf(err, errlen, "%s/ptosim_run.json: programs[%d].dir is not a relative link", dir,
                         i - 1);
                outfile_abort(&of);
                return EXIT_GRAPH;
            }
            fputs("/report.html\">", f);
        }
        esc(f, jstr(p, "name"));
        fputs(ran ? "</a></td><td>" : "</td><td>", f);
        esc(f, jstr(p, "status"));
        hp(f, "</td><td>%s</td><td>%.3f</td><td>%.3f</td><td>%.3f</td><td>%.0f</td></tr>\n", jstr(p, "arena"),
           jnum(p, "start_us") / 1e3, jnum(p, "device_us") / 1e3, jnum(p, "makespan_us"),
           jnum(p, "tasks_completed"));
    }
    fputs("</table>\n</section>\n", f);
    const cJSON *res = cJSON_GetObjectItemCaseSensitive(w, "resident"),
                *edges = cJSON_GetObjectItemCaseSensitive(w, "cross_program_edges"), *e;
    hp(f,
       "<section id=\"resident\"><h2>Resident tensors</h2>\n<p>%d resident tensor(s); %d edge(s) across "
       "programs: a later program's reader of a resident region and the earlier program's task that wrote "
       "it last.</p>\n<table><tr><th class=\"l\">tensor</th><th>address</th><th>placed by</th><th>read "
       "across programs</th></tr>\n",
       cJSON_GetArraySize(res), cJSON_GetArraySize(edges));
    cJSON_ArrayForEach(p, res)
    {
        int n = 0;
        cJSON_ArrayForEach(e, edges) n += strcmp(jstr(e, "tensor"), jstr(p, "name")) == 0;
        fputs("<tr><td class=\"l\">", f);
        esc(f, jstr(p, "name"));
        fputs("</td><td>", f);
        esc(f, jstr(p, "addr"));
        hp(f, "</td><td>%d</td><td>%d</td></tr>\n", (int)jnum(p, "placed_by"), n);
    }
    fputs("</table>\n</section>\n<footer>Written by <code>ptosim report</code> from the worker's "
          "<code>ptosim_run.json</code>; each program's page is in its folder.</footer>\n</body>\n</html>\n",
          f);
    return outfile_commit(&of, err, errlen) == 0 ? EXIT_OK : EXIT_INTERNAL;
}

/* The worker's ptosim_run.json (parsed), or NULL when DIR holds a single run. */
static cJSON *worker_json(const char *dir)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof(path), "%s/ptosim_run.json", dir);
    FILE *f = readall_open(path); /* not a FIFO, which would block here: the run reader then says why */
    if (!f)
        return NULL;
    char head[64] = "";
    size_t n = fread(head, 1, sizeof(head) - 1, f);
    head[n] = '\0';
    if (!strstr(head, "\"ptosim_worker\"")) {
        fclose(f);
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    rewind(f);
    char *text = len > 0 ? malloc((size_t)len + 1) : NULL;
    cJSON *j = NULL;
    if (text && fread(text, 1, (size_t)len, f) == (size_t)len) {
        text[len] = '\0';
        j = cJSON_Parse(text);
    }
    free(text);
    fclose(f);
    return j;
}

int htmlrep_write(const char *dir, char *err, size_t errlen)
{
    struct stat st;
    if (stat(dir, &st) != 0) {
        snprintf(err, errlen, "%s: cannot open directory: %s", dir, strerror(errno));
        return EXIT_USAGE;
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s: not a directory", dir);
        return EXIT_USAGE;
    }
    cJSON *w = worker_json(dir);
    if (w) {
        int rc = worker_page(dir, w, err, errlen);
        cJSON_Delete(w);
        return rc;
    }
    rep r;
    memset(&r, 0, sizeof(r));
    r.dir = dir;
    int status = rep_load(&r, err, errlen);
    if (status != EXIT_OK) {
        rep_free(&r);
        return status;
    }
    char path[PATH_MAX + 64];
    snprintf(path, sizeof(path), "%s/report.html", dir);
    outfile of;
    r.f = outfile_open(&of, path, err, errlen);
    if (!r.f) {
        rep_free(&r);
        return EXIT_INTERNAL;
    }
    page_head(&r);
    if (r.capture) {
        section_capture_summary(&r);
        section_overhead(&r);
        section_swimlane(&r);
        section_capture_rings(&r);
        section_pipes(&r);
    } else if (r.has_run) {
        section_summary(&r);
        if (r.run.dump.given)
            section_dump(&r);
        section_overhead(&r);
        section_swimlane(&r);
        section_rings(&r);
        section_pipes(&r);
    } else {
        note(r.f,
             "No <code>ptosim_run.json</code> in this directory: the run sections (summary, swimlane, rings, "
             "pipes) are absent; it holds a sweep.");
        inputs_table(&r);
    }
    if (r.has_sweep && section_sweep(&r) != 0) {
        outfile_abort(&of);
        rep_free(&r);
        snprintf(err, errlen, "out of memory");
        return EXIT_INTERNAL;
    }
    fputs("<footer>Written by <code>ptosim report</code> from the files in this directory; the page loads "
          "nothing else.</footer>\n</body>\n</html>\n",
          r.f);
    rep_free(&r);
    if (outfile_commit(&of, err, errlen) != 0)
        return EXIT_INTERNAL;
    return EXIT_OK;
}

static void usage(FILE *out)
{
    fputs("usage: ptosim report DIR\n"
          "\n"
          "Writes DIR/report.html: one self-contained page (inline SVG and CSS; no script, nothing\n"
          "fetched) of a run written by `ptosim run GRAPH -o DIR`, of a sweep (DIR/sweep.csv), or of a\n"
          "capture of the real runtime (its dfx_outputs/ files in DIR or DIR/dfx_outputs, no ptosim_run.json):\n"
          "  summary   makespan, outcome, busy fraction per core type, bottleneck (ptosim_run.json)\n"
          "  args dump with --dump-args: bytes produced and drained, parks per thread, the kill\n"
          "  swimlane  executions per core with the dependency-critical path in red\n"
          "            (dfx_outputs/chip_swimlane_records.json, dfx_outputs/deps.json)\n"
          "  rings     ring peaks against capacity, occupancy over simulated time (ptosim_run.json),\n"
          "            samples per ring (dfx_outputs/scope_stats/scope_stats.jsonl)\n"
          "  pipes     pipe busy fraction per kernel (ptosim_run.json kernels, dfx_outputs/pmu.csv)\n"
          "  sweep     makespan and the orchestrator's blocked time per ring against each swept knob,\n"
          "            the thread count included (sweep.csv: the columns of --summary-csv)\n"
          "\n"
          "A missing optional file gives a note in the page. Above 10000 executions the swimlane\n"
          "shades each core's busy share of 1000 time columns instead of drawing every execution.\n"
          "Same directory, same page, byte for byte.\n"
          "\n"
          "A capture's page shows what its files say: makespan (first start to last end), executions,\n"
          "busy fraction per core type, the overhead model and the critical_path tool, the swimlane,\n"
          "ring occupancy sampled by scope stats against the header's capacities, and pmu.csv.\n"
          "\n"
          "exit status: 0 written; 1 I/O error; 2 bad command line, or DIR holds no ptosim_run.json,\n"
          "sweep.csv or capture file; 3 a malformed input (the message names file and field)\n",
          out);
}

int htmlrep_main(int argc, char **argv)
{
    for (int i = 0; i < argc; i++)
        if (cli_is_help(argv[i])) {
            usage(stdout);
            return EXIT_OK;
        }
    if (argc != 1 || argv[0][0] == '-') {
        fprintf(stderr, "ptosim report: %s\n",
                !argc                ? "missing DIR"
                : argv[0][0] == '-' ? "unknown option"
                                    : "one DIR at a time");
        return EXIT_USAGE;
    }
    char dir[PATH_MAX];
    snprintf(dir, sizeof(dir), "%s", argv[0]);
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        dir[--n] = '\0';
    char err[RD_ERR_MAX + PATH_MAX];
    int status = htmlrep_write(dir, err, sizeof(err));
    if (status != EXIT_OK) {
        fprintf(stderr, "ptosim report: %s\n", err);
        return status;
    }
    printf("ptosim report: wrote %s/report.html\n", dir);
    return EXIT_OK;
}
