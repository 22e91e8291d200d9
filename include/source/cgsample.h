/*
 * cgsample.h - the memory cgroups' writeback state as values of a live snapshot
 * (part of the live source, not a view).
 *
 * Per cgroup inode: dirty and writeback bytes (memory.stat), its writeback domains
 * (wb_stats), its tasks' pauses (the trace), under SNAP_XCG, with its path (cgpath.h).
 * What it reads and keeps, and what that costs: doc/kernel-loop.md, "Per cgroup".
 */
#ifndef WBTOP_CGSAMPLE_H
#define WBTOP_CGSAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "source/bdistat.h"
#include "core/snapshot.h"
#include "source/wbcum.h"
#include "source/wbloop.h"

#define CGSAMPLE_KEEP_MS 60000	/* an idle cgroup stays in the snapshot this long */
#define CGSAMPLE_WALK_MS 10000	/* the hierarchy is walked again at least this often */

struct cgsample;

/* Open the memory cgroup hierarchy under cgroup_dir (cgpath_open), tasks'
 * cgroups from proc_dir.  0, or a negative errno and one line in why. */
int cgsample_open(struct cgsample **out, const char *cgroup_dir, const char *proc_dir, char *why,
		  size_t whylen);

/* Add this sample's cgroup values and names to out (its devices and
 * mono_ns set).  interval: the trace's tasks of this interval, or NULL;
 * total: the trace's totals (its cgroups get names too), or NULL; stats:
 * what bdistat read this sample (wb_stats of the devices in stats->dev;
 * the others' last blocks are kept), or NULL.  0 or a negative errno. */
int cgsample_read(struct cgsample *cs, struct snapshot *out, const struct wbloop *interval,
		  const struct wbcum *total, const struct bdistat_sample *stats);

/* Whether the hierarchy is cgroup v2's: only there has a cgroup a writeback
 * domain of its own. */
bool cgsample_v2(const struct cgsample *cs);

void cgsample_close(struct cgsample *cs);	/* NULL is a no-op */

#endif
