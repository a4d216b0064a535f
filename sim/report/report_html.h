/* report_html.h - htmlrep_: `ptosim report DIR`, one self-contained HTML page (SVG, CSS) of a run, sweep. */
#ifndef PTOSIM_REPORT_HTML_H
#define PTOSIM_REPORT_HTML_H

#include <stddef.h>

#include "../cli/opt_table.h"

/* `ptosim report`'s options (-h/--help; DIR its operand): its parsing, --help and completion read them. */
extern const opt_table htmlrep_options;

/* Reads DIR (ptosim_run.json and dfx_outputs/, or sweep.csv) and writes
 * DIR/report.html through a temporary file, so a failure leaves no partial
 * page. Returns an exit status (cli.h): EXIT_OK; EXIT_USAGE when DIR is not a
 * directory or holds neither input; EXIT_GRAPH for a malformed input;
 * EXIT_INTERNAL for an I/O error. err gets the message (without the
 * "ptosim report: " prefix). */
int htmlrep_write(const char *dir, char *err, size_t errlen);

/* `ptosim report DIR`. Returns an exit status. */
int htmlrep_main(int argc, char **argv);

#endif
