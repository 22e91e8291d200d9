/*
 * wbloop.h - one interval of the kernel's writeback loop, aggregated per task, per BDI
 * and per cgroup from the writeback tracepoints' events (doc/kernel-loop.md).
 *
 * Pure: events come in as plain structs (wbtrace.c decodes them); no file, no clock.
 * The tables grow to one interval's distinct keys and are reused by the next.
 * Units: _pages (the kernel's page size), _kbps (KiB/s, as the tracepoints print), _ms.
 */
#ifndef WBTOP_WBLOOP_H
#define WBTOP_WBLOOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Flusher reasons kept apart; the kernel has 8 today, a larger value is
 * counted in the last slot. */
#define WBLOOP_NREASON 16

/* One balance_dirty_pages decision (kernel names in comments). */
struct wbloop_bdp {
	int32_t pid;			/* common_pid: the task dirtying pages */
	const char *bdi;		/* bdi: "MAJ:MIN" of the device throttled on */
	uint64_t limit_pages;		/* limit: the global dirty_limit */
	uint64_t setpoint_pages;	/* setpoint */
	uint64_t dirty_pages;		/* dirty: global dirty + writeback */
	uint64_t wb_setpoint_pages;	/* wb_setpoint (bdi_setpoint before 4.3) */
	uint64_t wb_dirty_pages;	/* wb_dirty (bdi_dirty before 4.3) */
	uint64_t dirty_ratelimit_kbps;	/* the BDI's base rate */
	uint64_t task_ratelimit_kbps;	/* the rate this task is held to */
	int64_t pause_ms;		/* pause: the sleep now; <= 0 means none */
	uint64_t cgroup_ino;		/* 0 when the kernel does not give it */
};

/* One bdi_dirty_ratelimit update: the bandwidth estimates. */
struct wbloop_bw {
	const char *bdi;
	uint64_t write_bw_kbps;		/* write_bw: the kernel's estimate */
	uint64_t avg_write_bw_kbps;	/* avg_write_bw */
	uint64_t dirty_rate_kbps;	/* dirty_rate: how fast pages are dirtied */
	uint64_t dirty_ratelimit_kbps;
	uint64_t balanced_ratelimit_kbps;	/* balanced_dirty_ratelimit */
	uint64_t cgroup_ino;		/* the writeback domain's cgroup; 0 or 1: the root */
};

struct wbloop_task {
	int32_t pid;
	char comm[16];			/* filled by the source, "" until then */
	uint64_t paused_ms;		/* sum of positive pauses */
	uint32_t pauses;		/* decisions that slept */
	uint32_t decisions;		/* every balance_dirty_pages event */
	uint64_t task_ratelimit_kbps;	/* the last one */
	char bdi[32];			/* the BDI of the last decision */
	uint64_t cgroup_ino;
};

struct wbloop_bdi {
	char bdi[32];			/* the kernel's BDI name, "MAJ:MIN" for a block device */
	uint64_t throttled_ms;		/* pauses summed over its tasks */
	uint32_t pauses;
	bool has_bdp;			/* the figures below come from a decision */
	uint64_t limit_pages, setpoint_pages, dirty_pages;
	uint64_t wb_setpoint_pages, wb_dirty_pages;
	uint64_t dirty_ratelimit_kbps;	/* from the last decision or update */
	bool has_bw;			/* a bdi_dirty_ratelimit update came */
	bool bw_root;			/* ... for the root domain: the device's own figures */
	uint64_t write_bw_kbps, avg_write_bw_kbps, dirty_rate_kbps, balanced_ratelimit_kbps;
	uint64_t written_pages;		/* writeback_written on this BDI */
};

struct wbloop_cgroup {
	uint64_t ino;			/* the cgroup's inode number */
	uint64_t throttled_ms;
	uint32_t pauses;
	uint64_t written_pages;
};

/* One writeback domain's (device, cgroup) last bandwidth estimate in the
 * interval, from bdi_dirty_ratelimit (sent while its tasks are throttled). */
struct wbloop_dom {
	uint32_t bdi_row;		/* index into bdi[] */
	uint64_t cgroup_ino;		/* 0 or 1: the root domain */
	uint64_t write_bw_kbps;
};

struct wbloop_index {			/* open addressing, key -> slot + 1 */
	size_t cap;			/* a power of two, or 0 */
	uint64_t *key;
	uint32_t *slot;
};

struct wbloop {
	size_t ntask, cap_task;
	struct wbloop_task *task;	/* in order of first event */
	size_t nbdi, cap_bdi;
	struct wbloop_bdi *bdi;
	size_t ncg, cap_cg;
	struct wbloop_cgroup *cg;
	size_t ndom, cap_dom;
	struct wbloop_dom *dom;		/* domains with a bandwidth update, in order of the first */
	bool has_global;		/* a global_dirty_state event came */
	uint64_t dirty_limit_pages;	/* the smoothed limit writers are held to */
	uint64_t dirty_thresh_pages, bg_thresh_pages;
	uint64_t written_pages[WBLOOP_NREASON];	/* by writeback reason */
	char reason_name[WBLOOP_NREASON][16];	/* the kernel's names; set by the source, kept by reset */
	uint64_t events;		/* decoded this interval */
	uint64_t lost_events;		/* overwritten or dropped before we read them */
	uint64_t bad_events;		/* too short for their format: skipped */
	struct wbloop_index task_ix, bdi_ix, cg_ix;
};

/* Empty; no allocation until events come. */
void wbloop_init(struct wbloop *w);
/* Free the tables; w can be reused after wbloop_init. */
void wbloop_free(struct wbloop *w);
/* Start a new interval: every sum to zero, capacity kept. */
void wbloop_reset(struct wbloop *w);

/* Add one event.  0 or -ENOMEM (then the event is not counted). */
int wbloop_add_bdp(struct wbloop *w, const struct wbloop_bdp *ev);
/* A cgroup domain's update counts for its BDI only until the root
 * domain's comes: each domain has its own estimate. */
int wbloop_add_bw(struct wbloop *w, const struct wbloop_bw *ev);
/* A flusher pass (writeback_start to writeback_written) wrote nr_pages for
 * reason (the kernel's enum). */
int wbloop_add_written(struct wbloop *w, const char *bdi, int64_t nr_pages, int reason,
		       uint64_t cgroup_ino);
/* global_dirty_state: the last one of an interval wins. */
void wbloop_add_global(struct wbloop *w, uint64_t dirty_limit_pages, uint64_t dirty_thresh_pages,
		       uint64_t bg_thresh_pages);

/* The BDI named bdi, or NULL.  Valid until the next add or reset. */
const struct wbloop_bdi *wbloop_find_bdi(const struct wbloop *w, const char *bdi);
/* The task pid, or NULL.  Valid until the next add or reset. */
const struct wbloop_task *wbloop_find_task(const struct wbloop *w, int32_t pid);

/* "MAJ:MIN" into its numbers; false for another kind of BDI name. */
bool wbloop_bdi_devt(const char *bdi, uint32_t *major, uint32_t *minor);

/* A device's write bandwidth as the kernel estimated it in the interval:
 * the last write_bw of each of its domains that sent one, summed (KiB/s).
 * false when none did (no domain of it was throttled). */
bool wbloop_bdi_bw_kbps(const struct wbloop *w, size_t bdi_row, uint64_t *out);
/* The same for a cgroup, over the devices its domains wrote to. */
bool wbloop_cg_bw_kbps(const struct wbloop *w, uint64_t cgroup_ino, uint64_t *out);

#endif
