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
#include "diff/diff.h"
#include "gen/gen.h"
#include "report/report_html.h"
#include "import/import.h"
#include "report/overhead.h"
#include "run/run.h"
#include "sweep/sweep.h"
#include "tune/tune.h"
#include "whatif/whatif.h"

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
        "  whatif GRAPH [run options]   which change would pay: faster kernels, bigger rings, ... ranked by "
        "makespan (ptosim whatif --help)\n"
        "  validate GRAPH               check a graph file without simulating it (ptosim validate --help)\n"
        "  import [--costs C] DFX_DIR   rebuild a graph file from a capture; kernel costs from the model, a "
        "table or the swimlane (ptosim import --help)\n"
        "  conform DFX_DIR [-o DIR]     simulate a runtime capture and compare the outputs (ptosim conform "
        "--help)\n"
        "  gen KIND [--PARAM VALUE ...] write a synthetic graph to stdout (ptosim gen --help)\n"
        "  params [-p NAME|FILE]        list the platform parameters with their sources (ptosim params "
        "--help)\n"
        "  report DIR [-o OUT]          a page of a run or sweep: DIR/report.html, or OUT/report.html "
        "(ptosim report --help)\n"
        "  overhead DIR                 the scheduler-overhead model of a swimlane + deps.json (ptosim "
        "overhead --help)\n"
        "  diff A B [--json] [-o DIR]   what differs between two run folders, the makespan change in parts "
        "(ptosim diff --help)\n"
        "  help [COMMAND]               this text, or COMMAND's (the same as ptosim COMMAND --help)\n"
        "  --help, --version\n"
        "\n"
        "A GRAPH may be - (standard input), a pipe or gzip-compressed. Every command takes -h/--help\n"
        "and lists its exit statuses there; a usage error exits 2 with the command's usage line.\n"
        "exit status: 0 ok; 1 the simulator failed (I/O, memory); 2 usage; 3 malformed graph; 4 runtime\n"
        "error; 5 device error; 6 stalled (each command's --help says which apply)\n",
        out);
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

/* Every command with its usage line (what `ptosim help CMD` and a usage error show) and its option table
 * (NULL: the command parses its argv itself, its --help lists the options). */
static const cli_cmd COMMANDS[] = {
    {"run", "ptosim run GRAPH [GRAPH...] [options]", run_main, &cli_run_options},
    {"tune", "ptosim tune GRAPH [--max-trials N] [run options]", tune_main, &tune_options},
    {"sweep",
     "ptosim sweep GRAPH [KNOB LIST ...] [run options] -o DIR | --resume DIR | --collect DIR | --best DIR",
     sweep_main, &sweep_options},
    {"validate", "ptosim validate GRAPH", run_validate_main, &run_validate_options},
    {"import", "ptosim import [--costs swimlane|model|perf-sim|FILE] DFX_DIR > graph.jsonl", import_main,
     &import_options},
    {"conform", "ptosim conform CAPTURE_DIR [-o WORKDIR] [-p PLATFORM]", conform_main, &conform_options},
    {"gen", "ptosim gen KIND [--PARAM VALUE ...] > GRAPH.jsonl", gen_main, &gen_options},
    {"params", "ptosim params [-p NAME|FILE]", run_params_main, &run_params_options},
    {"report", "ptosim report DIR [-o OUT]", htmlrep_main, &htmlrep_options},
    {"overhead", "ptosim overhead DIR|SWIMLANE.json [--deps-json DEPS.json]", overhead_main,
     &overhead_options},
    {"whatif", "ptosim whatif GRAPH [--top N] [--max-levers N] [-j N] [--json] [run options] [-o DIR]",
     whatif_main, &whatif_options},
    {"diff", "ptosim diff A B [--json] [-o DIR]", diff_main, &diff_options},
    {"--version", "ptosim --version", version_main, NULL},
};
#define NCOMMANDS (int)(sizeof(COMMANDS) / sizeof(COMMANDS[0]))

/* Two hidden commands answer from the option tables for the bash completion (sim/ptosim.bash) and
 * scripts/check_manpage.sh: `__complete CWORD WORDS...` and `__options [COMMAND]` (cli_complete,
 * cli_options). They are no user's: no help lists them and `ptosim help` does not know them. */
static int dispatch(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "__complete") == 0) {
        char dir[PATH_MAX];
        run_platform_dir(dir, sizeof(dir));
        return cli_complete(COMMANDS, NCOMMANDS, argc - 2, argv + 2, dir, stdout);
    }
    if (argc >= 2 && strcmp(argv[1], "__options") == 0)
        return cli_options(COMMANDS, NCOMMANDS, argc - 2, argv + 2, stdout);
    return cli_dispatch(COMMANDS, NCOMMANDS, argc, argv, usage);
}
