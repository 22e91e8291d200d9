/*
 * msgq.c - the screen's status-line messages, each given its turn. Contract in
 * include/msgq.h.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/msgq.h"

struct msgq_item {
	char text[MSGQ_TEXT];
	bool notice;
};

struct msgq {
	uint64_t show_ns;
	struct msgq_item line;		/* the one showing, if showing */
	bool showing;
	uint64_t until_ns;		/* when its time is up */
	struct msgq_item wait[MSGQ_WAITING];	/* the oldest first */
	size_t nwait;
};

struct msgq *msgq_new(uint64_t show_ns)
{
	struct msgq *q = calloc(1, sizeof *q);
	if (q)
		q->show_ns = show_ns;
	return q;
}

void msgq_free(struct msgq *q)
{
	free(q);
}

static void msgq_item_set(struct msgq_item *it, const char *text, bool notice)
{
	snprintf(it->text, sizeof it->text, "%s", text ? text : "");
	it->notice = notice;
}

static void msgq_take_line(struct msgq *q, const struct msgq_item *it, uint64_t now_ns)
{
	q->line = *it;
	q->showing = true;
	q->until_ns = now_ns + q->show_ns;
}

/* Is text showing or waiting as a notice? Then it is not queued again. */
static bool msgq_has_notice(const struct msgq *q, const char *text)
{
	if (q->showing && q->line.notice && strcmp(q->line.text, text) == 0)
		return true;
	for (size_t i = 0; i < q->nwait; i++)
		if (strcmp(q->wait[i].text, text) == 0)
			return true;
	return false;
}

/* The oldest waiting one is dropped when there is no room: newer news wins. */
static void msgq_wait_tail(struct msgq *q, const struct msgq_item *it)
{
	if (q->nwait == MSGQ_WAITING) {
		memmove(&q->wait[0], &q->wait[1], (MSGQ_WAITING - 1) * sizeof q->wait[0]);
		q->nwait--;
	}
	q->wait[q->nwait++] = *it;
}

/* A notice pushed off the line early goes first when the line is free again; with no room,
 * the newest waiting one makes way for it (it came before them). */
static void msgq_wait_head(struct msgq *q, const struct msgq_item *it)
{
	if (q->nwait == MSGQ_WAITING)
		q->nwait--;
	memmove(&q->wait[1], &q->wait[0], q->nwait * sizeof q->wait[0]);
	q->wait[0] = *it;
	q->nwait++;
}

void msgq_answer(struct msgq *q, uint64_t now_ns, const char *text)
{
	if (!q)
		return;
	if (q->showing && q->line.notice && now_ns < q->until_ns)
		msgq_wait_head(q, &q->line);
	struct msgq_item it;
	msgq_item_set(&it, text, false);
	msgq_take_line(q, &it, now_ns);
}

void msgq_notice(struct msgq *q, uint64_t now_ns, const char *text)
{
	if (!q)
		return;
	struct msgq_item it;
	msgq_item_set(&it, text, true);
	if (msgq_has_notice(q, it.text))
		return;
	if (q->showing && now_ns >= q->until_ns)
		q->showing = false;
	if (!q->showing && !q->nwait)
		msgq_take_line(q, &it, now_ns);
	else
		msgq_wait_tail(q, &it);
}

const char *msgq_showing(struct msgq *q, uint64_t now_ns)
{
	if (!q)
		return "";
	if (q->showing && now_ns >= q->until_ns)
		q->showing = false;
	if (!q->showing && q->nwait) {
		struct msgq_item next = q->wait[0];
		q->nwait--;
		memmove(&q->wait[0], &q->wait[1], q->nwait * sizeof q->wait[0]);
		msgq_take_line(q, &next, now_ns);
	}
	return q->showing ? q->line.text : "";
}

void msgq_dismiss(struct msgq *q)
{
	if (q)
		q->showing = false;
}

size_t msgq_waiting(const struct msgq *q)
{
	return q ? q->nwait : 0;
}
