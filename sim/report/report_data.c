/* report_data.c - rd_: ptosim_run.json, the name map, sweep.csv; the readers the rd_ files share. */
#include "report_data.h"

#include <cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../model/base/csv.h"
#include "../../model/base/json_reader.h"
#include "../../model/base/readall.h"
#include "../../model/base/userdir.h"
#include "../../model/base/vec.h"
#include "report_data_int.h"

/* ------------------------------------------------------------------ */
/* Shared helpers                                                      */
/* ------------------------------------------------------------------ */

int rd_bad(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return RD_BAD;
}

/* Reads a whole file of kind into a NUL-terminated buffer. RD_ABSENT when it does not exist. */
int rd_slurp(const char *path, readall_kind kind, char **text, size_t *len, char *err, size_t errlen)
{
    FILE *f = readall_open(path); /* a FIFO would block the open */
    if (!f) {
        if (errno == ENOENT)
            return RD_ABSENT;
        return rd_bad(err, errlen, "%s: cannot read: %s", path, readall_why(errno));
    }
    char why[128];
    char *buf = readall(f, kind, len, why, sizeof(why));
    int e = errno;
    fclose(f);
    if (!buf)
        return rd_bad(err, errlen, "%s: cannot read: %s", path,
                      e == EFBIG ? why : e == ENOMEM ? "out of memory" : "I/O error");
    *text = buf;
    return RD_OK;
}

/* Appends one element to a growing array; false when out of memory. */
bool rd_grow(void **v, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return true;
    size_t ncap = *cap ? *cap * 2 : 256;
    void *nv = realloc(*v, ncap * size);
    if (!nv)
        return false;
    *v = nv;
    *cap = ncap;
    return true;
}

void rd_copy_str(char *dst, size_t n, const char *src)
{
    snprintf(dst, n, "%s", src ? src : "");
}

int rd_cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* ------------------------------------------------------------------ */
/* ptosim_run.json                                                     */
/* ------------------------------------------------------------------ */

static int field_bad(jctx *c, const char *field, const char *what)
{
    return rd_bad(c->err, c->errlen, "%s: %s: %s", c->path, field, what);
}

/* An object member that must be an object. */
static const cJSON *need_obj(jctx *c, const cJSON *o, const char *key, const char *field)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsObject(v)) {
        field_bad(c, field, "missing or not an object");
        return NULL;
    }
    return v;
}

static int need_num(jctx *c, const cJSON *o, const char *key, const char *field, double *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsNumber(v))
        return field_bad(c, field, "missing or not a number");
    *out = v->valuedouble;
    return 0;
}

static int need_u64(jctx *c, const cJSON *o, const char *key, const char *field, uint64_t *out)
{
    double d = 0;
    if (need_num(c, o, key, field, &d) != 0)
        return RD_BAD;
    if (d < 0 || d > 1.8e19)
        return field_bad(c, field, "not a non-negative integer");
    *out = (uint64_t)d;
    return 0;
}

/* d as an int for field, refused when no int holds it (casting such a double is undefined). */
static int to_int(jctx *c, const char *field, double d, int *out)
{
    if (!(d >= INT_MIN && d <= INT_MAX))
        return field_bad(c, field, "out of range");
    *out = (int)d;
    return 0;
}

/* Optional members: absent or null keeps the default; any other type is an error. */
static int opt_num(jctx *c, const cJSON *o, const char *key, const char *field, double *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!v || cJSON_IsNull(v))
        return 0;
    if (!cJSON_IsNumber(v))
        return field_bad(c, field, "not a number");
    *out = v->valuedouble;
    return 0;
}

static int opt_str(jctx *c, const cJSON *o, const char *key, const char *field, char *out, size_t n)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!v || cJSON_IsNull(v))
        return 0;
    if (!cJSON_IsString(v))
        return field_bad(c, field, "not a string");
    rd_copy_str(out, n, v->valuestring);
    return 0;
}

static int opt_bool(jctx *c, const cJSON *o, const char *key, const char *field, bool *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!v || cJSON_IsNull(v))
        return 0;
    if (!cJSON_IsBool(v))
        return field_bad(c, field, "not true or false");
    *out = cJSON_IsTrue(v);
    return 0;
}

/* An optional member that is an object or null; *out NULL when absent or null. */
static int opt_obj(jctx *c, const cJSON *o, const char *key, const char *field, const cJSON **out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    *out = NULL;
    if (!v || cJSON_IsNull(v))
        return 0;
    if (!cJSON_IsObject(v))
        return field_bad(c, field, "not an object or null");
    *out = v;
    return 0;
}

static int load_outcome(jctx *c, const cJSON *root, rd_run *r)
{
    const cJSON *o = need_obj(c, root, "outcome", "outcome");
    if (!o)
        return RD_BAD;
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(o, "status");
    if (!cJSON_IsString(st))
        return field_bad(c, "outcome.status", "missing or not a string");
    rd_copy_str(r->status, sizeof(r->status), st->valuestring);
    double d = 0;
    if (need_num(c, o, "exit_code", "outcome.exit_code", &d) != 0)
        return RD_BAD;
    if (to_int(c, "outcome.exit_code", d, &r->exit_code) != 0)
        return RD_BAD;
    const cJSON *e;
    if (opt_obj(c, o, "runtime_error", "outcome.runtime_error", &e) != 0)
        return RD_BAD;
    if (e) {
        r->rt_error = true;
        if (need_num(c, e, "code", "outcome.runtime_error.code", &d) != 0 ||
            opt_str(c, e, "name", "outcome.runtime_error.name", r->rt_name, sizeof(r->rt_name)) != 0 ||
            opt_str(c, e, "detail", "outcome.runtime_error.detail", r->rt_detail, sizeof(r->rt_detail)) !=
                0 ||
            opt_str(c, e, "hint", "outcome.runtime_error.hint", r->rt_hint, sizeof(r->rt_hint)) != 0)
            return RD_BAD;
        if (to_int(c, "outcome.runtime_error.code", d, &r->rt_code) != 0)
            return RD_BAD;
    }
    if (opt_obj(c, o, "device_error", "outcome.device_error", &e) != 0)
        return RD_BAD;
    if (e) {
        r->dev_error = true;
        if (need_num(c, e, "code", "outcome.device_error.code", &d) != 0 ||
            opt_str(c, e, "name", "outcome.device_error.name", r->dev_name, sizeof(r->dev_name)) != 0 ||
            opt_num(c, e, "at_us", "outcome.device_error.at_us", &r->dev_at_us) != 0 ||
            opt_str(c, e, "watchdog", "outcome.device_error.watchdog", r->dev_watchdog,
                    sizeof(r->dev_watchdog)) != 0 ||
            opt_num(c, e, "op_execute_timeout_us", "outcome.device_error.op_execute_timeout_us",
                    &r->op_timeout_us) != 0 ||
            opt_num(c, e, "stars_credits", "outcome.device_error.stars_credits", &r->stars_credits) != 0 ||
            opt_num(c, e, "stars_deadline_us", "outcome.device_error.stars_deadline_us",
                    &r->stars_deadline_us) != 0 ||
            opt_num(c, e, "stream_sync_timeout_ms", "outcome.device_error.stream_sync_timeout_ms",
                    &r->stream_sync_ms) != 0)
            return RD_BAD;
        if (to_int(c, "outcome.device_error.code", d, &r->dev_code) != 0)
            return RD_BAD;
    }
    return opt_str(c, o, "message", "outcome.message", r->message, sizeof(r->message));
}

static int load_kernels(jctx *c, const cJSON *root, rd_run *r)
{
    const cJSON *ks = cJSON_GetObjectItemCaseSensitive(root, "kernels");
    if (!ks || cJSON_IsNull(ks))
        return 0;
    if (!cJSON_IsArray(ks))
        return field_bad(c, "kernels", "not an array");
    int n = cJSON_GetArraySize(ks);
    r->kernels = calloc(n ? (size_t)n : 1, sizeof(*r->kernels));
    if (!r->kernels)
        return field_bad(c, "kernels", "out of memory");
    const cJSON *k;
    char f[128];
    cJSON_ArrayForEach(k, ks)
    {
        rd_kernel *kd = &r->kernels[r->nkernels];
        int i = r->nkernels;
        double d = 0;
        snprintf(f, sizeof(f), "kernels[%d]", i);
        if (!cJSON_IsObject(k))
            return field_bad(c, f, "not an object");
        snprintf(f, sizeof(f), "kernels[%d].func_id", i);
        if (need_num(c, k, "func_id", f, &d) != 0)
            return RD_BAD;
        if (to_int(c, f, d, &kd->func_id) != 0)
            return RD_BAD;
        snprintf(f, sizeof(f), "kernels[%d].name", i);
        if (opt_str(c, k, "name", f, kd->name, sizeof(kd->name)) != 0)
            return RD_BAD;
        char core[16] = "aiv";
        snprintf(f, sizeof(f), "kernels[%d].core", i);
        if (opt_str(c, k, "core", f, core, sizeof(core)) != 0)
            return RD_BAD;
        if (strcmp(core, "aic") != 0 && strcmp(core, "aiv") != 0)
            return field_bad(c, f, "not \"aic\" or \"aiv\"");
        kd->aic = strcmp(core, "aic") == 0;
        snprintf(f, sizeof(f), "kernels[%d].executions", i);
        if (need_u64(c, k, "executions", f, &kd->executions) != 0)
            return RD_BAD;
        snprintf(f, sizeof(f), "kernels[%d].core_time_us", i);
        if (need_num(c, k, "core_time_us", f, &kd->core_time_us) != 0)
            return RD_BAD;
        kd->busiest = -1;
        for (int p = 0; p < PIPE_COUNT; p++)
            kd->pipe[p] = -1;
        const cJSON *pb = cJSON_GetObjectItemCaseSensitive(k, "pipe_busy_fraction");
        snprintf(f, sizeof(f), "kernels[%d].pipe_busy_fraction", i);
        if (pb && !cJSON_IsNull(pb)) {
            if (!cJSON_IsObject(pb))
                return field_bad(c, f, "not an object or null");
            kd->has_pipes = true;
            const cJSON *m;
            cJSON_ArrayForEach(m, pb)
            {
                int p = 0;
                while (p < PIPE_COUNT && strcmp(pipe_name((pipe_id)p), m->string) != 0)
                    p++;
                snprintf(f, sizeof(f), "kernels[%d].pipe_busy_fraction.%s", i, m->string);
                if (p == PIPE_COUNT)
                    return field_bad(c, f, "not a pipe (scalar, mte1, mte2, mte3, cube, vector, fixpipe)");
                if (!cJSON_IsNumber(m) || m->valuedouble < 0)
                    return field_bad(c, f, "not a non-negative number");
                kd->pipe[p] = m->valuedouble;
                if (kd->busiest < 0 || m->valuedouble > kd->pipe[kd->busiest])
                    kd->busiest = p;
            }
        }
        r->nkernels++;
    }
    return 0;
}

static int load_rings(jctx *c, const cJSON *root, rd_run *r)
{
    const cJSON *rs = cJSON_GetObjectItemCaseSensitive(root, "rings");
    if (!cJSON_IsArray(rs) || cJSON_GetArraySize(rs) != RD_RINGS)
        return field_bad(c, "rings", "missing or not an array of 4 rings");
    static const char *const keys[] = {"task_window", "task_window_peak", "heap",
                                       "heap_peak",   "dep_pool",         "dep_pool_peak"};
    for (int i = 0; i < RD_RINGS; i++) {
        const cJSON *ri = cJSON_GetArrayItem(rs, i);
        rd_ring *g = &r->rings[i];
        uint64_t *dst[] = {&g->task_window, &g->task_window_peak, &g->heap,
                           &g->heap_peak,   &g->dep_pool,         &g->dep_pool_peak};
        char f[96];
        for (int k = 0; k < 6; k++) {
            snprintf(f, sizeof(f), "rings[%d].%s", i, keys[k]);
            if (need_u64(c, ri, keys[k], f, dst[k]) != 0)
                return RD_BAD;
        }
        snprintf(f, sizeof(f), "rings[%d].orchestrator_blocked_us", i);
        if (opt_num(c, ri, "orchestrator_blocked_us", f, &g->blocked_us) != 0)
            return RD_BAD;
    }
    return 0;
}

/* One distribution of the overhead model: n and the figures the page shows. */
static int load_dist(jctx *c, const cJSON *parent, const char *key, const char *field, rd_dist *d)
{
    const cJSON *o = need_obj(c, parent, key, field);
    char f[128];
    double n = 0;
    if (!o)
        return RD_BAD;
    static const char *const K[] = {"p50", "p90", "p99", "max", "mean"};
    double *v[] = {&d->p50, &d->p90, &d->p99, &d->max, &d->mean};
    snprintf(f, sizeof(f), "%s.n", field);
    if (need_num(c, o, "n", f, &n) != 0)
        return RD_BAD;
    d->n = n > 0 ? (uint64_t)n : 0;
    for (int i = 0; i < 5; i++) {
        snprintf(f, sizeof(f), "%s.%s", field, K[i]);
        if (need_num(c, o, K[i], f, v[i]) != 0)
            return RD_BAD;
    }
    return 0;
}

/* "overhead": the scheduler-overhead model (overhead_model.h), optional for runs written before it existed. */
static int load_overhead(jctx *c, const cJSON *root, rd_overhead *oh)
{
    const cJSON *o, *p, *sw, *g, *cp;
    if (opt_obj(c, root, "overhead", "overhead", &o) != 0)
        return RD_BAD;
    if (!o)
        return 0;
    oh->given = true;
    if (opt_bool(c, o, "computed", "overhead.computed", &oh->computed) != 0 ||
        opt_num(c, o, "limit_executions", "overhead.limit_executions", &oh->limit) != 0)
        return RD_BAD;
    if (!oh->computed)
        return 0;
    static const char *const TY[2] = {"aic", "aiv"};
    if (need_num(c, o, "window_us", "overhead.window_us", &oh->window_us) != 0 ||
        opt_str(c, o, "verdict", "overhead.verdict", oh->verdict, sizeof(oh->verdict)) != 0 ||
        !(p = need_obj(c, o, "overhead_pct", "overhead.overhead_pct")) ||
        need_num(c, p, "all", "overhead.overhead_pct.all", &oh->all_pct) != 0 ||
        need_num(c, p, "has", "overhead.overhead_pct.has", &oh->has_pct) != 0 ||
        !(sw = need_obj(c, o, "aicore_switch", "overhead.aicore_switch")))
        return RD_BAD;
    for (int ty = 0; ty < 2; ty++) {
        rd_switch *e = &oh->eng[ty];
        char f[128];
        snprintf(f, sizeof(f), "overhead.overhead_pct.%s", TY[ty]);
        e->overhead_pct = -1;
        if (opt_num(c, p, TY[ty], f, &e->overhead_pct) != 0)
            return RD_BAD;
        e->present = e->overhead_pct >= 0;
        const cJSON *x;
        snprintf(f, sizeof(f), "overhead.aicore_switch.%s", TY[ty]);
        if (opt_obj(c, sw, TY[ty], f, &x) != 0)
            return RD_BAD;
        if (!x)
            continue;
        static const char *const K[] = {"min_us_per_core", "mean_us_per_core",   "max_us_per_core",
                                        "us_per_event",    "during_overhead_us", "independent_us"};
        double *v[] = {&e->min_us, &e->mean_us, &e->max_us, &e->us_per_event, &e->during_us, &e->indep_us};
        for (int i = 0; i < 6; i++) {
            char fk[160];
            snprintf(fk, sizeof(fk), "%s.%s", f, K[i]);
            if (need_num(c, x, K[i], fk, v[i]) != 0)
                return RD_BAD;
        }
        char fc[160], fe[160];
        snprintf(fc, sizeof(fc), "%s.cores", f);
        snprintf(fe, sizeof(fe), "%s.events", f);
        if (need_u64(c, x, "cores", fc, &e->cores) != 0 || need_u64(c, x, "events", fe, &e->events) != 0)
            return RD_BAD;
    }
    if (load_dist(c, o, "head_us", "overhead.head_us", &oh->dist[0]) != 0 ||
        load_dist(c, o, "tail_us", "overhead.tail_us", &oh->dist[1]) != 0 ||
        !(g = need_obj(c, o, "gaps", "overhead.gaps")) ||
        load_dist(c, g, "steady_switch_us", "overhead.gaps.steady_switch_us", &oh->dist[2]) != 0 ||
        load_dist(c, g, "prev_tail_us", "overhead.gaps.prev_tail_us", &oh->dist[3]) != 0 ||
        load_dist(c, g, "setup_us", "overhead.gaps.setup_us", &oh->dist[4]) != 0 ||
        load_dist(c, g, "first_switch_us", "overhead.gaps.first_switch_us", &oh->dist[5]) != 0 ||
        load_dist(c, g, "wait_us", "overhead.gaps.wait_us", &oh->dist[6]) != 0 ||
        !(cp = need_obj(c, o, "critical_path", "overhead.critical_path")) ||
        need_num(c, cp, "hops", "overhead.critical_path.hops", &oh->cp_hops) != 0 ||
        need_num(c, cp, "span_us", "overhead.critical_path.span_us", &oh->cp_span_us) != 0 ||
        need_num(c, cp, "compute_us", "overhead.critical_path.compute_us", &oh->cp_compute_us) != 0 ||
        need_num(c, cp, "scheduler_us", "overhead.critical_path.scheduler_us", &oh->cp_sched_us) != 0 ||
        need_num(c, cp, "other_us", "overhead.critical_path.other_us", &oh->cp_other_us) != 0)
        return RD_BAD;
    const cJSON *t;
    if (opt_obj(c, o, "critical_path_tool", "overhead.critical_path_tool", &t) != 0)
        return RD_BAD;
    if (!t)
        return 0; /* runs written before ptosim computed the tool's figures */
    static const char *const TK[] = {"tasks",          "happens_before_edges", "makespan_us", "static_cpm_us",
                                     "static_cpm_tasks", "observed_tasks",     "compute_us",  "stall_us",
                                     "data_wait_us",   "core_wait_us",         "front_gap_us"};
    double *tv[] = {&oh->tool_tasks,          &oh->tool_hb_edges,   &oh->tool_makespan_us, &oh->tool_cpm_us,
                    &oh->tool_cpm_tasks,      &oh->tool_observed_tasks, &oh->tool_compute_us,
                    &oh->tool_stall_us,       &oh->tool_wait_us[0], &oh->tool_wait_us[1], &oh->tool_wait_us[2]};
    for (size_t i = 0; i < sizeof(TK) / sizeof(TK[0]); i++) {
        char f[96];
        snprintf(f, sizeof(f), "overhead.critical_path_tool.%s", TK[i]);
        if (need_num(c, t, TK[i], f, tv[i]) != 0)
            return RD_BAD;
    }
    oh->tool = true;
    return 0;
}

int rd_parse_overhead(const char *text, const char *what, rd_overhead *oh, char *err, size_t errlen)
{
    memset(oh, 0, sizeof(*oh));
    jctx c = {what, err, errlen};
    jsonl_error je;
    cJSON *root = jsonl_parse(text, strlen(text), &je);
    if (!root) {
        jsonl_message(err, errlen, what, text, &je, 0);
        return RD_BAD;
    }
    if (!cJSON_IsObject(root)) {
        cJSON_Delete(root);
        return rd_bad(err, errlen, "%s: not a JSON object", what);
    }
    int rc = load_overhead(&c, root, oh) == 0 ? RD_OK : RD_BAD;
    cJSON_Delete(root);
    return rc;
}

cJSON *rd_parse_json(const char *text, size_t len)
{
    return jsonl_parse(text, len, NULL);
}

int rd_load_name_map(const char *dir, char *graph, size_t n, rd_kernel **k, int *nk)
{
    *k = NULL;
    *nk = 0;
    graph[0] = '\0';
    int dfd = userdir_open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0); /* not through a link below DIR */
    DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
    if (!d) {
        if (dfd >= 0)
            close(dfd);
        return RD_ABSENT;
    }
    struct dirent *de;
    char best[NAME_MAX + 1] = "";
    while ((de = readdir(d)))
        if (strncmp(de->d_name, "name_map_", 9) == 0 && strlen(de->d_name) > 14 &&
            strcmp(de->d_name + strlen(de->d_name) - 5, ".json") == 0 && strcmp(de->d_name, best) > 0)
            snprintf(best, sizeof(best), "%s", de->d_name);
    closedir(d);
    if (!best[0])
        return RD_ABSENT;
    snprintf(graph, n, "%.*s", (int)(strlen(best) - 14), best + 9);
    char path[PATH_MAX + NAME_MAX + 2], *text, e[8];
    size_t len;
    snprintf(path, sizeof(path), "%s/%s", dir, best);
    if (rd_slurp(path, READALL_TABLE, &text, &len, e, sizeof(e)) != RD_OK)
        return RD_ABSENT;
    cJSON *root = jsonl_parse(text, len, NULL); /* strict, as import reads it: else the names stay unknown */
    free(text);
    const cJSON *map = cJSON_GetObjectItemCaseSensitive(root, "callable_id_to_name"), *m;
    int cnt = 0;
    cJSON_ArrayForEach(m, map) cnt += cJSON_IsString(m);
    if (cJSON_IsObject(map) && cnt && (*k = calloc((size_t)cnt, sizeof(**k))) != NULL) {
        cJSON_ArrayForEach(m, map)
        {
            char *end;
            long id = strtol(m->string, &end, 10);
            if (!cJSON_IsString(m) || *end || id < 0 || id > INT32_MAX)
                continue;
            rd_kernel *x = &(*k)[(*nk)++];
            x->func_id = (int)id;
            x->busiest = -1;
            rd_copy_str(x->name, sizeof(x->name), m->valuestring);
        }
    }
    cJSON_Delete(root);
    return RD_OK;
}

/* "args_dump": null without --dump-args (model/output/run_report.c write_dump). */
static int load_dump(jctx *c, const cJSON *root, rd_dump *d)
{
    const cJSON *o, *ths, *t;
    if (opt_obj(c, root, "args_dump", "args_dump", &o) != 0)
        return RD_BAD;
    if (!o)
        return 0;
    d->given = true;
    double level = 0, reconciled = 0;
    static const char *const K[] = {"tasks",
                                    "records",
                                    "payload_bytes",
                                    "written_bytes_at_device_end",
                                    "drain_deficit_bytes",
                                    "written_bytes",
                                    "arena_bytes_per_thread",
                                    "truncated_args",
                                    "dropped_records"};
    uint64_t *v[] = {&d->tasks,   &d->records, &d->payload_bytes, &d->written_at_end, &d->deficit,
                     &d->written, &d->arena,   &d->truncated,     &d->dropped};
    char f[96];
    for (int i = 0; i < 9; i++) {
        snprintf(f, sizeof(f), "args_dump.%s", K[i]);
        if (need_u64(c, o, K[i], f, v[i]) != 0)
            return RD_BAD;
    }
    if (need_num(c, o, "level", "args_dump.level", &level) != 0 ||
        need_num(c, o, "drain_bytes_per_s", "args_dump.drain_bytes_per_s", &d->drain_bps) != 0 ||
        need_num(c, o, "frozen_us", "args_dump.frozen_us", &d->frozen_us) != 0 ||
        opt_num(c, o, "host_done_us", "args_dump.host_done_us", &d->host_done_us) != 0 ||
        opt_num(c, o, "reconciled_threads", "args_dump.reconciled_threads", &reconciled) != 0 ||
        opt_bool(c, o, "killed_while_parked", "args_dump.killed_while_parked", &d->killed_parked) != 0)
        return RD_BAD;
    if (to_int(c, "args_dump.level", level, &d->level) != 0 ||
        to_int(c, "args_dump.reconciled_threads", reconciled, &d->reconciled) != 0)
        return RD_BAD;
    ths = cJSON_GetObjectItemCaseSensitive(o, "threads");
    if (!cJSON_IsArray(ths))
        return field_bad(c, "args_dump.threads", "missing or not an array");
    if (cJSON_GetArraySize(ths) > RD_MAX_THREADS) {
        snprintf(f, sizeof(f), "more than %d threads", RD_MAX_THREADS);
        return field_bad(c, "args_dump.threads", f);
    }
    cJSON_ArrayForEach(t, ths)
    {
        rd_dump_thread *th = &d->th[d->nthreads];
        char fb[96], fp[96], fu[96];
        snprintf(fb, sizeof(fb), "args_dump.threads[%d].payload_bytes", d->nthreads);
        snprintf(fp, sizeof(fp), "args_dump.threads[%d].parks", d->nthreads);
        snprintf(fu, sizeof(fu), "args_dump.threads[%d].parked_us", d->nthreads);
        if (!cJSON_IsObject(t)) {
            snprintf(f, sizeof(f), "args_dump.threads[%d]", d->nthreads);
            return field_bad(c, f, "not an object");
        }
        if (need_u64(c, t, "payload_bytes", fb, &th->bytes) != 0 ||
            need_u64(c, t, "parks", fp, &th->parks) != 0 ||
            need_num(c, t, "parked_us", fu, &th->parked_us) != 0)
            return RD_BAD;
        d->nthreads++;
    }
    return 0;
}

/* n non-negative integers of an array member into a malloc'd array. */
static int occ_array(jctx *c, const cJSON *o, const char *key, const char *field, int n, uint64_t **out)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, key), *v;
    char what[96];
    snprintf(what, sizeof(what), "missing or not an array of %d non-negative integers", n);
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != n)
        return field_bad(c, field, what);
    *out = malloc((n ? (size_t)n : 1) * sizeof(**out));
    if (!*out)
        return field_bad(c, field, "out of memory");
    int i = 0;
    cJSON_ArrayForEach(v, a)
    {
        if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble > 1.8e19)
            return field_bad(c, field, what);
        (*out)[i++] = (uint64_t)v->valuedouble;
    }
    return 0;
}

/* "ring_occupancy" (model/record/occupancy.c occ_write_json), optional for runs written before it existed. */
static int load_occ(jctx *c, const cJSON *root, rd_occ *oc)
{
    static const char *const RES[3] = {"task_window", "heap", "dep_pool"};
    const cJSON *o, *rings;
    double n = 0;
    if (opt_obj(c, root, "ring_occupancy", "ring_occupancy", &o) != 0)
        return RD_BAD;
    if (!o)
        return 0;
    oc->given = true;
    if (need_num(c, o, "bucket_us", "ring_occupancy.bucket_us", &oc->bucket_us) != 0 ||
        need_num(c, o, "buckets", "ring_occupancy.buckets", &n) != 0)
        return RD_BAD;
    if (!(oc->bucket_us > 0))
        return field_bad(c, "ring_occupancy.bucket_us", "not a positive number");
    if (n < 0 || n > 1e6 || n != (int)n)
        return field_bad(c, "ring_occupancy.buckets", "not a count of buckets");
    oc->n = (int)n;
    rings = cJSON_GetObjectItemCaseSensitive(o, "rings");
    if (!cJSON_IsArray(rings) || cJSON_GetArraySize(rings) != RD_RINGS)
        return field_bad(c, "ring_occupancy.rings", "missing or not an array of 4 rings");
    for (int g = 0; g < RD_RINGS; g++) {
        const cJSON *ring = cJSON_GetArrayItem(rings, g);
        char f[128];
        if (cJSON_IsNull(ring))
            continue;
        snprintf(f, sizeof(f), "ring_occupancy.rings[%d]", g);
        if (!cJSON_IsObject(ring))
            return field_bad(c, f, "not an object or null");
        oc->used[g] = true;
        for (int k = 0; k < 3; k++) {
            const cJSON *res;
            snprintf(f, sizeof(f), "ring_occupancy.rings[%d].%s", g, RES[k]);
            if (!(res = need_obj(c, ring, RES[k], f)))
                return RD_BAD;
            char fl[160], fh[160];
            snprintf(fl, sizeof(fl), "%s.low", f);
            snprintf(fh, sizeof(fh), "%s.high", f);
            if (occ_array(c, res, "low", fl, oc->n, &oc->lo[g][k]) != 0 ||
                occ_array(c, res, "high", fh, oc->n, &oc->hi[g][k]) != 0)
                return RD_BAD;
        }
    }
    return 0;
}

static int load_run_json(jctx *c, const cJSON *root, rd_run *r)
{
    if (!cJSON_IsObject(root))
        return rd_bad(c->err, c->errlen, "%s: not a JSON object", c->path);
    if (opt_str(c, root, "ptosim_version", "ptosim_version", r->version, sizeof(r->version)) != 0)
        return RD_BAD;
    const cJSON *o;
    if (opt_obj(c, root, "graph", "graph", &o) != 0 ||
        (o && opt_str(c, o, "name", "graph.name", r->graph, sizeof(r->graph)) != 0))
        return RD_BAD;
    if (opt_obj(c, root, "platform", "platform", &o) != 0 ||
        (o && opt_str(c, o, "name", "platform.name", r->platform, sizeof(r->platform)) != 0))
        return RD_BAD;
    if (o) {
        const cJSON *params;
        double d = 0;
        if (opt_obj(c, o, "params", "platform.params", &params) != 0 ||
            (params &&
             opt_num(c, params, "sys_cnt_origin_ticks", "platform.params.sys_cnt_origin_ticks", &d) != 0))
            return RD_BAD;
        if (d > 1.8e19)
            return field_bad(c, "platform.params.sys_cnt_origin_ticks", "out of range");
        r->origin_ticks = d > 0 ? (uint64_t)d : 0;
    }
    if (opt_obj(c, root, "config", "config", &o) != 0)
        return RD_BAD;
    if (o) {
        double d = 0;
        if (opt_num(c, o, "enable_chip_swimlane", "config.enable_chip_swimlane", &d) != 0 ||
            opt_bool(c, o, "enable_dep_gen", "config.enable_dep_gen", &r->dep_gen) != 0 ||
            opt_bool(c, o, "enable_scope_stats", "config.enable_scope_stats", &r->scope_stats) != 0)
            return RD_BAD;
        if (to_int(c, "config.enable_chip_swimlane", d, &r->swimlane_level) != 0)
            return RD_BAD;
    }
    if (load_outcome(c, root, r) != 0 ||
        need_num(c, root, "makespan_us", "makespan_us", &r->makespan_us) != 0 ||
        opt_num(c, root, "orchestrator_end_us", "orchestrator_end_us", &r->orch_end_us) != 0)
        return RD_BAD;
    if (!(o = need_obj(c, root, "tasks", "tasks")) ||
        need_u64(c, o, "submitted", "tasks.submitted", &r->submitted) != 0 ||
        need_u64(c, o, "completed", "tasks.completed", &r->completed) != 0 ||
        need_u64(c, o, "kernel_tasks", "tasks.kernel_tasks", &r->kernel_tasks) != 0 ||
        need_u64(c, o, "aicore_executions", "tasks.aicore_executions", &r->executions) != 0)
        return RD_BAD;
    if (!(o = need_obj(c, root, "busy_fraction", "busy_fraction")) ||
        need_num(c, o, "aic", "busy_fraction.aic", &r->busy_aic) != 0 ||
        need_num(c, o, "aiv", "busy_fraction.aiv", &r->busy_aiv) != 0)
        return RD_BAD;
    if (load_overhead(c, root, &r->oh) != 0 || load_kernels(c, root, r) != 0 ||
        load_dump(c, root, &r->dump) != 0)
        return RD_BAD;
    if (opt_obj(c, root, "bottleneck", "bottleneck", &o) != 0)
        return RD_BAD;
    if (o) {
        r->bottleneck = true;
        if (opt_str(c, o, "pipe", "bottleneck.pipe", r->bn_pipe, sizeof(r->bn_pipe)) != 0 ||
            opt_str(c, o, "kernel", "bottleneck.kernel", r->bn_kernel, sizeof(r->bn_kernel)) != 0 ||
            need_num(c, o, "busy_fraction", "bottleneck.busy_fraction", &r->bn_fraction) != 0)
            return RD_BAD;
    }
    if (opt_obj(c, root, "bound", "bound", &o) != 0)
        return RD_BAD;
    if (o && (opt_str(c, o, "kind", "bound.kind", r->bound_kind, sizeof(r->bound_kind)) != 0 ||
              opt_str(c, o, "what", "bound.what", r->bound_what, sizeof(r->bound_what)) != 0 ||
              opt_str(c, o, "text", "bound.text", r->bound_text, sizeof(r->bound_text)) != 0))
        return RD_BAD;
    if (load_rings(c, root, r) != 0 || load_occ(c, root, &r->occ) != 0)
        return RD_BAD;
    if (opt_obj(c, root, "tensormap", "tensormap", &o) != 0)
        return RD_BAD;
    if (o) {
        double cap = 0, peak = 0;
        if (opt_num(c, o, "capacity", "tensormap.capacity", &cap) != 0 ||
            opt_num(c, o, "peak", "tensormap.peak", &peak) != 0)
            return RD_BAD;
        r->tensormap_capacity = (uint64_t)cap;
        r->tensormap_peak = (uint64_t)peak;
    }
    if (opt_obj(c, root, "profiling", "profiling", &o) != 0 ||
        (o && (opt_bool(c, o, "perturbed", "profiling.perturbed", &r->perturbed) != 0 ||
               opt_bool(c, o, "pmu_single_issue", "profiling.pmu_single_issue", &r->pmu) != 0)))
        return RD_BAD;
    if (opt_obj(c, root, "hbm", "hbm", &o) != 0 ||
        (o && opt_num(c, o, "saturated_us", "hbm.saturated_us", &r->hbm_saturated_us) != 0))
        return RD_BAD;
    return 0;
}

int rd_load_run(const char *path, rd_run *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof(*r));
    char *text;
    size_t len;
    int rc = rd_slurp(path, READALL_RUN, &text, &len, err, errlen);
    if (rc != RD_OK)
        return rc;
    jsonl_error je;
    cJSON *root = jsonl_parse(text, len, &je);
    if (!root) {
        jsonl_message(err, errlen, path, text, &je, 0);
        free(text);
        return RD_BAD;
    }
    jctx c = {path, err, errlen};
    rc = load_run_json(&c, root, r);
    cJSON_Delete(root);
    free(text);
    if (rc != 0) {
        rd_run_free(r);
        return RD_BAD;
    }
    return RD_OK;
}

void rd_run_free(rd_run *r)
{
    free(r->kernels);
    r->kernels = NULL;
    r->nkernels = 0;
    for (int g = 0; g < RD_RINGS; g++)
        for (int k = 0; k < 3; k++) {
            free(r->occ.lo[g][k]);
            free(r->occ.hi[g][k]);
            r->occ.lo[g][k] = r->occ.hi[g][k] = NULL;
        }
}

/* ------------------------------------------------------------------ */
/* Line-oriented files                                                 */
/* ------------------------------------------------------------------ */

/* Cuts the next CSV record off *p in place: up to the first line break
 * outside quotes (a quoted field may hold line breaks, RFC 4180). *line is
 * the number of the next line to read; *start gets the record's first line.
 * NULL at the end. */
char *rd_next_record(char **p, int *line, int *start)
{
    char *s = *p;
    if (!s || !*s)
        return NULL;
    char *end = (char *)csv_record_end(s);
    *start = *line;
    for (const char *c = s; c < end; c++)
        *line += *c == '\n';
    (*line)++;
    *p = *end ? end + 1 : end;
    *end = '\0';
    return s;
}

int rd_quoting_bad(char *err, size_t errlen, const char *path, int line)
{
    return rd_bad(err, errlen,
                  "%s:%d: a quoted field is not closed, or text follows its closing quote (RFC 4180 quoting)",
                  path, line);
}

/* Splits a data record that started on line into f (max fields at most): RD_BAD when its quoting is
 * broken or it has another number of fields than the header's nh. */
int rd_split_row(const char *path, int line, char *rec, char **f, int max, int nh, char *err, size_t errlen)
{
    int n = csv_split(rec, f, max);
    if (n < 0)
        return rd_quoting_bad(err, errlen, path, line);
    if (n != nh)
        return rd_bad(err, errlen, "%s:%d: %d fields, the header has %d", path, line, n > max ? max : n, nh);
    return RD_OK;
}

bool rd_parse_u64(const char *s, uint64_t *v)
{
    if (!*s || *s < '0' || *s > '9')
        return false;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (*end || errno)
        return false;
    *v = x;
    return true;
}

bool rd_parse_int(const char *s, int *v)
{
    char *end;
    errno = 0;
    long x = strtol(s, &end, 10);
    if (!*s || *end || errno || x < INT32_MIN || x > INT32_MAX)
        return false;
    *v = (int)x;
    return true;
}

/* ------------------------------------------------------------------ */
/* sweep.csv                                                           */
/* ------------------------------------------------------------------ */

static const char *const KNOB_COLUMN[RD_KNOB_COLUMNS] = {"ring_task_window", "ring_heap", "ring_dep_pool",
                                                         "aicpu_thread_num"};
static const char *const BLOCKED_COLUMN[RD_RES_COUNT] = {"blocked_task_window_us", "blocked_heap_us",
                                                         "blocked_dep_pool_us", "blocked_tensormap_us"};

/* A non-negative number (microseconds). */
static bool parse_us(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return *s && !*end && !errno && *v >= 0 && *v == *v;
}

/* Cuts "a/b/c/d" in place into one part per ring; a single value stands for every ring. False for
 * another number of parts. */
static bool split_rings(char *s, char *part[RD_RINGS])
{
    int n = 0;
    part[n++] = s;
    for (char *p = s; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (n == RD_RINGS)
                return false;
            part[n++] = p + 1;
        }
    if (n != 1 && n != RD_RINGS)
        return false;
    for (int r = n; r < RD_RINGS; r++)
        part[r] = s;
    return true;
}

/* "a/b/c/d" microseconds per ring, or one value for every ring. */
static bool parse_ring_us(const char *s, double out[RD_RINGS])
{
    char copy[256], *part[RD_RINGS];
    rd_copy_str(copy, sizeof(copy), s);
    if (!split_rings(copy, part))
        return false;
    for (int r = 0; r < RD_RINGS; r++)
        if (!parse_us(part[r], &out[r]))
            return false;
    return true;
}

/* Index of the column named name in the header fields h[0 .. nh), or -1. */
static int column_of(char **h, int nh, const char *name)
{
    for (int i = 0; i < nh; i++)
        if (strcmp(h[i], name) == 0)
            return i;
    return -1;
}

/* "a/b/c/d" (per ring) or one value for every ring. */
static bool parse_rings(const char *s, uint64_t out[RD_RINGS])
{
    char copy[256], *part[RD_RINGS];
    rd_copy_str(copy, sizeof(copy), s);
    if (!split_rings(copy, part))
        return false;
    for (int r = 0; r < RD_RINGS; r++)
        if (!rd_parse_u64(part[r], &out[r]))
            return false;
    return true;
}

/* The columns `ptosim run --summary-csv` writes (with --repeat too): a column after the last of these is a
 * swept one (--set KEY, --kernel-set NAME.FIELD, gen.PARAM: sim/sweep/sweep.c). */
static const char *const RUN_COLUMN[] = {
    "graph",          "platform",        "ring_task_window",  "ring_heap",          "ring_dep_pool",
    "status",         "code",            "exit",              "makespan_us",        "tasks_completed",
    "task_window_peak", "heap_peak",     "dep_pool_peak",     "tensormap_peak",     "blocked_us",
    "blocked_task_window_us", "blocked_heap_us", "blocked_dep_pool_us", "blocked_tensormap_us",
    "aicpu_thread_num", "repeat_runs",   "makespan_mean_us",  "makespan_sigma_us",  "makespan_min_us",
    "makespan_p50_us", "makespan_max_us"};

static bool run_column(const char *name)
{
    for (size_t i = 0; i < sizeof(RUN_COLUMN) / sizeof(RUN_COLUMN[0]); i++)
        if (strcmp(name, RUN_COLUMN[i]) == 0)
            return true;
    return false;
}

/* A swept column's value: its index among the column's values so far (added when new), or -1 when out of
 * memory. */
static int extra_value(rd_sweep *sw, int e, const char *v, size_t *cap)
{
    for (int i = 0; i < sw->nextra_val[e]; i++)
        if (strcmp(sw->extra_val[e][i], v) == 0)
            return i;
    if (!rd_grow((void **)&sw->extra_val[e], cap, (size_t)sw->nextra_val[e], sizeof(*sw->extra_val[e])))
        return -1;
    rd_copy_str(sw->extra_val[e][sw->nextra_val[e]], RD_VALUE_MAX, v);
    return sw->nextra_val[e]++;
}

/* Is s a whole finite number? */
static bool whole_number(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return *s && !*end && !errno && *v == *v;
}

/* Puts each swept column's values in order (numeric when every value is a number, else text) and turns the
 * rows' first-seen indices into ranks. */
static int sort_extra(rd_sweep *sw)
{
    for (int e = 0; e < sw->nextra; e++) {
        int n = sw->nextra_val[e];
        int *order = malloc((size_t)(n ? n : 1) * sizeof(*order)),
            *rank = malloc((size_t)(n ? n : 1) * sizeof(*rank));
        char(*sorted)[RD_VALUE_MAX] = malloc((size_t)(n ? n : 1) * sizeof(*sorted));
        if (!order || !rank || !sorted) {
            free(order);
            free(rank);
            free(sorted);
            return -1;
        }
        bool numeric = true;
        double dv;
        for (int i = 0; i < n; i++) {
            order[i] = i;
            numeric &= whole_number(sw->extra_val[e][i], &dv);
        }
        for (int i = 1; i < n; i++) /* insertion sort: a sweep's list has a few values */
            for (int j = i; j > 0; j--) {
                const char *a = sw->extra_val[e][order[j - 1]], *b = sw->extra_val[e][order[j]];
                double x = 0, y = 0;
                if (numeric) {
                    whole_number(a, &x);
                    whole_number(b, &y);
                }
                if (numeric ? x <= y : strcmp(a, b) <= 0)
                    break;
                int t = order[j];
                order[j] = order[j - 1];
                order[j - 1] = t;
            }
        for (int i = 0; i < n; i++) {
            rank[order[i]] = i;
            memcpy(sorted[i], sw->extra_val[e][order[i]], RD_VALUE_MAX);
        }
        for (size_t r = 0; r < sw->nrows; r++)
            sw->rows[r].extra[e] = (uint32_t)rank[sw->rows[r].extra[e]];
        free(sw->extra_val[e]);
        sw->extra_val[e] = sorted;
        free(order);
        free(rank);
    }
    return 0;
}

int rd_load_sweep(const char *path, rd_sweep *sw, char *err, size_t errlen)
{
    enum { C_GRAPH, C_PLATFORM, C_TW, C_HEAP, C_DEP, C_STATUS, C_CODE, C_EXIT, C_MAKESPAN, C_NEED };
    static const char *const need[C_NEED] = {"graph",     "platform",      "ring_task_window",
                                             "ring_heap", "ring_dep_pool", "status",
                                             "code",      "exit",          "makespan_us"};
#define SWEEP_MAX_COLUMNS 64
    memset(sw, 0, sizeof(*sw));
    char *text;
    size_t len, cap = 0, gcap = 0, vcap[RD_MAX_EXTRA] = {0};
    int rc = rd_slurp(path, READALL_SWEEP, &text, &len, err, errlen);
    if (rc != RD_OK)
        return rc;
    char *p = text, *l, *f[SWEEP_MAX_COLUMNS + 1];
    int col[C_NEED], next = 1, line = 1, nh, col_threads, col_blocked, col_res[RD_RES_COUNT], col_rep[3],
        col_extra[RD_MAX_EXTRA], last_run = -1;
    if ((l = rd_next_record(&p, &next, &line)) == NULL || !l[strspn(l, "\r")]) {
        rc = rd_bad(err, errlen, "%s:1: no header line (the file is empty)", path);
        goto out;
    }
    nh = csv_split(l, f, SWEEP_MAX_COLUMNS);
    if (nh < 0) {
        rc = rd_quoting_bad(err, errlen, path, line);
        goto out;
    }
    if (nh > SWEEP_MAX_COLUMNS) {
        rc = rd_bad(err, errlen, "%s:1: header: more than %d columns", path, SWEEP_MAX_COLUMNS);
        goto out;
    }
    for (int c = 0; c < C_NEED; c++) {
        col[c] = -1;
        for (int i = 0; i < nh && col[c] < 0; i++)
            if (strcmp(f[i], need[c]) == 0)
                col[c] = i;
        if (col[c] < 0) {
            rc = rd_bad(err, errlen,
                        "%s:1: header: no %s column (expected the columns of ptosim run --summary-csv)", path,
                        need[c]);
            goto out;
        }
    }
    /* columns later versions of --summary-csv added: optional */
    col_threads = column_of(f, nh, "aicpu_thread_num");
    col_blocked = column_of(f, nh, "blocked_us");
    sw->has_threads = col_threads >= 0;
    sw->has_blocked = col_blocked >= 0;
    sw->has_blocked_res = true;
    for (int k = 0; k < RD_RES_COUNT; k++)
        sw->has_blocked_res &= (col_res[k] = column_of(f, nh, BLOCKED_COLUMN[k])) >= 0;
    static const char *const REP[3] = {"repeat_runs", "makespan_mean_us", "makespan_sigma_us"};
    sw->has_repeat = true;
    for (int k = 0; k < 3; k++)
        sw->has_repeat &= (col_rep[k] = column_of(f, nh, REP[k])) >= 0;
    for (int i = 0; i < nh; i++)
        if (run_column(f[i]))
            last_run = i;
    for (int i = last_run + 1; i < nh; i++) {
        if (sw->nextra == RD_MAX_EXTRA) {
            rc = rd_bad(err, errlen, "%s:1: header: more than %d swept columns past the run's own", path,
                        RD_MAX_EXTRA);
            goto out;
        }
        if (strlen(f[i]) >= RD_VALUE_MAX) {
            rc = rd_bad(err, errlen, "%s:1: header: column %d: a name longer than %d characters", path, i + 1,
                        RD_VALUE_MAX - 1);
            goto out;
        }
        col_extra[sw->nextra] = i;
        rd_copy_str(sw->extra_name[sw->nextra++], RD_VALUE_MAX, f[i]);
    }
    while ((l = rd_next_record(&p, &next, &line)) != NULL) {
        if (!l[strspn(l, "\r")])
            continue;
        if ((rc = rd_split_row(path, line, l, f, SWEEP_MAX_COLUMNS, nh, err, errlen)) != RD_OK)
            goto out;
        if (!rd_grow((void **)&sw->rows, &cap, sw->nrows, sizeof(*sw->rows))) {
            rc = rd_bad(err, errlen, "%s: out of memory", path);
            goto out;
        }
        if (strcmp(f[col[C_STATUS]], "missing") == 0)
            continue; /* a point that gave no row (ptosim sweep): nothing to draw */
        rd_row *r = &sw->rows[sw->nrows];
        memset(r, 0, sizeof(*r));
        r->line = line;
        for (int k = 0; k < RD_KNOB_THREADS; k++) {
            int c = col[C_TW + k];
            if (!parse_rings(f[c], r->knob[k])) {
                rc = rd_bad(err, errlen, "%s:%d: %s: \"%s\" is not N or N/N/N/N", path, line, need[C_TW + k],
                            f[c]);
                goto out;
            }
        }
        if (sw->has_threads) {
            uint64_t t;
            if (!rd_parse_u64(f[col_threads], &t)) {
                rc = rd_bad(err, errlen, "%s:%d: aicpu_thread_num: \"%s\" is not an unsigned integer", path,
                            line, f[col_threads]);
                goto out;
            }
            for (int g = 0; g < RD_RINGS; g++)
                r->knob[RD_KNOB_THREADS][g] = t;
        }
        if (sw->has_blocked && !parse_ring_us(f[col_blocked], r->blocked)) {
            rc = rd_bad(err, errlen, "%s:%d: blocked_us: \"%s\" is not N or N/N/N/N microseconds", path, line,
                        f[col_blocked]);
            goto out;
        }
        for (int k = 0; sw->has_blocked_res && k < RD_RES_COUNT; k++)
            if (!parse_us(f[col_res[k]], &r->blocked_res[k])) {
                rc = rd_bad(err, errlen, "%s:%d: %s: \"%s\" is not a non-negative number", path, line,
                            BLOCKED_COLUMN[k], f[col_res[k]]);
                goto out;
            }
        if (sw->has_repeat && (!rd_parse_int(f[col_rep[0]], &r->runs) || r->runs < 0)) {
            rc = rd_bad(err, errlen, "%s:%d: repeat_runs: \"%s\" is not a non-negative integer", path, line,
                        f[col_rep[0]]);
            goto out;
        }
        for (int k = 1; sw->has_repeat && k < 3; k++)
            if (!parse_us(f[col_rep[k]], k == 1 ? &r->mean_us : &r->sigma_us)) {
                rc = rd_bad(err, errlen, "%s:%d: %s: \"%s\" is not a non-negative number", path, line, REP[k],
                            f[col_rep[k]]);
                goto out;
            }
        for (int e = 0; e < sw->nextra; e++) {
            const char *v = f[col_extra[e]];
            if (strlen(v) >= RD_VALUE_MAX) {
                rc = rd_bad(err, errlen, "%s:%d: %s: a value longer than %d characters", path, line,
                            sw->extra_name[e], RD_VALUE_MAX - 1);
                goto out;
            }
            int vi = extra_value(sw, e, v, &vcap[e]);
            if (vi < 0) {
                rc = rd_bad(err, errlen, "%s: out of memory", path);
                goto out;
            }
            r->extra[e] = (uint32_t)vi;
        }
        rd_copy_str(r->status, sizeof(r->status), f[col[C_STATUS]]);
        if (!r->status[0]) {
            rc = rd_bad(err, errlen, "%s:%d: status: empty", path, line);
            goto out;
        }
        if (!rd_parse_int(f[col[C_CODE]], &r->code)) {
            rc = rd_bad(err, errlen, "%s:%d: code: \"%s\" is not an integer", path, line, f[col[C_CODE]]);
            goto out;
        }
        if (!rd_parse_int(f[col[C_EXIT]], &r->exit)) {
            rc = rd_bad(err, errlen, "%s:%d: exit: \"%s\" is not an integer", path, line, f[col[C_EXIT]]);
            goto out;
        }
        char *end;
        const char *ms = f[col[C_MAKESPAN]];
        errno = 0;
        r->makespan_us = strtod(ms, &end);
        if (!*ms || *end || errno || r->makespan_us < 0 || r->makespan_us != r->makespan_us) {
            rc = rd_bad(err, errlen, "%s:%d: makespan_us: \"%s\" is not a non-negative number", path, line,
                        ms);
            goto out;
        }
        const char *g = f[col[C_GRAPH]], *pl = f[col[C_PLATFORM]];
        int gi = 0;
        while (gi < sw->ngroups && (strcmp(sw->groups[gi][0], g) != 0 || strcmp(sw->groups[gi][1], pl) != 0))
            gi++;
        if (gi == sw->ngroups) {
            if (!rd_grow((void **)&sw->groups, &gcap, (size_t)sw->ngroups, sizeof(*sw->groups))) {
                rc = rd_bad(err, errlen, "%s: out of memory", path);
                goto out;
            }
            rd_copy_str(sw->groups[gi][0], RD_NAME_MAX, g);
            rd_copy_str(sw->groups[gi][1], RD_NAME_MAX, pl);
            sw->ngroups++;
        }
        r->group = gi;
        r->value_us = sw->has_repeat && r->runs > 0 ? r->mean_us : r->makespan_us;
        sw->nrows++;
    }
    if (rc == RD_OK && sort_extra(sw) != 0)
        rc = rd_bad(err, errlen, "%s: out of memory", path);
out:
    free(text);
    if (rc != RD_OK)
        rd_sweep_free(sw);
    return rc;
#undef SWEEP_MAX_COLUMNS
}

void rd_sweep_free(rd_sweep *s)
{
    for (int e = 0; e < RD_MAX_EXTRA; e++)
        free(s->extra_val[e]);
    free(s->rows);
    free(s->groups);
    memset(s, 0, sizeof(*s));
}

int rd_sweep_knobs(const rd_sweep *s, rd_knob *out, int max)
{
    int n = 0;
    for (int c = 0; c < RD_KNOB_COLUMNS; c++) {
        unsigned mask = 0;
        for (int r = 0; r < RD_RINGS; r++)
            for (size_t i = 1; i < s->nrows; i++)
                if (s->rows[i].knob[c][r] != s->rows[0].knob[c][r])
                    mask |= 1u << r;
        if (!mask)
            continue;
        if (c == RD_KNOB_THREADS) { /* one value per row, kept in every ring's slot */
            if (n < max)
                out[n++] = (rd_knob){.column = c, .mask = 1, .label = "aicpu_thread_num"};
            continue;
        }
        /* do the varying rings move together? */
        int low = __builtin_ctz(mask);
        bool together = true;
        for (size_t i = 0; i < s->nrows && together; i++)
            for (int r = low + 1; r < RD_RINGS; r++)
                if ((mask >> r & 1) && s->rows[i].knob[c][r] != s->rows[i].knob[c][low])
                    together = false;
        for (int r = 0; r < RD_RINGS && n < max; r++) {
            if (!(mask >> r & 1) || (together && r != low))
                continue;
            rd_knob *k = &out[n++];
            k->column = c;
            k->mask = together ? mask : 1u << r;
            if (k->mask == 0xf)
                snprintf(k->label, sizeof(k->label), "%s (all rings)", KNOB_COLUMN[c]);
            else if (!(k->mask & (k->mask - 1)))
                snprintf(k->label, sizeof(k->label), "%s (ring %d)", KNOB_COLUMN[c], r);
            else {
                int m = snprintf(k->label, sizeof(k->label), "%s (rings", KNOB_COLUMN[c]);
                for (int q = 0, first = 1; q < RD_RINGS; q++)
                    if (k->mask >> q & 1) {
                        m += snprintf(k->label + m, sizeof(k->label) - (size_t)m, "%s %d", first ? "" : ",",
                                      q);
                        first = 0;
                    }
                snprintf(k->label + m, sizeof(k->label) - (size_t)m, ")");
            }
        }
    }
    for (int e = 0; e < s->nextra && n < max; e++)
        if (s->nextra_val[e] > 1) {
            rd_knob *k = &out[n++];
            k->column = RD_KNOB_COLUMNS + e;
            k->mask = 1;
            rd_copy_str(k->label, sizeof(k->label), s->extra_name[e]);
        }
    return n;
}

uint64_t rd_knob_value(const rd_knob *k, const rd_row *r)
{
    if (RD_KNOB_IS_EXTRA(k))
        return r->extra[k->column - RD_KNOB_COLUMNS];
    return r->knob[k->column][__builtin_ctz(k->mask)];
}

/* The orchestrator's blocked time over every ring. */
static double blocked_total(const rd_row *r)
{
    double t = 0;
    for (int g = 0; g < RD_RINGS; g++)
        t += r->blocked[g];
    return t;
}

int rd_sweep_curve(const rd_sweep *s, const rd_knob *k, int group, rd_point **out)
{
    *out = NULL;
    uint64_t *xs = malloc((s->nrows ? s->nrows : 1) * sizeof(*xs));
    if (!xs)
        return -1;
    size_t nx = 0;
    for (size_t i = 0; i < s->nrows; i++)
        if (s->rows[i].group == group)
            xs[nx++] = rd_knob_value(k, &s->rows[i]);
    qsort(xs, nx, sizeof(*xs), rd_cmp_u64);
    size_t nu = 0;
    for (size_t i = 0; i < nx; i++)
        if (i == 0 || xs[i] != xs[i - 1])
            xs[nu++] = xs[i];
    rd_point *pt = calloc(nu ? nu : 1, sizeof(*pt));
    if (!pt) {
        free(xs);
        return -1;
    }
    for (size_t j = 0; j < nu; j++)
        pt[j].x = xs[j];
    free(xs);
    for (size_t i = 0; i < s->nrows; i++) {
        const rd_row *r = &s->rows[i];
        if (r->group != group)
            continue;
        uint64_t x = rd_knob_value(k, r);
        rd_point *q = &pt[vec_lower_bound(pt, nu, sizeof(*pt), offsetof(rd_point, x), x)];
        q->nrows++;
        if (strcmp(r->status, "ok") == 0) {
            if (!q->nok || r->value_us < q->makespan_us ||
                (r->value_us == q->makespan_us && blocked_total(r) < blocked_total(q->best))) {
                q->makespan_us = r->value_us;
                q->best = r;
            }
            q->nok++;
        } else if (!q->fail) {
            q->fail = r;
        }
    }
    *out = pt;
    return (int)nu;
}
