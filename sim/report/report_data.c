/* report_data.c - rd_: reading a run directory's files for `ptosim report`, critical path, sweep curves. */
#include "report_data.h"

#include <cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../model/base/csv.h"
#include "../../model/base/json_reader.h"
#include "../../model/base/readall.h"
#include "../../model/base/userdir.h"
#include "../../model/base/vec.h"
#include "../json/json_scan.h"

/* ------------------------------------------------------------------ */
/* Shared helpers                                                      */
/* ------------------------------------------------------------------ */

static int bad(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int bad(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return RD_BAD;
}

/* Reads a whole file of kind into a NUL-terminated buffer. RD_ABSENT when it does not exist. */
static int slurp(const char *path, readall_kind kind, char **text, size_t *len, char *err, size_t errlen)
{
    FILE *f = readall_open(path); /* a FIFO would block the open */
    if (!f) {
        if (errno == ENOENT)
            return RD_ABSENT;
        return bad(err, errlen, "%s: cannot read: %s", path, readall_why(errno));
    }
    char why[128];
    char *buf = readall(f, kind, len, why, sizeof(why));
    int e = errno;
    fclose(f);
    if (!buf)
        return bad(err, errlen, "%s: cannot read: %s", path,
                   e == EFBIG ? why : e == ENOMEM ? "out of memory" : "I/O error");
    *text = buf;
    return RD_OK;
}

/* Maps a whole file read-only: big captures (a 10^7-edge deps.json is about 1 GB) stay in the page cache
 * instead of the heap. RD_ABSENT when it does not exist. */
static int map_file(const char *path, const char **text, size_t *len, char *err, size_t errlen)
{
    /* a FIFO would block the open, refused below; below DIR no link is followed */
    int fd = userdir_open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC, 0);
    if (fd < 0) {
        if (errno == ENOENT)
            return RD_ABSENT;
        return bad(err, errlen, "%s: cannot read: %s", path, userdir_why(errno));
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return bad(err, errlen, "%s: cannot read: %s", path, strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return bad(err, errlen, "%s: cannot read: not a regular file", path);
    }
    *len = (size_t)st.st_size;
    *text = "";
    if (*len) {
        void *m = mmap(NULL, *len, PROT_READ, MAP_PRIVATE, fd, 0);
        if (m == MAP_FAILED) {
            int e = errno;
            close(fd);
            return bad(err, errlen, "%s: cannot read: %s", path, strerror(e));
        }
        *text = m;
    }
    close(fd);
    return RD_OK;
}

static void unmap_file(const char *text, size_t len)
{
    if (len)
        munmap((void *)text, len);
}

/* Appends one element to a growing array; false when out of memory. */
static bool grow(void **v, size_t *cap, size_t n, size_t size)
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

static void copy_str(char *dst, size_t n, const char *src)
{
    snprintf(dst, n, "%s", src ? src : "");
}

/* ------------------------------------------------------------------ */
/* ptosim_run.json                                                     */
/* ------------------------------------------------------------------ */

/* A file being read: its messages name it (the ptosim_run.json fields and the jscan readers). */
typedef struct jctx {
    const char *path;
    char *err;
    size_t errlen;
} jctx;

static int field_bad(jctx *c, const char *field, const char *what)
{
    return bad(c->err, c->errlen, "%s: %s: %s", c->path, field, what);
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
    copy_str(out, n, v->valuestring);
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
    copy_str(r->status, sizeof(r->status), st->valuestring);
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
        return bad(err, errlen, "%s: not a JSON object", what);
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
    if (slurp(path, READALL_TABLE, &text, &len, e, sizeof(e)) != RD_OK)
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
            copy_str(x->name, sizeof(x->name), m->valuestring);
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
        return bad(c->err, c->errlen, "%s: not a JSON object", c->path);
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
    int rc = slurp(path, READALL_RUN, &text, &len, err, errlen);
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
/* JSON files read with the scanner (json_scan.h)                          */
/* ------------------------------------------------------------------ */

/* The scan's failure as every JSON reader says it: FILE:LINE:COL: json: WHAT. */
static int syntax(const jctx *c, const jscan *s)
{
    jsonl_error je;
    jscan_error(s, &je);
    jsonl_message(c->err, c->errlen, c->path, s->base, &je, 0);
    return RD_BAD;
}

/* What a member reader returns for a key it does not read: the value is skipped. */
enum { MEMBER_SKIP = 2 };

/* Reads the value of the member key at s into st: RD_OK, RD_BAD (message in c->err) or MEMBER_SKIP. */
typedef int member_fn(jctx *c, jscan *s, const char *key, void *st);

#define MEMBERS_KEPT                                                                                         \
    32 /* keys of one object checked for a repeat (jstream refuses objects of more than 48) */

/* Is the key whose opening quote is at a (in s's text) key, which the key at b was read as? Exact for keys
 * read whole; a key that filled key[64] is taken as the same only when its text is byte for byte. */
static bool same_key(const jscan *s, const char *a, const char *b, const char *key, size_t klen)
{
    jscan t;
    char other[64];
    jscan_init(&t, a, (size_t)(s->end - a));
    if (!jscan_string(&t, other, sizeof(other)) || strcmp(other, key) != 0)
        return false;
    if (klen < sizeof(other) - 1)
        return true;
    size_t alen = (size_t)(t.p - a);
    return (size_t)(s->end - b) >= alen && memcmp(a, b, alen) == 0;
}

/* Reads the members of an object whose '{' is already consumed, each with member. A key given twice is
 * refused as jsonl_parse refuses it: a reader would otherwise take one of the values silently. */
static int read_members(jctx *c, jscan *s, member_fn *member, void *st)
{
    bool first = true;
    char key[64];
    const char *kat[MEMBERS_KEPT]; /* where the keys read start */
    uint32_t kh[MEMBERS_KEPT];     /* their hashes */
    uint64_t seen = 0;             /* a bit per hash: most keys differ there, and nothing is compared */
    int nk = 0, r;
    while ((r = jscan_next(s, '}', &first)) == 1) {
        jscan_peek(s);
        const char *at = s->p;
        if (!jscan_string(s, key, sizeof(key)) || !jscan_eat(s, ':'))
            return syntax(c, s);
        /* a hash of the length and the end bytes: enough to tell the keys of one object apart, in a few
         * instructions (the rows of a capture hold millions of keys) */
        size_t klen = strlen(key);
        uint32_t h = ((uint32_t)klen * 0x9E3779B1u) ^ ((uint32_t)(unsigned char)key[0] * 0x85EBCA6Bu) ^
                     ((uint32_t)(unsigned char)key[klen ? klen - 1 : 0] * 0xC2B2AE35u);
        h ^= h >> 16;
        if (seen >> (h & 63) & 1)
            for (int i = 0; i < nk; i++)
                if (kh[i] == h && same_key(s, kat[i], at, key, klen)) {
                    jsonl_error je = {.at = at, .what = "duplicate key"};
                    snprintf(je.path, sizeof(je.path), "%s", key);
                    jsonl_message(c->err, c->errlen, c->path, s->base, &je, 0);
                    return RD_BAD;
                }
        seen |= (uint64_t)1 << (h & 63);
        if (nk < MEMBERS_KEPT) {
            kat[nk] = at;
            kh[nk++] = h;
        }
        int rc = member(c, s, key, st);
        if (rc == MEMBER_SKIP) {
            if (!jscan_skip(s))
                return syntax(c, s);
        } else if (rc != RD_OK) {
            return rc;
        }
    }
    return r < 0 ? syntax(c, s) : RD_OK;
}

/* Maps c->path and reads its top-level object with member; nothing may follow it. RD_ABSENT when there
 * is no such file. */
static int read_json_file(jctx *c, member_fn *member, void *st)
{
    const char *text;
    size_t len = 0;
    int rc = map_file(c->path, &text, &len, c->err, c->errlen);
    if (rc != RD_OK)
        return rc;
    jscan s;
    jscan_init(&s, text, len);
    if (!jscan_eat(&s, '{'))
        rc = bad(c->err, c->errlen, "%s: not a JSON object", c->path);
    else if ((rc = read_members(c, &s, member, st)) == RD_OK && jscan_peek(&s) != 0)
        rc = syntax(c, &s);
    unmap_file(text, len);
    return rc;
}

/* One element of an array of rows, whichever array it is. */
typedef union row_buf {
    bool aic;
    rd_exec ex;
    rd_cpu cpu;
    rd_task task;
    rd_edge edge;
} row_buf;

/* Parses the element at s, the i-th of its array, into *row: RD_OK or RD_BAD. */
typedef int row_fn(jctx *c, jscan *s, size_t i, row_buf *row);

/* Reads the array named name at s, appending each element read_row parses to *v (*n elements of size
 * bytes). The element is checked before memory is asked for, so a bad row is reported as such. */
static int read_rows(jctx *c, jscan *s, const char *name, row_fn *read_row, void **v, size_t *n, size_t size)
{
    if (!jscan_eat(s, '['))
        return bad(c->err, c->errlen, "%s: %s: not an array", c->path, name);
    /* a second array under the same key would grow rows it does not own the capacity of */
    if (*n)
        return bad(c->err, c->errlen, "%s: %s: given twice", c->path, name);
    size_t cap = 0;
    bool first = true;
    int r;
    while ((r = jscan_next(s, ']', &first)) == 1) {
        row_buf row;
        if (read_row(c, s, *n, &row) != RD_OK)
            return RD_BAD;
        if (!grow(v, &cap, *n, size))
            return bad(c->err, c->errlen, "%s: out of memory", c->path);
        memcpy((char *)*v + *n * size, &row, size);
        (*n)++;
    }
    return r < 0 ? syntax(c, s) : RD_OK;
}

/* ------------------------------------------------------------------ */
/* chip_swimlane_records.json                                          */
/* ------------------------------------------------------------------ */

/* What the reader has seen besides the rows. */
typedef struct swimlane_read {
    rd_swimlane *sl;
    int64_t num_cores; /* -1 = not given */
    bool meta, rows;
} swimlane_read;

static int core_type_row(jctx *c, jscan *s, size_t i, row_buf *row)
{
    char t[8];
    if (!jscan_string(s, t, sizeof(t)) || (strcmp(t, "aic") != 0 && strcmp(t, "aiv") != 0))
        return bad(c->err, c->errlen, "%s: metadata.core_types[%zu]: not \"aic\" or \"aiv\"", c->path, i);
    row->aic = strcmp(t, "aic") == 0;
    return RD_OK;
}

/* metadata: clock_freq_hz, num_cores, core_types. */
static int metadata_member(jctx *c, jscan *s, const char *key, void *arg)
{
    swimlane_read *st = arg;
    rd_swimlane *sl = st->sl;
    if (strcmp(key, "clock_freq_hz") == 0) {
        int64_t v;
        if (!jscan_i64(s, &v) || v <= 0)
            return bad(c->err, c->errlen, "%s: metadata.clock_freq_hz: not a positive integer", c->path);
        sl->clock_hz = (uint64_t)v;
        return RD_OK;
    }
    if (strcmp(key, "num_cores") == 0) {
        if (!jscan_i64(s, &st->num_cores) || st->num_cores < 0)
            return bad(c->err, c->errlen, "%s: metadata.num_cores: not a non-negative integer", c->path);
        return RD_OK;
    }
    if (strcmp(key, "core_types") == 0) {
        size_t n = 0;
        int rc =
            read_rows(c, s, "metadata.core_types", core_type_row, (void **)&sl->aic, &n, sizeof(*sl->aic));
        if (rc == RD_OK)
            sl->ncores = (int)n;
        return rc;
    }
    return MEMBER_SKIP;
}

/* aicore_tasks: [core_id, task_token_raw, reg_task_id, start, end, receive_to_start] rows. */
static int exec_row(jctx *c, jscan *s, size_t i, row_buf *row)
{
    int64_t core, reg, r2s = 0;
    uint64_t task, start, end;
    if (!jscan_eat(s, '[') || !jscan_i64(s, &core) || !jscan_eat(s, ',') || !jscan_u64(s, &task) ||
        !jscan_eat(s, ',') || !jscan_i64(s, &reg) || !jscan_eat(s, ',') || !jscan_u64(s, &start) ||
        !jscan_eat(s, ',') || !jscan_u64(s, &end) || (jscan_eat(s, ',') && !jscan_i64(s, &r2s)) ||
        !jscan_eat(s, ']'))
        return bad(c->err, c->errlen,
                   "%s: aicore_tasks[%zu]: not [core_id, task_id, reg_task_id, start, end, "
                   "receive_to_start] integers",
                   c->path, i);
    if (core < 0 || core > INT32_MAX)
        return bad(c->err, c->errlen, "%s: aicore_tasks[%zu]: core_id %" PRId64 " is negative", c->path, i,
                   core);
    if (end < start)
        return bad(c->err, c->errlen, "%s: aicore_tasks[%zu]: end %" PRIu64 " before start %" PRIu64, c->path,
                   i, end, start);
    row->ex = (rd_exec){.task = task,
                        .start = start,
                        .end = end,
                        .r2s = r2s > 0 ? (uint64_t)r2s : 0,
                        .reg = reg,
                        .core = (int32_t)core};
    return RD_OK;
}

/* aicpu_tasks: [core_id, reg_task_id, dispatch, finish] rows. */
static int cpu_row(jctx *c, jscan *s, size_t i, row_buf *row)
{
    int64_t core, reg;
    uint64_t dispatch, finish;
    if (!jscan_eat(s, '[') || !jscan_i64(s, &core) || !jscan_eat(s, ',') || !jscan_i64(s, &reg) ||
        !jscan_eat(s, ',') || !jscan_u64(s, &dispatch) || !jscan_eat(s, ',') || !jscan_u64(s, &finish) ||
        !jscan_eat(s, ']') || core < 0 || core > INT32_MAX)
        return bad(c->err, c->errlen,
                   "%s: aicpu_tasks[%zu]: not [core_id, reg_task_id, dispatch, finish] non-negative integers",
                   c->path, i);
    row->cpu = (rd_cpu){.core = (int32_t)core, .reg = reg, .dispatch = dispatch, .finish = finish};
    return RD_OK;
}

static int swimlane_member(jctx *c, jscan *s, const char *key, void *arg)
{
    swimlane_read *st = arg;
    rd_swimlane *sl = st->sl;
    if (strcmp(key, "chip_swimlane_level") == 0) {
        int64_t v;
        if (!jscan_i64(s, &v) || v < 1 || v > 4)
            return bad(c->err, c->errlen, "%s: chip_swimlane_level: not a level 1-4", c->path);
        sl->level = (int)v;
        return RD_OK;
    }
    if (strcmp(key, "metadata") == 0) {
        st->meta = true;
        if (!jscan_eat(s, '{'))
            return bad(c->err, c->errlen, "%s: metadata: not an object", c->path);
        return read_members(c, s, metadata_member, st);
    }
    if (strcmp(key, "aicore_tasks") == 0) {
        st->rows = true;
        return read_rows(c, s, "aicore_tasks", exec_row, (void **)&sl->ex, &sl->nex, sizeof(*sl->ex));
    }
    if (strcmp(key, "aicpu_tasks") == 0)
        return read_rows(c, s, "aicpu_tasks", cpu_row, (void **)&sl->cpu, &sl->ncpu, sizeof(*sl->cpu));
    return MEMBER_SKIP;
}

/* What a well-formed file may still lack, or get wrong across its parts. */
static int swimlane_complete(jctx *c, const swimlane_read *st)
{
    const rd_swimlane *sl = st->sl;
    if (!sl->level)
        return bad(c->err, c->errlen, "%s: chip_swimlane_level: missing", c->path);
    if (!st->meta || !sl->clock_hz)
        return bad(c->err, c->errlen, "%s: metadata.clock_freq_hz: missing", c->path);
    if (!sl->aic)
        return bad(c->err, c->errlen, "%s: metadata.core_types: missing or empty", c->path);
    if (st->num_cores >= 0 && st->num_cores != sl->ncores)
        return bad(c->err, c->errlen, "%s: metadata.num_cores: %" PRId64 ", but core_types lists %d cores",
                   c->path, st->num_cores, sl->ncores);
    if (!st->rows)
        return bad(c->err, c->errlen, "%s: aicore_tasks: missing", c->path);
    for (size_t i = 0; i < sl->nex; i++)
        if (sl->ex[i].core >= sl->ncores)
            return bad(c->err, c->errlen, "%s: aicore_tasks[%zu]: core_id %d, but there are %d cores",
                       c->path, i, sl->ex[i].core, sl->ncores);
    return RD_OK;
}

int rd_load_swimlane(const char *path, rd_swimlane *sl, char *err, size_t errlen)
{
    memset(sl, 0, sizeof(*sl));
    jctx c = {path, err, errlen};
    swimlane_read st = {.sl = sl, .num_cores = -1};
    int rc = read_json_file(&c, swimlane_member, &st);
    if (rc == RD_OK)
        rc = swimlane_complete(&c, &st);
    if (rc != RD_OK)
        rd_swimlane_free(sl);
    return rc;
}

void rd_swimlane_free(rd_swimlane *sl)
{
    free(sl->aic);
    free(sl->ex);
    free(sl->cpu);
    memset(sl, 0, sizeof(*sl));
}

/* ------------------------------------------------------------------ */
/* deps.json                                                           */
/* ------------------------------------------------------------------ */

static int cmp_edge_succ(const void *a, const void *b)
{
    const rd_edge *x = a, *y = b;
    if (x->succ != y->succ)
        return x->succ < y->succ ? -1 : 1;
    return x->pred < y->pred ? -1 : x->pred > y->pred;
}

/* Sorts the edges by successor, then predecessor, and drops repeats: the
 * runtime writes an edge per matched tensor slice, the walk needs each
 * (pred, succ) pair once. */
static void unique_edges(rd_deps *d)
{
    if (!d->nedges)
        return;
    qsort(d->edges, d->nedges, sizeof(*d->edges), cmp_edge_succ);
    size_t n = 1;
    for (size_t i = 1; i < d->nedges; i++)
        if (d->edges[i].pred != d->edges[n - 1].pred || d->edges[i].succ != d->edges[n - 1].succ)
            d->edges[n++] = d->edges[i];
    d->nedges = n;
}

/* A task object being read: tasks[i]. */
typedef struct task_read {
    size_t i;
    rd_task t;
    bool has_id;
} task_read;

static int task_member(jctx *c, jscan *s, const char *key, void *arg)
{
    task_read *st = arg;
    if (strcmp(key, "task_id") == 0) {
        if (!jscan_u64(s, &st->t.id))
            return bad(c->err, c->errlen, "%s: tasks[%zu].task_id: not a decimal task id", c->path, st->i);
        st->has_id = true;
        return RD_OK;
    }
    if (strcmp(key, "kernel_ids") == 0) {
        int64_t k[3];
        if (!jscan_eat(s, '[') || !jscan_i64(s, &k[0]) || !jscan_eat(s, ',') || !jscan_i64(s, &k[1]) ||
            !jscan_eat(s, ',') || !jscan_i64(s, &k[2]) || !jscan_eat(s, ']'))
            return bad(c->err, c->errlen, "%s: tasks[%zu].kernel_ids: not 3 integers", c->path, st->i);
        for (int j = 0; j < 3; j++)
            st->t.k[j] = k[j] < 0 || k[j] > INT32_MAX ? -1 : (int32_t)k[j];
        return RD_OK;
    }
    return MEMBER_SKIP;
}

static int task_row(jctx *c, jscan *s, size_t i, row_buf *row)
{
    task_read st = {.i = i, .t = {.id = 0, .k = {-1, -1, -1}}};
    if (!jscan_eat(s, '{'))
        return bad(c->err, c->errlen, "%s: tasks[%zu]: not an object", c->path, i);
    if (read_members(c, s, task_member, &st) != RD_OK)
        return RD_BAD;
    if (!st.has_id)
        return bad(c->err, c->errlen, "%s: tasks[%zu].task_id: missing", c->path, i);
    row->task = st.t;
    return RD_OK;
}

/* An edge object being read: edges[i]. */
typedef struct edge_read {
    size_t i;
    rd_edge e;
    bool has_pred, has_succ;
} edge_read;

static int edge_member(jctx *c, jscan *s, const char *key, void *arg)
{
    edge_read *st = arg;
    bool is_pred = strcmp(key, "pred") == 0;
    if (!is_pred && strcmp(key, "succ") != 0)
        return MEMBER_SKIP;
    if (!jscan_u64(s, is_pred ? &st->e.pred : &st->e.succ))
        return bad(c->err, c->errlen, "%s: edges[%zu].%s: not a decimal task id", c->path, st->i, key);
    *(is_pred ? &st->has_pred : &st->has_succ) = true;
    return RD_OK;
}

static int edge_row(jctx *c, jscan *s, size_t i, row_buf *row)
{
    edge_read st = {.i = i, .e = {0, 0}};
    if (!jscan_eat(s, '{'))
        return bad(c->err, c->errlen, "%s: edges[%zu]: not an object", c->path, i);
    if (read_members(c, s, edge_member, &st) != RD_OK)
        return RD_BAD;
    if (!st.has_pred || !st.has_succ)
        return bad(c->err, c->errlen, "%s: edges[%zu].%s: missing", c->path, i,
                   st.has_pred ? "succ" : "pred");
    row->edge = st.e;
    return RD_OK;
}

/* Which of the two arrays the file has. */
typedef struct deps_read {
    rd_deps *d;
    bool tasks, edges;
} deps_read;

static int deps_member(jctx *c, jscan *s, const char *key, void *arg)
{
    deps_read *st = arg;
    rd_deps *d = st->d;
    if (strcmp(key, "tasks") == 0) {
        st->tasks = true;
        return read_rows(c, s, "tasks", task_row, (void **)&d->tasks, &d->ntasks, sizeof(*d->tasks));
    }
    if (strcmp(key, "edges") == 0) {
        st->edges = true;
        return read_rows(c, s, "edges", edge_row, (void **)&d->edges, &d->nedges, sizeof(*d->edges));
    }
    return MEMBER_SKIP;
}

int rd_load_deps(const char *path, rd_deps *d, char *err, size_t errlen)
{
    memset(d, 0, sizeof(*d));
    jctx c = {path, err, errlen};
    deps_read st = {.d = d};
    int rc = read_json_file(&c, deps_member, &st);
    if (rc == RD_OK && !st.tasks)
        rc = bad(err, errlen, "%s: tasks: missing", path);
    else if (rc == RD_OK && !st.edges)
        rc = bad(err, errlen, "%s: edges: missing", path);
    if (rc == RD_OK)
        unique_edges(d);
    else
        rd_deps_free(d);
    return rc;
}

void rd_deps_free(rd_deps *d)
{
    free(d->tasks);
    free(d->edges);
    memset(d, 0, sizeof(*d));
}

/* ------------------------------------------------------------------ */
/* Critical path                                                       */
/* ------------------------------------------------------------------ */

/* A task of the walk: any id seen in the swimlane, deps.json's tasks or its edges. */
typedef struct cp_node {
    uint64_t id;
    uint64_t start, end; /* over its executions */
    int64_t eff;         /* when it finished: its last end, or its last predecessor's (-1 = never) */
    size_t order;        /* submission index in deps.json, SIZE_MAX = not listed */
    bool executed, visited;
} cp_node;

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Index of id in the sorted node table (it is there by construction). */
static size_t node_of(const cp_node *n, size_t nn, uint64_t id)
{
    return vec_lower_bound(n, nn, sizeof(*n), offsetof(cp_node, id), id);
}

/* Predecessor edges of succ: [*lo, *hi) in edges sorted by successor. */
static void preds_of(const rd_edge *e, size_t ne, uint64_t succ, size_t *lo, size_t *hi)
{
    size_t a = vec_lower_bound(e, ne, sizeof(*e), offsetof(rd_edge, succ), succ);
    *lo = a;
    while (a < ne && e[a].succ == succ)
        a++;
    *hi = a;
}

/* Orders nodes by submission, unlisted ones (allocs, unknown tasks) last by id. */
static int cmp_node_order(const void *a, const void *b)
{
    const cp_node *x = *(cp_node *const *)a, *y = *(cp_node *const *)b;
    if (x->order != y->order)
        return x->order < y->order ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* The node of id in the sorted table, or NULL (an alloc task: in no file but deps.json's edges). */
static cp_node *find_node(cp_node *n, size_t nn, uint64_t id)
{
    size_t i = node_of(n, nn, id);
    return i < nn && n[i].id == id ? &n[i] : NULL;
}

int rd_critical_path(const rd_swimlane *sl, const rd_deps *d, rd_path *out)
{
    memset(out, 0, sizeof(*out));
    if (!sl->nex)
        return 0;
    int rc = -1;
    size_t nids = sl->nex + d->ntasks, nn = 0;
    uint64_t *ids = malloc(nids * sizeof(*ids));
    cp_node *n = NULL, **byorder = NULL;
    if (!ids)
        goto out;
    for (size_t i = 0; i < sl->nex; i++)
        ids[i] = sl->ex[i].task;
    for (size_t i = 0; i < d->ntasks; i++)
        ids[sl->nex + i] = d->tasks[i].id;
    qsort(ids, nids, sizeof(*ids), cmp_u64);
    for (size_t i = 0; i < nids; i++)
        if (i == 0 || ids[i] != ids[nn - 1])
            ids[nn++] = ids[i];
    n = calloc(nn, sizeof(*n));
    byorder = malloc(nn * sizeof(*byorder));
    out->v = malloc(nn * sizeof(*out->v));
    if (!n || !byorder || !out->v)
        goto out;
    for (size_t i = 0; i < nn; i++)
        n[i] = (cp_node){.id = ids[i], .eff = -1, .order = SIZE_MAX};
    for (size_t i = 0; i < sl->nex; i++) {
        cp_node *t = find_node(n, nn, sl->ex[i].task);
        if (!t->executed || sl->ex[i].start < t->start)
            t->start = sl->ex[i].start;
        if (!t->executed || sl->ex[i].end > t->end)
            t->end = sl->ex[i].end;
        t->executed = true;
    }
    for (size_t i = 0; i < d->ntasks; i++) {
        cp_node *t = find_node(n, nn, d->tasks[i].id);
        if (t->order == SIZE_MAX)
            t->order = i;
    }

    /* finishing times in submission order, so a dummy sees its predecessors' */
    for (size_t i = 0; i < nn; i++)
        byorder[i] = &n[i];
    qsort(byorder, nn, sizeof(*byorder), cmp_node_order);
    for (size_t i = 0; i < nn; i++) {
        cp_node *t = byorder[i];
        if (t->executed) {
            t->eff = (int64_t)t->end;
            continue;
        }
        size_t lo, hi;
        preds_of(d->edges, d->nedges, t->id, &lo, &hi);
        for (size_t j = lo; j < hi; j++) {
            const cp_node *p = find_node(n, nn, d->edges[j].pred);
            if (p && p != t && p->eff > t->eff)
                t->eff = p->eff;
        }
    }

    /* the walk back, from the last end (the lowest id among equals) */
    cp_node *cur = NULL;
    for (size_t i = 0; i < nn; i++)
        if (n[i].executed && (!cur || n[i].end > cur->end))
            cur = &n[i];
    while (cur && !cur->visited) {
        cur->visited = true;
        out->v[out->n++] =
            (rd_step){.task = cur->id, .executed = cur->executed, .start = cur->start, .end = cur->end};
        size_t lo, hi;
        cp_node *best = NULL;
        preds_of(d->edges, d->nedges, cur->id, &lo, &hi);
        for (size_t j = lo; j < hi; j++) { /* ascending pred id: the first of equals is the lowest */
            cp_node *p = find_node(n, nn, d->edges[j].pred);
            if (p && p != cur && p->eff >= 0 && (!best || p->eff > best->eff))
                best = p;
        }
        cur = best;
    }
    for (size_t i = 0; i < out->n / 2; i++) {
        rd_step tmp = out->v[i];
        out->v[i] = out->v[out->n - 1 - i];
        out->v[out->n - 1 - i] = tmp;
    }
    rc = 0;
out:
    free(ids);
    free(n);
    free(byorder);
    if (rc != 0)
        rd_path_free(out);
    return rc;
}

void rd_path_free(rd_path *p)
{
    free(p->v);
    p->v = NULL;
    p->n = 0;
}

/* ------------------------------------------------------------------ */
/* Line-oriented files                                                 */
/* ------------------------------------------------------------------ */

/* Cuts text into lines in place: returns the next line (without "\n" or
 * "\r\n"), advancing *p; NULL at the end. */
static char *next_line(char **p)
{
    char *s = *p;
    if (!s || !*s)
        return NULL;
    char *nl = strchr(s, '\n');
    if (nl) {
        *nl = '\0';
        *p = nl + 1;
    } else {
        *p = s + strlen(s);
    }
    size_t n = strlen(s);
    if (n && s[n - 1] == '\r')
        s[n - 1] = '\0';
    return s;
}

/* Cuts the next CSV record off *p in place: up to the first line break
 * outside quotes (a quoted field may hold line breaks, RFC 4180). *line is
 * the number of the next line to read; *start gets the record's first line.
 * NULL at the end. */
static char *next_record(char **p, int *line, int *start)
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

static int quoting_bad(char *err, size_t errlen, const char *path, int line)
{
    return bad(err, errlen,
               "%s:%d: a quoted field is not closed, or text follows its closing quote (RFC 4180 quoting)",
               path, line);
}

/* Splits a data record that started on line into f (max fields at most): RD_BAD when its quoting is
 * broken or it has another number of fields than the header's nh. */
static int split_row(const char *path, int line, char *rec, char **f, int max, int nh, char *err,
                     size_t errlen)
{
    int n = csv_split(rec, f, max);
    if (n < 0)
        return quoting_bad(err, errlen, path, line);
    if (n != nh)
        return bad(err, errlen, "%s:%d: %d fields, the header has %d", path, line, n > max ? max : n, nh);
    return RD_OK;
}

static bool parse_u64(const char *s, uint64_t *v)
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

static bool parse_int(const char *s, int *v)
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
/* scope_stats.jsonl                                                   */
/* ------------------------------------------------------------------ */

/* A JSON number a uint64_t holds (a cast of one past 2^64 is undefined). */
static bool u64_number(const cJSON *v)
{
    return cJSON_IsNumber(v) && v->valuedouble >= 0 && v->valuedouble <= 1.8e19;
}

static int ring_array(const char *path, const cJSON *meta, const char *key, uint64_t out[RD_RINGS], char *err,
                      size_t errlen)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(meta, key);
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != RD_RINGS)
        return bad(err, errlen, "%s:1: %s: missing or not an array of 4 numbers", path, key);
    for (int i = 0; i < RD_RINGS; i++) {
        const cJSON *v = cJSON_GetArrayItem(a, i);
        if (!u64_number(v))
            return bad(err, errlen, "%s:1: %s[%d]: not a non-negative number", path, key, i);
        out[i] = (uint64_t)v->valuedouble;
    }
    return 0;
}

/* One sample line: ring, phase and the live count of each resource. */
static int scope_sample(const char *path, int line, const cJSON *j, rd_sample *s, char *err, size_t errlen)
{
    if (!cJSON_IsObject(j))
        return bad(err, errlen, "%s:%d: not a JSON object", path, line);
    const cJSON *ring = cJSON_GetObjectItemCaseSensitive(j, "ring");
    if (!cJSON_IsNumber(ring) || ring->valuedouble < 0 || ring->valuedouble >= RD_RINGS ||
        ring->valuedouble != (int)ring->valuedouble)
        return bad(err, errlen, "%s:%d: ring: missing or not a ring 0-3", path, line);
    s->ring = (int)ring->valuedouble;
    const cJSON *ph = cJSON_GetObjectItemCaseSensitive(j, "phase");
    if (!cJSON_IsString(ph) || (strcmp(ph->valuestring, "begin") != 0 && strcmp(ph->valuestring, "end") != 0))
        return bad(err, errlen, "%s:%d: phase: missing or not \"begin\" or \"end\"", path, line);
    s->begin = strcmp(ph->valuestring, "begin") == 0;
    static const char *const res[] = {"task_window", "heap", "dep_pool"};
    uint64_t *dst[] = {&s->task_window, &s->heap, &s->dep_pool};
    for (int r = 0; r < 3; r++) {
        char k0[32], k1[32];
        snprintf(k0, sizeof(k0), "%s_start", res[r]);
        snprintf(k1, sizeof(k1), "%s_end", res[r]);
        const cJSON *a = cJSON_GetObjectItemCaseSensitive(j, k0),
                    *b = cJSON_GetObjectItemCaseSensitive(j, k1);
        if (!u64_number(a))
            return bad(err, errlen, "%s:%d: %s: missing or not a non-negative number", path, line, k0);
        if (!u64_number(b))
            return bad(err, errlen, "%s:%d: %s: missing or not a non-negative number", path, line, k1);
        if (b->valuedouble < a->valuedouble)
            return bad(err, errlen, "%s:%d: %s: %.0f is below %s %.0f", path, line, k1, b->valuedouble, k0,
                       a->valuedouble);
        *dst[r] = (uint64_t)b->valuedouble - (uint64_t)a->valuedouble;
    }
    return 0;
}

int rd_load_scopes(const char *path, rd_scopes *sc, char *err, size_t errlen)
{
    memset(sc, 0, sizeof(*sc));
    char *text;
    size_t len, cap = 0;
    int rc = slurp(path, READALL_RECORDS, &text, &len, err, errlen);
    if (rc != RD_OK)
        return rc;
    char *p = text, *l;
    int line = 0;
    bool meta = false;
    while ((l = next_line(&p)) != NULL) {
        line++;
        if (!l[strspn(l, " \t")])
            continue; /* blank lines are skipped, as scope_stats_plot does */
        jsonl_error je;
        cJSON *j = jsonl_parse(l, strlen(l), &je);
        if (!j) {
            jsonl_message(err, errlen, path, l, &je, line);
            rc = RD_BAD;
            break;
        }
        if (!meta) {
            meta = true;
            const cJSON *f = cJSON_GetObjectItemCaseSensitive(j, "fatal"),
                        *dr = cJSON_GetObjectItemCaseSensitive(j, "dropped");
            sc->fatal = cJSON_IsTrue(f);
            sc->dropped = !cJSON_IsNumber(dr) || dr->valuedouble <= 0 ? 0
                          : u64_number(dr)                          ? (uint64_t)dr->valuedouble
                                                                    : UINT64_MAX; /* saturated */
            if (!cJSON_IsObject(j))
                rc = bad(err, errlen, "%s:%d: not a JSON object", path, line);
            else if (ring_array(path, j, "task_window_max", sc->task_window_max, err, errlen) != 0 ||
                     ring_array(path, j, "heap_max", sc->heap_max, err, errlen) != 0 ||
                     ring_array(path, j, "dep_pool_max", sc->dep_pool_max, err, errlen) != 0)
                rc = RD_BAD;
        } else if (!grow((void **)&sc->v, &cap, sc->n, sizeof(*sc->v))) {
            rc = bad(err, errlen, "%s: out of memory", path);
        } else if (scope_sample(path, line, j, &sc->v[sc->n], err, errlen) != 0) {
            rc = RD_BAD;
        } else {
            sc->n++;
        }
        cJSON_Delete(j);
        if (rc != RD_OK)
            break;
    }
    if (rc == RD_OK && !meta)
        rc = bad(err, errlen, "%s:1: no metadata line (the file is empty)", path);
    free(text);
    if (rc != RD_OK)
        rd_scopes_free(sc);
    return rc;
}

void rd_scopes_free(rd_scopes *s)
{
    free(s->v);
    memset(s, 0, sizeof(*s));
}

/* ------------------------------------------------------------------ */
/* pmu.csv                                                             */
/* ------------------------------------------------------------------ */

#define PMU_LEAD 6 /* thread_id,core_id,task_id,func_id,core_type,pmu_total_cycles */

static int cmp_pmu_func(const void *a, const void *b)
{
    const rd_pmu_func *x = a, *y = b;
    return x->func_id < y->func_id ? -1 : x->func_id > y->func_id;
}

int rd_load_pmu(const char *path, rd_pmu *pm, char *err, size_t errlen)
{
    static const char *const lead[PMU_LEAD] = {"thread_id", "core_id",   "task_id",
                                               "func_id",   "core_type", "pmu_total_cycles"};
    memset(pm, 0, sizeof(*pm));
    char *text;
    size_t len, cap = 0;
    int rc = slurp(path, READALL_RECORDS, &text, &len, err, errlen);
    if (rc != RD_OK)
        return rc;
    char *p = text, *l, *f[PMU_LEAD + RD_MAX_COUNTERS + 2], *hdr[PMU_LEAD + RD_MAX_COUNTERS + 2];
    const int maxf = PMU_LEAD + RD_MAX_COUNTERS + 1;
    int next = 1, line = 1, nh;
    if ((l = next_record(&p, &next, &line)) == NULL) {
        rc = bad(err, errlen, "%s:1: no header line (the file is empty)", path);
        goto out;
    }
    nh = csv_split(l, hdr, maxf);
    if (nh < 0) {
        rc = quoting_bad(err, errlen, path, line);
        goto out;
    }
    if (nh > maxf) {
        rc = bad(err, errlen, "%s:1: header: more than %d counter columns", path, RD_MAX_COUNTERS);
        goto out;
    }
    for (int i = 0; i < PMU_LEAD; i++)
        if (i >= nh || strcmp(hdr[i], lead[i]) != 0) {
            rc = bad(err, errlen, "%s:1: header: column %d is \"%s\", expected %s", path, i + 1,
                     i < nh ? hdr[i] : "", lead[i]);
            goto out;
        }
    if (nh < PMU_LEAD + 1 || strcmp(hdr[nh - 1], "event_type") != 0) {
        rc = bad(err, errlen, "%s:1: header: the last column is not event_type", path);
        goto out;
    }
    pm->ncounters = nh - PMU_LEAD - 1;
    pm->event_type = -1;
    for (int i = 0; i < pm->ncounters; i++)
        copy_str(pm->counter_name[i], sizeof(pm->counter_name[i]), hdr[PMU_LEAD + i]);
    while ((l = next_record(&p, &next, &line)) != NULL) {
        if (!l[strspn(l, "\r")])
            continue;
        if ((rc = split_row(path, line, l, f, maxf, nh, err, errlen)) != RD_OK)
            goto out;
        uint64_t func, total, cnt[RD_MAX_COUNTERS];
        int core_type, ev;
        if (strncmp(f[2], "0x", 2) != 0 || strlen(f[2]) != 18 || strspn(f[2] + 2, "0123456789abcdef") != 16) {
            rc = bad(err, errlen, "%s:%d: task_id: \"%s\" is not 0x and 16 hex digits", path, line, f[2]);
            goto out;
        }
        if (!parse_u64(f[3], &func) || func > UINT32_MAX) {
            rc = bad(err, errlen, "%s:%d: func_id: \"%s\" is not an unsigned integer", path, line, f[3]);
            goto out;
        }
        if (!parse_int(f[4], &core_type) || (core_type != 0 && core_type != 1)) {
            rc = bad(err, errlen, "%s:%d: core_type: \"%s\" is not 0 (AIC) or 1 (AIV)", path, line, f[4]);
            goto out;
        }
        if (!parse_u64(f[5], &total)) {
            rc = bad(err, errlen, "%s:%d: pmu_total_cycles: \"%s\" is not an unsigned integer", path, line,
                     f[5]);
            goto out;
        }
        for (int i = 0; i < pm->ncounters; i++)
            if (!parse_u64(f[PMU_LEAD + i], &cnt[i])) {
                rc = bad(err, errlen, "%s:%d: %s: \"%s\" is not an unsigned integer", path, line,
                         pm->counter_name[i], f[PMU_LEAD + i]);
                goto out;
            }
        if (!parse_int(f[nh - 1], &ev) || ev < 1) {
            rc = bad(err, errlen, "%s:%d: event_type: \"%s\" is not an event group", path, line, f[nh - 1]);
            goto out;
        }
        if (pm->event_type >= 0 && ev != pm->event_type) {
            rc = bad(err, errlen, "%s:%d: event_type: %d, but earlier rows have %d", path, line, ev,
                     pm->event_type);
            goto out;
        }
        pm->event_type = ev;
        int k = 0;
        while (k < pm->nfuncs && pm->funcs[k].func_id != func)
            k++;
        if (k == pm->nfuncs) {
            if (!grow((void **)&pm->funcs, &cap, (size_t)pm->nfuncs, sizeof(*pm->funcs))) {
                rc = bad(err, errlen, "%s: out of memory", path);
                goto out;
            }
            memset(&pm->funcs[k], 0, sizeof(pm->funcs[k]));
            pm->funcs[k].func_id = (uint32_t)func;
            pm->funcs[k].core_type = core_type;
            pm->nfuncs++;
        }
        rd_pmu_func *pf = &pm->funcs[k];
        pf->rows++;
        pf->total_cycles += total;
        for (int i = 0; i < pm->ncounters; i++)
            pf->counter[i] += cnt[i];
        pm->rows++;
    }
    if (pm->nfuncs)
        qsort(pm->funcs, (size_t)pm->nfuncs, sizeof(*pm->funcs), cmp_pmu_func);
out:
    free(text);
    if (rc != RD_OK)
        rd_pmu_free(pm);
    return rc;
}

void rd_pmu_free(rd_pmu *p)
{
    free(p->funcs);
    memset(p, 0, sizeof(*p));
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
    copy_str(copy, sizeof(copy), s);
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
    copy_str(copy, sizeof(copy), s);
    if (!split_rings(copy, part))
        return false;
    for (int r = 0; r < RD_RINGS; r++)
        if (!parse_u64(part[r], &out[r]))
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
    if (!grow((void **)&sw->extra_val[e], cap, (size_t)sw->nextra_val[e], sizeof(*sw->extra_val[e])))
        return -1;
    copy_str(sw->extra_val[e][sw->nextra_val[e]], RD_VALUE_MAX, v);
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
    int rc = slurp(path, READALL_SWEEP, &text, &len, err, errlen);
    if (rc != RD_OK)
        return rc;
    char *p = text, *l, *f[SWEEP_MAX_COLUMNS + 1];
    int col[C_NEED], next = 1, line = 1, nh, col_threads, col_blocked, col_res[RD_RES_COUNT], col_rep[3],
        col_extra[RD_MAX_EXTRA], last_run = -1;
    if ((l = next_record(&p, &next, &line)) == NULL || !l[strspn(l, "\r")]) {
        rc = bad(err, errlen, "%s:1: no header line (the file is empty)", path);
        goto out;
    }
    nh = csv_split(l, f, SWEEP_MAX_COLUMNS);
    if (nh < 0) {
        rc = quoting_bad(err, errlen, path, line);
        goto out;
    }
    if (nh > SWEEP_MAX_COLUMNS) {
        rc = bad(err, errlen, "%s:1: header: more than %d columns", path, SWEEP_MAX_COLUMNS);
        goto out;
    }
    for (int c = 0; c < C_NEED; c++) {
        col[c] = -1;
        for (int i = 0; i < nh && col[c] < 0; i++)
            if (strcmp(f[i], need[c]) == 0)
                col[c] = i;
        if (col[c] < 0) {
            rc = bad(err, errlen,
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
            rc = bad(err, errlen, "%s:1: header: more than %d swept columns past the run's own", path,
                     RD_MAX_EXTRA);
            goto out;
        }
        if (strlen(f[i]) >= RD_VALUE_MAX) {
            rc = bad(err, errlen, "%s:1: header: column %d: a name longer than %d characters", path, i + 1,
                     RD_VALUE_MAX - 1);
            goto out;
        }
        col_extra[sw->nextra] = i;
        copy_str(sw->extra_name[sw->nextra++], RD_VALUE_MAX, f[i]);
    }
    while ((l = next_record(&p, &next, &line)) != NULL) {
        if (!l[strspn(l, "\r")])
            continue;
        if ((rc = split_row(path, line, l, f, SWEEP_MAX_COLUMNS, nh, err, errlen)) != RD_OK)
            goto out;
        if (!grow((void **)&sw->rows, &cap, sw->nrows, sizeof(*sw->rows))) {
            rc = bad(err, errlen, "%s: out of memory", path);
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
                rc = bad(err, errlen, "%s:%d: %s: \"%s\" is not N or N/N/N/N", path, line, need[C_TW + k],
                         f[c]);
                goto out;
            }
        }
        if (sw->has_threads) {
            uint64_t t;
            if (!parse_u64(f[col_threads], &t)) {
                rc = bad(err, errlen, "%s:%d: aicpu_thread_num: \"%s\" is not an unsigned integer", path,
                         line, f[col_threads]);
                goto out;
            }
            for (int g = 0; g < RD_RINGS; g++)
                r->knob[RD_KNOB_THREADS][g] = t;
        }
        if (sw->has_blocked && !parse_ring_us(f[col_blocked], r->blocked)) {
            rc = bad(err, errlen, "%s:%d: blocked_us: \"%s\" is not N or N/N/N/N microseconds", path, line,
                     f[col_blocked]);
            goto out;
        }
        for (int k = 0; sw->has_blocked_res && k < RD_RES_COUNT; k++)
            if (!parse_us(f[col_res[k]], &r->blocked_res[k])) {
                rc = bad(err, errlen, "%s:%d: %s: \"%s\" is not a non-negative number", path, line,
                         BLOCKED_COLUMN[k], f[col_res[k]]);
                goto out;
            }
        if (sw->has_repeat && (!parse_int(f[col_rep[0]], &r->runs) || r->runs < 0)) {
            rc = bad(err, errlen, "%s:%d: repeat_runs: \"%s\" is not a non-negative integer", path, line,
                     f[col_rep[0]]);
            goto out;
        }
        for (int k = 1; sw->has_repeat && k < 3; k++)
            if (!parse_us(f[col_rep[k]], k == 1 ? &r->mean_us : &r->sigma_us)) {
                rc = bad(err, errlen, "%s:%d: %s: \"%s\" is not a non-negative number", path, line, REP[k],
                         f[col_rep[k]]);
                goto out;
            }
        for (int e = 0; e < sw->nextra; e++) {
            const char *v = f[col_extra[e]];
            if (strlen(v) >= RD_VALUE_MAX) {
                rc = bad(err, errlen, "%s:%d: %s: a value longer than %d characters", path, line,
                         sw->extra_name[e], RD_VALUE_MAX - 1);
                goto out;
            }
            int vi = extra_value(sw, e, v, &vcap[e]);
            if (vi < 0) {
                rc = bad(err, errlen, "%s: out of memory", path);
                goto out;
            }
            r->extra[e] = (uint32_t)vi;
        }
        copy_str(r->status, sizeof(r->status), f[col[C_STATUS]]);
        if (!r->status[0]) {
            rc = bad(err, errlen, "%s:%d: status: empty", path, line);
            goto out;
        }
        if (!parse_int(f[col[C_CODE]], &r->code)) {
            rc = bad(err, errlen, "%s:%d: code: \"%s\" is not an integer", path, line, f[col[C_CODE]]);
            goto out;
        }
        if (!parse_int(f[col[C_EXIT]], &r->exit)) {
            rc = bad(err, errlen, "%s:%d: exit: \"%s\" is not an integer", path, line, f[col[C_EXIT]]);
            goto out;
        }
        char *end;
        const char *ms = f[col[C_MAKESPAN]];
        errno = 0;
        r->makespan_us = strtod(ms, &end);
        if (!*ms || *end || errno || r->makespan_us < 0 || r->makespan_us != r->makespan_us) {
            rc = bad(err, errlen, "%s:%d: makespan_us: \"%s\" is not a non-negative number", path, line, ms);
            goto out;
        }
        const char *g = f[col[C_GRAPH]], *pl = f[col[C_PLATFORM]];
        int gi = 0;
        while (gi < sw->ngroups && (strcmp(sw->groups[gi][0], g) != 0 || strcmp(sw->groups[gi][1], pl) != 0))
            gi++;
        if (gi == sw->ngroups) {
            if (!grow((void **)&sw->groups, &gcap, (size_t)sw->ngroups, sizeof(*sw->groups))) {
                rc = bad(err, errlen, "%s: out of memory", path);
                goto out;
            }
            copy_str(sw->groups[gi][0], RD_NAME_MAX, g);
            copy_str(sw->groups[gi][1], RD_NAME_MAX, pl);
            sw->ngroups++;
        }
        r->group = gi;
        r->value_us = sw->has_repeat && r->runs > 0 ? r->mean_us : r->makespan_us;
        sw->nrows++;
    }
    if (rc == RD_OK && sort_extra(sw) != 0)
        rc = bad(err, errlen, "%s: out of memory", path);
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
            copy_str(k->label, sizeof(k->label), s->extra_name[e]);
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
    qsort(xs, nx, sizeof(*xs), cmp_u64);
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
