/* run.h - the `ptosim run` pipeline: platform, graph check, simulation under SimGrid, outputs. */
#ifndef PTOSIM_RUN_H
#define PTOSIM_RUN_H

#define PTOSIM_VERSION "0.1.0"

#include "../model/chip.h"
#include "cli.h"

/* Everything of a run that comes before a graph: the platform with its
 * overrides, the timeouts and the collectors. Returns EXIT_OK or the exit
 * status to end with (the message is printed). */
int run_prepare(const cli_run *opt, platform *plat, chip_config *cfg);

/* Ring sizes of one program, lowest first: what run_prepare put in cfg (the
 * platform default, then the PTO2_RING_* variables), the graph header's
 * run_config (hdr may be NULL), the flags. */
void run_apply_rings(chip_config *cfg, const graph *hdr, const cli_run *opt);

/* Runs `ptosim run` with the arguments after "run". Returns the exit status. */
int run_main(int argc, char **argv);

/* As run_main, with the operations of the graph in argv taken from gc, its
 * compiled form (NULL: read the file; several graphs: gc is not used). The
 * caller makes sure gc was compiled from that graph. */
int run_main_from(int argc, char **argv, const gcomp *gc);

/* Finds the directory holding the platform files: $PTOSIM_PLATFORM_DIR, then
 * ../platforms and ./platforms beside the executable, then the build-time
 * source tree. */
void run_platform_dir(char *out, int outlen);

#endif
