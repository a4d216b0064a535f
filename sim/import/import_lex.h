/* import_lex.h - ilex_: a capture's JSON read in one pass through a bounded window, plain text only. */
/* Why: the capture's files are tens of megabytes, and checking a file and then reading it again a value at a
 * time as cJSON trees cost more than all the rest of an import. This reader checks and reads in the same
 * pass, and builds nothing: its caller takes the values it needs straight from the text.
 *
 * It takes only a plain part of JSON, the part the runtime writes: strings of printable ASCII without
 * escapes, integers, the literals, arrays, and objects of at most ILEX_MEMBERS members without a repeated
 * key, nested at most ILEX_DEPTH deep, with space, tab, CR and LF between tokens. Fractions and exponents are
 * taken as model/base/json_reader.c lexes them. All of this is JSON that jsonl_parse and the stream of
 * sim/json/json_stream.h take as well. Whatever else a file holds, the reader refuses (ILEX_BAD) without
 * saying why: its caller then reads the file the reference way, which names any fault. */
#ifndef PTOSIM_IMPORT_LEX_H
#define PTOSIM_IMPORT_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define ILEX_MEMBERS 48 /* the stream's limit (json_stream.h): a larger object is left to the reference */
#define ILEX_DEPTH 64   /* deeper nesting is left to the reference */
#define ILEX_SLACK 64   /* readable bytes past a window's text (words are compared and read whole) */

/* What a step found: the text breaks the rules above, a value was read, or the window ends inside it. */
enum { ILEX_BAD, ILEX_OK, ILEX_MORE };

typedef struct ilex {
    int fd;          /* the file, -1 for a text in memory (ilex_text) */
    char *buf;       /* bytes [base, base + len) of the file, a NUL, ILEX_SLACK bytes (cap + 1 + slack) */
    size_t cap;      /* the window's size: jstream_window, more only while one value is larger */
    size_t len, pos; /* bytes held; the cursor */
    uint64_t base;   /* file offset of buf[0] */
    bool eof;        /* buf holds the file's last byte */
    bool bad;        /* a read failed, or a NUL was met between tokens */
    size_t peak;     /* the largest window held (import_peak_window) */
} ilex;

/* Opens path (a regular file, no link below a named folder) with an empty window. 0, or -1. */
int ilex_open(ilex *lx, const char *path);

/* Reads the n bytes at text as a whole file (nothing is copied): text[n] must be '\0', and ILEX_SLACK more
 * bytes after it readable. */
void ilex_text(ilex *lx, const char *text, size_t n);

/* Closes the file and frees the window (safe on a zeroed or closed reader). */
void ilex_close(ilex *lx);

/* Keeps the bytes from the cursor on, moved to the front of the window, and reads more after them; the
 * window grows when the cursor is at its front and it is full. False when nothing more can be read. */
bool ilex_refill(ilex *lx);

/* Skips white space (reading on); the next byte, or 0 at the end of the file or on a failure. */
int ilex_peek(ilex *lx);

/* Consumes c after white space; false when the next byte is another. */
bool ilex_eat(ilex *lx, char c);

/* Steps through an array opened with ilex_eat(lx, '['): 1 when an element follows (the comma before it
 * consumed, the cursor on it), 0 when the array closed, -1 on bad text. *first must start true. */
int ilex_next(ilex *lx, bool *first);

/* Steps through an object opened with ilex_eat(lx, '{'): 1 when a member follows, its key (plain, shorter
 * than n) in key and the cursor on its value, 0 when the object closed, -1 otherwise. *first must start
 * true. The caller checks the keys for repeats (jstream_new_key). */
int ilex_member(ilex *lx, bool *first, char *key, size_t n);

/* Reads one value at the cursor with fn, which is given the window's text from its first byte and returns
 * ILEX_OK with *after set, ILEX_BAD, or ILEX_MORE when the window ends inside it: then the window is read
 * on and fn called again on the same value from its start (fn keeps nothing of a call that did not end in
 * ILEX_OK). True when fn read it; the cursor is then after it. */
typedef int (*ilex_fn)(void *ctx, const ilex *lx, const char *p, const char **after);
bool ilex_value(ilex *lx, ilex_fn fn, void *ctx);

/* Checks and skips the value at p (ILEX_OK, *after set), by the rules above. */
int ilex_skip(const ilex *lx, const char *p, const char **after);

/* Checks and skips the value at the cursor of any size: one that fits in half a window whole, a larger
 * array or object member by member, so that the window holds at most about its largest member. */
bool ilex_skip_stream(ilex *lx);

/* ---- the object walk: keys told apart by a table built once ---- */

/* An object's known keys. Objects of one kind give their keys in one order: the key that followed each key
 * the last time (two of them) is tried first, by comparing words; any other key is found by its length and
 * first and last bytes. */
typedef struct ilex_keys {
    const char *const *names;
    int n;                   /* at most 64, each at most 30 bytes */
    unsigned char len[64];   /* strlen(names[i]) */
    signed char slot[128];   /* open addressing: index into names, -1 empty */
    signed char next[65][2]; /* the keys seen after key i (next[64]: first in an object), -1 none */
    uint64_t word[64][4];    /* names[i] and its closing quote, zero-padded */
    uint64_t mask[64][4];    /* ... the bytes of it that count */
} ilex_keys;

/* Builds k over names[0..n) once (n <= 64, distinct non-empty names of at most 30 bytes). */
void ilex_keys_init(ilex_keys *k, const char *const *names, int n);

/* The index of the key s[0..n) in k, or -1. */
static inline int ilex_key(const ilex_keys *k, const char *s, size_t n)
{
    if (n == 0 || n > 255)
        return -1;
    unsigned h = ((unsigned)n * 7u + (unsigned char)s[0] * 3u + (unsigned char)s[n - 1]) & 127u;
    for (;;) {
        int i = k->slot[h];
        if (i < 0)
            return -1;
        if (k->len[i] == n && memcmp(k->names[i], s, n) == 0)
            return i;
        h = (h + 1) & 127u;
    }
}

/* Is the key at s (after its opening quote; ILEX_SLACK bytes readable past the window) names[i], closed? */
static inline bool ilex_key_is(const ilex_keys *k, int i, const char *s)
{
    uint64_t w0, w1;
    memcpy(&w0, s, 8);
    memcpy(&w1, s + 8, 8);
    uint64_t diff = ((w0 ^ k->word[i][0]) & k->mask[i][0]) | ((w1 ^ k->word[i][1]) & k->mask[i][1]);
    if (k->len[i] >= 16) { /* the name and its quote take more than two words */
        uint64_t w2, w3;
        memcpy(&w2, s + 16, 8);
        memcpy(&w3, s + 24, 8);
        diff |= ((w2 ^ k->word[i][2]) & k->mask[i][2]) | ((w3 ^ k->word[i][3]) & k->mask[i][3]);
    }
    return diff == 0;
}

/* The keys of one object seen so far, for repeats: known keys by bit, others by a hash and their text. */
typedef struct ilex_seen {
    uint64_t known; /* bit i: names[i] seen (fewer than ILEX_MEMBERS names: only other keys can pass it) */
    int last;       /* the last key's index, 64 before the first, -1 after an unknown one */
    int nother;     /* keys not in the table */
    uint32_t hash[ILEX_MEMBERS];
    const char *key[ILEX_MEMBERS];
    size_t klen[ILEX_MEMBERS];
} ilex_seen;

/* An object's walk begins. */
static inline void ilex_seen_init(ilex_seen *s)
{
    s->known = 0;
    s->nother = 0;
    s->last = 64;
}

/* Notes a key not in the table; false when the object repeats it. */
bool ilex_seen_other(ilex_seen *s, const char *key, size_t n);

/* ---- tokens, over the window's text: every scan stops at the NUL after the bytes held ---- */

extern const unsigned char ilex_class[256];
#define ILEX_WS 1    /* space, tab, CR, LF */
#define ILEX_PLAIN 2 /* printable ASCII but '"' and '\\': a string's byte as it stands */
#define ILEX_DIGIT 4
#define ILEX_NUMBER_ON 8 /* a byte a plain integer cannot end before: digit, '.', 'e', 'E', window's NUL */

static inline const char *ilex_ws(const char *p)
{
    if (*p == ' ' && (unsigned char)p[1] > ' ') /* the one space a writer puts after ':' and ',' */
        return p + 1;
    while ((unsigned char)*p <= ' ' && (ilex_class[(unsigned char)*p] & ILEX_WS)) /* one compare: a token */
        p++;
    return p;
}

/* What meeting an unexpected byte at p means: the end of the bytes held, while the file goes on (ILEX_MORE),
 * or bad text. */
static inline int ilex_stop(const ilex *lx, const char *p)
{
    return p == lx->buf + lx->len && !lx->eof ? ILEX_MORE : ILEX_BAD;
}

/* The end of a plain string whose first byte is at p (after its opening quote): the first byte that is not
 * plain. The string is plain when that byte is its closing quote. */
static inline const char *ilex_plain(const char *p)
{
    while (ilex_class[(unsigned char)*p] & ILEX_PLAIN)
        p++;
    return p;
}

/* Are the 8 bytes at s (ILEX_SLACK bytes readable past the window) all digits? Then *v is their value. */
static inline bool ilex_digits8(const char *s, uint64_t *v)
{
    uint64_t w;
    memcpy(&w, s, 8);
    if ((w & 0xF0F0F0F0F0F0F0F0ull) != 0x3030303030303030ull ||
        ((w + 0x0606060606060606ull) & 0xF0F0F0F0F0F0F0F0ull) != 0x3030303030303030ull)
        return false;
    w = (w & 0x0F0F0F0F0F0F0F0Full) * 2561 >> 8; /* the first byte is the highest digit (little-endian) */
    w = (w & 0x00FF00FF00FF00FFull) * 6553601 >> 16;
    *v = (w & 0x0000FFFF0000FFFFull) * 42949672960001ull >> 32;
    return true;
}

/* A number not an integer of at most 15 digits, or one the window may cut: ilex_number's slow way. */
int ilex_number_slow(const ilex *lx, const char *p, const char **after, bool *is_int, int64_t *v);

/* The common number: a non-negative integer of at most 15 digits at p, followed by a byte that ends it (not
 * a digit, '.', 'e' or 'E', nor the NUL after the window's text, which more text may follow): true with *v
 * and *after; false for anything else (ilex_number then says what it is). */
static inline __attribute__((always_inline)) bool ilex_uint(const char *p, const char **after, int64_t *v)
{
    const char *q = p;
    uint64_t x = 0;
    unsigned d;
    while ((d = (unsigned)(*q - '0')) < 10u) {
        x = x * 10 + d;
        q++;
    }
    size_t n = (size_t)(q - p);
    if (n - 1 >= 15 || (ilex_class[(unsigned char)*q] & ILEX_NUMBER_ON) || (*p == '0' && n > 1))
        return false;
    *after = q;
    *v = (int64_t)x;
    return true;
}

/* A number at p (a '-' or a digit): ILEX_OK with *after, checked as json_reader lexes numbers. *is_int says
 * whether it is an integer of at most 15 digits other than -0, which a double holds exactly, with its value
 * in *v. */
static inline __attribute__((always_inline)) int ilex_number(const ilex *lx, const char *p,
                                                             const char **after, bool *is_int, int64_t *v)
{
    bool neg = *p == '-';
    if (ilex_uint(p + neg, after, v) && !(neg && *v == 0)) {
        *is_int = true;
        if (neg)
            *v = -*v;
        return ILEX_OK;
    }
    return ilex_number_slow(lx, p, after, is_int, v);
}

/* A literal at p: ILEX_OK with *after. */
int ilex_literal(const ilex *lx, const char *p, const char **after);

/* ilex_skip, with the values most members hold taken here: a non-negative integer of at most 15 digits, a
 * plain string, and an array of these. */
static inline __attribute__((always_inline)) int ilex_skip_quick(const ilex *lx, const char *p,
                                                                 const char **after)
{
    const char *q = p;
    bool array = *q == '[';
    if (array) {
        q = ilex_ws(q + 1);
        if (*q == ']') {
            *after = q + 1;
            return ILEX_OK;
        }
    }
    for (;;) {
        int64_t v;
        if (*q == '"') {
            q = ilex_plain(q + 1);
            if (*q != '"')
                break;
            q++;
        } else if (!ilex_uint(q, &q, &v)) {
            break;
        }
        if (!array) {
            *after = q;
            return ILEX_OK;
        }
        q = ilex_ws(q);
        if (*q == ']') {
            *after = q + 1;
            return ILEX_OK;
        }
        if (*q != ',')
            break;
        q = ilex_ws(q + 1);
    }
    return ilex_skip(lx, p, after); /* anything else, or the window may cut it: the whole check */
}

/* ---- members ---- */

/* The key at p (its opening quote) of an object walked with ks: its index (-1: not in ks) in *key, and the
 * cursor after the ':' and the white space after it in *at; false (with *r) when the text is not that, or
 * the object repeats a key or has too many. */
static inline __attribute__((always_inline)) bool ilex_member_key(const ilex *lx, ilex_keys *ks,
                                                                  ilex_seen *seen, const char *p,
                                                                  const char **at, int *key, int *r)
{
    if (*p != '"') {
        *r = ilex_stop(lx, p);
        return false;
    }
    const char *k = p + 1, *q;
    int i = -1;
    if (seen->last >= 0) { /* the keys that followed the last one before */
        signed char *nx = ks->next[seen->last];
        if (nx[0] >= 0 && ilex_key_is(ks, nx[0], k)) {
            i = nx[0];
        } else if (nx[1] >= 0 && ilex_key_is(ks, nx[1], k)) {
            i = nx[1];
            nx[1] = nx[0];
            nx[0] = (signed char)i;
        }
    }
    if (i >= 0) {
        q = k + ks->len[i];
    } else {
        q = ilex_plain(k);
        if (*q != '"') {
            *r = ilex_stop(lx, q);
            return false;
        }
        i = ilex_key(ks, k, (size_t)(q - k));
        if (i >= 0 && seen->last >= 0 && ks->next[seen->last][0] != i) {
            ks->next[seen->last][1] = ks->next[seen->last][0];
            ks->next[seen->last][0] = (signed char)i;
        }
    }
    *r = ILEX_BAD;
    if (i >= 0) {
        if ((seen->known >> i) & 1)
            return false;
        seen->known |= (uint64_t)1 << i;
    } else if (!ilex_seen_other(seen, k, (size_t)(q - k))) {
        return false;
    }
    seen->last = i;
    p = q[1] == ':' ? q + 1 : ilex_ws(q + 1);
    if (*p != ':') {
        *r = ilex_stop(lx, p);
        return false;
    }
    *at = ilex_ws(p + 1);
    *key = i;
    return true;
}

/* After a member's value at *p: 1 when another member follows (*p on its key), 0 when the object closed
 * (*after past it), -1 with *r otherwise. */
static inline int ilex_member_next(const ilex *lx, const char **p, const char **after, int *r)
{
    const char *q = ilex_ws(*p);
    if (*q == ',') {
        *p = ilex_ws(q + 1);
        return 1;
    }
    if (*q == '}') {
        *after = q + 1;
        return 0;
    }
    *r = ilex_stop(lx, q);
    return -1;
}

#endif
