/* jscan.c - a forward JSON scanner: skip values, walk containers, read strings and integers in place. */
#include "jscan.h"

#include <string.h>

/* Nesting deeper than this is refused rather than recursed into. */
#define JSCAN_MAX_DEPTH 256

void jscan_init(jscan *s, const char *text, size_t len)
{
    s->p = s->base = text;
    s->end = text + len;
}

int jscan_peek(jscan *s)
{
    while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
        s->p++;
    return s->p < s->end ? (unsigned char)*s->p : 0;
}

bool jscan_eat(jscan *s, char c)
{
    if (jscan_peek(s) != (unsigned char)c)
        return false;
    s->p++;
    return true;
}

size_t jscan_offset(const jscan *s)
{
    return (size_t)(s->p - s->base);
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

bool jscan_string(jscan *s, char *buf, size_t n)
{
    size_t k = 0;
    if (!jscan_eat(s, '"'))
        return false;
    while (s->p < s->end) {
        int c = (unsigned char)*s->p++;
        if (c == '"') {
            if (n)
                buf[k < n ? k : n - 1] = '\0';
            return true;
        }
        if (c < 0x20)
            return false; /* control characters must be escaped */
        if (c == '\\') {
            if (s->p >= s->end)
                return false;
            c = (unsigned char)*s->p++;
            switch (c) {
            case '"':
            case '\\':
            case '/':
                break;
            case 'b':
                c = '\b';
                break;
            case 'f':
                c = '\f';
                break;
            case 'n':
                c = '\n';
                break;
            case 'r':
                c = '\r';
                break;
            case 't':
                c = '\t';
                break;
            case 'u': {
                int v = 0;
                for (int i = 0; i < 4; i++) {
                    int h = s->p < s->end ? hexval((unsigned char)*s->p++) : -1;
                    if (h < 0)
                        return false;
                    v = v * 16 + h;
                }
                c = v < 0x80 ? v : '?';
                break;
            }
            default:
                return false;
            }
        }
        if (k + 1 < n)
            buf[k++] = (char)c;
    }
    return false;
}

bool jscan_i64(jscan *s, int64_t *v)
{
    jscan_peek(s);
    const char *p = s->p;
    bool neg = false;
    if (p < s->end && *p == '-') {
        neg = true;
        p++;
    }
    if (p >= s->end || *p < '0' || *p > '9')
        return false;
    uint64_t x = 0;
    for (; p < s->end && *p >= '0' && *p <= '9'; p++) {
        uint64_t d = (uint64_t)(*p - '0');
        if (x > (UINT64_MAX - d) / 10)
            return false;
        x = x * 10 + d;
    }
    if (p < s->end && (*p == '.' || *p == 'e' || *p == 'E'))
        return false;
    if (neg ? x > (uint64_t)INT64_MAX + 1 : x > (uint64_t)INT64_MAX)
        return false;
    *v = neg ? (int64_t)(0 - x) : (int64_t)x;
    s->p = p;
    return true;
}

bool jscan_u64(jscan *s, uint64_t *v)
{
    int c = jscan_peek(s);
    if (c == '"') {
        char buf[32];
        const char *save = s->p;
        if (!jscan_string(s, buf, sizeof(buf)) || !buf[0] || strlen(buf) > 20) {
            s->p = save;
            return false;
        }
        uint64_t x = 0;
        for (const char *q = buf; *q; q++) {
            uint64_t d = (uint64_t)(*q - '0');
            if (*q < '0' || *q > '9' || x > (UINT64_MAX - d) / 10) {
                s->p = save;
                return false;
            }
            x = x * 10 + d;
        }
        *v = x;
        return true;
    }
    if (c < '0' || c > '9')
        return false;
    uint64_t x = 0;
    const char *p = s->p;
    for (; p < s->end && *p >= '0' && *p <= '9'; p++) {
        uint64_t d = (uint64_t)(*p - '0');
        if (x > (UINT64_MAX - d) / 10)
            return false;
        x = x * 10 + d;
    }
    if (p < s->end && (*p == '.' || *p == 'e' || *p == 'E'))
        return false;
    *v = x;
    s->p = p;
    return true;
}

/* A number: -? int frac? exp? (the grammar of RFC 8259). */
static bool skip_number(jscan *s)
{
    const char *p = s->p;
    if (p < s->end && *p == '-')
        p++;
    if (p >= s->end || *p < '0' || *p > '9')
        return false;
    while (p < s->end && *p >= '0' && *p <= '9')
        p++;
    if (p < s->end && *p == '.') {
        p++;
        if (p >= s->end || *p < '0' || *p > '9')
            return false;
        while (p < s->end && *p >= '0' && *p <= '9')
            p++;
    }
    if (p < s->end && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < s->end && (*p == '+' || *p == '-'))
            p++;
        if (p >= s->end || *p < '0' || *p > '9')
            return false;
        while (p < s->end && *p >= '0' && *p <= '9')
            p++;
    }
    s->p = p;
    return true;
}

static bool skip_literal(jscan *s, const char *lit)
{
    size_t n = strlen(lit);
    if ((size_t)(s->end - s->p) < n || memcmp(s->p, lit, n) != 0)
        return false;
    s->p += n;
    return true;
}

static bool skip_depth(jscan *s, int depth)
{
    int c = jscan_peek(s);
    if (depth > JSCAN_MAX_DEPTH)
        return false;
    if (c == '"')
        return jscan_string(s, NULL, 0);
    if (c == '{' || c == '[') {
        char close = c == '{' ? '}' : ']';
        s->p++;
        bool first = true;
        int r;
        while ((r = jscan_next(s, close, &first)) == 1) {
            if (c == '{') {
                if (!jscan_string(s, NULL, 0) || !jscan_eat(s, ':'))
                    return false;
            }
            if (!skip_depth(s, depth + 1))
                return false;
        }
        return r == 0;
    }
    if (c == 't')
        return skip_literal(s, "true");
    if (c == 'f')
        return skip_literal(s, "false");
    if (c == 'n')
        return skip_literal(s, "null");
    return skip_number(s);
}

bool jscan_skip(jscan *s)
{
    return skip_depth(s, 0);
}

bool jscan_pass(jscan *s)
{
    int c = jscan_peek(s);
    if (!c)
        return false;
    const char *p = s->p;
    if (c != '[' && c != '{' && c != '"') { /* a number or a literal: up to the next delimiter */
        while (p < s->end && *p != ',' && *p != ']' && *p != '}' && *p != ' ' && *p != '\t' && *p != '\n' &&
               *p != '\r')
            p++;
        s->p = p;
        return true;
    }
    long depth = 0;
    do {
        char ch = *p++;
        if (ch == '"') {
            while (p < s->end && *p != '"')
                p += *p == '\\' && p + 1 < s->end ? 2 : 1;
            if (p >= s->end)
                return false;
            p++;
        } else if (ch == '[' || ch == '{') {
            depth++;
        } else if (ch == ']' || ch == '}') {
            depth--;
        }
    } while (depth > 0 && p < s->end);
    if (depth > 0)
        return false;
    s->p = p;
    return true;
}

int jscan_next(jscan *s, char close, bool *first)
{
    if (jscan_eat(s, close))
        return 0;
    if (*first) {
        *first = false;
        return jscan_peek(s) ? 1 : -1;
    }
    return jscan_eat(s, ',') ? 1 : -1;
}

int jscan_member(jscan *s, bool *first, char *key, size_t n)
{
    int r = jscan_next(s, '}', first);
    if (r != 1)
        return r;
    if (!jscan_string(s, key, n) || !jscan_eat(s, ':'))
        return -1;
    return 1;
}
