/* msg_text.c - msgtext_: a message's text made safe to print, every byte a terminal could act on escaped. */
#include "msg_text.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Is byte c printed as it is on its own? Printable ASCII; a byte of 0x80 and above only as part of a
 * printable UTF-8 character (utf8_char). */
static bool plain(unsigned char c)
{
    return c >= 0x20 && c < 0x7f;
}

/* Bytes of the valid UTF-8 character at s that is printable (U+00A0 and up), or 0. Overlong forms,
 * surrogates and values past U+10FFFF are not valid. */
static size_t utf8_char(const unsigned char *s)
{
    unsigned c = s[0];
    size_t len;
    uint32_t cp;
    if (c >= 0xc2 && c <= 0xdf) {
        len = 2;
        cp = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
        len = 3;
        cp = c & 0x0f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        len = 4;
        cp = c & 0x07;
    } else {
        return 0;
    }
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80) /* a NUL ends the sequence here too */
            return 0;
        cp = cp << 6 | (s[i] & 0x3f);
    }
    static const uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < least[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) || cp < 0xa0)
        return 0; /* cp < 0xa0: a C1 control */
    return len;
}

size_t msgtext_escape(char *dst, size_t n, const char *src)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *s = (const unsigned char *)src;
    size_t o = 0;
    while (*s) {
        size_t k = plain(*s) ? 1 : utf8_char(s);
        if (k) {
            if (o + k >= n)
                break;
            memcpy(dst + o, s, k);
            o += k;
            s += k;
        } else {
            if (o + 4 >= n)
                break;
            dst[o++] = '\\';
            dst[o++] = 'x';
            dst[o++] = hex[*s >> 4];
            dst[o++] = hex[*s & 15];
            s++;
        }
    }
    dst[o] = '\0';
    return o;
}

void msgtext_fix(char *msg, size_t n)
{
    const unsigned char *s = (const unsigned char *)msg;
    while (*s && plain(*s))
        s++;
    if (!*s || n == 0)
        return; /* the common case: nothing to escape, nothing copied */
    char stack[1024], *copy = strlen(msg) < sizeof(stack) ? stack : strdup(msg);
    if (copy == stack)
        memcpy(stack, msg, strlen(msg) + 1);
    if (!copy) { /* out of memory: the bytes that need it are cut off rather than printed */
        msg[(const char *)s - msg] = '\0';
        return;
    }
    msgtext_escape(msg, n, copy);
    if (copy != stack)
        free(copy);
}

int msgtext_vprint(FILE *f, const char *fmt, va_list ap)
{
    char stack[2048], *text = stack, out_stack[2048], *out = out_stack;
    va_list again;
    va_copy(again, ap);
    int len = vsnprintf(stack, sizeof(stack), fmt, ap);
    if (len >= 0 && (size_t)len >= sizeof(stack)) { /* a long message: formatted again into a buffer that holds it */
        if ((text = malloc((size_t)len + 1)))
            vsnprintf(text, (size_t)len + 1, fmt, again);
    }
    va_end(again);
    if (len < 0 || !text)
        return -1;
    size_t need = 4 * (size_t)len + 2; /* every byte escaped, the newline, the NUL */
    if (need > sizeof(out_stack) && !(out = malloc(need))) {
        if (text != stack)
            free(text);
        return -1;
    }
    size_t n = msgtext_escape(out, need - 1, text);
    out[n++] = '\n';
    int rc = fwrite(out, 1, n, f) == n ? 0 : -1;
    if (text != stack)
        free(text);
    if (out != out_stack)
        free(out);
    return rc;
}

int msgtext_print(FILE *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = msgtext_vprint(f, fmt, ap);
    va_end(ap);
    return rc;
}
