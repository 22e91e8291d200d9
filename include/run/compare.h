/*
 * compare.h - runs compared: two recordings device by device (compare.c),
 * or two sets of recordings case by case (compare_sets.c), as plain text
 * (fit for a mail) or JSON.  Figures: cmpstat.h; devices matched by stable
 * key, then mount point, then filesystem label; cases by case name
 * (doc/compare.md).  It reads recordings (series.h), writes to the stream
 * it is given and never exits: 0 or -errno with a reason.
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
