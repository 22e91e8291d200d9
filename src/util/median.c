/*
 * median.c - the k-th smallest of an array, and its median, by selection (no sort).  The dip
 * detector's pooled jitter is the median of thousands of residual magnitudes an interval.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "util/median.h"

/* The k-th smallest of v[0..n), k < n; reorders v so that v[0..k) <= v[k] <= v[k+1..n).
 * Hoare's selection as Wirth wrote it: the scans stop at values equal to the pivot, so many
 * equal values still split evenly, and the inner loops are a compare and a step (the pooled
 * median of 4096 residuals is a fifth of the detector's time with a costlier partition). */
double median_select(double *v, size_t n, size_t k)
{
	double *lo = v, *hi = v + n - 1, *kth = v + k;
	while (lo < hi) {
		double pivot = *kth;
		double *i = lo, *j = hi;
		do {
			while (*i < pivot)
				i++;
			while (pivot < *j)
				j--;
			if (i <= j) {
				double t = *i;
				*i++ = *j;
				*j = t;
				if (j == v)
					break;	/* not below the array: i > j ends the pass all the same */
				j--;
			}
		} while (i <= j);
		if (j < kth)
			lo = i;
		if (kth < i)
			hi = j;
	}
	return *kth;
}

/* The middle of v[0..n) once the value of rank n / 2 is in place (v[0..n/2) <= v[n/2]): it,
 * or for an even n the mean of it and the largest value below it. */
static double median_middle(const double *v, size_t n)
{
	double upper = v[n / 2];
	if (n % 2)
		return upper;
	double lower = v[0];
	for (size_t i = 1; i < n / 2; i++)
		lower = lower >= v[i] ? lower : v[i];
	return (lower + upper) / 2.0;
}

/* A long array's median by the selection of Floyd and Rivest, in outline: two values taken
 * from a sample of 127 bracket the median (each 12 sample ranks off the sample's median, so
 * that the median falls between them 96% of the time); one branchless pass counts the
 * values below the bracket and moves those inside it to the front; only those (about a
 * fifth) are then selected among. The same value as a selection over all of v: when the
 * bracket misses the middle (the sample was not like the whole), it returns NAN and the
 * caller selects over all. Reorders v. */
enum { MEDIAN_SAMPLE = 127, MEDIAN_HALF = 12, MEDIAN_BRACKET_MIN_N = 1024 };

static double median_bracketed(double *v, size_t n)
{
	_Static_assert(sizeof(double) == sizeof(uint64_t), "a double is 64 bits");
	double sample[MEDIAN_SAMPLE];
	size_t step = n / MEDIAN_SAMPLE;
	for (size_t i = 0; i < MEDIAN_SAMPLE; i++)
		sample[i] = v[i * step];
	size_t mid = MEDIAN_SAMPLE / 2;
	double hi = median_select(sample, MEDIAN_SAMPLE, mid + MEDIAN_HALF);
	double lo = median_select(sample, mid + MEDIAN_HALF, mid - MEDIAN_HALF);
	/* The values are magnitudes, never negative nor NAN: as 64-bit integers their bits sort
	 * as they do, and an integer comparison costs no test of the unordered case. */
	uint64_t lo_bits, width;
	memcpy(&lo_bits, &lo, sizeof lo_bits);
	memcpy(&width, &hi, sizeof width);
	width -= lo_bits;
	/* v[0..inside) holds the values inside, v[inside..i) values outside: each value read is
	 * swapped with the first outside one (itself, or two outside values, when it is
	 * outside), so that v keeps every value for the fallback */
	size_t below = 0, inside = 0;
	for (size_t i = 0; i < n; i++) {
		double value = v[i];
		uint64_t x;
		memcpy(&x, &value, sizeof x);
		below += x < lo_bits;
		v[i] = v[inside];
		v[inside] = value;
		inside += x - lo_bits <= width;
	}
	/* the ranks wanted: n / 2, and for an even n the one below it */
	size_t first = n % 2 ? n / 2 : n / 2 - 1;
	if (below > first || below + inside <= n / 2)
		return NAN;
	median_select(v, inside, n / 2 - below);
	if (n % 2)
		return v[n / 2 - below];
	if (n / 2 - below == 0)
		return NAN;	/* not reached: first >= below */
	return median_middle(v, 2 * (n / 2 - below));
}

double median_of(double *v, size_t n)
{
	if (n >= MEDIAN_BRACKET_MIN_N) {
		double m = median_bracketed(v, n);
		if (!isnan(m))
			return m;
	}
	median_select(v, n, n / 2);
	return median_middle(v, n);
}

