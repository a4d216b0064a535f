/* json_stream.h - jstream_: a forward JSON reader of a file through a bounded window, no tree. */
#ifndef PTOSIM_JSON_STREAM_H
#define PTOSIM_JSON_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Why: a 65,536-task capture has an 84 MB deps.json; held whole it is 84 MB,
 * as a cJSON tree about ten times that. The stream holds a window of the file
 * (JSTREAM_WINDOW bytes, more only while one value is larger) and hands out
 * one value at a time as text in that window, checked strictly: the values it
 * accepts are a subset of what both cJSON and model/base/json_reader.c accept (RFC 8259
 * numbers of at most 63 characters and in a double's range, strings without
 * control characters, valid escapes, surrogate pairs and UTF-8, no U+0000,
 * nesting below JSTREAM_MAX_DEPTH, objects of at most 48 members whose keys
 * have no escapes and no repeats, and only space, tab, CR and LF between
 * tokens). Strings, numbers and literals are json_reader's lexing (jsonl_lex_*):
 * their rules are the one reader's; a number's length, the keys and the nesting
 * are the stream's own limits. The caller walking the outer containers with
 * jstream_member checks their keys for repeats itself. A caller that needs another parser's exact message for a text the
 * stream refuses reads the file with that parser. */
#define JSTREAM_WINDOW (256 * 1024) /* bytes read at a time; the window's size while values fit */
extern size_t jstream_window;       /* the window in use: JSTREAM_WINDOW (tests lower it) */
#define JSTREAM_MAX_DEPTH 200       /* deeper nesting is refused */

typedef struct jstream {
    int fd;          /* the file */
    char *buf;       /* the window: bytes [base, base + len) of the file */
    size_t cap;      /* allocated bytes of buf */
    uint64_t base;   /* file offset of buf[0] */
    size_t len;      /* bytes held */
    size_t pos;      /* cursor: index into buf of the next byte */
    bool eof;        /* buf holds the file's last byte */
    bool bad;        /* the text broke the rules above (or a read failed: err) */
    int err;         /* errno of a failed read or allocation, 0 if none */
    size_t peak_cap; /* the largest cap used, for tests of flat memory */
    bool trusted;    /* the file was checked: jstream_value only finds where a value ends */
} jstream;

/* Makes jstream_value hand out values without checking them, for a second reading of a file checked
 * whole before (jstream_skip): it then only finds where a value ends, several times faster. A caller that
 * cannot rule out the file changing in between parses what it gets with a checking parser. */
void jstream_trust(jstream *js);

/* Opens path. Returns 0, or -1 with errno set. */
int jstream_open(jstream *js, const char *path);

/* Closes the file and frees the window. Safe on a closed or zeroed stream. */
void jstream_close(jstream *js);

/* Moves the cursor to file offset off. */
void jstream_seek(jstream *js, uint64_t off);

/* File offset of the cursor. */
uint64_t jstream_tell(const jstream *js);

/* Skips white space; returns the next byte, 0 at the end of the file or after a failure (a NUL byte is one:
 * js->bad is set). */
int jstream_peek(jstream *js);

/* Consumes c after white space; false (nothing consumed) when the next byte is another. */
bool jstream_eat(jstream *js, char c);

/* Reads the next value (after white space), checked; *text and *len give its
 * text in the window, valid until the next call. False (js->bad set) when it
 * is not a value by the rules above. */
bool jstream_value(jstream *js, const char **text, size_t *len);

/* A member of an object as the check saw it: its key (raw: a checked key has no escape) and its value's
 * text, both in the window; or (depth 1, key NULL) the mark of an item of an array, klen 1 when the item is
 * an object. */
typedef struct jstream_mspan {
    const char *key;
    size_t klen;
    const char *v;
    size_t vlen;
    int depth; /* 0: a member of the value; 1: an item's mark; 2: a member of that item (an object) */
} jstream_mspan;

/* jstream_value that also gives, when the value is an object, what its check saw into m[0..*n), in text
 * order: its members (depth 0, each the span jspan_members would give it), and for a member whose value is
 * an array, before that member, a mark per item (depth 1) each followed by the members of the item when it
 * is an object (depth 2). *n is SIZE_MAX when they are not given (the value is no object, they need more
 * than max entries, or the stream is trusted, which checks nothing). */
bool jstream_value_members(jstream *js, const char **text, size_t *len, jstream_mspan *m, size_t max,
                           size_t *n);

/* Checks and skips the next value of any size by the rules above, holding at most about a window (a
 * container larger than half a window is walked item by item). False (js->bad) when it breaks them. */
bool jstream_skip(jstream *js);

/* Steps through a container opened with jstream_eat(js, '[' or '{'): 1 when
 * another item follows (the comma before it consumed), 0 when the container
 * closed (close consumed), -1 on bad text. *first must start true. */
int jstream_next(jstream *js, char close, bool *first);

/* jstream_next for objects that also reads the member's key (decoded, at most
 * n - 1 bytes kept) and the ':' after it. */
int jstream_member(jstream *js, bool *first, char *key, size_t n);

/* The keys of one object walked with jstream_member, for repeats. */
typedef struct jstream_keys {
    char key[48][64]; /* the keys so far */
    int n;            /* keys held */
} jstream_keys;

/* Adds key; false when it was there already, or there are too many or it is too long to tell (refuse the
 * object: the rules above). */
bool jstream_new_key(jstream_keys *k, const char *key);

/* The next line of a JSON Lines file, without its '\n'; false at the end of the file (or on a read
 * failure: js->err). The text is valid until the next call. */
bool jstream_line(jstream *js, const char **text, size_t *len);

/* Checks that text[0..len) is exactly one value by the rules above, surrounded by white space only. */
bool jstream_check(const char *text, size_t len);

#endif
