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
#include "screen_data.h"

static bool scr_is_enter(int ch)
{
	return ch == '\n' || ch == '\r' || ch == KEY_ENTER;
}

static bool scr_is_backspace(int ch)
{
	return ch == KEY_BACKSPACE || ch == 127 || ch == 8;
}

static void scr_prompt_open(struct screen *s, enum scr_prompt p, const char *initial)
{
	s->prompt = p;
	snprintf(s->input, sizeof s->input, "%s", initial ? initial : "");
	s->ninput = strlen(s->input);
	s->input_hint = false;
	msgq_dismiss(s->msgq);	/* the prompt takes the line */
}

/* The typed line is complete: act on it. */
static void scr_prompt_done(struct screen *s, struct screen_req *req)
{
	enum scr_prompt p = s->prompt;
	s->prompt = SCR_PROMPT_NONE;
	if (p == SCR_PROMPT_FILTER) {
		scr_set_filter(s, s->input);
		scr_devs_update(s);
	} else if (p == SCR_PROMPT_DELAY) {
		char *end;
		double v = strtod(s->input, &end);
		while (*end == ' ')
			end++;
		if (end == s->input || *end || !isfinite(v) || v < 0.01 || v > 86400)
			screen_message(s, "interval '%s': give seconds between 0.01 and 86400", s->input);
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
			screen_message(s, "history not saved: no file name given");
			return;
		}
		req->kind = SCREEN_REQ_SAVE_HISTORY;
		snprintf(req->text, sizeof req->text, "%s", s->input);
	}
}

/* Line editing on the status line; a knob value is previewed as typed. */
static void scr_prompt_key(struct screen *s, int ch, struct screen_req *req)
{
	if (ch == 27) {		/* Esc */
		s->prompt = SCR_PROMPT_NONE;
		s->have_preview = false;
		return;
	}
	if (scr_is_enter(ch)) {
		scr_prompt_done(s, req);
		return;
	}
	bool hint = s->input_hint;
	s->input_hint = false;
	if (hint && ch >= 32 && ch < 127) {	/* typing replaces the suggestion */
		s->ninput = 0;
		s->input[0] = '\0';
	}
	if (scr_is_backspace(ch)) {
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

void scr_open_knob_prompt(struct screen *s, const char *initial)
{
	scr_prompt_open(s, SCR_PROMPT_KNOB, initial);
}

/* The time prompt starts at the time of the sample shown. */
static void scr_open_time_prompt(struct screen *s)
{
	char now[32] = "";
	if (s->f) {
		time_t t = (time_t)(s->f->cur->wall_ns / 1000000000);
		struct tm tm;
		if (localtime_r(&t, &tm))
			strftime(now, sizeof now, "%H:%M:%S", &tm);
	}
	scr_prompt_open(s, SCR_PROMPT_TIME, now);
	s->input_hint = true;	/* Enter keeps it, a key typed starts afresh */
}

/* Moving through a recording: the same keys on every page, so a device's
 * page or the knob panel can be stepped through time too. */
static bool scr_replay_key(struct screen *s, int ch, struct screen_req *req)
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
		if (scr_is_replay(s))
			scr_open_time_prompt(s);
		else
			screen_message(s, "t: only when replaying a recording (wbtop -r FILE)");
		return true;
	}
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		if (keys[i].ch != ch)
			continue;
		if (!scr_is_replay(s)) {
			screen_message(s, "%c: only when replaying a recording (wbtop -r FILE)", ch);
			return true;
		}
		req->kind = keys[i].kind;
		req->value = keys[i].value;
		return true;
	}
	return false;
}

/* w: the prompt offers a new file named after the time now. */
static void scr_open_save_prompt(struct screen *s)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	char name[64];
	screen_calc_save_name((int64_t)ts.tv_sec * 1000000000, name, sizeof name);
	char path[sizeof s->input];
	snprintf(path, sizeof path, "./%s", name);
	scr_prompt_open(s, SCR_PROMPT_SAVE, path);
}

/* Keys that mean the same on every page. */
static bool scr_global_key(struct screen *s, int ch, struct screen_req *req)
{
	if (scr_replay_key(s, ch, req))
		return true;
	switch (ch) {
	case ' ':
		req->kind = SCREEN_REQ_PAUSE;
		return true;
	case 'd': {
		if (scr_is_replay(s)) {
			screen_message(s, "a replay keeps its recorded intervals: + and - change the speed");
			return true;
		}
		char cur[32];
		snprintf(cur, sizeof cur, "%g", s->st.delay_s);
		scr_prompt_open(s, SCR_PROMPT_DELAY, cur);
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

static void scr_main_key(struct screen *s, int ch, struct screen_req *req)
{
	if (scr_global_key(s, ch, req) || scr_devs_key(s, ch))
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
		scr_prompt_open(s, SCR_PROMPT_FILTER, s->filter_text);
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
		scr_open_save_prompt(s);
		break;
	case 'C':
		s->view = SCR_VIEW_CGROUPS;
		break;
	case KEY_LEFT:
	case KEY_RIGHT:
		if (scr_is_replay(s)) {
			req->kind = SCREEN_REQ_STEP;
			req->value = ch == KEY_LEFT ? -1 : 1;
		}
		break;
	default:
		if (scr_is_enter(ch) && scr_selected(s, NULL)) {
			scr_note_selection(s);	/* the page stays on this device */
			s->view = SCR_VIEW_DETAIL;
		}
		break;
	}
}

bool screen_key(struct screen *s, struct screen_req *req)
{
	memset(req, 0, sizeof *req);
	int ch = getch();
	if (ch == ERR)
		return false;
	if (ch != KEY_RESIZE)
		msgq_dismiss(s->msgq);	/* a key answers the message */
	if (s->prompt != SCR_PROMPT_NONE) {
		if (ch != KEY_RESIZE)
			scr_prompt_key(s, ch, req);
		return true;
	}
	if (COLS < SCR_MIN_COLS || LINES < SCR_MIN_ROWS) {
		if (ch == 'q')
			req->kind = SCREEN_REQ_QUIT;
		return true;
	}
	switch (s->view) {
	case SCR_VIEW_MAIN:
		scr_main_key(s, ch, req);
		break;
	case SCR_VIEW_HELP:
		if (!scr_help_key(s, ch))
			s->view = SCR_VIEW_MAIN;	/* any other key leaves it, as in top */
		break;
	case SCR_VIEW_DETAIL:
		if (!scr_global_key(s, ch, req))
			scr_detail_key(s, ch, req);
		break;
	case SCR_VIEW_KNOBS:
		if (!scr_knobs_key(s, ch, req))
			scr_global_key(s, ch, req);
		break;
	case SCR_VIEW_CGROUPS:
		if (!scr_global_key(s, ch, req))
			scr_cgroups_key(s, ch, req);
		break;
	}
	return true;
}
