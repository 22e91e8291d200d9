/*
 * screen_graph.h - the bar graph and the sparklines (screen_graph.c).
 */
#ifndef WBTOP_SCREEN_GRAPH_H
#define WBTOP_SCREEN_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include "screen_data.h"

/* A bar graph of vals (n = w columns, oldest first) in rows y..y+h-1,
 * with marks (dip '^', knob change '*') on row y+h; the axis left of x
 * shows the top value, in KiB units when kb, followed by unit. */
void screen_graph_draw(struct screen *s, int y, int x, int h, int w, const double *vals,
		       const bool *dips, const bool *evs, bool kb, const char *unit);
/* A one-row sparkline of vals at the cursor. */
void screen_graph_spark(struct screen *s, struct scr_line *ln, const double *vals,
			const bool *dips, int n, double floor_max);
/* Make room for n series entries (s->vals, dips, evs); false on allocation failure. */
bool screen_graph_scratch(struct screen *s, size_t n);

#endif
