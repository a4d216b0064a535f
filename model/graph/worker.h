/* worker.h - several programs on one worker (model/README.md §15). */
/* Resident tensors, edges across programs, the worker's timeline of setup, arena builds and runs. */
#ifndef PTOSIM_WORKER_H
#define PTOSIM_WORKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "graph_reader.h"
#include "../runtime/tensor_map.h"

#define WORKER_MAX_PROGRAMS 64 /* orch_so_table_: at most 64 callables per worker (model/README.md §15) */

/* A tensor that lives on the worker across programs (rt.alloc_tensor): the
 * first program that declares it fixes its address. */
typedef struct worker_resident {
    char name[GRAPH_NAME_MAX];
    int dtype, ndim;
    int64_t shape[GRAPH_MAX_DIMS];
    uint64_t addr;
    int first_program; /* the program whose header placed it */
} worker_resident;

/* A write to a resident tensor by a task of an earlier program. */
typedef struct worker_write {
    int program;
    uint64_t task_id;
    int resident;
    tmap_view v;
} worker_write;

/* A task reading a resident region that an earlier program's task wrote last. */
typedef struct worker_edge {
    int from_program;
    uint64_t from_task;
    int to_program;
    uint64_t to_task;
    int resident;
} worker_edge;

/* What one program's run gave. */
typedef struct worker_result {
    int exit_code;            /* the run's exit status */
    char status[24];          /* report_status_name */
    double makespan_us;       /* orchestration start to last completion */
    uint64_t tasks_completed; /* tasks that completed */
} worker_result;

/* Per-program place on the worker and on its timeline. */
typedef struct worker_program {
    char path[4096];               /* graph file */
    char name[GRAPH_NAME_MAX];     /* graph name */
    char dir[GRAPH_NAME_MAX + 16]; /* its output folder inside the run's, "N_name" */
    uint64_t auto_shift;           /* added to the addresses the reader chose */
    uint64_t rings[3][4];          /* effective ring sizing (runcfg_knob, ring) */
    bool registers;                /* first program of its callable: registered at setup */
    bool builds_arena;             /* its sizing is not the cached one: the arena is (re)built before it */
    bool ran;                      /* it ran (an earlier failure stops the rest) */
    worker_result result;
    double start_us;  /* device run start on the worker clock */
    double device_us; /* preamble + prep + makespan */
} worker_program;

/* Worker costs (platform parameters, model/README.md §15). */
typedef struct worker_costs {
    double init_us;          /* Worker.init */
    double register_us;      /* register(callable), per distinct program */
    double arena_build_us;   /* prebuilt runtime arena for one ring sizing */
    double first_launch_us;  /* the first AICore launch */
    double preamble_us;      /* device preamble of every run */
    double prep_us;          /* per-run prep: config validate + arena wire (+ the SM reset's fixed part) */
    double sm_reset_slot_ns; /* per-run SM reset per task-window slot of every ring (0 since simpler #1199) */
} worker_costs;

typedef struct worker {
    int nprograms;
    worker_program prog[WORKER_MAX_PROGRAMS];
    int nres;
    worker_resident *res;
    size_t res_cap;
    uint64_t auto_end;    /* end of the auto-placed address range used so far */
    worker_write *writes; /* latest writes to resident tensors by finished programs */
    size_t nwrites, writes_cap;
    worker_edge *edges;
    size_t nedges, edges_cap;
    int arena_builds; /* arena builds, the first included */
    double setup_us;  /* init + registrations + first arena build + first launch */
    double total_us;  /* setup + rebuilds + every run's device time */
    double fresh_us;  /* the same programs, each on a fresh worker */
} worker;

void worker_init(worker *w);
void worker_free(worker *w);

/* Device time of one run (model/README.md §15): the preamble, the per-run prep (its fixed part and
 * the SM reset of every task-window slot of the ring sizing rings, indexed as worker_program's) and
 * the makespan. */
double worker_device_us(const worker_costs *k, const uint64_t rings[3][4], double makespan_us);

/* Adds the next program from its header (g just opened) and its effective ring
 * sizing: places its auto-addressed tensors after the earlier programs' and
 * registers or checks its resident tensors. Returns 0, or -1 with
 * "FILE:1: tensors[i]: ..." in err. */
int worker_add_program(worker *w, const graph *g, const uint64_t rings[3][4], char *err, size_t errlen);

/* Moves program p's header tensors to their worker addresses (call on every
 * opened copy of its graph before simulating). */
void worker_place(const worker *w, int p, graph *g);

/* Appends one access of a task to a resident tensor to log (child side). */
void worker_log_access(FILE *log, uint64_t task_id, int resident, bool write, const tmap_view *v);

/* Finds the index of resident tensor address addr, -1 if none. */
int worker_resident_of(const worker *w, uint64_t addr);

/* Appends program p's result to log (child side, at the end of its run). */
void worker_log_result(FILE *log, const worker_result *r);

/* Reads program p's log from the start: each read of a region an earlier
 * program wrote becomes an edge, then p's writes replace the ones they
 * cover; the result record marks p as run. Returns 0, or -1 when the log
 * holds no result (the run died) or on a memory error. */
int worker_take_log(worker *w, int p, FILE *log);

/* Fills the timeline from the programs' results (programs that did not run
 * count neither way). */
void worker_timeline(worker *w, const worker_costs *costs);

/* Prints the worker's part of the summary: setup, each run, the total
 * against fresh workers, edges across programs. */
void worker_summary(const worker *w, FILE *out);

/* Writes the worker's ptosim_run.json. Returns 0, or -1 with a message. */
int worker_write_json(const worker *w, const worker_costs *costs, const char *path, char *err, size_t errlen);

#endif
