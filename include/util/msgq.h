/*
 * msgq.h - the screen's status-line messages, each given its turn.
 *
 * Answers (what the user's key or option just did) take the line at once;
 * notices (what happened on its own) wait while another message shows, and
 * one pushed off early goes back to the head of the queue, so none is lost.
 * A key dismisses the one showing (doc/design.md, "Small shared pieces").
 * Pure: the clock is the caller's (now_ns), no curses, no output.
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
