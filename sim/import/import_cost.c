/* import_cost.c - import_cost_: an imported graph's kernel costs (model, --costs table, swimlane). */
/* Pipe forms derived from each kernel's args, a --costs table that overrides them, or the capture's swimlane
 * times (checked against the model); --costs perf-sim hands the pricing to import_perfsim.c. */
#include <cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../model/base/dtype.h"
#include "../../model/base/json_reader.h"
#include "../../model/chip/platform.h"
#include "../../model/base/readall.h"
#include "import_cost.h"
#include "import_perfsim.h"
#include "import_state.h"

#define SIMULATOR_CORES 24      /* a2a3sim's swimlane: 8 AIC + 16 AIV (a2a3 silicon has 72) */
#define IMPLAUSIBLE_RATIO 1000  /* a swimlane time this many times the model's estimate is reported */
#define MAX_PROFILES 64         /* distinct arg profiles counted per kernel when picking its default */
#define KCOST_OUTLIER_RATIO                                                                                  \
    100 /* a task priced this many times its kernel's other tasks' median is said ... */
#define KCOST_OUTLIER_FLOOR_NS 10000 /* ... when it takes this long: a shorter one holds no run back */
#define PIPE_TEXT_MAX 4096           /* a pipe form's text: under a thousand bytes */

static bool single_kernel(const imp_task *t)
{
    return (t->k[0] >= 0) + (t->k[1] >= 0) + (t->k[2] >= 0) == 1;
}

/* The model's view of task t's args. */
static int model_args(const importer *im, const imp_task *t, kcost_arg *out)
{
    int slot = 0;
    for (int i = 0; i < t->nargs; i++) {
        const imp_arg *a = &t->args[i];
        kcost_arg *k = &out[i];
        memset(k, 0, sizeof(*k));
        k->in = a->type != A_OUT && a->type != A_OUT_EXISTING;
        k->out = a->type == A_OUT || a->type == A_INOUT || a->type == A_OUT_EXISTING;
        const imp_arg *view = a;
        uint64_t bytes = 0;
        if (a->type == A_OUT) { /* what its readers see of it, else its storage */
            const imp_buf *b = (size_t)slot < t->nouts ? &im->bufs[t->outs[slot]] : NULL;
            slot++;
            view = b ? b->view : NULL;
            bytes = b ? (b->view ? b->view_bytes : b->bytes) : 0;
            k->dtype = view ? view->dtype : (b && b->tensor >= 0 ? im->tensors[b->tensor].dtype : DT_INT8);
        } else {
            k->dtype = a->dtype;
            bytes = (uint64_t)(dtype_size(a->dtype) > 0 ? dtype_size(a->dtype) : 1);
            for (int d = 0; d < a->ndim; d++)
                bytes *= (uint64_t)a->shape[d];
        }
        k->bytes = bytes;
        if (view) {
            k->ndim = view->ndim;
            memcpy(k->shape, view->shape, sizeof(k->shape[0]) * (size_t)view->ndim);
        }
    }
    return t->nargs;
}

/* One kernel's distinct arg profiles, to pick the most common as its cost. */
typedef struct profile_count {
    pipe_kernel k;
    kcost_status st;
    size_t n;
    size_t first; /* the task it came from */
} profile_count;

static int count_profile(profile_count *v, int *nv, const pipe_kernel *k, kcost_status st, size_t task)
{
    for (int i = 0; i < *nv; i++)
        if (v[i].st == st && memcmp(&v[i].k, k, sizeof(*k)) == 0) {
            v[i].n++;
            return i;
        }
    if (*nv == MAX_PROFILES)
        return -1;
    v[*nv] = (profile_count){.k = *k, .st = st, .n = 1, .first = task};
    return (*nv)++;
}

/* FNV-1a of what makes two tasks' work the same: kernels, blocks and every arg's view. */
static uint64_t task_key(const imp_task *t)
{
    uint64_t h = 1469598103934665603ULL;
#define MIX(x)                                                                                               \
    do {                                                                                                     \
        uint64_t v_ = (uint64_t)(x);                                                                         \
        for (int b_ = 0; b_ < 8; b_++, v_ >>= 8)                                                             \
            h = (h ^ (v_ & 0xff)) * 1099511628211ULL;                                                        \
    } while (0)
    for (int s = 0; s < 3; s++)
        MIX(t->k[s]);
    MIX(t->block_num);
    MIX(t->nargs);
    for (int i = 0; i < t->nargs; i++) {
        const imp_arg *a = &t->args[i];
        MIX(a->type);
        MIX(a->buf);
        MIX(a->tensor);
        MIX(a->start);
        MIX(a->ndim);
        for (int d = 0; d < a->ndim; d++) {
            MIX(a->shape[d]);
            MIX(a->strides[d]);
        }
    }
#undef MIX
    return h;
}

typedef struct keyed {
    uint64_t key;
    size_t task;
} keyed;

static int by_key(const void *a, const void *b)
{
    uint64_t x = ((const keyed *)a)->key, y = ((const keyed *)b)->key;
    return x < y ? -1 : x > y;
}

#define KEY_AFTER(a, b) ((a)->key > (b)->key)
IMP_STABLE_SORT(sort_keyed, keyed, KEY_AFTER)

/* Per task, how many tasks have its args to the letter and write an existing
 * output (INOUT or OUTPUT_EXISTING): the runtime repeats a task only with
 * other scalars (split-K chunks accumulating into one output), which a
 * capture does not record, so each is priced as that share of the work
 * (kcost_derive's repeat). 1 for every other task. NULL when out of memory. */
static int *task_repeats(const importer *im)
{
    int *rep = malloc((im->nknown ? im->nknown : 1) * sizeof(*rep));
    keyed *v = malloc((im->nknown ? im->nknown : 1) * sizeof(*v));
    if (!rep || !v) {
        free(rep);
        free(v);
        return NULL;
    }
    size_t n = 0;
    for (size_t i = 0; i < im->nknown; i++) {
        const imp_task *t = &im->tasks[i];
        rep[i] = 1;
        bool writes = false;
        for (int a = 0; a < t->nargs; a++)
            writes |= t->args[a].type == A_INOUT || t->args[a].type == A_OUT_EXISTING;
        if (!t->alloc && writes)
            v[n++] = (keyed){task_key(t), i};
    }
    sort_keyed(v, n, by_key);
    for (size_t i = 0, j; i < n; i = j) {
        for (j = i + 1; j < n && v[j].key == v[i].key; j++)
            ;
        for (size_t x = i; x < j; x++)
            rep[v[x].task] = (int)(j - i);
    }
    free(v);
    return rep;
}

/* kcost_derive's answers by their inputs: a kernel's tasks mostly have the same args, and deriving was most
 * of an import's pricing. */
#define MEMO_SLOTS 8192 /* at most half of them used: past that, a task's cost is derived each time */

typedef struct memo_entry {
    uint64_t hash;
    bool used, aic;
    int nargs, block_num, repeat;
    size_t args;     /* its args: pool[args .. args + nargs) */
    kcost_status st; /* what kcost_derive gave */
    pipe_kernel pk;  /* ... (copied whole: profiles are compared and hashed as bytes) */
    uint32_t model;  /* pipe_set_put's index of pk, 0 until a single-kernel task asked */
} memo_entry;

typedef struct derive_memo {
    memo_entry *slot; /* MEMO_SLOTS */
    size_t n;
    kcost_arg *pool;
    size_t npool, poolcap;
} derive_memo;

static uint64_t memo_hash(bool aic, const kcost_arg *args, int n, int block_num, int repeat)
{
    uint64_t h = ((uint64_t)aic << 48) ^ ((uint64_t)(unsigned)n << 32) ^ (uint64_t)(unsigned)block_num ^
                 ((uint64_t)(unsigned)repeat << 16);
    const unsigned char *b = (const unsigned char *)args;
    for (size_t i = 0; i + 8 <= sizeof(*args) * (size_t)n; i += 8) {
        uint64_t w;
        memcpy(&w, b + i, 8);
        h = (h ^ w) * 0x9E3779B97F4A7C15ull;
        h ^= h >> 29;
    }
    return h;
}

/* The entry of these inputs: found (true), or the free slot to fill (false; NULL when the memo is full or
 * its args cannot be kept). */
static bool memo_find(derive_memo *m, bool aic, const kcost_arg *args, int n, int block_num, int repeat,
                      memo_entry **out)
{
    uint64_t h = memo_hash(aic, args, n, block_num, repeat);
    size_t i = (size_t)h & (MEMO_SLOTS - 1);
    for (; m->slot[i].used; i = (i + 1) & (MEMO_SLOTS - 1)) {
        memo_entry *e = &m->slot[i];
        if (e->hash == h && e->aic == aic && e->nargs == n && e->block_num == block_num &&
            e->repeat == repeat && (n == 0 || memcmp(m->pool + e->args, args, sizeof(*args) * (size_t)n) == 0)) {
            *out = e;
            return true;
        }
    }
    *out = NULL;
    if (m->n >= MEMO_SLOTS / 2)
        return false;
    if (m->npool + (size_t)n > m->poolcap) {
        size_t cap = m->poolcap ? 2 * m->poolcap : 1024;
        while (cap < m->npool + (size_t)n)
            cap *= 2;
        kcost_arg *np = realloc(m->pool, cap * sizeof(*np));
        if (!np)
            return false;
        m->pool = np;
        m->poolcap = cap;
    }
    memo_entry *e = &m->slot[i];
    e->used = true;
    e->hash = h;
    e->aic = aic;
    e->nargs = n;
    e->block_num = block_num;
    e->repeat = repeat;
    e->args = m->npool;
    e->model = 0;
    if (n) /* a task without args leaves the pool as it is (it may not exist yet) */
        memcpy(m->pool + m->npool, args, sizeof(*args) * (size_t)n);
    m->npool += (size_t)n;
    m->n++;
    *out = e;
    return false;
}

/* Every kernel's cost from the model: the profile most of its tasks' args
 * give (ties: the first seen); a single-kernel task whose own profile
 * differs keeps it as its own cost. */
static int derive_all(importer *im)
{
    profile_count *prof = malloc(MAX_PROFILES * sizeof(*prof));
    int *rep = task_repeats(im);
    derive_memo memo = {.slot = calloc(MEMO_SLOTS, sizeof(memo_entry))};
    if (!prof || !rep || !memo.slot) {
        free(prof);
        free(rep);
        free(memo.slot);
        return imp_oom(im);
    }
    int rc = 0;
    kcost_arg args[GRAPH_MAX_TENSOR_ARGS];
    char note[KCOST_NOTE_MAX];
    for (int f = 0; f < GRAPH_MAX_FUNC_ID && rc == 0; f++) {
        imp_kernel *kn = &im->kernels[f];
        if (!kn->used)
            continue;
        int nprof = 0, unknown_first = -1;
        char unknown_note[KCOST_NOTE_MAX] = "";
        for (size_t i = 0; i < im->nknown && rc == 0; i++) {
            imp_task *t = &im->tasks[i];
            for (int s = 0; s < 3; s++) {
                if (t->k[s] != f)
                    continue;
                int n = model_args(im, t, args);
                pipe_kernel pk;
                kcost_status st;
                memo_entry *me;
                if (memo_find(&memo, s == 0, args, n, t->block_num, rep[i], &me)) {
                    st = me->st;
                    memcpy(&pk, &me->pk, sizeof(pk));
                    if (st == KCOST_UNKNOWN && unknown_first < 0) /* its note */
                        kcost_derive(s == 0, args, n, t->block_num, rep[i], &pk, note, sizeof(note));
                } else {
                    st = kcost_derive(s == 0, args, n, t->block_num, rep[i], &pk, note, sizeof(note));
                    if (me) {
                        me->st = st;
                        memcpy(&me->pk, &pk, sizeof(pk));
                    }
                }
                if (single_kernel(t)) {
                    t->model_status = st;
                    if (me && me->model) {
                        t->model = me->model;
                    } else if (!(t->model = pipe_set_put(&im->models, &pk))) {
                        rc = imp_oom(im);
                        break;
                    } else if (me) {
                        me->model = t->model;
                    }
                }
                if (st == KCOST_UNKNOWN) {
                    if (unknown_first < 0) {
                        unknown_first = (int)i;
                        snprintf(unknown_note, sizeof(unknown_note), "%s", note);
                    }
                    continue;
                }
                count_profile(prof, &nprof, &pk, st, i);
            }
        }
        if (rc != 0)
            break;
        int best = -1;
        for (int p = 0; p < nprof; p++)
            if (best < 0 || prof[p].n > prof[best].n)
                best = p;
        if (best < 0) {
            kn->status = KCOST_UNKNOWN;
            snprintf(kn->note, sizeof(kn->note), "%s", unknown_note);
            continue;
        }
        kn->status = prof[best].st;
        kn->model = prof[best].k;
        /* the note of the task the chosen profile came from */
        const imp_task *t = &im->tasks[prof[best].first];
        int s = t->k[0] == f ? 0 : t->k[1] == f ? 1 : 2;
        int n = model_args(im, t, args);
        pipe_kernel pk;
        kcost_derive(s == 0, args, n, t->block_num, rep[prof[best].first], &pk, kn->note, sizeof(kn->note));
        if (nprof > 1 || unknown_first >= 0) {
            size_t others = 0;
            for (int p = 0; p < nprof; p++)
                others += p == best ? 0 : prof[p].n;
            size_t len = strlen(kn->note);
            snprintf(kn->note + len, sizeof(kn->note) - len,
                     "; the args of %zu of its tasks in %zu give this profile, the others have their own",
                     prof[best].n, prof[best].n + others);
        }
    }
    free(prof);
    free(rep);
    free(memo.slot);
    free(memo.pool);
    if (rc != 0)
        return rc;
    for (size_t i = 0; i < im->nknown; i++) {
        imp_task *t = &im->tasks[i];
        if (!single_kernel(t) || t->model_status == KCOST_UNKNOWN)
            continue;
        int f = t->k[0] >= 0 ? t->k[0] : t->k[1] >= 0 ? t->k[1] : t->k[2];
        const imp_kernel *kn = &im->kernels[f];
        t->own_cost =
            kn->status != KCOST_UNKNOWN && memcmp(imp_task_model(im, t), &kn->model, sizeof(kn->model)) != 0;
    }
    return 0;
}

/* The func id a --costs table key names (a kernel name, or a func id), or -1. */
static int table_func(const importer *im, const char *key)
{
    for (int f = 0; f < GRAPH_MAX_FUNC_ID; f++)
        if (im->kernels[f].used && im->names[f][0] && strcmp(im->names[f], key) == 0)
            return f;
    char *end;
    errno = 0;
    long id = strtol(key, &end, 10);
    if (*key && !*end && !errno && id >= 0 && id < GRAPH_MAX_FUNC_ID && im->kernels[id].used)
        return (int)id;
    return -1;
}

/* "GEMM (func 0), ADD (func 1)": the capture's kernels, for a message. */
static void kernel_list(const importer *im, char *out, size_t len)
{
    size_t n = 0;
    out[0] = '\0';
    for (int f = 0; f < GRAPH_MAX_FUNC_ID && n < len; f++)
        if (im->kernels[f].used)
            n += (size_t)snprintf(out + n, len - n, "%s%s (func %d)", n ? ", " : "",
                                  im->names[f][0] ? im->names[f] : "unnamed", f);
}

static int table_entry(importer *im, const char *path, long line, const char *key, const cJSON *cost)
{
    int f = table_func(im, key);
    if (f < 0) {
        char list[1024];
        kernel_list(im, list, sizeof(list));
        snprintf(im->err, im->errlen, "%s:%ld: kernel '%s' is not one of the capture's kernels: %s", path,
                 line, key, list);
        return -1;
    }
    imp_kernel *kn = &im->kernels[f];
    if (kn->table) {
        snprintf(im->err, im->errlen, "%s:%ld: kernel '%s' has a cost already (line %ld)", path, line, key,
                 kn->table_line);
        return -1;
    }
    char field[GRAPH_NAME_MAX + 16];
    snprintf(field, sizeof(field), "%s", key);
    if (graph_check_cost(path, line, field, cost, kn->aic, NULL, im->err, im->errlen) != 0)
        return -1;
    kn->table = cJSON_PrintUnformatted(cost);
    kn->table_line = line;
    return kn->table ? 0 : imp_oom(im);
}

/* The line of text holding the first "key" (a JSON member name), for messages. */
static long line_of_key(const char *text, const char *key)
{
    size_t klen = strlen(key);
    long line = 1;
    for (const char *p = text; *p; p++) {
        if (*p == '\n')
            line++;
        else if (*p == '"' && strncmp(p + 1, key, klen) == 0 && p[1 + klen] == '"')
            return line;
    }
    return 1;
}

static int read_json_table(importer *im, const char *path, const char *text, size_t len)
{
    jsonl_error je; /* strict, as a graph: a kernel named twice is an error, not the last one winning */
    cJSON *root = jsonl_parse(text, len, &je);
    if (!root) {
        jsonl_message(im->err, im->errlen, path, text, &je, 0);
        return -1;
    }
    if (!cJSON_IsObject(root)) {
        cJSON_Delete(root);
        snprintf(im->err, im->errlen,
                 "%s: not a JSON object of kernel name or func id -> cost (e.g. {\"GEMM\": {\"ns\": 5000}})",
                 path);
        return -1;
    }
    int rc = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, root) if (rc == 0) rc =
        table_entry(im, path, line_of_key(text, e->string), e->string, e);
    cJSON_Delete(root);
    return rc;
}

/* CSV: a header "kernel,ns" or "kernel,cycles", then rows "NAME,N". */
static int read_csv_table(importer *im, const char *path, char *text)
{
    long line = 0;
    const char *unit = NULL;
    char *save = NULL;
    for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        line++;
        size_t n = strlen(l);
        if (n && l[n - 1] == '\r')
            l[--n] = '\0';
        if (!n)
            continue;
        char *comma = strchr(l, ',');
        if (!unit) {
            if (comma && strcmp(l, "kernel,ns") == 0)
                unit = "ns";
            else if (comma && strcmp(l, "kernel,cycles") == 0)
                unit = "cycles";
            else {
                snprintf(
                    im->err, im->errlen,
                    "%s:%ld: a CSV table starts with the header kernel,ns or kernel,cycles (got \"%.60s\")",
                    path, line, l);
                return -1;
            }
            continue;
        }
        char *end;
        errno = 0;
        unsigned long long v = comma ? strtoull(comma + 1, &end, 10) : 0;
        if (!comma || comma == l || !comma[1] || *end || errno || comma[1] == '-' || comma[1] == '+' ||
            comma[1] == ' ') {
            snprintf(im->err, im->errlen,
                     "%s:%ld: a row is KERNEL,%s with a whole number of %s (got \"%.60s\")", path, line, unit,
                     unit, l);
            return -1;
        }
        *comma = '\0';
        cJSON *cost = cJSON_CreateObject();
        if (!cost || !cJSON_AddNumberToObject(cost, unit, (double)v)) {
            cJSON_Delete(cost);
            return imp_oom(im);
        }
        int rc = table_entry(im, path, line, l, cost);
        cJSON_Delete(cost);
        if (rc != 0)
            return -1;
    }
    if (!unit) {
        snprintf(im->err, im->errlen,
                 "%s: empty (a CSV table starts with the header kernel,ns or kernel,cycles)", path);
        return -1;
    }
    return 0;
}

static int read_table(importer *im, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(im->err, im->errlen, "%s: cannot read the costs table: %s", path, strerror(errno));
        return -1;
    }
    size_t len;
    char why[128];
    char *text = readall(f, READALL_TABLE, &len, why, sizeof(why));
    int e = errno;
    fclose(f);
    if (!text) {
        snprintf(im->err, im->errlen, "%s: cannot read the costs table: %s", path, e == EFBIG ? why : strerror(e));
        return -1;
    }
    const char *p = text;
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    int rc = *p == '{' || *p == '[' ? read_json_table(im, path, text, len) : read_csv_table(im, path, text);
    free(text);
    return rc;
}

/* A kernel's time from the model on a2a3 (ns), for checking swimlane times. */
static double model_ns(const pipe_kernel *k)
{
    static platform plat;
    static pipe_rates rates;
    static bool ready;
    if (!ready) {
        platform_defaults(&plat);
        platform_pipe_rates(&plat, &rates);
        ready = true;
    }
    pipe_result r;
    pipe_run(k, &rates, &r);
    return (double)r.total_cycles * 1e9 / (double)plat.aicore_freq_hz;
}

static const char *kname(const importer *im, int f, char *buf, size_t len)
{
    if (im->names[f][0])
        return im->names[f];
    snprintf(buf, len, "func%d", f);
    return buf;
}

static size_t pipe_text(const pipe_kernel *k, char *buf, size_t n);

/* Checks k as the graph loader will (graph_check_cost): the import never
 * writes a cost the run refuses. Returns 0, or -1 naming who in im->err. */
static int check_pipe(importer *im, const pipe_kernel *k, const char *who)
{
    char text[PIPE_TEXT_MAX];
    size_t len = pipe_text(k, text, sizeof(text));
    /* read back as a graph's reader reads it: by jsonl's rules */
    jsonl_error je;
    cJSON *v = jsonl_parse(text, len, &je);
    if (!v && je.what == JSONL_OOM)
        return imp_oom(im);
    char err[512];
    if (!v)
        jsonl_message(err, sizeof(err), "the printed cost", text, &je, 0);
    int rc = v && graph_check_cost("the model", 0, who, v, k->aic, NULL, err, sizeof(err)) == 0 ? 0 : -1;
    if (rc != 0)
        snprintf(im->err, im->errlen, "the model's cost of %s is one a graph may not hold (%s): %s", who, err,
                 text);
    cJSON_Delete(v);
    return rc;
}

/* The cost source of kernel f is the model (not a table, the swimlane or Perf-Sim). */
static bool model_priced(const importer *im, int f)
{
    const imp_kernel *kn = &im->kernels[f];
    return kn->used && !kn->table && kn->status != KCOST_UNKNOWN && !kn->model.measured &&
           !(im->costs == IMPORT_COSTS_SWIMLANE && im->func_ns[f] >= 0);
}

/* One block of task t's time on a2a3 from the model's costs (ns): its slowest kernel. */
static double task_model_ns(const importer *im, const imp_task *t)
{
    double ns = 0;
    for (int s = 0; s < 3; s++) {
        if (t->k[s] < 0)
            continue;
        const pipe_kernel *pk =
            single_kernel(t) && t->own_cost ? imp_task_model(im, t) : &im->kernels[t->k[s]].model;
        double x = model_ns(pk);
        if (x > ns)
            ns = x;
    }
    return ns;
}

typedef struct task_ns {
    double ns;   /* one block's time */
    size_t task; /* tasks[] index */
} task_ns;

static int by_ns(const void *a, const void *b)
{
    double x = ((const task_ns *)a)->ns, y = ((const task_ns *)b)->ns;
    return x < y ? -1 : x > y;
}

/* Says (on stderr and in the kernel's note) when the model prices a task of a
 * model-priced kernel past the platform's watchdogs (a run would end in a
 * timeout the runtime never hit) or over KCOST_OUTLIER_RATIO times the
 * median of the kernel's other tasks: both mean args the model misread. */
static int warn_outliers(importer *im)
{
    platform plat;
    platform_defaults(&plat);
    double limit_us = (double)plat.op_execute_timeout_us;
    const char *which = "STARS op-execute timeout";
    if (plat.scheduler_timeout_ms * 1000.0 < limit_us) {
        limit_us = plat.scheduler_timeout_ms * 1000.0;
        which = "scheduler no-progress timeout";
    }
    task_ns *v = malloc((im->nknown ? im->nknown : 1) * sizeof(*v));
    if (!v)
        return imp_oom(im);
    char nb[32], msg[KCOST_NOTE_MAX];
    for (int f = 0; f < GRAPH_MAX_FUNC_ID; f++) {
        if (!model_priced(im, f))
            continue;
        size_t n = 0;
        for (size_t i = 0; i < im->nknown; i++) {
            const imp_task *t = &im->tasks[i];
            if (!t->alloc && (t->k[0] == f || t->k[1] == f || t->k[2] == f))
                v[n++] = (task_ns){task_model_ns(im, t), i};
        }
        if (!n)
            continue;
        qsort(v, n, sizeof(*v), by_ns);
        imp_kernel *kn = &im->kernels[f];
        const char *name = kname(im, f, nb, sizeof(nb));
        size_t over = 0;
        for (size_t i = 0; i < n; i++)
            over += v[i].ns > limit_us * 1e3;
        if (over) {
            const task_ns *w = &v[n - 1];
            snprintf(
                msg, sizeof(msg),
                "task %" PRIu64 " is priced at %.6g s a block, past a2a3's %s (%.6g s; %zu of its %zu "
                "tasks are): a run would end in a timeout the runtime did not hit; check its args or give "
                "its cost in a --costs table",
                im->tasks[w->task].id, w->ns / 1e9, which, limit_us / 1e6, over, n);
            if (im->warn)
                fprintf(im->warn, "ptosim: warning: kernel %s: %s\n", name, msg);
            size_t len = strlen(kn->note);
            snprintf(kn->note + len, sizeof(kn->note) - len, "; warning: %s", msg);
        }
        if (n < 2)
            continue;
        /* the median of the others: the lower median of n - 1, skipping the task itself */
        size_t outliers = 0, worst = 0;
        double worst_ratio = 0, worst_med = 0;
        for (size_t i = 0; i < n; i++) {
            size_t m = (n - 2) / 2;
            double med = v[m < i ? m : m + 1].ns;
            if (med > 0 && v[i].ns > KCOST_OUTLIER_RATIO * med && v[i].ns >= KCOST_OUTLIER_FLOOR_NS) {
                outliers++;
                if (v[i].ns / med > worst_ratio) {
                    worst_ratio = v[i].ns / med;
                    worst = i;
                    worst_med = med;
                }
            }
        }
        if (outliers) {
            snprintf(msg, sizeof(msg),
                     "task %" PRIu64
                     " is priced at %.6g us a block, %.3gx the median %.6g us of the kernel's "
                     "other tasks (%zu of its %zu tasks are over %dx and 10 us): check its args or give its "
                     "cost in a "
                     "--costs table",
                     im->tasks[v[worst].task].id, v[worst].ns / 1e3, worst_ratio, worst_med / 1e3, outliers,
                     n, KCOST_OUTLIER_RATIO);
            if (im->warn)
                fprintf(im->warn, "ptosim: warning: kernel %s: %s\n", name, msg);
            size_t len = strlen(kn->note);
            snprintf(kn->note + len, sizeof(kn->note) - len, "; warning: %s", msg);
        }
    }
    free(v);
    return 0;
}

int import_cost_resolve(importer *im, const import_opts *opt)
{
    im->kernels = calloc(GRAPH_MAX_FUNC_ID, sizeof(*im->kernels));
    if (!im->kernels)
        return imp_oom(im);
    for (size_t i = 0; i < im->nknown; i++)
        for (int s = 0; s < 3; s++)
            if (im->tasks[i].k[s] >= 0) {
                im->kernels[im->tasks[i].k[s]].used = true;
                im->kernels[im->tasks[i].k[s]].aic = s == 0;
            }
    im->costs = opt->costs;
    if (im->costs == IMPORT_COSTS_AUTO) {
        im->costs = im->swim_cores > 0 && im->swim_cores != SIMULATOR_CORES ? IMPORT_COSTS_SWIMLANE
                                                                            : IMPORT_COSTS_MODEL;
        if (im->costs == IMPORT_COSTS_MODEL && im->warn && im->swim_cores == SIMULATOR_CORES)
            fprintf(im->warn,
                    "ptosim: kernel costs from the model: the swimlane has %d cores, a simulator "
                    "platform's, whose times are the host's (--costs swimlane takes them anyway)\n",
                    SIMULATOR_CORES);
        else if (im->costs == IMPORT_COSTS_MODEL && im->warn)
            fputs("ptosim: kernel costs from the model: the capture has no swimlane to time them\n",
                  im->warn);
    }
    if (derive_all(im) != 0 || (opt->costs_file && read_table(im, opt->costs_file) != 0))
        return -1;
    if (im->costs == IMPORT_COSTS_PERFSIM && import_perfsim_costs(im, opt) != 0)
        return -1;
    /* every kernel needs a cost: the table's, the swimlane's, or the model's */
    char missing[2048] = "", nb[32];
    size_t n = 0;
    for (int f = 0; f < GRAPH_MAX_FUNC_ID; f++) {
        imp_kernel *kn = &im->kernels[f];
        if (!kn->used || kn->table || kn->status != KCOST_UNKNOWN ||
            (im->costs == IMPORT_COSTS_SWIMLANE && im->func_ns[f] >= 0))
            continue;
        n += (size_t)snprintf(missing + n, n < sizeof(missing) ? sizeof(missing) - n : 0,
                              "%s%s (func %d): %s", n ? "; " : "", kname(im, f, nb, sizeof(nb)), f, kn->note);
    }
    if (n) {
        snprintf(im->err, im->errlen,
                 "no cost for %s; give it in a table with --costs FILE, e.g. {\"NAME\": {\"ns\": 5000}}",
                 missing);
        return -1;
    }
    for (int f = 0; f < GRAPH_MAX_FUNC_ID; f++) /* an assumption the model made is said */
        if (im->kernels[f].used && !im->kernels[f].table && im->kernels[f].status == KCOST_ASSUMED &&
            (im->costs == IMPORT_COSTS_MODEL || im->func_ns[f] < 0))
            imp_note(im, "kernel %s: %s", kname(im, f, nb, sizeof(nb)),
                     strstr(im->kernels[f].note, "; its ") ? strstr(im->kernels[f].note, "; its ") + 2
                                                           : im->kernels[f].note);
    /* a model cost is one the run loads, and one far past its watchdogs or its kernel's other tasks is said
     */
    for (int f = 0; f < GRAPH_MAX_FUNC_ID; f++) {
        if (!model_priced(im, f))
            continue;
        char who[GRAPH_NAME_MAX + 48];
        snprintf(who, sizeof(who), "kernel %s", kname(im, f, nb, sizeof(nb)));
        if (check_pipe(im, &im->kernels[f].model, who) != 0)
            return -1;
    }
    /* each distinct profile once: whether the run loads it is a matter of the profile alone */
    unsigned char *loads = calloc(im->models.n ? im->models.n : 1, 1);
    if (!loads)
        return imp_oom(im);
    for (size_t i = 0; i < im->nknown; i++) {
        const imp_task *t = &im->tasks[i];
        int f = t->k[0] >= 0 ? t->k[0] : t->k[1] >= 0 ? t->k[1] : t->k[2];
        if (t->alloc || !single_kernel(t) || !t->own_cost || !model_priced(im, f) || loads[t->model])
            continue;
        char who[64];
        snprintf(who, sizeof(who), "task %" PRIu64, t->id);
        if (check_pipe(im, imp_task_model(im, t), who) != 0) {
            free(loads);
            return -1;
        }
        loads[t->model] = 1;
    }
    free(loads);
    if (warn_outliers(im) != 0)
        return -1;
    /* a swimlane time orders of magnitude from the model's estimate is said, never used silently */
    if (im->costs == IMPORT_COSTS_SWIMLANE && im->warn)
        for (int f = 0; f < GRAPH_MAX_FUNC_ID; f++) {
            const imp_kernel *kn = &im->kernels[f];
            if (!kn->used || kn->table || kn->status == KCOST_UNKNOWN || im->func_ns[f] < 0)
                continue;
            double est = model_ns(&kn->model), ratio = im->func_ns[f] / est;
            if (ratio > IMPLAUSIBLE_RATIO) /* slower than its work by orders: a host clock, not a chip */
                fprintf(im->warn,
                        "ptosim: warning: kernel %s: the swimlane's %.0f ns is %.3gx the model's %.0f ns "
                        "for its args, not a time of this kernel on a2a3; --costs model derives it instead\n",
                        kname(im, f, nb, sizeof(nb)), im->func_ns[f], ratio, est);
        }
    return 0;
}

/* printf's "%.6g" of x: the few rates and clocks of a pipe form. */
static void put_g6(wbuf *w, double x)
{
    char t[32];
    int n = snprintf(t, sizeof(t), "%.6g", x);
    if (n > 0)
        wbuf_put(w, t, (size_t)n < sizeof(t) ? (size_t)n : sizeof(t) - 1);
}

/* A measured profile as the graph file writes it. */
static void put_measured(const pipe_kernel *k, wbuf *w)
{
    wbuf_lit(w, "{\"perf_sim\": {\"ghz\": ");
    put_g6(w, (double)k->measured_hz / 1e9);
    wbuf_lit(w, ", \"cycles\": ");
    wbuf_u64(w, k->measured_cycles);
    wbuf_lit(w, ", \"busy\": {");
    int n = 0;
    for (int p = 0; p < PIPE_COUNT; p++)
        if (pipe_on_core((pipe_id)p, k->aic)) {
            wbuf_str(w, n++ ? ", \"" : "\"");
            wbuf_str(w, pipe_name((pipe_id)p));
            wbuf_lit(w, "\": ");
            wbuf_u64(w, k->work.cycles[p]);
        }
    wbuf_lit(w, "}, \"gm_bytes\": {");
    n = 0;
    for (int p = 0; p < PIPE_COUNT; p++)
        if (pipe_on_core((pipe_id)p, k->aic) && pipe_is_gm((pipe_id)p)) {
            wbuf_str(w, n++ ? ", \"" : "\"");
            wbuf_str(w, pipe_name((pipe_id)p));
            wbuf_lit(w, "\": ");
            wbuf_u64(w, k->work.bytes[p]);
        }
    wbuf_lit(w, "}}}");
}

/* A pipe form as the graph file writes it. */
static void put_pipe(const pipe_kernel *k, wbuf *w)
{
    if (k->measured) {
        put_measured(k, w);
        return;
    }
    wbuf_lit(w, "{\"tiles\": ");
    wbuf_u64(w, k->tiles);
    wbuf_lit(w, ", \"buffers\": ");
    wbuf_u64(w, k->buffers);
    const pipe_work *pw = &k->work;
    if (k->scalar_given) {
        wbuf_lit(w, ", \"scalar\": ");
        wbuf_u64(w, pw->cycles[PIPE_SCALAR]);
    }
    static const pipe_id order[] = {PIPE_MTE2, PIPE_MTE1, PIPE_CUBE, PIPE_VECTOR, PIPE_MTE3, PIPE_FIXPIPE};
    for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
        pipe_id p = order[i];
        if (p == PIPE_VECTOR && pw->cycles[p] && !pw->vec_elems) {
            wbuf_lit(w, ", \"vector\": {\"cycles\": ");
            wbuf_u64(w, pw->cycles[p]);
            wbuf_char(w, '}');
        } else if (p == PIPE_CUBE && pw->mnk[0]) {
            wbuf_lit(w, ", \"cube\": {\"m\": ");
            wbuf_u64(w, pw->mnk[0]);
            wbuf_lit(w, ", \"n\": ");
            wbuf_u64(w, pw->mnk[1]);
            wbuf_lit(w, ", \"k\": ");
            wbuf_u64(w, pw->mnk[2]);
            wbuf_lit(w, ", \"dtype\": \"");
            wbuf_str(w, pw->cube_elem_bytes == 1 ? "INT8" : pw->cube_elem_bytes == 4 ? "FLOAT32" : "FLOAT16");
            wbuf_lit(w, "\"}");
        } else if (p == PIPE_VECTOR && pw->vec_elems) {
            wbuf_lit(w, ", \"vector\": {\"elems\": ");
            wbuf_u64(w, pw->vec_elems);
            wbuf_lit(w, ", \"dtype\": \"");
            wbuf_str(w, pw->vec_elem_bytes == 1   ? "INT8"
                        : pw->vec_elem_bytes == 2 ? "FLOAT16"
                        : pw->vec_elem_bytes == 4 ? "FLOAT32"
                                                  : "INT64");
            wbuf_lit(w, "\"}");
        } else if (p != PIPE_CUBE && p != PIPE_VECTOR && pw->bytes[p]) {
            wbuf_lit(w, ", \"");
            wbuf_str(w, pipe_name(p));
            wbuf_lit(w, "\": {\"bytes\": ");
            wbuf_u64(w, pw->bytes[p]);
            if (p == PIPE_MTE2 && pw->mte2_reread) {
                wbuf_lit(w, ", \"reread\": ");
                wbuf_u64(w, pw->mte2_reread);
            }
            if (pw->gib_per_s[p] > 0) {
                wbuf_lit(w, ", \"gib_per_s\": ");
                put_g6(w, pw->gib_per_s[p]);
            }
            wbuf_char(w, '}');
        }
    }
    wbuf_char(w, '}');
}

/* k's text as the graph file writes it into buf (n bytes, PIPE_TEXT_MAX: more than any takes), NUL-ended;
 * returns its length. */
static size_t pipe_text(const pipe_kernel *k, char *buf, size_t n)
{
    wbuf w = {.buf = buf, .p = buf, .end = buf + n - 1, .fd = -1}; /* never flushed: it has room */
    put_pipe(k, &w);
    *w.p = '\0';
    return (size_t)(w.p - buf);
}

void import_cost_put_kernel(const importer *im, int func, FILE *f)
{
    const imp_kernel *kn = &im->kernels[func];
    fputs(", \"cost\": ", f);
    if (kn->table) {
        fputs(kn->table, f);
        fprintf(f, ", \"note\": \"the --costs table, line %ld\"", kn->table_line);
    } else if (im->costs == IMPORT_COSTS_SWIMLANE && im->func_ns[func] >= 0) {
        fprintf(f, "{\"ns\": %.0f}, \"note\": \"the median of its executions in the capture's swimlane\"",
                im->func_ns[func]);
    } else {
        char text[PIPE_TEXT_MAX];
        pipe_text(&kn->model, text, sizeof(text));
        fputs(text, f);
        fputs(", \"note\": ", f);
        imp_put_str(f, kn->note);
    }
}

void import_cost_put_task(const importer *im, const imp_task *t, wbuf *w, char **texts, size_t ntexts)
{
    if (t->alloc || !single_kernel(t))
        return; /* MIX tasks run their kernels' costs */
    int func = t->k[0] >= 0 ? t->k[0] : t->k[1] >= 0 ? t->k[1] : t->k[2];
    const imp_kernel *kn = &im->kernels[func];
    if (kn->table)
        return;
    if (im->costs == IMPORT_COSTS_SWIMLANE && im->func_ns[func] >= 0) {
        if (t->ns >= 0) {
            wbuf_lit(w, ", \"cost\": {\"ns\": ");
            wbuf_fixed0(w, t->ns);
            wbuf_char(w, '}');
        }
    } else if (t->own_cost) {
        wbuf_lit(w, ", \"cost\": ");
        const char *kept = texts && t->model < ntexts ? texts[t->model] : NULL;
        if (kept) {
            wbuf_str(w, kept);
            return;
        }
        char text[PIPE_TEXT_MAX];
        size_t n = pipe_text(imp_task_model(im, t), text, sizeof(text));
        wbuf_put(w, text, n);
        if (texts && t->model < ntexts)
            texts[t->model] = strdup(text); /* NULL: written again next time */
    }
}
