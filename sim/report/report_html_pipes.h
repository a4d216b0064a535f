/* report_html_pipes.h - rh_: the report page's pipes section: a per-kernel pipe heatmap, PMU counters. */
#ifndef PTOSIM_REPORT_HTML_PIPES_H
#define PTOSIM_REPORT_HTML_PIPES_H

#include "report_html_draw.h"

/* Writes the section to r->f: per-kernel pipes and PMU counters. */
void rh_section_pipes(rep *r);

#endif
