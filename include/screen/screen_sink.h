/*
 * screen_sink.h - the screen as one of the loop's sinks (sink.h): each frame
 * it is handed becomes the one on show, and a knob change someone made in its
 * interval goes on the status line.
 */
#ifndef WBTOP_SCREEN_SINK_H
#define WBTOP_SCREEN_SINK_H

#include <stdbool.h>

#include "core/pipeline.h"
#include "screen/screen.h"
#include "sink/history.h"
#include "sink/sink.h"

/* A sink showing frames on scr (not owned) with the history h (not owned; fed before
 * it).  live: a frame's events are wbtop's own writes, already on the status line when
 * made; in a replay they are the recorded run's, and said.  NULL when out of memory. */
struct sink *screen_sink_new(struct screen *scr, const struct history *h, bool live);

/* Quiet: frames are shown but their knob changes not said (a replay filling the
 * history up to the sample it jumps to). */
void screen_sink_quiet(struct sink *s, bool quiet);

/* The knob writes and changes of f on the status line: the last write, else the first
 * change someone else made (live: only those; the writes were said as made). */
void screen_sink_knob_note(struct screen *scr, const struct frame *f, bool live);

#endif
