/*
 * screen_knobs.c - the knob panel (e): the writeback knobs (or a device's
 * BDI limits) with their values now and at start, which member of each
 * pair is in force, and control's explanation of a value being typed.
 * The panel only asks: the loop reads, previews and writes through control.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "screen_knobs.h"
#include "screen_paint.h"
#include "screen_say.h"
#include "screen_title.h"
#include "screen_top.h"

void screen_knobs_set(struct screen *s, const struct screen_knobs *k)
{
	if (k->n > s->cap_k) {
		struct control_item *it = realloc(s->kitems, k->n * sizeof *it);
		if (!it)
			return;
		s->kitems = it;
		s->cap_k = k->n;
	}
	if (k->n)
		memcpy(s->kitems, k->items, k->n * sizeof *s->kitems);
	s->nk = k->n;
	s->kn = *k;
	s->kn.items = s->kitems;
	snprintf(s->kreason, sizeof s->kreason, "%s", k->reason ? k->reason : "");
	s->kn.reason = s->kreason;
	if (s->ksel >= s->nk)
		s->ksel = s->nk ? s->nk - 1 : 0;
}

void screen_knobs_set_preview(struct screen *s, int rc, const char *text)
{
	snprintf(s->preview, sizeof s->preview, "%s", text ? text : "");
	s->preview_rc = rc;
	s->have_preview = true;
}

/* Why knobs can't be written, never empty. */
static const char *screen_knobs_reason(const struct screen *s)
{
	return s->kn.reason && *s->kn.reason ? s->kn.reason : "no write access";
}

void screen_knobs_free(struct screen *s)
{
	free(s->kitems);
	s->kitems = NULL;
	s->nk = s->cap_k = 0;
}

#define SCR_KNOB_NAME_W 30

static void screen_knobs_row(struct screen *s, int y, const struct control_item *it, bool sel)
{
	char v[32], st[32];
	struct scr_line ln = { y, 0, COLS };
	if (it->absent) {
		char why[64];
		screen_paint_add(s, &ln, SCR_TITLE, sel ? ">" : " ");
		screen_paint_addf(s, &ln, SCR_DIM, "%-*.*s %10s %10s  %s", SCR_KNOB_NAME_W, SCR_KNOB_NAME_W,
			 it->name, "-", "-", knob_absent_text(it->def, why, sizeof why));
		if (sel)
			mvchgat(y, 0, -1, screen_paint_attr(s, SCR_SELECT) & ~A_COLOR,
				(short)PAIR_NUMBER(screen_paint_attr(s, SCR_SELECT)), NULL);
		return;
	}
	knob_format_value(it->def->kind, it->value, v, sizeof v);
	knob_format_value(it->def->kind, it->start, st, sizeof st);
	/* a vm ratio/bytes pair has one member in force; a BDI limit's ratio and
	 * bytes are two views of one value, neither "in force" over the other */
	bool pair = !it->ref.bdi && it->def->partner >= 0;
	enum scr_role role = it->in_force ? SCR_NORMAL : SCR_DIM;
	screen_paint_add(s, &ln, SCR_TITLE, sel ? ">" : " ");
	screen_paint_addf(s, &ln, role, "%-*.*s", SCR_KNOB_NAME_W, SCR_KNOB_NAME_W, it->name);
	screen_paint_addf(s, &ln, pair && it->in_force ? SCR_TITLE : role, " %c%9s",
		 pair && it->in_force ? '*' : ' ', v);
	screen_paint_addf(s, &ln, it->value != it->start ? SCR_EVENT : SCR_DIM, " %10s", st);
	/* the help only when it fits whole; the selected knob's is shown below anyway */
	if (ln.x + 2 + (int)strlen(it->def->help) <= ln.xmax)
		screen_paint_addf(s, &ln, SCR_DIM, "  %s", it->def->help);
	if (sel)
		mvchgat(y, 0, -1, screen_paint_attr(s, SCR_SELECT) & ~A_COLOR,
			(short)PAIR_NUMBER(screen_paint_attr(s, SCR_SELECT)), NULL);
}

static void screen_knobs_footer(struct screen *s, int y)
{
	struct scr_line ln = { y, 0, COLS };
	if (!s->kn.can_write) {
		screen_paint_addf(s, &ln, SCR_WARN, " read-only: %s", screen_knobs_reason(s));
		return;
	}
	static const char *const keys[][2] = {
		{ " Enter", " edit  " }, { "u", " undo  " }, { "U", " revert all  " },
		{ "c", " confirm  " }, { "Esc", " back  " },
	};
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		screen_paint_add(s, &ln, SCR_TITLE, keys[i][0]);
		screen_paint_add(s, &ln, SCR_NORMAL, keys[i][1]);
	}
	screen_paint_addf(s, &ln, s->kn.nchanges ? SCR_EVENT : SCR_DIM, "(%zu change%s)", s->kn.nchanges,
		 s->kn.nchanges == 1 ? "" : "s");
}

void screen_knobs_draw(struct screen *s)
{
	screen_title_draw(s);
	/* The gauge and knob rows show what a change does, when there is room. */
	int y = 1;
	if (s->f && LINES >= 24) {
		screen_top_draw_gauge(s, 1);
		screen_top_draw_knob_rows(s, 3);
		y = 5;
	}
	char title[96];
	if (s->kn.bdi)
		snprintf(title, sizeof title, "BDI limits of %" PRIu32 ":%" PRIu32, s->kn.major, s->kn.minor);
	else
		snprintf(title, sizeof title, "writeback knobs");
	screen_paint_rule(s, y++, title);
	struct scr_line ln = { y++, 0, COLS };
	screen_paint_addf(s, &ln, SCR_HEADER, " %-*s %10s %10s  %s", SCR_KNOB_NAME_W, "knob", "now", "at start",
		 COLS >= 130 ? "what it does" : "");
	mvchgat(ln.y, 0, -1, screen_paint_attr(s, SCR_HEADER) & ~A_COLOR,
		(short)PAIR_NUMBER(screen_paint_attr(s, SCR_HEADER)), NULL);
	if (!s->nk) {
		ln = (struct scr_line){ y++, 0, COLS };
		screen_paint_add(s, &ln, SCR_DIM,
				 s->kn.bdi ? "  this device has no BDI limits" : "  reading the knobs...");
	}
	for (size_t i = 0; i < s->nk && y < LINES - 6; i++)
		screen_knobs_row(s, y++, &s->kitems[i], i == s->ksel);
	screen_knobs_footer(s, y++);
	y++;
	if (s->nk) {
		const struct control_item *it = &s->kitems[s->ksel];
		char help[256];
		char absent[48], why[64] = "";
		if (it->absent)
			snprintf(why, sizeof why, " (%s)", knob_absent_text(it->def, absent, sizeof absent));
		snprintf(help, sizeof help, "%s: %s%s", it->name, it->def->help, why);
		y = screen_paint_wrap(s, y, 1, SCR_NORMAL, help, 2);
	}
	if (s->have_preview && s->prompt == SCR_PROMPT_KNOB) {
		enum scr_role role = s->preview_rc < 0 ? SCR_DIP : s->preview_rc > 0 ? SCR_WARN : SCR_NORMAL;
		char line[300];
		snprintf(line, sizeof line, "-> %s", s->preview);
		screen_paint_wrap(s, y, 1, role, line, LINES - 1 - y);
	}
}

bool screen_knobs_key(struct screen *s, int ch, struct screen_req *req)
{
	switch (ch) {
	case 27: case 'q': case KEY_LEFT:
		s->view = s->kn.bdi ? SCR_VIEW_DETAIL : SCR_VIEW_MAIN;
		return true;
	case KEY_UP: case 'k':
		if (s->ksel > 0)
			s->ksel--;
		return true;
	case KEY_DOWN: case 'j':
		if (s->ksel + 1 < s->nk)
			s->ksel++;
		return true;
	case 'h': case '?':
		s->view = SCR_VIEW_HELP;
		return true;
	case 'c':
		req->kind = SCREEN_REQ_KNOB_CONFIRM;
		return true;
	case '\n': case '\r': case KEY_ENTER: {
		if (!s->nk)
			return true;
		if (!s->kn.can_write) {
			screen_say_answer(s, "knobs are read-only: %s", screen_knobs_reason(s));
			return true;
		}
		const struct control_item *it = &s->kitems[s->ksel];
		if (it->absent) {
			char why[64];
			screen_say_answer(s, "%s: %s", it->name, knob_absent_text(it->def, why, sizeof why));
			return true;
		}
		char v[32] = "";
		if (it->value >= 0)
			snprintf(v, sizeof v, "%" PRId64, it->value);
		s->have_preview = false;
		screen_say_prompt(s, SCR_PROMPT_KNOB, v);
		req->kind = SCREEN_REQ_KNOB_PREVIEW;
		req->ref = it->ref;
		snprintf(req->text, sizeof req->text, "%s", v);
		return true;
	}
	}
	return false;
}
