/* report_data_sweep.c - rd_: reading sweep.csv; the swept knobs and the makespan curves over them. */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../model/base/csv.h"
#include "../../model/base/readall.h"
#include "../../model/base/vec.h"
#include "report_data.h"
#include "report_data_int.h"

/* ------------------------------------------------------------------ */
/* sweep.csv                                                           */
/* ------------------------------------------------------------------ */

static const char *const KNOB_COLUMN[RD_KNOB_COLUMNS] = {"ring_task_window", "ring_heap", "ring_dep_pool",
                                                         "aicpu_thread_num"};
static const char *const BLOCKED_COLUMN[RD_RES_COUNT] = {"blocked_task_window_us", "blocked_heap_us",
                                                         "blocked_dep_pool_us", "blocked_tensormap_us"};

/* A non-negative number (microseconds). */
static bool parse_us(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return *s && !*end && !errno && *v >= 0 && *v == *v;
}

/* Cuts "a/b/c/d" in place into one part per ring; a single value stands for every ring. False for
 * another number of parts. */
static bool split_rings(char *s, char *part[RD_RINGS])
{
    int n = 0;
    part[n++] = s;
    for (char *p = s; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (n == RD_RINGS)
                return false;
            part[n++] = p + 1;
        }
    if (n != 1 && n != RD_RINGS)
        return false;
    for (int r = n; r < RD_RINGS; r++)
        part[r] = s;
    return true;
}

/* "a/b/c/d" microseconds per ring, or one value for every ring. */
static bool parse_ring_us(const char *s, double out[RD_RINGS])
{
    char copy[256], *part[RD_RINGS];
    rd_copy_str(copy, sizeof(copy), s);
    if (!split_rings(copy, part))
        return false;
    for (int r = 0; r < RD_RINGS; r++)
        if (!parse_us(part[r], &out[r]))
            return false;
    return true;
}

/* Index of the column named name in the header fields h[0 .. nh), or -1. */
static int column_of(char **h, int nh, const char *name)
{
    for (int i = 0; i < nh; i++)
        if (strcmp(h[i], name) == 0)
            return i;
    return -1;
}

/* "a/b/c/d" (per ring) or one value for every ring. */
static bool parse_rings(const char *s, uint64_t out[RD_RINGS])
{
    char copy[256], *part[RD_RINGS];
    rd_copy_str(copy, sizeof(copy), s);
    if (!split_rings(copy, part))
        return false;
    for (int r = 0; r < RD_RINGS; r++)
        if (!rd_parse_u64(part[r], &out[r]))
            return false;
    return true;
}

/* The columns `ptosim run --summary-csv` writes (with --repeat too): a column after the last of these is a
 * swept one (--set KEY, --kernel-set NAME.FIELD, gen.PARAM: sim/sweep/sweep_folder.c). */
static const char *const RUN_COLUMN[] = {
    "graph",          "platform",        "ring_task_window",  "ring_heap",          "ring_dep_pool",
    "status",         "code",            "exit",              "makespan_us",        "tasks_completed",
    "task_window_peak", "heap_peak",     "dep_pool_peak",     "tensormap_peak",     "blocked_us",
    "blocked_task_window_us", "blocked_heap_us", "blocked_dep_pool_us", "blocked_tensormap_us",
    "aicpu_thread_num", "repeat_runs",   "makespan_mean_us",  "makespan_sigma_us",  "makespan_min_us",
    "makespan_p50_us", "makespan_max_us"};

static bool run_column(const char *name)
{
    for (size_t i = 0; i < sizeof(RUN_COLUMN) / sizeof(RUN_COLUMN[0]); i++)
        if (strcmp(name, RUN_COLUMN[i]) == 0)
            return true;
    return false;
}

/* A swept column's value: its index among the column's values so far (added when new), or -1 when out of
 * memory. */
static int extra_value(rd_sweep *sw, int e, const char *v, size_t *cap)
{
    for (int i = 0; i < sw->nextra_val[e]; i++)
        if (strcmp(sw->extra_val[e][i], v) == 0)
            return i;
    if (!rd_grow((void **)&sw->extra_val[e], cap, (size_t)sw->nextra_val[e], sizeof(*sw->extra_val[e])))
        return -1;
    rd_copy_str(sw->extra_val[e][sw->nextra_val[e]], RD_VALUE_MAX, v);
    return sw->nextra_val[e]++;
}

/* Is s a whole finite number? */
static bool whole_number(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return *s && !*end && !errno && *v == *v;
}

/* Puts each swept column's values in order (numeric when every value is a number, else text) and turns the
 * rows' first-seen indices into ranks. */
static int sort_extra(rd_sweep *sw)
{
    for (int e = 0; e < sw->nextra; e++) {
        int n = sw->nextra_val[e];
        int *order = malloc((size_t)(n ? n : 1) * sizeof(*order)),
            *rank = malloc((size_t)(n ? n : 1) * sizeof(*rank));
        char(*sorted)[RD_VALUE_MAX] = malloc((size_t)(n ? n : 1) * sizeof(*sorted));
        if (!order || !rank || !sorted) {
            free(order);
            free(rank);
            free(sorted);
            return -1;
        }
        bool numeric = true;
        double dv;
        for (int i = 0; i < n; i++) {
            order[i] = i;
            numeric &= whole_number(sw->extra_val[e][i], &dv);
        }
        for (int i = 1; i < n; i++) /* insertion sort: a sweep's list has a few values */
            for (int j = i; j > 0; j--) {
                const char *a = sw->extra_val[e][order[j - 1]], *b = sw->extra_val[e][order[j]];
                double x = 0, y = 0;
                if (numeric) {
                    whole_number(a, &x);
                    whole_number(b, &y);
                }
                if (numeric ? x <= y : strcmp(a, b) <= 0)
                    break;
                int t = order[j];
                order[j] = order[j - 1];
                order[j - 1] = t;
            }
        for (int i = 0; i < n; i++) {
            rank[order[i]] = i;
            memcpy(sorted[i], sw->extra_val[e][order[i]], RD_VALUE_MAX);
        }
        for (size_t r = 0; r < sw->nrows; r++)
            sw->rows[r].extra[e] = (uint32_t)rank[sw->rows[r].extra[e]];
        free(sw->extra_val[e]);
        sw->extra_val[e] = sorted;
        free(order);
        free(rank);
    }
    return 0;
}

int rd_load_sweep(const char *path, rd_sweep *sw, char *err, size_t errlen)
{
    enum { C_GRAPH, C_PLATFORM, C_TW, C_HEAP, C_DEP, C_STATUS, C_CODE, C_EXIT, C_MAKESPAN, C_NEED };
    static const char *const need[C_NEED] = {"graph",     "platform",      "ring_task_window",
                                             "ring_heap", "ring_dep_pool", "status",
                                             "code",      "exit",          "makespan_us"};
#define SWEEP_MAX_COLUMNS 64
    memset(sw, 0, sizeof(*sw));
    char *text;
    size_t len, cap = 0, gcap = 0, vcap[RD_MAX_EXTRA] = {0};
    int rc = rd_slurp(path, READALL_SWEEP, &text, &len, err, errlen);
    if (rc != RD_OK)
        return rc;
    char *p = text, *l, *f[SWEEP_MAX_COLUMNS + 1];
    int col[C_NEED], next = 1, line = 1, nh, col_threads, col_blocked, col_res[RD_RES_COUNT], col_rep[3],
        col_extra[RD_MAX_EXTRA], last_run = -1;
    if ((l = rd_next_record(&p, &next, &line)) == NULL || !l[strspn(l, "\r")]) {
        rc = rd_bad(err, errlen, "%s:1: no header line (the file is empty)", path);
        goto out;
    }
    nh = csv_split(l, f, SWEEP_MAX_COLUMNS);
    if (nh < 0) {
        rc = rd_quoting_bad(err, errlen, path, line);
        goto out;
    }
    if (nh > SWEEP_MAX_COLUMNS) {
        rc = rd_bad(err, errlen, "%s:1: header: more than %d columns", path, SWEEP_MAX_COLUMNS);
        goto out;
    }
    for (int c = 0; c < C_NEED; c++) {
        col[c] = -1;
        for (int i = 0; i < nh && col[c] < 0; i++)
            if (strcmp(f[i], need[c]) == 0)
                col[c] = i;
        if (col[c] < 0) {
            rc = rd_bad(err, errlen,
                        "%s:1: header: no %s column (expected the columns of ptosim run --summary-csv)", path,
                        need[c]);
            goto out;
        }
    }
    /* columns later versions of --summary-csv added: optional */
    col_threads = column_of(f, nh, "aicpu_thread_num");
    col_blocked = column_of(f, nh, "blocked_us");
    sw->has_threads = col_threads >= 0;
    sw->has_blocked = col_blocked >= 0;
    sw->has_blocked_res = true;
    for (int k = 0; k < RD_RES_COUNT; k++)
        sw->has_blocked_res &= (col_res[k] = column_of(f, nh, BLOCKED_COLUMN[k])) >= 0;
    static const char *const REP[3] = {"repeat_runs", "makespan_mean_us", "makespan_sigma_us"};
    sw->has_repeat = true;
    for (int k = 0; k < 3; k++)
        sw->has_repeat &= (col_rep[k] = column_of(f, nh, REP[k])) >= 0;
    for (int i = 0; i < nh; i++)
        if (run_column(f[i]))
            last_run = i;
    for (int i = last_run + 1; i < nh; i++) {
        if (sw->nextra == RD_MAX_EXTRA) {
            rc = rd_bad(err, errlen, "%s:1: header: more than %d swept columns past the run's own", path,
                        RD_MAX_EXTRA);
            goto out;
        }
        if (strlen(f[i]) >= RD_VALUE_MAX) {
            rc = rd_bad(err, errlen, "%s:1: header: column %d: a name longer than %d characters", path, i + 1,
                        RD_VALUE_MAX - 1);
            goto out;
        }
        col_extra[sw->nextra] = i;
        rd_copy_str(sw->extra_name[sw->nextra++], RD_VALUE_MAX, f[i]);
    }
    while ((l = rd_next_record(&p, &next, &line)) != NULL) {
        if (!l[strspn(l, "\r")])
            continue;
        if ((rc = rd_split_row(path, line, l, f, SWEEP_MAX_COLUMNS, nh, err, errlen)) != RD_OK)
            goto out;
        if (!rd_grow((void **)&sw->rows, &cap, sw->nrows, sizeof(*sw->rows))) {
            rc = rd_bad(err, errlen, "%s: out of memory", path);
            goto out;
        }
        if (strcmp(f[col[C_STATUS]], "missing") == 0)
            continue; /* a point that gave no row (ptosim sweep): nothing to draw */
        rd_row *r = &sw->rows[sw->nrows];
        memset(r, 0, sizeof(*r));
        r->line = line;
        for (int k = 0; k < RD_KNOB_THREADS; k++) {
            int c = col[C_TW + k];
            if (!parse_rings(f[c], r->knob[k])) {
                rc = rd_bad(err, errlen, "%s:%d: %s: \"%s\" is not N or N/N/N/N", path, line, need[C_TW + k],
                            f[c]);
                goto out;
            }
        }
        if (sw->has_threads) {
            uint64_t t;
            if (!rd_parse_u64(f[col_threads], &t)) {
                rc = rd_bad(err, errlen, "%s:%d: aicpu_thread_num: \"%s\" is not an unsigned integer", path,
                            line, f[col_threads]);
                goto out;
            }
            for (int g = 0; g < RD_RINGS; g++)
                r->knob[RD_KNOB_THREADS][g] = t;
        }
        if (sw->has_blocked && !parse_ring_us(f[col_blocked], r->blocked)) {
            rc = rd_bad(err, errlen, "%s:%d: blocked_us: \"%s\" is not N or N/N/N/N microseconds", path, line,
                        f[col_blocked]);
            goto out;
        }
        for (int k = 0; sw->has_blocked_res && k < RD_RES_COUNT; k++)
            if (!parse_us(f[col_res[k]], &r->blocked_res[k])) {
                rc = rd_bad(err, errlen, "%s:%d: %s: \"%s\" is not a non-negative number", path, line,
                            BLOCKED_COLUMN[k], f[col_res[k]]);
                goto out;
            }
        if (sw->has_repeat && (!rd_parse_int(f[col_rep[0]], &r->runs) || r->runs < 0)) {
            rc = rd_bad(err, errlen, "%s:%d: repeat_runs: \"%s\" is not a non-negative integer", path, line,
                        f[col_rep[0]]);
            goto out;
        }
        for (int k = 1; sw->has_repeat && k < 3; k++)
            if (!parse_us(f[col_rep[k]], k == 1 ? &r->mean_us : &r->sigma_us)) {
                rc = rd_bad(err, errlen, "%s:%d: %s: \"%s\" is not a non-negative number", path, line, REP[k],
                            f[col_rep[k]]);
                goto out;
            }
        for (int e = 0; e < sw->nextra; e++) {
            const char *v = f[col_extra[e]];
            if (strlen(v) >= RD_VALUE_MAX) {
                rc = rd_bad(err, errlen, "%s:%d: %s: a value longer than %d characters", path, line,
                            sw->extra_name[e], RD_VALUE_MAX - 1);
                goto out;
            }
            int vi = extra_value(sw, e, v, &vcap[e]);
            if (vi < 0) {
                rc = rd_bad(err, errlen, "%s: out of memory", path);
                goto out;
            }
            r->extra[e] = (uint32_t)vi;
        }
        rd_copy_str(r->status, sizeof(r->status), f[col[C_STATUS]]);
        if (!r->status[0]) {
            rc = rd_bad(err, errlen, "%s:%d: status: empty", path, line);
            goto out;
        }
        if (!rd_parse_int(f[col[C_CODE]], &r->code)) {
            rc = rd_bad(err, errlen, "%s:%d: code: \"%s\" is not an integer", path, line, f[col[C_CODE]]);
            goto out;
        }
        if (!rd_parse_int(f[col[C_EXIT]], &r->exit)) {
            rc = rd_bad(err, errlen, "%s:%d: exit: \"%s\" is not an integer", path, line, f[col[C_EXIT]]);
            goto out;
        }
        char *end;
        const char *ms = f[col[C_MAKESPAN]];
        errno = 0;
        r->makespan_us = strtod(ms, &end);
        if (!*ms || *end || errno || r->makespan_us < 0 || r->makespan_us != r->makespan_us) {
            rc = rd_bad(err, errlen, "%s:%d: makespan_us: \"%s\" is not a non-negative number", path, line,
                        ms);
            goto out;
        }
        const char *g = f[col[C_GRAPH]], *pl = f[col[C_PLATFORM]];
        int gi = 0;
        while (gi < sw->ngroups && (strcmp(sw->groups[gi][0], g) != 0 || strcmp(sw->groups[gi][1], pl) != 0))
            gi++;
        if (gi == sw->ngroups) {
            if (!rd_grow((void **)&sw->groups, &gcap, (size_t)sw->ngroups, sizeof(*sw->groups))) {
                rc = rd_bad(err, errlen, "%s: out of memory", path);
                goto out;
            }
            rd_copy_str(sw->groups[gi][0], RD_NAME_MAX, g);
            rd_copy_str(sw->groups[gi][1], RD_NAME_MAX, pl);
            sw->ngroups++;
        }
        r->group = gi;
        r->value_us = sw->has_repeat && r->runs > 0 ? r->mean_us : r->makespan_us;
        sw->nrows++;
    }
    if (rc == RD_OK && sort_extra(sw) != 0)
        rc = rd_bad(err, errlen, "%s: out of memory", path);
out:
    free(text);
    if (rc != RD_OK)
        rd_sweep_free(sw);
    return rc;
#undef SWEEP_MAX_COLUMNS
}

void rd_sweep_free(rd_sweep *s)
{
    for (int e = 0; e < RD_MAX_EXTRA; e++)
        free(s->extra_val[e]);
    free(s->rows);
    free(s->groups);
    memset(s, 0, sizeof(*s));
}

int rd_sweep_knobs(const rd_sweep *s, rd_knob *out, int max)
{
    int n = 0;
    for (int c = 0; c < RD_KNOB_COLUMNS; c++) {
        unsigned mask = 0;
        for (int r = 0; r < RD_RINGS; r++)
            for (size_t i = 1; i < s->nrows; i++)
                if (s->rows[i].knob[c][r] != s->rows[0].knob[c][r])
                    mask |= 1u << r;
        if (!mask)
            continue;
        if (c == RD_KNOB_THREADS) { /* one value per row, kept in every ring's slot */
            if (n < max)
                out[n++] = (rd_knob){.column = c, .mask = 1, .label = "aicpu_thread_num"};
            continue;
        }
        /* do the varying rings move together? */
        int low = __builtin_ctz(mask);
        bool together = true;
        for (size_t i = 0; i < s->nrows && together; i++)
            for (int r = low + 1; r < RD_RINGS; r++)
                if ((mask >> r & 1) && s->rows[i].knob[c][r] != s->rows[i].knob[c][low])
                    together = false;
        for (int r = 0; r < RD_RINGS && n < max; r++) {
            if (!(mask >> r & 1) || (together && r != low))
                continue;
            rd_knob *k = &out[n++];
            k->column = c;
            k->mask = together ? mask : 1u << r;
            if (k->mask == 0xf)
                snprintf(k->label, sizeof(k->label), "%s (all rings)", KNOB_COLUMN[c]);
            else if (!(k->mask & (k->mask - 1)))
                snprintf(k->label, sizeof(k->label), "%s (ring %d)", KNOB_COLUMN[c], r);
            else {
                int m = snprintf(k->label, sizeof(k->label), "%s (rings", KNOB_COLUMN[c]);
                for (int q = 0, first = 1; q < RD_RINGS; q++)
                    if (k->mask >> q & 1) {
                        m += snprintf(k->label + m, sizeof(k->label) - (size_t)m, "%s %d", first ? "" : ",",
                                      q);
                        first = 0;
                    }
                snprintf(k->label + m, sizeof(k->label) - (size_t)m, ")");
            }
        }
    }
    for (int e = 0; e < s->nextra && n < max; e++)
        if (s->nextra_val[e] > 1) {
            rd_knob *k = &out[n++];
            k->column = RD_KNOB_COLUMNS + e;
            k->mask = 1;
            rd_copy_str(k->label, sizeof(k->label), s->extra_name[e]);
        }
    return n;
}

uint64_t rd_knob_value(const rd_knob *k, const rd_row *r)
{
    if (RD_KNOB_IS_EXTRA(k))
        return r->extra[k->column - RD_KNOB_COLUMNS];
    return r->knob[k->column][__builtin_ctz(k->mask)];
}

/* The orchestrator's blocked time over every ring. */
static double blocked_total(const rd_row *r)
{
    double t = 0;
    for (int g = 0; g < RD_RINGS; g++)
        t += r->blocked[g];
    return t;
}

int rd_sweep_curve(const rd_sweep *s, const rd_knob *k, int group, rd_point **out)
{
    *out = NULL;
    uint64_t *xs = malloc((s->nrows ? s->nrows : 1) * sizeof(*xs));
    if (!xs)
        return -1;
    size_t nx = 0;
    for (size_t i = 0; i < s->nrows; i++)
        if (s->rows[i].group == group)
            xs[nx++] = rd_knob_value(k, &s->rows[i]);
    qsort(xs, nx, sizeof(*xs), rd_cmp_u64);
    size_t nu = 0;
    for (size_t i = 0; i < nx; i++)
        if (i == 0 || xs[i] != xs[i - 1])
            xs[nu++] = xs[i];
    rd_point *pt = calloc(nu ? nu : 1, sizeof(*pt));
    if (!pt) {
        free(xs);
        return -1;
    }
    for (size_t j = 0; j < nu; j++)
        pt[j].x = xs[j];
    free(xs);
    for (size_t i = 0; i < s->nrows; i++) {
        const rd_row *r = &s->rows[i];
        if (r->group != group)
            continue;
        uint64_t x = rd_knob_value(k, r);
        rd_point *q = &pt[vec_lower_bound(pt, nu, sizeof(*pt), offsetof(rd_point, x), x)];
        q->nrows++;
        if (strcmp(r->status, "ok") == 0) {
            if (!q->nok || r->value_us < q->makespan_us ||
                (r->value_us == q->makespan_us && blocked_total(r) < blocked_total(q->best))) {
                q->makespan_us = r->value_us;
                q->best = r;
            }
            q->nok++;
        } else if (!q->fail) {
            q->fail = r;
        }
    }
    *out = pt;
    return (int)nu;
}
