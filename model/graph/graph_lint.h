/* graph_lint.h - lint_: is the graph the one you meant (model/README.md §5.3). */
/* Latent races the runtime does not order, and edges that serialise without a real overlap. */
#ifndef PTOSIM_GRAPH_LINT_H
#define PTOSIM_GRAPH_LINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "graph_reader.h"
#include "../runtime/tensor_map.h"

typedef enum {
    LINT_WAR,         /* a write while an earlier reader of the region may still run (WAR is not tracked) */
    LINT_WAW,         /* two writes of a region with no order (out_existing does not look up) */
    LINT_RAW,         /* a read of a region an earlier write may not have finished (history cut short) */
    LINT_OPT_OUT,     /* no_dep / manual_dep / manual scope over a region another task uses */
    LINT_FALSE_EDGE,  /* a TensorMap edge whose views share no element (conservative OTHER) */
    LINT_INOUT_CHAIN, /* tasks that inout one region, one edge each: serial by construction */
    LINT_KINDS
} lint_kind;

/* One finding: task b (later) against task a (earlier). */
typedef struct lint_finding {
    lint_kind kind;
    long line_a, line_b;    /* graph lines of the two tasks */
    int kernel_a, kernel_b; /* their first active kernel's index in the graph's table, -1 = dummy */
    int tensor;             /* tensor slot (its name in the graph) */
    int chain;              /* LINT_INOUT_CHAIN: tasks in the chain */
    char why[96];           /* what the overlap test or the opt-out was */
} lint_finding;

typedef struct lint_report {
    size_t count[LINT_KINDS]; /* findings per kind */
    lint_finding *shown;      /* the first LINT_SHOW of each kind, in graph order */
    size_t nshown, shown_cap;
    long tasks;     /* tasks analysed */
    bool truncated; /* a per-buffer history or a path search hit its cap: some pairs unchecked */
} lint_report;

#define LINT_SHOW 8      /* findings kept per kind */
#define LINT_CHAIN_MIN 4 /* inout chains at least this long are reported */

/* Analyses a graph file: the order the runtime's edges give (explicit deps,
 * creators, TensorMap lookups, never retirement timing) against every pair
 * of tasks touching a shared element, one of them writing. Returns 0, or -1
 * with the graph's error in err. *g is left open for names (close it). */
int lint_graph(const char *path, graph *g, lint_report *r, char *err, size_t errlen);

void lint_report_free(lint_report *r);

/* A one-line description of a kind ("write-after-read race"). */
const char *lint_kind_text(lint_kind k);

/* Do two views of one buffer share an element? 1 yes, 0 no, -1 too large to tell. */
int lint_views_intersect(const tmap_view *a, const tmap_view *b);

#endif
