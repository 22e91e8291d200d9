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
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Append x; when the window is full, the oldest value (tag *next - cap)
 * leaves.  x goes after the values equal to it, so equal values stay in
 * arrival order. */
void sortwin_push(double *sorted, uint8_t *tag, size_t cap, uint8_t *len, uint8_t *next,
		  double x);

/* Windows up to this long are pushed by sortwin_push_short. */
enum { SORTWIN_SHORT = 16 };

/* Where in a full short window's tags (SORTWIN_SHORT bytes readable) the tag is: with SSE2,
 * one compare of all 16 at once. */
static inline size_t sortwin_find_tag16(const uint8_t *tag, size_t cap, uint8_t want)
{
#if defined(__SSE2__)
	__m128i all = _mm_loadu_si128((const __m128i *)(const void *)tag);
	unsigned hit = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(all, _mm_set1_epi8((char)want)));
	return (size_t)__builtin_ctz(hit & ((1u << cap) - 1));
#else
	(void)cap;
	size_t at = 0;
	while (tag[at] != want)
		at++;
	return at;
#endif
}

/* The hole at hole (the leaving value's slot, or the free one after the values) walks to x's
 * place in sorted[0..end), moving the values in between by one; x goes there. */
static inline void sortwin_walk(double *sorted, uint8_t *tag, size_t end, size_t hole,
				uint8_t *next, double x)
{
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

/* sortwin_push for a window of at most SORTWIN_SHORT values, inline (the
 * detector pushes one per device per interval): the oldest value is found
 * by its tag, and the hole it leaves (or the free slot) walks to x's place,
 * moving the values in between by one.  In so short a window that is
 * cheaper than a binary search and two block moves.  tag[] must have
 * SORTWIN_SHORT bytes (those past cap are never looked at). */
static inline void sortwin_push_short(double *sorted, uint8_t *tag, size_t cap, uint8_t *len,
				      uint8_t *next, double x)
{
	size_t end = *len, hole = end; /* not full: the free slot after the values */
	if (end == cap)
		hole = sortwin_find_tag16(tag, cap, (uint8_t)(*next - cap));
	else
		*len = (uint8_t)++end;
	sortwin_walk(sorted, tag, end, hole, next, x);
}

#endif
