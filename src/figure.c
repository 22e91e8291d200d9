/*
 * figure.c - the rows of the figure registry (figure.h) and the formulas of
 * the figures that are not a field of struct dev_rates.
 *
 * Device figures are iostat -x's (sysstat 12), computed by derive.c; the
 * table's order is batch text's and the exports'.  Counters are
 * /proc/diskstats fields as the kernel documents them
 * (Documentation/admin-guide/iostats.rst).
 */
#include <string.h>

#include "figure.h"

/* ---- formulas -------------------------------------------------------------- */

/* Reads and writes together, weighted by I/Os: the old iostat await. */
static double fig_f_await_ms(const struct dev_rates *r)
{
	double ios = r->r_s + r->w_s;
	return ios > 0 ? (r->r_await_ms * r->r_s + r->w_await_ms * r->w_s) / ios : 0.0;
}

/* iostat -x wareq-sz: KiB written per write completed (0 with no writes, as
 * iostat prints it); the same interval's kB and I/Os, so dt cancels. */
static double fig_f_wareq_kb(const struct dev_rates *r)
{
	return r->w_s > 0 ? r->wkb_s / r->w_s : 0.0;
}

/* ---- device figures ---------------------------------------------------------- */

#define KIB_AS_MB (1.0 / 1024.0)
#define RATE(field) offsetof(struct dev_rates, field), NULL, 0
#define FORMULA(fn) 0, fn, 0
#define EXTRA(kind) 0, NULL, kind
#define SCR(title, w, p, level, pos, key, scale) { title, w, p, level, pos, key, scale }
#define NO_SCR { NULL, 0, 0, 0, 0, 0, 0 }
#define NO_OM { NULL, FIG_OM_GAUGE, NULL, NULL, 0 }
#define ALL (FIG_IN_BATCH | FIG_IN_EXPORT)

const struct fig_dev fig_dev_table[] = {
	{ "r_s", "r/s", "reads completed per second", "1/s", 8, 2, 0, ALL, FIG_SORT_DESC, -1,
	  RATE(r_s), SCR("r/s", 8, 1, 0, 1, 0, 1), NO_OM },
	{ "w_s", "w/s", "writes completed per second", "1/s", 8, 2, 0, ALL, FIG_SORT_DESC, -1,
	  RATE(w_s), SCR("w/s", 8, 1, 0, 2, 0, 1), NO_OM },
	{ "rkb_s", "rkB/s", "KiB read per second", "KiB/s", 10, 1, 0, ALL | FIG_IN_HISTORY,
	  FIG_SORT_DESC, FIG_HIST_RKB_S, RATE(rkb_s), SCR("rMB/s", 7, 2, 0, 3, 0, KIB_AS_MB), NO_OM },
	{ "wkb_s", "wkB/s", "KiB written per second", "KiB/s", 10, 1, 0, ALL | FIG_IN_HISTORY | FIG_SORT_FIRST,
	  FIG_SORT_DESC, FIG_HIST_WKB_S, RATE(wkb_s), SCR("wMB/s", 7, 2, 0, 4, 'M', KIB_AS_MB), NO_OM },
	{ "rrqm_s", "rrqm/s", "reads merged per second", "1/s", 7, 2, 0, ALL, FIG_SORT_DESC, -1,
	  RATE(rrqm_s), SCR("rrqm/s", 7, 1, 7, 5, 0, 1), NO_OM },
	{ "wrqm_s", "wrqm/s", "writes merged per second", "1/s", 7, 2, 0, ALL, FIG_SORT_DESC, -1,
	  RATE(wrqm_s), SCR("wrqm/s", 7, 1, 4, 6, 0, 1), NO_OM },
	{ "r_await_ms", "r_await", "average time a read took, queue included", "ms", 7, 2, 0, ALL,
	  FIG_SORT_DESC, -1, RATE(r_await_ms), SCR("r_await", 8, 1, 3, 8, 0, 1), NO_OM },
	{ "w_await_ms", "w_await", "average time a write took, queue included", "ms", 7, 2, 0, ALL,
	  FIG_SORT_DESC, -1, RATE(w_await_ms), SCR("w_await", 8, 1, 1, 9, 0, 1), NO_OM },
	{ "aqu_sz", "aqu-sz", "average number of I/Os queued or in flight", "", 6, 2, 0, ALL,
	  FIG_SORT_DESC, -1, RATE(aqu_sz), SCR("aqu-sz", 7, 2, 2, 10, 0, 1), NO_OM },
	{ "util_pct", "%util", "share of the time the device had I/O in flight", "%", 6, 1, 0,
	  ALL | FIG_IN_HISTORY, FIG_SORT_DESC, FIG_HIST_UTIL_PCT, RATE(util_pct),
	  SCR("util", 6, 1, 0, 11, 'P', 1), NO_OM },
	{ "d_s", "d/s", "discards completed per second", "1/s", 7, 2, FIG_NEED_DISCARD, ALL,
	  FIG_SORT_DESC, -1, RATE(d_s), SCR("d/s", 7, 1, 0, 14, 0, 1), NO_OM },
	{ "dkb_s", "dkB/s", "KiB discarded per second", "KiB/s", 9, 1, FIG_NEED_DISCARD, ALL,
	  FIG_SORT_DESC, -1, RATE(dkb_s), SCR("dMB/s", 7, 2, 6, 15, 0, KIB_AS_MB), NO_OM },
	{ "d_await_ms", "d_await", "average time a discard took", "ms", 7, 2, FIG_NEED_DISCARD, ALL,
	  FIG_SORT_DESC, -1, RATE(d_await_ms), NO_SCR, NO_OM },
	{ "f_s", "f/s", "cache flushes completed per second", "1/s", 7, 2, FIG_NEED_FLUSH, ALL,
	  FIG_SORT_DESC, -1, RATE(f_s), SCR("f/s", 7, 1, 0, 12, 0, 1), NO_OM },
	{ "f_await_ms", "f_await", "average time a cache flush took", "ms", 7, 2, FIG_NEED_FLUSH, ALL,
	  FIG_SORT_DESC, -1, RATE(f_await_ms), SCR("f_await", 8, 1, 5, 13, 0, 1), NO_OM },
	{ "wareq_kb", "wareq-sz", "average size of the writes completed", "KiB", 8, 2, 0, ALL,
	  FIG_SORT_DESC, -1, FORMULA(fig_f_wareq_kb), SCR("wareq-sz", 9, 1, 8, 16, 0, 1),
	  { "wbtop_device_write_request_size_bytes", FIG_OM_GAUGE, "bytes",
	    "Average size of the writes completed in the last interval (iostat -x wareq-sz * 1024); "
	    "no sample before the second one.", 1024 } },
	{ "await_ms", "await", "average time a read or write took, weighted by I/Os (old iostat)",
	  "ms", 7, 2, 0, FIG_IN_HISTORY, FIG_SORT_DESC, FIG_HIST_AWAIT_MS, FORMULA(fig_f_await_ms),
	  SCR("await", 7, 1, 0, 7, 'T', 1), NO_OM },
};
const size_t fig_ndev = sizeof fig_dev_table / sizeof fig_dev_table[0];

#undef RATE
#undef FORMULA
#undef EXTRA
#undef SCR
#undef NO_SCR
#undef NO_OM
#undef ALL

/* ---- device counters (OpenMetrics) ----------------------------------------- */

#define CTR(name, type, unit, help, field, mul, div, min) \
	{ field, mul, div, min, { name, type, unit, help, 1 } }
const struct fig_dev_counter fig_dev_counter_table[] = {
	/* The four fields of old-style partition lines (reads, read sectors,
	 * writes, written sectors) are there for them; the rest need 11. */
	CTR("wbtop_device_reads_completed", FIG_OM_COUNTER, NULL, "Reads completed.", DS_RD_IOS, 1, 1, 4),
	CTR("wbtop_device_reads_merged", FIG_OM_COUNTER, NULL, "Adjacent reads merged.", DS_RD_MERGES, 1, 1, 11),
	CTR("wbtop_device_read_bytes", FIG_OM_COUNTER, "bytes", "Bytes read (sectors read * 512).",
	    DS_RD_SECT, 512, 1, 4),
	CTR("wbtop_device_read_time_seconds", FIG_OM_COUNTER, "seconds", "Time spent by all reads.",
	    DS_RD_MS, 1, 1000, 11),
	CTR("wbtop_device_writes_completed", FIG_OM_COUNTER, NULL, "Writes completed.", DS_WR_IOS, 1, 1, 4),
	CTR("wbtop_device_writes_merged", FIG_OM_COUNTER, NULL, "Adjacent writes merged.", DS_WR_MERGES, 1, 1, 11),
	CTR("wbtop_device_written_bytes", FIG_OM_COUNTER, "bytes", "Bytes written (sectors written * 512).",
	    DS_WR_SECT, 512, 1, 4),
	CTR("wbtop_device_write_time_seconds", FIG_OM_COUNTER, "seconds", "Time spent by all writes.",
	    DS_WR_MS, 1, 1000, 11),
	CTR("wbtop_device_ios_in_flight", FIG_OM_GAUGE, NULL, "I/Os issued to the device and not completed.",
	    DS_IN_FLIGHT, 1, 1, 11),
	CTR("wbtop_device_io_time_seconds", FIG_OM_COUNTER, "seconds",
	    "Time the device had I/O in flight (%util is its rate).", DS_IO_MS, 1, 1000, 11),
	CTR("wbtop_device_io_time_weighted_seconds", FIG_OM_COUNTER, "seconds",
	    "I/O time weighted by the I/Os in flight (aqu-sz is its rate).", DS_QUEUE_MS, 1, 1000, 11),
	CTR("wbtop_device_discards_completed", FIG_OM_COUNTER, NULL, "Discards completed (kernel 4.18+).",
	    DS_DC_IOS, 1, 1, 15),
	CTR("wbtop_device_discards_merged", FIG_OM_COUNTER, NULL, "Adjacent discards merged (kernel 4.18+).",
	    DS_DC_MERGES, 1, 1, 15),
	CTR("wbtop_device_discarded_bytes", FIG_OM_COUNTER, "bytes",
	    "Bytes discarded (sectors discarded * 512, kernel 4.18+).", DS_DC_SECT, 512, 1, 15),
	CTR("wbtop_device_discard_time_seconds", FIG_OM_COUNTER, "seconds",
	    "Time spent by all discards (kernel 4.18+).", DS_DC_MS, 1, 1000, 15),
	CTR("wbtop_device_flushes_completed", FIG_OM_COUNTER, NULL, "Cache flushes completed (kernel 5.5+).",
	    DS_FL_IOS, 1, 1, 17),
	CTR("wbtop_device_flush_time_seconds", FIG_OM_COUNTER, "seconds",
	    "Time spent by all cache flushes (kernel 5.5+).", DS_FL_MS, 1, 1000, 17),
};
const size_t fig_ndev_counter = sizeof fig_dev_counter_table / sizeof fig_dev_counter_table[0];
#undef CTR

/* ---- system figures ---------------------------------------------------------- */

#define SG(name, title, w, pos, desc, unit) \
	{ #name, title, desc, unit, w, pos, FIG_U64, false, offsetof(struct sys_rates, name) }
#define SR(name, title, w, pos, desc, unit) \
	{ #name, title, desc, unit, w, pos, FIG_DBL, true, offsetof(struct sys_rates, name) }
const struct fig_sys fig_sys_table[] = {
	SG(r, "r", 3, 1, "processes running", ""),
	SG(b, "b", 3, 2, "processes blocked", ""),
	SG(swpd_kb, "swpd", 8, 3, "swap in use", "KiB"),
	SG(free_kb, "free", 9, 4, "free memory", "KiB"),
	SG(buff_kb, "buff", 8, 5, "buffers", "KiB"),
	SG(cache_kb, "cache", 9, 6, "page cache (Cached + SReclaimable)", "KiB"),
	SR(si_kbps, "si", 5, 7, "swapped in", "KiB/s"),
	SR(so_kbps, "so", 5, 8, "swapped out", "KiB/s"),
	SR(bi_kbps, "bi", 8, 9, "block in (pgpgin)", "KiB/s"),
	SR(bo_kbps, "bo", 8, 10, "block out (pgpgout)", "KiB/s"),
	SR(in_ps, "in", 6, 11, "interrupts", "1/s"),
	SR(cs_ps, "cs", 6, 12, "context switches", "1/s"),
	SR(us, "us", 3, 13, "CPU user + nice", "%"),
	SR(sy, "sy", 3, 14, "CPU system + irq + softirq", "%"),
	SR(id, "id", 3, 15, "CPU idle", "%"),
	SR(wa, "wa", 3, 16, "CPU iowait", "%"),
	SR(st, "st", 3, 17, "CPU steal", "%"),
	SG(dirty_kb, "dirty", 9, 18, "Dirty in /proc/meminfo", "KiB"),
	SG(writeback_kb, "wback", 9, 19, "Writeback in /proc/meminfo", "KiB"),
	SG(dirty_thresh_kb, "thr", 9, 21, "the kernel's hard dirty threshold", "KiB"),
	SG(bg_thresh_kb, "bg_thr", 9, 20, "the kernel's background dirty threshold", "KiB"),
	SR(dirtied_kbps, NULL, 0, 0, "pages dirtied (nr_dirtied)", "KiB/s"),
	SR(written_kbps, NULL, 0, 0, "pages written back (nr_written)", "KiB/s"),
};
const size_t fig_nsys = sizeof fig_sys_table / sizeof fig_sys_table[0];
#undef SG
#undef SR

/* ---- accessors ------------------------------------------------------------- */

bool fig_dev_available(const struct fig_dev *f, const struct dev_rates *r)
{
	if (r->status != RATE_OK)
		return false;
	if ((f->need & FIG_NEED_DISCARD) && !r->has_discard)
		return false;
	if ((f->need & FIG_NEED_EXTRA) && (f->xkind >= SNAP_NXDEV || !(r->x_have & (1u << f->xkind))))
		return false;
	return !(f->need & FIG_NEED_FLUSH) || r->has_flush;
}

bool fig_dev_wanted(const struct fig_dev *f, bool any_discard, bool any_flush)
{
	return (!(f->need & FIG_NEED_DISCARD) || any_discard) && (!(f->need & FIG_NEED_FLUSH) || any_flush);
}

size_t fig_dev_screen_cols(const struct fig_dev **out, size_t cap)
{
	size_t n = 0;
	/* by pos: an insertion sort of a few rows, once per screen */
	for (size_t k = 0; k < fig_ndev; k++) {
		const struct fig_dev *f = &fig_dev_table[k];
		if (!f->screen.title || n == cap)
			continue;
		size_t at = n++;
		while (at > 0 && out[at - 1]->screen.pos > f->screen.pos) {
			out[at] = out[at - 1];
			at--;
		}
		out[at] = f;
	}
	return n;
}

const struct fig_dev *fig_dev_write_rate(void)
{
	for (size_t i = 0; i < fig_ndev; i++)
		if (!fig_dev_table[i].formula && fig_dev_table[i].offset == offsetof(struct dev_rates, wkb_s))
			return &fig_dev_table[i];
	return NULL;
}

const struct fig_dev *fig_dev_by_hist(int k)
{
	for (size_t i = 0; i < fig_ndev; i++)
		if (fig_dev_table[i].hist == k && (fig_dev_table[i].sinks & FIG_IN_HISTORY))
			return &fig_dev_table[i];
	return NULL;
}

const struct fig_dev *fig_dev_by_screen_title(const char *title)
{
	for (size_t i = 0; i < fig_ndev; i++)
		if (fig_dev_table[i].screen.title && strcmp(fig_dev_table[i].screen.title, title) == 0)
			return &fig_dev_table[i];
	return NULL;
}

double fig_sys_value(const struct fig_sys *f, const struct sys_rates *r)
{
	if (f->type == FIG_U64)
		return (double)fig_sys_u64(f, r);
	double v;
	memcpy(&v, (const char *)r + f->offset, sizeof v);
	return v;
}

uint64_t fig_sys_u64(const struct fig_sys *f, const struct sys_rates *r)
{
	uint64_t v;
	memcpy(&v, (const char *)r + f->offset, sizeof v);
	return v;
}

const struct fig_dev *fig_dev_sort_first(void)
{
	for (size_t i = 0; i < fig_ndev; i++)
		if (fig_dev_table[i].sinks & FIG_SORT_FIRST)
			return &fig_dev_table[i];
	return NULL;
}
