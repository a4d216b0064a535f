/* json_scan.h - jscan_: a forward scanner over JSON text in memory, without a tree. */
#ifndef PTOSIM_JSON_SCAN_H
#define PTOSIM_JSON_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../model/base/json_reader.h"

/* Why a scanner: a 65,536-task capture has an 84 MB deps.json; as a cJSON
 * tree it would take about ten times that. The scanner reads the few fields
 * the report needs and skips the rest, in the memory of the text alone. */
typedef struct jscan {
    const char *p;    /* cursor: the next character to read */
    const char *end;  /* one past the last character */
    const char *base; /* the first character, for byte offsets in messages */
    const char *bad;  /* where the lexer refused a token, or NULL (a syntax error at p) */
    const char *why;  /* why it did (a jsonl_error's what), or NULL: not valid JSON */
} jscan;

struct jsonl_error;

/* Starts a scan of text[0..len). */
void jscan_init(jscan *s, const char *text, size_t len);

/* Skips white space; returns the next character, or 0 at the end. */
static inline int jscan_peek(jscan *s)
{
    /* inline: called before every token of a capture's tens of millions */
    while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
        s->p++;
    return s->p < s->end ? (unsigned char)*s->p : 0;
}

/* Consumes c after white space; false (nothing consumed) when the next character is another. */
static inline bool jscan_eat(jscan *s, char c)
{
    /* inline: called around every token of a capture's deps.json, as jscan_peek */
    if (jscan_peek(s) != (unsigned char)c)
        return false;
    s->p++;
    return true;
}

/* Skips one value of any type, checking its syntax (strings, nesting, literals, numbers). */
bool jscan_skip(jscan *s);

/* jscan_pass of a container or a string that is not plain: by its brackets and strings. */
bool jscan_pass_slow(jscan *s);

/* Skips one value of text checked before (jstream_value, jstream_check): finds its end by its brackets and
 * strings alone, several times faster than jscan_skip. Never reads outside the text; false when the value
 * does not end inside it. Inline for the values most members hold, a plain string or a number. */
static inline bool jscan_pass(jscan *s)
{
    int c = jscan_peek(s);
    if (!c)
        return false;
    const char *p = s->p;
    if (c == '"') {
        const char *q = jsonl_plain_end(p + 1, s->end);
        if (q < s->end && *q == '"') {
            s->p = q + 1;
            return true;
        }
        return jscan_pass_slow(s);
    }
    if (c == '[' || c == '{')
        return jscan_pass_slow(s);
    /* a number or a literal: up to the next delimiter */
    while (p < s->end && *p != ',' && *p != ']' && *p != '}' && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
        p++;
    s->p = p;
    return true;
}

/* Reads a string into buf (at most n - 1 bytes kept, the rest dropped); escapes
 * are decoded to UTF-8 (jsonl_lex_string). False when the next value is not a
 * string, or is one jsonl_parse refuses. */
bool jscan_string(jscan *s, char *buf, size_t n);

/* Reads an integer number (no fraction or exponent) into *v: a JSON number (jsonl_lex_number) that fits. */
bool jscan_i64(jscan *s, int64_t *v);

/* Reads an unsigned 64-bit value written as a number or as a decimal string ("123"). */
bool jscan_u64(jscan *s, uint64_t *v);

/* Steps through a container opened with jscan_eat(s, '[' or '{'): returns 1 when
 * another item follows (the comma before it consumed), 0 when the container
 * closed (close consumed), -1 on a syntax error. *first must start true. */
int jscan_next(jscan *s, char close, bool *first);

/* jscan_next for objects that also reads the member's key into key (n bytes)
 * and consumes the ':' after it. */
int jscan_member(jscan *s, bool *first, char *key, size_t n);

/* Where and why the scan failed, as a jsonl_error for jsonl_message (base is the text): the token the lexer
 * refused, else the cursor. */
void jscan_error(const jscan *s, struct jsonl_error *e);

/* Byte offset of the cursor from the start of the text. */
size_t jscan_offset(const jscan *s);

#endif
