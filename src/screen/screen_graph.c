/*
 * screen_graph.c - bar graphs and sparklines of a series from the history.
 *
 * One column (or sparkline cell) per frame, newest at the right.  UTF-8
 * terminals get eighth-block glyphs; other locales get ASCII ramps.  A
 * dip's column is drawn in the dip colour and marked '^' under the graph,
 * a knob change '*', so both show without colour too.
 */
#include <math.h>
#include <stdio.h>

#include "util/grow.h"
#include "screen/screen_calc.h"
#include "screen_graph.h"
#include "screen_paint.h"

static const char *const screen_graph_blocks_utf8[9] = {
	" ", "\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587", "\u2588",
};
static const char *const screen_graph_spark_ascii[9] = { " ", ".", ":", "-", "=", "+", "*", "#", "@" };

static double screen_graph_series_max(const double *vals, int n, double floor_max)
{
	double max = floor_max;
	for (int i = 0; i < n; i++)
		if (!isnan(vals[i]) && vals[i] > max)
			max = vals[i];
	return max;
}

/* One cell of a bar holding eighths (0..8) of its height. */
static const char *screen_graph_bar_cell(const struct screen *s, int eighths)
{
	if (s->utf8)
		return screen_graph_blocks_utf8[eighths];
	return eighths == 0 ? " " : eighths < 4 ? "." : "#";
}

static void screen_graph_axis(struct screen *s, int y, int x, int h, double max, bool kb,
			   const char *unit)
{
	char v[16], label[24];
	snprintf(label, sizeof label, "%s%s", kb ? screen_calc_fmt_kb(max, v, sizeof v) :
		 screen_calc_fmt_num(max, 5, 1, v, sizeof v), unit);
	struct scr_line ln = { y, 0, x - 1 };
	screen_paint_addf(s, &ln, SCR_DIM, "%*s", x - 1, label);
	ln = (struct scr_line){ y + h - 1, 0, x - 1 };
	screen_paint_addf(s, &ln, SCR_DIM, "%*s", x - 1, "0");
}

void screen_graph_draw(struct screen *s, int y, int x, int h, int w, const double *vals,
		    const bool *dips, const bool *evs, bool kb, const char *unit)
{
	if (h < 1 || w < 1)
		return;
	double max = screen_graph_series_max(vals, w, 0);
	screen_graph_axis(s, y, x, h, max, kb, unit);
	for (int i = 0; i < w && x + i < COLS; i++) {
		int e = screen_calc_bar_eighths(vals[i], max, h);
		attr_t a = screen_paint_attr(s, dips && dips[i] ? SCR_DIP : SCR_GRAPH);
		for (int r = 0; r < h && e > r * 8; r++) {
			int cell = e - r * 8;
			screen_paint_put_glyph(s, y + h - 1 - r, x + i,
					       screen_graph_bar_cell(s, cell > 8 ? 8 : cell), a);
		}
		/* the mark row: knob changes win over dips, both over the baseline */
		enum scr_role role = SCR_DIM;
		const char *mark = s->utf8 ? "\u2500" : "-";
		if (evs && evs[i]) {
			role = SCR_EVENT;
			mark = "*";
		} else if (dips && dips[i]) {
			role = SCR_DIP;
			mark = "^";
		}
		screen_paint_put_glyph(s, y + h, x + i, mark, screen_paint_attr(s, role));
	}
}

void screen_graph_spark(struct screen *s, struct scr_line *ln, const double *vals, const bool *dips,
		    int n, double floor_max)
{
	double max = screen_graph_series_max(vals, n, floor_max);
	int m = n < ln->xmax - ln->x ? n : ln->xmax - ln->x;
	/* the row's cells made first and put in with one call (a call a cell was most of
	 * drawing a sparkline); cell by cell only when a glyph has no cell */
	cchar_t cells[256];
	bool whole = m > 0 && m <= (int)(sizeof cells / sizeof cells[0]);
	for (int i = 0; whole && i < m; i++) {
		int level = screen_calc_spark_level(vals[i], max, 8);
		const char *g = s->utf8 ? screen_graph_blocks_utf8[level] : screen_graph_spark_ascii[level];
		attr_t a = screen_paint_attr(s, dips && dips[i] ? SCR_DIP : SCR_GRAPH);
		const cchar_t *cc = screen_paint_glyph(s, g, a);
		if (cc)
			cells[i] = *cc;
		whole = cc != NULL;
	}
	if (whole) {
		mvadd_wchnstr(ln->y, ln->x, cells, m);
		ln->x += m;
		return;
	}
	for (int i = 0; i < n && ln->x < ln->xmax; i++) {
		int level = screen_calc_spark_level(vals[i], max, 8);
		const char *g = s->utf8 ? screen_graph_blocks_utf8[level] : screen_graph_spark_ascii[level];
		screen_paint_put_glyph(s, ln->y, ln->x, g, screen_paint_attr(s, dips && dips[i] ? SCR_DIP : SCR_GRAPH));
		ln->x++;
	}
}

bool screen_graph_scratch(struct screen *s, size_t n)
{
	const struct grow_part parts[] = {
		{ (void **)&s->vals, sizeof *s->vals }, { (void **)&s->dips, sizeof *s->dips },
		{ (void **)&s->evs, sizeof *s->evs },
	};
	return grow_arrays(parts, sizeof parts / sizeof parts[0], &s->cap_vals, n, n) == 0;
}
