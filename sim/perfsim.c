/* perfsim.c - perfsim_: kernels priced by their own code under pto-isa's Perf-Sim. */
/* The compiler and harness runs, their content-addressed cache, and the checks that refuse a pto-isa
 * tree known to measure wrong. */
#include "perfsim.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <inttypes.h>
#include <limits.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define CACHE_FORMAT "ptosim-perfsim-1" /* bump when the cache's layout or the harness's protocol changes */
#define MAX_ARGV 40

/* ---- content hashes: two FNV-1a 64 streams with different offsets, 128 bits ---- */

typedef struct hash128 {
    uint64_t a, b;
} hash128;

static void h_init(hash128 *h)
{
    h->a = 1469598103934665603ULL;
    h->b = 0x6c62272e07bb0142ULL;
}

static void h_bytes(hash128 *h, const void *p, size_t n)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++) {
        h->a = (h->a ^ c[i]) * 1099511628211ULL;
        h->b = (h->b ^ c[i]) * 0x100000001b3ULL + 0x9e3779b97f4a7c15ULL;
    }
}

/* A string with its length, so that "ab" + "c" and "a" + "bc" differ. */
static void h_str(hash128 *h, const char *s)
{
    uint64_t n = strlen(s);
    h_bytes(h, &n, sizeof(n));
    h_bytes(h, s, n);
}

static void h_u64(hash128 *h, uint64_t v)
{
    h_bytes(h, &v, sizeof(v));
}

static void h_hex(const hash128 *h, char out[33])
{
    snprintf(out, 33, "%016" PRIx64 "%016" PRIx64, h->a, h->b);
}

/* Hashes a file's contents; -1 when it cannot be read. */
static int h_file(hash128 *h, const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
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

/* ---- small file helpers ---- */

static int fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* mkdir -p; the folders it makes are the user's cache, mode 0755. */
static int make_dirs(const char *path)
{
    char p[PATH_MAX];
    if (snprintf(p, sizeof(p), "%s", path) >= (int)sizeof(p))
        return errno = ENAMETOOLONG, -1;
    for (char *s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(p, 0755) != 0 && errno != EEXIST)
            return -1;
        *s = '/';
    }
    return mkdir(p, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

/* Reads a whole small file (at most max bytes) into a NUL-terminated buffer. */
static char *slurp(const char *path, size_t max, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size > max) {
        close(fd);
        return NULL;
    }
    char *b = malloc((size_t)st.st_size + 1);
    size_t got = 0;
    ssize_t n = 0;
    while (b && got < (size_t)st.st_size && (n = read(fd, b + got, (size_t)st.st_size - got)) > 0)
        got += (size_t)n;
    close(fd);
    if (!b || got != (size_t)st.st_size) {
        free(b);
        return NULL;
    }
    b[got] = '\0';
    if (len)
        *len = got;
    return b;
}

/* Writes data to a fresh temporary beside path (O_EXCL|O_NOFOLLOW), then renames it into place: a cache
 * entry is whole or absent. */
static int put_file(const char *path, const char *data, size_t len, mode_t mode)
{
    char tmp[PATH_MAX];
    if (snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", path, (long)getpid()) >= (int)sizeof(tmp))
        return -1;
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
    if (fd < 0)
        return -1;
    size_t done = 0;
    while (done < len) {
        ssize_t n = write(fd, data + done, len - done);
        if (n <= 0) {
            close(fd);
            unlink(tmp);
            return -1;
        }
        done += (size_t)n;
    }
    if (close(fd) != 0 || rename(tmp, path) != 0) {
        unlink(tmp);
        return -1;
    }
    return 0;
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
    if (!o->pto_isa)
        o->pto_isa = getenv("PTO_ISA_ROOT");
    if (!o->runtime_root)
        o->runtime_root = getenv("SIMPLER_ROOT");
    if (!o->pto_isa || !*o->pto_isa)
        return fail(err, errlen, "--costs perf-sim needs a pto-isa tree: --pto-isa DIR or PTO_ISA_ROOT "
                                 "(pto-isa %s is known to work)", PERFSIM_KNOWN_COMMIT);
    if (!o->runtime_root || !*o->runtime_root)
        return fail(err, errlen, "--costs perf-sim needs the runtime's tree for its kernels' headers "
                                 "(simpler_setup/incore, src/common): --runtime-include DIR or SIMPLER_ROOT");
    char p[PATH_MAX];
    snprintf(p, sizeof(p), "%s/include/pto/costmodel/perf_sim/launch.hpp", o->pto_isa);
    if (!is_file(p))
        return fail(err, errlen, "%s: no pto-isa tree with Perf-Sim (include/pto/costmodel/perf_sim/launch.hpp "
                                 "is missing; pto-isa %s is known to work)", o->pto_isa, PERFSIM_KNOWN_COMMIT);
    static const char *const need[] = {"simpler_setup/incore/pipe_sync.h", "src/common/task_interface/tensor.h",
                                       NULL};
    for (int i = 0; need[i]; i++) {
        snprintf(p, sizeof(p), "%s/%s", o->runtime_root, need[i]);
        if (!is_file(p))
            return fail(err, errlen, "%s: not the runtime's tree (%s is missing)", o->runtime_root, need[i]);
    }
    if (!o->cxx) {
        const char *env = getenv("CXX");
        const char *const dflt[] = {"clang++-19", "clang++", NULL}, *const given[] = {env, NULL};
        if (!find_on_path(env && *env ? given : dflt, cxx, sizeof(cxx)))
            return fail(err, errlen, "no C++ compiler for the Perf-Sim harness: %s not found (set CXX; "
                                     "clang++-19 is known to work)", env && *env ? env : "clang++-19 or clang++");
        o->cxx = cxx;
    }
    if (!o->cache_dir) {
        const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
        if (x && *x)
            snprintf(cache, sizeof(cache), "%s/ptosim/perf-sim", x);
        else if (home && *home)
            snprintf(cache, sizeof(cache), "%s/.cache/ptosim/perf-sim", home);
        else
            return fail(err, errlen, "no cache folder for compiled kernels: give --cache DIR (HOME is not set)");
        o->cache_dir = cache;
    }
    if (o->jobs < 1) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        o->jobs = n > 0 ? (int)n : 1;
    }
    static const char *const sub[] = {"", "/bin", "/dep", "/res", "/src", NULL};
    for (int i = 0; sub[i]; i++) {
        snprintf(p, sizeof(p), "%s%s", o->cache_dir, sub[i]);
        if (make_dirs(p) != 0 || !is_dir(p))
            return fail(err, errlen, "%s: cannot make the cache folder: %s", p, strerror(errno));
    }
    return 0;
}

/* ---- processes: up to `jobs` at once ---- */

typedef struct proc {
    const char *argv[MAX_ARGV];
    char in[PATH_MAX], out[PATH_MAX]; /* stdin ("" = /dev/null), stdout and stderr */
    pid_t pid;
    int status; /* waitpid's */
    bool started;
} proc;

static int spawn(proc *pr)
{
    posix_spawn_file_actions_t fa;
    if (posix_spawn_file_actions_init(&fa) != 0)
        return -1;
    int rc = posix_spawn_file_actions_addopen(&fa, 0, *pr->in ? pr->in : "/dev/null", O_RDONLY, 0);
    rc = rc ? rc : posix_spawn_file_actions_addopen(&fa, 1, pr->out, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0644);
    rc = rc ? rc : posix_spawn_file_actions_adddup2(&fa, 1, 2);
    rc = rc ? rc : posix_spawnp(&pr->pid, pr->argv[0], &fa, NULL, (char *const *)pr->argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    pr->started = rc == 0;
    return rc == 0 ? 0 : -1;
}

/* Runs every process, `jobs` at a time; what was printed goes to each one's out file. */
static void run_all(proc *ps, size_t n, int jobs, const char *what, bool progress)
{
    size_t next = 0, running = 0, done = 0;
    while (done < n) {
        while (running < (size_t)jobs && next < n) {
            if (spawn(&ps[next]) == 0)
                running++;
            else {
                ps[next].status = -1;
                done++;
            }
            next++;
        }
        if (!running)
            continue;
        int st;
        pid_t pid = waitpid(-1, &st, 0);
        if (pid < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (size_t i = 0; i < n; i++)
            if (ps[i].started && ps[i].pid == pid) {
                ps[i].status = st;
                ps[i].started = false;
                running--;
                done++;
            }
        if (progress)
            fprintf(stderr, "\rptosim: perf-sim: %s %zu/%zu", what, done, n);
    }
    if (progress && n)
        fputc('\n', stderr);
}

static bool exited_ok(const proc *p)
{
    return p->status >= 0 && WIFEXITED(p->status) && WEXITSTATUS(p->status) == 0;
}

/* The first "error:" line of a compiler's log (or its first line), trimmed, into out. */
static void first_error(const char *log, char *out, size_t outlen)
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
    snprintf(out, outlen, "%s", line ? line : "(the compiler printed nothing)");
    free(t);
}

/* ---- compiling ---- */

typedef struct kbuild {
    char manifest[33]; /* key of the compile: harness, compiler, flags, kernel path, core */
    char bin[PATH_MAX]; /* the cached binary, "" until known */
    char binkey[33];
    char tmp_bin[PATH_MAX], tmp_dep[PATH_MAX], log[PATH_MAX];
    const char *argv[MAX_ARGV];
    char defkernel[PATH_MAX + 32], incs[7][PATH_MAX + 4], depf[PATH_MAX + 4];
    int argc;
} kbuild;

/* The compile's command line, all but the output and dep file. */
static void compile_argv(const perfsim_opts *o, const perfsim_kernel *k, const char *harness, kbuild *b)
{
    static const char *const fixed[] = {"-std=c++23", "-xc++", "-include", "stdint.h", "-include", "stddef.h",
                                        "-D__COSTMODEL", "-D__NPU_ARCH__=2201", "-DPTO_COMM_NOT_SUPPORTED", "-O2",
                                        "-w", NULL};
    int n = 0;
    b->argv[n++] = o->cxx;
    for (int i = 0; fixed[i]; i++)
        b->argv[n++] = fixed[i];
    b->argv[n++] = k->aic ? "-D__DAV_CUBE__" : "-D__DAV_VEC__";
    /* pto-isa's stubs first; then the runtime's incore headers (pipe_sync.h, tensor.h) */
    snprintf(b->incs[0], sizeof(b->incs[0]), "-I%s/include/pto/costmodel/stubs", o->pto_isa);
    snprintf(b->incs[1], sizeof(b->incs[1]), "-I%s/include", o->pto_isa);
    snprintf(b->incs[2], sizeof(b->incs[2]), "-I%s/include/pto", o->pto_isa);
    snprintf(b->incs[3], sizeof(b->incs[3]), "-I%s/simpler_setup/incore", o->runtime_root);
    snprintf(b->incs[4], sizeof(b->incs[4]), "-I%s/src/common/task_interface", o->runtime_root);
    snprintf(b->incs[5], sizeof(b->incs[5]), "-I%s/src/common", o->runtime_root);
    snprintf(b->incs[6], sizeof(b->incs[6]), "-I%s/src/common/platform/include", o->runtime_root);
    for (int i = 0; i < 7; i++)
        b->argv[n++] = b->incs[i];
    snprintf(b->defkernel, sizeof(b->defkernel), "-DPTOSIM_KERNEL=\"%s\"", k->source);
    b->argv[n++] = b->defkernel;
    b->argv[n++] = harness;
    b->argc = n;
}

/* The binary's key: the manifest and the contents of every file the compile read (its dep list). -1 when the
 * list or one of its files cannot be read. */
static int binary_key(const char *cache, const kbuild *b, char out[33])
{
    char p[PATH_MAX];
    snprintf(p, sizeof(p), "%s/dep/%s", cache, b->manifest);
    char *deps = slurp(p, 64u << 20, NULL);
    if (!deps)
        return -1;
    hash128 h;
    h_init(&h);
    h_str(&h, b->manifest);
    int rc = 0;
    for (char *s = strtok(deps, "\n"); s; s = strtok(NULL, "\n")) {
        h_str(&h, s);
        if (h_file(&h, s) != 0) {
            rc = -1;
            break;
        }
    }
    free(deps);
    h_hex(&h, out);
    return rc;
}

/* A make-style dep file ("target: a b \\\n c") as one path a line. */
static char *dep_list(const char *depfile)
{
    size_t len;
    char *t = slurp(depfile, 64u << 20, &len);
    if (!t)
        return NULL;
    char *out = malloc(len + 2), *w = out;
    if (!out) {
        free(t);
        return NULL;
    }
    char *s = strchr(t, ':');
    s = s ? s + 1 : t;
    bool in_word = false;
    for (; *s; s++) {
        if (*s == '\\' && s[1] == '\n') {
            s++;
            continue;
        }
        if (*s == '\\' && s[1] == ' ') { /* an escaped space is part of the name */
            *w++ = ' ';
            s++;
            in_word = true;
            continue;
        }
        if (*s == ' ' || *s == '\n' || *s == '\t') {
            if (in_word)
                *w++ = '\n';
            in_word = false;
            continue;
        }
        *w++ = *s;
        in_word = true;
    }
    if (in_word)
        *w++ = '\n';
    *w = '\0';
    free(t);
    return out;
}

/* The harness source in the cache, under its content's name. */
static int harness_file(const char *cache, char *out, size_t outlen)
{
    hash128 h;
    h_init(&h);
    h_str(&h, perfsim_harness_src);
    char hex[33];
    h_hex(&h, hex);
    if (snprintf(out, outlen, "%s/src/harness-%s.cpp", cache, hex) >= (int)outlen)
        return -1;
    if (is_file(out))
        return 0;
    return put_file(out, perfsim_harness_src, strlen(perfsim_harness_src), 0644);
}

/* The compiler's identity for the cache: its resolved path, size and modification time. */
static void h_compiler(hash128 *h, const char *cxx)
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

/* Compiles the kernels that have no cached binary, `jobs` at once. */
static int compile_kernels(const perfsim_opts *o, perfsim_kernel *ks, int nk, const bool *want, kbuild *bs,
                           const char *work, char *err, size_t errlen)
{
    char harness[PATH_MAX];
    if (harness_file(o->cache_dir, harness, sizeof(harness)) != 0)
        return fail(err, errlen, "%s: cannot write the harness source: %s", o->cache_dir, strerror(errno));
    proc *ps = calloc((size_t)nk, sizeof(*ps));
    int *which = calloc((size_t)nk, sizeof(*which));
    if (!ps || !which) {
        free(ps);
        free(which);
        return fail(err, errlen, "out of memory");
    }
    size_t np = 0;
    for (int i = 0; i < nk; i++) {
        if (!want[i])
            continue;
        kbuild *b = &bs[i];
        perfsim_kernel *k = &ks[i];
        if (strpbrk(k->source, "\"\\\n")) {
            k->failed = true;
            snprintf(k->why, sizeof(k->why), "its source path %s has a quote, backslash or newline", k->source);
            continue;
        }
        if (!is_file(k->source)) {
            k->failed = true;
            snprintf(k->why, sizeof(k->why), "%s: no such file", k->source);
            continue;
        }
        compile_argv(o, k, harness, b);
        hash128 h;
        h_init(&h);
        h_str(&h, CACHE_FORMAT);
        h_str(&h, perfsim_harness_src);
        h_compiler(&h, o->cxx);
        for (int a = 1; a < b->argc; a++)
            h_str(&h, b->argv[a]);
        h_hex(&h, b->manifest);
        if (binary_key(o->cache_dir, b, b->binkey) == 0) {
            snprintf(b->bin, sizeof(b->bin), "%s/bin/%s", o->cache_dir, b->binkey);
            if (access(b->bin, X_OK) == 0)
                continue; /* compiled before, from these very files */
        }
        b->bin[0] = '\0';
        snprintf(b->tmp_bin, sizeof(b->tmp_bin), "%.3900s/k%d.bin", work, i);
        snprintf(b->tmp_dep, sizeof(b->tmp_dep), "%.3900s/k%d.d", work, i);
        snprintf(b->log, sizeof(b->log), "%.3900s/k%d.log", work, i);
        proc *p = &ps[np];
        memcpy(p->argv, b->argv, sizeof(b->argv[0]) * (size_t)b->argc);
        int n = b->argc;
        p->argv[n++] = "-MD";
        p->argv[n++] = "-MF";
        p->argv[n++] = b->tmp_dep;
        p->argv[n++] = "-o";
        p->argv[n++] = b->tmp_bin;
        p->argv[n] = NULL;
        snprintf(p->out, sizeof(p->out), "%s", b->log);
        which[np++] = i;
    }
    if (np && o->progress)
        fprintf(stderr, "ptosim: perf-sim: compiling %zu kernel%s with %s (-j %d)\n", np, np == 1 ? "" : "s",
                o->cxx, o->jobs);
    run_all(ps, np, o->jobs, "compiled", o->progress);
    int rc = 0;
    for (size_t j = 0; j < np && rc == 0; j++) {
        int i = which[j];
        kbuild *b = &bs[i];
        perfsim_kernel *k = &ks[i];
        if (!exited_ok(&ps[j])) {
            char first[PERFSIM_MSG_MAX - 64];
            if (ps[j].status < 0)
                snprintf(first, sizeof(first), "%s could not be started", o->cxx);
            else
                first_error(b->log, first, sizeof(first));
            /* an error inside pto-isa's own headers is the tree's, not the kernel's */
            if (strncmp(first, o->pto_isa, strlen(o->pto_isa)) == 0 || strstr(first, "/include/pto/")) {
                rc = fail(err, errlen,
                          "the pto-isa tree at %s does not compile under __COSTMODEL (kernel %s, first error: %s); "
                          "pto-isa %s is known to work",
                          o->pto_isa, k->name, first, PERFSIM_KNOWN_COMMIT);
                break;
            }
            k->failed = true;
            snprintf(k->why, sizeof(k->why), "does not compile: %s", first);
            continue;
        }
        char *deps = dep_list(b->tmp_dep);
        char dp[PATH_MAX];
        snprintf(dp, sizeof(dp), "%s/dep/%s", o->cache_dir, b->manifest);
        if (!deps || put_file(dp, deps, strlen(deps), 0644) != 0 || binary_key(o->cache_dir, b, b->binkey) != 0) {
            free(deps);
            rc = fail(err, errlen, "%s: cannot record kernel %s's dependencies: %s", o->cache_dir, k->name,
                      strerror(errno));
            break;
        }
        free(deps);
        snprintf(b->bin, sizeof(b->bin), "%s/bin/%s", o->cache_dir, b->binkey);
        if (rename(b->tmp_bin, b->bin) != 0) {
            rc = fail(err, errlen, "%s: cannot store kernel %s's binary: %s", b->bin, k->name, strerror(errno));
            break;
        }
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

static void h_sig(hash128 *h, const perfsim_sig *s)
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

/* "r ID total instr sync scalar mte2 mte1 cube fixp vec mte3 gm_mte2 gm_mte3 gm_fixp" */
static int parse_result(const char *line, size_t *id, perfsim_result *r)
{
    unsigned long long v[14];
    size_t sid;
    if (sscanf(line, "r %zu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &sid, &v[0], &v[1],
               &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9], &v[10], &v[11], &v[12]) != 14)
        return -1;
    memset(r, 0, sizeof(*r));
    r->total = v[0];
    r->instructions = v[1];
    r->sync_events = v[2];
    r->busy[PIPE_SCALAR] = v[3];
    r->busy[PIPE_MTE2] = v[4];
    r->busy[PIPE_MTE1] = v[5];
    r->busy[PIPE_CUBE] = v[6];
    r->busy[PIPE_FIXPIPE] = v[7];
    r->busy[PIPE_VECTOR] = v[8];
    r->busy[PIPE_MTE3] = v[9];
    r->gm_bytes[PIPE_MTE2] = v[10];
    r->gm_bytes[PIPE_MTE3] = v[11];
    r->gm_bytes[PIPE_FIXPIPE] = v[12];
    *id = sid;
    return 0;
}

static int format_result(char *out, size_t outlen, size_t id, const perfsim_result *r)
{
    return snprintf(out, outlen,
                    "r %zu %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
                    " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
                    id, r->total, r->instructions, r->sync_events, r->busy[PIPE_SCALAR], r->busy[PIPE_MTE2],
                    r->busy[PIPE_MTE1], r->busy[PIPE_CUBE], r->busy[PIPE_FIXPIPE], r->busy[PIPE_VECTOR],
                    r->busy[PIPE_MTE3], r->gm_bytes[PIPE_MTE2], r->gm_bytes[PIPE_MTE3], r->gm_bytes[PIPE_FIXPIPE]);
}

/* Does the kernel's own source call set_flag (itself, or through the runtime's pipe_sync())? */
static bool calls_set_flag(const char *source)
{
    char *t = slurp(source, 64u << 20, NULL);
    bool yes = t && (strstr(t, "set_flag") || strstr(t, "pipe_sync()"));
    free(t);
    return yes;
}

int perfsim_price(const perfsim_opts *o, perfsim_kernel *kernels, int nkernels, const perfsim_sig *sigs,
                  size_t nsigs, perfsim_result *res, char *err, size_t errlen)
{
    const char *tmpdir = getenv("TMPDIR");
    char work[PATH_MAX];
    snprintf(work, sizeof(work), "%s/ptosim-perfsim-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    if (!mkdtemp(work))
        return fail(err, errlen, "cannot make a temporary folder in %s: %s", tmpdir ? tmpdir : "/tmp",
                    strerror(errno));
    bool *want = calloc((size_t)nkernels, sizeof(*want));
    kbuild *bs = calloc((size_t)nkernels, sizeof(*bs));
    char(*keys)[33] = calloc(nsigs ? nsigs : 1, sizeof(*keys));
    bool *have = calloc(nsigs ? nsigs : 1, sizeof(*have));
    int rc = 0;
    if (!want || !bs || !keys || !have) {
        rc = fail(err, errlen, "out of memory");
        goto out;
    }
    memset(res, 0, nsigs * sizeof(*res));
    for (size_t i = 0; i < nsigs; i++) {
        assert(sigs[i].kernel >= 0 && sigs[i].kernel < nkernels);
        want[sigs[i].kernel] = true;
    }
    if ((rc = compile_kernels(o, kernels, nkernels, want, bs, work, err, errlen)) != 0)
        goto out;
    /* the results cached for these binaries; a spec file per kernel for the rest */
    size_t todo = 0;
    for (size_t i = 0; i < nsigs; i++) {
        const perfsim_kernel *k = &kernels[sigs[i].kernel];
        const kbuild *b = &bs[sigs[i].kernel];
        if (k->failed)
            continue;
        hash128 h;
        h_init(&h);
        h_str(&h, b->binkey);
        h_sig(&h, &sigs[i]);
        h_hex(&h, keys[i]);
        char p[PATH_MAX];
        snprintf(p, sizeof(p), "%s/res/%s", o->cache_dir, keys[i]);
        char *line = slurp(p, 4096, NULL);
        size_t id;
        if (line && parse_result(line, &id, &res[i]) == 0)
            have[i] = true;
        else
            todo++;
        free(line);
    }
    /* a kernel's signatures go out in chunks, so that one kernel with many signatures uses every job too */
    size_t chunk = (todo + (size_t)o->jobs - 1) / (size_t)o->jobs;
    if (chunk < 8)
        chunk = 8;
    size_t np = 0, cap = todo ? (size_t)nkernels + todo / chunk + 1 : 0;
    int *kof = calloc(cap ? cap : 1, sizeof(*kof));
    proc *runs = calloc(cap ? cap : 1, sizeof(*runs));
    struct runpaths *paths = calloc(cap ? cap : 1, sizeof(*paths));
    if (!kof || !runs || !paths) {
        free(kof), free(runs), free(paths);
        rc = fail(err, errlen, "out of memory");
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
                    rc = fail(err, errlen, "%s: cannot write: %s", p->in, strerror(errno));
                    break;
                }
                snprintf(paths[np].res, PATH_MAX, "%.3900s/r%zu.res", work, np);
                snprintf(paths[np].out, PATH_MAX, "%.3900s/r%zu.out", work, np);
                if (mkdir(paths[np].out, 0700) != 0) {
                    rc = fail(err, errlen, "%s: cannot make: %s", paths[np].out, strerror(errno));
                    break;
                }
                p->argv[0] = bs[k].bin;
                p->argv[1] = paths[np].res;
                p->argv[2] = paths[np].out;
                p->argv[3] = NULL;
                snprintf(p->out, sizeof(p->out), "%.3900s/r%zu.log", work, np);
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
                    rc = fail(err, errlen, "%s: cannot write: %s", p->in, strerror(errno));
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
    if (np && o->progress)
        fprintf(stderr, "ptosim: perf-sim: running %zu task signature%s in %zu batch%s\n", todo,
                todo == 1 ? "" : "s", np, np == 1 ? "" : "es");
    run_all(runs, np, o->jobs, "batches run", o->progress);
    for (size_t j = 0; j < np && rc == 0; j++) {
        int k = kof[j];
        char *text = exited_ok(&runs[j]) ? slurp(paths[j].res, 256u << 20, NULL) : NULL;
        if (!text) {
            char first[PERFSIM_MSG_MAX - 64];
            first_error(runs[j].out, first, sizeof(first));
            kernels[k].failed = true;
            snprintf(kernels[k].why, sizeof(kernels[k].why), "its Perf-Sim run failed: %s", first);
            continue;
        }
        for (char *s = strtok(text, "\n"); s; s = strtok(NULL, "\n")) {
            size_t id;
            perfsim_result r;
            if (parse_result(s, &id, &r) != 0 || id >= nsigs || sigs[id].kernel != k)
                continue;
            res[id] = r;
            have[id] = true;
            char line[512], p[PATH_MAX];
            int len = format_result(line, sizeof(line), id, &r);
            snprintf(p, sizeof(p), "%s/res/%s", o->cache_dir, keys[id]);
            if (put_file(p, line, (size_t)len, 0644) != 0) {
                rc = fail(err, errlen, "%s: cannot store a result: %s", p, strerror(errno));
                break;
            }
        }
        free(text);
    }
    free(runs);
    free(paths);
    if (rc) {
        free(kof);
        goto out;
    }
    free(kof);
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
            rc = fail(err, errlen,
                      "the pto-isa tree at %s recorded no sync events for kernel %s, whose code calls set_flag: "
                      "its set_flag/wait_flag are no-op stubs, which makes every kernel look faster than it is; "
                      "pto-isa %s is known to work",
                      o->pto_isa, k->name, PERFSIM_KNOWN_COMMIT);
    }
out:
    rm_tree(work);
    free(want);
    free(bs);
    free(keys);
    free(have);
    return rc;
}
