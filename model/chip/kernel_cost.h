/* kernel_cost.h - kcost_: a kernel's pipe-form cost derived from its args as a capture records them. */
/* From core type, direction, dtype and shape: bytes through MTE2/MTE3/FIXPIPE, cube work of a matmul,
 * vector work over the elements. */
#ifndef PTOSIM_KERNEL_COST_H
#define PTOSIM_KERNEL_COST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pipe.h"

#define KCOST_MAX_DIMS 5 /* Tensor::shapes[5] */
#define KCOST_BUFFERS 2  /* tiles are double-buffered */
#define KCOST_NOTE_MAX 768
#define KCOST_MAX_ARGS 32 /* tensor args of a task (CORE_MAX_TENSOR_ARGS) */
#define KCOST_GATHER_BLOCK_ROWS                                                                              \
    128 /* rows a block-table entry names in a 2-D cache: assumed (paged attention's                         \
         * block size in the runtime's unroll and batch cases) */

/* GM transfer rates in GiB/s, pto-isa's published a2a3 parameters (include/pto/costmodel/arch_config.hpp,
 * kA2A3ArchConfig, commit 995589ab): GM -> L1 (the AIC's MTE2), GM -> UB (the AIV's MTE2), UB -> GM (MTE3).
 * L0C -> GM (FIXPIPE) is what Perf-Sim's trace of TSTORE from the accumulator shows, 81.2 B/cycle at
 * 1.85 GHz of FLOAT32 accumulator bytes (139.9 GiB/s); a 16-bit output moves half the bytes in that time. */
#define KCOST_GIB_GM_TO_L1 135.0
#define KCOST_GIB_GM_TO_UB 100.9
#define KCOST_GIB_UB_TO_GM 188.46
#define KCOST_GIB_L0C_TO_GM 139.9
/* A matmul's output tile, m x n: baseM x baseN of pto-isa's GEMM kernels (tests/costmodel/perf_sim_st). The
 * A panel of a tile row is read again for every tile of the row, the B panel for every tile row. */
#define KCOST_TILE_M 128
#define KCOST_TILE_N 256

/* One tensor argument as the model sees it. */
typedef struct kcost_arg {
    bool in;                       /* the kernel reads it (INPUT, INOUT, NO_DEP) */
    bool out;                      /* the kernel writes it (OUTPUT, INOUT, OUTPUT_EXISTING) */
    int dtype;                     /* element type */
    int ndim;                      /* rank of the view, 0 = unknown (an output nobody read) */
    int64_t shape[KCOST_MAX_DIMS]; /* the view's elements per dimension */
    uint64_t bytes;                /* bytes the view covers (an unknown output: its storage) */
} kcost_arg;

/* How a cost was found. */
typedef enum {
    KCOST_DERIVED, /* from the args alone */
    KCOST_ASSUMED, /* with an assumption the note states (e.g. 1-D matmul operands taken as square) */
    KCOST_UNKNOWN, /* not inferable: the note says why and what the user must give */
} kcost_status;

/* Derives the pipe form of one block of an AIC (aic) or AIV kernel from its
 * args. AIV: MTE2 reads every input, MTE3 writes every output, the vector
 * unit makes one pass over the largest operand; AIC: a matmul of the two
 * largest inputs (m, n, k from their last two dimensions), MTE2 and MTE1 move
 * the inputs, FIXPIPE writes the outputs. A task of block_num > 1 blocks
 * (SPMD) has one set of args for all of them, the whole tensors: each block
 * takes a block_num-th of the work (a matmul: of the batch, or of the output
 * split bm x bn with the least reading per block). Tiles are halved until
 * KCOST_BUFFERS of them fit the UB (AIV) or L1 (AIC). repeat > 1: the task
 * is one of that many with args identical to the letter that write the same
 * output (split-K chunks whose scalars a capture does not show): it takes a
 * repeat-th of k (of a vector kernel's every figure). Writes how into note. */
kcost_status kcost_derive(bool aic, const kcost_arg *args, int nargs, int block_num, int repeat,
                          pipe_kernel *out, char *note, size_t notelen);

#endif
