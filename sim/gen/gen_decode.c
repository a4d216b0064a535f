/* gen_decode.c - gen_: `ptosim gen decode_layer`: the runtime's Qwen3-14B decode layers, two kernel sets. */
/* Their parameter table is gen.c's P_DECODE, whose rows gen_int.h names. */
#include "gen_int.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* decode_layer                                                        */
/* ------------------------------------------------------------------ */

#define QW_MAX_SEQ 5500 /* qwen3_14b_decode: codegen-time KV pool and RoPE length (MAX_SEQ) */

int gen_check_decode(const gen_val *v, char *err, size_t len)
{
    /* both variants are harvested codegen with their shapes hard-coded */
    const char *var = v[DL_VAR].s;
    if (v[DL_B].i != 16) {
        snprintf(err, len, "--batch: %s is generated code for batch 16, got %" PRId64, var, v[DL_B].i);
        return -1;
    }
    if (v[DL_S].i > QW_MAX_SEQ) {
        snprintf(err, len, "--seq: %s sizes its KV pool for %d tokens (MAX_SEQ), got %" PRId64, var,
                 QW_MAX_SEQ, v[DL_S].i);
        return -1;
    }
    return 0;
}

/* The qwen3_14b_decode variant: hw-native-sys/simpler
 * examples/a2a3/tensormap_and_ringbuffer/qwen3_14b_decode, whose
 * kernels/orchestration/decode_fwd_layers.cpp is pypto codegen with its shapes
 * hard-coded (batch 16, MAX_SEQ 5500). Per layer a scope with two allocs of
 * the layer's intermediates, a manual scope (depth 3 under the root scope)
 * holding everything up to the down projections, chained by explicit deps,
 * and dcr_xgamma back in the layer scope. */

#define QW_B 16
#define QW_HID 5120
#define QW_KVH 1024 /* 8 KV heads x 128 */
#define QW_INTER 17408
#define QW_HD 128
#define QW_BLOCKS 43                                        /* ceil(MAX_SEQ / 128) KV blocks per row */
#define QW_CACHE_ROWS ((int64_t)QW_B * QW_BLOCKS * 8 * 128) /* one layer's paged KV pool: 704512 rows */
#define QW_META 27840                                       /* pa_metadata bytes */
#define QW_WS 66132544                                      /* pa_workspace bytes */
#define QW_OUT_UNITS 50  /* out_proj: 10 column tiles of 512 x 5 K splits of 1024 */
#define QW_OUT_DIRECT 26 /* of which single tasks; the other 24 are one SPMD task */
#define QW_GU_SPLITS 5   /* gate/up/down K splits (or out tiles) of 1024 */
#define QW_GU_SPMD_N 6   /* gate/up column tiles done by the 5 SPMD tasks of 6 blocks */
#define QW_GU_N 17       /* 17408 / 1024 column tiles */

static const char *const QW_KERNELS[] = {
    "paged_attention_tiling_cce",
    "copy_hidden",
    "x_gamma0",
    "attn_out_seed",
    "rms_recip",
    "q_seed",
    "q_proj",
    "kv_seed",
    "mlp_out_seed",
    "k_proj",
    "v_proj",
    "paged_attention_rope_cce_aic",
    "paged_attention_rope_cce_aiv",
    "out_proj",
    "out_proj_0",
    "residual_rms_cast",
    "residual_rms_cast_0",
    "residual_rms_cast_1",
    "residual_rms_cast_2",
    "residual_rms_cast_3",
    "post_rms_reduce",
    "gate_proj",
    "up_proj",
    "gate_proj_0",
    "up_proj_0",
    "gate_proj_1",
    "up_proj_1",
    "gate_proj_2",
    "up_proj_2",
    "gate_proj_3",
    "up_proj_3",
    "gate_proj_4",
    "up_proj_4",
    "silu",
    "down_proj",
    "dcr_xgamma",
    "copy_out",
};

/* The kernel table, func ids as in the example's CALLABLE; costs are one block's. */
static void qw_kernels(gen *g, int64_t seq, int64_t acn)
{
    char c[COST_MAX];
    int64_t h = (int64_t)QW_B * QW_HID, col = (int64_t)QW_B * 1024; /* a 1024-column tile of the batch */
    /* attention: each block takes its share of the 16 x 8 (row, KV head) pairs; per pair QK and PV of
     * 5 query heads over the context on the AIC, softmax split over the two AIVs */
    int64_t pairs = gen_ceil_div((int64_t)QW_B * 8, acn), sc = gen_ceil_div(5 * seq * pairs, 2);
    for (int id = 0; id < (int)(sizeof(QW_KERNELS) / sizeof(QW_KERNELS[0])); id++) {
        const char *n = QW_KERNELS[id];
        bool aic = strstr(n, "proj") || !strcmp(n, "paged_attention_rope_cce_aic");
        if (!strcmp(n, "paged_attention_rope_cce_aic"))
            gen_cost_mm(c, 5, seq, QW_HD, 2 * pairs, 2, 4, "BFLOAT16");
        else if (!strcmp(n, "paged_attention_rope_cce_aiv"))
            gen_cost_vec(c, sc, sc * 4, sc * 2, "FLOAT32");
        else if (strstr(n, "q_proj") || strstr(n, "k_proj") || strstr(n, "v_proj") || strstr(n, "out_proj"))
            gen_cost_mm(c, QW_B, 512, 1024, 1, 2, 4, "BFLOAT16"); /* one unit of 512 columns x 1024 of K */
        else if (aic)
            gen_cost_mm(c, QW_B, 1024, 1024, 1, 2, 4, "BFLOAT16"); /* gate, up, down: 1024 x 1024 units */
        else if (!strcmp(n, "paged_attention_tiling_cce"))
            gen_cost_vec(c, 64, 64 * 4, QW_META, "FLOAT32");
        else if (!strcmp(n, "copy_hidden"))
            gen_cost_vec(c, h, h * 2, h * 4, "FLOAT32");
        else if (!strcmp(n, "x_gamma0") || !strcmp(n, "dcr_xgamma")) /* 5 blocks of 1024 columns */
            gen_cost_vec(c, col, col * 8 + 1024 * 4, col * 6, "FLOAT32");
        else if (!strcmp(n, "attn_out_seed"))
            gen_cost_vec(c, h, 0, h * 2, "FLOAT32");
        else if (!strcmp(n, "rms_recip") || !strcmp(n, "post_rms_reduce"))
            gen_cost_vec(c, h, h * 4, QW_B * 4, "FLOAT32");
        else if (!strcmp(n, "q_seed"))
            gen_cost_vec(c, h, 0, h * 4, "FLOAT32");
        else if (!strcmp(n, "kv_seed"))
            gen_cost_vec(c, 2 * QW_B * QW_KVH, 0, 2 * QW_B * QW_KVH * 4, "FLOAT32");
        else if (!strcmp(n, "mlp_out_seed"))
            gen_cost_vec(c, 2 * h + 2 * QW_B * QW_INTER, 0, (2 * h + 2 * QW_B * QW_INTER) * 4, "FLOAT32");
        else if (strstr(n, "residual_rms_cast"))
            gen_cost_vec(c, col, col * 12 + 1024 * 4, col * 6, "FLOAT32");
        else if (!strcmp(n, "silu"))
            gen_cost_vec(c, col, col * 8 + QW_B * 4, col * 2, "FLOAT32");
        else /* copy_out */
            gen_cost_vec(c, h, h * 4, h * 2, "FLOAT32");
        gen_hdr_kernel(g, id, n, aic ? "aic" : "aiv", c);
    }
}

/* Opens a submit with the flags the codegen sets. */
static void qw_submit(gen *g, const char *label, const char *kernel, int block_num, bool early)
{
    gen_submit(g, label, kernel);
    gen_block_num(g, block_num);
    if (early)
        gen_lit(g, ", \"early_resolve\": true");
}

/* A whole-tensor view reshaped to [16, 40, 128] (ChipTensor::reshape). */
static void qw_heads(gen *g, const char *dir, const char *tensor)
{
    gen_sep(g);
    static const int64_t shape[3] = {QW_B, 40, QW_HD};
    gen_lit(g, "{\"dir\": \"");
    gen_put(g, dir);
    gen_lit(g, "\", \"tensor\": \"");
    gen_put(g, tensor);
    gen_lit(g, "\", \"shape\": ");
    gen_put_dims(g, 3, shape);
    gen_lit(g, "}");
}

/* What both variants share: the same model, so the same inputs, copies and MLP tail. */

/* The header's tensors: weights stacked per layer along dim 0, every layer's paged KV pool, the
 * codegen-time RoPE tables. */
static void dl_hdr_tensors(gen *g, int64_t L)
{
    int64_t hrows = L * QW_HID;
    gen_hdr_tensors(g);
    gen_hdr_tensor(g, "hidden_states", "BFLOAT16", QW_B, QW_HID);
    gen_hdr_tensor(g, "input_rms_weight", "FLOAT32", L, QW_HID);
    gen_hdr_tensor(g, "wq", "BFLOAT16", hrows, QW_HID);
    gen_hdr_tensor(g, "wk", "BFLOAT16", hrows, QW_KVH);
    gen_hdr_tensor(g, "wv", "BFLOAT16", hrows, QW_KVH);
    gen_hdr_tensor(g, "q_norm_weight", "FLOAT32", L, QW_HD);
    gen_hdr_tensor(g, "k_norm_weight", "FLOAT32", L, QW_HD);
    gen_hdr_tensor(g, "seq_lens", "INT32", QW_B, 0);
    gen_hdr_tensor(g, "block_table", "INT32", (int64_t)QW_B * QW_BLOCKS, 0);
    gen_hdr_tensor(g, "slot_mapping", "INT32", QW_B, 0);
    gen_hdr_tensor(g, "rope_cos", "FLOAT32", QW_MAX_SEQ, QW_HD);
    gen_hdr_tensor(g, "rope_sin", "FLOAT32", QW_MAX_SEQ, QW_HD);
    gen_hdr_tensor(g, "k_cache", "BFLOAT16", L * QW_CACHE_ROWS, QW_HD);
    gen_hdr_tensor(g, "v_cache", "BFLOAT16", L * QW_CACHE_ROWS, QW_HD);
    gen_hdr_tensor(g, "wo", "BFLOAT16", hrows, QW_HID);
    gen_hdr_tensor(g, "w_gate", "BFLOAT16", hrows, QW_INTER);
    gen_hdr_tensor(g, "w_up", "BFLOAT16", hrows, QW_INTER);
    gen_hdr_tensor(g, "w_down", "BFLOAT16", L * QW_INTER, QW_HID);
    gen_hdr_tensor(g, "post_rms_weight", "FLOAT32", L, QW_HID);
    gen_hdr_tensor(g, "out", "BFLOAT16", QW_B, QW_HID);
    gen_hdr_end(g);
}

/* copy_hidden and copy_out: all of one [16, 5120] tensor into an existing one. */
static void dl_copy(gen *g, const char *label, const char *kernel, const char *dst, const char *src)
{
    gen_submit(g, label, kernel);
    gen_args_begin(g);
    gen_arg(g, "out_existing", dst, NULL);
    gen_arg(g, "in", src, NULL);
    gen_arg_int(g, 0);
    gen_args_end(g);
    gen_op_end(g);
}

/* The hidden state layer i writes: two names in turn, as each layer allocates its output and
 * the next one reads it under that name. */
static const char *dl_hidden(int64_t i)
{
    return i % 2 ? "hidden_b" : "hidden_a";
}

/* copy_out in a scope of its own, from the last layer's output. */
static void dl_copy_out(gen *g, int64_t L)
{
    gen_scope_begin(g, 6, false);
    dl_copy(g, NULL, "copy_out", "out", dl_hidden(L - 1));
    gen_scope_end(g);
}

/* The label what<i>: most tasks of the manual scopes are numbered so. */
static void label_num(char *buf, size_t n, const char *what, int i)
{
    gen_cat_int(buf, n, gen_cat(buf, n, 0, what), i);
}

/* Explicit deps on what<lo> .. what<hi - 1>. */
static void dep_numbered(gen *g, int *nd, const char *what, int lo, int hi)
{
    char l[32];
    for (int i = lo; i < hi; i++) {
        label_num(l, sizeof(l), what, i);
        gen_dep(g, nd, l);
    }
}

/* The label of the task that ran out_proj unit u: out<u>, but units from `direct` on are one
 * SPMD task, out_direct (qwen3_14b_decode; fa_fused runs all 50 as tasks of their own). */
static void dl_out_label(char *buf, size_t n, int u, int direct)
{
    if (u < direct)
        label_num(buf, n, "out", u);
    else
        gen_cat(buf, n, 0, "out_direct");
}

/* The label of gate_tids[t] or up_tids[t] (t = column tile x 5 + K split) in qwen3_14b_decode:
 * the first 6 tiles share one SPMD task per K split. fa_fused numbers all: label_num. */
static void qw_gu_label(char *buf, size_t n, const char *what, int t)
{
    if (t / QW_GU_SPLITS < QW_GU_SPMD_N)
        label_num(buf, n, what, t % QW_GU_SPLITS);
    else
        gen_cat_int(buf, n,
                    gen_cat(buf, n, gen_cat_int(buf, n, gen_cat(buf, n, 0, what), t / QW_GU_SPLITS), "_"),
                    t % QW_GU_SPLITS);
}

/* One out_proj unit u: 512 output columns (u / 5) x 1024 of K (u % 5). Its deps follow. */
static void dl_out_unit(gen *g, const char *label, int64_t hbase, int u)
{
    qw_submit(g, label, "out_proj", 1, false);
    gen_args_begin(g);
    gen_arg(g, "in", "attn_out", NULL);
    gen_arg(g, "in", "wo", NULL);
    gen_arg(g, "inout", "attn_proj_fp32", NULL);
    gen_arg_int(g, (u % 5) * 1024);
    gen_arg_int(g, hbase);
    gen_arg_int(g, (u / 5) * 512);
    gen_args_end(g);
}

/* Residual + post norm per 1024 columns, each after the 10 out_proj units of its columns, then
 * post_rms_reduce after all 50. cast_kernels: the variant's 5 residual_rms_cast kernels;
 * out_direct as in dl_out_label; early: qwen3_14b_decode resolves its casts early. */
static void dl_post_norm(gen *g, int64_t i, const char *cur, const char *const *cast_kernels, int out_direct,
                         bool early)
{
    char l[32];
    int nd;
    for (int k = 0; k < 5; k++) {
        label_num(l, sizeof(l), "cast", k);
        qw_submit(g, l, cast_kernels[k], 1, early);
        gen_args_begin(g);
        gen_arg(g, "inout", "mlp_norm_in", NULL);
        gen_arg(g, "inout", "post_norm_partial", NULL);
        gen_arg(g, "in", "attn_proj_fp32", NULL);
        gen_arg(g, "in", cur, NULL);
        gen_arg(g, "in", "post_rms_weight", NULL);
        gen_arg_int(g, k * 1024);
        gen_arg_int(g, i);
        gen_args_end(g);
        nd = 0;
        for (int u = 10 * k; u < 10 * k + 10; u++) {
            dl_out_label(l, sizeof(l), u, out_direct);
            gen_dep(g, &nd, l);
        }
        gen_deps_end(g, nd);
        gen_op_end(g);
    }
    qw_submit(g, "reduce", "post_rms_reduce", 1, false);
    gen_args_begin(g);
    gen_arg(g, "in", "attn_proj_fp32", NULL);
    gen_arg(g, "in", cur, NULL);
    gen_arg(g, "inout", "inv_rms_tile", NULL);
    gen_args_end(g);
    nd = 0;
    for (int u = 0; u < QW_OUT_UNITS; u++) {
        dl_out_label(l, sizeof(l), u, out_direct);
        gen_dep(g, &nd, l);
    }
    gen_deps_end(g, nd);
    gen_op_end(g);
}

/* A gate (gu 0) or up (gu 1) projection over K split k and column tile n; n < 0 for an SPMD
 * task whose blocks take the column tiles. Its deps follow. */
static void dl_gate_up(gen *g, const char *label, const char *kernel, int block_num, int gu, int k,
                       int64_t hbase, int n)
{
    qw_submit(g, label, kernel, block_num, false);
    gen_args_begin(g);
    gen_arg(g, "in", "mlp_norm_in", NULL);
    gen_arg(g, "in", gu ? "w_up" : "w_gate", NULL);
    gen_arg(g, "inout", gu ? "up_acc_all" : "gate_acc_all", NULL);
    gen_arg_int(g, k * 1024);
    gen_arg_int(g, hbase);
    if (n >= 0)
        gen_arg_int(g, n * 1024);
    gen_args_end(g);
}

/* silu per column tile, after the post norm and its 5 gate and 5 up splits, labelled by gu_label. */
static void dl_silu(gen *g, void (*gu_label)(char *, size_t, const char *, int))
{
    char l[32];
    for (int n = 0; n < QW_GU_N; n++) {
        label_num(l, sizeof(l), "silu", n);
        qw_submit(g, l, "silu", 1, false);
        gen_args_begin(g);
        gen_arg(g, "in", "inv_rms_tile", NULL);
        gen_arg(g, "inout", "mlp_tile", NULL);
        gen_arg(g, "in", "gate_acc_all", NULL);
        gen_arg(g, "in", "up_acc_all", NULL);
        gen_arg_int(g, n * 1024);
        gen_args_end(g);
        int nd = 0;
        gen_dep(g, &nd, "reduce");
        for (int gu = 0; gu < 2; gu++)
            for (int k = 0; k < QW_GU_SPLITS; k++) {
                gu_label(l, sizeof(l), gu ? "up" : "gate", n * QW_GU_SPLITS + k);
                gen_dep(g, &nd, l);
            }
        gen_deps_end(g, nd);
        gen_op_end(g);
    }
}

/* down: 5 output tiles x 17 K splits, each after the silu of its K split, and after `seed` when
 * not NULL (fa_fused seeds the accumulator in the layer scope). early as in dl_post_norm. */
static void dl_down(gen *g, int64_t i, const char *seed, bool early)
{
    char l[32];
    for (int n = 0; n < QW_GU_SPLITS; n++)
        for (int k = 0; k < QW_GU_N; k++) {
            label_num(l, sizeof(l), "down", n * QW_GU_N + k);
            qw_submit(g, l, "down_proj", 1, early);
            gen_args_begin(g);
            gen_arg(g, "in", "mlp_tile", NULL);
            gen_arg(g, "in", "w_down", NULL);
            gen_arg(g, "inout", "down_acc_all", NULL);
            gen_arg_int(g, k * 1024);
            gen_arg_int(g, i * QW_INTER);
            gen_arg_int(g, n * 1024);
            gen_args_end(g);
            int nd = 0;
            if (seed)
                gen_dep(g, &nd, seed);
            label_num(l, sizeof(l), "silu", k);
            gen_dep(g, &nd, l);
            gen_deps_end(g, nd);
            gen_op_end(g);
        }
}

/* One layer's manual scope: everything from the phase fence to the down projections. */
static void qw_layer_manual(gen *g, int64_t i, int64_t acn, const char *prev_normed, const char *cur,
                            const char *normed)
{
    char l[32], l2[32];
    int nd = 0;
    int64_t hbase = i * QW_HID;
    gview qn = gen_v2(1, QW_HD, i, 0); /* this layer's row of the q/k norm weights */
    gen_scope_begin(g, 5, true);
    gen_put(g, "{\"op\": \"dummy\", \"id\": \"fence\"}\n");
    qw_submit(g, "attn_seed", "attn_out_seed", 1, true);
    gen_args_begin(g);
    gen_arg(g, "in", "attn_out", NULL);
    gen_args_end(g);
    gen_op_end(g);
    qw_submit(g, "rms", "rms_recip", 1, true);
    gen_args_begin(g);
    gen_arg(g, "in", cur, NULL);
    gen_arg(g, "inout", "inv_rms_states", NULL);
    gen_args_end(g);
    gen_deps_of(g, 2, prev_normed, "fence");
    gen_op_end(g);
    qw_submit(g, "q_seed", "q_seed", 1, true);
    gen_args_begin(g);
    gen_arg(g, "inout", "q_proj", NULL);
    gen_args_end(g);
    gen_op_end(g);
    qw_submit(g, "q_proj", "q_proj", 50, true);
    gen_args_begin(g);
    gen_arg(g, "inout", "q_proj", NULL);
    gen_arg(g, "in", normed, NULL);
    gen_arg(g, "in", "wq", NULL);
    gen_arg_int(g, hbase);
    gen_args_end(g);
    gen_deps_of(g, 2, prev_normed, "q_seed");
    gen_op_end(g);
    qw_submit(g, "kv_seed", "kv_seed", 1, false);
    gen_args_begin(g);
    gen_arg(g, "inout", "k_proj", NULL);
    gen_arg(g, "inout", "v_proj", NULL);
    gen_args_end(g);
    gen_deps_of(g, 2, prev_normed, "fence");
    gen_op_end(g);
    qw_submit(g, "mlp_seed", "mlp_out_seed", 1, true);
    gen_args_begin(g);
    gen_arg(g, "inout", "down_acc_all", NULL);
    gen_arg(g, "inout", "gate_acc_all", NULL);
    gen_arg(g, "inout", "up_acc_all", NULL);
    gen_arg(g, "inout", "attn_proj_fp32", NULL);
    gen_args_end(g);
    gen_deps_of(g, 2, prev_normed, "fence");
    gen_op_end(g);
    for (int kv = 0; kv < 2; kv++) {
        const char *what = kv ? "v_proj" : "k_proj";
        qw_submit(g, what, what, 10, true);
        gen_args_begin(g);
        gen_arg(g, "inout", what, NULL);
        gen_arg(g, "in", normed, NULL);
        gen_arg(g, "in", kv ? "wv" : "wk", NULL);
        gen_arg_int(g, hbase);
        gen_args_end(g);
        gen_deps_of(g, 1, "kv_seed");
        gen_op_end(g);
    }

    /* attention: one MIX task, all blocks started together */
    gen_lit(g, "{\"op\": \"submit\", \"id\": \"attn\", \"kernels\": [\"");
    gen_put(g, QW_KERNELS[11]);
    gen_lit(g, "\", \"");
    gen_put(g, QW_KERNELS[12]);
    gen_lit(g, "\", \"");
    gen_put(g, QW_KERNELS[12]);
    gen_lit(g, "\"], \"block_num\": ");
    gen_int(g, acn);
    gen_lit(g, ", \"sync_start\": true, \"early_resolve\": true");
    gen_args_begin(g);
    qw_heads(g, "inout", "attn_out");
    qw_heads(g, "inout", "q_tnd_flat");
    gen_arg(g, "inout", "k_cache", NULL);
    gen_arg(g, "inout", "v_cache", NULL);
    gen_arg(g, "in", "block_table", NULL);
    gen_arg(g, "inout", "pa_workspace", NULL);
    gen_arg(g, "inout", "pa_metadata", NULL);
    gen_arg(g, "in", "q_proj", NULL);
    gen_arg(g, "in", "k_proj", NULL);
    gen_arg(g, "in", "v_proj", NULL);
    gen_arg(g, "in", "q_norm_weight", &qn);
    gen_arg(g, "in", "k_norm_weight", &qn);
    gen_arg(g, "in", "rope_cos", NULL);
    gen_arg(g, "in", "rope_sin", NULL);
    gen_arg(g, "in", "inv_rms_states", NULL);
    gen_arg(g, "in", "slot_mapping", NULL);
    gen_arg(g, "in", "seq_lens", NULL);
    gen_arg_int(g, i * QW_CACHE_ROWS);
    gen_args_end(g);
    nd = 0;
    static const char *const attn_deps[] = {"q_proj", "k_proj",    "v_proj",  "rms",
                                            "tiling", "attn_seed", "mlp_seed"};
    for (size_t k = 0; k < sizeof(attn_deps) / sizeof(attn_deps[0]); k++)
        gen_dep(g, &nd, attn_deps[k]);
    gen_deps_end(g, nd);
    gen_op_end(g);

    /* out_proj: 26 units as single tasks behind a fence, the other 24 as one SPMD task */
    gen_put(g, "{\"op\": \"dummy\", \"id\": \"out_fence\", \"deps\": [\"attn\"]}\n");
    for (int u = 0; u < QW_OUT_DIRECT; u++) {
        label_num(l, sizeof(l), "out", u);
        dl_out_unit(g, l, hbase, u);
        gen_deps_of(g, 1, "out_fence");
        gen_op_end(g);
    }
    qw_submit(g, "out_direct", "out_proj_0", QW_OUT_UNITS - QW_OUT_DIRECT, false);
    gen_args_begin(g);
    gen_arg(g, "in", "attn_out", NULL);
    gen_arg(g, "in", "wo", NULL);
    gen_arg(g, "inout", "attn_proj_fp32", NULL);
    gen_arg_int(g, QW_OUT_DIRECT);
    gen_arg_int(g, hbase);
    gen_args_end(g);
    gen_deps_of(g, 1, "attn");
    gen_op_end(g);
    dl_post_norm(g, i, cur, &QW_KERNELS[15], QW_OUT_DIRECT, true);

    /* gate and up: per K split two fences and an SPMD task each over the first 6 column tiles */
    for (int k = 0; k < QW_GU_SPLITS; k++) {
        for (int gu = 0; gu < 2; gu++) {
            gen_lit(g, "{\"op\": \"dummy\", \"id\": \"");
            gen_put(g, gu ? "up" : "gate");
            gen_lit(g, "_late");
            gen_int(g, k);
            gen_lit(g, "\", \"deps\": [\"cast");
            gen_int(g, k);
            gen_lit(g, "\"]}\n");
        }
        for (int gu = 0; gu < 2; gu++) {
            label_num(l, sizeof(l), gu ? "up" : "gate", k);
            dl_gate_up(g, l, QW_KERNELS[(k ? 23 + 2 * (k - 1) : 21) + gu], QW_GU_SPMD_N, gu, k, hbase, -1);
            label_num(l2, sizeof(l2), "cast", k);
            gen_deps_of(g, 1, l2);
            gen_op_end(g);
        }
    }
    for (int n = QW_GU_SPMD_N; n < QW_GU_N; n++)
        for (int k = 0; k < QW_GU_SPLITS; k++)
            for (int gu = 0; gu < 2; gu++) {
                const char *what = gu ? "up" : "gate";
                qw_gu_label(l, sizeof(l), what, n * QW_GU_SPLITS + k);
                dl_gate_up(g, l, gu ? "up_proj_4" : "gate_proj_4", 1, gu, k, hbase, n);
                gen_cat_int(l2, sizeof(l2),
                            gen_cat(l2, sizeof(l2), gen_cat(l2, sizeof(l2), 0, what), "_late"), k);
                gen_deps_of(g, 1, l2);
                gen_op_end(g);
            }
    dl_silu(g, qw_gu_label);
    dl_down(g, i, NULL, true);
    gen_scope_end(g);
}

/* An alloc of named tensors: names[k] with dtypes[k] and shape [s0[k]] or [s0[k], s1[k]]. */
static void qw_alloc(gen *g, int n, const char *const *names, const char *const *dtypes, const int64_t *s0,
                     const int64_t *s1)
{
    gen_put(g, "{\"op\": \"alloc\", \"tensors\": [");
    for (int k = 0; k < n; k++) {
        int64_t d[2] = {s0[k], s1[k]};
        if (k)
            gen_lit(g, ", ");
        gen_lit(g, "{\"name\": \"");
        gen_put(g, names[k]);
        gen_lit(g, "\", \"dtype\": \"");
        gen_put(g, dtypes[k]);
        gen_lit(g, "\", \"shape\": ");
        gen_put_dims(g, s1[k] ? 2 : 1, d);
        gen_put(g, "}");
    }
    gen_put(g, "]}\n");
}

static void emit_qwen3(gen *g)
{
    int64_t L = g->v[DL_L].i, seq = g->v[DL_S].i, acn = g->v[DL_ACN].i;
    gen_hdr_begin(g, "decode_fwd_layers");
    qw_kernels(g, seq, acn);
    dl_hdr_tensors(g, L);

    gen_scope_begin(g, 1, false);
    {
        static const char *const n[] = {"pa_metadata", "pa_workspace", "cur0", "normed0"};
        static const char *const d[] = {"UINT8", "UINT8", "FLOAT32", "BFLOAT16"};
        static const int64_t s0[] = {QW_META, QW_WS, QW_B, QW_B}, s1[] = {0, 0, QW_HID, QW_HID};
        qw_alloc(g, 4, n, d, s0, s1);
    }
    qw_submit(g, "tiling", "paged_attention_tiling_cce", 1, true);
    gen_args_begin(g);
    gen_arg(g, "in", "seq_lens", NULL);
    gen_arg(g, "out_existing", "pa_metadata", NULL);
    gen_arg_scalar(g, "43", "INT32");  /* pa_max_blocks: block_table entries / 16 */
    gen_arg_scalar(g, "688", "INT32"); /* pa_num_pages: one layer's pool rows / 1024 */
    gen_args_end(g);
    gen_op_end(g);
    gen_put(g, "{\"op\": \"dummy\"}\n"); /* phase fence 0: nothing depends on it */
    gen_scope_begin(g, 2, false);
    dl_copy(g, "copy_hidden", "copy_hidden", "cur0", "hidden_states");
    gen_scope_end(g);
    gen_scope_begin(g, 3, true);
    qw_submit(g, "xgamma", "x_gamma0", 5, true);
    gen_args_begin(g);
    gen_arg(g, "out_existing", "normed0", NULL);
    gen_arg(g, "in", "cur0", NULL);
    gen_arg(g, "in", "input_rms_weight", NULL);
    gen_args_end(g);
    gen_put(g, ", \"deps\": [\"copy_hidden\"]");
    gen_op_end(g);
    gen_scope_end(g);

    /* the layer's input and output alternate between two names: an alloc
     * binds its outputs after the op, and dcr_xgamma reads one, writes the other */
    for (int64_t i = 0; i < L; i++) {
        const char *cur = i == 0 ? "cur0" : dl_hidden(i - 1), *next = dl_hidden(i);
        const char *normed = i == 0 ? "normed0" : i % 2 ? "normed_a" : "normed_b";
        const char *next_normed = i % 2 ? "normed_b" : "normed_a";
        gen_scope_begin(g, 4, false);
        {
            const char *const n[] = {next,     next_normed, "inv_rms_states", "q_proj",
                                     "k_proj", "v_proj",    "q_tnd_flat",     "attn_out"};
            static const char *const d[] = {"FLOAT32", "BFLOAT16", "FLOAT32",  "FLOAT32",
                                            "FLOAT32", "FLOAT32",  "BFLOAT16", "BFLOAT16"};
            static const int64_t s0[] = {QW_B, QW_B, QW_B, QW_B, QW_B, QW_B, 640, QW_B};
            static const int64_t s1[] = {QW_HID, QW_HID, 1, QW_HID, QW_KVH, QW_KVH, QW_HD, QW_HID};
            qw_alloc(g, 8, n, d, s0, s1);
        }
        {
            static const char *const n[] = {"down_acc_all",   "gate_acc_all",      "up_acc_all",
                                            "attn_proj_fp32", "post_norm_partial", "mlp_norm_in",
                                            "inv_rms_tile",   "mlp_tile"};
            static const char *const d[] = {"FLOAT32", "FLOAT32",  "FLOAT32", "FLOAT32",
                                            "FLOAT32", "BFLOAT16", "FLOAT32", "BFLOAT16"};
            static const int64_t s0[] = {QW_B, QW_B, QW_B, QW_B, QW_B, QW_B, QW_B, QW_B};
            static const int64_t s1[] = {QW_HID, QW_INTER, QW_INTER, QW_HID, QW_HID, QW_HID, 1, QW_INTER};
            qw_alloc(g, 8, n, d, s0, s1);
        }
        qw_layer_manual(g, i, acn, i == 0 ? "xgamma" : "dcr", cur, normed);
        qw_submit(g, "dcr", "dcr_xgamma", 5, true);
        gen_args_begin(g);
        gen_arg(g, "in", "down_acc_all", NULL);
        gen_arg(g, "in", "post_norm_partial", NULL);
        gen_arg(g, "inout", next, NULL);
        gen_arg(g, "in", "input_rms_weight", NULL);
        gen_arg(g, "inout", next_normed, NULL);
        gen_arg_int(g, gen_min64(i + 1, L - 1));
        gen_args_end(g);
        int nd = 0;
        dep_numbered(g, &nd, "down", 0, QW_GU_SPLITS * QW_GU_N);
        gen_deps_end(g, nd);
        gen_op_end(g);
        gen_scope_end(g);
    }
    dl_copy_out(g, L);
    gen_scope_end(g);
}

/* The fa_fused variant: the kernel set the runtime's qwen3_14b_decode example
 * had before its attention became one CANN extern, and on which the runtime's
 * published decode-layer silicon figures were measured (its 2-layer
 * StressBatch16Seq3500 is the 1088 AICore tasks of the switch study, 2 x 543
 * + copy_hidden + copy_out): hw-native-sys/simpler
 * examples/a2a3/tensormap_and_ringbuffer/qwen3_14b_decode/kernels/orchestration/
 * decode_fwd_layers.cpp as of commit b6c9b5b (pypto codegen, batch 16, MAX_SEQ
 * 5500). Per layer a scope with two allocs; the norms, projections and
 * attention in the layer scope, wired by the TensorMap (SPMD x_gamma 5 blocks,
 * q_proj 40, k/v_proj 8, rope_qkv 16, the MIX fa_fused 24 and online_softmax
 * 48); out_proj to down_cast_residual in a manual scope chained by explicit
 * deps; out_consolidate in a scope of its own. Costs are per block, from the
 * shapes: the projections stream their weights (bf16) through MTE2, fa_fused
 * streams the KV cache. */

#define FA_BLOCK 128 /* KV tokens per fa_fused work item (688 items = 16 rows x 43 blocks of 128) */
#define FA_CORES 24  /* fa_fused blocks */
#define FA_SM 48     /* online_softmax blocks: 3 per batch row */

static const char *const FA_KERNELS[] = {
    "copy_hidden",
    "x_gamma",
    "rms_recip",
    "q_seed",
    "q_proj",
    "k_seed",
    "k_proj",
    "v_seed",
    "v_proj",
    "fa_work_build",
    "qk_gamma",
    "qk_recip",
    "rope_qkv",
    "down_seed",
    "gate_seed",
    "up_seed",
    "fa_fused_aic",
    "fa_fused_aiv",
    "online_softmax",
    "out_seed",
    "attn_fence",
    "out_proj",
    "residual_rms_cast",
    "residual_rms_cast_0",
    "residual_rms_cast_1",
    "residual_rms_cast_2",
    "residual_rms_cast_3",
    "post_rms_reduce",
    "gate_proj",
    "up_proj",
    "silu",
    "down_proj",
    "down_cast_residual",
    "out_consolidate",
    "copy_out",
};

/* The kernel table, func ids as in the example's CALLABLE at that commit; costs are one block's. */
static void fa_kernels(gen *g, int64_t seq)
{
    char c[COST_MAX];
    int64_t h = (int64_t)QW_B * QW_HID, col = (int64_t)QW_B * 1024, kv = (int64_t)QW_B * QW_KVH;
    int64_t it = (int64_t)QW_B * QW_INTER, qk = (int64_t)QW_B * (QW_HID + QW_KVH);
    /* fa_fused: 16 rows x ceil(seq / 128) work items over 24 blocks; per item and KV head a QK and a PV
     * of 5 query heads against 128 tokens, each loading a 128 x 128 K or V tile */
    int64_t items = gen_ceil_div((int64_t)QW_B * gen_ceil_div(seq, FA_BLOCK), FA_CORES);
    /* online_softmax: a third of a row's heads per block, merging every work item's partial output */
    int64_t merge = gen_ceil_div(gen_ceil_div(seq, FA_BLOCK) * FA_BLOCK * QW_HD * 4 * 3, 3);
    for (int id = 0; id < (int)(sizeof(FA_KERNELS) / sizeof(FA_KERNELS[0])); id++) {
        const char *n = FA_KERNELS[id];
        bool aic = strstr(n, "proj") || !strcmp(n, "fa_fused_aic");
        if (!strcmp(n, "q_proj") || !strcmp(n, "k_proj") || !strcmp(n, "v_proj"))
            gen_cost_mm(c, QW_B, 128, QW_HID, 1, 2, 4, "BFLOAT16"); /* 128 columns of the output, all of K */
        else if (!strcmp(n, "out_proj"))
            gen_cost_mm(c, QW_B, 512, 1024, 1, 2, 4, "BFLOAT16");
        else if (aic && strcmp(n, "fa_fused_aic") != 0)
            gen_cost_mm(c, QW_B, 1024, 1024, 1, 2, 4, "BFLOAT16"); /* gate, up, down: 1024 x 1024 units */
        else if (!strcmp(n, "fa_fused_aic"))
            gen_cost_mm(c, QW_HID / QW_HD / 8, FA_BLOCK, QW_HD, 2 * 8 * items, 2, 4, "BFLOAT16");
        else if (!strcmp(n, "fa_fused_aiv")) {
            /* the AIVs run the softmax between the cube's QK and PV through gm_pipe_buffer_0, so the
             * cube paces them: per QK/PV pair they read the scores and wait on MTE2 as long as the AIC
             * streams its two K/V tiles, and write the probabilities back */
            int64_t tile = gen_ceil_div((QW_HID / QW_HD / 8 + FA_BLOCK) * QW_HD * 2, 32);
            snprintf(c, COST_MAX,
                     "{\"tiles\": %" PRId64 ", \"buffers\": 2, \"mte2\": {\"bytes\": %d, \"cycles\": %" PRId64
                     "}, \"vector\": {\"elems\": %d, \"dtype\": \"FLOAT32\"}, \"mte3\": {\"bytes\": %d}}",
                     8 * items, 5 * FA_BLOCK * 4, 2 * tile, 5 * FA_BLOCK, 5 * FA_BLOCK * 2);
        } else if (!strcmp(n, "online_softmax"))
            gen_cost_vec(c, merge / 4, merge, h / QW_B / 3 * 2, "FLOAT32");
        else if (!strcmp(n, "copy_hidden") || !strcmp(n, "out_consolidate") || !strcmp(n, "copy_out"))
            gen_cost_vec(c, h, h * 2, h * 2, "FLOAT32");
        else if (!strcmp(n, "x_gamma")) /* 5 blocks of 1024 columns */
            gen_cost_vec(c, col, col * 2 + 1024 * 4, col * 2, "FLOAT32");
        else if (!strcmp(n, "rms_recip"))
            gen_cost_vec(c, h, h * 2, QW_B * 4, "FLOAT32");
        else if (!strcmp(n, "q_seed") || !strcmp(n, "down_seed") || !strcmp(n, "out_seed"))
            gen_cost_vec(c, h, 0, h * 4, "FLOAT32");
        else if (!strcmp(n, "k_seed") || !strcmp(n, "v_seed"))
            gen_cost_vec(c, kv, 0, kv * 4, "FLOAT32");
        else if (!strcmp(n, "gate_seed") || !strcmp(n, "up_seed"))
            gen_cost_vec(c, it, 0, it * 4, "FLOAT32");
        else if (!strcmp(n, "fa_work_build"))
            gen_cost_vec(c, 688, QW_B * 4, 688 * 4 + 4, "FLOAT32");
        else if (!strcmp(n, "qk_gamma"))
            gen_cost_vec(c, qk, qk * 4 + 2 * QW_HD * 4 + QW_B * 4, qk * 4, "FLOAT32");
        else if (!strcmp(n, "qk_recip"))
            gen_cost_vec(c, qk, qk * 4 + QW_B * 4, (640 + 128) * 4, "FLOAT32");
        else if (!strcmp(n, "rope_qkv")) /* one batch row: q, k, v in, the padded q and the new token out */
            gen_cost_vec(c, QW_HID + 2 * QW_KVH, (QW_HID + 2 * QW_KVH) * 4 + 2 * QW_HD * 4,
                         128 * QW_HD * 2 + 2 * QW_KVH * 2, "FLOAT32");
        else if (!strcmp(n, "attn_fence"))
            gen_cost_vec(c, h, h * 2, QW_B * 4, "FLOAT32");
        else if (strstr(n, "residual_rms_cast")) /* 1024 columns: the residual add, two casts */
            gen_cost_vec(c, col, col * 6 + 1024 * 4, col * 4, "FLOAT32");
        else if (!strcmp(n, "post_rms_reduce"))
            gen_cost_vec(c, h, h * 6, QW_B * 4, "FLOAT32");
        else if (!strcmp(n, "silu"))
            gen_cost_vec(c, col, col * 8 + QW_B * 4, col * 2, "FLOAT32");
        else /* down_cast_residual */
            gen_cost_vec(c, col, col * 6, col * 2, "FLOAT32");
        gen_hdr_kernel(g, id, n, aic ? "aic" : "aiv", c);
    }
}

/* One layer: the auto part (norms, projections, attention), the manual scope, out_consolidate. */
static void fa_layer(gen *g, int64_t i, int64_t L, const char *cur, const char *next)
{
    char l[32], l2[32];
    int nd;
    int64_t hbase = i * QW_HID;
    gview qn = gen_v2(1, QW_HD, i, 0); /* this layer's row of the q/k norm weights */
    gen_scope_begin(g, 2, false);
    {
        static const char *const n[] = {"normed_states", "out_partial", "inv_rms_states", "q_proj",
                                        "k_proj",        "v_proj",      "all_q_padded",   "attn_out",
                                        "all_oi_tmp",    "all_cur_mi",  "all_cur_li",     "fa_work_table",
                                        "fa_total",      "q_proj_norm", "k_proj_norm"};
        static const char *const d[] = {"BFLOAT16", "BFLOAT16", "FLOAT32",  "FLOAT32", "FLOAT32",
                                        "FLOAT32",  "BFLOAT16", "BFLOAT16", "FLOAT32", "FLOAT32",
                                        "FLOAT32",  "INT32",    "INT32",    "FLOAT32", "FLOAT32"};
        static const int64_t s0[] = {QW_B,  QW_B,  QW_B,  QW_B, QW_B, QW_B, 2048, QW_B,
                                     88064, 88064, 88064, 688,  1,    QW_B, QW_B};
        static const int64_t s1[] = {QW_HID, QW_HID, 1, QW_HID, QW_KVH, QW_KVH, QW_HD, QW_HID,
                                     QW_HD,  1,      1, 1,      1,      QW_HID, QW_KVH};
        /* next_hidden first: it keeps its own name so the next layer reads it */
        const char *names[16] = {next};
        const char *dt[16] = {"BFLOAT16"};
        int64_t a0[16] = {QW_B}, a1[16] = {QW_HID};
        for (int k = 0; k < 15; k++) {
            names[k + 1] = n[k];
            dt[k + 1] = d[k];
            a0[k + 1] = s0[k];
            a1[k + 1] = s1[k];
        }
        qw_alloc(g, 16, names, dt, a0, a1);
    }
    {
        static const char *const n[] = {"q_inv_states",   "k_inv_states",      "down_acc_all",
                                        "gate_acc_all",   "up_acc_all",        "gm_pipe_buffer_0",
                                        "attn_proj_fp32", "post_norm_partial", "mlp_norm_in",
                                        "inv_rms_tile",   "mlp_tile",          "attn_fence_dummy"};
        static const char *const d[] = {"FLOAT32", "FLOAT32",  "FLOAT32",  "FLOAT32", "FLOAT32",  "FLOAT32",
                                        "FLOAT32", "BFLOAT16", "BFLOAT16", "FLOAT32", "BFLOAT16", "FLOAT32"};
        static const int64_t s0[] = {640,  128,  QW_B, QW_B, QW_B, 8192 * FA_CORES,
                                     QW_B, QW_B, QW_B, QW_B, QW_B, QW_B};
        static const int64_t s1[] = {1,      1,      QW_HID, QW_INTER, QW_INTER, 0,
                                     QW_HID, QW_HID, QW_HID, 1,        QW_INTER, 1};
        qw_alloc(g, 12, n, d, s0, s1);
    }
    qw_submit(g, NULL, "x_gamma", 5, false);
    gen_args_begin(g);
    gen_arg(g, "inout", "normed_states", NULL);
    gen_arg(g, "in", cur, NULL);
    gen_arg(g, "in", "input_rms_weight", NULL);
    gen_arg_int(g, i);
    gen_args_end(g);
    gen_op_end(g);
    qw_submit(g, NULL, "rms_recip", 1, false);
    gen_args_begin(g);
    gen_arg(g, "in", cur, NULL);
    gen_arg(g, "inout", "inv_rms_states", NULL);
    gen_args_end(g);
    gen_op_end(g);
    static const char *const seed[3] = {"q_seed", "k_seed", "v_seed"},
                             *proj[3] = {"q_proj", "k_proj", "v_proj"};
    static const char *const w[3] = {"wq", "wk", "wv"};
    for (int k = 0; k < 3; k++) {
        qw_submit(g, NULL, seed[k], 1, false);
        gen_args_begin(g);
        gen_arg(g, "inout", proj[k], NULL);
        gen_args_end(g);
        gen_op_end(g);
        qw_submit(g, NULL, proj[k], k ? 8 : 40, false);
        gen_args_begin(g);
        gen_arg(g, "inout", proj[k], NULL);
        gen_arg(g, "in", "normed_states", NULL);
        gen_arg(g, "in", w[k], NULL);
        gen_arg_int(g, hbase);
        gen_args_end(g);
        gen_op_end(g);
    }
    qw_submit(g, NULL, "fa_work_build", 1, false);
    gen_args_begin(g);
    gen_arg(g, "in", "seq_lens", NULL);
    gen_arg(g, "inout", "fa_work_table", NULL);
    gen_arg(g, "inout", "fa_total", NULL);
    gen_args_end(g);
    gen_op_end(g);
    qw_submit(g, NULL, "qk_gamma", 1, false);
    gen_args_begin(g);
    gen_arg(g, "inout", "k_proj_norm", NULL);
    gen_arg(g, "inout", "q_proj_norm", NULL);
    gen_arg(g, "in", "q_proj", NULL);
    gen_arg(g, "in", "inv_rms_states", NULL);
    gen_arg(g, "in", "q_norm_weight", &qn);
    gen_arg(g, "in", "k_proj", NULL);
    gen_arg(g, "in", "k_norm_weight", &qn);
    gen_args_end(g);
    gen_op_end(g);
    qw_submit(g, NULL, "qk_recip", 1, false);
    gen_args_begin(g);
    gen_arg(g, "inout", "k_inv_states", NULL);
    gen_arg(g, "inout", "q_inv_states", NULL);
    gen_arg(g, "in", "q_proj", NULL);
    gen_arg(g, "in", "inv_rms_states", NULL);
    gen_arg(g, "in", "k_proj", NULL);
    gen_args_end(g);
    gen_op_end(g);
    qw_submit(g, NULL, "rope_qkv", QW_B, false);
    gen_args_begin(g);
    gen_arg(g, "in", "seq_lens", NULL);
    gen_arg(g, "in", "inv_rms_states", NULL);
    gen_arg(g, "in", "slot_mapping", NULL);
    gen_arg(g, "in", "rope_cos", NULL);
    gen_arg(g, "in", "rope_sin", NULL);
    gen_arg(g, "inout", "all_q_padded", NULL);
    gen_arg(g, "inout", "k_cache", NULL);
    gen_arg(g, "inout", "v_cache", NULL);
    gen_arg(g, "in", "k_inv_states", NULL);
    gen_arg(g, "in", "k_proj_norm", NULL);
    gen_arg(g, "in", "v_proj", NULL);
    gen_arg(g, "in", "q_inv_states", NULL);
    gen_arg(g, "in", "q_proj_norm", NULL);
    gen_arg_int(g, i * QW_CACHE_ROWS);
    gen_args_end(g);
    gen_op_end(g);
    static const char *const seeds[3] = {"down_seed", "gate_seed", "up_seed"};
    static const char *const accs[3] = {"down_acc_all", "gate_acc_all", "up_acc_all"};
    for (int k = 0; k < 3; k++) {
        qw_submit(g, seeds[k], seeds[k], 1, false);
        gen_args_begin(g);
        gen_arg(g, "inout", accs[k], NULL);
        gen_args_end(g);
        gen_op_end(g);
    }
    gen_submit_mix(g, "fa_fused_aic", "fa_fused_aiv", FA_CORES);
    gen_args_begin(g);
    gen_arg(g, "in", "fa_total", NULL);
    gen_arg(g, "inout", "all_cur_li", NULL);
    gen_arg(g, "inout", "all_cur_mi", NULL);
    gen_arg(g, "inout", "all_oi_tmp", NULL);
    gen_arg(g, "in", "fa_work_table", NULL);
    gen_arg(g, "in", "seq_lens", NULL);
    gen_arg(g, "in", "block_table", NULL);
    gen_arg(g, "in", "all_q_padded", NULL);
    gen_arg(g, "in", "k_cache", NULL);
    gen_arg(g, "in", "v_cache", NULL);
    gen_sep(g);
    gen_put(g, "{\"dir\": \"inout\", \"tensor\": \"gm_pipe_buffer_0\", \"manual_dep\": true}");
    gen_arg_int(g, QW_BLOCKS);
    gen_arg_int(g, i * QW_CACHE_ROWS);
    gen_args_end(g);
    gen_op_end(g);
    qw_submit(g, NULL, "online_softmax", FA_SM, false);
    gen_args_begin(g);
    gen_arg(g, "inout", "attn_out", NULL);
    gen_arg(g, "in", "seq_lens", NULL);
    gen_arg(g, "in", "all_oi_tmp", NULL);
    gen_arg(g, "in", "all_cur_mi", NULL);
    gen_arg(g, "in", "all_cur_li", NULL);
    gen_args_end(g);
    gen_op_end(g);
    qw_submit(g, "out_seed", "out_seed", 1, false);
    gen_args_begin(g);
    gen_arg(g, "inout", "attn_proj_fp32", NULL);
    gen_args_end(g);
    gen_op_end(g);
    qw_submit(g, "attn_done", "attn_fence", 1, false);
    gen_args_begin(g);
    gen_arg(g, "in", "attn_out", NULL);
    gen_arg(g, "inout", "attn_fence_dummy", NULL);
    gen_args_end(g);
    gen_op_end(g);

    /* the manual scope: explicit deps only */
    gen_scope_begin(g, 3, true);
    for (int u = 0; u < QW_OUT_UNITS; u++) {
        label_num(l, sizeof(l), "out", u);
        dl_out_unit(g, l, hbase, u);
        gen_deps_of(g, 2, "out_seed", "attn_done");
        gen_op_end(g);
    }
    dl_post_norm(g, i, cur, &FA_KERNELS[22], QW_OUT_UNITS, false);
    for (int n = 0; n < QW_GU_N; n++)
        for (int k = 0; k < QW_GU_SPLITS; k++)
            for (int gu = 0; gu < 2; gu++) {
                label_num(l, sizeof(l), gu ? "up" : "gate", n * QW_GU_SPLITS + k);
                dl_gate_up(g, l, gu ? "up_proj" : "gate_proj", 1, gu, k, hbase, n);
                label_num(l2, sizeof(l2), "cast", k);
                gen_deps_of(g, 2, l2, gu ? "up_seed" : "gate_seed");
                gen_op_end(g);
            }
    dl_silu(g, label_num);
    dl_down(g, i, "down_seed", false);
    for (int n = 0; n < QW_GU_SPLITS; n++) {
        label_num(l, sizeof(l), "dcr", n);
        qw_submit(g, l, "down_cast_residual", 1, false);
        gen_args_begin(g);
        gen_arg(g, "in", "post_norm_partial", NULL);
        gen_arg(g, "in", "down_acc_all", NULL);
        gen_arg(g, "inout", "out_partial", NULL);
        gen_arg_int(g, n * 1024);
        gen_args_end(g);
        nd = 0;
        dep_numbered(g, &nd, "down", n * QW_GU_N, (n + 1) * QW_GU_N);
        gen_deps_end(g, nd);
        gen_op_end(g);
    }
    gen_scope_end(g);
    gen_scope_begin(g, 4, false);
    qw_submit(g, NULL, "out_consolidate", 1, false);
    gen_args_begin(g);
    gen_arg(g, "inout", next, NULL);
    gen_arg(g, "in", "out_partial", NULL);
    gen_arg_int(g, 0);
    gen_args_end(g);
    nd = 0;
    dep_numbered(g, &nd, "dcr", 0, QW_GU_SPLITS);
    gen_deps_end(g, nd);
    gen_op_end(g);
    gen_scope_end(g);
    gen_scope_end(g);
    (void)L;
}

static void emit_decode_fa(gen *g)
{
    int64_t L = g->v[DL_L].i, seq = g->v[DL_S].i;
    gen_hdr_begin(g, "decode_fwd_layers");
    fa_kernels(g, seq);
    dl_hdr_tensors(g, L);

    gen_scope_begin(g, 1, false);
    {
        static const char *const n[] = {"cur"};
        static const char *const d[] = {"BFLOAT16"};
        static const int64_t s0[] = {QW_B}, s1[] = {QW_HID};
        qw_alloc(g, 1, n, d, s0, s1);
    }
    gen_scope_begin(g, 5, false);
    dl_copy(g, NULL, "copy_hidden", "cur", "hidden_states");
    gen_scope_end(g);
    /* each layer allocates its output; the next layer reads it under the same name */
    for (int64_t i = 0; i < L; i++) {
        fa_layer(g, i, L, i == 0 ? "cur" : dl_hidden(i - 1), dl_hidden(i));
    }
    dl_copy_out(g, L);
    gen_scope_end(g);
}

void gen_emit_decode(gen *g)
{
    if (!strcmp(g->v[DL_VAR].s, "qwen3_14b_decode"))
        emit_qwen3(g);
    else
        emit_decode_fa(g);
}
