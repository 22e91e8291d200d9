/*
 * msgq.h - the screen's status-line messages, each given its turn.
 *
 * The status line has room for one message.  Two kinds come to it:
 *
 * - answers: what the user's own key or option just did ("interval 2s",
 *   "vm.dirty_ratio 20 -> 30: ok (--set)").  Shown at once, in place of
 *   whatever is showing.
 * - notices: what happened on its own (the kernel's writeback loop is only
 *   partly readable, the recording stopped, the recording lives on a
 *   watched device).  A notice waits
 *   while another message is showing, and one that an answer pushes off the
 *   line before its time is up goes back to wait at the head of the queue:
 *   none is lost to the one posted a moment after it (at start-up, --set's
 *   result, the kernel loop's note and the recording's note come within a
 *   second of each other).
 *
 * Each message is shown for show_ns from the moment it takes the line; a
 * key dismisses the one showing (the user has seen it) and the next waiting
 * one takes the line.  At most MSGQ_WAITING notices wait; a new one past
 * that drops the oldest waiting.  A notice already showing or waiting is not
 * queued twice.
 *
 * Pure: the clock is the caller's (now_ns, any monotonic count), no curses,
 * no output.
 */
#ifndef WBTOP_MSGQ_H
#define WBTOP_MSGQ_H

#include <stddef.h>
#include <stdint.h>

enum { MSGQ_TEXT = 256, MSGQ_WAITING = 4 };

struct msgq;

struct msgq *msgq_new(uint64_t show_ns);
void msgq_free(struct msgq *q);

/* An answer to what the user did: on the line now (text cut to MSGQ_TEXT - 1 bytes). */
void msgq_answer(struct msgq *q, uint64_t now_ns, const char *text);

/* A notice: on the line now if nothing is showing, else waiting its turn. */
void msgq_notice(struct msgq *q, uint64_t now_ns, const char *text);

/* What the line shows at now_ns ("" for no message): a message whose time is up goes, and
 * the next waiting one takes the line, its time starting now.  Call it only when the line
 * is there to be seen (not while a prompt holds it), so a waiting notice's time is not spent
 * unseen. */
const char *msgq_showing(struct msgq *q, uint64_t now_ns);

/* The message showing goes (a key answered it, or a prompt took the line); the next
 * waiting one comes with the next msgq_showing. */
void msgq_dismiss(struct msgq *q);

/* Notices waiting, not counting the one showing. */
size_t msgq_waiting(const struct msgq *q);

#endif
