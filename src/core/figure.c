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
#define RATE(field) offsetof(struct dev_rates, field)
#define ALL (FIG_IN_BATCH | FIG_IN_EXPORT)
#define LOOP (FIG_IN_BATCH_LOOP | FIG_IN_EXPORT)

/* A field left out is 0: no need, no sort key, no screen column (.screen), no
 * OpenMetrics family (.om).  The value is .offset, .formula or .xkind. */
const struct fig_dev fig_dev_table[] = {
	[FIG_DEV_R_S] = {
		.name = "r_s", .title = "r/s", .desc = "reads completed per second", .unit = "1/s",
		.width = 8, .prec = 2, .sinks = ALL, .sort = FIG_SORT_DESC, .hist = -1,
		.offset = RATE(r_s),
		.screen = { .title = "r/s", .width = 8, .prec = 1, .level = 0, .pos = 1, .scale = 1 },
	},
	[FIG_DEV_W_S] = {
		.name = "w_s", .title = "w/s", .desc = "writes completed per second", .unit = "1/s",
		.width = 8, .prec = 2, .sinks = ALL, .sort = FIG_SORT_DESC, .hist = -1,
		.offset = RATE(w_s),
		.screen = { .title = "w/s", .width = 8, .prec = 1, .level = 0, .pos = 2, .scale = 1 },
	},
	[FIG_DEV_RKB_S] = {
		.name = "rkb_s", .title = "rkB/s", .desc = "KiB read per second", .unit = "KiB/s",
		.width = 10, .prec = 1, .sinks = ALL | FIG_IN_BRIEF, .sort = FIG_SORT_DESC,
		.hist = -1, .offset = RATE(rkb_s),
		.screen = {
			.title = "rMB/s", .width = 7, .prec = 2, .level = 0, .pos = 3,
			.scale = KIB_AS_MB,
		},
	},
	[FIG_DEV_WKB_S] = {
		.name = "wkb_s", .title = "wkB/s", .desc = "KiB written per second", .unit = "KiB/s",
		.width = 10, .prec = 1, .sinks = ALL | FIG_IN_HISTORY | FIG_IN_BRIEF | FIG_SORT_FIRST,
		.sort = FIG_SORT_DESC, .hist = FIG_HIST_WKB_S, .offset = RATE(wkb_s),
		.screen = {
			.title = "wMB/s", .width = 7, .prec = 2, .level = 0, .pos = 4, .key = 'M',
			.scale = KIB_AS_MB,
		},
	},
	[FIG_DEV_RRQM_S] = {
		.name = "rrqm_s", .title = "rrqm/s", .desc = "reads merged per second", .unit = "1/s",
		.width = 7, .prec = 2, .sinks = ALL, .sort = FIG_SORT_DESC, .hist = -1,
		.offset = RATE(rrqm_s),
		.screen = { .title = "rrqm/s", .width = 7, .prec = 1, .level = 7, .pos = 5, .scale = 1 },
	},
	[FIG_DEV_WRQM_S] = {
		.name = "wrqm_s", .title = "wrqm/s", .desc = "writes merged per second",
		.unit = "1/s",
		.width = 7, .prec = 2, .sinks = ALL, .sort = FIG_SORT_DESC, .hist = -1,
		.offset = RATE(wrqm_s),
		.screen = { .title = "wrqm/s", .width = 7, .prec = 1, .level = 4, .pos = 6, .scale = 1 },
	},
	[FIG_DEV_R_AWAIT_MS] = {
		.name = "r_await_ms", .title = "r_await",
		.desc = "average time a read took, queue included", .unit = "ms",
		.width = 7, .prec = 2, .sinks = ALL, .sort = FIG_SORT_DESC, .hist = -1,
		.offset = RATE(r_await_ms),
		.screen = {
			.title = "r_await", .width = 8, .prec = 1, .level = 3, .pos = 8, .scale = 1,
		},
	},
	[FIG_DEV_W_AWAIT_MS] = {
		.name = "w_await_ms", .title = "w_await",
		.desc = "average time a write took, queue included", .unit = "ms",
		.width = 7, .prec = 2, .sinks = ALL, .sort = FIG_SORT_DESC, .hist = -1,
		.offset = RATE(w_await_ms),
		.screen = {
			.title = "w_await", .width = 8, .prec = 1, .level = 1, .pos = 9, .scale = 1,
		},
	},
	[FIG_DEV_AQU_SZ] = {
		.name = "aqu_sz", .title = "aqu-sz",
		.desc = "average number of I/Os queued or in flight", .unit = "",
		.width = 6, .prec = 2, .sinks = ALL, .sort = FIG_SORT_DESC, .hist = -1,
		.offset = RATE(aqu_sz),
		.screen = {
			.title = "aqu-sz", .width = 7, .prec = 2, .level = 2, .pos = 10, .scale = 1,
		},
	},
	[FIG_DEV_UTIL_PCT] = {
		.name = "util_pct", .title = "%util",
		.desc = "share of the time the device had I/O in flight", .unit = "%",
		.width = 6, .prec = 1, .sinks = ALL | FIG_IN_BRIEF, .sort = FIG_SORT_DESC, .hist = -1,
		.offset = RATE(util_pct),
		.screen = {
			.title = "util", .width = 6, .prec = 1, .level = 0, .pos = 11, .key = 'P',
			.scale = 1,
		},
	},
	[FIG_DEV_D_S] = {
		.name = "d_s", .title = "d/s", .desc = "discards completed per second", .unit = "1/s",
		.width = 7, .prec = 2, .need = FIG_NEED_DISCARD, .sinks = ALL, .sort = FIG_SORT_DESC,
		.hist = -1, .offset = RATE(d_s),
		.screen = { .title = "d/s", .width = 7, .prec = 1, .level = 0, .pos = 14, .scale = 1 },
	},
	[FIG_DEV_DKB_S] = {
		.name = "dkb_s", .title = "dkB/s", .desc = "KiB discarded per second",
		.unit = "KiB/s",
		.width = 9, .prec = 1, .need = FIG_NEED_DISCARD, .sinks = ALL, .sort = FIG_SORT_DESC,
		.hist = -1, .offset = RATE(dkb_s),
		.screen = {
			.title = "dMB/s", .width = 7, .prec = 2, .level = 6, .pos = 15,
			.scale = KIB_AS_MB,
		},
	},
	[FIG_DEV_D_AWAIT_MS] = {
		.name = "d_await_ms", .title = "d_await", .desc = "average time a discard took",
		.unit = "ms",
		.width = 7, .prec = 2, .need = FIG_NEED_DISCARD, .sinks = ALL, .sort = FIG_SORT_DESC,
		.hist = -1, .offset = RATE(d_await_ms),
	},
	[FIG_DEV_F_S] = {
		.name = "f_s", .title = "f/s", .desc = "cache flushes completed per second",
		.unit = "1/s",
		.width = 7, .prec = 2, .need = FIG_NEED_FLUSH, .sinks = ALL, .sort = FIG_SORT_DESC,
		.hist = -1, .offset = RATE(f_s),
		.screen = { .title = "f/s", .width = 7, .prec = 1, .level = 0, .pos = 12, .scale = 1 },
	},
	[FIG_DEV_F_AWAIT_MS] = {
		.name = "f_await_ms", .title = "f_await", .desc = "average time a cache flush took",
		.unit = "ms",
		.width = 7, .prec = 2, .need = FIG_NEED_FLUSH, .sinks = ALL, .sort = FIG_SORT_DESC,
		.hist = -1, .offset = RATE(f_await_ms),
		.screen = {
			.title = "f_await", .width = 8, .prec = 1, .level = 5, .pos = 13, .scale = 1,
		},
	},
	[FIG_DEV_WAREQ_KB] = {
		.name = "wareq_kb", .title = "wareq-sz",
		.desc = "average size of the writes completed", .unit = "KiB",
		.width = 8, .prec = 2, .sinks = ALL, .sort = FIG_SORT_DESC, .hist = -1,
		.formula = figure_f_wareq_kb,
		.screen = {
			.title = "wareq-sz", .width = 9, .prec = 1, .level = 8, .pos = 16, .scale = 1,
		},
		.om = {
			.name = "wbtop_device_write_request_size_bytes", .type = FIG_OM_GAUGE,
			.unit = "bytes",
			.help = "Average size of the writes completed in the last interval (iostat "
				"-x wareq-sz * 1024); no sample before the second one.",
			.scale = 1024,
		},
	},
	/* the kernel's writeback loop (doc/kernel-loop.md): debugfs and tracefs,
	 * as root; batch text shows them in a table of their own */
	[FIG_DEV_WB_DIRTY_KB] = {
		.name = "wb_dirty_kb", .title = "wb_dirty",
		.desc = "the device's dirty page cache (debugfs BdiReclaimable)", .unit = "KiB",
		.width = 9, .prec = 0, .need = FIG_NEED_EXTRA | FIG_NEED_ROOT, .sinks = LOOP,
		.sort = FIG_SORT_DESC, .hist = -1, .xkind = SNAP_XDEV_WB_DIRTY_KB,
		.om = {
			.name = "wbtop_device_wb_dirty_bytes", .type = FIG_OM_GAUGE, .unit = "bytes",
			.help = "Dirty page cache of the device (debugfs BdiReclaimable).",
			.scale = 1024,
		},
	},
	[FIG_DEV_WB_WRITEBACK_KB] = {
		.name = "wb_writeback_kb", .title = "wb_wback",
		.desc = "its pages under writeback (BdiWriteback)", .unit = "KiB",
		.width = 9, .prec = 0, .need = FIG_NEED_EXTRA | FIG_NEED_ROOT, .sinks = LOOP,
		.sort = FIG_SORT_DESC, .hist = -1, .xkind = SNAP_XDEV_WB_WRITEBACK_KB,
		.om = {
			.name = "wbtop_device_wb_writeback_bytes", .type = FIG_OM_GAUGE,
			.unit = "bytes",
			.help = "Page cache of the device under writeback (debugfs BdiWriteback).",
			.scale = 1024,
		},
	},
	[FIG_DEV_WB_THRESH_KB] = {
		.name = "wb_thresh_kb", .title = "wb_thresh",
		.desc = "its share of the dirty threshold (BdiDirtyThresh)", .unit = "KiB",
		.width = 9, .prec = 0, .need = FIG_NEED_EXTRA | FIG_NEED_ROOT, .sinks = LOOP,
		.sort = FIG_SORT_DESC, .hist = -1, .xkind = SNAP_XDEV_WB_THRESH_KB,
		.om = {
			.name = "wbtop_device_wb_threshold_bytes", .type = FIG_OM_GAUGE,
			.unit = "bytes",
			.help = "The device's share of the dirty threshold (debugfs BdiDirtyThresh).",
			.scale = 1024,
		},
	},
	[FIG_DEV_WB_BW_KBPS] = {
		.name = "wb_bw_kbps", .title = "wb_bw",
		.desc = "the kernel's estimate of its write bandwidth", .unit = "KiB/s",
		.width = 9, .prec = 0, .need = FIG_NEED_EXTRA | FIG_NEED_ROOT, .sinks = LOOP,
		.sort = FIG_SORT_DESC, .hist = -1, .xkind = SNAP_XDEV_WB_BW_KBPS,
		.om = {
			.name = "wbtop_device_wb_write_bandwidth_bytes_per_second",
			.type = FIG_OM_GAUGE, .unit = "bytes_per_second",
			.help = "The kernel's estimate of the device's write bandwidth (debugfs "
				"wb_stats).",
			.scale = 1024,
		},
	},
	[FIG_DEV_WB_DIRTIED_KB_S] = {
		.name = "wb_dirtied_kb_s", .title = "dirtied/s",
		.desc = "KiB of its page cache dirtied per second (BdiDirtied)", .unit = "KiB/s",
		.width = 9, .prec = 0, .need = FIG_NEED_EXTRA | FIG_NEED_ROOT, .sinks = LOOP,
		.sort = FIG_SORT_DESC, .hist = -1, .xkind = SNAP_XDEV_WB_DIRTIED_KB,
	},
	[FIG_DEV_WB_WRITTEN_KB_S] = {
		.name = "wb_written_kb_s", .title = "written/s",
		.desc = "KiB of its page cache written back per second (BdiWritten)", .unit = "KiB/s",
		.width = 9, .prec = 0, .need = FIG_NEED_EXTRA | FIG_NEED_ROOT, .sinks = LOOP,
		.sort = FIG_SORT_DESC, .hist = -1, .xkind = SNAP_XDEV_WB_WRITTEN_KB,
	},
	[FIG_DEV_THROTTLED_MS] = {
		.name = "throttled_ms", .title = "thr_ms/s",
		.desc = "ms its tasks were paused in balance_dirty_pages, per second", .unit = "ms/s",
		.width = 8, .prec = 1, .need = FIG_NEED_EXTRA | FIG_NEED_ROOT, .sinks = LOOP,
		.sort = FIG_SORT_DESC, .hist = -1, .xkind = SNAP_XDEV_THROTTLED_MS,
		.om = {
			.name = "wbtop_device_throttled_ratio", .type = FIG_OM_GAUGE, .unit = "ratio",
			.help = "Share of the last interval its tasks were paused in "
				"balance_dirty_pages, summed over them.",
			.scale = 0.001,
		},
	},
	[FIG_DEV_PAUSES] = {
		.name = "pauses", .title = "pauses/s",
		.desc = "pauses of its tasks in balance_dirty_pages per second", .unit = "1/s",
		.width = 8, .prec = 1, .need = FIG_NEED_EXTRA | FIG_NEED_ROOT, .sinks = LOOP,
		.sort = FIG_SORT_DESC, .hist = -1, .xkind = SNAP_XDEV_PAUSES,
	},
	[FIG_DEV_AWAIT_MS] = {
		.name = "await_ms", .title = "await",
		.desc = "average time a read or write took, weighted by I/Os (old iostat)",
		.unit = "ms",
		.width = 7, .prec = 2, .sinks = FIG_IN_HISTORY | FIG_IN_BRIEF, .sort = FIG_SORT_DESC,
		.hist = FIG_HIST_AWAIT_MS, .formula = figure_f_await_ms,
		.screen = {
			.title = "await", .width = 7, .prec = 1, .level = 0, .pos = 7, .key = 'T',
			.scale = 1,
		},
	},
};
const size_t fig_ndev = sizeof fig_dev_table / sizeof fig_dev_table[0];
_Static_assert(sizeof fig_dev_table / sizeof fig_dev_table[0] == FIG_NDEV, "a device figure without its id");

#undef RATE
#undef ALL
#undef LOOP

/* ---- device counters (OpenMetrics) ----------------------------------------- */

const struct fig_dev_counter fig_dev_counter_table[] = {
	/* The four fields of old-style partition lines (reads, read sectors,
	 * writes, written sectors) are there for them; the rest need 11. */
	{
		.field = DS_RD_IOS, .mul = 1, .div = 1, .min_fields = 4,
		.om = {
			.name = "wbtop_device_reads_completed", .type = FIG_OM_COUNTER,
			.help = "Reads completed.", .scale = 1,
		},
	},
	{
		.field = DS_RD_MERGES, .mul = 1, .div = 1, .min_fields = 11,
		.om = {
			.name = "wbtop_device_reads_merged", .type = FIG_OM_COUNTER,
			.help = "Adjacent reads merged.", .scale = 1,
		},
	},
	{
		.field = DS_RD_SECT, .mul = 512, .div = 1, .min_fields = 4,
		.om = {
			.name = "wbtop_device_read_bytes", .type = FIG_OM_COUNTER, .unit = "bytes",
			.help = "Bytes read (sectors read * 512).", .scale = 1,
		},
	},
	{
		.field = DS_RD_MS, .mul = 1, .div = 1000, .min_fields = 11,
		.om = {
			.name = "wbtop_device_read_time_seconds", .type = FIG_OM_COUNTER,
			.unit = "seconds", .help = "Time spent by all reads.", .scale = 1,
		},
	},
	{
		.field = DS_WR_IOS, .mul = 1, .div = 1, .min_fields = 4,
		.om = {
			.name = "wbtop_device_writes_completed", .type = FIG_OM_COUNTER,
			.help = "Writes completed.", .scale = 1,
		},
	},
	{
		.field = DS_WR_MERGES, .mul = 1, .div = 1, .min_fields = 11,
		.om = {
			.name = "wbtop_device_writes_merged", .type = FIG_OM_COUNTER,
			.help = "Adjacent writes merged.", .scale = 1,
		},
	},
	{
		.field = DS_WR_SECT, .mul = 512, .div = 1, .min_fields = 4,
		.om = {
			.name = "wbtop_device_written_bytes", .type = FIG_OM_COUNTER, .unit = "bytes",
			.help = "Bytes written (sectors written * 512).", .scale = 1,
		},
	},
	{
		.field = DS_WR_MS, .mul = 1, .div = 1000, .min_fields = 11,
		.om = {
			.name = "wbtop_device_write_time_seconds", .type = FIG_OM_COUNTER,
			.unit = "seconds", .help = "Time spent by all writes.", .scale = 1,
		},
	},
	{
		.field = DS_IN_FLIGHT, .mul = 1, .div = 1, .min_fields = 11,
		.om = {
			.name = "wbtop_device_ios_in_flight", .type = FIG_OM_GAUGE,
			.help = "I/Os issued to the device and not completed.", .scale = 1,
		},
	},
	{
		.field = DS_IO_MS, .mul = 1, .div = 1000, .min_fields = 11,
		.om = {
			.name = "wbtop_device_io_time_seconds", .type = FIG_OM_COUNTER,
			.unit = "seconds",
			.help = "Time the device had I/O in flight (%util is its rate).", .scale = 1,
		},
	},
	{
		.field = DS_QUEUE_MS, .mul = 1, .div = 1000, .min_fields = 11,
		.om = {
			.name = "wbtop_device_io_time_weighted_seconds", .type = FIG_OM_COUNTER,
			.unit = "seconds",
			.help = "I/O time weighted by the I/Os in flight (aqu-sz is its rate).",
			.scale = 1,
		},
	},
	{
		.field = DS_DC_IOS, .mul = 1, .div = 1, .min_fields = 15,
		.om = {
			.name = "wbtop_device_discards_completed", .type = FIG_OM_COUNTER,
			.help = "Discards completed (kernel 4.18+).", .scale = 1,
		},
	},
	{
		.field = DS_DC_MERGES, .mul = 1, .div = 1, .min_fields = 15,
		.om = {
			.name = "wbtop_device_discards_merged", .type = FIG_OM_COUNTER,
			.help = "Adjacent discards merged (kernel 4.18+).", .scale = 1,
		},
	},
	{
		.field = DS_DC_SECT, .mul = 512, .div = 1, .min_fields = 15,
		.om = {
			.name = "wbtop_device_discarded_bytes", .type = FIG_OM_COUNTER,
			.unit = "bytes",
			.help = "Bytes discarded (sectors discarded * 512, kernel 4.18+).",
			.scale = 1,
		},
	},
	{
		.field = DS_DC_MS, .mul = 1, .div = 1000, .min_fields = 15,
		.om = {
			.name = "wbtop_device_discard_time_seconds", .type = FIG_OM_COUNTER,
			.unit = "seconds", .help = "Time spent by all discards (kernel 4.18+).",
			.scale = 1,
		},
	},
	{
		.field = DS_FL_IOS, .mul = 1, .div = 1, .min_fields = 17,
		.om = {
			.name = "wbtop_device_flushes_completed", .type = FIG_OM_COUNTER,
			.help = "Cache flushes completed (kernel 5.5+).", .scale = 1,
		},
	},
	{
		.field = DS_FL_MS, .mul = 1, .div = 1000, .min_fields = 17,
		.om = {
			.name = "wbtop_device_flush_time_seconds", .type = FIG_OM_COUNTER,
			.unit = "seconds", .help = "Time spent by all cache flushes (kernel 5.5+).",
			.scale = 1,
		},
	},
};
const size_t fig_ndev_counter = sizeof fig_dev_counter_table / sizeof fig_dev_counter_table[0];

/* ---- system figures ---------------------------------------------------------- */

/* A field of struct sys_rates is named as its field (FIG_U64 a gauge, FIG_DBL a
 * rate).  A value beside the fixed blocks (.xkind) is not in the vmstat line
 * (batch prints it in its writeback-loop lines under title), a counter as a rate. */
#define SYS_AT(field) offsetof(struct sys_rates, field)
const struct fig_sys fig_sys_table[] = {
	{ .name = "r", .title = "r", .desc = "processes running", .unit = "", .width = 3,
	  .batch_pos = 1, .type = FIG_U64, .rate = false, .offset = SYS_AT(r), .xkind = -1 },
	{ .name = "b", .title = "b", .desc = "processes blocked", .unit = "", .width = 3,
	  .batch_pos = 2, .type = FIG_U64, .rate = false, .offset = SYS_AT(b), .xkind = -1 },
	{ .name = "swpd_kb", .title = "swpd", .desc = "swap in use", .unit = "KiB", .width = 8,
	  .batch_pos = 3, .type = FIG_U64, .rate = false, .offset = SYS_AT(swpd_kb), .xkind = -1 },
	{ .name = "free_kb", .title = "free", .desc = "free memory", .unit = "KiB", .width = 9,
	  .batch_pos = 4, .type = FIG_U64, .rate = false, .offset = SYS_AT(free_kb), .xkind = -1 },
	{ .name = "buff_kb", .title = "buff", .desc = "buffers", .unit = "KiB", .width = 8,
	  .batch_pos = 5, .type = FIG_U64, .rate = false, .offset = SYS_AT(buff_kb), .xkind = -1 },
	{ .name = "cache_kb", .title = "cache", .desc = "page cache (Cached + SReclaimable)",
	  .unit = "KiB", .width = 9, .batch_pos = 6, .type = FIG_U64, .rate = false,
	  .offset = SYS_AT(cache_kb), .xkind = -1 },
	{ .name = "si_kbps", .title = "si", .desc = "swapped in", .unit = "KiB/s", .width = 5,
	  .batch_pos = 7, .type = FIG_DBL, .rate = true, .offset = SYS_AT(si_kbps), .xkind = -1 },
	{ .name = "so_kbps", .title = "so", .desc = "swapped out", .unit = "KiB/s", .width = 5,
	  .batch_pos = 8, .type = FIG_DBL, .rate = true, .offset = SYS_AT(so_kbps), .xkind = -1 },
	{ .name = "bi_kbps", .title = "bi", .desc = "block in (pgpgin)", .unit = "KiB/s", .width = 8,
	  .batch_pos = 9, .type = FIG_DBL, .rate = true, .offset = SYS_AT(bi_kbps), .xkind = -1 },
	{ .name = "bo_kbps", .title = "bo", .desc = "block out (pgpgout)", .unit = "KiB/s",
	  .width = 8, .batch_pos = 10, .type = FIG_DBL, .rate = true, .offset = SYS_AT(bo_kbps),
	  .xkind = -1 },
	{ .name = "in_ps", .title = "in", .desc = "interrupts", .unit = "1/s", .width = 6,
	  .batch_pos = 11, .type = FIG_DBL, .rate = true, .offset = SYS_AT(in_ps), .xkind = -1 },
	{ .name = "cs_ps", .title = "cs", .desc = "context switches", .unit = "1/s", .width = 6,
	  .batch_pos = 12, .type = FIG_DBL, .rate = true, .offset = SYS_AT(cs_ps), .xkind = -1 },
	{ .name = "us", .title = "us", .desc = "CPU user + nice", .unit = "%", .width = 3,
	  .batch_pos = 13, .type = FIG_DBL, .rate = true, .offset = SYS_AT(us), .xkind = -1 },
	{ .name = "sy", .title = "sy", .desc = "CPU system + irq + softirq", .unit = "%", .width = 3,
	  .batch_pos = 14, .type = FIG_DBL, .rate = true, .offset = SYS_AT(sy), .xkind = -1 },
	{ .name = "id", .title = "id", .desc = "CPU idle", .unit = "%", .width = 3, .batch_pos = 15,
	  .type = FIG_DBL, .rate = true, .offset = SYS_AT(id), .xkind = -1 },
	{ .name = "wa", .title = "wa", .desc = "CPU iowait", .unit = "%", .width = 3, .batch_pos = 16,
	  .type = FIG_DBL, .rate = true, .offset = SYS_AT(wa), .xkind = -1 },
	{ .name = "st", .title = "st", .desc = "CPU steal", .unit = "%", .width = 3, .batch_pos = 17,
	  .type = FIG_DBL, .rate = true, .offset = SYS_AT(st), .xkind = -1 },
	{ .name = "dirty_kb", .title = "dirty", .desc = "Dirty in /proc/meminfo", .unit = "KiB",
	  .width = 9, .batch_pos = 18, .type = FIG_U64, .rate = false, .offset = SYS_AT(dirty_kb),
	  .xkind = -1 },
	{ .name = "writeback_kb", .title = "wback", .desc = "Writeback in /proc/meminfo",
	  .unit = "KiB", .width = 9, .batch_pos = 19, .type = FIG_U64, .rate = false,
	  .offset = SYS_AT(writeback_kb), .xkind = -1 },
	{ .name = "dirty_thresh_kb", .title = "thr", .desc = "the kernel's hard dirty threshold",
	  .unit = "KiB", .width = 9, .batch_pos = 21, .type = FIG_U64, .rate = false,
	  .offset = SYS_AT(dirty_thresh_kb), .xkind = -1 },
	{ .name = "bg_thresh_kb", .title = "bg_thr",
	  .desc = "the kernel's background dirty threshold", .unit = "KiB", .width = 9,
	  .batch_pos = 20, .type = FIG_U64, .rate = false, .offset = SYS_AT(bg_thresh_kb),
	  .xkind = -1 },
	{ .name = "dirtied_kbps", .title = NULL, .desc = "pages dirtied (nr_dirtied)",
	  .unit = "KiB/s", .width = 0, .batch_pos = 0, .type = FIG_DBL, .rate = true,
	  .offset = SYS_AT(dirtied_kbps), .xkind = -1 },
	{ .name = "written_kbps", .title = NULL, .desc = "pages written back (nr_written)",
	  .unit = "KiB/s", .width = 0, .batch_pos = 0, .type = FIG_DBL, .rate = true,
	  .offset = SYS_AT(written_kbps), .xkind = -1 },
	{ .name = "dirty_limit_kb", .title = "dirty_limit",
	  .desc = "the smoothed dirty limit writers are held to (tracefs global_dirty_state)",
	  .unit = "KiB", .type = FIG_DBL, .rate = false, .xkind = SNAP_XSYS_DIRTY_LIMIT_KB },
	{ .name = "flush_background_kb_s", .title = "background",
	  .desc = "written back by the flusher for background writeback", .unit = "KiB/s",
	  .type = FIG_DBL, .rate = true, .xkind = SNAP_XSYS_WB_BACKGROUND_KB },
	{ .name = "flush_vmscan_kb_s", .title = "vmscan",
	  .desc = "written back by the flusher for memory reclaim", .unit = "KiB/s", .type = FIG_DBL,
	  .rate = true, .xkind = SNAP_XSYS_WB_VMSCAN_KB },
	{ .name = "flush_sync_kb_s", .title = "sync",
	  .desc = "written back by the flusher for sync(2) and syncfs(2)", .unit = "KiB/s",
	  .type = FIG_DBL, .rate = true, .xkind = SNAP_XSYS_WB_SYNC_KB },
	{ .name = "flush_periodic_kb_s", .title = "periodic",
	  .desc = "written back by the flusher as data aged past dirty_expire_centisecs",
	  .unit = "KiB/s", .type = FIG_DBL, .rate = true, .xkind = SNAP_XSYS_WB_PERIODIC_KB },
	{ .name = "flush_laptop_timer_kb_s", .title = "laptop_timer",
	  .desc = "written back by the flusher for laptop mode", .unit = "KiB/s", .type = FIG_DBL,
	  .rate = true, .xkind = SNAP_XSYS_WB_LAPTOP_TIMER_KB },
	{ .name = "flush_fs_free_space_kb_s", .title = "fs_free_space",
	  .desc = "written back by the flusher as a filesystem ran short of space", .unit = "KiB/s",
	  .type = FIG_DBL, .rate = true, .xkind = SNAP_XSYS_WB_FS_FREE_SPACE_KB },
	{ .name = "flush_forker_thread_kb_s", .title = "forker_thread",
	  .desc = "written back by the flusher for the forker thread", .unit = "KiB/s",
	  .type = FIG_DBL, .rate = true, .xkind = SNAP_XSYS_WB_FORKER_THREAD_KB },
	{ .name = "flush_foreign_flush_kb_s", .title = "foreign_flush",
	  .desc = "written back by the flusher for another cgroup's inodes", .unit = "KiB/s",
	  .type = FIG_DBL, .rate = true, .xkind = SNAP_XSYS_WB_FOREIGN_FLUSH_KB },
	{ .name = "trace_lost_s", .title = "lost/s",
	  .desc = "writeback trace events the ring buffers lost", .unit = "1/s", .type = FIG_DBL,
	  .rate = true, .xkind = SNAP_XSYS_TRACE_LOST },
};
const size_t fig_nsys = sizeof fig_sys_table / sizeof fig_sys_table[0];
#undef SYS_AT

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

/* A field left out is 0: right-aligned, not traced, no pane column (.screen). */
const struct fig_proc fig_proc_table[] = {
	{
		.name = "pid", .desc = "process id",
		.sort = FIG_SORT_ASC, .form = FIG_PROC_TEXT, .title = "PID", .width = 7,
		.get = figure_p_pid,
		.screen = { .title = "PID", .width = 7, .level = 0, .pos = 1 },
	},
	{
		.name = "state", .desc = "R, S, D, ... as /proc/PID/stat",
		.sort = FIG_SORT_ASC, .form = FIG_PROC_TEXT, .title = "S", .width = 1,
		.get = figure_p_state,
		.screen = { .title = "S", .width = 2, .level = 0, .pos = 2 },
	},
	{
		.name = "write_kbps",
		.desc = "write_bytes per second of the task's own threads (not its reaped "
			"children): dirtied, or written with O_DIRECT",
		.sort = FIG_SORT_DESC, .form = FIG_PROC_KBPS, .title = "wkB/s", .width = 10,
		.get = figure_p_write,
		.screen = { .title = "write/s", .width = 8, .level = 0, .pos = 3 },
	},
	{
		.name = "cancelled_kbps",
		.desc = "cancelled_write_bytes per second: dirty data truncated before writeback",
		.sort = FIG_SORT_DESC, .form = FIG_PROC_KBPS, .title = "cwkB/s", .width = 9,
		.get = figure_p_cancel,
		.screen = { .title = "cancel/s", .width = 9, .level = 3, .pos = 11 },
	},
	{
		.name = "share_pct",
		.desc = "write_kbps as a share of all tasks' in the interval (the summary's total)",
		.sort = FIG_SORT_DESC, .form = FIG_PROC_PCT, .title = "share%", .width = 6,
		.get = figure_p_share,
		.screen = { .title = "share%", .width = 7, .level = 0, .pos = 4 },
	},
	{
		.name = "cpu_pct", .desc = "user + system time, percent of one CPU",
		.sort = FIG_SORT_DESC, .form = FIG_PROC_PCT, .title = "cpu%", .width = 6,
		.get = figure_p_cpu,
		.screen = { .title = "cpu%", .width = 6, .level = 0, .pos = 5 },
	},
	{
		.name = "kind", .desc = "task, kernel thread, flush worker or kswapd",
		.sort = FIG_SORT_ASC, .form = FIG_PROC_TEXT, .title = "kind", .width = -7,
		.get = figure_p_kind,
		.screen = { .title = "kind", .width = 8, .left = true, .level = 1, .pos = 9 },
	},
	{
		.name = "dev",
		.desc = "the devices a task writes to (held on while throttled, else of its files "
			"open for writing); the device a flush worker serves",
		.sort = FIG_SORT_ASC, .form = FIG_PROC_TEXT, .title = "dev", .width = -8,
		.get = figure_p_dev,
		.screen = { .title = "dev", .width = 12, .left = true, .level = 0, .pos = 8 },
	},
	{
		.name = "throttled",
		.desc = "paused by the dirty limits (the writeback trace), else held by them or "
			"the block layer (from wchan, best effort)",
		.sort = FIG_SORT_DESC, .form = FIG_PROC_TEXT, .title = "thr", .width = -3,
		.get = figure_p_thr,
		.screen = { .title = "thr", .width = 4, .left = true, .level = 0, .pos = 6 },
	},
	{
		.name = "wait", .desc = "what a task in D state waits for",
		.sort = FIG_SORT_ASC, .form = FIG_PROC_TEXT, .title = "wait", .width = -11,
		.get = figure_p_wait,
		.screen = { .title = "wait", .width = 12, .left = true, .level = 0, .pos = 7 },
	},
	{
		.name = "wchan", .desc = "where a task in D state sleeps",
		.sort = FIG_SORT_ASC, .form = FIG_PROC_TEXT, .title = "wchan", .width = -24,
		.get = figure_p_wchan,
		.screen = { .title = "wchan", .width = 25, .left = true, .level = 2, .pos = 10 },
	},
	/* the writeback trace's, in -P before the command, on the pane when there is room */
	{
		.name = "throttled_ms",
		.desc = "ms paused in balance_dirty_pages per second (the writeback trace)",
		.sort = FIG_SORT_DESC, .form = FIG_PROC_NUM, .title = "thr_ms/s", .width = 8,
		.get = figure_p_paused, .traced = true,
		.screen = { .title = "ms/s", .width = 7, .level = 1, .pos = 12 },
	},
	{
		.name = "pauses", .desc = "pauses in balance_dirty_pages per second",
		.sort = FIG_SORT_DESC, .form = FIG_PROC_NUM, .title = "pauses/s", .width = 8,
		.get = figure_p_pauses, .traced = true,
	},
	{
		.name = "task_ratelimit_kbps",
		.desc = "the rate limit of its last throttling decision",
		.sort = FIG_SORT_DESC, .form = FIG_PROC_KBPS, .title = "rl_kB/s", .width = 9,
		.get = figure_p_ratelimit, .traced = true,
		.screen = { .title = "limit/s", .width = 8, .level = 3, .pos = 14 },
	},
	{
		.name = "held_on", .desc = "the device (BDI) it was held on, the one it writes to",
		.sort = FIG_SORT_ASC, .form = FIG_PROC_TEXT, .title = "held_on", .width = -8,
		.get = figure_p_held, .traced = true,
		.screen = { .title = "held", .width = 9, .left = true, .level = 1, .pos = 13 },
	},
	{
		.name = "command", .desc = "the full command line, else the command name",
		.sort = FIG_SORT_ASC, .form = FIG_PROC_TEXT, .title = "command", .width = 0,
		.get = figure_p_comm,
	},
};
const size_t fig_nproc = sizeof fig_proc_table / sizeof fig_proc_table[0];

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
	{ .id = FIG_DEV_WKB_S, .title = "writes", .kb = true, .unit = "/s" },
	{ .id = FIG_DEV_AWAIT_MS, .title = "await (ms)", .kb = false, .unit = "" },
};
const size_t fig_ndev_graphs = sizeof fig_dev_graphs / sizeof fig_dev_graphs[0];

const char *figure_dev_key_word(const struct fig_dev *f)
{
	/* the column says wMB/s; in a sentence the word reads better */
	return f == &fig_dev_table[FIG_DEV_WKB_S] ? "write MB/s" : f->screen.title;
}

/* ---- memory cgroups ------------------------------------------------------ */

/* A field left out is 0: no batch title, no screen column, no OpenMetrics family
 * (.om: a gauge, its unit and scale as the device rows of the same figures).  The
 * screen's decimals are the batch's, also in the rows off the screen. */
const struct fig_cg fig_cg_table[] = {
	/* the writeback domain's, from the trace's cgroup_ino (JSON's first keys) */
	{
		.name = "throttled_ms",
		.desc = "ms writers were paused in its writeback domain, per second",
		.unit = "ms/s", .width = 0, .prec = 1, .kind = SNAP_XCG_THROTTLED_MS,
		.screen = { .prec = 1 },
		.om = {
			.name = "wbtop_cgroup_domain_throttled_ratio", .type = FIG_OM_GAUGE,
			.unit = "ratio",
			.help = "Share of the last interval writers were paused in the cgroup's "
				"writeback domain.",
			.scale = 0.001,
		},
	},
	{
		.name = "pauses", .desc = "pauses in its writeback domain per second",
		.unit = "1/s", .width = 0, .prec = 1, .kind = SNAP_XCG_PAUSES,
		.screen = { .prec = 1 },
	},
	{
		.name = "written_kb_s",
		.desc = "KiB written back by flusher passes for its writeback domain",
		.unit = "KiB/s", .width = 0, .prec = 0, .kind = SNAP_XCG_WRITTEN_KB,
	},
	{
		.name = "file_dirty_kb", .title = "dirty",
		.desc = "its dirty page cache (memory.stat file_dirty; v1 dirty)",
		.unit = "KiB", .width = 9, .prec = 0, .kind = SNAP_XCG_FILE_DIRTY_KB,
		.screen = { .title = "DIRTY", .width = 9, .prec = 0, .level = 0 },
		.om = {
			.name = "wbtop_cgroup_file_dirty_bytes", .type = FIG_OM_GAUGE,
			.unit = "bytes",
			.help = "Dirty page cache of the memory cgroup (memory.stat file_dirty; v1 "
				"dirty).",
			.scale = 1024,
		},
	},
	{
		.name = "file_writeback_kb", .title = "wback",
		.desc = "its page cache under writeback (file_writeback; v1 writeback)",
		.unit = "KiB", .width = 8, .prec = 0, .kind = SNAP_XCG_FILE_WRITEBACK_KB,
		.screen = { .title = "WBACK", .width = 8, .prec = 0, .level = 1 },
		.om = {
			.name = "wbtop_cgroup_file_writeback_bytes", .type = FIG_OM_GAUGE,
			.unit = "bytes",
			.help = "Page cache of the memory cgroup under writeback (memory.stat).",
			.scale = 1024,
		},
	},
	{
		.name = "wb_dirty_kb", .title = "wb_dirty",
		.desc = "dirty pages of its writeback domains (wb_stats WbReclaimable)",
		.unit = "KiB", .width = 9, .prec = 0, .kind = SNAP_XCG_WB_DIRTY_KB,
		.screen = { .title = "WB_DIRTY", .width = 9, .prec = 0, .level = 2 },
		.om = {
			.name = "wbtop_cgroup_wb_dirty_bytes", .type = FIG_OM_GAUGE, .unit = "bytes",
			.help = "Dirty pages of the cgroup's writeback domains on all devices "
				"(debugfs wb_stats).",
			.scale = 1024,
		},
	},
	{
		.name = "wb_writeback_kb",
		.desc = "pages of its writeback domains under writeback (WbWriteback)",
		.unit = "KiB", .width = 0, .prec = 0, .kind = SNAP_XCG_WB_WRITEBACK_KB,
		.om = {
			.name = "wbtop_cgroup_wb_writeback_bytes", .type = FIG_OM_GAUGE,
			.unit = "bytes",
			.help = "Pages of the cgroup's writeback domains under writeback (debugfs "
				"wb_stats).",
			.scale = 1024,
		},
	},
	{
		.name = "wb_thresh_kb", .title = "wb_thr",
		.desc = "dirty threshold of its writeback domains on the devices it has pages on "
			"(WbDirtyThresh)",
		.unit = "KiB", .width = 9, .prec = 0, .kind = SNAP_XCG_WB_THRESH_KB,
		.screen = { .title = "WB_THR", .width = 9, .prec = 0, .level = 5 },
		.om = {
			.name = "wbtop_cgroup_wb_threshold_bytes", .type = FIG_OM_GAUGE,
			.unit = "bytes",
			.help = "Dirty threshold of the cgroup's writeback domains on the devices "
				"it has pages on.",
			.scale = 1024,
		},
	},
	{
		.name = "wb_bw_kbps", .title = "wb_bw",
		.desc = "the kernel's write bandwidth estimate of those domains",
		.unit = "KiB/s", .width = 8, .prec = 0, .kind = SNAP_XCG_WB_BW_KBPS,
		.screen = { .title = "WB_BW", .width = 8, .prec = 0, .level = 5 },
		.om = {
			.name = "wbtop_cgroup_wb_write_bandwidth_bytes_per_second",
			.type = FIG_OM_GAUGE, .unit = "bytes_per_second",
			.help = "The kernel's write bandwidth estimate of the cgroup's writeback "
				"domains with pages.",
			.scale = 1024,
		},
	},
	{
		.name = "wb_dirtied_kb_s", .title = "dirtied",
		.desc = "KiB dirtied in its writeback domains per second (WbDirtied)",
		.unit = "KiB/s", .width = 8, .prec = 0, .kind = SNAP_XCG_WB_DIRTIED_KB,
		.screen = { .title = "DIRTD/s", .width = 8, .prec = 0, .level = 3 },
		.om = {
			.name = "wbtop_cgroup_wb_dirtied_bytes_per_second", .type = FIG_OM_GAUGE,
			.unit = "bytes_per_second",
			.help = "Page cache dirtied in the cgroup's writeback domains in the last "
				"interval.",
			.scale = 1024,
		},
	},
	{
		.name = "wb_written_kb_s", .title = "written",
		.desc = "KiB written in its writeback domains per second (WbWritten)",
		.unit = "KiB/s", .width = 8, .prec = 0, .kind = SNAP_XCG_WB_WRITTEN_KB,
		.screen = { .title = "WRITN/s", .width = 8, .prec = 0, .level = 3 },
		.om = {
			.name = "wbtop_cgroup_wb_written_bytes_per_second", .type = FIG_OM_GAUGE,
			.unit = "bytes_per_second",
			.help = "Page cache written back in the cgroup's writeback domains in the "
				"last interval.",
			.scale = 1024,
		},
	},
	{
		.name = "task_throttled_ms", .title = "thr_ms",
		.desc = "ms its tasks were paused in balance_dirty_pages, per second",
		.unit = "ms/s", .width = 7, .prec = 1, .kind = SNAP_XCG_TASK_THROTTLED_MS,
		.screen = { .title = "THR_MS", .width = 7, .prec = 1, .level = 0 },
		.om = {
			.name = "wbtop_cgroup_throttled_ratio", .type = FIG_OM_GAUGE, .unit = "ratio",
			.help = "Share of the last interval the cgroup's tasks were paused in "
				"balance_dirty_pages, summed over them.",
			.scale = 0.001,
		},
	},
	{
		.name = "task_pauses", .title = "pauses",
		.desc = "pauses of its tasks in balance_dirty_pages per second",
		.unit = "1/s", .width = 7, .prec = 1, .kind = SNAP_XCG_TASK_PAUSES,
		.screen = { .title = "PAUSE/s", .width = 8, .prec = 1, .level = 4 },
	},
};
const size_t fig_ncg = sizeof fig_cg_table / sizeof fig_cg_table[0];
_Static_assert(sizeof fig_cg_table / sizeof fig_cg_table[0] <= FIG_CG_MAX, "FIG_CG_MAX rows at most");

bool figure_cg_value(const struct fig_cg *f, const struct snapshot *prev, const struct snapshot *cur,
		     uint64_t ino, double dt_s, double *v)
{
	return derive_x(prev, cur, SNAP_XCG, ino, f->kind, dt_s, v);
}
