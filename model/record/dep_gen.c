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

static void put_dims(wbuf *f, const int64_t *v, int n)
{
    wbuf_char(f, '[');
    for (int i = 0; i < n; i++) {
        if (i)
            wbuf_char(f, ',');
        wbuf_i64(f, v[i]);
    }
    wbuf_char(f, ']');
}

/* A view's shape, start offset and strides under the three keys given (each with the text before it). */
static inline void put_view(wbuf *f, const char *shape_key, const char *start_key, const char *strides_key,
                     const tmap_view *v)
{
    wbuf_str(f, shape_key);
    put_dims(f, v->shape, v->ndims);
    wbuf_str(f, start_key);
    wbuf_qu64(f, v->start);
    wbuf_str(f, strides_key);
    put_dims(f, v->strides, v->ndims);
}

/* Starts an edge object: pred, succ, arg, source, flags. */
static void edge_head(depgen *d, uint64_t pred, uint64_t succ, int arg, const char *source, bool retain)
{
    wbuf *f = &d->edges;
    d->nedges++;
    if (!d->files)
        return;
    if (d->nedges > 1)
        wbuf_char(f, ',');
    wbuf_lit(f, "{\"pred\":");
    wbuf_qu64(f, pred);
    wbuf_lit(f, ",\"succ\":");
    wbuf_qu64(f, succ);
    wbuf_lit(f, ",\"arg\":");
    wbuf_i64(f, arg);
    wbuf_lit(f, ",\"source\":\"");
    wbuf_str(f, source);
    if (retain)
        wbuf_lit(f, "\",\"flags\":[\"wait\",\"retain\"]");
    else
        wbuf_lit(f, "\",\"flags\":[\"wait\"]");
}

static void consumer_fields(depgen *d, uint64_t tensor_id, const tmap_view *v)
{
    if (!d->files)
        return;
    wbuf *f = &d->edges;
    wbuf_lit(f, ",\"tensor_id\":");
    wbuf_qu64(f, tensor_id);
    wbuf_lit(f, ",\"consumer_dtype\":\"");
    wbuf_str(f, dtype_name(v->dtype));
    put_view(f, "\",\"consumer_shape\":", ",\"consumer_start_offset\":", ",\"consumer_strides\":", v);
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
    edge_head(d, e->producer, x->t->id, x->arg, "tensormap", false);
    if (!d->files)
        goto done;
    wbuf *f = &d->edges;
    if (ov == OV_COVERED)
        wbuf_lit(f, ",\"overlap\":\"covered\"");
    else
        wbuf_lit(f, ",\"overlap\":\"other\"");
    consumer_fields(d, depgen_tensor_id(e->v.addr, e->v.version), cv);
    put_view(f, ",\"producer_shape\":", ",\"producer_start_offset\":", ",\"producer_strides\":", &e->v);
    wbuf_char(f, '}');
done:
    if (pred_add(d, e->producer) != 0)
        x->oom = 1;
    return (x->inout && ov == OV_COVERED) ? 1 : 0; /* an INOUT that covers a writer replaces it */
}

/* Writes the task's tasks[] entry and the tensors[] entries of tensors not
 * seen before. Returns 0, or -1 when out of memory. */
static int write_task(depgen *d, const depgen_task *t)
{
    wbuf *f = &d->tasks;
    if (d->ntasks)
        wbuf_char(f, ',');
    wbuf_lit(f, "{\"task_id\":");
    wbuf_qu64(f, t->id);
    if (t->manual)
        wbuf_lit(f, ",\"scope\":\"manual\"");
    else
        wbuf_lit(f, ",\"scope\":\"auto\"");
    if (t->early_dispatch)
        wbuf_lit(f, ",\"early_dispatch\":true,\"kernel_ids\":[");
    else
        wbuf_lit(f, ",\"early_dispatch\":false,\"kernel_ids\":[");
    for (int k = 0; k < 3; k++) {
        if (k)
            wbuf_char(f, ',');
        wbuf_i64(f, t->kernel_ids[k]);
    }
    wbuf_lit(f, "],\"block_num\":");
    wbuf_i64(f, t->block_num < 1 ? 1 : t->block_num);
    wbuf_lit(f, ",\"args\":[");
    d->ntasks++;
    for (int i = 0; i < t->nargs; i++) {
        const depgen_arg *a = &t->args[i];
        if (i)
            wbuf_char(f, ',');
        wbuf_lit(f, "{\"idx\":");
        wbuf_i64(f, i);
        wbuf_lit(f, ",\"type\":\"");
        wbuf_str(f, TYPE_NAMES[a->type]);
        wbuf_char(f, '"');
        if (a->type == 1) {
            wbuf_char(f, '}');
            continue;
        }
        uint64_t tid = depgen_tensor_id(a->v.addr, a->v.version);
        wbuf_lit(f, ",\"tensor_id\":");
        wbuf_qu64(f, tid);
        wbuf_lit(f, ",\"dtype\":\"");
        wbuf_str(f, dtype_name(a->v.dtype));
        put_view(f, "\",\"shape\":", ",\"start_offset\":", ",\"strides\":", &a->v);
        wbuf_char(f, '}');
        int fresh = seen_add(d, tid);
        if (fresh < 0)
            return -1;
        if (fresh) {
            wbuf *tf = &d->tensors;
            if (d->ntensors)
                wbuf_char(tf, ',');
            wbuf_lit(tf, "{\"tensor_id\":");
            wbuf_qu64(tf, tid);
            wbuf_lit(tf, ",\"buffer_addr\":");
            wbuf_qu64(tf, a->v.addr);
            wbuf_lit(tf, ",\"version\":");
            wbuf_i64(tf, a->v.version);
            wbuf_lit(tf, ",\"dtype\":\"");
            wbuf_str(tf, dtype_name(a->v.dtype));
            wbuf_lit(tf, "\",\"buffer_numel\":");
            wbuf_qu64(tf, dtype_size(a->v.dtype) ? a->v.buffer_numel : 0);
            wbuf_char(tf, '}');
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
        edge_head(d, t->deps[i], t->id, -1, "explicit", true);
        if (d->files)
            wbuf_char(&d->edges, '}');
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
            edge_head(d, a->owner, t->id, i, "creator", true);
            consumer_fields(d, depgen_tensor_id(a->v.addr, a->v.version), &a->v);
            if (d->files)
                wbuf_char(&d->edges, '}');
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
