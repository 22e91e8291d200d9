/*
 * wbtrace.h - the writeback tracepoints, read live (a source).
 *
 * A tracefs instance of its own ("wbtop-<pid>"), only the events it needs, drained once
 * an interval into a struct wbloop (wbloop.h); events the kernel dropped are counted.
 * The instance goes at wbtrace_close or exit; a killed wbtop's is removed by the next
 * wbtrace_open.  Not a view.  doc/kernel-loop.md, "The trace source".
 */
#ifndef WBTOP_WBTRACE_H
#define WBTOP_WBTRACE_H

#include <stddef.h>

#include "source/wbloop.h"

struct wbtrace;

/* Start tracing.  0 and *out, or a negative errno and one line in why that
 * says what is missing and why (not root, tracefs not mountable, an event or
 * a field this kernel lacks).  Needs the tracefs mounted: libtracefs mounts
 * it at /sys/kernel/tracing when it is not. */
int wbtrace_open(struct wbtrace **out, char *why, size_t whylen);

/* Everything since the last call (or open) into w, which is reset first;
 * task comms filled from /proc (empty for a task gone since).  0 or a
 * negative errno; w->lost_events counts what the ring buffers lost. */
int wbtrace_read(struct wbtrace *wt, struct wbloop *w);

/* What this kernel lacks but tracing goes on without ("" if nothing), e.g.
 * an optional event or field.  Valid while wt lives. */
const char *wbtrace_note(const struct wbtrace *wt);

/* The instance's name, "wbtop-<pid>".  Valid while wt lives. */
const char *wbtrace_instance(const struct wbtrace *wt);

/* Stop tracing and remove the instance; NULL is a no-op. */
void wbtrace_close(struct wbtrace *wt);

/* The events, in the order wbtrace_check_formats takes their formats. */
#define WBTRACE_NEVENTS 5
extern const char *const wbtrace_event_names[WBTRACE_NEVENTS];

/* What wbtrace_open would say of a kernel with these formats (the text of
 * events/header_page and of each event's format file, NULL for an event it
 * lacks), without tracing: 0 with note (what is missing but not needed, ""
 * if nothing), or a negative errno with one line in why. */
int wbtrace_check_formats(const char *header, const char *const fmt[WBTRACE_NEVENTS], char *why,
			  size_t whylen, char *note, size_t notelen);

/* Remove every "wbtop-<pid>" instance whose process is gone.  The number
 * removed, or a negative errno. */
int wbtrace_remove_stale(void);

#endif
