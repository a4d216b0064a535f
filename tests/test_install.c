/* test_install.c - `make install`: the installed tree runs with the source and build trees gone. */
/* The man page and bash completion cover every command. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* Runs a shell command line; returns its exit status. */
static int sh(const char *cmd)
{
    const char *args[] = {"/bin/sh", "-c", cmd, NULL};
    run_out r = tu_run_prog(args);
    int st = r.status;
    if (st != 0)
        fprintf(stderr, "%s: exit %d\n%s%s", cmd, st, r.out, r.err);
    tu_run_free(&r);
    return st;
}

/* Installs a copy of the built tree into dir/prefix, then removes the copy:
 * what a user has after `make install` and deleting the sources. */
static const char *install_and_delete(const char *dir)
{
    static char prefix[4200];
    char cmd[16384];
    snprintf(prefix, sizeof(prefix), "%s/prefix", dir);
    snprintf(cmd, sizeof(cmd),
             "set -e; mkdir %s/src; cd '%s'; cp -a Makefile model sim platforms scripts build %s/src/; "
             "make -s -C %s/src install PREFIX=%s >/dev/null; rm -rf %s/src",
             dir, PTOSIM_SRCDIR, dir, dir, prefix, dir);
    ck_assert_int_eq(sh(cmd), 0);
    return prefix;
}

START_TEST(the_installed_tree_runs_without_the_sources)
{
    const char *dir = tu_tmpdir(), *prefix = install_and_delete(dir);
    char bin[4300];
    snprintf(bin, sizeof(bin), "%s/bin/ptosim", prefix);
    /* the platforms come from PREFIX/share/ptosim/platforms */
    const char *params[] = {bin, "params", NULL};
    run_out r = tu_run_prog(params);
    ck_assert_int_eq(r.status, 0);
    char want[4400];
    snprintf(want, sizeof(want), "platform a2a3 (%s/bin/../share/ptosim/platforms/a2a3.json)\n", prefix);
    ck_assert_msg(strncmp(r.out, want, strlen(want)) == 0, "%s", r.out);
    tu_run_free(&r);
    /* the chain worked out in test_chip.c, on both shipped platforms */
    char *g = tu_read(TRACE("chain3.jsonl"));
    char *graph = tu_write(dir, "chain3.jsonl", g);
    free(g);
    const char *run[] = {bin, "run", graph, NULL};
    r = tu_run_prog(run);
    ck_assert_int_eq(r.status, 0);
    ck_assert_ptr_nonnull(strstr(r.out, "makespan 35.084 us"));
    tu_run_free(&r);
    const char *sim[] = {bin, "run", graph, "-p", "a2a3sim", "--quiet", NULL};
    r = tu_run_prog(sim);
    ck_assert_int_eq(r.status, 0);
    tu_run_free(&r);
    /* a user's platform elsewhere names a2a3 as its base: found in the platform folder */
    char *mine = tu_write(dir, "mine.json",
                          "{\"ptosim_platform\": 1, \"base\": \"a2a3\", \"name\": \"mine\", "
                          "\"params\": {\"clusters\": 4}}\n");
    const char *own[] = {bin, "params", "-p", mine, NULL};
    r = tu_run_prog(own);
    ck_assert_int_eq(r.status, 0);
    ck_assert_ptr_nonnull(strstr(r.out, "\nclusters                                  4 "));
    tu_run_free(&r);
    /* PTOSIM_PLATFORM_DIR is where names are looked up */
    char pdir[4300], cmd[16384];
    snprintf(pdir, sizeof(pdir), "%s/plats", dir);
    snprintf(cmd, sizeof(cmd), "mkdir %s && cp %s/share/ptosim/platforms/* %s/ && cp %s %s/mine.json", pdir,
             prefix, pdir, mine, pdir);
    ck_assert_int_eq(sh(cmd), 0);
    setenv("PTOSIM_PLATFORM_DIR", pdir, 1);
    const char *named[] = {bin, "params", "-p", "mine", NULL};
    r = tu_run_prog(named);
    unsetenv("PTOSIM_PLATFORM_DIR");
    ck_assert_int_eq(r.status, 0);
    snprintf(want, sizeof(want), "platform mine (%s/mine.json)\n", pdir);
    ck_assert_msg(strncmp(r.out, want, strlen(want)) == 0, "%s", r.out);
    tu_run_free(&r);
    free(graph);
    free(mine);
}
END_TEST

START_TEST(the_man_page_and_completion_cover_every_command)
{
    const char *dir = tu_tmpdir(), *prefix = install_and_delete(dir);
    char path[4400];
    snprintf(path, sizeof(path), "%s/share/man/man1/ptosim.1", prefix);
    char *man = tu_read(path);
    ck_assert_ptr_nonnull(man);
    /* every command of `ptosim --help` has its entry */
    const char *help[] = {"--help", NULL};
    run_out r = tu_run(help);
    int commands = 0;
    for (char *l = strstr(r.out, "commands:\n"); l && (l = strchr(l, '\n')) != NULL; l++) {
        char name[32];
        if (sscanf(l + 1, "  %31[a-z]", name) != 1 || l[1] != ' ' || l[3] == ' ')
            continue;
        char entry[64];
        snprintf(entry, sizeof(entry), ".TP\n.B %s\n", name);
        ck_assert_msg(strstr(man, entry), "the man page has no entry for %s", name);
        commands++;
    }
    ck_assert_int_ge(commands, 9);
    tu_run_free(&r);
    /* and every exit status */
    for (int st = 0; st <= 7; st++) {
        char entry[32];
        snprintf(entry, sizeof(entry), ".TP\n.B %d\n", st);
        ck_assert_msg(strstr(man, entry), "no exit status %d", st);
    }
    free(man);
    /* completion, with the installed ptosim on PATH (it answers for the commands with an option table): the
     * commands, then a command's options, from the binary and from the script */
    char cmd[16384];
    snprintf(cmd, sizeof(cmd),
             "PATH=%s/bin:$PATH bash -c '. %s/share/bash-completion/completions/ptosim; "
             "complete -p ptosim | grep -q _ptosim; "
             "COMP_WORDS=(ptosim co); COMP_CWORD=1; _ptosim; test \"${COMPREPLY[*]}\" = conform; "
             "COMP_WORDS=(ptosim run g --enable-d); COMP_CWORD=3; _ptosim; "
             "test \"${COMPREPLY[*]}\" = \"--enable-dep-gen\"; "
             "COMP_WORDS=(ptosim import --co); COMP_CWORD=2; _ptosim; test \"${COMPREPLY[*]}\" = --costs'",
             prefix, prefix);
    ck_assert_int_eq(sh(cmd), 0);
}
END_TEST

Suite *suite_install(void)
{
    Suite *s = suite_create("install");
    TCase *tc = tcase_create("make install");
    tcase_set_timeout(tc, 240); /* each rebuilds the tree: about 52 s alone, past a minute on a loaded machine */
    tcase_add_test(tc, the_installed_tree_runs_without_the_sources);
    tcase_add_test(tc, the_man_page_and_completion_cover_every_command);
    suite_add_tcase(s, tc);
    return s;
}
