/* report_data.c - rd_: a run folder's ptosim_run.json and name map; the readers the rd_ files share. */
#include "report_data.h"

#include <cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../model/base/csv.h"
#include "../../model/base/json_reader.h"
#include "../../model/base/readall.h"
#include "../../model/base/userdir.h"
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

int rd_sort_by_key(void *base, size_t n, size_t size, void (*key)(const void *rec, uint64_t k[2]))
{
    if (n < 2)
        return 0;
    if (n > UINT32_MAX)
        return -1;
    unsigned char *a = base, *b = malloc(n * size);
    uint64_t(*k)[2] = malloc(n * sizeof(*k));
    uint32_t *p = malloc(n * sizeof(*p)), *q = malloc(n * sizeof(*q));
    size_t(*cnt)[256] = calloc(16, sizeof(*cnt)); /* every byte's counts in one pass over the keys */
    if (!b || !k || !p || !q || !cnt) {
        free(b);
        free(k);
        free(p);
        free(q);
        free(cnt);
        return -1;
    }
    uint64_t all_or[2] = {0, 0}, all_and[2] = {~(uint64_t)0, ~(uint64_t)0};
    for (size_t i = 0; i < n; i++) {
        key(a + i * size, k[i]);
        p[i] = (uint32_t)i;
        for (int w = 0; w < 2; w++) {
            all_or[w] |= k[i][w];
            all_and[w] &= k[i][w];
            for (int byte = 0; byte < 8; byte++)
                cnt[w * 8 + byte][(k[i][w] >> (8 * byte)) & 0xff]++;
        }
    }
    bool moved = false;
    for (int pass = 0; pass < 16; pass++) { /* the low word's bytes first, least significant first */
        int w = pass < 8 ? 1 : 0, shift = 8 * (pass % 8);
        if ((((all_or[w] ^ all_and[w]) >> shift) & 0xff) == 0)
            continue; /* every key has this byte: the pass would keep the order */
        size_t *c = cnt[w * 8 + pass % 8], at = 0;
        for (int d = 0; d < 256; d++) {
            size_t m = c[d];
            c[d] = at;
            at += m;
        }
        for (size_t i = 0; i < n; i++)
            q[c[(k[p[i]][w] >> shift) & 0xff]++] = p[i];
        uint32_t *t = p;
        p = q;
        q = t;
        moved = true;
    }
    if (moved) {
        for (size_t i = 0; i < n; i++)
            memcpy(b + i * size, a + (size_t)p[i] * size, size);
        memcpy(a, b, n * size);
    }
    free(b);
    free(k);
    free(p);
    free(q);
    free(cnt);
    return 0;
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
    if (load_rings(c, root, r) != 0 || load_occ(c, root, &r->occ) != 0 ||
        rd_load_roof(c, root, &r->roof) != 0)
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

int rd_read_json(const char *path, readall_kind kind, cJSON **root, char *err, size_t errlen)
{
    char *text;
    size_t len;
    int rc = rd_slurp(path, kind, &text, &len, err, errlen);
    if (rc != RD_OK)
        return rc;
    jsonl_error je;
    *root = jsonl_parse(text, len, &je);
    if (!*root)
        jsonl_message(err, errlen, path, text, &je, 0);
    free(text);
    return *root ? RD_OK : RD_BAD;
}

int rd_load_run(const char *path, rd_run *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof(*r));
    cJSON *root;
    int rc = rd_read_json(path, READALL_RUN, &root, err, errlen);
    if (rc != RD_OK)
        return rc;
    jctx c = {path, err, errlen};
    rc = load_run_json(&c, root, r);
    cJSON_Delete(root);
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
    free(r->roof.k);
    r->roof.k = NULL;
    r->roof.n = 0;
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
    /* what strtoull took here: digits only, at least one, no overflow (a pmu.csv has ten per row) */
    if (!*s)
        return false;
    uint64_t x = 0;
    for (; *s; s++) {
        unsigned d = (unsigned)(*s - '0');
        if (d > 9 || x > (UINT64_MAX - d) / 10)
            return false;
        x = x * 10 + d;
    }
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
