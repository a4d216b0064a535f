/* ring_rule.h - ringrule_: each ring knob's rule and phrase, the one check of a ring size however given. */
/* A flag, a graph's run_config, a sweep's list, --set and a platform file all hold a ring size to these;
 * a graph's runtime_env (a capture's own sizes) to the runtime's RuntimeEnv rule. */
#ifndef PTOSIM_RING_RULE_H
#define PTOSIM_RING_RULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Which ring knob a value belongs to (model/README.md §4.1). */
typedef enum {
    KNOB_TASK_WINDOW, /* power of 2 >= 4, slots (RuntimeEnv: at most INT32_MAX) */
    KNOB_HEAP,        /* a power of 2 >= 1024 bytes (RuntimeEnv: any size >= 1024) */
    KNOB_DEP_POOL,    /* in [4, INT32_MAX], entries */
} ring_knob;

#define RINGRULE_KNOBS 3

/* The knob's name as RunConfig spells it ("ring_task_window"). */
const char *ringrule_name(ring_knob k);

/* Checks a non-zero value v, written repr where it was given, as the user's stack does: pypto's RunConfig
 * (hw-native-sys/pypto python/pypto/runtime/runner.py), then simpler's RuntimeEnv::validate
 * (hw-native-sys/simpler src/common/task_interface/call_config.h), which only adds the task window's
 * INT32_MAX bound. Returns 0, or -1 with "PREFIXNAME must PHRASE, got REPR" (a list's entry: "PREFIXNAME
 * entries must PHRASE (or 0 to keep default), got REPR") or RuntimeEnv's message, prefix first. */
int ringrule_check(ring_knob k, uint64_t v, const char *prefix, bool entry, const char *repr, char *err,
                   size_t errlen);

/* Checks v (0 = unset) by RuntimeEnv::validate alone, the rule of the sizes a capture's runtime ran with:
 * the heap needs only 1024 bytes. Returns 0, or -1 with RuntimeEnv's message. */
int ringrule_check_env(ring_knob k, uint64_t v, char *err, size_t errlen);

/* The message for a value that is no integer at all (repr as given). Returns -1. */
int ringrule_refuse(ring_knob k, const char *prefix, bool entry, const char *repr, char *err, size_t errlen);

#endif
