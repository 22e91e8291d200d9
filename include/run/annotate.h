/*
 * annotate.h - `wbtop --annotate FILE`: mark the dips in a vmstat or iostat text log.
 *
 * Reads what `vmstat N` and `iostat N` print (with or without headers, avg-cpu blocks, grepped
 * lines, old and new iostat layouts), feeds vmstat's `bo` or each device's write rate (KiB/s,
 * so p->idle_floor is in KiB/s) to the detector, and prints the log back byte for byte with dip
 * lines ending in " <<<<<".  The first report of each run is never judged.  A line it cannot
 * place comes back unmarked; a vmstat header without bo or binary data stops it with one error
 * naming the file and line (doc/annotate.md).
 */
#ifndef WBTOP_ANNOTATE_H
#define WBTOP_ANNOTATE_H

#include <stdio.h>

#include "core/detect.h"

/* Read a vmstat or iostat text log from path ("-" = stdin), write it to out byte for byte except
 * that lines judged to be dips end in " <<<<<" (marks already present are stripped first).
 * Returns 0, or 1 after printing ONE clear error line to stderr naming the file and line number
 * ("wbtop: FILE:LINE: ...") when the input can't be read/understood. Never crashes on garbage. */
int annotate_file(const char *path, FILE *out, const struct dip_params *p);

/* The same for an open stream: name is used in the error line, which goes to err. in is not
 * closed. Returns 0 or 1 like annotate_file. */
int annotate_stream(FILE *in, const char *name, FILE *out, FILE *err,
		    const struct dip_params *p);

/* An iostat write rate (KiB/s) at the resolution the detector judges every
 * iostat log at: 0.01 MiB/s, that of iostat -m, whatever unit the log is in. */
double annotate_iostat_resolution(double kibps);

#endif
