/*
 * run_screen_priv.h - what the interactive loop's files share: the loop's
 * state, and what the loop (run_screen.c) asks of the replay navigation
 * (run_screen_replay.c).  Not a public interface.
 */
#ifndef WBTOP_RUN_SCREEN_PRIV_H
#define WBTOP_RUN_SCREEN_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "core/control.h"
#include "sink/history.h"
#include "run/feed.h"
#include "run/opts.h"
#include "core/pipeline.h"
#include "rec/rec.h"
#include "screen/screen.h"
#include "sink/snapring.h"
#include "core/source.h"

struct screen_run {
	const struct opts *o;
	struct source *src;
	struct pipeline *pipe;
	struct history *hist;
	struct snapring *ring;		/* raw samples for "save history" */
	struct screen *scr;
	struct control *ctl;		/* NULL on a replay: nothing to write */
	struct feed *feed;		/* the history, the ring, the recorder (-w) and the screen */
	struct sink *scr_sink;		/* the screen's, in feed (for quiet) */
	struct rec_writer *rec_w;	/* the recorder's writer (owned by feed): for the note below */
	bool self_noted;		/* said once whether the recording is on a watched device */
	const struct frame *f;		/* the frame on screen */
	struct screen_state st;
	bool live, ended, quit;
	long shown;			/* intervals shown, for -n */
	uint64_t step_ns, start_ns, deadline_ns;
	struct control_ref kref;	/* the knob panel's scope */
	/* a replay */
	bool replay;
	uint64_t grew_ns;		/* when the followed recording last gave a new sample */
	int status;
	char err[512];
	char kloop_why[512];		/* what of the kernel's writeback loop is missing, and why */
	bool kernel_loop;		/* start the kernel's writeback loop after the first frame */
};

/* run_screen_replay.c (below run_screen.c: nothing here calls up into it) */
/* Set the replay up after the first sample: the speed (-d given: about
 * one sample per interval), the position on the top line. */
void run_screen_replay_start(struct screen_run *r);
/* After a sample was shown or the end was met: the position, and when the
 * next sample is due at the replay's speed. */
void run_screen_replay_after_step(struct screen_run *r, int rc);
/* Carry out a navigation request (STEP, SEEK*, DIP, KNOB_CHANGE, SPEED). */
void run_screen_replay_req(struct screen_run *r, const struct screen_req *q);

#endif
