/* int_text.h - strint_: the one strict reader of decimal integers given as text. */
/* Command-line values, --set. */
#ifndef PTOSIM_INT_TEXT_H
#define PTOSIM_INT_TEXT_H

#include <stddef.h>
#include <stdint.h>

/* What strint_parse found. */
typedef enum {
    STRINT_OK,     /* an integer in range */
    STRINT_SYNTAX, /* not a decimal integer */
    STRINT_RANGE,  /* an integer outside [min, max], one past 64 bits included */
} strint_status;

/* Reads all of s as a decimal integer: an optional '-' and then digits, and
 * nothing else (no blanks, no '+', no base prefix, no empty string), so every
 * flag takes the same text. A value that does not fit is STRINT_RANGE, never
 * wrapped or saturated. Returns the status; *out is set on STRINT_OK. */
strint_status strint_parse(const char *s, int64_t min, int64_t max, int64_t *out);

/* The same for values up to UINT64_MAX ('-' is STRINT_RANGE unless s is "-0"). */
strint_status strint_parse_u64(const char *s, uint64_t max, uint64_t *out);

/* strint_parse with the usual message: "NAME: must be an integer in [min,
 * max], got 'S'" (the bounds as given). Returns 0, or -1 with it in err. */
int strint_arg(const char *name, const char *s, int64_t min, int64_t max, int64_t *out, char *err,
               size_t errlen);

#endif
