/*
 * sortwin.h - a window of the last cap values (cap <= 255), ascending.
 *
 * The caller owns the arrays: sorted[cap] holds the values in ascending
 * order, tag[cap] the arrival number (mod 256) of each, *len how many are
 * there and *next the tag the next value gets.  Start with *len = 0.
 */
#ifndef WBTOP_SORTWIN_H
#define WBTOP_SORTWIN_H

#include <stddef.h>
#include <stdint.h>

/* Append x; when the window is full, the oldest value (tag *next - cap)
 * leaves.  x goes after the values equal to it, so equal values stay in
 * arrival order. */
void sortwin_push(double *sorted, uint8_t *tag, size_t cap, uint8_t *len, uint8_t *next,
		  double x);

#endif
