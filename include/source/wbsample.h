/*
 * wbsample.h - the kernel's writeback loop as values of a live snapshot (part of the
 * live source, not a view): throttling from the tracepoints (wbtrace.h), debugfs's
 * per-device state (bdistat.h), put in with snapshot_add_x under snapshot.h's kinds;
 * counters as totals since the start, gauges as read.
 */
#ifndef WBTOP_WBSAMPLE_H
#define WBTOP_WBSAMPLE_H

#include <stddef.h>

#include "core/snapshot.h"

struct wbsample;
struct wbcum;

/* Start both parts.  0 and *out when at least one works (wbsample_note
 * then says what is missing and why); a negative errno and one line in why
 * when neither does. */
int wbsample_open(struct wbsample **out, char *why, size_t whylen);

/* What is missing and why, "" when nothing is.  Valid while ws lives. */
const char *wbsample_note(const struct wbsample *ws);

/* Add this sample's values to out (its mono_ns and page_size set).  0 or a
 * negative errno (then out has some of them). */
int wbsample_read(struct wbsample *ws, struct snapshot *out);

/* The trace totals (comms, BDI names), NULL without tracing.  Valid until
 * the next read. */
const struct wbcum *wbsample_totals(const struct wbsample *ws);

/* Stop tracing, remove the instance, free; NULL is a no-op. */
void wbsample_close(struct wbsample *ws);

#endif
