/* import_graph.h - import_graph_: the graph rebuilt from what was read, and written (import_graph.c). */
#ifndef PTOSIM_IMPORT_GRAPH_H
#define PTOSIM_IMPORT_GRAPH_H

#include <stdio.h>

#include "import_state.h"

/* The op order from deps.json's submission order, the rings' ids and the scope samples. Returns 0 or -1. */
int import_graph_order_with_stats(importer *im);

/* The op order without scope stats: scopes guessed from the rings. Returns 0 or -1. */
int import_graph_order_guessed(importer *im);

/* Each scope's mode, manual or auto, from the tasks inside it. Returns 0 or -1. */
int import_graph_assign_modes(importer *im);

/* Writes the graph file's header line: name, run config, kernels with their costs, external tensors. */
void import_graph_put_header(importer *im, FILE *f);

/* Writes the graph file's ops, one a line, in the op order. */
void import_graph_put_ops(const importer *im, FILE *f);

#endif
