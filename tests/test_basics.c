/* test_basics.c - unit tests of the small components: event heap, string table, queues, topology, time. */
/* And CSV. */
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../model/chip/aicore.h"
#include "../model/base/csv.h"
#include "../model/base/dtype.h"
#include "../model/engine/event_queue.h"
#include "../model/base/json_reader.h"
#include "../model/base/msg_text.h"
#include "../model/base/readall.h"
#include "../model/runtime/ready_queue.h"
#include "../model/base/simtime.h"
#include "../model/base/string_table.h"
#include "../model/runtime/task_slots.h"
#include "../model/runtime/tensor_map.h"
#include "../model/base/vec.h"
#include "../model/base/write_buffer.h"
#include "../sim/json/json_scan.h"
#include "testutil.h"

START_TEST(evq_pops_in_time_order_and_ties_in_insertion_order)
{
    evq q;
    ck_assert_int_eq(evq_init(&q, 2), 0);
    /* pushed out of order; two pairs share a time */
    uint64_t times[] = {50, 10, 30, 10, 50, 20};
    for (uint32_t i = 0; i < 6; i++)
        ck_assert_int_eq(evq_push(&q, times[i], 0, i, 0), 0);
    uint32_t want_who[] = {1, 3, 5, 2, 0, 4};
    uint64_t want_t[] = {10, 10, 20, 30, 50, 50};
    for (int i = 0; i < 6; i++) {
        evq_event ev;
        ck_assert_int_eq(evq_pop(&q, &ev), 0);
        ck_assert_uint_eq(ev.t, want_t[i]);
        ck_assert_uint_eq(ev.who, want_who[i]);
    }
    evq_event ev;
    ck_assert_int_eq(evq_pop(&q, &ev), -1);
    ck_assert_uint_eq(evq_peek_time(&q), PS_NEVER);
    evq_free(&q);
}
END_TEST

START_TEST(evq_stays_ordered_under_many_random_pushes)
{
    evq q;
    evq_init(&q, 4);
    uint64_t x = 12345;
    for (int i = 0; i < 10000; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        evq_push(&q, (x >> 33) % 1000, 0, 0, (uint64_t)i);
    }
    evq_event prev = {0}, ev;
    int n = 0;
    while (evq_pop(&q, &ev) == 0) {
        if (n)
            ck_assert(prev.t < ev.t || (prev.t == ev.t && prev.seq < ev.seq));
        prev = ev;
        n++;
    }
    ck_assert_int_eq(n, 10000);
    evq_free(&q);
}
END_TEST

START_TEST(evq_interleaved_pushes_and_pops_keep_time_then_insertion_order)
{
    /* a simulation pushes while it pops: every pop must return the least
     * (time, sequence) of what is queued, whichever of the front slot or
     * the heap holds it; a brute-force list is the reference */
    evq q;
    evq_init(&q, 4);
    evq_event ref[4096];
    int nref = 0;
    uint64_t x = 99, now = 0;
    for (int step = 0; step < 20000; step++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        if ((x >> 60) < 9 || nref == 0) { /* push, often at "now" or just after it */
            if (nref == 4096)
                continue;
            uint64_t t = now + ((x >> 40) % 3 == 0 ? 0 : (x >> 20) % 50);
            evq_push(&q, t, 0, 0, (uint64_t)step);
            ref[nref++] = (evq_event){.t = t, .arg = (uint64_t)step};
        } else {
            int best = 0;
            for (int i = 1; i < nref; i++)
                if (ref[i].t < ref[best].t || (ref[i].t == ref[best].t && ref[i].arg < ref[best].arg))
                    best = i;
            evq_event ev;
            ck_assert_int_eq(evq_pop(&q, &ev), 0);
            ck_assert_uint_eq(ev.t, ref[best].t);
            ck_assert_uint_eq(ev.arg, ref[best].arg);
            now = ev.t;
            ref[best] = ref[--nref];
            uint64_t least = PS_NEVER;
            for (int i = 0; i < nref; i++)
                least = ref[i].t < least ? ref[i].t : least;
            ck_assert_uint_eq(evq_peek_time(&q), least);
        }
    }
    evq_free(&q);
}
END_TEST

/* Parses text with both parsers and compares what cJSON prints for each. */
static void same_as_cjson(const char *text)
{
    jsonl_error e;
    cJSON *a = jsonl_parse(text, strlen(text), &e), *b = cJSON_Parse(text);
    ck_assert_msg(a && b, "%s: jsonl %s, cJSON %s", text, a ? "ok" : "failed", b ? "ok" : "failed");
    char *pa = cJSON_PrintUnformatted(a), *pb = cJSON_PrintUnformatted(b);
    ck_assert_str_eq(pa, pb);
    cJSON_free(pa);
    cJSON_free(pb);
    cJSON_Delete(a);
    cJSON_Delete(b);
}

START_TEST(the_line_parser_builds_what_cjson_builds)
{
    same_as_cjson("{\"op\": \"submit\", \"kernel\": \"vadd\", \"block_num\": 48}");
    same_as_cjson(" { \"a\" : [1, -2, 3.5, 1e3, -0.25E-2, 123456789012345678, 9007199254740993] } ");
    same_as_cjson("{\"s\": \"tab\\there \\\"q\\\" \\\\ \\/ \\u00e9 \\ud83d\\ude00\", \"t\": true, \"f\": "
                  "false, \"n\": null}");
    same_as_cjson("[[], {}, [[[{}]]], {\"x\": {\"y\": [true]}}]");
    same_as_cjson("\"just a string\"");
    /* valueint saturates like cJSON's */
    cJSON *v = jsonl_parse("[5000000000, -5000000000, 7]", 28, NULL);
    ck_assert_int_eq(cJSON_GetArrayItem(v, 0)->valueint, 2147483647);
    ck_assert_int_eq(cJSON_GetArrayItem(v, 1)->valueint, -2147483647 - 1);
    ck_assert_int_eq(cJSON_GetArrayItem(v, 2)->valueint, 7);
    cJSON_Delete(v);
}
END_TEST

/* The doc of text, and the doc of the tree jsonl_parse builds of it, value by value. */
static void doc_same_as_tree(jsonl_doc *doc, const char *text)
{
    jsonl_doc via;
    jsonl_doc_init(&via);
    cJSON *t = jsonl_parse(text, strlen(text), NULL);
    const jsonl_val *a = jsonl_doc_parse(doc, text, strlen(text), NULL), *b = jsonl_doc_from_cjson(&via, t);
    ck_assert_msg(a && b, "%s", text);
    ck_assert_uint_eq(doc->nv, via.nv);
    for (size_t i = 0; i < doc->nv; i++) {
        ck_assert_int_eq(a[i].type, b[i].type);
        ck_assert_uint_eq(a[i].span, b[i].span);
        ck_assert_uint_eq(a[i].count, b[i].count);
        ck_assert_str_eq(a[i].key ? a[i].key : "(none)", b[i].key ? b[i].key : "(none)");
        ck_assert_uint_eq(a[i].klen, b[i].klen);
        ck_assert_uint_eq(a[i].klen, a[i].key ? strlen(a[i].key) : 0);
        if (a[i].type == JSONL_STRING)
            ck_assert_str_eq(a[i].str, b[i].str);
        if (a[i].type == JSONL_NUMBER)
            ck_assert(a[i].num == b[i].num);
    }
    cJSON_Delete(t);
    jsonl_doc_free(&via);
}

START_TEST(the_doc_parser_reads_a_line_as_flat_values_in_document_order)
{
    jsonl_doc doc;
    jsonl_doc_init(&doc);
    /* a long line first: the doc keeps its room, and the next line's values replace its own */
    doc_same_as_tree(&doc, " { \"a\" : [1, -2, 3.5, 1e3, -0.25E-2, 123456789012345678, 9007199254740993], "
                           "\"padding\": \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\" } ");
    doc_same_as_tree(&doc, "{\"s\": \"tab\\there \\\"q\\\" \\\\ \\/ \\u00e9 \\ud83d\\ude00\", \"t\": true, "
                           "\"f\": false, \"n\": null}");
    doc_same_as_tree(&doc, "[[], {}, [[[{}]]], {\"x\": {\"y\": [true]}}]");
    doc_same_as_tree(&doc, "\"just a string\"");
    /* spans skip a member's subtree; JSONL_FOREACH walks the members only */
    const char *line =
        "{\"op\": \"submit\", \"args\": [{\"dir\": \"in\", \"shape\": [4, 8]}, {\"scalar\": 2}], "
        "\"block_num\": 48}";
    const jsonl_val *v = jsonl_doc_parse(&doc, line, strlen(line), NULL);
    ck_assert_ptr_nonnull(v);
    ck_assert_int_eq(v->type, JSONL_OBJECT);
    ck_assert_uint_eq(v->count, 3);
    ck_assert_uint_eq(v->span, doc.nv);
    const char *keys[3] = {"op", "args", "block_num"};
    const jsonl_val *it;
    int k = 0;
    JSONL_FOREACH(it, v)
    {
        ck_assert_str_eq(it->key, keys[k++]);
    }
    ck_assert_int_eq(k, 3);
    const jsonl_val *args = v + 2; /* after "op" */
    ck_assert_int_eq(args->type, JSONL_ARRAY);
    ck_assert_uint_eq(args->count, 2);
    ck_assert_ptr_null(args[1].key);
    ck_assert_str_eq(args[1 + args[1].span].key ? "keyed" : "entry", "entry");
    ck_assert_int_eq(args[1 + args[1].span].type, JSONL_OBJECT);
    ck_assert_double_eq(v[v->span - 1].num, 48);
    ck_assert_str_eq(v[1].str, "submit");
    ck_assert_uint_eq(v[1].count, 6);
    /* each member's key length: "op" 2, "args" 4, "block_num" 9; an array's entries and the top have none */
    ck_assert_uint_eq(v[0].klen, 0);
    ck_assert_uint_eq(v[1].klen, 2);
    ck_assert_uint_eq(args->klen, 4);
    ck_assert_uint_eq(args[1].klen, 0);
    ck_assert_uint_eq(args[2].klen, 3); /* "dir" */
    ck_assert_uint_eq(v[v->span - 1].klen, 9);
    /* the decoded key's bytes: k, U+00E9 (2 bytes of UTF-8), y */
    const char *esc = "{\"k\\u00e9y\": 1}";
    const jsonl_val *e = jsonl_doc_parse(&doc, esc, strlen(esc), NULL);
    ck_assert_ptr_nonnull(e);
    ck_assert_str_eq(e[1].key, "k\xc3\xa9y");
    ck_assert_uint_eq(e[1].klen, 4);
    /* nothing to walk in a scalar or a NULL */
    const jsonl_val *none = NULL;
    k = 0;
    JSONL_FOREACH(it, v + 1)
    {
        k++;
    }
    JSONL_FOREACH(it, none)
    {
        k++;
    }
    ck_assert_int_eq(k, 0);
    jsonl_doc_free(&doc);
}
END_TEST

START_TEST(a_number_with_a_fraction_or_an_exponent_reads_as_strtod_reads_it)
{
    /* up to 15 significant digits and 10^22 either way are read without strtod (one correctly rounded
     * multiplication or division); the rest go to strtod: every one must be strtod's double to the bit */
    static const struct {
        const char *text;
        double want; /* the value, written by hand */
    } nums[] = {
        {"0.0883883476", 0.0883883476},
        {"0.3", 0.3}, /* 3 / 10, not 3 * 0.1 (0.30000000000000004) */
        {"-0.0", -0.0},
        {"0e5", 0.0},
        {"1.5e3", 1500.0},
        {"123.456e-3", 0.123456},
        {"1e22", 1e22},
        {"1e23", 1e23},                           /* past 10^22: strtod */
        {"0.000000000000000000000001", 1e-24},    /* past 10^-22 */
        {"1.234567890123456", 1.234567890123456}, /* 16 digits: strtod */
        {"999999999999999.9", 999999999999999.9},
        {"0.00000000000000000000001e22", 0.1}, /* leading zeros are not significant */
        {"5e-324", 5e-324},
        {"1.7976931348623157e308", 1.7976931348623157e308},
        {"-2.5E+2", -250.0},
        {"100000000000000000000000e-2", 1e21}, /* 24 digits */
    };
    jsonl_doc doc;
    jsonl_doc_init(&doc);
    for (size_t i = 0; i < sizeof(nums) / sizeof(*nums); i++) {
        const jsonl_val *v = jsonl_doc_parse(&doc, nums[i].text, strlen(nums[i].text), NULL);
        ck_assert_ptr_nonnull(v);
        ck_assert_int_eq(v->type, JSONL_NUMBER);
        double want = nums[i].want, lib = strtod(nums[i].text, NULL);
        ck_assert_msg(memcmp(&v->num, &want, sizeof(want)) == 0, "%s: %.17g, want %.17g", nums[i].text,
                      v->num, want);
        ck_assert_msg(memcmp(&v->num, &lib, sizeof(lib)) == 0, "%s: %.17g, strtod %.17g", nums[i].text,
                      v->num, lib);
        cJSON *c = jsonl_parse(nums[i].text, strlen(nums[i].text), NULL); /* the tree parser: the same */
        ck_assert_ptr_nonnull(c);
        ck_assert_msg(memcmp(&c->valuedouble, &want, sizeof(want)) == 0, "%s", nums[i].text);
        cJSON_Delete(c);
    }
    jsonl_doc_free(&doc);
}
END_TEST

START_TEST(the_line_parser_points_at_the_first_bad_byte)
{
    jsonl_doc doc; /* the doc parser, the same byte */
    jsonl_doc_init(&doc);
    static const struct {
        const char *text;
        int col; /* 0-based offset of the offending byte */
    } bad[] = {
        {"{\"op\": \"submit\", }", 17},
        {"{\"a\" 1}", 5},
        {"[1, 2", 5},
        {"{\"a\": tru}", 6},
        {"[01]", 2},
        {"[1.]", 3},
        {"[-]", 2},
        {"\"open", 5},
        {"{\"a\": 1} x", 9},
        {"[\"\\x\"]", 3},
        {"[\"\\u12G4\"]", 3},
        {"", 0},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
        jsonl_error e;
        cJSON *v = jsonl_parse(bad[i].text, strlen(bad[i].text), &e);
        ck_assert_msg(v == NULL, "accepted %s", bad[i].text);
        ck_assert_msg(e.at - bad[i].text == bad[i].col, "%s: error at %td, expected %d", bad[i].text,
                      e.at - bad[i].text, bad[i].col);
        ck_assert_ptr_null(e.what); /* plain bad syntax */
        jsonl_error de;
        ck_assert_ptr_null(jsonl_doc_parse(&doc, bad[i].text, strlen(bad[i].text), &de));
        ck_assert_ptr_eq(de.at, e.at);
        ck_assert_ptr_null(de.what);
    }
    jsonl_doc_free(&doc);
}
END_TEST

START_TEST(the_line_parser_names_what_a_lenient_reading_would_change_and_where)
{
    jsonl_doc jd;
    jsonl_doc_init(&jd);
    /* cJSON keeps both keys and every lookup finds the first; a bad byte or an
     * infinity would travel on into the outputs */
    static const struct {
        const char *text;
        int col;          /* 0-based offset of the offending byte */
        const char *what; /* why */
        const char *path; /* where */
    } bad[] = {
        {"{\"dup\": 1, \"dup\": 2}", 11, "duplicate key", "dup"},
        {"{\"a\\u0062\": 1, \"ab\": 2}", 15, "duplicate key", "ab"}, /* the same key, once escaped */
        {"{\"a\": [0, {\"b\": {\"c\": 1, \"c\": 2}}]}", 25, "duplicate key", "a[1].b.c"},
        {"[\"ok\", \"\xff\"]", 8, "invalid UTF-8 in a string", "[1]"},
        {"{\"k\": \"\xc3\"}", 7, "invalid UTF-8 in a string", "k"},
        {"{\"k\": \"\\udfff\"}", 7, "a lone surrogate \\u escape is not a character", "k"},
        {"{\"k\": [\"\\u0000\"]}", 8, "\\u0000 would cut the string short", "k[0]"},
        {"{\"k\": [1, 2e308]}", 10, "number out of range", "k[1]"},
        {"-1e999", 0, "number out of range", ""},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
        jsonl_error e;
        cJSON *v = jsonl_parse(bad[i].text, strlen(bad[i].text), &e);
        ck_assert_msg(v == NULL, "accepted %s", bad[i].text);
        ck_assert_msg(e.at - bad[i].text == bad[i].col, "%s: error at %td, expected %d", bad[i].text,
                      e.at - bad[i].text, bad[i].col);
        ck_assert_str_eq(e.what, bad[i].what);
        ck_assert_str_eq(e.path, bad[i].path);
        jsonl_error de; /* the doc parser: the same byte, reason and path */
        ck_assert_ptr_null(jsonl_doc_parse(&jd, bad[i].text, strlen(bad[i].text), &de));
        ck_assert_ptr_eq(de.at, e.at);
        ck_assert_str_eq(de.what, e.what);
        ck_assert_str_eq(de.path, e.path);
    }
    jsonl_doc_free(&jd);
    /* a line and column in a document of several lines */
    const char *doc = "{\n  \"a\": 1,\n  \"a\": 2\n}";
    jsonl_error e;
    ck_assert_ptr_null(jsonl_parse(doc, strlen(doc), &e));
    long line, col;
    jsonl_where(doc, e.at, &line, &col);
    ck_assert_int_eq(line, 3);
    ck_assert_int_eq(col, 3);
}
END_TEST

/* One lexer: the scanner refuses each token the parser refuses, at the same byte and for the same reason. */
START_TEST(the_scanner_lexes_as_the_parser_and_the_message_says_where)
{
    static const char *const bad[] = {
        "\"\xff\"", "\"\xc3\"", "\"\\udfff\"", "\"\\u0000\"",
        "2e308",    "-1e999",   "01",          "1.",
        "-",        "tru",      "\"\\x\"",     "\"\\u12G4\"",
        "\"open",   "nul",      "[1, 1e999]",  "{\"a\": \"\\ud800x\"}",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
        jsonl_error e, se;
        size_t n = strlen(bad[i]);
        ck_assert_ptr_null(jsonl_parse(bad[i], n, &e));
        jscan s;
        jscan_init(&s, bad[i], n);
        bool ok = jscan_skip(&s) && jscan_peek(&s) == 0;
        ck_assert_msg(!ok, "the scanner took %s", bad[i]);
        jscan_error(&s, &se);
        ck_assert_msg(se.at == e.at, "%s: scanner at %td, parser at %td", bad[i], se.at - bad[i],
                      e.at - bad[i]);
        ck_assert_msg(se.what == e.what || (se.what && e.what && strcmp(se.what, e.what) == 0), "%s", bad[i]);
    }
    /* what it reads: escapes decoded to UTF-8 as the parser does, cut to the buffer */
    const char *text =
        "[\"caf\\u00e9 \\ud83d\\ude00\", \"abcdef\", 01, -9223372036854775808, 1e3, 18446744073709551615]";
    jscan s;
    jscan_init(&s, text, strlen(text));
    char buf[32];
    ck_assert(jscan_eat(&s, '['));
    ck_assert(jscan_string(&s, buf, sizeof(buf)));
    ck_assert_str_eq(buf, "caf\xc3\xa9 \xf0\x9f\x98\x80");
    ck_assert(jscan_eat(&s, ','));
    ck_assert(jscan_string(&s, buf, 4));
    ck_assert_str_eq(buf, "abc");
    ck_assert(jscan_eat(&s, ','));
    int64_t v;
    uint64_t u;
    ck_assert(jscan_i64(&s, &v) && v == 0); /* a leading zero ends the number: "1" cannot follow it */
    ck_assert(!jscan_eat(&s, ','));
    s.p++;
    ck_assert(jscan_eat(&s, ','));
    ck_assert(jscan_i64(&s, &v));
    ck_assert(v == INT64_MIN);
    ck_assert(jscan_eat(&s, ','));
    ck_assert(!jscan_i64(&s, &v)); /* an exponent: not an integer */
    ck_assert(jscan_skip(&s));
    ck_assert(jscan_eat(&s, ','));
    ck_assert(jscan_u64(&s, &u));
    ck_assert(u == UINT64_MAX);
    ck_assert(jscan_eat(&s, ']'));
    /* the one message: FILE:LINE:COL: FIELD: WHAT */
    const char *doc = "{\n  \"a\": 1,\n  \"a\": 2\n}";
    jsonl_error e;
    char msg[256];
    ck_assert_ptr_null(jsonl_parse(doc, strlen(doc), &e));
    jsonl_message(msg, sizeof(msg), "f.json", doc, &e, 0);
    ck_assert_str_eq(msg, "f.json:3:3: a: duplicate key");
    ck_assert_ptr_null(jsonl_parse("[1,]", 4, &e));
    jsonl_message(msg, sizeof(msg), "f.json", "[1,]", &e, 0);
    ck_assert_str_eq(msg, "f.json:1:4: json: not valid JSON");
    jsonl_message(msg, sizeof(msg), "f.jsonl", "[1,]", &e, 7); /* line 7 of a JSON Lines file */
    ck_assert_str_eq(msg, "f.jsonl:7:4: json: not valid JSON");
    e.what = JSONL_OOM;
    jsonl_message(msg, sizeof(msg), "f.json", "[1,]", &e, 0);
    ck_assert_str_eq(msg, "f.json: out of memory");
}
END_TEST

START_TEST(strtab_gives_dense_slots_in_first_seen_order)
{
    strtab t;
    strtab_init(&t);
    char name[32];
    for (int i = 0; i < 1000; i++) {
        snprintf(name, sizeof(name), "tensor_%d", i);
        ck_assert_int_eq(strtab_intern(&t, name), i);
    }
    ck_assert_int_eq(strtab_intern(&t, "tensor_7"), 7); /* reuse keeps the slot */
    ck_assert_int_eq(strtab_find(&t, "tensor_999"), 999);
    ck_assert_int_eq(strtab_find(&t, "absent"), -1);
    ck_assert_str_eq(strtab_key(&t, 42), "tensor_42");
    ck_assert_uint_eq(t.count, 1000);
    strtab_free(&t);
}
END_TEST

START_TEST(readyq_is_fifo_across_growth)
{
    readyq q;
    readyq_init(&q);
    uint64_t id;
    for (uint64_t i = 0; i < 300; i++)
        readyq_push(&q, i);
    for (uint64_t i = 0; i < 100; i++) {
        readyq_pop(&q, &id);
        ck_assert_uint_eq(id, i);
    }
    for (uint64_t i = 300; i < 1000; i++) /* wraps, then grows */
        readyq_push(&q, i);
    for (uint64_t i = 100; i < 1000; i++) {
        ck_assert_int_eq(readyq_pop(&q, &id), 0);
        ck_assert_uint_eq(id, i);
    }
    ck_assert_int_eq(readyq_pop(&q, &id), -1);
    ck_assert_uint_eq(q.peak, 900);
    readyq_free(&q);
}
END_TEST

START_TEST(core_topology_matches_runtime_numbering)
{
    /* model/README.md §2.1: AIC c = c; AIV 24 + 2c, 24 + 2c + 1; cluster c -> thread c % 3 */
    core cores[72];
    core_topology(cores, 24, 3);
    ck_assert_int_eq(cores[5].type, CORE_AIC);
    ck_assert_int_eq(cores[5].cluster, 5);
    ck_assert_int_eq(cores[5].thread, 2);
    ck_assert_int_eq(cores[24 + 2 * 5].cluster, 5);
    ck_assert_int_eq(cores[24 + 2 * 5 + 1].cluster, 5);
    ck_assert_int_eq(cores[24 + 2 * 5 + 1].subslot, 2);
    ck_assert_int_eq(cores[24 + 2 * 5].thread, 2);
    ck_assert_int_eq(cores[71].type, CORE_AIV);
    ck_assert_int_eq(cores[71].thread, 23 % 3);
    /* the spec's sim-shaped example: 8 clusters, core_to_thread of core 8.. */
    core small[24];
    core_topology(small, 8, 3);
    int want[24] = {0, 1, 2, 0, 1, 2, 0, 1, 0, 0, 1, 1, 2, 2, 0, 0, 1, 1, 2, 2, 0, 0, 1, 1};
    for (int i = 0; i < 24; i++)
        ck_assert_int_eq(small[i].thread, want[i]);
}
END_TEST

START_TEST(dispatch_tokens_count_from_one_and_skip_reserved_band)
{
    core c = {0};
    ck_assert_uint_eq(core_next_reg(&c), 1);
    ck_assert_uint_eq(core_next_reg(&c), 2);
    c.last_reg = CORE_REG_RESERVED_LOW - 1;
    ck_assert_uint_eq(core_next_reg(&c), 1); /* 0x7FFFFFF0.. is reserved */
}
END_TEST

START_TEST(time_conversions_round_as_documented)
{
    ck_assert_uint_eq(ps_from_cycles(18000, 1800000000ULL), 10 * PS_PER_US);
    ck_assert_uint_eq(ps_from_cycles(1, 1800000000ULL), 556); /* 555.6 rounds to nearest */
    ck_assert_uint_eq(ticks_from_ps(19999, 50000000ULL), 0);  /* 20 ns per tick, floor */
    ck_assert_uint_eq(ticks_from_ps(20000, 50000000ULL), 1);
    ck_assert_uint_eq(cycles_from_ps(10 * PS_PER_US, 1800000000ULL), 18000);
}
END_TEST

START_TEST(dtype_names_and_sizes_follow_the_runtime_table)
{
    ck_assert_str_eq(dtype_name(DT_FLOAT32), "FLOAT32");
    ck_assert_int_eq(dtype_size(DT_BFLOAT16), 2);
    ck_assert_int_eq(dtype_parse("UINT64"), DT_UINT64);
    ck_assert_int_eq(dtype_parse("float32"), -1); /* upper case only */
    ck_assert_str_eq(dtype_name(99), "UNKNOWN");
}
END_TEST

START_TEST(task_links_deduplicate_and_or_flags)
{
    task t;
    memset(&t, 0, sizeof(t));
    ck_assert_int_eq(task_add_link(&t, 7, false), 1);
    ck_assert_int_eq(task_add_link(&t, 7, true), 0); /* same producer: flags OR-ed */
    for (uint64_t p = 100; p < 110; p++)
        ck_assert_int_eq(task_add_link(&t, p, p % 2), 1); /* spills past the inline ones */
    ck_assert_uint_eq(t.nlinks, 11);
    ck_assert(task_link_at(&t, 0)->retain);
    ck_assert_uint_eq(task_link_at(&t, 10)->producer, 109);
    task_clear_links(&t);
    ck_assert_uint_eq(t.nlinks, 0);
}
END_TEST

/* A row-major view of rows [r0, r0+nr) x cols [c0, c0+nc) of a 64 x 64 FLOAT16 buffer. */
static tmap_view box(int r0, int nr, int c0, int nc)
{
    tmap_view v = {.addr = 0x1000, .buffer_numel = 64 * 64, .dtype = DT_FLOAT16, .ndims = 2};
    v.shape[0] = nr;
    v.shape[1] = nc;
    v.strides[0] = 64;
    v.strides[1] = 1;
    v.start = (uint64_t)r0 * 64 + (uint64_t)c0;
    return v;
}

START_TEST(overlap_verdicts_follow_the_runtime_check)
{
    tmap_view w = box(0, 32, 0, 64); /* the writer: rows 0..31 */
    ck_assert_int_eq(tmap_check_overlap(&w, &w), OV_COVERED);
    tmap_view all = box(0, 64, 0, 64), below = box(32, 32, 0, 64), half = box(16, 32, 0, 64);
    ck_assert_int_eq(tmap_check_overlap(&w, &all), OV_COVERED); /* the reader contains the writer */
    ck_assert_int_eq(tmap_check_overlap(&w, &below), OV_NONE);  /* disjoint element ranges */
    ck_assert_int_eq(tmap_check_overlap(&w, &half), OV_OTHER);  /* partial */
    /* element ranges interleave but the boxes do not: columns 32..63 of rows
     * 0..31 against columns 0..31 of rows 0..63 overlap; against rows 32.. not */
    tmap_view right = box(0, 32, 32, 32), left_low = box(32, 32, 0, 32);
    ck_assert_int_eq(tmap_check_overlap(&right, &left_low), OV_NONE); /* box test proves it */
    tmap_view t = box(0, 64, 0, 32);
    t.strides[0] = 1; /* a transposed view */
    t.strides[1] = 64;
    ck_assert_int_eq(tmap_check_overlap(&w, &t), OV_OTHER);
    tmap_view newer = box(32, 32, 0, 64);
    newer.version = 1; /* a newer consumer version: conservatively overlapping */
    ck_assert_int_eq(tmap_check_overlap(&w, &newer), OV_OTHER);
}
END_TEST

typedef struct seen_ctx {
    uint64_t producers[8];
    int n;
    int remove_covered;
} seen_ctx;

static int collect(void *vctx, const tmap_entry *e, tmap_overlap ov)
{
    seen_ctx *x = vctx;
    x->producers[x->n++] = e->producer;
    return x->remove_covered && ov == OV_COVERED;
}

START_TEST(lookup_visits_newest_first_and_skips_retired_writers)
{
    tmap m;
    uint32_t win[4] = {16, 16, 16, 16};
    ck_assert_int_eq(tmap_init(&m, 8, win, false), 0);
    tmap_view a = box(0, 32, 0, 64), b = box(16, 16, 0, 64);
    ck_assert_int_eq(tmap_insert(&m, &a, 1), 0);
    ck_assert_int_eq(tmap_insert(&m, &b, 2), 0);
    ck_assert_uint_eq(tmap_used(&m), 2);
    tmap_view all = box(0, 64, 0, 64);
    seen_ctx x = {.n = 0};
    tmap_lookup(&m, &all, collect, &x);
    ck_assert_int_eq(x.n, 2);
    ck_assert_uint_eq(x.producers[0], 2); /* newest first */
    ck_assert_uint_eq(x.producers[1], 1);
    /* an INOUT covering both removes them */
    x = (seen_ctx){.remove_covered = 1};
    tmap_lookup(&m, &all, collect, &x);
    ck_assert_uint_eq(tmap_used(&m), 0);
    /* writers of retired tasks are skipped at once, freed at cleanup */
    tmap_insert(&m, &a, 3);
    tmap_insert(&m, &b, 70);
    ck_assert_uint_eq(tmap_sync(&m, 0, 71, 4), 0); /* only 4 retired: no cleanup yet */
    x = (seen_ctx){.n = 0};
    tmap_lookup(&m, &all, collect, &x);
    ck_assert_int_eq(x.n, 1); /* task 3 is retired */
    ck_assert_uint_eq(x.producers[0], 70);
    ck_assert_uint_eq(tmap_sync(&m, 0, 72, 64), 1); /* 64 retired: task 3's entry is freed */
    ck_assert_uint_eq(tmap_used(&m), 1);
    /* the pool is bounded */
    for (int i = 0; i < 7; i++)
        ck_assert_int_eq(tmap_insert(&m, &a, 80 + (uint64_t)i), 0);
    ck_assert_int_eq(tmap_insert(&m, &a, 90), -1);
    ck_assert_uint_eq(m.peak_used, 8);
    tmap_free(&m);
}
END_TEST

START_TEST(readall_reads_past_its_first_block_and_ends_with_a_nul)
{
    /* 200000 bytes: the 64 KiB buffer doubles twice; a file of nothing is "" */
    const char *dir = tu_tmpdir();
    char *text = malloc(200001);
    for (int i = 0; i < 200000; i++)
        text[i] = (char)('a' + i % 26);
    text[200000] = '\0';
    char *path = tu_write(dir, "big", text);
    FILE *f = fopen(path, "rb");
    size_t len = 0;
    char *got = readall(f, READALL_PLATFORM, &len, NULL, 0);
    fclose(f);
    ck_assert_uint_eq(len, 200000);
    ck_assert_int_eq(got[len], '\0');
    ck_assert_int_eq(memcmp(got, text, len), 0);
    free(got);
    free(path);
    path = tu_write(dir, "empty", "");
    f = fopen(path, "rb");
    got = readall(f, READALL_PLATFORM, &len, NULL, 0);
    fclose(f);
    ck_assert_uint_eq(len, 0);
    ck_assert_str_eq(got, "");
    free(got);
    free(path);
    free(text);
}
END_TEST

/* A file past its kind's cap: a sparse 3 GiB ptosim_run.json cost 3.1 GB of memory and 15 s before "not valid
 * JSON". A regular file is refused by its size before a byte is read (ftruncate: no disk is used); one with
 * no size (a device) once it has given one byte more than the cap. A file of exactly the cap is read. */
START_TEST(readall_refuses_a_file_past_its_kinds_cap)
{
    const char *dir = tu_tmpdir();
    char path[4200], why[128];
    snprintf(path, sizeof(path), "%s/sparse", dir);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(ftruncate(fd, (off_t)3 << 30), 0);
    FILE *f = fopen(path, "rb");
    size_t len = 7;
    errno = 0;
    ck_assert_ptr_null(readall(f, READALL_RUN, &len, why, sizeof(why)));
    ck_assert_int_eq(errno, EFBIG);
    ck_assert_str_eq(why, "3221225472 bytes, over the 64 MiB cap for a run file");
    ck_assert_int_eq(ftell(f), 0); /* nothing was read */
    ck_assert_uint_eq(len, 7);
    ck_assert_ptr_null(readall(f, READALL_PLATFORM, &len, why, sizeof(why)));
    ck_assert_str_eq(why, "3221225472 bytes, over the 1 MiB cap for a platform file");
    /* 9 GiB: past the largest cap, a record file's */
    ck_assert_int_eq(ftruncate(fd, (off_t)9 << 30), 0);
    ck_assert_ptr_null(readall(f, READALL_RECORDS, &len, why, sizeof(why)));
    ck_assert_str_eq(why, "9663676416 bytes, over the 8 GiB cap for a record file");
    ck_assert_uint_eq(readall_cap(READALL_TABLE), (size_t)64 << 20);
    ck_assert_uint_eq(readall_cap(READALL_SWEEP), (size_t)1 << 30);
    /* exactly the cap, and one byte past it */
    ck_assert_int_eq(ftruncate(fd, (off_t)1 << 20), 0);
    char *got = readall(f, READALL_PLATFORM, &len, why, sizeof(why));
    ck_assert_ptr_nonnull(got);
    ck_assert_uint_eq(len, (size_t)1 << 20);
    ck_assert_int_eq(got[len - 1], 0);
    free(got);
    rewind(f);
    ck_assert_int_eq(ftruncate(fd, ((off_t)1 << 20) + 1), 0);
    ck_assert_ptr_null(readall(f, READALL_PLATFORM, &len, why, sizeof(why)));
    ck_assert_str_eq(why, "1048577 bytes, over the 1 MiB cap for a platform file");
    fclose(f);
    close(fd);
    /* no size to go by: refused while read, after cap + 1 bytes */
    f = fopen("/dev/zero", "rb");
    ck_assert_ptr_null(readall(f, READALL_PLATFORM, &len, why, sizeof(why)));
    ck_assert_int_eq(errno, EFBIG);
    ck_assert_str_eq(why, "over the 1 MiB cap for a platform file");
    fclose(f);
    f = fopen("/dev/zero", "rb");
    ck_assert_ptr_null(readall(f, READALL_RUN, &len, NULL, 0)); /* no words wanted */
    ck_assert_int_eq(errno, EFBIG);
    fclose(f);
}
END_TEST

/* jsonl_member_at finds a top-level member's value and key in the text, past nested values whose strings
 * hold the brackets and quotes that would end them, comparing keys as decoded. */
START_TEST(jsonl_member_at_finds_a_member_past_nested_values)
{
    const char *t = "{\"a\": {\"c\": [1, {\"y\": \"}]\\\"\"}], \"d\": -2e3},\n \"b\\u0063\": true, \"c\": null}";
    const char *end = t + strlen(t), *key = NULL;
    const char *at = jsonl_member_at(t, end, "bc", &key);
    ck_assert_ptr_nonnull(at);
    ck_assert_int_eq(strncmp(at, "true", 4), 0);
    ck_assert_int_eq(strncmp(key, "\"b\\u0063\"", 9), 0);
    long line, col;
    jsonl_where(t, key, &line, &col);
    ck_assert_int_eq(line, 2);
    ck_assert_int_eq(col, 2);
    at = jsonl_member_at(t, end, "c", NULL); /* the top level's "c", not a's */
    ck_assert_int_eq(strncmp(at, "null}", 5), 0);
    at = jsonl_member_at(t, end, "a", NULL);
    ck_assert_int_eq(strncmp(jsonl_member_at(at, end, "d", NULL), "-2e3}", 5), 0);
    ck_assert_ptr_null(jsonl_member_at(t, end, "y", NULL));
    ck_assert_ptr_null(jsonl_member_at(t, end, "b", NULL));
    ck_assert_ptr_null(jsonl_member_at("[1]", "[1]" + 3, "a", NULL));
    ck_assert_ptr_null(jsonl_member_at(NULL, NULL, "a", NULL));
}
END_TEST

/* msgtext_escape writes every byte a terminal could act on as \xHH and keeps the rest byte for byte: C0
 * controls (ESC, BEL, newline, tab), DEL, the C1 controls of UTF-8 (U+009B is a one-character CSI on some
 * terminals) and bytes that are not UTF-8; printable ASCII and UTF-8 characters (U+00A0 on) stay. */
START_TEST(msgtext_escapes_what_a_terminal_would_act_on)
{
    char out[256];
    ck_assert_uint_eq(msgtext_escape(out, sizeof(out), "x\x1b]0;P\x07\n\x7f\t."), 26); /* 1 + 4 + 4 + 4 * 4 + 1 */
    ck_assert_str_eq(out, "x\\x1b]0;P\\x07\\x0a\\x7f\\x09.");
    msgtext_escape(out, sizeof(out), "\xc2\x9b" "2J \xc2\xa0 \xc2\xb5s \xe4\xb8\xad \xf0\x9f\x99\x82");
    ck_assert_str_eq(out, "\\xc2\\x9b" "2J \xc2\xa0 \xc2\xb5s \xe4\xb8\xad \xf0\x9f\x99\x82");
    /* not UTF-8: a lone continuation byte, a cut sequence, an overlong '/', a surrogate, past U+10FFFF */
    msgtext_escape(out, sizeof(out), "\x80|\xe4\xb8|\xc0\xaf|\xed\xa0\x80|\xf4\x90\x80\x80|\xff");
    ck_assert_str_eq(out, "\\x80|\\xe4\\xb8|\\xc0\\xaf|\\xed\\xa0\\x80|\\xf4\\x90\\x80\\x80|\\xff");
    /* printable text comes out as it went in: a message of ordinary input is unchanged */
    const char *plain = "g.jsonl:2: args[0].tensor: unknown tensor 'x' (a \"quote\", a \\ backslash, 100%)";
    msgtext_escape(out, sizeof(out), plain);
    ck_assert_str_eq(out, plain);
    /* cut to fit, never inside an escape or a character */
    ck_assert_uint_eq(msgtext_escape(out, 6, "ab\x1b" "cd"), 2); /* 2 + 4 bytes and the NUL need 7 */
    ck_assert_str_eq(out, "ab");
    ck_assert_uint_eq(msgtext_escape(out, 7, "ab\x1b" "cd"), 6);
    ck_assert_str_eq(out, "ab\\x1b");
    ck_assert_uint_eq(msgtext_escape(out, 4, "ab\xe4\xb8\xad"), 2);
    ck_assert_str_eq(out, "ab");
    /* in place, in the message's own buffer */
    char msg[32] = "tensor 'x\x1b[2J'";
    msgtext_fix(msg, sizeof(msg));
    ck_assert_str_eq(msg, "tensor 'x\\x1b[2J'");
    char small[12] = "ab\x07\x07\x07\x07";
    msgtext_fix(small, sizeof(small));
    ck_assert_str_eq(small, "ab\\x07\\x07");
    /* printed as one line */
    FILE *f = tmpfile();
    ck_assert_int_eq(msgtext_print(f, "ptosim: %s: %d", "a\nb", 7), 0);
    rewind(f);
    char line[64] = "";
    ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
    fclose(f);
    ck_assert_str_eq(line, "ptosim: a\\x0ab: 7\n");
}
END_TEST

/* Writes one field through csv_put into a memory stream; returns the text (malloc'd). */
static char *csv_put_text(const char *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    csv_put(f, s);
    fclose(f);
    return buf;
}

START_TEST(csv_quotes_exactly_the_fields_that_need_it_and_reads_them_back)
{
    /* RFC 4180 quoting: a field with a comma, a quote or a line break is written in quotes, its
     * quotes doubled; any other field is written as it is */
    static const char *const in[] = {"a2a3", "my,plat", "say \"hi\"", "two\nlines", "cr\r", "", NULL};
    static const char *const out[] = {
        "a2a3", "\"my,plat\"", "\"say \"\"hi\"\"\"", "\"two\nlines\"", "\"cr\r\"", "", ""};
    for (int i = 0; i < 7; i++) {
        char *got = csv_put_text(in[i]);
        ck_assert_str_eq(got, out[i]);
        ck_assert(csv_needs_quotes(in[i]) == (in[i] && strcmp(got, in[i]) != 0));
        free(got);
    }
    /* a field a spreadsheet would evaluate (= + - @ first, not a number) is text: an apostrophe first, and
     * quoted; numbers stay numbers; a field that begins with the apostrophe gets one more, so dropping one
     * gives every field back */
    static const char *const formula[] = {"=HYPERLINK(\"http://x\",\"y\")",
                                          "@SUM(1+1)*cmd|' /C calc'!A0",
                                          "+cmd",
                                          "-x",
                                          "'quoted",
                                          "\tx",
                                          "-5",
                                          "+1.5e3",
                                          "-",
                                          "a=b",
                                          NULL};
    static const char *const guarded[] = {"\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"",
                                          "\"'@SUM(1+1)*cmd|' /C calc'!A0\"",
                                          "\"'+cmd\"",
                                          "\"'-x\"",
                                          "\"''quoted\"",
                                          "\"'\tx\"",
                                          "-5",
                                          "+1.5e3",
                                          "\"'-\"",
                                          "a=b"};
    for (int i = 0; formula[i]; i++) {
        char *got = csv_put_text(formula[i]);
        ck_assert_str_eq(got, guarded[i]);
        ck_assert(csv_formula(formula[i]) == (got[0] == '"'));
        free(got);
    }
    /* a record of those fields splits back into them: 6 fields, the quoted line break kept */
    char rec[] = "a2a3,\"my,plat\",\"say \"\"hi\"\"\",\"two\nlines\",\"cr\r\",\r";
    ck_assert_int_eq(csv_count(rec), 6);
    char cell[16];
    ck_assert(csv_get(rec, 2, cell, sizeof(cell)) && strcmp(cell, "say \"hi\"") == 0);
    ck_assert(csv_get(rec, 1, cell, 4) && strcmp(cell, "my,") == 0); /* truncated to 3 bytes */
    ck_assert(csv_get(rec, 5, cell, sizeof(cell)) && strcmp(cell, "") == 0);
    ck_assert(!csv_get(rec, 6, cell, sizeof(cell)));
    char *f[8];
    ck_assert_int_eq(csv_split(rec, f, 8), 6);
    for (int i = 0; i < 6; i++)
        ck_assert_str_eq(f[i], in[i]);
    ck_assert_int_eq(csv_split((char[]){"a,b,c"}, f, 2), 3); /* more than max: max + 1 */
    /* the record ends at the first line break outside quotes */
    const char *two = "\"x\ny\",1\nnext,2\n";
    ck_assert_int_eq(csv_record_end(two) - two, 7);
    ck_assert_int_eq(csv_count(two), 2);
    ck_assert_int_eq(*csv_record_end("no break"), '\0');
    /* malformed quoting: not closed, or text after the closing quote */
    ck_assert_int_eq(csv_split((char[]){"a,\"open"}, f, 8), -1);
    ck_assert_int_eq(csv_split((char[]){"\"ab\"c,d"}, f, 8), -1);
    ck_assert_int_eq(csv_count("\"ab\"c,d"), -1);
    ck_assert(!csv_get("\"ab\"c,d", 1, cell, sizeof(cell)));
}
END_TEST

/* The bytes written so far to fd, from its start, as a string (caller frees). */
static char *fd_text(int fd, size_t *len)
{
    off_t n = lseek(fd, 0, SEEK_END);
    ck_assert(n >= 0);
    char *s = malloc((size_t)n + 1);
    ck_assert_int_eq(pread(fd, s, (size_t)n, 0), n);
    s[n] = '\0';
    *len = (size_t)n;
    return s;
}

START_TEST(wbuf_writes_numbers_and_escapes_as_printf_and_jsonw_would)
{
    FILE *t = tmpfile();
    wbuf w;
    ck_assert_int_eq(wbuf_open_fd(&w, fileno(t)), 0);
    const uint64_t u[] = {0, 9, 10, 99, 100, 9999, 10000, 123456789, UINT64_MAX};
    for (size_t i = 0; i < sizeof(u) / sizeof(u[0]); i++) {
        wbuf_u64(&w, u[i]);
        wbuf_char(&w, ' ');
    }
    wbuf_i64(&w, INT64_MIN);
    wbuf_char(&w, ' ');
    wbuf_i64(&w, -1);
    wbuf_char(&w, ' ');
    wbuf_qu64(&w, 8589934592u);
    wbuf_lit(&w, " ");
    wbuf_json_str(&w, "a\"b\\c\n\t\x01" "d");
    ck_assert_int_eq(wbuf_close(&w), 0);
    size_t n;
    char *got = fd_text(fileno(t), &n);
    ck_assert_str_eq(got, "0 9 10 99 100 9999 10000 123456789 18446744073709551615 "
                          "-9223372036854775808 -1 \"8589934592\" \"a\\\"b\\\\c\\n\\t\\u0001d\"");
    free(got);
    fclose(t);
}
END_TEST

START_TEST(wbuf_dec_writes_decimals_two_digits_a_step_as_printf_would)
{
    /* each digit count's first and last value, across the 10^8 and 10^16 steps */
    FILE *t = tmpfile();
    wbuf w;
    ck_assert_int_eq(wbuf_open_fd(&w, fileno(t)), 0);
    const uint64_t u[] = {0,
                          9,
                          10,
                          99,
                          100,
                          999,
                          1000,
                          9999,
                          10000,
                          99999,
                          100000,
                          9999999,
                          10000000,
                          99999999,
                          100000000,
                          100000001,
                          1234567890,
                          9999999999999999u,
                          10000000000000000u,
                          10000000000000001u,
                          UINT64_MAX};
    const int len[] = {1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 7, 8, 8, 9, 9, 10, 16, 17, 17, 20};
    for (size_t i = 0; i < sizeof(u) / sizeof(u[0]); i++) {
        ck_assert_int_eq(wbuf_dec_len(u[i]), len[i]);
        wbuf_u64(&w, u[i]);
        wbuf_char(&w, ' ');
    }
    const int64_t s[] = {0, 7, -1, -10, -100000000, INT64_MAX, INT64_MIN};
    for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++) {
        wbuf_i64(&w, s[i]);
        wbuf_char(&w, ' ');
    }
    wbuf_qu64(&w, 8589934592u);
    wbuf_qu64(&w, 0);
    wbuf_char(&w, ' ');
    const uint64_t m[] = {0, 5, 50, 999, 1000, 1001, 1234567, UINT64_MAX};
    for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
        wbuf_milli(&w, m[i]);
        wbuf_char(&w, ' ');
    }
    /* a record put together at one room */
    char *p = wbuf_room(&w, 64);
    ck_assert_ptr_nonnull(p);
    p = wbuf_lit_at(p, "[");
    p = wbuf_sdec_at(p, -42);
    p = wbuf_lit_at(p, ", ");
    p = wbuf_milli_at(p, 70);
    *p++ = ']';
    wbuf_commit(&w, p);
    ck_assert_int_eq(wbuf_close(&w), 0);
    size_t n;
    char *got = fd_text(fileno(t), &n);
    ck_assert_str_eq(got,
                     "0 9 10 99 100 999 1000 9999 10000 99999 100000 9999999 10000000 99999999 100000000 "
                     "100000001 1234567890 9999999999999999 10000000000000000 10000000000000001 "
                     "18446744073709551615 "
                     "0 7 -1 -10 -100000000 9223372036854775807 -9223372036854775808 "
                     "\"8589934592\"\"0\" "
                     "0.000 0.005 0.050 0.999 1.000 1.001 1234.567 18446744073709551.615 "
                     "[-42, 0.070]");
    free(got);
    fclose(t);
}
END_TEST

/* One number written by wbuf_dec_at (sdec for a signed one) into a buffer of '#', checked against
 * snprintf and for bytes stored past its digits (none: callers' rooms count digits). */
static void check_dec_at(uint64_t u, int64_t s, bool is_signed)
{
    char want[32], buf[40];
    int n = is_signed ? snprintf(want, sizeof want, "%" PRId64, s)
                      : snprintf(want, sizeof want, "%" PRIu64, u);
    memset(buf, '#', sizeof buf);
    char *end = is_signed ? wbuf_sdec_at(buf + 4, s) : wbuf_dec_at(buf + 4, u);
    if (end - (buf + 4) != n || memcmp(buf + 4, want, (size_t)n) != 0)
        ck_abort_msg("%s: got %.*s", want, (int)(end - (buf + 4)), buf + 4);
    for (int i = 0; i < (int)sizeof buf; i++)
        if ((i < 4 || i >= 4 + n) && buf[i] != '#')
            ck_abort_msg("%s: byte %d written", want, i - 4);
}

START_TEST(wbuf_dec_at_writes_every_length_as_printf_and_nothing_past_it)
{
    /* the eight-digit step: zeros in front, every digit of a lane in place */
    char b[9] = "########";
    ck_assert_ptr_eq(wbuf_dec8z_at(b, 12345678), b + 8);
    ck_assert_str_eq(b, "12345678");
    wbuf_dec8z_at(b, 0);
    ck_assert_str_eq(b, "00000000");
    wbuf_dec8z_at(b, 99999999);
    ck_assert_str_eq(b, "99999999");
    wbuf_dec8z_at(b, 10000001);
    ck_assert_str_eq(b, "10000001");
    wbuf_dec8z_at(b, 9990);
    ck_assert_str_eq(b, "00009990");
    wbuf_dec8z_at(b, 40960100);
    ck_assert_str_eq(b, "40960100");
    /* every 97th value below 10^8 against "%08u" (the whole range was checked once, off line) */
    for (uint32_t v = 0; v < 100000000u; v += 97) {
        char want[16], got[8];
        wbuf_dec8z_at(got, v);
        snprintf(want, sizeof want, "%08u", (unsigned)v);
        if (memcmp(got, want, 8) != 0)
            ck_abort_msg("%s: got %.8s", want, got);
    }
    /* 0, every power of ten and its neighbours, the ends of both types */
    check_dec_at(0, 0, false);
    check_dec_at(UINT64_MAX, 0, false);
    check_dec_at(UINT64_MAX - 1, 0, false);
    check_dec_at(0, INT64_MIN, true);
    check_dec_at(0, INT64_MIN + 1, true);
    check_dec_at(0, INT64_MAX, true);
    check_dec_at(0, 0, true);
    check_dec_at(0, -1, true);
    uint64_t p10 = 1;
    for (int k = 0; k < 20; k++, p10 *= 10) {
        for (int d = -1; d <= 1; d++) {
            check_dec_at(p10 + (uint64_t)d, 0, false);
            if (p10 + (uint64_t)d <= (uint64_t)INT64_MAX) {
                check_dec_at(0, (int64_t)(p10 + (uint64_t)d), true);
                check_dec_at(0, -(int64_t)(p10 + (uint64_t)d), true);
            }
        }
    }
    /* pseudo-random values of every length (xorshift, a fixed seed) */
    uint64_t x = 88172645463325252u;
    for (int i = 0; i < 1000000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        uint64_t u = x >> (i % 64);
        check_dec_at(u, 0, false);
        check_dec_at(0, (int64_t)u, true);
    }
}
END_TEST

START_TEST(wbuf_fixed_text_prints_as_printf_f_does_rounding_half_to_even_on_the_exact_value)
{
    /* the report's "%.1f" and the like: each case's exact binary value worked out */
    static const struct {
        double x;
        int prec;
        const char *want;
    } cases[] = {
        {0.25, 1, "0.2"},       /* exactly a tie: 2 even stays */
        {0.35, 1, "0.3"},       /* 0.34999999999999997779...: below the tie */
        {0.45, 1, "0.5"},       /* 0.45000000000000001110...: above it */
        {0.5, 0, "0"},          /* a tie: 0 even */
        {1.5, 0, "2"},          /* a tie: up to even 2 */
        {2.5, 0, "2"},          /* a tie: 2 even stays */
        {-0.0, 1, "-0.0"},      /* the sign bit alone */
        {-0.04, 1, "-0.0"},     /* rounds to zero, keeps its sign */
        {-7.25, 1, "-7.2"},     /* a tie below zero: 2 even */
        {123.456, 2, "123.46"}, /* 123.4560000000000030695... */
        {99.95, 1, "100.0"},    /* 99.9500000000000028421...: the carry reaches the units */
        {9.9995, 3, "9.999"},   /* 9.99949999999999938893... */
        {0.0005, 3, "0.001"},   /* 0.000500000000000000010408... */
        {0.125, 2, "0.12"},     /* a tie: 2 even */
        {5e-324, 3, "0.000"},   /* the least subnormal */
        {0.1, 9, "0.100000000"},
        {1234567.0, 0, "1234567"},
        {1e18, 3, "1000000000000000000.000"},
        {0x1p62, 1, "4611686018427387904.0"},
    };
    char b[64];
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        size_t n = wbuf_fixed_text(b, cases[i].x, cases[i].prec);
        ck_assert_msg(n == strlen(cases[i].want) && strcmp(b, cases[i].want) == 0, "%s: got %s",
                      cases[i].want, n ? b : "(none)");
    }
    /* left to printf */
    ck_assert_uint_eq(wbuf_fixed_text(b, 0x1p63, 1), 0);
    ck_assert_uint_eq(wbuf_fixed_text(b, -0x1p63, 1), 0);
    ck_assert_uint_eq(wbuf_fixed_text(b, INFINITY, 1), 0);
    ck_assert_uint_eq(wbuf_fixed_text(b, NAN, 1), 0);
    ck_assert_uint_eq(wbuf_fixed_text(b, 1.0, 10), 0);
    ck_assert_uint_eq(wbuf_fixed_text(b, 1.0, -1), 0);
}
END_TEST

START_TEST(wbuf_reader_reads_back_a_scratch_file_in_records_across_its_buffer)
{
    /* records of 3 and 5 bytes, 400,000 of them: 3.2 MB, so reads cross the 1 MiB buffer mid-record */
    wbuf s;
    ck_assert_int_eq(wbuf_open_scratch(&s), 0);
    for (uint32_t i = 0; i < 200000; i++) {
        char a[3] = {(char)(i & 0xff), (char)(i >> 8 & 0xff), (char)(i >> 16)};
        wbuf_put(&s, a, 3);
        wbuf_put(&s, &i, 4);
        wbuf_char(&s, 'x');
    }
    wbuf_reader r;
    ck_assert_int_eq(wbuf_reader_open(&r, &s), 0);
    for (uint32_t i = 0; i < 200000; i++) {
        const char *a = wbuf_reader_next(&r, 3);
        ck_assert_ptr_nonnull(a);
        ck_assert_uint_eq(
            (unsigned char)a[0] | (unsigned char)a[1] << 8 | (uint32_t)(unsigned char)a[2] << 16, i);
        const char *b = wbuf_reader_next(&r, 5);
        ck_assert_ptr_nonnull(b);
        uint32_t v;
        memcpy(&v, b, 4);
        ck_assert_uint_eq(v, i);
        ck_assert_int_eq(b[4], 'x');
    }
    /* nothing more: the end is an error, EIO */
    errno = 0;
    ck_assert_ptr_null(wbuf_reader_next(&r, 1));
    ck_assert_int_eq(errno, EIO);
    ck_assert_ptr_null(wbuf_reader_next(&r, WBUF_SIZE + 1)); /* larger than the buffer: refused */
    ck_assert_int_eq(errno, EINVAL);
    wbuf_reader_close(&r);
    wbuf_reader_close(&r); /* closed twice: nothing */
    ck_assert_int_eq(wbuf_close(&s), 0);
}
END_TEST

START_TEST(wbuf_milli_writes_thousandths_as_printf_did_with_three_places)
{
    /* nanoseconds as microseconds in the Perfetto trace, MB/s as GB/s: printf wrote
     * "%" PRIu64 ".%03u" (and "%" PRId64 ".%03" PRId64) of v / 1000 and v % 1000 */
    FILE *t = tmpfile();
    wbuf w;
    ck_assert_int_eq(wbuf_open_fd(&w, fileno(t)), 0);
    const uint64_t u[] = {0, 5, 7, 50, 999, 1000, 1001, 1234567, UINT64_MAX};
    for (size_t i = 0; i < sizeof(u) / sizeof(u[0]); i++) {
        wbuf_milli(&w, u[i]);
        wbuf_char(&w, ' ');
    }
    const int64_t s[] = {0, 42, -5, -50, -500, -999, -1000, -1001, -2500, INT64_MIN};
    for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++) {
        wbuf_milli_i64(&w, s[i]);
        wbuf_char(&w, ' ');
    }
    ck_assert_int_eq(wbuf_close(&w), 0);
    size_t n;
    char *got = fd_text(fileno(t), &n);
    ck_assert_str_eq(got, "0.000 0.005 0.007 0.050 0.999 1.000 1.001 1234.567 18446744073709551.615 "
                          "0.000 0.042 0.-05 0.-50 0.-500 0.-999 -1.000 -1.-01 -2.-500 "
                          "-9223372036854775.-808 ");
    free(got);
    fclose(t);
}
END_TEST

START_TEST(wbuf_fixed0_rounds_to_the_nearest_integer_halves_to_even_as_printf)
{
    /* an imported task's swimlane time: printf wrote "%.0f" */
    FILE *t = tmpfile();
    wbuf w;
    ck_assert_int_eq(wbuf_open_fd(&w, fileno(t)), 0);
    const double x[] = {0.0,
                        0.4,
                        0.5,
                        0.5000000000000001,
                        1.5,
                        2.5,
                        960.0,
                        340.49999999999994,
                        339.5,
                        1e-300,
                        4.5e15,
                        4503599627370495.5,
                        9007199254740993.0,
                        1e18,
                        -0.0,
                        -1.5,
                        -0.4,
                        1e19};
    for (size_t i = 0; i < sizeof(x) / sizeof(x[0]); i++) {
        wbuf_fixed0(&w, x[i]);
        wbuf_char(&w, ' ');
    }
    ck_assert_int_eq(wbuf_close(&w), 0);
    size_t n;
    char *got = fd_text(fileno(t), &n);
    /* 4503599627370495.5 is 2^52 - 0.5: a tie, to the even 4503599627370496; 9007199254740993 is no double:
     * the literal is 2^53 */
    ck_assert_str_eq(got, "0 0 0 1 2 2 960 340 340 0 4500000000000000 4503599627370496 9007199254740992 "
                          "1000000000000000000 -0 -2 -0 10000000000000000000 ");
    free(got);
    fclose(t);
}
END_TEST

START_TEST(wbuf_hex16_writes_sixteen_lowercase_digits_zeros_in_front)
{
    /* the args dump's task ids: printf's "0x%016" PRIx64 */
    FILE *t = tmpfile();
    wbuf w;
    ck_assert_int_eq(wbuf_open_fd(&w, fileno(t)), 0);
    const uint64_t v[] = {0, 0xa, 0x100000002ull, 0xdeadbeefcafef00dull, UINT64_MAX};
    for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
        wbuf_hex16(&w, v[i]);
        wbuf_char(&w, ' ');
    }
    ck_assert_int_eq(wbuf_close(&w), 0);
    size_t n;
    char *got = fd_text(fileno(t), &n);
    ck_assert_str_eq(got, "0000000000000000 000000000000000a 0000000100000002 deadbeefcafef00d ffffffffffffffff ");
    free(got);
    fclose(t);
}
END_TEST

START_TEST(wbuf_hex16_at_writes_every_digit_in_every_place_as_printf_and_nothing_past_it)
{
    char b[20];
    memset(b, '#', sizeof b);
    ck_assert_ptr_eq(wbuf_hex16_at(b, 0x0123456789abcdefull), b + 16);
    ck_assert_int_eq(memcmp(b, "0123456789abcdef####", 20), 0);
    wbuf_hex16_at(b, 0xfedcba9876543210ull);
    ck_assert_int_eq(memcmp(b, "fedcba9876543210####", 20), 0);
    wbuf_hex16_at(b, 0x9a9a9a9aa9a9a9a9ull); /* 9 and a: either side of the letters' step */
    ck_assert_int_eq(memcmp(b, "9a9a9a9aa9a9a9a9####", 20), 0);
    /* each digit value in each of the 16 places, then pseudo-random values, against printf */
    uint64_t x = 88172645463325252u;
    for (int i = 0; i < 16 * 16 + 1000000; i++) {
        uint64_t v;
        if (i < 256) {
            v = (uint64_t)(i % 16) << (4 * (i / 16));
        } else {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            v = x;
        }
        char want[20];
        snprintf(want, sizeof want, "%016" PRIx64, v);
        wbuf_hex16_at(b, v);
        if (memcmp(b, want, 16) != 0)
            ck_abort_msg("%s: got %.16s", want, b);
    }
}
END_TEST

START_TEST(wbuf_json_str_writes_runs_between_escapes_as_they_are)
{
    /* escapes first, last, side by side and none at all; a run longer than the buffer */
    FILE *t = tmpfile();
    wbuf w;
    ck_assert_int_eq(wbuf_open_fd(&w, fileno(t)), 0);
    wbuf_json_str(&w, "");
    wbuf_json_str(&w, "\"x\r");
    wbuf_json_str(&w, "\\\\\x1f\x7f" "ab");
    wbuf_json_str(&w, "plain text");
    size_t big = WBUF_SIZE + 100;
    char *s = malloc(big + 1);
    ck_assert_ptr_nonnull(s);
    for (size_t i = 0; i < big; i++)
        s[i] = (char)('a' + i % 26);
    s[big] = '\0';
    s[big / 2] = '\n';
    wbuf_json_str(&w, s);
    ck_assert_int_eq(wbuf_close(&w), 0);
    size_t n;
    char *got = fd_text(fileno(t), &n);
    const char *head = "\"\"\"\\\"x\\r\"\"\\\\\\\\\\u001f\x7f" "ab\"\"plain text\"\"";
    size_t hl = strlen(head);
    ck_assert_uint_eq(n, hl + big + 1 + 1);
    ck_assert_int_eq(memcmp(got, head, hl), 0);
    ck_assert_int_eq(memcmp(got + hl, s, big / 2), 0);
    ck_assert_int_eq(memcmp(got + hl + big / 2, "\\n", 2), 0);
    ck_assert_int_eq(memcmp(got + hl + big / 2 + 2, s + big / 2 + 1, big - big / 2 - 1), 0);
    ck_assert_int_eq(got[n - 1], '"');
    free(got);
    free(s);
    fclose(t);
}
END_TEST

START_TEST(a_float_prints_as_printf_g9_did_rounding_half_to_even_on_its_exact_value)
{
    /* the args dump's FLOAT32 scalars: "%.9g" of the float's exact value */
    static const struct {
        float x;
        const char *want;
    } cases[] = {
        {0.0f, "0"},
        {-0.0f, "-0"},
        {0.5f, "0.5"},
        {-2.5f, "-2.5"},
        {0.1f, "0.100000001"},           /* 0.100000001490116...: the tenth digit 4 rounds down */
        {1.0f / 3, "0.333333343"},       /* 0.333333343267... */
        {0.001f, "0.00100000005"},       /* 0.00100000004749...: 10^-3, fixed down to 10^-4 */
        {1e-4f, "9.99999975e-05"},       /* 9.99999974737...e-05: below 10^-4 the exponent form */
        {0x1p-30f, "9.31322575e-10"},    /* 9.3132257461547851...e-10, exact in 2^-30 */
        {16777216.0f, "16777216"},       /* 2^24: no point, no zeros */
        {123456789.0f, "123456792"},     /* the float is 123456792: nine digits, still fixed */
        {1e9f, "1e+09"},                 /* ten digits before the point: the exponent form */
        {2097151.875f, "2097151.88"},    /* a tie: 209715187|5, 7 odd, up */
        {2097151.625f, "2097151.62"},    /* a tie: 209715162|5, 2 even, stays */
        {1048575.9375f, "1048575.94"},   /* 104857593|75: above the half, up */
        {999999.9375f, "999999.938"},    /* a tie: 999999937|5, up */
        {1e38f, "9.99999968e+37"},       /* 99999996802856924650656260769173209088 */
    };
    char b[64];
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        size_t n = wbuf_float9_text(b, cases[i].x);
        ck_assert_msg(n == strlen(cases[i].want) && strcmp(b, cases[i].want) == 0, "%s: got %s",
                      cases[i].want, n ? b : "(none)");
    }
    /* left to printf: bits below 2^-44 (1e-10 is 0x1.b7cdfep-34), the top binade, not finite */
    ck_assert_uint_eq(wbuf_float9_text(b, 1e-10f), 0);
    ck_assert_uint_eq(wbuf_float9_text(b, 0x1p127f), 0);
    ck_assert_uint_eq(wbuf_float9_text(b, INFINITY), 0);
    ck_assert_uint_eq(wbuf_float9_text(b, NAN), 0);
}
END_TEST

START_TEST(wbuf_keeps_every_byte_across_buffer_boundaries_and_large_puts)
{
    /* numbers straddle each MiB boundary; a put larger than the buffer goes straight through */
    FILE *t = tmpfile();
    wbuf w;
    ck_assert_int_eq(wbuf_open_fd(&w, fileno(t)), 0);
    size_t big = WBUF_SIZE + 5;
    char *blob = malloc(big);
    memset(blob, 'x', big);
    char *want = malloc(6 * WBUF_SIZE), *q = want;
    for (uint64_t i = 0; i < 300000; i++) {
        wbuf_u64(&w, i * 7919);
        wbuf_char(&w, ',');
        q += sprintf(q, "%" PRIu64 ",", i * 7919);
        if (i == 150000) {
            wbuf_put(&w, blob, big);
            memcpy(q, blob, big);
            q += big;
        }
    }
    ck_assert_int_eq(wbuf_close(&w), 0);
    size_t n;
    char *got = fd_text(fileno(t), &n);
    ck_assert_uint_eq(n, (size_t)(q - want));
    ck_assert(memcmp(got, want, n) == 0);
    free(got);
    free(want);
    free(blob);
    fclose(t);
}
END_TEST

START_TEST(wbuf_remembers_the_first_failed_write_until_it_is_closed)
{
    int fd = open("/dev/full", O_WRONLY);
    ck_assert(fd >= 0);
    wbuf w;
    ck_assert_int_eq(wbuf_open_fd(&w, fd), 0);
    for (int i = 0; i < 200000; i++) /* past one MiB: the first flush fails, later appends are dropped */
        wbuf_lit(&w, "0123456789");
    ck_assert_int_eq(w.err, ENOSPC);
    errno = 0;
    ck_assert_int_eq(wbuf_close(&w), -1);
    ck_assert_int_eq(errno, ENOSPC);
    close(fd);
    /* a failure only seen at the close is reported too */
    fd = open("/dev/full", O_WRONLY);
    ck_assert_int_eq(wbuf_open_fd(&w, fd), 0);
    wbuf_lit(&w, "x");
    ck_assert_int_eq(wbuf_close(&w), -1);
    ck_assert_int_eq(errno, ENOSPC);
    close(fd);
}
END_TEST

START_TEST(wbuf_appends_a_scratch_file_to_a_file_and_to_a_pipe)
{
    /* a file takes the in-kernel copy; a pipe cannot, and takes the read-and-write fallback */
    wbuf s;
    ck_assert_int_eq(wbuf_open_scratch(&s), 0);
    for (int i = 0; i < 1000; i++) {
        wbuf_u64(&s, (uint64_t)i);
        wbuf_char(&s, '\n');
    }
    char want[8000], *q = want;
    q += sprintf(q, "head\n");
    for (int i = 0; i < 1000; i++)
        q += sprintf(q, "%d\n", i);
    q += sprintf(q, "tail\n");

    FILE *t = tmpfile();
    wbuf w;
    ck_assert_int_eq(wbuf_open_fd(&w, fileno(t)), 0);
    wbuf_lit(&w, "head\n");
    ck_assert_int_eq(wbuf_append(&w, &s), 0);
    wbuf_lit(&w, "tail\n");
    ck_assert_int_eq(wbuf_close(&w), 0);
    size_t n;
    char *got = fd_text(fileno(t), &n);
    ck_assert_str_eq(got, want);
    free(got);
    fclose(t);

    int p[2];
    ck_assert_int_eq(pipe(p), 0);
    ck_assert_int_eq(wbuf_open_fd(&w, p[1]), 0);
    wbuf_lit(&w, "head\n");
    ck_assert_int_eq(wbuf_append(&w, &s), 0); /* the scratch file can be appended again */
    wbuf_lit(&w, "tail\n");
    ck_assert_int_eq(wbuf_close(&w), 0);
    close(p[1]);
    char buf[8000];
    ssize_t k, len = 0;
    while ((k = read(p[0], buf + len, sizeof(buf) - 1 - (size_t)len)) > 0)
        len += k;
    buf[len] = '\0';
    close(p[0]);
    ck_assert_str_eq(buf, want);
    ck_assert_int_eq(wbuf_close(&s), 0);
}
END_TEST

START_TEST(vec_lower_bound_finds_the_first_key_not_below_in_a_struct_array)
{
    typedef struct item {
        int pad;
        uint64_t id;
    } item;
    const item a[] = {{0, 2}, {0, 4}, {0, 4}, {0, 9}, {0, UINT64_MAX}};
    const struct {
        uint64_t key;
        size_t want;
    } cases[] = {{0, 0}, {2, 0}, {3, 1}, {4, 1}, {5, 3}, {9, 3}, {10, 4}, {UINT64_MAX, 4}};
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        ck_assert_uint_eq(vec_lower_bound(a, 5, sizeof(a[0]), offsetof(item, id), cases[i].key), cases[i].want);
    ck_assert_uint_eq(vec_lower_bound(a, 4, sizeof(a[0]), offsetof(item, id), 10), 4); /* past the end: n */
    ck_assert_uint_eq(vec_lower_bound(a, 0, sizeof(a[0]), offsetof(item, id), 1), 0);
}
END_TEST

START_TEST(vec_zalloc_gives_zeroed_slots_already_writable)
{
    /* a hash table's slots: zero, and (large) in memory before the first probe, so that reading a slot
     * and then filling it is not a fault on the shared zero page followed by a copy-on-write fault */
    size_t n = 1 << 18, pg = (size_t)sysconf(_SC_PAGESIZE);
    uint64_t *t = vec_zalloc(n, sizeof(*t));
    ck_assert_ptr_nonnull(t);
    for (size_t i = 0; i < n; i += 4096)
        ck_assert_uint_eq(t[i], 0);
    uintptr_t a = ((uintptr_t)t + pg - 1) & ~(uintptr_t)(pg - 1), e = ((uintptr_t)(t + n)) & ~(uintptr_t)(pg - 1);
    size_t np = (e - a) / pg, resident = 0;
    unsigned char *v = malloc(np);
    ck_assert_ptr_nonnull(v);
    ck_assert_int_eq(mincore((void *)a, e - a, v), 0);
    for (size_t i = 0; i < np; i++)
        resident += v[i] & 1;
    ck_assert_uint_eq(resident, np); /* a plain calloc: only the pages read above, mapped to the zero page */
    free(v);
    free(t);
    ck_assert_ptr_null(vec_zalloc(SIZE_MAX / 8 + 1, 8)); /* n * elem past SIZE_MAX */
    uint16_t *small = vec_zalloc(3, sizeof(*small));
    ck_assert_ptr_nonnull(small);
    ck_assert_uint_eq(small[0] | small[1] | small[2], 0);
    free(small);
}
END_TEST

Suite *suite_basics(void)
{
    Suite *s = suite_create("basics");
    TCase *tc = tcase_create("components");
    tcase_add_test(tc, evq_pops_in_time_order_and_ties_in_insertion_order);
    tcase_add_test(tc, readall_reads_past_its_first_block_and_ends_with_a_nul);
    tcase_add_test(tc, readall_refuses_a_file_past_its_kinds_cap);
    tcase_add_test(tc, jsonl_member_at_finds_a_member_past_nested_values);
    tcase_add_test(tc, msgtext_escapes_what_a_terminal_would_act_on);
    tcase_add_test(tc, evq_stays_ordered_under_many_random_pushes);
    tcase_add_test(tc, evq_interleaved_pushes_and_pops_keep_time_then_insertion_order);
    tcase_add_test(tc, the_line_parser_builds_what_cjson_builds);
    tcase_add_test(tc, the_doc_parser_reads_a_line_as_flat_values_in_document_order);
    tcase_add_test(tc, a_number_with_a_fraction_or_an_exponent_reads_as_strtod_reads_it);
    tcase_add_test(tc, the_line_parser_points_at_the_first_bad_byte);
    tcase_add_test(tc, the_line_parser_names_what_a_lenient_reading_would_change_and_where);
    tcase_add_test(tc, the_scanner_lexes_as_the_parser_and_the_message_says_where);
    tcase_add_test(tc, strtab_gives_dense_slots_in_first_seen_order);
    tcase_add_test(tc, readyq_is_fifo_across_growth);
    tcase_add_test(tc, core_topology_matches_runtime_numbering);
    tcase_add_test(tc, dispatch_tokens_count_from_one_and_skip_reserved_band);
    tcase_add_test(tc, time_conversions_round_as_documented);
    tcase_add_test(tc, dtype_names_and_sizes_follow_the_runtime_table);
    tcase_add_test(tc, task_links_deduplicate_and_or_flags);
    tcase_add_test(tc, overlap_verdicts_follow_the_runtime_check);
    tcase_add_test(tc, lookup_visits_newest_first_and_skips_retired_writers);
    tcase_add_test(tc, csv_quotes_exactly_the_fields_that_need_it_and_reads_them_back);
    tcase_add_test(tc, vec_lower_bound_finds_the_first_key_not_below_in_a_struct_array);
    tcase_add_test(tc, vec_zalloc_gives_zeroed_slots_already_writable);
    tcase_add_test(tc, wbuf_writes_numbers_and_escapes_as_printf_and_jsonw_would);
    tcase_add_test(tc, wbuf_milli_writes_thousandths_as_printf_did_with_three_places);
    tcase_add_test(tc, wbuf_dec_writes_decimals_two_digits_a_step_as_printf_would);
    tcase_add_test(tc, wbuf_dec_at_writes_every_length_as_printf_and_nothing_past_it);
    tcase_add_test(tc, wbuf_reader_reads_back_a_scratch_file_in_records_across_its_buffer);
    tcase_add_test(tc, wbuf_fixed_text_prints_as_printf_f_does_rounding_half_to_even_on_the_exact_value);
    tcase_add_test(tc, wbuf_fixed0_rounds_to_the_nearest_integer_halves_to_even_as_printf);
    tcase_add_test(tc, wbuf_hex16_writes_sixteen_lowercase_digits_zeros_in_front);
    tcase_add_test(tc, wbuf_json_str_writes_runs_between_escapes_as_they_are);
    tcase_add_test(tc, wbuf_hex16_at_writes_every_digit_in_every_place_as_printf_and_nothing_past_it);
    tcase_add_test(tc, a_float_prints_as_printf_g9_did_rounding_half_to_even_on_its_exact_value);
    tcase_add_test(tc, wbuf_keeps_every_byte_across_buffer_boundaries_and_large_puts);
    tcase_add_test(tc, wbuf_remembers_the_first_failed_write_until_it_is_closed);
    tcase_add_test(tc, wbuf_appends_a_scratch_file_to_a_file_and_to_a_pipe);
    suite_add_tcase(s, tc);
    return s;
}
