/* simgrid_load.c - sgload_: SimGrid loaded when a command first simulates, not at every process start. */
#include "simgrid_load.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "simgrid_calls.h"

#ifndef PTOSIM_SIMGRID_LIB
#define PTOSIM_SIMGRID_LIB                                                                                   \
    "libsimgrid.so" /* the Makefile names the soname it linked the headers' library by */
#endif

#define SGLOAD_DEFINE(f) __typeof__(f) *sgload_##f;
SGLOAD_FUNCS(SGLOAD_DEFINE)
#undef SGLOAD_DEFINE

static void *lib; /* the loaded library: never closed, as SimGrid's engine cannot be unloaded */

int sgload_open_from(const char *name, char *err, size_t errlen)
{
    if (lib)
        return 0;
    void *h = dlopen(name, RTLD_NOW | RTLD_GLOBAL);
    if (!h) {
        const char *why = dlerror();
        if (err)
            snprintf(err, errlen, "cannot load SimGrid (%s): %s", name, why ? why : "unknown error");
        return -1;
    }
    void *sym;
#define SGLOAD_RESOLVE(f)                                                                                    \
    if (!(sym = dlsym(h, #f))) {                                                                             \
        if (err)                                                                                             \
            snprintf(err, errlen, "cannot load SimGrid (%s): it has no %s", name, #f);                       \
        dlclose(h);                                                                                          \
        return -1;                                                                                           \
    }                                                                                                        \
    memcpy(&sgload_##f, &sym, sizeof(sym));
    SGLOAD_FUNCS(SGLOAD_RESOLVE)
#undef SGLOAD_RESOLVE
    lib = h;
    return 0;
}

int sgload_open(char *err, size_t errlen)
{
    return sgload_open_from(PTOSIM_SIMGRID_LIB, err, errlen);
}
