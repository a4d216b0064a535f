/* report_html_sweep.h - rh_: the report page's sweep section: a chart per swept knob, the runs' table. */
#ifndef PTOSIM_REPORT_HTML_SWEEP_H
#define PTOSIM_REPORT_HTML_SWEEP_H

#include "report_html_draw.h"

/* Writes the section to r->f: a chart per swept knob. Returns 0, or -1 when out of memory. */
int rh_section_sweep(rep *r);

#endif
