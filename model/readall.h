/* readall.h - a whole file read into one NUL-terminated buffer. */
#ifndef PTOSIM_READALL_H
#define PTOSIM_READALL_H

#include <stddef.h>
#include <stdio.h>

/* Reads the rest of f into a malloc'd buffer (the caller frees) with a NUL
 * after the last byte; *len gets the number of bytes read. Returns NULL with
 * errno ENOMEM, or EIO after a read error; f stays open either way. */
char *readall(FILE *f, size_t *len);

#endif
