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
#include "../base/vec.h"

static const char *const TYPE_NAMES[] = {"INPUT", "OUTPUT", "INOUT", "OUTPUT_EXISTING", "UNKNOWN"};

/* One FNV-1a step: byte b into h. */
#define FNV_STEP(h, b) ((h) = ((h) ^ ((b) & 0xFF)) * 0x100000001b3ULL)

uint64_t depgen_tensor_id(uint64_t addr, int32_t version)
{
    /* the 12 steps written out: a loop took twice the instructions, once per argument and edge */
    uint64_t h = 0xcbf29ce484222325ULL;
    uint32_t ver = (uint32_t)version;
    FNV_STEP(h, addr);
    FNV_STEP(h, addr >> 8);
    FNV_STEP(h, addr >> 16);
    FNV_STEP(h, addr >> 24);
    FNV_STEP(h, addr >> 32);
    FNV_STEP(h, addr >> 40);
    FNV_STEP(h, addr >> 48);
    FNV_STEP(h, addr >> 56);
    FNV_STEP(h, ver);
    FNV_STEP(h, ver >> 8);
    FNV_STEP(h, ver >> 16);
    FNV_STEP(h, ver >> 24);
    return h;
}

/* The text of recent tensor ids (20 digits, most of them) and of views' dims (a few shapes and strides
 * over and over), kept where their value hashes to: copying one back is a fraction of writing it. A dims
 * text kept is DG_DIMS_TEXT bytes at most, and copied whole (a room counts 22 bytes a number). */
#define DG_ID_MEMO 256
#define DG_VIEW_MEMO 64
#define DG_DIMS_TEXT 32

typedef struct dg_id_text {
    uint64_t id;
    uint32_t len; /* 0: empty */
    char text[20];
} dg_id_text;

typedef struct dg_view_text {
    int64_t shape[TMAP_MAX_DIMS], strides[TMAP_MAX_DIMS];
    uint8_t n;          /* dims */
    uint8_t slen, tlen; /* lengths of the texts (slen 0: empty) */
    char stext[DG_DIMS_TEXT], ttext[DG_DIMS_TEXT];
} dg_view_text;

/* An argument type's or a dtype's name, padded: copied whole (a room counts its length and more). */
typedef struct dg_name {
    uint8_t len; /* 0: not kept yet; UINT8_MAX: too long to keep (strlen each time) */
    char text[23];
} dg_name;

struct dg_memo {
    dg_id_text id[DG_ID_MEMO];
    dg_view_text view[DG_VIEW_MEMO];
    dg_name type[sizeof(TYPE_NAMES) / sizeof(TYPE_NAMES[0])], dtype[256]; /* by TYPE_NAMES index, by dtype */
};

/* The length of the name s, kept in c the first time. */
__attribute__((noinline)) static size_t name_keep(dg_name *c, const char *s)
{
    size_t n = strlen(s);
    c->len = n < sizeof(c->text) ? (uint8_t)n : UINT8_MAX;
    if (c->len != UINT8_MAX)
        memcpy(c->text, s, n);
    return n;
}

static size_t name_len(dg_name *c, const char *s)
{
    return c->len && c->len != UINT8_MAX ? c->len : name_keep(c, s);
}

/* The name s (its length n from name_len) at p: copied from c whole when kept there. */
static char *name_at(char *p, const dg_name *c, const char *s, size_t n)
{
    if (c->len && c->len != UINT8_MAX)
        memcpy(p, c->text, sizeof(c->text));
    else
        memcpy(p, s, n);
    return p + n;
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
    if ((files && !(d->memo = calloc(1, sizeof(*d->memo)))) || tmap_init(&d->logical, 0, window, true) != 0) {
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
    free(d->memo);
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
        uint64_t *ns = vec_zalloc(ncap, sizeof(*ns));
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

/* A tensor id in decimal at p (20 bytes stored); the pointer after it. */
static char *id_at(struct dg_memo *m, char *p, uint64_t id)
{
    dg_id_text *c = &m->id[id % DG_ID_MEMO];
    if (!c->len || c->id != id) {
        c->id = id;
        c->len = (uint32_t)(wbuf_dec_at(c->text, id) - c->text);
    }
    memcpy(p, c->text, sizeof(c->text));
    return p + c->len;
}

/* Keeps the texts of v's dims in c, or leaves c empty when one is too long to keep. */
__attribute__((noinline)) static void view_keep(dg_view_text *c, const tmap_view *v)
{
    char s[2 + TMAP_MAX_DIMS * 21], t[2 + TMAP_MAX_DIMS * 21];
    size_t sl = (size_t)(dims_at(s, v->shape, v->ndims) - s);
    size_t tl = (size_t)(dims_at(t, v->strides, v->ndims) - t);
    c->slen = 0;
    if (sl > DG_DIMS_TEXT || tl > DG_DIMS_TEXT)
        return;
    memcpy(c->shape, v->shape, sizeof(c->shape));
    memcpy(c->strides, v->strides, sizeof(c->strides));
    c->n = v->ndims;
    c->slen = (uint8_t)sl;
    c->tlen = (uint8_t)tl;
    memcpy(c->stext, s, sl);
    memcpy(c->ttext, t, tl);
}

/* The texts of v's shape and strides from the memo (kept there first if need be); NULL when too long. */
static const dg_view_text *view_text(struct dg_memo *m, const tmap_view *v)
{
    int n = v->ndims;
    uint64_t h = (uint64_t)n;
    for (int i = 0; i < n; i++) {
        h = (h + (uint64_t)v->shape[i]) * 0x9E3779B97F4A7C15u;
        h = (h + (uint64_t)v->strides[i]) * 0x9E3779B97F4A7C15u;
    }
    dg_view_text *c = &m->view[h >> 58];
    int i = 0;
    if (c->slen && c->n == n)
        while (i < n && c->shape[i] == v->shape[i] && c->strides[i] == v->strides[i])
            i++;
    if (!c->slen || c->n != n || i < n)
        view_keep(c, v);
    return c->slen ? c : NULL;
}

/* Dims at p: a text of the memo's (x: its length; all DG_DIMS_TEXT bytes copied), or written out. */
static char *dims_text_at(char *p, const char *x, uint8_t len, const int64_t *v, int n)
{
    if (!len)
        return dims_at(p, v, n);
    memcpy(p, x, DG_DIMS_TEXT);
    return p + len;
}

/* A view's shape, start offset and strides under the three keys given (each with the text before it). */
#define VIEW_AT(m, p, shape_key, start_key, strides_key, v)                                                  \
    do {                                                                                                     \
        const dg_view_text *vt_ = view_text((m), (v));                                                       \
        (p) = wbuf_lit_at((p), shape_key);                                                                   \
        (p) = dims_text_at((p), vt_ ? vt_->stext : NULL, vt_ ? vt_->slen : 0, (v)->shape, (v)->ndims);       \
        (p) = wbuf_lit_at((p), start_key "\"");                                                              \
        (p) = wbuf_dec_at((p), (v)->start);                                                                  \
        (p) = wbuf_lit_at((p), "\"" strides_key);                                                            \
        (p) = dims_text_at((p), vt_ ? vt_->ttext : NULL, vt_ ? vt_->tlen : 0, (v)->strides, (v)->ndims);     \
    } while (0)

/* tensors[] and edges[] come after tasks[], written as the run goes: until the end they wait in scratch
 * files, packed (a fifth of their text, so the kernel copies less), and are written out by depgen_write.
 * An edge is a dg_edge, then its consumer's view and its producer's, each packed by pack_view. */
enum { DG_EXPLICIT, DG_CREATOR, DG_TENSORMAP };

typedef struct dg_edge {
    uint64_t pred, succ;
    uint64_t tensor_id;   /* creator, tensormap */
    int32_t arg;          /* -1 for an explicit edge */
    uint8_t source;       /* DG_* */
    uint8_t covered;      /* tensormap: the overlap is "covered" */
    uint8_t dtype;        /* the consumer's */
    uint8_t cdims, pdims; /* ranks of the consumer's and the producer's views (0: none) */
    uint8_t pad[7];       /* every byte a member: an initializer zeroes them, none goes out unset */
} dg_edge;

typedef struct dg_tensor {
    uint64_t id, addr, numel;
    int32_t version;
    uint8_t dtype;
    uint8_t pad[3];
} dg_tensor;

_Static_assert(sizeof(dg_edge) == 40 && sizeof(dg_tensor) == 32, "kept records have no padding");

#define DG_PACKED_VIEW (8 + 2 * TMAP_MAX_DIMS * 8)

/* A view's start, shape and strides at p; the pointer after them. */
static char *pack_view(char *p, const tmap_view *v)
{
    size_t n = (size_t)v->ndims * sizeof(int64_t);
    memcpy(p, &v->start, 8);
    memcpy(p + 8, v->shape, n);
    memcpy(p + 8 + n, v->strides, n);
    return p + 8 + 2 * n;
}

static const char *unpack_view(const char *p, tmap_view *v, int ndims, int dtype)
{
    size_t n = (size_t)ndims * sizeof(int64_t);
    v->ndims = (uint8_t)ndims;
    v->dtype = (uint8_t)dtype;
    memcpy(&v->start, p, 8);
    memcpy(v->shape, p + 8, n);
    memcpy(v->strides, p + 8 + n, n);
    return p + 8 + 2 * n;
}

/* Keeps one edge: its record and the views it has (c: the consumer's, p: the producer's). */
static void keep_edge(depgen *d, const dg_edge *e, const tmap_view *c, const tmap_view *p)
{
    char rec[sizeof(dg_edge) + 2 * DG_PACKED_VIEW], *q = rec + sizeof(*e);
    memcpy(rec, e, sizeof(*e));
    if (c)
        q = pack_view(q, c);
    if (p)
        q = pack_view(q, p);
    wbuf_put(&d->edges, rec, (size_t)(q - rec));
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
        dg_edge r = {.pred = e->producer,
                     .succ = x->t->id,
                     .tensor_id = depgen_tensor_id(e->v.addr, e->v.version),
                     .arg = x->arg,
                     .source = DG_TENSORMAP,
                     .covered = ov == OV_COVERED,
                     .dtype = cv->dtype,
                     .cdims = cv->ndims,
                     .pdims = e->v.ndims};
        keep_edge(d, &r, cv, &e->v);
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
        dg_name *tc = &d->memo->type[a->type];
        size_t tl = name_len(tc, tn);
        if (a->type == 1) {
            p = wbuf_room(f, DG_FIXED_MAX + tl);
            if (p) {
                if (i)
                    *p++ = ',';
                p = wbuf_lit_at(p, "{\"idx\":");
                p = wbuf_sdec_at(p, i);
                p = wbuf_lit_at(p, ",\"type\":\"");
                p = name_at(p, tc, tn, tl);
                p = wbuf_lit_at(p, "\"}");
                wbuf_commit(f, p);
            }
            continue;
        }
        uint64_t tid = depgen_tensor_id(a->v.addr, a->v.version);
        const char *dn = dtype_name(a->v.dtype);
        dg_name *dc = &d->memo->dtype[a->v.dtype];
        size_t dl = name_len(dc, dn);
        p = wbuf_room(f, DG_FIXED_MAX + DG_VIEW_MAX + tl + dl);
        if (p) {
            if (i)
                *p++ = ',';
            p = wbuf_lit_at(p, "{\"idx\":");
            p = wbuf_sdec_at(p, i);
            p = wbuf_lit_at(p, ",\"type\":\"");
            p = name_at(p, tc, tn, tl);
            p = wbuf_lit_at(p, "\",\"tensor_id\":\"");
            p = id_at(d->memo, p, tid);
            p = wbuf_lit_at(p, "\",\"dtype\":\"");
            p = name_at(p, dc, dn, dl);
            VIEW_AT(d->memo, p, "\",\"shape\":", ",\"start_offset\":", ",\"strides\":", &a->v);
            *p++ = '}';
            wbuf_commit(f, p);
        }
        int fresh = seen_add(d, tid);
        if (fresh < 0)
            return -1;
        if (fresh) {
            dg_tensor r = {.id = tid,
                           .addr = a->v.addr,
                           .numel = dtype_size(a->v.dtype) ? a->v.buffer_numel : 0,
                           .version = a->v.version,
                           .dtype = a->v.dtype};
            wbuf_put(&d->tensors, &r, sizeof(r));
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
        if (d->files) {
            dg_edge r = {.pred = t->deps[i], .succ = t->id, .arg = -1, .source = DG_EXPLICIT};
            keep_edge(d, &r, NULL, NULL);
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
                dg_edge r = {.pred = a->owner,
                             .succ = t->id,
                             .tensor_id = depgen_tensor_id(a->v.addr, a->v.version),
                             .arg = i,
                             .source = DG_CREATOR,
                             .dtype = a->v.dtype,
                             .cdims = a->v.ndims};
                keep_edge(d, &r, &a->v, NULL);
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

/* Writes tensors[] from the kept records. Returns 0, or -1 with errno set. */
static int write_tensors(depgen *d, wbuf *w, wbuf_reader *r)
{
    for (uint64_t i = 0; i < d->ntensors; i++) {
        const char *q = wbuf_reader_next(r, sizeof(dg_tensor));
        if (!q)
            return -1;
        dg_tensor t;
        memcpy(&t, q, sizeof(t));
        const char *dn = dtype_name(t.dtype);
        dg_name *dc = &d->memo->dtype[t.dtype];
        size_t dl = name_len(dc, dn);
        char *p = wbuf_room(w, DG_FIXED_MAX + dl);
        if (!p)
            continue;
        if (i)
            *p++ = ',';
        p = wbuf_lit_at(p, "{\"tensor_id\":\"");
        p = wbuf_dec_at(p, t.id); /* each once: the memo would not have it */
        p = wbuf_lit_at(p, "\",\"buffer_addr\":\"");
        p = wbuf_dec_at(p, t.addr);
        p = wbuf_lit_at(p, "\",\"version\":");
        p = wbuf_sdec_at(p, t.version);
        p = wbuf_lit_at(p, ",\"dtype\":\"");
        p = name_at(p, dc, dn, dl);
        p = wbuf_lit_at(p, "\",\"buffer_numel\":\"");
        p = wbuf_dec_at(p, t.numel);
        p = wbuf_lit_at(p, "\"}");
        wbuf_commit(w, p);
    }
    return 0;
}

/* Writes edges[] from the kept records. Returns 0, or -1 with errno set. */
static int write_edges(depgen *d, wbuf *w, wbuf_reader *r)
{
    static const char SOURCE[3][16] = {"explicit", "creator", "tensormap"}; /* padded: copied whole */
    static const size_t SOURCE_LEN[3] = {8, 7, 9};
    for (uint64_t i = 0; i < d->nedges; i++) {
        const char *q = wbuf_reader_next(r, sizeof(dg_edge));
        if (!q)
            return -1;
        dg_edge e;
        memcpy(&e, q, sizeof(e));
        if (e.source > DG_TENSORMAP || e.cdims > TMAP_MAX_DIMS || e.pdims > TMAP_MAX_DIMS) {
            errno = EIO; /* not a record kept here */
            return -1;
        }
        size_t vlen = (size_t)(e.cdims ? 8 + 16 * e.cdims : 0) + (e.pdims ? 8 + 16 * e.pdims : 0);
        tmap_view cv, pv;
        if (vlen) {
            const char *v = wbuf_reader_next(r, vlen);
            if (!v)
                return -1;
            if (e.cdims)
                v = unpack_view(v, &cv, e.cdims, e.dtype);
            if (e.pdims)
                unpack_view(v, &pv, e.pdims, 0);
        }
        const char *dn = dtype_name(e.dtype);
        dg_name *dc = &d->memo->dtype[e.dtype];
        size_t dl = e.source == DG_EXPLICIT ? 0 : name_len(dc, dn);
        char *p = wbuf_room(w, DG_FIXED_MAX + 2 * DG_VIEW_MAX + dl);
        if (!p)
            continue;
        if (i)
            *p++ = ',';
        p = wbuf_lit_at(p, "{\"pred\":\"");
        p = wbuf_dec_at(p, e.pred);
        p = wbuf_lit_at(p, "\",\"succ\":\"");
        p = wbuf_dec_at(p, e.succ);
        p = wbuf_lit_at(p, "\",\"arg\":");
        p = wbuf_sdec_at(p, e.arg);
        p = wbuf_lit_at(p, ",\"source\":\"");
        memcpy(p, SOURCE[e.source], sizeof(SOURCE[0]));
        p += SOURCE_LEN[e.source];
        if (e.source != DG_TENSORMAP)
            p = wbuf_lit_at(p, "\",\"flags\":[\"wait\",\"retain\"]");
        else if (e.covered)
            p = wbuf_lit_at(p, "\",\"flags\":[\"wait\"],\"overlap\":\"covered\"");
        else
            p = wbuf_lit_at(p, "\",\"flags\":[\"wait\"],\"overlap\":\"other\"");
        if (e.source != DG_EXPLICIT) {
            p = wbuf_lit_at(p, ",\"tensor_id\":\"");
            p = id_at(d->memo, p, e.tensor_id);
            p = wbuf_lit_at(p, "\",\"consumer_dtype\":\"");
            p = name_at(p, dc, dn, dl);
            VIEW_AT(d->memo, p,
                    "\",\"consumer_shape\":", ",\"consumer_start_offset\":", ",\"consumer_strides\":", &cv);
        }
        if (e.source == DG_TENSORMAP)
            VIEW_AT(d->memo, p,
                    ",\"producer_shape\":", ",\"producer_start_offset\":", ",\"producer_strides\":", &pv);
        *p++ = '}';
        wbuf_commit(w, p);
    }
    return 0;
}

/* Writes tensors[] and edges[] out of their scratch files. Returns 0, or -1 with errno set. */
static int write_kept(depgen *d, wbuf *w)
{
    wbuf_reader r;
    if (wbuf_reader_open(&r, &d->tensors) != 0)
        return -1;
    wbuf_lit(w, "],\"tensors\":[");
    int rc = write_tensors(d, w, &r);
    wbuf_reader_close(&r);
    if (rc == 0 && (rc = wbuf_reader_open(&r, &d->edges)) == 0) {
        wbuf_lit(w, "],\"edges\":[");
        rc = write_edges(d, w, &r);
        wbuf_reader_close(&r);
    }
    return rc;
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
        int kept = write_kept(d, w), why = errno;
        wbuf_lit(w, "]}\n");
        bad |= wbuf_close(w);
        if (kept != 0) {
            bad = 1;
            errno = why;
        }
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
