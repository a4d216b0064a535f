/* hbm.c - the die's shared HBM as a fluid: max-min fair shares of the running GM flows. */
/* Their starts and ends, and the one pending re-share (model/README.md §12). */
#include "hbm.h"

#include <assert.h>
#include <math.h>
#include <string.h>

/* Visits core k for every set bit of mask, lowest first (the sums' rounding depends on the order). A bit
 * cleared meanwhile in the mask is still visited: each word is read once. */
#define FOR_EACH_CORE(mask, k)                                                                               \
    for (int w_ = 0; w_ < HBM_MASK_WORDS; w_++)                                                              \
        for (uint64_t m_ = (mask)[w_]; m_ && ((k) = w_ * 64 + __builtin_ctzll(m_), 1); m_ &= m_ - 1)

static inline void set_bit(uint64_t *mask, int k, bool on)
{
    uint64_t b = 1ULL << (k & 63);
    if (on)
        mask[k >> 6] |= b;
    else
        mask[k >> 6] &= ~b;
}

/* Core k has a start or an end to wait for. */
static inline void pend_update(hbm *h, int k)
{
    set_bit(h->pend_mask, k, h->start_at[k] != PS_NEVER || h->end_at[k] != PS_NEVER);
}

_Static_assert(PLATFORM_MAX_CORES <= 64 * HBM_MASK_WORDS, "a mask bit per core");

void hbm_init(hbm *h, double bytes_per_s)
{
    memset(h, 0, sizeof(*h));
    h->capacity = bytes_per_s / (double)PS_PER_S;
    for (int k = 0; k < PLATFORM_MAX_CORES; k++)
        h->start_at[k] = h->end_at[k] = PS_NEVER;
    h->lo = PS_NEVER;
    h->due = PS_NEVER;
}

/* ---- the fluid ---- */

void hbm_advance(hbm *h, ps_t now)
{
    if (now <= h->last)
        return;
    double dt = (double)(now - h->last);
    if (h->saturated)
        h->saturated_ps += now - h->last;
    int k;
    FOR_EACH_CORE(h->active_mask, k) {
        hbm_flow *f = &h->flows[k];
        f->work -= dt * f->speed;
        if (f->work < 0)
            f->work = 0;
    }
    h->last = now;
}

void hbm_add(hbm *h, int k, double demand, double work)
{
    assert(k >= 0 && k < PLATFORM_MAX_CORES);
    hbm_flow *f = &h->flows[k];
    if (!f->active)
        h->active++;
    *f = (hbm_flow){.active = true, .demand = demand, .work = work, .speed = 1.0, .changed = true};
    set_bit(h->active_mask, k, true);
}

void hbm_remove(hbm *h, int k)
{
    assert(k >= 0 && k < PLATFORM_MAX_CORES);
    if (h->flows[k].active)
        h->active--;
    memset(&h->flows[k], 0, sizeof(h->flows[k]));
    set_bit(h->active_mask, k, false);
}

void hbm_pin(hbm *h, int k)
{
    if (h->flows[k].active)
        h->flows[k].pinned = true;
}

void hbm_share(hbm *h)
{
    hbm_flow *order[PLATFORM_MAX_CORES];
    int n = 0;
    double left = h->capacity, want = 0;
    /* core order, as the sums' rounding depends on it */
    int k;
    FOR_EACH_CORE(h->active_mask, k) {
        hbm_flow *f = &h->flows[k];
        f->changed = false;
        if (f->pinned) {
            left -= f->demand * f->speed;
        } else {
            order[n++] = f;
            want += f->demand;
        }
    }
    if (left < 0)
        left = 0;
    h->saturated = want > left;
    if (want <= left) { /* the common case: every demand fits */
        for (int i = 0; i < n; i++) {
            order[i]->changed = order[i]->speed != 1.0;
            order[i]->speed = 1.0;
        }
        return;
    }
    /* water-filling: every demand at or below an equal split of what is left
     * is served in full, which raises the split for the rest; repeat until
     * none fits, then the rest share equally. One pass per distinct demand
     * level at most (usually two: AIC and AIV kernels). */
    bool served[PLATFORM_MAX_CORES] = {false};
    int m = n;
    for (;;) {
        double fair = left / (double)m;
        bool any = false;
        for (int i = 0; i < n; i++)
            if (!served[i] && order[i]->demand <= fair) {
                served[i] = true;
                left -= order[i]->demand;
                m--;
                any = true;
            }
        if (!any || !m)
            break;
    }
    double fair = m ? left / (double)m : 0;
    for (int i = 0; i < n; i++) {
        hbm_flow *f = order[i];
        double speed = served[i] || f->demand <= 0 ? 1.0 : fair / f->demand;
        if (speed > 1.0)
            speed = 1.0;
        if (speed < 1e-9) /* a starved flow still crawls, so every end is finite */
            speed = 1e-9;
        f->changed = speed != f->speed;
        f->speed = speed;
    }
}

ps_t hbm_end(const hbm *h, int k)
{
    const hbm_flow *f = &h->flows[k];
    return h->last + (ps_t)ceil(f->work / f->speed - 1e-6);
}

double hbm_used(const hbm *h)
{
    double used = 0; /* core order, as the sum's rounding depends on it */
    int k;
    FOR_EACH_CORE(h->active_mask, k)
        used += h->flows[k].demand * h->flows[k].speed;
    return used;
}

/* ---- start and end times ---- */

/* The earliest start or end, by a scan of two contiguous arrays. */
static ps_t earliest(const hbm *h)
{
    ps_t m = PS_NEVER;
    int k;
    FOR_EACH_CORE(h->pend_mask, k) {
        ps_t a = h->start_at[k], b = h->end_at[k];
        m = a < m ? a : m;
        m = b < m ? b : m;
    }
    return m;
}

/* Sets core k's expected start, keeping the earliest time up to date in
 * O(1) unless the earliest one itself moved later (then a scan is due). */
static void set_start(hbm *h, int k, ps_t start)
{
    ps_t old = h->start_at[k];
    h->start_at[k] = start;
    pend_update(h, k);
    if (h->lo_stale)
        return;
    if (start <= h->lo)
        h->lo = start;
    else if (old == h->lo)
        h->lo_stale = true;
}

/* ---- the lifecycle ---- */

static bool same(hbm_ref a, hbm_ref b)
{
    return a.task_id == b.task_id && a.block == b.block && a.subslot == b.subslot;
}

void hbm_expect(hbm *h, int k, hbm_ref r, ps_t start)
{
    h->next[k] = r;
    set_start(h, k, start);
}

void hbm_restart(hbm *h, int k, hbm_ref r, ps_t start)
{
    if (h->start_at[k] != PS_NEVER && same(h->next[k], r))
        set_start(h, k, start);
}

void hbm_observe_end(hbm *h, int k, hbm_ref r, ps_t now)
{
    if (h->end_at[k] != PS_NEVER && same(h->cur[k], r)) {
        hbm_advance(h, now);
        hbm_pin(h, k);
    }
}

bool hbm_reschedule(hbm *h, ps_t *t, uint64_t *gen)
{
    if (h->lo_stale) {
        h->lo = earliest(h);
        h->lo_stale = false;
    }
    ps_t next = h->lo;
    if (next == h->due)
        return false;
    h->gen++;
    h->due = next;
    *t = next;
    *gen = h->gen;
    return next != PS_NEVER;
}

bool hbm_live(const hbm *h, uint64_t gen)
{
    return gen == h->gen;
}

int hbm_begin(hbm *h, ps_t t, uint8_t starting[PLATFORM_MAX_CORES])
{
    h->due = PS_NEVER;
    h->lo_stale = true; /* ends and starts go; hbm_moved finds the earliest again */
    hbm_advance(h, t);
    int n = 0, k;
    /* a core's ending flow goes before its next one starts (hbm_start replaces it) */
    FOR_EACH_CORE(h->pend_mask, k) {
        if (h->end_at[k] <= t) {
            hbm_remove(h, k);
            h->end_at[k] = PS_NEVER;
        }
        if (h->start_at[k] <= t) {
            h->start_at[k] = PS_NEVER;
            starting[n++] = (uint8_t)k;
        }
        pend_update(h, k);
    }
    return n;
}

void hbm_start(hbm *h, int k, hbm_ref r, double demand, double work, ps_t end)
{
    hbm_add(h, k, demand, work);
    h->cur[k] = r;
    h->end_at[k] = end;
    pend_update(h, k);
}

int hbm_moved(hbm *h, uint8_t moved[PLATFORM_MAX_CORES])
{
    int n = 0, k;
    ps_t lo = PS_NEVER; /* the earliest start or end, found on the way */
    FOR_EACH_CORE(h->pend_mask, k) {
        const hbm_flow *f = &h->flows[k];
        lo = h->start_at[k] < lo ? h->start_at[k] : lo;
        if (h->end_at[k] != PS_NEVER && f->changed && !f->pinned) {
            ps_t e = hbm_end(h, k);
            if (e != h->end_at[k]) {
                h->end_at[k] = e;
                moved[n++] = (uint8_t)k;
            }
        }
        lo = h->end_at[k] < lo ? h->end_at[k] : lo;
    }
    h->lo = lo;
    h->lo_stale = false;
    return n;
}
