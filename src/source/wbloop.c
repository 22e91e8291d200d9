/*
 * wbloop.c - sums of one interval of writeback tracepoint events.
 *
 * Pure bookkeeping: each event finds its task, BDI and cgroup row through a
 * hash index and adds to it.  No I/O, no clock, no allocation once the
 * tables have grown to the interval's number of distinct keys.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"
#include "source/wbloop.h"

void wbloop_init(struct wbloop *w)
{
	memset(w, 0, sizeof *w);
}

static void wbloop_index_free(struct wbloop_index *ix)
{
	free(ix->key);
	free(ix->slot);
	memset(ix, 0, sizeof *ix);
}

void wbloop_free(struct wbloop *w)
{
	free(w->task);
	free(w->bdi);
	free(w->cg);
	free(w->dom);
	wbloop_index_free(&w->task_ix);
	wbloop_index_free(&w->bdi_ix);
	wbloop_index_free(&w->cg_ix);
	wbloop_init(w);
}

void wbloop_reset(struct wbloop *w)
{
	w->ntask = w->nbdi = w->ncg = w->ndom = 0;
	w->has_global = false;
	w->dirty_limit_pages = w->dirty_thresh_pages = w->bg_thresh_pages = 0;
	memset(w->written_pages, 0, sizeof w->written_pages);
	w->events = w->lost_events = w->bad_events = 0;
	/* an emptied index is all zero slots; its arrays are kept */
	struct wbloop_index *ixs[] = { &w->task_ix, &w->bdi_ix, &w->cg_ix };
	for (size_t i = 0; i < 3; i++)
		if (ixs[i]->cap)
			memset(ixs[i]->slot, 0, ixs[i]->cap * sizeof *ixs[i]->slot);
}

/* 64-bit mix so that neighbouring pids spread over the table. */
static uint64_t wbloop_mix(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return k;
}

static uint64_t wbloop_name_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;	/* FNV-1a */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

/* Room for one more of n items; 0 or -ENOMEM. */
static int wbloop_grow(void **arr, size_t *cap, size_t n, size_t item)
{
	return grow_array(arr, cap, n + 1, item, 16);
}

/* Insert key -> slot (an index into the table) into ix, rebuilt at twice
 * the size when half full; rebuild needs every key, so the keys of the
 * live slots are passed in. */
static int wbloop_index_rebuild(struct wbloop_index *ix, size_t cap, const uint64_t *keys, size_t n)
{
	uint64_t *k = calloc(cap, sizeof *k);
	uint32_t *s = calloc(cap, sizeof *s);
	if (!k || !s) {
		free(k);
		free(s);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		size_t at = wbloop_mix(keys[i]) & (cap - 1);
		while (s[at])
			at = (at + 1) & (cap - 1);
		k[at] = keys[i];
		s[at] = (uint32_t)(i + 1);
	}
	free(ix->key);
	free(ix->slot);
	ix->key = k;
	ix->slot = s;
	ix->cap = cap;
	return 0;
}

/* The probe position of key: its slot, or the empty place to put it. */
static size_t wbloop_index_probe(const struct wbloop_index *ix, uint64_t key,
				 bool (*same)(const struct wbloop *, size_t, const void *),
				 const struct wbloop *w, const void *what)
{
	size_t at = wbloop_mix(key) & (ix->cap - 1);
	while (ix->slot[at]) {
		if (ix->key[at] == key && same(w, ix->slot[at] - 1, what))
			return at;
		at = (at + 1) & (ix->cap - 1);
	}
	return at;
}

static bool wbloop_same_task(const struct wbloop *w, size_t i, const void *what)
{
	return w->task[i].pid == *(const int32_t *)what;
}

static bool wbloop_same_bdi(const struct wbloop *w, size_t i, const void *what)
{
	return strcmp(w->bdi[i].bdi, what) == 0;
}

static bool wbloop_same_cg(const struct wbloop *w, size_t i, const void *what)
{
	return w->cg[i].ino == *(const uint64_t *)what;
}

/* Find or add the row of key in a table of n rows; its index, or -ENOMEM.
 * keyof gives the key of row i for a rebuild. */
struct wbloop_table {
	struct wbloop_index *ix;
	size_t *n;
	bool (*same)(const struct wbloop *, size_t, const void *);
	uint64_t (*keyof)(const struct wbloop *, size_t);
	int (*add)(struct wbloop *, const void *);	/* appends the row; 0 or -ENOMEM */
};

static uint64_t wbloop_key_task(const struct wbloop *w, size_t i)
{
	return (uint64_t)(uint32_t)w->task[i].pid;
}

static uint64_t wbloop_key_bdi(const struct wbloop *w, size_t i)
{
	return wbloop_name_hash(w->bdi[i].bdi);
}

static uint64_t wbloop_key_cg(const struct wbloop *w, size_t i)
{
	return w->cg[i].ino;
}

static int wbloop_append_task(struct wbloop *w, const void *what)
{
	int rc = wbloop_grow((void **)&w->task, &w->cap_task, w->ntask, sizeof *w->task);
	if (rc)
		return rc;
	struct wbloop_task *t = &w->task[w->ntask++];
	memset(t, 0, sizeof *t);
	t->pid = *(const int32_t *)what;
	return 0;
}

static int wbloop_append_bdi(struct wbloop *w, const void *what)
{
	int rc = wbloop_grow((void **)&w->bdi, &w->cap_bdi, w->nbdi, sizeof *w->bdi);
	if (rc)
		return rc;
	struct wbloop_bdi *b = &w->bdi[w->nbdi++];
	memset(b, 0, sizeof *b);
	snprintf(b->bdi, sizeof b->bdi, "%s", (const char *)what);
	return 0;
}

static int wbloop_append_cg(struct wbloop *w, const void *what)
{
	int rc = wbloop_grow((void **)&w->cg, &w->cap_cg, w->ncg, sizeof *w->cg);
	if (rc)
		return rc;
	struct wbloop_cgroup *c = &w->cg[w->ncg++];
	memset(c, 0, sizeof *c);
	c->ino = *(const uint64_t *)what;
	return 0;
}

static long wbloop_lookup(struct wbloop *w, const struct wbloop_table *t, uint64_t key,
			  const void *what, bool create)
{
	if (!create) {
		if (!t->ix->cap)
			return -ENOENT;
		size_t at = wbloop_index_probe(t->ix, key, t->same, w, what);
		return t->ix->slot[at] ? (long)t->ix->slot[at] - 1 : -ENOENT;
	}
	if (!t->ix->cap || (*t->n + 1) * 2 > t->ix->cap) {
		size_t cap = t->ix->cap ? t->ix->cap * 2 : 64;
		uint64_t *keys = malloc((*t->n ? *t->n : 1) * sizeof *keys);
		if (!keys)
			return -ENOMEM;
		for (size_t i = 0; i < *t->n; i++)
			keys[i] = t->keyof(w, i);
		int rc = wbloop_index_rebuild(t->ix, cap, keys, *t->n);
		free(keys);
		if (rc)
			return rc;
	}
	size_t at = wbloop_index_probe(t->ix, key, t->same, w, what);
	if (t->ix->slot[at])
		return (long)t->ix->slot[at] - 1;
	int rc = t->add(w, what);
	if (rc)
		return rc;
	t->ix->key[at] = key;
	t->ix->slot[at] = (uint32_t)*t->n;
	return (long)*t->n - 1;
}

static long wbloop_task_row(struct wbloop *w, int32_t pid, bool create)
{
	const struct wbloop_table t = { &w->task_ix, &w->ntask, wbloop_same_task,
					wbloop_key_task, wbloop_append_task };
	return wbloop_lookup(w, &t, (uint64_t)(uint32_t)pid, &pid, create);
}

static long wbloop_bdi_row(struct wbloop *w, const char *bdi, bool create)
{
	char name[32];	/* the row keeps 31 bytes */
	size_t n = bdi ? strnlen(bdi, sizeof name - 1) : 0;
	memcpy(name, bdi ? bdi : "", n);
	name[n] = '\0';
	const struct wbloop_table t = { &w->bdi_ix, &w->nbdi, wbloop_same_bdi,
					wbloop_key_bdi, wbloop_append_bdi };
	return wbloop_lookup(w, &t, wbloop_name_hash(name), name, create);
}

static long wbloop_cg_row(struct wbloop *w, uint64_t ino, bool create)
{
	const struct wbloop_table t = { &w->cg_ix, &w->ncg, wbloop_same_cg,
					wbloop_key_cg, wbloop_append_cg };
	return wbloop_lookup(w, &t, ino, &ino, create);
}

int wbloop_add_bdp(struct wbloop *w, const struct wbloop_bdp *ev)
{
	long ti = wbloop_task_row(w, ev->pid, true);
	long bi = ti < 0 ? ti : wbloop_bdi_row(w, ev->bdi, true);
	long ci = bi < 0 || !ev->cgroup_ino ? bi : wbloop_cg_row(w, ev->cgroup_ino, true);
	if (ti < 0 || bi < 0 || ci < 0)
		return -ENOMEM;
	/* a decision with pause <= 0 let the task go on without sleeping */
	uint64_t paused_ms = ev->pause_ms > 0 ? (uint64_t)ev->pause_ms : 0;
	uint32_t slept = ev->pause_ms > 0;
	struct wbloop_task *t = &w->task[ti];
	t->paused_ms += paused_ms;
	t->pauses += slept;
	t->decisions++;
	t->task_ratelimit_kbps = ev->task_ratelimit_kbps;
	memcpy(t->bdi, w->bdi[bi].bdi, sizeof t->bdi);
	t->cgroup_ino = ev->cgroup_ino;
	struct wbloop_bdi *b = &w->bdi[bi];
	b->throttled_ms += paused_ms;
	b->pauses += slept;
	b->has_bdp = true;
	b->limit_pages = ev->limit_pages;
	b->setpoint_pages = ev->setpoint_pages;
	b->dirty_pages = ev->dirty_pages;
	b->wb_setpoint_pages = ev->wb_setpoint_pages;
	b->wb_dirty_pages = ev->wb_dirty_pages;
	b->dirty_ratelimit_kbps = ev->dirty_ratelimit_kbps;
	if (ev->cgroup_ino) {
		w->cg[ci].throttled_ms += paused_ms;
		w->cg[ci].pauses += slept;
	}
	w->events++;
	return 0;
}

int wbloop_add_bw(struct wbloop *w, const struct wbloop_bw *ev)
{
	long bi = wbloop_bdi_row(w, ev->bdi, true);
	if (bi < 0)
		return -ENOMEM;
	struct wbloop_bdi *b = &w->bdi[bi];
	bool root = ev->cgroup_ino <= 1;
	w->events++;
	/* each domain's latest estimate, for the device's and the cgroup's sums */
	size_t di = 0;
	while (di < w->ndom && !(w->dom[di].bdi_row == (uint32_t)bi &&
				 w->dom[di].cgroup_ino == (root ? 1 : ev->cgroup_ino)))
		di++;
	if (di == w->ndom) {
		if (grow_array((void **)&w->dom, &w->cap_dom, w->ndom + 1, sizeof *w->dom, 16))
			return -ENOMEM;
		w->ndom++;
		w->dom[di].bdi_row = (uint32_t)bi;
		w->dom[di].cgroup_ino = root ? 1 : ev->cgroup_ino;
	}
	w->dom[di].write_bw_kbps = ev->write_bw_kbps;
	if (b->bw_root && !root)
		return 0;
	b->has_bw = true;
	b->bw_root = root;
	b->write_bw_kbps = ev->write_bw_kbps;
	b->avg_write_bw_kbps = ev->avg_write_bw_kbps;
	b->dirty_rate_kbps = ev->dirty_rate_kbps;
	b->dirty_ratelimit_kbps = ev->dirty_ratelimit_kbps;
	b->balanced_ratelimit_kbps = ev->balanced_ratelimit_kbps;
	return 0;
}

int wbloop_add_written(struct wbloop *w, const char *bdi, int64_t nr_pages, int reason,
		       uint64_t cgroup_ino)
{
	long bi = wbloop_bdi_row(w, bdi, true);
	long ci = bi < 0 || !cgroup_ino ? bi : wbloop_cg_row(w, cgroup_ino, true);
	if (bi < 0 || ci < 0)
		return -ENOMEM;
	/* nr_pages is a long in the kernel; a negative one is not a write */
	uint64_t pages = nr_pages > 0 ? (uint64_t)nr_pages : 0;
	size_t slot = reason >= 0 && reason < WBLOOP_NREASON ? (size_t)reason : WBLOOP_NREASON - 1;
	w->written_pages[slot] += pages;
	w->bdi[bi].written_pages += pages;
	if (cgroup_ino)
		w->cg[ci].written_pages += pages;
	w->events++;
	return 0;
}

void wbloop_add_global(struct wbloop *w, uint64_t dirty_limit_pages, uint64_t dirty_thresh_pages,
		       uint64_t bg_thresh_pages)
{
	w->has_global = true;
	w->dirty_limit_pages = dirty_limit_pages;
	w->dirty_thresh_pages = dirty_thresh_pages;
	w->bg_thresh_pages = bg_thresh_pages;
	w->events++;
}

const struct wbloop_bdi *wbloop_find_bdi(const struct wbloop *w, const char *bdi)
{
	long i = wbloop_bdi_row((struct wbloop *)w, bdi, false);
	return i < 0 ? NULL : &w->bdi[i];
}

const struct wbloop_task *wbloop_find_task(const struct wbloop *w, int32_t pid)
{
	long i = wbloop_task_row((struct wbloop *)w, pid, false);
	return i < 0 ? NULL : &w->task[i];
}

bool wbloop_bdi_devt(const char *bdi, uint32_t *major, uint32_t *minor)
{
	uint64_t v[2] = { 0, 0 };
	const char *p = bdi;
	for (int k = 0; k < 2; k++) {
		if (*p < '0' || *p > '9')
			return false;
		for (; *p >= '0' && *p <= '9'; p++) {
			v[k] = v[k] * 10 + (uint64_t)(*p - '0');
			if (v[k] > UINT32_MAX)
				return false;
		}
		if (*p != (k == 0 ? ':' : '\0'))
			return false;
		p++;
	}
	*major = (uint32_t)v[0];
	*minor = (uint32_t)v[1];
	return true;
}

bool wbloop_bdi_bw_kbps(const struct wbloop *w, size_t bdi_row, uint64_t *out)
{
	bool any = false;
	*out = 0;
	for (size_t i = 0; i < w->ndom; i++)
		if (w->dom[i].bdi_row == bdi_row) {
			*out += w->dom[i].write_bw_kbps;
			any = true;
		}
	return any;
}

bool wbloop_cg_bw_kbps(const struct wbloop *w, uint64_t cgroup_ino, uint64_t *out)
{
	bool any = false;
	*out = 0;
	for (size_t i = 0; i < w->ndom; i++)
		if (w->dom[i].cgroup_ino == cgroup_ino) {
			*out += w->dom[i].write_bw_kbps;
			any = true;
		}
	return any;
}
