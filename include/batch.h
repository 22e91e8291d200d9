/*
 * batch.h - the batch text sink: a vmstat-like system line and an
 * iostat-like device table per interval, dips marked " <<<<<" as in the
 * hand-marked traces.  Writes to a FILE; decides nothing about the system.
 */
#ifndef WBTOP_BATCH_H
#define WBTOP_BATCH_H

#include <stdbool.h>
#include <stdio.h>

#include "derive.h"
#include "event.h"
#include "snapshot.h"

struct batch;

/* A sink writing to out.  all: show idle devices too (without it, a device
 * is shown while it does I/O, dips, or did I/O within the detector's
 * baseline window: a paused writer's device stays listed).  devices_regex:
 * only devices whose kernel name, dm/md name or mount point match (NULL =
 * all); an invalid regex gives NULL and a message in err. */
struct batch *batch_new(FILE *out, bool all, const char *devices_regex, char *err, size_t errlen);
void batch_free(struct batch *b);	/* NULL is a no-op */

/* Whether device d passes the --devices filter. */
bool batch_dev_selected(const struct batch *b, const struct dev_counters *d);

/* One interval: cur with its rates (dev[i] for cur->dev[i]) and dip marks
 * (dev_dip may be NULL); after the table, a "# dip NAME: cause" line for
 * each mark (the cause from cause.h, against the device's usual figures,
 * which the sink keeps).  Returns 0 or -errno of the failed write (EPIPE
 * when the reader went away). */
int batch_print(struct batch *b, const struct snapshot *cur, const struct sys_rates *sys,
		const struct dev_rates *dev, bool sys_dip, const bool *dev_dip);

/* One knob-change event, as a comment line. */
int batch_print_event(struct batch *b, const struct wb_event *e);

#endif
