/* readall.c - a whole file read into one NUL-terminated buffer, growing by doubling. */
#include "readall.h"

#include <errno.h>
#include <stdlib.h>

char *readall(FILE *f, size_t *len)
{
    size_t cap = 1 << 16, n = 0, got;
    char *buf = malloc(cap + 1);
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n < cap)
            continue;
        if (cap > ((size_t)-1 - 1) / 2) { /* the doubled size (+1 for the NUL) would wrap */
            free(buf);
            errno = ENOMEM;
            return NULL;
        }
        char *nb = realloc(buf, 2 * cap + 1);
        if (!nb) {
            free(buf);
            errno = ENOMEM;
            return NULL;
        }
        buf = nb;
        cap *= 2;
    }
    if (!buf) {
        errno = ENOMEM;
        return NULL;
    }
    if (ferror(f)) {
        free(buf);
        errno = EIO;
        return NULL;
    }
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}
