/*
 * run.h - the modes wbtop runs in, each a loop over a pipeline.
 */
#ifndef WBTOP_RUN_H
#define WBTOP_RUN_H

#include "run/opts.h"

/* -b: batch text (or another --format) until -n or a signal.  Exit status. */
int run_batch(const struct opts *o);

/* The interactive monitor (default mode), live or on a recording (-r). */
int run_screen(const struct opts *o);
/* --listen: the exporter, serving the newest sample over HTTP until a signal (or -n). */
int run_listen(const struct opts *o);


#endif
