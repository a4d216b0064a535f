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

/* The two-digit decimal writers below (wbuf_dec_at and its kin), which the number writers here use. */
static inline char *wbuf_room(wbuf *w, size_t n);
static inline void wbuf_commit(wbuf *w, char *p);
static inline char *wbuf_dec_at(char *p, uint64_t v);
static inline char *wbuf_sdec_at(char *p, int64_t v);
static inline char *wbuf_milli_at(char *p, uint64_t v);

/* v in decimal, written in place (20 bytes at most). */
static inline void wbuf_u64(wbuf *w, uint64_t v)
{
    char *p = wbuf_room(w, 20);
    if (p)
        wbuf_commit(w, wbuf_dec_at(p, v));
}

static inline void wbuf_i64(wbuf *w, int64_t v)
{
    char *p = wbuf_room(w, 21);
    if (p)
        wbuf_commit(w, wbuf_sdec_at(p, v));
}

/* v thousandths as a decimal with exactly three places ("12.345", "0.007"), as printf's
 * "%" PRIu64 ".%03u" of v / 1000 and v % 1000 prints it: nanoseconds as microseconds. */
static inline void wbuf_milli(wbuf *w, uint64_t v)
{
    char *p = wbuf_room(w, 24);
    if (p)
        wbuf_commit(w, wbuf_milli_at(p, v));
}

/* The same for a signed m, as printf's "%" PRId64 ".%03" PRId64 of m / 1000 and m % 1000 prints it:
 * below zero the remainder keeps its sign within the three columns ("0.-05" for -5, "-1.-500", "-2.000"). */
void wbuf_milli_i64(wbuf *w, int64_t m);

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* The 8 hex digits of h (32 bits) as text, the first in the lowest byte: its nibbles spread a byte
 * apiece, put in reading order, then '0' added, and 'a' - '0' - 10 more to those of 10 and up. */
static inline uint64_t wbuf_hex8_text(uint64_t h)
{
    uint64_t x = (h | h << 16) & 0x0000FFFF0000FFFFu;
    x = (x | x << 8) & 0x00FF00FF00FF00FFu;
    x = __builtin_bswap64((x | x << 4) & 0x0F0F0F0F0F0F0F0Fu);
    uint64_t ten = ((x + 0x0606060606060606u) >> 4) & 0x0101010101010101u;
    return x + 0x3030303030303030u + ten * ('a' - '0' - 10);
}

/* v as 16 lowercase hex digits, zeros in front (printf's "%016" PRIx64), at p; the pointer after them. */
static inline char *wbuf_hex16_at(char *p, uint64_t v)
{
    uint64_t hi = wbuf_hex8_text(v >> 32), lo = wbuf_hex8_text(v & 0xFFFFFFFFu);
    memcpy(p, &hi, 8);
    memcpy(p + 8, &lo, 8);
    return p + 16;
}
#else
static inline char *wbuf_hex16_at(char *p, uint64_t v)
{
    for (int i = 15; i >= 0; i--, v >>= 4)
        p[i] = "0123456789abcdef"[v & 15];
    return p + 16;
}
#endif

/* v as 16 lowercase hex digits, zeros in front: printf's "%016" PRIx64. */
static inline void wbuf_hex16(wbuf *w, uint64_t v)
{
    char d[16];
    wbuf_hex16_at(d, v);
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
    char *p = wbuf_room(w, 22);
    if (p) {
        *p++ = '"';
        p = wbuf_dec_at(p, v);
        *p++ = '"';
        wbuf_commit(w, p);
    }
}

/* A JSON string literal (quotes included) with the escapes jsonw_str writes. */
void wbuf_json_str(wbuf *w, const char *s);

/* ---- Decimal two digits a step ----
 * The text of wbuf_u64, wbuf_i64, wbuf_qu64 and wbuf_milli for a third of the work: digit pairs from a
 * table, 32-bit arithmetic below 10^8, a branch per few digits (most numbers written have one to four),
 * eight digits at once past 10^8. The *_at forms write at a pointer the caller made room at
 * (wbuf_room), so a record of many fields checks its room once. */

extern const char wbuf_digit_pairs[201]; /* "00" "01" ... "99" */

/* How many decimal digits v (below 10^8) has. */
static inline int wbuf_len8(uint32_t v)
{
    if (v < 10000)
        return v < 100 ? 1 + (v >= 10) : 3 + (v >= 1000);
    return v < 1000000 ? 5 + (v >= 100000) : 7 + (v >= 10000000);
}

/* How many decimal digits v has (1 for 0, 20 at most). */
static inline int wbuf_dec_len(uint64_t v)
{
    if (v < 100000000u)
        return wbuf_len8((uint32_t)v);
    if (v < 10000000000000000u)
        return 8 + wbuf_len8((uint32_t)(v / 100000000u));
    return 16 + wbuf_len8((uint32_t)(v / 10000000000000000u));
}

/* Room for n bytes at the returned pointer (n at most WBUF_SIZE), flushing if need be; NULL when
 * nothing can be written (the record is dropped, the failure kept). The caller writes at most n bytes
 * there and hands the end back with wbuf_commit. */
static inline char *wbuf_room(wbuf *w, size_t n)
{
    return wbuf_reserve(w, n) ? w->p : NULL;
}

/* Ends what was written since wbuf_room at p. */
static inline void wbuf_commit(wbuf *w, char *p)
{
    w->p = p;
}

/* The bytes of a string literal at p; the pointer after them. */
#define wbuf_lit_at(p, s) (memcpy((p), "" s, sizeof(s) - 1), (p) + sizeof(s) - 1)

/* v (below 100) at p: 2 bytes stored, the pointer after its 1 or 2 digits (a one-digit v's pair is
 * read a byte on, so its digit comes first). */
static inline char *wbuf_dec2_at(char *p, uint32_t v)
{
    int two = v >= 10;
    memcpy(p, wbuf_digit_pairs + 2 * v + 1 - two, 2);
    return p + 1 + two;
}

/* v (below 10^4) at p: the pointer after its digits (one byte more stored when v is below 10). */
static inline char *wbuf_dec4_at(char *p, uint32_t v)
{
    if (v < 100)
        return wbuf_dec2_at(p, v);
    uint32_t h = v / 100;
    p = wbuf_dec2_at(p, h);
    memcpy(p, wbuf_digit_pairs + 2 * (v - h * 100), 2);
    return p + 2;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* v (below 10^8) as 8 digits, zeros in front, at p: the halves, then their hundreds, then their tens
 * split in every lane of one multiply (exact for lanes below 10^4 and 10^2), added to '0' at once. */
static inline char *wbuf_dec8z_at(char *p, uint32_t v)
{
    uint64_t hi = v / 10000, x = hi | (uint64_t)(v - (uint32_t)hi * 10000) << 32;
    uint64_t q = ((x * 10486) >> 20) & 0x0000007F0000007Fu;
    x = q | (x - q * 100) << 16;
    q = ((x * 103) >> 10) & 0x000F000F000F000Fu;
    x = (q | (x - q * 10) << 8) + 0x3030303030303030u;
    memcpy(p, &x, 8);
    return p + 8;
}
#else
static inline char *wbuf_dec8z_at(char *p, uint32_t v)
{
    uint32_t hi = v / 10000, lo = v - hi * 10000;
    memcpy(p, wbuf_digit_pairs + 2 * (hi / 100), 2);
    memcpy(p + 2, wbuf_digit_pairs + 2 * (hi % 100), 2);
    memcpy(p + 4, wbuf_digit_pairs + 2 * (lo / 100), 2);
    memcpy(p + 6, wbuf_digit_pairs + 2 * (lo % 100), 2);
    return p + 8;
}
#endif

/* v (10^4 up to 10^8) at p: the top digits as wbuf_dec4_at, then the other four in pairs. */
static inline char *wbuf_dec8_at(char *p, uint32_t v)
{
    uint32_t h = v / 10000, l = v - h * 10000, m = l / 100;
    p = wbuf_dec4_at(p, h);
    memcpy(p, wbuf_digit_pairs + 2 * m, 2);
    memcpy(p + 2, wbuf_digit_pairs + 2 * (l - m * 100), 2);
    return p + 4;
}

/* v in decimal at p (20 bytes at most, no byte past its digits); the pointer after it. */
static inline char *wbuf_dec_at(char *p, uint64_t v)
{
    if (v < 10) {
        *p = (char)('0' + v);
        return p + 1;
    }
    if (v < 10000)
        return wbuf_dec4_at(p, (uint32_t)v);
    if (v < 100000000u)
        return wbuf_dec8_at(p, (uint32_t)v);
    uint64_t q = v / 100000000u;
    uint32_t r = (uint32_t)(v - q * 100000000u);
    if (q < 10000) {
        p = wbuf_dec4_at(p, (uint32_t)q);
    } else if (q < 100000000u) {
        p = wbuf_dec8_at(p, (uint32_t)q);
    } else {
        uint64_t t = q / 100000000u; /* below 1845 */
        p = wbuf_dec4_at(p, (uint32_t)t);
        p = wbuf_dec8z_at(p, (uint32_t)(q - t * 100000000u));
    }
    return wbuf_dec8z_at(p, r);
}

/* v in decimal, a '-' first when below zero, at p (20 bytes at most). */
static inline char *wbuf_sdec_at(char *p, int64_t v)
{
    if (v < 0) {
        *p++ = '-';
        return wbuf_dec_at(p, (uint64_t)(-(v + 1)) + 1);
    }
    return wbuf_dec_at(p, (uint64_t)v);
}

/* v thousandths with three places, as wbuf_milli writes them, at p (24 bytes at most). */
static inline char *wbuf_milli_at(char *p, uint64_t v)
{
    p = wbuf_dec_at(p, v / 1000);
    unsigned r = (unsigned)(v % 1000);
    p[0] = '.';
    p[1] = (char)('0' + r / 100);
    memcpy(p + 2, wbuf_digit_pairs + 2 * (r % 100), 2);
    return p + 4;
}

/* x as printf's "%.*f" prints it with prec decimals (0 to 9: the exact value rounded half to even, a '-'
 * for any x with its sign bit, -0.0 and what rounds to zero included), into out (32 bytes or more),
 * NUL-ended. Returns the length, or 0 for what is not worked out here (not finite, |x| of 2^63 or more,
 * prec out of range); the caller then asks printf. */
size_t wbuf_fixed_text(char *out, double x, int prec);

/* Reads back, from its start, what a scratch writer holds (packed records kept until the end of a run): a
 * buffer of WBUF_SIZE bytes over the file, read with pread(2). */
typedef struct wbuf_reader {
    int fd;
    uint64_t off;    /* file offset of the next byte to read */
    char *buf;       /* WBUF_SIZE bytes */
    size_t at, have; /* the unread bytes: buf[at..have) */
} wbuf_reader;

/* Starts reading what the scratch writer w holds (flushed first). Returns 0, or -1 with errno set. */
int wbuf_reader_open(wbuf_reader *r, wbuf *w);

/* wbuf_reader_next when the buffer holds fewer than n bytes: reads more. */
const char *wbuf_reader_more(wbuf_reader *r, size_t n);

/* The next n bytes (n at most WBUF_SIZE), valid until the next call; NULL when fewer are left (errno EIO)
 * or a read failed (its errno). */
static inline const char *wbuf_reader_next(wbuf_reader *r, size_t n)
{
    if (!r->buf || r->have - r->at < n)
        return wbuf_reader_more(r, n);
    const char *p = r->buf + r->at; /* a record at a time: no call while the buffer has it */
    r->at += n;
    return p;
}

/* Frees the buffer (r may be zeroed or closed already). */
void wbuf_reader_close(wbuf_reader *r);

/* x as printf's "%.0f" prints it: the nearest integer, a half to the even one (exact: the fraction of a
 * double below 2^52 is worked out without rounding); printf itself for what is not in [0, 2^63), -0
 * and NaN included. */
void wbuf_fixed0(wbuf *w, double x);

#endif
