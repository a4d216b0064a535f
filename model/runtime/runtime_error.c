/* runtime_error.c - rterr_: the runtime's error-code and CANN-code tables, and its host lines. */
/* The tables are copied verbatim from the runtime's sources. */
#include "runtime_error.h"

#include <stddef.h>
#include <string.h>

/* One latched PTO2_ERROR_* code. name, detail and hint are error_name(),
 * error_desc() and error_hint() of hw-native-sys/simpler
 * src/common/runtime_status/error_names.h, byte for byte: scripts grep the
 * host lines built from them. Codes 6 (retired) and the ready-queue overflow
 * are not defined for a2a3 tensormap_and_ringbuffer, so they stay unknown. */
typedef struct rterr_row {
    int code;
    const char *name;
    const char *detail;
    const char *hint;
    const char *knob; /* ptosim's way to change what the hint names, or NULL; where the hint names a
                       * retired PTO2_RING_* variable it says so (model/README.md §4.1) */
} rterr_row;

static const rterr_row ROWS[] = {
    {0, "none", "no error", "", NULL},
    {1, "SCOPE_DEADLOCK",
     "tasks submitted in one scope reached the ring task-window cap; their fanout "
     "references are only released at scope_end, so no slot can be reclaimed",
     "raise ring_task_window (PTO2_RING_TASK_WINDOW) or split the scope so slots are "
     "reclaimed sooner; enable CallConfig.enable_scope_stats to see which scope peaked",
     "--ring-task-window N|a,b,c,d (RunConfig ring_task_window; PTO2_RING_TASK_WINDOW is retired and not "
     "read); see the scopes with --enable-scope-stats"},
    {2, "HEAP_RING_DEADLOCK", "the task allocator could not reserve the heap bytes required for another task",
     "raise ring_heap (PTO2_RING_HEAP) or shrink per-task args / intermediate tensors; the "
     "'Ring buffer sizes:' line above reports the configured capacities",
     "--ring-heap N|a,b,c,d (RunConfig ring_heap; PTO2_RING_HEAP is retired and not read)"},
    {3, "FLOW_CONTROL_DEADLOCK",
     "the task allocator could not admit another task because the configured task window "
     "had no available slot",
     "raise ring_task_window (PTO2_RING_TASK_WINDOW) or shrink the graph; in a reclaiming "
     "runtime also check for nested submission or a stalled consumer",
     "--ring-task-window N|a,b,c,d (RunConfig ring_task_window; PTO2_RING_TASK_WINDOW is retired and not "
     "read)"},
    {4, "DEP_POOL_OVERFLOW",
     "a task's producer dependencies exceeded the runtime's available fanin "
     "representation capacity",
     "follow the preceding resource diagnostic: HBG has no spill pool, so reduce fanin to "
     "PTO2_MAX_FANIN or less; for a reclaiming runtime raise PTO2_RING_DEP_POOL or cut fanin",
     "--ring-dep-pool N|a,b,c,d (RunConfig ring_dep_pool; PTO2_RING_DEP_POOL is retired and not read)"},
    {5, "INVALID_ARGS",
     "an orchestration API rejected its arguments (bad alloc_tensors info, illegal nested "
     "scope, unknown task id in set_dependencies, or an CoreTaskArgs carrying an error flag)",
     "an orchestration bug, not a capacity problem -- resizing the rings will not help; "
     "recheck the arguments of the orchestration API calls listed above",
     NULL},
    {7, "REQUIRE_SYNC_START_INVALID",
     "require_sync_start() asked for more blocks than the target core type physically has, "
     "which can never be satisfied",
     "lower the task's block_num to at most the physical core count of the target core type "
     "(total AIV count, or total cluster count for MIX/AIC), or drop the sync-start request",
     NULL},
    {8, "TENSOR_WAIT_TIMEOUT",
     "waiting for tensor data timed out: the producing task never completed, or a consumer "
     "never released its fanout reference",
     "find the producing kernel and check it for a hang (see SCHEDULER_TIMEOUT sub_class S1); "
     "verify the consumer declares the dependency and exits; raise PTO2_TENSOR_DATA_TIMEOUT_MS "
     "to tell a slow kernel apart from a stuck one",
     NULL},
    {9, "EXPLICIT_ORCH_FATAL",
     "the orchestration code called rt_report_fatal() itself; every later orchestration API "
     "call short-circuits to a no-op",
     "self-inflicted -- follow the message passed to the rt_report_fatal() call site", NULL},
    {10, "SCOPE_TASKS_OVERFLOW",
     "the scope task-record buffer saturated (runtime-internal; the rings normally fill "
     "first and latch SCOPE_DEADLOCK or FLOW_CONTROL_DEADLOCK)",
     "not expected in normal operation -- keep the device log and report it to the runtime "
     "maintainers; tuning the ring capacities will not help",
     NULL},
    {11, "TENSORMAP_OVERFLOW",
     "the tensormap could not reserve the entries required to register another task's outputs",
     "follow the preceding resource diagnostic: in HBG increase PTO2_TENSORMAP_POOL_SIZE "
     "or shrink the graph; in a reclaiming runtime also inspect entry-reclaim progress",
     "--set tensormap_pool=N (PTO2_TENSORMAP_POOL_SIZE is a compile-time constant of the runtime)"},
    {100, "SCHEDULER_TIMEOUT",
     "the scheduler saw no forward progress within its timeout; the sub_class= line below "
     "carries the device-classified reason and locators",
     "read the sub_class= line below first, then follow the S1-S5 table in the doc; raise "
     "PTO2_SCHEDULER_TIMEOUT_MS to tell a true deadlock apart from a merely slow kernel",
     /* the variable the runtime reads is SIMPLER_SCHEDULER_TIMEOUT_MS
      * (src/common/platform/include/host/runtime_timeout_config.h) */
     "--scheduler-timeout-ms N or SIMPLER_SCHEDULER_TIMEOUT_MS (the variable the runtime reads)"},
    {101, "ASYNC_COMPLETION_INVALID",
     "an async completion condition is malformed (bad completion_type, null counter address, "
     "or an invalid SDMA event record)",
     "recheck the register_completion_condition() arguments in the kernel, in particular the "
     "completion type and the counter address",
     NULL},
    {102, "ASYNC_WAIT_OVERFLOW",
     "the async wait list filled up: in-flight async completions exceeded the per-task cap",
     "cut the number of in-flight async completions per task, and confirm the consumer side "
     "actually polls and retires them",
     NULL},
    {103, "ASYNC_REGISTRATION_FAILED",
     "the scheduler received an async completion message of an illegal kind (runtime-internal; "
     "ASYNC_WAIT_OVERFLOW normally intercepts this first)",
     "not expected in normal operation -- keep the device log and report it to the runtime "
     "maintainers; tuning the ring capacities will not help",
     NULL},
};

static const rterr_row *find(int code)
{
    for (size_t i = 0; i < sizeof(ROWS) / sizeof(ROWS[0]); i++)
        if (ROWS[i].code == code)
            return &ROWS[i];
    return NULL;
}

const char *rterr_name(int code)
{
    const rterr_row *r = find(code);
    return r ? r->name : "unknown";
}

const char *rterr_detail(int code)
{
    const rterr_row *r = find(code);
    return r ? r->detail : "";
}

const char *rterr_hint(int code)
{
    const rterr_row *r = find(code);
    return r ? r->hint : "";
}

const char *rterr_ptosim_knob(int code)
{
    const rterr_row *r = find(code);
    return r ? r->knob : NULL;
}

int rterr_hint_cites_ring_sizes(int code)
{
    return strstr(rterr_hint(code), "'Ring buffer sizes:' line above") != NULL;
}

int rterr_print_failure(FILE *f, int code)
{
    /* at most one of the two codes is latched (error_names.h latched_error_code) */
    int orch = code < RTERR_FIRST_SCHED_CODE ? code : 0, sched = code < RTERR_FIRST_SCHED_CODE ? 0 : code;
    const char *field = orch ? "orch_error_code" : "sched_error_code";
    fprintf(f, "PTO2 runtime failed: orch_error_code=%d sched_error_code=%d runtime_status=%d\n", orch, sched,
            -code);
    if (code == 0 || rterr_detail(code)[0] == '\0')
        return 1; /* an unknown code stays a bare number rather than borrow a neighbour's text */
    fprintf(f, "error detail: %s=%d %s - %s\n", field, code, rterr_name(code), rterr_detail(code));
    if (rterr_hint(code)[0] == '\0')
        return 2;
    fprintf(f, "error hint: %s. See docs/troubleshooting/device-error-codes.md\n", rterr_hint(code));
    return 3;
}

const char *rterr_stall_name(int detail)
{
    /* stall_detail_name() of pto_runtime_status.h */
    switch (detail) {
    case 0:
        return "none";
    case 1:
        return "S1:running-stalled";
    case 3:
        return "S3:ready-but-all-idle";
    case 4:
        return "S4:dependency-deadlock";
    case 5:
        return "S5:orchestrator-starvation";
    case 99:
        return "unknown:accounting/corruption";
    default:
        return "invalid";
    }
}

/* The CANN codes the runtime characterises: acl_error_name(), acl_error_desc()
 * and acl_error_hint() of hw-native-sys/simpler
 * src/common/platform/include/host/acl_error_names.h, byte for byte. */
#define ACL_FALLOUT_HINT                                                                                     \
    "look further up the log for the first failure on this device -- this code is fallout, not the root "    \
    "cause"
#define ACL_GENERIC_HINT                                                                                     \
    "do NOT read this as 'deadlock' or 'OOM' on its own -- it is a generic host-side code. Grep the host "   \
    "log for 'orch_error_code=' / 'sched_error_code=' / 'sub_class=' to get the device-classified reason, "  \
    "and read the device log for the detector that fired"

static const struct {
    int code;
    const char *name, *detail, *hint;
} ACL[] = {
    {107022, "ACL_ERROR_RT_DEVICE_TASK_ABORT",
     "the device task was aborted, usually as collateral damage after another task on the same device "
     "faulted",
     ACL_FALLOUT_HINT},
    {207001, "ACL_ERROR_RT_MEMORY_ALLOCATION", "device memory allocation failed (out of memory)",
     "reduce the workload's device memory footprint, or check whether another process is holding memory on "
     "this device"},
    {507000, "ACL_ERROR_RT_INTERNAL_ERROR",
     "runtime internal error -- on a5 this is what an AICPU op timeout surfaces as at stream sync",
     ACL_GENERIC_HINT},
    {507014, "ACL_ERROR_RT_AICORE_TIMEOUT", "an AICore task exceeded its execution timeout",
     ACL_GENERIC_HINT},
    {507015, "ACL_ERROR_RT_AICORE_EXCEPTION", "an AICore task raised an exception",
     "find the faulting AICore kernel in the device log; this is a kernel-side fault, not a capacity or "
     "scheduling problem"},
    {507017, "ACL_ERROR_RT_AICPU_TIMEOUT", "an AICPU task exceeded its execution timeout", ACL_GENERIC_HINT},
    {507018, "ACL_ERROR_RT_AICPU_EXCEPTION",
     "an AICPU task raised an exception; several distinct on-device mechanisms all surface as this one "
     "generic code",
     ACL_GENERIC_HINT},
    {507046, "ACL_ERROR_RT_STREAM_SYNC_TIMEOUT",
     "the host timed out waiting on a stream sync; the device never reported completion", ACL_GENERIC_HINT},
    {507899, "ACL_ERROR_RT_DRV_INTERNAL_ERROR",
     "driver internal error -- typically a sticky error returned by every later call on an already-poisoned "
     "context, so it is a symptom of an earlier failure, not the cause",
     ACL_FALLOUT_HINT},
};

static int acl_find(int code)
{
    for (size_t i = 0; i < sizeof(ACL) / sizeof(ACL[0]); i++)
        if (ACL[i].code == code)
            return (int)i;
    return -1;
}

const char *rterr_acl_name(int code)
{
    int i = acl_find(code);
    return i < 0 ? NULL : ACL[i].name;
}

const char *rterr_acl_detail(int code)
{
    int i = acl_find(code);
    return i < 0 ? NULL : ACL[i].detail;
}

const char *rterr_acl_hint(int code)
{
    int i = acl_find(code);
    return i < 0 ? NULL : ACL[i].hint;
}
