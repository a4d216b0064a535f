/* report_data_whatif.c - rd_: `ptosim whatif -o DIR`'s whatif.json as the report page reads it. */
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../model/base/json_reader.h"
#include "../../model/base/readall.h"
#include "report_data.h"
#include "report_data_int.h"

static int bad(jctx *c, const char *field, const char *what)
{
    return rd_bad(c->err, c->errlen, "%s: %s: %s", c->path, field, what);
}

static int need_str(jctx *c, const cJSON *o, const char *key, const char *field, char *out, size_t n)
{
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsString(m))
        return bad(c, field, "missing or not a string");
    rd_copy_str(out, n, m->valuestring);
    return 0;
}

/* Does word need quoting for a shell (anything past letters, digits and _ . , = / : + -)? */
static bool plain_word(const char *w)
{
    return *w &&
           strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.,=/:+-") == strlen(w);
}

/* Appends word to out (used bytes *u of n) as a shell reads it back: as it is, or in single quotes. */
static void put_word(char *out, size_t n, size_t *u, const char *w)
{
    bool q = !plain_word(w);
    const char *parts[] = {*u ? " " : "", q ? "'" : ""};
    for (int i = 0; i < 2; i++)
        for (const char *p = parts[i]; *p && *u + 1 < n; p++)
            out[(*u)++] = *p;
    for (; *w && *u + 5 < n; w++) {
        if (q && *w == '\'') {
            memcpy(out + *u, "'\\''", 4);
            *u += 4;
        } else
            out[(*u)++] = *w;
    }
    if (q && *u + 1 < n)
        out[(*u)++] = '\'';
    out[*u] = '\0';
}

static int load_lever(jctx *c, const cJSON *l, int i, rd_lever *lv)
{
    char f[64];
#define FIELD(name) (snprintf(f, sizeof(f), "levers[%d]%s", i, name), f)
    if (!cJSON_IsObject(l))
        return bad(c, FIELD(""), "not an object");
    if (need_str(c, l, "lever", FIELD(".lever"), lv->lever, sizeof(lv->lever)) != 0)
        return RD_BAD;
    const cJSON *fl = cJSON_GetObjectItemCaseSensitive(l, "flags");
    if (!cJSON_IsArray(fl))
        return bad(c, FIELD(".flags"), "missing or not an array");
    size_t u = 0;
    int k = 0;
    const cJSON *w;
    cJSON_ArrayForEach(w, fl)
    {
        if (!cJSON_IsString(w))
            return bad(c, (snprintf(f, sizeof(f), "levers[%d].flags[%d]", i, k), f), "not a string");
        put_word(lv->flags, sizeof(lv->flags), &u, w->valuestring);
        k++;
    }
    const cJSON *ms = cJSON_GetObjectItemCaseSensitive(l, "makespan_us");
    if (cJSON_IsNull(ms)) {
        if (need_str(c, l, "failed", FIELD(".failed"), lv->failed, sizeof(lv->failed)) != 0)
            return RD_BAD;
        return 0;
    }
    if (!cJSON_IsNumber(ms) || !(ms->valuedouble >= 0))
        return bad(c, FIELD(".makespan_us"), "missing or not a number >= 0 or null");
    lv->ran = true;
    lv->makespan_us = ms->valuedouble;
#undef FIELD
    return 0;
}

int rd_load_whatif(const char *path, rd_whatif *w, char *err, size_t errlen)
{
    memset(w, 0, sizeof(*w));
    cJSON *root;
    int rc = rd_read_json(path, READALL_RUN, &root, err, errlen);
    if (rc != RD_OK)
        return rc;
    jctx c = {path, err, errlen};
    rc = RD_BAD;
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(root, "baseline_makespan_us"),
                *ls = cJSON_GetObjectItemCaseSensitive(root, "levers");
    if (!cJSON_IsObject(root))
        bad(&c, "(top)", "not an object");
    else if (need_str(&c, root, "graph", "graph", w->graph, sizeof(w->graph)) != 0 ||
             need_str(&c, root, "platform", "platform", w->platform, sizeof(w->platform)) != 0)
        ;
    else if (!cJSON_IsNumber(b) || !(b->valuedouble > 0))
        bad(&c, "baseline_makespan_us", "missing or not a positive number");
    else if (!cJSON_IsArray(ls))
        bad(&c, "levers", "missing or not an array");
    else {
        w->baseline_us = b->valuedouble;
        int n = cJSON_GetArraySize(ls);
        w->v = calloc(n ? (size_t)n : 1, sizeof(*w->v));
        if (!w->v)
            bad(&c, "levers", "out of memory");
        else {
            const cJSON *l;
            rc = RD_OK;
            cJSON_ArrayForEach(l, ls)
            {
                if (load_lever(&c, l, w->n, &w->v[w->n]) != 0) {
                    rc = RD_BAD;
                    break;
                }
                w->v[w->n].gain_us = w->baseline_us - w->v[w->n].makespan_us;
                w->n++;
            }
        }
    }
    cJSON_Delete(root);
    if (rc != RD_OK)
        rd_whatif_free(w);
    return rc;
}

void rd_whatif_free(rd_whatif *w)
{
    free(w->v);
    w->v = NULL;
    w->n = 0;
}
