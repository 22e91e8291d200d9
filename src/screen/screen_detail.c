/*
 * screen_detail.c - one device's page (Enter on a row): who it is, its BDI
 * limits, every iostat figure of the last interval, the kernel's writeback
 * loop for it, and graphs of its recent writes and await.  The identity is
 * what the source looked up when the device appeared (ident.h).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/cause.h"
#include "core/ident.h"
#include "core/knob.h"
#include "screen/screen_calc.h"
#include "screen_detail.h"
#include "screen_devices.h"
#include "screen_graph.h"
#include "screen_paint.h"
#include "screen_title.h"
#include "screen_top.h"

/* Writes "label value" pairs across rows, wrapping when one doesn't fit. */
struct screen_detail_flow {
	struct scr_line ln;
	int ymax;		/* first row not to write on */
};

static void screen_detail_flow_field(struct screen *s, struct screen_detail_flow *fl, const char *label,
			   enum scr_role role, const char *value)
{
	if (!value || fl->ln.y >= fl->ymax)
		return;
	if (screen_paint_field(s, &fl->ln, label, role, value))
		return;
	fl->ln = (struct scr_line){ fl->ln.y + 1, 2, COLS };
	if (fl->ln.y < fl->ymax && !screen_paint_field(s, &fl->ln, label, role, value)) {
		/* longer than a row: show what fits */
		screen_paint_add(s, &fl->ln, SCR_LABEL, label);
		screen_paint_add(s, &fl->ln, SCR_NORMAL, " ");
		screen_paint_add(s, &fl->ln, role, value);
	}
}

static void screen_detail_flow_title(struct screen *s, struct screen_detail_flow *fl, const char *title)
{
	if (fl->ln.x > 0)
		fl->ln = (struct scr_line){ fl->ln.y + 1, 0, COLS };
	if (fl->ln.y < fl->ymax)
		screen_paint_add(s, &fl->ln, SCR_TITLE, title);
}

static void screen_detail_identity(struct screen *s, struct screen_detail_flow *fl, const struct dev_counters *d)
{
	const struct dev_ident *id = d->ident;
	char mm[32];
	snprintf(mm, sizeof mm, "%" PRIu32 ":%" PRIu32, d->major, d->minor);
	screen_detail_flow_title(s, fl, "identity");
	screen_detail_flow_field(s, fl, "kernel", SCR_NORMAL, d->name);
	screen_detail_flow_field(s, fl, "dev", SCR_NORMAL, mm);
	if (!id) {
		screen_detail_flow_field(s, fl, "", SCR_DIM, "(no identity known)");
		return;
	}
	screen_detail_flow_field(s, fl, "key", SCR_NORMAL, id->key);
	screen_detail_flow_field(s, fl, "dm", SCR_NORMAL, id->dm_name);
	screen_detail_flow_field(s, fl, "dm-uuid", SCR_NORMAL, id->dm_uuid);
	screen_detail_flow_field(s, fl, "md", SCR_NORMAL, id->md_name);
	screen_detail_flow_field(s, fl, "mounted", SCR_NORMAL, id->mounts);
	screen_detail_flow_field(s, fl, "fs", SCR_NORMAL, id->fstype);
	screen_detail_flow_field(s, fl, "label", SCR_NORMAL, id->fs_label);
	screen_detail_flow_field(s, fl, "fs-uuid", SCR_NORMAL, id->fs_uuid);
	screen_detail_flow_field(s, fl, "wwid", SCR_NORMAL, id->wwid);
	screen_detail_flow_field(s, fl, "serial", SCR_NORMAL, id->serial);
	screen_detail_flow_field(s, fl, "rotational", SCR_NORMAL,
		       id->rotational < 0 ? NULL : id->rotational ? "yes" : "no");
	screen_detail_flow_field(s, fl, "cache", SCR_NORMAL, id->write_cache);
	if (id->partition)
		screen_detail_flow_field(s, fl, "partition", SCR_NORMAL, "yes");
}

static void screen_detail_bdi(struct screen *s, struct screen_detail_flow *fl, const struct dev_counters *d)
{
	const struct dev_ident *id = d->ident;
	screen_detail_flow_title(s, fl, "BDI limits");
	if (!id || !id->has_bdi) {
		screen_detail_flow_field(s, fl, "", SCR_DIM,
			       id && id->partition ? "none of its own: a partition shares its disk's"
						   : "none (the device has no BDI)");
		return;
	}
	for (int k = 0; k < KNOB_BDI_COUNT; k++) {
		if (id->bdi[k] < 0)
			continue;	/* this kernel does not have it */
		char v[32];
		screen_detail_flow_field(s, fl, knob_bdi_table[k].name, SCR_NORMAL,
			       knob_format_value(knob_bdi_table[k].kind, id->bdi[k], v, sizeof v));
	}
}

/* One figure of the kernel's writeback loop, NAN when the frame lacks it. */
static double screen_detail_x(const struct dev_rates *r, enum snap_xdev k)
{
	return r->status == RATE_OK && (r->x_have & 1u << k) ? r->x[k] : NAN;
}

static const char *screen_detail_kb(double kb, const char *unit, char *b, size_t n)
{
	if (isnan(kb))
		return "-";
	char v[16];
	snprintf(b, n, "%s%s", screen_calc_fmt_kb(kb, v, sizeof v), unit);
	return b;
}

/* The kernel's writeback loop for the device: a gauge of its dirty and
 * writeback pages against its share of the dirty threshold, the global
 * dirty_limit writers are held to beside it, the bandwidth estimate and
 * how long its tasks were paused. */
static void screen_detail_loop(struct screen *s, struct screen_detail_flow *fl, size_t i)
{
	const struct dev_rates *r = frame_dev_rate(s->f, i);
	screen_detail_flow_title(s, fl, "writeback loop");
	double dirty = screen_detail_x(r, SNAP_XDEV_WB_DIRTY_KB), wb = screen_detail_x(r, SNAP_XDEV_WB_WRITEBACK_KB);
	double thr = screen_detail_x(r, SNAP_XDEV_WB_THRESH_KB);
	if (isnan(dirty) && isnan(thr) && isnan(screen_detail_x(r, SNAP_XDEV_THROTTLED_MS))) {
		screen_detail_flow_field(s, fl, "", SCR_DIM,
					 "none in this frame (live as root; --no-kernel-trace off)");
		return;
	}
	char a[24], b[24];
	if (!isnan(dirty) && !isnan(thr) && fl->ln.y + 1 < fl->ymax) {
		fl->ln = (struct scr_line){ fl->ln.y + 1, 2, COLS };
		int w = COLS - 2 - 2 - 60;
		w = w < 10 ? 10 : w > 60 ? 60 : w;
		screen_top_gauge_cells(s, &fl->ln, w, (uint64_t)dirty, isnan(wb) ? 0 : (uint64_t)wb, (uint64_t)thr,
				(uint64_t)thr + 1);
	}
	screen_detail_flow_field(s, fl, " dirty", SCR_DIRTY, screen_detail_kb(dirty, "", a, sizeof a));
	screen_detail_flow_field(s, fl, "writeback", SCR_WB, screen_detail_kb(wb, "", a, sizeof a));
	screen_detail_flow_field(s, fl, "thresh", SCR_NORMAL, screen_detail_kb(thr, "", a, sizeof a));
	const struct sys_rates *sys = &s->f->sys;
	if (sys->x_have & 1u << SNAP_XSYS_DIRTY_LIMIT_KB)
		screen_detail_flow_field(s, fl, "dirty_limit", SCR_NORMAL,
			       screen_detail_kb(sys->x[SNAP_XSYS_DIRTY_LIMIT_KB], "", a, sizeof a));
	screen_detail_flow_field(s, fl, "bandwidth", SCR_NORMAL,
		       screen_detail_kb(screen_detail_x(r, SNAP_XDEV_WB_BW_KBPS), "/s", a, sizeof a));
	screen_detail_flow_field(s, fl, "dirtied", SCR_NORMAL,
		       screen_detail_kb(screen_detail_x(r, SNAP_XDEV_WB_DIRTIED_KB), "/s", a, sizeof a));
	screen_detail_flow_field(s, fl, "written", SCR_NORMAL,
		       screen_detail_kb(screen_detail_x(r, SNAP_XDEV_WB_WRITTEN_KB), "/s", a, sizeof a));
	double ms = screen_detail_x(r, SNAP_XDEV_THROTTLED_MS), n = screen_detail_x(r, SNAP_XDEV_PAUSES);
	if (isnan(ms))
		snprintf(b, sizeof b, "-");
	else
		snprintf(b, sizeof b, "%.0f ms/s in %.0f pauses/s", ms, isnan(n) ? 0.0 : n);
	screen_detail_flow_field(s, fl, "throttled", !isnan(ms) && ms > 0 ? SCR_WARN : SCR_NORMAL, b);
}

/* The tasks that wrote to the device in the interval (their files open
 * for writing, or held on it): only while processes are sampled. */
static void screen_detail_writers(struct screen *s, struct screen_detail_flow *fl, const struct dev_counters *d)
{
	char b[48];
	if (s->f->prev && s->f->prev->nproc && s->f->cur->nproc)
		snprintf(b, sizeof b, "%zu", procs_dev_writers(s->f->prev, s->f->cur, s->f->sys.dt_s, d->major,
								d->minor));
	else
		snprintf(b, sizeof b, "- (p: sample processes)");
	screen_detail_flow_field(s, fl, "writers", SCR_NORMAL, b);
}

static void screen_detail_rates(struct screen *s, struct screen_detail_flow *fl, size_t i)
{
	const struct dev_rates *r = frame_dev_rate(s->f, i);
	screen_detail_flow_title(s, fl, "last interval");
	screen_detail_writers(s, fl, &s->f->cur->dev[i]);
	if (s->f->dev_dip && s->f->dev_dip[i]) {
		char why[80], deep[32] = "";
		double depth = s->f->dev_depth ? s->f->dev_depth[i] : NAN;
		if (isfinite(depth))
			snprintf(deep, sizeof deep, " %.0f%% below its level", depth);
		snprintf(why, sizeof why, "! write rate dipped%s: %s", deep,
			 cause_name(s->f->dev_cause ? s->f->dev_cause[i] : DIP_CAUSE_UNKNOWN));
		screen_detail_flow_field(s, fl, "", SCR_DIP, why);
	}
	for (size_t c = 0; c < s->ncols; c++) {
		const struct fig_dev *col = s->cols[c];
		char v[24];
		screen_detail_flow_field(s, fl, col->screen.title, SCR_NORMAL,
			       screen_calc_fmt_num(screen_devices_col_value(col, r), 9, col->screen.prec, v, sizeof v));
	}
}

/* A titled graph of one figure of the device: rule, bars, mark row. */
static void screen_detail_graph(struct screen *s, int y, int bars, const struct hist_series *hs,
			     enum hist_field field, const char *title, bool kb, const char *unit)
{
	int x = 8, w = COLS - x;
	screen_paint_rule(s, y, title);
	if (!s->h || !hs || bars < 1 || !screen_graph_scratch(s, (size_t)w))
		return;
	history_series(s->h, hs, field, s->vals, (size_t)w);
	history_marks(s->h, hs, true, s->dips, s->evs, (size_t)w);
	screen_graph_draw(s, y + 1, x, bars, w, s->vals, s->dips, s->evs, kb, unit);
}

/* The registry's graphs in room rows from y: the first gets two thirds of
 * the bars, the others share the rest; each has a rule above and marks
 * below. */
static void screen_detail_graphs(struct screen *s, int y, int room, const struct hist_series *hs)
{
	int n = (int)fig_ndev_graphs, bars_all = room - 2 * n;
	int first = n > 1 ? bars_all * 2 / 3 : bars_all, rest = bars_all - first;
	for (int g = 0; g < n; g++) {
		const struct fig_dev_graph *gr = &fig_dev_graphs[g];
		int bars = g == 0 ? first : rest / (n - 1) + (g == n - 1 ? rest % (n - 1) : 0);
		screen_detail_graph(s, y, bars, hs, history_dev_field(&fig_dev_table[gr->id]), gr->title, gr->kb,
				 gr->unit);
		y += bars + 2;
	}
}

void screen_detail_draw(struct screen *s)
{
	screen_title_draw(s);
	size_t i;
	const struct dev_counters *d = screen_devices_selected(s, &i);
	char label[160], title[224];
	if (!d) {
		screen_paint_rule(s, 1, "device gone");
		struct scr_line ln = { 2, 0, COLS };
		screen_paint_add(s, &ln, SCR_DIM, "  The device is no longer in the data.  Esc: back");
		return;
	}
	snprintf(title, sizeof title, "%s   (Esc: back, Up/Down: other devices, e: BDI knobs)",
		 screen_devices_label(d, label, sizeof label));
	screen_paint_rule(s, 1, title);
	/* Text first, graphs share what is left, writes getting the larger part. */
	int graphs_at = LINES - 1 - 2 * 4;
	struct screen_detail_flow fl = { { 2, 0, COLS }, graphs_at };
	screen_detail_identity(s, &fl, d);
	screen_detail_bdi(s, &fl, d);
	screen_detail_loop(s, &fl, i);
	screen_detail_rates(s, &fl, i);
	int top = fl.ln.y + 1;
	int room = LINES - 1 - top;	/* rows for both graphs, with their rules and marks */
	char kbuf[IDENT_KEY_MAX];
	const struct hist_series *hs = s->h ? history_find(s->h, ident_dev_key(d, kbuf, sizeof kbuf)) : NULL;
	screen_detail_graphs(s, top, room, hs);
}

bool screen_detail_key(struct screen *s, int ch, struct screen_req *req)
{
	switch (ch) {
	case 27: case 'q': case KEY_LEFT: case KEY_BACKSPACE: case 127: case '\n': case '\r': case KEY_ENTER:
		s->view = SCR_VIEW_MAIN;
		return true;
	case 'h': case '?':
		s->view = SCR_VIEW_HELP;
		return true;
	case 'e': {
		const struct dev_counters *d = screen_devices_selected(s, NULL);
		if (!d)
			return true;
		req->kind = SCREEN_REQ_KNOBS_OPEN;
		req->ref.bdi = true;
		req->ref.major = d->major;
		req->ref.minor = d->minor;
		s->view = SCR_VIEW_KNOBS;
		s->ksel = 0;
		return true;
	}
	}
	return screen_devices_key(s, ch);
}
