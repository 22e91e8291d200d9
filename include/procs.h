/*
 * procs.h - who is writing, and who is being throttled.
 *
 * Sampling (part of the live source): every process's /proc/PID/io write
 * counters, state, wchan and CPU time, through libproc2's pids interface,
 * into snapshot->proc.  Only done while the process pane or -P is on: it
 * costs far more than the rest of a sample.
 *
 * And the parsers of what the kernel says of a task, pure functions the
 * sampler, the process view (procs_view.h) and the recorder share: what a
 * kernel thread's name means (flush worker of which device, kswapd), and
 * what a wchan or a /proc/PID/stack says a task in D state waits for.
 */
#ifndef WBTOP_PROCS_H
#define WBTOP_PROCS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "snapshot.h"

struct procs_reader;

/* NULL on failure (libproc2 could not be set up). */
struct procs_reader *procs_reader_new(void);
void procs_reader_free(struct procs_reader *r);	/* NULL is a no-op */

/* Fill out->proc (sorted by pid) with every process now.  0 or -errno. */
int procs_sample(struct procs_reader *r, struct snapshot *out);

/* ---- Parsing what the kernel says of a task (pure) ---- */

/* What a task is, for the writeback picture. */
enum procs_kind {
	PROCS_KIND_TASK,	/* a user process */
	PROCS_KIND_KTHREAD,	/* another kernel thread (e.g. a loop worker) */
	PROCS_KIND_FLUSHER,	/* writeback worker: kworker ..+flush-MAJ:MIN, flush-MAJ:MIN, pdflush */
	PROCS_KIND_KSWAPD	/* page reclaim, one per NUMA node */
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

#endif
