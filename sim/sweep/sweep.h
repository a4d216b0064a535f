/* sweep.h - `ptosim sweep`: one `ptosim run` process per point of a cartesian product of knob lists. */
#ifndef PTOSIM_SWEEP_H
#define PTOSIM_SWEEP_H

#include "../cli/opt_table.h"

/* Runs `ptosim sweep` with the arguments after "sweep" (a local sweep, a
 * Slurm or GNU parallel hand-off, one point, or the collect step). Returns
 * the exit status: 0 when every point gave a row, 1 when one did not, 2 for
 * a bad command line or an engine that is not installed. */
int sweep_main(int argc, char **argv);

/* `ptosim sweep`'s options, each declared once: the knob lists, then the sweep's own options (run's, which it
 * passes on to each point, are the table's pass). Its parsing, --help and completion read it. */
extern const opt_table sweep_options;

/* Prints the usage of `ptosim sweep`. */
void sweep_usage(void);

#endif
