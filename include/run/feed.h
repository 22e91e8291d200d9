/*
 * feed.h - the one way from the pipeline to the sinks, for the batch loop and
 * the screen loop alike: each frame, with wbtop's own knob writes of its
 * interval, to every sink.
 *
 * The rule for wbtop's own writes (doc/design.md): a write is an event of the
 * interval whose sample shows it, carried in that frame's events, and the
 * frame's changes are what those events do not explain.
 */
#ifndef WBTOP_FEED_H
#define WBTOP_FEED_H

#include <stdbool.h>
#include <stddef.h>

#include "core/control.h"
#include "core/pipeline.h"
#include "sink/sink.h"

/* What a sink is to the loop: what happens when it fails. */
enum feed_role {
	FEED_OUTPUT,	/* what the user asked to see: its failure is the loop's to act on */
	FEED_RECORDER,	/* -w: dropped on failure (its samples so far are safe), the rest goes on */
	FEED_KEEPER	/* the screen's history and save-history ring: failures only lose history */
};

struct feed;

/* A feed of p's frames (p not owned), merging the events of ctl (not owned; NULL: no
 * writes).  NULL when out of memory. */
struct feed *feed_new(struct pipeline *p, struct control *ctl);
/* Merge the events of ctl (not owned) from now on: a feed made before its control. */
void feed_control(struct feed *fd, struct control *ctl);
/* Close every sink still fed and free fd; NULL is a no-op. */
void feed_free(struct feed *fd);

/* Feed s (owned from now on: closed by feed_free or feed_close_recorder) as role.
 * 0, or -ENOMEM (s closed). */
int feed_add(struct feed *fd, struct sink *s, enum feed_role role);

/* Take the next frame and hand it to every sink, in the order they were added: the
 * pipeline's return (0 with *out set, 1 at the end, -errno).  *out stays valid until the
 * next step.  A sink that failed is said by feed_failed. */
int feed_step(struct feed *fd, const struct frame **out);

/* Hand the knob events control made since the last frame to every sink's event
 * operation (--restore-on-exit at the end: no frame will carry them), then, when there
 * were some and a recorder is fed, one more sample to the recorder alone, so a replay
 * ends as the host was left. */
void feed_events_now(struct feed *fd);

/* A sink that failed since the last call (the first two, oldest first): false when none
 * did.  A recorder is then dropped already; an output stays fed, for the loop to decide. */
struct feed_failure {
	enum feed_role role;
	int rc;			/* -errno; -EPIPE: the reader went away */
	char msg[512];		/* the sink's reason */
};
bool feed_failed(struct feed *fd, struct feed_failure *out);

/* Whether a recorder is fed (not dropped), and close it now: 0, or -errno with the
 * reason in err. */
bool feed_recording(const struct feed *fd);
int feed_close_recorder(struct feed *fd, char *err, size_t errlen);

#endif
