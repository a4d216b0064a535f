/* json_reader.c - jsonl_: the strict JSON reader of every file ptosim reads, and its messages. */
/* Recursive descent into cJSON nodes, or one loop into a flat doc: short integers and decimals without
 * strtod, no locale lookups, duplicate keys, bad UTF-8 and out-of-range numbers refused. Both share the
 * lexing (strings, numbers, white space, the error's place and path); only what a value becomes differs.
 * The lexing is also exported (jsonl_lex_*) for the in-place scanner (sim/json/json_scan.c) and the
 * windowed one (sim/json/json_stream.c), and jsonl_message is every reader's message. */
#include "json_reader.h"
#include "msg_text.h"

#include <assert.h>
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 1000 /* cJSON's nesting limit */

/* The member being parsed at one nesting level, for the path in a message. */
typedef struct level {
    bool object;     /* the container is an object */
    const char *key; /* the member's key (objects; NULL while the key is read) */
    int index;       /* the member's index (arrays) */
    size_t ci;       /* the container's value in the doc (jsonl_doc_parse) */
} level;

typedef struct parser {
    const char *p, *end;       /* next byte, end of input */
    const char *err;           /* first offending byte once failed */
    const char *what;          /* why, when not plain bad syntax */
    int depth;                 /* open containers */
    level at[MAX_DEPTH + 2];   /* at[d]: the member of the container at depth d being parsed */
    char path[JSONL_PATH_MAX]; /* at[] as text, filled when `what` is set */
    jsonl_doc *doc;            /* the doc being filled (jsonl_doc_parse) */
    char *tout;                /* next free byte of doc->text */
} parser;

/* Records a failure at q with reason what, and the path of the member being parsed. */
static void refuse(parser *ps, const char *q, const char *what)
{
    ps->err = q;
    ps->what = what;
    size_t len = 0;
    ps->path[0] = '\0';
    for (int d = 1; d <= ps->depth && len + 16 < sizeof(ps->path); d++) {
        int w = 0;
        if (ps->at[d].key)
            w = snprintf(ps->path + len, sizeof(ps->path) - len, "%s%s", len ? "." : "", ps->at[d].key);
        else if (!ps->at[d].object)
            w = snprintf(ps->path + len, sizeof(ps->path) - len, "[%d]", ps->at[d].index);
        if (w < 0)
            break;
        len += (size_t)w;
        if (len >= sizeof(ps->path))
            len = sizeof(ps->path) - 1;
    }
}

/* Is s[0..n) well-formed UTF-8 (no overlong forms, surrogates or code points past U+10FFFF)? */
static bool utf8_ok(const unsigned char *s, size_t n, size_t *bad)
{
    size_t i = 0;
    while (i < n) {
        unsigned c = s[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t len;
        unsigned lo = 0x80, hi = 0xBF; /* the range of the second byte */
        if (c >= 0xC2 && c <= 0xDF)
            len = 2;
        else if (c >= 0xE0 && c <= 0xEF) {
            len = 3;
            if (c == 0xE0)
                lo = 0xA0; /* overlong */
            if (c == 0xED)
                hi = 0x9F; /* surrogates */
        } else if (c >= 0xF0 && c <= 0xF4) {
            len = 4;
            if (c == 0xF0)
                lo = 0x90; /* overlong */
            if (c == 0xF4)
                hi = 0x8F; /* past U+10FFFF */
        } else {
            *bad = i;
            return false;
        }
        if (i + len > n || s[i + 1] < lo || s[i + 1] > hi) {
            *bad = i;
            return false;
        }
        for (size_t k = 2; k < len; k++)
            if ((s[i + k] & 0xC0) != 0x80) {
                *bad = i;
                return false;
            }
        i += len;
    }
    return true;
}

const char JSONL_OOM[] = "out of memory";

static cJSON *node(parser *ps, int type)
{
    cJSON *n = cJSON_malloc(sizeof(*n));
    if (!n) {
        ps->err = ps->p;
        ps->what = JSONL_OOM;
        return NULL;
    }
    memset(n, 0, sizeof(*n));
    n->type = type;
    return n;
}

/* The first byte from p that is not white space: one test for the byte that ends it (above ' '). */
static inline const char *past_ws(const char *p, const char *end)
{
    while (p < end && (unsigned char)*p <= ' ' && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
        p++;
    return p;
}

/* past_ws where one space is usual (after ',' and ':'): that space, then a byte above ' ', one test each. */
static inline const char *past_ws1(const char *p, const char *end)
{
    if (p < end && *p == ' ')
        p++;
    return p < end && (unsigned char)*p > ' ' ? p : past_ws(p, end);
}

static inline void ws(parser *ps)
{
    ps->p = past_ws(ps->p, ps->end);
}

static int hex4(const char *s, unsigned *out)
{
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = s[i];
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            v |= (unsigned)(c - 'A' + 10);
        else
            return -1;
    }
    *out = v;
    return 0;
}

/* strcmp(a, b) == 0 for the short keys of a line, without a library call per key pair. */
static inline bool same_key(const char *a, const char *b)
{
    while (*a && *a == *b) {
        a++;
        b++;
    }
    return *a == *b;
}

/* Scans the string whose opening quote is at ps->p: control bytes refused, UTF-8 checked. On success
 * ps->p is at the closing quote, *s and *len give the raw bytes between the quotes and *plain says that
 * they hold no escape (the value is those bytes). */
static bool scan_string(parser *ps, const char **s, size_t *len, bool *plain)
{
    const char *b = ++ps->p, *p = b, *end = ps->end;
    bool pl = true, high = false; /* high: a byte >= 0x80, check the UTF-8 */
    for (;;) {
        /* the run of printable ASCII first, in a tight loop: most strings hold nothing else */
        while (p < end && (unsigned char)*p >= 0x20 && (unsigned char)*p < 0x80 && *p != '"' && *p != '\\')
            p++;
        if (p >= end) {
            ps->err = end;
            return false;
        }
        unsigned char c = (unsigned char)*p;
        if (c == '"')
            break;
        if (c < 0x20) {
            ps->err = p;
            return false;
        }
        if (c == '\\') { /* the escaped byte is checked by escape(); a quote there does not end the string */
            pl = false;
            if (end - p < 2) {
                ps->err = end;
                return false;
            }
            p += 2;
            continue;
        }
        high = true;
        p++;
    }
    ps->p = p;
    size_t n = (size_t)(p - b), bad;
    if (high && !utf8_ok((const unsigned char *)b, n, &bad)) {
        refuse(ps, b + bad, "invalid UTF-8 in a string");
        return false;
    }
    *s = b;
    *len = n;
    *plain = pl;
    return true;
}

/* Decodes the escape whose backslash is at q (q + 1 before the closing quote end): *cp its code point,
 * returns the bytes it spans (2, 6 or 12), or 0 on a bad escape with the failure recorded. */
static int escape(parser *ps, const char *q, const char *end, unsigned *cp)
{
    static const char plain[] = "\"\\/bfnrt", value[] = "\"\\/\b\f\n\r\t";
    const char *e = q[1] ? strchr(plain, q[1]) : NULL;
    if (e) {
        *cp = (unsigned char)value[e - plain];
        return 2;
    }
    unsigned hi, lo;
    if (q[1] != 'u' || end - q < 6 || hex4(q + 2, &hi) != 0) {
        ps->err = q + 1;
        return 0;
    }
    if (hi >= 0xD800 && hi <= 0xDBFF) { /* a surrogate pair */
        if (end - q < 12 || q[6] != '\\' || q[7] != 'u' || hex4(q + 8, &lo) != 0 || lo < 0xDC00 ||
            lo > 0xDFFF) {
            ps->err = q + 5;
            return 0;
        }
        *cp = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
        return 12;
    }
    if (hi >= 0xDC00 && hi <= 0xDFFF) {
        refuse(ps, q, "a lone surrogate \\u escape is not a character");
        return 0;
    }
    if (hi == 0) {
        refuse(ps, q, "\\u0000 would cut the string short");
        return 0;
    }
    *cp = hi;
    return 6;
}

/* Writes code point cp as UTF-8 at o; returns the bytes written (1 to 4). */
static int put_utf8(char *o, unsigned cp)
{
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xC0 | (cp >> 6));
        o[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xE0 | (cp >> 12));
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (char)(0xF0 | (cp >> 18));
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    o[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* Writes the value of the scanned string s (ending at the closing quote, ps->p) NUL-terminated into out,
 * which has room for its raw length + 1 (an escape never writes more bytes than it reads), and steps past
 * the closing quote. Returns the value's length, or -1 on a bad escape. */
static long unescape(parser *ps, const char *s, bool plain, char *out)
{
    if (plain) {
        size_t len = (size_t)(ps->p - s);
        memcpy(out, s, len);
        out[len] = '\0';
        ps->p++;
        return (long)len;
    }
    char *o = out;
    for (const char *q = s; q < ps->p;) {
        if (*q != '\\') {
            *o++ = *q++;
            continue;
        }
        unsigned cp;
        int k = escape(ps, q, ps->p, &cp);
        if (!k)
            return -1;
        q += k;
        o += put_utf8(o, cp);
    }
    *o = '\0';
    ps->p++;
    return (long)(o - out);
}

/* A string starting at the opening quote; returns a NUL-terminated copy (cJSON_malloc). */
static char *string(parser *ps)
{
    const char *s;
    size_t len;
    bool plain;
    if (!scan_string(ps, &s, &len, &plain))
        return NULL;
    char *out = cJSON_malloc(len + 1);
    if (!out) {
        ps->err = s;
        ps->what = JSONL_OOM;
        return NULL;
    }
    if (unescape(ps, s, plain, out) < 0) {
        cJSON_free(out);
        return NULL;
    }
    return out;
}

static bool digit(char c)
{
    return c >= '0' && c <= '9';
}

/* The value of the well-formed JSON number [s, end) when it has at most 15 significant digits and a power
 * of ten of at most 22 either way (0.0883883476, 1.5e3): the digits and the power are exact doubles, so the
 * one division or multiplication rounds the exact value once, to the double strtod gives (Clinger's fast
 * path). false for any other, left to strtod; or where doubles are computed wider than double. */
static bool exact_decimal(const char *s, const char *end, double *out)
{
#if FLT_EVAL_METHOD == 0
    static const double p10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                   1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    const char *p = s;
    bool neg = *p == '-';
    p += neg;
    uint64_t m = 0;
    int sig = 0, scale = 0; /* significant digits in m; value = m * 10^(scale + exponent) */
    for (; p < end && digit(*p); p++)
        if (m || *p != '0') {
            if (++sig > 15)
                return false;
            m = m * 10 + (uint64_t)(*p - '0');
        }
    if (p < end && *p == '.')
        for (p++; p < end && digit(*p); p++) {
            if (m || *p != '0') {
                if (++sig > 15)
                    return false;
                m = m * 10 + (uint64_t)(*p - '0');
            }
            scale--;
        }
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        bool eneg = *p == '-';
        p += *p == '-' || *p == '+';
        int x = 0;
        for (; p < end && digit(*p); p++) {
            if (x > 1000) /* far beyond any power the fast path takes */
                return false;
            x = x * 10 + (*p - '0');
        }
        scale += eneg ? -x : x;
    }
    double v;
    if (m == 0)
        v = 0;
    else if (scale >= 0 && scale <= 22)
        v = (double)m * p10[scale];
    else if (scale < 0 && scale >= -22)
        v = (double)m / p10[-scale];
    else
        return false;
    *out = neg ? -v : v;
    return true;
#else
    (void)s;
    (void)end;
    (void)out;
    return false;
#endif
}

/* A number starting at ps->p into *out: integers of up to 15 digits exactly, without strtod; others
 * through strtod (no locale is set: '.' is the decimal point); beyond a double's range refused. With out
 * NULL the number is only checked: strtod runs only when the number could be out of range. */
static bool lex_number(parser *ps, double *out)
{
    const char *s = ps->p;
    bool neg = false, frac = false, expo = false;
    if (*ps->p == '-') {
        neg = true;
        ps->p++;
    }
    if (ps->p >= ps->end || !digit(*ps->p)) {
        ps->err = ps->p;
        return false;
    }
    uint64_t ip = 0;
    int ndig = 0;
    if (*ps->p == '0') {
        ps->p++;
    } else {
        while (ps->p < ps->end && digit(*ps->p)) {
            ip = ip * 10 + (uint64_t)(*ps->p - '0');
            ps->p++;
            ndig++;
        }
    }
    if (ps->p < ps->end && *ps->p == '.') {
        frac = true;
        ps->p++;
        if (ps->p >= ps->end || !digit(*ps->p)) {
            ps->err = ps->p;
            return false;
        }
        while (ps->p < ps->end && digit(*ps->p))
            ps->p++;
    }
    if (ps->p < ps->end && (*ps->p == 'e' || *ps->p == 'E')) {
        frac = expo = true;
        ps->p++;
        if (ps->p < ps->end && (*ps->p == '+' || *ps->p == '-'))
            ps->p++;
        if (ps->p >= ps->end || !digit(*ps->p)) {
            ps->err = ps->p;
            return false;
        }
        while (ps->p < ps->end && digit(*ps->p))
            ps->p++;
    }
    double d;
    if (!out && !expo && ndig < 300) /* below 1e300 without an exponent: in range */
        return true;
    if (!frac && ndig <= 15) { /* exact in a double: no strtod */
        d = (double)ip;
        if (neg)
            d = -d;
    } else if (!exact_decimal(s, ps->p, &d)) {
        char buf[64];
        size_t len = (size_t)(ps->p - s);
        if (len < sizeof(buf)) {
            memcpy(buf, s, len);
            buf[len] = '\0';
            d = strtod(buf, NULL);
        } else {
            char *big = malloc(len + 1);
            if (!big) {
                ps->err = s;
                ps->what = JSONL_OOM;
                return false;
            }
            memcpy(big, s, len);
            big[len] = '\0';
            d = strtod(big, NULL);
            free(big);
        }
    }
    if (!isfinite(d)) { /* 1e999: strtod's HUGE_VAL */
        refuse(ps, s, "number out of range");
        return false;
    }
    if (out)
        *out = d;
    return true;
}

static cJSON *number(parser *ps)
{
    double d;
    if (!lex_number(ps, &d))
        return NULL;
    cJSON *n = node(ps, cJSON_Number);
    if (!n)
        return NULL;
    n->valuedouble = d;
    /* what cJSON stores: the value saturated to int */
    n->valueint = d >= 2147483647.0 ? 2147483647 : d <= -2147483648.0 ? -2147483647 - 1 : (int)d;
    return n;
}

static bool literal(parser *ps, const char *word, size_t len)
{
    if ((size_t)(ps->end - ps->p) < len || memcmp(ps->p, word, len) != 0) {
        ps->err = ps->p;
        return false;
    }
    ps->p += len;
    return true;
}

static cJSON *value(parser *ps);

static cJSON *container(parser *ps, bool object)
{
    if (++ps->depth > MAX_DEPTH) {
        ps->err = ps->p;
        return NULL;
    }
    cJSON *n = node(ps, object ? cJSON_Object : cJSON_Array);
    if (!n)
        return NULL;
    char close = object ? '}' : ']';
    ps->p++;
    ws(ps);
    if (ps->p < ps->end && *ps->p == close) {
        ps->p++;
        ps->depth--;
        return n;
    }
    cJSON *last = NULL;
    level *lv = &ps->at[ps->depth];
    lv->object = object;
    lv->key = NULL;
    lv->index = 0;
    for (;;) {
        char *key = NULL;
        if (object) {
            const char *key_at = ps->p;
            lv->key = NULL; /* a bad key is reported at the object */
            if (ps->p >= ps->end || *ps->p != '"') {
                ps->err = ps->p;
                cJSON_Delete(n);
                return NULL;
            }
            if (!(key = string(ps))) {
                cJSON_Delete(n);
                return NULL;
            }
            lv->key = key;
            /* a second value under one key would be silently dropped by every lookup */
            for (const cJSON *k = n->child; k; k = k->next)
                if (k->string[0] == key[0] && same_key(k->string, key)) {
                    refuse(ps, key_at, "duplicate key");
                    cJSON_free(key);
                    cJSON_Delete(n);
                    return NULL;
                }
            ws(ps);
            if (ps->p >= ps->end || *ps->p != ':') {
                ps->err = ps->p;
                cJSON_free(key);
                cJSON_Delete(n);
                return NULL;
            }
            ps->p++;
            ws(ps);
        }
        cJSON *v = value(ps);
        if (!v) {
            cJSON_free(key);
            cJSON_Delete(n);
            return NULL;
        }
        v->string = key;
        if (last) {
            last->next = v;
            v->prev = last;
        } else {
            n->child = v;
        }
        n->child->prev = v; /* cJSON keeps the tail in the head's prev */
        last = v;
        ws(ps);
        if (ps->p < ps->end && *ps->p == ',') {
            ps->p++;
            lv->index++;
            ws(ps);
            continue;
        }
        if (ps->p < ps->end && *ps->p == close) {
            ps->p++;
            ps->depth--;
            return n;
        }
        ps->err = ps->p;
        cJSON_Delete(n);
        return NULL;
    }
}

static cJSON *value(parser *ps)
{
    if (ps->p >= ps->end) {
        ps->err = ps->p;
        return NULL;
    }
    switch (*ps->p) {
    case '{':
        return container(ps, true);
    case '[':
        return container(ps, false);
    case '"': {
        char *s = string(ps);
        if (!s)
            return NULL;
        cJSON *n = node(ps, cJSON_String);
        if (!n) {
            cJSON_free(s);
            return NULL;
        }
        n->valuestring = s;
        return n;
    }
    case 't':
        return literal(ps, "true", 4) ? node(ps, cJSON_True) : NULL;
    case 'f':
        return literal(ps, "false", 5) ? node(ps, cJSON_False) : NULL;
    case 'n':
        return literal(ps, "null", 4) ? node(ps, cJSON_NULL) : NULL;
    default:
        return number(ps);
    }
}

cJSON *jsonl_parse(const char *s, size_t n, jsonl_error *e)
{
    parser ps;
    ps.p = s;
    ps.end = s + n;
    ps.err = ps.what = NULL;
    ps.depth = 0;
    ws(&ps);
    cJSON *v = value(&ps);
    if (v) {
        ws(&ps);
        if (ps.p != ps.end) {
            ps.err = ps.p;
            cJSON_Delete(v);
            v = NULL;
        }
    }
    if (!v && e) {
        e->at = ps.err ? ps.err : ps.p;
        e->what = ps.what;
        if (ps.what)
            memcpy(e->path, ps.path, sizeof(e->path));
        else
            e->path[0] = '\0';
    }
    return v;
}

void jsonl_where(const char *s, const char *at, long *line, long *col)
{
    long l = 1;
    const char *bol = s;
    for (const char *q = s; q < at; q++)
        if (*q == '\n') {
            l++;
            bol = q + 1;
        }
    *line = l;
    *col = (long)(at - bol) + 1;
}

void jsonl_message(char *buf, size_t n, const char *file, const char *s, const jsonl_error *e, long line)
{
    assert(buf && n > 0 && file && s && e && e->at >= s);
    if (e->what == JSONL_OOM) {
        snprintf(buf, n, "%s: out of memory", file);
        msgtext_fix(buf, n);
        return;
    }
    long l, col;
    jsonl_where(s, e->at, &l, &col);
    if (line > 0)
        l = line;
    snprintf(buf, n, "%s:%ld:%ld: %s: %s", file, l, col, e->path[0] ? e->path : "json",
             e->what ? e->what : "not valid JSON");
    msgtext_fix(buf, n); /* a key in the path, the file's name: no terminal controls */
}

/* The lexing of the parsers above for scanners (a parser at depth 0: paths are ""). */

static void lex_start(parser *ps, const char *s, const char *end)
{
    ps->p = s;
    ps->end = end;
    ps->err = ps->what = NULL;
    ps->depth = 0;
}

static const char *lex_done(parser *ps, bool ok, jsonl_error *e)
{
    if (ok)
        return ps->p;
    if (e) {
        e->at = ps->err ? ps->err : ps->p;
        e->what = ps->what;
        e->path[0] = '\0';
    }
    return NULL;
}

/* The value of the checked string from s (its opening quote) to after into out, as jsonl_lex_string says. */
static void unescape_into(const char *s, const char *after, char *out, size_t n)
{
    parser ps; /* the escapes were checked: escape() cannot fail here */
    lex_start(&ps, s, after);
    const char *q = s + 1, *close = after - 1;
    size_t len = 0;
    char cb[4];
    while (q < close) {
        const char *bs = memchr(q, '\\', (size_t)(close - q));
        size_t run = bs ? (size_t)(bs - q) : (size_t)(close - q);
        if (n > len + 1)
            memcpy(out + len, q, run < n - len - 1 ? run : n - len - 1);
        len += run;
        q += run;
        if (!bs)
            break;
        unsigned cp = 0;
        int k = escape(&ps, q, close, &cp);
        assert(k > 0);
        if (k <= 0)
            break;
        q += k;
        int w = put_utf8(cb, cp);
        for (int i = 0; i < w; i++, len++)
            if (n > len + 1)
                out[len] = cb[i];
    }
    out[len < n ? len : n - 1] = '\0';
}

#define X4(a) a, a, a, a
#define X16(a) X4(a), X4(a), X4(a), X4(a)
/* 1 for a byte a string holds as itself, needing no second look: printable ASCII (0x20-0x7F) but the quote
 * and the backslash. One load per byte instead of four comparisons: jsonl_lex_string runs over every
 * string of conform's captures (sim/json/json_stream.c). */
/* clang-format off */
static const unsigned char STR_PLAIN[256] = {
    X16(0), X16(0),                   /* 0x00-0x1F: control bytes */
    1, 1, 0, X4(1), X4(1), X4(1), 1,  /* 0x20-0x2F: '"' is 0x22 */
    X16(1), X16(1),                   /* 0x30-0x4F */
    X4(1), X4(1), X4(1), 0, 1, 1, 1,  /* 0x50-0x5F: '\\' is 0x5C */
    X16(1), X16(1),                   /* 0x60-0x7F; 0x80-0xFF (UTF-8) are 0 */
};
/* clang-format on */
#undef X16
#undef X4

const char *jsonl_lex_string(const char *s, const char *end, char *out, size_t n, jsonl_error *e)
{
    assert(s < end && *s == '"');
    /* printable ASCII up to the closing quote, the most of strings, without a parser */
    const char *p = jsonl_plain_end(s + 1, end);
    if (p < end && *p == '"') {
        if (n) {
            size_t len = (size_t)(p - s - 1);
            len = len < n ? len : n - 1;
            memcpy(out, s + 1, len);
            out[len] = '\0';
        }
        return p + 1;
    }
    parser ps;
    lex_start(&ps, s, end);
    const char *b;
    size_t len;
    bool plain;
    bool ok = scan_string(&ps, &b, &len, &plain);
    if (ok && !plain) /* the escapes, as unescape() reads them */
        for (const char *q = memchr(b, '\\', len); ok && q && q < ps.p;
             q = memchr(q, '\\', (size_t)(ps.p - q))) {
            unsigned cp;
            int k = escape(&ps, q, ps.p, &cp);
            ok = k > 0;
            q += k;
        }
    if (!ok)
        return lex_done(&ps, false, e);
    ps.p++; /* the closing quote */
    if (n)
        unescape_into(s, ps.p, out, n);
    return ps.p;
}

const char *jsonl_lex_number(const char *s, const char *end, double *v, jsonl_error *e)
{
    /* a short integer, the most of numbers, without a parser: what lex_number reads exactly */
    const char *p = s + (s < end && *s == '-'), *d = p;
    if (p < end && *p == '0')
        p++;
    else
        while (p < end && (unsigned)(*p - '0') < 10)
            p++;
    if (p > d && p - d <= 15 &&
        (p == end || (*p != '.' && *p != 'e' && *p != 'E' && (unsigned)(*p - '0') >= 10))) {
        if (v) {
            uint64_t ip = 0;
            for (const char *q = d; q < p; q++)
                ip = ip * 10 + (uint64_t)(*q - '0');
            *v = *s == '-' ? -(double)ip : (double)ip;
        }
        return p;
    }
    parser ps;
    lex_start(&ps, s, end);
    return lex_done(&ps, s < end && lex_number(&ps, v), e);
}

const char *jsonl_lex_literal(const char *s, const char *end, jsonl_error *e)
{
    parser ps;
    lex_start(&ps, s, end);
    bool ok = s < end && (*s == 't'   ? literal(&ps, "true", 4)
                          : *s == 'f' ? literal(&ps, "false", 5)
                                      : literal(&ps, "null", 4));
    return lex_done(&ps, ok, e);
}

bool jsonl_lex_cut(const char *s, const char *end, const jsonl_error *e)
{
    if (e->what) /* a reason: the token is wrong whatever follows */
        return false;
    if (e->at == end)
        return true;
    if (s >= end)
        return false;
    /* literal() refuses at the literal's start: cut when the held bytes begin one */
    size_t have = (size_t)(end - s);
    const char *word = *s == 't' ? "true" : *s == 'f' ? "false" : *s == 'n' ? "null" : NULL;
    return word && e->at == s && have < strlen(word) && memcmp(s, word, have) == 0;
}

/* The doc parser (doc_parse_value): the same grammar as value() and container() above, each value appended
 * to ps->doc instead of linked into a tree. */

void jsonl_doc_init(jsonl_doc *d)
{
    memset(d, 0, sizeof(*d));
}

void jsonl_doc_free(jsonl_doc *d)
{
    free(d->v);
    free(d->text);
    memset(d, 0, sizeof(*d));
}

/* Makes room for one more value in d; false when it cannot grow. */
static bool doc_grow(jsonl_doc *d)
{
    if (d->vcap > SIZE_MAX / 2 / sizeof(*d->v))
        return false;
    size_t ncap = d->vcap ? d->vcap * 2 : 64;
    jsonl_val *nv = realloc(d->v, ncap * sizeof(*nv));
    if (!nv)
        return false;
    d->v = nv;
    d->vcap = ncap;
    return true;
}

/* Appends a value of type t (no key, no members); returns its index, or SIZE_MAX when d cannot grow. */
static inline size_t doc_push(jsonl_doc *d, jsonl_type t)
{
    if (d->nv == d->vcap && !doc_grow(d))
        return SIZE_MAX;
    jsonl_val *v = &d->v[d->nv];
    v->key = NULL;
    v->klen = 0;
    v->num = 0;
    v->span = 1;
    v->count = 0;
    v->type = (uint8_t)t;
    return d->nv++;
}

/* doc_string's general path, from the opening quote at ps->p: every string, escapes and UTF-8 checked, each
 * error as scan_string and unescape report it. */
static const char *doc_string_any(parser *ps, size_t *len)
{
    const char *b = ps->p + 1, *q = b;
    char *out = ps->tout, *o = out;
    unsigned char high = 0; /* any byte >= 0x80: check the UTF-8 */
    for (;; q++) {
        if (q >= ps->end) {
            ps->err = q;
            return NULL;
        }
        unsigned char c = (unsigned char)*q;
        if (c == '"')
            break;
        if (c < 0x20) {
            ps->err = q;
            return NULL;
        }
        if (c == '\\') { /* the general path, from the opening quote */
            const char *s;
            size_t raw;
            bool plain;
            if (!scan_string(ps, &s, &raw, &plain))
                return NULL;
            long n = unescape(ps, s, plain, out);
            if (n < 0)
                return NULL;
            ps->tout += n + 1;
            *len = (size_t)n;
            return out;
        }
        high |= c;
        *o++ = (char)c;
    }
    size_t n = (size_t)(q - b), bad;
    if ((high & 0x80) && !utf8_ok((const unsigned char *)b, n, &bad)) {
        refuse(ps, b + bad, "invalid UTF-8 in a string");
        return NULL;
    }
    *o = '\0';
    ps->p = q + 1;
    ps->tout = o + 1;
    *len = n;
    return out;
}


/* The run of plain printable ASCII (STR_PLAIN) of a string from q, copied to out + (q - b) as it is scanned
 * (b: the string's first byte); returns the first byte that is not plain, or end. Text never runs ahead of
 * the input (a string's value and NUL fit in its raw bytes and quotes), so the 8 bytes written at a time
 * stay inside the n + 1 bytes of text while q + 8 <= end. */
static inline const char *plain_run(const char *b, const char *q, const char *end, char *out)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    while (end - q >= 8) {
        uint64_t x, m;
        memcpy(&x, q, 8);
        memcpy(out + (q - b), &x, 8);
        if ((m = jsonl_unplain8(x)) != 0)
            return q + (__builtin_ctzll(m) >> 3);
        q += 8;
    }
#endif
    while (q < end && STR_PLAIN[(unsigned char)*q]) {
        out[q - b] = *q;
        q++;
    }
    return q;
}

/* Parses the one value at ps->p into ps->doc: the grammar of value() and container(), each value appended
 * to the doc instead of linked into a tree, with the same errors at the same bytes (each level's key and
 * index kept in ps->at for a message's path, as there). One loop with an explicit stack of open containers
 * (ps->at), the next byte, the text and the values in locals: a graph line is mostly short keys, strings
 * and integers, read here without a call. */
static bool doc_parse_value(parser *ps)
{
    jsonl_doc *d = ps->doc;
    const char *p = ps->p, *const end = ps->end;
    char *tout = ps->tout;
    jsonl_val *v = d->v;
    size_t nv = d->nv, vcap = d->vcap, vi;
    const char *key = NULL;  /* the key of the value read next (NULL: an array's entry, or the top) */
    size_t klen = 0;         /* its length */
    level *lv = NULL;        /* the innermost open container (NULL: none) */
    const char *key_at, *kq; /* a member's opening quote, the byte that ended its key's plain run */

/* Appends a value of type t under key at p (out of memory: a failure there, as node()'s). */
#define PUSH(t)                                                                                              \
    do {                                                                                                     \
        if (nv == vcap) {                                                                                    \
            d->nv = nv;                                                                                      \
            if (!doc_grow(d)) {                                                                              \
                ps->err = p;                                                                                 \
                ps->what = JSONL_OOM;                                                                        \
                goto fail;                                                                                   \
            }                                                                                                \
            v = d->v;                                                                                        \
            vcap = d->vcap;                                                                                  \
        }                                                                                                    \
        vi = nv++;                                                                                           \
        v[vi].key = key;                                                                                     \
        v[vi].klen = (uint32_t)klen;                                                                         \
        v[vi].num = 0;                                                                                       \
        v[vi].span = 1;                                                                                      \
        v[vi].count = 0;                                                                                     \
        v[vi].type = (uint8_t)(t);                                                                           \
    } while (0)

value: /* a value at p */
    if (p >= end) {
        ps->err = p;
        goto fail;
    }
    switch (*p) {
    case '{':
    case '[': {
        bool object = *p == '{';
        if (++ps->depth > MAX_DEPTH) {
            ps->err = p;
            goto fail;
        }
        PUSH(object ? JSONL_OBJECT : JSONL_ARRAY);
        lv = &ps->at[ps->depth];
        lv->object = object;
        lv->key = NULL;
        lv->index = 0;
        lv->ci = vi;
        p = past_ws(p + 1, end);
        if (p < end && *p == (object ? '}' : ']')) {
            p++;
            ps->depth--;
            lv = ps->depth ? &ps->at[ps->depth] : NULL;
            goto after;
        }
        if (object)
            goto member;
        key = NULL;
        klen = 0;
        goto value;
    }
    case '"': {
        const char *b = p + 1, *q = plain_run(b, b, end, tout), *str;
        size_t len;
        if (q < end && *q == '"') {
            len = (size_t)(q - b);
            tout[len] = '\0';
            str = tout;
            tout += len + 1;
            p = q + 1;
        } else {
            ps->p = p;
            ps->tout = tout;
            if (!(str = doc_string_any(ps, &len)))
                goto fail;
            p = ps->p;
            tout = ps->tout;
        }
        PUSH(JSONL_STRING);
        v[vi].str = str;
        v[vi].count = (uint32_t)len; /* <= input bytes */
        goto after;
    }
    case 't':
    case 'f':
    case 'n': {
        static const char *const words[3] = {"true", "false", "null"};
        static const jsonl_type types[3] = {JSONL_TRUE, JSONL_FALSE, JSONL_NULL};
        int w = *p == 't' ? 0 : *p == 'f' ? 1 : 2;
        size_t len = w == 1 ? 5 : 4;
        ps->p = p;
        if (!literal(ps, words[w], len))
            goto fail;
        p += len;
        PUSH(types[w]);
        goto after;
    }
    default: {
        /* a short integer, the most of a graph's numbers, read here exactly as lex_number reads it */
        const char *dg = p + (*p == '-'), *q = dg;
        uint64_t ip = 0;
        double x;
        if (q < end && *q == '0')
            q++;
        else
            while (q < end && (unsigned)(*q - '0') < 10) {
                ip = ip * 10 + (uint64_t)(*q - '0');
                q++;
            }
        if (q > dg && q - dg <= 15 &&
            (q == end || (*q != '.' && *q != 'e' && *q != 'E' && (unsigned)(*q - '0') >= 10))) {
            x = *p == '-' ? -(double)ip : (double)ip;
            p = q;
        } else {
            ps->p = p;
            if (!lex_number(ps, &x))
                goto fail;
            p = ps->p;
        }
        PUSH(JSONL_NUMBER);
        v[vi].num = x;
        goto after;
    }
    }

after: /* a value was read, p just past it: the next member, the container's end, or the top's end */
    if (!lv) {
        ps->p = p;
        ps->tout = tout;
        d->nv = nv;
        return true;
    }
    if (p < end && (unsigned char)*p <= ' ') /* ',' or the end follows a value at once, mostly */
        p = past_ws(p, end);
    if (p < end && *p == ',') {
        p = past_ws1(p + 1, end);
        lv->index++;
        if (lv->object)
            goto member;
        key = NULL;
        klen = 0;
        goto value;
    }
    if (p < end && *p == (lv->object ? '}' : ']')) {
        p++;
        v[lv->ci].span = (uint32_t)(nv - lv->ci); /* nv <= input bytes <= JSONL_DOC_MAX */
        v[lv->ci].count = (uint32_t)lv->index + 1;
        ps->depth--;
        lv = ps->depth ? &ps->at[ps->depth] : NULL;
        goto after;
    }
    ps->err = p;
    goto fail;

member: /* an object's member at p: its key, then its value */
    key_at = p;
    lv->key = NULL; /* a bad key is reported at the object */
    if (p >= end || *p != '"') {
        ps->err = p;
        goto fail;
    }
    kq = plain_run(p + 1, p + 1, end, tout);
    if (kq < end && *kq == '"') {
        klen = (size_t)(kq - (p + 1));
        tout[klen] = '\0';
        key = tout;
        tout += klen + 1;
        p = kq + 1;
    } else {
        ps->p = p;
        ps->tout = tout;
        if (!(key = doc_string_any(ps, &klen)))
            goto fail;
        p = ps->p;
        tout = ps->tout;
    }
    lv->key = key;
    /* a second value under one key would be silently dropped by every lookup */
    for (size_t k = lv->ci + 1; k < nv; k += v[k].span)
        if (v[k].klen == klen && v[k].key[0] == key[0] && memcmp(v[k].key, key, klen) == 0) {
            refuse(ps, key_at, "duplicate key");
            goto fail;
        }
    if (p < end && (unsigned char)*p <= ' ') /* ':' follows a key at once, mostly */
        p = past_ws(p, end);
    if (p >= end || *p != ':') {
        ps->err = p;
        goto fail;
    }
    p = past_ws1(p + 1, end);
    goto value;

fail:
    d->nv = nv;
    if (!ps->err)
        ps->p = p;
    return false;
#undef PUSH
}

const jsonl_val *jsonl_doc_parse(jsonl_doc *d, const char *s, size_t n, jsonl_error *e)
{
    d->nv = 0;
    /* every string's value and NUL fit in the bytes of its raw text and quotes: n + 1 bytes hold all,
     * so text never moves while the parse points into it */
    if (n > JSONL_DOC_MAX || n + 1 > d->tcap) { /* n + 1 cannot wrap past the first test */
        size_t cap = n + 1;
        if (d->tcap <= JSONL_DOC_MAX / 2 && 2 * d->tcap > cap) /* doubling: lines grow a little at a time */
            cap = 2 * d->tcap;
        free(d->text);
        d->tcap = 0;
        if (n > JSONL_DOC_MAX || !(d->text = malloc(cap))) {
            d->text = NULL;
            if (e) {
                e->at = s;
                e->what = JSONL_OOM;
                e->path[0] = '\0';
            }
            return NULL;
        }
        d->tcap = cap;
    }
    parser ps;
    ps.p = s;
    ps.end = s + n;
    ps.err = ps.what = NULL;
    ps.depth = 0;
    ps.doc = d;
    ps.tout = d->text;
    ws(&ps);
    bool ok = doc_parse_value(&ps);
    if (ok) {
        ws(&ps);
        if (ps.p != ps.end) {
            ps.err = ps.p;
            ok = false;
        }
    }
    if (!ok) {
        if (e) {
            e->at = ps.err ? ps.err : ps.p;
            e->what = ps.what;
            if (ps.what)
                memcpy(e->path, ps.path, sizeof(e->path));
            else
                e->path[0] = '\0';
        }
        return NULL;
    }
    return d->v;
}

/* Appends c's subtree under key; false when out of memory. */
static bool doc_from(jsonl_doc *d, const cJSON *c, const char *key)
{
    static const jsonl_type types[] = {
        [cJSON_False] = JSONL_FALSE,   [cJSON_True] = JSONL_TRUE,     [cJSON_NULL] = JSONL_NULL,
        [cJSON_Number] = JSONL_NUMBER, [cJSON_String] = JSONL_STRING, [cJSON_Array] = JSONL_ARRAY,
        [cJSON_Object] = JSONL_OBJECT};
    int t = c->type & 0xFF;
    size_t i = doc_push(d, t < (int)(sizeof(types) / sizeof(*types)) ? types[t] : JSONL_NULL);
    if (i == SIZE_MAX)
        return false;
    if (key) {
        size_t klen = strlen(key);
        if (klen > UINT32_MAX)
            return false;
        d->v[i].key = key;
        d->v[i].klen = (uint32_t)klen;
    }
    if (t == cJSON_Number) {
        d->v[i].num = c->valuedouble;
    } else if (t == cJSON_String) {
        const char *str = c->valuestring ? c->valuestring : "";
        size_t len = strlen(str);
        if (len > UINT32_MAX)
            return false;
        d->v[i].str = str;
        d->v[i].count = (uint32_t)len;
    } else if (t == cJSON_Array || t == cJSON_Object) {
        uint32_t count = 0;
        for (const cJSON *m = c->child; m; m = m->next, count++)
            if (count == UINT32_MAX ||
                !doc_from(d, m, t == cJSON_Object ? (m->string ? m->string : "") : NULL))
                return false;
        if (d->nv - i > UINT32_MAX)
            return false;
        d->v[i].span = (uint32_t)(d->nv - i);
        d->v[i].count = count;
    }
    return true;
}

const jsonl_val *jsonl_doc_from_cjson(jsonl_doc *d, const cJSON *c)
{
    d->nv = 0;
    return c && doc_from(d, c, NULL) ? d->v : NULL;
}

/* ---- finding a member in text jsonl_parse took ---- */

static const char *skip_ws(const char *s, const char *end)
{
    while (s < end && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r'))
        s++;
    return s;
}

/* The byte after the value at s, or NULL (nesting is as deep as the parse that took the text let it be). */
static const char *skip_value(const char *s, const char *end)
{
    if (s >= end)
        return NULL;
    if (*s == '"')
        return jsonl_lex_string(s, end, NULL, 0, NULL);
    if (*s == 't' || *s == 'f' || *s == 'n')
        return jsonl_lex_literal(s, end, NULL);
    if (*s != '{' && *s != '[')
        return jsonl_lex_number(s, end, NULL, NULL);
    bool object = *s == '{';
    char close = object ? '}' : ']';
    s = skip_ws(s + 1, end);
    if (s < end && *s == close)
        return s + 1;
    for (;;) {
        if (object) {
            if (!(s = jsonl_lex_string(s, end, NULL, 0, NULL)))
                return NULL;
            s = skip_ws(s, end);
            if (s >= end || *s != ':')
                return NULL;
            s = skip_ws(s + 1, end);
        }
        if (!(s = skip_value(s, end)))
            return NULL;
        s = skip_ws(s, end);
        if (s < end && *s == ',') {
            s = skip_ws(s + 1, end);
            continue;
        }
        return s < end && *s == close ? s + 1 : NULL;
    }
}

const char *jsonl_member_at(const char *s, const char *end, const char *key, const char **key_at)
{
    char k[JSONL_PATH_MAX];
    if (!s || strlen(key) + 1 >= sizeof(k))
        return NULL;
    s = skip_ws(s, end);
    if (s >= end || *s != '{')
        return NULL;
    s = skip_ws(s + 1, end);
    while (s < end && *s == '"') {
        const char *at = s;
        if (!(s = jsonl_lex_string(s, end, k, sizeof(k), NULL)))
            return NULL;
        s = skip_ws(s, end);
        if (s >= end || *s != ':')
            return NULL;
        s = skip_ws(s + 1, end);
        if (strcmp(k, key) == 0) { /* a longer key cut to fit k cannot equal key, which is shorter */
            if (key_at)
                *key_at = at;
            return s;
        }
        if (!(s = skip_value(s, end)))
            return NULL;
        s = skip_ws(s, end);
        if (s < end && *s == ',')
            s = skip_ws(s + 1, end);
    }
    return NULL;
}
