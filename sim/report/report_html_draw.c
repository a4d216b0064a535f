/* report_html_draw.c - rh_: the report page's printf and escaping, numbers, names, cards, notes, axes. */
#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../model/base/outfile.h"
#include "../../model/base/vec.h"
#include "../../model/base/write_buffer.h"
#include "../../model/output/run_report.h"
#include "report_html_draw.h"

/* ------------------------------------------------------------------ */
/* Text helpers                                                        */
/* ------------------------------------------------------------------ */

/* How strings from the inputs reach the page: one path, by context.
 *  - text and double-quoted attribute values: rh_esc(), which escapes HTML's five special characters (every
 *    attribute this page writes is double-quoted, so the same five suffice in both);
 *  - everything written with a format goes through rh_hp(), whose %s arguments are always passed through
 *    rh_esc(): markup is only ever in the format, a literal, never in an argument;
 *  - a link: rh_url_rel(), a relative URL of a folder inside DIR or nothing (no scheme, no //, no \);
 *  - no script and no JSON data are embedded, and the CSS is a constant (its colours, the style="" values
 *    below, come from the palettes above, never from an input).
 * A string from an input file is never written with fputs or a bare fprintf. */

/* Writes s with HTML's five special characters escaped: safe as text and inside a double-quoted attribute
 * value (also in SVG, and in <title>, whose text the browser decodes but never parses as markup). */
void rh_esc(FILE *f, const char *s)
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
 * argument through rh_esc(); numbers as printf writes them. Conversions: d i u x X o c s f F e E g G and %%,
 * with flags, width, precision (also *) and the length modifiers hh h l ll z j t. */
void rh_hp(FILE *f, const char *fmt, ...)
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
        bool plain = n == 1; /* no flag, width or precision */
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
                rh_esc(f, s);
                break;
            }
            int len = snprintf(NULL, 0, spec, s); /* width or precision: cut or padded, then escaped */
            char *buf = len >= 0 ? malloc((size_t)len + 1) : NULL;
            if (buf) {
                snprintf(buf, (size_t)len + 1, spec, s);
                rh_esc(f, buf);
                free(buf);
            }
            break;
        }
        case 'c': {
            char one[2] = {(char)va_arg(ap, int), '\0'};
            rh_esc(f, one);
            break;
        }
        case 'd':
        case 'i':
            if (plain) { /* the page's numbers are written without printf: thousands of them */
                long long v = longs == 1   ? va_arg(ap, long)
                              : longs == 2 ? va_arg(ap, long long)
                              : longs == 3 ? (long long)va_arg(ap, ssize_t)
                              : longs == 4 ? (long long)va_arg(ap, intmax_t)
                              : longs == 5 ? (long long)va_arg(ap, ptrdiff_t)
                                           : va_arg(ap, int);
                char d[24];
                fwrite(d, 1, (size_t)(wbuf_sdec_at(d, v) - d), f);
            } else if (longs == 1)
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
            if (plain && conv == 'u') {
                unsigned long long v = longs == 1   ? va_arg(ap, unsigned long)
                                       : longs == 2 ? va_arg(ap, unsigned long long)
                                       : longs == 3 ? (unsigned long long)va_arg(ap, size_t)
                                       : longs == 4 ? (unsigned long long)va_arg(ap, uintmax_t)
                                       : longs == 5 ? (unsigned long long)va_arg(ap, ptrdiff_t)
                                                    : va_arg(ap, unsigned);
                char d[24];
                fwrite(d, 1, (size_t)(wbuf_dec_at(d, v) - d), f);
            } else if (longs == 1)
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
        case 'G': {
            double v = va_arg(ap, double);
            char d[64];
            size_t len = 0;
            /* "%.Nf", the page's usual number, worked out exactly as printf rounds it */
            if (conv == 'f' && n == 4 && spec[1] == '.' && spec[2] >= '0' && spec[2] <= '9')
                len = wbuf_fixed_text(d, v, spec[2] - '0');
            if (len)
                fwrite(d, 1, len, f);
            else
                outfile_printf(f, spec, v);
            break;
        }
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
bool rh_url_rel(FILE *f, const char *s)
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
            rh_hp(f, "%%%02X", *c);
    return true;
}

/* A plain number with at most `dec` decimals, trailing zeros dropped. */
void rh_fmt_num(char *b, size_t n, double v, int dec)
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
void rh_fmt_bytes(char *b, size_t n, double v)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (u < 4 && fabs(v) >= 1024) {
        v /= 1024;
        u++;
    }
    char num[32];
    rh_fmt_num(num, sizeof(num), v, 2);
    if (snprintf(b, n, "%s %s", num, unit[u]) < 0)
        b[0] = '\0';
}

/* Bytes in decimal units, as the collector's rate is given: 272 B, 42 MB, 2.148 GB. */
void rh_fmt_dec_bytes(char *b, size_t n, double v)
{
    static const char *const unit[] = {"B", "kB", "MB", "GB", "TB"};
    int u = 0;
    while (u < 4 && fabs(v) >= 1000) {
        v /= 1000;
        u++;
    }
    char num[32];
    rh_fmt_num(num, sizeof(num), v, 3);
    if (snprintf(b, n, "%s %s", num, unit[u]) < 0)
        b[0] = '\0';
}

/* A time given in µs, in the unit that reads best: 35.084 µs, 12.500 ms, 47.245 s. */
void rh_fmt_time(char *b, size_t n, double us)
{
    if (fabs(us) >= 1e6)
        snprintf(b, n, "%.3f s", us / 1e6);
    else if (fabs(us) >= 1e4)
        snprintf(b, n, "%.3f ms", us / 1e3);
    else
        snprintf(b, n, "%.3f µs", us);
}

/* Did the args dump freeze the scheduler threads for most of the run? Then the host's collector bounds it
 * (report_dump_bound, model/output/run_report.c, makes the same call for the summary). */
bool rh_dump_bound(const rd_run *run)
{
    return run->dump.given && run->makespan_us > 0 &&
           run->dump.frozen_us >= REPORT_DUMP_BOUND_SHARE * run->makespan_us;
}

/* The runtime tools' task names: t<local> in ring 0, r<ring>t<local> otherwise. */
/* Appends the len bytes at s to b (n bytes) from *m on, as snprintf(b + *m, *m < n ? n - *m : 0, "%s", s)
 * does: cut to fit, NUL-ended; *m grows by len whatever fits. The page names a task or a kernel per
 * slice: no printf there. */
void rh_put_cut(char *b, size_t n, size_t *m, const char *s, size_t len)
{
    if (*m < n) {
        size_t k = n - *m - 1 < len ? n - *m - 1 : len;
        memcpy(b + *m, s, k);
        b[*m + k] = '\0';
    }
    *m += len;
}

void rh_task_name(char *b, size_t n, uint64_t id)
{
    unsigned ring = (unsigned)(id >> 32) & 0xff, local = (unsigned)(id & 0xffffffffu);
    char t[32], *p = t;
    if (ring) {
        *p++ = 'r';
        p = wbuf_dec_at(p, ring);
    }
    *p++ = 't';
    p = wbuf_dec_at(p, local);
    size_t m = 0;
    rh_put_cut(b, n, &m, t, (size_t)(p - t));
}

static const char *kernel_name(const rep *r, int func)
{
    for (int i = 0; i < r->run.nkernels; i++)
        if (r->run.kernels[i].func_id == func && r->run.kernels[i].name[0])
            return r->run.kernels[i].name;
    return NULL;
}

void rh_func_label(const rep *r, char *b, size_t n, int func)
{
    const char *k = kernel_name(r, func);
    size_t m = 0;
    if (k) {
        rh_put_cut(b, n, &m, k, strlen(k));
    } else {
        char t[32], *p = wbuf_lit_at(t, "func ");
        p = wbuf_sdec_at(p, func);
        rh_put_cut(b, n, &m, t, (size_t)(p - t));
    }
}

static const rd_task *deps_task(const rep *r, uint64_t id)
{
    size_t lo = vec_lower_bound(r->by_id, r->deps.ntasks, sizeof(*r->by_id), offsetof(rd_task, id), id);
    return lo < r->deps.ntasks && r->by_id[lo].id == id ? &r->by_id[lo] : NULL;
}

/* What ran: the kernel of a task on a core type (aic: slot 0, else slot 1 or 2),
 * or for the whole task (core < 0) every active kernel joined with '+'. */
void rh_task_kernel(const rep *r, char *b, size_t n, uint64_t id, int core_aic)
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
            rh_func_label(r, name, sizeof(name), k[i]);
            if (m)
                rh_put_cut(b, n, &m, "+", 1);
            rh_put_cut(b, n, &m, name, strlen(name));
            if (m >= n)
                return;
        }
    if (!m)
        snprintf(b, n, "dummy");
}

/* A note: something the page cannot show, and why. */
void rh_note(FILE *f, const char *html)
{
    fputs("<p class=\"note\">", f);
    fputs(html, f); /* the page's own markup: a literal at every call, never from an input */
    fputs("</p>\n", f);
}

/* A note whose text was formatted from the inputs: escaped. */
void rh_note_text(FILE *f, const char *text)
{
    rh_hp(f, "<p class=\"note\">%s</p>\n", text);
}

/* ------------------------------------------------------------------ */
/* Axes                                                                */
/* ------------------------------------------------------------------ */

double rh_ax_px(const axis *a, double v)
{
    double x = a->log ? log2(v > 0 ? v : 1) : v;
    double span = a->hi - a->lo;
    return a->p0 + (span > 0 ? (x - a->lo) / span : 0.5) * (a->p1 - a->p0);
}

/* 1, 2 or 5 times a power of ten, about span/target. */
double rh_nice_step(double span, int target)
{
    if (!(span > 0))
        return 1;
    double raw = span / target, mag = pow(10, floor(log10(raw))), q = raw / mag;
    return (q <= 1 ? 1 : q <= 2 ? 2 : q <= 5 ? 5 : 10) * mag;
}

int rh_step_decimals(double step)
{
    int d = (int)-floor(log10(step) + 1e-9);
    return d < 0 ? 0 : d > 6 ? 6 : d;
}

/* Horizontal grid lines and labels of a linear y axis from a->lo (0, or a multiple of step) to a->hi;
 * fmt == 'b' formats bytes. */
void rh_y_ticks(FILE *f, const axis *a, double step, int x0, int x1, char fmt)
{
    int dec = rh_step_decimals(step);
    for (double v = a->lo; v <= a->hi + step * 1e-6; v += step) {
        double y = rh_ax_px(a, v);
        char lab[32];
        if (fmt == 'b')
            rh_fmt_bytes(lab, sizeof(lab), v);
        else
            rh_fmt_num(lab, sizeof(lab), v, dec);
        rh_hp(f, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>", x0, y, x1, y);
        rh_hp(f, "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", x0 - 5, y + 3.5,
              lab);
    }
}

void rh_card(FILE *f, const char *key, const char *cls, const char *value, const char *detail)
{
    rh_hp(f, "<div class=\"card\"><div class=\"k\">%s</div><div class=\"v%s%s\">", key, cls ? " " : "",
          cls ? cls : "");
    rh_esc(f, value);
    fputs("</div>", f);
    if (detail) {
        fputs("<div class=\"d\">", f);
        rh_esc(f, detail);
        fputs("</div>", f);
    }
    fputs("</div>\n", f);
}

/* Time axis unit for a span in microseconds. */
void rh_time_unit(double span_us, double *div, const char **name)
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
