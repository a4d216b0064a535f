/* graph_reader.h - graph_: streaming reader and validator of graph files (JSON Lines, format 1). */
#ifndef PTOSIM_GRAPH_READER_H
#define PTOSIM_GRAPH_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../base/json_reader.h"
#include "../chip/pipe.h"
#include "../base/string_table.h"

#define GRAPH_VERSION 1
#define GRAPH_MAX_DIMS 5          /* Tensor::shapes[5] */
#define GRAPH_MAX_TENSOR_ARGS 32  /* CORE_MAX_TENSOR_ARGS (model/README.md §4.1) */
#define GRAPH_MAX_SCALAR_ARGS 16  /* CORE_MAX_SCALAR_ARGS (model/README.md §4.1) */
#define GRAPH_MAX_FUNC_ID 1024    /* RUNTIME_MAX_FUNC_ID (model/README.md §4.1) */
#define GRAPH_MAX_DATA 4096       /* literal tensor values on one tensor or argument */
#define GRAPH_MAX_BLOCK_NUM 32767 /* block counts are int16 (model/README.md §8.3) */
#define GRAPH_MAX_SCOPE_DEPTH 64  /* PTO2_MAX_SCOPE_DEPTH, the root scope included */
#define GRAPH_NAME_MAX 128
#define GRAPH_SITE_MAX 64
#define GRAPH_ERR_MAX 1024
#define GRAPH_READ_BLOCK (1 << 20) /* bytes per read of the graph file */
#define GRAPH_MAX_LINE (16 << 20)  /* longest line: a file without newlines must not fill memory */
#define GRAPH_DOC_KEEP (1 << 20)  /* bytes of a parsed line kept for the next one (jsonl_doc) */
/* The most bytes a tensor or a view may span: far beyond any device memory,
 * exact in a double (the outputs are JSON), and small enough that no sum of a
 * task's 32 buffers, no address plus size and no element offset can wrap
 * 64 bits. Every size the reader computes from input is checked against it. */
#define GRAPH_MAX_BYTES (1ULL << 53)

/* How a kernel's (or a task's) execution time is given. */
typedef enum {
    COST_CYCLES, /* flat AICore cycles per block */
    COST_NS,     /* flat nanoseconds per block (imported captures) */
    COST_PIPES,  /* tiles through the core's pipes (pipe.h) */
} cost_kind;

typedef struct graph_cost {
    cost_kind kind;   /* which form */
    uint64_t value;   /* cycles or ns (flat forms) */
    pipe_kernel pipe; /* the pipe form */
} graph_cost;

/* One entry of the header's kernel table. */
typedef struct graph_kernel {
    int id;                    /* func_id, 0..1023 */
    char name[GRAPH_NAME_MAX]; /* name for the name map and for "kernel": "name" */
    core_type core;            /* which core type runs it */
    graph_cost cost;           /* default execution time */
} graph_kernel;

/* What the reader knows about the tensor currently bound to a name. */
typedef struct graph_tensor {
    int dtype;                     /* element type */
    int ndim;                      /* rank */
    int64_t shape[GRAPH_MAX_DIMS]; /* full buffer shape */
    uint64_t numel;                /* elements in the buffer */
    uint64_t storage_numel;        /* elements of its storage: numel, rounded up to 1024 B when runtime-created */
    uint64_t addr;                 /* device address; 0 = allocated by the runtime */
    int32_t version;               /* tensor version */
    bool external;                 /* declared in the header (no owner task) */
    bool resident;                 /* worker-resident: same buffer in every program of a run (header) */
    bool auto_addr;                /* the reader chose addr (the header gave none) */
    uint32_t ndata;                /* initial values given in the header ("data"), 0 = none */
    double *data;                  /* ... row-major from element 0 */
    long defined_line;             /* line that bound it (1 = header) */
} graph_tensor;

/* Argument directions (the runtime's tags, model/README.md §5.1). */
typedef enum {
    DIR_IN,           /* INPUT */
    DIR_OUT,          /* OUTPUT: runtime-created buffer */
    DIR_INOUT,        /* INOUT */
    DIR_OUT_EXISTING, /* OUTPUT_EXISTING */
    DIR_NO_DEP,       /* NO_DEP */
} graph_dir;

/* One tensor argument, resolved to a view of a named tensor. */
typedef struct graph_arg {
    graph_dir dir;                   /* direction tag */
    int tensor;                      /* tensor slot (binding of the name at this line) */
    int dtype;                       /* element type of the view */
    int ndim;                        /* rank of the view */
    int64_t shape[GRAPH_MAX_DIMS];   /* view shape, elements per dim */
    int64_t strides[GRAPH_MAX_DIMS]; /* view strides, elements, all > 0 */
    uint64_t start_offset;           /* element offset of the view origin */
    uint64_t buffer_numel;           /* elements of the storage the view is of (graph_tensor.storage_numel) */
    int32_t version;                 /* view version */
    bool manual_dep;                 /* skip TensorMap lookup and insert */
    bool dump;                       /* tagged for a level-1/3 args dump */
    uint32_t ndata;                  /* values given for an output ("data"), 0 = none */
    const double *data;              /* ... row-major over the view (reader-owned, valid until the next op) */
} graph_arg;

/* One scalar argument. */
typedef struct graph_scalar {
    int dtype;    /* element type (UINT64 when not given) */
    double value; /* numeric value (booleans as 0/1) */
    bool dump;    /* tagged for dump */
} graph_scalar;

/* One explicit dependency: a label of an earlier task, or a raw task id. */
typedef struct graph_dep {
    int label;       /* label slot, or -1 when raw_id is used */
    uint64_t raw_id; /* (ring << 32) | local, when label < 0 */
} graph_dep;

typedef enum {
    OP_SCOPE_BEGIN,
    OP_SCOPE_END,
    OP_SUBMIT,
    OP_DUMMY,
    OP_ALLOC,
    OP_USER_CODE,
} graph_op_kind;

/* One orchestration operation. The reader reuses one op; copy what you keep. */
typedef struct graph_op {
    graph_op_kind kind; /* what it is */
    long line;          /* 1-based line in the file */
    uint64_t byte_end;  /* file offset just past its line (progress) */
    /* scope_begin */
    bool manual;               /* manual scope */
    char site[GRAPH_SITE_MAX]; /* "<file>:<line>" of the scope, "(unknown):0" if none */
    /* submit, dummy, alloc */
    int label;             /* label slot this op binds ("id"), or -1 */
    int32_t kernel_ids[3]; /* [aic, aiv0, aiv1], -1 = inactive */
    int block_num;         /* SPMD blocks, >= 1 */
    bool sync_start;       /* require_sync_start */
    bool early_resolve;    /* allow_early_resolve (producer flag) */
    bool predicate;        /* false: retired without dispatch */
    bool dump_task;        /* whole task tagged for dump */
    bool has_cost;         /* cost overrides the kernels' costs */
    graph_cost cost;       /* the override */
    int nargs;             /* tensor args (alloc: the tensors it creates) */
    graph_arg args[GRAPH_MAX_TENSOR_ARGS];
    int nscalars; /* scalar args */
    graph_scalar scalars[GRAPH_MAX_SCALAR_ARGS];
    int ndeps;       /* explicit deps */
    graph_dep *deps; /* reader-owned, valid until the next op */
    /* user_code */
    uint64_t user_ns; /* orchestrator user-code time */
} graph_op;

#define GRAPH_MEMO_LINE 256 /* longest scope line graph_next remembers */

/* An open graph file. */
typedef struct graph {
    char path[4096];                       /* file name, for messages */
    FILE *f;                               /* the stream */
    char *rbuf;                            /* read buffer: blocks of the file */
    size_t rcap, rlen, rpos;               /* its capacity, bytes in it, next unread byte */
    uint64_t rbase;                        /* file offset of rbuf[0] */
    bool reof, rerror;                     /* end of file reached; a read failed (rerrno) */
    int rerrno;                            /* errno of the failed read */
    bool too_long;                         /* a line ran past GRAPH_MAX_LINE */
    char *linebuf;                         /* current line, inside rbuf */
    jsonl_doc doc;                         /* the current line, parsed (reused from line to line) */
    long line;                             /* last line read */
    char name[GRAPH_NAME_MAX];             /* graph name (used in file names) */
    char orchestrator[GRAPH_NAME_MAX];     /* orchestrator name for the name map, "" = null */
    int nkernels;                          /* entries of kernels */
    graph_kernel *kernels;                 /* kernel table in header order */
    int func_to_kernel[GRAPH_MAX_FUNC_ID]; /* func_id -> kernels index, -1 = none */
    strtab tensor_names;                   /* tensor name -> slot */
    int name_cache[64];                    /* slot + 1 of a tensor name by a hash of it, 0 = none (a loop's
                                            * names found again without the table's hash of every byte) */
    graph_tensor *tensors;                 /* current binding per slot */
    size_t tensors_cap;                    /* allocated entries of tensors */
    int nexternal;                         /* external tensors declared in the header */
    strtab labels;                         /* task label -> slot */
    long *label_line;                      /* line that last bound each label */
    size_t labels_cap;                     /* allocated entries of label_line */
    double *databuf;                       /* storage behind op.args[].data */
    size_t datalen, datacap;               /* values in use, allocated */
    graph_dep *depbuf;                     /* storage behind op.deps */
    size_t depcap;                         /* its capacity */
    int scope_depth;                       /* open user scopes */
    /* the last scope_begin and scope_end lines that parsed, byte for byte (length 0: none), and what the
     * scope_begin gave: an identical line gives the same op (graph_next) */
    char memo_begin[GRAPH_MEMO_LINE], memo_end[GRAPH_MEMO_LINE];
    size_t memo_begin_len, memo_end_len;
    bool memo_manual;
    char memo_site[GRAPH_SITE_MAX];
    int manual_depth;                      /* depth of the outermost manual scope, 0 = none */
    long scope_lines[64];                  /* line of each open scope_begin */
    long nops;                             /* operations read */
    long nsubmits;                         /* submit + dummy + alloc ops read */
    uint64_t next_auto_addr;               /* next address for a header tensor without "addr" */
    bool has_run_config;                   /* the header gave "run_config" or "runtime_env" */
    uint64_t run_rings[3][4];              /* its ring sizes per knob (runcfg_knob) and ring, 0 = unset */
} graph;

/* Opens a graph file and reads its header. Returns 0, or -1 with
 * "FILE:LINE: field: what is wrong" in err. The file is opened once and read
 * front to back, so a FIFO or a pipe works. */
int graph_open(graph *g, const char *path, char *err, size_t errlen);

/* Moves the rest of from's file (everything past the header) to `to`, with
 * its own copy of what the header declared, so another thread can read on
 * while from keeps its header for lookups; from reads no more lines. Returns
 * 0, or -1 when out of memory (from unchanged). */
int graph_handover(graph *from, graph *to);

/* Undoes graph_handover before `to` read anything: the file goes back to
 * from, and `to` is closed. */
void graph_handback(graph *from, graph *to);

/* Reads the next operation into *op. Returns 1 for an op, 0 at a clean end of
 * file, -1 with a message in err for malformed input (including a scope left
 * open at the end). */
int graph_next(graph *g, graph_op *op, char *err, size_t errlen);

/* Closes the file and frees everything. */
void graph_close(graph *g);

/* Reads the whole file once, checking every line. Returns 0, or -1 with the
 * first problem in err. Memory stays bounded by the distinct names used. */
int graph_validate(const char *path, char *err, size_t errlen);

/* Is err (a message of graph_open, graph_next or graph_validate) about memory running out rather than the
 * file ("...: out of memory", or fopen's "Cannot allocate memory")? Such a failure is the simulator's (status 1), not the graph's (status 3). */
bool graph_err_oom(const char *err);

/* Checks v as a kernel's "cost" for an AIC (aic) or AIV kernel: {"ns"},
 * {"cycles"} or the pipe form. Errors read "PATH:LINE: FIELD: what". Fills
 * *out when it is not NULL. Returns 0 or -1. */
int graph_check_cost(const char *path, long line, const char *field, const cJSON *v, bool aic,
                     graph_cost *out, char *err, size_t errlen);

/* Kernel of a func_id, or NULL. */
static inline const graph_kernel *graph_kernel_by_id(const graph *g, int func_id)
{
    if (func_id < 0 || func_id >= GRAPH_MAX_FUNC_ID || g->func_to_kernel[func_id] < 0)
        return NULL;
    return &g->kernels[g->func_to_kernel[func_id]];
}

/* Name of a direction as written in graph files ("in", "out", ...). */
const char *graph_dir_name(graph_dir d);

#endif
