/*
 * grow.h - make room in a growable array, the one way every module does it.
 *
 * Capacity doubles (from a first size), so a growing set costs O(n) in all
 * and a steady one never reallocates.  The byte count is checked for
 * overflow: a size_t that wrapped would allocate too little.
 */
#ifndef WBTOP_GROW_H
#define WBTOP_GROW_H

#include <stddef.h>

/* Room for need elements of elem bytes at *p, whose capacity is *cap
 * elements (first: the capacity of the first allocation).  Existing
 * elements are kept.  0, or -ENOMEM (allocation failed, or the size does
 * not fit in a size_t) with *p and *cap unchanged. */
int grow_array(void **p, size_t *cap, size_t need, size_t elem, size_t first);

/* One of several arrays indexed alike, sharing one capacity. */
struct grow_part {
	void **p;
	size_t elem;		/* bytes per element */
};

/* Room for need elements in each of the n arrays of parts, whose common
 * capacity is *cap (first: the capacity of the first allocation), as
 * grow_array.  0, or -ENOMEM with *cap unchanged: an array that did grow
 * keeps its new, larger block, so every array still holds *cap elements. */
int grow_arrays(const struct grow_part *parts, size_t n, size_t *cap, size_t need, size_t first);

#endif
