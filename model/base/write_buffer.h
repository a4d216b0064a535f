/* write_buffer.h - wbuf_: buffered writing for the bulk outputs: appends into 1 MiB, flushed by write(2). */
#ifndef PTOSIM_WRITE_BUFFER_H
#define PTOSIM_WRITE_BUFFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define WBUF_SIZE ((size_t)1 << 20) /* one write(2) per MiB: a 4 KiB stdio buffer made 20,000 calls per deps.json */

/* A writer into a file descriptor. Appends never fail on the spot: the first
 * failed write is kept in err and every later append is dropped, so a
 * writer checks once, at wbuf_finish or wbuf_close. */
typedef struct wbuf {
    char *buf, *p, *end; /* buffer, next free byte, end of the buffer */
    int fd;              /* where full buffers go */
    bool own_fd;         /* a scratch file this writer created and closes */
    int err;             /* errno of the first failure, 0 if none */
} wbuf;

/* Writes to fd (not closed by wbuf_close). Returns 0, or -1 with errno set (out of memory). */
int wbuf_open_fd(wbuf *w, int fd);

/* Writes to an anonymous temporary file (in $TMPDIR, else /tmp), read back by
 * wbuf_append. Returns 0, or -1 with errno set. */
int wbuf_open_scratch(wbuf *w);

/* Writes out everything buffered. Returns 0, or -1 with errno set if any write failed. */
int wbuf_flush(wbuf *w);

/* Flushes, closes a scratch file and frees the buffer (w may be zeroed or
 * closed already). Returns 0, or -1 with errno set if any write failed. */
int wbuf_close(wbuf *w);

/* Appends everything written so far to the scratch writer from onto to.
 * Returns 0, or -1 with errno set. */
int wbuf_append(wbuf *to, wbuf *from);

/* Appends the scratch writer from onto the stdio stream f (flushed first,
 * then written through its descriptor). Returns 0, or -1 with errno set. */
int wbuf_append_file(FILE *f, wbuf *from);

/* Flushes, then buffers or writes the n bytes at s (dropped once a write failed). */
void wbuf_put_slow(wbuf *w, const void *s, size_t n);

static inline void wbuf_put(wbuf *w, const void *s, size_t n)
{
    if ((size_t)(w->end - w->p) < n) {
        wbuf_put_slow(w, s, n);
        return;
    }
    memcpy(w->p, s, n);
    w->p += n;
}

/* Room for n (at most WBUF_SIZE) bytes at w->p, flushing if need be; false
 * when nothing can be written (the append is dropped). */
static inline bool wbuf_reserve(wbuf *w, size_t n)
{
    if ((size_t)(w->end - w->p) >= n)
        return true;
    wbuf_put_slow(w, "", 0);
    return (size_t)(w->end - w->p) >= n;
}

/* A string literal, its length known when compiling. */
#define wbuf_lit(w, s) wbuf_put((w), "" s, sizeof(s) - 1)

static inline void wbuf_str(wbuf *w, const char *s)
{
    wbuf_put(w, s, strlen(s));
}

static inline void wbuf_char(wbuf *w, char c)
{
    if (w->p == w->end) {
        wbuf_put_slow(w, &c, 1);
        return;
    }
    *w->p++ = c;
}

/* How many decimal digits v has. */
static inline int wbuf_ndigits(uint64_t v)
{
    int n = 1;
    while (v >= 10000) {
        v /= 10000;
        n += 4;
    }
    return n + (v >= 10) + (v >= 100) + (v >= 1000);
}

/* v in decimal, written in place: a copy through a temporary made glibc's memcpy a tenth of a deps.json. */
static inline void wbuf_u64(wbuf *w, uint64_t v)
{
    int n = wbuf_ndigits(v);
    if (!wbuf_reserve(w, (size_t)n))
        return;
    char *q = w->p + n;
    w->p = q;
    do {
        *--q = (char)('0' + v % 10);
        v /= 10;
    } while (v);
}

static inline void wbuf_i64(wbuf *w, int64_t v)
{
    if (v < 0) {
        wbuf_char(w, '-');
        wbuf_u64(w, (uint64_t)(-(v + 1)) + 1);
    } else {
        wbuf_u64(w, (uint64_t)v);
    }
}

/* v thousandths as a decimal with exactly three places ("12.345", "0.007"), as printf's
 * "%" PRIu64 ".%03u" of v / 1000 and v % 1000 prints it: nanoseconds as microseconds. */
static inline void wbuf_milli(wbuf *w, uint64_t v)
{
    wbuf_u64(w, v / 1000);
    unsigned r = (unsigned)(v % 1000);
    char d[4] = {'.', (char)('0' + r / 100), (char)('0' + r / 10 % 10), (char)('0' + r % 10)};
    wbuf_put(w, d, 4);
}

/* The same for a signed m, as printf's "%" PRId64 ".%03" PRId64 of m / 1000 and m % 1000 prints it:
 * below zero the remainder keeps its sign within the three columns ("0.-05" for -5, "-1.-500", "-2.000"). */
void wbuf_milli_i64(wbuf *w, int64_t m);

/* v as 16 lowercase hex digits, zeros in front: printf's "%016" PRIx64. */
static inline void wbuf_hex16(wbuf *w, uint64_t v)
{
    char d[16];
    for (int i = 15; i >= 0; i--, v >>= 4)
        d[i] = "0123456789abcdef"[v & 15];
    wbuf_put(w, d, 16);
}

/* x as printf's "%.9g" prints it (a float's value in full: nine significant digits, rounded half to
 * even on its exact value), into out (32 bytes or more), NUL-ended. Returns the length, or 0 for
 * what is not worked out here (not finite, a bit below 2^-44, or the top binade: the exact value
 * would not fit 128 bits); the caller then asks printf. */
size_t wbuf_float9_text(char *out, float x);

/* An unsigned integer as a quoted decimal string ("123"), as the runtime writes 64-bit ids. */
static inline void wbuf_qu64(wbuf *w, uint64_t v)
{
    wbuf_char(w, '"');
    wbuf_u64(w, v);
    wbuf_char(w, '"');
}

/* A JSON string literal (quotes included) with the escapes jsonw_str writes. */
void wbuf_json_str(wbuf *w, const char *s);

/* x as printf's "%.0f" prints it: the nearest integer, a half to the even one (exact: the fraction of a
 * double below 2^52 is worked out without rounding); printf itself for what is not in [0, 2^63), -0
 * and NaN included. */
void wbuf_fixed0(wbuf *w, double x);

#endif
