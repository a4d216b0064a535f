/* import_graph.c - import_graph_: the graph rebuilt from a capture: op order, scope modes, the file. */
/* The ops in one order from deps.json's submission order, the rings' ids and the scope samples (or scopes
 * guessed from the rings), each scope's mode, and the graph file: its header and one line an op. */
#include "import_graph.h"

#include <assert.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "../../model/base/dtype.h"
#include "../../model/base/outfile.h"
#include "../../model/base/vec.h"
#include "../../model/base/write_buffer.h"
#include "../../model/chip/ring_rule.h"
#include "import_cost.h"
#include "import_state.h"

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
int import_graph_order_with_stats(importer *im)
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
int import_graph_order_guessed(importer *im)
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
int import_graph_assign_modes(importer *im)
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

/* The ops' lines are made in a buffer handed to the stream a piece at a time: a fputs or printf per field
 * was a sixth of an import. The buffer has no descriptor: room is made before each part of a line (the
 * largest, an arg, is well under PART_ROOM), so it never flushes by itself. */
#define GRAPH_CHUNK (256 * 1024)
#define PART_ROOM 4096

typedef struct gout {
    wbuf w; /* over a buffer of ours, fd -1 */
    FILE *f;
    char **pipe_text; /* per pipe form of importer.models: its text, once written (NULL: none kept) */
} gout;

/* Hands what is buffered to the stream. */
static void gout_drain(gout *g)
{
    if (g->w.p > g->w.buf)
        fwrite(g->w.buf, 1, (size_t)(g->w.p - g->w.buf), g->f);
    g->w.p = g->w.buf;
}

/* Room for a part of a line. */
static void gout_room(gout *g)
{
    if ((size_t)(g->w.end - g->w.p) < PART_ROOM)
        gout_drain(g);
}

static void put_dims(wbuf *w, const int64_t *v, int n)
{
    wbuf_char(w, '[');
    for (int i = 0; i < n; i++) {
        if (i)
            wbuf_lit(w, ", ");
        wbuf_i64(w, v[i]);
    }
    wbuf_char(w, ']');
}

/* A buffer's name: e<k> for external tensors, o<task>_<slot> for outputs. */
static void put_buf_name(wbuf *w, const importer *im, int b)
{
    const imp_buf *bf = &im->bufs[b];
    if (!bf->created) {
        assert(bf->tensor >= 0);
        wbuf_char(w, 'e');
        wbuf_u64(w, (uint64_t)bf->tensor);
        return;
    }
    const imp_task *t = &im->tasks[bf->task];
    size_t slot = 0;
    while (slot < t->nouts && t->outs[slot] != b)
        slot++;
    wbuf_char(w, 'o');
    wbuf_u64(w, t->id);
    wbuf_char(w, '_');
    wbuf_u64(w, slot);
}

/* dtype and shape of a created buffer: its tensor record, or bytes; "key": "name" first (names are the
 * importer's own: no escapes). */
static void put_new_tensor(wbuf *w, const importer *im, int b, const char *key)
{
    const imp_buf *bf = &im->bufs[b];
    /* as its readers see it (a reused address may hold another dtype each time); when nobody read it,
     * only its heap size is known */
    wbuf_char(w, '"');
    wbuf_str(w, key);
    wbuf_lit(w, "\": \"");
    put_buf_name(w, im, b);
    wbuf_lit(w, "\", \"dtype\": \"");
    wbuf_str(w, bf->tensor >= 0 ? dtype_name(bf->dtype) : "INT8");
    wbuf_lit(w, "\", \"shape\": [");
    wbuf_u64(w, bf->tensor >= 0 ? (bf->numel ? bf->numel : 1) : bf->bytes);
    wbuf_char(w, ']');
}

/* s as a JSON string, escaped as imp_put_str escapes it. */
static void put_str(wbuf *w, const char *s)
{
    wbuf_char(w, '"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            wbuf_char(w, '\\');
            wbuf_char(w, (char)c);
        } else if (c < 0x20) {
            char esc[6] = {'\\', 'u', '0', '0', "0123456789abcdef"[c >> 4], "0123456789abcdef"[c & 15]};
            wbuf_put(w, esc, 6);
        } else {
            wbuf_char(w, (char)c);
        }
    }
    wbuf_char(w, '"');
}

static void put_task(gout *g, const importer *im, const imp_task *t)
{
    wbuf *w = &g->w;
    gout_room(g);
    if (t->alloc) {
        wbuf_lit(w, "{\"op\": \"alloc\", \"id\": \"t");
        wbuf_u64(w, t->id);
        wbuf_lit(w, "\", \"tensors\": [");
        for (size_t o = 0; o < t->nouts; o++) {
            gout_room(g);
            wbuf_str(w, o ? ", {" : "{");
            put_new_tensor(w, im, t->outs[o], "name");
            wbuf_char(w, '}');
        }
        wbuf_lit(w, "]}\n");
        return;
    }
    bool dummy = t->k[0] < 0 && t->k[1] < 0 && t->k[2] < 0;
    if (dummy)
        wbuf_lit(w, "{\"op\": \"dummy\", \"id\": \"t");
    else
        wbuf_lit(w, "{\"op\": \"submit\", \"id\": \"t");
    wbuf_u64(w, t->id);
    wbuf_char(w, '"');
    if (!dummy) {
        wbuf_lit(w, ", \"kernels\": [");
        for (int s = 0; s < 3; s++) {
            if (s)
                wbuf_lit(w, ", ");
            if (t->k[s] >= 0)
                wbuf_i64(w, t->k[s]);
            else
                wbuf_lit(w, "null");
        }
        wbuf_char(w, ']');
        if (t->block_num > 1) {
            wbuf_lit(w, ", \"block_num\": ");
            wbuf_i64(w, t->block_num);
        }
        if (t->sync && t->block_num > 1)
            wbuf_lit(w, ", \"sync_start\": true");
        if (t->early)
            wbuf_lit(w, ", \"early_resolve\": true");
        import_cost_put_task(im, t, w, g->pipe_text, im->models.n);
    }
    wbuf_lit(w, ", \"args\": [");
    size_t slot = 0;
    for (int a = 0; a < t->nargs; a++) {
        const imp_arg *ia = &t->args[a];
        gout_room(g);
        if (a)
            wbuf_lit(w, ", ");
        if (ia->type == A_OUT) {
            wbuf_lit(w, "{\"dir\": \"out\", ");
            put_new_tensor(w, im, t->outs[slot++], "tensor");
            wbuf_char(w, '}');
            continue;
        }
        wbuf_lit(w, "{\"dir\": \"");
        wbuf_str(w, DIRS[ia->type]);
        wbuf_lit(w, "\", \"tensor\": \"");
        put_buf_name(w, im, ia->buf);
        wbuf_lit(w, "\", \"shape\": ");
        put_dims(w, ia->shape, ia->ndim);
        wbuf_lit(w, ", \"strides\": ");
        put_dims(w, ia->strides, ia->ndim);
        wbuf_lit(w, ", \"start_offset\": ");
        wbuf_u64(w, ia->start);
        const imp_buf *bf = &im->bufs[ia->buf];
        int base_version = bf->created ? 0 : im->tensors[bf->tensor].version;
        if (im->tensors[ia->tensor].version != base_version) {
            wbuf_lit(w, ", \"version\": ");
            wbuf_i64(w, im->tensors[ia->tensor].version);
        }
        if (ia->manual_dep)
            wbuf_lit(w, ", \"manual_dep\": true");
        wbuf_char(w, '}');
    }
    wbuf_char(w, ']');
    bool first = true;
    for (size_t e = 0; e < t->nedges; e++) {
        const imp_edge *ed = &t->edges[e];
        if (ed->source != 0)
            continue;
        if ((size_t)(w->end - w->p) < 64)
            gout_drain(g);
        if (first)
            wbuf_lit(w, ", \"deps\": [");
        else
            wbuf_lit(w, ", ");
        first = false;
        if (ed->pred != SIZE_MAX) {
            wbuf_lit(w, "\"t");
            wbuf_u64(w, ed->pred_id);
            wbuf_char(w, '"');
        } else { /* an id no task had: the runtime counts it as retired */
            wbuf_u64(w, ed->pred_id);
        }
    }
    if (!first)
        wbuf_char(w, ']');
    wbuf_lit(w, "}\n");
}

void import_graph_put_ops(const importer *im, FILE *f)
{
    char spare[2 * PART_ROOM]; /* when the heap has no room for GRAPH_CHUNK */
    char *buf = malloc(GRAPH_CHUNK);
    size_t size = buf ? GRAPH_CHUNK : sizeof(spare);
    gout g = {.w = {.buf = buf ? buf : spare, .fd = -1}, .f = f};
    g.w.p = g.w.buf;
    g.w.end = g.w.buf + size;
    g.pipe_text = calloc(im->models.n ? im->models.n : 1, sizeof(*g.pipe_text));
    for (size_t i = 0; i < im->nops; i++) {
        const imp_op *op = &im->ops[i];
        if (op->kind == OP_TASK) {
            put_task(&g, im, &im->tasks[op->task]);
            continue;
        }
        gout_room(&g);
        if (op->kind == OP_END) {
            wbuf_lit(&g.w, "{\"op\": \"scope_end\"}\n");
        } else {
            wbuf_lit(&g.w, "{\"op\": \"scope_begin\"");
            if (op->site) {
                wbuf_lit(&g.w, ", \"site\": ");
                put_str(&g.w, op->site);
            }
            if (op->manual)
                wbuf_lit(&g.w, ", \"mode\": \"manual\"}\n");
            else
                wbuf_lit(&g.w, "}\n");
        }
    }
    gout_drain(&g);
    if (g.pipe_text)
        for (size_t i = 0; i < im->models.n; i++)
            free(g.pipe_text[i]);
    free(g.pipe_text);
    free(buf);
}

/* The capture's ring sizes as the program's run_config, or as runtime_env when RunConfig could not have
 * asked for them (a runtime test's own RuntimeEnv may give a heap of any size from 1024 bytes). */
static void put_run_config(const importer *im, FILE *f)
{
    static const char *const KEYS[3] = {"ring_task_window", "ring_heap", "ring_dep_pool"};
    bool any = false, runconfig = true, runtime_env = true;
    for (int k = 0; k < 3; k++) {
        any |= im->cap[k][0] != 0;
        for (int r = 0; r < RINGS; r++) {
            char msg[160];
            runconfig &= !im->cap[k][r] || ringrule_check((ring_knob)k, im->cap[k][r], "", true, "", msg,
                                                          sizeof(msg)) == 0;
            runtime_env &= ringrule_check_env((ring_knob)k, im->cap[k][r], msg, sizeof(msg)) == 0;
        }
    }
    if (!any)
        return;
    /* sizes neither takes stay run_config, whose message the validation of the graph then gives */
    fputs(runconfig || !runtime_env ? ", \"run_config\": {" : ", \"runtime_env\": {", f);
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

void import_graph_put_header(importer *im, FILE *f)
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
