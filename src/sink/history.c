/*
 * history.c - rings of recent frames: one for the system, one per device.
 *
 * Frames are numbered from 1 as they are pushed; frame k lives in slot
 * (k - 1) % cap of every ring.  A device ring remembers the last frame it
 * was written in (last_frame): slots between that and the newest frame are
 * holes, and are cleared when the device writes again, so a stale slot
 * from a ring's length ago is never read as current.  Devices are kept in
 * an array sorted by key, for a binary search per device per frame.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"
#include "sink/history.h"
#include "core/ident.h"
#include "sink/sink.h"

struct hist_series {
	char *key;
	uint64_t last_frame;	/* newest frame with figures; 0 = none yet */
	uint64_t first_frame;	/* the frame it was made in: older slots are holes */
	uint64_t last_dip_frame;	/* the newest frame it dipped in; 0 = none */
	/* cap slots, a struct hist_dev each, kept as two arrays in one allocation: a slot is every
	 * device's every frame (1024 of them), and as a struct its two flags would cost as much as
	 * a figure (12 bytes, not 9) */
	float *vals;		/* FIG_NHIST figures a slot */
	uint8_t *flags;		/* HIST_F_* a slot */
};

enum { HIST_F_VALID = 1u << 0, HIST_F_DIP = 1u << 1 };

static void history_slot_put(struct hist_series *s, size_t slot, const struct hist_dev *d)
{
	memcpy(&s->vals[slot * FIG_NHIST], d->v, sizeof d->v);
	s->flags[slot] = (uint8_t)((d->valid ? HIST_F_VALID : 0) | (d->dip ? HIST_F_DIP : 0));
}

static void history_slot_get(const struct hist_series *s, size_t slot, struct hist_dev *out)
{
	memcpy(out->v, &s->vals[slot * FIG_NHIST], sizeof out->v);
	out->valid = s->flags[slot] & HIST_F_VALID;
	out->dip = s->flags[slot] & HIST_F_DIP;
}

static void history_slot_clear(struct hist_series *s, size_t slot)
{
	memset(&s->vals[slot * FIG_NHIST], 0, FIG_NHIST * sizeof *s->vals);
	s->flags[slot] = 0;
}

/* Where device i of the last history_add_devs went, and under which key serial: the
 * same device at the same place next frame is found without a search. */
struct hist_hint {
	uint64_t id;
	struct hist_series *s;
};

struct history {
	size_t cap;
	uint64_t frames;	/* frames pushed; the newest is number `frames` */
	struct hist_sys *sys;	/* cap slots */
	struct hist_series **dev;	/* sorted by key */
	size_t ndev, cap_dev;
	struct hist_hint *hint;	/* nhint of them; dropped when a series is freed */
	size_t nhint, cap_hint;
	const struct fig_dev *rows[FIG_NHIST];	/* the registry's rows kept, by slot */
	/* a row that is a plain field of struct dev_rates, needing nothing: its offset, read
	 * without the registry's general path (every device every frame); else SIZE_MAX */
	size_t plain_off[FIG_NHIST];
	/* a row that is a formula of struct dev_rates, needing nothing: the formula; else NULL */
	double (*formula[FIG_NHIST])(const struct dev_rates *r);
	size_t slot_now;	/* history_slot of the newest frame */
	size_t nfresh;		/* series given figures in the newest frame (all: nothing to prune) */
};

static size_t history_slot(const struct history *h, uint64_t frame)
{
	return (size_t)((frame - 1) % h->cap);
}

static void history_series_free(struct hist_series *s)
{
	if (!s)
		return;
	free(s->key);
	free(s->vals);
	free(s);
}

struct history *history_new(size_t cap)
{
	if (cap < 2)
		return NULL;
	struct history *h = calloc(1, sizeof *h);
	if (!h)
		return NULL;
	h->cap = cap;
	for (int k = 0; k < FIG_NHIST; k++) {
		const struct fig_dev *f = figure_dev_by_hist(k);
		h->rows[k] = f;
		h->plain_off[k] = f && !f->formula && !f->need ? f->offset : SIZE_MAX;
		h->formula[k] = f && f->formula && !f->need ? f->formula : NULL;
	}
	h->sys = calloc(cap, sizeof *h->sys);
	if (!h->sys) {
		free(h);
		return NULL;
	}
	return h;
}

void history_clear(struct history *h)
{
	for (size_t i = 0; i < h->ndev; i++)
		history_series_free(h->dev[i]);
	h->ndev = 0;
	h->nhint = 0;
	h->frames = 0;
	h->nfresh = 0;
	memset(h->sys, 0, h->cap * sizeof *h->sys);
}

void history_free(struct history *h)
{
	if (!h)
		return;
	history_clear(h);
	free(h->hint);
	free(h->dev);
	free(h->sys);
	free(h);
}

/* Forget devices whose every slot in the ring is older than the ring. */
static void history_prune(struct history *h)
{
	size_t kept = 0;
	for (size_t i = 0; i < h->ndev; i++) {
		struct hist_series *s = h->dev[i];
		if (s->last_frame + h->cap <= h->frames)
			history_series_free(s);
		else
			h->dev[kept++] = s;
	}
	if (kept != h->ndev)
		h->nhint = 0;	/* a hint may name a freed series */
	h->ndev = kept;
}

void history_push(struct history *h, const struct hist_sys *s)
{
	/* when every series had figures in the last frame none can be a ring's length old */
	bool stale = h->nfresh < h->ndev;
	h->frames++;
	h->slot_now = history_slot(h, h->frames);
	h->nfresh = 0;
	h->sys[h->slot_now] = *s;
	if (stale)
		history_prune(h);
}

void history_sys_from_rates(struct hist_sys *out, int64_t wall_ns, const struct sys_rates *r,
			    bool sys_dip, bool dev_dip)
{
	memset(out, 0, sizeof *out);
	out->wall_ns = wall_ns;
	out->valid = r->status == RATE_OK;
	out->dip = sys_dip;
	out->dev_dip = dev_dip;
	/* The gauges are good even on a first sample; the rates are not. */
	out->dirty_kb = r->dirty_kb;
	out->writeback_kb = r->writeback_kb;
	out->dirty_thresh_kb = r->dirty_thresh_kb;
	out->bg_thresh_kb = r->bg_thresh_kb;
	if (!out->valid)
		return;
	out->bo_kbps = r->bo_kbps;
	out->bi_kbps = r->bi_kbps;
	out->dirtied_kbps = r->dirtied_kbps;
	out->written_kbps = r->written_kbps;
}

/* The figures the history keeps of rates r (RATE_OK) into v[FIG_NHIST], by the registry's
 * rows: a plain field or a formula needing nothing read at once, the others through the
 * general path (0 where not available). */
static inline __attribute__((always_inline)) void
history_fill_vals(const struct history *h, float *v, const struct dev_rates *r)
{
#pragma GCC unroll 8
	for (int k = 0; k < FIG_NHIST; k++) {
		double x = 0.0;
		if (h->plain_off[k] != SIZE_MAX)
			memcpy(&x, (const char *)r + h->plain_off[k], sizeof x);
		else if (h->formula[k])
			x = h->formula[k](r);
		else if (h->rows[k] && figure_dev_available(h->rows[k], r))
			x = figure_dev_value(h->rows[k], r);
		v[k] = (float)x;
	}
}

/* The figures of one device from its rates, by the registry's rows kept. */
static void history_dev_fill(const struct history *h, struct hist_dev *out,
			     const struct dev_rates *r, bool dip)
{
	memset(out, 0, sizeof *out);
	if (r->status != RATE_OK)
		return;
	out->valid = true;
	out->dip = dip;
	history_fill_vals(h, out->v, r);
}

void history_dev_from_rates(struct hist_dev *out, const struct dev_rates *r, bool dip)
{
	memset(out, 0, sizeof *out);
	if (r->status != RATE_OK)
		return;
	out->valid = true;
	out->dip = dip;
	for (size_t k = 0; k < fig_ndev; k++) {
		const struct fig_dev *f = &fig_dev_table[k];
		if ((f->sinks & FIG_IN_HISTORY) && f->hist >= 0 && f->hist < FIG_NHIST &&
		    figure_dev_available(f, r))
			out->v[f->hist] = (float)figure_dev_value(f, r);
	}
}

void history_mark_event(struct history *h)
{
	if (h->frames)
		h->sys[h->slot_now].event = true;
}

/* Index of key in the sorted array, or where it would go (*found false). */
static size_t history_search(const struct history *h, const char *key, bool *found)
{
	size_t lo = 0, hi = h->ndev;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(h->dev[mid]->key, key);
		if (c == 0) {
			*found = true;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = false;
	return lo;
}

/* Room for one more series pointer. */
static bool history_room(struct history *h)
{
	return grow_array((void **)&h->dev, &h->cap_dev, h->ndev + 1, sizeof *h->dev, 32) == 0;
}

static struct hist_series *history_series_new(const struct history *h, const char *key)
{
	struct hist_series *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->key = strdup(key);
	/* Not zeroed: the frames before first_frame are holes by their number, and the holes
	 * after it are cleared as they are passed (history_store); with thousands of devices
	 * zeroing every ring at once was most of the first frame. */
	s->vals = malloc(h->cap * (FIG_NHIST * sizeof *s->vals + sizeof *s->flags));
	if (s->vals)
		s->flags = (uint8_t *)(s->vals + h->cap * FIG_NHIST);
	s->first_frame = h->frames;
	if (!s->key || !s->vals) {
		history_series_free(s);
		return NULL;
	}
	return s;
}

static struct hist_series *history_insert(struct history *h, size_t at, const char *key)
{
	struct hist_series *s = history_room(h) ? history_series_new(h, key) : NULL;
	if (!s)
		return NULL;
	memmove(&h->dev[at + 1], &h->dev[at], (h->ndev - at) * sizeof *h->dev);
	h->dev[at] = s;
	h->ndev++;
	return s;
}

/* Store d in series s at the newest frame, clearing the holes since it last had figures. */
static void history_store(struct history *h, struct hist_series *s, const struct hist_dev *d)
{
	if (s->last_frame + 1 != h->frames) {	/* not the usual: figures last frame too */
		if (s->last_frame == h->frames) {	/* twice in one frame: the later wins */
			history_slot_put(s, h->slot_now, d);
			if (d->dip)
				s->last_dip_frame = h->frames;
			else if (s->last_dip_frame == h->frames)
				s->last_dip_frame = 0;	/* (an older dip is not known: none) */
			return;
		}
		uint64_t from = s->last_frame ? s->last_frame + 1 : h->frames;	/* new: no holes */
		if (h->frames > h->cap && from < h->frames - h->cap + 1)
			from = h->frames - h->cap + 1;
		for (uint64_t k = from; k < h->frames; k++)
			history_slot_clear(s, history_slot(h, k));
	}
	history_slot_put(s, h->slot_now, d);
	s->last_frame = h->frames;
	if (d->dip)
		s->last_dip_frame = h->frames;
	h->nfresh++;
}

/* The series of key, made if new; NULL when out of memory. */
static struct hist_series *history_series_of(struct history *h, const char *key)
{
	bool found;
	size_t at = history_search(h, key, &found);
	return found ? h->dev[at] : history_insert(h, at, key);
}

int history_add_dev(struct history *h, const char *key, const struct hist_dev *d)
{
	if (!h->frames)
		return -EINVAL;
	struct hist_series *s = history_series_of(h, key);
	if (!s)
		return -ENOMEM;
	history_store(h, s, d);
	return 0;
}

static int history_cmp_series(const void *a, const void *b)
{
	return strcmp((*(struct hist_series *const *)a)->key, (*(struct hist_series *const *)b)->key);
}

/* The nnew series appended after the sorted ndev merged into the order: sorted among
 * themselves, a second series of one key folded into the first (hints moved to it), then
 * one merge, so that many new devices (the first frame of thousands) cost n log n, not a
 * memmove each. */
static int history_merge_new(struct history *h, size_t nnew)
{
	struct hist_series **fresh = h->dev + h->ndev;
	qsort(fresh, nnew, sizeof *fresh, history_cmp_series);
	size_t kept = 0;
	for (size_t k = 0; k < nnew; k++) {
		if (kept && strcmp(fresh[kept - 1]->key, fresh[k]->key) == 0) {
			for (size_t i = 0; i < h->nhint; i++)
				if (h->hint[i].s == fresh[k])
					h->hint[i].s = fresh[kept - 1];
			struct hist_series *dup = fresh[k];
			if (dup->last_frame == h->frames) {	/* the newer figures win, as one by one */
				struct hist_dev later;
				history_slot_get(dup, h->slot_now, &later);
				history_slot_put(fresh[kept - 1], h->slot_now, &later);
				/* both are new this frame: the later's mark is the one */
				fresh[kept - 1]->last_dip_frame = dup->last_dip_frame;
				h->nfresh--;	/* one series, counted twice */
			}
			history_series_free(dup);
			continue;
		}
		fresh[kept++] = fresh[k];
	}
	struct hist_series **all = malloc((h->ndev + kept) * sizeof *all + 1);
	if (!all) {
		for (size_t k = 0; k < kept; k++)
			history_series_free(fresh[k]);
		h->nhint = 0;
		return -ENOMEM;
	}
	size_t a = 0, b = 0, o = 0;
	while (a < h->ndev || b < kept)
		all[o++] = b == kept || (a < h->ndev && strcmp(h->dev[a]->key, fresh[b]->key) < 0) ?
			   h->dev[a++] : fresh[b++];
	memcpy(h->dev, all, o * sizeof *all);
	free(all);
	h->ndev = o;
	return 0;
}

int history_add_devs(struct history *h, size_t n, const char *const *keys, const uint64_t *ids,
		     const struct dev_rates *rates, const bool *dips)
{
	if (!h->frames)
		return -EINVAL;
	if (grow_array((void **)&h->hint, &h->cap_hint, n, sizeof *h->hint, 64) < 0)
		return -ENOMEM;
	size_t nnew = 0;	/* series made here, after the sorted ones until the merge */
	int rc = 0;
	for (size_t i = 0; i < n; i++) {
		struct hist_series *s = NULL;
		bool found = false;
		/* a serial says it all; a device without one by its key, one compare */
		if (i < h->nhint && (ids[i] ? h->hint[i].id == ids[i] :
				     !h->hint[i].id && strcmp(h->hint[i].s->key, keys[i]) == 0))
			s = h->hint[i].s;
		else {
			size_t at = history_search(h, keys[i], &found);
			if (found)
				s = h->dev[at];
		}
		if (!s) {
			h->ndev += nnew;	/* history_room counts the new ones too */
			bool room = history_room(h);
			h->ndev -= nnew;
			if (!room || !(s = history_series_new(h, keys[i]))) {
				rc = -ENOMEM;
				n = i;	/* the devices from here on get no figures */
				break;
			}
			h->dev[h->ndev + nnew++] = s;
		}
		if (s->last_frame + 1 == h->frames) {
			/* the usual: figures last frame too, so no holes; written in place */
			const struct dev_rates *r = &rates[i];
			size_t slot = h->slot_now;
			float *v = &s->vals[slot * FIG_NHIST];
			if (r->status == RATE_OK) {
				history_fill_vals(h, v, r);
				bool dip = dips && dips[i];
				s->flags[slot] = (uint8_t)(HIST_F_VALID | (dip ? HIST_F_DIP : 0));
				if (dip)
					s->last_dip_frame = h->frames;
			} else {
				memset(v, 0, FIG_NHIST * sizeof *v);
				s->flags[slot] = 0;
			}
			s->last_frame = h->frames;
			h->nfresh++;
		} else {
			struct hist_dev d;
			history_dev_fill(h, &d, &rates[i], dips && dips[i]);
			history_store(h, s, &d);
		}
		h->hint[i] = (struct hist_hint){ ids[i], s };
	}
	h->nhint = n;
	if (nnew && history_merge_new(h, nnew) < 0)
		return -ENOMEM;
	return rc;
}

size_t history_len(const struct history *h)
{
	return h->frames < h->cap ? (size_t)h->frames : h->cap;
}

size_t history_cap(const struct history *h)
{
	return h->cap;
}

uint64_t history_frames(const struct history *h)
{
	return h->frames;
}

const struct hist_sys *history_sys(const struct history *h, size_t age)
{
	if (age >= history_len(h))
		return NULL;
	return &h->sys[history_slot(h, h->frames - age)];
}

size_t history_ndevs(const struct history *h)
{
	return h->ndev;
}

const struct hist_series *history_find(const struct history *h, const char *key)
{
	bool found;
	size_t at = history_search(h, key, &found);
	return found ? h->dev[at] : NULL;
}

const struct hist_series *history_find_at(const struct history *h, size_t i, const char *key,
					  uint64_t id)
{
	if (i < h->nhint && (id ? h->hint[i].id == id :
			     !h->hint[i].id && strcmp(h->hint[i].s->key, key) == 0))
		return h->hint[i].s;
	return history_find(h, key);
}

bool history_last_dip(const struct history *h, const struct hist_series *s, int64_t *wall_ns)
{
	uint64_t at = s ? s->last_dip_frame : 0;
	if (!at || at > h->frames || h->frames - at >= h->cap)
		return false;	/* none, or its frame has left the ring */
	*wall_ns = h->sys[history_slot(h, at)].wall_ns;
	return true;
}

const char *history_series_key(const struct hist_series *s)
{
	return s->key;
}

bool history_dev(const struct history *h, const struct hist_series *s, size_t age,
		 struct hist_dev *out)
{
	memset(out, 0, sizeof *out);
	if (!s || age >= history_len(h))
		return false;
	uint64_t frame = h->frames - age;
	if (frame > s->last_frame || frame < s->first_frame)
		return false;	/* a hole not cleared yet, or before the device was known */
	history_slot_get(s, history_slot(h, frame), out);
	return out->valid;
}

static double history_sys_value(const struct hist_sys *x, enum hist_field field)
{
	if (!x->valid && (field == HIST_SYS_BO_KBPS || field == HIST_SYS_BI_KBPS))
		return NAN;
	switch (field) {
	case HIST_SYS_BO_KBPS: return x->bo_kbps;
	case HIST_SYS_BI_KBPS: return x->bi_kbps;
	case HIST_SYS_DIRTY_KB: return (double)x->dirty_kb;
	case HIST_SYS_WRITEBACK_KB: return (double)x->writeback_kb;
	default: return NAN;
	}
}

static double history_dev_value(const struct hist_dev *d, enum hist_field field)
{
	int k = (int)field - HIST_DEV_BASE;
	return k >= 0 && k < FIG_NHIST ? d->v[k] : NAN;
}

static bool history_is_dev_field(enum hist_field field)
{
	return field >= HIST_DEV_BASE;
}

size_t history_series(const struct history *h, const struct hist_series *s,
		      enum hist_field field, double *out, size_t n)
{
	size_t real = 0;
	for (size_t i = 0; i < n; i++) {
		size_t age = n - 1 - i;
		double v = NAN;
		if (history_is_dev_field(field)) {
			struct hist_dev d;
			if (history_dev(h, s, age, &d))
				v = history_dev_value(&d, field);
		} else {
			const struct hist_sys *x = history_sys(h, age);
			if (x)
				v = history_sys_value(x, field);
		}
		out[i] = v;
		real += !isnan(v);
	}
	return real;
}

void history_marks(const struct history *h, const struct hist_series *s, bool device,
		   bool *dip, bool *event, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t age = n - 1 - i;
		const struct hist_sys *x = history_sys(h, age);
		bool d = false;
		if (device) {
			struct hist_dev dv;
			d = history_dev(h, s, age, &dv) && dv.dip;
		} else if (x) {
			d = x->dip;
		}
		if (dip)
			dip[i] = d;
		if (event)
			event[i] = x && x->event;
	}
}

/* ---- the sink ------------------------------------------------------------ */

/* A frame: the system figures, each device's under its key, and a mark
 * where knob values changed or the source recorded knob writes. */
static int history_sink_frame(struct sink *s, const struct frame *f)
{
	struct history *h = s->impl;
	struct hist_sys hs;
	history_sys_from_rates(&hs, f->cur->wall_ns, &f->sys, f->sys_dip, f->interval_dip);
	history_push(h, &hs);
	/* every device's few figures (its brief: not all of them, most are never shown),
	 * found at its place of the last frame; out of memory only leaves this frame's
	 * history short */
	const char *const *keys = frame_dev_keys(f);
	const uint64_t *ids = frame_dev_ids(f);
	const struct dev_rates *briefs = frame_dev_briefs(f);
	if (keys && ids && briefs)
		history_add_devs(h, f->cur->ndev, keys, ids, briefs, f->dev_dip);
	if (f->nchanges || f->nevents)
		history_mark_event(h);
	return 0;
}

/* A knob wbtop wrote: a BDI limit is in no sample, so it is marked now; a
 * vm knob's new value is seen, and marked, by the next frame. */
static int history_sink_event(struct sink *s, const struct wb_event *e)
{
	if (strncmp(e->knob, "bdi:", 4) == 0)
		history_mark_event(s->impl);
	return 0;
}

static const struct sink_ops history_sink_ops = {
	.kind = "history", .needs = PIPELINE_NEED_BRIEFS, .frame = history_sink_frame,
	.event = history_sink_event,
	.close = sink_keep_close,
};

struct sink *history_sink_new(struct history *h)
{
	return sink_new(&history_sink_ops, h);
}
