/*
 * batch.h - the batch text sink: a vmstat-like system line and an
 * iostat-like device table per interval, dips marked " <<<<<" as in the
 * hand-marked traces.  Writes to a FILE; decides nothing about the system.
 */
#ifndef WBTOP_BATCH_H
#define WBTOP_BATCH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/derive.h"
#include "core/event.h"
#include "core/snapshot.h"

struct batch;

/* A sink writing to out.  all: show idle devices too (without it, a device
 * is shown while it does I/O, dips, or did I/O within the detector's
 * baseline window: a paused writer's device stays listed).  devices_regex:
 * only devices whose kernel name, dm/md name or mount point match (NULL =
 * all); an invalid regex gives NULL and a message in err. */
struct batch *batch_new(FILE *out, bool all, const char *devices_regex, char *err, size_t errlen);
void batch_free(struct batch *b);	/* NULL is a no-op */

/* The decimals of a second that tell samples interval_s apart: 0 for
 * whole seconds, 1 for 0.5, 2 for 0.25 or 0.01, at most 3.  slack: how far
 * from a whole number of the last decimal's units still counts as one
 * (0 for -d as given; 0.05 for a recording's mean interval, which a busy
 * machine stretches by some milliseconds). */
int batch_time_decimals(double interval_s, double slack);
/* The time column: decimals of a second (0..3; 0 by default) and, when
 * iso, the date and the zone as well ("2026-12-01T08:51:03.50+0000"). */
void batch_set_time(struct batch *b, int decimals, bool iso);

/* Whether device d passes the --devices filter. */
bool batch_dev_selected(const struct batch *b, const struct dev_counters *d);

/* An interval's dip marks: the system's and each device's (the arrays may be NULL), each
 * mark's cause (enum dip_cause of cause.h) and depth (percent below the level; NAN unknown). */
struct batch_marks {
	bool sys_dip;
	uint8_t sys_cause;
	double sys_depth;
	const bool *dev_dip;
	const uint8_t *dev_cause;
	const double *dev_depth;
};

/* One interval: cur with its rates (dev[i] for cur->dev[i]) and its marks; after the table, a
 * "# dip NAME: cause, N% below the level" line for each mark.  Returns 0 or -errno of the
 * failed write (EPIPE when the reader went away). */
int batch_print(struct batch *b, const struct snapshot *cur, const struct sys_rates *sys,
		const struct dev_rates *dev, const struct batch_marks *m);

/* One knob-change event, as a comment line. */
int batch_print_event(struct batch *b, const struct wb_event *e);

/* The batch text sink (sink.h): for each interval (not the baseline) the
 * knob changes seen, as comment lines, then batch_print's tables, to out
 * (not owned; out_name names it in messages).  all and devices_regex as for
 * batch_new; NULL with a message in err. */
struct sink;
struct sink *batch_sink_new(FILE *out, const char *out_name, bool all, const char *devices_regex,
			    char *err, size_t errlen);
/* The time column of a text sink (batch_set_time). */
void batch_sink_set_time(struct sink *s, int decimals, bool iso);

#endif
