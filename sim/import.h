/* import.h - `ptosim import`: a graph file rebuilt from a runtime capture (deps.json, swimlane, scope stats).
 */
#ifndef PTOSIM_IMPORT_H
#define PTOSIM_IMPORT_H

#include <stddef.h>
#include <stdio.h>

/* Reads DFX_DIR (a run's dfx_outputs/: deps.json, and when present
 * chip_swimlane_records.json, scope_stats/scope_stats.jsonl and
 * name_map*.json) and writes a graph file to out. Returns 0, or -1 with a
 * message naming the file in err. */
int import_capture(const char *dfx_dir, FILE *out, char *err, size_t errlen);

/* `ptosim import DFX_DIR`: the graph on stdout. Returns an exit status. */
int import_main(int argc, char **argv);

#endif
