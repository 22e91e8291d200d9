/*
 * screen_cgroups.c - the memory cgroups' page (C): which cgroup is
 * dirtying and which is being throttled.  One row per cgroup the sample
 * has values of (cgview.h), busiest first, the registry's fig_cg columns
 * with a screen title, the path last; idle cgroups only with a.
 */
#include <stdio.h>
#include <string.h>

#include "sink/cgview.h"
#include "screen_cgroups.h"
#include "screen_paint.h"
#include "screen_title.h"

/* The page's rows: the columns that fit, in registry order, then the path. */
static void screen_cgroups_header(struct screen *s, int y, const struct fig_cg **cols, size_t ncols)
{
	struct scr_line ln = { y, 0, COLS };
	move(y, 0);
	for (size_t c = 0; c < ncols; c++)
		screen_paint_addf(s, &ln, SCR_HEADER, "%*s", cols[c]->screen.width, cols[c]->screen.title);
	screen_paint_add(s, &ln, SCR_HEADER, "  PATH");
	screen_paint_fill(s, &ln, SCR_HEADER, " ", COLS);
}

static void screen_cgroups_row(struct screen *s, int y, const struct cgview_row *r,
		       const struct fig_cg **cols, size_t ncols)
{
	struct scr_line ln = { y, 0, COLS };
	enum scr_role role = r->idle ? SCR_DIM : SCR_NORMAL;
	for (size_t c = 0; c < ncols; c++) {
		size_t k = (size_t)(cols[c] - fig_cg_table);
		bool thr = cols[c]->kind == SNAP_XCG_TASK_THROTTLED_MS && (r->have & 1u << k) && r->v[k] > 0;
		if (r->have & 1u << k)
			screen_paint_addf(s, &ln, thr ? SCR_WARN : role, "%*.*f", cols[c]->screen.width,
				 cols[c]->screen.prec, r->v[k]);
		else
			screen_paint_addf(s, &ln, SCR_DIM, "%*s", cols[c]->screen.width, "-");
	}
	char label[300];
	cgview_label(r, label, sizeof label);
	screen_paint_add(s, &ln, role, "  ");
	/* a long path keeps its end, which tells cgroups apart: "..a91e279ae20f" */
	size_t room = ln.xmax > ln.x ? (size_t)(ln.xmax - ln.x) : 0, len = strlen(label);
	if (len > room && room > 2) {
		screen_paint_add(s, &ln, SCR_DIM, "..");
		screen_paint_add(s, &ln, role, label + len - (room - 2));
	} else {
		screen_paint_add(s, &ln, role, label);
	}
}

/* The columns that fit, level by level (the throttled time and the dirty
 * pages first), shown in registry order.  Returns how many. */
static size_t screen_cgroups_cols(const struct fig_cg **cols)
{
	bool take[FIG_CG_MAX] = { false };
	int width = 2 + 8;	/* the path's gap and its first characters */
	for (int level = 0; level < 256; level++)
		for (size_t c = 0; c < fig_ncg; c++) {
			const struct fig_cg *f = &fig_cg_table[c];
			if (f->screen.title && f->screen.level == level && width + f->screen.width <= COLS) {
				take[c] = true;
				width += f->screen.width;
			}
		}
	size_t n = 0;
	for (size_t c = 0; c < fig_ncg; c++)
		if (take[c])
			cols[n++] = &fig_cg_table[c];
	return n;
}

void screen_cgroups_draw(struct screen *s)
{
	screen_title_draw(s);
	screen_paint_rule(s, 1, "memory cgroups (C: back)   KiB, KiB/s; THR_MS: ms/s its tasks were paused");
	const struct fig_cg *cols[FIG_CG_MAX];
	size_t ncols = screen_cgroups_cols(cols);
	screen_cgroups_header(s, 2, cols, ncols);
	int y = 3, ymax = LINES - 1;
	if (!s->f || !s->f->cur->ncg || cgview_build(&s->cgv, s->f->prev, s->f->cur, s->f->sys.dt_s) < 0) {
		struct scr_line ln = { y, 0, COLS };
		screen_paint_add(s, &ln, SCR_DIM, "no memory cgroup in this sample (the kernel writeback loop needs "
			"root; a recording made without it has none)");
		return;
	}
	size_t hidden = 0, more = 0;
	for (size_t i = 0; i < s->cgv.n; i++) {
		if (s->cgv.row[i].idle && !s->show_idle)
			hidden++;
		else if (y < ymax - 1)
			screen_cgroups_row(s, y++, &s->cgv.row[i], cols, ncols);
		else
			more++;	/* below the last row: counted, not cut silently */
	}
	struct scr_line ln = { y, 0, COLS };
	if (more)
		screen_paint_addf(s, &ln, SCR_DIM, "%zu more below the screen  ", more);
	if (hidden)
		screen_paint_addf(s, &ln, SCR_DIM, "%zu idle cgroup%s hidden (a: show)", hidden,
				  hidden == 1 ? "" : "s");
}

bool screen_cgroups_key(struct screen *s, int ch, struct screen_req *req)
{
	(void)req;
	switch (ch) {
	case 'q':
	case 'C':
	case 27:	/* Esc */
		s->view = SCR_VIEW_MAIN;
		return true;
	case 'a':
		s->show_idle = !s->show_idle;
		return true;
	case 'h':
	case '?':
		s->view = SCR_VIEW_HELP;
		return true;
	}
	return false;
}

void screen_cgroups_free(struct screen *s)
{
	cgview_free(&s->cgv);
}
