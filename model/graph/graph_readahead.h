/* graph_readahead.h - readahead_: parses a graph file on a second thread, ahead of the simulation. */
#ifndef PTOSIM_GRAPH_READAHEAD_H
#define PTOSIM_GRAPH_READAHEAD_H

#include <stddef.h>

#include "graph_reader.h"

/* A reader thread that takes the graph file over, handing parsed
 * operations over in batches. It reads the whole file even after the
 * consumer stops, so its verdict is a full validation of the graph. */
typedef struct readahead readahead;

/* Starts reading g's file past the header on a new thread (g already holds
 * the header, and keeps it; its file goes to the thread, graph_handover). NULL
 * when no thread can be started: g still has its file, read with graph_next. */
readahead *readahead_start(graph *g);

/* The next operation, as graph_next (1, 0 at end of file, -1 with err); also
 * advances g->line and g->nops. Pointers in op stay valid until the next call. */
int readahead_next(readahead *ra, graph *g, graph_op *op, char *err, size_t errlen);

/* Waits until the reader has checked every line and frees it. Returns 0, or
 * -1 with the file's first error in err. */
int readahead_finish(readahead *ra, char *err, size_t errlen);

/* Stops the reader without waiting for the rest of the file and frees it. */
void readahead_cancel(readahead *ra);

#endif
