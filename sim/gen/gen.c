/* gen.c - gen_: `ptosim gen`: the kinds with their parameters, help, parsing; the graph-writing helpers. */
#include "gen.h"
#include "gen_int.h"
#include "../../model/base/outfile.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../model/base/int_text.h"
#include "../../model/chip/pipe.h"
#include "../cli/cli.h"

#define GEN_MAX_PARAMS 12

/* ------------------------------------------------------------------ */
/* Parameters: a kind's options, declared once in its table           */
/* ------------------------------------------------------------------ */

/* How a parameter's value is read (its row's id). */
typedef enum { PT_INT, PT_REAL, PT_CHOICE, PT_TEXT } gen_ptype;

typedef struct gen_kind {
    /* its parameters as options: cmd is KIND, each row a --PARAM with its default as the meta (what --help
     * shows in the value's place), the range of a number or the choices of a PT_CHOICE; g->v[i] is the
     * value of row i */
    opt_table opts;
    const char *summary; /* one line for the kind list */
    const char *notes;   /* extra lines for `ptosim gen KIND --help`, or NULL */
    /* cross-parameter checks: writes "--param: what is wrong" and returns -1 */
    int (*check)(const gen_val *v, char *err, size_t len);
    void (*emit)(gen *g); /* writes the graph */
} gen_kind;

/* ------------------------------------------------------------------ */
/* Small helpers                                                       */
/* ------------------------------------------------------------------ */

int64_t gen_ceil_div(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

int64_t gen_min64(int64_t a, int64_t b)
{
    return a < b ? a : b;
}

int64_t gen_max64(int64_t a, int64_t b)
{
    return a > b ? a : b;
}

/* ------------------------------------------------------------------ */
/* JSON emission: every line is written as soon as it is known         */
/* ------------------------------------------------------------------ */

size_t gen_cat(char *buf, size_t n, size_t at, const char *s)
{
    size_t len = strlen(s);
    if (n && at < n) {
        size_t k = len < n - 1 - at ? len : n - 1 - at;
        memcpy(buf + at, s, k);
        buf[at + k] = '\0';
    }
    return at + len;
}

size_t gen_cat_int(char *buf, size_t n, size_t at, int64_t x)
{
    char d[24];
    *wbuf_sdec_at(d, x) = '\0';
    return gen_cat(buf, n, at, d);
}

/* Separator before the next item of the current list. */
void gen_sep(gen *g)
{
    if (g->nitems++)
        gen_lit(g, ", ");
}

void gen_put_dims(gen *g, int nd, const int64_t *d)
{
    gen_lit(g, "[");
    for (int i = 0; i < nd; i++) {
        if (i)
            gen_lit(g, ", ");
        gen_int(g, d[i]);
    }
    gen_lit(g, "]");
}

/* The parameter value as `ptosim gen` would print it back (once per graph: printf's %.15g stays). */
static void put_value(gen *g, const opt_def *p, const gen_val *v)
{
    if (p->id == PT_INT) {
        gen_int(g, v->i);
    } else if (p->id == PT_REAL) {
        char t[40];
        snprintf(t, sizeof(t), "%.15g", v->r);
        gen_put(g, t);
    } else {
        gen_put(g, v->s);
    }
}

/* Header up to the kernel list; the description records the full command. */
void gen_hdr_begin(gen *g, const char *orchestrator)
{
    const opt_table *t = &g->kd->opts;
    gen_lit(g, "{\"ptosim_graph\": 1, \"name\": \"gen_");
    gen_put(g, t->cmd);
    gen_lit(g, "\", \"description\": \"ptosim gen ");
    gen_put(g, t->cmd);
    for (int i = 0; i < t->nopts; i++) {
        gen_lit(g, " --");
        gen_put(g, t->opts[i].name);
        gen_lit(g, " ");
        put_value(g, &t->opts[i], &g->v[i]);
    }
    gen_lit(g, "\"");
    if (orchestrator) {
        gen_lit(g, ", \"orchestrator\": \"");
        gen_put(g, orchestrator);
        gen_lit(g, "\"");
    }
    gen_lit(g, ", \"kernels\": [");
    g->nitems = 0;
}

void gen_hdr_kernel(gen *g, int id, const char *name, const char *core, const char *cost)
{
    gen_sep(g);
    gen_lit(g, "{\"id\": ");
    gen_int(g, id);
    gen_lit(g, ", \"name\": \"");
    gen_put(g, name);
    gen_lit(g, "\", \"core\": \"");
    gen_put(g, core);
    gen_lit(g, "\", \"cost\": ");
    gen_put(g, cost);
    gen_lit(g, "}");
}

void gen_hdr_tensors(gen *g)
{
    gen_lit(g, "], \"tensors\": [");
    g->nitems = 0;
}

/* An external tensor of one (s1 == 0) or two dimensions. */
void gen_hdr_tensor(gen *g, const char *name, const char *dtype, int64_t s0, int64_t s1)
{
    int64_t d[2] = {s0, s1};
    gen_sep(g);
    gen_lit(g, "{\"name\": \"");
    gen_put(g, name);
    gen_lit(g, "\", \"dtype\": \"");
    gen_put(g, dtype);
    gen_lit(g, "\", \"shape\": ");
    gen_put_dims(g, s1 ? 2 : 1, d);
    gen_lit(g, "}");
}

void gen_hdr_end(gen *g)
{
    gen_lit(g, "]}\n");
}

void gen_scope_begin(gen *g, int site, bool manual)
{
    gen_lit(g, "{\"op\": \"scope_begin\", \"site\": \"gen_");
    gen_put(g, g->kd->opts.cmd);
    gen_lit(g, ":");
    gen_int(g, site);
    if (manual)
        gen_lit(g, "\", \"mode\": \"manual\"}\n");
    else
        gen_lit(g, "\"}\n");
}

void gen_scope_end(gen *g)
{
    gen_lit(g, "{\"op\": \"scope_end\"}\n");
}

/* Opens a submit of one kernel; label may be NULL. Finish with gen_op_end. */
void gen_submit(gen *g, const char *label, const char *kernel)
{
    gen_lit(g, "{\"op\": \"submit\"");
    if (label) {
        gen_lit(g, ", \"id\": \"");
        gen_put(g, label);
        gen_lit(g, "\"");
    }
    gen_lit(g, ", \"kernel\": \"");
    gen_put(g, kernel);
    gen_lit(g, "\"");
}

/* Opens a MIX submit: one AIC kernel and the same AIV kernel on both AIV slots. */
void gen_submit_mix(gen *g, const char *aic, const char *aiv, int block_num)
{
    gen_lit(g, "{\"op\": \"submit\", \"kernels\": [\"");
    gen_put(g, aic);
    gen_lit(g, "\", \"");
    gen_put(g, aiv);
    gen_lit(g, "\", \"");
    gen_put(g, aiv);
    gen_lit(g, "\"]");
    gen_block_num(g, block_num);
}

/* ", \"block_num\": N" when N > 1. */
void gen_block_num(gen *g, int64_t block_num)
{
    if (block_num > 1) {
        gen_lit(g, ", \"block_num\": ");
        gen_int(g, block_num);
    }
}

void gen_op_cost(gen *g, const char *cost)
{
    gen_lit(g, ", \"cost\": ");
    gen_put(g, cost);
}

void gen_op_end(gen *g)
{
    gen_lit(g, "}\n");
}

gview gen_v1(int64_t s0, int64_t o0)
{
    return (gview){1, {s0, 0}, {o0, 0}};
}

gview gen_v2(int64_t s0, int64_t s1, int64_t o0, int64_t o1)
{
    return (gview){2, {s0, s1}, {o0, o1}};
}

void gen_args_begin(gen *g)
{
    gen_lit(g, ", \"args\": [");
    g->nitems = 0;
}

void gen_args_end(gen *g)
{
    gen_lit(g, "]");
}

/* A tensor argument (in, inout, out_existing) on a view, or the whole tensor when v is NULL. */
void gen_arg(gen *g, const char *dir, const char *tensor, const gview *v)
{
    gen_sep(g);
    gen_lit(g, "{\"dir\": \"");
    gen_put(g, dir);
    gen_lit(g, "\", \"tensor\": \"");
    gen_put(g, tensor);
    gen_lit(g, "\"");
    if (v && v->nd) {
        gen_lit(g, ", \"shape\": ");
        gen_put_dims(g, v->nd, v->shape);
        gen_lit(g, ", \"offset\": ");
        gen_put_dims(g, v->nd, v->off);
    }
    gen_lit(g, "}");
}

/* An `out` argument: a new runtime buffer of one (s1 == 0) or two dimensions. */
void gen_arg_out(gen *g, const char *tensor, const char *dtype, int64_t s0, int64_t s1)
{
    int64_t d[2] = {s0, s1};
    gen_sep(g);
    gen_lit(g, "{\"dir\": \"out\", \"tensor\": \"");
    gen_put(g, tensor);
    gen_lit(g, "\", \"dtype\": \"");
    gen_put(g, dtype);
    gen_lit(g, "\", \"shape\": ");
    gen_put_dims(g, s1 ? 2 : 1, d);
    gen_lit(g, "}");
}

/* A scalar argument; value is its JSON text, dtype NULL for the default (UINT64). */
void gen_arg_scalar(gen *g, const char *value, const char *dtype)
{
    gen_sep(g);
    gen_lit(g, "{\"scalar\": ");
    gen_put(g, value);
    if (dtype) {
        gen_lit(g, ", \"dtype\": \"");
        gen_put(g, dtype);
        gen_lit(g, "\"");
    }
    gen_lit(g, "}");
}

/* A scalar argument given as an integer (UINT64). */
void gen_arg_int(gen *g, int64_t x)
{
    gen_sep(g);
    gen_lit(g, "{\"scalar\": ");
    gen_int(g, x);
    gen_lit(g, "}");
}

/* Explicit deps are written as they are decided: the first opens the list. */
void gen_dep(gen *g, int *ndeps, const char *label)
{
    if (*ndeps)
        gen_lit(g, ", \"");
    else
        gen_lit(g, ", \"deps\": [\"");
    gen_put(g, label);
    gen_lit(g, "\"");
    (*ndeps)++;
}

void gen_deps_end(gen *g, int ndeps)
{
    if (ndeps)
        gen_lit(g, "]");
}

/* A task's whole list of explicit deps: n labels (const char *). */
void gen_deps_of(gen *g, int n, ...)
{
    va_list ap;
    int nd = 0;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        gen_dep(g, &nd, va_arg(ap, const char *));
    va_end(ap);
    gen_deps_end(g, nd);
}

/* ------------------------------------------------------------------ */
/* Pipe-form costs                                                      */
/* ------------------------------------------------------------------ */

/* An m x n x k matmul on the AIC, `reps` times over: balanced tiles of at
 * most 128 x 128 x 256, so two buffers of A and B tiles always fit L1 even
 * at 4 bytes per element (2 x (128 x 256 + 128 x 256) x 4 = 512 KiB). Each
 * tile loads its A and B parts (decode re-reads the small activation, as
 * the kernels do); the output leaves through FIXPIPE once. */
void gen_cost_mm(char *buf, int64_t m, int64_t n, int64_t k, int64_t reps, int in_bytes, int out_bytes,
                 const char *dtype)
{
    int64_t tm = gen_ceil_div(m, 128), tn = gen_ceil_div(n, 128), tk = gen_ceil_div(k, 256);
    int64_t mt = gen_ceil_div(m, tm), nt = gen_ceil_div(n, tn), kt = gen_ceil_div(k, tk);
    int64_t tiles = tm * tn * tk * reps;
    int64_t fix = gen_ceil_div(m * n * out_bytes * reps, tiles);
    size_t at = gen_cat_int(buf, COST_MAX, gen_cat(buf, COST_MAX, 0, "{\"tiles\": "), tiles);
    at = gen_cat(buf, COST_MAX, at, ", \"buffers\": 2, \"mte2\": {\"bytes\": ");
    at = gen_cat_int(buf, COST_MAX, at, (mt + nt) * kt * in_bytes);
    at = gen_cat(buf, COST_MAX, at, "}, \"mte1\": {\"bytes\": ");
    at = gen_cat_int(buf, COST_MAX, at, (mt + nt) * kt * in_bytes);
    at = gen_cat(buf, COST_MAX, at, "}, \"cube\": {\"m\": ");
    at = gen_cat_int(buf, COST_MAX, at, mt);
    at = gen_cat(buf, COST_MAX, at, ", \"n\": ");
    at = gen_cat_int(buf, COST_MAX, at, nt);
    at = gen_cat(buf, COST_MAX, at, ", \"k\": ");
    at = gen_cat_int(buf, COST_MAX, at, kt);
    at = gen_cat(buf, COST_MAX, at, ", \"dtype\": \"");
    at = gen_cat(buf, COST_MAX, at, dtype);
    at = gen_cat(buf, COST_MAX, at, "\"}, \"fixpipe\": {\"bytes\": ");
    at = gen_cat_int(buf, COST_MAX, at, fix);
    gen_cat(buf, COST_MAX, at, "}}");
}

/* A vector pass over elems elements on the AIV that reads in_bytes and
 * writes out_bytes in all: tiles of at most 4096 elements, and enough of
 * them that two buffers of a tile's input and output fit the UB. */
void gen_cost_vec(char *buf, int64_t elems, int64_t in_bytes, int64_t out_bytes, const char *dtype)
{
    int64_t tiles = gen_max64(gen_max64(1, gen_ceil_div(elems, 4096)),
                              gen_ceil_div(2 * (in_bytes + out_bytes), PIPE_UB_BYTES));
    /* per-tile rounding may still need one more */
    while (2 * (gen_ceil_div(in_bytes, tiles) + gen_ceil_div(out_bytes, tiles)) > (int64_t)PIPE_UB_BYTES)
        tiles++;
    size_t n = gen_cat_int(buf, COST_MAX, gen_cat(buf, COST_MAX, 0, "{\"tiles\": "), tiles);
    n = gen_cat(buf, COST_MAX, n, ", \"buffers\": 2");
    if (in_bytes) {
        n = gen_cat(buf, COST_MAX, n, ", \"mte2\": {\"bytes\": ");
        n = gen_cat(buf, COST_MAX, gen_cat_int(buf, COST_MAX, n, gen_ceil_div(in_bytes, tiles)), "}");
    }
    n = gen_cat(buf, COST_MAX, n, ", \"vector\": {\"elems\": ");
    n = gen_cat_int(buf, COST_MAX, n, gen_ceil_div(elems, tiles));
    n = gen_cat(buf, COST_MAX, n, ", \"dtype\": \"");
    n = gen_cat(buf, COST_MAX, gen_cat(buf, COST_MAX, n, dtype), "\"}");
    if (out_bytes) {
        n = gen_cat(buf, COST_MAX, n, ", \"mte3\": {\"bytes\": ");
        n = gen_cat(buf, COST_MAX, gen_cat_int(buf, COST_MAX, n, gen_ceil_div(out_bytes, tiles)), "}");
    }
    gen_cat(buf, COST_MAX, n, "}");
}

void gen_cost_ns(char *buf, int64_t ns)
{
    gen_cat(buf, COST_MAX, gen_cat_int(buf, COST_MAX, gen_cat(buf, COST_MAX, 0, "{\"ns\": "), ns), "}");
}

/* ------------------------------------------------------------------ */
/* The kinds' parameters: a kind's g->v[i] is the value of row i      */
/* ------------------------------------------------------------------ */

static int store_param(const opt_def *d, const char *word, const char *value, void *dest, char *err,
                       size_t errlen);

/* A parameter of each type: NAME, its default (as it would be typed), its range or choices, its help line. */
#define INT_P(n, def, lo, hi, h)                                                                             \
    {                                                                                                        \
        .name = n, .arg = OPT_VALUE, .kind = OPT_KIND_NUMBER, .min = lo, .max = hi, .meta = def, .help = h,  \
        .store = store_param, .id = PT_INT                                                                   \
    }
#define REAL_P(n, def, lo, hi, h)                                                                            \
    {                                                                                                        \
        .name = n, .arg = OPT_VALUE, .kind = OPT_KIND_NUMBER, .min = lo, .max = hi, .meta = def, .help = h,  \
        .store = store_param, .id = PT_REAL                                                                  \
    }
#define CHOICE_P(n, def, ch, h)                                                                              \
    {                                                                                                        \
        .name = n, .arg = OPT_VALUE, .kind = OPT_KIND_CHOICE, .choices = ch, .meta = def, .help = h,         \
        .store = store_param, .id = PT_CHOICE                                                                \
    }
#define TEXT_P(n, def, h)                                                                                    \
    {                                                                                                        \
        .name = n, .arg = OPT_VALUE, .kind = OPT_KIND_TEXT, .meta = def, .help = h, .store = store_param,    \
        .id = PT_TEXT                                                                                        \
    }

static const opt_def P_CHAIN[] = {
    INT_P("n", "100", 1, 1e9, "tasks"),
    INT_P("cost-ns", "10000", 0, 1e12, "flat cost of each task (ns)"),
};

static const opt_def P_FAN[] = {
    INT_P("n", "100", 1, 1e9, "tasks"),
    INT_P("cost-ns", "10000", 0, 1e12, "flat cost of each task (ns)"),
};

static const opt_def P_FORKJOIN[] = {
    INT_P("width", "8", 1, 10000, "parallel workers per stage"),
    INT_P("stages", "4", 1, 1e7, "producer -> workers -> join stages, chained"),
    INT_P("cost-ns", "10000", 0, 1e12, "flat cost of each task (ns)"),
};

static const opt_def P_GRAIN[] = {
    INT_P("k", "48", 1, 1e7, "tasks the work is cut into"),
    INT_P("total-us", "4800", 1, 1e7, "AIV work in all (us): rows of x, 1 us each"),
};

/* The parameters of test_benchmark_bgemm.py, under its names; defaults are its Case0. */
static const opt_def P_BGEMM[] = {
    INT_P("matmul-add-task-num", "500", 1, 1e7,
          "gemm + add pairs in all; num_groups = this / grid-k (rounded down)"),
    INT_P("incore-data-size", "128", 16, 1024, "tile edge (elements); tiles are T x T FLOAT32"),
    INT_P("incore-loop", "4", 1, 65536, "tiles per task (each task walks them in turn)"),
    INT_P("grid-k", "2", 1, 65536, "K steps (gemm + add pairs) per group"),
};

static const opt_def P_PA[] = {
    INT_P("batch", "4", 1, 65536, "batches (requests)"),
    INT_P("heads", "16", 1, 4096, "query heads; q_tile = min(heads, 128)"),
    INT_P("head-dim", "128", 16, 512, "head dimension"),
    INT_P("block-size", "128", 16, 1024, "tokens per KV-cache block"),
    INT_P("context", "1024", 1, 1e7, "context length (tokens) of every batch"),
    CHOICE_P("variant", "plain", "plain unroll manual batch spmd", "orchestration style"),
    INT_P("unroll", "64", 1, 65536, "KV blocks per task (unroll)"),
    TEXT_P("block-table", "identity",
           "plain, manual: identity, or the batches' block indices in order, comma-separated"),
    INT_P("max-model-len", "0", 0, 1e9, "block_table columns x block-size; 0: the context's blocks"),
};

static const opt_def P_DECODE[] = {
    INT_P("batch", "16", 1, 256, "batch rows (one new token each): 16, as both kernel sets are built"),
    INT_P("seq", "3500", 1, 131072, "context length (tokens), at most MAX_SEQ 5500"),
    INT_P("layers", "1", 1, 80, "decoder layers, each in its own scope"),
    CHOICE_P("variant", "fa_fused", "fa_fused qwen3_14b_decode", "kernel set and orchestration"),
    INT_P("attention-core-num", "24", 1, 32767,
          "qwen3_14b_decode: blocks of the MIX attention task (attention_core_num)"),
};

static const opt_def P_RANDOM[] = {
    INT_P("n", "100", 1, 1e7, "tasks"),
    REAL_P("fat", "0.5", 0, 1, "width: exp(fat * log(n)) tasks per level on average"),
    REAL_P("density", "0.5", 0, 1, "probability of an edge to each task of the previous jump levels"),
    REAL_P("regular", "0.9", 0, 1, "1 = every level the same width; lower varies widths by up to 100(1-r)%"),
    INT_P("jump", "1", 1, 1000, "levels back an edge may reach"),
    INT_P("seed", "1", 0, 9223372036854775807.0, "random seed"),
};

/* ------------------------------------------------------------------ */
/* Kinds, help and the command line                                     */
/* ------------------------------------------------------------------ */

static int kind_word(const char *word, void *dest, char *err, size_t errlen);

/* A kind's table takes its parameters, and -h/--help; kind_word words every other word's message. */
#define KIND(name, summary, notes, params, check, emit)                                                      \
    {                                                                                                        \
        {.cmd = name,                                                                                        \
         .opts = params,                                                                                     \
         .nopts = OPT_COUNT(params),                                                                         \
         .operand_kind = OPT_KIND_NONE,                                                                      \
         .operand = kind_word},                                                                              \
            summary, notes, check, emit                                                                      \
    }

static const gen_kind KINDS[] = {
    KIND("chain", "N dependent AIV tasks, each reading the buffer the previous one wrote; a scope per task",
         NULL, P_CHAIN, NULL, gen_emit_chain),
    KIND("fan", "N independent AIV tasks, each writing its own row of one external tensor; a scope per task",
         "  `ptosim gen fan --n 1000000` streams 10^6 tasks in bounded memory.\n", P_FAN, NULL, gen_emit_fan),
    KIND("forkjoin", "S stages of 1 AIC producer -> W AIV workers on disjoint rows -> 1 AIV join",
         "  S x (W + 2) tasks; each stage in a scope, each worker in a nested one; the join\n"
         "  finds the W workers through the TensorMap (more than 64 producers spill).\n",
         P_FORKJOIN, NULL, gen_emit_forkjoin),
    KIND("granularity", "the same T us of AIV work cut into K tasks over disjoint row chunks, in one scope",
         "  Mirrors granularity() in scripts/make_traces.py: --k 48 is traces/grain_right.jsonl,\n"
         "  --k 4800 grain_fine, --k 24 grain_coarse.\n",
         P_GRAIN, gen_check_grain, gen_emit_granularity),
    KIND("bgemm", "the runtime's benchmark_bgemm: per group a scope, K x (gemm on AIC, add on AIV)",
         "  Parameters as test_benchmark_bgemm.py names them; the defaults are its Case0 (250 groups,\n"
         "  1000 tasks). Every task also reads the INT64[4] config tensor. Case1 is\n"
         "  --matmul-add-task-num 64 --incore-data-size 128 --incore-loop 4 --grid-k 2: 128 tasks.\n",
         P_BGEMM, gen_check_bgemm, gen_emit_bgemm),
    KIND("paged_attention", "the runtime's paged attention: QK, softmax, PV, online update per KV block",
         "  plain  : examples/a2a3/tensormap_and_ringbuffer/paged_attention: per (batch, q tile) a\n"
         "           scope with an alloc, per KV block a nested scope of QK (AIC) -> SF (AIV) ->\n"
         "           PV (AIC) -> UP (AIV): B x ceil(H/128) x ceil(C/BS) x 4 tasks\n"
         "  manual : examples/.../paged_attention_manual_scope: the same tasks in one manual scope\n"
         "           per (batch, q tile), without per-block scopes; explicit deps QK -> SF -> PV ->\n"
         "           UP, UP -> next UP, and the alloc -> the last UP\n"
         "  batch  : tests/st/a2a3/tensormap_and_ringbuffer/batch_paged_attention: per q tile and\n"
         "           16 batches a scope with an alloc, per KV block a nested scope of the four\n"
         "           tasks over the whole chunk\n"
         "  unroll : tests/st/a2a3/tensormap_and_ringbuffer/paged_attention_unroll: per (batch,\n"
         "           q tile) a scope with an alloc, then per --unroll blocks the four tasks\n"
         "  spmd   : one MIX task (pa_aic + 2 x pa_aiv), block_num 24\n"
         "  KV views follow --block-table; the runtime's tests draw it at random, so give the\n"
         "  drawn table to reproduce a run. The runtime's Case1 is --batch 256 --heads 16\n"
         "  --head-dim 128 --block-size 128 --context 8192: 65,536 tasks with plain (and 256\n"
         "  allocs). CaseSmall1 is --batch 1 --heads 16 --head-dim 16 --block-size 16 --context 33\n"
         "  --max-model-len 256.\n",
         P_PA, gen_check_pa, gen_emit_pa),
    KIND("decode_layer", "Qwen3-14B decode layers (hidden 5120, 40/8 heads, MLP 17408, bf16)",
         "  fa_fused (the default): the runtime's qwen3_14b_decode as of commit b6c9b5b (its\n"
         "  decode_fwd_layers.cpp), the kernel set the published silicon decode-layer figures were\n"
         "  measured on. Per layer a scope with two allocs: x_gamma (5 blocks), rms_recip, seeds and\n"
         "  q/k/v_proj (40/8/8 blocks), fa_work_build, qk_gamma, qk_recip, rope_qkv (16), fa_fused\n"
         "  (MIX, 24 blocks), online_softmax (48), out_seed, attn_fence, wired by the TensorMap; then a\n"
         "  manual scope with explicit deps: 50 out_proj, 5 residual_rms_cast, post_rms_reduce, 85\n"
         "  gate_proj and 85 up_proj, 17 silu, 85 down_proj, 5 down_cast_residual; out_consolidate.\n"
         "  copy_hidden before the layers, copy_out after: 2 + 353 L tasks, 2 + 543 L executions\n"
         "  (two layers: the 1088 AICore tasks of that commit's StressBatch16Seq3500).\n"
         "  qwen3_14b_decode: the runtime's current examples/a2a3/tensormap_and_ringbuffer/\n"
         "  qwen3_14b_decode (decode_fwd_layers.cpp, batch 16): per layer a scope with two allocs,\n"
         "  a manual scope of 276 tasks with explicit deps (SPMD projections of up to 50 blocks,\n"
         "  one sync-start MIX attention task of --attention-core-num blocks, dummy fences) and\n"
         "  dcr_xgamma; 5 + 277 L tasks in all (dummies included). --layers 2\n"
         "  --attention-core-num 8 is the capture tests/real/qwen3_noop2L.\n",
         P_DECODE, gen_check_decode, gen_emit_decode),
    KIND("random", "a random layered DAG with daggen's controls; explicit deps, a scope per level",
         "  Tasks are AIC or AIV at random with flat costs of 1-50 us. A level wider than the\n"
         "  ring's task window (16384 by default) ends in SCOPE_DEADLOCK.\n",
         P_RANDOM, NULL, gen_emit_random),
};

#define NKINDS ((int)(sizeof(KINDS) / sizeof(KINDS[0])))

static const opt_table *kind_options(int i)
{
    return i >= 0 && i < NKINDS ? &KINDS[i].opts : NULL;
}

static int gen_word(const char *word, void *dest, char *err, size_t errlen);

/* gen's own word is the kind (or -h, --help); the words after it are the kind's, parsed with its table */
const opt_table gen_options = {
    .cmd = "gen",
    .operand_kind = OPT_KIND_NONE,
    .operand = gen_word,
    .sub = kind_options,
};

/* A choice row's choices as "a, b, c" into buf (the help and the message show them so). */
static void join_choices(const opt_def *p, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (const char *c = p->choices; *c && n < len;) {
        size_t cl = strcspn(c, " ");
        n += (size_t)snprintf(buf + n, len - n, "%s%.*s", n ? ", " : "", (int)cl, c);
        c += cl + strspn(c + cl, " ");
    }
}

/* A kind's --PARAM lines: its default in the value's place, a choice's choices after its help. */
static void print_params(FILE *out, const opt_table *t)
{
    for (int i = 0; i < t->nopts; i++) {
        const opt_def *p = &t->opts[i];
        char left[64], choices[256];
        snprintf(left, sizeof(left), "--%s %s", p->name, p->meta);
        outfile_printf(out, "    %-26s %s", left, p->help);
        if (p->id == PT_CHOICE) {
            join_choices(p, choices, sizeof(choices));
            outfile_printf(out, ": %s", choices);
        }
        fputc('\n', out);
    }
}

static void usage(FILE *out)
{
    fputs("usage: ptosim gen KIND [--PARAM VALUE ...] > GRAPH.jsonl\n"
          "\n"
          "Writes a graph file to stdout as it is generated (bounded memory); the same\n"
          "arguments give the same bytes. Every parameter is optional (default shown).\n"
          "\n"
          "kinds:\n",
          out);
    for (int i = 0; i < NKINDS; i++) {
        outfile_printf(out, "  %-16s %s\n", KINDS[i].opts.cmd, KINDS[i].summary);
        print_params(out, &KINDS[i].opts);
    }
    fputs("\n`ptosim gen KIND --help` tells more about one kind.\n\noptions:\n", out);
    opt_help(&gen_options, out);
    fputs("\nexit status: 0 written; 1 the graph could not be written (a full disk); 2 bad command line\n",
          out);
}

static void kind_usage(FILE *out, const gen_kind *k)
{
    outfile_printf(out, "usage: ptosim gen %s [--PARAM VALUE ...] > GRAPH.jsonl\n\n%s\n", k->opts.cmd,
                   k->summary);
    if (k->notes)
        fputs(k->notes, out);
    fputs("\nparameters (default shown):\n", out);
    print_params(out, &k->opts);
    fputs("\nexit status: 0 written; 1 the graph could not be written (a full disk); 2 bad command line\n",
          out);
}

/* Parses text as parameter p. Returns 0, or -1 with "what is wrong" in err. */
static int parse_value(const opt_def *p, const char *text, gen_val *v, char *err, size_t len)
{
    char *end = NULL;
    errno = 0;
    if (p->id == PT_INT) {
        int64_t x;
        if (strint_parse(text, INT64_MIN, INT64_MAX, &x) != STRINT_OK || (double)x < p->min ||
            (double)x > p->max) {
            snprintf(err, len, "must be an integer in [%.0f, %.0f], got '%s'", p->min, p->max, text);
            return -1;
        }
        v->i = x;
    } else if (p->id == PT_REAL) {
        /* as strict as strint about the start: no blanks, no '+' */
        bool starts = (text[0] >= '0' && text[0] <= '9') || text[0] == '-' || text[0] == '.';
        double x = starts ? strtod(text, &end) : 0;
        if (!starts || *end || errno == ERANGE || !isfinite(x) || x < p->min || x > p->max) {
            snprintf(err, len, "must be a number in [%g, %g], got '%s'", p->min, p->max, text);
            return -1;
        }
        v->r = x;
    } else if (p->id == PT_TEXT) {
        /* the kind checks the content; here only what would break the JSON description */
        for (const char *c = text; *c; c++)
            if (*c == '"' || *c == '\\' || (unsigned char)*c < 0x20) {
                snprintf(err, len, "must not contain quotes, backslashes or control characters, got '%s'",
                         text);
                return -1;
            }
        if (!text[0]) {
            snprintf(err, len, "must not be empty");
            return -1;
        }
        v->s = text;
    } else {
        /* a whole word of the choices */
        size_t n = strlen(text);
        for (const char *c = p->choices; n && *c;) {
            size_t cl = strcspn(c, " ");
            if (cl == n && !strncmp(c, text, n)) {
                v->s = text;
                return 0;
            }
            c += cl + strspn(c + cl, " ");
        }
        char choices[256];
        join_choices(p, choices, sizeof(choices));
        char near[64];
        int w = snprintf(err, len, "must be one of %s, got '%s'", choices, text);
        if (w > 0 && (size_t)w < len && opt_near(p->choices, text, near, sizeof(near)))
            snprintf(err + w, len - (size_t)w, "; did you mean %s?", near);
        return -1;
    }
    return 0;
}

/* What the kind's parameters are parsed into: row i of kind's table into v[i]. */
typedef struct gen_parsing {
    const gen_kind *kind;
    gen_val *v;
} gen_parsing;

/* A kind's row: its value checked and stored, or "--PARAM: what is wrong". */
static int store_param(const opt_def *d, const char *word, const char *value, void *dest, char *err,
                       size_t errlen)
{
    (void)word;
    gen_parsing *st = dest;
    char why[GEN_ERR_MAX];
    if (parse_value(d, value, &st->v[d - st->kind->opts.opts], why, sizeof(why)) != 0) {
        snprintf(err, errlen, "--%s: %s", d->name, why);
        return -1;
    }
    return 0;
}

/* A kind's word that is none of its parameters (the table has no unknown-option format: this says it). */
static int kind_word(const char *word, void *dest, char *err, size_t errlen)
{
    const opt_table *t = &((gen_parsing *)dest)->kind->opts;
    if (strncmp(word, "--", 2) != 0) {
        snprintf(err, errlen, "%s: expected --PARAM VALUE", word);
        return -1;
    }
    size_t nl = strcspn(word + 2, "="), n;
    n = (size_t)snprintf(err, errlen, "--%.*s: unknown parameter; %s takes", (int)nl, word + 2, t->cmd);
    for (int i = 0; i < t->nopts && n < errlen; i++)
        n += (size_t)snprintf(err + n, errlen - n, "%s --%s", i ? "," : "", t->opts[i].name);
    return -1;
}

/* gen's word: the kind, stored in dest (a const gen_kind *), or "WORD: unknown kind; kinds are ...". */
static int gen_word(const char *word, void *dest, char *err, size_t errlen)
{
    for (int i = 0; i < NKINDS; i++)
        if (!strcmp(word, KINDS[i].opts.cmd)) {
            *(const gen_kind **)dest = &KINDS[i];
            return 0;
        }
    size_t n = (size_t)snprintf(err, errlen, "%s: unknown kind; kinds are", word);
    for (int i = 0; i < NKINDS && n < errlen; i++)
        n += (size_t)snprintf(err + n, errlen - n, "%s %s", i ? "," : "", KINDS[i].opts.cmd);
    return -1;
}

/* Parses `gen KIND --PARAM VALUE ...` (argv[0] the kind) into *k and v (at least GEN_MAX_PARAMS entries).
 * Returns 0, 1 when a help was printed, or an exit status with "ptosim gen: ..." in err. */
static int gen_parse(int argc, char **argv, const gen_kind **kp, gen_val *v, char *err, size_t errlen)
{
    if (argc < 1) {
        snprintf(err, errlen, "ptosim gen: missing KIND");
        return EXIT_USAGE;
    }
    const gen_kind *k = NULL;
    char why[GEN_ERR_MAX];
    int rc =
        strcmp(argv[0], "help") == 0 ? 1 : opt_parse(&gen_options, 1, argv, &k, NULL, NULL, why, sizeof(why));
    if (rc == 1) {
        usage(stdout);
        return 1;
    }
    if (rc != 0) {
        snprintf(err, errlen, "ptosim gen: %s", why);
        return EXIT_USAGE;
    }
    *kp = k;
    const opt_table *t = &k->opts;
    for (int i = 0; i < t->nopts; i++)
        if (parse_value(&t->opts[i], t->opts[i].meta, &v[i], why, sizeof(why)) != 0) {
            snprintf(err, errlen, "ptosim gen: %s: --%s: bad default: %s", t->cmd, t->opts[i].name, why);
            return EXIT_INTERNAL;
        }
    gen_parsing st = {k, v};
    rc = opt_parse(t, argc - 1, argv + 1, &st, NULL, NULL, why, sizeof(why));
    if (rc == 1) {
        kind_usage(stdout, k);
        return 1;
    }
    if (rc != 0) {
        snprintf(err, errlen, "ptosim gen: %s: %s", t->cmd, why);
        return EXIT_USAGE;
    }
    if (k->check && k->check(v, why, sizeof(why)) != 0) {
        snprintf(err, errlen, "ptosim gen: %s: %s", t->cmd, why);
        return EXIT_USAGE;
    }
    return 0;
}

int gen_check(int argc, char **argv, char *err, size_t errlen)
{
    const gen_kind *k;
    gen_val v[GEN_MAX_PARAMS];
    int rc = gen_parse(argc, argv, &k, v, err, errlen);
    return rc == 1 ? EXIT_USAGE : rc; /* no help in a sweep's parameters: the sweep takes --help itself */
}

/* Writes kind k's graph of v to f: through a write_buffer on f's descriptor (whatever f holds is
 * flushed first), so no line costs a printf. Returns 0, or -1 with errno set when a write failed. */
static int emit_to(const gen_kind *k, const gen_val *v, FILE *f)
{
    gen g = {.kd = k, .v = v};
    if (fflush(f) != 0 || wbuf_open_fd(&g.w, fileno(f)) != 0)
        return -1;
    k->emit(&g);
    return wbuf_close(&g.w);
}

int gen_write(int argc, char **argv, FILE *f, char *err, size_t errlen)
{
    const gen_kind *k;
    gen_val v[GEN_MAX_PARAMS];
    int rc = gen_parse(argc, argv, &k, v, err, errlen);
    if (rc != 0)
        return rc == 1 ? EXIT_USAGE : rc;
    if (emit_to(k, v, f) != 0) {
        snprintf(err, errlen, "ptosim gen: %s: writing the graph failed: %s", k->opts.cmd, strerror(errno));
        return EXIT_INTERNAL;
    }
    return EXIT_OK;
}

bool gen_param_listable(const char *kind, const char *param)
{
    for (int i = 0; i < NKINDS; i++)
        if (!strcmp(kind, KINDS[i].opts.cmd))
            for (int p = 0; p < KINDS[i].opts.nopts; p++)
                if (!strcmp(param, KINDS[i].opts.opts[p].name))
                    return KINDS[i].opts.opts[p].id != PT_TEXT;
    return false;
}

const char *gen_name(const char *kind, int i)
{
    if (!kind)
        return i >= 0 && i < NKINDS ? KINDS[i].opts.cmd : NULL;
    for (int k = 0; k < NKINDS; k++)
        if (!strcmp(kind, KINDS[k].opts.cmd))
            return i >= 0 && i < KINDS[k].opts.nopts ? KINDS[k].opts.opts[i].name : NULL;
    return NULL;
}

int gen_main(int argc, char **argv)
{
    char err[GEN_ERR_MAX + 256];
    const gen_kind *k;
    gen_val v[GEN_MAX_PARAMS];
    int rc = gen_parse(argc, argv, &k, v, err, sizeof(err));
    if (rc == 1)
        return EXIT_OK;
    if (rc != 0) {
        fprintf(stderr, "%s\n", err);
        return rc;
    }
    if (emit_to(k, v, stdout) != 0) {
        fprintf(stderr, "ptosim gen: %s: writing the graph failed: %s\n", k->opts.cmd, strerror(errno));
        return EXIT_INTERNAL;
    }
    return EXIT_OK;
}
