/* run_report.c - report_: ptosim_run.json, name_map_<graph>.json and the stdout summary. */
#include "run_report.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../base/csv.h"
#include "../base/json_writer.h"
#include "../base/msg_text.h"
#include "../base/outfile.h"
#include "../runtime/run_config.h"
#include "../runtime/runtime_error.h"
#include "roofline.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void report_repeat_stats(double *v, int n, report_repeat *r)
{
    qsort(v, (size_t)n, sizeof(*v), cmp_double);
    double sum = 0, ss = 0;
    for (int i = 0; i < n; i++)
        sum += v[i];
    r->mean = sum / n;
    for (int i = 0; i < n; i++)
        ss += (v[i] - r->mean) * (v[i] - r->mean);
    r->sigma = n > 1 ? sqrt(ss / (n - 1)) : 0;
    r->min = v[0];
    r->max = v[n - 1];
    r->p50 = v[(n + 1) / 2 - 1];
}

bool report_inside_noise(double mean_a, double sigma_a, int na, double mean_b, double sigma_b, int nb)
{
    double se = sqrt(sigma_a * sigma_a / na + sigma_b * sigma_b / nb);
    return fabs(mean_a - mean_b) <= 2 * se;
}

const char *report_status_name(chip_status s)
{
    switch (s) {
    case CHIP_DONE:
        return "ok";
    case CHIP_FATAL:
        return "runtime_error";
    case CHIP_DEVICE_ERROR:
        return "device_error";
    case CHIP_STALLED:
        return "stalled";
    case CHIP_RUNNING:
        return "unfinished";
    case CHIP_ERROR:
    default:
        return "error";
    }
}

double report_busy_fraction(const chip *c, core_type type)
{
    ps_t busy = 0;
    int n = 0;
    for (int i = 0; i < c->ncores; i++)
        if (c->cores[i].type == type) {
            busy += c->cores[i].busy_ps;
            n++;
        }
    if (!n || !c->end_time)
        return 0;
    return (double)busy / ((double)c->end_time * n);
}

bool report_perturbed(const chip *c)
{
    return c->record_wb_delay > 0 || c->cfg.pmu_event_type != 0 ||
           (c->dump_on && (c->dump.copy_ps > 0 || c->dump.frozen_ps > 0));
}

/* Which profiling self-costs shaped this makespan (model/README.md §8.6, §9.2):
 * the AICore's swimlane record commit after every task, and the PMU's
 * single issue with early dispatch off. */
static void write_profiling(const chip *c, FILE *f)
{
    bool wb = c->cost.record_wb > 0, pmu = c->cfg.pmu_event_type != 0;
    uint64_t n = wb ? c->executions : 0;
    ps_t total = c->cost.record_wb * (ps_t)n; /* each core's first record is cold (model/README.md §9.2) */
    for (int k = 0; wb && k < c->ncores; k++)
        total += c->cores[k].executions > 0 ? c->cost.cold_record : 0;
    outfile_printf(f,
            "  \"profiling\": {\"perturbed\": %s, \"swimlane_record_writeback\": %s, "
            "\"record_writeback_us_per_task\": %.6f, \"record_writebacks\": %" PRIu64
            ", \"record_writeback_total_us\": %.6f, \"pickup_delay_us\": %.6f, \"pmu_single_issue\": %s, "
            "\"early_dispatch\": %s, \"args_dump_capture_us\": %.6f, \"args_dump_parked_us\": %.6f},\n",
            report_perturbed(c) ? "true" : "false", wb ? "true" : "false", us_from_ps(c->cost.record_wb), n,
            us_from_ps(total), us_from_ps(c->record_wb_delay), pmu ? "true" : "false",
            pmu ? "false" : "true", c->dump_on ? us_from_ps(c->dump.copy_ps) : 0.0,
            c->dump_on ? us_from_ps(dump_frozen_before(&c->dump, c->end_time)) : 0.0);
}

/* Busy fraction of pipe p over a kernel's pipe-model executions. */
static double pipe_fraction(const kernel_stats *ks, int p)
{
    return ks->window_cycles ? ks->busy_cycles[p] / (double)ks->window_cycles : 0;
}

static int busiest_pipe(const kernel_stats *ks)
{
    int best = 0;
    for (int p = 1; p < PIPE_COUNT; p++)
        if (ks->busy_cycles[p] > ks->busy_cycles[best])
            best = p;
    return best;
}

bool report_bottleneck(const chip *c, int *func, int *pipe, double *fraction)
{
    const kernel_stats *top = NULL;
    for (int f = 0; f < GRAPH_MAX_FUNC_ID; f++) {
        const kernel_stats *ks = &c->kstats[f];
        if (ks->pipe_executions && (!top || ks->core_ps > top->core_ps)) {
            top = ks;
            *func = f;
        }
    }
    if (!top)
        return false;
    *pipe = busiest_pipe(top);
    *fraction = pipe_fraction(top, *pipe);
    return true;
}

bool report_dump_bound(const chip *c)
{
    return c->dump_on && c->end_time > 0 &&
           (double)dump_frozen_before(&c->dump, c->end_time) >= REPORT_DUMP_BOUND_SHARE * (double)c->end_time;
}

static const char *kernel_name_of(int32_t func, void *arg)
{
    const graph_kernel *k = graph_kernel_by_id(&((const chip *)arg)->orch.g, func);
    return k ? k->name : NULL;
}

static const char *res_name_of(int32_t res)
{
    return orch_resource_name((orch_resource)res);
}

/* The makespan in named parts that add up to it (analysis/makespan_parts.h), in whole nanoseconds. Returns 0,
 * or -1 when out of memory. */
static int write_makespan_parts(const chip *c, FILE *f)
{
    mkp_result r;
    if (c->status != CHIP_DONE) {
        memset(&r, 0, sizeof(r));
        r.why = "the run did not finish";
    } else if (mkp_compute(&c->mk, c->end_time, c->orch.end_time, kernel_name_of, (void *)c, res_name_of, &r) != 0) {
        return -1;
    }
    outfile_printf(f, "  \"makespan_parts\": {\"unit\": \"ns\", \"makespan_ns\": %" PRId64 ", ",
                   (int64_t)(c->end_time / PS_PER_NS));
    if (!r.computed) {
        fputs("\"why\": ", f);
        jsonw_str(f, r.why);
        fputs(", \"parts\": null},\n", f);
        return 0;
    }
    outfile_printf(f, "\"path_tasks\": %" PRIu64 ", \"parts\": [", r.path_tasks);
    for (size_t i = 0; i < r.nparts; i++) {
        fputs(i ? ", {\"what\": " : "{\"what\": ", f);
        jsonw_str(f, r.parts[i].what);
        outfile_printf(f, ", \"ns\": %" PRId64 "}", r.parts[i].ns);
    }
    fputs("]},\n", f);
    mkp_result_free(&r);
    return 0;
}

/* Per kernel: executions, time on cores, contention, and (pipe model) how
 * busy each of its core's pipes was. */
static void write_kernels(const chip *c, FILE *f)
{
    fputs("  \"kernels\": [", f);
    int first = 1;
    for (int id = 0; id < GRAPH_MAX_FUNC_ID; id++) {
        const graph_kernel *k = graph_kernel_by_id(&c->orch.g, id);
        if (!k)
            continue;
        const kernel_stats *ks = &c->kstats[id];
        bool pipes = ks->pipe_executions > 0, aic = k->core == CORE_AIC;
        outfile_printf(f, "%s\n    {\"func_id\": %d, \"name\": ", first ? "" : ",", id);
        jsonw_str(f, k->name);
        outfile_printf(f,
                ", \"core\": \"%s\", \"cost_model\": \"%s\", \"executions\": %" PRIu64
                ", \"core_time_us\": %.6f, \"contention_stretch\": %.6f, \"pipe_busy_fraction\": ",
                aic ? "aic" : "aiv", k->cost.kind == COST_PIPES ? "pipes" : "flat", ks->executions,
                us_from_ps(ks->core_ps),
                ks->idle_mem_ps ? (double)ks->core_ps / (double)ks->idle_mem_ps : 1.0);
        if (pipes) {
            int n = 0;
            fputc('{', f);
            for (int p = 0; p < PIPE_COUNT; p++)
                if (pipe_on_core((pipe_id)p, aic))
                    outfile_printf(f, "%s\"%s\": %.6f", n++ ? ", " : "", pipe_name((pipe_id)p),
                            pipe_fraction(ks, p));
            int b = busiest_pipe(ks);
            outfile_printf(f, "}, \"busiest_pipe\": \"%s\", \"busiest_pipe_busy_fraction\": %.6f}",
                    pipe_name((pipe_id)b), pipe_fraction(ks, b));
        } else {
            fputs("null, \"busiest_pipe\": null, \"busiest_pipe_busy_fraction\": null}", f);
        }
        first = 0;
    }
    fputs(first ? "],\n" : "\n  ],\n", f);
    int func, pipe;
    double frac;
    if (report_bottleneck(c, &func, &pipe, &frac)) {
        outfile_printf(f, "  \"bottleneck\": {\"pipe\": \"%s\", \"func_id\": %d, \"kernel\": ",
                pipe_name((pipe_id)pipe), func);
        jsonw_str(f, graph_kernel_by_id(&c->orch.g, func)->name);
        outfile_printf(f, ", \"busy_fraction\": %.6f},\n", frac);
    } else {
        fputs("  \"bottleneck\": null,\n", f);
    }
    report_bound b;
    report_bound_of(c, &b);
    outfile_printf(f, "  \"bound\": {\"kind\": \"%s\", \"what\": ", report_bound_name(b.kind));
    jsonw_str(f, b.what);
    fputs(", \"text\": ", f);
    jsonw_str(f, b.text);
    fputs("},\n", f);
}

/* The die's shared HBM: traffic, mean bandwidth, time oversubscribed. */
static void write_hbm(const chip *c, FILE *f)
{
    double secs = (double)c->end_time / PS_PER_S;
    outfile_printf(f,
            "  \"hbm\": {\"bandwidth_gb_s\": %.3f, \"gm_bytes\": %" PRIu64
            ", \"mean_gb_s\": %.3f, \"saturated_us\": %.6f, \"reshares\": %" PRIu64 "},\n",
            c->plat.hbm_bw / 1e9, c->gm_bytes, secs > 0 ? (double)c->gm_bytes / secs / 1e9 : 0,
            us_from_ps(c->mem.saturated_ps), c->mem.reshares);
}

/* Args dump: what the device produced, what the host drained, how long the
 * scheduler threads were parked (model/README.md §14.3). */
static void write_dump(const chip *c, const report_info *ri, FILE *f)
{
    if (!c->dump_on) {
        fputs("  \"args_dump\": null,\n", f);
        return;
    }
    const dump_state *d = &c->dump;
    uint64_t truncated = 0;
    for (size_t i = 0; i < d->ad.n; i++)
        truncated += d->ad.recs[i].truncated;
    outfile_printf(f,
            "  \"args_dump\": {\"level\": %d, \"tasks\": %" PRIu64
            ", \"records\": %zu, \"payload_bytes\": %" PRIu64 ", \"written_bytes_at_device_end\": %" PRIu64
            ", \"drain_deficit_bytes\": %" PRIu64 ", \"written_bytes\": %" PRIu64
            ", \"drain_bytes_per_s\": %.0f, \"arena_bytes_per_thread\": %" PRIu64
            ", \"truncated_args\": %" PRIu64 ", \"dropped_records\": %" PRIu64
            ", \"reconciled_threads\": %d, \"aicpu_capture_us\": %.6f, \"frozen_us\": %.6f, "
            "\"frozen_in_makespan_us\": %.6f, \"killed_while_parked\": %s, "
            "\"host_done_us\": %.6f, \"threads\": [",
            d->level, d->tasks, d->ad.n, d->bytes, ri->dump_written_at_end,
            d->bytes > ri->dump_written_at_end ? d->bytes - ri->dump_written_at_end : 0, ri->dump_written,
            c->plat.host_collector_bw, d->p.arena, truncated, d->ad.dropped, ri->dump_reconciled,
            us_from_ps(d->copy_ps), us_from_ps(d->frozen_ps), us_from_ps(dump_frozen_before(d, c->end_time)),
            d->killed ? "true" : "false",
            ri->dump_host_done_s * 1e6);
    for (int t = 0; t < c->nsched; t++)
        outfile_printf(f,
                "%s{\"thread\": %d, \"payload_bytes\": %" PRIu64 ", \"parks\": %" PRIu64
                ", \"parked_us\": %.6f}",
                t ? ", " : "", t, d->th[t].produced_bytes, d->th[t].parks, us_from_ps(d->th[t].parked_ps));
    fputs("]},\n", f);
}

/* What the scheduler did that the swimlane does not count directly. */
static void write_scheduler(const chip *c, FILE *f)
{
    uint64_t dispatched = 0;
    for (int i = 0; i < c->nsched; i++)
        dispatched += c->sched.threads[i].dispatched;
    outfile_printf(f,
            "  \"scheduler\": {\"threads\": %d, \"dispatched_blocks\": %" PRIu64
            ", \"pending_slot_dispatches\": %" PRIu64 ", \"early_staged\": %" PRIu64
            ", \"early_doorbells\": %" PRIu64 ", \"sync_start_drains\": %" PRIu64
            ", \"drain_rounds\": %" PRIu64 "},\n",
            c->nsched, dispatched, c->pending_dispatches, c->early_staged, c->early_rung, c->drain.drains,
            c->drain.attempts_total);
}

/* The runtime's scheduler-overhead model of this run (overhead_model.h). Returns 0, or -1 when out of memory. */
static int write_overhead(const chip *c, FILE *f)
{
    ohm_result r;
    if (chip_overhead(c, &r) != 0)
        return -1;
    fputs("  \"overhead\": ", f);
    ohm_write_json(f, &r, EXEC_LOG_MAX, 2);
    fputs(",\n", f);
    ohm_result_free(&r);
    return 0;
}

/* A ring number, or null for the TensorMap (one pool for all rings). */
static void json_ring(FILE *f, int ring)
{
    if (ring < 0)
        fputs("null", f);
    else
        outfile_printf(f, "%d", ring);
}

/* The summary's ring facts for scripts: orchestrator_blocked_by, orchestrator_waiting_at_end, near_full. */
static void write_ring_limits(const chip *c, FILE *f)
{
    report_ring_res v[REPORT_RING_RES_MAX];
    int n = report_blocked_by(c, v);
    fputs("  \"orchestrator_blocked_by\": [", f);
    for (int i = 0; i < n; i++) {
        outfile_printf(f, "%s{\"ring\": ", i ? ", " : "");
        json_ring(f, v[i].ring);
        outfile_printf(f, ", \"resource\": \"%s\", \"us\": %.6f}", orch_resource_name(v[i].res),
                us_from_ps(v[i].ps));
    }
    fputs("],\n  \"orchestrator_waiting_at_end\": ", f);
    const orch *o = &c->orch;
    if (c->status != CHIP_DONE && o->blocked && o->blocked_since <= c->end_time) {
        fputs("{\"ring\": ", f);
        json_ring(f, o->res == RES_TENSORMAP ? -1 : o->blocked_ring);
        outfile_printf(f, ", \"resource\": \"%s\", \"since_us\": %.6f, \"us\": %.6f}", orch_resource_name(o->res),
                us_from_ps(o->blocked_since), us_from_ps(c->end_time - o->blocked_since));
    } else {
        fputs("null", f);
    }
    n = report_near_full(c, v);
    fputs(",\n  \"near_full\": [", f);
    for (int i = 0; i < n; i++) {
        const char *name, *unit, *knob, *flag;
        report_res_words(v[i].res, &name, &unit, &knob, &flag);
        outfile_printf(f, "%s{\"ring\": ", i ? ", " : "");
        json_ring(f, v[i].ring);
        if (v[i].ring < 0)
            fputs(", \"scope_depths\": null", f);
        else
            outfile_printf(f, ", \"scope_depths\": [%d, %d]", v[i].ring,
                    v[i].ring == RING_COUNT - 1 ? REPORT_SCOPE_DEPTH_MAX : v[i].ring);
        outfile_printf(f,
                ", \"resource\": \"%s\", \"peak\": %" PRIu64 ", \"capacity\": %" PRIu64
                ", \"knob\": \"%s\", \"flag\": \"%s\"}",
                orch_resource_name(v[i].res), v[i].peak, v[i].cap, knob, flag);
    }
    fputs("],\n", f);
}

int report_write_run(const chip *c, const report_info *ri, const char *path, char *err, size_t errlen)
{
    outfile of;
    FILE *f = outfile_open(&of, path, err, errlen);
    if (!f)
        return -1;
    const platform *p = &c->plat;
    fputs("{\n  \"ptosim_version\": ", f);
    jsonw_str(f, ri->version);
    fputs(",\n  \"graph\": {\"file\": ", f);
    jsonw_str(f, ri->graph_path);
    fputs(", \"sha256\": ", f);
    jsonw_str(f, ri->graph_sha256);
    fputs(", \"name\": ", f);
    jsonw_str(f, c->orch.g.name);
    outfile_printf(f, ", \"operations\": %ld},\n", c->orch.g.nops);

    fputs("  \"platform\": {\"name\": ", f);
    jsonw_str(f, p->name);
    fputs(", \"file\": ", f);
    jsonw_str(f, p->json_path[0] ? p->json_path : NULL);
    fputs(", \"simgrid_platform\": ", f);
    jsonw_str(f, p->xml_path[0] ? p->xml_path : NULL);
    fputs(", \"params\": {", f);
    for (size_t i = 0; i < platform_param_count(); i++) {
        char v[64];
        outfile_printf(f, "%s\"%s\": %s", i ? ", " : "", platform_param_name(i),
                platform_param_value(p, i, v, sizeof(v)));
    }
    fputs("}},\n", f);

    outfile_printf(
        f,
        "  \"config\": {\"enable_chip_swimlane\": %d, \"enable_dep_gen\": %s, \"enable_scope_stats\": %s, "
        "\"aicpu_thread_num\": %" PRId64 ", \"ring_task_window\": [",
        c->cfg.swimlane_level, c->cfg.dep_gen ? "true" : "false", c->cfg.scope_stats ? "true" : "false",
        p->aicpu_threads);
    for (int r = 0; r < RING_COUNT; r++)
        outfile_printf(f, "%s%" PRIu32, r ? ", " : "", c->cfg.ring_task_window[r]);
    fputs("], \"ring_heap\": [", f);
    for (int r = 0; r < RING_COUNT; r++)
        outfile_printf(f, "%s%" PRIu64, r ? ", " : "", c->cfg.ring_heap[r]);
    fputs("], \"ring_dep_pool\": [", f);
    for (int r = 0; r < RING_COUNT; r++)
        outfile_printf(f, "%s%" PRIu32, r ? ", " : "", c->cfg.ring_dep_pool[r]);
    fputs("], \"seed\": ", f);
    if (c->cfg.seeded)
        outfile_printf(f, "%" PRIu64, c->cfg.seed);
    else
        fputs("null", f);
    if (c->cfg.kernel_sets) { /* --kernel-set: the flags every submit of a kernel got, "NAME.FIELD": VALUE */
        fputs(", \"kernel_set\": {", f);
        int n = 0;
        for (int id = 0; id < GRAPH_MAX_FUNC_ID; id++)
            for (int fl = 0; fl < 2; fl++) {
                uint8_t v = fl ? c->cfg.kernel_early_resolve[id] : c->cfg.kernel_sync_start[id];
                const graph_kernel *k = graph_kernel_by_id(&c->orch.g, id);
                if (v == CHIP_FLAG_KEEP || !k)
                    continue;
                char key[GRAPH_NAME_MAX + 32];
                snprintf(key, sizeof(key), "%s.%s", k->name, fl ? "early_resolve" : "sync_start");
                fputs(n++ ? ", " : "", f);
                jsonw_str(f, key);
                fputs(v == CHIP_FLAG_TRUE ? ": true" : ": false", f);
            }
        fputc('}', f);
    }
    if (c->cfg.kernel_scales) { /* --kernel-scale: the factor on every task's time of a kernel, "NAME": F */
        fputs(", \"kernel_scale\": {", f);
        int n = 0;
        for (int id = 0; id < GRAPH_MAX_FUNC_ID; id++) {
            const graph_kernel *k = graph_kernel_by_id(&c->orch.g, id);
            char v[32];
            if (!c->cfg.kernel_scale[id] || !k)
                continue;
            fputs(n++ ? ", " : "", f);
            jsonw_str(f, k->name);
            outfile_printf(f, ": %s", runcfg_scale_text(c->cfg.kernel_scale[id], v, sizeof(v)));
        }
        fputc('}', f);
    }
    fputs("},\n  \"simgrid_cfg\": [", f);
    for (int i = 0; i < ri->nsg_cfg; i++) {
        fputs(i ? ", " : "", f);
        jsonw_str(f, ri->sg_cfg[i]);
    }
    fputs("],\n", f);

    outfile_printf(f, "  \"outcome\": {\"status\": \"%s\", \"exit_code\": %d, \"runtime_error\": ",
            report_status_name(c->status), ri->exit_code);
    if (c->status == CHIP_FATAL) {
        outfile_printf(f, "{\"code\": %d, \"name\": ", c->fatal_code);
        jsonw_str(f, rterr_name(c->fatal_code));
        fputs(", \"detail\": ", f);
        jsonw_str(f, rterr_detail(c->fatal_code));
        fputs(", \"hint\": ", f);
        jsonw_str(f, rterr_hint(c->fatal_code));
        fputc('}', f);
    } else {
        fputs("null", f);
    }
    fputs(", \"device_error\": ", f);
    if (c->status == CHIP_DEVICE_ERROR) {
        bool stars = c->device_code == 507018;
        outfile_printf(f, "{\"code\": %d, \"name\": ", c->device_code);
        jsonw_str(f, rterr_acl_name(c->device_code));
        fputs(", \"detail\": ", f);
        jsonw_str(f, rterr_acl_detail(c->device_code));
        outfile_printf(
            f,
            ", \"watchdog\": \"%s\", \"at_us\": %.6f, \"op_execute_timeout_us\": %ld, \"stars_credits\": %u, "
            "\"stars_deadline_us\": %.6f, \"stream_sync_timeout_ms\": %ld}",
            stars ? "stars_op_execute" : "stream_sync", us_from_ps(c->end_time), c->cfg.op_execute_timeout_us,
            c->stars_credits, us_from_ps(c->stars_deadline), c->cfg.stream_sync_timeout_ms);
    } else {
        fputs("null", f);
    }
    fputs(", \"message\": ", f);
    jsonw_str(f, c->status == CHIP_DONE ? NULL : c->message);
    fputs("},\n", f);

    outfile_printf(f, "  \"makespan_us\": %.6f,\n", us_from_ps(c->end_time));
    if (ri->repeat) {
        const report_repeat *rp = ri->repeat;
        outfile_printf(f,
                "  \"repeat\": {\"runs\": %d, \"seeds\": [%" PRIu64 ", %" PRIu64 "], \"not_ok\": %d, "
                "\"makespan_us\": {\"mean\": %.6f, \"sigma\": %.6f, \"min\": %.6f, \"p50\": %.6f, \"max\": "
                "%.6f}},\n",
                rp->runs, rp->seed0, rp->seed0 + (uint64_t)rp->runs - 1, rp->not_ok, rp->mean, rp->sigma,
                rp->min, rp->p50, rp->max);
    } else {
        fputs("  \"repeat\": null,\n", f);
    }
    outfile_printf(f, "  \"orchestrator_end_us\": %.6f,\n", us_from_ps(c->orch.end_time));
    if (write_makespan_parts(c, f) != 0) {
        outfile_abort(&of);
        snprintf(err, errlen, "out of memory computing the makespan parts");
        return -1;
    }
    outfile_printf(f,
            "  \"tasks\": {\"submitted\": %" PRIu64 ", \"completed\": %" PRIu64 ", \"kernel_tasks\": %" PRIu64
            ", \"aicore_executions\": %" PRIu64 "},\n",
            c->tasks_submitted, c->tasks_completed, c->kernel_tasks, c->executions);
    outfile_printf(f, "  \"busy_fraction\": {\"aic\": %.6f, \"aiv\": %.6f},\n", report_busy_fraction(c, CORE_AIC),
            report_busy_fraction(c, CORE_AIV));
    write_kernels(c, f);
    write_hbm(c, f);
    roof_write_json(c, f);
    fputs("  \"rings\": [", f);
    for (int r = 0; r < RING_COUNT; r++)
        outfile_printf(f,
                "%s\n    {\"ring\": %d, \"tasks\": %" PRIu32 ", \"task_window\": %" PRIu32
                ", \"task_window_peak\": %" PRIu64 ", \"heap\": %" PRIu64 ", \"heap_peak\": %" PRIu64
                ", \"dep_pool\": %" PRIu32 ", \"dep_pool_peak\": %" PRIu64 ", \"fanin_spill_peak\": %" PRIu64
                ", \"orchestrator_blocked_us\": %.6f}",
                r ? "," : "", r, c->rings[r].next_local, c->rings[r].window, c->rings[r].peak_active,
                c->heaps[r].cap, c->heaps[r].peak_used, c->cfg.ring_dep_pool[r], c->deppools[r].peak_used,
                c->spill_peak[r], us_from_ps(c->orch.blocked_ps[r]));
    outfile_printf(f, "\n  ],\n  \"tensormap\": {\"capacity\": %" PRIu32 ", \"peak\": %" PRIu32 "},\n",
            c->tm.capacity, c->tm.peak_used);
    /* what each ring held over simulated time, which scope stats cannot say (their samples have no time) */
    fputs("  \"ring_occupancy\": ", f);
    if (occ_write_json(f, &c->occ, c->end_time) != 0) {
        outfile_abort(&of);
        snprintf(err, errlen, "out of memory writing the ring occupancy");
        return -1;
    }
    fputs(",\n", f);
    fputs("  \"orchestrator_blocked_us\": {", f);
    for (int k = 1; k < RES_COUNT; k++)
        outfile_printf(f, "%s\"%s\": %.6f", k > 1 ? ", " : "", orch_resource_name((orch_resource)k),
                us_from_ps(c->orch.blocked_res_ps[k]));
    fputs("},\n", f);
    write_ring_limits(c, f);
    write_profiling(c, f);
    write_dump(c, ri, f);
    write_scheduler(c, f);
    if (write_overhead(c, f) != 0) {
        outfile_abort(&of);
        snprintf(err, errlen, "out of memory computing the overhead model");
        return -1;
    }
    fputs("  \"warnings\": [", f);
    for (int i = 0; i < ri->nwarnings; i++) {
        fputs(i ? ", " : "", f);
        jsonw_str(f, ri->warnings[i]);
    }
    fputs("],\n", f);
    fputs("  \"outputs\": [", f);
    for (int i = 0; i < ri->noutputs; i++) {
        fputs(i ? ", " : "", f);
        jsonw_str(f, ri->outputs[i]);
    }
    fputs("],\n", f);
    outfile_printf(f, "  \"simulator\": {\"events\": %" PRIu64 ", \"simgrid_clock_s\": %.12f, ", c->events,
            ri->simgrid_clock);
    if (ri->host_seconds >= 0) {
        double hs = ri->host_seconds > 1e-9 ? ri->host_seconds : 1e-9;
        outfile_printf(f,
                "\"host_seconds\": %.6f, \"tasks_per_host_second\": %.0f, "
                "\"events_per_host_second\": %.0f}\n",
                ri->host_seconds, (double)c->tasks_completed / hs, (double)c->events / hs);
    } else {
        fputs("\"host_seconds\": null, \"tasks_per_host_second\": null, "
              "\"events_per_host_second\": null}\n",
              f);
    }
    fputs("}\n", f);
    return outfile_commit(&of, err, errlen);
}

int report_write_name_map(const graph *g, const char *path, char *err, size_t errlen)
{
    outfile of;
    FILE *f = outfile_open(&of, path, err, errlen);
    if (!f)
        return -1;
    fputs("{\"level\": 2, \"orchestrator_name\": ", f);
    jsonw_str(f, g->orchestrator[0] ? g->orchestrator : NULL);
    fputs(", \"callable_id_to_name\": {", f);
    /* ascending func id, so the file does not depend on header order */
    int first = 1;
    for (int id = 0; id < GRAPH_MAX_FUNC_ID; id++) {
        const graph_kernel *k = graph_kernel_by_id(g, id);
        if (!k)
            continue;
        outfile_printf(f, "%s\"%d\": ", first ? "" : ", ", id);
        jsonw_str(f, k->name);
        first = 0;
    }
    fputs("}}\n", f);
    return outfile_commit(&of, err, errlen);
}

static void csv_rings(FILE *out, const uint64_t v[RING_COUNT])
{
    outfile_printf(out, ",%" PRIu64 "/%" PRIu64 "/%" PRIu64 "/%" PRIu64, v[0], v[1], v[2], v[3]);
}

const char report_csv_header[] =
    "graph,platform,ring_task_window,ring_heap,ring_dep_pool,status,code,exit,makespan_us,tasks_completed,"
    "task_window_peak,heap_peak,dep_pool_peak,tensormap_peak,blocked_us,blocked_task_window_us,"
    "blocked_heap_us,blocked_dep_pool_us,blocked_tensormap_us,aicpu_thread_num";

void report_csv(const chip *c, const report_info *ri, FILE *out, bool header)
{
    if (header)
        outfile_printf(out, "%s%s\n", report_csv_header,
                ri->repeat
                    ? ",repeat_runs,makespan_mean_us,makespan_sigma_us,makespan_min_us,makespan_p50_us,"
                      "makespan_max_us"
                    : "");
    uint64_t v[RING_COUNT];
    /* names are the user's text: a comma or a quote in one must not shift the columns */
    csv_put(out, c->orch.g.name);
    fputc(',', out);
    csv_put(out, c->plat.name);
    for (int r = 0; r < RING_COUNT; r++)
        v[r] = c->cfg.ring_task_window[r];
    csv_rings(out, v);
    csv_rings(out, c->cfg.ring_heap);
    for (int r = 0; r < RING_COUNT; r++)
        v[r] = c->cfg.ring_dep_pool[r];
    csv_rings(out, v);
    outfile_printf(out, ",%s,%d,%d,%.6f,%" PRIu64, report_status_name(c->status),
            c->status == CHIP_FATAL ? c->fatal_code : 0, ri->exit_code, us_from_ps(c->end_time),
            c->tasks_completed);
    for (int r = 0; r < RING_COUNT; r++)
        v[r] = c->rings[r].peak_active;
    csv_rings(out, v);
    for (int r = 0; r < RING_COUNT; r++)
        v[r] = c->heaps[r].peak_used;
    csv_rings(out, v);
    for (int r = 0; r < RING_COUNT; r++)
        v[r] = c->deppools[r].peak_used;
    csv_rings(out, v);
    outfile_printf(out, ",%" PRIu32, c->tm.peak_used);
    double b[RING_COUNT];
    for (int r = 0; r < RING_COUNT; r++)
        b[r] = us_from_ps(c->orch.blocked_ps[r]);
    outfile_printf(out, ",%.3f/%.3f/%.3f/%.3f", b[0], b[1], b[2], b[3]);
    outfile_printf(out, ",%.3f,%.3f,%.3f,%.3f,%d", us_from_ps(c->orch.blocked_res_ps[RES_TASK_WINDOW]),
            us_from_ps(c->orch.blocked_res_ps[RES_HEAP]), us_from_ps(c->orch.blocked_res_ps[RES_DEP_POOL]),
            us_from_ps(c->orch.blocked_res_ps[RES_TENSORMAP]), (int)c->plat.aicpu_threads);
    if (ri->repeat)
        outfile_printf(out, ",%d,%.6f,%.6f,%.6f,%.6f,%.6f", ri->repeat->runs - ri->repeat->not_ok, ri->repeat->mean,
                ri->repeat->sigma, ri->repeat->min, ri->repeat->p50, ri->repeat->max);
    fputc('\n', out);
}

/* The runtime's INFO line of the ring sizes in use (spec: "Ring buffer sizes: task_window=[a, b, c, d]
 * heap=[...] dep_pool=[...]"), printed before a failure whose hint cites it "above". */
static void print_ring_sizes(const chip *c, FILE *f)
{
    outfile_printf(f, "Ring buffer sizes: task_window=[");
    for (int r = 0; r < RING_COUNT; r++)
        outfile_printf(f, "%s%" PRIu32, r ? ", " : "", c->cfg.ring_task_window[r]);
    outfile_printf(f, "] heap=[");
    for (int r = 0; r < RING_COUNT; r++)
        outfile_printf(f, "%s%" PRIu64, r ? ", " : "", c->cfg.ring_heap[r]);
    outfile_printf(f, "] dep_pool=[");
    for (int r = 0; r < RING_COUNT; r++)
        outfile_printf(f, "%s%" PRIu32, r ? ", " : "", c->cfg.ring_dep_pool[r]);
    outfile_printf(f, "]\n");
}

void report_failure(const chip *c, FILE *f)
{
    if (c->status == CHIP_FATAL) {
        if (rterr_hint_cites_ring_sizes(c->fatal_code))
            print_ring_sizes(c, f);
        bool hint = rterr_print_failure(f, c->fatal_code) == 3;
        /* the host adds the scheduler timeout's sub_class= line (runtime_maker.cpp
         * validate_runtime_impl); every other code's diagnostic is in the device log */
        bool host_line = c->fatal_code == RTERR_SCHEDULER_TIMEOUT;
        if (host_line)
            outfile_printf(f, "%s\n", c->message);
        if (hint)
            outfile_printf(f, "ptosim: " RTERR_PAGE_NOTE "\n");
        if (rterr_ptosim_knob(c->fatal_code))
            outfile_printf(f, "ptosim: set it with %s\n", rterr_ptosim_knob(c->fatal_code));
        if (!host_line)
            outfile_printf(f, "ptosim: %s\n", c->message);
        if (c->note[0])
            outfile_printf(f, "ptosim: %s\n", c->note);
    } else if (c->status == CHIP_DEVICE_ERROR) {
        /* the host's lines after the watchdog: sync_stream_pair (device_runner_base.cpp) names
         * the failed sync, ACL_LOG_ERROR_DETAIL annotates the code, and
         * recover_device_or_mark_unusable (device_runner.cpp) marks the card for a reset */
        int rc = c->device_code;
        bool stream_sync = rc == 507046; /* then the message is the host's own line */
        if (stream_sync)
            outfile_printf(f, "%s\n", c->message);
        else
            outfile_printf(f, "aclrtSynchronizeStreamWithTimeout (AICPU) failed: %d\n", rc);
        if (rterr_acl_name(rc)) {
            outfile_printf(f, "ACL error detail: %d %s - %s\n", rc, rterr_acl_name(rc), rterr_acl_detail(rc));
            outfile_printf(f, "ACL error hint: %s. See docs/troubleshooting/device-error-codes.md\n",
                    rterr_acl_hint(rc));
        }
        outfile_printf(
            f,
            "AICore error %d: device drained, but force-resetting in finalize regardless (drain success does "
            "not prove the card is clean)\n",
            rc);
        if (rterr_acl_name(rc))
            outfile_printf(f, "ptosim: " RTERR_PAGE_NOTE "\n");
        if (!stream_sync)
            outfile_printf(f, "ptosim: [device] %s\n", c->message);
        /* Both watchdogs bound the whole graph (one AICPU launch, one stream sync): a run still
         * completing tasks when it fired, with no dump park holding it, was killed for its length */
        bool dump_held = c->dump_on && (c->dump.frozen_ps > 0 || c->dump.killed);
        if (!dump_held && c->tasks_completed > 0 && c->end_time >= c->last_completion &&
            c->end_time - c->last_completion <= c->cfg.scheduler_timeout)
            outfile_printf(f,
                    "ptosim: not a hang: a task completed %.3f us before the kill; the %s timeout bounds "
                    "the whole graph (%s), so silicon kills it too: raise %s\n",
                    us_from_ps(c->end_time - c->last_completion), stream_sync ? "stream-sync" : "op-execute",
                    stream_sync ? "one stream sync" : "one AICPU launch",
                    stream_sync ? "--stream-sync-timeout-ms"
                                : "--op-execute-timeout-us (and --stream-sync-timeout-ms above it)");
        else
            outfile_printf(f,
                    "ptosim: a %s kill is not proof of a deadlock: the run may simply be slow (see "
                    "ptosim_run.json: outcome.device_error, args_dump)\n",
                    stream_sync ? "stream-sync" : "STARS op-execute");
    } else if (c->status != CHIP_DONE) {
        outfile_printf(f, "ptosim: %s: %s\n", report_status_name(c->status), c->message);
    }
}

void report_critical_path(const cpath_result *c, uint64_t tick_hz, const char *indent, FILE *out)
{
    if (!c->computed || c->makespan <= 0 || !tick_hz)
        return;
    double ms = (double)c->makespan;
    outfile_printf(out, "%scritical path (critical_path): %" PRIu64 " task%s observed, compute %.1f%%, stall %.1f%%",
            indent, c->observed_tasks, c->observed_tasks == 1 ? "" : "s", 100 * (double)c->compute / ms,
            100 * (double)c->stall / ms);
    int shown = 0;
    bool done[CPATH_KINDS] = {false};
    for (int n = 0; n < CPATH_KINDS; n++) {
        int k = -1;
        for (int j = 0; j < CPATH_KINDS; j++)
            if (!done[j] && c->kind[j] && (k < 0 || c->kind[j] > c->kind[k]))
                k = j;
        if (k < 0)
            break;
        done[k] = true;
        outfile_printf(out, "%s%s %.1f%%", shown++ ? ", " : " (", cpath_kind_name((cpath_kind)k),
                100 * (double)c->kind[k] / ms);
    }
    outfile_printf(out, "%s; static CPM %.3f us over %" PRIu64 " task%s (%.1f%%)\n", shown ? ")" : "",
            (double)c->cpm * 1e6 / (double)tick_hz, c->cpm_tasks, c->cpm_tasks == 1 ? "" : "s",
            100 * (double)c->cpm / ms);
}

/* The overhead model's verdict, when the scheduler holds a noticeable share
 * of the makespan (sched_overhead_analysis's 8 % line between "compute/
 * dependency-bound" and "partially scheduler-limited"). */
static void summary_overhead(const chip *c, const report_bound *b, FILE *out)
{
    ohm_result r;
    if (chip_overhead(c, &r) != 0 || !r.computed) {
        ohm_result_free(&r);
        return;
    }
    double has = ohm_pct(&r, r.has_us);
    if (has >= REPORT_OVERHEAD_SHOWN_PCT) {
        fputs("  scheduler overhead:", out);
        static const char *const TY[2] = {"aic", "aiv"};
        for (int ty = 0; ty < 2; ty++)
            if (r.eng[ty].present)
                outfile_printf(out, " %s %.1f%%,", TY[ty], ohm_pct(&r, r.eng[ty].overhead_us));
        outfile_printf(out, " all %.1f%%, has %.1f%% of the makespan (a core idle while a ready task waits): %s",
                ohm_pct(&r, r.all_us), has, ohm_verdict(has));
        /* the overhead model's verdict is of its share alone: say when something else holds the makespan */
        if (b->kind != REPORT_BOUND_SCHEDULING && b->kind != REPORT_BOUND_NONE)
            outfile_printf(out, " by the overhead model's measure, but the makespan is held by %s (bottleneck above)",
                    b->what);
        fputc('\n', out);
        if (r.cp_span_us > 0 && c->status == CHIP_DONE) /* a run that did not finish has no such path */
            outfile_printf(out,
                    "  makespan-determining path (sched_overhead_analysis): %.3f us over %d hop%s, compute "
                    "%.1f%%, scheduler-injected %.1f%%, neither %.1f%%\n",
                    r.cp_span_us, r.cp_hops, r.cp_hops == 1 ? "" : "s", 100 * r.cp_exec_us / r.cp_span_us,
                    100 * r.cp_sched_us / r.cp_span_us, 100 * r.cp_other_us / r.cp_span_us);
        if (r.cp_span_us > 0 && c->status == CHIP_DONE && ohm_cp_over_100(r.cp_span_us, r.cp_sched_us))
            outfile_printf(out, "  (%s)\n", OHM_CP_OVER_100);
        /* the model sees idle cores and ready tasks; it cannot see why the threads did not dispatch */
        if (report_dump_bound(c))
            fputs(
                "  (the scheduler threads were parked by the args dump: that freeze is what the model counts "
                "as scheduler overhead here)\n",
                out);
    }
    report_critical_path(&r.tool, r.tick_hz, "  ", out);
    ohm_result_free(&r);
}

void report_res_words(orch_resource res, const char **name, const char **unit, const char **knob,
                      const char **flag)
{
    switch (res) {
    case RES_TASK_WINDOW:
        *name = "task window", *unit = "slots", *knob = "ring_task_window", *flag = "--ring-task-window";
        return;
    case RES_HEAP:
        *name = "heap", *unit = "bytes", *knob = "ring_heap", *flag = "--ring-heap";
        return;
    case RES_SPILL: /* the runtime sizes it as the ring's dep pool (pto_runtime2_init.cpp) */
        *name = "fanin spill pool", *unit = "entries", *knob = "ring_dep_pool", *flag = "--ring-dep-pool";
        return;
    case RES_TENSORMAP:
        *name = "TensorMap", *unit = "entries", *knob = "PTO2_TENSORMAP_POOL_SIZE",
        *flag = "--set tensormap_pool=N";
        return;
    default:
        *name = "dep pool", *unit = "entries", *knob = "ring_dep_pool", *flag = "--ring-dep-pool";
        return;
    }
}

/* Above REPORT_NEAR_FULL_PERMILLE of cap, peak x 1000 > cap x permille,
 * without the products (a heap may be near 2^63 bytes): with cap = 1000 q +
 * m, the right side is permille q x 1000 + permille m. */
static bool near_full(uint64_t peak, uint64_t cap)
{
    uint64_t q = cap / 1000, m = cap % 1000, base = REPORT_NEAR_FULL_PERMILLE * q;
    if (cap == 0 || peak < base)
        return false;
    uint64_t d = peak - base; /* now: d x 1000 > permille x m, where permille x m < 10^6 */
    return d > 1000 || d * 1000 > REPORT_NEAR_FULL_PERMILLE * m;
}

/* peak / cap in tenths of a percent, rounded down, so that a resource one
 * short of full never reads 100.0 %. */
static unsigned permille(uint64_t peak, uint64_t cap)
{
    if (peak >= cap)
        return 1000;
    unsigned pm = (unsigned)floor(1000.0 * (double)peak / (double)cap);
    return pm > 999 ? 999 : pm;
}

int report_near_full(const chip *c, report_ring_res *out)
{
    int n = 0;
    for (int r = 0; r < RING_COUNT; r++) {
        const struct {
            orch_resource res;
            uint64_t peak, cap;
        } v[4] = {{RES_TASK_WINDOW, c->rings[r].peak_active, c->rings[r].window},
                  {RES_HEAP, c->heaps[r].peak_used, c->heaps[r].cap},
                  {RES_DEP_POOL, c->deppools[r].peak_used, c->deppools[r].cap},
                  {RES_SPILL, c->spill_peak[r], c->cfg.ring_dep_pool[r]}};
        for (int k = 0; k < 4; k++) {
            /* a window of W holds at most W - 1 tasks (model/README.md §4.2): full below 90 % when W < 10 */
            bool full = near_full(v[k].peak, v[k].cap) ||
                        (v[k].res == RES_TASK_WINDOW && v[k].peak > 0 && v[k].peak + 1 >= v[k].cap);
            if (full)
                out[n++] = (report_ring_res){.ring = r, .res = v[k].res, .peak = v[k].peak, .cap = v[k].cap};
        }
    }
    if (near_full(c->tm.peak_used, c->tm.capacity))
        out[n++] = (report_ring_res){
            .ring = -1, .res = RES_TENSORMAP, .peak = c->tm.peak_used, .cap = c->tm.capacity};
    return n;
}

static int by_wait(const void *a, const void *b)
{
    const report_ring_res *x = a, *y = b;
    if (x->ps != y->ps)
        return x->ps < y->ps ? 1 : -1;
    if (x->ring != y->ring)
        return x->ring < y->ring ? -1 : 1;
    return (x->res > y->res) - (x->res < y->res);
}

int report_blocked_by(const chip *c, report_ring_res *out)
{
    int n = 0;
    ps_t tm = 0;
    for (int r = 0; r < RING_COUNT; r++)
        for (int k = RES_NONE + 1; k < RES_COUNT; k++) {
            ps_t ps = c->orch.blocked_rr_ps[r][k];
            if (k == RES_TENSORMAP)
                tm += ps;
            else if (ps > 0)
                out[n++] = (report_ring_res){.ring = r, .res = (orch_resource)k, .ps = ps};
        }
    if (tm > 0)
        out[n++] = (report_ring_res){.ring = -1, .res = RES_TENSORMAP, .ps = tm};
    qsort(out, (size_t)n, sizeof(*out), by_wait);
    return n;
}

/* "ring 2 heap", "the TensorMap" */
static void ring_res_name(char *buf, size_t len, int ring, orch_resource res)
{
    const char *name, *unit, *knob, *flag;
    report_res_words(res, &name, &unit, &knob, &flag);
    if (ring < 0)
        snprintf(buf, len, "the %s", name);
    else
        snprintf(buf, len, "ring %d %s", ring, name);
}

const char *report_bound_name(report_bound_kind k)
{
    static const char *const names[] = {"none",       "args_dump", "ring",         "submission", "hbm",
                                        "scheduling", "pipe",      "dependencies", "compute"};
    return k >= 0 && k < (int)(sizeof(names) / sizeof(names[0])) ? names[k] : "?";
}

void report_bound_of(const chip *c, report_bound *b)
{
    memset(b, 0, sizeof(*b));
    double span = (double)c->end_time;
    if (span <= 0)
        return;
    if (report_dump_bound(c)) {
        const dump_state *d = &c->dump;
        bool secs = c->end_time >= PS_PER_S; /* a dump-bound run is often seconds long */
        ps_t frozen = dump_frozen_before(d, c->end_time);
        b->kind = REPORT_BOUND_DUMP;
        snprintf(b->what, sizeof(b->what), "the args dump collector");
        snprintf(b->text, sizeof(b->text),
                 "the args dump collector: the scheduler threads were parked, all at once, %.3f %s of the %.3f %s "
                 "makespan (%.1f%%) waiting for the host to drain %.3f GB at %.0f MB/s",
                 secs ? sec_from_ps(frozen) : us_from_ps(frozen), secs ? "s" : "us",
                 secs ? sec_from_ps(c->end_time) : us_from_ps(c->end_time), secs ? "s" : "us",
                 100 * (double)frozen / span, (double)d->bytes / 1e9, c->plat.host_collector_bw / 1e6);
        return;
    }
    if (c->status != CHIP_DONE)
        return;
    const orch *o = &c->orch;
    ps_t blocked = o->blocked_ps[0] + o->blocked_ps[1] + o->blocked_ps[2] + o->blocked_ps[3];
    double late = (double)o->end_time / span;
    if (late >= REPORT_SUBMISSION_SHARE) {
        report_ring_res v[REPORT_RING_RES_MAX];
        int n = report_blocked_by(c, v);
        if (n > 0 && (double)blocked >= REPORT_RING_BLOCKED_SHARE * (double)o->end_time) {
            const char *name, *unit, *knob, *flag;
            report_res_words(v[0].res, &name, &unit, &knob, &flag);
            b->kind = REPORT_BOUND_RING;
            ring_res_name(b->what, sizeof(b->what), v[0].ring, v[0].res);
            snprintf(b->text, sizeof(b->text),
                     "%s: the orchestrator submitted until %.1f%% of the makespan and waited on it %.3f us (%.1f%% "
                     "of its time); %s %s, ptosim %s",
                     b->what, 100 * late, us_from_ps(v[0].ps), 100 * (double)v[0].ps / (double)o->end_time,
                     v[0].ring < 0 ? "the runtime's compile-time" : "RunConfig", knob, flag);
            return;
        }
        b->kind = REPORT_BOUND_SUBMISSION;
        snprintf(b->what, sizeof(b->what), "task submission");
        snprintf(b->text, sizeof(b->text),
                 "task submission: the orchestrator submitted until %.1f%% of the makespan (%.3f of %.3f us) and "
                 "waited on rings %.3f us of it; the cores were busy aic %.1f%%, aiv %.1f%% (fewer, larger tasks "
                 "shorten it)",
                 100 * late, us_from_ps(o->end_time), us_from_ps(c->end_time), us_from_ps(blocked),
                 100 * report_busy_fraction(c, CORE_AIC), 100 * report_busy_fraction(c, CORE_AIV));
        return;
    }
    if ((double)c->mem.saturated_ps >= REPORT_HBM_SHARE * span) {
        b->kind = REPORT_BOUND_HBM;
        snprintf(b->what, sizeof(b->what), "HBM");
        snprintf(b->text, sizeof(b->text),
                 "HBM: saturated %.3f us, %.1f%% of the makespan (%.0f GB/s shared by every core's GM traffic)",
                 us_from_ps(c->mem.saturated_ps), 100 * (double)c->mem.saturated_ps / span, c->plat.hbm_bw / 1e9);
        return;
    }
    ohm_result r;
    bool oh = chip_overhead(c, &r) == 0 && r.computed;
    if (oh && ohm_pct(&r, r.has_us) >= REPORT_SCHED_SHARE) {
        b->kind = REPORT_BOUND_SCHEDULING;
        snprintf(b->what, sizeof(b->what), "scheduling");
        snprintf(b->text, sizeof(b->text),
                 "scheduling: a core sat idle while a ready task waited to be dispatched %.1f%% of the makespan "
                 "(the overhead model's has), the orchestrator done at %.1f%%",
                 ohm_pct(&r, r.has_us), 100 * late);
        ohm_result_free(&r);
        return;
    }
    int func, pipe;
    double frac;
    if (report_bottleneck(c, &func, &pipe, &frac)) {
        const kernel_stats *ks = &c->kstats[func];
        const char *kn = graph_kernel_by_id(&c->orch.g, func)->name;
        b->kind = REPORT_BOUND_PIPE;
        snprintf(b->what, sizeof(b->what), "%s pipe of %.100s", pipe_name((pipe_id)pipe), kn);
        snprintf(b->text, sizeof(b->text), "%s pipe, busy %.1f%% of the %.3f us that %.200s (most time on cores) ran",
                 pipe_name((pipe_id)pipe), 100 * frac, us_from_ps(ks->core_ps), kn);
    } else if (oh && r.tool.computed && r.tool.makespan > 0 &&
               (double)r.tool.cpm >= REPORT_CPM_SHARE * (double)r.tool.makespan) {
        b->kind = REPORT_BOUND_DEPENDENCIES;
        if (r.tool.cpm_tasks == 1) /* no chain: one task alone is most of the run (its granularity) */
            snprintf(b->what, sizeof(b->what), "the longest task");
        else
            snprintf(b->what, sizeof(b->what), "the dependencies");
        if (r.tool.cpm_tasks == 1)
            snprintf(b->text, sizeof(b->text),
                     "the longest task: one task's %.3f us is %.1f%% of the span from the first kernel start to the "
                     "last end (smaller tasks would spread it over the cores)",
                     (double)r.tool.cpm * 1e6 / (double)r.tick_hz,
                     100 * (double)r.tool.cpm / (double)r.tool.makespan);
        else
            snprintf(b->text, sizeof(b->text),
                 "the dependencies: the longest chain of producers and consumers (the critical_path tool's static "
                 "CPM) is %.3f us over %" PRIu64 " task%s, %.1f%% of the span from the first kernel start to the "
                 "last end",
                 (double)r.tool.cpm * 1e6 / (double)r.tick_hz, r.tool.cpm_tasks, r.tool.cpm_tasks == 1 ? "" : "s",
                 100 * (double)r.tool.cpm / (double)r.tool.makespan);
    } else if (c->executions) {
        b->kind = REPORT_BOUND_COMPUTE;
        snprintf(b->what, sizeof(b->what), "the kernels' time");
        snprintf(b->text, sizeof(b->text),
                 "the kernels' time: the cores were busy aic %.1f%%, aiv %.1f%% (flat costs: no pipe model says "
                 "which pipe)",
                 100 * report_busy_fraction(c, CORE_AIC), 100 * report_busy_fraction(c, CORE_AIV));
    }
    ohm_result_free(&r);
}

/* The rings' part of the summary: what the orchestrator waited on, and every
 * resource that ran near full, with the knob that sizes it. */
static void summary_rings(const chip *c, FILE *out)
{
    report_ring_res v[REPORT_RING_RES_MAX];
    char what[64];
    int n = report_blocked_by(c, v);
    if (n > 0) {
        fputs("  orchestrator blocked by", out);
        for (int i = 0; i < n; i++) {
            ring_res_name(what, sizeof(what), v[i].ring, v[i].res);
            outfile_printf(out, "%s %s %.3f us", i ? "," : "", what, us_from_ps(v[i].ps));
        }
        fputc('\n', out);
    }
    const orch *o = &c->orch;
    if (c->status != CHIP_DONE && o->blocked && o->blocked_since <= c->end_time) {
        /* the wait the run ended in is in no total above */
        ring_res_name(what, sizeof(what), o->res == RES_TENSORMAP ? -1 : o->blocked_ring, o->res);
        outfile_printf(out, "  orchestrator still waiting on %s when the run ended, for %.3f us\n", what,
                us_from_ps(c->end_time - o->blocked_since));
    }
    n = report_near_full(c, v);
    for (int i = 0; i < n; i++) {
        const char *name, *unit, *knob, *flag;
        report_res_words(v[i].res, &name, &unit, &knob, &flag);
        unsigned pm = permille(v[i].peak, v[i].cap);
        if (v[i].ring < 0)
            outfile_printf(out,
                    "  near full: the %s, %" PRIu64 "/%" PRIu64
                    " %s at its peak (%u.%u%%): the runtime's compile-time %s, ptosim %s\n",
                    name, v[i].peak, v[i].cap, unit, pm / 10, pm % 10, knob, flag);
        else
            outfile_printf(out,
                    "  near full: ring %d (scope depth %d%s) %s, %" PRIu64 "/%" PRIu64
                    " %s at its peak (%u.%u%%): RunConfig %s, ptosim %s\n",
                    v[i].ring, v[i].ring, v[i].ring == RING_COUNT - 1 ? " and deeper" : "", name, v[i].peak,
                    v[i].cap, unit, pm / 10, pm % 10, knob, flag);
    }
}

void report_summary(const chip *c, const report_info *ri, FILE *out)
{
    /* names from the graph and the platform file, escaped as messages are: a summary is read on a terminal */
    char gname[4 * sizeof(c->orch.g.name)], pname[4 * sizeof(c->plat.name)], text[4 * 1024];
    msgtext_escape(gname, sizeof(gname), c->orch.g.name);
    msgtext_escape(pname, sizeof(pname), c->plat.name);
    outfile_printf(out, "ptosim: %s on %s: %s\n", gname, pname, report_status_name(c->status));
    if (c->status == CHIP_FATAL)
        outfile_printf(out, "  runtime error %d %s\n", c->fatal_code, rterr_name(c->fatal_code));
    if (c->status == CHIP_DEVICE_ERROR)
        outfile_printf(out, "  device error %d %s at %.6f s\n", c->device_code, rterr_acl_name(c->device_code),
                sec_from_ps(c->end_time));
    /* kernel_tasks counts submits, executions what ran: a killed run has many more of the first */
    outfile_printf(out,
            "  tasks %" PRIu64 "/%" PRIu64 " completed (%" PRIu64 " AICore task%s submitted, %" PRIu64
            " execution%s run), makespan %.3f us\n",
            c->tasks_completed, c->tasks_submitted, c->kernel_tasks, c->kernel_tasks == 1 ? "" : "s",
            c->executions, c->executions == 1 ? "" : "s", us_from_ps(c->end_time));
    outfile_printf(out, "  busy: aic %.1f%%, aiv %.1f%%; orchestrator blocked %.3f us\n",
            100 * report_busy_fraction(c, CORE_AIC), 100 * report_busy_fraction(c, CORE_AIV),
            us_from_ps(c->orch.blocked_ps[0] + c->orch.blocked_ps[1] + c->orch.blocked_ps[2] +
                       c->orch.blocked_ps[3]));
    summary_rings(c, out);
    report_bound b;
    report_bound_of(c, &b);
    if (b.kind != REPORT_BOUND_NONE) {
        msgtext_escape(text, sizeof(text), b.text);
        outfile_printf(out, "  bottleneck: %s\n", text);
    }
    if (b.kind == REPORT_BOUND_DUMP && c->dump.freeze_until > c->end_time) {
        bool secs = c->end_time >= PS_PER_S;
        ps_t past = c->dump.freeze_until - c->end_time;
        outfile_printf(out, "  (and still parked when the run ended: %.3f %s more, past the makespan)\n",
                secs ? sec_from_ps(past) : us_from_ps(past), secs ? "s" : "us");
    }
    int func, pipe;
    double frac;
    if (b.kind != REPORT_BOUND_PIPE && b.kind != REPORT_BOUND_DUMP && report_bottleneck(c, &func, &pipe, &frac)) {
        const kernel_stats *ks = &c->kstats[func];
        /* a run that did not finish: its pipes say how the executions that ran went, not what bound it */
        if (c->status != CHIP_DONE)
            outfile_printf(out, "  busiest pipe of the %" PRIu64 " execution%s that ran: ", c->executions,
                    c->executions == 1 ? "" : "s");
        else
            fputs("  busiest pipe: ", out);
        msgtext_escape(text, sizeof(text), graph_kernel_by_id(&c->orch.g, func)->name);
        outfile_printf(out, "%s pipe, busy %.1f%% of the %.3f us that %s (most time on cores) ran\n",
                pipe_name((pipe_id)pipe), 100 * frac, us_from_ps(ks->core_ps), text);
    }
    if (c->mem.saturated_ps > 0 && b.kind != REPORT_BOUND_HBM)
        outfile_printf(out, "  HBM saturated for %.3f us of the run (%.0f GB/s shared by every core's GM traffic)\n",
                us_from_ps(c->mem.saturated_ps), c->plat.hbm_bw / 1e9);
    if (c->record_wb_delay > 0)
        outfile_printf(
            out,
            "  profiling perturbed this makespan: swimlane record write-back (%.3f us per task) held task "
            "pickups back %.3f us in all (--set dfx_overhead=0 leaves it out)\n",
            us_from_ps(c->cost.record_wb), us_from_ps(c->record_wb_delay));
    if (c->cfg.pmu_event_type != 0)
        outfile_printf(out,
                "  profiling: PMU on, so single issue and no early dispatch (a PMU-off run may be faster)\n");
    if (c->dump_on && (c->dump.copy_ps > 0 || c->dump.frozen_ps > 0))
        outfile_printf(out,
                "  profiling perturbed this makespan: the args dump took %.3f us of the scheduler threads to "
                "capture and parked them %.3f us (a run without --dump-args is faster)\n",
                us_from_ps(c->dump.copy_ps), us_from_ps(dump_frozen_before(&c->dump, c->end_time)));
    if (ri->repeat)
        outfile_printf(out,
                "  makespan over %d runs (seeds %" PRIu64 "-%" PRIu64
                "%s): mean %.3f us, sigma %.3f, min %.3f, "
                "p50 %.3f, max %.3f\n",
                ri->repeat->runs, ri->repeat->seed0, ri->repeat->seed0 + (uint64_t)ri->repeat->runs - 1,
                ri->repeat->not_ok ? ", failed runs left out" : "", ri->repeat->mean, ri->repeat->sigma,
                ri->repeat->min, ri->repeat->p50, ri->repeat->max);
    if (c->cfg.seeded)
        outfile_printf(
            out,
            "  variation: seed %" PRIu64 ", each execution's kernel time (sigma %g), setup (%g) and record "
            "write-back (%g) drawn around their means\n",
            c->cfg.seed, c->plat.kernel_spread, c->plat.aicore_setup_spread, c->plat.aicore_record_spread);
    if (c->cfg.kernel_scales) { /* what makes this run's kernels another graph's */
        fputs("  kernel time scaled (--kernel-scale):", out);
        int n = 0;
        for (int id = 0; id < GRAPH_MAX_FUNC_ID; id++) {
            const graph_kernel *k = graph_kernel_by_id(&c->orch.g, id);
            char v[32];
            if (!c->cfg.kernel_scale[id] || !k)
                continue;
            msgtext_escape(text, sizeof(text), k->name);
            outfile_printf(out, "%s %s x%s", n++ ? "," : "", text,
                           runcfg_scale_text(c->cfg.kernel_scale[id], v, sizeof(v)));
        }
        fputc('\n', out);
    }
    summary_overhead(c, &b, out); /* the bound the summary printed above: computed once */
    if (ri->host_seconds >= 0)
        outfile_printf(out, "  simulated in %.3f s host time (%" PRIu64 " events, %.0f tasks/s)\n", ri->host_seconds,
                c->events, (double)c->tasks_completed / (ri->host_seconds > 1e-9 ? ri->host_seconds : 1e-9));
    /* last, where the eye lands: a setting the run did not use, said before the run scrolled it away */
    for (int i = 0; i < ri->nwarnings; i++) {
        msgtext_escape(text, sizeof(text), ri->warnings[i]);
        outfile_printf(out, "  WARNING: %s\n", text);
    }
}
