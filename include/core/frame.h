/*
 * frame.h - what one step of the pipeline produced: a value.  It holds its
 * two samples and what is derived of them; a sink that said it keeps frames
 * (PIPELINE_NEED_KEEP) may keep one, and ask it for more, until it is handed
 * the next, and the others have it for the call.
 */
#ifndef WBTOP_FRAME_H
#define WBTOP_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/derive.h"
#include "core/event.h"
#include "core/snapshot.h"

struct frame_derived;

/* What one step produced (see above for how long it lasts). */
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
	/* How deep each mark is: the interval's fall below the level the detector holds, in
	 * percent of it (cur->ndev entries; NAN where it holds none). With recorded marks, the
	 * detector's reading of the same samples. */
	const double *dev_depth;
	double sys_depth;
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

#endif
