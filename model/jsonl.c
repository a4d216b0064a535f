/* jsonl.c - strict recursive-descent JSON into cJSON nodes: integers without strtod, no locale lookups,
 * duplicate keys, bad UTF-8 and out-of-range numbers refused. */
#include "jsonl.h"

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
} level;

typedef struct parser {
    const char *p, *end;       /* next byte, end of input */
    const char *err;           /* first offending byte once failed */
    const char *what;          /* why, when not plain bad syntax */
    int depth;                 /* open containers */
    level at[MAX_DEPTH + 2];   /* at[d]: the member of the container at depth d being parsed */
    char path[JSONL_PATH_MAX]; /* at[] as text, filled when `what` is set */
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

static void ws(parser *ps)
{
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
        ps->p++;
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

/* A string starting at the opening quote; returns a NUL-terminated copy. */
static char *string(parser *ps)
{
    const char *s = ++ps->p;
    bool plain = true;
    unsigned char high = 0; /* any byte >= 0x80: check the UTF-8 */
    while (ps->p < ps->end && *ps->p != '"') {
        unsigned char c = (unsigned char)*ps->p;
        if (c < 0x20) {
            ps->err = ps->p;
            return NULL;
        }
        high |= c;
        if (c == '\\') {
            plain = false;
            ps->p++;
        }
        ps->p++;
    }
    if (ps->p >= ps->end) {
        ps->err = ps->p;
        return NULL;
    }
    size_t len = (size_t)(ps->p - s), bad;
    if ((high & 0x80) && !utf8_ok((const unsigned char *)s, len, &bad)) {
        refuse(ps, s + bad, "invalid UTF-8 in a string");
        return NULL;
    }
    char *out = cJSON_malloc(len + 1);
    if (!out) {
        ps->err = s;
        ps->what = JSONL_OOM;
        return NULL;
    }
    if (plain) {
        memcpy(out, s, len);
        out[len] = '\0';
        ps->p++;
        return out;
    }
    char *o = out;
    for (const char *q = s; q < ps->p; q++) {
        if (*q != '\\') {
            *o++ = *q;
            continue;
        }
        q++;
        switch (*q) {
        case '"':
        case '\\':
        case '/':
            *o++ = *q;
            break;
        case 'b':
            *o++ = '\b';
            break;
        case 'f':
            *o++ = '\f';
            break;
        case 'n':
            *o++ = '\n';
            break;
        case 'r':
            *o++ = '\r';
            break;
        case 't':
            *o++ = '\t';
            break;
        case 'u': {
            unsigned cp, lo;
            if (q + 4 >= ps->p + 1 || hex4(q + 1, &cp) != 0) {
                ps->err = q;
                cJSON_free(out);
                return NULL;
            }
            q += 4;
            if (cp >= 0xD800 && cp <= 0xDBFF) { /* a surrogate pair */
                if (q + 6 >= ps->p + 1 || q[1] != '\\' || q[2] != 'u' || hex4(q + 3, &lo) != 0 ||
                    lo < 0xDC00 || lo > 0xDFFF) {
                    ps->err = q;
                    cJSON_free(out);
                    return NULL;
                }
                q += 6;
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                refuse(ps, q - 5, "a lone surrogate \\u escape is not a character");
                cJSON_free(out);
                return NULL;
            } else if (cp == 0) {
                refuse(ps, q - 5, "\\u0000 would cut the string short");
                cJSON_free(out);
                return NULL;
            }
            if (cp < 0x80) {
                *o++ = (char)cp;
            } else if (cp < 0x800) {
                *o++ = (char)(0xC0 | (cp >> 6));
                *o++ = (char)(0x80 | (cp & 0x3F));
            } else if (cp < 0x10000) {
                *o++ = (char)(0xE0 | (cp >> 12));
                *o++ = (char)(0x80 | ((cp >> 6) & 0x3F));
                *o++ = (char)(0x80 | (cp & 0x3F));
            } else {
                *o++ = (char)(0xF0 | (cp >> 18));
                *o++ = (char)(0x80 | ((cp >> 12) & 0x3F));
                *o++ = (char)(0x80 | ((cp >> 6) & 0x3F));
                *o++ = (char)(0x80 | (cp & 0x3F));
            }
            break;
        }
        default:
            ps->err = q;
            cJSON_free(out);
            return NULL;
        }
    }
    *o = '\0';
    ps->p++;
    return out;
}

static bool digit(char c)
{
    return c >= '0' && c <= '9';
}

static cJSON *number(parser *ps)
{
    const char *s = ps->p;
    bool neg = false, frac = false;
    if (*ps->p == '-') {
        neg = true;
        ps->p++;
    }
    if (ps->p >= ps->end || !digit(*ps->p)) {
        ps->err = ps->p;
        return NULL;
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
            return NULL;
        }
        while (ps->p < ps->end && digit(*ps->p))
            ps->p++;
    }
    if (ps->p < ps->end && (*ps->p == 'e' || *ps->p == 'E')) {
        frac = true;
        ps->p++;
        if (ps->p < ps->end && (*ps->p == '+' || *ps->p == '-'))
            ps->p++;
        if (ps->p >= ps->end || !digit(*ps->p)) {
            ps->err = ps->p;
            return NULL;
        }
        while (ps->p < ps->end && digit(*ps->p))
            ps->p++;
    }
    cJSON *n = node(ps, cJSON_Number);
    if (!n)
        return NULL;
    double d;
    if (!frac && ndig <= 15) { /* exact in a double: no strtod */
        d = (double)ip;
        if (neg)
            d = -d;
    } else {
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
                cJSON_free(n);
                return NULL;
            }
            memcpy(big, s, len);
            big[len] = '\0';
            d = strtod(big, NULL);
            free(big);
        }
    }
    if (!isfinite(d)) { /* 1e999: strtod's HUGE_VAL */
        refuse(ps, s, "number out of range");
        cJSON_free(n);
        return NULL;
    }
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
