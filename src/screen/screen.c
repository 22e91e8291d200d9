/*
 * screen.c - the screen's life cycle (terminal, locale, colours), the
 * drawing helpers, the top and status lines and the main layout.  The
 * sections of the main view are drawn by screen_top.c (summary, gauge,
 * knobs), screen_devices.c (the table) and screen_graph.c; the other pages
 * by screen_help.c, screen_detail.c and screen_knobs.c; keys are handled in
 * screen_keys.c, and the pure arithmetic is in screen_calc.c.
 *
 * Every frame is drawn whole onto stdscr after erase(); ncurses compares it
 * with what the terminal shows and sends only the difference (clear() would
 * make it repaint everything).
 */
#include <inttypes.h>
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <time.h>
#include <unistd.h>

#include "core/cause.h"
#include "util/grow.h"
#include "util/msgq.h"
#include "screen_data.h"

#include <term.h>	/* after curses.h; only for setupterm() below */

/* A status message stays up this long (and until the next key), whatever
 * the interval: long enough to read. */
#define SCR_MSG_NS 5000000000ull
/* How long the device table keeps rows for devices no longer shown. */
#define SCR_TABLE_HOLD_NS 10000000000ull

/* The terminal the atexit handler restores (one screen at a time). */
static SCREEN *scr_active;

static void scr_restore_at_exit(void)
{
	if (scr_active && !isendwin())
		endwin();
}

/* ---- colours and attributes: one row per role ---- */

static const struct {
	short fg, bg;		/* -1: the terminal's default */
	attr_t with_color;	/* added to the colour pair */
	attr_t mono;		/* used alone without colour */
} scr_role_table[SCR_NROLES] = {
	[SCR_NORMAL] = { -1, -1, A_NORMAL, A_NORMAL },
	[SCR_LABEL] = { COLOR_CYAN, -1, A_NORMAL, A_NORMAL },
	[SCR_TITLE] = { COLOR_CYAN, -1, A_BOLD, A_BOLD },
	[SCR_DIP] = { COLOR_RED, -1, A_BOLD, A_BOLD },
	[SCR_DIRTY] = { COLOR_YELLOW, -1, A_NORMAL, A_NORMAL },
	[SCR_WB] = { COLOR_MAGENTA, -1, A_NORMAL, A_NORMAL },
	[SCR_GRAPH] = { COLOR_GREEN, -1, A_NORMAL, A_NORMAL },
	[SCR_HEADER] = { COLOR_BLACK, COLOR_GREEN, A_NORMAL, A_REVERSE },
	[SCR_SELECT] = { COLOR_BLACK, COLOR_CYAN, A_NORMAL, A_REVERSE },
	[SCR_SELECT_DIP] = { COLOR_WHITE, COLOR_RED, A_BOLD, A_REVERSE | A_BOLD },
	[SCR_WARN] = { COLOR_YELLOW, -1, A_BOLD, A_BOLD },
	[SCR_EVENT] = { COLOR_BLUE, -1, A_BOLD, A_BOLD },
	[SCR_DIM] = { -1, -1, A_DIM, A_NORMAL },
};

static void scr_init_colors(struct screen *s, bool no_color)
{
	s->color = !no_color && has_colors() && start_color() == OK;
	bool default_bg = s->color && use_default_colors() == OK;
	for (int r = 0; r < SCR_NROLES; r++) {
		if (!s->color) {
			s->role_attr[r] = scr_role_table[r].mono;
			continue;
		}
		short fg = scr_role_table[r].fg, bg = scr_role_table[r].bg;
		if (!default_bg) {
			fg = fg < 0 ? COLOR_WHITE : fg;
			bg = bg < 0 ? COLOR_BLACK : bg;
		}
		if (r == SCR_NORMAL || r == SCR_DIM || init_pair((short)r, fg, bg) != OK) {
			s->role_attr[r] = scr_role_table[r].with_color | scr_role_table[r].mono;
			continue;
		}
		s->role_attr[r] = COLOR_PAIR(r) | scr_role_table[r].with_color;
	}
}

attr_t scr_attr(const struct screen *s, enum scr_role role)
{
	return s->role_attr[role];
}

/* ---- life cycle ---- */

/* Home and End arrive as different sequences from different terminals and
 * multiplexers (tmux sends ESC[1~ whatever TERM says): accept them all,
 * whatever terminfo lists. */
static void scr_define_keys(void)
{
	static const struct { const char *seq; int key; } keys[] = {
		{ "\033[1~", KEY_HOME }, { "\033[7~", KEY_HOME }, { "\033[H", KEY_HOME }, { "\033OH", KEY_HOME },
		{ "\033[4~", KEY_END }, { "\033[8~", KEY_END }, { "\033[F", KEY_END }, { "\033OF", KEY_END },
	};
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		define_key(keys[i].seq, keys[i].key);
}

static bool scr_locale_utf8(void)
{
	setlocale(LC_ALL, "");
	setlocale(LC_NUMERIC, "C");	/* "1.5", and the delay prompt parses the same way */
	const char *cs = nl_langinfo(CODESET);
	return cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
}

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
	scr_cols_init(s);
	s->show_idle = cfg->all_devices;
	s->procs_open = cfg->procs;
	if (cfg->sort && !scr_set_sort(s, cfg->sort)) {
		snprintf(err, errlen, "sort '%s': no such column", cfg->sort);
		msgq_free(s->msgq);
		free(s);
		return NULL;
	}
	if (cfg->devices_regex && !scr_set_filter(s, cfg->devices_regex)) {
		snprintf(err, errlen, "--devices '%s': %s", cfg->devices_regex,
			 msgq_showing(s->msgq, scr_now_ns()));
		msgq_free(s->msgq);
		free(s);
		return NULL;
	}
	s->utf8 = scr_locale_utf8();
	const char *term = getenv("TERM");
	/* Ask terminfo first: newterm on an unknown TERM fails too, but leaks. */
	int terr = 0;
	bool known = setupterm(NULL, STDOUT_FILENO, &terr) == OK;
	if (known)
		del_curterm(cur_term);
	s->term = known ? newterm(NULL, stdout, stdin) : NULL;
	if (!s->term) {
		snprintf(err, errlen, "cannot use terminal type '%s'%s", term ? term : "(unset)",
			 terr < 0 ? ": no terminfo database" : "");
		scr_devs_free(s);
		msgq_free(s->msgq);
		free(s);
		return NULL;
	}
	scr_active = s->term;
	static bool registered;
	if (!registered && atexit(scr_restore_at_exit) == 0)
		registered = true;
	cbreak();	/* not raw: Ctrl-C stays a signal, which the loop turns into a clean exit */
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(25);
	scr_define_keys();
	curs_set(0);
	scr_init_colors(s, cfg->no_color);
	return s;
}

void screen_free(struct screen *s)
{
	if (!s)
		return;
	if (s->term) {
		if (!isendwin())
			endwin();
		delscreen(s->term);
		scr_active = NULL;
	}
	scr_devs_free(s);
	scr_knobs_free(s);
	scr_procs_free(s);
	scr_cgroups_free(s);
	free(s->vals);
	free(s->dips);
	free(s->evs);
	msgq_free(s->msgq);
	free(s);
}

uint64_t scr_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void screen_frame(struct screen *s, const struct frame *f, const struct history *h)
{
	s->f = f;
	s->h = h;
	scr_devs_update(s);
}

void screen_state(struct screen *s, const struct screen_state *st)
{
	s->st = *st;
}

/* An answer or a notice (msgq.h), formatted. */
static void scr_say(struct screen *s, bool notice, const char *fmt, va_list ap)
{
	char text[MSGQ_TEXT];
	vsnprintf(text, sizeof text, fmt, ap);
	if (notice)
		msgq_notice(s->msgq, scr_now_ns(), text);
	else
		msgq_answer(s->msgq, scr_now_ns(), text);
}

void screen_message(struct screen *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	scr_say(s, false, fmt, ap);
	va_end(ap);
}

void screen_notice(struct screen *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	scr_say(s, true, fmt, ap);
	va_end(ap);
}

bool scr_scratch(struct screen *s, size_t n)
{
	const struct grow_part parts[] = {
		{ (void **)&s->vals, sizeof *s->vals }, { (void **)&s->dips, sizeof *s->dips },
		{ (void **)&s->evs, sizeof *s->evs },
	};
	return grow_arrays(parts, sizeof parts / sizeof parts[0], &s->cap_vals, n, n) == 0;
}

/* ---- drawing helpers ---- */

/* Bytes of text that fill at most max columns; *cols gets the columns.
 * Every glyph the screen draws is one column wide (names are sanitized to
 * ASCII), so a column is a UTF-8 sequence. */
static size_t scr_clip(const char *text, int max, int *cols)
{
	size_t i = 0;
	int n = 0;
	while (text[i] && n < max) {
		i++;
		while ((text[i] & 0xC0) == 0x80)
			i++;	/* continuation bytes */
		n++;
	}
	*cols = n;
	return i;
}

/* One glyph of one column at y, x: an ASCII byte as a cell; any other as a wide cell made
 * once per glyph and attribute (the graph, the sparklines, the gauge and the rules draw
 * thousands of them a frame, and decoding each from UTF-8 costs more than the rest). */
void scr_put_glyph(struct screen *s, int y, int x, const char *g, attr_t a)
{
	unsigned char c = (unsigned char)g[0];
	if (c < 0x80) {
		mvaddch(y, x, c | a);
		return;
	}
	const cchar_t *cc = scr_glyph(s, g, a);
	if (cc)
		mvadd_wch(y, x, cc);
	else
		mvaddstr(y, x, g);
}

/* The wide cell of glyph g in attribute a, from the screen's small cache; NULL when the
 * glyph does not decode or the cache is full (the caller draws it the slow way). */
const cchar_t *scr_glyph(struct screen *s, const char *g, attr_t a)
{
	for (size_t i = 0; i < s->nglyph; i++)
		if (s->glyph[i].g == g && s->glyph[i].a == a)
			return &s->glyph[i].cc;
	if (s->nglyph == SCR_NGLYPH)
		return NULL;
	wchar_t w[2] = { 0, 0 };
	mbstate_t st;
	memset(&st, 0, sizeof st);
	if (mbrtowc(&w[0], g, strlen(g), &st) == (size_t)-1 || w[0] == 0)
		return NULL;
	struct scr_glyph_cell *e = &s->glyph[s->nglyph];
	if (setcchar(&e->cc, w, a & ~A_COLOR, (short)PAIR_NUMBER(a), NULL) != OK)
		return NULL;
	e->g = g;
	e->a = a;
	s->nglyph++;
	return &e->cc;
}

int scr_add(struct screen *s, struct scr_line *ln, enum scr_role role, const char *text)
{
	int room = ln->xmax - ln->x;
	if (room <= 0)
		return 0;
	int cols;
	size_t bytes = scr_clip(text, room, &cols);
	attr_t a = scr_attr(s, role);
	/* Plain ASCII (almost all of a frame) goes in as cells: a wide-character curses
	 * would otherwise decode every byte as a multibyte sequence, the largest part
	 * of drawing a frame. */
	if (cols == 1 && bytes > 1 && !text[bytes]) {	/* one glyph: the gauge's cells */
		scr_put_glyph(s, ln->y, ln->x, text, a);
		ln->x++;
		return 1;
	}
	chtype cells[256];
	bool ascii = bytes <= sizeof cells / sizeof cells[0];
	for (size_t i = 0; ascii && i < bytes; i++) {
		unsigned char c = (unsigned char)text[i];
		ascii = c >= 0x20 && c < 0x7f;
		cells[i] = c | a;
	}
	if (ascii) {
		mvaddchnstr(ln->y, ln->x, cells, (int)bytes);
	} else {
		attron(a);
		mvaddnstr(ln->y, ln->x, text, (int)bytes);
		attroff(a);
	}
	ln->x += cols;
	return cols;
}

int scr_add_pad(struct screen *s, struct scr_line *ln, enum scr_role role, const char *text,
		int width, bool left)
{
	char buf[512];
	screen_calc_pad_into(buf, sizeof buf, 0, text, width, left);
	return scr_add(s, ln, role, buf);
}

int scr_addf(struct screen *s, struct scr_line *ln, enum scr_role role, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return scr_add(s, ln, role, buf);
}

bool scr_field(struct screen *s, struct scr_line *ln, const char *label, enum scr_role vrole,
	       const char *value)
{
	int lc, vc;
	scr_clip(label, INT32_MAX, &lc);
	scr_clip(value, INT32_MAX, &vc);
	int need = lc + vc + 2;
	if (ln->x + need > ln->xmax)
		return false;
	scr_add(s, ln, SCR_NORMAL, " ");
	scr_add(s, ln, SCR_LABEL, label);
	scr_add(s, ln, SCR_NORMAL, " ");
	scr_add(s, ln, vrole, value);
	return true;
}

int scr_wrap(struct screen *s, int y, int x, enum scr_role role, const char *text, int max_rows)
{
	int width = COLS - x - 1;
	for (int row = 0; *text && row < max_rows && y < LINES - 1 && width > 10; row++, y++) {
		int cols;
		size_t n = scr_clip(text, width, &cols);
		if (text[n]) {	/* break at the last space that fits */
			size_t cut = n;
			while (cut > 0 && text[cut] != ' ')
				cut--;
			if (cut > 0)
				n = cut;
		}
		char line[512];
		snprintf(line, sizeof line, "%.*s", (int)n, text);
		struct scr_line ln = { y, x, COLS };
		scr_add(s, &ln, role, line);
		text += n;
		while (*text == ' ')
			text++;
	}
	return y;
}

/* ch is one cell's glyph (UTF-8 allowed). */
void scr_fill(struct screen *s, struct scr_line *ln, enum scr_role role, const char *ch, int n)
{
	attr_t a = scr_attr(s, role);
	int cells = n < ln->xmax - ln->x ? n : ln->xmax - ln->x;
	if (cells <= 0)
		return;
	const cchar_t *cc = (unsigned char)ch[0] >= 0x80 ? scr_glyph(s, ch, a) : NULL;
	if ((unsigned char)ch[0] < 0x80 && ch[0] && !ch[1]) {
		mvhline(ln->y, ln->x, (chtype)(unsigned char)ch[0] | a, cells);
	} else if (cc) {
		mvhline_set(ln->y, ln->x, cc, cells);
	} else {
		attron(a);
		move(ln->y, ln->x);
		for (int i = 0; i < cells; i++)
			addstr(ch);
		attroff(a);
	}
	ln->x += cells;
}

void scr_draw_rule(struct screen *s, int y, const char *title)
{
	const char *h = s->utf8 ? "\u2500" : "-";
	struct scr_line ln = { y, 0, COLS };
	scr_fill(s, &ln, SCR_DIM, h, 2);
	scr_addf(s, &ln, SCR_TITLE, " %s ", title);
	scr_fill(s, &ln, SCR_DIM, h, COLS);
}

/* ---- the top line and the status line ---- */

/* A replay's date; below 100 columns without the year, so that the
 * position, speed, interval and file name still fit beside it. */
static void scr_fmt_time(int64_t wall_ns, bool date, char *buf, size_t len)
{
	time_t t = (time_t)(wall_ns / 1000000000);
	struct tm tm;
	localtime_r(&t, &tm);
	strftime(buf, len, !date ? "%H:%M:%S" : COLS < 100 ? "%m-%d %H:%M:%S" : "%Y-%m-%d %H:%M:%S", &tm);
}

bool scr_is_replay(const struct screen *s)
{
	return s->st.source_kind && strcmp(s->st.source_kind, "live") != 0;
}

/* A replay's place: "sample 12/40  speed 2x  interval 0.5s  replay FILE"
 * (the recorded interval of the sample shown); the file's base name when
 * its path does not fit, nothing when that does not either. */
static void scr_draw_replay_pos(struct screen *s, struct scr_line *ln)
{
	char buf[64];
	snprintf(buf, sizeof buf, "%" PRId64 "/%" PRId64, s->st.replay_index + 1, s->st.replay_count);
	scr_field(s, ln, " sample", SCR_NORMAL, buf);
	scr_field(s, ln, " speed", SCR_NORMAL, screen_calc_fmt_speed(s->st.replay_speed, buf, sizeof buf));
	/* the interval before the file: the file is known, it was given */
	if (s->f && s->f->sys.status == RATE_OK) {
		snprintf(buf, sizeof buf, "%.3gs", s->f->sys.dt_s);
		scr_field(s, ln, " interval", SCR_NORMAL, buf);
	}
	const char *path = s->st.source_label ? s->st.source_label : "";
	const char *base = strrchr(path, '/');
	if (!scr_field(s, ln, " replay", SCR_NORMAL, path) && base)
		scr_field(s, ln, " replay", SCR_NORMAL, base + 1);
}

void scr_draw_top_line(struct screen *s)
{
	/* Flags at the right: they must show even when the line is full, so
	 * the fields at the left get what they leave, whole or not at all. */
	bool dip = s->f && (s->f->sys_dip || s->f->interval_dip);
	char revert[48] = "";
	if (s->st.revert_in_s >= 0)
		snprintf(revert, sizeof revert, " c confirms, else revert in %.0fs ", s->st.revert_in_s);
	/* Following a recording that stopped growing: its writer may be gone (killed, or a copy
	 * of an unfinished file). Say how long it has been, once that is well past an interval. */
	char wait[48] = "";
	if (s->st.replay_waiting) {
		double interval = s->f && s->f->sys.dt_s > 0 ? s->f->sys.dt_s : 1.0;
		if (s->st.replay_idle_s >= 10.0 && s->st.replay_idle_s >= 3 * interval) {
			char idle[16];
			snprintf(wait, sizeof wait, " FOLLOWING, nothing new for %s ",
				 screen_calc_fmt_duration(s->st.replay_idle_s, idle, sizeof idle));
		} else {
			snprintf(wait, sizeof wait, " FOLLOWING ");
		}
	}
	int flags = (int)strlen(revert) + (int)strlen(wait) + (s->st.recording ? 5 : 0) +
		    (s->st.paused ? 8 : 0) + (dip ? 6 : 0);

	struct scr_line ln = { 0, 0, COLS - flags };
	char buf[64];
	bool replay = scr_is_replay(s);
	scr_add(s, &ln, SCR_TITLE, "wbtop");
	if (s->f) {
		scr_fmt_time(s->f->cur->wall_ns, replay, buf, sizeof buf);
		scr_addf(s, &ln, SCR_NORMAL, " %s", buf);
	}
	if (s->st.uptime_s >= 0)
		scr_field(s, &ln, " up", SCR_NORMAL, screen_calc_fmt_uptime(s->st.uptime_s, buf, sizeof buf));
	if (replay) {
		scr_draw_replay_pos(s, &ln);
	} else {
		snprintf(buf, sizeof buf, "%gs", s->st.delay_s);
		scr_field(s, &ln, " interval", SCR_NORMAL, buf);
	}
	struct scr_line right = { 0, COLS - flags, COLS };
	scr_add(s, &right, SCR_WARN, revert);
	scr_add(s, &right, SCR_EVENT, wait);
	if (s->st.recording)
		scr_add(s, &right, SCR_EVENT, " REC ");
	if (s->st.paused)
		scr_add(s, &right, SCR_WARN, " PAUSED ");
	if (dip)
		scr_add(s, &right, SCR_DIP, " !DIP ");
}

/* text at ln if it fits whole: true, else nothing and false. */
static bool scr_add_whole(struct screen *s, struct scr_line *ln, enum scr_role role, const char *text)
{
	if (ln->x + (int)strlen(text) > ln->xmax)
		return false;
	scr_add(s, ln, role, text);
	return true;
}

/* One key hint; only if it fits whole. */
static void scr_hint(struct screen *s, struct scr_line *ln, const char *key, const char *what)
{
	if (ln->x + (int)(strlen(key) + strlen(what)) + 2 > ln->xmax)
		return;
	scr_add(s, ln, SCR_TITLE, key);
	scr_addf(s, ln, SCR_NORMAL, " %s ", what);
}

static const char *scr_prompt_title(enum scr_prompt p)
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
static void scr_draw_message(struct screen *s, int y, const char *msg)
{
	int cols;
	scr_clip(msg, INT32_MAX, &cols);
	const char *rest = msg;
	if (cols > COLS && y > 0) {
		size_t n = scr_clip(msg, COLS, &cols), cut = n;
		while (cut > 0 && msg[cut] != ' ')
			cut--;
		n = cut > 0 ? cut : n;
		char first[MSGQ_TEXT];
		snprintf(first, sizeof first, "%.*s", (int)n, msg);
		move(y - 1, 0);
		clrtoeol();
		struct scr_line top = { y - 1, 0, COLS };
		scr_add(s, &top, SCR_WARN, first);
		rest = msg + n;
		while (*rest == ' ')
			rest++;
	}
	struct scr_line ln = { y, 0, COLS };
	scr_add(s, &ln, SCR_WARN, rest);
}

/* The causes of this interval's marks, first on the status line: the system's, then each
 * marked device's, as many as fit whole; the hints get the rest. */
static void scr_draw_dip_causes(struct screen *s, struct scr_line *ln)
{
	const struct frame *f = s->f;
	if (!f || !(f->sys_dip || f->interval_dip))
		return;
	char item[96];
	bool any = false;
	if (f->sys_dip) {
		snprintf(item, sizeof item, "dip bo: %s", dip_cause_name(f->sys_cause));
		any = scr_add_whole(s, ln, SCR_DIP, item);
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
		snprintf(item, sizeof item, "%s%s: %s", any ? ", " : "dip ", f->cur->dev[i].name,
			 dip_cause_name(f->dev_cause ? f->dev_cause[i] : DIP_CAUSE_UNKNOWN));
		ln->xmax = left > 1 ? xmax - MORE_W : xmax;
		bool put = scr_add_whole(s, ln, SCR_DIP, item);
		ln->xmax = xmax;
		if (!put)
			break;
		any = true;
		left--;
	}
	if (left) {	/* at thousands of devices, many dip at once: how many the line leaves out */
		snprintf(item, sizeof item, "%s+%zu more", any ? ", " : "dip ", left);
		any = scr_add_whole(s, ln, SCR_DIP, item) || any;
	}
	if (any)
		scr_add(s, ln, SCR_NORMAL, "  ");
}

void scr_draw_status(struct screen *s)
{
	int y = LINES - 1;
	struct scr_line ln = { y, 0, COLS };
	move(y, 0);
	clrtoeol();
	if (s->prompt != SCR_PROMPT_NONE) {
		scr_add(s, &ln, SCR_TITLE, scr_prompt_title(s->prompt));
		scr_add(s, &ln, SCR_NORMAL, s->input);
		scr_add(s, &ln, SCR_SELECT, " ");	/* the cursor */
		return;
	}
	const char *msg = msgq_showing(s->msgq, scr_now_ns());
	if (msg[0]) {
		scr_draw_message(s, y, msg);
		return;
	}
	if (s->view == SCR_VIEW_HELP) {
		scr_add(s, &ln, SCR_NORMAL, scr_help_more(s) ? "Down PgDn: more below   " : "");
		scr_add(s, &ln, SCR_NORMAL, "any other key: back");
		return;
	}
	/* The view's state at the right; the hints fill what is left. */
	char state[192];
	snprintf(state, sizeof state, "%s%s%s%s", s->have_filter ? " filter: " : "", s->filter_text,
		 s->show_idle && !s->only_dips ? " +idle" : "", s->only_dips ? " !dipped" : "");
	int sc;
	scr_clip(state, INT32_MAX, &sc);
	if (sc && sc < COLS / 2) {
		struct scr_line right = { y, COLS - sc - 1, COLS };
		scr_add(s, &right, SCR_WARN, state);
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
	scr_draw_dip_causes(s, &ln);
	bool replay = scr_is_replay(s);
	size_t n = replay ? sizeof replay_hints / sizeof replay_hints[0] : sizeof hints / sizeof hints[0];
	for (size_t i = 0; i < n; i++)
		scr_hint(s, &ln, replay ? replay_hints[i][0] : hints[i][0], replay ? replay_hints[i][1] : hints[i][1]);
}

/* ---- layout of the main view ---- */

/* The longest wording that fits: the sizes are the point, never cut off. */
static void scr_draw_too_small(void)
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

static void scr_draw_sys_graph(struct screen *s, int y, int bars)
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
	scr_draw_rule(s, y, title);
	if (!s->h || !scr_scratch(s, (size_t)w))
		return;
	history_series(s->h, NULL, HIST_SYS_BO_KBPS, s->vals, (size_t)w);
	history_marks(s->h, NULL, false, s->dips, s->evs, (size_t)w);
	scr_draw_graph(s, y + 1, x, bars, w, s->vals, s->dips, s->evs, true, "/s");
}

/* With the process pane open, the device table keeps the rows its
 * devices need, from 3 up to half the room; the pane takes the rest, in
 * place of the graph. */
static int scr_procs_table_rows(const struct screen *s, int avail)
{
	int want = (int)s->norder + 1;
	int most = avail / 2;
	return want < 3 ? 3 : want > most ? (most < 3 ? 3 : most) : want;
}

/* The table's rows: what its devices need, held for a while when fewer
 * show (an idle device hidden for an interval must not make the graph
 * jump), back at once on a resize. */
static int scr_table_want(struct screen *s)
{
	int want = (int)s->norder + 1;
	if (LINES != s->table_lines || want >= s->table_want) {
		s->table_lines = LINES;
		s->table_want = want;
		s->table_since_ns = scr_now_ns();
	} else if (scr_now_ns() - s->table_since_ns > SCR_TABLE_HOLD_NS) {
		s->table_want = want;
		s->table_since_ns = scr_now_ns();
	}
	return s->table_want;
}

static void scr_draw_main(struct screen *s)
{
	int avail = LINES - SCR_TOP_ROWS - 1;
	int bars;
	int table = screen_calc_split_rows(avail, scr_table_want(s), &bars);
	if (s->procs_open) {
		table = scr_procs_table_rows(s, avail);
		scr_procs_update(s, avail - table - 3);	/* before the summary: it counts the throttled */
	}
	scr_draw_top_line(s);
	if (s->f) {
		scr_draw_summary(s, 1);
		scr_draw_gauge(s, 3);
		scr_draw_knob_rows(s, 5);
	}
	scr_draw_devices(s, SCR_TOP_ROWS, table);
	if (s->procs_open)
		scr_draw_procs(s, SCR_TOP_ROWS + table, avail - table);
	else
		scr_draw_sys_graph(s, SCR_TOP_ROWS + table, bars);
}

void screen_draw(struct screen *s)
{
	erase();
	if (COLS < SCR_MIN_COLS || LINES < SCR_MIN_ROWS) {
		scr_draw_too_small();
		refresh();
		return;
	}
	switch (s->view) {
	case SCR_VIEW_MAIN: scr_draw_main(s); break;
	case SCR_VIEW_HELP: scr_draw_help(s); break;
	case SCR_VIEW_DETAIL: scr_draw_detail(s); break;
	case SCR_VIEW_KNOBS: scr_draw_knobs(s); break;
	case SCR_VIEW_CGROUPS: scr_draw_cgroups(s); break;
	}
	scr_draw_status(s);
	refresh();
}
