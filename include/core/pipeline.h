/*
 * pipeline.h - source -> snapshot -> derive -> detect, one step per interval.
 *
 * The one place where the stages are chained, so every sink sees the same rates
 * and the same dip marks for the same data, live or replayed.  A frame is a
 * value: it holds its two samples and what is derived of them, and stays whole
 * until the frame after the next is made, a failed step included.
 */
#ifndef WBTOP_PIPELINE_H
#define WBTOP_PIPELINE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/derive.h"
#include "core/detect.h"
#include "core/snapshot.h"
#include "core/source.h"

struct pipeline;

struct frame_derived;

/* What one step produced: a sink may keep it until it is handed the next one. */
struct frame {
	const struct snapshot *cur;
	const struct snapshot *prev;	/* NULL on the first sample */
	struct sys_rates sys;
	/* What is derived of the two samples, the frame's own: what the dip detector needs (each
	 * device's write rate) up front, the devices' other rates when first asked
	 * (frame_dev_rates), once a frame. */
	struct frame_derived *derived;
	const bool *dev_dip;		/* cur->ndev entries */
	bool sys_dip;			/* the system-wide write rate (bo) dipped */
	bool interval_dip;		/* some device dipped (iostat-trace style) */
	bool recorded_marks;		/* the marks are the source's (enum pipeline_marks) */
	/* Each mark's cause (enum dip_cause, cause.h): dev_cause[i] where dev_dip[i], sys_cause
	 * where sys_dip (cur->ndev entries; the others DIP_CAUSE_UNKNOWN). With recorded marks,
	 * the recorded causes; judged here from the interval's evidence for a recording that
	 * has none, as for the detector's marks. */
	const uint8_t *dev_cause;
	uint8_t sys_cause;
	/* The knob values that changed since prev (by sysctl, a tuning daemon,
	 * or a write of wbtop's not in events), as events stamped with cur's
	 * time, marked observed; none on the first.  A change that a write in
	 * events explains is left out: that write says it. */
	const struct wb_event *changes;
	size_t nchanges;
	/* The knob writes the source recorded with this sample (a replay of a
	 * session that wrote knobs: BDI writes show only here); none live. */
	const struct wb_event *events;
	size_t nevents;
};

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
	PIPELINE_NEED_BRIEFS = 1	/* frame_dev_briefs: in the detector's pass over the counters */
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
 * end of the data, or a negative errno (the source's errmsg says why). */
int pipeline_step(struct pipeline *p, const struct frame **out);

/* f's device rates, derived on the first call (NULL for a frame no pipeline made).  Valid as
 * f is. */
const struct dev_rates *frame_dev_rates(const struct frame *f);

/* Device i's rates alone, derived on the first call for that device (or taken from
 * frame_dev_rates when that was asked): what a view showing a few rows of many devices wants.
 * NULL for a frame no pipeline made or i out of range.  Valid as f is. */
const struct dev_rates *frame_dev_rate(const struct frame *f, size_t i);

/* Every device's brief figures (derive_dev_brief: the history's and the idle test), derived
 * up front when a sink needs them (PIPELINE_NEED_BRIEFS), else on the first call.  NULL for a
 * frame no pipeline made. */
const struct dev_rates *frame_dev_briefs(const struct frame *f);

/* What the step derived for the dip detector, per device (cur->ndev entries, same order): the
 * write rate in KiB/s (negative: no rate this interval), the device's key (ident_dev_key)
 * and the key's serial (0: a device without an identity).  NULL for a frame no pipeline made.
 * Valid as f is. */
const double *frame_dev_write_kbps(const struct frame *f);
const char *const *frame_dev_keys(const struct frame *f);
const uint64_t *frame_dev_ids(const struct frame *f);

/* Forget the previous sample and the detectors' history (after a jump in a
 * replay: rates across the jump would be meaningless). */
void pipeline_restart(struct pipeline *p);

#endif
