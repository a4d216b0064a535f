/* dep_gen.h - depgen_: deps.json as the runtime's dep_gen replay writes it (model/README.md §16.1). */
/* The logical dependency graph. */
#ifndef PTOSIM_DEP_GEN_H
#define PTOSIM_DEP_GEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../base/outfile.h"
#include "../runtime/tensor_map.h"
#include "../base/write_buffer.h"

/* One tensor argument as deps.json describes it. */
typedef struct depgen_arg {
    int type;        /* 0 INPUT, 1 OUTPUT, 2 INOUT, 3 OUTPUT_EXISTING, 4 NO_DEP */
    bool manual_dep; /* no TensorMap lookup or insert */
    bool has_owner;  /* the buffer was created by a task (creator edge) */
    uint64_t owner;  /* that task */
    tmap_view v;     /* the view (unused for OUTPUT) */
} depgen_arg;

/* One submitted task (alloc_tensors are not recorded). */
typedef struct depgen_task {
    uint64_t id;           /* task id */
    bool manual;           /* submitted inside a manual scope */
    bool early_dispatch;   /* allow_early_resolve */
    int32_t kernel_ids[3]; /* [aic, aiv0, aiv1] */
    int32_t block_num;     /* SPMD blocks */
    int nargs;
    const depgen_arg *args; /* tensor args in slot order */
    int ndeps;
    const uint64_t *deps; /* explicit deps in order */
} depgen_task;

typedef struct depgen {
    bool files;                 /* the bodies are written (false: only preds, for the overhead model) */
    wbuf tasks, tensors, edges; /* bodies in scratch files, joined at the end */
    outfile *out;               /* depgen_open: tasks go straight into it, the file itself */
    uint64_t ntasks, ntensors, nedges;
    uint64_t *seen; /* tensor ids already in tensors[] (open addressing, 0 = empty) */
    size_t seen_cap, nseen;
    bool seen_zero;  /* tensor id 0 (the empty marker) was seen */
    tmap logical;    /* the replay's TensorMap: nothing ever retires */
    uint64_t *preds; /* scratch: producers of the current task */
    size_t npreds, preds_cap;
    struct dg_memo *memo; /* files: the text of recent tensor ids and dims, copied when they come again */
} depgen;

/* FNV-1a 64 over the address (8 bytes LE) then the version (4 bytes LE). */
uint64_t depgen_tensor_id(uint64_t addr, int32_t version);

/* Opens the temporary bodies (files = false: no file at all, only each
 * task's producers in preds, for the overhead model). Returns 0, or -1 with
 * a message in err. */
int depgen_init(depgen *d, const uint32_t window[TMAP_RINGS], bool files, char *err, size_t errlen);

/* Frees everything and removes temporary files. */
void depgen_free(depgen *d);

/* Records one submit (or dummy) in submission order: its tasks[] entry,
 * new tensors[] entries and its edges, then registers its writers; preds
 * then holds its distinct producers. Returns 0, or -1 when out of memory. */
int depgen_add(depgen *d, const depgen_task *t);

/* Opens deps.json at path before the first task is recorded: tasks[], the
 * largest part, is then written into it as the run goes instead of into a
 * scratch file copied at the end. Returns 0, or -1 with a message in err. */
int depgen_open(depgen *d, const char *path, char *err, size_t errlen);

/* Writes deps.json (one line) at path, or finishes the one depgen_open
 * opened (path is then the same). Returns 0, or -1 with a message in err
 * (the file is not left behind). */
int depgen_write(depgen *d, const char *path, char *err, size_t errlen);

#endif
