/* roofline.c - roof_: each kernel's arithmetic intensity and throughput against the die's roofline. */
#include "roofline.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../analysis/critical_path.h"
#include "../analysis/exec_log.h"
#include "../base/json_writer.h"
#include "../base/outfile.h"

void roof_ceilings_of(const platform *p, roof_ceilings *c)
{
    double hz = (double)p->aicore_freq_hz;
    c->aic_cores = (int)p->clusters;
    c->aiv_cores = 2 * (int)p->clusters;
    /* 16-bit elements: k steps cube_k_bytes / 2 a cycle, the vector unit vec_bytes_per_cycle / 2 lanes */
    double kstep = p->cube_k_bytes / 2 ? (double)(p->cube_k_bytes / 2) : 1;
    c->cube_peak = c->aic_cores * 2.0 * (double)p->cube_m * (double)p->cube_n * kstep * hz;
    c->vector_peak = c->aiv_cores * (p->vec_bytes_per_cycle / 2) * hz;
    c->hbm_bw = p->hbm_bw;
}

const char *roof_status_text(roof_status s, bool aic)
{
    switch (s) {
    case ROOF_OK:
        return "ok";
    case ROOF_NO_GM:
        return "no GM traffic";
    case ROOF_NO_WORK:
        return aic ? "no cube work" : "no vector work";
    case ROOF_NOT_RUN:
        return "not run";
    case ROOF_NO_PROFILE:
        return "no pipe profile";
    case ROOF_MEASURED:
        return "Perf-Sim profile: no operation count";
    case ROOF_CYCLES:
    default:
        return aic ? "cube given in cycles: no operation count"
                   : "vector given in cycles: no operation count";
    }
}

/* The key scripts test: one word per status. */
static const char *status_key(roof_status s)
{
    static const char *const k[] = {
        "ok", "no_gm_traffic", "no_work", "not_run", "no_pipe_profile", "perf_sim_profile", "cycles_only"};
    return s >= 0 && s < (int)(sizeof(k) / sizeof(k[0])) ? k[s] : "?";
}

void roof_kernel_of(const chip *c, const roof_ceilings *ce, int func, roof_kernel *out)
{
    memset(out, 0, sizeof(*out));
    const graph_kernel *k = graph_kernel_by_id(&c->orch.g, func);
    const kernel_stats *ks = &c->kstats[func];
    out->aic = k && k->core == CORE_AIC;
    out->busiest = -1;
    if (ks->pipe_executions && ks->window_cycles) {
        out->busiest = 0;
        for (int p = 1; p < PIPE_COUNT; p++)
            if (ks->busy_cycles[p] > ks->busy_cycles[out->busiest])
                out->busiest = p;
        out->busiest_fraction = ks->busy_cycles[out->busiest] / (double)ks->window_cycles;
    }
    if (!ks->executions) {
        out->status = ROOF_NOT_RUN;
        return;
    }
    if (!ks->pipe_executions) {
        out->status = ROOF_NO_PROFILE;
        return;
    }
    if (!ks->ops_executions) { /* why: the kernel's own cost says (a task's override of another form aside) */
        double ops, pc;
        bool measured = k && k->cost.kind == COST_PIPES &&
                        pipe_ops(&k->cost.pipe, &c->pipes.rates, &ops, &pc) == PIPE_OPS_MEASURED;
        out->status = measured ? ROOF_MEASURED : ROOF_CYCLES;
        return;
    }
    int cores = out->aic ? ce->aic_cores : ce->aiv_cores;
    double hz = (double)c->plat.aicore_freq_hz;
    out->counted = ks->ops_executions;
    out->ops = ks->ops;
    out->gm_bytes = (double)ks->ops_gm_bytes;
    out->time_us = us_from_ps(ks->ops_ps);
    if (ks->ops <= 0 || ks->ops_peak_cycles <= 0) {
        out->status = ROOF_NO_WORK;
        return;
    }
    /* the peak at the kernel's element sizes: its operations over the cycles one core needs for them at its
     * peak rate, on every core of its type */
    out->peak = ks->ops / ks->ops_peak_cycles * hz * cores;
    out->achieved = ks->ops_ps ? ks->ops / ((double)ks->ops_ps / PS_PER_S) * cores : 0;
    if (!ks->ops_gm_bytes) {
        out->status = ROOF_NO_GM;
        out->compute_bound = true;
        out->roof = out->peak;
    } else {
        out->status = ROOF_OK;
        out->intensity = ks->ops / (double)ks->ops_gm_bytes;
        double mem = out->intensity * ce->hbm_bw;
        out->compute_bound = mem >= out->peak;
        out->roof = out->compute_bound ? out->peak : mem;
    }
    out->roof_fraction = out->roof > 0 ? out->achieved / out->roof : 0;
}

/* ---- the critical path by kernel ---- */

typedef struct {
    uint64_t task;
    int64_t compute; /* ticks on the path */
    int64_t end;     /* the latest end among its executions seen so far */
    int32_t func;    /* that execution's kernel, -1 none */
} path_task;

typedef struct {
    path_task *v;
    size_t n, cap;
    bool oom;
} path_acc;

static void collect(void *ctx, uint64_t task, int64_t compute)
{
    path_acc *a = ctx;
    if (a->oom)
        return;
    if (a->n == a->cap) {
        size_t cap = a->cap ? 2 * a->cap : 64;
        path_task *v = realloc(a->v, cap * sizeof(*v));
        if (!v) {
            a->oom = true;
            return;
        }
        a->v = v;
        a->cap = cap;
    }
    a->v[a->n++] = (path_task){.task = task, .compute = compute, .end = INT64_MIN, .func = -1};
}

static int by_task(const void *a, const void *b)
{
    uint64_t x = ((const path_task *)a)->task, y = ((const path_task *)b)->task;
    return (x > y) - (x < y);
}

int roof_critical_path(const chip *c, double *path_us, double *span_us)
{
    for (int f = 0; f < GRAPH_MAX_FUNC_ID; f++)
        path_us[f] = 0;
    *span_us = 0;
    const exec_log *l = &c->oh;
    path_acc a = {0};
    cpath_result r;
    if (cpath_compute_visit(l, &r, collect, &a) != 0 || a.oom) {
        free(a.v);
        return -1;
    }
    if (!r.computed || r.makespan <= 0) {
        free(a.v);
        return 0;
    }
    /* a task's kernel: that of its execution that ended last (a MIX task runs one kernel per core) */
    qsort(a.v, a.n, sizeof(*a.v), by_task);
    for (size_t i = 0; i < l->nx; i++) {
        path_task key = {.task = l->x[i].task}, *t = bsearch(&key, a.v, a.n, sizeof(*a.v), by_task);
        if (t && l->x[i].end > t->end) {
            t->end = l->x[i].end;
            t->func = l->x[i].func;
        }
    }
    double hz = c->plat.sys_cnt_freq_hz;
    for (size_t i = 0; i < a.n; i++)
        if (a.v[i].func >= 0 && a.v[i].func < GRAPH_MAX_FUNC_ID)
            path_us[a.v[i].func] += (double)a.v[i].compute * 1e6 / hz;
    *span_us = (double)r.makespan * 1e6 / hz;
    free(a.v);
    return 1;
}

/* ---- ptosim_run.json ---- */

static void num_or_null(FILE *f, const char *key, bool known, const char *fmt, double v)
{
    outfile_printf(f, ", \"%s\": ", key);
    if (known)
        outfile_printf(f, fmt, v);
    else
        fputs("null", f);
}

void roof_write_json(const chip *c, FILE *f)
{
    roof_ceilings ce;
    roof_ceilings_of(&c->plat, &ce);
    double path_us[GRAPH_MAX_FUNC_ID], span_us = 0;
    int cpr = roof_critical_path(c, path_us, &span_us);
    if (cpr < 0) /* out of memory: the file is not committed rather than one without the shares */
        outfile_note_failure();
    bool cp = cpr > 0;
    outfile_printf(
        f,
        "  \"roofline\": {\"ceilings\": {\"element_bytes\": 2, \"aic_cores\": %d, \"aiv_cores\": %d, "
        "\"cube_peak_flop_per_s\": %.9g, \"vector_peak_op_per_s\": %.9g, \"hbm_bytes_per_s\": %.9g, "
        "\"cube_ridge_flop_per_byte\": %.9g, \"vector_ridge_op_per_byte\": %.9g, \"sources\": {"
        "\"cube_peak\": \"clusters (model/README.md \\u00a72.1) x 2 cube_m cube_n (cube_k_bytes / 2) per "
        "cycle (\\u00a710.1) x aicore_freq_hz (\\u00a71.3); a2a3: 353.9 TFLOP/s fp16, gitcode "
        "cann/ops-nn#6033\", \"vector_peak\": \"2 x clusters x vec_bytes_per_cycle / 2 lanes "
        "(\\u00a710.1) x aicore_freq_hz: one element operation per lane per cycle\", \"hbm_bw\": "
        "\"hbm_bw (model/README.md \\u00a712.1): CANN's migration guide via gitcode cann/ops-nn#6033\"}}, "
        "\"critical_path_span_us\": ",
        ce.aic_cores, ce.aiv_cores, ce.cube_peak, ce.vector_peak, ce.hbm_bw, ce.cube_peak / ce.hbm_bw,
        ce.vector_peak / ce.hbm_bw);
    if (cp)
        outfile_printf(f, "%.6f", span_us);
    else
        fputs("null", f);
    fputs(", \"kernels\": [", f);
    int first = 1;
    for (int id = 0; id < GRAPH_MAX_FUNC_ID; id++) {
        const graph_kernel *k = graph_kernel_by_id(&c->orch.g, id);
        if (!k)
            continue;
        roof_kernel rk;
        roof_kernel_of(c, &ce, id, &rk);
        bool counted = rk.status == ROOF_OK || rk.status == ROOF_NO_GM || rk.status == ROOF_NO_WORK;
        bool placed = rk.status == ROOF_OK || rk.status == ROOF_NO_GM;
        outfile_printf(f, "%s\n    {\"func_id\": %d, \"name\": ", first ? "" : ",", id);
        jsonw_str(f, k->name);
        outfile_printf(f, ", \"core\": \"%s\", \"status\": \"%s\", \"note\": \"%s\", \"ops_unit\": \"%s\"",
                       rk.aic ? "aic" : "aiv", status_key(rk.status), roof_status_text(rk.status, rk.aic),
                       rk.aic ? "flop" : "element_op");
        outfile_printf(f, ", \"executions_counted\": %" PRIu64, rk.counted);
        num_or_null(f, "ops", counted, "%.9g", rk.ops);
        num_or_null(f, "gm_bytes", counted, "%.0f", rk.gm_bytes);
        num_or_null(f, "arithmetic_intensity", rk.status == ROOF_OK, "%.9g", rk.intensity);
        num_or_null(f, "achieved_op_per_s", placed, "%.9g", rk.achieved);
        num_or_null(f, "peak_op_per_s", placed, "%.9g", rk.peak);
        num_or_null(f, "roof_op_per_s", placed, "%.9g", rk.roof);
        fputs(", \"bound\": ", f);
        fputs(!placed ? "null" : rk.compute_bound ? "\"compute\"" : "\"memory\"", f);
        num_or_null(f, "roof_fraction", placed, "%.6f", rk.roof_fraction);
        fputs(", \"busiest_pipe\": ", f);
        if (rk.busiest >= 0)
            outfile_printf(f, "\"%s\"", pipe_name((pipe_id)rk.busiest));
        else
            fputs("null", f);
        num_or_null(f, "busiest_pipe_busy_fraction", rk.busiest >= 0, "%.6f", rk.busiest_fraction);
        num_or_null(f, "critical_path_us", cp, "%.6f", path_us[id]);
        num_or_null(f, "critical_path_share", cp, "%.6f", span_us > 0 ? path_us[id] / span_us : 0);
        fputc('}', f);
        first = 0;
    }
    fputs(first ? "]},\n" : "\n  ]},\n", f);
}
