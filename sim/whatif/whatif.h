/* whatif.h - `ptosim whatif`: the levers of a run (faster kernels, bigger rings, ...) ranked by what they buy. */
#ifndef PTOSIM_WHATIF_H
#define PTOSIM_WHATIF_H

#include "../cli/opt_table.h"

/* Runs `ptosim whatif` with the arguments after "whatif": the baseline and each lever simulated, each a
 * `ptosim run` forked from one compiled graph, then the table (or --json) sorted by makespan. Returns the
 * exit status. */
int whatif_main(int argc, char **argv);

/* `ptosim whatif`'s own options (run's, which it passes on to every run, are the table's pass). */
extern const opt_table whatif_options;

#endif
