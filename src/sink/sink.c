/*
 * sink.c - the generic part of a sink: dispatch to its operations.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "sink/sink.h"

struct sink *sink_new(const struct sink_ops *ops, void *impl)
{
	struct sink *s = calloc(1, sizeof *s);
	struct sink tmp = { ops, impl, "" };
	if (!s) {
		ops->close(&tmp);
		return NULL;
	}
	*s = tmp;
	return s;
}

int sink_frame(struct sink *s, const struct frame *f)
{
	return s ? s->ops->frame(s, f) : 0;
}

int sink_event(struct sink *s, const struct wb_event *e)
{
	return s && s->ops->event ? s->ops->event(s, e) : 0;
}

int sink_close(struct sink *s, char *err, size_t errlen)
{
	if (!s)
		return 0;
	int rc = s->ops->close(s);
	if (rc < 0 && err)
		snprintf(err, errlen, "%s", s->errmsg);
	free(s);
	return rc;
}

struct sink *sink_stream_new(const struct sink_ops *ops, FILE *out, const char *name)
{
	struct sink_stream *st = malloc(sizeof *st);
	if (!st)
		return NULL;
	*st = (struct sink_stream){ out, name };
	return sink_new(ops, st);
}

int sink_stream_close(struct sink *s)
{
	free(s->impl);
	return 0;
}

int sink_keep_close(struct sink *s)
{
	(void)s;
	return 0;
}
