/* conform.c - `ptosim conform`: a runtime capture imported, re-simulated and compared with ptosim's run. */
/* The command: its options, what the run takes from the capture, the work folder, the import and the
 * run; the comparison is conform_compare.c's. */
#define _XOPEN_SOURCE 700 /* nftw */
#include "conform.h"

#include <cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../model/base/msg_text.h"
#include "../../model/base/outfile.h"
#include "../../model/base/userdir.h"
#include "../../model/chip/platform.h"
#include "../cli/cli.h"
#include "../import/import.h"
#include "../run/run.h"
#include "conform_int.h"

/* ---- ptosim conform ---- */

static void conform_usage(FILE *out)
{
    fputs("usage: ptosim conform CAPTURE_DIR [-o WORKDIR] [-p PLATFORM]\n"
          "\n"
          "Imports a runtime capture (a run's dfx_outputs/ with deps.json), simulates the graph with the\n"
          "capture's settings and compares what does not depend on timing: deps.json whole, the scope\n"
          "stats' allocation counters, the swimlane's schema and core map (docs/explanation/checking.md).\n"
          "One line per difference, then a verdict.\n"
          "\n"
          "options:\n",
          out);
    opt_help(&conform_options, out);
    fputs("\n"
          "exit status: 0 equal, 1 different, 2 bad command line or platform, 3 a capture that cannot be\n"
          "read or imported, 4-6 the run failed as `ptosim run` says, 7 conform itself failed\n",
          out);
}

/* What the command line gives: the capture, -o and -p. */
typedef struct cf_args {
    const char *capture, *work, *platform;
} cf_args;

/* the one capture; a word starting with '-' (even "-") is no folder but an option conform lacks */
static int cf_operand(const char *word, void *dest, char *err, size_t errlen)
{
    cf_args *a = dest;
    if (word[0] == '-' || a->capture) {
        snprintf(err, errlen, "%s: %s", word, word[0] == '-' ? "unknown option" : "one capture only");
        return -1;
    }
    a->capture = word;
    return 0;
}

static const opt_def CONFORM_OPTS[] = {
    {.name = "work-dir",
     .letter = 'o',
     .arg = OPT_VALUE,
     .kind = OPT_KIND_DIR,
     .meta = "DIR",
     .help = "keep DIR/graph.jsonl and the run's DIR/dfx_outputs (default: a\n"
             "temporary folder, removed afterwards)",
     .store = opt_store_text,
     .off = offsetof(cf_args, work),
     .missing = "%s: missing value"},
    {.name = "platform",
     .letter = 'p',
     .arg = OPT_VALUE,
     .kind = OPT_KIND_PLATFORM,
     .meta = "NAME|FILE",
     .help = "platform (default: from the swimlane's num_cores, 24 a2a3sim, 72 a2a3)",
     .runconfig = "platform",
     .store = opt_store_text,
     .off = offsetof(cf_args, platform),
     .missing = "%s: missing value"},
};

const opt_table conform_options = {
    .cmd = "conform",
    .opts = CONFORM_OPTS,
    .nopts = OPT_COUNT(CONFORM_OPTS),
    .operand_kind = OPT_KIND_DIR,
    .operand = cf_operand,
    .unknown = "%s: unknown option",
};

/* What the run takes from the capture. */
typedef struct cf_capture {
    const char *platform;            /* -p value */
    int swimlane_level;              /* 0 = no swimlane file */
    long threads;                    /* AICPU threads the core map implies, 0 = not known */
    bool scope_stats;                /* scope_stats/scope_stats.jsonl present */
    int64_t rings[3][CF_RING_COUNT]; /* task_window_max, heap_max, dep_pool_max */
    int64_t tensormap;               /* tensormap_max, 0 = not known */
} cf_capture;

static const struct {
    int cores;
    const char *platform;
} CORES_PLATFORM[] = {{24, "a2a3sim"}, {72, "a2a3"}};

/* What the run takes from a capture's files (see read_capture). */
/* What read_capture reads of a capture, from either reading of it. */
typedef struct cf_capfiles {
    const char *swim_path;  /* the swimlane's path */
    const char *scope_path; /* the scope stats' path */
    bool swim;              /* the swimlane exists */
    const cJSON *level;     /* its chip_swimlane_level */
    const cJSON *md;        /* its metadata */
    const cJSON *header;    /* the scope-stats header, NULL when there are none */
    int header_line;        /* its line number */
} cf_capfiles;

static int capture_from(const cf_capfiles *d, cf_capture *c, char *err, size_t errlen)
{
    int rc = 0;
    if (d->swim) {
        const cJSON *lv = d->level, *md = d->md, *nc = cJSON_GetObjectItemCaseSensitive(md, "num_cores"),
                    *ct = cJSON_GetObjectItemCaseSensitive(md, "core_to_thread"), *x;
        if (!cJSON_IsNumber(lv) || lv->valueint < 1 || lv->valueint > 4) {
            rc = cf_fail(err, errlen, "%s: chip_swimlane_level: not 1-4", d->swim_path);
            goto out;
        }
        c->swimlane_level = lv->valueint;
        if (!cJSON_IsNumber(nc)) {
            rc = cf_fail(err, errlen, "%s: metadata.num_cores: %s", d->swim_path,
                         nc ? "not a number" : "missing");
            goto out;
        }
        for (size_t i = 0; !c->platform && i < sizeof(CORES_PLATFORM) / sizeof(CORES_PLATFORM[0]); i++)
            if (CORES_PLATFORM[i].cores == nc->valueint)
                c->platform = CORES_PLATFORM[i].platform;
        if (!c->platform) {
            cf_fail(err, errlen,
                    "%s: metadata.num_cores %d names no platform (24 a2a3sim, 72 a2a3): give one with -p",
                    d->swim_path, nc->valueint);
            rc = EXIT_USAGE;
            goto out;
        }
        /* the core map has one scheduler thread index per core; the orchestrator is one more thread */
        int most = -1;
        cJSON_ArrayForEach(x, ct)
        {
            if (cJSON_IsNumber(x) && x->valueint > most)
                most = x->valueint;
        }
        if (most >= 0)
            c->threads = most + 2;
    }
    if (d->header) {
        static const char *const CAPS[] = {"task_window_max", "heap_max", "dep_pool_max"};
        const cJSON *h = d->header;
        for (int k = 0; k < 3; k++) {
            const cJSON *a = cJSON_GetObjectItemCaseSensitive(h, CAPS[k]);
            bool ok = cJSON_GetArraySize(a) == CF_RING_COUNT;
            for (int r = 0; ok && r < CF_RING_COUNT; r++) {
                const cJSON *v = cJSON_GetArrayItem(a, r);
                ok = cJSON_IsNumber(v) && v->valuedouble >= 0;
                c->rings[k][r] = ok ? (int64_t)v->valuedouble : 0;
            }
            if (!ok) {
                rc = cf_fail(err, errlen, "%s:%d: %s: not 4 numbers", d->scope_path, d->header_line, CAPS[k]);
                goto out;
            }
        }
        const cJSON *tm = cJSON_GetObjectItemCaseSensitive(h, "tensormap_max");
        c->tensormap = cJSON_IsNumber(tm) ? (int64_t)tm->valuedouble : 0;
        c->scope_stats = true;
    }
    if (!c->platform)
        c->platform = "a2a3"; /* no swimlane: ptosim run's default */
out:
    return rc < 0 ? EXIT_GRAPH : rc;
}

/* Reads the capture's swimlane metadata and scope-stats header, streaming (checking deps.json too, as the
 * comparison will read it); a capture the stream refuses is read whole, which names the fault. Returns 0,
 * EXIT_USAGE (num_cores names no platform and no -p) or EXIT_GRAPH, with a message in err. */
/* The capture's check: deps.json, the scope stats and the swimlane read a value at a time (cf_sdfx_load), and
 * on a thread of its own, the capture's digest for the comparison. */
typedef struct cf_capjob {
    const char *dir;
    cf_sdfx s;
    int loaded;        /* cf_sdfx_load's return */
    cf_digest_job dig; /* made on this thread once the check passed (cf_digest_start without a thread) */
} cf_capjob;

static void capjob_run(cf_capjob *j)
{
    /* split: the scope stats and swimlane on a thread of their own, so that the two cores share the capture's
     * reading with the import, not one core alone; deps.json digested as it is checked */
    j->loaded = cf_sdfx_load_with(&j->s, j->dir, true, true, &j->dig.g, NULL, NULL);
    j->dig.d = &j->s;
    j->dig.started = false;
    j->dig.done = true;
}

static void *capjob_main(void *arg)
{
    capjob_run(arg);
    return NULL;
}

/* What to run the capture with (c), from its check in j (capjob_run, done): with *kept, the check's s and
 * digest are kept for the comparison; without, the files the stream refused are read whole, which names the
 * fault. Returns 0 or an exit status with a message. */
static int read_capture(cf_capjob *j, const char *platform, cf_capture *c, bool *kept, char *err, size_t errlen)
{
    memset(c, 0, sizeof(*c));
    c->platform = platform;
    *kept = false;
    cf_sdfx *s = &j->s;
    if (j->loaded == 0) {
        cf_capfiles f = {s->swim_path, s->scope_path,   s->has_swim,   s->level,
                         s->metadata,  s->scope_header, s->header_line};
        int rc = capture_from(&f, c, err, errlen);
        if (rc == 0) {
            *kept = true; /* for the comparison, which need not check it again */
        } else {
            cf_digest_free(&j->dig.g);
            cf_sdfx_free(s);
        }
        return rc;
    }
    cf_sdfx_free(s);
    cf_dfx d;
    if (cf_dfx_load(&d, j->dir, true, err, errlen) != 0) {
        cf_dfx_free(&d);
        return EXIT_GRAPH;
    }
    cf_capfiles f = {d.swim_path,
                     d.scope_path,
                     d.swim != NULL,
                     cJSON_GetObjectItemCaseSensitive(d.swim, "chip_swimlane_level"),
                     cJSON_GetObjectItemCaseSensitive(d.swim, "metadata"),
                     d.has_scope ? d.scope.v[0] : NULL,
                     d.has_scope ? d.scope.lineno[0] : 0};
    int rc = capture_from(&f, c, err, errlen);
    cf_dfx_free(&d);
    return rc;
}

/* The arguments of the run after "GRAPH": owned strings in buf, pointers in av. */
typedef struct cf_argv {
    const char *av[40]; /* the arguments, NULL-terminated */
    int n;              /* arguments in av */
    char buf[8][128];   /* the values av points to that are built here */
    int nbuf;           /* buf entries used */
} cf_argv;

static void add(cf_argv *a, const char *s)
{
    if (a->n < (int)(sizeof(a->av) / sizeof(a->av[0])) - 1)
        a->av[a->n++] = s;
    a->av[a->n] = NULL;
}

/* Adds "FLAG a,b,c,d" when a ring's value differs from the platform's default. */
static void run_options(const cf_capture *c, const platform *p, cf_argv *a)
{
    memset(a, 0, sizeof(*a));
    add(a, "-p");
    add(a, c->platform);
    add(a, "--enable-dep-gen");
    if (c->scope_stats)
        add(a, "--enable-scope-stats");
    if (c->swimlane_level) {
        snprintf(a->buf[a->nbuf], 128, "--enable-chip-swimlane=%d", c->swimlane_level);
        add(a, a->buf[a->nbuf++]);
    }
    if (c->threads && c->threads != p->aicpu_threads) {
        snprintf(a->buf[a->nbuf], 128, "%ld", c->threads);
        add(a, "--aicpu-thread-num");
        add(a, a->buf[a->nbuf++]);
    }
    /* the ring sizes travel in the imported graph's run_config (which, as the runtime, takes a heap
     * of any size from 1024 bytes: heap_rebase's ring 1 has 1572864) */
    if (c->scope_stats) {
        if (c->tensormap && c->tensormap != p->tensormap_pool && a->nbuf < 8) {
            snprintf(a->buf[a->nbuf], 128, "tensormap_pool=%" PRId64, c->tensormap);
            add(a, "--set");
            add(a, a->buf[a->nbuf++]);
        }
    }
}

/* Runs `ptosim run GRAPH -o WORKDIR --quiet OPTIONS` as a child (its stdout to our stderr, so the report
 * on stdout stays clean), handing it lock_fd (WORKDIR's lock, which this process holds; -1: none).
 * Returns its exit status, or CONFORM_EXIT_FAILED. */
static int run_child(const char *graph, const char *work, const cf_argv *opts, int lock_fd)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (n <= 0) {
        msgtext_print(stderr, "ptosim conform: cannot find this program (/proc/self/exe): %s", strerror(errno));
        return CONFORM_EXIT_FAILED;
    }
    exe[n] = '\0';
    const char *av[64];
    int k = 0;
    av[k++] = exe;
    av[k++] = "run";
    av[k++] = graph;
    av[k++] = "-o";
    av[k++] = work;
    av[k++] = "--quiet";
    for (int i = 0; i < opts->n; i++)
        av[k++] = opts->av[i];
    av[k] = NULL;
    char held[32];
    snprintf(held, sizeof(held), "%d", lock_fd);
    if (lock_fd >= 0 && setenv(RUN_HELD_LOCK_ENV, held, 1) != 0) {
        fprintf(stderr, "ptosim conform: out of memory\n");
        return CONFORM_EXIT_FAILED;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid != 0 && lock_fd >= 0) /* the child keeps it for its exec */
        unsetenv(RUN_HELD_LOCK_ENV);
    if (pid < 0) {
        msgtext_print(stderr, "ptosim conform: cannot start a process: %s", strerror(errno));
        return CONFORM_EXIT_FAILED;
    }
    if (pid == 0) {
        int fi = open("/dev/null", O_RDONLY);
        if (fi < 0 || dup2(fi, 0) < 0 || dup2(2, 1) < 0 || (lock_fd >= 0 && fcntl(lock_fd, F_SETFD, 0) != 0))
            _exit(127);
        execv(exe, (char *const *)av);
        dprintf(2, "ptosim conform: cannot run %s: %s\n", exe, strerror(errno));
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) {
            msgtext_print(stderr, "ptosim conform: waitpid: %s", strerror(errno));
            return CONFORM_EXIT_FAILED;
        }
    if (WIFSIGNALED(st)) {
        msgtext_print(stderr, "ptosim conform: the run was killed by signal %d", WTERMSIG(st));
        return CONFORM_EXIT_FAILED;
    }
    return WEXITSTATUS(st);
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

/* Writes the graph made from the capture into o, opened at graph (WORK/graph.jsonl) and left to commit
 * (checked: its files passed the capture's stream check, or are being checked meanwhile, so the import only
 * finds their lists); notes and warnings to warn. Returns 0, or an exit status with a message in err (o then
 * aborted). */
static int import_begin(const char *capture, const char *graph, bool checked, FILE *warn, outfile *o, char *err,
                        size_t errlen)
{
    FILE *f = outfile_open(o, graph, err, errlen);
    if (!f)
        return CONFORM_EXIT_FAILED;
    import_opts opt = {.costs = IMPORT_COSTS_AUTO, .checked = checked, .warn = warn};
    if (import_capture(capture, &opt, f, err, errlen) != 0) {
        outfile_abort(o);
        return EXIT_GRAPH;
    }
    return 0;
}

/* The work folder: TMPDIR/ptosim-conform-XXXXXX (own), or the one given (made when missing, *made), locked
 * against another conform or run into it for the whole import, run and comparison (*lock_fd: the folder,
 * open with the lock held; -1 for one of its own or a file system without locks, after a warning). Returns
 * 0; -1 with a message in err; -2 when another process holds the folder (message in err). */
static int work_dir(const char *given, char *tmp, size_t tmplen, bool *made, int *lock_fd, char *err,
                    size_t errlen)
{
    *made = false;
    *lock_fd = -1;
    if (!given) {
        const char *t = getenv("TMPDIR");
        snprintf(tmp, tmplen, "%s/ptosim-conform-XXXXXX", t && *t ? t : "/tmp");
        if (!mkdtemp(tmp))
            return cf_fail(err, errlen, "cannot make a folder %s: %s", tmp, strerror(errno));
        return 0;
    }
    struct stat st;
    bool was = lstat(given, &st) == 0;
    if (outfile_mkdirs(given, err, errlen) != 0)
        return -1;
    *made = !was;
    int fd = open(given, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return cf_fail(err, errlen, "%s: cannot open the work dir: %s", given, strerror(errno));
    if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
        *lock_fd = fd;
        return 0;
    }
    int e = errno;
    close(fd);
    if (e == EWOULDBLOCK) { /* the other one's folder: it stays */
        *made = false;
        cf_fail(
            err, errlen,
            "%s: another ptosim conform or run is using this folder; wait for it to end or give another -o",
            given);
        return -2;
    }
    /* NFS without locks, say: go on, unprotected */
    msgtext_print(stderr, "ptosim conform: warning: %s: cannot lock the work dir (%s); do not let two conforms use it "
                    "at once",
            given, strerror(e));
    return 0;
}

int conform_main(int argc, char **argv)
{
    cf_args args = {0};
    size_t perrlen = 256; /* a message quotes one word */
    for (int i = 0; i < argc; i++)
        perrlen = strlen(argv[i]) + 256 > perrlen ? strlen(argv[i]) + 256 : perrlen;
    char *perr = malloc(perrlen);
    if (!perr) {
        fputs("ptosim conform: out of memory\n", stderr);
        return CONFORM_EXIT_FAILED;
    }
    int orc = opt_parse(&conform_options, argc, argv, &args, NULL, NULL, perr, perrlen);
    if (orc == 1)
        conform_usage(stdout);
    else if (orc != 0)
        msgtext_print(stderr, "ptosim conform: %s", perr);
    free(perr);
    if (orc != 0)
        return orc == 1 ? EXIT_OK : EXIT_USAGE;
    const char *capture = args.capture, *work = args.work, *plat_name = args.platform;
    if (!capture) {
        fputs("ptosim conform: missing CAPTURE_DIR\n", stderr);
        return EXIT_USAGE;
    }
    /* both folders are named: nothing below them is read or written through a link (before the thread
     * that reads the capture starts) */
    userdir_add(capture);
    if (work)
        userdir_add(work);
    char lerr[PATH_MAX + 256];
    if (import_check_links(capture, lerr, sizeof(lerr)) != 0) { /* as the import would, before anything */
        msgtext_print(stderr, "ptosim conform: %s", lerr);
        return EXIT_GRAPH;
    }
    char err[PATH_MAX + 2048], tmp[PATH_MAX], graph[PATH_MAX + 32], dfx[PATH_MAX + 32];
    char import_err[PATH_MAX + 2048] = "";
    bool own = !work, made = false, have_dir = false, spec = false, pending = false, kept = false;
    int rc, import_rc = 0;
    char *wtext = NULL;
    size_t wlen = 0;
    FILE *warn = NULL;
    outfile o;
    cf_capjob cj = {.dir = capture};
    cf_capture cap;
    /* The capture is checked (and digested for the comparison) on a second thread while this one imports it,
     * speculating that the check passes: the import trusts the files' syntax, as it does after the check.
     * Its graph is committed only once the capture and its platform have been read; when the check refuses
     * the files, the import is thrown away and everything goes as without a second thread. That needs the
     * work folder now: when it cannot be had, it is asked for again below, where its message comes. */
    bool ran = false;
    int lock_fd = -1, wrc = work_dir(work, tmp, sizeof(tmp), &made, &lock_fd, err, sizeof(err));
    if (wrc == -2) { /* another conform's, at once: nothing of the capture is read */
        msgtext_print(stderr, "ptosim conform: %s", err);
        return CONFORM_EXIT_FAILED;
    }
    if (wrc == 0) {
        have_dir = true;
        snprintf(graph, sizeof(graph), "%s/graph.jsonl", own ? tmp : work);
        warn = open_memstream(&wtext, &wlen);
        pthread_t t;
        spec = warn && cf_thread_start(&t, capjob_main, &cj);
        if (spec) {
            import_rc = import_begin(capture, graph, true, warn, &o, import_err, sizeof(import_err));
            pending = import_rc == 0;
            pthread_join(t, NULL);
            ran = true;
            if (cj.loaded != 0) {
                if (pending)
                    outfile_abort(&o);
                pending = spec = false;
            }
        }
        if (!spec) { /* made again below, after the capture's and the platform's messages */
            if (own || made)
                rmdir(own ? tmp : work);
            if (lock_fd >= 0)
                close(lock_fd);
            lock_fd = -1;
            have_dir = made = false;
        }
    }
    if (!ran)
        capjob_run(&cj);
    rc = read_capture(&cj, plat_name, &cap, &kept, err, sizeof(err));
    char pdir[PATH_MAX];
    run_platform_dir(pdir, sizeof(pdir));
    platform plat;
    int prc = rc == 0 ? platform_load(&plat, cap.platform, pdir, err, sizeof(err)) : 0;
    if (prc != 0) /* out of memory is not a bad platform: conform itself failed (its 1 means "different") */
        rc = prc == PLATFORM_OOM ? CONFORM_EXIT_FAILED : EXIT_USAGE;
    cf_argv opts;
    if (rc == 0) {
        run_options(&cap, &plat, &opts);
        printf("conform: %s: ptosim run with", capture);
        for (int i = 0; i < opts.n; i++)
            printf(" %s", opts.av[i]);
        putchar('\n');
        if (!have_dir) {
            if (work_dir(work, tmp, sizeof(tmp), &made, &lock_fd, err, sizeof(err)) != 0)
                rc = CONFORM_EXIT_FAILED;
            have_dir = rc == 0;
        }
    }
    if (rc != 0) {
        msgtext_print(stderr, "ptosim conform: %s", err);
        goto done;
    }
    made = false; /* from here on, the folder stays as the run leaves it */
    const char *w = own ? tmp : work;
    snprintf(graph, sizeof(graph), "%s/graph.jsonl", w);
    snprintf(dfx, sizeof(dfx), "%s/dfx_outputs", w);
    if (spec) { /* the import's notes, where they come without a second thread */
        if (fflush(warn) == 0 && wlen)
            fwrite(wtext, 1, wlen, stderr);
        if (pending && outfile_commit(&o, import_err, sizeof(import_err)) != 0)
            import_rc = CONFORM_EXIT_FAILED;
        pending = false;
    } else {
        import_rc = import_begin(capture, graph, kept, stderr, &o, import_err, sizeof(import_err));
        if (import_rc == 0 && outfile_commit(&o, import_err, sizeof(import_err)) != 0)
            import_rc = CONFORM_EXIT_FAILED;
    }
    rc = import_rc;
    if (rc != 0)
        msgtext_print(stderr, "ptosim conform: %s", import_err);
    if (rc == 0) {
        int st = run_child(graph, w, &opts, lock_fd);
        if (st != EXIT_OK) {
            /* 2-6 keep run's meanings (a graph run refuses is a capture that does not import: 3) */
            rc = st >= EXIT_USAGE && st <= EXIT_STALLED ? st : CONFORM_EXIT_FAILED;
            msgtext_print(stderr, "ptosim conform: %s: the run of %s ended with exit status %d", capture, graph,
                    st);
        }
    }
    if (rc == 0) {
        fflush(stdout);
        long n = cf_compare_with(kept ? &cj.s : NULL, kept ? &cj.dig : NULL, capture, dfx, stdout, err,
                                 sizeof(err));
        kept = false; /* cf_compare_with took the check and its digest */
        if (n < 0) {
            msgtext_print(stderr, "ptosim conform: %s", err);
            rc = CONFORM_EXIT_FAILED;
        } else {
            rc = n ? CONFORM_EXIT_DIFFERENT : EXIT_OK;
        }
    }
done:
    if (pending) /* a capture or platform refused after the import: no trace of it */
        outfile_abort(&o);
    if (kept) {
        cf_digest_free(&cj.dig.g);
        cf_sdfx_free(&cj.s);
    }
    if (warn)
        fclose(warn);
    free(wtext);
    if (have_dir && own)
        nftw(tmp, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    else if (have_dir && made)
        rmdir(work);
    if (lock_fd >= 0) /* the folder is another conform's or run's again */
        close(lock_fd);
    return rc;
}
