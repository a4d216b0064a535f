/* dump.c - args dump on the device: record selection at submit, capture before dispatch and after completion.
 */
#include "dump.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chip.h"
#include "dtype.h"
#include "task.h"

int dump_init(dump_state *d, int level, const dump_params *p, dump_payload_mode mode)
{
    memset(d, 0, sizeof(*d));
    d->level = level;
    d->p = *p;
    return argsdump_init(&d->ad, level, mode, p->arena);
}

void dump_free(dump_state *d)
{
    for (size_t i = 0; i < d->ntv; i++)
        free(d->tv[i].v);
    free(d->tv);
    argsdump_free(&d->ad);
    memset(d, 0, sizeof(*d));
}

void dump_desc_free(dump_desc *dd)
{
    if (!dd)
        return;
    for (int i = 0; i < dd->n; i++)
        free(dd->vals[i]);
    free(dd->vals);
    free(dd->recs);
    free(dd);
}

/* The known-values entry of tensor slot `slot`, grown on demand. */
static dump_tvals *tvals(dump_state *d, int slot)
{
    if ((size_t)slot >= d->ntv) {
        size_t n = d->ntv ? d->ntv : 16;
        while (n <= (size_t)slot)
            n *= 2;
        dump_tvals *nt = realloc(d->tv, n * sizeof(*nt));
        if (!nt)
            return NULL;
        memset(nt + d->ntv, 0, (n - d->ntv) * sizeof(*nt));
        d->tv = nt;
        d->ntv = n;
    }
    return &d->tv[slot];
}

/* Buffer index of element i (row-major over the view) of view a. */
static uint64_t view_index(const graph_arg *a, uint64_t i)
{
    uint64_t idx = a->start_offset;
    for (int k = a->ndim - 1; k >= 0; k--) {
        uint64_t n = (uint64_t)a->shape[k];
        idx += (i % n) * (uint64_t)a->strides[k];
        i /= n;
    }
    return idx;
}

static uint64_t view_numel(const graph_arg *a)
{
    uint64_t n = 1;
    for (int k = 0; k < a->ndim; k++)
        n *= (uint64_t)a->shape[k];
    return n;
}

static bool row_major(const graph_arg *a)
{
    int64_t expect = 1;
    for (int k = a->ndim - 1; k >= 0; k--) {
        if (a->shape[k] != 1 && a->strides[k] != expect)
            return false;
        expect *= a->shape[k];
    }
    return true;
}

/* Values of view a if its tensor's contents are all known, else NULL (malloc'd). */
static double *gather(dump_state *d, const graph_arg *a)
{
    if (a->tensor < 0 || (size_t)a->tensor >= d->ntv || !d->tv[a->tensor].v)
        return NULL;
    const dump_tvals *t = &d->tv[a->tensor];
    uint64_t n = view_numel(a);
    double *v = malloc((n ? n : 1) * sizeof(*v));
    if (!v)
        return NULL;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t ix = view_index(a, i);
        if (ix >= t->numel || isnan(t->v[ix])) {
            free(v);
            return NULL;
        }
        v[i] = t->v[ix];
    }
    return v;
}

/* What an output writes: its data where given, unknown otherwise. */
static void note_write(dump_state *d, const graph_arg *a, uint64_t buffer_numel, bool fresh)
{
    dump_tvals *t = tvals(d, a->tensor);
    if (!t)
        return;
    if (fresh) { /* a new binding: nothing known about it yet */
        free(t->v);
        t->v = NULL;
        t->numel = buffer_numel;
    }
    if (!a->ndata && !t->v)
        return;
    if (!t->v) {
        if (buffer_numel > (1u << 20))
            return; /* literal data is for small examples */
        t->v = malloc(buffer_numel * sizeof(double));
        if (!t->v)
            return;
        t->numel = buffer_numel;
        for (uint64_t i = 0; i < buffer_numel; i++)
            t->v[i] = NAN;
    }
    uint64_t n = view_numel(a);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t ix = view_index(a, i);
        if (ix < t->numel)
            t->v[ix] = a->ndata ? a->data[i] : NAN;
    }
}

/* The header's external tensors with data seed the known contents. */
static void seed_externals(chip *c)
{
    dump_state *d = &c->dump;
    const graph *g = &c->orch.g;
    for (int s = 0; s < g->nexternal; s++) {
        const graph_tensor *gt = &g->tensors[s];
        if (!gt->ndata || gt->numel > (1u << 20))
            continue;
        dump_tvals *t = tvals(d, s);
        if (!t || t->v)
            continue;
        t->v = malloc(gt->numel * sizeof(double));
        if (!t->v)
            return;
        t->numel = gt->numel;
        for (uint64_t i = 0; i < gt->numel; i++)
            t->v[i] = i < gt->ndata ? gt->data[i] : NAN;
    }
}

static dump_role role_of(graph_dir dir)
{
    switch (dir) {
    case DIR_OUT:
    case DIR_OUT_EXISTING:
        return DUMP_OUTPUT;
    case DIR_INOUT:
        return DUMP_INOUT;
    default:
        return DUMP_INPUT;
    }
}

int dump_submit(chip *c, task *tk, const graph_op *op)
{
    dump_state *d = &c->dump;
    if (!d->ntv && c->orch.g.nexternal)
        seed_externals(c);
    if (op->kind != OP_SUBMIT || !op->predicate)
        return 0;
    bool any_tag = op->dump_task;
    for (int k = 0; k < op->nargs; k++)
        any_tag |= op->args[k].dump;
    for (int k = 0; k < op->nscalars; k++)
        any_tag |= op->scalars[k].dump;
    dump_desc *dd = NULL;
    if (d->level >= 2 || any_tag) {
        int max = 2 * op->nargs + op->nscalars;
        dd = calloc(1, sizeof(*dd));
        if (!dd || !(dd->recs = calloc((size_t)(max ? max : 1), sizeof(*dd->recs))) ||
            !(dd->vals = calloc((size_t)(max ? max : 1), sizeof(*dd->vals)))) {
            dump_desc_free(dd);
            return -1;
        }
        dump_rec base;
        memset(&base, 0, sizeof(base));
        base.task_id = tk->id;
        for (int s = 0; s < 3; s++)
            if (op->kernel_ids[s] >= 0)
                base.func[base.nfunc++] = op->kernel_ids[s];
        for (int k = 0; k < op->nargs; k++) {
            const graph_arg *a = &op->args[k];
            bool selected = op->dump_task || a->dump;
            if (d->level == 1 && !selected)
                continue;
            dump_rec r = base;
            r.arg_index = (uint16_t)k;
            r.role = (uint8_t)role_of(a->dir);
            r.dtype = (uint8_t)a->dtype;
            r.ndim = (uint8_t)a->ndim;
            memcpy(r.shape, a->shape, sizeof(r.shape));
            memcpy(r.strides, a->strides, sizeof(r.strides));
            r.start_offset = a->start_offset;
            r.numel = view_numel(a);
            r.contiguous = row_major(a);
            r.payload = d->level == 2 || selected;
            /* inputs and inouts before dispatch; outputs and inouts after completion */
            if (r.role != DUMP_OUTPUT) {
                r.stage = DUMP_BEFORE_DISPATCH;
                dd->vals[dd->n] = r.payload ? gather(d, a) : NULL;
                dd->recs[dd->n++] = r;
            }
            if (r.role != DUMP_INPUT) {
                r.stage = DUMP_AFTER_COMPLETION;
                if (r.payload && a->ndata) {
                    dd->vals[dd->n] = malloc(a->ndata * sizeof(double));
                    if (dd->vals[dd->n])
                        memcpy(dd->vals[dd->n], a->data, a->ndata * sizeof(double));
                }
                dd->recs[dd->n++] = r;
            }
        }
        for (int k = 0; k < op->nscalars; k++) {
            const graph_scalar *s = &op->scalars[k];
            if (d->level == 1 && !(op->dump_task || s->dump))
                continue;
            dump_rec r = base;
            r.arg_index = (uint16_t)(op->nargs + k);
            r.role = DUMP_INPUT;
            r.stage = DUMP_BEFORE_DISPATCH;
            r.scalar = 1;
            r.dtype = (uint8_t)s->dtype;
            r.numel = 1;
            r.contiguous = true;
            r.value = s->value;
            dd->recs[dd->n++] = r;
        }
        if (!dd->n) {
            dump_desc_free(dd);
            dd = NULL;
        }
    }
    /* what the outputs leave in their tensors, for later inputs */
    for (int k = 0; k < op->nargs; k++) {
        const graph_arg *a = &op->args[k];
        if (a->dir == DIR_OUT || a->dir == DIR_OUT_EXISTING || a->dir == DIR_INOUT)
            note_write(d, a, a->buffer_numel, a->dir == DIR_OUT);
    }
    tk->dump = dd;
    if (dd)
        d->tasks++;
    return 0;
}

ps_t dump_capture(chip *c, int ti, task *tk, dump_stage stage, ps_t t)
{
    (void)ti;
    (void)t;
    dump_desc *dd = tk->dump;
    if (!dd || (stage == DUMP_BEFORE_DISPATCH && dd->before_done))
        return 0;
    dump_state *d = &c->dump;
    ps_t spent = 0;
    for (int i = 0; i < dd->n; i++) {
        const dump_rec *r = &dd->recs[i];
        if (r->stage != stage)
            continue;
        long ix = argsdump_add(&d->ad, r, dd->vals[i]);
        if (ix < 0) {
            chip_error(c, "out of memory for args dump records");
            return spent;
        }
        const dump_rec *x = &d->ad.recs[ix];
        spent += d->p.record;
        if (x->bin_size) {
            double bps = x->contiguous ? d->p.copy_bps : d->p.gather_bps;
            spent += (ps_t)((double)x->bin_size / bps * PS_PER_S);
            d->bytes += x->bin_size;
        }
        if (argsdump_persist(&d->ad, (size_t)ix) != 0)
            chip_error(c, "cannot write args.bin");
    }
    d->copy_ps += spent;
    if (stage == DUMP_BEFORE_DISPATCH) {
        dd->before_done = true;
    } else {
        dump_desc_free(dd);
        tk->dump = NULL;
    }
    return spent;
}
