/*
 * screen.c - the top of the screen: the API the loop calls (screen.h) and
 * the layout that puts the panes on the terminal.  The panes (screen_top,
 * _devices, _graph, _procs, _detail, _knobs, _cgroups, _help, and
 * screen_title and screen_status for the first and last line) draw with
 * screen_paint.c; keys are read in screen_keys.c, the terminal is set up in
 * screen_term.c.  Nothing below calls up into this file (doc/screen.md).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/msgq.h"
#include "screen/screen.h"
#include "screen_cgroups.h"
#include "screen_clock.h"
#include "screen_detail.h"
#include "screen_devices.h"
#include "screen_graph.h"
#include "screen_help.h"
#include "screen_keys.h"
#include "screen_knobs.h"
#include "screen_paint.h"
#include "screen_procs.h"
#include "screen_say.h"
#include "screen_status.h"
#include "screen_term.h"
#include "screen_title.h"
#include "screen_top.h"

/* A status message stays up this long (and until the next key), whatever
 * the interval: long enough to read. */
#define SCR_MSG_NS 5000000000ull
/* How long the device table keeps rows for devices no longer shown. */
#define SCR_TABLE_HOLD_NS 10000000000ull

struct screen *screen_new(const struct screen_config *cfg, char *err, size_t errlen)
{
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		snprintf(err, errlen, "the monitor needs a terminal (use -b for batch output)");
		return NULL;
	}
	struct screen *s = calloc(1, sizeof *s);
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (!(s->msgq = msgq_new(SCR_MSG_NS))) {
		snprintf(err, errlen, "out of memory");
		free(s);
		return NULL;
	}
	screen_devices_cols_init(s);
	s->show_idle = cfg->all_devices;
	s->procs_open = cfg->procs;
	if (cfg->sort && !screen_devices_set_sort(s, cfg->sort)) {
		snprintf(err, errlen, "sort '%s': no such column", cfg->sort);
		msgq_free(s->msgq);
		free(s);
		return NULL;
	}
	if (cfg->devices_regex && !screen_devices_set_filter(s, cfg->devices_regex)) {
		snprintf(err, errlen, "--devices '%s': %s", cfg->devices_regex,
			 msgq_showing(s->msgq, screen_clock_now_ns()));
		msgq_free(s->msgq);
		free(s);
		return NULL;
	}
	if (!screen_term_open(s, err, errlen)) {
		screen_devices_free(s);
		msgq_free(s->msgq);
		free(s);
		return NULL;
	}
	screen_paint_init_colors(s, cfg->no_color);
	return s;
}

void screen_free(struct screen *s)
{
	if (!s)
		return;
	screen_term_close(s);
	screen_devices_free(s);
	screen_knobs_free(s);
	screen_procs_free(s);
	screen_cgroups_free(s);
	free(s->vals);
	free(s->dips);
	free(s->evs);
	msgq_free(s->msgq);
	free(s);
}

void screen_frame(struct screen *s, const struct frame *f, const struct history *h)
{
	s->f = f;
	s->h = h;
	screen_devices_update(s);
}

void screen_state(struct screen *s, const struct screen_state *st)
{
	s->st = *st;
}

void screen_message(struct screen *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	screen_say_v(s, false, fmt, ap);
	va_end(ap);
}

void screen_notice(struct screen *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	screen_say_v(s, true, fmt, ap);
	va_end(ap);
}

bool screen_key(struct screen *s, struct screen_req *req)
{
	return screen_keys_read(s, req);
}

void screen_get_view(const struct screen *s, struct screen_view *v)
{
	screen_devices_get_view(s, v);
}

void screen_set_knobs(struct screen *s, const struct screen_knobs *k)
{
	screen_knobs_set(s, k);
}

void screen_set_preview(struct screen *s, int rc, const char *text)
{
	screen_knobs_set_preview(s, rc, text);
}

bool screen_sort_known(const char *name)
{
	return screen_devices_sort_known(name);
}

/* ---- layout of the main view ---- */

/* The longest wording that fits: the sizes are the point, never cut off. */
static void screen_draw_too_small(void)
{
	static const char *const forms[] = {
		"wbtop needs %dx%d, this terminal is %dx%d", "needs %dx%d, is %dx%d", "%dx%d>%dx%d",
	};
	static const char *const hints[] = { "enlarge it, or press q to quit", "enlarge, or q", "q quits" };
	char line[96];
	for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
		int n = snprintf(line, sizeof line, forms[i], SCR_MIN_COLS, SCR_MIN_ROWS, COLS, LINES);
		if (n <= COLS)
			break;
	}
	int y = LINES / 2 > 0 ? LINES / 2 - 1 : 0;
	mvaddnstr(y, 0, line, COLS);
	for (size_t i = 0; LINES > 1 && i < sizeof hints / sizeof hints[0]; i++)
		if ((int)strlen(hints[i]) <= COLS || i + 1 == sizeof hints / sizeof hints[0]) {
			mvaddnstr(y + 1, 0, hints[i], COLS);
			break;
		}
}

static void screen_draw_sys_graph(struct screen *s, int y, int bars)
{
	int x = 8, w = COLS - x;
	char title[160], a[16], b[16];
	double secs = 0;
	size_t len = s->h ? history_len(s->h) : 0;
	if (len > (size_t)w)
		len = (size_t)w;
	if (len > 1) {
		const struct hist_sys *old = history_sys(s->h, len - 1), *now = history_sys(s->h, 0);
		secs = (double)(now->wall_ns - old->wall_ns) / 1e9;
	}
	snprintf(title, sizeof title, "system writes (bo), last %s, now %s/s   ^ dip   * knob change",
		 screen_calc_fmt_duration(secs, a, sizeof a),
		 screen_calc_fmt_kb(s->f && s->f->sys.status == RATE_OK ? s->f->sys.bo_kbps : NAN, b, sizeof b));
	screen_paint_rule(s, y, title);
	if (!s->h || !screen_graph_scratch(s, (size_t)w))
		return;
	history_series(s->h, NULL, HIST_SYS_BO_KBPS, s->vals, (size_t)w);
	history_marks(s->h, NULL, false, s->dips, s->evs, (size_t)w);
	screen_graph_draw(s, y + 1, x, bars, w, s->vals, s->dips, s->evs, true, "/s");
}

/* With the process pane open, the device table keeps the rows its
 * devices need, from 3 up to half the room; the pane takes the rest, in
 * place of the graph. */
static int screen_table_rows_beside_procs(const struct screen *s, int avail)
{
	int want = (int)s->norder + 1;
	int most = avail / 2;
	return want < 3 ? 3 : want > most ? (most < 3 ? 3 : most) : want;
}

/* The table's rows: what its devices need, held for a while when fewer
 * show (an idle device hidden for an interval must not make the graph
 * jump), back at once on a resize. */
static int screen_table_want(struct screen *s)
{
	int want = (int)s->norder + 1;
	if (LINES != s->table_lines || want >= s->table_want) {
		s->table_lines = LINES;
		s->table_want = want;
		s->table_since_ns = screen_clock_now_ns();
	} else if (screen_clock_now_ns() - s->table_since_ns > SCR_TABLE_HOLD_NS) {
		s->table_want = want;
		s->table_since_ns = screen_clock_now_ns();
	}
	return s->table_want;
}

static void screen_draw_main(struct screen *s)
{
	int avail = LINES - SCR_TOP_ROWS - 1;
	int bars;
	int table = screen_calc_split_rows(avail, screen_table_want(s), &bars);
	if (s->procs_open) {
		table = screen_table_rows_beside_procs(s, avail);
		screen_procs_update(s, avail - table - 3);	/* before the summary: it counts the throttled */
	}
	screen_title_draw(s);
	if (s->f) {
		screen_top_draw_summary(s, 1);
		screen_top_draw_gauge(s, 3);
		screen_top_draw_knob_rows(s, 5);
	}
	screen_devices_draw(s, SCR_TOP_ROWS, table);
	if (s->procs_open)
		screen_procs_draw(s, SCR_TOP_ROWS + table, avail - table);
	else
		screen_draw_sys_graph(s, SCR_TOP_ROWS + table, bars);
}

/* The frame is drawn whole after erase(): ncurses sends only what differs from what the
 * terminal shows (clear() would make it repaint everything). */
void screen_draw(struct screen *s)
{
	erase();
	if (COLS < SCR_MIN_COLS || LINES < SCR_MIN_ROWS) {
		screen_draw_too_small();
		refresh();
		return;
	}
	switch (s->view) {
	case SCR_VIEW_MAIN: screen_draw_main(s); break;
	case SCR_VIEW_HELP: screen_help_draw(s); break;
	case SCR_VIEW_DETAIL: screen_detail_draw(s); break;
	case SCR_VIEW_KNOBS: screen_knobs_draw(s); break;
	case SCR_VIEW_CGROUPS: screen_cgroups_draw(s); break;
	}
	screen_status_draw(s);
	refresh();
}
