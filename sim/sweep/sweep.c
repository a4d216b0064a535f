/* sweep.c - `ptosim sweep`: one `ptosim run` per point of the knob lists' cartesian product. */
/* Run here, as a Slurm job array or through GNU parallel, and merged into DIR/sweep.csv. */
#include "sweep.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/file.h>
#include <sys/prctl.h>
#endif
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../model/base/csv.h"
#include "../../model/graph/graph_compiled.h"
#include "../../model/graph/graph_reader.h"
#include "../../model/graph/graph_source.h"
#include "../../model/base/outfile.h"
#include "../../model/base/userdir.h"
#include "../../model/chip/platform.h"
#include "../../model/output/run_report.h"
#include "../../model/runtime/run_config.h"
#include "../../model/base/int_text.h"
#include "../../model/base/msg_text.h"
#include "../../model/base/readall.h"
#include "../cli/cli.h"
#include "../gen/gen.h"
#include "../cli/stop_signal.h"
#include "../run/run.h"
#include "sweep_int.h"

#define SWEEP_MAX_GRAPHS 1000 /* generated graphs of one sweep (--gen-* lists): each is compiled */
#define SWEEP_MAX_JOBS 1024
#define SWEEP_STDERR_SHOWN 4000        /* bytes of a failed point's stderr echoed to ours */
#define SLURM_MAX_ARRAY 1001           /* Slurm's default MaxArraySize (slurm.conf) */
#define COMPILED_NAME "graph.compiled" /* DIR's compiled graph, which every point maps (graph_compiled.h) */
#define GRAPH_LINE "# the graph: "     /* sweep.cmd's last line: the bytes the sweep began with */
#define SPOOL_NAME "graph.jsonl"       /* DIR's copy of a GRAPH read from a pipe, which every point reads */
/* appended to errors in the options passed through: a list there is a likely slip */
#define LISTS_HINT                                                                                           \
    "; only --ring-task-window, --ring-heap, --ring-dep-pool, --aicpu-thread-num, --set KEY=, "              \
    "--kernel-set NAME.FIELD= and --gen-PARAM take lists, every other option goes to each run as it is"

static const char *const POINTS_HEADER =
    "point,dir,ring_task_window,ring_heap,ring_dep_pool,aicpu_thread_num\n";

void sweep_usage(void)
{
    puts("usage: ptosim sweep GRAPH [KNOB LIST ...] [run options] -o DIR [-j N] [--engine ENGINE]\n"
         "       ptosim sweep GRAPH [KNOB LIST ...] [run options] --resume DIR [-j N] [--engine ENGINE]\n"
         "       ptosim sweep --collect DIR\n"
         "       ptosim sweep --best DIR\n"
         "\n"
         "Runs `ptosim run GRAPH` once per point of the cartesian product of the knob lists, one\n"
         "process per point, and writes DIR/sweep.csv: the `ptosim run --summary-csv` header once,\n"
         "then one row per point in point order (the first knob given varies slowest). The graph is\n"
         "read and checked once, into DIR/graph.compiled, which every point maps. GRAPH may be\n"
         "gen:KIND: the graphs are `ptosim gen KIND`'s, with the --gen-PARAM values below.\n"
         "\n"
         "knobs (LIST: comma-separated values; a per-ring value is a/b/c/d, 0 keeps that ring's default):\n"
         "  --ring-task-window LIST       task slots per ring (power of 2 >= 4)\n"
         "  --ring-heap LIST              heap bytes per ring (power of 2 >= 1024)\n"
         "  --ring-dep-pool LIST          dependency-list entries per ring ([4, INT32_MAX])\n"
         "  --aicpu-thread-num LIST       AICPU threads (0 = auto, else 2-4)\n"
         "  --set KEY=LIST                a platform parameter (ptosim params lists them), e.g.\n"
         "                                --set hbm_bw=1.6e12,3.2e12; one value (no comma) goes to every\n"
         "                                point as it is\n"
         "  --kernel-set NAME.FIELD=LIST  a flag of every submit of kernel NAME: sync_start or "
         "early_resolve,\n"
         "                                true,false (ptosim run --help); one value goes to every point\n"
         "  --gen-PARAM LIST              with GRAPH gen:KIND, a parameter of `ptosim gen KIND` (ptosim gen\n"
         "                                KIND --help): one graph per combination, written by the generator\n"
         "                                into DIR/graphs/NNNN.jsonl and compiled once; a text parameter\n"
         "                                (--gen-block-table) is one value, commas and all\n"
         "A list of the last three is a column of points.csv and sweep.csv after the run's own, named\n"
         "by its key (KEY, NAME.FIELD; gen.PARAM for every --gen-PARAM). Every other option of `ptosim\n"
         "run` (ptosim run --help) goes to every point unchanged; a word that is neither an option nor\n"
         "a value is an error. With --repeat N each point is N seeds, and the sweep names the best\n"
         "point and those whose mean is inside its noise (no more than two standard errors of the\n"
         "difference apart).\n"
         "\n"
         "options:\n"
         "  -o, --work-dir DIR            the sweep's folder (required): sweep.csv, points.csv, and\n"
         "                                points/NNNN/ per point (row.csv, stderr.txt, ptosim_run.json,\n"
         "                                dfx_outputs/)\n"
         "  --resume DIR                  instead of -o: go on with the sweep in DIR, running only the\n"
         "                                points without a whole row (any engine); the graph, lists and\n"
         "                                options must be the sweep's; a DIR without a sweep starts one\n"
         "  -j, --jobs N                  points at once (default: the online CPUs); slurm: the array's\n"
         "                                %N throttle (default none); parallel: its -j (default its own)\n"
         "  --engine local                run the points here (default), progress on a terminal's stderr\n"
         "  --engine slurm                write DIR/sweep.sbatch (a job array: task i runs point i) and\n"
         "                                DIR/collect.sbatch, and print how to submit them; runs nothing\n"
         "  --engine parallel             run the points through GNU parallel, then merge the rows\n"
         "  --parallel-args 'ARGS'        more GNU parallel options, split at blanks (e.g. '--bar')\n"
         "  -S, --sshlogin HOSTS          GNU parallel's -S: run points on these hosts too (the binary,\n"
         "                                GRAPH and DIR must be at the same paths there)\n"
         "  --point I                     run only point I into DIR/points/NNNN (what the engines run)\n"
         "  --collect DIR                 merge DIR/points/NNNN/row.csv into DIR/sweep.csv, naming any\n"
         "                                point without a row\n"
         "  --best DIR                    print the point of DIR/sweep.csv with status ok and the least\n"
         "                                makespan: its knobs as ptosim run flags and as RunConfig(...),\n"
         "                                and for GRAPH gen:KIND the ptosim gen command of its graph\n"
         "  -h, --help                    this text\n"
         "\n"
         "A point whose run ends in a runtime error still gives its row (status, code, exit). A point\n"
         "that gives no row (a crash, or cut short) is reported with its stderr once the others have\n"
         "run, and its row in sweep.csv has status \"missing\"; the exit status is then 1 (0 when every\n"
         "point has its row). Run the same command with --resume DIR to run only those points.\n"
         "\n"
         "examples:\n"
         "  ptosim sweep traces/default.jsonl --ring-task-window 16,64,256 --ring-heap 1048576,268435456 \\\n"
         "      -j 2 -o out/sweep\n"
         "  ptosim sweep --best out/sweep\n"
         "  ptosim sweep gen:granularity --gen-k 24,48,4800 --set hbm_bw=1.6e12,3.2e12 -o out/grain\n"
         "  ptosim sweep pa.jsonl --kernel-set QK.early_resolve=false,true -o out/early\n"
         "\n"
         "exit status: 0 every point has its row (whatever the rows say); 1 a point has none, or I/O;\n"
         "2 bad command line (a knob value, run option, platform or --set any run would refuse), no\n"
         "GNU parallel, or a --resume DIR of another sweep; 3 a malformed graph (no point runs)");
}

/* ---- small helpers ---- */

/* Takes an option's value, inline or the next argument. Returns 0, or -1 after printing why. */
static int take(int argc, char **argv, int *i, const char *name, const char *inl, const char **out)
{
    if (inl) {
        *out = inl;
        return 0;
    }
    if (*i + 1 >= argc) {
        msgtext_print(stderr, "ptosim sweep: %s: missing value", name);
        return -1;
    }
    *out = argv[++*i];
    return 0;
}

/* Parses a decimal integer in [lo, hi] (strint: the rules of every flag). Returns 0 or -1. */
static int parse_long(const char *s, long lo, long hi, long *out)
{
    int64_t v;
    if (strint_parse(s, lo, hi, &v) != STRINT_OK)
        return -1;
    *out = (long)v;
    return 0;
}

/* read_file's words for its last failure with EFBIG (the sweep reads on one thread). */
static char read_why[128];

/* Reads a whole file (malloc'd, NUL-terminated): a regular file, at most a sweep's file's cap (read_why says
 * by how much one is past it), not through a link below the sweep's folder (ELOOP). NULL with errno set when
 * it cannot. */
static char *read_file(const char *path, size_t *len)
{
    FILE *f = readall_open(path); /* a FIFO would block the open; no link below the folder */
    if (!f)
        return NULL;
    char *buf = readall(f, READALL_SWEEP, len, read_why, sizeof(read_why));
    int e = errno;
    fclose(f);
    errno = e;
    return buf;
}

/* Writes s single-quoted for sh: 'it'\''s'. */
static void sh_quote(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'')
            fputs("'\\''", f);
        else
            fputc(*s, f);
    }
    fputc('\'', f);
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Is there an executable `name` on PATH? */
static bool on_path(const char *name)
{
    const char *path = getenv("PATH");
    if (!path)
        return false;
    while (*path) {
        const char *e = strchr(path, ':');
        size_t len = e ? (size_t)(e - path) : strlen(path);
        char probe[PATH_MAX + 64];
        snprintf(probe, sizeof(probe), "%.*s/%s", (int)len, len ? path : ".", name);
        if (access(probe, X_OK) == 0)
            return true;
        path += len + (e ? 1 : 0);
    }
    return false;
}

/* ---- points ---- */

/* Each list's value index at point i: the last list varies fastest, like nested loops. */
static void point_indices(const sweep *s, long i, int idx[SWEEP_MAX_LISTS])
{
    for (int k = s->nlists - 1; k >= 0; k--) {
        idx[k] = (int)(i % s->lists[k].n);
        i /= s->lists[k].n;
    }
}

/* The point's folder, DIR/points/NNNN (absolute). */
static void point_dir(const sweep *s, long i, char *out, size_t outlen)
{
    snprintf(out, outlen, "%s/points/%04ld", s->dir_abs, i);
}

/* Is the point folder path a folder itself (not a symbolic link to one, nor missing, nor reached through
 * one)? */
static bool point_is_folder(const char *path)
{
    struct stat st;
    return userdir_stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Refuses path when it, or a folder on its way below the sweep's folder, is a symbolic link: a folder
 * someone sent may hold one, and what it points to is none of the sweep's. Returns 0, or EXIT_INTERNAL
 * after naming the link. */
static int refuse_link_at(const char *path)
{
    struct stat st;
    int rc = userdir_stat(path, &st), e = errno;
    if (rc == 0 ? !S_ISLNK(st.st_mode) : e != ELOOP)
        return 0;
    if (rc == 0)
        fprintf(stderr, "ptosim sweep: %s: " USERDIR_LINK_WHY "\n", path);
    else
        msgtext_print(stderr, "ptosim sweep: %s", userdir_why(e));
    return EXIT_INTERNAL;
}

/* List l's column name in points.csv and sweep.csv: the run knob's RunConfig name, --set's KEY,
 * --kernel-set's NAME.FIELD, gen.PARAM for --gen-PARAM. */
static void list_column(const sweep_list *l, char *out, size_t outlen)
{
    if (l->kind == LIST_RUN)
        snprintf(out, outlen, "%s", KNOB_RUNCONFIG[l->knob]);
    else
        snprintf(out, outlen, "%s%s", l->kind == LIST_GEN ? "gen." : "", l->key);
}

/* Is a column of points.csv past the run's knobs a --kernel-set one (NAME.FIELD) rather than --gen-PARAM
 * (gen.PARAM) or --set (KEY, which has no '.')? */
static bool column_is_kernel(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot && (strncmp(name, "gen.", 4) != 0 || strcmp(dot, ".sync_start") == 0 ||
                   strcmp(dot, ".early_resolve") == 0 || strcmp(dot, ".allow_early_resolve") == 0);
}

/* Writes the option that gives column col (named name) the value cell, as the sweep's command line has it:
 * "--ring-heap 1024", "--set hbm_bw=1.6e12", "--kernel-set mm.sync_start=true", "--gen-k 48". */
static int column_flag(char *out, size_t outlen, int col, const char *name, const char *cell)
{
    if (col < SWEEP_KNOBS)
        return snprintf(out, outlen, "%s %s", KNOB_FLAGS[col], cell);
    if (column_is_kernel(name))
        return snprintf(out, outlen, "--kernel-set %s=%s", name, cell);
    if (strncmp(name, "gen.", 4) == 0)
        return snprintf(out, outlen, "--gen-%s %s", name + 4, cell);
    return snprintf(out, outlen, "--set %s=%s", name, cell);
}

/* The point's knob values as written, one cell per column of points.csv ("" = not swept): the run's knobs in
 * KNOB_FLAGS order, then the other lists in the order given. */
static void point_cells(const sweep *s, long i, const char *cells[SWEEP_MAX_COLS])
{
    int idx[SWEEP_MAX_LISTS];
    point_indices(s, i, idx);
    for (int k = 0; k < SWEEP_MAX_COLS; k++)
        cells[k] = "";
    for (int k = 0; k < s->nlists; k++)
        cells[s->lists[k].knob] = s->lists[k].shown[idx[k]];
}

/* "--ring-task-window 16 --set hbm_bw=1.6e12" from a point's cells (ncols of them, named names), for
 * messages. */
static void point_label(const char *const *names, const char *const *cells, int ncols, char *out,
                        size_t outlen)
{
    size_t used = 0;
    out[0] = '\0';
    for (int k = 0; k < ncols && used < outlen; k++)
        if (cells[k][0]) {
            if (used)
                out[used++] = ' ';
            if (used < outlen)
                used += (size_t)column_flag(out + used, outlen - used, k, names[k], cells[k]);
        }
    if (!out[0])
        snprintf(out, outlen, "no knob swept");
}

/* The names of the sweep's columns in points.csv (names[k] points into buf, SWEEP_MAX_COLS x 160 bytes). */
static void sweep_columns(const sweep *s, const char *names[SWEEP_MAX_COLS], char buf[][160])
{
    for (int k = 0; k < SWEEP_KNOBS; k++)
        names[k] = KNOB_RUNCONFIG[k];
    for (int k = 0; k < s->nlists; k++)
        if (s->lists[k].kind != LIST_RUN) {
            list_column(&s->lists[k], buf[s->lists[k].knob], 160);
            names[s->lists[k].knob] = buf[s->lists[k].knob];
        }
}

/* The label of point i, for messages. */
static void point_label_of(const sweep *s, long i, char *out, size_t outlen)
{
    const char *cells[SWEEP_MAX_COLS], *names[SWEEP_MAX_COLS];
    static char buf[SWEEP_MAX_COLS][160];
    point_cells(s, i, cells);
    sweep_columns(s, names, buf);
    point_label(names, cells, SWEEP_KNOBS + s->nextra, out, outlen);
}

/* Which generated graph point i runs: its --gen-* lists' indices, the last varying fastest (0 without). */
static long point_graph(const sweep *s, long i)
{
    int idx[SWEEP_MAX_LISTS];
    point_indices(s, i, idx);
    long g = 0;
    for (int k = 0; k < s->nlists; k++)
        if (s->lists[k].kind == LIST_GEN)
            g = g * s->lists[k].n + idx[k];
    return g;
}

/* The file of generated graph g, DIR/graphs/NNNN.EXT (absolute). */
static void graph_file(const sweep *s, long g, const char *ext, char *out, size_t outlen)
{
    snprintf(out, outlen, "%s/" GRAPHS_DIR "/%04ld.%s", s->dir_abs, g, ext);
}

/* The argv of `ptosim run` for point i of the graph at path graph (malloc'd array of borrowed strings,
 * NULL-terminated); graph and wd (the point's folder) must outlive it. */
static const char **point_argv(const sweep *s, long i, const char *graph, const char *wd)
{
    const char **av = malloc(sizeof(*av) * (size_t)(8 + 2 * s->nlists + s->npass));
    if (!av)
        return NULL;
    int idx[SWEEP_MAX_LISTS], n = 0;
    point_indices(s, i, idx);
    av[n++] = s->exe;
    av[n++] = "run";
    av[n++] = graph;
    for (int k = 0; k < s->nlists; k++) {
        const sweep_list *l = &s->lists[k];
        if (l->kind == LIST_GEN)
            continue; /* it made the graph */
        av[n++] = l->kind == LIST_RUN ? KNOB_FLAGS[l->knob] : LIST_FLAGS[l->kind];
        av[n++] = l->vals[idx[k]];
    }
    for (int k = 0; k < s->npass; k++)
        av[n++] = s->pass[k];
    av[n++] = "--summary-csv";
    av[n++] = "-o";
    av[n++] = wd;
    av[n] = NULL;
    return av;
}

/* Writes what makes the sweep's points: GRAPH (absolute), the knob lists and the options passed through,
 * shell quoted. */
static void write_sweep_args(FILE *f, const sweep *s)
{
    sh_quote(f, s->gen_kind ? s->graph : s->graph_abs);
    for (int k = 0; k < s->nlists; k++) {
        const sweep_list *l = &s->lists[k];
        if (l->kind == LIST_RUN)
            outfile_printf(f, " %s ", KNOB_FLAGS[l->knob]);
        else if (l->kind == LIST_GEN)
            outfile_printf(f, " --gen-%s ", l->key);
        else
            outfile_printf(f, " %s ", LIST_FLAGS[l->kind]);
        sh_quote(f, l->text);
    }
    for (int k = 0; k < s->npass; k++) {
        fputc(' ', f);
        sh_quote(f, s->pass[k]);
    }
}

/* ---- the command line ---- */

static void sweep_free(sweep *s)
{
    for (int k = 0; k < s->nlists; k++) {
        for (int v = 0; v < s->lists[k].n; v++) {
            free(s->lists[k].shown[v]);
            free(s->lists[k].vals[v]);
        }
        free(s->lists[k].shown);
        free(s->lists[k].vals);
        free(s->lists[k].key);
    }
    free(s->hosts);
    free(s->pass);
    free(s->todo);
    if (s->lock_fd >= 0)
        close(s->lock_fd);
    s->lock_fd = -1;
}

/* Splits a knob's list at commas into its values (--set and --kernel-set: the part after KEY=, each value
 * going to the run as KEY=VALUE; a --gen-PARAM text, which is no list, whole). Returns 0, or -1 when out of
 * memory. */
static int split_list(sweep_list *l, bool whole)
{
    bool keyed = l->kind == LIST_SET || l->kind == LIST_KERNEL;
    const char *list = keyed ? strchr(l->text, '=') + 1 : l->text;
    size_t klen = keyed ? (size_t)(list - l->text) : 0; /* "KEY=" */
    int n = 1;
    for (const char *p = list; *p && !whole; p++)
        n += *p == ',';
    l->shown = calloc((size_t)n, sizeof(char *));
    l->vals = calloc((size_t)n, sizeof(char *));
    if (!l->shown || !l->vals)
        return -1;
    const char *p = list;
    for (int v = 0; v < n; v++) {
        const char *e = whole ? NULL : strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        l->shown[v] = strndup(p, len);
        l->vals[v] = malloc(klen + len + 1);
        l->n++;
        if (!l->shown[v] || !l->vals[v])
            return -1;
        memcpy(l->vals[v], l->text, klen);
        memcpy(l->vals[v] + klen, p, len);
        l->vals[v][klen + len] = '\0';
        for (char *c = l->vals[v]; *c && l->kind == LIST_RUN; c++)
            if (*c == '/') /* a/b/c/d is the run's a,b,c,d (commas separate the list) */
                *c = ',';
        p = e ? e + 1 : p + len;
    }
    return 0;
}

/* The list of kind kind and key (its length klen) among s's lists, or NULL. */
static sweep_list *find_list(sweep *s, list_kind kind, int knob, const char *key, size_t klen)
{
    for (int k = 0; k < s->nlists; k++) {
        sweep_list *l = &s->lists[k];
        if (l->kind == kind &&
            (kind == LIST_RUN ? l->knob == knob : strlen(l->key) == klen && strncmp(l->key, key, klen) == 0))
            return l;
    }
    return NULL;
}

/* Adds a list of kind kind (key: its first klen bytes; text: as written). Returns 0, or an exit status after
 * printing why. */
static int add_list(sweep *s, list_kind kind, int knob, const char *key, size_t klen, const char *text,
                    bool whole)
{
    if (s->nlists == SWEEP_MAX_LISTS || (kind != LIST_RUN && s->nextra == SWEEP_MAX_EXTRA)) {
        fprintf(stderr, "ptosim sweep: more than %d --set, --kernel-set and --gen-* lists; split the sweep\n",
                SWEEP_MAX_EXTRA);
        return EXIT_USAGE;
    }
    sweep_list *l = &s->lists[s->nlists++];
    l->kind = kind;
    l->knob = kind == LIST_RUN ? knob : SWEEP_KNOBS + s->nextra++;
    l->text = text;
    if ((kind != LIST_RUN && !(l->key = strndup(key, klen))) || split_list(l, whole) != 0) {
        fputs("ptosim sweep: out of memory\n", stderr);
        return EXIT_INTERNAL;
    }
    return 0;
}

/* Parses the arguments after "sweep" (except --collect). Returns 0, 1 after --help, or an exit status
 * (> 1) after printing why. */
static int parse(int argc, char **argv, sweep *s)
{
    memset(s, 0, sizeof(*s));
    s->point = -1;
    s->lock_fd = -1;
    s->hosts = calloc((size_t)argc + 1, sizeof(char *));
    s->pass = calloc((size_t)argc + 1, sizeof(char *));
    if (!s->hosts || !s->pass) {
        fputs("ptosim sweep: out of memory\n", stderr);
        return EXIT_INTERNAL;
    }
    for (int i = 0; i < argc; i++)
        if (cli_is_help(argv[i])) {
            sweep_usage();
            return 1;
        }
    if (argc == 0 || (argv[0][0] == '-' && strcmp(argv[0], GSRC_STDIN) != 0)) {
        fputs("ptosim sweep: missing GRAPH\n", stderr);
        return EXIT_USAGE;
    }
    s->graph = argv[0];
    s->argc = argc;
    s->argv = argv;
    if (strncmp(s->graph, GEN_PREFIX, strlen(GEN_PREFIX)) == 0)
        s->gen_kind = s->graph + strlen(GEN_PREFIX);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL, *text;
        int knob = -1, rc;
        for (int k = 0; k < SWEEP_KNOBS && knob < 0; k++)
            if (cli_opt_is(a, KNOB_FLAGS[k], &v))
                knob = k;
        bool set = cli_opt_is(a, "--set", &v), kset = !set && cli_opt_is(a, "--kernel-set", &v);
        if (knob >= 0) {
            if (take(argc, argv, &i, KNOB_FLAGS[knob], v, &text) != 0)
                return EXIT_USAGE;
            if (find_list(s, LIST_RUN, knob, NULL, 0)) {
                msgtext_print(stderr, "ptosim sweep: %s given twice (give one list per knob)", KNOB_FLAGS[knob]);
                return EXIT_USAGE;
            }
            if ((rc = add_list(s, LIST_RUN, knob, NULL, 0, text, false)) != 0)
                return rc;
        } else if (set || kset) {
            /* KEY=LIST: a list (a comma after the '=') is swept, one value goes to every run as it is */
            const char *flag = set ? "--set" : "--kernel-set";
            if (take(argc, argv, &i, flag, v, &text) != 0)
                return EXIT_USAGE;
            const char *eq = strchr(text, '=');
            if (!eq || !strchr(eq, ',')) {
                s->pass[s->npass++] = a;
                if (!v) /* the value was the next argument */
                    s->pass[s->npass++] = text;
                continue;
            }
            if (eq == text) {
                msgtext_print(stderr, "ptosim sweep: %s %s: expected %s=LIST", flag, text,
                        set ? "KEY" : "NAME.FIELD");
                return EXIT_USAGE;
            }
            for (int k = 0; set && k < SWEEP_KNOBS; k++)
                if (strlen(KNOB_RUNCONFIG[k]) == (size_t)(eq - text) &&
                    strncmp(text, KNOB_RUNCONFIG[k], (size_t)(eq - text)) == 0) {
                    /* the platform's default ring sizes: the column would be the run's own knob's */
                    msgtext_print(stderr, "ptosim sweep: --set %s: %s is the run's own knob; sweep it as %s %s",
                            text, KNOB_RUNCONFIG[k], KNOB_FLAGS[k], eq + 1);
                    return EXIT_USAGE;
                }
            if (find_list(s, set ? LIST_SET : LIST_KERNEL, -1, text, (size_t)(eq - text))) {
                msgtext_print(stderr, "ptosim sweep: %s %.*s given twice (give one list per knob)", flag,
                        (int)(eq - text), text);
                return EXIT_USAGE;
            }
            if ((rc = add_list(s, set ? LIST_SET : LIST_KERNEL, -1, text, (size_t)(eq - text), text,
                               false)) != 0)
                return rc;
        } else if (strncmp(a, "--gen-", 6) == 0) {
            /* a parameter of the generator: every --gen-PARAM is a column, a list is swept */
            const char *name = a + 6, *eq = strchr(name, '=');
            size_t nlen = eq ? (size_t)(eq - name) : strlen(name);
            if (!s->gen_kind) {
                msgtext_print(stderr,
                        "ptosim sweep: %s: a generator's parameter: give GRAPH as gen:KIND (ptosim sweep "
                        "gen:granularity --gen-k 24,48 -o DIR)",
                        a);
                return EXIT_USAGE;
            }
            if (take(argc, argv, &i, a, eq ? eq + 1 : NULL, &text) != 0)
                return EXIT_USAGE;
            if (find_list(s, LIST_GEN, -1, name, nlen)) {
                fprintf(stderr, "ptosim sweep: --gen-%.*s given twice (give one list per knob)\n", (int)nlen,
                        name);
                return EXIT_USAGE;
            }
            char pname[64];
            snprintf(pname, sizeof(pname), "%.*s", (int)nlen, name);
            if ((rc = add_list(s, LIST_GEN, -1, name, nlen, text, !gen_param_listable(s->gen_kind, pname))) !=
                0)
                return rc;
        } else if (cli_short_is(a, "-o", &v) || cli_opt_is(a, "--work-dir", &v) ||
                   cli_opt_is(a, "--resume", &v)) {
            bool resume = cli_opt_is(a, "--resume", &v);
            if (s->dir) {
                fputs("ptosim sweep: give the sweep's folder once: -o DIR, or --resume DIR to go on with the "
                      "sweep "
                      "in it\n",
                      stderr);
                return EXIT_USAGE;
            }
            if (take(argc, argv, &i, resume ? "--resume" : "--work-dir", v, &s->dir) != 0)
                return EXIT_USAGE;
            s->resume = resume;
        } else if (cli_short_is(a, "-j", &v) || cli_opt_is(a, "--jobs", &v)) {
            if (take(argc, argv, &i, "-j", v, &text) != 0)
                return EXIT_USAGE;
            if (parse_long(text, 1, SWEEP_MAX_JOBS, &s->jobs) != 0) {
                msgtext_print(stderr, "ptosim sweep: -j: '%s' is not a number of jobs in [1, %d]", text,
                        SWEEP_MAX_JOBS);
                return EXIT_USAGE;
            }
        } else if (cli_opt_is(a, "--engine", &v)) {
            if (take(argc, argv, &i, "--engine", v, &text) != 0)
                return EXIT_USAGE;
            if (strcmp(text, "local") == 0)
                s->engine = ENGINE_LOCAL;
            else if (strcmp(text, "slurm") == 0)
                s->engine = ENGINE_SLURM;
            else if (strcmp(text, "parallel") == 0)
                s->engine = ENGINE_PARALLEL;
            else {
                msgtext_print(stderr, "ptosim sweep: --engine: '%s' is not an engine (local, slurm, parallel)",
                        text);
                return EXIT_USAGE;
            }
        } else if (cli_opt_is(a, "--parallel-args", &v)) {
            if (take(argc, argv, &i, "--parallel-args", v, &s->parallel_args) != 0)
                return EXIT_USAGE;
        } else if (cli_short_is(a, "-S", &v) || cli_opt_is(a, "--sshlogin", &v)) {
            if (take(argc, argv, &i, "--sshlogin", v, &s->hosts[s->nhosts]) != 0)
                return EXIT_USAGE;
            s->nhosts++;
        } else if (cli_opt_is(a, "--point", &v)) {
            if (take(argc, argv, &i, "--point", v, &text) != 0)
                return EXIT_USAGE;
            if (parse_long(text, 0, SWEEP_MAX_POINTS - 1, &s->point) != 0) {
                msgtext_print(stderr, "ptosim sweep: --point: '%s' is not a point index", text);
                return EXIT_USAGE;
            }
        } else if (cli_opt_is(a, "--collect", &v) || cli_opt_is(a, "--best", &v)) {
            const char *what = cli_opt_is(a, "--collect", &v) ? "--collect" : "--best";
            msgtext_print(stderr, "ptosim sweep: %s DIR takes no other argument (ptosim sweep %s DIR)", what,
                    what);
            return EXIT_USAGE;
        } else if (cli_opt_is(a, "--perfetto", &v)) {
            /* one file for every point would be written by all of them at once */
            fputs("ptosim sweep: --perfetto FILE would have every point write the same file; give "
                  "--enable-perfetto for a trace in each point's folder\n",
                  stderr);
            return EXIT_USAGE;
        } else {
            s->pass[s->npass++] = a;
        }
    }
    if (!s->dir) {
        fputs("ptosim sweep: missing -o DIR (the sweep writes DIR/sweep.csv and a folder per point under "
              "DIR/points/), or --resume DIR\n",
              stderr);
        return EXIT_USAGE;
    }
    if ((s->parallel_args || s->nhosts) && s->engine != ENGINE_PARALLEL) {
        fputs("ptosim sweep: --parallel-args and -S are options of --engine parallel\n", stderr);
        return EXIT_USAGE;
    }
    s->npoints = s->ngraphs = 1;
    for (int k = 0; k < s->nlists; k++) {
        s->npoints *= s->lists[k].n;
        if (s->npoints > SWEEP_MAX_POINTS) {
            fprintf(stderr, "ptosim sweep: more than %d points; split the sweep\n", SWEEP_MAX_POINTS);
            return EXIT_USAGE;
        }
        if (s->lists[k].kind == LIST_GEN && (s->ngraphs *= s->lists[k].n) > SWEEP_MAX_GRAPHS) {
            fprintf(stderr, "ptosim sweep: the --gen-* lists make more than %d graphs; split the sweep\n",
                    SWEEP_MAX_GRAPHS);
            return EXIT_USAGE;
        }
    }
    if (s->point >= s->npoints) {
        msgtext_print(stderr, "ptosim sweep: --point %ld: the sweep has %ld point%s (0-%ld)", s->point,
                s->npoints, s->npoints == 1 ? "" : "s", s->npoints - 1);
        return EXIT_USAGE;
    }
    return 0;
}

/* The arguments of `ptosim gen` for generated graph g (argv[0] the kind; at most 1 + 2 * SWEEP_MAX_LISTS). */
static int gen_args(const sweep *s, long g, char *av[], char names[][72])
{
    int n = 0;
    av[n++] = (char *)s->gen_kind;
    for (int k = s->nlists - 1; k >= 0; k--) /* the last list varies fastest (point_graph) */
        if (s->lists[k].kind == LIST_GEN) {
            snprintf(names[k], 72, "--%s", s->lists[k].key);
            av[n++] = names[k];
            av[n++] = s->lists[k].vals[g % s->lists[k].n];
            g /= s->lists[k].n;
        }
    return n;
}

/* GRAPH gen:KIND: checks every graph the --gen-* lists make as `ptosim gen` would, with its messages. Returns
 * 0, or an exit status after printing why. */
static int check_gen(const sweep *s)
{
    for (long g = 0; s->gen_kind && g < s->ngraphs; g++) {
        char *av[1 + 2 * SWEEP_MAX_LISTS], names[SWEEP_MAX_LISTS][72], err[1024];
        int n = gen_args(s, g, av, names);
        int rc = gen_check(n, av, err, sizeof(err));
        if (rc != 0) {
            /* gen's message without its "ptosim gen: " */
            const char *why = strncmp(err, "ptosim gen: ", 12) == 0 ? err + 12 : err;
            msgtext_print(stderr, "ptosim sweep: %s (GRAPH %s)", why, s->graph);
            return rc;
        }
    }
    return 0;
}

/* A word among the run options that is no option nor an option's value (stray, a pointer into s->argv): a
 * usage error naming it, and the list it likely belongs to. Returns the exit status. */
static int stray_argument(const sweep *s, const char *stray)
{
    int i = 0;
    while (i < s->argc && s->argv[i] != stray)
        i++;
    /* after a knob's list given apart ("--ring-task-window 16 64"): a second value of it */
    const char *prev = i >= 2 ? s->argv[i - 2] : NULL, *v;
    for (int k = 0; prev && k < SWEEP_KNOBS; k++)
        if (cli_opt_is(prev, KNOB_FLAGS[k], &v) && !v) {
            msgtext_print(stderr,
                    "ptosim sweep: '%s' is not an option nor an option's value: a knob's values are one "
                    "comma-separated list (%s %s,%s)",
                    stray, KNOB_FLAGS[k], s->argv[i - 1], stray);
            return EXIT_USAGE;
        }
    msgtext_print(stderr,
            "ptosim sweep: '%s' is not an option nor an option's value: a sweep takes one GRAPH (%s), and a "
            "knob's values are one comma-separated list",
            stray, s->graph);
    return EXIT_USAGE;
}

/* Checks that the graph at path (named shown in messages) has a kernel of every --kernel-set NAME given
 * (swept or not). Returns 0, or an exit status after printing why. */
static int check_kernel_names(const sweep *s, const char *path, const char *shown)
{
    if (!s->run.nkernel_sets)
        return 0;
    graph hdr;
    char err[GRAPH_ERR_MAX];
    if (graph_open(&hdr, path, err, sizeof(err)) != 0) {
        msgtext_print(stderr, "ptosim sweep: %s", err);
        return EXIT_GRAPH;
    }
    int rc = 0;
    for (int i = 0; i < s->run.nkernel_sets && !rc; i++) {
        char name[GRAPH_NAME_MAX];
        int field;
        bool value;
        if (run_kernel_of(&hdr, s->run.kernel_sets[i], name, sizeof(name), &field, &value) < 0) {
            const char *eq = strchr(s->run.kernel_sets[i], '=');
            msgtext_print(stderr, "ptosim sweep: --kernel-set %.*s: graph %s (%s) has no kernel '%s'",
                    (int)(eq - s->run.kernel_sets[i]), s->run.kernel_sets[i], hdr.name, shown, name);
            rc = EXIT_USAGE;
        }
    }
    graph_close(&hdr);
    return rc;
}

/* Refuses what an engine's script or command line cannot carry: GNU parallel replaces its strings ({}, {#},
 * {.}, {= =} ...) in every word of the command, quoted or not, so no word it gets may hold a '{'; a Slurm
 * script's #SBATCH lines hold DIR, where a line break would end the comment. Everything else reaches them
 * shell-quoted. Returns 0, or an exit status after printing why. */
static int check_engine_words(const sweep *s)
{
    if (s->engine == ENGINE_SLURM && s->point < 0 && (strpbrk(s->dir, "\n\r") || strpbrk(s->cwd, "\n\r"))) {
        fputs("ptosim sweep: --engine slurm: the sweep's folder holds a line break, which would end the "
              "script's #SBATCH line; give another -o DIR\n",
              stderr);
        return EXIT_USAGE;
    }
    if (s->engine != ENGINE_PARALLEL || s->point >= 0)
        return 0;
    const char *words[4 + 2 * SWEEP_MAX_LISTS], *what[4 + 2 * SWEEP_MAX_LISTS];
    int n = 0;
    words[n] = s->dir, what[n++] = "the sweep's folder";
    words[n] = s->cwd, what[n++] = "the current folder";
    words[n] = s->exe, what[n++] = "this program's path";
    words[n] = s->graph, what[n++] = "GRAPH";
    for (int k = 0; k < s->nlists; k++)
        words[n] = s->lists[k].text, what[n++] = "a knob's list";
    for (int k = 0; k < s->npass; k++) {
        const char *w = s->pass[k];
        if (strchr(w, '{')) {
            msgtext_print(stderr,
                    "ptosim sweep: --engine parallel: '%s' holds a '{', which GNU parallel would replace "
                    "with its own strings ({}, {#}, ...); run it with --engine local or slurm",
                    w);
            return EXIT_USAGE;
        }
    }
    for (int k = 0; k < n; k++)
        if (strchr(words[k], '{')) {
            fprintf(
                stderr,
                "ptosim sweep: --engine parallel: %s '%s' holds a '{', which GNU parallel would replace with "
                "its own strings ({}, {#}, ...); rename it, or run with --engine local or slurm\n",
                what[k], words[k]);
            return EXIT_USAGE;
        }
    return 0;
}

/* Checks every knob value and the options passed through as `ptosim run` would, with its messages, and the
 * platform with its --set overrides, so a mistake stops the sweep before any point runs. Returns 0, or an
 * exit status after printing why. */
/* Locks the sweep folder dir (shown as shown) against a second sweep (or a run, or a --collect) into it: a
 * flock on the folder itself, held until the process ends (not by the points a sweep starts: the descriptor
 * is close-on-exec). advice ends the message when another process holds it. Returns the descriptor holding
 * the lock, -1 on a file system without locks (after a warning: the sweep goes on unlocked), or -2 after
 * saying why the folder cannot be opened or that another process holds it (status EXIT_INTERNAL). */
static int lock_folder(const char *shown, const char *dir, const char *advice)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        msgtext_print(stderr, "ptosim sweep: %s: cannot open the sweep folder: %s", shown, strerror(errno));
        return -2;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        close(fd);
        if (e == EWOULDBLOCK) {
            msgtext_print(stderr, "ptosim sweep: %s: another ptosim sweep or run is writing to this folder; %s",
                    shown, advice);
            return -2;
        }
        msgtext_print(stderr, "ptosim sweep: %s: cannot lock the sweep folder (%s); do not let two sweeps write to it "
                        "at once",
                shown, strerror(e));
        return -1;
    }
    return fd;
}

/* Locks s->dir_abs for this sweep (lock_folder). Returns 0, or EXIT_INTERNAL after saying why not. */
static int lock_dir(sweep *s)
{
    int fd = lock_folder(s->dir, s->dir_abs, "wait for it to end or give another -o");
    if (fd == -2)
        return EXIT_INTERNAL;
    s->lock_fd = fd;
    return 0;
}

/* SIGINT or SIGTERM came while the graph was read and checked, before the sweep touched its folder: says so
 * and returns the signal's exit status (nothing was written; the reading stopped at its next line). */
static int stopped_early(void)
{
    msgtext_print(stderr, "ptosim sweep: interrupted by %s before any point ran; nothing was written",
            intr_name(intr_signal()));
    return intr_status(intr_signal());
}

/* The folders a sweep goes into below DIR, and the files it reads back there: a link at any of them (a
 * folder someone sent) is refused before the sweep writes anything. A file it writes whole (sweep.csv,
 * graph.compiled, a point's row.csv and stderr.txt) replaces a link there instead: the rename or the
 * removal takes the link, never what it points to. Returns 0, or EXIT_INTERNAL after naming the link. */
static int refuse_links(const sweep *s)
{
    const char *names[] = {"points", s->gen_kind ? GRAPHS_DIR : NULL,
                           s->engine == ENGINE_SLURM ? "slurm" : NULL, s->resume ? "points.csv" : NULL,
                           s->resume ? "sweep.cmd" : NULL};
    char path[PATH_MAX + 64];
    int rc = 0;
    for (size_t k = 0; k < sizeof(names) / sizeof(names[0]) && rc == 0; k++)
        if (names[k]) {
            snprintf(path, sizeof(path), "%s/%s", s->dir_abs, names[k]);
            rc = refuse_link_at(path);
        }
    snprintf(path, sizeof(path), "%s/points", s->dir_abs);
    struct stat st;
    bool points = userdir_stat(path, &st) == 0;
    for (long i = 0; i < s->npoints && points && rc == 0; i++) {
        point_dir(s, i, path, sizeof(path));
        rc = refuse_link_at(path);
    }
    return rc;
}

static int check(sweep *s)
{
    char err[4096];
    cli_run opt;
    for (int k = 0; k < s->nlists; k++)
        for (int v = 0; v < s->lists[k].n && s->lists[k].kind != LIST_GEN; v++) {
            const sweep_list *l = &s->lists[k];
            char *av[] = {(char *)(l->kind == LIST_RUN ? KNOB_FLAGS[l->knob] : LIST_FLAGS[l->kind]),
                          l->vals[v], "GRAPH"};
            if (cli_parse_run(3, av, &opt, err, sizeof(err)) != 0) {
                msgtext_print(stderr, "ptosim sweep: %s", err);
                return EXIT_USAGE;
            }
        }
    int rc = check_gen(s);
    if (rc != 0)
        return rc;
    /* a pipe is copied into DIR below, once the folder is there; generated graphs are written there */
    bool spool = !s->gen_kind && gsrc_read_once(s->graph);
    FILE *g = spool || s->gen_kind ? NULL : fopen(s->graph, "r");
    if (!spool && !g && !s->gen_kind) {
        msgtext_print(stderr, "ptosim sweep: %s: cannot read the graph: %s", s->graph, strerror(errno));
        return EXIT_USAGE;
    }
    if (g)
        fclose(g);
    ssize_t n = readlink("/proc/self/exe", s->exe, sizeof(s->exe) - 1);
    if (n <= 0) {
        msgtext_print(stderr, "ptosim sweep: cannot find this program (/proc/self/exe): %s", strerror(errno));
        return EXIT_INTERNAL;
    }
    s->exe[n] = '\0';
    if ((!spool && !s->gen_kind && !realpath(s->graph, s->graph_abs)) || !getcwd(s->cwd, sizeof(s->cwd))) {
        msgtext_print(stderr, "ptosim sweep: %s: %s", s->graph, strerror(errno));
        return EXIT_INTERNAL;
    }
    /* the options passed through, with point 0's knob values; the graph and work dir are stand-ins */
    const char **av = point_argv(s, 0, "GRAPH", "DIR");
    if (!av) {
        fputs("ptosim sweep: out of memory\n", stderr);
        return EXIT_INTERNAL;
    }
    int ac = 0;
    while (av[ac])
        ac++;
    rc = cli_parse_run(ac - 2, (char **)av + 2, &opt, err, sizeof(err));
    free(av);
    if (rc != 0) {
        fprintf(stderr, "ptosim sweep: %s" LISTS_HINT "\n", err);
        return EXIT_USAGE;
    }
    if (opt.ngraphs > 1)
        return stray_argument(s, opt.graphs[1]);
    s->run = opt; /* its strings are the sweep's own */
    /* the kernel names of a graph file (one from a pipe or a generator once it is in DIR) */
    if (!spool && !s->gen_kind && (rc = check_kernel_names(s, s->graph, s->graph)) != 0)
        return rc;
    /* values the run checks after parsing: PMU type and timeouts (environment fallbacks warn in the run) */
    char warn[512];
    int pmu;
    long t;
    const char *flags[3] = {"--scheduler-timeout-ms", "--op-execute-timeout-us", "--stream-sync-timeout-ms"};
    const char *values[3] = {opt.sched_timeout, opt.op_timeout, opt.stream_timeout};
    bool bad =
        runcfg_pmu_type(opt.pmu_given, opt.pmu_value, NULL, &pmu, warn, sizeof(warn), err, sizeof(err));
    for (int k = 0; k < 3 && !bad; k++)
        bad = values[k] && runcfg_timeout(flags[k], values[k], "", k == 1 ? "microseconds" : "milliseconds",
                                          1, &t, warn, sizeof(warn), err, sizeof(err)) != 0;
    if (bad) {
        fprintf(stderr, "ptosim sweep: %s" LISTS_HINT "\n", err);
        return EXIT_USAGE;
    }
    /* the platform as run.c builds it, once per combination of the lists that change it: the thread count
     * and the --set lists (opt.sets holds point 0's value of each, in place, among the ones passed through)
     */
    char pdir[PATH_MAX];
    run_platform_dir(pdir, sizeof(pdir));
    platform base;
    int prc = platform_load(&base, opt.platform, pdir, err, sizeof(err));
    if (prc != 0) {
        msgtext_print(stderr, "ptosim sweep: %s", err);
        return prc == PLATFORM_OOM ? EXIT_INTERNAL : EXIT_USAGE;
    }
    const sweep_list *pl[SWEEP_MAX_LISTS];
    int npl = 0, at[SWEEP_MAX_LISTS] = {0};
    for (int k = 0; k < s->nlists; k++)
        if (s->lists[k].knob == SWEEP_KNOB_THREADS || s->lists[k].kind == LIST_SET)
            pl[npl++] = &s->lists[k];
    for (int i = 0; i < opt.nsets; i++)
        for (int k = 0; k < npl; k++) {
            size_t klen = pl[k]->kind == LIST_SET ? strlen(pl[k]->key) : 0;
            if (klen && strncmp(opt.sets[i], pl[k]->key, klen) == 0 && opt.sets[i][klen] == '=' &&
                opt.sets[i] != pl[k]->vals[0]) {
                msgtext_print(stderr, "ptosim sweep: --set %s given twice (a list and %s)", pl[k]->key,
                        opt.sets[i]);
                return EXIT_USAGE;
            }
        }
    for (bool more = true; more;) {
        platform p = base;
        for (int k = 0; k < npl; k++) {
            long nthreads = 0;
            if (pl[k]->kind == LIST_RUN && parse_long(pl[k]->vals[at[k]], 0, 4, &nthreads) == 0 && nthreads)
                p.aicpu_threads = nthreads; /* checked above */
        }
        for (int i = 0; i < opt.nsets; i++) {
            const char *set = opt.sets[i];
            for (int k = 0; k < npl; k++)
                if (pl[k]->kind == LIST_SET && set == pl[k]->vals[0])
                    set = pl[k]->vals[at[k]];
            if (platform_set(&p, set, err, sizeof(err)) != 0) {
                msgtext_print(stderr, "ptosim sweep: %s", err);
                return EXIT_USAGE;
            }
        }
        if (platform_validate(&p, err, sizeof(err)) != 0) {
            /* with --set lists, which combination */
            bool sets = false;
            for (int k = 0; k < npl; k++)
                sets |= pl[k]->kind == LIST_SET;
            char pname[4 * sizeof(p.name)], perr[4 * sizeof(err)];
            msgtext_escape(pname, sizeof(pname), p.name);
            msgtext_escape(perr, sizeof(perr), err);
            fprintf(stderr, "ptosim sweep: platform %s: %s", pname, perr);
            for (int k = 0; k < npl && sets; k++)
                fprintf(stderr, "%s%s %s", k ? " " : " (at ",
                        pl[k]->kind == LIST_RUN ? "--aicpu-thread-num" : "--set", pl[k]->vals[at[k]]);
            fputs(sets ? ")\n" : "\n", stderr);
            return EXIT_USAGE;
        }
        /* the next combination, the last list fastest */
        more = false;
        for (int k = npl - 1; k >= 0 && !more; k--) {
            more = ++at[k] < pl[k]->n;
            if (!more)
                at[k] = 0;
        }
    }
    if ((rc = check_engine_words(s)) != 0)
        return rc;
    if (s->engine == ENGINE_PARALLEL && s->point < 0 && !on_path("parallel")) {
        fputs("ptosim sweep: --engine parallel needs GNU parallel, which is not on PATH (Debian: apt-get "
              "install parallel); --engine local runs the points here\n",
              stderr);
        return EXIT_USAGE;
    }
    /* The whole graph is read and checked before DIR is touched: a malformed one leaves a finished sweep's
     * folder as it was (its sweep.csv, points.csv and sweep.cmd) and makes no folder. A pipe is read into an
     * unnamed temporary copy first (gone when the process ends), and that copy is checked. */
    char temp[PATH_MAX];
    if (s->point < 0 && spool) {
        int src = gsrc_spool_temp(s->graph, temp, sizeof(temp), err, sizeof(err));
        if (src != 0 && intr_signal())
            return stopped_early();
        if (src != 0) {
            msgtext_print(stderr, "ptosim sweep: %s", err);
            return src > 0 ? EXIT_GRAPH : EXIT_INTERNAL;
        }
    }
    if (s->point < 0 && !s->gen_kind && graph_validate(spool ? temp : s->graph, err, sizeof(err)) != 0) {
        if (intr_signal())
            return stopped_early();
        msgtext_print(stderr, "ptosim sweep: %s", err);
        return EXIT_GRAPH;
    }
    if (s->point < 0 && intr_signal())
        return stopped_early();
    if (s->point < 0 && spool && (rc = check_kernel_names(s, temp, gsrc_name(s->graph))) != 0)
        return rc;
    if (outfile_mkdirs(s->dir, err, sizeof(err)) != 0) {
        msgtext_print(stderr, "ptosim sweep: %s", err);
        return EXIT_INTERNAL;
    }
    if (!realpath(s->dir, s->dir_abs)) {
        msgtext_print(stderr, "ptosim sweep: %s: %s", s->dir, strerror(errno));
        return EXIT_INTERNAL;
    }
    userdir_add(s->dir_abs); /* named: nothing below it is reached through a link */
    if (s->point < 0 && (rc = lock_dir(s)) != 0)
        return rc;
    if (s->point < 0 && (rc = refuse_links(s)) != 0)
        return rc;
    if (spool) {
        /* every point reads the graph (on other machines, with Slurm or parallel): DIR/graph.jsonl is the
         * copy they all read, compiled below before any point runs */
        if ((size_t)snprintf(s->graph_abs, sizeof(s->graph_abs), "%s/" SPOOL_NAME, s->dir_abs) >=
            sizeof(s->graph_abs)) {
            fprintf(stderr, "ptosim sweep: %s/" SPOOL_NAME ": path too long\n", s->dir);
            return EXIT_USAGE;
        }
        int src = gsrc_spool(s->point < 0 ? temp : s->graph, s->graph_abs, err, sizeof(err));
        if (src != 0 && intr_signal()) /* a point alone has written nothing yet */
            return s->point < 0 ? SWEEP_STOPPED : stopped_early();
        if (src != 0) {
            msgtext_print(stderr, "ptosim sweep: %s", err);
            return src > 0 ? EXIT_GRAPH : EXIT_INTERNAL;
        }
        s->graph = s->graph_abs;
    }
    return 0;
}

/* ---- the folder: manifest, rows, merge ---- */

/* Writes text to DIR/name whole or not at all. Returns 0, or -1 after printing why. */
static int write_whole(const sweep *s, const char *name, const char *text, size_t len)
{
    char path[PATH_MAX + 64], err[4200];
    snprintf(path, sizeof(path), "%s/%s", s->dir_abs, name);
    outfile o;
    FILE *f = outfile_open(&o, path, err, sizeof(err));
    if (!f || fwrite(text, 1, len, f) != len || outfile_commit(&o, err, sizeof(err)) != 0) {
        if (f && !err[0])
            snprintf(err, sizeof(err), "%s: cannot write: %s", path, strerror(errno));
        msgtext_print(stderr, "ptosim sweep: %s", err);
        return -1;
    }
    return 0;
}

/* The "\n# the graph: ..." line of a sweep.cmd text (its last line), or NULL when it has none (an older
 * ptosim's). */
static const char *graph_line(const char *cmd)
{
    const char *last = NULL;
    for (const char *p = cmd; (p = strstr(p, "\n" GRAPH_LINE)) != NULL; p++)
        last = p;
    return last;
}

/* Writes DIR/points.csv (the manifest --collect reads) and DIR/sweep.cmd (what makes the points: the graph,
 * the lists and the options passed through, then the size and hash of the graph's bytes) and removes a
 * previous sweep.csv, so the folder never pairs these points with older results. With --resume, a folder that
 * holds a sweep keeps both files, which must be this command's. Returns 0, or an exit status after printing
 * why. */
static int write_manifest(sweep *s)
{
    char *man = NULL, *cmd = NULL, path[PATH_MAX + 64];
    size_t man_len = 0, cmd_len = 0;
    int rc = 0;
    FILE *m = open_memstream(&man, &man_len), *c = open_memstream(&cmd, &cmd_len);
    if (m) {
        /* the run's knobs, then a column per other list, named by its key */
        const char *names[SWEEP_MAX_COLS];
        char buf[SWEEP_MAX_COLS][160];
        sweep_columns(s, names, buf);
        int ncols = SWEEP_KNOBS + s->nextra;
        fwrite(POINTS_HEADER, 1, strlen(POINTS_HEADER) - 1, m);
        for (int k = SWEEP_KNOBS; k < ncols; k++) {
            fputc(',', m);
            csv_put(m, names[k]);
        }
        fputc('\n', m);
        for (long i = 0; i < s->npoints; i++) {
            const char *cells[SWEEP_MAX_COLS];
            point_cells(s, i, cells);
            outfile_printf(m, "%ld,points/%04ld", i, i);
            for (int k = 0; k < ncols; k++) {
                fputc(',', m);
                csv_put(m, cells[k]);
            }
            fputc('\n', m);
        }
    }
    uint64_t bytes = 0;
    struct stat st;
    /* a gen:KIND sweep has no graph file: its generator and lists make the graphs, each compiled and checked
     * by its own hash (compile_gen_graphs) */
    if (!s->gen_kind && (gcomp_hash_file(s->graph, &s->graph_hash) != 0 || stat(s->graph, &st) != 0)) {
        msgtext_print(stderr, "ptosim sweep: %s: cannot read the graph: %s", s->graph, strerror(errno));
        if (m)
            fclose(m);
        if (c)
            fclose(c);
        rc = EXIT_GRAPH;
        goto out;
    }
    bytes = s->graph_bytes = s->gen_kind ? 0 : (uint64_t)st.st_size;
    if (c) {
        write_sweep_args(c, s);
        /* the graph's bytes, not its name: a --resume with an edited graph is refused by this line */
        if (s->gen_kind)
            outfile_printf(c, "\n" GRAPH_LINE "made by ptosim gen %s, one graph per point of its lists\n", s->gen_kind);
        else
            outfile_printf(c, "\n" GRAPH_LINE "%" PRIu64 " bytes hashing to %016" PRIx64 "\n", bytes, s->graph_hash);
    }
    int bad = !m || fclose(m) != 0 || !c || fclose(c) != 0 || !man || !cmd;
    if (bad) {
        fputs("ptosim sweep: out of memory\n", stderr);
        rc = EXIT_INTERNAL;
        goto out;
    }
    snprintf(path, sizeof(path), "%s/sweep.csv", s->dir_abs);
    userdir_remove(path);
    snprintf(path, sizeof(path), "%s/points.csv", s->dir_abs);
    char *old = s->resume ? read_file(path, NULL) : NULL;
    if (old) {
        snprintf(path, sizeof(path), "%s/sweep.cmd", s->dir_abs);
        char *old_cmd = read_file(path, NULL);
        /* the command is the first line; a sweep.cmd of an older ptosim has no graph line */
        const char *old_graph = old_cmd ? graph_line(old_cmd) : NULL, *new_graph = graph_line(cmd);
        size_t old_len = old_graph ? (size_t)(old_graph - old_cmd) + 1 : old_cmd ? strlen(old_cmd) : 0;
        size_t new_len = (size_t)(new_graph - cmd) + 1;
        if (strcmp(old, man) != 0) {
            fprintf(
                stderr,
                "ptosim sweep: --resume %s: its points.csv lists other points than this command's knob lists "
                "give; resume with the same lists in the same order, or start a new sweep with -o\n",
                s->dir);
            rc = EXIT_USAGE;
        } else if (old_cmd && (old_len != new_len || memcmp(old_cmd, cmd, new_len) != 0)) {
            /* one line each, each escaped: the commands end in their newline */
            int ol = (int)old_len - (old_len && old_cmd[old_len - 1] == '\n');
            int nl = (int)new_len - (new_len && cmd[new_len - 1] == '\n');
            msgtext_print(stderr, "ptosim sweep: --resume %s: the sweep there is of another graph or other run options:",
                          s->dir);
            msgtext_print(stderr, "  then: %.*s", ol, old_cmd);
            msgtext_print(stderr, "  now:  %.*s", nl, cmd);
            fputs("resume with the same command, or start a new sweep with -o\n", stderr);
            rc = EXIT_USAGE;
        } else if (old_graph && strcmp(old_graph, new_graph) != 0) {
            size_t n = strcspn(old_graph + 1 + strlen(GRAPH_LINE), "\n");
            fprintf(stderr,
                    "ptosim sweep: --resume %s: %s has changed since the sweep began (%.*s then, %" PRIu64
                    " bytes hashing to %016" PRIx64
                    " now), so its finished points are of another graph; start "
                    "the sweep again with -o\n",
                    s->dir, s->graph, (int)n, old_graph + 1 + strlen(GRAPH_LINE), bytes, s->graph_hash);
            rc = EXIT_USAGE;
        }
        s->began_known = old_graph != NULL;
        free(old_cmd);
        free(old);
        goto out;
    }
    s->began_known = true;
    if (write_whole(s, "points.csv", man, man_len) != 0 || write_whole(s, "sweep.cmd", cmd, cmd_len) != 0)
        rc = EXIT_INTERNAL;
out:
    free(man);
    free(cmd);
    return rc;
}

/* Does text hold exactly a CSV header and one row, both ending in a newline, with as many fields? Sets
 * *row to the row's start. */
static bool row_ok(const char *text, const char **row)
{
    const char *nl = strchr(text, '\n');
    if (!nl || nl == text)
        return false;
    const char *r = nl + 1, *end = csv_record_end(r); /* a quoted name may hold a line break */
    if (!*end || end == r || end[1] != '\0')
        return false;
    int fh = csv_count(text), fr = csv_count(r);
    *row = r;
    return fh > 0 && fh == fr;
}

/* What is wrong with a row.csv that row_ok refused (text NULL: unreadable). */
static const char *row_why(const char *text)
{
    return !text ? "is missing" : !text[0] ? "is empty" : "is not a CSV header and one row";
}

/* Prints why point i gave no row: how its run ended when known (status: a wait status, -1 = never
 * started, -2 = unknown), then its stderr. */
static void report_missing(const char *dir, long i, const char *pdir, const char *label, int status,
                           const char *why)
{
    char how[96] = "";
    if (status == -1)
        snprintf(how, sizeof(how), ": it did not start");
    else if (status >= 0 && WIFSIGNALED(status))
        snprintf(how, sizeof(how), ": killed by signal %d", WTERMSIG(status));
    else if (status >= 0 && WIFEXITED(status))
        snprintf(how, sizeof(how), ": exit %d", WEXITSTATUS(status));
    fprintf(stderr, "ptosim sweep: point %ld (%s) gave no row%s (%s/%s/row.csv %s)", i, label, how, dir, pdir,
            why);
    char path[PATH_MAX + 300];
    snprintf(path, sizeof(path), "%s/%s/stderr.txt", dir, pdir);
    size_t len = 0;
    char *text = read_file(path, &len);
    if (text && len) {
        msgtext_print(stderr, "; its stderr (%s):", path);
        fwrite(text, 1, len > SWEEP_STDERR_SHOWN ? SWEEP_STDERR_SHOWN : len, stderr);
        if (len > SWEEP_STDERR_SHOWN)
            fputs("\n[...]\n", stderr);
        else if (text[len - 1] != '\n')
            fputc('\n', stderr);
    } else {
        fputc('\n', stderr);
    }
    free(text);
}

/* Index of column name in a CSV header line, or -1. */
static int csv_column(const char *header, const char *name)
{
    char cell[256];
    for (int col = 0; csv_get(header, col, cell, sizeof(cell)); col++)
        if (strcmp(cell, name) == 0)
            return col;
    return -1;
}

/* Does field col of a CSV line equal value? */
static bool csv_field_is(const char *line, int col, const char *value)
{
    char cell[256];
    return csv_get(line, col, cell, sizeof(cell)) && strcmp(cell, value) == 0;
}

/* Field col of a CSV line as a number (NAN when absent or not a number). */
static double csv_number(const char *line, int col)
{
    char cell[64], *end;
    if (col < 0 || !csv_get(line, col, cell, sizeof(cell)))
        return NAN;
    double v = strtod(cell, &end);
    return end == cell ? NAN : v;
}

/* One point's makespan over its seeds (--repeat), for the noise summary. */
typedef struct noise_row {
    long point;      /* point index */
    char label[512]; /* its knob values */
    double mean;     /* makespan mean over the ok runs, us */
    double sigma;    /* ... sample sd */
    int runs;        /* ok runs */
} noise_row;

/* With --repeat, every point's makespan is a mean over seeds: names the best
 * point and the points whose difference from it is inside the noise. */
static void print_noise(const noise_row *v, long n)
{
    long best = -1;
    for (long i = 0; i < n; i++)
        if (v[i].runs > 0 && (best < 0 || v[i].mean < v[best].mean))
            best = i;
    if (best < 0)
        return;
    const noise_row *b = &v[best];
    printf("  makespan over %d seeds a point: best point %ld (%s) %.3f +/- %.3f us\n", b->runs, b->point,
           b->label, b->mean, b->sigma);
    int inside = 0;
    for (long i = 0; i < n; i++) {
        if (i == best || v[i].runs == 0 ||
            !report_inside_noise(v[i].mean, v[i].sigma, v[i].runs, b->mean, b->sigma, b->runs))
            continue;
        printf(
            "  inside its noise (no more than two standard errors apart): point %ld (%s) %.3f +/- %.3f us\n",
            v[i].point, v[i].label, v[i].mean, v[i].sigma);
        inside++;
    }
    if (!inside)
        puts("  every other point differs from it by more than the noise");
}

/* One line of DIR/points.csv, split in place. */
typedef struct manifest_line {
    long point;                        /* its index, the line's order */
    const char *dir;                   /* its folder, relative to DIR */
    const char *cells[SWEEP_MAX_COLS]; /* the knob values as written, "" = not swept */
} manifest_line;

/* DIR/points.csv, split in place. */
typedef struct manifest {
    char *text;                        /* the file (malloc'd), split in place */
    int ncols;                         /* knob columns: the run's four, then one per other list */
    const char *names[SWEEP_MAX_COLS]; /* their names */
    manifest_line *lines;              /* one per point (malloc'd) */
    long n;                            /* points */
} manifest;

static void manifest_free(manifest *m)
{
    free(m->lines);
    free(m->text);
}

/* Splits the CSV record at *p (in place: its line break becomes a NUL) into at most max fields; *p moves past
 * it. Returns the field count (max + 1 when there are more), or -1 for malformed quoting. */
static int next_record(char **p, char **f, int max)
{
    char *rec = *p, *end = (char *)csv_record_end(rec);
    *p = *end ? end + 1 : end;
    *end = '\0';
    return csv_split(rec, f, max);
}

/* Undoes csv_put's guard of a cell a spreadsheet would evaluate: a leading apostrophe. */
static const char *unguard(const char *cell)
{
    return cell[0] == '\'' ? cell + 1 : cell;
}

/* Reads DIR/points.csv into *m. Returns 0, or an exit status after printing why. */
static int read_manifest(const char *dir, manifest *m)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof(path), "%s/points.csv", dir);
    memset(m, 0, sizeof(*m));
    m->text = read_file(path, NULL);
    if (!m->text) {
        msgtext_print(stderr, "ptosim sweep: %s: cannot read: %s (is %s a sweep's folder?)", path,
                errno == EFBIG ? read_why : readall_why(errno), dir);
        return EXIT_USAGE;
    }
    size_t hl = strlen(POINTS_HEADER) - 1; /* the fixed columns; more may follow */
    char *f[2 + SWEEP_MAX_COLS], *p = m->text;
    int nh = strncmp(m->text, POINTS_HEADER, hl) == 0 ? next_record(&p, f, 2 + SWEEP_MAX_COLS) : -1;
    if (nh < 2 + SWEEP_KNOBS || nh > 2 + SWEEP_MAX_COLS) {
        msgtext_print(stderr, "ptosim sweep: %s: not a sweep's list of points (the first line is not %.*s)", path,
                (int)hl, POINTS_HEADER);
        return EXIT_USAGE;
    }
    m->ncols = nh - 2;
    for (int k = 0; k < m->ncols; k++)
        m->names[k] = unguard(f[2 + k]);
    long cap = 0;
    for (const char *c = p; *c; c++)
        cap += *c == '\n';
    m->lines = malloc(sizeof(*m->lines) * (size_t)(cap + 1));
    if (!m->lines) {
        fputs("ptosim sweep: out of memory\n", stderr);
        return EXIT_INTERNAL;
    }
    while (*p) {
        long idx;
        int nc = next_record(&p, f, 2 + SWEEP_MAX_COLS);
        if (nc != nh || parse_long(f[0], 0, SWEEP_MAX_POINTS, &idx) != 0 || idx != m->n ||
            strstr(f[1], "..") || f[1][0] == '/') {
            msgtext_print(stderr, "ptosim sweep: %s:%ld: not a point line (point,dir,%d knob values)", path,
                    m->n + 2, m->ncols);
            return EXIT_USAGE;
        }
        manifest_line *l = &m->lines[m->n++];
        l->point = idx;
        l->dir = f[1];
        for (int k = 0; k < m->ncols; k++)
            l->cells[k] = unguard(f[2 + k]);
    }
    if (m->n == 0) {
        msgtext_print(stderr, "ptosim sweep: %s lists no point", path);
        return EXIT_USAGE;
    }
    return 0;
}

/* Reads the point's row.csv (malloc'd, NULL when unreadable); *row gets its row when it is whole. */
static char *read_row(const char *dir, const manifest_line *m, const char **row)
{
    char path[PATH_MAX + 300];
    snprintf(path, sizeof(path), "%s/%s/row.csv", dir, m->dir);
    char *text = read_file(path, NULL);
    *row = NULL;
    if (text && !row_ok(text, row))
        *row = NULL;
    return text;
}

/* The row of a point that gave none: every field empty but status ("missing") and exit, when how its run
 * ended is known (a wait status; a signal as the shell counts it, 128 + N). */
static void write_missing_row(FILE *out, int nfields, int status_col, int exit_col, int st)
{
    for (int k = 0; k < nfields; k++) {
        if (k)
            fputc(',', out);
        if (k == status_col)
            fputs("missing", out);
        else if (k == exit_col && st >= 0 && WIFEXITED(st))
            outfile_printf(out, "%d", WEXITSTATUS(st));
        else if (k == exit_col && st >= 0 && WIFSIGNALED(st))
            outfile_printf(out, "%d", 128 + WTERMSIG(st));
    }
}

/* Ends a line of sweep.csv: the cells of the columns past the run's knobs (--set, --kernel-set, --gen-*;
 * their names on the header, a point's values on a row), then the line break. */
static void end_line(FILE *out, const char *const *cells, int ncols)
{
    for (int k = SWEEP_KNOBS; k < ncols; k++) {
        fputc(',', out);
        csv_put(out, cells[k]);
    }
    fputc('\n', out);
}

/* Merges DIR/points/NNNN/row.csv in point order into DIR/sweep.csv, as listed by DIR/points.csv; a point
 * without a whole row gets a row with status "missing", and is named with its stderr. status (may be NULL)
 * holds the wait status of nstatus points, for the messages (-1: not started, -2: not run this time).
 * Returns EXIT_OK when every point has its row, EXIT_INTERNAL when one has none, else an exit status. */
static int collect(const char *dir, const int *status, long nstatus)
{
    char err[4400];
    manifest man;
    int rc = read_manifest(dir, &man);
    for (long i = 0; rc == 0 && i < man.n; i++) { /* no row is read through a link (a folder sent) */
        char path[PATH_MAX + 300];
        snprintf(path, sizeof(path), "%s/%s", dir, man.lines[i].dir);
        rc = refuse_link_at(path);
    }
    if (rc != 0) {
        manifest_free(&man);
        return rc;
    }
    manifest_line *lines = man.lines;
    long n = man.n;
    /* the header: the first row's (rows of another build may have other columns), else this build's */
    char *header = NULL;
    long header_point = -1;
    for (long i = 0; i < n && !header; i++) {
        const char *row;
        char *text = read_row(dir, &lines[i], &row);
        if (row) {
            header = strndup(text, (size_t)(row - text));
            header_point = i;
        }
        free(text);
    }
    size_t base = strlen(report_csv_header);
    if (!header && (header = malloc(base + 2)) != NULL)
        snprintf(header, base + 2, "%s\n", report_csv_header);
    char csv[PATH_MAX + 64];
    snprintf(csv, sizeof(csv), "%s/sweep.csv", dir);
    outfile o;
    FILE *out = header ? outfile_open(&o, csv, err, sizeof(err)) : NULL;
    if (!out) {
        msgtext_print(stderr, "ptosim sweep: %s", header ? err : "out of memory");
        free(header);
        manifest_free(&man);
        return EXIT_INTERNAL;
    }
    /* the run's columns, then one per list past the run's knobs, named as in points.csv */
    fwrite(header, 1, strlen(header) - 1, out);
    end_line(out, man.names, man.ncols);
    int status_col = csv_column(header, "status"), exit_col = csv_column(header, "exit"), nfields = 1;
    /* with --repeat every row is a mean over seeds, summed up after the merge */
    int mean_col = csv_column(header, "makespan_mean_us"),
        sigma_col = csv_column(header, "makespan_sigma_us"), runs_col = csv_column(header, "repeat_runs");
    noise_row *noise = NULL;
    long nnoise = 0;
    for (const char *c = header; *c; c++)
        nfields += *c == ',';
    long missing = 0, not_ok = 0;
    for (long i = 0; i < n; i++) {
        const char *row;
        char *text = read_row(dir, &lines[i], &row), label[512];
        point_label(man.names, lines[i].cells, man.ncols, label, sizeof(label));
        int st = status && i < nstatus ? status[i] : -2;
        if (!row) {
            report_missing(dir, i, lines[i].dir, label, st, row_why(text));
            write_missing_row(out, nfields, status_col, exit_col, st);
            end_line(out, lines[i].cells, man.ncols);
            missing++;
        } else if (strncmp(text, header, (size_t)(row - text)) != 0 ||
                   strlen(header) != (size_t)(row - text)) {
            msgtext_print(stderr,
                    "ptosim sweep: point %ld (%s): %s/%s/row.csv has another header than point %ld's", i,
                    label, dir, lines[i].dir, header_point);
            write_missing_row(out, nfields, status_col, exit_col, -2);
            end_line(out, lines[i].cells, man.ncols);
            missing++;
        } else {
            fwrite(row, 1, strlen(row) - 1, out); /* row_ok: it ends in its line break */
            end_line(out, lines[i].cells, man.ncols);
            not_ok += status_col >= 0 && !csv_field_is(row, status_col, "ok");
            if (mean_col >= 0 && runs_col >= 0 && sigma_col >= 0) {
                noise_row *nr = realloc(noise, (size_t)(nnoise + 1) * sizeof(*noise));
                if (nr) {
                    noise = nr;
                    double runs = csv_number(row, runs_col);
                    noise[nnoise] = (noise_row){.point = i,
                                                .mean = csv_number(row, mean_col),
                                                .sigma = csv_number(row, sigma_col),
                                                .runs = isnan(runs) ? 0 : (int)runs};
                    snprintf(noise[nnoise].label, sizeof(noise[nnoise].label), "%s", label);
                    nnoise++;
                }
            }
        }
        free(text);
    }
    manifest_free(&man);
    free(header);
    if (outfile_commit(&o, err, sizeof(err)) != 0) {
        msgtext_print(stderr, "ptosim sweep: %s", err);
        return EXIT_INTERNAL;
    }
    printf("ptosim sweep: %ld point%s -> %s", n, n == 1 ? "" : "s", csv);
    if (missing && not_ok)
        printf(" (%ld missing, %ld not ok: see the status column)", missing, not_ok);
    else if (missing || not_ok)
        printf(" (%ld %s: see the status column)", missing ? missing : not_ok,
               missing ? "missing" : "not ok");
    putchar('\n');
    print_noise(noise, nnoise);
    free(noise);
    if (missing) {
        fflush(stdout);
        fprintf(
            stderr,
            "ptosim sweep: %ld of %ld points gave no row (status \"missing\" in %s); run the sweep's command "
            "again with --resume %s to run only those\n",
            missing, n, csv, dir);
        return EXIT_INTERNAL;
    }
    return EXIT_OK;
}

/* Lists the points to run in s->todo: every point, or with --resume only those without a whole row (a row is
 * renamed into place once its run has ended, so a point cut short has none). Returns 0, or -1 when out of
 * memory. */
static int plan_points(sweep *s)
{
    s->todo = malloc(sizeof(*s->todo) * (size_t)s->npoints);
    if (!s->todo) {
        fputs("ptosim sweep: out of memory\n", stderr);
        return -1;
    }
    s->ntodo = 0;
    for (long i = 0; i < s->npoints; i++) {
        char path[PATH_MAX + 64];
        point_dir(s, i, path, sizeof(path) - 16);
        bool own = point_is_folder(path);
        strcat(path, "/row.csv");
        char *text = s->resume && own ? read_file(path, NULL) : NULL; /* a link's row is not this sweep's */
        const char *row;
        if (!text || !row_ok(text, &row))
            s->todo[s->ntodo++] = i;
        free(text);
    }
    if (s->resume && s->ntodo < s->npoints)
        printf("ptosim sweep: resuming %s: %ld of %ld points have their row; %ld to run\n", s->dir_abs,
               s->npoints - s->ntodo, s->npoints, s->ntodo);
    return 0;
}

/* An interrupted sweep's rows: those of the points that ran to the end in this sweep (status[i], a wait
 * status, -1 = not started), in point order, into DIR/sweep.partial.csv; sweep.csv, which would stand
 * for the whole sweep, is removed. Prints what it did and returns the exit status of signal sig. */
static int collect_interrupted(const sweep *s, const int *status, int sig)
{
    char csv[PATH_MAX + 64], part[PATH_MAX + 64], err[4400];
    snprintf(csv, sizeof(csv), "%s/sweep.csv", s->dir_abs);
    snprintf(part, sizeof(part), "%s/sweep.partial.csv", s->dir_abs);
    userdir_remove(csv);
    userdir_remove(part);
    outfile o;
    FILE *out = NULL;
    long finished = 0;
    const char *names[SWEEP_MAX_COLS], *cells[SWEEP_MAX_COLS];
    char buf[SWEEP_MAX_COLS][160];
    sweep_columns(s, names, buf);
    for (long i = 0; i < s->npoints; i++) {
        if (status[i] == -1 || (status[i] >= 0 && !WIFEXITED(status[i])))
            continue; /* never started, or stopped by the signal (-2: its row is from before a --resume) */
        char wd[PATH_MAX + 32], rowp[PATH_MAX + 64];
        point_dir(s, i, wd, sizeof(wd));
        snprintf(rowp, sizeof(rowp), "%s/row.csv", wd);
        char *text = read_file(rowp, NULL);
        const char *row;
        if (text && row_ok(text, &row)) {
            if (!out && !(out = outfile_open(&o, part, err, sizeof(err)))) {
                msgtext_print(stderr, "ptosim sweep: %s", err);
                free(text);
                return intr_status(sig);
            }
            if (!finished) { /* the header once, with the columns sweep.csv has */
                fwrite(text, 1, (size_t)(row - text) - 1, out);
                end_line(out, names, SWEEP_KNOBS + s->nextra);
            }
            fwrite(row, 1, strlen(row) - 1, out);
            point_cells(s, i, cells);
            end_line(out, cells, SWEEP_KNOBS + s->nextra);
            finished++;
        }
        free(text);
    }
    if (out && outfile_commit(&o, err, sizeof(err)) != 0) {
        msgtext_print(stderr, "ptosim sweep: %s", err);
        return intr_status(sig);
    }
    fprintf(stderr, "ptosim sweep: interrupted by %s: %ld of %ld points finished", intr_name(sig), finished,
            s->npoints);
    if (finished)
        fprintf(stderr, "; their rows are in %s", part);
    msgtext_print(stderr,
            " (sweep.csv is written only when every point gave a row: run the sweep's command again with "
            "--resume %s to run only the others)",
            s->dir_abs);
    return intr_status(sig);
}

/* ---- running points ---- */

/* In a point's child: the signal state an exec would give, and no signal blocked. The child is a fork of the
 * sweep, so without this it would run the sweep's handlers (its progress tick, or any a sweep installs to
 * pass a signal on to its points). */
static void reset_signals(void)
{
    for (int sig = 1; sig < NSIG; sig++) {
        struct sigaction sa;
        if (sig != SIGKILL && sig != SIGSTOP && sigaction(sig, NULL, &sa) == 0 &&
            ((sa.sa_flags & SA_SIGINFO) || (sa.sa_handler != SIG_IGN && sa.sa_handler != SIG_DFL)))
            signal(sig, SIG_DFL);
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
}

/* Starts point i: a child process that runs `ptosim run` with the point's knobs and the shared options, its
 * operations taken from gc (the graph compiled once for the whole sweep; NULL: it reads the graph file),
 * stdout to row.csv.tmp and stderr to stderr.txt in DIR/points/NNNN (finish_row renames the row into place).
 * Returns its pid, or -1 after printing why. */
static pid_t spawn_point(const sweep *s, long i, const gcomp *gc)
{
    char wd[PATH_MAX + 32], path[PATH_MAX + 64], err[PATH_MAX + 256];
    point_dir(s, i, wd, sizeof(wd));
    /* the point's folder is the sweep's own: a link there, or at DIR/points (a folder someone sent), is
     * refused, never written through */
    if (outfile_own_dir(wd, 0, err, sizeof(err)) != 0) {
        msgtext_print(stderr, "ptosim sweep: point %ld: %s", i, err);
        return -1;
    }
    /* an earlier row of this point is not this run's; fresh files (O_EXCL|O_NOFOLLOW after the old names
     * went), so neither a straggler of an earlier sweep still writing to the old ones nor a link put in their
     * place gets this point's output */
    snprintf(path, sizeof(path), "%s/row.csv", wd);
    userdir_remove(path);
    snprintf(path, sizeof(path), "%s/row.csv.tmp", wd);
    userdir_remove(path);
    /* close-on-exec: sibling points must not inherit each other's files */
    int fo = userdir_open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    snprintf(path, sizeof(path), "%s/stderr.txt", wd);
    userdir_remove(path);
    int fe = fo < 0 ? -1 : userdir_open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    int fi = open("/dev/null", O_RDONLY | O_CLOEXEC);
    char graph[PATH_MAX + 64];
    if (s->gen_kind)
        graph_file(s, point_graph(s, i), "jsonl", graph, sizeof(graph));
    const char **av = point_argv(s, i, s->gen_kind ? graph : s->graph_abs, wd);
    pid_t pid = -1;
    if (fo < 0 || fe < 0 || fi < 0 || !av)
        msgtext_print(stderr, "ptosim sweep: point %ld: cannot set up %s: %s", i, wd, userdir_why(errno));
    else {
        fflush(stdout);
        fflush(stderr);
        pid_t parent = getpid();
        pid = fork();
        if (pid == 0) {
            /* its own process group: a Ctrl-C reaches the sweep alone, which forwards it once; and as a
             * signal to the sweep's group no longer reaches it, it dies with the sweep (a kill -9, a lost
             * node) rather than run on as an orphan holding its folder's lock */
            setpgid(0, 0);
#ifdef __linux__
            if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
                _exit(127);
#else
            (void)parent;
#endif
            if (dup2(fi, 0) < 0 || dup2(fo, 1) < 0 || dup2(fe, 2) < 0)
                _exit(127);
            reset_signals();
            int ac = 0;
            while (av[ac])
                ac++;
            int code = run_main_from(ac - 2, (char **)av + 2, gc);
            fflush(NULL);
            _exit(code);
        }
        if (pid < 0)
            msgtext_print(stderr, "ptosim sweep: point %ld: cannot start a process: %s", i, strerror(errno));
    }
    free(av);
    if (fo >= 0)
        close(fo);
    if (fe >= 0)
        close(fe);
    if (fi >= 0)
        close(fi);
    return pid;
}

/* Point i's run ended with wait status st: a run that exited printed all it will, so its row.csv.tmp becomes
 * row.csv in one rename; a run killed midway leaves no row.csv, and a resumed sweep runs the point again. */
static void finish_row(const sweep *s, long i, int st)
{
    char wd[PATH_MAX + 32], tmp[PATH_MAX + 64], row[PATH_MAX + 64];
    if (!WIFEXITED(st))
        return;
    point_dir(s, i, wd, sizeof(wd));
    snprintf(tmp, sizeof(tmp), "%s/row.csv.tmp", wd);
    snprintf(row, sizeof(row), "%s/row.csv", wd);
    userdir_rename(tmp, row);
}

/* Progress on stderr when it is a terminal and the sweep has taken more than a second
 * ($PTOSIM_SWEEP_PROGRESS_AFTER seconds: the tests set 0 to see it on small sweeps). */
typedef struct progress {
    bool on;      /* stderr is a terminal */
    bool seen;    /* a line has been shown (so the last one gets its newline) */
    double t0;    /* start, host seconds */
    double after; /* seconds before the first line */
} progress;

static void progress_start(progress *p)
{
    const char *env = getenv("PTOSIM_SWEEP_PROGRESS_AFTER");
    char *end;
    p->on = isatty(2);
    p->seen = false;
    p->t0 = now_seconds();
    p->after = env && *env ? strtod(env, &end) : 1.0;
    if (!env || !*env || *end || p->after < 0)
        p->after = 1.0;
}

static void progress_show(progress *p, long done, long total)
{
    double el = now_seconds() - p->t0;
    if (!p->on || el < p->after)
        return;
    if (done == total) {
        if (p->seen)
            fprintf(stderr, "\rptosim sweep: %ld/%ld points in %.1f s\033[K\n", done, total, el);
        return;
    }
    fprintf(stderr, "\rptosim sweep: %ld/%ld points, %.2f points/s", done, total, done / el);
    if (done) {
        long eta = (long)((total - done) * el / done + 0.5);
        fprintf(stderr, ", ETA %ld:%02ld", eta / 60, eta % 60);
    }
    fputs("\033[K", stderr);
    p->seen = true;
}

static void on_alarm(int sig)
{
    (void)sig; /* only interrupts waitpid, so the progress line refreshes */
}

/* Runs the points of s->todo here, s->jobs at a time, each from its graph's compiled form (gc[point_graph]);
 * status[i] gets point i's wait status (-1: not started, -2: not to run). */
static void run_local(const sweep *s, const gcomp *gc, int *status)
{
    long jobs = s->jobs ? s->jobs : sysconf(_SC_NPROCESSORS_ONLN);
    for (long i = 0; i < s->npoints; i++)
        status[i] = -2;
    for (long t = 0; t < s->ntodo; t++)
        status[s->todo[t]] = -1;
    if (jobs < 1)
        jobs = 1;
    if (jobs > s->ntodo)
        jobs = s->ntodo;
    if (jobs == 0)
        return;
    pid_t *pids = calloc((size_t)jobs, sizeof(pid_t));
    long *which = calloc((size_t)jobs, sizeof(long));
    progress pg;
    progress_start(&pg);
    struct sigaction sa = {0}, old_sa;
    struct itimerval tick = {{0, 500000}, {1, 0}}, off = {{0, 0}, {0, 0}};
    if (pg.on) {
        /* no SA_RESTART: the tick makes waitpid return EINTR */
        sa.sa_handler = on_alarm;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGALRM, &sa, &old_sa);
        setitimer(ITIMER_REAL, &tick, NULL);
    }
    long next = 0, done = 0, running = 0;
    bool forwarded = false;
    while (done < s->ntodo) {
        if (intr_signal() && !forwarded) {
            /* SIGINT or SIGTERM: start nothing more, pass it on to every running point, wait for them */
            for (long slot = 0; pids && slot < jobs; slot++)
                if (pids[slot] > 0)
                    kill(pids[slot], intr_signal());
            done += s->ntodo - next;
            next = s->ntodo;
            forwarded = true;
            if (done >= s->ntodo)
                break;
        }
        for (long slot = 0; pids && which && slot < jobs && next < s->ntodo; slot++)
            if (pids[slot] == 0) {
                pid_t pid = spawn_point(s, s->todo[next], &gc[point_graph(s, s->todo[next])]);
                if (pid < 0) {
                    next++;
                    done++;
                    slot--; /* the slot is still free */
                    continue;
                }
                pids[slot] = pid;
                which[slot] = s->todo[next++];
                running++;
            }
        if (running == 0) {
            if (!pids || !which) { /* out of memory: nothing can start */
                fputs("ptosim sweep: out of memory\n", stderr);
                break;
            }
            continue;
        }
        int st;
        pid_t pid = waitpid(-1, &st, 0);
        if (pid < 0) {
            if (errno == EINTR) {
                progress_show(&pg, done, s->ntodo);
                continue;
            }
            msgtext_print(stderr, "ptosim sweep: waitpid: %s", strerror(errno));
            break;
        }
        for (long slot = 0; slot < jobs; slot++)
            if (pids[slot] == pid) {
                status[which[slot]] = st;
                finish_row(s, which[slot], st);
                pids[slot] = 0;
                running--;
                done++;
                break;
            }
        progress_show(&pg, done, s->ntodo);
    }
    if (pg.on) {
        setitimer(ITIMER_REAL, &off, NULL);
        sigaction(SIGALRM, &old_sa, NULL);
    }
    free(pids);
    free(which);
}

/* --point I of a gen:KIND sweep: the graph file it runs, DIR/graphs/NNNN.jsonl, must be byte for byte what
 * the generator writes for its point's values (a folder someone sent may hold another). Returns 0, or an
 * exit status after printing why. */
static int check_gen_graph(const sweep *s, long g, const char *path)
{
    char *av[1 + 2 * SWEEP_MAX_LISTS], names[SWEEP_MAX_LISTS][72], err[PATH_MAX + 1024];
    int n = gen_args(s, g, av, names);
    const char *tmp;
    int have = userdir_open(path, O_RDONLY | O_CLOEXEC, 0), want = outfile_temp_fd("ptosim-gen", &tmp);
    if (have < 0 || want < 0) {
        if (have < 0)
            msgtext_print(stderr, "ptosim sweep: point %ld: %s: cannot read: %s", s->point, path, userdir_why(errno));
        else
            msgtext_print(stderr, "ptosim sweep: point %ld: cannot make a temporary file in %s: %s", s->point, tmp,
                    strerror(errno));
        if (have >= 0)
            close(have);
        if (want >= 0)
            close(want);
        return EXIT_INTERNAL;
    }
    /* the generator's bytes into an unnamed file, then the two compared a block at a time */
    int wfd = dup(want);
    FILE *f = wfd >= 0 ? fdopen(wfd, "w") : NULL;
    int rc = f ? gen_write(n, av, f, err, sizeof(err)) : EXIT_INTERNAL;
    if (!f && wfd >= 0)
        close(wfd);
    if (f && fclose(f) != 0 && rc == 0) {
        snprintf(err, sizeof(err), "cannot write a temporary file in %s: %s", tmp, strerror(errno));
        rc = EXIT_INTERNAL;
    }
    uint64_t at = 0;
    bool differs = false;
    char a[16384], b[16384];
    if (rc == 0 && lseek(want, 0, SEEK_SET) == 0)
        for (;;) {
            ssize_t na = read(want, a, sizeof(a)), nb = na > 0 ? read(have, b, (size_t)na) : read(have, b, 1);
            if (na < 0 || nb < 0) {
                snprintf(err, sizeof(err), "%s: cannot read: %s", path, strerror(errno));
                rc = EXIT_INTERNAL;
                break;
            }
            size_t k = 0;
            while (k < (size_t)na && k < (size_t)nb && a[k] == b[k])
                k++;
            at += k;
            if (na != nb || k != (size_t)na) {
                differs = true;
                break;
            }
            if (na == 0)
                break;
        }
    close(have);
    close(want);
    if (rc != 0) {
        msgtext_print(stderr, "ptosim sweep: point %ld: %s", s->point, f ? err : "out of memory");
        return rc;
    }
    if (differs) {
        fprintf(stderr,
                "ptosim sweep: point %ld: %s is not the graph ptosim gen %s writes for this point (they part at "
                "byte %" PRIu64 "); run the sweep command again with --resume DIR: it writes the graphs anew and "
                "keeps the finished points\n",
                s->point, path, s->gen_kind, at);
        return EXIT_INTERNAL;
    }
    return 0;
}

/* --point I: runs that one point into DIR/points/NNNN, from DIR's compiled graph when there is one (the sweep
 * wrote it; a folder without one, of an older ptosim, has the run read the graph file). Returns 0 when it
 * gave a row. */
static int run_point(const sweep *s)
{
    char cpath[PATH_MAX + 64], err[2 * PATH_MAX + 256], graph[PATH_MAX + 64];
    snprintf(cpath, sizeof(cpath), "%s/" COMPILED_NAME, s->dir_abs);
    snprintf(graph, sizeof(graph), "%s", s->graph);
    if (s->gen_kind) { /* the generated graph of the point, which the sweep wrote and compiled */
        graph_file(s, point_graph(s, s->point), "compiled", cpath, sizeof(cpath));
        graph_file(s, point_graph(s, s->point), "jsonl", graph, sizeof(graph));
    }
    gcomp gc;
    const gcomp *use = NULL;
    struct stat cst;
    if (s->gen_kind && userdir_stat(graph, &cst) == 0) { /* the graph the generator gives this point, or none */
        int rc = check_gen_graph(s, point_graph(s, s->point), graph);
        if (rc != 0)
            return rc;
    }
    if (userdir_stat(cpath, &cst) == 0) {
        int rc = gcomp_open(&gc, cpath, graph, err, sizeof(err));
        /* whole, and of GRAPH's bytes: then compiled again here and compared, record by record, before the
         * point runs a single one (the sweep that wrote it may not be this machine's, nor the folder yours) */
        int vrc = rc == 0 ? gcomp_verify(&gc, graph, err, sizeof(err)) : 0;
        if (vrc != 0) {
            gcomp_close(&gc);
            rc = vrc == GCOMP_DIFFERS ? vrc : -1;
        }
        if (vrc != 0 && intr_signal()) { /* as when it comes while the point runs */
            msgtext_print(stderr, "ptosim sweep: interrupted by %s: point %ld did not finish",
                    intr_name(intr_signal()), s->point);
            return intr_status(intr_signal());
        }
        if (vrc == 1) { /* GRAPH itself is malformed */
            msgtext_print(stderr, "ptosim sweep: point %ld: %s", s->point, err);
            return EXIT_GRAPH;
        }
        if (rc != 0) {
            msgtext_print(stderr, "ptosim sweep: point %ld: %s; %s", s->point, err,
                    rc == GCOMP_STALE
                        ? "run the sweep again, so that its points do not mix two versions of the "
                          "graph"
                        : "run the sweep command again with --resume DIR: it compiles the graph "
                          "anew and keeps the finished points");
            return EXIT_INTERNAL;
        }
        use = &gc;
    }
    intr_install();
    pid_t pid = spawn_point(s, s->point, use);
    int st = -1;
    bool forwarded = false;
    while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR)
        if (intr_signal() && !forwarded) { /* the point is in its own process group */
            kill(pid, intr_signal());
            forwarded = true;
        }
    if (pid > 0)
        finish_row(s, s->point, st);
    if (use)
        gcomp_close(&gc);
    if (intr_signal()) {
        msgtext_print(stderr, "ptosim sweep: interrupted by %s: point %ld did not finish",
                intr_name(intr_signal()), s->point);
        return intr_status(intr_signal());
    }
    char wd[PATH_MAX + 32], rowp[PATH_MAX + 64], label[512], rel[32];
    point_dir(s, s->point, wd, sizeof(wd));
    snprintf(rowp, sizeof(rowp), "%s/row.csv", wd);
    char *text = read_file(rowp, NULL);
    const char *row;
    if (text && row_ok(text, &row)) {
        free(text);
        return EXIT_OK;
    }
    point_label_of(s, s->point, label, sizeof(label));
    snprintf(rel, sizeof(rel), "points/%04ld", s->point);
    report_missing(s->dir_abs, s->point, rel, label, pid > 0 ? st : -1, row_why(text));
    free(text);
    return EXIT_INTERNAL;
}

/* ---- engines past one machine ---- */

/* Writes the command that runs one point (the caller appends the index) with absolute paths. */
static void write_point_command(FILE *f, const sweep *s)
{
    sh_quote(f, s->exe);
    fputs(" sweep ", f);
    write_sweep_args(f, s);
    fputs(" -o ", f);
    sh_quote(f, s->dir_abs);
    fputs(" --point ", f);
}

/* Removes the row.csv of every point to run, so a collect never merges rows of an earlier sweep in the same
 * folder. */
static void remove_rows(const sweep *s)
{
    char path[PATH_MAX + 64];
    for (long t = 0; t < s->ntodo; t++) {
        point_dir(s, s->todo[t], path, sizeof(path) - 16);
        if (!point_is_folder(path))
            continue; /* nothing is removed through a link: the point replaces it when it runs */
        strcat(path, "/row.csv");
        userdir_remove(path);
    }
}

/* Writes the task indices of a job array: runs of consecutive points as first-last, joined by commas
 * ("0-15", or "2,5-7" for a resumed sweep). */
static void write_array_spec(FILE *f, const long *pts, long n)
{
    for (long t = 0; t < n;) {
        long e = t;
        while (e + 1 < n && pts[e + 1] == pts[e] + 1)
            e++;
        outfile_printf(f, "%s%ld", t ? "," : "", pts[t]);
        if (e > t)
            outfile_printf(f, "-%ld", pts[e]);
        t = e + 1;
    }
}

/* Writes a path into an #SBATCH --output= pattern: a '%' as "%%", which Slurm reads as one (a line break
 * is refused before the sweep starts). */
static void slurm_path(FILE *f, const char *path)
{
    for (; *path; path++) {
        if (*path == '%')
            fputc('%', f);
        fputc(*path, f);
    }
}

/* --engine slurm: DIR/sweep.sbatch (task i runs point i; plain sh apart from the #SBATCH comments) and
 * DIR/collect.sbatch; prints how to submit them. */
static int write_slurm(const sweep *s)
{
    char path[PATH_MAX + 64], logs[PATH_MAX + 64], err[4400];
    snprintf(logs, sizeof(logs), "%s/slurm", s->dir_abs);
    if (outfile_mkdirs(logs, err, sizeof(err)) != 0) {
        msgtext_print(stderr, "ptosim sweep: %s", err);
        return EXIT_INTERNAL;
    }
    remove_rows(s);
    for (int which = 0; which < 2; which++) {
        snprintf(path, sizeof(path), "%s/%s", s->dir_abs, which ? "collect.sbatch" : "sweep.sbatch");
        outfile o;
        FILE *f = outfile_open(&o, path, err, sizeof(err));
        if (!f) {
            msgtext_print(stderr, "ptosim sweep: %s", err);
            return EXIT_INTERNAL;
        }
        fputs("#!/bin/sh\n", f);
        if (!which) {
            outfile_printf(
                f,
                "# sweep.sbatch - a Slurm job array written by `ptosim sweep --engine slurm`: task i runs "
                "point i of %ld\n# into points/NNNN/ beside this file. Then run collect.sbatch.\n",
                s->npoints);
            fputs("#SBATCH --job-name=ptosim-sweep\n#SBATCH --array=", f);
            write_array_spec(f, s->todo, s->ntodo);
            if (s->jobs)
                outfile_printf(f, "%%%ld", s->jobs);
            /* one CPU: a point maps the compiled graph, so no second thread parses it beside the run */
            fputs("\n#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n#SBATCH --output=", f);
            slurm_path(f, logs);
            fputs("/%A_%a.out\n", f);
        } else {
            fputs(
                "# collect.sbatch - merges the rows of the points of sweep.sbatch into sweep.csv; written by "
                "`ptosim sweep\n# --engine slurm`. Submit it with --dependency=afterany:JOBID of the "
                "array.\n#SBATCH --job-name=ptosim-sweep-collect\n#SBATCH --ntasks=1\n",
                f);
            fputs("#SBATCH --output=", f);
            slurm_path(f, logs);
            fputs("/collect-%j.out\n", f);
        }
        fputs("cd ", f);
        sh_quote(f, s->cwd); /* where relative paths among the run options resolve */
        fputs(" || exit 1\nexec ", f);
        if (!which) {
            write_point_command(f, s);
            fputs("\"${SLURM_ARRAY_TASK_ID:?is not set: submit this script with sbatch}\"\n", f);
        } else {
            sh_quote(f, s->exe);
            fputs(" sweep --collect ", f);
            sh_quote(f, s->dir_abs);
            fputc('\n', f);
        }
        fchmod(fileno(f), 0755); /* convenience only: sbatch and sh read it either way */
        if (outfile_commit(&o, err, sizeof(err)) != 0) {
            msgtext_print(stderr, "ptosim sweep: %s", err);
            return EXIT_INTERNAL;
        }
    }
    if (s->ntodo < s->npoints)
        printf("ptosim sweep: %ld of %ld points to run", s->ntodo, s->npoints);
    else
        printf("ptosim sweep: %ld point%s", s->npoints, s->npoints == 1 ? "" : "s");
    printf("; wrote %s/sweep.sbatch (a job array, task i runs point i) and "
           "%s/collect.sbatch.\nSubmit both, the merge after the array:\n"
           "  jobid=$(sbatch --parsable %s/sweep.sbatch)\n"
           "  sbatch --dependency=afterany:$jobid %s/collect.sbatch\n"
           "or, once the array has finished: %s sweep --collect %s\n",
           s->dir_abs, s->dir_abs, s->dir_abs, s->dir_abs, s->exe, s->dir_abs);
    /* the largest task index Slurm takes is MaxArraySize - 1 */
    if (s->npoints > SLURM_MAX_ARRAY)
        fprintf(stderr,
                "ptosim: warning: a job array of %ld tasks (indices 0-%ld) is past Slurm's default "
                "MaxArraySize of %d (indices 0-%d); ask your admins, or split the sweep\n",
                s->npoints, s->npoints - 1, SLURM_MAX_ARRAY, SLURM_MAX_ARRAY - 1);
    return EXIT_OK;
}

/* --engine parallel: DIR/points.txt, then `parallel -q ... ptosim sweep ... --point {} :::: points.txt`,
 * then the merge. */
static int run_parallel(const sweep *s)
{
    char list[PATH_MAX + 64], err[4400];
    snprintf(list, sizeof(list), "%s/points.txt", s->dir_abs);
    outfile o;
    FILE *f = outfile_open(&o, list, err, sizeof(err));
    if (!f) {
        msgtext_print(stderr, "ptosim sweep: %s", err);
        return EXIT_INTERNAL;
    }
    for (long t = 0; t < s->ntodo; t++)
        outfile_printf(f, "%ld\n", s->todo[t]);
    if (outfile_commit(&o, err, sizeof(err)) != 0) {
        msgtext_print(stderr, "ptosim sweep: %s", err);
        return EXIT_INTERNAL;
    }
    remove_rows(s);
    /* words: parallel's, then the point command, then "--point {} :::: list" */
    char *pa = s->parallel_args ? strdup(s->parallel_args) : NULL;
    size_t cap =
        16 + 2 * (size_t)s->nhosts + 2 * (size_t)s->nlists + (size_t)s->npass + (pa ? strlen(pa) / 2 + 1 : 0);
    const char **av = malloc(sizeof(*av) * cap);
    char jobs[32];
    if (!av || (s->parallel_args && !pa)) {
        fputs("ptosim sweep: out of memory\n", stderr);
        free(av);
        free(pa);
        return EXIT_INTERNAL;
    }
    int n = 0;
    av[n++] = "parallel";
    av[n++] = "-q"; /* quote the command: paths with blanks survive parallel's shell */
    if (s->jobs) {
        snprintf(jobs, sizeof(jobs), "%ld", s->jobs);
        av[n++] = "-j";
        av[n++] = jobs;
    }
    for (int k = 0; k < s->nhosts; k++) {
        av[n++] = "-S";
        av[n++] = s->hosts[k];
    }
    if (s->nhosts) { /* remote points run in this folder too, for relative paths among the options */
        av[n++] = "--wd";
        av[n++] = s->cwd;
    }
    for (char *w = pa ? strtok(pa, " \t\n") : NULL; w; w = strtok(NULL, " \t\n"))
        av[n++] = w;
    av[n++] = s->exe;
    av[n++] = "sweep";
    av[n++] = s->gen_kind ? s->graph : s->graph_abs;
    char genflags[SWEEP_MAX_LISTS][72];
    for (int k = 0; k < s->nlists; k++) {
        const sweep_list *l = &s->lists[k];
        snprintf(genflags[k], sizeof(genflags[k]), "--gen-%s", l->kind == LIST_GEN ? l->key : "");
        av[n++] = l->kind == LIST_RUN   ? KNOB_FLAGS[l->knob]
                  : l->kind == LIST_GEN ? genflags[k]
                                        : LIST_FLAGS[l->kind];
        av[n++] = l->text;
    }
    for (int k = 0; k < s->npass; k++)
        av[n++] = s->pass[k];
    av[n++] = "-o";
    av[n++] = s->dir_abs;
    av[n++] = "--point";
    av[n++] = "{}";
    av[n++] = "::::";
    av[n++] = list;
    av[n] = NULL;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        execvp("parallel", (char *const *)av);
        dprintf(2, "ptosim sweep: cannot run GNU parallel: %s\n", strerror(errno));
        _exit(127);
    }
    free(av);
    free(pa);
    int st;
    while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (pid < 0) {
        msgtext_print(stderr, "ptosim sweep: cannot start GNU parallel: %s", strerror(errno));
        return EXIT_INTERNAL;
    }
    /* parallel's status counts failed points; the merge names them */
    return collect(s->dir_abs, NULL, 0);
}

/* ---- the graph, compiled once ---- */

/* Compiles GRAPH into DIR/graph.compiled and maps the file it wrote into gc: every point then maps these
 * records instead of parsing and checking the graph again, and a malformed graph stops the sweep before any
 * point runs. A compiled graph already there is never used (its hashes are no signature: one forged under
 * recomputed hashes passes them); it is read only to say which graph it was. Returns 0, or an exit status
 * after printing why. */
static int compile_graph(const sweep *s, gcomp *gc)
{
    char path[PATH_MAX + 64], err[2 * PATH_MAX + GRAPH_ERR_MAX];
    snprintf(path, sizeof(path), "%s/" COMPILED_NAME, s->dir_abs);
    int rc = gcomp_open(gc, path, s->graph, err, sizeof(err));
    if (rc == 0)
        gcomp_close(gc);
    if (rc == GCOMP_STALE && s->resume && !s->began_known) {
        /* sweep.cmd of an older ptosim does not say which graph the finished points ran: which one changed
         * cannot be told */
        fprintf(
            stderr,
            "ptosim sweep: --resume %s: %s; either the graph changed since the sweep began or %s is another "
            "graph's, and %s/sweep.cmd (of an older ptosim) does not say which graph the finished points "
            "ran; start the sweep again with -o\n",
            s->dir, err, path, s->dir);
        return EXIT_USAGE;
    }
    if (rc == GCOMP_STALE && s->resume) /* sweep.cmd vouches that the graph is the one the points ran */
        fprintf(stderr,
                "ptosim sweep: --resume %s: %s is another graph's (compiled from %" PRIu64
                " bytes hashing to "
                "%016" PRIx64 "), not compiled from %s (%" PRIu64 " bytes hashing to %016" PRIx64
                ", as when the sweep began); compiling %s again\n",
                s->dir, path, gc->head.src_size, gc->head.src_hash, s->graph, s->graph_bytes, s->graph_hash,
                s->graph);
    rc = gcomp_compile_map(gc, s->graph, path, err, sizeof(err));
    if (rc != 0 && intr_signal()) /* stopped at a line: nothing of it is kept */
        return SWEEP_STOPPED;
    if (rc == 0 && gc->head.src_hash != s->graph_hash) {
        fprintf(stderr,
                "ptosim sweep: %s changed while the sweep began (its bytes hash to %016" PRIx64
                " now, %016" PRIx64 " in %s/sweep.cmd); run the sweep again\n",
                s->graph, gc->head.src_hash, s->graph_hash, s->dir);
        gcomp_close(gc);
        return EXIT_GRAPH;
    }
    if (rc != 0) {
        msgtext_print(stderr, "ptosim sweep: %s", err);
        return rc > 0 ? EXIT_GRAPH : EXIT_INTERNAL;
    }
    return 0;
}

/* GRAPH gen:KIND: writes each graph the --gen-* lists make into DIR/graphs/NNNN.jsonl (the bytes ptosim gen
 * writes; again on --resume, as the generator gives the same bytes for the same parameters) and compiles it
 * into NNNN.compiled, mapped into gcs[NNNN]. Returns 0, or an exit status after printing why. */
static int compile_gen_graphs(const sweep *s, gcomp *gcs)
{
    char dir[PATH_MAX + 64], path[PATH_MAX + 64], cpath[PATH_MAX + 64], err[2 * PATH_MAX + GRAPH_ERR_MAX];
    snprintf(dir, sizeof(dir), "%s/" GRAPHS_DIR, s->dir_abs);
    /* the sweep's own folder: a link there (a folder someone sent) is refused, never written through */
    if (outfile_own_dir(dir, 0, err, sizeof(err)) != 0) {
        msgtext_print(stderr, "ptosim sweep: %s", err);
        return EXIT_INTERNAL;
    }
    for (long g = 0; g < s->ngraphs; g++) {
        char *av[1 + 2 * SWEEP_MAX_LISTS], names[SWEEP_MAX_LISTS][72];
        int n = gen_args(s, g, av, names);
        graph_file(s, g, "jsonl", path, sizeof(path));
        graph_file(s, g, "compiled", cpath, sizeof(cpath));
        outfile o;
        FILE *f = outfile_open(&o, path, err, sizeof(err));
        int rc = f ? gen_write(n, av, f, err, sizeof(err)) : EXIT_INTERNAL;
        if (f && rc == 0 && outfile_commit(&o, err, sizeof(err)) != 0)
            rc = EXIT_INTERNAL;
        else if (f && rc != 0)
            outfile_abort(&o);
        if (rc == 0) {
            int crc = gcomp_compile_map(&gcs[g], path, cpath, err, sizeof(err));
            rc = crc > 0 ? EXIT_GRAPH : crc < 0 ? EXIT_INTERNAL : 0;
        }
        if (rc != 0 && intr_signal())
            return SWEEP_STOPPED;
        if (rc != 0) {
            msgtext_print(stderr, "ptosim sweep: %s", err);
            return rc;
        }
    }
    return 0;
}

/* ---- the best point ---- */

/* Copies field col of the CSV record at line (quoted cells unquoted, the spreadsheet guard undone) into out;
 * "" when the record is shorter. */
static void csv_field(const char *line, int col, char *out, size_t outlen)
{
    if (!csv_get(line, col, out, outlen))
        out[0] = '\0';
    memmove(out, unguard(out), strlen(unguard(out)) + 1);
}

/* Writes a knob value as points.csv has it (a per-ring value as a/b/c/d) the way a flag takes it (a,b,c,d) or
 * RunConfig does ([a, b, c, d]). */
static void write_knob(FILE *out, const char *cell, bool runconfig)
{
    bool list = strchr(cell, '/') != NULL;
    if (list && runconfig)
        fputc('[', out);
    for (const char *c = cell; *c; c++) {
        if (*c == '/')
            fputs(runconfig ? ", " : ",", out);
        else
            fputc(*c, out);
    }
    if (list && runconfig)
        fputc(']', out);
}

/* The kind of a gen:KIND sweep in DIR (its sweep.cmd begins with 'gen:KIND'), in out; "" for another sweep.
 */
static void sweep_gen_kind(const char *dir, char *out, size_t outlen)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof(path), "%s/sweep.cmd", dir);
    char *cmd = read_file(path, NULL);
    out[0] = '\0';
    if (cmd && strncmp(cmd, "'" GEN_PREFIX, 1 + strlen(GEN_PREFIX)) == 0) {
        const char *k = cmd + 1 + strlen(GEN_PREFIX);
        snprintf(out, outlen, "%.*s", (int)strcspn(k, "'"), k);
    }
    free(cmd);
}

/* --best DIR: prints the point of DIR/sweep.csv with status ok and the least makespan (the first on a tie),
 * its knob values as `ptosim run` flags and as a RunConfig(...) line, and for a gen:KIND sweep the command
 * that writes its graph. Returns 0; 1 when no point ended ok or some point has no row (the best of the others
 * is printed); 2 for a folder that is not a finished sweep's. */
static int best(const char *dir)
{
    char path[PATH_MAX + 64];
    manifest man;
    int rc = read_manifest(dir, &man);
    long n = man.n;
    char *csv = NULL;
    if (rc != 0)
        goto out;
    snprintf(path, sizeof(path), "%s/sweep.csv", dir);
    csv = read_file(path, NULL);
    if (!csv) {
        fprintf(
            stderr,
            "ptosim sweep: --best: %s: cannot read: %s (ptosim sweep --collect %s writes it from the points' "
            "rows)\n",
            path, strerror(errno), dir);
        rc = EXIT_USAGE;
        goto out;
    }
    /* with --repeat a point's makespan is the mean over its seeds (run 1's alone is one draw) */
    bool mean = csv_column(csv, "makespan_mean_us") >= 0;
    const char *need[] = {"platform", "status", mean ? "makespan_mean_us" : "makespan_us", "repeat_runs"};
    int col[4];
    for (int k = 0; k < (mean ? 4 : 3); k++)
        if ((col[k] = csv_column(csv, need[k])) < 0) {
            msgtext_print(stderr, "ptosim sweep: --best: %s: no %s column (not a sweep's merged rows)", path,
                    need[k]);
            rc = EXIT_USAGE;
            goto out;
        }
    long rows = 0, missing = 0, pick = -1;
    double pick_ms = 0;
    char pick_ms_text[256] = "", platform[256] = "", runs[64] = "", cell[256];
    for (const char *line = csv_record_end(csv); *line && line[1]; line = csv_record_end(line + 1), rows++) {
        if (rows >= n)
            continue; /* counted for the message below */
        csv_field(line + 1, col[1], cell, sizeof(cell));
        missing += strcmp(cell, "missing") == 0;
        if (strcmp(cell, "ok") != 0)
            continue;
        csv_field(line + 1, col[2], cell, sizeof(cell));
        char *end;
        errno = 0;
        double ms = strtod(cell, &end);
        if (!cell[0] || *end || errno || ms != ms) {
            msgtext_print(stderr, "ptosim sweep: --best: %s:%ld: %s: '%s' is not a number", path, rows + 2,
                    need[2], cell);
            rc = EXIT_USAGE;
            goto out;
        }
        if (pick < 0 || ms < pick_ms) {
            pick = rows;
            pick_ms = ms;
            snprintf(pick_ms_text, sizeof(pick_ms_text), "%s", cell);
            csv_field(line + 1, col[0], platform, sizeof(platform));
            if (mean)
                csv_field(line + 1, col[3], runs, sizeof(runs));
        }
    }
    if (rows != n) {
        msgtext_print(stderr, "ptosim sweep: --best: %s has %ld rows, %s/points.csv lists %ld points", path, rows,
                dir, n);
        rc = EXIT_USAGE;
        goto out;
    }
    if (pick < 0) {
        msgtext_print(stderr,
                "ptosim sweep: --best: no point of %s ended ok (%ld point%s, %ld missing); nothing to "
                "recommend",
                dir, n, n == 1 ? "" : "s", missing);
        rc = EXIT_INTERNAL;
        goto out;
    }
    const manifest_line *m = &man.lines[pick];
    if (mean)
        printf("point %ld of %ld (%s): mean makespan %s us over %s seeds\n", pick, n, m->dir, pick_ms_text,
               runs);
    else
        printf("point %ld of %ld (%s): makespan %s us\n", pick, n, m->dir, pick_ms_text);
    /* line 2: the flags of ptosim run (not the generator's: they made the graph) */
    bool first = true;
    for (int k = 0; k < man.ncols; k++)
        if (m->cells[k][0] &&
            (k < SWEEP_KNOBS || strncmp(man.names[k], "gen.", 4) != 0 || column_is_kernel(man.names[k]))) {
            char flag[512];
            if (k < SWEEP_KNOBS) {
                printf("%s%s ", first ? "" : " ", KNOB_FLAGS[k]);
                write_knob(stdout, m->cells[k], false);
            } else {
                column_flag(flag, sizeof(flag), k, man.names[k], m->cells[k]);
                printf("%s%s", first ? "" : " ", flag);
            }
            first = false;
        }
    printf("\nRunConfig(platform=\"%s\"", platform);
    for (int k = 0; k < SWEEP_KNOBS; k++)
        if (m->cells[k][0]) {
            printf(", %s=", KNOB_RUNCONFIG[k]);
            write_knob(stdout, m->cells[k], true);
        }
    puts(")");
    /* line 4 of a gen:KIND sweep: the graph */
    char kind[64];
    sweep_gen_kind(dir, kind, sizeof(kind));
    if (kind[0]) {
        printf("ptosim gen %s", kind);
        for (int k = SWEEP_KNOBS; k < man.ncols; k++)
            if (strncmp(man.names[k], "gen.", 4) == 0 && !column_is_kernel(man.names[k]))
                printf(" --%s %s", man.names[k] + 4, m->cells[k]);
        putchar('\n');
    }
    if (missing) {
        fflush(stdout);
        fprintf(
            stderr,
            "ptosim sweep: --best: %ld of %ld points of %s have no row (status missing): that is the best of "
            "the others; ptosim sweep ... --resume %s runs the rest\n",
            missing, n, dir, dir);
        rc = EXIT_INTERNAL;
    }
out:
    free(csv);
    manifest_free(&man);
    return rc;
}

/* ---- entry ---- */

int sweep_main(int argc, char **argv)
{
    if (argc == 0) {
        fputs("ptosim sweep: missing GRAPH\n", stderr);
        return EXIT_USAGE;
    }
    const char *v;
    if (cli_opt_is(argv[0], "--collect", &v)) {
        const char *dir = v ? v : argc > 1 ? argv[1] : NULL;
        if (!dir || argc != (v ? 1 : 2)) {
            fputs("ptosim sweep: --collect takes one DIR and nothing else\n", stderr);
            return EXIT_USAGE;
        }
        userdir_add(dir); /* named: nothing below it is read through a link */
        /* the merge rewrites DIR/sweep.csv from rows a running sweep is still writing: it waits its turn as
         * a second sweep would (a folder that is not there is for read_manifest to name) */
        struct stat st;
        int fd = stat(dir, &st) == 0 && S_ISDIR(st.st_mode)
                     ? lock_folder(dir, dir, "wait for it to end, then collect")
                     : -1;
        if (fd == -2)
            return EXIT_INTERNAL;
        int rc = collect(dir, NULL, 0);
        if (fd >= 0)
            close(fd);
        return rc;
    }
    if (cli_opt_is(argv[0], "--best", &v)) {
        const char *dir = v ? v : argc > 1 ? argv[1] : NULL;
        if (!dir || argc != (v ? 1 : 2)) {
            fputs("ptosim sweep: --best takes one DIR and nothing else\n", stderr);
            return EXIT_USAGE;
        }
        userdir_add(dir); /* named: nothing below it is read through a link */
        return best(dir);
    }
    sweep s;
    int rc = parse(argc, argv, &s);
    bool help = rc == 1; /* parse's 1 only: check's 1 is EXIT_INTERNAL, a failure */
    if (rc == 0) {
        /* SIGINT and SIGTERM from the start (even where they came in ignored, as in a background job): the
         * graph's reading, checking and compiling stop at their next line, and no point starts */
        intr_install();
        gsrc_stop_on(intr_flag());
        rc = check(&s);
    }
    if (help)
        rc = EXIT_OK;
    else if (rc == 0 && s.point >= 0) {
        char graph[PATH_MAX + 64];
        if (s.gen_kind)
            graph_file(&s, point_graph(&s, s.point), "jsonl", graph, sizeof(graph));
        rc = check_kernel_names(&s, s.gen_kind ? graph : s.graph, s.gen_kind ? graph : s.graph);
        if (rc == 0)
            rc = run_point(&s);
    } else if (rc == 0 && (rc = write_manifest(&s)) != 0)
        ;
    else if (rc == 0) {
        gcomp *gc = calloc((size_t)s.ngraphs, sizeof(*gc));
        if (!gc) {
            fputs("ptosim sweep: out of memory\n", stderr);
            rc = EXIT_INTERNAL;
        } else
            rc = s.gen_kind ? compile_gen_graphs(&s, gc) : compile_graph(&s, gc);
        for (long g = 0; g < s.ngraphs && rc == 0 && s.gen_kind; g++) {
            /* the kernel names of a generated graph, now that it is here (a pipe's were checked on its copy) */
            char graph[PATH_MAX + 64];
            graph_file(&s, g, "jsonl", graph, sizeof(graph));
            rc = check_kernel_names(&s, graph, graph);
        }
        if (rc == 0 && intr_signal()) /* came as the compile ended: no engine is handed a point */
            rc = SWEEP_STOPPED;
        gsrc_stop_on(NULL); /* the points read their graph headers themselves */
        if (rc == 0 && plan_points(&s) != 0)
            rc = EXIT_INTERNAL;
        else if (rc == 0 && s.ntodo == 0 && s.engine != ENGINE_LOCAL)
            rc = collect(s.dir_abs, NULL, 0); /* a resumed sweep with every row: nothing to hand over */
        else if (rc == 0 && s.engine == ENGINE_SLURM)
            rc = write_slurm(&s);
        else if (rc == 0 && s.engine == ENGINE_PARALLEL)
            rc = run_parallel(&s);
        else if (rc == 0) {
            int *status = malloc(sizeof(int) * (size_t)s.npoints);
            if (!status) {
                fputs("ptosim sweep: out of memory\n", stderr);
                rc = EXIT_INTERNAL;
            } else {
                intr_install(); /* SIGINT and SIGTERM: forwarded to the points, then the rows so far */
                run_local(&s, gc, status);
                if (intr_signal())
                    rc = collect_interrupted(&s, status, intr_signal());
                else
                    rc = collect(s.dir_abs, status, s.npoints);
                free(status);
            }
        }
        for (long g = 0; gc && g < s.ngraphs; g++)
            gcomp_close(&gc[g]);
        free(gc);
    }
    if (rc == SWEEP_STOPPED) { /* as a signal while points run: no sweep.csv, --resume runs them */
        int *status = malloc(sizeof(int) * (size_t)s.npoints);
        for (long i = 0; status && i < s.npoints; i++)
            status[i] = -1;
        rc = status ? collect_interrupted(&s, status, intr_signal()) : intr_status(intr_signal());
        free(status);
    }
    sweep_free(&s);
    return rc;
}
