/*
 * frame_priv.h - what a frame derives of its two samples, as the pipeline fills it
 * (pipeline.c) and the frame's accessors read and complete it (frame.c).
 */
#ifndef WBTOP_FRAME_PRIV_H
#define WBTOP_FRAME_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/event.h"
#include "core/frame.h"
#include "core/ident.h"

/* What is derived of a frame's two samples: its own, so that a sink holding the frame can
 * ask for more of it while the pipeline makes the next one.  The rates are derived when first
 * asked (frame_dev_rates, frame_dev_rate); what the detector needs, up front. */
struct frame_derived {
	size_t cap;		/* devices the arrays hold */
	unsigned long step;	/* the pipeline's step this frame is */
	const struct dev_counters **prev_of;	/* each device's previous sample, or NULL */
	struct dev_rates *rates;
	bool rates_all;		/* every device's rates are in rates[] */
	unsigned long *rate_step;	/* per device: the step rates[i] alone was derived for */
	struct dev_rates *briefs;
	bool briefs_done;
	bool *dips;
	double *depth;		/* each device's fall below its level, percent (NAN: no level) */
	const char **keys;
	char (*name_keys)[IDENT_KEY_MAX];	/* the keys of devices without an identity */
	uint64_t *ids;
	double *values;		/* write rates, -1 not RATE_OK (pipeline_detect) */
	double *reqs;		/* writes each device completed in the interval, -1 unknown */
	uint8_t *causes;	/* each mark's cause (enum dip_cause) */
	struct wb_event changes[SNAP_NKNOBS];
	struct wb_event *events;	/* the source's recorded writes, copied: the frame's own */
	size_t events_cap;
};

/* Room for n devices in d's arrays; 0 or -ENOMEM. */
int frame_derived_grow(struct frame_derived *d, size_t n);
void frame_derived_free(struct frame_derived *d);

#endif
