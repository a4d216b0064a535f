/* test_kcost.c - kernel costs derived from a capture's args (model/chip/kernel_cost.c). */
/* The bgemm and paged-attention fixtures' kernels worked out by hand, matmul shapes, kernels that cannot
 * be inferred. */
#include <string.h>

#include "../model/base/dtype.h"
#include "../model/chip/kernel_cost.h"
#include "../model/chip/platform.h"
#include "testutil.h"

/* Cycles of one block of k on the a2a3 platform's pipes. */
static uint64_t cycles_of(const pipe_kernel *k)
{
    platform p;
    platform_defaults(&p);
    pipe_rates r;
    platform_pipe_rates(&p, &r);
    pipe_result res;
    pipe_run(k, &r, &res);
    return res.total_cycles;
}

#define IN2(dt, a, b, by)                                                                                    \
    {                                                                                                        \
        .in = true, .dtype = dt, .ndim = 2, .shape = {a, b}, .bytes = by                                     \
    }
#define OUT2(dt, a, b, by)                                                                                   \
    {                                                                                                        \
        .out = true, .dtype = dt, .ndim = 2, .shape = {a, b}, .bytes = by                                    \
    }
#define IN1(dt, a, by)                                                                                       \
    {                                                                                                        \
        .in = true, .dtype = dt, .ndim = 1, .shape = {a}, .bytes = by                                        \
    }
#define OUT1(dt, a, by)                                                                                      \
    {                                                                                                        \
        .out = true, .dtype = dt, .ndim = 1, .shape = {a}, .bytes = by                                       \
    }

/*
 * pa_small1 (paged attention CaseSmall1: 16 heads of 16, KV blocks of 16,
 * BF16 caches). Rates on a2a3 at 1.8 GHz, the GM pipes at pto-isa's GiB/s
 * (kernel_cost.h): GM -> L1 135 GiB/s = 135 x 2^30 / 1.8e9 = 80.531 B/cycle,
 * L0C -> GM 139.9 GiB/s = 83.454 B/cycle of FLOAT32 (41.727 of a 16-bit
 * output), GM -> UB 100.9 GiB/s = 60.189, UB -> GM 188.46 GiB/s = 112.421;
 * MTE1 512 B/cycle, the cube 16 x 16 x 16 fp16 per cycle, the vector unit
 * 256 B/cycle; no scalar cycles (the model states "scalar": 0: the
 * platform's 200 per tile has no measured source).
 *
 * QK (AIC): Q [16,16] BF16 (512 B) times a key block [16,16] BF16 (512 B)
 * into S [16,16] FLOAT32 (1024 B, as its reader sees it): m 16 n 16 k 16.
 * 2 x 1024 B fit the 512 KiB L1: one tile. MTE2 1024/80.531 = 12.7 -> 13
 * + MTE1 1024/512 = 2 + cube 1 x 1 x (16 x 2 B / 32 B) = 1 + FIXPIPE
 * 1024/83.454 = 12.3 -> 13 = 29 cycles (Perf-Sim: MTE2 12, FIXPIPE 13).
 */
START_TEST(paged_attention_matmuls_by_hand)
{
    kcost_arg qk[] = {IN2(DT_BFLOAT16, 16, 16, 512), IN2(DT_BFLOAT16, 16, 16, 512),
                      OUT2(DT_FLOAT32, 16, 16, 1024)};
    pipe_kernel k;
    char note[KCOST_NOTE_MAX];
    ck_assert_int_eq(kcost_derive(true, qk, 3, 1, 1, &k, note, sizeof(note)), KCOST_DERIVED);
    ck_assert_uint_eq(k.tiles, 1);
    ck_assert_uint_eq(k.buffers, 2);
    ck_assert_uint_eq(k.work.mnk[0], 16);
    ck_assert_uint_eq(k.work.mnk[1], 16);
    ck_assert_uint_eq(k.work.mnk[2], 16);
    ck_assert_uint_eq(k.work.cube_elem_bytes, 2);
    ck_assert_uint_eq(k.work.bytes[PIPE_MTE2], 1024);
    ck_assert_uint_eq(k.work.bytes[PIPE_MTE1], 1024);
    ck_assert_uint_eq(k.work.bytes[PIPE_FIXPIPE], 1024);
    ck_assert_double_eq(k.work.gib_per_s[PIPE_MTE2], 135.0);
    ck_assert_double_eq(k.work.gib_per_s[PIPE_FIXPIPE], 139.9);
    ck_assert_uint_eq(cycles_of(&k), 13 + 2 + 1 + 13);
    ck_assert_str_eq(
        note, "AIC from its args: a matmul of arg 0 [16, 16] by arg 1 [16, 16], m 16 n 16 k 16 x 1; "
              "MTE2 reads the inputs (1024 B), MTE1 the operands, FIXPIPE writes the outputs (1024 B); "
              "one tile");
}
END_TEST

/*
 * SF (AIV): S [16,16] FLOAT32 in (1024 B), its only input; out P [16,16]
 * BF16 (512 B) and the row max and sum [16] FLOAT32 (64 B each): 640 B. A
 * softmax: 256 scores x 0.188 cycles = 48.1 -> 49, plus the biases of one
 * tile's six instructions, 310: 359 vector cycles. 2 x (1024 + 640) B fit
 * the 192 KiB UB: one tile. MTE2 1024/60.189 = 17.01 -> 18, MTE3
 * 640/112.421 = 5.7 -> 6: 18 + 359 + 6 = 383 cycles (Perf-Sim: 431, of
 * them vector 403, MTE2 17).
 * UP (AIV): reads mij, lij [16] (64 B each), oi_new [16,16] (1024 B) and
 * its inouts mi, li [16], oi [16,16] and out [16,16] (64 + 64 + 1024 +
 * 1024): 3328 B; writes the four inouts, 2176 B; the pass over 256 FLOAT32
 * elements, 4 cycles. 3328/60.189 = 55.3 -> 56 + 4 + 2176/112.421 = 19.4
 * -> 20 = 80 cycles.
 */
START_TEST(paged_attention_vector_kernels_by_hand)
{
    kcost_arg sf[] = {IN2(DT_FLOAT32, 16, 16, 1024), OUT2(DT_BFLOAT16, 16, 16, 512), OUT1(DT_FLOAT32, 16, 64),
                      OUT1(DT_FLOAT32, 16, 64)};
    pipe_kernel k;
    char note[KCOST_NOTE_MAX];
    ck_assert_int_eq(kcost_derive(false, sf, 4, 1, 1, &k, note, sizeof(note)), KCOST_DERIVED);
    ck_assert_uint_eq(k.tiles, 1);
    ck_assert_uint_eq(k.work.bytes[PIPE_MTE2], 1024);
    ck_assert_uint_eq(k.work.bytes[PIPE_MTE3], 640);
    ck_assert_uint_eq(k.work.vec_elems, 0);
    ck_assert_uint_eq(k.work.cycles[PIPE_VECTOR], 359);
    ck_assert_msg(strstr(note, "a softmax of arg 0's 256 FLOAT32 scores into arg 1: 359 vector cycles"), "%s",
                  note);
    ck_assert_uint_eq(cycles_of(&k), 18 + 359 + 6);

    kcost_arg up[] = {
        IN1(DT_FLOAT32, 16, 64),
        IN1(DT_FLOAT32, 16, 64),
        IN2(DT_FLOAT32, 16, 16, 1024),
        {.in = true, .out = true, .dtype = DT_FLOAT32, .ndim = 1, .shape = {16}, .bytes = 64},
        {.in = true, .out = true, .dtype = DT_FLOAT32, .ndim = 1, .shape = {16}, .bytes = 64},
        {.in = true, .out = true, .dtype = DT_FLOAT32, .ndim = 2, .shape = {16, 16}, .bytes = 1024},
        {.in = true, .out = true, .dtype = DT_FLOAT32, .ndim = 2, .shape = {16, 16}, .bytes = 1024}};
    ck_assert_int_eq(kcost_derive(false, up, 7, 1, 1, &k, note, sizeof(note)), KCOST_DERIVED);
    ck_assert_uint_eq(k.work.bytes[PIPE_MTE2], 3328);
    ck_assert_uint_eq(k.work.bytes[PIPE_MTE3], 2176);
    ck_assert_uint_eq(k.work.vec_elems, 256);
    ck_assert_uint_eq(cycles_of(&k), 56 + 4 + 20);
}
END_TEST

/*
 * bgemm_case1 (benchmark_bgemm Case1: 4 tiles of 128 x 128 FLOAT32 per
 * task, flattened to [65536] views, and an INT64[4] config).
 * GEMM (AIC): A and B [65536] FLOAT32 (262144 B each) are 1-D, so each is
 * taken as a square 256 x 256 matrix (said: the real shape is 4 x 128^3, half
 * the multiplies). Output tiles of 128 x 256: 2 x 1, so B is read again for
 * the second (262144 B from the L2). Inputs 2 x 262144 + 32 = 524320 B; two
 * buffers of a tile's 786464 / 2 B fit the 512 KiB L1 once k is cut in 2: 4
 * tiles of m 128 n 256 k 128, MTE2 524320 / 4 = 131080 B and 65536 B re-read,
 * MTE1 786432 / 4 = 196608 B, FIXPIPE the [65536] FLOAT32 output 262144 / 4 =
 * 65536 B. FLOAT32 at its own size: k steps of 8.
 * Per tile: MTE2 (131080 + 65536) / 80.531 = 2441.5 -> 2442, MTE1
 * 196608/512 = 384, cube 8 x 16 x 16 = 2048, FIXPIPE 65536/83.454 = 785.3 ->
 * 786; MTE2 paces the four tiles: 4 x 2442 + 384 + 2048 + 786 = 12986
 * cycles (Perf-Sim 19,696: the runtime's kernel does not double-buffer).
 * ADD (AIV): C += P over [65536] FLOAT32: reads C, P and config (524320 B),
 * writes C (262144 B); 8 tiles would need 2 x (65540 + 32768) = 196616 B,
 * 8 B over the 196608 B UB, so 16: MTE2 32770 B, MTE3 16384 B, 4096
 * elements per tile. Per tile MTE2 32770/60.189 = 544.4 -> 545, vector
 * 4096 x 4 / 256 = 64, MTE3 16384/112.421 = 145.7 -> 146: 16 x 545 + 64 +
 * 146 = 8930 cycles (Perf-Sim 11,464, MTE2 8,952 of them).
 */
START_TEST(bgemm_kernels_by_hand)
{
    kcost_arg gemm[] = {IN1(DT_FLOAT32, 65536, 262144), IN1(DT_FLOAT32, 65536, 262144),
                        OUT1(DT_FLOAT32, 65536, 262144), IN1(DT_INT64, 4, 32)};
    pipe_kernel k;
    char note[KCOST_NOTE_MAX];
    ck_assert_int_eq(kcost_derive(true, gemm, 4, 1, 1, &k, note, sizeof(note)), KCOST_ASSUMED);
    ck_assert_msg(strstr(note, "its operands are 1-D, so each is taken as a square 256 x 256 matrix"), "%s",
                  note);
    ck_assert_msg(!strstr(note, "at the FLOAT16 rate"), "%s", note);
    ck_assert_msg(strstr(note,
                         "2 x 1 output tiles of 128 x 256 re-read their panels (262144 B more, from the "
                         "L2)"),
                  "%s", note);
    ck_assert_uint_eq(k.tiles, 4);
    ck_assert_uint_eq(k.work.mnk[0], 128);
    ck_assert_uint_eq(k.work.mnk[1], 256);
    ck_assert_uint_eq(k.work.mnk[2], 128);
    ck_assert_uint_eq(k.work.cube_elem_bytes, 4);
    ck_assert_uint_eq(k.work.bytes[PIPE_MTE2], 131080);
    ck_assert_uint_eq(k.work.mte2_reread, 65536);
    ck_assert_uint_eq(k.work.bytes[PIPE_MTE1], 196608);
    ck_assert_uint_eq(k.work.bytes[PIPE_FIXPIPE], 65536);
    ck_assert_uint_eq(cycles_of(&k), 4 * 2442 + 384 + 2048 + 786);

    kcost_arg add[] = {
        {.in = true, .out = true, .dtype = DT_FLOAT32, .ndim = 1, .shape = {65536}, .bytes = 262144},
        IN1(DT_FLOAT32, 65536, 262144),
        IN1(DT_INT64, 4, 32)};
    ck_assert_int_eq(kcost_derive(false, add, 3, 1, 1, &k, note, sizeof(note)), KCOST_DERIVED);
    ck_assert_uint_eq(k.tiles, 16);
    ck_assert_uint_eq(k.work.bytes[PIPE_MTE2], 32770);
    ck_assert_uint_eq(k.work.bytes[PIPE_MTE3], 16384);
    ck_assert_uint_eq(k.work.vec_elems, 4096);
    ck_assert_uint_eq(cycles_of(&k), 16 * 545 + 64 + 146);
}
END_TEST

START_TEST(matmul_shapes_come_from_the_operands_and_the_output)
{
    pipe_kernel k;
    char note[KCOST_NOTE_MAX];
    /* A [32, 64] . B [64, 48]: m 32 k 64 n 48 */
    kcost_arg ab[] = {IN2(DT_FLOAT16, 32, 64, 4096), IN2(DT_FLOAT16, 64, 48, 6144),
                      OUT2(DT_FLOAT16, 32, 48, 3072)};
    ck_assert_int_eq(kcost_derive(true, ab, 3, 1, 1, &k, note, sizeof(note)), KCOST_DERIVED);
    ck_assert_uint_eq(k.work.mnk[0], 32);
    ck_assert_uint_eq(k.work.mnk[1], 48);
    ck_assert_uint_eq(k.work.mnk[2], 64);
    /* Q [16, 128] . K [64, 128]^T: the shared last dimension is k */
    kcost_arg qkt[] = {IN2(DT_BFLOAT16, 64, 128, 16384), IN2(DT_BFLOAT16, 16, 128, 4096)};
    ck_assert_int_eq(kcost_derive(true, qkt, 2, 1, 1, &k, note, sizeof(note)), KCOST_DERIVED);
    ck_assert_uint_eq(k.work.mnk[0], 64);
    ck_assert_uint_eq(k.work.mnk[1], 16);
    ck_assert_uint_eq(k.work.mnk[2], 128);
    /* x [16, 5120] times a weight view [10240, 1024] into y [16, 1024]:
     * no pair matches; the output's rows find x, whose columns are k; n 1024
     * is 4 output tiles of 256, each re-reading x: 163840 + 3 x 163840 +
     * the 10485760 B of the weight the product meets, 2 buffers of a tile's
     * 11141120 / 4 B fit the L1 once k is cut in 16: 64 tiles of k 320 */
    kcost_arg proj[] = {IN2(DT_BFLOAT16, 16, 5120, 163840), IN2(DT_BFLOAT16, 10240, 1024, 20971520),
                        OUT2(DT_FLOAT32, 16, 1024, 65536)};
    ck_assert_int_eq(kcost_derive(true, proj, 3, 1, 1, &k, note, sizeof(note)), KCOST_DERIVED);
    ck_assert_uint_eq(k.work.mnk[0], 16);
    ck_assert_uint_eq(k.work.mnk[1], 256);
    ck_assert_uint_eq(k.tiles, 64);
    ck_assert_uint_eq(k.work.mnk[2], 320);
    ck_assert_uint_eq(k.work.mte2_reread, 491520 / 64);
    /* batched: [4, 32, 64] . [4, 64, 32] is 4 tiles of 32 x 32 x 64 */
    kcost_arg batch[] = {{.in = true, .dtype = DT_FLOAT16, .ndim = 3, .shape = {4, 32, 64}, .bytes = 16384},
                         {.in = true, .dtype = DT_FLOAT16, .ndim = 3, .shape = {4, 64, 32}, .bytes = 16384}};
    ck_assert_int_eq(kcost_derive(true, batch, 2, 1, 1, &k, note, sizeof(note)), KCOST_DERIVED);
    ck_assert_uint_eq(k.tiles, 4);
    ck_assert_uint_eq(k.work.mnk[2], 64);
}
END_TEST

START_TEST(what_the_model_cannot_infer_is_named)
{
    pipe_kernel k;
    char note[KCOST_NOTE_MAX];
    /* two operands whose dimensions never meet, and no output to go by */
    kcost_arg odd[] = {IN2(DT_FLOAT16, 16, 32, 1024), IN2(DT_FLOAT16, 48, 64, 6144)};
    ck_assert_int_eq(kcost_derive(true, odd, 2, 1, 1, &k, note, sizeof(note)), KCOST_UNKNOWN);
    ck_assert_str_eq(
        note, "cannot infer m, n, k from arg 1 [48, 64] and arg 0 [16, 32] (no dimension pair matches): "
              "give its cost (ns, cycles or the pipe form with cube m, n, k) in a --costs table");
    /* an AIC kernel that reads one tensor is no matmul: it only moves data */
    kcost_arg copy[] = {IN2(DT_FLOAT32, 1024, 256, 1048576), OUT2(DT_FLOAT32, 1024, 256, 1048576)};
    ck_assert_int_eq(kcost_derive(true, copy, 2, 1, 1, &k, note, sizeof(note)), KCOST_DERIVED);
    ck_assert_uint_eq(k.work.mnk[0], 0);
    ck_assert_uint_eq(k.tiles, 4); /* 2 x 1 MiB / 4 = 512 KiB fits the L1 */
    ck_assert_uint_eq(k.work.bytes[PIPE_FIXPIPE], 262144);
    ck_assert_msg(strstr(note, "no matmul (it reads 1 operand)"), "%s", note);
    /* nothing at all to go by */
    ck_assert_int_eq(kcost_derive(false, NULL, 0, 1, 1, &k, note, sizeof(note)), KCOST_UNKNOWN);
    ck_assert_str_eq(note, "no tensor argument with a shape to count vector work over: give its cost");
    ck_assert_int_eq(kcost_derive(true, NULL, 0, 1, 1, &k, note, sizeof(note)), KCOST_UNKNOWN);
    ck_assert_str_eq(note, "no tensor arguments to derive its work from: give its cost (ns or cycles)");
}
END_TEST

/*
 * A cost the graph loader would refuse is never derived. Attention whose Q
 * has 2097152 rows of 128 BF16 (a prefill read whole, one tile of scores:
 * attention's m x n is not cut into output tiles), K and V [4096, 128]
 * BF16: m 2097152 n 4096 k 2 x 128. Inputs 536870912 + 2 x 1048576 =
 * 538968064 B; k is cut to fit the L1 (2 buffers x 538968064 / split <=
 * 524288: split 4096, k 1). m 2097152 is past a tile's 1048576 (graph_reader.c):
 * twice the tiles, 8192, m 1048576 each, and every byte figure per tile
 * halved: MTE2 538968064 / 4096 / 2 = 65792 B. Every tile states "scalar": 0.
 */
START_TEST(a_multiply_past_a_tiles_limit_takes_more_tiles)
{
    kcost_arg qk[] = {IN2(DT_BFLOAT16, 2097152, 128, 536870912ull), IN2(DT_BFLOAT16, 4096, 128, 1048576),
                      IN2(DT_BFLOAT16, 4096, 128, 1048576)};
    pipe_kernel k;
    char note[KCOST_NOTE_MAX];
    ck_assert_int_eq(kcost_derive(true, qk, 3, 1, 1, &k, note, sizeof(note)), KCOST_DERIVED);
    ck_assert_uint_eq(k.tiles, 8192);
    ck_assert_uint_eq(k.work.mnk[0], 1048576);
    ck_assert_uint_eq(k.work.mnk[1], 4096);
    ck_assert_uint_eq(k.work.mnk[2], 1);
    ck_assert_uint_eq(k.work.bytes[PIPE_MTE2], 65792);
    ck_assert(k.scalar_given);
    ck_assert_uint_eq(k.work.cycles[PIPE_SCALAR], 0);
    ck_assert_msg(strstr(note, "; m 2097152 is past a tile's 1048576, so 2 times the tiles"), "%s", note);
}
END_TEST

/*
 * An SPMD task has one set of args for all its blocks: the whole tensors.
 * GEMM 1536^3 FLOAT16 on 24 blocks (pto-isa's silicon figure, 38.8 us): the
 * output split 4 x 6 reads least per block (A 4718592 / 4 + B 4718592 / 6 =
 * 1966080 B; 6 x 4 reads the same, 3 x 8 reads 2162688), so one block is m
 * 1536 / 4 = 384, n 1536 / 6 = 256, k 1536, its output 4718592 / 24 =
 * 196608 B. Output tiles of 128 x 256: 3 x 1, B's panel (786432 B) read
 * twice more from the L2: 1572864 B. Two buffers of a tile's (1966080 +
 * 1572864) / 3 / split fit the 524288 B L1 from split 8 (4 would need
 * 589824): 24 tiles of m 128 n 256 k 192, MTE2 81920 B and 65536 B re-read,
 * MTE1 147456 B, FIXPIPE 8192 B each.
 * An AIV task of 5 blocks reading [16, 5120] BF16 and [2, 5120] FLOAT32
 * into [16, 5120] BF16 (qwen3's x_gamma0): 163840 + 40960 = 204800 B in,
 * 163840 out; a block 40960 in, 32768 out, a fifth of the 81920 elements of
 * the largest operand, 16384; 2 x (40960 + 32768) B fit the UB: one tile.
 */
START_TEST(an_spmd_task_is_priced_one_block_at_a_time)
{
    kcost_arg gemm[] = {IN2(DT_FLOAT16, 1536, 1536, 4718592), IN2(DT_FLOAT16, 1536, 1536, 4718592),
                        OUT2(DT_FLOAT16, 1536, 1536, 4718592)};
    pipe_kernel k;
    char note[KCOST_NOTE_MAX];
    ck_assert_int_eq(kcost_derive(true, gemm, 3, 24, 1, &k, note, sizeof(note)), KCOST_DERIVED);
    ck_assert_uint_eq(k.work.mnk[0], 128);
    ck_assert_uint_eq(k.work.mnk[1], 256);
    ck_assert_uint_eq(k.tiles, 24);
    ck_assert_uint_eq(k.work.mnk[2], 192);
    ck_assert_uint_eq(k.work.bytes[PIPE_MTE2], 81920);
    ck_assert_uint_eq(k.work.mte2_reread, 65536);
    ck_assert_uint_eq(k.work.bytes[PIPE_MTE1], 147456);
    ck_assert_uint_eq(k.work.bytes[PIPE_FIXPIPE], 8192);
    ck_assert_msg(strstr(note,
                         "; one of its 24 blocks: the args are the whole tensors, the output split 4 x 6 "
                         "among them (m x n)"),
                  "%s", note);
    kcost_arg xg[] = {IN2(DT_BFLOAT16, 16, 5120, 163840), IN2(DT_FLOAT32, 2, 5120, 40960),
                      OUT2(DT_BFLOAT16, 16, 5120, 163840)};
    ck_assert_int_eq(kcost_derive(false, xg, 3, 5, 1, &k, note, sizeof(note)), KCOST_DERIVED);
    ck_assert_uint_eq(k.tiles, 1);
    ck_assert_uint_eq(k.work.bytes[PIPE_MTE2], 40960);
    ck_assert_uint_eq(k.work.bytes[PIPE_MTE3], 32768);
    ck_assert_uint_eq(k.work.vec_elems, 16384);
    ck_assert_msg(strstr(note,
                         "; one of its 5 blocks: the args are the whole tensors, so each block takes its "
                         "share of every figure"),
                  "%s", note);
}
END_TEST

/*
 * Paged attention through a block table (paged_attention_unroll Case1: the
 * whole BF16 key cache [2097152, 128] and the INT32 table [256, 256] are
 * args of every QK and PV task) is priced by the rows it gathers.
 * QK: Q [16, 128] BF16 (4096 B), its output S [16, 8192] FLOAT32 (524288 B):
 * 8192 rows of the cache, 8192 x 128 x 2 = 2097152 B, and at most one table
 * entry a row, 8192 x 4 = 32768 B of the table's 262144. A.B^T of the
 * gathered [8192, 128] by Q [16, 128]: m 8192 n 16 k 128. In 2097152 + 4096
 * + 32768 = 2134016 B; 64 output tiles of 128 rows, each reading Q again
 * (63 x 4096 = 258048 B from the L2); two buffers of a tile's 37376 B fit
 * the L1: 64 tiles of m 128 n 16 k 128, MTE2 2134016 / 64 = 33344 B and
 * 4032 re-read, MTE1 (2097152 + 4096 + 258048) / 64 = 36864 B, FIXPIPE
 * 524288 / 64 = 8192 B.
 * PV: P [16, 8192] BF16 (262144 B) into O [16, 128] FLOAT32 (8192 B): P's
 * 8192 columns are the rows gathered; no dimension pair of the gathered
 * [8192, 128] and P meets, and the output [16, 128] says m 16 (P's rows), n
 * 128, k 8192. In 262144 + 2097152 + 32768 = 2392064 B: 16 tiles (8 would
 * need 598016 B), k 512, MTE2 149504 B, MTE1 147456 B, FIXPIPE 512 B.
 */
START_TEST(a_gathering_kernel_is_priced_by_the_rows_its_table_names)
{
    kcost_arg qk[] = {IN2(DT_BFLOAT16, 16, 128, 4096), IN2(DT_BFLOAT16, 2097152, 128, 536870912ull),
                      IN2(DT_INT32, 256, 256, 262144), OUT2(DT_FLOAT32, 16, 8192, 524288)};
    pipe_kernel k;
    char note[KCOST_NOTE_MAX];
    ck_assert_int_eq(kcost_derive(true, qk, 4, 1, 1, &k, note, sizeof(note)), KCOST_DERIVED);
    ck_assert_uint_eq(k.tiles, 64);
    ck_assert_uint_eq(k.work.mnk[0], 128);
    ck_assert_uint_eq(k.work.mnk[1], 16);
    ck_assert_uint_eq(k.work.mnk[2], 128);
    ck_assert_uint_eq(k.work.bytes[PIPE_MTE2], 33344);
    ck_assert_uint_eq(k.work.mte2_reread, 4032);
    ck_assert_uint_eq(k.work.bytes[PIPE_MTE1], 36864);
    ck_assert_uint_eq(k.work.bytes[PIPE_FIXPIPE], 8192);
    ck_assert_msg(strstr(note,
                         "; it gathers 8192 rows of arg 1 [2097152 x 128] through the block table arg 2 "
                         "(the output's 8192 columns), not the whole cache"),
                  "%s", note);
    kcost_arg pv[] = {IN2(DT_BFLOAT16, 16, 8192, 262144), IN2(DT_BFLOAT16, 2097152, 128, 536870912ull),
                      IN2(DT_INT32, 256, 256, 262144), OUT2(DT_FLOAT32, 16, 128, 8192)};
    ck_assert_int_eq(kcost_derive(true, pv, 4, 1, 1, &k, note, sizeof(note)), KCOST_DERIVED);
    ck_assert_uint_eq(k.tiles, 16);
    ck_assert_uint_eq(k.work.mnk[0], 16);
    ck_assert_uint_eq(k.work.mnk[1], 128);
    ck_assert_uint_eq(k.work.mnk[2], 512);
    ck_assert_uint_eq(k.work.bytes[PIPE_MTE2], 149504);
    ck_assert_uint_eq(k.work.bytes[PIPE_MTE1], 147456);
    ck_assert_uint_eq(k.work.bytes[PIPE_FIXPIPE], 512);
    ck_assert_msg(strstr(note,
                         "; it gathers 8192 rows of arg 1 [2097152 x 128] through the block table arg 2 "
                         "(arg 0's last dimension), not the whole cache"),
                  "%s", note);
}
END_TEST

/*
 * Attention is Q.K^T then P.V, not a product of the two largest inputs.
 * FA-like, no table: Q [128, 64], K and V [1024, 64] FLOAT16 into O [128,
 * 64]: m 128 (Q's rows), n 1024 (K's), d 64 twice: k 128. In 16384 + 2 x
 * 131072 = 278528 B; two buffers need 557056 B > 524288, so 2 tiles of k 64:
 * MTE2 and MTE1 139264 B, FIXPIPE 16384 / 2 = 8192 B.
 * Fused decode attention through a table (qwen3's paged_attention_rope_cce,
 * small): INOUT K and V caches [4096, 64] BF16, an INT32 table [8], Q [2,
 * 256] BF16 (2 tokens of 4 heads of 64; a [1, 64] pair of rope tables is no
 * Q: it has a twin), O [2, 256] BF16. A 2-D cache does not say a block's
 * rows: 128 assumed, so 8 x 128 = 1024 rows, Q's first dimension 2 dividing
 * the 8 entries: each token its own 512, the caches' views [2, 512, 64]
 * (131072 B each, no longer outputs). Per token: m 256 x 2 / (2 x 64) = 4
 * rows of Q, n 512, k 128. In 1024 + 2 x 131072 + 32 (the table, 8 entries)
 * + 2 x 256 (the rope pair) = 263712 B; two tiles (the batch) of 131856 B fit
 * the L1 twice: MTE2 131856 B, MTE1 (1024 + 262144) / 2 = 131584 B, FIXPIPE
 * 1024 / 2 = 512 B.
 */
START_TEST(attention_is_q_k_then_p_v)
{
    kcost_arg fa[] = {IN2(DT_FLOAT16, 128, 64, 16384), IN2(DT_FLOAT16, 1024, 64, 131072),
                      IN2(DT_FLOAT16, 1024, 64, 131072), OUT2(DT_FLOAT16, 128, 64, 16384)};
    pipe_kernel k;
    char note[KCOST_NOTE_MAX];
    ck_assert_int_eq(kcost_derive(true, fa, 4, 1, 1, &k, note, sizeof(note)), KCOST_DERIVED);
    ck_assert_uint_eq(k.tiles, 2);
    ck_assert_uint_eq(k.work.mnk[0], 128);
    ck_assert_uint_eq(k.work.mnk[1], 1024);
    ck_assert_uint_eq(k.work.mnk[2], 64);
    ck_assert_uint_eq(k.work.bytes[PIPE_MTE2], 139264);
    ck_assert_uint_eq(k.work.bytes[PIPE_FIXPIPE], 8192);
    ck_assert_msg(strstr(note,
                         "; attention: S = Q.K^T then O = P.V (Q arg 0, K and V args 1 and 2), m x n x d "
                         "twice"),
                  "%s", note);
    kcost_arg fused[] = {
        {.in = true, .out = true, .dtype = DT_BFLOAT16, .ndim = 2, .shape = {4096, 64}, .bytes = 524288},
        {.in = true, .out = true, .dtype = DT_BFLOAT16, .ndim = 2, .shape = {4096, 64}, .bytes = 524288},
        IN1(DT_INT32, 8, 32),
        IN2(DT_BFLOAT16, 2, 256, 1024),
        IN2(DT_FLOAT32, 1, 64, 256),
        IN2(DT_FLOAT32, 1, 64, 256),
        OUT2(DT_BFLOAT16, 2, 256, 1024)};
    ck_assert_int_eq(kcost_derive(true, fused, 7, 1, 1, &k, note, sizeof(note)), KCOST_ASSUMED);
    ck_assert_uint_eq(k.tiles, 2);
    ck_assert_uint_eq(k.work.mnk[0], 4);
    ck_assert_uint_eq(k.work.mnk[1], 512);
    ck_assert_uint_eq(k.work.mnk[2], 128);
    ck_assert_uint_eq(k.work.bytes[PIPE_MTE2], 131856);
    ck_assert_uint_eq(k.work.bytes[PIPE_MTE1], 131584);
    ck_assert_uint_eq(k.work.bytes[PIPE_FIXPIPE], 512);
    ck_assert_msg(strstr(note, "attention: S = Q.K^T then O = P.V (Q arg 3, K and V args 0 and 1)"), "%s",
                  note);
    ck_assert_msg(strstr(note, "; it gathers 1024 rows of arg 0 [4096 x 64] and as many of its V through the "
                               "block table arg 2 (the table's 8 entries x 128 rows a block (assumed: a 2-D "
                               "cache does not say), each row of Q's first dimension its own), not the whole "
                               "cache"),
                  "%s", note);
}
END_TEST

/*
 * qwen3_noop2L's down_proj: 85 tasks per layer with the same args, each
 * accumulating into the same [16, 5120] FLOAT32 output (INOUT): split-K
 * chunks told apart by scalars a capture does not hold. A [16, 17408] BF16
 * (557056 B) by the weight [34816, 5120] BF16 (356515840 B); no dimension
 * pair meets, and the output says m 16 (A's rows), n 5120, k 17408. The
 * weight view is twice the k rows the product meets: 17408 x 5120 x 2 =
 * 178257920 B of it are read. One chunk of 85: k ceil(17408 / 85) = 205,
 * A ceil(557056 / 85) = 6554 B, the weight 178257920 / 85 = 2097152 B, and
 * the INOUT output read and written whole, 327680 B. In 327680 + 6554 +
 * 2097152 = 2431386 B; n 5120 is 20 output tiles of 256, each re-reading A
 * (19 x 6554 = 124526 B from the L2); two buffers of a tile's 2555912 / 20
 * B fit the L1: 20 tiles of m 16 n 256 k 205, MTE2 ceil(2431386 / 20) =
 * 121570 B and ceil(124526 / 20) = 6227 re-read, MTE1 ceil((6554 + 2097152
 * + 124526) / 20) = 111412 B, FIXPIPE 327680 / 20 = 16384 B.
 */
START_TEST(identical_tasks_into_one_output_each_take_a_share)
{
    kcost_arg down[] = {
        IN2(DT_BFLOAT16, 16, 17408, 557056),
        IN2(DT_BFLOAT16, 34816, 5120, 356515840ull),
        {.in = true, .out = true, .dtype = DT_FLOAT32, .ndim = 2, .shape = {16, 5120}, .bytes = 327680}};
    pipe_kernel k;
    char note[KCOST_NOTE_MAX];
    ck_assert_int_eq(kcost_derive(true, down, 3, 1, 85, &k, note, sizeof(note)), KCOST_DERIVED);
    ck_assert_uint_eq(k.tiles, 20);
    ck_assert_uint_eq(k.work.mnk[0], 16);
    ck_assert_uint_eq(k.work.mnk[1], 256);
    ck_assert_uint_eq(k.work.mnk[2], 205);
    ck_assert_uint_eq(k.work.bytes[PIPE_MTE2], 121570);
    ck_assert_uint_eq(k.work.mte2_reread, 6227);
    ck_assert_uint_eq(k.work.bytes[PIPE_MTE1], 111412);
    ck_assert_uint_eq(k.work.bytes[PIPE_FIXPIPE], 16384);
    ck_assert_msg(strstr(note, "MTE2 reads the inputs (2431386 B)"), "%s", note);
    ck_assert_msg(strstr(note,
                         "; one of 85 tasks with the same args writing the same output: each taken as a "
                         "85-th of k (the scalars that tell them apart are not in a capture)"),
                  "%s", note);
}
END_TEST

/*
 * The shape model against pto-isa's own Perf-Sim test cases (shared/spec/perfsim.md, pto-isa 995589ab
 * tests/costmodel/perf_sim_st): the args a capture would record of each, the model's time (the slowest
 * core type of the task: FA is an AIC and an AIV kernel side by side) and its busiest pipe. GEMM, conv as
 * implicit GEMM ([m, k] . [k, n]) and FA must be within 30 % of Perf-Sim; the busiest pipe must match on
 * at least 12 of the 14. TopK is a sort, whose passes no shape tells: only its pipe is held. The 24-core
 * GEMMs (one block of 4 x 6, whole-tensor args) are held to silicon by the import suite instead: Perf-Sim's
 * figures for them (47.2 and 370.1 us a block) are 1.2x and 1.8x silicon's whole runs (38.8, 206.7 us).
 */
#define A2(io, dt, r, c)                                                                                     \
    {                                                                                                        \
        .in = (io) == 'i', .out = (io) == 'o', .dtype = dt, .ndim = 2, .shape = {r, c},                      \
        .bytes = (uint64_t)(r) * (c) * ((dt) == DT_FLOAT32 || (dt) == DT_INT32 ? 4u : 2u)                    \
    }
typedef struct {
    const char *name;
    bool aic, aiv;
    int nargs, blocks;
    kcost_arg args[4];
    double perfsim_ns; /* Perf-Sim's time */
    pipe_id busiest;   /* Perf-Sim's busiest pipe */
    bool within;       /* held to +-30 % */
} perfsim_case;

static const perfsim_case PERFSIM_CASES[] = {
    {"GEMM 128x64x256",
     true,
     false,
     3,
     1,
     {A2('i', DT_FLOAT16, 128, 64), A2('i', DT_FLOAT16, 64, 256), A2('o', DT_FLOAT32, 128, 256)},
     1635,
     PIPE_FIXPIPE,
     true},
    {"GEMM 1536x256x1024",
     true,
     false,
     3,
     1,
     {A2('i', DT_FLOAT16, 1536, 256), A2('i', DT_FLOAT16, 256, 1024), A2('o', DT_FLOAT32, 1536, 1024)},
     75362,
     PIPE_MTE2,
     true},
    {"GEMM 256x4096x256",
     true,
     false,
     3,
     1,
     {A2('i', DT_FLOAT16, 256, 4096), A2('i', DT_FLOAT16, 4096, 256), A2('o', DT_FLOAT32, 256, 256)},
     47196,
     PIPE_MTE2,
     true},
    {"conv2d small",
     true,
     false,
     3,
     1,
     {A2('i', DT_FLOAT16, 128, 144), A2('i', DT_FLOAT16, 144, 256), A2('o', DT_FLOAT16, 128, 256)},
     2149,
     PIPE_FIXPIPE,
     true},
    {"conv2d medium",
     true,
     false,
     3,
     1,
     {A2('i', DT_FLOAT16, 256, 288), A2('i', DT_FLOAT16, 288, 256), A2('o', DT_FLOAT16, 256, 256)},
     4500,
     PIPE_CUBE,
     true},
    {"conv2d large",
     true,
     false,
     3,
     1,
     {A2('i', DT_FLOAT16, 1024, 576), A2('i', DT_FLOAT16, 576, 256), A2('o', DT_FLOAT16, 1024, 256)},
     25886,
     PIPE_CUBE,
     true},
    {"TopK 128x1024 k128",
     false,
     true,
     3,
     1,
     {A2('i', DT_FLOAT32, 128, 1024), A2('o', DT_FLOAT32, 128, 128), A2('o', DT_INT32, 128, 128)},
     102898,
     PIPE_VECTOR,
     false},
    {"TopK 256x2048 k64",
     false,
     true,
     3,
     1,
     {A2('i', DT_FLOAT32, 256, 2048), A2('o', DT_FLOAT32, 256, 64), A2('o', DT_INT32, 256, 64)},
     405805,
     PIPE_VECTOR,
     false},
    {"TopK 128x512 k32",
     false,
     true,
     3,
     1,
     {A2('i', DT_FLOAT32, 128, 512), A2('o', DT_FLOAT32, 128, 32), A2('o', DT_INT32, 128, 32)},
     51896,
     PIPE_VECTOR,
     false},
    {"FA 128x128x1024",
     true,
     true,
     4,
     1,
     {A2('i', DT_FLOAT16, 128, 128), A2('i', DT_FLOAT16, 1024, 128), A2('i', DT_FLOAT16, 1024, 128),
      A2('o', DT_FLOAT32, 128, 128)},
     21083,
     PIPE_VECTOR,
     true},
    {"FA 64x64x512",
     true,
     true,
     4,
     1,
     {A2('i', DT_FLOAT16, 64, 64), A2('i', DT_FLOAT16, 512, 64), A2('i', DT_FLOAT16, 512, 64),
      A2('o', DT_FLOAT32, 64, 64)},
     5550,
     PIPE_VECTOR,
     true},
    {"FA LongSeq 256x64x2048, 2 blocks",
     true,
     true,
     4,
     2,
     {A2('i', DT_FLOAT16, 256, 64), A2('i', DT_FLOAT16, 2048, 64), A2('i', DT_FLOAT16, 2048, 64),
      A2('o', DT_FLOAT32, 256, 64)},
     27716,
     PIPE_VECTOR,
     true},
    {"GEMM 1536^3, 24 blocks",
     true,
     false,
     3,
     24,
     {A2('i', DT_FLOAT16, 1536, 1536), A2('i', DT_FLOAT16, 1536, 1536), A2('o', DT_FLOAT16, 1536, 1536)},
     47204,
     PIPE_MTE2,
     false},
    {"GEMM 3072^3, 24 blocks",
     true,
     false,
     3,
     24,
     {A2('i', DT_FLOAT16, 3072, 3072), A2('i', DT_FLOAT16, 3072, 3072), A2('o', DT_FLOAT16, 3072, 3072)},
     370136,
     PIPE_MTE2,
     false},
};

START_TEST(the_shape_model_holds_to_perf_sims_cases)
{
    platform p;
    platform_defaults(&p);
    pipe_rates r;
    platform_pipe_rates(&p, &r);
    int n = (int)(sizeof(PERFSIM_CASES) / sizeof(PERFSIM_CASES[0])), same = 0;
    ck_assert_int_eq(n, 14);
    char misses[1024] = "";
    for (int i = 0; i < n; i++) {
        const perfsim_case *c = &PERFSIM_CASES[i];
        uint64_t cycles = 0, busy = 0;
        pipe_id busiest = PIPE_SCALAR;
        for (int part = 0; part < 2; part++) {
            if (!(part ? c->aiv : c->aic))
                continue;
            pipe_kernel k;
            char note[KCOST_NOTE_MAX];
            ck_assert_int_ne(kcost_derive(part == 0, c->args, c->nargs, c->blocks, 1, &k, note, sizeof(note)),
                             KCOST_UNKNOWN);
            pipe_result res;
            pipe_run(&k, &r, &res);
            if (res.total_cycles > cycles)
                cycles = res.total_cycles;
            for (int q = 0; q < PIPE_COUNT; q++)
                if (res.busy_cycles[q] > busy) {
                    busy = res.busy_cycles[q];
                    busiest = (pipe_id)q;
                }
        }
        double ns = (double)cycles * 1e9 / (double)r.clock_hz, ratio = ns / c->perfsim_ns;
        if (c->within)
            ck_assert_msg(ratio >= 0.7 && ratio <= 1.3, "%s: %.0f ns against Perf-Sim's %.0f (%.2fx)",
                          c->name, ns, c->perfsim_ns, ratio);
        if (busiest == c->busiest)
            same++;
        else
            snprintf(misses + strlen(misses), sizeof(misses) - strlen(misses), " %s: %s, Perf-Sim %s;",
                     c->name, pipe_name(busiest), pipe_name(c->busiest));
        if (c->busiest == PIPE_VECTOR)
            ck_assert_msg(busiest == PIPE_VECTOR, "%s: busiest %s", c->name, pipe_name(busiest));
    }
    ck_assert_msg(same >= 12, "the busiest pipe matches on %d of 14:%s", same, misses);
}
END_TEST

Suite *suite_kcost(void)
{
    Suite *s = suite_create("kcost");
    TCase *tc = tcase_create("derived costs");
    tcase_add_test(tc, paged_attention_matmuls_by_hand);
    tcase_add_test(tc, paged_attention_vector_kernels_by_hand);
    tcase_add_test(tc, bgemm_kernels_by_hand);
    tcase_add_test(tc, matmul_shapes_come_from_the_operands_and_the_output);
    tcase_add_test(tc, what_the_model_cannot_infer_is_named);
    tcase_add_test(tc, a_multiply_past_a_tiles_limit_takes_more_tiles);
    tcase_add_test(tc, an_spmd_task_is_priced_one_block_at_a_time);
    tcase_add_test(tc, a_gathering_kernel_is_priced_by_the_rows_its_table_names);
    tcase_add_test(tc, attention_is_q_k_then_p_v);
    tcase_add_test(tc, the_shape_model_holds_to_perf_sims_cases);
    tcase_add_test(tc, identical_tasks_into_one_output_each_take_a_share);
    suite_add_tcase(s, tc);
    return s;
}
