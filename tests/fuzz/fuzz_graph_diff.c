/* fuzz_graph_diff.c - libFuzzer target: the graph reader against the reader it replaced. */
/* model/graph/graph_reader.c (a flat doc per line) against graph_old.c (a cJSON tree per line) on the same file. Both
 * must accept or refuse it with the same message, and when they accept, read the same header and hand over
 * the same operations line by line, to the same end. The whole input is also parsed as one JSON document by
 * both of json_reader.h's parsers (the doc, and the cJSON tree turned into a doc): the same error (byte, reason,
 * path) or the same values. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../model/base/json_reader.h"
#include "../../model/base/msg_text.h"
#include "../../model/graph/graph_reader.h"
#include "fuzzutil.h"

/* The old reader's public functions, renamed so both readers link into one program. */
#define graph_open old_graph_open
#define graph_handover old_graph_handover
#define graph_handback old_graph_handback
#define graph_next old_graph_next
#define graph_close old_graph_close
#define graph_validate old_graph_validate
#define graph_err_oom old_graph_err_oom
#define graph_check_cost old_graph_check_cost
#define graph_dir_name old_graph_dir_name
int graph_open(graph *g, const char *path, char *err, size_t errlen);
int graph_handover(graph *from, graph *to);
void graph_handback(graph *from, graph *to);
int graph_next(graph *g, graph_op *op, char *err, size_t errlen);
void graph_close(graph *g);
int graph_validate(const char *path, char *err, size_t errlen);
bool graph_err_oom(const char *err);
int graph_check_cost(const char *path, long line, const char *field, const cJSON *v, bool aic,
                     graph_cost *out, char *err, size_t errlen);
const char *graph_dir_name(graph_dir d);
#include "graph_old.c"
#undef graph_open
#undef graph_handover
#undef graph_handback
#undef graph_next
#undef graph_close
#undef graph_validate
#undef graph_err_oom
#undef graph_check_cost
#undef graph_dir_name

/* Two doubles the same to the bit (-0 and 0 differ: a message prints them differently). */
static bool same_double(double a, double b)
{
    return memcmp(&a, &b, sizeof(a)) == 0;
}

static bool same_cost(const graph_cost *a, const graph_cost *b)
{
    return memcmp(a, b, sizeof(*a)) == 0; /* get_cost clears the whole struct before filling it */
}

/* The two readers' headers: what graph_open kept. */
static bool same_header(const graph *a, const graph *b)
{
    if (strcmp(a->name, b->name) != 0 || strcmp(a->orchestrator, b->orchestrator) != 0 ||
        a->nkernels != b->nkernels || a->nexternal != b->nexternal ||
        a->has_run_config != b->has_run_config ||
        memcmp(a->run_rings, b->run_rings, sizeof(a->run_rings)) != 0 ||
        memcmp(a->func_to_kernel, b->func_to_kernel, sizeof(a->func_to_kernel)) != 0 ||
        a->tensor_names.count != b->tensor_names.count || a->next_auto_addr != b->next_auto_addr)
        return false;
    for (int i = 0; i < a->nkernels; i++) {
        const graph_kernel *x = &a->kernels[i], *y = &b->kernels[i];
        if (x->id != y->id || strcmp(x->name, y->name) != 0 || x->core != y->core ||
            !same_cost(&x->cost, &y->cost))
            return false;
    }
    for (int i = 0; i < a->nexternal; i++) {
        const graph_tensor *x = &a->tensors[i], *y = &b->tensors[i];
        if (x->dtype != y->dtype || x->ndim != y->ndim || memcmp(x->shape, y->shape, sizeof(x->shape)) != 0 ||
            x->numel != y->numel || x->storage_numel != y->storage_numel || x->addr != y->addr ||
            x->version != y->version || x->resident != y->resident || x->auto_addr != y->auto_addr ||
            x->ndata != y->ndata ||
            strcmp(strtab_key(&a->tensor_names, i), strtab_key(&b->tensor_names, i)) != 0)
            return false;
        for (uint32_t k = 0; k < x->ndata; k++)
            if (!same_double(x->data[k], y->data[k]))
                return false;
    }
    return true;
}

/* The two readers' operations. */
static bool same_op(const graph_op *a, const graph_op *b)
{
    if (a->kind != b->kind || a->line != b->line || a->byte_end != b->byte_end || a->manual != b->manual ||
        strcmp(a->site, b->site) != 0 || a->label != b->label ||
        memcmp(a->kernel_ids, b->kernel_ids, sizeof(a->kernel_ids)) != 0 || a->block_num != b->block_num ||
        a->sync_start != b->sync_start || a->early_resolve != b->early_resolve ||
        a->predicate != b->predicate || a->dump_task != b->dump_task || a->has_cost != b->has_cost ||
        (a->has_cost && !same_cost(&a->cost, &b->cost)) || a->nargs != b->nargs ||
        a->nscalars != b->nscalars || a->ndeps != b->ndeps ||
        (a->kind == OP_USER_CODE && a->user_ns != b->user_ns)) /* set only for user_code (op_reset) */
        return false;
    for (int i = 0; i < a->nargs; i++) {
        const graph_arg *x = &a->args[i], *y = &b->args[i];
        if (x->dir != y->dir || x->tensor != y->tensor || x->dtype != y->dtype || x->ndim != y->ndim ||
            memcmp(x->shape, y->shape, sizeof(x->shape[0]) * (size_t)x->ndim) != 0 ||
            memcmp(x->strides, y->strides, sizeof(x->strides[0]) * (size_t)x->ndim) != 0 ||
            x->start_offset != y->start_offset || x->buffer_numel != y->buffer_numel ||
            x->version != y->version || x->manual_dep != y->manual_dep || x->dump != y->dump ||
            x->ndata != y->ndata)
            return false;
        for (uint32_t k = 0; k < x->ndata; k++)
            if (!same_double(x->data[k], y->data[k]))
                return false;
    }
    for (int i = 0; i < a->nscalars; i++)
        if (a->scalars[i].dtype != b->scalars[i].dtype ||
            !same_double(a->scalars[i].value, b->scalars[i].value) ||
            a->scalars[i].dump != b->scalars[i].dump)
            return false;
    for (int i = 0; i < a->ndeps; i++)
        if (a->deps[i].label != b->deps[i].label || a->deps[i].raw_id != b->deps[i].raw_id)
            return false;
    return true;
}

/* Both of json_reader.h's parsers on the whole input. */
static void compare_parsers(const char *text, size_t len)
{
    static jsonl_doc fresh, via_tree; /* kept between inputs, as a reader keeps its doc between lines */
    jsonl_error e1, e2;
    const jsonl_val *a = jsonl_doc_parse(&fresh, text, len, &e1);
    cJSON *t = jsonl_parse(text, len, &e2);
    if (!a || !t) {
        if (a || t || e1.at != e2.at || (e1.what == NULL) != (e2.what == NULL) ||
            (e1.what && (strcmp(e1.what, e2.what) != 0 || strcmp(e1.path, e2.path) != 0)))
            abort(); /* one parser refuses what the other takes, or for another reason or place */
        return;
    }
    const jsonl_val *b = jsonl_doc_from_cjson(&via_tree, t);
    if (!b || fresh.nv != via_tree.nv)
        abort();
    for (size_t i = 0; i < fresh.nv; i++) {
        const jsonl_val *x = &a[i], *y = &b[i];
        if (x->type != y->type || x->span != y->span || x->count != y->count ||
            (x->key == NULL) != (y->key == NULL) || (x->key && strcmp(x->key, y->key) != 0) ||
            x->klen != y->klen ||
            (x->type == JSONL_STRING && memcmp(x->str, y->str, (size_t)x->count + 1) != 0) ||
            (x->type == JSONL_NUMBER && !same_double(x->num, y->num)))
            abort();
    }
    cJSON_Delete(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64];
    if (!path[0])
        fuzz_scratch_path(path, sizeof(path), "graph_diff.jsonl");
    compare_parsers((const char *)data, size);
    if (fuzz_write_file(path, data, size) != 0)
        return 0;
    char e_new[GRAPH_ERR_MAX], e_old[GRAPH_ERR_MAX];
    graph *gn = malloc(sizeof(*gn)), *go = malloc(sizeof(*go));
    graph_op *on = malloc(sizeof(*on)), *oo = malloc(sizeof(*oo));
    if (!gn || !go || !on || !oo)
        abort();
    int rn = graph_open(gn, path, e_new, sizeof(e_new));
    int ro = old_graph_open(go, path, e_old, sizeof(e_old));
    /* the old reader predates the escaping of bytes a terminal acts on: compare what the new one prints */
    if (ro != 0)
        msgtext_fix(e_old, sizeof(e_old));
    if (rn != ro || (rn != 0 && strcmp(e_new, e_old) != 0)) {
        fprintf(stderr, "header: new %d '%s', old %d '%s'\n", rn, rn ? e_new : "", ro, ro ? e_old : "");
        abort(); /* the header read differently */
    }
    if (rn == 0) {
        if (!same_header(gn, go))
            abort();
        do {
            rn = graph_next(gn, on, e_new, sizeof(e_new));
            ro = old_graph_next(go, oo, e_old, sizeof(e_old));
            if (ro < 0)
                msgtext_fix(e_old, sizeof(e_old));
            if (rn != ro || (rn < 0 && strcmp(e_new, e_old) != 0) || (rn == 1 && !same_op(on, oo))) {
                fprintf(stderr, "line %ld: new %d '%s', old %d '%s'\n", gn->line, rn, rn < 0 ? e_new : "", ro,
                        ro < 0 ? e_old : "");
                abort(); /* a line read differently */
            }
        } while (rn == 1);
        graph_close(gn);
        old_graph_close(go);
    }
    free(gn);
    free(go);
    free(on);
    free(oo);
    return 0;
}
