/* gen_synthetic.c - gen_: `ptosim gen`'s synthetic kinds: chain, fan, forkjoin, granularity, random DAGs. */
/* Their parameter tables are gen.c's P_*: v[i] is the value of row i. */
#include "gen_int.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "../cli/cli.h"

/* ------------------------------------------------------------------ */
/* chain                                                               */
/* ------------------------------------------------------------------ */

void gen_emit_chain(gen *g)
{
    char cost[COST_MAX];
    gen_cost_ns(cost, g->v[1].i);
    gen_hdr_begin(g, NULL);
    gen_hdr_kernel(g, 0, "step", "aiv", cost);
    gen_hdr_tensors(g);
    gen_hdr_tensor(g, "x", "FLOAT32", 64, 0);
    gen_hdr_end(g);
    for (int64_t i = 0; i < g->v[0].i; i++) {
        /* task i reads the buffer task i-1 created; the name is rebound after the op */
        gen_scope_begin(g, 1, false);
        gen_submit(g, NULL, "step");
        gen_args_begin(g);
        gen_arg(g, "in", i ? "h" : "x", NULL);
        gen_arg_out(g, "h", "FLOAT32", 64, 0);
        gen_args_end(g);
        gen_op_end(g);
        gen_scope_end(g);
    }
}

/* ------------------------------------------------------------------ */
/* fan                                                                 */
/* ------------------------------------------------------------------ */

void gen_emit_fan(gen *g)
{
    char cost[COST_MAX];
    gen_cost_ns(cost, g->v[1].i);
    gen_hdr_begin(g, NULL);
    gen_hdr_kernel(g, 0, "work", "aiv", cost);
    gen_hdr_tensors(g);
    gen_hdr_tensor(g, "y", "FLOAT32", g->v[0].i, 16);
    gen_hdr_end(g);
    for (int64_t i = 0; i < g->v[0].i; i++) {
        /* disjoint rows of one external tensor: no two tasks overlap, so no edges */
        gview row = gen_v2(1, 16, i, 0);
        gen_scope_begin(g, 1, false);
        gen_submit(g, NULL, "work");
        gen_args_begin(g);
        gen_arg(g, "out_existing", "y", &row);
        gen_args_end(g);
        gen_op_end(g);
        gen_scope_end(g);
    }
}

/* ------------------------------------------------------------------ */
/* forkjoin                                                            */
/* ------------------------------------------------------------------ */

#define FJ_ROWS 16 /* rows of the shared tensors per worker */

void gen_emit_forkjoin(gen *g)
{
    int64_t w = g->v[0].i, s = g->v[1].i;
    char cost[COST_MAX];
    gen_cost_ns(cost, g->v[2].i);
    gen_hdr_begin(g, NULL);
    gen_hdr_kernel(g, 0, "produce", "aic", cost);
    gen_hdr_kernel(g, 1, "work", "aiv", cost);
    gen_hdr_kernel(g, 2, "join", "aiv", cost);
    gen_hdr_tensors(g);
    gen_hdr_tensor(g, "x", "FLOAT16", w * FJ_ROWS, 64);
    gen_hdr_end(g);
    for (int64_t st = 0; st < s; st++) {
        gen_scope_begin(g, 1, false);
        /* the producer also creates the buffer the workers fill, so the join
         * finds them through the TensorMap without an alloc task */
        gen_submit(g, NULL, "produce");
        gen_args_begin(g);
        gen_arg(g, "in", st ? "y" : "x", NULL);
        gen_arg_out(g, "h", "FLOAT16", w * FJ_ROWS, 64);
        gen_arg_out(g, "g", "FLOAT16", w * FJ_ROWS, 64);
        gen_args_end(g);
        gen_op_end(g);
        for (int64_t k = 0; k < w; k++) {
            gview rows = gen_v2(FJ_ROWS, 64, k * FJ_ROWS, 0);
            gen_scope_begin(g, 2, false);
            gen_submit(g, NULL, "work");
            gen_args_begin(g);
            gen_arg(g, "in", "h", &rows);
            gen_arg(g, "out_existing", "g", &rows);
            gen_args_end(g);
            gen_op_end(g);
            gen_scope_end(g);
        }
        gen_submit(g, NULL, "join");
        gen_args_begin(g);
        gen_arg(g, "in", "g", NULL);
        gen_arg_out(g, "y", "FLOAT16", FJ_ROWS, 64);
        gen_args_end(g);
        gen_op_end(g);
        gen_scope_end(g);
    }
}

/* ------------------------------------------------------------------ */
/* granularity                                                         */
/* ------------------------------------------------------------------ */

int gen_check_grain(const gen_val *v, char *err, size_t len)
{
    if (v[0].i > v[1].i) {
        snprintf(err, len,
                 "--k: must be at most --total-us (%" PRId64 ") so every task gets a row, got %" PRId64,
                 v[1].i, v[0].i);
        return -1;
    }
    return 0;
}

/* A flat cost of that many cycles into buf[COST_MAX]. */
static void grain_cost(char *buf, int64_t cycles)
{
    gen_cat(buf, COST_MAX, gen_cat_int(buf, COST_MAX, gen_cat(buf, COST_MAX, 0, "{\"cycles\": "), cycles),
            "}");
}

/* scripts/make_traces.py granularity(): silu over x[rows, 256] into y, one
 * row = 1 us (1800 cycles); rows not divisible by k go one each to the first
 * tasks, which then override the kernel's cost. */
void gen_emit_granularity(gen *g)
{
    int64_t k = g->v[0].i, rows = g->v[1].i, base = rows / k, extra = rows % k;
    char cost[COST_MAX];
    grain_cost(cost, 1800 * base);
    gen_hdr_begin(g, NULL);
    gen_hdr_kernel(g, 0, "silu", "aiv", cost);
    gen_hdr_tensors(g);
    gen_hdr_tensor(g, "x", "FLOAT16", rows, 256);
    gen_hdr_tensor(g, "y", "FLOAT16", rows, 256);
    gen_hdr_end(g);
    gen_scope_begin(g, 1, false);
    int64_t off = 0;
    for (int64_t i = 0; i < k; i++) {
        int64_t r = base + (i < extra);
        gview view = gen_v2(r, 256, off, 0);
        gen_submit(g, NULL, "silu");
        gen_args_begin(g);
        gen_arg(g, "in", "x", &view);
        gen_arg(g, "out_existing", "y", &view);
        gen_args_end(g);
        if (r != base) {
            grain_cost(cost, 1800 * r);
            gen_op_cost(g, cost);
        }
        gen_op_end(g);
        off += r;
    }
    gen_scope_end(g);
}

/* ------------------------------------------------------------------ */
/* random                                                              */
/* ------------------------------------------------------------------ */

/* splitmix64: tiny, fast and the same on every platform (rand() is neither). */
static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Uniform in [0, 1), from the top 53 bits. */
static double rng_unit(uint64_t *s)
{
    return (double)(rng_next(s) >> 11) * (1.0 / 9007199254740992.0);
}

/* Uniform in [0, n), without modulo bias. */
static uint64_t rng_below(uint64_t *s, uint64_t n)
{
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do
        x = rng_next(s);
    while (x >= limit);
    return x % n;
}

/* daggen's getIntRandomNumberAround: x +- perc percent, at least 1. */
static int64_t around(uint64_t *rng, int64_t x, double perc)
{
    double r = -perc + 2 * perc * rng_unit(rng);
    return gen_max64(1, (int64_t)((double)x * (1.0 + r / 100.0)));
}

/* A task's label: t<level modulo jump + 1>_<index in its level> (both below 2^63). */
static void rd_label(char *buf, size_t n, int64_t lvl, uint64_t j)
{
    gen_cat_int(buf, n, gen_cat(buf, n, gen_cat_int(buf, n, gen_cat(buf, n, 0, "t"), lvl), "_"), (int64_t)j);
}

void gen_emit_random(gen *g)
{
    const gen_val *v = g->v;
    int64_t n = v[RD_N].i, jump = v[RD_JUMP].i;
    double dens = v[RD_DENS].r;
    uint64_t rng = (uint64_t)v[RD_SEED].i;
    int64_t mean = gen_max64(1, (int64_t)exp(v[RD_FAT].r * log((double)n)));
    /* widths of the last jump + 1 levels: labels are reused modulo jump + 1,
     * so a level's labels are rebound only once no later level can reach them */
    int64_t *widths = calloc((size_t)jump + 1, sizeof(*widths));
    if (!widths) {
        fprintf(stderr, "ptosim gen: random: out of memory\n");
        wbuf_close(&g->w); /* nothing written yet: the header comes after */
        exit(EXIT_INTERNAL);
    }
    char cost[COST_MAX], label[48];
    gen_hdr_begin(g, NULL);
    gen_cost_ns(cost, 1000);
    gen_hdr_kernel(g, 0, "rand_aic", "aic", cost);
    gen_hdr_kernel(g, 1, "rand_aiv", "aiv", cost);
    gen_hdr_tensors(g);
    gen_hdr_end(g);
    double logq = dens < 1 ? log1p(-dens) : 0;
    int64_t done = 0;
    for (int64_t lv = 0; done < n; lv++) {
        int64_t w = gen_min64(around(&rng, mean, 100.0 - 100.0 * v[RD_REG].r), n - done);
        widths[lv % (jump + 1)] = w;
        gen_scope_begin(g, 1, false);
        for (int64_t j = 0; j < w; j++) {
            bool aic = rng_next(&rng) >> 63;
            int64_t ns = 1000 + (int64_t)rng_below(&rng, 49001); /* 1-50 us */
            rd_label(label, sizeof(label), lv % (jump + 1), (uint64_t)j);
            gen_submit(g, label, aic ? "rand_aic" : "rand_aiv");
            int nd = 0;
            for (int64_t back = 1; back <= jump && back <= lv && dens > 0; back++) {
                int64_t pl = lv - back, pw = widths[pl % (jump + 1)];
                /* Bernoulli(dens) per candidate, drawn as geometric gaps: time
                 * proportional to the edges, not to the candidates */
                for (int64_t k = 0;; k++) {
                    if (dens < 1) {
                        double u = rng_unit(&rng);
                        k += (int64_t)floor(log1p(-u) / logq);
                    }
                    if (k >= pw)
                        break;
                    rd_label(label, sizeof(label), pl % (jump + 1), (uint64_t)k);
                    gen_dep(g, &nd, label);
                }
            }
            if (lv > 0 && nd == 0) { /* at least one parent, in the level above */
                int64_t pl = lv - 1;
                rd_label(label, sizeof(label), pl % (jump + 1),
                         rng_below(&rng, (uint64_t)widths[pl % (jump + 1)]));
                gen_dep(g, &nd, label);
            }
            gen_deps_end(g, nd);
            gen_cost_ns(cost, ns);
            gen_op_cost(g, cost);
            gen_op_end(g);
        }
        gen_scope_end(g);
        done += w;
    }
    free(widths);
}
