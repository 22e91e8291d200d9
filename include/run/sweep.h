/*
 * sweep.h - the knob experiment: `wbtop --sweep KNOB=V1,V2 -- COMMAND...`
 * runs COMMAND once per value (per combination of values when several
 * knobs are swept, and --repeat times each), with the knobs set before
 * the run, records every run (its case name says the knobs and values; its
 * meta table holds the command, its exit status and wall time), puts back
 * every knob it touched on every way out, and prints the comparison of the
 * runs (compare.h), and with --plot their picture (plot_svg.h).
 *
 * Every assignment is validated as --set validates it (knob_cli.h), and
 * the recordings' paths checked, before anything runs or is written.  The
 * command runs in its own process group; SIGINT or SIGTERM to wbtop is
 * passed on to it, then the knobs are restored.
 *
 * A view, like knob_cli: it prints (the table to stdout, progress and
 * errors to stderr) and returns the exit status.
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
