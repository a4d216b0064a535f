/* json_stream.c - jstream_: a forward JSON reader of a file through a bounded window. */
/* Strict checks, one value at a time. */
#include "json_stream.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../model/base/json_reader.h"
#include "../../model/base/userdir.h"
#include "json_scan.h"

#define NUMBER_MAX 63 /* cJSON 1.7.15 reads a number through a 64-byte buffer */
#define KEYS_MAX 48   /* members of one object checked for repeats; an object with more is refused */

/* What a check of the text in the window found. */
enum { CHK_BAD, CHK_OK, CHK_MORE /* the text ran out before the value ended */ };

size_t jstream_window = JSTREAM_WINDOW;

int jstream_open(jstream *js, const char *path)
{
    memset(js, 0, sizeof(*js));
    /* only a regular file: a FIFO could block the open, a device never end (the caller's whole-file
     * reading then says which) */
    js->fd = userdir_open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC, 0); /* no link below a named folder */
    if (js->fd < 0)
        return -1;
    struct stat st;
    int fl = fcntl(js->fd, F_GETFL);
    if (fstat(js->fd, &st) != 0 || !S_ISREG(st.st_mode) || fl < 0 || fcntl(js->fd, F_SETFL, fl & ~O_NONBLOCK) != 0) {
        close(js->fd);
        js->fd = -1;
        errno = EINVAL;
        return -1;
    }
    return 0;
}

void jstream_close(jstream *js)
{
    if (js->fd > 0)
        close(js->fd);
    free(js->buf);
    js->fd = -1;
    js->buf = NULL;
    js->cap = js->len = js->pos = 0;
}

void jstream_seek(jstream *js, uint64_t off)
{
    if (off >= js->base && off <= js->base + js->len) {
        js->pos = (size_t)(off - js->base);
        return;
    }
    js->base = off;
    js->len = js->pos = 0;
    js->eof = false;
}

uint64_t jstream_tell(const jstream *js)
{
    return js->base + js->pos;
}

/* Makes buf[pos, pos + need) held, or everything up to the end of the file. False (js->bad) on a failed
 * read or allocation. */
static bool fill(jstream *js, size_t need)
{
    if (js->pos + need <= js->len || js->eof)
        return true;
    if (js->pos > 0) { /* drop what was read */
        memmove(js->buf, js->buf + js->pos, js->len - js->pos);
        js->base += js->pos;
        js->len -= js->pos;
        js->pos = 0;
    }
    size_t want = need > jstream_window ? need : jstream_window;
    if (want > js->cap) {
        size_t cap = js->cap ? js->cap : jstream_window;
        while (cap < want) {
            if (cap > SIZE_MAX / 2) {
                js->err = ENOMEM;
                js->bad = true;
                return false;
            }
            cap *= 2;
        }
        char *b = realloc(js->buf, cap);
        if (!b) {
            js->err = ENOMEM;
            js->bad = true;
            return false;
        }
        js->buf = b;
        js->cap = cap;
        if (cap > js->peak_cap)
            js->peak_cap = cap;
    }
    while (js->len < need || js->len < js->cap) {
        ssize_t n = pread(js->fd, js->buf + js->len, js->cap - js->len, (off_t)(js->base + js->len));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            js->err = errno;
            js->bad = true;
            return false;
        }
        if (n == 0) {
            js->eof = true;
            break;
        }
        js->len += (size_t)n;
        if (js->len >= need)
            break;
    }
    return true;
}

static bool is_ws(int c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

int jstream_peek(jstream *js)
{
    for (;;) {
        if (js->bad || !fill(js, 1))
            return 0;
        if (js->pos >= js->len)
            return 0;
        /* the white space held, without a fill per byte (a pretty-printed file has lines of it) */
        for (; js->pos < js->len; js->pos++) {
            int c = (unsigned char)js->buf[js->pos];
            if (c == 0) { /* no JSON text holds a NUL: it is not the end (0), so the text is bad */
                js->bad = true;
                return 0;
            }
            if (!is_ws(c))
                return c;
        }
    }
}

bool jstream_eat(jstream *js, char c)
{
    if (jstream_peek(js) != (unsigned char)c)
        return false;
    js->pos++;
    return true;
}

/* ---- the checker: one value in text[p, end) ---- */

typedef struct chk {
    const char *p, *end; /* cursor, end of the text held */
    bool eof;            /* end is the end of the file */
    jstream_mspan *m;    /* NULL, or where the members of a value that is an object go */
    size_t mmax, mn;     /* room in m, members seen */
    bool item2;          /* the value about to be checked is an object item of an array member */
} chk;

/* CHK_MORE when the text ran out and more may follow, else CHK_BAD. */
static int short_of(const chk *c)
{
    return c->eof ? CHK_BAD : CHK_MORE;
}

/* The tokens are json_reader's lexing (jsonl_lex_*), so that the stream takes a string, number or literal
 * exactly when every other reader does. A token the window's end cuts off is not refused: the lexer says
 * so (jsonl_lex_cut), the check answers CHK_MORE, and the caller reads more of the file into the window and
 * checks the value again from its start, until the token is whole or the file ends. */

/* What the lexer's refusal of the token at c->p (a string, a number or a literal: kind) means here, lexing
 * it again for the reason: CHK_MORE when the held text only ends inside it and the file goes on, else
 * CHK_BAD. Apart, so that the checks of tokens taken carry no jsonl_error. */
static __attribute__((noinline)) int refused(const chk *c, char kind)
{
    jsonl_error e;
    const char *s = c->p;
    if (kind == '"')
        jsonl_lex_string(s, c->end, NULL, 0, &e);
    else if (kind == '0')
        jsonl_lex_number(s, c->end, NULL, &e);
    else
        jsonl_lex_literal(s, c->end, &e);
    return !c->eof && jsonl_lex_cut(s, c->end, &e) ? CHK_MORE : CHK_BAD;
}

/* A string; *plain says it had no escape (nor any byte but printable ASCII). The plain ones, nearly every
 * string of a capture, are lexed here without a call: what jsonl_lex_string takes first. */
static inline int chk_string_plain(chk *c, bool *plain)
{
    const char *q = jsonl_plain_end(c->p + 1, c->end);
    if (q < c->end && *q == '"') {
        c->p = q + 1;
        *plain = true;
        return CHK_OK;
    }
    *plain = false;
    const char *after = jsonl_lex_string(c->p, c->end, NULL, 0, NULL);
    if (!after)
        return refused(c, '"');
    c->p = after;
    return CHK_OK;
}

static inline int chk_string(chk *c)
{
    bool plain;
    return chk_string_plain(c, &plain);
}

/* Does b end a number or literal? */
static inline bool is_delim(char b);

/* A number that ends at c->end may go on: the caller looks at the byte after it (chk_ws, jstream_value). */
static inline int chk_number(chk *c)
{
    /* a short integer without a leading zero and followed by a delimiter, the most of a capture's numbers:
     * one jsonl_lex_number takes whole, taken here without a call */
    const char *p = c->p + (*c->p == '-'), *d = p;
    if (p < c->end && *p >= '1' && *p <= '9') {
        while (p < c->end && (unsigned)(*p - '0') < 10)
            p++;
        if (p < c->end && p - d <= 15 && *p != '.' && *p != 'e' && *p != 'E' && is_delim(*p)) {
            c->p = p;
            return CHK_OK;
        }
    }
    const char *after = jsonl_lex_number(c->p, c->end, NULL, NULL);
    if (!after)
        return refused(c, '0');
    if ((size_t)(after - c->p) > NUMBER_MAX) /* more text only makes it longer */
        return CHK_BAD;
    c->p = after;
    return CHK_OK;
}

static int chk_literal(chk *c)
{
    const char *after = jsonl_lex_literal(c->p, c->end, NULL);
    if (!after)
        return refused(c, 't');
    c->p = after;
    return CHK_OK;
}

static inline int chk_ws(chk *c)
{
    if (c->p < c->end && !is_ws((unsigned char)*c->p)) /* compact text: no white space, no loop */
        return CHK_OK;
    while (c->p < c->end && is_ws((unsigned char)*c->p))
        c->p++;
    return c->p < c->end ? CHK_OK : short_of(c);
}

static int chk_value(chk *c, int depth)
{
    if (c->p >= c->end)
        return short_of(c);
    char b = *c->p;
    if (b == '"')
        return chk_string(c);
    if (b == '-' || (b >= '0' && b <= '9'))
        return chk_number(c);
    if (b == '{' || b == '[') {
        if (depth >= JSTREAM_MAX_DEPTH)
            return CHK_BAD;
        char close = b == '{' ? '}' : ']';
        c->p++;
        int r = chk_ws(c);
        if (r != CHK_OK)
            return r;
        /* what goes into c->m: the members of the value itself (depth 0), each item of an array that is one
         * of their values (a mark), and the members of such an item that is an object */
        bool rec = c->m && b == '{' && (depth == 0 || (depth == 2 && c->item2)), items = c->m && b == '[' && depth == 1;
        c->item2 = false;
        if (*c->p == close) {
            c->p++;
            return CHK_OK;
        }
        const char *key[KEYS_MAX]; /* the object's keys so far, raw: without escapes, raw is decoded */
        size_t klen[KEYS_MAX], nkeys = 0;
        uint64_t seen = 0;
        for (;;) {
            if (b == '{') {
                if (*c->p != '"')
                    return CHK_BAD;
                const char *k = c->p + 1;
                bool plain;
                if ((r = chk_string_plain(c, &plain)) != CHK_OK)
                    return r;
                size_t kl = (size_t)(c->p - 1 - k);
                if ((!plain && memchr(k, '\\', kl)) || nkeys == KEYS_MAX)
                    return CHK_BAD;
                /* a repeated key (jsonl refuses it, cJSON takes the first): looked for among the keys so far
                 * only when one of them had the same length and end bytes (a bit of seen) */
                unsigned bit = jsonl_key_hash(k, kl) & 63u;
                if (seen >> bit & 1)
                    for (size_t i = 0; i < nkeys; i++)
                        if (klen[i] == kl && memcmp(key[i], k, kl) == 0)
                            return CHK_BAD;
                seen |= 1ULL << bit;
                key[nkeys] = k;
                klen[nkeys++] = kl;
                if ((r = chk_ws(c)) != CHK_OK)
                    return r;
                if (*c->p++ != ':')
                    return CHK_BAD;
                if ((r = chk_ws(c)) != CHK_OK)
                    return r;
            }
            /* a string or number item without the call (chk_value's first steps) */
            const char *vs = c->p;
            char v = *vs;
            if (items && c->mn++ < c->mmax) {
                c->m[c->mn - 1] = (jstream_mspan){NULL, v == '{', vs, 0, 1};
                c->item2 = v == '{';
            }
            r = v == '"' ? chk_string(c) : v == '-' || (v >= '0' && v <= '9') ? chk_number(c) : chk_value(c, depth + 1);
            if (r != CHK_OK)
                return r;
            if (rec && c->mn++ < c->mmax)
                c->m[c->mn - 1] =
                    (jstream_mspan){key[nkeys - 1], klen[nkeys - 1], vs, (size_t)(c->p - vs), depth};
            if ((r = chk_ws(c)) != CHK_OK)
                return r;
            if (*c->p == close) {
                c->p++;
                return CHK_OK;
            }
            if (*c->p++ != ',')
                return CHK_BAD;
            if ((r = chk_ws(c)) != CHK_OK)
                return r;
        }
    }
    if (b == 't' || b == 'f' || b == 'n')
        return chk_literal(c);
    return CHK_BAD;
}

bool jstream_check(const char *text, size_t len)
{
    chk c = {text, text + len, true, NULL, 0, 0, false};
    while (c.p < c.end && is_ws((unsigned char)*c.p))
        c.p++;
    if (chk_value(&c, 0) != CHK_OK)
        return false;
    while (c.p < c.end && is_ws((unsigned char)*c.p))
        c.p++;
    return c.p == c.end;
}

static inline bool is_delim(char b)
{
    switch (b) {
    case ' ':
    case '\t':
    case '\n':
    case '\r':
    case ',':
    case ':':
    case ']':
    case '}':
    case '"':
    case '[':
    case '{':
        return true;
    default:
        return false;
    }
}

/* Finds the end of the value at c->p without checking it (a text checked before): strings by their closing
 * quote, containers by their depth. CHK_BAD only for what cannot be a value's start or a nesting past the
 * limit. */
static int skim_value(chk *c)
{
    int depth = 0;
    do {
        if (c->p >= c->end)
            return short_of(c);
        char b = *c->p;
        if (b == '"') {
            for (c->p++;; c->p++) {
                const char *q = memchr(c->p, '"', (size_t)(c->end - c->p));
                if (!q) {
                    c->p = c->end;
                    return short_of(c);
                }
                size_t bs = 0; /* an even run of backslashes before it: the quote ends the string */
                while (q - bs > c->p && q[-1 - (ptrdiff_t)bs] == '\\')
                    bs++;
                c->p = q;
                if (bs % 2 == 0)
                    break;
            }
            c->p++;
        } else if (b == '{' || b == '[') {
            if (++depth > JSTREAM_MAX_DEPTH)
                return CHK_BAD;
            c->p++;
        } else if (b == '}' || b == ']') {
            if (depth-- == 0)
                return CHK_BAD;
            c->p++;
        } else if (is_ws((unsigned char)b) || b == ',' || b == ':') {
            if (depth == 0)
                return CHK_BAD;
            c->p++;
        } else { /* a number or literal: to the next delimiter */
            while (c->p < c->end && !is_delim(*c->p))
                c->p++;
            if (c->p >= c->end && depth == 0 && !c->eof)
                return CHK_MORE;
        }
    } while (depth > 0);
    return CHK_OK;
}

void jstream_trust(jstream *js)
{
    js->trusted = true;
}

bool jstream_value(jstream *js, const char **text, size_t *len)
{
    return jstream_value_members(js, text, len, NULL, 0, NULL);
}

bool jstream_value_members(jstream *js, const char **text, size_t *len, jstream_mspan *m, size_t max,
                           size_t *n)
{
    if (n)
        *n = SIZE_MAX;
    if (!jstream_peek(js)) {
        js->bad = true;
        return false;
    }
    for (;;) {
        chk c = {js->buf + js->pos, js->buf + js->len, js->eof, js->trusted ? NULL : m, max, 0, false};
        int r = js->trusted ? skim_value(&c) : chk_value(&c, 0);
        if (r == CHK_OK) {
            /* a number at the end of the held text may go on: read on until a byte follows it */
            if (c.p == js->buf + js->len && !js->eof) {
                r = CHK_MORE;
            } else {
                *text = js->buf + js->pos;
                *len = (size_t)(c.p - *text);
                js->pos = (size_t)(c.p - js->buf);
                if (n && c.m && **text == '{' && c.mn <= max)
                    *n = c.mn;
                return true;
            }
        }
        if (r == CHK_BAD) {
            js->bad = true;
            return false;
        }
        size_t held = js->len - js->pos;
        if (held > SIZE_MAX / 2 || !fill(js, held * 2 + 1))
            return false;
    }
}

/* jstream_skip at nesting depth: a value that fits in half a window is checked whole; a larger container
 * is walked item by item, so that the window stays bounded by its largest item. */
static bool skip_depth(jstream *js, int depth)
{
    int c = jstream_peek(js);
    if (!c || depth >= JSTREAM_MAX_DEPTH) {
        js->bad = true;
        return false;
    }
    for (;;) {
        chk k = {js->buf + js->pos, js->buf + js->len, js->eof, NULL, 0, 0, false};
        int r = js->trusted ? skim_value(&k) : chk_value(&k, depth);
        if (r == CHK_OK && (k.p < k.end || js->eof)) {
            js->pos = (size_t)(k.p - js->buf);
            return true;
        }
        if (r == CHK_BAD) {
            js->bad = true;
            return false;
        }
        size_t held = js->len - js->pos;
        if ((c == '[' || c == '{') && held >= jstream_window / 2)
            break;
        if (!fill(js, held * 2 + 1))
            return false;
    }
    js->pos++;
    bool first = true;
    int r;
    if (c == '[') {
        while ((r = jstream_next(js, ']', &first)) == 1)
            if (!skip_depth(js, depth + 1))
                return false;
    } else {
        jstream_keys seen = {.n = 0};
        char key[64];
        while ((r = jstream_member(js, &first, key, sizeof(key))) == 1)
            if (!jstream_new_key(&seen, key) || !skip_depth(js, depth + 1)) {
                js->bad = true;
                return false;
            }
    }
    if (r < 0)
        js->bad = true;
    return r == 0;
}

bool jstream_skip(jstream *js)
{
    return skip_depth(js, 0);
}

int jstream_next(jstream *js, char close, bool *first)
{
    if (jstream_eat(js, close))
        return 0;
    if (*first) {
        *first = false;
        return jstream_peek(js) ? 1 : -1;
    }
    return jstream_eat(js, ',') ? 1 : -1;
}

int jstream_member(jstream *js, bool *first, char *key, size_t n)
{
    int r = jstream_next(js, '}', first);
    if (r != 1)
        return r;
    const char *t;
    size_t len;
    if (jstream_peek(js) != '"' || !jstream_value(js, &t, &len)) {
        js->bad = true;
        return -1;
    }
    if (memchr(t, '\\', len)) { /* as inside values: keys without escapes */
        js->bad = true;
        return -1;
    }
    jscan s;
    jscan_init(&s, t, len);
    jscan_string(&s, key, n);
    if (!jstream_eat(js, ':')) {
        js->bad = true;
        return -1;
    }
    return 1;
}

bool jstream_new_key(jstream_keys *k, const char *key)
{
    for (int i = 0; i < k->n; i++)
        if (strcmp(k->key[i], key) == 0)
            return false;
    if (k->n == (int)(sizeof(k->key) / sizeof(k->key[0])) || strlen(key) >= sizeof(k->key[0]))
        return false;
    memcpy(k->key[k->n++], key, strlen(key) + 1);
    return true;
}

bool jstream_line(jstream *js, const char **text, size_t *len)
{
    if (js->bad)
        return false;
    size_t scanned = 0;
    for (;;) {
        const char *s = js->buf + js->pos;
        const char *nl =
            js->len > js->pos + scanned ? memchr(s + scanned, '\n', js->len - js->pos - scanned) : NULL;
        if (nl) {
            *text = s;
            *len = (size_t)(nl - s);
            js->pos += *len + 1;
            return true;
        }
        size_t held = js->len - js->pos;
        if (js->eof) {
            if (held == 0)
                return false;
            *text = s;
            *len = held;
            js->pos = js->len;
            return true;
        }
        scanned = held;
        if (held > SIZE_MAX / 2 || !fill(js, held * 2 + 1))
            return false;
    }
}
