/*
 * cause.c - the cause of a marked interval. Contract in include/cause.h; the set of causes
 * and why each test is what it is in doc/dips.md ("Causes").
 *
 * The tests go from the most specific evidence to the least: a knob change and the kernel's
 * own throttling record say exactly what happened; the dirty limit explains writers that
 * stopped submitting (they wait in balance_dirty_pages), so it comes before "stopped"; flushes
 * raise await too, so they come before "slowed".
 */
#include <stddef.h>
#include <string.h>

#include "cause.h"
#include "derive.h"
#include "figure.h"

/* The baseline follows the last 4 or so intervals it learns from: with one learnt in every
 * DIP_CAUSE_LEARN_EVERY, about the last 16 undipped intervals. */
static const double CAUSE_BASE_WEIGHT = 0.25;
/* Nothing queued: under half a request in flight on average. */
static const double CAUSE_QUEUE_EMPTY = 0.5;
/* Writes down: under half the usual w/s. */
static const double CAUSE_WRITES_DOWN = 0.5;
/* Up against its own baseline: more than twice the usual, and by more than a small absolute
 * amount (an await of 0.1 ms doubling is nothing). */
static const double CAUSE_UP_FACTOR = 2.0;
static const double CAUSE_AWAIT_MIN_MS = 2.0;
static const double CAUSE_FLUSH_MIN_PS = 1.0;
/* The queue is full when it is 1.5 times its usual length and at least one request deep. */
static const double CAUSE_QUEUE_FULL = 1.5;
/* Dirty data within 5 % of the kernel's limit: writers are throttled there. */
static const double CAUSE_DIRTY_AT_LIMIT = 0.95;

void dip_cause_base_init(struct dip_cause_base *b)
{
	b->w_s = b->aqu_sz = b->w_await_ms = b->f_s = b->f_await_ms = 0.0;
	b->n = 0;
}

void dip_evidence_init(struct dip_evidence *e)
{
	e->w_s = e->aqu_sz = e->w_await_ms = e->f_s = e->f_await_ms = -1.0;
	e->knob_changed = false;
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

void dip_cause_base_learn(struct dip_cause_base *b, const struct dip_evidence *e)
{
	cause_follow(&b->w_s, e->w_s, b->n);
	cause_follow(&b->aqu_sz, e->aqu_sz, b->n);
	cause_follow(&b->w_await_ms, e->w_await_ms, b->n);
	cause_follow(&b->f_s, e->f_s, b->n);
	cause_follow(&b->f_await_ms, e->f_await_ms, b->n);
	if (b->n < 1000)
		b->n++;
}

/* Is now (known) up against usual: above CAUSE_UP_FACTOR times it and above it by min? */
static bool cause_up(double now, double usual, double min)
{
	return now >= 0.0 && now > CAUSE_UP_FACTOR * usual && now - usual > min;
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

static bool cause_flush(const struct dip_evidence *e, const struct dip_cause_base *b)
{
	return b && b->n && (cause_up(e->f_s, b->f_s, CAUSE_FLUSH_MIN_PS) ||
			     cause_up(e->f_await_ms, b->f_await_ms, CAUSE_AWAIT_MIN_MS));
}

static bool cause_slowed(const struct dip_evidence *e, const struct dip_cause_base *b)
{
	if (!b || !b->n)
		return false;
	bool queue_full = e->aqu_sz >= 1.0 && e->aqu_sz > CAUSE_QUEUE_FULL * b->aqu_sz;
	return queue_full || cause_up(e->w_await_ms, b->w_await_ms, CAUSE_AWAIT_MIN_MS);
}

enum dip_cause dip_cause_of(const struct dip_evidence *e, const struct dip_cause_base *b)
{
	if (e->knob_changed)
		return DIP_CAUSE_KNOB;
	if (e->throttled_exact > 0)
		return DIP_CAUSE_THROTTLED;
	if (cause_throttled_guess(e))
		return DIP_CAUSE_THROTTLED_GUESS;
	if (cause_stopped(e, b))
		return DIP_CAUSE_STOPPED;
	if (cause_flush(e, b))
		return DIP_CAUSE_FLUSH;
	if (cause_slowed(e, b))
		return DIP_CAUSE_SLOWED;
	if (e->reclaim_kbps > 0.0)
		return DIP_CAUSE_RECLAIM;
	if (e->sibling_rose)
		return DIP_CAUSE_SHARED_DISK;
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
};

const char *dip_cause_name(enum dip_cause c)
{
	size_t i = (size_t)c;
	return i < DIP_NCAUSES && cause_names[i] ? cause_names[i] : "unknown";
}

enum dip_cause dip_cause_by_name(const char *name)
{
	for (unsigned i = 0; name && i < DIP_NCAUSES; i++)
		if (cause_names[i] && strcmp(cause_names[i], name) == 0)
			return (enum dip_cause)i;
	return DIP_CAUSE_UNKNOWN;
}

void dip_evidence_dev(struct dip_evidence *e, const struct dev_rates *r)
{
	/* through the registry: a figure the device lacks (flushes) stays unknown */
	fig_dev_get(FIG_DEV_W_S, r, &e->w_s);
	fig_dev_get(FIG_DEV_AQU_SZ, r, &e->aqu_sz);
	fig_dev_get(FIG_DEV_W_AWAIT_MS, r, &e->w_await_ms);
	fig_dev_get(FIG_DEV_F_S, r, &e->f_s);
	fig_dev_get(FIG_DEV_F_AWAIT_MS, r, &e->f_await_ms);
}
