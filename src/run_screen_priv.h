/*
 * run_screen_priv.h - what the interactive loop's files share: the loop's
 * state, and the few steps the replay navigation (run_screen_replay.c)
 * takes from the loop (run_screen.c).  Not a public interface.
 */
#ifndef WBTOP_RUN_SCREEN_PRIV_H
#define WBTOP_RUN_SCREEN_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "control.h"
#include "history.h"
#include "opts.h"
#include "pipeline.h"
#include "rec.h"
#include "screen.h"
#include "snapring.h"
#include "source.h"

struct screen_run {
	const struct opts *o;
	struct source *src;
	struct pipeline *pipe;
	struct history *hist;
	struct snapring *ring;		/* raw samples for "save history" */
	struct screen *scr;
	struct control *ctl;		/* NULL on a replay: nothing to write */
	struct rec_writer *rec;		/* -w: the recording, NULL once it failed */
	bool self_noted;		/* said once whether the recording is on a watched device */
	const struct frame *f;		/* the frame on screen */
	struct screen_state st;
	bool live, ended, quit;
	long shown;			/* intervals shown, for -n */
	uint64_t step_ns, start_ns, deadline_ns;
	struct control_ref kref;	/* the knob panel's scope */
	bool own_change;		/* wbtop wrote a vm knob: the next sample shows it */
	/* a replay */
	bool replay;
	bool recorded_marks;		/* show the dips the recording holds (no --dip given) */
	uint64_t grew_ns;		/* when the followed recording last gave a new sample */
	struct frame fr;		/* the frame shown, with the recording's marks */
	bool *fr_dips;
	size_t cap_fr_dips;
	int status;
	char err[512];
};

/* run_screen.c */
/* Take one frame into the history, the saved-history ring and the -w
 * recording; show says whether messages (knob changes) go to the screen.
 * r->f is then the frame. */
void run_screen_take(struct screen_run *r, const struct frame *f, bool show);

/* run_screen_replay.c */
/* Set the replay up after the first sample: the speed (-d given: about
 * one sample per interval), the position on the top line. */
void run_replay_start(struct screen_run *r);
/* The frame with the recording's dip marks, when those are shown. */
const struct frame *run_replay_marks(struct screen_run *r, const struct frame *f, bool *event);
/* After a sample was shown or the end was met: the position, and when the
 * next sample is due at the replay's speed. */
void run_replay_after_step(struct screen_run *r, int rc);
/* Carry out a navigation request (STEP, SEEK*, DIP, KNOB_CHANGE, SPEED). */
void run_replay_req(struct screen_run *r, const struct screen_req *q);
void run_replay_free(struct screen_run *r);

#endif
