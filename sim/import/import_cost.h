/* import_cost.h - import_cost_: the kernel costs an imported graph gives (import_cost.c). */
#ifndef PTOSIM_IMPORT_COST_H
#define PTOSIM_IMPORT_COST_H

#include <stdio.h>

#include "../../model/base/write_buffer.h"
#include "import_state.h"

/* Decides the cost source (im->costs), derives every task's and kernel's pipe form from its args, reads the
 * --costs table, prices with Perf-Sim (import_perfsim.h) when asked, and warns of swimlane times far from the
 * model. Returns 0 or -1. */
int import_cost_resolve(importer *im, const import_opts *opt);

/* Writes kernel func's "cost" (and "note") members into the header. */
void import_cost_put_kernel(const importer *im, int func, FILE *f);

/* Writes task t's own ", \"cost\": ..." member, if it has one; the text of a pipe form written once is kept
 * in texts[its index in im->models] (of ntexts; texts may be NULL: none kept). */
void import_cost_put_task(const importer *im, const imp_task *t, wbuf *w, char **texts, size_t ntexts);

#endif
