/* scope_stats.c - scopestats_: scope stats samples and the version-6 JSON Lines file. */
#include "scope_stats.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../base/outfile.h"

int scopestats_init(scopestats *s, char *err, size_t errlen)
{
    memset(s, 0, sizeof(*s));
    if (wbuf_open_scratch(&s->body) != 0) {
        snprintf(err, errlen, "cannot create a temporary file for scope stats: %s", strerror(errno));
        return -1;
    }
    return 0;
}

void scopestats_free(scopestats *s)
{
    wbuf_close(&s->body);
    memset(s, 0, sizeof(*s));
}

/* The n bytes at s into out as snprintf's "%.*s" would put them: cut to outlen - 1, ended by a NUL. */
static void put_cut(char *out, size_t outlen, const char *s, size_t n)
{
    if (!outlen)
        return;
    if (n > outlen - 1)
        n = outlen - 1;
    memcpy(out, s, n);
    out[n] = '\0';
}

void scopestats_site(const char *site, char *out, size_t outlen)
{
    /* no printf: called once per scope sample */
    const char *colon = strrchr(site, ':');
    if (!colon || !colon[1]) {
        put_cut(out, outlen, "(unknown):0", 11);
        return;
    }
    const char *base = site;
    for (const char *p = site; p < colon; p++)
        if (*p == '/' || *p == '\\')
            base = p + 1;
    size_t len = (size_t)(colon - base);
    if (len > SCOPESTATS_SITE_BASENAME)
        len = SCOPESTATS_SITE_BASENAME;
    char text[SCOPESTATS_SITE_BASENAME + 2 + 24], digits[24], *d = digits + sizeof(digits);
    memcpy(text, base, len);
    text[len++] = ':';
    long line = strtol(colon + 1, NULL, 10);
    unsigned long mag = line < 0 ? 0UL - (unsigned long)line : (unsigned long)line;
    do
        *--d = (char)('0' + mag % 10);
    while ((mag /= 10) != 0);
    if (line < 0)
        *--d = '-';
    size_t k = (size_t)(digits + sizeof(digits) - d);
    memcpy(text + len, d, k);
    put_cut(out, outlen, text, len + k);
}

/* A sample as kept until the file is written (line 1, which comes first, needs the total): the numbers,
 * then site_len bytes of its site as scopestats_site made it. Packed, it is a third of its line. */
typedef struct ss_rec {
    uint64_t heap_start, heap_end, dep_pool_start, dep_pool_end;
    uint32_t task_window_start, task_window_end, tensormap;
    int32_t depth, ring;
    uint8_t begin, site_len;
    uint8_t pad[2]; /* every byte a member: none goes out unset */
} ss_rec;

_Static_assert(sizeof(ss_rec) == 56, "a kept sample has no padding");

void scopestats_add(scopestats *s, const scope_sample *x)
{
    if (x->depth >= SCOPESTATS_MAX_DEPTH)
        return;
    char rec[sizeof(ss_rec) + 80], *site = rec + sizeof(ss_rec);
    scopestats_site(x->site, site, 80);
    size_t len = strlen(site);
    ss_rec r = {.heap_start = x->heap_start,
                .heap_end = x->heap_end,
                .dep_pool_start = x->dep_pool_start,
                .dep_pool_end = x->dep_pool_end,
                .task_window_start = x->task_window_start,
                .task_window_end = x->task_window_end,
                .tensormap = x->tensormap,
                .depth = x->depth,
                .ring = x->ring,
                .begin = x->begin,
                .site_len = (uint8_t)len};
    memcpy(rec, &r, sizeof(r));
    s->total++;
    wbuf_put(&s->body, rec, sizeof(r) + len);
}

/* A sample's text but its site: keys and nine numbers of 20 digits. */
#define SAMPLE_FIXED_MAX 400

/* Writes the kept samples as lines to w. Returns 0, or -1 with errno set. */
static int write_samples(scopestats *s, wbuf *w)
{
    wbuf_reader rd;
    if (wbuf_reader_open(&rd, &s->body) != 0)
        return -1;
    int rc = 0;
    for (uint64_t i = 0; i < s->total && rc == 0; i++) {
        const char *q = wbuf_reader_next(&rd, sizeof(ss_rec));
        ss_rec x;
        char site[81];
        if (q) {
            memcpy(&x, q, sizeof(x));
            q = x.site_len < sizeof(site) ? wbuf_reader_next(&rd, x.site_len) : NULL;
        }
        if (!q) {
            rc = -1;
            break;
        }
        memcpy(site, q, x.site_len);
        site[x.site_len] = '\0';
        wbuf_lit(w, "{\"site\": ");
        wbuf_json_str(w, site);
        /* the rest at one room: a file of a line per sample (no printf) */
        char *p = wbuf_room(w, SAMPLE_FIXED_MAX);
        if (!p)
            continue;
        if (x.begin)
            p = wbuf_lit_at(p, ", \"phase\": \"begin\", \"depth\": ");
        else
            p = wbuf_lit_at(p, ", \"phase\": \"end\", \"depth\": ");
        p = wbuf_sdec_at(p, x.depth);
        p = wbuf_lit_at(p, ", \"ring\": ");
        p = wbuf_sdec_at(p, x.ring);
        p = wbuf_lit_at(p, ", \"task_window_start\": ");
        p = wbuf_dec_at(p, x.task_window_start);
        p = wbuf_lit_at(p, ", \"task_window_end\": ");
        p = wbuf_dec_at(p, x.task_window_end);
        p = wbuf_lit_at(p, ", \"heap_start\": ");
        p = wbuf_dec_at(p, x.heap_start);
        p = wbuf_lit_at(p, ", \"heap_end\": ");
        p = wbuf_dec_at(p, x.heap_end);
        p = wbuf_lit_at(p, ", \"dep_pool_start\": ");
        p = wbuf_dec_at(p, x.dep_pool_start);
        p = wbuf_lit_at(p, ", \"dep_pool_end\": ");
        p = wbuf_dec_at(p, x.dep_pool_end);
        p = wbuf_lit_at(p, ", \"tensormap\": ");
        p = wbuf_dec_at(p, x.tensormap);
        p = wbuf_lit_at(p, "}\n");
        wbuf_commit(w, p);
    }
    int e = errno;
    wbuf_reader_close(&rd);
    errno = e;
    return rc;
}

int scopestats_write(scopestats *s, const char *path, bool fatal, const scope_caps *caps, char *err,
                     size_t errlen)
{
    outfile of;
    FILE *f = outfile_open(&of, path, err, errlen);
    if (!f)
        return -1;
    outfile_printf(f,
                   "{\"version\": %d, \"fatal\": %s, \"dropped\": 0, \"total\": %" PRIu64
                   ", \"task_window_max\": [%u, %u, %u, %u], \"heap_max\": [%" PRIu64 ", %" PRIu64
                   ", %" PRIu64 ", %" PRIu64
                   "], \"dep_pool_max\": [%u, %u, %u, %u], \"tensormap_max\": %u}\n",
                   SCOPESTATS_VERSION, fatal ? "true" : "false", s->total, caps->task_window[0],
                   caps->task_window[1], caps->task_window[2], caps->task_window[3], caps->heap[0],
                   caps->heap[1], caps->heap[2], caps->heap[3], caps->dep_pool[0], caps->dep_pool[1],
                   caps->dep_pool[2], caps->dep_pool[3], caps->tensormap);
    wbuf w;
    int rc = fflush(f) != 0 || wbuf_open_fd(&w, fileno(f)) != 0 ? -1 : 0;
    if (rc == 0) {
        rc = write_samples(s, &w);
        int e = errno;
        if (wbuf_close(&w) != 0 && rc == 0)
            rc = -1;
        else
            errno = e;
    }
    if (rc != 0) {
        int e = errno;
        outfile_abort(&of);
        snprintf(err, errlen, "%s: cannot assemble scope stats: %s", path, strerror(e));
        return -1;
    }
    return outfile_commit(&of, err, errlen);
}
