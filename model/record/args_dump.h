/* args_dump.h - argsdump_: args dump records, args.bin and args_dump.json (model/README.md §16.5). */
#ifndef PTOSIM_ARGS_DUMP_H
#define PTOSIM_ARGS_DUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../graph/graph_reader.h"

typedef enum { DUMP_BEFORE_DISPATCH, DUMP_AFTER_COMPLETION } dump_stage;
typedef enum { DUMP_INPUT, DUMP_OUTPUT, DUMP_INOUT } dump_role;

/* How args.bin holds payloads whose values the graph does not give. */
typedef enum {
    DUMP_PAYLOAD_SPARSE,  /* zeros, left as holes: a multi-GB dump costs no disk, offsets stay true */
    DUMP_PAYLOAD_PATTERN, /* every element written: its logical index modulo 256, in its dtype */
} dump_payload_mode;

/* One manifest entry: an argument captured at one stage of one task. */
typedef struct dump_rec {
    uint64_t task_id;
    int32_t func[3];    /* active kernel ids in slot order */
    uint8_t nfunc;      /* how many */
    uint8_t stage;      /* dump_stage */
    uint8_t role;       /* dump_role */
    uint8_t scalar;     /* kind: 1 scalar, 0 tensor */
    uint8_t dtype;      /* element type */
    uint8_t ndim;       /* view rank */
    bool contiguous;    /* row-major contiguous view */
    bool payload;       /* the payload is copied (selected) */
    bool truncated;     /* larger than the arena: only arena/2 copied */
    bool dropped;       /* lost on the device (a park passed the backstop) */
    uint8_t thread;     /* AICPU thread that captured it */
    uint16_t arg_index; /* tensor slot, or tensors + scalar index */
    int64_t shape[GRAPH_MAX_DIMS];
    int64_t strides[GRAPH_MAX_DIMS];
    uint64_t start_offset; /* element offset of the view origin */
    uint64_t numel;        /* elements (1 for scalars) */
    double value;          /* scalar value */
    uint64_t bin_size;     /* payload bytes (after truncation; 0 without payload) */
    uint64_t bin_offset;   /* where the writer put them in args.bin */
    bool persisted;        /* the host writer has written it */
    uint32_t values;       /* 1 + index of its known element values, 0 = unknown */
} dump_rec;

/* The records of a run and the args.bin being written. */
typedef struct argsdump {
    int level;              /* 1 partial, 2 full, 3 hybrid */
    dump_payload_mode mode; /* payload fill */
    uint64_t arena;         /* per-thread payload arena, bytes */
    dump_rec *recs;         /* in capture order */
    size_t n, cap;
    double *vals; /* known element values, concatenated */
    size_t nvals, valcap;
    uint64_t *val_start; /* [values - 1] -> offset in vals */
    size_t nvalsets, valsetcap;
    FILE *bin;                /* args.bin being written (NULL: not opened yet) */
    uint64_t bin_end;         /* bytes placed in args.bin */
    uint64_t payload_written; /* records with a payload written */
    uint64_t persisted;       /* records the writer has handled */
    uint64_t dropped;         /* records lost on the device */
} argsdump;

int argsdump_init(argsdump *d, int level, dump_payload_mode mode, uint64_t arena);
void argsdump_free(argsdump *d);

/* Adds a captured record (values: its numel element values, or NULL) and
 * returns its index, or -1 when out of memory. Sizes the payload: numel x
 * element size when selected, arena/2 and truncated when that exceeds the
 * arena. */
long argsdump_add(argsdump *d, const dump_rec *r, const double *values);

/* The host writer handles record i: places its payload at the end of
 * args.bin and writes it. Returns 0, or -1 on an I/O error. */
int argsdump_persist(argsdump *d, size_t i);

/* Finishes args.bin: extends it over a trailing hole. Returns 0 or -1. */
int argsdump_finish_bin(argsdump *d);

/* Writes args_dump.json: counts, then the entries sorted by task id, stage,
 * arg index and role (model/README.md §16.5). Records the writer never handled
 * are listed without payload. Returns 0, or -1 with a message in err. */
int argsdump_write_manifest(const argsdump *d, const char *path, bool bin_written, char *err, size_t errlen);

#endif
