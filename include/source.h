/*
 * source.h - where snapshots come from: one seam for live and recorded data.
 *
 * A source produces snapshots one at a time.  The live source reads /proc and
 * /sys now; a replay source reads them back from a recording; both look the
 * same to the loop and to every view (ncdu's dir.h is the model).  The loop
 * owns the clock: a source never sleeps.
 */
#ifndef WBTOP_SOURCE_H
#define WBTOP_SOURCE_H

#include "snapshot.h"

struct source;

struct source_ops {
	const char *kind;	/* "live", "replay" */
	/* Fill out with the next sample.  0, 1 at the end of the data, or a
	 * negative errno.  out's device array is reused (grown as needed). */
	int (*next)(struct source *src, struct snapshot *out);
	void (*close)(struct source *src);
};

struct source {
	const struct source_ops *ops;
	void *impl;
	char errmsg[256];	/* why the last call failed, for the loop to show */
};

/* Open the live source on this machine's /proc and /sys.  NULL on failure,
 * with a reason in errbuf. */
struct source *source_live_open(char *errbuf, size_t errlen);

/* Next snapshot; see source_ops.next. */
int source_next(struct source *src, struct snapshot *out);
/* Close and free; NULL is a no-op. */
void source_close(struct source *src);

/* Bits of the live source other modules use without a full sample. */
struct ident_table;
/* The identity table of a live source (NULL for other kinds). */
struct ident_table *source_live_idents(struct source *src);
/* Sample processes too (snapshot->proc) from the next sample on, or stop.
 * 0, -ENOTSUP for a source that is not live, or -ENOMEM. */
int source_live_sample_procs(struct source *src, bool on);
/* Read the kernel's writeback loop too (wbsample.h: tracefs, debugfs) from
 * the next sample on, or stop (and remove the tracefs instance).  0, with
 * what is missing and why in why ("" when nothing is); -ENOTSUP for a source
 * that is not live; another negative errno, with why, when none of it can
 * be read (not root, ...). */
int source_live_kernel_loop(struct source *src, bool on, char *why, size_t whylen);

#endif
