/* hbm.c - max-min fair sharing of the die's HBM bandwidth among running GM flows
 * (model/README.md §12.1, §10.2). */
#include "hbm.h"

#include <math.h>
#include <string.h>

void hbm_init(hbm *h, double bytes_per_s)
{
    memset(h, 0, sizeof(*h));
    h->capacity = bytes_per_s / (double)PS_PER_S;
}

void hbm_advance(hbm *h, ps_t now)
{
    if (now <= h->last)
        return;
    double dt = (double)(now - h->last);
    if (h->saturated)
        h->saturated_ps += now - h->last;
    for (int k = 0; k < PLATFORM_MAX_CORES; k++) {
        hbm_flow *f = &h->flows[k];
        if (!f->active)
            continue;
        f->work -= dt * f->speed;
        if (f->work < 0)
            f->work = 0;
    }
    h->last = now;
}

void hbm_add(hbm *h, int k, double demand, double work)
{
    hbm_flow *f = &h->flows[k];
    if (!f->active)
        h->active++;
    *f = (hbm_flow){.active = true, .demand = demand, .work = work, .speed = 1.0, .changed = true};
}

void hbm_remove(hbm *h, int k)
{
    if (h->flows[k].active)
        h->active--;
    memset(&h->flows[k], 0, sizeof(h->flows[k]));
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
    for (int k = 0; k < PLATFORM_MAX_CORES; k++) {
        hbm_flow *f = &h->flows[k];
        if (!f->active)
            continue;
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
