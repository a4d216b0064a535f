/* rterr.c - runtime error code table (pto_runtime_status.h, error_names.h as summarised in runtime.md §1.8).
 */
#include "rterr.h"

#include <stddef.h>

typedef struct rterr_row {
    int code;
    const char *name;
    const char *detail;
    const char *hint;
} rterr_row;

static const rterr_row ROWS[] = {
    {1, "SCOPE_DEADLOCK", "a scope holds more tasks than its ring's task window can ever free",
     "raise ring_task_window (PTO2_RING_TASK_WINDOW) or split the scope so slots are reclaimed sooner; "
     "enable CallConfig.enable_scope_stats to see which scope peaked"},
    {2, "HEAP_RING_DEADLOCK", "the orchestrator waits for heap space that can never be freed",
     "raise ring_heap (PTO2_RING_HEAP) or shrink per-task args / intermediate tensors; enable "
     "CallConfig.enable_scope_stats to see which scope peaked"},
    {3, "FLOW_CONTROL_DEADLOCK", "the orchestrator waits for a task-window slot that can never be freed",
     "raise ring_task_window or add inner scopes so tasks are reclaimed sooner; enable "
     "CallConfig.enable_scope_stats to see which scope peaked"},
    {4, "DEP_POOL_OVERFLOW", "the dependency-list pool (or fanin spill pool) is exhausted",
     "raise ring_dep_pool; for a reclaiming runtime raise PTO2_RING_DEP_POOL or cut fanin"},
    {5, "INVALID_ARGS", "an orchestration API call received invalid arguments",
     "fix the orchestration code: bad Arg, AUTO scope inside MANUAL, invalid explicit dependency id, "
     "or bad alloc_tensors"},
    {7, "REQUIRE_SYNC_START_INVALID",
     "a sync_start task asks for more blocks than the chip can "
     "co-schedule",
     "lower block_num to at most the physical limit, or drop sync_start"},
    {8, "TENSOR_WAIT_TIMEOUT", "get/set_tensor_data waited too long for a producer",
     "check that the producer of the tensor can finish"},
    {9, "EXPLICIT_ORCH_FATAL", "the orchestration reported a fatal error", "see the orchestration's message"},
    {10, "SCOPE_TASKS_OVERFLOW", "the scope task list is full", "split the scope"},
    {11, "TENSORMAP_OVERFLOW", "the TensorMap entry pool is exhausted and nothing frees entries",
     "reduce live INOUT/OUTPUT_EXISTING writers or add scopes so entries retire"},
    {100, "SCHEDULER_TIMEOUT", "a scheduler thread made no progress for the scheduler timeout",
     "look for a kernel that never ends or a dependency that is never satisfied"},
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
    return find(code) ? find(code)->name : "UNKNOWN";
}

const char *rterr_detail(int code)
{
    return find(code) ? find(code)->detail : "";
}

const char *rterr_hint(int code)
{
    return find(code) ? find(code)->hint : "";
}

static const struct {
    int code;
    const char *name, *detail;
} ACL[] = {
    {507014, "ACL_ERROR_RT_AICORE_TIMEOUT", "AICore task exceeded its execution timeout"},
    {507015, "ACL_ERROR_RT_AICORE_EXCEPTION", "AICore task faulted"},
    {507017, "ACL_ERROR_RT_AICPU_TIMEOUT", "AICPU task exceeded its execution timeout"},
    {507018, "ACL_ERROR_RT_AICPU_EXCEPTION", "AICPU task faulted - the generic one"},
    {507046, "ACL_ERROR_RT_STREAM_SYNC_TIMEOUT", "Host timed out on a stream sync"},
    {507899, "ACL_ERROR_RT_DRV_INTERNAL_ERROR",
     "Driver internal error; typically a sticky error on an already-poisoned context"},
};

const char *rterr_acl_name(int code)
{
    for (size_t i = 0; i < sizeof(ACL) / sizeof(ACL[0]); i++)
        if (ACL[i].code == code)
            return ACL[i].name;
    return "UNKNOWN";
}

const char *rterr_acl_detail(int code)
{
    for (size_t i = 0; i < sizeof(ACL) / sizeof(ACL[0]); i++)
        if (ACL[i].code == code)
            return ACL[i].detail;
    return "unknown ACL error";
}
