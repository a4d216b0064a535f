/* collector.c - the args-dump host collector as SimGrid actors (model/README.md §14). */
#include "collector.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../cli/stop_signal.h"
#include "simgrid_calls.h"

/* One published metadata buffer. */
typedef struct pub_buf {
    int ti;         /* AICPU thread */
    uint32_t *recs; /* record indices */
    uint32_t n;
    ps_t t; /* when it was published */
} pub_buf;

typedef struct collector {
    chip *c;
    FILE *log;
    dump_host iface;
    /* actors run one at a time and switch only in SimGrid calls, so the
     * queues need no lock; semaphores only count work and progress */
    sg_sem_t bufs_ready; /* published buffers for the drain */
    sg_sem_t recs_ready; /* collected records for the copy */
    sg_sem_t progress;   /* the engine waits on host progress */
    pub_buf *bufs;       /* published, not yet drained, in publish order */
    size_t nbufs, bufs_head, bufs_cap;
    uint32_t *wq; /* records collected, waiting for the payload copy and the writer */
    size_t wq_head, wq_len, wq_cap;
    sg_mailbox_t mb;
    bool device_done;     /* nothing more will be published */
    uint64_t draining;    /* records the drain took from a buffer and has not queued yet (it may be asleep
                           * until its poll, or stuck there in a SimGrid call that failed) */
    uint64_t in_flight;   /* records between the copy and the writer */
    uint64_t collected;   /* records collected */
    uint64_t written;     /* records the writer finished */
    uint64_t bytes;       /* payload bytes written */
    double last_progress; /* time of the last "Collecting" line */
    int reconciled;
    bool ending;          /* collector_finish is done: the daemons are about to be ended with the engine */
    const char *dead;     /* the actor that ended before the collector did (SimGrid out of memory), or NULL */
    aid_t pids[3];        /* the drain, copy and writer actors */
    const char *names[3]; /* and their names */
    sg_host_t hosts[3];   /* and the hosts they run on */
    int nactors;          /* actors started */
} collector;

static collector the; /* one run per process */

static double sec(ps_t t)
{
    return (double)t / PS_PER_S;
}

static ps_t ps(double s)
{
    return (ps_t)llround(s * PS_PER_S);
}

static void publish(void *ctx, int ti, const uint32_t *recs, uint32_t n, ps_t t)
{
    collector *h = ctx;
    if (h->nbufs == h->bufs_cap) {
        size_t ncap = h->bufs_cap ? h->bufs_cap * 2 : 64;
        pub_buf *nb = realloc(h->bufs, ncap * sizeof(*nb));
        if (!nb) {
            chip_error(h->c, "out of memory in the args dump collector");
            return;
        }
        h->bufs = nb;
        h->bufs_cap = ncap;
    }
    /* the Perfetto trace's backlog: published on the device at t, written by the host later */
    if (h->c->pf && pf_counter_add(h->c->pf, PF_CTR_BACKLOG, t, n) != 0)
        chip_error(h->c, "out of memory for the Perfetto trace");
    uint32_t *copy = malloc((n ? n : 1) * sizeof(*copy));
    if (!copy) { /* not published: the run ends with this error */
        chip_error(h->c, "out of memory in the args dump collector");
        return;
    }
    memcpy(copy, recs, n * sizeof(*recs));
    pub_buf *b = &h->bufs[h->nbufs++];
    b->ti = ti;
    b->n = n;
    b->t = t;
    b->recs = copy;
    sg_sem_release(h->bufs_ready);
}

static ps_t wait_gate(void *ctx, int ti, dump_gate gate, ps_t t, ps_t limit)
{
    collector *h = ctx;
    if (sec(t) > simgrid_get_clock())
        sg_actor_sleep_until(sec(t));
    while (!dump_gate_open(&h->c->dump, ti, gate)) {
        double now = simgrid_get_clock();
        if (now >= sec(limit))
            break;
        sg_sem_acquire_timeout(h->progress, sec(limit) - now);
    }
    ps_t now = ps(simgrid_get_clock());
    return now > limit ? limit : now;
}

/* Queues record r for the copy. Returns 0, or -1 when out of memory (the run ends with that error). */
static int wq_push(collector *h, uint32_t r)
{
    if (h->wq_len == h->wq_cap) {
        size_t ncap = h->wq_cap ? h->wq_cap * 2 : 1024;
        uint32_t *nw = malloc(ncap * sizeof(*nw));
        if (!nw) {
            chip_error(h->c, "out of memory in the args dump collector");
            return -1;
        }
        for (size_t i = 0; i < h->wq_len; i++)
            nw[i] = h->wq[(h->wq_head + i) % h->wq_cap];
        free(h->wq);
        h->wq = nw;
        h->wq_cap = ncap;
        h->wq_head = 0;
    }
    h->wq[(h->wq_head + h->wq_len++) % h->wq_cap] = r;
    return 0;
}

/* Ends the run for the collector actor i, gone before the collector was done, saying why when SimGrid
 * shows it: its host turned off (a state profile in the platform's XML), else most likely an allocation of
 * SimGrid's that failed under it. */
static void actor_gone(collector *h, int i)
{
    h->dead = h->names[i];
    if (h->hosts[i] && !sg_host_is_on(h->hosts[i]))
        chip_error(h->c,
                   "the args dump collector's SimGrid actor %s ended before the collector did: its host \"%s\" "
                   "was turned off (a state profile in the platform's SimGrid XML)",
                   h->names[i], sg_host_get_name(h->hosts[i]));
    else
        chip_error(h->c,
                   "the args dump collector's SimGrid actor %s ended before the collector did (out of memory "
                   "inside SimGrid?)",
                   h->names[i]);
}

/* A collector actor's end. They are daemons, ended with the engine once collector_finish is done; an end
 * before that is SimGrid ending one (its code threw, or its host was turned off), and the records it held
 * would never be written: the run ends with an error instead of waiting for them. */
static void actor_exit(int failed, void *data)
{
    (void)failed;
    collector *h = &the;
    if (h->ending || h->dead || !h->c || h->c->stopped)
        return;
    for (int i = 0; i < h->nactors; i++)
        if (h->names[i] == data) {
            actor_gone(h, i); /* collector_finish sees it within a simulated second */
            return;
        }
}

/* Each actor's first call: its end is watched (actor_exit). */
static void watch_self(void)
{
    sg_actor_on_exit(actor_exit, sg_actor_self_get_data());
    sg_actor_daemonize(sg_actor_self());
}

/* Drain threads: poll the ready queues every host_poll_ns, collect each
 * buffer (its records go to the writer queue) and recycle it into its
 * thread's free queue. */
static void drain_actor(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    collector *h = &the;
    watch_self();
    ps_t poll = ps_from_ns((uint64_t)h->c->plat.host_poll_ns);
    for (;;) {
        sg_sem_acquire(h->bufs_ready);
        pub_buf b = h->bufs[h->bufs_head++];
        h->draining = b.n;
        ps_t tick = (b.t + poll - 1) / poll * poll; /* the first poll that sees it */
        if (sec(tick) > simgrid_get_clock())
            sg_actor_sleep_until(sec(tick));
        dump_host_collected(&h->c->dump, b.ti);
        for (uint32_t i = 0; i < b.n && wq_push(h, b.recs[i]) == 0; i++)
            sg_sem_release(h->recs_ready);
        h->draining = 0;
        h->collected += b.n;
        free(b.recs);
        double now = simgrid_get_clock();
        if (now - h->last_progress >= 5.0) {
            h->last_progress = now;
            fprintf(h->log, "ptosim: [host] Collecting: %" PRIu64 " args, %.1f GB written (%lds)\n",
                    h->collected, (double)h->bytes / 1e9, (long)now);
        }
        sg_sem_release(h->progress);
    }
}

/* Ends the run for a payload copy SimGrid failed (status e), naming what the platform turned off. */
static void transfer_lost(collector *h, sg_error_t e)
{
    const char *who = NULL;
    for (int i = 0; i < h->nactors && !who; i++)
        if (h->hosts[i] && !sg_host_is_on(h->hosts[i]))
            who = sg_host_get_name(h->hosts[i]);
    if (who)
        chip_error(h->c,
                   "the args dump collector lost a copy to the host: host \"%s\" was turned off (a state "
                   "profile in the platform's SimGrid XML)",
                   who);
    else if (e == SG_ERROR_NETWORK)
        chip_error(h->c, "the args dump collector lost a copy to the host: the link \"dfx_collector\" failed (a "
                         "state profile in the platform's SimGrid XML?)");
    else
        chip_error(h->c, "the args dump collector lost a copy to the host: SimGrid failed the transfer (error %d)",
                   (int)e);
}

/* The payload copy out of the device arena through the host mapping: one
 * record at a time over the collector link (host_collector_bw). */
static void copy_actor(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    collector *h = &the;
    watch_self();
    for (;;) {
        sg_sem_acquire(h->recs_ready);
        uint32_t r = h->wq[h->wq_head];
        h->wq_head = (h->wq_head + 1) % h->wq_cap;
        h->wq_len--;
        h->in_flight++;
        uint64_t size = h->c->dump.ad.recs[r].bin_size;
        /* put as a comm waited on, so that SimGrid failing it (its peer's host or the link turned off)
         * comes back as a status here instead of an exception no C frame can catch (an abort) */
        sg_error_t e = sg_comm_wait(sg_mailbox_put_async(h->mb, (void *)(uintptr_t)(r + 1), (long)size));
        if (e != SG_OK) {
            transfer_lost(h, e);
            return; /* the actor ends; the run already has its error */
        }
    }
}

/* The single writer: appends each payload to args.bin in collection order. */
static void writer_actor(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    collector *h = &the;
    watch_self();
    double record = (double)h->c->plat.host_record_ns * 1e-9;
    for (;;) {
        void *got = NULL;
        sg_error_t e = sg_comm_wait(sg_mailbox_get_async(h->mb, &got)); /* as the copy's put: a status */
        if (e != SG_OK) {
            transfer_lost(h, e);
            return;
        }
        uint32_t r = (uint32_t)((uintptr_t)got - 1);
        if (record > 0)
            sg_actor_sleep_for(record);
        h->bytes += h->c->dump.ad.recs[r].bin_size;
        if (dump_host_persisted(&h->c->dump, r) != 0)
            chip_error(h->c, "cannot write args.bin");
        h->written++;
        h->in_flight--;
        if (h->c->pf && pf_counter_add(h->c->pf, PF_CTR_BACKLOG, ps(simgrid_get_clock()), -1) != 0)
            chip_error(h->c, "out of memory for the Perfetto trace");
        sg_sem_release(h->progress);
    }
}

static void start(const char *name, sg_host_t host, void (*code)(int, char **))
{
    sg_actor_t a = sg_actor_init(name, host);
    sg_actor_set_data(a, (void *)name);
    sg_actor_start(a, code, 0, NULL);
    collector *h = &the;
    h->names[h->nactors] = name;
    h->hosts[h->nactors] = host;
    h->pids[h->nactors++] = sg_actor_get_pid(a);
}

/* Are all the collector's actors still there? Records the first one gone as an error of the run. */
static bool actors_alive(collector *h)
{
    for (int i = 0; i < h->nactors && !h->dead; i++)
        if (!sg_actor_by_pid(h->pids[i]))
            actor_gone(h, i);
    return !h->dead;
}


void collector_start(chip *c, FILE *log)
{
    collector *h = &the;
    memset(h, 0, sizeof(*h));
    h->c = c;
    h->log = log;
    h->bufs_ready = sg_sem_init(0);
    h->recs_ready = sg_sem_init(0);
    h->progress = sg_sem_init(0);
    h->mb = sg_mailbox_by_name("args_dump_payload");
    h->iface = (dump_host){.ctx = h, .publish = publish, .wait = wait_gate};
    c->dump.host = &h->iface;
    sg_host_t host = sg_host_by_name("host"), aicpu = sg_host_by_name("aicpu");
    start("dump-drain", host, drain_actor);
    start("dump-copy", aicpu, copy_actor);
    start("dump-writer", host, writer_actor);
}

static void note_reconcile(int ti, uint32_t count, void *ctx)
{
    collector *h = ctx;
    h->reconciled++;
    fprintf(
        h->log,
        "ptosim: [host] Dump reconcile: thread %d had an un-flushed buffer (count=%u) — device flush did not "
        "run (AICPU likely reaped on a hang); recovered the records host-side\n",
        ti, count);
}

void collector_finish(chip *c, collector_stats *st)
{
    collector *h = &the;
    memset(st, 0, sizeof(*st));
    if (sec(c->end_time) > simgrid_get_clock())
        sg_actor_sleep_until(sec(c->end_time));
    st->bytes_at_device_end = h->bytes;
    bool killed = c->status == CHIP_DEVICE_ERROR;
    dump_flush(&c->dump, c->end_time, killed, note_reconcile, h);
    if (killed && h->reconciled)
        fprintf(h->log,
                "ptosim: [host] Dump reconcile: recovered un-flushed buffers from %d thread(s) (device-side "
                "flush "
                "was skipped, typically an AICPU hang reap)\n",
                h->reconciled);
    if (c->dump.ad.dropped)
        fprintf(h->log,
                "ptosim: [host] Dump reconcile: %" PRIu64 " records dropped on device side. Increase "
                "PLATFORM_DUMP_BUFFERS_PER_THREAD or PLATFORM_DUMP_READYQUEUE_SIZE.\n",
                c->dump.ad.dropped);
    /* the host keeps writing after the device is done */
    h->device_done = true;
    uint64_t total = c->dump.ad.n - c->dump.ad.dropped;
    double next = simgrid_get_clock() + 1.0; /* the export loop reports once a second */
    /* One record at a time crosses the collector link, and the writer takes each in host_record_ns: with
     * everything published, a record is written at least every copy + record + poll interval. Far longer
     * without one means an actor is stuck for good (SimGrid ended a call of its with an exception): the run
     * ends with that error instead of waiting forever. */
    uint64_t max_size = 0;
    for (size_t i = 0; i < c->dump.ad.n; i++)
        if (c->dump.ad.recs[i].bin_size > max_size)
            max_size = c->dump.ad.recs[i].bin_size;
    double stall_s = 10.0 + 4.0 * ((double)max_size / c->plat.host_collector_bw +
                                   (double)c->plat.host_record_ns * 1e-9 + (double)c->plat.host_poll_ns * 1e-9);
    uint64_t last_written = h->written;
    double last_change = simgrid_get_clock();
    while (h->written < total && !intr_signal() && !h->dead) { /* a signal ends the host's writing too */
        double left = next - simgrid_get_clock();
        if (left > 0)
            sg_sem_acquire_timeout(h->progress, left);
        if (!actors_alive(h)) /* it held records that will never be written */
            break;
        if (h->written != last_written) {
            last_written = h->written;
            last_change = simgrid_get_clock();
        } else if (simgrid_get_clock() - last_change > stall_s) {
            chip_error(c,
                       "the args dump collector wrote nothing for %.0f simulated seconds with %" PRIu64
                       " args left: one of its SimGrid actors is stuck (out of memory inside SimGrid?)",
                       simgrid_get_clock() - last_change, total - h->written);
            break;
        }
        if (h->written < total && h->bufs_head == h->nbufs && !h->draining && !h->wq_len && !h->in_flight) {
            /* in no queue and with no actor: lost on the way. Every way ptosim knows to lose one (an
             * allocation of publish or wq_push that failed) has ended the run with its own error first, so
             * this is a slip of the collector's own bookkeeping; an actor stuck holding some is the stall
             * above */
            chip_error(c, "internal: %" PRIu64 " args were never published; args.bin would lack them",
                       total - h->written);
            break;
        }
        if (h->written < total && simgrid_get_clock() >= next) {
            fprintf(h->log,
                    "ptosim: [host] Writing to disk: %.1f GB written, %" PRIu64 " args remaining (%lds)\n",
                    (double)h->bytes / 1e9, total - h->written, (long)simgrid_get_clock());
            next += 1.0;
        }
    }
    double now = simgrid_get_clock();
    uint64_t truncated = 0;
    for (size_t i = 0; i < c->dump.ad.n; i++)
        truncated += c->dump.ad.recs[i].truncated;
    if (truncated || c->dump.ad.dropped)
        fprintf(h->log,
                "ptosim: [host] Args dump anomalies: truncated=%" PRIu64 ", dropped_records=%" PRIu64 "\n",
                truncated, c->dump.ad.dropped);
    if (h->collected)
        fprintf(h->log, "ptosim: [host] Collected %" PRIu64 " args, wrote %.1f GB to disk (%.1fs)\n",
                h->collected, (double)h->bytes / 1e9, now);
    else {
        fprintf(h->log, "ptosim: [host] No args dump data to export\n");
        if (c->dump.level == 1) /* the runtime's line above; a first use of level 1 deserves the why */
            fprintf(h->log, "ptosim: note: --dump-args=1 dumps only the arguments a graph tags with \"dump\": "
                            "true (a tensor or scalar argument's field, docs/reference/graph-format.md), and "
                            "none ran; --dump-args=2 dumps every argument\n");
    }
    st->done_s = now;
    st->records = h->collected;
    st->bytes_written = h->bytes;
    st->reconciled_threads = h->reconciled;
    h->ending = true;
    free(h->bufs);
    free(h->wq);
    h->bufs = NULL;
    h->wq = NULL;
    c->dump.host = NULL;
}
