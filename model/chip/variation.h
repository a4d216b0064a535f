/* variation.h - vary_: the opt-in variation model: seeded lognormal draws of execution costs. */
/* The draws are mean-preserving. */
#ifndef PTOSIM_VARIATION_H
#define PTOSIM_VARIATION_H

#include <stdbool.h>
#include <stdint.h>

#include "../base/simtime.h"

/* Silicon is not deterministic: the same task's kernel time and its
 * AICore-side control costs differ from execution to execution. With a seed,
 * each such cost is drawn from a lognormal distribution whose mean is the
 * platform's constant and whose shape (sigma of the underlying normal) is a
 * platform parameter; without one every cost is its constant and outputs
 * stay byte-identical. The generator is splitmix64, the same on every host. */
typedef struct vary {
    bool on;        /* a seed was given */
    uint64_t seed;  /* ... which one */
    uint64_t state; /* generator state */
} vary;

/* Starts the generator: on with the given seed, or off (every draw returns its mean). */
void vary_init(vary *v, bool on, uint64_t seed);

/* A uniform double in (0, 1). */
double vary_unit(vary *v);

/* A draw with the given mean: mean x exp(sigma Z - sigma^2 / 2), Z standard
 * normal (Box-Muller), so its mean is `mean` and its median mean x
 * exp(-sigma^2 / 2). Returns mean itself when off or sigma <= 0. */
ps_t vary_draw(vary *v, ps_t mean, double sigma);

/* Sigma of a lognormal whose median is p50 and whose 90th percentile is p90
 * (the way the spreads are fitted to published p50/p90 pairs). */
double vary_sigma_from_p50_p90(double p50, double p90);

#endif
