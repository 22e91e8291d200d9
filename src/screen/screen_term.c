/*
 * screen_term.c - the terminal: the locale, curses on (screen_term_open)
 * and off again (screen_term_close, and an atexit handler for any other
 * way out), and the keys terminals send differently.
 */
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "screen_term.h"

#include <term.h>	/* after curses.h; only for setupterm() below */

/* The terminal the atexit handler restores (one screen at a time). */
static SCREEN *screen_term_active;

static void screen_term_restore_at_exit(void)
{
	if (screen_term_active && !isendwin())
		endwin();
}

/* Home and End arrive as different sequences from different terminals and
 * multiplexers (tmux sends ESC[1~ whatever TERM says): accept them all,
 * whatever terminfo lists. */
static void screen_term_define_keys(void)
{
	static const struct { const char *seq; int key; } keys[] = {
		{ "\033[1~", KEY_HOME }, { "\033[7~", KEY_HOME }, { "\033[H", KEY_HOME }, { "\033OH", KEY_HOME },
		{ "\033[4~", KEY_END }, { "\033[8~", KEY_END }, { "\033[F", KEY_END }, { "\033OF", KEY_END },
	};
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		define_key(keys[i].seq, keys[i].key);
}

static bool screen_term_locale_utf8(void)
{
	setlocale(LC_ALL, "");
	setlocale(LC_NUMERIC, "C");	/* "1.5", and the delay prompt parses the same way */
	const char *cs = nl_langinfo(CODESET);
	return cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
}

bool screen_term_open(struct screen *s, char *err, size_t errlen)
{
	s->utf8 = screen_term_locale_utf8();
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
		return false;
	}
	screen_term_active = s->term;
	static bool registered;
	if (!registered && atexit(screen_term_restore_at_exit) == 0)
		registered = true;
	cbreak();	/* not raw: Ctrl-C stays a signal, which the loop turns into a clean exit */
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(25);
	screen_term_define_keys();
	curs_set(0);
	return true;
}

void screen_term_close(struct screen *s)
{
	if (s->term) {
		if (!isendwin())
			endwin();
		delscreen(s->term);
		screen_term_active = NULL;
	}
}
