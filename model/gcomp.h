/* gcomp.h - a compiled graph: a graph file's operations parsed and checked once, as records runs map instead
 * of reparsing. */
#ifndef PTOSIM_GCOMP_H
#define PTOSIM_GCOMP_H

#include <stddef.h>
#include <stdint.h>

#include "graph.h"

#define GCOMP_MAGIC "PTOSIMGC" /* the file's first 8 bytes */
#define GCOMP_FORMAT 1         /* bumped whenever the head or the records change meaning */
#define GCOMP_HEAD_BYTES 128   /* the head's size; the records follow, 8-byte aligned */
#define GCOMP_STALE 1          /* gcomp_open: a whole compiled graph, but of another version of the source */

/* The file's head, in the writer's byte order (oprec_layout covers it). */
typedef struct gcomp_head {
    char magic[8];                            /* GCOMP_MAGIC */
    uint32_t format;                          /* GCOMP_FORMAT */
    uint32_t head_bytes;                      /* GCOMP_HEAD_BYTES */
    uint64_t layout;                          /* oprec_layout() of the build that wrote it */
    uint64_t src_size;                        /* the source graph file's size ... */
    int64_t src_mtime_s;                      /* ... and modification time when it was compiled */
    int64_t src_mtime_ns;                     /* (nanoseconds part) */
    uint64_t src_hash;                        /* gcomp_hash of the source's bytes */
    uint64_t nops;                            /* operations recorded */
    uint64_t rec_bytes;                       /* bytes of records after the head */
    uint64_t rec_hash;                        /* gcomp_hash of those bytes */
    unsigned char pad[GCOMP_HEAD_BYTES - 80]; /* zero */
} gcomp_head;

/* A compiled graph mapped for reading. */
typedef struct gcomp {
    gcomp_head head;           /* its head (also filled when gcomp_open says GCOMP_STALE) */
    const unsigned char *recs; /* the records, inside the mapping */
    void *map;                 /* the mapping, NULL when none */
    size_t map_bytes;          /* its length */
} gcomp;

/* Where a run is in a compiled graph's records. */
typedef struct gcomp_cursor {
    const gcomp *gc; /* the graph */
    size_t pos;      /* offset of the next record */
} gcomp_cursor;

/* An incremental 64-bit hash (not cryptographic: it catches a damaged or
 * changed file, not a forged one). */
typedef struct gcomp_hasher {
    uint64_t lane[4];      /* four independent lanes, so the CPU overlaps them */
    uint64_t nwords;       /* 8-byte words mixed in */
    uint64_t nbytes;       /* bytes given */
    unsigned char tail[8]; /* bytes waiting for a whole word */
    size_t ntail;          /* how many */
} gcomp_hasher;

void gcomp_hash_init(gcomp_hasher *h);
void gcomp_hash_update(gcomp_hasher *h, const void *data, size_t n);
uint64_t gcomp_hash_final(const gcomp_hasher *h);

/* Parses and checks every line of the graph file src, as `ptosim validate`
 * does, and writes its operations to out (whole or not at all). Returns 0;
 * 1 when the graph is malformed ("FILE:LINE: field: what is wrong" in err,
 * nothing written); -1 for an I/O failure (message in err). */
int gcomp_compile(const char *src, const char *out, char *err, size_t errlen);

/* Maps the compiled graph at path and checks it: its magic, format and
 * layout, its length, the records' hash, and that src is the file it was
 * compiled from as it is now (size and modification time). Returns 0 with gc
 * ready; GCOMP_STALE when only the last check failed (gc->head filled, no
 * mapping kept); -1 with what is wrong in err. */
int gcomp_open(gcomp *gc, const char *path, const char *src, char *err, size_t errlen);

/* Unmaps. */
void gcomp_close(gcomp *gc);

/* Hashes a whole file with gcomp_hash. Returns 0, or -1 with errno set. */
int gcomp_hash_file(const char *path, uint64_t *out);

/* The next operation, as graph_next (1; 0 at the end), also advancing
 * g->line and g->nops; -1 with a message in err for a record that is not
 * whole. Pointers in op point into the mapping. */
int gcomp_next(gcomp_cursor *cur, graph *g, graph_op *op, char *err, size_t errlen);

#endif
