/* import.c - import_: `ptosim import`, the command, and the op order and graph file it rebuilds. */
/* The op order and scopes from what import_read.c read of the capture (deps.json, scope stats, the swimlane,
 * the name map); it calls import_heap.c (created buffers from heap offsets) and import_cost.c (kernel costs),
 * which share import_state.h with it. */
#include "../../model/base/msg_text.h"
#include "../../model/base/outfile.h"
#include "import.h"

#include <dirent.h>
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../model/base/dtype.h"
#include "../../model/graph/graph_reader.h"
#include "../../model/base/userdir.h"
#include "../../model/base/vec.h"
#include "../cli/cli.h"
#include "import_cost.h"
#include "import_heap.h"
#include "import_read.h"
#include "import_state.h"
#include "../cli/stop_signal.h"

static const char *const DIRS[] = {"in", "out", "inout", "out_existing", "no_dep"};

/* ---- the op order ---- */

static int push_op(importer *im, imp_op op)
{
    if (vec_grow((void **)&im->ops, &im->opcap, im->nops, sizeof(*im->ops)) != 0)
        return imp_oom(im);
    if (op.kind == OP_TASK)
        im->tasks[op.task].pos = im->nops;
    im->ops[im->nops++] = op;
    return 0;
}

static int ring_of_depth(int depth)
{
    return depth < RINGS - 1 ? depth : RINGS - 1;
}

/* Emits the next ids of ring r while they are allocs and fewer than limit
 * (the head of ring r's next scope sample). */
static int emit_allocs(importer *im, int r, uint64_t *emitted, uint64_t limit)
{
    while (emitted[r] < im->ring_count[r] && emitted[r] < limit) {
        size_t ti = (size_t)im->by_local[r][emitted[r]];
        if (!im->tasks[ti].alloc)
            break;
        if (push_op(im, (imp_op){.kind = OP_TASK, .task = ti}) != 0)
            return -1;
        emitted[r]++;
    }
    return 0;
}

static int order_merge(importer *im, const uint64_t *limit);

/* Merges the submission order of deps.json, the per-ring id order (allocs
 * fill the gaps) and the scope samples into one op sequence. A task can be
 * issued only while the current depth maps to its ring, and a sample of ring
 * r comes exactly when r has handed out `head` ids. */
static int order_with_stats(importer *im)
{
    /* limit[si * RINGS + r]: head of the first sample of ring r at or after si */
    uint64_t *limit = malloc((im->nscopes + 1) * RINGS * sizeof(*limit));
    if (!limit)
        return imp_oom(im);
    for (int r = 0; r < RINGS; r++)
        limit[im->nscopes * RINGS + r] = UINT64_MAX;
    for (size_t i = im->nscopes; i-- > 0;)
        for (int r = 0; r < RINGS; r++)
            limit[i * RINGS + r] = im->scopes[i].ring == r ? im->scopes[i].head : limit[(i + 1) * RINGS + r];
    int rc = order_merge(im, limit);
    free(limit);
    return rc;
}

static int order_merge(importer *im, const uint64_t *limit)
{
    uint64_t emitted[RINGS] = {0};
    size_t gi = 0, si = 0;
    int depth = 0;
    static const char *const F = "scope_stats/scope_stats.jsonl";
    for (;;) {
        while (si < im->nscopes && im->scopes[si].depth == 0)
            si++; /* the root scope's samples: implicit */
        const imp_scope *next = si < im->nscopes ? &im->scopes[si] : NULL;
        int r = ring_of_depth(depth);
        if (emit_allocs(im, r, emitted, limit[si * RINGS + r]) != 0)
            return -1;
        if (gi < im->nknown) {
            const imp_task *t = &im->tasks[gi];
            bool head_ok = emitted[r] < limit[si * RINGS + r];
            if (t->ring == r && t->local == emitted[r] && head_ok) {
                if (push_op(im, (imp_op){.kind = OP_TASK, .task = gi}) != 0)
                    return -1;
                gi++;
                emitted[r]++;
                continue;
            }
        }
        if (!next)
            break;
        if (next->ring == r && emitted[r] != next->head)
            return imp_fail(im, F,
                            "line %ld: ring %d had handed out %" PRIu64
                            " tasks, but deps.json lists task %" PRIu64
                            " next (the files are not of one run)",
                            next->line, r, next->head,
                            gi < im->nknown ? im->tasks[gi].id : (uint64_t)r << 32 | emitted[r]);
        if (next->begin) {
            if (next->depth != depth + 1)
                return imp_fail(im, F, "line %ld: a scope begins at depth %d inside depth %d", next->line,
                                next->depth, depth);
            if (depth + 1 >= MAX_SCOPE_DEPTH)
                return imp_fail(im, F, "line %ld: scopes nest deeper than %d", next->line,
                                MAX_SCOPE_DEPTH - 1);
            if (push_op(im, (imp_op){.kind = OP_BEGIN, .site = next->site}) != 0)
                return -1;
            depth++;
        } else {
            if (next->depth != depth)
                return imp_fail(im, F, "line %ld: a scope of depth %d ends inside depth %d", next->line,
                                next->depth, depth);
            if (push_op(im, (imp_op){.kind = OP_END}) != 0)
                return -1;
            depth--;
        }
        si++;
    }
    if (gi < im->nknown)
        return imp_fail(im, F,
                        "task %" PRIu64
                        " (ring %d) cannot be placed in the scopes sampled (a scope of ring %d "
                        "would have to be open)",
                        im->tasks[gi].id, im->tasks[gi].ring, im->tasks[gi].ring);
    for (int r = 0; r < RINGS; r++)
        if (emitted[r] != im->ring_count[r])
            return imp_fail(im, F, "ring %d handed out %" PRIu64 " tasks but only %" PRIu64 " fit its scopes",
                            r, im->ring_count[r], emitted[r]);
    while (depth-- > 0)
        if (push_op(im, (imp_op){.kind = OP_END}) != 0)
            return -1;
    return 0;
}

/* Without scope stats: scopes follow the rings (a task of ring r runs at
 * depth r, deeper rings share ring 3), closed every GUESSED_SCOPE_TASKS
 * tasks so a long run of one ring does not hold the whole window. */
static int order_guessed(importer *im)
{
    uint64_t emitted[RINGS] = {0};
    int depth = 0;
    size_t in_scope = 0;
    for (size_t gi = 0;; gi++) {
        int want;
        if (gi < im->nknown) {
            want = im->tasks[gi].ring;
        } else {
            want = -1; /* trailing allocs of some ring */
            for (int r = 0; r < RINGS && want < 0; r++)
                if (emitted[r] < im->ring_count[r])
                    want = r;
            if (want < 0)
                break;
        }
        if (depth == want && want > 0 && in_scope >= GUESSED_SCOPE_TASKS) {
            if (push_op(im, (imp_op){.kind = OP_END}) != 0 || push_op(im, (imp_op){.kind = OP_BEGIN}) != 0)
                return -1;
            in_scope = 0;
        }
        while (depth > want) {
            if (push_op(im, (imp_op){.kind = OP_END}) != 0)
                return -1;
            depth--;
            in_scope = 0;
            if (emit_allocs(im, ring_of_depth(depth), emitted, UINT64_MAX) != 0)
                return -1;
        }
        while (depth < want) {
            if (push_op(im, (imp_op){.kind = OP_BEGIN}) != 0)
                return -1;
            depth++;
            in_scope = 0;
            if (emit_allocs(im, ring_of_depth(depth), emitted, UINT64_MAX) != 0)
                return -1;
        }
        if (gi >= im->nknown) {
            if (emit_allocs(im, want, emitted, UINT64_MAX) != 0)
                return -1;
            if (emitted[want] < im->ring_count[want])
                return imp_fail(im, "deps.json",
                                "ring %d: task %" PRIu64 " is listed out of its ring's order", want,
                                ((uint64_t)want << 32) | emitted[want]);
            gi--;
            continue;
        }
        const imp_task *t = &im->tasks[gi];
        if (t->local != emitted[want])
            return imp_fail(im, "deps.json", "task %" PRIu64 " is listed before task %" PRIu64 " of its ring",
                            t->id, ((uint64_t)want << 32) | emitted[want]);
        if (push_op(im, (imp_op){.kind = OP_TASK, .task = gi}) != 0)
            return -1;
        emitted[want]++;
        in_scope++;
        if (emit_allocs(im, want, emitted, UINT64_MAX) != 0)
            return -1;
    }
    while (depth-- > 0)
        if (push_op(im, (imp_op){.kind = OP_END}) != 0)
            return -1;
    return 0;
}

/* Scope modes: a scope is manual when a task directly inside it was
 * submitted in a manual scope, or when a scope around it is (the runtime
 * rejects an auto scope inside a manual one). */
static int assign_modes(importer *im)
{
    size_t stack[MAX_SCOPE_DEPTH + 1];
    int top = 0;
    for (size_t i = 0; i < im->nops; i++) {
        imp_op *op = &im->ops[i];
        if (op->kind == OP_BEGIN) {
            stack[++top] = i;
            op->manual = false;
        } else if (op->kind == OP_END) {
            top--;
        } else if (im->tasks[op->task].manual) {
            if (top == 0)
                return imp_fail(im, "deps.json",
                                "task %" PRIu64 " was submitted in a manual scope, but no scope is open",
                                im->tasks[op->task].id);
            im->ops[stack[top]].manual = true;
        }
    }
    bool manual[MAX_SCOPE_DEPTH + 1] = {false};
    top = 0;
    for (size_t i = 0; i < im->nops; i++) {
        imp_op *op = &im->ops[i];
        if (op->kind == OP_BEGIN) {
            top++;
            op->manual |= manual[top - 1];
            manual[top] = op->manual;
        } else if (op->kind == OP_END) {
            top--;
        } else if (!im->tasks[op->task].alloc && !im->tasks[op->task].manual && manual[top]) {
            return imp_fail(im, "deps.json", "task %" PRIu64 " is an auto-scope task inside a manual scope",
                            im->tasks[op->task].id);
        }
    }
    return 0;
}

/* ---- writing ---- */

static void put_dims(FILE *f, const int64_t *v, int n)
{
    fputc('[', f);
    for (int i = 0; i < n; i++) {
        if (i)
            fputs(", ", f);
        outfile_put_i64(f, v[i]);
    }
    fputc(']', f);
}

/* x in decimal at out, NUL-terminated; returns the end (the NUL). The names are written for every arg of
 * every task: snprintf was a twentieth of an import. */
static char *put_dec(char *out, uint64_t x)
{
    char d[24];
    int k = 0;
    do
        d[k++] = (char)('0' + x % 10);
    while ((x /= 10) != 0);
    while (k > 0)
        *out++ = d[--k];
    *out = '\0';
    return out;
}

/* A buffer's name: e<k> for external tensors, o<task>_<slot> for outputs. */
static void buf_name(const importer *im, int b, char *out, size_t len)
{
    const imp_buf *bf = &im->bufs[b];
    assert(len >= 48); /* "o" + 20 digits + "_" + 20 digits */
    (void)len;
    if (!bf->created) {
        assert(bf->tensor >= 0);
        out[0] = 'e';
        put_dec(out + 1, (uint64_t)bf->tensor);
        return;
    }
    const imp_task *t = &im->tasks[bf->task];
    size_t slot = 0;
    while (slot < t->nouts && t->outs[slot] != b)
        slot++;
    out[0] = 'o';
    char *p = put_dec(out + 1, t->id);
    *p++ = '_';
    put_dec(p, slot);
}

/* "key": "name" (names are the importer's own: e<k>, o<task>_<slot>, no escapes). */
static void put_key_name(FILE *f, const char *key, const char *name)
{
    fputc('"', f);
    fputs(key, f);
    fputs("\": \"", f);
    fputs(name, f);
    fputc('"', f);
}

/* dtype and shape of a created buffer: its tensor record, or bytes. */
static void put_new_tensor(const importer *im, int b, const char *key, FILE *f)
{
    const imp_buf *bf = &im->bufs[b];
    char name[64];
    buf_name(im, b, name, sizeof(name));
    /* as its readers see it (a reused address may hold another dtype each time); when nobody read it,
     * only its heap size is known */
    put_key_name(f, key, name);
    fputs(", \"dtype\": \"", f);
    fputs(bf->tensor >= 0 ? dtype_name(bf->dtype) : "INT8", f);
    fputs("\", \"shape\": [", f);
    outfile_put_u64(f, bf->tensor >= 0 ? (bf->numel ? bf->numel : 1) : bf->bytes);
    fputc(']', f);
}

static void put_task(const importer *im, const imp_task *t, FILE *f)
{
    if (t->alloc) {
        fputs("{\"op\": \"alloc\", \"id\": \"t", f);
        outfile_put_u64(f, t->id);
        fputs("\", \"tensors\": [", f);
        for (size_t o = 0; o < t->nouts; o++) {
            fputs(o ? ", {" : "{", f);
            put_new_tensor(im, t->outs[o], "name", f);
            fputc('}', f);
        }
        fputs("]}\n", f);
        return;
    }
    bool dummy = t->k[0] < 0 && t->k[1] < 0 && t->k[2] < 0;
    fputs(dummy ? "{\"op\": \"dummy\", \"id\": \"t" : "{\"op\": \"submit\", \"id\": \"t", f);
    outfile_put_u64(f, t->id);
    fputc('"', f);
    if (!dummy) {
        fputs(", \"kernels\": [", f);
        for (int s = 0; s < 3; s++) {
            if (s)
                fputs(", ", f);
            if (t->k[s] >= 0)
                outfile_put_i64(f, t->k[s]);
            else
                fputs("null", f);
        }
        fputc(']', f);
        if (t->block_num > 1)
            outfile_printf(f, ", \"block_num\": %d", t->block_num);
        if (t->sync && t->block_num > 1)
            fputs(", \"sync_start\": true", f);
        if (t->early)
            fputs(", \"early_resolve\": true", f);
        import_cost_put_task(im, t, f);
    }
    fputs(", \"args\": [", f);
    size_t slot = 0;
    for (int a = 0; a < t->nargs; a++) {
        const imp_arg *ia = &t->args[a];
        fputs(a ? ", " : "", f);
        if (ia->type == A_OUT) {
            fputs("{\"dir\": \"out\", ", f);
            put_new_tensor(im, t->outs[slot++], "tensor", f);
            fputc('}', f);
            continue;
        }
        char name[64];
        buf_name(im, ia->buf, name, sizeof(name));
        fputs("{\"dir\": \"", f);
        fputs(DIRS[ia->type], f);
        fputs("\", ", f);
        put_key_name(f, "tensor", name);
        fputs(", \"shape\": ", f);
        put_dims(f, ia->shape, ia->ndim);
        fputs(", \"strides\": ", f);
        put_dims(f, ia->strides, ia->ndim);
        fputs(", \"start_offset\": ", f);
        outfile_put_u64(f, ia->start);
        const imp_buf *bf = &im->bufs[ia->buf];
        int base_version = bf->created ? 0 : im->tensors[bf->tensor].version;
        if (im->tensors[ia->tensor].version != base_version)
            outfile_printf(f, ", \"version\": %d", im->tensors[ia->tensor].version);
        if (ia->manual_dep)
            fputs(", \"manual_dep\": true", f);
        fputc('}', f);
    }
    fputc(']', f);
    bool first = true;
    for (size_t e = 0; e < t->nedges; e++) {
        const imp_edge *ed = &t->edges[e];
        if (ed->source != 0)
            continue;
        fputs(first ? ", \"deps\": [" : ", ", f);
        first = false;
        if (ed->pred != SIZE_MAX) {
            fputs("\"t", f);
            outfile_put_u64(f, ed->pred_id);
            fputc('"', f);
        } else { /* an id no task had: the runtime counts it as retired */
            outfile_put_u64(f, ed->pred_id);
        }
    }
    if (!first)
        fputc(']', f);
    fputs("}\n", f);
}

static void put_ops(const importer *im, FILE *f)
{
    for (size_t i = 0; i < im->nops; i++) {
        const imp_op *op = &im->ops[i];
        if (op->kind == OP_TASK) {
            put_task(im, &im->tasks[op->task], f);
        } else if (op->kind == OP_END) {
            fputs("{\"op\": \"scope_end\"}\n", f);
        } else {
            fputs("{\"op\": \"scope_begin\"", f);
            if (op->site) {
                fputs(", \"site\": ", f);
                imp_put_str(f, op->site);
            }
            fputs(op->manual ? ", \"mode\": \"manual\"}\n" : "}\n", f);
        }
    }
}

static void put_run_config(const importer *im, FILE *f)
{
    static const char *const KEYS[3] = {"ring_task_window", "ring_heap", "ring_dep_pool"};
    bool any = false;
    for (int k = 0; k < 3; k++)
        any |= im->cap[k][0] != 0;
    if (!any)
        return;
    fputs(", \"run_config\": {", f);
    bool first = true;
    for (int k = 0; k < 3; k++) {
        if (!im->cap[k][0])
            continue;
        outfile_printf(f, "%s\"%s\": [", first ? "" : ", ", KEYS[k]);
        for (int r = 0; r < RINGS; r++)
            outfile_printf(f, "%s%" PRIu64, r ? ", " : "", im->cap[k][r]);
        fputc(']', f);
        first = false;
    }
    fputc('}', f);
}

static void put_header(importer *im, FILE *f)
{
    for (int i = 0; i < GRAPH_MAX_FUNC_ID; i++)
        im->func_core[i] = -1;
    for (size_t i = 0; i < im->nknown; i++)
        for (int s = 0; s < 3; s++)
            if (im->tasks[i].k[s] >= 0)
                im->func_core[im->tasks[i].k[s]] = s == 0 ? 0 : 1;
    fputs("{\"ptosim_graph\": 1, \"name\": ", f);
    imp_put_str(f, im->graph_name[0] ? im->graph_name : "imported");
    if (im->orchestrator[0]) {
        fputs(", \"orchestrator\": ", f);
        imp_put_str(f, im->orchestrator);
    }
    put_run_config(im, f);
    fputs(", \"kernels\": [", f);
    int n = 0;
    for (int id = 0; id < GRAPH_MAX_FUNC_ID; id++) {
        if (im->func_core[id] < 0)
            continue;
        char fallback[32];
        snprintf(fallback, sizeof(fallback), "func%d", id);
        outfile_printf(f, "%s{\"id\": %d, \"name\": ", n++ ? ", " : "", id);
        imp_put_str(f, im->names[id][0] ? im->names[id] : fallback);
        outfile_printf(f, ", \"core\": \"%s\"", im->func_core[id] ? "aiv" : "aic");
        import_cost_put_kernel(im, id, f);
        fputc('}', f);
    }
    fputs("], \"tensors\": [", f);
    n = 0;
    for (size_t b = 0; b < im->nbufs; b++) {
        const imp_buf *bf = &im->bufs[b];
        if (bf->created)
            continue;
        const imp_tensor *t = &im->tensors[bf->tensor];
        outfile_printf(f,
                "%s{\"name\": \"e%d\", \"dtype\": \"%s\", \"shape\": [%" PRIu64 "], \"addr\": \"%" PRIu64
                "\", \"version\": %d}",
                n++ ? ", " : "", bf->tensor, dtype_name(t->dtype), t->numel ? t->numel : 1, t->addr,
                t->version);
    }
    fputs("]}\n", f);
}

static void free_importer(importer *im)
{
    for (size_t i = 0; i < im->ntasks; i++) {
        free(im->tasks[i].args);
        free(im->tasks[i].edges);
        free(im->tasks[i].outs);
        free(im->tasks[i].anchored);
    }
    for (size_t i = 0; i < im->ntensors; i++) {
        free(im->tensors[i].creators);
        free(im->tensors[i].readers);
        free(im->tensors[i].made);
    }
    free(im->tid_hash);
    pipe_set_free(&im->models);
    if (im->kernels)
        for (int f = 0; f < GRAPH_MAX_FUNC_ID; f++)
            free(im->kernels[f].table);
    free(im->kernels);
    for (int r = 0; r < RINGS; r++)
        free(im->by_local[r]);
    free(im->tasks);
    free(im->tensors);
    free(im->bufs);
    free(im->scopes);
    free(im->ops);
    free(im);
}

static size_t last_peak_window; /* import_peak_window */

size_t import_peak_window(void)
{
    return last_peak_window;
}

/* Is name (an entry of a capture folder) one import reads: deps.json, the swimlane, a name map, or a
 * folder of the runtime's (scope_stats/, args_dump/), whose every entry it may read? */
static bool capture_entry(const char *name)
{
    return strcmp(name, "deps.json") == 0 || strcmp(name, "chip_swimlane_records.json") == 0 ||
           strncmp(name, "name_map", 8) == 0 || strcmp(name, "scope_stats") == 0 ||
           strcmp(name, "args_dump") == 0;
}

int import_check_links(const char *dir, char *err, size_t errlen)
{
    int top = userdir_open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
    DIR *d = top >= 0 ? fdopendir(top) : NULL;
    if (!d) {
        if (top >= 0)
            close(top);
        return 0; /* the reading says why */
    }
    int rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(d)) != NULL) {
        struct stat st;
        if (!capture_entry(e->d_name) || fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        if (S_ISLNK(st.st_mode)) {
            snprintf(err, errlen, "%s/%s: " USERDIR_LINK_WHY, dir, e->d_name);
            rc = -1;
            break;
        }
        int sub = S_ISDIR(st.st_mode)
                      ? openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                      : -1;
        DIR *sd = sub >= 0 ? fdopendir(sub) : NULL;
        if (!sd && sub >= 0)
            close(sub);
        struct dirent *f;
        while (sd && rc == 0 && (f = readdir(sd)) != NULL)
            if (fstatat(dirfd(sd), f->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode)) {
                snprintf(err, errlen, "%s/%s/%s: " USERDIR_LINK_WHY, dir, e->d_name, f->d_name);
                rc = -1;
            }
        if (sd)
            closedir(sd);
    }
    closedir(d);
    return rc;
}

int import_capture(const char *dfx_dir, const import_opts *opt, FILE *out, char *err, size_t errlen)
{
    static const import_opts defaults = {.costs = IMPORT_COSTS_AUTO};
    if (!opt)
        opt = &defaults;
    importer *im = calloc(1, sizeof(*im));
    if (!im || pipe_set_init(&im->models) != 0) {
        free(im);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    im->dir = dfx_dir;
    im->checked = opt->checked;
    im->err = err;
    im->errlen = errlen;
    im->warn = opt->warn ? opt->warn : stderr;
    for (int i = 0; i < GRAPH_MAX_FUNC_ID; i++)
        im->func_ns[i] = -1;
    /* scope stats first: their heads count the allocs no edge names */
    int rc = import_check_links(dfx_dir, err, errlen);
    if (rc == 0)
        rc = import_read_scope_stats(im);
    if (rc == 0)
        rc = import_read_deps(im);
    if (rc == 0 && im->have_stats) {
        rc = order_with_stats(im);
        if (rc != 0 && im->stats_suspect) {
            imp_note(im, "%s (the run was fatal or dropped samples): scopes are guessed from the rings", err);
            im->nops = 0;
            im->have_stats = false;
            rc = 0;
        }
    }
    if (rc == 0 && !im->have_stats)
        rc = order_guessed(im);
    if (rc == 0)
        rc = assign_modes(im);
    if (rc == 0)
        rc = import_heap_buffers(im);
    if (rc == 0)
        rc = import_read_swimlane(im);
    if (rc == 0) {
        import_read_name_map(im);
        rc = import_cost_resolve(im, opt);
    }
    if (rc == 0) {
        put_header(im, out);
        put_ops(im, out);
    }
    last_peak_window = im->peak_window;
    if (im->notes > IMPORT_MAX_NOTES && im->warn)
        outfile_printf(im->warn, "ptosim: note: %zu more notes like these\n", im->notes - IMPORT_MAX_NOTES);
    free_importer(im);
    return rc;
}

static void import_usage(FILE *f)
{
    fputs(
        "usage: ptosim import [--costs swimlane|model|perf-sim|FILE] DFX_DIR > graph.jsonl\n"
        "  DFX_DIR: a run's dfx_outputs/ with deps.json (--enable-dep-gen); scope_stats/scope_stats.jsonl\n"
        "  gives the scopes and ring sizes, chip_swimlane_records.json the kernel times, when present\n"
        "  --costs swimlane  each kernel's median time in the swimlane (the default for a capture on a2a3\n"
        "                    silicon, 72 cores)\n"
        "  --costs model     a pipe profile derived from each kernel's args (the default for a capture of a\n"
        "                    simulator platform, 24 cores, or without a swimlane)\n"
        "  --costs FILE      the model, overridden by a table of kernel name or func id -> cost: JSON\n"
        "                    {\"GEMM\": {\"ns\": 5000}, \"1\": {\"cycles\": 9000}, ...} (a cost may be the "
        "pipe\n"
        "                    form) or CSV \"kernel,ns\" / \"kernel,cycles\" (a file named model or "
        "swimlane:\n"
        "                    write ./model)\n"
        "  --costs perf-sim  each distinct task signature run through its kernel's own code under pto-isa's\n"
        "                    Perf-Sim (scalars and integer inputs from the capture's args_dump/ when present):\n"
        "    --kernel NAME=FILE     a kernel's source (kernel_entry); repeatable\n"
        "    --kernels TABLE        JSON {\"NAME\": \"file.cpp\"} or the runtime's test .py (CALLABLE incores)\n"
        "    --values FILE          without an args dump: {\"NAME\": {\"scalars\": [..], \"inputs\": {\"3\": [..]}}}\n"
        "    --pto-isa DIR          pto-isa tree (default $PTO_ISA_ROOT; 995589ab is known to work)\n"
        "    --runtime-include DIR  the runtime's tree for its incore headers (default $SIMPLER_ROOT)\n"
        "    --cache DIR            compiled kernels and results (default ~/.cache/ptosim/perf-sim): yours\n"
        "                           alone, or refused\n"
        "    --shared-cache         use a cache other users can write, each entry checked by its digest\n"
        "    --time-limit SECONDS   each compile and each batch of Perf-Sim runs (default 300)\n"
        "    -j N                   compiles and runs at once (default: the cores online)\n"
        "    --fallback model       a kernel Perf-Sim cannot price keeps the model's cost (listed on stderr)\n"
        "  the compiler is $CXX, else clang++-19 or clang++\n"
        "exit status: 0 written; 2 usage; 3 the capture, a table or a kernel cannot be used; 130/143\n"
        "SIGINT/SIGTERM during Perf-Sim's compiles and runs\n",
        f);
}

int import_main(int argc, char **argv)
{
    import_opts opt = {.costs = IMPORT_COSTS_AUTO};
    const char *dir = NULL, **kernel_args = NULL, *perf_given = NULL;
    for (int i = 0; i < argc; i++) {
        const char *v = NULL;
        if (cli_is_help(argv[i])) {
            import_usage(stdout);
            return EXIT_OK;
        }
        if (cli_opt_is(argv[i], "--costs", &v)) {
            if (!v && i + 1 < argc)
                v = argv[++i];
            if (!v || !*v) {
                fputs("ptosim import: --costs needs swimlane, model, perf-sim or a file\n", stderr);
                goto usage_fail;
            }
            opt.costs = strcmp(v, "swimlane") == 0   ? IMPORT_COSTS_SWIMLANE
                        : strcmp(v, "perf-sim") == 0 ? IMPORT_COSTS_PERFSIM
                                                     : IMPORT_COSTS_MODEL;
            opt.costs_file = strcmp(v, "swimlane") == 0 || strcmp(v, "model") == 0 || strcmp(v, "perf-sim") == 0
                                 ? NULL
                                 : v;
            continue;
        }
        static const char *const perf_opts[] = {"--kernel", "--kernels", "--values", "--pto-isa", "--runtime-include",
                                                "--cache", "-j", "--jobs", "--fallback", "--time-limit",
                                                NULL};
        if (strcmp(argv[i], "--shared-cache") == 0) {
            opt.shared_cache = true;
            perf_given = argv[i];
            continue;
        }
        int po = -1;
        for (int k = 0; perf_opts[k] && po < 0; k++)
            if (cli_opt_is(argv[i], perf_opts[k], &v))
                po = k;
        if (po >= 0) {
            if (!v && i + 1 < argc)
                v = argv[++i];
            if (!v || !*v) {
                msgtext_print(stderr, "ptosim import: %s needs a value", perf_opts[po]);
                goto usage_fail;
            }
            char *end;
            long n;
            switch (po) {
            case 0: {
                const char **ka = realloc(kernel_args, (size_t)(opt.nkernel_args + 1) * sizeof(*ka));
                if (!ka) {
                    fputs("ptosim import: out of memory\n", stderr);
                    free(kernel_args);
                    return EXIT_INTERNAL;
                }
                kernel_args = ka;
                kernel_args[opt.nkernel_args++] = v;
                break;
            }
            case 1: opt.kernels_file = v; break;
            case 2: opt.values_file = v; break;
            case 3: opt.pto_isa = v; break;
            case 4: opt.runtime_root = v; break;
            case 5: opt.cache_dir = v; break;
            case 6:
            case 7:
                errno = 0;
                n = strtol(v, &end, 10);
                if (*end || errno || n < 1 || n > 256) {
                    msgtext_print(stderr, "ptosim import: %s %s: give a whole number in [1, 256]", perf_opts[po], v);
                    goto usage_fail;
                }
                opt.jobs = (int)n;
                break;
            case 9: {
                errno = 0;
                double t = strtod(v, &end);
                if (*end || errno || !(t > 0) || t > 86400) {
                    fprintf(stderr, "ptosim import: --time-limit %s: give seconds, a number in (0, 86400]\n",
                            v);
                    goto usage_fail;
                }
                opt.time_limit = t;
                break;
            }
            default:
                if (strcmp(v, "model") != 0) {
                    msgtext_print(stderr, "ptosim import: --fallback %s: the only fallback is model", v);
                    goto usage_fail;
                }
                opt.fallback_model = true;
            }
            perf_given = perf_opts[po];
            continue;
        }
        if (argv[i][0] == '-' || dir) {
            msgtext_print(stderr, "ptosim import: %s: %s", argv[i],
                    argv[i][0] == '-' ? "unknown option" : "one capture folder at a time");
            goto usage_fail;
        }
        dir = argv[i];
    }
    if (!dir) {
        fputs("ptosim import: missing DFX_DIR\n", stderr);
        goto usage_fail;
    }
    if (perf_given && opt.costs != IMPORT_COSTS_PERFSIM) {
        msgtext_print(stderr, "ptosim import: %s is for --costs perf-sim", perf_given);
        goto usage_fail;
    }
    opt.kernel_args = kernel_args;
    opt.progress = isatty(STDERR_FILENO);
    char err[4096];
    int rc = EXIT_OK;
    userdir_add(dir); /* named: nothing below it is read through a link */
    /* the graph is written aside and checked as ptosim run would read it before any byte reaches stdout: an
     * import that exits 0 has written a graph ptosim accepts */
    char tmp[PATH_MAX];
    const char *td = getenv("TMPDIR");
    snprintf(tmp, sizeof(tmp), "%s/ptosim-import.XXXXXX", td && td[0] ? td : "/tmp");
    int fd = mkstemp(tmp);
    FILE *g = fd >= 0 ? fdopen(fd, "w+") : NULL;
    if (!g) {
        msgtext_print(stderr, "ptosim import: cannot write the graph aside in %s: %s", td && td[0] ? td : "/tmp",
                strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(tmp);
        }
        free(kernel_args);
        return EXIT_INTERNAL;
    }
    int got = import_capture(dir, &opt, g, err, sizeof(err));
    if (intr_signal()) { /* Perf-Sim's compiles and runs were stopped: nothing is written */
        msgtext_print(stderr, "ptosim import: interrupted by %s", intr_name(intr_signal()));
        rc = intr_status(intr_signal());
    } else if (got != 0) {
        msgtext_print(stderr, "ptosim import: %s", err);
        rc = EXIT_GRAPH;
    } else if (fflush(g) != 0 || ferror(g)) {
        msgtext_print(stderr, "ptosim import: cannot write the graph aside (%s): %s", tmp, strerror(errno));
        rc = EXIT_INTERNAL;
    } else if (graph_validate(tmp, err, sizeof(err)) != 0) {
        size_t tl = strlen(tmp); /* "TMP:3: field: ..." names the file written aside: say "line 3" */
        const char *why = strncmp(err, tmp, tl) == 0 && err[tl] == ':' ? err + tl + 1 : err;
        msgtext_print(stderr, "ptosim import: %s: the graph made from this capture does not validate, so none is written: "
                "%s%s",
                dir, why != err ? "line " : "", why);
        rc = EXIT_GRAPH;
    } else {
        rewind(g);
        char buf[1 << 16];
        size_t n;
        while ((n = fread(buf, 1, sizeof(buf), g)) > 0)
            if (fwrite(buf, 1, n, stdout) != n) {
                msgtext_print(stderr, "ptosim: cannot write standard output: %s", strerror(errno));
                rc = EXIT_INTERNAL; /* said here, while errno says why */
                break;
            }
        if (rc == EXIT_OK && ferror(g)) {
            msgtext_print(stderr, "ptosim import: cannot read back the graph written aside (%s)", tmp);
            rc = EXIT_INTERNAL;
        }
    }
    fclose(g);
    unlink(tmp);
    free(kernel_args);
    return rc;
usage_fail:
    free(kernel_args);
    return EXIT_USAGE;
}
