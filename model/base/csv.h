/* csv.h - CSV as RFC 4180 has it: fields written quoted when they must be, records read back with quotes. */
#ifndef PTOSIM_CSV_H
#define PTOSIM_CSV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Would a spreadsheet evaluate s: does it begin with = + - @, a tab or CR (or
 * an apostrophe, the guard itself) without being a number? */
bool csv_formula(const char *s);

/* Does s need quoting: does it hold a comma, a double quote, CR or LF, or is
 * it a csv_formula? */
bool csv_needs_quotes(const char *s);

/* Writes s as one field: as it is, or between double quotes with each quote
 * doubled when csv_needs_quotes(s), after an apostrophe when csv_formula(s)
 * (a reader that wants the text back drops one leading apostrophe). NULL
 * writes an empty field. */
void csv_put(FILE *f, const char *s);

/* The end of the record starting at s: the first LF outside quotes (a CR
 * before it belongs to the line break), or the terminating NUL. An unclosed
 * quote runs to the NUL. */
const char *csv_record_end(const char *s);

/* Splits one record in place: rec holds the record without its line break
 * (a trailing CR is dropped). Fields are unquoted and their doubled quotes
 * made single. Stores at most max field pointers in f and returns the field
 * count (max + 1 when there are more), or -1 when a quoted field is not
 * closed or its closing quote is followed by something other than a comma. */
int csv_split(char *rec, char **f, int max);

/* The number of fields of the record starting at s (up to csv_record_end),
 * -1 when its quoting is malformed (as csv_split). */
int csv_count(const char *s);

/* Copies field col (from 0) of the record starting at s, unquoted, into out
 * (truncated to n - 1 bytes). Returns false when the record has no such
 * field or its quoting is malformed. */
bool csv_get(const char *s, int col, char *out, size_t n);

#endif
