/* graph_readahead.c - readahead_: parses a graph file on a second thread, ahead of the simulation. */
#include "graph_readahead.h"

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op_record.h"

/* Parsing costs about as much as simulating a task, so on a machine with a
 * second core the two overlap. Operations travel in a few large batches, not
 * one by one, to keep the threads from meeting on the lock per operation. */
#define RA_BATCHES 4
#define RA_BATCH_BYTES (256 * 1024) /* a batch is handed over once this full */

typedef enum { BATCH_FREE, BATCH_FULL } batch_state;

/* A run of encoded operations, then how the file went on after them. */
typedef struct ra_batch {
    batch_state state;
    oprec_buf rec; /* the operations as records (op_record.h) */
    int end;       /* 0: more batches follow; 1: end of file; -1: error */
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
        b->rec.used = 0;
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
        ra->batches[ra->fill].rec.used = 0;
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
        if (oprec_append(&b->rec, ra->op, RA_BATCH_BYTES) != 0) {
            rc = -1;
            snprintf(err, sizeof(err), "%s: reading ahead: out of memory", ra->g.path);
            break;
        }
        if (b->rec.used >= RA_BATCH_BYTES && !publish(ra, 0, NULL))
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
            if (ra->take_pos < b->rec.used) {
                oprec_read(b->rec.buf, &ra->take_pos, op);
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
        free(ra->batches[i].rec.buf);
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
