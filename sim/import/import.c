/* import.c - import_: `ptosim import`, the command and its options, and the steps rebuilding a graph. */
/* import_capture runs the steps in order on one importer (import_state.h): the capture's files read
 * (import_read.c), the op order and scopes (import_graph.c), created buffers from heap offsets
 * (import_heap.c), kernel costs (import_cost.c), the graph file written (import_graph.c). */
#include "../../model/base/msg_text.h"
#include "../../model/base/outfile.h"
#include "import.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <unistd.h>

#include "../../model/graph/graph_reader.h"
#include "../../model/base/userdir.h"
#include "../cli/cli.h"
#include "../cli/opt_table.h"
#include "../cli/progress.h"
#include "import_cost.h"
#include "import_graph.h"
#include "import_heap.h"
#include "import_perfsim.h"
#include "import_read.h"
#include "import_state.h"
#include "../cli/stop_signal.h"

static void free_importer(importer *im)
{
    for (size_t i = 0; i < im->ntasks; i++) {
        if (!im->arg_pool)
            free(im->tasks[i].args);
        if (!im->edge_pool)
            free(im->tasks[i].edges);
    }
    imp_free_blocks(im); /* outputs, anchors, creators, readers, creations */
    free(im->tid_hash);
    free(im->arg_pool);
    free(im->edge_pool);
    pipe_set_free(&im->models);
    if (im->kernels)
        for (int f = 0; f < GRAPH_MAX_FUNC_ID; f++)
            free(im->kernels[f].table);
    free(im->kernels);
    for (int r = 0; r < RINGS; r++)
        free(im->by_local[r]);
    free(im->tasks);
    free(im->tensors);
    free(im->bufs);
    free(im->scopes);
    free(im->ops);
    free(im);
}

static size_t last_peak_window; /* import_peak_window */

size_t import_peak_window(void)
{
    return last_peak_window;
}

/* Is name (an entry of a capture folder) one import reads: deps.json, the swimlane, a name map, or a
 * folder of the runtime's (scope_stats/, args_dump/), whose every entry it may read? */
static bool capture_entry(const char *name)
{
    return strcmp(name, "deps.json") == 0 || strcmp(name, "chip_swimlane_records.json") == 0 ||
           strncmp(name, "name_map", 8) == 0 || strcmp(name, "scope_stats") == 0 ||
           strcmp(name, "args_dump") == 0;
}

int import_check_links(const char *dir, char *err, size_t errlen)
{
    int top = userdir_open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
    DIR *d = top >= 0 ? fdopendir(top) : NULL;
    if (!d) {
        if (top >= 0)
            close(top);
        return 0; /* the reading says why */
    }
    int rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(d)) != NULL) {
        struct stat st;
        if (!capture_entry(e->d_name) || fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        if (S_ISLNK(st.st_mode)) {
            snprintf(err, errlen, "%s/%s: " USERDIR_LINK_WHY, dir, e->d_name);
            rc = -1;
            break;
        }
        int sub = S_ISDIR(st.st_mode)
                      ? openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                      : -1;
        DIR *sd = sub >= 0 ? fdopendir(sub) : NULL;
        if (!sd && sub >= 0)
            close(sub);
        struct dirent *f;
        while (sd && rc == 0 && (f = readdir(sd)) != NULL)
            if (fstatat(dirfd(sd), f->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode)) {
                snprintf(err, errlen, "%s/%s/%s: " USERDIR_LINK_WHY, dir, e->d_name, f->d_name);
                rc = -1;
            }
        if (sd)
            closedir(sd);
    }
    closedir(d);
    return rc;
}

int import_capture(const char *dfx_dir, const import_opts *opt, FILE *out, char *err, size_t errlen)
{
    static const import_opts defaults = {.costs = IMPORT_COSTS_AUTO};
    if (!opt)
        opt = &defaults;
    importer *im = calloc(1, sizeof(*im));
    if (!im || pipe_set_init(&im->models) != 0) {
        free(im);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    im->dir = dfx_dir;
    im->checked = opt->checked;
    im->err = err;
    im->errlen = errlen;
    im->warn = opt->warn ? opt->warn : stderr;
    for (int i = 0; i < GRAPH_MAX_FUNC_ID; i++)
        im->func_ns[i] = -1;
    /* scope stats first: their heads count the allocs no edge names */
    int rc = import_check_links(dfx_dir, err, errlen);
    if (rc == 0)
        rc = import_read_scope_stats(im);
    if (rc == 0)
        rc = import_read_deps(im);
    if (rc == 0 && im->have_stats) {
        rc = import_graph_order_with_stats(im);
        if (rc != 0 && im->stats_suspect) {
            imp_note(im, "%s (the run was fatal or dropped samples): scopes are guessed from the rings", err);
            im->nops = 0;
            im->have_stats = false;
            rc = 0;
        }
    }
    if (rc == 0 && !im->have_stats)
        rc = import_graph_order_guessed(im);
    if (rc == 0)
        rc = import_graph_assign_modes(im);
    if (rc == 0)
        rc = import_heap_buffers(im);
    if (rc == 0)
        rc = import_read_swimlane(im);
    if (rc == 0) {
        import_read_name_map(im);
        rc = import_cost_resolve(im, opt);
    }
    if (rc == 0 && opt->hint && opt->costs != IMPORT_COSTS_PERFSIM)
        import_perfsim_hint(im, opt);
    if (rc == 0) {
        import_graph_put_header(im, out);
        import_graph_put_ops(im, out);
    }
    last_peak_window = im->peak_window;
    if (im->notes > IMPORT_MAX_NOTES && im->warn)
        outfile_printf(im->warn, "ptosim: note: %zu more notes like these\n", im->notes - IMPORT_MAX_NOTES);
    free_importer(im);
    return rc;
}

/* What the command line gives: the import's options, its capture folder, and the last --costs perf-sim
 * option given (its row, and whether by its letter: "-j" or "--jobs"), for the message when --costs is
 * not perf-sim. */
typedef struct import_cli {
    import_opts opt;
    const char **kernel_args; /* --kernel's values: room for one per word */
    const char *dir;
    const opt_def *perf_row;
    bool perf_short;
    bool quiet;
} import_cli;

/* What a --costs perf-sim option is (its row's id). */
enum { PERF_KERNEL, PERF_TEXT, PERF_SHARED, PERF_TIME, PERF_JOBS, PERF_FALLBACK };

static int store_costs(const opt_def *d, const char *word, const char *value, void *dest, char *err,
                       size_t errlen)
{
    (void)word;
    import_opts *o = &((import_cli *)dest)->opt;
    if (!*value) {
        snprintf(err, errlen, "%s", d->missing);
        return -1;
    }
    bool swimlane = strcmp(value, "swimlane") == 0, perfsim = strcmp(value, "perf-sim") == 0;
    char near[16];
    if (!swimlane && !perfsim && strcmp(value, "model") != 0 && access(value, F_OK) != 0 &&
        opt_near(d->choices, value, near, sizeof(near))) { /* a source's near miss, and no such file */
        snprintf(err, errlen, "--costs: '%s' is no source (swimlane, model, perf-sim) and no file; did you mean "
                              "%s?", value, near);
        return -1;
    }
    o->costs = swimlane ? IMPORT_COSTS_SWIMLANE : perfsim ? IMPORT_COSTS_PERFSIM : IMPORT_COSTS_MODEL;
    o->costs_file = swimlane || perfsim || strcmp(value, "model") == 0 ? NULL : value;
    return 0;
}

/* A --costs perf-sim option (d->id says which), its value checked; messages name it as it was given */
static int store_perf(const opt_def *d, const char *word, const char *value, void *dest, char *err,
                      size_t errlen)
{
    import_cli *c = dest;
    bool letter = word[1] != '-';
    char name[64];
    if (letter)
        snprintf(name, sizeof(name), "-%c", d->letter);
    else
        snprintf(name, sizeof(name), "--%s", d->name);
    if (d->arg == OPT_VALUE && !*value) {
        snprintf(err, errlen, d->missing, name);
        return -1;
    }
    char *end;
    switch (d->id) {
    case PERF_KERNEL:
        c->kernel_args[c->opt.nkernel_args++] = value;
        break;
    case PERF_TEXT:
        opt_store_text(d, word, value, dest, err, errlen);
        break;
    case PERF_SHARED:
        c->opt.shared_cache = true;
        break;
    case PERF_TIME: {
        errno = 0;
        double t = strtod(value, &end);
        if (*end || errno || !(t > 0) || t > 86400) {
            snprintf(err, errlen, "--time-limit %s: give seconds, a number in (0, 86400]", value);
            return -1;
        }
        c->opt.time_limit = t;
        break;
    }
    case PERF_JOBS: {
        errno = 0;
        long n = strtol(value, &end, 10);
        if (*end || errno || n < 1 || n > 256) {
            snprintf(err, errlen, "%s %s: give a whole number in [1, 256]", name, value);
            return -1;
        }
        c->opt.jobs = (int)n;
        break;
    }
    default: /* PERF_FALLBACK */
        if (strcmp(value, "model") != 0) {
            snprintf(err, errlen, "--fallback %s: the only fallback is model", value);
            return -1;
        }
        c->opt.fallback_model = true;
    }
    c->perf_row = d;
    c->perf_short = letter;
    return 0;
}

/* DFX_DIR, one; a word beginning with '-' that is no option ("-" too) is an unknown option */
static int store_dir(const char *word, void *dest, char *err, size_t errlen)
{
    import_cli *c = dest;
    if (word[0] == '-' || c->dir) {
        snprintf(err, errlen, "%s: %s", word,
                 word[0] == '-' ? "unknown option" : "one capture folder at a time");
        return -1;
    }
    c->dir = word;
    return 0;
}

#define PERF_MISSING "%s needs a value"
#define PERF_TEXT_AT(field)                                                                                  \
    .store = store_perf, .id = PERF_TEXT, .off = offsetof(import_cli, opt.field), .missing = PERF_MISSING

/* --costs, then the options of --costs perf-sim */
static const opt_def IMPORT_OPTS[] = {
    {.name = "costs",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_FILE,
     .choices = "swimlane model perf-sim",
     .meta = "SOURCE",
     .help = "where kernel costs come from: swimlane, model, perf-sim or a FILE (above)",
     .store = store_costs,
     .missing = "--costs needs swimlane, model, perf-sim or a file"},
    {.name = "kernel",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_TEXT,
     .meta = "NAME=FILE",
     .help = "a kernel's source (kernel_entry); repeatable",
     .store = store_perf,
     .id = PERF_KERNEL,
     .missing = PERF_MISSING},
    {.name = "kernels",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_FILE,
     .meta = "TABLE",
     .help = "JSON {\"NAME\": \"file.cpp\"} or the runtime's test .py (CALLABLE incores)",
     PERF_TEXT_AT(kernels_file)},
    {.name = "values",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_FILE,
     .meta = "FILE",
     .help = "what the capture lacks: {\"NAME\": {\"scalars\": [..], \"inputs\": {\"3\": [..]}}}",
     PERF_TEXT_AT(values_file)},
    {.name = "pto-isa",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_DIR,
     .meta = "DIR",
     .help = "pto-isa tree (default $PTO_ISA_ROOT, else ./pto-isa; 995589ab is known to work)",
     PERF_TEXT_AT(pto_isa)},
    {.name = "runtime-include",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_DIR,
     .meta = "DIR",
     .help = "the runtime's tree for its incore headers (default $SIMPLER_ROOT, else ./simpler)",
     PERF_TEXT_AT(runtime_root)},
    {.name = "cache",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_DIR,
     .meta = "DIR",
     .help = "compiled kernels and results (default ~/.cache/ptosim/perf-sim): yours\nalone, or refused",
     PERF_TEXT_AT(cache_dir)},
    {.name = "shared-cache",
     .arg = OPT_FLAG,
     .help = "use a cache other users can write, each entry checked by its digest",
     .store = store_perf,
     .id = PERF_SHARED},
    {.name = "time-limit",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_NUMBER,
     .meta = "SECONDS",
     .help = "each compile and each batch of Perf-Sim runs (default 300)",
     .store = store_perf,
     .id = PERF_TIME,
     .missing = PERF_MISSING},
    {.name = "jobs",
     .letter = 'j',
     .arg = OPT_VALUE,
     .kind = OPT_KIND_NUMBER,
     .meta = "N",
     .help = "compiles and runs at once (default: the cores online)",
     .store = store_perf,
     .id = PERF_JOBS,
     .missing = PERF_MISSING},
    {.name = "fallback",
     .arg = OPT_VALUE,
     .kind = OPT_KIND_CHOICE,
     .choices = "model",
     .meta = "model",
     .help = "a kernel Perf-Sim cannot price keeps the model's cost (listed on stderr)",
     .store = store_perf,
     .id = PERF_FALLBACK,
     .missing = PERF_MISSING},
    {.name = "quiet",
     .arg = OPT_FLAG,
     .help = "nothing on stderr of Perf-Sim's progress, nor that --costs perf-sim could\nprice this capture",
     .store = opt_store_true,
     .off = offsetof(import_cli, quiet)},
};

const opt_table import_options = {
    .cmd = "import",
    .opts = IMPORT_OPTS,
    .nopts = OPT_COUNT(IMPORT_OPTS),
    .operand_kind = OPT_KIND_DIR,
    .operand = store_dir,
    .unknown = "%s: unknown option",
};

static void import_usage(FILE *f)
{
    fputs("usage: ptosim import [--costs swimlane|model|perf-sim|FILE] DFX_DIR > graph.jsonl\n"
          "\n"
          "DFX_DIR: a run's dfx_outputs/ with deps.json (--enable-dep-gen); scope_stats/scope_stats.jsonl\n"
          "gives the scopes and ring sizes, chip_swimlane_records.json the kernel times, when present.\n"
          "\n"
          "Kernel costs (--costs):\n"
          "  swimlane  each kernel's median time in the swimlane (the default for a capture on a2a3\n"
          "            silicon, 72 cores)\n"
          "  model     a pipe profile derived from each kernel's args (the default for a capture of a\n"
          "            simulator platform, 24 cores, or without a swimlane)\n"
          "  FILE      the model, overridden by a table of kernel name or func id -> cost: JSON\n"
          "            {\"GEMM\": {\"ns\": 5000}, \"1\": {\"cycles\": 9000}, ...} (a cost may be the pipe\n"
          "            form) or CSV \"kernel,ns\" / \"kernel,cycles\" (a file named model or swimlane:\n"
          "            write ./model)\n"
          "  perf-sim  each distinct task signature run through its kernel's own code under pto-isa's\n"
          "            Perf-Sim (scalars and integer inputs from the capture's args_dump/ when present);\n"
          "            the options below from --kernel to --fallback are its own\n"
          "\n"
          "options:\n",
          f);
    opt_help(&import_options, f);
    fputs("\n"
          "The compiler is $CXX, else clang++-19 or clang++.\n"
          "\n"
          "exit status: 0 written; 2 usage; 3 the capture, a table or a kernel cannot be used; 130/143\n"
          "SIGINT/SIGTERM during Perf-Sim's compiles and runs\n",
          f);
}

/* Copies the graph written aside (g) to stdout. The kernel copies it by sendfile(2), file pages straight to a
 * file or a pipe (no 33 MB through this process in 64 KiB reads and writes); where it cannot, or stops, the
 * read and write loop goes on from there, and says what failed. EXIT_OK, or EXIT_INTERNAL when said. */
static int copy_out(FILE *g, const char *tmp)
{
    off_t off = 0;
    if (fflush(stdout) == 0)
        for (;;) {
            ssize_t n = sendfile(STDOUT_FILENO, fileno(g), &off, (size_t)1 << 30);
            if (n > 0 || (n < 0 && errno == EINTR))
                continue;
            if (n == 0)
                return EXIT_OK; /* all of it */
            break;
        }
    if (fseeko(g, off, SEEK_SET) != 0) {
        msgtext_print(stderr, "ptosim import: cannot read back the graph written aside (%s)", tmp);
        return EXIT_INTERNAL;
    }
    char buf[1 << 16];
    size_t n;
    while ((n = fread(buf, 1, sizeof(buf), g)) > 0)
        if (fwrite(buf, 1, n, stdout) != n) {
            msgtext_print(stderr, "ptosim: cannot write standard output: %s", strerror(errno));
            return EXIT_INTERNAL; /* said here, while errno says why */
        }
    if (ferror(g)) {
        msgtext_print(stderr, "ptosim import: cannot read back the graph written aside (%s)", tmp);
        return EXIT_INTERNAL;
    }
    return EXIT_OK;
}

int import_main(int argc, char **argv)
{
    import_cli c = {.opt = {.costs = IMPORT_COSTS_AUTO}};
    char err[4096];
    /* every --kernel's value is a word of argv: room for all of them, so parsing allocates nothing */
    c.kernel_args = malloc(((size_t)argc + 1) * sizeof(*c.kernel_args));
    if (!c.kernel_args) {
        fputs("ptosim import: out of memory\n", stderr);
        return EXIT_INTERNAL;
    }
    const char **kernel_args = c.kernel_args;
    int prc = opt_parse(&import_options, argc, argv, &c, NULL, NULL, err, sizeof(err));
    if (prc == 1) {
        free(kernel_args);
        import_usage(stdout);
        return EXIT_OK;
    }
    if (prc != 0) {
        msgtext_print(stderr, "ptosim import: %s", err);
        goto usage_fail;
    }
    if (!c.dir) {
        fputs("ptosim import: missing DFX_DIR\n", stderr);
        goto usage_fail;
    }
    if (c.perf_row && c.opt.costs != IMPORT_COSTS_PERFSIM) {
        if (c.perf_short)
            msgtext_print(stderr, "ptosim import: -%c is for --costs perf-sim", c.perf_row->letter);
        else
            msgtext_print(stderr, "ptosim import: --%s is for --costs perf-sim", c.perf_row->name);
        goto usage_fail;
    }
    import_opts opt = c.opt;
    const char *dir = c.dir;
    opt.kernel_args = kernel_args;
    opt.progress = progress_mode_of(c.quiet);
    opt.hint = !c.quiet;
    int rc = EXIT_OK;
    userdir_add(dir); /* named: nothing below it is read through a link */
    /* the graph is written aside and checked as ptosim run would read it before any byte reaches stdout: an
     * import that exits 0 has written a graph ptosim accepts */
    char tmp[PATH_MAX];
    const char *td = getenv("TMPDIR");
    snprintf(tmp, sizeof(tmp), "%s/ptosim-import.XXXXXX", td && td[0] ? td : "/tmp");
    int fd = mkstemp(tmp);
    FILE *g = fd >= 0 ? fdopen(fd, "w+") : NULL;
    if (!g) {
        msgtext_print(stderr, "ptosim import: cannot write the graph aside in %s: %s", td && td[0] ? td : "/tmp",
                strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(tmp);
        }
        free(kernel_args);
        return EXIT_INTERNAL;
    }
    int got = import_capture(dir, &opt, g, err, sizeof(err));
    if (intr_signal()) { /* Perf-Sim's compiles and runs were stopped: nothing is written */
        msgtext_print(stderr, "ptosim import: interrupted by %s", intr_name(intr_signal()));
        rc = intr_status(intr_signal());
    } else if (got != 0) {
        msgtext_print(stderr, "ptosim import: %s", err);
        rc = EXIT_GRAPH;
    } else if (fflush(g) != 0 || ferror(g)) {
        msgtext_print(stderr, "ptosim import: cannot write the graph aside (%s): %s", tmp, strerror(errno));
        rc = EXIT_INTERNAL;
    } else if (graph_validate(tmp, err, sizeof(err)) != 0) {
        size_t tl = strlen(tmp); /* "TMP:3: field: ..." names the file written aside: say "line 3" */
        const char *why = strncmp(err, tmp, tl) == 0 && err[tl] == ':' ? err + tl + 1 : err;
        msgtext_print(stderr, "ptosim import: %s: the graph made from this capture does not validate, so none is written: "
                "%s%s",
                dir, why != err ? "line " : "", why);
        rc = EXIT_GRAPH;
    } else {
        rc = copy_out(g, tmp);
    }
    fclose(g);
    unlink(tmp);
    free(kernel_args);
    return rc;
usage_fail:
    free(kernel_args);
    return EXIT_USAGE;
}
