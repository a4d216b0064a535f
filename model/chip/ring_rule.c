/* ring_rule.c - ringrule_: each ring knob's rule and phrase, the one check of a ring size however given. */
#include "ring_rule.h"

#include <stdio.h>

#define INT32_MAX_VALUE 2147483647ULL

static const char *const NAMES[] = {"ring_task_window", "ring_heap", "ring_dep_pool"};
/* Each knob's rule wherever a user gives a value (pypto's RunConfig, the user's documentation), and its
 * phrase: every entry point refuses a value with the same message. */
static const char *const PHRASES[] = {"be a power of 2 >= 4", "be a power of 2 >= 1024 (bytes per ring)",
                                      "be in [4, INT32_MAX]"};
/* simpler's RuntimeEnv::validate messages (src/common/task_interface/call_config.h), for a graph's
 * runtime_env: the sizes a capture's runtime ran with, which RunConfig may not be able to ask for */
static const char *const ENV_MESSAGES[] = {"RuntimeEnv: ring_task_window must be a power of 2 in [4, INT32_MAX]",
                                           "RuntimeEnv: ring_heap must be >= 1024 (bytes per ring)",
                                           "RuntimeEnv: ring_dep_pool must be in [4, INT32_MAX]"};

const char *ringrule_name(ring_knob k)
{
    return NAMES[k];
}

static bool pow2(uint64_t v)
{
    return v && !(v & (v - 1));
}

/* The rule every entry point holds a value to (PHRASES). */
static bool valid(ring_knob k, uint64_t v)
{
    switch (k) {
    case KNOB_TASK_WINDOW:
        return pow2(v) && v >= 4;
    case KNOB_HEAP:
        return pow2(v) && v >= 1024;
    case KNOB_DEP_POOL:
    default:
        return v >= 4 && v <= INT32_MAX_VALUE;
    }
}

/* RunConfig's message for a bad value (repr as written) or a bad list entry, phrase what it must be. */
static int refuse(ring_knob k, const char *phrase, const char *prefix, bool entry, const char *repr, char *err,
                  size_t errlen)
{
    snprintf(err, errlen,
             entry ? "%s%s entries must %s (or 0 to keep default), got %s" : "%s%s must %s, got %s", prefix,
             NAMES[k], phrase, repr);
    return -1;
}

int ringrule_refuse(ring_knob k, const char *prefix, bool entry, const char *repr, char *err, size_t errlen)
{
    return refuse(k, PHRASES[k], prefix, entry, repr, err, errlen);
}

int ringrule_check(ring_knob k, uint64_t v, const char *prefix, bool entry, const char *repr, char *err,
                   size_t errlen)
{
    if (!valid(k, v))
        return refuse(k, PHRASES[k], prefix, entry, repr, err, errlen);
    if (k == KNOB_TASK_WINDOW && v > INT32_MAX_VALUE) {
        snprintf(err, errlen, "%sRuntimeEnv: ring_task_window must be a power of 2 in [4, INT32_MAX]",
                 prefix);
        return -1;
    }
    return 0;
}

int ringrule_check_env(ring_knob k, uint64_t v, char *err, size_t errlen)
{
    bool ok = v == 0; /* unset: that ring keeps its default */
    switch (k) {
    case KNOB_TASK_WINDOW:
        ok |= pow2(v) && v >= 4 && v <= INT32_MAX_VALUE;
        break;
    case KNOB_HEAP:
        ok |= v >= 1024;
        break;
    case KNOB_DEP_POOL:
    default:
        ok |= v >= 4 && v <= INT32_MAX_VALUE;
        break;
    }
    if (ok)
        return 0;
    snprintf(err, errlen, "%s", ENV_MESSAGES[k]);
    return -1;
}
