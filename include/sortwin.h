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

/* Windows up to this long are pushed by sortwin_push_short. */
enum { SORTWIN_SHORT = 16 };

/* sortwin_push for a window of at most SORTWIN_SHORT values, inline (the
 * detector pushes one per device per interval): the oldest value is found
 * by its tag, and the hole it leaves (or the free slot) walks to x's place,
 * moving the values in between by one.  In so short a window that is
 * cheaper than a binary search and two block moves. */
static inline void sortwin_push_short(double *sorted, uint8_t *tag, size_t cap, uint8_t *len,
				      uint8_t *next, double x)
{
	size_t end = *len, hole = end; /* not full: the free slot after the values */
	if (end == cap) {
		uint8_t oldest = (uint8_t)(*next - cap);
		for (hole = 0; tag[hole] != oldest; hole++)
			;
	} else {
		*len = (uint8_t)++end;
	}
	for (; hole > 0 && sorted[hole - 1] > x; hole--) {
		sorted[hole] = sorted[hole - 1];
		tag[hole] = tag[hole - 1];
	}
	for (; hole + 1 < end && sorted[hole + 1] <= x; hole++) {
		sorted[hole] = sorted[hole + 1];
		tag[hole] = tag[hole + 1];
	}
	sorted[hole] = x;
	tag[hole] = *next;
	*next = (uint8_t)(*next + 1);
}

#endif
