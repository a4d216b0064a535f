/* collector.h - the host-side args-dump collector as SimGrid actors. */
/* Drain threads, the payload copy over the collector link, one writer. */
#ifndef PTOSIM_COLLECTOR_H
#define PTOSIM_COLLECTOR_H

#include <stdio.h>

#include "../../model/engine/chip_engine.h"

/* Host-side figures of a run, for ptosim_run.json. */
typedef struct collector_stats {
    double done_s;                /* SimGrid time when the writer finished (host drain end) */
    uint64_t records;             /* metadata records collected */
    uint64_t bytes_written;       /* payload bytes written to args.bin */
    uint64_t bytes_at_device_end; /* ... when the device finished */
    int reconciled_threads;       /* threads whose un-flushed buffer the host recovered */
} collector_stats;

/* Starts the collector actors for chip c (args dump on) from inside the
 * engine actor and plugs them in as c->dump.host. Progress lines go to log. */
void collector_start(chip *c, FILE *log);

/* After the device finished (or died) at the chip's end time: the last
 * buffers are flushed (or recovered by the reconcile), and the engine waits
 * until the writer has written everything. */
void collector_finish(chip *c, collector_stats *st);

#endif
