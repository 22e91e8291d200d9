/*
 * exporter.h - the newest sample as pages a scraper can take at any time
 * (wbtop --listen): every frame is written once in each dialect, the
 * OpenMetrics text and Prometheus' 0.0.4 text, with the exporter's
 * counters since its start (tally.h) after the sample's families, and the
 * finished page replaces the last one.  A scrape takes a reference to the
 * page of the moment, so it never waits for a sample and never samples:
 * the loop samples on its clock, whatever the scrapers do.
 *
 * The sink runs in the loop's thread; exporter_page_get and _put may be
 * called from any thread.  Not the HTTP server (run_listen.c is).
 */
#ifndef WBTOP_EXPORTER_H
#define WBTOP_EXPORTER_H

#include <stddef.h>
#include <stdint.h>

#include "sink/openmetrics.h"

struct exporter;
struct sink;

struct exporter_options {
	size_t top_n;		/* rows per throttling family before "other" (--listen-top) */
	struct om_options om;	/* devices kept; its dialect and more are the exporter's */
};

/* A finished page: its bytes stay valid until exporter_page_put. */
struct exporter_page {
	const char *data;
	size_t len;
	uint64_t step;		/* samples taken before it was written, it included */
};

/* NULL when out of memory.  o is copied (its keep_arg must outlive the exporter). */
struct exporter *exporter_new(const struct exporter_options *o);

/* Why the kernel's trace is missing ("": it is not), for the availability gauge's reason;
 * before the first frame (the loop's thread reads it). */
void exporter_set_trace_note(struct exporter *x, const char *note);

/* The sink that feeds it.  Closing the sink leaves the exporter (and the pages out) alone. */
struct sink *exporter_sink_new(struct exporter *x);

/* The newest page of the dialect, with a reference, or NULL before the first sample. */
const struct exporter_page *exporter_page_get(struct exporter *x, enum om_dialect d);
void exporter_page_put(const struct exporter_page *p);

/* Free; pages still out live until put.  NULL is a no-op. */
void exporter_free(struct exporter *x);

#endif
