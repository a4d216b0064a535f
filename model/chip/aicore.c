/* aicore.c - core_: AICore topology, dispatch tokens and the slot transitions seen through COND. */
#include "aicore.h"

#include <string.h>

void core_topology(core *cores, int clusters, int nsched)
{
    memset(cores, 0, (size_t)(3 * clusters) * sizeof(*cores));
    for (int c = 0; c < clusters; c++) {
        int ids[3] = {c, clusters + 2 * c, clusters + 2 * c + 1};
        for (int s = 0; s < 3; s++) {
            core *k = &cores[ids[s]];
            k->id = ids[s];
            k->type = s == 0 ? CORE_AIC : CORE_AIV;
            k->cluster = c;
            k->subslot = s;
            k->thread = c % nsched;
        }
    }
}

uint32_t core_next_reg(core *c)
{
    uint32_t r = (c->last_reg + 1) & 0x7FFFFFFFU;
    if (r == 0 || r >= CORE_REG_RESERVED_LOW)
        r = 1;
    c->last_reg = r;
    return r;
}

core_poll core_poll_at(core *c, ps_t r, ps_t lat, core_slot done[2])
{
    if (!c->busy || core_waiting_doorbell(c))
        return POLL_NOTHING;
    if (c->has_pending && c->pend.gated && c->pend.ring == PS_NEVER) {
        /* case 3.3: a gated pending task is promoted on the running FIN, without an ACK */
        if (core_fin_at(c, &c->run) + lat <= r) {
            done[0] = c->run;
            c->run = c->pend;
            c->has_pending = false; /* pending_occupied stays set */
            return POLL_PROMOTED;
        }
        return POLL_NOTHING;
    }
    if (c->has_pending) {
        if (core_fin_at(c, &c->pend) + lat <= r) { /* FIN of the pending task: both done */
            done[0] = c->run;
            done[1] = c->pend;
            c->busy = c->has_pending = c->pending_occupied = false;
            return POLL_BOTH_DONE;
        }
        if (c->pend.start + lat <= r) { /* ACK of the pending task: serial execution went on */
            done[0] = c->run;
            c->run = c->pend;
            c->has_pending = c->pending_occupied = false;
            return POLL_PROMOTED;
        }
        return POLL_NOTHING; /* a running FIN with a normal pending task is transient */
    }
    if (core_fin_at(c, &c->run) + lat <= r) {
        done[0] = c->run;
        c->busy = c->pending_occupied = false;
        return POLL_RUN_DONE;
    }
    if (c->pending_occupied && c->run.start + lat <= r) {
        c->pending_occupied = false;
        return POLL_ACK;
    }
    return POLL_NOTHING;
}
