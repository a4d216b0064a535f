/* device_dump.h - dump_: the args dump on the device: which args, the capture points, the copy cost. */
#ifndef PTOSIM_DEVICE_DUMP_H
#define PTOSIM_DEVICE_DUMP_H

#include <stdbool.h>
#include <stdint.h>

#include "args_dump.h"
#include "../graph/graph_reader.h"
#include "../chip/platform.h"
#include "../base/simtime.h"

struct pf_trace;
struct task;

/* What one task will dump, captured at submit (the op's args are gone by dispatch). */
typedef struct dump_desc {
    int n;          /* records (both stages) */
    dump_rec *recs; /* templates */
    double **vals;  /* known element values per record, or NULL */
    bool before_done;
} dump_desc;

/* Device-side costs and sizes (model/README.md §14.1). */
typedef struct dump_params {
    ps_t record;          /* AICPU: one 128-B metadata record */
    double copy_bps;      /* AICPU memcpy into the arena, contiguous views */
    double gather_bps;    /* ... strided views, gathered element by element */
    uint64_t arena;       /* payload arena per thread, bytes */
    uint32_t buf_records; /* records per metadata buffer (256) */
    int buffers;          /* metadata buffers per thread (8) */
    int free_queue;       /* free-queue slots per thread (4) */
    int ready_queue;      /* ready-queue entries per thread (64) */
    ps_t backstop;        /* a park longer than this drops records instead (30 s) */
} dump_params;

/* Where a thread's dump can block (model/README.md §14.2). */
typedef enum {
    DUMP_GATE_FREE_BUFFER, /* a full metadata buffer needs a replacement from the free queue */
    DUMP_GATE_READY_SLOT,  /* publishing needs room in the ready queue */
    DUMP_GATE_ARENA,       /* wrapping the arena needs every published payload written by the host */
} dump_gate;

/* One AICPU thread's dump lane on the device. */
typedef struct dump_thread {
    uint32_t *cur;               /* records in the current metadata buffer */
    uint32_t ncur;               /* how many */
    int free_bufs;               /* buffers in the free queue */
    int ready;                   /* published buffers the host has not drained */
    uint64_t arena_pos;          /* bytes used in this arena cycle */
    uint64_t published_payloads; /* payload records in published buffers */
    uint64_t persisted_payloads; /* ... the host writer has written */
    uint64_t produced_bytes;     /* payload bytes copied into the arena */
    uint64_t parks;              /* times it parked */
    ps_t parked_ps;              /* time spent parked */
} dump_thread;

/* The host side as the device sees it: publish a sealed metadata buffer,
 * and block until a gate opens. The simulator's SimGrid collector provides
 * it; without one the host is infinitely fast. */
typedef struct dump_host {
    void *ctx;
    /* records recs[0..n) of thread ti form a buffer published at time t */
    void (*publish)(void *ctx, int ti, const uint32_t *recs, uint32_t n, ps_t t);
    /* blocks from time t until gate of thread ti opens or `limit`; returns when */
    ps_t (*wait)(void *ctx, int ti, dump_gate gate, ps_t t, ps_t limit);
} dump_host;

/* Known values of one tensor binding (only tensors the graph gave data for). */
typedef struct dump_tvals {
    uint64_t numel; /* elements of the buffer */
    double *v;      /* NaN = unknown */
} dump_tvals;

typedef struct dump_state {
    int level;             /* 0 off, 1 partial, 2 full, 3 hybrid */
    dump_params p;         /* costs and sizes */
    argsdump ad;           /* the records and args.bin */
    dump_tvals *tv;        /* per graph tensor slot */
    size_t ntv;            /* entries of tv */
    const dump_host *host; /* the collector, NULL = infinitely fast */
    dump_thread th[PLATFORM_MAX_AICPU_THREADS];
    ps_t freeze_until; /* the common-mode freeze holds every scheduler thread until then */
    ps_t kill_at;      /* a park cannot outlast the device's life (STARS / stream sync) */
    bool killed;       /* a park ran into kill_at */
    ps_t frozen_ps;    /* time the common-mode freeze held every scheduler thread (union of parks) */
    uint64_t tasks;    /* tasks that dumped something */
    uint64_t bytes;    /* payload bytes copied into arenas */
    ps_t copy_ps;      /* AICPU time spent capturing */
    struct pf_trace *pf; /* the Perfetto trace, for parks and arena fill, or NULL */
    const char *error;   /* what failed (out of memory) during a capture, for the engine to report; or NULL */
} dump_state;

/* Starts the dump state of a run at level (1-3). Returns 0 or -1 (memory). */
int dump_init(dump_state *d, int level, const dump_params *p, dump_payload_mode mode);

void dump_free(dump_state *d);

/* At submit: builds the records task tk will capture (level 1: only tagged
 * args, or all of a tagged task; 2: all; 3: all, payload only where tagged)
 * and updates the known contents of the tensors its outputs write.
 * tensor_slots_used bounds the graph's tensor slots. Returns 0 or -1. */
int dump_submit(dump_state *d, const graph *g, struct task *tk, const graph_op *op);

/* A capture point of tk on scheduler thread ti at time t: copies the
 * stage's records into the thread's arena. Returns the AICPU time it took;
 * a failure leaves its message in d->error. */
ps_t dump_capture(dump_state *d, int ti, struct task *tk, dump_stage stage, ps_t t);

/* Is the gate of thread ti open? (For the host side's waits.) */
bool dump_gate_open(const dump_state *d, int ti, dump_gate gate);

/* Host side: drained one published buffer of thread ti and recycled it
 * into the free queue. */
void dump_host_collected(dump_state *d, int ti);

/* Host side: the writer handled record i (payload written, if any). */
int dump_host_persisted(dump_state *d, size_t i);

/* End of the device's run at time t: each thread publishes its partial
 * buffer (dump_args_flush); after a kill the flush never ran and the host's
 * reconcile recovers them, reported through note (may be NULL). */
void dump_flush(dump_state *d, ps_t t, bool killed, void (*note)(int ti, uint32_t count, void *ctx),
                void *ctx);

/* Frees a task's records (after its last capture, or when it never runs). */
void dump_desc_free(dump_desc *dd);

/* The common-mode freeze that fell inside [0, end] (a run that ends with the threads still parked, an error
 * raised meanwhile, counts only what its makespan holds). Parks start while the device runs, so the union's
 * part past end is the one stretch that reaches freeze_until. */
static inline ps_t dump_frozen_before(const dump_state *d, ps_t end)
{
    ps_t past = d->freeze_until > end ? d->freeze_until - end : 0;
    return d->frozen_ps > past ? d->frozen_ps - past : 0;
}

#endif
