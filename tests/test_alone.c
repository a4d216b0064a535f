/* test_alone.c - the orchestrator and the scheduler threads each alone, without the chip engine. */
/* A fake engine behind rt's services records what it is asked for. */
#include <stdlib.h>
#include <string.h>

#include "../model/aicpu/orchestrator.h"
#include "../model/aicpu/runtime_state.h"
#include "../model/aicpu/scheduler.h"
#include "testutil.h"

#define NS(x) ((ps_t)(x)*PS_PER_NS)

/* What the fake engine was asked to do. */
typedef struct fake_event {
    ps_t t;
    enum chip_event kind;
    uint32_t who;
    uint64_t arg;
    bool last; /* asked for as the handler's last act */
} fake_event;

typedef struct fake_engine {
    rt r; /* first: a service finds its fake engine at the rt it is given */
    fake_event ev[8];
    int nev;
    uint64_t ready[8]; /* tasks routed to a ready queue */
    int nready;
    uint64_t propagated[8]; /* producers whose blocks were all dispatched */
    int npropagated;
    int consumed_checks;
    int finished_checks;
} fake_engine;

static fake_engine *fake_of(rt *r)
{
    return (fake_engine *)r;
}

static void fake_record(rt *r, ps_t t, enum chip_event kind, uint32_t who, uint64_t arg, bool last)
{
    fake_engine *f = fake_of(r);
    ck_assert_int_lt(f->nev, 8);
    f->ev[f->nev++] = (fake_event){t, kind, who, arg, last};
}

static void fake_schedule(rt *r, ps_t t, enum chip_event kind, uint32_t who, uint64_t arg)
{
    fake_record(r, t, kind, who, arg, false);
}

static void fake_schedule_last(rt *r, ps_t t, enum chip_event kind, uint32_t who, uint64_t arg)
{
    fake_record(r, t, kind, who, arg, true);
}

static void fake_route_ready(rt *r, task *tk, ps_t t)
{
    fake_engine *f = fake_of(r);
    (void)t;
    ck_assert_int_lt(f->nready, 8);
    f->ready[f->nready++] = tk->id;
}

static void fake_try_early_candidate(rt *r, task *tk, ps_t t)
{
    (void)r, (void)tk, (void)t;
    ck_abort_msg("a task whose producers are all done is ready, not an early candidate");
}

static void fake_check_consumed(rt *r, task *tk, ps_t t)
{
    (void)tk, (void)t;
    fake_of(r)->consumed_checks++;
}

static void fake_check_finished(rt *r)
{
    fake_of(r)->finished_checks++;
}

static void fake_propagate_dispatch(rt *r, task *producer, ps_t t)
{
    fake_engine *f = fake_of(r);
    (void)t;
    ck_assert_int_lt(f->npropagated, 8);
    f->propagated[f->npropagated++] = producer->id;
}

static bool fake_sync_rendezvous(rt *r, task *tk, ps_t t)
{
    (void)r, (void)tk, (void)t;
    ck_abort_msg("no sync-start task here");
    return false;
}

static void fake_release(rt *r, task *tk, ps_t t)
{
    (void)r, (void)tk, (void)t;
    ck_abort_msg("nothing completes here");
}

static bool fake_orch_done(rt *r)
{
    (void)r;
    return false;
}

static void fake_set_wake(rt *r, int ti, ps_t t)
{
    (void)r, (void)ti, (void)t;
    ck_abort_msg("no scheduler thread sleeps here");
}

static void fake_clear_wake(rt *r, int ti)
{
    (void)r, (void)ti; /* a thread that has not slept has nothing to drop */
}

/* The shared state an orchestrator or the schedulers need, on a2a3 defaults
 * with small rings. */
static void fake_init(fake_engine *f)
{
    memset(f, 0, sizeof(*f));
    rt *r = &f->r;
    r->svc = (rt_services){.schedule = fake_schedule,
                           .schedule_last = fake_schedule_last,
                           .route_ready = fake_route_ready,
                           .try_early_candidate = fake_try_early_candidate,
                           .check_consumed = fake_check_consumed,
                           .check_finished = fake_check_finished,
                           .propagate_dispatch = fake_propagate_dispatch,
                           .sync_rendezvous = fake_sync_rendezvous,
                           .release = fake_release,
                           .orch_done = fake_orch_done,
                           .set_wake = fake_set_wake,
                           .clear_wake = fake_clear_wake};
    platform_defaults(&r->plat);
    r->status = CHIP_RUNNING;
    r->cost.submit = NS(100);
    r->cost.scope_end_per_task = NS(10);
    r->cost.spin = NS(1);
    r->cost.pop = NS(20);
    r->cost.payload = NS(30);
    r->cost.wmb = NS(5);
    r->cost.store = NS(40);
    r->cost.visible = NS(200);
    r->cost.setup = NS(290);
    r->cost.poll = NS(80);
    r->cost.idle_iter = NS(215);
    for (int i = 0; i < RING_COUNT; i++) {
        r->cfg.ring_task_window[i] = 16;
        r->cfg.ring_heap[i] = 1 << 20;
        r->cfg.ring_dep_pool[i] = 64;
        ck_assert_int_eq(task_ring_init(&r->rings[i], 16), 0);
        ring_heap_init(&r->heaps[i], r->cfg.ring_heap[i]);
        dep_pool_init(&r->deppools[i], r->cfg.ring_dep_pool[i]);
    }
    ck_assert_int_eq(tmap_init(&r->tm, 64, r->cfg.ring_task_window, false), 0);
    occ_init(&r->occ);
    r->ncores = platform_num_cores(&r->plat);
    r->nsched = platform_num_sched(&r->plat);
    core_topology(r->cores, (int)r->plat.clusters, r->nsched);
    for (int s = 0; s < 3; s++)
        readyq_init(&r->ready[s]);
    vary_init(&r->vr, false, 0);
    ck_assert_int_eq(swimlane_init(&r->sl, 0, r->ncores), 0);
}

static void fake_free(fake_engine *f)
{
    for (int i = 0; i < RING_COUNT; i++)
        task_ring_free(&f->r.rings[i]);
    tmap_free(&f->r.tm);
    for (int s = 0; s < 3; s++)
        readyq_free(&f->r.ready[s]);
    swimlane_free(&f->r.sl);
}

START_TEST(one_submit_asks_the_engine_for_its_publish_then_routes_the_task_ready)
{
    char *path = tu_write(tu_tmpdir(), "g.jsonl",
                          "{\"ptosim_graph\": 1, \"name\": \"one\", \"kernels\": [{\"id\": 0, \"name\": "
                          "\"mm\", \"core\": \"aic\", \"cost\": {\"cycles\": 18000}}]}\n"
                          "{\"op\": \"submit\", \"kernel\": \"mm\"}\n");
    fake_engine *f = malloc(sizeof(*f));
    fake_init(f);
    graph g;
    orch o;
    char err[512];
    ck_assert_msg(graph_open(&g, path, err, sizeof(err)) == 0, "%s", err);
    ck_assert_msg(orch_init(&o, &f->r, &g, err, sizeof(err)) == 0, "%s", err);

    /* the submit call: slot and heap, fanin, wiring; then the engine is asked
     * for the publish one submit cost later, and nothing else */
    orch_on_step(&o, NS(1000));
    uint64_t id = task_make_id(0, 0);
    ck_assert_int_eq(f->nev, 1);
    ck_assert_int_eq(f->ev[0].kind, EV_ORCH_PUBLISH);
    ck_assert_uint_eq(f->ev[0].t, NS(1000) + NS(100));
    ck_assert_uint_eq(f->ev[0].arg, id);
    ck_assert(f->ev[0].last); /* the submit call's last act */
    ck_assert_int_eq(f->nready, 0);
    task *tk = rt_task(&f->r, id);
    ck_assert_ptr_nonnull(tk);
    ck_assert_int_eq(tk->shape, SHAPE_AIC);
    ck_assert_uint_eq(tk->dur[0], ps_from_cycles(18000, (uint64_t)f->r.plat.aicore_freq_hz));
    ck_assert_uint_eq(f->r.tasks_submitted, 1);

    /* the publish: no producer, so the task goes straight to the engine's
     * ready routing; the graph then ends and the root scope's end is paid
     * for one task before the orchestrator's last step */
    orch_on_publish(&o, id, f->ev[0].t);
    ck_assert_int_eq(f->nready, 1);
    ck_assert_uint_eq(f->ready[0], id);
    ck_assert(tk->published);
    ck_assert_int_eq(f->consumed_checks, 1);
    ck_assert_int_eq(f->nev, 2);
    ck_assert_int_eq(f->ev[1].kind, EV_ORCH_STEP);
    ck_assert_uint_eq(f->ev[1].t, NS(1100) + NS(10));
    ck_assert(f->ev[1].last);

    orch_on_step(&o, f->ev[1].t);
    ck_assert(o.done);
    ck_assert_uint_eq(o.end_time, NS(1110));
    ck_assert_int_eq(f->finished_checks, 1);
    ck_assert_int_eq(f->r.status, CHIP_RUNNING);

    orch_free(&o);
    fake_free(f);
    free(f);
    free(path);
}
END_TEST

START_TEST(a_queued_task_goes_to_the_first_idle_core_of_thread_0)
{
    fake_engine *f = malloc(sizeof(*f));
    fake_init(f);
    rt *r = &f->r;
    /* one published AIC task, ready in the global queue, as the engine's ready routing leaves it */
    uint64_t id = task_make_id(0, 0);
    task *tk = &r->rings[0].slots[0];
    r->rings[0].next_local = 1;
    *tk = (task){.id = id,
                 .shape = SHAPE_AIC,
                 .mask = 1,
                 .block_num = 1,
                 .subtasks_total = 1,
                 .predicate = true,
                 .published = true,
                 .queued = true};
    tk->dur[0] = NS(1000);
    ck_assert_int_eq(readyq_push(&r->ready[SHAPE_AIC], id), 0);
    sched sc;
    sched_init(&sc, r);

    /* the complete phase polls no running core and asks for the dispatch phase at once */
    sched_on_iter(&sc, 0, 0);
    ck_assert_int_eq(f->nev, 1);
    ck_assert_int_eq(f->ev[0].kind, EV_SCHED_DISPATCH);
    ck_assert_uint_eq(f->ev[0].t, 0);
    ck_assert_uint_eq(f->ev[0].who, 0);
    ck_assert_uint_eq(f->ev[0].arg, sc.threads[0].gen);
    ck_assert(f->ev[0].last);

    /* the dispatch phase pops the task (20 ns), writes its payload (30 ns),
     * publishes behind one barrier (5 ns): core 0, thread 0's first AIC, sees
     * it 200 ns later and starts after its 290 ns setup */
    sched_on_dispatch(&sc, 0, 0);
    const core *co = &r->cores[0];
    ck_assert(co->busy);
    ck_assert_uint_eq(co->run.task_id, id);
    ck_assert_uint_eq(co->run.dispatch, NS(55));
    ck_assert_uint_eq(co->run.start, NS(55) + NS(200) + NS(290));
    ck_assert_uint_eq(co->run.end, co->run.start + NS(1000));
    ck_assert_uint_eq(r->ready[SHAPE_AIC].len, 0);
    /* its only block is out: the engine hears of it (early dispatch), and the
     * thread's next iteration starts once the batch's store is done */
    ck_assert_int_eq(f->npropagated, 1);
    ck_assert_uint_eq(f->propagated[0], id);
    ck_assert_int_eq(f->nev, 2);
    ck_assert_int_eq(f->ev[1].kind, EV_SCHED_ITER);
    ck_assert_uint_eq(f->ev[1].t, NS(55) + NS(40));
    ck_assert(f->ev[1].last);
    ck_assert_uint_eq(sc.threads[0].dispatched, 1);

    sched_free(&sc);
    fake_free(f);
    free(f);
}
END_TEST

Suite *suite_alone(void)
{
    Suite *s = suite_create("alone");
    TCase *tc = tcase_create("orch");
    tcase_add_test(tc, one_submit_asks_the_engine_for_its_publish_then_routes_the_task_ready);
    suite_add_tcase(s, tc);
    tc = tcase_create("sched");
    tcase_add_test(tc, a_queued_task_goes_to_the_first_idle_core_of_thread_0);
    suite_add_tcase(s, tc);
    return s;
}
