/* readahead.c - parses a graph file on a second thread, ahead of the simulation that consumes it. */
#include "readahead.h"

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parsing costs about as much as simulating a task, so on a machine with a
 * second core the two overlap. Operations travel in a few large batches, not
 * one by one, to keep the threads from meeting on the lock per operation. */
#define RA_BATCHES 4
#define RA_BATCH_BYTES (256 * 1024) /* a batch is handed over once this full */

typedef enum { BATCH_FREE, BATCH_FULL } batch_state;

/* A run of encoded operations, then how the file went on after them. */
typedef struct ra_batch {
    batch_state state;
    unsigned char *buf; /* records, each 8-byte aligned */
    size_t used, cap;
    int end; /* 0: more batches follow; 1: end of file; -1: error */
    char err[GRAPH_ERR_MAX];
} ra_batch;

struct readahead {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t changed; /* a batch changed state, or stop/discard was set */
    ra_batch batches[RA_BATCHES];
    bool stop;    /* consumer gone and wants no verdict: quit */
    bool discard; /* consumer gone but wants the verdict: parse, hand nothing over */
    int verdict;  /* reader's result once done: 0 or -1 */
    char verdict_err[GRAPH_ERR_MAX];
    graph g;         /* the reader's own copy of the file */
    graph_op *op;    /* the reader's parse buffer */
    int fill;        /* batch the reader is filling */
    int take;        /* batch the consumer is reading */
    size_t take_pos; /* next record in it */
    bool holding;    /* the consumer holds batches[take] */
};

/* Fixed part of a record: the op up to its cost, then the counts. The scope
 * site travels only with a scope_begin (two thirds of a generated graph's
 * lines are scope ops, and the site is a fifth of the prefix). */
#define HEAD_BYTES offsetof(graph_op, site)                               /* kind, line, byte_end, manual */
#define SITE_BYTES (offsetof(graph_op, label) - offsetof(graph_op, site)) /* scope_begin only */
#define TASK_BYTES (offsetof(graph_op, cost) - offsetof(graph_op, label)) /* label .. has_cost */

static size_t align8(size_t n)
{
    return (n + 7) & ~(size_t)7;
}

static size_t prefix_bytes(const graph_op *op)
{
    return align8(HEAD_BYTES) + (op->kind == OP_SCOPE_BEGIN ? align8(SITE_BYTES) : 0) + align8(TASK_BYTES);
}

typedef struct ra_counts {
    int32_t nargs, nscalars, ndeps;
    uint32_t ndata; /* data values after the deps, over all args */
    uint64_t user_ns;
    int32_t record_bytes;
} ra_counts;

static size_t record_size(const graph_op *op, uint32_t *ndata)
{
    uint32_t nd = 0;
    for (int i = 0; i < op->nargs; i++)
        nd += op->args[i].ndata;
    *ndata = nd;
    return prefix_bytes(op) + (op->has_cost ? align8(sizeof(graph_cost)) : 0) + sizeof(ra_counts) +
           (size_t)op->nargs * sizeof(graph_arg) + (size_t)op->nscalars * sizeof(graph_scalar) +
           (size_t)op->ndeps * sizeof(graph_dep) + (size_t)nd * sizeof(double);
}

/* Appends op to b; -1 when out of memory. */
static int encode(ra_batch *b, const graph_op *op)
{
    uint32_t ndata;
    size_t n = align8(record_size(op, &ndata));
    if (b->used + n > b->cap) {
        size_t cap = b->cap ? b->cap : RA_BATCH_BYTES;
        while (b->used + n > cap)
            cap *= 2;
        unsigned char *p = realloc(b->buf, cap);
        if (!p)
            return -1;
        b->buf = p;
        b->cap = cap;
    }
    unsigned char *p = b->buf + b->used;
    memcpy(p, op, HEAD_BYTES);
    p += align8(HEAD_BYTES);
    if (op->kind == OP_SCOPE_BEGIN) {
        memcpy(p, op->site, SITE_BYTES);
        p += align8(SITE_BYTES);
    }
    memcpy(p, &op->label, TASK_BYTES);
    p += align8(TASK_BYTES);
    if (op->has_cost) {
        memcpy(p, &op->cost, sizeof(graph_cost));
        p += align8(sizeof(graph_cost));
    }
    ra_counts k = {.nargs = op->nargs,
                   .nscalars = op->nscalars,
                   .ndeps = op->ndeps,
                   .ndata = ndata,
                   .user_ns = op->user_ns,
                   .record_bytes = (int32_t)n};
    memcpy(p, &k, sizeof(k));
    p += sizeof(k);
    memcpy(p, op->args, (size_t)op->nargs * sizeof(graph_arg));
    p += (size_t)op->nargs * sizeof(graph_arg);
    memcpy(p, op->scalars, (size_t)op->nscalars * sizeof(graph_scalar));
    p += (size_t)op->nscalars * sizeof(graph_scalar);
    if (op->ndeps)
        memcpy(p, op->deps, (size_t)op->ndeps * sizeof(graph_dep));
    p += (size_t)op->ndeps * sizeof(graph_dep);
    for (int i = 0; i < op->nargs; i++)
        if (op->args[i].ndata) {
            memcpy(p, op->args[i].data, op->args[i].ndata * sizeof(double));
            p += op->args[i].ndata * sizeof(double);
        }
    b->used += n;
    return 0;
}

/* Reads the record at b->buf + *pos into op; pointers in op point into b. */
static void decode(const ra_batch *b, size_t *pos, graph_op *op)
{
    const unsigned char *p = b->buf + *pos;
    memcpy(op, p, HEAD_BYTES);
    p += align8(HEAD_BYTES);
    if (op->kind == OP_SCOPE_BEGIN) { /* other ops leave the site as it was: nothing reads it */
        memcpy(op->site, p, SITE_BYTES);
        p += align8(SITE_BYTES);
    }
    memcpy(&op->label, p, TASK_BYTES);
    p += align8(TASK_BYTES);
    if (op->has_cost) {
        memcpy(&op->cost, p, sizeof(graph_cost));
        p += align8(sizeof(graph_cost));
    }
    ra_counts k;
    memcpy(&k, p, sizeof(k));
    p += sizeof(k);
    op->nargs = k.nargs;
    op->nscalars = k.nscalars;
    op->ndeps = k.ndeps;
    op->user_ns = k.user_ns;
    memcpy(op->args, p, (size_t)k.nargs * sizeof(graph_arg));
    p += (size_t)k.nargs * sizeof(graph_arg);
    memcpy(op->scalars, p, (size_t)k.nscalars * sizeof(graph_scalar));
    p += (size_t)k.nscalars * sizeof(graph_scalar);
    op->deps = k.ndeps ? (graph_dep *)p : NULL; /* records are 8-byte aligned */
    p += (size_t)k.ndeps * sizeof(graph_dep);
    for (int i = 0; i < op->nargs; i++) {
        op->args[i].data = op->args[i].ndata ? (const double *)p : NULL;
        p += op->args[i].ndata * sizeof(double);
    }
    *pos += (size_t)k.record_bytes;
}

/* Hands the batch being filled over (or recycles it when nobody reads) and
 * waits for the next one to be free. Returns false when told to stop. */
static bool publish(readahead *ra, int end, const char *err)
{
    pthread_mutex_lock(&ra->lock);
    ra_batch *b = &ra->batches[ra->fill];
    b->end = end;
    if (end < 0)
        memcpy(b->err, err, sizeof(b->err));
    if (ra->discard || ra->stop) {
        b->used = 0;
        bool go = !ra->stop;
        pthread_mutex_unlock(&ra->lock);
        return go;
    }
    b->state = BATCH_FULL;
    pthread_cond_broadcast(&ra->changed);
    if (end == 0) {
        ra->fill = (ra->fill + 1) % RA_BATCHES;
        while (ra->batches[ra->fill].state != BATCH_FREE && !ra->stop && !ra->discard)
            pthread_cond_wait(&ra->changed, &ra->lock);
        ra->batches[ra->fill].used = 0;
    }
    bool go = !ra->stop;
    pthread_mutex_unlock(&ra->lock);
    return go;
}

static void *reader_main(void *arg)
{
    readahead *ra = arg;
    char err[GRAPH_ERR_MAX] = "";
    int rc;
    /* stop and discard are looked at once per batch, in publish */
    while ((rc = graph_next(&ra->g, ra->op, err, sizeof(err))) > 0) {
        ra_batch *b = &ra->batches[ra->fill];
        if (encode(b, ra->op) != 0) {
            rc = -1;
            snprintf(err, sizeof(err), "%s: out of memory while reading ahead", ra->g.path);
            break;
        }
        if (b->used >= RA_BATCH_BYTES && !publish(ra, 0, NULL))
            return NULL;
    }
    ra->verdict = rc < 0 ? -1 : 0;
    memcpy(ra->verdict_err, err, sizeof(err));
    publish(ra, rc < 0 ? -1 : 1, err);
    return NULL;
}

readahead *readahead_start(graph *g)
{
    if (!g->f)
        return NULL; /* nothing left to read here */
    readahead *ra = calloc(1, sizeof(*ra));
    if (!ra)
        return NULL;
    ra->op = malloc(sizeof(*ra->op));
    /* the reader takes the open file over, with a copy of the header: its
     * slots and labels number the same way as the consumer's, and the file
     * is opened once (a FIFO has no second reading) */
    if (!ra->op || graph_handover(g, &ra->g) != 0) {
        free(ra->op);
        free(ra);
        return NULL;
    }
    pthread_mutex_init(&ra->lock, NULL);
    pthread_cond_init(&ra->changed, NULL);
    /* the thread starts with every signal blocked, so SIGINT and SIGTERM always
     * reach the simulating thread, whatever handler is installed meanwhile */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    int started = pthread_create(&ra->thread, NULL, reader_main, ra);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (started != 0) {
        pthread_cond_destroy(&ra->changed);
        pthread_mutex_destroy(&ra->lock);
        graph_handback(g, &ra->g);
        free(ra->op);
        free(ra);
        return NULL;
    }
    return ra;
}

int readahead_next(readahead *ra, graph *g, graph_op *op, char *err, size_t errlen)
{
    for (;;) {
        if (ra->holding) {
            ra_batch *b = &ra->batches[ra->take];
            if (ra->take_pos < b->used) {
                decode(b, &ra->take_pos, op);
                g->line = op->line;
                g->nops++;
                return 1;
            }
            if (b->end != 0) {
                if (b->end < 0)
                    snprintf(err, errlen, "%s", b->err);
                return b->end < 0 ? -1 : 0;
            }
            /* the previous op's pointers die here, as graph_next's do */
            pthread_mutex_lock(&ra->lock);
            b->state = BATCH_FREE;
            pthread_cond_broadcast(&ra->changed);
            pthread_mutex_unlock(&ra->lock);
            ra->holding = false;
            ra->take = (ra->take + 1) % RA_BATCHES;
        }
        pthread_mutex_lock(&ra->lock);
        while (ra->batches[ra->take].state != BATCH_FULL)
            pthread_cond_wait(&ra->changed, &ra->lock);
        pthread_mutex_unlock(&ra->lock);
        ra->holding = true;
        ra->take_pos = 0;
    }
}

/* Tells the reader what to do next, waits for it and frees everything. */
static int join_and_free(readahead *ra, bool want_verdict, char *err, size_t errlen)
{
    pthread_mutex_lock(&ra->lock);
    if (want_verdict)
        ra->discard = true;
    else
        ra->stop = true;
    pthread_cond_broadcast(&ra->changed);
    pthread_mutex_unlock(&ra->lock);
    pthread_join(ra->thread, NULL);
    int rc = want_verdict ? ra->verdict : 0;
    if (rc != 0)
        snprintf(err, errlen, "%s", ra->verdict_err);
    pthread_cond_destroy(&ra->changed);
    pthread_mutex_destroy(&ra->lock);
    for (int i = 0; i < RA_BATCHES; i++)
        free(ra->batches[i].buf);
    graph_close(&ra->g);
    free(ra->op);
    free(ra);
    return rc;
}

int readahead_finish(readahead *ra, char *err, size_t errlen)
{
    return join_and_free(ra, true, err, errlen);
}

void readahead_cancel(readahead *ra)
{
    join_and_free(ra, false, NULL, 0);
}
