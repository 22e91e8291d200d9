/*
 * compare.h - runs compared: two recordings device by device, or two sets
 * of recordings case by case, as plain text (fit for a mail) or JSON.
 *
 * Two runs: for each device and in total (vmstat bo), each side's
 * duration, intervals, mean, minimum, 5th percentile, coefficient of
 * variation and dips per minute (cmpstat.h), the change in percent, and
 * the knobs in force.  Devices are matched by stable key, then by mount
 * point, then by filesystem label (two runs on freshly made filesystems
 * have new UUIDs), those two only where they name one device left over
 * on each side.  A side may pool several recordings of one case (the
 * repeats of a sweep).
 *
 * Two sets: recordings are matched by case name (meta "case", else the
 * file name), one line per case with the total's mean, minimum and cv on
 * each side and the change of the mean, a TOTAL line (the sum of the
 * means of the cases on both sides) and the cases found on one side only.
 *
 * This module reads recordings (series.h) and writes to the stream it is
 * given; it never exits.  Functions return 0 or -errno with a reason.
 */
#ifndef WBTOP_COMPARE_H
#define WBTOP_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "rec/series.h"

enum compare_format { COMPARE_TEXT, COMPARE_JSON };

struct compare_opts {
	enum compare_format format;
	int width;		/* text lines cut to this many columns; 0: no limit */
	const char *group;	/* keep the cases whose name matches (extended regex); NULL all */
	const char *devices;	/* device table: keep the devices --devices matches; NULL all */
};

/* The width to cut text lines to: given (--width) if not 0, else the
 * terminal's when out is one (at least 60 columns), else 0 (no limit). */
int compare_width(FILE *out, int given);

/* The recordings of a side: each path a recording, or a directory whose
 * *.wbrec and *.db files are (sorted by name).  0 or -errno; the path
 * list grows into *paths (free each and the array). */
int compare_sets_expand(const char *const *args, size_t nargs, char ***paths, size_t *npaths,
			char *err, size_t errlen);

/* Compare side a against side b (paths or directories).  One recording a
 * side: the device table; otherwise case by case. */
int compare_sets_runs(const char *const *a, size_t na, const char *const *b, size_t nb,
		      const struct compare_opts *o, FILE *out, char *err, size_t errlen);

/* The device table of runs already read: a[0..na) pooled against
 * b[0..nb) pooled.  0 or -errno of the write. */
int compare_print_pair(FILE *out, struct series *const *a, size_t na, struct series *const *b,
		       size_t nb, const struct compare_opts *o);

#endif
