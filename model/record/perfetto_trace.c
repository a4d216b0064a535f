/* perfetto_trace.c - pf_: ptosim's Chrome/Perfetto trace collected during a run (model/README.md §16.8). */
/* Bounded records of executions, phases, calls and counters; perfetto_writer.c writes them out. */
#include "perfetto_trace.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../chip/hbm.h"
#include "../runtime/task_slots.h"
#include "../base/vec.h"

int pf_init(pf_trace *p, size_t limit)
{
    memset(p, 0, sizeof(*p));
    p->limit = limit ? limit : PF_MAX_RECORDS;
    p->horizon = PS_NEVER;
    strtab_init(&p->sites);
    return 0;
}

void pf_free(pf_trace *p)
{
    free(p->ex);
    free(p->ph);
    free(p->calls);
    free(p->edges);
    for (int r = 0; r < PF_RINGS; r++)
        free(p->site_of[r]);
    for (int i = 0; i < PF_CTR_COUNT; i++)
        free(p->ctr[i].v);
    strtab_free(&p->sites);
    memset(p, 0, sizeof(*p));
}

/* Should n records starting at t be kept? The first record past the limit
 * sets the horizon at its own time; after that, records starting later are
 * dropped and earlier ones (made out of time order) kept up to twice the
 * limit, so memory and the file stay bounded whatever the run's length. */
static bool admit(pf_trace *p, ps_t t, size_t n)
{
    if (t > p->horizon) {
        p->dropped += n;
        return false;
    }
    if (p->horizon == PS_NEVER && p->records + n > p->limit)
        p->horizon = t;
    if (p->records + n > 2 * p->limit) {
        p->incomplete = true;
        p->dropped += n;
        return false;
    }
    p->records += n;
    return true;
}

int pf_exec_add(pf_trace *p, const pf_exec *e)
{
    if (!admit(p, e->start, 1))
        return 0;
    if (vec_grow((void **)&p->ex, &p->excap, p->nex, sizeof(*p->ex)) != 0)
        return -1;
    p->ex[p->nex++] = *e;
    return 0;
}

int pf_phase_add(pf_trace *p, int thread, int kind, ps_t start, ps_t end, uint32_t tasks, uint64_t task_id)
{
    if (!admit(p, start, 1))
        return 0;
    if (vec_grow((void **)&p->ph, &p->phcap, p->nph, sizeof(*p->ph)) != 0)
        return -1;
    p->ph[p->nph++] = (pf_phase){.start = start,
                                 .end = end,
                                 .task_id = task_id,
                                 .tasks = tasks,
                                 .kind = (uint8_t)kind,
                                 .thread = (uint8_t)thread};
    return 0;
}

int pf_call_add(pf_trace *p, pf_call_kind kind, ps_t start, ps_t end, uint64_t task_id, int res, int ring)
{
    if (!admit(p, start, 1))
        return 0;
    if (vec_grow((void **)&p->calls, &p->callcap, p->ncalls, sizeof(*p->calls)) != 0)
        return -1;
    p->calls[p->ncalls++] = (pf_call){.start = start,
                                      .end = end,
                                      .task_id = task_id,
                                      .kind = (uint8_t)kind,
                                      .res = (uint8_t)res,
                                      .ring = (uint8_t)ring};
    return 0;
}

int pf_publish(pf_trace *p, task *tk, const char *site, ps_t call_start, ps_t t)
{
    pf_call_kind kind = tk->shape == SHAPE_ALLOC ? PF_CALL_ALLOC
                        : tk->mask == 0          ? PF_CALL_DUMMY
                                                 : PF_CALL_SUBMIT;
    int ring = task_id_ring(tk->id);
    if (pf_call_add(p, kind, call_start, t, tk->id, 0, ring) != 0)
        return -1;
    if (t > p->horizon)
        return 0;
    /* the scope site, found again by the task's local id when the trace is written */
    int slot = strtab_intern(&p->sites, site);
    uint32_t local = task_id_local(tk->id);
    if (slot < 0 || vec_reserve_zeroed((void **)&p->site_of[ring], &p->site_cap[ring], (size_t)local + 1,
                                       sizeof(*p->site_of[ring])) != 0)
        return -1;
    p->site_of[ring][local] = slot + 1;
    for (uint32_t i = 0; i < tk->nlinks; i++) {
        if (!admit(p, t, 2))
            break;
        if (vec_grow((void **)&p->edges, &p->edgecap, p->nedges, sizeof(*p->edges)) != 0)
            return -1;
        p->edges[p->nedges++] = (pf_edge){.pred = task_link_at(tk, i)->producer, .succ = tk->id};
    }
    return 0;
}

int pf_counter_add(pf_trace *p, int id, ps_t t, int64_t d)
{
    pf_counter *k = &p->ctr[id];
    k->last += d;
    if (!d || !admit(p, t, 1))
        return 0;
    if (vec_grow((void **)&k->v, &k->cap, k->n, sizeof(*k->v)) != 0)
        return -1;
    k->v[k->n++] = (pf_step){.t = t, .d = d};
    return 0;
}

int pf_counter_set(pf_trace *p, int id, ps_t t, int64_t v)
{
    return pf_counter_add(p, id, t, v - p->ctr[id].last);
}

int pf_hbm(pf_trace *p, ps_t t, const hbm *h)
{
    double used = hbm_used(h); /* bytes per ps */
    return pf_counter_set(p, PF_CTR_HBM, t, (int64_t)llround(used * (double)PS_PER_S));
}

/* ---- writing ---- */
