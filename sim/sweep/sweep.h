/* sweep.h - `ptosim sweep`: one `ptosim run` process per point of a cartesian product of knob lists. */
#ifndef PTOSIM_SWEEP_H
#define PTOSIM_SWEEP_H

#include <sys/types.h>

#include "../../model/graph/graph_compiled.h"
#include "../cli/opt_table.h"

/* Runs `ptosim sweep` with the arguments after "sweep" (a local sweep, a
 * Slurm or GNU parallel hand-off, one point, or the collect step). Returns
 * the exit status: 0 when every point gave a row, 1 when one did not, 2 for
 * a bad command line or an engine that is not installed. */
int sweep_main(int argc, char **argv);

/* `ptosim sweep`'s options, each declared once: the knob lists, then the sweep's own options (run's, which it
 * passes on to each point, are the table's pass). Its parsing, --help and completion read it. */
extern const opt_table sweep_options;

/* Starts `ptosim run` with argv (argc words after "run": GRAPH and its options) in a child process, its
 * operations taken from gc (a graph compiled once, as the sweep's points map it; NULL: the run reads the file):
 * its own process group (a Ctrl-C reaches the parent alone, which forwards it), killed when the parent dies,
 * no signal handler of the parent's, standard input, output and error on the descriptors in, out and errfd.
 * Returns its pid, or -1 with errno set. What `ptosim whatif` runs its levers with too. */
pid_t sweep_fork_run(int argc, const char **argv, const gcomp *gc, int in, int out, int errfd);

/* Prints the usage of `ptosim sweep`. */
void sweep_usage(void);

#endif
