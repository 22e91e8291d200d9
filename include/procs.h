/*
 * procs.h - who is writing, and who is being throttled.
 *
 * Sampling (part of the live source): every process's /proc/PID/io write
 * counters, state, wchan and CPU time, through libproc2's pids interface,
 * into snapshot->proc.  Only done while the process pane or -P is on: it
 * costs far more than the rest of a sample.
 */
#ifndef WBTOP_PROCS_H
#define WBTOP_PROCS_H

#include "snapshot.h"

struct procs_reader;

/* NULL on failure (libproc2 could not be set up). */
struct procs_reader *procs_reader_new(void);
void procs_reader_free(struct procs_reader *r);	/* NULL is a no-op */

/* Fill out->proc (sorted by pid) with every process now.  0 or -errno. */
int procs_sample(struct procs_reader *r, struct snapshot *out);

#endif
