/* report_html_rings.h - rh_: the report page's ring occupancy section and its scope table. */
#ifndef PTOSIM_REPORT_HTML_RINGS_H
#define PTOSIM_REPORT_HTML_RINGS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "report_html_draw.h"

/* Writes the section to r->f: ring occupancy and the scope table. */
void rh_section_rings(rep *r);

/* Also for a capture's summary (report_html.c): a peak-of-capacity table cell, the scope table. */
void rh_pct_cell(FILE *f, uint64_t peak, uint64_t cap, bool bytes);
void rh_scope_table(rep *r);

#endif
