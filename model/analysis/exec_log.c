/* exec_log.c - the log of a run's executions and edges for the analyses after it. */
#include "exec_log.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../base/vec.h"

/* The last stamp given: every init and change takes the next, so a stamp names one state of one log. */
static _Atomic uint64_t last_stamp;

static void restamp(exec_log *l)
{
    l->stamp = atomic_fetch_add(&last_stamp, 1) + 1;
}

void exec_log_init(exec_log *l, size_t limit)
{
    memset(l, 0, sizeof(*l));
    l->limit = limit;
    restamp(l);
}

void exec_log_free(exec_log *l)
{
    free(l->x);
    free(l->e);
    l->x = NULL;
    l->e = NULL;
    l->nx = l->xcap = l->ne = l->ecap = l->ntasks = 0;
    restamp(l);
}

/* Gives up on a log that grew past its limit. */
static void drop(exec_log *l)
{
    exec_log_free(l);
    l->dropped = true;
}

int exec_log_add(exec_log *l, const exec_record *x)
{
    if (l->dropped)
        return 0;
    if (l->limit && l->nx >= l->limit) {
        drop(l);
        return 0;
    }
    if (vec_grow((void **)&l->x, &l->xcap, l->nx, sizeof(*l->x)) != 0)
        return -1;
    l->x[l->nx++] = *x;
    restamp(l);
    return 0;
}

int exec_log_task(exec_log *l, uint64_t succ, const uint64_t *preds, size_t n)
{
    if (l->dropped)
        return 0;
    if (l->limit && l->ntasks >= l->limit) {
        drop(l);
        return 0;
    }
    l->ntasks++;
    restamp(l);
    for (size_t i = 0; i < n; i++) {
        if (vec_grow((void **)&l->e, &l->ecap, l->ne, sizeof(*l->e)) != 0)
            return -1;
        l->e[l->ne++] = (exec_edge){.pred = preds[i], .succ = succ};
    }
    return 0;
}
