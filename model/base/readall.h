/* readall.h - a whole file read into one NUL-terminated buffer, at most its kind's cap. */
#ifndef PTOSIM_READALL_H
#define PTOSIM_READALL_H

#include <stddef.h>
#include <stdio.h>

/* The kinds of file ptosim reads whole, each with a cap well past the largest it writes or a capture holds
 * (docs/reference/exit-status.md §"Files read whole"): a file past it is refused before it costs
 * its size in memory. */
typedef enum readall_kind {
    READALL_PLATFORM, /* a platform file: 1 MiB (a2a3.json is 2.4 KB) */
    READALL_RUN,      /* a run's or a worker's ptosim_run.json: 64 MiB (~10 KB; 1,024 kernels' rows ~1 MB) */
    READALL_TABLE,    /* a costs, kernels or values table, a name map: 64 MiB (a row per kernel) */
    READALL_SWEEP,    /* a sweep's points.csv, sweep.csv, sweep.cmd, a point's row.csv: 1 GiB (10^6 points) */
    READALL_RECORDS,  /* a run's or a capture's records (scope stats, pmu.csv, deps.json, the swimlane, the args
                         dump): 8 GiB (a 10^7-task run's scope_stats.jsonl is 4.1 GB) */
} readall_kind;

/* The most bytes a file of kind k may have. */
size_t readall_cap(readall_kind k);

/* Reads the rest of f into a malloc'd buffer (the caller frees) with a NUL after the last byte; *len gets
 * the number of bytes read. A file of more than kind's cap bytes is refused: a regular file by its size
 * (fstat) before a byte is read, anything else (a FIFO, a device) once it has given more. Returns NULL
 * with errno ENOMEM, EIO after a read error, or EFBIG for a file past the cap, when why (whylen bytes,
 * may be NULL) gets "SIZE bytes, over the CAP cap for KIND" (without SIZE when the file has none); f
 * stays open either way. */
char *readall(FILE *f, readall_kind kind, size_t *len, char *why, size_t whylen);

/* Opens path to read it whole, without blocking on a FIFO (O_NONBLOCK, cleared once open) and only when it
 * is a regular file: a device such as /dev/zero never ends and a FIFO may never answer, so neither is read.
 * Returns the stream, or NULL with errno set (EINVAL: not a regular file; readall_why says it in words). */
FILE *readall_open(const char *path);

/* errno e in words for a readall_open failure: "not a regular file" for EINVAL, else strerror(e). */
const char *readall_why(int e);

#endif
