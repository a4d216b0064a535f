/* perfsim_price.c - perfsim_: kernels priced by their own code under pto-isa's Perf-Sim. */
/* The compiler and harness runs (bounded in time, in their own process groups, dying with ptosim), keyed by
 * content in the cache (perfsim.c), and the checks that refuse a pto-isa tree known to measure wrong. */
#include "perfsim.h"

#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "perfsim_int.h"
#include "../../model/base/sha256.h"
#include "../cli/progress.h"
#include "../cli/stop_signal.h"

extern char **environ;

#define MAX_ARGV 40
#define BIN_MAX (1ull << 30) /* a compiled kernel larger than this is no harness ptosim built */

/* ---- content hashes: SHA-256, so that a key names its content whoever computed it ---- */

typedef sha256_ctx hkey;

static void h_init(hkey *h)
{
    sha256_init(h);
}

static void h_bytes(hkey *h, const void *p, size_t n)
{
    sha256_update(h, p, n);
}

/* A string with its length, so that "ab" + "c" and "a" + "bc" differ. */
static void h_str(hkey *h, const char *s)
{
    uint64_t n = strlen(s);
    h_bytes(h, &n, sizeof(n));
    h_bytes(h, s, n);
}

static void h_u64(hkey *h, uint64_t v)
{
    h_bytes(h, &v, sizeof(v));
}

static void h_hex(hkey *h, char out[SHA256_HEX])
{
    sha256_hex(h, out);
}

/* Hashes a regular file's contents into h; -1 when it cannot be read. A manifest names files a compile read: a
 * FIFO or a device there (/dev/zero) is no such file and would block or never end. */
static int h_file(hkey *h, const char *path)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return errno = EINVAL, -1;
    }
    char buf[65536];
    ssize_t n;
    uint64_t total = 0;
    while ((n = read(fd, buf, sizeof(buf))) > 0) {
        h_bytes(h, buf, (size_t)n);
        total += (uint64_t)n;
    }
    close(fd);
    h_u64(h, total);
    return n < 0 ? -1 : 0;
}

/* A regular file's digest (its content alone), into hex; -1 when it cannot be read. */
static int file_digest(const char *path, char hex[SHA256_HEX])
{
    hkey h;
    h_init(&h);
    if (h_file(&h, path) != 0)
        return -1;
    h_hex(&h, hex);
    return 0;
}

/* ---- the temporary folder's files ---- */

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Reads a whole small file of the temporary folder (at most max bytes). */
static char *slurp(const char *path, size_t max, size_t *len)
{
    return perfsim_slurp_fd(open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC), max, len);
}

/* A new file of the temporary folder (O_EXCL|O_NOFOLLOW) holding data. */
static int new_file(const char *path, const void *data, size_t len, mode_t mode)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
    if (fd < 0)
        return -1;
    if (perfsim_write_all(fd, data, len) != 0) {
        int e = errno;
        close(fd);
        unlink(path);
        return errno = e, -1;
    }
    return close(fd);
}

/* Empties the folder open as dfd, depth first, following no link; closes dfd. */
static void rm_under(int dfd)
{
    DIR *d = fdopendir(dfd);
    if (!d) {
        close(dfd);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        int sub = openat(dfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (sub >= 0) {
            rm_under(sub);
            unlinkat(dfd, e->d_name, AT_REMOVEDIR);
        } else {
            unlinkat(dfd, e->d_name, 0);
        }
    }
    closedir(d);
}

/* Removes the temporary folder ptosim made, and everything in it. */
static void rm_tree(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0)
        rm_under(fd);
    rmdir(dir);
}

/* ---- resolving the tools ---- */

/* The first of names found as an executable on the PATH, into out. */
static bool find_on_path(const char *const *names, char *out, size_t outlen)
{
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/bin:/bin";
    for (int i = 0; names[i]; i++) {
        if (strchr(names[i], '/')) {
            if (access(names[i], X_OK) == 0)
                return snprintf(out, outlen, "%s", names[i]) < (int)outlen;
            continue;
        }
        for (const char *p = path; *p;) {
            const char *e = strchr(p, ':');
            size_t n = e ? (size_t)(e - p) : strlen(p);
            char cand[PATH_MAX];
            if (n && snprintf(cand, sizeof(cand), "%.*s/%s", (int)n, p, names[i]) < (int)sizeof(cand) &&
                access(cand, X_OK) == 0 && is_file(cand))
                return snprintf(out, outlen, "%s", cand) < (int)outlen;
            p = e ? e + 1 : p + n;
        }
    }
    return false;
}

int perfsim_resolve(perfsim_opts *o, char *err, size_t errlen)
{
    static char cxx[PATH_MAX], cache[PATH_MAX];
    /* the flag, the environment, else the folders the how-to guide links where import runs (what import's
     * note on a plain import looks for too) */
    struct stat st;
    if (!o->pto_isa || !*o->pto_isa)
        o->pto_isa = getenv("PTO_ISA_ROOT");
    if ((!o->pto_isa || !*o->pto_isa) && stat("pto-isa", &st) == 0 && S_ISDIR(st.st_mode))
        o->pto_isa = "pto-isa";
    if (!o->runtime_root || !*o->runtime_root)
        o->runtime_root = getenv("SIMPLER_ROOT");
    if ((!o->runtime_root || !*o->runtime_root) && stat("simpler", &st) == 0 && S_ISDIR(st.st_mode))
        o->runtime_root = "simpler";
    if (!o->pto_isa || !*o->pto_isa)
        return perfsim_fail(err, errlen,
                            "--costs perf-sim needs a pto-isa tree: --pto-isa DIR, PTO_ISA_ROOT or a folder "
                            "pto-isa where import runs (pto-isa %s is known to work)",
                            PERFSIM_KNOWN_COMMIT);
    if (!o->runtime_root || !*o->runtime_root)
        return perfsim_fail(err, errlen,
                            "--costs perf-sim needs the runtime's tree for its kernels' headers "
                            "(simpler_setup/incore, src/common): --runtime-include DIR, SIMPLER_ROOT or a "
                            "folder simpler where import runs");
    char p[PATH_MAX];
    snprintf(p, sizeof(p), "%s/include/pto/costmodel/perf_sim/launch.hpp", o->pto_isa);
    if (!is_file(p))
        return perfsim_fail(err, errlen,
                            "%s: no pto-isa tree with Perf-Sim (include/pto/costmodel/perf_sim/launch.hpp "
                            "is missing; pto-isa %s is known to work)",
                            o->pto_isa, PERFSIM_KNOWN_COMMIT);
    static const char *const need[] = {"simpler_setup/incore/pipe_sync.h", "src/common/task_interface/tensor.h",
                                       NULL};
    for (int i = 0; need[i]; i++) {
        snprintf(p, sizeof(p), "%s/%s", o->runtime_root, need[i]);
        if (!is_file(p))
            return perfsim_fail(err, errlen, "%s: not the runtime's tree (%s is missing)", o->runtime_root,
                                need[i]);
    }
    if (!o->cxx) {
        const char *env = getenv("CXX");
        const char *const dflt[] = {"clang++-19", "clang++", NULL}, *const given[] = {env, NULL};
        if (!find_on_path(env && *env ? given : dflt, cxx, sizeof(cxx)))
            return perfsim_fail(err, errlen,
                                "no C++ compiler for the Perf-Sim harness: %s not found (set CXX; "
                                "clang++-19 is known to work)",
                                env && *env ? env : "clang++-19 or clang++");
        o->cxx = cxx;
    }
    if (!o->cache_dir) {
        const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
        if (x && *x)
            snprintf(cache, sizeof(cache), "%s/ptosim/perf-sim", x);
        else if (home && *home)
            snprintf(cache, sizeof(cache), "%s/.cache/ptosim/perf-sim", home);
        else
            return perfsim_fail(err, errlen,
                                "no cache folder for compiled kernels: give --cache DIR (HOME is not set)");
        o->cache_dir = cache;
    }
    if (o->jobs < 1) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        o->jobs = n > PERFSIM_JOBS_MAX ? PERFSIM_JOBS_MAX : n > 0 ? (int)n : 1;
    }
    if (!(o->time_limit > 0))
        o->time_limit = PERFSIM_TIME_LIMIT;
    return 0;
}

/* ---- processes: up to `jobs` at once, each in its own process group, bounded in time ---- */

typedef struct proc {
    const char *argv[MAX_ARGV];
    char in[PATH_MAX], out[PATH_MAX]; /* stdin ("" = /dev/null), stdout and stderr */
    pid_t pid;
    int status; /* waitpid's; -1 when it could not be started */
    bool running, timed_out;
    struct timespec start;
    const char *label; /* its kernel's name, for progress */
    size_t units;      /* what it does for progress: 1 compile, or its batch's signatures */
} proc;

/* How the processes of one pricing run. */
typedef struct runner {
    char *
        *envp; /* ptosim's environment with TMPDIR set to the temporary folder: their leftovers go with it */
    double limit; /* seconds each may take */
    int jobs;
    int progress; /* progress_mode */
} runner;

/* A stage of the work, as progress names it. */
typedef struct stage {
    const char *doing, *did, *failed, *unit; /* "compiling", "compiled", "failed to compile", "kernels" */
} stage;

/* The child's side of spawn(): only async-signal-safe calls between fork and exec. */
static void child(const proc *p, char **envp, pid_t parent)
{
    setpgid(0, 0);
    /* dies with ptosim even when ptosim is killed outright (SIGKILL); if ptosim died before this call, the
     * parent is already someone else */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(127);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    int in = open(*p->in ? p->in : "/dev/null", O_RDONLY),
        out = open(p->out, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0600);
    if (in < 0 || out < 0)
        _exit(127);
    if (in < 3)
        in = fcntl(in, F_DUPFD, 3);
    if (out < 3)
        out = fcntl(out, F_DUPFD, 3);
    if (in < 0 || out < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0)
        _exit(127);
    close(in);
    close(out);
    /* nothing else of ptosim's (the graph it writes aside, the cache's folders) reaches the compiler or kernel */
#ifdef SYS_close_range
    if (syscall(SYS_close_range, 3u, ~0u, 0u) != 0)
#endif
        for (int fd = 3; fd < 1024; fd++)
            close(fd);
    execve(p->argv[0], (char *const *)p->argv, envp);
    static const char msg[] = "error: cannot start ";
    if (write(2, msg, sizeof(msg) - 1) >= 0 && write(2, p->argv[0], strlen(p->argv[0])) >= 0)
        (void)!write(2, "\n", 1);
    _exit(127);
}

static int spawn(proc *p, char **envp)
{
    pid_t parent = getpid(), pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0)
        child(p, envp, parent);
    setpgid(pid, pid); /* the child asks too: whichever comes first, kill(-pid) finds the group */
    p->pid = pid;
    p->running = true;
    clock_gettime(CLOCK_MONOTONIC, &p->start);
    return 0;
}

static double since(const struct timespec *t)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t->tv_sec) + (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

/* Kills what is left of p's process group (the leader unreaped keeps the group's id from reuse), then reaps
 * the leader. */
static void finish(proc *p, bool kill_leader)
{
    kill(-p->pid, SIGKILL);
    if (kill_leader)
        kill(p->pid, SIGKILL);
    int st;
    while (waitpid(p->pid, &st, 0) < 0 && errno == EINTR)
        ;
    p->status = st;
    p->running = false;
}

static bool exited_ok(const proc *p);

/* The terminal's one line: what runs, how far the stage is, and an estimate of what is left. */
static void progress_draw(const stage *sg, const proc *ps, size_t next, size_t done, size_t total, double t0)
{
    char names[160] = "";
    size_t len = 0, shown = 0;
    for (size_t i = 0; i < next && len < sizeof(names); i++)
        if (ps[i].running && shown++ < 3)
            len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s", len ? ", " : " ", ps[i].label);
    if (shown > 3 && len < sizeof(names))
        snprintf(names + len, sizeof(names) - len, " ...");
    double spent = progress_now() - t0;
    if (done && done < total)
        progress_redraw("ptosim: perf-sim: %s%s (%zu/%zu %s, %.0f s, about %.0f s left)", sg->doing, names, done,
                        total, sg->unit, spent, spent * (double)(total - done) / (double)done);
    else
        progress_redraw("ptosim: perf-sim: %s%s (%zu/%zu %s, %.0f s)", sg->doing, names, done, total, sg->unit,
                        spent);
}

/* Runs every process, `jobs` at a time; what each printed goes to its out file. One that runs past the time
 * limit is killed with its group (timed_out). A SIGINT or SIGTERM kills them all: -1. Progress: a line as each
 * ends (PROGRESS_LINES), or the terminal's one line redrawn (PROGRESS_TERMINAL). */
static int run_all(const runner *rn, proc *ps, size_t n, const stage *sg)
{
    size_t next = 0, running = 0, done = 0, units = 0, total = 0;
    for (size_t i = 0; i < n; i++)
        total += ps[i].units;
    long nap_us = 1000;
    double t0 = progress_now(), drawn = 0;
    bool tty = rn->progress == PROGRESS_TERMINAL && n, redraw = true;
    while (done < n) {
        if (intr_signal()) {
            for (size_t i = 0; i < next; i++)
                if (ps[i].running)
                    finish(&ps[i], true);
            if (tty)
                progress_redraw(NULL);
            return -1;
        }
        bool ended = false;
        while (running < (size_t)rn->jobs && next < n) {
            if (spawn(&ps[next], rn->envp) == 0)
                running++;
            else {
                ps[next].status = -1;
                done++;
                units += ps[next].units;
                ended = true;
            }
            next++;
        }
        /* drawn once the next ones started, so that the line names what runs now */
        if (tty && (redraw || progress_now() - drawn >= 0.25)) {
            progress_draw(sg, ps, next, units, total, t0);
            drawn = progress_now();
        }
        for (size_t i = 0; i < next; i++) {
            if (!ps[i].running)
                continue;
            siginfo_t si;
            si.si_pid = 0; /* waitid leaves it unset when nothing changed */
            bool exited =
                waitid(P_PID, (id_t)ps[i].pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid != 0;
            if (!exited && since(&ps[i].start) < rn->limit)
                continue;
            ps[i].timed_out = !exited;
            finish(&ps[i], !exited);
            running--;
            done++;
            units += ps[i].units;
            ended = true;
            if (rn->progress == PROGRESS_LINES)
                fprintf(stderr, "ptosim: perf-sim: %s %s (%zu/%zu %s)\n", exited_ok(&ps[i]) ? sg->did : sg->failed,
                        ps[i].label, units, total, sg->unit);
        }
        redraw = ended;
        if (ended) {
            nap_us = 1000;
            continue;
        }
        /* a signal cuts the nap short (no SA_RESTART); the naps grow to 50 ms while nothing ends */
        struct timespec nap = {0, nap_us * 1000};
        nanosleep(&nap, NULL);
        nap_us = nap_us < 50000 ? nap_us * 2 : 50000;
    }
    if (tty)
        progress_redraw(NULL);
    return 0;
}

static bool exited_ok(const proc *p)
{
    return p->status >= 0 && !p->timed_out && WIFEXITED(p->status) && WEXITSTATUS(p->status) == 0;
}

/* A signal's name as kill -l gives it ("SIGSEGV"), or its number. */
static const char *signal_name(int sig, char *buf, size_t len)
{
    static const struct {
        int sig;
        const char *name;
    } names[] = {{SIGSEGV, "SIGSEGV"}, {SIGBUS, "SIGBUS"},   {SIGABRT, "SIGABRT"}, {SIGFPE, "SIGFPE"},
                 {SIGILL, "SIGILL"},   {SIGKILL, "SIGKILL"}, {SIGTERM, "SIGTERM"}, {SIGTRAP, "SIGTRAP"},
                 {SIGSYS, "SIGSYS"},   {SIGPIPE, "SIGPIPE"}, {SIGXCPU, "SIGXCPU"}, {SIGXFSZ, "SIGXFSZ"}};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (names[i].sig == sig)
            return names[i].name;
    snprintf(buf, len, "signal %d", sig);
    return buf;
}

/* Why a harness run that wrote no results failed: the signal that killed it (a crash, not a compile), its exit
 * status, or that it could not start; with what it printed. */
static void run_failure(const proc *p, const char *printed, char *why, size_t len)
{
    char sb[32];
    if (p->status < 0)
        snprintf(why, len, "its Perf-Sim run could not be started");
    else if (WIFSIGNALED(p->status))
        snprintf(why, len, "its Perf-Sim run was killed by %s (%s)", signal_name(WTERMSIG(p->status), sb, sizeof(sb)),
                 printed);
    else if (WIFEXITED(p->status) && WEXITSTATUS(p->status) != 0)
        snprintf(why, len, "its Perf-Sim run failed with exit status %d (%s)", WEXITSTATUS(p->status), printed);
    else
        snprintf(why, len, "its Perf-Sim run wrote no results (%s)", printed);
}

/* The first "error:" line of a compiler's or a run's log (or its first line), trimmed, into out; none what
 * to say when it printed nothing. */
static void first_error(const char *log, char *out, size_t outlen, const char *none)
{
    size_t len;
    char *t = slurp(log, 64u << 20, &len);
    const char *line = NULL;
    if (t) {
        for (char *s = t; s && *s;) {
            char *e = strchr(s, '\n');
            if (e)
                *e = '\0';
            if (!line && *s)
                line = s; /* the first line, unless an error line comes */
            if (strstr(s, "error:")) {
                line = s;
                break;
            }
            s = e ? e + 1 : NULL;
        }
    }
    snprintf(out, outlen, "%s", line ? line : none);
    free(t);
}

/* ---- compiling ---- */

/* The trees a compile reads, by their real paths: a manifest names each file a compile read by its place under
 * one of them, so that two spellings or two copies of one tree are one tree to the cache. */
typedef struct roots {
    char pto[PATH_MAX], rt[PATH_MAX];
} roots;

static const char *const COMPILE_FLAGS[] = {"-std=c++23", "-xc++", "-include", "stdint.h", "-include", "stddef.h",
                                            "-D__COSTMODEL", "-D__NPU_ARCH__=2201", "-DPTO_COMM_NOT_SUPPORTED", "-O2",
                                            "-w", NULL};

/* The include path: pto-isa's stubs first (root 0); then the runtime's incore headers (root 1). */
#define NINC 7
static const struct {
    int root;
    const char *sub;
} INCS[NINC] = {{0, "/include/pto/costmodel/stubs"}, {0, "/include"}, {0, "/include/pto"},
                {1, "/simpler_setup/incore"},        {1, "/src/common/task_interface"},
                {1, "/src/common"},                  {1, "/src/common/platform/include"}};

typedef struct kbuild {
    char key[SHA256_HEX];    /* the compile's: harness, compiler, flags without their paths, core, the kernel's
                              * bytes; names its manifest (dep/) */
    char binkey[SHA256_HEX]; /* the binary's: the key and the manifest, which holds every file read by digest */
    char digest[SHA256_HEX]; /* the binary's SHA-256: its results' key holds it */
    char real[PATH_MAX], kdir[PATH_MAX]; /* the kernel's real path, and its folder */
    char run[PATH_MAX];      /* the binary to run, in the temporary folder; "" until known */
    char tmp_bin[PATH_MAX], tmp_dep[PATH_MAX], log[PATH_MAX];
    const char *argv[MAX_ARGV];
    char defkernel[PATH_MAX + 32], incs[NINC][PATH_MAX + 40];
    int argc;
} kbuild;

/* The real path of a tree, or the path as given when it has none. */
static void real_or_given(const char *path, char out[PATH_MAX])
{
    if (!realpath(path, out))
        snprintf(out, PATH_MAX, "%s", path);
}

/* The compile's command line, all but the output and dep file; the harness (in the temporary folder) last. */
static void compile_argv(const perfsim_opts *o, const roots *rts, const perfsim_kernel *k, const char *harness,
                         kbuild *b)
{
    int n = 0;
    b->argv[n++] = o->cxx;
    for (int i = 0; COMPILE_FLAGS[i]; i++)
        b->argv[n++] = COMPILE_FLAGS[i];
    b->argv[n++] = k->aic ? "-D__DAV_CUBE__" : "-D__DAV_VEC__";
    for (int i = 0; i < NINC; i++) {
        snprintf(b->incs[i], sizeof(b->incs[i]), "-I%s%s", INCS[i].root ? rts->rt : rts->pto, INCS[i].sub);
        b->argv[n++] = b->incs[i];
    }
    snprintf(b->defkernel, sizeof(b->defkernel), "-DPTOSIM_KERNEL=\"%s\"", b->real);
    b->argv[n++] = b->defkernel;
    b->argv[n++] = harness;
    b->argc = n;
}

static void h_compiler(hkey *h, const char *cxx);

/* The compile's key: what it is given, by content and without any path. -1 when the kernel cannot be read. */
static int compile_key(const perfsim_opts *o, const perfsim_kernel *k, kbuild *b)
{
    hkey h;
    h_init(&h);
    h_str(&h, CACHE_FORMAT);
    h_str(&h, "compile");
    h_str(&h, perfsim_harness_src); /* the harness by its text: its path changes with every import */
    h_compiler(&h, o->cxx);
    for (int i = 0; COMPILE_FLAGS[i]; i++)
        h_str(&h, COMPILE_FLAGS[i]);
    h_str(&h, k->aic ? "-D__DAV_CUBE__" : "-D__DAV_VEC__");
    for (int i = 0; i < NINC; i++) {
        h_u64(&h, (uint64_t)INCS[i].root);
        h_str(&h, INCS[i].sub);
    }
    if (h_file(&h, b->real) != 0)
        return -1;
    h_hex(&h, b->key);
    return 0;
}

/* The binary's key, from the compile's and its manifest. */
static void set_binkey(kbuild *b, const char *manifest)
{
    hkey h;
    h_init(&h);
    h_str(&h, CACHE_FORMAT);
    h_str(&h, "bin");
    h_str(&h, b->key);
    h_str(&h, manifest);
    h_hex(&h, b->binkey);
}

/* ---- the manifest: every file a compile read, by its place under the root it was found in, and its digest.
 * One line each, "ROOT DIGEST PLACE": ROOT kdir (the kernel's folder), pto, rt (the two trees) or abs (anywhere
 * else, PLACE its absolute path); "kno - PLACE" says the kernel's folder has no such file. ---- */

typedef struct ment {
    char root[5];
    char digest[SHA256_HEX];
    char *place, *real; /* real: its real path (NULL for kno) */
    bool scanned;       /* its quoted includes looked for (a file of the kernel's folder) */
} ment;

typedef struct mlist {
    ment *e;
    size_t n, cap;
} mlist;

static void mlist_free(mlist *m)
{
    for (size_t i = 0; i < m->n; i++) {
        free(m->e[i].place);
        free(m->e[i].real);
    }
    free(m->e);
}

static int mlist_add(mlist *m, const char *root, const char *digest, const char *place, const char *real)
{
    if (strchr(place, '\n'))
        return errno = EINVAL, -1; /* a manifest line holds one place */
    if (m->n == m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 64;
        ment *e = realloc(m->e, cap * sizeof(*e));
        if (!e)
            return -1;
        m->e = e;
        m->cap = cap;
    }
    ment *x = &m->e[m->n];
    snprintf(x->root, sizeof(x->root), "%s", root);
    snprintf(x->digest, sizeof(x->digest), "%s", digest);
    x->place = strdup(place);
    x->real = real ? strdup(real) : NULL;
    x->scanned = false;
    if (!x->place || (real && !x->real)) {
        free(x->place);
        free(x->real);
        return errno = ENOMEM, -1;
    }
    m->n++;
    return 0;
}

/* path's place under root (a real path), or NULL when it is not under it. */
static const char *under(const char *root, const char *path)
{
    size_t n = strlen(root);
    return n && strncmp(path, root, n) == 0 && path[n] == '/' ? path + n + 1 : NULL;
}

static ment *by_real(mlist *m, const char *real)
{
    for (size_t i = 0; i < m->n; i++)
        if (m->e[i].real && strcmp(m->e[i].real, real) == 0)
            return &m->e[i];
    return NULL;
}

/* What a file includes by quotes is looked for first beside it: for the kernel and every file found in its
 * folder, each such name is listed by its place in that folder (a file there, or kno when there is none), so
 * that a kernel moved beside another header of that name is compiled again. */
static int quoted_places(mlist *m, const kbuild *b, const char *file, const char *place)
{
    char *t = slurp(file, 64u << 20, NULL);
    if (!t)
        return 0; /* read by digest already; a file that cannot be scanned adds nothing it could name */
    int rc = 0;
    const char *slash = strrchr(place, '/');
    int dlen = slash ? (int)(slash - place) + 1 : 0;
    for (char *s = t; s && *s && rc == 0;) {
        char *e = strchr(s, '\n');
        if (e)
            *e = '\0';
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s == '#') {
            s++;
            while (*s == ' ' || *s == '\t')
                s++;
            char *q;
            if (strncmp(s, "include", 7) == 0 && (q = strchr(s + 7, '"')) && q[1] != '/' && strchr(q + 1, '"')) {
                char name[PATH_MAX], path[2 * PATH_MAX], real[PATH_MAX];
                *strchr(q + 1, '"') = '\0';
                snprintf(name, sizeof(name), "%.*s%s", dlen, place, q + 1);
                snprintf(path, sizeof(path), "%s/%s", b->kdir, name);
                ment *x;
                if (realpath(path, real) && is_file(real)) {
                    if ((x = by_real(m, real)) && strcmp(x->root, "kdir") != 0) {
                        char *p = strdup(name);
                        if (!p)
                            rc = -1;
                        else {
                            free(x->place);
                            x->place = p;
                            snprintf(x->root, sizeof(x->root), "kdir");
                        }
                    } else if (!x && strcmp(real, b->real) != 0) {
                        char hex[SHA256_HEX];
                        rc = file_digest(real, hex) == 0 ? mlist_add(m, "kdir", hex, name, real) : -1;
                    }
                } else {
                    bool have = false;
                    for (size_t i = 0; i < m->n && !have; i++)
                        have = !m->e[i].real && strcmp(m->e[i].place, name) == 0;
                    if (!have)
                        rc = mlist_add(m, "kno", "-", name, NULL);
                }
            }
        }
        s = e ? e + 1 : NULL;
    }
    free(t);
    return rc;
}

static int ment_cmp(const void *x, const void *y)
{
    const ment *a = x, *b = y;
    int c = strcmp(a->root, b->root);
    return c ? c : strcmp(a->place, b->place);
}

/* The manifest of a compile from the files its dep list names (one a line). NULL with errno. */
static char *make_manifest(const char *deps, const roots *rts, const kbuild *b)
{
    mlist m = {0};
    char *out = NULL;
    const char *s = deps;
    while (*s) {
        const char *e = strchr(s, '\n');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        char path[PATH_MAX], real[PATH_MAX], hex[SHA256_HEX];
        if (n >= sizeof(path)) {
            errno = ENAMETOOLONG;
            goto out;
        }
        memcpy(path, s, n);
        path[n] = '\0';
        s += n + (e != NULL);
        if (!n)
            continue;
        if (!realpath(path, real) || file_digest(real, hex) != 0)
            goto out;
        if (strcmp(real, b->real) == 0 || by_real(&m, real))
            continue; /* the kernel's bytes are in the key */
        /* a tree's file by its place in the tree (the deeper, when one tree holds the other); a file the kernel
         * reaches by a quoted include is moved to its folder's below (quoted_places) */
        const char *p = under(rts->pto, real), *r = under(rts->rt, real), *k = under(b->kdir, real);
        bool pto = p && (!r || strlen(p) < strlen(r));
        const char *place = pto ? p : r ? r : k ? k : real;
        const char *root = pto ? "pto" : r ? "rt" : k ? "kdir" : "abs";
        if (mlist_add(&m, root, hex, place, real) != 0)
            goto out;
    }
    const char *base = strrchr(b->real, '/');
    if (quoted_places(&m, b, b->real, base ? base + 1 : b->real) != 0)
        goto out;
    /* until every file of the kernel's folder is scanned: a scan may add one, or move one there */
    for (bool again = true; again;) {
        again = false;
        for (size_t i = 0; i < m.n; i++)
            if (m.e[i].real && !m.e[i].scanned && strcmp(m.e[i].root, "kdir") == 0) {
                m.e[i].scanned = again = true;
                char *place = strdup(m.e[i].place), *real = strdup(m.e[i].real); /* m.e may move */
                int rc = place && real ? quoted_places(&m, b, real, place) : -1;
                free(place);
                free(real);
                if (rc != 0)
                    goto out;
            }
    }
    qsort(m.e, m.n, sizeof(*m.e), ment_cmp);
    size_t len = 1;
    for (size_t i = 0; i < m.n; i++)
        len += strlen(m.e[i].root) + strlen(m.e[i].digest) + strlen(m.e[i].place) + 3;
    if (!(out = malloc(len)))
        goto out;
    size_t w = 0;
    for (size_t i = 0; i < m.n; i++)
        w += (size_t)snprintf(out + w, len - w, "%s %s %s\n", m.e[i].root, m.e[i].digest, m.e[i].place);
    out[w] = '\0';
out:
    mlist_free(&m);
    return out;
}

/* Does every file a manifest lists hold what it held, found under today's roots? A line that does not read is
 * a miss, as is a file that is gone or is no regular file. */
static bool manifest_holds(const char *text, const roots *rts, const kbuild *b)
{
    for (const char *s = text; *s;) {
        const char *e = strchr(s, '\n');
        if (!e)
            return false;
        char line[2 * PATH_MAX], path[3 * PATH_MAX], hex[SHA256_HEX];
        size_t n = (size_t)(e - s);
        if (n >= sizeof(line))
            return false;
        memcpy(line, s, n);
        line[n] = '\0';
        s = e + 1;
        char *d = strchr(line, ' '), *place = d ? strchr(d + 1, ' ') : NULL;
        if (!place || !place[1])
            return false;
        *d++ = '\0';
        *place++ = '\0';
        if (strcmp(line, "kdir") == 0 || strcmp(line, "kno") == 0)
            snprintf(path, sizeof(path), "%s/%s", b->kdir, place);
        else if (strcmp(line, "pto") == 0 || strcmp(line, "rt") == 0)
            snprintf(path, sizeof(path), "%s/%s", line[0] == 'p' ? rts->pto : rts->rt, place);
        else if (strcmp(line, "abs") == 0 && place[0] == '/')
            snprintf(path, sizeof(path), "%s", place);
        else
            return false;
        if (strcmp(line, "kno") == 0) {
            struct stat st;
            if (stat(path, &st) == 0 || (errno != ENOENT && errno != ENOTDIR))
                return false;
            continue;
        }
        if (file_digest(path, hex) != 0 || strcmp(hex, d) != 0)
            return false;
    }
    return true;
}

/* The binary's key from the compile's manifest (in the cache): 1 known, 0 unknown (no manifest, or a file it
 * lists changed or is gone), -1 refused. */
static int binary_key(const cache *c, const roots *rts, kbuild *b, char *err, size_t errlen)
{
    char *man;
    size_t len;
    int rc = perfsim_entry_read(c, SUB_DEP, b->key, "dep", 64u << 20, &man, &len, err, errlen);
    if (rc <= 0)
        return rc;
    if (strlen(man) != len || !manifest_holds(man, rts, b))
        rc = 0;
    else
        set_binkey(b, man);
    free(man);
    return rc;
}

/* The kernel's real path, folder, command line and key; false (the kernel failed, said why) when it cannot be
 * compiled. */
static bool prepare(const perfsim_opts *o, const roots *rts, perfsim_kernel *k, const char *harness, kbuild *b)
{
    if (strpbrk(k->source, "\"\\\n")) {
        k->failed = true;
        snprintf(k->why, sizeof(k->why), "its source path %s has a quote, backslash or newline", k->source);
        return false;
    }
    if (!is_file(k->source) || !realpath(k->source, b->real)) {
        k->failed = true;
        snprintf(k->why, sizeof(k->why), "%s: no such file", k->source);
        return false;
    }
    snprintf(b->kdir, sizeof(b->kdir), "%s", b->real);
    *strrchr(b->kdir, '/') = '\0';
    compile_argv(o, rts, k, harness, b);
    if (compile_key(o, k, b) != 0) {
        k->failed = true;
        snprintf(k->why, sizeof(k->why), "%s: cannot read: %s", k->source, strerror(errno));
        return false;
    }
    return true;
}

/* Appends one name of a dep file to the list at *w, unless it is under skip (the temporary folder). */
static void dep_name(char **w, char *start, const char *skip, size_t skiplen)
{
    if (*w == start)
        return;
    if ((size_t)(*w - start) >= skiplen && memcmp(start, skip, skiplen) == 0) {
        *w = start;
        return;
    }
    *(*w)++ = '\n';
}

/* A make-style dep file ("target: a b \\\n c") as one path a line, the names unescaped as clang and GCC write
 * them: a space or tab after 2N+1 backslashes is N backslashes and the space (after 2N: N backslashes, then
 * the name ends), "\#" is '#' (clang doubles the backslashes before it, as before a space), "$$" is '$', a
 * backslash before a newline joins the lines, any other backslash is itself. A name that is not a rule's
 * target is a file the compile read; those under skip (the temporary folder: the harness, copied there) are
 * left out, the harness's text being in the key already. */
static char *dep_list(const char *depfile, const char *skip)
{
    size_t len, skiplen = strlen(skip);
    char *t = slurp(depfile, 64u << 20, &len);
    if (!t)
        return NULL;
    char *out = malloc(len + 2), *w = out, *start = out;
    if (!out) {
        free(t);
        return NULL;
    }
    bool target = true; /* the names before a rule's colon */
    for (size_t i = 0; i <= len; i++) {
        char ch = t[i];
        bool space = ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\0';
        if (ch == '\\') {
            size_t n = 0;
            while (i + n < len && t[i + n] == '\\')
                n++;
            char next = t[i + n];
            if (next == '\n' || (next == '\r' && t[i + n + 1] == '\n')) { /* a continued line */
                for (size_t k = 0; k + 1 < n; k++)
                    *w++ = '\\';
                i += n + (next == '\r');
                space = true;
                ch = ' ';
            } else if (next == ' ' || next == '\t' || next == '#') {
                for (size_t k = 0; k < n / 2; k++)
                    *w++ = '\\';
                if (n % 2 || next == '#') { /* an escaped space, or '#' (a compiler never writes a comment) */
                    *w++ = next;
                    i += n;
                    continue;
                }
                i += n - 1; /* N backslashes end the name; the space is read next */
                continue;
            } else {
                for (size_t k = 0; k < n; k++)
                    *w++ = '\\';
                i += n - 1;
                continue;
            }
        }
        if (space) {
            if (!target)
                dep_name(&w, start, skip, skiplen);
            else
                w = start;
            start = w;
            if (ch == '\n')
                target = true; /* a new rule (-MP's empty ones: their colon ends the name) */
            continue;
        }
        if (target && ch == ':' &&
            (i + 1 >= len || strchr(" \t\r\n", t[i + 1]) ||
             (t[i + 1] == '\\' && (t[i + 2] == '\n' || t[i + 2] == '\r')))) {
            w = start; /* the name before it is a target */
            target = false;
            continue;
        }
        if (ch == '$' && t[i + 1] == '$')
            i++;
        *w++ = ch;
    }
    *w = '\0';
    free(t);
    return out;
}

/* The compiler's identity for the cache: its resolved path, size and modification time. */
static void h_compiler(hkey *h, const char *cxx)
{
    char real[PATH_MAX];
    const char *names[] = {cxx, NULL};
    char found[PATH_MAX];
    const char *path = find_on_path(names, found, sizeof(found)) ? found : cxx;
    if (!realpath(path, real))
        snprintf(real, sizeof(real), "%s", path);
    struct stat st;
    h_str(h, real);
    if (stat(real, &st) == 0) {
        h_u64(h, (uint64_t)st.st_size);
        h_u64(h, (uint64_t)st.st_mtim.tv_sec);
        h_u64(h, (uint64_t)st.st_mtim.tv_nsec);
    }
}

/* Compiles the kernels that have no cached binary, `jobs` at once; every kernel's binary ends in the
 * temporary folder (a checked copy of the cached one, or the compiler's output, stored in the cache too). */
static int compile_kernels(const perfsim_opts *o, const runner *rn, cache *c, perfsim_kernel *ks, int nk,
                           const bool *want, kbuild *bs, const char *work, char *err, size_t errlen)
{
    char harness[PATH_MAX], skip[PATH_MAX];
    snprintf(harness, sizeof(harness), "%.4000s/harness.cpp", work);
    snprintf(skip, sizeof(skip), "%.4000s/", work);
    if (new_file(harness, perfsim_harness_src, strlen(perfsim_harness_src), 0600) != 0)
        return perfsim_fail(err, errlen, "%s: cannot write the harness source: %s", harness, strerror(errno));
    proc *ps = calloc((size_t)nk, sizeof(*ps));
    int *which = calloc((size_t)nk, sizeof(*which));
    if (!ps || !which) {
        free(ps);
        free(which);
        return perfsim_fail(err, errlen, "out of memory");
    }
    roots rts;
    real_or_given(o->pto_isa, rts.pto);
    real_or_given(o->runtime_root, rts.rt);
    size_t np = 0, nwant = 0;
    int rc = 0;
    for (int i = 0; i < nk && rc == 0; i++) {
        if (!want[i])
            continue;
        nwant++;
        kbuild *b = &bs[i];
        perfsim_kernel *k = &ks[i];
        if (!prepare(o, &rts, k, harness, b))
            continue;
        int known = binary_key(c, &rts, b, err, errlen);
        if (known > 0) {
            snprintf(b->run, sizeof(b->run), "%.4000s/k%d.run", work, i);
            known = perfsim_entry_copy_bin(c, b->binkey, b->run, b->digest, err, errlen);
        }
        if (known < 0) {
            rc = -1;
            break;
        }
        if (known > 0)
            continue; /* compiled before, from files with these very bytes */
        b->run[0] = '\0';
        snprintf(b->tmp_bin, sizeof(b->tmp_bin), "%.4000s/k%d.bin", work, i);
        snprintf(b->tmp_dep, sizeof(b->tmp_dep), "%.4000s/k%d.d", work, i);
        snprintf(b->log, sizeof(b->log), "%.4000s/k%d.log", work, i);
        proc *p = &ps[np];
        memcpy(p->argv, b->argv, sizeof(b->argv[0]) * (size_t)b->argc);
        int n = b->argc;
        p->argv[n++] = "-MD";
        p->argv[n++] = "-MF";
        p->argv[n++] = b->tmp_dep;
        p->argv[n++] = "-o";
        p->argv[n++] = b->tmp_bin;
        p->argv[n] = NULL;
        p->label = k->name;
        p->units = 1;
        snprintf(p->out, sizeof(p->out), "%s", b->log);
        which[np++] = i;
    }
    if (rc == 0 && nwant && o->progress != PROGRESS_QUIET) {
        if (np < nwant)
            fprintf(stderr, "ptosim: perf-sim: %zu of %zu kernel%s compiled before, from the cache\n", nwant - np,
                    nwant, nwant == 1 ? "" : "s");
        if (np)
            fprintf(stderr, "ptosim: perf-sim: compiling %zu kernel%s with %s (-j %d)\n", np,
                    np == 1 ? "" : "s", o->cxx, rn->jobs);
    }
    static const stage compiling = {"compiling", "compiled", "failed to compile", "kernels"};
    if (rc == 0 && run_all(rn, ps, np, &compiling) != 0)
        rc = perfsim_fail(err, errlen, "interrupted by %s", intr_name(intr_signal()));
    for (size_t j = 0; j < np && rc == 0; j++) {
        int i = which[j];
        kbuild *b = &bs[i];
        perfsim_kernel *k = &ks[i];
        if (ps[j].timed_out) {
            k->failed = true;
            snprintf(k->why, sizeof(k->why),
                     "its compile was killed after %g s, the time limit (--time-limit "
                     "SECONDS raises it)",
                     rn->limit);
            continue;
        }
        if (!exited_ok(&ps[j])) {
            char first[PERFSIM_MSG_MAX - 64];
            if (ps[j].status < 0)
                snprintf(first, sizeof(first), "%s could not be started", o->cxx);
            else
                first_error(b->log, first, sizeof(first), "(the compiler printed nothing)");
            /* an error inside pto-isa's own headers is the tree's, not the kernel's */
            if (strncmp(first, o->pto_isa, strlen(o->pto_isa)) == 0 ||
                strncmp(first, rts.pto, strlen(rts.pto)) == 0 || strstr(first, "/include/pto/")) {
                rc = perfsim_fail(
                    err, errlen,
                    "the pto-isa tree at %s does not compile under __COSTMODEL (kernel %s, first error: %s); "
                    "pto-isa %s is known to work",
                    o->pto_isa, k->name, first, PERFSIM_KNOWN_COMMIT);
                break;
            }
            k->failed = true;
            snprintf(k->why, sizeof(k->why), "does not compile: %s", first);
            continue;
        }
        char *deps = dep_list(b->tmp_dep, skip);
        char *man = deps ? make_manifest(deps, &rts, b) : NULL;
        if (!man || perfsim_entry_put(c, SUB_DEP, b->key, "dep", man, strlen(man), true, NULL) != 0) {
            rc = perfsim_fail(err, errlen, "%s: cannot record kernel %s's dependencies: %s", o->cache_dir,
                              k->name, strerror(errno));
            free(deps);
            free(man);
            break;
        }
        set_binkey(b, man);
        free(deps);
        free(man);
        size_t len;
        char *bin = slurp(b->tmp_bin, BIN_MAX, &len);
        if (!bin || perfsim_entry_put(c, SUB_BIN, b->binkey, "bin", bin, len, true, b->digest) != 0) {
            rc = perfsim_fail(err, errlen, "%s/bin/%s: cannot store kernel %s's binary: %s", o->cache_dir,
                              b->binkey, k->name, strerror(errno));
            free(bin);
            break;
        }
        free(bin);
        snprintf(b->run, sizeof(b->run), "%s", b->tmp_bin);
    }
    free(ps);
    free(which);
    return rc;
}

/* ---- running ---- */

/* A batch's files: what it prints its results to, and Perf-Sim's output folder. */
struct runpaths {
    char res[PATH_MAX], out[PATH_MAX];
};

static void h_sig(hkey *h, const perfsim_sig *s)
{
    h_u64(h, (uint64_t)s->block_num);
    h_u64(h, (uint64_t)s->nslots);
    for (int i = 0; i < s->nslots; i++) {
        const perfsim_arg *a = &s->arg[i];
        uint64_t head[6] = {a->used, a->scalar, a->value, (uint64_t)a->dtype, (uint64_t)a->ndim, a->start};
        h_bytes(h, head, sizeof(head));
        h_bytes(h, a->shape, sizeof(a->shape[0]) * (size_t)a->ndim);
        h_bytes(h, a->stride, sizeof(a->stride[0]) * (size_t)a->ndim);
        h_u64(h, a->buffer_elems);
        h_u64(h, a->data ? a->datalen : UINT64_MAX);
        if (a->data)
            h_bytes(h, a->data, a->datalen);
    }
}

/* A result's key: the binary it ran (by its SHA-256) and the signature. */
static void res_key(const char *digest, const perfsim_sig *s, char out[SHA256_HEX])
{
    hkey h;
    h_init(&h);
    h_str(&h, CACHE_FORMAT);
    h_str(&h, digest);
    h_sig(&h, s);
    h_hex(&h, out);
}

/* The key of the entry (in dep/) naming the source the last pricing of a kernel of this name and core used. */
static void src_key(const char *name, bool aic, char out[SHA256_HEX])
{
    hkey h;
    h_init(&h);
    h_str(&h, CACHE_FORMAT);
    h_str(&h, "src");
    h_str(&h, name);
    h_str(&h, aic ? "aic" : "aiv");
    h_hex(&h, out);
}

static int write_spec(FILE *f, size_t id, const perfsim_sig *s)
{
    fprintf(f, "sig %zu\nb 0 %d\n", id, s->block_num > 0 ? s->block_num : 1);
    for (int i = 0; i < s->nslots; i++) {
        const perfsim_arg *a = &s->arg[i];
        if (!a->used)
            continue;
        if (a->scalar) {
            fprintf(f, "s %d %" PRIu64 "\n", i, a->value);
            continue;
        }
        fprintf(f, "t %d %d %d", i, a->dtype, a->ndim);
        for (int d = 0; d < a->ndim; d++)
            fprintf(f, " %" PRIu32, a->shape[d]);
        for (int d = 0; d < a->ndim; d++)
            fprintf(f, " %" PRIu32, a->stride[d]);
        fprintf(f, " %" PRIu64 " %" PRIu64 " %zu ", a->start, a->buffer_elems, a->data ? a->datalen : 0);
        if (a->data && a->datalen)
            for (size_t b = 0; b < a->datalen; b++)
                fprintf(f, "%02x", a->data[b]);
        else
            fputc('-', f);
        fputc('\n', f);
    }
    fputs("go\n", f);
    return ferror(f) ? -1 : 0;
}

/* Does the kernel's own source call set_flag (itself, or through the runtime's pipe_sync())? */
static bool calls_set_flag(const char *source)
{
    char *t = slurp(source, 64u << 20, NULL);
    bool yes = t && (strstr(t, "set_flag") || strstr(t, "pipe_sync()"));
    free(t);
    return yes;
}

/* ptosim's environment for the processes it starts, with TMPDIR the temporary folder (malloc'd). */
static char **child_env(const char *work, char *tmpdir_var, size_t varlen)
{
    size_t n = 0;
    while (environ && environ[n])
        n++;
    char **env = calloc(n + 2, sizeof(*env));
    if (!env)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "TMPDIR=", 7) != 0)
            env[k++] = environ[i];
    snprintf(tmpdir_var, varlen, "TMPDIR=%s", work);
    env[k++] = tmpdir_var;
    env[k] = NULL;
    return env;
}

static int price(const perfsim_opts *o, cache *c, const char *work, perfsim_kernel *kernels, int nkernels,
                 const perfsim_sig *sigs, size_t nsigs, perfsim_result *res, char *err, size_t errlen);

int perfsim_price(const perfsim_opts *o, perfsim_kernel *kernels, int nkernels, const perfsim_sig *sigs,
                  size_t nsigs, perfsim_result *res, char *err, size_t errlen)
{
    cache c;
    if (perfsim_cache_open(o, &c, err, errlen) != 0) {
        perfsim_cache_close(&c);
        return -1;
    }
    const char *tmpdir = getenv("TMPDIR");
    char work[PATH_MAX];
    snprintf(work, sizeof(work), "%s/ptosim-perfsim-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    if (!mkdtemp(work)) {
        perfsim_cache_close(&c);
        return perfsim_fail(err, errlen, "cannot make a temporary folder in %s: %s", tmpdir ? tmpdir : "/tmp",
                            strerror(errno));
    }
    /* SIGINT and SIGTERM only ask: the compiles and runs are killed and the temporary folder removed before
     * ptosim stops; the caller's handling comes back after */
    struct sigaction old_int, old_term;
    sigaction(SIGINT, NULL, &old_int);
    sigaction(SIGTERM, NULL, &old_term);
    intr_install();
    int rc = price(o, &c, work, kernels, nkernels, sigs, nsigs, res, err, errlen);
    rm_tree(work);
    perfsim_cache_close(&c);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    return rc;
}

static int price(const perfsim_opts *o, cache *c, const char *work, perfsim_kernel *kernels, int nkernels,
                 const perfsim_sig *sigs, size_t nsigs, perfsim_result *res, char *err, size_t errlen)
{
    char tmpvar[PATH_MAX + 8];
    runner rn = {.envp = child_env(work, tmpvar, sizeof(tmpvar)),
                 .limit = o->time_limit > 0 ? o->time_limit : PERFSIM_TIME_LIMIT,
                 .jobs = o->jobs > 0 ? o->jobs : 1,
                 .progress = o->progress};
    bool *want = calloc((size_t)nkernels, sizeof(*want));
    kbuild *bs = calloc((size_t)nkernels, sizeof(*bs));
    char(*keys)[SHA256_HEX] = calloc(nsigs ? nsigs : 1, sizeof(*keys));
    bool *have = calloc(nsigs ? nsigs : 1, sizeof(*have));
    int rc = 0;
    if (!rn.envp || !want || !bs || !keys || !have) {
        rc = perfsim_fail(err, errlen, "out of memory");
        goto out;
    }
    memset(res, 0, nsigs * sizeof(*res));
    for (size_t i = 0; i < nsigs; i++) {
        assert(sigs[i].kernel >= 0 && sigs[i].kernel < nkernels);
        want[sigs[i].kernel] = true;
    }
    if ((rc = compile_kernels(o, &rn, c, kernels, nkernels, want, bs, work, err, errlen)) != 0)
        goto out;
    /* the results cached for these binaries (by their content); a spec file per kernel for the rest */
    size_t todo = 0;
    for (size_t i = 0; i < nsigs; i++) {
        const perfsim_kernel *k = &kernels[sigs[i].kernel];
        const kbuild *b = &bs[sigs[i].kernel];
        if (k->failed)
            continue;
        res_key(b->digest, &sigs[i], keys[i]);
        int found = perfsim_res_lookup(c, keys[i], &res[i], err, errlen);
        if (found < 0) {
            rc = -1;
            goto out;
        }
        if (found)
            have[i] = true;
        else
            todo++;
    }
    /* a kernel's signatures go out in chunks, so that one kernel with many signatures uses every job too */
    size_t chunk = (todo + (size_t)rn.jobs - 1) / (size_t)rn.jobs;
    if (chunk < 8)
        chunk = 8;
    size_t np = 0, cap = todo ? (size_t)nkernels + todo / chunk + 1 : 0;
    int *kof = calloc(cap ? cap : 1, sizeof(*kof));
    proc *runs = calloc(cap ? cap : 1, sizeof(*runs));
    struct runpaths *paths = calloc(cap ? cap : 1, sizeof(*paths));
    if (!kof || !runs || !paths) {
        free(kof), free(runs), free(paths);
        rc = perfsim_fail(err, errlen, "out of memory");
        goto out;
    }
    for (int k = 0; k < nkernels && todo; k++) {
        if (!want[k] || kernels[k].failed)
            continue;
        FILE *f = NULL;
        size_t n = 0;
        for (size_t i = 0; i <= nsigs && rc == 0; i++) {
            bool last = i == nsigs;
            if (!last && (sigs[i].kernel != k || have[i]))
                continue;
            if (f && (last || n == chunk)) { /* close the chunk and queue its run */
                proc *p = &runs[np];
                bool bad = ferror(f) != 0;
                bad |= fclose(f) != 0;
                f = NULL;
                if (bad) {
                    rc = perfsim_fail(err, errlen, "%s: cannot write: %s", p->in, strerror(errno));
                    break;
                }
                snprintf(paths[np].res, PATH_MAX, "%.3900s/r%zu.res", work, np);
                snprintf(paths[np].out, PATH_MAX, "%.3900s/r%zu.out", work, np);
                if (mkdir(paths[np].out, 0700) != 0) {
                    rc = perfsim_fail(err, errlen, "%s: cannot make: %s", paths[np].out, strerror(errno));
                    break;
                }
                p->argv[0] = bs[k].run;
                p->argv[1] = paths[np].res;
                p->argv[2] = paths[np].out;
                p->argv[3] = NULL;
                snprintf(p->out, sizeof(p->out), "%.3900s/r%zu.log", work, np);
                p->label = kernels[k].name;
                p->units = n;
                kof[np++] = k;
            }
            if (last)
                break;
            if (!f) {
                assert(np < cap);
                proc *p = &runs[np];
                snprintf(p->in, sizeof(p->in), "%.3900s/r%zu.spec", work, np);
                int fd = open(p->in, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
                if (fd < 0 || !(f = fdopen(fd, "w"))) {
                    if (fd >= 0)
                        close(fd);
                    rc = perfsim_fail(err, errlen, "%s: cannot write: %s", p->in, strerror(errno));
                    break;
                }
                n = 0;
            }
            write_spec(f, i, &sigs[i]);
            n++;
        }
        if (f)
            fclose(f);
        if (rc) {
            free(kof), free(runs), free(paths);
            goto out;
        }
    }
    if (np && o->progress != PROGRESS_QUIET)
        fprintf(stderr, "ptosim: perf-sim: running %zu task signature%s in %zu batch%s\n", todo,
                todo == 1 ? "" : "s", np, np == 1 ? "" : "es");
    static const stage running = {"running", "ran", "failed to run", "signatures"};
    if (run_all(&rn, runs, np, &running) != 0)
        rc = perfsim_fail(err, errlen, "interrupted by %s", intr_name(intr_signal()));
    for (size_t j = 0; j < np && rc == 0; j++) {
        int k = kof[j];
        if (runs[j].timed_out) {
            kernels[k].failed = true;
            snprintf(kernels[k].why, sizeof(kernels[k].why),
                     "its Perf-Sim run was killed after %g s, the time "
                     "limit (--time-limit SECONDS raises it)",
                     rn.limit);
            continue;
        }
        size_t len;
        char *text = exited_ok(&runs[j]) ? slurp(paths[j].res, 256u << 20, &len) : NULL;
        if (!text) { /* nothing of a failed run is kept: the next import runs it again */
            char first[PERFSIM_MSG_MAX - 128];
            first_error(runs[j].out, first, sizeof(first), "it printed nothing");
            kernels[k].failed = true;
            run_failure(&runs[j], first, kernels[k].why, sizeof(kernels[k].why));
            continue;
        }
        bool *fresh = calloc(nsigs, sizeof(*fresh));
        if (!fresh) {
            free(text);
            rc = perfsim_fail(err, errlen, "out of memory");
            break;
        }
        perfsim_read_batch(text, len, sigs, nsigs, k, res, fresh);
        free(text);
        for (size_t id = 0; id < nsigs && rc == 0; id++) {
            if (!fresh[id])
                continue;
            have[id] = true;
            char line[512];
            int n = perfsim_format_result(line, sizeof(line), id, &res[id]);
            if (perfsim_entry_put(c, SUB_RES, keys[id], "res", line, (size_t)n, false, NULL) != 0)
                rc = perfsim_fail(err, errlen, "%s/res/%s: cannot store a result: %s", o->cache_dir, keys[id],
                                  strerror(errno));
        }
        free(fresh);
    }
    free(runs);
    free(paths);
    free(kof);
    if (rc)
        goto out;
    for (size_t i = 0; i < nsigs && rc == 0; i++) {
        perfsim_kernel *k = &kernels[sigs[i].kernel];
        if (k->failed)
            continue;
        if (!have[i]) {
            k->failed = true;
            snprintf(k->why, sizeof(k->why), "its Perf-Sim run gave no result for a signature");
            continue;
        }
        /* the silent fault of later pto-isa trees: no-op set_flag stubs win, no sync event is recorded */
        if (res[i].instructions && !res[i].sync_events && calls_set_flag(k->source))
            rc = perfsim_fail(
                err, errlen,
                "the pto-isa tree at %s recorded no sync events for kernel %s, whose code calls set_flag: "
                "its set_flag/wait_flag are no-op stubs, which makes every kernel look faster than it is; "
                "pto-isa %s is known to work",
                o->pto_isa, k->name, PERFSIM_KNOWN_COMMIT);
    }
    if (rc == 0 && intr_signal()) /* came after the last process: nothing is kept of an interrupted import */
        rc = perfsim_fail(err, errlen, "interrupted by %s", intr_name(intr_signal()));
    /* which source each kernel name priced, for an import that only looks (perfsim_lookup) */
    for (int k = 0; k < nkernels && rc == 0; k++) {
        if (!want[k] || kernels[k].failed)
            continue;
        char key[SHA256_HEX];
        src_key(kernels[k].name, kernels[k].aic, key);
        if (perfsim_entry_put(c, SUB_DEP, key, "src", bs[k].real, strlen(bs[k].real), false, NULL) != 0)
            rc = perfsim_fail(err, errlen, "%s/dep/%s: cannot store a kernel's source: %s", o->cache_dir, key,
                              strerror(errno));
    }
out:
    free(rn.envp);
    free(want);
    free(bs);
    free(keys);
    free(have);
    return rc;
}

/* ---- looking up, compiling and running nothing ---- */

int perfsim_lookup(const perfsim_opts *o, const perfsim_kernel *kernels, int nkernels, const perfsim_sig *sigs,
                   size_t nsigs, perfsim_result *res, bool *have, char *err, size_t errlen)
{
    memset(res, 0, nsigs * sizeof(*res));
    memset(have, 0, nsigs * sizeof(*have));
    static const char *const subs[] = {"bin", "dep", "res"};
    for (int i = 0; i < 3; i++) { /* a cache that is not there is not made by a look */
        char p[PATH_MAX];
        struct stat st;
        snprintf(p, sizeof(p), "%s/%s", o->cache_dir, subs[i]);
        if (lstat(p, &st) != 0 || !S_ISDIR(st.st_mode))
            return 0;
    }
    cache c;
    kbuild *bs = calloc(nkernels > 0 ? (size_t)nkernels : 1, sizeof(*bs));
    bool *found = calloc(nkernels > 0 ? (size_t)nkernels : 1, sizeof(*found));
    int rc = 0;
    if (!bs || !found)
        rc = perfsim_fail(err, errlen, "out of memory");
    else if (perfsim_cache_open(o, &c, err, errlen) != 0)
        rc = -1;
    roots rts;
    real_or_given(o->pto_isa, rts.pto);
    real_or_given(o->runtime_root, rts.rt);
    for (int i = 0; i < nkernels && rc == 0; i++) {
        perfsim_kernel k = kernels[i];
        char *src = NULL;
        if (!k.source) {
            char key[SHA256_HEX];
            size_t len;
            src_key(k.name, k.aic, key);
            int got = perfsim_entry_read(&c, SUB_DEP, key, "src", PATH_MAX, &src, &len, err, errlen);
            if (got < 0)
                rc = -1;
            if (got <= 0)
                continue;
            k.source = src;
        }
        int known = prepare(o, &rts, &k, "harness.cpp", &bs[i]) ? binary_key(&c, &rts, &bs[i], err, errlen) : 0;
        if (known > 0)
            known = perfsim_entry_digest(&c, SUB_BIN, bs[i].binkey, "bin", bs[i].digest, err, errlen);
        free(src);
        if (known < 0)
            rc = -1;
        found[i] = known > 0;
    }
    for (size_t i = 0; i < nsigs && rc == 0; i++) {
        assert(sigs[i].kernel >= 0 && sigs[i].kernel < nkernels);
        if (!found[sigs[i].kernel])
            continue;
        char key[SHA256_HEX];
        res_key(bs[sigs[i].kernel].digest, &sigs[i], key);
        int got = perfsim_res_lookup(&c, key, &res[i], err, errlen);
        if (got < 0)
            rc = -1;
        have[i] = got > 0;
    }
    if (bs && found)
        perfsim_cache_close(&c);
    free(bs);
    free(found);
    return rc;
}
