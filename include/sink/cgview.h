/*
 * cgview.h - the memory cgroups of one interval as rows: each cgroup the
 * sample has values of (snapshot.h, SNAP_XCG), its fig_cg figures over the
 * interval, busiest first (most paused, then its writeback domain's, then
 * the most dirty and writeback page cache, then the most dirtied), for the
 * batch cgroup table, the screen's cgroup page and OpenMetrics.  Idle: no
 * figure but its limit and bandwidth above 0.  Pure: no files, no output.
 */
#ifndef WBTOP_CGVIEW_H
#define WBTOP_CGVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/figure.h"
#include "core/snapshot.h"

struct cgview_row {
	uint64_t ino;
	const struct snap_cgroup *name;	/* in cur; NULL when the sample has no name for it */
	uint32_t have;			/* bit i: fig_cg_table[i]'s value is in v[i] */
	double v[FIG_CG_MAX];
	bool idle;
};

struct cgview {
	struct cgview_row *row;
	size_t n, cap;
};

void cgview_init(struct cgview *v);
void cgview_free(struct cgview *v);	/* v can be reused after cgview_init */

/* The rows of the interval prev -> cur (prev may be NULL: gauges only).
 * 0 or -ENOMEM.  The rows point into cur: valid while it is. */
int cgview_build(struct cgview *v, const struct snapshot *prev, const struct snapshot *cur,
		 double dt_s);

/* Whether some row is not idle. */
bool cgview_any_busy(const struct cgview *v);

/* How a row's cgroup is named to a reader: its path, "PATH (gone)" when
 * it was removed, "ino N" when the sample has no path for it. */
void cgview_label(const struct cgview_row *r, char *buf, size_t len);

#endif
