/* diff.h - diff_: `ptosim diff A B`: two run folders' inputs and the makespan change in parts. */
#ifndef PTOSIM_DIFF_H
#define PTOSIM_DIFF_H

#include "../cli/opt_table.h"

extern const opt_table diff_options;

/* `ptosim diff A B [--json] [-o DIR]`: argv holds the words after "diff". Returns the exit status. */
int diff_main(int argc, char **argv);

#endif
