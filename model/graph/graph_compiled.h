/* graph_compiled.h - gcomp_: a compiled graph: a graph's operations parsed once, as records runs map. */
/* Runs map the records instead of parsing the graph again. */
#ifndef PTOSIM_GRAPH_COMPILED_H
#define PTOSIM_GRAPH_COMPILED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "graph_reader.h"

#define GCOMP_MAGIC "PTOSIMGC" /* the file's first 8 bytes */
#define GCOMP_FORMAT 1         /* bumped whenever the head or the records change meaning */
#define GCOMP_HEAD_BYTES 128   /* the head's size; the records follow, 8-byte aligned */
#define GCOMP_STALE 1          /* gcomp_open: a whole compiled graph, but of another version of the source */
#define GCOMP_DIFFERS 2        /* gcomp_verify: a whole compiled graph, but not what its source compiles to */

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
    char path[4096];           /* the compiled file, for messages */
    gcomp_head head;           /* its head (also filled when gcomp_open says GCOMP_STALE) */
    const unsigned char *recs; /* the records, inside the mapping */
    void *map;                 /* the mapping, NULL when none */
    size_t map_bytes;          /* its length */
} gcomp;

/* What the records read so far have bound to a tensor slot, as the text reader's graph_tensor: what a later
 * record's view of that slot is checked against. */
typedef struct gcomp_slot {
    int dtype;              /* element type, -1 = nothing bound yet */
    uint64_t numel;         /* elements of the tensor */
    uint64_t storage_numel; /* elements of its storage */
} gcomp_slot;

/* Where a run is in a compiled graph's records, and what the records before it bound (tensor slots, labels,
 * open scopes), so that each record is range-checked as graph_next checks each line. Start it zeroed with
 * .gc set; gcomp_cursor_free releases it. */
typedef struct gcomp_cursor {
    const gcomp *gc;   /* the graph */
    size_t pos;        /* offset of the next record */
    bool started;      /* slots filled from the header */
    gcomp_slot *slots; /* per tensor slot: the header's external tensors, then the outputs bound */
    size_t nslots;     /* slots in use */
    size_t slots_cap;  /* allocated entries of slots */
    long nlabels;      /* task labels bound so far */
    int depth;         /* user scopes open */
    long last_line;    /* line of the previous record */
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
 * compiled from as it is now: the same size and a hash of its bytes equal to
 * the head's src_hash (not its modification time: a file rewritten with the
 * same size and time is another graph). Returns 0 with gc ready;
 * GCOMP_STALE when only the last check failed ("SRC does not match PATH: ..."
 * in err, gc->head filled, no mapping kept); -1 with what is wrong in err. */
int gcomp_open(gcomp *gc, const char *path, const char *src, char *err, size_t errlen);

/* gcomp_compile, then maps into gc the very file it wrote (not whatever its
 * name holds by then) and checks it as gcomp_open does. Returns as
 * gcomp_compile; gc is ready on 0. */
int gcomp_compile_map(gcomp *gc, const char *src, const char *out, char *err, size_t errlen);

/* Compiles src again, in memory, and compares its records with gc's byte
 * for byte: a compiled graph is never trusted over the graph it claims to be
 * (its hashes are no signature: a record changed under recomputed hashes
 * passes them, and its values may stay in range). Returns 0 when they are
 * the same; GCOMP_DIFFERS ("PATH is not what SRC compiles to: its records
 * differ from the graph's at byte N" in err); 1 for a malformed src, -1 for
 * I/O or memory (message in err). */
int gcomp_verify(const gcomp *gc, const char *src, char *err, size_t errlen);

/* Unmaps. */
void gcomp_close(gcomp *gc);

/* Hashes a whole file with gcomp_hash. Returns 0, or -1 with errno set. */
int gcomp_hash_file(const char *path, uint64_t *out);

/* The next operation, as graph_next (1; 0 at the end), also advancing
 * g->line and g->nops; g holds the source's header (graph_open). Each record
 * is checked before it is given: that it is whole, and that every kernel,
 * tensor slot, label, dependency, shape, view, dtype, flag and cost is in
 * range for g's header and the records before it, as graph_next checks a
 * line; -1 with "PATH: the record at byte N (line L of SRC): FIELD: what is
 * wrong" in err otherwise, or for a scope left open at the end. Pointers in
 * op point into the mapping. */
int gcomp_next(gcomp_cursor *cur, graph *g, graph_op *op, char *err, size_t errlen);

/* Frees what the cursor keeps (not the graph). */
void gcomp_cursor_free(gcomp_cursor *cur);

#endif
