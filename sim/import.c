/* import.c - rebuilds a graph file from a runtime capture: tasks and edges from deps.json, durations and
 * sync-start drains from the swimlane, scopes from scope stats (formats.md §1-§3). */
#include "import.h"

#include <cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../model/dtype.h"
#include "../model/graph.h"
#include "cli.h"

enum { A_IN, A_OUT, A_INOUT, A_OUT_EXISTING, A_NO_DEP };
static const char *const DIRS[] = {"in", "out", "inout", "out_existing", "no_dep"};

typedef struct imp_arg {
    int type;   /* A_* */
    int tensor; /* index into tensors, -1 = unknown (an OUTPUT nobody consumed) */
    int ndim;
    int64_t shape[GRAPH_MAX_DIMS], strides[GRAPH_MAX_DIMS];
    uint64_t start;
} imp_arg;

typedef struct imp_task {
    uint64_t id;
    bool manual, early, alloc;
    bool sync; /* require_sync_start: its blocks went out in a sync-start drain */
    int32_t k[3];
    int block_num;
    int nargs;
    imp_arg *args;
    uint64_t *deps; /* explicit predecessors */
    int ndeps, depcap;
    double ns; /* median execution time, < 0 = not seen */
} imp_task;

typedef struct imp_tensor {
    uint64_t tid, addr, numel;
    int version, dtype;
    uint64_t creator; /* creating task, UINT64_MAX = external */
    bool bound;       /* its creator's output slot is known */
} imp_tensor;

/* One scope-stats sample: a scope boundary at `depth` with ring counter `count`. */
typedef struct imp_scope {
    bool begin;
    int depth, ring;
    uint64_t count;
    char site[GRAPH_SITE_MAX];
} imp_scope;

typedef struct importer {
    const char *dir;
    char *err;
    size_t errlen;
    imp_task *tasks;
    size_t ntasks, taskcap;
    imp_tensor *tensors;
    size_t ntensors;
    imp_scope *scopes;
    size_t nscopes, scopecap;
    char names[GRAPH_MAX_FUNC_ID][GRAPH_NAME_MAX]; /* func id -> kernel name ("" = unknown) */
    char graph_name[GRAPH_NAME_MAX], orchestrator[GRAPH_NAME_MAX];
    double func_ns[GRAPH_MAX_FUNC_ID]; /* median per func id, < 0 = none */
    int func_core[GRAPH_MAX_FUNC_ID];  /* 0 AIC, 1 AIV, -1 unused */
} importer;

static int fail(importer *im, const char *file, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(importer *im, const char *file, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    snprintf(im->err, im->errlen, "%s/%s: %s", im->dir, file, msg);
    return -1;
}

/* Reads a whole file; NULL when it does not exist (errno set). */
static char *slurp(const char *dir, const char *name, size_t *len)
{
    char path[PATH_MAX];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *nb = realloc(buf, 2 * cap + 1);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf)
        buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

/* A u64 given as a decimal string or a number. */
static bool get_u64(const cJSON *v, uint64_t *out)
{
    if (cJSON_IsString(v)) {
        char *end;
        errno = 0;
        unsigned long long x = strtoull(v->valuestring, &end, 10);
        if (end == v->valuestring || *end || errno)
            return false;
        *out = x;
        return true;
    }
    if (cJSON_IsNumber(v) && v->valuedouble >= 0) {
        *out = (uint64_t)v->valuedouble;
        return true;
    }
    return false;
}

static bool get_dims(const cJSON *v, int64_t *out, int *n)
{
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) > GRAPH_MAX_DIMS)
        return false;
    *n = 0;
    const cJSON *x;
    cJSON_ArrayForEach(x, v)
    {
        if (!cJSON_IsNumber(x))
            return false;
        out[(*n)++] = (int64_t)x->valuedouble;
    }
    return true;
}

static long find_task(const importer *im, uint64_t id)
{
    /* tasks are in submission order, ids ascending within a ring: a scan is fine for captures */
    for (size_t i = 0; i < im->ntasks; i++)
        if (im->tasks[i].id == id)
            return (long)i;
    return -1;
}

static long find_tensor(const importer *im, uint64_t tid)
{
    for (size_t i = 0; i < im->ntensors; i++)
        if (im->tensors[i].tid == tid)
            return (long)i;
    return -1;
}

static imp_task *add_task(importer *im)
{
    if (im->ntasks == im->taskcap) {
        size_t ncap = im->taskcap ? im->taskcap * 2 : 256;
        imp_task *nt = realloc(im->tasks, ncap * sizeof(*nt));
        if (!nt)
            return NULL;
        im->tasks = nt;
        im->taskcap = ncap;
    }
    imp_task *t = &im->tasks[im->ntasks++];
    memset(t, 0, sizeof(*t));
    t->ns = -1;
    t->block_num = 1;
    t->k[0] = t->k[1] = t->k[2] = -1;
    return t;
}

static int add_dep(imp_task *t, uint64_t pred)
{
    for (int i = 0; i < t->ndeps; i++)
        if (t->deps[i] == pred)
            return 0;
    if (t->ndeps == t->depcap) {
        int ncap = t->depcap ? 2 * t->depcap : 4;
        uint64_t *nd = realloc(t->deps, (size_t)ncap * sizeof(*nd));
        if (!nd)
            return -1;
        t->deps = nd;
        t->depcap = ncap;
    }
    t->deps[t->ndeps++] = pred;
    return 0;
}

static int read_deps(importer *im)
{
    char *text = slurp(im->dir, "deps.json", NULL);
    if (!text)
        return fail(im, "deps.json", "cannot read: %s (capture with --enable-dep-gen)", strerror(errno));
    cJSON *root = cJSON_Parse(text);
    free(text);
    if (!root)
        return fail(im, "deps.json", "not valid JSON");
    int rc = -1;
    const cJSON *tensors = cJSON_GetObjectItemCaseSensitive(root, "tensors"),
                *tasks = cJSON_GetObjectItemCaseSensitive(root, "tasks"),
                *edges = cJSON_GetObjectItemCaseSensitive(root, "edges");
    if (!cJSON_IsArray(tasks) || !cJSON_IsArray(edges)) {
        fail(im, "deps.json", "needs the arrays \"tasks\" and \"edges\"");
        goto out;
    }
    int nt = cJSON_IsArray(tensors) ? cJSON_GetArraySize(tensors) : 0;
    im->tensors = calloc(nt ? (size_t)nt : 1, sizeof(*im->tensors));
    if (!im->tensors) {
        fail(im, "deps.json", "out of memory");
        goto out;
    }
    const cJSON *x;
    int i = 0;
    cJSON_ArrayForEach(x, tensors)
    {
        imp_tensor *t = &im->tensors[im->ntensors];
        const cJSON *dt = cJSON_GetObjectItemCaseSensitive(x, "dtype");
        if (!get_u64(cJSON_GetObjectItemCaseSensitive(x, "tensor_id"), &t->tid) ||
            !get_u64(cJSON_GetObjectItemCaseSensitive(x, "buffer_addr"), &t->addr) ||
            !get_u64(cJSON_GetObjectItemCaseSensitive(x, "buffer_numel"), &t->numel) || !cJSON_IsString(dt) ||
            dtype_parse(dt->valuestring) < 0) {
            fail(im, "deps.json", "tensors[%d]: needs tensor_id, buffer_addr, buffer_numel and a known dtype",
                 i);
            goto out;
        }
        t->dtype = dtype_parse(dt->valuestring);
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(x, "version");
        t->version = cJSON_IsNumber(v) ? (int)v->valuedouble : 0;
        t->creator = UINT64_MAX;
        im->ntensors++;
        i++;
    }
    i = 0;
    cJSON_ArrayForEach(x, tasks)
    {
        imp_task *t = add_task(im);
        const cJSON *k = cJSON_GetObjectItemCaseSensitive(x, "kernel_ids"),
                    *args = cJSON_GetObjectItemCaseSensitive(x, "args"),
                    *sc = cJSON_GetObjectItemCaseSensitive(x, "scope"),
                    *bn = cJSON_GetObjectItemCaseSensitive(x, "block_num");
        if (!t || !get_u64(cJSON_GetObjectItemCaseSensitive(x, "task_id"), &t->id) || !cJSON_IsArray(k) ||
            cJSON_GetArraySize(k) != 3 || !cJSON_IsArray(args)) {
            fail(im, "deps.json", "tasks[%d]: needs task_id, kernel_ids [aic, aiv0, aiv1] and args", i);
            goto out;
        }
        for (int s = 0; s < 3; s++) {
            const cJSON *kv = cJSON_GetArrayItem(k, s);
            t->k[s] = cJSON_IsNumber(kv) ? (int32_t)kv->valuedouble : -1;
            if (t->k[s] >= GRAPH_MAX_FUNC_ID) {
                fail(im, "deps.json", "tasks[%d].kernel_ids: func id %d is out of range", i, t->k[s]);
                goto out;
            }
        }
        t->manual = cJSON_IsString(sc) && strcmp(sc->valuestring, "manual") == 0;
        t->early = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(x, "early_dispatch"));
        t->block_num = cJSON_IsNumber(bn) && bn->valuedouble >= 1 ? (int)bn->valuedouble : 1;
        int na = cJSON_GetArraySize(args);
        t->args = calloc(na ? (size_t)na : 1, sizeof(*t->args));
        if (!t->args) {
            fail(im, "deps.json", "out of memory");
            goto out;
        }
        const cJSON *a;
        cJSON_ArrayForEach(a, args)
        {
            imp_arg *ia = &t->args[t->nargs];
            const cJSON *ty = cJSON_GetObjectItemCaseSensitive(a, "type");
            const char *tn = cJSON_IsString(ty) ? ty->valuestring : "";
            ia->tensor = -1;
            ia->type = strcmp(tn, "INPUT") == 0             ? A_IN
                       : strcmp(tn, "OUTPUT") == 0          ? A_OUT
                       : strcmp(tn, "INOUT") == 0           ? A_INOUT
                       : strcmp(tn, "OUTPUT_EXISTING") == 0 ? A_OUT_EXISTING
                                                            : A_NO_DEP;
            if (ia->type != A_OUT) {
                uint64_t tid;
                if (!get_u64(cJSON_GetObjectItemCaseSensitive(a, "tensor_id"), &tid) ||
                    (ia->tensor = (int)find_tensor(im, tid)) < 0 ||
                    !get_dims(cJSON_GetObjectItemCaseSensitive(a, "shape"), ia->shape, &ia->ndim) ||
                    !get_dims(cJSON_GetObjectItemCaseSensitive(a, "strides"), ia->strides, &ia->ndim) ||
                    !get_u64(cJSON_GetObjectItemCaseSensitive(a, "start_offset"), &ia->start)) {
                    fail(im, "deps.json",
                         "tasks[%d].args[%d]: needs a known tensor_id, shape, strides and start_offset", i,
                         t->nargs);
                    goto out;
                }
            }
            t->nargs++;
        }
        i++;
    }
    /* edges: explicit ones become deps; creator ones tell which task made which buffer */
    i = 0;
    cJSON_ArrayForEach(x, edges)
    {
        uint64_t pred, succ;
        const cJSON *src = cJSON_GetObjectItemCaseSensitive(x, "source");
        if (!get_u64(cJSON_GetObjectItemCaseSensitive(x, "pred"), &pred) ||
            !get_u64(cJSON_GetObjectItemCaseSensitive(x, "succ"), &succ) || !cJSON_IsString(src)) {
            fail(im, "deps.json", "edges[%d]: needs pred, succ and source", i);
            goto out;
        }
        long s = find_task(im, succ);
        if (s < 0) {
            fail(im, "deps.json", "edges[%d]: succ %" PRIu64 " is not in tasks", i, succ);
            goto out;
        }
        if (strcmp(src->valuestring, "explicit") == 0) {
            if (add_dep(&im->tasks[s], pred) != 0) {
                fail(im, "deps.json", "out of memory");
                goto out;
            }
        } else if (strcmp(src->valuestring, "creator") == 0) {
            uint64_t tid;
            long ti;
            if (get_u64(cJSON_GetObjectItemCaseSensitive(x, "tensor_id"), &tid) &&
                (ti = find_tensor(im, tid)) >= 0)
                im->tensors[ti].creator = pred;
        }
        i++;
    }
    rc = 0;
out:
    cJSON_Delete(root);
    return rc;
}

/* Creators absent from tasks[] are alloc_tensors calls: add them as tasks. */
static int add_allocs(importer *im)
{
    for (size_t i = 0; i < im->ntensors; i++) {
        uint64_t c = im->tensors[i].creator;
        if (c == UINT64_MAX || find_task(im, c) >= 0)
            continue;
        imp_task *t = add_task(im);
        if (!t)
            return fail(im, "deps.json", "out of memory");
        t->id = c;
        t->alloc = true;
    }
    return 0;
}

/* Binds each created buffer to its creator's output: the first OUTPUT slot
 * not yet bound (exact when a task creates one buffer; in first-consumer
 * order otherwise). */
static void bind_outputs(importer *im)
{
    for (size_t i = 0; i < im->ntensors; i++) {
        imp_tensor *tn = &im->tensors[i];
        if (tn->creator == UINT64_MAX)
            continue;
        imp_task *t = &im->tasks[find_task(im, tn->creator)];
        if (t->alloc)
            continue; /* listed by its alloc op */
        for (int a = 0; a < t->nargs; a++)
            if (t->args[a].type == A_OUT && t->args[a].tensor < 0) {
                t->args[a].tensor = (int)i;
                tn->bound = true;
                break;
            }
    }
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* A drain_publish record: thread and span in swimlane ticks. */
typedef struct imp_span {
    uint64_t thread, start, end;
} imp_span;

/* One execution by its dispatch token: core and reg. */
typedef struct imp_token {
    uint64_t core, reg;
} imp_token;

static int cmp_span(const void *a, const void *b)
{
    const imp_span *x = a, *y = b;
    return x->thread != y->thread ? (x->thread < y->thread ? -1 : 1)
           : x->start < y->start  ? -1
                                  : x->start > y->start;
}

static int cmp_token(const void *a, const void *b)
{
    const imp_token *x = a, *y = b;
    return x->core != y->core ? (x->core < y->core ? -1 : 1) : x->reg < y->reg ? -1 : x->reg > y->reg;
}

/* Does a drain_publish span of `thread` hold time ts? spans sorted by thread, then start. */
static bool in_drain(const imp_span *sp, size_t n, uint64_t thread, uint64_t ts)
{
    size_t lo = 0, hi = n; /* the first span past (thread, ts) */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (sp[mid].thread < thread || (sp[mid].thread == thread && sp[mid].start <= ts))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo > 0 && sp[lo - 1].thread == thread && sp[lo - 1].end >= ts;
}

/* Only require_sync_start tasks go through the sync-start drain (enter_drain_mode
 * in scheduler_dispatch.cpp dispatch_shape and try_early_dispatch), and a
 * drain's blocks carry the dispatch time of its drain_publish record: a task
 * with an execution dispatched inside one is sync_start. deps.json has no such
 * flag, and a cohort placed by one thread alone leaves no drain to tell. */
static int mark_drained(importer *im, const cJSON *root)
{
    const cJSON *phases = cJSON_GetObjectItemCaseSensitive(root, "aicpu_scheduler_phases"),
                *dispatches = cJSON_GetObjectItemCaseSensitive(root, "aicpu_tasks"),
                *execs = cJSON_GetObjectItemCaseSensitive(root, "aicore_tasks"),
                *owner = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(root, "metadata"),
                                                          "core_to_thread");
    if (!cJSON_IsArray(phases) || !cJSON_IsArray(dispatches) || !cJSON_IsArray(owner))
        return 0;
    imp_span *sp = NULL;
    imp_token *tok = NULL;
    size_t nsp = 0, ntok = 0, cap = 0;
    int rc = 0;
    uint64_t thread = 0;
    const cJSON *lane, *p, *d, *e;
    cJSON_ArrayForEach(lane, phases)
    {
        cJSON_ArrayForEach(p, lane)
        {
            const cJSON *kind = cJSON_GetObjectItemCaseSensitive(p, "kind");
            imp_span s = {.thread = thread};
            if (!cJSON_IsString(kind) || strcmp(kind->valuestring, "drain_publish") != 0 ||
                !get_u64(cJSON_GetObjectItemCaseSensitive(p, "start_cycles"), &s.start) ||
                !get_u64(cJSON_GetObjectItemCaseSensitive(p, "end_cycles"), &s.end))
                continue;
            if (nsp == cap) {
                cap = cap ? 2 * cap : 16;
                imp_span *ns = realloc(sp, cap * sizeof(*ns));
                if (!ns)
                    goto oom;
                sp = ns;
            }
            sp[nsp++] = s;
        }
        thread++;
    }
    if (!nsp)
        goto out;
    qsort(sp, nsp, sizeof(*sp), cmp_span);
    cap = 0;
    cJSON_ArrayForEach(d, dispatches)
    {
        imp_token t;
        uint64_t ts, th;
        if (!get_u64(cJSON_GetArrayItem(d, 0), &t.core) || !get_u64(cJSON_GetArrayItem(d, 1), &t.reg) ||
            !get_u64(cJSON_GetArrayItem(d, 2), &ts) || t.core >= (uint64_t)cJSON_GetArraySize(owner) ||
            !get_u64(cJSON_GetArrayItem(owner, (int)t.core), &th) || !in_drain(sp, nsp, th, ts))
            continue;
        if (ntok == cap) {
            cap = cap ? 2 * cap : 64;
            imp_token *nt = realloc(tok, cap * sizeof(*nt));
            if (!nt)
                goto oom;
            tok = nt;
        }
        tok[ntok++] = t;
    }
    if (!ntok)
        goto out;
    qsort(tok, ntok, sizeof(*tok), cmp_token);
    cJSON_ArrayForEach(e, execs)
    {
        imp_token t;
        uint64_t id;
        long ti;
        if (get_u64(cJSON_GetArrayItem(e, 0), &t.core) && get_u64(cJSON_GetArrayItem(e, 1), &id) &&
            get_u64(cJSON_GetArrayItem(e, 2), &t.reg) && bsearch(&t, tok, ntok, sizeof(*tok), cmp_token) &&
            (ti = find_task(im, id)) >= 0)
            im->tasks[ti].sync = true;
    }
    goto out;
oom:
    rc = fail(im, "chip_swimlane_records.json", "out of memory");
out:
    free(sp);
    free(tok);
    return rc;
}

/* Median execution times from the swimlane, per task and per func id; tasks
 * placed by a sync-start drain are marked sync_start. */
static int read_swimlane(importer *im)
{
    char *text = slurp(im->dir, "chip_swimlane_records.json", NULL);
    if (!text)
        return 0; /* optional */
    cJSON *root = cJSON_Parse(text);
    free(text);
    if (!root)
        return fail(im, "chip_swimlane_records.json", "not valid JSON");
    const cJSON *meta = cJSON_GetObjectItemCaseSensitive(root, "metadata"),
                *execs = cJSON_GetObjectItemCaseSensitive(root, "aicore_tasks");
    const cJSON *hz = cJSON_GetObjectItemCaseSensitive(meta, "clock_freq_hz"),
                *types = cJSON_GetObjectItemCaseSensitive(meta, "core_types");
    if (!cJSON_IsNumber(hz) || hz->valuedouble <= 0 || !cJSON_IsArray(execs)) {
        cJSON_Delete(root);
        return fail(im, "chip_swimlane_records.json", "needs metadata.clock_freq_hz and aicore_tasks");
    }
    if (mark_drained(im, root) != 0) {
        cJSON_Delete(root);
        return -1;
    }
    double ns_per_tick = 1e9 / hz->valuedouble;
    size_t n = (size_t)cJSON_GetArraySize(execs);
    double *dur = malloc((n ? n : 1) * sizeof(*dur));
    long *task = malloc((n ? n : 1) * sizeof(*task));
    int *func = malloc((n ? n : 1) * sizeof(*func));
    if (!dur || !task || !func) {
        free(dur), free(task), free(func);
        cJSON_Delete(root);
        return fail(im, "chip_swimlane_records.json", "out of memory");
    }
    size_t m = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, execs)
    {
        uint64_t core, id, start, end;
        if (!get_u64(cJSON_GetArrayItem(e, 0), &core) || !get_u64(cJSON_GetArrayItem(e, 1), &id) ||
            !get_u64(cJSON_GetArrayItem(e, 3), &start) || !get_u64(cJSON_GetArrayItem(e, 4), &end) ||
            end < start)
            continue;
        long t = find_task(im, id);
        if (t < 0)
            continue;
        const cJSON *ct = cJSON_GetArrayItem(types, (int)core);
        bool aiv = cJSON_IsString(ct) && strcmp(ct->valuestring, "aiv") == 0;
        const imp_task *tk = &im->tasks[t];
        dur[m] = (double)(end - start) * ns_per_tick;
        task[m] = t;
        func[m] = aiv ? (tk->k[1] >= 0 ? tk->k[1] : tk->k[2]) : tk->k[0];
        m++;
    }
    cJSON_Delete(root);
    /* medians: sort a copy of each group */
    double *tmp = malloc((m ? m : 1) * sizeof(*tmp));
    if (!tmp) {
        free(dur), free(task), free(func);
        return fail(im, "chip_swimlane_records.json", "out of memory");
    }
    for (size_t t = 0; t < im->ntasks; t++) {
        size_t k = 0;
        for (size_t i = 0; i < m; i++)
            if (task[i] == (long)t)
                tmp[k++] = dur[i];
        if (k) {
            qsort(tmp, k, sizeof(*tmp), cmp_d);
            im->tasks[t].ns = tmp[k / 2];
        }
    }
    for (int f = 0; f < GRAPH_MAX_FUNC_ID; f++) {
        size_t k = 0;
        for (size_t i = 0; i < m; i++)
            if (func[i] == f)
                tmp[k++] = dur[i];
        if (k) {
            qsort(tmp, k, sizeof(*tmp), cmp_d);
            im->func_ns[f] = tmp[k / 2];
        }
    }
    free(tmp), free(dur), free(task), free(func);
    return 0;
}

static void read_name_map(importer *im)
{
    DIR *d = opendir(im->dir);
    if (!d)
        return;
    struct dirent *de;
    char best[NAME_MAX + 1] = "";
    while ((de = readdir(d)))
        if (strncmp(de->d_name, "name_map", 8) == 0 && strstr(de->d_name, ".json") &&
            strcmp(de->d_name, best) > 0)
            snprintf(best, sizeof(best), "%s", de->d_name);
    closedir(d);
    if (!best[0])
        return;
    if (strncmp(best, "name_map_", 9) == 0) {
        snprintf(im->graph_name, sizeof(im->graph_name), "%.120s", best + 9);
        char *dot = strstr(im->graph_name, ".json");
        if (dot)
            *dot = '\0';
    }
    char *text = slurp(im->dir, best, NULL);
    cJSON *root = text ? cJSON_Parse(text) : NULL;
    free(text);
    const cJSON *map = cJSON_GetObjectItemCaseSensitive(root, "callable_id_to_name"), *e;
    const cJSON *orch = cJSON_GetObjectItemCaseSensitive(root, "orchestrator_name");
    if (cJSON_IsString(orch))
        snprintf(im->orchestrator, sizeof(im->orchestrator), "%s", orch->valuestring);
    cJSON_ArrayForEach(e, map)
    {
        long id = strtol(e->string, NULL, 10);
        if (id >= 0 && id < GRAPH_MAX_FUNC_ID && cJSON_IsString(e))
            snprintf(im->names[id], sizeof(im->names[id]), "%s", e->valuestring);
    }
    cJSON_Delete(root);
}

static int read_scope_stats(importer *im)
{
    char *text = slurp(im->dir, "scope_stats/scope_stats.jsonl", NULL);
    if (!text)
        return 0; /* optional: scopes are guessed from the rings */
    char *save = NULL;
    int line = 0;
    for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        if (line++ == 0)
            continue; /* metadata */
        cJSON *r = cJSON_Parse(l);
        const cJSON *ph = cJSON_GetObjectItemCaseSensitive(r, "phase"),
                    *depth = cJSON_GetObjectItemCaseSensitive(r, "depth"),
                    *ring = cJSON_GetObjectItemCaseSensitive(r, "ring"),
                    *end = cJSON_GetObjectItemCaseSensitive(r, "task_window_end"),
                    *site = cJSON_GetObjectItemCaseSensitive(r, "site");
        if (!cJSON_IsString(ph) || !cJSON_IsNumber(depth) || !cJSON_IsNumber(ring) || !cJSON_IsNumber(end)) {
            cJSON_Delete(r);
            free(text);
            return fail(im, "scope_stats/scope_stats.jsonl",
                        "line %d: needs phase, depth, ring, task_window_end", line);
        }
        if (depth->valuedouble >= 1) { /* the executor's root scope is implicit */
            if (im->nscopes == im->scopecap) {
                size_t ncap = im->scopecap ? im->scopecap * 2 : 256;
                imp_scope *ns = realloc(im->scopes, ncap * sizeof(*ns));
                if (!ns) {
                    cJSON_Delete(r);
                    free(text);
                    return fail(im, "scope_stats/scope_stats.jsonl", "out of memory");
                }
                im->scopes = ns;
                im->scopecap = ncap;
            }
            imp_scope *s = &im->scopes[im->nscopes++];
            s->begin = strcmp(ph->valuestring, "begin") == 0;
            s->depth = (int)depth->valuedouble;
            s->ring = (int)ring->valuedouble;
            s->count = (uint64_t)end->valuedouble;
            snprintf(s->site, sizeof(s->site), "%s",
                     cJSON_IsString(site) ? site->valuestring : "(unknown):0");
        }
        cJSON_Delete(r);
    }
    free(text);
    return 0;
}

/* ---- writing ---- */

static int ring_of(uint64_t id)
{
    return (int)((id >> 32) & 0xFF);
}

static void put_dims(FILE *f, const int64_t *v, int n)
{
    fputc('[', f);
    for (int i = 0; i < n; i++)
        fprintf(f, "%s%" PRId64, i ? ", " : "", v[i]);
    fputc(']', f);
}

static void put_task(const importer *im, const imp_task *t, FILE *f)
{
    if (t->alloc) {
        fprintf(f, "{\"op\": \"alloc\", \"id\": \"t%" PRIu64 "\", \"tensors\": [", t->id);
        int n = 0;
        for (size_t i = 0; i < im->ntensors; i++)
            if (im->tensors[i].creator == t->id)
                fprintf(f, "%s{\"name\": \"t%zu\", \"dtype\": \"%s\", \"shape\": [%" PRIu64 "]}",
                        n++ ? ", " : "", i, dtype_name(im->tensors[i].dtype), im->tensors[i].numel);
        fputs("]}\n", f);
        return;
    }
    bool dummy = t->k[0] < 0 && t->k[1] < 0 && t->k[2] < 0;
    fprintf(f, "{\"op\": \"%s\", \"id\": \"t%" PRIu64 "\"", dummy ? "dummy" : "submit", t->id);
    if (!dummy) {
        fputs(", \"kernels\": [", f);
        for (int s = 0; s < 3; s++)
            if (t->k[s] >= 0)
                fprintf(f, "%s%d", s ? ", " : "", t->k[s]);
            else
                fprintf(f, "%snull", s ? ", " : "");
        fputc(']', f);
        if (t->block_num > 1)
            fprintf(f, ", \"block_num\": %d", t->block_num);
        if (t->sync && t->block_num > 1)
            fputs(", \"sync_start\": true", f);
        if (t->early)
            fputs(", \"early_resolve\": true", f);
        int active = (t->k[0] >= 0) + (t->k[1] >= 0) + (t->k[2] >= 0);
        if (t->ns >= 0 && active == 1) /* its own measured time (MIX tasks take their kernels') */
            fprintf(f, ", \"cost\": {\"ns\": %.0f}", t->ns);
    }
    fputs(", \"args\": [", f);
    for (int a = 0; a < t->nargs; a++) {
        const imp_arg *ia = &t->args[a];
        fputs(a ? ", " : "", f);
        if (ia->type == A_OUT) {
            if (ia->tensor >= 0)
                fprintf(
                    f, "{\"dir\": \"out\", \"tensor\": \"t%d\", \"dtype\": \"%s\", \"shape\": [%" PRIu64 "]}",
                    ia->tensor, dtype_name(im->tensors[ia->tensor].dtype), im->tensors[ia->tensor].numel);
            else /* nobody read it: its size is unknown */
                fprintf(f,
                        "{\"dir\": \"out\", \"tensor\": \"u%" PRIu64
                        "_%d\", \"dtype\": \"INT8\", \"shape\": [1]}",
                        t->id, a);
            continue;
        }
        fprintf(f, "{\"dir\": \"%s\", \"tensor\": \"t%d\", \"shape\": ", DIRS[ia->type], ia->tensor);
        put_dims(f, ia->shape, ia->ndim);
        fputs(", \"strides\": ", f);
        put_dims(f, ia->strides, ia->ndim);
        fprintf(f, ", \"start_offset\": %" PRIu64 "}", ia->start);
    }
    fputc(']', f);
    if (t->ndeps) {
        fputs(", \"deps\": [", f);
        for (int d = 0; d < t->ndeps; d++)
            fprintf(f, "%s\"t%" PRIu64 "\"", d ? ", " : "", t->deps[d]);
        fputc(']', f);
    }
    fputs("}\n", f);
}

/* Puts each alloc task after the submit whose id precedes it in its ring. */
static int order_tasks(importer *im)
{
    size_t n = im->ntasks;
    imp_task *out = malloc((n ? n : 1) * sizeof(*out));
    bool *used = calloc(n ? n : 1, sizeof(*used));
    if (!out || !used) {
        free(out);
        free(used);
        return fail(im, "deps.json", "out of memory");
    }
    size_t k = 0;
    /* allocs whose predecessor in their ring is not a submit come first in their ring's place */
    for (size_t i = 0; i < n; i++) {
        if (im->tasks[i].alloc)
            continue;
        /* pending allocs of this ring with a smaller local id go before it */
        for (size_t j = 0; j < n; j++)
            if (!used[j] && im->tasks[j].alloc && ring_of(im->tasks[j].id) == ring_of(im->tasks[i].id) &&
                im->tasks[j].id < im->tasks[i].id) {
                out[k++] = im->tasks[j];
                used[j] = true;
            }
        out[k++] = im->tasks[i];
        used[i] = true;
    }
    for (size_t j = 0; j < n; j++)
        if (!used[j])
            out[k++] = im->tasks[j];
    free(im->tasks);
    free(used);
    im->tasks = out;
    im->taskcap = n;
    return 0;
}

/* Emits the ops: tasks in submission order with the scopes of the capture
 * (scope stats) or, without them, scopes that follow the task rings. */
static void put_ops(importer *im, FILE *f)
{
    size_t si = 0;
    int depth = 0;
    uint64_t emitted[4] = {0}; /* tasks emitted per ring (local ids are dense from 0) */
    int guessed = 0;           /* tasks in the current guessed scope */
    for (size_t i = 0; i < im->ntasks; i++) {
        const imp_task *t = &im->tasks[i];
        int r = ring_of(t->id);
        if (im->nscopes) {
            /* scope boundaries recorded before this task: an event comes first
             * once its ring has all the tasks it counted, or when this task
             * cannot belong to the current depth */
            while (si < im->nscopes) {
                const imp_scope *s = &im->scopes[si];
                int cur_ring = depth < 3 ? depth : 3;
                bool fits_here = r == cur_ring && (s->ring != r || emitted[r] < s->count);
                if (fits_here)
                    break;
                if (s->begin) {
                    fprintf(f, "{\"op\": \"scope_begin\", \"site\": \"%s\"%s}\n", s->site,
                            t->manual && s->depth == depth + 1 ? ", \"mode\": \"manual\"" : "");
                    depth++;
                } else {
                    fputs("{\"op\": \"scope_end\"}\n", f);
                    depth--;
                }
                si++;
            }
        } else {
            /* guessed: nest to the task's ring, and close a scope every 1024 tasks so a long
             * run of one ring does not hold the whole window */
            int want = r;
            if (depth == want && want > 0 && guessed >= 1024) {
                fputs("{\"op\": \"scope_end\"}\n{\"op\": \"scope_begin\"}\n", f);
                guessed = 0;
            }
            while (depth > want) {
                fputs("{\"op\": \"scope_end\"}\n", f);
                depth--;
                guessed = 0;
            }
            while (depth < want) {
                fprintf(f, "{\"op\": \"scope_begin\"%s}\n", t->manual ? ", \"mode\": \"manual\"" : "");
                depth++;
                guessed = 0;
            }
            guessed++;
        }
        put_task(im, t, f);
        if (r < 4)
            emitted[r]++;
    }
    for (; si < im->nscopes; si++) {
        if (im->scopes[si].begin) {
            fprintf(f, "{\"op\": \"scope_begin\", \"site\": \"%s\"}\n", im->scopes[si].site);
            depth++;
        } else {
            fputs("{\"op\": \"scope_end\"}\n", f);
            depth--;
        }
    }
    while (depth-- > 0)
        fputs("{\"op\": \"scope_end\"}\n", f);
}

static void put_header(importer *im, FILE *f)
{
    for (int i = 0; i < GRAPH_MAX_FUNC_ID; i++)
        im->func_core[i] = -1;
    for (size_t i = 0; i < im->ntasks; i++)
        for (int s = 0; s < 3; s++)
            if (im->tasks[i].k[s] >= 0)
                im->func_core[im->tasks[i].k[s]] = s == 0 ? 0 : 1;
    fputs("{\"ptosim_graph\": 1, \"name\": ", f);
    fprintf(f, "\"%s\"", im->graph_name[0] ? im->graph_name : "imported");
    if (im->orchestrator[0])
        fprintf(f, ", \"orchestrator\": \"%s\"", im->orchestrator);
    fputs(", \"kernels\": [", f);
    int n = 0;
    for (int id = 0; id < GRAPH_MAX_FUNC_ID; id++) {
        if (im->func_core[id] < 0)
            continue;
        char fallback[32];
        snprintf(fallback, sizeof(fallback), "func%d", id);
        fprintf(f, "%s{\"id\": %d, \"name\": \"%s\", \"core\": \"%s\", \"cost\": {\"ns\": %.0f}}",
                n++ ? ", " : "", id, im->names[id][0] ? im->names[id] : fallback,
                im->func_core[id] ? "aiv" : "aic", im->func_ns[id] >= 0 ? im->func_ns[id] : 1000.0);
    }
    fputs("], \"tensors\": [", f);
    n = 0;
    for (size_t i = 0; i < im->ntensors; i++) {
        const imp_tensor *t = &im->tensors[i];
        if (t->creator != UINT64_MAX)
            continue;
        fprintf(f,
                "%s{\"name\": \"t%zu\", \"dtype\": \"%s\", \"shape\": [%" PRIu64 "], \"addr\": \"%" PRIu64
                "\", \"version\": %d}",
                n++ ? ", " : "", i, dtype_name(t->dtype), t->numel ? t->numel : 1, t->addr, t->version);
    }
    fputs("]}\n", f);
}

int import_capture(const char *dfx_dir, FILE *out, char *err, size_t errlen)
{
    importer *im = calloc(1, sizeof(*im));
    if (!im) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    im->dir = dfx_dir;
    im->err = err;
    im->errlen = errlen;
    for (int i = 0; i < GRAPH_MAX_FUNC_ID; i++)
        im->func_ns[i] = -1;
    int rc = read_deps(im);
    if (rc == 0)
        rc = add_allocs(im);
    if (rc == 0) {
        bind_outputs(im);
        rc = order_tasks(im);
    }
    if (rc == 0)
        rc = read_swimlane(im);
    if (rc == 0)
        rc = read_scope_stats(im);
    if (rc == 0) {
        read_name_map(im);
        put_header(im, out);
        put_ops(im, out);
    }
    for (size_t i = 0; i < im->ntasks; i++) {
        free(im->tasks[i].args);
        free(im->tasks[i].deps);
    }
    free(im->tasks);
    free(im->tensors);
    free(im->scopes);
    free(im);
    return rc;
}

int import_main(int argc, char **argv)
{
    if (argc != 1 || argv[0][0] == '-') {
        fputs(
            "usage: ptosim import DFX_DIR > graph.jsonl\n"
            "  DFX_DIR: a run's dfx_outputs/ with deps.json (--enable-dep-gen); chip_swimlane_records.json\n"
            "  gives the kernel times and scope_stats/scope_stats.jsonl the scopes, when present\n",
            argc == 1 && strcmp(argv[0], "--help") == 0 ? stdout : stderr);
        return argc == 1 && strcmp(argv[0], "--help") == 0 ? EXIT_OK : EXIT_USAGE;
    }
    char err[2048];
    if (import_capture(argv[0], stdout, err, sizeof(err)) != 0) {
        fprintf(stderr, "ptosim import: %s\n", err);
        return EXIT_GRAPH;
    }
    return EXIT_OK;
}
