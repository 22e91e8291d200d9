/*
 * procs.h - who is writing, and who is being throttled, in an interval: the
 * rows of the process pane, -P and the recorder, from two samples (pure).
 *
 * Units are in the names: _kbps is KiB/s, _pct percent, cpu_pct percent of
 * one CPU.  Sampling is source/procs_reader.h.
 */
#ifndef WBTOP_PROCS_H
#define WBTOP_PROCS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/derive.h"
#include "core/snapshot.h"

/* The state letter of a process that exited during the interval (procs_acct.h). */
#define PROCS_STATE_EXITED 'X'

/* ---- Parsing what the kernel says of a task (pure) ---- */

/* What a task is, for the writeback picture. */
enum procs_kind {
	PROCS_KIND_TASK,	/* a user process */
	PROCS_KIND_KTHREAD,	/* another kernel thread (e.g. a loop worker) */
	PROCS_KIND_FLUSHER,	/* writeback worker: kworker ..+flush-MAJ:MIN, flush-MAJ:MIN, pdflush */
	PROCS_KIND_KSWAPD,	/* page reclaim, one per NUMA node */
	PROCS_KIND_OTHER	/* not a task: the row of all tasks not shown (procs_rank) */
};

/* What a task in D state waits for, from the function it sleeps in. */
enum procs_wait {
	PROCS_WAIT_NONE,	/* not in D state */
	PROCS_WAIT_UNKNOWN,	/* D state, but wchan and stack unreadable (not root) */
	PROCS_WAIT_DIRTY,	/* balance_dirty_pages: held by the dirty limits */
	PROCS_WAIT_QOS,		/* the block layer holds writes back (wbt, rq_qos, blk cgroup) */
	PROCS_WAIT_WRITEBACK,	/* a page under writeback (stable pages) */
	PROCS_WAIT_SYNC,	/* fsync, sync, a journal commit */
	PROCS_WAIT_IO,		/* other block I/O: a request tag, a locked page */
	PROCS_WAIT_OTHER	/* D state elsewhere (locks, reclaim, ...) */
};

/* The kind of a task from its command name and kthread flag.  For a flush
 * worker, *major:*minor get the device number its name carries (0:0 if
 * none, as for "flush-btrfs-1" or "pdflush"), dev its device part ("7:0",
 * "btrfs-1", "" for all devices) and *active whether the kworker runs the
 * work now.  Output pointers may be NULL. */
enum procs_kind procs_kind_of(const char *comm, bool kthread, uint32_t *major, uint32_t *minor,
			      char *dev, size_t devlen, bool *active);

/* What a task waits for, from its state and wchan ("" = unknown). */
enum procs_wait procs_wait_of(char state, const char *wchan);
/* The function a task sleeps in, from the text of /proc/PID/stack: the
 * innermost frame that says why (balance_dirty_pages, ...), else the
 * innermost frame outside the scheduler.  "" if none. */
void procs_stack_wchan(const char *stack, char *wchan, size_t len);

/* Whether a wait means the task is held back from writing. */
bool procs_wait_throttled(enum procs_wait w);

/* ---- What the processes did in an interval, and which matter (pure) ---- */

/* The kernel exports process CPU times in USER_HZ ticks, 100 per second on
 * every architecture Linux runs on today (it is ABI, unlike HZ). */
#define PROCS_USER_HZ 100

/* One row of the process pane. */
struct proc_row {
	int32_t pid;
	char comm[32];
	char cmdline[128];		/* the full command line, printable; "" if unknown */
	bool self;			/* the wbtop that sampled: its writes are its recording's */
	char state;			/* R, S, D, ... as /proc/PID/stat */
	enum procs_kind kind;
	enum rate_status status;	/* RATE_OK, or RATE_FIRST: no rates (first sample; in a replay, new) */
	bool io_hidden;			/* /proc/PID/io unreadable: write figures unknown */
	bool exited;			/* exited in the interval: its figures are its last */
	bool born;			/* not in the previous sample (new, or a reused pid) */
	size_t nother;			/* PROCS_KIND_OTHER: how many tasks it stands for */
	/* Its own threads' write_bytes (live and exited, not its reaped
	 * children's; procs_acct.h): what it dirtied or wrote direct */
	double write_kbps;
	double cancelled_kbps;		/* cancelled_write_bytes: dirty data truncated before writeback */
	double share_pct;		/* write_kbps / all tasks' write_kbps (the summary's); -1 if that is 0 */
	/* The devices it writes to: the one it was held on while throttled
	 * (the trace), else those of its files open for writing; "" none
	 * known.  Names (dm name where there is one), comma-separated, "+" at
	 * the end when there are more than SNAP_WDEV_MAX. */
	char dev[64];
	uint8_t ndev;			/* how many devices dev names */
	uint64_t devs[SNAP_WDEV_MAX];	/* and which, MAJ << 32 | MIN */
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
	size_t nomitted;		/* rows that did not fit in the caller's array (the other row's) */
	size_t nexited;			/* of ngone: exited in the interval after writing, with rows */
	double write_kbps, cancelled_kbps;	/* sums over readable tasks: every row's, other included */
	double bo_kbps;			/* system block-out, beside the dirtying; -1 unknown */
	double flusher_cpu_pct, kswapd_cpu_pct;
};

/* The one ranking of processes: which of them matter for writeback in the
 * interval prev -> cur, best first.  The process pane, -P and the recorder
 * all keep what it returns.  prev may be NULL (first sample: no rates, so
 * only tasks in D state and the kernel's threads are ranked), dt_s seconds
 * apart; both snapshots' proc arrays sorted by pid.  Writes at most cap
 * rows: first the tasks writing or in D state, by write rate (throttled
 * first among equals), then the flush workers and kswapd by CPU use; when
 * both do not fit, each group keeps at least half of cap.  When some did
 * not fit, the last writer row (cap 2 or more, sum not NULL) is
 * PROCS_KIND_OTHER: all the tasks not shown, so that the rows' write_kbps
 * add up to the summary's; without sum (the recorder) rows are processes
 * only.  A task's share is of that total: never above 100.  Fills
 * *sum (may be NULL).  Returns the number of rows written.  Allocates
 * nothing. */
size_t procs_rank(const struct snapshot *prev, const struct snapshot *cur, double dt_s,
		  struct proc_row *rows, size_t cap, struct procs_summary *sum);

/* How many tasks wrote in the interval prev -> cur to device major:minor
 * (one of their devs, as the rows name them).  0 without processes. */
size_t procs_dev_writers(const struct snapshot *prev, const struct snapshot *cur, double dt_s, uint32_t major,
			 uint32_t minor);

/* Short labels: "dirty-limit", "wbt", ...; "task", "flusher", ... */
const char *procs_wait_name(enum procs_wait w);
const char *procs_kind_name(enum procs_kind k);

/* The command a row shows: its command line, else its name; wbtop's own row says so first
 * ("(this wbtop) ..."): its writes are its recording's, part of what it measures.  buf. */
const char *procs_row_command(const struct proc_row *r, char *buf, size_t len);

#endif
