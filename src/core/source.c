/*
 * source.c - the generic part of a source: dispatch to its operations and
 * capabilities.
 */
#include <errno.h>
#include <stdlib.h>

#include "core/source.h"

int source_next(struct source *src, struct snapshot *out)
{
	out->nx = 0;	/* a source adds the values beside the fixed blocks it read */
	out->ncg = 0;	/* and the names of the cgroups they are of */
	out->lead = false;
	out->ncomm = 0;		/* the live source names the traced tasks */	/* only a replay limited with --begin has any */
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

struct ident_table *source_idents(struct source *src)
{
	return src && src->ops->idents ? src->ops->idents(src) : NULL;
}

int source_sample_procs(struct source *src, bool on)
{
	return src && src->ops->sample_procs ? src->ops->sample_procs(src, on) : -ENOTSUP;
}

int source_marks(struct source *src, struct source_marks *out)
{
	return src && src->ops->marks ? src->ops->marks(src, out) : -ENOTSUP;
}

int source_kernel_loop(struct source *src, bool on, char *why, size_t whylen)
{
	if (why && whylen)
		why[0] = '\0';
	return src && src->ops->kernel_loop ? src->ops->kernel_loop(src, on, why, whylen) : -ENOTSUP;
}
