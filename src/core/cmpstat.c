/*
 * cmpstat.c - one series of interval rates summed up for a comparison.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/cmpstat.h"

static int cmpstat_order(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The nearest-rank 5th percentile of the n rates in v (sorted in place):
 * always a rate some interval had, never one between two, so "p5 = min"
 * says plainly that a short run has too few intervals for more. */
static double cmpstat_p5(double *v, size_t n)
{
	qsort(v, n, sizeof *v, cmpstat_order);
	size_t rank = (n * 5 + 99) / 100;	/* ceil(n * 5 / 100), at least 1 for n >= 1 */
	return v[rank ? rank - 1 : 0];
}

void cmpstat_compute(const double *kbps, const double *dt_s, size_t n, size_t ndips,
		     struct cmpstat *out)
{
	memset(out, 0, sizeof *out);
	out->dips = ndips;
	out->mean_kbps = out->min_kbps = out->p5_kbps = out->cv_pct = out->dips_per_min = NAN;
	double kb = 0;
	double *kept = malloc((n ? n : 1) * sizeof *kept);
	for (size_t i = 0; i < n; i++) {
		if (!(dt_s[i] > 0) || !isfinite(kbps[i]) || !isfinite(dt_s[i]))
			continue;
		if (kept)
			kept[out->n] = kbps[i];
		out->n++;
		out->secs += dt_s[i];
		kb += kbps[i] * dt_s[i];
		if (out->n == 1 || kbps[i] < out->min_kbps)
			out->min_kbps = kbps[i];
	}
	if (out->n == 0) {
		free(kept);
		return;
	}
	/* KiB over seconds, as a person dividing bytes by time would: intervals
	 * stretched by a stall weigh by their length */
	out->mean_kbps = kb / out->secs;
	/* a second pass: the sum of squares about the mean loses no digits
	 * the way sum(x^2) - n*mean^2 does for a steady writer */
	double ss = 0;
	for (size_t i = 0; i < n; i++) {
		if (dt_s[i] > 0 && isfinite(kbps[i]) && isfinite(dt_s[i]))
			ss += dt_s[i] * (kbps[i] - out->mean_kbps) * (kbps[i] - out->mean_kbps);
	}
	double sd = sqrt(ss / out->secs);
	/* relative, so a fast and a slow device compare: "a lot more erratic" */
	out->cv_pct = out->mean_kbps > 0 ? sd / out->mean_kbps * 100 : NAN;
	out->p5_kbps = kept ? cmpstat_p5(kept, out->n) : NAN;
	out->dips_per_min = (double)ndips / (out->secs / 60);
	free(kept);
}

double cmpstat_change_pct(double a, double b)
{
	if (!isfinite(a) || !isfinite(b))
		return NAN;
	if (a == b)
		return 0;
	if (a == 0)
		return NAN;
	return (b - a) / fabs(a) * 100;
}

static double cmpstat_get_secs(const struct cmpstat *s) { return s->secs; }
static double cmpstat_get_n(const struct cmpstat *s) { return (double)s->n; }
static double cmpstat_get_mean(const struct cmpstat *s) { return s->mean_kbps; }
static double cmpstat_get_min(const struct cmpstat *s) { return s->min_kbps; }
static double cmpstat_get_p5(const struct cmpstat *s) { return s->p5_kbps; }
static double cmpstat_get_cv(const struct cmpstat *s) { return s->cv_pct; }
static double cmpstat_get_dpm(const struct cmpstat *s) { return s->dips_per_min; }

/* Text shows MiB/s as "MB/s", as iostat -m does; JSON keeps KiB/s. */
const struct cmpstat_field cmpstat_fields[] = {
	{ "secs", "duration s", 1, 1, cmpstat_get_secs },
	{ "intervals", "intervals", 1, 0, cmpstat_get_n },
	{ "mean_kbps", "mean MB/s", 1.0 / 1024, 2, cmpstat_get_mean },
	{ "min_kbps", "min MB/s", 1.0 / 1024, 2, cmpstat_get_min },
	{ "p5_kbps", "p5 MB/s", 1.0 / 1024, 2, cmpstat_get_p5 },
	{ "cv_pct", "cv %", 1, 1, cmpstat_get_cv },
	{ "dips_per_min", "dips/min", 1, 2, cmpstat_get_dpm },
};
const size_t cmpstat_nfields = sizeof cmpstat_fields / sizeof cmpstat_fields[0];
