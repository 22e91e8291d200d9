/*
 * screen_keys.c - keys: the status-line prompts (filter, interval, knob
 * value), the keys every page shares, the main screen's own, and
 * dispatch to the pages.  A key either changes the view here or becomes a
 * struct screen_req for the loop.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/msgq.h"
#include "screen/screen_calc.h"
#include "screen_cgroups.h"
#include "screen_detail.h"
#include "screen_devices.h"
#include "screen_help.h"
#include "screen_keys.h"
#include "screen_knobs.h"
#include "screen_say.h"
#include "screen_title.h"

static bool screen_keys_is_enter(int ch)
{
	return ch == '\n' || ch == '\r' || ch == KEY_ENTER;
}

static bool screen_keys_is_backspace(int ch)
{
	return ch == KEY_BACKSPACE || ch == 127 || ch == 8;
}

/* The typed line is complete: act on it. */
static void screen_keys_prompt_done(struct screen *s, struct screen_req *req)
{
	enum scr_prompt p = s->prompt;
	s->prompt = SCR_PROMPT_NONE;
	if (p == SCR_PROMPT_FILTER) {
		screen_devices_set_filter(s, s->input);
		screen_devices_update(s);
	} else if (p == SCR_PROMPT_DELAY) {
		char *end;
		double v = strtod(s->input, &end);
		while (*end == ' ')
			end++;
		if (end == s->input || *end || !isfinite(v) || v < 0.01 || v > 86400)
			screen_say_answer(s, "interval '%s': give seconds between 0.01 and 86400", s->input);
		else {
			req->kind = SCREEN_REQ_DELAY;
			req->value = v;
		}
	} else if (p == SCR_PROMPT_KNOB) {
		req->kind = SCREEN_REQ_KNOB_APPLY;
		req->ref = s->kn.n ? s->kitems[s->ksel].ref : req->ref;
		snprintf(req->text, sizeof req->text, "%s", s->input);
	} else if (p == SCR_PROMPT_TIME) {
		req->kind = screen_calc_parse_seek(s->input, &req->value);
		snprintf(req->text, sizeof req->text, "%s", s->input);
	} else if (p == SCR_PROMPT_SAVE) {
		if (!s->input[0]) {
			screen_say_answer(s, "history not saved: no file name given");
			return;
		}
		req->kind = SCREEN_REQ_SAVE_HISTORY;
		snprintf(req->text, sizeof req->text, "%s", s->input);
	}
}

/* Line editing on the status line; a knob value is previewed as typed. */
static void screen_keys_prompt_key(struct screen *s, int ch, struct screen_req *req)
{
	if (ch == 27) {		/* Esc */
		s->prompt = SCR_PROMPT_NONE;
		s->have_preview = false;
		return;
	}
	if (screen_keys_is_enter(ch)) {
		screen_keys_prompt_done(s, req);
		return;
	}
	bool hint = s->input_hint;
	s->input_hint = false;
	if (hint && ch >= 32 && ch < 127) {	/* typing replaces the suggestion */
		s->ninput = 0;
		s->input[0] = '\0';
	}
	if (screen_keys_is_backspace(ch)) {
		if (s->ninput)
			s->input[--s->ninput] = '\0';
	} else if (ch == 21) {	/* Ctrl-U */
		s->ninput = 0;
		s->input[0] = '\0';
	} else if (ch >= 32 && ch < 127 && s->ninput + 1 < sizeof s->input) {
		s->input[s->ninput++] = (char)ch;
		s->input[s->ninput] = '\0';
	} else {
		return;
	}
	if (s->prompt == SCR_PROMPT_KNOB && s->kn.n) {
		req->kind = SCREEN_REQ_KNOB_PREVIEW;
		req->ref = s->kitems[s->ksel].ref;
		snprintf(req->text, sizeof req->text, "%s", s->input);
	}
}

/* The time prompt starts at the time of the sample shown. */
static void screen_keys_open_time_prompt(struct screen *s)
{
	char now[32] = "";
	if (s->f) {
		time_t t = (time_t)(s->f->cur->wall_ns / 1000000000);
		struct tm tm;
		if (localtime_r(&t, &tm))
			strftime(now, sizeof now, "%H:%M:%S", &tm);
	}
	screen_say_prompt(s, SCR_PROMPT_TIME, now);
	s->input_hint = true;	/* Enter keeps it, a key typed starts afresh */
}

/* Moving through a recording: the same keys on every page, so a device's
 * page or the knob panel can be stepped through time too. */
static bool screen_keys_replay(struct screen *s, int ch, struct screen_req *req)
{
	static const struct {
		int ch;
		enum screen_req_kind kind;
		double value;
	} keys[] = {
		{ ',', SCREEN_REQ_STEP, -1 }, { '.', SCREEN_REQ_STEP, 1 },
		{ '[', SCREEN_REQ_DIP, -1 }, { ']', SCREEN_REQ_DIP, 1 },
		{ '{', SCREEN_REQ_KNOB_CHANGE, -1 }, { '}', SCREEN_REQ_KNOB_CHANGE, 1 },
		{ '+', SCREEN_REQ_SPEED, 2 }, { '=', SCREEN_REQ_SPEED, 2 }, { '-', SCREEN_REQ_SPEED, 0.5 },
	};
	if (ch == 't') {
		if (screen_title_is_replay(s))
			screen_keys_open_time_prompt(s);
		else
			screen_say_answer(s, "t: only when replaying a recording (wbtop -r FILE)");
		return true;
	}
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		if (keys[i].ch != ch)
			continue;
		if (!screen_title_is_replay(s)) {
			screen_say_answer(s, "%c: only when replaying a recording (wbtop -r FILE)", ch);
			return true;
		}
		req->kind = keys[i].kind;
		req->value = keys[i].value;
		return true;
	}
	return false;
}

/* w: the prompt offers a new file named after the time now. */
static void screen_keys_open_save_prompt(struct screen *s)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	char name[64];
	screen_calc_save_name((int64_t)ts.tv_sec * 1000000000, name, sizeof name);
	char path[sizeof s->input];
	snprintf(path, sizeof path, "./%s", name);
	screen_say_prompt(s, SCR_PROMPT_SAVE, path);
}

/* Keys that mean the same on every page. */
static bool screen_keys_global(struct screen *s, int ch, struct screen_req *req)
{
	if (screen_keys_replay(s, ch, req))
		return true;
	switch (ch) {
	case ' ':
		req->kind = SCREEN_REQ_PAUSE;
		return true;
	case 'd': {
		if (screen_title_is_replay(s)) {
			screen_say_answer(s, "a replay keeps its recorded intervals: + and - change the speed");
			return true;
		}
		char cur[32];
		snprintf(cur, sizeof cur, "%g", s->st.delay_s);
		screen_say_prompt(s, SCR_PROMPT_DELAY, cur);
		return true;
	}
	case 'u':
		req->kind = SCREEN_REQ_KNOB_UNDO;
		return true;
	case 'U':
		req->kind = SCREEN_REQ_KNOB_REVERT_ALL;
		return true;
	case 12:	/* Ctrl-L: repaint everything */
		clearok(curscr, TRUE);
		return true;
	case KEY_RESIZE:
		return true;	/* ncurses has the new size; the redraw follows */
	}
	return false;
}

static void screen_keys_main(struct screen *s, int ch, struct screen_req *req)
{
	if (screen_keys_global(s, ch, req) || screen_devices_key(s, ch))
		return;
	switch (ch) {
	case 'q':
		req->kind = SCREEN_REQ_QUIT;
		break;
	case 'h':
	case '?':
	case KEY_F(1):
		s->view = SCR_VIEW_HELP;
		break;
	case 'f':
	case '/':
		screen_say_prompt(s, SCR_PROMPT_FILTER, s->filter_text);
		break;
	case 'W':
		req->kind = SCREEN_REQ_SAVE_SETTINGS;
		break;
	case 'e':
		req->kind = SCREEN_REQ_KNOBS_OPEN;
		req->ref.bdi = false;
		s->view = SCR_VIEW_KNOBS;
		s->ksel = 0;
		break;
	case 'p':
		s->procs_open = !s->procs_open;
		req->kind = SCREEN_REQ_PROCS;
		req->value = s->procs_open;
		break;
	case 'w':
		screen_keys_open_save_prompt(s);
		break;
	case 'C':
		s->view = SCR_VIEW_CGROUPS;
		break;
	case KEY_LEFT:
	case KEY_RIGHT:
		if (screen_title_is_replay(s)) {
			req->kind = SCREEN_REQ_STEP;
			req->value = ch == KEY_LEFT ? -1 : 1;
		}
		break;
	default:
		if (screen_keys_is_enter(ch) && screen_devices_selected(s, NULL)) {
			screen_devices_note_selection(s);	/* the page stays on this device */
			s->view = SCR_VIEW_DETAIL;
		}
		break;
	}
}

bool screen_keys_read(struct screen *s, struct screen_req *req)
{
	memset(req, 0, sizeof *req);
	int ch = getch();
	if (ch == ERR)
		return false;
	if (ch != KEY_RESIZE)
		msgq_dismiss(s->msgq);	/* a key answers the message */
	if (s->prompt != SCR_PROMPT_NONE) {
		if (ch != KEY_RESIZE)
			screen_keys_prompt_key(s, ch, req);
		return true;
	}
	if (COLS < SCR_MIN_COLS || LINES < SCR_MIN_ROWS) {
		if (ch == 'q')
			req->kind = SCREEN_REQ_QUIT;
		return true;
	}
	switch (s->view) {
	case SCR_VIEW_MAIN:
		screen_keys_main(s, ch, req);
		break;
	case SCR_VIEW_HELP:
		if (!screen_help_key(s, ch))
			s->view = SCR_VIEW_MAIN;	/* any other key leaves it, as in top */
		break;
	case SCR_VIEW_DETAIL:
		if (!screen_keys_global(s, ch, req))
			screen_detail_key(s, ch, req);
		break;
	case SCR_VIEW_KNOBS:
		if (!screen_knobs_key(s, ch, req))
			screen_keys_global(s, ch, req);
		break;
	case SCR_VIEW_CGROUPS:
		if (!screen_keys_global(s, ch, req))
			screen_cgroups_key(s, ch, req);
		break;
	}
	return true;
}
