/* import.h - import_: `ptosim import`, a graph file rebuilt from a runtime capture. */
/* The capture: deps.json, the swimlane, scope stats. */
#ifndef PTOSIM_IMPORT_H
#define PTOSIM_IMPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "../cli/opt_table.h"
#include "import_opts.h"

/* Reads DFX_DIR (a run's dfx_outputs/: deps.json, and when present
 * chip_swimlane_records.json, scope_stats/scope_stats.jsonl and
 * name_map*.json) and writes a graph file to out; opt NULL = the defaults.
 * Returns 0, or -1 with a message naming the file in err. */
int import_capture(const char *dfx_dir, const import_opts *opt, FILE *out, char *err, size_t errlen);

/* Refuses a capture folder whose files or folders an import reads (deps.json, the swimlane, a name map,
 * scope_stats/ and args_dump/ and every entry in those two) include a symbolic link: what a link in a
 * folder someone sent points to is none of the capture's, and is neither read nor taken for absent.
 * Returns 0, or -1 with "DIR/NAME: is a symbolic link, ..." in err (import_capture checks it first). */
int import_check_links(const char *dir, char *err, size_t errlen);

/* The largest window (bytes) a stream of the last import_capture held, or the size of a file it read whole:
 * deps.json and the swimlane are read a value at a time, so this stays at sim/json/json_stream.h's window however
 * large they are, unless the stream refused one (tests). */
size_t import_peak_window(void);

/* import's options: --costs and the options of --costs perf-sim (parsing, --help and completion read it). */
extern const opt_table import_options;

/* `ptosim import DFX_DIR`: the graph on stdout. Returns an exit status. */
int import_main(int argc, char **argv);

#endif
