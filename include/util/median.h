/*
 * median.h - selection of the k-th smallest value and the median of an array of doubles,
 * reordering it.  No NAN in the array.
 */
#ifndef WBTOP_MEDIAN_H
#define WBTOP_MEDIAN_H

#include <stddef.h>

/* The k-th smallest of v[0..n), k < n; reorders v so that v[0..k) <= v[k] <= v[k+1..n). */
double median_select(double *v, size_t n, size_t k);

/* Median of v[0..n), n > 0: for an even n, the mean of the two middle values. Reorders v.
 * From 1024 values on, every value must be zero or positive (magnitudes): the long way
 * compares their bits as integers. */
double median_of(double *v, size_t n);

#endif
