/*
 * procs_view.h - the -P process tables: who is writing and who is being
 * throttled, as batch text, and the labels of a row's kind and wait.
 *
 * What it is: the printer and the -P sink of the rows procs_rank (procs.h)
 * chooses: the top writers by write rate, tasks in D state with what they
 * wait for, and the kernel's writeback threads (flush workers, attributed
 * to the device they flush, and kswapd) with their CPU use.
 * What it is not: it reads no files and no clock and knows nothing of
 * curses; it ranks nothing itself.
 *
 * Throttling comes from the writeback tracepoints when the sample has them
 * (the time each task paused in balance_dirty_pages, the device it was held
 * on); otherwise it is guessed from where a task sleeps (wchan, or
 * /proc/PID/stack), and labelled a guess.
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
