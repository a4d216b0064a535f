/* json_reader.h - jsonl_: the strict JSON reader of every file ptosim reads, and its messages. */
/* One value into cJSON nodes, or into a flat array of values (a doc) reused from one line to the next
 * (the graph reader's hot path); the lexing for scanners; the one error message. */
#ifndef PTOSIM_JSON_READER_H
#define PTOSIM_JSON_READER_H

#include <cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define JSONL_PATH_MAX 256 /* longest field path kept for a message */

/* Where and why a parse failed. */
typedef struct jsonl_error {
    const char *at;            /* the first offending byte */
    const char *what;          /* what is wrong ("duplicate key", ...), or NULL: not valid JSON */
    char path[JSONL_PATH_MAX]; /* the value it happened in ("cost.ns", "args[2].tensor"), "" at the top */
} jsonl_error;

/* Parses the n bytes at s as exactly one JSON value (RFC 8259; surrounding
 * whitespace allowed) into cJSON nodes allocated through cJSON's hooks, so
 * cJSON_Delete frees them. Stricter than RFC 8259 where a lenient reading
 * would silently change a value: a key given twice in one object, a string
 * that is not UTF-8 (or holds U+0000 or a lone surrogate escape), a number
 * beyond a double's range. Returns NULL on malformed input with e (may be
 * NULL) saying where and why. */
cJSON *jsonl_parse(const char *s, size_t n, jsonl_error *e);

/* e->what when a node could not be allocated: the input may be fine. */
extern const char JSONL_OOM[];

/* Kinds of a jsonl_val. */
typedef enum {
    JSONL_NULL,
    JSONL_FALSE,
    JSONL_TRUE,
    JSONL_NUMBER,
    JSONL_STRING,
    JSONL_ARRAY,
    JSONL_OBJECT,
} jsonl_type;

/* One value of a parsed document. A doc holds its values in document order (pre-order): a container's
 * members follow it, and the value after a member's subtree is the member's next sibling. */
typedef struct jsonl_val {
    const char *key; /* a member's key (NUL-terminated), NULL for an array entry or the top value */
    union {
        double num;      /* JSONL_NUMBER */
        const char *str; /* JSONL_STRING: the value, NUL-terminated (it holds no NUL) */
    };
    uint32_t span;  /* values in this one's subtree, itself included: this + span is the next sibling */
    uint32_t count; /* containers: members; strings: bytes */
    uint8_t type;   /* a jsonl_type */
    uint32_t klen;  /* bytes of key (0 without one) */
} jsonl_val;

/* A parsed document: its values and the unescaped text of its strings and keys. The caller owns it;
 * one doc parses line after line without allocating once it has grown to the longest. */
typedef struct jsonl_doc {
    jsonl_val *v;    /* values in document order; v[0] is the top value */
    size_t nv, vcap; /* values used, allocated */
    char *text;      /* the strings and keys, NUL-terminated, in document order */
    size_t tcap;     /* bytes allocated to text */
} jsonl_doc;

/* The longest text jsonl_doc_parse takes: spans and counts are 32 bits. */
#define JSONL_DOC_MAX ((size_t)UINT32_MAX - 1)

/* An empty doc. */
void jsonl_doc_init(jsonl_doc *d);

/* Frees what d holds; d is empty again. */
void jsonl_doc_free(jsonl_doc *d);

/* Parses the n bytes at s as exactly one JSON value, by the same rules and with the same errors as
 * jsonl_parse, into d (replacing what it held). Returns the top value, valid until d parses again or is
 * freed, or NULL with e (may be NULL) saying where and why (JSONL_OOM when d could not grow). */
const jsonl_val *jsonl_doc_parse(jsonl_doc *d, const char *s, size_t n, jsonl_error *e);

/* Copies the tree at c into d as jsonl_doc_parse would have parsed it; strings and keys point into c,
 * which must outlive this use of d. For callers that hold a cJSON tree (cJSON_Invalid and raw nodes come
 * out as null). Returns the top value, or NULL when out of memory. */
const jsonl_val *jsonl_doc_from_cjson(jsonl_doc *d, const cJSON *c);

/* Is v a value of type t (false when v is NULL)? */
static inline bool jsonl_is(const jsonl_val *v, jsonl_type t)
{
    return v && v->type == t;
}

/* Walks the members of container c (none when c is NULL or not a container) with it. */
#define JSONL_FOREACH(it, c)                                                                                 \
    for ((it) = (c) ? (c) + 1 : NULL; (it) && (it) < (c) + (c)->span; (it) += (it)->span)

/* Line and column (1-based, in bytes) of at in the text starting at s. */
void jsonl_where(const char *s, const char *at, long *line, long *col);

/* Where a member is in the text of an object jsonl_parse took, for a message about its value: returns the
 * first byte of the value of the member key of the object at s (after white space; end: the text's end)
 * and puts its key's opening quote in *key_at (when not NULL), or NULL when the object has no such member.
 * Keys are compared as decoded (a key of JSONL_PATH_MAX bytes or more is never found). */
const char *jsonl_member_at(const char *s, const char *end, const char *key, const char **key_at);

/* Writes e, from a parse of the text s read from file, into buf (n bytes) as "FILE:LINE:COL: FIELD: WHAT":
 * FIELD the member's path, or "json" at the top; WHAT e->what, or "not valid JSON"; LINE and COL 1-based,
 * COL in bytes. line > 0 says that s is that line of a line-oriented file (JSON Lines): LINE is it. Out
 * of memory (JSONL_OOM) is "FILE: out of memory": the text may be fine. The one message of every reader
 * of JSON, so a user sees every malformed file alike. */
void jsonl_message(char *buf, size_t n, const char *file, const char *s, const jsonl_error *e, long line);

/* The lexing of jsonl_parse, for scanners that walk JSON text in place without a parser (sim/json/json_scan.c,
 * sim/json/json_stream.c), so that every reader takes the same strings, numbers and literals. Each reads the
 * token at s (s < end) and returns the byte after it, or NULL with e (may be NULL; its path "") saying
 * where and why. */

/* The high bit of each byte of x (8 bytes of a string, the first in the low byte) that a string does not
 * hold as itself: a quote, a backslash, a control byte or a byte >= 0x80. A byte's bit may be wrong only
 * above (after) a byte that is truly flagged: the lowest bit set is exact. */
static inline uint64_t jsonl_unplain8(uint64_t x)
{
    const uint64_t ones = 0x0101010101010101ULL;
    uint64_t qt = x ^ (ones * '"'), bs = x ^ (ones * '\\');
    return (((qt - ones) & ~qt) | ((bs - ones) & ~bs) | (x - ones * 0x20) | x) & (ones * 0x80);
}

/* A hash of a key's length and end bytes (kl bytes at k): enough to tell the keys of one object apart in a
 * few instructions, for the readers that look for a repeated key only when a bit of it was seen before. */
static inline uint32_t jsonl_key_hash(const char *k, size_t kl)
{
    uint32_t h = ((uint32_t)kl * 0x9E3779B1u) ^ ((uint32_t)(unsigned char)(kl ? k[0] : 0) * 0x85EBCA6Bu) ^
                 ((uint32_t)(unsigned char)(kl ? k[kl - 1] : 0) * 0xC2B2AE35u);
    return h ^ h >> 16;
}

/* The first byte from p on that a string does not hold as itself (jsonl_unplain8's), or end: eight bytes a
 * step, for the readers that pass over a capture's tens of millions of names and decimal ids. */
static inline const char *jsonl_plain_end(const char *p, const char *end)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    for (; end - p >= 8; p += 8) {
        uint64_t x, m;
        memcpy(&x, p, 8);
        if ((m = jsonl_unplain8(x)) != 0)
            return p + (__builtin_ctzll(m) >> 3);
    }
#endif
    for (; p < end; p++) {
        unsigned char c = (unsigned char)*p;
        if (c < 0x20 || c >= 0x80 || c == '"' || c == '\\')
            break;
    }
    return p;
}

/* A string, its opening quote at s: the escapes, UTF-8 and U+0000 checked as jsonl_parse does. With n > 0
 * its value (escapes decoded to UTF-8, as jsonl_parse does) into out: at most n - 1 bytes kept (the rest
 * dropped, perhaps inside a character), NUL-terminated. */
const char *jsonl_lex_string(const char *s, const char *end, char *out, size_t n, jsonl_error *e);

/* A number; its value into *v when v is not NULL (NULL only checks it, without strtod in the common case). */
const char *jsonl_lex_number(const char *s, const char *end, double *v, jsonl_error *e);

/* true, false or null. */
const char *jsonl_lex_literal(const char *s, const char *end, jsonl_error *e);

/* Was the token at s, refused with e by a jsonl_lex_* call on [s, end), cut short by end: could more text
 * after end make it whole? True when it ran out of input (e->at == end, e->what NULL) or, for a literal,
 * when what is held is the start of one ("tru"). For a scanner over a window of a larger text
 * (sim/json/json_stream.c): it reads more and lexes the token again. A token lexed whole to end may go on too
 * (a number): the scanner looks at the byte after it. */
bool jsonl_lex_cut(const char *s, const char *end, const jsonl_error *e);

#endif
