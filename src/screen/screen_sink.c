/*
 * screen_sink.c - the screen as a sink (screen_sink.h).
 */
#include <stdlib.h>

#include "core/control.h"
#include "screen/screen_sink.h"

struct screen_sink {
	struct screen *scr;
	const struct history *h;
	bool live, quiet;
};

void screen_sink_knob_note(struct screen *scr, const struct frame *f, bool live)
{
	size_t nev = live ? 0 : f->nevents;
	const struct wb_event *e = nev ? &f->events[nev - 1] : f->nchanges ? &f->changes[0] : NULL;
	char line[256];
	if (e)
		screen_message(scr, "%s%s%s", nev ? "" : "knob changed: ",
			       control_rules_format_event(e, line, sizeof line),
			       nev + f->nchanges > 1 ? " (and more)" : "");
}

static int screen_sink_frame(struct sink *s, const struct frame *f)
{
	struct screen_sink *ss = s->impl;
	screen_frame(ss->scr, f, ss->h);
	if (!ss->quiet)
		screen_sink_knob_note(ss->scr, f, ss->live);
	return 0;
}

static int screen_sink_close(struct sink *s)
{
	free(s->impl);
	return 0;
}

static const struct sink_ops screen_sink_ops = {
	.kind = "screen", .needs = PIPELINE_NEED_BRIEFS | PIPELINE_NEED_KEEP,
	.frame = screen_sink_frame,
	.close = screen_sink_close,
};

struct sink *screen_sink_new(struct screen *scr, const struct history *h, bool live)
{
	struct screen_sink *ss = calloc(1, sizeof *ss);
	if (!ss)
		return NULL;
	*ss = (struct screen_sink){ .scr = scr, .h = h, .live = live };
	return sink_new(&screen_sink_ops, ss);
}

void screen_sink_quiet(struct sink *s, bool quiet)
{
	((struct screen_sink *)s->impl)->quiet = quiet;
}
