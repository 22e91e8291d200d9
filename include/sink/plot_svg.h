/*
 * plot_svg.h - recordings drawn as one self-contained SVG: a panel per run
 * on shared time and throughput scales, the total (vmstat bo) and each
 * device that wrote, dips as red dots, knob changes as dashed lines
 * (doc/compare.md, "The picture").  No scripts, fonts or links.  Reads
 * nothing but the series it is given (series.h); writes only path
 * (replaced whole, atomic_file.h).  0 or -errno with "PATH: reason".
 */
#ifndef WBTOP_PLOT_SVG_H
#define WBTOP_PLOT_SVG_H

#include <stddef.h>
#include <stdio.h>

#include "rec/series.h"

/* The colours the picture uses, for the tests that look at it. */
#define PLOT_SVG_TOTAL	"#000000"
#define PLOT_SVG_DIP	"#d62728"
#define PLOT_SVG_KNOB	"#ff7f0e"

/* Write the picture of runs[0..n) to out: of the devices that devices (an
 * extended regex as --devices takes; NULL: all) selects. */
int plot_svg_print(FILE *out, struct series *const *runs, size_t n, const char *devices);

/* Write it to path. */
int plot_svg_write(const char *path, struct series *const *runs, size_t n, const char *devices,
		   char *err, size_t errlen);

/* Read the recordings paths[0..n) and write their picture to out_path. */
int plot_svg_files(const char *out_path, char *const *paths, size_t n, const char *devices,
		   char *err, size_t errlen);

#endif
