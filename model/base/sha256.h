/* sha256.h - sha256_: SHA-256 (FIPS 180-4): a Perf-Sim cache entry's binding, the graph a run read. */
#ifndef PTOSIM_SHA256_H
#define PTOSIM_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_HEX 65 /* 64 hex digits and the NUL */

typedef struct sha256_ctx {
    uint32_t h[8];
    uint64_t bytes;        /* message length so far */
    unsigned char buf[64]; /* a block not yet complete */
    size_t nbuf;
} sha256_ctx;

void sha256_init(sha256_ctx *c);
void sha256_update(sha256_ctx *c, const void *data, size_t len);

/* Which rounds run: the CPU's SHA extensions where it has them (1), else the portable ones (0). want -1
 * asks; 0 forces the portable rounds, 1 the extensions where present (the tests compare the two). */
int sha256_accel(int want);

/* Ends the message and writes its digest as 64 lowercase hex digits. */
void sha256_hex(sha256_ctx *c, char out[SHA256_HEX]);

#endif
