/*
 * snapshot.c - storage for one sample: allocation, copy, device order.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "snapshot.h"

void snapshot_init(struct snapshot *s)
{
	memset(s, 0, sizeof *s);
	for (size_t i = 0; i < SNAP_NKNOBS; i++)
		s->knob[i] = -1;
}

void snapshot_free(struct snapshot *s)
{
	free(s->dev);
	free(s->proc);
	s->dev = NULL;
	s->proc = NULL;
	s->ndev = s->cap_dev = 0;
	s->nproc = s->cap_proc = 0;
}

int snapshot_reserve_procs(struct snapshot *s, size_t n)
{
	if (n <= s->cap_proc)
		return 0;
	size_t cap = s->cap_proc ? s->cap_proc : 64;
	while (cap < n)
		cap *= 2;
	struct proc_counters *p = realloc(s->proc, cap * sizeof *p);
	if (!p)
		return -ENOMEM;
	s->proc = p;
	s->cap_proc = cap;
	return 0;
}

int snapshot_reserve(struct snapshot *s, size_t n)
{
	if (n <= s->cap_dev)
		return 0;
	/* Grow geometrically so a growing device set costs O(n) overall;
	 * in steady state the array is never reallocated. */
	size_t cap = s->cap_dev ? s->cap_dev : 16;
	while (cap < n)
		cap *= 2;
	struct dev_counters *d = realloc(s->dev, cap * sizeof *d);
	if (!d)
		return -ENOMEM;
	s->dev = d;
	s->cap_dev = cap;
	return 0;
}

int snapshot_copy(struct snapshot *dst, const struct snapshot *src)
{
	if (snapshot_reserve(dst, src->ndev) < 0 || snapshot_reserve_procs(dst, src->nproc) < 0)
		return -ENOMEM;
	struct dev_counters *keep = dst->dev;
	struct proc_counters *keep_proc = dst->proc;
	size_t keep_cap = dst->cap_dev, keep_cap_proc = dst->cap_proc;
	*dst = *src;
	dst->dev = keep;
	dst->cap_dev = keep_cap;
	dst->proc = keep_proc;
	dst->cap_proc = keep_cap_proc;
	if (src->ndev)
		memcpy(dst->dev, src->dev, src->ndev * sizeof *src->dev);
	if (src->nproc)
		memcpy(dst->proc, src->proc, src->nproc * sizeof *src->proc);
	return 0;
}

static int snapshot_dev_cmp(const void *a, const void *b)
{
	const struct dev_counters *x = a, *y = b;
	if (x->major != y->major)
		return x->major < y->major ? -1 : 1;
	if (x->minor != y->minor)
		return x->minor < y->minor ? -1 : 1;
	return 0;
}

void snapshot_sort_devs(struct snapshot *s)
{
	for (size_t i = 1; i < s->ndev; i++) {
		if (snapshot_dev_cmp(&s->dev[i - 1], &s->dev[i]) > 0) {
			qsort(s->dev, s->ndev, sizeof *s->dev, snapshot_dev_cmp);
			return;
		}
	}
}

const struct dev_counters *snapshot_find_dev(const struct snapshot *s, uint32_t major, uint32_t minor)
{
	struct dev_counters key = { .major = major, .minor = minor };
	return bsearch(&key, s->dev, s->ndev, sizeof *s->dev, snapshot_dev_cmp);
}
