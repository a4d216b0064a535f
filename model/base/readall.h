/* readall.h - a whole file read into one NUL-terminated buffer. */
#ifndef PTOSIM_READALL_H
#define PTOSIM_READALL_H

#include <stddef.h>
#include <stdio.h>

/* Reads the rest of f into a malloc'd buffer (the caller frees) with a NUL
 * after the last byte; *len gets the number of bytes read. Returns NULL with
 * errno ENOMEM, or EIO after a read error; f stays open either way. */
char *readall(FILE *f, size_t *len);

/* Opens path to read it whole, without blocking on a FIFO (O_NONBLOCK, cleared once open) and only when it
 * is a regular file: a device such as /dev/zero never ends and a FIFO may never answer, so neither is read.
 * Returns the stream, or NULL with errno set (EINVAL: not a regular file; readall_why says it in words). */
FILE *readall_open(const char *path);

/* errno e in words for a readall_open failure: "not a regular file" for EINVAL, else strerror(e). */
const char *readall_why(int e);

#endif
