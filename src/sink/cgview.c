/*
 * cgview.c - a sample's memory cgroups as sorted rows of figures.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "sink/cgview.h"
#include "util/grow.h"

void cgview_init(struct cgview *v)
{
	v->row = NULL;
	v->n = v->cap = 0;
}

void cgview_free(struct cgview *v)
{
	free(v->row);
	cgview_init(v);
}

/* The value of the row of kind, 0 when absent. */
static double cgview_get(const struct cgview_row *r, unsigned kind)
{
	for (size_t i = 0; i < fig_ncg; i++)
		if (fig_cg_table[i].kind == kind)
			return r->have & 1u << i ? r->v[i] : 0.0;
	return 0.0;
}

static int cgview_cmp_num(double a, double b)
{
	return (a < b) - (a > b);	/* larger first */
}

static int cgview_cmp(const void *a, const void *b)
{
	const struct cgview_row *x = a, *y = b;
	int c = cgview_cmp_num(cgview_get(x, SNAP_XCG_TASK_THROTTLED_MS),
			       cgview_get(y, SNAP_XCG_TASK_THROTTLED_MS));
	if (!c)
		c = cgview_cmp_num(cgview_get(x, SNAP_XCG_THROTTLED_MS), cgview_get(y, SNAP_XCG_THROTTLED_MS));
	if (!c)
		c = cgview_cmp_num(cgview_get(x, SNAP_XCG_FILE_DIRTY_KB) + cgview_get(x, SNAP_XCG_FILE_WRITEBACK_KB),
				   cgview_get(y, SNAP_XCG_FILE_DIRTY_KB) + cgview_get(y, SNAP_XCG_FILE_WRITEBACK_KB));
	if (!c)
		c = cgview_cmp_num(cgview_get(x, SNAP_XCG_WB_DIRTIED_KB), cgview_get(y, SNAP_XCG_WB_DIRTIED_KB));
	return c ? c : (x->ino > y->ino) - (x->ino < y->ino);
}

int cgview_build(struct cgview *v, const struct snapshot *prev, const struct snapshot *cur,
		 double dt_s)
{
	v->n = 0;
	const struct snap_xval *x = cur->x, *end = cur->x + cur->nx;
	while (x < end && x->scope != SNAP_XCG)
		x++;
	while (x < end && x->scope == SNAP_XCG) {
		uint64_t ino = x->obj;
		while (x < end && x->scope == SNAP_XCG && x->obj == ino)
			x++;
		if (grow_array((void **)&v->row, &v->cap, v->n + 1, sizeof *v->row, 16))
			return -ENOMEM;
		struct cgview_row *r = &v->row[v->n++];
		r->ino = ino;
		r->name = snapshot_find_cg(cur, ino);
		r->have = 0;
		r->idle = true;
		for (size_t i = 0; i < fig_ncg; i++) {
			const struct fig_cg *f = &fig_cg_table[i];
			if (!figure_cg_value(f, prev, cur, ino, dt_s, &r->v[i]))
				continue;
			r->have |= 1u << i;
			/* a limit or an estimate is not activity */
			if (r->v[i] > 0 && f->kind != SNAP_XCG_WB_THRESH_KB && f->kind != SNAP_XCG_WB_BW_KBPS)
				r->idle = false;
		}
	}
	if (v->n > 1)
		qsort(v->row, v->n, sizeof *v->row, cgview_cmp);
	return 0;
}

bool cgview_any_busy(const struct cgview *v)
{
	for (size_t i = 0; i < v->n; i++)
		if (!v->row[i].idle)
			return true;
	return false;
}

void cgview_label(const struct cgview_row *r, char *buf, size_t len)
{
	if (r->name && r->name->path[0])
		snprintf(buf, len, "%s%s", r->name->path, r->name->gone ? " (gone)" : "");
	else
		snprintf(buf, len, "ino %" PRIu64, r->ino);
}
