/* main.c - ptosim's entry point: subcommand dispatch. */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "../model/graph.h"
#include "../model/gsrc.h"
#include "../model/platform.h"
#include "cli.h"
#include "conform.h"
#include "gen.h"
#include "htmlrep.h"
#include "import.h"
#include "overhead.h"
#include "run.h"
#include "sweep.h"
#include "tune.h"

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
        "  validate GRAPH               check a graph file without simulating it\n"
        "  import [--costs C] DFX_DIR   rebuild a graph file from a capture; kernel costs from the model, a "
        "table or the swimlane (ptosim import --help)\n"
        "  conform DFX_DIR [-o DIR]     simulate a runtime capture and compare the outputs (ptosim conform "
        "--help)\n"
        "  gen KIND [--PARAM VALUE ...] write a synthetic graph to stdout (ptosim gen --help)\n"
        "  params [-p NAME|FILE]        list the platform parameters with their sources\n"
        "  report DIR                   write DIR/report.html: a page of a run or sweep (ptosim report "
        "--help)\n"
        "  overhead DIR                 the scheduler-overhead model of a swimlane + deps.json (ptosim "
        "overhead --help)\n"
        "  --help, --version\n",
        out);
}

static int cmd_validate(int argc, char **argv)
{
    if (argc != 1) {
        fputs("usage: ptosim validate GRAPH\n", stderr);
        return EXIT_USAGE;
    }
    char err[GRAPH_ERR_MAX];
    if (graph_validate(argv[0], err, sizeof(err)) != 0) {
        fprintf(stderr, "ptosim: %s\n", err);
        return EXIT_GRAPH;
    }
    printf("%s: ok\n", gsrc_name(argv[0]));
    return EXIT_OK;
}

static int cmd_params(int argc, char **argv)
{
    const char *name = "a2a3";
    for (int i = 0; i < argc; i++) {
        if ((strcmp(argv[i], "-p") == 0 || strcmp(argv[i], "--platform") == 0) && i + 1 < argc)
            name = argv[++i];
        else if (strncmp(argv[i], "--platform=", 11) == 0)
            name = argv[i] + 11;
        else {
            fputs("usage: ptosim params [-p NAME|FILE]\n", stderr);
            return EXIT_USAGE;
        }
    }
    char dir[PATH_MAX], err[4096];
    run_platform_dir(dir, sizeof(dir));
    platform p;
    if (platform_load(&p, name, dir, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptosim: %s\n", err);
        return EXIT_USAGE;
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
        fprintf(stderr, "ptosim: cannot write standard output: %s\n", strerror(e));
    else
        fputs("ptosim: cannot write standard output: a write failed\n", stderr);
    return code == EXIT_OK ? EXIT_INTERNAL : code;
}

static int dispatch(int argc, char **argv);

int main(int argc, char **argv)
{
    return finish_stdout(dispatch(argc, argv));
}

static int dispatch(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        usage(stdout);
        return EXIT_OK;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("ptosim %s\n", PTOSIM_VERSION);
        return EXIT_OK;
    }
    if (strcmp(cmd, "run") == 0)
        return run_main(argc - 2, argv + 2);
    if (strcmp(cmd, "sweep") == 0)
        return sweep_main(argc - 2, argv + 2);
    if (strcmp(cmd, "tune") == 0)
        return tune_main(argc - 2, argv + 2);
    if (strcmp(cmd, "import") == 0)
        return import_main(argc - 2, argv + 2);
    if (strcmp(cmd, "conform") == 0)
        return conform_main(argc - 2, argv + 2);
    if (strcmp(cmd, "validate") == 0)
        return cmd_validate(argc - 2, argv + 2);
    if (strcmp(cmd, "gen") == 0)
        return gen_main(argc - 2, argv + 2);
    if (strcmp(cmd, "report") == 0)
        return htmlrep_main(argc - 2, argv + 2);
    if (strcmp(cmd, "overhead") == 0)
        return overhead_main(argc - 2, argv + 2);
    if (strcmp(cmd, "params") == 0)
        return cmd_params(argc - 2, argv + 2);
    fprintf(stderr, "ptosim: unknown command '%s'\n", cmd);
    usage(stderr);
    return EXIT_USAGE;
}
