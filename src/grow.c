/*
 * grow.c - growable arrays: doubling, with the byte count checked.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "grow.h"

int grow_array(void **p, size_t *cap, size_t need, size_t elem, size_t first)
{
	if (need <= *cap)
		return 0;
	size_t c = *cap ? *cap : (first ? first : 1);
	while (c < need) {
		if (c > SIZE_MAX / 2)
			return -ENOMEM;
		c *= 2;
	}
	if (elem && c > SIZE_MAX / elem)
		return -ENOMEM;
	void *q = realloc(*p, c * elem);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = c;
	return 0;
}
