/* test_jstream.c - the streaming JSON reader: a bounded window over files of any size. */
/* It takes only what both cJSON and model/base/json_reader.c accept. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/base/json_reader.h"
#include "../sim/json/json_scan.h"
#include "../sim/json/json_span.h"
#include "../sim/json/json_stream.h"
#include "testutil.h"

/* A file holding text; returns its path (malloc'd). */
static char *file_of(const char *text)
{
    return tu_write(tu_tmpdir(), "f.json", text);
}

/* {"list":[{"i":0,"name":"e0","v":[0,1]}, ...]} with n elements. */
static char *big_object(int n)
{
    size_t cap = (size_t)n * 64 + 64, len = 0;
    char *t = malloc(cap);
    ck_assert_ptr_nonnull(t);
    len += (size_t)snprintf(t + len, cap - len, "{\"head\": 1, \"list\": [");
    for (int i = 0; i < n; i++)
        len += (size_t)snprintf(t + len, cap - len, "%s{\"i\": %d, \"name\": \"e%d\", \"v\": [%d, 1]}",
                                i ? ", " : "", i, i, i);
    snprintf(t + len, cap - len, "], \"tail\": \"x\"}\n");
    return t;
}

START_TEST(a_file_is_read_through_a_window_of_fixed_size)
{
    jstream_window = 1024;
    char *text = big_object(20000), *path = file_of(text); /* about 800 KB */
    ck_assert_int_gt((long)strlen(text), 500 * 1024);
    jstream js;
    ck_assert_int_eq(jstream_open(&js, path), 0);
    ck_assert(jstream_eat(&js, '{'));
    bool first = true;
    char key[64];
    int n = 0, r;
    while ((r = jstream_member(&js, &first, key, sizeof(key))) == 1) {
        if (strcmp(key, "list") != 0) {
            ck_assert(jstream_skip(&js));
            continue;
        }
        ck_assert(jstream_eat(&js, '['));
        bool f2 = true;
        while (jstream_next(&js, ']', &f2) == 1) {
            const char *t;
            size_t len;
            ck_assert(jstream_value(&js, &t, &len));
            char want[64];
            snprintf(want, sizeof(want), "{\"i\": %d, \"name\": \"e%d\"", n, n);
            ck_assert_msg(strncmp(t, want, strlen(want)) == 0, "%.*s", (int)len, t);
            n++;
        }
    }
    ck_assert_int_eq(r, 0);
    ck_assert_int_eq(n, 20000);
    ck_assert_int_eq(jstream_peek(&js), 0);
    ck_assert(!js.bad);
    ck_assert_uint_eq(js.peak_cap, 1024);
    /* skipping the whole object walks the list item by item: the window stays */
    jstream_seek(&js, 0);
    ck_assert(jstream_skip(&js));
    ck_assert_uint_eq(js.peak_cap, 1024);
    /* a value larger than the window grows it to fit, and only then */
    jstream_close(&js);
    char *longs = malloc(10002);
    longs[0] = '"';
    memset(longs + 1, 'a', 9999);
    strcpy(longs + 10000, "\"");
    free(path);
    path = file_of(longs);
    ck_assert_int_eq(jstream_open(&js, path), 0);
    const char *t;
    size_t len;
    ck_assert(jstream_value(&js, &t, &len));
    ck_assert_uint_eq(len, 10001);
    ck_assert_uint_ge(js.peak_cap, 10001);
    jstream_close(&js);
    free(longs);
    free(path);
    free(text);
    jstream_window = JSTREAM_WINDOW;
}
END_TEST

START_TEST(values_both_parsers_read_alike_are_accepted)
{
    static const char *const OK[] = {
        "{\"a\": 1}",
        "[1.5e3, -0, 0.25, -12E-2, true, false, null]",
        "\"caf\\u00e9 \\ud83d\\ude00 \\\" \\\\ \\/ \\b\\f\\n\\r\\t\"",
        "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"",
        " \t\r\n{\"nested\": {\"a\": [[], {}]}, \"b\": \"\"}\n",
        "5", /* a number at the text's end (once refused: its digits ran into the end) */
        "-0.5e1",
    };
    for (size_t i = 0; i < sizeof(OK) / sizeof(OK[0]); i++)
        ck_assert_msg(jstream_check(OK[i], strlen(OK[i])), "refused: %s", OK[i]);
}
END_TEST

START_TEST(what_either_parser_reads_otherwise_is_refused)
{
    /* each is refused by cJSON or model/base/json_reader.c, or read differently by them: the stream leaves it to
     * the whole-file reading, which says what is wrong as before */
    static const char *const BAD[] = {
        "{\"a\": 1, \"a\": 2}", /* a repeated key: jsonl refuses, cJSON takes the first */
        "{\"a\\u0062\": 1}",    /* an escaped key */
        "\"\\u0000\"",          /* U+0000: jsonl refuses */
        "\"\\udc00\"",          /* a lone low surrogate */
        "\"\\ud800x\"",         /* a high surrogate alone */
        "1e999",                /* beyond a double: jsonl refuses */
        "01",                   /* RFC 8259: cJSON reads it as 1 */
        "1.",                   /* cJSON reads it as 1 */
        "-",                    /* no digits */
        "\"tab\there\"",        /* a raw control character: cJSON keeps it */
        "{\"a\": 1}\f",         /* form feed: cJSON skips it as white space, jsonl does not */
        "\"\xff\"",             /* not UTF-8 */
        "\"\xed\xa0\x80\"",     /* an encoded surrogate */
        "[1,]",                 /* a trailing comma */
        "{\"a\" 1}",            /* no colon */
        "[1] [2]",              /* text after the value */
        "nul",                  /* a cut literal */
        "\"open",               /* an unterminated string */
        "1234567890123456789012345678901234567890123456789012345678901234", /* 64 characters: cJSON cuts */
    };
    for (size_t i = 0; i < sizeof(BAD) / sizeof(BAD[0]); i++)
        ck_assert_msg(!jstream_check(BAD[i], strlen(BAD[i])), "accepted: %s", BAD[i]);
    /* nesting: JSTREAM_MAX_DEPTH levels are read, one more is refused */
    enum { D = JSTREAM_MAX_DEPTH + 1 };
    char deep[2 * D];
    memset(deep, '[', D);
    memset(deep + D, ']', D);
    ck_assert(!jstream_check(deep, 2 * D));
    ck_assert(jstream_check(deep + 1, 2 * D - 2));
    /* an object of 49 members */
    char many[49 * 16 + 8];
    size_t len = 0;
    for (int i = 0; i < 49; i++)
        len += (size_t)snprintf(many + len, sizeof(many) - len, "%s\"k%d\": 0", i ? ", " : "{", i);
    snprintf(many + len, sizeof(many) - len, "}");
    ck_assert(!jstream_check(many, strlen(many)));
}
END_TEST

START_TEST(a_refused_value_in_a_file_marks_the_stream_bad)
{
    char *path = file_of("[{\"a\": 1}, {\"a\": 1, \"a\": 2}]");
    jstream js;
    ck_assert_int_eq(jstream_open(&js, path), 0);
    ck_assert(jstream_eat(&js, '['));
    bool first = true;
    const char *t;
    size_t len;
    ck_assert_int_eq(jstream_next(&js, ']', &first), 1);
    ck_assert(jstream_value(&js, &t, &len));
    ck_assert_int_eq(jstream_next(&js, ']', &first), 1);
    ck_assert(!jstream_value(&js, &t, &len));
    ck_assert(js.bad);
    ck_assert_int_eq(jstream_peek(&js), 0);
    jstream_close(&js);
    free(path);
    /* a file that ends inside a value */
    path = file_of("[{\"a\": [1, 2");
    ck_assert_int_eq(jstream_open(&js, path), 0);
    ck_assert(!jstream_skip(&js));
    ck_assert(js.bad);
    jstream_close(&js);
    free(path);
}
END_TEST

START_TEST(a_nul_byte_is_no_end_of_the_text)
{
    /* "{}" then a NUL and more: the NUL used to read as the end, so "xyz" after it passed unseen */
    char *path = file_of("");
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite("{}\0xyz", 1, 6, f), 6);
    ck_assert_int_eq(fclose(f), 0);
    jstream js;
    ck_assert_int_eq(jstream_open(&js, path), 0);
    ck_assert(jstream_skip(&js));
    ck_assert(!js.bad);
    ck_assert_int_eq(jstream_peek(&js), 0); /* not a value's start, and not the end either: */
    ck_assert(js.bad);
    jstream_close(&js);
    free(path);
}
END_TEST

START_TEST(a_trusted_reading_finds_where_values_end)
{
    jstream_window = 64;
    char *path = file_of("[\"a\\\\\\\"b\", {\"x\": [1, {\"y\": \"]}\"}]}, -12.5e3, true, \"\\\\\"]");
    jstream js;
    ck_assert_int_eq(jstream_open(&js, path), 0);
    jstream_trust(&js);
    ck_assert(jstream_eat(&js, '['));
    static const char *const WANT[] = {"\"a\\\\\\\"b\"", "{\"x\": [1, {\"y\": \"]}\"}]}", "-12.5e3", "true",
                                       "\"\\\\\""};
    bool first = true;
    int n = 0;
    while (jstream_next(&js, ']', &first) == 1) {
        const char *t;
        size_t len;
        ck_assert(jstream_value(&js, &t, &len));
        ck_assert_int_lt(n, 5);
        ck_assert_msg(len == strlen(WANT[n]) && memcmp(t, WANT[n], len) == 0, "%d: %.*s", n, (int)len, t);
        n++;
    }
    ck_assert_int_eq(n, 5);
    jstream_close(&js);
    free(path);
    jstream_window = JSTREAM_WINDOW;
}
END_TEST

/* The members of an object the check gives are the spans jspan_members finds, also for an object the
 * window cuts (checked again after more is read) and for one holding more members than asked for. */
START_TEST(the_check_gives_an_objects_members)
{
    jstream_window = 16;
    char *path = file_of("[{\"a\": \"x y\" , \"bb\":[1, {\"c\": 2}],\"\":-1.5e3}, [1], {}, "
                         "{\"k\": {\"n\": true}, \"z\": null}, 7]");
    jstream js;
    ck_assert_int_eq(jstream_open(&js, path), 0);
    ck_assert(jstream_eat(&js, '['));
    bool first = true;
    const char *t;
    size_t len, nm;
    jstream_mspan m[6];
    ck_assert_int_eq(jstream_next(&js, ']', &first), 1);
    ck_assert(jstream_value_members(&js, &t, &len, m, 6, &nm));
    /* a; bb's items (1: no object; {"c": 2}: an object, its member c); bb; "" */
    ck_assert_int_eq((int)nm, 6);
    ck_assert(m[0].depth == 0 && m[0].klen == 1 && m[0].key[0] == 'a' && m[0].vlen == 5 &&
              memcmp(m[0].v, "\"x y\"", 5) == 0);
    ck_assert(m[1].depth == 1 && !m[1].key && m[1].klen == 0 && m[1].v[0] == '1');
    ck_assert(m[2].depth == 1 && !m[2].key && m[2].klen == 1 && m[2].v[0] == '{');
    ck_assert(m[3].depth == 2 && m[3].klen == 1 && m[3].key[0] == 'c' && m[3].vlen == 1 && m[3].v[0] == '2');
    ck_assert(m[4].depth == 0 && m[4].klen == 2 && memcmp(m[4].key, "bb", 2) == 0 && m[4].vlen == 13 &&
              memcmp(m[4].v, "[1, {\"c\": 2}]", 13) == 0);
    ck_assert(m[5].depth == 0 && m[5].klen == 0 && m[5].vlen == 6 && memcmp(m[5].v, "-1.5e3", 6) == 0);
    static const char *const KEYS[] = {"a", "bb"};
    jspan f[2];
    ck_assert(jspan_members(t, len, KEYS, 2, f));
    ck_assert(f[0].p == m[0].v && f[0].n == m[0].vlen);
    ck_assert(f[1].p == m[4].v && f[1].n == m[4].vlen);
    ck_assert_int_eq(jstream_next(&js, ']', &first), 1); /* an array: no members */
    ck_assert(jstream_value_members(&js, &t, &len, m, 4, &nm));
    ck_assert(nm == SIZE_MAX);
    ck_assert_int_eq(jstream_next(&js, ']', &first), 1); /* an empty object: none */
    ck_assert(jstream_value_members(&js, &t, &len, m, 4, &nm));
    ck_assert_int_eq((int)nm, 0);
    ck_assert_int_eq(jstream_next(&js, ']', &first), 1); /* more members than room: not given */
    ck_assert(jstream_value_members(&js, &t, &len, m, 1, &nm));
    ck_assert(nm == SIZE_MAX);
    /* an object inside a member's object, deeper than an item's: no entry of its own */
    ck_assert(m[0].depth == 0 && m[0].klen == 1 && m[0].key[0] == 'k');
    ck_assert_int_eq(jstream_next(&js, ']', &first), 1);
    ck_assert(jstream_value_members(&js, &t, &len, m, 4, &nm));
    ck_assert(nm == SIZE_MAX && len == 1 && t[0] == '7');
    ck_assert_int_eq(jstream_next(&js, ']', &first), 0);
    jstream_close(&js);
    free(path);
    jstream_window = JSTREAM_WINDOW;
}
END_TEST

START_TEST(lines_are_read_with_or_without_a_last_newline)
{
    jstream_window = 16;
    char *path = file_of("{\"a\": 1}\n\n{\"b\": \"a line longer than the window\"}\n{\"c\": 3}");
    jstream js;
    ck_assert_int_eq(jstream_open(&js, path), 0);
    static const char *const WANT[] = {"{\"a\": 1}", "", "{\"b\": \"a line longer than the window\"}",
                                       "{\"c\": 3}"};
    const char *t;
    size_t len;
    int n = 0;
    while (jstream_line(&js, &t, &len)) {
        ck_assert_int_lt(n, 4);
        ck_assert_msg(len == strlen(WANT[n]) && memcmp(t, WANT[n], len) == 0, "%d: %.*s", n, (int)len, t);
        n++;
    }
    ck_assert_int_eq(n, 4);
    ck_assert_int_eq(js.err, 0);
    jstream_close(&js);
    free(path);
    /* a missing file */
    ck_assert_int_eq(jstream_open(&js, "/nonexistent/ptosim-jstream"), -1);
    jstream_close(&js);
    jstream_window = JSTREAM_WINDOW;
}
END_TEST

/* Tokens that a window of 16 bytes cuts at every place: escapes, a surrogate pair, UTF-8 of 2 to 4 bytes,
 * numbers with fractions and exponents, literals. */
static const char *const CUT[] = {
    "\"caf\\u00e9 \\ud83d\\ude00 \\\" \\\\ \\n\"",
    "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80 plain\"",
    "-12.5e+3",
    "123456789012345678",
    "0.000001",
    "1E-7",
    "true",
    "false",
    "null",
};

START_TEST(a_token_cut_by_the_window_is_read_whole)
{
    jstream_window = 16;
    for (size_t i = 0; i < sizeof(CUT) / sizeof(CUT[0]); i++)
        for (int k = 0; k < 20; k++) { /* k spaces before the token: the window ends at each byte of it */
            char text[128];
            snprintf(text, sizeof(text), "[%*s%s, %s]", k, "", CUT[i], CUT[i]);
            char *path = file_of(text);
            jstream js;
            ck_assert_int_eq(jstream_open(&js, path), 0);
            ck_assert(jstream_eat(&js, '['));
            bool first = true;
            int n = 0;
            while (jstream_next(&js, ']', &first) == 1) {
                const char *t;
                size_t len;
                ck_assert_msg(jstream_value(&js, &t, &len), "%s at %d", CUT[i], k);
                ck_assert_msg(len == strlen(CUT[i]) && memcmp(t, CUT[i], len) == 0, "%s at %d: %.*s", CUT[i],
                              k, (int)len, t);
                n++;
            }
            ck_assert_int_eq(n, 2);
            ck_assert(!js.bad);
            /* and checked whole, from the start: the window still cuts the tokens */
            jstream_seek(&js, 0);
            ck_assert_msg(jstream_skip(&js), "%s at %d", CUT[i], k);
            ck_assert_int_eq(jstream_peek(&js), 0);
            jstream_close(&js);
            free(path);
        }
    jstream_window = JSTREAM_WINDOW;
}
END_TEST

/* Does jsonl_parse take text? */
static bool jsonl_takes(const char *text, size_t len)
{
    cJSON *v = jsonl_parse(text, len, NULL);
    cJSON_Delete(v);
    return v != NULL;
}

/* Does the stream take text as the file's one value, through a window of 16 bytes (the value cut) and one
 * of JSTREAM_WINDOW (the value whole)? Both must say the same. */
static bool stream_takes(const char *text)
{
    char *path = file_of(text);
    bool took[2];
    for (int w = 0; w < 2; w++) {
        jstream_window = w ? JSTREAM_WINDOW : 16;
        jstream js;
        ck_assert_int_eq(jstream_open(&js, path), 0);
        const char *t;
        size_t len;
        took[w] = jstream_value(&js, &t, &len) && jstream_peek(&js) == 0;
        ck_assert_int_eq(js.err, 0);
        jstream_close(&js);
    }
    jstream_window = JSTREAM_WINDOW;
    free(path);
    ck_assert_msg(took[0] == took[1], "%s", text);
    ck_assert_int_eq(took[0], jstream_check(text, strlen(text)));
    return took[0];
}

START_TEST(what_the_lexer_refuses_the_stream_refuses)
{
    /* a token jsonl refuses, each for its own reason; the stream refuses it whole and cut by a window */
    static const struct {
        const char *text, *what; /* what: jsonl's reason, NULL for "not valid JSON" */
    } BAD[] = {
        {"[\"\\u0000\"]", "\\u0000 would cut the string short"},
        {"[\"\\udc00\"]", "a lone surrogate \\u escape is not a character"},
        {"[\"\xed\xa0\x80\"]", "invalid UTF-8 in a string"},
        {"[\"\xc3\"]", "invalid UTF-8 in a string"},
        {"[\"\xf4\x90\x80\x80\"]", "invalid UTF-8 in a string"},
        {"[1e999]", "number out of range"},
        {"[-1e400]", "number out of range"},
        {"[\"\\ud800x\"]", NULL},
        {"[\"\\x\"]", NULL},
        {"[\"\\u12g4\"]", NULL},
        {"[\"a\tb\"]", NULL},
        {"[1.e3]", NULL},
        {"[1e+]", NULL},
        {"[-]", NULL},
        {"[tru]", NULL},
        {"[nulL]", NULL},
        {"[\"open]", NULL},
    };
    for (size_t i = 0; i < sizeof(BAD) / sizeof(BAD[0]); i++) {
        const char *t = BAD[i].text;
        jsonl_error e;
        ck_assert_ptr_null(jsonl_parse(t, strlen(t), &e));
        ck_assert_msg(BAD[i].what ? e.what && strcmp(e.what, BAD[i].what) == 0 : !e.what, "%s: %s", t,
                      e.what ? e.what : "not valid JSON");
        ck_assert_msg(!stream_takes(t), "taken: %s", t);
    }
    /* the lexer tells a token cut at the text's end (more text may make it whole) from a wrong one */
    static const struct {
        const char *text;
        bool cut;
    } LEX[] = {
        {"\"ab", true},     {"\"a\\", true}, {"\"\\u12", true}, {"\"\xc3", true}, {"-", true},
        {"1.", true},       {"1e+", true},   {"tru", true},     {"f", true},      {"\"a\tb", false},
        {"\"\\x\"", false}, {"1.x", false},  {"trx", false},    {"nul1", false},  {"1e999", false},
    };
    for (size_t i = 0; i < sizeof(LEX) / sizeof(LEX[0]); i++) {
        const char *t = LEX[i].text, *end = t + strlen(t);
        jsonl_error e;
        const char *after = *t == '"'                               ? jsonl_lex_string(t, end, NULL, 0, &e)
                            : *t == '-' || (*t >= '0' && *t <= '9') ? jsonl_lex_number(t, end, NULL, &e)
                                                                    : jsonl_lex_literal(t, end, &e);
        ck_assert_msg(!after && jsonl_lex_cut(t, end, &e) == LEX[i].cut, "%s", t);
    }
    /* every byte inside a string or after a backslash: the stream takes what jsonl takes */
    for (int b = 1; b < 256; b++) {
        char t[16];
        snprintf(t, sizeof(t), "[\"a%cb\"]", b);
        ck_assert_msg(stream_takes(t) == jsonl_takes(t, strlen(t)), "byte 0x%02x in a string", b);
        snprintf(t, sizeof(t), "[\"\\%c\"]", b);
        ck_assert_msg(stream_takes(t) == jsonl_takes(t, strlen(t)), "escape \\%c", b);
    }
}
END_TEST

/* The offset at which jscan_pass ends the value at the start of text, -1 when it refuses. */
static long pass_end(const char *text)
{
    jscan s;
    jscan_init(&s, text, strlen(text));
    return jscan_pass(&s) ? (long)jscan_offset(&s) : -1;
}

/* A container's string and number items are lexed inline (a plain string, a short integer followed by a
 * delimiter); whatever falls outside those goes to the lexer, which decides as at the top level. */
START_TEST(items_inside_containers_are_checked_as_at_the_top)
{
    static const char *const OK[] = {
        "[123456789012345, -123456789012345]",   /* 15 digits: inline */
        "[1234567890123456,-1234567890123456]",  /* 16: the lexer's */
        "{\"a\":-0,\"b\":0,\"c\":10}",           /* zero and -0: the lexer's */
        "[1.5,2e3,3E-1,-4.25]",                  /* fractions and exponents: the lexer's */
        "{\"ab\":1,\"ac\":2,\"b\":\"x\"}",         /* keys of one length and first byte */
        "{\"\xc3\xa9\":1,\"e\":\"\xc3\xa9\"}",        /* non-ASCII key and string: the lexer's */
        "[\"a\\\"b\",\"\\u0041\"]",                  /* escapes in items */
        "[ 1 , \"x\" ,\n\t2\r]",                  /* white space around items */
    };
    for (size_t i = 0; i < sizeof(OK) / sizeof(OK[0]); i++)
        ck_assert_msg(jstream_check(OK[i], strlen(OK[i])), "refused: %s", OK[i]);
    static const char *const BAD[] = {
        "[01]", "[-]", "[1.]", "[-01]", "[1x]", "[1\"\"]", "[1 2]", "{\"a\":1,\"a\":2}",
        "{\"ab\":1,\"ab\":2}", "{\"a\\u0062\":1}", "[\"tab\there\"]", "[\"\xff\"]", "{\"\xc3\xa9\":1,\"\xc3\xa9\":2}",
        "[1234567890123456789012345678901234567890123456789012345678901234]", /* 64 characters */
    };
    for (size_t i = 0; i < sizeof(BAD) / sizeof(BAD[0]); i++)
        ck_assert_msg(!jstream_check(BAD[i], strlen(BAD[i])), "accepted: %s", BAD[i]);
    /* repeated keys, among 48 (the most an object may have): each key k0..k47 repeated at the end is
     * refused, 48 distinct ones are not; the empty key likewise */
    char obj[48 * 16 + 32];
    size_t len = 0;
    for (int i = 0; i < 48; i++)
        len += (size_t)snprintf(obj + len, sizeof(obj) - len, "%s\"k%d\":%d", i ? "," : "{", i, i);
    snprintf(obj + len, sizeof(obj) - len, "}");
    ck_assert(jstream_check(obj, strlen(obj)));
    for (int r = 0; r < 47; r++) {
        len = 0;
        for (int i = 0; i < 47; i++)
            len += (size_t)snprintf(obj + len, sizeof(obj) - len, "%s\"k%d\":%d", i ? "," : "{", i, i);
        snprintf(obj + len, sizeof(obj) - len, ",\"k%d\":0}", r);
        ck_assert_msg(!jstream_check(obj, strlen(obj)), "accepted: %s", obj);
    }
    ck_assert(!jstream_check("{\"\":1,\"a\":2,\"\":3}", 15));
    ck_assert(jstream_check("{\"\":1,\"a\":2}", 12));
}
END_TEST

/* The args of a test task, collected by their callback: each one's "k" span. */
typedef struct each_seen {
    int n;
    jspan k[4];
} each_seen;

static bool each_k(const char *item, size_t avail, size_t *used, void *arg)
{
    static const char *const K[] = {"k"};
    each_seen *w = arg;
    return w->n < 4 && jspan_object_at(item, avail, K, 1, &w->k[w->n++], used);
}

START_TEST(an_array_member_is_walked_item_by_item)
{
    static const char *const KEYS[] = {"id", "args", "z"};
    const char *t = "{\"id\":7, \"args\" : [ {\"k\":\"a\"} , {\"j\":1,\"k\":[1, 2]},{}],\"z\":\"}\",\"args\":[5]}";
    jspan m[3];
    each_seen w = {0};
    ck_assert(jspan_members_each(t, strlen(t), KEYS, 3, m, 1, each_k, &w));
    ck_assert_int_eq(w.n, 3); /* the first "args" only */
    ck_assert(w.k[0].n == 3 && strncmp(w.k[0].p, "\"a\"", 3) == 0);
    ck_assert(w.k[1].n == 6 && strncmp(w.k[1].p, "[1, 2]", 6) == 0);
    ck_assert_ptr_null(w.k[2].p);
    ck_assert(m[0].n == 1 && m[0].p[0] == '7');
    ck_assert(m[1].n == 36 && m[1].p[0] == '[' && m[1].p[35] == ']'); /* the whole array, as jspan_members gives */
    ck_assert(m[2].n == 3 && strncmp(m[2].p, "\"}\"", 3) == 0);
    jspan plain[3];
    ck_assert(jspan_members(t, strlen(t), KEYS, 3, plain));
    for (int k = 0; k < 3; k++)
        ck_assert(plain[k].p == m[k].p && plain[k].n == m[k].n);
    /* an empty array: no item; not an array, or an item the callback refuses: false */
    w.n = 0;
    ck_assert(jspan_members_each("{\"args\":[ ]}", 13, KEYS, 3, m, 1, each_k, &w) && w.n == 0);
    ck_assert(m[1].n == 3);
    ck_assert(!jspan_members_each("{\"args\":{}}", 12, KEYS, 3, m, 1, each_k, &w));
    ck_assert(!jspan_members_each("{\"args\":[1]}", 12, KEYS, 3, m, 1, each_k, &w));
    ck_assert(!jspan_members_each("{\"args\":[{}", 11, KEYS, 3, m, 1, each_k, &w)); /* never past the end */
    /* an object that does not end the text: its length */
    static const char *const K[] = {"k"};
    size_t used = 0;
    ck_assert(jspan_object_at("{\"k\": 1} ,{\"k\":2}", 18, K, 1, m, &used));
    ck_assert_int_eq((int)used, 8);
    ck_assert(m[0].n == 1 && m[0].p[0] == '1');
    ck_assert(jspan_object_at("{}]", 3, K, 1, m, &used) && used == 2 && !m[0].p);
    ck_assert(!jspan_object_at("{\"k\":1", 7, K, 1, m, &used));
    /* an array span's items alone */
    w.n = 0;
    const char *arr = "[{\"k\":1}, {\"k\":\"b\"}]";
    ck_assert(jspan_items((jspan){arr, strlen(arr)}, each_k, &w) && w.n == 2);
    ck_assert(w.k[1].n == 3 && strncmp(w.k[1].p, "\"b\"", 3) == 0);
    ck_assert(!jspan_items((jspan){"{}", 2}, each_k, &w));
    ck_assert(!jspan_items((jspan){NULL, 0}, each_k, &w));
    /* keys found in any order (the search starts after the last one found) */
    static const char *const ABC[] = {"a", "b", "c"};
    const char *r = "{\"c\":3,\"b\":2,\"a\":1,\"c\":4}";
    ck_assert(jspan_members(r, strlen(r), ABC, 3, m));
    ck_assert(m[0].p[0] == '1' && m[1].p[0] == '2' && m[2].p[0] == '3');
}
END_TEST

START_TEST(a_checked_value_is_passed_over_by_its_brackets)
{
    ck_assert_int_eq(pass_end("{\"a\":[1,{\"b\":\"]}\"}],\"c\":2} tail"), 26);
    ck_assert_int_eq(pass_end("\"x\\\"]\" ,"), 6); /* an escaped quote does not end the string */
    ck_assert_int_eq(pass_end("-12.5e3,"), 7);
    ck_assert_int_eq(pass_end("  true]"), 6);
    ck_assert_int_eq(pass_end("[[1,2],[3]"), -1); /* never past the text's end */
    ck_assert_int_eq(pass_end("\"open\\"), -1);
    ck_assert_int_eq(pass_end(""), -1);
    /* strings are passed eight bytes a step: an escaped quote or a non-ASCII byte at every place in and
     * after a step, and the key of a span likewise */
    static const char *const KEYS[] = {"a"};
    for (int k = 0; k < 20; k++) {
        char t[64];
        jspan m[1];
        snprintf(t, sizeof(t), "\"%.*s\\\"AAA\",", k, "AAAAAAAAAAAAAAAAAAAA");
        ck_assert_int_eq(pass_end(t), k + 7);
        snprintf(t, sizeof(t), "\"%.*s\xc3\xa9\x01" "AA\",", k, "AAAAAAAAAAAAAAAAAAAA");
        ck_assert_int_eq(pass_end(t), k + 7);
        snprintf(t, sizeof(t), "{\"%.*s\xc3\xa9\":1,\"a\":2}", k, "AAAAAAAAAAAAAAAAAAAA");
        ck_assert(jspan_members(t, strlen(t), KEYS, 1, m));
        ck_assert(m[0].p && m[0].n == 1 && m[0].p[0] == '2');
        snprintf(t, sizeof(t), "{\"%.*s\\u0061\":1,\"a\":2}", k, "AAAAAAAAAAAAAAAAAAAA");
        ck_assert(!jspan_members(t, strlen(t), KEYS, 1, m)); /* an escape in a key: the tree decides */
        snprintf(t, sizeof(t), "{\"%.*s\xc3\\u0061\":1}", k, "AAAAAAAAAAAAAAAAAAAA");
        ck_assert(!jspan_members(t, strlen(t), KEYS, 1, m)); /* and after a non-ASCII byte */
        snprintf(t, sizeof(t), "{\"%.*s", k, "AAAAAAAAAAAAAAAAAAAA");
        ck_assert(!jspan_members(t, strlen(t), KEYS, 1, m)); /* a key never closed */
    }
}
END_TEST

/* A span of a C string, NULL for absent. */
static jspan sp(const char *t)
{
    return (jspan){t, t ? strlen(t) : 0};
}

START_TEST(spans_give_members_and_say_only_what_they_know)
{
    static const char *const KEYS[] = {"a", "b", "c"};
    const char *obj = "{ \"b\" : [1, 2] , \"a\":\"x\", \"b\":3, \"d\":{\"a\":1}}";
    jspan m[3];
    ck_assert(jspan_members(obj, strlen(obj), KEYS, 3, m));
    ck_assert_int_eq((int)m[0].n, 3);
    ck_assert(strncmp(m[0].p, "\"x\"", 3) == 0);
    ck_assert(strncmp(m[1].p, "[1, 2]", m[1].n) == 0 && m[1].n == 6); /* the first "b", as cJSON finds it */
    ck_assert_ptr_null(m[2].p);
    const char *esc = "{\"a\\u0062\":1}";
    ck_assert(!jspan_members(esc, strlen(esc), KEYS, 3, m)); /* a key with an escape: the tree decides */
    ck_assert(!jspan_members("[1]", 3, KEYS, 3, m));
    /* text that was not checked (conform's import, while the check runs): a NUL inside a key is no key of
     * KEYS and nothing past a key is read (the sanitizer build holds this; "a\0b" once matched "a") */
    static const char nul[] = "{\"a\0b\":1,\"c\":2}";
    ck_assert(jspan_members(nul, sizeof(nul) - 1, KEYS, 3, m));
    ck_assert_ptr_null(m[0].p);
    ck_assert(m[2].p && m[2].n == 1 && m[2].p[0] == '2');

    /* the same text apart from white space is the same value; other text is only "not known equal" */
    ck_assert(jspan_same_text(sp("[1, \"a b\"]"), sp("[1,\"a b\"]")));
    ck_assert(!jspan_same_text(sp("\"a b\""), sp("\"ab\""))); /* white space inside a string counts */
    ck_assert(!jspan_same_text(sp("1.0"), sp("1")));
    ck_assert(!jspan_same_text(sp("\"\\u0041\""), sp("\"\\u0041\""))); /* escapes: left to the trees */
    ck_assert(jspan_same_text(sp(NULL), sp(NULL)));
    ck_assert(!jspan_same_text(sp(NULL), sp("1")));

    /* compact text only where it is what cJSON prints */
    char buf[32];
    ck_assert(jspan_compact(sp("[ -7, \"s t\" , {\"k\" : null}, true ]"), buf, sizeof(buf)));
    ck_assert_str_eq(buf, "[-7,\"s t\",{\"k\":null},true]");
    ck_assert(jspan_compact(sp("123456789"), buf, sizeof(buf)));
    ck_assert(!jspan_compact(sp("1234567890"), buf, sizeof(buf))); /* beyond 9 digits cJSON may not */
    ck_assert(!jspan_compact(sp("-0"), buf, sizeof(buf)));         /* cJSON prints 0 */
    ck_assert(!jspan_compact(sp("[2.5]"), buf, sizeof(buf)));
    ck_assert(!jspan_compact(sp("1e3"), buf, sizeof(buf)));
    ck_assert(!jspan_compact(sp("\"a\\nb\""), buf, sizeof(buf)));
    ck_assert(!jspan_compact(sp("\"0123456789\""), buf, 12)); /* 12 bytes with its NUL do not fit in 12 */
    ck_assert(jspan_compact(sp("\"012345678\""), buf, 12));
    ck_assert(jspan_string(sp("\"abc\""), buf, sizeof(buf)));
    ck_assert_str_eq(buf, "abc");
    ck_assert(!jspan_string(sp("\"a\\\"\""), buf, sizeof(buf)));
    ck_assert(!jspan_string(sp("12"), buf, sizeof(buf)));

    /* the elements of an array, one at a time */
    const char *arr = "[ {\"i\":0} , 7,[1,[2]]]";
    jspan a = sp(arr), e;
    const char *at = arr;
    const char *want[] = {"{\"i\":0}", "7", "[1,[2]]"};
    for (int k = 0; k < 3; k++) {
        ck_assert(jspan_next(a, &at, &e));
        ck_assert_int_eq((int)e.n, (int)strlen(want[k]));
        ck_assert(strncmp(e.p, want[k], e.n) == 0);
    }
    ck_assert(!jspan_next(a, &at, &e));
    const char *empty = " [ ]";
    at = empty + 1;
    ck_assert(!jspan_next((jspan){empty + 1, 3}, &at, &e));
}
END_TEST

Suite *suite_jstream(void)
{
    Suite *s = suite_create("jstream");
    TCase *tc = tcase_create("stream");
    tcase_add_test(tc, a_file_is_read_through_a_window_of_fixed_size);
    tcase_add_test(tc, values_both_parsers_read_alike_are_accepted);
    tcase_add_test(tc, what_either_parser_reads_otherwise_is_refused);
    tcase_add_test(tc, a_refused_value_in_a_file_marks_the_stream_bad);
    tcase_add_test(tc, a_trusted_reading_finds_where_values_end);
    tcase_add_test(tc, a_token_cut_by_the_window_is_read_whole);
    tcase_add_test(tc, what_the_lexer_refuses_the_stream_refuses);
    tcase_add_test(tc, a_nul_byte_is_no_end_of_the_text);
    tcase_add_test(tc, lines_are_read_with_or_without_a_last_newline);
    tcase_add_test(tc, the_check_gives_an_objects_members);
    tcase_add_test(tc, a_checked_value_is_passed_over_by_its_brackets);
    tcase_add_test(tc, spans_give_members_and_say_only_what_they_know);
    tcase_add_test(tc, items_inside_containers_are_checked_as_at_the_top);
    tcase_add_test(tc, an_array_member_is_walked_item_by_item);
    suite_add_tcase(s, tc);
    return s;
}
