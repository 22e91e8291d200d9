/*
 * sweep.h - the knob experiment: `wbtop --sweep KNOB=V1,V2 -- COMMAND...`
 * runs COMMAND once per value (or combination, --repeat times each) with
 * the knobs set, records every run, puts back every knob it touched on
 * every way out, and prints the comparison (compare.h), and with --plot
 * the picture (plot_svg.h).  Steps and signals: doc/compare.md.  A view,
 * like knob_cli: it prints (the table to stdout, progress and errors to
 * stderr) and returns the exit status.
 */
#ifndef WBTOP_SWEEP_H
#define WBTOP_SWEEP_H

#include "run/opts.h"

/* Run the sweep o asks for.  Exit status: 0 all runs done and compared;
 * 2 invalid input (nothing run); 1 a run failed (its command exited
 * non-zero, a knob or recording could not be written); 128 + the signal
 * when interrupted.  Knobs are back as found in every case. */
int sweep_run(const struct opts *o);

#endif
