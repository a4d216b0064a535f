/* op_record.c - oprec_: parsed graph operations as compact byte records. */
/* How ops travel between threads and into a compiled graph. */
#include "op_record.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Fixed part of a record: the op up to its cost, then the counts. The scope
 * site travels only with a scope_begin (two thirds of a generated graph's
 * lines are scope ops, and the site is a fifth of the prefix). */
#define HEAD_BYTES offsetof(graph_op, site)                               /* kind, line, byte_end, manual */
#define SITE_BYTES (offsetof(graph_op, label) - offsetof(graph_op, site)) /* scope_begin only */
#define TASK_BYTES (offsetof(graph_op, cost) - offsetof(graph_op, label)) /* label .. has_cost */

static size_t align8(size_t n)
{
    return (n + 7) & ~(size_t)7;
}

static size_t prefix_bytes(graph_op_kind kind)
{
    return align8(HEAD_BYTES) + (kind == OP_SCOPE_BEGIN ? align8(SITE_BYTES) : 0) + align8(TASK_BYTES);
}

/* The counts after the fixed part, then the variable parts in this order. */
typedef struct oprec_counts {
    int32_t nargs;        /* graph_arg entries */
    int32_t nscalars;     /* graph_scalar entries */
    int32_t ndeps;        /* graph_dep entries */
    uint32_t ndata;       /* data values after the deps, over all args */
    uint64_t user_ns;     /* user_code time */
    int32_t record_bytes; /* the whole record, aligned: where the next one starts */
} oprec_counts;

/* Bytes of op's record before alignment; *ndata gets its data values. */
static size_t record_size(const graph_op *op, uint32_t *ndata)
{
    uint32_t nd = 0;
    for (int i = 0; i < op->nargs; i++)
        nd += op->args[i].ndata;
    *ndata = nd;
    return prefix_bytes(op->kind) + (op->has_cost ? align8(sizeof(graph_cost)) : 0) + sizeof(oprec_counts) +
           (size_t)op->nargs * sizeof(graph_arg) + (size_t)op->nscalars * sizeof(graph_scalar) +
           (size_t)op->ndeps * sizeof(graph_dep) + (size_t)nd * sizeof(double);
}

int oprec_append(oprec_buf *b, const graph_op *op, size_t min_cap)
{
    uint32_t ndata;
    size_t n = align8(record_size(op, &ndata));
    if (b->used + n > b->cap) {
        size_t cap = b->cap ? b->cap : min_cap ? min_cap : 4096;
        while (b->used + n > cap)
            cap *= 2;
        unsigned char *p = realloc(b->buf, cap);
        if (!p)
            return -1;
        b->buf = p;
        b->cap = cap;
    }
    unsigned char *p = b->buf + b->used;
    memset(p, 0, n); /* alignment gaps carry no stale bytes into a file */
    memcpy(p, op, HEAD_BYTES);
    p += align8(HEAD_BYTES);
    if (op->kind == OP_SCOPE_BEGIN) {
        memcpy(p, op->site, SITE_BYTES);
        p += align8(SITE_BYTES);
    }
    memcpy(p, &op->label, TASK_BYTES);
    p += align8(TASK_BYTES);
    if (op->has_cost) {
        memcpy(p, &op->cost, sizeof(graph_cost));
        p += align8(sizeof(graph_cost));
    }
    /* field by field into the record (zeroed above): a struct built on the stack and copied whole
     * stalled on store forwarding, most of this function's time */
    int32_t nargs = op->nargs, nscalars = op->nscalars, ndeps = op->ndeps, record_bytes = (int32_t)n;
    uint64_t user_ns = op->user_ns;
    memcpy(p + offsetof(oprec_counts, nargs), &nargs, sizeof(nargs));
    memcpy(p + offsetof(oprec_counts, nscalars), &nscalars, sizeof(nscalars));
    memcpy(p + offsetof(oprec_counts, ndeps), &ndeps, sizeof(ndeps));
    memcpy(p + offsetof(oprec_counts, ndata), &ndata, sizeof(ndata));
    memcpy(p + offsetof(oprec_counts, user_ns), &user_ns, sizeof(user_ns));
    memcpy(p + offsetof(oprec_counts, record_bytes), &record_bytes, sizeof(record_bytes));
    p += sizeof(oprec_counts);
    memcpy(p, op->args, (size_t)op->nargs * sizeof(graph_arg));
    /* the data pointers are this process's addresses; the reader sets them */
    for (int i = 0; i < op->nargs; i++)
        memset(p + (size_t)i * sizeof(graph_arg) + offsetof(graph_arg, data), 0, sizeof(op->args[i].data));
    p += (size_t)op->nargs * sizeof(graph_arg);
    /* scalars and deps field by field: their padding (the reader's dependency buffer is realloc'd, never
     * cleared) must not carry stray bytes into the records, which are compared with a fresh compile's */
    for (int i = 0; i < op->nscalars; i++, p += sizeof(graph_scalar)) {
        const graph_scalar *sc = &op->scalars[i];
        memcpy(p + offsetof(graph_scalar, dtype), &sc->dtype, sizeof(sc->dtype));
        memcpy(p + offsetof(graph_scalar, value), &sc->value, sizeof(sc->value));
        memcpy(p + offsetof(graph_scalar, dump), &sc->dump, sizeof(sc->dump));
    }
    for (int i = 0; i < op->ndeps; i++, p += sizeof(graph_dep)) {
        memcpy(p + offsetof(graph_dep, label), &op->deps[i].label, sizeof(op->deps[i].label));
        memcpy(p + offsetof(graph_dep, raw_id), &op->deps[i].raw_id, sizeof(op->deps[i].raw_id));
    }
    for (int i = 0; i < op->nargs; i++)
        if (op->args[i].ndata) {
            memcpy(p, op->args[i].data, op->args[i].ndata * sizeof(double));
            p += op->args[i].ndata * sizeof(double);
        }
    b->used += n;
    return 0;
}

void oprec_read(const unsigned char *base, size_t *pos, graph_op *op)
{
    const unsigned char *p = base + *pos;
    memcpy(op, p, HEAD_BYTES);
    p += align8(HEAD_BYTES);
    if (op->kind == OP_SCOPE_BEGIN) { /* other ops leave the site as it was: nothing reads it */
        memcpy(op->site, p, SITE_BYTES);
        p += align8(SITE_BYTES);
    }
    memcpy(&op->label, p, TASK_BYTES);
    p += align8(TASK_BYTES);
    if (op->has_cost) {
        memcpy(&op->cost, p, sizeof(graph_cost));
        p += align8(sizeof(graph_cost));
    }
    oprec_counts k;
    memcpy(&k, p, sizeof(k));
    p += sizeof(k);
    op->nargs = k.nargs;
    op->nscalars = k.nscalars;
    op->ndeps = k.ndeps;
    op->user_ns = k.user_ns;
    memcpy(op->args, p, (size_t)k.nargs * sizeof(graph_arg));
    p += (size_t)k.nargs * sizeof(graph_arg);
    memcpy(op->scalars, p, (size_t)k.nscalars * sizeof(graph_scalar));
    p += (size_t)k.nscalars * sizeof(graph_scalar);
    op->deps = k.ndeps ? (graph_dep *)p : NULL; /* records are 8-byte aligned */
    p += (size_t)k.ndeps * sizeof(graph_dep);
    for (int i = 0; i < op->nargs; i++) {
        op->args[i].data = op->args[i].ndata ? (const double *)p : NULL;
        p += op->args[i].ndata * sizeof(double);
    }
    *pos += (size_t)k.record_bytes;
}

int oprec_read_checked(const unsigned char *base, size_t end, size_t *pos, graph_op *op)
{
    size_t at = *pos;
    if (at > end || end - at < align8(HEAD_BYTES))
        return -1;
    int kind;
    memcpy(&kind, base + at + offsetof(graph_op, kind), sizeof(kind));
    if (kind < OP_SCOPE_BEGIN || kind > OP_USER_CODE)
        return -1;
    size_t off = prefix_bytes((graph_op_kind)kind);
    if (end - at < off)
        return -1;
    unsigned char has_cost; /* read as a byte: a bool must only ever hold 0 or 1 */
    memcpy(&has_cost,
           base + at + off - align8(TASK_BYTES) + offsetof(graph_op, has_cost) - offsetof(graph_op, label),
           1);
    if (has_cost > 1)
        return -1;
    off += has_cost ? align8(sizeof(graph_cost)) : 0;
    if (end - at < off + sizeof(oprec_counts))
        return -1;
    oprec_counts k;
    memcpy(&k, base + at + off, sizeof(k));
    if (k.nargs < 0 || k.nargs > GRAPH_MAX_TENSOR_ARGS || k.nscalars < 0 ||
        k.nscalars > GRAPH_MAX_SCALAR_ARGS || k.ndeps < 0 || k.record_bytes <= 0 ||
        (size_t)k.record_bytes > end - at)
        return -1;
    size_t need = off + sizeof(k) + (size_t)k.nargs * sizeof(graph_arg) +
                  (size_t)k.nscalars * sizeof(graph_scalar) + (size_t)k.ndeps * sizeof(graph_dep) +
                  (size_t)k.ndata * sizeof(double);
    if (align8(need) != (size_t)k.record_bytes)
        return -1;
    oprec_read(base, pos, op);
    uint64_t nd = 0;
    for (int i = 0; i < op->nargs; i++) {
        if (op->args[i].ndim < 0 || op->args[i].ndim > GRAPH_MAX_DIMS)
            return -1;
        nd += op->args[i].ndata;
    }
    return nd == k.ndata ? 0 : -1;
}

/* FNV-1a over a list of numbers. */
static uint64_t fnv(uint64_t h, uint64_t v)
{
    for (int i = 0; i < 8; i++) {
        h ^= (v >> (8 * i)) & 0xff;
        h *= 0x100000001b3ULL;
    }
    return h;
}

uint64_t oprec_layout(void)
{
    const uint32_t probe = 0x01020304; /* byte order */
    unsigned char first;
    memcpy(&first, &probe, 1);
    const uint64_t v[] = {first,
                          sizeof(graph_op),
                          HEAD_BYTES,
                          SITE_BYTES,
                          TASK_BYTES,
                          offsetof(graph_op, kind),
                          offsetof(graph_op, has_cost),
                          sizeof(graph_cost),
                          sizeof(graph_arg),
                          offsetof(graph_arg, data),
                          sizeof(graph_scalar),
                          sizeof(graph_dep),
                          sizeof(oprec_counts),
                          sizeof(bool),
                          sizeof(int),
                          sizeof(void *),
                          GRAPH_MAX_DIMS,
                          GRAPH_MAX_TENSOR_ARGS,
                          GRAPH_MAX_SCALAR_ARGS,
                          GRAPH_SITE_MAX,
                          GRAPH_VERSION};
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
        h = fnv(h, v[i]);
    return h;
}
