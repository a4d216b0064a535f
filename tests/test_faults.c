/* test_faults.c - what the program does when things go wrong around it. */
/* Huge sizes, full disks, signals, concurrent runs, FIFOs and endless lines. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../model/graph/graph_reader.h"
#include "testutil.h"

#define HDR                                                                                                  \
    "{\"ptosim_graph\": 1, \"name\": \"g\", \"kernels\": [{\"id\": 0, \"name\": \"vadd\", \"core\": "        \
    "\"aiv\", \"cost\": {\"cycles\": 1800}}]}\n"

/* A ptosim process started in the background, its stdout and stderr in files. */
typedef struct child {
    pid_t pid;
    char out[64], err[64]; /* where its stdout and stderr go */
} child;

/* When > 0, spawn's processes may write no file past this many bytes (a disk
 * that fills up mid-run: writes fail with EFBIG). */
static long fsize_limit;

/* When > 0, spawn's processes may map no more than this many bytes (RLIMIT_AS: memory that runs out). */
static long as_limit;

/* Starts ptosim with args (NULL-terminated), stdin from /dev/null. */
static child spawn(const char *const *args)
{
    child c;
    snprintf(c.out, sizeof(c.out), "/tmp/ptosim-fo-XXXXXX");
    snprintf(c.err, sizeof(c.err), "/tmp/ptosim-fe-XXXXXX");
    int fo = mkstemp(c.out), fe = mkstemp(c.err);
    ck_assert(fo >= 0 && fe >= 0);
    fflush(stdout);
    fflush(stderr);
    c.pid = fork();
    ck_assert(c.pid >= 0);
    if (c.pid == 0) {
        const char *argv[64] = {PTOSIM_BIN};
        int n = 1;
        for (int i = 0; args[i] && n < 63; i++)
            argv[n++] = args[i];
        argv[n] = NULL;
        if (fsize_limit > 0) {
            struct rlimit rl = {(rlim_t)fsize_limit, (rlim_t)fsize_limit};
            signal(SIGXFSZ, SIG_IGN); /* a failed write, not a killed process */
            setrlimit(RLIMIT_FSIZE, &rl);
        }
        if (as_limit > 0) {
            struct rlimit rl = {(rlim_t)as_limit, (rlim_t)as_limit};
            setrlimit(RLIMIT_AS, &rl);
        }
        int fi = open("/dev/null", O_RDONLY);
        dup2(fi, 0);
        dup2(fo, 1);
        dup2(fe, 2);
        execv(PTOSIM_BIN, (char *const *)argv);
        _exit(127);
    }
    close(fo);
    close(fe);
    return c;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Waits at most `seconds` for c; a child still running then is killed and the
 * test fails (a hang is the bug). Returns its output like tu_run. */
static run_out finish(child *c, double seconds)
{
    run_out r = {0};
    int st = 0;
    double end = now_s() + seconds;
    pid_t got;
    while ((got = waitpid(c->pid, &st, WNOHANG)) == 0 && now_s() < end)
        usleep(10000);
    if (got == 0) {
        kill(c->pid, SIGKILL);
        waitpid(c->pid, &st, 0);
    }
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    r.out = tu_read(c->out);
    r.err = tu_read(c->err);
    unlink(c->out);
    unlink(c->err);
    ck_assert_msg(got != 0, "ptosim still running after %.0f s (killed); stderr: %s", seconds, r.err);
    return r;
}

/* Runs ptosim with stdout going to out_path (/dev/full: every write fails with ENOSPC). */
static run_out run_stdout_to(const char *out_path, const char *const *args)
{
    run_out r = {0};
    char errp[] = "/tmp/ptosim-fe-XXXXXX";
    int fe = mkstemp(errp);
    int fo = open(out_path, O_WRONLY);
    ck_assert(fe >= 0 && fo >= 0);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0) {
        const char *argv[64] = {PTOSIM_BIN};
        int n = 1;
        for (int i = 0; args[i] && n < 63; i++)
            argv[n++] = args[i];
        argv[n] = NULL;
        dup2(fo, 1);
        dup2(fe, 2);
        execv(PTOSIM_BIN, (char *const *)argv);
        _exit(127);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    close(fo);
    close(fe);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    r.err = tu_read(errp);
    r.out = calloc(1, 1);
    unlink(errp);
    return r;
}

/* A graph that simulates for a second or two from a 30 KB file: 500 SPMD
 * tasks of 32767 one-microsecond blocks (1.6 s on the development machine). */
static char *long_graph(const char *dir)
{
    size_t cap = 128 * 1024, len = 0;
    char *text = malloc(cap);
    len += (size_t)snprintf(
        text + len, cap - len,
        "{\"ptosim_graph\": 1, \"name\": \"long\", \"kernels\": [{\"id\": 0, \"name\": \"k\", "
        "\"core\": \"aiv\", \"cost\": {\"ns\": 1000}}]}\n");
    for (int i = 0; i < 500; i++)
        len += (size_t)snprintf(text + len, cap - len,
                                "{\"op\": \"submit\", \"kernel\": \"k\", \"block_num\": 32767}\n");
    char *path = tu_write(dir, "long.jsonl", text);
    free(text);
    return path;
}

/* Waits until path exists (a run reached a stage), at most `seconds`. */
static void wait_for_file(const char *path, double seconds)
{
    double end = now_s() + seconds;
    while (!tu_exists(path) && now_s() < end)
        usleep(5000);
    ck_assert_msg(tu_exists(path), "%s did not appear", path);
}

/* Every file under dir (relative, sorted, one per line) with its bytes, to compare folders. */
static char *snapshot(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof(cmd), "cd %s && find . -type f | LC_ALL=C sort | xargs -r md5sum", dir);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    size_t cap = 1 << 16, n = 0, got;
    char *buf = malloc(cap);
    while ((got = fread(buf + n, 1, cap - n - 1, p)) > 0)
        n += got;
    buf[n] = '\0';
    pclose(p);
    return buf;
}

START_TEST(a_tensor_of_2_64_bytes_is_a_graph_error_not_an_ok_run)
{
    /* its byte count wrapped to 0: "ok", makespan 3.190 us, exit 0 */
    const char *dir = tu_tmpdir();
    char *g =
        tu_write(dir, "g.jsonl",
                 HDR "{\"op\": \"submit\", \"kernel\": \"vadd\", \"args\": [{\"dir\": \"out\", \"tensor\": "
                     "\"o\", \"dtype\": \"FLOAT32\", \"shape\": [4294967296, 1073741824]}]}\n");
    char out[300];
    snprintf(out, sizeof(out), "%s/out", dir);
    const char *args[] = {"run", g, "-o", out, NULL};
    run_out r = tu_run(args);
    ck_assert_int_eq(r.status, 3);
    ck_assert_str_eq(r.out, "");
    char want[600];
    snprintf(want, sizeof(want),
             "ptosim: %s:2: args[0].shape: [4294967296, 1073741824] x FLOAT32 is more than 2^53 bytes "
             "(GRAPH_MAX_BYTES)\n",
             g);
    ck_assert_str_eq(r.err, want);
    ck_assert(!tu_exists(out));
    tu_run_free(&r);
    free(g);
}
END_TEST

START_TEST(a_graph_given_as_a_fifo_is_read_once)
{
    /* the graph was opened twice; the second open waited for a writer forever */
    const char *dir = tu_tmpdir();
    char fifo[300];
    snprintf(fifo, sizeof(fifo), "%s/g.fifo", dir);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    for (int cmd = 0; cmd < 2; cmd++) {
        const char *run[] = {"run", fifo, NULL};
        const char *validate[] = {"validate", fifo, NULL};
        child c = spawn(cmd ? validate : run);
        int fd = open(fifo, O_WRONLY); /* waits for ptosim to open it */
        ck_assert(fd >= 0);
        const char *text =
            HDR "{\"op\": \"submit\", \"kernel\": \"vadd\"}\n{\"op\": \"submit\", \"kernel\": 0}\n";
        ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
        close(fd);
        run_out r = finish(&c, 20);
        ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
        ck_assert_ptr_nonnull(strstr(r.out, cmd ? ": ok\n" : "tasks 2/2 completed"));
        tu_run_free(&r);
    }
    /* several programs, --repeat and tune read a FIFO once, into a copy: test_cli.c */
}
END_TEST

START_TEST(a_file_without_newlines_stops_at_the_line_limit)
{
    /* /dev/zero grew the line buffer without bound (1 GB after 30 s) */
    const char *validate[] = {"validate", "/dev/zero", NULL};
    const char *run[] = {"run", "/dev/zero", NULL};
    for (int k = 0; k < 2; k++) {
        child c = spawn(k ? run : validate);
        run_out r = finish(&c, 20);
        ck_assert_int_eq(r.status, 3);
        ck_assert_str_eq(
            r.err,
            "ptosim: /dev/zero:1: json: line is longer than 16 MiB (GRAPH_MAX_LINE): not a graph file?\n");
        tu_run_free(&r);
    }
    /* past the header too (line 3), and a line of exactly the limit is still read (line 2) */
    const char *dir = tu_tmpdir();
    size_t pad = (size_t)GRAPH_MAX_LINE;
    char *text = malloc(2 * pad + 1024);
    size_t len = (size_t)sprintf(text, "%s{\"op\": \"user_code\", \"ns\": 1", HDR);
    size_t line_start = strlen(HDR);
    memset(text + len, ' ', pad - (len - line_start) - 1);
    len = line_start + pad - 1;
    text[len++] = '}';
    text[len++] = '\n';
    memcpy(text + len, "{\"op\": \"user_code\", \"ns\": 2,", 28);
    memset(text + len + 28, ' ', pad);
    len += 28 + pad;
    text[len] = '\0';
    char *g = tu_write(dir, "g.jsonl", text);
    free(text);
    const char *v2[] = {"validate", g, NULL};
    run_out r = tu_run(v2);
    ck_assert_int_eq(r.status, 3);
    char want[600];
    snprintf(want, sizeof(want),
             "ptosim: %s:3: json: line is longer than 16 MiB (GRAPH_MAX_LINE): not a graph file?\n", g);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    free(g);
}
END_TEST

START_TEST(a_directory_or_an_unreadable_file_is_named_as_such)
{
    /* a directory read as an empty file: "line 1 must be the graph header" */
    const char *dir = tu_tmpdir();
    const char *validate[] = {"validate", dir, NULL};
    const char *run[] = {"run", dir, NULL};
    char want[400];
    snprintf(want, sizeof(want), "ptosim: %s: is a directory, not a graph file\n", dir);
    for (int k = 0; k < 2; k++) {
        run_out r = tu_run(k ? run : validate);
        ck_assert_int_eq(r.status, 3);
        ck_assert_str_eq(r.err, want);
        tu_run_free(&r);
    }
    /* a read that fails is an error, not the end of the file (reading /proc/self/mem at 0 is EIO) */
    const char *mem[] = {"validate", "/proc/self/mem", NULL};
    run_out r = tu_run(mem);
    ck_assert_int_eq(r.status, 3);
    ck_assert_str_eq(r.err, "ptosim: /proc/self/mem: read error: Input/output error\n");
    tu_run_free(&r);
}
END_TEST

START_TEST(output_to_a_full_disk_is_an_error_not_a_success)
{
    /* each exited 0 with its output cut (import: 12,288 of 26,270 bytes of graph) */
    const char *dir = tu_tmpdir();
    const char *validate[] = {"validate", TRACE("chain3.jsonl"), NULL};
    const char *params[] = {"params", NULL};
    const char *run[] = {"run", TRACE("chain3.jsonl"), NULL};
    const char *csv[] = {"run", TRACE("chain3.jsonl"), "--summary-csv", "-o", dir, NULL};
    const char *import[] = {"import", PTOSIM_SRCDIR "/tests/real/probe", NULL};
    const char *tune[] = {"tune", TRACE("chain3.jsonl"), NULL};
    const char *worker[] = {"run", TRACE("chain3.jsonl"), TRACE("chain3.jsonl"), NULL};
    const char *const *cmds[] = {validate, params, run, csv, import, tune, worker};
    for (size_t i = 0; i < sizeof(cmds) / sizeof(*cmds); i++) {
        run_out r = run_stdout_to("/dev/full", cmds[i]);
        ck_assert_msg(r.status == 1, "%s: exit %d: %s", cmds[i][0], r.status, r.err);
        const char *want = "ptosim: cannot write standard output: No space left on device\n";
        size_t n = strlen(r.err), w = strlen(want);
        ck_assert_msg(n >= w && strcmp(r.err + n - w, want) == 0, "%s: stderr: %s", cmds[i][0], r.err);
        ck_assert_msg(strstr(r.err, want) == r.err + n - w, "%s: said twice: %s", cmds[i][0], r.err);
        tu_run_free(&r);
    }
    /* gen says it in its own words, once */
    const char *gen[] = {"gen", "chain", NULL};
    run_out r = run_stdout_to("/dev/full", gen);
    ck_assert_int_eq(r.status, 1);
    ck_assert_str_eq(r.err, "ptosim gen: chain: writing the graph failed: No space left on device\n");
    tu_run_free(&r);
}
END_TEST

START_TEST(a_signal_stops_the_run_and_leaves_the_previous_outputs_untouched)
{
    /* an interrupted run left the previous run's outputs beside a 0-byte args.bin.tmp, and on SIGINT
     * SimGrid's own handler aborted with a backtrace (status 134) */
    const char *dir = tu_tmpdir();
    char *g = long_graph(dir), out[300], stage[340];
    snprintf(out, sizeof(out), "%s/out", dir);
    snprintf(stage, sizeof(stage), "%s/.ptosim-run", out);
    const char *first[] = {"run", TRACE("chain3.jsonl"), "-o", out, "--enable-dep-gen", "--quiet", NULL};
    run_out r = tu_run(first);
    ck_assert_int_eq(r.status, 0);
    tu_run_free(&r);
    char *before = snapshot(out);
    static const int sigs[] = {SIGINT, SIGTERM};
    for (int k = 0; k < 2; k++) {
        const char *args[] = {"run", g, "-o", out, "--enable-chip-swimlane", "--dump-args=2", NULL};
        child c = spawn(args);
        wait_for_file(stage, 20);
        usleep(300000); /* well into the simulation */
        kill(c.pid, sigs[k]);
        r = finish(&c, 30);
        ck_assert_int_eq(r.status, 128 + sigs[k]);
        char want[600];
        snprintf(want, sizeof(want), "ptosim: interrupted by %s; %s keeps the previous run's outputs\n",
                 k ? "SIGTERM" : "SIGINT", out);
        ck_assert_str_eq(r.err, want);
        ck_assert_str_eq(r.out, "");
        tu_run_free(&r);
        char *after = snapshot(out); /* no staging folder, no args.bin.tmp, the same bytes */
        ck_assert_str_eq(after, before);
        free(after);
    }
    /* without -o there is nothing to keep */
    const char *bare[] = {"run", g, NULL};
    child c = spawn(bare);
    usleep(500000);
    kill(c.pid, SIGINT);
    r = finish(&c, 30);
    ck_assert_int_eq(r.status, 130);
    ck_assert_str_eq(r.err, "ptosim: interrupted by SIGINT\n");
    tu_run_free(&r);
    free(before);
    free(g);
}
END_TEST

START_TEST(a_second_run_into_a_busy_work_dir_fails_at_once)
{
    /* two runs into one -o could both exit 0 with the folder mixing their files */
    const char *dir = tu_tmpdir();
    char *g = long_graph(dir), out[300], stage[340];
    snprintf(out, sizeof(out), "%s/out", dir);
    snprintf(stage, sizeof(stage), "%s/.ptosim-run", out);
    const char *args[] = {"run", g, "-o", out, "--quiet", NULL};
    child c = spawn(args);
    wait_for_file(stage, 20);
    const char *second[] = {"run", TRACE("chain3.jsonl"), "-o", out, NULL};
    run_out r = tu_run(second);
    ck_assert_int_eq(r.status, 1);
    char want[600];
    snprintf(
        want, sizeof(want),
        "ptosim: %s: another ptosim run is writing to this folder; wait for it to end or give another -o\n",
        out);
    ck_assert_str_eq(r.err, want);
    ck_assert_str_eq(r.out, "");
    tu_run_free(&r);
    r = finish(&c, 60); /* the first ends as if alone */
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char *runjson = malloc(strlen(out) + 32);
    sprintf(runjson, "%s/ptosim_run.json", out);
    char *text = tu_read(runjson);
    ck_assert_ptr_nonnull(strstr(text, "long.jsonl")); /* the first run's, whole */
    ck_assert(!tu_exists(stage));
    free(text);
    free(runjson);
    /* and once it is done, the folder is free again */
    r = tu_run(second);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    free(g);
}
END_TEST

START_TEST(a_collect_during_a_running_sweep_is_refused)
{
    /* a real sweep of one long point holds its folder from before points.csv is written until it ends: a
     * --collect meanwhile would write a sweep.csv without the point's row; it is refused and the sweep ends
     * with its row */
    const char *dir = tu_tmpdir();
    char *g = long_graph(dir), out[300], points[340], csv[340];
    snprintf(out, sizeof(out), "%s/s", dir);
    snprintf(points, sizeof(points), "%s/points.csv", out);
    snprintf(csv, sizeof(csv), "%s/sweep.csv", out);
    const char *args[] = {"sweep", g, "--ring-task-window", "1024", "--quiet", "-o", out, NULL};
    child c = spawn(args);
    wait_for_file(points, 20);
    const char *col[] = {"sweep", "--collect", out, NULL};
    run_out r = tu_run(col);
    ck_assert_int_eq(r.status, 1);
    char want[600];
    snprintf(want, sizeof(want),
             "ptosim sweep: %s: another ptosim sweep or run is writing to this folder; wait for it to end, then "
             "collect\n",
             out);
    ck_assert_str_eq(r.err, want);
    ck_assert_str_eq(r.out, "");
    ck_assert(!tu_exists(csv));
    tu_run_free(&r);
    r = finish(&c, 60);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char *text = tu_read(csv);
    ck_assert_ptr_nonnull(strstr(text, "\nlong,a2a3,1024/1024/1024/1024,"));
    free(text);
    free(g);
}
END_TEST

START_TEST(a_work_dir_that_cannot_be_opened_or_locked_is_said_so)
{
    /* a run locks -o DIR on the folder opened for reading: one it can write into but not read (mode 0300,
     * for a user) stops the run with nothing written; a file system without locks (a preloaded flock that
     * fails with ENOLCK, as NFS without its lock daemon) only warns, and the run goes on */
    const char *dir = tu_tmpdir();
    char out[300], want[600];
    snprintf(out, sizeof(out), "%s/out", dir);
    ck_assert_int_eq(mkdir(out, 0300), 0);
    ck_assert_int_eq(chmod(out, 0300), 0);
    const char *args[] = {"run", TRACE("chain3.jsonl"), "-o", out, "--quiet", NULL};
    run_out r = tu_run_bound_by_modes(args);
    ck_assert_int_eq(r.status, 1);
    snprintf(want, sizeof(want), "ptosim: %s: cannot open the work dir: Permission denied\n", out);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    ck_assert_int_eq(chmod(out, 0700), 0);
    char *now = snapshot(out);
    ck_assert_str_eq(now, "");
    free(now);
    r = tu_run_preloaded(args, PTOSIM_NOLOCK, NULL);
    ck_assert_int_eq(r.status, 0);
    snprintf(want, sizeof(want),
             "ptosim: warning: %s: cannot lock the work dir (No locks available); do not let two runs write to "
             "it at once\n",
             out);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    snprintf(want, sizeof(want), "%s/ptosim_run.json", out);
    ck_assert(tu_exists(want));
}
END_TEST

START_TEST(a_run_that_cannot_write_its_files_leaves_the_folder_as_it_was)
{
    /* a file past the limit fails mid-run, as on a disk that fills up: none of the run's files may reach the
     * folder, and no summary claims the run */
    const char *dir = tu_tmpdir();
    char out[300];
    snprintf(out, sizeof(out), "%s/out", dir);
    const char *first[] = {"run", TRACE("chain3.jsonl"), "-o", out, "--enable-dep-gen", "--quiet", NULL};
    run_out r = tu_run(first);
    ck_assert_int_eq(r.status, 0);
    tu_run_free(&r);
    char *before = snapshot(out);
    const char *big[] = {"run", TRACE("default.jsonl"), "-o", out, "--enable-chip-swimlane", NULL};
    fsize_limit = 16384;
    child c = spawn(big);
    fsize_limit = 0;
    r = finish(&c, 60);
    ck_assert_int_eq(r.status, 1);
    char want[1200];
    snprintf(want, sizeof(want),
             "%s/.ptosim-run/dfx_outputs/chip_swimlane_records.json: write failed: File too large\n"
             "ptosim: %s keeps the previous run's outputs\n",
             out, out);
    ck_assert_msg(strstr(r.err, want) != NULL, "%s", r.err);
    ck_assert_str_eq(r.out, "");
    tu_run_free(&r);
    char *after = snapshot(out);
    ck_assert_str_eq(after, before);
    free(after);
    free(before);
}
END_TEST

START_TEST(a_run_out_of_memory_midway_leaves_the_folder_as_it_was)
{
    /* a fan of 200,000 tasks with every output on, under a memory limit lowered 25 MB at a time from 400 MB
     * until the run fails: it used to commit the deps.json and swimlane of the tasks so far over the
     * previous run (exit 1). The first failure must be status 1 naming memory, with the folder as it was */
#ifdef __SANITIZE_ADDRESS__ /* the sanitized build reserves terabytes of address space up front */
    return;
#endif
    const char *dir = tu_tmpdir();
    char out[300], graph[300];
    snprintf(out, sizeof(out), "%s/out", dir);
    snprintf(graph, sizeof(graph), "%s/fan.jsonl", dir);
    char cmd[1200];
    snprintf(cmd, sizeof(cmd), "%s gen fan --n 200000 > %s", PTOSIM_BIN, graph);
    ck_assert_int_eq(system(cmd), 0);
    const char *first[] = {"run", TRACE("chain3.jsonl"), "-o", out, "--enable-chip-swimlane", "--enable-dep-gen",
                           "--quiet", NULL};
    const char *big[] = {"run", graph, "-o", out, "--enable-chip-swimlane", "--enable-dep-gen",
                         "--enable-scope-stats", "--quiet", NULL};
    bool failed = false;
    for (long mb = 400; mb >= 100 && !failed; mb -= 25) {
        run_out r = tu_run(first);
        ck_assert_int_eq(r.status, 0);
        tu_run_free(&r);
        char *before = snapshot(out);
        as_limit = mb << 20;
        child c = spawn(big);
        as_limit = 0;
        r = finish(&c, 60);
        if (r.status != 0) {
            failed = true;
            char *now = snapshot(out), keep[400];
            ck_assert_msg(r.status == 1, "%ld MB: status %d: %s", mb, r.status, r.err);
            ck_assert_msg(strstr(r.err, "out of memory") || strstr(r.err, "Cannot allocate memory"), "%s",
                          r.err);
            snprintf(keep, sizeof(keep), "ptosim: %s keeps the previous run's outputs\n", out);
            ck_assert_str_eq(r.err + strlen(r.err) - strlen(keep), keep);
            ck_assert_str_eq(now, before);
            free(now);
        }
        free(before);
        tu_run_free(&r);
    }
    ck_assert(failed);
}
END_TEST

/* Runs args (ptosim's, NULL-terminated) with at most mb MiB of address space. */
static run_out run_limited(const char *const *args, long mb)
{
    as_limit = mb << 20;
    child c = spawn(args);
    as_limit = 0;
    return finish(&c, 60);
}

/* A run that fails for memory into a folder that held no run said "DIR keeps the previous run's outputs"
 * of a folder that did not exist (and is gone again): there was no previous run. Into a folder of its own
 * that was there, the same words; the folder stays, empty. */
START_TEST(a_run_out_of_memory_into_a_folder_without_a_run_says_nothing_was_written)
{
#ifdef __SANITIZE_ADDRESS__ /* the sanitized build reserves terabytes of address space up front */
    return;
#endif
    const char *dir = tu_tmpdir();
    char out[300], graph[300], want[400];
    snprintf(out, sizeof(out), "%s/out", dir);
    snprintf(graph, sizeof(graph), "%s/fan.jsonl", dir);
    char cmd[1200];
    snprintf(cmd, sizeof(cmd), "%s gen fan --n 200000 > %s", PTOSIM_BIN, graph);
    ck_assert_int_eq(system(cmd), 0);
    const char *big[] = {"run", graph, "-o", out, "--enable-chip-swimlane", "--enable-dep-gen",
                         "--enable-scope-stats", "--quiet", NULL};
    snprintf(want, sizeof(want), "ptosim: nothing was written to %s\n", out);
    long failed_at = 0;
    for (long mb = 400; mb >= 100 && !failed_at; mb -= 25) {
        run_out r = run_limited(big, mb);
        if (r.status == 1) { /* a failure of ptosim's own allocations: status 1 naming memory */
            failed_at = mb;
            ck_assert_msg(strstr(r.err, "out of memory") || strstr(r.err, "Cannot allocate memory"), "%s",
                          r.err);
            ck_assert_str_eq(r.err + strlen(r.err) - strlen(want), want);
            ck_assert(!tu_exists(out));
        } else if (r.status == 0) {
            char rm[400];
            snprintf(rm, sizeof(rm), "rm -r %s", out);
            ck_assert_int_eq(system(rm), 0);
        }
        tu_run_free(&r);
    }
    ck_assert(failed_at);
    /* the folder was there, empty: it stays so */
    ck_assert_int_eq(mkdir(out, 0755), 0);
    run_out r = run_limited(big, failed_at);
    ck_assert_int_eq(r.status, 1);
    ck_assert_str_eq(r.err + strlen(r.err) - strlen(want), want);
    char *now = snapshot(out);
    ck_assert_str_eq(now, "");
    free(now);
    tu_run_free(&r);
}
END_TEST

/* SimGrid aborts when it cannot allocate an actor's stack or a block of its own, and under an address-space
 * limit ptosim's abort handler then died of SIGSEGV (status 139, .ptosim-run/ left): the stack in use could
 * not grow. Under every limit from the smallest a small run completes in down by 24 MiB, a MiB at a time,
 * the run ends in 0, 1 (ptosim's own allocation failed) or SimGrid's abort (134, after the line saying what
 * the folder holds), never a crash; the previous run's files stay as they were and nothing is left. */
START_TEST(simgrid_out_of_memory_ends_in_its_abort_never_a_crash_and_commits_nothing)
{
#ifdef __SANITIZE_ADDRESS__
    return;
#endif
    const char *dir = tu_tmpdir();
    char out[300], stage[340], want[600];
    snprintf(out, sizeof(out), "%s/out", dir);
    snprintf(stage, sizeof(stage), "%s/.ptosim-run", out);
    const char *args[] = {"run", TRACE("chain3.jsonl"), "-o", out, "--enable-chip-swimlane", "--enable-dep-gen",
                          "--enable-scope-stats", "--quiet", NULL};
    /* the smallest limit (MiB) the run completes in */
    long lo = 16, hi = 1024;
    while (hi - lo > 1) {
        long mid = (lo + hi) / 2;
        run_out r = run_limited(args, mid);
        if (r.status == 0)
            hi = mid;
        else
            lo = mid;
        tu_run_free(&r);
        snprintf(want, sizeof(want), "rm -rf %s", out);
        ck_assert_int_eq(system(want), 0);
    }
    ck_assert_int_lt(hi, 1024);
    snprintf(want, sizeof(want), "ptosim: aborted (SIGABRT); %s keeps the previous run's outputs\n", out);
    int aborts = 0;
    for (long mb = hi - 1; mb >= hi - 24; mb--) {
        run_out r = tu_run(args); /* the previous run: the same bytes every time */
        ck_assert_int_eq(r.status, 0);
        tu_run_free(&r);
        char *before = snapshot(out);
        r = run_limited(args, mb);
        ck_assert_msg(r.status == 0 || r.status == 1 || r.status == 134, "%ld MiB: status %d: %s", mb, r.status,
                      r.err);
        if (r.status != 0) {
            char *now = snapshot(out);
            ck_assert_msg(strcmp(now, before) == 0, "%ld MiB: the folder changed: %s", mb, r.err);
            free(now);
        }
        ck_assert(!tu_exists(stage));
        if (r.status == 134) { /* SimGrid's abort, after its own line (its CRITICAL, an assertion) */
            aborts++;
            ck_assert_str_eq(r.err + strlen(r.err) - strlen(want), want);
        }
        free(before);
        tu_run_free(&r);
    }
    ck_assert_int_gt(aborts, 0);
}
END_TEST

START_TEST(a_body_gathered_in_a_scratch_file_that_cannot_grow_fails_the_run)
{
    /* deps.json and pmu.csv gather their bodies in scratch files and join them at the end: a write that
     * fails in either (here the file-size limit, as on a full disk) must fail the run by name */
    static const struct {
        const char *flag, *msg;
    } outs[] = {
        {"--enable-dep-gen", "dfx_outputs/deps.json: cannot assemble deps.json: File too large\n"},
        {"--enable-pmu", "dfx_outputs/pmu.csv: cannot assemble pmu.csv: File too large\n"},
    };
    for (size_t i = 0; i < sizeof(outs) / sizeof(outs[0]); i++) {
        const char *dir = tu_tmpdir();
        char out[300];
        snprintf(out, sizeof(out), "%s/out", dir);
        const char *args[] = {"run", TRACE("default.jsonl"), "-o", out, outs[i].flag, "--quiet", NULL};
        fsize_limit = 16384;
        child c = spawn(args);
        fsize_limit = 0;
        run_out r = finish(&c, 60);
        ck_assert_int_eq(r.status, 1);
        ck_assert_msg(strstr(r.err, outs[i].msg) != NULL, "%s: %s", outs[i].flag, r.err);
        ck_assert_str_eq(r.out, "");
        tu_run_free(&r);
        char path[400];
        snprintf(path, sizeof(path), "%s/ptosim_run.json", out);
        ck_assert_msg(access(path, F_OK) != 0, "%s: a failed run left %s", outs[i].flag, path);
    }
}
END_TEST

START_TEST(a_signal_to_a_worker_session_stops_its_program_and_is_recorded)
{
    /* SIGTERM to the session alone: the running program gets it too, its folder keeps what it had, and
     * the session's ptosim_run.json says which program was interrupted and which never ran */
    const char *dir = tu_tmpdir();
    char *g = long_graph(dir), out[300], stage[340], path[340];
    snprintf(out, sizeof(out), "%s/w", dir);
    snprintf(stage, sizeof(stage), "%s/0_long/.ptosim-run", out);
    const char *args[] = {"run", g, g, "-o", out, NULL};
    child c = spawn(args);
    wait_for_file(stage, 20);
    usleep(300000);
    kill(c.pid, SIGTERM);
    run_out r = finish(&c, 30);
    ck_assert_int_eq(r.status, 143);
    char want[600];
    snprintf(want, sizeof(want), /* the folder held no run before: nothing was written to it */
             "ptosim: interrupted by SIGTERM; nothing was written to %s/0_long\n", out);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    snprintf(path, sizeof(path), "%s/ptosim_run.json", out);
    cJSON *j = tu_json_file(path);
    const cJSON *progs = cJSON_GetObjectItemCaseSensitive(j, "programs");
    ck_assert_int_eq(cJSON_GetArraySize(progs), 2);
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(progs, 0), "status")->valuestring,
                     "interrupted");
    ck_assert_int_eq(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(progs, 0), "exit")->valueint, 143);
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(progs, 1), "status")->valuestring,
                     "not run");
    cJSON_Delete(j);
    ck_assert(!tu_exists(stage));
    free(g);
}
END_TEST

START_TEST(an_interrupted_sweep_stops_its_points_and_keeps_the_rows_so_far)
{
    /* SIGINT to the sweep alone: its points went on as orphans and no sweep.csv was left */
    const char *dir = tu_tmpdir();
    char *g = long_graph(dir), out[300], row0[340], stage1[340], path[340];
    snprintf(out, sizeof(out), "%s/s", dir);
    snprintf(row0, sizeof(row0), "%s/points/0000/row.csv", out);
    snprintf(stage1, sizeof(stage1), "%s/points/0001/.ptosim-run", out);
    /* a --set list too: its column is in the partial rows as it is in sweep.csv */
    const char *args[] = {
        "sweep", g,   "--ring-task-window", "1024,2048,4096", "--set", "dfx_overhead=1,0", "-j", "1", "-o",
        out,     NULL};
    child c = spawn(args);
    wait_for_file(stage1, 60); /* point 0 is done (one at a time), point 1 runs */
    usleep(200000);
    kill(c.pid, SIGINT);
    run_out r = finish(&c, 60);
    ck_assert_int_eq(r.status, 130);
    char want[1200];
    snprintf(
        want, sizeof(want),
        "ptosim sweep: interrupted by SIGINT: 1 of 6 points finished; their rows are in %s/sweep.partial.csv "
        "(sweep.csv is written only when every point gave a row: ptosim sweep --resume %s runs only the "
        "others)\n",
        out, out);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    /* the rows so far: point 0's, under the header, each with the --set column, and no sweep.csv standing
     * for the whole sweep */
    snprintf(path, sizeof(path), "%s/sweep.partial.csv", out);
    char *part = tu_read(path), *row = tu_read(row0), *nl = strchr(row, '\n');
    ck_assert_ptr_nonnull(nl);
    char with[4096];
    snprintf(with, sizeof(with), "%.*s,dfx_overhead\n%.*s,1\n", (int)(nl - row), row, (int)strlen(nl + 2),
             nl + 1);
    ck_assert_str_eq(part, with);
    free(part);
    free(row);
    snprintf(path, sizeof(path), "%s/sweep.csv", out);
    ck_assert(!tu_exists(path));
    /* point 1 got the signal and had ended (cleaned up) before the sweep returned; point 2 never started */
    snprintf(path, sizeof(path), "%s/points/0001/stderr.txt", out);
    char *err1 = tu_read(path);
    snprintf(want, sizeof(want), /* a new point's folder: no run in it before */
             "ptosim: interrupted by SIGINT; nothing was written to %s/points/0001\n", out);
    ck_assert_str_eq(err1, want);
    free(err1);
    ck_assert(!tu_exists(stage1));
    snprintf(path, sizeof(path), "%s/points/0002", out);
    ck_assert(!tu_exists(path));
    free(g);
}
END_TEST

Suite *suite_faults(void)
{
    Suite *s = suite_create("faults");
    TCase *tc = tcase_create("faults");
    tcase_add_test(tc, a_tensor_of_2_64_bytes_is_a_graph_error_not_an_ok_run);
    tcase_add_test(tc, a_graph_given_as_a_fifo_is_read_once);
    tcase_add_test(tc, a_file_without_newlines_stops_at_the_line_limit);
    tcase_add_test(tc, a_directory_or_an_unreadable_file_is_named_as_such);
    tcase_add_test(tc, output_to_a_full_disk_is_an_error_not_a_success);
    tcase_add_test(tc, a_signal_stops_the_run_and_leaves_the_previous_outputs_untouched);
    tcase_add_test(tc, a_second_run_into_a_busy_work_dir_fails_at_once);
    tcase_add_test(tc, a_collect_during_a_running_sweep_is_refused);
    tcase_add_test(tc, a_work_dir_that_cannot_be_opened_or_locked_is_said_so);
    tcase_add_test(tc, a_run_that_cannot_write_its_files_leaves_the_folder_as_it_was);
    tcase_add_test(tc, a_run_out_of_memory_midway_leaves_the_folder_as_it_was);
    tcase_add_test(tc, a_run_out_of_memory_into_a_folder_without_a_run_says_nothing_was_written);
    tcase_add_test(tc, simgrid_out_of_memory_ends_in_its_abort_never_a_crash_and_commits_nothing);
    tcase_add_test(tc, a_body_gathered_in_a_scratch_file_that_cannot_grow_fails_the_run);
    tcase_add_test(tc, a_signal_to_a_worker_session_stops_its_program_and_is_recorded);
    tcase_add_test(tc, an_interrupted_sweep_stops_its_points_and_keeps_the_rows_so_far);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    return s;
}
