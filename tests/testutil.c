/* testutil.c - temp dirs, files, child processes and JSON helpers for the tests. */
#define _XOPEN_SOURCE 700 /* nftw */
#include "testutil.h"

#include "../model/engine/chip_engine.h"

#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The temporary folders this process made, removed when it exits: a test runs in a process of its own, so
 * its folders go with it (make check made some 20,000 of them, none removed). Each remembers its maker: a
 * test's forked children, and the tests forked from a runner that made one, leave it alone. */
static struct {
    char path[64];
    pid_t pid;
} * made;
static size_t nmade, capmade;

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)ftw;
    if (flag == FTW_DP)
        chmod(path, 0700); /* a folder a test made unreadable or unwritable */
    remove(path);          /* a link is removed, never followed (FTW_PHYS) */
    return 0;
}

static void remove_made(void)
{
    for (size_t i = 0; i < nmade; i++)
        if (made[i].pid == getpid())
            nftw(made[i].path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

const char *tu_tmpdir(void)
{
    static char buf[16][64];
    static int next;
    char *p = buf[next++ % 16];
    snprintf(p, 64, "/tmp/ptosim-test-XXXXXX");
    ck_assert_msg(mkdtemp(p) != NULL, "mkdtemp failed");
    if (getenv("PTOSIM_KEEP_TEST_DIRS"))
        return p;
    if (nmade == capmade) {
        size_t cap = capmade ? 2 * capmade : 16;
        void *m = realloc(made, cap * sizeof(*made));
        if (!m)
            return p; /* kept: the test goes on */
        made = m;
        capmade = cap;
    }
    if (!nmade)
        atexit(remove_made);
    snprintf(made[nmade].path, sizeof(made[nmade].path), "%s", p);
    made[nmade++].pid = getpid();
    return p;
}

char *tu_write(const char *dir, const char *name, const char *text)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *path = malloc(n);
    snprintf(path, n, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ck_assert_msg(f != NULL, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
    return path;
}

char *tu_copy(const char *dir, const char *name, const char *src)
{
    char *text = tu_read(src);
    ck_assert_msg(text != NULL, "%s: cannot read", src);
    char *path = tu_write(dir, name, text);
    free(text);
    return path;
}

char *tu_read(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (n + 1 == cap) {
            cap *= 2;
            buf = realloc(buf, cap);
        }
    }
    fclose(f);
    buf[n] = '\0';
    return buf;
}

int tu_exists(const char *path)
{
    return access(path, F_OK) == 0;
}

run_out tu_run_prog(const char *const *args)
{
    run_out r = {0};
    char outp[] = "/tmp/ptosim-out-XXXXXX", errp[] = "/tmp/ptosim-err-XXXXXX";
    int fo = mkstemp(outp), fe = mkstemp(errp);
    ck_assert(fo >= 0 && fe >= 0);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0) {
        dup2(fo, 1);
        dup2(fe, 2);
        execv(args[0], (char *const *)args);
        _exit(127);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    close(fo);
    close(fe);
    r.out = tu_read(outp);
    r.err = tu_read(errp);
    unlink(outp);
    unlink(errp);
    return r;
}

run_out tu_run(const char *const *args)
{
    const char *argv[64];
    int n = 0;
    argv[n++] = PTOSIM_BIN;
    for (int i = 0; args[i] && n < 63; i++)
        argv[n++] = args[i];
    argv[n] = NULL;
    return tu_run_prog(argv);
}

run_out tu_run_bound_by_modes(const char *const *args)
{
    if (geteuid() != 0)
        return tu_run(args);
    /* root: a process started without the two capabilities (dropped from the bounding set, which exec
     * keeps) has root's uid and none of its power over modes */
    const char *argv[64] = {"/usr/bin/setpriv", "--bounding-set", "-dac_override,-dac_read_search", PTOSIM_BIN};
    int n = 4;
    for (int i = 0; args[i] && n < 63; i++)
        argv[n++] = args[i];
    argv[n] = NULL;
    ck_assert_msg(access(argv[0], X_OK) == 0, "%s is needed to test file modes as root", argv[0]);
    return tu_run_prog(argv);
}

run_out tu_run_preloaded(const char *const *args, const char *lib, const char *asan_extra)
{
    setenv("LD_PRELOAD", lib, 1);
    /* the sanitized build: the library comes before ASan's runtime, on purpose */
    char *asan = getenv("ASAN_OPTIONS") ? strdup(getenv("ASAN_OPTIONS")) : NULL;
    char opts[4096];
    snprintf(opts, sizeof(opts), "%s%sverify_asan_link_order=0%s%s", asan ? asan : "", asan ? ":" : "",
             asan_extra ? ":" : "", asan_extra ? asan_extra : "");
    setenv("ASAN_OPTIONS", opts, 1);
    run_out r = tu_run(args);
    unsetenv("LD_PRELOAD");
    if (asan)
        setenv("ASAN_OPTIONS", asan, 1);
    else
        unsetenv("ASAN_OPTIONS");
    free(asan);
    return r;
}

bool tu_starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

void tu_run_free(run_out *r)
{
    free(r->out);
    free(r->err);
}

cJSON *tu_json_file(const char *path)
{
    char *text = tu_read(path);
    ck_assert_msg(text != NULL, "missing file %s", path);
    cJSON *j = cJSON_Parse(text);
    ck_assert_msg(j != NULL, "not JSON: %s", path);
    free(text);
    return j;
}

void tu_assert_keys(const cJSON *obj, const char *const *keys, const char *where)
{
    const cJSON *it = obj ? obj->child : NULL;
    int i = 0;
    for (; keys[i]; i++, it = it->next) {
        ck_assert_msg(it != NULL, "%s: missing key %s (position %d)", where, keys[i], i);
        ck_assert_msg(strcmp(it->string, keys[i]) == 0, "%s: key %d is %s, expected %s", where, i, it->string,
                      keys[i]);
    }
    ck_assert_msg(it == NULL, "%s: unexpected extra key %s", where, it ? it->string : "");
}

chip *tu_chip(const char *text, const char *const *sets, int swimlane_level, void (*tweak)(chip_config *cfg))
{
    const char *dir = tu_tmpdir();
    char *path = tu_write(dir, "g.jsonl", text);
    char err[4096];
    platform p;
    platform_defaults(&p);
    for (int i = 0; sets && sets[i]; i++)
        ck_assert_msg(platform_set(&p, sets[i], err, sizeof(err)) == 0, "%s", err);
    ck_assert_msg(graph_validate(path, err, sizeof(err)) == 0, "%s", err);
    chip_config cfg;
    chip_config_defaults(&cfg, &p);
    cfg.swimlane_level = swimlane_level;
    if (tweak)
        tweak(&cfg);
    chip *c = malloc(sizeof(*c));
    ck_assert_msg(chip_init(c, &p, &cfg, path, err, sizeof(err)) == 0, "%s", err);
    chip_run(c);
    free(path);
    return c;
}

void tu_chip_free(chip *c)
{
    chip_free(c);
    free(c);
}

const sl_exec *tu_exec(const chip *c, uint64_t id, int *core_out)
{
    for (int k = 0; k < c->ncores; k++)
        for (size_t i = 0; i < c->sl.per_core[k].n; i++)
            if (c->sl.per_core[k].v[i].task_id == id) {
                if (core_out)
                    *core_out = k;
                return &c->sl.per_core[k].v[i];
            }
    ck_abort_msg("no execution of task %llu", (unsigned long long)id);
    return NULL;
}
