/* json_writer.h - jsonw_: small helpers for writing JSON text with fprintf: escaped strings and numbers. */
#ifndef PTOSIM_JSON_WRITER_H
#define PTOSIM_JSON_WRITER_H

#include <stdint.h>
#include <stdio.h>

/* Writes s as a JSON string literal (quotes included), or null when s is NULL. */
void jsonw_str(FILE *f, const char *s);

/* Writes a double as a JSON number (null when not finite). */
void jsonw_num(FILE *f, double v);

/* Writes an unsigned / signed integer in decimal (no printf: outputs write
 * millions of them). */
void jsonw_u64(FILE *f, uint64_t v);
void jsonw_i64(FILE *f, int64_t v);

/* Writes an unsigned integer as a quoted decimal string ("123"). */
void jsonw_qu64(FILE *f, uint64_t v);

#endif
