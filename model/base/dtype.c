/* dtype.c - dtype name and size table. */
#include "dtype.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

static const struct {
    const char *name;
    int size;
} DTYPES[DT_COUNT] = {
    {"FLOAT32", 4}, {"FLOAT16", 2},  {"INT32", 4},     {"INT16", 2},   {"INT8", 1},
    {"UINT8", 1},   {"BFLOAT16", 2}, {"INT64", 8},     {"UINT64", 8},  {"UINT16", 2},
    {"UINT32", 4},  {"BOOL", 1},     {"FP8E4M3FN", 1}, {"FP8E8M0", 1}, {"FP4E2M1", 1},
};

const char *dtype_name(int dt)
{
    return dt >= 0 && dt < DT_COUNT ? DTYPES[dt].name : "UNKNOWN";
}

int dtype_size(int dt)
{
    return dt >= 0 && dt < DT_COUNT ? DTYPES[dt].size : 0;
}

int dtype_parse(const char *name)
{
    /* two characters first: most names share their first (F, I, U) */
    for (int i = 0; i < DT_COUNT; i++)
        if (DTYPES[i].name[0] == name[0] && name[0] && DTYPES[i].name[1] == name[1] &&
            strcmp(DTYPES[i].name, name) == 0)
            return i;
    return -1;
}

static void put_le(unsigned char *out, uint64_t v, int n)
{
    for (int i = 0; i < n; i++)
        out[i] = (unsigned char)(v >> (8 * i));
}

/* float -> IEEE half, round to nearest even (no NaN payloads). */
static uint16_t half_bits(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u, mant = x & 0x7fffffu;
    int exp = (int)((x >> 23) & 0xff);
    if (exp == 0xff)
        return (uint16_t)(sign | 0x7c00u | (mant ? 0x200u : 0));
    int e = exp - 127 + 15;
    if (e >= 0x1f)
        return (uint16_t)(sign | 0x7c00u);
    if (e <= 0) {
        if (e < -10)
            return (uint16_t)sign;
        mant |= 0x800000u;
        int shift = 14 - e;
        uint32_t half = mant >> shift, rem = mant & ((1u << shift) - 1), mid = 1u << (shift - 1);
        if (rem > mid || (rem == mid && (half & 1)))
            half++;
        return (uint16_t)(sign | half);
    }
    uint32_t half = ((uint32_t)e << 10) | (mant >> 13), rem = mant & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (half & 1)))
        half++;
    return (uint16_t)(sign | half);
}

static uint16_t bf16_bits(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    if ((x & 0x7f800000u) == 0x7f800000u && (x & 0x7fffffu))
        return (uint16_t)((x >> 16) | 0x40);
    x += 0x7fffu + ((x >> 16) & 1);
    return (uint16_t)(x >> 16);
}

static int64_t clamp_int(double v, double lo, double hi)
{
    if (isnan(v))
        return 0;
    if (v < lo)
        v = lo;
    if (v > hi)
        v = hi;
    return (int64_t)v;
}

void dtype_encode(int dt, double v, unsigned char *out)
{
    switch (dt) {
    case DT_FLOAT32: {
        float f = (float)v;
        uint32_t x;
        memcpy(&x, &f, 4);
        put_le(out, x, 4);
        break;
    }
    case DT_FLOAT16:
        put_le(out, half_bits((float)v), 2);
        break;
    case DT_BFLOAT16:
        put_le(out, bf16_bits((float)v), 2);
        break;
    case DT_INT8:
        put_le(out, (uint64_t)clamp_int(v, -128, 127), 1);
        break;
    case DT_INT16:
        put_le(out, (uint64_t)clamp_int(v, -32768, 32767), 2);
        break;
    case DT_INT32:
        put_le(out, (uint64_t)clamp_int(v, -2147483648.0, 2147483647.0), 4);
        break;
    case DT_INT64:
        put_le(out, (uint64_t)clamp_int(v, -9223372036854775808.0, 9223372036854774784.0), 8);
        break;
    case DT_UINT8:
        put_le(out, (uint64_t)clamp_int(v, 0, 255), 1);
        break;
    case DT_UINT16:
        put_le(out, (uint64_t)clamp_int(v, 0, 65535), 2);
        break;
    case DT_UINT32:
        put_le(out, (uint64_t)clamp_int(v, 0, 4294967295.0), 4);
        break;
    case DT_UINT64:
        put_le(out, v <= 0 || isnan(v) ? 0 : v >= 18446744073709549568.0 ? UINT64_MAX : (uint64_t)v, 8);
        break;
    case DT_BOOL:
        out[0] = v != 0;
        break;
    default: /* fp8 / fp4: the value's low byte */
        out[0] = (unsigned char)clamp_int(v, 0, 255);
        break;
    }
}
