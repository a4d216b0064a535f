/* import_lex.c - ilex_: a capture's JSON read in one pass through a bounded window, plain text only. */
#include "import_lex.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../model/base/json_reader.h"
#include "../../model/base/userdir.h"
#include "../json/json_stream.h"

#define NUMBER_MAX 63 /* the stream's longest number (json_stream.c) */

/* Each byte's classes: 1 white space, 2 a plain string byte (printable ASCII but '"' and '\\'), 4 a digit,
 * 8 a byte a plain integer cannot end before (a digit, '.', 'e', 'E', the NUL after the window's text). */
const unsigned char ilex_class[256] = {
    8,  0,  0,  0,  0,  0,  0,  0,  0,  1,  1, 0, 0, 1, 0,  0, /* 0x00 */
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 0, 0, 0, 0,  0, /* 0x10 */
    3,  2,  0,  2,  2,  2,  2,  2,  2,  2,  2, 2, 2, 2, 10, 2, /* 0x20 */
    14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 2, 2, 2, 2, 2,  2, /* 0x30 */
    2,  2,  2,  2,  2,  10, 2,  2,  2,  2,  2, 2, 2, 2, 2,  2, /* 0x40 */
    2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2, 2, 0, 2, 2,  2, /* 0x50 */
    2,  2,  2,  2,  2,  10, 2,  2,  2,  2,  2, 2, 2, 2, 2,  2, /* 0x60 */
    2,  2,  2,  2,  2,  2,  2,  2,  2,  2,  2, 2, 2, 2, 2,  0, /* 0x70 */
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 0, 0, 0, 0,  0, /* 0x80 */
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 0, 0, 0, 0,  0, /* 0x90 */
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 0, 0, 0, 0,  0, /* 0xA0 */
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 0, 0, 0, 0,  0, /* 0xB0 */
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 0, 0, 0, 0,  0, /* 0xC0 */
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 0, 0, 0, 0,  0, /* 0xD0 */
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 0, 0, 0, 0,  0, /* 0xE0 */
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 0, 0, 0, 0,  0, /* 0xF0 */
};

int ilex_open(ilex *lx, const char *path)
{
    memset(lx, 0, sizeof(*lx));
    /* as jstream_open: a regular file only (a FIFO could block the open, a device never end) */
    lx->fd = userdir_open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC, 0);
    if (lx->fd < 0)
        return -1;
    struct stat st;
    int fl = fcntl(lx->fd, F_GETFL);
    lx->cap = jstream_window;
    if (fstat(lx->fd, &st) != 0 || !S_ISREG(st.st_mode) || fl < 0 ||
        fcntl(lx->fd, F_SETFL, fl & ~O_NONBLOCK) != 0 || !(lx->buf = calloc(1, lx->cap + 1 + ILEX_SLACK))) {
        close(lx->fd);
        lx->fd = -1;
        return -1;
    }
    lx->buf[0] = '\0';
    lx->peak = lx->cap;
    return 0;
}

void ilex_text(ilex *lx, const char *text, size_t n)
{
    memset(lx, 0, sizeof(*lx));
    lx->fd = -1;
    lx->buf = (char *)text; /* read only: nothing writes a text's window */
    lx->cap = lx->len = n;
    lx->eof = true;
}

void ilex_close(ilex *lx)
{
    if (lx->fd >= 0) {
        close(lx->fd);
        free(lx->buf);
    }
    lx->fd = -1;
    lx->buf = NULL;
    lx->len = lx->pos = 0;
}

bool ilex_refill(ilex *lx)
{
    if (lx->fd < 0 || lx->eof || lx->bad)
        return false;
    if (lx->pos > 0) { /* drop what was read */
        memmove(lx->buf, lx->buf + lx->pos, lx->len - lx->pos);
        lx->base += lx->pos;
        lx->len -= lx->pos;
        lx->pos = 0;
    }
    if (lx->len == lx->cap) { /* one value fills the window: a larger one */
        char *b = lx->cap < SIZE_MAX / 4 ? realloc(lx->buf, 2 * lx->cap + 1 + ILEX_SLACK) : NULL;
        if (!b) {
            lx->bad = true;
            return false;
        }
        memset(b + lx->cap + 1 + ILEX_SLACK, 0, lx->cap); /* the slack read past the text is never garbage */
        lx->buf = b;
        lx->cap *= 2;
        if (lx->cap > lx->peak)
            lx->peak = lx->cap;
    }
    for (;;) {
        ssize_t n = pread(lx->fd, lx->buf + lx->len, lx->cap - lx->len, (off_t)(lx->base + lx->len));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            lx->bad = true;
            return false;
        }
        if (n == 0)
            lx->eof = true;
        lx->len += (size_t)n;
        lx->buf[lx->len] = '\0';
        return true;
    }
}

int ilex_peek(ilex *lx)
{
    for (;;) {
        const char *p = ilex_ws(lx->buf + lx->pos);
        lx->pos = (size_t)(p - lx->buf);
        if (*p)
            return (unsigned char)*p;
        if (p < lx->buf + lx->len) { /* a NUL in the text */
            lx->bad = true;
            return 0;
        }
        if (!ilex_refill(lx))
            return 0;
    }
}

bool ilex_eat(ilex *lx, char c)
{
    if (ilex_peek(lx) != (unsigned char)c)
        return false;
    lx->pos++;
    return true;
}

int ilex_next(ilex *lx, bool *first)
{
    if (ilex_eat(lx, ']'))
        return 0;
    if (*first) {
        *first = false;
        return ilex_peek(lx) ? 1 : -1;
    }
    return ilex_eat(lx, ',') ? 1 : -1;
}

bool ilex_value(ilex *lx, ilex_fn fn, void *ctx)
{
    if (!ilex_peek(lx))
        return false;
    for (;;) {
        const char *after;
        int r = fn(ctx, lx, lx->buf + lx->pos, &after);
        if (r == ILEX_OK) {
            lx->pos = (size_t)(after - lx->buf);
            return true;
        }
        if (r == ILEX_BAD || !ilex_refill(lx))
            return false;
    }
}

/* A key, its text copied out of the window. */
typedef struct key_out {
    char *key;
    size_t n;
} key_out;

static int read_key(void *ctx, const ilex *lx, const char *p, const char **after)
{
    key_out *k = ctx;
    if (*p != '"')
        return ilex_stop(lx, p);
    const char *q = ilex_plain(p + 1);
    if (*q != '"')
        return ilex_stop(lx, q);
    size_t n = (size_t)(q - p - 1);
    if (n >= k->n)
        return ILEX_BAD;
    memcpy(k->key, p + 1, n);
    k->key[n] = '\0';
    *after = q + 1;
    return ILEX_OK;
}

int ilex_member(ilex *lx, bool *first, char *key, size_t n)
{
    if (ilex_eat(lx, '}'))
        return 0;
    if (*first)
        *first = false;
    else if (!ilex_eat(lx, ','))
        return -1;
    key_out k = {key, n};
    return ilex_value(lx, read_key, &k) && ilex_eat(lx, ':') ? 1 : -1;
}

int ilex_number_slow(const ilex *lx, const char *p, const char **after, bool *is_int, int64_t *v)
{
    const char *end = lx->buf + lx->len;
    jsonl_error e;
    const char *q = jsonl_lex_number(p, end, NULL, &e);
    if (!q)
        return !lx->eof && jsonl_lex_cut(p, end, &e) ? ILEX_MORE : ILEX_BAD;
    if (q == end && !lx->eof)
        return ILEX_MORE; /* more digits may follow */
    if (q - p > NUMBER_MAX)
        return ILEX_BAD;
    /* an integer of at most 15 digits here only when the text ended right after it */
    bool neg = *p == '-';
    size_t nd = (size_t)(q - p) - neg;
    bool digits = nd >= 1 && nd <= 15;
    uint64_t x = 0;
    for (const char *d = p + neg; digits && d < q; d++) {
        digits = (unsigned)(*d - '0') < 10u;
        x = x * 10 + (unsigned)(*d - '0');
    }
    *is_int = digits && !(neg && x == 0);
    if (*is_int)
        *v = neg ? -(int64_t)x : (int64_t)x;
    *after = q;
    return ILEX_OK;
}

int ilex_literal(const ilex *lx, const char *p, const char **after)
{
    const char *w = *p == 't' ? "true" : *p == 'f' ? "false" : "null";
    size_t i = 0;
    for (; w[i]; i++)
        if (p[i] != w[i])
            return ilex_stop(lx, p + i);
    *after = p + i;
    return ILEX_OK;
}

static uint32_t key_hash(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

bool ilex_seen_other(ilex_seen *s, const char *key, size_t n)
{
    if (s->nother + __builtin_popcountll(s->known) >= ILEX_MEMBERS)
        return false;
    uint32_t h = key_hash(key, n);
    for (int i = 0; i < s->nother; i++)
        if (s->hash[i] == h && s->klen[i] == n && memcmp(s->key[i], key, n) == 0)
            return false;
    s->hash[s->nother] = h;
    s->key[s->nother] = key;
    s->klen[s->nother++] = n;
    return true;
}

void ilex_keys_init(ilex_keys *k, const char *const *names, int n)
{
    memset(k, 0, sizeof(*k));
    k->names = names;
    k->n = n;
    memset(k->slot, -1, sizeof(k->slot));
    memset(k->next, -1, sizeof(k->next));
    for (int i = 0; i < n; i++) {
        size_t len = strlen(names[i]);
        k->len[i] = (unsigned char)len;
        unsigned h =
            ((unsigned)len * 7u + (unsigned char)names[i][0] * 3u + (unsigned char)names[i][len - 1]) & 127u;
        while (k->slot[h] >= 0)
            h = (h + 1) & 127u;
        k->slot[h] = (signed char)i;
        unsigned char text[32] = {0}, mask[32] = {0};
        memcpy(text, names[i], len);
        text[len] = '"';
        memset(mask, 0xff, len + 1);
        memcpy(k->word[i], text, sizeof(text));
        memcpy(k->mask[i], mask, sizeof(mask));
    }
}

static int skip_at(const ilex *lx, const char *p, const char **after, int depth)
{
    char c = *p;
    if (c == '"') {
        const char *q = ilex_plain(p + 1);
        if (*q != '"')
            return ilex_stop(lx, q);
        *after = q + 1;
        return ILEX_OK;
    }
    if (c == '-' || (unsigned)(c - '0') < 10u) {
        bool is_int;
        int64_t v;
        return ilex_number(lx, p, after, &is_int, &v);
    }
    if (c == 't' || c == 'f' || c == 'n')
        return ilex_literal(lx, p, after);
    if (c != '[' && c != '{')
        return ilex_stop(lx, p);
    if (depth >= ILEX_DEPTH)
        return ILEX_BAD;
    char close = c == '[' ? ']' : '}';
    p = ilex_ws(p + 1);
    if (*p == close) {
        *after = p + 1;
        return ILEX_OK;
    }
    ilex_seen seen;
    ilex_seen_init(&seen);
    for (;;) {
        int r;
        if (c == '{') {
            if (*p != '"')
                return ilex_stop(lx, p);
            const char *k = p + 1, *q = ilex_plain(k);
            if (*q != '"')
                return ilex_stop(lx, q);
            if (!ilex_seen_other(&seen, k, (size_t)(q - k)))
                return ILEX_BAD;
            p = ilex_ws(q + 1);
            if (*p != ':')
                return ilex_stop(lx, p);
            p = ilex_ws(p + 1);
        }
        if ((r = skip_at(lx, p, &p, depth + 1)) != ILEX_OK)
            return r;
        p = ilex_ws(p);
        if (*p == ',') {
            p = ilex_ws(p + 1);
            continue;
        }
        if (*p == close) {
            *after = p + 1;
            return ILEX_OK;
        }
        return ilex_stop(lx, p);
    }
}

int ilex_skip(const ilex *lx, const char *p, const char **after)
{
    return skip_at(lx, p, after, 0);
}

static bool skip_stream_at(ilex *lx, int depth)
{
    int c = ilex_peek(lx);
    if (!c || depth >= ILEX_DEPTH)
        return false;
    for (;;) {
        const char *after;
        int r = skip_at(lx, lx->buf + lx->pos, &after, depth);
        if (r == ILEX_OK) {
            lx->pos = (size_t)(after - lx->buf);
            return true;
        }
        if (r == ILEX_BAD)
            return false;
        if ((c == '[' || c == '{') && lx->len - lx->pos >= lx->cap / 2)
            break; /* a large container: member by member */
        if (!ilex_refill(lx))
            return false;
    }
    lx->pos++;
    bool first = true;
    int r;
    if (c == '[') {
        while ((r = ilex_next(lx, &first)) == 1)
            if (!skip_stream_at(lx, depth + 1))
                return false;
        return r == 0;
    }
    jstream_keys seen = {.n = 0};
    char key[64];
    while ((r = ilex_member(lx, &first, key, sizeof(key))) == 1)
        if (!jstream_new_key(&seen, key) || !skip_stream_at(lx, depth + 1))
            return false;
    return r == 0;
}

bool ilex_skip_stream(ilex *lx)
{
    return skip_stream_at(lx, 0);
}
