/* sweep_engine.c - sweep_: the engines: the points run here, by --point, through Slurm or GNU parallel. */
/* Each point maps the graph compiled once into the sweep's folder (GRAPH's, or each generated graph's). */
#include "sweep_int.h"
#include "sweep.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../model/graph/graph_compiled.h"
#include "../../model/graph/graph_reader.h"
#include "../../model/base/outfile.h"
#include "../../model/base/userdir.h"
#include "../../model/base/msg_text.h"
#include "../cli/cli.h"
#include "../gen/gen.h"
#include "../cli/stop_signal.h"
#include "../run/run.h"

#define SLURM_MAX_ARRAY 1001           /* Slurm's default MaxArraySize (slurm.conf) */
#define COMPILED_NAME "graph.compiled" /* DIR's compiled graph, which every point maps (graph_compiled.h) */

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

pid_t sweep_fork_run(int argc, const char **argv, const gcomp *gc, int in, int out, int errfd)
{
    run_preload_engine(); /* once here, not once per point */
    fflush(stdout);
    fflush(stderr);
    pid_t parent = getpid();
    pid_t pid = fork();
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
        if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(errfd, 2) < 0)
            _exit(127);
        reset_signals();
        int code = run_main_from(argc, (char **)argv, gc);
        fflush(NULL);
        _exit(code);
    }
    return pid;
}

/* Starts point i: a child process that runs `ptosim run` with the point's knobs and the shared options, its
 * operations taken from gc (the graph compiled once for the whole sweep; NULL: it reads the graph file),
 * stdout to row.csv.tmp and stderr to stderr.txt in DIR/points/NNNN (finish_row renames the row into place).
 * Returns its pid, or -1 after printing why. */
static pid_t spawn_point(const sweep *s, long i, const gcomp *gc)
{
    char wd[PATH_MAX + 32], path[PATH_MAX + 64], err[PATH_MAX + 256];
    sweep_point_dir(s, i, wd, sizeof(wd));
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
        sweep_graph_file(s, sweep_point_graph(s, i), "jsonl", graph, sizeof(graph));
    const char **av = sweep_point_argv(s, i, s->gen_kind ? graph : s->graph_abs, wd);
    pid_t pid = -1;
    if (fo < 0 || fe < 0 || fi < 0 || !av)
        msgtext_print(stderr, "ptosim sweep: point %ld: cannot set up %s: %s", i, wd, userdir_why(errno));
    else {
        int ac = 0;
        while (av[ac])
            ac++;
        pid = sweep_fork_run(ac - 2, av + 2, gc, fi, fo, fe);
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
    sweep_point_dir(s, i, wd, sizeof(wd));
    snprintf(tmp, sizeof(tmp), "%s/row.csv.tmp", wd);
    snprintf(row, sizeof(row), "%s/row.csv", wd);
    userdir_rename(tmp, row);
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
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

/* Runs the points of s->todo here, s->jobs at a time, each from its graph's compiled form
 * (gc[sweep_point_graph]); status[i] gets point i's wait status (-1: not started, -2: not to run). */
void sweep_run_local(const sweep *s, const gcomp *gc, int *status)
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
                pid_t pid = spawn_point(s, s->todo[next], &gc[sweep_point_graph(s, s->todo[next])]);
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
    int n = sweep_gen_args(s, g, av, names);
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
        char word[2 * PATH_MAX + 8];
        sweep_sh_word(word, sizeof(word), s->dir_abs[0] ? s->dir_abs : s->dir);
        msgtext_print(stderr,
                      "ptosim sweep: point %ld: %s is not the graph ptosim gen %s writes for this point (they part "
                      "at byte %" PRIu64 "); ptosim sweep --resume %s writes the graphs anew and keeps the "
                      "finished points",
                      s->point, path, s->gen_kind, at, word);
        return EXIT_INTERNAL;
    }
    return 0;
}

/* --point I: runs that one point into DIR/points/NNNN, from DIR's compiled graph when there is one (the sweep
 * wrote it; a folder without one, of an older ptosim, has the run read the graph file). Returns 0 when it
 * gave a row. */
int sweep_run_point(const sweep *s)
{
    char cpath[PATH_MAX + 64], err[2 * PATH_MAX + 256], graph[PATH_MAX + 64];
    snprintf(cpath, sizeof(cpath), "%s/" COMPILED_NAME, s->dir_abs);
    snprintf(graph, sizeof(graph), "%s", s->graph);
    if (s->gen_kind) { /* the generated graph of the point, which the sweep wrote and compiled */
        sweep_graph_file(s, sweep_point_graph(s, s->point), "compiled", cpath, sizeof(cpath));
        sweep_graph_file(s, sweep_point_graph(s, s->point), "jsonl", graph, sizeof(graph));
    }
    gcomp gc;
    const gcomp *use = NULL;
    struct stat cst;
    if (s->gen_kind && userdir_stat(graph, &cst) == 0) { /* the graph the generator gives this point, or none */
        int rc = check_gen_graph(s, sweep_point_graph(s, s->point), graph);
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
            char word[2 * PATH_MAX + 8];
            sweep_sh_word(word, sizeof(word), s->dir_abs[0] ? s->dir_abs : s->dir);
            if (rc == GCOMP_STALE)
                msgtext_print(stderr,
                              "ptosim sweep: point %ld: %s; run the sweep again, so that its points do not mix "
                              "two versions of the graph",
                              s->point, err);
            else
                msgtext_print(stderr,
                              "ptosim sweep: point %ld: %s; ptosim sweep --resume %s compiles the graph anew "
                              "and keeps the finished points",
                              s->point, err, word);
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
    sweep_point_dir(s, s->point, wd, sizeof(wd));
    snprintf(rowp, sizeof(rowp), "%s/row.csv", wd);
    char *text = sweep_read_file(rowp, NULL);
    const char *row;
    if (text && sweep_row_ok(text, &row)) {
        free(text);
        return EXIT_OK;
    }
    sweep_point_label_of(s, s->point, label, sizeof(label));
    snprintf(rel, sizeof(rel), "points/%04ld", s->point);
    sweep_report_missing(s->dir_abs, s->point, rel, label, pid > 0 ? st : -1, sweep_row_why(text));
    free(text);
    return EXIT_INTERNAL;
}

/* ---- engines past one machine ---- */

/* Writes the command that runs one point (the caller appends the index) with absolute paths. */
static void write_point_command(FILE *f, const sweep *s)
{
    sweep_sh_quote(f, s->exe);
    fputs(" sweep ", f);
    sweep_write_args(f, s);
    fputs(" -o ", f);
    sweep_sh_quote(f, s->dir_abs);
    fputs(" --point ", f);
}

/* Removes the row.csv of every point to run, so a collect never merges rows of an earlier sweep in the same
 * folder. */
static void remove_rows(const sweep *s)
{
    char path[PATH_MAX + 64];
    for (long t = 0; t < s->ntodo; t++) {
        sweep_point_dir(s, s->todo[t], path, sizeof(path) - 16);
        if (!sweep_point_is_folder(path))
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
int sweep_write_slurm(const sweep *s)
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
        sweep_sh_quote(f, s->cwd); /* where relative paths among the run options resolve */
        fputs(" || exit 1\nexec ", f);
        if (!which) {
            write_point_command(f, s);
            fputs("\"${SLURM_ARRAY_TASK_ID:?is not set: submit this script with sbatch}\"\n", f);
        } else {
            sweep_sh_quote(f, s->exe);
            fputs(" sweep --collect ", f);
            sweep_sh_quote(f, s->dir_abs);
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
int sweep_run_parallel(const sweep *s)
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
    return sweep_collect(s->dir_abs, NULL, 0);
}

/* ---- the graph, compiled once ---- */

/* Compiles GRAPH into DIR/graph.compiled and maps the file it wrote into gc: every point then maps these
 * records instead of parsing and checking the graph again, and a malformed graph stops the sweep before any
 * point runs. A compiled graph already there is never used (its hashes are no signature: one forged under
 * recomputed hashes passes them); it is read only to say which graph it was. Returns 0, or an exit status
 * after printing why. */
int sweep_compile_graph(const sweep *s, gcomp *gc)
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
int sweep_compile_gen_graphs(const sweep *s, gcomp *gcs)
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
        int n = sweep_gen_args(s, g, av, names);
        sweep_graph_file(s, g, "jsonl", path, sizeof(path));
        sweep_graph_file(s, g, "compiled", cpath, sizeof(cpath));
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
