/*
 * sortwin.c - a window of the last values, kept sorted.  The detector's
 * baselines and jitters are medians of recent values; keeping each window
 * sorted as values come and go makes a median a read, not a selection.
 */
#include <string.h>

#include "sortwin.h"

/* First index of ascending s[0..n) whose value is above x. */
static size_t sortwin_upper_bound(const double *s, size_t n, double x)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s[mid] <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Append x to a window of the last cap values, sorted[] ascending with each value's arrival
 * tag in tag[]. When full, the oldest value (the tag cap arrivals back) leaves. x goes after
 * the values equal to it, and only the values between the leaving one's rank and x's move,
 * by one: in a short window by walking the hole left by the leaving value (or the free slot)
 * to x's place (sortwin_push_short), in a long one (where x lands further away) by a binary
 * search and a block move. Both give the same order. */
void sortwin_push(double *sorted, uint8_t *tag, size_t cap, uint8_t *len, uint8_t *next,
		  double x)
{
	if (cap <= SORTWIN_SHORT) {
		sortwin_push_short(sorted, tag, cap, len, next, x);
		return;
	}
	size_t n = *len, hole = n; /* n < cap: the free slot after the values */
	if (n == cap) {
		uint8_t oldest = (uint8_t)(*next - cap);
		hole = (size_t)((const uint8_t *)memchr(tag, oldest, cap) - tag);
	} else {
		*len = (uint8_t)(n + 1);
	}
	size_t end = *len; /* values now in [0, end), the hole among them */
	size_t at = sortwin_upper_bound(sorted, hole, x); /* below the hole */
	if (at == hole) /* not below: above it, counting the hole's own slot */
		at = hole + sortwin_upper_bound(sorted + hole + 1, end - hole - 1, x);
	if (at > hole) {
		memmove(sorted + hole, sorted + hole + 1, (at - hole) * sizeof *sorted);
		memmove(tag + hole, tag + hole + 1, at - hole);
	} else {
		memmove(sorted + at + 1, sorted + at, (hole - at) * sizeof *sorted);
		memmove(tag + at + 1, tag + at, hole - at);
	}
	hole = at;
	sorted[hole] = x;
	tag[hole] = *next;
	*next = (uint8_t)(*next + 1);
}

