/*
 * feed.c - each frame of the pipeline, with wbtop's own knob writes of its
 * interval, to every sink of a loop (feed.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"
#include "core/control.h"
#include "run/feed.h"

struct feed_sink {
	struct sink *s;
	enum feed_role role;
};

struct feed {
	struct pipeline *pipe;
	struct control *ctl;
	struct feed_sink *sinks;
	size_t n, cap;
	size_t ev_done;			/* control's events handed on so far */
	struct frame own;		/* a frame with wbtop's writes merged in */
	struct wb_event *changes;	/* own's changes: what the writes do not explain */
	size_t changes_cap;
	struct feed_failure fail[2];	/* not yet asked for: a recorder's and an output's */
	size_t nfail;
};

struct feed *feed_new(struct pipeline *p, struct control *ctl)
{
	struct feed *fd = calloc(1, sizeof *fd);
	if (fd) {
		fd->pipe = p;
		fd->ctl = ctl;
	}
	return fd;
}

void feed_control(struct feed *fd, struct control *ctl)
{
	fd->ctl = ctl;
}

void feed_free(struct feed *fd)
{
	if (!fd)
		return;
	for (size_t i = 0; i < fd->n; i++)
		sink_close(fd->sinks[i].s, NULL, 0);
	free(fd->sinks);
	free(fd->changes);
	free(fd);
}

int feed_add(struct feed *fd, struct sink *s, enum feed_role role)
{
	if (!s)
		return -ENOMEM;
	if (grow_array((void **)&fd->sinks, &fd->cap, fd->n + 1, sizeof *fd->sinks, 4) < 0) {
		sink_close(s, NULL, 0);
		return -ENOMEM;
	}
	fd->sinks[fd->n++] = (struct feed_sink){ .s = s, .role = role };
	pipeline_need(fd->pipe, s->ops->needs);	/* what it said it needs, derived for it */
	return 0;
}

/* Close sink i and take it out of the feed: 0, or -errno with the reason in err. */
static int feed_drop(struct feed *fd, size_t i, char *err, size_t errlen)
{
	int rc = sink_close(fd->sinks[i].s, err, errlen);
	memmove(&fd->sinks[i], &fd->sinks[i + 1], (fd->n - i - 1) * sizeof *fd->sinks);
	fd->n--;
	return rc;
}

/* The frame every sink gets: with control's events since the last one (their results and
 * reasons) and, in changes, only what those do not explain (what someone else changed).
 * The baseline carries none: writes made before it go with the first interval, the one
 * that shows them.  The recorder keeps the events with this sample. */
static const struct frame *feed_own(struct feed *fd, const struct frame *f)
{
	size_t all = fd->ctl ? control_nevents(fd->ctl) : 0;
	if (!f->prev || all == fd->ev_done)
		return f;
	fd->own = *f;
	fd->own.events = control_event(fd->ctl, fd->ev_done);
	fd->own.nevents = all - fd->ev_done;
	for (size_t i = 0; i < fd->n; i++)
		if (fd->sinks[i].role == FEED_RECORDER)
			for (size_t k = fd->ev_done; k < all; k++)
				sink_event(fd->sinks[i].s, control_event(fd->ctl, k));
	fd->ev_done = all;
	if (f->nchanges > fd->changes_cap) {
		struct wb_event *b = realloc(fd->changes, f->nchanges * sizeof *b);
		if (!b)
			return &fd->own;	/* out of memory: the changes are shown as they are */
		fd->changes = b;
		fd->changes_cap = f->nchanges;
	}
	if (f->nchanges)
		memcpy(fd->changes, f->changes, f->nchanges * sizeof *fd->changes);
	fd->own.changes = fd->changes;
	fd->own.nchanges = control_rules_unexplained(fd->changes, f->nchanges, fd->own.events, fd->own.nevents);
	return &fd->own;
}

static void feed_note_failure(struct feed *fd, const struct feed_sink *fs, int rc)
{
	if (fd->nfail >= sizeof fd->fail / sizeof fd->fail[0])
		return;
	struct feed_failure *e = &fd->fail[fd->nfail++];
	e->role = fs->role;
	e->rc = rc;
	snprintf(e->msg, sizeof e->msg, "%s", fs->s->errmsg[0] ? fs->s->errmsg : strerror(-rc));
}

int feed_step(struct feed *fd, const struct frame **out)
{
	const struct frame *f;
	int rc = pipeline_step(fd->pipe, &f);
	if (rc != 0)
		return rc;
	f = feed_own(fd, f);
	for (size_t i = 0; i < fd->n;) {
		int src = sink_frame(fd->sinks[i].s, f);
		if (src < 0 && fd->sinks[i].role != FEED_KEEPER)
			feed_note_failure(fd, &fd->sinks[i], src);
		if (src < 0 && fd->sinks[i].role == FEED_RECORDER)
			feed_drop(fd, i, NULL, 0);
		else if (src < 0 && fd->sinks[i].role == FEED_OUTPUT)
			break;	/* the loop stops on it: the outputs after it get nothing more */
		else
			i++;
	}
	*out = f;
	return 0;
}

void feed_events_now(struct feed *fd)
{
	size_t all = fd->ctl ? control_nevents(fd->ctl) : 0;
	if (all == fd->ev_done)
		return;
	for (size_t i = 0; i < fd->n; i++)
		for (size_t k = fd->ev_done; k < all; k++)
			sink_event(fd->sinks[i].s, control_event(fd->ctl, k));
	fd->ev_done = all;
	const struct frame *f;
	if (feed_recording(fd) && pipeline_step(fd->pipe, &f) == 0)
		for (size_t i = 0; i < fd->n; i++)
			if (fd->sinks[i].role == FEED_RECORDER)
				sink_frame(fd->sinks[i].s, f);
}

bool feed_failed(struct feed *fd, struct feed_failure *out)
{
	if (!fd->nfail)
		return false;
	*out = fd->fail[0];
	memmove(&fd->fail[0], &fd->fail[1], (--fd->nfail) * sizeof fd->fail[0]);
	return true;
}

bool feed_recording(const struct feed *fd)
{
	for (size_t i = 0; i < fd->n; i++)
		if (fd->sinks[i].role == FEED_RECORDER)
			return true;
	return false;
}

int feed_close_recorder(struct feed *fd, char *err, size_t errlen)
{
	for (size_t i = 0; i < fd->n; i++)
		if (fd->sinks[i].role == FEED_RECORDER)
			return feed_drop(fd, i, err, errlen);
	return 0;
}
