/*
 * derive.h - rates from two snapshots, computed the way vmstat and iostat -x
 * compute them.
 *
 * Pure functions: no files, no clock, no output.  Counters are unsigned and
 * cumulative; a counter that went backwards means the device was reset or
 * replaced, and gives a "reset" status, never a huge rate.
 */
#ifndef WBTOP_DERIVE_H
#define WBTOP_DERIVE_H

#include "core/event.h"
#include "core/snapshot.h"

/* The state of a derived rate. */
enum rate_status {
	RATE_OK,	/* derived from two good samples */
	RATE_FIRST,	/* the device is new: no previous sample yet */
	RATE_RESET,	/* counters went backwards or the device was replaced */
	RATE_NODATA	/* no time passed between the samples */
};

/* vmstat's columns plus the writeback figures, for one interval. */
struct sys_rates {
	enum rate_status status;
	double dt_s;				/* seconds between the two snapshots */
	uint64_t r, b;				/* procs running, blocked (gauges) */
	uint64_t swpd_kb, free_kb, buff_kb, cache_kb;
	double si_kbps, so_kbps;		/* swap in/out, KiB/s */
	double bi_kbps, bo_kbps;		/* block in/out, KiB/s (vmstat bi/bo) */
	double in_ps, cs_ps;			/* interrupts, context switches per second */
	double us, sy, id, wa, st;		/* CPU percent as vmstat: us = user+nice, sy = system+irq+softirq */
	uint64_t dirty_kb, writeback_kb;	/* meminfo */
	uint64_t dirty_thresh_kb, bg_thresh_kb;	/* the kernel's current limits */
	double dirtied_kbps, written_kbps;	/* nr_dirtied, nr_written rates */
	/* values beside the fixed blocks (snapshot.h), by enum snap_xsys: gauges
	 * as read, counters per second; bit k of x_have says x[k] is there */
	double x[SNAP_XSLOTS(SNAP_NXSYS)];
	uint32_t x_have;
};

/* iostat -x columns for one device, for one interval. */
struct dev_rates {
	enum rate_status status;
	double r_s, w_s, rkb_s, wkb_s, rrqm_s, wrqm_s;
	double r_await_ms, w_await_ms, aqu_sz, util_pct;
	double d_s, dkb_s, d_await_ms;		/* discards: valid when has_discard */
	double f_s, f_await_ms;			/* flushes: valid when has_flush */
	bool has_discard, has_flush;
	bool active;				/* any I/O completed or in flight in the interval */
	/* values beside the diskstats block (snapshot.h), by enum snap_xdev:
	 * gauges as read, counters per second; bit k of x_have says x[k] is
	 * there.  Set by derive_dev_x, after derive_dev (which clears x_have). */
	double x[SNAP_XSLOTS(SNAP_NXDEV)];
	uint32_t x_have;
};

/* "ok", "first", "reset", "nodata": a status as the exports name it. */
const char *derive_status_name(enum rate_status s);

/* System rates from prev to cur.  Returns out->status. */
enum rate_status derive_sys(const struct snapshot *prev, const struct snapshot *cur,
			    struct sys_rates *out);

/* Rates of every device of cur (out has cur->ndev entries, same order),
 * matched to prev by major:minor and name.  Both snapshots sorted. */
void derive_devs(const struct snapshot *prev, const struct snapshot *cur,
		 struct dev_rates *out);

/* Each device of cur's previous sample in prev (prev_of has cur->ndev entries), NULL for a
 * device new in cur or when prev is NULL: what derive_devs pairs. Both snapshots sorted. */
void derive_pair_devs(const struct snapshot *prev, const struct snapshot *cur,
		      const struct dev_counters **prev_of);

/* Of derive_dev's figures, only the status and the write rate, KiB/s (0 unless RATE_OK), the
 * same numbers, and in *w_ios (if not NULL) the writes completed in the interval (0 unless
 * RATE_OK): what the dip detector needs of every device every interval, without the other
 * fourteen figures that only a view needs. */
enum rate_status derive_dev_write(const struct dev_counters *prev, const struct dev_counters *cur,
				  double dt_s, double *wkb_s, double *w_ios);

/* Of derive_dev's figures, the status and those a dip's cause is judged by (w_s, wkb_s,
 * aqu_sz, w_await_ms, f_s, f_await_ms, and has_flush, has_discard; x_have 0), the same
 * numbers; with rates the other figures are left as they were, without them all are 0 as
 * derive_dev leaves them. What the pipeline learns a device's usual figures from, for a
 * quarter of the devices every interval. */
void derive_dev_cause(const struct dev_counters *prev, const struct dev_counters *cur,
		      double dt_s, struct dev_rates *out);

/* derive_dev_cause of a device known to have rates from prev to cur over dt_s (derive_dev_write
 * said RATE_OK of the same three): the same figures, bit for bit, without testing every counter
 * again (only the six the figures read). Given a device without rates it finds that out only
 * if one of those six says so. */
void derive_dev_cause_ok(const struct dev_counters *prev, const struct dev_counters *cur,
			 double dt_s, struct dev_rates *out);

/* The figures the screen needs of every device every frame, shown or not: the status, whether
 * it is active, and the registry's FIG_IN_BRIEF rows (what the history keeps and the sort keys
 * read without every figure: r_s, w_s, rkb_s, wkb_s, r_await_ms, w_await_ms and util_pct);
 * the other figures are 0.  The same numbers
 * as derive_dev's, for about a third of the work. */
void derive_dev_brief(const struct dev_counters *prev, const struct dev_counters *cur,
		      double dt_s, struct dev_rates *out);
/* derive_dev_brief and derive_dev_write in one pass, for a screen that needs both of every
 * device: the brief into out (every member but x[], which it leaves as it was: x_have is 0),
 * its status returned, out->wkb_s derive_dev_write's write rate and *w_ios (if not NULL) its
 * writes completed, the same numbers bit for bit. */
enum rate_status derive_dev_brief_write(const struct dev_counters *prev,
					const struct dev_counters *cur, double dt_s,
					struct dev_rates *out, double *w_ios);

/* Rates of one device between two samples of it (prev may be NULL). */
void derive_dev(const struct dev_counters *prev, const struct dev_counters *cur,
		double dt_s, struct dev_rates *out);

/* The values beside the diskstats block of cur's devices into out[i].x
 * (out as derive_devs fills it, cur->ndev entries): a gauge as cur has it, a
 * counter as its rate per second from prev (none when prev lacks it, it went
 * backwards, or dt_s <= 0).  Nothing to do, and no cost, when cur has none. */
void derive_dev_x(const struct snapshot *prev, const struct snapshot *cur, double dt_s,
		  struct dev_rates *out);

/* One value beside the fixed blocks, as derive_dev_x derives it: true with
 * *out set, false when it is not there. */
bool derive_x(const struct snapshot *prev, const struct snapshot *cur, enum snap_xscope scope,
	      uint64_t obj, unsigned kind, double dt_s, double *out);

/* derive_x of one kind of value for one object after another, in the order of the objects (a
 * loop over a sorted snapshot's devices, say): a step along each snapshot's values instead of
 * two binary searches. The same answers asked in any order; in order they cost a step. Start a
 * walk with derive_xwalk_init for each pair of snapshots; its members are its own. */
struct derive_xwalk {
	const struct snap_xkind *kind;	/* NULL: a kind that does not exist */
	uint64_t obj;			/* the last object asked of derive_xwalk_step */
	size_t start, end;		/* cur's values of the scope: cur->x[start..end) */
	size_t cur, prev;		/* where the walk is in cur's and prev's values */
};
void derive_xwalk_init(struct derive_xwalk *w, const struct snapshot *cur, enum snap_xscope scope,
		       unsigned kind);
bool derive_xwalk_step(struct derive_xwalk *w, const struct snapshot *prev,
		       const struct snapshot *cur, uint64_t obj, double dt_s, double *out);
/* derive_x(prev, cur, scope, obj, kind, dt_s, out) for the walk's scope and kind (cur the one
 * it was started on). Inline for its common answer, an object without values (most devices
 * have none): when the walk stands past the scope's values or at a later object's, there is
 * nothing to find, for a compare or two. */
static inline bool derive_xwalk_x(struct derive_xwalk *w, const struct snapshot *prev,
				  const struct snapshot *cur, uint64_t obj, double dt_s,
				  double *out)
{
	if (obj >= w->obj && (w->cur == w->end || cur->x[w->cur].obj > obj))
		return false;
	return derive_xwalk_step(w, prev, cur, obj, dt_s, out);
}

/* Seconds between two snapshots (0 if time did not move forward). */
double derive_dt_s(const struct snapshot *prev, const struct snapshot *cur);

#endif
