/* test_diff.c - the makespan parts of ptosim_run.json and `ptosim diff`, against figures worked by hand. */
#include <check.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"

#define DIFF_USAGE "usage: ptosim diff A B [--json] (ptosim diff --help)\n"

/* dir/ptosim_run.json's makespan part named what, in ns (-1 when absent). */
static long long part_ns(const cJSON *j, const char *what)
{
    const cJSON *p;
    cJSON_ArrayForEach(p, cJSON_GetObjectItem(cJSON_GetObjectItem(j, "makespan_parts"), "parts"))
    {
        if (strcmp(cJSON_GetObjectItem(p, "what")->valuestring, what) == 0)
            return (long long)cJSON_GetObjectItem(p, "ns")->valuedouble;
    }
    return -1;
}

static cJSON *run_json(const char *dir)
{
    char path[8192];
    snprintf(path, sizeof(path), "%s/ptosim_run.json", dir);
    return tu_json_file(path);
}

/* model/README.md §9.5's table of chain3 (ns): a published 874 (one submit); ready -> store 874 -> 1130,
 * 12312 -> 12522, 23744 -> 23954; store -> start 430 each (visible 140 + setup 290); kernels 3 x 10000;
 * end -> completed 11560 -> 12312, 22952 -> 23744, 34384 -> 35084. */
START_TEST(chain3_makespan_parts_are_the_hand_worked_timeline)
{
    const char *dir = tu_tmpdir();
    const char *args[] = {"run", TRACE("chain3.jsonl"), "-o", dir, NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    cJSON *j = run_json(dir);
    const cJSON *mp = cJSON_GetObjectItem(j, "makespan_parts");
    ck_assert_ptr_nonnull(mp);
    ck_assert_str_eq(cJSON_GetObjectItem(mp, "unit")->valuestring, "ns");
    ck_assert_int_eq((long long)cJSON_GetObjectItem(mp, "makespan_ns")->valuedouble, 35084);
    ck_assert_int_eq((long long)cJSON_GetObjectItem(mp, "path_tasks")->valuedouble, 3);
    ck_assert_int_eq(part_ns(j, "kernel vadd"), 30000);
    ck_assert_int_eq(part_ns(j, "orchestrator submission"), 874);
    ck_assert_int_eq(part_ns(j, "scheduler: ready to dispatch"), 256 + 210 + 210);
    ck_assert_int_eq(part_ns(j, "dispatch to kernel start"), 3 * 430);
    ck_assert_int_eq(part_ns(j, "completion: kernel end to completion observed"), 752 + 792 + 700);
    ck_assert_int_eq(part_ns(j, "shared-HBM stretch"), 0);
    ck_assert_int_eq(part_ns(j, "args dump"), 0);
    ck_assert_int_eq(part_ns(j, "scheduler: completion or publish to ready"), 0);
    long long sum = 0;
    const cJSON *p;
    cJSON_ArrayForEach(p, cJSON_GetObjectItem(mp, "parts")) sum +=
        (long long)cJSON_GetObjectItem(p, "ns")->valuedouble;
    ck_assert_int_eq(sum, 35084);
    cJSON_Delete(j);
    tu_run_free(&r);
}
END_TEST

/* A chain of 200000 tasks (what ptosim gen chain --n 200000 writes): every task is on the path, each as in
 * chain3 (above): the first ready -> store 256, the others 210; store -> start 430; 10 us kernels; end ->
 * completed 752 for the first, 792 in between, 700 for the last; the first published at 874. The parts are
 * exact past any count of tasks (the per-task log this replaced kept 2^21 at most, and its memory grew with
 * the graph). */
START_TEST(long_chain_parts_are_exact_and_add_up)
{
    const char *dir = tu_tmpdir();
    char graph[4096];
    snprintf(graph, sizeof(graph), "%s/chain.jsonl", dir);
    FILE *f = fopen(graph, "w");
    ck_assert_ptr_nonnull(f);
    const long long n = 200000;
    fprintf(f, "{\"ptosim_graph\": 1, \"name\": \"gen_chain\", \"kernels\": [{\"id\": 0, \"name\": \"step\", "
               "\"core\": \"aiv\", \"cost\": {\"ns\": 10000}}], \"tensors\": [{\"name\": \"x\", \"dtype\": "
               "\"FLOAT32\", \"shape\": [64]}]}\n");
    for (long long i = 0; i < n; i++)
        fprintf(f,
                "{\"op\": \"scope_begin\", \"site\": \"gen_chain:1\"}\n{\"op\": \"submit\", \"kernel\": \"step\", "
                "\"args\": [{\"dir\": \"in\", \"tensor\": \"%s\"}, {\"dir\": \"out\", \"tensor\": \"h\", "
                "\"dtype\": \"FLOAT32\", \"shape\": [64]}]}\n{\"op\": \"scope_end\"}\n",
                i ? "h" : "x");
    ck_assert_int_eq(fclose(f), 0);
    char out[4096];
    snprintf(out, sizeof(out), "%s/out", dir);
    const char *args[] = {"run", graph, "-o", out, "--quiet", NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    cJSON *j = run_json(out);
    const cJSON *mp = cJSON_GetObjectItem(j, "makespan_parts");
    ck_assert_ptr_nonnull(cJSON_GetObjectItem(mp, "parts"));
    ck_assert_msg(cJSON_IsArray(cJSON_GetObjectItem(mp, "parts")), "parts: %s",
                  cJSON_GetStringValue(cJSON_GetObjectItem(mp, "why")));
    long long kernel = n * 10000, dispatch = n * 430, queue = 256 + (n - 1) * 210;
    long long completion = 752 + (n - 2) * 792 + 700, orch = 874;
    long long makespan = kernel + dispatch + queue + completion + orch;
    ck_assert_int_eq(makespan, 2286400788LL);
    ck_assert_int_eq((long long)cJSON_GetObjectItem(mp, "makespan_ns")->valuedouble, makespan);
    ck_assert_int_eq((long long)cJSON_GetObjectItem(mp, "path_tasks")->valuedouble, n);
    ck_assert_int_eq(part_ns(j, "kernel step"), kernel);
    ck_assert_int_eq(part_ns(j, "dispatch to kernel start"), dispatch);
    ck_assert_int_eq(part_ns(j, "scheduler: ready to dispatch"), queue);
    ck_assert_int_eq(part_ns(j, "completion: kernel end to completion observed"), completion);
    ck_assert_int_eq(part_ns(j, "orchestrator submission"), orch);
    ck_assert_int_eq(part_ns(j, "shared-HBM stretch"), 0);
    ck_assert_int_eq(part_ns(j, "args dump"), 0);
    ck_assert_int_eq(part_ns(j, "scheduler: completion or publish to ready"), 0);
    long long sum = 0;
    const cJSON *p;
    cJSON_ArrayForEach(p, cJSON_GetObjectItem(mp, "parts")) sum +=
        (long long)cJSON_GetObjectItem(p, "ns")->valuedouble;
    ck_assert_int_eq(sum, makespan);
    cJSON_Delete(j);
    tu_run_free(&r);
}
END_TEST

static const char FAN8[] = "{\"ptosim_graph\": 1, \"name\": \"fan8\", \"kernels\": [{\"id\": 0, \"name\": "
                           "\"work\", \"core\": \"aiv\", "
                           "\"cost\": {\"ns\": 10000}}], \"tensors\": [{\"name\": \"y\", \"dtype\": "
                           "\"FLOAT32\", \"shape\": [8, 16]}]}\n";

/* Eight independent 10 us tasks, a scope each (ring 1): the graph ptosim gen fan --n 8 writes. */
static char *fan8(const char *dir)
{
    char text[8192];
    size_t n = (size_t)snprintf(text, sizeof(text), "%s", FAN8);
    for (int i = 0; i < 8; i++)
        n += (size_t)snprintf(
            text + n, sizeof(text) - n,
            "{\"op\": \"scope_begin\", \"site\": \"fan8:%d\"}\n"
            "{\"op\": \"submit\", \"kernel\": \"work\", \"args\": [{\"dir\": \"out_existing\", "
            "\"tensor\": \"y\", \"shape\": [1, 16], \"offset\": [%d, 0]}]}\n"
            "{\"op\": \"scope_end\"}\n",
            i, i);
    return tu_write(dir, "fan8.jsonl", text);
}

/* Runs graph with a task window of w on every ring into dir/wW. */
static char *run_window(const char *dir, const char *graph, int w)
{
    char out[4096], win[64];
    snprintf(out, sizeof(out), "%s/w%d", dir, w);
    snprintf(win, sizeof(win), "%d,%d,%d,%d", w, w, w, w);
    const char *args[] = {"run", graph, "--ring-task-window", win, "-o", out, NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    return strdup(out);
}

/* The last task (the eighth) is made ready by its publish, so the path is the orchestrator's: 8 submits and
 * 7 scope ends before it (8 x 874 + 7 x 22 = 7146 ns) and its waits for a slot of ring 1's window, then the
 * task (10 us of kernel). A window of 4 holds 3 tasks in flight, 8 holds 7: the wait is the part that moves
 * and every wait comes before the last publish, so it is the ring's whole orchestrator_blocked_us. */
START_TEST(diff_of_two_task_windows_names_the_window_wait_and_adds_up)
{
    const char *dir = tu_tmpdir();
    char *g = fan8(dir);
    char *a = run_window(dir, g, 4), *b = run_window(dir, g, 8);
    cJSON *ja = run_json(a), *jb = run_json(b);
    ck_assert_int_eq(part_ns(ja, "orchestrator submission"), 8 * 874 + 7 * 22);
    ck_assert_int_eq(part_ns(jb, "orchestrator submission"), 8 * 874 + 7 * 22);
    ck_assert_int_eq(part_ns(ja, "kernel work"), 10000);
    ck_assert_int_eq(part_ns(jb, "kernel work"), 10000);
    for (int k = 0; k < 2; k++) {
        const cJSON *j = k ? jb : ja;
        double blocked = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rings"), 1),
                                             "orchestrator_blocked_us")
                             ->valuedouble;
        ck_assert_int_eq(part_ns(j, "orchestrator wait: task_window, ring 1"),
                         (long long)(blocked * 1000 + 0.5));
        ck_assert_int_gt(blocked, 0);
    }
    const char *args[] = {"diff", a, b, "--json", NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    cJSON *d = cJSON_Parse(r.out);
    ck_assert_ptr_nonnull(d);
    /* the parts come sorted by how much they moved: the window wait first */
    const cJSON *parts = cJSON_GetObjectItem(d, "parts");
    ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(parts, 0), "what")->valuestring,
                     "orchestrator wait: task_window, ring 1");
    long long wa = part_ns(ja, "orchestrator wait: task_window, ring 1"),
              wb = part_ns(jb, "orchestrator wait: task_window, ring 1");
    ck_assert_int_lt(wb, wa);
    /* the changes add up to the makespan change, as printed: sum the printed decimals as integers */
    long long ma =
        (long long)cJSON_GetObjectItem(cJSON_GetObjectItem(ja, "makespan_parts"), "makespan_ns")->valuedouble;
    long long mb =
        (long long)cJSON_GetObjectItem(cJSON_GetObjectItem(jb, "makespan_parts"), "makespan_ns")->valuedouble;
    const char *key = "\"makespan_delta_us\": ";
    const char *at = strstr(r.out, key);
    ck_assert_ptr_nonnull(at);
    long long whole, frac;
    ck_assert_int_eq(sscanf(at + strlen(key), "%lld.%3lld", &whole, &frac), 2);
    long long delta = at[strlen(key)] == '-' ? whole * 1000 - frac : whole * 1000 + frac;
    ck_assert_int_eq(delta, mb - ma);
    long long sum = 0;
    for (const char *q = strstr(r.out, "\"us\": "); q; q = strstr(q + 1, "\"us\": ")) {
        ck_assert_int_eq(sscanf(q + 6, "%lld.%3lld", &whole, &frac), 2);
        sum += q[6] == '-' ? whole * 1000 - frac : whole * 1000 + frac;
    }
    ck_assert_int_eq(sum, mb - ma);
    char want[128];
    snprintf(want, sizeof(want), "\"what\": \"orchestrator wait: task_window, ring 1\", \"us\": -%lld.%03lld",
             (wa - wb) / 1000, (wa - wb) % 1000);
    ck_assert_msg(strstr(r.out, want) != NULL, "%s", r.out);
    /* the text table names the knob that differs */
    const char *targs[] = {"diff", a, b, NULL};
    run_out t = tu_run(targs);
    ck_assert_int_eq(t.status, 0);
    ck_assert_msg(strstr(t.out, "  config ring_task_window: [4,4,4,4] -> [8,8,8,8]\n") != NULL, "%s", t.out);
    tu_run_free(&t);
    cJSON_Delete(d);
    cJSON_Delete(ja);
    cJSON_Delete(jb);
    tu_run_free(&r);
    free(a);
    free(b);
    free(g);
}
END_TEST

/* dir's ptosim_run.json's graph.sha256 (a copy the caller frees), NULL when absent. */
static char *graph_sha(const char *dir)
{
    cJSON *j = run_json(dir);
    const cJSON *h = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "graph"), "sha256");
    char *s = cJSON_IsString(h) ? strdup(h->valuestring) : NULL;
    cJSON_Delete(j);
    return s;
}

/* The SHA-256 of fan8's text (sha256sum of the file the test writes), of the same text with the cost
 * 10000 -> 10001 (one byte), and a run of each: a copy of one file under another name, a gzip of it and the
 * text through a pipe record the same digest; diff says whether the contents are the same. */
START_TEST(the_graph_sha256_names_its_content)
{
    const char *dir = tu_tmpdir();
    char *g = fan8(dir);
    char *text = tu_read(g);
    char *copy = tu_write(dir, "copy.jsonl", text);
    char *p = strstr(text, "\"ns\": 10000");
    ck_assert_ptr_nonnull(p);
    p[strlen("\"ns\": 1000")] = '1';
    char *other = tu_write(dir, "other.jsonl", text);
    char cmd[16384];
    snprintf(cmd, sizeof(cmd), "gzip -c '%s' > '%s/fan8.jsonl.gz'", g, dir);
    ck_assert_int_eq(system(cmd), 0);
    char gz[4096];
    snprintf(gz, sizeof(gz), "%s/fan8.jsonl.gz", dir);
    const char *graphs[3] = {g, copy, other};
    const char *name[4] = {"a", "b", "c", "d"};
    char out[4][4096];
    for (int i = 0; i < 4; i++) {
        snprintf(out[i], sizeof(out[i]), "%s/%s", dir, name[i]);
        const char *args[] = {"run", i < 3 ? graphs[i] : gz, "-o", out[i], "--quiet", NULL};
        run_out r = tu_run(args);
        ck_assert_msg(r.status == 0, "%s", r.err);
        tu_run_free(&r);
    }
    char *h[4];
    for (int i = 0; i < 4; i++)
        h[i] = graph_sha(out[i]);
    ck_assert_str_eq(h[0], "ccb57bb854d229a982059deb0f22abcd8c1d3e5ee93ec1123d57deccddf1e5e9");
    ck_assert_str_eq(h[1], h[0]);
    ck_assert_str_eq(h[3], h[0]);
    ck_assert_str_eq(h[2], "956a0fed334e9f2e85d929d4abff3f58403c0fa4d64ede84d0771e437c80999a");
    /* a pipe: the bytes read */
    char piped[4096];
    snprintf(piped, sizeof(piped), "%s/e", dir);
    snprintf(cmd, sizeof(cmd), "cat '%s' | '%s' run - -o '%s' --quiet", g, PTOSIM_BIN, piped);
    ck_assert_int_eq(system(cmd), 0);
    char *hp = graph_sha(piped);
    ck_assert_str_eq(hp, h[0]);
    const char *same[] = {"diff", out[0], out[1], NULL};
    run_out d = tu_run(same);
    ck_assert_int_eq(d.status, 0);
    ck_assert_msg(strstr(d.out, "\n  graph content: the same (equal sha256)\n") != NULL, "%s", d.out);
    tu_run_free(&d);
    const char *differ[] = {"diff", out[0], out[2], "--json", NULL};
    d = tu_run(differ);
    ck_assert_int_eq(d.status, 0);
    ck_assert_msg(strstr(d.out, "\"graph_same_content\": false") != NULL, "%s", d.out);
    tu_run_free(&d);
    const char *differ_t[] = {"diff", out[0], out[2], NULL};
    d = tu_run(differ_t);
    ck_assert_msg(strstr(d.out, "\n  graph content: differs (the sha256 differ)\n") != NULL, "%s", d.out);
    tu_run_free(&d);
    for (int i = 0; i < 4; i++)
        free(h[i]);
    free(hp);
    free(g);
    free(copy);
    free(other);
    free(text);
}
END_TEST

START_TEST(diff_says_what_is_wrong_with_a_folder)
{
    const char *dir = tu_tmpdir();
    char run[4096], plain[4096], link[4096], old[4096], file[4096];
    snprintf(run, sizeof(run), "%s/run", dir);
    snprintf(plain, sizeof(plain), "%s/plain", dir);
    snprintf(link, sizeof(link), "%s/link", dir);
    snprintf(old, sizeof(old), "%s/old", dir);
    const char *rargs[] = {"run", TRACE("chain3.jsonl"), "-o", run, NULL};
    run_out r = tu_run(rargs);
    ck_assert_int_eq(r.status, 0);
    tu_run_free(&r);
    ck_assert_int_eq(mkdir(plain, 0700), 0);
    ck_assert_int_eq(symlink(run, link), 0);
    char *f = tu_write(dir, "afile", "x");
    snprintf(file, sizeof(file), "%s", f);
    free(f);
    struct {
        const char *b;
        const char *msg;
    } cases[] = {
        {plain,
         "ptosim diff: %s: no ptosim_run.json: not a run folder (ptosim run -o DIR writes one)\n" DIFF_USAGE},
        {link, "ptosim diff: %s: a symbolic link; give the run folder itself\n" DIFF_USAGE},
        {file, "ptosim diff: %s: not a run folder (a folder ptosim run -o, a sweep point or ptosim conform "
               "wrote)\n" DIFF_USAGE},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const char *args[] = {"diff", run, cases[i].b, NULL};
        run_out x = tu_run(args);
        char want[16384];
        snprintf(want, sizeof(want), cases[i].msg, cases[i].b);
        ck_assert_int_eq(x.status, 2);
        ck_assert_str_eq(x.err, want);
        ck_assert_str_eq(x.out, "");
        tu_run_free(&x);
    }
    /* a linked ptosim_run.json */
    char lf[8192], target[8192];
    ck_assert_int_eq(mkdir(old, 0700), 0);
    snprintf(target, sizeof(target), "%s/ptosim_run.json", run);
    snprintf(lf, sizeof(lf), "%s/ptosim_run.json", old);
    ck_assert_int_eq(symlink(target, lf), 0);
    const char *largs[] = {"diff", run, old, NULL};
    run_out x = tu_run(largs);
    char want[16384];
    snprintf(want, sizeof(want),
             "ptosim diff: %s: a symbolic link; ptosim diff reads only the file a run wrote\n" DIFF_USAGE,
             lf);
    ck_assert_int_eq(x.status, 2);
    ck_assert_str_eq(x.err, want);
    tu_run_free(&x);
    ck_assert_int_eq(unlink(lf), 0);
    /* an older ptosim_run.json, without makespan_parts: the inputs and makespans, no attribution */
    cJSON *j = run_json(run);
    cJSON_DeleteItemFromObject(j, "makespan_parts");
    char *text = cJSON_Print(j);
    char *w = tu_write(old, "ptosim_run.json", text);
    free(w);
    free(text);
    cJSON_Delete(j);
    const char *oargs[] = {"diff", old, run, NULL};
    x = tu_run(oargs);
    ck_assert_int_eq(x.status, 0);
    snprintf(
        want, sizeof(want),
        "cannot attribute the makespan change: A (%s): its ptosim_run.json has no makespan_parts (an older "
        "ptosim wrote it); re-run it with this ptosim\n",
        old);
    ck_assert_msg(strstr(x.out, want) != NULL, "%s", x.out);
    ck_assert_msg(strstr(x.out, "makespan: A 35.084 us, B 35.084 us, change +0.000 us\n") != NULL, "%s",
                  x.out);
    tu_run_free(&x);
    const char *jargs[] = {"diff", old, run, "--json", NULL};
    x = tu_run(jargs);
    ck_assert_int_eq(x.status, 0);
    cJSON *d = cJSON_Parse(x.out);
    ck_assert_ptr_nonnull(d);
    ck_assert(cJSON_IsNull(cJSON_GetObjectItem(d, "parts")));
    ck_assert(cJSON_IsString(cJSON_GetObjectItem(d, "attribution")));
    cJSON_Delete(d);
    tu_run_free(&x);
    /* one folder, or three */
    const char *one[] = {"diff", run, NULL};
    x = tu_run(one);
    ck_assert_int_eq(x.status, 2);
    ck_assert_str_eq(x.err, "ptosim diff: two run folders needed: ptosim diff A B\n" DIFF_USAGE);
    tu_run_free(&x);
    const char *three[] = {"diff", run, run, "extra", NULL};
    x = tu_run(three);
    ck_assert_int_eq(x.status, 2);
    ck_assert_str_eq(x.err, "ptosim diff: extra: two run folders at a time (A and B)\n" DIFF_USAGE);
    tu_run_free(&x);
}
END_TEST

Suite *suite_diff(void)
{
    Suite *s = suite_create("diff");
    TCase *tc = tcase_create("diff");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, chain3_makespan_parts_are_the_hand_worked_timeline);
    tcase_add_test(tc, diff_of_two_task_windows_names_the_window_wait_and_adds_up);
    tcase_add_test(tc, long_chain_parts_are_exact_and_add_up);
    tcase_add_test(tc, diff_says_what_is_wrong_with_a_folder);
    tcase_add_test(tc, the_graph_sha256_names_its_content);
    suite_add_tcase(s, tc);
    return s;
}
