/* write_buffer.c - wbuf_: buffered writer: write(2) flushes, scratch files, one file appended to another. */
#define _GNU_SOURCE /* copy_file_range */
#include "write_buffer.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "outfile.h"

int wbuf_open_fd(wbuf *w, int fd)
{
    memset(w, 0, sizeof(*w));
    w->fd = fd;
    w->buf = malloc(WBUF_SIZE);
    if (!w->buf) {
        errno = ENOMEM;
        return -1;
    }
    w->p = w->buf;
    w->end = w->buf + WBUF_SIZE;
    return 0;
}

int wbuf_open_scratch(wbuf *w)
{
    int fd = outfile_temp_fd("ptosim-out", NULL);
    if (fd < 0)
        return -1;
    if (wbuf_open_fd(w, fd) != 0) {
        close(fd);
        return -1;
    }
    w->own_fd = true;
    return 0;
}

/* Writes all n bytes at s to fd. Returns 0, or -1 with errno set. */
static int write_all(int fd, const char *s, size_t n)
{
    while (n) {
        ssize_t k = write(fd, s, n);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        s += k;
        n -= (size_t)k;
    }
    return 0;
}

int wbuf_flush(wbuf *w)
{
    if (!w->buf)
        return 0;
    if (!w->err && write_all(w->fd, w->buf, (size_t)(w->p - w->buf)) != 0)
        w->err = errno;
    w->p = w->buf;
    if (w->err) {
        errno = w->err;
        return -1;
    }
    return 0;
}

void wbuf_put_slow(wbuf *w, const void *s, size_t n)
{
    if (!w->buf || wbuf_flush(w) != 0)
        return;
    if (n <= WBUF_SIZE) {
        memcpy(w->p, s, n);
        w->p += n;
    } else if (write_all(w->fd, s, n) != 0) {
        w->err = errno;
    }
}

int wbuf_close(wbuf *w)
{
    int rc = wbuf_flush(w);
    int e = errno;
    if (w->own_fd && w->fd >= 0)
        close(w->fd);
    free(w->buf);
    memset(w, 0, sizeof(*w));
    w->fd = -1;
    errno = e;
    return rc;
}

int wbuf_append(wbuf *to, wbuf *from)
{
    if (wbuf_flush(from) != 0 || wbuf_flush(to) != 0)
        return -1;
    /* in the kernel when both are files on one filesystem: one copy of each byte, not a read and a write */
    off_t in = 0;
    ssize_t k;
    while ((k = copy_file_range(from->fd, &in, to->fd, NULL, (size_t)1 << 30, 0)) > 0)
        ;
    if (k == 0)
        return 0;
    if (in != 0 || (errno != EXDEV && errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP))
        return -1;
    for (;;) { /* another filesystem, or a kernel without it */
        ssize_t r = pread(from->fd, to->buf, WBUF_SIZE, in);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0)
            return 0;
        if (write_all(to->fd, to->buf, (size_t)r) != 0)
            return -1;
        in += r;
    }
}

int wbuf_append_file(FILE *f, wbuf *from)
{
    wbuf w;
    if (fflush(f) != 0 || wbuf_open_fd(&w, fileno(f)) != 0)
        return -1;
    int rc = wbuf_append(&w, from);
    if (wbuf_close(&w) != 0)
        rc = -1;
    return rc;
}

void wbuf_json_str(wbuf *w, const char *s)
{
    assert(s);
    wbuf_char(w, '"');
    const unsigned char *run = (const unsigned char *)s; /* bytes not yet written, none to escape */
    for (const unsigned char *p = run;; p++) {
        if (*p >= 0x20 && *p != '"' && *p != '\\')
            continue;
        wbuf_put(w, run, (size_t)(p - run)); /* a run at once, not a byte at a time */
        run = p + 1;
        if (!*p)
            break;
        switch (*p) {
        case '"':
            wbuf_lit(w, "\\\"");
            break;
        case '\\':
            wbuf_lit(w, "\\\\");
            break;
        case '\n':
            wbuf_lit(w, "\\n");
            break;
        case '\r':
            wbuf_lit(w, "\\r");
            break;
        case '\t':
            wbuf_lit(w, "\\t");
            break;
        default: { /* the other control characters */
            char esc[7] = {'\\', 'u', '0', '0', "0123456789abcdef"[*p >> 4], "0123456789abcdef"[*p & 15], 0};
            wbuf_put(w, esc, 6);
        }
        }
    }
    wbuf_char(w, '"');
}

void wbuf_milli_i64(wbuf *w, int64_t m)
{
    if (m >= 0) {
        wbuf_milli(w, (uint64_t)m);
        return;
    }
    wbuf_i64(w, m / 1000);
    int r = (int)-(m % 1000); /* 0..999 */
    if (r == 0) {
        wbuf_lit(w, ".000");
        return;
    }
    wbuf_lit(w, ".-");
    if (r < 10) /* the sign takes one of the three columns */
        wbuf_char(w, '0');
    wbuf_u64(w, (uint64_t)r);
}

size_t wbuf_float9_text(char *out, float x)
{
    if (!isfinite(x))
        return 0;
    char *o = out;
    if (signbit(x))
        *o++ = '-';
    if (x == 0) {
        *o++ = '0';
        *o = '\0';
        return (size_t)(o - out);
    }
    /* |x| = m * 2^e exactly, m below 2^24 */
    int ex;
    float fr = frexpf(fabsf(x), &ex);
    uint32_t m = (uint32_t)ldexpf(fr, 24);
    int e = ex - 24;
    while (e < 0 && !(m & 1)) {
        m >>= 1;
        e++;
    }
    /* |x| = n / 10^k, n an integer below 2^128 */
    unsigned __int128 n = m;
    int k = 0;
    if (e >= 0) {
        if (e > 103)
            return 0;
        n <<= e;
    } else {
        if (-e > 44) /* 5^44 * 2^24 < 2^128 */
            return 0;
        for (k = 0; k < -e; k++)
            n *= 5;
    }
    char d[48];
    int nd = 0;
    for (; n; n /= 10)
        d[nd++] = (char)('0' + (int)(n % 10)); /* least significant first */
    for (int i = 0; i < nd / 2; i++) {
        char t = d[i];
        d[i] = d[nd - 1 - i];
        d[nd - 1 - i] = t;
    }
    int X = nd - 1 - k; /* the first digit's power of ten */
    char s[9];
    for (int i = 0; i < 9; i++)
        s[i] = i < nd ? d[i] : '0';
    if (nd > 9) { /* round to nine digits, half to even on the exact rest */
        bool rest = false;
        for (int i = 10; i < nd; i++)
            rest |= d[i] != '0';
        if (d[9] > '5' || (d[9] == '5' && (rest || (s[8] - '0') % 2))) {
            int i = 8;
            while (i >= 0 && s[i] == '9')
                s[i--] = '0';
            if (i >= 0) {
                s[i]++;
            } else {
                s[0] = '1'; /* 999999999.5 -> 1000000000: one more digit before the point */
                X++;
            }
        }
    }
    int last = 8; /* %g drops trailing zeros */
    while (last > 0 && s[last] == '0')
        last--;
    if (X < -4 || X >= 9) {
        *o++ = s[0];
        if (last > 0) {
            *o++ = '.';
            for (int i = 1; i <= last; i++)
                *o++ = s[i];
        }
        *o++ = 'e';
        *o++ = X < 0 ? '-' : '+';
        int a = X < 0 ? -X : X;
        if (a >= 100)
            *o++ = (char)('0' + a / 100);
        *o++ = (char)('0' + a / 10 % 10);
        *o++ = (char)('0' + a % 10);
    } else if (X >= 0) {
        for (int i = 0; i <= X; i++)
            *o++ = s[i];
        if (last > X) {
            *o++ = '.';
            for (int i = X + 1; i <= last; i++)
                *o++ = s[i];
        }
    } else {
        *o++ = '0';
        *o++ = '.';
        for (int i = 0; i < -X - 1; i++)
            *o++ = '0';
        for (int i = 0; i <= last; i++)
            *o++ = s[i];
    }
    *o = '\0';
    return (size_t)(o - out);
}

const char wbuf_digit_pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

size_t wbuf_fixed_text(char *out, double x, int prec)
{
    static const uint32_t P10[10] = {1,      10,      100,      1000,      10000,
                                     100000, 1000000, 10000000, 100000000, 1000000000};
    if (!isfinite(x) || prec < 0 || prec > 9 || fabs(x) >= 0x1p63)
        return 0;
    char *o = out;
    if (signbit(x))
        *o++ = '-';
    /* |x| = m * 2^e exactly; q = |x| * 10^prec rounded half to even, worked out in 128 bits */
    uint64_t scale = P10[prec];
    unsigned __int128 q = 0;
    if (x != 0) {
        int ex;
        double fr = frexp(fabs(x), &ex);
        uint64_t m = (uint64_t)ldexp(fr, 53);
        int e = ex - 53;                                      /* at most 10: |x| < 2^63 */
        unsigned __int128 num = (unsigned __int128)m * scale; /* below 2^83 */
        if (e >= 0) {
            q = num << e;
        } else if (-e < 128) {
            int k = -e;
            q = num >> k;
            unsigned __int128 rem = num - (q << k), half = (unsigned __int128)1 << (k - 1);
            if (rem > half || (rem == half && (q & 1)))
                q++;
        } /* else below 2^-44 of a unit: q stays 0 */
    }
    uint64_t ip = (uint64_t)(q / scale); /* at most 2^63 */
    uint32_t fp = (uint32_t)(q % scale);
    o = wbuf_dec_at(o, ip);
    if (prec) {
        *o++ = '.';
        for (int i = prec - 1; i >= 0; i--, fp /= 10)
            o[i] = (char)('0' + fp % 10);
        o += prec;
    }
    *o = '\0';
    return (size_t)(o - out);
}

int wbuf_reader_open(wbuf_reader *r, wbuf *w)
{
    memset(r, 0, sizeof(*r));
    r->fd = w->fd;
    if (wbuf_flush(w) != 0)
        return -1;
    r->buf = malloc(WBUF_SIZE);
    if (!r->buf) {
        errno = ENOMEM;
        return -1;
    }
    return 0;
}

const char *wbuf_reader_more(wbuf_reader *r, size_t n)
{
    if (n > WBUF_SIZE || !r->buf) {
        errno = EINVAL;
        return NULL;
    }
    if (r->have - r->at < n) {
        memmove(r->buf, r->buf + r->at, r->have - r->at);
        r->have -= r->at;
        r->at = 0;
        while (r->have < n) {
            ssize_t k = pread(r->fd, r->buf + r->have, WBUF_SIZE - r->have, (off_t)r->off);
            if (k < 0 && errno == EINTR)
                continue;
            if (k <= 0) {
                if (k == 0)
                    errno = EIO; /* shorter than what the caller kept */
                return NULL;
            }
            r->have += (size_t)k;
            r->off += (uint64_t)k;
        }
    }
    const char *p = r->buf + r->at;
    r->at += n;
    return p;
}

void wbuf_reader_close(wbuf_reader *r)
{
    free(r->buf);
    memset(r, 0, sizeof(*r));
}

void wbuf_fixed0(wbuf *w, double x)
{
    if (x >= 0 && !signbit(x) && x < 9223372036854775808.0) {
        /* exact: whole and x are within a factor of two, or whole is 0 */
        double whole = floor(x), frac = x - whole;
        uint64_t v = (uint64_t)whole;
        if (frac > 0.5 || (frac == 0.5 && (v & 1)))
            v++;
        wbuf_u64(w, v);
        return;
    }
    char t[400]; /* -DBL_MAX has 309 digits */
    int n = snprintf(t, sizeof(t), "%.0f", x);
    if (n > 0)
        wbuf_put(w, t, (size_t)n < sizeof(t) ? (size_t)n : sizeof(t) - 1);
}
