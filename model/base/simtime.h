/* simtime.h - ps_: integer simulated time (picoseconds) and conversions to cycles, ticks and seconds. */
#ifndef PTOSIM_SIMTIME_H
#define PTOSIM_SIMTIME_H

#include <stdint.h>

/* Model time is an unsigned count of picoseconds from the start of the run.
 * AICPU costs are ns-scale and AICore costs are cycles at ~1.8 GHz (0.556 ns),
 * so picoseconds keep both exact enough; 2^64 ps is about 213 days. */
typedef uint64_t ps_t;

#define PS_PER_NS 1000ULL
#define PS_PER_US 1000000ULL
#define PS_PER_MS 1000000000ULL
#define PS_PER_S 1000000000000ULL
#define PS_NEVER UINT64_MAX /* "no such time": an event that will not happen */

/* Nanoseconds to picoseconds. */
static inline ps_t ps_from_ns(uint64_t ns)
{
    return ns * PS_PER_NS;
}

/* AICore cycles at freq_hz to picoseconds, rounded to nearest. */
static inline ps_t ps_from_cycles(uint64_t cycles, uint64_t freq_hz)
{
    unsigned __int128 num = (unsigned __int128)cycles * PS_PER_S + freq_hz / 2;
    return (ps_t)(num / freq_hz);
}

/* Picoseconds to AICore cycles at freq_hz, rounded down. */
static inline uint64_t cycles_from_ps(ps_t t, uint64_t freq_hz)
{
    return (uint64_t)(((unsigned __int128)t * freq_hz) / PS_PER_S);
}

/* Picoseconds to system-counter ticks at tick_hz, rounded down (the counter
 * reads the last tick that has elapsed). */
static inline uint64_t ticks_from_ps(ps_t t, uint64_t tick_hz)
{
    return (uint64_t)(((unsigned __int128)t * tick_hz) / PS_PER_S);
}

/* Picoseconds to seconds, only for talking to SimGrid and for reports. */
static inline double sec_from_ps(ps_t t)
{
    return (double)t / (double)PS_PER_S;
}

/* Picoseconds to microseconds as a double, for reports. */
static inline double us_from_ps(ps_t t)
{
    return (double)t / (double)PS_PER_US;
}

#endif
