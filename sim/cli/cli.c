/* cli.c - cli_: one command-line convention for every command, and `ptosim run`'s options. */
/* The convention: help, usage errors, the option matcher. */
#include "cli.h"

#include "../../model/runtime/run_config.h"
#include "../../model/base/int_text.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cli_run_usage(void)
{
    puts(
        "usage: ptosim run GRAPH [GRAPH...] [options]\n"
        "\n"
        "Simulates the graph on a simulated a2a3 chip running the PTO2 runtime. Several graphs run as\n"
        "successive programs on one worker: setup and the ring arena are paid once, resident tensors\n"
        "keep their address, and each program writes DIR/N_NAME/ (docs/howto/several-programs.md).\n"
        "\n"
        "options:\n"
        "  -o, --work-dir DIR            write DIR/ptosim_run.json and DIR/dfx_outputs/\n"
        "  -p, --platform NAME|FILE      platform (default a2a3; also a2a3sim)\n"
        "  --enable-chip-swimlane[=N]    chip_swimlane_records.json at level N (0-4, bare = 4)\n"
        "  --enable-dep-gen              deps.json: the dependency graph the runtime builds\n"
        "  --enable-scope-stats          scope_stats/scope_stats.jsonl: ring counters at every scope\n"
        "  --enable-pmu[=TYPE]           PMU collection, event group 1, 2, 4-8 (bare = 2); forces single "
        "issue\n"
        "  --dump-args[=LEVEL]           args_dump/: 1 tagged args (bare), 2 every arg, 3 all metadata + "
        "tagged payload\n"
        "  --op-execute-timeout-us N     STARS op-execute timeout (default 45000000; "
        "SIMPLER_OP_EXECUTE_TIMEOUT_US)\n"
        "  --stream-sync-timeout-ms N    host stream-sync timeout (default 50000; "
        "SIMPLER_STREAM_SYNC_TIMEOUT_MS)\n"
        "  --scheduler-timeout-ms N      scheduler no-progress timeout (default 10000; "
        "SIMPLER_SCHEDULER_TIMEOUT_MS)\n"
        "                                On a platform with STARS (a2a3) the three timeouts must keep the\n"
        "                                runtime's order, scheduler < op-execute < stream-sync and\n"
        "                                stream-sync > scheduler + 1.5 s, or all three are ignored and the\n"
        "                                defaults used: a warning on stderr, repeated as the summary's last\n"
        "                                line and in ptosim_run.json \"warnings\"\n"
        "  --ring-task-window N|a,b,c,d  task slots per scope-depth ring (power of 2 in [4, INT32_MAX];\n"
        "                                0 in a list = the graph's run_config or the default)\n"
        "  --ring-heap N|a,b,c,d         heap bytes per ring (power of 2 >= 1024; 0 in a list = the\n"
        "                                graph's run_config or the default)\n"
        "  --ring-dep-pool N|a,b,c,d     dependency-list entries per ring ([4, INT32_MAX]; 0 in a list =\n"
        "                                the graph's run_config or the default)\n"
        "                                (RunConfig ring_task_window, ring_heap, ring_dep_pool; the retired\n"
        "                                PTO2_RING_* variables are not read, a set one draws a warning)\n"
        "  --aicpu-thread-num N          AICPU threads: 0 = auto (4), else 2-4 (1 orchestrator + "
        "schedulers)\n"
        "  --set KEY=VALUE               override a platform parameter (ptosim params lists them)\n"
        "  --kernel-set NAME.FIELD=V     set FIELD (sync_start, early_resolve) to V (true, false) on every\n"
        "                                submit that runs kernel NAME, as if its line said so\n"
        "  --seed N                      variation on: each execution's costs drawn around their means from\n"
        "                                seed N (spreads: ptosim params *_spread); off by default\n"
        "  --repeat N                    N runs with seeds N0 .. N0+N-1 (N0 = --seed, else 1): the "
        "makespan's\n"
        "                                mean, sigma, min, p50 and max; files of the first run\n"
        "  --perfetto FILE               ptosim's own Chrome/Perfetto JSON trace in FILE (for\n"
        "                                ui.perfetto.dev): cores, AICPU threads, dependency flows, ring,\n"
        "                                HBM, args-dump and overhead counters over simulated time\n"
        "  --enable-perfetto             the same trace as DIR/dfx_outputs/ptosim_trace.json (needs -o)\n"
        "  --no-host-timing              leave host timing out of ptosim_run.json (byte-identical reruns)\n"
        "  --quiet                       no summary on stdout\n"
        "  --summary-csv                 print a CSV header and one row instead of the summary\n"
        "  --cfg=KEY:VALUE, --log=...    passed to SimGrid\n"
        "  -h, --help                    this text\n"
        "\n"
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

static const cli_cmd *find_cmd(const cli_cmd *cmds, int ncmds, const char *name)
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
        const cli_cmd *c = argc == 3 ? find_cmd(cmds, ncmds, argv[2]) : NULL;
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
    const cli_cmd *c = find_cmd(cmds, ncmds, name);
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

/* Takes an option's value: inline ("--x=v") or the next argument. */
static int need_value(int argc, char **argv, int *i, const char *name, const char *inl, const char **out,
                      char *err, size_t errlen)
{
    if (inl) {
        *out = inl;
        return 0;
    }
    if (*i + 1 >= argc) {
        snprintf(err, errlen, "%s: missing value", name);
        return -1;
    }
    *out = argv[++*i];
    return 0;
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
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        if (cli_is_help(a)) {
            cli_run_usage();
            return 1;
        }
        if (strncmp(a, "--cfg=", 6) == 0 || strncmp(a, "--log=", 6) == 0) {
            if (o->nsg == CLI_MAX_SG) {
                snprintf(err, errlen, "too many --cfg/--log arguments (at most %d)", CLI_MAX_SG);
                return -1;
            }
            o->sg_args[o->nsg++] = a;
            continue;
        }
        if (cli_short_is(a, "-o", &v) || cli_opt_is(a, "--work-dir", &v)) {
            if (need_value(argc, argv, &i, "--work-dir", v, &o->work_dir, err, errlen) != 0)
                return -1;
            continue;
        }
        if (cli_short_is(a, "-p", &v) || cli_opt_is(a, "--platform", &v)) {
            if (need_value(argc, argv, &i, "--platform", v, &o->platform, err, errlen) != 0)
                return -1;
            continue;
        }
        if (cli_opt_is(a, "--set", &v)) {
            const char *kv;
            if (need_value(argc, argv, &i, "--set", v, &kv, err, errlen) != 0)
                return -1;
            if (o->nsets == CLI_MAX_SETS) {
                snprintf(err, errlen, "too many --set arguments (at most %d)", CLI_MAX_SETS);
                return -1;
            }
            o->sets[o->nsets++] = kv;
            continue;
        }
        if (cli_opt_is(a, "--kernel-set", &v)) {
            const char *kv;
            char name[128];
            cli_kfield field;
            bool value;
            if (need_value(argc, argv, &i, "--kernel-set", v, &kv, err, errlen) != 0 ||
                cli_kernel_set(kv, name, sizeof(name), &field, &value, err, errlen) != 0)
                return -1;
            if (o->nkernel_sets == CLI_MAX_SETS) {
                snprintf(err, errlen, "too many --kernel-set arguments (at most %d)", CLI_MAX_SETS);
                return -1;
            }
            o->kernel_sets[o->nkernel_sets++] = kv;
            continue;
        }
        int knob = cli_opt_is(a, "--ring-task-window", &v) ? KNOB_TASK_WINDOW
                   : cli_opt_is(a, "--ring-heap", &v)      ? KNOB_HEAP
                   : cli_opt_is(a, "--ring-dep-pool", &v)  ? KNOB_DEP_POOL
                                                           : -1;
        if (knob >= 0) {
            const char *text;
            if (need_value(argc, argv, &i, runcfg_knob_flag((runcfg_knob)knob), v, &text, err, errlen) != 0 ||
                runcfg_parse_ring((runcfg_knob)knob, text, o->rings[knob], err, errlen) != 0)
                return -1;
            continue;
        }
        if (cli_opt_is(a, "--seed", &v) || cli_opt_is(a, "--repeat", &v)) {
            bool seed = cli_opt_is(a, "--seed", &v);
            const char *name = seed ? "--seed" : "--repeat", *text;
            char *end;
            if (need_value(argc, argv, &i, name, v, &text, err, errlen) != 0)
                return -1;
            errno = 0;
            unsigned long long x = strtoull(text, &end, 10);
            if (end == text || *end || text[0] == '-' || errno || (!seed && (x < 1 || x > CLI_MAX_REPEAT))) {
                if (seed)
                    snprintf(err, errlen, "--seed: '%s' is not an integer in [0, 2^64-1]", text);
                else
                    snprintf(err, errlen, "--repeat: '%s' is not an integer in [1, %d]", text,
                             CLI_MAX_REPEAT);
                return -1;
            }
            if (seed) {
                o->seeded = true;
                o->seed = (uint64_t)x;
            } else {
                o->repeat = (long)x;
            }
            continue;
        }
        if (cli_opt_is(a, "--aicpu-thread-num", &v)) {
            const char *text;
            if (need_value(argc, argv, &i, "--aicpu-thread-num", v, &text, err, errlen) != 0 ||
                runcfg_parse_threads(text, &o->aicpu_thread_num, err, errlen) != 0)
                return -1;
            continue;
        }
        if (cli_opt_is(a, "--enable-chip-swimlane", &v)) {
            int lvl = 4; /* bare flag = 4 (docs/reference/commands.md §"Run options") */
            /* the runtime's CLI also takes the level as the next word */
            if (!v && i + 1 < argc && argv[i + 1][0] >= '0' && argv[i + 1][0] <= '9' && !argv[i + 1][1])
                v = argv[++i];
            int bad = v ? parse_level(v, 4, &lvl) : 0;
            if (bad == 1) {
                snprintf(err, errlen,
                         "--enable-chip-swimlane: enable_chip_swimlane must be an int "
                         "collection level (0-4), got '%s'",
                         v);
                return -1;
            }
            if (bad == 2) { /* 4294967300 is not level 4 */
                snprintf(err, errlen,
                         "--enable-chip-swimlane: enable_chip_swimlane must be a collection level in "
                         "[0, 4] (0=off, 1=AICore timing, 2=+dispatch/finish, 3=+sched phases, "
                         "4=+orch phases), got %s",
                         v);
                return -1;
            }
            o->swimlane_level = lvl;
            continue;
        }
        if (cli_opt_is(a, "--enable-pmu", &v)) {
            /* like the runtime's CLI, the type may also be the next word */
            if (!v && i + 1 < argc && argv[i + 1][0] >= '0' && argv[i + 1][0] <= '9' && !argv[i + 1][1])
                v = argv[++i];
            o->pmu_given = true;
            o->pmu_value = v;
            continue;
        }
        if (cli_opt_is(a, "--dump-args", &v)) {
            int lvl = 1; /* bare flag = 1, partial (docs/reference/commands.md §"Run options") */
            if (!v && i + 1 < argc && argv[i + 1][0] >= '0' && argv[i + 1][0] <= '9' && !argv[i + 1][1])
                v = argv[++i];
            int bad = v ? parse_level(v, 3, &lvl) : 0;
            if (bad == 1) {
                snprintf(err, errlen, "--dump-args: enable_dump_args must be an int level (0-3), got '%s'",
                         v);
                return -1;
            }
            if (bad == 2) { /* 4294967297 is not level 1 */
                snprintf(err, errlen,
                         "--dump-args: enable_dump_args must be a level in [0, 3] (0=off, 1=tagged args, "
                         "2=every arg, 3=every arg's metadata with tagged payload), got %s",
                         v);
                return -1;
            }
            o->dump_level = lvl;
            continue;
        }
        if (cli_opt_is(a, "--op-execute-timeout-us", &v)) {
            if (need_value(argc, argv, &i, "--op-execute-timeout-us", v, &o->op_timeout, err, errlen) != 0)
                return -1;
            continue;
        }
        if (cli_opt_is(a, "--stream-sync-timeout-ms", &v)) {
            if (need_value(argc, argv, &i, "--stream-sync-timeout-ms", v, &o->stream_timeout, err, errlen) !=
                0)
                return -1;
            continue;
        }
        if (cli_opt_is(a, "--scheduler-timeout-ms", &v)) {
            if (need_value(argc, argv, &i, "--scheduler-timeout-ms", v, &o->sched_timeout, err, errlen) != 0)
                return -1;
            continue;
        }
        if (strcmp(a, "--enable-dep-gen") == 0) {
            o->dep_gen = true;
            continue;
        }
        if (strcmp(a, "--enable-scope-stats") == 0) {
            o->scope_stats = true;
            continue;
        }
        if (cli_opt_is(a, "--perfetto", &v)) {
            if (need_value(argc, argv, &i, "--perfetto", v, &o->perfetto, err, errlen) != 0)
                return -1;
            if (!o->perfetto[0]) {
                snprintf(err, errlen, "--perfetto: empty FILE name");
                return -1;
            }
            continue;
        }
        if (strcmp(a, "--enable-perfetto") == 0) {
            o->enable_perfetto = true;
            continue;
        }
        if (strcmp(a, "--no-host-timing") == 0) {
            o->no_host_timing = true;
            continue;
        }
        if (strcmp(a, "--summary-csv") == 0) {
            o->summary_csv = true;
            continue;
        }
        if (strcmp(a, "--quiet") == 0) {
            o->quiet = true;
            continue;
        }
        if (a[0] == '-' && a[1] != '\0') {
            snprintf(err, errlen, "unknown option '%s' (ptosim run --help lists the options)", a);
            return -1;
        }
        if (o->ngraphs == CLI_MAX_GRAPHS) {
            snprintf(err, errlen, "at most %d GRAPH files (programs on one worker), got more",
                     CLI_MAX_GRAPHS);
            return -1;
        }
        o->graphs[o->ngraphs++] = a;
        o->graph = o->graphs[0];
    }
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
