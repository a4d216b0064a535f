/* sweep.c - `ptosim sweep`: one `ptosim run` per point of the knob lists' cartesian product. */
/* Run here, as a Slurm job array or through GNU parallel, and merged into DIR/sweep.csv. */
#include "sweep.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/file.h>
#endif
#include <sys/stat.h>
#include <unistd.h>

#include "../../model/graph/graph_compiled.h"
#include "../../model/graph/graph_reader.h"
#include "../../model/graph/graph_source.h"
#include "../../model/base/outfile.h"
#include "../../model/base/userdir.h"
#include "../../model/chip/platform.h"
#include "../../model/runtime/run_config.h"
#include "../../model/base/int_text.h"
#include "../../model/base/msg_text.h"
#include "../cli/cli.h"
#include "../gen/gen.h"
#include "../cli/stop_signal.h"
#include "../run/run.h"
#include "sweep_int.h"

#define SWEEP_MAX_GRAPHS 1000 /* generated graphs of one sweep (--gen-* lists): each is compiled */
#define SWEEP_MAX_JOBS 1024
#define SPOOL_NAME "graph.jsonl" /* DIR's copy of a GRAPH read from a pipe, which every point reads */
/* appended to errors in the options passed through: a list there is a likely slip */
#define LISTS_HINT                                                                                           \
    "; only --ring-task-window, --ring-heap, --ring-dep-pool, --aicpu-thread-num, --set KEY=, "              \
    "--kernel-set NAME.FIELD= and --gen-PARAM take lists, every other option goes to each run as it is"

/* The table's rows: first the knob lists (the help's "knobs" section), then the sweep's options. */
#define SWEEP_LIST_ROWS 7

void sweep_usage(void)
{
    fputs("usage: ptosim sweep GRAPH [KNOB LIST ...] [run options] -o DIR [-j N] [--engine ENGINE]\n"
          "       ptosim sweep GRAPH [KNOB LIST ...] [run options] --resume DIR [-j N] [--engine ENGINE]\n"
          "       ptosim sweep --resume DIR [-j N] [--engine ENGINE]\n"
          "       ptosim sweep --collect DIR\n"
          "       ptosim sweep --best DIR\n"
          "\n"
          "Runs `ptosim run GRAPH` once per point of the cartesian product of the knob lists, one\n"
          "process per point, and writes DIR/sweep.csv: the `ptosim run --summary-csv` header once,\n"
          "then one row per point in point order (the first knob given varies slowest). The graph is\n"
          "read and checked once, into DIR/graph.compiled, which every point maps. GRAPH may be\n"
          "gen:KIND: the graphs are `ptosim gen KIND`'s, with the --gen-PARAM values below.\n"
          "\n"
          "knobs (LIST: comma-separated values; a per-ring value is a/b/c/d, 0 keeps that ring's default):\n",
          stdout);
    opt_help_rows(&sweep_options, 0, SWEEP_LIST_ROWS, stdout);
    fputs("A list of the last three is a column of points.csv and sweep.csv after the run's own, named\n"
          "by its key (KEY, NAME.FIELD; gen.PARAM for every --gen-PARAM). Every other option of `ptosim\n"
          "run` (ptosim run --help) goes to every point unchanged; a word that is neither an option nor\n"
          "a value is an error. With --repeat N each point is N seeds, and the sweep names the best\n"
          "point and those whose mean is inside its noise (no more than two standard errors of the\n"
          "difference apart).\n"
          "\n"
          "options:\n",
          stdout);
    opt_help_rows(&sweep_options, SWEEP_LIST_ROWS, sweep_options.nopts, stdout);
    puts("\n"
         "A point whose run ends in a runtime error still gives its row (status, code, exit). A point\n"
         "that gives no row (a crash, or cut short) is reported with its stderr once the others have\n"
         "run, and its row in sweep.csv has status \"missing\"; the exit status is then 1 (0 when every\n"
         "point has its row). ptosim sweep --resume DIR runs only those points, with the command\n"
         "DIR/sweep.cmd holds.\n"
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
         "GNU parallel, a --resume DIR of another sweep, or a DIR that is not empty nor its own sweep;\n"
         "3 a malformed graph (no point runs)");
}

/* ---- small helpers ---- */

/* Parses a decimal integer in [lo, hi] (strint: the rules of every flag). Returns 0 or -1. */
int sweep_parse_long(const char *s, long lo, long hi, long *out)
{
    int64_t v;
    if (strint_parse(s, lo, hi, &v) != STRINT_OK)
        return -1;
    *out = (long)v;
    return 0;
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
    bool keyed = l->kind == LIST_SET || l->kind == LIST_KERNEL || l->kind == LIST_SCALE;
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

/* Adds a list of kind kind (key: its first klen bytes; text: as written). Returns 0, or -1 with the message
 * in err (s->failed the exit status). */
static int add_list(sweep *s, list_kind kind, int knob, const char *key, size_t klen, const char *text,
                    bool whole, char *err, size_t errlen)
{
    if (s->nlists == SWEEP_MAX_LISTS || (kind != LIST_RUN && s->nextra == SWEEP_MAX_EXTRA)) {
        snprintf(err, errlen, "more than %d --set, --kernel-set and --gen-* lists; split the sweep",
                 SWEEP_MAX_EXTRA);
        return -1;
    }
    sweep_list *l = &s->lists[s->nlists++];
    l->kind = kind;
    l->knob = kind == LIST_RUN ? knob : SWEEP_KNOBS + s->nextra++;
    l->text = text;
    if ((kind != LIST_RUN && !(l->key = strndup(key, klen))) || split_list(l, whole) != 0) {
        snprintf(err, errlen, "out of memory");
        s->failed = EXIT_INTERNAL;
        return -1;
    }
    return 0;
}

/* ---- the options: each row's store checks its value and keeps it in the sweep (dest) ---- */

/* --ring-task-window, --ring-heap, --ring-dep-pool, --aicpu-thread-num LIST (d->id: the knob's index in
 * KNOB_FLAGS); each value is checked by the run's own row in check() */
static int store_knob(const opt_def *d, const char *word, const char *value, void *dest, char *err,
                      size_t errlen)
{
    (void)word;
    sweep *s = dest;
    if (find_list(s, LIST_RUN, d->id, NULL, 0)) {
        snprintf(err, errlen, "%s given twice (give one list per knob)", KNOB_FLAGS[d->id]);
        return -1;
    }
    return add_list(s, LIST_RUN, d->id, NULL, 0, value, false, err, errlen);
}

/* --set KEY=LIST (d->id LIST_SET) and --kernel-set NAME.FIELD=LIST (LIST_KERNEL): a list (a comma after the
 * '=') is swept, one value goes to every run as it is */
static int store_keyed(const opt_def *d, const char *word, const char *value, void *dest, char *err,
                       size_t errlen)
{
    sweep *s = dest;
    bool set = d->id == LIST_SET;
    const char *flag = LIST_FLAGS[d->id], *eq = strchr(value, '=');
    if (!eq || !strchr(eq, ',')) {
        s->pass[s->npass++] = word;
        if (!strchr(word, '=')) /* the value was the next argument */
            s->pass[s->npass++] = value;
        return 0;
    }
    if (eq == value) {
        snprintf(err, errlen, "%s %s: expected %s=LIST", flag, value,
                 set ? "KEY" : d->id == LIST_SCALE ? "NAME" : "NAME.FIELD");
        return -1;
    }
    for (int k = 0; set && k < SWEEP_KNOBS; k++)
        if (strlen(KNOB_RUNCONFIG[k]) == (size_t)(eq - value) &&
            strncmp(value, KNOB_RUNCONFIG[k], (size_t)(eq - value)) == 0) {
            /* the platform's default ring sizes: the column would be the run's own knob's */
            snprintf(err, errlen, "--set %s: %s is the run's own knob; sweep it as %s %s", value,
                     KNOB_RUNCONFIG[k], KNOB_FLAGS[k], eq + 1);
            return -1;
        }
    if (find_list(s, (list_kind)d->id, -1, value, (size_t)(eq - value))) {
        snprintf(err, errlen, "%s %.*s given twice (give one list per knob)", flag, (int)(eq - value), value);
        return -1;
    }
    return add_list(s, (list_kind)d->id, -1, value, (size_t)(eq - value), value, false, err, errlen);
}

/* --gen-PARAM LIST: a parameter of the generator; every --gen-PARAM is a column, a list is swept */
static int store_gen(const opt_def *d, const char *word, const char *value, void *dest, char *err,
                     size_t errlen)
{
    (void)d;
    sweep *s = dest;
    const char *name = word + strlen("--gen-"), *eq = strchr(name, '=');
    size_t nlen = eq ? (size_t)(eq - name) : strlen(name);
    if (!s->gen_kind) {
        snprintf(err, errlen,
                 "%s: a generator's parameter: give GRAPH as gen:KIND (ptosim sweep gen:granularity --gen-k "
                 "24,48 -o DIR)",
                 word);
        return -1;
    }
    if (find_list(s, LIST_GEN, -1, name, nlen)) {
        snprintf(err, errlen, "--gen-%.*s given twice (give one list per knob)", (int)nlen, name);
        return -1;
    }
    char pname[64];
    snprintf(pname, sizeof(pname), "%.*s", (int)nlen, name);
    return add_list(s, LIST_GEN, -1, name, nlen, value, !gen_param_listable(s->gen_kind, pname), err, errlen);
}

/* -o, --work-dir DIR (d->id 0) and --resume DIR (1) */
static int store_dir(const opt_def *d, const char *word, const char *value, void *dest, char *err,
                     size_t errlen)
{
    (void)word;
    sweep *s = dest;
    if (s->dir) {
        snprintf(err, errlen,
                 "give the sweep's folder once: -o DIR, or --resume DIR to go on with the sweep in it");
        return -1;
    }
    s->dir = value;
    s->resume = d->id == 1;
    return 0;
}

static int store_jobs(const opt_def *d, const char *word, const char *value, void *dest, char *err,
                      size_t errlen)
{
    (void)d;
    (void)word;
    if (sweep_parse_long(value, 1, SWEEP_MAX_JOBS, &((sweep *)dest)->jobs) != 0) {
        snprintf(err, errlen, "-j: '%s' is not a number of jobs in [1, %d]", value, SWEEP_MAX_JOBS);
        return -1;
    }
    return 0;
}

static int store_engine(const opt_def *d, const char *word, const char *value, void *dest, char *err,
                        size_t errlen)
{
    (void)word;
    static const char *const names[] = {"local", "slurm", "parallel"}; /* sweep_engine's order */
    for (int e = 0; e < 3; e++)
        if (strcmp(value, names[e]) == 0) {
            ((sweep *)dest)->engine = (sweep_engine)e;
            return 0;
        }
    char near[16];
    int n = snprintf(err, errlen, "--engine: '%s' is not an engine (local, slurm, parallel)", value);
    if (n > 0 && (size_t)n < errlen && opt_near(d->choices, value, near, sizeof(near)))
        snprintf(err + n, errlen - (size_t)n, "; did you mean %s?", near);
    return -1;
}

/* -S HOSTS, each one kept */
static int store_host(const opt_def *d, const char *word, const char *value, void *dest, char *err,
                      size_t errlen)
{
    (void)d;
    (void)word;
    (void)err;
    (void)errlen;
    sweep *s = dest;
    s->hosts[s->nhosts++] = value;
    return 0;
}

static int store_point(const opt_def *d, const char *word, const char *value, void *dest, char *err,
                       size_t errlen)
{
    (void)d;
    (void)word;
    if (sweep_parse_long(value, 0, SWEEP_MAX_POINTS - 1, &((sweep *)dest)->point) != 0) {
        snprintf(err, errlen, "--point: '%s' is not a point index", value);
        return -1;
    }
    return 0;
}

/* --collect DIR and --best DIR: the first word or nothing (sweep_main takes them there) */
static int store_mode(const opt_def *d, const char *word, const char *value, void *dest, char *err,
                      size_t errlen)
{
    (void)word;
    (void)value;
    (void)dest;
    snprintf(err, errlen, "--%s DIR takes no other argument (ptosim sweep --%s DIR)", d->name, d->name);
    return -1;
}

/* --perfetto FILE: one file for every point would be written by all of them at once */
#define PERFETTO_REFUSED                                                                                     \
    "--perfetto FILE would have every point write the same file; give --enable-perfetto for a trace in "     \
    "each point's folder"

static int store_perfetto(const opt_def *d, const char *word, const char *value, void *dest, char *err,
                          size_t errlen)
{
    (void)d;
    (void)word;
    (void)value;
    (void)dest;
    snprintf(err, errlen, PERFETTO_REFUSED);
    return -1;
}

/* Completion's words from the generator: gen:KIND for GRAPH (the first word, once it begins as gen: does),
 * and with GRAPH gen:KIND its parameters as --gen-PARAM. */
static void complete_gen(int nwords, char **words, bool option, FILE *out)
{
    const char *cur = words[nwords - 1], *name;
    size_t n = strlen(cur);
    char w[128];
    bool graph = !option && nwords == 1 && n && strncmp(cur, GEN_PREFIX, n < 4 ? n : 4) == 0;
    for (int i = 0; graph && (name = gen_name(NULL, i)); i++) {
        snprintf(w, sizeof(w), GEN_PREFIX "%s", name);
        if (strncmp(w, cur, n) == 0)
            fprintf(out, "word %s\n", w);
    }
    bool params = option && nwords > 1 && strncmp(words[0], GEN_PREFIX, strlen(GEN_PREFIX)) == 0;
    for (int i = 0; params && (name = gen_name(words[0] + strlen(GEN_PREFIX), i)); i++) {
        snprintf(w, sizeof(w), "--gen-%s", name);
        if (strncmp(w, cur, n) == 0)
            fprintf(out, "word %s\n", w);
    }
}

static const opt_def SWEEP_OPTS[] = {
    /* the knob lists (SWEEP_LIST_ROWS of them) */
    {.name = "ring-task-window",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_LIST,
     .meta = "LIST",
     .help = "task slots per ring (power of 2 >= 4)",
     .runconfig = "ring_task_window",
     .store = store_knob,
     .id = 0},
    {.name = "ring-heap",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_LIST,
     .meta = "LIST",
     .help = "heap bytes per ring (power of 2 >= 1024)",
     .runconfig = "ring_heap",
     .store = store_knob,
     .id = 1},
    {.name = "ring-dep-pool",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_LIST,
     .meta = "LIST",
     .help = "dependency-list entries per ring ([4, INT32_MAX])",
     .runconfig = "ring_dep_pool",
     .store = store_knob,
     .id = 2},
    {.name = "aicpu-thread-num",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_LIST,
     .meta = "LIST",
     .help = "AICPU threads (0 = auto, else 2-4)",
     .runconfig = "aicpu_thread_num",
     .store = store_knob,
     .id = SWEEP_KNOB_THREADS},
    {.name = "set",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_TEXT,
     .meta = "KEY=LIST",
     .help = "a platform parameter (ptosim params lists them), e.g.\n"
             "--set hbm_bw=1.6e12,3.2e12; one value (no comma) goes to every\n"
             "point as it is",
     .store = store_keyed,
     .id = LIST_SET},
    {.name = "kernel-set",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_TEXT,
     .meta = "NAME.FIELD=LIST",
     .help = "a flag of every submit of kernel NAME: sync_start or early_resolve,\n"
             "true,false (ptosim run --help); one value goes to every point",
     .store = store_keyed,
     .id = LIST_KERNEL},
    {.name = "kernel-scale",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_TEXT,
     .meta = "NAME=LIST",
     .help = "the factor on every task's time of kernel NAME, e.g.\n"
             "--kernel-scale mm=1,0.9,0.75 (ptosim run --help); one value goes to\n"
             "every point",
     .store = store_keyed,
     .id = LIST_SCALE},
    {.name = "gen-PARAM",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_LIST,
     .meta = "LIST",
     .help = "with GRAPH gen:KIND, a parameter of `ptosim gen KIND` (ptosim gen\n"
             "KIND --help): one graph per combination, written by the generator\n"
             "into DIR/graphs/NNNN.jsonl and compiled once; a text parameter\n"
             "(--gen-block-table) is one value, commas and all",
     .store = store_gen,
     .missing = "%s: missing value",
     .flags = OPT_FAMILY},
    /* the sweep's options */
    {.name = "work-dir",
     .letter = 'o',
     .arg = OPT_VALUE,
     .kind = OPT_KIND_DIR,
     .meta = "DIR",
     .help = "the sweep's folder (required): sweep.csv, points.csv, and\n"
             "points/NNNN/ per point (row.csv, stderr.txt, ptosim_run.json,\n"
             "dfx_outputs/); missing, empty or this command's own sweep",
     .store = store_dir,
     .id = 0},
    {.name = "resume",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_DIR,
     .meta = "DIR",
     .help = "instead of -o: go on with the sweep in DIR, running only the\n"
             "points without a whole row (any engine); the graph, lists and\n"
             "options must be the sweep's; a DIR without a sweep starts one;\n"
             "alone (no GRAPH), the command DIR/sweep.cmd holds",
     .store = store_dir,
     .id = 1},
    {.name = "jobs",
     .letter = 'j',
     .arg = OPT_VALUE,
     .kind = OPT_KIND_NUMBER,
     .meta = "N",
     .help = "points at once (default: the online CPUs); slurm: the array's\n"
             "%N throttle (default none); parallel: its -j (default its own)",
     .store = store_jobs,
     .missing = "-j: missing value"},
    {.name = "engine",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_CHOICE,
     .choices = "local slurm parallel",
     .meta = "ENGINE",
     .help = "local: run the points here (default), progress on a terminal's stderr\n"
             "slurm: write DIR/sweep.sbatch (a job array: task i runs point i) and\n"
             "DIR/collect.sbatch, and print how to submit them; runs nothing\n"
             "parallel: run the points through GNU parallel, then merge the rows",
     .store = store_engine},
    {.name = "parallel-args",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_TEXT,
     .meta = "'ARGS'",
     .help = "more GNU parallel options, split at blanks (e.g. '--bar')",
     .store = opt_store_text,
     .off = offsetof(sweep, parallel_args)},
    {.name = "sshlogin",
     .letter = 'S',
     .arg = OPT_VALUE,
     .kind = OPT_KIND_TEXT,
     .meta = "HOSTS",
     .help = "GNU parallel's -S: run points on these hosts too (the binary,\n"
             "GRAPH and DIR must be at the same paths there)",
     .store = store_host},
    {.name = "point",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_NUMBER,
     .meta = "I",
     .help = "run only point I into DIR/points/NNNN (what the engines run)",
     .store = store_point},
    {.name = "collect",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_DIR,
     .meta = "DIR",
     .help = "merge DIR/points/NNNN/row.csv into DIR/sweep.csv, naming any\n"
             "point without a row",
     .store = store_mode,
     .missing = "--collect DIR takes no other argument (ptosim sweep --collect DIR)"},
    {.name = "best",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_DIR,
     .meta = "DIR",
     .help = "print the point of DIR/sweep.csv with status ok and the least\n"
             "makespan: its knobs as ptosim run flags and as RunConfig(...),\n"
             "and for GRAPH gen:KIND the ptosim gen command of its graph",
     .store = store_mode,
     .missing = "--best DIR takes no other argument (ptosim sweep --best DIR)"},
    {.name = "perfetto",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_FILE,
     .meta = "FILE",
     .help = "not taken: every point would write FILE (--enable-perfetto writes a\n"
             "trace into each point's folder)",
     .store = store_perfetto,
     .missing = PERFETTO_REFUSED},
};

const opt_table sweep_options = {
    .cmd = "sweep",
    .opts = SWEEP_OPTS,
    .nopts = OPT_COUNT(SWEEP_OPTS),
    .operand_kind = OPT_KIND_FILE,
    .unknown = "unknown option '%s'", /* unused: a word it does not know goes to the runs (s->pass) */
    .help_anywhere = true,
    .pass = &cli_run_options,
    .more = complete_gen,
};

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
    /* -h or --help anywhere, even as a value or before GRAPH, asks for the help (help_anywhere) */
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
    /* the words after GRAPH: the sweep's own options (its table), every other word to each run (s->pass);
     * a message quotes a word at most twice */
    size_t errlen = 1024;
    for (int i = 0; i < argc; i++)
        errlen += 2 * strlen(argv[i]);
    char *err = malloc(errlen);
    if (!err) {
        fputs("ptosim sweep: out of memory\n", stderr);
        return EXIT_INTERNAL;
    }
    s->failed = EXIT_USAGE;
    int rc = opt_parse(&sweep_options, argc - 1, argv + 1, s, s->pass, &s->npass, err, errlen);
    if (rc != 0)
        msgtext_print(stderr, "ptosim sweep: %s", err);
    free(err);
    if (rc != 0)
        return s->failed;
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

/* GRAPH gen:KIND: checks every graph the --gen-* lists make as `ptosim gen` would, with its messages. Returns
 * 0, or an exit status after printing why. */
static int check_gen(const sweep *s)
{
    for (long g = 0; s->gen_kind && g < s->ngraphs; g++) {
        char *av[1 + 2 * SWEEP_MAX_LISTS], names[SWEEP_MAX_LISTS][72], err[1024];
        int n = sweep_gen_args(s, g, av, names);
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
    if (!s->run.nkernel_sets && !s->run.nkernel_scales)
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
    for (int i = 0; i < s->run.nkernel_scales && !rc; i++) {
        char name[GRAPH_NAME_MAX], why[8192];
        uint32_t ppm;
        if (run_kernel_scale_of(&hdr, s->run.kernel_scales[i], name, sizeof(name), &ppm, why, sizeof(why)) < 0) {
            msgtext_print(stderr, "ptosim sweep: %s", why);
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
            rc = sweep_refuse_link_at(path);
        }
    snprintf(path, sizeof(path), "%s/points", s->dir_abs);
    struct stat st;
    bool points = userdir_stat(path, &st) == 0;
    for (long i = 0; i < s->npoints && points && rc == 0; i++) {
        sweep_point_dir(s, i, path, sizeof(path));
        rc = sweep_refuse_link_at(path);
    }
    return rc;
}

static int check(sweep *s)
{
    char err[4096];
    cli_run opt;
    /* each value of a list is checked by the run's own row of its option, with its message: a ring size by
     * model/runtime/run_config.c, as the run's flag and a graph's run_config are */
    for (int k = 0; k < s->nlists; k++)
        for (int v = 0; v < s->lists[k].n && s->lists[k].kind != LIST_GEN; v++) {
            const sweep_list *l = &s->lists[k];
            const char *flag = l->kind == LIST_RUN ? KNOB_FLAGS[l->knob] : LIST_FLAGS[l->kind];
            const opt_def *d = opt_find(&cli_run_options, flag, false);
            memset(&opt, 0, sizeof(opt));
            if (d->store(d, flag, l->vals[v], &opt, err, sizeof(err)) != 0) {
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
    const char **av = sweep_point_argv(s, 0, "GRAPH", "DIR");
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
        opt_unknown_passed(&sweep_options, "sweep", err, sizeof(err));
        /* a near miss named is the likelier slip than a list given to an option that takes none */
        msgtext_print(stderr, strstr(err, "; did you mean --") ? "ptosim sweep: %s" : "ptosim sweep: %s" LISTS_HINT,
                      err);
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
            if (pl[k]->kind == LIST_RUN && sweep_parse_long(pl[k]->vals[at[k]], 0, 4, &nthreads) == 0 &&
                nthreads)
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
    /* every point reads the graph (on other machines, with Slurm or parallel): from a pipe, DIR/graph.jsonl
     * is the copy they all read, compiled below before any point runs */
    if (spool && (size_t)snprintf(s->graph_abs, sizeof(s->graph_abs), "%s/" SPOOL_NAME, s->dir_abs) >=
                     sizeof(s->graph_abs)) {
        fprintf(stderr, "ptosim sweep: %s/" SPOOL_NAME ": path too long\n", s->dir);
        return EXIT_USAGE;
    }
    /* nothing is written into a folder of a run or of another sweep (the command names GRAPH as above) */
    if (s->point < 0 && (rc = sweep_check_folder(s)) != 0)
        return rc;
    if (spool) {
        int src = gsrc_spool(s->point < 0 ? temp : s->graph, s->graph_abs, err, sizeof(err));
        if (src != 0 && intr_signal()) /* a point alone has written nothing yet */
            return s->point < 0 ? SWEEP_STOPPED : stopped_early();
        if (src != 0) {
            msgtext_print(stderr, "ptosim sweep: %s", err);
            return src > 0 ? EXIT_GRAPH : EXIT_INTERNAL;
        }
        s->graph = s->graph_abs;
    }
    if (s->point < 0 && !s->gen_kind) { /* the points forked later find its digest made (gsrc_sha256) */
        char hex[65];
        (void)gsrc_sha256(s->graph, hex, err, sizeof(err));
    }
    return 0;
}

/* ---- entry ---- */

int sweep_main(int argc, char **argv)
{
    if (argc == 0) {
        fputs("ptosim sweep: missing GRAPH\n", stderr);
        return EXIT_USAGE;
    }
    /* --collect DIR and --best DIR are the whole command line */
    const opt_def *mode = opt_find(&sweep_options, argv[0], false);
    if (mode && mode->store == store_mode) {
        const char *eq = strchr(argv[0], '='), *v = eq ? eq + 1 : NULL;
        const char *dir = v ? v : argc > 1 ? argv[1] : NULL;
        if (!dir || argc != (v ? 1 : 2)) {
            fprintf(stderr, "ptosim sweep: --%s takes one DIR and nothing else\n", mode->name);
            return EXIT_USAGE;
        }
        userdir_add(dir); /* named: nothing below it is read through a link */
        if (strcmp(mode->name, "best") == 0)
            return sweep_best(dir);
        /* the merge rewrites DIR/sweep.csv from rows a running sweep is still writing: it waits its turn as
         * a second sweep would (a folder that is not there is for read_manifest to name) */
        struct stat st;
        int fd = stat(dir, &st) == 0 && S_ISDIR(st.st_mode)
                     ? lock_folder(dir, dir, "wait for it to end, then collect")
                     : -1;
        if (fd == -2)
            return EXIT_INTERNAL;
        int rc = sweep_collect(dir, NULL, 0);
        if (fd >= 0)
            close(fd);
        return rc;
    }
    /* --resume DIR alone (with the sweep's own options, -j, --engine, ...): GRAPH, the lists and the run
     * options are those DIR/sweep.cmd holds, put before the words given; the sweep then checks them against
     * the folder as it checks a command typed whole */
    const opt_def *first = opt_find(&sweep_options, argv[0], false);
    char **words = NULL, **av = NULL;
    if (first && first->store == store_dir && first->id == 1) {
        const char *eq = strchr(argv[0], '='), *dir = eq ? eq + 1 : argc > 1 ? argv[1] : NULL;
        if (!dir || !dir[0]) {
            fputs("ptosim sweep: --resume: missing DIR\n", stderr);
            return EXIT_USAGE;
        }
        userdir_add(dir); /* named: its sweep.cmd is read through no link */
        int nw = 0;
        if (!(words = sweep_read_command(dir, &nw)))
            return EXIT_USAGE;
        for (int i = 0; i < nw; i++) {
            const opt_def *d = opt_find(&sweep_options, words[i], false);
            if (d && d - SWEEP_OPTS >= SWEEP_LIST_ROWS) {
                msgtext_print(
                    stderr,
                    "ptosim sweep: --resume %s: %s/sweep.cmd holds '%s', an option of the sweep itself, "
                    "which ptosim sweep never writes there; give the sweep's command: ptosim sweep GRAPH "
                    "[KNOB LIST ...] [run options] --resume %s",
                    dir, dir, words[i], dir);
                sweep_free_words(words);
                return EXIT_USAGE;
            }
        }
        if (!(av = calloc((size_t)nw + (size_t)argc + 1, sizeof(*av)))) {
            fputs("ptosim sweep: out of memory\n", stderr);
            sweep_free_words(words);
            return EXIT_INTERNAL;
        }
        memcpy(av, words, (size_t)nw * sizeof(*av));
        memcpy(av + nw, argv, (size_t)argc * sizeof(*av));
        argc += nw;
        argv = av;
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
            sweep_graph_file(&s, sweep_point_graph(&s, s.point), "jsonl", graph, sizeof(graph));
        rc = check_kernel_names(&s, s.gen_kind ? graph : s.graph, s.gen_kind ? graph : s.graph);
        if (rc == 0)
            rc = sweep_run_point(&s);
    } else if (rc == 0 && (rc = sweep_write_manifest(&s)) != 0)
        ;
    else if (rc == 0) {
        gcomp *gc = calloc((size_t)s.ngraphs, sizeof(*gc));
        if (!gc) {
            fputs("ptosim sweep: out of memory\n", stderr);
            rc = EXIT_INTERNAL;
        } else
            rc = s.gen_kind ? sweep_compile_gen_graphs(&s, gc) : sweep_compile_graph(&s, gc);
        for (long g = 0; g < s.ngraphs && rc == 0 && s.gen_kind; g++) {
            /* the kernel names of a generated graph, now that it is here (a pipe's were checked on its copy) */
            char graph[PATH_MAX + 64];
            sweep_graph_file(&s, g, "jsonl", graph, sizeof(graph));
            rc = check_kernel_names(&s, graph, graph);
        }
        if (rc == 0 && intr_signal()) /* came as the compile ended: no engine is handed a point */
            rc = SWEEP_STOPPED;
        gsrc_stop_on(NULL); /* the points read their graph headers themselves */
        if (rc == 0 && sweep_plan_points(&s) != 0)
            rc = EXIT_INTERNAL;
        else if (rc == 0 && s.ntodo == 0 && s.engine != ENGINE_LOCAL)
            rc = sweep_collect(s.dir_abs, NULL, 0); /* a resumed sweep with every row: nothing to hand over */
        else if (rc == 0 && s.engine == ENGINE_SLURM)
            rc = sweep_write_slurm(&s);
        else if (rc == 0 && s.engine == ENGINE_PARALLEL)
            rc = sweep_run_parallel(&s);
        else if (rc == 0) {
            int *status = malloc(sizeof(int) * (size_t)s.npoints);
            if (!status) {
                fputs("ptosim sweep: out of memory\n", stderr);
                rc = EXIT_INTERNAL;
            } else {
                intr_install(); /* SIGINT and SIGTERM: forwarded to the points, then the rows so far */
                sweep_run_local(&s, gc, status);
                if (intr_signal())
                    rc = sweep_collect_interrupted(&s, status, intr_signal());
                else
                    rc = sweep_collect(s.dir_abs, status, s.npoints);
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
        rc = status ? sweep_collect_interrupted(&s, status, intr_signal()) : intr_status(intr_signal());
        free(status);
    }
    sweep_free(&s);
    free(av);
    sweep_free_words(words);
    return rc;
}
