/* roofline.h - roof_: where each kernel of a run stands against the die's compute peaks and HBM bandwidth. */
/* The figures of ptosim_run.json's "roofline" (model/README.md §10.6, docs/explanation/kernel-costs.md). */
#ifndef PTOSIM_ROOFLINE_H
#define PTOSIM_ROOFLINE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../engine/chip_engine.h"

/* The die's ceilings, from the platform's own parameters, at 16-bit elements (fp16/bf16). */
typedef struct roof_ceilings {
    int aic_cores, aiv_cores; /* clusters, 2 x clusters */
    double cube_peak;         /* FLOP/s: aic_cores x 2 cube_m cube_n (cube_k_bytes / 2) x aicore_freq_hz */
    double vector_peak;       /* element ops/s: aiv_cores x (vec_bytes_per_cycle / 2) x aicore_freq_hz */
    double hbm_bw;            /* B/s: hbm_bw */
} roof_ceilings;

/* Why a kernel has no point on the roofline, or ROOF_OK. */
typedef enum {
    ROOF_OK,         /* intensity, achieved throughput and roof known */
    ROOF_NO_GM,      /* operations but no GM traffic: no intensity; its roof is the compute peak */
    ROOF_NO_WORK,    /* counted, but no cube (AIC) or vector (AIV) work: 0 operations */
    ROOF_NOT_RUN,    /* no execution */
    ROOF_NO_PROFILE, /* a flat cycles or ns cost: no pipe profile */
    ROOF_MEASURED,   /* a Perf-Sim profile: busy cycles and GM bytes, no operation count */
    ROOF_CYCLES,     /* its compute pipe given in cycles: no operation count */
} roof_status;

/* One kernel against the roofline. */
typedef struct roof_kernel {
    roof_status status;
    bool aic;             /* cube core (FLOPs) or vector core (element ops) */
    uint64_t counted;     /* executions whose operations are counted */
    double ops;           /* their operations */
    double gm_bytes;      /* their GM bytes (HBM traffic; re-reads the L2 serves are not in it) */
    double time_us;       /* their time on cores (with HBM contention) */
    double intensity;     /* ops / gm_bytes (ROOF_OK) */
    double achieved;      /* ops/s of the die if every core of its type ran it as here: ops / time x cores */
    double peak;          /* the die's compute peak at the kernel's element size */
    double roof;          /* min(peak, intensity x hbm_bw): the most the die can do at this intensity */
    bool compute_bound;   /* intensity x hbm_bw >= peak (at or right of the ridge point) */
    double roof_fraction; /* achieved / roof */
    int busiest;          /* busiest pipe over its executions, -1 without a pipe profile */
    double busiest_fraction; /* its busy fraction */
} roof_kernel;

/* The ceilings of platform p. */
void roof_ceilings_of(const platform *p, roof_ceilings *c);

/* Kernel func's figures from its run statistics (k: its graph entry, for why it has no count). */
void roof_kernel_of(const chip *c, const roof_ceilings *ce, int func, roof_kernel *out);

/* The words of a status: "ok", "no GM traffic", "no cube work" / "no vector work", "not run",
 * "no pipe profile", "Perf-Sim profile: no operation count", "compute pipe given in cycles: no operation
 * count". */
const char *roof_status_text(roof_status s, bool aic);

/* Each kernel's share of the observed critical path (the runtime's critical_path tool's walk): path_us[f]
 * the compute on the path of the tasks whose last-ending execution ran kernel f, *span_us the path's span
 * (first start to last end). Returns 1, 0 when there is no path (no execution, the log dropped past its
 * limit), or -1 when out of memory. */
int roof_critical_path(const chip *c, double *path_us /* [GRAPH_MAX_FUNC_ID] */, double *span_us);

/* Writes ptosim_run.json's "roofline" member (with its trailing ",\n"). Out of memory, it counts as a
 * failed write (outfile_note_failure): the file is not committed. */
void roof_write_json(const chip *c, FILE *f);

#endif
