/* runtime_error.h - rterr_: the runtime's error and CANN codes: names, details, hints, host lines. */
#ifndef PTOSIM_RUNTIME_ERROR_H
#define PTOSIM_RUNTIME_ERROR_H

#include <stdio.h>

/* Codes below this are the orchestrator's (orch_error_code), the rest the
 * schedulers' (sched_error_code) (hw-native-sys/simpler
 * src/a2a3/runtime/tensormap_and_ringbuffer/common/pto_runtime_status.h). */
#define RTERR_FIRST_SCHED_CODE 100
#define RTERR_SCHEDULER_TIMEOUT 100 /* PTO2_ERROR_SCHEDULER_TIMEOUT */

/* Name of a runtime error code ("SCOPE_DEADLOCK"), "none" for 0, or
 * "unknown" for a code the runtime's table does not cover. */
const char *rterr_name(int code);

/* The runtime's one-sentence meaning of the code; "" for an unknown code. */
const char *rterr_detail(int code);

/* The runtime's triage hint for the code; "" when it has none. */
const char *rterr_hint(int code);

/* Where ptosim sets what the runtime's hint asks to change ("--ring-heap
 * N|a,b,c,d (RunConfig ring_heap; PTO2_RING_HEAP is retired and not read)":
 * the runtime's hint, printed verbatim, still names the variable), or NULL. */
const char *rterr_ptosim_knob(int code);

/* Writes the host's report of a latched code, as the runtime's
 * LOG_RUNTIME_FAILURE prints it with the log prefix stripped: the failure
 * line, then the detail and hint lines when the code is known. Returns the
 * number of lines written. */
int rterr_print_failure(FILE *f, int code);

/* ptosim's first line after host lines whose hint ends "See docs/troubleshooting/device-error-codes.md": that
 * page is the runtime's, which ptosim does not ship (after "ptosim: "). */
#define RTERR_PAGE_NOTE                                                                                      \
    "docs/troubleshooting/device-error-codes.md (named above) is the runtime's page, in hw-native-sys/simpler; " \
    "ptosim's own exit statuses are in man ptosim, EXIT STATUS"

/* Whether the code's hint cites the runtime's "Ring buffer sizes:" line, which its host logs when it sets
 * the rings up (runtime_maker.cpp) and ptosim prints only then. */
int rterr_hint_cites_ring_sizes(int code);

/* Label of a scheduler-timeout sub-class (detail 1, 3, 4, 5, 99, or 0 for
 * none) as the host's sub_class= line prints it ("S1:running-stalled"). */
const char *rterr_stall_name(int detail);

/* Name of an ACL error the host reports after a device failure
 * ("ACL_ERROR_RT_AICPU_EXCEPTION"), or NULL when the runtime has not
 * characterised the code. */
const char *rterr_acl_name(int code);

/* Its one-line meaning, or NULL. */
const char *rterr_acl_detail(int code);

/* What to do about it, or NULL. */
const char *rterr_acl_hint(int code);

#endif
