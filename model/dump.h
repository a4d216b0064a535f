/* dump.h - args dump on the device: which args each task dumps, the capture points, the AICPU's copy cost. */
#ifndef PTOSIM_DUMP_H
#define PTOSIM_DUMP_H

#include <stdbool.h>
#include <stdint.h>

#include "argsdump.h"
#include "graph.h"
#include "simtime.h"

struct chip;
struct task;

/* What one task will dump, captured at submit (the op's args are gone by dispatch). */
typedef struct dump_desc {
    int n;          /* records (both stages) */
    dump_rec *recs; /* templates */
    double **vals;  /* known element values per record, or NULL */
    bool before_done;
} dump_desc;

/* Device-side costs and sizes (hardware.md §4.2). */
typedef struct dump_params {
    ps_t record;       /* AICPU: one 128-B metadata record */
    double copy_bps;   /* AICPU memcpy into the arena, contiguous views */
    double gather_bps; /* ... strided views, gathered element by element */
    uint64_t arena;    /* payload arena per thread, bytes */
} dump_params;

/* Known values of one tensor binding (only tensors the graph gave data for). */
typedef struct dump_tvals {
    uint64_t numel; /* elements of the buffer */
    double *v;      /* NaN = unknown */
} dump_tvals;

typedef struct dump_state {
    int level;      /* 0 off, 1 partial, 2 full, 3 hybrid */
    dump_params p;  /* costs and sizes */
    argsdump ad;    /* the records and args.bin */
    dump_tvals *tv; /* per graph tensor slot */
    size_t ntv;     /* entries of tv */
    uint64_t tasks; /* tasks that dumped something */
    uint64_t bytes; /* payload bytes copied into arenas */
    ps_t copy_ps;   /* AICPU time spent capturing */
} dump_state;

/* Starts the dump state of a run at level (1-3). Returns 0 or -1 (memory). */
int dump_init(dump_state *d, int level, const dump_params *p, dump_payload_mode mode);

void dump_free(dump_state *d);

/* At submit: builds the records task tk will capture (level 1: only tagged
 * args, or all of a tagged task; 2: all; 3: all, payload only where tagged)
 * and updates the known contents of the tensors its outputs write.
 * tensor_slots_used bounds the graph's tensor slots. Returns 0 or -1. */
int dump_submit(struct chip *c, struct task *tk, const graph_op *op);

/* A capture point of tk on scheduler thread ti at time t: copies the
 * stage's records into the thread's arena. Returns the AICPU time it took. */
ps_t dump_capture(struct chip *c, int ti, struct task *tk, dump_stage stage, ps_t t);

/* Frees a task's records (after its last capture, or when it never runs). */
void dump_desc_free(dump_desc *dd);

#endif
