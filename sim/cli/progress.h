/* progress.h - a progress line on stderr for long runs, when stderr is a terminal. */
#ifndef PTOSIM_PROGRESS_H
#define PTOSIM_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

struct chip;

/* The line appears once a run has taken PROGRESS_AFTER_MS of host time
 * ($PTOSIM_PROGRESS_AFTER_MS overrides it, for tests) and is redrawn at most
 * every PROGRESS_EVERY_MS. It reads the host clock for display only: nothing
 * it sees flows back into the model. */
#define PROGRESS_AFTER_MS 1000
#define PROGRESS_EVERY_MS 250

typedef struct progress {
    bool on;              /* stderr is a terminal */
    bool shown;           /* a line is on screen */
    double start, last;   /* host seconds: start, last redraw */
    double after;         /* seconds before the first line */
    uint64_t graph_bytes; /* size of the graph file, 0 if unknown */
} progress;

/* Starts timing a run of graph_path. */
void progress_start(progress *p, const char *graph_path);

/* chip on_progress hook (arg is the progress). */
void progress_tick(const struct chip *c, void *arg);

/* Clears the line, if one is shown. */
void progress_end(progress *p);

#endif
