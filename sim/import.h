/* import.h - `ptosim import`: a graph file rebuilt from a runtime capture (deps.json, swimlane, scope stats).
 */
#ifndef PTOSIM_IMPORT_H
#define PTOSIM_IMPORT_H

#include <stddef.h>
#include <stdio.h>

/* Where an imported graph's kernel times come from. */
typedef enum {
    IMPORT_COSTS_AUTO,     /* the swimlane's on silicon (72 cores); the model's on a simulator or without one */
    IMPORT_COSTS_SWIMLANE, /* the medians of the capture's swimlane times */
    IMPORT_COSTS_MODEL,    /* pipe forms derived from each kernel's args (kcost.h) */
} import_costs;

/* Options of an import. */
typedef struct import_opts {
    import_costs costs;     /* where kernel times come from */
    const char *costs_file; /* a table of kernel costs that overrides the model (JSON or CSV), NULL = none */
} import_opts;

/* Reads DFX_DIR (a run's dfx_outputs/: deps.json, and when present
 * chip_swimlane_records.json, scope_stats/scope_stats.jsonl and
 * name_map*.json) and writes a graph file to out; opt NULL = the defaults.
 * Returns 0, or -1 with a message naming the file in err. */
int import_capture(const char *dfx_dir, const import_opts *opt, FILE *out, char *err, size_t errlen);

/* `ptosim import DFX_DIR`: the graph on stdout. Returns an exit status. */
int import_main(int argc, char **argv);

#endif
