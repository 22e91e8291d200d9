/*
 * source.c - the generic part of a source: dispatch to its operations.
 */
#include <stdlib.h>

#include "source.h"

int source_next(struct source *src, struct snapshot *out)
{
	return src->ops->next(src, out);
}

void source_close(struct source *src)
{
	if (!src)
		return;
	src->ops->close(src);
}
