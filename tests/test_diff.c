/* test_diff.c - the makespan parts of ptosim_run.json and `ptosim diff`, against figures worked by hand. */
#include <check.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "../model/graph/graph_source.h"

#define DIFF_USAGE "usage: ptosim diff A B [--json] [-o DIR] (ptosim diff --help)\n"

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

/* Runs graph with a task window of w on every ring into dir/wW (with extra, one more run option, or NULL). */
static char *run_window_with(const char *dir, const char *graph, int w, const char *extra)
{
    char out[4096], win[64];
    snprintf(out, sizeof(out), "%s/w%d", dir, w);
    snprintf(win, sizeof(win), "%d,%d,%d,%d", w, w, w, w);
    const char *args[] = {"run", graph, "--ring-task-window", win, "-o", out, extra, NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    return strdup(out);
}

static char *run_window(const char *dir, const char *graph, int w)
{
    return run_window_with(dir, graph, w, NULL);
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
    /* independent tasks: the path holds the task that completed last alone, made ready by its publish */
    ck_assert_msg(strstr(t.out, "\n  tasks on the path: A 1, B 1\n") != NULL, "%s", t.out);
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
/* A graph's digest costs SHA-256's time over its text: up to GSRC_HASH_MAX bytes it is made (and equals
 * sha256sum's), past it not (1, and the run writes null); a changed file is hashed again. */
START_TEST(a_graph_past_the_hash_cap_is_not_hashed_and_a_changed_one_is_hashed_again)
{
    const char *dir = tu_tmpdir();
    char path[4200], hex[65], err[512], cmd[8600], want[80];
    snprintf(path, sizeof(path), "%s/big.jsonl", dir);
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    static char block[1 << 16];
    memset(block, 'x', sizeof(block));
    for (size_t n = 0; n < GSRC_HASH_MAX; n += sizeof(block))
        ck_assert_uint_eq(fwrite(block, 1, sizeof(block), f), sizeof(block));
    fclose(f);
    ck_assert_int_eq(gsrc_sha256(path, hex, err, sizeof(err)), 0); /* exactly the cap: hashed */
    snprintf(cmd, sizeof(cmd), "sha256sum '%s' | cut -c1-64", path);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    ck_assert_ptr_nonnull(fgets(want, sizeof(want), p));
    pclose(p);
    want[64] = '\0';
    ck_assert_str_eq(hex, want);
    f = fopen(path, "ab"); /* one byte more: past the cap, and a changed file */
    ck_assert_ptr_nonnull(f);
    fputc('x', f);
    fclose(f);
    ck_assert_int_eq(gsrc_sha256(path, hex, err, sizeof(err)), 1);
    ck_assert_str_eq(hex, "");
    f = fopen(path, "wb"); /* a small graph where the big one was: hashed anew, not the memo's answer */
    ck_assert_ptr_nonnull(f);
    fputs("abc", f);
    fclose(f);
    ck_assert_int_eq(gsrc_sha256(path, hex, err, sizeof(err)), 0);
    ck_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"); /* FIPS 180-2 */
}
END_TEST

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
    /* a run whose graph was not hashed (over 32 MiB, or an older ptosim): the content is unknown */
    char rj[4200];
    snprintf(rj, sizeof(rj), "%s/ptosim_run.json", out[2]);
    char *runj = tu_read(rj), *at = strstr(runj, "\"sha256\": \"");
    ck_assert_ptr_nonnull(at);
    memcpy(at + 10, "null,", 5); /* "sha256": null, then the digest's rest as a string no reader takes */
    char *end = strchr(at + 15, '"');
    ck_assert_ptr_nonnull(end);
    memmove(at + 15, end + 2, strlen(end + 2) + 1); /* drop the rest of the digest and its "," */
    FILE *wf = fopen(rj, "w");
    ck_assert_ptr_nonnull(wf);
    fputs(runj, wf);
    fclose(wf);
    free(runj);
    d = tu_run(differ_t);
    ck_assert_int_eq(d.status, 0);
    ck_assert_msg(strstr(d.out, "\n  graph content: unknown (a run without the graph's sha256: a graph over 32 MiB, "
                                "or an older ptosim)\n") != NULL,
                  "%s", d.out);
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

/* How many times needle occurs in hay. */
static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* One waterfall bar as the page writes it. */
typedef struct wf_bar {
    char kind[16], what[256];
    long long from, to;
} wf_bar;

/* The page's waterfall bars, in order (at most max). */
static int wf_bars(const char *page, wf_bar *b, int max)
{
    int n = 0;
    for (const char *p = strstr(page, "<rect class=\"wf\""); p && n < max;
         p = strstr(p + 1, "<rect class=\"wf\"")) {
        ck_assert_int_eq(sscanf(p,
                                "<rect class=\"wf\" data-kind=\"%15[^\"]\" data-what=\"%255[^\"]\" "
                                "data-from-ns=\"%lld\" data-to-ns=\"%lld\"",
                                b[n].kind, b[n].what, &b[n].from, &b[n].to),
                         4);
        n++;
    }
    return n;
}

/* fan8 with a task window of 4 (A, its swimlane recorded) against 8 (B, none): the page's waterfall starts at
 * A's makespan, has a bar per part that moved, in the order of diff's table, each as long as that part moved
 * between the two ptosim_run.json files, and ends at B's makespan; A's swimlane is drawn, B's is named as
 * missing; stdout keeps the text table. */
START_TEST(diff_page_draws_the_attribution_as_a_waterfall)
{
    const char *dir = tu_tmpdir();
    char *g = fan8(dir);
    char *a = run_window_with(dir, g, 4, "--enable-chip-swimlane"), *b = run_window(dir, g, 8);
    cJSON *ja = run_json(a), *jb = run_json(b);
    long long ma =
        (long long)cJSON_GetObjectItem(cJSON_GetObjectItem(ja, "makespan_parts"), "makespan_ns")->valuedouble;
    long long mb =
        (long long)cJSON_GetObjectItem(cJSON_GetObjectItem(jb, "makespan_parts"), "makespan_ns")->valuedouble;
    char out[4096], page_path[8192];
    snprintf(out, sizeof(out), "%s/page", dir);
    snprintf(page_path, sizeof(page_path), "%s/diff.html", out);
    const char *args[] = {"diff", a, b, "-o", out, NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    char want[8192];
    snprintf(want, sizeof(want), "ptosim diff: wrote %s/diff.html\n", out);
    ck_assert_str_eq(r.err, want);
    snprintf(want, sizeof(want), "ptosim diff: A %s, B %s\ninputs:\n", a, b);
    ck_assert_msg(tu_starts(r.out, want), "%s", r.out);
    ck_assert_ptr_nonnull(strstr(r.out, "\nattribution (us; the changes add up to "));
    const char *jargs[] = {"diff", a, b, "--json", NULL};
    run_out jr = tu_run(jargs);
    ck_assert_int_eq(jr.status, 0);
    cJSON *d = cJSON_Parse(jr.out);
    ck_assert_ptr_nonnull(d);
    char *page = tu_read(page_path);
    ck_assert_ptr_nonnull(page);
    wf_bar bar[32];
    int n = wf_bars(page, bar, 32);
    /* A's makespan, the parts that moved in the table's order, B's makespan */
    ck_assert_str_eq(bar[0].kind, "total");
    ck_assert_str_eq(bar[0].what, "makespan A");
    ck_assert_int_eq(bar[0].from, 0);
    ck_assert_int_eq(bar[0].to, ma);
    long long at = ma;
    int k = 1;
    const cJSON *p;
    cJSON_ArrayForEach(p, cJSON_GetObjectItem(d, "parts"))
    {
        const char *what = cJSON_GetObjectItem(p, "what")->valuestring;
        long long moved = part_ns(jb, what) - part_ns(ja, what);
        if (!moved)
            continue;
        ck_assert_int_lt(k, n - 1);
        ck_assert_str_eq(bar[k].kind, "part");
        ck_assert_str_eq(bar[k].what, what);
        ck_assert_int_eq(bar[k].from, at);
        ck_assert_int_eq(bar[k].to - bar[k].from, moved);
        /* its label: the part's change in us, as the table prints it */
        snprintf(want, sizeof(want), "<title>%s: %s%lld.%03lld µs</title>", what, moved < 0 ? "-" : "+",
                 (moved < 0 ? -moved : moved) / 1000, (moved < 0 ? -moved : moved) % 1000);
        ck_assert_msg(strstr(page, want) != NULL, "no %s", want);
        at = bar[k].to;
        k++;
    }
    ck_assert_int_eq(k, n - 1);
    ck_assert_str_eq(bar[1].what, "orchestrator wait: task_window, ring 1"); /* the most moved */
    ck_assert_int_eq(at, mb); /* the last part ends at B's makespan */
    ck_assert_str_eq(bar[n - 1].kind, "total");
    ck_assert_str_eq(bar[n - 1].what, "makespan B");
    ck_assert_int_eq(bar[n - 1].from, 0);
    ck_assert_int_eq(bar[n - 1].to, mb);
    /* A's swimlane (8 executions, the AIV lanes named), B's note */
    ck_assert_int_eq(count(page, "<svg id=\"a-swimlane-chart\""), 1);
    ck_assert_int_eq(count(page, "<svg id=\"b-swimlane-chart\""), 0);
    ck_assert_int_eq(count(page, "<svg id=\"swimlane-chart\""), 0);
    ck_assert_int_ge(count(page, ">AIV_24</text>"), 1);
    ck_assert_msg(strstr(page,
                         "<p class=\"note\" id=\"b-noswimlane\">B has no <code>dfx_outputs/"
                         "chip_swimlane_records.json</code>: run with <code>--enable-chip-swimlane</code> "
                         "to see its swimlane.</p>") != NULL,
                  "%s", page);
    ck_assert_int_eq(count(page, "id=\"a-noswimlane\""), 0);
    /* the same page again into the folder: it holds only the earlier page */
    run_out again = tu_run(args);
    ck_assert_msg(again.status == 0, "%s", again.err);
    char *page2 = tu_read(page_path);
    ck_assert_str_eq(page2, page);
    free(page2);
    tu_run_free(&again);
    free(page);
    cJSON_Delete(d);
    tu_run_free(&jr);
    tu_run_free(&r);
    cJSON_Delete(ja);
    cJSON_Delete(jb);
    free(a);
    free(b);
    free(g);
}
END_TEST

/* Both runs with their swimlanes: two charts on one time axis, the longer makespan's (A's, a window of 4):
 * the axis's last tick label is the same in both. */
START_TEST(diff_page_draws_both_swimlanes_on_one_axis)
{
    const char *dir = tu_tmpdir();
    char *g = fan8(dir);
    char *a = run_window_with(dir, g, 4, "--enable-chip-swimlane"),
         *b = run_window_with(dir, g, 8, "--enable-chip-swimlane");
    char out[4096], page_path[8192];
    snprintf(out, sizeof(out), "%s/page", dir);
    snprintf(page_path, sizeof(page_path), "%s/diff.html", out);
    const char *args[] = {"diff", a, b, "-o", out, NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    char *page = tu_read(page_path);
    ck_assert_int_eq(count(page, "<svg id=\"a-swimlane-chart\""), 1);
    ck_assert_int_eq(count(page, "<svg id=\"b-swimlane-chart\""), 1);
    ck_assert_int_eq(count(page, "noswimlane"), 0);
    const char *sa = strstr(page, "<svg id=\"a-swimlane-chart\""),
               *sb = strstr(page, "<svg id=\"b-swimlane-chart\"");
    ck_assert_msg(sa < sb, "A above B");
    /* the ticks: 0, 5, ... 40 us for both (A's 43.085 us makespan; B's is shorter) */
    char *ea = strstr(sa, "</svg>"), *eb = strstr(sb, "</svg>");
    *ea = *eb = '\0';
    ck_assert_int_eq(count(sa, "text-anchor=\"middle\">40</text>"), 1);
    ck_assert_int_eq(count(sb, "text-anchor=\"middle\">40</text>"), 1);
    ck_assert_int_eq(count(sb, "text-anchor=\"middle\">45</text>"), 0);
    free(page);
    tu_run_free(&r);
    free(a);
    free(b);
    free(g);
}
END_TEST

/* A kernel named with markup, and a run folder's name too: escaped wherever the page names them, so the page
 * holds no script element. */
START_TEST(diff_page_escapes_a_hostile_kernel_name)
{
    const char *dir = tu_tmpdir();
    char *g = fan8(dir);
    char *text = tu_read(g);
    /* the kernel's name, in its declaration and its 8 submits */
    size_t cap = strlen(text) * 4 + 1;
    char *evil = malloc(cap);
    ck_assert_ptr_nonnull(evil);
    evil[0] = '\0';
    for (const char *q = text; *q;) {
        if (strncmp(q, "\"work\"", 6) == 0) {
            strcat(evil, "\"<script>alert(1)</script>&\\\"x'\"");
            q += 6;
        } else {
            strncat(evil, q, 1);
            q++;
        }
    }
    char *eg = tu_write(dir, "evil.jsonl", evil);
    char *a = run_window_with(dir, eg, 4, "--enable-chip-swimlane"), *b0 = run_window(dir, eg, 8);
    char b[8192];
    snprintf(b, sizeof(b), "%s/<i>b\"'", dir);
    ck_assert_int_eq(rename(b0, b), 0);
    free(b0);
    char out[4096], page_path[8192];
    snprintf(out, sizeof(out), "%s/page", dir);
    snprintf(page_path, sizeof(page_path), "%s/diff.html", out);
    const char *args[] = {"diff", a, b, "-o", out, NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    char *page = tu_read(page_path);
    ck_assert_int_eq(count(page, "<script"), 0);
    /* named twice: its part of the attribution (it did not move: no waterfall bar) and its execution totals
     * (A's swimlane names no kernel without deps.json) */
    ck_assert_int_eq(count(page, "&lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;x&#39;"), 2);
    ck_assert_int_eq(
        count(page, "<td class=\"l\">kernel &lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;x&#39;</td>"), 1);
    /* B's folder: in the title, the line naming A and B, and the heading of its swimlane */
    ck_assert_int_eq(count(page, "<i>"), 0);
    ck_assert_int_eq(count(page, "/&lt;i&gt;b&quot;&#39;"), 3);
    free(page);
    tu_run_free(&r);
    free(a);
    free(eg);
    free(evil);
    free(text);
    free(g);
}
END_TEST

/* -o DIR: a link at DIR/diff.html is replaced, never written through; a DIR holding anything else is refused,
 * and a failed page (B's swimlane malformed) writes nothing: the earlier page stays, stdout is empty. */
START_TEST(diff_page_folder_rules)
{
    const char *dir = tu_tmpdir();
    char *g = fan8(dir);
    char *a = run_window_with(dir, g, 4, "--enable-chip-swimlane"), *b = run_window(dir, g, 8);
    char out[4096], page_path[8192], victim[8192];
    snprintf(out, sizeof(out), "%s/page", dir);
    snprintf(page_path, sizeof(page_path), "%s/diff.html", out);
    ck_assert_int_eq(mkdir(out, 0700), 0);
    char *v = tu_write(dir, "victim", "keep");
    snprintf(victim, sizeof(victim), "%s", v);
    free(v);
    ck_assert_int_eq(symlink(victim, page_path), 0);
    const char *args[] = {"diff", a, b, "-o", out, NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    char *kept = tu_read(victim);
    ck_assert_str_eq(kept, "keep");
    free(kept);
    struct stat st;
    ck_assert_int_eq(lstat(page_path, &st), 0);
    ck_assert(S_ISREG(st.st_mode));
    tu_run_free(&r);
    char *page = tu_read(page_path);
    /* another file in DIR */
    char *other = tu_write(out, "notes.txt", "mine");
    free(other);
    r = tu_run(args);
    char want[16384];
    snprintf(
        want, sizeof(want),
        "ptosim diff: %s: holds notes.txt: -o takes a new or empty folder, or one holding only an earlier "
        "diff.html\n" DIFF_USAGE,
        out);
    ck_assert_int_eq(r.status, 2);
    ck_assert_str_eq(r.err, want);
    ck_assert_str_eq(r.out, "");
    char *now = tu_read(page_path);
    ck_assert_str_eq(now, page);
    free(now);
    tu_run_free(&r);
    snprintf(want, sizeof(want), "%s/notes.txt", out);
    ck_assert_int_eq(unlink(want), 0);
    /* DIR a file */
    char *file = tu_write(dir, "afile", "x");
    const char *fargs[] = {"diff", a, b, "-o", file, NULL};
    r = tu_run(fargs);
    snprintf(want, sizeof(want), "ptosim diff: %s: not a directory\n" DIFF_USAGE, file);
    ck_assert_int_eq(r.status, 2);
    ck_assert_str_eq(r.err, want);
    ck_assert_str_eq(r.out, "");
    tu_run_free(&r);
    free(file);
    /* a malformed swimlane in A: nothing written, the earlier page as it was, no temporary file left */
    char sl[8192];
    snprintf(sl, sizeof(sl), "%s/dfx_outputs/chip_swimlane_records.json", a);
    FILE *f = fopen(sl, "w");
    ck_assert_ptr_nonnull(f);
    fputs("{\"not\": ", f);
    ck_assert_int_eq(fclose(f), 0);
    r = tu_run(args);
    ck_assert_int_eq(r.status, 3);
    ck_assert_msg(tu_starts(r.err, "ptosim diff: "), "%s", r.err);
    ck_assert_str_eq(r.out, "");
    now = tu_read(page_path);
    ck_assert_str_eq(now, page);
    free(now);
    snprintf(want, sizeof(want), "%s/diff.html.tmp", out);
    ck_assert(!tu_exists(want));
    tu_run_free(&r);
    free(page);
    free(a);
    free(b);
    free(g);
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
    tcase_add_test(tc, a_graph_past_the_hash_cap_is_not_hashed_and_a_changed_one_is_hashed_again);
    tcase_add_test(tc, diff_page_draws_the_attribution_as_a_waterfall);
    tcase_add_test(tc, diff_page_draws_both_swimlanes_on_one_axis);
    tcase_add_test(tc, diff_page_escapes_a_hostile_kernel_name);
    tcase_add_test(tc, diff_page_folder_rules);
    suite_add_tcase(s, tc);
    return s;
}
