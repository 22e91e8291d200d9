/*
 * topk.h - the first rows of an order without sorting them all.
 *
 * topk_select puts the first n items of an array in order at its front,
 * the rest split around them unsorted: about one pass plus the sorting of
 * n; asked for more, it continues where it stopped.  Order: by key
 * (descending unless asc), ties by rank ascending; rev reverses it all.
 * Ranks unique, no NaN keys.  Pure: no allocation, no output.
 */
#ifndef WBTOP_TOPK_H
#define WBTOP_TOPK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct topk_item {
	double key;
	uint32_t rank;		/* unique: breaks ties of key */
	uint32_t idx;		/* the caller's: what the item is */
};

struct topk_order {
	bool asc;		/* keys go up */
	bool rev;		/* the whole order reversed */
};

/* Whether a comes before b in order o (false for a and b the same item). */
static inline bool topk_before(const struct topk_order *o, const struct topk_item *a,
			       const struct topk_item *b)
{
	if (o->rev) {
		const struct topk_item *t = a;
		a = b;
		b = t;
	}
	if (a->key != b->key)
		return o->asc ? a->key < b->key : a->key > b->key;
	return a->rank < b->rank;
}

/* Put the first n items of v[lo, hi) in order o at v[lo, lo + n) (all of them if n is larger),
 * given that v[0, lo) already holds the items before them, in order. */
void topk_select(const struct topk_order *o, struct topk_item *v, size_t lo, size_t hi, size_t n);

/* How many of v[0, len) come before item x in order o. */
size_t topk_rank(const struct topk_order *o, const struct topk_item *v, size_t len,
		 const struct topk_item *x);

#endif
