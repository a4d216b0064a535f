/* report_html_overhead.h - rh_: the report page's scheduler-overhead section. */
#ifndef PTOSIM_REPORT_HTML_OVERHEAD_H
#define PTOSIM_REPORT_HTML_OVERHEAD_H

#include "report_html_draw.h"

/* Writes the section to r->f: the scheduler's overhead. */
void rh_section_overhead(rep *r);

#endif
