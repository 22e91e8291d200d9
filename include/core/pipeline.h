/*
 * pipeline.h - source -> snapshot -> derive -> detect, one step per interval.
 *
 * The one place where the stages are chained, so every sink sees the same rates
 * and the same dip marks for the same data, live or replayed.  Each step makes
 * a frame (frame.h); for a sink that keeps frames, a step leaves the last one
 * whole, a failed step too.
 */
#ifndef WBTOP_PIPELINE_H
#define WBTOP_PIPELINE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/derive.h"
#include "core/detect.h"
#include "core/frame.h"
#include "core/snapshot.h"
#include "core/source.h"

struct pipeline;

/* Which dip marks a frame carries when its source recorded some (a replay).
 * This is the one rule every sink follows (text, JSON, OpenMetrics, CSV,
 * the recorder, the screen): a replay shows the marks of the run that made
 * it, so that it prints what that run printed, even from the middle of a
 * recording (--begin) where the detector has no history; an explicit --dip
 * asks for the detector's judgement at that sensitivity instead, everywhere.
 * A source without recorded marks (the live one) always gets the detector's. */
enum pipeline_marks {
	PIPELINE_MARKS_RECORDED,	/* the recording's marks (no --dip given) */
	PIPELINE_MARKS_JUDGED		/* the detector's, with this run's --dip */
};

/* The rule of a run: whether --dip was given. */
static inline enum pipeline_marks pipeline_marks_rule(bool dip_given)
{
	return dip_given ? PIPELINE_MARKS_JUDGED : PIPELINE_MARKS_RECORDED;
}

/* What a sink may ask the pipeline to derive up front, for every frame (sink_ops.needs). */
enum pipeline_need {
	PIPELINE_NEED_BRIEFS = 1,	/* frame_dev_briefs: in the detector's pass over the counters */
	/* It keeps a frame until it is handed the next (the screen): the next step, even a
	 * failed one, must not write over it (a third snapshot, a second frame's arrays) */
	PIPELINE_NEED_KEEP = 2
};

/* A pipeline reading src (not owned), marking dips as marks says.  NULL on
 * allocation failure. */
struct pipeline *pipeline_new(struct source *src, const struct dip_params *dip,
			      enum pipeline_marks marks);
void pipeline_free(struct pipeline *p);	/* NULL is a no-op */
/* Derive what needs says (PIPELINE_NEED_*) up front from the next frame on: what the sinks
 * said they need when opened. */
void pipeline_need(struct pipeline *p, unsigned needs);

/* Called with each of the pipeline's two snapshots just before it is filled again: a keeper
 * of past samples (snapring.h) that was lent the sample it holds takes its device array then,
 * leaving another array (or none) in its place, rather than copying every device of every
 * sample. */
typedef void pipeline_refill_fn(void *ctx, struct snapshot *s);
/* Call fn(ctx, s) before each refill from now on (fn NULL: no more); ctx is not owned. */
void pipeline_on_refill(struct pipeline *p, pipeline_refill_fn *fn, void *ctx);

/* Take the next sample and derive it.  Returns 0 with *out set, 1 at the
 * end of the data, or a negative errno (the source's errmsg says why).  A
 * replay's lead (snapshot.h) is fed to the detectors here and never returned. */
int pipeline_step(struct pipeline *p, const struct frame **out);

/* Forget the previous sample and the detectors' history (after a jump in a
 * replay: rates across the jump would be meaningless). */
void pipeline_restart(struct pipeline *p);

#endif
