/*
 * tally.h - the exporter's throttling counters since its start: pauses and
 * throttled time per device, per cgroup and per command name, from the
 * trace's values of each live sample (snapshot.h's SNAP_XDEV, SNAP_XCG and
 * SNAP_XTASK kinds).  Each family is capped at its top N rows by throttled
 * time, then one "other" row.  A row that falls out of the top N leaves what
 * its series counted to "other", and a row that comes in is shown at 0
 * first and takes the counts it came in with at the next sample: "other"
 * only grows, no total ever goes down, and a new series starts at 0, so a
 * scraper's increase() over a row or the family misses nothing.  Tasks come and go between
 * samples; what a task paused is counted under its name when it is gone.
 *
 * Pure: fed snapshots, read by the exporter; no files, no clock.
 */
#ifndef WBTOP_TALLY_H
#define WBTOP_TALLY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/snapshot.h"

enum tally_family { TALLY_DEV, TALLY_CG, TALLY_COMM, TALLY_NFAM };

/* One row: its label value, and its counts in milliseconds and pauses. */
struct tally_row {
	const char *key;
	uint64_t ms, pauses;
};

struct tally;

/* A tally keeping top_n rows a family (at least 1).  NULL when out of memory. */
struct tally *tally_new(size_t top_n);
void tally_free(struct tally *t);

/* Count what cur's trace values add to prev's (NULL for the first sample: all of cur's,
 * which the trace counted from its start).  A sample without the trace counts nothing.
 * 0, or -ENOMEM (then part of it is counted). */
int tally_feed(struct tally *t, const struct snapshot *prev, const struct snapshot *cur);

/* Whether the last sample fed had the trace's values. */
bool tally_traced(const struct tally *t);

/* The rows of family f shown now, largest first (*rows valid until the next feed), and
 * the "other" row's counts in *other.  Returns the number of rows. */
size_t tally_rows(const struct tally *t, enum tally_family f, const struct tally_row **rows,
		  struct tally_row *other);

#endif
