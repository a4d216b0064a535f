/* worker.c - several programs on one worker (model/README.md §15). */
/* Resident tensors, edges across programs, the worker's timeline of setup, arena builds and runs. */
#include "worker.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../base/dtype.h"
#include "../base/json_writer.h"
#include "../base/outfile.h"
#include "../runtime/run_config.h"
#include "../base/vec.h"

/* Records of the log a program's run writes for the worker. */
enum { REC_ACCESS = 1, REC_RESULT = 2 };

typedef struct access_rec {
    uint32_t kind; /* REC_ACCESS */
    int32_t resident;
    uint32_t write;
    uint64_t task_id;
    tmap_view v;
} access_rec;

typedef struct result_rec {
    uint32_t kind; /* REC_RESULT */
    worker_result r;
} result_rec;

void worker_init(worker *w)
{
    memset(w, 0, sizeof(*w));
}

void worker_free(worker *w)
{
    free(w->res);
    free(w->writes);
    free(w->edges);
    memset(w, 0, sizeof(*w));
}

static void dims_text(char *out, size_t len, const int64_t *d, int n)
{
    size_t k = (size_t)snprintf(out, len, "[");
    for (int i = 0; i < n && k < len; i++)
        k += (size_t)snprintf(out + k, len - k, "%s%" PRId64, i ? ", " : "", d[i]);
    if (k < len)
        snprintf(out + k, len - k, "]");
}

int worker_add_program(worker *w, const graph *g, const uint64_t rings[3][4], char *err, size_t errlen)
{
    if (w->nprograms == WORKER_MAX_PROGRAMS) {
        snprintf(err, errlen,
                 "%s: more than %d programs on one worker (the runtime registers at most %d callables)",
                 g->path, WORKER_MAX_PROGRAMS, WORKER_MAX_PROGRAMS);
        return -1;
    }
    int p = w->nprograms;
    worker_program *pr = &w->prog[p];
    memset(pr, 0, sizeof(*pr));
    snprintf(pr->path, sizeof(pr->path), "%s", g->path);
    snprintf(pr->name, sizeof(pr->name), "%s", g->name);
    snprintf(pr->dir, sizeof(pr->dir), "%d_%s", p, g->name);
    memcpy(pr->rings, rings, sizeof(pr->rings));
    pr->registers = true;
    for (int q = 0; q < p; q++)
        if (strcmp(w->prog[q].name, g->name) == 0)
            pr->registers = false; /* the same callable again */

    /* auto-placed tensors of this program go after every earlier program's:
     * two programs' buffers must not alias unless they are resident */
    uint64_t lo = UINT64_MAX, hi = 0;
    for (int s = 0; s < g->nexternal; s++)
        if (g->tensors[s].auto_addr) {
            lo = g->tensors[s].addr < lo ? g->tensors[s].addr : lo;
            hi = g->next_auto_addr;
        }
    if (lo != UINT64_MAX) {
        if (w->auto_end > lo)
            pr->auto_shift = w->auto_end - lo;
        w->auto_end = hi + pr->auto_shift;
    }

    for (int s = 0; s < g->nexternal; s++) {
        const graph_tensor *gt = &g->tensors[s];
        if (!gt->resident)
            continue;
        const char *name = strtab_key(&g->tensor_names, s);
        int k = 0;
        while (k < w->nres && strcmp(w->res[k].name, name) != 0)
            k++;
        if (k < w->nres) {
            const worker_resident *r = &w->res[k];
            if (r->dtype != gt->dtype || r->ndim != gt->ndim ||
                memcmp(r->shape, gt->shape, (size_t)gt->ndim * sizeof(int64_t)) != 0) {
                char a[128], b[128];
                dims_text(a, sizeof(a), gt->shape, gt->ndim);
                dims_text(b, sizeof(b), r->shape, r->ndim);
                snprintf(
                    err, errlen,
                    "%s:1: tensors[%d]: resident tensor '%s' is %s %s here but %s %s in %s, which placed it",
                    g->path, s, name, dtype_name(gt->dtype), a, dtype_name(r->dtype), b,
                    w->prog[r->first_program].path);
                return -1;
            }
            continue;
        }
        if (vec_reserve_zeroed((void **)&w->res, &w->res_cap, (size_t)w->nres + 1, sizeof(*w->res)) != 0) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        worker_resident *r = &w->res[w->nres++];
        memset(r, 0, sizeof(*r));
        snprintf(r->name, sizeof(r->name), "%s", name);
        r->dtype = gt->dtype;
        r->ndim = gt->ndim;
        memcpy(r->shape, gt->shape, sizeof(r->shape));
        r->addr = gt->addr + (gt->auto_addr ? pr->auto_shift : 0);
        r->first_program = p;
    }
    w->nprograms++;
    return 0;
}

void worker_place(const worker *w, int p, graph *g)
{
    const worker_program *pr = &w->prog[p];
    for (int s = 0; s < g->nexternal; s++) {
        graph_tensor *gt = &g->tensors[s];
        if (gt->auto_addr)
            gt->addr += pr->auto_shift;
        if (!gt->resident)
            continue;
        const char *name = strtab_key(&g->tensor_names, s);
        for (int k = 0; k < w->nres; k++)
            if (strcmp(w->res[k].name, name) == 0)
                gt->addr = w->res[k].addr;
    }
}

int worker_resident_of(const worker *w, uint64_t addr)
{
    for (int k = 0; k < w->nres; k++)
        if (w->res[k].addr == addr)
            return k;
    return -1;
}

void worker_log_access(FILE *log, uint64_t task_id, int resident, bool write, const tmap_view *v)
{
    access_rec a;
    memset(&a, 0, sizeof(a)); /* padding too: the log is compared in tests */
    a.kind = REC_ACCESS;
    a.resident = resident;
    a.write = write;
    a.task_id = task_id;
    a.v = *v;
    fwrite(&a, sizeof(a), 1, log);
}

void worker_log_result(FILE *log, const worker_result *r)
{
    result_rec x;
    memset(&x, 0, sizeof(x));
    x.kind = REC_RESULT;
    x.r = *r;
    fwrite(&x, sizeof(x), 1, log);
}

static int add_edge(worker *w, const worker_write *from, int p, uint64_t task)
{
    for (size_t i = w->nedges; i-- > 0;) {
        const worker_edge *e = &w->edges[i];
        if (e->to_program != p || e->to_task != task)
            break; /* edges of one task are appended together */
        if (e->from_program == from->program && e->from_task == from->task_id)
            return 0;
    }
    if (vec_reserve_zeroed((void **)&w->edges, &w->edges_cap, w->nedges + 1, sizeof(*w->edges)) != 0)
        return -1;
    w->edges[w->nedges++] = (worker_edge){.from_program = from->program,
                                          .from_task = from->task_id,
                                          .to_program = p,
                                          .to_task = task,
                                          .resident = from->resident};
    return 0;
}

/* Adds a write, dropping the earlier writes it covers. */
static int add_write(worker *w, const worker_write *x)
{
    size_t keep = 0;
    for (size_t i = 0; i < w->nwrites; i++) {
        const worker_write *o = &w->writes[i];
        if (o->v.addr == x->v.addr && tmap_check_overlap(&o->v, &x->v) == OV_COVERED)
            continue;
        w->writes[keep++] = *o;
    }
    w->nwrites = keep;
    if (vec_reserve_zeroed((void **)&w->writes, &w->writes_cap, w->nwrites + 1, sizeof(*w->writes)) != 0)
        return -1;
    w->writes[w->nwrites++] = *x;
    return 0;
}

int worker_take_log(worker *w, int p, FILE *log)
{
    rewind(log);
    size_t first_new = w->nwrites; /* this program's writes are applied after its reads */
    worker_write *mine = NULL;
    size_t nmine = 0, cap = 0;
    bool have_result = false;
    uint32_t kind;
    int rc = 0;
    while (rc == 0 && fread(&kind, sizeof(kind), 1, log) == 1) {
        fseek(log, -(long)sizeof(kind), SEEK_CUR);
        if (kind == REC_ACCESS) {
            access_rec a;
            if (fread(&a, sizeof(a), 1, log) != 1)
                break;
            /* reads (an INOUT logs a read and a write) see earlier programs' writes,
             * unless this program already rewrote the whole region */
            bool rewritten = false;
            for (size_t i = 0; i < nmine && !a.write && !rewritten; i++)
                rewritten = mine[i].v.addr == a.v.addr && tmap_check_overlap(&a.v, &mine[i].v) == OV_COVERED;
            for (size_t i = 0; i < first_new && !a.write && !rewritten; i++) {
                const worker_write *x = &w->writes[i];
                if (x->v.addr == a.v.addr && tmap_check_overlap(&x->v, &a.v) != OV_NONE &&
                    add_edge(w, x, p, a.task_id) != 0)
                    rc = -1;
            }
            if (a.write) {
                if (vec_reserve_zeroed((void **)&mine, &cap, nmine + 1, sizeof(*mine)) != 0) {
                    rc = -1;
                    break;
                }
                mine[nmine++] =
                    (worker_write){.program = p, .task_id = a.task_id, .resident = a.resident, .v = a.v};
            }
        } else if (kind == REC_RESULT) {
            result_rec x;
            if (fread(&x, sizeof(x), 1, log) != 1)
                break;
            w->prog[p].result = x.r;
            have_result = true;
        } else {
            break;
        }
    }
    for (size_t i = 0; i < nmine && rc == 0; i++)
        rc = add_write(w, &mine[i]);
    free(mine);
    if (rc == 0 && !have_result)
        return -1;
    w->prog[p].ran = have_result;
    return rc;
}

double worker_device_us(const worker_costs *k, const uint64_t rings[3][4], double makespan_us)
{
    uint64_t slots = 0; /* the runtime's per-run init loop reset every slot of every ring's window */
    for (int r = 0; r < 4; r++)
        slots += rings[KNOB_TASK_WINDOW][r];
    return k->preamble_us + k->prep_us + k->sm_reset_slot_ns * (double)slots / 1e3 + makespan_us;
}

void worker_timeline(worker *w, const worker_costs *k)
{
    w->arena_builds = 0;
    w->setup_us = k->init_us + k->first_launch_us;
    w->total_us = 0;
    w->fresh_us = 0;
    const uint64_t(*cached)[4] = NULL;
    double t = w->setup_us;
    for (int p = 0; p < w->nprograms; p++) {
        worker_program *pr = &w->prog[p];
        if (pr->registers)
            w->setup_us += k->register_us, t += k->register_us;
    }
    for (int p = 0; p < w->nprograms; p++) {
        worker_program *pr = &w->prog[p];
        /* one cached arena per worker, keyed on the whole sizing (model/README.md §4.1) */
        pr->builds_arena = !cached || memcmp(cached, pr->rings, sizeof(pr->rings)) != 0;
        cached = (const uint64_t(*)[4])pr->rings;
        if (pr->builds_arena) {
            w->arena_builds++;
            t += k->arena_build_us;
            if (w->arena_builds == 1)
                w->setup_us += k->arena_build_us;
        }
        pr->start_us = t;
        pr->device_us =
            pr->ran ? worker_device_us(k, (const uint64_t(*)[4])pr->rings, pr->result.makespan_us) : 0;
        t += pr->device_us;
        if (pr->ran)
            w->fresh_us +=
                k->init_us + k->register_us + k->arena_build_us + k->first_launch_us + pr->device_us;
    }
    w->total_us = t;
}

/* Microseconds to the nanosecond: the worker's figures are sums of model
 * times, and 17 significant digits only show binary noise. */
static void put_us(FILE *f, double us)
{
    outfile_printf(f, "%.3f", us);
}

static void put_rings(FILE *f, const uint64_t v[4])
{
    fputc('[', f);
    for (int r = 0; r < 4; r++) {
        if (r)
            fputs(", ", f);
        jsonw_u64(f, v[r]);
    }
    fputc(']', f);
}

int worker_write_json(const worker *w, const worker_costs *k, const char *path, char *err, size_t errlen)
{
    outfile of;
    FILE *f = outfile_open(&of, path, err, errlen);
    if (!f)
        return -1;
    fputs("{\n  \"ptosim_worker\": 1,\n  \"programs\": [", f);
    for (int p = 0; p < w->nprograms; p++) {
        const worker_program *pr = &w->prog[p];
        fputs(p ? ",\n    {" : "\n    {", f);
        fputs("\"graph\": ", f);
        jsonw_str(f, pr->path);
        fputs(", \"name\": ", f);
        jsonw_str(f, pr->name);
        fputs(", \"dir\": ", f);
        jsonw_str(f, pr->dir);
        fputs(", \"ran\": ", f);
        fputs(pr->ran ? "true" : "false", f);
        fputs(", \"status\": ", f);
        jsonw_str(f, pr->ran ? pr->result.status : "not run");
        fputs(", \"exit\": ", f);
        jsonw_i64(f, pr->ran ? pr->result.exit_code : -1);
        fputs(", \"registered\": ", f);
        fputs(pr->registers ? "true" : "false", f);
        fputs(", \"arena\": ", f);
        fputs(pr->builds_arena ? "\"built\"" : "\"cached\"", f);
        for (int kn = 0; kn < 3; kn++) {
            fputs(", ", f);
            jsonw_str(f, runcfg_knob_name((runcfg_knob)kn));
            fputs(": ", f);
            put_rings(f, pr->rings[kn]);
        }
        fputs(", \"start_us\": ", f);
        put_us(f, pr->start_us);
        fputs(", \"makespan_us\": ", f);
        put_us(f, pr->ran ? pr->result.makespan_us : 0);
        fputs(", \"device_us\": ", f);
        put_us(f, pr->device_us);
        fputs(", \"tasks_completed\": ", f);
        jsonw_u64(f, pr->ran ? pr->result.tasks_completed : 0);
        fputc('}', f);
    }
    fputs("\n  ],\n  \"costs_us\": {\"init\": ", f);
    put_us(f, k->init_us);
    fputs(", \"register\": ", f);
    put_us(f, k->register_us);
    fputs(", \"arena_build\": ", f);
    put_us(f, k->arena_build_us);
    fputs(", \"first_launch\": ", f);
    put_us(f, k->first_launch_us);
    fputs(", \"run_preamble\": ", f);
    put_us(f, k->preamble_us);
    fputs(", \"run_prep\": ", f);
    put_us(f, k->prep_us);
    fputs(", \"sm_reset_per_slot\": ", f);
    put_us(f, k->sm_reset_slot_ns / 1e3);
    fputs("},\n  \"worker\": {\"setup_us\": ", f);
    put_us(f, w->setup_us);
    fputs(", \"arena_builds\": ", f);
    jsonw_i64(f, w->arena_builds);
    fputs(", \"total_us\": ", f);
    put_us(f, w->total_us);
    fputs(", \"fresh_workers_us\": ", f);
    put_us(f, w->fresh_us);
    fputs(", \"saved_us\": ", f);
    put_us(f, w->fresh_us - w->total_us);
    fputs("},\n  \"resident\": [", f);
    for (int r = 0; r < w->nres; r++) {
        const worker_resident *x = &w->res[r];
        fputs(r ? ", {\"name\": " : "{\"name\": ", f);
        jsonw_str(f, x->name);
        fputs(", \"addr\": ", f);
        jsonw_qu64(f, x->addr);
        fputs(", \"dtype\": ", f);
        jsonw_str(f, dtype_name(x->dtype));
        fputs(", \"shape\": ", f);
        fputc('[', f);
        for (int d = 0; d < x->ndim; d++) {
            if (d)
                fputs(", ", f);
            jsonw_i64(f, x->shape[d]);
        }
        fputs("], \"placed_by\": ", f);
        jsonw_i64(f, x->first_program);
        fputc('}', f);
    }
    fputs("],\n  \"cross_program_edges\": [", f);
    for (size_t i = 0; i < w->nedges; i++) {
        const worker_edge *e = &w->edges[i];
        fputs(i ? ",\n    {\"from_program\": " : "\n    {\"from_program\": ", f);
        jsonw_i64(f, e->from_program);
        fputs(", \"pred\": ", f);
        jsonw_qu64(f, e->from_task);
        fputs(", \"to_program\": ", f);
        jsonw_i64(f, e->to_program);
        fputs(", \"succ\": ", f);
        jsonw_qu64(f, e->to_task);
        fputs(", \"tensor\": ", f);
        jsonw_str(f, w->res[e->resident].name);
        fputc('}', f);
    }
    fputs(w->nedges ? "\n  ]\n}\n" : "]\n}\n", f);
    return outfile_commit(&of, err, errlen);
}

void worker_summary(const worker *w, FILE *out)
{
    outfile_printf(out, "worker: %d program%s, setup %.3f ms (arena built %d time%s)\n", w->nprograms,
                   w->nprograms == 1 ? "" : "s", w->setup_us / 1e3, w->arena_builds,
                   w->arena_builds == 1 ? "" : "s");
    for (int p = 0; p < w->nprograms; p++) {
        const worker_program *pr = &w->prog[p];
        if (!pr->ran) {
            outfile_printf(out, "  %d %s: not run\n", p, pr->name);
            continue;
        }
        outfile_printf(out, "  %d %s: %s, device %.3f ms (makespan %.3f us) from %.3f ms%s\n", p, pr->name,
                       pr->result.status, pr->device_us / 1e3, pr->result.makespan_us, pr->start_us / 1e3,
                       pr->builds_arena && p ? ", after an arena rebuild (ring sizing changed)" : "");
    }
    outfile_printf(out, "  total %.3f ms on this worker against %.3f ms on fresh workers (saves %.3f ms)\n",
                   w->total_us / 1e3, w->fresh_us / 1e3, (w->fresh_us - w->total_us) / 1e3);
    if (w->nedges)
        outfile_printf(out, "  %zu edge%s across programs through resident tensors (ptosim_run.json)\n",
                       w->nedges, w->nedges == 1 ? "" : "s");
}
