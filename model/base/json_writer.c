/* json_writer.c - jsonw_: JSON string escaping and number formatting. */
#include "json_writer.h"
#include "outfile.h"

#include <math.h>

void jsonw_str(FILE *f, const char *s)
{
    if (!s) {
        fputs("null", f);
        return;
    }
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"':
            fputs("\\\"", f);
            break;
        case '\\':
            fputs("\\\\", f);
            break;
        case '\n':
            fputs("\\n", f);
            break;
        case '\r':
            fputs("\\r", f);
            break;
        case '\t':
            fputs("\\t", f);
            break;
        default:
            if (*p < 0x20)
                outfile_printf(f, "\\u%04x", *p);
            else
                fputc(*p, f);
        }
    }
    fputc('"', f);
}

void jsonw_num(FILE *f, double v)
{
    if (!isfinite(v))
        fputs("null", f);
    else if (v == floor(v) && fabs(v) < 1e15)
        outfile_printf(f, "%.0f", v);
    else
        outfile_printf(f, "%.17g", v);
}

/* Decimal digits of v, right-aligned in buf[0..24); returns the first. */
static char *digits(char *buf, uint64_t v)
{
    char *p = buf + 24;
    do {
        *--p = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    return p;
}

void jsonw_u64(FILE *f, uint64_t v)
{
    char buf[24];
    char *p = digits(buf, v);
    fwrite(p, 1, (size_t)(buf + 24 - p), f);
}

void jsonw_i64(FILE *f, int64_t v)
{
    if (v < 0) {
        fputc('-', f);
        jsonw_u64(f, (uint64_t)(-(v + 1)) + 1);
    } else {
        jsonw_u64(f, (uint64_t)v);
    }
}

void jsonw_qu64(FILE *f, uint64_t v)
{
    char buf[26];
    char *p = digits(buf + 1, v);
    *--p = '"';
    buf[25] = '"';
    fwrite(p, 1, (size_t)(buf + 26 - p), f);
}
