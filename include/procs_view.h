/*
 * procs_view.h - who is writing and who is being throttled, from two
 * snapshots' process arrays.
 *
 * What it is: pure code.  It turns the raw per-process counters of two
 * snapshots (snapshot->proc, sampled by procs.h or replayed) into rows: the
 * top writers by write rate, tasks in D state with what they wait for, and
 * the kernel's writeback threads (flush workers, attributed to the device
 * they flush, and kswapd) with their CPU use.  It also holds the small
 * name and wchan parsers that the sampler uses, and the batch text printer
 * of -P.
 * What it is not: it reads no files and no clock and knows nothing of
 * curses; the screen and batch mode draw what it returns.
 *
 * Throttling comes from the writeback tracepoints when the sample has them
 * (the time each task paused in balance_dirty_pages, the device it was held
 * on); otherwise it is guessed from where a task sleeps (wchan, or
 * /proc/PID/stack), and labelled a guess.  Units are in the names: _kbps is KiB/s,
 * _pct percent, cpu_pct percent of one CPU.
 */
#ifndef WBTOP_PROCS_VIEW_H
#define WBTOP_PROCS_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "derive.h"
#include "procs.h"
#include "snapshot.h"

/* The kernel exports process CPU times in USER_HZ ticks, 100 per second on
 * every architecture Linux runs on today (it is ABI, unlike HZ). */
#define PROCS_USER_HZ 100

/* Rows batch mode shows per interval (the screen picks its own). */
#define PROCS_BATCH_ROWS 12

/* One row of the process pane. */
struct proc_row {
	int32_t pid;
	char comm[32];
	char cmdline[128];		/* the full command line, printable; "" if unknown */
	bool self;			/* the wbtop that sampled: its writes are its recording's */
	char state;			/* R, S, D, ... as /proc/PID/stat */
	enum procs_kind kind;
	enum rate_status status;	/* RATE_OK, or RATE_FIRST: new (or reused) pid, no rates yet */
	bool io_hidden;			/* /proc/PID/io unreadable: write figures unknown */
	double write_kbps;		/* /proc/PID/io write_bytes: what the task dirtied or wrote direct */
	double cancelled_kbps;		/* cancelled_write_bytes: dirty data truncated before writeback */
	double share_pct;		/* write_kbps / system block-out (vmstat bo); -1 if bo is 0 */
	double cpu_pct;			/* user + system, percent of one CPU */
	enum procs_wait wait;
	bool throttled;			/* wait is DIRTY or QOS */
	char wchan[40];			/* where it sleeps, "" if not in D state or unknown */
	uint32_t flush_major, flush_minor;	/* flusher: the device it serves, 0:0 if unknown */
	char flush_dev[32];		/* flusher: device name ("loop0"), else "MAJ:MIN", bdi name, "*" (all) */
	bool flush_active;		/* flusher: running writeback work now ("+" in the kworker name) */
	/* From the writeback tracepoints (doc/kernel-loop.md), when the sample
	 * has them: exact, where wait and throttled above are a guess. */
	bool traced;			/* the figures below are there */
	double paused_ms_s;		/* ms paused in balance_dirty_pages per second */
	double pauses_s;		/* pauses per second */
	double ratelimit_kbps;		/* task_ratelimit of its last decision; -1 if none */
	uint32_t bdi_major, bdi_minor;	/* the device it was held on; has_bdi */
	bool has_bdi;
};

/* Totals over all tasks of one interval, for the summary line. */
struct procs_summary {
	enum rate_status status;	/* RATE_OK; RATE_FIRST: no previous process sample; RATE_NODATA: dt 0 */
	size_t ntasks;			/* processes in the current sample */
	size_t nwriting;		/* with write_kbps > 0 */
	size_t nthrottled;		/* throttled: paused (traced), else a guess from wchan */
	bool traced;			/* the sample has the writeback trace: throttling is exact */
	size_t ndstate;			/* in D state */
	size_t nwait_unknown;		/* in D state, wait unknown (wchan unreadable) */
	size_t nhidden;			/* /proc/PID/io unreadable */
	size_t nnew;			/* pids new since the previous sample (or reused) */
	size_t ngone;			/* pids of the previous sample now absent (exited) */
	size_t nomitted;		/* rows that did not fit in the caller's array */
	double write_kbps, cancelled_kbps;	/* sums over readable tasks */
	double bo_kbps;			/* system block-out, the share's denominator; -1 unknown */
	double flusher_cpu_pct, kswapd_cpu_pct;
};

/* Rows for the interval prev -> cur (prev may be NULL: first sample),
 * dt_s seconds apart; both snapshots' proc arrays sorted by pid.  Writes
 * at most cap rows: first the tasks writing or in D state, by write rate
 * (throttled first among equals), then the flush workers and kswapd by
 * CPU use; when both do not fit, each group keeps at least half of cap.
 * Fills *sum (may be NULL).  Returns the number of rows written.
 * Allocates nothing. */
size_t procs_view_build(const struct snapshot *prev, const struct snapshot *cur, double dt_s,
			struct proc_row *rows, size_t cap, struct procs_summary *sum);

/* The -P text of one interval: a summary line and a table of rows.
 * 0 or -errno of the failed write. */
int procs_print_batch(FILE *out, const struct procs_summary *sum, const struct proc_row *rows, size_t n);

/* The -P sink (sink.h): after each interval's device table, its process
 * table, to out (not owned; out_name names it in messages).  NULL when out
 * of memory. */
struct sink;
struct sink *procs_sink_new(FILE *out, const char *out_name);

/* Whether a wait means the task is held back from writing. */
bool procs_wait_throttled(enum procs_wait w);
/* Short labels: "dirty-limit", "wbt", ...; "task", "flusher", ... */
const char *procs_wait_name(enum procs_wait w);
const char *procs_kind_name(enum procs_kind k);

/* The command a row shows: its command line, else its name; wbtop's own row says so first
 * ("(this wbtop) ..."): its writes are its recording's, part of what it measures.  buf. */
const char *procs_row_command(const struct proc_row *r, char *buf, size_t len);

#endif
