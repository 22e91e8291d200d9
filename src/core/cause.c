/*
 * cause.c - the cause of a marked interval (contract in cause.h).
 *
 * The tests go from the most specific evidence to the least; the set of causes and why
 * each test stands where it does are in doc/causes.md.
 */
#include <stddef.h>
#include <string.h>

#include "core/cause.h"
#include "core/derive.h"
#include "core/figure.h"

/* The baseline follows the last 4 or so intervals it learns from: with one learnt in every
 * DIP_CAUSE_LEARN_EVERY, about the last 16 undipped intervals. */
static const double CAUSE_BASE_WEIGHT = 0.25;
/* Nothing queued: under half a request in flight on average. */
static const double CAUSE_QUEUE_EMPTY = 0.5;
/* Stopped: under a tenth of the usual w/s (what is left is the interval's edge, a last flush);
 * a writer at 40 % is slowed, not stopped. */
static const double CAUSE_WRITES_DOWN = 0.1;
/* Fewer writes: at least 5 % under the usual w/s (a dip is a fall of 8 % or more). */
static const double CAUSE_WRITES_FEWER = 0.05;
/* Up against its own baseline: more than twice the usual, and by more than a small absolute
 * amount (an await of 0.1 ms doubling is nothing). */
static const double CAUSE_UP_FACTOR = 2.0;
static const double CAUSE_AWAIT_MIN_MS = 2.0;
static const double CAUSE_FLUSH_MIN_PS = 3.0;	/* a journal commit is a flush or two */
/* The queue is full when it is 1.5 times its usual length and at least one request deep. */
static const double CAUSE_QUEUE_FULL = 1.5;
/* Dirty data within 5 % of the kernel's limit: writers are throttled there. */
static const double CAUSE_DIRTY_AT_LIMIT = 0.95;
/* Written through the page cache: pages dirtied at 256 KiB/s or more (four idle floors). */
static const double CAUSE_DIRTIED_MIN_KBPS = 256.0;
/* The writers kept up when their pages fell by under half what the writes fell by (a writer
 * that slowed dirties as much less as it writes); the system's writeback fell behind when it
 * wrote back under half what was dirtied. */
static const double CAUSE_KEPT_UP = 0.5;

void cause_base_init(struct dip_cause_base *b)
{
	b->w_s = b->aqu_sz = b->w_await_ms = b->f_s = b->f_await_ms = 0.0;
	b->w_kbps = b->dirtied_kbps = 0.0;
	b->n = 0;
	b->knob_held = b->dirtied_known = false;
}

void cause_evidence_init(struct dip_evidence *e)
{
	e->w_s = e->aqu_sz = e->w_await_ms = e->f_s = e->f_await_ms = -1.0;
	e->w_kbps = e->dirtied_kbps = e->written_kbps = -1.0;
	e->sys_dirtied_kbps = e->sys_written_kbps = -1.0;
	e->knob_changed = e->knob_held = false;
	e->dirty_kb = e->dirty_thresh_kb = -1.0;
	e->throttled_exact = e->throttled_wchan = -1;
	e->reclaim_kbps = -1.0;
	e->sibling_rose = false;
}

/* x moved a step towards v; the first value is taken as it is. Unknown v: unchanged. */
static void cause_follow(double *x, double v, unsigned n)
{
	if (v < 0.0)
		return;
	*x = n ? *x + CAUSE_BASE_WEIGHT * (v - *x) : v;
}

void cause_base_learn(struct dip_cause_base *b, const struct dip_evidence *e)
{
	cause_follow(&b->w_s, e->w_s, b->n);
	cause_follow(&b->aqu_sz, e->aqu_sz, b->n);
	cause_follow(&b->w_await_ms, e->w_await_ms, b->n);
	cause_follow(&b->f_s, e->f_s, b->n);
	cause_follow(&b->f_await_ms, e->f_await_ms, b->n);
	cause_follow(&b->w_kbps, e->w_kbps, b->n);
	cause_follow(&b->dirtied_kbps, e->dirtied_kbps, b->n);
	b->dirtied_known |= e->dirtied_kbps >= 0.0;
	if (b->n < 1000)
		b->n++;
}

/* Figure f of r as cause_evidence_dev reads it: known (RATE_OK, and what the figure needs there)
 * or -1, evidence's unknown. */
static double cause_dev_figure(const struct dev_rates *r, double v, bool there)
{
	return r->status == RATE_OK && there ? v : -1.0;
}

/* The figures are read here by name, not row by row through the registry as cause_evidence_dev
 * reads them: at thousands of devices a quarter of them learn every interval, and the rows'
 * lookups were a sixth of the learning. test_cause holds the two to the same figures and the
 * same availability, so a change of a row shows there. */
void cause_base_learn_dev(struct dip_cause_base *b, const struct dev_rates *r)
{
	bool dirtied = r->x_have & 1u << SNAP_XDEV_WB_DIRTIED_KB;
	cause_follow(&b->w_s, cause_dev_figure(r, r->w_s, true), b->n);
	cause_follow(&b->aqu_sz, cause_dev_figure(r, r->aqu_sz, true), b->n);
	cause_follow(&b->w_await_ms, cause_dev_figure(r, r->w_await_ms, true), b->n);
	cause_follow(&b->f_s, cause_dev_figure(r, r->f_s, r->has_flush), b->n);
	cause_follow(&b->f_await_ms, cause_dev_figure(r, r->f_await_ms, r->has_flush), b->n);
	cause_follow(&b->w_kbps, cause_dev_figure(r, r->wkb_s, true), b->n);
	double v = cause_dev_figure(r, r->x[SNAP_XDEV_WB_DIRTIED_KB], dirtied);
	cause_follow(&b->dirtied_kbps, v, b->n);
	b->dirtied_known |= v >= 0.0;
	if (b->n < 1000)
		b->n++;
}

/* Is now (known) up against usual: above CAUSE_UP_FACTOR times it and above it by min? */
static bool cause_up(double now, double usual, double min)
{
	return now >= 0.0 && now > CAUSE_UP_FACTOR * usual && now - usual > min;
}

/* How far now fell below usual, as a fraction (0 when it did not fall). */
static double cause_fall(double now, double usual)
{
	return now < usual ? 1.0 - now / usual : 0.0;
}

/* Whether the system's writers went on dirtying pages that its writeback fell behind on (1),
 * or not (0); -1 when unknown. Nothing usual to compare with: what it wrote back. */
static int cause_sys_kept_dirtying(double dirtied_kbps, double written_kbps)
{
	if (dirtied_kbps < CAUSE_DIRTIED_MIN_KBPS || written_kbps < 0.0)
		return dirtied_kbps >= 0.0 ? 0 : -1;
	return written_kbps < CAUSE_KEPT_UP * dirtied_kbps;
}

/* Whether the writers went on dirtying pages while the writes fell (1), or not (0); -1 when
 * unknown: no page-cache figures now, or (a device) one not written through the page cache. */
static int cause_kept_dirtying(const struct dip_evidence *e, const struct dip_cause_base *b)
{
	if (!b)
		return cause_sys_kept_dirtying(e->dirtied_kbps, e->written_kbps);
	if (!b->n || b->dirtied_kbps < CAUSE_DIRTIED_MIN_KBPS || b->w_kbps <= 0.0 ||
	    e->dirtied_kbps < 0.0 || e->w_kbps < 0.0)
		return -1;
	return cause_fall(e->dirtied_kbps, b->dirtied_kbps) <
	       CAUSE_KEPT_UP * cause_fall(e->w_kbps, b->w_kbps);
}

/* A dip that a knob change began goes on being the knob's while the writers go on dirtying
 * pages: what the knob holds back (background writeback, say) stays held back. A device known
 * to be written through the page cache keeps it through an interval whose page-cache figures
 * are missing; one whose own were never known (no debugfs) while the system's writers go on
 * dirtying pages its writeback falls behind on, as the system line does: the knob change is
 * the evidence that began it, the system's pages that it goes on. */
static bool cause_knob_holds(const struct dip_evidence *e, const struct dip_cause_base *b,
			     int kept)
{
	if (!e->knob_held)
		return false;
	if (!b)
		return kept == 1;
	if (kept != -1)
		return kept == 1;
	if (b->n && b->dirtied_known)
		return b->dirtied_kbps >= CAUSE_DIRTIED_MIN_KBPS;
	return cause_sys_kept_dirtying(e->sys_dirtied_kbps, e->sys_written_kbps) == 1;
}

static bool cause_throttled_guess(const struct dip_evidence *e)
{
	if (e->throttled_wchan > 0)
		return true;
	return e->dirty_thresh_kb > 0.0 && e->dirty_kb >= CAUSE_DIRTY_AT_LIMIT * e->dirty_thresh_kb;
}

static bool cause_stopped(const struct dip_evidence *e, const struct dip_cause_base *b)
{
	if (!(e->aqu_sz >= 0.0 && e->aqu_sz < CAUSE_QUEUE_EMPTY) || e->w_s < 0.0)
		return false;
	return b && b->n ? e->w_s < CAUSE_WRITES_DOWN * b->w_s : e->w_s == 0.0;
}

/* Writers that submitted less without stopping: nothing queued and less written than usual --
 * the device was waiting for work, not the work for it, however long each request took (a
 * device idle half the interval or more could have done more). Last of the device's own
 * evidence: anything the device did wrong comes first. */
static bool cause_writers_slowed(const struct dip_evidence *e, const struct dip_cause_base *b)
{
	if (!b || !b->n || !(e->aqu_sz >= 0.0 && e->aqu_sz < CAUSE_QUEUE_EMPTY) || e->w_s < 0.0)
		return false;
	/* fewer writes in bytes where both are known: the count of requests follows their size,
	 * which a device may change mid-run (a loop device's writer in 1 MiB requests, then in
	 * 512 KiB ones: twice the w/s at the same rate) */
	bool fewer = e->w_kbps >= 0.0 && b->w_kbps > 0.0 ?
		     e->w_kbps < (1.0 - CAUSE_WRITES_FEWER) * b->w_kbps :
		     e->w_s < (1.0 - CAUSE_WRITES_FEWER) * b->w_s;
	return fewer;
}

static bool cause_flush(const struct dip_evidence *e, const struct dip_cause_base *b)
{
	return b && b->n && (cause_up(e->f_s, b->f_s, CAUSE_FLUSH_MIN_PS) ||
			     cause_up(e->f_await_ms, b->f_await_ms, CAUSE_AWAIT_MIN_MS));
}

/* The device slowed: its queue grew, or its requests took much longer while it had work
 * waiting (half a request in flight or more). An await that rose on a device that was mostly
 * idle did not hold its writers back: in the live corpus every device's await rose fourfold a
 * few seconds before a writer's injected drop, on a machine that slowed, and the usual await,
 * which follows about 16 intervals, had not caught up. */
static bool cause_slowed(const struct dip_evidence *e, const struct dip_cause_base *b)
{
	if (!b || !b->n)
		return false;
	bool queue_full = e->aqu_sz >= 1.0 && e->aqu_sz > CAUSE_QUEUE_FULL * b->aqu_sz;
	bool idle = e->aqu_sz >= 0.0 && e->aqu_sz < CAUSE_QUEUE_EMPTY;
	return queue_full || (!idle && cause_up(e->w_await_ms, b->w_await_ms, CAUSE_AWAIT_MIN_MS));
}

enum dip_cause cause_of(const struct dip_evidence *e, const struct dip_cause_base *b)
{
	int kept = cause_kept_dirtying(e, b);
	if (e->knob_changed || cause_knob_holds(e, b, kept))
		return DIP_CAUSE_KNOB;
	if (e->throttled_exact > 0)
		return DIP_CAUSE_THROTTLED;
	if (cause_throttled_guess(e))
		return DIP_CAUSE_THROTTLED_GUESS;
	if (kept != 1 && cause_stopped(e, b))
		return DIP_CAUSE_STOPPED;
	if (cause_flush(e, b))
		return DIP_CAUSE_FLUSH;
	if (cause_slowed(e, b))
		return DIP_CAUSE_SLOWED;
	if (e->reclaim_kbps > 0.0)
		return DIP_CAUSE_RECLAIM;
	if (e->sibling_rose)
		return DIP_CAUSE_SHARED_DISK;
	if (kept != 1 && cause_writers_slowed(e, b))
		return DIP_CAUSE_WRITERS_SLOWED;
	return DIP_CAUSE_UNKNOWN;
}

static const char *const cause_names[DIP_NCAUSES] = {
	[DIP_CAUSE_UNKNOWN] = "unknown",
	[DIP_CAUSE_KNOB] = "knob change",
	[DIP_CAUSE_THROTTLED] = "throttled",
	[DIP_CAUSE_THROTTLED_GUESS] = "throttled (guess)",
	[DIP_CAUSE_STOPPED] = "writers stopped",
	[DIP_CAUSE_FLUSH] = "flushes",
	[DIP_CAUSE_SLOWED] = "device slowed",
	[DIP_CAUSE_RECLAIM] = "reclaim",
	[DIP_CAUSE_SHARED_DISK] = "shared disk",
	[DIP_CAUSE_WRITERS_SLOWED] = "writers slowed",
};

const char *cause_name(enum dip_cause c)
{
	size_t i = (size_t)c;
	return i < DIP_NCAUSES && cause_names[i] ? cause_names[i] : "unknown";
}

enum dip_cause cause_by_name(const char *name)
{
	for (unsigned i = 0; name && i < DIP_NCAUSES; i++)
		if (cause_names[i] && strcmp(cause_names[i], name) == 0)
			return (enum dip_cause)i;
	return DIP_CAUSE_UNKNOWN;
}

void cause_evidence_dev(struct dip_evidence *e, const struct dev_rates *r)
{
	/* through the registry: a figure the device lacks (flushes) stays unknown */
	figure_dev_get(FIG_DEV_W_S, r, &e->w_s);
	figure_dev_get(FIG_DEV_AQU_SZ, r, &e->aqu_sz);
	figure_dev_get(FIG_DEV_W_AWAIT_MS, r, &e->w_await_ms);
	figure_dev_get(FIG_DEV_F_S, r, &e->f_s);
	figure_dev_get(FIG_DEV_F_AWAIT_MS, r, &e->f_await_ms);
	figure_dev_get(FIG_DEV_WKB_S, r, &e->w_kbps);
	figure_dev_get(FIG_DEV_WB_DIRTIED_KB_S, r, &e->dirtied_kbps);
	figure_dev_get(FIG_DEV_WB_WRITTEN_KB_S, r, &e->written_kbps);
}
