/* fuzzutil.h - what the fuzz targets share: a scratch file per process on tmpfs. */
#ifndef PTOSIM_FUZZUTIL_H
#define PTOSIM_FUZZUTIL_H

#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
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

#endif
