/* run.h - the `ptosim run` pipeline: platform, graph check, simulation under SimGrid, outputs. */
#ifndef PTOSIM_RUN_H
#define PTOSIM_RUN_H

#define PTOSIM_VERSION "0.1.0"

/* Runs `ptosim run` with the arguments after "run". Returns the exit status. */
int run_main(int argc, char **argv);

/* Finds the directory holding the platform files: $PTOSIM_PLATFORM_DIR, then
 * ../platforms and ./platforms beside the executable, then the build-time
 * source tree. */
void run_platform_dir(char *out, int outlen);

#endif
