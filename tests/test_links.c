/* test_links.c - no file is written, truncated, renamed or deleted through a link ptosim did not make. */
/* Below a folder the user named, no link is followed: temporaries, a sweep's points, a session's program
 * folders, a report's files, a capture's files. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../model/base/outfile.h"
#include "../model/base/userdir.h"
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
    /* the same into -o OUT: below the folder named, no link is written through either */
    char out[4200], out_tmp[4300], out_page[4300];
    snprintf(out, sizeof(out), "%s/pages", top);
    ck_assert_int_eq(mkdir(out, 0755), 0);
    snprintf(out_tmp, sizeof(out_tmp), "%s/report.html.tmp", out);
    snprintf(out_page, sizeof(out_page), "%s/report.html", out);
    link_to("../authorized_keys", out_tmp);
    const char *args_o[] = {"report", run, "-o", out, NULL};
    r = tu_run(args_o);
    ck_assert_int_eq(r.status, 1);
    snprintf(want, sizeof(want),
             "ptosim report: %s: cannot write: %s is a symbolic link, which ptosim did not make and does not "
             "follow; remove it\n",
             out_page, out_tmp);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    assert_precious(keys);
    ck_assert(!tu_exists(out_page));
    ck_assert_int_eq(unlink(out_tmp), 0);
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
    /* a folder holding them and no sweep is no sweep's: refused before anything is written */
    r = tu_run(a2);
    ck_assert_int_eq(r.status, 2);
    snprintf(want, sizeof(want),
             "ptosim sweep: -o %s is not empty and holds no sweep (no points.csv and sweep.cmd; it holds "
             "graph.compiled.tmp and sweep.csv.tmp); a sweep writes only into an empty folder or its own "
             "sweep's: give another -o DIR\n" TU_USAGE_SWEEP,
             sw);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    assert_precious(vc);
    assert_precious(vs);
    /* the sweep's own folder (a sweep of this command ran there), with the links put back */
    snprintf(tmp, sizeof(tmp), "%s/graph.compiled.tmp", sw);
    ck_assert_int_eq(unlink(tmp), 0);
    snprintf(tmp, sizeof(tmp), "%s/sweep.csv.tmp", sw);
    ck_assert_int_eq(unlink(tmp), 0);
    r = tu_run(a2);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    snprintf(tmp, sizeof(tmp), "%s/graph.compiled.tmp", sw);
    link_to("../victim_c", tmp);
    snprintf(tmp, sizeof(tmp), "%s/sweep.csv.tmp", sw);
    link_to("../victim_s", tmp);
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

START_TEST(a_resumed_sweep_refuses_a_linked_point_folder_and_replaces_linked_point_files)
{
    const char *top = tu_tmpdir();
    char *v = victim(top, "victim");
    char sw[4200], abs[PATH_MAX], mine[4200], p0[4300], p1[4300], path[4400];
    snprintf(sw, sizeof(sw), "%s/s", top);
    snprintf(mine, sizeof(mine), "%s/myrun", top);
    const char *a1[] = {"sweep", TRACE("chain3.jsonl"), "--ring-task-window", "16,64", "-o", sw, "-j1", NULL};
    run_out r = tu_run(a1);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    ck_assert_ptr_nonnull(realpath(sw, abs));
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
    /* point 1: its folder links to another run: the sweep refuses it before any point runs */
    snprintf(p1, sizeof(p1), "%s/points/0001", sw);
    const char *rm[] = {"/bin/rm", "-rf", p1, NULL};
    r = tu_run_prog(rm);
    tu_run_free(&r);
    link_to("../../myrun", p1);
    const char *a2[] = {"sweep", TRACE("chain3.jsonl"), "--ring-task-window", "16,64", "--resume", sw, "-j1",
                        NULL};
    r = tu_run(a2);
    ck_assert_int_eq(r.status, 1);
    char want[9000];
    snprintf(
        want, sizeof(want),
        "ptosim sweep: %s/points/0001: is a symbolic link, which ptosim did not make and does not follow; "
        "remove it\n",
        abs);
    ck_assert_str_eq(r.err, want);
    ck_assert_str_eq(r.out, "");
    tu_run_free(&r);
    snprintf(path, sizeof(path), "%s/stderr.txt", p0);
    ck_assert(is_link(path)); /* nothing ran */
    ck_assert(is_link(p1));
    /* the other run is as it was */
    assert_precious(notes);
    snprintf(path, sizeof(path), "%s/ptosim_run.json", mine);
    char *run_json_after = tu_read(path);
    ck_assert_str_eq(run_json_after, run_json_before);
    snprintf(path, sizeof(path), "%s/row.csv", mine);
    ck_assert(!tu_exists(path));
    /* with the folder's link gone the sweep resumes; point 0's linked stderr.txt is replaced, its target
     * kept */
    ck_assert_int_eq(unlink(p1), 0);
    r = tu_run(a2);
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    tu_run_free(&r);
    assert_precious(v);
    snprintf(path, sizeof(path), "%s/stderr.txt", p0);
    ck_assert(!is_link(path));
    ck_assert(is_folder(p1));
    snprintf(path, sizeof(path), "%s/row.csv", p1);
    ck_assert(tu_exists(path));
    snprintf(path, sizeof(path), "%s/sweep.csv", sw);
    ck_assert(tu_exists(path));
    assert_precious(notes);
    free(run_json_before);
    free(run_json_after);
    free(notes);
    free(v);
}
END_TEST

/* Lists folder dir's entries, sorted, as "a b c" (static buffer). */
static const char *entries(const char *dir)
{
    static char out[4096];
    char cmd[4400];
    snprintf(cmd, sizeof(cmd), "ls -A '%s' | tr '\\n' ' '", dir);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    size_t n = fread(out, 1, sizeof(out) - 1, p);
    out[n] = '\0';
    pclose(p);
    return out;
}

START_TEST(a_sweep_goes_into_no_points_folder_that_is_a_link)
{
    /* a sweep folder someone sent, its points/ a link to a folder of the user's: neither -o, --resume,
     * --point nor --collect makes a run folder there or removes anything of it */
    const char *top = tu_tmpdir();
    char sent[4200], abs[PATH_MAX], home[4200], points[4400], want[9000];
    snprintf(sent, sizeof(sent), "%s/sent", top);
    snprintf(home, sizeof(home), "%s/home", top);
    ck_assert_int_eq(mkdir(home, 0755), 0);
    char *notes = victim(home, "notes.txt");
    const char *a1[] = {"sweep", TRACE("chain3.jsonl"), "--ring-task-window", "16,64", "-o", sent, "-j1",
                        NULL};
    run_out r = tu_run(a1);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    ck_assert_ptr_nonnull(realpath(sent, abs));
    snprintf(points, sizeof(points), "%s/points", sent);
    const char *rm[] = {"/bin/rm", "-rf", points, NULL};
    r = tu_run_prog(rm);
    tu_run_free(&r);
    link_to("../home", points);
    snprintf(want, sizeof(want),
             "ptosim sweep: %s/points: is a symbolic link, which ptosim did not make and does not follow; "
             "remove it\n",
             abs);
    const char *resume[] = {
        "sweep", TRACE("chain3.jsonl"), "--ring-task-window", "16,64", "--resume", sent, "-j1", NULL};
    const char *const *cmds[] = {resume, a1};
    for (int k = 0; k < 2; k++) {
        r = tu_run(cmds[k]);
        ck_assert_int_eq(r.status, 1);
        ck_assert_str_eq(r.err, want);
        ck_assert_str_eq(r.out, "");
        tu_run_free(&r);
        ck_assert_str_eq(entries(home), "notes.txt ");
    }
    /* on --resume the files the sweep reads back: a link at either is refused too */
    const char *reads[] = {"points.csv", "sweep.cmd"};
    for (int k = 0; k < 2; k++) {
        char file[4400], moved[4400];
        snprintf(file, sizeof(file), "%s/%s", sent, reads[k]);
        snprintf(moved, sizeof(moved), "%s/%s", home, reads[k]);
        ck_assert_int_eq(rename(file, moved), 0);
        link_to(moved, file);
        ck_assert_int_eq(unlink(points), 0);
        ck_assert_int_eq(mkdir(points, 0755), 0);
        r = tu_run(resume);
        ck_assert_int_eq(r.status, 1);
        char w2[9000];
        snprintf(w2, sizeof(w2),
                 "ptosim sweep: %s/%s: is a symbolic link, which ptosim did not make and does not follow; remove "
                 "it\n",
                 abs, reads[k]);
        ck_assert_str_eq(r.err, w2);
        tu_run_free(&r);
        ck_assert_int_eq(unlink(file), 0);
        ck_assert_int_eq(rename(moved, file), 0);
        ck_assert_int_eq(rmdir(points), 0);
        link_to("../home", points);
    }
    const char *point[] = {
        "sweep", TRACE("chain3.jsonl"), "--ring-task-window", "16,64", "-o", sent, "--point", "1", NULL};
    r = tu_run(point);
    ck_assert_int_eq(r.status, 1);
    snprintf(want, sizeof(want),
             "ptosim sweep: point 1: %s/points: is a symbolic link, which ptosim did not make and does not "
             "follow; "
             "remove it\n",
             abs);
    ck_assert_msg(tu_starts(r.err, want), "%s", r.err);
    tu_run_free(&r);
    ck_assert_str_eq(entries(home), "notes.txt ");
    const char *collect[] = {"sweep", "--collect", sent, NULL};
    r = tu_run(collect);
    ck_assert_int_eq(r.status, 1);
    snprintf(want, sizeof(want),
             "ptosim sweep: %s/points: is a symbolic link, which ptosim did not make and does not follow; "
             "remove it\n",
             sent);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    assert_precious(notes);
    /* the link is to another sweep's points, one of them without its row: its files stay as they were */
    char mine[4200], p1[4400], dfx[4500], path[4600];
    snprintf(mine, sizeof(mine), "%s/mine", top);
    const char *a2[] = {"sweep", TRACE("default.jsonl"), "--ring-task-window", "16,64", "-o", mine, "-j1",
                        NULL};
    r = tu_run(a2);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    snprintf(p1, sizeof(p1), "%s/points/0001", mine);
    snprintf(dfx, sizeof(dfx), "%s/dfx_outputs", p1);
    char *mynotes = victim(dfx, "notes.txt");
    snprintf(path, sizeof(path), "%s/row.csv", p1);
    ck_assert_int_eq(unlink(path), 0);
    snprintf(path, sizeof(path), "%s/ptosim_run.json", p1);
    char *run_json = tu_read(path);
    ck_assert_int_eq(unlink(points), 0);
    link_to("../mine/points", points);
    r = tu_run(resume);
    ck_assert_int_eq(r.status, 1);
    tu_run_free(&r);
    ck_assert_str_eq(entries(dfx), "name_map_default.json notes.txt ");
    assert_precious(mynotes);
    char *after = tu_read(path);
    ck_assert_str_eq(after, run_json);
    free(after);
    free(run_json);
    free(mynotes);
    free(notes);
}
END_TEST

START_TEST(a_run_reads_no_linked_ptosim_run_json)
{
    /* DIR/ptosim_run.json a link to another session's: its program list is not read, so a folder of the
     * user's named like a program's stays */
    const char *top = tu_tmpdir();
    char other[4200], w[4200], mine[4400], path[4600];
    snprintf(other, sizeof(other), "%s/other", top);
    snprintf(w, sizeof(w), "%s/w", top);
    run_into(other, TRACE("chain3.jsonl"), TRACE("chain3.jsonl")); /* lists 0_chain3 and 1_chain3 */
    ck_assert_int_eq(mkdir(w, 0755), 0);
    snprintf(mine, sizeof(mine), "%s/0_chain3", w);
    ck_assert_int_eq(mkdir(mine, 0755), 0);
    char *keep = victim(mine, "ptosim_run.json");
    snprintf(path, sizeof(path), "%s/ptosim_run.json", w);
    link_to("../other/ptosim_run.json", path);
    run_into(w, TRACE("chain3.jsonl"), NULL);
    assert_precious(keep);
    ck_assert(!is_link(path)); /* replaced by the run's own */
    snprintf(path, sizeof(path), "%s/other/ptosim_run.json", top);
    cJSON *j = tu_json_file(path); /* the other session's file is as it was */
    ck_assert_ptr_nonnull(cJSON_GetObjectItemCaseSensitive(j, "ptosim_worker"));
    cJSON_Delete(j);
    free(keep);
}
END_TEST

START_TEST(a_report_reads_nothing_through_a_link_in_its_folder)
{
    const char *top = tu_tmpdir();
    char other[4200], sent[4200], dfx[4400], want[9000], page[4400];
    snprintf(other, sizeof(other), "%s/other", top);
    snprintf(sent, sizeof(sent), "%s/sent", top);
    run_into(other, TRACE("chain3.jsonl"), NULL);
    run_into(sent, TRACE("chain3.jsonl"), NULL);
    snprintf(dfx, sizeof(dfx), "%s/dfx_outputs", sent);
    const char *rm[] = {"/bin/rm", "-rf", dfx, NULL};
    run_out r = tu_run_prog(rm);
    tu_run_free(&r);
    link_to("../other/dfx_outputs", dfx);
    const char *args[] = {"report", sent, NULL};
    r = tu_run(args);
    ck_assert_int_eq(r.status, 3);
    snprintf(
        want, sizeof(want),
        "ptosim report: %s/chip_swimlane_records.json: cannot read: %s: is a symbolic link, which ptosim "
        "did not make and does not follow; remove it\n",
        dfx, dfx);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    snprintf(page, sizeof(page), "%s/report.html", sent);
    ck_assert(!tu_exists(page));
    /* the folder named is followed, as asked */
    char named[4200];
    snprintf(named, sizeof(named), "%s/named", top);
    link_to("other", named);
    const char *a2[] = {"report", named, NULL};
    r = tu_run(a2);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
}
END_TEST

/* A capture folder in top/name: probe's files, copied. */
static const char *capture_copy(const char *top, const char *name)
{
    static char cap[4200];
    char sub[4400];
    snprintf(cap, sizeof(cap), "%s/%s", top, name);
    ck_assert_int_eq(mkdir(cap, 0755), 0);
    snprintf(sub, sizeof(sub), "%s/scope_stats", cap);
    ck_assert_int_eq(mkdir(sub, 0755), 0);
    const char *files[] = {"deps.json", "chip_swimlane_records.json", "name_map_TestZzAlignProbe_probe.json",
                           "scope_stats/scope_stats.jsonl"};
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        char src[4200];
        snprintf(src, sizeof(src), PTOSIM_SRCDIR "/tests/real/probe/%s", files[i]);
        free(tu_copy(cap, files[i], src));
    }
    return cap;
}

START_TEST(import_and_conform_refuse_a_capture_file_that_is_a_link)
{
    const char *top = tu_tmpdir();
    char elsewhere[4200], path[4600], want[9000];
    snprintf(elsewhere, sizeof(elsewhere), "%s/elsewhere", top);
    ck_assert_int_eq(mkdir(elsewhere, 0755), 0);
    const char *names[] = {"deps.json", "scope_stats/scope_stats.jsonl", "chip_swimlane_records.json"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        char cname[32];
        snprintf(cname, sizeof(cname), "cap%zu", i);
        const char *cap = capture_copy(top, cname);
        char moved[4400];
        snprintf(moved, sizeof(moved), "%s/%zu.json", elsewhere, i);
        snprintf(path, sizeof(path), "%s/%s", cap, names[i]);
        ck_assert_int_eq(rename(path, moved), 0);
        link_to(moved, path);
        const char *imp[] = {"import", cap, NULL};
        run_out r = tu_run(imp);
        ck_assert_int_eq(r.status, 3);
        snprintf(
            want, sizeof(want),
            "ptosim import: %s: is a symbolic link, which ptosim did not make and does not follow; remove "
            "it\n",
            path);
        ck_assert_str_eq(r.err, want);
        ck_assert_str_eq(r.out, "");
        tu_run_free(&r);
    }
    /* a folder of the capture that is a link */
    const char *cap = capture_copy(top, "capdir");
    char ss[4400], moved[4400];
    snprintf(ss, sizeof(ss), "%s/scope_stats", cap);
    snprintf(moved, sizeof(moved), "%s/ss", elsewhere);
    ck_assert_int_eq(rename(ss, moved), 0);
    link_to(moved, ss);
    const char *imp[] = {"import", cap, NULL};
    run_out r = tu_run(imp);
    ck_assert_int_eq(r.status, 3);
    snprintf(
        want, sizeof(want),
        "ptosim import: %s: is a symbolic link, which ptosim did not make and does not follow; remove it\n",
        ss);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    /* conform reads the capture the same way */
    char w[4200];
    snprintf(w, sizeof(w), "%s/w", top);
    const char *conf[] = {"conform", cap, "-o", w, NULL};
    r = tu_run(conf);
    ck_assert_int_eq(r.status, 3);
    snprintf(want, sizeof(want),
             "ptosim conform: %s: is a symbolic link, which ptosim did not make and does not follow; remove "
             "it\n",
             ss);
    ck_assert_str_eq(r.err, want);
    ck_assert_str_eq(r.out, "");
    ck_assert(!tu_exists(w));
    tu_run_free(&r);
}
END_TEST

START_TEST(below_a_named_folder_no_link_is_followed)
{
    const char *top = tu_tmpdir();
    char root[4200], other[4200], lk[4400], path[4600], err[9000], want[12000];
    snprintf(root, sizeof(root), "%s/root", top);
    snprintf(other, sizeof(other), "%s/other", top);
    ck_assert_int_eq(mkdir(root, 0755), 0);
    ck_assert_int_eq(mkdir(other, 0755), 0);
    char *v = victim(other, "x.json");
    snprintf(lk, sizeof(lk), "%s/sub", root);
    link_to("../other", lk);
    userdir_reset();
    /* not named yet: followed as ever */
    snprintf(path, sizeof(path), "%s/sub/x.json", root);
    int fd = userdir_open(path, O_RDONLY, 0);
    ck_assert_int_ge(fd, 0);
    close(fd);
    ck_assert_int_eq(userdir_add(root), 0);
    /* a link on the way: refused, naming it */
    ck_assert_int_eq(userdir_open(path, O_RDONLY, 0), -1);
    ck_assert_int_eq(errno, ELOOP);
    snprintf(want, sizeof(want),
             "%s: is a symbolic link, which ptosim did not make and does not follow; remove it", lk);
    ck_assert_str_eq(userdir_why(ELOOP), want);
    /* a file written below it, and folders made below it */
    outfile o;
    ck_assert_ptr_null(outfile_open(&o, path, err, sizeof(err)));
    snprintf(
        want, sizeof(want),
        "%s: cannot write: %s: is a symbolic link, which ptosim did not make and does not follow; remove it",
        path, lk);
    ck_assert_str_eq(err, want);
    snprintf(path, sizeof(path), "%s/sub/a/b", root);
    ck_assert_int_eq(outfile_mkdirs(path, err, sizeof(err)), -1);
    snprintf(want, sizeof(want),
             "%s: is a symbolic link, which ptosim did not make and does not follow; remove it", lk);
    ck_assert_str_eq(err, want);
    ck_assert_int_eq(outfile_mkdirs(lk, err, sizeof(err)), -1);
    ck_assert_str_eq(err, want);
    snprintf(path, sizeof(path), "%s/a", other);
    ck_assert(!tu_exists(path));
    /* the last component a link: refused too */
    snprintf(path, sizeof(path), "%s/f.json", root);
    link_to("../other/x.json", path);
    ck_assert_int_eq(userdir_open(path, O_RDONLY, 0), -1);
    ck_assert_int_eq(errno, ELOOP);
    snprintf(want, sizeof(want),
             "%s: is a symbolic link, which ptosim did not make and does not follow; remove it", path);
    ck_assert_str_eq(userdir_why(ELOOP), want);
    struct stat st;
    ck_assert_int_eq(userdir_stat(path, &st), 0);
    ck_assert(S_ISLNK(st.st_mode));
    /* written whole there, it replaces the link, never its target */
    FILE *f = outfile_open(&o, path, err, sizeof(err));
    ck_assert_ptr_nonnull(f);
    fputs("mine\n", f);
    ck_assert_int_eq(outfile_commit(&o, err, sizeof(err)), 0);
    ck_assert(!is_link(path));
    assert_precious(v);
    /* made below it: real folders, opened a level at a time */
    snprintf(path, sizeof(path), "%s/a/b/c", root);
    ck_assert_int_eq(outfile_mkdirs(path, err, sizeof(err)), 0);
    ck_assert(is_folder(path));
    snprintf(path, sizeof(path), "%s/a/b/c/out.json", root);
    f = outfile_open(&o, path, err, sizeof(err));
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(outfile_commit(&o, err, sizeof(err)), 0);
    ck_assert(tu_exists(path));
    /* a way out by '..' is not taken */
    snprintf(path, sizeof(path), "%s/a/../../other/x.json", root);
    ck_assert_int_eq(userdir_open(path, O_RDONLY, 0), -1);
    ck_assert_int_eq(errno, EACCES);
    snprintf(want, sizeof(want), "%s/a/..: '..' below a folder you named is not followed", root);
    ck_assert_str_eq(userdir_why(EACCES), want);
    /* the named folder itself may be a link: it is followed, as asked */
    char named[4200];
    snprintf(named, sizeof(named), "%s/named", top);
    link_to("other", named);
    ck_assert_int_eq(userdir_add(named), 0);
    snprintf(path, sizeof(path), "%s/x.json", named);
    fd = userdir_open(path, O_RDONLY, 0);
    ck_assert_int_ge(fd, 0);
    close(fd);
    userdir_reset();
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
    tcase_add_test(tc, a_resumed_sweep_refuses_a_linked_point_folder_and_replaces_linked_point_files);
    tcase_add_test(tc, a_sweep_goes_into_no_points_folder_that_is_a_link);
    tcase_add_test(tc, a_run_reads_no_linked_ptosim_run_json);
    tcase_add_test(tc, a_report_reads_nothing_through_a_link_in_its_folder);
    tcase_add_test(tc, import_and_conform_refuse_a_capture_file_that_is_a_link);
    tcase_add_test(tc, below_a_named_folder_no_link_is_followed);
    tcase_add_test(tc, a_session_refuses_a_program_folder_that_is_a_link);
    tcase_add_test(tc, a_report_follows_no_program_folder_out_of_its_folder);
    suite_add_tcase(s, tc);
    return s;
}
