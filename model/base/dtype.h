/* dtype.h - the runtime's tensor element types: names and sizes (model/README.md §16.1). */
#ifndef PTOSIM_DTYPE_H
#define PTOSIM_DTYPE_H

/* Enum order is the runtime's raw value order (data_type.h). */
typedef enum dtype {
    DT_FLOAT32,
    DT_FLOAT16,
    DT_INT32,
    DT_INT16,
    DT_INT8,
    DT_UINT8,
    DT_BFLOAT16,
    DT_INT64,
    DT_UINT64,
    DT_UINT16,
    DT_UINT32,
    DT_BOOL,
    DT_FP8E4M3FN,
    DT_FP8E8M0,
    DT_FP4E2M1,
    DT_COUNT
} dtype;

/* Upper-case name as the runtime writes it ("FLOAT32"), "UNKNOWN" if out of range. */
const char *dtype_name(int dt);

/* Element size in bytes (0 if out of range). */
int dtype_size(int dt);

/* Parses an upper-case dtype name. Returns the dtype, or -1 if unknown. */
int dtype_parse(const char *name);

/* Writes value v as one little-endian element of dtype dt into out
 * (dtype_size(dt) bytes): IEEE single, half (round to nearest even) and
 * bfloat16 (round to nearest even) for the float types, two's complement
 * (saturating) for integers, 0/1 for BOOL, the raw low byte for 8-bit and
 * 4-bit float formats. */
void dtype_encode(int dt, double v, unsigned char *out);

#endif
