/* platform.c - parameter table, a2a3 defaults, platform JSON loading and KEY=VALUE overrides. */
#include "platform.h"

#include <cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/json_reader.h"
#include "../base/msg_text.h"
#include "../base/readall.h"
#include "../base/int_text.h"
#include "ring_rule.h"

typedef enum { PT_INT, PT_DOUBLE } param_type;

/* One row of the parameter table: where the value lives, its default, its
 * legal range and the spec section it comes from. */
typedef struct param_def {
    const char *name;   /* key in JSON files and --set */
    param_type type;    /* integer or floating point */
    size_t offset;      /* offsetof(platform, field) */
    double def;         /* a2a3 default */
    double min, max;    /* accepted range, inclusive */
    const char *unit;   /* for the table */
    const char *source; /* spec section the default comes from */
    const char *what;   /* one-line meaning */
} param_def;

#define F(field) offsetof(platform, field)
#define I64MAX 9.2e18

static const param_def PARAMS[] = {
    {"clusters", PT_INT, F(clusters), 24, 1, PLATFORM_MAX_CLUSTERS, "", "model/README.md §2.1",
     "AICore clusters, 1 AIC + 2 AIV each (a2a3sim uses 8)"},
    {"aicpu_threads", PT_INT, F(aicpu_threads), 4, 2, PLATFORM_MAX_AICPU_THREADS, "", "model/README.md §2.2",
     "active AICPU threads: schedulers + 1 orchestrator"},
    {"aicore_freq_hz", PT_INT, F(aicore_freq_hz), 1.8e9, 1e6, 1e11, "Hz", "model/README.md §1.3",
     "AICore clock"},
    {"sys_cnt_freq_hz", PT_INT, F(sys_cnt_freq_hz), 5e7, 1e3, 1e10, "Hz", "model/README.md §1.3",
     "system counter for every timestamp (PLATFORM_PROF_SYS_CNT_FREQ)"},
    {"sys_cnt_origin_ticks", PT_INT, F(sys_cnt_origin_ticks), 1000000, 1, 1e15, "ticks",
     "model/README.md §1.3", "counter value at simulated time 0 (a tick of 0 reads as 'absent')"},
    {"orch_submit_ns", PT_INT, F(orch_submit_ns), 874, 0, 1e12, "ns", "model/README.md §6.2",
     "orchestrator cost of one submit (0.874 us/task average)"},
    {"orch_scope_end_per_task_ns", PT_INT, F(orch_scope_end_per_task_ns), 22, 0, 1e12, "ns",
     "model/README.md §6.2", "end_scope cost per task it releases"},
    {"orch_spin_ns", PT_INT, F(orch_spin_ns), 50, 1, 1e9, "ns", "model/README.md §4.7",
     "one spin of a blocked allocator (deadlock checks every 1024 spins; calibration choice)"},
    {"mmio_cond_read_ns", PT_INT, F(mmio_cond_read_ns), 100, 0, 1e9, "ns", "model/README.md §9.1",
     "one COND register load (95-105 ns, serial within a thread)"},
    {"mmio_store_ns", PT_INT, F(mmio_store_ns), 5, 0, 1e9, "ns", "model/README.md §9.1",
     "one posted MMIO store in a burst"},
    {"sched_wmb_ns", PT_INT, F(sched_wmb_ns), 30, 0, 1e9, "ns", "model/README.md §9.1",
     "wmb() before a dispatch burst"},
    {"sched_idle_iter_ns", PT_INT, F(sched_idle_iter_ns), 115, 1, 1e9, "ns", "model/README.md §9.3",
     "scheduler loop iteration that found nothing to do"},
    {"dispatch_pop_ns", PT_INT, F(dispatch_pop_ns), 60, 0, 1e9, "ns", "model/README.md §9.3",
     "pop of one task from a ready queue (calibration choice)"},
    {"dispatch_payload_ns", PT_INT, F(dispatch_payload_ns), 120, 0, 1e9, "ns", "model/README.md §9.3",
     "building one core's dispatch payload (calibration choice)"},
    {"complete_subtask_ns", PT_INT, F(complete_subtask_ns), 40, 0, 1e9, "ns", "model/README.md §9.3",
     "bookkeeping of one observed FIN (calibration choice)"},
    {"resolve_base_ns", PT_INT, F(resolve_base_ns), 410, 0, 1e9, "ns", "model/README.md §9.3",
     "completion fan-out walk, fixed part (0.5 us at 1-2 consumers)"},
    {"resolve_per_consumer_ns", PT_INT, F(resolve_per_consumer_ns), 92, 0, 1e9, "ns", "model/README.md §9.3",
     "completion fan-out walk, per consumer (5 us at 50)"},
    {"dispatch_visible_ns", PT_INT, F(dispatch_visible_ns), 140, 0, 1e9, "ns", "model/README.md §9.1",
     "AICPU store until the AICore sees DATA_MAIN_BASE"},
    {"aicore_setup_ns", PT_INT, F(aicore_setup_ns), 290, 0, 1e9, "ns", "model/README.md §9.2",
     "receive -> start: payload invalidate + ACK (mean 0.29 us)"},
    {"fin_cond_latency_ns", PT_INT, F(fin_cond_latency_ns), 80, 0, 1e9, "ns", "model/README.md §9.1",
     "kernel end until FIN is readable in COND (min observed 180 ns = 80 + one load)"},
    {"gm_bytes_per_cycle", PT_DOUBLE, F(gm_bytes_per_cycle), 32, 0.001, 1e6, "B/cycle",
     "model/README.md §10.1",
     "per-core ceiling of each GM pipe (MTE2, MTE3, FIXPIPE); CANN ini ddr_rate, unverified"},
    {"mte1_bytes_per_cycle", PT_DOUBLE, F(mte1_bytes_per_cycle), 512, 0.001, 1e6, "B/cycle",
     "model/README.md §10.1", "MTE1: L1 -> L0A/L0B (ini l1_to_l0_a_rate, unverified)"},
    {"vec_bytes_per_cycle", PT_DOUBLE, F(vec_bytes_per_cycle), 256, 0.001, 1e6, "B/cycle",
     "model/README.md §10.1", "vector unit throughput: 128 fp16 lanes"},
    {"cube_m", PT_INT, F(cube_m), 16, 1, 1024, "", "model/README.md §10.1", "cube step per cycle: m"},
    {"cube_n", PT_INT, F(cube_n), 16, 1, 1024, "", "model/README.md §10.1", "cube step per cycle: n"},
    {"cube_k_bytes", PT_INT, F(cube_k_bytes), 32, 1, 4096, "B", "model/README.md §10.1",
     "cube step per cycle: bytes of k (16 fp16/bf16, 32 int8)"},
    {"scalar_cycles_per_tile", PT_INT, F(scalar_cycles_per_tile), 200, 0, 1e12, "cycles",
     "model/README.md §10.1",
     "scalar issue overhead per tile when a kernel gives none (no measured figure; calibration choice)"},
    {"hbm_bw", PT_DOUBLE, F(hbm_bw), 1.6e12, 1, 1e16, "B/s", "model/README.md §12.1",
     "die HBM bandwidth shared by the GM traffic of every core"},
    {"pmu_fin_reads", PT_INT, F(pmu_fin_reads), 10, 0, 1000, "loads", "model/README.md §13.1",
     "PMU on: serial MMIO loads of the counters after each FIN (~1 us of AICPU time)"},
    {"pmu_bytes_per_req", PT_INT, F(pmu_bytes_per_req), 32, 1, 1 << 20, "B", "model/README.md §13.1",
     "bytes per request in the PMU request counters (undocumented; one request per cycle at the GM ceiling)"},
    {"dump_record_ns", PT_INT, F(dump_record_ns), 100, 0, 1e9, "ns", "model/README.md §14.1",
     "args dump: AICPU cost of one 128-B metadata record (calibration choice)"},
    {"aicpu_copy_bw", PT_DOUBLE, F(aicpu_copy_bw), 8e9, 1, 1e13, "B/s", "model/README.md §14.1",
     "args dump: AICPU memcpy into the arena (undocumented, GB/s-class; calibration choice)"},
    {"aicpu_gather_bw", PT_DOUBLE, F(aicpu_gather_bw), 1e9, 1, 1e13, "B/s", "model/README.md §14.1",
     "args dump: strided views gathered element by element (calibration choice)"},
    {"dump_arena_bytes", PT_INT, F(dump_arena_bytes), 134217728, 1024, I64MAX, "bytes",
     "model/README.md §14.1", "args dump payload arena per AICPU thread (8 x 256 x 64 KiB)"},
    {"aicore_dump_barrier_ns", PT_INT, F(aicore_dump_barrier_ns), 100, 0, 1e9, "ns", "model/README.md §9.2",
     "args dump on: the AICore's pipe_barrier(PIPE_ALL) before FIN (calibration choice)"},
    {"dump_payload", PT_INT, F(dump_payload), 0, 0, 1, "", "model/README.md §14.1",
     "args.bin bytes ptosim cannot know: 0 sparse zeros (holes, no disk), 1 a written index pattern"},
    {"dump_buf_records", PT_INT, F(dump_buf_records), 256, 1, 1 << 20, "records", "model/README.md §14.1",
     "args dump metadata records per buffer (32 KiB of 128-B records)"},
    {"dump_buffers", PT_INT, F(dump_buffers), 8, 2, 1024, "buffers", "model/README.md §14.1",
     "args dump metadata buffers per AICPU thread"},
    {"dump_free_queue", PT_INT, F(dump_free_queue), 4, 1, 1024, "slots", "model/README.md §14.1",
     "args dump free-queue ring per thread"},
    {"dump_ready_queue", PT_INT, F(dump_ready_queue), 64, 1, 65536, "entries", "model/README.md §14.1",
     "args dump ready queue per thread"},
    {"dfx_park_timeout_ms", PT_INT, F(dfx_park_timeout_ms), 30000, 1, 1e9, "ms", "model/README.md §14.3",
     "DFX back-pressure backstop: a longer park drops records instead"},
    {"host_record_ns", PT_INT, F(host_record_ns), 1000, 0, 1e12, "ns", "model/README.md §14.3",
     "host collector: per-record metadata cost besides the payload transfer (calibration choice)"},
    {"host_poll_ns", PT_INT, F(host_poll_ns), 10000, 1, 1e12, "ns", "model/README.md §14.3",
     "host drain threads poll the ready queues every 10 us"},
    {"ring_task_window", PT_INT, F(ring_task_window), 16384, 4, 2147483647, "slots", "model/README.md §4.1",
     "default task window per ring (PTO2_TASK_WINDOW_SIZE)"},
    {"ring_heap", PT_INT, F(ring_heap), 268435456, 1024, I64MAX, "bytes", "model/README.md §4.1",
     "default heap per ring (PTO2_HEAP_SIZE)"},
    {"ring_dep_pool", PT_INT, F(ring_dep_pool), 16384, 4, 2147483647, "nodes", "model/README.md §4.1",
     "default dependency-list pool per ring (PTO2_DEP_LIST_POOL_SIZE)"},
    {"tensormap_pool", PT_INT, F(tensormap_pool), 65536, 1, 2147483647, "entries", "model/README.md §4.1",
     "TensorMap entry pool, one global (PTO2_TENSORMAP_POOL_SIZE)"},
    {"aicore_first_task_min_ns", PT_INT, F(aicore_first_task_min_ns), 2500, 0, 1e9, "ns",
     "model/README.md §9.2",
     "first task on a core: extra dispatch->start on half the cores (0.3-5.6 us observed)"},
    {"aicore_first_task_max_ns", PT_INT, F(aicore_first_task_max_ns), 5000, 0, 1e9, "ns",
     "model/README.md §9.2", "first task on a core: upper bound of that extra latency"},
    {"aicore_record_ns", PT_INT, F(aicore_record_ns), 520, 0, 1e9, "ns", "model/README.md §9.2",
     "swimlane record write-back by the AICore after each task (0.52 of the 0.81 us switch)"},
    {"aicore_setup_spread", PT_DOUBLE, F(aicore_setup_spread), 0.278, 0, 3, "sigma", "simpler switch study",
     "with --seed: receive -> start drawn lognormal with this sigma (p50 0.28 / p90 0.40 us)"},
    {"aicore_record_spread", PT_DOUBLE, F(aicore_record_spread), 0.217, 0, 3, "sigma", "simpler switch study",
     "with --seed: record write-back drawn lognormal with this sigma (p50 0.50 / p90 0.66 us)"},
    {"kernel_spread", PT_DOUBLE, F(kernel_spread), 0.08, 0, 3, "sigma", "simpler run noise",
     "with --seed: each execution's kernel time drawn lognormal with this sigma (makespan sigma ~1%)"},
    {"sched_local_ready", PT_INT, F(sched_local_ready), 0, 0, 1, "", "simpler #1245",
     "1: a completion's newly ready consumers go to its thread's local buffer first (runtime before "
     "2026-07-02)"},
    {"sched_wire_batch", PT_INT, F(sched_wire_batch), 0, 0, 1024, "tasks", "model/README.md §7.6",
     ">0: the submit only queues a task; scheduler thread 0 wires it, this many a batch after a backoff of "
     "32 iterations (runtime before 2026-07-09: 30)"},
    {"wire_task_ns", PT_INT, F(wire_task_ns), 130, 0, 1e9, "ns", "model/README.md §7.6",
     "wiring one task: fanin count, refcount, ready push (alternating_matmul_add Case1 orch 915.8 -> 785.5 us "
     "over 1000 zero-fanin tasks)"},
    {"wire_edge_ns", PT_INT, F(wire_edge_ns), 27, 0, 1e9, "ns", "model/README.md §7.6",
     "wiring one fanin edge: fanout lock round trip + dep-pool prepend (~27 ns an edge on a2a3)"},
    {"aicore_fin_after_record", PT_INT, F(aicore_fin_after_record), 0, 0, 1, "", "simpler #1293",
     "1: the AICore commits its swimlane record before FIN (runtime before 2026-07-08)"},
    {"dfx_overhead", PT_INT, F(dfx_overhead), 1, 0, 1, "", "model/README.md §9.2",
     "1: profiling perturbs timing as on silicon; 0: collection is free"},
    {"scheduler_timeout_ms", PT_INT, F(scheduler_timeout_ms), 10000, 1, 1e9, "ms", "model/README.md §7.4",
     "scheduler no-progress timeout (SIMPLER_SCHEDULER_TIMEOUT_MS), code 100"},
    {"op_execute_timeout_us", PT_INT, F(op_execute_timeout_us), 45000000, 1, 1e12, "us",
     "model/README.md §14.4",
     "STARS op-execute timeout requested (PLATFORM_OP_EXECUTE_TIMEOUT_US, SIMPLER_OP_EXECUTE_TIMEOUT_US)"},
    {"stars_credit_us", PT_DOUBLE, F(stars_credit_us), 4294967.296, 0, 1e12, "us", "model/README.md §14.4",
     "STARS credit: the deadline is ceil(timeout / credit) credits (2^32 ns each); 0 = exact deadline"},
    {"stars_aicpu_extra_credits", PT_INT, F(stars_aicpu_extra_credits), 4, 0, 254, "credits",
     "model/README.md §14.4",
     "extra credits of the AICPU launch (so the AICore launch's watchdog fires first)"},
    {"stream_sync_timeout_ms", PT_INT, F(stream_sync_timeout_ms), 50000, 1, 1e9, "ms",
     "model/README.md §14.4",
     "host stream-sync timeout (SIMPLER_STREAM_SYNC_TIMEOUT_MS): 507046 when it expires first"},
    {"has_stars", PT_INT, F(has_stars), 1, 0, 1, "", "model/README.md §14.4",
     "1: onboard, with the STARS watchdog and the host stream-sync timeout; 0: a sim platform, neither"},
    {"drain_sync_ns", PT_INT, F(drain_sync_ns), 200, 0, 1e9, "ns", "model/README.md §9.3",
     "sync-start drain: acknowledgement tree + root broadcast (upstream gives no number; calibration "
     "choice)"},
    {"aicore_arg_fill_ns", PT_INT, F(aicore_arg_fill_ns), 1000, 0, 1e9, "ns", "model/README.md §9.2",
     "early dispatch: the gated core fills args itself (+1.0 us receive->start, hidden in the wait)"},
    {"aicore_cold_record_ns", PT_INT, F(aicore_cold_record_ns), 580, 0, 1e9, "ns", "model/README.md §9.2",
     "swimlane on: extra write-back of a core's first record (first switch 1.39 us, steady 0.81 us)"},
    {"host_collector_bw", PT_DOUBLE, F(host_collector_bw), 42e6, 1, 1e13, "B/s", "model/README.md §14.3",
     "host-side DFX collector drain (the ~42 MB/s args-dump drain)"},
    {"worker_init_us", PT_DOUBLE, F(worker_init_us), 0, 0, 1e12, "us", "model/README.md §15",
     "Worker.init (open the device, fork children): upstream gives no figure; 0 leaves it out"},
    {"register_us", PT_DOUBLE, F(register_us), 0, 0, 1e12, "us", "model/README.md §15",
     "register(callable) per distinct program: upstream gives no figure; 0 leaves it out"},
    {"arena_build_us", PT_DOUBLE, F(arena_build_us), 800000, 0, 1e12, "us", "model/README.md §15",
     "building the prebuilt runtime arena for a ring sizing (~800 ms; one cached sizing per worker)"},
    {"first_launch_us", PT_DOUBLE, F(first_launch_us), 400, 0, 1e12, "us", "model/README.md §15",
     "the worker's first AICore launch (~0.4 ms after the launch reorder; a5 figure, a2a3 unverified)"},
    {"run_preamble_us", PT_DOUBLE, F(run_preamble_us), 9, 0, 1e12, "us", "model/README.md §15",
     "device preamble per run: ~9 us since simpler #1323 (283 us before #1279, 85 us between)"},
    {"run_prep_us", PT_DOUBLE, F(run_prep_us), 3000, 0, 1e12, "us", "model/README.md §15",
     "per-run prep besides the per-slot SM reset: config validate + arena wire (22 ms - 19 ms, #1199)"},
    {"sm_reset_slot_ns", PT_DOUBLE, F(sm_reset_slot_ns), 0, 0, 1e9, "ns", "model/README.md §15",
     "per-run SM reset per task-window slot of every ring: 0 since simpler #1199 (before: 19 ms / 4 x "
     "524288 = 9.06)"},
};

#define NPARAMS (sizeof(PARAMS) / sizeof(PARAMS[0]))

static const param_def *find_param(const char *name)
{
    for (size_t i = 0; i < NPARAMS; i++)
        if (strcmp(PARAMS[i].name, name) == 0)
            return &PARAMS[i];
    return NULL;
}

static void put_value(platform *p, const param_def *d, double v)
{
    char *base = (char *)p + d->offset;
    if (d->type == PT_INT)
        *(int64_t *)base = (int64_t)v;
    else
        *(double *)base = v;
}

static double get_value(const platform *p, const param_def *d)
{
    const char *base = (const char *)p + d->offset;
    return d->type == PT_INT ? (double)*(const int64_t *)base : *(const double *)base;
}

void platform_defaults(platform *p)
{
    memset(p, 0, sizeof(*p));
    snprintf(p->name, sizeof(p->name), "a2a3");
    for (size_t i = 0; i < NPARAMS; i++)
        put_value(p, &PARAMS[i], PARAMS[i].def);
}

/* The ring knob d is (model/chip/ring_rule.h), or -1 for any other parameter. */
static int ring_of(const param_def *d)
{
    for (int k = 0; k < RINGRULE_KNOBS; k++)
        if (strcmp(d->name, ringrule_name((ring_knob)k)) == 0)
            return k;
    return -1;
}

/* Checks v against d's type and range; writes "what is wrong" into err. */
static int check_value(const param_def *d, double v, char *err, size_t errlen)
{
    if (!isfinite(v)) {
        snprintf(err, errlen, "must be a finite number");
        return -1;
    }
    if (d->type == PT_INT && v != floor(v)) {
        snprintf(err, errlen, "must be an integer, got %g", v);
        return -1;
    }
    int k = ring_of(d);
    if (k >= 0) { /* a ring size: the rule every way of giving one holds it to, and its message */
        char repr[32];
        snprintf(repr, sizeof(repr), "%.15g", v);
        uint64_t u = v <= 0 ? 0 : v >= 1.8e19 ? UINT64_MAX : (uint64_t)v;
        return ringrule_check((ring_knob)k, u, "", false, repr, err, errlen);
    }
    if (v < d->min || v > d->max) {
        snprintf(err, errlen, "must be in [%.15g, %.15g], got %.15g", d->min, d->max, v);
        return -1;
    }
    return 0;
}

/* Parses a textual value for d. Integers must be plain decimal (exact); doubles
 * may use exponents. */
static int parse_value(const param_def *d, const char *text, double *out, char *err, size_t errlen)
{
    char *end = NULL;
    errno = 0;
    if (d->type == PT_INT) {
        int64_t v;
        strint_status st = strint_parse(text, INT64_MIN, INT64_MAX, &v);
        if (st != STRINT_OK && ring_of(d) >= 0) { /* as a flag's ring size that is no integer */
            char repr[80];
            snprintf(repr, sizeof(repr), st == STRINT_SYNTAX ? "'%s'" : "%s", text);
            return ringrule_refuse((ring_knob)ring_of(d), "", false, repr, err, errlen);
        }
        if (st != STRINT_OK) {
            snprintf(err, errlen, st == STRINT_SYNTAX ? "'%s' is not an integer" : "%s is out of range",
                     text);
            return -1;
        }
        *out = (double)v;
    } else {
        /* as strict as strint about the start: no blanks, no '+' */
        bool starts = (text[0] >= '0' && text[0] <= '9') || text[0] == '-' || text[0] == '.';
        double v = starts ? strtod(text, &end) : 0;
        if (!starts || end == text || *end != '\0' || errno) {
            snprintf(err, errlen, "'%s' is not a number", text);
            return -1;
        }
        *out = v;
    }
    return check_value(d, *out, err, errlen);
}

void platform_pipe_rates(const platform *p, pipe_rates *r)
{
    *r = (pipe_rates){.gm_bytes_per_cycle = p->gm_bytes_per_cycle,
                      .mte1_bytes_per_cycle = p->mte1_bytes_per_cycle,
                      .vec_bytes_per_cycle = p->vec_bytes_per_cycle,
                      .cube_m = (uint32_t)p->cube_m,
                      .cube_n = (uint32_t)p->cube_n,
                      .cube_k_bytes = (uint32_t)p->cube_k_bytes,
                      .scalar_cycles_per_tile = (uint64_t)p->scalar_cycles_per_tile,
                      .clock_hz = (uint64_t)p->aicore_freq_hz};
}

int platform_set(platform *p, const char *assignment, char *err, size_t errlen)
{
    const char *eq = strchr(assignment, '=');
    if (!eq || eq == assignment) {
        snprintf(err, errlen, "--set %s: expected KEY=VALUE", assignment);
        return -1;
    }
    char key[128];
    size_t klen = (size_t)(eq - assignment);
    if (klen >= sizeof(key))
        klen = sizeof(key) - 1;
    memcpy(key, assignment, klen);
    key[klen] = '\0';
    const param_def *d = find_param(key);
    if (!d) {
        snprintf(err, errlen, "--set %s: unknown platform parameter '%s' (ptosim params lists them)",
                 assignment, key);
        return -1;
    }
    double v = 0; /* set by parse_value when it returns 0 */
    char why[256];
    if (parse_value(d, eq + 1, &v, why, sizeof(why)) != 0) {
        snprintf(err, errlen, "--set %s: %s", assignment, why);
        return -1;
    }
    put_value(p, d, v);
    return 0;
}

/* Formats "FILE:LINE:COL: FIELD: WHAT" into err, LINE and COL those of at in text (the value or key the
 * message is about, as jsonl_message places a malformed one), or "FILE: FIELD: WHAT" when at is NULL. */
static void field_fail(char *err, size_t errlen, const char *path, const char *text, const char *at,
                       const char *field, const char *fmt, ...) __attribute__((format(printf, 7, 8)));
static void field_fail(char *err, size_t errlen, const char *path, const char *text, const char *at,
                       const char *field, const char *fmt, ...)
{
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    if (at) {
        long line, col;
        jsonl_where(text, at, &line, &col);
        snprintf(err, errlen, "%s:%ld:%ld: %s: %s", path, line, col, field, what);
    } else {
        snprintf(err, errlen, "%s: %s: %s", path, field, what);
    }
}

/* why gets readall's words for a file past the cap (errno EFBIG). */
static char *read_file(const char *path, size_t *len, char *why, size_t whylen)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = readall(f, READALL_PLATFORM, len, why, whylen);
    int e = errno;
    fclose(f);
    errno = e;
    return buf;
}

static void dir_of(const char *path, char *out, size_t outlen)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(out, outlen, ".");
    else
        snprintf(out, outlen, "%.*s", (int)(slash - path), path);
}

static int is_file_arg(const char *s)
{
    size_t n = strlen(s);
    return strchr(s, '/') != NULL || (n > 5 && strcmp(s + n - 5, ".json") == 0);
}

/* dir: where platform names are looked up (the platform folder); near: the
 * folder of the file naming this one as its base, looked in first. */
static int load_depth(platform *p, const char *name_or_file, const char *dir, const char *near, int depth,
                      char *err, size_t errlen)
{
    char path[PLATFORM_PATH_MAX];
    if (is_file_arg(name_or_file)) {
        snprintf(path, sizeof(path), "%s", name_or_file);
    } else {
        snprintf(path, sizeof(path), "%s/%s.json", dir ? dir : "platforms", name_or_file);
        char beside[PLATFORM_PATH_MAX];
        snprintf(beside, sizeof(beside), "%s/%s.json", near ? near : "", name_or_file);
        if (near && access(beside, R_OK) == 0) /* a user's own base beside the file that names it */
            snprintf(path, sizeof(path), "%s", beside);
    }
    if (depth > 4) {
        snprintf(err, errlen, "%s: base: platforms inherit more than 4 levels deep", path);
        return -1;
    }
    size_t len = 0;
    errno = 0;
    char why[128];
    char *text = read_file(path, &len, why, sizeof(why));
    if (!text && errno == EFBIG) {
        snprintf(err, errlen, "%s: cannot read platform file: %s", path, why);
        return -1;
    }
    if (!text && errno == ENOMEM) {
        snprintf(err, errlen, "%s: out of memory", path);
        return PLATFORM_OOM;
    }
    if (!text) {
        if (is_file_arg(name_or_file))
            snprintf(err, errlen, "%s: cannot read platform file: %s", path, strerror(errno));
        else
            snprintf(err, errlen, "unknown platform '%s' (no file %s)", name_or_file, path);
        return -1;
    }
    int rc = -1;
    /* the graph reader's strict parser: a parameter given twice is an error, not the first one winning */
    jsonl_error je;
    cJSON *root = jsonl_parse(text, len, &je);
    char fdir[PLATFORM_PATH_MAX];
    dir_of(path, fdir, sizeof(fdir));
    if (!root && je.what == JSONL_OOM) {
        snprintf(err, errlen, "%s: out of memory", path);
        rc = PLATFORM_OOM;
        goto out;
    }
    if (!root) {
        jsonl_message(err, errlen, path, text, &je, 0);
        goto out;
    }
    if (!cJSON_IsObject(root)) {
        snprintf(err, errlen, "%s: not a JSON object", path);
        goto out;
    }
    const char *tend = text + len;
#define WHERE(key) jsonl_member_at(text, tend, (key), NULL) /* where a member's value is, for its message */
    const cJSON *desc = cJSON_GetObjectItemCaseSensitive(root, "description");
    if (desc && !cJSON_IsString(desc)) {
        field_fail(err, errlen, path, text, WHERE("description"), "description", "must be a string");
        goto out;
    }
    const cJSON *ver = cJSON_GetObjectItemCaseSensitive(root, "ptosim_platform");
    if (!ver) {
        field_fail(err, errlen, path, text, NULL, "ptosim_platform",
                   "missing (a platform file says \"ptosim_platform\": 1)");
        goto out;
    }
    if (!cJSON_IsNumber(ver) || ver->valuedouble != 1) {
        field_fail(err, errlen, path, text, WHERE("ptosim_platform"), "ptosim_platform", "must be 1");
        goto out;
    }
    const cJSON *base = cJSON_GetObjectItemCaseSensitive(root, "base");
    if (base) {
        if (!cJSON_IsString(base)) {
            field_fail(err, errlen, path, text, WHERE("base"), "base", "must be a platform name");
            goto out;
        }
        /* a base name is a platform beside this file, else one of the platform folder (a2a3) */
        int brc = load_depth(p, base->valuestring, dir, fdir, depth + 1, err, errlen);
        if (brc != 0) {
            rc = brc;
            goto out;
        }
    } else {
        platform_defaults(p);
    }
    const cJSON *item;
    cJSON_ArrayForEach(item, root)
    {
        const char *k = item->string, *kat, *at = jsonl_member_at(text, tend, k, &kat);
        if (strcmp(k, "ptosim_platform") == 0 || strcmp(k, "base") == 0 || strcmp(k, "description") == 0)
            continue;
        if (strcmp(k, "name") == 0) {
            size_t n = cJSON_IsString(item) ? strlen(item->valuestring) : 0;
            if (!cJSON_IsString(item) || !n || n >= sizeof(p->name)) {
                char why[96];
                if (!cJSON_IsString(item))
                    snprintf(why, sizeof(why), "must be a string");
                else if (!n)
                    snprintf(why, sizeof(why), "must not be empty");
                else
                    snprintf(why, sizeof(why), "%zu bytes, longer than the %zu a platform name may have", n,
                             sizeof(p->name) - 1);
                field_fail(err, errlen, path, text, at, "name", "%s", why);
                goto out;
            }
            snprintf(p->name, sizeof(p->name), "%s", item->valuestring);
        } else if (strcmp(k, "simgrid_platform") == 0) {
            if (!cJSON_IsString(item)) {
                field_fail(err, errlen, path, text, at, k, "must be a file name");
                goto out;
            }
            if (!item->valuestring[0]) {
                field_fail(err, errlen, path, text, at, k, "must not be empty");
                goto out;
            }
            int n = item->valuestring[0] == '/'
                        ? snprintf(p->xml_path, sizeof(p->xml_path), "%s", item->valuestring)
                        : snprintf(p->xml_path, sizeof(p->xml_path), "%s/%s", fdir, item->valuestring);
            if (n < 0 || (size_t)n >= sizeof(p->xml_path)) {
                field_fail(err, errlen, path, text, at, k,
                           "path too long (%d bytes with this file's folder; at most %zu)", n,
                           sizeof(p->xml_path) - 1);
                goto out;
            }
        } else if (strcmp(k, "params") == 0) {
            if (!cJSON_IsObject(item)) {
                field_fail(err, errlen, path, text, at, k, "must be an object");
                goto out;
            }
            const cJSON *pv;
            cJSON_ArrayForEach(pv, item)
            {
                const param_def *d = find_param(pv->string);
                const char *pkat, *pat = jsonl_member_at(at, tend, pv->string, &pkat);
                char why[256], field[JSONL_PATH_MAX];
                snprintf(field, sizeof(field), "params.%s", pv->string);
                if (!d) {
                    field_fail(err, errlen, path, text, pat ? pkat : NULL, field, "unknown platform parameter");
                    goto out;
                }
                if (!cJSON_IsNumber(pv)) {
                    field_fail(err, errlen, path, text, pat, field, "must be a number");
                    goto out;
                }
                if (check_value(d, pv->valuedouble, why, sizeof(why)) != 0) {
                    field_fail(err, errlen, path, text, pat, field, "%s", why);
                    goto out;
                }
                put_value(p, d, pv->valuedouble);
            }
        } else {
            field_fail(err, errlen, path, text, at ? kat : NULL, k, "unknown field");
            goto out;
        }
    }
#undef WHERE
    snprintf(p->json_path, sizeof(p->json_path), "%s", path);
    rc = 0;
out:
    cJSON_Delete(root);
    free(text);
    return rc;
}

int platform_load(platform *p, const char *name_or_file, const char *dir, char *err, size_t errlen)
{
    platform_defaults(p);
    p->xml_path[0] = '\0';
    int rc = load_depth(p, name_or_file, dir, NULL, 0, err, errlen);
    if (rc != 0) {
        msgtext_fix(err, errlen); /* a key, a value or a name of the file */
        return rc;
    }
    if (!p->xml_path[0]) {
        snprintf(err, errlen, "%s: simgrid_platform: missing (the SimGrid XML of the platform)",
                 p->json_path);
        return -1;
    }
    return 0;
}

int platform_validate(const platform *p, char *err, size_t errlen)
{
    const int64_t w = p->ring_task_window;
    if (w & (w - 1)) {
        snprintf(err, errlen, "ring_task_window=%" PRId64 ": must be a power of 2", w);
        return -1;
    }
    if (p->aicpu_threads - 1 > p->clusters) {
        snprintf(err, errlen, "aicpu_threads=%" PRId64 ": more schedulers than clusters (%" PRId64 ")",
                 p->aicpu_threads, p->clusters);
        return -1;
    }
    return 0;
}

size_t platform_param_count(void)
{
    return NPARAMS;
}

const char *platform_param_name(size_t i)
{
    return i < NPARAMS ? PARAMS[i].name : NULL;
}

const char *platform_param_value(const platform *p, size_t i, char *buf, size_t buflen)
{
    if (i >= NPARAMS) {
        snprintf(buf, buflen, "null");
        return buf;
    }
    double v = get_value(p, &PARAMS[i]);
    if (PARAMS[i].type == PT_INT)
        snprintf(buf, buflen, "%" PRId64, (int64_t)v);
    else {
        /* the shortest of 15 and 17 digits that reads back as the same double */
        snprintf(buf, buflen, "%.15g", v);
        if (strtod(buf, NULL) != v)
            snprintf(buf, buflen, "%.17g", v);
    }
    return buf;
}

/* Width of the source column: the longest citation, "model/README.md §14.4". */
#define SOURCE_COLUMNS 21

/* Characters of a UTF-8 string (its continuation bytes are not columns). */
static size_t utf8_columns(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

void platform_print_table(const platform *p, FILE *out)
{
    fprintf(out, "platform %s (%s)\n", p->name, p->json_path[0] ? p->json_path : "built-in");
    fprintf(out, "%-28s %14s %-7s %-*s %s\n", "parameter", "value", "unit", SOURCE_COLUMNS, "source", "meaning");
    for (size_t i = 0; i < NPARAMS; i++) {
        char v[64];
        /* printf pads bytes, and a source's '§' is two of them but one column */
        int pad = SOURCE_COLUMNS + (int)(strlen(PARAMS[i].source) - utf8_columns(PARAMS[i].source));
        fprintf(out, "%-28s %14s %-7s %-*s %s\n", PARAMS[i].name, platform_param_value(p, i, v, sizeof(v)),
                PARAMS[i].unit, pad, PARAMS[i].source, PARAMS[i].what);
    }
}
