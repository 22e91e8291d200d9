/*
 * screen_procs.h - the process pane (screen_procs.c).
 */
#ifndef WBTOP_SCREEN_PROCS_H
#define WBTOP_SCREEN_PROCS_H

#include "screen_data.h"

/* Build the pane's rows (at most rows) and summary from the frame. */
void screen_procs_update(struct screen *s, int rows);
/* The pane in rows y..y+rows-1: a rule, the summary, the table. */
void screen_procs_draw(struct screen *s, int y, int rows);
/* "thr N" after the procs figures of the summary, when processes are sampled. */
void screen_procs_summary_field(struct screen *s, struct scr_line *ln);
void screen_procs_free(struct screen *s);

#endif
