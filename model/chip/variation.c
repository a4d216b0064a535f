/* variation.c - vary_: splitmix64 and mean-preserving lognormal draws for the variation model. */
#include "variation.h"

#include <math.h>

#define VARY_Z90 1.2815515655446004 /* the standard normal's 90th percentile */

void vary_init(vary *v, bool on, uint64_t seed)
{
    v->on = on;
    v->seed = seed;
    v->state = seed ^ 0x6a09e667f3bcc909ULL; /* seed 0 still starts away from the all-zero state */
}

static uint64_t next(vary *v)
{
    uint64_t z = (v->state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

double vary_unit(vary *v)
{
    /* the top 53 bits, shifted off 0 so log() below is finite */
    return ((double)(next(v) >> 11) + 0.5) / 9007199254740992.0;
}

ps_t vary_draw(vary *v, ps_t mean, double sigma)
{
    if (!v->on || sigma <= 0 || mean == 0)
        return mean;
    double u1 = vary_unit(v), u2 = vary_unit(v);
    double z = sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
    double x = (double)mean * exp(sigma * z - sigma * sigma / 2);
    return x < 1 ? 1 : (ps_t)(x + 0.5);
}

double vary_sigma_from_p50_p90(double p50, double p90)
{
    return log(p90 / p50) / VARY_Z90;
}
