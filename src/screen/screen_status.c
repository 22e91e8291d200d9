/*
 * screen_status.c - the status line: the prompt being typed, else the
 * message showing, else the causes of this interval's dips and the key
 * hints, with the view's filter state at the right.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/cause.h"
#include "util/msgq.h"
#include "screen_clock.h"
#include "screen_help.h"
#include "screen_paint.h"
#include "screen_status.h"
#include "screen_title.h"

/* text at ln if it fits whole: true, else nothing and false. */
static bool screen_status_add_whole(struct screen *s, struct scr_line *ln, enum scr_role role, const char *text)
{
	if (ln->x + (int)strlen(text) > ln->xmax)
		return false;
	screen_paint_add(s, ln, role, text);
	return true;
}

/* One key hint; only if it fits whole. */
static void screen_status_hint(struct screen *s, struct scr_line *ln, const char *key, const char *what)
{
	if (ln->x + (int)(strlen(key) + strlen(what)) + 2 > ln->xmax)
		return;
	screen_paint_add(s, ln, SCR_TITLE, key);
	screen_paint_addf(s, ln, SCR_NORMAL, " %s ", what);
}

static const char *screen_status_prompt_title(enum scr_prompt p)
{
	switch (p) {
	case SCR_PROMPT_FILTER: return "filter devices (regex, empty: all): ";
	case SCR_PROMPT_DELAY: return "interval in seconds: ";
	case SCR_PROMPT_KNOB: return "new value (K/M/G for bytes, Esc: cancel): ";
	case SCR_PROMPT_TIME: return "go to (HH:MM:SS, +30s, -2m, start, end): ";
	case SCR_PROMPT_SAVE: return "save the history to: ";
	default: return "";
	}
}

/* A message wider than the terminal takes the row above too (broken at a
 * space): cut, "does not overwrite recor" says nothing. */
static void screen_status_message(struct screen *s, int y, const char *msg)
{
	int cols;
	screen_paint_clip(msg, INT32_MAX, &cols);
	const char *rest = msg;
	if (cols > COLS && y > 0) {
		size_t n = screen_paint_clip(msg, COLS, &cols), cut = n;
		while (cut > 0 && msg[cut] != ' ')
			cut--;
		n = cut > 0 ? cut : n;
		char first[MSGQ_TEXT];
		snprintf(first, sizeof first, "%.*s", (int)n, msg);
		move(y - 1, 0);
		clrtoeol();
		struct scr_line top = { y - 1, 0, COLS };
		screen_paint_add(s, &top, SCR_WARN, first);
		rest = msg + n;
		while (*rest == ' ')
			rest++;
	}
	struct scr_line ln = { y, 0, COLS };
	screen_paint_add(s, &ln, SCR_WARN, rest);
}

/* " -34%": how deep a mark is, "" where that is unknown. */
static const char *screen_status_depth(char *buf, size_t len, double depth)
{
	if (!isfinite(depth))
		return "";
	snprintf(buf, len, " -%.0f%%", depth);
	return buf;
}

/* The causes of this interval's marks, first on the status line: the system's, then each
 * marked device's ("dm-0 -34%: writers slowed"), as many as fit whole; the hints get the
 * rest. */
static void screen_status_dip_causes(struct screen *s, struct scr_line *ln)
{
	const struct frame *f = s->f;
	if (!f || !(f->sys_dip || f->interval_dip))
		return;
	char item[96], deep[16];
	bool any = false;
	if (f->sys_dip) {
		snprintf(item, sizeof item, "dip bo%s: %s", screen_status_depth(deep, sizeof deep, f->sys_depth),
			 cause_name(f->sys_cause));
		any = screen_status_add_whole(s, ln, SCR_DIP, item);
	}
	size_t left = 0;	/* marked devices not named yet */
	for (size_t i = 0; f->dev_dip && i < f->cur->ndev; i++)
		left += f->dev_dip[i];
	/* with devices left over, room is kept to say how many ("+N more", up to 7 digits) */
	enum { MORE_W = 18 };
	int xmax = ln->xmax;
	for (size_t i = 0; left && i < f->cur->ndev; i++) {
		if (!f->dev_dip[i])
			continue;
		snprintf(item, sizeof item, "%s%s%s: %s", any ? ", " : "dip ", f->cur->dev[i].name,
			 screen_status_depth(deep, sizeof deep, f->dev_depth ? f->dev_depth[i] : NAN),
			 cause_name(f->dev_cause ? f->dev_cause[i] : DIP_CAUSE_UNKNOWN));
		ln->xmax = left > 1 ? xmax - MORE_W : xmax;
		bool put = screen_status_add_whole(s, ln, SCR_DIP, item);
		ln->xmax = xmax;
		if (!put)
			break;
		any = true;
		left--;
	}
	if (left) {	/* at thousands of devices, many dip at once: how many the line leaves out */
		snprintf(item, sizeof item, "%s+%zu more", any ? ", " : "dip ", left);
		any = screen_status_add_whole(s, ln, SCR_DIP, item) || any;
	}
	if (any)
		screen_paint_add(s, ln, SCR_NORMAL, "  ");
}

void screen_status_draw(struct screen *s)
{
	int y = LINES - 1;
	struct scr_line ln = { y, 0, COLS };
	move(y, 0);
	clrtoeol();
	if (s->prompt != SCR_PROMPT_NONE) {
		screen_paint_add(s, &ln, SCR_TITLE, screen_status_prompt_title(s->prompt));
		screen_paint_add(s, &ln, SCR_NORMAL, s->input);
		screen_paint_add(s, &ln, SCR_SELECT, " ");	/* the cursor */
		return;
	}
	const char *msg = msgq_showing(s->msgq, screen_clock_now_ns());
	if (msg[0]) {
		screen_status_message(s, y, msg);
		return;
	}
	if (s->view == SCR_VIEW_HELP) {
		screen_paint_add(s, &ln, SCR_NORMAL, screen_help_more(s) ? "Down PgDn: more below   " : "");
		screen_paint_add(s, &ln, SCR_NORMAL, "any other key: back");
		return;
	}
	/* The view's state at the right; the hints fill what is left. */
	char state[192];
	snprintf(state, sizeof state, "%s%s%s%s", s->have_filter ? " filter: " : "", s->filter_text,
		 s->show_idle && !s->only_dips ? " +idle" : "", s->only_dips ? " !dipped" : "");
	int sc;
	screen_paint_clip(state, INT32_MAX, &sc);
	if (sc && sc < COLS / 2) {
		struct scr_line right = { y, COLS - sc - 1, COLS };
		screen_paint_add(s, &right, SCR_WARN, state);
		ln.xmax = COLS - sc - 2;
	}
	static const char *const hints[][2] = {
		{ "h", "help" }, { "q", "quit" }, { "space", "pause" }, { "d", "delay" },
		{ "f", "filter" }, { "Enter", "detail" }, { "e", "knobs" }, { "p", "procs" },
		{ "w", "save" }, { "a", "idle" }, { "<>", "sort" },
	};
	/* A replay's own keys first: they are what one came for. */
	static const char *const replay_hints[][2] = {
		{ "h", "help" }, { "q", "quit" }, { "space", "play" }, { ",.", "step" },
		{ "t", "go to" }, { "[]", "dip" }, { "{}", "knob" }, { "+-", "speed" },
		{ "Enter", "detail" }, { "p", "procs" },
	};
	screen_status_dip_causes(s, &ln);
	bool replay = screen_title_is_replay(s);
	size_t n = replay ? sizeof replay_hints / sizeof replay_hints[0] : sizeof hints / sizeof hints[0];
	for (size_t i = 0; i < n; i++)
		screen_status_hint(s, &ln, replay ? replay_hints[i][0] : hints[i][0],
				   replay ? replay_hints[i][1] : hints[i][1]);
}
