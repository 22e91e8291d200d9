/*
 * procs_reader.h - every process's write counters, state and CPU time, read
 * through libproc2 into snapshot->proc (part of the live source).
 *
 * Only done while the process pane or -P is on: it costs far more than the
 * rest of a sample.
 */
#ifndef WBTOP_PROCS_READER_H
#define WBTOP_PROCS_READER_H

#include "core/snapshot.h"

struct procs_reader;

/* NULL on failure (libproc2 could not be set up). */
struct procs_reader *procs_reader_new(void);
void procs_reader_free(struct procs_reader *r);	/* NULL is a no-op */

/* Fill out->proc (sorted by pid) with every process now.  0 or -errno. */
int procs_reader_sample(struct procs_reader *r, struct snapshot *out);

#endif
