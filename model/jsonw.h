/* jsonw.h - small helpers for writing JSON text with fprintf: escaped strings and numbers. */
#ifndef PTOSIM_JSONW_H
#define PTOSIM_JSONW_H

#include <stdio.h>

/* Writes s as a JSON string literal (quotes included), or null when s is NULL. */
void jsonw_str(FILE *f, const char *s);

/* Writes a double as a JSON number (null when not finite). */
void jsonw_num(FILE *f, double v);

#endif
