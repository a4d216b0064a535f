/* dep_gen.c - depgen_: the deps.json writer. */
/* Per submit its task entry, new tensors and edges (explicit, then creator and TensorMap per arg). */
#include "dep_gen.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../base/dtype.h"
#include "../base/outfile.h"

static const char *const TYPE_NAMES[] = {"INPUT", "OUTPUT", "INOUT", "OUTPUT_EXISTING", "UNKNOWN"};

uint64_t depgen_tensor_id(uint64_t addr, int32_t version)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    uint32_t ver = (uint32_t)version;
    for (int i = 0; i < 8; i++) {
        h ^= (addr >> (8 * i)) & 0xFF;
        h *= 0x100000001b3ULL;
    }
    for (int i = 0; i < 4; i++) {
        h ^= (ver >> (8 * i)) & 0xFF;
        h *= 0x100000001b3ULL;
    }
    return h;
}

int depgen_init(depgen *d, const uint32_t window[TMAP_RINGS], bool files, char *err, size_t errlen)
{
    memset(d, 0, sizeof(*d));
    if (files) {
        d->files = true;
        if (wbuf_open_scratch(&d->tasks) != 0 || wbuf_open_scratch(&d->tensors) != 0 ||
            wbuf_open_scratch(&d->edges) != 0) {
            snprintf(err, errlen, "cannot create temporary files for deps.json: %s", strerror(errno));
            depgen_free(d);
            return -1;
        }
    }
    if (tmap_init(&d->logical, 0, window, true) != 0) {
        snprintf(err, errlen, "out of memory for deps.json");
        depgen_free(d);
        return -1;
    }
    return 0;
}

int depgen_open(depgen *d, const char *path, char *err, size_t errlen)
{
    assert(d->files && !d->out && d->ntasks == 0);
    outfile *of = malloc(sizeof(*of));
    if (!of) {
        snprintf(err, errlen, "out of memory for deps.json");
        return -1;
    }
    FILE *f = outfile_open(of, path, err, errlen);
    if (!f) {
        free(of);
        return -1;
    }
    wbuf_close(&d->tasks); /* the scratch file, still empty */
    if (fflush(f) != 0 || wbuf_open_fd(&d->tasks, fileno(f)) != 0) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        outfile_abort(of);
        free(of);
        return -1;
    }
    d->out = of;
    wbuf_lit(&d->tasks, "{\"tasks\":[");
    return 0;
}

void depgen_free(depgen *d)
{
    if (d->out) /* never finished: the file goes */
        outfile_abort(d->out);
    free(d->out);
    wbuf_close(&d->tasks);
    wbuf_close(&d->tensors);
    wbuf_close(&d->edges);
    free(d->seen);
    free(d->preds);
    if (d->logical.pool)
        tmap_free(&d->logical);
    memset(d, 0, sizeof(*d));
}

/* Adds id to the set of tensors already listed; returns 1 if it was new, -1 on OOM. */
static int seen_add(depgen *d, uint64_t id)
{
    if (id == 0) {
        int fresh = !d->seen_zero;
        d->seen_zero = true;
        return fresh;
    }
    if ((d->nseen + 1) * 2 > d->seen_cap) {
        size_t ncap = d->seen_cap ? d->seen_cap * 2 : 1024;
        uint64_t *ns = calloc(ncap, sizeof(*ns));
        if (!ns)
            return -1;
        for (size_t i = 0; i < d->seen_cap; i++)
            if (d->seen[i]) {
                size_t j = (d->seen[i] * 0x9E3779B97F4A7C15ULL) & (ncap - 1);
                while (ns[j])
                    j = (j + 1) & (ncap - 1);
                ns[j] = d->seen[i];
            }
        free(d->seen);
        d->seen = ns;
        d->seen_cap = ncap;
    }
    size_t j = (id * 0x9E3779B97F4A7C15ULL) & (d->seen_cap - 1);
    while (d->seen[j]) {
        if (d->seen[j] == id)
            return 0;
        j = (j + 1) & (d->seen_cap - 1);
    }
    d->seen[j] = id;
    d->nseen++;
    return 1;
}

static bool pred_seen(const depgen *d, uint64_t p)
{
    for (size_t i = 0; i < d->npreds; i++)
        if (d->preds[i] == p)
            return true;
    return false;
}

static int pred_add(depgen *d, uint64_t p)
{
    if (pred_seen(d, p))
        return 0;
    if (d->npreds == d->preds_cap) {
        size_t ncap = d->preds_cap ? d->preds_cap * 2 : 64;
        uint64_t *np = realloc(d->preds, ncap * sizeof(*np));
        if (!np)
            return -1;
        d->preds = np;
        d->preds_cap = ncap;
    }
    d->preds[d->npreds++] = p;
    return 0;
}

/* The files are written a record at a time at one room (wbuf_room) with the two-digit decimal writers:
 * deps.json has tens of millions of numbers. A view's text is at most DG_VIEW_MAX bytes with its keys
 * (each under 32 bytes), a record's fixed text and numbers at most DG_FIXED_MAX; names are added. */
#define DG_DIMS_MAX (2 + TMAP_MAX_DIMS * 22)
#define DG_VIEW_MAX (3 * 32 + 2 * DG_DIMS_MAX + 22)
#define DG_FIXED_MAX 256

/* Writes a string of n bytes at p. */
static char *bytes_at(char *p, const char *s, size_t n)
{
    memcpy(p, s, n);
    return p + n;
}

static char *dims_at(char *p, const int64_t *v, int n)
{
    *p++ = '[';
    for (int i = 0; i < n; i++) {
        if (i)
            *p++ = ',';
        p = wbuf_sdec_at(p, v[i]);
    }
    *p++ = ']';
    return p;
}

/* A view's shape, start offset and strides under the three keys given (each with the text before it). */
#define VIEW_AT(p, shape_key, start_key, strides_key, v)                                                     \
    do {                                                                                                     \
        (p) = wbuf_lit_at((p), shape_key);                                                                   \
        (p) = dims_at((p), (v)->shape, (v)->ndims);                                                          \
        (p) = wbuf_lit_at((p), start_key "\"");                                                              \
        (p) = wbuf_dec_at((p), (v)->start);                                                                  \
        (p) = wbuf_lit_at((p), "\"" strides_key);                                                            \
        (p) = dims_at((p), (v)->strides, (v)->ndims);                                                        \
    } while (0)

/* Starts an edge object at p: pred, succ, arg, source, flags. */
static char *edge_head_at(depgen *d, char *p, uint64_t pred, uint64_t succ, int arg, const char *source,
                          size_t source_len, bool retain)
{
    if (d->nedges > 1)
        *p++ = ',';
    p = wbuf_lit_at(p, "{\"pred\":\"");
    p = wbuf_dec_at(p, pred);
    p = wbuf_lit_at(p, "\",\"succ\":\"");
    p = wbuf_dec_at(p, succ);
    p = wbuf_lit_at(p, "\",\"arg\":");
    p = wbuf_sdec_at(p, arg);
    p = wbuf_lit_at(p, ",\"source\":\"");
    p = bytes_at(p, source, source_len);
    if (retain)
        p = wbuf_lit_at(p, "\",\"flags\":[\"wait\",\"retain\"]");
    else
        p = wbuf_lit_at(p, "\",\"flags\":[\"wait\"]");
    return p;
}

/* The consumer's fields of an edge at p: its tensor, dtype (named dn, dl bytes) and view. */
static char *consumer_at(char *p, uint64_t tensor_id, const char *dn, size_t dl, const tmap_view *v)
{
    p = wbuf_lit_at(p, ",\"tensor_id\":\"");
    p = wbuf_dec_at(p, tensor_id);
    p = wbuf_lit_at(p, "\",\"consumer_dtype\":\"");
    p = bytes_at(p, dn, dl);
    VIEW_AT(p, "\",\"consumer_shape\":", ",\"consumer_start_offset\":", ",\"consumer_strides\":", v);
    return p;
}

/* Lookup visitor: one TensorMap edge per matching writer entry. */
typedef struct lookup_ctx {
    depgen *d;
    const depgen_task *t;
    int arg;
    bool inout;
    int oom;
} lookup_ctx;

static int emit_tensormap_edge(void *vctx, const tmap_entry *e, tmap_overlap ov)
{
    lookup_ctx *x = vctx;
    depgen *d = x->d;
    const tmap_view *cv = &x->t->args[x->arg].v;
    d->nedges++;
    if (d->files) {
        const char *dn = dtype_name(cv->dtype);
        size_t dl = strlen(dn);
        char *p = wbuf_room(&d->edges, DG_FIXED_MAX + 2 * DG_VIEW_MAX + dl);
        if (p) {
            p = edge_head_at(d, p, e->producer, x->t->id, x->arg, "tensormap", 9, false);
            if (ov == OV_COVERED)
                p = wbuf_lit_at(p, ",\"overlap\":\"covered\"");
            else
                p = wbuf_lit_at(p, ",\"overlap\":\"other\"");
            p = consumer_at(p, depgen_tensor_id(e->v.addr, e->v.version), dn, dl, cv);
            VIEW_AT(p, ",\"producer_shape\":", ",\"producer_start_offset\":", ",\"producer_strides\":", &e->v);
            *p++ = '}';
            wbuf_commit(&d->edges, p);
        }
    }
    if (pred_add(d, e->producer) != 0)
        x->oom = 1;
    return (x->inout && ov == OV_COVERED) ? 1 : 0; /* an INOUT that covers a writer replaces it */
}

/* Writes the task's tasks[] entry and the tensors[] entries of tensors not
 * seen before. Returns 0, or -1 when out of memory. */
static int write_task(depgen *d, const depgen_task *t)
{
    wbuf *f = &d->tasks;
    char *p = wbuf_room(f, DG_FIXED_MAX);
    if (p) {
        if (d->ntasks)
            *p++ = ',';
        p = wbuf_lit_at(p, "{\"task_id\":\"");
        p = wbuf_dec_at(p, t->id);
        if (t->manual)
            p = wbuf_lit_at(p, "\",\"scope\":\"manual\"");
        else
            p = wbuf_lit_at(p, "\",\"scope\":\"auto\"");
        if (t->early_dispatch)
            p = wbuf_lit_at(p, ",\"early_dispatch\":true,\"kernel_ids\":[");
        else
            p = wbuf_lit_at(p, ",\"early_dispatch\":false,\"kernel_ids\":[");
        for (int k = 0; k < 3; k++) {
            if (k)
                *p++ = ',';
            p = wbuf_sdec_at(p, t->kernel_ids[k]);
        }
        p = wbuf_lit_at(p, "],\"block_num\":");
        p = wbuf_sdec_at(p, t->block_num < 1 ? 1 : t->block_num);
        p = wbuf_lit_at(p, ",\"args\":[");
        wbuf_commit(f, p);
    }
    d->ntasks++;
    for (int i = 0; i < t->nargs; i++) {
        const depgen_arg *a = &t->args[i];
        const char *tn = TYPE_NAMES[a->type];
        size_t tl = strlen(tn);
        if (a->type == 1) {
            p = wbuf_room(f, DG_FIXED_MAX + tl);
            if (p) {
                if (i)
                    *p++ = ',';
                p = wbuf_lit_at(p, "{\"idx\":");
                p = wbuf_sdec_at(p, i);
                p = wbuf_lit_at(p, ",\"type\":\"");
                p = bytes_at(p, tn, tl);
                p = wbuf_lit_at(p, "\"}");
                wbuf_commit(f, p);
            }
            continue;
        }
        uint64_t tid = depgen_tensor_id(a->v.addr, a->v.version);
        const char *dn = dtype_name(a->v.dtype);
        size_t dl = strlen(dn);
        p = wbuf_room(f, DG_FIXED_MAX + DG_VIEW_MAX + tl + dl);
        if (p) {
            if (i)
                *p++ = ',';
            p = wbuf_lit_at(p, "{\"idx\":");
            p = wbuf_sdec_at(p, i);
            p = wbuf_lit_at(p, ",\"type\":\"");
            p = bytes_at(p, tn, tl);
            p = wbuf_lit_at(p, "\",\"tensor_id\":\"");
            p = wbuf_dec_at(p, tid);
            p = wbuf_lit_at(p, "\",\"dtype\":\"");
            p = bytes_at(p, dn, dl);
            VIEW_AT(p, "\",\"shape\":", ",\"start_offset\":", ",\"strides\":", &a->v);
            *p++ = '}';
            wbuf_commit(f, p);
        }
        int fresh = seen_add(d, tid);
        if (fresh < 0)
            return -1;
        if (fresh) {
            wbuf *tf = &d->tensors;
            p = wbuf_room(tf, DG_FIXED_MAX + dl);
            if (p) {
                if (d->ntensors)
                    *p++ = ',';
                p = wbuf_lit_at(p, "{\"tensor_id\":\"");
                p = wbuf_dec_at(p, tid);
                p = wbuf_lit_at(p, "\",\"buffer_addr\":\"");
                p = wbuf_dec_at(p, a->v.addr);
                p = wbuf_lit_at(p, "\",\"version\":");
                p = wbuf_sdec_at(p, a->v.version);
                p = wbuf_lit_at(p, ",\"dtype\":\"");
                p = bytes_at(p, dn, dl);
                p = wbuf_lit_at(p, "\",\"buffer_numel\":\"");
                p = wbuf_dec_at(p, dtype_size(a->v.dtype) ? a->v.buffer_numel : 0);
                p = wbuf_lit_at(p, "\"}");
                wbuf_commit(tf, p);
            }
            d->ntensors++;
        }
    }
    wbuf_lit(f, "]}");
    return 0;
}

int depgen_add(depgen *d, const depgen_task *t)
{
    if (d->files && write_task(d, t) != 0)
        return -1;

    /* edges: explicit deps first, one per distinct predecessor */
    d->npreds = 0;
    for (int i = 0; i < t->ndeps; i++) {
        if (pred_seen(d, t->deps[i]))
            continue;
        d->nedges++;
        char *p = d->files ? wbuf_room(&d->edges, DG_FIXED_MAX) : NULL;
        if (p) {
            p = edge_head_at(d, p, t->deps[i], t->id, -1, "explicit", 8, true);
            *p++ = '}';
            wbuf_commit(&d->edges, p);
        }
        if (pred_add(d, t->deps[i]) != 0)
            return -1;
    }
    if (t->manual)
        return 0; /* a manual scope has only explicit edges, and registers nothing */
    for (int i = 0; i < t->nargs; i++) {
        const depgen_arg *a = &t->args[i];
        if (a->type == 1)
            continue;
        if (a->has_owner && !pred_seen(d, a->owner)) {
            d->nedges++;
            if (d->files) {
                const char *dn = dtype_name(a->v.dtype);
                size_t dl = strlen(dn);
                char *p = wbuf_room(&d->edges, DG_FIXED_MAX + DG_VIEW_MAX + dl);
                if (p) {
                    p = edge_head_at(d, p, a->owner, t->id, i, "creator", 7, true);
                    p = consumer_at(p, depgen_tensor_id(a->v.addr, a->v.version), dn, dl, &a->v);
                    *p++ = '}';
                    wbuf_commit(&d->edges, p);
                }
            }
            if (pred_add(d, a->owner) != 0)
                return -1;
        }
        if ((a->type == 0 || a->type == 2) && !a->manual_dep) {
            lookup_ctx x = {.d = d, .t = t, .arg = i, .inout = a->type == 2};
            tmap_lookup(&d->logical, &a->v, emit_tensormap_edge, &x);
            if (x.oom)
                return -1;
        }
    }
    for (int i = 0; i < t->nargs; i++) {
        const depgen_arg *a = &t->args[i];
        if ((a->type == 2 || a->type == 3) && !a->manual_dep && tmap_insert(&d->logical, &a->v, t->id) != 0)
            return -1;
    }
    return 0;
}

int depgen_write(depgen *d, const char *path, char *err, size_t errlen)
{
    assert(!d->out || strcmp(path, d->out->path) == 0);
    outfile local, *of = d->out ? d->out : &local;
    wbuf joined, *w = d->out ? &d->tasks : &joined;
    int bad = 0;
    if (!d->out) {
        FILE *f = outfile_open(of, path, err, errlen);
        if (!f)
            return -1;
        bad = fflush(f) != 0 || wbuf_open_fd(w, fileno(f)) != 0;
        if (!bad) {
            wbuf_lit(w, "{\"tasks\":[");
            bad |= wbuf_append(w, &d->tasks);
        }
    }
    if (!bad) {
        wbuf_lit(w, "],\"tensors\":[");
        bad |= wbuf_append(w, &d->tensors);
        wbuf_lit(w, "],\"edges\":[");
        bad |= wbuf_append(w, &d->edges);
        wbuf_lit(w, "]}\n");
        bad |= wbuf_close(w);
    }
    int rc;
    if (bad) {
        int e = errno;
        outfile_abort(of);
        snprintf(err, errlen, "%s: cannot assemble deps.json: %s", path, strerror(e));
        rc = -1;
    } else {
        rc = outfile_commit(of, err, errlen);
    }
    free(d->out); /* committed or removed */
    d->out = NULL;
    return rc;
}
