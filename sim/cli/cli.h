/* cli.h - cli_: the command-line convention of every command, and `ptosim run`'s options. */
/* The convention: help, usage errors, options; run's options mirror the runtime's RunConfig names. */
#ifndef PTOSIM_CLI_H
#define PTOSIM_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "opt_table.h"

#define CLI_MAX_SETS 256
#define CLI_MAX_SG 48
#define CLI_MAX_GRAPHS 64    /* WORKER_MAX_PROGRAMS */
#define CLI_MAX_REPEAT 10000 /* --repeat: runs of one command */

/* Exit statuses of the program (docs/reference/exit-status.md §"The statuses"). */
enum {
    EXIT_OK = 0,
    EXIT_INTERNAL = 1, /* the simulator failed: I/O, memory */
    EXIT_USAGE = 2,    /* bad command line, platform or configuration */
    EXIT_GRAPH = 3,    /* malformed graph file */
    EXIT_RUNTIME = 4,  /* the simulated runtime ended with an error code */
    EXIT_DEVICE = 5,   /* the simulated device failed (STARS kill, stream sync) */
    EXIT_STALLED = 6,  /* the simulation could not progress (deadlock) */
};

typedef struct cli_run {
    const char *graph;                  /* graph file (the first one) */
    const char *graphs[CLI_MAX_GRAPHS]; /* every graph file: programs run in this order on one worker */
    int ngraphs;
    const char *work_dir;           /* -o: outputs go to DIR/dfx_outputs and DIR/ptosim_run.json */
    const char *platform;           /* -p: platform name or file */
    int swimlane_level;             /* --enable-chip-swimlane, 0..4 */
    const char *sets[CLI_MAX_SETS]; /* --set KEY=VALUE, in order */
    int nsets;
    const char *kernel_sets[CLI_MAX_SETS]; /* --kernel-set NAME.FIELD=VALUE, in order (syntax checked) */
    int nkernel_sets;
    const char *kernel_scales[CLI_MAX_SETS]; /* --kernel-scale NAME=F, in order (syntax checked) */
    int nkernel_scales;
    uint64_t rings[3][4];                /* --ring-task-window/-heap/-dep-pool per ring, 0 = default */
    long aicpu_thread_num;               /* --aicpu-thread-num, 0 = auto */
    bool dep_gen;                        /* --enable-dep-gen */
    bool scope_stats;                    /* --enable-scope-stats */
    bool summary_csv;                    /* --summary-csv: CSV header + row instead of the summary */
    int dump_level;                      /* --dump-args, 0..3 */
    bool pmu_given;                      /* --enable-pmu seen */
    const char *pmu_value;               /* its =TYPE, or NULL when bare */
    const char *sched_timeout;           /* --scheduler-timeout-ms value, or NULL */
    const char *op_timeout;              /* --op-execute-timeout-us value, or NULL */
    const char *stream_timeout;          /* --stream-sync-timeout-ms value, or NULL */
    bool no_host_timing;                 /* --no-host-timing: null host times, byte-identical files */
    bool seeded;                         /* --seed given: the variation model is on */
    uint64_t seed;                       /* ... its value */
    long repeat;                         /* --repeat N: N runs with seeds seed .. seed+N-1 (0 = not given) */
    bool quiet;                          /* --quiet: no summary on stdout */
    const char *perfetto;                /* --perfetto FILE: ptosim's own trace goes there, or NULL */
    bool enable_perfetto;                /* --enable-perfetto: ... and to DIR/dfx_outputs/ptosim_trace.json */
    const char *sg_args[CLI_MAX_SG + 1]; /* --cfg=... / --log=..., NULL-terminated */
    int nsg;
} cli_run;

/* `ptosim run`'s options, each declared once: cli_parse_run_args walks argv against it, run --help prints
 * its options section, completion offers it (tune and sweep pass these options on). */
extern const opt_table cli_run_options;

/* Parses the arguments after "run". Returns 0, 1 when --help was printed, or
 * -1 with a message in err. */
int cli_parse_run(int argc, char **argv, cli_run *o, char *err, size_t errlen);

/* As cli_parse_run, without the check that an output option has its -o DIR
 * (for commands that write no files, which refuse those options themselves). */
int cli_parse_run_args(int argc, char **argv, cli_run *o, char *err, size_t errlen);

/* Matches "--name" or "--name=value"; *value gets the inline value or NULL. */
bool cli_opt_is(const char *arg, const char *name, const char **value);

/* Matches a short option "-x" (*value NULL: the value is the next argument)
 * or "-xVALUE" (*value = VALUE), as getopt takes them. */
bool cli_short_is(const char *arg, const char *flag, const char **value);

/* Is arg -h or --help? */
bool cli_is_help(const char *arg);

/* One command of ptosim: the one convention every command follows. */
typedef struct cli_cmd {
    const char *name;                  /* "run" */
    const char *usage;                 /* its usage line, after "usage: " */
    int (*main)(int argc, char **argv); /* the arguments after the name; -h/--help prints the help on
                                        * stdout (status 0) */
    const opt_table *opts;              /* its options' table, or NULL (its --help lists them) */
} cli_cmd;

/* Runs `ptosim ARGS` (argv[0] is the program): the command named by argv[1];
 * `help [CMD]` prints the general help (general(stdout)) or CMD's own. A
 * command that ends with status 2 (a usage error: its message is printed)
 * gets its usage line on stderr after the message. */
int cli_dispatch(const cli_cmd *cmds, int ncmds, int argc, char **argv, void (*general)(FILE *out));

/* The hidden `ptosim __complete CWORD PTOSIM [WORD...]` (argv: from CWORD): what the bash completion
 * (sim/ptosim.bash) offers for the word at CWORD of the command line PTOSIM WORD..., from the command table
 * and the command's option table (opt_complete's lines). Returns 0 when it answered, 1 for a command
 * without a table (the script completes those), EXIT_USAGE for a bad call. Not for users: no help lists it.
 */
int cli_complete(const cli_cmd *cmds, int ncmds, int argc, char **argv, const char *platform_dir, FILE *out);

/* The hidden `ptosim __options [COMMAND]` (argv: after it): the commands with an option table, or
 * COMMAND's options (opt_list), for scripts/check_manpage.sh. Returns 0, 1 for a command without a table,
 * EXIT_USAGE for a bad call. */
int cli_options(const cli_cmd *cmds, int ncmds, int argc, char **argv, FILE *out);

/* The per-submit flags --kernel-set NAME.FIELD=VALUE sets on every submit of a kernel. */
typedef enum { CLI_KFIELD_SYNC_START, CLI_KFIELD_EARLY_RESOLVE } cli_kfield;

/* Splits "NAME.FIELD=VALUE" (FIELD sync_start, early_resolve or the runtime's allow_early_resolve; VALUE
 * true or false; NAME up to the last '.' before '='). name gets NAME (namelen bytes at most). Returns 0,
 * or -1 with "--kernel-set TEXT: what is wrong" in err. */
int cli_kernel_set(const char *text, char *name, size_t namelen, cli_kfield *field, bool *value, char *err,
                   size_t errlen);

/* Prints the usage of `ptosim run`. */
void cli_run_usage(void);

#endif
