/* test_graph.c - graph file reader: accepted forms, and one test per malformed-input message. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>
#include <unistd.h>

#include "../model/base/dtype.h"
#include "../model/graph/graph_compiled.h"
#include "../model/graph/graph_reader.h"
#include "../model/graph/op_record.h"
#include "../model/graph/graph_readahead.h"
#include "testutil.h"

#define HDR                                                                                                  \
    "{\"ptosim_graph\": 1, \"name\": \"g\", \"kernels\": [{\"id\": 0, \"name\": \"vadd\", \"core\": "        \
    "\"aiv\", \"cost\": {\"cycles\": 1800}}, {\"id\": 3, \"name\": \"mm\", \"core\": \"aic\", \"cost\": "    \
    "{\"ns\": 2000}}], \"tensors\": [{\"name\": \"x\", \"dtype\": \"FLOAT32\", \"shape\": [4, 8]}]}\n"

/* Validates text as a graph file; returns the error message ("" when valid). */
static const char *check(const char *text)
{
    static char err[GRAPH_ERR_MAX];
    const char *dir = tu_tmpdir();
    char *path = tu_write(dir, "g.jsonl", text);
    err[0] = '\0';
    if (graph_validate(path, err, sizeof(err)) == 0)
        err[0] = '\0';
    free(path);
    return err;
}

/* Asserts that text is rejected with a message that names line and field. */
static void expect_error(const char *text, const char *where, const char *what)
{
    const char *err = check(text);
    ck_assert_msg(err[0] != '\0', "accepted a malformed graph (expected %s)", where);
    ck_assert_msg(strstr(err, "/g.jsonl:") != NULL, "message lacks FILE: %s", err);
    ck_assert_msg(strstr(err, where) != NULL, "message '%s' lacks '%s'", err, where);
    ck_assert_msg(strstr(err, what) != NULL, "message '%s' lacks '%s'", err, what);
}

START_TEST(valid_graph_streams_every_operation)
{
    const char *dir = tu_tmpdir();
    char *path =
        tu_write(dir, "g.jsonl",
                 HDR "{\"op\": \"scope_begin\", \"site\": \"pa.cpp:42\"}\n"
                     "\n" /* blank lines are skipped */
                     "{\"op\": \"submit\", \"id\": \"a\", \"kernel\": \"vadd\", \"args\": [{\"dir\": "
                     "\"in\", \"tensor\": \"x\", \"shape\": [2, 8], \"offset\": [2, 0]}, {\"dir\": "
                     "\"out\", \"tensor\": \"y\", \"dtype\": \"FLOAT16\", \"shape\": [16]}, "
                     "{\"scalar\": 1.5, \"dtype\": \"FLOAT32\"}]}\n"
                     "{\"op\": \"alloc\", \"id\": \"al\", \"tensors\": [{\"name\": \"d\", "
                     "\"dtype\": \"INT8\", \"shape\": [64]}]}\n"
                     "{\"op\": \"dummy\", \"deps\": [\"a\", \"al\"]}\n"
                     "{\"op\": \"submit\", \"kernels\": [3, \"vadd\", null], \"block_num\": 4, "
                     "\"sync_start\": true, \"deps\": [4294967296], \"cost\": {\"cycles\": 9}}\n"
                     "{\"op\": \"user_code\", \"ns\": 250}\n"
                     "{\"op\": \"scope_end\"}\n");
    graph g;
    char err[GRAPH_ERR_MAX];
    graph_op op;
    ck_assert_int_eq(graph_open(&g, path, err, sizeof(err)), 0);
    ck_assert_str_eq(g.name, "g");
    ck_assert_int_eq(g.nkernels, 2);
    ck_assert_ptr_nonnull(graph_kernel_by_id(&g, 3));
    ck_assert_uint_eq(g.tensors[0].addr, 0x12c0000000ULL); /* auto address */
    ck_assert_int_eq(graph_next(&g, &op, err, sizeof(err)), 1);
    ck_assert_int_eq(op.kind, OP_SCOPE_BEGIN);
    ck_assert_str_eq(op.site, "pa.cpp:42");
    ck_assert_int_eq(graph_next(&g, &op, err, sizeof(err)), 1);
    ck_assert_int_eq(op.kind, OP_SUBMIT);
    ck_assert_int_eq(op.line, 4);
    ck_assert_int_eq(op.kernel_ids[0], -1);
    ck_assert_int_eq(op.kernel_ids[1], 0);
    ck_assert_int_eq(op.nargs, 2);
    ck_assert_int_eq(op.nscalars, 1);
    ck_assert_uint_eq(op.args[0].start_offset, 16); /* offset [2,0] with strides [8,1] */
    ck_assert_int_eq(op.args[0].shape[0], 2);
    ck_assert_int_eq(op.args[1].dir, DIR_OUT);
    ck_assert_int_eq(graph_next(&g, &op, err, sizeof(err)), 1);
    ck_assert_int_eq(op.kind, OP_ALLOC);
    ck_assert_int_eq(op.nargs, 1);
    ck_assert_int_eq(graph_next(&g, &op, err, sizeof(err)), 1);
    ck_assert_int_eq(op.kind, OP_DUMMY);
    ck_assert_int_eq(op.ndeps, 2);
    ck_assert_int_eq(op.deps[1].label, 1);
    ck_assert_int_eq(graph_next(&g, &op, err, sizeof(err)), 1);
    ck_assert_int_eq(op.kernel_ids[0], 3);
    ck_assert_int_eq(op.kernel_ids[1], 0);
    ck_assert_int_eq(op.kernel_ids[2], -1);
    ck_assert_int_eq(op.block_num, 4);
    ck_assert(op.sync_start);
    ck_assert(op.has_cost);
    ck_assert_uint_eq(op.deps[0].raw_id, 4294967296ULL);
    ck_assert_int_eq(graph_next(&g, &op, err, sizeof(err)), 1);
    ck_assert_uint_eq(op.user_ns, 250);
    ck_assert_int_eq(graph_next(&g, &op, err, sizeof(err)), 1);
    ck_assert_int_eq(op.kind, OP_SCOPE_END);
    ck_assert_int_eq(graph_next(&g, &op, err, sizeof(err)), 0);
    graph_close(&g);
    free(path);
}
END_TEST

START_TEST(large_addresses_are_read_from_strings)
{
    const char *err =
        check("{\"ptosim_graph\": 1, \"name\": \"g\", \"kernels\": [], \"tensors\": [{\"name\": "
              "\"x\", \"dtype\": \"INT64\", \"shape\": [2], \"addr\": \"0xfffffffffff00000\"}, "
              "{\"name\": \"y\", \"dtype\": \"INT64\", \"shape\": [2], \"addr\": "
              "\"18446744073708503040\"}]}\n");
    ck_assert_str_eq(err, "");
}
END_TEST

START_TEST(inputs_see_the_binding_before_an_output_rebinds_the_name)
{
    /* loop bodies reuse names: "t" is read, then rebound by the same task */
    const char *dir = tu_tmpdir();
    char *path = tu_write(dir, "g.jsonl",
                          HDR "{\"op\": \"submit\", \"kernel\": \"vadd\", \"args\": [{\"dir\": \"out\", "
                              "\"tensor\": \"t\", \"dtype\": \"FLOAT32\", \"shape\": [8]}]}\n"
                              "{\"op\": \"submit\", \"kernel\": \"vadd\", \"args\": [{\"dir\": \"in\", "
                              "\"tensor\": \"t\"}, {\"dir\": \"out\", \"tensor\": \"t\", \"dtype\": "
                              "\"FLOAT32\", \"shape\": [4]}]}\n");
    graph g;
    char err[GRAPH_ERR_MAX];
    graph_op op;
    ck_assert_int_eq(graph_open(&g, path, err, sizeof(err)), 0);
    ck_assert_int_eq(graph_next(&g, &op, err, sizeof(err)), 1);
    ck_assert_int_eq(graph_next(&g, &op, err, sizeof(err)), 1);
    ck_assert_int_eq(op.args[0].shape[0], 8); /* the old 8-element t */
    ck_assert_int_eq(op.args[0].tensor, op.args[1].tensor);
    ck_assert_int_eq(g.tensors[op.args[1].tensor].shape[0], 4); /* rebound after the op */
    graph_close(&g);
    free(path);
}
END_TEST

START_TEST(names_that_share_a_lookup_cache_entry_keep_their_own_tensors)
{
    /* the reader finds a loop's names again through a small cache by length and three bytes: "axbyc" and
     * "azbwc" share an entry, and so do "ad" and "adt" (one the other's prefix); each keeps its tensor */
    const char *dir = tu_tmpdir();
    char *path = tu_write(
        dir, "g.jsonl",
        HDR
        "{\"op\": \"submit\", \"kernel\": \"vadd\", \"args\": [{\"dir\": \"out\", \"tensor\": \"axbyc\", "
        "\"dtype\": \"FLOAT32\", \"shape\": [2]}, {\"dir\": \"out\", \"tensor\": \"ad\", \"dtype\": "
        "\"FLOAT32\", \"shape\": [5]}]}\n"
        "{\"op\": \"submit\", \"kernel\": \"vadd\", \"args\": [{\"dir\": \"out\", \"tensor\": \"azbwc\", "
        "\"dtype\": \"FLOAT32\", \"shape\": [3]}, {\"dir\": \"out\", \"tensor\": \"adt\", \"dtype\": "
        "\"FLOAT32\", \"shape\": [6]}]}\n"
        "{\"op\": \"submit\", \"kernel\": \"vadd\", \"args\": [{\"dir\": \"in\", \"tensor\": \"axbyc\"}, "
        "{\"dir\": \"in\", \"tensor\": \"azbwc\"}, {\"dir\": \"in\", \"tensor\": \"ad\"}, {\"dir\": \"in\", "
        "\"tensor\": \"adt\"}, {\"dir\": \"in\", \"tensor\": \"axbyc\"}]}\n");
    graph g;
    char err[GRAPH_ERR_MAX];
    graph_op op;
    ck_assert_int_eq(graph_open(&g, path, err, sizeof(err)), 0);
    ck_assert_int_eq(graph_next(&g, &op, err, sizeof(err)), 1);
    ck_assert_int_eq(graph_next(&g, &op, err, sizeof(err)), 1);
    ck_assert_int_eq(op.args[0].tensor, 3); /* x is slot 0; axbyc 1, ad 2, then azbwc 3 and adt 4 */
    ck_assert_int_eq(op.args[1].tensor, 4);
    ck_assert_int_eq(graph_next(&g, &op, err, sizeof(err)), 1);
    static const int slots[5] = {1, 3, 2, 4, 1}, lens[5] = {2, 3, 5, 6, 2};
    for (int i = 0; i < 5; i++) {
        ck_assert_int_eq(op.args[i].tensor, slots[i]);
        ck_assert_int_eq(op.args[i].shape[0], lens[i]);
    }
    ck_assert_str_eq(strtab_key(&g.tensor_names, 3), "azbwc");
    graph_close(&g);
    free(path);
}
END_TEST

START_TEST(memory_is_bounded_by_distinct_names_not_by_lines)
{
    const char *dir = tu_tmpdir();
    char path[256];
    snprintf(path, sizeof(path), "%s/big.jsonl", dir);
    FILE *f = fopen(path, "w");
    fputs(HDR, f);
    for (int i = 0; i < 20000; i++)
        fprintf(f, "{\"op\": \"submit\", \"id\": \"step\", \"kernel\": \"vadd\", \"args\": [{\"dir\": "
                   "\"in\", \"tensor\": \"x\"}, {\"dir\": \"out\", \"tensor\": \"acc\", \"dtype\": "
                   "\"FLOAT32\", \"shape\": [8]}]}\n");
    fclose(f);
    graph g;
    char err[GRAPH_ERR_MAX];
    graph_op op;
    ck_assert_int_eq(graph_open(&g, path, err, sizeof(err)), 0);
    int n = 0;
    while (graph_next(&g, &op, err, sizeof(err)) == 1)
        n++;
    ck_assert_int_eq(n, 20000);
    ck_assert_uint_eq(g.tensor_names.count, 2); /* x and acc */
    ck_assert_uint_eq(g.labels.count, 1);
    graph_close(&g);
}
END_TEST

START_TEST(a_long_line_does_not_keep_its_memory_for_the_lines_after_it)
{
    const char *dir = tu_tmpdir();
    char path[256];
    snprintf(path, sizeof(path), "%s/long.jsonl", dir);
    FILE *f = fopen(path, "w");
    fputs(HDR, f);
    fputs("{\"op\": \"submit\", \"kernel\": \"vadd\", \"deps\": [-1", f);
    for (int i = 0; i < 100000; i++) /* 100,001 values: 3.2 MB of parsed line */
        fputs(", -1", f);
    fputs("]}\n{\"op\": \"user_code\", \"ns\": 5}\n", f);
    fclose(f);
    graph g;
    char err[GRAPH_ERR_MAX];
    graph_op op;
    ck_assert_int_eq(graph_open(&g, path, err, sizeof(err)), 0);
    ck_assert_int_eq(graph_next(&g, &op, err, sizeof(err)), 1);
    ck_assert_int_eq(op.ndeps, 100001);
    ck_assert_uint_eq(op.deps[100000].raw_id, UINT64_MAX);
    ck_assert_uint_eq(g.doc.vcap, 0); /* freed after the line */
    ck_assert_int_eq(graph_next(&g, &op, err, sizeof(err)), 1);
    ck_assert_uint_eq(op.user_ns, 5);
    ck_assert_uint_gt(g.doc.vcap, 0); /* a short line keeps its room */
    ck_assert_int_eq(graph_next(&g, &op, err, sizeof(err)), 0);
    graph_close(&g);
}
END_TEST

START_TEST(bad_json_is_rejected_with_its_column)
{
    expect_error(HDR "{\"op\": \"submit\", }\n", "g.jsonl:2:18: json:", "not valid JSON");
}
END_TEST

START_TEST(a_key_given_twice_is_rejected_with_its_path)
{
    /* a lookup takes the first: {"ns": 10, "ns": 50000000} ran as 10 ns */
    expect_error(HDR "{\"op\": \"submit\", \"kernel\": \"vadd\", \"cost\": {\"ns\": 10, \"ns\": 50000000}}\n",
                 ":2:55: cost.ns:", "duplicate key");
    expect_error(HDR "{\"op\": \"submit\", \"op\": \"dummy\", \"kernel\": \"vadd\"}\n",
                 ":2:18: op:", "duplicate key");
    expect_error(HDR "{\"op\": \"submit\", \"kernel\": \"vadd\", \"args\": [{\"dir\": \"in\", \"tensor\": "
                     "\"x\"}, {\"dir\": \"in\", \"tensor\": \"x\", \"tensor\": \"y\"}]}\n",
                 ":2:104: args[1].tensor:", "duplicate key");
    expect_error("{\"ptosim_graph\": 1, \"name\": \"g\", \"name\": \"h\", \"kernels\": []}\n",
                 ":1:34: name:", "duplicate key");
    /* equal prefixes are different keys */
    ck_assert_str_eq(check(HDR "{\"op\": \"scope_begin\", \"site\": \"a\", \"mode\": \"auto\"}\n"
                               "{\"op\": \"scope_end\"}\n"),
                     "");
}
END_TEST

START_TEST(strings_that_are_not_utf8_are_rejected_where_read)
{
    /* a raw 0xff in a scope site went on into scope_stats.jsonl, which Python's json cannot read */
    expect_error(HDR "{\"op\": \"scope_begin\", \"site\": \"a\xff.cpp:1\"}\n{\"op\": \"scope_end\"}\n",
                 ":2:33: site:", "invalid UTF-8 in a string");
    /* overlong NUL, a UTF-16 surrogate in UTF-8, past U+10FFFF, a cut sequence */
    expect_error(HDR "{\"op\": \"scope_begin\", \"site\": \"\xc0\x80\"}\n", ":2:32: site:", "invalid UTF-8");
    expect_error(HDR "{\"op\": \"scope_begin\", \"site\": \"\xed\xa0\x80\"}\n", ":2:32: site:", "invalid UTF-8");
    expect_error(HDR "{\"op\": \"scope_begin\", \"site\": \"\xf4\x90\x80\x80\"}\n",
                 ":2:32: site:", "invalid UTF-8");
    expect_error(HDR "{\"op\": \"scope_begin\", \"site\": \"\xe2\x82\"}\n", ":2:32: site:", "invalid UTF-8");
    /* in a key: reported at the object that holds it */
    expect_error(HDR "{\"op\": \"submit\", \"kernel\": \"vadd\", \"cost\": {\"n\xffs\": 1}}\n",
                 ":2:47: cost:", "invalid UTF-8");
    /* escapes that make no character, or cut a C string short */
    expect_error(HDR "{\"op\": \"scope_begin\", \"site\": \"a\\udc00\"}\n",
                 ":2:33: site:", "a lone surrogate \\u escape is not a character");
    expect_error(HDR "{\"op\": \"scope_begin\", \"site\": \"a\\u0000b\"}\n",
                 ":2:33: site:", "\\u0000 would cut the string short");
    /* well-formed text of every length is read as written */
    const char *dir = tu_tmpdir();
    char *path =
        tu_write(dir, "g.jsonl",
                 HDR "{\"op\": \"scope_begin\", \"site\": \"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\\u00e9"
                     "\\ud83d\\ude00\"}\n{\"op\": \"scope_end\"}\n");
    graph g;
    graph_op op;
    char err[GRAPH_ERR_MAX];
    ck_assert_int_eq(graph_open(&g, path, err, sizeof(err)), 0);
    ck_assert_int_eq(graph_next(&g, &op, err, sizeof(err)), 1);
    ck_assert_str_eq(op.site, "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xc3\xa9\xf0\x9f\x98\x80");
    graph_close(&g);
    free(path);
}
END_TEST

START_TEST(a_number_beyond_a_double_is_rejected)
{
    /* 1e999 parsed to infinity, and (int)inf is undefined behaviour */
    expect_error(HDR "{\"op\": \"submit\", \"kernel\": 1e999}\n",
                 ":2:28: kernel:", "number out of range");
    expect_error(HDR "{\"op\": \"submit\", \"kernel\": \"vadd\", \"args\": [{\"scalar\": -1e400}]}\n",
                 ":2:56: args[0].scalar:", "number out of range");
    /* beyond int but inside a double: a clear message, no cast */
    expect_error(HDR "{\"op\": \"submit\", \"kernel\": 1e300}\n",
                 ":2: kernel:", "unknown kernel id 1.0000000000000001e+300");
    expect_error(HDR "{\"op\": \"submit\", \"kernels\": [-4294967296, -1, -1]}\n",
                 ":2: kernels[0]:", "unknown kernel id -4294967296");
}
END_TEST

START_TEST(unknown_op_is_rejected)
{
    expect_error(HDR "{\"op\": \"launch\"}\n", ":2: op:", "unknown operation 'launch'");
}
END_TEST

START_TEST(wrong_field_type_is_rejected)
{
    expect_error(HDR "{\"op\": \"submit\", \"kernel\": \"vadd\", \"block_num\": \"two\"}\n",
                 ":2: block_num:", "must be an integer (a JSON number), got a string");
    expect_error(HDR "{\"op\": \"submit\", \"kernel\": \"vadd\", \"sync_start\": 1}\n",
                 ":2: sync_start:", "must be true or false, got a number");
    expect_error(HDR "{\"op\": \"submit\", \"kernel\": \"vadd\", \"args\": {}}\n",
                 ":2: args:", "must be an array, got an object");
}
END_TEST

START_TEST(each_field_has_one_type_and_the_message_names_it)
{
    /* "1" was read as version 1, "" as FLOAT32, and a description could be anything */
    expect_error("{\"ptosim_graph\": \"1\", \"name\": \"g\", \"kernels\": []}\n",
                 ":1: ptosim_graph:", "must be an integer (a JSON number), got a string");
    expect_error(HDR "{\"op\": \"submit\", \"kernel\": \"vadd\", \"block_num\": \"2\"}\n",
                 ":2: block_num:", "must be an integer (a JSON number), got a string");
    expect_error(HDR "{\"op\": \"submit\", \"kernel\": \"vadd\", \"args\": [{\"dir\": \"out\", \"tensor\": "
                     "\"o\", \"dtype\": \"\", \"shape\": [4]}]}\n",
                 ":2: args[0].dtype:", "unknown dtype ''");
    expect_error("{\"ptosim_graph\": 1, \"name\": \"g\", \"kernels\": [], \"tensors\": [{\"name\": \"t\", "
                 "\"dtype\": \"\", \"shape\": [4]}]}\n",
                 ":1: tensors[0].dtype:", "unknown dtype ''");
    expect_error(HDR "{\"op\": \"submit\", \"kernel\": \"vadd\", \"args\": [{\"dir\": \"out\", \"tensor\": "
                     "\"o\", \"dtype\": 0, \"shape\": [4]}]}\n",
                 ":2: args[0].dtype:", "must be a string, got a number");
    expect_error("{\"ptosim_graph\": 1, \"name\": \"g\", \"description\": 5, \"kernels\": []}\n",
                 ":1: description:", "must be a string, got a number");
    expect_error("{\"ptosim_graph\": 1, \"name\": \"g\", \"description\": [\"a\"], \"kernels\": []}\n",
                 ":1: description:", "must be a string, got an array");
    expect_error(HDR "{\"op\": \"submit\", \"kernel\": \"vadd\", \"args\": [{\"dir\": \"in\", \"tensor\": "
                     "\"x\", \"shape\": [8], \"start_offset\": \"8\"}]}\n",
                 ":2: args[0].start_offset:", "must be a non-negative integer, got a string");
    expect_error(HDR "{\"op\": \"submit\", \"kernel\": \"vadd\", \"args\": [{\"dir\": \"in\", \"tensor\": "
                     "\"x\", \"shape\": [\"8\"]}]}\n",
                 ":2: args[0].shape:", "entries must be integers >= 1, got a string");
    expect_error("{\"ptosim_graph\": 1, \"name\": \"g\", \"kernels\": [{\"id\": \"0\", \"name\": \"k\", "
                 "\"core\": \"aiv\", \"cost\": {\"cycles\": 1}}]}\n",
                 ":1: kernels[0].id:", "must be an integer (a JSON number), got a string");
    expect_error(HDR "{\"op\": \"user_code\", \"ns\": \"5\"}\n",
                 ":2: ns:", "must be an integer (a JSON number), got a string");
    /* what stays: addresses above 2^53 as strings, labels and ids in deps */
    ck_assert_str_eq(check("{\"ptosim_graph\": 1, \"name\": \"g\", \"description\": \"d\", \"kernels\": [], "
                           "\"tensors\": [{\"name\": \"t\", \"dtype\": \"INT8\", \"shape\": [4], \"addr\": "
                           "\"0x10000\"}]}\n"),
                     "");
}
END_TEST

START_TEST(unknown_field_is_rejected)
{
    expect_error(HDR "{\"op\": \"submit\", \"kernel\": \"vadd\", \"blocks\": 2}\n",
                 ":2: blocks:", "unknown field");
    expect_error(HDR "{\"op\": \"submit\", \"kernel\": \"vadd\", \"args\": [{\"dir\": \"in\", \"tensor\": "
                     "\"x\", \"stride\": [1, 1]}]}\n",
                 ":2: args[0].stride:", "unknown field");
}
END_TEST

/* allow_early_resolve is the runtime's name (Arg::set_allow_early_resolve) of early_resolve: either sets the
 * flag, both must agree, and a kernel entry carrying a per-task flag is pointed at the submits */
START_TEST(allow_early_resolve_is_the_runtimes_name_of_early_resolve)
{
    const char *dir = tu_tmpdir();
    char *path = tu_write(dir, "g.jsonl",
                          HDR "{\"op\": \"submit\", \"kernel\": \"vadd\", \"allow_early_resolve\": true}\n"
                              "{\"op\": \"submit\", \"kernel\": \"vadd\", \"allow_early_resolve\": false}\n"
                              "{\"op\": \"submit\", \"kernel\": \"vadd\", \"allow_early_resolve\": true, "
                              "\"early_resolve\": true}\n"
                              "{\"op\": \"submit\", \"kernel\": \"vadd\"}\n");
    graph g;
    graph_op op;
    char err[GRAPH_ERR_MAX];
    ck_assert_int_eq(graph_open(&g, path, err, sizeof(err)), 0);
    const bool want[4] = {true, false, true, false};
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(graph_next(&g, &op, err, sizeof(err)), 1);
        ck_assert_int_eq(op.early_resolve, want[i]);
    }
    ck_assert_int_eq(graph_next(&g, &op, err, sizeof(err)), 0);
    graph_close(&g);
    free(path);
    ck_assert_str_eq(
        strstr(check(HDR "{\"op\": \"submit\", \"kernel\": \"vadd\", \"allow_early_resolve\": "
                         "false, \"early_resolve\": true}\n"),
               ":2:"),
        ":2: allow_early_resolve: false, but early_resolve is true: they are one flag (the runtime's "
        "name and ptosim's); give one");
    expect_error(HDR "{\"op\": \"submit\", \"kernel\": \"vadd\", \"allow_early_resolve\": 1}\n",
                 ":2: allow_early_resolve:", "must be true or false, got a number");
    /* a dummy has no such flag, as before */
    expect_error(HDR "{\"op\": \"dummy\", \"allow_early_resolve\": true}\n",
                 ":2: allow_early_resolve:", "unknown field");
    ck_assert_str_eq(
        strstr(check("{\"ptosim_graph\": 1, \"name\": \"g\", \"kernels\": [{\"id\": 0, \"name\": "
                     "\"mm\", \"core\": \"aic\", \"cost\": {\"ns\": 5}, \"allow_early_resolve\": "
                     "true}]}\n"),
               ":1:"),
        ":1: kernels[0].allow_early_resolve: a field of each submit, not of a kernel (the runtime "
        "sets it per task); give it on the kernel's submit lines, or with --kernel-set "
        "mm.early_resolve=true to every one of them");
    expect_error(
        "{\"ptosim_graph\": 1, \"name\": \"g\", \"kernels\": [{\"id\": 0, \"name\": \"mm\", \"core\": "
        "\"aic\", \"cost\": {\"ns\": 5}, \"sync_start\": true}]}\n",
        ":1: kernels[0].sync_start:", "--kernel-set mm.sync_start=true to every one of them");
}
END_TEST

START_TEST(unknown_kernel_is_rejected)
{
    expect_error(HDR "{\"op\": \"submit\", \"kernel\": \"nope\"}\n", ":2: kernel:", "unknown kernel 'nope'");
    expect_error(HDR "{\"op\": \"submit\", \"kernels\": [7, -1, -1]}\n",
                 ":2: kernels[0]:", "unknown kernel id 7");
    expect_error(HDR "{\"op\": \"submit\", \"kernels\": [\"vadd\", null, null]}\n",
                 ":2: kernels[0]:", "kernel 'vadd' is aiv but slot 0 runs on aic");
}
END_TEST

START_TEST(missing_required_field_is_rejected)
{
    expect_error(HDR "{\"op\": \"submit\", \"kernel\": \"vadd\", \"args\": [{\"dir\": \"in\"}]}\n",
                 ":2: args[0].tensor:", "missing required field");
    expect_error(HDR "{\"kernel\": \"vadd\"}\n", ":2: op:", "missing required field");
    expect_error("{\"ptosim_graph\": 1, \"name\": \"g\"}\n", ":1: kernels:", "missing required field");
    expect_error(HDR "{\"op\": \"submit\", \"kernel\": \"vadd\", \"args\": [{\"dir\": \"out\", \"tensor\": "
                     "\"o\", \"shape\": [4]}]}\n",
                 ":2: args[0].dtype:", "missing required field");
}
END_TEST

START_TEST(bad_direction_is_rejected)
{
    expect_error(HDR "{\"op\": \"submit\", \"kernel\": \"vadd\", \"args\": [{\"dir\": \"input\", \"tensor\": "
                     "\"x\"}]}\n",
                 ":2: args[0].dir:", "unknown direction 'input'");
}
END_TEST

START_TEST(scope_end_without_begin_is_rejected)
{
    expect_error(HDR "{\"op\": \"scope_end\"}\n", ":2: op:", "scope_end without a matching scope_begin");
}
END_TEST

/* graph_next takes a scope line byte-identical to the last one that parsed
 * from memory: the depth checks and their messages must not change. */
START_TEST(repeated_scope_lines_keep_their_depth_checks)
{
    /* 63 user scopes nest; the 64th (line 65, remembered since line 3) is refused */
    char text[8192];
    size_t len = (size_t)snprintf(text, sizeof(text), "%s", HDR);
    for (int i = 0; i < 64; i++)
        len += (size_t)snprintf(text + len, sizeof(text) - len, "{\"op\": \"scope_begin\", \"site\": \"a.cpp:1\"}\n");
    expect_error(text, ":65: op:", "scopes nest deeper than 64");
    /* a remembered scope_end past the last open scope */
    expect_error(HDR "{\"op\": \"scope_begin\"}\n{\"op\": \"scope_end\"}\n{\"op\": \"scope_end\"}\n",
                 ":4: op:", "scope_end without a matching scope_begin");
    /* a remembered scope_begin left open is reported at its own line */
    expect_error(HDR "{\"op\": \"scope_begin\", \"mode\": \"manual\"}\n{\"op\": \"scope_end\"}\n"
                     "{\"op\": \"scope_begin\", \"mode\": \"manual\"}\n",
                 ":4: scope_begin:", "scope is never closed (end of file after line 4");
    /* a line that differs by one byte is parsed, and its own errors found */
    expect_error(HDR "{\"op\": \"scope_begin\"}\n{\"op\": \"scope_begin\", \"mode\": \"Auto\"}\n",
                 ":3: mode:", "must be \"auto\" or \"manual\"");
}
END_TEST

START_TEST(unclosed_scope_is_rejected_at_its_begin_line)
{
    expect_error(HDR "{\"op\": \"scope_begin\"}\n{\"op\": \"scope_begin\"}\n{\"op\": \"scope_end\"}\n",
                 ":2: scope_begin:", "scope is never closed (end of file after line 4");
}
END_TEST

START_TEST(block_num_below_one_is_rejected)
{
    expect_error(HDR "{\"op\": \"submit\", \"kernel\": \"vadd\", \"block_num\": 0}\n",
                 ":2: block_num:", "must be >= 1, got 0");
}
END_TEST

START_TEST(negative_cost_is_rejected)
{
    expect_error(
        "{\"ptosim_graph\": 1, \"name\": \"g\", \"kernels\": [{\"id\": 0, \"name\": \"k\", \"core\": "
        "\"aiv\", \"cost\": {\"cycles\": -5}}]}\n",
        ":1: kernels[0].cost.cycles:", "must be >= 0, got -5");
    expect_error(HDR "{\"op\": \"submit\", \"kernel\": \"vadd\", \"cost\": {\"ns\": -1}}\n",
                 ":2: cost.ns:", "must be >= 0, got -1");
    expect_error(HDR "{\"op\": \"user_code\", \"ns\": -3}\n", ":2: ns:", "must be >= 0, got -3");
}
END_TEST

START_TEST(wrong_version_is_rejected)
{
    expect_error("{\"ptosim_graph\": 2, \"name\": \"g\", \"kernels\": []}\n",
                 ":1: ptosim_graph:", "unsupported format version 2 (this ptosim reads version 1)");
    expect_error("{\"op\": \"submit\"}\n", ":1: ptosim_graph:", "missing required field");
    expect_error("", ":1: ptosim_graph:", "empty file");
}
END_TEST

START_TEST(references_to_unknown_names_are_rejected)
{
    expect_error(HDR "{\"op\": \"submit\", \"kernel\": \"vadd\", \"args\": [{\"dir\": \"in\", \"tensor\": "
                     "\"ghost\"}]}\n",
                 ":2: args[0].tensor:", "unknown tensor 'ghost'");
    expect_error(HDR "{\"op\": \"dummy\", \"deps\": [\"later\"]}\n{\"op\": \"dummy\", \"id\": \"later\"}\n",
                 ":2: deps[0]:", "unknown task 'later'");
    expect_error(HDR "{\"op\": \"dummy\", \"deps\": [21474836480]}\n", ":2: deps[0]:", "names ring 5");
}
END_TEST

START_TEST(views_outside_their_tensor_are_rejected)
{
    expect_error(HDR "{\"op\": \"submit\", \"kernel\": \"vadd\", \"args\": [{\"dir\": \"in\", \"tensor\": "
                     "\"x\", \"shape\": [2, 8], \"offset\": [3, 0]}]}\n",
                 ":2: args[0]:", "view reaches element 39 but tensor 'x' has 32 elements");
    expect_error(HDR "{\"op\": \"submit\", \"kernel\": \"vadd\", \"args\": [{\"dir\": \"in\", \"tensor\": "
                     "\"x\", \"strides\": [1]}]}\n",
                 ":2: args[0].strides:", "has 1 entries but the view has 2 dimensions");
}
END_TEST

START_TEST(sizes_that_would_wrap_64_bits_are_rejected)
{
    /* [2^32, 2^30] FLOAT32 is 2^64 bytes: it wrapped to 0 and the run said "ok" */
    expect_error(HDR "{\"op\": \"submit\", \"kernel\": \"vadd\", \"args\": [{\"dir\": \"out\", \"tensor\": "
                     "\"o\", \"dtype\": \"FLOAT32\", \"shape\": [4294967296, 1073741824]}]}\n",
                 ":2: args[0].shape:", "[4294967296, 1073741824] x FLOAT32 is more than 2^53 bytes");
    /* [2^32, 2^32] overflowed the signed stride product */
    expect_error(HDR "{\"op\": \"alloc\", \"tensors\": [{\"name\": \"a\", \"dtype\": \"INT8\", \"shape\": "
                     "[4294967296, 4294967296]}]}\n",
                 ":2: tensors[0].shape:", "[4294967296, 4294967296] x INT8 is more than 2^53 bytes");
    expect_error("{\"ptosim_graph\": 1, \"name\": \"g\", \"kernels\": [], \"tensors\": [{\"name\": \"t\", "
                 "\"dtype\": \"INT64\", \"shape\": [1125899906842624, 2]}]}\n",
                 ":1: tensors[0].shape:", "[1125899906842624, 2] x INT64 is more than 2^53 bytes");
    /* 2^53 bytes exactly is the limit, and fits */
    ck_assert_str_eq(check("{\"ptosim_graph\": 1, \"name\": \"g\", \"kernels\": [], \"tensors\": [{\"name\": "
                           "\"t\", \"dtype\": \"INT64\", \"shape\": [1125899906842624]}]}\n"),
                     "");
    /* a view: its elements, its default strides, its offsets and its reach */
    expect_error(HDR "{\"op\": \"submit\", \"kernel\": \"vadd\", \"args\": [{\"dir\": \"in\", \"tensor\": "
                     "\"x\", \"shape\": [2, 4294967296, 4294967296], \"strides\": [1, 1, 1]}]}\n",
                 ":2: args[0].shape:", "[2, 4294967296, 4294967296] x FLOAT32 is more than 2^53 bytes");
    expect_error(HDR "{\"op\": \"submit\", \"kernel\": \"vadd\", \"args\": [{\"dir\": \"in\", \"tensor\": "
                     "\"x\", \"shape\": [2, 2], \"strides\": [9007199254740992, 9007199254740992]}]}\n",
                 ":2: args[0]:", "view reaches element 18014398509481984 but tensor 'x' has 32 elements");
    expect_error(HDR "{\"op\": \"submit\", \"kernel\": \"vadd\", \"args\": [{\"dir\": \"in\", \"tensor\": "
                     "\"x\", \"shape\": [2, 2], \"offset\": [9007199254740992, 9007199254740992], "
                     "\"strides\": [9007199254740992, 2]}]}\n",
                 ":2: args[0]:", "view origin is past element 2^53 but tensor 'x' has 32 elements");
    expect_error(HDR "{\"op\": \"submit\", \"kernel\": \"vadd\", \"args\": [{\"dir\": \"in\", \"tensor\": "
                     "\"x\", \"shape\": [3, 9007199254740992], \"strides\": [9007199254740992, 1]}]}\n",
                 ":2: args[0].shape:", "is more than 2^53 bytes");
    expect_error(HDR "{\"op\": \"submit\", \"kernel\": \"vadd\", \"args\": [{\"dir\": \"in\", \"tensor\": "
                     "\"x\", \"shape\": [4, 3], \"strides\": [3, 9007199254740992]}]}\n",
                 ":2: args[0]:", "view reaches past element 2^53 but tensor 'x' has 32 elements");
    /* addresses: past 2^64 given, or packed past it */
    expect_error("{\"ptosim_graph\": 1, \"name\": \"g\", \"kernels\": [], \"tensors\": [{\"name\": \"t\", "
                 "\"dtype\": \"INT8\", \"shape\": [1024], \"addr\": \"0xffffffffffffff00\"}]}\n",
                 ":1: tensors[0].addr:", "0xffffffffffffff00 + 1024 bytes runs past the end of the 64-bit");
    ck_assert_str_eq(
        check("{\"ptosim_graph\": 1, \"name\": \"g\", \"kernels\": [], \"tensors\": [{\"name\": "
              "\"t\", \"dtype\": \"INT8\", \"shape\": [1024], \"addr\": \"0xfffffffffffffc00\"}]}\n"),
        "");
    char *big = malloc(96 * 2100 + 256);
    size_t len =
        (size_t)sprintf(big, "{\"ptosim_graph\": 1, \"name\": \"g\", \"kernels\": [], \"tensors\": [");
    for (int i = 0; i < 2100; i++) /* 2100 x 2^53 bytes, packed from 0x12c0000000 */
        len += (size_t)sprintf(big + len,
                               "%s{\"name\": \"t%d\", \"dtype\": \"INT8\", \"shape\": "
                               "[9007199254740992]}",
                               i ? ", " : "", i);
    sprintf(big + len, "]}\n");
    expect_error(big, ":1: tensors[2047]:", "no room left for it in the 64-bit address space");
    free(big);
}
END_TEST

START_TEST(a_header_that_fails_after_tensor_data_frees_that_data)
{
    /* found by make fuzz: data of the tensors before the bad one leaked (make check-sanitize sees it) */
    expect_error(
        "{\"ptosim_graph\": 1, \"name\": \"g\", \"kernels\": [], \"tensors\": [{\"name\": \"a\", "
        "\"dtype\": \"INT8\", \"shape\": [4], \"data\": [1, 2]}, {\"name\": \"b\", \"dtype\": \"INT8\", "
        "\"shape\": [0]}]}\n",
        ":1: tensors[1].shape:", "entries must be integers in [1, 2^53], got 0");
}
END_TEST

START_TEST(header_problems_are_rejected)
{
    expect_error(
        "{\"ptosim_graph\": 1, \"name\": \"g\", \"kernels\": [{\"id\": 0, \"name\": \"a\", \"core\": "
        "\"aiv\", \"cost\": {\"cycles\": 1}}, {\"id\": 0, \"name\": \"b\", \"core\": \"aiv\", "
        "\"cost\": {\"cycles\": 1}}]}\n",
        ":1: kernels[1].id:", "func id 0 is used twice");
    expect_error("{\"ptosim_graph\": 1, \"name\": \"a/b\", \"kernels\": []}\n",
                 ":1: name:", "may only use letters");
    expect_error(
        "{\"ptosim_graph\": 1, \"name\": \"g\", \"kernels\": [{\"id\": 0, \"name\": \"a\", \"core\": "
        "\"npu\", \"cost\": {\"cycles\": 1}}]}\n",
        ":1: kernels[0].core:", "must be \"aic\" or \"aiv\"");
    expect_error(
        "{\"ptosim_graph\": 1, \"name\": \"g\", \"kernels\": [{\"id\": 0, \"name\": \"a\", \"core\": "
        "\"aiv\", \"cost\": {\"cycles\": 1, \"ns\": 2}}]}\n",
        ":1: kernels[0].cost:", "give exactly one of");
}
END_TEST

START_TEST(missing_file_is_named)
{
    char err[GRAPH_ERR_MAX];
    ck_assert_int_eq(graph_validate("/nonexistent/g.jsonl", err, sizeof(err)), -1);
    ck_assert_msg(strstr(err, "/nonexistent/g.jsonl: cannot open graph file") != NULL, "%s", err);
}
END_TEST

/* Lines are cut from large read blocks: a line longer than a block, CRLF
 * endings and a last line without a newline all read as written. */
START_TEST(long_lines_crlf_and_a_missing_final_newline_are_read)
{
    size_t pad = 3 * GRAPH_READ_BLOCK;
    char *text = malloc(pad + 1024);
    size_t len = (size_t)sprintf(text, "%s", HDR);
    len += (size_t)sprintf(text + len,
                           "{\"op\": \"user_code\", \"ns\": 7}\r\n{\"op\": \"user_code\", \"ns\": 8");
    memset(text + len, ' ', pad);
    len += pad;
    len += (size_t)sprintf(text + len, "}\r\n\r\n{\"op\": \"user_code\", \"ns\": 9}");
    char *path = tu_write(tu_tmpdir(), "g.jsonl", text);
    free(text);
    graph g;
    char err[GRAPH_ERR_MAX];
    graph_op op;
    ck_assert_int_eq(graph_open(&g, path, err, sizeof(err)), 0);
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(graph_next(&g, &op, err, sizeof(err)), 1);
        ck_assert_int_eq(op.kind, OP_USER_CODE);
        ck_assert_uint_eq(op.user_ns, 7 + (uint64_t)i);
    }
    ck_assert_int_eq(op.line, 5); /* the blank CRLF line 4 is skipped */
    ck_assert_int_eq(graph_next(&g, &op, err, sizeof(err)), 0);
    graph_close(&g);
    free(path);
}
END_TEST

/* Asserts that two parsed operations carry the same content (pointers aside). */
static void assert_same_op(const graph_op *a, const graph_op *b)
{
    ck_assert_int_eq(a->kind, b->kind);
    ck_assert_int_eq(a->line, b->line);
    ck_assert_int_eq(a->manual, b->manual);
    if (a->kind == OP_SCOPE_BEGIN) /* the site belongs to scope_begin only */
        ck_assert_str_eq(a->site, b->site);
    ck_assert_int_eq(a->label, b->label);
    ck_assert_mem_eq(a->kernel_ids, b->kernel_ids, sizeof(a->kernel_ids));
    ck_assert_int_eq(a->block_num, b->block_num);
    ck_assert_int_eq(a->sync_start, b->sync_start);
    ck_assert_int_eq(a->early_resolve, b->early_resolve);
    ck_assert_int_eq(a->predicate, b->predicate);
    ck_assert_int_eq(a->dump_task, b->dump_task);
    ck_assert_int_eq(a->has_cost, b->has_cost);
    if (a->has_cost)
        ck_assert_mem_eq(&a->cost, &b->cost, sizeof(a->cost));
    ck_assert_int_eq(a->nargs, b->nargs);
    for (int i = 0; i < a->nargs; i++) {
        graph_arg x = a->args[i], y = b->args[i];
        ck_assert_int_eq(x.ndata, y.ndata);
        if (x.ndata)
            ck_assert_mem_eq(x.data, y.data, x.ndata * sizeof(double));
        x.data = y.data = NULL;
        ck_assert_mem_eq(&x, &y, sizeof(x));
    }
    ck_assert_int_eq(a->nscalars, b->nscalars);
    for (int i = 0; i < a->nscalars; i++) {
        ck_assert_int_eq(a->scalars[i].dtype, b->scalars[i].dtype);
        ck_assert_mem_eq(&a->scalars[i].value, &b->scalars[i].value, sizeof(double));
        ck_assert_int_eq(a->scalars[i].dump, b->scalars[i].dump);
    }
    ck_assert_int_eq(a->ndeps, b->ndeps);
    for (int i = 0; i < a->ndeps; i++) {
        ck_assert_int_eq(a->deps[i].label, b->deps[i].label);
        ck_assert_uint_eq(a->deps[i].raw_id, b->deps[i].raw_id);
    }
    if (a->kind == OP_USER_CODE)
        ck_assert_int_eq(a->user_ns, b->user_ns);
}

/* The reader thread hands over exactly what graph_next reads, across batch
 * boundaries (dump_stall is 700 KB: several 256 KB batches), with literal
 * data, explicit deps and cost overrides. */
START_TEST(read_ahead_gives_the_operations_graph_next_gives)
{
    static const char *const traces[] = {TRACE("dump_stall.jsonl"),
                                         TRACE("default.jsonl"),
                                         TRACE("gen_paged_attention_manual.jsonl"),
                                         TRACE("gen_random.jsonl"),
                                         TRACE("chain3.jsonl"),
                                         TRACE("mix_spmd.jsonl"),
                                         TRACE("kv_prefill.jsonl"),
                                         TRACE("gen_paged_attention_spmd.jsonl"),
                                         TRACE("gen_decode_layer_qwen3.jsonl"),
                                         TRACE("forkjoin.jsonl")};
    graph_op *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
    for (size_t t = 0; t < sizeof(traces) / sizeof(traces[0]); t++) {
        graph g1, g2;
        char err[GRAPH_ERR_MAX];
        ck_assert_int_eq(graph_open(&g1, traces[t], err, sizeof(err)), 0);
        ck_assert_int_eq(graph_open(&g2, traces[t], err, sizeof(err)), 0);
        readahead *ra = readahead_start(&g2);
        ck_assert_ptr_nonnull(ra);
        long n = 0;
        int r1, r2;
        do {
            r1 = graph_next(&g1, a, err, sizeof(err));
            r2 = readahead_next(ra, &g2, b, err, sizeof(err));
            ck_assert_int_eq(r1, r2);
            if (r1 == 1) {
                assert_same_op(a, b);
                n++;
            }
        } while (r1 == 1);
        ck_assert_int_eq(r1, 0);
        ck_assert_int_eq(g2.nops, n);
        ck_assert_int_eq(g2.nops, g1.nops);
        ck_assert_int_eq(readahead_finish(ra, err, sizeof(err)), 0);
        graph_close(&g1);
        graph_close(&g2);
    }
    free(a);
    free(b);
}
END_TEST

/* Writes a graph of n good submits followed by one bad line. */
static char *many_then_bad(const char *dir, int n)
{
    size_t cap = (size_t)n * 64 + 512, len = 0;
    char *text = malloc(cap);
    len += (size_t)snprintf(text + len, cap - len, "%s", HDR);
    for (int i = 0; i < n; i++)
        len += (size_t)snprintf(text + len, cap - len, "{\"op\": \"submit\", \"kernel\": \"vadd\"}\n");
    snprintf(text + len, cap - len, "{\"op\": \"submit\", \"kernel\": \"nope\"}\n");
    char *path = tu_write(dir, "g.jsonl", text);
    free(text);
    return path;
}

/* An error reaches the consumer in place, with graph_next's message; and a
 * consumer that stops early still gets the whole file's verdict. */
START_TEST(read_ahead_reports_the_first_error_even_past_where_the_run_stopped)
{
    const int n = 20000; /* several batches before the bad line */
    char *path = many_then_bad(tu_tmpdir(), n);
    graph g;
    char err[GRAPH_ERR_MAX], want[GRAPH_ERR_MAX];
    ck_assert_int_eq(graph_validate(path, want, sizeof(want)), -1);
    ck_assert_ptr_nonnull(strstr(want, ":20002: kernel: unknown kernel 'nope'"));

    graph_op *op = malloc(sizeof(*op));
    ck_assert_int_eq(graph_open(&g, path, err, sizeof(err)), 0);
    readahead *ra = readahead_start(&g);
    int rc, got = 0;
    while ((rc = readahead_next(ra, &g, op, err, sizeof(err))) == 1)
        got++;
    ck_assert_int_eq(got, n);
    ck_assert_int_eq(rc, -1);
    ck_assert_str_eq(err, want);
    ck_assert_int_eq(readahead_finish(ra, err, sizeof(err)), -1);
    ck_assert_str_eq(err, want);
    graph_close(&g);

    /* stop after one op: the verdict still covers line 20002 */
    ck_assert_int_eq(graph_open(&g, path, err, sizeof(err)), 0);
    ra = readahead_start(&g);
    ck_assert_ptr_null(g.f); /* the reader took the file over: it is opened once */
    ck_assert_ptr_null(readahead_start(&g));
    ck_assert_int_eq(readahead_next(ra, &g, op, err, sizeof(err)), 1);
    ck_assert_int_eq(op->line, 2);
    err[0] = '\0';
    ck_assert_int_eq(readahead_finish(ra, err, sizeof(err)), -1);
    ck_assert_str_eq(err, want);

    graph_close(&g);

    /* cancelling does not wait for the verdict (and does not hang) */
    ck_assert_int_eq(graph_open(&g, path, err, sizeof(err)), 0);
    ra = readahead_start(&g);
    ck_assert_ptr_nonnull(ra);
    readahead_cancel(ra);
    graph_close(&g);
    free(op);
    free(path);
}
END_TEST

/* ---- compiled graphs (gcomp) ---- */

/* A compiled graph replays exactly what graph_next reads: every kind of op, literal data, explicit deps, cost
 * overrides, SPMD and MIX tasks, and more than one of the writer's 1 MiB runs of records (dump_stall); every
 * record passes gcomp_next's range checks. */
START_TEST(a_compiled_graph_gives_the_operations_graph_next_gives)
{
    static const char *const traces[] = {TRACE("dump_stall.jsonl"),
                                         TRACE("default.jsonl"),
                                         TRACE("gen_paged_attention_manual.jsonl"),
                                         TRACE("gen_random.jsonl"),
                                         TRACE("chain3.jsonl"),
                                         TRACE("mix_spmd.jsonl"),
                                         TRACE("kv_prefill.jsonl"),
                                         TRACE("gen_paged_attention_spmd.jsonl"),
                                         TRACE("gen_decode_layer_qwen3.jsonl"),
                                         TRACE("forkjoin.jsonl")};
    graph_op *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
    char *out = malloc(4096);
    snprintf(out, 4096, "%s/g.compiled", tu_tmpdir());
    for (size_t t = 0; t < sizeof(traces) / sizeof(traces[0]); t++) {
        graph g1, g2;
        gcomp gc;
        char err[GRAPH_ERR_MAX];
        ck_assert_msg(gcomp_compile(traces[t], out, err, sizeof(err)) == 0, "%s", err);
        ck_assert_msg(gcomp_open(&gc, out, traces[t], err, sizeof(err)) == 0, "%s", err);
        ck_assert_int_eq(graph_open(&g1, traces[t], err, sizeof(err)), 0);
        ck_assert_int_eq(graph_open(&g2, traces[t], err, sizeof(err)), 0);
        gcomp_cursor cur = {.gc = &gc};
        long n = 0;
        int r1, r2;
        do {
            r1 = graph_next(&g1, a, err, sizeof(err));
            r2 = gcomp_next(&cur, &g2, b, err, sizeof(err));
            ck_assert_int_eq(r1, r2);
            if (r1 == 1) {
                assert_same_op(a, b);
                ck_assert_int_eq(a->byte_end, b->byte_end); /* the run's progress line reads it */
                ck_assert_int_eq(g2.line, g1.line);
                n++;
            }
        } while (r1 == 1);
        ck_assert_int_eq(r1, 0);
        ck_assert_int_eq(gcomp_next(&cur, &g2, b, err, sizeof(err)), 0); /* and stays at the end */
        ck_assert_int_eq(g2.nops, n);
        ck_assert_int_eq((long)gc.head.nops, n);
        gcomp_cursor_free(&cur);
        gcomp_close(&gc);
        graph_close(&g1);
        graph_close(&g2);
    }
    free(out);
    free(a);
    free(b);
}
END_TEST

/* A malformed graph is not compiled: graph_validate's message, and no file (not even a temporary one); a
 * folder that is not there, and a source that is gone, are named too. */
START_TEST(a_malformed_graph_is_not_compiled)
{
    const char *dir = tu_tmpdir();
    char *path = many_then_bad(dir, 5), out[4096], tmp[4200], want[GRAPH_ERR_MAX], err[GRAPH_ERR_MAX];
    snprintf(out, sizeof(out), "%s/g.compiled", dir);
    snprintf(tmp, sizeof(tmp), "%s.tmp", out);
    ck_assert_int_eq(graph_validate(path, want, sizeof(want)), -1);
    ck_assert_int_eq(gcomp_compile(path, out, err, sizeof(err)), 1);
    ck_assert_str_eq(err, want);
    ck_assert(!tu_exists(out) && !tu_exists(tmp));
    snprintf(want, sizeof(want), "%s/none.jsonl: cannot read the graph: No such file or directory", dir);
    char none[4200];
    snprintf(none, sizeof(none), "%s/none.jsonl", dir);
    ck_assert_int_eq(gcomp_compile(none, out, err, sizeof(err)), 1);
    ck_assert_str_eq(err, want);
    /* nowhere to write it: an I/O failure, not the graph's */
    char nodir[4200];
    snprintf(nodir, sizeof(nodir), "%s/no/such/folder/g.compiled", dir);
    ck_assert_int_eq(gcomp_compile(TRACE("chain3.jsonl"), nodir, err, sizeof(err)), -1);
    ck_assert_msg(strstr(err, "no/such/folder/g.compiled") && strstr(err, "No such file or directory"), "%s",
                  err);
    /* a compiled graph whose source is gone */
    char *src = tu_write(dir, "src.jsonl", "{\"ptosim_graph\": 1, \"name\": \"s\", \"kernels\": []}\n");
    ck_assert_int_eq(gcomp_compile(src, out, err, sizeof(err)), 0);
    unlink(src);
    gcomp gc;
    ck_assert_int_eq(gcomp_open(&gc, out, src, err, sizeof(err)), -1);
    snprintf(want, sizeof(want), "%s: cannot read the graph: No such file or directory", src);
    ck_assert_str_eq(err, want);
    free(src);
    free(path);
}
END_TEST

/* Writes len bytes of data to path. */
static void put_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fwrite(data, 1, len, f), len);
    fclose(f);
}

/* Reads path whole into *data (malloc'd); returns its length. */
static size_t get_file(const char *path, unsigned char **data)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    *data = malloc((size_t)n + 16);
    ck_assert_int_eq(fread(*data, 1, (size_t)n, f), n);
    fclose(f);
    return (size_t)n;
}

/* gcomp_open of path against src fails with rc and exactly want. */
static void expect_open(const char *path, const char *src, int rc, const char *want)
{
    gcomp gc;
    char err[8192];
    ck_assert_int_eq(gcomp_open(&gc, path, src, err, sizeof(err)), rc);
    ck_assert_str_eq(err, want);
    ck_assert_ptr_null(gc.map);
}

/* Each way a compiled graph can fail to be the graph as it is now is named: not one at all, another format or
 * record layout, cut short or grown, a damaged record, a source that changed since. */
START_TEST(a_compiled_graph_that_does_not_fit_is_named)
{
    const char *dir = tu_tmpdir();
    char *text = tu_read(TRACE("chain3.jsonl"));
    char *src = tu_write(dir, "g.jsonl", text), good[4096], bad[4200], want[16384], err[GRAPH_ERR_MAX];
    snprintf(good, sizeof(good), "%s/g.compiled", dir);
    snprintf(bad, sizeof(bad), "%s/bad.compiled", dir);
    ck_assert_int_eq(gcomp_compile(src, good, err, sizeof(err)), 0);
    unsigned char *c;
    size_t n = get_file(good, &c);
    ck_assert_uint_gt(n, GCOMP_HEAD_BYTES);
    gcomp_head h;
    memcpy(&h, c, sizeof(h));
    ck_assert_uint_eq(h.rec_bytes, n - GCOMP_HEAD_BYTES);
    ck_assert_uint_eq(h.nops, 3); /* chain3: three submits */

    snprintf(want, sizeof(want), "%s/none.compiled: cannot read: No such file or directory", dir);
    char none[4200];
    snprintf(none, sizeof(none), "%s/none.compiled", dir);
    expect_open(none, src, -1, want);
    put_file(bad, "hello", 5);
    snprintf(want, sizeof(want), "%s: not a compiled graph (5 bytes, shorter than its head)", bad);
    expect_open(bad, src, -1, want);
    put_file(bad, text, strlen(text)); /* the JSON itself */
    snprintf(want, sizeof(want), "%s: not a compiled graph (it does not start with PTOSIMGC)", bad);
    expect_open(bad, src, -1, want);

    gcomp_head x = h;
    x.format = GCOMP_FORMAT + 1;
    memcpy(c, &x, sizeof(x));
    put_file(bad, c, n);
    snprintf(want, sizeof(want), "%s: compiled graph format %d; this ptosim reads format %d", bad,
             GCOMP_FORMAT + 1, GCOMP_FORMAT);
    expect_open(bad, src, -1, want);

    x = h;
    x.layout ^= 1;
    memcpy(c, &x, sizeof(x));
    put_file(bad, c, n);
    snprintf(want, sizeof(want),
             "%s: compiled by a ptosim built with another record layout (%016llx; this one has %016llx)", bad,
             (unsigned long long)x.layout, (unsigned long long)h.layout);
    expect_open(bad, src, -1, want);

    memcpy(c, &h, sizeof(h));
    put_file(bad, c, n - 8);
    snprintf(want, sizeof(want), "%s: %zu bytes where its head says %zu: the file is cut short", bad, n - 8,
             n);
    expect_open(bad, src, -1, want);
    memset(c + n, 0, 8);
    put_file(bad, c, n + 8);
    snprintf(want, sizeof(want), "%s: %zu bytes where its head says %zu: the file is longer than written",
             bad, n + 8, n);
    expect_open(bad, src, -1, want);

    c[GCOMP_HEAD_BYTES + 8] ^= 0x40; /* a bit of the first record's line number */
    put_file(bad, c, n);
    snprintf(want, sizeof(want), "%s: damaged: its records do not match the hash in its head", bad);
    expect_open(bad, src, -1, want);

    /* a record whose counts do not add up, under a hash that vouches for it: the reader stops there */
    c[GCOMP_HEAD_BYTES + 8] ^= 0x40;
    gcomp_hasher hs;
    /* the first record is a submit without a cost: its head and task parts, 8-byte aligned, then nargs */
    size_t counts = ((offsetof(graph_op, site) + 7) & ~(size_t)7) +
                    ((offsetof(graph_op, cost) - offsetof(graph_op, label) + 7) & ~(size_t)7);
    int32_t nargs;
    memcpy(&nargs, c + GCOMP_HEAD_BYTES + counts, sizeof(nargs));
    ck_assert_int_eq(nargs, 2); /* chain3's first task has two arguments: the offset is right */
    nargs = 99;                 /* past GRAPH_MAX_TENSOR_ARGS */
    memcpy(c + GCOMP_HEAD_BYTES + counts, &nargs, sizeof(nargs));
    gcomp_hash_init(&hs);
    gcomp_hash_update(&hs, c + GCOMP_HEAD_BYTES, n - GCOMP_HEAD_BYTES);
    x = h;
    x.rec_hash = gcomp_hash_final(&hs);
    memcpy(c, &x, sizeof(x));
    put_file(bad, c, n);
    {
        gcomp gc;
        ck_assert_int_eq(gcomp_open(&gc, bad, src, err, sizeof(err)), 0);
        graph g;
        graph_op *op = malloc(sizeof(*op));
        ck_assert_int_eq(graph_open(&g, src, err, sizeof(err)), 0);
        gcomp_cursor cur = {.gc = &gc};
        ck_assert_int_eq(gcomp_next(&cur, &g, op, err, sizeof(err)), -1);
        snprintf(want, sizeof(want), "compiled graph of %s: the record at byte %d is not whole", src,
                 GCOMP_HEAD_BYTES);
        ck_assert_str_eq(err, want);
        gcomp_cursor_free(&cur);
        graph_close(&g);
        free(op);
        gcomp_close(&gc);
    }

    /* the source edited since: a line more; the same size with other bytes (its time kept, as cp -p or
     * rsync -t leave it); then the same bytes written again (only the time differs) */
    size_t len = strlen(text);
    char *more = malloc(len + 64);
    snprintf(more, len + 64, "%s{\"op\": \"scope_begin\"}\n{\"op\": \"scope_end\"}\n", text);
    put_file(src, more, strlen(more));
    snprintf(want, sizeof(want), "%s does not match %s: it has %zu bytes, the graph compiled there had %zu",
             src, good, strlen(more), len);
    expect_open(good, src, GCOMP_STALE, want);
    struct stat st;
    char *same = strdup(text);
    char *cyc = strstr(same, "18000");
    ck_assert_ptr_nonnull(cyc);
    cyc[0] = '9'; /* 98000 cycles: as long, another graph */
    put_file(src, same, len);
    struct timespec was[2] = {{.tv_sec = h.src_mtime_s, .tv_nsec = h.src_mtime_ns},
                              {.tv_sec = h.src_mtime_s, .tv_nsec = h.src_mtime_ns}};
    ck_assert_int_eq(utimensat(AT_FDCWD, src, was, 0), 0);
    ck_assert_int_eq(stat(src, &st), 0);
    ck_assert_int_eq(st.st_mtim.tv_sec, h.src_mtime_s); /* size and time as compiled */
    ck_assert_int_eq(st.st_mtim.tv_nsec, h.src_mtime_ns);
    uint64_t now;
    ck_assert_int_eq(gcomp_hash_file(src, &now), 0);
    snprintf(
        want, sizeof(want),
        "%s does not match %s: its bytes hash to %016llx, the graph compiled there hashed to %016llx (same "
        "size, %zu bytes)",
        src, good, (unsigned long long)now, (unsigned long long)h.src_hash, len);
    expect_open(good, src, GCOMP_STALE, want);
    put_file(src, text, len);
    struct timespec times[2] = {{.tv_sec = 1000000000}, {.tv_sec = 1000000000}};
    ck_assert_int_eq(utimensat(AT_FDCWD, src, times, 0), 0);
    gcomp gc;
    ck_assert_msg(gcomp_open(&gc, good, src, err, sizeof(err)) == 0, "%s",
                  err); /* same bytes: it is the graph */
    gcomp_close(&gc);
    free(same);
    free(more);
    free(c);
    free(src);
    free(text);
}
END_TEST

/* ---- forged records: each is range-checked as graph_next checks a line ---- */

/* A graph with every kind of record: a scope; a submit with a pipe cost, an input, an output and a scalar;
 * a view of that output with a dep on its label; an alloc; a dummy writing data into what the alloc made;
 * user code. */
static const char FORGE_GRAPH[] =
    "{\"ptosim_graph\": 1, \"name\": \"forge\", \"kernels\": [{\"id\": 0, \"name\": \"v\", \"core\": "
    "\"aiv\", "
    "\"cost\": {\"ns\": 1000}}, {\"id\": 5, \"name\": \"c\", \"core\": \"aic\", \"cost\": {\"ns\": 1000}}], "
    "\"tensors\": [{\"name\": \"x\", \"dtype\": \"FLOAT32\", \"shape\": [64]}]}\n"
    "{\"op\": \"scope_begin\"}\n"
    "{\"op\": \"submit\", \"id\": \"a\", \"kernel\": \"v\", \"cost\": {\"tiles\": 2, \"vector\": {\"elems\": "
    "128}}, \"args\": [{\"dir\": \"in\", \"tensor\": \"x\"}, {\"dir\": \"out\", \"tensor\": \"t\", "
    "\"dtype\": "
    "\"FLOAT16\", \"shape\": [8, 8]}, {\"scalar\": 3}]}\n"
    "{\"op\": \"submit\", \"kernel\": \"v\", \"deps\": [\"a\"], \"args\": [{\"dir\": \"in\", \"tensor\": "
    "\"t\", "
    "\"shape\": [4, 8]}]}\n"
    "{\"op\": \"alloc\", \"id\": \"al\", \"tensors\": [{\"name\": \"u\", \"dtype\": \"INT8\", \"shape\": "
    "[4]}]}\n"
    "{\"op\": \"dummy\", \"deps\": [\"al\"], \"args\": [{\"dir\": \"inout\", \"tensor\": \"u\", \"data\": "
    "[1, 2, 3, "
    "4]}]}\n"
    "{\"op\": \"user_code\", \"ns\": 5}\n"
    "{\"op\": \"scope_end\"}\n";

/* Copies compiled graph good to bad with record k (0 = the first) changed by edit (which may change its
 * length), the head's length and hash made to match, so gcomp_open takes it (the hash is not a
 * signature). Returns the record's byte offset. */
static size_t forge_record(const char *good, const char *bad, int k, void (*edit)(graph_op *))
{
    unsigned char *c;
    get_file(good, &c);
    gcomp_head h;
    memcpy(&h, c, sizeof(h));
    graph_op *op = malloc(sizeof(*op));
    oprec_buf b = {0};
    size_t pos = 0, at = 0;
    for (int i = 0; pos < h.rec_bytes; i++) {
        if (i == k)
            at = b.used;
        oprec_read(c + GCOMP_HEAD_BYTES, &pos, op);
        if (i == k)
            edit(op);
        ck_assert_int_eq(oprec_append(&b, op, 0), 0); /* deps and data still point into c */
    }
    h.rec_bytes = b.used;
    gcomp_hasher hs;
    gcomp_hash_init(&hs);
    gcomp_hash_update(&hs, b.buf, b.used);
    h.rec_hash = gcomp_hash_final(&hs);
    FILE *f = fopen(bad, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fwrite(&h, sizeof(h), 1, f), 1);
    ck_assert_int_eq(fwrite(b.buf, 1, b.used, f), b.used);
    ck_assert_int_eq(fclose(f), 0);
    free(b.buf);
    free(op);
    free(c);
    return at + GCOMP_HEAD_BYTES;
}

/* Reads the compiled graph path of src: the ngood records before the forged one are given, then gcomp_next
 * fails with exactly want, and again when asked again. */
static void expect_record_error(const char *path, const char *src, int ngood, const char *want)
{
    gcomp gc;
    char err[GRAPH_ERR_MAX];
    ck_assert_msg(gcomp_open(&gc, path, src, err, sizeof(err)) == 0, "%s", err);
    graph g;
    graph_op *op = malloc(sizeof(*op));
    ck_assert_int_eq(graph_open(&g, src, err, sizeof(err)), 0);
    gcomp_cursor cur = {.gc = &gc};
    for (int i = 0; i < ngood; i++)
        ck_assert_msg(gcomp_next(&cur, &g, op, err, sizeof(err)) == 1, "record %d: %s", i, err);
    ck_assert_msg(gcomp_next(&cur, &g, op, err, sizeof(err)) == -1, "not refused: %s", want);
    ck_assert_str_eq(err, want);
    ck_assert_int_eq(gcomp_next(&cur, &g, op, err, sizeof(err)), -1);
    ck_assert_str_eq(err, want);
    gcomp_cursor_free(&cur);
    graph_close(&g);
    free(op);
    gcomp_close(&gc);
}

/* The forgeries, each named for what it does to the record. */
#define FORGE(name, ...)                                                                                     \
    static void name(graph_op *op)                                                                           \
    {                                                                                                        \
        __VA_ARGS__;                                                                                         \
    }
FORGE(unchanged, (void)op)
FORGE(line_goes_back, op->line = 2)
FORGE(flag_neither_0_nor_1, memset(&op->predicate, 2, 1))
FORGE(site_not_terminated, memset(op->site, 'a', sizeof(op->site)))
FORGE(scope_with_a_cost, op->has_cost = true; op->cost = (graph_cost){.kind = COST_NS, .value = 1})
FORGE(user_code_too_long, op->user_ns = 1000000000000001ULL)
FORGE(user_code_to_scope_end, op->kind = OP_SCOPE_END)
FORGE(user_code_to_scope_begin, op->kind = OP_SCOPE_BEGIN; snprintf(op->site, sizeof(op->site), "s:1"))
FORGE(scope_end_to_user_code, op->kind = OP_USER_CODE)
FORGE(zero_blocks, op->block_num = 0)
FORGE(kernel_not_in_table, op->kernel_ids[1] = 977)
FORGE(kernel_on_the_wrong_core, op->kernel_ids[0] = 0)
FORGE(no_kernel, op->kernel_ids[1] = -1)
FORGE(a_mix_with_pipe_costs, op->kernel_ids[0] = 5)
FORGE(cost_of_no_kind, op->cost.kind = (cost_kind)9)
FORGE(flat_cost_too_big, op->cost = (graph_cost){.kind = COST_CYCLES, .value = 1000000000000001ULL})
FORGE(cost_flag_neither_0_nor_1, memset(&op->cost.pipe.scalar_given, 2, 1))
FORGE(aic_pipes_for_an_aiv_kernel, op->cost.pipe.aic = true)
FORGE(no_tiles, op->cost.pipe.tiles = 0)
FORGE(measured_at_5_hz, op->cost.pipe.measured = true; op->cost.pipe.measured_hz = 5)
FORGE(work_on_a_pipe_the_core_lacks, op->cost.pipe.work.cycles[PIPE_CUBE] = 5)
FORGE(rate_too_low, op->cost.pipe.work.gib_per_s[PIPE_MTE2] = 0.0001)
FORGE(cube_too_wide, op->cost.pipe.work.mnk[0] = 1u << 21)
FORGE(vector_elements_of_9_bytes, op->cost.pipe.work.vec_elem_bytes = 9)
FORGE(buffers_overflow_the_ub, op->cost.pipe.work.bytes[PIPE_MTE2] = 100000)
FORGE(label_past_those_bound, op->label = 5)
FORGE(scalar_of_no_dtype, op->scalars[0].dtype = 99)
FORGE(no_dimensions, op->args[0].ndim = 0)
FORGE(output_of_no_dtype, op->args[1].dtype = 99)
FORGE(arg_flag_neither_0_nor_1, memset(&op->args[0].manual_dep, 2, 1))
FORGE(shape_of_zero, op->args[0].shape[0] = 0)
FORGE(view_past_2_53_bytes, op->args[0].shape[0] = 1LL << 52)
FORGE(negative_version, op->args[0].version = -1)
FORGE(offset_past_2_53, op->args[0].start_offset = 1ULL << 54)
FORGE(output_skips_a_slot, op->args[1].tensor = 3)
FORGE(output_of_the_wrong_storage, op->args[1].buffer_numel = 7)
FORGE(two_outputs_of_one_slot, op->args[0] = op->args[1])
FORGE(output_strides_past_its_end, op->args[1].strides[0] = 100)
FORGE(view_of_an_unbound_slot, op->args[0].tensor = 5)
FORGE(direction_out_of_range, op->args[0].dir = (graph_dir)7)
FORGE(dep_on_an_unbound_label, op->deps[0].label = 4)
FORGE(dep_on_ring_5, op->deps[0].label = -1; op->deps[0].raw_id = 5ULL << 32)
FORGE(view_past_its_tensor, op->args[0].start_offset = 40) /* 40 + 3 * 8 + 7 = 71 of 64 elements */
FORGE(view_of_another_dtype, op->args[0].dtype = DT_FLOAT32)
static const double THIRTY_TWO[32]; /* values for data_for_an_input */
FORGE(data_for_an_input, op->args[0].ndata = 32; op->args[0].data = THIRTY_TWO)
FORGE(submit_to_user_code, op->kind = OP_USER_CODE)
FORGE(submit_to_alloc, op->kind = OP_ALLOC; op->kernel_ids[1] = -1)
FORGE(alloc_of_a_view, op->args[0].dir = DIR_IN)
FORGE(alloc_with_a_kernel, op->kernel_ids[1] = 0)
FORGE(alloc_with_a_cost, op->has_cost = true; op->cost = (graph_cost){.kind = COST_NS, .value = 1})
FORGE(data_of_another_length, op->args[0].ndata = 3)
#undef FORGE

/* A record with an index, a count, a flag, a view, a dep or a cost out of range, under a hash recomputed to
 * match, is refused with the field and why (the forged sweep folders of gcomp_forged_segv.sh crashed), and
 * so are scopes the records leave unbalanced. */
START_TEST(a_forged_record_is_refused_naming_its_field)
{
    const char *dir = tu_tmpdir();
    char *src = tu_write(dir, "g.jsonl", FORGE_GRAPH), good[4096], bad[4200], want[8192], err[GRAPH_ERR_MAX];
    snprintf(good, sizeof(good), "%s/g.compiled", dir);
    snprintf(bad, sizeof(bad), "%s/bad.compiled", dir);
    ck_assert_msg(gcomp_compile(src, good, err, sizeof(err)) == 0, "%s", err);
    /* records: 0 scope_begin (line 2), 1 submit a (3), 2 submit (4), 3 alloc (5), 4 dummy (6), 5 user_code
     * (7), 6 scope_end (8); tensor slots x 0, t 1 (FLOAT16 [8, 8]: 64 elements in 512 of storage), u 2 */
    static const struct {
        int rec;                  /* the forged record */
        void (*edit)(graph_op *); /* the forgery */
        long line;                /* the line the record then claims */
        const char *why;          /* FIELD: what (%s: the graph) */
    } cases[] = {
        {1, line_goes_back, 2, "line: 2 after line 2"},
        {1, flag_neither_0_nor_1, 3, "op: a flag is neither 0 nor 1"},
        {0, site_not_terminated, 2, "site: not terminated within 64 bytes"},
        {0, scope_with_a_cost, 2, "op: a scope or user_code record with arguments, deps or a cost"},
        {5, user_code_too_long, 7, "ns: 1000000000000001 is more than 1e15"},
        {1, zero_blocks, 3, "block_num: 0 is not in [1, 32767]"},
        {1, kernel_not_in_table, 3, "kernels[1]: func id 977 is not in the kernel table of %s"},
        {1, kernel_on_the_wrong_core, 3, "kernels[0]: kernel 'v' is aiv but slot 0 runs on aic"},
        {1, no_kernel, 3, "kernels: a submit with no active kernel"},
        {1, a_mix_with_pipe_costs, 3, "cost: a MIX task's cost override must be flat"},
        {1, cost_of_no_kind, 3, "cost: kind 9 is none of cycles, ns or pipes"},
        {1, flat_cost_too_big, 3, "cost: 1000000000000001 is more than 1e15"},
        {1, cost_flag_neither_0_nor_1, 3, "cost: a flag is neither 0 nor 1"},
        {1, aic_pipes_for_an_aiv_kernel, 3, "cost: pipes of the AIC for a kernel on the AIV"},
        {1, no_tiles, 3, "cost: 0 tiles, 2 buffers (1..1000000, 1..16)"},
        {1, measured_at_5_hz, 3, "cost: a measured clock of 5 Hz or 0 cycles out of range"},
        {1, work_on_a_pipe_the_core_lacks, 3, "cost: pipe cube: 5 cycles, 0 bytes out of range"},
        {1, rate_too_low, 3, "cost: pipe mte2: a rate of 0.0001 GiB/s (0, or 0.001 .. 1000000)"},
        {1, cube_too_wide, 3, "cost: cube m, n or k 2097152 is more than 1048576"},
        {1, vector_elements_of_9_bytes, 3, "cost: vector or cube work out of range"},
        {1, buffers_overflow_the_ub, 3, "cost: 2 buffers of a tile do not fit the AIV's UB"},
        {1, label_past_those_bound, 3, "id: label slot 5 (0 bound)"},
        {1, scalar_of_no_dtype, 3, "scalars[0]: dtype 99, or a flag neither 0 nor 1"},
        {1, no_dimensions, 3, "args[0]: 0 dimensions (1..5)"},
        {1, output_of_no_dtype, 3, "args[1]: dtype 99 is not an element type"},
        {1, arg_flag_neither_0_nor_1, 3, "args[0]: a flag is neither 0 nor 1"},
        {1, shape_of_zero, 3, "args[0]: shape 0 or stride 1 in dimension 0 is not positive"},
        {1, view_past_2_53_bytes, 3, "args[0]: the view is more than 2^53 bytes"},
        {1, negative_version, 3, "args[0]: version -1 is negative"},
        {1, offset_past_2_53, 3, "args[0]: offset 18014398509481984 or storage 64 past 2^53"},
        {1, output_skips_a_slot, 3, "args[1]: an output to tensor slot 3 (outputs bind slots 1..1)"},
        {1, output_of_the_wrong_storage, 3,
         "args[1]: a created tensor of 64 elements with offset 0 and storage 7"},
        {1, two_outputs_of_one_slot, 3, "args[1]: tensor slot 1 is created twice by one task"},
        {1, output_strides_past_its_end, 3,
         "args[1]: a created tensor of 64 elements whose strides reach element 707"},
        {2, view_of_an_unbound_slot, 4, "args[0]: tensor slot 5 is not bound (2 slots)"},
        {2, direction_out_of_range, 4,
         "args[0]: direction 7 is none of in, out, inout, out_existing, no_dep"},
        {2, dep_on_an_unbound_label, 4, "deps[0]: label slot 4 (1 bound)"},
        {2, dep_on_ring_5, 4, "deps[0]: task id 21474836480 names ring 5 (rings are 0..3)"},
        {2, view_past_its_tensor, 4, "args[0]: the view reaches element 71 but tensor slot 1 has 64"},
        {2, view_of_another_dtype, 4,
         "args[0]: a view of dtype 0 and storage 512 of tensor slot 1 (dtype 1, storage 512)"},
        {2, data_for_an_input, 4, "args[0]: 32 data values for a view of 32 elements (direction in)"},
        {2, submit_to_user_code, 4, "op: a scope or user_code record with arguments, deps or a cost"},
        {2, submit_to_alloc, 4, "tensors: an alloc of 1 tensors with 0 scalars and 1 deps"},
        {3, alloc_of_a_view, 5, "args[0]: an alloc creates tensors: direction in"},
        {3, alloc_with_a_kernel, 5, "kernels: an alloc with a kernel"},
        {3, alloc_with_a_cost, 5, "cost: only a submit overrides its cost"},
        {4, alloc_with_a_kernel, 6, "kernels: a dummy with a kernel"},
        {4, data_of_another_length, 6, "args[0]: 3 data values for a view of 4 elements (direction inout)"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        size_t at = forge_record(good, bad, cases[i].rec, cases[i].edit);
        char why[1024];
        snprintf(why, sizeof(why), cases[i].why, src);
        snprintf(want, sizeof(want), "%s: the record at byte %zu (line %ld of %s) is out of range: %s", bad,
                 at, cases[i].line, src, why);
        expect_record_error(bad, src, cases[i].rec, want);
    }
    /* user code made a scope_end: the scope_end after it closes nothing */
    size_t last = forge_record(good, bad, 6, unchanged);
    forge_record(good, bad, 5, user_code_to_scope_end);
    snprintf(want, sizeof(want),
             "%s: the record at byte %zu (line 8 of %s) is out of range: op: scope_end without a matching "
             "scope_begin",
             bad, last, src);
    expect_record_error(bad, src, 6, want);
    /* the last scope_end made user code: the records end inside the scope */
    forge_record(good, bad, 6, scope_end_to_user_code);
    snprintf(want, sizeof(want), "%s: its records of %s end with 1 scope(s) open", bad, src);
    expect_record_error(bad, src, 7, want);
    /* 63 scopes open, as deep as the text reader lets them: a 64th (user code made a scope_begin) is one
     * too many */
    size_t cap = 64 * 64 + 256;
    char *deep = malloc(cap);
    size_t n = (size_t)snprintf(deep, cap, "{\"ptosim_graph\": 1, \"name\": \"deep\", \"kernels\": []}\n");
    for (int i = 0; i < 63; i++)
        n += (size_t)snprintf(deep + n, cap - n, "{\"op\": \"scope_begin\"}\n");
    n += (size_t)snprintf(deep + n, cap - n, "{\"op\": \"user_code\", \"ns\": 1}\n");
    for (int i = 0; i < 63; i++)
        n += (size_t)snprintf(deep + n, cap - n, "{\"op\": \"scope_end\"}\n");
    char *dsrc = tu_write(dir, "deep.jsonl", deep);
    ck_assert_msg(gcomp_compile(dsrc, good, err, sizeof(err)) == 0, "%s", err);
    size_t at = forge_record(good, bad, 63, user_code_to_scope_begin);
    snprintf(want, sizeof(want),
             "%s: the record at byte %zu (line 65 of %s) is out of range: op: scopes nest deeper than 64 "
             "(PTO2_MAX_SCOPE_DEPTH, the root scope included)",
             bad, at, dsrc);
    expect_record_error(bad, dsrc, 63, want);
    free(dsrc);
    free(deep);
    free(src);
}
END_TEST

/* The hash is the same however its input is cut into pieces, and changes with any bit or with the length. */
START_TEST(the_hash_does_not_depend_on_how_the_input_is_cut)
{
    unsigned char data[1001];
    for (size_t i = 0; i < sizeof(data); i++)
        data[i] = (unsigned char)(i * 131 + 7);
    gcomp_hasher h;
    gcomp_hash_init(&h);
    gcomp_hash_update(&h, data, sizeof(data));
    uint64_t whole = gcomp_hash_final(&h);
    for (size_t piece = 1; piece <= 40; piece++) {
        gcomp_hash_init(&h);
        for (size_t at = 0; at < sizeof(data); at += piece)
            gcomp_hash_update(&h, data + at, at + piece <= sizeof(data) ? piece : sizeof(data) - at);
        ck_assert_uint_eq(gcomp_hash_final(&h), whole);
    }
    data[500] ^= 1;
    gcomp_hash_init(&h);
    gcomp_hash_update(&h, data, sizeof(data));
    ck_assert_uint_ne(gcomp_hash_final(&h), whole);
    data[500] ^= 1;
    gcomp_hash_init(&h);
    gcomp_hash_update(&h, data, sizeof(data) - 1); /* the last byte, as if it were a zero of padding */
    gcomp_hash_update(&h, "", 0);
    uint64_t shorter = gcomp_hash_final(&h);
    ck_assert_uint_ne(shorter, whole);
    unsigned char z[8] = {0};
    memcpy(z, data + 1000, 1);
    gcomp_hash_init(&h);
    gcomp_hash_update(&h, data, 1000);
    gcomp_hash_update(&h, z, 1);
    ck_assert_uint_eq(gcomp_hash_final(&h), whole);
    gcomp_hash_update(&h, z + 1, 1); /* a trailing zero byte is a different input */
    ck_assert_uint_ne(gcomp_hash_final(&h), whole);
}
END_TEST

Suite *suite_graph(void)
{
    Suite *s = suite_create("graph");
    TCase *tc = tcase_create("reader");
    tcase_add_test(tc, valid_graph_streams_every_operation);
    tcase_add_test(tc, large_addresses_are_read_from_strings);
    tcase_add_test(tc, inputs_see_the_binding_before_an_output_rebinds_the_name);
    tcase_add_test(tc, names_that_share_a_lookup_cache_entry_keep_their_own_tensors);
    tcase_add_test(tc, memory_is_bounded_by_distinct_names_not_by_lines);
    tcase_add_test(tc, a_long_line_does_not_keep_its_memory_for_the_lines_after_it);
    tcase_add_test(tc, bad_json_is_rejected_with_its_column);
    tcase_add_test(tc, a_key_given_twice_is_rejected_with_its_path);
    tcase_add_test(tc, strings_that_are_not_utf8_are_rejected_where_read);
    tcase_add_test(tc, a_number_beyond_a_double_is_rejected);
    tcase_add_test(tc, unknown_op_is_rejected);
    tcase_add_test(tc, wrong_field_type_is_rejected);
    tcase_add_test(tc, each_field_has_one_type_and_the_message_names_it);
    tcase_add_test(tc, unknown_field_is_rejected);
    tcase_add_test(tc, allow_early_resolve_is_the_runtimes_name_of_early_resolve);
    tcase_add_test(tc, unknown_kernel_is_rejected);
    tcase_add_test(tc, missing_required_field_is_rejected);
    tcase_add_test(tc, bad_direction_is_rejected);
    tcase_add_test(tc, scope_end_without_begin_is_rejected);
    tcase_add_test(tc, unclosed_scope_is_rejected_at_its_begin_line);
    tcase_add_test(tc, repeated_scope_lines_keep_their_depth_checks);
    tcase_add_test(tc, block_num_below_one_is_rejected);
    tcase_add_test(tc, negative_cost_is_rejected);
    tcase_add_test(tc, wrong_version_is_rejected);
    tcase_add_test(tc, references_to_unknown_names_are_rejected);
    tcase_add_test(tc, views_outside_their_tensor_are_rejected);
    tcase_add_test(tc, sizes_that_would_wrap_64_bits_are_rejected);
    tcase_add_test(tc, a_header_that_fails_after_tensor_data_frees_that_data);
    tcase_add_test(tc, header_problems_are_rejected);
    tcase_add_test(tc, missing_file_is_named);
    tcase_add_test(tc, long_lines_crlf_and_a_missing_final_newline_are_read);
    tcase_add_test(tc, read_ahead_gives_the_operations_graph_next_gives);
    tcase_add_test(tc, read_ahead_reports_the_first_error_even_past_where_the_run_stopped);
    tcase_add_test(tc, a_compiled_graph_gives_the_operations_graph_next_gives);
    tcase_add_test(tc, a_malformed_graph_is_not_compiled);
    tcase_add_test(tc, a_compiled_graph_that_does_not_fit_is_named);
    tcase_add_test(tc, a_forged_record_is_refused_naming_its_field);
    tcase_add_test(tc, the_hash_does_not_depend_on_how_the_input_is_cut);
    tcase_set_timeout(tc, 30);
    suite_add_tcase(s, tc);
    return s;
}
