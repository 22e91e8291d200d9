/*
 * hashidx.c - the hash index of positions (hashidx.h).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "util/grow.h"
#include "util/hashidx.h"

int hashidx_reset(struct hashidx *x, size_t n, size_t min)
{
	size_t cap = min ? min : 16;
	while (cap < 2 * n) {
		if (cap > SIZE_MAX / 4)
			goto fail;
		cap *= 2;
	}
	if (cap != x->cap) {
		size_t had = 0;
		if (grow_array((void **)&x->slot, &had, cap, sizeof *x->slot, cap) < 0)
			goto fail;
		x->cap = cap;
	}
	for (size_t i = 0; i < cap; i++)
		x->slot[i] = SIZE_MAX;
	return 0;
fail:
	hashidx_free(x);
	return -ENOMEM;
}

void hashidx_put(struct hashidx *x, size_t h, size_t pos)
{
	size_t at = hashidx_start(x, h);
	while (x->slot[at] != SIZE_MAX)
		at = (at + 1) & (x->cap - 1);
	x->slot[at] = pos;
}

void hashidx_free(struct hashidx *x)
{
	free(x->slot);
	x->slot = NULL;
	x->cap = 0;
}

size_t hashidx_str(const char *s)
{
	uint64_t h = 14695981039346656037ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return (size_t)h;
}

size_t hashidx_u64(uint64_t v)
{
	return (size_t)((v * 0x9E3779B97F4A7C15ull) >> 17);
}
