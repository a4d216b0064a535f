/* conform.h - `ptosim conform`: re-simulates a runtime capture, compares what is not timing. */
#ifndef PTOSIM_CONFORM_H
#define PTOSIM_CONFORM_H

#include <stddef.h>
#include <stdio.h>

#include "../cli/opt_table.h"

#define CONFORM_MAX_LINES 20 /* difference lines printed per file; the rest are only counted */

/* Exit statuses of `ptosim conform` that differ from `ptosim run`'s
 * (docs/reference/exit-status.md §"By command"). */
enum {
    CONFORM_EXIT_DIFFERENT = 1, /* the comparison found a difference */
    CONFORM_EXIT_FAILED = 7, /* conform itself failed: I/O, memory, the run could not start or was killed */
};

/* Compares the dfx_outputs folder of a real runtime run (real_dir) with one of
 * ptosim (sim_dir) on what does not depend on timing (docs/explanation/checking.md
 * §"What is compared, and why not the rest"). Prints to report one line per difference
 * (at most CONFORM_MAX_LINES per file, then how many more), information
 * lines on what is not compared, and a verdict line. ptosim's heap arena is
 * located with the ring heap sizes of sim_dir's scope_stats header, else of
 * sim_dir/../ptosim_run.json, else the runtime's default. Returns the number
 * of differences (0 = equal), or -1 with a message naming the folder or file
 * in err: a missing folder, a real_dir without deps.json, a file that is not
 * JSON or not shaped as the runtime writes it. */
long conform_compare(const char *real_dir, const char *sim_dir, FILE *report, char *err, size_t errlen);

/* The largest window (bytes) one file's stream held in the last conform_compare or capture read, or the
 * size of a file it read whole: the comparison reads the files a value at a time, so this stays at
 * sim/json/json_stream.h's window however large they are, unless the stream refused one (tests). */
size_t conform_peak_window(void);

/* Whether the last comparison of deps.json walked both sides in step: each side is first reduced to a
 * digest (a hash per task and tensor, the sorted edge hashes, numbered as the walk numbers them), and only
 * sides whose digests do not agree, or that the digest cannot take whole, are walked (tests). */
int conform_walked(void); /* 1 walked, 0 the digests agreed, -1 no deps.json compared */

/* `ptosim conform`'s options, each declared once: its parsing, --help and completion read it. */
extern const opt_table conform_options;

/* Runs `ptosim conform` with the arguments after "conform". Returns the exit status. */
int conform_main(int argc, char **argv);

#endif
