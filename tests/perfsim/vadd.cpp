// vadd.cpp - ptosim's own PTO test kernel (AIV): z = x + y over N 64 x 64 FLOAT32 tiles, N the task's
// first scalar, shared among its SPMD blocks (each takes N / block_num; the block's context is args[48],
// as the runtime's dispatch passes it). Per tile: 3 TASSIGN, 2 TLOAD, 1 TADD, 1 TSTORE (7 instructions) and 2 set/wait pairs (4 sync
// records); then one drain pair. GM: 2 x 16 KiB in and 16 KiB out per tile.
#include <cstdint>
#include <pto/pto-inst.hpp>
#include <pto/common/constants.hpp>
#include <pto/common/pto_tile.hpp>

#include "tensor.h"

using namespace pto;

#ifndef __gm__
#define __gm__
#endif
#ifndef __aicore__
#define __aicore__ [aicore]
#endif

static constexpr int VADD_TILE = 64;

// The runtime's SPMD local context, at args[48].
struct VaddLocalContext {
    int32_t block_idx, block_num;
};

static __aicore__ void vadd_tile(__gm__ float *x, __gm__ float *y, __gm__ float *z)
{
    using Global = GlobalTensor<float, Shape<1, 1, 1, VADD_TILE, VADD_TILE>, Stride<1, 1, 1, VADD_TILE, 1>>;
    using VecTile = Tile<TileType::Vec, float, VADD_TILE, VADD_TILE, BLayout::RowMajor, -1, -1>;
    VecTile a(VADD_TILE, VADD_TILE), b(VADD_TILE, VADD_TILE), sum(VADD_TILE, VADD_TILE);
    TASSIGN(a, 0x0);
    TASSIGN(b, 0x4000);
    TASSIGN(sum, 0x8000);
    Global gx(x), gy(y), gz(z);
    TLOAD(a, gx);
    TLOAD(b, gy);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TADD(sum, a, b);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(gz, sum);
}

extern "C" __aicore__ void kernel_entry(__gm__ int64_t *args)
{
    __gm__ ChipTensor *x = reinterpret_cast<__gm__ ChipTensor *>(args[0]);
    __gm__ ChipTensor *y = reinterpret_cast<__gm__ ChipTensor *>(args[1]);
    __gm__ ChipTensor *z = reinterpret_cast<__gm__ ChipTensor *>(args[2]);
    __gm__ float *px = reinterpret_cast<__gm__ float *>(x->buffer.addr) + x->start_offset;
    __gm__ float *py = reinterpret_cast<__gm__ float *>(y->buffer.addr) + y->start_offset;
    __gm__ float *pz = reinterpret_cast<__gm__ float *>(z->buffer.addr) + z->start_offset;
    __gm__ VaddLocalContext *ctx = reinterpret_cast<__gm__ VaddLocalContext *>(args[48]);
    int64_t tiles = args[3] / ctx->block_num;
    int64_t first = tiles * ctx->block_idx;
    px += first * VADD_TILE * VADD_TILE;
    py += first * VADD_TILE * VADD_TILE;
    pz += first * VADD_TILE * VADD_TILE;
    for (int64_t i = 0; i < tiles; i++)
        vadd_tile(px + i * VADD_TILE * VADD_TILE, py + i * VADD_TILE * VADD_TILE, pz + i * VADD_TILE * VADD_TILE);
    set_flag(PIPE_MTE3, PIPE_S, EVENT_ID7);
    wait_flag(PIPE_MTE3, PIPE_S, EVENT_ID7);
}
