/*
 * plot_svg.c - runs as an SVG picture of throughput over time.
 */
#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/atomic_file.h"
#include "core/knob.h"
#include "sink/plot_svg.h"

/* Layout in SVG user units (pixels at 100%). */
enum {
	PLOT_W = 1000,
	PLOT_PANEL_H = 280,
	PLOT_LEFT = 70,		/* the throughput axis */
	PLOT_RIGHT = 220,	/* the legend */
	PLOT_TOP = 40,		/* the panel's title */
	PLOT_BOTTOM = 40,	/* the time axis */
	PLOT_LEGEND_ROWS = 9	/* device rows of a panel's legend */
};

/* Device lines: distinct from the total (black), dips (red) and knob
 * lines (orange). */
static const char *const plot_colours[] = {
	"#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f",
};
#define PLOT_NCOLOURS (sizeof plot_colours / sizeof plot_colours[0])

struct plot_scale {
	double t_max_s, y_max_mbs, y_step_mbs, t_step_s;
};

static void plot_svg_text(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(*s, out);
		}
	}
}

/* A round step (1, 2 or 5 times a power of ten) giving about 5 ticks up to max. */
static double plot_svg_step(double max)
{
	double raw = max / 5, p = pow(10, floor(log10(raw)));
	return raw <= p ? p : raw <= 2 * p ? 2 * p : raw <= 5 * p ? 5 * p : 10 * p;
}

/* Idle devices are left out of the picture and its legend, as of the tables. */
static bool plot_svg_wrote(const struct series_dev *d)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->kbps[i] > 0)
			return true;
	return false;
}

static void plot_svg_extend(struct plot_scale *sc, const struct series_dev *d)
{
	for (size_t i = 0; i < d->n; i++) {
		if (isfinite(d->kbps[i]) && d->kbps[i] / 1024 > sc->y_max_mbs)
			sc->y_max_mbs = d->kbps[i] / 1024;
		if (d->t_s[i] > sc->t_max_s)
			sc->t_max_s = d->t_s[i];
	}
}

/* One scale for every panel: runs are compared by eye, and a panel scaled
 * to its own peak would make a slow run look as fast as a quick one. */
static void plot_svg_scale_of(struct plot_scale *sc, struct series *const *runs, size_t n,
			      const regex_t *re)
{
	memset(sc, 0, sizeof *sc);
	for (size_t r = 0; r < n; r++) {
		struct series_dev sum;
		if (!re) {
			plot_svg_extend(sc, &runs[r]->total);
		} else if (series_total_of(runs[r], re, &sum) == 0) {
			plot_svg_extend(sc, &sum);
			series_dev_clear(&sum);
		}
		for (size_t i = 0; i < runs[r]->ndev; i++)
			if (series_dev_selected(&runs[r]->dev[i], re))
				plot_svg_extend(sc, &runs[r]->dev[i]);
	}
	if (!(sc->y_max_mbs > 0))
		sc->y_max_mbs = 1;
	if (!(sc->t_max_s > 0))
		sc->t_max_s = 1;
	sc->y_step_mbs = plot_svg_step(sc->y_max_mbs);
	sc->y_max_mbs = ceil(sc->y_max_mbs / sc->y_step_mbs) * sc->y_step_mbs;
	sc->t_step_s = plot_svg_step(sc->t_max_s);
}

static double plot_svg_x(const struct plot_scale *sc, double t_s)
{
	return PLOT_LEFT + t_s / sc->t_max_s * (PLOT_W - PLOT_LEFT - PLOT_RIGHT);
}

static double plot_svg_y(const struct plot_scale *sc, double y0, double kbps)
{
	double h = PLOT_PANEL_H - PLOT_TOP - PLOT_BOTTOM;
	return y0 + PLOT_TOP + h - (isfinite(kbps) ? kbps / 1024 : 0) / sc->y_max_mbs * h;
}

static void plot_svg_axes(FILE *out, const struct plot_scale *sc, double y0)
{
	double bottom = plot_svg_y(sc, y0, 0), right = PLOT_W - PLOT_RIGHT;
	for (double v = 0; v <= sc->y_max_mbs + 1e-9; v += sc->y_step_mbs) {
		double y = plot_svg_y(sc, y0, v * 1024);
		fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#dddddd\"/>"
			"<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" font-size=\"11\">%g</text>\n",
			PLOT_LEFT, y, (int)right, y, PLOT_LEFT - 6, y + 4, v);
	}
	for (double t = 0; t <= sc->t_max_s + 1e-9; t += sc->t_step_s)
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"11\">%gs</text>\n",
			plot_svg_x(sc, t), bottom + 16, t);
	fprintf(out, "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#888888\"/>\n"
		"<text x=\"14\" y=\"%.1f\" font-size=\"11\" transform=\"rotate(-90 14 %.1f)\" "
		"text-anchor=\"middle\">write MB/s</text>\n", PLOT_LEFT, y0 + PLOT_TOP,
		PLOT_W - PLOT_LEFT - PLOT_RIGHT, PLOT_PANEL_H - PLOT_TOP - PLOT_BOTTOM,
		y0 + PLOT_PANEL_H / 2.0, y0 + PLOT_PANEL_H / 2.0);
}

/* A step of a line: intervals shorter than a pixel are merged into one (the
 * time-weighted mean, a dip if one of them dipped), so that a day of 1 s
 * samples is a few hundred steps, not 86400. */
struct plot_seg {
	double t0_s, t1_s, kbps;
	bool dip;
};

/* The step starting at interval i into g; returns the interval after it. */
static size_t plot_svg_seg_at(const struct series_dev *d, size_t i, double px_s, struct plot_seg *g)
{
	double kb = 0, secs = 0;
	g->t0_s = d->t_s[i] - d->dt_s[i];
	g->dip = false;
	size_t j = i;
	do {
		kb += d->kbps[j] * d->dt_s[j];
		secs += d->dt_s[j];
		g->dip |= d->dip[j];
		g->t1_s = d->t_s[j];
		j++;
	} while (j < d->n && d->t_s[j] - g->t0_s <= px_s);
	g->kbps = secs > 0 ? kb / secs : d->kbps[i];
	return j;
}

/* One series: its line, and a red dot on each dip. */
static void plot_svg_line(FILE *out, const struct plot_scale *sc, double y0, const struct series_dev *d,
			  const char *colour, double width)
{
	if (!d->n)
		return;
	double px_s = sc->t_max_s / (PLOT_W - PLOT_LEFT - PLOT_RIGHT);
	struct plot_seg g;
	fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\" points=\"", colour, width);
	for (size_t i = 0; i < d->n; i = plot_svg_seg_at(d, i, px_s, &g)) {
		plot_svg_seg_at(d, i, px_s, &g);
		/* the rate holds over the interval: a step from its start to its end */
		fprintf(out, "%.1f,%.1f %.1f,%.1f ", plot_svg_x(sc, g.t0_s), plot_svg_y(sc, y0, g.kbps),
			plot_svg_x(sc, g.t1_s), plot_svg_y(sc, y0, g.kbps));
	}
	fputs("\"/>\n", out);
	for (size_t i = 0; i < d->n; i = plot_svg_seg_at(d, i, px_s, &g)) {
		plot_svg_seg_at(d, i, px_s, &g);
		if (g.dip)
			fprintf(out, "<circle class=\"dip\" cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%s\"/>\n",
				plot_svg_x(sc, (g.t0_s + g.t1_s) / 2), plot_svg_y(sc, y0, g.kbps),
				PLOT_SVG_DIP);
	}
}

/* KiB d wrote over the run: which devices a crowded panel draws. */
static double plot_svg_kb(const struct series_dev *d)
{
	double kb = 0;
	for (size_t i = 0; i < d->n; i++)
		kb += d->kbps[i] * d->dt_s[i];
	return kb;
}

struct plot_rank {
	size_t dev;
	double kb;
};

static int plot_svg_rank_order(const void *x, const void *y)
{
	const struct plot_rank *a = x, *b = y;
	if (a->kb != b->kb)
		return a->kb < b->kb ? 1 : -1;	/* most first */
	return a->dev < b->dev ? -1 : a->dev > b->dev;
}

/* Which devices of s a panel draws: of those re selects that wrote, the
 * PLOT_LEGEND_ROWS that wrote most (drawn[i]); returns how many more wrote. */
static size_t plot_svg_pick(const struct series *s, const regex_t *re, bool *drawn)
{
	struct plot_rank *r = calloc(s->ndev ? s->ndev : 1, sizeof *r);
	size_t n = 0;
	for (size_t i = 0; i < s->ndev; i++) {
		drawn[i] = false;
		if (plot_svg_wrote(&s->dev[i]) && series_dev_selected(&s->dev[i], re) && r)
			r[n++] = (struct plot_rank){ i, plot_svg_kb(&s->dev[i]) };
	}
	if (n)
		qsort(r, n, sizeof *r, plot_svg_rank_order);
	for (size_t k = 0; k < n && k < PLOT_LEGEND_ROWS; k++)
		drawn[r[k].dev] = true;
	free(r);
	return n > PLOT_LEGEND_ROWS ? n - PLOT_LEGEND_ROWS : 0;
}

/* Knob changes within a run; labels step down four rows, so that changes
 * close together (a ratio and its partner) stay readable. */
static void plot_svg_changes(FILE *out, const struct plot_scale *sc, double y0, const struct series *s)
{
	for (size_t i = 0; i < s->nchanges; i++) {
		const struct series_change *c = &s->changes[i];
		double x = plot_svg_x(sc, c->t_s);
		char a[32], b[32];
		knob_format_value(knob_vm_table[c->knob].kind, c->old_value, a, sizeof a);
		knob_format_value(knob_vm_table[c->knob].kind, c->new_value, b, sizeof b);
		fprintf(out, "<line class=\"knob\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			"stroke-width=\"2\" stroke-dasharray=\"6 4\"/>\n<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" "
			"fill=\"%s\">%s %s -&gt; %s</text>\n", x, y0 + PLOT_TOP, x,
			y0 + PLOT_PANEL_H - PLOT_BOTTOM, PLOT_SVG_KNOB, x + 4, y0 + PLOT_TOP + 12 + 12.0 * (double)(i % 4),
			PLOT_SVG_KNOB, knob_vm_table[c->knob].name, a, b);
	}
}

static void plot_svg_legend_row(FILE *out, double y, const char *colour, const char *label,
				const char *more)
{
	int x = PLOT_W - PLOT_RIGHT + 12;
	fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"3\"/>"
		"<text x=\"%d\" y=\"%.1f\" font-size=\"11\">", x, y, x + 18, y, colour, x + 24, y + 4);
	char text[36];
	/* the legend's column holds about 30 characters */
	snprintf(text, sizeof text, "%s%s%s", label, more && *more ? " " : "", more ? more : "");
	if (strlen(text) > 30)
		memcpy(text + 27, "...", 4);
	plot_svg_text(out, text);
	fputs("</text>\n", out);
}

static void plot_svg_panel(FILE *out, const struct plot_scale *sc, double y0, const struct series *s,
			   const regex_t *re)
{
	fprintf(out, "<g class=\"run\">\n<text x=\"%d\" y=\"%.1f\" font-size=\"14\" font-weight=\"bold\">",
		PLOT_LEFT, y0 + 24);
	plot_svg_text(out, s->case_name);
	fputs("</text>\n", out);
	plot_svg_axes(out, sc, y0);
	double ly = y0 + PLOT_TOP + 10;
	/* the legend holds what fits beside the panel: the devices that wrote
	 * most are drawn, the rest counted (they are in the total) */
	bool *drawn = calloc(s->ndev ? s->ndev : 1, sizeof *drawn);
	size_t colour = 0, undrawn = drawn ? plot_svg_pick(s, re, drawn) : 0;
	for (size_t i = 0; drawn && i < s->ndev; i++) {
		const struct series_dev *d = &s->dev[i];
		if (!drawn[i])
			continue;
		const char *c = plot_colours[colour++ % PLOT_NCOLOURS];
		plot_svg_line(out, sc, y0, d, c, 1.5);
		plot_svg_legend_row(out, ly, c, d->label, d->mounts);
		ly += 16;
	}
	free(drawn);
	if (undrawn) {
		fprintf(out, "<text x=\"%d\" y=\"%.1f\" font-size=\"11\">and %zu more devices</text>\n",
			PLOT_W - PLOT_RIGHT + 12, ly + 4, undrawn);
		ly += 16;
	}
	/* with --devices, the total of those shown: the system's would dwarf them */
	struct series_dev sum;
	bool own = re && series_total_of(s, re, &sum) == 0;
	plot_svg_line(out, sc, y0, own ? &sum : &s->total, PLOT_SVG_TOTAL, 2.5);
	plot_svg_legend_row(out, ly, PLOT_SVG_TOTAL, own ? "total (the devices shown)" : "total (vmstat bo)",
			    NULL);
	if (own)
		series_dev_clear(&sum);
	ly += 16;
	plot_svg_changes(out, sc, y0, s);
	fprintf(out, "<circle cx=\"%d\" cy=\"%.1f\" r=\"5\" fill=\"%s\"/><text x=\"%d\" y=\"%.1f\" "
		"font-size=\"11\">dip</text>\n", PLOT_W - PLOT_RIGHT + 21, ly, PLOT_SVG_DIP,
		PLOT_W - PLOT_RIGHT + 36, ly + 4);
	fputs("</g>\n", out);
}

int plot_svg_print(FILE *out, struct series *const *runs, size_t n, const char *devices)
{
	regex_t re;
	if (devices && regcomp(&re, devices, REG_EXTENDED | REG_NOSUB) != 0)
		return -EINVAL;
	struct plot_scale sc;
	plot_svg_scale_of(&sc, runs, n, devices ? &re : NULL);
	int h = PLOT_PANEL_H * (int)(n ? n : 1);
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"font-family=\"sans-serif\">\n<title>wbtop: write throughput</title>\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n", PLOT_W, h, PLOT_W, h);
	for (size_t r = 0; r < n; r++)
		plot_svg_panel(out, &sc, (double)r * PLOT_PANEL_H, runs[r], devices ? &re : NULL);
	fputs("</svg>\n", out);
	if (devices)
		regfree(&re);
	return ferror(out) ? -EIO : 0;
}

struct plot_arg {
	struct series *const *runs;
	size_t n;
	const char *devices;
};

static int plot_svg_fill(FILE *f, const void *arg)
{
	const struct plot_arg *a = arg;
	return plot_svg_print(f, a->runs, a->n, a->devices);
}

int plot_svg_write(const char *path, struct series *const *runs, size_t n, const char *devices,
		   char *err, size_t errlen)
{
	struct plot_arg a = { runs, n, devices };
	return atomic_file_write(path, ATOMIC_FILE_KEEP_MODE | ATOMIC_FILE_WRITE_SPECIAL, 0644, plot_svg_fill,
				 &a, err, errlen);
}

int plot_svg_files(const char *out_path, char *const *paths, size_t n, const char *devices,
		   char *err, size_t errlen)
{
	struct series **runs = calloc(n ? n : 1, sizeof *runs);
	if (!runs) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	int r = 0;
	size_t nread = 0;
	for (; r == 0 && nread < n; nread++)
		if ((r = series_load(paths[nread], &runs[nread], err, errlen)) < 0)
			break;
	if (r == 0)
		r = plot_svg_write(out_path, runs, n, devices, err, errlen);
	for (size_t i = 0; i < nread; i++)
		series_free(runs[i]);
	free(runs);
	return r;
}
