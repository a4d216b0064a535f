/* overhead.h - `ptosim overhead`: the scheduler-overhead model of a capture, and its text report. */
/* The capture: a swimlane and deps.json pair. */
#ifndef PTOSIM_OVERHEAD_H
#define PTOSIM_OVERHEAD_H

#include <stddef.h>
#include <stdio.h>

#include "../../model/analysis/overhead_model.h"
#include "../cli/opt_table.h"

/* `ptosim overhead`'s options (--deps-json; DIR or SWIMLANE its operand): its parsing, --help and completion
 * read them. */
extern const opt_table overhead_options;

/* Reads chip_swimlane_records.json (level 2 or more: dispatch and finish
 * times) and deps.json into a log: each aicpu_tasks row joined with its
 * aicore_tasks row on (core_id, reg_task_id), as the runtime's reader does
 * (unmatched rows are dropped and counted in *unmatched). *tick_hz gets the
 * counter frequency. Returns an exit status (cli.h) with the message in err. */
int overhead_load(const char *swimlane, const char *deps, exec_log *l, unsigned long long *tick_hz,
                  size_t *unmatched, char *err, size_t errlen);

/* Prints the model as a text report (the parts of sched_overhead_analysis
 * that describe the timeline, and the gap decomposition). */
void overhead_print(FILE *f, const ohm_result *r);

/* `ptosim overhead DIR|SWIMLANE [--deps-json FILE]`. Returns an exit status. */
int overhead_main(int argc, char **argv);

#endif
