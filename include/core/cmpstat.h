/*
 * cmpstat.h - the figures a comparison of runs rests on, from one series of
 * interval rates: how long, how many intervals, the mean, the minimum, the
 * 5th percentile, the coefficient of variation and the dips per minute; and
 * the change in percent between two runs' figures.
 *
 * Pure: arrays in, numbers out; no files, no clock.  Reading recordings
 * into series is series.h; the tables are compare.h.
 */
#ifndef WBTOP_CMPSTAT_H
#define WBTOP_CMPSTAT_H

#include <stddef.h>

struct cmpstat {
	double secs;		/* sum of the intervals' lengths */
	size_t n;		/* intervals */
	double mean_kbps;	/* KiB over secs: a long interval weighs more */
	double min_kbps;	/* the slowest interval */
	double p5_kbps;		/* nearest rank: 5% of intervals are at or below it */
	double cv_pct;		/* time-weighted standard deviation over the mean, in % */
	double dips_per_min;
	size_t dips;
};

/* The figures of n intervals: kbps[i] over dt_s[i] seconds (intervals of
 * no length or a non-finite rate are left out), of which ndips dipped.
 * With no interval left every figure is NAN but n, dips and secs (0). */
void cmpstat_compute(const double *kbps, const double *dt_s, size_t n, size_t ndips,
		     struct cmpstat *out);

/* The change from a to b in percent of a: +0 when they are equal (zero
 * included), NAN when a is 0 and b is not or either is not finite. */
double cmpstat_change_pct(double a, double b);

/* The figures of struct cmpstat as a table, one row each: the compare
 * tables and their JSON read it, so a figure is added in one place. */
struct cmpstat_field {
	const char *name;	/* JSON key: "mean_kbps" */
	const char *title;	/* text row: "mean MB/s" */
	double scale;		/* text shows value * scale */
	int decimals;		/* text decimals */
	double (*get)(const struct cmpstat *s);
};
extern const struct cmpstat_field cmpstat_fields[];
extern const size_t cmpstat_nfields;

#endif
