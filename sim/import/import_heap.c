/* import_heap.c - import_heap_: which buffer each arg of a capture names (heap arena, creations, readers). */
/* The heap arena located, each runtime-created buffer given to the task whose block of outputs holds its
 * offset, readers bound to creations, manual_dep inferred. */
#include <assert.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../../model/base/dtype.h"
#include "../../model/runtime/ring_resources.h"
#include "../../model/runtime/tensor_map.h"
#include "../../model/base/vec.h"
#include "import_heap.h"
#include "import_state.h"

#define DEFAULT_RING_HEAP (256ULL << 20)        /* the runtime's default heap per ring */
#define UNCONSUMED_SLOT_BYTES HEAP_OUTPUT_ALIGN /* least heap an output nobody read can take */

static uint64_t view_bytes(const imp_arg *a)
{
    uint64_t n = (uint64_t)(dtype_size(a->dtype) > 0 ? dtype_size(a->dtype) : 1);
    for (int d = 0; d < a->ndim; d++)
        n *= (uint64_t)a->shape[d];
    return n;
}

/* A tensor record's storage bytes, as the heap holds it (1024-byte rounded). */
static uint64_t record_bytes(const imp_tensor *t)
{
    return heap_round_output(t->numel * (uint64_t)(dtype_size(t->dtype) ? dtype_size(t->dtype) : 1));
}

/* ---- the arena ---- */

typedef struct addr_ix {
    uint64_t addr;
    size_t x;
} addr_ix;

static int cmp_addr(const void *a, const void *b)
{
    const addr_ix *x = a, *y = b;
    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    return x->x < y->x ? -1 : x->x > y->x;
}

#define ADDR_AFTER(a, b) ((a)->addr != (b)->addr ? (a)->addr > (b)->addr : (a)->x > (b)->x)
IMP_STABLE_SORT(sort_addr, addr_ix, ADDR_AFTER)

/* Entries of v[0..n) with lo <= addr < hi. */
static size_t count_in(const addr_ix *v, size_t n, uint64_t lo, uint64_t hi)
{
    size_t a = 0, b = n;
    while (a < b) { /* first >= lo */
        size_t m = a + (b - a) / 2;
        if (v[m].addr < lo)
            a = m + 1;
        else
            b = m;
    }
    size_t first = a;
    b = n;
    while (a < b) { /* first >= hi */
        size_t m = a + (b - a) / 2;
        if (v[m].addr < hi)
            a = m + 1;
        else
            b = m;
    }
    return a - first;
}

/* A created tensor's creator is named by a creator edge only for the first
 * consumer that reaches that producer: the replay drops it when the producer
 * already is a predecessor (explicit deps, earlier args), and a manual scope
 * records none. So the heap arena (four ring heaps back to back) is located
 * from the creator edges, as the highest base they all allow; and where no
 * edge says, or a tensor lies below every anchored one of its ring, from
 * where the most tensors fit the heap each ring used (scope stats), counting
 * only tensors some earlier task of that ring could have made. */
static void locate_heap(importer *im, uint64_t size[RINGS], uint64_t prefix[RINGS + 1], uint64_t used[RINGS],
                        addr_ix *elig[RINGS], size_t nelig[RINGS])
{
    for (int r = 0; r < RINGS; r++) {
        size[r] = im->cap[1][r] ? im->cap[1][r] : DEFAULT_RING_HEAP;
        used[r] = size[r];
    }
    prefix[0] = 0;
    for (int r = 0; r < RINGS; r++)
        prefix[r + 1] = prefix[r] + size[r];
    if (im->have_stats) {
        memset(used, 0, RINGS * sizeof(*used));
        for (size_t i = 0; i < im->nscopes; i++)
            if (im->scopes[i].heap_end > used[im->scopes[i].ring])
                used[im->scopes[i].ring] = im->scopes[i].heap_end;
        for (int r = 0; r < RINGS; r++)
            if (used[r] > size[r])
                used[r] = size[r];
    }
    size_t first_alloc[RINGS] = {SIZE_MAX, SIZE_MAX, SIZE_MAX,
                                 SIZE_MAX}; /* op position of each ring's first */
    for (size_t i = 0; i < im->ntasks; i++)
        if ((im->tasks[i].alloc || im->tasks[i].nslots) && im->tasks[i].pos < first_alloc[im->tasks[i].ring])
            first_alloc[im->tasks[i].ring] = im->tasks[i].pos;
    for (int r = 0; r < RINGS; r++) {
        nelig[r] = 0;
        for (size_t x = 0; x < im->ntensors; x++)
            if (first_alloc[r] < im->tensors[x].first_use)
                elig[r][nelig[r]++] = (addr_ix){im->tensors[x].addr, x};
        sort_addr(elig[r], nelig[r], cmp_addr);
    }
    /* the base every anchored tensor allows: lo <= base <= hi */
    uint64_t lo = 0, hi = UINT64_MAX;
    bool anchored = false;
    for (size_t x = 0; x < im->ntensors; x++)
        for (size_t c = 0; c < im->tensors[x].ncreators; c++) {
            int r = im->tasks[im->tensors[x].creators[c]].ring;
            uint64_t a = im->tensors[x].addr;
            if (a < prefix[r]) {
                hi = 0, lo = 1; /* no base fits */
                continue;
            }
            if (a - prefix[r] < hi)
                hi = a - prefix[r];
            if (a + 1 > prefix[r] + size[r] && a + 1 - prefix[r] - size[r] > lo)
                lo = a + 1 - prefix[r] - size[r];
            anchored = true;
        }
    uint64_t best = 0;
    size_t best_score = 0;
    bool found = false;
    for (int r0 = 0; r0 < RINGS; r0++)
        for (size_t i = 0; i <= nelig[r0]; i++) {
            /* candidates: the anchors' highest base, and each eligible tensor at offset 0 of its ring */
            uint64_t base;
            if (i == nelig[r0]) {
                if (!anchored || r0)
                    continue;
                base = hi;
            } else {
                if (elig[r0][i].addr < prefix[r0] || first_alloc[r0] == SIZE_MAX)
                    continue;
                base = elig[r0][i].addr - prefix[r0];
            }
            if (anchored && (base < lo || base > hi))
                continue;
            size_t score = 0;
            for (int r = 0; r < RINGS; r++)
                if (first_alloc[r] != SIZE_MAX && base + prefix[r] >= base) /* no wrap of the address */
                    score += count_in(elig[r], nelig[r], base + prefix[r], base + prefix[r] + used[r]);
            if (!found || score > best_score || (score == best_score && base > best)) {
                best = base;
                best_score = score;
                found = true;
            }
        }
    if (!found || (!anchored && best_score == 0))
        return; /* nothing is runtime-created */
    for (size_t x = 0; x < im->ntensors; x++) {
        imp_tensor *t = &im->tensors[x];
        if (t->addr < best || t->addr - best >= prefix[RINGS])
            continue;
        uint64_t rel = t->addr - best;
        int tr = 0;
        while (rel >= prefix[tr + 1])
            tr++;
        if (first_alloc[tr] == SIZE_MAX ||
            (!t->ncreators && (rel - prefix[tr] >= used[tr] || first_alloc[tr] >= t->first_use)))
            continue;
        t->heap = true;
        t->ring = tr;
        t->off = rel - prefix[tr];
    }
}

/* ---- creators ---- */

/* Is task p (tasks[] index) a predecessor of task t before its arg i (explicit
 * deps, edges of earlier args)? */
static bool pred_before(const imp_task *t, int i, size_t p)
{
    for (size_t e = 0; e < t->nedges; e++)
        if (t->edges[e].pred == p && t->edges[e].arg < i)
            return true;
    return false;
}

/* Records that task p made tensor x (a creator edge, or derived). */
static int add_anchor(importer *im, size_t x, size_t p)
{
    imp_tensor *tn = &im->tensors[x];
    for (size_t c = 0; c < tn->ncreators; c++)
        if (tn->creators[c] == p)
            return 0;
    imp_task *pt = &im->tasks[p];
    if (imp_grow(im, (void **)&tn->creators, &tn->creatorcap, tn->ncreators, sizeof(size_t), 4) != 0 ||
        imp_grow(im, (void **)&pt->anchored, &pt->anchorcap, pt->nanchored, sizeof(int), 4) != 0)
        return imp_oom(im);
    tn->creators[tn->ncreators++] = p;
    pt->anchored[pt->nanchored++] = (int)x;
    return 0;
}

/* How far offset off (bytes long) lies from the block task p's creator
 * edges say it made on ring r: 0 inside it or touching it, UINT64_MAX when
 * they name nothing there. */
static uint64_t block_gap(const importer *im, const imp_task *p, int r, uint64_t off, uint64_t bytes)
{
    uint64_t lo = UINT64_MAX, hi = 0;
    for (size_t a = 0; a < p->nedge_anchored; a++) {
        const imp_tensor *t = &im->tensors[p->anchored[a]];
        if (!t->heap || t->ring != r)
            continue;
        uint64_t end = t->off + heap_round_output(t->numel * (uint64_t)(dtype_size(t->dtype) ? dtype_size(t->dtype) : 1));
        if (t->off < lo)
            lo = t->off;
        if (end > hi)
            hi = end;
    }
    if (lo == UINT64_MAX)
        return UINT64_MAX;
    if (off + bytes <= lo)
        return lo - (off + bytes);
    return off >= hi ? off - hi : 0;
}

/* The creator an auto-scope reader's arg i of tensor x names: its creator
 * edge, or (dropped because the creator already was a predecessor) one of
 * its predecessors before arg i that allocates on x's ring and has an output
 * slot no creator edge fills: the one whose known block of outputs lies
 * nearest x's offset (a tensor between two blocks: the later task). SIZE_MAX:
 * none. */
static size_t reader_creator(const importer *im, const imp_task *r, int i, const imp_tensor *tn)
{
    size_t best = SIZE_MAX;
    uint64_t best_gap = UINT64_MAX;
    uint64_t bytes = heap_round_output(tn->numel * (uint64_t)(dtype_size(tn->dtype) ? dtype_size(tn->dtype) : 1));
    for (size_t e = 0; e < r->nedges; e++) {
        const imp_edge *ed = &r->edges[e];
        if (ed->source == 1 && ed->arg == i)
            return ed->pred;
        if (ed->pred == SIZE_MAX || ed->arg >= i)
            continue;
        const imp_task *p = &im->tasks[ed->pred];
        if (p->ring != tn->ring || !(p->alloc || p->nslots) || p->pos >= r->pos)
            continue;
        bool made = false; /* a creator edge already says it made x */
        for (size_t a = 0; a < p->nedge_anchored; a++)
            made |= p->anchored[a] == (int)(tn - im->tensors);
        if (!made && !p->alloc && (size_t)p->nslots <= p->nedge_anchored)
            continue; /* every output of it is some other tensor */
        uint64_t gap = made ? 0 : block_gap(im, p, tn->ring, tn->off, bytes);
        if (best == SIZE_MAX || gap < best_gap || (gap == best_gap && p->pos > im->tasks[best].pos))
            best = ed->pred, best_gap = gap;
    }
    return best;
}

/* One creation of a heap tensor: who made it, and how large it is. */
typedef struct creation {
    size_t x;       /* the tensor record (its address) */
    size_t p;       /* the creator, SIZE_MAX = unknown (readers only in manual scopes) */
    uint64_t off;   /* offset in the ring */
    uint64_t bytes; /* heap bytes */
    int dtype;      /* what its readers see */
    uint64_t numel; /* ... elements of that dtype */
    bool taken;     /* placed by the walk */
} creation;

/* The creations of every heap tensor: one per creator its readers name (a
 * heap address reused after the ring wrapped, or rebased, is made again, and
 * may hold another dtype and size: its readers' views tell), else one of
 * unknown creator with the record's size. */
static int build_creations(importer *im, creation **out, size_t *nout)
{
    creation *v = NULL;
    size_t n = 0, cap = 0;
    for (size_t t = 0; t < im->ntasks; t++) /* what creator edges alone say, for reader_creator */
        im->tasks[t].nedge_anchored = im->tasks[t].nanchored;
    for (size_t k = 0; k < im->nknown; k++) {
        const imp_task *r = &im->tasks[k];
        for (int i = 0; i < r->nargs; i++) {
            const imp_arg *a = &r->args[i];
            if (a->type == A_OUT || !im->tensors[a->tensor].heap)
                continue;
            imp_tensor *tn = &im->tensors[a->tensor];
            size_t p = r->manual ? SIZE_MAX : reader_creator(im, r, i, tn);
            if (p == SIZE_MAX)
                continue;
            if (add_anchor(im, (size_t)a->tensor, p) != 0) {
                free(v);
                return -1;
            }
        }
    }
    /* one entry per (tensor, creator); sizes from the views of the readers each creator's buffer had */
    for (size_t x = 0; x < im->ntensors; x++) {
        const imp_tensor *tn = &im->tensors[x];
        if (!tn->heap)
            continue;
        size_t k = tn->ncreators ? tn->ncreators : 1;
        for (size_t c = 0; c < k; c++) {
            if (n == cap) {
                size_t ncap = cap ? 2 * cap : 256;
                creation *nv = realloc(v, ncap * sizeof(*nv));
                if (!nv) {
                    free(v);
                    return imp_oom(im);
                }
                v = nv;
                cap = ncap;
            }
            v[n++] = (creation){.x = x,
                                .p = tn->ncreators ? tn->creators[c] : SIZE_MAX,
                                .off = tn->off,
                                .bytes = record_bytes(tn),
                                .dtype = tn->dtype,
                                .numel = tn->numel};
        }
    }
    *out = v;
    *nout = n;
    return 0;
}

/* A tensor made more than once (its heap address used anew after the ring
 * wrapped or rebased) may hold another dtype and size each time: each
 * creation takes the largest view its readers have of it, and the first one
 * (the one the record describes) at least the record's storage. */
static void size_reused(importer *im, creation *v, size_t n, const size_t *first_of)
{
    for (size_t i = 0; i < n; i++)
        if (im->tensors[v[i].x].ncreators >= 2) {
            v[i].bytes = 0;
            v[i].dtype = -1;
        }
    for (size_t k = 0; k < im->nknown; k++) {
        const imp_task *r = &im->tasks[k];
        for (int i = 0; i < r->nargs; i++) {
            const imp_arg *a = &r->args[i];
            if (a->type == A_OUT || r->manual || !im->tensors[a->tensor].heap ||
                im->tensors[a->tensor].ncreators < 2)
                continue;
            size_t p = reader_creator(im, r, i, &im->tensors[a->tensor]);
            for (size_t c = first_of[a->tensor]; c < n && v[c].x == (size_t)a->tensor; c++) {
                uint64_t b = heap_round_output(view_bytes(a));
                if (v[c].p == p && b > v[c].bytes) {
                    v[c].bytes = b;
                    v[c].dtype = a->dtype;
                }
            }
        }
    }
    for (size_t i = 0; i < n; i++) {
        const imp_tensor *tn = &im->tensors[v[i].x];
        if (tn->ncreators < 2)
            continue;
        bool first = true; /* made before every other creation of it */
        for (size_t c = first_of[v[i].x]; c < n && v[c].x == v[i].x; c++)
            if (c != i && v[c].p != SIZE_MAX && v[i].p != SIZE_MAX &&
                im->tasks[v[c].p].pos < im->tasks[v[i].p].pos)
                first = false;
        if (first && record_bytes(tn) >= v[i].bytes) {
            v[i].bytes = record_bytes(tn);
            v[i].dtype = tn->dtype;
        } else if (v[i].dtype < 0) {
            v[i].bytes = record_bytes(tn);
            v[i].dtype = tn->dtype;
        }
        int es = dtype_size(v[i].dtype) > 0 ? dtype_size(v[i].dtype) : 1;
        v[i].numel = v[i].bytes / (uint64_t)es;
    }
}

/* ---- the layout walk ---- */

typedef struct heap_walk {
    importer *im;
    creation *c; /* the creations of this ring, by offset, then by creator */
    size_t n;
    uint64_t cursor;   /* where the next output goes */
    size_t scan;       /* creations before it are taken or below the cursor */
    int pending_buf;   /* the last output nobody read, which can still grow */
    size_t later_need; /* outputs the ring's later tasks still need from creations of unknown creator */
    uint64_t seg_end;  /* an alloc's scope segment ends below this offset (UINT64_MAX: not known) */
    size_t seg_pos;    /* ... its tasks come before this op position (SIZE_MAX: the ring's last) */
    size_t seg_need;   /* ... and its later tasks need this many creations of unknown creator */
    bool laps;         /* the ring wraps in the capture: several laps' buffers share offsets */
} heap_walk;

/* Could task p have made creation c? */
static bool may_create(const importer *im, size_t p, const creation *c)
{
    if (c->p != SIZE_MAX)
        return c->p == p;
    const imp_tensor *t = &im->tensors[c->x];
    if (im->tasks[p].pos >= t->first_use)
        return false;
    /* an auto-scope reader without a creator edge already had the creator as a predecessor */
    for (size_t k = 0; k < t->nreaders; k++)
        if (!pred_before(&im->tasks[t->readers[k] >> 6], (int)(t->readers[k] & 63), p))
            return false;
    return true;
}

/* The first untaken creation at or after the cursor. */
static long next_item(heap_walk *w)
{
    while (w->scan < w->n && (w->c[w->scan].taken || w->c[w->scan].off < w->cursor))
        w->scan++;
    return w->scan < w->n ? (long)w->scan : -1;
}

static int add_output(importer *im, size_t p, int tensor, uint64_t bytes, int dtype, uint64_t numel)
{
    imp_task *t = &im->tasks[p];
    int b = imp_add_buf(
        im,
        (imp_buf){
            .created = true, .tensor = tensor, .task = p, .bytes = bytes, .dtype = dtype, .numel = numel});
    if (b < 0 || imp_grow(im, (void **)&t->outs, &t->outcap, t->nouts, sizeof(*t->outs), 4) != 0)
        return imp_oom(im);
    t->outs[t->nouts++] = b;
    if (tensor >= 0) {
        imp_tensor *tn = &im->tensors[tensor];
        if (imp_grow(im, (void **)&tn->made, &tn->madecap, tn->nmade, sizeof(*tn->made), 4) != 0)
            return imp_oom(im);
        tn->made[tn->nmade++] = b;
    }
    return b;
}

static int take(heap_walk *w, size_t p, size_t i)
{
    creation *c = &w->c[i];
    if (add_output(w->im, p, (int)c->x, c->bytes, c->dtype, c->numel) < 0)
        return -1;
    c->taken = true;
    w->cursor = c->off + c->bytes;
    w->pending_buf = -1;
    return 0;
}

/* Creations of unknown creator still to place at or after the cursor,
 * against the slots later tasks still need filled: an alloc takes another
 * only while there are more of them than later slots. Within a scope segment
 * (the tasks up to the next scope sample of the ring, whose heap counter
 * bounds their blocks) only that segment's creations and tasks count: a
 * manual scope has no creator edges, and ring-wide counts let the first alloc
 * take every later alloc's extra outputs. */
static bool alloc_may_take_more(const heap_walk *w, size_t from)
{
    size_t unknown = 0;
    for (size_t i = from; i < w->n && w->c[i].off < w->seg_end; i++)
        if (!w->c[i].taken && w->c[i].p == SIZE_MAX && w->c[i].off >= w->cursor &&
            (w->seg_end == UINT64_MAX || !w->laps || w->im->tensors[w->c[i].x].first_use < w->seg_pos))
            unknown++; /* on a ring that wraps, a later lap's buffer here is first read after the segment */
    return unknown > (w->seg_end != UINT64_MAX ? w->seg_need : w->later_need);
}

/* One output slot of task p: the creation at the cursor if p may have made
 * it; else an output nobody read, as large as the gap to the next creation p
 * may have made, or (nothing of p's ahead) the least an output takes, growing
 * when the next creation is reached. alloc_more asks for another entry of an
 * alloc, which there is only if one it may have made is next. Returns 0, 1
 * when an alloc has no more entries, -1 when out of memory. */
static int take_slot(heap_walk *w, size_t p, bool alloc_more)
{
    importer *im = w->im;
    long i = next_item(w);
    bool mine = i >= 0 && may_create(im, p, &w->c[i]);
    if (mine && alloc_more && w->c[i].p == SIZE_MAX && !alloc_may_take_more(w, (size_t)i))
        mine = false;
    if (mine) {
        const creation *c = &w->c[i];
        if (c->off > w->cursor) {
            if (w->pending_buf >= 0) {
                im->bufs[w->pending_buf].bytes += c->off - w->cursor;
            } else if (alloc_more) {
                return 1; /* an alloc's next entry would start at the cursor */
            } else {      /* this slot was not read; the creation is a later slot's */
                int b = add_output(im, p, -1, c->off - w->cursor, DT_INT8, c->off - w->cursor);
                if (b < 0)
                    return -1;
                w->cursor = c->off;
                return 0;
            }
        }
        return take(w, p, (size_t)i);
    }
    if (alloc_more)
        return 1;
    int b = add_output(im, p, -1, UNCONSUMED_SLOT_BYTES, DT_INT8, UNCONSUMED_SLOT_BYTES);
    if (b < 0)
        return -1;
    w->cursor += UNCONSUMED_SLOT_BYTES;
    w->pending_buf = b;
    return 0;
}

/* Slots task p still needs from creations of unknown creator. */
static size_t slot_need(const imp_task *t)
{
    if (t->alloc)
        return t->nanchored ? 0 : 1;
    return (size_t)t->nslots > t->nanchored ? (size_t)t->nslots - t->nanchored : 0;
}

/* An output that ends after the cursor grows by what the heap counter of a
 * scope sample says was allocated since. */
static void grow_to(heap_walk *w, uint64_t at_cum, uint64_t wraps, uint64_t size)
{
    uint64_t at = wraps * size + w->cursor;
    if (at_cum > at && w->pending_buf >= 0) {
        w->im->bufs[w->pending_buf].bytes += at_cum - at;
        w->cursor += at_cum - at;
    }
}

/* The segment of the alloc at local id l of ring r: the ring's next scope
 * sample (scopes[si], when it is of ring r) counts the heap its tasks up to
 * the sample's head allocated, so their blocks end below that counter's offset
 * in the ring, as long as no wrap comes between (wraps so far, ring size). */
static void alloc_segment(heap_walk *w, int r, uint64_t l, uint64_t wraps, uint64_t size, size_t si)
{
    const importer *im = w->im;
    w->seg_end = UINT64_MAX;
    w->seg_need = 0;
    if (!im->have_stats || si >= im->nscopes || im->scopes[si].ring != r)
        return;
    const imp_scope *s = &im->scopes[si];
    assert(s->head > l);
    if (s->heap_end < wraps * size || s->heap_end - wraps * size > size || s->head > im->ring_count[r])
        return; /* the ring wraps (or rebases) before the sample: offsets do not bound the segment */
    w->seg_end = s->heap_end - wraps * size;
    w->seg_pos = s->head < im->ring_count[r] ? im->tasks[im->by_local[r][s->head]].pos : SIZE_MAX;
    for (uint64_t k = l + 1; k < s->head; k++)
        w->seg_need += slot_need(&im->tasks[im->by_local[r][k]]);
}

/* The ring's outputs laid out as the runtime's heap does: each task's
 * outputs packed in slot order where the last task's ended, back at 0 when
 * the block does not fit the end (a creation of this task below the cursor
 * says so). Scope stats' cumulative heap counter fixes the size of the last
 * output nobody read before each sample. */
static int walk_ring(importer *im, int r, uint64_t size, creation *all, size_t nall, const long *head,
                     const long *next)
{
    heap_walk w = {.im = im, .pending_buf = -1, .seg_end = UINT64_MAX};
    size_t from = 0;
    while (from < nall && im->tensors[all[from].x].ring != r)
        from++;
    size_t to = from;
    while (to < nall && im->tensors[all[to].x].ring == r)
        to++;
    w.c = all ? all + from : NULL; /* no creations at all: NULL + 0 is undefined */
    w.n = to - from;
    for (uint64_t l = 0; l < im->ring_count[r]; l++)
        w.later_need += slot_need(&im->tasks[im->by_local[r][l]]);
    for (size_t k = 0; im->have_stats && k < im->nscopes; k++)
        w.laps |= im->scopes[k].ring == r && im->scopes[k].heap_end > size;
    size_t si = 0;
    uint64_t wraps = 0;
    for (uint64_t l = 0; l < im->ring_count[r]; l++) {
        size_t p = (size_t)im->by_local[r][l];
        imp_task *t = &im->tasks[p];
        for (; im->have_stats && si < im->nscopes; si++) {
            const imp_scope *s = &im->scopes[si];
            if (s->ring != r)
                continue;
            if (s->head > l)
                break;
            grow_to(&w, s->heap_end, wraps, size);
            w.pending_buf = -1;
        }
        w.later_need -= slot_need(t);
        if (!t->alloc && !t->nslots)
            continue;
        for (long i = head[p]; i >= 0; i = next[i]) /* a creation of this task below the cursor: it wrapped */
            if (!all[i].taken && all[i].off < w.cursor) {
                w.cursor = 0;
                w.scan = 0;
                w.pending_buf = -1;
                wraps++;
                break;
            }
        int rc = 0;
        if (t->alloc) {
            alloc_segment(&w, r, l, wraps, size, si);
            rc = take_slot(&w, p, false);
            while (rc == 0)
                rc = take_slot(&w, p, true);
            if (rc < 0)
                return -1;
        } else {
            for (int s = 0; s < t->nslots; s++)
                if (take_slot(&w, p, false) < 0)
                    return -1;
        }
    }
    for (; im->have_stats && si < im->nscopes; si++)
        if (im->scopes[si].ring == r)
            grow_to(&w, im->scopes[si].heap_end, wraps, size);
    for (size_t i = 0; i < w.n; i++) {
        creation *c = &w.c[i];
        if (c->taken)
            continue;
        imp_tensor *tn = &im->tensors[c->x];
        imp_task *p = c->p != SIZE_MAX ? &im->tasks[c->p] : NULL;
        /* a creation the layout could not place still belongs to its creator, if it has a slot left */
        if (p && (p->alloc || p->nouts < (size_t)p->nslots)) {
            if (add_output(im, c->p, (int)c->x, c->bytes, c->dtype, c->numel) < 0)
                return -1;
            imp_note(im,
                     "tensor %" PRIu64 " (ring %d, offset %" PRIu64 ") does not fit its creator's block: "
                     "the heap layout of its ring will differ",
                     tn->tid, r, c->off);
        } else {
            imp_note(im,
                     "tensor %" PRIu64 " (ring %d, offset %" PRIu64
                     ") is read but no task could have made it "
                     "there: it is imported as an external tensor",
                     tn->tid, r, c->off);
        }
    }
    return 0;
}

static int cmp_creation(const void *a, const void *b, const importer *im)
{
    const creation *x = a, *y = b;
    int rx = im->tensors[x->x].ring, ry = im->tensors[y->x].ring;
    if (rx != ry)
        return rx < ry ? -1 : 1;
    if (x->off != y->off)
        return x->off < y->off ? -1 : 1;
    size_t px = x->p == SIZE_MAX ? 0 : im->tasks[x->p].pos + 1,
           py = y->p == SIZE_MAX ? 0 : im->tasks[y->p].pos + 1;
    if (px != py)
        return px < py ? -1 : 1;
    return x->x < y->x ? -1 : x->x > y->x;
}

/* qsort has no context: the importer the comparison reads (one import at a time). */
static const importer *sort_im;
static int cmp_creation_qsort(const void *a, const void *b)
{
    return cmp_creation(a, b, sort_im);
}

#define CREATION_AFTER(a, b) (cmp_creation((a), (b), sort_im) > 0)
IMP_STABLE_SORT(sort_creations, creation, CREATION_AFTER)

/* ---- readers ---- */

/* Points every arg at its buffer: the creation its creator edge names, else
 * the latest creation of that tensor before the reader, else the external
 * tensor. Records each buffer's largest view. */
static int resolve_args(importer *im)
{
    int *external = malloc((im->ntensors ? im->ntensors : 1) * sizeof(*external));
    if (!external)
        return imp_oom(im);
    for (size_t x = 0; x < im->ntensors; x++)
        external[x] = -1;
    for (size_t k = 0; k < im->nknown; k++) {
        imp_task *t = &im->tasks[k];
        for (int i = 0; i < t->nargs; i++) {
            imp_arg *a = &t->args[i];
            if (a->type == A_OUT)
                continue;
            const imp_tensor *tn = &im->tensors[a->tensor];
            size_t named = SIZE_MAX;
            if (tn->heap && !t->manual)
                named = reader_creator(im, t, i, tn);
            int best = -1;
            for (size_t m = 0; m < tn->nmade; m++) {
                int b = tn->made[m];
                const imp_buf *bf = &im->bufs[b];
                if (im->tasks[bf->task].pos >= t->pos)
                    continue;
                if (named != SIZE_MAX && bf->task == named) {
                    best = b;
                    break;
                }
                if (best < 0 || im->tasks[bf->task].pos > im->tasks[im->bufs[best].task].pos)
                    best = b;
            }
            if (best < 0 && tn->heap)
                imp_note(im, "task %" PRIu64 " arg %d reads tensor %" PRIu64 " before any task made it",
                         t->id, i, tn->tid);
            if (best < 0) {
                if (external[a->tensor] < 0 &&
                    (external[a->tensor] = imp_add_buf(im, (imp_buf){.tensor = a->tensor})) < 0) {
                    free(external);
                    return imp_oom(im);
                }
                best = external[a->tensor];
            }
            a->buf = best;
            imp_buf *bf = &im->bufs[best];
            uint64_t vb = view_bytes(a);
            if (!bf->view || vb > bf->view_bytes) { /* what a reader sees: the output's size for the model */
                bf->view = a;
                bf->view_bytes = vb;
            }
        }
    }
    free(external);
    return 0;
}

/* ---- manual_dep ---- */

static tmap_view view_of(const importer *im, const imp_arg *a)
{
    const imp_tensor *t = &im->tensors[a->tensor];
    tmap_view v = {.addr = t->addr,
                   .buffer_numel = t->numel,
                   .start = a->start,
                   .version = t->version,
                   .dtype = (uint8_t)a->dtype,
                   .ndims = (uint8_t)a->ndim};
    for (int d = 0; d < a->ndim; d++) {
        v.shape[d] = a->shape[d];
        v.strides[d] = a->strides[d];
    }
    return v;
}

/* An auto-scope writer arg (INOUT, OUTPUT_EXISTING): (address, task, arg). */
typedef struct writer_ref {
    uint64_t addr;
    size_t task;
    int arg;
} writer_ref;

static int cmp_writer(const void *a, const void *b)
{
    const writer_ref *x = a, *y = b;
    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    return x->task < y->task ? -1 : x->task > y->task;
}

#define WRITER_AFTER(a, b) ((a)->addr != (b)->addr ? (a)->addr > (b)->addr : (a)->task > (b)->task)
IMP_STABLE_SORT(sort_writers, writer_ref, WRITER_AFTER)

/* deps.json does not say which tensors were made with manual_dep (no
 * TensorMap lookup or insert; e.g. the batched paged attention's `out`). A
 * buffer written and then read in auto scopes with overlapping views, yet
 * named by no TensorMap edge at all, was: its args are marked manual_dep. */
static int infer_manual_dep(importer *im)
{
    addr_ix *byaddr = malloc((im->ntensors ? im->ntensors : 1) * sizeof(*byaddr));
    bool *edged = calloc(im->ntensors ? im->ntensors : 1, sizeof(*edged));
    bool *decided = calloc(im->ntensors ? im->ntensors : 1, sizeof(*decided));
    writer_ref *wr = NULL;
    size_t nw = 0, wcap = 0;
    int rc = -1;
    if (!byaddr || !edged || !decided) {
        imp_oom(im);
        goto out;
    }
    for (size_t k = 0; k < im->nknown; k++) {
        const imp_task *t = &im->tasks[k];
        for (size_t e = 0; e < t->nedges; e++) /* buffers some TensorMap edge reaches */
            if (t->edges[e].source == 2 && t->edges[e].arg >= 0 && t->edges[e].arg < t->nargs &&
                t->args[t->edges[e].arg].tensor >= 0)
                edged[t->args[t->edges[e].arg].tensor] = true;
        for (int i = 0; i < t->nargs; i++) {
            const imp_arg *a = &t->args[i];
            if (t->manual || (a->type != A_INOUT && a->type != A_OUT_EXISTING))
                continue;
            if (vec_grow((void **)&wr, &wcap, nw, sizeof(*wr)) != 0) {
                imp_oom(im);
                goto out;
            }
            wr[nw++] = (writer_ref){im->tensors[a->tensor].addr, k, i};
        }
    }
    if (nw > 1) /* wr is NULL when nothing writes */
        sort_writers(wr, nw, cmp_writer);
    /* an edge on one record of an address counts for every record of it */
    for (size_t x = 0; x < im->ntensors; x++)
        byaddr[x] = (addr_ix){im->tensors[x].addr, x};
    sort_addr(byaddr, im->ntensors, cmp_addr);
    for (size_t i = 0; i < im->ntensors;) {
        size_t j = i;
        bool any = false;
        while (j < im->ntensors && byaddr[j].addr == byaddr[i].addr)
            any |= edged[byaddr[j++].x];
        for (size_t k = i; k < j; k++)
            edged[byaddr[k].x] = any;
        i = j;
    }
    for (size_t k = 0; k < im->nknown; k++) {
        const imp_task *r = &im->tasks[k];
        for (int i = 0; i < r->nargs; i++) {
            const imp_arg *ra = &r->args[i];
            if (r->manual || (ra->type != A_IN && ra->type != A_INOUT) || edged[ra->tensor] ||
                decided[ra->tensor])
                continue;
            uint64_t addr = im->tensors[ra->tensor].addr;
            /* the writers of this address before the reader */
            size_t lo = vec_lower_bound(wr, nw, sizeof(*wr), offsetof(writer_ref, addr), addr);
            tmap_view rv = view_of(im, ra);
            bool predicted = false;
            for (size_t w = lo; w < nw && wr[w].addr == addr && wr[w].task < k && !predicted; w++) {
                tmap_view wv = view_of(im, &im->tasks[wr[w].task].args[wr[w].arg]);
                predicted = tmap_check_overlap(&wv, &rv) != OV_NONE;
            }
            if (!predicted)
                continue;
            for (size_t y = 0; y < im->ntensors; y++)
                if (im->tensors[y].addr == addr)
                    decided[y] = true;
            imp_note(im,
                     "tensor %" PRIu64 " is written and read in auto scopes but no TensorMap edge names it: "
                     "imported as manual_dep",
                     im->tensors[ra->tensor].tid);
        }
    }
    for (size_t k = 0; k < im->nknown; k++)
        for (int i = 0; i < im->tasks[k].nargs; i++) {
            imp_arg *a = &im->tasks[k].args[i];
            if (a->tensor >= 0 && decided[a->tensor])
                a->manual_dep = true;
        }
    rc = 0;
out:
    free(byaddr);
    free(edged);
    free(decided);
    free(wr);
    return rc;
}

int import_heap_buffers(importer *im)
{
    /* first uses; auto readers a creator edge does not name */
    for (size_t k = 0; k < im->nknown; k++) {
        const imp_task *t = &im->tasks[k];
        for (int i = 0; i < t->nargs; i++) {
            if (t->args[i].tensor < 0)
                continue;
            imp_tensor *tn = &im->tensors[t->args[i].tensor];
            if (t->pos < tn->first_use)
                tn->first_use = t->pos;
            bool named = false;
            for (size_t e = 0; e < t->nedges; e++)
                named |= t->edges[e].source == 1 && t->edges[e].arg == i;
            if (!t->manual && !named) {
                if (imp_grow(im, (void **)&tn->readers, &tn->readercap, tn->nreaders, sizeof(size_t), 4) != 0)
                    return imp_oom(im);
                tn->readers[tn->nreaders++] = k << 6 | (size_t)i;
            }
        }
    }
    uint64_t size[RINGS], prefix[RINGS + 1], used[RINGS];
    addr_ix *elig[RINGS] = {NULL};
    size_t nelig[RINGS];
    int rc = -1;
    creation *c = NULL;
    size_t nc = 0, *first_of = NULL;
    long *head = NULL, *next = NULL;
    for (int r = 0; r < RINGS; r++)
        if (!(elig[r] = malloc((im->ntensors ? im->ntensors : 1) * sizeof(*elig[r])))) {
            imp_oom(im);
            goto out;
        }
    locate_heap(im, size, prefix, used, elig, nelig);
    if (build_creations(im, &c, &nc) != 0)
        goto out;
    first_of = malloc((im->ntensors ? im->ntensors : 1) * sizeof(*first_of));
    if (!first_of) {
        imp_oom(im);
        goto out;
    }
    for (size_t i = nc; i-- > 0;) /* creations are in tensor order here */
        first_of[c[i].x] = i;
    size_reused(im, c, nc, first_of);
    sort_im = im;
    if (nc > 1) /* c is NULL without creations */
        sort_creations(c, nc, cmp_creation_qsort);
    /* each task's creations, for the walk's wrap test */
    head = malloc((im->ntasks ? im->ntasks : 1) * sizeof(*head));
    next = malloc((nc ? nc : 1) * sizeof(*next));
    if (!head || !next) {
        imp_oom(im);
        goto out;
    }
    for (size_t t = 0; t < im->ntasks; t++)
        head[t] = -1;
    for (size_t i = nc; i-- > 0;)
        if (c[i].p != SIZE_MAX) {
            next[i] = head[c[i].p];
            head[c[i].p] = (long)i;
        }
    for (int r = 0; r < RINGS; r++)
        if (walk_ring(im, r, size[r], c, nc, head, next) != 0)
            goto out;
    if (resolve_args(im) == 0)
        rc = infer_manual_dep(im);
out:
    for (int r = 0; r < RINGS; r++)
        free(elig[r]);
    free(c);
    free(first_of);
    free(head);
    free(next);
    return rc;
}
