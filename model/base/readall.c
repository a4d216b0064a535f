/* readall.c - a whole file read into one NUL-terminated buffer, growing by doubling. */
#include "readall.h"

#include "userdir.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
