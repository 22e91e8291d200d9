/*
 * detect.h - the dip detector: decides, one interval at a time, whether write throughput dipped.
 *
 * Pure: series of rates in, one boolean per interval out, judged against the level the series
 * sustains, its jitter and (when known) the requests completed; doc/dips.md says why.
 * Not: I/O, a clock, printing or look-ahead, so live and replay get the same marks.  Units are
 * the caller's (only dip_params.idle_floor is absolute).  Objects are the caller's to free.
 */
#ifndef WBTOP_DETECT_H
#define WBTOP_DETECT_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

/* Default of --dip: the smallest drop (percent below the centre of the level the series
 * sustains) that counts as a dip. */
#define DIP_DEFAULT_DROP_PCT 8.0
/* A series' level is judged from its last this many valid intervals: a device busy within
 * them may be dipping (a paused writer), not idle. */
#define DIP_BASELINE_INTERVALS 11
/* Default idle floor, for rates in KiB/s (what vmstat bo, iostat and wbtop's derive use): below
 * 64 KiB/s a disk shows journal commits and log writes, not a workload. */
#define DIP_DEFAULT_IDLE_KBPS 64.0

struct dip_params {
	double drop_pct;   /* sensitivity, the user's --dip PERCENT; default DIP_DEFAULT_DROP_PCT */
	double idle_floor; /* rates <= this are "no I/O" and never dip; in the unit fed (the
			    * default, DIP_DEFAULT_IDLE_KBPS, assumes KiB/s); 0 = only zero */
};

/* Fill p with the defaults: drop_pct 10, idle_floor 64 (KiB/s). */
void detect_params_default(struct dip_params *p);

/* Parse the --dip option value ("10", "7.5" or "7.5%"); 0 on success, -EINVAL if it is not a
 * number in (0, 100). p->drop_pct is left unchanged on error. */
int detect_params_parse(struct dip_params *p, const char *text);

/* Streaming detector for ONE series (e.g. system-wide vmstat bo per second). One decision per
 * interval, no look-ahead: the same marks for live and replayed data. */
struct dip_series;

/* A new detector with a copy of *p; NULL if out of memory. */
struct dip_series *detect_series_new(const struct dip_params *p);

/* Free s; NULL is a no-op. */
void detect_series_free(struct dip_series *s);

/* Feed the next interval's value (any unit, a rate >= 0). valid=false means "no sample"
 * (first line / since-boot / gap) and never marks; a negative or non-finite value counts as no
 * sample too. Returns true when this interval is a dip. */
bool detect_series_feed(struct dip_series *s, double value, bool valid);

/* The same, with reqs: the number of requests the interval completed (write I/Os), or a
 * negative or non-finite number if unknown. A fall worth a few requests is not a dip. */
bool detect_series_feed_reqs(struct dip_series *s, double value, double reqs, bool valid);

/* The length in seconds of the intervals fed from now on (0 or not finite: unknown, the
 * default). A single interval short by no more than a writer's pacing tick (a tenth of a
 * second of the level's traffic, counted when that is at least half of --dip) is then not a
 * dip; see doc/dips.md. */
void detect_series_set_interval(struct dip_series *s, double interval_s);

/* Group of devices fed together each interval (e.g. all devices' write throughput), keyed by a
 * stable string per device; devices come and go between intervals. Per-device marks plus an
 * interval mark. Handles devices trading bandwidth under a shared limit. */
struct dip_group;

/* A new, empty group with a copy of *p; NULL if out of memory. */
struct dip_group *detect_group_new(const struct dip_params *p);

/* Free g and every device it tracks; NULL is a no-op. */
void detect_group_free(struct dip_group *g);

/* keys[i], values[i] for n devices present this interval; writes marks[i]; returns true if the
 * interval as a whole dips (the way the hand-marked iostat trace marks all lines of an interval).
 * A key given twice in one interval, or a negative/non-finite value, is "no sample" for that
 * entry. If memory runs out the interval is not judged: all marks false, returns false. */
bool detect_group_feed(struct dip_group *g, const char *const *keys, const double *values,
		       size_t n, bool *marks);

/* The same, with ids[i] (0: none) naming keys[i] for good: two equal nonzero ids are always
 * the same key (as dev_ident's key_serial), so a device is recognised without comparing its
 * key, which is compared only when the id is new. ids may be NULL. */
bool detect_group_feed_ids(struct dip_group *g, const char *const *keys, const uint64_t *ids,
			   const double *values, size_t n, bool *marks);

/* As detect_series_set_interval, for the group's devices and its total. */
void detect_group_set_interval(struct dip_group *g, double interval_s);

/* The same, with reqs[i] the requests device i completed in the interval (negative: unknown);
 * reqs may be NULL (none known). */
bool detect_group_feed_reqs(struct dip_group *g, const char *const *keys, const uint64_t *ids,
			    const double *values, const double *reqs, size_t n, bool *marks);

#endif
