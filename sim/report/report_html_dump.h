/* report_html_dump.h - rh_: the report page's args-dump section (what the dump cost a run). */
#ifndef PTOSIM_REPORT_HTML_DUMP_H
#define PTOSIM_REPORT_HTML_DUMP_H

#include "report_html_draw.h"

/* Writes the section to r->f: what the args dump cost the run. */
void rh_section_dump(rep *r);

#endif
