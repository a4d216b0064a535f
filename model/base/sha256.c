/* sha256.c - sha256_: SHA-256 (FIPS 180-4): a Perf-Sim cache entry's binding, the graph a run read. */
/* Written from the standard's section 6.2; its constants are the standard's (4.2.2, 5.3.3). */
#include "sha256.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define SHA256_X86 1
#include <cpuid.h>
#include <immintrin.h>
#endif

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t rotr(uint32_t x, int n)
{
    return (x >> n) | (x << (32 - n));
}

static void block(sha256_ctx *c, const unsigned char *p)
{
    uint32_t w[64];
    for (int t = 0; t < 16; t++)
        w[t] = (uint32_t)p[4 * t] << 24 | (uint32_t)p[4 * t + 1] << 16 | (uint32_t)p[4 * t + 2] << 8 |
               (uint32_t)p[4 * t + 3];
    for (int t = 16; t < 64; t++) {
        uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
        uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
        w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    uint32_t a = c->h[0], b = c->h[1], cc = c->h[2], d = c->h[3], e = c->h[4], f = c->h[5], g = c->h[6],
             h = c->h[7];
    for (int t = 0; t < 64; t++) {
        uint32_t t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + w[t];
        uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & cc) ^ (b & cc));
        h = g;
        g = f;
        f = e;
        e = d + t1;
        d = cc;
        cc = b;
        b = a;
        a = t1 + t2;
    }
    c->h[0] += a;
    c->h[1] += b;
    c->h[2] += cc;
    c->h[3] += d;
    c->h[4] += e;
    c->h[5] += f;
    c->h[6] += g;
    c->h[7] += h;
}

#ifdef SHA256_X86
/* The same rounds on the SHA extensions (Intel SDM vol. 2: SHA256RNDS2, SHA256MSG1, SHA256MSG2): a graph's
 * digest at about 2 GB/s instead of 0.2, so a run with -o pays a few milliseconds for it, not a tenth of its
 * time. The state lives as {A,B,E,F} and {C,D,G,H}, lane 3 first, as SHA256RNDS2 takes it. */
__attribute__((target("sha,sse4.1,ssse3"))) static void blocks_ni(uint32_t h[8], const unsigned char *p,
                                                                  size_t n)
{
    const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL); /* big-endian words */
    __m128i abef = _mm_set_epi32((int)h[0], (int)h[1], (int)h[4], (int)h[5]);
    __m128i cdgh = _mm_set_epi32((int)h[2], (int)h[3], (int)h[6], (int)h[7]);
    for (; n; n--, p += 64) {
        __m128i abef0 = abef, cdgh0 = cdgh, m[16];
        for (int j = 0; j < 4; j++)
            m[j] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p + 16 * j)), bswap);
        /* W[t] = s1(W[t-2]) + W[t-7] + s0(W[t-15]) + W[t-16], four at a time: MSG1 adds s0, ALIGNR brings
         * W[t-7], MSG2 adds s1 */
        for (int j = 4; j < 16; j++)
            m[j] = _mm_sha256msg2_epu32(_mm_add_epi32(_mm_sha256msg1_epu32(m[j - 4], m[j - 3]),
                                                      _mm_alignr_epi8(m[j - 1], m[j - 2], 4)),
                                        m[j - 1]);
        for (int j = 0; j < 16; j++) {
            __m128i wk = _mm_add_epi32(m[j], _mm_loadu_si128((const __m128i *)(const void *)(K + 4 * j)));
            /* two rounds make the old {A,B,E,F} the new {C,D,G,H}: the two registers swap roles and back */
            cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);
            abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(wk, 0x0e));
        }
        abef = _mm_add_epi32(abef, abef0);
        cdgh = _mm_add_epi32(cdgh, cdgh0);
    }
    h[0] = (uint32_t)_mm_extract_epi32(abef, 3);
    h[1] = (uint32_t)_mm_extract_epi32(abef, 2);
    h[4] = (uint32_t)_mm_extract_epi32(abef, 1);
    h[5] = (uint32_t)_mm_extract_epi32(abef, 0);
    h[2] = (uint32_t)_mm_extract_epi32(cdgh, 3);
    h[3] = (uint32_t)_mm_extract_epi32(cdgh, 2);
    h[6] = (uint32_t)_mm_extract_epi32(cdgh, 1);
    h[7] = (uint32_t)_mm_extract_epi32(cdgh, 0);
}

/* CPUID: leaf 7's EBX bit 29 is SHA; leaf 1's ECX bits 9 and 19 are SSSE3 and SSE4.1 */
static bool cpu_has_sha(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 9)) || !(c & (1u << 19)))
        return false;
    return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 29));
}
#endif

/* -1 not yet asked, 0 the portable rounds, 1 the SHA extensions (atomic: whichever thread hashes first
 * asks the CPU) */
static atomic_int accel = -1;

int sha256_accel(int want)
{
    int a = atomic_load_explicit(&accel, memory_order_relaxed);
    if (a < 0 || want >= 0) {
#ifdef SHA256_X86
        a = want != 0 && cpu_has_sha();
#else
        a = 0;
#endif
        atomic_store_explicit(&accel, a, memory_order_relaxed);
    }
    return a;
}

/* n whole blocks */
static void blocks(sha256_ctx *c, const unsigned char *p, size_t n)
{
#ifdef SHA256_X86
    if (sha256_accel(-1)) {
        blocks_ni(c->h, p, n);
        return;
    }
#endif
    for (; n; n--, p += 64)
        block(c, p);
}

void sha256_init(sha256_ctx *c)
{
    static const uint32_t H0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(c->h, H0, sizeof(H0));
    c->bytes = 0;
    c->nbuf = 0;
}

void sha256_update(sha256_ctx *c, const void *data, size_t len)
{
    const unsigned char *p = data;
    c->bytes += len;
    if (c->nbuf) {
        size_t n = 64 - c->nbuf < len ? 64 - c->nbuf : len;
        memcpy(c->buf + c->nbuf, p, n);
        c->nbuf += n;
        p += n;
        len -= n;
        if (c->nbuf < 64)
            return;
        blocks(c, c->buf, 1);
        c->nbuf = 0;
    }
    blocks(c, p, len / 64);
    p += len / 64 * 64;
    len %= 64;
    memcpy(c->buf, p, len);
    c->nbuf = len;
}

void sha256_hex(sha256_ctx *c, char out[SHA256_HEX])
{
    uint64_t bits = c->bytes * 8;
    unsigned char pad[72] = {0x80};
    size_t n = (c->nbuf < 56 ? 56 : 120) - c->nbuf; /* to 8 bytes short of a block's end */
    for (int i = 0; i < 8; i++)
        pad[n + (size_t)i] = (unsigned char)(bits >> (56 - 8 * i));
    sha256_update(c, pad, n + 8);
    for (int i = 0; i < 8; i++)
        snprintf(out + 8 * i, 9, "%08x", (unsigned)c->h[i]);
}
