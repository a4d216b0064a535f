/* report_html.h - htmlrep_: `ptosim report DIR`, one self-contained HTML page (SVG, CSS) of a run, sweep. */
#ifndef PTOSIM_REPORT_HTML_H
#define PTOSIM_REPORT_HTML_H

#include <stddef.h>

#include "../cli/opt_table.h"
#include "report_html_diff.h"

/* `ptosim report`'s options (-h/--help; DIR its operand): its parsing, --help and completion read them. */
extern const opt_table htmlrep_options;

/* Reads DIR (ptosim_run.json and dfx_outputs/, sweep.csv, or a capture) and
 * writes OUT/report.html (OUT made when missing) through a temporary file, so
 * a failure leaves no partial page. With out NULL the page goes into DIR, but
 * only when ptosim wrote DIR (a run's or a worker's ptosim_run.json, a sweep's
 * points.csv and sweep.cmd): a capture or a folder someone sent is refused.
 * Returns an exit status (cli.h): EXIT_OK; EXIT_USAGE when DIR is not a
 * directory, holds neither input, or needs an OUT; EXIT_GRAPH for a malformed
 * input; EXIT_INTERNAL for an I/O error. err gets the message (without the
 * "ptosim report: " prefix). */
int htmlrep_write(const char *dir, const char *out, char *err, size_t errlen);

/* `ptosim diff A B -o OUT`'s page: OUT/diff.html (OUT made when missing; one holding anything but an earlier
 * diff.html refused), through a temporary file: the waterfall of d's parts, A's and B's swimlanes (read from
 * their dfx_outputs/) on one time axis, d's tables. Returns an exit status as htmlrep_write does, err the
 * message (without the "ptosim diff: " prefix). */
int htmlrep_diff_write(const rh_diff *d, const char *out, char *err, size_t errlen);

/* `ptosim report DIR`. Returns an exit status. */
int htmlrep_main(int argc, char **argv);

#endif
