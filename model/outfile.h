/* outfile.h - output files written whole or not at all, and unnamed scratch files. */
#ifndef PTOSIM_OUTFILE_H
#define PTOSIM_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

typedef struct outfile {
    FILE *f;         /* the open temporary file */
    char path[4096]; /* final name */
    char tmp[4200];  /* temporary name beside it */
    char *buf;       /* stdio buffer (1 MiB) */
} outfile;

/* Opens PATH.tmp for writing. Returns the stream, or NULL with a message in err. */
FILE *outfile_open(outfile *o, const char *path, char *err, size_t errlen);

/* Flushes, closes and renames the file into place. Returns 0, or -1 with a
 * message in err (the temporary file is removed). */
int outfile_commit(outfile *o, char *err, size_t errlen);

/* Closes and removes the temporary file. */
void outfile_abort(outfile *o);

/* An unlinked temporary file named after prefix in $TMPDIR (else /tmp), open
 * for reading and writing and closed on exec; *dir (may be NULL) gets the
 * folder. Nothing is left behind however the process ends. Returns the
 * descriptor, or -1 with errno set. */
int outfile_temp_fd(const char *prefix, const char **dir);

/* Creates a directory and its parents (mkdir -p). Returns 0, or -1 with a message in err. */
int outfile_mkdirs(const char *dir, char *err, size_t errlen);

#endif
