/* gcomp.c - a compiled graph: a graph file's operations parsed and checked once, as records runs map instead
 * of reparsing. */
#include "gcomp.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "oprec.h"
#include "outfile.h"

#define GCOMP_FLUSH_BYTES (1 << 20)  /* records are written out in runs of about this much */
#define HASH_K 0x9E3779B97F4A7C15ULL /* 2^64 / golden ratio: an odd multiplier that spreads bits */

_Static_assert(sizeof(gcomp_head) == GCOMP_HEAD_BYTES, "the head is GCOMP_HEAD_BYTES long");
_Static_assert(GCOMP_HEAD_BYTES % 8 == 0, "records after the head stay 8-byte aligned");

/* ---- hash ---- */

static inline uint64_t mix(uint64_t h, uint64_t w)
{
    h ^= w;
    h *= HASH_K;
    return h ^ (h >> 31);
}

void gcomp_hash_init(gcomp_hasher *h)
{
    memset(h, 0, sizeof(*h));
    for (int i = 0; i < 4; i++)
        h->lane[i] = HASH_K * (uint64_t)(i + 1);
}

void gcomp_hash_update(gcomp_hasher *h, const void *data, size_t n)
{
    const unsigned char *p = data;
    h->nbytes += n;
    while (h->ntail && n) { /* finish a word begun by the last call */
        h->tail[h->ntail++] = *p++;
        n--;
        if (h->ntail == 8) {
            uint64_t w;
            memcpy(&w, h->tail, 8);
            h->lane[h->nwords & 3] = mix(h->lane[h->nwords & 3], w);
            h->nwords++;
            h->ntail = 0;
        }
    }
    if (h->ntail)
        return; /* n ran out before the word was whole */
    for (; n >= 8 && (h->nwords & 3); p += 8, n -= 8, h->nwords++) {
        uint64_t w;
        memcpy(&w, p, 8);
        h->lane[h->nwords & 3] = mix(h->lane[h->nwords & 3], w);
    }
    uint64_t l0 = h->lane[0], l1 = h->lane[1], l2 = h->lane[2], l3 = h->lane[3];
    for (; n >= 32; p += 32, n -= 32, h->nwords += 4) {
        uint64_t w[4];
        memcpy(w, p, 32);
        l0 = mix(l0, w[0]);
        l1 = mix(l1, w[1]);
        l2 = mix(l2, w[2]);
        l3 = mix(l3, w[3]);
    }
    h->lane[0] = l0;
    h->lane[1] = l1;
    h->lane[2] = l2;
    h->lane[3] = l3;
    for (; n >= 8; p += 8, n -= 8, h->nwords++) {
        uint64_t w;
        memcpy(&w, p, 8);
        h->lane[h->nwords & 3] = mix(h->lane[h->nwords & 3], w);
    }
    if (n) /* p may be NULL for an empty input */
        memcpy(h->tail, p, n);
    h->ntail = n;
}

uint64_t gcomp_hash_final(const gcomp_hasher *h)
{
    uint64_t lane[4];
    memcpy(lane, h->lane, sizeof(lane));
    if (h->ntail) {
        unsigned char last[8] = {0};
        memcpy(last, h->tail, h->ntail);
        uint64_t w;
        memcpy(&w, last, 8);
        lane[h->nwords & 3] = mix(lane[h->nwords & 3], w);
    }
    uint64_t r = mix(h->nbytes, lane[0]);
    for (int i = 1; i < 4; i++)
        r = mix(r, lane[i]);
    return mix(r, 0);
}

int gcomp_hash_file(const char *path, uint64_t *out)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    unsigned char *buf = malloc(GCOMP_FLUSH_BYTES);
    if (!buf) {
        close(fd);
        errno = ENOMEM;
        return -1;
    }
    gcomp_hasher h;
    gcomp_hash_init(&h);
    ssize_t n;
    while ((n = read(fd, buf, GCOMP_FLUSH_BYTES)) != 0) {
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            break;
        gcomp_hash_update(&h, buf, (size_t)n);
    }
    int saved = errno;
    free(buf);
    close(fd);
    if (n < 0) {
        errno = saved;
        return -1;
    }
    *out = gcomp_hash_final(&h);
    return 0;
}

/* ---- writing ---- */

/* Writes and hashes the records gathered so far, then empties b. Returns 0 or -1. */
static int flush_records(FILE *f, oprec_buf *b, gcomp_hasher *h)
{
    if (b->used == 0) /* b->buf is NULL before the first record */
        return 0;
    gcomp_hash_update(h, b->buf, b->used);
    size_t n = fwrite(b->buf, 1, b->used, f);
    int ok = n == b->used;
    b->used = 0;
    return ok ? 0 : -1;
}

int gcomp_compile(const char *src, const char *out, char *err, size_t errlen)
{
    struct stat before, after;
    if (stat(src, &before) != 0) {
        snprintf(err, errlen, "%s: cannot read the graph: %s", src, strerror(errno));
        return 1;
    }
    graph *g = malloc(sizeof(*g));
    graph_op *op = calloc(1, sizeof(*op));
    oprec_buf b = {0};
    outfile of;
    FILE *f = NULL;
    int rc = -1;
    if (!g || !op) {
        snprintf(err, errlen, "out of memory");
        goto out_free;
    }
    if (graph_open(g, src, err, errlen) != 0) {
        rc = 1;
        goto out_free;
    }
    f = outfile_open(&of, out, err, errlen);
    if (!f)
        goto out_close;
    gcomp_head head = {.format = GCOMP_FORMAT, .head_bytes = GCOMP_HEAD_BYTES, .layout = oprec_layout()};
    memcpy(head.magic, GCOMP_MAGIC, sizeof(head.magic));
    if (fwrite(&head, sizeof(head), 1, f) != 1)
        goto out_io;
    gcomp_hasher h;
    gcomp_hash_init(&h);
    int got;
    while ((got = graph_next(g, op, err, errlen)) > 0) {
        if (oprec_append(&b, op, 2 * GCOMP_FLUSH_BYTES) != 0) {
            snprintf(err, errlen, "%s: out of memory while compiling it", src);
            goto out_abort;
        }
        head.nops++;
        if (b.used >= GCOMP_FLUSH_BYTES) {
            head.rec_bytes += b.used;
            if (flush_records(f, &b, &h) != 0)
                goto out_io;
        }
    }
    if (got < 0) {
        rc = 1;
        goto out_abort;
    }
    head.rec_bytes += b.used;
    if (flush_records(f, &b, &h) != 0)
        goto out_io;
    head.rec_hash = gcomp_hash_final(&h);
    if (gcomp_hash_file(src, &head.src_hash) != 0) {
        snprintf(err, errlen, "%s: cannot read the graph: %s", src, strerror(errno));
        goto out_abort;
    }
    /* a graph rewritten while it was read would be compiled half old, half new */
    if (stat(src, &after) != 0 || after.st_size != before.st_size ||
        after.st_mtim.tv_sec != before.st_mtim.tv_sec || after.st_mtim.tv_nsec != before.st_mtim.tv_nsec) {
        snprintf(err, errlen, "%s: the graph changed while it was being compiled; try again", src);
        goto out_abort;
    }
    head.src_size = (uint64_t)before.st_size;
    head.src_mtime_s = (int64_t)before.st_mtim.tv_sec;
    head.src_mtime_ns = (int64_t)before.st_mtim.tv_nsec;
    if (fseek(f, 0, SEEK_SET) != 0 || fwrite(&head, sizeof(head), 1, f) != 1)
        goto out_io;
    rc = outfile_commit(&of, err, errlen) == 0 ? 0 : -1;
    f = NULL;
    goto out_close;
out_io:
    snprintf(err, errlen, "%s: cannot write: %s", out, strerror(errno));
out_abort:
    outfile_abort(&of);
out_close:
    graph_close(g);
out_free:
    free(b.buf);
    free(op);
    free(g);
    return rc;
}

/* ---- reading ---- */

int gcomp_open(gcomp *gc, const char *path, const char *src, char *err, size_t errlen)
{
    memset(gc, 0, sizeof(*gc));
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    if ((uint64_t)st.st_size < GCOMP_HEAD_BYTES) {
        snprintf(err, errlen, "%s: not a compiled graph (%lld bytes, shorter than its head)", path,
                 (long long)st.st_size);
        close(fd);
        return -1;
    }
    void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (map == MAP_FAILED) {
        snprintf(err, errlen, "%s: cannot map: %s", path, strerror(errno));
        return -1;
    }
    gc->map = map;
    gc->map_bytes = (size_t)st.st_size;
    memcpy(&gc->head, map, sizeof(gc->head));
    const gcomp_head *h = &gc->head;
    if (memcmp(h->magic, GCOMP_MAGIC, sizeof(h->magic)) != 0) {
        snprintf(err, errlen, "%s: not a compiled graph (it does not start with %s)", path, GCOMP_MAGIC);
        goto out_bad;
    }
    if (h->format != GCOMP_FORMAT || h->head_bytes != GCOMP_HEAD_BYTES) {
        snprintf(err, errlen, "%s: compiled graph format %u; this ptosim reads format %d", path, h->format,
                 GCOMP_FORMAT);
        goto out_bad;
    }
    if (h->layout != oprec_layout()) {
        snprintf(err, errlen,
                 "%s: compiled by a ptosim built with another record layout (%016llx; this one has %016llx)",
                 path, (unsigned long long)h->layout, (unsigned long long)oprec_layout());
        goto out_bad;
    }
    if (h->rec_bytes != (uint64_t)st.st_size - GCOMP_HEAD_BYTES) {
        snprintf(err, errlen, "%s: %lld bytes where its head says %llu: the file is %s", path,
                 (long long)st.st_size, (unsigned long long)(h->rec_bytes + GCOMP_HEAD_BYTES),
                 h->rec_bytes > (uint64_t)st.st_size - GCOMP_HEAD_BYTES ? "cut short"
                                                                        : "longer than written");
        goto out_bad;
    }
    gc->recs = (const unsigned char *)map + GCOMP_HEAD_BYTES;
    gcomp_hasher hs;
    gcomp_hash_init(&hs);
    gcomp_hash_update(&hs, gc->recs, h->rec_bytes);
    if (gcomp_hash_final(&hs) != h->rec_hash) {
        snprintf(err, errlen, "%s: damaged: its records do not match the hash in its head", path);
        goto out_bad;
    }
    struct stat ss;
    if (stat(src, &ss) != 0) {
        snprintf(err, errlen, "%s: cannot read the graph: %s", src, strerror(errno));
        goto out_bad;
    }
    if ((uint64_t)ss.st_size != h->src_size || (int64_t)ss.st_mtim.tv_sec != h->src_mtime_s ||
        (int64_t)ss.st_mtim.tv_nsec != h->src_mtime_ns) {
        char what[96];
        if ((uint64_t)ss.st_size != h->src_size)
            snprintf(what, sizeof(what), "%llu bytes then, %lld now", (unsigned long long)h->src_size,
                     (long long)ss.st_size);
        else
            snprintf(what, sizeof(what), "modified since");
        snprintf(err, errlen, "%s has changed since it was compiled into %s (%s)", src, path, what);
        gcomp_head keep = gc->head;
        gcomp_close(gc);
        gc->head = keep;
        return GCOMP_STALE;
    }
    return 0;
out_bad:
    gcomp_close(gc);
    return -1;
}

void gcomp_close(gcomp *gc)
{
    if (gc->map)
        munmap(gc->map, gc->map_bytes);
    memset(gc, 0, sizeof(*gc));
}

int gcomp_next(gcomp_cursor *cur, graph *g, graph_op *op, char *err, size_t errlen)
{
    const gcomp *gc = cur->gc;
    if (cur->pos >= gc->head.rec_bytes)
        return 0;
    size_t at = cur->pos;
    if (oprec_read_checked(gc->recs, gc->head.rec_bytes, &cur->pos, op) != 0) {
        snprintf(err, errlen, "compiled graph of %s: the record at byte %zu is not whole", g->path,
                 at + GCOMP_HEAD_BYTES);
        return -1;
    }
    g->line = op->line;
    g->nops++;
    return 1;
}
