/* json_span.c - jspan_: one JSON object's members as spans of its text, compared without a tree. */
/* Values are passed over by jscan_pass: the texts were checked before (by the stream that read them). */
#include "json_span.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../model/base/json_reader.h"
#include "json_scan.h"

static bool is_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The items of the array at s's cursor, each handed to each (the items' spans found once, not passed over
 * first); false when it is not an array or each refuses an item. */
static bool each_item(jscan *s, jspan_each_fn each, void *arg)
{
    if (!jscan_eat(s, '['))
        return false;
    if (jscan_eat(s, ']'))
        return true;
    for (;;) {
        jscan_peek(s);
        size_t used = 0;
        if (!each(s->p, (size_t)(s->end - s->p), &used, arg))
            return false;
        s->p += used;
        if (jscan_eat(s, ']'))
            return true;
        if (!jscan_eat(s, ','))
            return false;
    }
}

#define KLEN_HELD 32 /* the wanted keys whose lengths a call keeps */

/* jspan_members of the object at the start of text[0..len), which may go on after it (*used: up to its
 * closing brace); with each, the first member named keys[each_key] walked by each_item. */
static bool members(const char *text, size_t len, const char *const *keys, int nkeys, jspan *out, size_t *used,
                    int each_key, jspan_each_fn each, void *arg)
{
    size_t kls[KLEN_HELD]; /* the keys' lengths, SIZE_MAX until needed */
    for (int k = 0; k < nkeys; k++) {
        out[k] = (jspan){NULL, 0};
        if (k < KLEN_HELD)
            kls[k] = SIZE_MAX;
    }
    jscan s;
    jscan_init(&s, text, len);
    if (!jscan_eat(&s, '{'))
        return false;
    int next = 0; /* where the search for a key starts: after the last one found (members come in order) */
    bool closed = jscan_eat(&s, '}');
    while (!closed) {
        /* the key in place: a string without escapes */
        if (!jscan_eat(&s, '"'))
            return false;
        const char *key = s.p, *q = jsonl_plain_end(key, s.end);
        if (q == s.end || *q == '\\')
            return false;
        if (*q != '"') /* a control or non-ASCII byte: the quote further on, no escape before it */
            if (!(q = memchr(q, '"', (size_t)(s.end - q))) || memchr(key, '\\', (size_t)(q - key)))
                return false;
        size_t klen = (size_t)(q - key);
        s.p = q + 1;
        if (!jscan_eat(&s, ':'))
            return false;
        jscan_peek(&s);
        const char *v = s.p;
        int found = -1;
        for (int j = 0; j < nkeys; j++) {
            int k = next + j < nkeys ? next + j : next + j - nkeys;
            if (out[k].p || keys[k][0] != key[0])
                continue;
            /* the wanted key's length first (taken once a call), then its bytes: text that was not checked
             * may hold a NUL inside a key, which then matches nothing */
            size_t wl = k < KLEN_HELD ? kls[k] : strlen(keys[k]);
            if (k < KLEN_HELD && wl == SIZE_MAX)
                wl = kls[k] = strlen(keys[k]);
            if (wl == klen && jspan_same_bytes(keys[k], key, klen)) {
                found = k;
                break;
            }
        }
        if (!((found >= 0 && found == each_key && each) ? each_item(&s, each, arg) : jscan_pass(&s)))
            return false;
        if (found >= 0) {
            out[found] = (jspan){v, (size_t)(s.p - v)};
            next = found + 1 < nkeys ? found + 1 : 0;
        }
        closed = jscan_eat(&s, '}');
        if (!closed && !jscan_eat(&s, ','))
            return false;
    }
    if (used)
        *used = (size_t)(s.p - text);
    return true;
}

bool jspan_members(const char *text, size_t len, const char *const *keys, int nkeys, jspan *out)
{
    return members(text, len, keys, nkeys, out, NULL, -1, NULL, NULL);
}

bool jspan_members_each(const char *text, size_t len, const char *const *keys, int nkeys, jspan *out,
                        int each_key, jspan_each_fn each, void *arg)
{
    return members(text, len, keys, nkeys, out, NULL, each_key, each, arg);
}

bool jspan_items(jspan arr, jspan_each_fn each, void *arg)
{
    if (!arr.p)
        return false;
    jscan s;
    jscan_init(&s, arr.p, arr.n);
    return each_item(&s, each, arg);
}

bool jspan_object_at(const char *text, size_t len, const char *const *keys, int nkeys, jspan *out, size_t *used)
{
    return members(text, len, keys, nkeys, out, used, -1, NULL, NULL);
}

bool jspan_same_text(jspan a, jspan b)
{
    if (!a.p || !b.p)
        return a.p == b.p;
    size_t i = 0, j = 0;
    bool in_str = false;
    for (;;) {
        if (!in_str) {
            while (i < a.n && is_ws(a.p[i]))
                i++;
            while (j < b.n && is_ws(b.p[j]))
                j++;
        }
        if (i == a.n || j == b.n)
            return i == a.n && j == b.n;
        char c = a.p[i];
        if (c != b.p[j] || c == '\\') /* an escape: the same value may be written two ways */
            return false;
        if (c == '"')
            in_str = !in_str;
        i++;
        j++;
    }
}

bool jspan_compact(jspan v, char *buf, size_t n)
{
    if (!v.p || n == 0)
        return false;
    size_t k = 0;
    for (size_t i = 0; i < v.n;) {
        char c = v.p[i];
        if (is_ws(c)) {
            i++;
            continue;
        }
        size_t end = i + 1;
        if (c == '"') {
            while (end < v.n && v.p[end] != '"' && v.p[end] != '\\')
                end++;
            if (end >= v.n || v.p[end] != '"')
                return false;
            end++;
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            size_t d = c == '-' ? i + 1 : i;
            end = d;
            while (end < v.n && v.p[end] >= '0' && v.p[end] <= '9')
                end++;
            /* cJSON prints a fraction or exponent its own way, beyond int its own way, and -0 as 0 */
            if (end == d || end - d > 9 || (end < v.n && (v.p[end] == '.' || v.p[end] == 'e' || v.p[end] == 'E')) ||
                (c == '-' && end - d == 1 && v.p[d] == '0'))
                return false;
        } else if (c >= 'a' && c <= 'z') {
            while (end < v.n && v.p[end] >= 'a' && v.p[end] <= 'z')
                end++;
        }
        if (k + (end - i) >= n)
            return false;
        memcpy(buf + k, v.p + i, end - i);
        k += end - i;
        i = end;
    }
    buf[k] = '\0';
    return k > 0;
}

bool jspan_string(jspan v, char *buf, size_t n)
{
    if (!v.p || v.n < 2 || v.p[0] != '"' || v.p[v.n - 1] != '"' || v.n - 2 >= n ||
        memchr(v.p + 1, '\\', v.n - 2))
        return false;
    memcpy(buf, v.p + 1, v.n - 2);
    buf[v.n - 2] = '\0';
    return true;
}

bool jspan_next(jspan arr, const char **at, jspan *elem)
{
    if (!arr.p || !*at)
        return false;
    jscan s;
    jscan_init(&s, *at, (size_t)(arr.p + arr.n - *at));
    if (*at == arr.p) {
        if (!jscan_eat(&s, '[') || jscan_peek(&s) == ']')
            return false;
    } else if (!jscan_eat(&s, ',')) {
        return false;
    }
    jscan_peek(&s);
    const char *v = s.p;
    if (!jscan_pass(&s))
        return false;
    *elem = (jspan){v, (size_t)(s.p - v)};
    *at = s.p;
    return true;
}

bool jspan_u64_text(const char *s, uint64_t *out)
{
    if (!s[0] || s[0] == '-')
        return false;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (errno || *end)
        return false;
    *out = x;
    return true;
}
