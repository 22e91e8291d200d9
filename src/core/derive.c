/*
 * derive.c - rates from two snapshots, as vmstat and iostat -x print them.
 *
 * Pure arithmetic on counters; no I/O.  One difference from those tools: we divide by
 * the measured time between the samples, not the nominal interval (doc/design.md, "Rates").
 */
#include <stdio.h>
#include <string.h>

#include "core/derive.h"
#include "core/knob.h"

#define NS_PER_S 1000000000.0

double derive_dt_s(const struct snapshot *prev, const struct snapshot *cur)
{
	if (!prev || cur->mono_ns <= prev->mono_ns)
		return 0.0;
	return (double)(cur->mono_ns - prev->mono_ns) / NS_PER_S;
}

/* Delta of a cumulative counter; false if it went backwards (a reset). */
static bool derive_delta(uint64_t prev, uint64_t cur, uint64_t *delta)
{
	if (cur < prev) {
		*delta = 0;
		return false;
	}
	*delta = cur - prev;
	return true;
}

static double derive_rate(uint64_t prev, uint64_t cur, double dt_s, bool *reset)
{
	uint64_t d;
	if (!derive_delta(prev, cur, &d))
		*reset = true;
	return (double)d / dt_s;
}

static void derive_sys_gauges(const struct sys_counters *c, uint64_t page_size, struct sys_rates *out)
{
	uint64_t page_kb = page_size ? page_size / 1024 : 4;
	out->r = c->procs_running;
	out->b = c->procs_blocked;
	out->swpd_kb = c->swpd_kb;
	out->free_kb = c->free_kb;
	out->buff_kb = c->buff_kb;
	out->cache_kb = c->cache_kb;
	out->dirty_kb = c->dirty_kb;
	out->writeback_kb = c->writeback_kb;
	out->dirty_thresh_kb = c->dirty_thresh_pages * page_kb;
	out->bg_thresh_kb = c->bg_thresh_pages * page_kb;
}

/* CPU shares as vmstat computes them: user includes nice, system includes
 * irq and softirq; guest time is already inside user in /proc/stat. */
static void derive_cpu(const uint64_t *p, const uint64_t *c, struct sys_rates *out, bool *reset)
{
	uint64_t d[CPU_NFIELDS];
	for (int i = 0; i < CPU_NFIELDS; i++)
		if (!derive_delta(p[i], c[i], &d[i]))
			*reset = true;
	double use = (double)(d[CPU_USER] + d[CPU_NICE]);
	double sys = (double)(d[CPU_SYSTEM] + d[CPU_IRQ] + d[CPU_SOFTIRQ]);
	double idl = (double)d[CPU_IDLE], iow = (double)d[CPU_IOWAIT], stl = (double)d[CPU_STEAL];
	double total = use + sys + idl + iow + stl;
	if (total <= 0) {	/* no tick passed: vmstat shows 100% idle */
		total = 1;
		idl = 1;
	}
	out->us = 100.0 * use / total;
	out->sy = 100.0 * sys / total;
	out->id = 100.0 * idl / total;
	out->wa = 100.0 * iow / total;
	out->st = 100.0 * stl / total;
}

const char *derive_status_name(enum rate_status s)
{
	static const char *const names[] = {
		[RATE_OK] = "ok", [RATE_FIRST] = "first", [RATE_RESET] = "reset", [RATE_NODATA] = "nodata",
	};
	return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

enum rate_status derive_sys(const struct snapshot *prev, const struct snapshot *cur,
			    struct sys_rates *out)
{
	memset(out, 0, sizeof *out);
	derive_sys_gauges(&cur->sys, cur->page_size, out);
	if (!prev) {
		out->status = RATE_FIRST;
		return out->status;
	}
	double dt = derive_dt_s(prev, cur);
	out->dt_s = dt;
	if (dt <= 0) {
		out->status = RATE_NODATA;
		return out->status;
	}
	const struct sys_counters *p = &prev->sys, *c = &cur->sys;
	double page_kb = cur->page_size ? (double)cur->page_size / 1024.0 : 4.0;
	bool reset = false;
	out->si_kbps = derive_rate(p->pswpin_pages, c->pswpin_pages, dt, &reset) * page_kb;
	out->so_kbps = derive_rate(p->pswpout_pages, c->pswpout_pages, dt, &reset) * page_kb;
	out->bi_kbps = derive_rate(p->pgpgin_kb, c->pgpgin_kb, dt, &reset);
	out->bo_kbps = derive_rate(p->pgpgout_kb, c->pgpgout_kb, dt, &reset);
	out->in_ps = derive_rate(p->intr, c->intr, dt, &reset);
	out->cs_ps = derive_rate(p->ctxt, c->ctxt, dt, &reset);
	out->dirtied_kbps = derive_rate(p->nr_dirtied_pages, c->nr_dirtied_pages, dt, &reset) * page_kb;
	out->written_kbps = derive_rate(p->nr_written_pages, c->nr_written_pages, dt, &reset) * page_kb;
	derive_cpu(p->cpu_jif, c->cpu_jif, out, &reset);
	out->status = reset ? RATE_RESET : RATE_OK;
	for (const struct snap_xval *v = snapshot_find_x(cur, SNAP_XSYS, 0);
	     v && v < cur->x + cur->nx && v->scope == SNAP_XSYS; v++)
		if (snapshot_xkind_find(SNAP_XSYS, v->kind) && v->kind < sizeof out->x / sizeof out->x[0] &&
		    derive_x(prev, cur, SNAP_XSYS, 0, v->kind, dt, &out->x[v->kind]))
			out->x_have |= 1u << v->kind;
	return out->status;
}

/* The kernel prints the time fields of diskstats as unsigned int
 * milliseconds (block/genhd.c), so they wrap at 2^32 even on 64-bit
 * kernels, about every 49.7 days of busy time: a wrap, not a reset. */
static bool derive_is_ms_field(int f)
{
	return f == DS_RD_MS || f == DS_WR_MS || f == DS_IO_MS || f == DS_QUEUE_MS ||
	       f == DS_DC_MS || f == DS_FL_MS;
}

/* One field's delta, the careful way; false if the counter went
 * backwards.  A time field that went backwards from a 32-bit value
 * wrapped.  A delta of 2^63 or more is no counter's step in one interval
 * (and would not convert exactly): taken as a reset too. */
static bool derive_dev_delta(int f, uint64_t prev, uint64_t cur, uint64_t *delta)
{
	if (cur >= prev)
		*delta = cur - prev;
	else if (derive_is_ms_field(f) && prev <= UINT32_MAX)
		*delta = cur + ((uint64_t)UINT32_MAX + 1 - prev);
	else
		return false;
	return *delta < (1ull << 63);
}

/* Four counters at a time: a GCC/Clang vector type, AVX2 in the functions cloned for machines
 * that have it (DERIVE_AVX2), two SSE2 halves elsewhere, plain words where there is no
 * vector unit. */
typedef uint64_t derive_u64x4 __attribute__((vector_size(32)));

/* Every field's delta from p to c into d (the in-flight gauge as it is);
 * false if a counter went backwards (see derive_dev_delta).  The common
 * case costs no branch per field: when every value and every delta is
 * below 2^63, nothing went backwards (a backward step would wrap to a
 * delta at or above 2^63), which one OR of all their top bits tells.  Only
 * otherwise is each field looked at. */
static inline __attribute__((always_inline)) bool
derive_dev_deltas(const uint64_t *p, const uint64_t *c, uint64_t *d)
{
	_Static_assert(DS_NFIELDS == 17 && DS_IN_FLIGHT / 4 == 2,
		       "four blocks of four and the last field; the gauge in the third block");
	derive_u64x4 top = { 0, 0, 0, 0 };
#pragma GCC unroll 4
	for (int f = 0; f < 16; f += 4) {
		derive_u64x4 cv, pv, dv;
		memcpy(&cv, c + f, sizeof cv);
		memcpy(&pv, p + f, sizeof pv);
		if (f == DS_IN_FLIGHT - DS_IN_FLIGHT % 4)
			pv[DS_IN_FLIGHT % 4] = 0;	/* a gauge: its "delta" is its value */
		dv = cv - pv;
		memcpy(d + f, &dv, sizeof dv);
		top |= cv | pv | dv;
	}
	const int last = DS_NFIELDS - 1;
	d[last] = c[last] - p[last];
	if (!((top[0] | top[1] | top[2] | top[3] | c[last] | p[last] | d[last]) >> 63))
		return true;
	for (int f = 0; f < DS_NFIELDS; f++)
		if (f != DS_IN_FLIGHT && !derive_dev_delta(f, p[f], c[f], &d[f]))
			return false;
	return d[DS_IN_FLIGHT] < (1ull << 63);
}

/* A delta as a double: every delta is below 2^63 (derive_dev_deltas), and
 * a signed conversion is one instruction where an unsigned one is four. */
static double derive_num(uint64_t delta)
{
	return (double)(int64_t)delta;
}

static double derive_await(uint64_t ticks_ms, uint64_t ios)
{
	return ios ? derive_num(ticks_ms) / derive_num(ios) : 0.0;
}

/* No rates for cur this interval, and why. */
static void derive_dev_none(const struct dev_counters *cur, enum rate_status why,
			    struct dev_rates *out)
{
	memset(out, 0, sizeof *out);
	out->status = why;
	out->has_discard = cur->nfields >= 15;
	out->has_flush = cur->nfields >= 17;
}

/* Whether any I/O completed in the interval (the deltas d) or is in flight at its end. */
static inline bool derive_dev_active(const uint64_t *d, const struct dev_counters *cur)
{
	return d[DS_RD_IOS] || d[DS_WR_IOS] || d[DS_DC_IOS] || d[DS_FL_IOS] || d[DS_RD_SECT] ||
	       d[DS_WR_SECT] || d[DS_IO_MS] || cur->f[DS_IN_FLIGHT];
}

/* Whether a device has rates from prev to cur, and if so (RATE_OK) every field's delta in d. */
static inline __attribute__((always_inline)) enum rate_status
derive_dev_status(const struct dev_counters *prev, const struct dev_counters *cur, double dt_s,
		  uint64_t *d)
{
	if (!prev || prev->major != cur->major || prev->minor != cur->minor ||
	    !snapshot_dev_name_eq(prev->name, cur->name))
		return RATE_FIRST;
	if (dt_s <= 0)
		return RATE_NODATA;
	if (!derive_dev_deltas(prev->f, cur->f, d))
		return RATE_RESET;
	return RATE_OK;
}

/* derive_dev_deltas' verdict without its deltas: whether nothing went backwards from p to c.
 * The write rate needs two deltas of the seventeen; the one OR of every value's and every
 * delta's top bit that says all is well needs no array of them. */
static inline __attribute__((always_inline)) bool derive_dev_sound(const uint64_t *p,
								  const uint64_t *c)
{
	_Static_assert(DS_NFIELDS == 17 && DS_IN_FLIGHT / 4 == 2,
		       "four blocks of four and the last field; the gauge in the third block");
	derive_u64x4 top = { 0, 0, 0, 0 };
#pragma GCC unroll 4
	for (int f = 0; f < 16; f += 4) {
		derive_u64x4 cv, pv;
		memcpy(&cv, c + f, sizeof cv);
		memcpy(&pv, p + f, sizeof pv);
		if (f == DS_IN_FLIGHT - DS_IN_FLIGHT % 4)
			pv[DS_IN_FLIGHT % 4] = 0;	/* a gauge: its "delta" is its value */
		top |= cv | pv | (cv - pv);
	}
	uint64_t all = top[0] | top[1] | top[2] | top[3] | c[16] | p[16] | (c[16] - p[16]);
	if (!(all >> 63))
		return true;
	uint64_t d[DS_NFIELDS];	/* a wrap, a reset or a huge value: the careful way */
	return derive_dev_deltas(p, c, d);
}

/* The clones for machines with AVX2 (four counters an instruction), picked once at run time
 * (as diskstats.c picks its SIMD parse), for the functions every device comes to every
 * interval. */
#if defined(__x86_64__) && defined(__GNUC__)
#define DERIVE_AVX2 __attribute__((target("avx2")))
static bool derive_avx2(void)
{
	static int usable = -1;
	if (usable < 0) {
		__builtin_cpu_init();
		usable = __builtin_cpu_supports("avx2");
	}
	return usable;
}
#else
static bool derive_avx2(void)
{
	return false;
}
#endif

static inline __attribute__((always_inline)) enum rate_status
derive_dev_write_of(const struct dev_counters *prev, const struct dev_counters *cur, double dt_s,
		    double *wkb_s, double *w_ios)
{
	enum rate_status status = RATE_OK;
	if (!prev || prev->major != cur->major || prev->minor != cur->minor ||
	    !snapshot_dev_name_eq(prev->name, cur->name))
		status = RATE_FIRST;
	else if (dt_s <= 0)
		status = RATE_NODATA;
	else if (!derive_dev_sound(prev->f, cur->f))
		status = RATE_RESET;
	/* sectors and writes are no time fields: when sound, their deltas are plain differences */
	bool ok = status == RATE_OK;
	*wkb_s = ok ? derive_num(cur->f[DS_WR_SECT] - prev->f[DS_WR_SECT]) / 2.0 / dt_s : 0.0;
	if (w_ios)
		*w_ios = ok ? derive_num(cur->f[DS_WR_IOS] - prev->f[DS_WR_IOS]) : 0.0;
	return status;
}

#if defined(__x86_64__) && defined(__GNUC__)
static DERIVE_AVX2 enum rate_status derive_dev_write_avx2(const struct dev_counters *prev,
							  const struct dev_counters *cur,
							  double dt_s, double *wkb_s, double *w_ios)
{
	return derive_dev_write_of(prev, cur, dt_s, wkb_s, w_ios);
}
#else
#define derive_dev_write_avx2 derive_dev_write_plain
#endif

static __attribute__((noinline)) enum rate_status
derive_dev_write_plain(const struct dev_counters *prev, const struct dev_counters *cur,
		       double dt_s, double *wkb_s, double *w_ios)
{
	return derive_dev_write_of(prev, cur, dt_s, wkb_s, w_ios);
}

/* Either clone, called in the tail: no frame of its own. */
enum rate_status derive_dev_write(const struct dev_counters *prev, const struct dev_counters *cur,
				  double dt_s, double *wkb_s, double *w_ios)
{
	if (derive_avx2())
		return derive_dev_write_avx2(prev, cur, dt_s, wkb_s, w_ios);
	return derive_dev_write_plain(prev, cur, dt_s, wkb_s, w_ios);
}

static inline __attribute__((always_inline)) enum rate_status
derive_dev_brief_write_of(const struct dev_counters *prev, const struct dev_counters *cur,
			  double dt_s, struct dev_rates *out, double *w_ios)
{
	uint64_t d[DS_NFIELDS];
	enum rate_status status = derive_dev_status(prev, cur, dt_s, d);
	/* every member but x[] set, none by memset (x_have says x[] holds nothing): at thousands
	 * of devices clearing the whole struct was a sixth of a brief */
	out->status = status;
	out->x_have = 0;
	out->has_discard = cur->nfields >= 15;
	out->has_flush = cur->nfields >= 17;
	out->rrqm_s = out->wrqm_s = out->aqu_sz = 0.0;
	out->d_s = out->dkb_s = out->d_await_ms = out->f_s = out->f_await_ms = 0.0;
	if (status != RATE_OK) {
		out->r_s = out->w_s = out->rkb_s = out->wkb_s = 0.0;
		out->r_await_ms = out->w_await_ms = out->util_pct = 0.0;
		out->active = false;
		if (w_ios)
			*w_ios = 0.0;
		return status;
	}
	out->r_s = derive_num(d[DS_RD_IOS]) / dt_s;
	out->w_s = derive_num(d[DS_WR_IOS]) / dt_s;
	out->rkb_s = derive_num(d[DS_RD_SECT]) / 2.0 / dt_s;
	out->wkb_s = derive_num(d[DS_WR_SECT]) / 2.0 / dt_s;
	out->r_await_ms = derive_await(d[DS_RD_MS], d[DS_RD_IOS]);
	out->w_await_ms = derive_await(d[DS_WR_MS], d[DS_WR_IOS]);
	out->util_pct = derive_num(d[DS_IO_MS]) / 10.0 / dt_s;
	if (out->util_pct > 100.0)
		out->util_pct = 100.0;
	out->active = derive_dev_active(d, cur);
	if (w_ios)
		*w_ios = derive_num(d[DS_WR_IOS]);
	return status;
}

#if defined(__x86_64__) && defined(__GNUC__)
static DERIVE_AVX2 enum rate_status
derive_dev_brief_write_avx2(const struct dev_counters *prev, const struct dev_counters *cur,
			    double dt_s, struct dev_rates *out, double *w_ios)
{
	return derive_dev_brief_write_of(prev, cur, dt_s, out, w_ios);
}
#else
#define derive_dev_brief_write_avx2 derive_dev_brief_write_plain
#endif

static __attribute__((noinline)) enum rate_status
derive_dev_brief_write_plain(const struct dev_counters *prev, const struct dev_counters *cur,
			     double dt_s, struct dev_rates *out, double *w_ios)
{
	return derive_dev_brief_write_of(prev, cur, dt_s, out, w_ios);
}

/* As derive_dev_write, cloned: every device every frame of the screen comes here. */
enum rate_status derive_dev_brief_write(const struct dev_counters *prev,
					const struct dev_counters *cur, double dt_s,
					struct dev_rates *out, double *w_ios)
{
	if (derive_avx2())
		return derive_dev_brief_write_avx2(prev, cur, dt_s, out, w_ios);
	return derive_dev_brief_write_plain(prev, cur, dt_s, out, w_ios);
}

void derive_dev_brief(const struct dev_counters *prev, const struct dev_counters *cur,
		      double dt_s, struct dev_rates *out)
{
	memset(out->x, 0, sizeof out->x);
	derive_dev_brief_write(prev, cur, dt_s, out, NULL);
}

/* The figures a dip's cause is judged by (derive_dev_cause) from the deltas d of a device with
 * rates; d needs only the fields they read. */
static inline __attribute__((always_inline)) void
derive_dev_cause_set(const struct dev_counters *cur, double dt_s, const uint64_t *d,
		     struct dev_rates *out)
{
	out->status = RATE_OK;
	out->x_have = 0;
	out->has_discard = cur->nfields >= 15;
	out->has_flush = cur->nfields >= 17;
	out->w_s = derive_num(d[DS_WR_IOS]) / dt_s;
	out->wkb_s = derive_num(d[DS_WR_SECT]) / 2.0 / dt_s;	/* as derive_dev_write */
	out->w_await_ms = derive_await(d[DS_WR_MS], d[DS_WR_IOS]);
	out->aqu_sz = derive_num(d[DS_QUEUE_MS]) / 1000.0 / dt_s;
	out->f_s = derive_num(d[DS_FL_IOS]) / dt_s;
	out->f_await_ms = derive_await(d[DS_FL_MS], d[DS_FL_IOS]);
}

/* derive_dev's status and the figures a dip's cause is judged by (derive_dev_cause), with
 * every field's delta in d; false (out as derive_dev_none leaves it) without rates. */
static inline __attribute__((always_inline)) bool
derive_dev_cause_figures(const struct dev_counters *prev, const struct dev_counters *cur,
			 double dt_s, uint64_t *d, struct dev_rates *out)
{
	enum rate_status status = derive_dev_status(prev, cur, dt_s, d);
	if (status != RATE_OK) {
		derive_dev_none(cur, status, out);
		return false;
	}
	derive_dev_cause_set(cur, dt_s, d, out);
	return true;
}

void derive_dev(const struct dev_counters *prev, const struct dev_counters *cur,
		double dt_s, struct dev_rates *out)
{
	uint64_t d[DS_NFIELDS];
	/* every member is set below: no memset on the common path */
	if (!derive_dev_cause_figures(prev, cur, dt_s, d, out))
		return;
	out->r_s = derive_num(d[DS_RD_IOS]) / dt_s;
	out->rkb_s = derive_num(d[DS_RD_SECT]) / 2.0 / dt_s;	/* 512-byte sectors to KiB */
	out->rrqm_s = derive_num(d[DS_RD_MERGES]) / dt_s;
	out->wrqm_s = derive_num(d[DS_WR_MERGES]) / dt_s;
	out->r_await_ms = derive_await(d[DS_RD_MS], d[DS_RD_IOS]);
	out->util_pct = derive_num(d[DS_IO_MS]) / 10.0 / dt_s;
	if (out->util_pct > 100.0)	/* iostat caps it the same way */
		out->util_pct = 100.0;
	out->d_s = derive_num(d[DS_DC_IOS]) / dt_s;
	out->dkb_s = derive_num(d[DS_DC_SECT]) / 2.0 / dt_s;
	out->d_await_ms = derive_await(d[DS_DC_MS], d[DS_DC_IOS]);
	out->active = derive_dev_active(d, cur);
}

void derive_dev_cause(const struct dev_counters *prev, const struct dev_counters *cur,
		      double dt_s, struct dev_rates *out)
{
	uint64_t d[DS_NFIELDS];
	derive_dev_cause_figures(prev, cur, dt_s, d, out);
}

/* The fields derive_dev_cause's figures read. */
static const uint8_t derive_cause_fields[] = { DS_WR_IOS, DS_WR_SECT, DS_WR_MS, DS_QUEUE_MS,
					       DS_FL_IOS, DS_FL_MS };

/* derive_dev_cause_ok's rare case, a counter at or above 2^63 or one that went backwards (a
 * wrapped time field, or no rates after all): a field at a time, as derive_dev_delta does. */
static __attribute__((noinline)) void
derive_dev_cause_wide(const struct dev_counters *prev, const struct dev_counters *cur,
		      double dt_s, struct dev_rates *out)
{
	uint64_t d[DS_NFIELDS];
	for (size_t k = 0; k < sizeof derive_cause_fields; k++) {
		int f = derive_cause_fields[k];
		if (!derive_dev_delta(f, prev->f[f], cur->f[f], &d[f])) {
			derive_dev_cause(prev, cur, dt_s, out);	/* without rates after all */
			return;
		}
	}
	derive_dev_cause_set(cur, dt_s, d, out);
}

void derive_dev_cause_ok(const struct dev_counters *prev, const struct dev_counters *cur,
			 double dt_s, struct dev_rates *out)
{
	/* of a device with rates every field's delta is derive_dev_delta's: the plain difference
	 * when no top bit is set (as in derive_dev_deltas), else derive_dev_cause_wide's */
	if (!prev || dt_s <= 0) {
		derive_dev_cause(prev, cur, dt_s, out);
		return;
	}
	uint64_t d[DS_NFIELDS], top = 0;
#pragma GCC unroll 6
	for (size_t k = 0; k < sizeof derive_cause_fields; k++) {
		int f = derive_cause_fields[k];
		d[f] = cur->f[f] - prev->f[f];
		top |= cur->f[f] | prev->f[f] | d[f];
	}
	if (top >> 63)
		derive_dev_cause_wide(prev, cur, dt_s, out);
	else
		derive_dev_cause_set(cur, dt_s, d, out);
}

/* cur's device c in prev, from the merge position *j on (both arrays are sorted by
 * major:minor); NULL if it is new.  The usual step, the same device at the same place, is
 * one comparison. */
static inline __attribute__((always_inline)) const struct dev_counters *
derive_match(const struct snapshot *prev, const struct dev_counters *c, size_t *j)
{
	if (!prev)
		return NULL;
	const struct dev_counters *q = *j < prev->ndev ? &prev->dev[*j] : NULL;
	if (!q || q->major != c->major || q->minor != c->minor) {
		while (*j < prev->ndev && (prev->dev[*j].major < c->major ||
		       (prev->dev[*j].major == c->major && prev->dev[*j].minor < c->minor)))
			(*j)++;
		q = *j < prev->ndev ? &prev->dev[*j] : NULL;
	}
	if (q && q->major == c->major && q->minor == c->minor) {
		(*j)++;	/* the next device is compared with the next one */
		return q;
	}
	return NULL;
}

void derive_pair_devs(const struct snapshot *prev, const struct snapshot *cur,
		      const struct dev_counters **prev_of)
{
	if (snapshot_same_devs(prev, cur)) {	/* the usual sample: each at its place */
		for (size_t i = 0; i < cur->ndev; i++)
			prev_of[i] = &prev->dev[i];
		return;
	}
	size_t j = 0;
	for (size_t i = 0; i < cur->ndev; i++)
		prev_of[i] = derive_match(prev, &cur->dev[i], &j);
}

void derive_devs(const struct snapshot *prev, const struct snapshot *cur,
		 struct dev_rates *out)
{
	double dt = derive_dt_s(prev, cur);
	size_t j = 0;
	for (size_t i = 0; i < cur->ndev; i++)
		derive_dev(derive_match(prev, &cur->dev[i], &j), &cur->dev[i], dt, &out[i]);
	if (cur->nx)
		derive_dev_x(prev, cur, dt, out);
}

/* The value of kind in a run of one object's values (sorted by kind), or NULL. */
static const struct snap_xval *derive_x_kind(const struct snapshot *s, const struct snap_xval *v,
					     unsigned kind)
{
	for (const struct snap_xval *first = v; v && v < s->x + s->nx && v->scope == first->scope &&
	     v->obj == first->obj; v++)
		if (v->kind == kind)
			return v;
	return NULL;
}

/* The rate of counter k from its value c in cur and its value p in prev (NULL: none there), as
 * derive_x derives it. */
static bool derive_x_rate(const struct snap_xkind *k, const struct snapshot *prev,
			  const struct snap_xval *c, const struct snap_xval *p, double dt_s,
			  double *out)
{
	const struct snap_xval zero = { c->obj, 0, (uint16_t)k->kind, (uint8_t)k->scope };
	if (!p && prev && k->from_zero &&
	    derive_x_kind(prev, snapshot_find_x(prev, SNAP_XSYS, 0), k->from_zero - 1))
		p = &zero;	/* its source ran then, and had not seen it: new since, from 0 */
	if (!p || c->value < p->value || dt_s <= 0)
		return false;	/* no earlier value, a reset, or no time passed */
	*out = derive_num(c->value - p->value) / dt_s;
	return true;
}

bool derive_x(const struct snapshot *prev, const struct snapshot *cur, enum snap_xscope scope,
	      uint64_t obj, unsigned kind, double dt_s, double *out)
{
	const struct snap_xkind *k = snapshot_xkind_find(scope, kind);
	const struct snap_xval *c = k ? derive_x_kind(cur, snapshot_find_x(cur, scope, obj), kind) : NULL;
	if (!c)
		return false;
	if (!k->counter) {
		*out = derive_num(c->value);
		return true;
	}
	const struct snap_xval *p = prev ? derive_x_kind(prev, snapshot_find_x(prev, scope, obj), kind) : NULL;
	return derive_x_rate(k, prev, c, p, dt_s, out);
}

/* The first of s's values from a scope above scope (above: at or above scope + 1). */
static size_t derive_x_scope_end(const struct snapshot *s, unsigned scope)
{
	size_t lo = 0, hi = s->nx;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->x[mid].scope <= scope)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void derive_xwalk_init(struct derive_xwalk *w, const struct snapshot *cur, enum snap_xscope scope,
		       unsigned kind)
{
	w->kind = snapshot_xkind_find(scope, kind);
	w->obj = 0;
	/* cur's values of the scope: every one before start is before any object asked */
	w->start = scope ? derive_x_scope_end(cur, (unsigned)scope - 1) : 0;
	w->end = derive_x_scope_end(cur, (unsigned)scope);
	w->cur = w->start;
	w->prev = 0;
}

/* The first value of object obj of the walk's scope in s (its run follows), from *j on, or
 * NULL; *j left at the first value not before it. What snapshot_find_x finds, as long as the
 * objects asked do not go down: every value before *j is before the last object asked. */
static const struct snap_xval *derive_xwalk_run(const struct derive_xwalk *w,
						const struct snapshot *s, size_t *j, uint64_t obj)
{
	unsigned scope = w->kind->scope;
	while (*j < s->nx &&
	       (s->x[*j].scope != scope ? s->x[*j].scope < scope : s->x[*j].obj < obj))
		(*j)++;
	return *j < s->nx && s->x[*j].scope == scope && s->x[*j].obj == obj ? &s->x[*j] : NULL;
}

bool derive_xwalk_step(struct derive_xwalk *w, const struct snapshot *prev,
		       const struct snapshot *cur, uint64_t obj, double dt_s, double *out)
{
	const struct snap_xkind *k = w->kind;
	if (!k)
		return false;
	if (obj < w->obj) {	/* asked out of order: from the start again */
		w->cur = w->start;
		w->prev = 0;
	}
	w->obj = obj;
	const struct snap_xval *c =
		derive_x_kind(cur, derive_xwalk_run(w, cur, &w->cur, obj), k->kind);
	if (!c)
		return false;
	if (!k->counter) {
		*out = derive_num(c->value);
		return true;
	}
	const struct snap_xval *p = prev ?
		derive_x_kind(prev, derive_xwalk_run(w, prev, &w->prev, obj), k->kind) : NULL;
	return derive_x_rate(k, prev, c, p, dt_s, out);
}

void derive_dev_x(const struct snapshot *prev, const struct snapshot *cur, double dt_s,
		  struct dev_rates *out)
{
	/* both lists are sorted by major:minor: one merge walk */
	size_t i = 0;
	for (size_t j = 0; j < cur->nx; j++) {
		const struct snap_xval *v = &cur->x[j];
		if (v->scope != SNAP_XDEV)
			continue;
		while (i < cur->ndev && snapshot_xobj_dev(cur->dev[i].major, cur->dev[i].minor) < v->obj)
			i++;
		if (i == cur->ndev)
			break;
		struct dev_rates *r = &out[i];
		if (r->status != RATE_OK || v->kind >= SNAP_NXDEV ||
		    snapshot_xobj_dev(cur->dev[i].major, cur->dev[i].minor) != v->obj)
			continue;
		if (derive_x(prev, cur, SNAP_XDEV, v->obj, v->kind, dt_s, &r->x[v->kind]))
			r->x_have |= 1u << v->kind;
	}
}
