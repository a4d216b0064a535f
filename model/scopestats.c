/* scopestats.c - scope stats samples and the version-6 JSON Lines file. */
#include "scopestats.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "jsonw.h"
#include "outfile.h"

int scopestats_init(scopestats *s, char *err, size_t errlen)
{
    memset(s, 0, sizeof(*s));
    s->body = outfile_scratch();
    if (!s->body) {
        snprintf(err, errlen, "cannot create a temporary file for scope stats: %s", strerror(errno));
        return -1;
    }
    return 0;
}

void scopestats_free(scopestats *s)
{
    if (s->body)
        fclose(s->body);
    memset(s, 0, sizeof(*s));
}

void scopestats_site(const char *site, char *out, size_t outlen)
{
    const char *colon = strrchr(site, ':');
    if (!colon || !colon[1]) {
        snprintf(out, outlen, "(unknown):0");
        return;
    }
    const char *base = site;
    for (const char *p = site; p < colon; p++)
        if (*p == '/' || *p == '\\')
            base = p + 1;
    int len = (int)(colon - base);
    if (len > SCOPESTATS_SITE_BASENAME)
        len = SCOPESTATS_SITE_BASENAME;
    snprintf(out, outlen, "%.*s:%ld", len, base, strtol(colon + 1, NULL, 10));
}

void scopestats_add(scopestats *s, const scope_sample *x)
{
    if (x->depth >= SCOPESTATS_MAX_DEPTH)
        return;
    char site[80];
    scopestats_site(x->site, site, sizeof(site));
    s->total++;
    fputs("{\"site\": ", s->body);
    jsonw_str(s->body, site);
    fprintf(s->body,
            ", \"phase\": \"%s\", \"depth\": %d, \"ring\": %d, \"task_window_start\": %" PRIu32
            ", \"task_window_end\": %" PRIu32 ", \"heap_start\": %" PRIu64 ", \"heap_end\": %" PRIu64
            ", \"dep_pool_start\": %" PRIu64 ", \"dep_pool_end\": %" PRIu64 ", \"tensormap\": %" PRIu32 "}\n",
            x->begin ? "begin" : "end", x->depth, x->ring, x->task_window_start, x->task_window_end,
            x->heap_start, x->heap_end, x->dep_pool_start, x->dep_pool_end, x->tensormap);
}

int scopestats_write(scopestats *s, const char *path, bool fatal, const scope_caps *caps, char *err,
                     size_t errlen)
{
    outfile of;
    FILE *f = outfile_open(&of, path, err, errlen);
    if (!f)
        return -1;
    fprintf(f,
            "{\"version\": %d, \"fatal\": %s, \"dropped\": 0, \"total\": %" PRIu64
            ", \"task_window_max\": [%u, %u, %u, %u], \"heap_max\": [%" PRIu64 ", %" PRIu64 ", %" PRIu64
            ", %" PRIu64 "], \"dep_pool_max\": [%u, %u, %u, %u], \"tensormap_max\": %u}\n",
            SCOPESTATS_VERSION, fatal ? "true" : "false", s->total, caps->task_window[0],
            caps->task_window[1], caps->task_window[2], caps->task_window[3], caps->heap[0], caps->heap[1],
            caps->heap[2], caps->heap[3], caps->dep_pool[0], caps->dep_pool[1], caps->dep_pool[2],
            caps->dep_pool[3], caps->tensormap);
    char buf[1 << 16];
    size_t n;
    int bad = fflush(s->body) != 0 || fseek(s->body, 0, SEEK_SET) != 0;
    while (!bad && (n = fread(buf, 1, sizeof(buf), s->body)) > 0)
        bad = fwrite(buf, 1, n, f) != n;
    if (bad || ferror(s->body)) {
        outfile_abort(&of);
        snprintf(err, errlen, "%s: cannot assemble scope stats: %s", path, strerror(errno));
        return -1;
    }
    fseek(s->body, 0, SEEK_END);
    return outfile_commit(&of, err, errlen);
}
