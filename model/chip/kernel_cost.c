/* kernel_cost.c - kcost_: a kernel's pipe-form cost from its args: tile sizing, matmul shapes. */
#include "kernel_cost.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../base/dtype.h"

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
    return (a + b - 1) / b;
}

static uint64_t elems_of(const kcost_arg *a)
{
    uint64_t n = 1;
    for (int d = 0; d < a->ndim; d++)
        n *= (uint64_t)a->shape[d];
    return a->ndim ? n : 0;
}

/* "[16, 16]" into out. */
static const char *dims(const kcost_arg *a, char *out, size_t len)
{
    size_t n = (size_t)snprintf(out, len, "[");
    for (int d = 0; d < a->ndim && n < len; d++)
        n += (size_t)snprintf(out + n, len - n, "%s%" PRId64, d ? ", " : "", a->shape[d]);
    if (n < len)
        snprintf(out + n, len - n, "]");
    return out;
}

/* "one tile", or "16 tiles, so that 2 fit the UB at once". */
static const char *tiling(uint64_t tiles, const char *mem, char *out, size_t len)
{
    if (tiles == 1)
        snprintf(out, len, "one tile");
    else
        snprintf(out, len, "%" PRIu64 " tiles, so that %d fit the %s at once", tiles, KCOST_BUFFERS, mem);
    return out;
}

static void sum_bytes(const kcost_arg *args, int nargs, uint64_t *in, uint64_t *out)
{
    *in = *out = 0;
    for (int i = 0; i < nargs; i++) {
        if (args[i].in)
            *in += args[i].bytes;
        if (args[i].out)
            *out += args[i].bytes;
    }
}

/* "; one of its 8 blocks, an eighth of ..." for a task of block_num blocks whose args are the whole tensors.
 */
static void blocks_note(int block_num, const char *what, char *out, size_t len)
{
    if (block_num > 1)
        snprintf(out, len, "; one of its %d blocks: the args are the whole tensors, %s", block_num, what);
    else
        out[0] = '\0';
}

/* "; one of 85 tasks with the same args ..." for a task repeated with args identical to the letter. */
static void repeat_note(int repeat, const char *what, char *out, size_t len)
{
    if (repeat > 1)
        snprintf(
            out, len,
            "; one of %d tasks with the same args writing the same output: each taken as a %d-th %s (the "
            "scalars that tell them apart are not in a capture)",
            repeat, repeat, what);
    else
        out[0] = '\0';
}

/* m, n, k and the batch of a matmul of views a and b (c: the output, ndim 0 if unknown). */
static bool matmul_shape(const kcost_arg *a, const kcost_arg *b, const kcost_arg *c, uint64_t mnk[3],
                         uint64_t *batch, bool *b_has_m)
{
    *b_has_m = false;
    if (a->ndim < 2 || b->ndim < 2)
        return false;
    uint64_t ba = 1, bb = 1;
    for (int d = 0; d < a->ndim - 2; d++)
        ba *= (uint64_t)a->shape[d];
    for (int d = 0; d < b->ndim - 2; d++)
        bb *= (uint64_t)b->shape[d];
    if (ba != bb && ba != 1 && bb != 1)
        return false;
    *batch = ba > bb ? ba : bb;
    uint64_t a0 = (uint64_t)a->shape[a->ndim - 2], a1 = (uint64_t)a->shape[a->ndim - 1];
    uint64_t b0 = (uint64_t)b->shape[b->ndim - 2], b1 = (uint64_t)b->shape[b->ndim - 1];
    /* A.B, A.B^T, A^T.B: the first whose k matches; an output [m, n] breaks ties */
    const uint64_t cand[3][4] = {{a1 == b0, a0, b1, a1}, {a1 == b1, a0, b0, a1}, {a0 == b0, a1, b1, a0}};
    int pick = -1;
    for (int i = 0; i < 3; i++) {
        if (!cand[i][0])
            continue;
        if (pick < 0)
            pick = i;
        if (c->ndim >= 2 && (uint64_t)c->shape[c->ndim - 2] == cand[i][1] &&
            (uint64_t)c->shape[c->ndim - 1] == cand[i][2]) {
            pick = i;
            break;
        }
    }
    if (pick < 0 && c->ndim >= 2) {
        /* no pair of dimensions matches (a weight view wider than the product): the output is [m, n]
         * and the operand with m rows gives k */
        uint64_t c0 = (uint64_t)c->shape[c->ndim - 2], c1 = (uint64_t)c->shape[c->ndim - 1];
        if (c0 == a0 || c0 == b0) {
            mnk[0] = c0;
            mnk[1] = c1;
            mnk[2] = c0 == a0 ? a1 : b1;
            *b_has_m = c0 != a0;
            return true;
        }
    }
    if (pick < 0)
        return false;
    mnk[0] = cand[pick][1];
    mnk[1] = cand[pick][2];
    mnk[2] = cand[pick][3];
    return true;
}

/* An AIC kernel that is no matmul (fewer than two operands only read): it
 * moves its inputs in through MTE2 and its outputs out through FIXPIPE. */
static kcost_status derive_aic_moves(const kcost_arg *args, int nargs, int operands, int block_num,
                                     int repeat, pipe_kernel *k, char *note, size_t len)
{
    uint64_t in, out;
    sum_bytes(args, nargs, &in, &out);
    in = ceil_div(in, (uint64_t)block_num * (uint64_t)repeat);
    out = ceil_div(out, (uint64_t)block_num * (uint64_t)repeat);
    if (!in && !out) {
        snprintf(note, len, "no tensor arguments to derive its work from: give its cost (ns or cycles)");
        return KCOST_UNKNOWN;
    }
    uint64_t tiles = 1;
    while (KCOST_BUFFERS * ceil_div(in, tiles) > PIPE_L1_BYTES && tiles <= GRAPH_MAX_TILES)
        tiles *= 2;
    if (tiles > GRAPH_MAX_TILES) {
        snprintf(note, len, "%" PRIu64 " B in need more than %d tiles: give its cost", in, GRAPH_MAX_TILES);
        return KCOST_UNKNOWN;
    }
    k->aic = true;
    k->tiles = (uint32_t)tiles;
    k->buffers = KCOST_BUFFERS;
    k->work.bytes[PIPE_MTE2] = ceil_div(in, tiles);
    k->work.bytes[PIPE_FIXPIPE] = ceil_div(out, tiles);
    k->work.gib_per_s[PIPE_MTE2] = KCOST_GIB_GM_TO_L1;
    k->work.gib_per_s[PIPE_FIXPIPE] = KCOST_GIB_L0C_TO_GM;
    char t[64], bl[160], rp[200];
    blocks_note(block_num, "so each block takes its share of every figure", bl, sizeof(bl));
    repeat_note(repeat, "of every figure", rp, sizeof(rp));
    snprintf(note, len,
             "AIC from its args, no matmul (it reads %d operand%s): MTE2 reads the inputs (%" PRIu64
             " B), FIXPIPE writes the outputs (%" PRIu64 " B), no cube work; %s%s%s",
             operands, operands == 1 ? "" : "s", in, out, tiling(tiles, "L1", t, sizeof(t)), bl, rp);
    return KCOST_DERIVED;
}

static bool is_float(int dt)
{
    return dt == DT_FLOAT32 || dt == DT_FLOAT16 || dt == DT_BFLOAT16 || dt == DT_FP8E4M3FN;
}

/* An index type: a block table's entries. */
static bool is_index(int dt)
{
    return dt == DT_INT32 || dt == DT_INT64 || dt == DT_UINT32 || dt == DT_UINT64;
}

static bool same_shape(const kcost_arg *x, const kcost_arg *y)
{
    if (x->ndim != y->ndim || x->dtype != y->dtype)
        return false;
    for (int d = 0; d < x->ndim; d++)
        if (x->shape[d] != y->shape[d])
            return false;
    return true;
}

/* An operand the kernel only reads, with a float type and rows (ndim >= 2). */
static bool float_operand(const kcost_arg *x)
{
    return x->in && !x->out && x->ndim >= 2 && is_float(x->dtype);
}

/* Q for keys k (and values v, -1 if none): the operand whose last dimension
 * is a multiple of k's (heads folded in: [16, 5120] is 40 rows of 128 per
 * token) and that has no twin of its shape among the others, of k's type
 * first, then the largest; -1 if none. */
static int pick_q(const kcost_arg *args, int nargs, int k, int v)
{
    int64_t d = args[k].shape[args[k].ndim - 1];
    int q = -1;
    for (int i = 0; i < nargs; i++) {
        const kcost_arg *x = &args[i];
        if (i == k || i == v || !float_operand(x) || x->shape[x->ndim - 1] % d)
            continue;
        bool twin = false; /* operands in pairs (K and V, a rope's cos and sin) are not Q */
        for (int j = 0; j < nargs && !twin; j++)
            twin = j != i && j != k && j != v && float_operand(&args[j]) && same_shape(x, &args[j]);
        if (twin)
            continue;
        bool typed = x->dtype == args[k].dtype, qtyped = q >= 0 && args[q].dtype == args[k].dtype;
        if (q < 0 || (typed && !qtyped) || (typed == qtyped && x->bytes > args[q].bytes))
            q = i;
    }
    return q;
}

/* Attention's operands: K and V of one shape (the pair with the most bytes)
 * and a Q of the same last dimension (the largest other). Returns Q's index
 * with kv[0], kv[1] set, or -1 when the args are not Q, K, V. */
static int attention(const kcost_arg *args, int nargs, int kv[2])
{
    kv[0] = kv[1] = -1;
    for (int i = 0; i < nargs; i++)
        for (int j = i + 1; j < nargs && float_operand(&args[i]); j++)
            if (float_operand(&args[j]) && same_shape(&args[i], &args[j]) &&
                (kv[0] < 0 || args[i].bytes > args[kv[0]].bytes)) {
                kv[0] = i;
                kv[1] = j;
            }
    if (kv[0] < 0)
        return -1;
    return pick_q(args, nargs, kv[0], kv[1]);
}

/* The split of an m x n output among block_num blocks, bm x bn = block_num, that
 * reads least per block (a_bytes / bm of the m-side operand, b_bytes / bn of
 * the other): 4 x 6 for a 1536^3 GEMM on 24 blocks. */
static void split_blocks(uint64_t m, uint64_t n, uint64_t a_bytes, uint64_t b_bytes, uint64_t blocks,
                         uint64_t *bm, uint64_t *bn)
{
    *bm = 1;
    *bn = blocks;
    uint64_t best = UINT64_MAX;
    for (uint64_t i = 1; i <= blocks; i++) {
        if (blocks % i || i > m || blocks / i > n)
            continue;
        uint64_t cost = ceil_div(a_bytes, i) + ceil_div(b_bytes, blocks / i);
        if (cost < best) {
            best = cost;
            *bm = i;
            *bn = blocks / i;
        }
    }
}

/*
 * Vector work the shape of the args gives away, priced with pto-isa's vector formula (formula_params.csv,
 * a2a3, 995589ab): an instruction over a tile of rows costs slope x elements + bias cycles. In thousandths of
 * a cycle per FLOAT32 element:
 *  - online softmax, per score: TROWMAX 47, TSUB (the row's max taken off) 31, TMULS (the scale) 16, TEXP 31,
 *    TROWSUM 47, the cast to 16 bits taken as TMULS's 16: 188; the six instructions' biases about 310 cycles
 *    a tile of KCOST_SOFTMAX_TILE columns;
 *  - the output's rescale in attention, per element of O and tile: TMUL and TADD, 31 each, biases 85;
 *  - a sort, per element and merge pass (log2 of the row): a compare and a select, 31 each. A shape model
 *    cannot know a sort's real passes: this is a floor (README: `--costs perf-sim` prices the kernel's code).
 */
#define KCOST_SOFTMAX_MILLI 188
#define KCOST_SOFTMAX_BIAS 310
#define KCOST_SOFTMAX_TILE 256 /* KV rows a tile (pto-isa's FA kernels) */
#define KCOST_RESCALE_MILLI 62
#define KCOST_RESCALE_BIAS 85
#define KCOST_SORT_MILLI 62

/* Rows x columns of a score matrix: Q's rows per batch, however its dimensions group them, times K's rows. */
static uint64_t log2_ceil(uint64_t x)
{
    uint64_t l = 0;
    while (((uint64_t)1 << l) < x && l < 63)
        l++;
    return l;
}

/* The AIV half of attention (Q, K and V among the args): it reads the scores the AIC wrote to GM (FLOAT32),
 * runs the online softmax over them a tile of KV rows at a time, writes P (16-bit) back for P.V and rescales
 * O each tile. One block's share of the batch. */
static bool aiv_attention(const kcost_arg *args, int nargs, uint64_t nb, uint64_t *in, uint64_t *out,
                          uint64_t *vcyc, char *what, size_t len)
{
    int kv[2], q = attention(args, nargs, kv);
    if (q < 0)
        return false;
    const kcost_arg *ka = &args[kv[0]];
    uint64_t d = (uint64_t)ka->shape[ka->ndim - 1], batch = 1;
    for (int i = 0; i < ka->ndim - 2; i++)
        batch *= (uint64_t)ka->shape[i];
    uint64_t m = ceil_div(elems_of(&args[q]), batch * d), n = (uint64_t)ka->shape[ka->ndim - 2];
    uint64_t rows = ceil_div(batch * m, nb); /* the blocks share out the rows of Q */
    uint64_t tiles = ceil_div(n, KCOST_SOFTMAX_TILE), scores = rows * n;
    *in = scores * 4;
    *out = scores * 2 + *out / nb;
    *vcyc = ceil_div(scores * KCOST_SOFTMAX_MILLI + tiles * rows * d * KCOST_RESCALE_MILLI, 1000) +
            tiles * (KCOST_SOFTMAX_BIAS + KCOST_RESCALE_BIAS);
    snprintf(what, len,
             "the AIV half of attention (Q arg %d, K and V args %d and %d): an online softmax over %" PRIu64
             " x %" PRIu64 " FLOAT32 scores read from GM, P written back as 16 bits, O (d %" PRIu64
             ") rescaled in each of %" PRIu64 " tiles of %d KV rows: %" PRIu64 " vector cycles (pto-isa's "
             "formula)",
             q, kv[0], kv[1], rows, n, d, tiles, KCOST_SOFTMAX_TILE, *vcyc);
    return true;
}

/* Softmax of a score tile (paged attention's SF): a FLOAT32 input [.., m, n], the only input, and a 16-bit
 * float output with at least as many elements (P). */
static bool aiv_softmax(const kcost_arg *args, int nargs, uint64_t nb, uint64_t *vcyc, char *what, size_t len)
{
    int s = -1, p = -1, ins = 0;
    for (int i = 0; i < nargs; i++)
        if (args[i].in && args[i].ndim) {
            ins++;
            s = i;
        }
    if (ins != 1 || args[s].dtype != DT_FLOAT32 || args[s].ndim < 2)
        return false;
    for (int i = 0; i < nargs; i++)
        if (args[i].out && !args[i].in && (args[i].dtype == DT_FLOAT16 || args[i].dtype == DT_BFLOAT16) &&
            elems_of(&args[i]) >= elems_of(&args[s]) && elems_of(&args[i]) <= 2 * elems_of(&args[s]))
            p = i;
    if (p < 0)
        return false;
    uint64_t n = (uint64_t)args[s].shape[args[s].ndim - 1], scores = ceil_div(elems_of(&args[s]), nb);
    uint64_t tiles = ceil_div(n, KCOST_SOFTMAX_TILE);
    *vcyc = ceil_div(scores * KCOST_SOFTMAX_MILLI, 1000) + tiles * KCOST_SOFTMAX_BIAS;
    snprintf(what, len,
             "a softmax of arg %d's %" PRIu64 " FLOAT32 scores into arg %d: %" PRIu64
             " vector cycles (pto-isa's formula)",
             s, scores, p, *vcyc);
    return true;
}

/* Top-k of each row: a float input [.., n], a float output [.., k] of the same rows with k < n and an index
 * output of that shape. Priced as a merge sort of each row. */
static bool aiv_topk(const kcost_arg *args, int nargs, uint64_t nb, uint64_t *vcyc, char *what, size_t len)
{
    int x = -1, v = -1, ix = -1;
    for (int i = 0; i < nargs; i++)
        if (args[i].in && !args[i].out && args[i].ndim && is_float(args[i].dtype) &&
            (x < 0 || args[i].bytes > args[x].bytes))
            x = i;
    if (x < 0)
        return false;
    const kcost_arg *a = &args[x];
    uint64_t n = (uint64_t)a->shape[a->ndim - 1], rows = elems_of(a) / n;
    for (int i = 0; i < nargs; i++) {
        const kcost_arg *o = &args[i];
        if (!o->out || o->in || !o->ndim || (uint64_t)o->shape[o->ndim - 1] >= n ||
            elems_of(o) / (uint64_t)o->shape[o->ndim - 1] != rows)
            continue;
        if (is_float(o->dtype))
            v = i;
        else if (is_index(o->dtype))
            ix = i;
    }
    if (v < 0 || ix < 0)
        return false;
    uint64_t elems = ceil_div(elems_of(a), nb), passes = log2_ceil(n) ? log2_ceil(n) : 1;
    *vcyc = ceil_div(elems * passes * KCOST_SORT_MILLI, 1000);
    snprintf(what, len,
             "a top-%" PRId64 " of arg %d's rows of %" PRIu64
             " into args %d and %d, priced as a merge sort: %" PRIu64 " passes over %" PRIu64
             " elements, %" PRIu64 " vector cycles (a floor: a shape cannot say a "
             "sort's passes; --costs perf-sim prices its code)",
             args[v].shape[args[v].ndim - 1], x, n, v, ix, passes, elems, *vcyc);
    return true;
}

static kcost_status derive_aiv(const kcost_arg *args, int nargs, int block_num, int repeat, pipe_kernel *k,
                               char *note, size_t len)
{
    uint64_t in, out, nb = (uint64_t)block_num * (uint64_t)repeat;
    sum_bytes(args, nargs, &in, &out);
    int big = -1;
    for (int i = 0; i < nargs; i++)
        if (args[i].ndim && (big < 0 || elems_of(&args[i]) > elems_of(&args[big])))
            big = i;
    if (big < 0 || dtype_size(args[big].dtype) < 1) {
        snprintf(note, len, "no tensor argument with a shape to count vector work over: give its cost");
        return KCOST_UNKNOWN;
    }
    uint64_t vcyc = 0;
    char what[400] = "";
    bool attn = aiv_attention(args, nargs, nb, &in, &out, &vcyc, what, sizeof(what));
    if (!attn) {
        in = ceil_div(in, nb);
        out = ceil_div(out, nb);
        if (!aiv_softmax(args, nargs, nb, &vcyc, what, sizeof(what)))
            aiv_topk(args, nargs, nb, &vcyc, what, sizeof(what));
    }
    uint64_t elems = ceil_div(elems_of(&args[big]), nb), tiles = 1;
    while (KCOST_BUFFERS * (ceil_div(in, tiles) + ceil_div(out, tiles)) > PIPE_UB_BYTES &&
           tiles <= GRAPH_MAX_TILES)
        tiles *= 2;
    if (tiles > GRAPH_MAX_TILES) {
        snprintf(note, len, "%" PRIu64 " B in and %" PRIu64 " B out need more than %d tiles: give its cost",
                 in, out, GRAPH_MAX_TILES);
        return KCOST_UNKNOWN;
    }
    k->aic = false;
    k->tiles = (uint32_t)tiles;
    k->buffers = KCOST_BUFFERS;
    k->work.bytes[PIPE_MTE2] = ceil_div(in, tiles);
    k->work.bytes[PIPE_MTE3] = ceil_div(out, tiles);
    k->work.gib_per_s[PIPE_MTE2] = KCOST_GIB_GM_TO_UB;
    k->work.gib_per_s[PIPE_MTE3] = KCOST_GIB_UB_TO_GM;
    if (vcyc)
        k->work.cycles[PIPE_VECTOR] = ceil_div(vcyc, tiles);
    else {
        k->work.vec_elems = ceil_div(elems, tiles);
        k->work.vec_elem_bytes = (uint32_t)dtype_size(args[big].dtype);
    }
    char d[96], t[64], bl[160], rp[200], pass[300] = "";
    blocks_note(block_num, "so each block takes its share of every figure", bl, sizeof(bl));
    repeat_note(repeat, "of every figure", rp, sizeof(rp));
    if (!vcyc)
        snprintf(pass, sizeof(pass),
                 "the vector unit makes one pass over the largest operand (arg %d, %s %s: %" PRIu64
                 " elements)",
                 big, dtype_name(args[big].dtype), dims(&args[big], d, sizeof(d)), elems);
    snprintf(note, len,
             "AIV from its args: MTE2 reads %s (%" PRIu64 " B), MTE3 writes %s (%" PRIu64 " B), %s; %s%s%s",
             attn ? "the scores" : "the inputs", in, attn ? "P and the outputs" : "the outputs", out,
             vcyc ? what : pass, tiling(tiles, "UB", t, sizeof(t)), bl, rp);
    return KCOST_DERIVED;
}

static kcost_status derive_aic(const kcost_arg *args, int nargs, int block_num, int repeat, pipe_kernel *k,
                               char *note, size_t len)
{
    /* the two largest operands only read, and the largest output */
    int a = -1, b = -1, c = -1;
    for (int i = 0; i < nargs; i++) {
        const kcost_arg *x = &args[i];
        if (x->out) {
            if (c < 0 || x->bytes > args[c].bytes)
                c = i;
        } else if (x->in && x->ndim && !is_index(x->dtype)) { /* a block table or config is no operand */
            if (a < 0 || x->bytes > args[a].bytes) {
                b = a;
                a = i;
            } else if (b < 0 || x->bytes > args[b].bytes) {
                b = i;
            }
        }
    }
    if (a < 0 || b < 0)
        return derive_aic_moves(args, nargs, a < 0 ? 0 : 1, block_num, repeat, k, note, len);
    const kcost_arg none = {0}, *out = c >= 0 ? &args[c] : &none;
    uint64_t mnk[3], batch = 1;
    bool b_has_m = false;
    kcost_status st = KCOST_DERIVED;
    char da[96], db[96], tl[64], assumed[160] = "", bl[200] = "", attn[160] = "", rp[200] = "";
    int kv[2];
    int q = attention(args, nargs, kv);
    if (q >= 0) { /* S = Q.K^T then O = P.V: two multiplies of m x n x d, one m x n x 2d */
        const kcost_arg *qa = &args[q], *ka = &args[kv[0]];
        uint64_t d = (uint64_t)ka->shape[ka->ndim - 1];
        mnk[0] = (uint64_t)qa->shape[qa->ndim - 2];
        mnk[1] = (uint64_t)ka->shape[ka->ndim - 2];
        mnk[2] = 2 * d;
        batch = 1;
        for (int i = 0; i < ka->ndim - 2; i++)
            batch *= (uint64_t)ka->shape[i];
        mnk[0] = ceil_div(elems_of(qa), batch * d); /* Q's rows per batch, however its dims group them */
        snprintf(attn, sizeof(attn),
                 "; attention: S = Q.K^T then O = P.V (Q arg %d, K and V args %d and %d), m x n x d twice", q,
                 kv[0], kv[1]);
        a = q;
        b = kv[0];
    } else if (!matmul_shape(&args[a], &args[b], out, mnk, &batch, &b_has_m) &&
               !(matmul_shape(&args[b], &args[a], out, mnk, &batch, &b_has_m) &&
                 (b_has_m = !b_has_m, true))) {
        uint64_t e = elems_of(&args[a]), s = 1;
        while (s * s < e)
            s++;
        bool square = (args[a].ndim == 1 || args[b].ndim == 1) && elems_of(&args[b]) == e && s * s == e &&
                      (!out->ndim || elems_of(out) == e);
        if (!square) {
            snprintf(note, len,
                     "cannot infer m, n, k from arg %d %s and arg %d %s (no dimension pair matches): give "
                     "its cost "
                     "(ns, cycles or the pipe form with cube m, n, k) in a --costs table",
                     a, dims(&args[a], da, sizeof(da)), b, dims(&args[b], db, sizeof(db)));
            return KCOST_UNKNOWN;
        }
        mnk[0] = mnk[1] = mnk[2] = s;
        st = KCOST_ASSUMED;
        snprintf(assumed, sizeof(assumed),
                 "; its operands are 1-D, so each is taken as a square %" PRIu64 " x %" PRIu64
                 " matrix (give the real m, n, k in a --costs table)",
                 s, s);
    }
    int dt = args[a].dtype;
    char rate[96] = "";
    if (dt != DT_FLOAT16 && dt != DT_BFLOAT16 && dt != DT_INT8 && dt != DT_FLOAT32) {
        snprintf(rate, sizeof(rate), ", %s operands at the FLOAT16 rate", dtype_name(dt));
        dt = DT_FLOAT16;
    }
    uint64_t in, outb, abytes = args[b_has_m ? b : a].bytes, bbytes = args[b_has_m ? a : b].bytes;
    if (q >= 0)
        bbytes += args[kv[1]].bytes;
    sum_bytes(args, nargs, &in, &outb);
    if (q < 0) { /* an operand view wider than the product (a fused weight) is read only where it meets it */
        uint64_t ea = (uint64_t)dtype_size(args[b_has_m ? b : a].dtype),
                 eb = (uint64_t)dtype_size(args[b_has_m ? a : b].dtype);
        uint64_t rest0 = in - abytes - bbytes;
        if (ea && abytes > batch * mnk[0] * mnk[2] * ea)
            abytes = batch * mnk[0] * mnk[2] * ea;
        if (eb && bbytes > batch * mnk[2] * mnk[1] * eb)
            bbytes = batch * mnk[2] * mnk[1] * eb;
        in = rest0 + abytes + bbytes;
    }
    if (repeat > 1) { /* one of repeat identical tasks accumulating into one output: a repeat-th of k (of n
                         for attention) */
        mnk[q >= 0 ? 1 : 2] = ceil_div(mnk[q >= 0 ? 1 : 2], (uint64_t)repeat);
        uint64_t rest0 = in - abytes - bbytes;
        abytes = q >= 0 ? abytes : ceil_div(abytes, (uint64_t)repeat);
        bbytes = ceil_div(bbytes, (uint64_t)repeat);
        in = rest0 + abytes + bbytes;
        repeat_note(repeat, q >= 0 ? "of K's rows" : "of k", rp, sizeof(rp));
    }
    uint64_t rest = in - abytes - bbytes, nb = (uint64_t)block_num;
    if (nb > 1 && batch >= nb) { /* the blocks share out the batch */
        batch = ceil_div(batch, nb);
        abytes = ceil_div(abytes, nb);
        bbytes = ceil_div(bbytes, nb);
        blocks_note(block_num, "the batch shared out among them", bl, sizeof(bl));
    } else if (nb > 1) { /* the blocks share out the output, each reading its panels */
        uint64_t bm, bn;
        split_blocks(mnk[0], mnk[1], abytes, bbytes, nb, &bm, &bn);
        mnk[0] = ceil_div(mnk[0], bm);
        mnk[1] = ceil_div(mnk[1], bn);
        abytes = ceil_div(abytes, bm);
        bbytes = ceil_div(bbytes, bn);
        char what[96];
        snprintf(what, sizeof(what), "the output split %" PRIu64 " x %" PRIu64 " among them (m x n)", bm, bn);
        blocks_note(block_num, what, bl, sizeof(bl));
    }
    rest = ceil_div(rest, nb);
    outb = ceil_div(outb, nb);
    in = abytes + bbytes + rest;
    /* output tiles of KCOST_TILE_M x KCOST_TILE_N (attention: one, its m x n scores): each re-reads its A
     * and B panels, which the L2 holds after the first read */
    uint64_t tm = q >= 0 ? 1 : ceil_div(mnk[0], KCOST_TILE_M),
             tn = q >= 0 ? 1 : ceil_div(mnk[1], KCOST_TILE_N);
    uint64_t reread = abytes * (tn - 1) + bbytes * (tm - 1), operands = abytes + bbytes + reread;
    uint64_t split = 1; /* k is cut until the buffers of one output tile's panels fit L1 */
    uint64_t otiles = batch * tm * tn;
    while (KCOST_BUFFERS * ceil_div(in + reread, otiles * split) > PIPE_L1_BYTES &&
           otiles * split <= GRAPH_MAX_TILES)
        split *= 2;
    uint64_t tiles = otiles * split;
    if (tiles > GRAPH_MAX_TILES) {
        snprintf(note, len,
                 "%" PRIu64 " tiles (batch %" PRIu64 ") is more than a kernel can have: give its cost", tiles,
                 batch);
        return KCOST_UNKNOWN;
    }
    k->aic = true;
    k->tiles = (uint32_t)tiles;
    k->buffers = KCOST_BUFFERS;
    k->work.bytes[PIPE_MTE2] = ceil_div(in, tiles);
    k->work.mte2_reread = ceil_div(reread, tiles);
    k->work.bytes[PIPE_MTE1] = ceil_div(operands, tiles);
    k->work.bytes[PIPE_FIXPIPE] = ceil_div(outb, tiles);
    k->work.gib_per_s[PIPE_MTE2] = KCOST_GIB_GM_TO_L1;
    /* FIXPIPE's time is the FLOAT32 accumulator's bytes: a narrower output moves fewer bytes in it */
    int oes =
        out->ndim && dtype_size(out->dtype) > 0 && dtype_size(out->dtype) < 4 ? dtype_size(out->dtype) : 4;
    k->work.gib_per_s[PIPE_FIXPIPE] = KCOST_GIB_L0C_TO_GM * oes / 4;
    k->work.mnk[0] = ceil_div(mnk[0], tm);
    k->work.mnk[1] = ceil_div(mnk[1], tn);
    k->work.mnk[2] = ceil_div(mnk[2], split);
    k->work.cube_elem_bytes = (uint32_t)dtype_size(dt);
    char rr[200] = "";
    if (tm * tn > 1)
        snprintf(rr, sizeof(rr),
                 "; %" PRIu64 " x %" PRIu64 " output tiles of %d x %d re-read their panels (%" PRIu64
                 " B more, from the L2)",
                 tm, tn, KCOST_TILE_M, KCOST_TILE_N, reread);
    snprintf(note, len,
             "AIC from its args: a matmul of arg %d %s by arg %d %s, m %" PRIu64 " n %" PRIu64 " k %" PRIu64
             " x %" PRIu64 "%s; MTE2 reads the inputs (%" PRIu64 " B), MTE1 the operands, FIXPIPE writes the "
             "outputs (%" PRIu64 " B)%s; %s%s%s%s%s",
             a, dims(&args[a], da, sizeof(da)), b, dims(&args[b], db, sizeof(db)), mnk[0], mnk[1], mnk[2],
             batch, rate, in, outb, rr, tiling(tiles, "L1", tl, sizeof(tl)), attn, bl, rp, assumed);
    return st;
}

/* Appends to note. */
static void note_add(char *note, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void note_add(char *note, size_t len, const char *fmt, ...)
{
    size_t n = strlen(note);
    if (n + 1 >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(note + n, len - n, fmt, ap);
    va_end(ap);
}

/* What every derived kernel shares. No scalar cycles: the platform's 200 per
 * tile (scalar_cycles_per_tile) is a calibration choice with no measured
 * source, and Perf-Sim sees a few tens per kernel. And no per-tile figure a
 * graph may not state (graph_reader.c): a multiply past GRAPH_MAX_CUBE_DIM in one
 * dimension is cut into more tiles, or clamped, said in the note, when even
 * GRAPH_MAX_TILES tiles would not do. */
static kcost_status finish(pipe_kernel *k, kcost_status st, char *note, size_t len)
{
    k->scalar_given = true;
    k->work.cycles[PIPE_SCALAR] = 0;
    static const char dim[3] = {'m', 'n', 'k'};
    for (int d = 0; d < 3; d++) {
        uint64_t x = k->work.mnk[d], s = ceil_div(x, GRAPH_MAX_CUBE_DIM);
        if (x <= GRAPH_MAX_CUBE_DIM)
            continue;
        if ((uint64_t)k->tiles * s > GRAPH_MAX_TILES) {
            k->work.mnk[d] = GRAPH_MAX_CUBE_DIM;
            note_add(note, len, "; %c %" PRIu64 " clamped to %u: more tiles than a kernel may have", dim[d],
                     x, GRAPH_MAX_CUBE_DIM);
            st = KCOST_ASSUMED;
            continue;
        }
        k->tiles = (uint32_t)(k->tiles * s);
        k->work.mnk[d] = ceil_div(x, s);
        for (int p = 0; p < PIPE_COUNT; p++)
            k->work.bytes[p] = ceil_div(k->work.bytes[p], s);
        k->work.mte2_reread = ceil_div(k->work.mte2_reread, s);
        note_add(note, len, "; %c %" PRIu64 " is past a tile's %u, so %" PRIu64 " times the tiles", dim[d], x,
                 GRAPH_MAX_CUBE_DIM, s);
    }
    return st;
}

/* Rows of a gathered cache (elements / last dimension). */
static uint64_t rows_of(const kcost_arg *x)
{
    return elems_of(x) / (uint64_t)x->shape[x->ndim - 1];
}

/* Sets x's view to [lead..., rows, d] (lead = 0: none) with its bytes. */
static void set_view(kcost_arg *x, uint64_t lead, uint64_t rows, uint64_t d)
{
    int64_t esize = dtype_size(x->dtype) > 0 ? dtype_size(x->dtype) : 1;
    x->ndim = 0;
    if (lead)
        x->shape[x->ndim++] = (int64_t)lead;
    x->shape[x->ndim++] = (int64_t)rows;
    x->shape[x->ndim++] = (int64_t)d;
    x->bytes = (lead ? lead : 1) * rows * d * (uint64_t)esize;
}

/*
 * A kernel that gathers rows of a cache through a block table (paged
 * attention: the whole KV cache and an INT32 table are its args, and it
 * reads the blocks the table names) is priced by the rows it gathers, never
 * the whole cache. The table: the largest index-typed input; the cache: the
 * largest float input of rank >= 2 with at least twice as many rows as the
 * table has entries (a second of the same shape is V); the other operand A
 * (Q, or P): the largest other float input of rank >= 2. Rows gathered:
 *  - K and V both (one fused kernel): the table's entries x the rows of a
 *    block (a cache of rank >= 3 [blocks, block rows..., d] says how many;
 *    a 2-D cache does not, and KCOST_GATHER_BLOCK_ROWS is assumed), shared
 *    out among Q's leading dimension (the batch) when it divides them;
 *  - QK (A's last dimension is d): the output's elements per row of A (the
 *    output's columns when it has rows of A's);
 *  - PV (A = P [m, G]): A's last dimension.
 * Rewrites v (a copy of args) and says what it did in what; returns the
 * status (KCOST_ASSUMED when a block's rows were assumed) or -1 when the
 * args gather nothing.
 */
static int gather_views(kcost_arg *v, int nargs, char *what, size_t len)
{
    int t = -1, c = -1, c2 = -1, a = -1;
    for (int i = 0; i < nargs; i++)
        if (v[i].in && v[i].ndim && is_index(v[i].dtype) && (t < 0 || v[i].bytes > v[t].bytes))
            t = i;
    if (t < 0)
        return -1;
    uint64_t entries = elems_of(&v[t]);
    for (int i = 0; i < nargs; i++)
        if (v[i].in && v[i].ndim >= 2 && is_float(v[i].dtype) && (c < 0 || v[i].bytes > v[c].bytes))
            c = i;
    if (c < 0 || rows_of(&v[c]) < 2 * entries)
        return -1;
    for (int i = 0; i < nargs; i++)
        if (i != c && v[i].in && same_shape(&v[i], &v[c]))
            c2 = i;
    if (c2 >= 0)
        a = pick_q(v, nargs, c, c2);
    else
        for (int i = 0; i < nargs; i++)
            if (i != c && v[i].in && v[i].ndim >= 2 && is_float(v[i].dtype) &&
                (a < 0 || v[i].bytes > v[a].bytes))
                a = i;
    if (a < 0)
        return -1;
    const kcost_arg cache = v[c];
    uint64_t d = (uint64_t)cache.shape[cache.ndim - 1], crows = rows_of(&cache), brows = 1, g = 0, lead = 0;
    for (int i = 1; i < cache.ndim - 1; i++)
        brows *= (uint64_t)cache.shape[i];
    int st = KCOST_DERIVED;
    char how[160];
    if (c2 >= 0 || (uint64_t)v[a].shape[v[a].ndim - 1] == d) {
        int o = -1; /* the largest output that is not a cache */
        for (int i = 0; i < nargs; i++)
            if (v[i].out && i != c && i != c2 && (o < 0 || v[i].bytes > v[o].bytes))
                o = i;
        uint64_t arows = rows_of(&v[a]);
        if (c2 < 0 && o >= 0 && v[o].ndim >= 2 && arows % (uint64_t)v[o].shape[v[o].ndim - 2] == 0) {
            g = (uint64_t)v[o].shape[v[o].ndim - 1];
            set_view(&v[a], 0, (uint64_t)v[o].shape[v[o].ndim - 2], d); /* the rows of Q it scores */
            snprintf(how, sizeof(how), "the output's %" PRIu64 " columns", g);
        } else if (c2 < 0 && o >= 0 && v[o].ndim && is_float(v[o].dtype) && elems_of(&v[o]) % arows == 0) {
            g = elems_of(&v[o]) / arows;
            snprintf(how, sizeof(how), "the output's elements per row of arg %d", a);
        } else {
            if (cache.ndim < 3) {
                brows = KCOST_GATHER_BLOCK_ROWS;
                st = KCOST_ASSUMED;
            }
            const char *as = st == KCOST_ASSUMED ? " (assumed: a 2-D cache does not say)" : "";
            if (c2 < 0) { /* QK whose output says nothing: one block */
                g = brows;
                st = KCOST_ASSUMED;
                snprintf(how, sizeof(how),
                         "its output's shape is unknown, so one block of %" PRIu64 " rows%s", brows, as);
            } else {
                g = entries * brows;
                uint64_t batch =
                    v[a].ndim >= 3 || (uint64_t)v[a].shape[v[a].ndim - 1] > d ? (uint64_t)v[a].shape[0] : 1;
                if (batch > 1 && entries % batch == 0) /* each batch row gathers its own blocks */
                    lead = batch;
                snprintf(how, sizeof(how), "the table's %" PRIu64 " entries x %" PRIu64 " rows a block%s%s",
                         entries, brows, as, lead ? ", each row of Q's first dimension its own" : "");
            }
        }
    } else {
        g = (uint64_t)v[a].shape[v[a].ndim - 1];
        snprintf(how, sizeof(how), "arg %d's last dimension", a);
    }
    if (g > crows)
        g = crows;
    if (!g)
        return -1;
    uint64_t per = lead ? ceil_div(g, lead) : g;
    set_view(&v[c], lead, per, d);
    v[c].out = false; /* an INOUT cache: the few rows a kernel appends are not priced */
    if (c2 >= 0) {
        set_view(&v[c2], lead, per, d);
        v[c2].out = false;
    }
    uint64_t tb = (uint64_t)dtype_size(v[t].dtype) * g; /* at most one entry per gathered row */
    if (tb < v[t].bytes)
        v[t].bytes = tb;
    snprintf(what, len,
             "; it gathers %" PRIu64 " rows of arg %d [%" PRIu64 " x %" PRIu64
             "]%s through the block table arg "
             "%d (%s), not the whole cache",
             g, c, crows, d, c2 >= 0 ? " and as many of its V" : "", t, how);
    return st;
}

kcost_status kcost_derive(bool aic, const kcost_arg *args, int nargs, int block_num, int repeat,
                          pipe_kernel *out, char *note, size_t notelen)
{
    memset(out, 0, sizeof(*out));
    if (block_num < 1)
        block_num = 1;
    if (repeat < 1)
        repeat = 1;
    kcost_arg v[KCOST_MAX_ARGS];
    char what[320] = "";
    int gst = -1;
    if (nargs <= KCOST_MAX_ARGS && nargs > 0) {
        memcpy(v, args, sizeof(*v) * (size_t)nargs);
        gst = gather_views(v, nargs, what, sizeof(what));
        if (gst >= 0)
            args = v;
    }
    kcost_status st = aic ? derive_aic(args, nargs, block_num, repeat, out, note, notelen)
                          : derive_aiv(args, nargs, block_num, repeat, out, note, notelen);
    if (st == KCOST_UNKNOWN)
        return st;
    note_add(note, notelen, "%s", what);
    if (gst == KCOST_ASSUMED)
        st = KCOST_ASSUMED;
    return finish(out, st, note, notelen);
}
