/* gen.h - `ptosim gen KIND [--PARAM VALUE ...]`: synthetic workload graphs written to stdout. */
#ifndef PTOSIM_GEN_H
#define PTOSIM_GEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "../cli/opt_table.h"

/* `ptosim gen`'s options: its word is KIND, and each kind's table (gen_options.sub) declares its parameters
 * once, as options: parsing, `gen KIND --help`, the completion and the man-page check read them. */
extern const opt_table gen_options;

/* Runs `ptosim gen` with the arguments after "gen" (argv[0] is the kind).
 * Writes the graph to stdout as it is generated, in bounded memory; the same
 * arguments give the same bytes. Returns an EXIT_* status (cli.h): 0, 2 for a
 * bad kind or parameter (message on stderr), 1 when stdout cannot be written. */
int gen_main(int argc, char **argv);

/* Checks the arguments of `ptosim gen` (argv[0] the kind) as gen_main does,
 * writing nothing. Returns 0, or an EXIT_* status with gen's message
 * ("ptosim gen: KIND: --PARAM: what is wrong") in err. */
int gen_check(int argc, char **argv, char *err, size_t errlen);

/* Writes the graph of those arguments to f (the bytes gen_main writes) through f's descriptor, after
 * flushing what f holds; a stream without one (fmemopen) fails with EBADF.
 * Returns 0, or an EXIT_* status with the message in err. */
int gen_write(int argc, char **argv, FILE *f, char *err, size_t errlen);

/* Does --param of kind take a number or a choice (a sweep splits its value
 * at commas into a list)? False for a text (a table, which holds commas) and
 * for a name that is not one of kind's parameters. */
bool gen_param_listable(const char *kind, const char *param);

/* The name of kind i (kind NULL), or of kind's parameter i (without "--"); NULL past the last one or for
 * a kind that is not one (what completion offers for a sweep's gen:KIND and --gen-PARAM). */
const char *gen_name(const char *kind, int i);

#endif
