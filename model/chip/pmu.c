/* pmu.c - pmu.csv rosters and counters derived from the pipe model (model/README.md §16.4, §13). */
#include "pmu.h"


#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "../base/outfile.h"

/* Column rosters of the a2a3 event groups, slot order (model/README.md §16.4). */
static const char *const ROSTER[9][PMU_SLOTS + 1] = {
    [1] = {"cube_fp16_exec", "cube_int8_exec", "vec_fp32_exec", "vec_fp16_128lane_exec",
           "vec_fp16_64lane_exec", "vec_int32_exec", "vec_misc_exec", NULL},
    [2] = {"vec_busy_cycles", "cube_busy_cycles", "scalar_busy_cycles", "mte1_busy_cycles",
           "mte2_busy_cycles", "mte3_busy_cycles", "icache_miss", "icache_req", NULL},
    [4] = {"ub_read_req", "ub_write_req", "l1_read_req", "l1_write_req", "l2_read_req", "l2_write_req",
           "main_read_req", "main_write_req", NULL},
    [5] = {"l0a_read_req", "l0a_write_req", "l0b_read_req", "l0b_write_req", "l0c_read_req", "l0c_write_req",
           NULL},
    [6] = {"bankgroup_stall_cycles", "bank_stall_cycles", "vec_resc_conflict_cycles", NULL},
    [7] = {"ub_read_bw_mte", "l2_write_bw", "main_mem_write_bw", "ub_write_bw_mte", "ub_read_bw_vector",
           "ub_write_bw_vector", "ub_read_bw_scalar", "ub_write_bw_scalar", NULL},
    [8] = {"write_cache_hit", "write_cache_miss_allocate", "r0_read_cache_hit", "r0_read_cache_miss_allocate",
           "r1_read_cache_hit", "r1_read_cache_miss_allocate", NULL},
};

bool pmu_type_valid(int t)
{
    return t == 1 || t == 2 || (t >= 4 && t <= 8);
}

int pmu_ncolumns(int t)
{
    if (!pmu_type_valid(t))
        return 0;
    int n = 0;
    while (n < PMU_SLOTS && ROSTER[t][n])
        n++;
    return n;
}

const char *pmu_column(int t, int i)
{
    return i >= 0 && i < pmu_ncolumns(t) ? ROSTER[t][i] : NULL;
}

void pmu_write_header(FILE *f, int t)
{
    fputs("thread_id,core_id,task_id,func_id,core_type,pmu_total_cycles", f);
    for (int i = 0; i < pmu_ncolumns(t); i++)
        outfile_printf(f, ",%s", ROSTER[t][i]);
    fputs(",event_type\n", f);
}

static uint32_t sat(double v)
{
    if (!(v > 0))
        return 0;
    return v >= 4294967295.0 ? UINT32_MAX : (uint32_t)llround(v);
}

void pmu_counters(int t, const pmu_exec *e, uint64_t bytes_per_req, uint32_t out[PMU_SLOTS])
{
    memset(out, 0, PMU_SLOTS * sizeof(*out));
    if (!e->pr || !e->pk)
        return; /* a flat cost says nothing about the pipes */
    const pipe_result *r = e->pr;
    const pipe_work *w = &e->pk->work;
    double tiles = e->pk->tiles, req = bytes_per_req ? (double)bytes_per_req : 1;
    /* GM pipes stay busy longer when HBM bandwidth is shared; never past the window */
    double busy[PIPE_COUNT];
    for (int p = 0; p < PIPE_COUNT; p++) {
        busy[p] = (double)r->busy_cycles[p] * (pipe_is_gm((pipe_id)p) ? e->stretch : 1.0);
        if (busy[p] > (double)e->total_cycles)
            busy[p] = (double)e->total_cycles;
    }
    double gm_read = (double)r->bytes[PIPE_MTE2],
           gm_write = (double)(r->bytes[PIPE_MTE3] + r->bytes[PIPE_FIXPIPE]);
    uint32_t veb = w->vec_elem_bytes ? w->vec_elem_bytes : 2;
    double vec_bytes = (double)w->vec_elems * veb * tiles;
    switch (t) {
    case 1: { /* executions: one per cycle of cube or vector work */
        uint32_t ceb = w->cube_elem_bytes ? w->cube_elem_bytes : 2;
        out[ceb == 1 ? 1 : 0] = sat(busy[PIPE_CUBE]);
        out[veb == 4 ? 2 : veb == 2 ? 3 : 6] = sat(busy[PIPE_VECTOR]);
        break;
    }
    case 2:
        out[0] = sat(busy[PIPE_VECTOR]);
        out[1] = sat(busy[PIPE_CUBE]);
        out[2] = sat(busy[PIPE_SCALAR]);
        out[3] = sat(busy[PIPE_MTE1]);
        out[4] = sat(busy[PIPE_MTE2]);
        out[5] = sat(busy[PIPE_MTE3]);
        break; /* icache_miss, icache_req: not modelled */
    case 4:
        if (e->core_type == 1) {
            out[0] = sat((vec_bytes + (double)r->bytes[PIPE_MTE3]) / req); /* vector and MTE3 read UB */
            out[1] = sat((vec_bytes + gm_read) / req);                     /* MTE2 and vector write it */
        } else {
            out[2] = sat((double)r->bytes[PIPE_MTE1] / req); /* MTE1 reads L1 */
            out[3] = sat(gm_read / req);                     /* MTE2 fills it */
        }
        out[4] = out[6] = sat(gm_read / req); /* no L2 model: every GM access reaches HBM */
        out[5] = out[7] = sat(gm_write / req);
        break;
    case 5:
        if (e->core_type == 0) {
            uint32_t ceb = w->cube_elem_bytes ? w->cube_elem_bytes : 2;
            double a = (double)(w->mnk[0] * w->mnk[2]) * ceb * tiles,
                   b = (double)(w->mnk[2] * w->mnk[1]) * ceb * tiles;
            double mte1 = (double)r->bytes[PIPE_MTE1];
            out[0] = sat(a / req);
            out[1] = sat(mte1 / 2 / req); /* MTE1 fills L0A and L0B */
            out[2] = sat(b / req);
            out[3] = sat(mte1 / 2 / req);
            out[4] = sat((double)r->bytes[PIPE_FIXPIPE] / req);              /* FIXPIPE drains L0C */
            out[5] = sat((double)(w->mnk[0] * w->mnk[1]) * 4 * tiles / req); /* fp32 accumulators */
        }
        break;
    case 6:
        break; /* bank and resource conflicts: not modelled */
    case 7:
        out[0] = sat((double)r->bytes[PIPE_MTE3] / req);
        out[1] = out[2] = sat(gm_write / req);
        out[3] = sat(e->core_type == 1 ? gm_read / req : 0);
        out[4] = out[5] = sat(vec_bytes / req);
        break;
    case 8: /* no L2 model: every access misses and allocates */
        out[1] = sat(gm_write / req);
        out[3] = sat(gm_read / req);
        break;
    default:
        break;
    }
}

void pmu_write_row(wbuf *f, int t, const pmu_exec *e, uint64_t bytes_per_req)
{
    uint32_t v[PMU_SLOTS];
    pmu_counters(t, e, bytes_per_req, v);
    /* one row per task execution, written at one room: printf would dominate an all-DFX run */
    int nc = pmu_ncolumns(t);
    char *p = wbuf_room(f, 128 + (size_t)PMU_SLOTS * 12); /* 6 leading fields, the counters, the type */
    if (!p)
        return;
    p = wbuf_sdec_at(p, e->thread_id);
    *p++ = ',';
    p = wbuf_sdec_at(p, e->core_id);
    p = wbuf_lit_at(p, ",0x");
    p = wbuf_hex16_at(p, e->task_id);
    *p++ = ',';
    p = wbuf_dec_at(p, e->func_id);
    *p++ = ',';
    p = wbuf_sdec_at(p, e->core_type);
    *p++ = ',';
    p = wbuf_dec_at(p, e->total_cycles);
    for (int i = 0; i < nc; i++) {
        *p++ = ',';
        p = wbuf_dec_at(p, v[i]);
    }
    *p++ = ',';
    p = wbuf_sdec_at(p, t);
    *p++ = '\n';
    wbuf_commit(f, p);
}

int pmu_log_init(pmu_log *l, int t, uint64_t bytes_per_req, char *err, size_t errlen)
{
    memset(l, 0, sizeof(*l));
    l->type = t;
    l->bytes_per_req = bytes_per_req;
    if (wbuf_open_scratch(&l->rows) != 0) {
        snprintf(err, errlen, "cannot create a temporary file for pmu.csv rows: %s", strerror(errno));
        return -1;
    }
    return 0;
}

void pmu_log_add(pmu_log *l, const pmu_exec *e)
{
    pmu_write_row(&l->rows, l->type, e, l->bytes_per_req);
    l->n++;
}

int pmu_log_write(pmu_log *l, const char *path, int *written, char *err, size_t errlen)
{
    *written = 0;
    if (!l->n)
        return 0;
    outfile of;
    FILE *f = outfile_open(&of, path, err, errlen);
    if (!f)
        return -1;
    pmu_write_header(f, l->type);
    if (wbuf_append_file(f, &l->rows) != 0) {
        int e = errno;
        outfile_abort(&of);
        snprintf(err, errlen, "%s: cannot assemble pmu.csv: %s", path, strerror(e));
        return -1;
    }
    if (outfile_commit(&of, err, errlen) != 0)
        return -1;
    *written = 1;
    return 0;
}

void pmu_log_free(pmu_log *l)
{
    wbuf_close(&l->rows);
    memset(l, 0, sizeof(*l));
}
