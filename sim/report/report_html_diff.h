/* report_html_diff.h - rh_: `ptosim diff -o DIR`'s page: the attribution as a waterfall, and the tables. */
#ifndef PTOSIM_REPORT_HTML_DIFF_H
#define PTOSIM_REPORT_HTML_DIFF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* One named part of the makespan: its whole nanoseconds in run A and in run B. */
typedef struct rh_dpart {
    const char *what;
    int64_t a_ns, b_ns;
} rh_dpart;

/* What `ptosim diff` worked out, for its page: the strings come from the runs (the page escapes them). */
typedef struct rh_diff {
    const char *dir[2];     /* A and B as given */
    int64_t makespan_ns[2]; /* each run's makespan, whole ns: the sum of its parts */
    const rh_dpart *parts;  /* in the text table's order (most moved first); NULL: no attribution */
    size_t nparts;
    const char *cannot;  /* why there is no attribution, when parts is NULL */
    const char *inputs;  /* the text table's sections, as printed: what differs in the inputs, */
    const char *kernels; /* per-kernel execution totals (with its header line), */
    const char *rings;   /* ring peaks, */
    const char *bound;   /* and the bound of each side */
} rh_diff;

/* The waterfall section: a bar from 0 to A's makespan, then one per part that moved (up or down, in the
 * table's order) from the running total, then B's makespan; and the attribution table (every part). */
void rh_diff_waterfall(FILE *f, const rh_diff *d);

/* The text sections (inputs, kernels, rings, bound), each escaped in a <pre>. */
void rh_diff_tables(FILE *f, const rh_diff *d);

#endif
