/* tune.h - `ptosim tune`: the tuning loop on simulated runs, ending in recommended ring settings. */
#ifndef PTOSIM_TUNE_H
#define PTOSIM_TUNE_H

#include "../cli/opt_table.h"

/* tune's options: --max-trials, and the run options its help tells more of; the others are run's
 * (cli_run_options), passed on. */
extern const opt_table tune_options;

/* Runs `ptosim tune` with the arguments after "tune". Returns the exit status. */
int tune_main(int argc, char **argv);

#endif
