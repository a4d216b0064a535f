/* diff.c - `ptosim diff A B`: two run folders' inputs, figures and makespan parts, side by side. */
/* Each run's ptosim_run.json holds its makespan cut into named parts that add up to it exactly (in whole
 * nanoseconds, model/analysis/makespan_parts.h); the change is attributed part by part, a part on one side
 * only counting in full, so the changes add up to the makespan change exactly. */
#include "diff.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../model/base/msg_text.h"
#include "../../model/base/outfile.h"
#include "../../model/base/readall.h"
#include "../../model/base/userdir.h"
#include "../cli/cli.h"
#include "../report/report_html.h"

static void usage(FILE *out)
{
    fputs("usage: ptosim diff A B [--json] [-o DIR]\n"
          "\n"
          "What differs between two run folders (ptosim run -o DIR, a sweep's points/NNNN, a conform work\n"
          "folder): the inputs (graph, task counts, knobs, platform values, kernels added, removed or\n"
          "re-priced), and the makespan change from A to B attributed to named parts -- kernel time on the\n"
          "path that ended each run per kernel, shared-HBM stretch, scheduler and dispatch gaps, the args\n"
          "dump, orchestrator submission and its waits per ring -- whose changes add up to it exactly; then\n"
          "per-kernel execution totals, ring peaks and the bound of each side.\n"
          "\n"
          "-o DIR also writes DIR/diff.html: the two runs' swimlanes on one time axis, the attribution as a\n"
          "waterfall from A's makespan to B's, and the tables; the text (or JSON) still goes to stdout.\n"
          "\n"
          "options:\n",
          out);
    opt_help(&diff_options, out);
    fputs("\n"
          "exit status: 0 printed; 1 out of memory or a write failed; 2 bad command line, A or B is no run\n"
          "folder, or -o DIR holds other files; 3 a malformed ptosim_run.json (or, with -o, a file of a run's\n"
          "dfx_outputs)\n",
          out);
}

typedef struct diff_args {
    const char *dir[2];
    bool json;
    const char *out; /* -o DIR, or NULL */
} diff_args;

static int diff_operand(const char *word, void *dest, char *err, size_t errlen)
{
    diff_args *a = dest;
    if (a->dir[0] && a->dir[1]) {
        snprintf(err, errlen, "%s: two run folders at a time (A and B)", word);
        return -1;
    }
    a->dir[a->dir[0] ? 1 : 0] = word;
    return 0;
}

static const opt_def DIFF_OPTS[] = {
    {.name = "json",
     .arg = OPT_FLAG,
     .help = "one JSON object on stdout (makespan_delta_us, parts, inputs, kernels, rings, bound)",
     .store = opt_store_true,
     .off = offsetof(diff_args, json)},
    {.name = "work-dir",
     .letter = 'o',
     .arg = OPT_VALUE,
     .kind = OPT_KIND_DIR,
     .meta = "DIR",
     .help = "also write DIR/diff.html (DIR made when missing; one holding anything but an earlier\n"
             "diff.html is refused): the swimlanes on one time axis, the attribution as a waterfall",
     .store = opt_store_text,
     .off = offsetof(diff_args, out),
     .missing = "%s: missing value (the folder the page goes into)"},
};

const opt_table diff_options = {
    .cmd = "diff",
    .opts = DIFF_OPTS,
    .nopts = OPT_COUNT(DIFF_OPTS),
    .operand_kind = OPT_KIND_DIR,
    .operand = diff_operand,
    .unknown = "%s: unknown option",
};

/* One side: its folder and its ptosim_run.json. */
typedef struct side {
    const char *dir;
    cJSON *j;
} side;

/* Reads DIR/ptosim_run.json. Returns 0, or an exit status with the message in err. */
static int load(const char *dir, side *s, char *err, size_t errlen)
{
    s->dir = dir;
    s->j = NULL;
    struct stat st;
    if (lstat(dir, &st) != 0) {
        snprintf(err, errlen, "%s: %s", dir, strerror(errno));
        return EXIT_USAGE;
    }
    if (S_ISLNK(st.st_mode)) {
        snprintf(err, errlen, "%s: a symbolic link; give the run folder itself", dir);
        return EXIT_USAGE;
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(err, errlen,
                 "%s: not a run folder (a folder ptosim run -o, a sweep point or ptosim conform wrote)", dir);
        return EXIT_USAGE;
    }
    char path[4096];
    if ((size_t)snprintf(path, sizeof(path), "%s/ptosim_run.json", dir) >= sizeof(path)) {
        snprintf(err, errlen, "%.200s...: path too long", dir);
        return EXIT_USAGE;
    }
    if (lstat(path, &st) != 0) {
        if (errno == ENOENT)
            snprintf(err, errlen, "%s: no ptosim_run.json: not a run folder (ptosim run -o DIR writes one)",
                     dir);
        else
            snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return EXIT_USAGE;
    }
    if (S_ISLNK(st.st_mode)) {
        snprintf(err, errlen, "%s: a symbolic link; ptosim diff reads only the file a run wrote", path);
        return EXIT_USAGE;
    }
    FILE *f = readall_open(path);
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, readall_why(errno));
        return EXIT_USAGE;
    }
    size_t len;
    char why[160] = "";
    char *text = readall(f, READALL_RUN, &len, why, sizeof(why));
    int e = errno;
    fclose(f);
    if (!text) {
        snprintf(err, errlen, "%s: %s", path, why[0] ? why : strerror(e));
        return e == ENOMEM ? EXIT_INTERNAL : EXIT_GRAPH;
    }
    s->j = cJSON_ParseWithLength(text, len);
    free(text);
    if (!s->j || !cJSON_IsObject(s->j) || !cJSON_IsNumber(cJSON_GetObjectItem(s->j, "makespan_us"))) {
        cJSON_Delete(s->j);
        s->j = NULL;
        snprintf(err, errlen, "%s: not a ptosim_run.json (no makespan_us)", path);
        return EXIT_GRAPH;
    }
    return 0;
}

static const cJSON *get(const cJSON *o, const char *k)
{
    return cJSON_GetObjectItemCaseSensitive(o, k);
}

/* A value as compact JSON text, "-" when absent (the caller frees). */
static char *text_of(const cJSON *v)
{
    return v ? cJSON_PrintUnformatted(v) : strdup("-");
}

/* Whole nanoseconds as microseconds with three decimals, exactly. */
static void us_text(int64_t ns, char *out, size_t n)
{
    uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
    snprintf(out, n, "%s%" PRIu64 ".%03" PRIu64, ns < 0 ? "-" : "", a / 1000, a % 1000);
}

/* The same with a sign always. */
static void delta_text(int64_t ns, char *out, size_t n)
{
    if (n < 2)
        return;
    out[0] = '+';
    us_text(ns, out + (ns >= 0), n - 1);
}

/* A side's parts: NULL with *why set when it has none. */
static const cJSON *parts_of(const side *s, int64_t *makespan_ns, const char **why)
{
    const cJSON *mp = get(s->j, "makespan_parts");
    *why = NULL;
    if (!mp) {
        *why = "its ptosim_run.json has no makespan_parts (an older ptosim wrote it); re-run it with this "
               "ptosim";
        return NULL;
    }
    const cJSON *ms = get(mp, "makespan_ns"), *p = get(mp, "parts");
    if (!cJSON_IsNumber(ms) || !cJSON_IsArray(p)) {
        const cJSON *w = get(mp, "why");
        *why = cJSON_IsString(w) ? w->valuestring : "its makespan_parts hold no parts";
        return NULL;
    }
    *makespan_ns = (int64_t)ms->valuedouble;
    return p;
}

/* One attributed part. */
typedef struct dpart {
    const char *what;
    int64_t a, b;
} dpart;

static int dpart_cmp(const void *x, const void *y)
{
    const dpart *p = x, *q = y;
    int64_t dp = p->b - p->a, dq = q->b - q->a;
    uint64_t ap = dp < 0 ? (uint64_t)0 - (uint64_t)dp : (uint64_t)dp;
    uint64_t aq = dq < 0 ? (uint64_t)0 - (uint64_t)dq : (uint64_t)dq;
    if (ap != aq)
        return ap < aq ? 1 : -1;
    return strcmp(p->what, q->what);
}

/* Adds side k's parts into v (n parts so far, room for cap). Returns -1 on a malformed part. */
static int add_parts(const cJSON *parts, int k, dpart *v, size_t *n)
{
    const cJSON *p;
    cJSON_ArrayForEach(p, parts)
    {
        const cJSON *w = get(p, "what"), *ns = get(p, "ns");
        if (!cJSON_IsString(w) || !cJSON_IsNumber(ns))
            return -1;
        size_t i = 0;
        while (i < *n && strcmp(v[i].what, w->valuestring) != 0)
            i++;
        if (i == *n)
            v[(*n)++] = (dpart){.what = w->valuestring};
        if (k)
            v[i].b += (int64_t)ns->valuedouble;
        else
            v[i].a += (int64_t)ns->valuedouble;
    }
    return 0;
}

/* A printed JSON string (for --json and the table). */
static void put_str(FILE *out, const char *s)
{
    cJSON *t = cJSON_CreateString(s ? s : "");
    char *x = t ? cJSON_PrintUnformatted(t) : NULL;
    fputs(x ? x : "\"\"", out);
    free(x);
    cJSON_Delete(t);
}

/* The members of object key of both sides whose values differ: printed, or as a JSON list. */
static void diff_members(const side *s, const char *key, const char *sub, const char *label, bool json,
                         bool *first, FILE *out)
{
    const cJSON *oa = get(s[0].j, key), *ob = get(s[1].j, key);
    if (sub) {
        oa = get(oa, sub);
        ob = get(ob, sub);
    }
    for (int pass = 0; pass < 2; pass++) {
        const cJSON *o = pass ? ob : oa, *other = pass ? oa : ob;
        const cJSON *m;
        cJSON_ArrayForEach(m, o)
        {
            const cJSON *x = get(other, m->string);
            if (pass && x)
                continue; /* listed in the first pass */
            if (x && cJSON_Compare(m, x, true))
                continue;
            char *ta = text_of(pass ? x : m), *tb = text_of(pass ? m : x);
            if (json) {
                fputs(*first ? "{\"what\": " : ", {\"what\": ", out);
                char name[256];
                snprintf(name, sizeof(name), "%s.%s", label, m->string);
                put_str(out, name);
                outfile_printf(out, ", \"a\": %s, \"b\": %s}", ta ? ta : "null", tb ? tb : "null");
            } else {
                outfile_printf(out, "  %s %s: %s -> %s\n", label, m->string, ta ? ta : "?", tb ? tb : "?");
            }
            *first = false;
            free(ta);
            free(tb);
        }
    }
}

/* A kernel row of the side's "kernels" by name, or NULL. */
static const cJSON *kernel_named(const side *s, const char *name)
{
    const cJSON *k;
    cJSON_ArrayForEach(k, get(s->j, "kernels"))
    {
        const cJSON *n = get(k, "name");
        if (cJSON_IsString(n) && strcmp(n->valuestring, name) == 0)
            return k;
    }
    return NULL;
}

static double num(const cJSON *o, const char *k)
{
    const cJSON *v = get(o, k);
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

/* A kernel's mean time per execution on an idle memory system, in us (its price). */
static double price_of(const cJSON *k)
{
    double n = num(k, "executions"), st = num(k, "contention_stretch");
    return n > 0 && st > 0 ? num(k, "core_time_us") / st / n : 0;
}

/* Kernels added, removed and re-priced (the mean idle-memory time per execution differs at 1 ns). */
static void diff_kernels(const side *s, bool json, FILE *out)
{
    static const char *const verb[3] = {"added", "removed", "repriced"};
    for (int what = 0; what < 3; what++) {
        if (json)
            outfile_printf(out, "%s\"%s\": [", what ? ", " : "", verb[what]);
        bool first = true;
        const side *from = &s[what == 1 ? 0 : 1], *to = &s[what == 1 ? 1 : 0];
        const cJSON *k;
        cJSON_ArrayForEach(k, get(from->j, "kernels"))
        {
            const cJSON *n = get(k, "name");
            if (!cJSON_IsString(n))
                continue;
            const cJSON *o = kernel_named(to, n->valuestring);
            char pa[32], pb[32];
            if (what < 2 && o)
                continue;
            if (what == 2) {
                if (!o)
                    continue;
                snprintf(pa, sizeof(pa), "%.3f", price_of(o)); /* o is A's row, k B's */
                snprintf(pb, sizeof(pb), "%.3f", price_of(k));
                if (strcmp(pa, pb) == 0)
                    continue;
            }
            if (json) {
                fputs(first ? "" : ", ", out);
                if (what == 2) {
                    fputs("{\"kernel\": ", out);
                    put_str(out, n->valuestring);
                    outfile_printf(out, ", \"a_us_per_execution\": %s, \"b_us_per_execution\": %s}", pa, pb);
                } else {
                    put_str(out, n->valuestring);
                }
            } else if (what == 2) {
                outfile_printf(out, "  kernel %s re-priced: %s -> %s us per execution (idle memory)\n",
                               n->valuestring, pa, pb);
            } else {
                outfile_printf(out, "  kernel %s %s\n", n->valuestring, verb[what]);
            }
            first = false;
        }
        if (json)
            fputs("]", out);
    }
}

/* Are the two graphs the same content (the SHA-256 each run recorded of its graph's text)? 1 yes, 0 no, -1
 * unknown (a run an older ptosim wrote records none). */
static int same_graph(const side *s)
{
    const cJSON *ha = get(get(s[0].j, "graph"), "sha256"), *hb = get(get(s[1].j, "graph"), "sha256");
    if (!cJSON_IsString(ha) || !cJSON_IsString(hb))
        return -1;
    return strcmp(ha->valuestring, hb->valuestring) == 0;
}

static const char *bound_text(const side *s)
{
    const cJSON *t = get(get(s->j, "bound"), "text");
    return cJSON_IsString(t) ? t->valuestring : "-";
}

/* Per-kernel execution totals (core time, us) of both sides, by A's order then B's new ones. */
static void kernel_totals(const side *s, bool json, FILE *out)
{
    bool first = true;
    for (int pass = 0; pass < 2; pass++) {
        const cJSON *k;
        cJSON_ArrayForEach(k, get(s[pass].j, "kernels"))
        {
            const cJSON *n = get(k, "name");
            if (!cJSON_IsString(n))
                continue;
            const cJSON *o = kernel_named(&s[1 - pass], n->valuestring);
            if (pass && o)
                continue;
            const cJSON *ka = pass ? o : k, *kb = pass ? k : o;
            if (json) {
                fputs(first ? "{\"kernel\": " : ", {\"kernel\": ", out);
                put_str(out, n->valuestring);
                outfile_printf(out,
                               ", \"a_core_us\": %.6f, \"b_core_us\": %.6f, \"a_executions\": %.0f, "
                               "\"b_executions\": %.0f}",
                               num(ka, "core_time_us"), num(kb, "core_time_us"), num(ka, "executions"),
                               num(kb, "executions"));
            } else {
                outfile_printf(out, "  %-40s %14.3f %14.3f %+14.3f\n", n->valuestring,
                               num(ka, "core_time_us"), num(kb, "core_time_us"),
                               num(kb, "core_time_us") - num(ka, "core_time_us"));
            }
            first = false;
        }
    }
}

static const char *const RING_PEAKS[] = {"task_window_peak", "heap_peak", "dep_pool_peak",
                                         "fanin_spill_peak"};

/* Ring peaks of both sides, ring by ring. */
static void ring_peaks(const side *s, bool json, FILE *out)
{
    const cJSON *ra = get(s[0].j, "rings"), *rb = get(s[1].j, "rings");
    int n = cJSON_GetArraySize(ra) > cJSON_GetArraySize(rb) ? cJSON_GetArraySize(ra) : cJSON_GetArraySize(rb);
    for (int i = 0; i < n; i++) {
        const cJSON *a = cJSON_GetArrayItem(ra, i), *b = cJSON_GetArrayItem(rb, i);
        if (json)
            outfile_printf(out, "%s{\"ring\": %d", i ? ", " : "", i);
        else
            outfile_printf(out, "  ring %d:", i);
        for (size_t p = 0; p < sizeof(RING_PEAKS) / sizeof(RING_PEAKS[0]); p++) {
            double va = num(a, RING_PEAKS[p]), vb = num(b, RING_PEAKS[p]);
            if (json)
                outfile_printf(out, ", \"%s\": [%.0f, %.0f]", RING_PEAKS[p], va, vb);
            else
                outfile_printf(out, " %s %.0f -> %.0f%s", RING_PEAKS[p], va, vb,
                               p + 1 < sizeof(RING_PEAKS) / sizeof(RING_PEAKS[0]) ? "," : "\n");
        }
        if (json)
            fputs("}", out);
    }
}

/* The makespans (whole ns) and the parts sorted by how much they moved: *v (the caller frees; NULL with the
 * reason in cannot when a side has no parts). Returns 0, or an exit status with the message printed. */
static int attribute(const side *s, int64_t ms[2], dpart **v, size_t *n, char *cannot, size_t cannotlen)
{
    const char *why[2];
    const cJSON *parts[2];
    for (int k = 0; k < 2; k++)
        parts[k] = parts_of(&s[k], &ms[k], &why[k]);
    /* the makespans in whole nanoseconds: the parts' own, else makespan_us's */
    for (int k = 0; k < 2; k++)
        if (!parts[k])
            ms[k] = (int64_t)(num(s[k].j, "makespan_us") * 1000.0);
    size_t na = cJSON_GetArraySize(parts[0]), nb = cJSON_GetArraySize(parts[1]);
    *v = NULL;
    *n = 0;
    cannot[0] = '\0';
    if (!parts[0] || !parts[1]) {
        int k = parts[0] ? 1 : 0;
        snprintf(cannot, cannotlen, "cannot attribute the makespan change: %s (%s): %s", k ? "B" : "A",
                 s[k].dir, why[k]);
        return 0;
    }
    *v = calloc(na + nb + 1, sizeof(**v));
    if (!*v)
        return EXIT_INTERNAL;
    if (add_parts(parts[0], 0, *v, n) != 0 || add_parts(parts[1], 1, *v, n) != 0) {
        free(*v);
        *v = NULL;
        msgtext_print(stderr, "ptosim diff: %s: a makespan part without what or ns", s[0].dir);
        return EXIT_GRAPH;
    }
    int64_t sa = 0, sb = 0;
    for (size_t i = 0; i < *n; i++)
        sa += (*v)[i].a, sb += (*v)[i].b;
    if (sa != ms[0] || sb != ms[1]) {
        free(*v);
        *v = NULL;
        msgtext_print(stderr, "ptosim diff: %s: its makespan parts do not add up to its makespan_ns",
                      sa != ms[0] ? s[0].dir : s[1].dir);
        return EXIT_GRAPH;
    }
    qsort(*v, *n, sizeof(**v), dpart_cmp);
    return 0;
}

/* The text table's input lines (what differs: graph, tasks, knobs, platform values, kernels). */
static void text_inputs(const side *s, FILE *out)
{
    const cJSON *ga = get(s[0].j, "graph"), *gb = get(s[1].j, "graph");
    const cJSON *tka = get(s[0].j, "tasks"), *tkb = get(s[1].j, "tasks");
    char *x[4] = {text_of(ga), text_of(gb), text_of(tka), text_of(tkb)};
    if (!x[0] || !x[1] || !x[2] || !x[3])
        outfile_note_failure(); /* out of memory: the text would say less than the runs */
    else {
        if (strcmp(x[0], x[1]) != 0) {
            outfile_printf(out, "  graph: %s -> %s\n", x[0], x[1]);
            int same = same_graph(s);
            fputs(same < 0 ? "  graph content: unknown (a run without the graph's sha256: a graph over 32 MiB, or "
                             "an older ptosim)\n"
                  : same   ? "  graph content: the same (equal sha256)\n"
                           : "  graph content: differs (the sha256 differ)\n",
                  out);
        }
        if (strcmp(x[2], x[3]) != 0)
            outfile_printf(out, "  tasks: %s -> %s\n", x[2], x[3]);
    }
    for (int i = 0; i < 4; i++)
        free(x[i]);
    bool first = true;
    diff_members(s, "config", NULL, "config", false, &first, out);
    diff_members(s, "platform", "params", "platform", false, &first, out);
    diff_kernels(s, false, out);
}

static void text_kernels(const side *s, FILE *out)
{
    outfile_printf(out, "  %-40s %14s %14s %14s\n", "kernel", "A", "B", "change");
    kernel_totals(s, false, out);
}

static void text_bound(const side *s, FILE *out)
{
    outfile_printf(out, "  A: %s\n  B: %s\n", bound_text(&s[0]), bound_text(&s[1]));
}

static int report(const side *s, const dpart *v, size_t n, const int64_t ms[2], const char *cannot, bool json,
                  FILE *out)
{
    char ta[40], tb[40], td[40];
    us_text(ms[0], ta, sizeof(ta));
    us_text(ms[1], tb, sizeof(tb));
    delta_text(ms[1] - ms[0], td, sizeof(td));
    const cJSON *ga = get(s[0].j, "graph"), *gb = get(s[1].j, "graph");
    const cJSON *tka = get(s[0].j, "tasks"), *tkb = get(s[1].j, "tasks");
    if (json) {
        fputs("{\"a\": ", out);
        put_str(out, s[0].dir);
        fputs(", \"b\": ", out);
        put_str(out, s[1].dir);
        outfile_printf(out, ",\n \"makespan_a_us\": %s, \"makespan_b_us\": %s, \"makespan_delta_us\": %s,\n",
                       ta, tb, td[0] == '+' ? td + 1 : td);
        if (v) {
            fputs(" \"attribution\": null,\n \"parts\": [", out);
            for (size_t i = 0; i < n; i++) {
                char pa[40], pb[40], pd[40];
                us_text(v[i].a, pa, sizeof(pa));
                us_text(v[i].b, pb, sizeof(pb));
                us_text(v[i].b - v[i].a, pd, sizeof(pd));
                fputs(i ? ",\n  {\"what\": " : "\n  {\"what\": ", out);
                put_str(out, v[i].what);
                outfile_printf(out, ", \"us\": %s, \"a_us\": %s, \"b_us\": %s}", pd, pa, pb);
            }
            fputs("],\n", out);
        } else {
            fputs(" \"attribution\": ", out);
            put_str(out, cannot);
            fputs(",\n \"parts\": null,\n", out);
        }
        fputs(" \"inputs\": {\"graph\": [", out);
        char *x[6] = {text_of(ga), text_of(gb), text_of(tka), text_of(tkb), NULL, NULL};
        int same = same_graph(s);
        outfile_printf(out, "%s, %s], \"graph_same_content\": %s, \"tasks\": [%s, %s], \"differences\": [",
                       x[0], x[1],
                       same < 0 ? "null"
                       : same   ? "true"
                                : "false",
                       x[2], x[3]);
        for (int i = 0; i < 4; i++)
            free(x[i]);
        bool first = true;
        diff_members(s, "config", NULL, "config", true, &first, out);
        diff_members(s, "platform", "params", "platform", true, &first, out);
        fputs("], \"kernels\": {", out);
        diff_kernels(s, true, out);
        fputs("}},\n \"kernels\": [", out);
        kernel_totals(s, true, out);
        fputs("],\n \"rings\": [", out);
        ring_peaks(s, true, out);
        fputs("],\n \"bound\": {\"a\": ", out);
        put_str(out, bound_text(&s[0]));
        fputs(", \"b\": ", out);
        put_str(out, bound_text(&s[1]));
        fputs("}}\n", out);
    } else {
        outfile_printf(out, "ptosim diff: A %s, B %s\n", s[0].dir, s[1].dir);
        fputs("inputs:\n", out);
        text_inputs(s, out);
        outfile_printf(out, "makespan: A %s us, B %s us, change %s us\n", ta, tb, td);
        if (v) {
            outfile_printf(out, "attribution (us; the changes add up to %s):\n", td);
            outfile_printf(out, "  %-52s %14s %14s %14s\n", "part", "A", "B", "change");
            for (size_t i = 0; i < n; i++) {
                char pa[40], pb[40], pd[40];
                us_text(v[i].a, pa, sizeof(pa));
                us_text(v[i].b, pb, sizeof(pb));
                delta_text(v[i].b - v[i].a, pd, sizeof(pd));
                outfile_printf(out, "  %-52s %14s %14s %14s\n", v[i].what, pa, pb, pd);
            }
            outfile_printf(out, "  %-52s %14s %14s %14s\n", "makespan", ta, tb, td);
            /* the dependency structure is no part of its own: it decides which tasks the path goes through */
            const cJSON *pa = get(get(s[0].j, "makespan_parts"), "path_tasks"),
                        *pb = get(get(s[1].j, "makespan_parts"), "path_tasks");
            if (cJSON_IsNumber(pa) && cJSON_IsNumber(pb))
                outfile_printf(out, "  tasks on the path: A %.0f, B %.0f\n", pa->valuedouble, pb->valuedouble);
        } else {
            outfile_printf(out, "%s\n", cannot);
        }
        fputs("kernel execution totals (core time, us):\n", out);
        text_kernels(s, out);
        fputs("ring peaks (A -> B):\n", out);
        ring_peaks(s, false, out);
        fputs("bound:\n", out);
        text_bound(s, out);
    }
    return EXIT_OK;
}

/* One of the text table's sections, rendered into memory for the page: the text (the caller frees), or NULL
 * when out of memory or a write failed. */
static char *text_section(const side *s, void (*draw)(const side *, FILE *))
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m)
        return NULL;
    unsigned long failed = outfile_print_failures();
    draw(s, m);
    bool bad = ferror(m) != 0;
    if (fclose(m) != 0 || bad || outfile_print_failures() != failed) {
        free(text);
        return NULL;
    }
    return text;
}

static void text_rings(const side *s, FILE *out)
{
    ring_peaks(s, false, out);
}

/* -o DIR: DIR/diff.html, the two swimlanes on one time axis and the attribution as a waterfall. */
static int page(const side *s, const dpart *v, size_t n, const int64_t ms[2], const char *cannot,
                const char *out, char *err, size_t errlen)
{
    rh_dpart *p = calloc(n + 1, sizeof(*p));
    char *inputs = text_section(s, text_inputs), *kernels = text_section(s, text_kernels),
         *rings = text_section(s, text_rings), *bound = text_section(s, text_bound);
    int rc = EXIT_INTERNAL;
    if (!p || !inputs || !kernels || !rings || !bound) {
        snprintf(err, errlen, "out of memory");
    } else {
        for (size_t i = 0; i < n; i++)
            p[i] = (rh_dpart){.what = v[i].what, .a_ns = v[i].a, .b_ns = v[i].b};
        rh_diff d = {.dir = {s[0].dir, s[1].dir},
                     .makespan_ns = {ms[0], ms[1]},
                     .parts = v ? p : NULL,
                     .nparts = n,
                     .cannot = cannot,
                     .inputs = inputs,
                     .kernels = kernels,
                     .rings = rings,
                     .bound = bound};
        rc = htmlrep_diff_write(&d, out, err, errlen);
    }
    free(p);
    free(inputs);
    free(kernels);
    free(rings);
    free(bound);
    return rc;
}

/* A folder as given, without its trailing slashes (into buf). */
static const char *trimmed(const char *dir, char *buf, size_t n)
{
    snprintf(buf, n, "%s", dir);
    for (size_t k = strlen(buf); k > 1 && buf[k - 1] == '/';)
        buf[--k] = '\0';
    return buf;
}

int diff_main(int argc, char **argv)
{
    diff_args a = {{NULL, NULL}, false, NULL};
    char err[8192];
    int rc = opt_parse(&diff_options, argc, argv, &a, NULL, NULL, err, sizeof(err));
    if (rc == 1) {
        usage(stdout);
        return EXIT_OK;
    }
    if (rc != 0) {
        msgtext_print(stderr, "ptosim diff: %s", err);
        return EXIT_USAGE;
    }
    if (!a.dir[1]) {
        fputs("ptosim diff: two run folders needed: ptosim diff A B\n", stderr);
        return EXIT_USAGE;
    }
    char out[4096];
    if (a.out) {
        /* named: nothing below them is read or written through a link */
        char d[2][4096];
        for (int k = 0; k < 2; k++)
            userdir_add(trimmed(a.dir[k], d[k], sizeof(d[k])));
        userdir_add(trimmed(a.out, out, sizeof(out)));
    }
    side s[2] = {{0}, {0}};
    for (int k = 0; k < 2; k++) {
        int st = load(a.dir[k], &s[k], err, sizeof(err));
        if (st != 0) {
            msgtext_print(stderr, "ptosim diff: %s", err);
            cJSON_Delete(s[0].j);
            return st;
        }
    }
    int64_t ms[2];
    dpart *v = NULL;
    size_t n = 0;
    char cannot[1024];
    rc = attribute(s, ms, &v, &n, cannot, sizeof(cannot));
    if (rc == EXIT_INTERNAL)
        fputs("ptosim diff: out of memory\n", stderr);
    /* the page first: a refused folder or a failed write leaves stdout empty */
    if (rc == EXIT_OK && a.out) {
        rc = page(s, v, n, ms, cannot, out, err, sizeof(err));
        if (rc != EXIT_OK)
            msgtext_print(stderr, "ptosim diff: %s", err);
    }
    if (rc == EXIT_OK)
        rc = report(s, v, n, ms, cannot, a.json, stdout);
    if (rc == EXIT_OK && a.out) { /* stderr: stdout is the table, or JSON; after it, read together */
        fflush(stdout);
        msgtext_print(stderr, "ptosim diff: wrote %s/diff.html", out);
    }
    free(v);
    cJSON_Delete(s[0].j);
    cJSON_Delete(s[1].j);
    return rc;
}
