/* fuzzutil.h - what the fuzz targets share: a scratch file per process on tmpfs. */
#ifndef PTOSIM_FUZZUTIL_H
#define PTOSIM_FUZZUTIL_H

#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* A path under /dev/shm (else /tmp) private to this process, ending in name. */
static inline void fuzz_scratch_path(char *out, size_t len, const char *name)
{
    const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(out, len, "%s/ptosim-fuzz-%d-%s", base, (int)getpid(), name);
}

/* Replaces path's content with data. Returns 0, or -1. */
static inline int fuzz_write_file(const char *path, const uint8_t *data, size_t size)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0)
        return -1;
    size_t done = 0;
    while (done < size) {
        ssize_t n = write(fd, data + done, size - done);
        if (n <= 0) {
            close(fd);
            return -1;
        }
        done += (size_t)n;
    }
    return close(fd);
}

/* The parts of a multi-file input are split at this line. */
static const char FUZZ_SEP[] = "\n====\n";

/* The first FUZZ_SEP in [p, end), or NULL. */
static inline const uint8_t *fuzz_find_sep(const uint8_t *p, const uint8_t *end)
{
    size_t n = sizeof(FUZZ_SEP) - 1;
    for (; end - p >= (ptrdiff_t)n; p++)
        if (memcmp(p, FUZZ_SEP, n) == 0)
            return p;
    return NULL;
}

#endif
