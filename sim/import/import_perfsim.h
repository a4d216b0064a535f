/* import_perfsim.h - import_perfsim_: `import --costs perf-sim`, task signatures priced by Perf-Sim. */
#ifndef PTOSIM_IMPORT_PERFSIM_H
#define PTOSIM_IMPORT_PERFSIM_H

#include "import_state.h"

/* Every task's signature priced by its kernel's code; kernel and task pipe forms become measured profiles
 * (import_cost.c calls it once it has decided on perf-sim). Returns 0 or -1. */
int import_perfsim_costs(importer *im, const import_opts *opt);

/* On an import without --costs perf-sim: when the capture has an args dump and pto-isa and the runtime's tree
 * are found ($PTO_ISA_ROOT and $SIMPLER_ROOT, else ./pto-isa and ./simpler), one note on stderr that
 * --costs perf-sim could price it, with Perf-Sim's figures against the model's when the cache holds them all
 * for this capture's signatures (looked up: nothing is compiled or run, and the graph is as without it). */
void import_perfsim_hint(importer *im, const import_opts *opt);

#endif
