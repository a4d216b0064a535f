/* graph_compiled.c - gcomp_: a compiled graph: a graph's operations parsed once, as records runs map. */
#include "graph_compiled.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../base/dtype.h"
#include "op_record.h"
#include "../base/outfile.h"
#include "../base/userdir.h"
#include "../runtime/ring_resources.h"

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

/* gcomp_compile; with keep, *keep gets a descriptor open for reading on the very file written (not on its
 * name, which another could replace), or -1. */
static int compile(const char *src, const char *out, int *keep, char *err, size_t errlen)
{
    struct stat before, after;
    if (keep)
        *keep = -1;
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
    if (keep) { /* the inode written, opened again for reading: its name may be anyone's after the rename */
        char self[64];
        snprintf(self, sizeof(self), "/proc/self/fd/%d", fileno(f));
        if ((*keep = open(self, O_RDONLY | O_CLOEXEC)) < 0)
            goto out_io;
    }
    rc = outfile_commit(&of, err, errlen) == 0 ? 0 : -1;
    f = NULL;
    if (rc != 0 && keep) {
        close(*keep);
        *keep = -1;
    }
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

int gcomp_compile(const char *src, const char *out, char *err, size_t errlen)
{
    return compile(src, out, NULL, err, errlen);
}

/* ---- reading ---- */

/* Maps the compiled graph open at fd (named path in messages; fd is closed) into gc and checks it as
 * gcomp_open does, all but its source. Returns 0, or -1 with what is wrong in err (nothing kept). */
static int map_fd(gcomp *gc, int fd, const char *path, char *err, size_t errlen)
{
    memset(gc, 0, sizeof(*gc));
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
    snprintf(gc->path, sizeof(gc->path), "%s", path);
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
    return 0;
out_bad:
    gcomp_close(gc);
    return -1;
}

int gcomp_compile_map(gcomp *gc, const char *src, const char *out, char *err, size_t errlen)
{
    memset(gc, 0, sizeof(*gc));
    int fd;
    int rc = compile(src, out, &fd, err, errlen);
    if (rc != 0)
        return rc;
    return map_fd(gc, fd, out, err, errlen) == 0 ? 0 : -1;
}

int gcomp_open(gcomp *gc, const char *path, const char *src, char *err, size_t errlen)
{
    memset(gc, 0, sizeof(*gc));
    int fd = userdir_open(path, O_RDONLY | O_CLOEXEC, 0); /* a sweep's own file: no link below its folder */
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot read: %s", path, userdir_why(errno));
        return -1;
    }
    if (map_fd(gc, fd, path, err, errlen) != 0)
        return -1;
    const gcomp_head *h = &gc->head;
    /* the source's bytes, not its size and time: a file rewritten keeping both (cp -p, rsync -t, touch -r)
     * is another graph */
    struct stat ss;
    if (stat(src, &ss) != 0) {
        snprintf(err, errlen, "%s: cannot read the graph: %s", src, strerror(errno));
        goto out_bad;
    }
    uint64_t now = 0;
    bool same = (uint64_t)ss.st_size == h->src_size;
    if (same && gcomp_hash_file(src, &now) != 0) {
        snprintf(err, errlen, "%s: cannot read the graph: %s", src, strerror(errno));
        goto out_bad;
    }
    if (!same || now != h->src_hash) {
        if (same)
            snprintf(err, errlen,
                     "%s does not match %s: its bytes hash to %016llx, the graph compiled there hashed to "
                     "%016llx (same size, %llu bytes)",
                     src, path, (unsigned long long)now, (unsigned long long)h->src_hash,
                     (unsigned long long)h->src_size);
        else
            snprintf(err, errlen,
                     "%s does not match %s: it has %lld bytes, the graph compiled there had %llu", src, path,
                     (long long)ss.st_size, (unsigned long long)h->src_size);
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

/* Compares the records built so far (b) with gc's from *pos on, and empties b. False at the first byte
 * that differs (*pos is then its offset in the records) or when gc's records run out. */
static bool same_records(const gcomp *gc, uint64_t *pos, oprec_buf *b)
{
    size_t n = b->used;
    b->used = 0;
    if (n == 0)
        return true;
    size_t k = 0;
    uint64_t left = *pos < gc->head.rec_bytes ? gc->head.rec_bytes - *pos : 0;
    if (n <= left && memcmp(gc->recs + *pos, b->buf, n) == 0) {
        *pos += n;
        return true;
    }
    while (k < n && k < left && gc->recs[*pos + k] == b->buf[k]) /* where they part */
        k++;
    *pos += k;
    return false;
}

int gcomp_verify(const gcomp *gc, const char *src, char *err, size_t errlen)
{
    graph *g = malloc(sizeof(*g));
    graph_op *op = calloc(1, sizeof(*op)); /* as gcomp_compile's: the same records, byte for byte */
    oprec_buf b = {0};
    int rc = -1;
    if (!g || !op) {
        snprintf(err, errlen, "out of memory");
        goto out_free;
    }
    if (graph_open(g, src, err, errlen) != 0) {
        rc = 1;
        goto out_free;
    }
    uint64_t pos = 0, nops = 0;
    bool same = true;
    int got = 0;
    while (same && (got = graph_next(g, op, err, errlen)) > 0) {
        if (oprec_append(&b, op, 2 * GCOMP_FLUSH_BYTES) != 0) {
            snprintf(err, errlen, "%s: out of memory while compiling it", src);
            goto out_close;
        }
        nops++;
        if (b.used >= GCOMP_FLUSH_BYTES)
            same = same_records(gc, &pos, &b);
    }
    if (same && got < 0) {
        rc = 1;
        goto out_close;
    }
    if (same)
        same = same_records(gc, &pos, &b) && pos == gc->head.rec_bytes && nops == gc->head.nops;
    rc = same ? 0 : GCOMP_DIFFERS;
    if (!same)
        snprintf(err, errlen, "%s is not what %s compiles to: its records differ from the graph's at byte %llu",
                 gc->path, src, (unsigned long long)(GCOMP_HEAD_BYTES + pos));
out_close:
    graph_close(g);
out_free:
    free(b.buf);
    free(op);
    free(g);
    return rc;
}

void gcomp_close(gcomp *gc)
{
    if (gc->map)
        munmap(gc->map, gc->map_bytes);
    memset(gc, 0, sizeof(*gc));
}

/* ---- range checks: each record as graph_next checks a line ---- */

#define REC_MAX_USER_NS 1000000000000000ULL /* user_code "ns" and flat costs: at most 1e15 (graph_reader.c) */
#define REC_MAX_BUFFERS 16                  /* N-buffering depth of the pipe form (graph_reader.c) */

/* Writes "FIELD: what" into why and returns -1. */
static int bad(char *why, size_t len, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int bad(char *why, size_t len, const char *field, const char *fmt, ...)
{
    int n = snprintf(why, len, "%s: ", field);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < len)
        vsnprintf(why + n, len - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

/* A bool's byte is 0 or 1 (any other value makes reading it undefined). */
static bool bool_ok(const bool *b)
{
    unsigned char v;
    memcpy(&v, b, 1);
    return v <= 1;
}

/* *out = a * b when that is at most lim; false otherwise (nothing wraps). */
static bool mul_le(uint64_t a, uint64_t b, uint64_t lim, uint64_t *out)
{
    if (a && b > lim / a)
        return false;
    *out = a * b;
    return true;
}

/* Checks a cost record as graph_reader.c's get_cost accepts one, for a kernel on the AIC (aic) or the AIV; pipes:
 * the pipe form may be given (one core type). */
static int check_cost(const graph_cost *c, bool pipes, bool aic, char *why, size_t len)
{
    if (c->kind == COST_CYCLES || c->kind == COST_NS)
        return c->value <= REC_MAX_USER_NS
                   ? 0
                   : bad(why, len, "cost", "%llu is more than 1e15", (unsigned long long)c->value);
    if (c->kind != COST_PIPES)
        return bad(why, len, "cost", "kind %d is none of cycles, ns or pipes", (int)c->kind);
    if (!pipes)
        return bad(why, len, "cost", "a MIX task's cost override must be flat");
    const pipe_kernel *pk = &c->pipe;
    const pipe_work *w = &pk->work;
    if (!bool_ok(&pk->aic) || !bool_ok(&pk->scalar_given) || !bool_ok(&pk->measured))
        return bad(why, len, "cost", "a flag is neither 0 nor 1");
    if (pk->aic != aic)
        return bad(why, len, "cost", "pipes of the %s for a kernel on the %s", pk->aic ? "AIC" : "AIV",
                   aic ? "AIC" : "AIV");
    if (pk->tiles < 1 || pk->tiles > GRAPH_MAX_TILES || pk->buffers < 1 || pk->buffers > REC_MAX_BUFFERS)
        return bad(why, len, "cost", "%u tiles, %u buffers (1..%d, 1..%d)", pk->tiles, pk->buffers,
                   GRAPH_MAX_TILES, REC_MAX_BUFFERS);
    if (pk->measured && (pk->measured_hz < 1000000 || pk->measured_hz > 100000000000ULL ||
                         pk->measured_cycles > GRAPH_MAX_PIPE_CYCLES))
        return bad(why, len, "cost", "a measured clock of %llu Hz or %llu cycles out of range",
                   (unsigned long long)pk->measured_hz, (unsigned long long)pk->measured_cycles);
    for (int p = 0; p < PIPE_COUNT; p++) {
        bool on = pipe_on_core((pipe_id)p, aic);
        if (w->cycles[p] > (pk->measured ? pk->measured_cycles : GRAPH_MAX_PIPE_CYCLES) ||
            w->bytes[p] > GRAPH_MAX_PIPE_BYTES || (!on && (w->cycles[p] || w->bytes[p])))
            return bad(why, len, "cost", "pipe %s: %llu cycles, %llu bytes out of range",
                       pipe_name((pipe_id)p), (unsigned long long)w->cycles[p],
                       (unsigned long long)w->bytes[p]);
        if (!(w->gib_per_s[p] == 0 || (w->gib_per_s[p] >= 0.001 && w->gib_per_s[p] <= 1e6)))
            return bad(why, len, "cost", "pipe %s: a rate of %g GiB/s (0, or 0.001 .. 1000000)",
                       pipe_name((pipe_id)p), w->gib_per_s[p]);
    }
    for (int d = 0; d < 3; d++)
        if (w->mnk[d] > GRAPH_MAX_CUBE_DIM)
            return bad(why, len, "cost", "cube m, n or k %llu is more than %u", (unsigned long long)w->mnk[d],
                       GRAPH_MAX_CUBE_DIM);
    if (w->vec_elems > GRAPH_MAX_PIPE_BYTES || w->mte2_reread > GRAPH_MAX_PIPE_BYTES ||
        w->cube_elem_bytes > 4 || w->vec_elem_bytes > 8)
        return bad(why, len, "cost", "vector or cube work out of range");
    uint64_t in = w->bytes[PIPE_MTE2] + w->mte2_reread, per = aic ? in : in + w->bytes[PIPE_MTE3], all;
    if (!pk->measured &&
        (!mul_le(per, pk->buffers, UINT64_MAX, &all) || all > (aic ? PIPE_L1_BYTES : PIPE_UB_BYTES)))
        return bad(why, len, "cost", "%u buffers of a tile do not fit the %s", pk->buffers,
                   aic ? "AIC's L1" : "AIV's UB");
    return 0;
}

/* Grows the cursor's slots to hold slot n. Returns 0 or -1. */
static int slot_room(gcomp_cursor *cur, size_t n)
{
    if (n < cur->slots_cap)
        return 0;
    size_t cap = cur->slots_cap ? cur->slots_cap * 2 : 64;
    while (cap <= n)
        cap *= 2;
    gcomp_slot *s = realloc(cur->slots, cap * sizeof(*s));
    if (!s)
        return -1;
    cur->slots = s;
    cur->slots_cap = cap;
    return 0;
}

/* Checks one tensor argument's view: rank, shape, strides, dtype and flags; for a view of a bound slot (not
 * an output) that it is of that slot's tensor and stays inside it; for an output, that it binds a slot
 * outputs may bind (*next_new: the slot a new name takes next). */
static int check_arg(const gcomp_cursor *cur, int nexternal, size_t *next_new, const graph_op *op,
                     const graph_arg *a, const char *field, char *why, size_t len)
{
    if ((int)a->dir < DIR_IN || (int)a->dir > DIR_NO_DEP)
        return bad(why, len, field, "direction %d is none of in, out, inout, out_existing, no_dep",
                   (int)a->dir);
    if (op->kind == OP_ALLOC && a->dir != DIR_OUT)
        return bad(why, len, field, "an alloc creates tensors: direction %s", graph_dir_name(a->dir));
    if (a->ndim < 1 || a->ndim > GRAPH_MAX_DIMS)
        return bad(why, len, field, "%d dimensions (1..%d)", a->ndim, GRAPH_MAX_DIMS);
    if (dtype_size(a->dtype) == 0)
        return bad(why, len, field, "dtype %d is not an element type", a->dtype);
    if (!bool_ok(&a->manual_dep) || !bool_ok(&a->dump))
        return bad(why, len, field, "a flag is neither 0 nor 1");
    uint64_t size = (uint64_t)dtype_size(a->dtype), n = 1, last = 0;
    for (int d = 0; d < a->ndim; d++) {
        if (a->shape[d] < 1 || a->strides[d] < 1)
            return bad(why, len, field, "shape %lld or stride %lld in dimension %d is not positive",
                       (long long)a->shape[d], (long long)a->strides[d], d);
        uint64_t step;
        if (!mul_le(n, (uint64_t)a->shape[d], GRAPH_MAX_BYTES / size, &n) ||
            !mul_le((uint64_t)a->shape[d] - 1, (uint64_t)a->strides[d], GRAPH_MAX_BYTES, &step))
            return bad(why, len, field, "the view is more than 2^53 bytes");
        last += step; /* at most 5 terms of at most 2^53 */
    }
    if (a->version < 0)
        return bad(why, len, field, "version %d is negative", (int)a->version);
    if (a->ndata > GRAPH_MAX_DATA || (a->ndata && a->ndata != n) ||
        (a->ndata && (a->dir == DIR_IN || a->dir == DIR_NO_DEP)))
        return bad(why, len, field, "%u data values for a view of %llu elements (direction %s)", a->ndata,
                   (unsigned long long)n, graph_dir_name(a->dir));
    if (a->start_offset > GRAPH_MAX_BYTES || a->buffer_numel > GRAPH_MAX_BYTES)
        return bad(why, len, field, "offset %llu or storage %llu past 2^53",
                   (unsigned long long)a->start_offset, (unsigned long long)a->buffer_numel);
    last += a->start_offset;
    if (a->dir == DIR_OUT) {
        uint64_t storage = heap_round_output(n * size) / size; /* graph_reader.c's created_storage_numel */
        /* a new name takes the next slot (strtab_intern), in the order of the args */
        if (a->tensor < nexternal || (size_t)a->tensor > *next_new)
            return bad(why, len, field, "an output to tensor slot %d (outputs bind slots %d..%zu)", a->tensor,
                       nexternal, *next_new);
        if ((size_t)a->tensor == *next_new)
            ++*next_new;
        if (a->start_offset != 0 || a->buffer_numel != storage)
            return bad(why, len, field, "a created tensor of %llu elements with offset %llu and storage %llu",
                       (unsigned long long)n, (unsigned long long)a->start_offset,
                       (unsigned long long)a->buffer_numel);
        if (last >= n) /* its strides are row-major: the view is the whole tensor */
            return bad(why, len, field, "a created tensor of %llu elements whose strides reach element %llu",
                       (unsigned long long)n, (unsigned long long)last);
        return 0;
    }
    if (a->tensor < 0 || (size_t)a->tensor >= cur->nslots || cur->slots[a->tensor].dtype < 0)
        return bad(why, len, field, "tensor slot %d is not bound (%zu slots)", a->tensor, cur->nslots);
    const gcomp_slot *t = &cur->slots[a->tensor];
    if (a->dtype != t->dtype || a->buffer_numel != t->storage_numel)
        return bad(why, len, field,
                   "a view of dtype %d and storage %llu of tensor slot %d (dtype %d, storage %llu)", a->dtype,
                   (unsigned long long)a->buffer_numel, a->tensor, t->dtype,
                   (unsigned long long)t->storage_numel);
    if (last >= t->numel)
        return bad(why, len, field, "the view reaches element %llu but tensor slot %d has %llu",
                   (unsigned long long)last, a->tensor, (unsigned long long)t->numel);
    return 0;
}
/* Checks op, the record after those the cursor has seen, against g's header and what they bound. Returns 0,
 * or -1 with "FIELD: what" in why. */
static int check_record(const gcomp_cursor *cur, const graph *g, const graph_op *op, char *why, size_t len)
{
    if (op->line <= cur->last_line)
        return bad(why, len, "line", "%ld after line %ld", op->line, cur->last_line);
    if (!bool_ok(&op->manual) || !bool_ok(&op->sync_start) || !bool_ok(&op->early_resolve) ||
        !bool_ok(&op->predicate) || !bool_ok(&op->dump_task) || !bool_ok(&op->has_cost))
        return bad(why, len, "op", "a flag is neither 0 nor 1");
    if (op->kind != OP_SUBMIT && op->kind != OP_DUMMY && op->kind != OP_ALLOC) {
        if (op->nargs || op->nscalars || op->ndeps || op->has_cost)
            return bad(why, len, "op", "a scope or user_code record with arguments, deps or a cost");
        if (op->kind == OP_SCOPE_BEGIN && !memchr(op->site, '\0', sizeof(op->site)))
            return bad(why, len, "site", "not terminated within %d bytes", GRAPH_SITE_MAX);
        if (op->kind == OP_SCOPE_BEGIN && cur->depth + 1 >= GRAPH_MAX_SCOPE_DEPTH)
            return bad(why, len, "op",
                       "scopes nest deeper than %d (PTO2_MAX_SCOPE_DEPTH, the root scope included)",
                       GRAPH_MAX_SCOPE_DEPTH);
        if (op->kind == OP_SCOPE_END && cur->depth == 0)
            return bad(why, len, "op", "scope_end without a matching scope_begin");
        if (op->kind == OP_USER_CODE && op->user_ns > REC_MAX_USER_NS)
            return bad(why, len, "ns", "%llu is more than 1e15", (unsigned long long)op->user_ns);
        return 0;
    }
    if (op->block_num < 1 || op->block_num > GRAPH_MAX_BLOCK_NUM)
        return bad(why, len, "block_num", "%d is not in [1, %d]", op->block_num, GRAPH_MAX_BLOCK_NUM);
    int active = 0, core = -1;
    bool one_type = true;
    for (int k = 0; k < 3; k++) {
        char f[32];
        snprintf(f, sizeof(f), "kernels[%d]", k);
        if (op->kernel_ids[k] == -1)
            continue;
        const graph_kernel *kn = graph_kernel_by_id(g, op->kernel_ids[k]);
        if (!kn)
            return bad(why, len, f, "func id %d is not in the kernel table of %s", (int)op->kernel_ids[k],
                       g->path);
        int want = k == 0 ? CORE_AIC : CORE_AIV;
        if ((int)kn->core != want)
            return bad(why, len, f, "kernel '%s' is %s but slot %d runs on %s", kn->name,
                       kn->core == CORE_AIC ? "aic" : "aiv", k, want == CORE_AIC ? "aic" : "aiv");
        one_type &= core < 0 || core == want;
        core = want;
        active++;
    }
    if (op->kind == OP_SUBMIT && !active)
        return bad(why, len, "kernels", "a submit with no active kernel");
    if (op->kind != OP_SUBMIT && active)
        return bad(why, len, "kernels", "%s with a kernel", op->kind == OP_DUMMY ? "a dummy" : "an alloc");
    if (op->has_cost && op->kind != OP_SUBMIT)
        return bad(why, len, "cost", "only a submit overrides its cost");
    if (op->has_cost && check_cost(&op->cost, one_type, core == CORE_AIC, why, len) != 0)
        return -1;
    if (op->label < -1 || op->label > cur->nlabels)
        return bad(why, len, "id", "label slot %d (%ld bound)", op->label, cur->nlabels);
    if (op->kind == OP_ALLOC && (op->nargs < 1 || op->nscalars || op->ndeps))
        return bad(why, len, "tensors", "an alloc of %d tensors with %d scalars and %d deps", op->nargs,
                   op->nscalars, op->ndeps);
    for (int i = 0; i < op->ndeps; i++) {
        char f[32];
        snprintf(f, sizeof(f), "deps[%d]", i);
        const graph_dep *d = &op->deps[i];
        if (d->label < -1 || d->label >= cur->nlabels)
            return bad(why, len, f, "label slot %d (%ld bound)", d->label, cur->nlabels);
        if (d->label == -1 && d->raw_id != UINT64_MAX && (d->raw_id >> 32) > 3)
            return bad(why, len, f, "task id %llu names ring %llu (rings are 0..3)",
                       (unsigned long long)d->raw_id, (unsigned long long)(d->raw_id >> 32));
    }
    for (int i = 0; i < op->nscalars; i++) {
        char f[32];
        snprintf(f, sizeof(f), "scalars[%d]", i);
        if (dtype_size(op->scalars[i].dtype) == 0 || !bool_ok(&op->scalars[i].dump))
            return bad(why, len, f, "dtype %d, or a flag neither 0 nor 1", op->scalars[i].dtype);
    }
    size_t next_new = cur->nslots;
    for (int i = 0; i < op->nargs; i++) {
        char f[32];
        snprintf(f, sizeof(f), "args[%d]", i);
        if (check_arg(cur, g->nexternal, &next_new, op, &op->args[i], f, why, len) != 0)
            return -1;
        for (int j = 0; j < i; j++)
            if (op->args[i].dir == DIR_OUT && op->args[j].dir == DIR_OUT &&
                op->args[j].tensor == op->args[i].tensor)
                return bad(why, len, f, "tensor slot %d is created twice by one task", op->args[i].tensor);
    }
    return 0;
}

/* Takes in what op, a record that passed check_record, binds. Returns 0, or -1 when out of memory. */
static int record_binds(gcomp_cursor *cur, const graph_op *op)
{
    cur->last_line = op->line;
    if (op->kind == OP_SCOPE_BEGIN)
        cur->depth++;
    else if (op->kind == OP_SCOPE_END)
        cur->depth--;
    if (op->label == cur->nlabels)
        cur->nlabels++;
    for (int i = 0; i < op->nargs; i++) {
        const graph_arg *a = &op->args[i];
        if (a->dir != DIR_OUT)
            continue;
        if ((size_t)a->tensor == cur->nslots) {
            if (slot_room(cur, cur->nslots) != 0)
                return -1;
            cur->nslots++;
        }
        uint64_t n = 1;
        for (int d = 0; d < a->ndim; d++)
            n *= (uint64_t)a->shape[d]; /* checked: at most 2^53 */
        cur->slots[a->tensor] = (gcomp_slot){.dtype = a->dtype, .numel = n, .storage_numel = a->buffer_numel};
    }
    return 0;
}

/* Fills the cursor's slots with the header's external tensors. Returns 0, or -1 when out of memory. */
static int cursor_start(gcomp_cursor *cur, const graph *g)
{
    size_t n = g->tensor_names.count;
    if (slot_room(cur, n) != 0)
        return -1;
    for (size_t i = 0; i < n; i++)
        cur->slots[i] = i < (size_t)g->nexternal ? (gcomp_slot){.dtype = g->tensors[i].dtype,
                                                                .numel = g->tensors[i].numel,
                                                                .storage_numel = g->tensors[i].storage_numel}
                                                 : (gcomp_slot){.dtype = -1};
    cur->nslots = n;
    cur->started = true;
    return 0;
}

int gcomp_next(gcomp_cursor *cur, graph *g, graph_op *op, char *err, size_t errlen)
{
    const gcomp *gc = cur->gc;
    if (!cur->started && cursor_start(cur, g) != 0) {
        snprintf(err, errlen, "compiled graph of %s: out of memory", g->path);
        return -1;
    }
    if (cur->pos >= gc->head.rec_bytes) {
        if (cur->depth > 0) {
            snprintf(err, errlen, "%s: its records of %s end with %d scope(s) open", gc->path, g->path,
                     cur->depth);
            return -1;
        }
        return 0;
    }
    size_t at = cur->pos;
    if (oprec_read_checked(gc->recs, gc->head.rec_bytes, &cur->pos, op) != 0) {
        snprintf(err, errlen, "compiled graph of %s: the record at byte %zu is not whole", g->path,
                 at + GCOMP_HEAD_BYTES);
        return -1;
    }
    char why[512];
    if (check_record(cur, g, op, why, sizeof(why)) != 0) {
        snprintf(err, errlen, "%s: the record at byte %zu (line %ld of %s) is out of range: %s", gc->path,
                 at + GCOMP_HEAD_BYTES, op->line, g->path, why);
        cur->pos = at; /* it stays refused */
        return -1;
    }
    if (record_binds(cur, op) != 0) {
        snprintf(err, errlen, "compiled graph of %s: out of memory", g->path);
        return -1;
    }
    g->line = op->line;
    g->nops++;
    return 1;
}

void gcomp_cursor_free(gcomp_cursor *cur)
{
    free(cur->slots);
    memset(cur, 0, sizeof(*cur));
}
