/* simgrid_load.h - sgload_: SimGrid loaded when a command first simulates, not at every process start. */
/* Debian's SimGrid brings 30 libraries (ns-3 among them) whose loading is 22 ms of CPU and 20 MB of memory:
 * import, report, gen and diff never simulate and no longer pay it. */
#ifndef PTOSIM_SIMGRID_LOAD_H
#define PTOSIM_SIMGRID_LOAD_H

#include <stddef.h>

/* Loads the SimGrid ptosim was built against (once; later calls return at once). Returns 0, or -1 with
 * err saying which library could not be loaded and why (err may be NULL). */
int sgload_open(char *err, size_t errlen);

/* The same from a given library file or soname (the tests' way to see the refusal). */
int sgload_open_from(const char *lib, char *err, size_t errlen);

#endif
