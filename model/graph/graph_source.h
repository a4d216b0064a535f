/* graph_source.h - gsrc_: where a graph file's bytes come from. */
/* "-" is standard input, gzip is decompressed, a UTF-8 BOM is dropped, and an input that can be read only
 * once is spooled to a file that can be read again. */
#ifndef PTOSIM_GRAPH_SOURCE_H
#define PTOSIM_GRAPH_SOURCE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define GSRC_STDIN "-"            /* the graph argument that names standard input */
#define GSRC_STDIN_NAME "<stdin>" /* ... and how messages name it */

/* Opens a graph for reading, positioned on its first byte of text: "-" is
 * standard input, a gzip stream (by its magic bytes, whatever the name) is
 * decompressed and a UTF-8 byte order mark at the start is skipped. A plain
 * regular file comes back as an ordinary stream. NULL with errno set. A read
 * of damaged gzip data fails with errno EBADMSG; gsrc_strerror says what. */
FILE *gsrc_open(const char *path);

/* What a failed read's errno means, on the thread that read: zlib's message
 * for damaged gzip data, else strerror(e). */
const char *gsrc_strerror(int e);

/* The name messages and files give path: the name the user gave for a
 * spooled copy, "<stdin>" for "-", else path itself. */
const char *gsrc_name(const char *path);

/* True when path can be read only once: "-", a FIFO, a character device
 * (/dev/stdin on a pipe) or a socket. A path that does not exist is not: the
 * open will say so. */
bool gsrc_read_once(const char *path);

/* Stops every graph reading of this process (a copy below, graph_next,
 * graph_validate, a compile) at its next line or block once *flag is
 * non-zero: a SIGINT or SIGTERM while a sweep reads and compiles its graph
 * ends it then, not after a graph of millions of lines. The reading fails
 * with "interrupted" (gsrc_stopped says it was this). NULL: no flag. */
void gsrc_stop_on(const volatile sig_atomic_t *flag);

/* Is the flag gsrc_stop_on gave set? */
bool gsrc_stopped(void);

/* Graph text hashed at most: SHA-256 runs at about 300 MB/s here, so a larger graph's digest would cost a
 * run about as much CPU as reading the graph. */
#define GSRC_HASH_MAX (32ull << 20)

/* The SHA-256 of the graph at path as a reader reads it (gsrc_open: gzip decompressed, a BOM dropped; a
 * spooled copy's bytes for a pipe), as 64 lowercase hex digits and a NUL in hex. The last digest is kept by
 * the file's identity (device, inode, size, mtime), so processes forked after it do not hash again. Returns
 * 0; 1 for a graph past GSRC_HASH_MAX bytes (hex empty: not hashed); or -1 with what failed in err. */
int gsrc_sha256(const char *path, char hex[65], char *err, size_t errlen);

/* Copies the graph at path (decompressed, without its BOM) to the new file
 * dst, written whole or not at all; gsrc_name(dst) then names path. Returns
 * 0; 1 when path cannot be opened or read, -1 when the copy cannot be
 * written (with what failed in err). The copy is not checked as a graph. */
int gsrc_spool(const char *path, const char *dst, char *err, size_t errlen);

/* Copies the graph at path into an unnamed temporary file ($TMPDIR, else
 * /tmp) that lives as long as this process and the children it forks, and
 * puts a path that opens it in out ("/proc/self/fd/N"). Nothing is left
 * behind however the process ends. Returns as gsrc_spool. */
int gsrc_spool_temp(const char *path, char *out, size_t outlen, char *err, size_t errlen);

#endif
