/*
 * figure.c - the rows of the figure registry (figure.h) and the formulas of
 * the figures that are not a field of struct dev_rates.
 *
 * Device figures are iostat -x's (sysstat 12), computed by derive.c; the
 * table's order is batch text's and the exports'.  Counters are
 * /proc/diskstats fields as the kernel documents them
 * (Documentation/admin-guide/iostats.rst).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/figure.h"
#include "core/procs.h"

/* ---- formulas -------------------------------------------------------------- */

/* Reads and writes together, weighted by I/Os: the old iostat await. */
static double figure_f_await_ms(const struct dev_rates *r)
{
	double ios = r->r_s + r->w_s;
	return ios > 0 ? (r->r_await_ms * r->r_s + r->w_await_ms * r->w_s) / ios : 0.0;
}

/* iostat -x wareq-sz: KiB written per write completed (0 with no writes, as
 * iostat prints it); the same interval's kB and I/Os, so dt cancels. */
static double figure_f_wareq_kb(const struct dev_rates *r)
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
#define LOOP (FIG_IN_BATCH_LOOP | FIG_IN_EXPORT)

const struct fig_dev fig_dev_table[] = {
	[FIG_DEV_R_S] = { "r_s", "r/s", "reads completed per second", "1/s", 8, 2, 0, ALL, FIG_SORT_DESC, -1,
	  RATE(r_s), SCR("r/s", 8, 1, 0, 1, 0, 1), NO_OM },
	[FIG_DEV_W_S] = { "w_s", "w/s", "writes completed per second", "1/s", 8, 2, 0, ALL, FIG_SORT_DESC, -1,
	  RATE(w_s), SCR("w/s", 8, 1, 0, 2, 0, 1), NO_OM },
	[FIG_DEV_RKB_S] = { "rkb_s", "rkB/s", "KiB read per second", "KiB/s", 10, 1, 0, ALL | FIG_IN_BRIEF,
	  FIG_SORT_DESC, -1, RATE(rkb_s), SCR("rMB/s", 7, 2, 0, 3, 0, KIB_AS_MB), NO_OM },
	[FIG_DEV_WKB_S] = { "wkb_s", "wkB/s", "KiB written per second", "KiB/s", 10, 1, 0, ALL | FIG_IN_HISTORY | FIG_IN_BRIEF | FIG_SORT_FIRST,
	  FIG_SORT_DESC, FIG_HIST_WKB_S, RATE(wkb_s), SCR("wMB/s", 7, 2, 0, 4, 'M', KIB_AS_MB), NO_OM },
	[FIG_DEV_RRQM_S] = { "rrqm_s", "rrqm/s", "reads merged per second", "1/s", 7, 2, 0, ALL, FIG_SORT_DESC, -1,
	  RATE(rrqm_s), SCR("rrqm/s", 7, 1, 7, 5, 0, 1), NO_OM },
	[FIG_DEV_WRQM_S] = { "wrqm_s", "wrqm/s", "writes merged per second", "1/s", 7, 2, 0, ALL, FIG_SORT_DESC, -1,
	  RATE(wrqm_s), SCR("wrqm/s", 7, 1, 4, 6, 0, 1), NO_OM },
	[FIG_DEV_R_AWAIT_MS] = { "r_await_ms", "r_await", "average time a read took, queue included", "ms", 7, 2, 0, ALL,
	  FIG_SORT_DESC, -1, RATE(r_await_ms), SCR("r_await", 8, 1, 3, 8, 0, 1), NO_OM },
	[FIG_DEV_W_AWAIT_MS] = { "w_await_ms", "w_await", "average time a write took, queue included", "ms", 7, 2, 0, ALL,
	  FIG_SORT_DESC, -1, RATE(w_await_ms), SCR("w_await", 8, 1, 1, 9, 0, 1), NO_OM },
	[FIG_DEV_AQU_SZ] = { "aqu_sz", "aqu-sz", "average number of I/Os queued or in flight", "", 6, 2, 0, ALL,
	  FIG_SORT_DESC, -1, RATE(aqu_sz), SCR("aqu-sz", 7, 2, 2, 10, 0, 1), NO_OM },
	[FIG_DEV_UTIL_PCT] = { "util_pct", "%util", "share of the time the device had I/O in flight", "%", 6, 1, 0,
	  ALL | FIG_IN_BRIEF, FIG_SORT_DESC, -1, RATE(util_pct),
	  SCR("util", 6, 1, 0, 11, 'P', 1), NO_OM },
	[FIG_DEV_D_S] = { "d_s", "d/s", "discards completed per second", "1/s", 7, 2, FIG_NEED_DISCARD, ALL,
	  FIG_SORT_DESC, -1, RATE(d_s), SCR("d/s", 7, 1, 0, 14, 0, 1), NO_OM },
	[FIG_DEV_DKB_S] = { "dkb_s", "dkB/s", "KiB discarded per second", "KiB/s", 9, 1, FIG_NEED_DISCARD, ALL,
	  FIG_SORT_DESC, -1, RATE(dkb_s), SCR("dMB/s", 7, 2, 6, 15, 0, KIB_AS_MB), NO_OM },
	[FIG_DEV_D_AWAIT_MS] = { "d_await_ms", "d_await", "average time a discard took", "ms", 7, 2, FIG_NEED_DISCARD, ALL,
	  FIG_SORT_DESC, -1, RATE(d_await_ms), NO_SCR, NO_OM },
	[FIG_DEV_F_S] = { "f_s", "f/s", "cache flushes completed per second", "1/s", 7, 2, FIG_NEED_FLUSH, ALL,
	  FIG_SORT_DESC, -1, RATE(f_s), SCR("f/s", 7, 1, 0, 12, 0, 1), NO_OM },
	[FIG_DEV_F_AWAIT_MS] = { "f_await_ms", "f_await", "average time a cache flush took", "ms", 7, 2, FIG_NEED_FLUSH, ALL,
	  FIG_SORT_DESC, -1, RATE(f_await_ms), SCR("f_await", 8, 1, 5, 13, 0, 1), NO_OM },
	[FIG_DEV_WAREQ_KB] = { "wareq_kb", "wareq-sz", "average size of the writes completed", "KiB", 8, 2, 0, ALL,
	  FIG_SORT_DESC, -1, FORMULA(figure_f_wareq_kb), SCR("wareq-sz", 9, 1, 8, 16, 0, 1),
	  { "wbtop_device_write_request_size_bytes", FIG_OM_GAUGE, "bytes",
	    "Average size of the writes completed in the last interval (iostat -x wareq-sz * 1024); "
	    "no sample before the second one.", 1024 } },
	/* the kernel's writeback loop (doc/kernel-loop.md): debugfs and tracefs,
	 * as root; batch text shows them in a table of their own */
	[FIG_DEV_WB_DIRTY_KB] = { "wb_dirty_kb", "wb_dirty", "the device's dirty page cache (debugfs BdiReclaimable)", "KiB",
	  9, 0, FIG_NEED_EXTRA | FIG_NEED_ROOT, LOOP, FIG_SORT_DESC, -1, EXTRA(SNAP_XDEV_WB_DIRTY_KB),
	  NO_SCR, { "wbtop_device_wb_dirty_bytes", FIG_OM_GAUGE, "bytes",
		    "Dirty page cache of the device (debugfs BdiReclaimable).", 1024 } },
	[FIG_DEV_WB_WRITEBACK_KB] = { "wb_writeback_kb", "wb_wback", "its pages under writeback (BdiWriteback)", "KiB", 9, 0,
	  FIG_NEED_EXTRA | FIG_NEED_ROOT, LOOP, FIG_SORT_DESC, -1, EXTRA(SNAP_XDEV_WB_WRITEBACK_KB),
	  NO_SCR, { "wbtop_device_wb_writeback_bytes", FIG_OM_GAUGE, "bytes",
		    "Page cache of the device under writeback (debugfs BdiWriteback).", 1024 } },
	[FIG_DEV_WB_THRESH_KB] = { "wb_thresh_kb", "wb_thresh", "its share of the dirty threshold (BdiDirtyThresh)", "KiB", 9, 0,
	  FIG_NEED_EXTRA | FIG_NEED_ROOT, LOOP, FIG_SORT_DESC, -1, EXTRA(SNAP_XDEV_WB_THRESH_KB),
	  NO_SCR, { "wbtop_device_wb_threshold_bytes", FIG_OM_GAUGE, "bytes",
		    "The device's share of the dirty threshold (debugfs BdiDirtyThresh).", 1024 } },
	[FIG_DEV_WB_BW_KBPS] = { "wb_bw_kbps", "wb_bw", "the kernel's estimate of its write bandwidth", "KiB/s", 9, 0,
	  FIG_NEED_EXTRA | FIG_NEED_ROOT, LOOP, FIG_SORT_DESC, -1, EXTRA(SNAP_XDEV_WB_BW_KBPS),
	  NO_SCR, { "wbtop_device_wb_write_bandwidth_bytes_per_second", FIG_OM_GAUGE, "bytes_per_second",
		    "The kernel's estimate of the device's write bandwidth (debugfs wb_stats).", 1024 } },
	[FIG_DEV_WB_DIRTIED_KB_S] = { "wb_dirtied_kb_s", "dirtied/s", "KiB of its page cache dirtied per second (BdiDirtied)",
	  "KiB/s", 9, 0, FIG_NEED_EXTRA | FIG_NEED_ROOT, LOOP, FIG_SORT_DESC, -1,
	  EXTRA(SNAP_XDEV_WB_DIRTIED_KB), NO_SCR, NO_OM },
	[FIG_DEV_WB_WRITTEN_KB_S] = { "wb_written_kb_s", "written/s", "KiB of its page cache written back per second (BdiWritten)",
	  "KiB/s", 9, 0, FIG_NEED_EXTRA | FIG_NEED_ROOT, LOOP, FIG_SORT_DESC, -1,
	  EXTRA(SNAP_XDEV_WB_WRITTEN_KB), NO_SCR, NO_OM },
	[FIG_DEV_THROTTLED_MS] = { "throttled_ms", "thr_ms/s", "ms its tasks were paused in balance_dirty_pages, per second",
	  "ms/s", 8, 1, FIG_NEED_EXTRA | FIG_NEED_ROOT, LOOP, FIG_SORT_DESC, -1,
	  EXTRA(SNAP_XDEV_THROTTLED_MS), NO_SCR,
	  { "wbtop_device_throttled_ratio", FIG_OM_GAUGE, "ratio",
	    "Share of the last interval its tasks were paused in balance_dirty_pages, summed over them.",
	    0.001 } },
	[FIG_DEV_PAUSES] = { "pauses", "pauses/s", "pauses of its tasks in balance_dirty_pages per second", "1/s", 8, 1,
	  FIG_NEED_EXTRA | FIG_NEED_ROOT, LOOP, FIG_SORT_DESC, -1, EXTRA(SNAP_XDEV_PAUSES), NO_SCR,
	  NO_OM },
	[FIG_DEV_AWAIT_MS] = { "await_ms", "await", "average time a read or write took, weighted by I/Os (old iostat)",
	  "ms", 7, 2, 0, FIG_IN_HISTORY | FIG_IN_BRIEF, FIG_SORT_DESC, FIG_HIST_AWAIT_MS, FORMULA(figure_f_await_ms),
	  SCR("await", 7, 1, 0, 7, 'T', 1), NO_OM },
};
const size_t fig_ndev = sizeof fig_dev_table / sizeof fig_dev_table[0];
_Static_assert(sizeof fig_dev_table / sizeof fig_dev_table[0] == FIG_NDEV, "a device figure without its id");

#undef RATE
#undef FORMULA
#undef EXTRA
#undef SCR
#undef NO_SCR
#undef NO_OM
#undef ALL
#undef LOOP

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
	{ #name, title, desc, unit, w, pos, FIG_U64, false, offsetof(struct sys_rates, name), -1 }
#define SR(name, title, w, pos, desc, unit) \
	{ #name, title, desc, unit, w, pos, FIG_DBL, true, offsetof(struct sys_rates, name), -1 }
/* a value beside the fixed blocks: not in the vmstat line (batch prints it
 * in its writeback-loop lines under title), a counter as a rate */
#define SX(name, title, kind, counter, desc, unit) \
	{ name, title, desc, unit, 0, 0, FIG_DBL, counter, 0, kind }
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
	SX("dirty_limit_kb", "dirty_limit", SNAP_XSYS_DIRTY_LIMIT_KB, false,
	   "the smoothed dirty limit writers are held to (tracefs global_dirty_state)", "KiB"),
	SX("flush_background_kb_s", "background", SNAP_XSYS_WB_BACKGROUND_KB, true,
	   "written back by the flusher for background writeback", "KiB/s"),
	SX("flush_vmscan_kb_s", "vmscan", SNAP_XSYS_WB_VMSCAN_KB, true,
	   "written back by the flusher for memory reclaim", "KiB/s"),
	SX("flush_sync_kb_s", "sync", SNAP_XSYS_WB_SYNC_KB, true,
	   "written back by the flusher for sync(2) and syncfs(2)", "KiB/s"),
	SX("flush_periodic_kb_s", "periodic", SNAP_XSYS_WB_PERIODIC_KB, true,
	   "written back by the flusher as data aged past dirty_expire_centisecs", "KiB/s"),
	SX("flush_laptop_timer_kb_s", "laptop_timer", SNAP_XSYS_WB_LAPTOP_TIMER_KB, true,
	   "written back by the flusher for laptop mode", "KiB/s"),
	SX("flush_fs_free_space_kb_s", "fs_free_space", SNAP_XSYS_WB_FS_FREE_SPACE_KB, true,
	   "written back by the flusher as a filesystem ran short of space", "KiB/s"),
	SX("flush_forker_thread_kb_s", "forker_thread", SNAP_XSYS_WB_FORKER_THREAD_KB, true,
	   "written back by the flusher for the forker thread", "KiB/s"),
	SX("flush_foreign_flush_kb_s", "foreign_flush", SNAP_XSYS_WB_FOREIGN_FLUSH_KB, true,
	   "written back by the flusher for another cgroup's inodes", "KiB/s"),
	SX("trace_lost_s", "lost/s", SNAP_XSYS_TRACE_LOST, true,
	   "writeback trace events the ring buffers lost", "1/s"),
};
const size_t fig_nsys = sizeof fig_sys_table / sizeof fig_sys_table[0];
#undef SG
#undef SX
#undef SR

/* Put item, at place pos, into out[0..*n) kept in place order (pos_of[]: the
 * places of out[]): an insertion sort of a few rows, once per screen. */
static void figure_insert_by_pos(const void **out, uint8_t *pos_of, size_t *n, const void *item, uint8_t pos)
{
	size_t at = (*n)++;
	while (at > 0 && pos_of[at - 1] > pos) {
		out[at] = out[at - 1];
		pos_of[at] = pos_of[at - 1];
		at--;
	}
	out[at] = item;
	pos_of[at] = pos;
}

/* ---- process figures --------------------------------------------------------- */

static enum fig_proc_have figure_p_text(char *buf, size_t len, const char *text)
{
	if (!text || !text[0])
		return FIG_PROC_NONE;
	snprintf(buf, len, "%s", text);
	return FIG_PROC_OK;
}

static enum fig_proc_have figure_p_kbps(const struct proc_row *r, double kbps, double *v)
{
	if (r->io_hidden)
		return FIG_PROC_HIDDEN;
	if (r->status != RATE_OK)
		return FIG_PROC_NONE;
	*v = kbps;
	return FIG_PROC_OK;
}

static enum fig_proc_have figure_p_pid(const struct proc_row *r, double *v, char *b, size_t n)
{
	(void)v;
	if (r->kind == PROCS_KIND_OTHER)
		return figure_p_text(b, n, "-");
	snprintf(b, n, "%" PRId32, r->pid);
	return FIG_PROC_OK;
}

static enum fig_proc_have figure_p_state(const struct proc_row *r, double *v, char *b, size_t n)
{
	(void)v;
	snprintf(b, n, "%c", r->state ? r->state : '?');
	return FIG_PROC_OK;
}

static enum fig_proc_have figure_p_write(const struct proc_row *r, double *v, char *b, size_t n)
{
	(void)b, (void)n;
	return figure_p_kbps(r, r->write_kbps, v);
}

static enum fig_proc_have figure_p_cancel(const struct proc_row *r, double *v, char *b, size_t n)
{
	(void)b, (void)n;
	return figure_p_kbps(r, r->cancelled_kbps, v);
}

static enum fig_proc_have figure_p_share(const struct proc_row *r, double *v, char *b, size_t n)
{
	(void)b, (void)n;
	if (r->status != RATE_OK || r->io_hidden || r->share_pct < 0)
		return FIG_PROC_NONE;	/* share of nothing: bo was 0 */
	*v = r->share_pct;
	return FIG_PROC_OK;
}

static enum fig_proc_have figure_p_cpu(const struct proc_row *r, double *v, char *b, size_t n)
{
	(void)b, (void)n;
	if (r->status != RATE_OK || r->exited || r->kind == PROCS_KIND_OTHER)
		return FIG_PROC_NONE;	/* an exited task's last CPU time is not known */
	*v = r->cpu_pct;
	return FIG_PROC_OK;
}

static enum fig_proc_have figure_p_kind(const struct proc_row *r, double *v, char *b, size_t n)
{
	(void)v;
	return figure_p_text(b, n, procs_kind_name(r->kind));
}

static enum fig_proc_have figure_p_dev(const struct proc_row *r, double *v, char *b, size_t n)
{
	(void)v;
	return figure_p_text(b, n, r->kind == PROCS_KIND_FLUSHER ? r->flush_dev : r->dev);
}

/* "yes", or "?" when the task is in D state but will not say where. */
static enum fig_proc_have figure_p_thr(const struct proc_row *r, double *v, char *b, size_t n)
{
	(void)v;
	return figure_p_text(b, n, r->throttled ? "yes" : r->wait == PROCS_WAIT_UNKNOWN ? "?" : NULL);
}

static enum fig_proc_have figure_p_wait(const struct proc_row *r, double *v, char *b, size_t n)
{
	(void)v;
	return figure_p_text(b, n, r->wait == PROCS_WAIT_NONE ? NULL : procs_wait_name(r->wait));
}

static enum fig_proc_have figure_p_wchan(const struct proc_row *r, double *v, char *b, size_t n)
{
	(void)v;
	return figure_p_text(b, n, r->wchan);
}

static enum fig_proc_have figure_p_comm(const struct proc_row *r, double *v, char *b, size_t n)
{
	(void)v;
	/* the last column: even empty, it is the name */
	procs_row_command(r, b, n);
	return FIG_PROC_OK;
}

static enum fig_proc_have figure_p_paused(const struct proc_row *r, double *v, char *b, size_t n)
{
	(void)b, (void)n;
	if (!r->traced)
		return FIG_PROC_NONE;
	*v = r->paused_ms_s;
	return FIG_PROC_OK;
}

static enum fig_proc_have figure_p_pauses(const struct proc_row *r, double *v, char *b, size_t n)
{
	(void)b, (void)n;
	if (!r->traced)
		return FIG_PROC_NONE;
	*v = r->pauses_s;
	return FIG_PROC_OK;
}

static enum fig_proc_have figure_p_ratelimit(const struct proc_row *r, double *v, char *b, size_t n)
{
	(void)b, (void)n;
	if (!r->traced || r->ratelimit_kbps < 0)
		return FIG_PROC_NONE;
	*v = r->ratelimit_kbps;
	return FIG_PROC_OK;
}

static enum fig_proc_have figure_p_held(const struct proc_row *r, double *v, char *b, size_t n)
{
	(void)v;
	if (!r->has_bdi)
		return FIG_PROC_NONE;
	snprintf(b, n, "%u:%u", r->bdi_major, r->bdi_minor);
	return FIG_PROC_OK;
}

#define PSCR(t, w, left, level, pos) { t, w, left, level, pos }
#define NO_PSCR { NULL, 0, false, 0, 0 }
const struct fig_proc fig_proc_table[] = {
	{ "pid", "process id", FIG_SORT_ASC, FIG_PROC_TEXT, "PID", 7, PSCR("PID", 7, false, 0, 1), figure_p_pid, false },
	{ "state", "R, S, D, ... as /proc/PID/stat", FIG_SORT_ASC, FIG_PROC_TEXT, "S", 1,
	  PSCR("S", 2, false, 0, 2), figure_p_state, false },
	{ "write_kbps", "write_bytes per second of the task's own threads (not its reaped children): "
	  "dirtied, or written with O_DIRECT",
	  FIG_SORT_DESC, FIG_PROC_KBPS, "wkB/s", 10, PSCR("write/s", 8, false, 0, 3), figure_p_write, false },
	{ "cancelled_kbps", "cancelled_write_bytes per second: dirty data truncated before writeback",
	  FIG_SORT_DESC, FIG_PROC_KBPS, "cwkB/s", 9, PSCR("cancel/s", 9, false, 3, 11), figure_p_cancel, false },
	{ "share_pct", "write_kbps as a share of all tasks' in the interval (the summary's total)", FIG_SORT_DESC,
	  FIG_PROC_PCT, "share%", 6, PSCR("share%", 7, false, 0, 4), figure_p_share, false },
	{ "cpu_pct", "user + system time, percent of one CPU", FIG_SORT_DESC, FIG_PROC_PCT, "cpu%", 6,
	  PSCR("cpu%", 6, false, 0, 5), figure_p_cpu, false },
	{ "kind", "task, kernel thread, flush worker or kswapd", FIG_SORT_ASC, FIG_PROC_TEXT, "kind", -7,
	  PSCR("kind", 8, true, 1, 9), figure_p_kind, false },
	{ "dev", "the devices a task writes to (held on while throttled, else of its files open for "
	  "writing); the device a flush worker serves", FIG_SORT_ASC, FIG_PROC_TEXT, "dev", -8,
	  PSCR("dev", 12, true, 0, 8), figure_p_dev, false },
	{ "throttled", "paused by the dirty limits (the writeback trace), else held by them or "
	  "the block layer (from wchan, best effort)",
	  FIG_SORT_DESC, FIG_PROC_TEXT, "thr", -3, PSCR("thr", 4, true, 0, 6), figure_p_thr, false },
	{ "wait", "what a task in D state waits for", FIG_SORT_ASC, FIG_PROC_TEXT, "wait", -11,
	  PSCR("wait", 12, true, 0, 7), figure_p_wait, false },
	{ "wchan", "where a task in D state sleeps", FIG_SORT_ASC, FIG_PROC_TEXT, "wchan", -24,
	  PSCR("wchan", 25, true, 2, 10), figure_p_wchan, false },
	/* the writeback trace's, in -P before the command, on the pane when there is room */
	{ "throttled_ms", "ms paused in balance_dirty_pages per second (the writeback trace)",
	  FIG_SORT_DESC, FIG_PROC_NUM, "thr_ms/s", 8, PSCR("ms/s", 7, false, 1, 12), figure_p_paused, true },
	{ "pauses", "pauses in balance_dirty_pages per second", FIG_SORT_DESC, FIG_PROC_NUM, "pauses/s", 8,
	  NO_PSCR, figure_p_pauses, true },
	{ "task_ratelimit_kbps", "the rate limit of its last throttling decision", FIG_SORT_DESC,
	  FIG_PROC_KBPS, "rl_kB/s", 9, PSCR("limit/s", 8, false, 3, 14), figure_p_ratelimit, true },
	{ "held_on", "the device (BDI) it was held on, the one it writes to", FIG_SORT_ASC, FIG_PROC_TEXT,
	  "held_on", -8, PSCR("held", 9, true, 1, 13), figure_p_held, true },
	{ "command", "the full command line, else the command name", FIG_SORT_ASC, FIG_PROC_TEXT, "command", 0,
	  NO_PSCR, figure_p_comm, false },
};
const size_t fig_nproc = sizeof fig_proc_table / sizeof fig_proc_table[0];
#undef PSCR
#undef NO_PSCR

size_t figure_proc_screen_cols(const struct fig_proc **out, size_t cap)
{
	uint8_t pos[64];
	size_t n = 0;
	for (size_t k = 0; k < fig_nproc; k++)
		if (fig_proc_table[k].screen.title && n < cap && n < sizeof pos)
			figure_insert_by_pos((const void **)out, pos, &n, &fig_proc_table[k],
					  fig_proc_table[k].screen.pos);
	return n;
}

/* ---- accessors ------------------------------------------------------------- */

bool figure_dev_wanted(const struct fig_dev *f, bool any_discard, bool any_flush)
{
	return (!(f->need & FIG_NEED_DISCARD) || any_discard) && (!(f->need & FIG_NEED_FLUSH) || any_flush);
}

size_t figure_dev_screen_cols(const struct fig_dev **out, size_t cap)
{
	uint8_t pos[64];
	size_t n = 0;
	for (size_t k = 0; k < fig_ndev; k++)
		if (fig_dev_table[k].screen.title && n < cap && n < sizeof pos)
			figure_insert_by_pos((const void **)out, pos, &n, &fig_dev_table[k],
					  fig_dev_table[k].screen.pos);
	return n;
}

const struct fig_dev *figure_dev_write_rate(void)
{
	return &fig_dev_table[FIG_DEV_WKB_S];
}

const struct fig_dev *figure_dev_by_hist(int k)
{
	for (size_t i = 0; i < fig_ndev; i++)
		if (fig_dev_table[i].hist == k && (fig_dev_table[i].sinks & FIG_IN_HISTORY))
			return &fig_dev_table[i];
	return NULL;
}

const struct fig_dev *figure_dev_by_screen_title(const char *title)
{
	for (size_t i = 0; i < fig_ndev; i++)
		if (fig_dev_table[i].screen.title && strcmp(fig_dev_table[i].screen.title, title) == 0)
			return &fig_dev_table[i];
	return NULL;
}

bool figure_sys_available(const struct fig_sys *f, const struct sys_rates *r)
{
	if (f->xkind >= 0)
		return f->xkind < (int)SNAP_NXSYS && (r->x_have & 1u << f->xkind);
	return !f->rate || r->status == RATE_OK;
}

double figure_sys_value(const struct fig_sys *f, const struct sys_rates *r)
{
	if (f->xkind >= 0)
		return f->xkind < (int)SNAP_NXSYS ? r->x[f->xkind] : 0.0;
	if (f->type == FIG_U64)
		return (double)figure_sys_u64(f, r);
	double v;
	memcpy(&v, (const char *)r + f->offset, sizeof v);
	return v;
}

uint64_t figure_sys_u64(const struct fig_sys *f, const struct sys_rates *r)
{
	uint64_t v;
	memcpy(&v, (const char *)r + f->offset, sizeof v);
	return v;
}

const struct fig_dev *figure_dev_sort_first(void)
{
	for (size_t i = 0; i < fig_ndev; i++)
		if (fig_dev_table[i].sinks & FIG_SORT_FIRST)
			return &fig_dev_table[i];
	return NULL;
}

/* ---- the screen's uses of single figures ------------------------------------- */

const struct fig_dev_graph fig_dev_graphs[] = {
	{ FIG_DEV_WKB_S, "writes", true, "/s" },
	{ FIG_DEV_AWAIT_MS, "await (ms)", false, "" },
};
const size_t fig_ndev_graphs = sizeof fig_dev_graphs / sizeof fig_dev_graphs[0];

const char *figure_dev_key_word(const struct fig_dev *f)
{
	/* the column says wMB/s; in a sentence the word reads better */
	return f == &fig_dev_table[FIG_DEV_WKB_S] ? "write MB/s" : f->screen.title;
}

/* ---- memory cgroups ------------------------------------------------------ */

/* name, batch title, description, unit, batch width and decimals, kind;
 * the screen's title, width and level; OpenMetrics (CG_NO_OM, or CG_OM: a gauge,
 * its unit and scale, as the device rows of the same figures). */
#define CG(n, t, d, u, w, p, k, st, sw, sl, om) { n, t, d, u, w, p, k, { st, sw, p, sl }, om }
#define CG_NO_OM { NULL, FIG_OM_GAUGE, NULL, NULL, 0 }
#define CG_OM(name, unit, help, scale) { name, FIG_OM_GAUGE, unit, help, scale }
const struct fig_cg fig_cg_table[] = {
	/* the writeback domain's, from the trace's cgroup_ino (JSON's first keys) */
	CG("throttled_ms", NULL, "ms writers were paused in its writeback domain, per second", "ms/s",
	   0, 1, SNAP_XCG_THROTTLED_MS, NULL, 0, 0,
	   CG_OM("wbtop_cgroup_domain_throttled_ratio", "ratio",
		 "Share of the last interval writers were paused in the cgroup's writeback domain.",
		 0.001)),
	CG("pauses", NULL, "pauses in its writeback domain per second", "1/s", 0, 1, SNAP_XCG_PAUSES,
	   NULL, 0, 0, CG_NO_OM),
	CG("written_kb_s", NULL, "KiB written back by flusher passes for its writeback domain", "KiB/s",
	   0, 0, SNAP_XCG_WRITTEN_KB, NULL, 0, 0, CG_NO_OM),
	CG("file_dirty_kb", "dirty", "its dirty page cache (memory.stat file_dirty; v1 dirty)", "KiB",
	   9, 0, SNAP_XCG_FILE_DIRTY_KB, "DIRTY", 9, 0,
	   CG_OM("wbtop_cgroup_file_dirty_bytes", "bytes",
		 "Dirty page cache of the memory cgroup (memory.stat file_dirty; v1 dirty).", 1024)),
	CG("file_writeback_kb", "wback", "its page cache under writeback (file_writeback; v1 writeback)",
	   "KiB", 8, 0, SNAP_XCG_FILE_WRITEBACK_KB, "WBACK", 8, 1,
	   CG_OM("wbtop_cgroup_file_writeback_bytes", "bytes",
		 "Page cache of the memory cgroup under writeback (memory.stat).", 1024)),
	CG("wb_dirty_kb", "wb_dirty", "dirty pages of its writeback domains (wb_stats WbReclaimable)",
	   "KiB", 9, 0, SNAP_XCG_WB_DIRTY_KB, "WB_DIRTY", 9, 2,
	   CG_OM("wbtop_cgroup_wb_dirty_bytes", "bytes",
		 "Dirty pages of the cgroup's writeback domains on all devices (debugfs wb_stats).", 1024)),
	CG("wb_writeback_kb", NULL, "pages of its writeback domains under writeback (WbWriteback)",
	   "KiB", 0, 0, SNAP_XCG_WB_WRITEBACK_KB, NULL, 0, 0,
	   CG_OM("wbtop_cgroup_wb_writeback_bytes", "bytes",
		 "Pages of the cgroup's writeback domains under writeback (debugfs wb_stats).", 1024)),
	CG("wb_thresh_kb", "wb_thr",
	   "dirty threshold of its writeback domains on the devices it has pages on (WbDirtyThresh)",
	   "KiB", 9, 0, SNAP_XCG_WB_THRESH_KB, "WB_THR", 9, 5,
	   CG_OM("wbtop_cgroup_wb_threshold_bytes", "bytes",
		 "Dirty threshold of the cgroup's writeback domains on the devices it has pages on.",
		 1024)),
	CG("wb_bw_kbps", "wb_bw", "the kernel's write bandwidth estimate of those domains", "KiB/s", 8,
	   0, SNAP_XCG_WB_BW_KBPS, "WB_BW", 8, 5,
	   CG_OM("wbtop_cgroup_wb_write_bandwidth_bytes_per_second", "bytes_per_second",
		 "The kernel's write bandwidth estimate of the cgroup's writeback domains with pages.",
		 1024)),
	CG("wb_dirtied_kb_s", "dirtied", "KiB dirtied in its writeback domains per second (WbDirtied)",
	   "KiB/s", 8, 0, SNAP_XCG_WB_DIRTIED_KB, "DIRTD/s", 8, 3,
	   CG_OM("wbtop_cgroup_wb_dirtied_bytes_per_second", "bytes_per_second",
		 "Page cache dirtied in the cgroup's writeback domains in the last interval.", 1024)),
	CG("wb_written_kb_s", "written", "KiB written in its writeback domains per second (WbWritten)",
	   "KiB/s", 8, 0, SNAP_XCG_WB_WRITTEN_KB, "WRITN/s", 8, 3,
	   CG_OM("wbtop_cgroup_wb_written_bytes_per_second", "bytes_per_second",
		 "Page cache written back in the cgroup's writeback domains in the last interval.", 1024)),
	CG("task_throttled_ms", "thr_ms", "ms its tasks were paused in balance_dirty_pages, per second",
	   "ms/s", 7, 1, SNAP_XCG_TASK_THROTTLED_MS, "THR_MS", 7, 0,
	   CG_OM("wbtop_cgroup_throttled_ratio", "ratio",
		 "Share of the last interval the cgroup's tasks were paused in balance_dirty_pages, "
		 "summed over them.", 0.001)),
	CG("task_pauses", "pauses", "pauses of its tasks in balance_dirty_pages per second", "1/s", 7, 1,
	   SNAP_XCG_TASK_PAUSES, "PAUSE/s", 8, 4, CG_NO_OM),
};
const size_t fig_ncg = sizeof fig_cg_table / sizeof fig_cg_table[0];
_Static_assert(sizeof fig_cg_table / sizeof fig_cg_table[0] <= FIG_CG_MAX, "FIG_CG_MAX rows at most");
#undef CG
#undef CG_OM
#undef CG_NO_OM

bool figure_cg_value(const struct fig_cg *f, const struct snapshot *prev, const struct snapshot *cur,
		  uint64_t ino, double dt_s, double *v)
{
	return derive_x(prev, cur, SNAP_XCG, ino, f->kind, dt_s, v);
}
