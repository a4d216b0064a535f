/* dtype.c - dtype name and size table. */
#include "dtype.h"

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
    for (int i = 0; i < DT_COUNT; i++)
        if (strcmp(DTYPES[i].name, name) == 0)
            return i;
    return -1;
}
