/* fuzz_platform.c - libFuzzer target: the platform loader (platform_load, then platform_validate). */
#include <stdint.h>
#include <stdio.h>

#include "../../model/chip/platform.h"
#include "fuzzutil.h"

#ifndef PTOSIM_DATADIR
#define PTOSIM_DATADIR "platforms"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64];
    if (!path[0])
        fuzz_scratch_path(path, sizeof(path), "platform.json");
    if (fuzz_write_file(path, data, size) != 0)
        return 0;
    platform p;
    char err[4096];
    /* "base" names resolve against the shipped platforms */
    if (platform_load(&p, path, PTOSIM_DATADIR, err, sizeof(err)) == 0)
        platform_validate(&p, err, sizeof(err));
    return 0;
}
