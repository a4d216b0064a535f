/* report_html_whatif.h - rh_: the report page's "What would pay" section: `ptosim whatif -o`'s ranking. */
#ifndef PTOSIM_REPORT_HTML_WHATIF_H
#define PTOSIM_REPORT_HTML_WHATIF_H

#include "report_html_draw.h"

/* Writes the section to r->f: each lever's gain as a bar, longest first, and its table (DIR/whatif.json). */
void rh_section_whatif(rep *r);

#endif
