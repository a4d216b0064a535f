/* csv.c - RFC 4180 CSV: quoting fields on the way out, unquoting records on the way in. */
#include "csv.h"

#include <stdlib.h>
#include <string.h>

bool csv_formula(const char *s)
{
    if (!s || !s[0] || !strchr("=+-@\t\r'", s[0]))
        return false;
    char *end;
    strtod(s, &end); /* "-5" or "+1.5e3" is a number to a spreadsheet too: left as it is */
    return *end != '\0';
}

bool csv_needs_quotes(const char *s)
{
    return s && (s[strcspn(s, ",\"\r\n")] != '\0' || csv_formula(s));
}

void csv_put(FILE *f, const char *s)
{
    if (!s)
        return;
    if (!csv_needs_quotes(s)) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    if (csv_formula(s))
        fputc('\'', f); /* text, not a formula, to a spreadsheet (OWASP's CSV injection advice) */
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

const char *csv_record_end(const char *s)
{
    bool quoted = false;
    for (; *s; s++) {
        if (*s == '"')
            quoted = !quoted; /* a doubled quote toggles twice */
        else if (*s == '\n' && !quoted)
            break;
    }
    return s;
}

/* Reads the field at *p (a record's text ending at end, its line break
 * excluded), appending its unquoted bytes through *w when w is not NULL.
 * Leaves *p at the comma after it or at end. Returns -1 on malformed quoting. */
static int next_field(const char **p, const char *end, char **w)
{
    const char *r = *p;
    if (r < end && *r == '"') {
        for (r++;; r++) {
            if (r >= end)
                return -1; /* not closed */
            if (*r == '"') {
                if (r + 1 < end && r[1] == '"') {
                    r++; /* "" is one quote */
                } else {
                    r++;
                    break;
                }
            }
            if (w)
                *(*w)++ = *r;
        }
        if (r < end && *r != ',')
            return -1; /* text after the closing quote */
    } else {
        for (; r < end && *r != ','; r++)
            if (w)
                *(*w)++ = *r;
    }
    *p = r;
    return 0;
}

/* The record's end without its line break: end, less a CR just before it. */
static const char *trim_cr(const char *s, const char *end)
{
    return end > s && end[-1] == '\r' ? end - 1 : end;
}

int csv_split(char *rec, char **f, int max)
{
    const char *end = trim_cr(rec, rec + strlen(rec)), *p = rec;
    char *w = rec;
    int n = 0;
    for (;;) {
        char *start = w;
        if (next_field(&p, end, &w) != 0)
            return -1;
        bool last = p >= end;
        *w++ = '\0'; /* the comma or the end the field stopped at, or a byte of its quotes */
        if (n < max)
            f[n] = start;
        n++;
        if (last)
            break;
        p++; /* the comma */
    }
    return n > max ? max + 1 : n;
}

int csv_count(const char *s)
{
    const char *end = trim_cr(s, csv_record_end(s)), *p = s;
    int n = 0;
    for (;;) {
        if (next_field(&p, end, NULL) != 0)
            return -1;
        n++;
        if (p >= end)
            return n;
        p++;
    }
}

bool csv_get(const char *s, int col, char *out, size_t n)
{
    const char *end = trim_cr(s, csv_record_end(s)), *p = s;
    for (int k = 0;; k++) {
        const char *start = p;
        if (next_field(&p, end, NULL) != 0)
            return false;
        if (k == col) {
            /* unquote into out, at most n - 1 bytes; a doubled quote keeps its second */
            bool quoted = start < end && *start == '"';
            const char *q = start + quoted, *stop = quoted ? p - 1 : p;
            size_t m = 0;
            for (; q < stop; q++) {
                if (quoted && *q == '"')
                    q++;
                if (m + 1 < n)
                    out[m++] = *q;
            }
            if (n)
                out[m] = '\0';
            return true;
        }
        if (p >= end)
            return false;
        p++;
    }
}
