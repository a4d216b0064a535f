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

#include "../../model/base/msg_text.h"
#include "../../model/base/outfile.h"
#include "../../model/base/userdir.h"
#include "../../model/chip/platform.h"
#include "../cli/cli.h"
#include "../import/import.h"
#include "../json/json_span.h"
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
