/*
 * wbcum.c - cumulative writeback-loop counters from interval sums.
 *
 * Tasks are a pid-sorted array: an interval's tasks are sorted and merged
 * into it in one pass (a new array only when the set grows), so a sample
 * costs O(tasks) and output comes in pid order as snapshots want it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"
#include "source/wbcum.h"

void wbcum_init(struct wbcum *c)
{
	memset(c, 0, sizeof *c);
}

void wbcum_free(struct wbcum *c)
{
	free(c->task);
	free(c->bdi);
	free(c->cg);
	wbcum_init(c);
}

static int wbcum_cmp_pid(const void *a, const void *b)
{
	const struct wbloop_task *x = *(const struct wbloop_task *const *)a;
	const struct wbloop_task *y = *(const struct wbloop_task *const *)b;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

static void wbcum_task_add(struct wbcum_task *t, const struct wbloop_task *s, uint64_t now_ms)
{
	memcpy(t->comm, s->comm, sizeof t->comm);
	t->paused_ms += s->paused_ms;
	t->pauses += s->pauses;
	t->task_ratelimit_kbps = s->task_ratelimit_kbps;
	t->bdi_devt = wbloop_bdi_devt(s->bdi, &t->bdi_major, &t->bdi_minor);
	t->last_ms = now_ms;
}

/* Merge the interval's tasks (sorted) with the kept ones into a new array,
 * dropping those idle too long. */
static int wbcum_merge_tasks(struct wbcum *c, const struct wbloop *w, uint64_t now_ms,
			     uint64_t keep_ms)
{
	const struct wbloop_task **in = malloc((w->ntask ? w->ntask : 1) * sizeof *in);
	size_t cap = c->ntask + w->ntask;
	struct wbcum_task *out = cap > c->cap_task ? malloc(cap * sizeof *out) : NULL;
	if (!in || (cap > c->cap_task && !out)) {
		free(in);
		free(out);
		return -ENOMEM;
	}
	for (size_t i = 0; i < w->ntask; i++)
		in[i] = &w->task[i];
	qsort(in, w->ntask, sizeof *in, wbcum_cmp_pid);
	/* merging in place works from the back: the result is never shorter
	 * than what is left to read, so write from the end when reusing */
	struct wbcum_task *dst = out ? out : c->task;
	size_t i = c->ntask, j = w->ntask, k = cap;
	while (i > 0 || j > 0) {
		struct wbcum_task t;
		if (j > 0 && (i == 0 || in[j - 1]->pid > c->task[i - 1].pid)) {
			memset(&t, 0, sizeof t);
			t.pid = in[--j]->pid;
			wbcum_task_add(&t, in[j], now_ms);
		} else if (j > 0 && in[j - 1]->pid == c->task[i - 1].pid) {
			t = c->task[--i];
			wbcum_task_add(&t, in[--j], now_ms);
		} else {
			t = c->task[--i];
			if (now_ms - t.last_ms > keep_ms)
				continue;	/* idle too long: its row goes */
		}
		dst[--k] = t;
	}
	size_t n = cap - k;
	if (n)
		memmove(dst, dst + k, n * sizeof *dst);
	if (out) {
		free(c->task);
		c->task = out;
		c->cap_task = cap;
	}
	c->ntask = n;
	free(in);
	return 0;
}

/* Add the interval's BDIs; the caller has made room for all of them. */
static void wbcum_bdis(struct wbcum *c, const struct wbloop *w)
{
	for (size_t i = 0; i < w->nbdi; i++) {
		const struct wbloop_bdi *s = &w->bdi[i];
		size_t k = 0;
		while (k < c->nbdi && strcmp(c->bdi[k].bdi, s->bdi) != 0)
			k++;
		if (k == c->nbdi) {
			struct wbcum_bdi *b = &c->bdi[c->nbdi++];
			memset(b, 0, sizeof *b);
			memcpy(b->bdi, s->bdi, sizeof b->bdi);
			b->devt = wbloop_bdi_devt(b->bdi, &b->major, &b->minor);
		}
		c->bdi[k].throttled_ms += s->throttled_ms;
		c->bdi[k].pauses += s->pauses;
		c->bdi[k].written_pages += s->written_pages;
	}
}

/* The row of cgroup ino, made (in ino order) when new; NULL: no memory. */
static struct wbcum_cgroup *wbcum_cg_row(struct wbcum *c, uint64_t ino)
{
	size_t lo = 0, hi = c->ncg;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (c->cg[mid].ino == ino)
			return &c->cg[mid];
		if (c->cg[mid].ino < ino)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (grow_array((void **)&c->cg, &c->cap_cg, c->ncg + 1, sizeof *c->cg, 16))
		return NULL;
	memmove(&c->cg[lo + 1], &c->cg[lo], (c->ncg - lo) * sizeof *c->cg);
	c->ncg++;
	memset(&c->cg[lo], 0, sizeof c->cg[lo]);
	c->cg[lo].ino = ino;
	return &c->cg[lo];
}

int wbcum_add(struct wbcum *c, const struct wbloop *w, uint64_t now_ms, uint64_t keep_ms)
{
	/* cgroups first: a failure leaves the totals as they were */
	if (grow_array((void **)&c->cg, &c->cap_cg, c->ncg + w->ncg, sizeof *c->cg, 16))
		return -ENOMEM;
	/* BDIs first: a failure there leaves the tasks as they were too */
	if (grow_array((void **)&c->bdi, &c->cap_bdi, c->nbdi + w->nbdi, sizeof *c->bdi, 16))
		return -ENOMEM;
	int rc = wbcum_merge_tasks(c, w, now_ms, keep_ms);
	if (rc)
		return rc;
	wbcum_bdis(c, w);
	for (size_t i = 0; i < w->ncg; i++) {
		struct wbcum_cgroup *g = wbcum_cg_row(c, w->cg[i].ino);	/* room was made */
		g->throttled_ms += w->cg[i].throttled_ms;
		g->pauses += w->cg[i].pauses;
		g->written_pages += w->cg[i].written_pages;
	}
	for (size_t r = 0; r < WBLOOP_NREASON; r++)
		c->written_pages[r] += w->written_pages[r];
	memcpy(c->reason_name, w->reason_name, sizeof c->reason_name);
	c->events += w->events;
	c->lost_events += w->lost_events;
	if (w->has_global) {
		c->has_global = true;
		c->dirty_limit_pages = w->dirty_limit_pages;
	}
	return 0;
}

const struct wbcum_task *wbcum_find_task(const struct wbcum *c, int32_t pid)
{
	size_t lo = 0, hi = c->ntask;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (c->task[mid].pid == pid)
			return &c->task[mid];
		if (c->task[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}
