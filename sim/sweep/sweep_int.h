/* sweep_int.h - sweep_: what the sweep*.c files share: the knob lists, the sweep's state, their calls. */
/* Only sim/sweep/sweep*.c include it. sweep.c (the command: usage, options, checks, the entry) calls
 * sweep_folder.c (the points and the sweep's folder: points.csv, sweep.cmd, the rows merged into
 * sweep.csv, --best) and sweep_engine.c (the graph compiled once, the points run here, one by --point,
 * on Slurm or through GNU parallel), which calls sweep_folder.c; sweep_folder.c reads points.csv's
 * numbers with sweep.c's sweep_parse_long. Its functions carry sweep_; its types and constants keep
 * their short names. */
#ifndef PTOSIM_SWEEP_INT_H
#define PTOSIM_SWEEP_INT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../../model/graph/graph_compiled.h"
#include "../cli/cli.h"

#define SWEEP_KNOBS 4      /* the run's own knobs: points.csv's first four knob columns */
#define SWEEP_MAX_EXTRA 24 /* --set, --kernel-set and --gen-* lists: a column each after those */
#define SWEEP_MAX_COLS (SWEEP_KNOBS + SWEEP_MAX_EXTRA)
#define SWEEP_MAX_LISTS SWEEP_MAX_COLS
#define GEN_PREFIX "gen:"        /* GRAPH gen:KIND: the graphs are ptosim gen KIND's */
#define GRAPHS_DIR "graphs"      /* DIR's generated graphs, NNNN.jsonl and NNNN.compiled */
#define SWEEP_MAX_POINTS 1000000 /* keeps DIR/points/ listable; far past what one machine sweeps */
/* SIGINT or SIGTERM before any point ran, the folder set up: said by sweep_collect_interrupted, as when it
 * comes while points run */
#define SWEEP_STOPPED (-1)

/* The knobs a sweep takes lists for, in the column order of points.csv: the three ring knobs in
 * runcfg_knob order, then the thread count. */
enum { SWEEP_KNOB_THREADS = 3 };
static const char *const KNOB_FLAGS[SWEEP_KNOBS] = {"--ring-task-window", "--ring-heap", "--ring-dep-pool",
                                                    "--aicpu-thread-num"};

/* RunConfig's names of the run's knobs, in KNOB_FLAGS order: their columns in points.csv. */
static const char *const KNOB_RUNCONFIG[SWEEP_KNOBS] = {"ring_task_window", "ring_heap", "ring_dep_pool",
                                                        "aicpu_thread_num"};

typedef enum { ENGINE_LOCAL, ENGINE_SLURM, ENGINE_PARALLEL } sweep_engine;

/* What a list sweeps: a knob of the run, a platform parameter (--set KEY=LIST), a flag of a kernel's submits
 * (--kernel-set NAME.FIELD=LIST), the factor on a kernel's time (--kernel-scale NAME=LIST) or a parameter of the generator that makes the graph (--gen-PARAM LIST). */
typedef enum { LIST_RUN, LIST_SET, LIST_KERNEL, LIST_GEN, LIST_SCALE } list_kind;
static const char *const LIST_FLAGS[] = {NULL, "--set", "--kernel-set", NULL, "--kernel-scale"};

/* One knob's list, as given on the command line. */
typedef struct sweep_list {
    list_kind kind; /* what it sweeps */
    int knob;  /* its column in points.csv: KNOB_FLAGS's index, or SWEEP_KNOBS + its place among the others */
    char *key; /* LIST_SET KEY, LIST_KERNEL NAME.FIELD, LIST_SCALE NAME, LIST_GEN PARAM (malloc'd; LIST_RUN NULL) */
    const char *text; /* as written, KEY=LIST for --set and --kernel-set (passed on to --point runs) */
    char **shown;     /* each value as written: per-ring ones as a/b/c/d */
    char **vals;      /* each value as `ptosim run` takes it: a,b,c,d; KEY=VALUE for --set and --kernel-set */
    int n;            /* number of values */
} sweep_list;

typedef struct sweep {
    const char *graph;             /* GRAPH as given */
    const char *dir;               /* -o DIR as given */
    long jobs;                     /* -j N, 0 = not given */
    sweep_engine engine;           /* --engine */
    const char *parallel_args;     /* --parallel-args, split at blanks */
    const char **hosts;            /* -S HOSTS, in order */
    int nhosts;                    /* entries in hosts */
    long point;                    /* --point I, or -1 for every point */
    bool resume;                   /* --resume DIR: run only the points without a whole row */
    long *todo;                    /* the points to run, in order */
    long ntodo;                    /* entries in todo */
    sweep_list lists[SWEEP_MAX_LISTS]; /* in the order given: the first varies slowest */
    int nlists;                        /* entries in lists */
    int nextra;                        /* lists that are not the run's knobs: columns after KNOB_FLAGS's */
    const char *gen_kind;              /* GRAPH gen:KIND: the kind, else NULL */
    long ngraphs;                      /* graphs: the product of the --gen-* lists' lengths (1 without) */
    char **argv;                       /* the arguments after "sweep", for messages */
    int argc;
    cli_run run;                   /* point 0's run options, as check() parsed them */
    const char **pass;             /* every other option, passed to each run in order */
    int npass;                     /* entries in pass */
    long npoints;                  /* product of the list lengths */
    char exe[PATH_MAX];            /* this binary, from /proc/self/exe */
    char graph_abs[PATH_MAX];      /* GRAPH made absolute */
    char dir_abs[PATH_MAX];        /* DIR made absolute (created first) */
    char cwd[PATH_MAX];            /* where relative paths in `pass` resolve */
    uint64_t graph_hash;           /* gcomp_hash of GRAPH's bytes when the manifest was written */
    uint64_t graph_bytes;          /* and its size */
    bool began_known;              /* DIR/sweep.cmd says which graph the sweep began with (this one) */
    int lock_fd;                   /* DIR, open with an exclusive flock held while the sweep runs; -1 = none */
    int failed;                    /* parsing: the exit status of an option refused (EXIT_USAGE, or
                                    * EXIT_INTERNAL when out of memory) */
} sweep;

/* ---- sweep.c: the command ---- */

/* Parses a decimal integer in [lo, hi] (strint: the rules of every flag). Returns 0 or -1. */
int sweep_parse_long(const char *s, long lo, long hi, long *out);

/* ---- sweep_folder.c: the points and the sweep's folder ---- */

/* Reads a whole file, not through a link below the sweep's folder (malloc'd, NUL-terminated; NULL with
 * errno set when it cannot); writes s single-quoted for sh. */
char *sweep_read_file(const char *path, size_t *len);
void sweep_sh_quote(FILE *f, const char *s);

/* Point i's folder, DIR/points/NNNN (absolute); is a point's folder one itself (no link); a link at path,
 * or on its way below the sweep's folder, refused (EXIT_INTERNAL after naming it); point i's knobs as
 * flags, for messages. */
void sweep_point_dir(const sweep *s, long i, char *out, size_t outlen);
bool sweep_point_is_folder(const char *path);
int sweep_refuse_link_at(const char *path);
void sweep_point_label_of(const sweep *s, long i, char *out, size_t outlen);

/* GRAPH gen:KIND: the generated graph point i runs, graph g's file DIR/graphs/NNNN.EXT, and the arguments
 * of `ptosim gen` that write it (their count). */
long sweep_point_graph(const sweep *s, long i);
void sweep_graph_file(const sweep *s, long g, const char *ext, char *out, size_t outlen);
int sweep_gen_args(const sweep *s, long g, char *av[], char names[][72]);

/* The argv of `ptosim run` for point i (malloc'd, NULL-terminated); what makes the points (GRAPH, the
 * lists, the options passed through), shell quoted. */
const char **sweep_point_argv(const sweep *s, long i, const char *graph, const char *wd);
void sweep_write_args(FILE *f, const sweep *s);

/* The folder, each returning an exit status after printing why: DIR checked before anything is written
 * there (empty, or this command's own sweep; never a run's); DIR/points.csv and DIR/sweep.cmd written
 * (with --resume, checked); the points' rows merged into DIR/sweep.csv (--collect); the points to run
 * (-1 when out of memory); the rows of an interrupted sweep; --best DIR. */
int sweep_check_folder(const sweep *s);
/* The words of DIR/sweep.cmd's command, for --resume DIR alone (NULL after printing why); freed by
 * sweep_free_words. s as one word for sh, quoted only when it must be. */
char **sweep_read_command(const char *dir, int *n);
void sweep_free_words(char **words);
void sweep_sh_word(char *out, size_t outlen, const char *s);
int sweep_write_manifest(sweep *s);
int sweep_collect(const char *dir, const int *status, long nstatus);
int sweep_plan_points(sweep *s);
int sweep_collect_interrupted(const sweep *s, const int *status, int sig);
int sweep_best(const char *dir);

/* A point's row.csv: whole (a header and one row, *row the row), what is wrong with one that is not, and
 * the message naming a point without a row, with its stderr. */
bool sweep_row_ok(const char *text, const char **row);
const char *sweep_row_why(const char *text);
void sweep_report_missing(const char *dir, long i, const char *pdir, const char *label, int status,
                          const char *why);

/* ---- sweep_engine.c: the points run ---- */

/* GRAPH compiled once into DIR/graph.compiled, or each generated graph into DIR/graphs/NNNN.compiled,
 * and mapped; 0, SWEEP_STOPPED when SIGINT or SIGTERM stopped it, or an exit status after printing why. */
int sweep_compile_graph(const sweep *s, gcomp *gc);
int sweep_compile_gen_graphs(const sweep *s, gcomp *gcs);

/* The engines: the points of s->todo run here (status[i] gets point i's wait status); --point I; --engine
 * slurm's scripts; --engine parallel and the merge. Each but the first returns the exit status. */
void sweep_run_local(const sweep *s, const gcomp *gc, int *status);
int sweep_run_point(const sweep *s);
int sweep_write_slurm(const sweep *s);
int sweep_run_parallel(const sweep *s);

#endif
