/* depcmp.h - test helper: compares ptosim's deps.json and scope stats with a real runtime capture's. */
#ifndef PTOSIM_DEPCMP_H
#define PTOSIM_DEPCMP_H

/* What differs between a capture ("real") and ptosim's output ("sim"). The
 * diff texts list one difference per line, "-" for the capture's side and
 * "+" for ptosim's; the caller frees them with depcmp_free. */
typedef struct depcmp {
    int tasks_real, tasks_sim; /* entries of "tasks" */
    int edges_real, edges_sim; /* entries of "edges" */
    char *task_diff;           /* tasks that differ at the same position; "" if none */
    char *edge_diff;           /* the edge multisets' difference, sorted; "" if none */
} depcmp;

/* Compares two deps.json files. Tasks are compared position by position:
 * task_id, scope, early_dispatch, kernel_ids, block_num and every arg's type,
 * dtype, shape, start_offset and strides, plus its tensor by order of first
 * appearance (tensor ids and buffer addresses legitimately differ). Edges are
 * compared as a multiset of (pred, succ, arg, source, overlap). Fails the
 * test if a file is missing or not a deps.json. */
void depcmp_deps(const char *real_path, const char *sim_path, depcmp *out);

/* Compares two scope_stats.jsonl files record by record: phase, depth, ring
 * and task_window_end, and the site through a one-to-one mapping built in
 * order of first appearance (the generators name their own sites). Returns
 * the differences as text ("" if none; the caller frees), and the record
 * counts through nreal and nsim. */
char *depcmp_scopes(const char *real_path, const char *sim_path, int *nreal, int *nsim);

/* Frees the diff texts of a depcmp. */
void depcmp_free(depcmp *d);

#endif
