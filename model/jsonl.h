/* jsonl.h - a fast strict JSON parser for one graph line, building cJSON nodes (the reader's hot path). */
#ifndef PTOSIM_JSONL_H
#define PTOSIM_JSONL_H

#include <cJSON.h>
#include <stddef.h>

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

/* Line and column (1-based, in bytes) of at in the text starting at s. */
void jsonl_where(const char *s, const char *at, long *line, long *col);

#endif
