/* test_perfetto.c - ptosim's Perfetto trace: valid trace JSON, the 3-task chain worked by hand. */
/* Its slices, flows and counters; a bounded big run, the command line and its errors. */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "../model/base/string_table.h"
#include "../model/engine/chip_engine.h"
#include "../model/output/perfetto_writer.h"
#include "testutil.h"

#define CHAIN3_TEXT                                                                                          \
    "{\"ptosim_graph\": 1, \"name\": \"chain3\", \"kernels\": [{\"id\": 0, \"name\": \"vadd\", \"core\": "   \
    "\"aiv\", \"cost\": {\"cycles\": 18000}}], \"tensors\": [{\"name\": \"x\", \"dtype\": \"FLOAT32\", "     \
    "\"shape\": [16384]}]}\n"                                                                                \
    "{\"op\": \"submit\", \"id\": \"a\", \"kernel\": \"vadd\", \"args\": [{\"dir\": \"in\", \"tensor\": "    \
    "\"x\"}, {\"dir\": \"out\", \"tensor\": \"t0\", \"dtype\": \"FLOAT32\", \"shape\": [16384]}]}\n"         \
    "{\"op\": \"submit\", \"id\": \"b\", \"kernel\": \"vadd\", \"args\": [{\"dir\": \"in\", \"tensor\": "    \
    "\"t0\"}, {\"dir\": \"out\", \"tensor\": \"t1\", \"dtype\": \"FLOAT32\", \"shape\": [16384]}]}\n"        \
    "{\"op\": \"submit\", \"id\": \"c\", \"kernel\": \"vadd\", \"args\": [{\"dir\": \"in\", \"tensor\": "    \
    "\"t1\"}, {\"dir\": \"out\", \"tensor\": \"y\", \"dtype\": \"FLOAT32\", \"shape\": [16384]}]}\n"

/* ---- the validator ---- */

/* A time in the file (microseconds) as whole nanoseconds. */
static long long ns_of(const cJSON *v)
{
    return llround(v->valuedouble * 1000.0);
}

typedef struct vslice {
    long long track, start, end; /* pid * 100000 + tid; [start, end) in ns */
} vslice;

typedef struct vflow {
    long long id, track, ts; /* flow id, track, time (ns) */
    char ph;                 /* 's' or 'f' */
} vflow;

typedef struct vctr {
    int pid;
    const char *name;
    long long ts;
    size_t order; /* position in the file */
} vctr;

static int cmp_vslice(const void *a, const void *b)
{
    const vslice *x = a, *y = b;
    if (x->track != y->track)
        return x->track < y->track ? -1 : 1;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return (x->end < y->end) - (x->end > y->end);
}

static int cmp_vflow(const void *a, const void *b)
{
    const vflow *x = a, *y = b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return (x->ph > y->ph) - (x->ph < y->ph); /* 'f' before 's' */
}

static int cmp_vctr(const void *a, const void *b)
{
    const vctr *x = a, *y = b;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    int c = strcmp(x->name, y->name);
    if (c)
        return c;
    return (x->order > y->order) - (x->order < y->order);
}

/* Is there a slice of `track` that a flow event at ts binds to (ts inside
 * [start, end), or a zero-length slice at ts)? */
static bool bound(const vslice *s, size_t n, long long track, long long ts)
{
    for (size_t i = 0; i < n; i++)
        if (s[i].track == track && s[i].start <= ts &&
            (ts < s[i].end || (s[i].start == s[i].end && ts == s[i].start)))
            return true;
    return false;
}

/* In trace_problem: unless cond, say why and stop. */
#define CHECK(cond, ...)                                                                                     \
    do {                                                                                                     \
        if (!(cond)) {                                                                                       \
            snprintf(why, len, __VA_ARGS__);                                                                 \
            goto out;                                                                                        \
        }                                                                                                    \
    } while (0)

/* Why root is not valid trace JSON as Perfetto reads it, or NULL: every
 * event has its phase's required fields, a thread belongs to one process,
 * slices of one track nest (intervals closed on the left, open on the
 * right), every flow id has one start and one end, each inside a slice of
 * its track and in time order, and each counter track's times increase. */
static const char *trace_problem(const cJSON *root, char *why, size_t len)
{
    const cJSON *evs = cJSON_GetObjectItem(root, "traceEvents");
    if (!cJSON_IsArray(evs) || !cJSON_IsObject(cJSON_GetObjectItem(root, "metadata"))) {
        snprintf(why, len, "no traceEvents array or no metadata object");
        return why;
    }
    size_t n = (size_t)cJSON_GetArraySize(evs), ns = 0, nf = 0, nc = 0, i = 0;
    vslice *sl = malloc((n + 1) * sizeof(*sl)), *stack = malloc((n + 1) * sizeof(*stack));
    vflow *fl = malloc((n + 1) * sizeof(*fl));
    vctr *ct = malloc((n + 1) * sizeof(*ct));
    const char *res = why;
    static int pid_of[100000];
    memset(pid_of, 0, sizeof(pid_of));
    const cJSON *e;
    cJSON_ArrayForEach(e, evs)
    {
        i++;
        const cJSON *ph = cJSON_GetObjectItem(e, "ph"), *pid = cJSON_GetObjectItem(e, "pid"),
                    *tid = cJSON_GetObjectItem(e, "tid"), *name = cJSON_GetObjectItem(e, "name"),
                    *ts = cJSON_GetObjectItem(e, "ts"), *args = cJSON_GetObjectItem(e, "args");
        CHECK(cJSON_IsString(ph) && strlen(ph->valuestring) == 1 && strchr("MXCsf", ph->valuestring[0]),
              "event %zu: bad ph", i);
        char p = ph->valuestring[0];
        CHECK(cJSON_IsNumber(pid) && cJSON_IsNumber(tid) && cJSON_IsString(name),
              "event %zu: pid, tid and name are required", i);
        CHECK(tid->valueint > 0 && tid->valueint < 100000 && pid->valueint > 0, "event %zu: bad ids", i);
        CHECK(!pid_of[tid->valueint] || pid_of[tid->valueint] == pid->valueint,
              "event %zu: tid %d in two processes", i, tid->valueint);
        pid_of[tid->valueint] = pid->valueint;
        long long track = (long long)pid->valueint * 100000 + tid->valueint;
        if (p == 'M') {
            CHECK(cJSON_IsObject(args), "event %zu: metadata without args", i);
            continue;
        }
        CHECK(cJSON_IsNumber(ts) && ts->valuedouble >= 0, "event %zu: ts is required", i);
        if (p == 'X') {
            const cJSON *dur = cJSON_GetObjectItem(e, "dur");
            CHECK(cJSON_IsNumber(dur) && dur->valuedouble >= 0, "event %zu: X without dur", i);
            CHECK(cJSON_IsString(cJSON_GetObjectItem(e, "cat")), "event %zu: X without cat", i);
            sl[ns++] = (vslice){track, ns_of(ts), ns_of(ts) + ns_of(dur)};
        } else if (p == 'C') {
            CHECK(cJSON_IsObject(args) && args->child, "event %zu: C without args", i);
            const cJSON *a;
            cJSON_ArrayForEach(a, args)
                CHECK(cJSON_IsNumber(a), "event %zu: counter %s not a number", i, a->string);
            ct[nc++] = (vctr){pid->valueint, name->valuestring, ns_of(ts), i};
        } else {
            const cJSON *id = cJSON_GetObjectItem(e, "id");
            CHECK(cJSON_IsNumber(id) && cJSON_IsString(cJSON_GetObjectItem(e, "cat")),
                  "event %zu: flow without id or cat", i);
            if (p == 'f') {
                const cJSON *bp = cJSON_GetObjectItem(e, "bp");
                CHECK(cJSON_IsString(bp) && strcmp(bp->valuestring, "e") == 0,
                      "event %zu: flow end not bound to its enclosing slice", i);
            }
            fl[nf++] = (vflow){(long long)id->valuedouble, track, ns_of(ts), p};
        }
    }
    qsort(sl, ns, sizeof(*sl), cmp_vslice);
    size_t depth = 0;
    for (size_t k = 0; k < ns; k++) {
        if (k && sl[k].track != sl[k - 1].track)
            depth = 0;
        /* a slice ended before this one starts, or ends as it starts (only
         * instants at one time stack on each other) */
        while (depth && (stack[depth - 1].end < sl[k].start ||
                         (stack[depth - 1].end == sl[k].start &&
                          !(stack[depth - 1].start == stack[depth - 1].end && sl[k].start == sl[k].end))))
            depth--;
        CHECK(!depth || sl[k].end <= stack[depth - 1].end,
              "track %lld: slice [%lld, %lld) overlaps [%lld, %lld) without nesting", sl[k].track,
              sl[k].start, sl[k].end, stack[depth - 1].start, stack[depth - 1].end);
        stack[depth++] = sl[k];
    }
    qsort(fl, nf, sizeof(*fl), cmp_vflow);
    CHECK(nf % 2 == 0, "%zu flow events: not in pairs", nf);
    for (size_t k = 0; k < nf; k += 2) {
        CHECK(fl[k].id == fl[k + 1].id && fl[k].ph == 'f' && fl[k + 1].ph == 's',
              "flow %lld: not one start and one end", fl[k].id);
        CHECK(k + 2 >= nf || fl[k + 2].id != fl[k].id, "flow %lld: more than one pair", fl[k].id);
        CHECK(fl[k + 1].ts <= fl[k].ts, "flow %lld ends before it starts", fl[k].id);
        CHECK(bound(sl, ns, fl[k + 1].track, fl[k + 1].ts), "flow %lld: start is in no slice", fl[k].id);
        CHECK(bound(sl, ns, fl[k].track, fl[k].ts), "flow %lld: end is in no slice", fl[k].id);
    }
    qsort(ct, nc, sizeof(*ct), cmp_vctr);
    for (size_t k = 1; k < nc; k++)
        if (ct[k].pid == ct[k - 1].pid && strcmp(ct[k].name, ct[k - 1].name) == 0)
            CHECK(ct[k].ts > ct[k - 1].ts, "counter %s: time %lld after %lld", ct[k].name, ct[k].ts,
                  ct[k - 1].ts);
    res = NULL;
out:
    free(sl);
    free(stack);
    free(fl);
    free(ct);
    return res;
}

/* Fails the test unless root is valid trace JSON. */
static void assert_valid_trace(const cJSON *root)
{
    char why[512];
    const char *p = trace_problem(root, why, sizeof(why));
    ck_assert_msg(p == NULL, "%s", why);
}

/* ---- helpers ---- */

static size_t trace_limit;
static void trace_on(chip_config *cfg)
{
    cfg->perfetto_records = trace_limit;
}

/* Runs graph text with the trace on (keeping `limit` records), writes the
 * trace and returns the parsed file; *out gets the chip (caller frees). */
static cJSON *trace_of(const char *text, const char *const *sets, int swimlane, size_t limit, chip **out)
{
    trace_limit = limit ? limit : PF_MAX_RECORDS;
    chip *c = tu_chip(text, sets, swimlane, trace_on);
    char path[4200], err[4096];
    snprintf(path, sizeof(path), "%s/trace.json", tu_tmpdir());
    ck_assert_msg(pf_write(c, path, err, sizeof(err)) == 0, "%s", err);
    cJSON *j = tu_json_file(path);
    if (out)
        *out = c;
    else
        tu_chip_free(c);
    return j;
}

/* The events of one kind on one track (tid 0: any), in file order. */
static int pick(const cJSON *root, char ph, int pid, int tid, const cJSON **out, int max)
{
    int n = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(root, "traceEvents"))
    {
        if (cJSON_GetObjectItem(e, "ph")->valuestring[0] != ph ||
            cJSON_GetObjectItem(e, "pid")->valueint != pid ||
            (tid && cJSON_GetObjectItem(e, "tid")->valueint != tid))
            continue;
        ck_assert_msg(n < max, "more than %d '%c' events on %d/%d", max, ph, pid, tid);
        out[n++] = e;
    }
    return n;
}

/* The counter events named `name`, as (ns, value of key) pairs. */
static int counter(const cJSON *root, const char *name, const char *key, long long *ts, double *v, int max)
{
    int n = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(root, "traceEvents"))
    {
        if (cJSON_GetObjectItem(e, "ph")->valuestring[0] != 'C' ||
            strcmp(cJSON_GetObjectItem(e, "name")->valuestring, name) != 0)
            continue;
        ck_assert_msg(n < max, "more than %d samples of %s", max, name);
        ts[n] = ns_of(cJSON_GetObjectItem(e, "ts"));
        v[n++] = cJSON_GetObjectItem(cJSON_GetObjectItem(e, "args"), key)->valuedouble;
    }
    return n;
}

static long long num(const cJSON *e, const char *key)
{
    const cJSON *v = cJSON_GetObjectItem(e, key);
    ck_assert_msg(cJSON_IsNumber(v), "no number %s", key);
    return (long long)v->valuedouble;
}

static long long arg(const cJSON *e, const char *key)
{
    return num(cJSON_GetObjectItem(e, "args"), key);
}

/* Asserts an X event's window in nanoseconds and its name. */
static void assert_slice(const cJSON *e, long long start, long long end, const char *name)
{
    long long s = ns_of(cJSON_GetObjectItem(e, "ts")), d = ns_of(cJSON_GetObjectItem(e, "dur"));
    const char *nm = cJSON_GetObjectItem(e, "name")->valuestring;
    ck_assert_msg(s == start && s + d == end && strcmp(nm, name) == 0,
                  "slice %s [%lld, %lld), expected %s [%lld, %lld)", nm, s, s + d, name, start, end);
}

/* ---- the tests ---- */

START_TEST(the_validator_finds_each_kind_of_fault)
{
    /* one good trace, then one fault at a time: the validator must name it */
#define EV(x) "{\"traceEvents\": [" x "], \"metadata\": {}}"
#define A "{\"ph\":\"X\",\"ts\":1.000,\"pid\":2,\"tid\":2000,\"dur\":2.000,\"name\":\"a\",\"cat\":\"c\"}"
#define B "{\"ph\":\"X\",\"ts\":5.000,\"pid\":2,\"tid\":2001,\"dur\":1.000,\"name\":\"b\",\"cat\":\"c\"}"
#define S "{\"ph\":\"s\",\"ts\":2.999,\"pid\":2,\"tid\":2000,\"name\":\"d\",\"cat\":\"d\",\"id\":1}"
#define F                                                                                                    \
    "{\"ph\":\"f\",\"ts\":5.001,\"pid\":2,\"tid\":2001,\"bp\":\"e\",\"name\":\"d\",\"cat\":\"d\",\"id\":1}"
#define C(t, v) "{\"ph\":\"C\",\"ts\":" t ",\"pid\":3,\"tid\":3,\"name\":\"k\",\"args\":{\"n\":" v "}}"
    static const struct {
        const char *json, *problem; /* NULL: valid */
    } cases[] = {
        {EV(A "," B "," S "," F "," C("0", "0") "," C("1.5", "2")), NULL},
        /* zero-length slices: one at its parent's end, two at one time, one later */
        {EV(A ",{\"ph\":\"X\",\"ts\":3.000,\"pid\":2,\"tid\":2000,\"dur\":0,\"name\":\"z\",\"cat\":\"c\"},"
              "{\"ph\":\"X\",\"ts\":3.000,\"pid\":2,\"tid\":2000,\"dur\":0,\"name\":\"z\",\"cat\":\"c\"},"
              "{\"ph\":\"X\",\"ts\":4.000,\"pid\":2,\"tid\":2000,\"dur\":0,\"name\":\"z\",\"cat\":\"c\"}"),
         NULL},
        {EV("{\"ph\":\"X\",\"pid\":2,\"tid\":2000,\"dur\":1,\"name\":\"a\",\"cat\":\"c\"}"),
         "event 1: ts is required"},
        {EV("{\"ph\":\"X\",\"ts\":1,\"pid\":2,\"tid\":2000,\"name\":\"a\",\"cat\":\"c\"}"),
         "event 1: X without dur"},
        {EV(A
            ",{\"ph\":\"X\",\"ts\":2.000,\"pid\":2,\"tid\":2000,\"dur\":2.000,\"name\":\"x\",\"cat\":\"c\"}"),
         "track 202000: slice [2000, 4000) overlaps [1000, 3000) without nesting"},
        {EV(A "," B "," S), "1 flow events: not in pairs"},
        {EV(A "," B "," S "," S), "flow 1: not one start and one end"},
        {EV(A "," B
              ",{\"ph\":\"s\",\"ts\":4.000,\"pid\":2,\"tid\":2000,\"name\":\"d\",\"cat\":\"d\",\"id\":1}," F),
         "flow 1: start is in no slice"},
        {EV(A "," B "," S
              ",{\"ph\":\"f\",\"ts\":5.001,\"pid\":2,\"tid\":2001,\"name\":\"d\",\"cat\":\"d\",\"id\":1}"),
         "event 4: flow end not bound to its enclosing slice"},
        {EV(C("1", "0") "," C("1", "1")), "counter k: time 1000 after 1000"},
        {EV(C("1", "\"x\"")), "event 1: counter n not a number"},
        {EV(A ",{\"ph\":\"X\",\"ts\":9,\"pid\":3,\"tid\":2000,\"dur\":1,\"name\":\"a\",\"cat\":\"c\"}"),
         "event 2: tid 2000 in two processes"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        cJSON *j = cJSON_Parse(cases[i].json);
        ck_assert_msg(j != NULL, "case %zu: not JSON", i);
        char why[512];
        const char *p = trace_problem(j, why, sizeof(why));
        if (!cases[i].problem)
            ck_assert_msg(p == NULL, "case %zu: %s", i, why);
        else
            ck_assert_msg(p && strcmp(p, cases[i].problem) == 0, "case %zu: got '%s'", i, p ? p : "(valid)");
        cJSON_Delete(j);
    }
#undef EV
#undef A
#undef B
#undef S
#undef F
#undef C
}
END_TEST

START_TEST(chain3_trace_has_the_slices_flows_and_counters_worked_by_hand)
{
    cJSON *j = trace_of(CHAIN3_TEXT, NULL, 0, 0, NULL);
    assert_valid_trace(j);
    /* model/README.md §9.5: a, b, c run on core 24 (thread 0's first AIV
     * core) for 10 us each, dispatched, received and seen finished at the
     * table's times */
    const cJSON *x[8];
    ck_assert_int_eq(pick(j, 'X', 2, 0, x, 8), 3);
    static const long long W[3][5] = {{1130, 1270, 1560, 11560, 11770},
                                      {12522, 12662, 12952, 22952, 23202},
                                      {23954, 24094, 24384, 34384, 34634}};
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(cJSON_GetObjectItem(x[i], "tid")->valueint, 2024);
        assert_slice(x[i], W[i][2], W[i][3], "vadd");
        ck_assert_str_eq(cJSON_GetObjectItem(x[i], "cat")->valuestring, "aicore");
        const cJSON *a = cJSON_GetObjectItem(x[i], "args");
        ck_assert_int_eq(arg(x[i], "task_id"), i); /* ring 0, local i */
        ck_assert_int_eq(arg(x[i], "func_id"), 0);
        ck_assert_int_eq(arg(x[i], "block"), 0);
        ck_assert_str_eq(cJSON_GetObjectItem(a, "site")->valuestring, "(unknown):0"); /* the root scope */
        ck_assert_int_eq(ns_of(cJSON_GetObjectItem(a, "dispatch_us")), W[i][0]);
        ck_assert_int_eq(ns_of(cJSON_GetObjectItem(a, "receive_us")), W[i][1]);
        ck_assert_int_eq(ns_of(cJSON_GetObjectItem(a, "finish_us")), W[i][4]);
    }
    /* two creator edges, a -> b and b -> c: each arrow leaves 1 ns before the
     * producer's end and lands 1 ns after the consumer's start, on core 24 */
    const cJSON *s[4], *f[4];
    ck_assert_int_eq(pick(j, 's', 2, 2024, s, 4), 2);
    ck_assert_int_eq(pick(j, 'f', 2, 2024, f, 4), 2);
    static const long long FL[2][2] = {{11559, 12953}, {22951, 24385}};
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(num(s[i], "id"), i + 1);
        ck_assert_int_eq(num(f[i], "id"), i + 1);
        ck_assert_int_eq(ns_of(cJSON_GetObjectItem(s[i], "ts")), FL[i][0]);
        ck_assert_int_eq(ns_of(cJSON_GetObjectItem(f[i], "ts")), FL[i][1]);
    }
    /* the orchestrator (thread 3): three submits of 874 ns back to back, then
     * the root scope's end releasing 3 tasks at 22 ns each */
    ck_assert_int_eq(pick(j, 'X', 1, 1003, x, 8), 4);
    assert_slice(x[0], 0, 874, "submit");
    assert_slice(x[1], 874, 1748, "submit");
    assert_slice(x[2], 1748, 2622, "submit");
    assert_slice(x[3], 2622, 2688, "scope_end");
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(arg(x[i], "task_id"), i);
    /* scheduler thread 0: a dispatch phase is pop 60 + payload 120 + wmb 30 +
     * the 5 ns store; a completion is the iteration whose COND load returns
     * after the FIN (11670 + 100), FIN bookkeeping 40 and the walk 410 + 92
     * per consumer; after each dispatch the next iteration polls the running
     * core (100) and releases the finished producer's pins (40). Threads 1
     * and 2 own no core that ran anything: no phase. */
    ck_assert_int_eq(pick(j, 'X', 1, 1000, x, 8), 8);
    assert_slice(x[0], 920, 1135, "dispatch");
    assert_slice(x[1], 11670, 12312, "complete");
    assert_slice(x[2], 12312, 12527, "dispatch");
    assert_slice(x[3], 12627, 12667, "release");
    assert_slice(x[4], 23102, 23744, "complete");
    assert_slice(x[5], 23744, 23959, "dispatch");
    assert_slice(x[6], 24059, 24099, "release");
    assert_slice(x[7], 34534, 35084, "complete"); /* c has no consumer: walk 410 */
    ck_assert_int_eq(pick(j, 'X', 1, 1001, x, 8), 0);
    ck_assert_int_eq(pick(j, 'X', 1, 1002, x, 8), 0);
    /* ring 0's task window: one more task per submit; a leaves when b's
     * release (24059) drops its pin on a; b and c stay (the run ends when c
     * completes, before its release) */
    long long ts[16];
    double v[16];
    ck_assert_int_eq(counter(j, "ring 0 task window", "tasks", ts, v, 16), 4);
    static const long long TW[4][2] = {{0, 1}, {874, 2}, {1748, 3}, {24059, 2}};
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(ts[i], TW[i][0]);
        ck_assert_int_eq((long long)v[i], TW[i][1]);
    }
    counter(j, "ring 0 task window", "capacity", ts, v, 16);
    ck_assert_int_eq((long long)v[0], 16384);
    /* the heap: 16384 FLOAT32 = 65536 B per output (a multiple of 1024); its
     * tail follows only at the next alloc, and none comes after c */
    ck_assert_int_eq(counter(j, "ring 0 heap", "bytes", ts, v, 16), 3);
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(ts[i], 874 * i);
        ck_assert_int_eq((long long)v[i], 65536 * (i + 1));
    }
    /* the dependency pool: b and c each wire one pending producer; the pool
     * is reclaimed only every 64 retirements */
    ck_assert_int_eq(counter(j, "ring 0 dep pool", "entries", ts, v, 16), 3);
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(ts[i], 874 * i);
        ck_assert_int_eq((long long)v[i], i);
    }
    /* no other ring, no GM traffic (flat costs), no args dump */
    ck_assert_int_eq(counter(j, "ring 1 task window", "tasks", ts, v, 16), 0);
    ck_assert_int_eq(counter(j, "HBM bandwidth", "GB/s", ts, v, 16), 0);
    /* the overhead model's lines, on 20 ns ticks: the AIV engine (core 24)
     * is overhead while b waits from a's end (11560) to its dispatch (12522,
     * tick 12520), and c from 22940 (b's end 22952) to 23940 (23954) */
    ck_assert_int_eq(counter(j, "overhead", "aiv", ts, v, 16), 5);
    static const long long OV[5][2] = {{1560, 0}, {11560, 1}, {12520, 0}, {22940, 1}, {23940, 0}};
    for (int i = 0; i < 5; i++) {
        ck_assert_int_eq(ts[i], OV[i][0]);
        ck_assert_int_eq((long long)v[i], OV[i][1]);
    }
    ck_assert_int_eq(counter(j, "running", "aiv", ts, v, 16), 6);
    ck_assert_int_eq(ts[5], 34380); /* c's end, 34384, on a tick */
    ck_assert_int_eq((long long)v[5], 0);
    const cJSON *m = cJSON_GetObjectItem(j, "metadata");
    ck_assert(cJSON_IsNull(cJSON_GetObjectItem(m, "horizon_us")));
    ck_assert_int_eq(num(m, "flows"), 2);
    ck_assert_int_eq(num(m, "edges_without_flow"), 0);
    ck_assert_str_eq(cJSON_GetObjectItem(m, "overhead_lines")->valuestring, "model");
    cJSON_Delete(j);
}
END_TEST

START_TEST(hbm_counter_adds_the_running_streams_demands)
{
    /* a pure MTE2 stream moves 64 x 64 KiB in 131072 cycles (72.818 us), 57.6
     * GB/s; two on two cores, far below the die's 1600 GB/s, run at full
     * speed: 57.6 from the first start, 115.2 once both run, 57.6 after the
     * first ends, 0 after the second */
    static const char *const G =
        "{\"ptosim_graph\": 1, \"name\": \"bw\", \"kernels\": [{\"id\": 0, \"name\": \"stream\", \"core\": "
        "\"aiv\", \"cost\": {\"tiles\": 64, \"scalar\": 0, \"mte2\": {\"bytes\": 65536}}}]}\n"
        "{\"op\": \"submit\", \"kernel\": \"stream\"}\n{\"op\": \"submit\", \"kernel\": \"stream\"}\n";
    cJSON *j = trace_of(G, NULL, 0, 0, NULL);
    assert_valid_trace(j);
    const cJSON *x[4];
    ck_assert_int_eq(pick(j, 'X', 2, 0, x, 4), 2);
    long long s0 = ns_of(cJSON_GetObjectItem(x[0], "ts")), s1 = ns_of(cJSON_GetObjectItem(x[1], "ts"));
    if (s1 < s0) {
        const cJSON *t = x[0];
        x[0] = x[1];
        x[1] = t;
        long long u = s0;
        s0 = s1;
        s1 = u;
    }
    long long e0 = s0 + ns_of(cJSON_GetObjectItem(x[0], "dur")),
              e1 = s1 + ns_of(cJSON_GetObjectItem(x[1], "dur"));
    ck_assert_int_eq(e0 - s0, 72817); /* 131072 cycles at 1.8 GHz */
    ck_assert_int_lt(s1, e0);         /* they overlap */
    long long ts[8];
    double v[8];
    ck_assert_int_eq(counter(j, "HBM bandwidth", "GB/s", ts, v, 8), 5);
    const long long T[5] = {0, s0, s1, e0, e1};
    const double V[5] = {0, 57.6, 115.2, 57.6, 0};
    for (int i = 0; i < 5; i++) {
        ck_assert_int_eq(ts[i], T[i]);
        ck_assert_double_eq_tol(v[i], V[i], 1e-9);
    }
    counter(j, "HBM bandwidth", "capacity", ts, v, 8);
    ck_assert_double_eq_tol(v[0], 1600.0, 1e-9);
    cJSON_Delete(j);
}
END_TEST

/* A graph of n independent AIV tasks of 2 us. */
static char *fan_text(int n)
{
    char *t = malloc((size_t)n * 40 + 256);
    strcpy(t, "{\"ptosim_graph\": 1, \"name\": \"fan\", \"kernels\": [{\"id\": 0, \"name\": \"v\", \"core\": "
              "\"aiv\", \"cost\": {\"ns\": 2000}}]}\n");
    char *p = t + strlen(t);
    for (int i = 0; i < n; i++)
        p += sprintf(p, "{\"op\": \"submit\", \"kernel\": \"v\"}\n");
    return t;
}

START_TEST(a_run_longer_than_the_record_limit_ends_at_its_horizon)
{
    /* 70000 tasks, more than the overhead model keeps (65536), with room for
     * 2000 records: the trace stops at the simulated time where the limit was
     * reached; what started later is left out, and the overhead lines come
     * from the trace's own executions */
    char *g = fan_text(70000);
    chip *c;
    const char *const sets[] = {"ring_task_window=131072", NULL}; /* the whole graph in the root scope */
    cJSON *j = trace_of(g, sets, 0, 2000, &c);
    free(g);
    ck_assert_int_eq(c->status, CHIP_DONE);
    assert_valid_trace(j);
    const cJSON *m = cJSON_GetObjectItem(j, "metadata");
    ck_assert(cJSON_IsNumber(cJSON_GetObjectItem(m, "horizon_us")));
    long long horizon = ns_of(cJSON_GetObjectItem(m, "horizon_us"));
    ck_assert_int_eq(horizon, (long long)(c->pf->horizon / PS_PER_NS));
    ck_assert_int_lt(horizon, (long long)(c->end_time / PS_PER_NS));
    ck_assert_int_eq(num(m, "record_limit"), 2000);
    ck_assert_int_le(num(m, "records"), 4000);
    ck_assert_int_gt(num(m, "records_dropped"), 100000);
    ck_assert_str_eq(cJSON_GetObjectItem(m, "overhead_lines")->valuestring, "trace");
    /* the bound: the records, a quarter of the limit for the overhead lines,
     * a first sample per counter track, and the names */
    int events = cJSON_GetArraySize(cJSON_GetObjectItem(j, "traceEvents"));
    ck_assert_int_le(events, 2 * 2000 + 2000 / 4 + 3 + PF_CTR_COUNT + 12 + 4 + 72);
    ck_assert_int_eq(num(m, "events"), events);
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(j, "traceEvents"))
    {
        const cJSON *ts = cJSON_GetObjectItem(e, "ts");
        if (ts)
            ck_assert_int_le(ns_of(ts), horizon);
    }
    tu_chip_free(c);
    cJSON_Delete(j);
}
END_TEST

START_TEST(traces_of_the_shipped_graphs_are_valid)
{
    /* waits on a full task window, MIX SPMD tasks, sync-start drains, explicit deps, manual scopes */
    static const char *const files[] = {"default.jsonl",
                                        "mix_spmd.jsonl",
                                        "gen_decode_layer.jsonl",
                                        "gen_decode_layer_qwen3.jsonl",
                                        "gen_random.jsonl",
                                        "gen_paged_attention_manual.jsonl",
                                        NULL};
    for (int i = 0; files[i]; i++) {
        char path[4096];
        snprintf(path, sizeof(path), "%s/traces/%s", PTOSIM_SRCDIR, files[i]);
        char *text = tu_read(path);
        const char *const sets[] = {"ring_task_window=16", NULL};
        cJSON *j = trace_of(text, i == 0 ? sets : NULL, 0, 0, NULL);
        free(text);
        assert_valid_trace(j);
        cJSON_Delete(j);
    }
}
END_TEST

START_TEST(a_blocked_orchestrator_shows_its_wait_inside_its_submit)
{
    /* window 4: at most 3 tasks of ring 1 in flight (model/README.md §4.2).
     * The 4th submit waits at its slot allocation, from its call's start,
     * until the first scope's tasks are consumed; the call then ends one
     * submit cost (874 ns) after the wait */
    static const char *const G =
        "{\"ptosim_graph\": 1, \"name\": \"w\", \"kernels\": [{\"id\": 0, \"name\": \"v\", \"core\": "
        "\"aiv\", \"cost\": {\"ns\": 2000}}]}\n"
        "{\"op\": \"scope_begin\", \"site\": \"w.cpp:1\"}\n{\"op\": \"submit\", \"kernel\": \"v\"}\n"
        "{\"op\": \"submit\", \"kernel\": \"v\"}\n{\"op\": \"submit\", \"kernel\": \"v\"}\n{\"op\": "
        "\"scope_end\"}\n"
        "{\"op\": \"scope_begin\", \"site\": \"w.cpp:2\"}\n{\"op\": \"submit\", \"kernel\": \"v\"}\n"
        "{\"op\": \"scope_end\"}\n";
    const char *const sets[] = {"ring_task_window=4", NULL};
    chip *c;
    cJSON *j = trace_of(G, sets, 0, 0, &c);
    assert_valid_trace(j);
    const cJSON *x[16];
    ck_assert_int_eq(pick(j, 'X', 1, 1003, x, 16), 7); /* the root scope releases nothing: no slice */
    assert_slice(x[0], 0, 874, "submit");
    assert_slice(x[1], 874, 1748, "submit");
    assert_slice(x[2], 1748, 2622, "submit");
    assert_slice(x[3], 2622, 2688, "scope_end"); /* 3 tasks x 22 ns */
    long long end4 = ns_of(cJSON_GetObjectItem(x[4], "ts")) + ns_of(cJSON_GetObjectItem(x[4], "dur"));
    long long wait = (long long)(c->orch.blocked_ps[1] / PS_PER_NS);
    ck_assert_int_gt(wait, 0);
    assert_slice(x[4], 2688, end4, "submit");
    ck_assert_int_eq(arg(x[4], "task_id"), (long long)task_make_id(1, 3));
    ck_assert_int_eq(arg(x[4], "ring"), 1);
    ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(x[4], "args"), "site")->valuestring, "w.cpp:2");
    assert_slice(x[5], 2688, 2688 + wait, "wait task_window");
    ck_assert_int_eq(arg(x[5], "ring"), 1);
    ck_assert_int_eq(end4, 2688 + wait + 874);
    assert_slice(x[6], end4, end4 + 22, "scope_end");
    /* the exec slices carry their scope's site */
    ck_assert_int_eq(pick(j, 'X', 2, 0, x, 16), 4);
    for (int i = 0; i < 4; i++) {
        const cJSON *a = cJSON_GetObjectItem(x[i], "args");
        bool second = arg(x[i], "task_id") == (long long)task_make_id(1, 3);
        ck_assert_str_eq(cJSON_GetObjectItem(a, "site")->valuestring, second ? "w.cpp:2" : "w.cpp:1");
    }
    long long ts[64];
    double v[64];
    int k = counter(j, "ring 1 task window", "tasks", ts, v, 64);
    double peak = 0;
    for (int i = 0; i < k; i++)
        peak = v[i] > peak ? v[i] : peak;
    ck_assert_double_eq(peak, 3); /* window - 1 */
    tu_chip_free(c);
    cJSON_Delete(j);
}
END_TEST

START_TEST(every_site_is_escaped_once_and_a_long_one_where_it_goes)
{
    /* the writer quotes each site once; one longer than it keeps (here 600 bytes with a quote and a
     * backslash, put in by hand: a graph's sites are shorter) is escaped in each event that names it */
    static const char *const G =
        "{\"ptosim_graph\": 1, \"name\": \"w\", \"kernels\": [{\"id\": 0, \"name\": \"v\", \"core\": "
        "\"aiv\", \"cost\": {\"ns\": 2000}}]}\n"
        "{\"op\": \"scope_begin\", \"site\": \"w\\\"q.cpp:1\"}\n{\"op\": \"submit\", \"kernel\": \"v\"}\n"
        "{\"op\": \"submit\", \"kernel\": \"v\"}\n{\"op\": \"scope_end\"}\n";
    trace_limit = PF_MAX_RECORDS;
    chip *c = tu_chip(G, NULL, 0, trace_on);
    char big[601];
    for (int i = 0; i < 600; i++)
        big[i] = i == 7 ? '"' : i == 300 ? '\\' : (char)('a' + i % 26);
    big[600] = '\0';
    int slot = strtab_intern(&c->pf->sites, big);
    ck_assert_int_ge(slot, 0);
    ck_assert_uint_gt(c->pf->site_cap[1], 1);
    c->pf->site_of[1][1] = slot + 1; /* the second task's */
    char path[4200], err[4096];
    snprintf(path, sizeof(path), "%s/trace.json", tu_tmpdir());
    ck_assert_msg(pf_write(c, path, err, sizeof(err)) == 0, "%s", err);
    cJSON *j = tu_json_file(path);
    assert_valid_trace(j);
    const cJSON *x[16];
    int n = pick(j, 'X', 2, 0, x, 16), calls = 0, seconds = 0;
    ck_assert_int_eq(n, 2);
    for (int i = 0; i < n; i++) {
        bool second = arg(x[i], "task_id") == (long long)task_make_id(1, 1);
        ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(x[i], "args"), "site")->valuestring,
                         second ? big : "w\"q.cpp:1");
        seconds += second;
    }
    ck_assert_int_eq(seconds, 1);
    n = pick(j, 'X', 1, 0, x, 16);
    for (int i = 0; i < n; i++) {
        const cJSON *a = cJSON_GetObjectItem(x[i], "args"), *site = cJSON_GetObjectItem(a, "site");
        if (!site)
            continue;
        bool second = arg(x[i], "task_id") == (long long)task_make_id(1, 1);
        ck_assert_str_eq(site->valuestring, second ? big : "w\"q.cpp:1");
        calls++;
    }
    ck_assert_int_eq(calls, 2); /* the two submits */
    tu_chip_free(c);
    cJSON_Delete(j);
}
END_TEST

START_TEST(a_deadlocked_run_ends_with_its_unfinished_submit_and_wait)
{
    /* a 64 KiB heap holds a's 64 KiB output: b's alloc blocks at 874 ns,
     * and the head-of-line check 1024 spins of 50 ns later finds a pinned by
     * the open root scope: code 2 at 52074 ns (model/README.md §4.7). The
     * call and its wait end with the run */
    const char *const sets[] = {"ring_heap=65536", NULL};
    chip *c;
    cJSON *j = trace_of(CHAIN3_TEXT, sets, 0, 0, &c);
    ck_assert_int_eq(c->status, CHIP_FATAL);
    ck_assert_int_eq(c->fatal_code, 2);
    assert_valid_trace(j);
    const cJSON *x[8];
    ck_assert_int_eq(pick(j, 'X', 1, 1003, x, 8), 3);
    assert_slice(x[0], 0, 874, "submit");
    assert_slice(x[1], 874, 52074, "submit");
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(x[1], "args"), "unfinished")));
    assert_slice(x[2], 874, 52074, "wait heap");
    ck_assert_int_eq(arg(x[2], "ring"), 0);
    tu_chip_free(c);
    cJSON_Delete(j);
}
END_TEST

START_TEST(a_failed_write_leaves_no_file)
{
    /* the file may not grow past 4 KiB: the trace (about 14 KB) cannot be
     * written whole, so nothing is left, not even the temporary file */
    chip *c;
    cJSON *j = trace_of(CHAIN3_TEXT, NULL, 0, 0, &c);
    cJSON_Delete(j);
    char path[4200], tmp[4300], err[4096];
    snprintf(path, sizeof(path), "%s/big.json", tu_tmpdir());
    snprintf(tmp, sizeof(tmp), "%s.tmp", path);
    struct rlimit old, small;
    getrlimit(RLIMIT_FSIZE, &old);
    small = old;
    small.rlim_cur = 4096;
    signal(SIGXFSZ, SIG_IGN);
    setrlimit(RLIMIT_FSIZE, &small);
    int rc = pf_write(c, path, err, sizeof(err));
    setrlimit(RLIMIT_FSIZE, &old);
    ck_assert_int_eq(rc, -1);
    char want[4400];
    snprintf(want, sizeof(want), "%s: write failed: File too large", path);
    ck_assert_str_eq(err, want);
    ck_assert(!tu_exists(path));
    ck_assert(!tu_exists(tmp));
    tu_chip_free(c);
}
END_TEST

/* ---- the command line ---- */

START_TEST(perfetto_options_refuse_what_they_cannot_write)
{
    const char *dir = tu_tmpdir();
    char file[4200];
    snprintf(file, sizeof(file), "%s/t.json", dir);
    struct {
        const char *args[8];
        const char *err;
    } cases[] = {
        {{"run", TRACE("chain3.jsonl"), "--enable-perfetto", NULL},
         "ptosim: --enable-perfetto writes DIR/dfx_outputs/ptosim_trace.json: give -o DIR (or --perfetto "
         "FILE)\n"},
        {{"run", TRACE("chain3.jsonl"), "--perfetto", NULL}, "ptosim: --perfetto: missing value\n"},
        {{"run", TRACE("chain3.jsonl"), "--perfetto=", NULL}, "ptosim: --perfetto: empty FILE name\n"},
        {{"run", TRACE("chain3.jsonl"), TRACE("chain3.jsonl"), "--perfetto", file, NULL},
         "ptosim: --perfetto FILE takes one GRAPH (for programs on one worker, -o DIR --enable-perfetto "
         "writes a trace per program)\n"},
        {{"tune", TRACE("chain3.jsonl"), "--perfetto", file, NULL},
         "ptosim tune: takes one GRAPH and no output options (-o, --enable-*, --dump-args, --perfetto: tune "
         "writes no files; run ptosim run with the recommended flags for those)\n"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        run_out r = tu_run(cases[i].args);
        ck_assert_msg(r.status == 2, "case %zu: exit %d", i, r.status);
        char want[1024];
        snprintf(want, sizeof(want), "%s%s", cases[i].err,
                 strcmp(cases[i].args[0], "tune") == 0 ? TU_USAGE_TUNE : TU_USAGE_RUN);
        ck_assert_str_eq(r.err, want);
        tu_run_free(&r);
    }
    ck_assert(!tu_exists(file));
}
END_TEST

START_TEST(an_unwritable_trace_file_is_exit_1_with_the_reason)
{
    const char *dir = tu_tmpdir();
    char want[4400], tmp[4300];
    /* a directory where the file should be: the rename fails, nothing is left */
    const char *a1[] = {"run", TRACE("chain3.jsonl"), "--perfetto", dir, "--quiet", NULL};
    run_out r = tu_run(a1);
    ck_assert_int_eq(r.status, 1);
    snprintf(want, sizeof(want), "ptosim: %s: write failed: Is a directory\n", dir);
    ck_assert_str_eq(r.err, want);
    snprintf(tmp, sizeof(tmp), "%s.tmp", dir);
    ck_assert(!tu_exists(tmp));
    tu_run_free(&r);
    /* a folder that does not exist */
    char path[4200];
    snprintf(path, sizeof(path), "%s/no/such/t.json", dir);
    const char *a2[] = {"run", TRACE("chain3.jsonl"), "--perfetto", path, "--quiet", NULL};
    r = tu_run(a2);
    ck_assert_int_eq(r.status, 1);
    snprintf(want, sizeof(want), "ptosim: %s: cannot write: No such file or directory\n", path);
    ck_assert_str_eq(r.err, want);
    tu_run_free(&r);
}
END_TEST

START_TEST(both_trace_files_are_the_same_bytes_run_after_run)
{
    const char *dir = tu_tmpdir();
    char file[4200], dfx[4200], again[4200];
    snprintf(file, sizeof(file), "%s/t.json", dir);
    snprintf(again, sizeof(again), "%s/t2.json", dir);
    snprintf(dfx, sizeof(dfx), "%s/out/dfx_outputs/ptosim_trace.json", dir);
    char out[4200];
    snprintf(out, sizeof(out), "%s/out", dir);
    const char *a1[] = {
        "run", TRACE("default.jsonl"), "-o", out, "--enable-perfetto", "--perfetto", file, "--quiet", NULL};
    run_out r = tu_run(a1);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    const char *a2[] = {"run", TRACE("default.jsonl"), "--perfetto", again, "--quiet", NULL};
    r = tu_run(a2);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char *x = tu_read(file), *y = tu_read(dfx), *z = tu_read(again);
    ck_assert(x && y && z);
    ck_assert_str_eq(x, y);
    ck_assert_str_eq(x, z);
    free(x);
    free(y);
    free(z);
    /* ptosim_run.json lists it; a rerun without the flag removes it */
    char runj[4300];
    snprintf(runj, sizeof(runj), "%s/ptosim_run.json", out);
    char *rj = tu_read(runj);
    ck_assert(strstr(rj, "\"dfx_outputs/ptosim_trace.json\"") != NULL);
    free(rj);
    const char *a3[] = {"run", TRACE("default.jsonl"), "-o", out, "--quiet", NULL};
    r = tu_run(a3);
    ck_assert_int_eq(r.status, 0);
    tu_run_free(&r);
    ck_assert(!tu_exists(dfx));
}
END_TEST

START_TEST(args_dump_counters_follow_the_arena_and_the_host_collector)
{
    /* dump_stall at level 1 dumps the tagged tensors of 128 tasks: each
     * scheduler thread's arena fills, and the host collector (SimGrid actors)
     * writes every record it was handed, so its backlog ends at 0 */
    const char *dir = tu_tmpdir();
    const char *a[] = {"run",           TRACE("dump_stall.jsonl"), "-o",      dir,
                       "--dump-args=1", "--enable-perfetto",       "--quiet", NULL};
    run_out r = tu_run(a);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_run_free(&r);
    char path[4300];
    snprintf(path, sizeof(path), "%s/dfx_outputs/ptosim_trace.json", dir);
    cJSON *j = tu_json_file(path);
    assert_valid_trace(j);
    static long long ts[4096];
    static double v[4096];
    int n = counter(j, "args dump collector backlog", "records", ts, v, 4096);
    ck_assert_int_gt(n, 2);
    double peak = 0;
    for (int i = 0; i < n; i++)
        peak = v[i] > peak ? v[i] : peak;
    ck_assert_double_gt(peak, 0);
    ck_assert_double_eq(v[n - 1], 0);
    n = counter(j, "args dump arena thread 0", "bytes", ts, v, 4096);
    ck_assert_int_gt(n, 1);
    for (int i = 1; i < n; i++)
        ck_assert_double_gt(v[i], v[i - 1]); /* no wrap at 272 KiB of a 128 MiB arena */
    counter(j, "args dump arena thread 0", "capacity", ts, v, 4096);
    ck_assert_double_eq(v[0], 134217728);
    cJSON_Delete(j);
}
END_TEST

START_TEST(a_stalled_args_dump_shows_every_park_and_the_host_writing_after_the_kill)
{
    /* docs/howto/dump-stall.md: a full dump parks thread
     * 0 14 times and threads 1 and 2 8 times each until STARS kills the
     * device at 47.244640 s; each park is a "dump park" slice on its thread,
     * their lengths add up to ptosim_run.json's parked time per thread (to a
     * nanosecond per slice), and the host's backlog empties only after the
     * kill, when it has written everything (host_done_us) */
    const char *dir = tu_tmpdir();
    const char *a[] = {"run",           TRACE("dump_stall.jsonl"), "-o", dir,
                       "--dump-args=2", "--enable-perfetto",       NULL};
    run_out r = tu_run(a);
    ck_assert_int_eq(r.status, 5);
    tu_run_free(&r);
    char path[4300];
    snprintf(path, sizeof(path), "%s/dfx_outputs/ptosim_trace.json", dir);
    cJSON *j = tu_json_file(path);
    assert_valid_trace(j);
    snprintf(path, sizeof(path), "%s/ptosim_run.json", dir);
    cJSON *run = tu_json_file(path);
    const cJSON *ad = cJSON_GetObjectItem(run, "args_dump");
    static const int PARKS[3] = {14, 8, 8};
    for (int t = 0; t < 3; t++) {
        int parks = 0;
        long long sum = 0;
        const cJSON *e;
        cJSON_ArrayForEach(e, cJSON_GetObjectItem(j, "traceEvents"))
        {
            if (cJSON_GetObjectItem(e, "ph")->valuestring[0] != 'X' ||
                cJSON_GetObjectItem(e, "tid")->valueint != 1000 + t ||
                strcmp(cJSON_GetObjectItem(e, "name")->valuestring, "dump park") != 0)
                continue;
            parks++;
            sum += ns_of(cJSON_GetObjectItem(e, "dur"));
        }
        const cJSON *th = cJSON_GetArrayItem(cJSON_GetObjectItem(ad, "threads"), t);
        ck_assert_int_eq(parks, PARKS[t]);
        ck_assert_int_eq(num(th, "parks"), PARKS[t]);
        long long want = llround(cJSON_GetObjectItem(th, "parked_us")->valuedouble * 1000.0);
        ck_assert_msg(llabs(sum - want) <= PARKS[t], "thread %d parked %lld ns, run.json %lld", t, sum, want);
    }
    long long ts[4096];
    double v[4096];
    int n = counter(j, "args dump collector backlog", "records", ts, v, 4096);
    const cJSON *m = cJSON_GetObjectItem(j, "metadata");
    ck_assert_int_eq(ns_of(cJSON_GetObjectItem(m, "makespan_us")), 47244640256LL); /* 11 credits of 2^32 ns */
    ck_assert_double_eq(v[n - 1], 0);
    ck_assert_int_gt(ts[n - 1], ns_of(cJSON_GetObjectItem(m, "makespan_us")));
    ck_assert_int_le(ts[n - 1], llround(cJSON_GetObjectItem(ad, "host_done_us")->valuedouble * 1000.0));
    cJSON_Delete(run);
    cJSON_Delete(j);
}
END_TEST

Suite *suite_perfetto(void)
{
    Suite *s = suite_create("perfetto");
    TCase *tc = tcase_create("perfetto");
    tcase_add_test(tc, the_validator_finds_each_kind_of_fault);
    tcase_add_test(tc, chain3_trace_has_the_slices_flows_and_counters_worked_by_hand);
    tcase_add_test(tc, hbm_counter_adds_the_running_streams_demands);
    tcase_add_test(tc, a_run_longer_than_the_record_limit_ends_at_its_horizon);
    tcase_add_test(tc, traces_of_the_shipped_graphs_are_valid);
    tcase_add_test(tc, a_blocked_orchestrator_shows_its_wait_inside_its_submit);
    tcase_add_test(tc, a_deadlocked_run_ends_with_its_unfinished_submit_and_wait);
    tcase_add_test(tc, every_site_is_escaped_once_and_a_long_one_where_it_goes);
    tcase_add_test(tc, a_failed_write_leaves_no_file);
    tcase_add_test(tc, perfetto_options_refuse_what_they_cannot_write);
    tcase_add_test(tc, an_unwritable_trace_file_is_exit_1_with_the_reason);
    tcase_add_test(tc, both_trace_files_are_the_same_bytes_run_after_run);
    tcase_add_test(tc, args_dump_counters_follow_the_arena_and_the_host_collector);
    tcase_add_test(tc, a_stalled_args_dump_shows_every_park_and_the_host_writing_after_the_kill);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    return s;
}
