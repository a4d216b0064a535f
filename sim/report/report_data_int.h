/* report_data_int.h - rd_: what the report_data*.c files share: a file's context, errors, reading, CSV. */
/* Only sim/report/report_data*.c include it: report_data.c defines these, report_data_dfx.c and
 * report_data_sweep.c read their files with them. */
#ifndef PTOSIM_REPORT_DATA_INT_H
#define PTOSIM_REPORT_DATA_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cJSON.h>

#include "../../model/base/readall.h"

/* A file being read: its messages name it (the ptosim_run.json fields and the jscan readers). */
typedef struct jctx {
    const char *path;
    char *err;
    size_t errlen;
} jctx;

/* Formats the message into err; returns RD_BAD. */
int rd_bad(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Reads a whole file of kind into a NUL-terminated buffer. RD_ABSENT when it does not exist. */
int rd_slurp(const char *path, readall_kind kind, char **text, size_t *len, char *err, size_t errlen);

/* Reads the JSON file at path (of kind) whole: its root in *root, which the caller deletes. RD_ABSENT when
 * it does not exist; RD_BAD with FILE:LINE:COL in err when it is no JSON. */
int rd_read_json(const char *path, readall_kind kind, cJSON **root, char *err, size_t errlen);

/* Appends one element to a growing array; false when out of memory. */
bool rd_grow(void **v, size_t *cap, size_t n, size_t size);

/* Copies src (NULL: "") into dst of n bytes, cut to fit. */
void rd_copy_str(char *dst, size_t n, const char *src);

/* qsort's comparison of two uint64_t. */
int rd_cmp_u64(const void *a, const void *b);

/* CSV files (pmu.csv, sweep.csv): the next record cut off *p in place (NULL at the end), its first line in
 * *start; the message of broken quoting on line; a data record split into f, checked against the header's
 * nh fields. */
char *rd_next_record(char **p, int *line, int *start);
int rd_quoting_bad(char *err, size_t errlen, const char *path, int line);
int rd_split_row(const char *path, int line, char *rec, char **f, int max, int nh, char *err, size_t errlen);

/* A cell as an unsigned decimal integer; as an int. */
bool rd_parse_u64(const char *s, uint64_t *v);
bool rd_parse_int(const char *s, int *v);

struct cJSON;
struct rd_roof;

/* ptosim_run.json's "roofline" (report_data_roof.c): absent or null leaves out->given false. Returns 0, or
 * RD_BAD with "FILE: FIELD: what is wrong" in c's err. */
int rd_load_roof(jctx *c, const struct cJSON *root, struct rd_roof *out);

#endif
