// mm.cpp - ptosim's own PTO test kernel (AIC): c = a . b, one 64 x 64 FLOAT32 matmul per tile, as many tiles
// as the INT32 input `count` (args[3]) holds in its first element. Per tile: 5 TASSIGN, 2 TLOAD, 2 TMOV,
// 1 TMATMUL, 1 TSTORE (11 instructions) and 3 set/wait pairs (6 sync records); GM: 2 x 16 KiB in, 16 KiB out.
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

static constexpr int MM_TILE = 64;

static __aicore__ void mm_tile(__gm__ float *a, __gm__ float *b, __gm__ float *c)
{
    using Global = GlobalTensor<float, Shape<1, 1, 1, MM_TILE, MM_TILE>,
                                Stride<MM_TILE * MM_TILE, MM_TILE * MM_TILE, MM_TILE * MM_TILE, MM_TILE, 1>>;
    using MatTile = Tile<TileType::Mat, float, MM_TILE, MM_TILE, BLayout::ColMajor, MM_TILE, MM_TILE,
                         SLayout::RowMajor, 512>;
    MatTile am, bm;
    TASSIGN(am, 0x0);
    TASSIGN(bm, 0x10000);
    TileLeft<float, MM_TILE, MM_TILE, MM_TILE, MM_TILE> left;
    TileRight<float, MM_TILE, MM_TILE, MM_TILE, MM_TILE> right;
    TileAcc<float, MM_TILE, MM_TILE, MM_TILE, MM_TILE> acc;
    TASSIGN(left, 0x0);
    TASSIGN(right, 0x0);
    TASSIGN(acc, 0x0);
    Global ga(a), gb(b), gc(c);
    TLOAD(am, ga);
    TLOAD(bm, gb);
    set_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
    TMOV(left, am);
    TMOV(right, bm);
    set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
    wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
    TMATMUL(acc, left, right);
    set_flag(PIPE_M, PIPE_FIX, EVENT_ID0);
    wait_flag(PIPE_M, PIPE_FIX, EVENT_ID0);
    TSTORE(gc, acc);
}

extern "C" __aicore__ void kernel_entry(__gm__ int64_t *args)
{
    __gm__ ChipTensor *a = reinterpret_cast<__gm__ ChipTensor *>(args[0]);
    __gm__ ChipTensor *b = reinterpret_cast<__gm__ ChipTensor *>(args[1]);
    __gm__ ChipTensor *c = reinterpret_cast<__gm__ ChipTensor *>(args[2]);
    __gm__ ChipTensor *count = reinterpret_cast<__gm__ ChipTensor *>(args[3]);
    int32_t tiles = reinterpret_cast<__gm__ int32_t *>(count->buffer.addr)[count->start_offset];
    __gm__ float *pa = reinterpret_cast<__gm__ float *>(a->buffer.addr) + a->start_offset;
    __gm__ float *pb = reinterpret_cast<__gm__ float *>(b->buffer.addr) + b->start_offset;
    __gm__ float *pc = reinterpret_cast<__gm__ float *>(c->buffer.addr) + c->start_offset;
    for (int32_t i = 0; i < tiles; i++)
        mm_tile(pa + i * MM_TILE * MM_TILE, pb + i * MM_TILE * MM_TILE, pc + i * MM_TILE * MM_TILE);
    set_flag(PIPE_FIX, PIPE_S, EVENT_ID7);
    wait_flag(PIPE_FIX, PIPE_S, EVENT_ID7);
}
