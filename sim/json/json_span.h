/* json_span.h - jspan_: one JSON object's members as spans of its text, compared without a tree. */
#ifndef PTOSIM_JSON_SPAN_H
#define PTOSIM_JSON_SPAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Why: conform compares a capture's 146,000 edges and 65,000 tasks with ptosim's; a cJSON tree per
 * element cost more than reading the file. Nearly every compared value is a plain string or integer
 * that is equal on both sides, which the spans tell without building anything; whatever they cannot
 * tell for certain goes to the caller's tree path, which stays the reference. */

/* A value's text; p is NULL when the member is absent. */
typedef struct jspan {
    const char *p;
    size_t n;
} jspan;

/* Are a[0..n) and b[0..n) the same bytes? Eight (or four) at a time, the last ones overlapping. */
static inline bool jspan_same_bytes(const char *a, const char *b, size_t n)
{
    if (n >= 8) {
        uint64_t x, y;
        for (size_t i = 0; i + 8 < n; i += 8) {
            memcpy(&x, a + i, 8);
            memcpy(&y, b + i, 8);
            if (x != y)
                return false;
        }
        memcpy(&x, a + n - 8, 8);
        memcpy(&y, b + n - 8, 8);
        return x == y;
    }
    if (n >= 4) {
        uint32_t x, y, u, v;
        memcpy(&x, a, 4);
        memcpy(&y, b, 4);
        memcpy(&u, a + n - 4, 4);
        memcpy(&v, b + n - 4, 4);
        return x == y && u == v;
    }
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return false;
    return true;
}

/* Fills out[k] with the value of the first member named keys[k] of the object text[0..len) (the member
 * cJSON_GetObjectItemCaseSensitive finds), or an absent span. The text must have been checked before
 * (jstream_value, jstream_check): values are passed over, not checked again. On text that was not (conform
 * imports a capture while it is being checked, and throws the import away if the check fails), it reads
 * nothing outside text[0..len) and its spans mean nothing. False when the text is not an object, or a key
 * holds an escape (the caller's tree path decides then). The keys are distinct. */
bool jspan_members(const char *text, size_t len, const char *const *keys, int nkeys, jspan *out);

/* An item of an array walked by jspan_members_each: its text starts at item (avail bytes from there to the
 * end of the whole text); it sets *used to the item's length, or returns false to stop the walk. */
typedef bool (*jspan_each_fn)(const char *item, size_t avail, size_t *used, void *arg);

/* jspan_members that hands each item of the first member named keys[each_key] (an array; false when it is
 * not one) to each as it goes, instead of passing over the array first: an array of objects (a task's
 * args) is walked once. */
bool jspan_members_each(const char *text, size_t len, const char *const *keys, int nkeys, jspan *out,
                        int each_key, jspan_each_fn each, void *arg);

/* Hands each item of the array arr to each (as jspan_members_each does its member's); false when arr is no
 * array or each refuses an item. */
bool jspan_items(jspan arr, jspan_each_fn each, void *arg);

/* jspan_members of an object at the start of text[0..len) that need not end the text: *used is its length
 * (to its closing brace). For jspan_each_fn. */
bool jspan_object_at(const char *text, size_t len, const char *const *keys, int nkeys, jspan *out, size_t *used);

/* Are a and b the same text apart from white space outside strings? True means equal JSON values (what
 * cJSON_Compare calls equal); false means only that the texts differ (1.0 and 1 are equal values). Two
 * absent spans are the same; absent and present are not. */
bool jspan_same_text(jspan a, jspan b);

/* Copies v without the white space outside its strings into buf (NUL-terminated) when that is exactly
 * the compact text cJSON prints for it, and it is shorter than n: strings without escapes, integers of at
 * most 9 digits other than -0, literals, and arrays and objects of these. False otherwise. */
bool jspan_compact(jspan v, char *buf, size_t n);

/* A string value without escapes: its content into buf (NUL-terminated, shorter than n). False for any
 * other value, or one that does not fit. */
bool jspan_string(jspan v, char *buf, size_t n);

/* A decimal string (a string value's content) as an unsigned 64-bit id, read as strtoull reads it; false
 * when empty, negative, out of range or followed by anything. The captures write ids this way. */
bool jspan_u64_text(const char *s, uint64_t *out);

/* The next element of the array walked from *at (start at the '[' of arr: at = arr.p): true with *elem
 * set, false at the end or on text that is not an array. */
bool jspan_next(jspan arr, const char **at, jspan *elem);

#endif
