/*
 * source.h - where snapshots come from: one seam for live and recorded data.
 *
 * A source produces snapshots one at a time.  The live source reads /proc and
 * /sys now; a replay source reads them back from a recording; both look the
 * same to the loop and to every view.  The loop
 * owns the clock: a source never sleeps.
 */
#ifndef WBTOP_SOURCE_H
#define WBTOP_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/snapshot.h"

struct source;
struct ident_table;
struct wb_event;

/* Marks of one sample as a source holds them: what was detected or done in
 * its interval when it was recorded. */
struct source_marks {
	bool sys_dip;
	const bool *dev_dips;			/* per snapshot device, or NULL */
	const struct wb_event *events;		/* knob-change events before it */
	size_t nevents;
	/* Each mark's cause (enum dip_cause, cause.h), where dev_dips is set; NULL when the
	 * source holds none (a recording made before causes were recorded). */
	const uint8_t *dev_causes;
	uint8_t sys_cause;
};

/* What a source does.  next and close are required; the rest are the
 * capabilities a source may have (NULL: it has not), asked for through
 * source_idents(), source_sample_procs(), source_marks() and
 * source_kernel_loop() below, never by
 * looking at which source it is. */
struct source_ops {
	const char *kind;	/* "live", "replay" */
	/* Fill out with the next sample.  0, 1 at the end of the data, or a
	 * negative errno.  out's device array is reused (grown as needed). */
	int (*next)(struct source *src, struct snapshot *out);
	void (*close)(struct source *src);
	/* The identity table its devices' identities live in (to refresh a
	 * device's BDI limits after a knob write). */
	struct ident_table *(*idents)(struct source *src);
	/* Sample processes too from the next sample on, or stop: 0 or -errno. */
	int (*sample_procs)(struct source *src, bool on);
	/* The recorded marks of the sample next() delivered last: 0, or -errno. */
	int (*marks)(struct source *src, struct source_marks *out);
	/* Read the kernel's writeback loop too from the next sample on, or
	 * stop: 0 (why: what is missing, or ""), or -errno with why. */
	int (*kernel_loop)(struct source *src, bool on, char *why, size_t whylen);
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

/* The capabilities.  The identity table of src's devices, or NULL when it
 * has none to refresh. */
struct ident_table *source_idents(struct source *src);
/* Sample processes too (snapshot->proc) from the next sample on, or stop.
 * 0, -ENOTSUP for a source that cannot (a replay delivers the processes it
 * recorded), or -ENOMEM. */
int source_sample_procs(struct source *src, bool on);
/* The marks src recorded for the sample it delivered last: 0 with *out set,
 * -ENOTSUP for a source without recorded marks (the live one), or -errno. */
int source_marks(struct source *src, struct source_marks *out);
/* Read the kernel's writeback loop too (wbsample.h: tracefs, debugfs) from
 * the next sample on, or stop (and remove the tracefs instance).  0, with
 * what is missing and why in why ("" when nothing is); -ENOTSUP for a source
 * that cannot (a replay delivers what it recorded); another negative errno,
 * with why, when none of it can be read (not root, ...). */
int source_kernel_loop(struct source *src, bool on, char *why, size_t whylen);

#endif
