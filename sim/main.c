/* main.c - ptosim's entry point: subcommand dispatch. */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "../model/base/msg_text.h"
#include "../model/graph/graph_reader.h"
#include "../model/graph/graph_source.h"
#include "../model/chip/platform.h"
#include "cli/cli.h"
#include "conform/conform.h"
#include "gen/gen.h"
#include "report/report_html.h"
#include "import/import.h"
#include "report/overhead.h"
#include "run/run.h"
#include "sweep/sweep.h"
#include "tune/tune.h"

static void usage(FILE *out)
{
    fputs(
        "usage: ptosim COMMAND [ARGS]\n"
        "\n"
        "ptosim simulates an Ascend a2a3 chip running the PTO2 task-graph runtime.\n"
        "\n"
        "commands:\n"
        "  run GRAPH [GRAPH...] [opts]  simulate a graph file; several = programs on one worker (ptosim run "
        "--help)\n"
        "  tune GRAPH [options]         walk the tuning loop and recommend ring settings (ptosim tune "
        "--help)\n"
        "  sweep GRAPH [lists] -o DIR   one run per point of knob lists, merged into DIR/sweep.csv "
        "(ptosim sweep --help)\n"
        "  validate GRAPH               check a graph file without simulating it (ptosim validate --help)\n"
        "  import [--costs C] DFX_DIR   rebuild a graph file from a capture; kernel costs from the model, a "
        "table or the swimlane (ptosim import --help)\n"
        "  conform DFX_DIR [-o DIR]     simulate a runtime capture and compare the outputs (ptosim conform "
        "--help)\n"
        "  gen KIND [--PARAM VALUE ...] write a synthetic graph to stdout (ptosim gen --help)\n"
        "  params [-p NAME|FILE]        list the platform parameters with their sources (ptosim params "
        "--help)\n"
        "  report DIR                   write DIR/report.html: a page of a run or sweep (ptosim report "
        "--help)\n"
        "  overhead DIR                 the scheduler-overhead model of a swimlane + deps.json (ptosim "
        "overhead --help)\n"
        "  help [COMMAND]               this text, or COMMAND's (the same as ptosim COMMAND --help)\n"
        "  --help, --version\n"
        "\n"
        "A GRAPH may be - (standard input), a pipe or gzip-compressed. Every command takes -h/--help\n"
        "and lists its exit statuses there; a usage error exits 2 with the command's usage line.\n"
        "exit status: 0 ok; 1 the simulator failed (I/O, memory); 2 usage; 3 malformed graph; 4 runtime\n"
        "error; 5 device error; 6 stalled (each command's --help says which apply)\n",
        out);
}

static void validate_usage(void)
{
    puts("usage: ptosim validate GRAPH\n"
         "\n"
         "Checks every line of a graph file without simulating it. GRAPH may be - (standard input), a\n"
         "pipe or gzip-compressed.\n"
         "\n"
         "exit status: 0 well-formed; 2 bad command line; 3 a malformed graph (FILE:LINE: field: what)");
}

static int cmd_validate(int argc, char **argv)
{
    for (int i = 0; i < argc; i++)
        if (cli_is_help(argv[i])) {
            validate_usage();
            return EXIT_OK;
        }
    if (argc != 1 || (argv[0][0] == '-' && argv[0][1])) {
        msgtext_print(stderr, "ptosim validate: %s",
                !argc ? "missing GRAPH" : argc > 1 ? "one GRAPH at a time" : "unknown option");
        return EXIT_USAGE;
    }
    char err[GRAPH_ERR_MAX];
    if (graph_validate(argv[0], err, sizeof(err)) != 0) {
        msgtext_print(stderr, "ptosim: %s", err);
        return EXIT_GRAPH;
    }
    printf("%s: ok\n", gsrc_name(argv[0]));
    return EXIT_OK;
}

static void params_usage(void)
{
    puts("usage: ptosim params [-p NAME|FILE]\n"
         "\n"
         "Lists the platform's parameters with their values and where each comes from (the platform\n"
         "file, its base, a default); --set KEY=VALUE on run, tune and sweep overrides them.\n"
         "\n"
         "  -p, --platform NAME|FILE  platform (default a2a3)\n"
         "  -h, --help                this text\n"
         "\n"
         "exit status: 0 listed; 2 bad command line or platform");
}

static int cmd_params(int argc, char **argv)
{
    const char *name = "a2a3";
    for (int i = 0; i < argc; i++) {
        const char *v = NULL;
        if (cli_is_help(argv[i])) {
            params_usage();
            return EXIT_OK;
        }
        if (cli_short_is(argv[i], "-p", &v) || cli_opt_is(argv[i], "--platform", &v)) {
            if (!v && i + 1 >= argc) {
                fputs("ptosim params: --platform: missing value\n", stderr);
                return EXIT_USAGE;
            }
            name = v ? v : argv[++i];
        } else {
            msgtext_print(stderr, "ptosim params: %s: %s", argv[i],
                    argv[i][0] == '-' ? "unknown option" : "takes no argument (-p NAME|FILE names the platform)");
            return EXIT_USAGE;
        }
    }
    char dir[PATH_MAX], err[4096];
    run_platform_dir(dir, sizeof(dir));
    platform p;
    int prc = platform_load(&p, name, dir, err, sizeof(err));
    if (prc != 0) {
        msgtext_print(stderr, "ptosim: %s", err);
        return prc == PLATFORM_OOM ? EXIT_INTERNAL : EXIT_USAGE;
    }
    platform_print_table(&p, stdout);
    return EXIT_OK;
}

/* Flushes and closes stdout: a summary, a CSV row or a graph that did not
 * reach its file (a full disk, /dev/full, a closed pipe) fails the command
 * with status 1 and a message, instead of ending 0 with the output cut. */
static int finish_stdout(int code)
{
    bool failed = ferror(stdout) != 0; /* an earlier write failed: its errno is gone */
    int e = 0;
    if (fflush(stdout) != 0) {
        failed = true;
        e = errno;
    }
    if (fclose(stdout) != 0 && !failed) {
        failed = true;
        e = errno;
    }
    if (!failed || code == EXIT_INTERNAL) /* status 1: the command has said what failed */
        return failed ? EXIT_INTERNAL : code;
    if (e)
        msgtext_print(stderr, "ptosim: cannot write standard output: %s", strerror(e));
    else
        fputs("ptosim: cannot write standard output: a write failed\n", stderr);
    return code == EXIT_OK ? EXIT_INTERNAL : code;
}

static int dispatch(int argc, char **argv);

int main(int argc, char **argv)
{
    return finish_stdout(dispatch(argc, argv));
}

static int version_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    printf("ptosim %s\n", PTOSIM_VERSION);
    return EXIT_OK;
}

/* Every command with its usage line: what `ptosim help CMD` and a usage error show. */
static const cli_cmd COMMANDS[] = {
    {"run", "ptosim run GRAPH [GRAPH...] [options]", run_main},
    {"tune", "ptosim tune GRAPH [--max-trials N] [run options]", tune_main},
    {"sweep", "ptosim sweep GRAPH [KNOB LIST ...] [run options] -o DIR | --resume DIR | --collect DIR | --best DIR",
     sweep_main},
    {"validate", "ptosim validate GRAPH", cmd_validate},
    {"import", "ptosim import [--costs swimlane|model|perf-sim|FILE] DFX_DIR > graph.jsonl", import_main},
    {"conform", "ptosim conform CAPTURE_DIR [-o WORKDIR] [-p PLATFORM]", conform_main},
    {"gen", "ptosim gen KIND [--PARAM VALUE ...] > GRAPH.jsonl", gen_main},
    {"params", "ptosim params [-p NAME|FILE]", cmd_params},
    {"report", "ptosim report DIR", htmlrep_main},
    {"overhead", "ptosim overhead DIR|SWIMLANE.json [--deps-json DEPS.json]", overhead_main},
    {"--version", "ptosim --version", version_main},
};

static int dispatch(int argc, char **argv)
{
    return cli_dispatch(COMMANDS, (int)(sizeof(COMMANDS) / sizeof(COMMANDS[0])), argc, argv, usage);
}
