/*
 * series.h - a recording read into what a comparison and a plot need: the
 * write rate of each interval, per device (one series per stable key) and
 * in total (vmstat bo), the recorded dips, the knobs in force and when
 * they changed.  Rates come through pipeline.h, as the screen showed them.
 * Reads files, never prints; the statistics are cmpstat.h, the tables
 * compare.h, the picture plot_svg.h.
 */
#ifndef WBTOP_SERIES_H
#define WBTOP_SERIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/snapshot.h"

struct series_dev {
	char *key;		/* stable key ("fs:<uuid>", "name:loop0") */
	char *label;		/* what a table shows ("loop0", "vg-data") */
	char *kname;		/* kernel name ("dm-3") */
	char *mounts;		/* space separated; NULL if none */
	char *fs_label;		/* NULL if none */
	char *fstype;		/* NULL if unknown */
	size_t n, cap;
	double *t_s;		/* end of each interval, s after the first sample */
	double *kbps;		/* write KiB/s over it */
	double *dt_s;		/* its length */
	bool *dip;		/* the live run marked it */
	bool *end;		/* ... as the end of a workload (series_load): not counted in ndips */
	size_t ndips;		/* the marks that are not the end of a workload */
};

/* A knob that changed value, at t_s seconds after the first sample. */
struct series_change {
	double t_s;
	int knob;		/* enum knob_vm */
	int64_t old_value, new_value;
};

struct series {
	char *path;
	char *case_name;	/* meta "case", else the file name without .wbrec/.db */
	char *command;		/* meta "command" (a sweep's run); NULL if none */
	char *sweep;		/* meta "sweep": the knobs it set ("vm.dirty_ratio=10"); NULL */
	int64_t start_wall_ns;	/* the first sample */
	struct series_dev total;	/* vmstat bo; key "total" */
	struct series_dev *dev;	/* by first appearance */
	size_t ndev;
	int64_t knob_first[SNAP_NKNOBS], knob_last[SNAP_NKNOBS];	/* -1 unknown */
	struct series_change *changes;
	size_t nchanges;
};

/* Read the recording at path.  0 with *out set (free with series_free), or
 * -errno with "PATH: reason" in err. */
int series_load(const char *path, struct series **out, char *err, size_t errlen);
void series_free(struct series *s);	/* NULL is a no-op */

/* The device of s with key, or NULL. */
const struct series_dev *series_find(const struct series *s, const char *key);

/* Whether re (compiled with REG_EXTENDED | REG_NOSUB; NULL keeps every
 * device) matches d's kernel name, label, a mount point or key, as
 * --devices does for the live views. */
struct re_pattern_buffer;
bool series_dev_selected(const struct series_dev *d, const struct re_pattern_buffer *re);

/* The total of the devices re selects, interval by interval (the intervals
 * of s->total; a dip where one of them dipped), into *out (zeroed first;
 * free with series_dev_clear).  0 or -ENOMEM. */
int series_total_of(const struct series *s, const struct re_pattern_buffer *re, struct series_dev *out);
void series_dev_clear(struct series_dev *d);

#endif
