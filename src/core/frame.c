/*
 * frame.c - what a sink asks of a frame: the devices' rates, derived from the
 * frame's own two samples when first asked, once a frame (frame.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"
#include "core/frame.h"
#include "frame_priv.h"

int frame_derived_grow(struct frame_derived *d, size_t n)
{
	size_t had = d->cap;
	if (n <= had)
		return 0;
#define PART(field) { (void **)&d->field, sizeof *d->field }
	const struct grow_part parts[] = {
		PART(prev_of), PART(rates), PART(briefs), PART(rate_step), PART(dips), PART(depth), PART(keys),
		PART(name_keys), PART(ids), PART(values), PART(reqs), PART(causes),
	};
#undef PART
	if (grow_arrays(parts, sizeof parts / sizeof parts[0], &d->cap, n, 64) < 0)
		return -ENOMEM;
	/* a new device slot has no single-device rates yet (the rates themselves are not
	 * touched until derived: a headless run never asks, and keeps them out of its RSS) */
	memset(d->rate_step + had, 0, (d->cap - had) * sizeof *d->rate_step);
	return 0;
}

void frame_derived_free(struct frame_derived *d)
{
	free(d->prev_of);
	free(d->rates);
	free(d->briefs);
	free(d->rate_step);
	free(d->dips);
	free(d->depth);
	free(d->keys);
	free(d->name_keys);
	free(d->ids);
	free(d->values);
	free(d->reqs);
	free(d->causes);
	free(d->events);
}

const struct dev_rates *frame_dev_rates(const struct frame *f)
{
	struct frame_derived *d = f->derived;
	if (!d)
		return NULL;
	if (!d->rates_all) {
		double dt = derive_dt_s(f->prev, f->cur);
		/* the devices a mark's cause (or a view) derived alone already have theirs */
		for (size_t i = 0; i < f->cur->ndev; i++)
			if (d->rate_step[i] != d->step)
				derive_dev(d->prev_of[i], &f->cur->dev[i], dt, &d->rates[i]);
		if (f->cur->nx)
			derive_dev_x(f->prev, f->cur, dt, d->rates);
		d->rates_all = true;
	}
	return d->rates;
}

const struct dev_rates *frame_dev_rate(const struct frame *f, size_t i)
{
	struct frame_derived *d = f->derived;
	if (!d || i >= f->cur->ndev)
		return NULL;
	if (!d->rates_all && d->rate_step[i] != d->step) {
		double dt = derive_dt_s(f->prev, f->cur);
		const struct dev_counters *dev = &f->cur->dev[i];
		struct dev_rates *r = &d->rates[i];
		derive_dev(d->prev_of[i], dev, dt, r);
		/* its values beside the diskstats block too, as derive_dev_x gives them (none to
		 * look for when the sample has none of this device's: the usual case) */
		uint64_t obj = snapshot_xobj_dev(dev->major, dev->minor);
		bool has_x = f->cur->nx && snapshot_find_x(f->cur, SNAP_XDEV, obj);
		for (unsigned k = 0; has_x && r->status == RATE_OK && k < SNAP_NXDEV; k++)
			if (derive_x(f->prev, f->cur, SNAP_XDEV, obj, k, dt, &r->x[k]))
				r->x_have |= 1u << k;
		d->rate_step[i] = d->step;
	}
	return &d->rates[i];
}

const struct dev_rates *frame_dev_briefs(const struct frame *f)
{
	struct frame_derived *d = f->derived;
	if (!d)
		return NULL;
	if (!d->briefs_done) {
		double dt = derive_dt_s(f->prev, f->cur);
		for (size_t i = 0; i < f->cur->ndev; i++)
			derive_dev_brief(d->prev_of[i], &f->cur->dev[i], dt, &d->briefs[i]);
		d->briefs_done = true;
	}
	return d->briefs;
}

const double *frame_dev_write_kbps(const struct frame *f)
{
	return f->derived ? f->derived->values : NULL;
}

const uint64_t *frame_dev_ids(const struct frame *f)
{
	return f->derived ? f->derived->ids : NULL;
}

const char *const *frame_dev_keys(const struct frame *f)
{
	return f->derived ? (const char *const *)f->derived->keys : NULL;
}
