/* test_conform.c - `ptosim conform`: each compared field is caught, the rest are not. */
/* The captures conform. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../sim/conform/conform.h"
#include "../sim/json/json_stream.h"
#include "testutil.h"

/* ---- hand-made dfx_outputs folders ---- */

/* Ring 1 of a probe-like run: r1t0 reads external A and creates X [3,5] and Y [4,8]; r1t1 inouts X; r1t2
 * depends explicitly on r1t1 and reads X and Y. ID_* and ADDR_* are filled in per side. */
static const char DEPS[] =
    "{\"tasks\":["
    "{\"task_id\":\"4294967296\",\"scope\":\"auto\",\"early_dispatch\":false,\"kernel_ids\":[-1,0,-1],"
    "\"block_num\":1,\"args\":["
    "{\"idx\":0,\"type\":\"INPUT\",\"tensor_id\":\"ID_A\",\"dtype\":\"FLOAT32\",\"shape\":[16],"
    "\"start_offset\":\"0\",\"strides\":[1]},"
    "{\"idx\":1,\"type\":\"OUTPUT\"},{\"idx\":2,\"type\":\"OUTPUT\"}]},"
    "{\"task_id\":\"4294967297\",\"scope\":\"auto\",\"early_dispatch\":false,\"kernel_ids\":[-1,1,-1],"
    "\"block_num\":1,\"args\":["
    "{\"idx\":0,\"type\":\"INOUT\",\"tensor_id\":\"ID_X\",\"dtype\":\"FLOAT32\",\"shape\":[3,5],"
    "\"start_offset\":\"0\",\"strides\":[5,1]}]},"
    "{\"task_id\":\"4294967298\",\"scope\":\"auto\",\"early_dispatch\":false,\"kernel_ids\":[-1,2,-1],"
    "\"block_num\":1,\"args\":["
    "{\"idx\":0,\"type\":\"INPUT\",\"tensor_id\":\"ID_X\",\"dtype\":\"FLOAT32\",\"shape\":[3,5],"
    "\"start_offset\":\"0\",\"strides\":[5,1]},"
    "{\"idx\":1,\"type\":\"INPUT\",\"tensor_id\":\"ID_Y\",\"dtype\":\"FLOAT32\",\"shape\":[4,8],"
    "\"start_offset\":\"0\",\"strides\":[8,1]}]}],"
    "\"tensors\":["
    "{\"tensor_id\":\"ID_A\",\"buffer_addr\":\"ADDR_A\",\"version\":0,\"dtype\":\"FLOAT32\",\"buffer_numel\":"
    "\"16\"},"
    "{\"tensor_id\":\"ID_X\",\"buffer_addr\":\"ADDR_X\",\"version\":0,\"dtype\":\"FLOAT32\",\"buffer_numel\":"
    "\"256\"},"
    "{\"tensor_id\":\"ID_Y\",\"buffer_addr\":\"ADDR_Y\",\"version\":0,\"dtype\":\"FLOAT32\",\"buffer_numel\":"
    "\"256\"}],"
    "\"edges\":["
    "{\"pred\":\"4294967296\",\"succ\":\"4294967297\",\"arg\":0,\"source\":\"creator\",\"flags\":[\"wait\","
    "\"retain\"],\"tensor_id\":\"ID_X\",\"consumer_dtype\":\"FLOAT32\",\"consumer_shape\":[3,5],"
    "\"consumer_start_offset\":\"0\",\"consumer_strides\":[5,1]},"
    "{\"pred\":\"4294967297\",\"succ\":\"4294967298\",\"arg\":-1,\"source\":\"explicit\",\"flags\":[\"wait\","
    "\"retain\"]},"
    "{\"pred\":\"4294967296\",\"succ\":\"4294967298\",\"arg\":0,\"source\":\"creator\",\"flags\":[\"wait\","
    "\"retain\"],\"tensor_id\":\"ID_X\",\"consumer_dtype\":\"FLOAT32\",\"consumer_shape\":[3,5],"
    "\"consumer_start_offset\":\"0\",\"consumer_strides\":[5,1]},"
    "{\"pred\":\"4294967297\",\"succ\":\"4294967298\",\"arg\":0,\"source\":\"tensormap\",\"flags\":[\"wait\"]"
    ","
    "\"overlap\":\"covered\",\"tensor_id\":\"ID_X\",\"consumer_dtype\":\"FLOAT32\",\"consumer_shape\":[3,5],"
    "\"consumer_start_offset\":\"0\",\"consumer_strides\":[5,1],\"producer_shape\":[3,5],"
    "\"producer_start_offset\":\"0\",\"producer_strides\":[5,1]},"
    "{\"pred\":\"4294967296\",\"succ\":\"4294967298\",\"arg\":1,\"source\":\"creator\",\"flags\":[\"wait\","
    "\"retain\"],\"tensor_id\":\"ID_Y\",\"consumer_dtype\":\"FLOAT32\",\"consumer_shape\":[4,8],"
    "\"consumer_start_offset\":\"0\",\"consumer_strides\":[8,1]}]}\n";

static const char SCOPE[] =
    "{\"version\": 6, \"fatal\": false, \"dropped\": 0, \"total\": 4, \"task_window_max\": [16384, 16384, "
    "16384, "
    "16384], \"heap_max\": [268435456, 268435456, 268435456, 268435456], \"dep_pool_max\": [16384, 16384, "
    "16384, "
    "16384], \"tensormap_max\": 65536}\n"
    "{\"site\": \"(unknown):0\", \"phase\": \"begin\", \"depth\": 0, \"ring\": 0, \"task_window_start\": 0, "
    "\"task_window_end\": 0, \"heap_start\": 0, \"heap_end\": 0, \"dep_pool_start\": 1, \"dep_pool_end\": 1, "
    "\"tensormap\": 0}\n"
    "{\"site\": \"probe_orch.cpp:12\", \"phase\": \"begin\", \"depth\": 1, \"ring\": 1, "
    "\"task_window_start\": 0, "
    "\"task_window_end\": 0, \"heap_start\": 0, \"heap_end\": 0, \"dep_pool_start\": 1, \"dep_pool_end\": 1, "
    "\"tensormap\": 0}\n"
    "{\"site\": \"probe_orch.cpp:12\", \"phase\": \"end\", \"depth\": 1, \"ring\": 1, \"task_window_start\": "
    "0, "
    "\"task_window_end\": 3, \"heap_start\": 0, \"heap_end\": 2048, \"dep_pool_start\": 1, \"dep_pool_end\": "
    "6, "
    "\"tensormap\": 2}\n"
    "{\"site\": \"(unknown):0\", \"phase\": \"end\", \"depth\": 0, \"ring\": 0, \"task_window_start\": 0, "
    "\"task_window_end\": 0, \"heap_start\": 0, \"heap_end\": 0, \"dep_pool_start\": 1, \"dep_pool_end\": 1, "
    "\"tensormap\": 2}\n";

/* Level 4 on a 3-core chip: one execution of r1t0 on core 1. */
static const char SWIM[] =
    "{\"chip_swimlane_level\": 4, \"metadata\": {\"clock_freq_hz\": 50000000, \"num_cores\": 3, "
    "\"core_types\": [\"aic\", \"aiv\", \"aiv\"], \"core_to_thread\": [0, 0, 1]},\n"
    "\"aicore_tasks\": [[1, 4294967296, 1, 1000, 1010, 5]],\n"
    "\"aicpu_tasks\": [[1, 1, 990, 1020]],\n"
    "\"aicpu_scheduler_phases\": [[{\"kind\": \"dispatch\", \"start_cycles\": 985, \"end_cycles\": 990, "
    "\"loop_iter\": 3, \"tasks_processed\": 1, \"pop_hit\": 1, \"pop_miss\": 0, \"shared_at_start\": [0, 1, "
    "0], "
    "\"shared_at_end\": [0, 0, 0]}], [], [], []],\n"
    "\"aicpu_orchestrator_phases\": [[{\"submit_idx\": 0, \"task_id\": 4294967296, \"start_cycles\": 900, "
    "\"end_cycles\": 950}]]}\n";

/* A copy of text with every `from` replaced by `to` (at least one must occur). */
static char *subst(const char *text, const char *from, const char *to)
{
    size_t nf = strlen(from), nt = strlen(to), n = 0;
    for (const char *p = strstr(text, from); p; p = strstr(p + nf, from))
        n++;
    ck_assert_msg(n > 0, "'%s' does not occur", from);
    char *out = malloc(strlen(text) + n * (nt > nf ? nt - nf : 0) + 1), *w = out;
    for (const char *p = text, *q; (q = strstr(p, from)) != NULL || *p; p = q + nf) {
        if (!q) {
            strcpy(w, p);
            w += strlen(p);
            break;
        }
        memcpy(w, p, (size_t)(q - p));
        w += q - p;
        memcpy(w, to, nt);
        w += nt;
    }
    *w = '\0';
    return out;
}

/* The real side: the runtime's tensor ids (FNV of host addresses) and host malloc addresses of ring 1's heap.
 */
static char *real_deps(void)
{
    char *a = subst(DEPS, "ID_A", "15239856719688896362"), *b = subst(a, "ID_X", "13347081964815478462"),
         *c = subst(b, "ID_Y", "15334949271947970730"), *d = subst(c, "ADDR_A", "867195552"),
         *e = subst(d, "ADDR_X", "139634419954688"), *f = subst(e, "ADDR_Y", "139634419955712");
    free(a), free(b), free(c), free(d), free(e);
    return f;
}

/* ptosim's side: other ids, X and Y at ring 1's heap offsets 0 and 0x400 (0x2010000000, 0x2010000400). */
static char *sim_deps(void)
{
    char *a = subst(DEPS, "ID_A", "15239856719688896362"), *b = subst(a, "ID_X", "18238237233520461701"),
         *c = subst(b, "ID_Y", "4194456822127607641"), *d = subst(c, "ADDR_A", "867195552"),
         *e = subst(d, "ADDR_X", "137707388928"), *f = subst(e, "ADDR_Y", "137707389952");
    free(a), free(b), free(c), free(d), free(e);
    return f;
}

/* Writes a dfx_outputs folder; a NULL text leaves its file out. Returns the folder (one of the last 64:
 * tu_tmpdir keeps only 16). */
static const char *dfx(const char *deps, const char *scope, const char *swim)
{
    static char dirs[64][64];
    static int next;
    char *dir = dirs[next++ % 64];
    snprintf(dir, 64, "%s", tu_tmpdir());
    if (deps)
        free(tu_write(dir, "deps.json", deps));
    if (scope) {
        char sub[128];
        snprintf(sub, sizeof(sub), "%s/scope_stats", dir);
        ck_assert_int_eq(mkdir(sub, 0755), 0);
        free(tu_write(sub, "scope_stats.jsonl", scope));
    }
    if (swim)
        free(tu_write(dir, "chip_swimlane_records.json", swim));
    return dir;
}

/* Compares two folders; the report (malloc'd) in *out. Returns conform_compare's result. */
static long compare(const char *real, const char *sim, char **out)
{
    char *buf = NULL, err[4096] = "";
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    long n = conform_compare(real, sim, f, err, sizeof(err));
    fclose(f);
    if (n < 0) {
        free(buf);
        buf = strdup(err);
    }
    *out = buf;
    return n;
}

/* The report of real's files against sim's files, expecting n differences, with line `want` in it. */
static void expect(const char *sim_deps_text, const char *sim_scope, const char *sim_swim, long n,
                   const char *want)
{
    char *rd = real_deps();
    const char *real = dfx(rd, SCOPE, SWIM), *sim = dfx(sim_deps_text, sim_scope, sim_swim);
    char *out;
    long got = compare(real, sim, &out);
    ck_assert_msg(got == n, "%ld differences, expected %ld:\n%s", got, n, out);
    if (want)
        ck_assert_msg(strstr(out, want) != NULL, "no line '%s' in:\n%s", want, out);
    free(out);
    free(rd);
}

/* ---- what is compared is caught ---- */

START_TEST(equal_runs_differ_only_in_ids_and_heap_base)
{
    /* the runtime's ids and host heap addresses against ptosim's: the same tensors at the same offsets */
    char *sd = sim_deps(), *rd = real_deps(), *out;
    const char *real = dfx(rd, SCOPE, SWIM), *sim = dfx(sd, SCOPE, SWIM);
    ck_assert_int_eq(compare(real, sim, &out), 0);
    char want[512];
    snprintf(want, sizeof(want),
             "conform: %s: equal (deps.json: 3 tasks, 5 edges, 3 tensors; scope_stats.jsonl: 4 records; "
             "chip_swimlane_records.json: schema and core map)\n",
             real);
    ck_assert_msg(strstr(out, want) != NULL, "%s", out);
    free(out);
    free(rd);
    free(sd);
}
END_TEST

START_TEST(a_changed_edge_overlap_is_an_edge_on_each_side)
{
    char *sd = sim_deps(), *m = subst(sd, "\"covered\"", "\"other\"");
    /* the tensormap edge r1t1 -> r1t2 on X (T1) is only in real as covered, only in ptosim as other */
    expect(
        m, SCOPE, SWIM, 2,
        "deps.json: edge only in real: r1t1 -> r1t2 arg 0 tensormap [\"wait\"] overlap covered T1 consumer "
        "FLOAT32 [3,5] off 0 strides [5,1] producer [3,5] off 0 strides [5,1]\n");
    expect(m, SCOPE, SWIM, 2,
           "deps.json: edge only in ptosim: r1t1 -> r1t2 arg 0 tensormap [\"wait\"] overlap other T1");
    free(m);
    free(sd);
}
END_TEST

START_TEST(a_missing_edge_is_named)
{
    char *sd = sim_deps(),
         *m = subst(sd,
                    "{\"pred\":\"4294967297\",\"succ\":\"4294967298\",\"arg\":-1,\"source\":\"explicit\","
                    "\"flags\":[\"wait\",\"retain\"]},",
                    "");
    /* 5 edges against 4, and the explicit one only in real */
    expect(m, SCOPE, SWIM, 2, "deps.json: edges: real 5, ptosim 4\n");
    expect(m, SCOPE, SWIM, 2,
           "deps.json: edge only in real: r1t1 -> r1t2 arg -1 explicit [\"wait\",\"retain\"]\n");
    free(m);
    free(sd);
}
END_TEST

START_TEST(a_different_arg_stride_is_named)
{
    char *sd = sim_deps(), *m = subst(sd, "\"shape\":[4,8],\"start_offset\":\"0\",\"strides\":[8,1]",
                                      "\"shape\":[4,8],\"start_offset\":\"0\",\"strides\":[16,1]");
    expect(m, SCOPE, SWIM, 1, "deps.json: tasks[2] r1t2 args[1] strides: real [8,1], ptosim [16,1]\n");
    free(m);
    free(sd);
}
END_TEST

/* ptosim's side written another way that means the same: white space, members in another order, whole
 * numbers with a fraction. The spans (sim/json/json_span.c) see different text and leave those elements to the trees,
 * which find them equal. */
static char *sim_deps_rewritten(void)
{
    char *sd = sim_deps(),
         *a = subst(sd, "\"shape\":[3,5],\"start_offset\":\"0\",\"strides\":[5,1]",
                    "\"strides\": [5, 1], \"start_offset\": \"0\", \"shape\": [ 3 , 5 ]"),
         *b = subst(a, "\"block_num\":1", "\"block_num\":1.0"),
         *c = subst(b, "\"arg\":-1,\"source\":\"explicit\"", "\"source\":\"explicit\", \"arg\":-1.0"),
         *d = subst(c, "\"consumer_shape\":[4,8]", "\"consumer_shape\":[4.0,8e0]");
    free(sd), free(a), free(b), free(c);
    return d;
}

START_TEST(the_same_values_written_another_way_are_equal)
{
    char *sd = sim_deps_rewritten(), *rd = real_deps(), *out;
    const char *real = dfx(rd, SCOPE, SWIM), *sim = dfx(sd, SCOPE, SWIM);
    ck_assert_msg(compare(real, sim, &out) == 0, "%s", out);
    free(out);
    /* and a value that differs still does, named as the trees name it */
    char *m = subst(sd, "\"consumer_shape\":[4.0,8e0]", "\"consumer_shape\":[4.0,9]");
    expect(m, SCOPE, SWIM, 2,
           "deps.json: edge only in ptosim: r1t0 -> r1t2 arg 1 creator [\"wait\",\"retain\"] T2 consumer FLOAT32 "
           "[4,9] off 0 strides [8,1]\n");
    expect(m, SCOPE, SWIM, 2,
           "deps.json: edge only in real: r1t0 -> r1t2 arg 1 creator [\"wait\",\"retain\"] T2 consumer FLOAT32 "
           "[4,8] off 0 strides [8,1]\n");
    char *k = subst(sd, "\"block_num\":1.0,\"args\":[{\"idx\":0,\"type\":\"INOUT\"",
                    "\"block_num\":2,\"args\":[{\"idx\":0,\"type\":\"INOUT\"");
    expect(k, SCOPE, SWIM, 1, "deps.json: tasks[1] r1t1 block_num: real 1, ptosim 2\n");
    free(k), free(m), free(rd), free(sd);
}
END_TEST

/* Equal sides are told equal by their digests alone (a hash per task and tensor, the edges' hashes sorted);
 * whatever the digests cannot tell or do not agree on is walked in step, which says what differs. */
START_TEST(equal_sides_are_told_by_their_digests)
{
    char *sd = sim_deps(), *rd = real_deps(), *out;
    const char *real = dfx(rd, SCOPE, SWIM);
    ck_assert_msg(compare(real, dfx(sd, SCOPE, SWIM), &out) == 0, "%s", out);
    free(out);
    ck_assert_int_eq(conform_walked(), 0);
    /* the edges are a multiset: the explicit edge moved to the end changes no digest */
    static const char EXPLICIT[] = "{\"pred\":\"4294967297\",\"succ\":\"4294967298\",\"arg\":-1,\"source\":"
                                   "\"explicit\",\"flags\":[\"wait\",\"retain\"]}";
    char *a = subst(sd, EXPLICIT, ""), *b = subst(a, "},,{", "},{"),
         *moved = subst(b, "[8,1]}]}\n", "[8,1]}," "{\"pred\":\"4294967297\",\"succ\":\"4294967298\",\"arg\":-1,"
                                          "\"source\":\"explicit\",\"flags\":[\"wait\",\"retain\"]}]}\n");
    ck_assert_msg(compare(real, dfx(moved, SCOPE, SWIM), &out) == 0, "%s", out);
    free(out);
    ck_assert_int_eq(conform_walked(), 0);
    /* white space between tokens and members in another order: the same digests (a value's hash skips
     * white space outside its strings, whether it comes before, inside or after its first eight bytes) */
    char *w1 = subst(sd, "\"shape\":[3,5],\"start_offset\":\"0\",\"strides\":[5,1]",
                     "\"strides\":\t[5,\n1], \"start_offset\" : \"0\",\"shape\":[ 3,5 ]"),
         *w2 = subst(w1, "\"consumer_shape\":[4,8]", "\"consumer_shape\":[4 ,\r\n  8]"),
         *w3 = subst(w2, "\"flags\":[\"wait\",\"retain\"]", "\"flags\":[\"wait\",       \"retain\"   ]");
    ck_assert_msg(compare(real, dfx(w3, SCOPE, SWIM), &out) == 0, "%s", out);
    free(out);
    ck_assert_int_eq(conform_walked(), 0);
    /* a space inside a string is text: the digests differ, the walk names it */
    char *w4 = subst(sd, "\"type\":\"INOUT\"", "\"type\":\"INOUT \"");
    ck_assert_int_eq(compare(real, dfx(w4, SCOPE, SWIM), &out), 1);
    ck_assert_int_eq(conform_walked(), 1);
    free(out);
    free(w1), free(w2), free(w3), free(w4);
    /* the same values written another way: the digests differ, the walk finds them equal */
    char *rw = sim_deps_rewritten();
    ck_assert_msg(compare(real, dfx(rw, SCOPE, SWIM), &out) == 0, "%s", out);
    free(out);
    ck_assert_int_eq(conform_walked(), 1);
    /* an escape on both sides: the digest does not take it (one value has many spellings), the walk does */
    char *re = subst(rd, "\"scope\":\"auto\",\"early_dispatch\":false,\"kernel_ids\":[-1,1,-1]",
                     "\"scope\":\"au\\u0074o\",\"early_dispatch\":false,\"kernel_ids\":[-1,1,-1]"),
         *se = subst(sd, "\"scope\":\"auto\",\"early_dispatch\":false,\"kernel_ids\":[-1,1,-1]",
                     "\"scope\":\"au\\u0074o\",\"early_dispatch\":false,\"kernel_ids\":[-1,1,-1]");
    ck_assert_msg(compare(dfx(re, SCOPE, SWIM), dfx(se, SCOPE, SWIM), &out) == 0, "%s", out);
    free(out);
    ck_assert_int_eq(conform_walked(), 1);
    /* a difference is walked, and named as before */
    char *m = subst(sd, "\"strides\":[8,1]}]}],", "\"strides\":[16,1]}]}],");
    ck_assert_int_eq(compare(real, dfx(m, SCOPE, SWIM), &out), 1);
    ck_assert_int_eq(conform_walked(), 1);
    ck_assert_msg(strstr(out, "deps.json: tasks[2] r1t2 args[1] strides: real [8,1], ptosim [16,1]\n"), "%s", out);
    free(out);
    /* a created tensor at another heap offset: every hash agrees, the addresses do not */
    char *h = subst(sd, "137707389952", "137707390976");
    ck_assert_int_eq(compare(real, dfx(h, SCOPE, SWIM), &out), 1);
    ck_assert_int_eq(conform_walked(), 1);
    free(out);
    /* no deps.json on ptosim's side: nothing to digest */
    ck_assert_int_eq(compare(real, dfx(NULL, SCOPE, SWIM), &out), 1);
    ck_assert_int_eq(conform_walked(), -1);
    free(out);
    free(a), free(b), free(moved), free(rw), free(re), free(se), free(m), free(h), free(rd), free(sd);
}
END_TEST

START_TEST(tensor_ids_must_map_one_to_one)
{
    /* ptosim gives X and Y one id: its first-appearance numbers are A T0, X T1, Y T1; real's T0, T1, T2 */
    char *sd = sim_deps(), *m = subst(sd, "4194456822127607641", "18238237233520461701");
    expect(m, SCOPE, SWIM, 5, "deps.json: distinct tensor ids: real 3, ptosim 2\n");
    expect(m, SCOPE, SWIM, 5, "deps.json: tasks[2] r1t2 args[1] tensor: real T2, ptosim T1\n");
    expect(m, SCOPE, SWIM, 5, "deps.json: tensors[2] tensor: real T2, ptosim T1\n");
    /* and the creator edge of Y names T1 on ptosim's side: one edge on each side */
    expect(m, SCOPE, SWIM, 5, "deps.json: edge only in ptosim: r1t0 -> r1t2 arg 1 creator");
    free(m);
    free(sd);
}
END_TEST

START_TEST(created_tensors_keep_their_heap_offsets)
{
    /* Y at ptosim offset 0x10000800 where real has 0x7eff2bfff800 - (0x7eff2bfff400 - 0x10000000) =
     * 0x10000400 */
    char *sd = sim_deps(), *m = subst(sd, "137707389952", "137707390976");
    expect(
        m, SCOPE, SWIM, 1,
        "deps.json: tensors[2] buffer_addr: heap offset real 0x10000400, ptosim 0x10000800 (offsets from the "
        "real heap base 0x7eff1bfff400 that tensors[1] gives)\n");
    free(m);
    /* an external tensor keeps its address */
    m = subst(sd, "\"buffer_addr\":\"867195552\"", "\"buffer_addr\":\"867195616\"");
    expect(m, SCOPE, SWIM, 1,
           "deps.json: tensors[0] buffer_addr: real 867195552, ptosim 867195616 (external: must be "
           "equal)\n");
    free(m);
    free(sd);
}
END_TEST

START_TEST(the_heap_arena_comes_from_the_run_when_scope_stats_are_off)
{
    /* no scope stats on either side: ptosim_run.json beside dfx_outputs gives ring 0 a 1 MiB heap, so
     * 0x2010000000 is outside the arena [0x2000000000, +1 MiB + 3 x 1 KiB) and X is an external tensor */
    char *rd = real_deps(), *sd = sim_deps(), *out;
    const char *real = dfx(rd, NULL, SWIM), *work = tu_tmpdir();
    char sim[256];
    snprintf(sim, sizeof(sim), "%s/dfx_outputs", work);
    ck_assert_int_eq(mkdir(sim, 0755), 0);
    free(tu_write(sim, "deps.json", sd));
    free(tu_write(sim, "chip_swimlane_records.json", SWIM));
    free(tu_write(work, "ptosim_run.json", "{\"config\": {\"ring_heap\": [1048576, 1024, 1024, 1024]}}"));
    ck_assert_int_eq(compare(real, sim, &out), 2);
    ck_assert_msg(strstr(out, "deps.json: tensors[1] buffer_addr: real 139634419954688, ptosim 137707388928 "
                              "(external: must be equal)\n"),
                  "%s", out);
    ck_assert_msg(strstr(out, "scope_stats.jsonl: (not compared) not in the capture\n"), "%s", out);
    free(out);
    /* with ring 0 at 256 MiB they are inside, at offsets 0x10000000 and 0x10000400: equal */
    free(tu_write(work, "ptosim_run.json",
                  "{\"config\": {\"ring_heap\": [268435456, 268435456, 268435456, 268435456]}}"));
    ck_assert_int_eq(compare(real, sim, &out), 0);
    free(out);
    /* without ptosim_run.json: the runtime's default, 4 x 256 MiB, said as such */
    char path[300];
    snprintf(path, sizeof(path), "%s/ptosim_run.json", work);
    ck_assert_int_eq(unlink(path), 0);
    ck_assert_int_eq(compare(real, sim, &out), 0);
    ck_assert_msg(strstr(out,
                         "deps.json: (not compared) ptosim's ring heap sizes are unknown (no scope_stats "
                         "header, no ptosim_run.json): its arena is taken as 4 x 256 MiB\n"),
                  "%s", out);
    free(out);
    free(rd);
    free(sd);
}
END_TEST

START_TEST(a_different_task_window_end_is_named)
{
    char *m = subst(SCOPE, "\"task_window_end\": 3", "\"task_window_end\": 4");
    char *sd = sim_deps();
    expect(sd, m, SWIM, 1,
           "scope_stats.jsonl: line 4 (probe_orch.cpp:12 end, ring 1) task_window_end: real 3, ptosim 4\n");
    free(m);
    m = subst(SCOPE, "\"heap_end\": 2048", "\"heap_end\": 3072");
    expect(sd, m, SWIM, 1,
           "scope_stats.jsonl: line 4 (probe_orch.cpp:12 end, ring 1) heap_end: real 2048, ptosim 3072\n");
    free(m);
    m = subst(SCOPE, "\"heap_max\": [268435456, 268435456,", "\"heap_max\": [268435456, 1048576,");
    /* the header, and ptosim's arena is then 3 x 256 MiB + 1 MiB: still holding ring 1's heap */
    expect(sd, m, SWIM, 1,
           "scope_stats.jsonl: header heap_max: real [268435456,268435456,268435456,268435456], ptosim "
           "[268435456,1048576,268435456,268435456]\n");
    free(m);
    free(sd);
}
END_TEST

START_TEST(a_different_core_to_thread_is_named)
{
    char *sd = sim_deps(), *m = subst(SWIM, "\"core_to_thread\": [0, 0, 1]", "\"core_to_thread\": [0, 1, 1]");
    expect(sd, SCOPE, m, 1,
           "chip_swimlane_records.json: metadata.core_to_thread: 1 of 3 cores differ; core 1: real 0, ptosim "
           "1\n");
    free(m);
    m = subst(SWIM, "\"chip_swimlane_level\": 4", "\"chip_swimlane_level\": 3");
    expect(sd, SCOPE, m, 1, "chip_swimlane_records.json: chip_swimlane_level: real 4, ptosim 3\n");
    free(m);
    m = subst(SWIM, "4294967296, 1, 1000, 1010, 5]", "4294967296, 1, 1000, 1010]");
    expect(sd, SCOPE, m, 1, "chip_swimlane_records.json: aicore_tasks rows: real 6 values, ptosim 5\n");
    free(m);
    /* a phase kind on both sides with other keys: the key set of each side is named */
    m = subst(SWIM, "\"pop_miss\": 0, ", "");
    expect(sd, SCOPE, m, 2,
           "chip_swimlane_records.json: aicpu_scheduler_phases: keys only in real: dispatch{end_cycles,kind,"
           "loop_iter,pop_hit,pop_miss,shared_at_end,shared_at_start,start_cycles,tasks_processed}\n");
    free(m);
    /* records laid out as one before add nothing; another order of the same keys, or an escape, is the
     * same kind and keys; one key fewer is another key set, in a lane's fourth record */
    m = subst(SWIM, "\"shared_at_end\": [0, 0, 0]}], [], [], []]",
              "\"shared_at_end\": [0, 0, 0]}, "
              "{\"kind\": \"dispatch\", \"start_cycles\": 995, \"end_cycles\": 996, \"loop_iter\": 4, "
              "\"tasks_processed\": 0, \"pop_hit\": 0, \"pop_miss\": 1, \"shared_at_start\": [0, 0, 0], "
              "\"shared_at_end\": [0, 0, 0]}, "
              "{\"start_cycles\": 997, \"kind\": \"dispatch\", \"end_cycles\": 998, \"loop_iter\": 5, "
              "\"tasks_processed\": 0, \"pop_hit\": 0, \"pop_miss\": 1, \"shared_at_start\": [0, 0, 0], "
              "\"shared_at_end\": [0, 0, 0]}, "
              "{\"kind\": \"dispatc\\u0068\", \"start_cycles\": 999, \"end_cycles\": 999, \"loop_iter\": 6, "
              "\"tasks_processed\": 0, \"pop_hit\": 0, \"pop_miss\": 1, \"shared_at_start\": [0, 0, 0], "
              "\"shared_at_end\": [0, 0, 0]}, "
              "{\"kind\": \"dispatch\", \"start_cycles\": 1001, \"end_cycles\": 1002, \"loop_iter\": 7, "
              "\"tasks_processed\": 0, \"pop_hit\": 0, \"shared_at_start\": [0, 0, 0], "
              "\"shared_at_end\": [0, 0, 0]}], [], [], []]");
    expect(sd, SCOPE, m, 1,
           "chip_swimlane_records.json: aicpu_scheduler_phases: keys only in ptosim: dispatch{end_cycles,kind,"
           "loop_iter,pop_hit,shared_at_end,shared_at_start,start_cycles,tasks_processed}\n");
    free(m);
    m = subst(SWIM, "\"clock_freq_hz\": 50000000, ", "");
    expect(
        sd, SCOPE, m, 1,
        "chip_swimlane_records.json: metadata keys: real clock_freq_hz,num_cores,core_types,core_to_thread; "
        "ptosim num_cores,core_types,core_to_thread\n");
    free(m);
    free(sd);
}
END_TEST

START_TEST(a_file_ptosim_did_not_write_is_a_difference)
{
    char *sd = sim_deps();
    expect(sd, NULL, SWIM, 1, "scope_stats.jsonl: in the capture, not in ptosim's output\n");
    expect(sd, SCOPE, NULL, 1, "chip_swimlane_records.json: in the capture, not in ptosim's output\n");
    expect(NULL, SCOPE, SWIM, 1, "deps.json: in the capture, not in ptosim's output\n");
    free(sd);
}
END_TEST

START_TEST(only_twenty_lines_per_file_then_a_count)
{
    /* 25 records whose task_window_end all differ: lines 2-21 are printed, 5 more are counted */
    char real[8192], sim[8192];
    size_t a = (size_t)snprintf(real, sizeof(real), "%s", "{\"version\": 6}\n"),
           b = (size_t)snprintf(sim, sizeof(sim), "%s", "{\"version\": 6}\n");
    for (int i = 0; i < 25; i++) {
        a += (size_t)snprintf(real + a, sizeof(real) - a,
                              "{\"site\": \"s:1\", \"phase\": \"begin\", \"depth\": 0, \"ring\": 0, "
                              "\"task_window_end\": %d, \"heap_end\": 0}\n",
                              i);
        b += (size_t)snprintf(sim + b, sizeof(sim) - b,
                              "{\"site\": \"s:1\", \"phase\": \"begin\", \"depth\": 0, \"ring\": 0, "
                              "\"task_window_end\": %d, \"heap_end\": 0}\n",
                              i + 1);
    }
    char *rd = real_deps(), *sd = sim_deps(), *out;
    ck_assert_int_eq(compare(dfx(rd, real, SWIM), dfx(sd, sim, SWIM), &out), 25);
    ck_assert_msg(strstr(out, "line 21 (s:1 begin, ring 0) task_window_end: real 19, ptosim 20\n"), "%s",
                  out);
    ck_assert_msg(!strstr(out, "line 22 "), "%s", out);
    ck_assert_msg(strstr(out, "scope_stats.jsonl: ... and 5 more differences\n"), "%s", out);
    ck_assert_msg(
        strstr(out, ": 25 differences (deps.json 0, scope_stats.jsonl 25, chip_swimlane_records.json 0)\n"),
        "%s", out);
    free(out);
    free(rd);
    free(sd);
}
END_TEST

/* ---- what is not compared passes ---- */

START_TEST(retirement_counters_and_times_are_not_compared)
{
    char *sd = sim_deps(), *out;
    /* ring 1's end record: dep_pool_end 6 -> 4, task_window_start 0 -> 2, tensormap 2 -> 1 */
    char *a = subst(SCOPE, "\"dep_pool_end\": 6, \"tensormap\": 2", "\"dep_pool_end\": 4, \"tensormap\": 1"),
         *m = subst(a, "\"task_window_start\": 0, \"task_window_end\": 3",
                    "\"task_window_start\": 2, \"task_window_end\": 3");
    /* every time in the swimlane, and a phase kind only ptosim recorded */
    char *t1 = subst(SWIM, "1000, 1010, 5]", "2000, 2030, 7]"), *t2 = subst(t1, "990, 1020]", "1990, 2040]"),
         *t3 = subst(t2, "\"start_cycles\": 900, \"end_cycles\": 950",
                     "\"start_cycles\": 1900, \"end_cycles\": 1930"),
         *w = subst(t3, "[], [], []]",
                    "[{\"kind\": \"release\", \"start_cycles\": 5, \"end_cycles\": 6, "
                    "\"loop_iter\": 1, \"tasks_processed\": 1, \"shared_at_start\": [0, 0, 0], "
                    "\"shared_at_end\": [0, 0, 0]}], [], []]");
    char *rd = real_deps();
    const char *real = dfx(rd, SCOPE, SWIM), *sim = dfx(sd, m, w);
    ck_assert_int_eq(compare(real, sim, &out), 0);
    /* the peaks side by side: ring 1 live task slots 3 - 0 and 3 - 2, dep-pool entries 6 - 1 and 4 - 1 */
    ck_assert_msg(strstr(out,
                         "scope_stats.jsonl: (not compared) ring 1 peak live: task_window real 3, ptosim 1; "
                         "heap real 2048, ptosim 2048; dep_pool real 5, ptosim 3\n"),
                  "%s", out);
    ck_assert_msg(strstr(out, "scope_stats.jsonl: (not compared) tensormap peak: real 2, ptosim 2\n"), "%s",
                  out);
    ck_assert_msg(strstr(out,
                         "chip_swimlane_records.json: (not compared) aicpu_scheduler_phases: kind release "
                         "recorded only in ptosim\n"),
                  "%s", out);
    free(out);
    /* the peaks of values written otherwise, in a record whose compared values are the same text (read
     * without a tree): task_window_start -1.25 (3 + 1.25 live), heap_start 1e3 (2048 - 1000), a
     * dep_pool_start that is a string (no number: 0 live), tensormap 3.25 */
    char *p1 = subst(SCOPE,
                     "\"task_window_start\": 0, \"task_window_end\": 3, \"heap_start\": 0, \"heap_end\": 2048, "
                     "\"dep_pool_start\": 1, \"dep_pool_end\": 6, \"tensormap\": 2}",
                     "\"task_window_start\": -1.25, \"task_window_end\": 3, \"heap_start\": 1e3, \"heap_end\": "
                     "2048, \"dep_pool_start\": \"1\", \"dep_pool_end\": 6, \"tensormap\": 3.25}");
    ck_assert_int_eq(compare(real, dfx(sd, p1, SWIM), &out), 0);
    ck_assert_msg(strstr(out,
                         "scope_stats.jsonl: (not compared) ring 1 peak live: task_window real 3, ptosim 4; "
                         "heap real 2048, ptosim 1048; dep_pool real 5, ptosim 0\n"),
                  "%s", out);
    ck_assert_msg(strstr(out, "scope_stats.jsonl: (not compared) tensormap peak: real 2, ptosim 3\n"), "%s", out);
    free(out);
    free(p1);
    free(a), free(m), free(t1), free(t2), free(t3), free(w), free(rd), free(sd);
}
END_TEST

/* ---- error messages ---- */

/* conform_compare's message for real against sim (expecting -1). */
static char *compare_err(const char *real, const char *sim)
{
    char *out;
    ck_assert_int_eq(compare(real, sim, &out), -1);
    return out;
}

static void assert_err(const char *real, const char *sim, const char *want)
{
    char *e = compare_err(real, sim);
    ck_assert_str_eq(e, want);
    free(e);
}

START_TEST(compare_errors_name_the_folder_or_file)
{
    char *rd = real_deps(), *sd = sim_deps(), want[512];
    const char *good = dfx(rd, SCOPE, SWIM), *empty = dfx(NULL, NULL, NULL);
    assert_err("/nonexistent/ptosim-conform", good, "/nonexistent/ptosim-conform: no such folder");
    assert_err(good, "/nonexistent/ptosim-conform", "/nonexistent/ptosim-conform: no such folder");
    snprintf(want, sizeof(want), "%s: no deps.json (the capture needs --enable-dep-gen)", empty);
    assert_err(empty, good, want);
    snprintf(want, sizeof(want), "%s/deps.json: not a folder", good);
    char path[256];
    snprintf(path, sizeof(path), "%s/deps.json", good);
    assert_err(path, good, want);

    /* malformed JSON, in either folder: the file, line and column (from 1) where parsing stopped */
    const char *bad = dfx("{\"tasks\":[1,]}", SCOPE, SWIM);
    snprintf(want, sizeof(want), "%s/deps.json:1:13: json: not valid JSON", bad);
    assert_err(bad, good, want);
    assert_err(good, bad, want);
    bad = dfx("{\"tasks\":[],\"tensors\":[],\"edges\":[]} x", SCOPE, SWIM);
    snprintf(want, sizeof(want), "%s/deps.json:1:38: json: not valid JSON", bad);
    assert_err(bad, good, want);
    bad = dfx(rd, "{\"version\": 6}\n\n{\"site\": }\n", SWIM);
    snprintf(want, sizeof(want), "%s/scope_stats/scope_stats.jsonl:3:10: json: not valid JSON", bad);
    assert_err(bad, good, want);
    bad = dfx(rd, "{\"version\": 6}\n[1]\n", SWIM);
    snprintf(want, sizeof(want), "%s/scope_stats/scope_stats.jsonl:2: not a JSON object", bad);
    assert_err(good, bad, want);
    bad = dfx(rd, "\n", SWIM);
    snprintf(want, sizeof(want),
             "%s/scope_stats/scope_stats.jsonl: empty (the first line is the run's header)", bad);
    assert_err(bad, good, want);
    bad = dfx(rd, SCOPE, "{\"chip_swimlane_level\": 4,");
    snprintf(want, sizeof(want), "%s/chip_swimlane_records.json:1:27: json: not valid JSON", bad);
    assert_err(bad, good, want);
    /* what a lenient reading took silently: a key given twice, a string that is not UTF-8 */
    bad = dfx("{\"tasks\":[],\"tensors\":[],\"edges\":[],\"tasks\":[]}", SCOPE, SWIM);
    snprintf(want, sizeof(want), "%s/deps.json:1:37: tasks: duplicate key", bad);
    assert_err(bad, good, want);
    assert_err(good, bad, want);
    bad = dfx(rd, "{\"version\": 6}\n{\"a\": 1, \"a\": 2}\n", SWIM);
    snprintf(want, sizeof(want), "%s/scope_stats/scope_stats.jsonl:2:10: a: duplicate key", bad);
    assert_err(bad, good, want);
    bad = dfx(rd, SCOPE, "{\"chip_swimlane_level\": \"\xff\"}");
    snprintf(want, sizeof(want),
             "%s/chip_swimlane_records.json:1:26: chip_swimlane_level: invalid UTF-8 in a string", bad);
    assert_err(bad, good, want);

    /* JSON, but not shaped as the runtime writes it */
    bad = dfx("[]", SCOPE, SWIM);
    snprintf(want, sizeof(want), "%s/deps.json: not a JSON object", bad);
    assert_err(bad, good, want);
    bad = dfx("{\"tasks\":{},\"tensors\":[],\"edges\":[]}", SCOPE, SWIM);
    snprintf(want, sizeof(want), "%s/deps.json: tasks: not an array", bad);
    assert_err(bad, good, want);
    bad = dfx("{\"tasks\":[{\"task_id\":\"0\"}],\"tensors\":[],\"edges\":[]}", SCOPE, SWIM);
    snprintf(want, sizeof(want), "%s/deps.json: tasks[0].args: missing", bad);
    assert_err(bad, good, want);
    bad = dfx("{\"tasks\":[{\"args\":[1]}],\"tensors\":[],\"edges\":[]}", SCOPE, SWIM);
    snprintf(want, sizeof(want), "%s/deps.json: tasks[0].args[0]: not an object", bad);
    assert_err(bad, good, want);
    bad = dfx("{\"tasks\":[],\"tensors\":[{\"tensor_id\":\"1\"}],\"edges\":[]}", SCOPE, SWIM);
    snprintf(want, sizeof(want), "%s/deps.json: tensors[0].buffer_addr: missing", bad);
    assert_err(bad, good, want);
    bad = dfx("{\"tasks\":[],\"tensors\":[],\"edges\":[2]}", SCOPE, SWIM);
    snprintf(want, sizeof(want), "%s/deps.json: edges[0]: not an object", bad);
    assert_err(bad, good, want);
    bad = dfx(rd, SCOPE, "{\"chip_swimlane_level\": 4, \"metadata\": {}, \"aicpu_scheduler_phases\": [[1]]}");
    snprintf(want, sizeof(want),
             "%s/chip_swimlane_records.json: aicpu_scheduler_phases[0]: a record is not an object", bad);
    assert_err(bad, good, want);
    bad =
        dfx(rd, SCOPE, "{\"chip_swimlane_level\": 4, \"metadata\": {}, \"aicpu_orchestrator_phases\": [{}]}");
    snprintf(want, sizeof(want), "%s/chip_swimlane_records.json: aicpu_orchestrator_phases[0]: not an array",
             bad);
    assert_err(bad, good, want);
    bad = dfx(rd, SCOPE, "{\"chip_swimlane_level\": 4, \"metadata\": {}, \"aicore_tasks\": {}}");
    snprintf(want, sizeof(want), "%s/chip_swimlane_records.json: aicore_tasks: not an array", bad);
    assert_err(bad, good, want);
    bad = dfx(rd, SCOPE, "{\"chip_swimlane_level\": 4, \"metadata\": {}, \"aicore_tasks\": [1]}");
    snprintf(want, sizeof(want), "%s/chip_swimlane_records.json: aicore_tasks: a row is not an array", bad);
    assert_err(good, bad, want);
    bad = dfx(rd, SCOPE, "{\"chip_swimlane_level\": 4}");
    snprintf(want, sizeof(want), "%s/chip_swimlane_records.json: metadata: missing", bad);
    assert_err(good, bad, want);
    bad = dfx(rd, SCOPE, "{\"chip_swimlane_level\": 4, \"metadata\": []}");
    snprintf(want, sizeof(want), "%s/chip_swimlane_records.json: metadata: not an object", bad);
    assert_err(bad, good, want);
    free(rd);
    free(sd);
}
END_TEST

/* ---- the command ---- */

START_TEST(command_line_errors)
{
    const char *none[] = {"conform", NULL}, *two[] = {"conform", "a", "b", NULL},
               *unknown[] = {"conform", "--bogus", "x", NULL}, *noval[] = {"conform", "x", "-o", NULL};
    run_out r = tu_run(none);
    ck_assert_int_eq(r.status, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "usage: ptosim conform CAPTURE_DIR [-o WORKDIR] [-p PLATFORM]"));
    tu_run_free(&r);
    r = tu_run(two);
    ck_assert_int_eq(r.status, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "ptosim conform: b: one capture only\n"));
    tu_run_free(&r);
    r = tu_run(unknown);
    ck_assert_int_eq(r.status, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "ptosim conform: --bogus: unknown option\n"));
    tu_run_free(&r);
    r = tu_run(noval);
    ck_assert_int_eq(r.status, 2);
    ck_assert_str_eq(r.err, "ptosim conform: -o: missing value\n" TU_USAGE_CONFORM);
    tu_run_free(&r);
    const char *help[] = {"conform", "--help", NULL};
    r = tu_run(help);
    ck_assert_int_eq(r.status, 0);
    ck_assert_ptr_nonnull(strstr(r.out, "exit status: 0 equal, 1 different"));
    tu_run_free(&r);
}
END_TEST

START_TEST(capture_errors_exit_3_or_2)
{
    char *rd = real_deps(), want[512];
    const char *args[] = {"conform", "/nonexistent/ptosim-conform", NULL};
    run_out r = tu_run(args);
    ck_assert_int_eq(r.status, 3);
    ck_assert_str_eq(r.err, "ptosim conform: /nonexistent/ptosim-conform: no such folder\n");
    tu_run_free(&r);
    const char *empty = dfx(NULL, SCOPE, SWIM);
    args[1] = empty;
    r = tu_run(args);
    ck_assert_int_eq(r.status, 3);
    snprintf(want, sizeof(want), "ptosim conform: %s: no deps.json (the capture needs --enable-dep-gen)\n",
             empty);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    const char *bad = dfx(rd, SCOPE, "{");
    args[1] = bad;
    r = tu_run(args);
    ck_assert_int_eq(r.status, 3);
    snprintf(want, sizeof(want), "ptosim conform: %s/chip_swimlane_records.json:1:2: json: not valid JSON\n",
             bad);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    bad = dfx(rd, "{\"heap_max\": [1, 2]}\n", NULL);
    args[1] = bad;
    r = tu_run(args);
    ck_assert_int_eq(r.status, 3);
    snprintf(want, sizeof(want),
             "ptosim conform: %s/scope_stats/scope_stats.jsonl:1: task_window_max: not 4 numbers\n", bad);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    /* 3 cores name no platform: -p is needed (a usage error) */
    args[1] = dfx(rd, SCOPE, SWIM);
    r = tu_run(args);
    ck_assert_int_eq(r.status, 2);
    snprintf(
        want, sizeof(want),
        "ptosim conform: %s/chip_swimlane_records.json: metadata.num_cores 3 names no platform (24 a2a3sim, "
        "72 a2a3): give one with -p\n" TU_USAGE_CONFORM,
        args[1]);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    char *m = subst(SWIM, "\"num_cores\": 3, ", "");
    bad = dfx(rd, SCOPE, m);
    args[1] = bad;
    r = tu_run(args);
    ck_assert_int_eq(r.status, 3);
    snprintf(want, sizeof(want),
             "ptosim conform: %s/chip_swimlane_records.json: metadata.num_cores: missing\n", bad);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    free(m);
    m = subst(SWIM, "\"chip_swimlane_level\": 4", "\"chip_swimlane_level\": 5");
    bad = dfx(rd, SCOPE, m);
    args[1] = bad;
    r = tu_run(args);
    ck_assert_int_eq(r.status, 3);
    snprintf(want, sizeof(want),
             "ptosim conform: %s/chip_swimlane_records.json: chip_swimlane_level: not 1-4\n", bad);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    free(m);
    /* a deps.json import refuses */
    bad = dfx("{\"tasks\":[{\"task_id\":\"0\",\"args\":[]}],\"tensors\":[],\"edges\":[]}", NULL, NULL);
    args[1] = bad;
    r = tu_run(args);
    ck_assert_int_eq(r.status, 3);
    snprintf(want, sizeof(want), "ptosim conform: %s/deps.json: tasks[0]: needs task_id, kernel_ids", bad);
    ck_assert_msg(strncmp(r.err, want, strlen(want)) == 0, "%s", r.err);
    tu_run_free(&r);
    args[1] = dfx(rd, SCOPE, SWIM);
    const char *plat[] = {"conform", args[1], "-p", "nosuch", NULL};
    r = tu_run(plat);
    ck_assert_int_eq(r.status, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "ptosim conform: "));
    ck_assert_ptr_nonnull(strstr(r.err, "nosuch"));
    tu_run_free(&r);
    bad = dfx(rd,
              "{\"version\": 6, \"task_window_max\": [2, 2, 2, 2], \"heap_max\": [1024, 1024, 1024, 1024], "
              "\"dep_pool_max\": [16, 16, 16, 16]}\n",
              NULL);
    const char *small[] = {"conform", bad, "-p", "a2a3sim", NULL};
    /* a run that fails keeps run's status: 2 task slots per ring, which the
     * imported graph's run_config carries, is a bad graph header (3) */
    r = tu_run(small);
    ck_assert_int_eq(r.status, 3);
    ck_assert_ptr_nonnull(strstr(r.out, "-p a2a3sim --enable-dep-gen --enable-scope-stats\n"));
    ck_assert_ptr_nonnull(strstr(r.err, "graph.jsonl:1: run_config.ring_task_window: "));
    ck_assert_ptr_nonnull(strstr(r.err, "ended with exit status 3\n"));
    tu_run_free(&r);
    /* conform's own failures: no temporary folder, a -o that cannot be made */
    setenv("TMPDIR", "/nonexistent/ptosim-conform", 1);
    const char *tmp[] = {"conform", bad, "-p", "a2a3sim", NULL};
    r = tu_run(tmp);
    ck_assert_int_eq(r.status, 7);
    ck_assert_ptr_nonnull(
        strstr(r.err, "ptosim conform: cannot make a folder /nonexistent/ptosim-conform/ptosim-conform-"));
    tu_run_free(&r);
    snprintf(want, sizeof(want), "%s/deps.json/work", bad);
    const char *out[] = {"conform", bad, "-p", "a2a3sim", "-o", want, NULL};
    r = tu_run(out);
    ck_assert_int_eq(r.status, 7);
    ck_assert_ptr_nonnull(strstr(r.err, "ptosim conform: "));
    ck_assert_ptr_nonnull(strstr(r.err, "/deps.json"));
    tu_run_free(&r);
    free(rd);
}
END_TEST

/* The entries of a folder, "." and ".." left out; -1 when it cannot be opened. */
static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

/* The capture is imported while it is checked (conform_main): a capture or platform refused after the
 * import leaves no trace of it, neither a work folder it made nor a graph over an earlier one. */
START_TEST(a_refused_capture_leaves_the_work_folder_as_it_was)
{
    char *rd = real_deps(), work[512];
    char *lv = subst(SWIM, "\"chip_swimlane_level\": 4", "\"chip_swimlane_level\": 5");
    const char *late = dfx(rd, SCOPE, lv), /* passes the stream check; refused after the import */
        *early = dfx(rd, SCOPE, "{"),      /* refused by the stream check */
        *good = dfx(rd, SCOPE, SWIM);
    snprintf(work, sizeof(work), "%s/work", tu_tmpdir());
    struct stat st;
    const char *cases[3][6] = {{"conform", late, "-o", work, NULL},
                               {"conform", early, "-o", work, NULL},
                               {"conform", good, "-p", "nosuch", "-o", work}};
    const int status[3] = {3, 3, 2};
    for (int c = 0; c < 3; c++) {
        const char *args[7] = {NULL};
        memcpy(args, cases[c], sizeof(cases[c]));
        run_out r = tu_run(args);
        ck_assert_int_eq(r.status, status[c]);
        ck_assert_int_eq(lstat(work, &st), -1); /* not made */
        tu_run_free(&r);
    }
    /* a work folder already there keeps its earlier graph, and gains nothing */
    ck_assert_int_eq(mkdir(work, 0755), 0);
    free(tu_write(work, "graph.jsonl", "earlier\n"));
    char path[600];
    snprintf(path, sizeof(path), "%s/graph.jsonl", work);
    for (int c = 0; c < 3; c++) {
        const char *args[7] = {NULL};
        memcpy(args, cases[c], sizeof(cases[c]));
        run_out r = tu_run(args);
        ck_assert_int_eq(r.status, status[c]);
        char *g = tu_read(path);
        ck_assert_str_eq(g, "earlier\n");
        free(g);
        ck_assert_int_eq(entries(work), 1);
        tu_run_free(&r);
    }
    free(lv);
    free(rd);
}
END_TEST

/* Runs a trace on a2a3 with every conformance output and 3 AICPU threads, 1024 task slots per ring. */
static const char *self_capture(const char *trace)
{
    const char *dir = tu_tmpdir();
    const char *args[] = {"run",
                          trace,
                          "-p",
                          "a2a3",
                          "-o",
                          dir,
                          "--enable-dep-gen",
                          "--enable-scope-stats",
                          "--enable-chip-swimlane",
                          "--ring-task-window",
                          "1024",
                          "--aicpu-thread-num",
                          "3",
                          "--quiet",
                          NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    static char dfxdir[16][256];
    static int next;
    char *p = dfxdir[next++ % 16];
    snprintf(p, 256, "%s/dfx_outputs", dir);
    return p;
}

START_TEST(a_ptosim_run_on_a2a3_conforms_to_itself)
{
    const char *cap = self_capture(TRACE("forkjoin.jsonl")), *work = tu_tmpdir(), *tmp = tu_tmpdir();
    char keep[256], path[300];
    snprintf(keep, sizeof(keep), "%s/kept", work);
    setenv("TMPDIR", tmp, 1);
    const char *args[] = {"conform", cap, NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s%s", r.out, r.err);
    /* 72 cores: a2a3; core_to_thread up to 1: 2 scheduler threads + the orchestrator; the 1024 slots
     * travel in the imported graph's run_config */
    char want[512];
    snprintf(
        want, sizeof(want),
        "conform: %s: ptosim run with -p a2a3 --enable-dep-gen --enable-scope-stats --enable-chip-swimlane=4 "
        "--aicpu-thread-num 3\n",
        cap);
    ck_assert_msg(strncmp(r.out, want, strlen(want)) == 0, "%s", r.out);
    snprintf(want, sizeof(want), "conform: %s: equal (deps.json: 10 tasks, 16 edges, 11 tensors;", cap);
    ck_assert_msg(strstr(r.out, want), "%s", r.out);
    tu_run_free(&r);
    /* the temporary folder is gone: TMPDIR is empty again */
    DIR *d = opendir(tmp);
    int entries = 0;
    for (struct dirent *e; d && (e = readdir(d)) != NULL;)
        entries += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    ck_assert_int_eq(entries, 0);
    /* -o keeps the graph and the run */
    const char *kept[] = {"conform", cap, "-o", keep, NULL};
    r = tu_run(kept);
    ck_assert_msg(r.status == 0, "%s%s", r.out, r.err);
    tu_run_free(&r);
    snprintf(path, sizeof(path), "%s/graph.jsonl", keep);
    ck_assert(tu_exists(path));
    snprintf(path, sizeof(path), "%s/dfx_outputs/deps.json", keep);
    ck_assert(tu_exists(path));
    /* a capture with a different field: exit 1, the line and the verdict */
    snprintf(path, sizeof(path), "%s/scope_stats/scope_stats.jsonl", cap);
    char *text = tu_read(path), *m = subst(text, "\"dropped\": 0", "\"dropped\": 1");
    FILE *f = fopen(path, "w");
    fputs(m, f);
    fclose(f);
    r = tu_run(args);
    ck_assert_int_eq(r.status, 1);
    ck_assert_ptr_nonnull(strstr(r.out, "scope_stats.jsonl: header dropped: real 1, ptosim 0\n"));
    snprintf(want, sizeof(want),
             "conform: %s: 1 difference (deps.json 0, scope_stats.jsonl 1, chip_swimlane_records.json 0)\n",
             cap);
    ck_assert_ptr_nonnull(strstr(r.out, want));
    tu_run_free(&r);
    free(text);
    free(m);
}
END_TEST

/* ---- large captures: read a value at a time ---- */

/* ptosim's paged attention, 1024 tasks (deps.json 1.3 MB), with every conformance output; its dfx_outputs. */
static const char *pa_capture(void)
{
    const char *dir = tu_tmpdir();
    const char *gen[] = {"gen", "paged_attention", "--batch", "8",         "--heads", "16", "--head-dim",
                         "128", "--block-size",    "128",     "--context", "4096",    NULL};
    run_out g = tu_run(gen);
    ck_assert_msg(g.status == 0, "%s", g.err);
    char *graph = tu_write(dir, "pa.jsonl", g.out);
    tu_run_free(&g);
    const char *args[] = {
        "run",     graph, "-o", dir, "--enable-dep-gen", "--enable-scope-stats", "--enable-chip-swimlane",
        "--quiet", NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    free(graph);
    static char dfxdir[4][256];
    static int next;
    char *p = dfxdir[next++ % 4];
    snprintf(p, 256, "%s/dfx_outputs", dir);
    return p;
}

/* The text of a capture's file (malloc'd). */
static char *cap_file(const char *cap, const char *name)
{
    char path[512];
    snprintf(path, sizeof(path), "%s/%s", cap, name);
    return tu_read(path);
}

START_TEST(the_comparison_holds_a_window_not_the_files)
{
    const char *cap = pa_capture();
    char path[512];
    struct stat st;
    snprintf(path, sizeof(path), "%s/deps.json", cap);
    ck_assert_int_eq(stat(path, &st), 0);
    jstream_window = 4096;
    ck_assert_int_gt((long)st.st_size, 300L * 4096); /* deps.json is hundreds of windows */
    char *out;
    ck_assert_int_eq(compare(cap, cap, &out), 0);
    /* no file was held whole, nor any list: each was read through one window of 4 KiB that never grew */
    ck_assert_uint_eq(conform_peak_window(), 4096);
    ck_assert_msg(strstr(out, "equal (deps.json: 1024 tasks, 2272 edges, 1308 tensors; scope_stats.jsonl: "),
                  "%s", out);
    free(out);
    jstream_window = JSTREAM_WINDOW;
}
END_TEST

/* text with the first character of its first key written as a \u escape: jsonl_parse reads the same key, the
 * stream refuses escaped keys, so the file is compared as a whole-file tree (malloc'd). */
static char *with_escaped_key(const char *text)
{
    const char *q = strchr(text, '"');
    ck_assert(q && q[1] > 0x20 && q[1] < 0x7f && q[1] != '"' && q[1] != '\\');
    size_t n = strlen(text), at = (size_t)(q - text) + 1;
    char *t = malloc(n + 6);
    ck_assert_ptr_nonnull(t);
    memcpy(t, text, at);
    snprintf(t + at, 7, "\\u%04x", (unsigned)(unsigned char)q[1]);
    memcpy(t + at + 6, q + 2, n - at - 1 + 1);
    return t;
}

START_TEST(streamed_and_whole_file_comparisons_print_the_same)
{
    const char *cap = pa_capture();
    char *deps = cap_file(cap, "deps.json"), *scope = cap_file(cap, "scope_stats/scope_stats.jsonl"),
         *swim = cap_file(cap, "chip_swimlane_records.json");
    /* hundreds of edges differ: the 20 smallest lines in sorted order, then the count; then one task's scope
     * as well, whose line comes first */
    char *e = subst(deps, "\"consumer_dtype\":\"BFLOAT16\"", "\"consumer_dtype\":\"FLOAT16\""),
         *t = subst(e, "\"task_id\":\"8589934592\",\"scope\":\"auto\"",
                    "\"task_id\":\"8589934592\",\"scope\":\"manual\"");
    const char *sims[][2] = {{e, scope}, {t, scope}};
    for (int k = 0; k < 2; k++) {
        char *ff = with_escaped_key(sims[k][0]), *out_s, *out_w, *out_r;
        const char *streamed = dfx(sims[k][0], sims[k][1], swim), *whole = dfx(ff, sims[k][1], swim);
        long n = compare(cap, streamed, &out_s);
        ck_assert_int_gt(n, 200);
        ck_assert_int_eq(compare(cap, whole, &out_w), n);
        ck_assert_str_eq(out_s, out_w);
        /* the capture read whole: the same lines (the verdict names the folder) */
        char *rff = with_escaped_key(deps);
        const char *real_whole = dfx(rff, scope, swim);
        ck_assert_int_eq(compare(real_whole, streamed, &out_r), n);
        char *named = subst(out_r, real_whole, cap);
        ck_assert_str_eq(out_s, named);
        ck_assert_msg(strstr(out_s, "deps.json: edge only in ptosim: ") &&
                          strstr(out_s, "deps.json: ... and "),
                      "%s", out_s);
        free(named), free(rff), free(out_r), free(out_w), free(out_s), free(ff);
    }
    free(t), free(e), free(swim), free(scope), free(deps);
}
END_TEST

/* ---- the conformance test proper ---- */

/* Every capture of the real runtime in tests/real (README.md there says what
 * each exercises): a folder dropped in there joins the test. */
START_TEST(the_real_captures_conform)
{
    DIR *d = opendir(PTOSIM_SRCDIR "/tests/real");
    ck_assert_ptr_nonnull(d);
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        char dir[1024];
        snprintf(dir, sizeof(dir), PTOSIM_SRCDIR "/tests/real/%.200s", de->d_name);
        struct stat st;
        if (de->d_name[0] == '.' || stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
            continue;
        char work[1100], sim[1200];
        snprintf(work, sizeof(work), "%s/w", tu_tmpdir());
        const char *args[] = {"conform", dir, "-o", work, NULL};
        run_out r = tu_run(args);
        ck_assert_msg(r.status == 0, "ptosim conform tests/real/%s: exit %d\n%s%s", de->d_name, r.status, r.out,
                      r.err);
        tu_run_free(&r);
        /* and the runtime's files are written as ptosim writes them: the digests alone tell them equal */
        snprintf(sim, sizeof(sim), "%s/dfx_outputs", work);
        char *out;
        ck_assert_int_eq(compare(dir, sim, &out), 0);
        free(out);
        ck_assert_msg(conform_walked() == 0, "tests/real/%s was walked in step", de->d_name);
        n++;
    }
    closedir(d);
    ck_assert_int_ge(n, 24);
}
END_TEST

START_TEST(the_run_takes_the_captures_settings)
{
    /* heap_rebase: 2 AICPU threads (core_to_thread all 0); ring 1's 1.5 MiB heap travels in the
     * imported graph's run_config */
    const char *args[] = {"conform", PTOSIM_SRCDIR "/tests/real/heap_rebase", NULL};
    run_out r = tu_run(args);
    ck_assert_msg(strstr(r.out, "ptosim run with -p a2a3sim --enable-dep-gen --enable-scope-stats "
                                "--enable-chip-swimlane=4 --aicpu-thread-num 2\n"),
                  "%s", r.out);
    tu_run_free(&r);
}
END_TEST

START_TEST(a_conform_into_a_folder_another_holds_is_refused)
{
    /* two conforms into one folder compared each other's runs: a capture that differs was "equal" */
    const char *top = tu_tmpdir();
    char w[4200], path[4400], want[4400];
    snprintf(w, sizeof(w), "%s/W", top);
    ck_assert_int_eq(mkdir(w, 0755), 0);
    int fd = open(w, O_RDONLY | O_DIRECTORY);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(flock(fd, LOCK_EX | LOCK_NB), 0); /* as a conform (or a run) into it holds it */
    const char *args[] = {"conform", PTOSIM_SRCDIR "/tests/real/probe", "-o", w, NULL};
    run_out r = tu_run(args);
    ck_assert_int_eq(r.status, 7);
    snprintf(want, sizeof(want),
             "ptosim conform: %s: another ptosim conform or run is using this folder; wait for it to end or give "
             "another -o\n",
             w);
    ck_assert_str_eq(r.err, want);
    ck_assert_str_eq(r.out, "");
    tu_run_free(&r);
    snprintf(path, sizeof(path), "%s/graph.jsonl", w);
    ck_assert(!tu_exists(path)); /* nothing of the other one's is touched */
    close(fd);
    r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s%s", r.out, r.err);
    tu_run_free(&r);
}
END_TEST

START_TEST(a_conform_holds_its_folder_from_the_import_to_the_comparison)
{
    /* the folder is locked when the run starts (after the import wrote graph.jsonl) and still when it has
     * ended (before the comparison reads its files): a second conform cannot slip in between */
    const char *top = tu_tmpdir();
    char w[4200], probe[4200];
    snprintf(w, sizeof(w), "%s/W", top);
    snprintf(probe, sizeof(probe), "%s/probe.txt", top);
    setenv("LOCKPROBE_DIR", w, 1);
    setenv("LOCKPROBE_OUT", probe, 1);
    const char *args[] = {"conform", PTOSIM_SRCDIR "/tests/real/probe", "-o", w, NULL};
    run_out r = tu_run_preloaded(args, PTOSIM_LOCKPROBE, NULL);
    unsetenv("LOCKPROBE_DIR");
    unsetenv("LOCKPROBE_OUT");
    ck_assert_msg(r.status == 0, "%s%s", r.out, r.err);
    tu_run_free(&r);
    char *seen = tu_read(probe);
    ck_assert_ptr_nonnull(seen);
    ck_assert_str_eq(seen, "exec held\nwait held\n");
    free(seen);
}
END_TEST

START_TEST(a_conform_that_cannot_lock_its_folder_says_so)
{
    /* a file system without locks: the conform goes on, unprotected, and says so (as its run does) */
    const char *top = tu_tmpdir();
    char w[4200], want[4400];
    snprintf(w, sizeof(w), "%s/W", top);
    const char *args[] = {"conform", PTOSIM_SRCDIR "/tests/real/probe", "-o", w, NULL};
    run_out r = tu_run_preloaded(args, PTOSIM_NOLOCK, NULL);
    ck_assert_msg(r.status == 0, "%s%s", r.out, r.err);
    snprintf(want, sizeof(want),
             "ptosim conform: warning: %s: cannot lock the work dir (No locks available); do not let two "
             "conforms use it at once\n",
             w);
    ck_assert_msg(tu_starts(r.err, want), "%s", r.err);
    tu_run_free(&r);
    /* a folder that can be written into but not opened (mode 0300): named, before the import */
    char x[4200];
    snprintf(x, sizeof(x), "%s/X", top);
    ck_assert_int_eq(mkdir(x, 0300), 0);
    const char *xa[] = {"conform", PTOSIM_SRCDIR "/tests/real/probe", "-o", x, NULL};
    r = tu_run_bound_by_modes(xa);
    ck_assert_int_eq(r.status, 7);
    snprintf(want, sizeof(want), "ptosim conform: %s: cannot open the work dir: Permission denied\n", x);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
    chmod(x, 0700);
}
END_TEST

Suite *suite_conform(void)
{
    Suite *s = suite_create("conform");
    TCase *tc = tcase_create("compare");
    tcase_add_test(tc, equal_runs_differ_only_in_ids_and_heap_base);
    tcase_add_test(tc, a_changed_edge_overlap_is_an_edge_on_each_side);
    tcase_add_test(tc, a_missing_edge_is_named);
    tcase_add_test(tc, a_different_arg_stride_is_named);
    tcase_add_test(tc, tensor_ids_must_map_one_to_one);
    tcase_add_test(tc, equal_sides_are_told_by_their_digests);
    tcase_add_test(tc, the_same_values_written_another_way_are_equal);
    tcase_add_test(tc, created_tensors_keep_their_heap_offsets);
    tcase_add_test(tc, the_heap_arena_comes_from_the_run_when_scope_stats_are_off);
    tcase_add_test(tc, a_different_task_window_end_is_named);
    tcase_add_test(tc, a_different_core_to_thread_is_named);
    tcase_add_test(tc, a_file_ptosim_did_not_write_is_a_difference);
    tcase_add_test(tc, only_twenty_lines_per_file_then_a_count);
    tcase_add_test(tc, retirement_counters_and_times_are_not_compared);
    tcase_add_test(tc, compare_errors_name_the_folder_or_file);
    suite_add_tcase(s, tc);
    TCase *cmd = tcase_create("command");
    tcase_set_timeout(cmd, 60);
    tcase_add_test(cmd, command_line_errors);
    tcase_add_test(cmd, capture_errors_exit_3_or_2);
    tcase_add_test(cmd, a_refused_capture_leaves_the_work_folder_as_it_was);
    tcase_add_test(cmd, a_ptosim_run_on_a2a3_conforms_to_itself);
    tcase_add_test(cmd, the_real_captures_conform);
    tcase_add_test(cmd, the_run_takes_the_captures_settings);
    tcase_add_test(cmd, the_comparison_holds_a_window_not_the_files);
    tcase_add_test(cmd, streamed_and_whole_file_comparisons_print_the_same);
    tcase_add_test(cmd, a_conform_into_a_folder_another_holds_is_refused);
    tcase_add_test(cmd, a_conform_holds_its_folder_from_the_import_to_the_comparison);
    tcase_add_test(cmd, a_conform_that_cannot_lock_its_folder_says_so);
    suite_add_tcase(s, cmd);
    return s;
}
