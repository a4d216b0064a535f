/* gen_runtime.c - gen_: `ptosim gen`'s kinds from the runtime's tests: bgemm, paged attention's variants. */
/* Their parameter tables are gen.c's P_BGEMM and P_PA, whose rows gen_int.h names. */
#include "gen_int.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../model/base/int_text.h"
#include "../cli/cli.h"

#define GEN_MAX_ELEMS (1LL << 40) /* per tensor: keeps every offset and byte count far below 2^63 */

/* ------------------------------------------------------------------ */
/* bgemm                                                               */
/* ------------------------------------------------------------------ */

/* Elements of A and B (the largest tensors); -1 past GEN_MAX_ELEMS. */
static int64_t bgemm_elems(const gen_val *v)
{
    double t = (double)v[BG_TILE].i, groups = (double)(v[BG_TASKS].i / v[BG_K].i);
    double worst = groups * (double)v[BG_K].i * (double)v[BG_LOOP].i * t * t;
    return worst > (double)GEN_MAX_ELEMS ? -1 : (int64_t)worst;
}

int gen_check_bgemm(const gen_val *v, char *err, size_t len)
{
    if (v[BG_TASKS].i < v[BG_K].i) {
        snprintf(err, len,
                 "--matmul-add-task-num: must be at least --grid-k (%" PRId64
                 ") to make one group, got %" PRId64,
                 v[BG_K].i, v[BG_TASKS].i);
        return -1;
    }
    if (bgemm_elems(v) < 0) {
        snprintf(err, len,
                 "--matmul-add-task-num: A and B would exceed 2^40 elements; use fewer tasks or tiles");
        return -1;
    }
    return 0;
}

/* hw-native-sys/simpler examples/a2a3/tensormap_and_ringbuffer/benchmark_bgemm
 * (kernels/orchestration/bgemm_orch.cpp): grid_m = grid_n = 1, so a group is
 * one output block of incore_loop tiles. Per group a scope of grid_k x (P =
 * A[g,k] @ B[g,k] on the AIC, func 0; C[g] += P on the AIV, func 1); every
 * task also reads the INT64[4] config tensor the kernels take their sizes from. */
void gen_emit_bgemm(gen *g)
{
    const gen_val *v = g->v;
    int64_t t = v[BG_TILE].i, loop = v[BG_LOOP].i, gk = v[BG_K].i, groups = v[BG_TASKS].i / gk;
    int64_t ge = loop * t * t; /* elements of one group's block */
    char cost[COST_MAX];
    gen_hdr_begin(g, "bgemm_orch");
    gen_cost_mm(cost, t, t, t, loop, 4, 4, "FLOAT16"); /* FLOAT32 tiles in GM; the cube rate of fp16 */
    gen_hdr_kernel(g, 0, "gemm_tile", "aic", cost);
    gen_cost_vec(cost, ge, 2 * ge * 4, ge * 4, "FLOAT32");
    gen_hdr_kernel(g, 1, "tile_add", "aiv", cost);
    gen_hdr_tensors(g);
    gen_hdr_tensor(g, "A", "FLOAT32", groups * gk * ge, 0);
    gen_hdr_tensor(g, "B", "FLOAT32", groups * gk * ge, 0);
    gen_hdr_tensor(g, "C", "FLOAT32", groups * ge, 0);
    gen_sep(g);
    int64_t config[4] = {t, gk, groups, loop};
    gen_lit(g, "{\"name\": \"config\", \"dtype\": \"INT64\", \"shape\": [4], \"data\": ");
    gen_put_dims(g, 4, config);
    gen_lit(g, "}");
    gen_hdr_end(g);
    for (int64_t gi = 0; gi < groups; gi++) {
        gview cv = gen_v1(ge, gi * ge);
        gen_scope_begin(g, 1, false);
        for (int64_t k = 0; k < gk; k++) {
            gview abv = gen_v1(ge, (gi * gk + k) * ge); /* A and B: [groups, grid_k, loop, T, T] */
            gen_submit(g, NULL, "gemm_tile");
            gen_args_begin(g);
            gen_arg(g, "in", "A", &abv);
            gen_arg(g, "in", "B", &abv);
            gen_arg_out(g, "P", "FLOAT32", ge, 0);
            gen_arg(g, "in", "config", NULL);
            gen_args_end(g);
            gen_op_end(g);
            gen_submit(g, NULL, "tile_add");
            gen_args_begin(g);
            gen_arg(g, "inout", "C", &cv);
            gen_arg(g, "in", "P", NULL);
            gen_arg(g, "in", "config", NULL);
            gen_args_end(g);
            gen_op_end(g);
        }
        gen_scope_end(g);
    }
}

/* ------------------------------------------------------------------ */
/* paged_attention                                                     */
/* ------------------------------------------------------------------ */

#define PA_SPMD_BLOCKS 24   /* one MIX block per cluster */
#define PA_IN_CORE_BATCH 16 /* batch variant: batches per task (IN_CORE_BATCH) */

/* Parses the --block-table list into tbl (n entries, each below n), or checks
 * it when tbl is NULL. Returns 0, or -1 with "what is wrong" in err. */
static int pa_parse_table(const char *text, int64_t n, int64_t *tbl, char *err, size_t len)
{
    const char *p = text;
    for (int64_t i = 0; i < n; i++) {
        /* one entry, up to its comma, read by strint */
        const char *comma = strchr(p, ',');
        size_t elen = comma ? (size_t)(comma - p) : strlen(p);
        char entry[32];
        int64_t x = -1;
        if (elen < sizeof(entry)) {
            memcpy(entry, p, elen);
            entry[elen] = '\0';
            if (strint_parse(entry, 0, n - 1, &x) != STRINT_OK)
                x = -1;
        }
        const char *end = p + elen;
        if (x < 0 || (!*end && i + 1 < n)) {
            snprintf(err, len,
                     "--block-table: must be identity or %" PRId64
                     " comma-separated block indices below %" PRId64 " (batch x blocks), got '%s'",
                     n, n, text);
            return -1;
        }
        if (tbl)
            tbl[i] = x;
        p = *end ? end + 1 : end;
    }
    if (*p || (p > text && p[-1] == ',')) {
        snprintf(err, len, "--block-table: has more than %" PRId64 " entries (batch x blocks), got '%s'", n,
                 text);
        return -1;
    }
    return 0;
}

int gen_check_pa(const gen_val *v, char *err, size_t len)
{
    int64_t nb = gen_ceil_div(v[PA_C].i, v[PA_BS].i);
    double rows = (double)v[PA_B].i * (double)nb * (double)v[PA_BS].i;
    if (rows * (double)v[PA_D].i > (double)GEN_MAX_ELEMS) {
        snprintf(err, len,
                 "--context: the KV caches would exceed 2^40 elements; use fewer batches or tokens");
        return -1;
    }
    if (v[PA_MML].i && v[PA_MML].i / v[PA_BS].i < nb) {
        snprintf(err, len,
                 "--max-model-len: must hold the context's %" PRId64 " blocks of %" PRId64
                 " tokens, got %" PRId64,
                 nb, v[PA_BS].i, v[PA_MML].i);
        return -1;
    }
    if (strcmp(v[PA_BT].s, "identity") != 0)
        return pa_parse_table(v[PA_BT].s, v[PA_B].i * nb, NULL, err, len);
    return 0;
}

/* Shapes shared by the variants. */
typedef struct pa_dims {
    int64_t b, h, d, bs, ctx, nb, qt, ql, u;
    int64_t cols;       /* block_table columns */
    const int64_t *tbl; /* b x nb physical blocks, or NULL for the identity */
} pa_dims;

/* The cache block that holds batch b's block bn (the block table). */
static int64_t pa_block(const pa_dims *p, int64_t b, int64_t bn)
{
    return p->tbl ? p->tbl[b * p->nb + bn] : b * p->nb + bn;
}

/* Costs of QK, SF and PV for `rows` query rows over nblk blocks. */
static void pa_costs(const pa_dims *p, int64_t rows, int64_t nblk, char *qk, char *sf, char *pv)
{
    int64_t s = rows * p->bs * nblk; /* scores per task */
    gen_cost_mm(qk, rows, p->bs * nblk, p->d, 1, 2, 4, "BFLOAT16");
    gen_cost_vec(sf, s, s * 4, s * 2 + 2 * rows * 4, "FLOAT32");
    gen_cost_mm(pv, rows, p->d, p->bs * nblk, 1, 2, 4, "BFLOAT16");
}

/* An alloc of the accumulators oi [rows, D], li and mi [rows], labelled when label is not NULL. */
static void pa_alloc(gen *g, const char *label, int64_t rows, int64_t d)
{
    gen_lit(g, "{\"op\": \"alloc\"");
    if (label) {
        gen_lit(g, ", \"id\": \"");
        gen_put(g, label);
        gen_lit(g, "\"");
    }
    gen_lit(g, ", \"tensors\": [{\"name\": \"oi\", \"dtype\": \"FLOAT32\", \"shape\": [");
    gen_int(g, rows);
    gen_lit(g, ", ");
    gen_int(g, d);
    gen_lit(g, "]}, {\"name\": \"li\", \"dtype\": \"FLOAT32\", \"shape\": [");
    gen_int(g, rows);
    gen_lit(g, "]}, {\"name\": \"mi\", \"dtype\": \"FLOAT32\", \"shape\": [");
    gen_int(g, rows);
    gen_lit(g, "]}]}\n");
}

/* One block's QK, SF and PV of the plain and manual variants; manual labels
 * them and chains them with explicit deps, as TensorMap edges are off there. */
static void pa_block_tasks(gen *g, const pa_dims *p, int64_t b, int64_t bn, const gview *qi,
                           const char *scale, bool manual)
{
    gview kv = gen_v2(p->bs, p->d, pa_block(p, b, bn) * p->bs, 0);
    int64_t valid = gen_min64(p->bs, p->ctx - bn * p->bs);
    gview sv = gen_v2(p->qt, valid, 0, 0);
    int nd = 0;
    gen_submit(g, manual ? "qk" : NULL, "qk_matmul");
    gen_args_begin(g);
    gen_arg(g, "in", "query", qi);
    gen_arg(g, "in", "key_cache", &kv);
    gen_arg_out(g, "sij", "FLOAT32", p->qt, p->bs);
    gen_args_end(g);
    gen_op_end(g);
    gen_submit(g, manual ? "sf" : NULL, "softmax_prepare");
    gen_args_begin(g);
    gen_arg(g, "in", "sij", valid < p->bs ? &sv : NULL);
    gen_arg_out(g, "pij", "BFLOAT16", p->qt, p->bs);
    gen_arg_out(g, "mij", "FLOAT32", p->qt, 0);
    gen_arg_out(g, "lij", "FLOAT32", p->qt, 0);
    gen_arg_scalar(g, scale, "FLOAT32");
    gen_args_end(g);
    if (manual)
        gen_dep(g, &nd, "qk");
    gen_deps_end(g, nd);
    gen_op_end(g);
    gen_submit(g, manual ? "pv" : NULL, "pv_matmul");
    gen_args_begin(g);
    gen_arg(g, "in", "pij", NULL);
    gen_arg(g, "in", "value_cache", &kv);
    gen_arg_out(g, "oi_tmp", "FLOAT32", p->qt, p->d);
    gen_args_end(g);
    nd = 0;
    if (manual)
        gen_dep(g, &nd, "sf");
    gen_deps_end(g, nd);
    gen_op_end(g);
}

/* The online update's tensor args: this block's partials into the accumulators and the out rows. */
static void pa_update_args(gen *g, const gview *ov, bool out_manual_dep)
{
    gen_arg(g, "in", "mij", NULL);
    gen_arg(g, "in", "lij", NULL);
    gen_arg(g, "in", "oi_tmp", NULL);
    gen_arg(g, "inout", "mi", NULL);
    gen_arg(g, "inout", "li", NULL);
    gen_arg(g, "inout", "oi", NULL);
    if (out_manual_dep) {
        gen_sep(g);
        gen_put(g, "{\"dir\": \"inout\", \"tensor\": \"out\", \"manual_dep\": true}");
    } else {
        gen_arg(g, "inout", "out", ov);
    }
}

/* One (b, q) body of the plain variant: hw-native-sys/simpler
 * examples/a2a3/tensormap_and_ringbuffer/paged_attention (paged_attention_orch.cpp):
 * an alloc of the accumulators, then per KV block a nested scope of QK -> SF -> PV -> UP. */
static void pa_plain_body(gen *g, const pa_dims *p, int64_t b, const gview *qi, const gview *ov,
                          const char *scale)
{
    pa_alloc(g, NULL, p->qt, p->d);
    for (int64_t bn = 0; bn < p->nb; bn++) {
        gen_scope_begin(g, 2, false);
        pa_block_tasks(g, p, b, bn, qi, scale, false);
        gen_submit(g, NULL, "online_update");
        gen_args_begin(g);
        pa_update_args(g, ov, false);
        gen_arg_scalar(g, bn == 0 ? "1" : "0", NULL);
        gen_arg_scalar(g, bn == p->nb - 1 ? "1" : "0", NULL);
        gen_args_end(g);
        gen_op_end(g);
        gen_scope_end(g);
    }
}

/* One (b, q) body of the manual variant, in the caller's manual scope:
 * examples/a2a3/tensormap_and_ringbuffer/paged_attention_manual_scope. The
 * same tasks as plain without the per-block scopes; a manual scope gets no
 * TensorMap or creator edges, so each task names its producers: SF the QK,
 * PV the SF, UP the PV and the previous UP, and the last UP the alloc (which
 * keeps the accumulators alive until then). */
static void pa_manual_body(gen *g, const pa_dims *p, int64_t b, const gview *qi, const gview *ov,
                           const char *scale)
{
    pa_alloc(g, "alloc", p->qt, p->d);
    for (int64_t bn = 0; bn < p->nb; bn++) {
        pa_block_tasks(g, p, b, bn, qi, scale, true);
        /* "up" in its own deps is the previous update: a label is rebound only
         * after the op's deps are read (prev_update_task in the example) */
        int nd = 0;
        gen_submit(g, "up", "online_update");
        gen_args_begin(g);
        pa_update_args(g, ov, false);
        gen_arg_scalar(g, bn == 0 ? "1" : "0", NULL);
        gen_arg_scalar(g, bn == p->nb - 1 ? "1" : "0", NULL);
        gen_args_end(g);
        gen_dep(g, &nd, "pv");
        if (bn > 0)
            gen_dep(g, &nd, "up");
        if (bn == p->nb - 1)
            gen_dep(g, &nd, "alloc");
        gen_deps_end(g, nd);
        gen_op_end(g);
    }
}

/* One (b, q) body of the unroll variant: hw-native-sys/simpler
 * tests/st/a2a3/tensormap_and_ringbuffer/paged_attention_unroll
 * (paged_attention_orch.cpp): an alloc of the accumulators, then per group of
 * up to U blocks the four tasks in the same scope, each indexing the whole
 * caches through its block-table row. (Until #485, 2026-04-09, a hub task
 * created the accumulators and each group had a scope of its own.) */
static void pa_group_body(gen *g, const pa_dims *p, int64_t b, const gview *qi, const gview *ov,
                          const char *scale)
{
    pa_alloc(g, NULL, p->qt, p->d);
    int64_t ngroups = gen_ceil_div(p->nb, p->u), full = gen_min64(p->u, p->nb);
    for (int64_t gi = 0; gi < ngroups; gi++) {
        int64_t n = gen_min64(p->u, p->nb - gi * p->u), first = gi * p->u;
        int64_t valid = gen_min64(n * p->bs, p->ctx - first * p->bs);
        gview bt = gen_v2(1, n, b, first), sv = gen_v2(p->qt, valid, 0, 0);
        char qk[COST_MAX], sf[COST_MAX], pv[COST_MAX];
        pa_costs(p, p->qt, n, qk, sf, pv); /* a short last group costs less than the kernels' default */
        gen_submit(g, NULL, "qk_matmul");
        gen_args_begin(g);
        gen_arg(g, "in", "query", qi);
        gen_arg(g, "in", "key_cache", NULL);
        gen_arg(g, "in", "block_table", &bt);
        gen_arg_out(g, "sij", "FLOAT32", p->qt, n * p->bs);
        gen_args_end(g);
        if (n != full)
            gen_op_cost(g, qk);
        gen_op_end(g);
        gen_submit(g, NULL, "softmax_prepare");
        gen_args_begin(g);
        gen_arg(g, "in", "sij", valid < n * p->bs ? &sv : NULL);
        gen_arg_out(g, "pij", "BFLOAT16", p->qt, n * p->bs);
        gen_arg_out(g, "mij", "FLOAT32", p->qt, 0);
        gen_arg_out(g, "lij", "FLOAT32", p->qt, 0);
        gen_arg_scalar(g, scale, "FLOAT32");
        gen_args_end(g);
        if (n != full)
            gen_op_cost(g, sf);
        gen_op_end(g);
        gen_submit(g, NULL, "pv_matmul");
        gen_args_begin(g);
        gen_arg(g, "in", "pij", NULL);
        gen_arg(g, "in", "value_cache", NULL);
        gen_arg(g, "in", "block_table", &bt);
        gen_arg_out(g, "oi_tmp", "FLOAT32", p->qt, p->d);
        gen_args_end(g);
        if (n != full)
            gen_op_cost(g, pv);
        gen_op_end(g);
        gen_submit(g, NULL, "online_update");
        gen_args_begin(g);
        pa_update_args(g, ov, false);
        gen_arg_scalar(g, gi == 0 ? "1" : "0", NULL);
        gen_arg_scalar(g, gi == ngroups - 1 ? "1" : "0", NULL);
        gen_args_end(g);
        gen_op_end(g);
    }
}

/* The batch variant: hw-native-sys/simpler
 * tests/st/a2a3/tensormap_and_ringbuffer/batch_paged_attention. Per q tile and
 * chunk of up to 16 batches a scope with an alloc of the chunk's
 * accumulators, then per KV block a nested scope of the four tasks over the
 * whole chunk; the kernels index the whole query, caches and block table
 * themselves, and `out` is manual_dep, so the updates chain only through the
 * accumulators. */
static void pa_batch(gen *g, const pa_dims *p, const char *scale)
{
    int64_t nchunks = gen_ceil_div(p->b, PA_IN_CORE_BATCH), full = gen_min64(p->b, PA_IN_CORE_BATCH);
    for (int64_t q = 0; q < p->ql; q++)
        for (int64_t ch = 0; ch < nchunks; ch++) {
            int64_t bc = gen_min64(PA_IN_CORE_BATCH, p->b - ch * PA_IN_CORE_BATCH),
                    start = ch * PA_IN_CORE_BATCH;
            int64_t rows = bc * p->qt;
            char qk[COST_MAX], sf[COST_MAX], pv[COST_MAX];
            pa_costs(p, rows, 1, qk, sf, pv); /* a short last chunk costs less than the kernels' default */
            gen_scope_begin(g, 1, false);
            pa_alloc(g, NULL, rows, p->d);
            for (int64_t bn = 0; bn < p->nb; bn++) {
                gen_scope_begin(g, 2, false);
                gen_submit(g, NULL, "qk_matmul");
                gen_args_begin(g);
                gen_arg(g, "in", "query", NULL);
                gen_arg(g, "in", "key_cache", NULL);
                gen_arg(g, "in", "block_table", NULL);
                gen_arg_out(g, "sij", "FLOAT32", rows, p->bs);
                gen_arg_int(g, bc);
                gen_arg_int(g, bn);
                gen_arg_int(g, q * p->qt);
                gen_arg_int(g, p->cols);
                gen_arg_int(g, p->h);
                gen_arg_int(g, start);
                gen_args_end(g);
                if (bc != full)
                    gen_op_cost(g, qk);
                gen_op_end(g);
                gen_submit(g, NULL, "softmax_prepare");
                gen_args_begin(g);
                gen_arg(g, "in", "sij", NULL);
                gen_arg(g, "in", "context_lens", NULL);
                gen_arg_out(g, "pij", "BFLOAT16", rows, p->bs);
                gen_arg_out(g, "mij", "FLOAT32", rows, 0);
                gen_arg_out(g, "lij", "FLOAT32", rows, 0);
                gen_arg_scalar(g, scale, "FLOAT32");
                gen_arg_int(g, bc);
                gen_arg_int(g, bn);
                gen_arg_int(g, start);
                gen_args_end(g);
                if (bc != full)
                    gen_op_cost(g, sf);
                gen_op_end(g);
                gen_submit(g, NULL, "pv_matmul");
                gen_args_begin(g);
                gen_arg(g, "in", "pij", NULL);
                gen_arg(g, "in", "value_cache", NULL);
                gen_arg(g, "in", "block_table", NULL);
                gen_arg_out(g, "oi_tmp", "FLOAT32", rows, p->d);
                gen_arg_int(g, bc);
                gen_arg_int(g, bn);
                gen_arg_int(g, p->cols);
                gen_arg_int(g, start);
                gen_args_end(g);
                if (bc != full)
                    gen_op_cost(g, pv);
                gen_op_end(g);
                gen_submit(g, NULL, "online_update");
                gen_args_begin(g);
                pa_update_args(g, NULL, true);
                gen_arg_int(g, bn == 0);
                gen_arg_int(g, bn == p->nb - 1);
                gen_arg_int(g, bc);
                gen_arg_int(g, q * p->qt);
                gen_arg_int(g, p->h);
                gen_arg_int(g, start);
                gen_args_end(g);
                gen_op_end(g);
                gen_scope_end(g);
            }
            gen_scope_end(g);
        }
}

void gen_emit_pa(gen *g)
{
    const gen_val *v = g->v;
    pa_dims p = {.b = v[PA_B].i, .h = v[PA_H].i, .d = v[PA_D].i, .bs = v[PA_BS].i, .ctx = v[PA_C].i};
    p.nb = gen_ceil_div(p.ctx, p.bs);
    p.qt = gen_min64(p.h, 128);
    p.ql = gen_ceil_div(p.h, p.qt);
    p.cols = v[PA_MML].i ? v[PA_MML].i / p.bs : p.nb;
    const char *var = v[PA_VAR].s;
    bool plain = !strcmp(var, "plain"), spmd = !strcmp(var, "spmd"), manual = !strcmp(var, "manual");
    bool batch = !strcmp(var, "batch"), unroll = !strcmp(var, "unroll");
    p.u = unroll ? v[PA_U].i : 1;
    int64_t *tbl = NULL;
    if (strcmp(v[PA_BT].s, "identity") != 0) {
        char err[GEN_ERR_MAX];
        tbl = malloc((size_t)(p.b * p.nb) * sizeof(*tbl));
        if (!tbl || pa_parse_table(v[PA_BT].s, p.b * p.nb, tbl, err, sizeof(err)) != 0) {
            fprintf(stderr, "ptosim gen: paged_attention: %s\n", tbl ? err : "out of memory");
            wbuf_close(&g->w); /* nothing written yet: the header comes after */
            exit(EXIT_INTERNAL);
        }
        p.tbl = tbl;
    }
    int64_t per = gen_min64(p.u, p.nb); /* blocks per task at full size */
    char scale[32], c0[COST_MAX], c1[COST_MAX], c2[COST_MAX];
    snprintf(scale, sizeof(scale), "%.9g", 1.0 / sqrt((double)p.d));

    gen_hdr_begin(g, "paged_attention");
    if (spmd) {
        /* each of 24 blocks takes an equal share of the (b, q, block) steps:
         * QK and PV on the AIC, softmax and update split over the two AIVs */
        int64_t w = gen_ceil_div(p.b * p.ql * p.nb, PA_SPMD_BLOCKS);
        int64_t e = gen_ceil_div(w * p.qt * (p.bs + p.d), 2);
        gen_cost_mm(c0, p.qt, p.bs, p.d, 2 * w, 2, 4, "BFLOAT16");
        gen_hdr_kernel(g, 5, "pa_aic", "aic", c0);
        gen_cost_vec(c1, e, e * 4, e * 4, "FLOAT32");
        gen_hdr_kernel(g, 6, "pa_aiv", "aiv", c1);
    } else {
        char c3[COST_MAX];
        int64_t rows = batch ? gen_min64(p.b, PA_IN_CORE_BATCH) * p.qt : p.qt; /* query rows per task */
        pa_costs(&p, rows, per, c0, c1, c2);
        gen_cost_vec(c3, rows * p.d, rows * p.d * 8 + rows * 16, rows * p.d * 6 + rows * 8, "FLOAT32");
        gen_hdr_kernel(g, 0, "qk_matmul", "aic", c0);
        gen_hdr_kernel(g, 1, "softmax_prepare", "aiv", c1);
        gen_hdr_kernel(g, 2, "pv_matmul", "aic", c2);
        gen_hdr_kernel(g, 3, "online_update", "aiv", c3);
    }
    gen_hdr_tensors(g);
    gen_hdr_tensor(g, "query", "BFLOAT16", p.b * p.h, p.d);
    gen_hdr_tensor(g, "key_cache", "BFLOAT16", p.b * p.nb * p.bs, p.d);
    gen_hdr_tensor(g, "value_cache", "BFLOAT16", p.b * p.nb * p.bs, p.d);
    gen_hdr_tensor(g, "block_table", "INT32", p.b, p.cols);
    gen_hdr_tensor(g, "context_lens", "INT32", p.b, 0);
    gen_hdr_tensor(g, "out", "FLOAT32", p.b * p.h, p.d); /* the examples accumulate the output in FP32 */
    gen_hdr_end(g);

    if (spmd) {
        gen_scope_begin(g, 1, false);
        gen_submit_mix(g, "pa_aic", "pa_aiv", PA_SPMD_BLOCKS);
        gen_args_begin(g);
        gen_arg(g, "in", "query", NULL);
        gen_arg(g, "in", "key_cache", NULL);
        gen_arg(g, "in", "value_cache", NULL);
        gen_arg(g, "in", "block_table", NULL);
        gen_arg(g, "inout", "out", NULL);
        gen_arg_out(g, "ws_sij", "FLOAT32", PA_SPMD_BLOCKS, p.qt * p.bs);
        gen_arg_out(g, "ws_pij", "BFLOAT16", PA_SPMD_BLOCKS, p.qt * p.bs);
        gen_arg_out(g, "ws_oi", "FLOAT32", PA_SPMD_BLOCKS, p.qt * p.d);
        gen_args_end(g);
        gen_op_end(g);
        gen_scope_end(g);
    } else if (batch) {
        pa_batch(g, &p, scale);
    } else {
        for (int64_t b = 0; b < p.b; b++)
            for (int64_t q = 0; q < p.ql; q++) {
                int64_t row = b * p.h + q * p.qt, rows = gen_min64(p.qt, p.h - q * p.qt);
                gview qi = gen_v2(rows, p.d, row, 0), ov = gen_v2(rows, p.d, row, 0);
                gen_scope_begin(g, 1, manual);
                if (plain)
                    pa_plain_body(g, &p, b, &qi, &ov, scale);
                else if (manual)
                    pa_manual_body(g, &p, b, &qi, &ov, scale);
                else
                    pa_group_body(g, &p, b, &qi, &ov, scale);
                gen_scope_end(g);
            }
    }
    free(tbl);
}
