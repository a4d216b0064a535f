/* gen.h - `ptosim gen KIND [--PARAM VALUE ...]`: synthetic workload graphs written to stdout. */
#ifndef PTOSIM_GEN_H
#define PTOSIM_GEN_H

/* Runs `ptosim gen` with the arguments after "gen" (argv[0] is the kind).
 * Writes the graph to stdout as it is generated, in bounded memory; the same
 * arguments give the same bytes. Returns an EXIT_* status (cli.h): 0, 2 for a
 * bad kind or parameter (message on stderr), 1 when stdout cannot be written. */
int gen_main(int argc, char **argv);

#endif
