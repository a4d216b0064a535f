/* core.c - AICore topology and dispatch tokens. */
#include "core.h"

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
