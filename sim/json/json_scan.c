/* json_scan.c - jscan_: a forward JSON scanner: skips values, walks containers, reads in place. */
/* Strings, numbers and literals are model/base/json_reader.c's lexing (jsonl_lex_*): a text the scanner takes is one
 * jsonl_parse takes token for token, so a report reads nothing the tree readers would refuse. */
#include "json_scan.h"

#include <string.h>

#include "../../model/base/json_reader.h"

/* Nesting deeper than this is refused rather than recursed into. */
#define JSCAN_MAX_DEPTH 256

void jscan_init(jscan *s, const char *text, size_t len)
{
    s->p = s->base = text;
    s->end = text + len;
    s->bad = NULL;
    s->why = NULL;
}

/* Records the lexer's refusal e; returns false. */
static bool refused(jscan *s, const jsonl_error *e)
{
    s->bad = e->at;
    s->why = e->what;
    return false;
}

void jscan_error(const jscan *s, jsonl_error *e)
{
    e->at = s->bad ? s->bad : s->p;
    e->what = s->bad ? s->why : NULL;
    e->path[0] = '\0';
}

size_t jscan_offset(const jscan *s)
{
    return (size_t)(s->p - s->base);
}

bool jscan_string(jscan *s, char *buf, size_t n)
{
    if (jscan_peek(s) != '"')
        return false;
    jsonl_error e;
    const char *after = jsonl_lex_string(s->p, s->end, buf, n, &e);
    if (!after)
        return refused(s, &e);
    s->p = after;
    return true;
}

/* The digits of the integer number at s's cursor (checked by the lexer: no fraction or exponent) into *x,
 * *neg its sign; the cursor is left alone. Returns the byte after it, or NULL. */
static const char *integer(jscan *s, uint64_t *x, bool *neg)
{
    jscan_peek(s);
    jsonl_error e;
    const char *p = s->p, *after = p < s->end ? jsonl_lex_number(p, s->end, NULL, &e) : NULL;
    if (!after)
        return NULL;
    *neg = *p == '-';
    p += *neg;
    uint64_t v = 0;
    for (; p < after; p++) {
        if (*p < '0' || *p > '9')
            return NULL; /* a fraction or an exponent */
        uint64_t d = (uint64_t)(*p - '0');
        if (v > (UINT64_MAX - d) / 10)
            return NULL;
        v = v * 10 + d;
    }
    *x = v;
    return after;
}

bool jscan_i64(jscan *s, int64_t *v)
{
    uint64_t x;
    bool neg;
    const char *after = integer(s, &x, &neg);
    if (!after || (neg ? x > (uint64_t)INT64_MAX + 1 : x > (uint64_t)INT64_MAX))
        return false;
    *v = neg ? (int64_t)(0 - x) : (int64_t)x;
    s->p = after;
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
    uint64_t x;
    bool neg;
    const char *after = c >= '0' && c <= '9' ? integer(s, &x, &neg) : NULL;
    if (!after)
        return false;
    *v = x;
    s->p = after;
    return true;
}

/* A number or a literal, by the lexer's rules. */
static bool skip_token(jscan *s, int c)
{
    jsonl_error e;
    const char *after = c == 't' || c == 'f' || c == 'n' ? jsonl_lex_literal(s->p, s->end, &e)
                                                         : jsonl_lex_number(s->p, s->end, NULL, &e);
    if (!after)
        return refused(s, &e);
    s->p = after;
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
    if (!c)
        return false;
    return skip_token(s, c);
}

bool jscan_skip(jscan *s)
{
    return skip_depth(s, 0);
}

bool jscan_pass_slow(jscan *s)
{
    int c = jscan_peek(s);
    if (!c || (c != '[' && c != '{' && c != '"'))
        return jscan_pass(s); /* a number or a literal: the inline way */
    const char *p = s->p;
    long depth = 0;
    do {
        char ch = *p++;
        if (ch == '"') {
            for (;;) { /* to the closing quote, an escape's two bytes at a time */
                p = jsonl_plain_end(p, s->end);
                if (p >= s->end || *p == '"')
                    break;
                p += *p == '\\' && p + 1 < s->end ? 2 : 1;
            }
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
