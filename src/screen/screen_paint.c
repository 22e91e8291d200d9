/*
 * screen_paint.c - the bottom of the screen: the roles' colours and the
 * helpers every pane draws with (text clipped along a row, fields, fills,
 * wrapped text, glyphs, rules).  Draws where it is told; knows no pane.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "screen/screen_calc.h"
#include "screen_paint.h"

/* ---- colours and attributes: one row per role ---- */

static const struct {
	short fg, bg;		/* -1: the terminal's default */
	attr_t with_color;	/* added to the colour pair */
	attr_t mono;		/* used alone without colour */
} screen_paint_roles[SCR_NROLES] = {
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

void screen_paint_init_colors(struct screen *s, bool no_color)
{
	s->color = !no_color && has_colors() && start_color() == OK;
	bool default_bg = s->color && use_default_colors() == OK;
	for (int r = 0; r < SCR_NROLES; r++) {
		if (!s->color) {
			s->role_attr[r] = screen_paint_roles[r].mono;
			continue;
		}
		short fg = screen_paint_roles[r].fg, bg = screen_paint_roles[r].bg;
		if (!default_bg) {
			fg = fg < 0 ? COLOR_WHITE : fg;
			bg = bg < 0 ? COLOR_BLACK : bg;
		}
		if (r == SCR_NORMAL || r == SCR_DIM || init_pair((short)r, fg, bg) != OK) {
			s->role_attr[r] = screen_paint_roles[r].with_color | screen_paint_roles[r].mono;
			continue;
		}
		s->role_attr[r] = COLOR_PAIR(r) | screen_paint_roles[r].with_color;
	}
}

attr_t screen_paint_attr(const struct screen *s, enum scr_role role)
{
	return s->role_attr[role];
}

/* Bytes of text that fill at most max columns; *cols gets the columns.
 * Every glyph the screen draws is one column wide (names are sanitized to
 * ASCII), so a column is a UTF-8 sequence. */
size_t screen_paint_clip(const char *text, int max, int *cols)
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
void screen_paint_put_glyph(struct screen *s, int y, int x, const char *g, attr_t a)
{
	unsigned char c = (unsigned char)g[0];
	if (c < 0x80) {
		mvaddch(y, x, c | a);
		return;
	}
	const cchar_t *cc = screen_paint_glyph(s, g, a);
	if (cc)
		mvadd_wch(y, x, cc);
	else
		mvaddstr(y, x, g);
}

/* The wide cell of glyph g in attribute a, from the screen's small cache; NULL when the
 * glyph does not decode or the cache is full (the caller draws it the slow way). */
const cchar_t *screen_paint_glyph(struct screen *s, const char *g, attr_t a)
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

int screen_paint_add(struct screen *s, struct scr_line *ln, enum scr_role role, const char *text)
{
	int room = ln->xmax - ln->x;
	if (room <= 0)
		return 0;
	int cols;
	size_t bytes = screen_paint_clip(text, room, &cols);
	attr_t a = screen_paint_attr(s, role);
	/* Plain ASCII (almost all of a frame) goes in as cells: a wide-character curses
	 * would otherwise decode every byte as a multibyte sequence, the largest part
	 * of drawing a frame. */
	if (cols == 1 && bytes > 1 && !text[bytes]) {	/* one glyph: the gauge's cells */
		screen_paint_put_glyph(s, ln->y, ln->x, text, a);
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

int screen_paint_add_pad(struct screen *s, struct scr_line *ln, enum scr_role role, const char *text,
		int width, bool left)
{
	char buf[512];
	screen_calc_pad_into(buf, sizeof buf, 0, text, width, left);
	return screen_paint_add(s, ln, role, buf);
}

int screen_paint_addf(struct screen *s, struct scr_line *ln, enum scr_role role, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return screen_paint_add(s, ln, role, buf);
}

bool screen_paint_field(struct screen *s, struct scr_line *ln, const char *label, enum scr_role vrole,
	       const char *value)
{
	int lc, vc;
	screen_paint_clip(label, INT32_MAX, &lc);
	screen_paint_clip(value, INT32_MAX, &vc);
	int need = lc + vc + 2;
	if (ln->x + need > ln->xmax)
		return false;
	screen_paint_add(s, ln, SCR_NORMAL, " ");
	screen_paint_add(s, ln, SCR_LABEL, label);
	screen_paint_add(s, ln, SCR_NORMAL, " ");
	screen_paint_add(s, ln, vrole, value);
	return true;
}

int screen_paint_wrap(struct screen *s, int y, int x, enum scr_role role, const char *text, int max_rows)
{
	int width = COLS - x - 1;
	for (int row = 0; *text && row < max_rows && y < LINES - 1 && width > 10; row++, y++) {
		int cols;
		size_t n = screen_paint_clip(text, width, &cols);
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
		screen_paint_add(s, &ln, role, line);
		text += n;
		while (*text == ' ')
			text++;
	}
	return y;
}

/* ch is one cell's glyph (UTF-8 allowed). */
void screen_paint_fill(struct screen *s, struct scr_line *ln, enum scr_role role, const char *ch, int n)
{
	attr_t a = screen_paint_attr(s, role);
	int cells = n < ln->xmax - ln->x ? n : ln->xmax - ln->x;
	if (cells <= 0)
		return;
	const cchar_t *cc = (unsigned char)ch[0] >= 0x80 ? screen_paint_glyph(s, ch, a) : NULL;
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

void screen_paint_rule(struct screen *s, int y, const char *title)
{
	const char *h = s->utf8 ? "\u2500" : "-";
	struct scr_line ln = { y, 0, COLS };
	screen_paint_fill(s, &ln, SCR_DIM, h, 2);
	screen_paint_addf(s, &ln, SCR_TITLE, " %s ", title);
	screen_paint_fill(s, &ln, SCR_DIM, h, COLS);
}
