/* perfetto_writer.h - pf_: writing ptosim's Chrome/Perfetto JSON trace of a finished run. */
#ifndef PTOSIM_PERFETTO_WRITER_H
#define PTOSIM_PERFETTO_WRITER_H

#include <stddef.h>

struct chip;

/* Writes the trace of chip c (which collected it) to path, through a
 * temporary file renamed into place: the file is whole or absent. Returns 0,
 * or -1 with a message in err. */
int pf_write(const struct chip *c, const char *path, char *err, size_t errlen);

#endif
