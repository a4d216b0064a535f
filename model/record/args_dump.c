/* args_dump.c - argsdump_: args dump records, payloads in args.bin, the sorted args_dump.json. */
#include "args_dump.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/dtype.h"
#include "../base/outfile.h"
#include "../base/vec.h"
#include "../base/write_buffer.h"

int argsdump_init(argsdump *d, int level, dump_payload_mode mode, uint64_t arena)
{
    memset(d, 0, sizeof(*d));
    d->level = level;
    d->mode = mode;
    d->arena = arena;
    return 0;
}

void argsdump_free(argsdump *d)
{
    free(d->recs);
    free(d->vals);
    free(d->val_start);
    memset(d, 0, sizeof(*d));
}

long argsdump_add(argsdump *d, const dump_rec *r, const double *values)
{
    if (vec_grow((void **)&d->recs, &d->cap, d->n, sizeof(*d->recs)) != 0)
        return -1;
    dump_rec *x = &d->recs[d->n];
    *x = *r;
    x->bin_size = x->bin_offset = 0;
    x->truncated = x->persisted = x->dropped = false;
    x->values = 0;
    if (x->payload && !x->scalar) {
        uint64_t bytes = x->numel * (uint64_t)dtype_size(x->dtype);
        if (bytes > d->arena) {
            bytes = d->arena / 2;
            x->truncated = true;
        }
        x->bin_size = bytes;
        if (values) {
            if (vec_grow((void **)&d->val_start, &d->valsetcap, d->nvalsets, sizeof(*d->val_start)) != 0)
                return -1;
            while (d->nvals + x->numel > d->valcap) {
                size_t ncap = d->valcap ? d->valcap * 2 : 256;
                double *nv = realloc(d->vals, ncap * sizeof(*nv));
                if (!nv)
                    return -1;
                d->vals = nv;
                d->valcap = ncap;
            }
            d->val_start[d->nvalsets++] = d->nvals;
            memcpy(d->vals + d->nvals, values, x->numel * sizeof(double));
            d->nvals += x->numel;
            x->values = (uint32_t)d->nvalsets;
        }
    }
    return (long)d->n++;
}

/* Writes the payload of r: its known values, or the fill. */
static int write_payload(argsdump *d, const dump_rec *r)
{
    int es = dtype_size(r->dtype);
    if (r->values) {
        const double *v = d->vals + d->val_start[r->values - 1];
        unsigned char b[8];
        uint64_t n = r->bin_size / (uint64_t)es;
        for (uint64_t i = 0; i < n; i++) {
            dtype_encode(r->dtype, v[i], b);
            if (fwrite(b, (size_t)es, 1, d->bin) != 1)
                return -1;
        }
        return 0;
    }
    if (d->mode == DUMP_PAYLOAD_SPARSE) /* a hole reads as zeros */
        return fseeko(d->bin, (off_t)r->bin_size, SEEK_CUR);
    unsigned char buf[1 << 16];
    uint64_t n = r->bin_size / (uint64_t)es, i = 0;
    while (i < n) {
        size_t k = 0;
        for (; i < n && k + (size_t)es <= sizeof(buf); i++, k += (size_t)es)
            dtype_encode(r->dtype, (double)(i % 256), buf + k);
        if (fwrite(buf, 1, k, d->bin) != k)
            return -1;
    }
    return 0;
}

int argsdump_persist(argsdump *d, size_t i)
{
    dump_rec *r = &d->recs[i];
    if (r->persisted)
        return 0;
    r->persisted = true;
    d->persisted++;
    if (!r->bin_size)
        return 0;
    r->bin_offset = d->bin_end;
    d->bin_end += r->bin_size;
    d->payload_written++;
    if (!d->bin)
        return 0;
    return write_payload(d, r);
}

int argsdump_finish_bin(argsdump *d)
{
    if (!d->bin)
        return 0;
    if (fflush(d->bin) != 0)
        return -1;
    return ftruncate(fileno(d->bin), (off_t)d->bin_end);
}

static int by_manifest_order(const void *a, const void *b)
{
    const dump_rec *x = *(const dump_rec *const *)a, *y = *(const dump_rec *const *)b;
    if (x->task_id != y->task_id)
        return x->task_id < y->task_id ? -1 : 1;
    if (x->stage != y->stage)
        return x->stage < y->stage ? -1 : 1;
    if (x->arg_index != y->arg_index)
        return x->arg_index < y->arg_index ? -1 : 1;
    return x->role < y->role ? -1 : x->role > y->role;
}

static void put_ints(wbuf *f, const int64_t *v, int n)
{
    wbuf_char(f, '[');
    for (int i = 0; i < n; i++) {
        if (i)
            wbuf_lit(f, ", ");
        wbuf_i64(f, v[i]);
    }
    wbuf_char(f, ']');
}

/* A scalar's "value" as the writer emits it (model/README.md §16.5). */
static void put_scalar(wbuf *f, int dt, double v)
{
    switch (dt) {
    case DT_FLOAT32: {
        float x = (float)v;
        if (isnan(x)) {
            wbuf_lit(f, "null");
        } else if (isinf(x)) {
            wbuf_str(f, x > 0 ? "\"$Inf\"" : "\"-$Inf\"");
        } else {
            char b[64];
            if (!wbuf_float9_text(b, x)) /* not finite or far from 1: rare, printf's */
                snprintf(b, sizeof(b), "%.9g", (double)x);
            wbuf_str(f, b);
            if (!strpbrk(b, ".eE"))
                wbuf_lit(f, ".0");
        }
        return;
    }
    case DT_INT32:
    case DT_INT64:
        wbuf_i64(f, (int64_t)v);
        return;
    case DT_UINT32:
        wbuf_u64(f, (uint64_t)(v < 0 ? 0 : v));
        return;
    case DT_BOOL:
        wbuf_str(f, v != 0 ? "true" : "false");
        return;
    default: { /* the raw 64-bit slot: the element's bytes, zero-extended */
        unsigned char b[8] = {0};
        dtype_encode(dt, v, b);
        uint64_t raw = 0;
        for (int i = 7; i >= 0; i--)
            raw = raw << 8 | b[i];
        wbuf_u64(f, raw);
        return;
    }
    }
}

static const char *const STAGES[2] = {"before_dispatch", "after_completion"};
static const char *const ROLES[3] = {"input", "output", "inout"};

int argsdump_write_manifest(const argsdump *d, const char *path, bool bin_written, char *err, size_t errlen)
{
    const dump_rec **order = malloc((d->n ? d->n : 1) * sizeof(*order));
    if (!order) {
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    size_t n = 0;
    uint64_t stage[2] = {0}, role[3] = {0}, truncated = 0;
    for (size_t i = 0; i < d->n; i++) {
        const dump_rec *r = &d->recs[i];
        if (r->dropped)
            continue;
        order[n++] = r;
        stage[r->stage]++;
        role[r->role]++;
        truncated += r->truncated;
    }
    qsort(order, n, sizeof(*order), by_manifest_order);
    outfile of;
    FILE *file = outfile_open(&of, path, err, errlen);
    if (!file) {
        free(order);
        return -1;
    }
    /* through a write_buffer, no printf: one record is a dozen numbers, a run has thousands */
    wbuf buf, *f = &buf;
    if (wbuf_open_fd(f, fileno(file)) != 0) {
        free(order);
        outfile_abort(&of);
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    wbuf_lit(f, "{\n  \"run_dir\": \"args_dump\",\n  \"bin_format\": {\"type\": \"logical_contiguous\", "
                "\"byte_order\": \"little_endian\"},\n  \"dump_args_level\": ");
    wbuf_i64(f, d->level);
    wbuf_lit(f, ",\n  \"total_args\": ");
    wbuf_u64(f, n);
    wbuf_lit(f, ",\n  \"before_dispatch\": ");
    wbuf_u64(f, stage[0]);
    wbuf_lit(f, ",\n  \"after_completion\": ");
    wbuf_u64(f, stage[1]);
    wbuf_lit(f, ",\n  \"input_args\": ");
    wbuf_u64(f, role[0]);
    wbuf_lit(f, ",\n  \"output_args\": ");
    wbuf_u64(f, role[1]);
    wbuf_lit(f, ",\n  \"inout_args\": ");
    wbuf_u64(f, role[2]);
    wbuf_lit(f, ",\n  \"truncated_args\": ");
    wbuf_u64(f, truncated);
    wbuf_lit(f, ",\n  \"dropped_records\": ");
    wbuf_u64(f, d->dropped);
    wbuf_lit(f, ",\n  \"dropped_overwrite\": 0,\n  \"bin_file\": ");
    wbuf_str(f, bin_written ? "\"args.bin\"" : "null");
    wbuf_lit(f, ",\n  \"args\": [");
    for (size_t i = 0; i < n; i++) {
        const dump_rec *r = order[i];
        if (i)
            wbuf_char(f, ',');
        wbuf_lit(f, "\n    {\"task_id\": \"0x");
        wbuf_hex16(f, r->task_id);
        wbuf_lit(f, "\", \"func_id\": [");
        for (int k = 0; k < r->nfunc; k++) {
            if (k)
                wbuf_lit(f, ", ");
            wbuf_i64(f, r->func[k]);
        }
        wbuf_lit(f, "], \"arg_index\": ");
        wbuf_u64(f, r->arg_index);
        wbuf_lit(f, ", \"role\": \"");
        wbuf_str(f, ROLES[r->role]);
        wbuf_lit(f, "\", \"stage\": \"");
        wbuf_str(f, STAGES[r->stage]);
        wbuf_lit(f, "\", \"kind\": \"");
        wbuf_str(f, r->scalar ? "scalar" : "tensor");
        wbuf_lit(f, "\", \"dtype\": \"");
        wbuf_str(f, dtype_name(r->dtype));
        wbuf_lit(f, "\", ");
        if (r->scalar) {
            wbuf_lit(f, "\"value\": ");
            put_scalar(f, r->dtype, r->value);
            wbuf_lit(f, ", \"is_contiguous\": true, \"shape\": [], \"strides\": [], \"start_offset\": 0, "
                        "\"numel\": 1, ");
        } else {
            wbuf_lit(f, "\"is_contiguous\": ");
            wbuf_str(f, r->contiguous ? "true" : "false");
            wbuf_lit(f, ", \"shape\": ");
            put_ints(f, r->shape, r->ndim);
            wbuf_lit(f, ", \"strides\": ");
            put_ints(f, r->strides, r->ndim);
            wbuf_lit(f, ", \"start_offset\": ");
            wbuf_u64(f, r->start_offset);
            wbuf_lit(f, ", \"numel\": ");
            wbuf_u64(f, r->numel);
            wbuf_lit(f, ", ");
        }
        wbuf_lit(f, "\"bin_offset\": ");
        wbuf_u64(f, r->bin_size ? r->bin_offset : 0);
        wbuf_lit(f, ", \"bin_size\": ");
        wbuf_u64(f, r->bin_size);
        wbuf_lit(f, ", \"truncated\": ");
        wbuf_str(f, r->truncated ? "true" : "false");
        wbuf_lit(f, ", \"overwritten\": false}");
    }
    wbuf_str(f, n ? "\n  ]\n}\n" : "]\n}\n");
    free(order);
    if (wbuf_close(f) != 0) {
        snprintf(err, errlen, "%s: write failed: %s", of.path, strerror(errno));
        outfile_abort(&of);
        return -1;
    }
    return outfile_commit(&of, err, errlen);
}
