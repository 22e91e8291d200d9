/*
 * sink.h - where frames go: one interface for every output (batch text,
 * JSON Lines, OpenMetrics, CSV, the recorder, the screen's history and
 * ring).  A sink takes every frame, the baseline too (prev NULL), and
 * wbtop's own knob changes; what must hold for every output is settled
 * before a frame reaches any (pipeline.h).  A sink prints no errors: 0 or
 * -errno with the reason in errmsg, and the loop decides; -EPIPE means the
 * reader went away.
 */
#ifndef WBTOP_SINK_H
#define WBTOP_SINK_H

#include <stddef.h>
#include <stdio.h>

#include "core/event.h"
#include "core/pipeline.h"

struct sink;

struct sink_ops {
	const char *kind;	/* "text", "json", "openmetrics", "csv", "recorder", ... */
	/* What it asks of every frame up front (PIPELINE_NEED_*, pipeline.h), said when opened. */
	unsigned needs;
	/* One frame: the sink may ask it for more (frame_dev_rates) during the call, and after
	 * it until the next frame reaches it when its needs say PIPELINE_NEED_KEEP.  0 or -errno. */
	int (*frame)(struct sink *s, const struct frame *f);
	/* A knob change wbtop made (kept with the next frame); may be NULL. */
	int (*event)(struct sink *s, const struct wb_event *e);
	/* Finish (flush, close files) and free impl; 0 or -errno with errmsg
	 * set.  The struct sink itself is freed by sink_close. */
	int (*close)(struct sink *s);
};

struct sink {
	const struct sink_ops *ops;
	void *impl;
	char errmsg[512];	/* why the last operation failed */
};

/* A sink of ops with impl (owned from now on: closed by sink_close).  NULL
 * on allocation failure, after closing impl. */
struct sink *sink_new(const struct sink_ops *ops, void *impl);
/* The operations; a NULL sink is skipped (0). */
int sink_frame(struct sink *s, const struct frame *f);
int sink_event(struct sink *s, const struct wb_event *e);
/* Close and free s; 0, or -errno with the reason in err.  NULL is a no-op. */
int sink_close(struct sink *s, char *err, size_t errlen);

/* For a sink writing to a stream it does not own: impl is a struct
 * sink_stream (out, and its name for messages), which sink_stream_close,
 * as the sink's close, frees.  NULL when out of memory. */
struct sink_stream {
	FILE *out;
	const char *name;
};
struct sink *sink_stream_new(const struct sink_ops *ops, FILE *out, const char *name);
int sink_stream_close(struct sink *s);
/* The close of a sink whose impl stays its caller's (the screen's history). */
int sink_keep_close(struct sink *s);

#endif
