/*
 * hashidx.h - an open-addressing hash index of positions in the caller's
 * array: the caller keeps the elements and keys, the index only where each
 * is, so a lookup is a few probes instead of a scan.  Linear probing, at
 * most half full; entries are only added, and the whole index is rebuilt
 * (hashidx_reset, then hashidx_put of each) when the array grows or
 * elements move.  Without memory for it, cap is 0: search linearly.
 */
#ifndef WBTOP_HASHIDX_H
#define WBTOP_HASHIDX_H

#include <stddef.h>
#include <stdint.h>

struct hashidx {
	size_t *slot;		/* element positions; SIZE_MAX = empty */
	size_t cap;		/* a power of two, or 0: no index */
};

/* Empty the index, with room for n elements at most half full (and at
 * least min slots).  0, or -ENOMEM: the index is then dropped (cap 0). */
int hashidx_reset(struct hashidx *x, size_t n, size_t min);
/* Note element pos, whose key hashes to h (the index must have room). */
void hashidx_put(struct hashidx *x, size_t h, size_t pos);
/* The elements whose key may hash to h, one per call: start with *at =
 * hashidx_start(x, h); SIZE_MAX when there are no more. */
static inline size_t hashidx_start(const struct hashidx *x, size_t h)
{
	return h & (x->cap - 1);
}
static inline size_t hashidx_next(const struct hashidx *x, size_t *at)
{
	size_t pos = x->slot[*at];
	*at = (*at + 1) & (x->cap - 1);
	return pos;
}
void hashidx_free(struct hashidx *x);

/* Hashes for the keys in use: a string (FNV-1a: short keys, no adversary)
 * and a 64-bit number (Fibonacci hashing, high bits). */
size_t hashidx_str(const char *s);
size_t hashidx_u64(uint64_t v);

#endif
