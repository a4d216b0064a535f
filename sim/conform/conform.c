/* conform.c - `ptosim conform`: a runtime capture imported, re-simulated and compared with ptosim's run. */
#define _XOPEN_SOURCE 700 /* nftw */
#include "conform.h"

#include <cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../model/base/json_reader.h"
#include "../../model/base/msg_text.h"
#include "../../model/base/outfile.h"
#include "../../model/base/string_table.h"
#include "../../model/base/userdir.h"
#include "../../model/chip/platform.h"
#include "../cli/cli.h"
#include "../import/import.h"
#include "../json/json_span.h"
#include "../json/json_stream.h"
#include "../run/run.h"
#include "conform_int.h"

/*
 * What is compared, and why not the rest. The captures come from the
 * runtime's functional simulator (a2a3sim), whose host threads race at host
 * speed: anything that depends on when a task completes or retires is a fact
 * of that one run, not of the runtime. Paths below are in hw-native-sys/simpler
 * under src/a2a3/runtime/tensormap_and_ringbuffer/.
 *
 * deps.json (built by the host replay of the submit records, host/dep_gen_replay.cpp):
 * everything, since the replay does not depend on timing. Tasks in order
 * (task_id, scope, early_dispatch, kernel_ids, block_num), their args in
 * order (idx, type, dtype, shape, start_offset, strides, tensor), the edge
 * multiset (pred, succ, arg, source, flags, overlap, tensor and the consumer
 * and producer views), and tensors[] in order (tensor, version, dtype,
 * buffer_numel, buffer_addr). A tensor_id hashes the buffer address, and the
 * runtime's heap is a host malloc in a2a3sim, so ids are compared through a
 * bijection: T<n> is the n-th distinct id in order of first appearance
 * (tasks[].args, then edges, then tensors[], in file order), and the same
 * tensor must have the same T<n> on both sides. buffer_addr: an external
 * tensor (outside ptosim's heap arena) must have the same address; a
 * runtime-created one (inside the arena) is compared by its offset in the
 * arena, real address minus ptosim's offset being one constant (the real
 * arena base). The arena is the four ring heaps back to back from
 * ORCH_HEAP_ARENA_BASE, as the runtime lays them out
 * (runtime/shared/pto_runtime2_init.cpp init_data_from_layout).
 *
 * scope_stats.jsonl: the header (version, fatal, dropped, total and the
 * capacities task_window_max, heap_max, dep_pool_max, tensormap_max), then
 * per record site, phase, depth, ring, task_window_end and heap_end: the
 * allocation counters (runtime/pto_ring_buffer.h task_head, heap_top). Not
 * task_window_start, heap_start, dep_pool_start: retirement frontiers. Not
 * dep_pool_end: wire_fanin_task (runtime/pto_orchestrator.cpp) takes a
 * dep-pool entry only for a producer not yet COMPLETED. Not tensormap: the
 * TensorMap frees a retired producer's entries lazily, when last_task_alive
 * advances (runtime/pto_tensormap.h cleanup_retired). Their peaks are printed
 * side by side as information. Known weakness: heap_end and created
 * addresses also depend on retirement when a ring wraps or rebases an empty
 * ring to 0 (pto_ring_buffer.h try_bump_heap); they are compared anyway, as
 * a model that gets those right must also reproduce the timing that led there.
 *
 * chip_swimlane_records.json: its schema (top-level keys in order, metadata
 * keys in order, the arity of aicore_tasks and aicpu_tasks rows, the number
 * of per-thread phase arrays, the key set of each phase kind seen on both
 * sides), chip_swimlane_level, metadata.num_cores, core_types and
 * core_to_thread. Never times, nor which phase kinds occur (a resolve is
 * recorded only for walks of RESOLVE_EMIT_MIN_CYCLES or more,
 * runtime/scheduler/scheduler_completion.cpp; a drain only when a sync-start
 * drain happens), nor clock_freq_hz (the unit of times).
 */

/* Prints one difference line (the first CONFORM_MAX_LINES of a file) and counts it. */
/* The text fmt formats, escaped for a terminal (msgtext_escape: the files' names and values are the
 * capture's); malloc'd, NULL when out of memory. */
static char *escaped_text(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
static char *escaped_text(const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    char *text = n < 0 ? NULL : malloc((size_t)n + 1), *out = text ? malloc(4 * (size_t)n + 1) : NULL;
    if (out) {
        vsnprintf(text, (size_t)n + 1, fmt, again);
        msgtext_escape(out, 4 * (size_t)n + 1, text);
    }
    va_end(again);
    free(text);
    return out;
}

void cf_diff(cf_file *f, const char *fmt, ...)
{
    if (f->diffs++ >= CONFORM_MAX_LINES)
        return;
    va_list ap;
    va_start(ap, fmt);
    char *text = escaped_text(fmt, ap);
    va_end(ap);
    if (!text) {
        f->oom = true;
        return;
    }
    if (f->held) { /* "NAME: " + the line + "\n", kept until the lines before it are known */
        size_t pre = strlen(f->name) + 2, n = strlen(text);
        char *line = malloc(pre + n + 2);
        if (!line) {
            free(text);
            f->oom = true;
            return;
        }
        snprintf(line, pre + n + 2, "%s: %s\n", f->name, text);
        f->held[f->diffs - 1] = line;
    } else {
        fprintf(f->out, "%s: %s\n", f->name, text);
    }
    free(text);
}

/* Prints an information line: something shown, not compared. */
void cf_info(cf_file *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *text = escaped_text(fmt, ap);
    va_end(ap);
    if (!text) {
        f->oom = true;
        return;
    }
    fprintf(f->out, "%s: (not compared) %s\n", f->name, text);
    free(text);
}

/* Says how many differences were not printed. */
static void more(const cf_file *f)
{
    if (f->diffs > CONFORM_MAX_LINES)
        fprintf(f->out, "%s: ... and %ld more differences\n", f->name, f->diffs - CONFORM_MAX_LINES);
}

int cf_fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* ---- values ---- */

/* Equal JSON values; absent (NULL) equals only absent. */
bool cf_same(const cJSON *a, const cJSON *b)
{
    if (!a || !b)
        return a == b;
    return cJSON_Compare(a, b, true);
}

/* Appends v to out[*len, n) as cJSON_PrintUnformatted writes it, for the values that need no floating-point
 * formatting (whole numbers in int range, strings, literals, containers of them): the edge lines of a large
 * capture print hundreds of thousands of shapes. False when v needs cJSON's printer or does not fit. */
static bool quick_print(const cJSON *v, char *out, size_t n, size_t *len)
{
    static const char HEX[] = "0123456789abcdef";
#define PUTC(c)                                                                                              \
    do {                                                                                                     \
        if (*len + 1 >= n)                                                                                   \
            return false;                                                                                    \
        out[(*len)++] = (c);                                                                                 \
    } while (0)
    if (cJSON_IsNumber(v)) {
        if (v->valuedouble != (double)v->valueint)
            return false;
        char d[16];
        int k = 0;
        long x = v->valueint;
        if (x < 0)
            PUTC('-');
        unsigned long u = x < 0 ? 0UL - (unsigned long)x : (unsigned long)x;
        do
            d[k++] = (char)('0' + u % 10);
        while ((u /= 10) != 0);
        while (k > 0)
            PUTC(d[--k]);
    } else if (cJSON_IsString(v)) {
        if (!v->valuestring)
            return false;
        PUTC('"');
        for (const unsigned char *p = (const unsigned char *)v->valuestring; *p; p++) {
            unsigned c = *p;
            const char *esc = c == '"'    ? "\\\""
                              : c == '\\' ? "\\\\"
                              : c == '\b' ? "\\b"
                              : c == '\f' ? "\\f"
                              : c == '\n' ? "\\n"
                              : c == '\r' ? "\\r"
                              : c == '\t' ? "\\t"
                                          : NULL;
            if (esc) {
                PUTC(esc[0]);
                PUTC(esc[1]);
            } else if (c < 32) {
                PUTC('\\');
                PUTC('u');
                PUTC('0');
                PUTC('0');
                PUTC(HEX[c >> 4]);
                PUTC(HEX[c & 15]);
            } else {
                PUTC((char)c);
            }
        }
        PUTC('"');
    } else if (cJSON_IsArray(v) || cJSON_IsObject(v)) {
        bool obj = cJSON_IsObject(v);
        PUTC(obj ? '{' : '[');
        for (const cJSON *c = v->child; c; c = c->next) {
            if (c != v->child)
                PUTC(',');
            if (obj) {
                cJSON key = {0};
                key.type = cJSON_String;
                key.valuestring = c->string;
                if (!c->string || !quick_print(&key, out, n, len))
                    return false;
                PUTC(':');
            }
            if (!quick_print(c, out, n, len))
                return false;
        }
        PUTC(obj ? '}' : ']');
    } else {
        const char *lit = cJSON_IsTrue(v)    ? "true"
                          : cJSON_IsFalse(v) ? "false"
                          : cJSON_IsNull(v)  ? "null"
                                             : NULL;
        if (!lit)
            return false;
        for (; *lit; lit++)
            PUTC(*lit);
    }
#undef PUTC
    out[*len] = '\0';
    return true;
}

/* v as compact JSON into buf ("-" when absent, "..." when cut). Returns buf. */
const char *cf_jtext(const cJSON *v, char *buf, size_t n)
{
    if (!v) {
        snprintf(buf, n, "-");
        return buf;
    }
    char quick[1024];
    size_t qlen = 0;
    if (quick_print(v, quick, sizeof(quick), &qlen)) {
        if (qlen >= n && n > 4) {
            snprintf(buf, n, "%.*s...", (int)(n - 4), quick);
        } else if (n > 0) {
            size_t k = qlen < n ? qlen : n - 1;
            memcpy(buf, quick, k);
            buf[k] = '\0';
        }
        return buf;
    }
    char *s = cJSON_PrintUnformatted(v);
    if (!s) {
        snprintf(buf, n, "?");
        return buf;
    }
    if (strlen(s) >= n && n > 4)
        snprintf(buf, n, "%.*s...", (int)(n - 4), s);
    else
        snprintf(buf, n, "%s", s);
    free(s);
    return buf;
}

/* Like cf_jtext, but a string shows without quotes. */
const char *cf_jraw(const cJSON *v, char *buf, size_t n)
{
    if (cJSON_IsString(v)) {
        snprintf(buf, n, "%s", v->valuestring);
        return buf;
    }
    return cf_jtext(v, buf, n);
}

/* An unsigned 64-bit value written as a decimal string (or a whole number). */
bool cf_get_u64(const cJSON *v, uint64_t *out)
{
    if (cJSON_IsNumber(v) && v->valuedouble >= 0 && v->valuedouble < 18446744073709551616.0 &&
        v->valuedouble == (double)(uint64_t)v->valuedouble) {
        *out = (uint64_t)v->valuedouble;
        return true;
    }
    return cJSON_IsString(v) && jspan_u64_text(v->valuestring, out);
}

/* Appends s to buf[*len, cap) as snprintf(buf + *len, ...) would (cut to fit, NUL-terminated) and adds its
 * whole length to *len, so that a cut line ends as the snprintf chain it replaces ended it. */
void cf_cat(char *buf, size_t *len, size_t cap, const char *s)
{
    size_t l = strlen(s);
    if (*len < cap) {
        size_t k = l < cap - *len - 1 ? l : cap - *len - 1;
        memcpy(buf + *len, s, k);
        buf[*len + k] = '\0';
    }
    *len += l;
}

/* prefix then x in decimal into buf (n > 24 bytes). */
static void put_dec(char *buf, const char *prefix, uint64_t x)
{
    char d[24];
    int k = 0;
    do
        d[k++] = (char)('0' + x % 10);
    while ((x /= 10) != 0);
    size_t p = strlen(prefix);
    memcpy(buf, prefix, p);
    while (k > 0)
        buf[p++] = d[--k];
    buf[p] = '\0';
}

static const char *id_label(uint64_t id, char *buf, size_t n);

/* A task id as the swimlane converter shows it: t<local> on ring 0, r<ring>t<local> otherwise. */
static const char *task_label(const cJSON *v, char *buf, size_t n)
{
    uint64_t id;
    if (!cf_get_u64(v, &id))
        return cf_jtext(v, buf, n);
    return id_label(id, buf, n);
}

/* A task id's label (task_label). */
static const char *id_label(uint64_t id, char *buf, size_t n)
{
    unsigned ring = (unsigned)((id >> 32) & 0xFF), local = (unsigned)(id & 0xFFFFFFFFu);
    char a[32], b[32];
    put_dec(b, "t", local);
    if (ring) {
        put_dec(a, "r", ring);
        snprintf(buf, n, "%s%s", a, b);
    } else {
        snprintf(buf, n, "%s", b);
    }
    return buf;
}

/* Compares the values va and vb of key, one difference line prefixed by where. */
void cf_cmp_vals(cf_file *f, const char *where, const char *key, const cJSON *va, const cJSON *vb)
{
    if (cf_same(va, vb))
        return;
    char ta[CF_VALUE_MAX], tb[CF_VALUE_MAX];
    cf_diff(f, "%s%s%s: real %s, ptosim %s", where, *where ? " " : "", key, cf_jtext(va, ta, sizeof(ta)),
            cf_jtext(vb, tb, sizeof(tb)));
}

/* Compares obj_a[key] with obj_b[key], one difference line prefixed by where. */
void cf_cmp_key(cf_file *f, const char *where, const cJSON *a, const cJSON *b, const char *key)
{
    cf_cmp_vals(f, where, key, cJSON_GetObjectItemCaseSensitive(a, key),
                cJSON_GetObjectItemCaseSensitive(b, key));
}

/* ---- deps.json ---- */

/* The key of tensor_id values: a string as it is, anything else as JSON text. */
static const char *id_key(const cJSON *v, char *buf, size_t n)
{
    return cJSON_IsString(v) ? v->valuestring : cf_jtext(v, buf, n);
}

/* Numbers every distinct tensor_id in order of first appearance: tasks[].args, edges, tensors[]. */
static int number_tensors(const cJSON *d, strtab *t)
{
    static const char *const LISTS[] = {"tasks", "edges", "tensors"};
    char buf[CF_VALUE_MAX];
    for (int l = 0; l < 3; l++) {
        const cJSON *e;
        cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(d, LISTS[l]))
        {
            if (l == 0) {
                const cJSON *g;
                cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(e, "args"))
                {
                    const cJSON *id = cJSON_GetObjectItemCaseSensitive(g, "tensor_id");
                    if (id && strtab_intern(t, id_key(id, buf, sizeof(buf))) < 0)
                        return -1;
                }
            } else {
                const cJSON *id = cJSON_GetObjectItemCaseSensitive(e, "tensor_id");
                if (id && strtab_intern(t, id_key(id, buf, sizeof(buf))) < 0)
                    return -1;
            }
        }
    }
    return 0;
}

/* "T<k>" (k < 0: the id is not numbered). */
static void tensor_label(int k, char *buf, size_t n)
{
    char d[32];
    if (k >= 0)
        put_dec(d, "T", (uint64_t)k);
    else
        snprintf(d, sizeof(d), "T%d", k);
    snprintf(buf, n, "%s", d);
}

/* "T<n>" of a tensor_id value, "-" when absent. */
static const char *tensor_name(const strtab *t, const cJSON *id, char *buf, size_t n)
{
    char kb[CF_VALUE_MAX];
    if (!id) {
        snprintf(buf, n, "-");
    } else {
        tensor_label(strtab_find(t, id_key(id, kb, sizeof(kb))), buf, n);
    }
    return buf;
}

static const char *const TASK_KEYS[] = {"task_id", "scope", "early_dispatch", "kernel_ids", "block_num"};
static const char *const ARG_KEYS[] = {"idx", "type", "dtype", "shape", "start_offset", "strides"};

/* Compares tasks[i] of both sides (checked by check_deps), tensors by the numbering in rt and st. */
/* The T<n> number of a tensor_id value, -1 when absent. */
static int tensor_no(const strtab *t, const cJSON *id)
{
    char kb[CF_VALUE_MAX];
    return id ? strtab_find(t, id_key(id, kb, sizeof(kb))) : -1;
}

/* Would cmp_task find nothing? (Without building the place names it prints: most tasks are equal.) */
static bool task_same(const cJSON *r, const cJSON *s, const strtab *rt, const strtab *st)
{
    for (size_t k = 0; k < sizeof(TASK_KEYS) / sizeof(TASK_KEYS[0]); k++)
        if (!cf_same(cJSON_GetObjectItemCaseSensitive(r, TASK_KEYS[k]),
                     cJSON_GetObjectItemCaseSensitive(s, TASK_KEYS[k])))
            return false;
    const cJSON *rg = cJSON_GetObjectItemCaseSensitive(r, "args"),
                *sg = cJSON_GetObjectItemCaseSensitive(s, "args");
    if (cJSON_GetArraySize(rg) != cJSON_GetArraySize(sg))
        return false;
    for (const cJSON *x = rg->child, *y = sg->child; x && y; x = x->next, y = y->next) {
        for (size_t q = 0; q < sizeof(ARG_KEYS) / sizeof(ARG_KEYS[0]); q++)
            if (!cf_same(cJSON_GetObjectItemCaseSensitive(x, ARG_KEYS[q]),
                         cJSON_GetObjectItemCaseSensitive(y, ARG_KEYS[q])))
                return false;
        if (tensor_no(rt, cJSON_GetObjectItemCaseSensitive(x, "tensor_id")) !=
            tensor_no(st, cJSON_GetObjectItemCaseSensitive(y, "tensor_id")))
            return false;
    }
    return true;
}

static void cmp_task(cf_file *f, int i, const cJSON *r, const cJSON *s, const strtab *rt, const strtab *st)
{
    if (task_same(r, s, rt, st))
        return;
    {
        char lab[CF_VALUE_MAX], where[CF_VALUE_MAX + 32];
        snprintf(where, sizeof(where), "tasks[%d] %s", i,
                 task_label(cJSON_GetObjectItemCaseSensitive(r, "task_id"), lab, sizeof(lab)));
        for (size_t k = 0; k < sizeof(TASK_KEYS) / sizeof(TASK_KEYS[0]); k++)
            cf_cmp_key(f, where, r, s, TASK_KEYS[k]);
        const cJSON *rg = cJSON_GetObjectItemCaseSensitive(r, "args"),
                    *sg = cJSON_GetObjectItemCaseSensitive(s, "args");
        int rgn = cJSON_GetArraySize(rg), sgn = cJSON_GetArraySize(sg);
        if (rgn != sgn)
            cf_diff(f, "%s args: real %d, ptosim %d", where, rgn, sgn);
        const cJSON *x = rg->child, *y = sg->child;
        for (int k = 0; x && y; k++, x = x->next, y = y->next) {
            char aw[sizeof(where) + 32];
            snprintf(aw, sizeof(aw), "%s args[%d]", where, k);
            for (size_t q = 0; q < sizeof(ARG_KEYS) / sizeof(ARG_KEYS[0]); q++)
                cf_cmp_key(f, aw, x, y, ARG_KEYS[q]);
            char ta[32], tb[32];
            tensor_name(rt, cJSON_GetObjectItemCaseSensitive(x, "tensor_id"), ta, sizeof(ta));
            tensor_name(st, cJSON_GetObjectItemCaseSensitive(y, "tensor_id"), tb, sizeof(tb));
            if (strcmp(ta, tb) != 0)
                cf_diff(f, "%s tensor: real %s, ptosim %s", aw, ta, tb);
        }
    }
}

static void cmp_tasks(cf_file *f, const cJSON *rd, const cJSON *sd, const strtab *rt, const strtab *st)
{
    const cJSON *ra = cJSON_GetObjectItemCaseSensitive(rd, "tasks"),
                *sa = cJSON_GetObjectItemCaseSensitive(sd, "tasks");
    int rn = cJSON_GetArraySize(ra), sn = cJSON_GetArraySize(sa);
    if (rn != sn)
        cf_diff(f, "tasks: real %d, ptosim %d", rn, sn);
    const cJSON *r = ra->child, *s = sa->child;
    for (int i = 0; r && s; i++, r = r->next, s = s->next)
        cmp_task(f, i, r, s, rt, st);
}

/* The fields of an edge line, in its order, and how each is shown. */
enum { PRED, SUCC, ARG, SOURCE, FLAGS, OVERLAP, TID, CDT, CSH, COFF, CSTR, PSH, POFF, PSTR, EDGE_NKEYS };
static const char *const EDGE_KEYS[EDGE_NKEYS] = {"pred",
                                                  "succ",
                                                  "arg",
                                                  "source",
                                                  "flags",
                                                  "overlap",
                                                  "tensor_id",
                                                  "consumer_dtype",
                                                  "consumer_shape",
                                                  "consumer_start_offset",
                                                  "consumer_strides",
                                                  "producer_shape",
                                                  "producer_start_offset",
                                                  "producer_strides"};
enum { SHOW_LABEL, SHOW_TEXT, SHOW_RAW, SHOW_TENSOR }; /* task_label, cf_jtext, cf_jraw, tensor_name */
static const int EDGE_SHOW[EDGE_NKEYS] = {SHOW_LABEL, SHOW_LABEL, SHOW_TEXT, SHOW_RAW,  SHOW_TEXT,
                                          SHOW_RAW,   SHOW_TENSOR, SHOW_RAW, SHOW_TEXT, SHOW_RAW,
                                          SHOW_TEXT,  SHOW_TEXT,  SHOW_RAW,  SHOW_TEXT};

/* An edge's fields as its line shows them ("-" when absent), and which are present. */
typedef struct cf_edge_texts {
    char v[EDGE_NKEYS][CF_VALUE_MAX];
    bool have[EDGE_NKEYS];
} cf_edge_texts;

/* The texts of edge e (a tree). */
static void edge_texts_tree(const cJSON *e, const strtab *t, cf_edge_texts *x)
{
    /* each key's first member, as cJSON_GetObjectItemCaseSensitive finds it, in one walk */
    const cJSON *f[EDGE_NKEYS] = {NULL};
    for (const cJSON *c = e->child; c; c = c->next)
        for (int k = 0; c->string && k < EDGE_NKEYS; k++)
            if (!f[k] && c->string[0] == EDGE_KEYS[k][0] && strcmp(c->string, EDGE_KEYS[k]) == 0) {
                f[k] = c;
                break;
            }
    for (int k = 0; k < EDGE_NKEYS; k++) {
        x->have[k] = f[k] != NULL;
        char *v = x->v[k];
        switch (EDGE_SHOW[k]) {
        case SHOW_LABEL:
            task_label(f[k], v, CF_VALUE_MAX);
            break;
        case SHOW_TEXT:
            cf_jtext(f[k], v, CF_VALUE_MAX);
            break;
        case SHOW_RAW:
            cf_jraw(f[k], v, CF_VALUE_MAX);
            break;
        default:
            tensor_name(t, f[k], v, CF_VALUE_MAX);
            break;
        }
    }
}

/* One edge as a line: every compared field, the tensor as T<n>; the overlap, the tensor, the consumer view
 * and the producer view only when the edge has some field of them (an absent one inside shows as "-").
 * The line is also the sort key. Returns a malloc'd string, NULL when out of memory. */
static char *edge_line_of(const cf_edge_texts *x)
{
    char line[16 * CF_VALUE_MAX];
    size_t n = 0, cap = sizeof(line);
    line[0] = '\0';
    cf_cat(line, &n, cap, x->v[PRED]);
    cf_cat(line, &n, cap, " -> ");
    cf_cat(line, &n, cap, x->v[SUCC]);
    cf_cat(line, &n, cap, " arg ");
    cf_cat(line, &n, cap, x->v[ARG]);
    cf_cat(line, &n, cap, " ");
    cf_cat(line, &n, cap, x->v[SOURCE]);
    cf_cat(line, &n, cap, " ");
    cf_cat(line, &n, cap, x->v[FLAGS]);
    if (x->have[OVERLAP]) {
        cf_cat(line, &n, cap, " overlap ");
        cf_cat(line, &n, cap, x->v[OVERLAP]);
    }
    if (x->have[TID]) {
        cf_cat(line, &n, cap, " ");
        cf_cat(line, &n, cap, x->v[TID]);
    }
    if (x->have[CDT] || x->have[CSH] || x->have[COFF] || x->have[CSTR]) {
        cf_cat(line, &n, cap, " consumer ");
        cf_cat(line, &n, cap, x->v[CDT]);
        cf_cat(line, &n, cap, " ");
        cf_cat(line, &n, cap, x->v[CSH]);
        cf_cat(line, &n, cap, " off ");
        cf_cat(line, &n, cap, x->v[COFF]);
        cf_cat(line, &n, cap, " strides ");
        cf_cat(line, &n, cap, x->v[CSTR]);
    }
    if (x->have[PSH] || x->have[POFF] || x->have[PSTR]) {
        cf_cat(line, &n, cap, " producer ");
        cf_cat(line, &n, cap, x->v[PSH]);
        cf_cat(line, &n, cap, " off ");
        cf_cat(line, &n, cap, x->v[POFF]);
        cf_cat(line, &n, cap, " strides ");
        cf_cat(line, &n, cap, x->v[PSTR]);
    }
    return strdup(line);
}

static char *edge_line(const cJSON *e, const strtab *t)
{
    cf_edge_texts x;
    edge_texts_tree(e, t, &x);
    return edge_line_of(&x);
}

/* ---- the streamed comparison's spans (sim/json/json_span.h): the same texts as the trees give, or false ---- */

/* A span as cf_jtext shows it. */
static bool span_text(jspan v, char *buf)
{
    if (!v.p) {
        snprintf(buf, CF_VALUE_MAX, "-");
        return true;
    }
    return jspan_compact(v, buf, CF_VALUE_MAX);
}

/* A span as cf_jraw shows it. */
static bool span_raw(jspan v, char *buf)
{
    if (v.p && v.p[0] == '"')
        return jspan_string(v, buf, CF_VALUE_MAX);
    return span_text(v, buf);
}

/* A span as task_label shows it. */
static bool span_label(jspan v, char *buf)
{
    char s[CF_VALUE_MAX];
    uint64_t id = 0;
    if (!v.p) {
        snprintf(buf, CF_VALUE_MAX, "-");
        return true;
    }
    if (v.p[0] == '"') {
        if (!jspan_string(v, s, sizeof(s)) || !jspan_u64_text(s, &id))
            return false;
    } else {
        if (!jspan_compact(v, s, sizeof(s)))
            return false;
        for (const char *q = s; *q; q++) { /* at most 9 digits: a whole double */
            if (*q < '0' || *q > '9')
                return false;
            id = id * 10 + (uint64_t)(*q - '0');
        }
    }
    id_label(id, buf, CF_VALUE_MAX);
    return true;
}

/* The id key of a tensor_id span that is a plain string (id_key), into buf; false for any other. */
static bool span_id(jspan v, char *buf)
{
    return jspan_string(v, buf, CF_VALUE_MAX);
}

/* The texts of an edge from its members' spans (numbered in t already); false when the tree must say. */
static bool edge_texts_spans(const jspan *f, const strtab *t, cf_edge_texts *x)
{
    for (int k = 0; k < EDGE_NKEYS; k++) {
        x->have[k] = f[k].p != NULL;
        char *v = x->v[k], id[CF_VALUE_MAX];
        bool ok;
        switch (EDGE_SHOW[k]) {
        case SHOW_LABEL:
            ok = span_label(f[k], v);
            break;
        case SHOW_TEXT:
            ok = span_text(f[k], v);
            break;
        case SHOW_RAW:
            ok = span_raw(f[k], v);
            break;
        default:
            if ((ok = !f[k].p))
                snprintf(v, CF_VALUE_MAX, "-");
            else if ((ok = span_id(f[k], id)))
                tensor_label(strtab_find(t, id), v, CF_VALUE_MAX);
            break;
        }
        if (!ok)
            return false;
    }
    return true;
}

#define CF_FAST_ARGS 64 /* args of a task the spans compare; a task with more goes to the trees */
enum { A_IDX, A_TYPE, A_DTYPE, A_SHAPE, A_OFF, A_STRIDES, A_TID, ARG_NSPANS };
static const char *const ARG_SPAN_KEYS[ARG_NSPANS] = {"idx", "type", "dtype", "shape", "start_offset",
                                                      "strides", "tensor_id"};
#define TASK_NSPANS 6 /* TASK_KEYS, then "args" */

/* A task element as spans: its TASK_KEYS and args, each arg's ARG_SPAN_KEYS and its id key. */
typedef struct cf_task_spans {
    jspan f[TASK_NSPANS];
    int nargs;
    jspan arg[CF_FAST_ARGS][ARG_NSPANS];
    char id[CF_FAST_ARGS][CF_VALUE_MAX]; /* the arg's id key, "" when it has no tensor_id */
} cf_task_spans;

/* Reads a task element's spans; false when the trees must compare it. */
static bool task_spans(const char *text, size_t len, cf_task_spans *x)
{
    static const char *const KEYS[TASK_NSPANS] = {"task_id", "scope", "early_dispatch", "kernel_ids",
                                                  "block_num", "args"};
    if (!jspan_members(text, len, KEYS, TASK_NSPANS, x->f) || !x->f[5].p || x->f[5].p[0] != '[')
        return false;
    x->nargs = 0;
    const char *at = x->f[5].p;
    jspan a;
    while (jspan_next(x->f[5], &at, &a)) {
        if (x->nargs == CF_FAST_ARGS || !jspan_members(a.p, a.n, ARG_SPAN_KEYS, ARG_NSPANS, x->arg[x->nargs]))
            return false;
        jspan id = x->arg[x->nargs][A_TID];
        if (id.p && !span_id(id, x->id[x->nargs]))
            return false;
        if (!id.p)
            x->id[x->nargs][0] = '\0';
        x->nargs++;
    }
    return true;
}

/* Numbers a task's tensor ids in t as number_elem does. */
static int number_spans(const cf_task_spans *x, strtab *t)
{
    for (int k = 0; k < x->nargs; k++)
        if (x->arg[k][A_TID].p && strtab_intern(t, x->id[k]) < 0)
            return -1;
    return 0;
}

/* task_same on spans: true when the tasks are the same (their ids numbered); false when they may differ. */
static bool task_same_spans(const cf_task_spans *r, const cf_task_spans *s, const strtab *rt, const strtab *st)
{
    for (int k = 0; k < TASK_NSPANS - 1; k++)
        if (!jspan_same_text(r->f[k], s->f[k]))
            return false;
    if (r->nargs != s->nargs)
        return false;
    for (int a = 0; a < r->nargs; a++) {
        for (int q = 0; q < A_TID; q++)
            if (!jspan_same_text(r->arg[a][q], s->arg[a][q]))
                return false;
        int x = r->arg[a][A_TID].p ? strtab_find(rt, r->id[a]) : -1,
            y = s->arg[a][A_TID].p ? strtab_find(st, s->id[a]) : -1;
        if (x != y)
            return false;
    }
    return true;
}

int cf_cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The edges of d as sorted lines; NULL when out of memory. */
static char **edge_lines(const cJSON *d, const strtab *t, size_t *n)
{
    const cJSON *edges = cJSON_GetObjectItemCaseSensitive(d, "edges"), *e;
    *n = (size_t)cJSON_GetArraySize(edges);
    char **v = calloc(*n ? *n : 1, sizeof(*v));
    size_t i = 0;
    cJSON_ArrayForEach(e, edges)
    {
        if (!v || !(v[i++] = edge_line(e, t))) {
            for (size_t k = 0; v && k < i; k++)
                free(v[k]);
            free(v);
            return NULL;
        }
    }
    qsort(v, *n, sizeof(*v), cf_cmp_str);
    return v;
}

/* The edge multisets: a sorted merge; what is left on one side is an edge only there. */
static int cmp_edges(cf_file *f, const cJSON *rd, const cJSON *sd, const strtab *rt, const strtab *st)
{
    size_t rn, sn;
    char **r = edge_lines(rd, rt, &rn), **s = r ? edge_lines(sd, st, &sn) : NULL;
    if (!s) {
        for (size_t i = 0; r && i < rn; i++)
            free(r[i]);
        free(r);
        return -1;
    }
    if (rn != sn)
        cf_diff(f, "edges: real %zu, ptosim %zu", rn, sn);
    size_t i = 0, j = 0;
    while (i < rn || j < sn) {
        int c = i == rn ? 1 : j == sn ? -1 : strcmp(r[i], s[j]);
        if (c == 0) {
            i++;
            j++;
        } else if (c < 0) {
            cf_diff(f, "edge only in real: %s", r[i++]);
        } else {
            cf_diff(f, "edge only in ptosim: %s", s[j++]);
        }
    }
    for (i = 0; i < rn; i++)
        free(r[i]);
    for (j = 0; j < sn; j++)
        free(s[j]);
    free(r);
    free(s);
    return 0;
}

static const char *const TENSOR_KEYS[] = {"version", "dtype", "buffer_numel"};

/* The real arena base the first runtime-created tensor gives, for the tensors after it. */
typedef struct cf_base {
    bool have;     /* a runtime-created tensor was seen */
    uint64_t real; /* real address of ptosim's arena offset 0 */
    int from;      /* the index of the tensor that gave it */
} cf_base;

/* Compares tensors[i] of both sides (checked by check_deps). */
static void cmp_tensor(cf_file *f, int i, const cJSON *r, const cJSON *s, const strtab *rt, const strtab *st,
                       const cf_arena *arena, cf_base *b)
{
    {
        char where[64], ta[32], tb[32], va[CF_VALUE_MAX], vb[CF_VALUE_MAX];
        snprintf(where, sizeof(where), "tensors[%d]", i);
        tensor_name(rt, cJSON_GetObjectItemCaseSensitive(r, "tensor_id"), ta, sizeof(ta));
        tensor_name(st, cJSON_GetObjectItemCaseSensitive(s, "tensor_id"), tb, sizeof(tb));
        if (strcmp(ta, tb) != 0)
            cf_diff(f, "%s tensor: real %s, ptosim %s", where, ta, tb);
        for (size_t k = 0; k < sizeof(TENSOR_KEYS) / sizeof(TENSOR_KEYS[0]); k++)
            cf_cmp_key(f, where, r, s, TENSOR_KEYS[k]);
        const cJSON *rv = cJSON_GetObjectItemCaseSensitive(r, "buffer_addr"),
                    *sv = cJSON_GetObjectItemCaseSensitive(s, "buffer_addr");
        uint64_t ra64, sa64;
        if (!cf_get_u64(rv, &ra64) || !cf_get_u64(sv, &sa64)) {
            if (!cf_same(rv, sv))
                cf_diff(f, "%s buffer_addr: real %s, ptosim %s (not both decimal u64)", where,
                        cf_jtext(rv, va, sizeof(va)), cf_jtext(sv, vb, sizeof(vb)));
            return;
        }
        if (sa64 < arena->base || sa64 - arena->base >= arena->size) {
            if (ra64 != sa64)
                cf_diff(f, "%s buffer_addr: real %" PRIu64 ", ptosim %" PRIu64 " (external: must be equal)",
                        where, ra64, sa64);
            return;
        }
        uint64_t off = sa64 - arena->base;
        if (!b->have) {
            b->have = true;
            b->real = ra64 - off;
            b->from = i;
        } else if (ra64 - off != b->real) {
            cf_diff(f,
                    "%s buffer_addr: heap offset real 0x%" PRIx64 ", ptosim 0x%" PRIx64
                    " (offsets from the real heap base 0x%" PRIx64 " that tensors[%d] gives)",
                    where, ra64 - b->real, off, b->real, b->from);
        }
    }
}

static void cmp_tensors(cf_file *f, const cJSON *rd, const cJSON *sd, const strtab *rt, const strtab *st,
                        const cf_arena *arena)
{
    const cJSON *ra = cJSON_GetObjectItemCaseSensitive(rd, "tensors"),
                *sa = cJSON_GetObjectItemCaseSensitive(sd, "tensors");
    int rn = cJSON_GetArraySize(ra), sn = cJSON_GetArraySize(sa);
    if (rn != sn)
        cf_diff(f, "tensors: real %d, ptosim %d", rn, sn);
    cf_base b = {false, 0, -1};
    const cJSON *r = ra->child, *s = sa->child;
    for (int i = 0; r && s; i++, r = r->next, s = s->next)
        cmp_tensor(f, i, r, s, rt, st, arena, &b);
}

int cf_cmp_deps(cf_file *f, const cJSON *rd, const cJSON *sd, const cf_arena *arena)
{
    strtab rt, st;
    strtab_init(&rt);
    strtab_init(&st);
    int rc = -1;
    if (number_tensors(rd, &rt) != 0 || number_tensors(sd, &st) != 0)
        goto out;
    if (rt.count != st.count)
        cf_diff(f, "distinct tensor ids: real %zu, ptosim %zu", rt.count, st.count);
    cmp_tasks(f, rd, sd, &rt, &st);
    if (cmp_edges(f, rd, sd, &rt, &st) != 0)
        goto out;
    cmp_tensors(f, rd, sd, &rt, &st, arena);
    rc = 0;
out:
    strtab_free(&rt);
    strtab_free(&st);
    return rc;
}

/* ---- scope_stats.jsonl ---- */

static const char *const HEADER_KEYS[] = {"version",         "fatal",    "dropped",      "total",
                                          "task_window_max", "heap_max", "dep_pool_max", "tensormap_max"};
static const char *const RECORD_KEYS[] = {"site", "phase", "depth", "ring", "task_window_end", "heap_end"};

/* Peaks of what is not compared: per ring the most live task slots, heap bytes and dep-pool entries
 * (end - start) at any sample, and the most TensorMap entries in use. */
typedef struct cf_peaks {
    bool seen[CF_RING_COUNT];          /* the ring has a record */
    double task_window[CF_RING_COUNT]; /* task slots */
    double heap[CF_RING_COUNT];        /* heap bytes */
    double dep_pool[CF_RING_COUNT];    /* dep-pool entries */
    double tensormap;                  /* TensorMap entries (one global pool) */
} cf_peaks;

static double live(const cJSON *rec, const char *start, const char *end)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(rec, start),
                *b = cJSON_GetObjectItemCaseSensitive(rec, end);
    return cJSON_IsNumber(a) && cJSON_IsNumber(b) ? b->valuedouble - a->valuedouble : 0;
}

/* Adds one record to the peaks. */
static void peaks_add(cf_peaks *p, const cJSON *rec)
{
    {
        const cJSON *ring = cJSON_GetObjectItemCaseSensitive(rec, "ring"),
                    *tm = cJSON_GetObjectItemCaseSensitive(rec, "tensormap");
        if (cJSON_IsNumber(tm) && tm->valuedouble > p->tensormap)
            p->tensormap = tm->valuedouble;
        if (!cJSON_IsNumber(ring) || ring->valueint < 0 || ring->valueint >= CF_RING_COUNT)
            return;
        int r = ring->valueint;
        double tw = live(rec, "task_window_start", "task_window_end"),
               hp = live(rec, "heap_start", "heap_end"), dp = live(rec, "dep_pool_start", "dep_pool_end");
        p->seen[r] = true;
        if (tw > p->task_window[r])
            p->task_window[r] = tw;
        if (hp > p->heap[r])
            p->heap[r] = hp;
        if (dp > p->dep_pool[r])
            p->dep_pool[r] = dp;
    }
}

static void peaks_of(const cf_lines *l, cf_peaks *p)
{
    memset(p, 0, sizeof(*p));
    for (size_t i = 1; i < l->n; i++)
        peaks_add(p, l->v[i]);
}

/* Compares one record (at line lineno of the real file) of both sides. */
static void cmp_record(cf_file *f, int lineno, const cJSON *rec, const cJSON *srec)
{
    size_t k = 0; /* most records are equal: their place is named only when one is not */
    while (k < sizeof(RECORD_KEYS) / sizeof(RECORD_KEYS[0]) &&
           cf_same(cJSON_GetObjectItemCaseSensitive(rec, RECORD_KEYS[k]),
                   cJSON_GetObjectItemCaseSensitive(srec, RECORD_KEYS[k])))
        k++;
    if (k == sizeof(RECORD_KEYS) / sizeof(RECORD_KEYS[0]))
        return;
    char where[CF_VALUE_MAX + 64], site[CF_VALUE_MAX], phase[32], ring[32];
    snprintf(where, sizeof(where), "line %d (%s %s, ring %s)", lineno,
             cf_jraw(cJSON_GetObjectItemCaseSensitive(rec, "site"), site, sizeof(site)),
             cf_jraw(cJSON_GetObjectItemCaseSensitive(rec, "phase"), phase, sizeof(phase)),
             cf_jtext(cJSON_GetObjectItemCaseSensitive(rec, "ring"), ring, sizeof(ring)));
    for (size_t k = 0; k < sizeof(RECORD_KEYS) / sizeof(RECORD_KEYS[0]); k++)
        cf_cmp_key(f, where, rec, srec, RECORD_KEYS[k]);
}

/* The information lines of the peaks of both sides. */
static void print_peaks(cf_file *f, const cf_peaks *pr, const cf_peaks *ps)
{
    for (int g = 0; g < CF_RING_COUNT; g++)
        if (pr->seen[g] || ps->seen[g])
            cf_info(f,
                    "ring %d peak live: task_window real %.0f, ptosim %.0f; heap real %.0f, ptosim %.0f; "
                    "dep_pool real %.0f, ptosim %.0f",
                    g, pr->task_window[g], ps->task_window[g], pr->heap[g], ps->heap[g], pr->dep_pool[g],
                    ps->dep_pool[g]);
    cf_info(f, "tensormap peak: real %.0f, ptosim %.0f", pr->tensormap, ps->tensormap);
}

void cf_cmp_scope(cf_file *f, const cf_lines *r, const cf_lines *s)
{
    for (size_t k = 0; k < sizeof(HEADER_KEYS) / sizeof(HEADER_KEYS[0]); k++)
        cf_cmp_key(f, "header", r->v[0], s->v[0], HEADER_KEYS[k]);
    if (r->n != s->n)
        cf_diff(f, "records: real %zu, ptosim %zu", r->n - 1, s->n - 1);
    for (size_t i = 1; i < r->n && i < s->n; i++)
        cmp_record(f, r->lineno[i], r->v[i], s->v[i]);
    cf_peaks pr, ps;
    peaks_of(r, &pr);
    peaks_of(s, &ps);
    print_peaks(f, &pr, &ps);
}

/* ---- chip_swimlane_records.json ---- */

/* The keys of obj in order, comma-separated, into buf. */
static const char *key_list(const cJSON *obj, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    const cJSON *c;
    cJSON_ArrayForEach(c, obj)
    {
        int w = snprintf(buf + len, n - len, "%s%s", len ? "," : "", c->string ? c->string : "?");
        if (w < 0 || (size_t)w >= n - len)
            break;
        len += (size_t)w;
    }
    return buf;
}

/* The row lengths marked in seen, as "6" or "5,6" ("" for none), into buf. */
static void arity_text(const bool seen[64], char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int k = 0; k < 64; k++)
        if (seen[k])
            len += (size_t)snprintf(buf + len, n - len, "%s%d", len ? "," : "", k);
}

/* The distinct lengths of the rows of a list of arrays, as "6" or "5,6" ("" for no rows), into buf. */
static void arities(const cJSON *rows, char *buf, size_t n)
{
    bool seen[64] = {false};
    const cJSON *row;
    cJSON_ArrayForEach(row, rows)
    {
        int k = cJSON_GetArraySize(row);
        seen[k < 63 ? k : 63] = true;
    }
    arity_text(seen, buf, n);
}

/* A phase record as "kind{key,key,...}" (keys sorted; "-" when it has no kind, as orchestrator records). */
void cf_phase_item(const cJSON *rec, char *item, size_t size)
{
    const char *names[64];
    int n = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, rec)
    {
        if (n < 64)
            names[n++] = c->string ? c->string : "?";
    }
    qsort(names, (size_t)n, sizeof(names[0]), cf_cmp_str);
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(rec, "kind");
    size_t len = (size_t)snprintf(item, size, "%s{", cJSON_IsString(kind) ? kind->valuestring : "-");
    for (int i = 0; i < n && len < size; i++)
        len += (size_t)snprintf(item + len, size - len, "%s%s", i ? "," : "", names[i]);
    if (len < size)
        snprintf(item + len, size - len, "}");
}

/* The distinct phase items of a list of lanes, in t. Returns 0, or -1 when out of memory. */
static int kinds_of(const cJSON *phases, strtab *t)
{
    const cJSON *lane, *rec;
    cJSON_ArrayForEach(lane, phases)
    {
        cJSON_ArrayForEach(rec, lane)
        {
            char item[1024];
            cf_phase_item(rec, item, sizeof(item));
            if (strtab_intern(t, item) < 0)
                return -1;
        }
    }
    return 0;
}

/* Does the kind of item (the text before '{') occur among t's items? */
static bool has_kind(const strtab *t, const char *item)
{
    size_t n = strcspn(item, "{");
    for (size_t i = 0; i < t->count; i++)
        if (strncmp(t->keys[i], item, n) == 0 && t->keys[i][n] == '{')
            return true;
    return false;
}

/* Compares the lane counts and the phase items of one phase list of both sides. */
static void cmp_phase_items(cf_file *f, const char *list, int rlanes, int slanes, const strtab *r,
                            const strtab *s)
{
    if (rlanes != slanes)
        cf_diff(f, "%s: real %d lanes, ptosim %d", list, rlanes, slanes);
    for (size_t i = 0; i < r->count; i++) {
        const char *it = r->keys[i];
        if (strtab_find(s, it) >= 0)
            continue;
        if (has_kind(s, it))
            cf_diff(f, "%s: keys only in real: %s", list, it);
        else
            cf_info(f, "%s: kind %.*s recorded only in real", list, (int)strcspn(it, "{"), it);
    }
    for (size_t i = 0; i < s->count; i++) {
        const char *it = s->keys[i];
        if (strtab_find(r, it) >= 0)
            continue;
        if (has_kind(r, it))
            cf_diff(f, "%s: keys only in ptosim: %s", list, it);
        else
            cf_info(f, "%s: kind %.*s recorded only in ptosim", list, (int)strcspn(it, "{"), it);
    }
}

static int cmp_phase_keys(cf_file *f, const char *list, const cJSON *ra, const cJSON *sa)
{
    if (!ra || !sa)
        return 0; /* an absent list is a top-level key difference */
    strtab r, s;
    strtab_init(&r);
    strtab_init(&s);
    int rc = kinds_of(ra, &r) != 0 || kinds_of(sa, &s) != 0 ? -1 : 0;
    if (rc == 0)
        cmp_phase_items(f, list, cJSON_GetArraySize(ra), cJSON_GetArraySize(sa), &r, &s);
    strtab_free(&r);
    strtab_free(&s);
    return rc;
}

/* Compares two arrays of equal length element by element: how many differ, and the first. */
static void cmp_per_core(cf_file *f, const char *what, const cJSON *a, const cJSON *b)
{
    if (cf_same(a, b))
        return;
    char ta[CF_VALUE_MAX], tb[CF_VALUE_MAX];
    if (!cJSON_IsArray(a) || !cJSON_IsArray(b) || cJSON_GetArraySize(a) != cJSON_GetArraySize(b)) {
        cf_diff(f, "%s: real %s, ptosim %s", what, cf_jtext(a, ta, sizeof(ta)), cf_jtext(b, tb, sizeof(tb)));
        return;
    }
    int n = 0, first = -1, i = 0;
    for (const cJSON *x = a->child, *y = b->child; x && y; x = x->next, y = y->next, i++)
        if (!cf_same(x, y)) {
            n++;
            if (first < 0)
                first = i;
        }
    cf_diff(f, "%s: %d of %d cores differ; core %d: real %s, ptosim %s", what, n, i, first,
            cf_jtext(cJSON_GetArrayItem(a, first), ta, sizeof(ta)),
            cf_jtext(cJSON_GetArrayItem(b, first), tb, sizeof(tb)));
}

/* Compares two swimlane files (checked by check_swimlane). Returns 0, or -1 when out of memory. */
int cf_cmp_swimlane(cf_file *f, const cJSON *r, const cJSON *s)
{
    char ka[1024], kb[1024];
    if (strcmp(key_list(r, ka, sizeof(ka)), key_list(s, kb, sizeof(kb))) != 0)
        cf_diff(f, "top-level keys: real %s; ptosim %s", ka, kb);
    cf_cmp_key(f, "", r, s, "chip_swimlane_level");
    const cJSON *rm = cJSON_GetObjectItemCaseSensitive(r, "metadata"),
                *sm = cJSON_GetObjectItemCaseSensitive(s, "metadata");
    if (strcmp(key_list(rm, ka, sizeof(ka)), key_list(sm, kb, sizeof(kb))) != 0)
        cf_diff(f, "metadata keys: real %s; ptosim %s", ka, kb);
    cf_cmp_key(f, "metadata", rm, sm, "num_cores");
    cmp_per_core(f, "metadata.core_types", cJSON_GetObjectItemCaseSensitive(rm, "core_types"),
                 cJSON_GetObjectItemCaseSensitive(sm, "core_types"));
    cmp_per_core(f, "metadata.core_to_thread", cJSON_GetObjectItemCaseSensitive(rm, "core_to_thread"),
                 cJSON_GetObjectItemCaseSensitive(sm, "core_to_thread"));
    static const char *const ROWS[] = {"aicore_tasks", "aicpu_tasks"};
    for (int k = 0; k < 2; k++) {
        const cJSON *a = cJSON_GetObjectItemCaseSensitive(r, ROWS[k]),
                    *b = cJSON_GetObjectItemCaseSensitive(s, ROWS[k]);
        if (!a || !b)
            continue; /* a top-level key difference */
        arities(a, ka, sizeof(ka));
        arities(b, kb, sizeof(kb));
        if (*ka && *kb && strcmp(ka, kb) != 0) /* no rows on one side: nothing to compare */
            cf_diff(f, "%s rows: real %s values, ptosim %s", ROWS[k], ka, kb);
    }
    static const char *const PHASES[] = {"aicpu_scheduler_phases", "aicpu_orchestrator_phases"};
    for (int k = 0; k < 2; k++)
        if (cmp_phase_keys(f, PHASES[k], cJSON_GetObjectItemCaseSensitive(r, PHASES[k]),
                           cJSON_GetObjectItemCaseSensitive(s, PHASES[k])) != 0)
            return -1;
    return 0;
}

/* ---- the whole comparison ---- */

/* The last line of a comparison, the same for the streamed and the whole-file one: equal (with the
 * capture's counts: tasks, edges, tensors; scope records, -1 without scope stats; whether it has a swimlane)
 * or how many differences each file had. Returns the total. */
static long verdict(FILE *report, const char *real_dir, const cf_file *fd, const cf_file *fs, const cf_file *fw,
                    const long counts[3], long scope_records, bool swim)
{
    long total = fd->diffs + fs->diffs + fw->diffs;
    if (total == 0) {
        fprintf(report, "conform: %s: equal (deps.json: %ld tasks, %ld edges, %ld tensors", real_dir, counts[0],
                counts[1], counts[2]);
        if (scope_records >= 0)
            fprintf(report, "; scope_stats.jsonl: %ld records", scope_records);
        if (swim)
            fprintf(report, "; chip_swimlane_records.json: schema and core map");
        fputs(")\n", report);
    } else {
        fprintf(report,
                "conform: %s: %ld difference%s (deps.json %ld, scope_stats.jsonl %ld, "
                "chip_swimlane_records.json %ld)\n",
                real_dir, total, total == 1 ? "" : "s", fd->diffs, fs->diffs, fw->diffs);
    }
    return total;
}

/* conform_compare on cJSON trees of whole files: the reference for files the stream refuses, so that a
 * malformed file is named exactly as before (and a file cJSON reads but the stream does not is compared). */
static long compare_trees(const char *real_dir, const char *sim_dir, FILE *report, char *err, size_t errlen)
{
    cf_dfx r, s;
    long total = -1;
    int rl = cf_dfx_load(&r, real_dir, true, err, errlen);
    int sl = rl == 0 ? cf_dfx_load(&s, sim_dir, false, err, errlen) : -1;
    if (rl != 0 || sl != 0) {
        cf_dfx_free(&r);
        if (rl == 0)
            cf_dfx_free(&s);
        return -1;
    }
    cf_file fd = {report, "deps.json", 0, NULL, false}, fs = {report, "scope_stats.jsonl", 0, NULL, false},
            fw = {report, "chip_swimlane_records.json", 0, NULL, false};
    if (!s.deps) {
        cf_diff(&fd, "in the capture, not in ptosim's output");
    } else {
        cf_arena arena;
        cf_sim_arena(s.has_scope ? s.scope.v[0] : NULL, sim_dir, &arena, report);
        if (cf_cmp_deps(&fd, r.deps, s.deps, &arena) != 0) {
            cf_fail(err, errlen, "out of memory");
            goto out;
        }
    }
    more(&fd);
    if (!r.has_scope)
        cf_info(&fs, "not in the capture");
    else if (!s.has_scope)
        cf_diff(&fs, "in the capture, not in ptosim's output");
    else
        cf_cmp_scope(&fs, &r.scope, &s.scope);
    more(&fs);
    if (!r.swim)
        cf_info(&fw, "not in the capture");
    else if (!s.swim)
        cf_diff(&fw, "in the capture, not in ptosim's output");
    else if (cf_cmp_swimlane(&fw, r.swim, s.swim) != 0) {
        cf_fail(err, errlen, "out of memory");
        goto out;
    }
    more(&fw);
    total = verdict(report, real_dir, &fd, &fs, &fw,
                    (long[3]){cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(r.deps, "tasks")),
                              cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(r.deps, "edges")),
                              cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(r.deps, "tensors"))},
                    r.has_scope ? (long)r.scope.n - 1 : -1, r.swim != NULL);
out:
    cf_dfx_free(&r);
    cf_dfx_free(&s);
    return total;
}

static atomic_int cf_walked; /* conform_walked */

int conform_walked(void)
{
    return atomic_load(&cf_walked);
}

/* A stream at the first element of a list; -1 with a message when the file cannot be opened. */
static int list_open(jstream *js, const char *path, const cf_list *l, char *err, size_t errlen)
{
    if (jstream_open(js, path) != 0)
        return cf_fail(err, errlen, "%s: cannot read: %s", path, strerror(errno));
    jstream_trust(js); /* checked by sdeps_check; cf_tree() parses each element strictly */
    jstream_seek(js, l->off);
    jstream_eat(js, '[');
    return 0;
}

/* Why a list's element could not be had: a read failed, the file changed since it was checked, or (the
 * text was had) memory ran out. Returns -1. */
static int list_fault(const jstream *js, bool had_text, const char *path, char *err, size_t errlen)
{
    if (js->err)
        return cf_fail(err, errlen, "%s: cannot read: %s", path, strerror(js->err));
    if (js->bad || !had_text)
        return cf_fail(err, errlen, "%s: changed while conform read it", path);
    return cf_fail(err, errlen, "out of memory");
}

/* The next element of a list as text in the stream's window (valid until the next call): 1, 0 at its end
 * (*end true), -1 with a message. */
static int list_text(jstream *js, bool *first, bool *end, const char **t, size_t *n, const char *path, char *err,
                     size_t errlen)
{
    int r = *end ? 0 : jstream_next(js, ']', first);
    if (r == 0) {
        *end = true;
        return 0;
    }
    if (r == 1 && jstream_value(js, t, n))
        return 1;
    return list_fault(js, false, path, err, errlen);
}

/* Numbers the tensor_id of an element (with args: of its args) in t. */
static int number_elem(const cJSON *e, bool args, strtab *t)
{
    char buf[CF_VALUE_MAX];
    const cJSON *g;
    if (!args) {
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(e, "tensor_id");
        return id && strtab_intern(t, id_key(id, buf, sizeof(buf))) < 0 ? -1 : 0;
    }
    cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(e, "args"))
    {
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(g, "tensor_id");
        if (id && strtab_intern(t, id_key(id, buf, sizeof(buf))) < 0)
            return -1;
    }
    return 0;
}

/* Compares one pair of list l's elements (either may be absent at the end of its list) by their trees:
 * numbers each element's tensors, then compares them. Returns 0, or -1 with a message. */
static int spair_trees(cf_file *f, int l, int i, const char *xt, size_t xn, const char *yt, size_t yn,
                       const cf_sdfx *r, const cf_sdfx *s, strtab *rt, strtab *st, const cf_arena *arena,
                       cf_base *base, char *err, size_t errlen)
{
    cJSON *x = xt ? cf_tree(xt, xn) : NULL, *y = yt ? cf_tree(yt, yn) : NULL;
    int rc = 0;
    if ((xt && !x) || (yt && !y)) {
        bool xbad = xt && !x;
        rc = jstream_check(xbad ? xt : yt, xbad ? xn : yn)
                 ? cf_fail(err, errlen, "out of memory")
                 : cf_fail(err, errlen, "%s: changed while conform read it",
                           xbad ? r->deps_path : s->deps_path);
    } else if ((x && number_elem(x, l == CF_TASKS, rt) != 0) || (y && number_elem(y, l == CF_TASKS, st) != 0)) {
        rc = cf_fail(err, errlen, "out of memory");
    } else if (x && y) {
        if (l == CF_TASKS)
            cmp_task(f, i, x, y, rt, st);
        else
            cmp_tensor(f, i, x, y, rt, st, arena, base);
    }
    cJSON_Delete(x);
    cJSON_Delete(y);
    return rc;
}

/* Walks list l of both sides in step: numbers each element's tensors, then compares the pair (tasks or
 * tensors). A pair of tasks the spans find the same needs no tree. Returns 0, or -1 with a message. */
static int swalk(cf_file *f, int l, const cf_sdfx *r, const cf_sdfx *s, strtab *rt, strtab *st,
                 const cf_arena *arena, char *err, size_t errlen)
{
    jstream a, b;
    if (list_open(&a, r->deps_path, &r->lists[l], err, errlen) != 0)
        return -1;
    if (list_open(&b, s->deps_path, &s->lists[l], err, errlen) != 0) {
        cf_stream_done(&a);
        return -1;
    }
    cf_task_spans *sp = l == CF_TASKS ? malloc(2 * sizeof(*sp)) : NULL;
    bool fa = true, fb = true, ea = false, eb = false;
    cf_base base = {false, 0, -1};
    int rc = l == CF_TASKS && !sp ? cf_fail(err, errlen, "out of memory") : 0;
    for (int i = 0; rc == 0; i++) {
        const char *xt = NULL, *yt = NULL;
        size_t xn = 0, yn = 0;
        int qa = list_text(&a, &fa, &ea, &xt, &xn, r->deps_path, err, errlen);
        int qb = qa < 0 ? -1 : list_text(&b, &fb, &eb, &yt, &yn, s->deps_path, err, errlen);
        if (qa < 0 || qb < 0) {
            rc = -1;
            break;
        }
        if (qa == 0 && qb == 0)
            break;
        if (qa == 1 && qb == 1 && sp && task_spans(xt, xn, &sp[0]) && task_spans(yt, yn, &sp[1])) {
            if (number_spans(&sp[0], rt) != 0 || number_spans(&sp[1], st) != 0) {
                rc = cf_fail(err, errlen, "out of memory");
                break;
            }
            if (task_same_spans(&sp[0], &sp[1], rt, st))
                continue;
        }
        rc = spair_trees(f, l, i, qa == 1 ? xt : NULL, xn, qb == 1 ? yt : NULL, yn, r, s, rt, st, arena, &base,
                         err, errlen);
    }
    free(sp);
    cf_stream_done(&a);
    cf_stream_done(&b);
    return rc;
}

#define FNV_PRIME 1099511628211ULL
#define FNV_BASIS 14695981039346656037ULL

/* The finaliser of line_hash and the digests' hashes. */
static uint64_t hash_done(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h;
}

/* A 64-bit hash of a string (FNV-1a, then a finaliser that spreads it). */
static uint64_t line_hash(const char *s)
{
    uint64_t h = FNV_BASIS;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * FNV_PRIME;
    return hash_done(h);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* A hash with how many more times one side has it than the other. */
typedef struct cf_extra {
    uint64_t hash; /* the edge line's hash */
    long count;    /* edges with it only on this side */
    bool kept;     /* its line is among the kept ones */
} cf_extra;

/* One of the smallest difference lines. */
typedef struct cf_kept {
    char *line; /* the edge line */
    bool real;  /* only in real (else only in ptosim) */
    long count; /* how many times */
} cf_kept;

static int cmp_extra(const void *a, const void *b)
{
    return cmp_u64(&((const cf_extra *)a)->hash, &((const cf_extra *)b)->hash);
}

/* Walks the edges of one side: numbers their tensors and, with hashes, appends each line's hash; with
 * extras, keeps the lines of the hashes in extras among the CONFORM_MAX_LINES smallest in kept. */
static int sedges(const cf_sdfx *d, strtab *t, uint64_t **hashes, size_t *n, cf_extra *extras, size_t nextra,
                  bool real, cf_kept *kept, size_t *nkept, char *err, size_t errlen)
{
    jstream js;
    if (list_open(&js, d->deps_path, &d->lists[CF_EDGES], err, errlen) != 0)
        return -1;
    bool first = true, end = false;
    size_t cap = 0;
    int rc = 0;
    cf_edge_texts *x = malloc(sizeof(*x));
    if (!x)
        rc = cf_fail(err, errlen, "out of memory");
    while (rc == 0) {
        const char *text;
        size_t len;
        int q = list_text(&js, &first, &end, &text, &len, d->deps_path, err, errlen);
        if (q <= 0) {
            rc = q;
            break;
        }
        /* the spans when they can tell; the tree otherwise (numbering an id again changes nothing) */
        jspan f[EDGE_NKEYS];
        char id[CF_VALUE_MAX];
        char *line = NULL;
        bool fast = jspan_members(text, len, EDGE_KEYS, EDGE_NKEYS, f) && (!f[TID].p || span_id(f[TID], id));
        if (fast && f[TID].p && strtab_intern(t, id) < 0) {
            rc = cf_fail(err, errlen, "out of memory");
            break;
        }
        if (fast && edge_texts_spans(f, t, x)) {
            line = edge_line_of(x);
        } else {
            cJSON *e = cf_tree(text, len);
            if (!e) {
                rc = list_fault(&js, jstream_check(text, len), d->deps_path, err, errlen);
                break;
            }
            line = number_elem(e, false, t) == 0 ? edge_line(e, t) : NULL;
            cJSON_Delete(e);
        }
        if (!line) {
            rc = cf_fail(err, errlen, "out of memory");
            break;
        }
        uint64_t h = line_hash(line);
        if (hashes) {
            if (*n == cap) {
                size_t nc = cap ? cap * 2 : 1024;
                uint64_t *nh = nc <= SIZE_MAX / sizeof(*nh) ? realloc(*hashes, nc * sizeof(*nh)) : NULL;
                if (!nh) {
                    free(line);
                    rc = cf_fail(err, errlen, "out of memory");
                    break;
                }
                *hashes = nh;
                cap = nc;
            }
            (*hashes)[(*n)++] = h;
        }
        cf_extra key = {h, 0, false},
                 *xt = extras ? bsearch(&key, extras, nextra, sizeof(*extras), cmp_extra) : NULL;
        if (!xt || xt->kept) {
            free(line);
            continue;
        }
        /* insert in order among the kept lines; the largest falls out past CONFORM_MAX_LINES */
        size_t at = *nkept;
        while (at > 0 && strcmp(kept[at - 1].line, line) > 0)
            at--;
        if (at >= CONFORM_MAX_LINES) {
            free(line);
            continue;
        }
        if (*nkept == CONFORM_MAX_LINES)
            free(kept[--*nkept].line);
        memmove(kept + at + 1, kept + at, (*nkept - at) * sizeof(*kept));
        kept[at] = (cf_kept){line, real, xt->count};
        ++*nkept;
        xt->kept = true;
    }
    free(x);
    cf_stream_done(&js);
    return rc;
}

/* The edge multisets, as cmp_edges compares them, holding 8 bytes per edge: each side's line hashes are
 * sorted and merged; the lines of the hashes one side has more often are found in a second walk, of which
 * the CONFORM_MAX_LINES smallest are printed (as the sorted merge of the lines would) and the rest
 * counted. Two different lines with one hash would pass as equal (about 1 in 10^9 for 10^5 edges). */
static int scmp_edges(cf_file *f, const cf_sdfx *r, const cf_sdfx *s, strtab *rt, strtab *st, char *err,
                      size_t errlen)
{
    uint64_t *hr = NULL, *hs = NULL;
    size_t rn = 0, sn = 0, nr = 0, ns = 0, nkept = 0;
    cf_extra *xr = NULL, *xs = NULL;
    cf_kept kept[CONFORM_MAX_LINES + 1];
    int rc = -1;
    if (sedges(r, rt, &hr, &rn, NULL, 0, true, NULL, NULL, err, errlen) != 0 ||
        sedges(s, st, &hs, &sn, NULL, 0, false, NULL, NULL, err, errlen) != 0)
        goto out;
    if (rn != sn)
        cf_diff(f, "edges: real %zu, ptosim %zu", rn, sn);
    if (rn) /* no edges: no array (qsort takes no NULL) */
        qsort(hr, rn, sizeof(*hr), cmp_u64);
    if (sn)
        qsort(hs, sn, sizeof(*hs), cmp_u64);
    long total = 0;
    for (int pass = 0; pass < 2; pass++) { /* count the hashes that differ, then keep them */
        if (pass == 1) {
            xr = calloc(nr ? nr : 1, sizeof(*xr));
            xs = calloc(ns ? ns : 1, sizeof(*xs));
            if (!xr || !xs) {
                cf_fail(err, errlen, "out of memory");
                goto out;
            }
            nr = ns = 0;
            total = 0;
        }
        for (size_t i = 0, j = 0; i < rn || j < sn;) {
            uint64_t h = i < rn && (j == sn || hr[i] <= hs[j]) ? hr[i] : hs[j];
            long a = 0, b = 0;
            for (; i < rn && hr[i] == h; i++)
                a++;
            for (; j < sn && hs[j] == h; j++)
                b++;
            if (a > b && xr)
                xr[nr] = (cf_extra){h, a - b, false};
            if (b > a && xs)
                xs[ns] = (cf_extra){h, b - a, false};
            nr += a > b;
            ns += b > a;
            total += a > b ? a - b : b - a;
        }
    }
    if (total) {
        if (sedges(r, rt, NULL, NULL, xr, nr, true, kept, &nkept, err, errlen) != 0 ||
            sedges(s, st, NULL, NULL, xs, ns, false, kept, &nkept, err, errlen) != 0)
            goto out;
        long shown = 0;
        for (size_t k = 0; k < nkept; k++)
            for (long c = 0; c < kept[k].count; c++, shown++)
                cf_diff(f, "edge only in %s: %s", kept[k].real ? "real" : "ptosim", kept[k].line);
        f->diffs += total - shown;
    }
    rc = 0;
out:
    for (size_t k = 0; k < nkept; k++)
        free(kept[k].line);
    free(hr);
    free(hs);
    free(xr);
    free(xs);
    return rc;
}

/* The streaming cf_cmp_deps: tasks in step, the edges, tensors in step; the tensor numbering grows as the
 * walks meet the ids, in the order number_tensors gives them. The difference lines are held until the
 * count of distinct ids, which comes first, is known. */
int cf_scmp_deps(FILE *report, long *diffs, const cf_sdfx *r, const cf_sdfx *s, const cf_arena *arena,
                 char *err, size_t errlen)
{
    char *held[CONFORM_MAX_LINES] = {NULL};
    cf_file f = {report, "deps.json", 0, held, false};
    strtab rt, st;
    strtab_init(&rt);
    strtab_init(&st);
    int rc = -1;
    if (r->lists[CF_TASKS].n != s->lists[CF_TASKS].n)
        cf_diff(&f, "tasks: real %ld, ptosim %ld", r->lists[CF_TASKS].n, s->lists[CF_TASKS].n);
    if (swalk(&f, CF_TASKS, r, s, &rt, &st, arena, err, errlen) != 0 ||
        scmp_edges(&f, r, s, &rt, &st, err, errlen) != 0)
        goto out;
    if (r->lists[CF_TENSORS].n != s->lists[CF_TENSORS].n)
        cf_diff(&f, "tensors: real %ld, ptosim %ld", r->lists[CF_TENSORS].n, s->lists[CF_TENSORS].n);
    if (swalk(&f, CF_TENSORS, r, s, &rt, &st, arena, err, errlen) != 0)
        goto out;
    if (f.oom) {
        cf_fail(err, errlen, "out of memory");
        goto out;
    }
    cf_file out = {report, "deps.json", 0, NULL, false};
    if (rt.count != st.count)
        cf_diff(&out, "distinct tensor ids: real %zu, ptosim %zu", rt.count, st.count);
    for (long k = 0; k < f.diffs; k++)
        if (out.diffs++ < CONFORM_MAX_LINES && k < CONFORM_MAX_LINES)
            fputs(held[k], report);
    *diffs = out.diffs;
    rc = 0;
out:
    for (int k = 0; k < CONFORM_MAX_LINES; k++)
        free(held[k]);
    strtab_free(&rt);
    strtab_free(&st);
    return rc;
}

/* ---- one side's digest: equal captures compared without walking both sides in step ---- */

void cf_digest_free(cf_digest *g)
{
    free(g->tasks);
    free(g->edges);
    free(g->tens);
    free(g->addr);
    memset(g, 0, sizeof(*g));
}

/* Adds v's text without the white space outside its strings, then a separator no byte is (0x100; absent:
 * 0x1ff), so that equal hashes mean texts jspan_same_text finds the same. False on an escape, which may
 * write one value two ways. */
static bool hash_span(uint64_t *h, jspan v)
{
    uint64_t x = *h;
    if (!v.p) {
        *h = (x ^ 0x1ff) * FNV_PRIME;
        return true;
    }
    bool in_str = false;
    for (size_t i = 0; i < v.n; i++) {
        unsigned char c = (unsigned char)v.p[i];
        if (!in_str && (c == ' ' || c == '\t' || c == '\n' || c == '\r'))
            continue;
        if (c == '\\')
            return false;
        if (c == '"')
            in_str = !in_str;
        x = (x ^ c) * FNV_PRIME;
    }
    *h = (x ^ 0x100) * FNV_PRIME;
    return true;
}

/* Adds a whole number (a count, a T<n> or -1) as its eight bytes. */
static void hash_int(uint64_t *h, int64_t v)
{
    uint64_t x = *h, u = (uint64_t)v;
    for (int b = 0; b < 8; b++, u >>= 8)
        x = (x ^ (u & 0xff)) * FNV_PRIME;
    *h = x;
}

/* Appends v to a growing array (*a, *n, *cap). False when out of memory. */
static bool push_u64(uint64_t **a, size_t *n, size_t *cap, uint64_t v)
{
    if (*n == *cap) {
        size_t nc = *cap ? *cap * 2 : 1024;
        uint64_t *na = nc <= SIZE_MAX / sizeof(*na) ? realloc(*a, nc * sizeof(*na)) : NULL;
        if (!na)
            return false;
        *a = na;
        *cap = nc;
    }
    (*a)[(*n)++] = v;
    return true;
}

/* Calls each(text, len, arg) on every element of d's list l while g->ok (each returns whether it took the
 * element); a read that fails clears g->ok. */
static void digest_walk(const cf_sdfx *d, int l, cf_digest *g, bool (*each)(const char *, size_t, void *),
                        void *arg)
{
    jstream js;
    if (!g->ok)
        return;
    if (list_open(&js, d->deps_path, &d->lists[l], g->err, sizeof(g->err)) != 0) {
        g->ok = false;
        return;
    }
    bool first = true, end = false;
    while (g->ok) {
        const char *text;
        size_t len;
        int q = list_text(&js, &first, &end, &text, &len, d->deps_path, g->err, sizeof(g->err));
        if (q <= 0) {
            g->ok = q == 0;
            break;
        }
        g->ok = each(text, len, arg);
    }
    cf_stream_done(&js);
}

typedef struct cf_task_walk {
    strtab *t;          /* the side's numbering */
    cf_task_spans *sp;  /* scratch */
    cf_digest *g;       /* tasks, ntasks */
    size_t cap;         /* of g->tasks */
} cf_task_walk;

/* A task: its ids numbered, a hash of what task_same_spans compares. */
static bool task_digest(const char *text, size_t len, void *arg)
{
    cf_task_walk *w = arg;
    cf_task_spans *sp = w->sp;
    uint64_t h = FNV_BASIS;
    bool ok = task_spans(text, len, sp);
    for (int k = 0; ok && k < TASK_NSPANS - 1; k++)
        ok = hash_span(&h, sp->f[k]);
    hash_int(&h, sp->nargs);
    for (int a = 0; ok && a < sp->nargs; a++) { /* each id numbered as number_spans numbers them */
        int no = sp->arg[a][A_TID].p ? strtab_intern(w->t, sp->id[a]) : -1;
        for (int k = 0; ok && k < A_TID; k++)
            ok = hash_span(&h, sp->arg[a][k]);
        ok = ok && (no >= 0 || !sp->arg[a][A_TID].p);
        hash_int(&h, no);
    }
    return ok && push_u64(&w->g->tasks, &w->g->ntasks, &w->cap, hash_done(h));
}

/* The tasks of d, numbered into t. */
static void digest_tasks(const cf_sdfx *d, strtab *t, cf_digest *g)
{
    cf_task_walk w = {t, malloc(sizeof(cf_task_spans)), g, 0};
    g->ok = w.sp != NULL;
    digest_walk(d, CF_TASKS, g, task_digest, &w);
    free(w.sp);
}

/* A list digested before its tensor ids can be numbered (the tasks' numbering is made at the same time):
 * each element's hash without its id, and the id's slot in a table of the list's own ids in order of first
 * appearance (-1: none). digest_number then numbers those ids after the ones before them, as the walk
 * would, and finishes the hashes. */
typedef struct cf_pending {
    uint64_t *h;  /* per element: the hash of all but the id */
    int *local;   /* per element: the id's slot in ids, -1 when absent */
    size_t n, cap; /* elements, allocated */
    strtab ids;   /* the list's ids */
} cf_pending;

static bool pending_push(cf_pending *q, uint64_t h, int local)
{
    if (q->n == q->cap) {
        size_t nc = q->cap ? q->cap * 2 : 1024;
        uint64_t *nh = nc <= SIZE_MAX / sizeof(*nh) ? realloc(q->h, nc * sizeof(*nh)) : NULL;
        if (nh)
            q->h = nh;
        int *nl = nh && nc <= SIZE_MAX / sizeof(*nl) ? realloc(q->local, nc * sizeof(*nl)) : NULL;
        if (!nl)
            return false;
        q->local = nl;
        q->cap = nc;
    }
    q->h[q->n] = h;
    q->local[q->n++] = local;
    return true;
}

static void pending_free(cf_pending *q)
{
    free(q->h);
    free(q->local);
    strtab_free(&q->ids);
}

/* An edge: a hash of its members' texts but the tensor (aside). Equal texts make equal edge lines; an edge
 * whose texts the spans cannot hash (an escape) leaves the side without a digest. */
static bool edge_digest(const char *text, size_t len, void *arg)
{
    cf_pending *q = arg;
    jspan f[EDGE_NKEYS];
    char id[CF_VALUE_MAX];
    int local = -1;
    uint64_t h = FNV_BASIS;
    bool ok = jspan_members(text, len, EDGE_KEYS, EDGE_NKEYS, f) && (!f[TID].p || span_id(f[TID], id));
    if (ok && f[TID].p && (local = strtab_intern(&q->ids, id)) < 0)
        ok = false;
    for (int k = 0; ok && k < EDGE_NKEYS; k++)
        ok = k == TID || hash_span(&h, f[k]);
    return ok && pending_push(q, h, local);
}

typedef struct cf_tensor_walk {
    cf_pending *q;  /* the hashes and ids */
    cf_digest *g;   /* addr */
    size_t n, cap;  /* of g->addr */
} cf_tensor_walk;

/* A tensor: a hash of what cmp_tensor compares but the tensor (aside) and the address, which is kept as it
 * is (whether it is in ptosim's arena is the comparison's to say). */
static bool tensor_digest(const char *text, size_t len, void *arg)
{
    static const char *const KEYS[] = {"tensor_id", "version", "dtype", "buffer_numel", "buffer_addr"};
    cf_tensor_walk *w = arg;
    jspan f[5];
    char id[CF_VALUE_MAX], v[CF_VALUE_MAX];
    uint64_t h = FNV_BASIS, addr = 0;
    int local = -1;
    bool ok = jspan_members(text, len, KEYS, 5, f) && (!f[0].p || span_id(f[0], id));
    if (ok && f[0].p && (local = strtab_intern(&w->q->ids, id)) < 0)
        ok = false;
    for (int k = 1; ok && k < 4; k++)
        ok = hash_span(&h, f[k]);
    /* cf_get_u64: a decimal string, or a whole number (jspan_compact: at most 9 digits) */
    if (ok && f[4].p && f[4].p[0] == '"')
        ok = jspan_string(f[4], v, sizeof(v)) && jspan_u64_text(v, &addr);
    else if (ok)
        ok = f[4].p && jspan_compact(f[4], v, sizeof(v)) && v[0] >= '0' && v[0] <= '9' && jspan_u64_text(v, &addr);
    return ok && pending_push(w->q, h, local) && push_u64(&w->g->addr, &w->n, &w->cap, addr);
}

/* Numbers q's ids in t after those already there (in q's order of first appearance, as the walk meets
 * them) and gives each element its hash with its T<n>. NULL when out of memory. */
static uint64_t *digest_number(cf_pending *q, strtab *t)
{
    int *no = malloc((q->ids.count ? q->ids.count : 1) * sizeof(*no));
    uint64_t *out = malloc((q->n ? q->n : 1) * sizeof(*out));
    for (size_t k = 0; no && out && k < q->ids.count; k++)
        if ((no[k] = strtab_intern(t, strtab_key(&q->ids, (int)k))) < 0) {
            free(out);
            out = NULL;
        }
    for (size_t i = 0; no && out && i < q->n; i++) {
        uint64_t h = q->h[i];
        hash_int(&h, q->local[i] < 0 ? -1 : no[q->local[i]]);
        out[i] = hash_done(h);
    }
    free(no);
    return out;
}

/* The edges and tensors of a side, digested apart from its tasks (on a second thread, or after them). */
typedef struct cf_rest_job {
    const cf_sdfx *d;
    cf_pending eq, tq; /* edges, tensors */
    cf_digest g;       /* its ok and err, and the tensors' addresses */
} cf_rest_job;

static void *rest_main(void *arg)
{
    cf_rest_job *j = arg;
    j->g.ok = true;
    digest_walk(j->d, CF_EDGES, &j->g, edge_digest, &j->eq);
    cf_tensor_walk tw = {&j->tq, &j->g, 0, 0};
    digest_walk(j->d, CF_TENSORS, &j->g, tensor_digest, &tw);
    return NULL;
}

/* Makes d's digest (g->ok when whole); with split, its edges and tensors on a second thread while this one
 * reads the tasks. */
void cf_digest_side(const cf_sdfx *d, bool split, cf_digest *g)
{
    memset(g, 0, sizeof(*g));
    strtab t;
    strtab_init(&t);
    cf_rest_job rj = {.d = d};
    strtab_init(&rj.eq.ids);
    strtab_init(&rj.tq.ids);
    pthread_t rt;
    bool started = split && cf_thread_start(&rt, rest_main, &rj);
    digest_tasks(d, &t, g);
    if (started)
        pthread_join(rt, NULL);
    else if (g->ok)
        rest_main(&rj);
    g->ok = g->ok && rj.g.ok;
    g->addr = rj.g.addr;
    if (g->ok) { /* the walk's order: the tasks' ids, then the edges', then the tensors' */
        g->nedges = rj.eq.n;
        g->ntens = rj.tq.n;
        g->ok = (g->edges = digest_number(&rj.eq, &t)) != NULL && (g->tens = digest_number(&rj.tq, &t)) != NULL;
    }
    if (g->ok && g->nedges)
        qsort(g->edges, g->nedges, sizeof(*g->edges), cmp_u64);
    pending_free(&rj.eq);
    pending_free(&rj.tq);
    g->ids = t.count;
    strtab_free(&t);
}

/* Would cf_scmp_deps find nothing? True only when both digests are whole and agree, and every runtime-created
 * tensor's real address less its offset in ptosim's arena is one base (cmp_tensor). */
bool cf_digests_agree(const cf_digest *r, const cf_digest *s, const cf_arena *arena)
{
    if (!r->ok || !s->ok || r->ntasks != s->ntasks || r->nedges != s->nedges || r->ntens != s->ntens ||
        r->ids != s->ids)
        return false;
    if ((r->ntasks && memcmp(r->tasks, s->tasks, r->ntasks * sizeof(*r->tasks)) != 0) ||
        (r->nedges && memcmp(r->edges, s->edges, r->nedges * sizeof(*r->edges)) != 0) ||
        (r->ntens && memcmp(r->tens, s->tens, r->ntens * sizeof(*r->tens)) != 0))
        return false;
    bool have = false;
    uint64_t base = 0;
    for (size_t i = 0; i < r->ntens; i++) {
        uint64_t ra = r->addr[i], sa = s->addr[i];
        if (sa < arena->base || sa - arena->base >= arena->size) {
            if (ra != sa)
                return false;
            continue;
        }
        uint64_t off = sa - arena->base;
        if (!have) {
            have = true;
            base = ra - off;
        } else if (ra - off != base) {
            return false;
        }
    }
    return true;
}

static void *digest_main(void *arg)
{
    cf_digest_job *j = arg;
    cf_digest_side(j->d, false, &j->g);
    return NULL;
}

/* Starts d's digest on a thread of its own; without a thread, it is made at cf_digest_join. */
void cf_digest_start(cf_digest_job *j, const cf_sdfx *d)
{
    memset(j, 0, sizeof(*j));
    j->d = d;
    j->started = cf_thread_start(&j->thread, digest_main, j);
}

cf_digest *cf_digest_join(cf_digest_job *j)
{
    if (j->started)
        pthread_join(j->thread, NULL);
    else if (!j->done)
        cf_digest_side(j->d, false, &j->g);
    j->started = false;
    j->done = true;
    return &j->g;
}

/* The next record (non-blank line after the header) of a scope-stats stream as a tree, with its line
 * number; NULL at the end (*end) or with a message. */
static cJSON *next_record(jstream *js, int *lineno, bool *end, const char *path, char *err, size_t errlen)
{
    const char *t;
    size_t n;
    while (!*end) {
        if (!jstream_line(js, &t, &n)) {
            *end = true;
            if (js->err)
                cf_fail(err, errlen, "%s: cannot read: %s", path, strerror(js->err));
            return NULL;
        }
        ++*lineno;
        size_t k = 0;
        while (k < n && (t[k] == ' ' || t[k] == '\t' || t[k] == '\r'))
            k++;
        if (k == n)
            continue;
        cJSON *rec = cf_tree(t, n);
        if (!rec && jstream_check(t, n))
            cf_fail(err, errlen, "out of memory");
        else if (!rec)
            cf_fail(err, errlen, "%s:%d: changed while conform read it", path, *lineno);
        return rec;
    }
    return NULL;
}

/* The streaming cf_cmp_scope: the headers, then the records in step; the peaks of each whole file. */
int cf_scmp_scope(cf_file *f, const cf_sdfx *r, const cf_sdfx *s, char *err, size_t errlen)
{
    for (size_t k = 0; k < sizeof(HEADER_KEYS) / sizeof(HEADER_KEYS[0]); k++)
        cf_cmp_key(f, "header", r->scope_header, s->scope_header, HEADER_KEYS[k]);
    if (r->scope_n != s->scope_n)
        cf_diff(f, "records: real %zu, ptosim %zu", r->scope_n - 1, s->scope_n - 1);
    jstream a, b;
    if (jstream_open(&a, r->scope_path) != 0)
        return cf_fail(err, errlen, "%s: cannot read: %s", r->scope_path, strerror(errno));
    if (jstream_open(&b, s->scope_path) != 0) {
        cf_stream_done(&a);
        return cf_fail(err, errlen, "%s: cannot read: %s", s->scope_path, strerror(errno));
    }
    cf_peaks pr, ps;
    memset(&pr, 0, sizeof(pr));
    memset(&ps, 0, sizeof(ps));
    int la = 0, lb = 0, rc = 0;
    bool ea = false, eb = false;
    err[0] = '\0';
    cJSON_Delete(next_record(&a, &la, &ea, r->scope_path, err, errlen)); /* the headers */
    cJSON_Delete(next_record(&b, &lb, &eb, s->scope_path, err, errlen));
    for (;;) {
        cJSON *x = next_record(&a, &la, &ea, r->scope_path, err, errlen);
        cJSON *y = next_record(&b, &lb, &eb, s->scope_path, err, errlen);
        if (err[0]) {
            cJSON_Delete(x);
            cJSON_Delete(y);
            rc = -1;
            break;
        }
        if (!x && !y)
            break;
        if (x && y)
            cmp_record(f, la, x, y);
        if (x)
            peaks_add(&pr, x);
        if (y)
            peaks_add(&ps, y);
        cJSON_Delete(x);
        cJSON_Delete(y);
    }
    cf_stream_done(&a);
    cf_stream_done(&b);
    if (rc == 0)
        print_peaks(f, &pr, &ps);
    return rc;
}

/* The streaming cf_cmp_swimlane, on what sswim_check kept. */
void cf_scmp_swimlane(cf_file *f, const cf_sdfx *r, const cf_sdfx *s)
{
    char ka[1024], kb[1024];
    if (strcmp(r->top_keys, s->top_keys) != 0)
        cf_diff(f, "top-level keys: real %s; ptosim %s", r->top_keys, s->top_keys);
    cf_cmp_vals(f, "", "chip_swimlane_level", r->level, s->level);
    const cJSON *rm = r->metadata, *sm = s->metadata;
    if (strcmp(key_list(rm, ka, sizeof(ka)), key_list(sm, kb, sizeof(kb))) != 0)
        cf_diff(f, "metadata keys: real %s; ptosim %s", ka, kb);
    cf_cmp_key(f, "metadata", rm, sm, "num_cores");
    cmp_per_core(f, "metadata.core_types", cJSON_GetObjectItemCaseSensitive(rm, "core_types"),
                 cJSON_GetObjectItemCaseSensitive(sm, "core_types"));
    cmp_per_core(f, "metadata.core_to_thread", cJSON_GetObjectItemCaseSensitive(rm, "core_to_thread"),
                 cJSON_GetObjectItemCaseSensitive(sm, "core_to_thread"));
    for (int k = 0; k < 2; k++) {
        if (!r->rows[k] || !s->rows[k])
            continue;
        arity_text(r->arity[k], ka, sizeof(ka));
        arity_text(s->arity[k], kb, sizeof(kb));
        if (*ka && *kb && strcmp(ka, kb) != 0)
            cf_diff(f, "%s rows: real %s values, ptosim %s", ROW_LISTS[k], ka, kb);
    }
    for (int k = 0; k < 2; k++)
        if (r->phases[k] && s->phases[k])
            cmp_phase_items(f, PHASE_LISTS[k], r->lanes[k], s->lanes[k], &r->items[k], &s->items[k]);
}

/* conform_compare with the capture real_dir checked already (*real, from read_capture; NULL: not yet, or
 * changed since). Takes over *real. */
/* The scope stats and swimlane parts of the comparison, which need neither side's deps.json: made on a
 * thread of their own while deps.json is compared, into their own report, printed after deps.json's. */
typedef struct cf_tail {
    cf_file fs, fw;           /* scope_stats.jsonl, chip_swimlane_records.json */
    const cf_sdfx *r, *s;     /* the two folders, checked */
    int rc;                   /* -1: err says why */
    char err[PATH_MAX + 256]; /* cf_scmp_scope's message */
} cf_tail;

static void tail_compare(cf_tail *c)
{
    if (!c->r->has_scope)
        cf_info(&c->fs, "not in the capture");
    else if (!c->s->has_scope)
        cf_diff(&c->fs, "in the capture, not in ptosim's output");
    else if ((c->rc = cf_scmp_scope(&c->fs, c->r, c->s, c->err, sizeof(c->err))) != 0)
        return;
    more(&c->fs);
    if (!c->r->has_swim)
        cf_info(&c->fw, "not in the capture");
    else if (!c->s->has_swim)
        cf_diff(&c->fw, "in the capture, not in ptosim's output");
    else
        cf_scmp_swimlane(&c->fw, c->r, c->s);
    more(&c->fw);
}

static void *tail_main(void *arg)
{
    tail_compare(arg);
    return NULL;
}

/* The comparison of the two folders; real: the capture as read_capture checked it (taken over), with its
 * digest begun in rjob (joined here), or NULL. */
long cf_compare_with(cf_sdfx *real, cf_digest_job *rjob, const char *real_dir, const char *sim_dir,
                     FILE *report, char *err, size_t errlen)
{
    cf_sdfx r, s;
    int rl;
    atomic_store(&cf_walked, -1);
    if (real && cf_sdfx_same(real)) {
        r = *real;
        rl = 0;
    } else {
        if (rjob) /* of files that changed since */
            cf_digest_free(cf_digest_join(rjob));
        rjob = NULL;
        if (real)
            cf_sdfx_free(real);
        rl = cf_sdfx_load(&r, real_dir, true);
    }
    int sl = rl == 0 ? cf_sdfx_load_split(&s, sim_dir, false, true) : -1;
    if ((rl != 0 || sl != 0) && rjob)
        cf_digest_free(cf_digest_join(rjob));
    if (rl != 0 || sl != 0) {
        cf_sdfx_free(&r);
        if (rl == 0)
            cf_sdfx_free(&s);
        return compare_trees(real_dir, sim_dir, report, err, errlen);
    }
    long total = -1, dd = 0;
    cf_file fd = {report, "deps.json", 0, NULL, false};
    /* the scope stats and swimlane beside deps.json, into a report of their own when one can be had */
    cf_tail tl = {.fs = {report, "scope_stats.jsonl", 0, NULL, false},
                  .fw = {report, "chip_swimlane_records.json", 0, NULL, false},
                  .r = &r,
                  .s = &s};
    char *tail_text = NULL;
    size_t tail_len = 0;
    FILE *tail_out = open_memstream(&tail_text, &tail_len);
    pthread_t tt;
    bool tail_started = false, tail_done = false;
    if (tail_out) {
        tl.fs.out = tl.fw.out = tail_out;
        tail_started = cf_thread_start(&tt, tail_main, &tl);
    }
    cf_digest_job own;
    if (!s.has_deps) {
        if (rjob)
            cf_digest_free(cf_digest_join(rjob));
        cf_diff(&fd, "in the capture, not in ptosim's output");
    } else {
        cf_arena arena;
        cf_sim_arena(s.scope_header, sim_dir, &arena, report);
        /* each side's digest on a thread of its own (the capture's may be made already, then ptosim's uses
         * two); the walk in step only when they do not agree */
        bool split = rjob != NULL;
        if (!rjob) {
            cf_digest_start(&own, &r);
            rjob = &own;
        }
        cf_digest sg;
        cf_digest_side(&s, split, &sg);
        cf_digest *rg = cf_digest_join(rjob);
        bool agree = cf_digests_agree(rg, &sg, &arena);
        cf_digest_free(rg);
        cf_digest_free(&sg);
        atomic_store(&cf_walked, !agree);
        if (!agree && cf_scmp_deps(report, &dd, &r, &s, &arena, err, errlen) != 0)
            goto out;
        fd.diffs = dd;
    }
    more(&fd);
    if (tail_started)
        pthread_join(tt, NULL);
    else
        tail_compare(&tl);
    tail_done = true;
    if (tail_out) {
        if (fflush(tail_out) == 0 && tail_len)
            fwrite(tail_text, 1, tail_len, report);
    }
    if (tl.rc != 0) {
        cf_fail(err, errlen, "%s", tl.err);
        goto out;
    }
    total = verdict(report, real_dir, &fd, &tl.fs, &tl.fw,
                    (long[3]){r.lists[CF_TASKS].n, r.lists[CF_EDGES].n, r.lists[CF_TENSORS].n},
                    r.has_scope ? (long)r.scope_n - 1 : -1, r.has_swim);
out:
    if (tail_started && !tail_done)
        pthread_join(tt, NULL);
    if (tail_out)
        fclose(tail_out);
    free(tail_text);
    cf_sdfx_free(&r);
    cf_sdfx_free(&s);
    return total;
}

long conform_compare(const char *real_dir, const char *sim_dir, FILE *report, char *err, size_t errlen)
{
    atomic_store(&cf_peak_window, 0);
    return cf_compare_with(NULL, NULL, real_dir, sim_dir, report, err, errlen);
}

/* ---- ptosim conform ---- */

static void conform_usage(FILE *out)
{
    fputs(
        "usage: ptosim conform CAPTURE_DIR [-o WORKDIR] [-p PLATFORM]\n"
        "\n"
        "Imports a runtime capture (a run's dfx_outputs/ with deps.json), simulates the graph with the\n"
        "capture's settings and compares what does not depend on timing: deps.json whole, the scope\n"
        "stats' allocation counters, the swimlane's schema and core map (docs/explanation/checking.md).\n"
        "One line per difference, then a verdict.\n"
        "\n"
        "options:\n"
        "  -o, --work-dir DIR        keep DIR/graph.jsonl and the run's DIR/dfx_outputs (default: a\n"
        "                            temporary folder, removed afterwards)\n"
        "  -p, --platform NAME|FILE  platform (default: from the swimlane's num_cores, 24 a2a3sim, 72 a2a3)\n"
        "  -h, --help                this text\n"
        "\n"
        "exit status: 0 equal, 1 different, 2 bad command line or platform, 3 a capture that cannot be\n"
        "read or imported, 4-6 the run failed as `ptosim run` says, 7 conform itself failed\n",
        out);
}

/* What the run takes from the capture. */
typedef struct cf_capture {
    const char *platform;            /* -p value */
    int swimlane_level;              /* 0 = no swimlane file */
    long threads;                    /* AICPU threads the core map implies, 0 = not known */
    bool scope_stats;                /* scope_stats/scope_stats.jsonl present */
    int64_t rings[3][CF_RING_COUNT]; /* task_window_max, heap_max, dep_pool_max */
    int64_t tensormap;               /* tensormap_max, 0 = not known */
} cf_capture;

static const struct {
    int cores;
    const char *platform;
} CORES_PLATFORM[] = {{24, "a2a3sim"}, {72, "a2a3"}};

/* What the run takes from a capture's files (see read_capture). */
/* What read_capture reads of a capture, from either reading of it. */
typedef struct cf_capfiles {
    const char *swim_path;  /* the swimlane's path */
    const char *scope_path; /* the scope stats' path */
    bool swim;              /* the swimlane exists */
    const cJSON *level;     /* its chip_swimlane_level */
    const cJSON *md;        /* its metadata */
    const cJSON *header;    /* the scope-stats header, NULL when there are none */
    int header_line;        /* its line number */
} cf_capfiles;

static int capture_from(const cf_capfiles *d, cf_capture *c, char *err, size_t errlen)
{
    int rc = 0;
    if (d->swim) {
        const cJSON *lv = d->level, *md = d->md, *nc = cJSON_GetObjectItemCaseSensitive(md, "num_cores"),
                    *ct = cJSON_GetObjectItemCaseSensitive(md, "core_to_thread"), *x;
        if (!cJSON_IsNumber(lv) || lv->valueint < 1 || lv->valueint > 4) {
            rc = cf_fail(err, errlen, "%s: chip_swimlane_level: not 1-4", d->swim_path);
            goto out;
        }
        c->swimlane_level = lv->valueint;
        if (!cJSON_IsNumber(nc)) {
            rc = cf_fail(err, errlen, "%s: metadata.num_cores: %s", d->swim_path,
                         nc ? "not a number" : "missing");
            goto out;
        }
        for (size_t i = 0; !c->platform && i < sizeof(CORES_PLATFORM) / sizeof(CORES_PLATFORM[0]); i++)
            if (CORES_PLATFORM[i].cores == nc->valueint)
                c->platform = CORES_PLATFORM[i].platform;
        if (!c->platform) {
            cf_fail(err, errlen,
                    "%s: metadata.num_cores %d names no platform (24 a2a3sim, 72 a2a3): give one with -p",
                    d->swim_path, nc->valueint);
            rc = EXIT_USAGE;
            goto out;
        }
        /* the core map has one scheduler thread index per core; the orchestrator is one more thread */
        int most = -1;
        cJSON_ArrayForEach(x, ct)
        {
            if (cJSON_IsNumber(x) && x->valueint > most)
                most = x->valueint;
        }
        if (most >= 0)
            c->threads = most + 2;
    }
    if (d->header) {
        static const char *const CAPS[] = {"task_window_max", "heap_max", "dep_pool_max"};
        const cJSON *h = d->header;
        for (int k = 0; k < 3; k++) {
            const cJSON *a = cJSON_GetObjectItemCaseSensitive(h, CAPS[k]);
            bool ok = cJSON_GetArraySize(a) == CF_RING_COUNT;
            for (int r = 0; ok && r < CF_RING_COUNT; r++) {
                const cJSON *v = cJSON_GetArrayItem(a, r);
                ok = cJSON_IsNumber(v) && v->valuedouble >= 0;
                c->rings[k][r] = ok ? (int64_t)v->valuedouble : 0;
            }
            if (!ok) {
                rc = cf_fail(err, errlen, "%s:%d: %s: not 4 numbers", d->scope_path, d->header_line, CAPS[k]);
                goto out;
            }
        }
        const cJSON *tm = cJSON_GetObjectItemCaseSensitive(h, "tensormap_max");
        c->tensormap = cJSON_IsNumber(tm) ? (int64_t)tm->valuedouble : 0;
        c->scope_stats = true;
    }
    if (!c->platform)
        c->platform = "a2a3"; /* no swimlane: ptosim run's default */
out:
    return rc < 0 ? EXIT_GRAPH : rc;
}

/* Reads the capture's swimlane metadata and scope-stats header, streaming (checking deps.json too, as the
 * comparison will read it); a capture the stream refuses is read whole, which names the fault. Returns 0,
 * EXIT_USAGE (num_cores names no platform and no -p) or EXIT_GRAPH, with a message in err. */
/* The capture's check: deps.json, the scope stats and the swimlane read a value at a time (cf_sdfx_load), and
 * on a thread of its own, the capture's digest for the comparison. */
typedef struct cf_capjob {
    const char *dir;
    cf_sdfx s;
    int loaded;        /* cf_sdfx_load's return */
    cf_digest_job dig; /* made on this thread once the check passed (cf_digest_start without a thread) */
} cf_capjob;

static void capjob_run(cf_capjob *j)
{
    j->loaded = cf_sdfx_load(&j->s, j->dir, true);
    if (j->loaded == 0) {
        j->dig = (cf_digest_job){.d = &j->s, .done = true};
        cf_digest_side(&j->s, false, &j->dig.g);
    }
}

static void *capjob_main(void *arg)
{
    capjob_run(arg);
    return NULL;
}

/* What to run the capture with (c), from its check in j (capjob_run, done): with *kept, the check's s and
 * digest are kept for the comparison; without, the files the stream refused are read whole, which names the
 * fault. Returns 0 or an exit status with a message. */
static int read_capture(cf_capjob *j, const char *platform, cf_capture *c, bool *kept, char *err, size_t errlen)
{
    memset(c, 0, sizeof(*c));
    c->platform = platform;
    *kept = false;
    cf_sdfx *s = &j->s;
    if (j->loaded == 0) {
        cf_capfiles f = {s->swim_path, s->scope_path,   s->has_swim,   s->level,
                         s->metadata,  s->scope_header, s->header_line};
        int rc = capture_from(&f, c, err, errlen);
        if (rc == 0) {
            *kept = true; /* for the comparison, which need not check it again */
        } else {
            cf_digest_free(&j->dig.g);
            cf_sdfx_free(s);
        }
        return rc;
    }
    cf_sdfx_free(s);
    cf_dfx d;
    if (cf_dfx_load(&d, j->dir, true, err, errlen) != 0) {
        cf_dfx_free(&d);
        return EXIT_GRAPH;
    }
    cf_capfiles f = {d.swim_path,
                     d.scope_path,
                     d.swim != NULL,
                     cJSON_GetObjectItemCaseSensitive(d.swim, "chip_swimlane_level"),
                     cJSON_GetObjectItemCaseSensitive(d.swim, "metadata"),
                     d.has_scope ? d.scope.v[0] : NULL,
                     d.has_scope ? d.scope.lineno[0] : 0};
    int rc = capture_from(&f, c, err, errlen);
    cf_dfx_free(&d);
    return rc;
}

/* The arguments of the run after "GRAPH": owned strings in buf, pointers in av. */
typedef struct cf_argv {
    const char *av[40]; /* the arguments, NULL-terminated */
    int n;              /* arguments in av */
    char buf[8][128];   /* the values av points to that are built here */
    int nbuf;           /* buf entries used */
} cf_argv;

static void add(cf_argv *a, const char *s)
{
    if (a->n < (int)(sizeof(a->av) / sizeof(a->av[0])) - 1)
        a->av[a->n++] = s;
    a->av[a->n] = NULL;
}

/* Adds "FLAG a,b,c,d" when a ring's value differs from the platform's default. */
static void run_options(const cf_capture *c, const platform *p, cf_argv *a)
{
    memset(a, 0, sizeof(*a));
    add(a, "-p");
    add(a, c->platform);
    add(a, "--enable-dep-gen");
    if (c->scope_stats)
        add(a, "--enable-scope-stats");
    if (c->swimlane_level) {
        snprintf(a->buf[a->nbuf], 128, "--enable-chip-swimlane=%d", c->swimlane_level);
        add(a, a->buf[a->nbuf++]);
    }
    if (c->threads && c->threads != p->aicpu_threads) {
        snprintf(a->buf[a->nbuf], 128, "%ld", c->threads);
        add(a, "--aicpu-thread-num");
        add(a, a->buf[a->nbuf++]);
    }
    /* the ring sizes travel in the imported graph's run_config (which, as the runtime, takes a heap
     * of any size from 1024 bytes: heap_rebase's ring 1 has 1572864) */
    if (c->scope_stats) {
        if (c->tensormap && c->tensormap != p->tensormap_pool && a->nbuf < 8) {
            snprintf(a->buf[a->nbuf], 128, "tensormap_pool=%" PRId64, c->tensormap);
            add(a, "--set");
            add(a, a->buf[a->nbuf++]);
        }
    }
}

/* Runs `ptosim run GRAPH -o WORKDIR --quiet OPTIONS` as a child (its stdout to our stderr, so the report
 * on stdout stays clean), handing it lock_fd (WORKDIR's lock, which this process holds; -1: none).
 * Returns its exit status, or CONFORM_EXIT_FAILED. */
static int run_child(const char *graph, const char *work, const cf_argv *opts, int lock_fd)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (n <= 0) {
        msgtext_print(stderr, "ptosim conform: cannot find this program (/proc/self/exe): %s", strerror(errno));
        return CONFORM_EXIT_FAILED;
    }
    exe[n] = '\0';
    const char *av[64];
    int k = 0;
    av[k++] = exe;
    av[k++] = "run";
    av[k++] = graph;
    av[k++] = "-o";
    av[k++] = work;
    av[k++] = "--quiet";
    for (int i = 0; i < opts->n; i++)
        av[k++] = opts->av[i];
    av[k] = NULL;
    char held[32];
    snprintf(held, sizeof(held), "%d", lock_fd);
    if (lock_fd >= 0 && setenv(RUN_HELD_LOCK_ENV, held, 1) != 0) {
        fprintf(stderr, "ptosim conform: out of memory\n");
        return CONFORM_EXIT_FAILED;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid != 0 && lock_fd >= 0) /* the child keeps it for its exec */
        unsetenv(RUN_HELD_LOCK_ENV);
    if (pid < 0) {
        msgtext_print(stderr, "ptosim conform: cannot start a process: %s", strerror(errno));
        return CONFORM_EXIT_FAILED;
    }
    if (pid == 0) {
        int fi = open("/dev/null", O_RDONLY);
        if (fi < 0 || dup2(fi, 0) < 0 || dup2(2, 1) < 0 || (lock_fd >= 0 && fcntl(lock_fd, F_SETFD, 0) != 0))
            _exit(127);
        execv(exe, (char *const *)av);
        dprintf(2, "ptosim conform: cannot run %s: %s\n", exe, strerror(errno));
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) {
            msgtext_print(stderr, "ptosim conform: waitpid: %s", strerror(errno));
            return CONFORM_EXIT_FAILED;
        }
    if (WIFSIGNALED(st)) {
        msgtext_print(stderr, "ptosim conform: the run was killed by signal %d", WTERMSIG(st));
        return CONFORM_EXIT_FAILED;
    }
    return WEXITSTATUS(st);
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

/* Writes the graph made from the capture into o, opened at graph (WORK/graph.jsonl) and left to commit
 * (checked: its files passed the capture's stream check, or are being checked meanwhile, so the import only
 * finds their lists); notes and warnings to warn. Returns 0, or an exit status with a message in err (o then
 * aborted). */
static int import_begin(const char *capture, const char *graph, bool checked, FILE *warn, outfile *o, char *err,
                        size_t errlen)
{
    FILE *f = outfile_open(o, graph, err, errlen);
    if (!f)
        return CONFORM_EXIT_FAILED;
    import_opts opt = {.costs = IMPORT_COSTS_AUTO, .checked = checked, .warn = warn};
    if (import_capture(capture, &opt, f, err, errlen) != 0) {
        outfile_abort(o);
        return EXIT_GRAPH;
    }
    return 0;
}

/* The work folder: TMPDIR/ptosim-conform-XXXXXX (own), or the one given (made when missing, *made), locked
 * against another conform or run into it for the whole import, run and comparison (*lock_fd: the folder,
 * open with the lock held; -1 for one of its own or a file system without locks, after a warning). Returns
 * 0; -1 with a message in err; -2 when another process holds the folder (message in err). */
static int work_dir(const char *given, char *tmp, size_t tmplen, bool *made, int *lock_fd, char *err,
                    size_t errlen)
{
    *made = false;
    *lock_fd = -1;
    if (!given) {
        const char *t = getenv("TMPDIR");
        snprintf(tmp, tmplen, "%s/ptosim-conform-XXXXXX", t && *t ? t : "/tmp");
        if (!mkdtemp(tmp))
            return cf_fail(err, errlen, "cannot make a folder %s: %s", tmp, strerror(errno));
        return 0;
    }
    struct stat st;
    bool was = lstat(given, &st) == 0;
    if (outfile_mkdirs(given, err, errlen) != 0)
        return -1;
    *made = !was;
    int fd = open(given, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return cf_fail(err, errlen, "%s: cannot open the work dir: %s", given, strerror(errno));
    if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
        *lock_fd = fd;
        return 0;
    }
    int e = errno;
    close(fd);
    if (e == EWOULDBLOCK) { /* the other one's folder: it stays */
        *made = false;
        cf_fail(
            err, errlen,
            "%s: another ptosim conform or run is using this folder; wait for it to end or give another -o",
            given);
        return -2;
    }
    /* NFS without locks, say: go on, unprotected */
    msgtext_print(stderr, "ptosim conform: warning: %s: cannot lock the work dir (%s); do not let two conforms use it "
                    "at once",
            given, strerror(e));
    return 0;
}

int conform_main(int argc, char **argv)
{
    const char *capture = NULL, *work = NULL, *plat_name = NULL, *v = NULL;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            conform_usage(stdout);
            return EXIT_OK;
        }
        const char **slot = NULL;
        if (cli_short_is(a, "-o", &v) || cli_opt_is(a, "--work-dir", &v))
            slot = &work;
        else if (cli_short_is(a, "-p", &v) || cli_opt_is(a, "--platform", &v))
            slot = &plat_name;
        if (slot) {
            if (!v) {
                if (i + 1 >= argc) {
                    msgtext_print(stderr, "ptosim conform: %s: missing value", a);
                    return EXIT_USAGE;
                }
                v = argv[++i];
            }
            *slot = v;
        } else if (a[0] == '-' || capture) {
            msgtext_print(stderr, "ptosim conform: %s: %s", a,
                    a[0] == '-' ? "unknown option" : "one capture only");
            return EXIT_USAGE;
        } else {
            capture = a;
        }
    }
    if (!capture) {
        fputs("ptosim conform: missing CAPTURE_DIR\n", stderr);
        return EXIT_USAGE;
    }
    /* both folders are named: nothing below them is read or written through a link (before the thread
     * that reads the capture starts) */
    userdir_add(capture);
    if (work)
        userdir_add(work);
    char lerr[PATH_MAX + 256];
    if (import_check_links(capture, lerr, sizeof(lerr)) != 0) { /* as the import would, before anything */
        msgtext_print(stderr, "ptosim conform: %s", lerr);
        return EXIT_GRAPH;
    }
    char err[PATH_MAX + 2048], tmp[PATH_MAX], graph[PATH_MAX + 32], dfx[PATH_MAX + 32];
    char import_err[PATH_MAX + 2048] = "";
    bool own = !work, made = false, have_dir = false, spec = false, pending = false, kept = false;
    int rc, import_rc = 0;
    char *wtext = NULL;
    size_t wlen = 0;
    FILE *warn = NULL;
    outfile o;
    cf_capjob cj = {.dir = capture};
    cf_capture cap;
    /* The capture is checked (and digested for the comparison) on a second thread while this one imports it,
     * speculating that the check passes: the import trusts the files' syntax, as it does after the check.
     * Its graph is committed only once the capture and its platform have been read; when the check refuses
     * the files, the import is thrown away and everything goes as without a second thread. That needs the
     * work folder now: when it cannot be had, it is asked for again below, where its message comes. */
    bool ran = false;
    int lock_fd = -1, wrc = work_dir(work, tmp, sizeof(tmp), &made, &lock_fd, err, sizeof(err));
    if (wrc == -2) { /* another conform's, at once: nothing of the capture is read */
        msgtext_print(stderr, "ptosim conform: %s", err);
        return CONFORM_EXIT_FAILED;
    }
    if (wrc == 0) {
        have_dir = true;
        snprintf(graph, sizeof(graph), "%s/graph.jsonl", own ? tmp : work);
        warn = open_memstream(&wtext, &wlen);
        pthread_t t;
        spec = warn && cf_thread_start(&t, capjob_main, &cj);
        if (spec) {
            import_rc = import_begin(capture, graph, true, warn, &o, import_err, sizeof(import_err));
            pending = import_rc == 0;
            pthread_join(t, NULL);
            ran = true;
            if (cj.loaded != 0) {
                if (pending)
                    outfile_abort(&o);
                pending = spec = false;
            }
        }
        if (!spec) { /* made again below, after the capture's and the platform's messages */
            if (own || made)
                rmdir(own ? tmp : work);
            if (lock_fd >= 0)
                close(lock_fd);
            lock_fd = -1;
            have_dir = made = false;
        }
    }
    if (!ran)
        capjob_run(&cj);
    rc = read_capture(&cj, plat_name, &cap, &kept, err, sizeof(err));
    char pdir[PATH_MAX];
    run_platform_dir(pdir, sizeof(pdir));
    platform plat;
    int prc = rc == 0 ? platform_load(&plat, cap.platform, pdir, err, sizeof(err)) : 0;
    if (prc != 0) /* out of memory is not a bad platform: conform itself failed (its 1 means "different") */
        rc = prc == PLATFORM_OOM ? CONFORM_EXIT_FAILED : EXIT_USAGE;
    cf_argv opts;
    if (rc == 0) {
        run_options(&cap, &plat, &opts);
        printf("conform: %s: ptosim run with", capture);
        for (int i = 0; i < opts.n; i++)
            printf(" %s", opts.av[i]);
        putchar('\n');
        if (!have_dir) {
            if (work_dir(work, tmp, sizeof(tmp), &made, &lock_fd, err, sizeof(err)) != 0)
                rc = CONFORM_EXIT_FAILED;
            have_dir = rc == 0;
        }
    }
    if (rc != 0) {
        msgtext_print(stderr, "ptosim conform: %s", err);
        goto done;
    }
    made = false; /* from here on, the folder stays as the run leaves it */
    const char *w = own ? tmp : work;
    snprintf(graph, sizeof(graph), "%s/graph.jsonl", w);
    snprintf(dfx, sizeof(dfx), "%s/dfx_outputs", w);
    if (spec) { /* the import's notes, where they come without a second thread */
        if (fflush(warn) == 0 && wlen)
            fwrite(wtext, 1, wlen, stderr);
        if (pending && outfile_commit(&o, import_err, sizeof(import_err)) != 0)
            import_rc = CONFORM_EXIT_FAILED;
        pending = false;
    } else {
        import_rc = import_begin(capture, graph, kept, stderr, &o, import_err, sizeof(import_err));
        if (import_rc == 0 && outfile_commit(&o, import_err, sizeof(import_err)) != 0)
            import_rc = CONFORM_EXIT_FAILED;
    }
    rc = import_rc;
    if (rc != 0)
        msgtext_print(stderr, "ptosim conform: %s", import_err);
    if (rc == 0) {
        int st = run_child(graph, w, &opts, lock_fd);
        if (st != EXIT_OK) {
            /* 2-6 keep run's meanings (a graph run refuses is a capture that does not import: 3) */
            rc = st >= EXIT_USAGE && st <= EXIT_STALLED ? st : CONFORM_EXIT_FAILED;
            msgtext_print(stderr, "ptosim conform: %s: the run of %s ended with exit status %d", capture, graph,
                    st);
        }
    }
    if (rc == 0) {
        fflush(stdout);
        long n = cf_compare_with(kept ? &cj.s : NULL, kept ? &cj.dig : NULL, capture, dfx, stdout, err,
                                 sizeof(err));
        kept = false; /* cf_compare_with took the check and its digest */
        if (n < 0) {
            msgtext_print(stderr, "ptosim conform: %s", err);
            rc = CONFORM_EXIT_FAILED;
        } else {
            rc = n ? CONFORM_EXIT_DIFFERENT : EXIT_OK;
        }
    }
done:
    if (pending) /* a capture or platform refused after the import: no trace of it */
        outfile_abort(&o);
    if (kept) {
        cf_digest_free(&cj.dig.g);
        cf_sdfx_free(&cj.s);
    }
    if (warn)
        fclose(warn);
    free(wtext);
    if (have_dir && own)
        nftw(tmp, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    else if (have_dir && made)
        rmdir(work);
    if (lock_fd >= 0) /* the folder is another conform's or run's again */
        close(lock_fd);
    return rc;
}
