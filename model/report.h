/* report.h - what a run tells its user: ptosim_run.json, the name map, and the stdout summary. */
#ifndef PTOSIM_REPORT_H
#define PTOSIM_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "chip.h"

/* Facts about the run that live outside the chip model. */
typedef struct report_info {
    const char *version;       /* ptosim version */
    const char *graph_path;    /* graph file */
    const char *const *sg_cfg; /* SimGrid configuration items, "key:value" */
    int nsg_cfg;
    double host_seconds;        /* host time of the simulation, < 0 = not measured */
    double simgrid_clock;       /* SimGrid's clock at the end, seconds */
    int exit_code;              /* exit status the program will return */
    const char *const *outputs; /* files written under the work dir */
    int noutputs;
    /* the host-side args dump collector (dump on) */
    double dump_host_done_s;      /* when the writer finished, seconds */
    uint64_t dump_written_at_end; /* payload bytes written when the device finished */
    uint64_t dump_written;        /* payload bytes written in all */
    int dump_reconciled;          /* threads whose un-flushed buffer the host recovered */
} report_info;

/* Outcome keyword for a status: "ok", "runtime_error", "stalled", "error". */
const char *report_status_name(chip_status s);

/* Writes ptosim_run.json. Returns 0, or -1 with a message in err. */
int report_write_run(const chip *c, const report_info *ri, const char *path, char *err, size_t errlen);

/* Writes name_map_<graph>.json (formats.md §0.6). Returns 0, or -1 with a message in err. */
int report_write_name_map(const graph *g, const char *path, char *err, size_t errlen);

/* Prints the run as CSV: a header line and one row (for sweeps). Per-ring
 * values are joined with '/'. */
void report_csv(const chip *c, const report_info *ri, FILE *out, bool header);

/* The header line report_csv prints, newline included. */
extern const char report_csv_header[];

/* True when profiling self-costs shaped the simulated makespan: a task
 * pickup waited on a swimlane record commit, or the PMU forced single issue. */
bool report_perturbed(const chip *c);

/* The run's bottleneck pipe: the busiest pipe of the pipe-model kernel
 * with the most time on cores. False when no kernel has a pipe model. */
bool report_bottleneck(const chip *c, int *func, int *pipe, double *fraction);

/* Prints what the host says when a run fails (nothing for CHIP_DONE): for a
 * runtime fatal the runtime's own host lines, byte for byte, then ptosim's
 * context, each line of which starts "ptosim: ". */
void report_failure(const chip *c, FILE *f);

/* Prints the short human summary. */
void report_summary(const chip *c, const report_info *ri, FILE *out);

/* Busy fraction of one core type over the makespan, 0..1. */
double report_busy_fraction(const chip *c, core_type type);

#endif
