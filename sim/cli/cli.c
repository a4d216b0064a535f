/* cli.c - cli_: one command-line convention for every command, and `ptosim run`'s options. */
/* The convention: help, usage errors, the option matcher; run's options as a table (opt_table.h), which
 * tune and sweep pass on; the hidden commands completion and scripts/check_manpage.sh ask. */
#include "cli.h"

#include "../../model/runtime/run_config.h"
#include "../../model/base/int_text.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* `ptosim run --help`: its description, the options section from cli_run_options, the rest. */
void cli_run_usage(void)
{
    fputs("usage: ptosim run GRAPH [GRAPH...] [options]\n"
          "\n"
          "Simulates the graph on a simulated a2a3 chip running the PTO2 runtime. Several graphs run as\n"
          "successive programs on one worker: setup and the ring arena are paid once, resident tensors\n"
          "keep their address, and each program writes DIR/N_NAME/ (docs/howto/several-programs.md).\n"
          "\n"
          "options:\n",
          stdout);
    opt_help(&cli_run_options, stdout);
    puts("\n"
         "GRAPH may be - (standard input), a pipe or gzip-compressed; every line is checked while the run\n"
         "goes, and a malformed one leaves no file. Short options take their value attached or apart\n"
         "(-oDIR, -o DIR).\n"
         "\n"
         "exit status: 0 completed; 1 the simulator failed (I/O, memory); 2 bad command line, platform or\n"
         "parameter; 3 malformed graph; 4 the runtime's error code; 5 device error (STARS kill, stream\n"
         "sync); 6 no progress (deadlock); 130/143 SIGINT/SIGTERM");
}

bool cli_opt_is(const char *arg, const char *name, const char **value)
{
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0)
        return false;
    if (arg[n] == '\0') {
        *value = NULL;
        return true;
    }
    if (arg[n] == '=') {
        *value = arg + n + 1;
        return true;
    }
    return false;
}

bool cli_short_is(const char *arg, const char *flag, const char **value)
{
    if (arg[0] != '-' || arg[1] != flag[1] || arg[1] == '-' || !arg[1])
        return false;
    *value = arg[2] ? arg + 2 : NULL;
    return true;
}

bool cli_is_help(const char *arg)
{
    return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}

/* The command of cmds named name, or NULL. */
static const cli_cmd *named(const cli_cmd *cmds, int ncmds, const char *name)
{
    for (int i = 0; i < ncmds; i++)
        if (strcmp(cmds[i].name, name) == 0)
            return &cmds[i];
    return NULL;
}

int cli_dispatch(const cli_cmd *cmds, int ncmds, int argc, char **argv, void (*general)(FILE *out))
{
    if (argc < 2) {
        general(stderr);
        return EXIT_USAGE;
    }
    const char *name = argv[1];
    if (cli_is_help(name) || (strcmp(name, "help") == 0 && argc == 2)) {
        general(stdout);
        return EXIT_OK;
    }
    if (strcmp(name, "help") == 0) {
        const cli_cmd *c = argc == 3 ? named(cmds, ncmds, argv[2]) : NULL;
        if (!c) {
            if (argc == 3)
                fprintf(stderr, "ptosim help: %s: unknown command\n", argv[2]);
            else
                fputs("ptosim help: one command at a time\n", stderr);
            fputs("usage: ptosim help [COMMAND]\n", stderr);
            return EXIT_USAGE;
        }
        char help[] = "--help";
        char *av[] = {help, NULL};
        return c->main(1, av);
    }
    const cli_cmd *c = named(cmds, ncmds, name);
    if (!c) {
        fprintf(stderr, "ptosim: unknown command '%s'\n", name);
        general(stderr);
        return EXIT_USAGE;
    }
    int rc = c->main(argc - 2, argv + 2);
    if (rc == EXIT_USAGE) /* after the command's own message: what it takes */
        fprintf(stderr, "usage: %s (ptosim %s --help)\n", c->usage, c->name);
    return rc;
}

/* A level flag's value in [0, max] (strint: no blanks, no '+', no wrap):
 * 0, or 1 when it is no integer, or 2 when it is one out of range. */
static int parse_level(const char *s, int max, int *out)
{
    int64_t v;
    strint_status st = strint_parse(s, 0, max, &v);
    if (st == STRINT_OK)
        *out = (int)v;
    return st == STRINT_OK ? 0 : st == STRINT_SYNTAX ? 1 : 2;
}

int cli_kernel_set(const char *text, char *name, size_t namelen, cli_kfield *field, bool *value, char *err,
                   size_t errlen)
{
    const char *eq = strchr(text, '=');
    const char *dot = NULL;
    for (const char *c = text; eq && c < eq; c++)
        if (*c == '.')
            dot = c;
    if (!eq || !dot || dot == text || dot + 1 == eq) {
        snprintf(
            err, errlen,
            "--kernel-set %s: expected NAME.FIELD=VALUE (a kernel's name, sync_start or early_resolve, true "
            "or false)",
            text);
        return -1;
    }
    size_t flen = (size_t)(eq - dot - 1);
    if (flen == strlen("sync_start") && strncmp(dot + 1, "sync_start", flen) == 0)
        *field = CLI_KFIELD_SYNC_START;
    else if ((flen == strlen("early_resolve") && strncmp(dot + 1, "early_resolve", flen) == 0) ||
             (flen == strlen("allow_early_resolve") && strncmp(dot + 1, "allow_early_resolve", flen) == 0))
        *field = CLI_KFIELD_EARLY_RESOLVE;
    else {
        snprintf(err, errlen,
                 "--kernel-set %s: '%.*s' is not a flag of a submit (sync_start, early_resolve or "
                 "allow_early_resolve)",
                 text, (int)flen, dot + 1);
        return -1;
    }
    if (strcmp(eq + 1, "true") == 0 || strcmp(eq + 1, "false") == 0)
        *value = eq[1] == 't';
    else {
        snprintf(err, errlen, "--kernel-set %s: the value is true or false, got '%s'", text, eq + 1);
        return -1;
    }
    if ((size_t)(dot - text) >= namelen) {
        snprintf(err, errlen, "--kernel-set %s: the kernel's name is longer than %zu characters", text,
                 namelen - 1);
        return -1;
    }
    memcpy(name, text, (size_t)(dot - text));
    name[dot - text] = '\0';
    return 0;
}

/* --set KEY=VALUE, in order */
static int store_set(const opt_def *d, const char *word, const char *value, void *dest, char *err,
                     size_t errlen)
{
    (void)d;
    (void)word;
    cli_run *o = dest;
    if (o->nsets == CLI_MAX_SETS) {
        snprintf(err, errlen, "too many --set arguments (at most %d)", CLI_MAX_SETS);
        return -1;
    }
    o->sets[o->nsets++] = value;
    return 0;
}

/* --kernel-set NAME.FIELD=VALUE: its syntax checked here, its NAME against the graph's kernels later */
static int store_kernel_set(const opt_def *d, const char *word, const char *value, void *dest, char *err,
                            size_t errlen)
{
    (void)d;
    (void)word;
    cli_run *o = dest;
    char name[128];
    cli_kfield field;
    bool v;
    if (cli_kernel_set(value, name, sizeof(name), &field, &v, err, errlen) != 0)
        return -1;
    if (o->nkernel_sets == CLI_MAX_SETS) {
        snprintf(err, errlen, "too many --kernel-set arguments (at most %d)", CLI_MAX_SETS);
        return -1;
    }
    o->kernel_sets[o->nkernel_sets++] = value;
    return 0;
}

/* --kernel-scale NAME=F: its syntax and F's range checked here, its NAME against the graph's kernels later */
static int store_kernel_scale(const opt_def *d, const char *word, const char *value, void *dest, char *err,
                              size_t errlen)
{
    (void)d;
    (void)word;
    cli_run *o = dest;
    char name[128];
    uint32_t ppm;
    if (runcfg_parse_scale(value, name, sizeof(name), &ppm, err, errlen) != 0)
        return -1;
    if (o->nkernel_scales == CLI_MAX_SETS) {
        snprintf(err, errlen, "too many --kernel-scale arguments (at most %d)", CLI_MAX_SETS);
        return -1;
    }
    o->kernel_scales[o->nkernel_scales++] = value;
    return 0;
}

/* --ring-task-window, --ring-heap, --ring-dep-pool (d->id the runcfg_knob): RunConfig's rules, in
 * model/runtime/run_config.c with a graph's run_config's */
static int store_ring(const opt_def *d, const char *word, const char *value, void *dest, char *err,
                      size_t errlen)
{
    (void)word;
    cli_run *o = dest;
    return runcfg_parse_ring((runcfg_knob)d->id, value, o->rings[d->id], err, errlen);
}

/* --seed N (d->id 0) and --repeat N (1) */
static int store_seed(const opt_def *d, const char *word, const char *value, void *dest, char *err,
                      size_t errlen)
{
    (void)word;
    cli_run *o = dest;
    bool seed = d->id == 0;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(value, &end, 10);
    if (end == value || *end || value[0] == '-' || errno || (!seed && (x < 1 || x > CLI_MAX_REPEAT))) {
        if (seed)
            snprintf(err, errlen, "--seed: '%s' is not an integer in [0, 2^64-1]", value);
        else
            snprintf(err, errlen, "--repeat: '%s' is not an integer in [1, %d]", value, CLI_MAX_REPEAT);
        return -1;
    }
    if (seed) {
        o->seeded = true;
        o->seed = (uint64_t)x;
    } else {
        o->repeat = (long)x;
    }
    return 0;
}

static int store_threads(const opt_def *d, const char *word, const char *value, void *dest, char *err,
                         size_t errlen)
{
    (void)d;
    (void)word;
    return runcfg_parse_threads(value, &((cli_run *)dest)->aicpu_thread_num, err, errlen);
}

static int store_swimlane(const opt_def *d, const char *word, const char *value, void *dest, char *err,
                          size_t errlen)
{
    (void)d;
    (void)word;
    int lvl = 4; /* bare flag = 4 (docs/reference/commands.md §"Run options") */
    int bad = value ? parse_level(value, 4, &lvl) : 0;
    if (bad == 1) {
        snprintf(err, errlen,
                 "--enable-chip-swimlane: enable_chip_swimlane must be an int "
                 "collection level (0-4), got '%s'",
                 value);
        return -1;
    }
    if (bad == 2) { /* 4294967300 is not level 4 */
        snprintf(err, errlen,
                 "--enable-chip-swimlane: enable_chip_swimlane must be a collection level in "
                 "[0, 4] (0=off, 1=AICore timing, 2=+dispatch/finish, 3=+sched phases, "
                 "4=+orch phases), got %s",
                 value);
        return -1;
    }
    ((cli_run *)dest)->swimlane_level = lvl;
    return 0;
}

/* --enable-pmu[=TYPE]: the type is resolved with the environment's in run_prepare */
static int store_pmu(const opt_def *d, const char *word, const char *value, void *dest, char *err,
                     size_t errlen)
{
    (void)d;
    (void)word;
    (void)err;
    (void)errlen;
    cli_run *o = dest;
    o->pmu_given = true;
    o->pmu_value = value;
    return 0;
}

static int store_dump(const opt_def *d, const char *word, const char *value, void *dest, char *err,
                      size_t errlen)
{
    (void)d;
    (void)word;
    int lvl = 1; /* bare flag = 1, partial (docs/reference/commands.md §"Run options") */
    int bad = value ? parse_level(value, 3, &lvl) : 0;
    if (bad == 1) {
        snprintf(err, errlen, "--dump-args: enable_dump_args must be an int level (0-3), got '%s'", value);
        return -1;
    }
    if (bad == 2) { /* 4294967297 is not level 1 */
        snprintf(err, errlen,
                 "--dump-args: enable_dump_args must be a level in [0, 3] (0=off, 1=tagged args, "
                 "2=every arg, 3=every arg's metadata with tagged payload), got %s",
                 value);
        return -1;
    }
    ((cli_run *)dest)->dump_level = lvl;
    return 0;
}

static int store_perfetto(const opt_def *d, const char *word, const char *value, void *dest, char *err,
                          size_t errlen)
{
    (void)d;
    (void)word;
    if (!value[0]) {
        snprintf(err, errlen, "--perfetto: empty FILE name");
        return -1;
    }
    ((cli_run *)dest)->perfetto = value;
    return 0;
}

/* --cfg=KEY:VALUE and --log=...: the whole word goes to SimGrid */
static int store_simgrid(const opt_def *d, const char *word, const char *value, void *dest, char *err,
                         size_t errlen)
{
    (void)d;
    (void)word;
    cli_run *o = dest;
    if (o->nsg == CLI_MAX_SG) {
        snprintf(err, errlen, "too many --cfg/--log arguments (at most %d)", CLI_MAX_SG);
        return -1;
    }
    o->sg_args[o->nsg++] = value;
    return 0;
}

static int store_graph(const char *word, void *dest, char *err, size_t errlen)
{
    cli_run *o = dest;
    if (o->ngraphs == CLI_MAX_GRAPHS) {
        snprintf(err, errlen, "at most %d GRAPH files (programs on one worker), got more", CLI_MAX_GRAPHS);
        return -1;
    }
    o->graphs[o->ngraphs++] = word;
    o->graph = o->graphs[0];
    return 0;
}

#define TEXT_AT(field) .store = opt_store_text, .off = offsetof(cli_run, field)
#define TRUE_AT(field) .store = opt_store_true, .off = offsetof(cli_run, field)
#define RING_HELP_LIST "0 in a list = the graph's run_config or the default"

static const opt_def RUN_OPTS[] = {
    {.name = "work-dir",
     .letter = 'o',
     .arg = OPT_VALUE,
     .kind = OPT_KIND_DIR,
     .meta = "DIR",
     .help = "write DIR/ptosim_run.json and DIR/dfx_outputs/",
     .runconfig = "output_prefix",
     TEXT_AT(work_dir)},
    {.name = "platform",
     .letter = 'p',
     .arg = OPT_VALUE,
     .kind = OPT_KIND_PLATFORM,
     .meta = "NAME|FILE",
     .help = "platform (default a2a3; also a2a3sim)",
     .runconfig = "platform",
     TEXT_AT(platform)},
    {.name = "enable-chip-swimlane",
     .arg = OPT_OPTIONAL,
     .kind = OPT_KIND_NUMBER,
     .meta = "N",
     .help = "chip_swimlane_records.json at level N (0-4, bare = 4)",
     .runconfig = "enable_chip_swimlane",
     .store = store_swimlane,
     .flags = OPT_NEXT_DIGIT},
    {.name = "enable-dep-gen",
     .arg = OPT_FLAG,
     .help = "deps.json: the dependency graph the runtime builds",
     .runconfig = "enable_dep_gen",
     TRUE_AT(dep_gen)},
    {.name = "enable-scope-stats",
     .arg = OPT_FLAG,
     .help = "scope_stats/scope_stats.jsonl: ring counters at every scope",
     .runconfig = "enable_scope_stats",
     TRUE_AT(scope_stats)},
    {.name = "enable-pmu",
     .arg = OPT_OPTIONAL,
     .kind = OPT_KIND_NUMBER,
     .meta = "TYPE",
     .help = "PMU collection, event group 1, 2, 4-8 (bare = 2); forces single issue",
     .runconfig = "enable_pmu",
     .store = store_pmu,
     .flags = OPT_NEXT_DIGIT},
    {.name = "dump-args",
     .arg = OPT_OPTIONAL,
     .kind = OPT_KIND_NUMBER,
     .meta = "LEVEL",
     .help = "args_dump/: 1 tagged args (bare), 2 every arg, 3 all metadata + tagged payload",
     .runconfig = "enable_dump_args",
     .store = store_dump,
     .flags = OPT_NEXT_DIGIT},
    {.name = "op-execute-timeout-us",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_NUMBER,
     .meta = "N",
     .help = "STARS op-execute timeout (default 45000000; SIMPLER_OP_EXECUTE_TIMEOUT_US)",
     TEXT_AT(op_timeout)},
    {.name = "stream-sync-timeout-ms",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_NUMBER,
     .meta = "N",
     .help = "host stream-sync timeout (default 50000; SIMPLER_STREAM_SYNC_TIMEOUT_MS)",
     TEXT_AT(stream_timeout)},
    {.name = "scheduler-timeout-ms",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_NUMBER,
     .meta = "N",
     .help = "scheduler no-progress timeout (default 10000; SIMPLER_SCHEDULER_TIMEOUT_MS)\n"
             "On a platform with STARS (a2a3) the three timeouts must keep the\n"
             "runtime's order, scheduler < op-execute < stream-sync and\n"
             "stream-sync > scheduler + 1.5 s, or all three are ignored and the\n"
             "defaults used: a warning on stderr, repeated as the summary's last\n"
             "line and in ptosim_run.json \"warnings\"",
     TEXT_AT(sched_timeout)},
    {.name = "ring-task-window",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_LIST,
     .meta = "N|a,b,c,d",
     .help = "task slots per scope-depth ring (power of 2 in [4, INT32_MAX];\n" RING_HELP_LIST ")",
     .runconfig = "ring_task_window",
     .store = store_ring,
     .id = KNOB_TASK_WINDOW},
    {.name = "ring-heap",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_LIST,
     .meta = "N|a,b,c,d",
     .help = "heap bytes per ring (power of 2 >= 1024; 0 in a list = the\ngraph's run_config or the default)",
     .runconfig = "ring_heap",
     .store = store_ring,
     .id = KNOB_HEAP},
    {.name = "ring-dep-pool",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_LIST,
     .meta = "N|a,b,c,d",
     .help = "dependency-list entries per ring ([4, INT32_MAX]; 0 in a list =\n"
             "the graph's run_config or the default)\n"
             "(RunConfig ring_task_window, ring_heap, ring_dep_pool; the retired\n"
             "PTO2_RING_* variables are not read, a set one draws a warning)",
     .runconfig = "ring_dep_pool",
     .store = store_ring,
     .id = KNOB_DEP_POOL},
    {.name = "aicpu-thread-num",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_NUMBER,
     .meta = "N",
     .help = "AICPU threads: 0 = auto (4), else 2-4 (1 orchestrator + schedulers)",
     .runconfig = "aicpu_thread_num",
     .store = store_threads},
    {.name = "set",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_TEXT,
     .meta = "KEY=VALUE",
     .help = "override a platform parameter (ptosim params lists them)",
     .store = store_set},
    {.name = "kernel-set",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_TEXT,
     .meta = "NAME.FIELD=V",
     .help = "set FIELD (sync_start, early_resolve) to V (true, false) on every\n"
             "submit that runs kernel NAME, as if its line said so",
     .store = store_kernel_set},
    {.name = "kernel-scale",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_TEXT,
     .meta = "NAME=F",
     .help = "every task of kernel NAME runs F times as long (0.9 = 10% faster;\n"
             "F in (0, 1000], at most 6 decimals; any cost form, every pipe's\n"
             "busy time scaled as a whole); repeatable, the last one of a NAME wins",
     .store = store_kernel_scale},
    {.name = "seed",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_NUMBER,
     .meta = "N",
     .help = "variation on: each execution's costs drawn around their means from\n"
             "seed N (spreads: ptosim params *_spread); off by default",
     .store = store_seed,
     .id = 0},
    {.name = "repeat",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_NUMBER,
     .meta = "N",
     .help = "N runs with seeds N0 .. N0+N-1 (N0 = --seed, else 1): the makespan's\n"
             "mean, sigma, min, p50 and max; files of the first run",
     .store = store_seed,
     .id = 1},
    {.name = "perfetto",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_FILE,
     .meta = "FILE",
     .help = "ptosim's own Chrome/Perfetto JSON trace in FILE (for\n"
             "ui.perfetto.dev): cores, AICPU threads, dependency flows, ring,\n"
             "HBM, args-dump and overhead counters over simulated time",
     .store = store_perfetto},
    {.name = "enable-perfetto",
     .arg = OPT_FLAG,
     .help = "the same trace as DIR/dfx_outputs/ptosim_trace.json (needs -o)",
     TRUE_AT(enable_perfetto)},
    {.name = "no-host-timing",
     .arg = OPT_FLAG,
     .help = "leave host timing out of ptosim_run.json (byte-identical reruns)",
     TRUE_AT(no_host_timing)},
    {.name = "quiet", .arg = OPT_FLAG, .help = "no summary on stdout", TRUE_AT(quiet)},
    {.name = "summary-csv",
     .arg = OPT_FLAG,
     .help = "print a CSV header and one row instead of the summary",
     TRUE_AT(summary_csv)},
    {.name = "cfg",
     .arg = OPT_PREFIX,
     .kind = OPT_KIND_TEXT,
     .meta = "KEY:VALUE",
     .help = "passed to SimGrid (a configuration item)",
     .store = store_simgrid},
    {.name = "log",
     .arg = OPT_PREFIX,
     .kind = OPT_KIND_TEXT,
     .meta = "...",
     .help = "passed to SimGrid (a logging setting)",
     .store = store_simgrid},
};

const opt_table cli_run_options = {
    .cmd = "run",
    .opts = RUN_OPTS,
    .nopts = OPT_COUNT(RUN_OPTS),
    .operand_kind = OPT_KIND_FILE,
    .operand = store_graph,
    .unknown = "unknown option '%s' (ptosim run --help lists the options)",
};

int cli_parse_run(int argc, char **argv, cli_run *o, char *err, size_t errlen)
{
    int rc = cli_parse_run_args(argc, argv, o, err, errlen);
    if (rc != 0)
        return rc;
    if ((o->swimlane_level > 0 || o->dep_gen || o->scope_stats || o->dump_level > 0 ||
         (o->pmu_given && (!o->pmu_value || strcmp(o->pmu_value, "0")))) &&
        !o->work_dir) {
        snprintf(err, errlen,
                 "CallConfig: output_prefix must be set whenever any of enable_chip_swimlane / "
                 "enable_dump_args / enable_pmu / enable_dep_gen / enable_scope_stats is enabled "
                 "(give -o DIR)");
        return -1;
    }
    return 0;
}

int cli_parse_run_args(int argc, char **argv, cli_run *o, char *err, size_t errlen)
{
    memset(o, 0, sizeof(*o));
    o->platform = "a2a3";
    int rc = opt_parse(&cli_run_options, argc, argv, o, NULL, NULL, err, errlen);
    if (rc == 1)
        cli_run_usage();
    if (rc != 0)
        return rc;
    o->sg_args[o->nsg] = NULL;
    if (!o->graph) {
        snprintf(err, errlen, "missing GRAPH");
        return -1;
    }
    if (o->repeat && o->ngraphs > 1) {
        snprintf(err, errlen, "--repeat takes one GRAPH, not programs on one worker");
        return -1;
    }
    if (o->repeat && o->dump_level > 0) {
        snprintf(err, errlen,
                 "--repeat does not combine with --dump-args (the host's dump collector runs once)");
        return -1;
    }
    if (o->perfetto && o->ngraphs > 1) {
        snprintf(err, errlen,
                 "--perfetto FILE takes one GRAPH (for programs on one worker, -o DIR --enable-perfetto "
                 "writes a trace per program)");
        return -1;
    }
    if (o->enable_perfetto && !o->work_dir) {
        snprintf(err, errlen,
                 "--enable-perfetto writes DIR/dfx_outputs/ptosim_trace.json: give -o DIR (or --perfetto "
                 "FILE)");
        return -1;
    }
    return 0;
}

int cli_complete(const cli_cmd *cmds, int ncmds, int argc, char **argv, const char *platform_dir, FILE *out)
{
    int64_t cword;
    if (argc < 2 || strint_parse(argv[0], 1, argc - 1, &cword) != STRINT_OK) {
        fputs("usage: ptosim __complete CWORD PTOSIM [WORD...] (CWORD: which WORD is completed, from 1)\n",
              stderr);
        return EXIT_USAGE;
    }
    /* words[0] is the program, words[cword] the word being completed ("" past the last one) */
    char **words = argv + 1, empty[] = "";
    int nwords = argc - 1;
    char **line = malloc(((size_t)cword + 1) * sizeof(char *));
    if (!line) {
        fputs("ptosim __complete: out of memory\n", stderr);
        return EXIT_INTERNAL;
    }
    for (int i = 0; i <= cword; i++)
        line[i] = i < nwords ? words[i] : empty;
    const char *cur = line[cword];
    int rc = EXIT_OK;
    if (cword == 1) {
        for (int i = 0; i < ncmds; i++)
            if (strncmp(cmds[i].name, cur, strlen(cur)) == 0)
                fprintf(out, "word %s\n", cmds[i].name);
        static const char *const more[] = {"help", "--help"};
        for (int i = 0; i < 2; i++)
            if (strncmp(more[i], cur, strlen(cur)) == 0)
                fprintf(out, "word %s\n", more[i]);
    } else if (strcmp(line[1], "help") == 0) {
        for (int i = 0; i < ncmds && cword == 2; i++)
            if (cmds[i].name[0] != '-' && strncmp(cmds[i].name, cur, strlen(cur)) == 0)
                fprintf(out, "word %s\n", cmds[i].name);
    } else {
        const cli_cmd *c = named(cmds, ncmds, line[1]);
        if (c && c->opts)
            opt_complete(c->opts, (int)cword - 1, line + 2, platform_dir, out);
        else
            rc = 1; /* not one of the commands with a table: the completion script answers */
    }
    free(line);
    return rc;
}

int cli_options(const cli_cmd *cmds, int ncmds, int argc, char **argv, FILE *out)
{
    if (argc == 0) {
        for (int i = 0; i < ncmds; i++)
            if (cmds[i].opts)
                fprintf(out, "%s\n", cmds[i].name);
        return EXIT_OK;
    }
    const cli_cmd *c = argc == 1 ? named(cmds, ncmds, argv[0]) : NULL;
    if (argc > 1) {
        fputs("usage: ptosim __options [COMMAND]\n", stderr);
        return EXIT_USAGE;
    }
    if (!c || !c->opts)
        return 1; /* no table: its --help is the list */
    opt_list(c->opts, out);
    return EXIT_OK;
}
