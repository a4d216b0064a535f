/* import_perfsim.h - import_perfsim_: `import --costs perf-sim`, task signatures priced by Perf-Sim. */
#ifndef PTOSIM_IMPORT_PERFSIM_H
#define PTOSIM_IMPORT_PERFSIM_H

#include "import_state.h"

/* Every task's signature priced by its kernel's code; kernel and task pipe forms become measured profiles
 * (import_cost.c calls it once it has decided on perf-sim). Returns 0 or -1. */
int import_perfsim_costs(importer *im, const import_opts *opt);

#endif
