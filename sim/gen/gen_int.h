/* gen_int.h - gen_: what gen.c and the kind files share: the graph being written and its writing helpers. */
/* Only sim/gen/gen*.c include it. gen.c (the command, its parameter tables and these helpers) calls each
 * kind's emit and check functions; the kind files (gen_synthetic.c, gen_runtime.c, gen_decode.c) write
 * their graphs with the helpers and call neither gen.c's command nor each other. */
#ifndef PTOSIM_GEN_INT_H
#define PTOSIM_GEN_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../../model/base/write_buffer.h"

#define GEN_ERR_MAX 512

/* A parsed value. */
typedef struct gen_val {
    int64_t i;     /* PT_INT */
    double r;      /* PT_REAL */
    const char *s; /* PT_CHOICE, PT_TEXT */
} gen_val;

/* Output state: the writer and the list being written. */
typedef struct gen {
    wbuf w;                    /* where the graph goes: the project's writers, no printf per record */
    int nitems;                /* items written in the current JSON list */
    const struct gen_kind *kd; /* what is generated */
    const gen_val *v;          /* its parameter values */
} gen;

/* A view: shape and per-dimension offsets (nd == 0: the whole tensor). */
typedef struct gview {
    int nd;
    int64_t shape[2], off[2];
} gview;

/* Small helpers (gen.c) */
int64_t gen_ceil_div(int64_t a, int64_t b);
int64_t gen_min64(int64_t a, int64_t b);
int64_t gen_max64(int64_t a, int64_t b);

/* JSON emission (gen.c): every line is written as soon as it is known */
static inline void gen_put(gen *g, const char *s)
{
    wbuf_str(&g->w, s);
}

/* A string literal, its length known when compiling. */
#define gen_lit(g, s) wbuf_lit(&(g)->w, s)

/* An integer in decimal, as printf's "%" PRId64. */
static inline void gen_int(gen *g, int64_t x)
{
    wbuf_i64(&g->w, x);
}

/* Text into buf[n] from its byte at, NUL-ended and cut as snprintf cuts it: s, or x in decimal. Return
 * the length the whole text would have (at + what is added), so calls chain. */
size_t gen_cat(char *buf, size_t n, size_t at, const char *s);
size_t gen_cat_int(char *buf, size_t n, size_t at, int64_t x);
void gen_sep(gen *g);
void gen_put_dims(gen *g, int nd, const int64_t *d);
void gen_hdr_begin(gen *g, const char *orchestrator);
void gen_hdr_kernel(gen *g, int id, const char *name, const char *core, const char *cost);
void gen_hdr_tensors(gen *g);
void gen_hdr_tensor(gen *g, const char *name, const char *dtype, int64_t s0, int64_t s1);
void gen_hdr_end(gen *g);
void gen_scope_begin(gen *g, int site, bool manual);
void gen_scope_end(gen *g);
void gen_submit(gen *g, const char *label, const char *kernel);
void gen_submit_mix(gen *g, const char *aic, const char *aiv, int block_num);
void gen_block_num(gen *g, int64_t block_num);
void gen_op_cost(gen *g, const char *cost);
void gen_op_end(gen *g);
gview gen_v1(int64_t s0, int64_t o0);
gview gen_v2(int64_t s0, int64_t s1, int64_t o0, int64_t o1);
void gen_args_begin(gen *g);
void gen_args_end(gen *g);
void gen_arg(gen *g, const char *dir, const char *tensor, const gview *v);
void gen_arg_out(gen *g, const char *tensor, const char *dtype, int64_t s0, int64_t s1);
void gen_arg_scalar(gen *g, const char *value, const char *dtype);
void gen_arg_int(gen *g, int64_t x);
void gen_dep(gen *g, int *ndeps, const char *label);
void gen_deps_end(gen *g, int ndeps);
void gen_deps_of(gen *g, int n, ...);

/* Pipe-form costs (gen.c), written into buf[COST_MAX] */
#define COST_MAX 320
void gen_cost_mm(char *buf, int64_t m, int64_t n, int64_t k, int64_t reps, int in_bytes, int out_bytes,
                 const char *dtype);
void gen_cost_vec(char *buf, int64_t elems, int64_t in_bytes, int64_t out_bytes, const char *dtype);
void gen_cost_ns(char *buf, int64_t ns);

/* The kinds, which gen.c's table lists with their parameter tables (P_*): emit writes the graph of
 * g->v; check, where parameters constrain each other, writes "--param: what is wrong" and returns -1. */
/* gen_synthetic.c */
void gen_emit_chain(gen *g);
void gen_emit_fan(gen *g);
void gen_emit_forkjoin(gen *g);
int gen_check_grain(const gen_val *v, char *err, size_t len);
void gen_emit_granularity(gen *g);
enum { RD_N, RD_FAT, RD_DENS, RD_REG, RD_JUMP, RD_SEED }; /* the rows of P_RANDOM */
void gen_emit_random(gen *g);

/* gen_runtime.c */
enum { BG_TASKS, BG_TILE, BG_LOOP, BG_K }; /* the rows of P_BGEMM */
int gen_check_bgemm(const gen_val *v, char *err, size_t len);
void gen_emit_bgemm(gen *g);
enum { PA_B, PA_H, PA_D, PA_BS, PA_C, PA_VAR, PA_U, PA_BT, PA_MML }; /* the rows of P_PA */
int gen_check_pa(const gen_val *v, char *err, size_t len);
void gen_emit_pa(gen *g);

/* gen_decode.c */
enum { DL_B, DL_S, DL_L, DL_VAR, DL_ACN }; /* the rows of P_DECODE */
int gen_check_decode(const gen_val *v, char *err, size_t len);
void gen_emit_decode(gen *g);

#endif
