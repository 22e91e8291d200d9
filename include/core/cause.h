/*
 * cause.h - why a marked interval dipped, from evidence in the same interval.
 *
 * Pure: a marked interval's figures and the device's baseline of them (kept here) in,
 * one cause of a small documented set out (doc/causes.md).
 * Not: reading or printing; a sink asks and shows the answer.
 */
#ifndef WBTOP_CAUSE_H
#define WBTOP_CAUSE_H

#include <stdbool.h>

enum dip_cause {
	DIP_CAUSE_UNKNOWN,
	DIP_CAUSE_KNOB,			/* a knob changed in the interval or the one before */
	DIP_CAUSE_THROTTLED,		/* the kernel throttled writers at the dirty limit */
	DIP_CAUSE_THROTTLED_GUESS,	/* dirty data at its limit, or writers waiting there */
	DIP_CAUSE_STOPPED,		/* writers stopped submitting: nothing queued, w/s down */
	DIP_CAUSE_FLUSH,		/* flushes or barriers: f/s or f_await up */
	DIP_CAUSE_SLOWED,		/* the device slowed: queue full, await up */
	DIP_CAUSE_RECLAIM,		/* reclaim busy (kswapd, vmscan writeback) */
	DIP_CAUSE_SHARED_DISK,		/* bandwidth taken by another device on the same disk */
	DIP_CAUSE_WRITERS_SLOWED,	/* writers submitted less: nothing queued, await as usual,
					 * w/s down (the device was not the bottleneck) */
};

/* A device's usual figures; start with cause_base_init. */
struct dip_cause_base {
	double w_s, aqu_sz, w_await_ms, f_s, f_await_ms;
	double w_kbps, dirtied_kbps;	/* written to the device; its pages dirtied */
	unsigned n;			/* intervals learnt (saturates) */
	bool dirtied_known;		/* dirtied_kbps was learnt from a known figure */
	bool knob_held;			/* its last interval was a dip a knob change caused
					 * (the pipeline's to set; see dip_evidence) */
};

/* What one interval shows. Unknown figures are negative (or, for the booleans, false). */
struct dip_evidence {
	double w_s, aqu_sz, w_await_ms, f_s, f_await_ms;	/* the device this interval */
	double w_kbps;			/* the device's writes, KiB/s */
	/* pages dirtied and written back, KiB/s: the device's (the kernel loop's BdiDirtied,
	 * BdiWritten), the system's (nr_dirtied, nr_written) for the system line */
	double dirtied_kbps, written_kbps;
	/* a device's: the system's pages dirtied and written back (nr_dirtied, nr_written), the
	 * knob's evidence where the device's own were never known (no debugfs) */
	double sys_dirtied_kbps, sys_written_kbps;
	bool knob_changed;		/* a knob changed in this interval or the one before */
	bool knob_held;			/* the series' last interval was a dip a knob change caused:
					 * the cause holds while its writers go on dirtying pages */
	double dirty_kb, dirty_thresh_kb;	/* system-wide */
	int throttled_exact;		/* writers the kernel throttled (tracefs) */
	int throttled_wchan;		/* writers waiting in balance_dirty_pages, by wchan */
	double reclaim_kbps;		/* writeback by reclaim (kswapd, vmscan) */
	bool sibling_rose;		/* another device on the same backing disk rose */
};

void cause_base_init(struct dip_cause_base *b);

/* Learn an undipped interval's figures (not a dip's: they are what it is judged against). */
void cause_base_learn(struct dip_cause_base *b, const struct dip_evidence *e);

/* The cause of a marked interval; b may be NULL (no baseline: only what needs none). */
enum dip_cause cause_of(const struct dip_evidence *e, const struct dip_cause_base *b);

/* "writers stopped", "device slowed", "throttled", "throttled (guess)", ... */
const char *cause_name(enum dip_cause c);
/* The cause a name says (as cause_name gives it: recordings store names, not numbers);
 * DIP_CAUSE_UNKNOWN for a name this build does not know. */
enum dip_cause cause_by_name(const char *name);
/* The number of causes: every enum dip_cause is below it. */
#define DIP_NCAUSES ((unsigned)DIP_CAUSE_WRITERS_SLOWED + 1)

/* An evidence with every figure unknown. */
void cause_evidence_init(struct dip_evidence *e);

/* A device's usual figures are learnt from every interval while it has fewer than this many,
 * then from every DIP_CAUSE_LEARN_EVERY-th (the pipeline spreads the devices over the
 * intervals): each usual figure follows about the last 16 intervals either way, and a
 * sample of thousands of devices does not derive every device's figures for it. */
enum { DIP_CAUSE_LEARN_FIRST = 4, DIP_CAUSE_LEARN_EVERY = 4 };
/* Whether a device's usual figures b are to learn from this interval; step counts the
 * intervals, slot spreads the devices over them (its position, say). */
static inline bool cause_base_due(const struct dip_cause_base *b, unsigned long step,
				  size_t slot)
{
	return b->n < DIP_CAUSE_LEARN_FIRST || (step + slot) % DIP_CAUSE_LEARN_EVERY == 0;
}

struct dev_rates;
/* The device's own figures of an interval into e (r: derived, RATE_OK; flush figures only
 * where the kernel counts them): which figures are evidence is this module's to say. */
void cause_evidence_dev(struct dip_evidence *e, const struct dev_rates *r);

/* Learn an undipped interval's figures of the device itself: what cause_base_learn learns
 * from the evidence cause_evidence_dev gives of r (over an evidence with every figure unknown),
 * bit for bit, for less work (the pipeline learns a quarter of its devices every interval). */
void cause_base_learn_dev(struct dip_cause_base *b, const struct dev_rates *r);

#endif
