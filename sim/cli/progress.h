/* progress.h - a progress line on stderr for long runs and long work (compiles), as stderr allows. */
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

/* How much long work (Perf-Sim's compiles and runs) says on stderr: nothing (--quiet), a line per step
 * (stderr is no terminal: a log stays readable), or one line redrawn in place (a terminal). */
typedef enum { PROGRESS_QUIET, PROGRESS_LINES, PROGRESS_TERMINAL } progress_mode;

/* PROGRESS_QUIET when quiet, else by whether stderr is a terminal. */
progress_mode progress_mode_of(bool quiet);

/* Host seconds on a monotonic clock, for display only. */
double progress_now(void);

/* Redraws the one line on stderr in place (no newline), or clears it (fmt NULL). */
void progress_redraw(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
