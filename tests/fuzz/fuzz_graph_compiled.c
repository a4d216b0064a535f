/* fuzz_graph_compiled.c - libFuzzer target: the compiled graph reader (open, replay, verify). */
/* gcomp_open, gcomp_next and gcomp_verify. One input is a graph file, "\n====\n", then its compiled form.
 * With the head's first pad byte 0 the target makes the head fit the graph (magic, format, layout,
 * lengths, hashes), so the records themselves are what is fuzzed: each must be refused by name or
 * replayed, never read out of bounds; any other pad byte leaves the head as given, for gcomp_open's own
 * checks. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../model/graph/graph_compiled.h"
#include "../../model/graph/graph_reader.h"
#include "../../model/graph/op_record.h"
#include "fuzzutil.h"

/* Makes the head h (of a file of size bytes) one gcomp_open accepts for the graph at src. */
static int fit_head(gcomp_head *h, const unsigned char *recs, size_t size, const char *src)
{
    memcpy(h->magic, GCOMP_MAGIC, sizeof(h->magic));
    h->format = GCOMP_FORMAT;
    h->head_bytes = GCOMP_HEAD_BYTES;
    h->layout = oprec_layout();
    h->rec_bytes = size - GCOMP_HEAD_BYTES;
    gcomp_hasher hs;
    gcomp_hash_init(&hs);
    gcomp_hash_update(&hs, recs, h->rec_bytes);
    h->rec_hash = gcomp_hash_final(&hs);
    FILE *f = fopen(src, "rb");
    if (!f)
        return -1;
    fseek(f, 0, SEEK_END);
    h->src_size = (uint64_t)ftell(f);
    fclose(f);
    return gcomp_hash_file(src, &h->src_hash);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char src[64], path[64];
    if (!src[0]) {
        fuzz_scratch_path(src, sizeof(src), "graph.jsonl");
        fuzz_scratch_path(path, sizeof(path), "graph.compiled");
    }
    const uint8_t *end = data + size, *cut = fuzz_find_sep(data, end);
    if (!cut)
        return 0;
    const uint8_t *comp = cut + sizeof(FUZZ_SEP) - 1;
    size_t n = (size_t)(end - comp);
    if (fuzz_write_file(src, data, (size_t)(cut - data)) != 0)
        return 0;
    unsigned char *c = malloc(n ? n : 1);
    if (!c)
        return 0;
    memcpy(c, comp, n);
    gcomp_head h;
    if (n >= GCOMP_HEAD_BYTES) {
        memcpy(&h, c, sizeof(h));
        if (h.pad[0] == 0 && fit_head(&h, c + GCOMP_HEAD_BYTES, n, src) != 0) {
            free(c);
            return 0;
        }
        memcpy(c, &h, sizeof(h));
    }
    int wrote = fuzz_write_file(path, c, n);
    free(c);
    if (wrote != 0)
        return 0;
    char err[GRAPH_ERR_MAX + 8192];
    gcomp gc;
    if (gcomp_open(&gc, path, src, err, sizeof(err)) != 0)
        return 0;
    /* compared with what the graph compiles to, as a sweep's point run alone does */
    int same = gcomp_verify(&gc, src, err, sizeof(err));
    if (same != 0 && same != 1 && same != GCOMP_DIFFERS && same != -1)
        abort();
    /* replayed as a run reads it: every record range-checked against the graph's header; records that are
     * what the graph compiles to must replay to the end */
    graph g;
    if (graph_open(&g, src, err, sizeof(err)) == 0) {
        graph_op *op = malloc(sizeof(*op));
        gcomp_cursor cur = {.gc = &gc};
        int rc = 0;
        while (op && (rc = gcomp_next(&cur, &g, op, err, sizeof(err))) == 1)
            ;
        if (op && same == 0 && rc != 0)
            abort(); /* a genuine compile refused */
        gcomp_cursor_free(&cur);
        free(op);
        graph_close(&g);
    }
    gcomp_close(&gc);
    return 0;
}
