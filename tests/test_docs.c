/* test_docs.c - the documentation's checks (make check-docs) on the fixture documents of tests/docs/. */
/* A broken example, link or man page fails with its FILE:LINE or its command and option; the runner
 * leaves no folder and no process behind, whether a document passes, fails, times out or is stopped. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "testutil.h"

/* Starts `bash SCRIPT ARGS...` (args: script first, NULL-terminated) in the source tree with TMPDIR tmp,
 * PTOSIM_BIN the build under test, stdout and stderr into tmp/../out and tmp/../err; returns its pid. */
static pid_t start(const char *tmp, const char *const *args)
{
    char out[4200], err[4200];
    snprintf(out, sizeof(out), "%s.out", tmp);
    snprintf(err, sizeof(err), "%s.err", tmp);
    const char *argv[32] = {"/bin/bash"};
    int n = 1;
    for (int i = 0; args[i] && n < 31; i++)
        argv[n++] = args[i];
    argv[n] = NULL;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0) {
        int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600),
            fe = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fo < 0 || fe < 0 || chdir(PTOSIM_SRCDIR) != 0)
            _exit(127);
        dup2(fo, 1);
        dup2(fe, 2);
        setenv("TMPDIR", tmp, 1);
        setenv("PTOSIM_BIN", PTOSIM_BIN, 1);
        /* the default action, whatever the test runner was started with */
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    return pid;
}

/* Asserts that folder dir is empty: the script removed every temporary it made there. */
static void assert_empty(const char *dir)
{
    DIR *d = opendir(dir);
    ck_assert_msg(d != NULL, "%s: %s", dir, strerror(errno));
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        ck_assert_msg(strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0, "%s/%s is left behind",
                      dir, e->d_name);
    closedir(d);
}

/* Waits for the script started with start(tmp, ...) and returns its exit status and output; asserts that it
 * left nothing in its TMPDIR. */
static run_out finish(const char *tmp, pid_t pid)
{
    run_out r = {0};
    int st = 0;
    ck_assert(waitpid(pid, &st, 0) == pid);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    char path[4200];
    snprintf(path, sizeof(path), "%s.out", tmp);
    r.out = tu_read(path);
    snprintf(path, sizeof(path), "%s.err", tmp);
    r.err = tu_read(path);
    ck_assert(r.out && r.err);
    assert_empty(tmp);
    return r;
}

/* A fresh TMPDIR for one script run (a folder of its own inside a test folder). */
static const char *fresh_tmp(void)
{
    static char buf[4][4200];
    static int next;
    char *p = buf[next++ % 4];
    snprintf(p, sizeof(buf[0]), "%s/tmp", tu_tmpdir());
    ck_assert(mkdir(p, 0700) == 0);
    return p;
}

/* Runs `bash SCRIPT ARGS...` to its end (see start and finish). */
static run_out script(const char *const *args)
{
    const char *tmp = fresh_tmp();
    return finish(tmp, start(tmp, args));
}

/* Asserts the status, stdout and stderr of a run, each exactly. */
static void expect(run_out r, int status, const char *out, const char *err)
{
    ck_assert_msg(r.status == status, "exit %d, expected %d\nstdout:\n%s\nstderr:\n%s", r.status, status,
                  r.out, r.err);
    ck_assert_str_eq(r.out, out);
    ck_assert_str_eq(r.err, err);
}

/* Is process pid gone (or a zombie: dead, waiting for a parent to read its status)? */
static int dead(pid_t pid)
{
    char path[64], buf[512];
    snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 1;
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *s = strrchr(buf, ')'); /* "pid (comm) S ..." */
    return s && s[1] == ' ' && (s[2] == 'Z' || s[2] == 'X');
}

/* The pid a fixture's command wrote into path. */
static pid_t pid_in(const char *path)
{
    char *text = tu_read(path);
    ck_assert_msg(text != NULL, "%s: the command did not run", path);
    pid_t pid = (pid_t)atoi(text);
    free(text);
    ck_assert_int_gt(pid, 1);
    return pid;
}

START_TEST(a_document_whose_examples_hold_passes)
{
    /* ptosim on PATH, the checkout's folders linked, `...`, continuation lines, stderr joined, [exit N],
     * a later block reading an earlier one's file, requires= skipping, fences that are not run */
    const char *args[] = {"scripts/check_docs.sh", "tests/docs/pass.md", NULL};
    run_out r = script(args);
    expect(
        r, 0,
        "docs: tests/docs/pass.md:49: block skipped: requires tests/docs/no-such-thing, which is not there\n"
        "docs: tests/docs/pass.md: 5 blocks (1 skipped), 6 commands ok\n"
        "docs: 1 document, 5 blocks (1 skipped), 6 commands ok\n",
        "");
    tu_run_free(&r);
}
END_TEST

#define FAILED_LINES(doc)                                                                                    \
    "docs: " doc ": FAILED after 0 commands ok (the rest of the document not run)\n"                         \
    "docs: 1 of 1 document FAILED\n"

START_TEST(an_expected_line_not_printed_fails_at_its_line)
{
    const char *args[] = {"scripts/check_docs.sh", "tests/docs/fail_line.md", NULL};
    run_out r = script(args);
    expect(r, 1, FAILED_LINES("tests/docs/fail_line.md"),
           "tests/docs/fail_line.md:6: not printed: makespan 36.000 us\n"
           "tests/docs/fail_line.md:4: the output of $ echo 'makespan 35.084 us'; echo done (exit 0):\n"
           "    makespan 35.084 us\n"
           "    done\n");
    tu_run_free(&r);
}
END_TEST

START_TEST(the_wildcard_matches_text_within_a_line_and_lines_come_in_order)
{
    const char *wild[] = {"scripts/check_docs.sh", "tests/docs/fail_wildcard.md", NULL};
    run_out r = script(wild);
    expect(r, 1, FAILED_LINES("tests/docs/fail_wildcard.md"),
           "tests/docs/fail_wildcard.md:5: not printed: makespan ... ms\n"
           "tests/docs/fail_wildcard.md:4: the output of $ echo 'makespan 35.084 us' (exit 0):\n"
           "    makespan 35.084 us\n");
    tu_run_free(&r);
    const char *order[] = {"scripts/check_docs.sh", "tests/docs/fail_order.md", NULL};
    r = script(order);
    expect(r, 1, FAILED_LINES("tests/docs/fail_order.md"),
           "tests/docs/fail_order.md:6: not printed: first\n"
           "tests/docs/fail_order.md:4: the output of $ printf 'first\\nsecond\\n' (exit 0):\n"
           "    first\n"
           "    second\n");
    tu_run_free(&r);
}
END_TEST

START_TEST(a_wrong_exit_status_fails_and_stops_the_document)
{
    /* at the [exit N] line; the document's later commands and blocks are not run */
    const char *args[] = {"scripts/check_docs.sh", "tests/docs/fail_exit.md", NULL};
    run_out r = script(args);
    expect(r, 1, FAILED_LINES("tests/docs/fail_exit.md"),
           "tests/docs/fail_exit.md:6: exit status 4, expected 3\n"
           "tests/docs/fail_exit.md:4: the output of $ echo hello; exit 4 (exit 4):\n"
           "    hello\n");
    tu_run_free(&r);
    /* without [exit N] the command must exit 0: at the command's line */
    const char *zero[] = {"scripts/check_docs.sh", "tests/docs/fail_status0.md", NULL};
    r = script(zero);
    expect(
        r, 1, FAILED_LINES("tests/docs/fail_status0.md"),
        "tests/docs/fail_status0.md:4: exit status 3, expected 0\n"
        "tests/docs/fail_status0.md:4: the output of $ ptosim validate traces/no-such-graph.jsonl (exit 3):\n"
        "    ptosim: traces/no-such-graph.jsonl: cannot open graph file: No such file or directory\n");
    tu_run_free(&r);
}
END_TEST

START_TEST(a_command_past_its_timeout_is_killed_with_its_children)
{
    char pidfile[4200];
    snprintf(pidfile, sizeof(pidfile), "%s/pid", tu_tmpdir());
    setenv("DOCS_TEST_PIDFILE", pidfile, 1);
    const char *args[] = {"scripts/check_docs.sh", "tests/docs/fail_timeout.md", NULL};
    run_out r = script(args);
    expect(r, 1, FAILED_LINES("tests/docs/fail_timeout.md"),
           "tests/docs/fail_timeout.md:4: timed out after 1 s (killed)\n"
           "tests/docs/fail_timeout.md:4: the output of $ sleep 60 & echo $! > \"$DOCS_TEST_PIDFILE\"; "
           "sleep 60 (exit 124):\n"
           "    (no output)\n");
    /* the command's background child died with it */
    pid_t child = pid_in(pidfile);
    ck_assert_msg(dead(child), "the command's child %d still runs", (int)child);
    tu_run_free(&r);
}
END_TEST

/* Stops the runner with sig while a fixture's command runs: it exits 128 + sig, having killed the command
 * and its child and removed its folders. */
static void stop_with(int sig)
{
    char pidfile[4200];
    snprintf(pidfile, sizeof(pidfile), "%s/pid", tu_tmpdir());
    setenv("DOCS_TEST_PIDFILE", pidfile, 1);
    const char *tmp = fresh_tmp();
    const char *args[] = {"scripts/check_docs.sh", "tests/docs/long.md", NULL};
    pid_t pid = start(tmp, args);
    /* the command has started once it wrote its child's pid (the case's own timeout bounds a hang) */
    struct timespec tick = {0, 10 * 1000 * 1000};
    char *text;
    while ((text = tu_read(pidfile)) == NULL || strchr(text, '\n') == NULL) {
        free(text);
        nanosleep(&tick, NULL);
    }
    free(text);
    pid_t child = pid_in(pidfile);
    ck_assert_int_eq(kill(pid, sig), 0);
    run_out r = finish(tmp, pid);
    expect(r, 128 + sig, "", "check_docs: stopped by a signal\n");
    ck_assert_msg(dead(child), "the command's child %d still runs", (int)child);
    tu_run_free(&r);
}

START_TEST(a_stopped_runner_kills_its_command_and_removes_its_folders)
{
    stop_with(SIGTERM);
    stop_with(SIGINT);
}
END_TEST

START_TEST(malformed_console_blocks_are_refused_before_anything_runs)
{
    const char *args[] = {"scripts/check_docs.sh", "tests/docs/malformed.md", NULL};
    run_out r = script(args);
    expect(
        r, 1,
        "docs: tests/docs/malformed.md: FAILED (the document's console blocks are malformed; nothing run)\n"
        "docs: 1 of 1 document FAILED\n",
        "tests/docs/malformed.md:3: console block: timeout=soon: not a whole number of seconds >= 1\n"
        "tests/docs/malformed.md:3: console block: unknown word retries=3 (requires=PATH, timeout=SECONDS)\n"
        "tests/docs/malformed.md:4: console block: a line before the first command ($ ...)\n"
        "tests/docs/malformed.md:7: console block: a second [exit N] for one command\n"
        "tests/docs/malformed.md:9: console block: [exit 256]: an exit status is 0-255\n"
        "tests/docs/malformed.md:13: console block: the command continues (\\) past the end of the block\n"
        "tests/docs/malformed.md:16: console block: not closed\n");
    tu_run_free(&r);
}
END_TEST

START_TEST(the_runner_says_what_it_cannot_run)
{
    /* documents in sorted order, each once; one that is missing fails, the others still run */
    const char *args[] = {"scripts/check_docs.sh", "tests/docs/sub/target.md", "tests/docs/nowhere.md",
                          "tests/docs/sub/target.md", NULL};
    run_out r = script(args);
    expect(r, 1,
           "docs: tests/docs/nowhere.md: FAILED\n"
           "docs: tests/docs/sub/target.md: 0 blocks, 0 commands ok\n"
           "docs: 1 of 2 documents FAILED\n",
           "tests/docs/nowhere.md: no such file\n");
    tu_run_free(&r);
    const char *bad[] = {"scripts/check_docs.sh", "--all", NULL};
    r = script(bad);
    expect(r, 2, "", "usage: scripts/check_docs.sh [FILE.md ...]\n");
    tu_run_free(&r);
    const char *tmp = fresh_tmp();
    /* start() sets PTOSIM_BIN to the build's: this one goes through env instead */
    const char *noptosim[] = {"-c", "PTOSIM_BIN=/nonexistent/ptosim exec bash scripts/check_docs.sh", NULL};
    r = finish(tmp, start(tmp, noptosim));
    expect(r, 2, "", "check_docs: /nonexistent/ptosim: no such program (run make first)\n");
    tu_run_free(&r);
}
END_TEST

START_TEST(links_that_resolve_pass)
{
    /* files, folders, anchors as GitHub slugs headings (code, links, HTML, punctuation, repeats, setext,
     * <a id>), same-file anchors; external links, code spans and fences are not checked */
    const char *args[] = {"scripts/check_links.sh", "tests/docs/links_ok.md", NULL};
    run_out r = script(args);
    expect(r, 0, "links: 15 relative links in 1 document resolve\n", "");
    tu_run_free(&r);
}
END_TEST

START_TEST(a_broken_link_or_anchor_fails_at_its_line)
{
    const char *args[] = {"scripts/check_links.sh", "tests/docs/links_bad.md", NULL};
    run_out r = script(args);
    expect(r, 1, "links: 6 of 6 relative links in 1 document do not resolve\n",
           "tests/docs/links_bad.md:3: link sub/nowhere.md: no such file\n"
           "tests/docs/links_bad.md:3: link sub/target.md#not-a-heading: no heading #not-a-heading in "
           "tests/docs/sub/target.md\n"
           "tests/docs/links_bad.md:4: link sub/target.md#not-a-heading-inside-a-fence: no heading "
           "#not-a-heading-inside-a-fence in tests/docs/sub/target.md\n"
           "tests/docs/links_bad.md:4: link sub/target.md#options-2: no heading #options-2 in "
           "tests/docs/sub/target.md\n"
           "tests/docs/links_bad.md:5: link ../../../outside.md: outside the checkout\n"
           "tests/docs/links_bad.md:7: link no-such-file.md: no such file\n");
    tu_run_free(&r);
    const char *missing[] = {"scripts/check_links.sh", "tests/docs/nowhere.md", NULL};
    r = script(missing);
    expect(r, 2, "", "check_links: tests/docs/nowhere.md: no such file\n");
    tu_run_free(&r);
}
END_TEST

#define MANDIR "tests/docs/manpage/"

START_TEST(a_man_page_and_completion_with_every_option_pass)
{
    const char *args[] = {"scripts/check_manpage.sh", MANDIR "ptosim", MANDIR "ptosim.1",
                          MANDIR "ptosim.bash", NULL};
    run_out r = script(args);
    expect(r, 0,
           "manpage: 4 commands and 14 options of " MANDIR "ptosim in " MANDIR "ptosim.1 and " MANDIR
           "ptosim.bash\n",
           "");
    tu_run_free(&r);
}
END_TEST

START_TEST(an_option_or_command_missing_from_the_man_page_or_completion_is_named)
{
    const char *man[] = {"scripts/check_manpage.sh", MANDIR "ptosim", MANDIR "missing.1",
                         MANDIR "ptosim.bash", NULL};
    run_out r = script(man);
    expect(r, 1, "manpage: 2 missing from " MANDIR "missing.1 or " MANDIR "ptosim.bash\n",
           MANDIR "missing.1: command gen of ptosim --help is not in the man page\n" MANDIR
                  "missing.1: option --seed of ptosim run is not in the man page\n");
    tu_run_free(&r);
    const char *comp[] = {"scripts/check_manpage.sh", MANDIR "ptosim", MANDIR "ptosim.1",
                          MANDIR "missing.bash", NULL};
    r = script(comp);
    expect(r, 1, "manpage: 2 missing from " MANDIR "ptosim.1 or " MANDIR "missing.bash\n",
           MANDIR "missing.bash: ptosim help <TAB> does not offer gen\n" MANDIR
                  "missing.bash: ptosim run -<TAB> does not offer --log\n");
    tu_run_free(&r);
}
END_TEST

START_TEST(the_man_page_check_says_when_it_cannot_read_the_binary)
{
    const char *fails[] = {"scripts/check_manpage.sh", "/bin/false", MANDIR "ptosim.1", MANDIR "ptosim.bash",
                           NULL};
    run_out r = script(fails);
    expect(r, 2, "", "check_manpage: /bin/false --help failed:\n");
    tu_run_free(&r);
    const char *none[] = {"scripts/check_manpage.sh", "/bin/true", MANDIR "ptosim.1", MANDIR "ptosim.bash",
                          NULL};
    r = script(none);
    expect(r, 2, "", "check_manpage: /bin/true --help lists no commands\n");
    tu_run_free(&r);
    const char *gone[] = {"scripts/check_manpage.sh", MANDIR "ptosim", MANDIR "nowhere.1",
                          MANDIR "ptosim.bash", NULL};
    r = script(gone);
    expect(r, 2, "", "check_manpage: " MANDIR "nowhere.1: no such file\n");
    tu_run_free(&r);
}
END_TEST

Suite *suite_docs(void)
{
    Suite *s = suite_create("docs");
    TCase *tc = tcase_create("docs");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, a_document_whose_examples_hold_passes);
    tcase_add_test(tc, an_expected_line_not_printed_fails_at_its_line);
    tcase_add_test(tc, the_wildcard_matches_text_within_a_line_and_lines_come_in_order);
    tcase_add_test(tc, a_wrong_exit_status_fails_and_stops_the_document);
    tcase_add_test(tc, a_command_past_its_timeout_is_killed_with_its_children);
    tcase_add_test(tc, a_stopped_runner_kills_its_command_and_removes_its_folders);
    tcase_add_test(tc, malformed_console_blocks_are_refused_before_anything_runs);
    tcase_add_test(tc, the_runner_says_what_it_cannot_run);
    tcase_add_test(tc, links_that_resolve_pass);
    tcase_add_test(tc, a_broken_link_or_anchor_fails_at_its_line);
    tcase_add_test(tc, a_man_page_and_completion_with_every_option_pass);
    tcase_add_test(tc, an_option_or_command_missing_from_the_man_page_or_completion_is_named);
    tcase_add_test(tc, the_man_page_check_says_when_it_cannot_read_the_binary);
    suite_add_tcase(s, tc);
    return s;
}
