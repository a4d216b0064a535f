/* platform.h - chip and runtime parameters of a simulated platform: defaults, JSON files, --set overrides. */
#ifndef PTOSIM_PLATFORM_H
#define PTOSIM_PLATFORM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pipe.h"

#define PLATFORM_NAME_MAX 64
#define PLATFORM_PATH_MAX 4096
#define PLATFORM_MAX_CLUSTERS 24 /* PLATFORM_MAX_BLOCKDIM (model/README.md §2.1) */
#define PLATFORM_MAX_CORES (3 * PLATFORM_MAX_CLUSTERS)
#define PLATFORM_MAX_AICPU_THREADS 4 /* PLATFORM_MAX_AICPU_THREADS (model/README.md §4.1) */
#define PLATFORM_RING_COUNT 4        /* PTO2_MAX_RING_DEPTH (model/README.md §4.1) */

/* Every tunable number of the model. Field comments give the unit; the
 * parameter table in platform.c gives each one's source in the spec. */
typedef struct platform {
    char name[PLATFORM_NAME_MAX];      /* platform name, e.g. "a2a3" */
    char json_path[PLATFORM_PATH_MAX]; /* file the parameters came from ("" = built-in) */
    char xml_path[PLATFORM_PATH_MAX];  /* SimGrid platform XML */

    /* topology */
    int64_t clusters;      /* AICore clusters (1 AIC + 2 AIV each) */
    int64_t aicpu_threads; /* active AICPU threads: schedulers + 1 orchestrator */

    /* clocks */
    int64_t aicore_freq_hz;       /* AICore clock, Hz */
    int64_t sys_cnt_freq_hz;      /* system counter used for every timestamp, Hz */
    int64_t sys_cnt_origin_ticks; /* counter value at simulated time 0 */

    /* orchestrator (AICPU) */
    int64_t orch_submit_ns;             /* one submit_task / dummy / alloc call */
    int64_t orch_scope_end_per_task_ns; /* end_scope, per task released */
    int64_t orch_spin_ns;               /* one spin of a blocked allocation loop */

    /* scheduler threads (AICPU) and the AICPU<->AICore control path */
    int64_t mmio_cond_read_ns;       /* one COND load, serial within a thread */
    int64_t mmio_store_ns;           /* one posted MMIO store within a burst */
    int64_t sched_wmb_ns;            /* store barrier before a dispatch burst */
    int64_t sched_idle_iter_ns;      /* loop overhead of an iteration that did nothing */
    int64_t dispatch_pop_ns;         /* popping one task from a ready queue */
    int64_t dispatch_payload_ns;     /* building one core's dispatch payload */
    int64_t complete_subtask_ns;     /* handling one observed FIN */
    int64_t resolve_base_ns;         /* completion fan-out walk, fixed part */
    int64_t resolve_per_consumer_ns; /* completion fan-out walk, per consumer */
    int64_t dispatch_visible_ns;     /* store to DATA_MAIN_BASE until the AICore sees it */
    int64_t aicore_setup_ns;         /* receive -> start: payload invalidate + ACK */
    int64_t fin_cond_latency_ns;     /* kernel end until FIN is readable in COND */
    int64_t
        aicore_first_task_min_ns; /* extra pickup latency of a core's first task (slow half of the cores) */
    int64_t aicore_first_task_max_ns; /* ... its upper bound */
    int64_t aicore_record_ns;         /* AICore swimlane record write-back after each task */
    double aicore_setup_spread;       /* variation (--seed): lognormal sigma of receive -> start */
    double aicore_record_spread;      /* ... of the record write-back */
    double kernel_spread;             /* ... of each execution's kernel time */
    int64_t sched_local_ready;        /* 1: local-first ready buffers (the runtime before #1245) */
    int64_t sched_wire_batch;         /* >0: scheduler thread 0 wires submitted tasks in batches of this many (before #1263) */
    int64_t wire_task_ns;             /* thread 0: wiring one task (fanin count, refcount, ready push) */
    int64_t wire_edge_ns;             /* ... and each of its fanin edges (fanout lock, dep-pool prepend) */
    int64_t aicore_fin_after_record;  /* 1: the AICore writes its swimlane record before FIN (before #1293) */
    int64_t dfx_overhead;             /* 1: profiling costs what it costs on silicon; 0: free */
    int64_t scheduler_timeout_ms;     /* scheduler no-progress timeout (code 100) */
    int64_t op_execute_timeout_us;    /* STARS op-execute timeout requested (SIMPLER_OP_EXECUTE_TIMEOUT_US) */
    double stars_credit_us;           /* STARS credit granularity; 0 = exact (a "fine" watchdog) */
    int64_t stars_aicpu_extra_credits; /* the AICPU launch's extra credits */
    int64_t stream_sync_timeout_ms;    /* host stream-sync timeout (SIMPLER_STREAM_SYNC_TIMEOUT_MS) */
    int64_t has_stars;                 /* 1: onboard (STARS and stream sync); 0: a sim platform, neither */
    int64_t drain_sync_ns;             /* one sync-start drain acknowledgement round across the schedulers */
    int64_t aicore_arg_fill_ns;        /* a gated (early-dispatch) core filling its own args */
    int64_t aicore_cold_record_ns;     /* extra write-back of a core's first swimlane record */

    /* AICore pipes and memory (model/README.md §10.1, §12.1) */
    double gm_bytes_per_cycle;      /* per-core ceiling of each GM pipe (MTE2, MTE3, FIXPIPE) */
    double mte1_bytes_per_cycle;    /* L1 -> L0A/L0B */
    double vec_bytes_per_cycle;     /* vector unit: 128 fp16 lanes = 256 B per cycle */
    int64_t cube_m;                 /* cube step per cycle: m ... */
    int64_t cube_n;                 /* ... x n ... */
    int64_t cube_k_bytes;           /* ... x this many bytes of k (16 fp16) */
    int64_t scalar_cycles_per_tile; /* scalar issue overhead per tile, unless a kernel gives its own */
    double hbm_bw;                  /* die HBM bandwidth shared by every core's GM traffic, B/s */
    int64_t pmu_fin_reads;          /* PMU counter loads by the AICPU after each FIN (PMU on) */
    int64_t pmu_bytes_per_req;      /* bytes per memory request in the PMU request counters */

    /* args dump (model/README.md §14.1) */
    int64_t dump_record_ns;         /* AICPU: one 128-B metadata record */
    double aicpu_copy_bw;           /* AICPU memcpy into the arena, B/s (contiguous views) */
    double aicpu_gather_bw;         /* ... strided views, B/s */
    int64_t dump_arena_bytes;       /* payload arena per AICPU thread */
    int64_t aicore_dump_barrier_ns; /* AICore pipe_barrier(PIPE_ALL) before FIN with dump on */
    int64_t dump_payload;           /* 0: unknown values are sparse zeros; 1: a written pattern */
    int64_t dump_buf_records;       /* metadata records per buffer */
    int64_t dump_buffers;           /* metadata buffers per AICPU thread */
    int64_t dump_free_queue;        /* free-queue slots per thread */
    int64_t dump_ready_queue;       /* ready-queue entries per thread */
    int64_t dfx_park_timeout_ms;    /* a DFX park longer than this drops records */
    int64_t host_record_ns;         /* host collector: per-record cost besides the payload transfer */
    int64_t host_poll_ns;           /* host drain threads poll the ready queues this often */

    /* runtime ring defaults (per scope-depth ring) */
    int64_t ring_task_window; /* task slots per ring */
    int64_t ring_heap;        /* heap bytes per ring */
    int64_t ring_dep_pool;    /* dependency-list nodes per ring */
    int64_t tensormap_pool;   /* TensorMap entries (one global pool) */

    /* host side */
    double host_collector_bw; /* device->host DFX collector drain, bytes/s */

    /* the worker around the runs (model/README.md §15) */
    double worker_init_us;   /* Worker.init: open the device, fork children */
    double register_us;      /* register(callable): upload one program's binaries */
    double arena_build_us;   /* prebuilt runtime arena for a ring sizing (one cached per worker) */
    double first_launch_us;  /* the first AICore launch of a worker */
    double run_preamble_us;  /* device preamble of every run: executor init + core handshake */
    double run_prep_us;      /* per-run prep: config validate + arena wire (+ the SM reset's fixed part) */
    double sm_reset_slot_ns; /* per-run SM reset per task-window slot of every ring (0 since simpler #1199) */
} platform;

/* Fills p with the built-in a2a3 defaults. */
void platform_defaults(platform *p);

/* The per-core pipe rates of platform p (the pipe model's view of it). */
void platform_pipe_rates(const platform *p, pipe_rates *r);

/* Loads a platform by name (NAME -> DIR/NAME.json) or by path (anything with
 * a '/' or ending in ".json"). A file may name a "base" platform in the same
 * directory whose values it starts from. Returns 0, or -1 with a message
 * naming the file and field in err. */
int platform_load(platform *p, const char *name_or_file, const char *dir, char *err, size_t errlen);

/* platform_load's return when memory ran out (err says so): not the file's fault. */
#define PLATFORM_OOM (-2)

/* Applies one "KEY=VALUE" override. Returns 0, or -1 with a message in err. */
int platform_set(platform *p, const char *assignment, char *err, size_t errlen);

/* Checks cross-parameter rules. Returns 0, or -1 with a message in err. */
int platform_validate(const platform *p, char *err, size_t errlen);

/* Number of parameters in the table. */
size_t platform_param_count(void);

/* Name of parameter i, or NULL past the end. */
const char *platform_param_name(size_t i);

/* Writes parameter i's value as JSON text into buf. Returns buf. */
const char *platform_param_value(const platform *p, size_t i, char *buf, size_t buflen);

/* Prints the parameter table (name, value, unit, source, meaning) to out. */
void platform_print_table(const platform *p, FILE *out);

/* Derived topology helpers (model/README.md §2.1). */
static inline int platform_num_cores(const platform *p)
{
    return (int)(3 * p->clusters);
}
static inline int platform_num_sched(const platform *p)
{
    return (int)(p->aicpu_threads - 1);
}

#endif
