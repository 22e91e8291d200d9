/*
 * history.h - the recent past, kept in memory for the screen's sparklines,
 * throughput graph and device pages: the last `cap` frames' system figures
 * (struct hist_sys) and a few figures per device (struct hist_dev) by
 * stable key.  A device that misses frames has holes there, never made-up
 * values.  Pure: no file, no clock, no curses; it allocates only when the
 * device set grows.  Not a recording (raw counters on disk: rec.h).
 */
#ifndef WBTOP_HISTORY_H
#define WBTOP_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/derive.h"
#include "core/figure.h"

/* The system figures of one frame. */
struct hist_sys {
	int64_t wall_ns;		/* when the frame was sampled (CLOCK_REALTIME) */
	bool valid;			/* rates are real (not a first sample, reset, dt = 0) */
	bool dip;			/* the system write rate dipped */
	bool dev_dip;			/* some device dipped */
	bool event;			/* a knob changed during this frame */
	double bo_kbps, bi_kbps;	/* vmstat bo/bi, KiB/s */
	double dirtied_kbps, written_kbps;
	uint64_t dirty_kb, writeback_kb;
	uint64_t dirty_thresh_kb, bg_thresh_kb;
};

/* The figures of one device in one frame (float: the ring is per device):
 * the registry's rows kept in history, v[row->hist] (figure.h). */
struct hist_dev {
	float v[FIG_NHIST];
	bool valid;			/* the device had rates in this frame */
	bool dip;
};

/* Which figure a series extraction takes. */
enum hist_field {
	HIST_SYS_BO_KBPS,		/* system fields: index struct hist_sys */
	HIST_SYS_BI_KBPS,
	HIST_SYS_DIRTY_KB,
	HIST_SYS_WRITEBACK_KB,
	HIST_DEV_BASE			/* device fields: HIST_DEV_BASE + a slot of hist_dev.v (history_dev_field) */
};

/* The series of device figure f, a row the history keeps (f->hist >= 0). */
static inline enum hist_field history_dev_field(const struct fig_dev *f)
{
	return (enum hist_field)(HIST_DEV_BASE + f->hist);
}

struct history;
struct hist_series;	/* one device's ring, owned by the history */

/* A history of the last cap frames (cap >= 2).  NULL on allocation failure. */
struct history *history_new(size_t cap);
/* Free everything; NULL is a no-op. */
void history_free(struct history *h);
/* Forget every frame and device (after a jump in a replay). */
void history_clear(struct history *h);

/* Start a new frame with the system figures s; the oldest frame falls out
 * of the ring when it is full.  Devices are then added with history_add_dev. */
void history_push(struct history *h, const struct hist_sys *s);
/* The system figures of a frame built from derived rates. */
void history_sys_from_rates(struct hist_sys *out, int64_t wall_ns, const struct sys_rates *r,
			    bool sys_dip, bool dev_dip);
/* Record device key's figures in the newest frame.  0, -EINVAL if no frame
 * was pushed yet, or -ENOMEM.  key is copied. */
int history_add_dev(struct history *h, const char *key, const struct hist_dev *d);
/* Record n devices in the newest frame at once: device i under keys[i], whose serial is
 * ids[i] (unique in the process; 0 for none), with the figures of rates[i] (derive_dev or
 * derive_dev_brief: the rows kept read only what both give) and the dip mark dips[i] (dips
 * may be NULL).  A device with the same serial at the same place as in the last call is found
 * without a search: in steady state the cost is a store per device.  0, -EINVAL if no frame
 * was pushed yet, or -ENOMEM (the devices from the one that failed on have no figures). */
int history_add_devs(struct history *h, size_t n, const char *const *keys, const uint64_t *ids,
		     const struct dev_rates *rates, const bool *dips);
/* The figures of a device built from its derived rates. */
void history_dev_from_rates(struct hist_dev *out, const struct dev_rates *r, bool dip);
/* Mark the newest frame as one in which a knob changed (no-op if empty). */
void history_mark_event(struct history *h);

/* The history as a sink (sink.h) of the frames a screen shows: each frame
 * pushed with its devices, a mark where knobs changed; a BDI knob write
 * (event) marked at once.  h is not owned: closing the sink leaves it.
 * NULL when out of memory. */
struct sink;
struct sink *history_sink_new(struct history *h);

/* Frames held: min(frames pushed, cap). */
size_t history_len(const struct history *h);
/* The ring size given to history_new. */
size_t history_cap(const struct history *h);
/* Frames pushed since the start or the last clear. */
uint64_t history_frames(const struct history *h);
/* Frame age (0 = newest) of the system ring; NULL if age >= history_len(). */
const struct hist_sys *history_sys(const struct history *h, size_t age);

/* Devices held (including ones gone for less than a ring's length). */
size_t history_ndevs(const struct history *h);
/* The series of device key; NULL if unknown.  Valid until the next push
 * (which may forget a long-gone device) or clear. */
const struct hist_series *history_find(const struct history *h, const char *key);
/* history_find for device i of the newest frame's history_add_devs, under key and its
 * key serial id (0: none): where that call put it, without a search, while the device there
 * is the same; else by key. */
const struct hist_series *history_find_at(const struct history *h, size_t i, const char *key,
					  uint64_t id);
/* When series s last dipped: that frame's wall_ns in *wall_ns and true, as long as the frame
 * is still in the ring; false if it has not dipped since. */
bool history_last_dip(const struct history *h, const struct hist_series *s, int64_t *wall_ns);
/* The key a series was added under. */
const char *history_series_key(const struct hist_series *s);
/* The figures of series s at frame age (0 = newest); false (and *out
 * zeroed, valid false) where the device had no figures. */
bool history_dev(const struct history *h, const struct hist_series *s, size_t age,
		 struct hist_dev *out);

/* The last n frames of one figure into out[0..n), oldest first, newest at
 * out[n-1].  Frames not held, or without a valid figure, give NAN.  s is
 * the device for HIST_DEV_* fields and ignored for HIST_SYS_*.  Returns how
 * many entries are real numbers. */
size_t history_series(const struct history *h, const struct hist_series *s,
		      enum hist_field field, double *out, size_t n);
/* The same frames' marks: dip (device dip for a device field, system dip
 * for a system one) and knob events, oldest first; NULL arrays are skipped. */
void history_marks(const struct history *h, const struct hist_series *s, bool device,
		   bool *dip, bool *event, size_t n);

#endif
