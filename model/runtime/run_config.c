/* run_config.c - runcfg_: ring knobs as RunConfig and RuntimeEnv take them, with their messages. */
/* The retired PTO2_RING_* variables only draw a warning. */
#include "run_config.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../chip/pmu.h"
#include "../base/int_text.h"

static const char *const FLAGS[] = {"--ring-task-window", "--ring-heap", "--ring-dep-pool"};
/* the runtime's process-wide ring variables, retired by the user's documentation of RunConfig
 * (model/README.md §4.1): ptosim never reads their values */
static const char *const ENVS[] = {"PTO2_RING_TASK_WINDOW", "PTO2_RING_HEAP", "PTO2_RING_DEP_POOL"};

const char *runcfg_knob_name(runcfg_knob k)
{
    return ringrule_name(k);
}

const char *runcfg_knob_flag(runcfg_knob k)
{
    return FLAGS[k];
}

/* Parses one decimal integer token of length len; writes the Python repr of
 * what was given into repr (an int as digits, anything else quoted). */
static int parse_token(const char *s, size_t len, uint64_t *v, char *repr, size_t reprlen)
{
    char tok[64];
    if (len >= sizeof(tok))
        len = sizeof(tok) - 1;
    memcpy(tok, s, len);
    tok[len] = '\0';
    uint64_t u;
    strint_status st = strint_parse_u64(tok, UINT64_MAX, &u);
    if (st == STRINT_SYNTAX) {
        snprintf(repr, reprlen, "'%s'", tok); /* Python's repr of a string: ' 16', '+16' */
        return -1;
    }
    snprintf(repr, reprlen, "%s", tok);
    if (st != STRINT_OK) /* negative, or past 64 bits */
        return -1;
    *v = u;
    return 0;
}

static int bad_value(runcfg_knob k, const char *prefix, bool entry, const char *repr, char *err,
                     size_t errlen)
{
    return ringrule_refuse(k, prefix, entry, repr, err, errlen);
}

/* The one rule of a ring size (model/chip/ring_rule.c). */
static int check_value(runcfg_knob k, uint64_t v, const char *prefix, bool entry, const char *repr, char *err,
                       size_t errlen)
{
    return ringrule_check(k, v, prefix, entry, repr, err, errlen);
}

static int bad_count(runcfg_knob k, const char *prefix, int n, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s%s must have exactly 4 entries (one per scope-depth ring), got %d", prefix,
             ringrule_name(k), n);
    return -1;
}

int runcfg_parse_ring(runcfg_knob k, const char *text, uint64_t out[RUNCFG_RINGS], char *err, size_t errlen)
{
    char repr[80], prefix[40];
    snprintf(prefix, sizeof(prefix), "%s: ", FLAGS[k]);
    const char *comma = strchr(text, ',');
    if (!comma) {
        uint64_t v = 0;
        if (parse_token(text, strlen(text), &v, repr, sizeof(repr)) != 0)
            return bad_value(k, prefix, false, repr, err, errlen);
        if (check_value(k, v, prefix, false, repr, err, errlen) != 0)
            return -1;
        for (int r = 0; r < RUNCFG_RINGS; r++)
            out[r] = v;
        return 0;
    }
    int n = 1;
    for (const char *p = text; *p; p++)
        n += *p == ',';
    if (n != RUNCFG_RINGS)
        return bad_count(k, prefix, n, err, errlen);
    const char *p = text;
    for (int r = 0; r < RUNCFG_RINGS; r++) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        uint64_t v = 0;
        if (parse_token(p, len, &v, repr, sizeof(repr)) != 0)
            return bad_value(k, prefix, true, repr, err, errlen);
        if (v != 0 && check_value(k, v, prefix, true, repr, err, errlen) != 0)
            return -1;
        out[r] = v;
        p = e ? e + 1 : p + len;
    }
    return 0;
}

int runcfg_ring_values(runcfg_knob k, const uint64_t *v, int n, bool list, uint64_t out[RUNCFG_RINGS],
                       char *err, size_t errlen)
{
    char repr[32];
    if (!list) {
        snprintf(repr, sizeof(repr), "%" PRIu64, v[0]);
        if (check_value(k, v[0], "", false, repr, err, errlen) != 0)
            return -1;
        for (int r = 0; r < RUNCFG_RINGS; r++)
            out[r] = v[0];
        return 0;
    }
    if (n != RUNCFG_RINGS)
        return bad_count(k, "", n, err, errlen);
    for (int r = 0; r < RUNCFG_RINGS; r++) {
        snprintf(repr, sizeof(repr), "%" PRIu64, v[r]);
        if (v[r] != 0 && check_value(k, v[r], "", true, repr, err, errlen) != 0)
            return -1;
        out[r] = v[r];
    }
    return 0;
}

int runcfg_env_count(runcfg_knob k, int n, char *err, size_t errlen)
{
    if (n == RUNCFG_RINGS)
        return 0;
    snprintf(err, errlen, "RuntimeEnv.%s list must contain exactly 4 entries", ringrule_name(k));
    return -1;
}

int runcfg_env_values(runcfg_knob k, const uint64_t *v, int n, bool list, uint64_t out[RUNCFG_RINGS],
                      char *err, size_t errlen)
{
    if (list && runcfg_env_count(k, n, err, errlen) != 0)
        return -1;
    for (int r = 0; r < RUNCFG_RINGS; r++) {
        uint64_t x = v[list ? r : 0];
        if (ringrule_check_env(k, x, err, errlen) != 0)
            return -1;
        out[r] = x;
    }
    return 0;
}

int runcfg_env_refuse(runcfg_knob k, char *err, size_t errlen)
{
    snprintf(err, errlen, "RuntimeEnv.%s must be an int (broadcast) or a list of 4 ints", ringrule_name(k));
    return -1;
}

int runcfg_ring_refuse(runcfg_knob k, bool entry, const char *repr, char *err, size_t errlen)
{
    return bad_value(k, "", entry, repr, err, errlen);
}

int runcfg_ring_count(runcfg_knob k, int n, char *err, size_t errlen)
{
    return n == RUNCFG_RINGS ? 0 : bad_count(k, "", n, err, errlen);
}

int runcfg_check_threads(long n, char *err, size_t errlen)
{
    if (n == 0 || (n >= RUNCFG_MIN_THREADS && n <= RUNCFG_MAX_THREADS))
        return 0;
    snprintf(err, errlen, "--aicpu-thread-num: launch_aicpu_num (%ld) must be 0 (auto) or in range [2, 4]",
             n);
    return -1;
}

int runcfg_parse_threads(const char *text, long *out, char *err, size_t errlen)
{
    int64_t v;
    strint_status st = strint_parse(text, INT64_MIN, INT64_MAX, &v);
    if (st == STRINT_SYNTAX) {
        snprintf(err, errlen, "--aicpu-thread-num: '%s' is not an integer", text);
        return -1;
    }
    if (st == STRINT_RANGE || v < 0 || v > 4) { /* the value as given: 2^63 is not 2^63 - 1 */
        snprintf(err, errlen, "--aicpu-thread-num: launch_aicpu_num (%s) must be 0 (auto) or in range [2, 4]",
                 text);
        return -1;
    }
    *out = (long)v;
    return runcfg_check_threads(*out, err, errlen);
}

int runcfg_env_retired(FILE *warn, const char *prefix)
{
    int n = 0;
    for (int k = 0; k < 3; k++) {
        if (!getenv(ENVS[k]))
            continue;
        n++;
        if (warn)
            fprintf(warn, "%s%s is retired and not read; use RunConfig %s (%s)\n", prefix ? prefix : "",
                    ENVS[k], ringrule_name(k), FLAGS[k]);
    }
    return n;
}

static bool pmu_valid(long t)
{
    return t >= 0 && t <= 8 && pmu_type_valid((int)t);
}

int runcfg_pmu_type(int given, const char *value, const char *env, int *type, char *warn, size_t warnlen,
                    char *err, size_t errlen)
{
    if (warn && warnlen)
        warn[0] = '\0';
    *type = 0;
    if (!given)
        return 0;
    if (value) {
        int64_t t;
        strint_status st = strint_parse(value, INT64_MIN, INT64_MAX, &t);
        if (st == STRINT_SYNTAX) {
            snprintf(err, errlen, "--enable-pmu: '%s' is not an integer event type", value);
            return -1;
        }
        if (st == STRINT_OK && t == 0)
            return 0; /* explicitly off */
        if (st != STRINT_OK || !pmu_valid((long)t)) {
            /* the runtime would warn and use 2; a type on ptosim's command line is a typo to fix */
            snprintf(err, errlen, "--enable-pmu: must be 0 (off) or an event type 1, 2 or 4-8, got %s", value);
            return -1;
        }
        *type = (int)t;
        return 0;
    }
    *type = 2; /* bare flag = PIPE_UTILIZATION */
    if (env) {
        char *end;
        errno = 0;
        long t = strtol(env, &end, 10);
        if (end != env && !*end && !errno && pmu_valid(t))
            *type = (int)t;
        else
            snprintf(warn, warnlen, "Invalid SIMPLER_PMU_EVENT_TYPE=%s, using default (PIPE_UTILIZATION=2)",
                     env);
    }
    return 0;
}

int runcfg_timeout(const char *flag, const char *flag_value, const char *env_name, const char *unit, long def,
                   long *out, char *warn, size_t warnlen, char *err, size_t errlen)
{
    if (warn && warnlen)
        warn[0] = '\0';
    *out = def;
    char *end;
    if (flag_value) {
        int64_t v;
        if (strint_parse(flag_value, 1, LONG_MAX, &v) != STRINT_OK) {
            snprintf(err, errlen, "%s: must be a positive integer (%s), got '%s'", flag, unit, flag_value);
            return -1;
        }
        *out = (long)v;
        return 0;
    }
    const char *env = getenv(env_name);
    if (env) {
        errno = 0;
        long v = strtol(env, &end, 10);
        if (end == env || *end || errno || v <= 0)
            snprintf(warn, warnlen, "%s=%s is not a positive integer, ignored (using %ld)", env_name, env,
                     def);
        else
            *out = v;
    }
    return 0;
}

bool runcfg_timeouts_ordered(long sched_ms, long op_us, long stream_ms)
{
    double op_ms = (double)op_us / 1000.0;
    return (double)sched_ms < op_ms && op_ms < (double)stream_ms &&
           (double)stream_ms > (double)sched_ms + 1500.0;
}

int runcfg_parse_scale(const char *text, char *name, size_t namelen, uint32_t *ppm, char *err, size_t errlen)
{
    const char *eq = strrchr(text, '=');
    if (!eq || eq == text || !eq[1]) {
        snprintf(err, errlen,
                 "--kernel-scale %s: expected NAME=F (a kernel's name and the factor on its execution time: 0.9 "
                 "= 10%% faster)",
                 text);
        return -1;
    }
    const char *f = eq + 1, *c = f;
    uint64_t whole = 0, frac = 0;
    int nwhole = 0, nfrac = 0;
    for (; *c >= '0' && *c <= '9'; c++, nwhole++)
        whole = whole < 100000 ? whole * 10 + (uint64_t)(*c - '0') : 100000; /* past the limit: stays past */
    if (*c == '.')
        for (c++; *c >= '0' && *c <= '9'; c++, nfrac++)
            frac = nfrac < 6 ? frac * 10 + (uint64_t)(*c - '0') : frac;
    if (*f == '-' && f[1] >= '0' && f[1] <= '9') {
        snprintf(err, errlen, "--kernel-scale %s: F must be above 0 (the factor on the kernel's time), got '%s'",
                 text, f);
        return -1;
    }
    if (*c || (!nwhole && !nfrac) || (*f == '.' && !nfrac) || (f[nwhole] == '.' && !nfrac)) {
        snprintf(err, errlen, "--kernel-scale %s: F is a decimal number such as 0.9 or 1.5, got '%s'", text, f);
        return -1;
    }
    if (nfrac > 6) {
        snprintf(err, errlen, "--kernel-scale %s: F has at most 6 decimals, got '%s'", text, f);
        return -1;
    }
    for (int k = nfrac; k < 6; k++)
        frac *= 10;
    uint64_t v = whole * 1000000u + frac;
    if (v == 0) {
        snprintf(err, errlen, "--kernel-scale %s: F must be above 0 (the factor on the kernel's time), got '%s'",
                 text, f);
        return -1;
    }
    if (v > (uint64_t)RUNCFG_MAX_SCALE * 1000000u) {
        snprintf(err, errlen, "--kernel-scale %s: F must be at most %d, got '%s'", text, RUNCFG_MAX_SCALE, f);
        return -1;
    }
    if ((size_t)(eq - text) >= namelen) {
        snprintf(err, errlen, "--kernel-scale %s: the kernel's name is longer than %zu characters", text,
                 namelen - 1);
        return -1;
    }
    memcpy(name, text, (size_t)(eq - text));
    name[eq - text] = '\0';
    *ppm = (uint32_t)v;
    return 0;
}

const char *runcfg_scale_text(uint32_t ppm, char *buf, size_t len)
{
    uint32_t frac = ppm % 1000000u;
    int n = snprintf(buf, len, "%" PRIu32, ppm / 1000000u);
    if (frac && n > 0 && (size_t)n < len) {
        char digits[8];
        snprintf(digits, sizeof(digits), "%06" PRIu32, frac);
        for (int k = 5; k > 0 && digits[k] == '0'; k--)
            digits[k] = '\0';
        snprintf(buf + n, len - (size_t)n, ".%s", digits);
    }
    return buf;
}
