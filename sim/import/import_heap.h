/* import_heap.h - import_heap_: which buffer each arg of an imported capture names (import_heap.c). */
#ifndef PTOSIM_IMPORT_HEAP_H
#define PTOSIM_IMPORT_HEAP_H

#include "import_state.h"

/* Locates the heap arena, gives each runtime-created buffer to the task that made it, binds the readers,
 * and infers manual_dep. Returns 0 or -1. */
int import_heap_buffers(importer *im);

#endif
