/*
 * wbcum.h - the writeback loop's interval sums (wbloop.h) as cumulative counters
 * per task and per BDI, so that rates come from any two samples.
 *
 * A task's row goes once it has not been throttled for keep_ms (its total then starts
 * over: a new counter to a reader); BDIs are kept.  Pure: no I/O, the caller gives now_ms.
 */
#ifndef WBTOP_WBCUM_H
#define WBTOP_WBCUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "source/wbloop.h"

struct wbcum_task {
	int32_t pid;
	char comm[16];
	uint64_t paused_ms;		/* sum of pauses since first seen */
	uint64_t pauses;
	uint64_t task_ratelimit_kbps;	/* the last decision's */
	bool bdi_devt;			/* the BDI below is a block device */
	uint32_t bdi_major, bdi_minor;	/* of the last decision */
	uint64_t last_ms;		/* when it was last in an interval */
};

struct wbcum_bdi {
	char bdi[32];
	bool devt;			/* "MAJ:MIN": major and minor are set */
	uint32_t major, minor;
	uint64_t throttled_ms, pauses;	/* over all its tasks */
	uint64_t written_pages;		/* by flusher passes */
};

struct wbcum_cgroup {
	uint64_t ino;			/* the tracepoints' cgroup_ino */
	uint64_t throttled_ms, pauses;
	uint64_t written_pages;
};

struct wbcum {
	size_t ntask, cap_task;
	struct wbcum_task *task;	/* sorted by pid */
	size_t nbdi, cap_bdi;
	struct wbcum_bdi *bdi;		/* in order of first appearance */
	size_t ncg, cap_cg;
	struct wbcum_cgroup *cg;	/* sorted by ino; kept, as BDIs */
	uint64_t written_pages[WBLOOP_NREASON];
	char reason_name[WBLOOP_NREASON][16];
	uint64_t events, lost_events;
	bool has_global;		/* a dirty limit was ever seen */
	uint64_t dirty_limit_pages;	/* the last one */
};

void wbcum_init(struct wbcum *c);
void wbcum_free(struct wbcum *c);	/* c can be reused after wbcum_init */

/* Add interval w, seen at now_ms; drop tasks not seen for more than
 * keep_ms.  0 or -ENOMEM (then c holds what it had before). */
int wbcum_add(struct wbcum *c, const struct wbloop *w, uint64_t now_ms, uint64_t keep_ms);

/* The task pid, or NULL. */
const struct wbcum_task *wbcum_find_task(const struct wbcum *c, int32_t pid);

#endif
