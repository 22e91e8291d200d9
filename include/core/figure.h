/*
 * figure.h - the registry of figures: one const row per figure that wbtop shows or
 * exports (devices, the system, processes, memory cgroups), read by every sink.
 *
 * Adding a figure is adding a row and its id (and a formula in figure.c when it is
 * not a field of struct dev_rates); doc/design.md, "Figures: one row each".
 * Pure data and small pure accessors: no files, no output, no state.
 */
#ifndef WBTOP_FIGURE_H
#define WBTOP_FIGURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/derive.h"
#include "core/procs.h"
#include "core/snapshot.h"

/* What must be sampled for a figure to exist (bits; 0 = always there). */
enum fig_need {
	FIG_NEED_DISCARD = 1u << 0,	/* diskstats discard fields (kernel 4.18+) */
	FIG_NEED_FLUSH = 1u << 1,	/* diskstats flush fields (kernel 5.5+) */
	FIG_NEED_ROOT = 1u << 2,	/* files only root reads (tracefs, debugfs, /proc/PID/io) */
	FIG_NEED_EXTRA = 1u << 3,	/* a value beside the diskstats block (snapshot.h, extras) */
};

/* Which sinks show a figure (bits). */
enum fig_sink {
	FIG_IN_BATCH = 1u << 0,		/* a column of batch text */
	FIG_IN_EXPORT = 1u << 1,	/* a CSV column and a JSON key, under name */
	FIG_IN_HISTORY = 1u << 2,	/* kept in the screen's history rings (hist slot): drawn
					 * as a graph or a sparkline; also FIG_IN_BRIEF */
	FIG_SORT_FIRST = 1u << 3,	/* the screen sorts by it until told otherwise */
	FIG_IN_BATCH_LOOP = 1u << 4,	/* a column of batch text's writeback-loop table */
	FIG_IN_BRIEF = 1u << 5,		/* derived for every device every frame (derive_dev_brief):
					 * the screen sorts by it without deriving every figure */
};

/* Default sort direction of a column. */
enum fig_sort { FIG_SORT_DESC, FIG_SORT_ASC };

/* How a figure shows as a column of the screen's device table. */
struct fig_screen {
	const char *title;	/* NULL: not on the screen */
	uint8_t width;		/* including the space before it */
	uint8_t prec;		/* decimals, when they fit */
	uint8_t level;		/* 0: always; higher: added in order when there is room */
	uint8_t pos;		/* place among the screen's columns, from 1 */
	char key;		/* the key that sorts by it, 0 if none */
	double scale;		/* shown value = value * scale (KiB/s as MB/s: 1/1024) */
};

/* OpenMetrics families. */
enum fig_om_type { FIG_OM_GAUGE, FIG_OM_COUNTER };

struct fig_om {
	const char *name;	/* NULL: not exported; counters without _total */
	enum fig_om_type type;
	const char *unit;	/* NULL, or the name's last component */
	const char *help;	/* no double quotes: 0.0.4 HELP has no \" */
	double scale;		/* exported value = value * scale (KiB as bytes: 1024) */
};

/* A figure of one device, derived from two samples (struct dev_rates). */
struct fig_dev {
	const char *name;	/* CSV column and JSON key: "w_await_ms" */
	const char *title;	/* batch title, as iostat -x: "w_await" */
	const char *desc;	/* one line, for the man page and the help */
	const char *unit;	/* "1/s", "KiB/s", "ms", "KiB", "%", "" */
	uint8_t width, prec;	/* batch: "%*.*f" */
	unsigned need;		/* enum fig_need bits */
	unsigned sinks;		/* enum fig_sink bits */
	enum fig_sort sort;
	int8_t hist;		/* slot in struct hist_dev, -1 when not kept */
	/* the value: the double at offset in struct dev_rates, or formula(r),
	 * or with FIG_NEED_EXTRA the value xkind beside the diskstats block */
	size_t offset;
	double (*formula)(const struct dev_rates *r);
	unsigned xkind;		/* with FIG_NEED_EXTRA: the value's enum snap_xdev, in r->x */
	struct fig_screen screen;
	struct fig_om om;	/* a gauge of the last interval's value */
};

/* A raw cumulative counter (or gauge) of one device, as the kernel keeps
 * it: what OpenMetrics exports, rates being left to the engine. */
struct fig_dev_counter {
	enum disk_field field;
	uint64_t mul, div;	/* sectors * 512 = bytes, ms / 1000 = seconds */
	uint8_t min_fields;	/* the device's line must have this many fields */
	struct fig_om om;	/* scale unused: mul and div keep it exact */
};

/* A figure of the whole system (struct sys_rates). */
enum fig_sys_type { FIG_U64, FIG_DBL };

struct fig_sys {
	const char *name;	/* CSV/JSON key */
	const char *title;	/* batch title ("bo"), NULL: not in batch text */
	const char *desc;
	const char *unit;
	uint8_t width;		/* batch, no decimals (as vmstat) */
	uint8_t batch_pos;	/* place in batch's system line, from 1; 0: not there */
	enum fig_sys_type type;
	bool rate;		/* valid only when the rates' status is RATE_OK (else a gauge) */
	size_t offset;		/* in struct sys_rates */
	int xkind;		/* >= 0: the value beside the fixed blocks (enum snap_xsys) in r->x */
};

/* A figure of one process row (procs.h): the -P tables (procs_view.c)
 * and the screen's process pane (screen_procs.c) both walk these rows. */
enum fig_proc_form {
	FIG_PROC_KBPS,		/* a rate in KiB/s ("hidden" when /proc/PID/io is unreadable) */
	FIG_PROC_PCT,		/* a percentage */
	FIG_PROC_NUM,		/* another number (ms/s, 1/s) */
	FIG_PROC_TEXT		/* a word */
};
enum fig_proc_have { FIG_PROC_NONE, FIG_PROC_HIDDEN, FIG_PROC_OK };

struct fig_proc {
	const char *name;	/* machine name */
	const char *desc;
	enum fig_sort sort;
	enum fig_proc_form form;
	const char *title;	/* -P title */
	int8_t width;		/* -P: right-aligned, negative left-aligned, 0 the rest of the line */
	struct {
		const char *title;	/* NULL: not a column of the pane */
		uint8_t width;		/* including the space before it */
		bool left;		/* left-aligned */
		uint8_t level;		/* 0: always; higher: added in order when there is room */
		uint8_t pos;		/* place among the pane's columns, from 1 */
	} screen;
	/* The value of r: a number into *v, or a word into buf (len bytes). */
	enum fig_proc_have (*get)(const struct proc_row *r, double *v, char *buf, size_t len);
	bool traced;		/* only when the sample has the writeback trace (doc/kernel-loop.md) */
};

extern const struct fig_proc fig_proc_table[];
extern const size_t fig_nproc;
/* The pane's columns in pane order into out (cap entries); returns how many. */
size_t figure_proc_screen_cols(const struct fig_proc **out, size_t cap);

/* A figure of one memory cgroup (snapshot.h, SNAP_XCG): the value kind of
 * the cgroup's values, gauges as read, counters per second from two
 * samples (derive_x).  The batch cgroup table, the screen's cgroup view,
 * JSON's cgroups, CSV and OpenMetrics walk these rows (doc/kernel-loop.md). */
struct fig_cg {
	const char *name;	/* JSON key, CSV column (with the cgroup's path) */
	const char *title;	/* batch title; NULL: not in batch text */
	const char *desc;
	const char *unit;
	uint8_t width, prec;	/* batch: "%*.*f" */
	unsigned kind;		/* enum snap_xcg */
	struct {
		const char *title;	/* NULL: not a column of the screen's cgroup view */
		uint8_t width;		/* including the space before it */
		uint8_t prec;
		uint8_t level;		/* 0: always; higher: added in order when there is room */
	} screen;
	struct fig_om om;	/* a gauge of the last interval's value, label cgroup="path" */
};

#define FIG_CG_MAX 16	/* rows of fig_cg_table at most (a bit each in a mask) */
extern const struct fig_cg fig_cg_table[];
extern const size_t fig_ncg;
/* The value of figure f for cgroup ino over prev -> cur (dt_s seconds):
 * true with *v set, false when the sample has none (derive_x). */
bool figure_cg_value(const struct fig_cg *f, const struct snapshot *prev, const struct snapshot *cur,
		     uint64_t ino, double dt_s, double *v);

/* The slots of struct hist_dev: the device figures the history keeps, those a graph or a
 * sparkline draws (fig_dev_graphs, the write rate); a slot is 4 bytes of every device's every
 * frame kept (1024 of them: at 10000 devices 40 MB a slot). */
enum fig_hist { FIG_HIST_WKB_S, FIG_HIST_AWAIT_MS, FIG_NHIST };

/* The device figures, in the order of fig_dev_table (which they index).  A
 * module that needs one figure's value (a cause's evidence, a graph, a sort
 * key) asks for it by id (figure_dev_get) rather than naming a field of struct
 * dev_rates; adding a figure adds its id here beside its row. */
enum fig_dev_id {
	FIG_DEV_R_S, FIG_DEV_W_S, FIG_DEV_RKB_S, FIG_DEV_WKB_S, FIG_DEV_RRQM_S, FIG_DEV_WRQM_S,
	FIG_DEV_R_AWAIT_MS, FIG_DEV_W_AWAIT_MS, FIG_DEV_AQU_SZ, FIG_DEV_UTIL_PCT,
	FIG_DEV_D_S, FIG_DEV_DKB_S, FIG_DEV_D_AWAIT_MS, FIG_DEV_F_S, FIG_DEV_F_AWAIT_MS, FIG_DEV_WAREQ_KB,
	FIG_DEV_WB_DIRTY_KB, FIG_DEV_WB_WRITEBACK_KB, FIG_DEV_WB_THRESH_KB, FIG_DEV_WB_BW_KBPS,
	FIG_DEV_WB_DIRTIED_KB_S, FIG_DEV_WB_WRITTEN_KB_S, FIG_DEV_THROTTLED_MS, FIG_DEV_PAUSES,
	FIG_DEV_AWAIT_MS,
	FIG_NDEV
};

extern const struct fig_dev fig_dev_table[];
extern const size_t fig_ndev;
extern const struct fig_dev_counter fig_dev_counter_table[];
extern const size_t fig_ndev_counter;
extern const struct fig_sys fig_sys_table[];
extern const size_t fig_nsys;

/* The value of figure f in r (meaningful when figure_dev_available). */
static inline double figure_dev_value(const struct fig_dev *f, const struct dev_rates *r)
{
	double v;
	if (f->formula)
		return f->formula(r);
	if (f->need & FIG_NEED_EXTRA)
		return f->xkind < SNAP_NXDEV ? r->x[f->xkind] : 0.0;
	memcpy(&v, (const char *)r + f->offset, sizeof v);
	return v;
}

/* Whether r has figure f: rates exist (RATE_OK) and the kernel gave what
 * the figure needs (for a value beside the diskstats block: that the source
 * read it for this device).  Inline: batch text asks it of every column of
 * every device. */
static inline bool figure_dev_available(const struct fig_dev *f, const struct dev_rates *r)
{
	if (r->status != RATE_OK)
		return false;
	if (!f->need)
		return true;
	if ((f->need & FIG_NEED_DISCARD) && !r->has_discard)
		return false;
	if ((f->need & FIG_NEED_EXTRA) && (f->xkind >= SNAP_NXDEV || !(r->x_have & (1u << f->xkind))))
		return false;
	return !(f->need & FIG_NEED_FLUSH) || r->has_flush;
}

/* Figure id's value in r into *v, when r has it (figure_dev_available);
 * false, *v untouched, when not. */
static inline bool figure_dev_get(enum fig_dev_id id, const struct dev_rates *r, double *v)
{
	const struct fig_dev *f = &fig_dev_table[id];
	if (!figure_dev_available(f, r))
		return false;
	*v = figure_dev_value(f, r);
	return true;
}

/* A graph of the screen's device detail page: a figure kept in history. */
struct fig_dev_graph {
	enum fig_dev_id id;
	const char *title;	/* its rule's title */
	bool kb;		/* values in KiB: the axis in B, K, M, G */
	const char *unit;	/* after the axis values: "/s", "" */
};
/* The detail page's graphs, top to bottom (the first gets the larger part). */
extern const struct fig_dev_graph fig_dev_graphs[];
extern const size_t fig_ndev_graphs;

/* What the help page says a sort key sorts by: "write MB/s" for the write
 * rate, else the column's screen title. */
const char *figure_dev_key_word(const struct fig_dev *f);

/* Whether any device could need f's columns at all (a table prints the
 * discard columns only when some device has discard counters). */
bool figure_dev_wanted(const struct fig_dev *f, bool any_discard, bool any_flush);

/* The screen's columns: the rows with a screen title, in screen order, into
 * out (cap entries).  Returns how many. */
size_t figure_dev_screen_cols(const struct fig_dev **out, size_t cap);

/* The row of the write rate in KiB/s: the figure the dip detector judges, which every step
 * derives of every device (derive_dev_write, frame_dev_write_kbps). */
const struct fig_dev *figure_dev_write_rate(void);
/* The row kept in history slot k (enum fig_hist), NULL if none. */
const struct fig_dev *figure_dev_by_hist(int k);

/* The row whose screen title is title, NULL if none. */
const struct fig_dev *figure_dev_by_screen_title(const char *title);

/* The row the screen sorts by at start (FIG_SORT_FIRST). */
const struct fig_dev *figure_dev_sort_first(void);

/* Whether r has system figure f (one beside the fixed blocks may be absent). */
bool figure_sys_available(const struct fig_sys *f, const struct sys_rates *r);

/* The value of a system figure (gauges as double). */
double figure_sys_value(const struct fig_sys *f, const struct sys_rates *r);
uint64_t figure_sys_u64(const struct fig_sys *f, const struct sys_rates *r);

#endif
