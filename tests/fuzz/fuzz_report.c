/* fuzz_report.c - libFuzzer target: the readers `ptosim report`, `overhead` and the sweep charts use. */
/* On a run's files: the first byte picks the reader (ptosim_run.json, the swimlane, deps.json, scope
 * stats, pmu.csv, sweep.csv), the rest is the file; a swimlane and a deps.json that both read go on to the
 * critical path, and a sweep that reads to its knobs and curves. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../sim/report/report_data.h"
#include "fuzzutil.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64];
    static rd_swimlane last_sl;
    static bool have_sl;
    if (!path[0])
        fuzz_scratch_path(path, sizeof(path), "report");
    if (size < 1 || fuzz_write_file(path, data + 1, size - 1) != 0)
        return 0;
    char err[2048];
    switch (data[0] % 6) {
    case 0: {
        rd_run r;
        if (rd_load_run(path, &r, err, sizeof(err)) == RD_OK)
            rd_run_free(&r);
        break;
    }
    case 1: {
        rd_swimlane sl;
        if (rd_load_swimlane(path, &sl, err, sizeof(err)) == RD_OK) {
            if (have_sl)
                rd_swimlane_free(&last_sl);
            last_sl = sl; /* kept for a deps.json input's critical path */
            have_sl = true;
        }
        break;
    }
    case 2: {
        rd_deps d;
        if (rd_load_deps(path, &d, err, sizeof(err)) == RD_OK) {
            rd_path p;
            if (have_sl && rd_critical_path(&last_sl, &d, &p) == 0)
                rd_path_free(&p);
            rd_deps_free(&d);
        }
        break;
    }
    case 3: {
        rd_scopes s;
        if (rd_load_scopes(path, &s, err, sizeof(err)) == RD_OK)
            rd_scopes_free(&s);
        break;
    }
    case 4: {
        rd_pmu p;
        if (rd_load_pmu(path, &p, err, sizeof(err)) == RD_OK)
            rd_pmu_free(&p);
        break;
    }
    default: {
        rd_sweep s;
        if (rd_load_sweep(path, &s, err, sizeof(err)) == RD_OK) {
            rd_knob k[8];
            int nk = rd_sweep_knobs(&s, k, 8);
            for (int i = 0; i < nk; i++) {
                rd_point *pt = NULL;
                if (rd_sweep_curve(&s, &k[i], 0, &pt) >= 0)
                    free(pt);
            }
            rd_sweep_free(&s);
        }
        break;
    }
    }
    return 0;
}
