/* device_dump.c - dump_: the args dump on the device: which records, and when they are captured. */
/* Record selection at submit, capture before dispatch and after completion. */
#include "device_dump.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "perfetto_trace.h"
#include "../base/dtype.h"
#include "../runtime/task_slots.h"

int dump_init(dump_state *d, int level, const dump_params *p, dump_payload_mode mode)
{
    memset(d, 0, sizeof(*d));
    d->level = level;
    d->p = *p;
    d->kill_at = PS_NEVER;
    for (int t = 0; t < PLATFORM_MAX_AICPU_THREADS; t++) {
        d->th[t].cur = calloc(p->buf_records ? p->buf_records : 1, sizeof(*d->th[t].cur));
        if (!d->th[t].cur)
            return -1;
        /* one buffer is current; the free queue holds up to its slots of the rest */
        d->th[t].free_bufs = p->buffers - 1 < p->free_queue ? p->buffers - 1 : p->free_queue;
    }
    return argsdump_init(&d->ad, level, mode, p->arena);
}

void dump_free(dump_state *d)
{
    for (size_t i = 0; i < d->ntv; i++)
        free(d->tv[i].v);
    for (int t = 0; t < PLATFORM_MAX_AICPU_THREADS; t++)
        free(d->th[t].cur);
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
static void seed_externals(dump_state *d, const graph *g)
{
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

int dump_submit(dump_state *d, const graph *g, task *tk, const graph_op *op)
{
    if (!d->ntv && g->nexternal)
        seed_externals(d, g);
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

bool dump_gate_open(const dump_state *d, int ti, dump_gate gate)
{
    const dump_thread *th = &d->th[ti];
    switch (gate) {
    case DUMP_GATE_FREE_BUFFER:
        return th->free_bufs > 0;
    case DUMP_GATE_READY_SLOT:
        return th->ready < d->p.ready_queue;
    case DUMP_GATE_ARENA:
    default:
        return th->persisted_payloads >= th->published_payloads;
    }
}

void dump_host_collected(dump_state *d, int ti)
{
    dump_thread *th = &d->th[ti];
    if (th->ready > 0)
        th->ready--;
    if (th->free_bufs < d->p.free_queue)
        th->free_bufs++;
}

int dump_host_persisted(dump_state *d, size_t i)
{
    dump_rec *r = &d->ad.recs[i];
    bool payload = r->bin_size > 0 && !r->persisted;
    if (argsdump_persist(&d->ad, i) != 0)
        return -1;
    if (payload)
        d->th[r->thread].persisted_payloads++;
    return 0;
}

/* Thread ti waits at a gate from time t: every scheduler thread freezes with
 * it (the global back-pressure is common-mode) until the host opens it, the
 * 30 s backstop passes, or the device dies. Returns when it goes on;
 * *dropped is set when the backstop ended the wait. */
static ps_t park(dump_state *d, int ti, dump_gate gate, ps_t t, bool *dropped)
{
    dump_thread *th = &d->th[ti];
    *dropped = false;
    if (!d->host || dump_gate_open(d, ti, gate) || d->killed)
        return t;
    ps_t limit = t + d->p.backstop;
    if (d->kill_at < limit)
        limit = d->kill_at;
    ps_t open = d->host->wait(d->host->ctx, ti, gate, t, limit);
    if (open < t)
        open = t;
    if (d->pf && pf_phase_add(d->pf, ti, PF_PHASE_DUMP_PARK, t, open, 0, (uint64_t)gate) != 0 && !d->error)
        d->error = "out of memory for the Perfetto trace";
    th->parks++;
    th->parked_ps += open - t;
    if (open > d->freeze_until) {
        d->frozen_ps += open - (t > d->freeze_until ? t : d->freeze_until);
        d->freeze_until = open;
    }
    if (!dump_gate_open(d, ti, gate)) {
        if (open >= d->kill_at)
            d->killed = true; /* the device is reaped while parked */
        else
            *dropped = true;
    }
    return open;
}

/* Publishes thread ti's current metadata buffer at time *t and takes a
 * replacement, parking at a full ready queue or an empty free queue. */
static void publish_current(dump_state *d, int ti, ps_t *t)
{
    dump_thread *th = &d->th[ti];
    bool dropped;
    if (!th->ncur)
        return;
    *t = park(d, ti, DUMP_GATE_READY_SLOT, *t, &dropped);
    if (d->killed)
        return;    /* it stays the current buffer: the host's reconcile recovers it */
    if (dropped) { /* the buffer's records are lost */
        for (uint32_t i = 0; i < th->ncur; i++)
            d->ad.recs[th->cur[i]].dropped = true;
        d->ad.dropped += th->ncur;
        th->ncur = 0;
        return;
    }
    for (uint32_t i = 0; i < th->ncur; i++)
        th->published_payloads += d->ad.recs[th->cur[i]].bin_size > 0;
    th->ready++;
    if (d->host)
        d->host->publish(d->host->ctx, ti, th->cur, th->ncur, *t);
    else
        for (uint32_t i = 0; i < th->ncur; i++)
            dump_host_persisted(d, th->cur[i]);
    th->ncur = 0;
    if (!d->host) {
        th->ready--;
        return;
    }
    *t = park(d, ti, DUMP_GATE_FREE_BUFFER, *t, &dropped);
    if (!dropped && !d->killed)
        th->free_bufs--;
}

ps_t dump_capture(dump_state *d, int ti, task *tk, dump_stage stage, ps_t t)
{
    dump_desc *dd = tk->dump;
    if (!dd || (stage == DUMP_BEFORE_DISPATCH && dd->before_done))
        return 0;
    dump_thread *th = &d->th[ti];
    ps_t start = t;
    for (int i = 0; i < dd->n && !d->killed; i++) {
        const dump_rec *r = &dd->recs[i];
        if (r->stage != stage)
            continue;
        long ix = argsdump_add(&d->ad, r, dd->vals[i]);
        if (ix < 0) {
            if (!d->error)
                d->error = "out of memory for args dump records";
            break;
        }
        dump_rec *x = &d->ad.recs[ix];
        x->thread = (uint8_t)ti;
        /* a metadata slot: a full buffer is published and replaced first */
        if (th->ncur == d->p.buf_records)
            publish_current(d, ti, &t);
        if (d->killed || th->ncur == d->p.buf_records) {
            d->ad.n--; /* the AICPU died (or lost its buffer) before this record was written */
            break;
        }
        /* arena space: a payload that would wrap the arena waits until the
         * host has written every payload published so far */
        if (x->bin_size && th->arena_pos + x->bin_size > d->p.arena) {
            publish_current(d, ti, &t);
            bool dropped;
            t = park(d, ti, DUMP_GATE_ARENA, t, &dropped);
            if (dropped) {
                x->dropped = true;
                d->ad.dropped++;
                continue;
            }
            if (d->killed) {
                d->ad.n--;
                break;
            }
            th->arena_pos = 0;
        }
        ps_t copy = d->p.record;
        if (x->bin_size) {
            double bps = x->contiguous ? d->p.copy_bps : d->p.gather_bps;
            copy += (ps_t)((double)x->bin_size / bps * PS_PER_S);
            th->arena_pos += x->bin_size;
            th->produced_bytes += x->bin_size;
            d->bytes += x->bin_size;
        }
        t += copy;
        d->copy_ps += copy;
        th->cur[th->ncur++] = (uint32_t)ix;
        if (!d->host && th->ncur == d->p.buf_records)
            publish_current(d, ti, &t);
    }
    if (d->pf && pf_counter_set(d->pf, PF_CTR_ARENA0 + ti, t, (int64_t)th->arena_pos) != 0 && !d->error)
        d->error = "out of memory for the Perfetto trace";
    if (stage == DUMP_BEFORE_DISPATCH) {
        dd->before_done = true;
    } else {
        dump_desc_free(dd);
        tk->dump = NULL;
    }
    return t - start;
}

void dump_flush(dump_state *d, ps_t t, bool killed, void (*note)(int ti, uint32_t count, void *ctx), void *ctx)
{
    for (int ti = 0; ti < PLATFORM_MAX_AICPU_THREADS; ti++) {
        dump_thread *th = &d->th[ti];
        if (!th->ncur)
            continue;
        if (killed && note)
            note(ti, th->ncur, ctx);
        /* the flush (or the host's recovery) publishes without waiting */
        for (uint32_t i = 0; i < th->ncur; i++)
            th->published_payloads += d->ad.recs[th->cur[i]].bin_size > 0;
        if (d->host)
            d->host->publish(d->host->ctx, ti, th->cur, th->ncur, t);
        else
            for (uint32_t i = 0; i < th->ncur; i++)
                dump_host_persisted(d, th->cur[i]);
        th->ncur = 0;
    }
}
