/* import_read.h - import_read_: the capture's files read into the importer (import_read.c). */
#ifndef PTOSIM_IMPORT_READ_H
#define PTOSIM_IMPORT_READ_H

#include "import_state.h"

/* deps.json: its tensors, tasks with their args, and edges; the rings' ids indexed, the ids deps.json does not
 * list made alloc_tensors calls. Read a value at a time when the file suits the stream, else whole. Returns 0
 * or -1. */
int import_read_deps(importer *im);

/* The swimlane (optional): median execution times per task and per func id, and the tasks a sync-start drain
 * placed marked sync_start. Returns 0 or -1. */
int import_read_swimlane(importer *im);

/* The name map (optional): kernel names by func id, the graph's and the orchestrator's name. */
void import_read_name_map(importer *im);

/* Scope stats (optional): the rings' capacities and every scope sample; the rings' counts from their last
 * samples. Returns 0 or -1. */
int import_read_scope_stats(importer *im);

#endif
