/*
 * source.c - the generic part of a source: dispatch to its operations.
 */
#include <stdlib.h>

#include "source.h"

int source_next(struct source *src, struct snapshot *out)
{
	out->nx = 0;	/* a source adds the values beside the fixed blocks it read */
	int rc = src->ops->next(src, out);
	if (rc == 0)
		snapshot_sort_x(out);
	return rc;
}

void source_close(struct source *src)
{
	if (!src)
		return;
	src->ops->close(src);
}
