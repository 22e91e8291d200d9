/*
 * grow.c - growable arrays: doubling, with the byte count checked.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "util/grow.h"

/* The doubled capacity that holds need elements of elem bytes, 0 if its
 * byte count does not fit in a size_t. */
static size_t grow_cap(size_t cap, size_t need, size_t elem, size_t first)
{
	size_t c = cap ? cap : (first ? first : 1);
	while (c < need) {
		if (c > SIZE_MAX / 2)
			return 0;
		c *= 2;
	}
	return elem && c > SIZE_MAX / elem ? 0 : c;
}

int grow_array(void **p, size_t *cap, size_t need, size_t elem, size_t first)
{
	struct grow_part part = { p, elem };
	return grow_arrays(&part, 1, cap, need, first);
}

int grow_arrays(const struct grow_part *parts, size_t n, size_t *cap, size_t need, size_t first)
{
	if (need <= *cap || n == 0)
		return 0;
	size_t c = 0;
	for (size_t i = 0; i < n; i++) {
		size_t ci = grow_cap(*cap, need, parts[i].elem, first);
		if (!ci)
			return -ENOMEM;
		c = ci;		/* the same for every part: only the overflow check differs */
	}
	for (size_t i = 0; i < n; i++) {
		void *q = realloc(*parts[i].p, c * parts[i].elem);
		if (!q)
			return -ENOMEM;
		*parts[i].p = q;
	}
	*cap = c;
	return 0;
}
