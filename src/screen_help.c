/*
 * screen_help.c - the help page (h or ?): every key, and what the marks
 * on the screen mean.  The man page's KEYS section lists the same table.
 */
#include <stdio.h>

#include "screen_priv.h"

static const struct {
	const char *keys;
	const char *what;
} scr_help_keys[] = {
	{ "q", "quit; on another page: back to the main screen" },
	{ "space", "pause / resume sampling; on a replay: play / pause" },
	{ "d", "change the interval (seconds, fractions allowed)" },
	{ "h ?", "this help; any key leaves it" },
	{ "Up Down", "select a device; PgUp PgDn Home End (and j k g G) too" },
	{ "Enter", "the selected device's detail: history, identity, BDI limits" },
	{ "< > R", "sort by the previous / next column; R reverses the order" },
	{ "M N T P", "sort by write MB/s (the default), name, await, util" },
	{ "f /", "filter devices by name or regex (empty: all devices)" },
	{ "a", "show / hide idle devices" },
	{ "e", "edit knobs (in a device's detail: its BDI limits)" },
	{ "u U", "undo the last knob change / revert all knob changes" },
	{ "c", "confirm knob changes: stops the --revert-after countdown" },
	{ "W", "save interval, sort, filter, idle setting and panes for the next start" },
	{ "p", "process pane: writers, throttled tasks, flush workers, kswapd" },
	{ "C", "memory cgroups: which is dirtying, which is throttled (a: idle ones too)" },
	{ "w", "save the samples in memory (up to an hour) to a recording" },
	{ "Ctrl-L", "repaint the whole screen" },
	{ "", "replaying a recording (wbtop -r FILE):" },
	{ ",. Left Right", "step one sample back / forward (and pause)" },
	{ "t", "go to a time: HH:MM:SS, a date and time, +30s, -2m, start, end" },
	{ "[ ]", "previous / next dip" },
	{ "{ }", "previous / next knob change" },
	{ "+ -", "play twice as fast / half as fast" },
};

static const struct {
	const char *mark;
	const char *what;
} scr_help_marks[] = {
	{ "!", "a device whose write rate dipped this interval (red)" },
	{ "^", "under the graph: an interval in which writes dipped" },
	{ "*", "under the graph: a knob change; before a knob value: in force" },
	{ "!DIP", "top right: something dipped this interval" },
	{ "# = |", "gauge: Dirty, Writeback, background threshold; the end: the limit" },
};

/* The page as lines: a title, the keys, the marks. */
enum { SCR_HELP_TITLE, SCR_HELP_BLANK, SCR_HELP_KEY, SCR_HELP_MARKS, SCR_HELP_MARK };

static size_t scr_help_nkeys(void)
{
	return sizeof scr_help_keys / sizeof scr_help_keys[0];
}

static size_t scr_help_lines(void)
{
	return 2 + scr_help_nkeys() + 2 + sizeof scr_help_marks / sizeof scr_help_marks[0];
}

static void scr_help_line(struct screen *s, int y, size_t i)
{
	struct scr_line ln = { y, 0, COLS };
	size_t nk = scr_help_nkeys();
	if (i == 0) {
		scr_add(s, &ln, SCR_TITLE, "wbtop - a top-like monitor for Linux writeback: keys");
	} else if (i >= 2 && i < 2 + nk) {
		scr_addf(s, &ln, SCR_TITLE, "  %-14s", scr_help_keys[i - 2].keys);
		scr_add(s, &ln, SCR_NORMAL, scr_help_keys[i - 2].what);
	} else if (i == 3 + nk) {
		scr_add(s, &ln, SCR_TITLE, "marks");
	} else if (i >= 4 + nk) {
		scr_addf(s, &ln, SCR_DIP, "  %-14s", scr_help_marks[i - 4 - nk].mark);
		scr_add(s, &ln, SCR_NORMAL, scr_help_marks[i - 4 - nk].what);
	}
}

void scr_draw_help(struct screen *s)
{
	int rows = LINES - 1;
	size_t n = scr_help_lines();
	if (s->help_top + (size_t)rows > n)
		s->help_top = n > (size_t)rows ? n - (size_t)rows : 0;
	for (int y = 0; y < rows && s->help_top + (size_t)y < n; y++)
		scr_help_line(s, y, s->help_top + (size_t)y);
}

bool scr_help_more(const struct screen *s)
{
	return s->help_top + (size_t)(LINES - 1) < scr_help_lines();
}

bool scr_help_key(struct screen *s, int ch)
{
	switch (ch) {
	case KEY_DOWN: case 'j': s->help_top++; return true;
	case KEY_NPAGE: s->help_top += (size_t)(LINES > 2 ? LINES - 2 : 1); return true;
	case KEY_UP: case 'k': if (s->help_top) s->help_top--; return true;
	case KEY_PPAGE: s->help_top = 0; return true;
	case KEY_RESIZE: return true;
	}
	s->help_top = 0;
	return false;	/* any other key leaves the page */
}
