/* test_oom.c - the allocation-failure walk: every allocation of a small run is failed in turn. */
/* Every output is on (tests/oom/failalloc.c, preloaded), and each run must end cleanly and leave the work
 * dir as the README promises. */
#define _XOPEN_SOURCE 700 /* nftw */
#include <check.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "testutil.h"

#ifndef PTOSIM_FAILALLOC /* the Makefile names the injector built beside the binary */
#define PTOSIM_FAILALLOC PTOSIM_SRCDIR "/build/failalloc.so"
#endif

/* Does the injector see SimGrid's operator new? Not in the sanitized build, where ASan serves it itself:
 * there the named walks of SimGrid's allocations below are not run (the big walk samples what it sees). */
#ifdef __SANITIZE_ADDRESS__
#define SEES_SIMGRID_NEW 0
#else
#define SEES_SIMGRID_NEW 1
#endif

/* Of SimGrid's allocations (~2,800, most of them alike: platform parsing) every LIB_STRIDE-th is failed;
 * ptosim's own are all walked. */
#define LIB_STRIDE 40

/* ---- a folder's content as one string: each entry's path, type and bytes' hash, sorted ---- */

static char **entries;
static size_t nentries, root_len;

static uint64_t hash_file(const char *path)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    int c;
    while ((c = getc(f)) != EOF)
        h = (h ^ (uint64_t)(unsigned char)c) * 1099511628211ULL;
    fclose(f);
    return h;
}

static int add_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)ftw;
    char line[8192];
    snprintf(line, sizeof(line), "%s %c %016llx", path + root_len,
             type == FTW_F    ? 'f'
             : type == FTW_D  ? 'd'
             : type == FTW_SL ? 'l'
                              : '?',
             type == FTW_F ? (unsigned long long)hash_file(path) : (unsigned long long)(st->st_mode & 0));
    entries = realloc(entries, (nentries + 1) * sizeof(*entries));
    entries[nentries++] = strdup(line);
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The folder dir as "path type hash" lines, sorted (malloc'd); "" when it does not exist. */
static char *snapshot(const char *dir)
{
    entries = NULL;
    nentries = 0;
    root_len = strlen(dir);
    struct stat st;
    if (stat(dir, &st) == 0)
        nftw(dir, add_entry, 16, FTW_PHYS);
    qsort(entries, nentries, sizeof(*entries), cmp_str);
    size_t len = 1;
    for (size_t i = 0; i < nentries; i++)
        len += strlen(entries[i]) + 1;
    char *s = malloc(len), *p = s;
    *p = '\0';
    for (size_t i = 0; i < nentries; i++) {
        p += sprintf(p, "%s\n", entries[i]);
        free(entries[i]);
    }
    free(entries);
    return s;
}

static void sh(const char *cmd)
{
    run_out r = tu_run_prog((const char *[]){"/bin/sh", "-c", cmd, NULL});
    ck_assert_msg(r.status == 0, "%s: %s", cmd, r.err);
    tu_run_free(&r);
}

/* ---- the walk ---- */

typedef struct walk {
    const char *dir;      /* the work dir the runs write */
    const char *pristine; /* a copy of it holding run A, put back when a run replaced it */
    char *before;         /* snapshot of run A's folder */
    char *after;          /* snapshot of the folder after a whole run B */
    long sites, clean, recovered, other;
    long in_simgrid; /* own-class failures SimGrid ended the process for (libc allocating for it) */
    long collector;  /* own-class failures in the args dump collector (its publish and queue) */
    char first_other[4096];
} walk;

static const char *const RUN_B[] = {"run",
                                    TRACE("chain3.jsonl"),
                                    "-o",
                                    NULL /* dir */,
                                    "--enable-dep-gen",
                                    "--enable-scope-stats",
                                    "--enable-chip-swimlane",
                                    "--enable-pmu",
                                    "--dump-args=2",
                                    "--enable-perfetto",
                                    "--no-host-timing",
                                    "--quiet",
                                    NULL};

/* Runs B with the n-th allocation of class cls failed (n = 0: none). The counts of a run without a
 * failure go to *own and *lib when given. */
static run_out run_b(const char *dir, const char *cls, long n, long *own, long *lib)
{
    const char *args[sizeof(RUN_B) / sizeof(*RUN_B)];
    memcpy(args, RUN_B, sizeof(RUN_B));
    args[3] = dir;
    char num[32], log[4200];
    snprintf(num, sizeof(num), "%ld", n);
    snprintf(log, sizeof(log), "%s.log", dir);
    remove(log);
    setenv("FAILALLOC_N", num, 1);
    setenv("FAILALLOC_CLASS", cls, 1);
    setenv("FAILALLOC_LOG", log, 1);
    /* a process ended for want of memory may leave what it held (not a leak to report) */
    run_out r = tu_run_preloaded(args, PTOSIM_FAILALLOC, "detect_leaks=0");
    unsetenv("FAILALLOC_N");
    if (own || lib) {
        char *text = tu_read(log);
        ck_assert_msg(text && sscanf(text, "own %ld lib %ld", own, lib) == 2, "no counts in %s", log);
        free(text);
    }
    remove(log);
    return r;
}

/* One failed allocation: judged, counted, and the folder put back to run A's when it changed. strict: the
 * failure is ptosim's to handle (status 1, a message naming memory) rather than SimGrid's (the folder
 * alone). */
static void step(walk *w, const char *cls, long n, bool strict)
{
    run_out r = run_b(w->dir, cls, n, NULL, NULL);
    char *now = snapshot(w->dir);
    const char *why = NULL;
    /* libc allocating on SimGrid's behalf (its strdup, its fopen of the platform XML) is counted as ptosim's
     * by the caller's address; SimGrid then ends the process itself (abort, status 134, its CRITICAL line):
     * for those the work dir alone is judged */
    if (strict && r.status == 134 &&
        (strstr(r.err, "[xbt_exception/CRITICAL]") || strstr(r.err, "[root/CRITICAL]"))) {
        strict = false;
        w->in_simgrid++;
    }
    if (r.status == 0) {
        if (strcmp(now, w->after) != 0) /* went on: then with run B's files, whole */
            why = "exit 0 without run B's files";
    } else if (strcmp(now, w->before) != 0) {
        why = "the work dir changed";
    } else if (strict && r.status != 1) {
        why = "not exit status 1";
    } else if (strict && !strstr(r.err, "out of memory") && !strstr(r.err, "Cannot allocate memory")) {
        why = "no message naming memory";
    }
    /* the collector's own allocations (a buffer published, the copy queue grown): its message, then the
     * folder's line, and nothing of the crash they once were */
    if (!why && strstr(r.err, "out of memory in the args dump collector")) {
        char tail[8192];
        snprintf(tail, sizeof(tail),
                 "ptosim: error: out of memory in the args dump collector\nptosim: %s keeps the previous run's "
                 "outputs\n",
                 w->dir);
        size_t n = strlen(r.err), t = strlen(tail);
        if (r.status != 1 || n < t || strcmp(r.err + n - t, tail) != 0)
            why = "not the collector's message and status 1";
        else
            w->collector++;
    }
    w->sites++;
    if (why && getenv("PTOSIM_OOM_VERBOSE")) /* every site that is not clean, one line each */
        fprintf(stderr, "oom walk: %s %ld: %s (status %d): %.300s\n", cls, n, why, r.status, r.err);
    if (why) {
        w->other++;
        if (!w->first_other[0])
            snprintf(w->first_other, sizeof(w->first_other), "%s allocation %ld: %s (status %d): %.2000s",
                     cls, n, why, r.status, r.err);
    } else {
        w->clean++;
        w->recovered += r.status == 0;
    }
    if (strcmp(now, w->before) != 0) {
        char cmd[9000];
        snprintf(cmd, sizeof(cmd), "rm -rf '%s' && cp -a '%s' '%s'", w->dir, w->pristine, w->dir);
        sh(cmd);
    }
    free(now);
    tu_run_free(&r);
}

START_TEST(every_allocation_failure_ends_cleanly_and_leaves_the_work_dir_as_it_was)
{
    const char *tmp = tu_tmpdir();
    char dir[1024], pristine[1100], cmd[16384];
    snprintf(dir, sizeof(dir), "%s/w", tmp);
    snprintf(pristine, sizeof(pristine), "%s/pristine", tmp);
    walk w = {.dir = dir, .pristine = pristine};
    /* run A, another graph with every output on, is what the folder holds before each failed run, with a
     * file of the user's; without A's ptosim_run.json, which a run reads (for a session's folders) with
     * ~3,400 allocations of cJSON that would swamp the walk */
    snprintf(cmd, sizeof(cmd),
             "%s run %s -o '%s' --enable-dep-gen --enable-scope-stats --enable-chip-swimlane --enable-pmu "
             "--dump-args=2 --enable-perfetto --no-host-timing --quiet && rm '%s/ptosim_run.json' && "
             "echo mine > '%s/notes.txt' && cp -a '%s' '%s'",
             PTOSIM_BIN, TRACE("forkjoin.jsonl"), dir, dir, dir, dir, pristine);
    sh(cmd);
    w.before = snapshot(dir);
    /* run B over it, whole: the folder it leaves, and how many allocations of each class it makes */
    long own = 0, lib = 0;
    run_out r = run_b(dir, "own", 0, &own, &lib);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    w.after = snapshot(dir);
    ck_assert_str_ne(w.before, w.after);
    snprintf(cmd, sizeof(cmd), "rm -rf '%s' && cp -a '%s' '%s'", dir, pristine, dir);
    sh(cmd);
    ck_assert_int_gt(own, 100);
    ck_assert_int_gt(lib, 10); /* ~2,800; in the sanitized build ASan serves SimGrid's operator new itself */
    for (long n = 1; n <= own; n++)
        step(&w, "own", n, true);
    long own_sites = w.sites, own_clean = w.clean, own_recovered = w.recovered, own_other = w.other;
    ck_assert_int_ge(w.collector, 2); /* publish's two and the queue's: each of them reached */
    for (long n = 1; n <= lib; n += LIB_STRIDE)
        step(&w, "lib", n, false);
    printf(
        "oom walk: ptosim's own allocations: %ld sites, %ld clean (%ld of them recovered: exit 0 with the "
        "run's files; %ld in SimGrid's calls, which it aborted), %ld other; SimGrid's (every %dth of %ld): "
        "%ld sites, %ld clean, %ld other\n",
        own_sites, own_clean, own_recovered, w.in_simgrid, own_other, LIB_STRIDE, lib, w.sites - own_sites,
        w.clean - own_clean, w.other - own_other);
    fflush(stdout);
    ck_assert_msg(w.other == 0, "%ld of %ld failed allocations did not end cleanly; the first: %s", w.other,
                  w.sites, w.first_other);
    free(w.before);
    free(w.after);
}
END_TEST

/* Runs ptosim with args under the injector, environment name=value set, failing in class cls. */
static run_out run_failing(const char *const *args, const char *name, const char *value, const char *cls)
{
    setenv(name, value, 1);
    setenv("FAILALLOC_CLASS", cls, 1);
    run_out r = tu_run_preloaded(args, PTOSIM_FAILALLOC, "detect_leaks=0");
    unsetenv(name);
    return r;
}

START_TEST(a_platform_file_read_without_memory_is_named_as_memory_not_as_bad_json)
{
    /* the first allocations of a run read the platform: it was "unknown platform" or "not valid JSON",
     * status 2 */
    const char *args[] = {"run", TRACE("chain3.jsonl"), "--quiet", NULL};
    for (int n = 1; n <= 2; n++) {
        run_out r = run_failing(args, "FAILALLOC_N", n == 1 ? "1" : "2", "own");
        ck_assert_int_eq(r.status, 1);
        char want[4200];
        snprintf(want, sizeof(want), "ptosim: %.*s/../platforms/a2a3.json: out of memory\n",
                 (int)(strrchr(PTOSIM_BIN, '/') - PTOSIM_BIN), PTOSIM_BIN);
        ck_assert_str_eq(r.err, want);
        tu_run_free(&r);
    }
}
END_TEST

START_TEST(a_formatted_write_cut_short_for_memory_fails_the_run_and_commits_nothing)
{
    /* glibc's vfprintf, short of memory for a long format, writes the text before the first conversion and
     * returns -1 without marking the stream: scope_stats.jsonl's header was cut and the run exited 0 */
    const char *tmp = tu_tmpdir();
    char dir[1024], want[4096];
    snprintf(dir, sizeof(dir), "%s/w", tmp);
    const char *args[] = {"run", TRACE("chain3.jsonl"), "-o", dir, "--enable-scope-stats", "--quiet", NULL};
    run_out r = run_failing(args, "FAILALLOC_SYM", "__libc_scratch_buffer_grow_preserve", "own");
    ck_assert_int_eq(r.status, 1);
    snprintf(
        want, sizeof(want),
        "ptosim: %s/.ptosim-run/dfx_outputs/scope_stats/scope_stats.jsonl: write failed: Cannot allocate "
        "memory\nptosim: nothing was written to %s\n", /* the run made the folder: there was no run in it */
        dir, dir);
    ck_assert_str_eq(r.err, want);
    ck_assert(!tu_exists(dir));
    tu_run_free(&r);
}
END_TEST

START_TEST(conform_short_of_memory_for_the_platform_is_its_own_failure_not_a_bad_platform)
{
    /* conform read its platform like run does, but ended every failure of it with 2 (a bad platform). Its
     * status 1 means "the capture differs": memory is 7, conform itself failed, as its help says. The
     * allocations before the platform's read the capture; each n is tried until a run ends at the
     * platform, and that run, and any other that does, must say memory. A -o that cannot be made ends the
     * runs that get past the platform before anything is simulated. */
    const char *tmp = tu_tmpdir();
    char *plat = tu_copy(tmp, "p.json", PTOSIM_SRCDIR "/platforms/a2a3sim.json");
    char *file = tu_write(tmp, "f", "x");
    char work[4200], num[32], want[4200], tag[4200];
    snprintf(work, sizeof(work), "%s/w", file);
    snprintf(want, sizeof(want), "ptosim conform: %s: out of memory\n", plat);
    snprintf(tag, sizeof(tag), "ptosim conform: %s", plat);
    const char *args[] = {"conform", PTOSIM_SRCDIR "/tests/real/dummy_dense", "-p", plat, "-o", work, NULL};
    int hits = 0;
    bool past = false;
    for (long n = 1; n <= 2000 && !past; n++) {
        snprintf(num, sizeof(num), "%ld", n);
        run_out r = run_failing(args, "FAILALLOC_N", num, "own");
        if (strstr(r.err, tag)) {
            ck_assert_str_eq(r.err, want);
            ck_assert_int_eq(r.status, 7);
            hits++;
        } else if (hits) { /* the first allocation after the platform's: the runs from here on get past it */
            past = true;
        }
        tu_run_free(&r);
    }
    ck_assert_int_ge(hits, 1);
    ck_assert(past);
    ck_assert(!tu_exists(work));
    free(plat);
    free(file);
}
END_TEST

/* Runs args with the n-th allocation of class cls failed; *own and *lib get the counts when given. */
static run_out run_nth(const char *const *args, const char *cls, long n, long *own, long *lib)
{
    const char *tmp = tu_tmpdir();
    char num[32], log[1100];
    snprintf(num, sizeof(num), "%ld", n);
    snprintf(log, sizeof(log), "%s/failalloc.log", tmp);
    setenv("FAILALLOC_LOG", log, 1);
    run_out r = run_failing(args, "FAILALLOC_N", num, cls);
    unsetenv("FAILALLOC_LOG");
    if (own || lib) {
        char *text = tu_read(log);
        ck_assert_msg(text && sscanf(text, "own %ld lib %ld", own, lib) == 2, "no counts in %s", log);
        free(text);
    }
    return r;
}

START_TEST(simgrid_short_of_memory_loading_the_platform_is_status_1_naming_memory)
{
    /* the platform's XML is loaded first in a child of its own (sgrun_check_platform), and SimGrid's first
     * allocations are that child's: each is failed in turn until a run gets past the check. A child that
     * said so (bad_alloc, xbt's or the XML lexer's "out of dynamic memory") or crashed without a word on the
     * file (an allocation it did not check) must not be called a bad platform (2, with the usage line): it
     * was status 2 for the lexer's message, an assertion after it and a segmentation fault, and for a
     * bad_alloc reported past the first line */
    /* not in the sanitized build: there SimGrid's lexer, handed a NULL it does not check, is stopped by
     * ASan as a finding of the library's (its report fails check-sanitize), where it is a crash to name */
    if (!SEES_SIMGRID_NEW)
        return;
    const char *tmp = tu_tmpdir();
    char out[1100], tag[4200], oom[4400], xml[4096];
    snprintf(out, sizeof(out), "%s/o", tmp);
    snprintf(xml, sizeof(xml), "%.*s/../platforms/a2a3.xml", (int)(strrchr(PTOSIM_BIN, '/') - PTOSIM_BIN),
             PTOSIM_BIN);
    snprintf(tag, sizeof(tag), "ptosim: platform a2a3: %s: ", xml);
    snprintf(oom, sizeof(oom), "%sSimGrid could not load it: out of memory\n", tag);
    const char *args[] = {"run", TRACE("chain3.jsonl"), "-o", out, "--quiet", NULL};
    long said = 0, crashed = 0, n;
    for (n = 1; n <= 5000; n++) {
        run_out r = run_nth(args, "lib", n, NULL, NULL);
        bool at_check = tu_starts(r.err, tag);
        if (at_check) {
            ck_assert_msg(r.status == 1, "lib allocation %ld: status %d: %s", n, r.status, r.err);
            if (strcmp(r.err, oom) == 0) {
                said++;
            } else { /* "SimGrid crashed loading it (SIGNAL; out of memory?)" */
                char want[4400];
                snprintf(want, sizeof(want), "%sSimGrid crashed loading it (", tag);
                ck_assert_msg(tu_starts(r.err, want), "lib allocation %ld: %s", n, r.err);
                ck_assert_msg(strcmp(r.err + strlen(r.err) - 17, "; out of memory?)\n") == 0 ||
                                  strcmp(r.err + strlen(r.err) - 18, "; out of memory?)\n") == 0,
                              "%s", r.err);
                crashed++;
            }
            ck_assert(!tu_exists(out));
        }
        tu_run_free(&r);
        if (!at_check)
            break;
    }
    ck_assert_int_gt(said, 100); /* of the ~490 the check makes */
    printf("oom: SimGrid loading the platform: %ld allocations failed, %ld said memory, %ld crashed\n", n - 1,
           said, crashed);
    fflush(stdout);
}
END_TEST

/* The lines "Writing to disk" of seconds 1 to 10 with left args remaining, as the collector logs them once
 * a simulated second while it waits. */
static void writing_lines(char *buf, size_t len, long left)
{
    size_t at = 0;
    for (int s = 1; s <= 10; s++)
        at += (size_t)snprintf(buf + at, len - at,
                               "ptosim: [host] Writing to disk: 0.0 GB written, %ld args remaining (%ds)\n", left, s);
}

START_TEST(simgrid_short_of_memory_under_the_collector_ends_the_run_naming_the_stall)
{
    /* chain3 with --dump-args=2: six args of 64 KiB, each 65536 B / 42 MB/s = 1.560 ms over the collector
     * link. SimGrid's last allocations are the collector's (its comms, sleeps and semaphores): each is failed
     * in turn from the last one back until both outcomes that are not an abort of SimGrid's have been seen.
     * - an actor stuck in a call that failed: the engine waits 10 + 4 x (1.560 ms + 1 us + 10 us) = 10.006 s
     *   of simulated time without a record written, checking once a simulated second: at 11 s it ends the
     *   run (status 1), having logged seconds 1 to 10;
     * - every actor stuck: SimGrid itself stops with the engine still waiting, before the six copies are
     *   done (85.481 us of device time + 6 x 1.571 ms = 9.51 ms at most): status 1, not 6 "deadlock".
     * Either way the folder is not made. */
    if (!SEES_SIMGRID_NEW) /* both come of operator new failing under an actor, which ASan serves */
        return;
    const char *tmp = tu_tmpdir();
    char out[1100];
    snprintf(out, sizeof(out), "%s/o", tmp);
    const char *args[] = {"run", TRACE("chain3.jsonl"), "-o", out, "--dump-args=2", "--no-host-timing", "--quiet",
                          NULL};
    long own = 0, lib = 0;
    run_out r = run_nth(args, "lib", 0, &own, &lib);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char cmd[2300];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", out);
    sh(cmd);
    int stalls = 0, waits = 0;
    for (long n = lib; n > lib - 300 && (!stalls || !waits); n--) {
        r = run_nth(args, "lib", n, NULL, NULL);
        char keep[1300], want[8192];
        snprintf(keep, sizeof(keep), "ptosim: nothing was written to %s\n", out); /* made by the run */
        const char *stall = strstr(r.err, "ptosim: error: the args dump collector wrote nothing");
        const char *wait = strstr(r.err, "ptosim: simulation deadlock: SimGrid stopped at ");
        if (stall) {
            long left = 0, collected = 0;
            ck_assert(sscanf(stall, "ptosim: error: the args dump collector wrote nothing for 11 simulated "
                                    "seconds with %ld args left",
                             &left) == 1);
            ck_assert_msg(left >= 1 && left <= 6, "%s", r.err);
            const char *c = strstr(r.err, "ptosim: [host] Collected ");
            char last[200];
            if (c) {
                ck_assert(sscanf(c, "ptosim: [host] Collected %ld args", &collected) == 1);
                ck_assert(collected >= 6 - left && collected <= 6);
                snprintf(last, sizeof(last),
                         "ptosim: [host] Collected %ld args, wrote 0.0 GB to disk (11.0s)\n", collected);
            } else {
                snprintf(last, sizeof(last), "ptosim: [host] No args dump data to export\n");
            }
            char lines[2000];
            writing_lines(lines, sizeof(lines), left);
            snprintf(want, sizeof(want),
                     "%s%sptosim: error: the args dump collector wrote nothing for 11 simulated seconds with %ld "
                     "args left: one of its SimGrid actors is stuck (out of memory inside SimGrid?)\n%s",
                     c || left < 6 ? lines : "", last, left, keep);
            ck_assert_msg(r.status == 1, "lib allocation %ld: status %d", n, r.status);
            ck_assert_str_eq(r.err, want);
            stalls++;
        } else if (wait) {
            double t = 0;
            ck_assert(sscanf(wait, "ptosim: simulation deadlock: SimGrid stopped at %lf s", &t) == 1);
            ck_assert_msg(t >= 85.481e-6 && t <= 9.51e-3, "%s", r.err);
            char stopped[64];
            snprintf(stopped, sizeof(stopped), "%.9f", t);
            snprintf(want, sizeof(want),
                     "ptosim: simulation deadlock: SimGrid stopped at %s s with the chip engine still waiting (no "
                     "actor could make progress); ptosim's SimGrid actors were left waiting (out of memory inside "
                     "SimGrid?)\n%s",
                     stopped, keep);
            ck_assert_msg(r.status == 1, "lib allocation %ld: status %d", n, r.status);
            ck_assert_str_eq(wait, want); /* after SimGrid's own "Deadlock detected" line */
            ck_assert_ptr_nonnull(strstr(r.err, "[ker_engine/CRITICAL] Oops! Deadlock detected"));
            waits++;
        }
        if (r.status != 0)
            ck_assert_msg(!tu_exists(out), "lib allocation %ld: status %d made %s", n, r.status, out);
        else
            sh(cmd);
        tu_run_free(&r);
    }
    ck_assert_int_ge(stalls, 1);
    ck_assert_int_ge(waits, 1);
}
END_TEST

Suite *suite_oom(void)
{
    Suite *s = suite_create("oom");
    /* one failed allocation each, named messages (CK_RUN_CASE=messages runs them alone) */
    TCase *tm = tcase_create("messages");
    tcase_set_timeout(tm, 300);
    tcase_add_test(tm, a_platform_file_read_without_memory_is_named_as_memory_not_as_bad_json);
    tcase_add_test(tm, a_formatted_write_cut_short_for_memory_fails_the_run_and_commits_nothing);
    tcase_add_test(tm, conform_short_of_memory_for_the_platform_is_its_own_failure_not_a_bad_platform);
    tcase_add_test(tm, simgrid_short_of_memory_loading_the_platform_is_status_1_naming_memory);
    tcase_add_test(tm, simgrid_short_of_memory_under_the_collector_ends_the_run_naming_the_stall);
    suite_add_tcase(s, tm);
    TCase *tc = tcase_create("walk");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, every_allocation_failure_ends_cleanly_and_leaves_the_work_dir_as_it_was);
    suite_add_tcase(s, tc);
    return s;
}
