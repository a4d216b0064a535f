/* report_html_roofline.h - rh_: the report page's roofline section: each kernel against the die's limits. */
#ifndef PTOSIM_REPORT_HTML_ROOFLINE_H
#define PTOSIM_REPORT_HTML_ROOFLINE_H

#include "report_html_draw.h"

/* Writes the section to r->f: a log-log roofline chart and its table (ptosim_run.json "roofline"). */
void rh_section_roofline(rep *r);

#endif
