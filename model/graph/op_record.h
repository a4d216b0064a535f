/* op_record.h - oprec_: parsed graph operations as compact byte records. */
/* How ops travel between threads and into a compiled graph. */
#ifndef PTOSIM_OP_RECORD_H
#define PTOSIM_OP_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "graph_reader.h"

/* A growing run of records, each 8-byte aligned (so a record's deps and data
 * can be pointed at in place). */
typedef struct oprec_buf {
    unsigned char *buf; /* the records */
    size_t used;        /* bytes in use */
    size_t cap;         /* bytes allocated */
} oprec_buf;

/* Appends op to b (allocating at least min_cap bytes the first time).
 * Returns 0, or -1 when out of memory. */
int oprec_append(oprec_buf *b, const graph_op *op, size_t min_cap);

/* Reads the record at base + *pos into op and advances *pos past it; the
 * deps and data pointers in op point into base. Trusts the record: for
 * records of this process. */
void oprec_read(const unsigned char *base, size_t *pos, graph_op *op);

/* As oprec_read, for records from a file: first checks that the record at
 * base + *pos lies within end and that its counts are in range (a checksum
 * vouches for the rest). Returns 0, or -1 when it is not a whole record. */
int oprec_read_checked(const unsigned char *base, size_t end, size_t *pos, graph_op *op);

/* A number that changes whenever the records' byte layout does (struct
 * sizes and offsets, limits, byte order): records are only read by a build
 * with the same layout. */
uint64_t oprec_layout(void);

#endif
