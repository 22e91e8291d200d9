/*
 * run_screen_replay.c - moving through a recording on the screen: play at
 * a speed, pause, step, jump to a time or to the next or previous dip or
 * knob change, and follow a recording still being written.  A jump seeks
 * the replay source and restarts the pipeline, then decodes some samples
 * before the target (RUN_REPLAY_BACKFILL) so the graphs show what led up
 * to it (doc/screen.md, "Inside").  It is not the screen (which only asks)
 * nor the recording reader.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "run_screen_priv.h"
#include "screen/screen_sink.h"
#include "util/ticker.h"

/* At the end of a recording still being written: look for a new sample
 * this often (a look costs two small queries). */
#define RUN_REPLAY_POLL_NS 50000000ull
/* A longer hole in a recording (the machine slept) plays as this. */
#define RUN_REPLAY_MAX_GAP_NS 60e9
/* Samples decoded before a jump's target: the widest graph's worth, and
 * at most this many device-samples (a jump stays well under a second). */
#define RUN_REPLAY_BACKFILL 300
#define RUN_REPLAY_BACKFILL_ROWS 200000
#define RUN_REPLAY_SPEED_MIN (1.0 / 64)
#define RUN_REPLAY_SPEED_MAX 1024.0

/* The sample shown and how many there are, for the top line. */
static void run_screen_replay_position(struct screen_run *r)
{
	int64_t n = rec_replay_count(r->src);
	if (n >= 0)
		r->st.replay_count = n;
	int64_t t = rec_replay_tell(r->src);
	r->st.replay_index = t > 0 ? t - 1 : 0;
}

/* When the next sample is due: after its recorded distance from the one
 * shown, divided by the speed. */
static void run_screen_replay_schedule(struct screen_run *r)
{
	uint64_t pace = RUN_REPLAY_POLL_NS;
	int64_t next = rec_replay_tell(r->src);
	if (r->f && next >= 0 && next < r->st.replay_count) {
		int64_t w = rec_replay_wall_ns(r->src, next);
		double gap_ns = w > r->f->cur->wall_ns ? (double)(w - r->f->cur->wall_ns) : 0;
		if (gap_ns > RUN_REPLAY_MAX_GAP_NS)
			gap_ns = RUN_REPLAY_MAX_GAP_NS;
		pace = (uint64_t)(gap_ns / r->st.replay_speed);
	}
	r->deadline_ns = ticker_now_ns() + pace;
}

static double run_screen_replay_clamp_speed(double v)
{
	return v < RUN_REPLAY_SPEED_MIN ? RUN_REPLAY_SPEED_MIN : v > RUN_REPLAY_SPEED_MAX ? RUN_REPLAY_SPEED_MAX : v;
}

void run_screen_replay_after_step(struct screen_run *r, int rc)
{
	/* Caught up with a recording still being written: following it from
	 * now on (new samples come as the writer adds them), until a jump. */
	uint64_t now = ticker_now_ns();
	if (rc == -EAGAIN) {
		if (!r->st.replay_waiting)
			r->grew_ns = now;	/* caught up just now */
		r->st.replay_waiting = true;
		r->st.replay_idle_s = (double)(now - r->grew_ns) / 1e9;
	} else {
		if (rc != 0)
			r->st.replay_waiting = false;
		r->grew_ns = now;	/* a new sample (or no longer following) */
		r->st.replay_idle_s = 0;
	}
	if (rc == 1) {
		r->ended = true;
		screen_message(r->scr, "end of the recording (q quits; , [ t look back)");
	} else if (rc < 0 && rc != -EAGAIN) {
		r->ended = true;
		screen_message(r->scr, "%s: the replay stops here", r->src->errmsg[0] ? r->src->errmsg : strerror(-rc));
	}
	run_screen_replay_position(r);
	run_screen_replay_schedule(r);
}

/* Take samples up to index target into the history, and show the last. */
static void run_screen_replay_feed(struct screen_run *r, int64_t target)
{
	const struct frame *f;
	int rc = 0;
	screen_sink_quiet(r->scr_sink, true);	/* the history's fill says nothing */
	while (rec_replay_tell(r->src) <= target && (rc = feed_step(r->feed, &f)) == 0)
		r->f = f;
	screen_sink_quiet(r->scr_sink, false);
	r->ended = false;
	r->st.replay_waiting = false;
	if (rc < 0 && rc != -EAGAIN) {
		r->ended = true;
		screen_message(r->scr, "%s", r->src->errmsg[0] ? r->src->errmsg : strerror(-rc));
	}
	run_screen_replay_position(r);
	run_screen_replay_schedule(r);
}

/* Show sample index target (clamped to the recording). */
static void run_screen_replay_jump(struct screen_run *r, int64_t target)
{
	int64_t count = rec_replay_count(r->src);
	if (count <= 0)
		return;
	target = target < 0 ? 0 : target >= count ? count - 1 : target;
	if (target == r->st.replay_index + 1 && rec_replay_tell(r->src) == target) {
		run_screen_replay_feed(r, target);	/* the next one: no jump, the history goes on */
		return;
	}
	size_t ndev = r->f && r->f->cur->ndev ? r->f->cur->ndev : 1;
	int64_t back = RUN_REPLAY_BACKFILL;
	if ((int64_t)(RUN_REPLAY_BACKFILL_ROWS / ndev) < back)
		back = (int64_t)(RUN_REPLAY_BACKFILL_ROWS / ndev);
	int64_t from = target - back < 0 ? 0 : target - back;
	int rc = rec_replay_seek(r->src, from);
	if (rc < 0) {
		screen_message(r->scr, "cannot go to sample %" PRId64 ": %s", target + 1, strerror(-rc));
		return;
	}
	pipeline_restart(r->pipe);
	history_clear(r->hist);
	snapring_clear(r->ring);
	run_screen_replay_feed(r, target);
}

void run_screen_replay_start(struct screen_run *r)
{
	run_screen_replay_position(r);
	/* -d on a replay: about one sample per interval, at the recording's
	 * mean interval (its first one is often short). */
	int64_t n = r->st.replay_count;
	if (r->o->delay_given && n >= 2) {
		int64_t w0 = rec_replay_wall_ns(r->src, 0), w1 = rec_replay_wall_ns(r->src, n - 1);
		if (w0 >= 0 && w1 > w0)
			r->st.replay_speed = run_screen_replay_clamp_speed((double)(w1 - w0) / 1e9 / (double)(n - 1) /
								    r->o->delay_s);
	}
	/* Open on the first interval, not on a sample without rates. */
	if (r->st.replay_count >= 2)
		run_screen_replay_feed(r, 1);
	else
		run_screen_replay_schedule(r);
}

static void run_screen_replay_step(struct screen_run *r, int64_t n)
{
	int64_t target = r->st.replay_index + n;
	r->st.paused = true;	/* stepping is looking closely: the play stops */
	if (target < 0)
		screen_message(r->scr, "at the first sample");
	else if (target >= rec_replay_count(r->src))
		screen_message(r->scr, "at the last sample%s", r->st.replay_waiting ? " (more may come)" : "");
	else
		run_screen_replay_jump(r, target);
}

/* The index of the first sample at or after wall_ns; the last one if the
 * recording ends before. */
static int64_t run_screen_replay_index_at(struct screen_run *r, int64_t wall_ns)
{
	int64_t i = rec_replay_find_time(r->src, wall_ns);
	int64_t n = rec_replay_count(r->src);
	if (i >= n && n > 0) {
		char when[16] = "?";
		int64_t w = rec_replay_wall_ns(r->src, n - 1);
		time_t t = (time_t)(w / 1000000000);
		struct tm tm;
		if (w >= 0 && localtime_r(&t, &tm))
			strftime(when, sizeof when, "%H:%M:%S", &tm);
		screen_message(r->scr, "the recording ends at %s: its last sample", when);
		i = n - 1;
	}
	if (i > 0 && screen_calc_seek_take_earlier(wall_ns, rec_replay_wall_ns(r->src, i - 1),
					      rec_replay_wall_ns(r->src, i)))
		i--;
	return i;
}

static void run_screen_replay_seek_time(struct screen_run *r, const char *text)
{
	int64_t start = rec_replay_wall_ns(r->src, 0), t;
	if (start < 0 || rec_time_parse(text, start, &t) < 0) {
		screen_message(r->scr, "'%s': not a time (HH:MM:SS, 'YYYY-MM-DD HH:MM:SS', seconds since "
			       "the epoch, +30s, -2m, start, end)", text);
		return;
	}
	int64_t i = run_screen_replay_index_at(r, t);
	if (i >= 0)
		run_screen_replay_jump(r, i);
}

static void run_screen_replay_mark(struct screen_run *r, unsigned kind, int dir)
{
	const char *what = kind == REC_MARK_DIP ? "dip" : "knob change";
	int64_t i = rec_replay_next_mark(r->src, r->st.replay_index, dir, kind);
	if (i == -ENOENT)
		screen_message(r->scr, "no %s %s this sample", what, dir > 0 ? "after" : "before");
	else if (i < 0)
		screen_message(r->scr, "%s: %s", what, strerror((int)-i));
	else
		run_screen_replay_jump(r, i);
	if (i >= 0 && kind == REC_MARK_KNOB && r->f)
		screen_sink_knob_note(r->scr, r->f, false);	/* what changed there */
}

void run_screen_replay_req(struct screen_run *r, const struct screen_req *q)
{
	switch (q->kind) {
	case SCREEN_REQ_STEP:
		run_screen_replay_step(r, (int64_t)q->value);
		break;
	case SCREEN_REQ_SEEK:
		if (r->f) {
			int64_t i = run_screen_replay_index_at(r, r->f->cur->wall_ns + (int64_t)(q->value * 1e9));
			if (i >= 0)
				run_screen_replay_jump(r, i);
		}
		break;
	case SCREEN_REQ_SEEK_START:
		run_screen_replay_jump(r, 0);
		break;
	case SCREEN_REQ_SEEK_END:
		run_screen_replay_jump(r, rec_replay_count(r->src) - 1);
		break;
	case SCREEN_REQ_SEEK_TIME:
		run_screen_replay_seek_time(r, q->text);
		break;
	case SCREEN_REQ_DIP:
		run_screen_replay_mark(r, REC_MARK_DIP, q->value > 0 ? 1 : -1);
		break;
	case SCREEN_REQ_KNOB_CHANGE:
		run_screen_replay_mark(r, REC_MARK_KNOB, q->value > 0 ? 1 : -1);
		break;
	case SCREEN_REQ_SPEED: {
		char b[16];
		r->st.replay_speed = run_screen_replay_clamp_speed(r->st.replay_speed * q->value);
		screen_message(r->scr, "speed %s", screen_calc_fmt_speed(r->st.replay_speed, b, sizeof b));
		if (!r->ended)
			run_screen_replay_schedule(r);
		break;
	}
	default:
		break;
	}
}
