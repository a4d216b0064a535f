/* conform_compare.c - cf_: conform_compare: the files compared in turn, difference lines, the verdict. */
/* What every comparison writes (difference and information lines, values as they show, the verdict) and
 * the comparison of two folders that calls conform_read.c, conform_deps.c and conform_scope_swim.c. */
#include "conform.h"

#include <cJSON.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../model/base/msg_text.h"
#include "../json/json_span.h"
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

/* ---- the lines a comparison writes ---- */

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

static void tail_then(void *arg)
{
    tail_compare(arg);
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
    long total = -1, dd = 0;
    cf_file fd = {report, "deps.json", 0, NULL, false};
    /* the scope stats and swimlane beside deps.json, into a report of their own when one can be had: compared
     * on the thread that checks ptosim's, as soon as that check passed, while this one checks and digests
     * ptosim's deps.json */
    cf_tail tl = {.fs = {report, "scope_stats.jsonl", 0, NULL, false},
                  .fw = {report, "chip_swimlane_records.json", 0, NULL, false},
                  .r = &r,
                  .s = &s};
    char *tail_text = NULL;
    size_t tail_len = 0;
    FILE *tail_out = rl == 0 ? open_memstream(&tail_text, &tail_len) : NULL;
    if (tail_out)
        tl.fs.out = tl.fw.out = tail_out;
    cf_digest sg;
    memset(&sg, 0, sizeof(sg));
    int sl = rl == 0 ? cf_sdfx_load_with(&s, sim_dir, false, true, &sg, tail_out ? tail_then : NULL, &tl) : -1;
    if ((rl != 0 || sl != 0) && rjob)
        cf_digest_free(cf_digest_join(rjob));
    if (rl != 0 || sl != 0) {
        if (tail_out)
            fclose(tail_out);
        free(tail_text);
        cf_sdfx_free(&r);
        if (rl == 0)
            cf_sdfx_free(&s);
        return compare_trees(real_dir, sim_dir, report, err, errlen);
    }
    cf_digest_job own;
    if (!s.has_deps) {
        if (rjob)
            cf_digest_free(cf_digest_join(rjob));
        cf_diff(&fd, "in the capture, not in ptosim's output");
    } else {
        cf_arena arena;
        cf_sim_arena(s.scope_header, sim_dir, &arena, report);
        /* ptosim's digest made as its check read it; the capture's made already, or now on a thread of its
         * own; the walk in step only when they do not agree */
        if (!rjob) {
            cf_digest_start(&own, &r);
            rjob = &own;
        }
        cf_digest *rg = cf_digest_join(rjob);
        bool agree = cf_digests_agree(rg, &sg, &arena);
        cf_digest_free(rg);
        atomic_store(&cf_walked, !agree);
        if (!agree && cf_scmp_deps(report, &dd, &r, &s, &arena, err, errlen) != 0)
            goto out;
        fd.diffs = dd;
    }
    more(&fd);
    if (!tail_out) /* no report of its own: compared here, after deps.json's lines */
        tail_compare(&tl);
    else if (fflush(tail_out) == 0 && tail_len)
        fwrite(tail_text, 1, tail_len, report);
    if (tl.rc != 0) {
        cf_fail(err, errlen, "%s", tl.err);
        goto out;
    }
    total = verdict(report, real_dir, &fd, &tl.fs, &tl.fw,
                    (long[3]){r.lists[CF_TASKS].n, r.lists[CF_EDGES].n, r.lists[CF_TENSORS].n},
                    r.has_scope ? (long)r.scope_n - 1 : -1, r.has_swim);
out:
    cf_digest_free(&sg);
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
