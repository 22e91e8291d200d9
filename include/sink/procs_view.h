/*
 * procs_view.h - the -P process tables as batch text, and the -P sink: the
 * rows procs_rank (procs.h) chooses (top writers, tasks in D state and what
 * they wait for, the kernel's writeback threads with their CPU use), and
 * the labels of a row's kind and wait.  It reads no files and no clock,
 * knows nothing of curses and ranks nothing itself.  Throttling comes from
 * the writeback tracepoints when the sample has them, else it is a guess
 * from where a task sleeps, labelled so (doc/processes.md).
 */
#ifndef WBTOP_PROCS_VIEW_H
#define WBTOP_PROCS_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/derive.h"
#include "core/procs.h"
#include "core/snapshot.h"

/* Rows batch mode shows per interval (the screen picks its own). */
#define PROCS_BATCH_ROWS 12

/* The -P text of one interval: a summary line and a table of rows.
 * 0 or -errno of the failed write. */
int procs_view_print_batch(FILE *out, const struct procs_summary *sum, const struct proc_row *rows, size_t n);

/* The -P sink (sink.h): after each interval's device table, its process
 * table, to out (not owned; out_name names it in messages).  NULL when out
 * of memory. */
struct sink;
struct sink *procs_view_sink_new(FILE *out, const char *out_name);

#endif
