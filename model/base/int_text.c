/* int_text.c - strint_: strict decimal integers from text: no blanks or '+', no silent wrap. */
#include "int_text.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>

/* Digits of s after an optional '-' into *mag (saturating at UINT64_MAX + 1 as
 * "too big"). Returns false when s is not [-]digits. */
static bool magnitude(const char *s, bool *neg, uint64_t *mag, bool *too_big)
{
    *neg = *s == '-';
    const char *p = s + *neg;
    if (*p < '0' || *p > '9')
        return false;
    uint64_t v = 0;
    bool big = false;
    for (; *p >= '0' && *p <= '9'; p++) {
        unsigned d = (unsigned)(*p - '0');
        if (v > (UINT64_MAX - d) / 10)
            big = true; /* keep scanning: the text must still be all digits */
        else
            v = v * 10 + d;
    }
    if (*p)
        return false;
    *mag = v;
    *too_big = big;
    return true;
}

strint_status strint_parse(const char *s, int64_t min, int64_t max, int64_t *out)
{
    bool neg, big;
    uint64_t mag;
    if (!magnitude(s, &neg, &mag, &big))
        return STRINT_SYNTAX;
    int64_t v;
    if (big || (!neg && mag > (uint64_t)INT64_MAX) || (neg && mag > (uint64_t)INT64_MAX + 1))
        return STRINT_RANGE;
    if (neg)
        v = mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mag;
    else
        v = (int64_t)mag;
    if (v < min || v > max)
        return STRINT_RANGE;
    *out = v;
    return STRINT_OK;
}

strint_status strint_parse_u64(const char *s, uint64_t max, uint64_t *out)
{
    bool neg, big;
    uint64_t mag;
    if (!magnitude(s, &neg, &mag, &big))
        return STRINT_SYNTAX;
    if (big || (neg && mag) || mag > max)
        return STRINT_RANGE;
    *out = mag;
    return STRINT_OK;
}

int strint_arg(const char *name, const char *s, int64_t min, int64_t max, int64_t *out, char *err,
               size_t errlen)
{
    if (strint_parse(s, min, max, out) == STRINT_OK)
        return 0;
    snprintf(err, errlen, "%s: must be an integer in [%" PRId64 ", %" PRId64 "], got '%s'", name, min, max,
             s);
    return -1;
}
