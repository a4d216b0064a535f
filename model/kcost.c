/* kcost.c - a kernel's pipe-form cost derived from its args: tile sizing, matmul shape inference. */
#include "kcost.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "dtype.h"

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

static kcost_status derive_aiv(const kcost_arg *args, int nargs, int block_num, pipe_kernel *k, char *note,
                               size_t len)
{
    uint64_t in, out, nb = (uint64_t)block_num;
    sum_bytes(args, nargs, &in, &out);
    in = ceil_div(in, nb);
    out = ceil_div(out, nb);
    int big = -1;
    for (int i = 0; i < nargs; i++)
        if (args[i].ndim && (big < 0 || elems_of(&args[i]) > elems_of(&args[big])))
            big = i;
    if (big < 0 || dtype_size(args[big].dtype) < 1) {
        snprintf(note, len, "no tensor argument with a shape to count vector work over: give its cost");
        return KCOST_UNKNOWN;
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
    k->work.vec_elems = ceil_div(elems, tiles);
    k->work.vec_elem_bytes = (uint32_t)dtype_size(args[big].dtype);
    char d[96], t[64], bl[160];
    blocks_note(block_num, "so each block takes its share of every figure", bl, sizeof(bl));
    snprintf(note, len,
             "AIV from its args: MTE2 reads the inputs (%" PRIu64 " B), MTE3 writes the outputs (%" PRIu64
             " B), the vector unit makes one pass over the largest operand (arg %d, %s %s: %" PRIu64
             " elements); %s%s",
             in, out, big, dtype_name(args[big].dtype), dims(&args[big], d, sizeof(d)), elems,
             tiling(tiles, "UB", t, sizeof(t)), bl);
    return KCOST_DERIVED;
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
                                     pipe_kernel *k, char *note, size_t len)
{
    uint64_t in, out;
    sum_bytes(args, nargs, &in, &out);
    in = ceil_div(in, (uint64_t)block_num);
    out = ceil_div(out, (uint64_t)block_num);
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
    char t[64], bl[160];
    blocks_note(block_num, "so each block takes its share of every figure", bl, sizeof(bl));
    snprintf(note, len,
             "AIC from its args, no matmul (it reads %d operand%s): MTE2 reads the inputs (%" PRIu64
             " B), FIXPIPE writes the outputs (%" PRIu64 " B), no cube work; %s%s",
             operands, operands == 1 ? "" : "s", in, out, tiling(tiles, "L1", t, sizeof(t)), bl);
    return KCOST_DERIVED;
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

static kcost_status derive_aic(const kcost_arg *args, int nargs, int block_num, pipe_kernel *k, char *note,
                               size_t len)
{
    /* the two largest operands only read, and the largest output */
    int a = -1, b = -1, c = -1;
    for (int i = 0; i < nargs; i++) {
        const kcost_arg *x = &args[i];
        if (x->out) {
            if (c < 0 || x->bytes > args[c].bytes)
                c = i;
        } else if (x->in && x->ndim) {
            if (a < 0 || x->bytes > args[a].bytes) {
                b = a;
                a = i;
            } else if (b < 0 || x->bytes > args[b].bytes) {
                b = i;
            }
        }
    }
    if (a < 0 || b < 0)
        return derive_aic_moves(args, nargs, a < 0 ? 0 : 1, block_num, k, note, len);
    const kcost_arg none = {0}, *out = c >= 0 ? &args[c] : &none;
    uint64_t mnk[3], batch = 1;
    bool b_has_m = false;
    kcost_status st = KCOST_DERIVED;
    char da[96], db[96], tl[64], assumed[160] = "", bl[200] = "";
    if (!matmul_shape(&args[a], &args[b], out, mnk, &batch, &b_has_m)) {
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
    if (dt != DT_FLOAT16 && dt != DT_BFLOAT16 && dt != DT_INT8) {
        snprintf(rate, sizeof(rate), ", %s operands at the FLOAT16 rate", dtype_name(dt));
        dt = DT_FLOAT16;
    }
    uint64_t in, outb, abytes = args[b_has_m ? b : a].bytes, bbytes = args[b_has_m ? a : b].bytes;
    sum_bytes(args, nargs, &in, &outb);
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
    uint64_t operands = abytes + bbytes;
    uint64_t split = 1; /* k is cut until the operands' buffers fit L1 */
    while (KCOST_BUFFERS * ceil_div(in, batch * split) > PIPE_L1_BYTES && batch * split <= GRAPH_MAX_TILES)
        split *= 2;
    uint64_t tiles = batch * split;
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
    k->work.bytes[PIPE_MTE1] = ceil_div(operands, tiles);
    k->work.bytes[PIPE_FIXPIPE] = ceil_div(outb, tiles);
    k->work.mnk[0] = mnk[0];
    k->work.mnk[1] = mnk[1];
    k->work.mnk[2] = ceil_div(mnk[2], split);
    k->work.cube_elem_bytes = (uint32_t)dtype_size(dt);
    snprintf(note, len,
             "AIC from its args: a matmul of arg %d %s by arg %d %s, m %" PRIu64 " n %" PRIu64 " k %" PRIu64
             " x %" PRIu64 "%s; MTE2 reads the inputs (%" PRIu64 " B), MTE1 the operands, FIXPIPE writes the "
             "outputs (%" PRIu64 " B); %s%s%s",
             a, dims(&args[a], da, sizeof(da)), b, dims(&args[b], db, sizeof(db)), mnk[0], mnk[1], mnk[2],
             batch, rate, in, outb, tiling(tiles, "L1", tl, sizeof(tl)), bl, assumed);
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
 * graph may not state (graph.c): a multiply past GRAPH_MAX_CUBE_DIM in one
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
        note_add(note, len, "; %c %" PRIu64 " is past a tile's %u, so %" PRIu64 " times the tiles", dim[d], x,
                 GRAPH_MAX_CUBE_DIM, s);
    }
    return st;
}

kcost_status kcost_derive(bool aic, const kcost_arg *args, int nargs, int block_num, pipe_kernel *out,
                          char *note, size_t notelen)
{
    memset(out, 0, sizeof(*out));
    if (block_num < 1)
        block_num = 1;
    kcost_status st = aic ? derive_aic(args, nargs, block_num, out, note, notelen)
                          : derive_aiv(args, nargs, block_num, out, note, notelen);
    return st == KCOST_UNKNOWN ? st : finish(out, st, note, notelen);
}
