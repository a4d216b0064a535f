/* critical_path.c - cpath_: the runtime's critical_path tool: static CPM and the observed path. */
#include "critical_path.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec_log.h"
#include "exec_index.h"

/* The definitions are those of hw-native-sys/simpler simpler_setup/tools/critical_path.py (6ebaf77), so that
 * the figures equal what the tool prints for the same files (tests/real/critical_path_oracle.txt). Where the
 * tool breaks a tie by the order of a dict or a sort, so does this: tasks in the order of their first
 * execution, edges in the log's order, a core's executions by (start, end, the task id as a string). */

const char *cpath_kind_name(cpath_kind k)
{
    static const char *const names[CPATH_KINDS] = {"data-wait", "core-wait", "front-gap"};
    return k < CPATH_KINDS ? names[k] : "?";
}

/* v's decimal digits, ended by a NUL, in buf; returns the first. */
static const char *dec_text(char buf[24], uint64_t v)
{
    char *p = buf + 23;
    *p = '\0';
    do
        *--p = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    return p;
}

/* Compares two task ids as the decimal strings the tool compares (no printf: sorts call it). */
static int cmp_dec(uint64_t a, uint64_t b)
{
    char x[24], y[24];
    return strcmp(dec_text(x, a), dec_text(y, b));
}

static const exec_record *sort_x;

/* A core's executions by (start, end, task as a string); the core first. */
static int cmp_slice(const void *a, const void *b)
{
    const exec_record *x = &sort_x[*(const size_t *)a], *y = &sort_x[*(const size_t *)b];
    if (x->core != y->core)
        return x->core < y->core ? -1 : 1;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    if (x->end != y->end)
        return x->end < y->end ? -1 : 1;
    return cmp_dec(x->task, y->task);
}

typedef struct {
    size_t p, s;
} pedge;

/* Everything the computation allocates, freed together. */
typedef struct {
    idmap map; /* task id -> index, in order of first execution */
    uint64_t *id;
    int64_t *start, *end, *finish, *cp_end;
    long *cp_task, *choice;
    size_t *xt, *at_rank, *slices, *pred_off, *preds, *succ_off, *succs, *indeg, *order, *first_rank,
        *by_rank, *fill;
    pedge *pe;
    unsigned char *dup, *seen;
} scratch;

static void scratch_free(scratch *w)
{
    idmap_free(&w->map);
    free(w->xt);
    free(w->at_rank);
    free(w->id);
    free(w->start);
    free(w->end);
    free(w->finish);
    free(w->cp_end);
    free(w->cp_task);
    free(w->choice);
    free(w->slices);
    free(w->pred_off);
    free(w->preds);
    free(w->succ_off);
    free(w->succs);
    free(w->indeg);
    free(w->order);
    free(w->first_rank);
    free(w->by_rank);
    free(w->fill);
    free(w->pe);
    free(w->dup);
    free(w->seen);
}

/* The observed path's predecessor of v: the candidate with the latest end, then the larger task id as a
 * string, then data-wait over core-wait (the tool's sort of (end, task, kind) tuples, the last taken). */
static bool better(int64_t end, uint64_t id, cpath_kind kind, int64_t bend, uint64_t bid, cpath_kind bkind)
{
    if (end != bend)
        return end > bend;
    int c = cmp_dec(id, bid);
    if (c != 0)
        return c > 0;
    return kind == CPATH_DATA_WAIT && bkind == CPATH_CORE_WAIT;
}

int cpath_compute(const exec_log *l, cpath_result *r)
{
    return cpath_compute_visit(l, r, NULL, NULL);
}

int cpath_compute_visit(const exec_log *l, cpath_result *r, cpath_visit visit, void *ctx)
{
    memset(r, 0, sizeof(*r));
    if (l->dropped || !l->nx)
        return 0;
    size_t nx = l->nx, ne = l->ne;
    scratch w = {0};
    /* tasks numbered in the order of their first execution; xt[i]: execution i's task */
    if (idmap_init(&w.map, nx) != 0)
        goto oom;
    w.xt = malloc(nx * sizeof(*w.xt));
    w.id = malloc(nx * sizeof(*w.id));
    if (!w.xt || !w.id)
        goto oom;
    size_t nt = 0;
    for (size_t i = 0; i < nx; i++) {
        size_t t = idmap_put(&w.map, l->x[i].task, nt);
        if (t == nt)
            w.id[nt++] = l->x[i].task;
        w.xt[i] = t;
    }
    w.start = malloc(nt * sizeof(*w.start));
    w.end = malloc(nt * sizeof(*w.end));
    if (!w.start || !w.end)
        goto oom;
    for (size_t i = 0; i < nt; i++) {
        w.start[i] = INT64_MAX;
        w.end[i] = INT64_MIN;
    }
    int64_t t0 = INT64_MAX, t1 = INT64_MIN;
    for (size_t i = 0; i < nx; i++) {
        size_t t = w.xt[i];
        if (l->x[i].start < w.start[t])
            w.start[t] = l->x[i].start;
        if (l->x[i].end > w.end[t])
            w.end[t] = l->x[i].end;
    }
    for (size_t t = 0; t < nt; t++) {
        t0 = w.start[t] < t0 ? w.start[t] : t0;
        t1 = w.end[t] > t1 ? w.end[t] : t1;
    }
    /* the happens-before edges: each (pred, succ) once, in the log's order */
    w.pe = malloc((ne ? ne : 1) * sizeof(*w.pe));
    w.dup = calloc(ne ? ne : 1, 1);
    if (!w.pe || !w.dup)
        goto oom;
    size_t npe = 0;
    for (size_t i = 0; i < ne; i++) {
        size_t p = idmap_get(&w.map, l->e[i].pred), s = idmap_get(&w.map, l->e[i].succ);
        if (p == SIZE_MAX || s == SIZE_MAX || p == s)
            continue;
        w.pe[npe] = (pedge){p, s};
        npe++;
    }
    /* a repeat of an earlier (pred, succ) is a duplicate: the edges grouped by succ (a counting sort, so
     * each group in the log's order), and in each group a pred marked with the succ when first seen */
    {
        size_t *off = calloc(nt + 1, sizeof(*off)), *by_s = malloc((npe ? npe : 1) * sizeof(*by_s));
        size_t *mark = malloc((nt ? nt : 1) * sizeof(*mark));
        if (!off || !by_s || !mark) {
            free(off);
            free(by_s);
            free(mark);
            goto oom;
        }
        for (size_t i = 0; i < npe; i++)
            off[w.pe[i].s + 1]++;
        for (size_t t = 0; t < nt; t++)
            off[t + 1] += off[t];
        for (size_t i = 0; i < npe; i++)
            by_s[off[w.pe[i].s]++] = i; /* off[s] ends as the start of group s + 1 */
        memset(mark, 0xff, nt * sizeof(*mark));
        for (size_t k = 0; k < npe; k++) {
            const pedge *e = &w.pe[by_s[k]];
            if (mark[e->p] == e->s)
                w.dup[by_s[k]] = 1;
            mark[e->p] = e->s;
        }
        free(off);
        free(by_s);
        free(mark);
    }
    w.pred_off = calloc(nt + 1, sizeof(*w.pred_off));
    w.first_rank = malloc(nt * sizeof(*w.first_rank));
    if (!w.pred_off || !w.first_rank)
        goto oom;
    for (size_t t = 0; t < nt; t++)
        w.first_rank[t] = SIZE_MAX;
    size_t kept = 0;
    for (size_t i = 0; i < npe; i++) {
        const pedge *e = &w.pe[i];
        bool hb =
            !w.dup[i] && w.end[e->p] <= w.start[e->s] + CPATH_TOL_TICKS && w.start[e->p] < w.start[e->s];
        w.dup[i] = !hb; /* from here on: not a happens-before edge */
        if (hb) {
            w.pred_off[e->s + 1]++;
            if (w.first_rank[e->s] == SIZE_MAX)
                w.first_rank[e->s] = kept;
            kept++;
        }
    }
    for (size_t t = 0; t < nt; t++)
        w.pred_off[t + 1] += w.pred_off[t];
    w.preds = malloc((kept ? kept : 1) * sizeof(*w.preds));
    w.fill = calloc(nt ? nt : 1, sizeof(*w.fill));
    if (!w.preds || !w.fill)
        goto oom;
    for (size_t i = 0; i < npe; i++)
        if (!w.dup[i]) {
            size_t s = w.pe[i].s;
            w.preds[w.pred_off[s] + w.fill[s]++] = w.pe[i].p;
        }
    /* each task's core predecessor: what last freed the core it first ran on */
    w.slices = malloc(nx * sizeof(*w.slices));
    w.cp_task = malloc(nt * sizeof(*w.cp_task));
    w.cp_end = malloc(nt * sizeof(*w.cp_end));
    if (!w.slices || !w.cp_task || !w.cp_end)
        goto oom;
    for (size_t i = 0; i < nx; i++)
        w.slices[i] = i;
    sort_x = l->x;
    xsort_by_core(w.slices, nx, l->x, cmp_slice);
    for (size_t t = 0; t < nt; t++)
        w.cp_task[t] = -1;
    for (size_t i = 0; i < nx;) {
        int32_t core = l->x[w.slices[i]].core;
        long best_task = -1;
        int64_t best_end = 0;
        for (; i < nx && l->x[w.slices[i]].core == core; i++) {
            const exec_record *x = &l->x[w.slices[i]];
            long t = (long)w.xt[w.slices[i]];
            if (best_task >= 0 && best_task != t && best_end <= x->start + CPATH_TOL_TICKS &&
                x->start == w.start[t] && (w.cp_task[t] < 0 || best_end > w.cp_end[t])) {
                w.cp_task[t] = best_task;
                w.cp_end[t] = best_end;
            }
            if (best_task < 0 || x->end > best_end) {
                best_end = x->end;
                best_task = t;
            }
        }
    }
    /* topological order (Kahn), successors listed as the tool builds them */
    w.indeg = calloc(nt, sizeof(*w.indeg));
    w.succ_off = calloc(nt + 1, sizeof(*w.succ_off));
    w.by_rank = malloc(nt * sizeof(*w.by_rank));
    w.succs = malloc((kept ? kept : 1) * sizeof(*w.succs));
    w.order = malloc(nt * sizeof(*w.order));
    if (!w.indeg || !w.succ_off || !w.by_rank || !w.succs || !w.order)
        goto oom;
    size_t nranked = 0;
    for (size_t t = 0; t < nt; t++) {
        w.indeg[t] = w.pred_off[t + 1] - w.pred_off[t];
        if (w.first_rank[t] != SIZE_MAX)
            w.by_rank[nranked++] = t;
        for (size_t k = w.pred_off[t]; k < w.pred_off[t + 1]; k++)
            w.succ_off[w.preds[k] + 1]++;
    }
    /* by first_rank: the ranks are distinct and below kept, so each task is placed at its rank, then the
     * places are read in order */
    w.at_rank = malloc((kept ? kept : 1) * sizeof(*w.at_rank));
    if (!w.at_rank)
        goto oom;
    memset(w.at_rank, 0xff, kept * sizeof(*w.at_rank));
    for (size_t t = 0; t < nt; t++)
        if (w.first_rank[t] != SIZE_MAX)
            w.at_rank[w.first_rank[t]] = t;
    nranked = 0;
    for (size_t k = 0; k < kept; k++)
        if (w.at_rank[k] != SIZE_MAX)
            w.by_rank[nranked++] = w.at_rank[k];
    for (size_t t = 0; t < nt; t++)
        w.succ_off[t + 1] += w.succ_off[t];
    memset(w.fill, 0, nt * sizeof(*w.fill));
    for (size_t i = 0; i < nranked; i++) {
        size_t s = w.by_rank[i];
        for (size_t k = w.pred_off[s]; k < w.pred_off[s + 1]; k++) {
            size_t p = w.preds[k];
            w.succs[w.succ_off[p] + w.fill[p]++] = s;
        }
    }
    size_t head = 0, tail = 0;
    for (size_t t = 0; t < nt; t++)
        if (!w.indeg[t])
            w.order[tail++] = t;
    while (head < tail) {
        size_t u = w.order[head++];
        for (size_t k = w.succ_off[u]; k < w.succ_off[u + 1]; k++)
            if (--w.indeg[w.succs[k]] == 0)
                w.order[tail++] = w.succs[k];
    }
    if (tail != nt) { /* cannot happen: every kept edge runs forward in time */
        scratch_free(&w);
        return 0;
    }
    /* static CPM */
    w.finish = malloc(nt * sizeof(*w.finish));
    w.choice = malloc(nt * sizeof(*w.choice));
    if (!w.finish || !w.choice)
        goto oom;
    long sink = -1;
    for (size_t i = 0; i < nt; i++) {
        size_t v = w.order[i];
        long best_p = -1;
        int64_t best_f = 0;
        for (size_t k = w.pred_off[v]; k < w.pred_off[v + 1]; k++)
            if (w.finish[w.preds[k]] > best_f) {
                best_f = w.finish[w.preds[k]];
                best_p = (long)w.preds[k];
            }
        w.finish[v] = best_f + (w.end[v] - w.start[v]);
        w.choice[v] = best_p;
        if (sink < 0 || w.finish[v] > w.finish[sink])
            sink = (long)v;
    }
    r->cpm = w.finish[sink];
    for (long v = sink; v >= 0; v = w.choice[v])
        r->cpm_tasks++;
    /* the observed path, walked back from the first task to end last */
    long v = 0;
    for (size_t t = 1; t < nt; t++)
        if (w.end[t] > w.end[v])
            v = (long)t;
    w.seen = calloc(nt, 1);
    size_t *walk = malloc(nt * sizeof(*walk));
    cpath_kind *kinds = malloc(nt * sizeof(*kinds));
    if (!w.seen || !walk || !kinds) {
        free(walk);
        free(kinds);
        goto oom;
    }
    size_t nw = 0;
    while (v >= 0 && !w.seen[v]) {
        w.seen[v] = 1;
        long bp = -1;
        int64_t bend = 0;
        cpath_kind bkind = CPATH_FRONT_GAP;
        for (size_t k = w.pred_off[v]; k < w.pred_off[v + 1]; k++) {
            size_t p = w.preds[k];
            if (w.end[p] <= w.start[v] + CPATH_TOL_TICKS && w.start[p] < w.start[v] &&
                (bp < 0 || better(w.end[p], w.id[p], CPATH_DATA_WAIT, bend, w.id[bp], bkind))) {
                bp = (long)p;
                bend = w.end[p];
                bkind = CPATH_DATA_WAIT;
            }
        }
        long c = w.cp_task[v];
        if (c >= 0 && w.cp_end[v] <= w.start[v] + CPATH_TOL_TICKS && w.start[c] < w.start[v] &&
            (bp < 0 || better(w.cp_end[v], w.id[c], CPATH_CORE_WAIT, bend, w.id[bp], bkind))) {
            bp = c;
            bend = w.cp_end[v];
            bkind = CPATH_CORE_WAIT;
        }
        walk[nw] = (size_t)v;
        kinds[nw++] = bp < 0 ? CPATH_FRONT_GAP : bkind;
        v = bp;
    }
    /* its compute and stall tile [t0, the last end] */
    int64_t frontier = t0;
    for (size_t i = nw; i-- > 0;) {
        int64_t s = w.start[walk[i]], e = w.end[walk[i]], from = s > frontier ? s : frontier;
        int64_t gap = s - frontier > 0 ? s - frontier : 0, eff = e - from > 0 ? e - from : 0;
        r->kind[kinds[i]] += gap;
        r->stall += gap;
        r->compute += eff;
        frontier = e > frontier ? e : frontier;
        if (visit)
            visit(ctx, w.id[walk[i]], eff);
    }
    free(walk);
    free(kinds);
    r->computed = true;
    r->tasks = nt;
    r->hb_edges = kept;
    r->makespan = t1 - t0;
    r->observed_tasks = nw;
    scratch_free(&w);
    return 0;
oom:
    scratch_free(&w);
    return -1;
}
