/* tune.h - `ptosim tune`: the tuning loop on simulated runs, ending in recommended ring settings. */
#ifndef PTOSIM_TUNE_H
#define PTOSIM_TUNE_H

/* Runs `ptosim tune` with the arguments after "tune". Returns the exit status. */
int tune_main(int argc, char **argv);

#endif
