/*
 * pipeline.c - chaining source, derive and detect.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/cause.h"
#include "core/control.h"
#include "util/grow.h"
#include "core/ident.h"
#include "core/pipeline.h"
#include "frame_priv.h"

struct pipeline {
	struct source *src;
	struct dip_params dip;
	enum pipeline_marks marks;
	unsigned needs;		/* PIPELINE_NEED_*: derived up front for every frame */
	/* Three snapshots: the last frame's two, and the one the next step fills, so that a
	 * step, even one that fails, never writes over a frame a sink may still hold. */
	struct snapshot snap[3];
	int cur, prev;		/* the last frame's, in snap[]; -1 none */
	bool have_prev;		/* the next frame has a previous sample (cleared by a restart) */
	struct dip_series *sys_det;
	struct dip_group *dev_det;
	/* two frames, the last one and the one being made, each with what is derived of it */
	struct frame frame[2];
	struct frame_derived derived[2];
	int last;		/* index of the last frame made in frame[] */
	unsigned long step;	/* steps taken */
	/* each device's usual figures, what its marks' causes are judged against: usual[cur_usual]
	 * in the order of the last sample's devices, kept where they are while every device stays
	 * where it was, else carried over into the other one in this sample's order */
	size_t usual_cap;
	struct dip_cause_base *usual[2];
	int cur_usual;
	struct dev_rates usual_rates;	/* scratch: a device's figures learnt as its usual ones */
	unsigned long knob_step;	/* the step a knob last changed in (0: none) */
	bool sys_knob_held;		/* the system line's last interval: a dip a knob caused */
	pipeline_refill_fn *on_refill;	/* told of each snapshot about to be filled again */
	void *refill_ctx;
};

struct pipeline *pipeline_new(struct source *src, const struct dip_params *dip,
			      enum pipeline_marks marks)
{
	struct pipeline *p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	p->src = src;
	p->dip = *dip;
	p->marks = marks;
	p->cur = p->prev = -1;
	for (int i = 0; i < 3; i++)
		snapshot_init(&p->snap[i]);
	p->sys_det = detect_series_new(dip);
	p->dev_det = detect_group_new(dip);
	if (!p->sys_det || !p->dev_det) {
		pipeline_free(p);
		return NULL;
	}
	return p;
}

void pipeline_free(struct pipeline *p)
{
	if (!p)
		return;
	for (int i = 0; i < 3; i++)
		snapshot_free(&p->snap[i]);
	detect_series_free(p->sys_det);
	detect_group_free(p->dev_det);
	frame_derived_free(&p->derived[0]);
	frame_derived_free(&p->derived[1]);
	free(p->usual[0]);
	free(p->usual[1]);
	free(p);
}

void pipeline_on_refill(struct pipeline *p, pipeline_refill_fn *fn, void *ctx)
{
	p->on_refill = fn;
	p->refill_ctx = ctx;
}

void pipeline_need(struct pipeline *p, unsigned needs)
{
	p->needs |= needs;
}

void pipeline_restart(struct pipeline *p)
{
	p->have_prev = false;
	detect_series_free(p->sys_det);
	detect_group_free(p->dev_det);
	p->sys_det = detect_series_new(&p->dip);
	p->dev_det = detect_group_new(&p->dip);
}

static int pipeline_grow(struct pipeline *p, struct frame_derived *d, size_t n)
{
	if (frame_derived_grow(d, n) < 0)
		return -ENOMEM;
	if (n > p->usual_cap) {
		const struct grow_part parts[] = {
			{ (void **)&p->usual[0], sizeof *p->usual[0] },
			{ (void **)&p->usual[1], sizeof *p->usual[1] },
		};
		if (grow_arrays(parts, 2, &p->usual_cap, n, 64) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* Feed the detectors: bo for the system, each device's write rate for the
 * group.  Devices without a rate this interval (new, reset) are "no sample"
 * (a negative value): the detector sees them come and go.  Only the write
 * rate is derived here, the same number derive_dev gives; the other figures
 * wait for a view. */
static void pipeline_detect(struct pipeline *p, struct frame *f, struct frame_derived *d, bool have_rates)
{
	const struct snapshot *cur = f->cur;
	bool briefs = p->needs & PIPELINE_NEED_BRIEFS;
	detect_series_set_interval(p->sys_det, f->sys.dt_s);
	detect_group_set_interval(p->dev_det, f->sys.dt_s);
	f->sys_dip = detect_series_feed(p->sys_det, f->sys.bo_kbps, have_rates && f->sys.status == RATE_OK);
	f->sys_depth = detect_series_depth(p->sys_det);
	f->interval_dip = false;
	for (size_t i = 0; i < cur->ndev; i++) {
		const struct dev_counters *dev = &cur->dev[i];
		enum rate_status st = RATE_FIRST;
		if (briefs) {	/* one pass over the counters for both */
			st = derive_dev_brief_write(have_rates ? d->prev_of[i] : NULL, dev, f->sys.dt_s,
						    &d->briefs[i], &d->reqs[i]);
			d->values[i] = d->briefs[i].wkb_s;
		} else if (have_rates) {
			st = derive_dev_write(d->prev_of[i], dev, f->sys.dt_s, &d->values[i], &d->reqs[i]);
		}
		if (!have_rates || st != RATE_OK)
			d->values[i] = d->reqs[i] = -1.0;
		bool keyed = dev->ident && dev->ident->key;
		d->keys[i] = ident_dev_key(dev, d->name_keys[i], sizeof d->name_keys[i]);
		d->ids[i] = keyed ? dev->ident->key_serial : 0;
	}
	d->briefs_done = briefs;
	if (!have_rates) {	/* keys and ids for the views all the same */
		memset(d->dips, 0, cur->ndev * sizeof *d->dips);
		for (size_t i = 0; i < cur->ndev; i++)
			d->depth[i] = NAN;
		return;
	}
	f->interval_dip = detect_group_feed_depth(p->dev_det, d->keys, d->ids, d->values, d->reqs,
						  cur->ndev, d->dips, d->depth);
}

/* The source's recorded marks in place of the detector's, when the rule
 * says so and the source has them (enum pipeline_marks); *rec_causes: the
 * recorded causes of those marks, or NULL (none recorded, or not used). */
static void pipeline_recorded_marks(struct pipeline *p, struct frame *f, struct frame_derived *d,
				    const uint8_t **rec_causes, uint8_t *rec_sys_cause)
{
	struct source_marks m;
	f->recorded_marks = false;
	f->events = NULL;
	f->nevents = 0;
	*rec_causes = NULL;
	if (source_marks(p->src, &m) < 0)
		return;
	/* copied: the source's own are good only until its next sample */
	if (m.nevents && grow_array((void **)&d->events, &d->events_cap, m.nevents, sizeof *d->events, 4) == 0) {
		memcpy(d->events, m.events, m.nevents * sizeof *d->events);
		f->events = d->events;
		f->nevents = m.nevents;
	}
	if (p->marks != PIPELINE_MARKS_RECORDED)
		return;
	f->recorded_marks = true;
	f->sys_dip = m.sys_dip;
	f->interval_dip = false;
	for (size_t i = 0; i < f->cur->ndev; i++) {
		d->dips[i] = m.dev_dips && m.dev_dips[i];
		f->interval_dip |= d->dips[i];
	}
	*rec_causes = m.dev_causes;
	*rec_sys_cause = m.sys_cause;
}

/* Writers the process sample shows waiting at the dirty limit (D state in
 * balance_dirty_pages: the wchan guess); -1 without a process sample. */
static int pipeline_wchan_throttled(const struct snapshot *cur)
{
	if (!cur->nproc)
		return -1;
	int n = 0;
	for (size_t j = 0; j < cur->nproc; j++)
		n += cur->proc[j].state == 'D' && strstr(cur->proc[j].wchan, "balance_dirty_pages");
	return n;
}

/* What the interval says about every mark of it: the knob changes, the dirty limit, the
 * kernel loop's reclaim writeback and the wchan guess (the device's own figures are added
 * per device). */
static void pipeline_sys_evidence(const struct pipeline *p, const struct frame *f,
				  struct dip_evidence *e)
{
	cause_evidence_init(e);
	e->knob_changed = p->knob_step && p->step - p->knob_step <= 1;
	if (f->sys.status == RATE_OK) {
		e->dirty_kb = (double)f->sys.dirty_kb;
		e->dirty_thresh_kb = (double)f->sys.dirty_thresh_kb;
		e->dirtied_kbps = f->sys.dirtied_kbps;
		e->written_kbps = f->sys.written_kbps;
		if (f->sys.x_have & 1u << SNAP_XSYS_WB_VMSCAN_KB)
			e->reclaim_kbps = f->sys.x[SNAP_XSYS_WB_VMSCAN_KB];
	}
	e->throttled_wchan = pipeline_wchan_throttled(f->cur);
}

/* The devices at whose dirty limit the kernel paused tasks in the interval (its record of
 * them, the kernel loop's); -1 when the sample has none. Asked only of a marked system line:
 * a walk of the sample's values beside the devices. */
static int pipeline_sys_throttled(const struct frame *f)
{
	const struct snapshot *cur = f->cur;
	int n = -1;
	for (size_t j = 0; j < cur->nx; j++) {
		const struct snap_xval *v = &cur->x[j];
		double pauses;
		if (v->scope != SNAP_XDEV || v->kind != SNAP_XDEV_PAUSES ||
		    !derive_x(f->prev, cur, SNAP_XDEV, v->obj, v->kind, f->sys.dt_s, &pauses))
			continue;
		n = (n < 0 ? 0 : n) + (pauses > 0.0);
	}
	return n;
}

/* Whether every device of the sample (n of them) is where it was in prev: the usual case of a
 * set of devices that did not change. */
static bool pipeline_same_places(const struct frame_derived *d, const struct snapshot *prev,
				 const struct snapshot *cur, size_t n)
{
	if (snapshot_same_devs(prev, cur))
		return true;	/* the same list: no device to look at */
	if (n > prev->ndev)
		return false;
	for (size_t i = 0; i < n; i++)
		if (d->prev_of[i] != prev->dev + i)
			return false;
	return true;
}

/* The devices' usual figures in the order of cur's devices: where they were while every
 * device stayed in its place, else carried over by the pairing into the other array (a device
 * new since, or every device after a restart, starts learning). Copying them only when a
 * device came, went or moved spares a copy of every device's figures every sample. */
static struct dip_cause_base *pipeline_usual_order(struct pipeline *p, const struct frame_derived *d,
						   const struct snapshot *prev, const struct snapshot *cur)
{
	size_t n = cur->ndev;
	struct dip_cause_base *was = p->usual[p->cur_usual];
	if (prev && pipeline_same_places(d, prev, cur, n))
		return was;
	struct dip_cause_base *now = p->usual[1 - p->cur_usual];
	for (size_t i = 0; i < n; i++) {
		const struct dev_counters *dev = prev ? d->prev_of[i] : NULL;
		if (dev)
			now[i] = was[dev - prev->dev];
		else
			cause_base_init(&now[i]);
	}
	p->cur_usual = 1 - p->cur_usual;
	return now;
}

/* Whether device i has rates this interval (RATE_OK): pipeline_detect gave it a write rate, not
 * "no sample". */
static bool pipeline_has_rates(const struct frame_derived *d, size_t i)
{
	return d->values[i] >= 0.0;
}

/* Device i's figures to learn as its usual ones, NULL when it has no rates: the diskstats ones
 * a cause is judged by and, of the kernel loop's values beside them, only its pages dirtied (a
 * mark's evidence has them all, frame_dev_rate), found by the walk w along the sample's values
 * in device order. The detector's derivation already said the device has rates: its counters
 * are not tested again. */
static const struct dev_rates *pipeline_usual_rates(struct pipeline *p, const struct frame *f,
						    size_t i, struct derive_xwalk *w)
{
	const struct frame_derived *fd = f->derived;
	if (!pipeline_has_rates(fd, i))
		return NULL;
	const struct dev_counters *d = &f->cur->dev[i];
	struct dev_rates *r = &p->usual_rates;
	derive_dev_cause_ok(fd->prev_of[i], d, f->sys.dt_s, r);
	if (r->status == RATE_OK &&
	    derive_xwalk_x(w, f->prev, f->cur, snapshot_xobj_dev(d->major, d->minor), f->sys.dt_s,
			   &r->x[SNAP_XDEV_WB_DIRTIED_KB]))
		r->x_have |= 1u << SNAP_XDEV_WB_DIRTIED_KB;
	return r;
}

/* The cause of device i's mark, judged against its usual figures b (NULL r: no rates). */
static uint8_t pipeline_dev_cause(const struct dip_evidence *sys, const struct dev_rates *r,
				  const struct dip_cause_base *b, bool knob_held)
{
	if (!r || r->status != RATE_OK)
		return DIP_CAUSE_UNKNOWN;
	struct dip_evidence e = *sys;
	e.knob_held = knob_held;
	/* the pauses of the tasks held to this device's dirty limit: exact throttling */
	if (r->x_have & 1u << SNAP_XDEV_PAUSES)
		e.throttled_exact = r->x[SNAP_XDEV_PAUSES] > 0.0 ? 1 : 0;
	/* the system's pages are not this device's, but where its own were never known they tell
	 * whether a knob change still holds (cause_of) */
	e.sys_dirtied_kbps = e.dirtied_kbps;
	e.sys_written_kbps = e.written_kbps;
	e.dirtied_kbps = e.written_kbps = -1.0;
	cause_evidence_dev(&e, r);
	return (uint8_t)cause_of(&e, b);
}

/* The system line's cause, and whether the next interval's is held by a knob. */
static void pipeline_sys_cause(struct pipeline *p, struct frame *f, const struct dip_evidence *sys,
			       const uint8_t *rec_causes, uint8_t rec_sys_cause)
{
	f->sys_cause = DIP_CAUSE_UNKNOWN;
	if (f->sys_dip && rec_causes) {
		f->sys_cause = rec_sys_cause;
	} else if (f->sys_dip) {
		struct dip_evidence e = *sys;
		e.throttled_exact = pipeline_sys_throttled(f);
		f->sys_cause = (uint8_t)cause_of(&e, NULL);
	}
	p->sys_knob_held = f->sys_dip && f->sys_cause == DIP_CAUSE_KNOB;
}

/* Each mark's cause, and each unmarked device's figures learnt as its usual ones (from every
 * DIP_CAUSE_LEARN_EVERY-th interval: the figures of all devices are not derived for it). A
 * recorded cause is taken as it is. */
static void pipeline_causes(struct pipeline *p, struct frame *f, const struct snapshot *prev,
			    const uint8_t *rec_causes, uint8_t rec_sys_cause)
{
	const struct snapshot *cur = f->cur;
	struct dip_evidence sys;
	pipeline_sys_evidence(p, f, &sys);
	sys.knob_held = p->sys_knob_held;
	pipeline_sys_cause(p, f, &sys, rec_causes, rec_sys_cause);
	struct frame_derived *d = f->derived;
	struct dip_cause_base *usual = pipeline_usual_order(p, d, prev, cur);
	struct derive_xwalk dirtied;
	derive_xwalk_init(&dirtied, cur, SNAP_XDEV, SNAP_XDEV_WB_DIRTIED_KB);
	_Static_assert(DIP_CAUSE_UNKNOWN == 0, "causes start unknown: a byte of zeros each");
	memset(d->causes, 0, cur->ndev * sizeof *d->causes);
	for (size_t i = 0; i < cur->ndev; i++) {
		struct dip_cause_base *b = &usual[i];
		bool knob_held = b->knob_held;
		b->knob_held = false;
		if (!d->dips[i]) {
			if (prev && cause_base_due(b, p->step, i)) {
				const struct dev_rates *r = pipeline_usual_rates(p, f, i, &dirtied);
				if (r && r->status == RATE_OK)
					cause_base_learn_dev(b, r);
			}
		} else if (rec_causes) {
			d->causes[i] = rec_causes[i] < DIP_NCAUSES ? rec_causes[i] : DIP_CAUSE_UNKNOWN;
		} else if (prev) {
			d->causes[i] = pipeline_dev_cause(&sys, frame_dev_rate(f, i), b, knob_held);
			b->knob_held = d->causes[i] == DIP_CAUSE_KNOB;
		}
	}
	f->dev_cause = d->causes;
}

/* The snapshot the next step fills: neither of the last frame's when a sink keeps frames,
 * else (no one holds the last frame once the next step starts) its previous one: two
 * snapshots, not three, in a headless run. */
static int pipeline_free_snap(const struct pipeline *p)
{
	int i = 0;
	while (i == p->cur || (i == p->prev && (p->needs & PIPELINE_NEED_KEEP)))
		i++;
	return i;
}

static int pipeline_step_one(struct pipeline *p, const struct frame **out)
{
	int next = pipeline_free_snap(p);
	struct snapshot *cur = &p->snap[next];
	if (p->on_refill)
		p->on_refill(p->refill_ctx, cur);	/* before any byte of it is overwritten */
	int fi = p->needs & PIPELINE_NEED_KEEP ? 1 - p->last : 0;	/* (likewise its derived figures) */
	struct frame_derived *d = &p->derived[fi];
	int rc = source_next(p->src, cur);
	if (rc == 0 && pipeline_grow(p, d, cur->ndev) < 0)
		rc = -ENOMEM;
	if (rc != 0)
		return rc;	/* the last frame is untouched: its samples are not this one */
	const struct snapshot *prev = p->have_prev ? &p->snap[p->cur] : NULL;
	struct frame *f = &p->frame[fi];
	memset(f, 0, sizeof *f);
	f->cur = cur;
	f->prev = prev;
	f->derived = d;
	d->step = ++p->step;
	d->rates_all = d->briefs_done = false;
	derive_sys(prev, cur, &f->sys);
	derive_pair_devs(prev, cur, d->prev_of);
	f->dev_dip = d->dips;
	f->dev_depth = d->depth;
	pipeline_detect(p, f, d, prev != NULL);
	const uint8_t *rec_causes;
	uint8_t rec_sys_cause = DIP_CAUSE_UNKNOWN;
	pipeline_recorded_marks(p, f, d, &rec_causes, &rec_sys_cause);
	f->nchanges = control_rules_changes(prev, cur, d->changes, SNAP_NKNOBS);
	if (f->nchanges || f->nevents)
		p->knob_step = p->step;	/* anyone's change, wbtop's own writes included */
	/* what a recorded write explains is that write (with its reason), not a change by someone else */
	f->nchanges = control_rules_unexplained(d->changes, f->nchanges, f->events, f->nevents);
	f->changes = d->changes;
	pipeline_causes(p, f, prev, rec_causes, rec_sys_cause);
	p->prev = prev ? p->cur : -1;
	p->cur = next;
	p->last = fi;
	p->have_prev = true;
	*out = f;
	return 0;
}

/* A replay's lead (the samples before --begin) goes through derive and detect
 * and no further: the first sample of the part is the baseline, as it would be
 * without a lead, but the dips and depths after it are the whole replay's. */
int pipeline_step(struct pipeline *p, const struct frame **out)
{
	bool lead = false;
	int rc;
	while ((rc = pipeline_step_one(p, out)) == 0 && (*out)->cur->lead)
		lead = true;
	if (rc == 0 && lead) {
		struct frame *f = &p->frame[p->last];
		f->prev = NULL;
		f->nchanges = 0;
	}
	return rc;
}
