/*
 * rec_marks_priv.h - the replay's marks (rec_marks.c), for the replay's own
 * files.
 */
#ifndef WBTOP_REC_MARKS_PRIV_H
#define WBTOP_REC_MARKS_PRIV_H

#include <stdint.h>

#include "core/snapshot.h"
#include "core/source.h"
#include "rec_reader_priv.h"

/* Read the marks written since the last call (all of them the first time);
 * sets marks_upto.  An unfinished file's cut mark tables end the replay
 * early (rp->last) rather than failing. */
int rec_marks_load(struct rec_replay *rp);
/* Knob values in force at sample seq into knob[] (-1: never recorded). */
void rec_marks_knobs_at(struct rec_replay *rp, int64_t seq, int64_t knob[SNAP_NKNOBS]);
/* The nearest seq after (dir > 0) or before (dir < 0) s with a mark of one
 * of kinds (enum rec_mark_kind), or -1. */
int64_t rec_marks_nearest(struct rec_replay *rp, int64_t s, int dir, unsigned kinds);
/* The marks of the sample delivered last (rec_replay_marks, rec.h). */
int rec_marks_of(struct rec_replay *rp, struct source_marks *out);

#endif
