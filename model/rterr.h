/* rterr.h - the runtime's error codes with their names, details and hints (runtime.md §1.8). */
#ifndef PTOSIM_RTERR_H
#define PTOSIM_RTERR_H

/* Name of a runtime error code ("SCOPE_DEADLOCK"), or "UNKNOWN". */
const char *rterr_name(int code);

/* One-line description of what the code means. */
const char *rterr_detail(int code);

/* What to do about it. */
const char *rterr_hint(int code);

#endif
