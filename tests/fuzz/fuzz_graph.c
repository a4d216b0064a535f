/* fuzz_graph.c - libFuzzer target: the graph reader (graph_validate, then the reader thread). */
/* The reader thread runs on what graph_validate accepts. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../model/graph/graph_reader.h"
#include "../../model/graph/graph_readahead.h"
#include "fuzzutil.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64];
    if (!path[0])
        fuzz_scratch_path(path, sizeof(path), "graph.jsonl");
    if (fuzz_write_file(path, data, size) != 0)
        return 0;
    char err[GRAPH_ERR_MAX];
    if (graph_validate(path, err, sizeof(err)) != 0)
        return 0;
    /* accepted: the reader thread must hand over the same operations, in order, to the end */
    graph g;
    if (graph_open(&g, path, err, sizeof(err)) != 0)
        abort(); /* validated a moment ago */
    graph_op *op = malloc(sizeof(*op));
    readahead *ra = readahead_start(&g);
    int rc;
    long n = 0;
    while ((rc = ra ? readahead_next(ra, &g, op, err, sizeof(err)) : graph_next(&g, op, err, sizeof(err))) ==
           1)
        n++;
    if (rc != 0 || (ra && readahead_finish(ra, err, sizeof(err)) != 0))
        abort(); /* the two ways of reading disagree */
    (void)n;
    free(op);
    graph_close(&g);
    return 0;
}
