/* import_perfsim.c - import_perfsim_: `import --costs perf-sim`, task signatures priced by Perf-Sim. */
/* Each task's signature from the capture (its args dump, else deps.json and a --values table), priced by
 * its kernel's own code under Perf-Sim (perfsim.c). */
#include <cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../model/base/dtype.h"
#include "../../model/base/json_reader.h"
#include "../../model/base/readall.h"
#include "../../model/chip/platform.h"
#include "import_perfsim.h"
#include "import_state.h"
#include "../perfsim/perfsim.h"

#define CONTENT_MAX (1u << 20) /* an integer input's contents go into its signature up to this size */
#define SIG_SLOTS_INIT 64      /* the signature hash's first size */

/* Integer inputs steer a kernel's control flow (bgemm's config, block tables, lengths, flags); float data
 * does not change its instructions, and leaving it out keeps one signature for many tasks. */
static bool steering_dtype(int dt)
{
    return dt == DT_INT8 || dt == DT_UINT8 || dt == DT_INT16 || dt == DT_UINT16 || dt == DT_INT32 ||
           dt == DT_UINT32 || dt == DT_INT64 || dt == DT_UINT64 || dt == DT_BOOL;
}

/* Elements the buffer must hold for a view: start + 1 + sum (shape - 1) x stride. */
static uint64_t buffer_elems(const perfsim_arg *a)
{
    uint64_t e = 1;
    for (int d = 0; d < a->ndim; d++)
        if (a->shape[d])
            e += (uint64_t)(a->shape[d] - 1) * a->stride[d];
    return a->start + e;
}

/* ---- the kernel table: --kernel NAME=FILE, --kernels TABLE (JSON, or a runtime test file's incores) ---- */

/* Does s name kernel f: its name, the name the graph shows for it (funcN when the capture names none), or its
 * id ("0")? */
static bool names_func(const importer *im, int f, const char *s)
{
    char id[24], shown[24];
    snprintf(id, sizeof(id), "%d", f);
    snprintf(shown, sizeof(shown), "func%d", f);
    return (im->names[f][0] && strcmp(s, im->names[f]) == 0) || strcmp(s, id) == 0 ||
           (!im->names[f][0] && strcmp(s, shown) == 0);
}

typedef struct ksrc {
    char name[GRAPH_NAME_MAX]; /* "" when a test file gives only its func_id */
    int id;                    /* its func_id from a test file, -1 none */
    char path[PATH_MAX];
    int core; /* -1 unknown, 0 aic, 1 aiv */
    char from[PATH_MAX + 32]; /* where it was given, for messages */
} ksrc;

typedef struct perf_state {
    importer *im;
    const import_opts *opt;
    ksrc *src;
    size_t nsrc, srccap;
    cJSON *values;       /* --values: kernel -> {"scalars": [...], "inputs": {"slot": [...]}} */
    cJSON *dump;         /* args_dump.json */
    FILE *bin;           /* args.bin */
    const cJSON **recs;  /* dump records grouped by task */
    size_t *rec_first;   /* task -> its first record in recs, nknown + 1 entries */
    perfsim_sig *sigs;   /* distinct signatures */
    unsigned char **blobs; /* contents they point at, owned */
    size_t nsigs, sigcap, nblobs, blobcap;
    uint64_t *sighash;
    uint32_t *slots; /* open addressing: sig index + 1 */
    size_t nslots;
    int kidx[GRAPH_MAX_FUNC_ID]; /* func -> perfsim kernel index, -1 none */
    char disp[GRAPH_MAX_FUNC_ID][GRAPH_NAME_MAX]; /* func -> the name the graph shows (its name, else funcN) */
    const cJSON *vals[GRAPH_MAX_FUNC_ID];         /* func -> its --values entry, NULL none */
    struct missing {                              /* an arg its tasks read that neither dump nor --values gives */
        int func, arg, dtype, ndim;
        uint32_t shape[PERFSIM_MAX_DIMS];
        size_t tasks;
    } miss[16];
    size_t nmiss;
    perfsim_kernel *pk;
    int npk;
    size_t unknown_tasks[GRAPH_MAX_FUNC_ID]; /* tasks priced without data they may read */
    char unknown_what[GRAPH_MAX_FUNC_ID][160];
} perf_state;

static int add_src(perf_state *ps, const char *name, int id, const char *path, int core, const char *from)
{
    for (size_t i = 0; i < ps->nsrc; i++)
        if ((*name && strcmp(ps->src[i].name, name) == 0) || (id >= 0 && ps->src[i].id == id)) {
            char idname[24];
            snprintf(idname, sizeof(idname), "func_id %d", id);
            snprintf(ps->im->err, ps->im->errlen, "%s: kernel %s has a source already (%s)", from,
                     *name ? name : idname, ps->src[i].from);
            return -1;
        }
    if (ps->nsrc == ps->srccap) {
        size_t n = ps->srccap ? ps->srccap * 2 : 16;
        ksrc *s = realloc(ps->src, n * sizeof(*s));
        if (!s)
            return imp_oom(ps->im);
        ps->src = s;
        ps->srccap = n;
    }
    ksrc *k = &ps->src[ps->nsrc++];
    memset(k, 0, sizeof(*k));
    char real[PATH_MAX]; /* the compile runs in another folder: the source by its absolute path */
    if (!realpath(path, real))
        snprintf(real, sizeof(real), "%s", path);
    if (snprintf(k->name, sizeof(k->name), "%s", name) >= (int)sizeof(k->name) ||
        snprintf(k->path, sizeof(k->path), "%s", real) >= (int)sizeof(k->path)) {
        snprintf(ps->im->err, ps->im->errlen, "%s: kernel name or path too long", from);
        return -1;
    }
    k->core = core;
    k->id = id;
    snprintf(k->from, sizeof(k->from), "%s", from);
    return 0;
}

/* dir of path (for sources relative to a table), into out. */
static void dir_of(const char *path, char *out, size_t len)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(out, len, ".");
    else
        snprintf(out, len, "%.*s", (int)(slash - path), path);
}

static int core_of(const char *s)
{
    return strcmp(s, "aic") == 0 ? 0 : strcmp(s, "aiv") == 0 ? 1 : -2;
}

/* A JSON table {"NAME": "file.cpp"} or {"NAME": {"source": "file.cpp", "core": "aic"}}. */
static int read_kernel_json(perf_state *ps, const char *path, const char *text, size_t len)
{
    importer *im = ps->im;
    jsonl_error je;
    cJSON *root = jsonl_parse(text, len, &je);
    if (!root) {
        jsonl_message(im->err, im->errlen, path, text, &je, 0);
        return -1;
    }
    char dir[PATH_MAX];
    dir_of(path, dir, sizeof(dir));
    int rc = cJSON_IsObject(root) ? 0 : -1;
    if (rc)
        snprintf(im->err, im->errlen, "%s: not a JSON object of kernel name -> source (e.g. {\"QK\": "
                                      "\"kernels/aic/aic_qk_matmul.cpp\"})", path);
    const cJSON *e;
    cJSON_ArrayForEach(e, root)
    {
        if (rc)
            break;
        const cJSON *s = cJSON_IsString(e) ? e : cJSON_GetObjectItemCaseSensitive(e, "source");
        const cJSON *c = cJSON_IsObject(e) ? cJSON_GetObjectItemCaseSensitive(e, "core") : NULL;
        int core = c && cJSON_IsString(c) ? core_of(c->valuestring) : -1;
        if (!cJSON_IsString(s) || !*s->valuestring || (c && core < -1)) {
            snprintf(im->err, im->errlen, "%s: %s: give the source file, as \"file.cpp\" or {\"source\": "
                                          "\"file.cpp\", \"core\": \"aic\" or \"aiv\"}", path, e->string);
            rc = -1;
            break;
        }
        char full[PATH_MAX];
        if (s->valuestring[0] == '/')
            snprintf(full, sizeof(full), "%s", s->valuestring);
        else
            snprintf(full, sizeof(full), "%.2000s/%.2000s", dir, s->valuestring);
        rc = add_src(ps, e->string, -1, full, core, path);
    }
    cJSON_Delete(root);
    return rc;
}

/* Where the value of "key": ... starts in p's Python dict literal (before end), or NULL. */
static const char *py_value(const char *p, const char *end, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof(pat), "\"%s\"", key);
    const char *k = strstr(p, pat);
    if (!k || k >= end)
        return NULL;
    k += strlen(pat);
    while (*k == ' ' || *k == ':')
        k++;
    return k;
}

/* The value of "key": "..." at p (a Python dict literal's string entry), into out. */
static bool py_string(const char *p, const char *end, const char *key, char *out, size_t len)
{
    const char *k = py_value(p, end, key);
    if (!k || *k != '"')
        return false;
    const char *q = strchr(k + 1, '"');
    if (!q || q > end || (size_t)(q - k - 1) >= len)
        return false;
    snprintf(out, len, "%.*s", (int)(q - k - 1), k + 1);
    return true;
}

/* The value of "key": N at p (a Python dict literal's integer entry), in [0, GRAPH_MAX_FUNC_ID). */
static bool py_int(const char *p, const char *end, const char *key, int *out)
{
    const char *k = py_value(p, end, key);
    if (!k)
        return false;
    char *e;
    long v = strtol(k, &e, 10);
    if (e == k || e > end || v < 0 || v >= GRAPH_MAX_FUNC_ID || (*k < '0' || *k > '9'))
        return false;
    *out = (int)v;
    return true;
}

/* A runtime test file: the entries of CALLABLE's "incores" list, each {"func_id", "name", "source",
 * "core_type"}: a kernel is known by its name, its func_id, or both. */
static int read_kernel_py(perf_state *ps, const char *path, const char *text)
{
    char dir[PATH_MAX];
    dir_of(path, dir, sizeof(dir));
    const char *p = strstr(text, "\"incores\"");
    size_t n = 0;
    while (p && (p = strchr(p, '{'))) {
        const char *end = strchr(p, '}');
        if (!end)
            break;
        char name[GRAPH_NAME_MAX] = "", src[PATH_MAX - 64], core[16];
        int id = -1;
        bool named = py_string(p, end, "name", name, sizeof(name)), numbered = py_int(p, end, "func_id", &id);
        if ((named || numbered) && py_string(p, end, "source", src, sizeof(src))) {
            int c = py_string(p, end, "core_type", core, sizeof(core)) ? core_of(core) : -1;
            char full[PATH_MAX];
            snprintf(full, sizeof(full), "%.2000s/%.2000s", dir, src);
            if (add_src(ps, named ? name : "", numbered ? id : -1, full, c < -1 ? -1 : c, path) != 0)
                return -1;
            n++;
        }
        p = end + 1;
        /* the list ends at the first "]" after an entry */
        const char *close = strchr(p, ']'), *next = strchr(p, '{');
        if (close && (!next || close < next))
            break;
    }
    if (!n) {
        snprintf(ps->im->err, ps->im->errlen,
                 "%s: no kernels found (a runtime test file lists them in CALLABLE[\"incores\"] as {\"func_id\": "
                 "..., \"name\": ..., \"source\": ..., \"core_type\": ...}, with a name or a func_id)",
                 path);
        return -1;
    }
    return 0;
}

static char *read_text(importer *im, const char *path, size_t *len, const char *what)
{
    FILE *f = fopen(path, "rb");
    char why[128];
    char *t = f ? readall(f, READALL_TABLE, len, why, sizeof(why)) : NULL;
    int e = errno;
    if (f)
        fclose(f);
    if (!t)
        snprintf(im->err, im->errlen, "%s: cannot read the %s: %s", path, what, e == EFBIG ? why : strerror(e));
    return t;
}

static int read_kernel_sources(perf_state *ps)
{
    const import_opts *o = ps->opt;
    for (int i = 0; i < o->nkernel_args; i++) {
        const char *a = o->kernel_args[i], *eq = strchr(a, '=');
        char name[GRAPH_NAME_MAX];
        if (!eq || eq == a || !eq[1] || (size_t)(eq - a) >= sizeof(name)) {
            snprintf(ps->im->err, ps->im->errlen, "--kernel %s: expected NAME=FILE", a);
            return -1;
        }
        snprintf(name, sizeof(name), "%.*s", (int)(eq - a), a);
        char from[64 + GRAPH_NAME_MAX];
        snprintf(from, sizeof(from), "--kernel %s", name);
        if (add_src(ps, name, -1, eq + 1, -1, from) != 0)
            return -1;
    }
    if (o->kernels_file) {
        size_t len;
        char *t = read_text(ps->im, o->kernels_file, &len, "kernel table");
        if (!t)
            return -1;
        const char *p = t;
        while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
            p++;
        size_t n = strlen(o->kernels_file);
        int rc = *p == '{' ? read_kernel_json(ps, o->kernels_file, t, len)
                 : n > 3 && strcmp(o->kernels_file + n - 3, ".py") == 0
                     ? read_kernel_py(ps, o->kernels_file, t)
                     : (snprintf(ps->im->err, ps->im->errlen,
                                 "%s: a kernel table is JSON ({\"NAME\": \"file.cpp\"}) or a runtime test file "
                                 "(.py with CALLABLE[\"incores\"])",
                                 o->kernels_file),
                        -1);
        free(t);
        if (rc)
            return -1;
    }
    return 0;
}

/* ---- the args dump ---- */

/* A task id as the dump writes it: "0x0000000200000000". */
static bool hex_id(const cJSON *v, uint64_t *out)
{
    if (!cJSON_IsString(v) || strncmp(v->valuestring, "0x", 2) != 0)
        return false;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v->valuestring + 2, &end, 16);
    if (*end || errno || end == v->valuestring + 2)
        return false;
    *out = x;
    return true;
}

static int read_dump(perf_state *ps)
{
    importer *im = ps->im;
    char path[PATH_MAX];
    snprintf(path, sizeof(path), "%s/args_dump/args_dump.json", im->dir);
    if (access(path, F_OK) != 0)
        return 0; /* no dump: deps.json and --values */
    size_t len;
    char *text = imp_slurp(im, "args_dump/args_dump.json", READALL_RECORDS, &len);
    if (!text && errno == EFBIG)
        return -1;
    if (!text)
        return imp_fail(im, "args_dump/args_dump.json", "cannot read: %s", strerror(errno));
    ps->dump = imp_parse_json(im, "args_dump/args_dump.json", text, len, 0);
    free(text);
    if (!ps->dump)
        return -1;
    const cJSON *args = cJSON_GetObjectItemCaseSensitive(ps->dump, "args"),
                *bin = cJSON_GetObjectItemCaseSensitive(ps->dump, "bin_file");
    if (!cJSON_IsArray(args))
        return imp_fail(im, "args_dump/args_dump.json", "needs the array \"args\"");
    snprintf(path, sizeof(path), "%s/args_dump/%s", im->dir,
             cJSON_IsString(bin) && !strchr(bin->valuestring, '/') ? bin->valuestring : "args.bin");
    ps->bin = fopen(path, "rb");
    size_t n = (size_t)cJSON_GetArraySize(args);
    ps->recs = calloc(n ? n : 1, sizeof(*ps->recs));
    ps->rec_first = calloc(im->nknown + 1, sizeof(*ps->rec_first));
    long *owner = calloc(n ? n : 1, sizeof(*owner));
    if (!ps->recs || !ps->rec_first || !owner) {
        free(owner);
        return imp_oom(im);
    }
    size_t i = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, args)
    {
        uint64_t id;
        if (!hex_id(cJSON_GetObjectItemCaseSensitive(r, "task_id"), &id)) {
            free(owner);
            return imp_fail(im, "args_dump/args_dump.json", "args[%zu].task_id: not a \"0x...\" task id", i);
        }
        long t = imp_find_task(im, id);
        owner[i++] = t;
        if (t >= 0 && (size_t)t < im->nknown)
            ps->rec_first[t + 1]++;
    }
    for (size_t t = 0; t < im->nknown; t++)
        ps->rec_first[t + 1] += ps->rec_first[t];
    size_t *fill = calloc(im->nknown + 1, sizeof(*fill));
    if (!fill) {
        free(owner);
        return imp_oom(im);
    }
    i = 0;
    cJSON_ArrayForEach(r, args)
    {
        long t = owner[i++];
        if (t >= 0 && (size_t)t < im->nknown)
            ps->recs[ps->rec_first[t] + fill[t]++] = r;
    }
    free(fill);
    free(owner);
    return 0;
}

static const char *jstr(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(v) ? v->valuestring : "";
}

static bool jnum(const cJSON *o, const char *k, double lo, double hi, double *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    if (!cJSON_IsNumber(v) || v->valuedouble != v->valuedouble || v->valuedouble < lo || v->valuedouble > hi)
        return false;
    *out = v->valuedouble;
    return true;
}

/* Reads one dims array (shape or strides) of at most PERFSIM_MAX_DIMS numbers. */
static int jdims(const cJSON *o, const char *k, uint32_t *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k), *x;
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) > PERFSIM_MAX_DIMS)
        return -1;
    int n = 0;
    cJSON_ArrayForEach(x, v)
    {
        if (!cJSON_IsNumber(x) || x->valuedouble < 0 || x->valuedouble > UINT32_MAX)
            return -1;
        out[n++] = (uint32_t)x->valuedouble;
    }
    return n;
}

/* Keeps a blob the signatures point at. */
static unsigned char *keep_blob(perf_state *ps, size_t len)
{
    if (ps->nblobs == ps->blobcap) {
        size_t n = ps->blobcap ? ps->blobcap * 2 : 64;
        unsigned char **b = realloc(ps->blobs, n * sizeof(*b));
        if (!b)
            return NULL;
        ps->blobs = b;
        ps->blobcap = n;
    }
    unsigned char *p = malloc(len ? len : 1);
    if (p)
        ps->blobs[ps->nblobs++] = p;
    return p;
}

static bool is_input(const imp_arg *x)
{
    return x->type != A_OUT && x->type != A_OUT_EXISTING;
}

/* Slot i of a task from deps.json: the arg's view (an output's: what its readers see of it, else its
 * storage); no contents. */
static void arg_from_graph(const importer *im, const imp_task *tk, int i, perfsim_arg *a)
{
    const imp_arg *x = &tk->args[i];
    memset(a, 0, sizeof(*a));
    a->used = true;
    const imp_arg *view = x;
    int dt = x->dtype;
    if (x->type == A_OUT) {
        size_t slot = 0; /* its place among the task's outputs */
        for (int j = 0; j < i; j++)
            slot += tk->args[j].type == A_OUT;
        const imp_buf *b = slot < tk->nouts ? &im->bufs[tk->outs[slot]] : NULL;
        view = b ? b->view : NULL;
        dt = view ? view->dtype : b ? b->dtype : DT_INT8;
        if (!view) {
            a->dtype = dt;
            a->ndim = 1;
            a->shape[0] = (uint32_t)(b && b->numel < UINT32_MAX ? b->numel : 1);
            a->stride[0] = 1;
            a->buffer_elems = a->shape[0];
            return;
        }
    }
    a->dtype = dt;
    a->ndim = view->ndim;
    for (int d = 0; d < view->ndim; d++) {
        a->shape[d] = (uint32_t)view->shape[d];
        a->stride[d] = (uint32_t)view->strides[d];
    }
    a->start = view->start;
    a->buffer_elems = buffer_elems(a);
}

/* What --values gives kernel func: scalars from slot nargs on, inputs' contents by slot. With a dump, only
 * what the dump lacks (a slot it did not record, an input whose contents it does not hold). */
static int apply_values(perf_state *ps, int func, int nargs, bool dump, perfsim_sig *s)
{
    const cJSON *v = ps->vals[func], *x;
    if (!v)
        return 0;
    const cJSON *sc = cJSON_GetObjectItemCaseSensitive(v, "scalars"), *in = cJSON_GetObjectItemCaseSensitive(v, "inputs");
    int slot = nargs;
    cJSON_ArrayForEach(x, sc)
    {
        if (slot >= PERFSIM_SLOTS)
            break;
        perfsim_arg *a = &s->arg[slot++];
        if (dump && a->used)
            continue;
        memset(a, 0, sizeof(*a));
        a->used = a->scalar = true;
        a->value = x->valuedouble < 0 ? (uint64_t)(int64_t)x->valuedouble : (uint64_t)x->valuedouble;
        if (slot > s->nslots)
            s->nslots = slot;
    }
    cJSON_ArrayForEach(x, in)
    {
        int i = atoi(x->string);
        if (i < 0 || i >= s->nslots || s->arg[i].scalar || !s->arg[i].used)
            continue; /* read_values checked it against every task of the kernel */
        perfsim_arg *a = &s->arg[i];
        if (dump && a->data)
            continue;
        int es = dtype_size(a->dtype), n = cJSON_GetArraySize(x);
        unsigned char *b = es > 0 ? keep_blob(ps, (size_t)n * (size_t)es) : NULL;
        if (!b)
            return imp_oom(ps->im);
        int e = 0;
        const cJSON *y;
        cJSON_ArrayForEach(y, x) dtype_encode(a->dtype, y->valuedouble, b + (size_t)es * (size_t)e++);
        a->data = b;
        a->datalen = (size_t)n * (size_t)es;
    }
    return 0;
}

/* Notes that kernel func's task reads slot i (a, an integer input) whose contents neither the dump nor
 * --values gives. */
static void add_missing(perf_state *ps, int func, int i, const perfsim_arg *a)
{
    for (size_t m = 0; m < ps->nmiss; m++)
        if (ps->miss[m].func == func && ps->miss[m].arg == i) {
            ps->miss[m].tasks++;
            return;
        }
    if (ps->nmiss == sizeof(ps->miss) / sizeof(ps->miss[0]))
        return; /* the first ones are enough to say what is missing */
    struct missing *m = &ps->miss[ps->nmiss++];
    m->func = func;
    m->arg = i;
    m->dtype = a->dtype;
    m->ndim = a->ndim;
    memcpy(m->shape, a->shape, sizeof(m->shape));
    m->tasks = 1;
}

/* The refusal of an import whose kernels read values no one gave, into im->err. */
static int missing_values(perf_state *ps)
{
    char list[2048] = "", table[2048] = "";
    size_t ll = 0, tl = 0;
#define PUT(buf, len, ...)                                                                                           \
    (len += (size_t)snprintf(buf + (len < sizeof(buf) ? len : sizeof(buf)), len < sizeof(buf) ? sizeof(buf) - len : 0, \
                             __VA_ARGS__))
    for (size_t i = 0; i < ps->nmiss; i++) {
        const struct missing *m = &ps->miss[i];
        uint64_t elems = 1;
        PUT(list, ll, "%skernel %s arg %d (an %s [", i ? ", " : "", ps->disp[m->func], m->arg, dtype_name(m->dtype));
        for (int d = 0; d < m->ndim; d++) {
            PUT(list, ll, "%s%" PRIu32, d ? ", " : "", m->shape[d]);
            elems *= m->shape[d];
        }
        PUT(list, ll, "] input of %zu task%s)", m->tasks, m->tasks == 1 ? "" : "s");
        bool first = i == 0 || ps->miss[i - 1].func != m->func, last = i + 1 == ps->nmiss || ps->miss[i + 1].func != m->func;
        if (first)
            PUT(table, tl, "%s\"%s\": {\"inputs\": {", i ? ", " : "", ps->disp[m->func]);
        PUT(table, tl, "%s\"%d\": [%" PRIu64 " number%s]", first ? "" : ", ", m->arg, elems, elems == 1 ? "" : "s");
        if (last)
            PUT(table, tl, "}}");
    }
#undef PUT
    snprintf(ps->im->err, ps->im->errlen,
             "%s: not in the args dump (the runtime dumps only the args in a kernel's signature) and not given by "
             "--values; give %s in a --values table: {%s}",
             list, ps->nmiss == 1 ? "it" : "them", table);
    return -1;
}

/* The task's args from its dump records (scalars, views, integer inputs' contents), the args deps.json lists
 * and the dump lacks (the runtime dumps only a kernel's signature), then --values for what is still lacking.
 * An integer input no one gives is noted (add_missing). */
static int sig_from_dump(perf_state *ps, size_t t, int func, perfsim_sig *s, char *unknown, size_t ulen)
{
    importer *im = ps->im;
    int unknown_slot = -1;
    for (size_t i = ps->rec_first[t]; i < ps->rec_first[t + 1]; i++) {
        const cJSON *r = ps->recs[i];
        double slot, v;
        if (!jnum(r, "arg_index", 0, PERFSIM_SLOTS - 1, &slot))
            return imp_fail(im, "args_dump/args_dump.json", "task 0x%016" PRIx64 ": arg_index: not in [0, %d]",
                            im->tasks[t].id, PERFSIM_SLOTS - 1);
        perfsim_arg *a = &s->arg[(int)slot];
        const char *stage = jstr(r, "stage"), *kind = jstr(r, "kind"), *role = jstr(r, "role");
        bool before = strcmp(stage, "before_dispatch") == 0;
        if (a->used && !before)
            continue; /* an INOUT's state after completion: its view is the one before */
        if ((int)slot + 1 > s->nslots)
            s->nslots = (int)slot + 1;
        memset(a, 0, sizeof(*a));
        a->used = true;
        if (strcmp(kind, "scalar") == 0) {
            const cJSON *val = cJSON_GetObjectItemCaseSensitive(r, "value");
            a->scalar = true;
            int sdt = dtype_parse(jstr(r, "dtype"));
            if (cJSON_IsNumber(val) && (sdt == DT_FLOAT32 || sdt == DT_FLOAT16 || sdt == DT_BFLOAT16)) {
                unsigned char bits[8] = {0}; /* the dump writes a float scalar's value; args[] holds its bits */
                dtype_encode(sdt, val->valuedouble, bits);
                for (int b = 7; b >= 0; b--)
                    a->value = a->value << 8 | bits[b];
            } else if (cJSON_IsNumber(val) && val->valuedouble >= 0 && val->valuedouble <= 18446744073709551615.0)
                a->value = (uint64_t)val->valuedouble;
            else if (cJSON_IsNumber(val) && val->valuedouble < 0 && val->valuedouble >= -9.2e18)
                a->value = (uint64_t)(int64_t)val->valuedouble;
            else
                return imp_fail(im, "args_dump/args_dump.json", "task 0x%016" PRIx64 " arg %d: value: not a number",
                                im->tasks[t].id, (int)slot);
            continue;
        }
        a->dtype = dtype_parse(jstr(r, "dtype"));
        int nd = jdims(r, "shape", a->shape), ns = jdims(r, "strides", a->stride);
        if (a->dtype < 0 || nd < 1 || ns != nd || !jnum(r, "start_offset", 0, 9e15, &v))
            return imp_fail(im, "args_dump/args_dump.json",
                            "task 0x%016" PRIx64 " arg %d: needs dtype, shape, strides and start_offset",
                            im->tasks[t].id, (int)slot);
        a->ndim = nd;
        a->start = (uint64_t)v;
        a->buffer_elems = buffer_elems(a);
        if (!before || strcmp(role, "output") == 0 || !steering_dtype(a->dtype))
            continue;
        double off = 0, size = 0;
        const cJSON *tr = cJSON_GetObjectItemCaseSensitive(r, "truncated");
        if (!jnum(r, "bin_offset", 0, 9e18, &off) || !jnum(r, "bin_size", 0, 9e18, &size) || size > CONTENT_MAX ||
            cJSON_IsTrue(tr) || !ps->bin) {
            snprintf(unknown, ulen, "the contents of its %s input arg %d (%s)", dtype_name(a->dtype), (int)slot,
                     !ps->bin ? "args.bin is missing" : size > CONTENT_MAX ? "over 1 MiB" : "truncated in the dump");
            unknown_slot = (int)slot;
            continue;
        }
        unsigned char *b = keep_blob(ps, (size_t)size);
        if (!b)
            return imp_oom(im);
        if (fseeko(ps->bin, (off_t)off, SEEK_SET) != 0 || fread(b, 1, (size_t)size, ps->bin) != (size_t)size)
            return imp_fail(im, "args_dump/args.bin", "cannot read %.0f bytes at %.0f (task 0x%016" PRIx64 " arg %d)",
                            size, off, im->tasks[t].id, (int)slot);
        a->data = b;
        a->datalen = (size_t)size;
    }
    const imp_task *tk = &im->tasks[t];
    int nargs = tk->nargs < PERFSIM_SLOTS ? tk->nargs : PERFSIM_SLOTS;
    bool from_graph[PERFSIM_SLOTS] = {false};
    for (int i = 0; i < nargs; i++)
        if (!s->arg[i].used) {
            arg_from_graph(im, tk, i, &s->arg[i]);
            from_graph[i] = true;
            if (i + 1 > s->nslots)
                s->nslots = i + 1;
        }
    if (apply_values(ps, func, tk->nargs, true, s) != 0)
        return -1;
    if (unknown_slot >= 0 && s->arg[unknown_slot].data)
        unknown[0] = '\0'; /* --values gave what the dump could not hold */
    for (int i = 0; i < nargs; i++)
        if (from_graph[i] && is_input(&tk->args[i]) && steering_dtype(s->arg[i].dtype) && !s->arg[i].data)
            add_missing(ps, func, i, &s->arg[i]);
    return 0;
}

/* The task's args from deps.json, its scalars and contents from --values. */
static int sig_from_graph(perf_state *ps, size_t t, int func, perfsim_sig *s, char *unknown, size_t ulen)
{
    importer *im = ps->im;
    const imp_task *tk = &im->tasks[t];
    if (tk->nargs > PERFSIM_SLOTS)
        return imp_fail(im, "deps.json", "task %" PRIu64 " has %d args; a kernel's args[] holds %d before the "
                        "block contexts", tk->id, tk->nargs, PERFSIM_SLOTS);
    for (int i = 0; i < tk->nargs; i++) {
        arg_from_graph(im, tk, i, &s->arg[i]);
        if (is_input(&tk->args[i]) && steering_dtype(s->arg[i].dtype) && !unknown[0])
            snprintf(unknown, ulen, "the contents of its %s input arg %d (the capture has no args dump)",
                     dtype_name(s->arg[i].dtype), i);
    }
    s->nslots = tk->nargs;
    if (!ps->vals[func]) {
        if (!unknown[0])
            snprintf(unknown, ulen, "its scalars (the capture has no args dump)");
        return 0;
    }
    unknown[0] = '\0'; /* the user said what the kernel reads */
    return apply_values(ps, func, tk->nargs, false, s);
}

/* Checks --values: kernel -> {"scalars": [numbers], "inputs": {"SLOT": [numbers]}}; every slot an input
 * tensor of every task of that kernel. */
static int read_values(perf_state *ps)
{
    importer *im = ps->im;
    const char *path = ps->opt->values_file;
    if (!path)
        return 0;
    size_t len;
    char *text = read_text(im, path, &len, "values table");
    if (!text)
        return -1;
    jsonl_error je;
    ps->values = jsonl_parse(text, len, &je);
    if (!ps->values) {
        jsonl_message(im->err, im->errlen, path, text, &je, 0);
        free(text);
        return -1;
    }
    free(text);
    const cJSON *k;
    if (!cJSON_IsObject(ps->values))
        goto bad;
    cJSON_ArrayForEach(k, ps->values)
    {
        int f = -1;
        for (int i = 0; i < GRAPH_MAX_FUNC_ID && f < 0; i++)
            if (im->kernels[i].used && names_func(im, i, k->string))
                f = i;
        if (f >= 0 && ps->vals[f]) {
            snprintf(im->err, im->errlen, "%s: %s: kernel %s has an entry already", path, k->string, ps->disp[f]);
            return -1;
        }
        if (f >= 0)
            ps->vals[f] = k;
        if (f < 0) {
            snprintf(im->err, im->errlen, "%s: %s: not one of the capture's kernels", path, k->string);
            return -1;
        }
        if (!cJSON_IsObject(k))
            goto bad;
        const cJSON *m;
        cJSON_ArrayForEach(m, k)
        {
            bool sc = strcmp(m->string, "scalars") == 0, in = strcmp(m->string, "inputs") == 0;
            if ((!sc && !in) || (sc && !cJSON_IsArray(m)) || (in && !cJSON_IsObject(m))) {
                snprintf(im->err, im->errlen, "%s: %s.%s: unknown field (a kernel's entry has \"scalars\": "
                                              "[numbers] and \"inputs\": {\"ARG\": [numbers]})",
                         path, k->string, m->string);
                return -1;
            }
            const cJSON *x;
            cJSON_ArrayForEach(x, m)
            {
                const cJSON *nums = sc ? NULL : x, *y;
                if (in) {
                    char *end;
                    long slot = strtol(x->string, &end, 10);
                    bool ok = *x->string && !*end && slot >= 0;
                    for (size_t t = 0; ok && t < im->nknown; t++) { /* an input tensor of every task */
                        const imp_task *tk = &im->tasks[t];
                        if (tk->k[0] != f && tk->k[1] != f && tk->k[2] != f)
                            continue;
                        ok = slot < tk->nargs && tk->args[slot].type != A_OUT &&
                             tk->args[slot].type != A_OUT_EXISTING;
                    }
                    if (!ok || !cJSON_IsArray(x)) {
                        snprintf(im->err, im->errlen, "%s: %s.inputs.%s: not an input tensor arg of its tasks, "
                                                      "or not an array of numbers",
                                 path, k->string, x->string);
                        return -1;
                    }
                } else if (!cJSON_IsNumber(x)) {
                    snprintf(im->err, im->errlen, "%s: %s.scalars: numbers only", path, k->string);
                    return -1;
                }
                cJSON_ArrayForEach(y, nums) if (!cJSON_IsNumber(y))
                {
                    snprintf(im->err, im->errlen, "%s: %s.inputs.%s: numbers only", path, k->string, x->string);
                    return -1;
                }
            }
        }
    }
    return 0;
bad:
    snprintf(im->err, im->errlen,
             "%s: a values table is {\"KERNEL\": {\"scalars\": [1, 0], \"inputs\": {\"3\": [128, 2, 32, 4]}}}", path);
    return -1;
}

/* ---- distinct signatures ---- */

static uint64_t sig_hash(const perfsim_sig *s)
{
    uint64_t h = 1469598103934665603ULL;
#define MIX(p, n)                                                                                                    \
    do {                                                                                                             \
        const unsigned char *c_ = (const unsigned char *)(p);                                                        \
        for (size_t i_ = 0; i_ < (n); i_++)                                                                          \
            h = (h ^ c_[i_]) * 1099511628211ULL;                                                                     \
    } while (0)
    MIX(&s->kernel, sizeof(s->kernel));
    MIX(&s->block_num, sizeof(s->block_num));
    MIX(&s->nslots, sizeof(s->nslots));
    for (int i = 0; i < s->nslots; i++) {
        const perfsim_arg *a = &s->arg[i];
        MIX(a, offsetof(perfsim_arg, data));
        if (a->data)
            MIX(a->data, a->datalen);
    }
#undef MIX
    return h;
}

static bool sig_equal(const perfsim_sig *x, const perfsim_sig *y)
{
    if (x->kernel != y->kernel || x->block_num != y->block_num || x->nslots != y->nslots)
        return false;
    for (int i = 0; i < x->nslots; i++) {
        const perfsim_arg *a = &x->arg[i], *b = &y->arg[i];
        if (memcmp(a, b, offsetof(perfsim_arg, data)) != 0 || (!a->data) != (!b->data) ||
            a->datalen != b->datalen || (a->data && memcmp(a->data, b->data, a->datalen) != 0))
            return false;
    }
    return true;
}

/* The index of s among the distinct signatures, adding it; -1 when out of memory. */
static long intern_sig(perf_state *ps, const perfsim_sig *s)
{
    uint64_t h = sig_hash(s);
    if (ps->nsigs * 2 >= ps->nslots) {
        size_t n = ps->nslots ? ps->nslots * 2 : SIG_SLOTS_INIT;
        uint32_t *sl = calloc(n, sizeof(*sl));
        if (!sl)
            return -1;
        for (size_t i = 0; i < ps->nsigs; i++) {
            size_t j = ps->sighash[i] & (n - 1);
            while (sl[j])
                j = (j + 1) & (n - 1);
            sl[j] = (uint32_t)i + 1;
        }
        free(ps->slots);
        ps->slots = sl;
        ps->nslots = n;
    }
    size_t j = h & (ps->nslots - 1);
    for (; ps->slots[j]; j = (j + 1) & (ps->nslots - 1)) {
        size_t i = ps->slots[j] - 1;
        if (ps->sighash[i] == h && sig_equal(&ps->sigs[i], s))
            return (long)i;
    }
    if (ps->nsigs == ps->sigcap) {
        size_t n = ps->sigcap ? ps->sigcap * 2 : 16;
        perfsim_sig *ns = realloc(ps->sigs, n * sizeof(*ns));
        uint64_t *nh = ns ? realloc(ps->sighash, n * sizeof(*nh)) : NULL;
        if (ns)
            ps->sigs = ns;
        if (!nh)
            return -1;
        ps->sighash = nh;
        ps->sigcap = n;
    }
    ps->sigs[ps->nsigs] = *s;
    ps->sighash[ps->nsigs] = h;
    ps->slots[j] = (uint32_t)ps->nsigs + 1;
    return (long)ps->nsigs++;
}

/* Is a figure of r past what a graph's measured cost holds? (busy cycles are cut to the total below) */
static bool past_graph(const perfsim_result *r)
{
    bool past = r->total > GRAPH_MAX_PIPE_CYCLES;
    for (int p = 0; p < PIPE_COUNT; p++)
        past |= r->gm_bytes[p] > GRAPH_MAX_PIPE_BYTES;
    return past;
}

/* The measured pipe form of a result. */
static pipe_kernel measured(const perfsim_result *r, bool aic)
{
    pipe_kernel k;
    memset(&k, 0, sizeof(k));
    k.aic = aic;
    k.tiles = k.buffers = 1;
    k.scalar_given = true;
    k.measured = true;
    k.measured_hz = PERFSIM_HZ;
    k.measured_cycles = r->total;
    for (int p = 0; p < PIPE_COUNT; p++) {
        if (!pipe_on_core((pipe_id)p, aic))
            continue;
        k.work.cycles[p] = r->busy[p] < r->total ? r->busy[p] : r->total;
        if (pipe_is_gm((pipe_id)p))
            k.work.bytes[p] = r->gm_bytes[p];
    }
    return k;
}

static void free_state(perf_state *ps)
{
    free(ps->src);
    cJSON_Delete(ps->values);
    cJSON_Delete(ps->dump);
    if (ps->bin)
        fclose(ps->bin);
    free(ps->recs);
    free(ps->rec_first);
    free(ps->sigs);
    for (size_t i = 0; i < ps->nblobs; i++)
        free(ps->blobs[i]);
    free(ps->blobs);
    free(ps->sighash);
    free(ps->slots);
    free(ps->pk);
}

/* Gives every kernel the source the tables name; a kernel without one fails the import (or, with --fallback
 * model, keeps the model's cost). */
static int match_sources(perf_state *ps, bool *fallback)
{
    importer *im = ps->im;
    ps->pk = calloc(GRAPH_MAX_FUNC_ID, sizeof(*ps->pk));
    if (!ps->pk)
        return imp_oom(im);
    char missing[1024] = "";
    size_t mlen = 0;
    for (int f = 0; f < GRAPH_MAX_FUNC_ID; f++) {
        ps->kidx[f] = -1;
        if (im->names[f][0])
            snprintf(ps->disp[f], sizeof(ps->disp[f]), "%s", im->names[f]);
        else
            snprintf(ps->disp[f], sizeof(ps->disp[f]), "func%d", f);
        imp_kernel *kn = &im->kernels[f];
        if (!kn->used || kn->table)
            continue;
        const ksrc *src = NULL;
        for (size_t i = 0; i < ps->nsrc && !src; i++)
            if (ps->src[i].id == f || (ps->src[i].name[0] && names_func(im, f, ps->src[i].name)))
                src = &ps->src[i];
        if (!src) {
            mlen += (size_t)snprintf(missing + mlen, mlen < sizeof(missing) ? sizeof(missing) - mlen : 0, "%s%s",
                                     mlen ? ", " : "", ps->disp[f]);
            fallback[f] = true;
            continue;
        }
        if (src->core >= 0 && src->core != (kn->aic ? 0 : 1)) {
            snprintf(im->err, im->errlen, "%s: kernel %s is %s in the table but runs on %s cores in the capture",
                     src->from, ps->disp[f], src->core ? "aiv" : "aic", kn->aic ? "AIC" : "AIV");
            return -1;
        }
        perfsim_kernel *k = &ps->pk[ps->npk];
        k->name = ps->disp[f];
        k->source = src->path;
        k->aic = kn->aic;
        ps->kidx[f] = ps->npk++;
    }
    if (mlen && !ps->opt->fallback_model) {
        snprintf(im->err, im->errlen,
                 "no kernel source for %s: name each with --kernel NAME=FILE or --kernels TABLE (JSON, or the "
                 "runtime's test .py), or keep the model's cost with --fallback model",
                 missing);
        return -1;
    }
    return 0;
}

/* A kernel for every kernel the capture names, its source the one the cache last priced under that name. */
static int hint_kernels(perf_state *ps)
{
    importer *im = ps->im;
    ps->pk = calloc(GRAPH_MAX_FUNC_ID, sizeof(*ps->pk));
    if (!ps->pk)
        return imp_oom(im);
    for (int f = 0; f < GRAPH_MAX_FUNC_ID; f++) {
        ps->kidx[f] = -1;
        if (!im->kernels[f].used || im->kernels[f].table || !im->names[f][0])
            continue;
        perfsim_kernel *k = &ps->pk[ps->npk];
        k->name = im->names[f];
        k->source = NULL;
        k->aic = im->kernels[f].aic;
        ps->kidx[f] = ps->npk++;
    }
    return 0;
}

static int perf_costs(importer *im, const import_opts *opt, const perfsim_opts *hint, char *said, size_t saidlen);

int import_perfsim_costs(importer *im, const import_opts *opt)
{
    return perf_costs(im, opt, NULL, NULL, 0);
}

/* A directory? */
static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

void import_perfsim_hint(importer *im, const import_opts *opt)
{
    char path[PATH_MAX];
    snprintf(path, sizeof(path), "%s/args_dump/args_dump.json", im->dir);
    if (access(path, F_OK) != 0)
        return;
    /* the trees: the environment's, else where the how-to guide links them (./pto-isa, ./simpler) */
    const char *pto = getenv("PTO_ISA_ROOT"), *rt = getenv("SIMPLER_ROOT");
    perfsim_opts po = {.pto_isa = pto && *pto ? pto : is_dir("pto-isa") ? "pto-isa" : NULL,
                       .runtime_root = rt && *rt ? rt : is_dir("simpler") ? "simpler" : NULL};
    char err[PERFSIM_MSG_MAX];
    if (!po.pto_isa || !po.runtime_root || perfsim_resolve(&po, err, sizeof(err)) != 0)
        return;
    char *saved = strdup(im->err); /* what a look that fails leaves there is no error of the import's */
    char said[4096] = "";
    perf_costs(im, opt, &po, said, sizeof(said));
    if (saved) {
        snprintf(im->err, im->errlen, "%s", saved);
        free(saved);
    }
    FILE *w = im->warn ? im->warn : stderr;
    fprintf(w,
            "ptosim import: note: pto-isa (%s) and the runtime's tree (%s) are here and the capture has an args "
            "dump: --costs perf-sim with --kernels (the runtime's test .py) prices each kernel by its own code%s\n",
            po.pto_isa, po.runtime_root, said);
}

/* The model's time (ns on a2a3's AICore clock) and busiest pipe for a kernel's pipe form. */
static double model_ns(const pipe_kernel *k, pipe_id *busiest)
{
    platform plat;
    pipe_rates rates;
    platform_defaults(&plat);
    platform_pipe_rates(&plat, &rates);
    pipe_result r;
    pipe_run(k, &rates, &r);
    *busiest = r.busiest;
    return (double)r.total_cycles * 1e9 / (double)plat.aicore_freq_hz;
}

/* Perf-Sim's cached figures against the model's, kernel by kernel (each kernel's most common signature), into
 * said; nothing when the cache lacks any of them. */
static void hint_figures(perf_state *ps, const long *task_sig, const perfsim_opts *po, char *said, size_t saidlen)
{
    importer *im = ps->im;
    perfsim_result *res = calloc(ps->nsigs ? ps->nsigs : 1, sizeof(*res));
    bool *have = calloc(ps->nsigs ? ps->nsigs : 1, sizeof(*have));
    size_t *count = calloc(ps->nsigs ? ps->nsigs : 1, sizeof(*count));
    char err[PERFSIM_MSG_MAX], line[4096] = "";
    size_t n = 0;
    bool all = ps->nsigs && res && have && count &&
               perfsim_lookup(po, ps->pk, ps->npk, ps->sigs, ps->nsigs, res, have, err, sizeof(err)) == 0;
    for (size_t i = 0; i < ps->nsigs && all; i++)
        all = have[i];
    for (int f = 0; f < GRAPH_MAX_FUNC_ID && all; f++) {
        const imp_kernel *kn = &im->kernels[f];
        if (!kn->used || kn->table)
            continue;
        if (ps->kidx[f] < 0 || kn->status != KCOST_DERIVED) {
            all = false; /* a kernel with no figures, or none of the model's, to compare */
            break;
        }
        memset(count, 0, ps->nsigs * sizeof(*count));
        long best = -1;
        for (size_t t = 0; t < im->nknown; t++) {
            const imp_task *tk = &im->tasks[t];
            if ((tk->k[0] == f || tk->k[1] == f || tk->k[2] == f) && task_sig[t] >= 0 &&
                ++count[task_sig[t]] > (best >= 0 ? count[best] : 0))
                best = task_sig[t];
        }
        if (best < 0)
            continue;
        const perfsim_result *r = &res[best];
        int busiest = PIPE_SCALAR;
        for (int p = 0; p < PIPE_COUNT; p++)
            if (r->busy[p] > r->busy[busiest])
                busiest = p;
        pipe_id mb;
        double mns = model_ns(&kn->model, &mb);
        n += (size_t)snprintf(line + n, n < sizeof(line) ? sizeof(line) - n : 0, "%s %s %.0f ns (%s) vs %.0f ns (%s)",
                              n ? "," : "", im->names[f], (double)r->total * 1e9 / (double)PERFSIM_HZ,
                              pipe_name((pipe_id)busiest), mns, pipe_name(mb));
    }
    if (all && n && n < sizeof(line))
        snprintf(said, saidlen, "; its cache holds Perf-Sim's figures for them, against the model's:%s",
                 line);
    free(res);
    free(have);
    free(count);
}

static int perf_costs(importer *im, const import_opts *opt, const perfsim_opts *hint, char *said, size_t saidlen)
{
    perf_state ps;
    memset(&ps, 0, sizeof(ps));
    ps.im = im;
    ps.opt = opt;
    bool fallback[GRAPH_MAX_FUNC_ID] = {false};
    char nb[32];
    perfsim_opts po = {.pto_isa = opt->pto_isa,
                       .runtime_root = opt->runtime_root,
                       .cache_dir = opt->cache_dir,
                       .shared_cache = opt->shared_cache,
                       .time_limit = opt->time_limit,
                       .jobs = opt->jobs,
                       .progress = opt->progress};
    long *task_sig = NULL;
    perfsim_result *res = NULL;
    int rc = -1;
    if (hint) { /* a look at the cache for import_perfsim_hint: nothing is compiled, run or changed */
        po = *hint;
        if (hint_kernels(&ps) != 0 || read_dump(&ps) != 0)
            goto out;
    } else if (perfsim_resolve(&po, im->err, im->errlen) != 0 || read_kernel_sources(&ps) != 0 ||
               match_sources(&ps, fallback) != 0 || read_values(&ps) != 0 || read_dump(&ps) != 0)
        goto out;
    /* a signature per task slot; the task keeps the index of its single kernel's */
    task_sig = malloc((im->nknown ? im->nknown : 1) * sizeof(*task_sig));
    if (!task_sig) {
        imp_oom(im);
        goto out;
    }
    for (size_t t = 0; t < im->nknown; t++) {
        task_sig[t] = -1;
        const imp_task *tk = &im->tasks[t];
        for (int s = 0; s < 3; s++) {
            int f = tk->k[s];
            if (f < 0 || ps.kidx[f] < 0)
                continue;
            perfsim_sig sig;
            memset(&sig, 0, sizeof(sig));
            sig.kernel = ps.kidx[f];
            sig.block_num = tk->block_num > 0 ? tk->block_num : 1;
            char unknown[160] = "";
            if ((ps.dump ? sig_from_dump(&ps, t, f, &sig, unknown, sizeof(unknown))
                         : sig_from_graph(&ps, t, f, &sig, unknown, sizeof(unknown))) != 0)
                goto out;
            if (unknown[0] && !ps.unknown_tasks[f]++)
                snprintf(ps.unknown_what[f], sizeof(ps.unknown_what[f]), "%s", unknown);
            long ix = intern_sig(&ps, &sig);
            if (ix < 0) {
                imp_oom(im);
                goto out;
            }
            task_sig[t] = ix;
        }
    }
    if (ps.nmiss) { /* refused before anything compiles or runs */
        missing_values(&ps);
        goto out;
    }
    res = calloc(ps.nsigs ? ps.nsigs : 1, sizeof(*res));
    if (!res) {
        imp_oom(im);
        goto out;
    }
    if (hint) {
        hint_figures(&ps, task_sig, &po, said, saidlen);
        rc = 0;
        goto out;
    }
    if (opt->progress && ps.nsigs)
        fprintf(stderr, "ptosim: perf-sim: %zu tasks, %zu distinct signatures of %d kernels\n", im->nknown, ps.nsigs,
                ps.npk);
    if (perfsim_price(&po, ps.pk, ps.npk, ps.sigs, ps.nsigs, res, im->err, im->errlen) != 0)
        goto out;
    /* what did not compile or run, and signatures that recorded nothing */
    char failed[2048] = "";
    size_t flen = 0;
    for (int f = 0; f < GRAPH_MAX_FUNC_ID; f++) {
        if (ps.kidx[f] < 0)
            continue;
        perfsim_kernel *k = &ps.pk[ps.kidx[f]];
        size_t empty = 0, tasks = 0, huge = 0;
        for (size_t t = 0; t < im->nknown && !k->failed; t++) {
            const imp_task *tk = &im->tasks[t];
            for (int s = 0; s < 3; s++)
                if (tk->k[s] == f && task_sig[t] >= 0) {
                    tasks++;
                    empty += res[task_sig[t]].instructions == 0;
                    huge += past_graph(&res[task_sig[t]]);
                }
        }
        if (!k->failed && huge) {
            k->failed = true;
            snprintf(k->why, sizeof(k->why),
                     "Perf-Sim measured more than a graph holds (%llu cycles, %llu GM bytes a pipe) for %zu of "
                     "its %zu tasks",
                     GRAPH_MAX_PIPE_CYCLES, GRAPH_MAX_PIPE_BYTES, huge, tasks);
        }
        if (!k->failed && empty) {
            k->failed = true;
            snprintf(k->why, sizeof(k->why),
                     "Perf-Sim recorded no instructions for %zu of its %zu tasks%s%s%s", empty, tasks,
                     ps.unknown_tasks[f] ? " (it was run without " : "", ps.unknown_what[f],
                     ps.unknown_tasks[f] ? ": give them with --values)" : "");
        }
        if (k->failed) {
            fallback[f] = true;
            flen += (size_t)snprintf(failed + flen, flen < sizeof(failed) ? sizeof(failed) - flen : 0,
                                     "%skernel %s (%s): %s", flen ? "; " : "", k->name, k->source, k->why);
        }
    }
    if (flen && !opt->fallback_model) {
        snprintf(im->err, im->errlen, "%s (--fallback model keeps the model's cost for these)", failed);
        goto out;
    }
    for (int f = 0; f < GRAPH_MAX_FUNC_ID; f++) {
        imp_kernel *kn = &im->kernels[f];
        if (!kn->used || kn->table)
            continue;
        if (fallback[f]) {
            snprintf(nb, sizeof(nb), "func %d", f);
            FILE *w = im->warn ? im->warn : stderr;
            fprintf(w, "ptosim: warning: kernel %s: the model's cost, not Perf-Sim's (%s), for its tasks",
                    ps.disp[f], ps.kidx[f] >= 0 ? ps.pk[ps.kidx[f]].why : "no source given");
            const char *sep = " ";
            for (size_t t = 0; t < im->nknown; t++) { /* every task that runs it */
                const imp_task *tk = &im->tasks[t];
                if (tk->k[0] == f || tk->k[1] == f || tk->k[2] == f) {
                    fprintf(w, "%s0x%016" PRIx64, sep, tk->id);
                    sep = ", ";
                }
            }
            fputc('\n', w);
            continue;
        }
        /* the kernel's cost: the signature most of its tasks have (ties: the first seen) */
        size_t *count = calloc(ps.nsigs, sizeof(*count));
        if (!count) {
            imp_oom(im);
            goto out;
        }
        long best = -1;
        for (size_t t = 0; t < im->nknown; t++) {
            const imp_task *tk = &im->tasks[t];
            if ((tk->k[0] == f || tk->k[1] == f || tk->k[2] == f) && task_sig[t] >= 0 &&
                ++count[task_sig[t]] > (best >= 0 ? count[best] : 0))
                best = task_sig[t];
        }
        size_t nsig = 0;
        for (size_t i = 0; i < ps.nsigs; i++)
            nsig += count[i] > 0;
        free(count);
        if (best < 0)
            continue;
        kn->status = KCOST_DERIVED;
        kn->model = measured(&res[best], kn->aic);
        const perfsim_result *r = &res[best];
        int busiest = PIPE_SCALAR;
        for (int p = 0; p < PIPE_COUNT; p++)
            if (r->busy[p] > r->busy[busiest])
                busiest = p;
        int n = snprintf(kn->note, sizeof(kn->note),
                         "Perf-Sim on its code (%s): %" PRIu64 " cycles at 1.85 GHz, %" PRIu64
                         " instructions, busiest pipe %s; %zu distinct task signature%s",
                         ps.pk[ps.kidx[f]].source, r->total, r->instructions, pipe_name((pipe_id)busiest), nsig,
                         nsig == 1 ? "" : "s");
        if (ps.unknown_tasks[f] && n > 0 && (size_t)n < sizeof(kn->note)) {
            snprintf(kn->note + n, sizeof(kn->note) - (size_t)n,
                     "; %zu tasks priced without %s (zeros): give them with --values", ps.unknown_tasks[f],
                     ps.unknown_what[f]);
            imp_note(im, "kernel %s: %zu tasks priced without %s (zeros); give them with --values",
                     ps.disp[f], ps.unknown_tasks[f], ps.unknown_what[f]);
        }
        for (size_t t = 0; t < im->nknown; t++) {
            imp_task *tk = &im->tasks[t];
            bool single = (tk->k[0] >= 0) + (tk->k[1] >= 0) + (tk->k[2] >= 0) == 1;
            if (!single || task_sig[t] < 0 || (tk->k[0] != f && tk->k[1] != f && tk->k[2] != f))
                continue;
            tk->model_status = KCOST_DERIVED;
            pipe_kernel m = measured(&res[task_sig[t]], kn->aic);
            if (!(tk->model = pipe_set_put(&im->models, &m))) {
                rc = imp_oom(im);
                goto out;
            }
            tk->own_cost = task_sig[t] != best && memcmp(&m, &kn->model, sizeof(m)) != 0;
        }
    }
    rc = 0;
out:
    free(task_sig);
    free(res);
    free_state(&ps);
    return rc;
}
