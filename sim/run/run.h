/* run.h - `ptosim run` (and validate, params): platform, graph check, simulation under SimGrid, outputs. */
#ifndef PTOSIM_RUN_H
#define PTOSIM_RUN_H

#define PTOSIM_VERSION "0.1.0"

#include "../../model/engine/chip_engine.h"
#include "../cli/cli.h"

#define RUN_MAX_WARNINGS 8

/* The environment variable through which `ptosim conform` hands the run it starts the descriptor of its
 * work dir's lock (workdir_inherit_lock): the run writes into the folder conform holds. */
#define RUN_HELD_LOCK_ENV "PTOSIM_HELD_LOCK_FD"

/* Warnings that replaced something the user asked for (an unreadable
 * environment variable, timeouts out of order): printed when they arise, and
 * again in the summary and ptosim_run.json ("warnings"), so none is missed. */
typedef struct run_warnings {
    char text[RUN_MAX_WARNINGS][640];   /* each without the "ptosim: warning: " prefix */
    const char *list[RUN_MAX_WARNINGS]; /* text[i], for report_info */
    int n;
} run_warnings;

/* Everything of a run that comes before a graph: the platform with its
 * overrides, the timeouts and the collectors. Fills warn (which may be NULL)
 * with the warnings it printed. Returns EXIT_OK or the exit status to end
 * with (the message is printed). */
int run_prepare(const cli_run *opt, platform *plat, chip_config *cfg, run_warnings *warn);

/* Ring sizes of one program, lowest first: what run_prepare put in cfg (the
 * platform default), the graph header's
 * run_config (hdr may be NULL), the flags. */
void run_apply_rings(chip_config *cfg, const graph *hdr, const cli_run *opt);

/* The index in hdr's kernel table of the kernel a --kernel-set text (as
 * cli_kernel_set took it) names, its NAME in name, its cli_kfield in *field
 * and its value in *value; -1 when hdr has no such kernel. */
int run_kernel_of(const graph *hdr, const char *kernel_set, char *name, size_t namelen, int *field,
                  bool *value);

/* The index in hdr's kernel table of the kernel a --kernel-scale text (as cli took it) names, its NAME in name
 * and its factor in millionths in *ppm; -1 with "--kernel-scale TEXT: graph G (PATH) has no kernel 'NAME' (its
 * kernels: a, b); did you mean a?" in why when hdr has none (the first RUN_KERNELS_NAMED kernels named). */
#define RUN_KERNELS_NAMED 12
int run_kernel_scale_of(const graph *hdr, const char *kernel_scale, char *name, size_t namelen, uint32_t *ppm,
                        char *why, size_t whylen);

/* The --kernel-set and --kernel-scale flags resolved against a graph's kernel table into cfg
 * (chip_config.kernel_*), in order. Returns EXIT_OK, or EXIT_USAGE after
 * printing which NAME the graph has no kernel of. */
int run_apply_kernel_sets(chip_config *cfg, const graph *hdr, const cli_run *opt);

/* The files a run replaces in its work dir (workdir_commit's old list): a folder never mixes two runs. */
extern const char *const run_managed[];
extern const int run_nmanaged;

/* Runs `ptosim run` with the arguments after "run". Returns the exit status. */
int run_main(int argc, char **argv);

/* Loads SimGrid now rather than when a run first needs it: a parent about to fork runs calls it, so that no
 * child loads it again. A failure is left for the runs to report. */
void run_preload_engine(void);

/* As run_main, with the operations of the graph in argv taken from gc, its
 * compiled form (NULL: read the file; several graphs: gc is not used). The
 * caller makes sure gc was compiled from that graph. */
int run_main_from(int argc, char **argv, const gcomp *gc);

/* `ptosim validate GRAPH`: checks every line of a graph without simulating it. Returns the exit status. */
int run_validate_main(int argc, char **argv);

/* `ptosim params [-p NAME|FILE]`: the platform's parameters, values and sources. Returns the exit status. */
int run_params_main(int argc, char **argv);

/* validate's and params' options (validate has none but -h/--help). */
extern const opt_table run_validate_options;
extern const opt_table run_params_options;

/* Finds the directory holding the platform files: $PTOSIM_PLATFORM_DIR, then
 * ../platforms and ./platforms beside the executable, then the build-time
 * source tree. */
void run_platform_dir(char *out, int outlen);

#endif
