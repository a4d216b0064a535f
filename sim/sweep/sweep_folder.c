/* sweep_folder.c - sweep_: the points and the folder: points.csv, sweep.cmd, the rows merged, --best. */
/* A point's knobs, folder and run argv; --collect's merge, --resume's plan, an interrupted sweep's rows. */
#include "sweep_int.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "../../model/base/csv.h"
#include "../../model/graph/graph_compiled.h"
#include "../../model/base/outfile.h"
#include "../../model/base/userdir.h"
#include "../../model/output/run_report.h"
#include "../../model/base/msg_text.h"
#include "../../model/base/readall.h"
#include "../cli/cli.h"
#include "../cli/stop_signal.h"

#define SWEEP_STDERR_SHOWN 4000    /* bytes of a failed point's stderr echoed to ours */
#define GRAPH_LINE "# the graph: " /* sweep.cmd's last line: the bytes the sweep began with */

static const char *const POINTS_HEADER =
    "point,dir,ring_task_window,ring_heap,ring_dep_pool,aicpu_thread_num\n";

/* ---- small helpers ---- */

/* sweep_read_file's words for its last failure with EFBIG (the sweep reads on one thread). */
static char read_why[128];

/* Reads a whole file (malloc'd, NUL-terminated): a regular file, at most a sweep's file's cap (read_why says
 * by how much one is past it), not through a link below the sweep's folder (ELOOP). NULL with errno set when
 * it cannot. */
char *sweep_read_file(const char *path, size_t *len)
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
void sweep_sh_quote(FILE *f, const char *s)
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

/* s as one word for sh, for a command a message gives to be run as it is: as it is when every byte is one sh
 * takes literally (letters, digits, / . _ , : + = @ % -), else single-quoted. */
void sweep_sh_word(char *out, size_t outlen, const char *s)
{
    bool plain = s[0] != '\0';
    for (const char *c = s; *c && plain; c++)
        plain = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
                strchr("/._,:+=@%-", *c) != NULL;
    if (plain) {
        snprintf(out, outlen, "%s", s);
        return;
    }
    size_t n = 0;
    if (n + 1 < outlen)
        out[n++] = '\'';
    for (const char *c = s; *c && n + 5 < outlen; c++) {
        if (*c == '\'') {
            memcpy(out + n, "'\\''", 4);
            n += 4;
        } else {
            out[n++] = *c;
        }
    }
    if (n + 1 < outlen)
        out[n++] = '\'';
    out[n] = '\0';
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
void sweep_point_dir(const sweep *s, long i, char *out, size_t outlen)
{
    snprintf(out, outlen, "%s/points/%04ld", s->dir_abs, i);
}

/* Is the point folder path a folder itself (not a symbolic link to one, nor missing, nor reached through
 * one)? */
bool sweep_point_is_folder(const char *path)
{
    struct stat st;
    return userdir_stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Refuses path when it, or a folder on its way below the sweep's folder, is a symbolic link: a folder
 * someone sent may hold one, and what it points to is none of the sweep's. Returns 0, or EXIT_INTERNAL
 * after naming the link. */
int sweep_refuse_link_at(const char *path)
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
 * --kernel-set's NAME.FIELD, --kernel-scale's NAME.scale, gen.PARAM for --gen-PARAM. */
static void list_column(const sweep_list *l, char *out, size_t outlen)
{
    if (l->kind == LIST_RUN)
        snprintf(out, outlen, "%s", KNOB_RUNCONFIG[l->knob]);
    else
        snprintf(out, outlen, "%s%s%s", l->kind == LIST_GEN ? "gen." : "", l->key,
                 l->kind == LIST_SCALE ? ".scale" : "");
}

/* Is a column a --kernel-scale one (NAME.scale)? */
static bool column_is_scale(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot && dot != name && strcmp(dot, ".scale") == 0;
}

/* Is a column of points.csv past the run's knobs a --kernel-set one (NAME.FIELD) rather than --gen-PARAM
 * (gen.PARAM) or --set (KEY, which has no '.')? */
static bool column_is_kernel(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot && (strncmp(name, "gen.", 4) != 0 || strcmp(dot, ".sync_start") == 0 || column_is_scale(name) ||
                   strcmp(dot, ".early_resolve") == 0 || strcmp(dot, ".allow_early_resolve") == 0);
}

/* Writes the option that gives column col (named name) the value cell, as the sweep's command line has it:
 * "--ring-heap 1024", "--set hbm_bw=1.6e12", "--kernel-set mm.sync_start=true", "--gen-k 48". */
static int column_flag(char *out, size_t outlen, int col, const char *name, const char *cell)
{
    if (col < SWEEP_KNOBS)
        return snprintf(out, outlen, "%s %s", KNOB_FLAGS[col], cell);
    if (column_is_scale(name))
        return snprintf(out, outlen, "--kernel-scale %.*s=%s", (int)(strlen(name) - strlen(".scale")), name, cell);
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
void sweep_point_label_of(const sweep *s, long i, char *out, size_t outlen)
{
    const char *cells[SWEEP_MAX_COLS], *names[SWEEP_MAX_COLS];
    static char buf[SWEEP_MAX_COLS][160];
    point_cells(s, i, cells);
    sweep_columns(s, names, buf);
    point_label(names, cells, SWEEP_KNOBS + s->nextra, out, outlen);
}

/* Which generated graph point i runs: its --gen-* lists' indices, the last varying fastest (0 without). */
long sweep_point_graph(const sweep *s, long i)
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
void sweep_graph_file(const sweep *s, long g, const char *ext, char *out, size_t outlen)
{
    snprintf(out, outlen, "%s/" GRAPHS_DIR "/%04ld.%s", s->dir_abs, g, ext);
}

/* The arguments of `ptosim gen` for generated graph g (argv[0] the kind; at most 1 + 2 * SWEEP_MAX_LISTS). */
int sweep_gen_args(const sweep *s, long g, char *av[], char names[][72])
{
    int n = 0;
    av[n++] = (char *)s->gen_kind;
    for (int k = s->nlists - 1; k >= 0; k--) /* the last list varies fastest (sweep_point_graph) */
        if (s->lists[k].kind == LIST_GEN) {
            snprintf(names[k], 72, "--%s", s->lists[k].key);
            av[n++] = names[k];
            av[n++] = s->lists[k].vals[g % s->lists[k].n];
            g /= s->lists[k].n;
        }
    return n;
}

/* The argv of `ptosim run` for point i of the graph at path graph (malloc'd array of borrowed strings,
 * NULL-terminated); graph and wd (the point's folder) must outlive it. */
const char **sweep_point_argv(const sweep *s, long i, const char *graph, const char *wd)
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
void sweep_write_args(FILE *f, const sweep *s)
{
    sweep_sh_quote(f, s->gen_kind ? s->graph : s->graph_abs);
    for (int k = 0; k < s->nlists; k++) {
        const sweep_list *l = &s->lists[k];
        if (l->kind == LIST_RUN)
            outfile_printf(f, " %s ", KNOB_FLAGS[l->knob]);
        else if (l->kind == LIST_GEN)
            outfile_printf(f, " --gen-%s ", l->key);
        else
            outfile_printf(f, " %s ", LIST_FLAGS[l->kind]);
        sweep_sh_quote(f, l->text);
    }
    for (int k = 0; k < s->npass; k++) {
        fputc(' ', f);
        sweep_sh_quote(f, s->pass[k]);
    }
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

/* The length of a sweep.cmd text's command (GRAPH, the lists, the options passed through): all but its graph
 * line, which an older ptosim's has not, and the line break that ends it (its last word is quoted). */
static size_t command_len(const char *cmd)
{
    const char *g = graph_line(cmd);
    size_t n = g ? (size_t)(g - cmd) : strlen(cmd);
    while (n && cmd[n - 1] == '\n')
        n--;
    return n;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* What folder dir holds, for a message: "" when nothing, else its first names in byte order, three at most
 * ("a, b, c and 4 more"). */
static void folder_holds(const char *dir, char *out, size_t outlen)
{
    out[0] = '\0';
    DIR *d = opendir(dir);
    char **names = NULL;
    size_t n = 0, cap = 0;
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (n == cap) {
            char **more = realloc(names, (cap = cap ? 2 * cap : 16) * sizeof(*names));
            if (!more)
                break;
            names = more;
        }
        if (!(names[n] = strdup(e->d_name)))
            break;
        n++;
    }
    if (d)
        closedir(d);
    if (!d)
        snprintf(out, outlen, "what it holds cannot be listed: %s", strerror(errno));
    if (n)
        qsort(names, n, sizeof(*names), cmp_names);
    size_t used = 0;
    for (size_t i = 0; i < n && i < 3 && used < outlen; i++)
        used += (size_t)snprintf(out + used, outlen - used, "%s%s", i ? (i + 1 == n ? " and " : ", ") : "",
                                 names[i]);
    if (n > 3 && used < outlen)
        snprintf(out + used, outlen - used, " and %zu more", n - 3);
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

/* The sweep's folder before anything is written into it: with -o it must be empty (or just made) or hold
 * this command's own sweep (the same sweep.cmd command: the graph's bytes may have changed since), so a
 * sweep never lands beside a run, nor replaces another sweep's sweep.csv; with --resume a folder without a
 * sweep must be empty (one with a sweep is checked by sweep_write_manifest). Returns 0, or EXIT_USAGE after
 * saying what the folder holds and what to do. */
int sweep_check_folder(const sweep *s)
{
    const char *flag = s->resume ? "--resume" : "-o";
    char path[PATH_MAX + 64], holds[1024];
    struct stat st;
    snprintf(path, sizeof(path), "%s/ptosim_run.json", s->dir_abs);
    if (userdir_stat(path, &st) == 0) {
        msgtext_print(
            stderr,
            "ptosim sweep: %s %s holds a run (ptosim_run.json), not a sweep; a sweep writes only into an "
            "empty folder or its own sweep's: give another %s DIR",
            flag, s->dir, flag);
        return EXIT_USAGE;
    }
    snprintf(path, sizeof(path), "%s/points.csv", s->dir_abs);
    bool points = userdir_stat(path, &st) == 0;
    if (points && s->resume)
        return 0;
    snprintf(path, sizeof(path), "%s/sweep.cmd", s->dir_abs);
    char *old = points ? sweep_read_file(path, NULL) : NULL, *cmd = NULL;
    size_t cmd_len = 0;
    if (old) {
        FILE *c = open_memstream(&cmd, &cmd_len);
        if (c)
            sweep_write_args(c, s);
        if (!c || fclose(c) != 0 || !cmd) {
            fputs("ptosim sweep: out of memory\n", stderr);
            free(old);
            return EXIT_INTERNAL;
        }
        size_t ol = command_len(old);
        int same = ol == cmd_len && memcmp(old, cmd, ol) == 0;
        if (!same) {
            msgtext_print(
                stderr,
                "ptosim sweep: -o %s holds another sweep (of another graph, other knob lists or other "
                "run options):",
                s->dir);
            msgtext_print(stderr, "  there: %.*s", (int)ol, old);
            msgtext_print(stderr, "  this:  %s", cmd);
            msgtext_print(
                stderr, "go on with that one with ptosim sweep --resume %s, or give this one another -o DIR",
                s->dir);
        }
        free(old);
        free(cmd);
        return same ? 0 : EXIT_USAGE;
    }
    folder_holds(s->dir_abs, holds, sizeof(holds));
    if (!holds[0])
        return 0;
    msgtext_print(
        stderr,
        "ptosim sweep: %s %s is not empty and holds no sweep (no points.csv and sweep.cmd; it holds %s); "
        "a sweep writes only into an empty folder or its own sweep's: give another %s DIR",
        flag, s->dir, holds, flag);
    return EXIT_USAGE;
}

/* The words of the command in DIR/sweep.cmd (GRAPH, the lists, the run options), for `ptosim sweep --resume
 * DIR` alone: split as sweep_write_args wrote them (words apart by one blank, each a bare option or quoted)
 * and never run through a shell: a folder someone sent may hold any sweep.cmd. Returns the words (malloc'd,
 * NULL-terminated, *n of them; sweep_free_words frees them), or NULL after printing why. */
char **sweep_read_command(const char *dir, int *n)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof(path), "%s/sweep.cmd", dir);
    char *text = sweep_read_file(path, NULL);
    if (!text) {
        msgtext_print(stderr,
                      "ptosim sweep: --resume %s: cannot read %s: %s; give the sweep's command: ptosim sweep "
                      "GRAPH [KNOB LIST ...] [run options] --resume %s",
                      dir, path, errno == EFBIG ? read_why : readall_why(errno), dir);
        return NULL;
    }
    size_t len = command_len(text), cap = 2, at = 0;
    for (size_t i = 0; i < len; i++)
        cap += text[i] == ' ';
    char **words = calloc(cap, sizeof(*words)), *word = malloc(len + 1);
    const char *why = len ? NULL : "no command";
    *n = 0;
    if (!words || !word) {
        fputs("ptosim sweep: out of memory\n", stderr);
        free(text);
        free(word);
        free(words);
        return NULL;
    }
    while (!why && at < len) {
        size_t w = 0, start = at;
        while (!why && at < len && text[at] != ' ') {
            char c = text[at];
            const char *end = c == '\'' ? memchr(text + at + 1, '\'', len - at - 1) : NULL;
            if (end) { /* 'text': every byte up to the next quote as it is */
                memcpy(word + w, text + at + 1, (size_t)(end - text) - at - 1);
                w += (size_t)(end - text) - at - 1;
                at = (size_t)(end - text) + 1;
            } else if (c == '\\' && at + 1 < len && text[at + 1] == '\'') { /* the quote of '\'' */
                word[w++] = '\'';
                at += 2;
            } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       (c && strchr("-_=.,", c))) { /* a bare option: --ring-heap, --gen-k */
                word[w++] = c;
                at++;
            } else {
                why = c == '\'' ? "a quote that is not closed" : "a byte ptosim sweep writes only in quotes";
            }
        }
        if (!why && at == start)
            why = "two blanks in a row";
        if (why)
            break;
        word[w] = '\0';
        if (!(words[(*n)++] = strdup(word))) {
            fputs("ptosim sweep: out of memory\n", stderr);
            free(word);
            free(text);
            sweep_free_words(words);
            return NULL;
        }
        at += at < len; /* the blank after it */
    }
    free(text);
    free(word);
    if (why) {
        msgtext_print(
            stderr,
            "ptosim sweep: --resume %s: %s is not a command ptosim sweep wrote (%s, at byte %zu); give "
            "the sweep's command: ptosim sweep GRAPH [KNOB LIST ...] [run options] --resume %s",
            dir, path, why, at, dir);
        sweep_free_words(words);
        return NULL;
    }
    return words;
}

void sweep_free_words(char **words)
{
    for (size_t i = 0; words && words[i]; i++)
        free(words[i]);
    free(words);
}

/* Writes DIR/points.csv (the manifest --collect reads) and DIR/sweep.cmd (what makes the points: the graph,
 * the lists and the options passed through, then the size and hash of the graph's bytes) and removes a
 * previous sweep.csv, so the folder never pairs these points with older results. With --resume, a folder that
 * holds a sweep keeps both files, which must be this command's. Returns 0, or an exit status after printing
 * why. */
int sweep_write_manifest(sweep *s)
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
     * by its own hash (sweep_compile_gen_graphs) */
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
        sweep_write_args(c, s);
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
    char *old = s->resume ? sweep_read_file(path, NULL) : NULL;
    if (old) {
        snprintf(path, sizeof(path), "%s/sweep.cmd", s->dir_abs);
        char *old_cmd = sweep_read_file(path, NULL);
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
bool sweep_row_ok(const char *text, const char **row)
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

/* What is wrong with a row.csv that sweep_row_ok refused (text NULL: unreadable). */
const char *sweep_row_why(const char *text)
{
    return !text ? "is missing" : !text[0] ? "is empty" : "is not a CSV header and one row";
}

/* Prints why point i gave no row: how its run ended when known (status: a wait status, -1 = never
 * started, -2 = unknown), then its stderr. */
void sweep_report_missing(const char *dir, long i, const char *pdir, const char *label, int status,
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
    char *text = sweep_read_file(path, &len);
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
    m->text = sweep_read_file(path, NULL);
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
        if (nc != nh || sweep_parse_long(f[0], 0, SWEEP_MAX_POINTS, &idx) != 0 || idx != m->n ||
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
    char *text = sweep_read_file(path, NULL);
    *row = NULL;
    if (text && !sweep_row_ok(text, row))
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
int sweep_collect(const char *dir, const int *status, long nstatus)
{
    char err[4400];
    manifest man;
    int rc = read_manifest(dir, &man);
    for (long i = 0; rc == 0 && i < man.n; i++) { /* no row is read through a link (a folder sent) */
        char path[PATH_MAX + 300];
        snprintf(path, sizeof(path), "%s/%s", dir, man.lines[i].dir);
        rc = sweep_refuse_link_at(path);
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
            sweep_report_missing(dir, i, lines[i].dir, label, st, sweep_row_why(text));
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
            fwrite(row, 1, strlen(row) - 1, out); /* sweep_row_ok: it ends in its line break */
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
        char word[2 * PATH_MAX + 8];
        sweep_sh_word(word, sizeof(word), dir);
        msgtext_print(stderr,
                      "ptosim sweep: %ld of %ld points gave no row (status \"missing\" in %s); ptosim sweep "
                      "--resume %s runs only those",
                      missing, n, csv, word);
        return EXIT_INTERNAL;
    }
    return EXIT_OK;
}

/* Lists the points to run in s->todo: every point, or with --resume only those without a whole row (a row is
 * renamed into place once its run has ended, so a point cut short has none). Returns 0, or -1 when out of
 * memory. */
int sweep_plan_points(sweep *s)
{
    s->todo = malloc(sizeof(*s->todo) * (size_t)s->npoints);
    if (!s->todo) {
        fputs("ptosim sweep: out of memory\n", stderr);
        return -1;
    }
    s->ntodo = 0;
    for (long i = 0; i < s->npoints; i++) {
        char path[PATH_MAX + 64];
        sweep_point_dir(s, i, path, sizeof(path) - 16);
        bool own = sweep_point_is_folder(path);
        strcat(path, "/row.csv");
        char *text =
            s->resume && own ? sweep_read_file(path, NULL) : NULL; /* a link's row is not this sweep's */
        const char *row;
        if (!text || !sweep_row_ok(text, &row))
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
int sweep_collect_interrupted(const sweep *s, const int *status, int sig)
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
        sweep_point_dir(s, i, wd, sizeof(wd));
        snprintf(rowp, sizeof(rowp), "%s/row.csv", wd);
        char *text = sweep_read_file(rowp, NULL);
        const char *row;
        if (text && sweep_row_ok(text, &row)) {
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
    char word[2 * PATH_MAX + 8];
    sweep_sh_word(word, sizeof(word), s->dir_abs);
    msgtext_print(
        stderr,
        " (sweep.csv is written only when every point gave a row: ptosim sweep --resume %s runs only the "
        "others)",
        word);
    return intr_status(sig);
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
    char *cmd = sweep_read_file(path, NULL);
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
int sweep_best(const char *dir)
{
    char path[PATH_MAX + 64];
    manifest man;
    int rc = read_manifest(dir, &man);
    long n = man.n;
    char *csv = NULL;
    if (rc != 0)
        goto out;
    snprintf(path, sizeof(path), "%s/sweep.csv", dir);
    csv = sweep_read_file(path, NULL);
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
        char word[2 * PATH_MAX + 8];
        sweep_sh_word(word, sizeof(word), dir);
        msgtext_print(
            stderr,
            "ptosim sweep: --best: %ld of %ld points of %s have no row (status missing): that is the "
            "best of the others; ptosim sweep --resume %s runs the rest",
            missing, n, dir, word);
        rc = EXIT_INTERNAL;
    }
out:
    free(csv);
    manifest_free(&man);
    return rc;
}
