/*
 * procs_acct.h - a process's own write counters: what its threads wrote, live or
 * exited, never what the children it reaped wrote (doc/processes.md, "Own writes").
 *
 * The sum over its threads: live ones from /proc/PID/task/TID/io, exited ones at their
 * taskstats final value; a process's threads are read only when its total moved.
 * Not: ranking or rates (procs.h); thread reads come through a callback, for the tests.
 */
#ifndef WBTOP_PROCS_ACCT_H
#define WBTOP_PROCS_ACCT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/procs.h"
#include "core/snapshot.h"


/* One thread's own counters. */
struct procs_thread {
	int32_t tid;
	bool exited;		/* its final figures came from taskstats */
	uint8_t missed;		/* thread reads in a row that did not list it */
	uint64_t write_bytes, cancelled_bytes;
};

/* A thread's exit record (taskstats). */
struct procs_exit {
	int32_t tid, tgid;	/* tgid 0: unknown (taskstats before version 12) */
	uint64_t write_bytes, cancelled_bytes;
	char comm[32];
};

/* Reads the threads of process pid into *thr (grown with realloc, *cap
 * entries), sorted by tid; sets *n.  0, or -errno (the process is gone). */
typedef int (*procs_threads_fn)(void *ctx, int32_t pid, struct procs_thread **thr, size_t *n, size_t *cap);

/* What is kept of a process between samples. */
struct procs_acct_task {
	int32_t pid;
	bool skip;			/* kernel thread or counters unreadable: own = total */
	bool seen;			/* listed in a sample (else only known from exit records) */
	bool scanned;			/* its threads were read at least once */
	uint64_t start_tics;		/* start time (stat field 22): a reused pid differs */
	uint64_t tot_write, tot_cancel;	/* /proc/PID/io as last read */
	uint64_t base_write, base_cancel;	/* threads gone from the list, folded in */
	uint64_t own_write, own_cancel;	/* the own totals, never decreasing */
	uint64_t rep_write, rep_cancel;	/* own totals as of the previous sample */
	uint64_t read_bytes, utime_jif, stime_jif;	/* as last read: an exited entry keeps them */
	char comm[32];
	size_t nthr, cap_thr;
	struct procs_thread *thr;	/* sorted by tid */
	/* the devices it has files open for writing on (procs_wdev.h), cached */
	uint64_t wdev_ns;		/* CLOCK_MONOTONIC of the last look; 0 never */
	uint8_t nwdev;
	bool wdev_more;
	uint64_t wdev[SNAP_WDEV_MAX];
};

struct procs_acct;

/* NULL when out of memory.  taskstats is not opened yet. */
struct procs_acct *procs_acct_new(void);
void procs_acct_free(struct procs_acct *a);	/* NULL is a no-op */

/* Listen to taskstats exit records on every CPU.  0, or -errno (not root:
 * -EPERM; a kernel without taskstats: -ENOENT); without them an exited
 * thread counts with its last value read. */
int procs_acct_listen(struct procs_acct *a);
/* Whether exit records come in, and how many were lost (receive buffer
 * full) since the start. */
bool procs_acct_listening(const struct procs_acct *a);
uint64_t procs_acct_lost(const struct procs_acct *a);

/* Read the exit records that came in (non-blocking): after listing the
 * processes of a sample, before procs_acct_begin. */
void procs_acct_drain(struct procs_acct *a);
/* Take one exit record into account (what drain does with each). */
void procs_acct_exit(struct procs_acct *a, const struct procs_exit *e);

/* A sample, in three steps: begin; update for every listed process in
 * increasing pid order; end. */
void procs_acct_begin(struct procs_acct *a);
/* c holds what the sampler read (write_bytes and cancelled_write_bytes are
 * /proc/PID/io's totals; start_tics tells a reused pid); they become the
 * process's own totals.  read is
 * called when the threads must be read.  Returns the process's kept state
 * (valid until the next update or end), NULL when out of memory (c is then
 * left with the totals). */
struct procs_acct_task *procs_acct_update(struct procs_acct *a, struct proc_counters *c, procs_threads_fn read,
					  void *ctx);
/* Adds to out->proc (keeping it sorted by pid) the processes that exited
 * since the last sample and wrote since then, state PROCS_STATE_EXITED.
 * 0 or -ENOMEM. */
int procs_acct_end(struct procs_acct *a, struct snapshot *out);

/* ---- pure parsers (exposed for the unit tests) ---- */

/* The write_bytes and cancelled_write_bytes lines of a /proc/.../io text.
 * false when either is missing. */
bool procs_acct_parse_io(const char *text, uint64_t *write_bytes, uint64_t *cancelled_bytes);
/* The thread exit records in one buffer of generic netlink messages of
 * family (the kernel's id of "TASKSTATS"): at most cap into out; returns
 * how many. */
size_t procs_acct_parse_exits(const void *buf, size_t len, uint16_t family, struct procs_exit *out, size_t cap);

#endif
