/*
 * screen_top.h - the summary, the gauge and the knob rows above the table (screen_top.c).
 */
#ifndef WBTOP_SCREEN_TOP_H
#define WBTOP_SCREEN_TOP_H

#include <stdint.h>
#include "screen_data.h"

void screen_top_draw_summary(struct screen *s, int y);
void screen_top_draw_gauge(struct screen *s, int y);
/* A gauge's cells: dirty then writeback KiB against scale, mark_kb marked
 * (none when above scale), in w cells between brackets. */
void screen_top_gauge_cells(struct screen *s, struct scr_line *ln, int w, uint64_t dirty_kb,
			    uint64_t writeback_kb, uint64_t scale, uint64_t mark_kb);
void screen_top_draw_knob_rows(struct screen *s, int y);

#endif
