/* tensor_map.c - tmap_: the TensorMap's entry pool, buckets, overlap test, lookup and insert. */
/* Buckets are by base address; retirement cleans entries up. */
#include "tensor_map.h"

#include <stdlib.h>
#include <string.h>

#include "../base/dtype.h"

/* Half-open element interval. */
typedef struct seg {
    uint64_t b, e;
} seg;

static bool seg_intersects(seg a, seg o)
{
    return a.e > o.b && o.e > a.b;
}
static bool seg_contains(seg a, seg o)
{
    return a.b <= o.b && o.e <= a.e;
}

/* Elements spanned from the view origin to its last element, plus one. */
static uint64_t extent(const tmap_view *v)
{
    uint64_t ext = 1;
    for (int i = 0; i < v->ndims; i++) {
        if (v->shape[i] == 0)
            return 0;
        ext += (uint64_t)(v->shape[i] - 1) * (uint64_t)v->strides[i];
    }
    return ext;
}

tmap_overlap tmap_check_overlap(const tmap_view *e, const tmap_view *in)
{
    /* a newer consumer version is conservatively an overlap, before any geometry */
    if (in->version > e->version)
        return OV_OTHER;
    /* 1-D extent test in element units (no dtype normalisation, as the runtime) */
    seg si = {in->start, in->start + extent(in)}, se = {e->start, e->start + extent(e)};
    if (!seg_intersects(si, se))
        return OV_NONE;
    /* the box test needs the same dtype, rank and nested row-major strides */
    int nd = in->ndims;
    if (in->dtype != e->dtype || nd != e->ndims || nd == 0)
        return OV_OTHER;
    for (int i = 0; i < nd; i++)
        if (in->strides[i] != e->strides[i])
            return OV_OTHER;
    if (e->strides[nd - 1] != 1)
        return OV_OTHER;
    for (int i = 1; i < nd; i++)
        if (e->strides[i - 1] % e->strides[i] != 0)
            return OV_OTHER;
    if (dtype_size(in->dtype) == 0)
        return OV_OTHER;
    /* the buffer's reference shape, recovered from the strides */
    uint64_t ref[TMAP_MAX_DIMS];
    for (int i = 1; i < nd; i++)
        ref[i] = (uint64_t)(e->strides[i - 1] / e->strides[i]);
    if (in->buffer_numel % (uint64_t)e->strides[0] != 0)
        return OV_OTHER;
    ref[0] = in->buffer_numel / (uint64_t)e->strides[0];
    /* split both origins into per-dimension offsets */
    uint64_t in_off[TMAP_MAX_DIMS], en_off[TMAP_MAX_DIMS], in_rem = in->start, en_rem = e->start;
    for (int i = 0; i < nd; i++) {
        in_off[i] = in_rem / (uint64_t)e->strides[i];
        in_rem %= (uint64_t)e->strides[i];
        en_off[i] = en_rem / (uint64_t)e->strides[i];
        en_rem %= (uint64_t)e->strides[i];
    }
    if (in_rem || en_rem)
        return OV_OTHER;
    for (int i = 0; i < nd; i++)
        if (in_off[i] + (uint64_t)in->shape[i] > ref[i] || en_off[i] + (uint64_t)e->shape[i] > ref[i])
            return OV_OTHER;
    bool covered = true;
    for (int i = 0; i < nd; i++) {
        seg a = {in_off[i], in_off[i] + (uint64_t)in->shape[i]};
        seg b = {en_off[i], en_off[i] + (uint64_t)e->shape[i]};
        if (!seg_intersects(a, b))
            return OV_NONE;
        if (!seg_contains(a, b))
            covered = false;
    }
    return covered ? OV_COVERED : OV_OTHER;
}

static uint32_t bucket_of(uint64_t addr)
{
    return (uint32_t)((addr * 0x9E3779B97F4A7C15ULL) >> (64 - 12)); /* 4096 buckets */
}

int tmap_init(tmap *m, uint32_t capacity, const uint32_t window[TMAP_RINGS], bool logical)
{
    memset(m, 0, sizeof(*m));
    m->capacity = capacity;
    m->logical = logical;
    m->pool_len = capacity ? capacity : 1024;
    /* calloc: pages of a large pool are only touched as entries are used */
    m->pool = calloc(m->pool_len, sizeof(*m->pool));
    m->free_list = malloc((size_t)m->pool_len * sizeof(*m->free_list));
    if (!m->pool || !m->free_list)
        goto oom;
    for (int r = 0; r < TMAP_RINGS; r++) {
        m->window[r] = window[r];
        m->task_heads[r] = calloc(window[r], sizeof(uint32_t));
        if (!m->task_heads[r])
            goto oom;
    }
    return 0;
oom:
    tmap_free(m);
    return -1;
}

void tmap_free(tmap *m)
{
    free(m->pool);
    free(m->free_list);
    for (int r = 0; r < TMAP_RINGS; r++)
        free(m->task_heads[r]);
    memset(m, 0, sizeof(*m));
}

static uint32_t *task_head(tmap *m, uint64_t producer)
{
    int r = (int)(producer >> 32) & 3;
    return &m->task_heads[r][(uint32_t)producer & (m->window[r] - 1)];
}

static void remove_entry(tmap *m, uint32_t idx)
{
    tmap_entry *e = &m->pool[idx];
    if (e->bprev)
        m->pool[e->bprev - 1].bnext = e->bnext;
    else
        m->buckets[bucket_of(e->v.addr)] = e->bnext;
    if (e->bnext)
        m->pool[e->bnext - 1].bprev = e->bprev;
    if (e->tprev)
        m->pool[e->tprev - 1].tnext = e->tnext;
    else
        *task_head(m, e->producer) = e->tnext;
    if (e->tnext)
        m->pool[e->tnext - 1].tprev = e->tprev;
    e->live = false;
    m->free_list[m->nfree++] = idx;
}

int tmap_insert(tmap *m, const tmap_view *v, uint64_t producer)
{
    uint32_t idx;
    if (m->nfree) {
        idx = m->free_list[--m->nfree];
    } else {
        if (m->capacity && m->next >= m->capacity)
            return -1;
        if (m->next == m->pool_len) { /* unbounded (logical) map grows */
            uint32_t nlen = m->pool_len * 2;
            tmap_entry *np = realloc(m->pool, (size_t)nlen * sizeof(*np));
            uint32_t *nf = realloc(m->free_list, (size_t)nlen * sizeof(*nf));
            if (np)
                m->pool = np;
            if (nf)
                m->free_list = nf;
            if (!np || !nf)
                return -1;
            memset(m->pool + m->pool_len, 0, (size_t)(nlen - m->pool_len) * sizeof(*np));
            m->pool_len = nlen;
        }
        idx = m->next++;
    }
    tmap_entry *e = &m->pool[idx];
    e->v = *v;
    e->producer = producer;
    e->live = true;
    uint32_t b = bucket_of(v->addr);
    e->bprev = 0;
    e->bnext = m->buckets[b];
    if (e->bnext)
        m->pool[e->bnext - 1].bprev = idx + 1;
    m->buckets[b] = idx + 1;
    uint32_t *th = task_head(m, producer);
    e->tprev = 0;
    e->tnext = *th;
    if (e->tnext)
        m->pool[e->tnext - 1].tprev = idx + 1;
    *th = idx + 1;
    if (tmap_used(m) > m->peak_used)
        m->peak_used = tmap_used(m);
    return 0;
}

/* An entry whose producer has retired no longer orders anything. */
static bool valid(const tmap *m, const tmap_entry *e)
{
    if (m->logical)
        return true;
    int r = (int)(e->producer >> 32) & 3;
    return (int32_t)((uint32_t)e->producer - m->alive[r]) >= 0;
}

void tmap_lookup(tmap *m, const tmap_view *in, tmap_visit_fn fn, void *ctx)
{
    uint32_t n = m->buckets[bucket_of(in->addr)];
    while (n) {
        uint32_t idx = n - 1;
        tmap_entry *e = &m->pool[idx];
        n = e->bnext; /* saved first: the visitor may remove e */
        if (e->v.addr != in->addr || !valid(m, e))
            continue;
        tmap_overlap ov = tmap_check_overlap(&e->v, in);
        if (ov == OV_NONE)
            continue;
        if (fn(ctx, e, ov) == 1)
            remove_entry(m, idx);
    }
}

/* Frees the entries of ring r's tasks with local ids in [from, to). */
static uint32_t cleanup_range(tmap *m, int r, uint32_t from, uint32_t to)
{
    uint32_t freed = 0;
    for (uint32_t l = from; l != to; l++) {
        uint32_t *head = &m->task_heads[r][l & (m->window[r] - 1)];
        uint32_t n = *head;
        while (n) {
            uint32_t idx = n - 1;
            n = m->pool[idx].tnext;
            if ((uint32_t)m->pool[idx].producer == l) {
                remove_entry(m, idx);
                freed++;
            }
        }
    }
    return freed;
}

uint32_t tmap_sync(tmap *m, int ring, uint32_t local, uint32_t last_alive)
{
    uint32_t mask = m->window[ring] - 1;
    m->alive[ring] = last_alive;
    bool alias = (local & mask) == (m->last_cleanup[ring] & mask);
    if (last_alive - m->last_cleanup[ring] < TMAP_CLEANUP_INTERVAL && !alias)
        return 0;
    uint32_t freed = cleanup_range(m, ring, m->last_cleanup[ring], last_alive);
    m->last_cleanup[ring] = last_alive;
    return freed;
}

uint32_t tmap_reclaim_all(tmap *m, const uint32_t last_alive[TMAP_RINGS])
{
    uint32_t freed = 0;
    for (int r = 0; r < TMAP_RINGS; r++) {
        m->alive[r] = last_alive[r];
        freed += cleanup_range(m, r, m->last_cleanup[r], last_alive[r]);
        m->last_cleanup[r] = last_alive[r];
    }
    return freed;
}
