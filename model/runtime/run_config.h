/* run_config.h - runcfg_: the user's runtime knobs (RunConfig). */
/* Ring sizes per scope-depth ring and the AICPU thread count, with the runtime's validation messages. */
#ifndef PTOSIM_RUN_CONFIG_H
#define PTOSIM_RUN_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../chip/ring_rule.h"

#define RUNCFG_RINGS 4

/* Which ring knob a value belongs to (model/README.md §4.1); its rule is model/chip/ring_rule.h's. */
typedef ring_knob runcfg_knob;

/* Knob name as RunConfig spells it ("ring_task_window"). */
const char *runcfg_knob_name(runcfg_knob k);

/* Command-line flag of a knob ("--ring-task-window"). */
const char *runcfg_knob_flag(runcfg_knob k);

/* Parses a flag's knob value: one integer (broadcast to the four rings; 0 is
 * rejected) or exactly four comma-separated integers (0 keeps that ring's
 * default). out[r] = 0 means "default". Returns 0, or -1 with pypto's
 * RunConfig message in err, after the flag ("--ring-heap: "). */
int runcfg_parse_ring(runcfg_knob k, const char *text, uint64_t out[RUNCFG_RINGS], char *err, size_t errlen);

/* The rules of a graph header's run_config for values already read as
 * integers: one value broadcast (list false), or a list of n that must be 4.
 * The message is RunConfig's, without a prefix. */
int runcfg_ring_values(runcfg_knob k, const uint64_t *v, int n, bool list, uint64_t out[RUNCFG_RINGS],
                       char *err, size_t errlen);

/* The rules of a graph header's runtime_env, the sizes a capture's runtime ran with (simpler's
 * RuntimeEnv::validate: any heap of at least 1024 bytes, 0 = unset even as one value; captures made through
 * the runtime's own RuntimeEnv use sizes RunConfig cannot ask for: tests/real/heap_rebase, 1572864). Returns
 * 0, or -1 with RuntimeEnv's message. */
int runcfg_env_values(runcfg_knob k, const uint64_t *v, int n, bool list, uint64_t out[RUNCFG_RINGS],
                      char *err, size_t errlen);

/* RuntimeEnv's check of a list's length: 0 for 4 entries, else -1 with its message. */
int runcfg_env_count(runcfg_knob k, int n, char *err, size_t errlen);

/* RuntimeEnv's message for a runtime_env value that is no non-negative integer. Returns -1. */
int runcfg_env_refuse(runcfg_knob k, char *err, size_t errlen);

/* The message for a run_config value that is no integer, written as repr (Python's repr: 'abc', True,
 * 64.5); entry: an entry of a list. Returns -1. */
int runcfg_ring_refuse(runcfg_knob k, bool entry, const char *repr, char *err, size_t errlen);

/* RunConfig's check of a list's length, made before its entries are read: 0 for 4 entries, else -1 with
 * its message. */
int runcfg_ring_count(runcfg_knob k, int n, char *err, size_t errlen);

/* --kernel-scale NAME=F: F a decimal above 0 and at most RUNCFG_MAX_SCALE with at most 6 decimals, kept in
 * millionths (0.9 = 900000). */
#define RUNCFG_MAX_SCALE 1000

/* Splits "NAME=F" into name (namelen bytes at most) and *ppm (F in millionths). Returns 0, or -1 with
 * "--kernel-scale TEXT: what is wrong" in err. */
int runcfg_parse_scale(const char *text, char *name, size_t namelen, uint32_t *ppm, char *err, size_t errlen);

/* F of ppm millionths as the shortest decimal that reads back the same ("0.9", "2", "0.333333"). Returns buf. */
const char *runcfg_scale_text(uint32_t ppm, char *buf, size_t len);

/* launch_aicpu_num's range besides 0 (auto): the orchestrator and 1 to 3 schedulers. */
#define RUNCFG_MIN_THREADS 2
#define RUNCFG_MAX_THREADS 4

/* Checks --aicpu-thread-num: 0 (auto) or 2..4. Returns 0, or -1 with the
 * runtime's message. */
int runcfg_check_threads(long n, char *err, size_t errlen);

/* Reads and checks --aicpu-thread-num's text (strint rules). Returns 0, or -1
 * with a message in err. */
int runcfg_parse_threads(const char *text, long *out, char *err, size_t errlen);

/* Resolves the PMU event type (model/README.md §16.4): off unless --enable-pmu was
 * given; an explicit value wins; a bare flag takes SIMPLER_PMU_EVENT_TYPE
 * (env, may be NULL) when valid, else 2 with the runtime's message in warn, as
 * the runtime falls back. Returns 0, or -1 with a message in err when value is
 * not an integer or no event type (the runtime would fall back; ptosim's command
 * line refuses it). */
int runcfg_pmu_type(int given, const char *value, const char *env, int *type, char *warn, size_t warnlen,
                    char *err, size_t errlen);

/* Resolves a timeout in `unit` ("milliseconds", "microseconds"): the flag's
 * value (may be NULL) wins, then the environment variable env_name, then
 * def. A flag that is not a positive integer is an error; a bad environment
 * value is ignored with a warning. Returns 0, or -1 with a message in err. */
int runcfg_timeout(const char *flag, const char *flag_value, const char *env_name, const char *unit, long def,
                   long *out, char *warn, size_t warnlen, char *err, size_t errlen);

/* The runtime's ordering rule for the onboard timeouts (model/README.md §14.4):
 * scheduler < op-execute < stream-sync, and stream-sync > scheduler + 1.5 s. */
bool runcfg_timeouts_ordered(long sched_ms, long op_us, long stream_ms);

/* The runtime's process-wide PTO2_RING_TASK_WINDOW, PTO2_RING_HEAP and
 * PTO2_RING_DEP_POOL are retired in the user's documentation of RunConfig
 * (pypto "Tuning the Schedule"; model/README.md §4.1) and are not read: for
 * each one set (even to ""), writes one line to warn (NULL: nowhere) after
 * prefix naming the RunConfig knob and the flag to use instead. Returns how
 * many are set. */
int runcfg_env_retired(FILE *warn, const char *prefix);

#endif
