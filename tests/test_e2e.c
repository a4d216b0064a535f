/* test_e2e.c - the ptosim program end to end: files per swimlane level, determinism, exit codes, SimGrid. */
#include <dirent.h>
#include <pty.h>
#include <semaphore.h>
#include <simgrid/semaphore.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../sim/simgrid/simgrid_load.h"
#include "../sim/simgrid/simgrid_run.h"
#include "testutil.h"

static char *path_in(const char *dir, const char *rel)
{
    size_t n = strlen(dir) + strlen(rel) + 2;
    char *p = malloc(n);
    snprintf(p, n, "%s/%s", dir, rel);
    return p;
}

/* The citation check of `make lint` resolves "FILE §N" against the repository's own headings, and names each
 * citation that does not resolve. Run on a small tree of its own so the test does not depend on this one. */
START_TEST(the_citation_check_names_every_unresolved_citation)
{
    const char *d = tu_tmpdir();
    char path[4096];
    snprintf(path, sizeof(path), "%s/scripts", d);
    ck_assert_int_eq(mkdir(path, 0755), 0);
    char *script = tu_read(PTOSIM_SRCDIR "/scripts/check_citations.sh");
    ck_assert_ptr_nonnull(script);
    free(tu_write(path, "check_citations.sh", script));
    free(script);
    snprintf(path, sizeof(path), "%s/model", d);
    ck_assert_int_eq(mkdir(path, 0755), 0);
    free(tu_write(path, "README.md", "# The model\n\n## 4. The rings\n\n### 4.2 Task window\n"));
    free(tu_write(d, "README.md", "# ptosim\n\n## Exit status\n"));
    free(tu_write(d, "a.c",
                  "/* model/README.md \302\2474.2 and README.md \302\247\"Exit status\" resolve */\n"
                  "/* model/README.md \302\2474.9 has no heading */\n"
                  "/* runtime.md \302\2471.1 is not in the tree */\n"));
    snprintf(path, sizeof(path), "%s/scripts/check_citations.sh", d);
    const char *args[] = {"/bin/sh", path, NULL};
    run_out r = tu_run_prog(args);
    ck_assert_int_eq(r.status, 1);
    ck_assert_str_eq(r.err, "a.c:2: model/README.md \302\2474.9: model/README.md has no section 4.9\n"
                            "a.c:3: runtime.md \302\2471.1: no file runtime.md in the repository\n"
                            "2 citations do not resolve\n");
    tu_run_free(&r);
    free(tu_write(d, "a.c", "/* model/README.md \302\2474.2 */\n"));
    r = tu_run_prog(args);
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.err, "");
    tu_run_free(&r);
}
END_TEST

/* The layer check of `make lint` holds model/'s includes to model/README.md §0's table and sim/'s to
 * sim/README.md's rooms: a file outside them, an include of a layer or room the row does not name, sim/
 * from model/, and modules that include each other are each named. Run on a small tree of its own. */
START_TEST(the_layer_check_names_every_broken_rule)
{
    const char *d = tu_tmpdir();
    char path[4096];
    static const char *const dirs[] = {"scripts", "model", "model/base", "model/top", "sim", "sim/a", "sim/b",
                                       "sim/c"};
    for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
        snprintf(path, sizeof(path), "%s/%s", d, dirs[i]);
        ck_assert_int_eq(mkdir(path, 0755), 0);
    }
    char *script = tu_read(PTOSIM_SRCDIR "/scripts/check_layers.sh");
    ck_assert_ptr_nonnull(script);
    snprintf(path, sizeof(path), "%s/scripts", d);
    free(tu_write(path, "check_layers.sh", script));
    free(script);
    snprintf(path, sizeof(path), "%s/model", d);
    free(tu_write(path, "README.md",
                  "# The model\n\n## 0. The map\n\n<!-- layers: -->\n| layer | what | files | may use |\n"
                  "| --- | --- | --- | --- |\n| `base/` | tools | `a` | \342\200\224 |\n"
                  "| `top/` | the rest | `b` `c` | `base/` |\n<!-- /layers -->\n"));
    snprintf(path, sizeof(path), "%s/model/base", d);
    free(tu_write(path, "a.h", "#include \"../top/b.h\"\n#include \"../../sim/s.h\"\n"));
    free(tu_write(path, "stray.c", "\n"));
    snprintf(path, sizeof(path), "%s/model/top", d);
    free(tu_write(path, "b.h", "#include \"../base/a.h\"\n#include \"c.h\"\n"));
    free(tu_write(path, "c.h", "#include \"b.h\"\n"));
    /* sim/: rooms a and b (b may use a), main.c at the top (its includes lead the circle walk); a uses b,
     * c is no room, d.c is no module */
    snprintf(path, sizeof(path), "%s/sim", d);
    free(tu_write(path, "README.md",
                  "# sim\n\n<!-- layers: -->\n| room | what | files | may use |\n| --- | --- | --- | --- |\n"
                  "| `a/` | one | `x` | \342\200\224 |\n| `b/` | two | `y` | `a/` |\n"
                  "| `./` | entry | `main` | `a/` `b/` |\n<!-- /layers -->\n"));
    free(tu_write(path, "main.c", "#include \"b/y.h\"\n#include \"../model/top/b.h\"\n"));
    free(tu_write(path, "d.c", "\n"));
    free(tu_write(path, "ptosim.1", ".TH PTOSIM 1\n")); /* not code: at home at the top */
    snprintf(path, sizeof(path), "%s/sim/a", d);
    free(tu_write(path, "x.h", "#include \"../b/y.h\"\n"));
    snprintf(path, sizeof(path), "%s/sim/b", d);
    free(tu_write(path, "y.h", "#include \"../a/x.h\"\n"));
    /* the script's own path: path is reused below, and sh given a folder exits 0 having run nothing */
    char script_path[4096];
    snprintf(script_path, sizeof(script_path), "%s/scripts/check_layers.sh", d);
    const char *args[] = {"/bin/sh", script_path, NULL};
    run_out r = tu_run_prog(args);
    ck_assert_int_eq(r.status, 1);
    ck_assert_str_eq(r.err, "model/base/stray.c: not in the table of model/README.md \302\2470\n"
                            "model/base/a.h: includes model/top/b.h, but layer base may not use top "
                            "(model/README.md \302\2470)\n"
                            "model/base/a.h: includes sim/s.h: model/ never uses sim/\n"
                            "sim/c: not a layer of sim/README.md\n"
                            "sim/d.c: not a layer of sim/README.md\n"
                            "sim/a/x.h: includes sim/b/y.h, but layer a may not use b (sim/README.md)\n"
                            "modules include each other in a circle: model/base/a -> model/top/b -> model/base/a\n"
                            "modules include each other in a circle: model/top/b -> model/top/c -> model/top/b\n"
                            "modules include each other in a circle: sim/b/y -> sim/a/x -> sim/b/y\n");
    tu_run_free(&r);
    /* the same tree with its rules kept passes */
    snprintf(path, sizeof(path), "%s/model/base", d);
    free(tu_write(path, "a.h", "\n"));
    snprintf(path, sizeof(path), "%s/model/base/stray.c", d);
    ck_assert_int_eq(unlink(path), 0);
    snprintf(path, sizeof(path), "%s/model/top", d);
    free(tu_write(path, "c.h", "#include \"../base/a.h\"\n"));
    snprintf(path, sizeof(path), "%s/sim/a", d);
    free(tu_write(path, "x.h", "\n"));
    snprintf(path, sizeof(path), "%s/sim/d.c", d);
    ck_assert_int_eq(unlink(path), 0);
    snprintf(path, sizeof(path), "%s/sim/c", d);
    ck_assert_int_eq(rmdir(path), 0);
    r = tu_run_prog(args);
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.err, "");
    tu_run_free(&r);
}
END_TEST

START_TEST(swimlane_files_have_exactly_the_keys_of_each_level)
{
    static const char *const top1[] = {"chip_swimlane_level", "metadata", "aicore_tasks", "aicpu_tasks",
                                       NULL};
    static const char *const top3[] = {"chip_swimlane_level",    "metadata", "aicore_tasks", "aicpu_tasks",
                                       "aicpu_scheduler_phases", NULL};
    static const char *const top4[] = {
        "chip_swimlane_level",       "metadata", "aicore_tasks", "aicpu_tasks", "aicpu_scheduler_phases",
        "aicpu_orchestrator_phases", NULL};
    static const char *const meta12[] = {"clock_freq_hz", "num_cores", "core_types", NULL};
    static const char *const meta34[] = {"clock_freq_hz", "num_cores", "core_types", "core_to_thread", NULL};
    static const char *const orch_keys[] = {"submit_idx", "task_id", "start_cycles", "end_cycles", NULL};
    for (int level = 1; level <= 4; level++) {
        const char *dir = tu_tmpdir();
        char lv[12]; /* room for any int: -O1 cannot prove the loop keeps level in 1..4 */
        snprintf(lv, sizeof(lv), "%d", level);
        const char *args[] = {
            "run", TRACE("chain3.jsonl"), "-o", dir, "--enable-chip-swimlane", lv, "--quiet", NULL};
        run_out r = tu_run(args);
        ck_assert_msg(r.status == 0, "level %d: exit %d: %s", level, r.status, r.err);
        char *p = path_in(dir, "dfx_outputs/chip_swimlane_records.json");
        cJSON *j = tu_json_file(p);
        tu_assert_keys(j, level <= 2 ? top1 : level == 3 ? top3 : top4, "top level");
        ck_assert_int_eq(cJSON_GetObjectItem(j, "chip_swimlane_level")->valueint, level);
        const cJSON *m = cJSON_GetObjectItem(j, "metadata");
        tu_assert_keys(m, level <= 2 ? meta12 : meta34, "metadata");
        ck_assert_int_eq(cJSON_GetObjectItem(m, "clock_freq_hz")->valueint, 50000000);
        ck_assert_int_eq(cJSON_GetObjectItem(m, "num_cores")->valueint, 72);
        ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(m, "core_types")), 72);
        const cJSON *core = cJSON_GetObjectItem(j, "aicore_tasks");
        ck_assert_int_eq(cJSON_GetArraySize(core), 3);
        const cJSON *row;
        cJSON_ArrayForEach(row, core)
        {
            ck_assert_int_eq(cJSON_GetArraySize(row), 6);
            ck_assert_int_gt(cJSON_GetArrayItem(row, 3)->valuedouble, 0); /* no zero tick */
        }
        const cJSON *cpu = cJSON_GetObjectItem(j, "aicpu_tasks");
        ck_assert_int_eq(cJSON_GetArraySize(cpu), level == 1 ? 0 : 3);
        cJSON_ArrayForEach(row, cpu) ck_assert_int_eq(cJSON_GetArraySize(row), 4);
        if (level >= 3) {
            const cJSON *ph = cJSON_GetObjectItem(j, "aicpu_scheduler_phases");
            ck_assert_int_eq(cJSON_GetArraySize(ph), 4);
            ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetArrayItem(ph, 3)), 0); /* orchestrator lane */
            const cJSON *rec = cJSON_GetArrayItem(cJSON_GetArrayItem(ph, 0), 0);
            static const char *const disp[] = {
                "kind",    "start_cycles", "end_cycles",      "loop_iter",     "tasks_processed",
                "pop_hit", "pop_miss",     "shared_at_start", "shared_at_end", NULL};
            ck_assert_str_eq(cJSON_GetObjectItem(rec, "kind")->valuestring, "dispatch");
            tu_assert_keys(rec, disp, "dispatch record");
        }
        if (level == 4) {
            const cJSON *o = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "aicpu_orchestrator_phases"), 0);
            ck_assert_int_eq(cJSON_GetArraySize(o), 3);
            tu_assert_keys(cJSON_GetArrayItem(o, 0), orch_keys, "orchestrator record");
        }
        cJSON_Delete(j);
        free(p);
        tu_run_free(&r);
    }
}
END_TEST

/* Keys a scheduler phase record of this kind must have, in order (model/README.md §16.2). */
static void assert_phase_keys(const cJSON *rec)
{
    const char *kind = cJSON_GetObjectItem(rec, "kind")->valuestring;
    const char *keys[12];
    int n = 0;
    keys[n++] = "kind";
    keys[n++] = "start_cycles";
    keys[n++] = "end_cycles";
    keys[n++] = "loop_iter";
    keys[n++] = "tasks_processed";
    if (strcmp(kind, "dispatch") == 0) {
        keys[n++] = "pop_hit";
        keys[n++] = "pop_miss";
    }
    if (strcmp(kind, "dummy_task") == 0 || strcmp(kind, "predicated_skip") == 0)
        keys[n++] = "task_id";
    keys[n++] = "shared_at_start";
    keys[n++] = "shared_at_end";
    keys[n] = NULL;
    tu_assert_keys(rec, keys, kind);
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(rec, "shared_at_start")), 3);
}

START_TEST(every_phase_record_kind_has_its_keys)
{
    const char *dir = tu_tmpdir();
    const char *args[] = {"run", TRACE("default.jsonl"), "-o", dir, "--enable-chip-swimlane", "--quiet",
                          NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    char *p = path_in(dir, "dfx_outputs/chip_swimlane_records.json");
    cJSON *j = tu_json_file(p);
    const cJSON *lanes = cJSON_GetObjectItem(j, "aicpu_scheduler_phases"), *lane, *rec;
    int kinds = 0, seen[6] = {0};
    const char *names[6] = {"complete", "dispatch", "release", "dummy", "dummy_task", "resolve"};
    cJSON_ArrayForEach(lane, lanes) cJSON_ArrayForEach(rec, lane)
    {
        assert_phase_keys(rec);
        for (int i = 0; i < 6; i++)
            if (strcmp(cJSON_GetObjectItem(rec, "kind")->valuestring, names[i]) == 0 && !seen[i]++)
                kinds++;
    }
    ck_assert_msg(kinds >= 5, "only %d of the expected record kinds appeared", kinds);
    /* one orchestrator record per submit, dummy and alloc: 8 x 11 + 1 = 89 */
    const cJSON *orch = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "aicpu_orchestrator_phases"), 0);
    ck_assert_int_eq(cJSON_GetArraySize(orch), 89);
    int idx = 0;
    cJSON_ArrayForEach(rec, orch) ck_assert_int_eq(cJSON_GetObjectItem(rec, "submit_idx")->valueint, idx++);
    cJSON_Delete(j);
    free(p);
    tu_run_free(&r);
}
END_TEST

/* One graph that makes every scheduler phase kind appear: an early-resolve
 * producer and its consumer (early_dispatch), a producer with 8 consumers (a
 * walk of 410 + 8 x 92 ns >= 1 us: resolve), a dummy, a false predicate, and
 * a 48-block sync_start task behind a running one (the global drain). */
#define PHASES_GRAPH                                                                                         \
    "{\"ptosim_graph\": 1, \"name\": \"phases\", \"kernels\": [{\"id\": 0, \"name\": \"v\", \"core\": "      \
    "\"aiv\", \"cost\": {\"ns\": 10000}}, {\"id\": 1, \"name\": \"long\", \"core\": \"aiv\", \"cost\": "     \
    "{\"ns\": 50000}}]}\n"                                                                                   \
    "{\"op\": \"submit\", \"id\": \"a\", \"kernel\": \"v\", \"early_resolve\": true}\n"                      \
    "{\"op\": \"submit\", \"kernel\": \"v\", \"deps\": [\"a\"]}\n"                                           \
    "{\"op\": \"submit\", \"id\": \"p\", \"kernel\": \"v\"}\n" EIGHT_CONSUMERS                               \
    "{\"op\": \"dummy\", \"deps\": [\"p\"]}\n"                                                               \
    "{\"op\": \"submit\", \"kernel\": \"v\", \"predicate\": false}\n"                                        \
    "{\"op\": \"submit\", \"kernel\": \"long\"}\n"                                                           \
    "{\"op\": \"submit\", \"kernel\": \"v\", \"block_num\": 48, \"sync_start\": true}\n"
#define CONSUMER "{\"op\": \"submit\", \"kernel\": \"v\", \"deps\": [\"p\"]}\n"
#define EIGHT_CONSUMERS CONSUMER CONSUMER CONSUMER CONSUMER CONSUMER CONSUMER CONSUMER CONSUMER

static bool kind_in(const char *kind, const char *const *set)
{
    for (; *set; set++)
        if (strcmp(kind, *set) == 0)
            return true;
    return false;
}

START_TEST(every_phase_kind_appears_and_outer_phases_never_overlap)
{
    static const char *const outer[] = {"complete", "async_poll",     "dispatch", "release",
                                        "dummy",    "early_dispatch", "drain",    NULL};
    static const char *const all[] = {"complete",       "dispatch",   "release",         "dummy",
                                      "early_dispatch", "drain",      "resolve",         "drain_prepare",
                                      "drain_publish",  "dummy_task", "predicated_skip", NULL};
    const char *dir = tu_tmpdir();
    char *g = tu_write(dir, "phases.jsonl", PHASES_GRAPH);
    const char *args[] = {"run", g, "-o", dir, "--enable-chip-swimlane", "3", "--quiet", NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    char *p = path_in(dir, "dfx_outputs/chip_swimlane_records.json");
    cJSON *j = tu_json_file(p);
    int seen[16] = {0};
    const cJSON *lane, *rec, *o;
    cJSON_ArrayForEach(lane, cJSON_GetObjectItem(j, "aicpu_scheduler_phases"))
    {
        /* records are written when their phase ends, so an inner phase comes
         * before the outer one that holds it; outer ones are in time order */
        double outer_end = 0;
        cJSON_ArrayForEach(rec, lane)
        {
            const char *kind = cJSON_GetObjectItem(rec, "kind")->valuestring;
            double st = cJSON_GetObjectItem(rec, "start_cycles")->valuedouble;
            double en = cJSON_GetObjectItem(rec, "end_cycles")->valuedouble;
            ck_assert_msg(kind_in(kind, all), "unexpected kind %s", kind);
            for (int i = 0; all[i]; i++)
                seen[i] += strcmp(kind, all[i]) == 0;
            ck_assert(en >= st);
            if (kind_in(kind, outer)) {
                ck_assert_msg(st >= outer_end, "%s at %.0f overlaps the previous outer phase ending %.0f",
                              kind, st, outer_end);
                outer_end = en;
                continue;
            }
            if (strcmp(kind, "dummy_task") == 0 || strcmp(kind, "predicated_skip") == 0) {
                ck_assert(st == en); /* zero-width markers */
                ck_assert_int_eq(cJSON_GetObjectItem(rec, "tasks_processed")->valueint, 1);
                /* the dummy is task 11, the false predicate task 12 (ring 0) */
                ck_assert_int_eq(cJSON_GetObjectItem(rec, "task_id")->valueint, kind[0] == 'd' ? 11 : 12);
                continue;
            }
            /* an inner phase sits inside an outer one of the kind that owns it */
            bool drain_inner = strncmp(kind, "drain_", 6) == 0, inside = false;
            cJSON_ArrayForEach(o, lane)
            {
                const char *ok = cJSON_GetObjectItem(o, "kind")->valuestring;
                bool owner = drain_inner ? strcmp(ok, "drain") == 0
                                         : strcmp(ok, "complete") == 0 || strcmp(ok, "dummy") == 0;
                if (owner && st >= cJSON_GetObjectItem(o, "start_cycles")->valuedouble &&
                    en <= cJSON_GetObjectItem(o, "end_cycles")->valuedouble)
                    inside = true;
            }
            ck_assert_msg(inside, "%s at %.0f-%.0f is inside no phase that owns it", kind, st, en);
        }
    }
    for (int i = 0; all[i]; i++)
        ck_assert_msg(seen[i] > 0, "no %s record", all[i]);
    cJSON_Delete(j);
    free(p);
    free(g);
    tu_run_free(&r);
}
END_TEST

START_TEST(simgrid_options_pass_through)
{
    const char *dir = tu_tmpdir();
    const char *args[] = {"run", TRACE("chain3.jsonl"), "-o", dir, "--cfg=network/model:CM02", "--quiet",
                          NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_str_eq(r.err, ""); /* SimGrid stays quiet */
    char *p = path_in(dir, "ptosim_run.json");
    cJSON *j = tu_json_file(p);
    const cJSON *cfg = cJSON_GetObjectItem(j, "simgrid_cfg");
    ck_assert_str_eq(cJSON_GetArrayItem(cfg, cJSON_GetArraySize(cfg) - 1)->valuestring, "network/model:CM02");
    cJSON_Delete(j);
    free(p);
    tu_run_free(&r);
}
END_TEST

START_TEST(level_two_rows_join_on_core_and_token)
{
    const char *dir = tu_tmpdir();
    const char *args[] = {"run", TRACE("fan200.jsonl"), "-o", dir, "--enable-chip-swimlane=2", "--quiet",
                          NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    char *p = path_in(dir, "dfx_outputs/chip_swimlane_records.json");
    cJSON *j = tu_json_file(p);
    const cJSON *core = cJSON_GetObjectItem(j, "aicore_tasks"), *cpu = cJSON_GetObjectItem(j, "aicpu_tasks");
    ck_assert_int_eq(cJSON_GetArraySize(core), 200);
    ck_assert_int_eq(cJSON_GetArraySize(cpu), 200);
    const cJSON *a = core->child, *b = cpu->child;
    int prev_core = -1, prev_reg = 0;
    for (; a && b; a = a->next, b = b->next) {
        int c = cJSON_GetArrayItem(a, 0)->valueint, reg = cJSON_GetArrayItem(a, 2)->valueint;
        ck_assert_int_eq(cJSON_GetArrayItem(b, 0)->valueint, c);
        ck_assert_int_eq(cJSON_GetArrayItem(b, 1)->valueint, reg);
        /* grouped by core, tokens 1, 2, 3 ... per core */
        ck_assert_int_ge(c, prev_core);
        ck_assert_int_eq(reg, c == prev_core ? prev_reg + 1 : 1);
        prev_core = c;
        prev_reg = reg;
        double dispatch = cJSON_GetArrayItem(b, 2)->valuedouble,
               finish = cJSON_GetArrayItem(b, 3)->valuedouble;
        double start = cJSON_GetArrayItem(a, 3)->valuedouble, end = cJSON_GetArrayItem(a, 4)->valuedouble;
        ck_assert(dispatch <= start && start <= end && end <= finish);
    }
    cJSON_Delete(j);
    free(p);
    tu_run_free(&r);
}
END_TEST

static int same_file(const char *a, const char *b)
{
    char *x = tu_read(a), *y = tu_read(b);
    int same = x && y && strcmp(x, y) == 0;
    free(x);
    free(y);
    return same;
}

START_TEST(same_inputs_give_byte_identical_outputs)
{
    const char *d1 = tu_tmpdir(), *d2 = tu_tmpdir();
    const char *a1[] = {
        "run", TRACE("default.jsonl"), "-o", d1, "--enable-chip-swimlane", "--no-host-timing", "--quiet",
        NULL};
    const char *a2[] = {
        "run", TRACE("default.jsonl"), "-o", d2, "--enable-chip-swimlane", "--no-host-timing", "--quiet",
        NULL};
    run_out r1 = tu_run(a1), r2 = tu_run(a2);
    ck_assert_msg(r1.status == 0 && r2.status == 0, "%s %s", r1.err, r2.err);
    const char *files[] = {"ptosim_run.json", "dfx_outputs/chip_swimlane_records.json",
                           "dfx_outputs/name_map_default.json"};
    for (int i = 0; i < 3; i++) {
        char *p1 = path_in(d1, files[i]), *p2 = path_in(d2, files[i]);
        ck_assert_msg(same_file(p1, p2), "%s differs between two identical runs", files[i]);
        free(p1);
        free(p2);
    }
    tu_run_free(&r1);
    tu_run_free(&r2);
}
END_TEST

START_TEST(run_report_and_name_map_describe_the_run)
{
    const char *dir = tu_tmpdir();
    const char *args[] = {"run", TRACE("chain3.jsonl"), "-o", dir, NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "makespan 35.084 us") != NULL, "%s", r.out);
    char *p = path_in(dir, "ptosim_run.json");
    cJSON *j = tu_json_file(p);
    static const char *const keys[] = {"ptosim_version",
                                       "graph",
                                       "platform",
                                       "config",
                                       "simgrid_cfg",
                                       "outcome",
                                       "makespan_us",
                                       "repeat",
                                       "orchestrator_end_us",
                                       "makespan_parts",
                                       "tasks",
                                       "busy_fraction",
                                       "kernels",
                                       "bottleneck",
                                       "bound",
                                       "hbm",
                                       "roofline",
                                       "rings",
                                       "tensormap",
                                       "ring_occupancy",
                                       "orchestrator_blocked_us",
                                       "orchestrator_blocked_by",
                                       "orchestrator_waiting_at_end",
                                       "near_full",
                                       "profiling",
                                       "args_dump",
                                       "scheduler",
                                       "overhead",
                                       "warnings",
                                       "outputs",
                                       "simulator",
                                       NULL};
    tu_assert_keys(j, keys, "ptosim_run.json");
    ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "outcome"), "status")->valuestring, "ok");
    ck_assert(cJSON_GetObjectItem(j, "makespan_us")->valuedouble == 35.084);
    /* 3 x 10 us on one of 48 AIV cores over 35.084 us */
    double aiv = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "busy_fraction"), "aiv")->valuedouble;
    ck_assert_double_eq_tol(aiv, 30.0 / (48 * 35.084), 1e-6);
    /* swimlane off by default: no record write-back, no PMU, nothing perturbed */
    const cJSON *prof = cJSON_GetObjectItem(j, "profiling");
    ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(prof, "perturbed")));
    ck_assert_int_eq(cJSON_GetObjectItem(prof, "record_writebacks")->valueint, 0);
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(prof, "early_dispatch")));
    /* three single-block tasks, each dispatched once into an idle core */
    const cJSON *sch = cJSON_GetObjectItem(j, "scheduler");
    ck_assert_int_eq(cJSON_GetObjectItem(sch, "dispatched_blocks")->valueint, 3);
    ck_assert_int_eq(cJSON_GetObjectItem(sch, "pending_slot_dispatches")->valueint, 0);
    const cJSON *sim = cJSON_GetObjectItem(j, "simulator");
    ck_assert_int_gt(cJSON_GetObjectItem(sim, "events")->valueint, 0);
    ck_assert(cJSON_IsNumber(cJSON_GetObjectItem(sim, "host_seconds")));
    ck_assert(cJSON_GetObjectItem(sim, "simgrid_clock_s")->valuedouble == 35.084e-6);
    /* ring occupancy over time (model/README.md §9.5's timeline): 35.084 us in at most 256 buckets from 10
     * ns up takes 160 ns (256 x 80 ns = 20.48 us is too short), 220 of them. a, b and c take their slot, 64
     * KiB of heap and (b, c) a dependency entry at 0, 874 and 1748 ns: buckets 0, 5 and 10; a retires
     * once b has completed (23.744 us, bucket 148) */
    const cJSON *oc = cJSON_GetObjectItem(j, "ring_occupancy");
    ck_assert(cJSON_GetObjectItem(oc, "bucket_us")->valuedouble == 0.16);
    ck_assert_int_eq(cJSON_GetObjectItem(oc, "buckets")->valueint, 220);
    const cJSON *rings = cJSON_GetObjectItem(oc, "rings"), *r0 = cJSON_GetArrayItem(rings, 0);
    for (int g = 1; g < 4; g++)
        ck_assert(cJSON_IsNull(cJSON_GetArrayItem(rings, g)));
    static const char *const res[3] = {"task_window", "heap", "dep_pool"};
    static const int bucket[3] = {0, 5, 10};
    static const double lo[3][3] = {{0, 1, 2}, {0, 65536, 131072}, {0, 0, 1}},
                        hi[3][3] = {{1, 2, 3}, {65536, 131072, 196608}, {0, 1, 2}};
    for (int k = 0; k < 3; k++) {
        const cJSON *x = cJSON_GetObjectItem(r0, res[k]);
        for (int b = 0; b < 3; b++) {
            ck_assert(cJSON_GetArrayItem(cJSON_GetObjectItem(x, "low"), bucket[b])->valuedouble == lo[k][b]);
            ck_assert(cJSON_GetArrayItem(cJSON_GetObjectItem(x, "high"), bucket[b])->valuedouble == hi[k][b]);
        }
    }
    const cJSON *tw = cJSON_GetObjectItem(cJSON_GetObjectItem(r0, "task_window"), "low");
    int drop = 11; /* the first bucket that holds fewer than 3 slots */
    while (drop < 220 && cJSON_GetArrayItem(tw, drop)->valuedouble == 3)
        drop++;
    ck_assert_msg(drop >= 148 && drop < 219, "a retired in bucket %d", drop);
    cJSON_Delete(j);
    free(p);
    p = path_in(dir, "dfx_outputs/name_map_chain3.json");
    char *nm = tu_read(p);
    ck_assert_str_eq(nm, "{\"level\": 2, \"orchestrator_name\": null, \"callable_id_to_name\": {\"0\": "
                         "\"vadd\"}}\n");
    free(nm);
    free(p);
    tu_run_free(&r);
}
END_TEST

/* Runs fan200 into a fresh directory and returns its ptosim_run.json. */
static cJSON *fan200_report(const char *extra1, const char *extra2, run_out *r)
{
    const char *dir = tu_tmpdir();
    const char *args[] = {"run", TRACE("fan200.jsonl"), "-o", dir, extra1, extra2, NULL};
    *r = tu_run(args);
    ck_assert_msg(r->status == 0, "%s", r->err);
    char *p = path_in(dir, "ptosim_run.json");
    cJSON *j = tu_json_file(p);
    free(p);
    return j;
}

START_TEST(run_report_says_whether_profiling_perturbed_the_makespan)
{
    /* 200 back-to-back tasks on 48 cores: with the swimlane on, a task that
     * follows another on its core waits for the record commit; with
     * dfx_overhead=0 the same records cost nothing and the makespan is the
     * clean one */
    run_out r0, r1, r2;
    cJSON *clean = fan200_report(NULL, NULL, &r0);
    cJSON *sl = fan200_report("--enable-chip-swimlane", "1", &r1);
    cJSON *free_sl = fan200_report("--enable-chip-swimlane=1", "--set=dfx_overhead=0", &r2);
    const cJSON *p_clean = cJSON_GetObjectItem(clean, "profiling"),
                *p_sl = cJSON_GetObjectItem(sl, "profiling"),
                *p_free = cJSON_GetObjectItem(free_sl, "profiling");
    ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(p_clean, "perturbed")));
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(p_sl, "perturbed")));
    ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(p_free, "perturbed")));
    ck_assert_int_eq(cJSON_GetObjectItem(p_sl, "record_writebacks")->valueint, 200);
    /* 200 x 0.52, and 0.58 more for each of the 48 cores' first record (cold) */
    ck_assert_double_eq_tol(cJSON_GetObjectItem(p_sl, "record_writeback_total_us")->valuedouble, 131.84,
                            1e-9);
    double held = cJSON_GetObjectItem(p_sl, "pickup_delay_us")->valuedouble;
    ck_assert(held > 0 && held <= 131.84);
    double m_clean = cJSON_GetObjectItem(clean, "makespan_us")->valuedouble;
    ck_assert(cJSON_GetObjectItem(sl, "makespan_us")->valuedouble > m_clean);
    ck_assert(cJSON_GetObjectItem(free_sl, "makespan_us")->valuedouble == m_clean);
    ck_assert_msg(strstr(r1.out, "profiling perturbed this makespan") != NULL, "%s", r1.out);
    ck_assert_msg(strstr(r0.out, "perturbed") == NULL && strstr(r2.out, "perturbed") == NULL, "%s", r2.out);
    cJSON_Delete(clean);
    cJSON_Delete(sl);
    cJSON_Delete(free_sl);
    tu_run_free(&r0);
    tu_run_free(&r1);
    tu_run_free(&r2);
}
END_TEST

/* Runs a trace with no extra options; returns its ptosim_run.json. */
static cJSON *trace_report(const char *trace)
{
    const char *dir = tu_tmpdir();
    const char *args[] = {"run", trace, "-o", dir, NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char *p = path_in(dir, "ptosim_run.json");
    cJSON *j = tu_json_file(p);
    free(p);
    return j;
}

static double json_num(const cJSON *j, const char *a, const char *b)
{
    const cJSON *v = cJSON_GetObjectItem(j, a);
    if (b)
        v = cJSON_GetObjectItem(v, b);
    ck_assert_msg(cJSON_IsNumber(v), "%s.%s", a, b ? b : "");
    return v->valuedouble;
}

START_TEST(granularity_traces_show_both_failure_modes)
{
    /* too fine: 4800 tasks of 1 us are paced by the orchestrator alone,
     * 0.874 us per submit plus 22 ns per task at scope_end; all 4800 sit in
     * the ring-1 window until then */
    cJSON *fine = trace_report(TRACE("grain_fine.jsonl"));
    ck_assert_double_eq_tol(json_num(fine, "makespan_us", NULL), 4800 * 0.896, 1e-6);
    const cJSON *ring1 = cJSON_GetArrayItem(cJSON_GetObjectItem(fine, "rings"), 1);
    ck_assert_int_eq(cJSON_GetObjectItem(ring1, "task_window_peak")->valueint, 4800);
    /* too coarse: 24 tasks of 200 us keep at most 24 of 48 AIV cores busy,
     * so the AIV busy fraction stays under one half */
    cJSON *coarse = trace_report(TRACE("grain_coarse.jsonl"));
    double m = json_num(coarse, "makespan_us", NULL);
    ck_assert_double_eq_tol(json_num(coarse, "busy_fraction", "aiv"), 24 * 200.0 / (48 * m), 1e-6);
    ck_assert(m > 200 && m < 200 + 24 * 0.874 + 10);
    /* one task per core beats both; one SPMD submit of the same blocks
     * drops the orchestrator's 48-submit ramp */
    cJSON *right = trace_report(TRACE("grain_right.jsonl")), *spmd = trace_report(TRACE("grain_spmd.jsonl"));
    double mr = json_num(right, "makespan_us", NULL), ms = json_num(spmd, "makespan_us", NULL);
    ck_assert(mr < m && mr > 100 + 47 * 0.874);
    ck_assert(ms < mr && ms > 100);
    cJSON_Delete(fine);
    cJSON_Delete(coarse);
    cJSON_Delete(right);
    cJSON_Delete(spmd);
}
END_TEST

START_TEST(a_malformed_graph_writes_nothing)
{
    /* the check runs beside the simulation; a bad line still means no output at all */
    const char *dir = tu_tmpdir();
    char *g = tu_write(
        dir, "bad.jsonl",
        "{\"ptosim_graph\": 1, \"name\": \"b\", \"kernels\": [{\"id\": 0, \"name\": \"k\", \"core\": "
        "\"aiv\", \"cost\": {\"ns\": 10}}]}\n{\"op\": \"submit\", \"kernel\": \"k\"}\n{\"op\": "
        "\"submit\", \"kernel\": \"nope\"}\n");
    char out[4200];
    snprintf(out, sizeof(out), "%s/out", dir);
    const char *args[] = {"run", g, "-o", out, "--enable-chip-swimlane", "--dump-args=2", NULL};
    run_out r = tu_run(args);
    ck_assert_int_eq(r.status, 3);
    ck_assert_ptr_nonnull(strstr(r.err, "bad.jsonl:3: kernel: unknown kernel 'nope'"));
    char p[4300];
    snprintf(p, sizeof(p), "%s/ptosim_run.json", out);
    ck_assert(!tu_exists(p));
    snprintf(p, sizeof(p), "%s/dfx_outputs/chip_swimlane_records.json", out);
    ck_assert(!tu_exists(p));
    snprintf(p, sizeof(p), "%s/dfx_outputs/args_dump/args.bin", out);
    ck_assert(!tu_exists(p));
    tu_run_free(&r);
    free(g);
}
END_TEST

START_TEST(errors_give_distinct_exit_codes_and_clear_messages)
{
    const char *dir = tu_tmpdir();
    char *bad =
        tu_write(dir, "bad.jsonl", "{\"ptosim_graph\": 1, \"name\": \"b\", \"kernels\": []}\n{\"op\": 3}\n");
    const char *a1[] = {"run", bad, NULL};
    run_out r = tu_run(a1);
    ck_assert_int_eq(r.status, 3);
    ck_assert_msg(strstr(r.err, "bad.jsonl:2: op: must be a string, got a number") != NULL, "%s", r.err);
    tu_run_free(&r);

    const char *a2[] = {"run", TRACE("chain3.jsonl"), "--bogus", NULL};
    r = tu_run(a2);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "unknown option '--bogus'") != NULL, "%s", r.err);
    tu_run_free(&r);

    const char *a3[] = {"run", TRACE("chain3.jsonl"), "--enable-chip-swimlane", NULL};
    r = tu_run(a3);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "CallConfig: output_prefix must be set") != NULL, "%s", r.err);
    tu_run_free(&r);

    const char *a4[] = {"run", TRACE("chain3.jsonl"), "--set", "clusters=99", NULL};
    r = tu_run(a4);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "--set clusters=99: must be in [1, 24], got 99") != NULL, "%s", r.err);
    tu_run_free(&r);

    const char *a5[] = {"run", TRACE("chain3.jsonl"), "-o", dir, "--enable-chip-swimlane=7", NULL};
    r = tu_run(a5);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "must be a collection level in [0, 4]") != NULL, "%s", r.err);
    tu_run_free(&r);

    const char *a6[] = {"run", TRACE("chain3.jsonl"), "-p", "a9", NULL};
    r = tu_run(a6);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "unknown platform 'a9'") != NULL, "%s", r.err);
    tu_run_free(&r);

    /* a flat graph longer than a tiny window: code 1, exit 4, outputs still written */
    char *flat =
        tu_write(dir, "flat.jsonl",
                 "{\"ptosim_graph\": 1, \"name\": \"flat\", \"kernels\": [{\"id\": 0, \"name\": \"k\", "
                 "\"core\": \"aiv\", \"cost\": {\"cycles\": 100}}]}\n"
                 "{\"op\": \"submit\", \"kernel\": \"k\"}\n{\"op\": \"submit\", \"kernel\": \"k\"}\n"
                 "{\"op\": \"submit\", \"kernel\": \"k\"}\n{\"op\": \"submit\", \"kernel\": \"k\"}\n");
    const char *a7[] = {"run", flat, "-o", dir, "--ring-task-window", "4", NULL};
    r = tu_run(a7);
    ck_assert_int_eq(r.status, 4);
    ck_assert_msg(tu_starts(r.err, TU_ORCH_FAILED(1)), "%s", r.err);
    char *rp = path_in(dir, "ptosim_run.json");
    cJSON *j = tu_json_file(rp);
    const cJSON *outcome = cJSON_GetObjectItem(j, "outcome");
    ck_assert_str_eq(cJSON_GetObjectItem(outcome, "status")->valuestring, "runtime_error");
    ck_assert_int_eq(cJSON_GetObjectItem(outcome, "exit_code")->valueint, 4);
    ck_assert_int_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(outcome, "runtime_error"), "code")->valueint, 1);
    cJSON_Delete(j);
    free(rp);
    tu_run_free(&r);

    /* a runtime error code: exit 4 with the runtime's name and hint */
    char *dep =
        tu_write(dir, "dep.jsonl",
                 "{\"ptosim_graph\": 1, \"name\": \"dep\", \"kernels\": [{\"id\": 0, \"name\": \"k\", "
                 "\"core\": \"aiv\", \"cost\": {\"cycles\": 100}}]}\n"
                 "{\"op\": \"submit\", \"kernel\": \"k\", \"deps\": [-1]}\n");
    const char *a8[] = {"run", dep, NULL};
    r = tu_run(a8);
    ck_assert_int_eq(r.status, 4);
    ck_assert_msg(tu_starts(r.err, TU_ORCH_FAILED(5) "error detail: orch_error_code=5 INVALID_ARGS - "), "%s",
                  r.err);
    ck_assert_msg(strstr(r.err, "\nerror hint: an orchestration bug, not a capacity problem"), "%s", r.err);
    ck_assert_msg(strstr(r.err, "dep.jsonl:2: deps[0]: Arg.set_dependencies(...) requires valid task ids\n"),
                  "%s", r.err);
    tu_run_free(&r);
    free(bad);
    free(flat);
    free(dep);
}
END_TEST

START_TEST(help_version_params_and_validate)
{
    const char *a1[] = {"--version", NULL};
    run_out r = tu_run(a1);
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.out, "ptosim 0.1.0\n");
    tu_run_free(&r);
    const char *a2[] = {"run", "--help", NULL};
    r = tu_run(a2);
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(strstr(r.out, "--enable-chip-swimlane[=N]") != NULL, "%s", r.out);
    tu_run_free(&r);
    const char *a3[] = {"params", "-p", "a2a3sim", NULL};
    r = tu_run(a3);
    ck_assert_int_eq(r.status, 0);
    /* a parameter's source is the model README section that explains it, in an aligned column */
    const char *row = strstr(r.out, "\norch_submit_ns ");
    ck_assert_msg(row != NULL, "%s", r.out);
    ck_assert_msg(
        strncmp(row + 1,
                "orch_submit_ns                          874 ns      model/README.md §6.2  orchestrator cost",
                strlen("orch_submit_ns                          874 ns      model/README.md §6.2  ")) == 0,
        "%s", r.out);
    tu_run_free(&r);
    const char *a4[] = {"validate", TRACE("default.jsonl"), NULL};
    r = tu_run(a4);
    ck_assert_int_eq(r.status, 0);
    tu_run_free(&r);
    const char *a5[] = {"frobnicate", NULL};
    r = tu_run(a5);
    ck_assert_int_eq(r.status, 2);
    tu_run_free(&r);
}
END_TEST

START_TEST(a2a3sim_platform_has_24_cores)
{
    const char *dir = tu_tmpdir();
    const char *args[] = {"run", TRACE("mix_spmd.jsonl"),    "-p",      "a2a3sim", "-o",
                          dir,   "--enable-chip-swimlane=3", "--quiet", NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    char *p = path_in(dir, "dfx_outputs/chip_swimlane_records.json");
    cJSON *j = tu_json_file(p);
    const cJSON *m = cJSON_GetObjectItem(j, "metadata");
    ck_assert_int_eq(cJSON_GetObjectItem(m, "num_cores")->valueint, 24);
    /* model/README.md §16.2's core_to_thread for the sim shape */
    int want[24] = {0, 1, 2, 0, 1, 2, 0, 1, 0, 0, 1, 1, 2, 2, 0, 0, 1, 1, 2, 2, 0, 0, 1, 1};
    const cJSON *ct = cJSON_GetObjectItem(m, "core_to_thread");
    for (int i = 0; i < 24; i++)
        ck_assert_int_eq(cJSON_GetArrayItem(ct, i)->valueint, want[i]);
    cJSON_Delete(j);
    free(p);
    tu_run_free(&r);
}
END_TEST

/* An engine body that waits for a semaphore nobody releases. */
static void blocked_body(void *data, int *finished)
{
    (void)data;
    sg_sem_t s = sg_sem_init(0);
    sg_sem_acquire(s);
    *finished = 1;
}

/* SimGrid is loaded when a command first simulates: one that cannot be had is named, with the loader's reason
 */
START_TEST(a_simgrid_that_cannot_be_loaded_is_named_with_the_reason)
{
    char err[512];
    ck_assert_int_eq(sgload_open_from("/nonexistent/libsimgrid.so.0", err, sizeof(err)), -1);
    ck_assert_str_eq(err, "cannot load SimGrid (/nonexistent/libsimgrid.so.0): /nonexistent/libsimgrid.so.0: "
                          "cannot open shared object file: No such file or directory");
    ck_assert_int_eq(sgload_open_from("libz.so.1", err, sizeof(err)), -1); /* a library, not SimGrid */
    ck_assert_str_eq(err, "cannot load SimGrid (libz.so.1): it has no sg_actor_by_pid");
    ck_assert_int_eq(sgload_open(err, sizeof(err)), 0);
    ck_assert_int_eq(sgload_open_from("/nonexistent/libsimgrid.so.0", err, sizeof(err)), 0); /* once is all */
}
END_TEST

/* What the loader maps, as it says with LD_DEBUG=libs: SimGrid for a run, not for a command that only reads
 * and writes files. */
static bool maps_simgrid(const char *const *args)
{
    const char *argv[16] = {"/usr/bin/env", "LD_DEBUG=libs"};
    int n = 2;
    argv[n++] = PTOSIM_BIN;
    for (int i = 0; args[i] && n < 15; i++)
        argv[n++] = args[i];
    argv[n] = NULL;
    run_out r = tu_run_prog(argv);
    ck_assert_msg(r.status == 0, "%s: status %d: %.400s", args[0], r.status, r.err);
    bool mapped = strstr(r.err, "libsimgrid.so") != NULL;
    tu_run_free(&r);
    return mapped;
}

START_TEST(only_a_command_that_simulates_loads_simgrid)
{
#ifdef __SANITIZE_ADDRESS__
    printf("e2e: the sanitized build links SimGrid (see the Makefile); SimGrid's loading on first use was not "
           "checked\n");
    return;
#endif
    const char *dir = tu_tmpdir();
    run_out r = tu_run((const char *const[]){"gen", "chain", "--n", "3", NULL});
    ck_assert_int_eq(r.status, 0);
    char *g = tu_write(dir, "chain.jsonl", r.out);
    tu_run_free(&r);
    char out[1024];
    snprintf(out, sizeof(out), "%s/run", dir);
    ck_assert(!maps_simgrid((const char *const[]){"gen", "chain", "--n", "3", NULL}));
    ck_assert(!maps_simgrid((const char *const[]){"--version", NULL}));
    ck_assert(maps_simgrid((const char *const[]){"run", g, "-o", out, "--quiet", NULL}));
    ck_assert(!maps_simgrid((const char *const[]){"report", out, NULL}));
    free(g);
}
END_TEST

START_TEST(simgrid_deadlock_becomes_an_error)
{
    sgrun_cfg cfg;
    sgrun_result res = {0};
    char err[1024];
    const char *noargs[] = {"--log=root.app:file:/dev/null", NULL};
    int rc = sgrun_run(PTOSIM_SRCDIR "/platforms/a2a3.xml", 42e6, noargs, blocked_body, NULL, &cfg, &res, err,
                       sizeof(err));
    ck_assert_int_eq(rc, -1);
    ck_assert_int_eq(res.finished, 0);
    ck_assert_msg(strstr(err, "simulation deadlock") != NULL, "%s", err);
}
END_TEST

/* 60 independent 10 us AIV tasks, each in its own scope (ring 1). */
static char *write_scoped_fan(const char *dir)
{
    char *text = malloc(60 * 120 + 256);
    strcpy(text,
           "{\"ptosim_graph\": 1, \"name\": \"sf\", \"kernels\": [{\"id\": 0, \"name\": \"v\", \"core\": "
           "\"aiv\", \"cost\": {\"cycles\": 18000}}]}\n");
    for (int i = 0; i < 60; i++)
        strcat(text, "{\"op\": \"scope_begin\", \"site\": \"loop.py:3\"}\n{\"op\": \"submit\", \"kernel\": "
                     "\"v\"}\n{\"op\": \"scope_end\"}\n");
    char *p = tu_write(dir, "sf.jsonl", text);
    free(text);
    return p;
}

START_TEST(dep_gen_and_scope_stats_files_are_written)
{
    const char *dir = tu_tmpdir();
    const char *args[] = {"run",
                          TRACE("forkjoin.jsonl"),
                          "-o",
                          dir,
                          "--enable-dep-gen",
                          "--enable-scope-stats",
                          "--ring-task-window",
                          "0,64,0,0",
                          "--quiet",
                          NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    char *p = path_in(dir, "dfx_outputs/deps.json");
    cJSON *d = tu_json_file(p);
    /* 10 tasks; the join reads 8 worker outputs (creator edges) and the
     * workers read the producer's output (creator edges): 16 edges */
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(d, "tasks")), 10);
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(d, "edges")), 16);
    cJSON_Delete(d);
    free(p);
    p = path_in(dir, "dfx_outputs/scope_stats/scope_stats.jsonl");
    char *text = tu_read(p);
    ck_assert_msg(strncmp(text,
                          "{\"version\": 6, \"fatal\": false, \"dropped\": 0, \"total\": 4, "
                          "\"task_window_max\": [16384, 64, 16384, 16384]",
                          80) == 0,
                  "%s", text);
    ck_assert_msg(
        strstr(text, "{\"site\": \"forkjoin.py:10\", \"phase\": \"begin\", \"depth\": 1, \"ring\": 1,"), "%s",
        text);
    free(text);
    free(p);
    tu_run_free(&r);
}
END_TEST

START_TEST(a_fatal_run_still_writes_scope_stats_marked_fatal)
{
    const char *dir = tu_tmpdir();
    /* 4 tasks in one scope with window 4: code 1 at the 4th submit */
    char *flat =
        tu_write(dir, "flat.jsonl",
                 "{\"ptosim_graph\": 1, \"name\": \"flat\", \"kernels\": [{\"id\": 0, \"name\": \"k\", "
                 "\"core\": \"aiv\", \"cost\": {\"cycles\": 100}}]}\n"
                 "{\"op\": \"scope_begin\"}\n{\"op\": \"submit\", \"kernel\": \"k\"}\n"
                 "{\"op\": \"submit\", \"kernel\": \"k\"}\n{\"op\": \"submit\", \"kernel\": \"k\"}\n"
                 "{\"op\": \"submit\", \"kernel\": \"k\"}\n{\"op\": \"scope_end\"}\n");
    const char *args[] = {"run", flat, "-o", dir, "--enable-scope-stats", "--ring-task-window", "4", NULL};
    run_out r = tu_run(args);
    ck_assert_int_eq(r.status, 4);
    char *p = path_in(dir, "dfx_outputs/scope_stats/scope_stats.jsonl");
    char *text = tu_read(p);
    ck_assert_msg(text && strncmp(text, "{\"version\": 6, \"fatal\": true,", 29) == 0, "%s",
                  text ? text : "none");
    free(text);
    free(p);
    free(flat);
    tu_run_free(&r);
}
END_TEST

/* Runs graph with the extra arguments; checks the exit status and returns the
 * config's ring_task_window and ring_heap from ptosim_run.json. */
static run_out run_rings(const char *graph, const char *flag, const char *flag_value, int status,
                         uint64_t window[4], uint64_t heap[4])
{
    const char *dir = tu_tmpdir();
    const char *args[] = {"run", graph, "-o", dir, "--quiet", flag, flag_value, NULL};
    run_out r = tu_run(args);
    ck_assert_msg(r.status == status, "exit %d: %s", r.status, r.err);
    char *p = path_in(dir, "ptosim_run.json");
    cJSON *j = tu_json_file(p);
    const cJSON *cfg = cJSON_GetObjectItem(j, "config");
    for (int i = 0; i < 4; i++) {
        window[i] =
            (uint64_t)cJSON_GetArrayItem(cJSON_GetObjectItem(cfg, "ring_task_window"), i)->valuedouble;
        heap[i] = (uint64_t)cJSON_GetArrayItem(cJSON_GetObjectItem(cfg, "ring_heap"), i)->valuedouble;
    }
    cJSON_Delete(j);
    free(p);
    return r;
}

#define ASSERT_RINGS(v, a, b, c, d)                                                                          \
    ck_assert_msg(v[0] == a && v[1] == b && v[2] == c && v[3] == d, #v " = %llu,%llu,%llu,%llu",             \
                  (unsigned long long)v[0], (unsigned long long)v[1], (unsigned long long)v[2],              \
                  (unsigned long long)v[3])

START_TEST(ring_sizes_come_from_the_flag_then_run_config_then_the_platform)
{
    /* per ring: flag > graph run_config > platform default; 0 in a list falls through */
    const char *dir = tu_tmpdir();
    char *g =
        tu_write(dir, "rc.jsonl",
                 "{\"ptosim_graph\": 1, \"name\": \"rc\", \"kernels\": [{\"id\": 0, \"name\": \"k\", "
                 "\"core\": \"aiv\", \"cost\": {\"cycles\": 100}}], \"run_config\": {\"ring_task_window\": "
                 "[0, 0, 256, 0]}}\n{\"op\": \"submit\", \"kernel\": \"k\"}\n");
    uint64_t w[4], h[4];
    run_out r = run_rings(g, "--ring-task-window", "0,128,0,0", 0, w, h);
    ASSERT_RINGS(w, 16384, 128, 256, 16384); /* platform, flag, run_config, platform */
    ASSERT_RINGS(h, 268435456, 268435456, 268435456, 268435456);
    ck_assert_str_eq(r.err, "");
    tu_run_free(&r);
    r = run_rings(g, "--ring-heap", "0,0,0,2048", 0, w, h);
    ASSERT_RINGS(h, 268435456, 268435456, 268435456, 2048);
    ASSERT_RINGS(w, 16384, 16384, 256, 16384);
    tu_run_free(&r);
    free(g);
}
END_TEST

/* Appends every regular file under dir/rel to *buf (sorted by name, each as
 * "path\nlength\nbytes"), so two trees compare as two byte strings. */
static void snapshot_tree(const char *dir, const char *rel, char **buf, size_t *len)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s%s%s", dir, *rel ? "/" : "", rel);
    struct dirent **names;
    int n = scandir(path, &names, NULL, alphasort);
    ck_assert_msg(n >= 0, "cannot list %s", path);
    for (int i = 0; i < n; i++) {
        const char *name = names[i]->d_name;
        if (strcmp(name, ".") != 0 && strcmp(name, "..") != 0) {
            char sub[2048], full[4096];
            ck_assert((size_t)snprintf(sub, sizeof(sub), "%s%s%s", rel, *rel ? "/" : "", name) < sizeof(sub));
            ck_assert((size_t)snprintf(full, sizeof(full), "%.2000s/%s", dir, sub) < sizeof(full));
            struct stat st;
            ck_assert_int_eq(stat(full, &st), 0);
            if (S_ISDIR(st.st_mode)) {
                snapshot_tree(dir, sub, buf, len);
            } else {
                FILE *f = fopen(full, "rb");
                ck_assert_ptr_nonnull(f);
                char head[4200];
                int hl = snprintf(head, sizeof(head), "%s\n%lld\n", sub, (long long)st.st_size);
                *buf = realloc(*buf, *len + (size_t)hl + (size_t)st.st_size);
                ck_assert_ptr_nonnull(*buf);
                memcpy(*buf + *len, head, (size_t)hl);
                *len += (size_t)hl;
                ck_assert_uint_eq(fread(*buf + *len, 1, (size_t)st.st_size, f), (size_t)st.st_size);
                *len += (size_t)st.st_size;
                fclose(f);
            }
        }
        free(names[i]);
    }
    free(names);
}

START_TEST(retired_ring_variables_change_no_output_and_warn_once_each)
{
    /* the user's RunConfig documentation retires PTO2_RING_* (model/README.md §4.1). Each value
     * below would have changed the run had it been read (a 1024-byte heap cannot hold chain3's
     * 64 KiB outputs), so equal outputs show it is not */
    static const char *const vars[][2] = {
        {"PTO2_RING_TASK_WINDOW", "4"}, {"PTO2_RING_HEAP", "1024"}, {"PTO2_RING_DEP_POOL", "4,4,4,4"}};
    const char *dir = tu_tmpdir();
    const char *args[] = {"run",
                          TRACE("chain3.jsonl"),
                          "-o",
                          dir,
                          "--enable-dep-gen",
                          "--enable-scope-stats",
                          "--enable-chip-swimlane",
                          "--enable-perfetto",
                          "--no-host-timing",
                          NULL};
    char *tree[2] = {NULL, NULL};
    size_t len[2] = {0, 0};
    run_out r[2];
    for (int pass = 0; pass < 2; pass++) {
        for (int k = 0; k < 3; k++)
            if (pass)
                setenv(vars[k][0], vars[k][1], 1);
            else
                unsetenv(vars[k][0]);
        r[pass] = tu_run(args);
        for (int k = 0; k < 3; k++)
            unsetenv(vars[k][0]);
        ck_assert_msg(r[pass].status == 0, "pass %d: exit %d: %s", pass, r[pass].status, r[pass].err);
        snapshot_tree(dir, "", &tree[pass], &len[pass]);
    }
    ck_assert_str_eq(r[1].out, r[0].out); /* the summary */
    ck_assert_uint_eq(len[1], len[0]);
    ck_assert_msg(memcmp(tree[1], tree[0], len[0]) == 0, "the work dir differs with PTO2_RING_* set");
    ck_assert_ptr_nonnull(strstr(tree[0], "ptosim_run.json\n"));
    ck_assert_ptr_nonnull(strstr(tree[0], "dfx_outputs/scope_stats/scope_stats.jsonl\n"));
    ck_assert_str_eq(r[0].err, "");
    ck_assert_str_eq(r[1].err,
                     "ptosim: warning: PTO2_RING_TASK_WINDOW is retired and not read; use RunConfig "
                     "ring_task_window (--ring-task-window)\n"
                     "ptosim: warning: PTO2_RING_HEAP is retired and not read; use RunConfig "
                     "ring_heap (--ring-heap)\n"
                     "ptosim: warning: PTO2_RING_DEP_POOL is retired and not read; use RunConfig "
                     "ring_dep_pool (--ring-dep-pool)\n");
    for (int pass = 0; pass < 2; pass++) {
        tu_run_free(&r[pass]);
        free(tree[pass]);
    }
}
END_TEST

START_TEST(a_swimlane_without_records_warns_with_the_prefix)
{
    /* a graph without tasks: the collector has nothing, and says so as the runtime's LOG_WARN does */
    const char *dir = tu_tmpdir();
    char *g = tu_write(dir, "empty.jsonl",
                       "{\"ptosim_graph\": 1, \"name\": \"e\", \"kernels\": [{\"id\": 0, \"name\": \"k\", "
                       "\"core\": \"aiv\", \"cost\": {\"cycles\": 100}}]}\n");
    const char *args[] = {"run", g, "-o", dir, "--enable-chip-swimlane", "--quiet", NULL};
    run_out r = tu_run(args);
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.err, "ptosim: Warning: No performance data to export.\n");
    tu_run_free(&r);
    free(g);
}
END_TEST

#define NEVER_ENDS                                                                                           \
    "{\"ptosim_graph\": 1, \"name\": \"hang\", \"kernels\": [{\"id\": 0, \"name\": \"spin\", \"core\": "     \
    "\"aiv\", "                                                                                              \
    "\"cost\": {\"ns\": 1000000000000}}]}\n{\"op\": \"submit\", \"kernel\": \"spin\"}\n"

START_TEST(scheduler_timeout_from_flag_or_environment_is_code_100)
{
    /* a 1000 s kernel: with a 20 ms timeout the owning thread gives up at
     * about 20 ms of simulated time, from the flag or the environment */
    const char *dir = tu_tmpdir();
    char *g = tu_write(dir, "hang.jsonl", NEVER_ENDS);
    const char *flag[] = {"run", g, "-o", dir, "--scheduler-timeout-ms", "20", NULL};
    run_out r = tu_run(flag);
    ck_assert_int_eq(r.status, 4);
    ck_assert_msg(tu_starts(r.err, TU_SCHED_FAILED(100)), "%s", r.err);
    ck_assert_msg(strstr(r.err, "\nPTO2 scheduler timeout sub_class=S1") != NULL, "%s", r.err);
    char *p = path_in(dir, "ptosim_run.json");
    cJSON *j = tu_json_file(p);
    const cJSON *rt = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "outcome"), "runtime_error");
    ck_assert_int_eq(cJSON_GetObjectItem(rt, "code")->valueint, 100);
    double m = cJSON_GetObjectItem(j, "makespan_us")->valuedouble;
    ck_assert(m >= 20000 && m < 20010);
    cJSON_Delete(j);
    tu_run_free(&r);

    setenv("SIMPLER_SCHEDULER_TIMEOUT_MS", "20", 1);
    const char *env[] = {"run", g, "--quiet", NULL};
    r = tu_run(env);
    ck_assert_int_eq(r.status, 4);
    ck_assert_msg(tu_starts(r.err, TU_SCHED_FAILED(100)), "%s", r.err);
    tu_run_free(&r);
    setenv("SIMPLER_SCHEDULER_TIMEOUT_MS", "twenty", 1);
    const char *bad_env[] = {"run", g, "--quiet", "--scheduler-timeout-ms", "5", NULL};
    r = tu_run(bad_env); /* the flag wins; the environment is not even read */
    ck_assert_int_eq(r.status, 4);
    ck_assert_msg(strstr(r.err, "warning") == NULL, "%s", r.err);
    tu_run_free(&r);
    unsetenv("SIMPLER_SCHEDULER_TIMEOUT_MS");
    free(p);
    free(g);
}
END_TEST

START_TEST(pmu_environment_and_bad_values_warn_and_fall_back)
{
    setenv("SIMPLER_PMU_EVENT_TYPE", "3", 1);
    setenv("SIMPLER_SCHEDULER_TIMEOUT_MS", "soon", 1);
    const char *args[] = {"run", TRACE("chain3.jsonl"), "--quiet", "-o", tu_tmpdir(), "--enable-pmu", NULL};
    run_out r = tu_run(args);
    unsetenv("SIMPLER_PMU_EVENT_TYPE");
    unsetenv("SIMPLER_SCHEDULER_TIMEOUT_MS");
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.err, "ptosim: warning: Invalid SIMPLER_PMU_EVENT_TYPE=3, using default "
                            "(PIPE_UTILIZATION=2)\nptosim: warning: "
                            "SIMPLER_SCHEDULER_TIMEOUT_MS=soon is not a "
                            "positive integer, ignored (using 10000)\n");
    tu_run_free(&r);
    const char *bad[] = {"run", TRACE("chain3.jsonl"), "-o", tu_tmpdir(), "--enable-pmu=pipe", NULL};
    r = tu_run(bad);
    ck_assert_int_eq(r.status, 2);
    ck_assert_str_eq(r.err, "ptosim: --enable-pmu: 'pipe' is not an integer event type\n" TU_USAGE_RUN);
    tu_run_free(&r);
}
END_TEST

START_TEST(sweep_script_writes_one_row_per_point_in_order)
{
    const char *dir = tu_tmpdir();
    char *g = write_scoped_fan(dir);
    char cmd[1024];
    snprintf(
        cmd, sizeof(cmd),
        "%s/scripts/sweep_rings.sh %s --task-window 0/4/0/0,0/64/0/0 --dep-pool 16,64 -j 2 -o %s/sweep.csv "
        "--ptosim %s",
        PTOSIM_SRCDIR, g, dir, PTOSIM_BIN);
    ck_assert_int_eq(system(cmd), 0);
    char csv[512];
    snprintf(csv, sizeof(csv), "%s/sweep.csv", dir);
    char *text = tu_read(csv);
    ck_assert_ptr_nonnull(text);
    int lines = 0;
    for (char *c = text; *c; c++)
        lines += *c == '\n';
    ck_assert_int_eq(lines, 5); /* header + 2 x 2 points */
    ck_assert_msg(strncmp(text,
                          "graph,platform,ring_task_window,ring_heap,ring_dep_pool,status,code,exit,"
                          "makespan_us,",
                          83) == 0,
                  "%s", text);
    /* rows in point order: window 4 first, both dep pools, then window 64 */
    char *row = strchr(text, '\n') + 1;
    ck_assert_msg(strncmp(row, "sf,a2a3,16384/4/16384/16384,", 28) == 0, "%s", row);
    ck_assert_msg(strstr(row, ",16/16/16/16,ok,0,0,") != NULL, "%s", row);
    char *third = strchr(strchr(row, '\n') + 1, '\n') + 1;
    ck_assert_msg(strncmp(third, "sf,a2a3,16384/64/16384/16384,", 29) == 0, "%s", third);
    /* the saturated window is slower: compare the makespan columns */
    double m4 = atof(strstr(row, ",ok,0,0,") + 8), m64 = atof(strstr(third, ",ok,0,0,") + 8);
    ck_assert_msg(m4 > 2 * m64, "window 4: %f us, window 64: %f us", m4, m64);
    free(text);
    free(g);
}
END_TEST

/* Runs ptosim with argv under a pseudo-terminal and returns all it printed (malloc'd). */
static char *run_on_terminal(const char *const *args)
{
    int fd;
    pid_t pid = forkpty(&fd, NULL, NULL, NULL);
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        const char *argv[16] = {PTOSIM_BIN};
        for (int i = 0; args[i] && i < 14; i++)
            argv[i + 1] = args[i];
        execv(PTOSIM_BIN, (char *const *)argv);
        _exit(127);
    }
    size_t len = 0, cap = 1 << 16;
    char *buf = malloc(cap);
    for (;;) {
        if (len + 4096 > cap)
            buf = realloc(buf, cap *= 2);
        ssize_t n = read(fd, buf + len, 4096);
        if (n <= 0)
            break; /* EIO once the child has gone */
        len += (size_t)n;
    }
    buf[len] = '\0';
    close(fd);
    int status;
    waitpid(pid, &status, 0);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s", buf);
    return buf;
}

/* A long run shows tasks, simulated time, rate and ETA on a terminal's stderr
 * and nothing when stderr is not a terminal. PTOSIM_PROGRESS_AFTER_MS=0 makes
 * a run of about 90k events "long": the line is drawn every 65536 events. */
START_TEST(progress_shows_on_a_terminal_only)
{
    run_out g = tu_run((const char *[]){"gen", "fan", "--n", "12000", NULL});
    ck_assert_int_eq(g.status, 0);
    char *graph = tu_write(tu_tmpdir(), "fan.jsonl", g.out);
    tu_run_free(&g);
    setenv("PTOSIM_PROGRESS_AFTER_MS", "0", 1);
    const char *args[] = {"run", graph, "--quiet", NULL};
    char *tty = run_on_terminal(args);
    ck_assert_msg(strstr(tty, "completed, simulated ") != NULL, "%s", tty);
    ck_assert_msg(strstr(tty, "tasks/s, graph ") != NULL, "%s", tty);
    ck_assert_msg(strstr(tty, "% read, ETA ") != NULL, "%s", tty);
    ck_assert_msg(strstr(tty, "\r\033[K") != NULL, "the line is not cleared: %s", tty);
    free(tty);
    run_out r = tu_run(args);
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.err, "");
    tu_run_free(&r);
    unsetenv("PTOSIM_PROGRESS_AFTER_MS");
    free(graph);
}
END_TEST

/* The summary, ptosim_run.json ("bound") and tune name what bounds a run from one analysis (model/output/run_report.c
 * report_bound_of), each with its evidence. By hand: traces/chain3.jsonl is three 10 us tasks in a chain,
 * 30 us of the 32.82 us from the first start to the last end (1641 ticks): the dependencies. 100 tasks of
 * 0.1 us cannot keep up with the orchestrator's 0.874 us per submit: task submission. 400 tasks of 20 us
 * behind a task window of 8 on ring 1: the orchestrator waits on that window most of its time. 48 AIV tasks
 * each reading 4 MiB at 57.6 GB/s want 2.76 TB/s of the die's 1.6: HBM. One task of 200 us among small ones
 * (traces/grain_coarse.jsonl): the longest task. The decode layer's fa_fused_aiv is its pipe-bound kernel.
 * 200 independent flat-cost tasks: the kernels' time. kv_decode's cores wait on dispatch: scheduling. */
START_TEST(the_summary_names_what_bounds_the_run)
{
    const char *dir = tu_tmpdir();
    char hbm[8192];
    int n =
        snprintf(hbm, sizeof(hbm),
                 "{\"ptosim_graph\": 1, \"name\": \"hbm48\", \"kernels\": [{\"id\": 0, \"name\": \"stream\", "
                 "\"core\": \"aiv\", \"cost\": {\"tiles\": 64, \"buffers\": 2, \"mte2\": {\"bytes\": 65536}, "
                 "\"vector\": {\"elems\": 1024, \"dtype\": \"FLOAT16\"}}}], \"tensors\": [{\"name\": \"x\", "
                 "\"dtype\": \"FLOAT16\", \"shape\": [48, 1024]}]}\n");
    for (int i = 0; i < 48; i++)
        n += snprintf(
            hbm + n, sizeof(hbm) - (size_t)n,
            "{\"op\": \"submit\", \"kernel\": \"stream\", \"args\": [{\"dir\": \"in\", \"tensor\": \"x\", "
            "\"shape\": [1, 1024], \"start_offset\": %d}]}\n",
            i * 1024);
    char *hbm_graph = tu_write(dir, "hbm48.jsonl", hbm);
    const char *fan[] = {"gen", "fan", "--n", "100", "--cost-ns", "100", NULL};
    run_out g = tu_run(fan);
    char *fan_graph = tu_write(dir, "fan.jsonl", g.out);
    tu_run_free(&g);
    const char *fan400[] = {"gen", "fan", "--n", "400", "--cost-ns", "20000", NULL};
    g = tu_run(fan400);
    char *fan400_graph = tu_write(dir, "fan400.jsonl", g.out);
    tu_run_free(&g);
    static const char *const window8[] = {"--ring-task-window", "8"};
    struct {
        const char *graph, *kind, *line;
        const char *const *extra;
    } cases[] = {
        {TRACE("chain3.jsonl"), "dependencies",
         "  bottleneck: the dependencies: the longest chain of producers and consumers (the critical_path "
         "tool's "
         "static CPM) is 30.000 us over 3 tasks, 91.4% of the span from the first kernel start to the last "
         "end\n",
         NULL},
        {fan_graph, "submission", "  bottleneck: task submission: the orchestrator submitted until ", NULL},
        {fan400_graph, "ring", "  bottleneck: ring 1 task window: the orchestrator submitted until ",
         window8},
        {hbm_graph, "hbm", "  bottleneck: HBM: saturated ", NULL},
        {TRACE("grain_coarse.jsonl"), "dependencies",
         "  bottleneck: the longest task: one task's 200.000 us is ", NULL},
        {TRACE("gen_decode_layer.jsonl"), "pipe", "  bottleneck: mte2 pipe, busy ", NULL},
        {TRACE("fan200.jsonl"), "compute",
         "  bottleneck: the kernels' time: the cores were busy aic 0.0%, aiv ", NULL},
        {TRACE("kv_decode.jsonl"), "scheduling",
         "  bottleneck: scheduling: a core sat idle while a ready task waited to be dispatched ", NULL},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char out[4200];
        snprintf(out, sizeof(out), "%s/o%zu", dir, i);
        const char *args[] = {"run",
                              cases[i].graph,
                              "-o",
                              out,
                              cases[i].extra ? cases[i].extra[0] : NULL,
                              cases[i].extra ? cases[i].extra[1] : NULL,
                              NULL};
        run_out r = tu_run(args);
        ck_assert_msg(r.status == 0, "%s", r.err);
        ck_assert_msg(strstr(r.out, cases[i].line), "%s: %s", cases[i].graph, r.out);
        char p[4300];
        snprintf(p, sizeof(p), "%s/ptosim_run.json", out);
        cJSON *j = tu_json_file(p);
        const cJSON *b = cJSON_GetObjectItem(j, "bound");
        ck_assert_str_eq(cJSON_GetObjectItem(b, "kind")->valuestring, cases[i].kind);
        /* the file's text is the summary's line */
        char line[700];
        snprintf(line, sizeof(line), "  bottleneck: %s\n", cJSON_GetObjectItem(b, "text")->valuestring);
        ck_assert_msg(strstr(r.out, line), "%s: %s", cases[i].graph, line);
        cJSON_Delete(j);
        tu_run_free(&r);
    }
    /* tune says the same */
    const char *tune[] = {"tune", fan400_graph, "--ring-task-window", "8", NULL};
    run_out r = tu_run(tune);
    ck_assert_msg(strstr(r.out, "   bottleneck: ring 1 task window: the orchestrator submitted until "), "%s",
                  r.out);
    tu_run_free(&r);
    free(hbm_graph);
    free(fan_graph);
    free(fan400_graph);
}
END_TEST

Suite *suite_e2e(void)
{
    Suite *s = suite_create("e2e");
    TCase *tc = tcase_create("program");
    tcase_add_test(tc, swimlane_files_have_exactly_the_keys_of_each_level);
    tcase_add_test(tc, level_two_rows_join_on_core_and_token);
    tcase_add_test(tc, every_phase_record_kind_has_its_keys);
    tcase_add_test(tc, simgrid_options_pass_through);
    tcase_add_test(tc, same_inputs_give_byte_identical_outputs);
    tcase_add_test(tc, run_report_and_name_map_describe_the_run);
    tcase_add_test(tc, errors_give_distinct_exit_codes_and_clear_messages);
    tcase_add_test(tc, a_malformed_graph_writes_nothing);
    tcase_add_test(tc, help_version_params_and_validate);
    tcase_add_test(tc, a2a3sim_platform_has_24_cores);
    tcase_add_test(tc, simgrid_deadlock_becomes_an_error);
    tcase_add_test(tc, a_simgrid_that_cannot_be_loaded_is_named_with_the_reason);
    tcase_add_test(tc, only_a_command_that_simulates_loads_simgrid);
    tcase_add_test(tc, dep_gen_and_scope_stats_files_are_written);
    tcase_add_test(tc, a_fatal_run_still_writes_scope_stats_marked_fatal);
    tcase_add_test(tc, ring_sizes_come_from_the_flag_then_run_config_then_the_platform);
    tcase_add_test(tc, retired_ring_variables_change_no_output_and_warn_once_each);
    tcase_add_test(tc, a_swimlane_without_records_warns_with_the_prefix);
    tcase_add_test(tc, sweep_script_writes_one_row_per_point_in_order);
    tcase_add_test(tc, run_report_says_whether_profiling_perturbed_the_makespan);
    tcase_add_test(tc, granularity_traces_show_both_failure_modes);
    tcase_add_test(tc, scheduler_timeout_from_flag_or_environment_is_code_100);
    tcase_add_test(tc, pmu_environment_and_bad_values_warn_and_fall_back);
    tcase_add_test(tc, every_phase_kind_appears_and_outer_phases_never_overlap);
    tcase_add_test(tc, progress_shows_on_a_terminal_only);
    tcase_add_test(tc, the_citation_check_names_every_unresolved_citation);
    tcase_add_test(tc, the_layer_check_names_every_broken_rule);
    tcase_add_test(tc, the_summary_names_what_bounds_the_run);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    return s;
}
