/*
 * screen_top.c - the rows above the device table: the vmstat figures, the
 * writeback gauge and the writeback knobs.
 *
 * Figures come from the frame only (sys_rates and the snapshot's knob
 * values); nothing here reads the system.  Rates are "-" on a first sample,
 * gauges (memory, Dirty, Writeback, thresholds) are shown at once.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/knob.h"
#include "screen/screen_calc.h"
#include "screen_graph.h"
#include "screen_paint.h"
#include "screen_procs.h"
#include "screen_top.h"

static bool screen_top_rates_ok(const struct screen *s)
{
	return s->f->sys.status == RATE_OK;
}

/* A section title, only with room for a figure after it. */
static void screen_top_section(struct screen *s, struct scr_line *ln, const char *title)
{
	if (ln->x + (int)strlen(title) + 8 > ln->xmax) {
		ln->x = ln->xmax;	/* and nothing after it on this row */
		return;
	}
	if (ln->x > 0)
		screen_paint_add(s, ln, SCR_NORMAL, " ");
	screen_paint_add(s, ln, SCR_TITLE, title);
}

static const char *screen_top_kb(double kb, char *buf, size_t len)
{
	return screen_calc_fmt_kb(kb, buf, len);
}

static const char *screen_top_kbps(const struct screen *s, double kbps, char *buf, size_t len)
{
	if (!screen_top_rates_ok(s))
		return "-";
	screen_calc_fmt_kb(kbps, buf, len);
	return buf;
}

/* A whole number, shortened with k/M only past 5 digits. */
static const char *screen_top_int(double v, char *buf, size_t len)
{
	if (v < 99999.5)
		snprintf(buf, len, "%.0f", v);
	else
		screen_calc_fmt_num(v, 5, 0, buf, len);
	return buf;
}

static const char *screen_top_count(const struct screen *s, double v, char *buf, size_t len)
{
	if (!screen_top_rates_ok(s))
		return "-";
	return screen_top_int(v, buf, len);
}

static const char *screen_top_pct(const struct screen *s, double v, char *buf, size_t len)
{
	if (!screen_top_rates_ok(s))
		return "-";
	snprintf(buf, len, "%.0f", v);
	return buf;
}

void screen_top_draw_summary(struct screen *s, int y)
{
	const struct sys_rates *r = &s->f->sys;
	char b[16];
	struct scr_line ln = { y, 0, COLS };
	screen_top_section(s, &ln, "procs");
	screen_paint_field(s, &ln, "r", SCR_NORMAL, screen_top_int((double)r->r, b, sizeof b));
	screen_paint_field(s, &ln, "b", r->b ? SCR_WARN : SCR_NORMAL, screen_top_int((double)r->b, b, sizeof b));
	screen_procs_summary_field(s, &ln);
	screen_top_section(s, &ln, " mem");
	screen_paint_field(s, &ln, "free", SCR_NORMAL, screen_top_kb((double)r->free_kb, b, sizeof b));
	screen_paint_field(s, &ln, "buff", SCR_NORMAL, screen_top_kb((double)r->buff_kb, b, sizeof b));
	screen_paint_field(s, &ln, "cache", SCR_NORMAL, screen_top_kb((double)r->cache_kb, b, sizeof b));
	screen_paint_field(s, &ln, "avail", SCR_NORMAL,
			   screen_top_kb((double)s->f->cur->sys.mem_avail_kb, b, sizeof b));
	screen_top_section(s, &ln, " swap");
	screen_paint_field(s, &ln, "used", SCR_NORMAL, screen_top_kb((double)r->swpd_kb, b, sizeof b));
	screen_paint_field(s, &ln, "si", SCR_NORMAL, screen_top_kbps(s, r->si_kbps, b, sizeof b));
	screen_paint_field(s, &ln, "so", r->so_kbps > 0 ? SCR_WARN : SCR_NORMAL,
			   screen_top_kbps(s, r->so_kbps, b, sizeof b));

	ln = (struct scr_line){ y + 1, 0, COLS };
	char v[16];
	screen_top_section(s, &ln, "io/s");
	screen_paint_field(s, &ln, "bi", SCR_NORMAL, screen_top_kbps(s, r->bi_kbps, b, sizeof b));
	screen_paint_field(s, &ln, "bo", s->f->sys_dip ? SCR_DIP : SCR_NORMAL,
			   screen_top_kbps(s, r->bo_kbps, v, sizeof v));
	screen_top_section(s, &ln, " sys/s");
	screen_paint_field(s, &ln, "in", SCR_NORMAL, screen_top_count(s, r->in_ps, b, sizeof b));
	screen_paint_field(s, &ln, "cs", SCR_NORMAL, screen_top_count(s, r->cs_ps, b, sizeof b));
	screen_top_section(s, &ln, " cpu%");
	screen_paint_field(s, &ln, "us", SCR_NORMAL, screen_top_pct(s, r->us, b, sizeof b));
	screen_paint_field(s, &ln, "sy", SCR_NORMAL, screen_top_pct(s, r->sy, b, sizeof b));
	screen_paint_field(s, &ln, "id", SCR_NORMAL, screen_top_pct(s, r->id, b, sizeof b));
	screen_paint_field(s, &ln, "wa", r->wa >= 20 && screen_top_rates_ok(s) ? SCR_WARN : SCR_NORMAL,
		  screen_top_pct(s, r->wa, b, sizeof b));
	screen_paint_field(s, &ln, "st", SCR_NORMAL, screen_top_pct(s, r->st, b, sizeof b));
}

/* The bar: dirty then writeback cells against scale, with mark_kb marked
 * (none when it is above scale).  Glyphs differ, so it reads without colour. */
void screen_top_gauge_cells(struct screen *s, struct scr_line *ln, int w, uint64_t dirty_kb,
		     uint64_t writeback_kb, uint64_t scale, uint64_t mark_kb)
{
	uint64_t used = dirty_kb + writeback_kb;
	int nd = 0, nw = 0;
	if (scale) {
		nd = (int)lround((double)dirty_kb / (double)scale * w);
		nw = (int)lround((double)used / (double)scale * w) - nd;
		if (nd > w)
			nd = w;
		if (nd + nw > w)
			nw = w - nd;
		if (nd == 0 && dirty_kb)
			nd = nd + nw < w ? 1 : 0;	/* some dirt is not none */
	}
	int bg = screen_calc_mark_pos(mark_kb, scale, w);
	bool over = scale && used >= scale;
	screen_paint_add(s, ln, SCR_NORMAL, "[");
	for (int i = 0; i < w && ln->x < ln->xmax; i++) {
		enum scr_role role = i < nd ? SCR_DIRTY : i < nd + nw ? SCR_WB : SCR_DIM;
		const char *g = i < nd ? (s->utf8 ? "\u2588" : "#") :
				i < nd + nw ? (s->utf8 ? "\u2592" : "=") : (s->utf8 ? "\u00b7" : ".");
		if (over)
			role = SCR_DIP;
		if (i == bg) {
			g = s->utf8 ? "\u2502" : "|";
			role = SCR_WARN;
		}
		screen_paint_add(s, ln, role, g);
	}
	screen_paint_add(s, ln, SCR_NORMAL, "]");
}

static void screen_top_gauge_bar(struct screen *s, struct scr_line *ln, int w, const struct sys_rates *r)
{
	screen_top_gauge_cells(s, ln, w, r->dirty_kb, r->writeback_kb, r->dirty_thresh_kb, r->bg_thresh_kb);
}

/* Seconds the gauge's forecasts average over: six periods of default
 * periodic writeback (dirty_writeback_centisecs 500), so its bursts even out. */
#define SCR_TREND_WINDOW_S 30.0

/* The trend over the history's last SCR_TREND_WINDOW_S; tr keeps the
 * frame's own rates when the history has none. */
static void screen_top_gauge_trend(struct screen *s, struct screen_calc_trend *tr)
{
	size_t n = s->h ? history_len(s->h) : 0;
	if (n == 0 || !screen_graph_scratch(s, 3 * n))
		return;
	double *dirtied = s->vals, *written = s->vals + n, *dt = s->vals + 2 * n;
	for (size_t i = 0; i < n; i++) {
		const struct hist_sys *h = history_sys(s->h, i), *older = i + 1 < n ? history_sys(s->h, i + 1) : NULL;
		dirtied[i] = h->valid ? h->dirtied_kbps : NAN;
		written[i] = h->valid ? h->written_kbps : NAN;
		dt[i] = older ? (double)(h->wall_ns - older->wall_ns) / 1e9 : s->f->sys.dt_s;
	}
	struct screen_calc_trend got;
	if (screen_calc_trend(dirtied, written, dt, n, SCR_TREND_WINDOW_S, &got))
		*tr = got;
}

void screen_top_draw_gauge(struct screen *s, int y)
{
	const struct sys_rates *r = &s->f->sys;
	char a[16], b[16];
	struct scr_line ln = { y, 0, COLS };
	screen_paint_add(s, &ln, SCR_TITLE, "dirty ");
	int text_w = 32;
	int w = COLS - ln.x - 2 - text_w;
	w = w < 10 ? 10 : w > 120 ? 120 : w;	/* the figures stay near the bar */
	screen_top_gauge_bar(s, &ln, w, r);
	screen_paint_field(s, &ln, "Dirty", SCR_DIRTY, screen_top_kb((double)r->dirty_kb, a, sizeof a));
	screen_paint_field(s, &ln, " Writeback", SCR_WB, screen_top_kb((double)r->writeback_kb, b, sizeof b));

	ln = (struct scr_line){ y + 1, 0, COLS };
	uint64_t used = r->dirty_kb + r->writeback_kb;
	screen_paint_add(s, &ln, SCR_NORMAL, "     ");
	/* 0: the kernel did not say (an old kernel, a replay without them) */
	screen_paint_field(s, &ln, "bg", SCR_NORMAL,
			   r->bg_thresh_kb ? screen_top_kb((double)r->bg_thresh_kb, a, sizeof a) : "?");
	screen_paint_field(s, &ln, "limit", SCR_NORMAL,
		  r->dirty_thresh_kb ? screen_top_kb((double)r->dirty_thresh_kb, b, sizeof b) : "?");
	if (r->dirty_thresh_kb && used >= r->dirty_thresh_kb) {
		screen_paint_add(s, &ln, SCR_DIP, "  OVER THE LIMIT: writers are throttled");
		return;
	}
	if (!screen_top_rates_ok(s))
		return;
	/* Net growth of dirty memory: what is dirtied minus what is written,
	 * over the last SCR_TREND_WINDOW_S, said first ("30s avg"). */
	struct screen_calc_trend tr = { r->dirtied_kbps, r->written_kbps, 0 };
	screen_top_gauge_trend(s, &tr);
	/* the window the forecasts average over, said last */
	char win[24];
	snprintf(win, sizeof win, "(%.0fs avg)", tr.span_s > 0 ? tr.span_s : r->dt_s);
	double growth_kbps = tr.dirtied_kbps - tr.written_kbps;
	double t = screen_calc_time_to_limit_s(used, r->dirty_thresh_kb, growth_kbps);
	/* What the room holds, in this order: the window (a forecast can't be read without
	 * it), when the limit is reached, when the dirty data drains, then the growth's rate,
	 * then the drain's (ASCII: a byte a column; screen_paint_field puts a space each side). */
	double d = screen_calc_drain_s(used, tr.written_kbps);
	char grow[24], lim[24] = "", drain[24] = "", drain_rate[48];
	snprintf(grow, sizeof grow, "+%s/s,", screen_top_kb(growth_kbps, a, sizeof a));
	if (t >= 0)
		screen_calc_fmt_duration(t, lim, sizeof lim);
	if (d >= 0)
		screen_calc_fmt_duration(d, drain, sizeof drain);
	snprintf(drain_rate, sizeof drain_rate, "%s at %s/s", drain, screen_top_kb(tr.written_kbps, b, sizeof b));
	int room = ln.xmax - ln.x - ((int)strlen(win) + 2);
	int w_lim = t >= 0 ? (int)(strlen("limit in") + strlen(lim)) + 2 : (int)strlen(" not growing");
	int w_drain = d >= 0 ? (int)(strlen(" drains in") + strlen(drain)) + 2
		      : used ? (int)strlen("  nothing being written") : 0;
	bool show_lim = w_lim <= room;
	room -= show_lim ? w_lim : 0;
	bool show_drain = w_drain <= room;
	room -= show_drain ? w_drain : 0;
	int w_grow = (int)(strlen(" grows") + strlen(grow)) + 2;
	bool show_grow = t >= 0 && show_lim && w_grow <= room;
	room -= show_grow ? w_grow : 0;
	bool long_drain = d >= 0 && show_drain && (int)(strlen(drain_rate) - strlen(drain)) <= room;
	if (show_grow)
		screen_paint_field(s, &ln, " grows", SCR_NORMAL, grow);
	if (show_lim && t >= 0)
		screen_paint_field(s, &ln, "limit in", t < 30 ? SCR_WARN : SCR_NORMAL, lim);
	else if (show_lim)
		screen_paint_add(s, &ln, SCR_NORMAL, " not growing");
	if (show_drain && d >= 0)
		screen_paint_field(s, &ln, " drains in", SCR_NORMAL, long_drain ? drain_rate : drain);
	else if (show_drain && used)
		screen_paint_add(s, &ln, SCR_NORMAL, "  nothing being written");
	screen_paint_field(s, &ln, "", SCR_DIM, win);
}

enum screen_top_force { SCR_SINGLE, SCR_IDLE_MEMBER, SCR_IN_FORCE };

/* "ratio *20%": the member of a pair in force is starred and bright, the
 * other one dim; knobs without a partner are plain. */
static void screen_top_knob(struct screen *s, struct scr_line *ln, const char *label, int k,
		     enum screen_top_force force)
{
	char v[24], buf[32];
	knob_format_value(knob_vm_table[k].kind, s->f->cur->knob[k], v, sizeof v);
	snprintf(buf, sizeof buf, "%s%s", force == SCR_IN_FORCE ? "*" : "", v);
	enum scr_role role = force == SCR_IN_FORCE ? SCR_TITLE : force == SCR_IDLE_MEMBER ? SCR_DIM : SCR_NORMAL;
	screen_paint_field(s, ln, label, role, buf);
}

static void screen_top_knob_pair(struct screen *s, struct scr_line *ln, const char *title, bool background,
			  uint64_t thresh_kb)
{
	const int64_t *k = s->f->cur->knob;
	bool bytes = knob_bytes_in_force(k, background);
	char b[16], t[24];
	snprintf(t, sizeof t, "%s:", title);
	if (ln->x + (int)strlen(t) + 1 > ln->xmax)
		return;
	screen_paint_add(s, ln, SCR_NORMAL, " ");
	screen_paint_add(s, ln, SCR_TITLE, t);
	screen_top_knob(s, ln, "ratio", background ? KNOB_DIRTY_BG_RATIO : KNOB_DIRTY_RATIO,
		 bytes ? SCR_IDLE_MEMBER : SCR_IN_FORCE);
	screen_top_knob(s, ln, "bytes", background ? KNOB_DIRTY_BG_BYTES : KNOB_DIRTY_BYTES,
		 bytes ? SCR_IN_FORCE : SCR_IDLE_MEMBER);
	snprintf(t, sizeof t, "=%s", thresh_kb ? screen_top_kb((double)thresh_kb, b, sizeof b) : "?");
	screen_paint_add(s, ln, SCR_NORMAL, " ");
	screen_paint_add(s, ln, SCR_NORMAL, t);
}

void screen_top_draw_knob_rows(struct screen *s, int y)
{
	struct scr_line ln = { y, 0, COLS };
	screen_paint_add(s, &ln, SCR_TITLE, "knobs");
	screen_top_knob_pair(s, &ln, "dirty", false, s->f->sys.dirty_thresh_kb);
	screen_paint_add(s, &ln, SCR_NORMAL, " ");
	screen_top_knob_pair(s, &ln, "background", true, s->f->sys.bg_thresh_kb);

	ln = (struct scr_line){ y + 1, 5, COLS };
	screen_top_knob(s, &ln, "expire", KNOB_DIRTY_EXPIRE_CS, SCR_SINGLE);
	screen_top_knob(s, &ln, " writeback", KNOB_DIRTY_WRITEBACK_CS, SCR_SINGLE);
	screen_top_knob(s, &ln, " dirtytime", KNOB_DIRTYTIME_EXPIRE_S, SCR_SINGLE);
	screen_paint_field(s, &ln, "  *", SCR_NORMAL, "in force");
}
