/* readall.c - a whole file read into one NUL-terminated buffer, at most its kind's cap. */
#include "readall.h"

#include "userdir.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct {
    size_t cap;
    const char *what;
} KINDS[] = {
    [READALL_PLATFORM] = {(size_t)1 << 20, "a platform file"},
    [READALL_RUN] = {(size_t)64 << 20, "a run file"},
    [READALL_TABLE] = {(size_t)64 << 20, "a table"},
    [READALL_SWEEP] = {(size_t)1 << 30, "a sweep's file"},
    [READALL_RECORDS] = {(size_t)8 << 30, "a record file"},
};

size_t readall_cap(readall_kind k)
{
    return KINDS[k].cap;
}

/* Refuses a file of size bytes (0: unknown, more than the cap) as too big for kind k. */
static char *too_big(readall_kind k, unsigned long long size, char *why, size_t whylen)
{
    size_t cap = KINDS[k].cap;
    char c[32]; /* the cap in its largest whole unit */
    if (cap % ((size_t)1 << 30) == 0)
        snprintf(c, sizeof(c), "%zu GiB", cap >> 30);
    else
        snprintf(c, sizeof(c), "%zu MiB", cap >> 20);
    if (why && whylen && size)
        snprintf(why, whylen, "%llu bytes, over the %s cap for %s", size, c, KINDS[k].what);
    else if (why && whylen)
        snprintf(why, whylen, "over the %s cap for %s", c, KINDS[k].what);
    errno = EFBIG;
    return NULL;
}

char *readall(FILE *f, readall_kind kind, size_t *len, char *why, size_t whylen)
{
    const size_t max = KINDS[kind].cap;
    struct stat st;
    bool reg = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode);
    if (reg && (unsigned long long)st.st_size > max) /* before a byte is read: a sparse file costs nothing */
        return too_big(kind, (unsigned long long)st.st_size, why, whylen);
    /* a regular file's size read at once (and one byte more, to see it end); else 64 KiB, doubling */
    size_t cap = reg && (size_t)st.st_size >= (1 << 16) ? (size_t)st.st_size + 1 : 1 << 16, n = 0, got;
    char *buf = malloc(cap + 1);
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n > max) { /* a FIFO, a device or a file grown while read: it has no size to refuse it by */
            free(buf);
            struct stat now;
            bool sized = reg && fstat(fileno(f), &now) == 0 && (unsigned long long)now.st_size > max;
            return too_big(kind, sized ? (unsigned long long)now.st_size : 0, why, whylen);
        }
        if (n < cap)
            continue;
        size_t grown = cap > max / 2 ? max + 1 : 2 * cap; /* past max + 1 is never needed */
        char *nb = realloc(buf, grown + 1);
        if (!nb) {
            free(buf);
            errno = ENOMEM;
            return NULL;
        }
        buf = nb;
        cap = grown;
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

FILE *readall_open(const char *path)
{
    int fd = userdir_open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC, 0); /* no link below a named folder */
    if (fd < 0)
        return NULL;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        int e = S_ISREG(st.st_mode) ? errno : EINVAL;
        close(fd);
        errno = e;
        return NULL;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return NULL;
    }
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        int e = errno;
        close(fd);
        errno = e;
    }
    return f;
}

const char *readall_why(int e)
{
    return e == EINVAL ? "not a regular file" : userdir_why(e);
}
