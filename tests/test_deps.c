/* test_deps.c - dependency inference and deps.json: the spec's example, overlaps, INOUT readers, scopes. */
/* The scopes are manual ones. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/base/dtype.h"
#include "../model/engine/chip_engine.h"
#include "testutil.h"

static void dep_gen_on(chip_config *cfg)
{
    cfg->dep_gen = true;
}

/* Runs graph text with dep gen on; returns the parsed deps.json (caller deletes). */
static cJSON *deps_of(const char *text, chip **out)
{
    chip *c = tu_chip(text, NULL, 1, dep_gen_on);
    ck_assert_msg(c->status == CHIP_DONE, "%s", c->message);
    const char *dir = tu_tmpdir();
    char path[256], err[1024];
    snprintf(path, sizeof(path), "%s/deps.json", dir);
    ck_assert_msg(depgen_write(&c->dg, path, err, sizeof(err)) == 0, "%s", err);
    char *raw = tu_read(path);
    /* one line, with a trailing newline */
    ck_assert_ptr_eq(strchr(raw, '\n'), raw + strlen(raw) - 1);
    free(raw);
    cJSON *j = tu_json_file(path);
    if (out)
        *out = c;
    else
        tu_chip_free(c);
    return j;
}

/* Finds the edge pred -> succ with this source and arg; NULL if absent. */
static const cJSON *edge(const cJSON *deps, const char *pred, const char *succ, const char *source, int arg)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(deps, "edges"))
    {
        if (!strcmp(cJSON_GetObjectItem(e, "pred")->valuestring, pred) &&
            !strcmp(cJSON_GetObjectItem(e, "succ")->valuestring, succ) &&
            !strcmp(cJSON_GetObjectItem(e, "source")->valuestring, source) &&
            cJSON_GetObjectItem(e, "arg")->valueint == arg)
            return e;
    }
    return NULL;
}

static int nedges(const cJSON *deps)
{
    return cJSON_GetArraySize(cJSON_GetObjectItem(deps, "edges"));
}

static const char *overlap(const cJSON *e)
{
    return cJSON_GetObjectItem(e, "overlap")->valuestring;
}

/* model/README.md §16.1: add -> C; alloc D; matmul(C) -> D; scope { MIX SPMD(D) inout Y;
 * dummy after it }; scale(Y). External a, b, Y at the example's addresses. */
static const char *EXAMPLE =
    "{\"ptosim_graph\": 1, \"name\": \"demo\", \"kernels\": [{\"id\": 0, \"name\": \"add\", \"core\": "
    "\"aiv\", "
    "\"cost\": {\"cycles\": 1800}}, {\"id\": 1, \"name\": \"matmul\", \"core\": \"aic\", \"cost\": "
    "{\"cycles\": "
    "1800}}, {\"id\": 2, \"name\": \"fa_aic\", \"core\": \"aic\", \"cost\": {\"cycles\": 900}}, {\"id\": 3, "
    "\"name\": \"fa_aiv\", \"core\": \"aiv\", \"cost\": {\"cycles\": 900}}, {\"id\": 4, \"name\": \"scale\", "
    "\"core\": \"aiv\", \"cost\": {\"cycles\": 360}}], \"tensors\": [{\"name\": \"a\", \"dtype\": "
    "\"FLOAT32\", "
    "\"shape\": [16384], \"addr\": \"80530636800\"}, {\"name\": \"b\", \"dtype\": \"FLOAT32\", \"shape\": "
    "[16384], "
    "\"addr\": \"80530702336\"}, {\"name\": \"Y\", \"dtype\": \"FLOAT32\", \"shape\": [16384], \"addr\": "
    "\"80530898944\"}]}\n"
    "{\"op\": \"submit\", \"kernel\": \"add\", \"args\": [{\"dir\": \"in\", \"tensor\": \"a\"}, {\"dir\": "
    "\"in\", "
    "\"tensor\": \"b\"}, {\"dir\": \"out\", \"tensor\": \"C\", \"dtype\": \"FLOAT32\", \"shape\": "
    "[16384]}]}\n"
    "{\"op\": \"alloc\", \"tensors\": [{\"name\": \"D\", \"dtype\": \"FLOAT32\", \"shape\": [16384]}]}\n"
    "{\"op\": \"submit\", \"kernel\": \"matmul\", \"args\": [{\"dir\": \"in\", \"tensor\": \"C\"}, {\"dir\": "
    "\"out_existing\", \"tensor\": \"D\"}]}\n"
    "{\"op\": \"scope_begin\", \"site\": \"orch_demo.cpp:42\"}\n"
    "{\"op\": \"submit\", \"id\": \"fa\", \"kernels\": [\"fa_aic\", \"fa_aiv\", \"fa_aiv\"], \"block_num\": "
    "2, "
    "\"args\": [{\"dir\": \"in\", \"tensor\": \"D\"}, {\"dir\": \"inout\", \"tensor\": \"Y\"}]}\n"
    "{\"op\": \"dummy\", \"deps\": [\"fa\"]}\n"
    "{\"op\": \"scope_end\"}\n"
    "{\"op\": \"submit\", \"kernel\": \"scale\", \"args\": [{\"dir\": \"in\", \"tensor\": \"Y\"}, {\"dir\": "
    "\"out\", "
    "\"tensor\": \"o\", \"dtype\": \"FLOAT32\", \"shape\": [16384]}]}\n";

/* The expected text of a dims array, as cJSON reads it back: compared value by value. */
static void assert_dims(const cJSON *a, const int64_t *v, int n, const char *what, int task)
{
    ck_assert_msg(cJSON_GetArraySize(a) == n, "task %d %s: %d dims", task, what, cJSON_GetArraySize(a));
    for (int i = 0; i < n; i++)
        ck_assert_msg(cJSON_GetArrayItem(a, i)->valuedouble == (double)v[i], "task %d %s[%d]: %.0f, not %lld",
                      task, what, i, cJSON_GetArrayItem(a, i)->valuedouble, (long long)v[i]);
}

START_TEST(every_view_and_tensor_id_is_written_as_it_is_whatever_came_before)
{
    /* 1200 tasks of one INPUT each: 300 tensors, each named four times and far apart, and 72 views of two
     * dims (9 shapes, 8 strides, spread so that views with one of them alike are kept in one place now and
     * then), each met again after others took its place; every 50th view has five dims too long to keep */
    depgen d;
    char err[256], path[4200];
    const uint32_t window[TMAP_RINGS] = {1024, 1024, 1024, 1024};
    ck_assert_int_eq(depgen_init(&d, window, true, err, sizeof(err)), 0);
    depgen_arg a[1200];
    memset(a, 0, sizeof(a));
    for (int k = 0; k < 1200; k++) {
        tmap_view *v = &a[k].v;
        v->addr = 0x10000u * (uint64_t)(k % 300 + 1);
        v->buffer_numel = 1u << 20;
        v->start = (uint64_t)k;
        v->dtype = DT_FLOAT32;
        if (k % 50 == 49) {
            const int64_t big[5] = {1000000000001, 1000000000002, 1000000000003, 1000000000004, 5};
            v->ndims = 5;
            memcpy(v->shape, big, sizeof(big));
            memcpy(v->strides, big, sizeof(big));
            v->strides[4] = k;
        } else {
            v->ndims = 2;
            v->shape[0] = k % 9 * (k % 9) * 31 + 1;
            v->shape[1] = 7;
            v->strides[0] = 7 + k / 9 % 8 * (k / 9 % 8) * 17;
            v->strides[1] = 1;
        }
        depgen_task t = {
            .id = (uint64_t)k, .kernel_ids = {0, -1, -1}, .block_num = 1, .nargs = 1, .args = &a[k]};
        ck_assert_int_eq(depgen_add(&d, &t), 0);
    }
    snprintf(path, sizeof(path), "%s/deps.json", tu_tmpdir());
    ck_assert_msg(depgen_write(&d, path, err, sizeof(err)) == 0, "%s", err);
    depgen_free(&d);
    cJSON *j = tu_json_file(path);
    const cJSON *tasks = cJSON_GetObjectItem(j, "tasks");
    ck_assert_int_eq(cJSON_GetArraySize(tasks), 1200);
    for (int k = 0; k < 1200; k++) {
        const cJSON *x = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetArrayItem(tasks, k), "args"), 0);
        char id[24], start[24];
        snprintf(id, sizeof(id), "%" PRIu64, depgen_tensor_id(a[k].v.addr, 0));
        snprintf(start, sizeof(start), "%d", k);
        ck_assert_str_eq(cJSON_GetObjectItem(x, "tensor_id")->valuestring, id);
        ck_assert_str_eq(cJSON_GetObjectItem(x, "start_offset")->valuestring, start);
        assert_dims(cJSON_GetObjectItem(x, "shape"), a[k].v.shape, a[k].v.ndims, "shape", k);
        assert_dims(cJSON_GetObjectItem(x, "strides"), a[k].v.strides, a[k].v.ndims, "strides", k);
    }
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(j, "tensors")), 300);
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(j, "edges")), 0);
    cJSON_Delete(j);
}
END_TEST

START_TEST(the_spec_example_gives_exactly_its_edges)
{
    cJSON *d = deps_of(EXAMPLE, NULL);
    static const char *const top[] = {"tasks", "tensors", "edges", NULL};
    tu_assert_keys(d, top, "deps.json");
    /* tasks in submission order; the alloc (task 1) is absent */
    const char *ids[] = {"0", "2", "4294967296", "4294967297", "3"};
    int kernels[5][3] = {{-1, 0, -1}, {1, -1, -1}, {2, 3, 3}, {-1, -1, -1}, {-1, 4, -1}};
    const cJSON *tasks = cJSON_GetObjectItem(d, "tasks");
    ck_assert_int_eq(cJSON_GetArraySize(tasks), 5);
    for (int i = 0; i < 5; i++) {
        const cJSON *t = cJSON_GetArrayItem(tasks, i);
        static const char *const keys[] = {"task_id", "scope", "early_dispatch", "kernel_ids", "block_num",
                                           "args",    NULL};
        tu_assert_keys(t, keys, "task");
        ck_assert_str_eq(cJSON_GetObjectItem(t, "task_id")->valuestring, ids[i]);
        ck_assert_str_eq(cJSON_GetObjectItem(t, "scope")->valuestring, "auto");
        for (int k = 0; k < 3; k++)
            ck_assert_int_eq(cJSON_GetArrayItem(cJSON_GetObjectItem(t, "kernel_ids"), k)->valueint,
                             kernels[i][k]);
        ck_assert_int_eq(cJSON_GetObjectItem(t, "block_num")->valueint, i == 2 ? 2 : 1);
    }
    /* task 0's args: a, b with the example's tensor ids, then an OUTPUT with idx and type only */
    const cJSON *args0 = cJSON_GetObjectItem(cJSON_GetArrayItem(tasks, 0), "args");
    ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(args0, 0), "tensor_id")->valuestring,
                     "14419249432455074311");
    ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(args0, 1), "tensor_id")->valuestring,
                     "17952637467417642718");
    static const char *const out_keys[] = {"idx", "type", NULL};
    tu_assert_keys(cJSON_GetArrayItem(args0, 2), out_keys, "OUTPUT arg");
    /* the six edges of model/README.md §16.1, in its order */
    ck_assert_int_eq(nedges(d), 6);
    const cJSON *e[6] = {edge(d, "0", "2", "creator", 0),
                         edge(d, "1", "2", "creator", 1),
                         edge(d, "1", "4294967296", "creator", 0),
                         edge(d, "2", "4294967296", "tensormap", 0),
                         edge(d, "4294967296", "4294967297", "explicit", -1),
                         edge(d, "4294967296", "3", "tensormap", 0)};
    for (int i = 0; i < 6; i++) {
        ck_assert_msg(e[i] != NULL, "edge %d missing", i);
        ck_assert_ptr_eq(e[i], cJSON_GetArrayItem(cJSON_GetObjectItem(d, "edges"), i));
    }
    ck_assert_str_eq(overlap(e[3]), "covered");
    ck_assert_str_eq(overlap(e[5]), "covered");
    ck_assert_str_eq(cJSON_GetObjectItem(e[5], "tensor_id")->valuestring, "12708107144214429539"); /* Y */
    static const char *const cre[] = {"pred",
                                      "succ",
                                      "arg",
                                      "source",
                                      "flags",
                                      "tensor_id",
                                      "consumer_dtype",
                                      "consumer_shape",
                                      "consumer_start_offset",
                                      "consumer_strides",
                                      NULL};
    tu_assert_keys(e[0], cre, "creator edge");
    static const char *const tm[] = {"pred",
                                     "succ",
                                     "arg",
                                     "source",
                                     "flags",
                                     "overlap",
                                     "tensor_id",
                                     "consumer_dtype",
                                     "consumer_shape",
                                     "consumer_start_offset",
                                     "consumer_strides",
                                     "producer_shape",
                                     "producer_start_offset",
                                     "producer_strides",
                                     NULL};
    tu_assert_keys(e[3], tm, "tensormap edge");
    static const char *const ex[] = {"pred", "succ", "arg", "source", "flags", NULL};
    tu_assert_keys(e[4], ex, "explicit edge");
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(e[4], "flags")), 2);
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(e[3], "flags")), 1);
    /* tensors in first-seen order: a, b, C, D, Y */
    const cJSON *tensors = cJSON_GetObjectItem(d, "tensors");
    ck_assert_int_eq(cJSON_GetArraySize(tensors), 5);
    const cJSON *ta = cJSON_GetArrayItem(tensors, 0);
    static const char *const tkeys[] = {"tensor_id", "buffer_addr", "version", "dtype", "buffer_numel", NULL};
    tu_assert_keys(ta, tkeys, "tensor");
    ck_assert_str_eq(cJSON_GetObjectItem(ta, "buffer_addr")->valuestring, "80530636800");
    ck_assert_str_eq(cJSON_GetObjectItem(ta, "buffer_numel")->valuestring, "16384");
    ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(tensors, 4), "tensor_id")->valuestring,
                     "12708107144214429539");
    cJSON_Delete(d);
}
END_TEST

START_TEST(a_rebound_label_in_its_own_deps_means_the_earlier_task)
{
    /* up, then a second "up" that depends on "up": the edge comes from the
     * first task (the label is rebound only after the deps are read) */
    cJSON *d = deps_of(
        "{\"ptosim_graph\": 1, \"name\": \"l\", \"kernels\": [{\"id\": 0, \"name\": \"k\", \"core\": "
        "\"aiv\", \"cost\": {\"ns\": 100}}]}\n{\"op\": \"submit\", \"id\": \"up\", \"kernel\": \"k\"}\n"
        "{\"op\": \"submit\", \"id\": \"up\", \"kernel\": \"k\", \"deps\": [\"up\"]}\n"
        "{\"op\": \"submit\", \"kernel\": \"k\", \"deps\": [\"up\"]}\n",
        NULL);
    ck_assert_int_eq(nedges(d), 2);
    ck_assert_ptr_nonnull(edge(d, "0", "1", "explicit", -1));
    ck_assert_ptr_nonnull(edge(d, "1", "2", "explicit", -1));
    cJSON_Delete(d);
}
END_TEST

START_TEST(an_alloc_label_names_the_alloc_task)
{
    /* t (task 0), alloc a (task 1), then a task that depends on "a": the edge
     * comes from the alloc, as alloc_outs.task_id() does in the runtime's
     * paged_attention_manual_scope example */
    cJSON *d = deps_of(
        "{\"ptosim_graph\": 1, \"name\": \"l\", \"kernels\": [{\"id\": 0, \"name\": \"k\", \"core\": "
        "\"aiv\", \"cost\": {\"ns\": 100}}]}\n{\"op\": \"submit\", \"id\": \"t\", \"kernel\": \"k\"}\n"
        "{\"op\": \"alloc\", \"id\": \"a\", \"tensors\": [{\"name\": \"x\", \"dtype\": \"FLOAT32\", "
        "\"shape\": [16]}]}\n"
        "{\"op\": \"submit\", \"kernel\": \"k\", \"deps\": [\"a\"]}\n",
        NULL);
    ck_assert_int_eq(nedges(d), 1);
    ck_assert_ptr_nonnull(edge(d, "1", "2", "explicit", -1));
    cJSON_Delete(d);
}
END_TEST

START_TEST(the_example_runs_in_dependency_order)
{
    chip *c = NULL;
    cJSON *d = deps_of(EXAMPLE, &c);
    cJSON_Delete(d);
    ck_assert_uint_eq(c->tasks_completed, 6);
    ck_assert_uint_eq(c->executions, 1 + 1 + 2 * 3 + 1); /* MIX x 2 blocks = 6 executions */
    /* scale (task 3) starts after both MIX blocks finished */
    ps_t mix_end = 0, scale_start = 0;
    for (int k = 0; k < c->ncores; k++)
        for (size_t i = 0; i < c->sl.per_core[k].n; i++) {
            const sl_exec *e = &c->sl.per_core[k].v[i];
            if (e->task_id == task_make_id(1, 0) && e->end > mix_end)
                mix_end = e->end;
            if (e->task_id == 3)
                scale_start = e->start;
        }
    ck_assert_uint_gt(scale_start, mix_end);
    tu_chip_free(c);
}
END_TEST

#define TILES_HDR                                                                                            \
    "{\"ptosim_graph\": 1, \"name\": \"t\", \"kernels\": [{\"id\": 0, \"name\": \"k\", \"core\": \"aiv\", "  \
    "\"cost\": {\"cycles\": 1800}}], \"tensors\": [{\"name\": \"x\", \"dtype\": \"FLOAT16\", \"shape\": "    \
    "[64, "                                                                                                  \
    "64]}]}\n"                                                                                               \
    "{\"op\": \"submit\", \"kernel\": \"k\", \"args\": [{\"dir\": \"out_existing\", \"tensor\": \"x\", "     \
    "\"shape\": [32, 64]}]}\n"

START_TEST(disjoint_row_major_tiles_give_no_edge)
{
    /* the writer covers rows 0..31; readers of rows 32..63, 16..47 and all */
    cJSON *d =
        deps_of(TILES_HDR
                "{\"op\": \"submit\", \"kernel\": \"k\", \"args\": [{\"dir\": \"in\", \"tensor\": \"x\", "
                "\"shape\": [32, 64], \"offset\": [32, 0]}]}\n"
                "{\"op\": \"submit\", \"kernel\": \"k\", \"args\": [{\"dir\": \"in\", \"tensor\": \"x\", "
                "\"shape\": [32, 64], \"offset\": [16, 0]}]}\n"
                "{\"op\": \"submit\", \"kernel\": \"k\", \"args\": [{\"dir\": \"in\", \"tensor\": \"x\"}]}\n",
                NULL);
    ck_assert_int_eq(nedges(d), 2);
    ck_assert_ptr_null(edge(d, "0", "1", "tensormap", 0));
    ck_assert_str_eq(overlap(edge(d, "0", "2", "tensormap", 0)), "other");
    ck_assert_str_eq(overlap(edge(d, "0", "3", "tensormap", 0)), "covered");
    cJSON_Delete(d);
}
END_TEST

START_TEST(strided_views_give_conservative_other_edges)
{
    /* a transposed view of rows 0..31 (strides [1, 64]) and a column slice of
     * rows 32..63 (disjoint in rows) */
    cJSON *d = deps_of(
        TILES_HDR "{\"op\": \"submit\", \"kernel\": \"k\", \"args\": [{\"dir\": \"in\", \"tensor\": \"x\", "
                  "\"shape\": [64, 32], \"strides\": [1, 64]}]}\n"
                  "{\"op\": \"submit\", \"kernel\": \"k\", \"args\": [{\"dir\": \"in\", \"tensor\": \"x\", "
                  "\"shape\": [32, 8], \"offset\": [32, 8]}]}\n"
                  "{\"op\": \"submit\", \"kernel\": \"k\", \"args\": [{\"dir\": \"in\", \"tensor\": \"x\", "
                  "\"shape\": [64, 8]}]}\n",
        NULL);
    ck_assert_str_eq(overlap(edge(d, "0", "1", "tensormap", 0)), "other"); /* strides differ: not provable */
    ck_assert_ptr_null(edge(d, "0", "2", "tensormap", 0));                 /* same layout, disjoint rows */
    ck_assert_str_eq(overlap(edge(d, "0", "3", "tensormap", 0)), "other"); /* overlaps without covering */
    cJSON_Delete(d);
}
END_TEST

START_TEST(readers_promoted_to_inout_serialize)
{
    const char *in =
        TILES_HDR "{\"op\": \"submit\", \"kernel\": \"k\", \"args\": [{\"dir\": \"in\", \"tensor\": "
                  "\"x\"}]}\n{\"op\": \"submit\", \"kernel\": \"k\", \"args\": [{\"dir\": \"in\", "
                  "\"tensor\": \"x\"}]}\n";
    const char *inout =
        TILES_HDR "{\"op\": \"submit\", \"kernel\": \"k\", \"args\": [{\"dir\": \"inout\", "
                  "\"tensor\": \"x\"}]}\n{\"op\": \"submit\", \"kernel\": \"k\", \"args\": [{\"dir\": "
                  "\"inout\", \"tensor\": \"x\"}]}\n";
    chip *c;
    cJSON *d = deps_of(in, &c);
    /* two readers both wait for the writer only, and run side by side */
    ck_assert_int_eq(nedges(d), 2);
    ck_assert_ptr_nonnull(edge(d, "0", "1", "tensormap", 0));
    ck_assert_ptr_nonnull(edge(d, "0", "2", "tensormap", 0));
    cJSON_Delete(d);
    ps_t r1_end = tu_exec(c, 1, NULL)->end, r2_start = tu_exec(c, 2, NULL)->start;
    ck_assert_uint_lt(r2_start, r1_end);
    tu_chip_free(c);
    /* as INOUT the first reader covers the writer's entry and replaces it:
     * a chain writer -> r1 -> r2 */
    d = deps_of(inout, &c);
    ck_assert_int_eq(nedges(d), 2);
    ck_assert_str_eq(overlap(edge(d, "0", "1", "tensormap", 0)), "covered");
    ck_assert_str_eq(overlap(edge(d, "1", "2", "tensormap", 0)), "covered");
    ck_assert_ptr_null(edge(d, "0", "2", "tensormap", 0));
    cJSON_Delete(d);
    r1_end = tu_exec(c, 1, NULL)->end;
    r2_start = tu_exec(c, 2, NULL)->start;
    ck_assert_uint_gt(r2_start, r1_end);
    tu_chip_free(c);
}
END_TEST

START_TEST(war_is_not_tracked)
{
    /* a reader, then a writer of the same region: the writer does not wait */
    cJSON *d =
        deps_of(TILES_HDR "{\"op\": \"submit\", \"kernel\": \"k\", \"args\": [{\"dir\": \"in\", "
                          "\"tensor\": \"x\", \"shape\": [32, 64], \"offset\": [32, 0]}]}\n"
                          "{\"op\": \"submit\", \"kernel\": \"k\", \"args\": [{\"dir\": \"out_existing\", "
                          "\"tensor\": \"x\", \"shape\": [32, 64], \"offset\": [32, 0]}]}\n",
                NULL);
    ck_assert_int_eq(nedges(d), 0);
    cJSON_Delete(d);
}
END_TEST

START_TEST(manual_scopes_keep_only_explicit_edges)
{
    cJSON *d =
        deps_of(TILES_HDR "{\"op\": \"scope_begin\", \"mode\": \"manual\"}\n"
                          "{\"op\": \"submit\", \"id\": \"m1\", \"kernel\": \"k\", \"args\": [{\"dir\": "
                          "\"inout\", \"tensor\": \"x\"}]}\n"
                          "{\"op\": \"submit\", \"kernel\": \"k\", \"deps\": [\"m1\"], \"args\": [{\"dir\": "
                          "\"in\", \"tensor\": \"x\"}]}\n"
                          "{\"op\": \"scope_end\"}\n"
                          "{\"op\": \"submit\", \"kernel\": \"k\", \"args\": [{\"dir\": \"in\", \"tensor\": "
                          "\"x\"}]}\n",
                NULL);
    /* inside: no lookup, no insert -> only the explicit edge; after: the
     * manual writer was never registered, so the reader sees the first writer */
    ck_assert_int_eq(nedges(d), 2);
    ck_assert_ptr_nonnull(edge(d, "4294967296", "4294967297", "explicit", -1));
    ck_assert_ptr_nonnull(edge(d, "0", "1", "tensormap", 0));
    const cJSON *tasks = cJSON_GetObjectItem(d, "tasks");
    ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(tasks, 1), "scope")->valuestring, "manual");
    ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(tasks, 3), "scope")->valuestring, "auto");
    cJSON_Delete(d);
}
END_TEST

START_TEST(no_dep_args_are_unknown_and_keep_creator_edges)
{
    cJSON *d = deps_of(TILES_HDR
                       "{\"op\": \"submit\", \"kernel\": \"k\", \"args\": [{\"dir\": \"out\", \"tensor\": "
                       "\"o\", \"dtype\": \"FLOAT16\", \"shape\": [8]}]}\n"
                       "{\"op\": \"submit\", \"kernel\": \"k\", \"args\": [{\"dir\": \"no_dep\", \"tensor\": "
                       "\"o\"}, {\"dir\": \"no_dep\", \"tensor\": \"x\"}]}\n",
                       NULL);
    ck_assert_int_eq(nedges(d), 1);
    ck_assert_ptr_nonnull(edge(d, "1", "2", "creator", 0));
    const cJSON *a = cJSON_GetArrayItem(
        cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(d, "tasks"), 2), "args"), 1);
    ck_assert_str_eq(cJSON_GetObjectItem(a, "type")->valuestring, "UNKNOWN");
    ck_assert_ptr_nonnull(cJSON_GetObjectItem(a, "tensor_id"));
    cJSON_Delete(d);
}
END_TEST

START_TEST(edges_to_retired_producers_stay_in_deps_json_but_do_not_wait)
{
    /* the writer's scope ends and it retires long before the reader (1 ms of
     * user code): deps.json is the logical graph, the run has no wait */
    chip *c;
    cJSON *d =
        deps_of("{\"ptosim_graph\": 1, \"name\": \"t\", \"kernels\": [{\"id\": 0, \"name\": \"k\", \"core\": "
                "\"aiv\", \"cost\": {\"cycles\": 1800}}], \"tensors\": [{\"name\": \"x\", \"dtype\": "
                "\"FLOAT16\", \"shape\": [64]}]}\n"
                "{\"op\": \"scope_begin\"}\n{\"op\": \"submit\", \"kernel\": \"k\", \"args\": [{\"dir\": "
                "\"inout\", \"tensor\": \"x\"}]}\n{\"op\": \"scope_end\"}\n"
                "{\"op\": \"user_code\", \"ns\": 1000000}\n"
                "{\"op\": \"scope_begin\"}\n{\"op\": \"submit\", \"kernel\": \"k\", \"args\": [{\"dir\": "
                "\"in\", \"tensor\": \"x\"}]}\n{\"op\": \"scope_end\"}\n",
                &c);
    ck_assert_ptr_nonnull(edge(d, "4294967296", "4294967297", "tensormap", 0));
    cJSON_Delete(d);
    /* in the run the writer had retired when the reader was wired: no link,
     * only the orchestrator's guard in the reader's fanin */
    task *reader = chip_task(c, task_make_id(1, 1));
    ck_assert_ptr_nonnull(reader);
    ck_assert_uint_eq(reader->nlinks, 0);
    ck_assert_int_eq(reader->fanin_count, 1);
    tu_chip_free(c);
}
END_TEST

START_TEST(false_predicate_retires_like_a_dummy)
{
    chip *c = tu_chip(TILES_HDR
                      "{\"op\": \"submit\", \"kernel\": \"k\", \"predicate\": false, \"args\": [{\"dir\": "
                      "\"inout\", \"tensor\": \"x\"}]}\n"
                      "{\"op\": \"submit\", \"kernel\": \"k\", \"args\": [{\"dir\": \"in\", \"tensor\": "
                      "\"x\"}]}\n",
                      NULL, 3, NULL);
    ck_assert_int_eq(c->status, CHIP_DONE);
    ck_assert_uint_eq(c->tasks_completed, 3);
    ck_assert_uint_eq(c->executions, 2); /* the skipped task ran on no core */
    int markers = 0;
    for (int t = 0; t < 3; t++)
        for (size_t i = 0; i < c->sl.threads[t].n; i++)
            markers += c->sl.threads[t].v[i].kind == PH_PREDICATED_SKIP && c->sl.threads[t].v[i].task_id == 1;
    ck_assert_int_eq(markers, 1);
    tu_chip_free(c);
}
END_TEST

/* The conformance probe (tests/real/probe): per scope, T0 reads e and
 * creates X; T1 and T2 each inout X; T3 reads X. */
static void probe_graph(char *text, size_t len, const char *shape)
{
    int n = snprintf(text, len,
                     "{\"ptosim_graph\": 1, \"name\": \"probe\", \"kernels\": [{\"id\": 0, \"name\": \"k\", "
                     "\"core\": \"aiv\", \"cost\": {\"ns\": 1000}}], \"tensors\": [{\"name\": \"e\", "
                     "\"dtype\": \"FLOAT32\", \"shape\": [16]}]}\n{\"op\": \"scope_begin\"}\n"
                     "{\"op\": \"submit\", \"kernel\": \"k\", \"args\": [{\"dir\": \"in\", \"tensor\": \"e\"}, "
                     "{\"dir\": \"out\", \"tensor\": \"X\", \"dtype\": \"FLOAT32\", \"shape\": %s}]}\n",
                     shape);
    for (int i = 0; i < 2; i++)
        n += snprintf(text + n, len - (size_t)n,
                      "{\"op\": \"submit\", \"kernel\": \"k\", \"args\": [{\"dir\": \"inout\", \"tensor\": "
                      "\"X\"}]}\n");
    snprintf(text + n, len - (size_t)n,
             "{\"op\": \"submit\", \"kernel\": \"k\", \"args\": [{\"dir\": \"in\", \"tensor\": \"X\"}]}\n"
             "{\"op\": \"scope_end\"}\n");
}

START_TEST(created_storage_is_aligned_so_a_partial_row_layout_keeps_the_older_writer)
{
    /* The runtime sizes X up to 1024 B: [3,5] FLOAT32 (60 B) has 256
     * elements of storage, and 256 % 5 != 0, so its overlap test cannot
     * derive a row-major reference shape: T2's inout does not cover T1's
     * entry (other), and T3 gets both writers. [4,8]: 256 % 8 == 0, T2
     * covers T1 (covered), T3 gets one writer. [16,33]: 2112 B -> 3072 B =
     * 768 elements, 768 % 33 != 0: two writers. */
    static const struct {
        const char *shape, *numel, *ov;
        int t3_edges, tensormap;
    } cases[] = {{"[3, 5]", "256", "other", 3, 2}, {"[4, 8]", "256", "covered", 2, 1},
                 {"[16, 33]", "768", "other", 3, 2}};
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        char text[4096];
        probe_graph(text, sizeof(text), cases[k].shape);
        chip *c;
        cJSON *d = deps_of(text, &c);
        const cJSON *x = cJSON_GetArrayItem(cJSON_GetObjectItem(d, "tensors"), 1);
        ck_assert_str_eq(cJSON_GetObjectItem(x, "buffer_numel")->valuestring, cases[k].numel);
        const cJSON *e12 = edge(d, "4294967297", "4294967298", "tensormap", 0);
        ck_assert_ptr_nonnull(e12);
        ck_assert_str_eq(overlap(e12), cases[k].ov);
        int into_t3 = 0;
        const cJSON *e;
        cJSON_ArrayForEach(e, cJSON_GetObjectItem(d, "edges")) into_t3 +=
            strcmp(cJSON_GetObjectItem(e, "succ")->valuestring, "4294967299") == 0;
        ck_assert_int_eq(into_t3, cases[k].t3_edges);
        ck_assert_ptr_nonnull(edge(d, "4294967296", "4294967299", "creator", 0));
        ck_assert_ptr_nonnull(edge(d, "4294967298", "4294967299", "tensormap", 0));
        ck_assert_int_eq(edge(d, "4294967297", "4294967299", "tensormap", 0) != NULL, cases[k].t3_edges == 3);
        /* the TensorMap keeps both writers, or only the newer one */
        ck_assert_uint_eq(c->tm.peak_used, (uint32_t)cases[k].tensormap);
        cJSON_Delete(d);
        tu_chip_free(c);
    }
}
END_TEST

Suite *suite_deps(void)
{
    Suite *s = suite_create("deps");
    TCase *tc = tcase_create("inference");
    tcase_add_test(tc, the_spec_example_gives_exactly_its_edges);
    tcase_add_test(tc, the_example_runs_in_dependency_order);
    tcase_add_test(tc, a_rebound_label_in_its_own_deps_means_the_earlier_task);
    tcase_add_test(tc, an_alloc_label_names_the_alloc_task);
    tcase_add_test(tc, disjoint_row_major_tiles_give_no_edge);
    tcase_add_test(tc, strided_views_give_conservative_other_edges);
    tcase_add_test(tc, readers_promoted_to_inout_serialize);
    tcase_add_test(tc, war_is_not_tracked);
    tcase_add_test(tc, manual_scopes_keep_only_explicit_edges);
    tcase_add_test(tc, no_dep_args_are_unknown_and_keep_creator_edges);
    tcase_add_test(tc, edges_to_retired_producers_stay_in_deps_json_but_do_not_wait);
    tcase_add_test(tc, false_predicate_retires_like_a_dummy);
    tcase_add_test(tc, created_storage_is_aligned_so_a_partial_row_layout_keeps_the_older_writer);
    tcase_add_test(tc, every_view_and_tensor_id_is_written_as_it_is_whatever_came_before);
    tcase_set_timeout(tc, 30);
    suite_add_tcase(s, tc);
    return s;
}
