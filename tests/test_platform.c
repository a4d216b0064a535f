/* test_platform.c - platform files, defaults and --set overrides, with their error messages. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../model/chip/platform.h"
#include "testutil.h"

#define PDIR PTOSIM_SRCDIR "/platforms"

START_TEST(a2a3_file_holds_exactly_the_builtin_defaults)
{
    platform def, file;
    char err[1024];
    platform_defaults(&def);
    ck_assert_int_eq(platform_load(&file, "a2a3", PDIR, err, sizeof(err)), 0);
    for (size_t i = 0; i < platform_param_count(); i++) {
        char a[64], b[64];
        ck_assert_msg(strcmp(platform_param_value(&def, i, a, sizeof(a)),
                             platform_param_value(&file, i, b, sizeof(b))) == 0,
                      "%s: built-in %s, a2a3.json %s", platform_param_name(i), a, b);
    }
    ck_assert_str_eq(file.name, "a2a3");
    ck_assert_msg(strstr(file.xml_path, "platforms/a2a3.xml") != NULL, "%s", file.xml_path);
    /* the spec numbers the issue names */
    ck_assert_int_eq(file.clusters, 24);
    ck_assert_int_eq(platform_num_cores(&file), 72);
    ck_assert_int_eq(platform_num_sched(&file), 3);
    ck_assert_int_eq(file.aicore_freq_hz, 1800000000);
    ck_assert_int_eq(file.sys_cnt_freq_hz, 50000000);
    ck_assert_int_eq(file.orch_submit_ns, 874);
    ck_assert_int_eq(file.mmio_cond_read_ns, 100);
    ck_assert_int_eq(file.dispatch_visible_ns, 140);
    ck_assert_int_eq(file.sched_idle_iter_ns, 115);
    ck_assert(file.host_collector_bw == 42e6);
}
END_TEST

START_TEST(a2a3sim_inherits_a2a3_with_eight_clusters)
{
    platform p;
    char err[1024];
    ck_assert_int_eq(platform_load(&p, "a2a3sim", PDIR, err, sizeof(err)), 0);
    ck_assert_str_eq(p.name, "a2a3sim");
    ck_assert_int_eq(p.clusters, 8);
    ck_assert_int_eq(platform_num_cores(&p), 24);
    ck_assert_int_eq(p.orch_submit_ns, 874);
    ck_assert_msg(strstr(p.xml_path, "a2a3.xml") != NULL, "%s", p.xml_path);
}
END_TEST

START_TEST(set_overrides_and_rejects_bad_input)
{
    platform p;
    char err[1024];
    platform_defaults(&p);
    ck_assert_int_eq(platform_set(&p, "orch_submit_ns=1000", err, sizeof(err)), 0);
    ck_assert_int_eq(p.orch_submit_ns, 1000);
    ck_assert_int_eq(platform_set(&p, "host_collector_bw=1.5e8", err, sizeof(err)), 0);
    ck_assert(p.host_collector_bw == 1.5e8);

    ck_assert_int_eq(platform_set(&p, "orch_submit=5", err, sizeof(err)), -1);
    ck_assert_str_eq(err, "--set orch_submit=5: unknown platform parameter 'orch_submit' (ptosim params "
                          "lists them)");
    ck_assert_int_eq(platform_set(&p, "clusters=abc", err, sizeof(err)), -1);
    ck_assert_str_eq(err, "--set clusters=abc: 'abc' is not an integer");
    ck_assert_int_eq(platform_set(&p, "clusters=25", err, sizeof(err)), -1);
    ck_assert_str_eq(err, "--set clusters=25: must be in [1, 24], got 25");
    ck_assert_int_eq(platform_set(&p, "clusters", err, sizeof(err)), -1);
    ck_assert_str_eq(err, "--set clusters: expected KEY=VALUE");
    /* a ring size is held to the rule of every way of giving one (test_runcfg.c) */
    ck_assert_int_eq(platform_set(&p, "ring_task_window=100", err, sizeof(err)), -1);
    ck_assert_str_eq(err, "--set ring_task_window=100: ring_task_window must be a power of 2 >= 4, got 100");
    p.ring_task_window = 100; /* what no file or --set can give now: platform_validate still refuses it */
    ck_assert_int_eq(platform_validate(&p, err, sizeof(err)), -1);
    ck_assert_str_eq(err, "ring_task_window=100: must be a power of 2");
}
END_TEST

START_TEST(platform_file_errors_name_file_and_field)
{
    platform p;
    char err[1024];
    const char *dir = tu_tmpdir();
    ck_assert_int_eq(platform_load(&p, "nosuch", PDIR, err, sizeof(err)), -1);
    ck_assert_msg(strstr(err, "unknown platform 'nosuch'") != NULL, "%s", err);

    char *f1 = tu_write(dir, "p1.json",
                        "{\"ptosim_platform\": 1, \"simgrid_platform\": \"x.xml\", "
                        "\"params\": {\"clusterz\": 3}}");
    ck_assert_int_eq(platform_load(&p, f1, NULL, err, sizeof(err)), -1);
    ck_assert_msg(strstr(err, "p1.json:1:64: params.clusterz: unknown platform parameter") != NULL, "%s", err);

    char *f2 = tu_write(dir, "p2.json",
                        "{\"ptosim_platform\": 1, \"simgrid_platform\": \"x.xml\", "
                        "\"params\": {\"aicpu_threads\": 9}}");
    ck_assert_int_eq(platform_load(&p, f2, NULL, err, sizeof(err)), -1);
    ck_assert_msg(strstr(err, "p2.json:1:81: params.aicpu_threads: must be in [2, 4], got 9") != NULL, "%s", err);

    char *f3 = tu_write(dir, "p3.json", "{\"ptosim_platform\": 1, \"params\": {}}");
    ck_assert_int_eq(platform_load(&p, f3, NULL, err, sizeof(err)), -1);
    ck_assert_msg(strstr(err, "p3.json: simgrid_platform: missing") != NULL, "%s", err);

    char *f4 = tu_write(dir, "p4.json", "{not json");
    ck_assert_int_eq(platform_load(&p, f4, NULL, err, sizeof(err)), -1);
    ck_assert_msg(strstr(err, "p4.json:1:2: json: not valid JSON") != NULL, "%s", err);
    char *f5 = tu_write(dir, "p5.json", "[1]");
    ck_assert_int_eq(platform_load(&p, f5, NULL, err, sizeof(err)), -1);
    ck_assert_msg(strstr(err, "p5.json: not a JSON object") != NULL, "%s", err);
    /* a parameter given twice was read as the first: 24 clusters, not 8 */
    char *f6 = tu_write(dir, "p6.json",
                        "{\"ptosim_platform\": 1, \"simgrid_platform\": \"x.xml\",\n"
                        " \"params\": {\"clusters\": 24,\n             \"clusters\": 8}}");
    ck_assert_int_eq(platform_load(&p, f6, NULL, err, sizeof(err)), -1);
    ck_assert_msg(strstr(err, "p6.json:3:14: params.clusters: duplicate key") != NULL, "%s", err);
    char *f7 = tu_write(dir, "p7.json",
                        "{\"ptosim_platform\": 1, \"name\": \"a\xff\", \"simgrid_platform\": \"x.xml\"}");
    ck_assert_int_eq(platform_load(&p, f7, NULL, err, sizeof(err)), -1);
    ck_assert_msg(strstr(err, "p7.json:1:34: name: invalid UTF-8 in a string") != NULL, "%s", err);
    char *f8 = tu_write(dir, "p8.json",
                        "{\"ptosim_platform\": 1, \"description\": 5, \"simgrid_platform\": \"x.xml\"}");
    ck_assert_int_eq(platform_load(&p, f8, NULL, err, sizeof(err)), -1);
    ck_assert_msg(strstr(err, "p8.json:1:39: description: must be a string") != NULL, "%s", err);
    free(f5);
    free(f6);
    free(f7);
    free(f8);
    free(f1);
    free(f2);
    free(f3);
    free(f4);
}
END_TEST

/* Loads text as dir/p.json; the message into err (-1), or 0. */
static int load_text(const char *dir, const char *text, char *err, size_t errlen)
{
    platform p;
    char *f = tu_write(dir, "p.json", text);
    int rc = platform_load(&p, f, NULL, err, errlen);
    free(f);
    return rc;
}

/* Each rule of a platform field has its own message, at the value's FILE:LINE:COL as a malformed file's: a
 * name of 64 characters was "name: must be a non-empty string", without a place, and a file without
 * "ptosim_platform" was told it "must be 1". */
START_TEST(a_platform_field_error_says_which_rule_and_where)
{
    const char *dir = tu_tmpdir();
    char err[2048], want[2048], name[80], text[512];
    struct {
        const char *text, *want; /* want after "DIR/p.json" */
    } cases[] = {
        {"{\"ptosim_platform\": 1, \"base\": \"a2a3\",\n \"name\": \"\"}", ":2:10: name: must not be empty"},
        {"{\"ptosim_platform\": 1, \"base\": \"a2a3\", \"name\": 5}", ":1:48: name: must be a string"},
        {"{\"base\": \"a2a3\"}", ": ptosim_platform: missing (a platform file says \"ptosim_platform\": 1)"},
        {"{\"ptosim_platform\": 2, \"base\": \"a2a3\"}", ":1:21: ptosim_platform: must be 1"},
        {"{\"ptosim_platform\": 1, \"base\": 3}", ":1:32: base: must be a platform name"},
        {"{\"ptosim_platform\": 1, \"base\": \"a2a3\", \"simgrid_platform\": \"\"}",
         ":1:60: simgrid_platform: must not be empty"},
        {"{\"ptosim_platform\": 1, \"base\": \"a2a3\", \"simgrid_platform\": 7}",
         ":1:60: simgrid_platform: must be a file name"},
        {"{\"ptosim_platform\": 1, \"base\": \"a2a3\", \"params\": []}", ":1:50: params: must be an object"},
        {"{\"ptosim_platform\": 1, \"base\": \"a2a3\",\n  \"params\": {\"clusters\": 8,\n    \"clusterz\": 1}}",
         ":3:5: params.clusterz: unknown platform parameter"},
        {"{\"ptosim_platform\": 1, \"base\": \"a2a3\", \"params\": {\"clusters\": \"8\"}}",
         ":1:63: params.clusters: must be a number"},
        {"{\"ptosim_platform\": 1, \"base\": \"a2a3\", \"zzz\": 0}", ":1:40: zzz: unknown field"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        ck_assert_int_eq(load_text(dir, cases[i].text, err, sizeof(err)), -1);
        snprintf(want, sizeof(want), "%s/p.json%s", dir, cases[i].want);
        ck_assert_str_eq(err, want);
    }
    /* a name has at most 63 bytes (PLATFORM_NAME_MAX with its NUL) */
    memset(name, 'a', 63);
    name[63] = '\0';
    snprintf(text, sizeof(text), "{\"ptosim_platform\": 1, \"base\": \"a2a3\", \"name\": \"%s\"}", name);
    ck_assert_int_eq(load_text(dir, text, err, sizeof(err)), 0);
    snprintf(text, sizeof(text), "{\"ptosim_platform\": 1, \"base\": \"a2a3\", \"name\": \"%sa\"}", name);
    ck_assert_int_eq(load_text(dir, text, err, sizeof(err)), -1);
    snprintf(want, sizeof(want), "%s/p.json:1:48: name: 64 bytes, longer than the 63 a platform name may have",
             dir);
    ck_assert_str_eq(err, want);
    /* a simgrid_platform path that does not fit, with this file's folder before it */
    char *longname = malloc(5000);
    memset(longname, 'x', 4200);
    longname[4200] = '\0';
    char *big = malloc(5200);
    snprintf(big, 5200, "{\"ptosim_platform\": 1, \"base\": \"a2a3\", \"simgrid_platform\": \"%s\"}", longname);
    ck_assert_int_eq(load_text(dir, big, err, sizeof(err)), -1);
    snprintf(want, sizeof(want),
             "%s/p.json:1:60: simgrid_platform: path too long (%zu bytes with this file's folder; at most 4095)", dir,
             strlen(dir) + 1 + 4200);
    ck_assert_str_eq(err, want);
    free(big);
    free(longname);
}
END_TEST

/* A platform file is read whole with a cap of 1 MiB (a2a3.json is 2.4 KB), checked by its size first: a sparse
 * 3 GiB one cost `run -p` 3.1 GB and 9 s before "not valid JSON"; /dev/zero, which has no size, is refused
 * once it has given more than the cap. */
START_TEST(a_platform_file_past_its_cap_is_refused_before_it_is_read)
{
    platform p;
    char err[1024], want[2048];
    const char *dir = tu_tmpdir();
    char path[512];
    snprintf(path, sizeof(path), "%s/big.json", dir);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(ftruncate(fd, (off_t)3 << 30), 0);
    close(fd);
    ck_assert_int_eq(platform_load(&p, path, NULL, err, sizeof(err)), -1);
    snprintf(want, sizeof(want),
             "%s: cannot read platform file: 3221225472 bytes, over the 1 MiB cap for a platform file", path);
    ck_assert_str_eq(err, want);
    ck_assert_int_eq(platform_load(&p, "/dev/zero", NULL, err, sizeof(err)), -1);
    ck_assert_str_eq(err, "/dev/zero: cannot read platform file: over the 1 MiB cap for a platform file");
    /* through the command line: status 2, as any bad platform file */
    const char *args[] = {"run", TRACE("chain3.jsonl"), "-p", path, "--quiet", NULL};
    run_out r = tu_run(args);
    ck_assert_int_eq(r.status, 2);
    snprintf(want, sizeof(want),
             "ptosim: %s: cannot read platform file: 3221225472 bytes, over the 1 MiB cap for a platform file\n"
             TU_USAGE_RUN, path);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
}
END_TEST

/* A platform whose SimGrid XML cannot run is a bad platform file: exit 2 with the file and the reason, before
 * anything runs, and a work dir that holds a previous run keeps it. SimGrid aborts on an XML it cannot parse
 * (it ended in status 134), and a parsable one without the hosts ran nothing and replaced the run (exit 6).
 */
START_TEST(a_simgrid_platform_that_cannot_run_is_refused_before_the_run)
{
    const char *dir = tu_tmpdir();
    char work[4200], before[4300];
    snprintf(work, sizeof(work), "%s/w", dir);
    const char *first[] = {"run", PTOSIM_SRCDIR "/traces/default.jsonl", "-o", work, "--quiet", NULL};
    run_out r = tu_run(first);
    ck_assert_int_eq(r.status, 0);
    tu_run_free(&r);
    snprintf(before, sizeof(before), "%s/ptosim_run.json", work);
    char *kept = tu_read(before);
    ck_assert_ptr_nonnull(kept);
    free(tu_write(
        dir, "other.xml",
        "<?xml version=\"1.0\"?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
        "<platform version=\"4.1\"><zone id=\"z\" routing=\"Full\"><host id=\"other\" speed=\"1Gf\"/>"
        "</zone></platform>\n"));
    free(tu_write(
        dir, "nolink.xml",
        "<?xml version=\"1.0\"?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
        "<platform version=\"4.1\"><zone id=\"z\" routing=\"Full\"><host id=\"aicpu\" speed=\"1Gf\"/>"
        "<host id=\"host\" speed=\"1Gf\"/></zone></platform>\n"));
    free(tu_write(dir, "notxml.xml", "root:x:0:0:root:/root:/bin/bash\n"));
    static const struct {
        const char *xml, *why;
    } cases[] = {
        {"notxml.xml", "Parse error at %s/notxml.xml:1: Invalid XML (XML input line 1, state 1): Unexpected "
                       "character `r' in prolog."},
        {"other.xml", "no host \"aicpu\" (a platform needs hosts \"aicpu\" and \"host\" and the link "
                      "\"dfx_collector\" between them, as platforms/a2a3.xml has)"},
        {"nolink.xml",
         "no link \"dfx_collector\" (a platform needs hosts \"aicpu\" and \"host\" and the link "
         "\"dfx_collector\" between them, as platforms/a2a3.xml has)"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char json[512], why[1024], want[2048];
        snprintf(
            json, sizeof(json),
            "{\"ptosim_platform\": 1, \"base\": \"a2a3\", \"name\": \"x\", \"simgrid_platform\": \"%s\", "
            "\"params\": {}}\n",
            cases[i].xml);
        char *pj = tu_write(dir, "p.json", json);
        const char *args[] = {"run", PTOSIM_SRCDIR "/traces/chain3.jsonl", "-p", pj, "-o", work, "--quiet",
                              NULL};
        r = tu_run(args);
        ck_assert_int_eq(r.status, 2);
        snprintf(why, sizeof(why), cases[i].why, dir);
        snprintf(want, sizeof(want), "ptosim: platform x: %s/%s: not a platform SimGrid can run: %s\n", dir,
                 cases[i].xml, why);
        ck_assert_msg(tu_starts(r.err, want), "got %s\nwant %s", r.err, want);
        char *now = tu_read(before);
        ck_assert_msg(now && strcmp(now, kept) == 0, "%s: the previous run's ptosim_run.json changed",
                      cases[i].xml);
        free(now);
        tu_run_free(&r);
        free(pj);
    }
    free(kept);
}
END_TEST

Suite *suite_platform(void)
{
    Suite *s = suite_create("platform");
    TCase *tc = tcase_create("params");
    tcase_add_test(tc, a2a3_file_holds_exactly_the_builtin_defaults);
    tcase_add_test(tc, a2a3sim_inherits_a2a3_with_eight_clusters);
    tcase_add_test(tc, set_overrides_and_rejects_bad_input);
    tcase_add_test(tc, platform_file_errors_name_file_and_field);
    tcase_add_test(tc, a_platform_file_past_its_cap_is_refused_before_it_is_read);
    tcase_add_test(tc, a_platform_field_error_says_which_rule_and_where);
    tcase_add_test(tc, a_simgrid_platform_that_cannot_run_is_refused_before_the_run);
    suite_add_tcase(s, tc);
    return s;
}
