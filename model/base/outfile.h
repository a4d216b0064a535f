/* outfile.h - output files written whole or not at all, and unnamed scratch files. */
#ifndef PTOSIM_OUTFILE_H
#define PTOSIM_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct outfile {
    FILE *f;         /* the open temporary file */
    char path[4096]; /* final name */
    char tmp[4200];  /* temporary name beside it */
    char *buf;       /* stdio buffer (1 MiB) */
    int made;        /* tmp is this outfile's file, not yet renamed (abort removes it) */
    int dir;         /* the folder path lies in, reached without a link below a folder the user named
                      * (userdir.h); AT_FDCWD when path lies below none */
    bool own_dir;    /* dir is open (closed by commit and abort) */
    size_t base;     /* where path's (and tmp's) name in dir starts: 0 with AT_FDCWD */
} outfile;

/* Creates PATH.tmp for writing with O_CREAT|O_EXCL|O_NOFOLLOW: nothing already
 * there is written through. A regular file of that name (a killed run's) is
 * replaced; a symbolic link, a folder or anything else is refused. Below a
 * folder the user named, the folders on the way are not followed either
 * (userdir.h). Returns the stream, or NULL with a message in err naming path. */
FILE *outfile_open(outfile *o, const char *path, char *err, size_t errlen);

/* Flushes, closes and renames the file into place (a symbolic link at path is
 * replaced, not followed). Returns 0, or -1 with a message in err (the
 * temporary file is removed). */
int outfile_commit(outfile *o, char *err, size_t errlen);

/* fprintf, counting a failure: glibc's vfprintf can fail for want of memory (a scratch buffer for a format
 * with many conversions) after writing part of the text and without setting the stream's error flag, so
 * ferror() alone would let the cut file through. Output files and the texts that go into them are written
 * with this; once one such write failed in the process, outfile_commit refuses every file (the cut text
 * may be one built in memory first, bound for any file). Returns what vfprintf returns. */
int outfile_printf(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* x in decimal, without printf: the writers of large files (an imported capture's graph) put hundreds of
 * thousands of numbers. A failed write sets the stream's error flag, as fputs does. */
void outfile_put_u64(FILE *f, uint64_t x);
void outfile_put_i64(FILE *f, int64_t x);

/* How many outfile_printf calls (or outfile_note_failure) have failed in this process. */
unsigned long outfile_print_failures(void);

/* Counts as a failed write: something an output's text depends on could not be worked out (out of
 * memory), so no file is committed rather than one that says less, or otherwise, than the run's. */
void outfile_note_failure(void);

/* Closes and removes the temporary file, when outfile_open created it. */
void outfile_abort(outfile *o);

/* An unlinked temporary file named after prefix in $TMPDIR (else /tmp), open
 * for reading and writing and closed on exec; *dir (may be NULL) gets the
 * folder. Nothing is left behind however the process ends. Returns the
 * descriptor, or -1 with errno set. */
int outfile_temp_fd(const char *prefix, const char **dir);

/* Creates a directory and its parents (mkdir -p); below a folder the user named, through no link (a link
 * there: "PATH: is a symbolic link, ..."). Returns 0, or -1 with a message in err. */
int outfile_mkdirs(const char *dir, char *err, size_t errlen);

/* A folder ptosim names inside one the user gave (a sweep's point, a session's
 * program): made (with its parents) when missing; one already there is used
 * only when it is a folder itself, never through a symbolic link. A link or a
 * file there is refused, or with replace removed (its name alone: what a link
 * points to is left as it is) and a folder made in its place. Returns 0, 1
 * when something was replaced, or -1 with a message in err naming dir. */
int outfile_own_dir(const char *dir, int replace, char *err, size_t errlen);

#endif
