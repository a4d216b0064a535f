/* test_links.c - no file is written, truncated, renamed or deleted through a link ptosim did not make. */
/* Temporaries, a sweep's point folders, a session's program folders, a report's program folders. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../model/base/outfile.h"
#include "../model/output/run_folder.h"
#include "testutil.h"

#define PRECIOUS "precious bytes\n"

/* dir/name, a file of the user's holding PRECIOUS; returns its path (malloc'd). */
static char *victim(const char *dir, const char *name)
{
    return tu_write(dir, name, PRECIOUS);
}

/* Asserts that the file at path still holds PRECIOUS, byte for byte. */
static void assert_precious(const char *path)
{
    char *text = tu_read(path);
    ck_assert_msg(text != NULL, "%s is gone", path);
    ck_assert_str_eq(text, PRECIOUS);
    free(text);
}

/* Makes path a symbolic link to target. */
static void link_to(const char *target, const char *path)
{
    ck_assert_msg(symlink(target, path) == 0, "symlink %s: %s", path, strerror(errno));
}

/* Is path a symbolic link? */
static bool is_link(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
}

/* Is path a folder itself (not a link to one)? */
static bool is_folder(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* ptosim run g1 [g2] -o dir --quiet (g2 NULL: one graph), which must succeed. */
static void run_into(const char *dir, const char *g1, const char *g2)
{
    const char *one[] = {"run", g1, "-o", dir, "--quiet", NULL};
    const char *two[] = {"run", g1, g2, "-o", dir, "--quiet", NULL};
    run_out r = tu_run(g2 ? two : one);
    ck_assert_msg(r.status == 0, "run into %s: status %d: %s", dir, r.status, r.err);
    tu_run_free(&r);
}

START_TEST(outfile_refuses_a_link_at_its_temporary_name_and_keeps_the_target)
{
    const char *dir = tu_tmpdir();
    char *v = victim(dir, "victim");
    char path[4200], tmp[4300], err[8192], want[9000];
    snprintf(path, sizeof(path), "%s/out.json", dir);
    snprintf(tmp, sizeof(tmp), "%s.tmp", path);
    link_to(v, tmp);
    outfile o;
    ck_assert_ptr_null(outfile_open(&o, path, err, sizeof(err)));
    snprintf(
        want, sizeof(want),
        "%s: cannot write: %s is a symbolic link, which ptosim did not make and does not follow; remove it",
        path, tmp);
    ck_assert_str_eq(err, want);
    outfile_abort(&o); /* removes nothing it did not create: the link stays, its target too */
    ck_assert(is_link(tmp));
    ck_assert(!tu_exists(path));
    assert_precious(v);
    /* a regular file left there (a killed run's temporary) is replaced, not written through: a hard link to
     * the user's file keeps its bytes */
    ck_assert_int_eq(unlink(tmp), 0);
    ck_assert_int_eq(link(v, tmp), 0);
    FILE *f = outfile_open(&o, path, err, sizeof(err));
    ck_assert_ptr_nonnull(f);
    fputs("new\n", f);
    ck_assert_int_eq(outfile_commit(&o, err, sizeof(err)), 0);
    char *text = tu_read(path);
    ck_assert_str_eq(text, "new\n");
    free(text);
    ck_assert(!tu_exists(tmp));
    assert_precious(v);
    /* a link at the final name is replaced by the file, not followed */
    ck_assert_int_eq(unlink(path), 0);
    link_to(v, path);
    f = outfile_open(&o, path, err, sizeof(err));
    ck_assert_ptr_nonnull(f);
    fputs("again\n", f);
    ck_assert_int_eq(outfile_commit(&o, err, sizeof(err)), 0);
    ck_assert(!is_link(path));
    assert_precious(v);
    free(v);
}
END_TEST

START_TEST(own_dir_refuses_or_replaces_a_link_and_keeps_its_target)
{
    const char *dir = tu_tmpdir();
    char other[4200], own[4200], err[8192], want[9000];
    snprintf(other, sizeof(other), "%s/other", dir);
    ck_assert_int_eq(mkdir(other, 0755), 0);
    char *v = victim(other, "keep.txt");
    snprintf(own, sizeof(own), "%s/points/0001", dir);
    ck_assert_int_eq(outfile_own_dir(own, 0, err, sizeof(err)), 0); /* made, with its parent */
    ck_assert(is_folder(own));
    ck_assert_int_eq(rmdir(own), 0);
    link_to(other, own);
    ck_assert_int_eq(outfile_own_dir(own, 0, err, sizeof(err)), -1);
    snprintf(want, sizeof(want),
             "%s: is a symbolic link, which ptosim did not make and does not write through; remove it", own);
    ck_assert_str_eq(err, want);
    ck_assert(is_link(own));
    ck_assert_int_eq(outfile_own_dir(own, 1, err, sizeof(err)), 1);
    ck_assert(is_folder(own));
    assert_precious(v);
    free(v);
}
END_TEST

START_TEST(report_refuses_a_linked_temporary_and_leaves_the_target_as_it_was)
{
    /* the impact: a sent folder whose report.html.tmp points at the user's authorized_keys */
    const char *top = tu_tmpdir();
    char *keys = victim(top, "authorized_keys");
    char run[4200], tmp[4300], page[4300], want[9000];
    snprintf(run, sizeof(run), "%s/sent", top);
    run_into(run, TRACE("chain3.jsonl"), NULL);
    snprintf(tmp, sizeof(tmp), "%s/report.html.tmp", run);
    snprintf(page, sizeof(page), "%s/report.html", run);
    link_to("../authorized_keys", tmp);
    const char *args[] = {"report", run, NULL};
    run_out r = tu_run(args);
    ck_assert_int_eq(r.status, 1);
    snprintf(want, sizeof(want),
             "ptosim report: %s: cannot write: %s is a symbolic link, which ptosim did not make and does not "
             "follow; remove it\n",
             page, tmp);
    ck_assert_str_eq(r.err, want);
    ck_assert_str_eq(r.out, "");
    tu_run_free(&r);
    assert_precious(keys);
    ck_assert(!tu_exists(page));
    /* once the link is gone the report is written */
    ck_assert_int_eq(unlink(tmp), 0);
    r = tu_run(args);
    ck_assert_int_eq(r.status, 0);
    tu_run_free(&r);
    ck_assert(tu_exists(page));
    assert_precious(keys);
    free(keys);
}
END_TEST

START_TEST(perfetto_and_sweep_refuse_linked_temporaries)
{
    const char *top = tu_tmpdir();
    char *vp = victim(top, "victim_p"), *vs = victim(top, "victim_s"), *vc = victim(top, "victim_c");
    char trace[4200], tmp[4300], want[9000];
    snprintf(trace, sizeof(trace), "%s/trace.json", top);
    snprintf(tmp, sizeof(tmp), "%s.tmp", trace);
    link_to("victim_p", tmp);
    const char *a1[] = {"run", TRACE("chain3.jsonl"), "--perfetto", trace, "--quiet", NULL};
    run_out r = tu_run(a1);
    ck_assert_int_eq(r.status, 1);
    snprintf(
        want, sizeof(want),
        "ptosim: %s: cannot write: %s is a symbolic link, which ptosim did not make and does not follow; "
        "remove it\n",
        trace, tmp);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    assert_precious(vp);
    ck_assert(!tu_exists(trace));
    /* a sweep's files: the compiled graph, and sweep.csv at the end */
    char sw[4200], csv[4300];
    snprintf(sw, sizeof(sw), "%s/sw", top);
    ck_assert_int_eq(mkdir(sw, 0755), 0);
    snprintf(tmp, sizeof(tmp), "%s/graph.compiled.tmp", sw);
    link_to("../victim_c", tmp);
    snprintf(tmp, sizeof(tmp), "%s/sweep.csv.tmp", sw);
    link_to("../victim_s", tmp);
    const char *a2[] = {"sweep", TRACE("chain3.jsonl"), "--ring-task-window", "16,64", "-o", sw, "-j1", NULL};
    r = tu_run(a2);
    ck_assert_int_ne(r.status, 0);
    ck_assert_msg(strstr(r.err, "graph.compiled.tmp is a symbolic link, which ptosim did not make") != NULL,
                  "%s", r.err);
    tu_run_free(&r);
    snprintf(csv, sizeof(csv), "%s/sweep.csv", sw);
    ck_assert(!tu_exists(csv));
    assert_precious(vc);
    assert_precious(vs);
    /* without the compiled graph's link the sweep runs, and stops at sweep.csv's */
    snprintf(tmp, sizeof(tmp), "%s/graph.compiled.tmp", sw);
    ck_assert_int_eq(unlink(tmp), 0);
    r = tu_run(a2);
    ck_assert_int_ne(r.status, 0);
    ck_assert_msg(strstr(r.err, "sweep.csv.tmp is a symbolic link, which ptosim did not make") != NULL, "%s",
                  r.err);
    tu_run_free(&r);
    ck_assert(!tu_exists(csv));
    assert_precious(vs);
    free(vp);
    free(vs);
    free(vc);
}
END_TEST

START_TEST(a_resumed_sweep_replaces_linked_point_files_and_folders)
{
    const char *top = tu_tmpdir();
    char *v = victim(top, "victim");
    char sw[4200], mine[4200], p0[4300], p1[4300], path[4400];
    snprintf(sw, sizeof(sw), "%s/s", top);
    snprintf(mine, sizeof(mine), "%s/myrun", top);
    const char *a1[] = {"sweep", TRACE("chain3.jsonl"), "--ring-task-window", "16,64", "-o", sw, "-j1", NULL};
    run_out r = tu_run(a1);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    run_into(mine, TRACE("default.jsonl"), NULL);
    snprintf(path, sizeof(path), "%s/dfx_outputs", mine);
    char *notes = victim(path, "notes.txt");
    char *run_json_before;
    snprintf(path, sizeof(path), "%s/ptosim_run.json", mine);
    run_json_before = tu_read(path);
    /* point 0: its stderr.txt links to the user's file, its row is gone */
    snprintf(p0, sizeof(p0), "%s/points/0000", sw);
    snprintf(path, sizeof(path), "%s/row.csv", p0);
    ck_assert_int_eq(unlink(path), 0);
    snprintf(path, sizeof(path), "%s/stderr.txt", p0);
    ck_assert_int_eq(unlink(path), 0);
    link_to("../../../victim", path);
    /* point 1: its folder links to another run */
    snprintf(p1, sizeof(p1), "%s/points/0001", sw);
    const char *rm[] = {"/bin/rm", "-rf", p1, NULL};
    r = tu_run_prog(rm);
    tu_run_free(&r);
    link_to("../../myrun", p1);
    const char *a2[] = {"sweep", TRACE("chain3.jsonl"), "--ring-task-window", "16,64", "--resume", sw, "-j1",
                        NULL};
    r = tu_run(a2);
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    char want[9000];
    snprintf(want, sizeof(want),
             "ptosim sweep: point 1: %s was not a folder (a symbolic link?); replaced by one\n", p1);
    ck_assert_msg(strstr(r.err, want) != NULL, "%s", r.err);
    tu_run_free(&r);
    assert_precious(v);
    snprintf(path, sizeof(path), "%s/stderr.txt", p0);
    ck_assert(!is_link(path));
    /* the other run is as it was; point 1 ran in a folder of its own */
    assert_precious(notes);
    snprintf(path, sizeof(path), "%s/ptosim_run.json", mine);
    char *run_json_after = tu_read(path);
    ck_assert_str_eq(run_json_after, run_json_before);
    snprintf(path, sizeof(path), "%s/row.csv", mine);
    ck_assert(!tu_exists(path));
    ck_assert(is_folder(p1));
    snprintf(path, sizeof(path), "%s/row.csv", p1);
    ck_assert(tu_exists(path));
    snprintf(path, sizeof(path), "%s/sweep.csv", sw);
    ck_assert(tu_exists(path));
    free(run_json_before);
    free(run_json_after);
    free(notes);
    free(v);
}
END_TEST

START_TEST(a_session_refuses_a_program_folder_that_is_a_link)
{
    const char *top = tu_tmpdir();
    char w[4200], other[4200], dfx[4300], link0[4300], want[9000];
    snprintf(w, sizeof(w), "%s/W", top);
    snprintf(other, sizeof(other), "%s/other", top);
    snprintf(dfx, sizeof(dfx), "%s/dfx_outputs", other);
    ck_assert_int_eq(mkdir(w, 0755), 0);
    ck_assert_int_eq(mkdir(other, 0755), 0);
    ck_assert_int_eq(mkdir(dfx, 0755), 0);
    char *keep = victim(dfx, "keep.txt"), *runj = victim(other, "ptosim_run.json");
    snprintf(link0, sizeof(link0), "%s/0_chain3", w);
    link_to("../other", link0);
    const char *args[] = {"run", TRACE("chain3.jsonl"), TRACE("chain3.jsonl"), "-o", w, "--quiet", NULL};
    run_out r = tu_run(args);
    ck_assert_int_eq(r.status, 1);
    snprintf(
        want, sizeof(want),
        "ptosim: %s: is a symbolic link, which ptosim did not make and does not write through; remove it\n",
        link0);
    ck_assert_msg(strstr(r.err, want) != NULL, "%s", r.err);
    tu_run_free(&r);
    assert_precious(keep);
    assert_precious(runj);
    ck_assert(is_link(link0));
    char p[4400];
    snprintf(p, sizeof(p), "%s/name_map_chain3.json", dfx);
    ck_assert(!tu_exists(p));
    /* a second session keeps refusing and removes nothing of the target's */
    r = tu_run(args);
    ck_assert_int_eq(r.status, 1);
    tu_run_free(&r);
    assert_precious(keep);
    assert_precious(runj);
    free(keep);
    free(runj);
}
END_TEST

/* A worker folder whose ptosim_run.json names programs[0].dir as dir0; returns the folder. */
static const char *worker_with_dir(const char *top, const char *name, const char *dir0)
{
    static char w[4200];
    snprintf(w, sizeof(w), "%s/%s", top, name);
    run_into(w, TRACE("chain3.jsonl"), TRACE("chain3.jsonl"));
    char path[4400];
    snprintf(path, sizeof(path), "%s/ptosim_run.json", w);
    cJSON *j = tu_json_file(path);
    cJSON *p0 = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(j, "programs"), 0);
    ck_assert_ptr_nonnull(p0);
    cJSON_ReplaceItemInObjectCaseSensitive(p0, "dir", cJSON_CreateString(dir0));
    char *text = cJSON_Print(j);
    cJSON_Delete(j);
    free(tu_write(w, "ptosim_run.json", text));
    free(text);
    return w;
}

START_TEST(a_report_follows_no_program_folder_out_of_its_folder)
{
    const char *top = tu_tmpdir();
    char victim_run[4200], page[4400], want[9000];
    snprintf(victim_run, sizeof(victim_run), "%s/victim/run", top);
    run_into(victim_run, TRACE("chain3.jsonl"), NULL);
    snprintf(page, sizeof(page), "%s/report.html", victim_run);
    const char *dirs[] = {"../victim/run",
                          ".",
                          "..",
                          "0_chain3/../../victim/run",
                          "",
                          "javascript:document.body.id=10//"}; /* the last would be a link that runs script */
    for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
        char name[32];
        snprintf(name, sizeof(name), "sent%zu", i);
        const char *w = worker_with_dir(top, name, dirs[i]);
        const char *args[] = {"report", w, NULL};
        run_out r = tu_run(args);
        ck_assert_msg(r.status == 3, "dir \"%s\": status %d: %s", dirs[i], r.status, r.err);
        snprintf(
            want, sizeof(want),
            "ptosim report: %s/ptosim_run.json: programs[0].dir \"%s\" is not a program's folder (N_NAME, "
            "inside %s); the report follows no path out of the folder\n",
            w, dirs[i], w);
        ck_assert_str_eq(r.err, want);
        tu_run_free(&r);
        char p[4400];
        snprintf(p, sizeof(p), "%s/report.html", w);
        ck_assert(!tu_exists(p));
        snprintf(p, sizeof(p), "%s/1_chain3/report.html", w);
        ck_assert_msg(!tu_exists(p), "a program's page was written before the refusal");
        ck_assert(!tu_exists(page));
    }
    /* a well-named program folder that is a link out of DIR */
    const char *w = worker_with_dir(top, "sentlink", "0_chain3");
    char p0[4400];
    snprintf(p0, sizeof(p0), "%s/0_chain3", w);
    const char *rm[] = {"/bin/rm", "-rf", p0, NULL};
    run_out r = tu_run_prog(rm);
    tu_run_free(&r);
    link_to("../victim/run", p0);
    const char *args[] = {"report", w, NULL};
    r = tu_run(args);
    ck_assert_int_eq(r.status, 3);
    snprintf(
        want, sizeof(want),
        "ptosim report: %s: programs[0]'s folder is a symbolic link; the report follows no link out of %s\n",
        p0, w);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    ck_assert(!tu_exists(page));
}
END_TEST

Suite *suite_links(void)
{
    Suite *s = suite_create("links");
    TCase *tc = tcase_create("links");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, outfile_refuses_a_link_at_its_temporary_name_and_keeps_the_target);
    tcase_add_test(tc, own_dir_refuses_or_replaces_a_link_and_keeps_its_target);
    tcase_add_test(tc, report_refuses_a_linked_temporary_and_leaves_the_target_as_it_was);
    tcase_add_test(tc, perfetto_and_sweep_refuse_linked_temporaries);
    tcase_add_test(tc, a_resumed_sweep_replaces_linked_point_files_and_folders);
    tcase_add_test(tc, a_session_refuses_a_program_folder_that_is_a_link);
    tcase_add_test(tc, a_report_follows_no_program_folder_out_of_its_folder);
    suite_add_tcase(s, tc);
    return s;
}
