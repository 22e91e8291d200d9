/*
 * screen_help.c - the help page (h or ?): every key, and what the marks
 * on the screen mean.  The man page's KEYS section lists the same table.
 */
#include <stdio.h>
#include <string.h>

#include "core/figure.h"
#include "screen_help.h"
#include "screen_paint.h"

static const struct {
	const char *keys;
	const char *what;
} screen_help_keys[] = {
	{ "q", "quit; on another page: back to the main screen" },
	{ "space", "pause / resume sampling; on a replay: play / pause" },
	{ "d", "change the interval (seconds, fractions allowed)" },
	{ "h ?", "this help; any key leaves it" },
	{ "Up Down", "select a device; PgUp PgDn Home End (and j k g G) too" },
	{ "Enter", "the selected device's detail: history, identity, BDI limits" },
	{ "< > R", "sort by the previous / next column; R reverses the order" },
	{ NULL, NULL },	/* the sort keys, from the registry: screen_help_sort_keys */
	{ "f /", "filter devices by name or regex (empty: all devices)" },
	{ "a", "show / hide idle devices" },
	{ "!", "only the devices that dipped in the last minute / all again" },
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
} screen_help_marks[] = {
	{ "!", "a device whose write rate dipped this interval (red)" },
	{ "^", "under the graph: an interval in which writes dipped" },
	{ "*", "under the graph: a knob change; before a knob value: in force" },
	{ "!DIP", "top right: something dipped this interval" },
	{ "# = |", "gauge: Dirty, Writeback, background threshold; the end: the limit" },
	/* the process pane (p): what its figures mean */
	{ "write/s", "processes: what a task's own threads dirtied or wrote direct (not its reaped children)" },
	{ "share%", "processes: its part of all tasks' write/s in the interval (never above 100)" },
	{ "other", "processes: the tasks not shown; the rows add up to 'writing' (bo beside: written out)" },
	{ "dev", "processes: devices of its files open for writing, or held on (throttled); mmap: -" },
	{ "X (exited)", "processes: exited in the interval; what it wrote in it is counted" },
};

/* Append text to buf (len bytes in all), cut short if it does not fit. */
static void screen_help_append(char *buf, size_t len, const char *text)
{
	size_t at = strlen(buf);
	snprintf(buf + at, len - at, "%s", text);
}

/* The line of the sort keys: the figure the screen sorts by at start, then
 * name, then the other columns that have a key, in the screen's order. */
static void screen_help_sort_keys(char *keys, size_t klen, char *what, size_t wlen)
{
	const struct fig_dev *cols[64], *first = figure_dev_sort_first();
	size_t n = figure_dev_screen_cols(cols, sizeof cols / sizeof cols[0]);
	snprintf(keys, klen, "%c N", first->screen.key);
	snprintf(what, wlen, "sort by %s (the default), name", figure_dev_key_word(first));
	for (size_t c = 0; c < n; c++) {
		if (!cols[c]->screen.key || cols[c] == first)
			continue;
		char k[4] = { ' ', cols[c]->screen.key, '\0' };
		screen_help_append(keys, klen, k);
		screen_help_append(what, wlen, ", ");
		screen_help_append(what, wlen, figure_dev_key_word(cols[c]));
	}
}

/* The page as lines: a title, the keys, the marks. */
enum { SCR_HELP_TITLE, SCR_HELP_BLANK, SCR_HELP_KEY, SCR_HELP_MARKS, SCR_HELP_MARK };

static size_t screen_help_nkeys(void)
{
	return sizeof screen_help_keys / sizeof screen_help_keys[0];
}

static size_t screen_help_lines(void)
{
	return 2 + screen_help_nkeys() + 2 + sizeof screen_help_marks / sizeof screen_help_marks[0];
}

static void screen_help_line(struct screen *s, int y, size_t i)
{
	struct scr_line ln = { y, 0, COLS };
	size_t nk = screen_help_nkeys();
	if (i == 0) {
		screen_paint_add(s, &ln, SCR_TITLE, "wbtop - a top-like monitor for Linux writeback: keys");
	} else if (i >= 2 && i < 2 + nk) {
		char keys[32], what[160];
		const char *k = screen_help_keys[i - 2].keys, *w = screen_help_keys[i - 2].what;
		if (!k) {
			screen_help_sort_keys(keys, sizeof keys, what, sizeof what);
			k = keys;
			w = what;
		}
		screen_paint_addf(s, &ln, SCR_TITLE, "  %-14s", k);
		screen_paint_add(s, &ln, SCR_NORMAL, w);
	} else if (i == 3 + nk) {
		screen_paint_add(s, &ln, SCR_TITLE, "marks");
	} else if (i >= 4 + nk) {
		screen_paint_addf(s, &ln, SCR_DIP, "  %-14s", screen_help_marks[i - 4 - nk].mark);
		screen_paint_add(s, &ln, SCR_NORMAL, screen_help_marks[i - 4 - nk].what);
	}
}

void screen_help_draw(struct screen *s)
{
	int rows = LINES - 1;
	size_t n = screen_help_lines();
	if (s->help_top + (size_t)rows > n)
		s->help_top = n > (size_t)rows ? n - (size_t)rows : 0;
	for (int y = 0; y < rows && s->help_top + (size_t)y < n; y++)
		screen_help_line(s, y, s->help_top + (size_t)y);
}

bool screen_help_more(const struct screen *s)
{
	return s->help_top + (size_t)(LINES - 1) < screen_help_lines();
}

bool screen_help_key(struct screen *s, int ch)
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
