/*
 * tally.c - the exporter's throttling counters since its start (tally.h).
 *
 * Each family keeps an entry per key (device name, cgroup path, command
 * name) with all it ever counted, which ranks it, and what its own series
 * counted while shown.  An entry not shown and not heard of for a while is
 * forgotten: what it counted is in "other" already.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sink/tally.h"
#include "util/grow.h"
#include "util/hashidx.h"

/* Samples an entry outside the top N is kept after its last count. */
#define TALLY_FORGET 600

struct tally_entry {
	char key[256];
	uint64_t all_ms, all_pauses;	/* since the start: the rank */
	struct tally_row row;		/* its own series, while shown */
	uint64_t pend_ms, pend_pauses;	/* not in a row yet: this sample's, or a new row's first */
	bool shown;
	uint64_t last_step;
};

struct tally_fam {
	struct tally_entry *e;
	size_t n, cap;
	struct hashidx ix;		/* over e[] by key; rebuilt when e moves */
	struct tally_row other;
	struct tally_row *shown;	/* what tally_rows gives: top N, largest first */
	size_t nshown, cap_shown;
	size_t *order;			/* scratch for the ranking */
	size_t cap_order;
};

struct tally {
	size_t top_n;
	uint64_t step;
	bool traced;
	struct tally_fam fam[TALLY_NFAM];
};

struct tally *tally_new(size_t top_n)
{
	struct tally *t = calloc(1, sizeof *t);
	if (!t)
		return NULL;
	t->top_n = top_n ? top_n : 1;
	for (size_t f = 0; f < TALLY_NFAM; f++) {
		t->fam[f].other.key = "other";
		if (hashidx_reset(&t->fam[f].ix, 0, 64) < 0) {
			tally_free(t);
			return NULL;
		}
	}
	return t;
}

void tally_free(struct tally *t)
{
	if (!t)
		return;
	for (size_t f = 0; f < TALLY_NFAM; f++) {
		free(t->fam[f].e);
		free(t->fam[f].shown);
		free(t->fam[f].order);
		hashidx_free(&t->fam[f].ix);
	}
	free(t);
}

static int tally_reindex(struct tally_fam *fm)
{
	if (hashidx_reset(&fm->ix, fm->cap, 64) < 0)
		return -ENOMEM;
	for (size_t i = 0; i < fm->n; i++)
		hashidx_put(&fm->ix, hashidx_str(fm->e[i].key), i);
	return 0;
}

/* The entry of key, made when new; NULL when out of memory. */
static struct tally_entry *tally_entry(struct tally_fam *fm, const char *key)
{
	size_t h = hashidx_str(key);
	if (fm->ix.cap)
		for (size_t at = hashidx_start(&fm->ix, h), pos; (pos = hashidx_next(&fm->ix, &at)) != SIZE_MAX;)
			if (strcmp(fm->e[pos].key, key) == 0)
				return &fm->e[pos];
	size_t had = fm->cap;
	if (grow_array((void **)&fm->e, &fm->cap, fm->n + 1, sizeof *fm->e, 16) < 0)
		return NULL;
	struct tally_entry *e = &fm->e[fm->n];
	memset(e, 0, sizeof *e);
	snprintf(e->key, sizeof e->key, "%s", key);
	e->row.key = NULL;	/* set when shown: e may move */
	fm->n++;
	if (fm->cap != had || !fm->ix.cap) {
		if (tally_reindex(fm) < 0) {
			fm->n--;
			return NULL;
		}
	} else {
		hashidx_put(&fm->ix, h, fm->n - 1);
	}
	return e;
}

static void tally_count(struct tally *t, struct tally_entry *e, uint64_t ms, uint64_t pauses)
{
	e->all_ms += ms;
	e->all_pauses += pauses;
	e->last_step = t->step;
	e->pend_ms += ms;
	e->pend_pauses += pauses;
}

/* The two counters of one object in a sorted snapshot: from v on (its first value). */
static void tally_values(const struct snapshot *s, const struct snap_xval *v, unsigned kind_ms,
			 unsigned kind_pauses, uint64_t *ms, uint64_t *pauses, bool *have)
{
	*ms = *pauses = 0;
	*have = false;
	for (const struct snap_xval *end = s->x + s->nx, *w = v;
	     w && w < end && w->scope == v->scope && w->obj == v->obj; w++) {
		if (w->kind == kind_ms) {
			*ms = w->value;
			*have = true;
		} else if (w->kind == kind_pauses) {
			*pauses = w->value;
			*have = true;
		}
	}
}

/* The label value of an object of scope sc in cur. */
static void tally_key(const struct snapshot *cur, enum snap_xscope sc, uint64_t obj, char *buf, size_t len)
{
	if (sc == SNAP_XDEV) {
		uint32_t major = (uint32_t)(obj >> 32), minor = (uint32_t)obj;
		const struct dev_counters *d = snapshot_find_dev(cur, major, minor);
		if (d)
			snprintf(buf, len, "%s", d->name);
		else
			snprintf(buf, len, "%" PRIu32 ":%" PRIu32, major, minor);
	} else if (sc == SNAP_XCG) {
		const struct snap_cgroup *c = snapshot_find_cg(cur, obj);
		if (c && c->path[0])
			snprintf(buf, len, "%s", c->path);
		else
			snprintf(buf, len, "ino %" PRIu64, obj);
	} else {
		const char *comm = snapshot_find_comm(cur, obj);
		snprintf(buf, len, "%s", comm && comm[0] ? comm : "unknown");
	}
}

static const struct {
	enum snap_xscope scope;
	enum tally_family fam;
	unsigned ms, pauses;
} tally_scopes[] = {
	{ SNAP_XDEV, TALLY_DEV, SNAP_XDEV_THROTTLED_MS, SNAP_XDEV_PAUSES },
	{ SNAP_XCG, TALLY_CG, SNAP_XCG_THROTTLED_MS, SNAP_XCG_PAUSES },
	{ SNAP_XTASK, TALLY_COMM, SNAP_XTASK_THROTTLED_MS, SNAP_XTASK_PAUSES },
};

static int tally_feed_scope(struct tally *t, size_t k, const struct snapshot *prev,
			    const struct snapshot *cur)
{
	enum snap_xscope sc = tally_scopes[k].scope;
	for (size_t i = 0; i < cur->nx; i++) {
		const struct snap_xval *v = &cur->x[i];
		if (v->scope != sc || (i > 0 && cur->x[i - 1].scope == sc && cur->x[i - 1].obj == v->obj))
			continue;	/* one object at a time, from its first value */
		uint64_t ms, pauses, pms = 0, ppauses = 0;
		bool have, phave = false;
		tally_values(cur, v, tally_scopes[k].ms, tally_scopes[k].pauses, &ms, &pauses, &have);
		if (!have)
			continue;
		if (prev)
			tally_values(prev, snapshot_find_x(prev, sc, v->obj), tally_scopes[k].ms,
				     tally_scopes[k].pauses, &pms, &ppauses, &phave);
		/* new since prev, or counted again from 0 (a pid reused): all of it */
		if (!phave || ms < pms || pauses < ppauses)
			pms = ppauses = 0;
		if (ms == pms && pauses == ppauses)
			continue;
		char key[256];
		tally_key(cur, sc, v->obj, key, sizeof key);
		struct tally_entry *e = tally_entry(&t->fam[tally_scopes[k].fam], key);
		if (!e)
			return -ENOMEM;
		tally_count(t, e, ms - pms, pauses - ppauses);
	}
	return 0;
}

static const struct tally_fam *tally_sort_fam;

static int tally_cmp(const void *a, const void *b)
{
	const struct tally_entry *x = &tally_sort_fam->e[*(const size_t *)a];
	const struct tally_entry *y = &tally_sort_fam->e[*(const size_t *)b];
	if (x->all_ms != y->all_ms)
		return x->all_ms > y->all_ms ? -1 : 1;
	if (x->all_pauses != y->all_pauses)
		return x->all_pauses > y->all_pauses ? -1 : 1;
	return strcmp(x->key, y->key);
}

/* Forget the entries outside the top N not heard of for TALLY_FORGET samples. */
static int tally_forget(struct tally *t, struct tally_fam *fm)
{
	size_t keep = 0;
	for (size_t i = 0; i < fm->n; i++)
		if (fm->e[i].shown || t->step - fm->e[i].last_step < TALLY_FORGET)
			fm->e[keep++] = fm->e[i];
	if (keep == fm->n)
		return 0;
	fm->n = keep;
	return tally_reindex(fm);
}

/* The top N by all they counted.  A row leaving gives all its series counted to "other".
 * A row coming in (new, or back from "other") is shown at 0 first and takes the counts it
 * came in with at the next sample: a scraper sees its series start at 0, so increase()
 * over it misses nothing.  Outside the top N, counts go to "other" as they come. */
static int tally_rank(struct tally *t, struct tally_fam *fm)
{
	if (tally_forget(t, fm) < 0)
		return -ENOMEM;
	if (grow_array((void **)&fm->order, &fm->cap_order, fm->n, sizeof *fm->order, 16) < 0 ||
	    grow_array((void **)&fm->shown, &fm->cap_shown, t->top_n, sizeof *fm->shown, 16) < 0)
		return -ENOMEM;
	for (size_t i = 0; i < fm->n; i++)
		fm->order[i] = i;
	tally_sort_fam = fm;
	if (fm->n > 1)
		qsort(fm->order, fm->n, sizeof *fm->order, tally_cmp);
	tally_sort_fam = NULL;
	fm->nshown = 0;
	for (size_t r = 0; r < fm->n; r++) {
		struct tally_entry *e = &fm->e[fm->order[r]];
		bool in = r < t->top_n;
		struct tally_row *to = NULL;
		if (!in) {		/* its series and its new counts to "other" */
			to = &fm->other;
			if (e->shown) {
				fm->other.ms += e->row.ms;
				fm->other.pauses += e->row.pauses;
			}
			e->row.ms = e->row.pauses = 0;
		} else if (e->shown) {
			to = &e->row;
		} else {
			e->row.ms = e->row.pauses = 0;	/* shown at 0: its counts wait a sample */
		}
		if (to) {
			to->ms += e->pend_ms;
			to->pauses += e->pend_pauses;
			e->pend_ms = e->pend_pauses = 0;
		}
		e->shown = in;
		if (in) {
			e->row.key = e->key;
			fm->shown[fm->nshown++] = e->row;
		}
	}
	return 0;
}

int tally_feed(struct tally *t, const struct snapshot *prev, const struct snapshot *cur)
{
	t->step++;
	t->traced = snapshot_find_xkind(cur, SNAP_XSYS, 0, SNAP_XSYS_TRACE_LOST) != NULL;
	int rc = 0;
	for (size_t k = 0; k < sizeof tally_scopes / sizeof *tally_scopes; k++) {
		if (t->traced && rc == 0)
			rc = tally_feed_scope(t, k, prev, cur);
		if (tally_rank(t, &t->fam[tally_scopes[k].fam]) < 0)
			rc = -ENOMEM;
	}
	return rc;
}

bool tally_traced(const struct tally *t)
{
	return t->traced;
}

size_t tally_rows(const struct tally *t, enum tally_family f, const struct tally_row **rows,
		  struct tally_row *other)
{
	const struct tally_fam *fm = &t->fam[f];
	*rows = fm->shown;
	*other = fm->other;
	return fm->nshown;
}
