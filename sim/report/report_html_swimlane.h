/* report_html_swimlane.h - rh_: the report page's swimlane (a lane per core) and its critical path. */
#ifndef PTOSIM_REPORT_HTML_SWIMLANE_H
#define PTOSIM_REPORT_HTML_SWIMLANE_H

#include "report_html_draw.h"

/* Above this many AICore executions the swimlane is not drawn bar by bar:
 * each core's time line is cut into HTMLREP_BINS columns shaded by how busy
 * the core was in each, which bounds the page whatever the run's length. */
#define HTMLREP_MAX_BARS 10000
#define HTMLREP_BINS 1000

/* Critical-path rows listed in the table (the first and last halves). */
#define HTMLREP_MAX_PATH_ROWS 40

/* Writes the section to r->f: a lane per core, the critical path. */
void rh_section_swimlane(rep *r);

/* The chart alone (r's swimlane holds executions): a lane per core and the critical path's, on an axis from
 * the launch to span_us (0: the run's makespan; never before its last end), so two runs drawn with one
 * span share a scale. Its ids begin with idp ("" on a run's page). Returns 0, or -1 out of memory with
 * nothing written. */
int rh_swimlane_chart(rep *r, double span_us, const char *idp);

#endif
