/* pipe.c - per-pipe kernel timing: tiles through N-buffered pipe stages (model/README.md §10.2). */
#include "pipe.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

static const char *const NAMES[PIPE_COUNT] = {"scalar", "mte1", "mte2", "mte3", "cube", "vector", "fixpipe"};

/* Dataflow order per core type (model/README.md §10.1). */
static const pipe_id AIC_ORDER[] = {PIPE_SCALAR, PIPE_MTE2, PIPE_MTE1, PIPE_CUBE, PIPE_FIXPIPE};
static const pipe_id AIV_ORDER[] = {PIPE_SCALAR, PIPE_MTE2, PIPE_VECTOR, PIPE_MTE3};

const char *pipe_name(pipe_id p)
{
    return p >= 0 && p < PIPE_COUNT ? NAMES[p] : "?";
}

bool pipe_on_core(pipe_id p, bool aic)
{
    switch (p) {
    case PIPE_SCALAR:
    case PIPE_MTE2:
        return true;
    case PIPE_MTE1:
    case PIPE_CUBE:
    case PIPE_FIXPIPE:
        return aic;
    case PIPE_MTE3:
    case PIPE_VECTOR:
        return !aic;
    default:
        return false;
    }
}

bool pipe_is_gm(pipe_id p)
{
    return p == PIPE_MTE2 || p == PIPE_MTE3 || p == PIPE_FIXPIPE;
}

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
    return b ? (a + b - 1) / b : 0;
}

/* Whole cycles to move `bytes` at `rate` bytes per cycle. */
static uint64_t transfer_cycles(uint64_t bytes, double rate)
{
    if (!bytes || rate <= 0)
        return 0;
    double c = (double)bytes / rate;
    uint64_t whole = (uint64_t)c;
    return (double)whole < c ? whole + 1 : whole;
}

/* Bytes per cycle of pipe p: its own rate when the kernel states one (GiB/s at the core's clock), else
 * the platform's. */
static double pipe_rate(const pipe_work *w, const pipe_rates *r, pipe_id p)
{
    if (w->gib_per_s[p] > 0) {
        assert(r->clock_hz > 0);
        return w->gib_per_s[p] * 1073741824.0 / (double)r->clock_hz;
    }
    return p == PIPE_MTE1 ? r->mte1_bytes_per_cycle : r->gm_bytes_per_cycle;
}

void pipe_tile_cycles(const pipe_kernel *k, const pipe_rates *r, uint64_t out[PIPE_COUNT])
{
    const pipe_work *w = &k->work;
    for (int p = 0; p < PIPE_COUNT; p++)
        out[p] = w->cycles[p];
    if (!k->scalar_given)
        out[PIPE_SCALAR] = r->scalar_cycles_per_tile;
    out[PIPE_MTE1] += transfer_cycles(w->bytes[PIPE_MTE1], pipe_rate(w, r, PIPE_MTE1));
    for (int p = 0; p < PIPE_COUNT; p++)
        if (pipe_is_gm((pipe_id)p))
            out[p] += transfer_cycles(w->bytes[p] + (p == PIPE_MTE2 ? w->mte2_reread : 0),
                                      pipe_rate(w, r, (pipe_id)p));
    if (w->mnk[0] && w->mnk[1] && w->mnk[2]) {
        /* one m x n x k multiply: ceil(m/16) x ceil(n/16) x ceil(k/(32 B / element)) steps */
        uint32_t eb = w->cube_elem_bytes ? w->cube_elem_bytes : 2;
        uint64_t kstep = r->cube_k_bytes / eb ? r->cube_k_bytes / eb : 1;
        out[PIPE_CUBE] +=
            ceil_div(w->mnk[0], r->cube_m) * ceil_div(w->mnk[1], r->cube_n) * ceil_div(w->mnk[2], kstep);
    }
    if (w->vec_elems) {
        uint32_t eb = w->vec_elem_bytes ? w->vec_elem_bytes : 2;
        out[PIPE_VECTOR] += transfer_cycles(w->vec_elems * eb, r->vec_bytes_per_cycle);
    }
}

pipe_ops_kind pipe_ops(const pipe_kernel *k, const pipe_rates *r, double *ops, double *per_cycle)
{
    const pipe_work *w = &k->work;
    *ops = *per_cycle = 0;
    if (k->measured)
        return PIPE_OPS_MEASURED;
    double tiles = k->tiles ? k->tiles : 1;
    if (k->aic) {
        uint32_t eb = w->cube_elem_bytes ? w->cube_elem_bytes : 2;
        double kstep = r->cube_k_bytes / eb ? r->cube_k_bytes / eb : 1; /* as pipe_tile_cycles steps k */
        if (!(w->mnk[0] && w->mnk[1] && w->mnk[2]))
            return w->cycles[PIPE_CUBE] ? PIPE_OPS_CYCLES : PIPE_OPS_COUNTED;
        *ops = 2.0 * (double)w->mnk[0] * (double)w->mnk[1] * (double)w->mnk[2] * tiles;
        *per_cycle = 2.0 * r->cube_m * r->cube_n * kstep;
        return PIPE_OPS_COUNTED;
    }
    if (!w->vec_elems)
        return w->cycles[PIPE_VECTOR] ? PIPE_OPS_CYCLES : PIPE_OPS_COUNTED;
    uint32_t eb = w->vec_elem_bytes ? w->vec_elem_bytes : 2;
    *ops = (double)w->vec_elems * tiles;
    *per_cycle = r->vec_bytes_per_cycle / eb;
    return PIPE_OPS_COUNTED;
}

uint64_t pipe_convert_cycles(uint64_t c, uint64_t from_hz, uint64_t to_hz)
{
    assert(from_hz > 0 && to_hz > 0);
    if (from_hz == to_hz)
        return c;
    /* c <= GRAPH_MAX_PIPE_CYCLES (1e12) and clocks <= 1e11 Hz: the product fits 128 bits */
    unsigned __int128 num = (unsigned __int128)c * to_hz + from_hz / 2;
    return (uint64_t)(num / from_hz);
}

/* A measured profile: Perf-Sim's busy cycles and end-to-end time, on the platform's clock. */
static void measured_run(const pipe_kernel *k, const pipe_rates *r, pipe_result *out)
{
    out->total_cycles = pipe_convert_cycles(k->measured_cycles, k->measured_hz, r->clock_hz);
    for (int p = 0; p < PIPE_COUNT; p++) {
        out->busy_cycles[p] = pipe_convert_cycles(k->work.cycles[p], k->measured_hz, r->clock_hz);
        out->bytes[p] = k->work.bytes[p];
        if (pipe_is_gm((pipe_id)p))
            out->gm_bytes += out->bytes[p];
        if (out->busy_cycles[p] > out->busy_cycles[out->busiest])
            out->busiest = (pipe_id)p;
    }
}

void pipe_run(const pipe_kernel *k, const pipe_rates *r, pipe_result *out)
{
    memset(out, 0, sizeof(*out));
    if (k->measured) {
        measured_run(k, r, out);
        return;
    }
    uint64_t per_tile[PIPE_COUNT];
    pipe_tile_cycles(k, r, per_tile);
    const pipe_id *order = k->aic ? AIC_ORDER : AIV_ORDER;
    int norder = k->aic ? (int)(sizeof(AIC_ORDER) / sizeof(*AIC_ORDER))
                        : (int)(sizeof(AIV_ORDER) / sizeof(*AIV_ORDER));
    /* the stages that have work, in dataflow order */
    uint64_t cost[PIPE_COUNT];
    int nst = 0;
    for (int i = 0; i < norder; i++)
        if (per_tile[order[i]])
            cost[nst++] = per_tile[order[i]];
    uint64_t tiles = k->tiles ? k->tiles : 1, n = k->buffers ? k->buffers : 1;
    for (int p = 0; p < PIPE_COUNT; p++) {
        out->busy_cycles[p] = per_tile[p] * tiles;
        out->bytes[p] = k->work.bytes[p] * tiles;
        if (pipe_is_gm((pipe_id)p))
            out->gm_bytes += out->bytes[p];
        if (out->busy_cycles[p] > out->busy_cycles[out->busiest])
            out->busiest = (pipe_id)p;
    }
    if (!nst)
        return;
    /* end[i % (n + 1)][s]: when stage s finished tile i; tile i needs tiles
     * i-1 (same stage) and i-n (next stage), so n + 1 rows suffice */
    uint64_t rows = n + 1;
    uint64_t *end = calloc(rows * (uint64_t)nst, sizeof(*end));
    if (!end) { /* cannot happen for sane sizes; fall back to the serial bound */
        for (int s = 0; s < nst; s++)
            out->total_cycles += cost[s] * tiles;
        return;
    }
    for (uint64_t i = 0; i < tiles; i++) {
        uint64_t *cur = &end[(i % rows) * nst];
        const uint64_t *prev = i ? &end[((i - 1) % rows) * nst] : NULL;
        const uint64_t *back = i >= n ? &end[((i - n) % rows) * nst] : NULL;
        for (int s = 0; s < nst; s++) {
            uint64_t st = 0;
            if (s > 0 && cur[s - 1] > st)
                st = cur[s - 1]; /* previous pipe delivered this tile */
            if (prev && prev[s] > st)
                st = prev[s]; /* this pipe is free */
            if (back && s + 1 < nst && back[s + 1] > st)
                st = back[s + 1]; /* a buffer towards the next pipe is free */
            cur[s] = st + cost[s];
        }
    }
    out->total_cycles = end[((tiles - 1) % rows) * nst + nst - 1];
    free(end);
}

int pipe_set_init(pipe_set *s)
{
    memset(s, 0, sizeof(*s));
    s->cap = 16;
    s->nslots = 64;
    s->keys = calloc(s->cap, sizeof(*s->keys));
    s->slots = calloc(s->nslots, sizeof(*s->slots));
    s->n = 1; /* index 0 means "no pipe model" */
    if (!s->keys || !s->slots) {
        pipe_set_free(s);
        return -1;
    }
    return 0;
}

void pipe_set_free(pipe_set *s)
{
    free(s->keys);
    free(s->slots);
    memset(s, 0, sizeof(*s));
}

/* FNV-1a over the kernel's bytes. */
static uint64_t hash_kernel(const pipe_kernel *k)
{
    const unsigned char *b = (const unsigned char *)k;
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < sizeof(*k); i++)
        h = (h ^ b[i]) * 1099511628211ULL;
    return h;
}

static size_t find_slot(const pipe_set *s, const pipe_kernel *k, uint64_t h)
{
    size_t m = s->nslots - 1, i = (size_t)h & m;
    while (s->slots[i] && memcmp(&s->keys[s->slots[i]], k, sizeof(*k)) != 0)
        i = (i + 1) & m;
    return i;
}

static int rehash(pipe_set *s)
{
    size_t n2 = s->nslots * 2;
    uint32_t *ns = n2 <= SIZE_MAX / sizeof(*ns) ? calloc(n2, sizeof(*ns)) : NULL;
    if (!ns)
        return -1;
    free(s->slots);
    s->slots = ns;
    s->nslots = n2;
    for (uint32_t ix = 1; ix < s->n; ix++) { /* a key seen before (a scaled copy) keeps the first index */
        size_t i = find_slot(s, &s->keys[ix], hash_kernel(&s->keys[ix]));
        if (!s->slots[i])
            s->slots[i] = ix;
    }
    return 0;
}

/* Room for one more key: doubles the key array when it is full. Returns 0, or -1 when out of memory. */
static int grow_keys(pipe_set *s)
{
    if (s->n < s->cap)
        return 0;
    size_t ncap = s->cap * 2;
    pipe_kernel *nk = ncap <= SIZE_MAX / sizeof(*nk) ? realloc(s->keys, ncap * sizeof(*nk)) : NULL;
    if (!nk)
        return -1;
    s->keys = nk;
    s->cap = ncap;
    return 0;
}

uint32_t pipe_set_put(pipe_set *s, const pipe_kernel *k)
{
    uint64_t h = hash_kernel(k);
    size_t i = find_slot(s, k, h);
    if (s->slots[i])
        return s->slots[i];
    if (s->n >= UINT32_MAX)
        return 0;
    if (grow_keys(s) != 0)
        return 0;
    uint32_t ix = (uint32_t)s->n++;
    s->keys[ix] = *k;
    s->slots[i] = ix;
    if (s->n * 2 > s->nslots && rehash(s) != 0)
        return 0;
    return ix;
}

int pipe_table_init(pipe_table *t, const pipe_rates *r)
{
    memset(t, 0, sizeof(*t));
    t->rates = *r;
    t->rcap = 16;
    t->results = calloc(t->rcap, sizeof(*t->results));
    if (!t->results || pipe_set_init(&t->set) != 0) {
        pipe_table_free(t);
        return -1;
    }
    return 0;
}

void pipe_table_free(pipe_table *t)
{
    pipe_set_free(&t->set);
    free(t->results);
    free(t->scaled);
    free(t->scaled_ix);
    memset(t, 0, sizeof(*t));
}

uint32_t pipe_table_get(pipe_table *t, const pipe_kernel *k)
{
    if (t->set.n >= t->rcap) { /* room for a new kernel's result first, so every kernel has one */
        size_t ncap = t->rcap * 2;
        pipe_result *nr = ncap <= SIZE_MAX / sizeof(*nr) ? realloc(t->results, ncap * sizeof(*nr)) : NULL;
        if (!nr)
            return 0;
        t->results = nr;
        t->rcap = ncap;
    }
    size_t before = t->set.n;
    uint32_t ix = pipe_set_put(&t->set, k);
    if (ix && ix >= before) /* new: run it through the pipes */
        pipe_run(k, &t->rates, &t->results[ix]);
    return ix;
}

uint64_t pipe_scale(uint64_t v, uint32_t ppm)
{
    unsigned __int128 x = (unsigned __int128)v * ppm + 500000u;
    x /= 1000000u;
    return x > UINT64_MAX ? UINT64_MAX : (uint64_t)x;
}

/* Room for one more key in t's scaled map (grown at half full). Returns 0, or -1 when out of memory. */
static int scaled_room(pipe_table *t)
{
    if (t->scaled_slots && (t->nscaled + 1) * 2 <= t->scaled_slots)
        return 0;
    size_t n2 = t->scaled_slots ? t->scaled_slots * 2 : 64;
    uint64_t *k = n2 <= SIZE_MAX / sizeof(*k) ? calloc(n2, sizeof(*k)) : NULL;
    uint32_t *v = n2 <= SIZE_MAX / sizeof(*v) ? calloc(n2, sizeof(*v)) : NULL;
    if (!k || !v) {
        free(k);
        free(v);
        return -1;
    }
    for (size_t i = 0; i < t->scaled_slots; i++)
        if (t->scaled[i]) {
            size_t j = (size_t)(t->scaled[i] * 0x9E3779B97F4A7C15ULL) & (n2 - 1);
            while (k[j])
                j = (j + 1) & (n2 - 1);
            k[j] = t->scaled[i];
            v[j] = t->scaled_ix[i];
        }
    free(t->scaled);
    free(t->scaled_ix);
    t->scaled = k;
    t->scaled_ix = v;
    t->scaled_slots = n2;
    return 0;
}

uint32_t pipe_table_scaled(pipe_table *t, uint32_t ix, uint32_t ppm)
{
    if (ppm == 1000000u || !ix)
        return ix;
    if (scaled_room(t) != 0)
        return 0;
    uint64_t key = (uint64_t)ix << 32 | ppm;
    size_t m = t->scaled_slots - 1, j = (size_t)(key * 0x9E3779B97F4A7C15ULL) & m;
    while (t->scaled[j] && t->scaled[j] != key)
        j = (j + 1) & m;
    if (t->scaled[j])
        return t->scaled_ix[j];
    /* a copy of the kernel at a new index, outside the hash (pipe_set_put finds the first) */
    pipe_set *s = &t->set;
    if (s->n >= UINT32_MAX)
        return 0;
    if (s->n >= t->rcap) {
        size_t ncap = t->rcap * 2;
        pipe_result *nr = ncap <= SIZE_MAX / sizeof(*nr) ? realloc(t->results, ncap * sizeof(*nr)) : NULL;
        if (!nr)
            return 0;
        t->results = nr;
        t->rcap = ncap;
    }
    if (grow_keys(s) != 0)
        return 0;
    uint32_t nix = (uint32_t)s->n++;
    s->keys[nix] = s->keys[ix];
    pipe_result r = t->results[ix];
    r.total_cycles = pipe_scale(r.total_cycles, ppm);
    for (int p = 0; p < PIPE_COUNT; p++)
        r.busy_cycles[p] = pipe_scale(r.busy_cycles[p], ppm);
    t->results[nix] = r;
    t->scaled[j] = key;
    t->scaled_ix[j] = nix;
    t->nscaled++;
    return nix;
}
