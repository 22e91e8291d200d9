/*
 * topk.c - a partial quicksort: only the part of the array that holds the
 * first n items is sorted; the rest is only split.
 */
#include "util/topk.h"

static void topk_swap(struct topk_item *a, struct topk_item *b)
{
	struct topk_item t = *a;
	*a = *b;
	*b = t;
}

static void topk_insertion(const struct topk_order *o, struct topk_item *v, size_t lo, size_t hi)
{
	for (size_t k = lo + 1; k < hi; k++) {
		struct topk_item t = v[k];
		size_t j = k;
		for (; j > lo && topk_before(o, &t, &v[j - 1]); j--)
			v[j] = v[j - 1];
		v[j] = t;
	}
}

/* Split v[lo, hi) around a median-of-three pivot; the pivot's final place. */
static size_t topk_partition(const struct topk_order *o, struct topk_item *v, size_t lo, size_t hi)
{
	size_t mid = lo + (hi - lo) / 2, last = hi - 1;
	if (topk_before(o, &v[last], &v[lo]))
		topk_swap(&v[lo], &v[last]);
	if (topk_before(o, &v[mid], &v[lo]))
		topk_swap(&v[lo], &v[mid]);
	if (topk_before(o, &v[last], &v[mid]))
		topk_swap(&v[mid], &v[last]);
	topk_swap(&v[mid], &v[last]);	/* the pivot waits at the end */
	size_t store = lo;
	for (size_t k = lo; k < last; k++)
		if (topk_before(o, &v[k], &v[last]))
			topk_swap(&v[k], &v[store++]);
	topk_swap(&v[store], &v[last]);
	return store;
}

void topk_select(const struct topk_order *o, struct topk_item *v, size_t lo, size_t hi, size_t n)
{
	size_t end = lo + n < hi && lo + n >= lo ? lo + n : hi;	/* sort up to here */
	/* [lo, hi) holds items still to place; everything before lo is done */
	while (lo < end) {
		if (hi - lo <= 16) {
			topk_insertion(o, v, lo, hi);
			return;
		}
		size_t p = topk_partition(o, v, lo, hi);
		if (p < end) {
			/* the left part and the pivot are all wanted: sort the left part
			 * (the shorter recursion is not guaranteed; its depth is that of
			 * quicksort on the rows wanted) and go on right of the pivot */
			topk_select(o, v, lo, p, p - lo);
			lo = p + 1;
		} else {
			hi = p;	/* only the left part holds wanted items */
		}
	}
}

size_t topk_rank(const struct topk_order *o, const struct topk_item *v, size_t len,
		 const struct topk_item *x)
{
	size_t before = 0;
	for (size_t k = 0; k < len; k++)
		before += topk_before(o, &v[k], x);
	return before;
}
