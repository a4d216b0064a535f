/* report_data_roof.c - rd_: ptosim_run.json's "roofline" as the report page reads it. */
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_data.h"
#include "report_data_int.h"

static int bad(jctx *c, const char *field, const char *what)
{
    return rd_bad(c->err, c->errlen, "%s: %s: %s", c->path, field, what);
}

/* A number member that may be null (*known false); absent or any other type is an error. */
static int num_or_null(jctx *c, const cJSON *o, const char *key, const char *field, bool *known, double *v)
{
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, key);
    *known = false;
    if (cJSON_IsNull(m))
        return 0;
    if (!cJSON_IsNumber(m))
        return bad(c, field, "missing or not a number or null");
    *known = true;
    *v = m->valuedouble;
    return 0;
}

/* A string member that may be null (out ""). */
static int str_or_null(jctx *c, const cJSON *o, const char *key, const char *field, char *out, size_t n)
{
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, key);
    out[0] = 0;
    if (cJSON_IsNull(m))
        return 0;
    if (!cJSON_IsString(m))
        return bad(c, field, "missing or not a string or null");
    rd_copy_str(out, n, m->valuestring);
    return 0;
}

static int need_pos(jctx *c, const cJSON *o, const char *key, const char *field, double *v)
{
    bool known;
    if (num_or_null(c, o, key, field, &known, v) != 0)
        return RD_BAD;
    if (!known || !(*v > 0))
        return bad(c, field, "not a positive number");
    return 0;
}

static int load_kernel(jctx *c, const cJSON *k, int i, rd_roof_kernel *kd)
{
    char f[96], core[16];
    bool known;
    double d = 0;
#define FIELD(name) (snprintf(f, sizeof(f), "roofline.kernels[%d].%s", i, name), f)
    if (!cJSON_IsObject(k))
        return bad(c, (snprintf(f, sizeof(f), "roofline.kernels[%d]", i), f), "not an object");
    if (num_or_null(c, k, "func_id", FIELD("func_id"), &known, &d) != 0)
        return RD_BAD;
    if (!known || !(d >= 0 && d < 1e6))
        return bad(c, f, "not a func id");
    kd->func_id = (int)d;
    if (str_or_null(c, k, "name", FIELD("name"), kd->name, sizeof(kd->name)) != 0 ||
        str_or_null(c, k, "core", FIELD("core"), core, sizeof(core)) != 0)
        return RD_BAD;
    if (strcmp(core, "aic") != 0 && strcmp(core, "aiv") != 0)
        return bad(c, f, "not \"aic\" or \"aiv\"");
    kd->aic = strcmp(core, "aic") == 0;
    if (str_or_null(c, k, "status", FIELD("status"), kd->status, sizeof(kd->status)) != 0 ||
        str_or_null(c, k, "note", FIELD("note"), kd->note, sizeof(kd->note)) != 0 ||
        num_or_null(c, k, "arithmetic_intensity", FIELD("arithmetic_intensity"), &kd->has_ai, &kd->ai) != 0 ||
        num_or_null(c, k, "achieved_op_per_s", FIELD("achieved_op_per_s"), &kd->placed, &kd->achieved) != 0)
        return RD_BAD;
    if (kd->placed) {
        char bound[16];
        if (need_pos(c, k, "peak_op_per_s", FIELD("peak_op_per_s"), &kd->peak) != 0 ||
            need_pos(c, k, "roof_op_per_s", FIELD("roof_op_per_s"), &kd->roof) != 0 ||
            num_or_null(c, k, "roof_fraction", FIELD("roof_fraction"), &known, &kd->fraction) != 0 ||
            str_or_null(c, k, "bound", FIELD("bound"), bound, sizeof(bound)) != 0)
            return RD_BAD;
        if (strcmp(bound, "compute") != 0 && strcmp(bound, "memory") != 0)
            return bad(c, f, "not \"compute\" or \"memory\"");
        kd->compute_bound = strcmp(bound, "compute") == 0;
        if (kd->achieved < 0)
            return bad(c, FIELD("achieved_op_per_s"), "negative");
    }
    if (kd->has_ai && !(kd->ai > 0))
        return bad(c, FIELD("arithmetic_intensity"), "not a positive number");
    if (str_or_null(c, k, "busiest_pipe", FIELD("busiest_pipe"), kd->busiest, sizeof(kd->busiest)) != 0 ||
        num_or_null(c, k, "critical_path_share", FIELD("critical_path_share"), &kd->has_cp, &kd->cp_share) !=
            0)
        return RD_BAD;
#undef FIELD
    return 0;
}

int rd_load_roof(jctx *c, const cJSON *root, rd_roof *out)
{
    memset(out, 0, sizeof(*out));
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(root, "roofline");
    if (!r || cJSON_IsNull(r))
        return 0;
    if (!cJSON_IsObject(r))
        return bad(c, "roofline", "not an object or null");
    const cJSON *ce = cJSON_GetObjectItemCaseSensitive(r, "ceilings"),
                *ks = cJSON_GetObjectItemCaseSensitive(r, "kernels");
    if (!cJSON_IsObject(ce))
        return bad(c, "roofline.ceilings", "missing or not an object");
    if (need_pos(c, ce, "cube_peak_flop_per_s", "roofline.ceilings.cube_peak_flop_per_s", &out->cube_peak) !=
            0 ||
        need_pos(c, ce, "vector_peak_op_per_s", "roofline.ceilings.vector_peak_op_per_s",
                 &out->vector_peak) != 0 ||
        need_pos(c, ce, "hbm_bytes_per_s", "roofline.ceilings.hbm_bytes_per_s", &out->hbm_bw) != 0)
        return RD_BAD;
    if (!cJSON_IsArray(ks))
        return bad(c, "roofline.kernels", "missing or not an array");
    int n = cJSON_GetArraySize(ks);
    out->k = calloc(n ? (size_t)n : 1, sizeof(*out->k));
    if (!out->k)
        return bad(c, "roofline.kernels", "out of memory");
    const cJSON *k;
    cJSON_ArrayForEach(k, ks)
    {
        if (load_kernel(c, k, out->n, &out->k[out->n]) != 0)
            return RD_BAD;
        out->n++;
    }
    out->given = true;
    return 0;
}
