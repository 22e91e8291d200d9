/*
 * annotate.h - `wbtop --annotate FILE`: mark the dips in a vmstat or iostat text log.
 *
 * What it is: a reader for the text that `vmstat N` and `iostat N` print (with or without
 * headers, repeated headers, avg-cpu blocks, lines grepped for some devices; old Blk_wrtn/s,
 * new kB_wrtn/s and -x wkB/s layouts). It feeds system-wide `bo` (vmstat) or every device's
 * write throughput (iostat, one group per report) to the detector and prints the log back byte
 * for byte, except that lines judged to be dips end in " <<<<<" and marks already present are
 * stripped first. In iostat logs a dip marks all device lines of its report. The first report of
 * each run (after the start, a "Linux ..." banner or a "$ vmstat/iostat" command line) is the
 * since-boot average and is never judged.
 * What it is not: no guessing. A line it cannot place stops it with one error naming the file
 * and line; what was printed before stays printed (output streams, one report behind at most).
 * Rates are fed to the detector in KiB/s, so p->idle_floor is taken to be in KiB/s.
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
