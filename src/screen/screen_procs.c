/*
 * screen_procs.c - the process pane (p): who writes, who is held back by
 * the dirty limits, and the kernel's writeback threads, in place of the
 * throughput graph.  The rows and totals are procs_rank's (procs.h); this
 * file only lays them out (doc/screen.md, "Inside").
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "screen/screen_calc.h"
#include "screen_paint.h"
#include "screen_procs.h"
#include "screen_title.h"

#define SCR_PCMD_MIN 24	/* "kworker/u8:2+flush-254:0" */
#define SCR_PCOLS_MAX 16

/* The pane's columns (figure.h: the process rows with a screen title), in
 * pane order; columns with a level above 0 are added, in level order, when
 * the terminal is wide enough; the command takes the rest of the row. */
static size_t screen_procs_cols(const struct fig_proc **cols)
{
	return figure_proc_screen_cols(cols, SCR_PCOLS_MAX);
}

/* One cell as the pane shows it: rates with units, "-" for no number,
 * nothing for no word. */
static void screen_procs_cell(const struct fig_proc *f, const struct proc_row *r, char *b, size_t n)
{
	double v = 0;
	enum fig_proc_have have = f->get(r, &v, b, n);
	if (have == FIG_PROC_HIDDEN)
		snprintf(b, n, "hidden");
	else if (have == FIG_PROC_NONE)
		snprintf(b, n, "%s", f->form == FIG_PROC_TEXT ? "" : "-");
	else if (f->form == FIG_PROC_KBPS)
		screen_calc_fmt_kb(v, b, n);
	else if (f->form == FIG_PROC_PCT)
		screen_calc_fmt_num(v, f->screen.width - 1, 1, b, n);
	else if (f->form == FIG_PROC_NUM)
		screen_calc_fmt_num(v, f->screen.width - 1, 0, b, n);
}

/* The columns that fit width, leaving the command its minimum; the trace's
 * only when the frame has it. */
static void screen_procs_cols_layout(int width, bool traced, const struct fig_proc **cols, size_t n,
			     bool on[SCR_PCOLS_MAX])
{
	int used = 0, max_level = 0;
	for (size_t c = 0; c < n; c++) {
		on[c] = cols[c]->screen.level == 0;
		used += on[c] ? cols[c]->screen.width : 0;
		max_level = cols[c]->screen.level > max_level ? cols[c]->screen.level : max_level;
	}
	for (int level = 1; level <= max_level; level++)
		for (size_t c = 0; c < n; c++)
			if (cols[c]->screen.level == level && (traced || !cols[c]->traced) &&
			    used + cols[c]->screen.width + 1 + SCR_PCMD_MIN <= width) {
				on[c] = true;
				used += cols[c]->screen.width;
			}
}

void screen_procs_free(struct screen *s)
{
	free(s->prows);
	s->prows = NULL;
	s->nprows = s->cap_prows = 0;
}

void screen_procs_update(struct screen *s, int rows)
{
	s->nprows = 0;
	s->have_psum = s->f && s->f->cur->nproc > 0;
	if (!s->have_psum)
		return;
	size_t want = rows > 0 ? (size_t)rows : 0;
	if (want > s->cap_prows) {
		struct proc_row *p = realloc(s->prows, want * sizeof *p);
		if (p) {
			s->prows = p;
			s->cap_prows = want;
		}
	}
	if (want > s->cap_prows)
		want = s->cap_prows;	/* out of memory: fewer rows, the totals still right */
	s->nprows = procs_rank(s->f->prev, s->f->cur, s->f->sys.dt_s, s->prows, want, &s->psum);
}

void screen_procs_summary_field(struct screen *s, struct scr_line *ln)
{
	if (!s->procs_open || !s->have_psum)
		return;
	char b[24];
	snprintf(b, sizeof b, "%zu", s->psum.nthrottled);
	screen_paint_field(s, ln, "thr", s->psum.nthrottled ? SCR_WARN : SCR_NORMAL, b);
}

/* The pane's first row below the rule: the totals over all processes. */
static void screen_procs_totals(struct screen *s, int y)
{
	const struct procs_summary *p = &s->psum;
	struct scr_line ln = { y, 0, COLS };
	char a[32], b[32], c[48];
	snprintf(a, sizeof a, "%zu", p->ntasks);
	screen_paint_field(s, &ln, "tasks", SCR_NORMAL, a);
	/* first: it explains the zeros after it, and a narrow line drops the tail */
	if (p->nhidden) {
		snprintf(a, sizeof a, "%zu (not root)", p->nhidden);
		screen_paint_field(s, &ln, " hidden", SCR_WARN, a);
	}
	if (p->status == RATE_OK) {
		snprintf(c, sizeof c, "%zu at %s/s", p->nwriting, screen_calc_fmt_kb(p->write_kbps, a, sizeof a));
		screen_paint_field(s, &ln, " writing", SCR_NORMAL, c);
		snprintf(c, sizeof c, "%s/s", p->bo_kbps < 0 ? "-" : screen_calc_fmt_kb(p->bo_kbps, b, sizeof b));
		screen_paint_field(s, &ln, " bo", SCR_NORMAL, c);
	} else {
		screen_paint_add(s, &ln, SCR_DIM, "  first process sample: rates from the next interval");
	}
	snprintf(c, sizeof c, p->traced ? "%zu (trace)" : "%zu (wchan, best effort)", p->nthrottled);
	screen_paint_field(s, &ln, " throttled", p->nthrottled ? SCR_WARN : SCR_NORMAL, c);
	snprintf(a, sizeof a, "%zu", p->ndstate);
	screen_paint_field(s, &ln, " D", SCR_NORMAL, a);
	if (p->status == RATE_OK) {
		snprintf(a, sizeof a, "%.0f%%", p->flusher_cpu_pct);
		screen_paint_field(s, &ln, " flushers cpu", SCR_NORMAL, a);
		snprintf(a, sizeof a, "%.0f%%", p->kswapd_cpu_pct);
		screen_paint_field(s, &ln, " kswapd cpu", SCR_NORMAL, a);
	}
	if (p->nwait_unknown) {
		snprintf(a, sizeof a, "%zu", p->nwait_unknown);
		screen_paint_field(s, &ln, " wait unknown", SCR_WARN, a);
	}
	if (p->nomitted) {
		snprintf(a, sizeof a, "%zu", p->nomitted);
		screen_paint_field(s, &ln, " not shown", SCR_DIM, a);
	}
}

static void screen_procs_header(struct screen *s, int y, const struct fig_proc **cols, size_t n,
			     const bool on[SCR_PCOLS_MAX])
{
	struct scr_line ln = { y, 0, COLS };
	attr_t a = screen_paint_attr(s, SCR_HEADER);
	attron(a);
	mvhline(y, 0, ' ', COLS);
	attroff(a);
	for (size_t c = 0; c < n; c++)
		if (on[c])
			screen_paint_addf(s, &ln, SCR_HEADER, cols[c]->screen.left ? " %-*s" : "%*s",
				 cols[c]->screen.left ? cols[c]->screen.width - 1 : cols[c]->screen.width,
				 cols[c]->screen.title);
	screen_paint_add(s, &ln, SCR_HEADER, " command");
}

static enum scr_role screen_procs_role(const struct proc_row *r)
{
	if (r->throttled)
		return SCR_WARN;
	if (r->status != RATE_OK)
		return SCR_DIM;
	return r->kind == PROCS_KIND_FLUSHER || r->kind == PROCS_KIND_KSWAPD ? SCR_LABEL : SCR_NORMAL;
}

static void screen_procs_row(struct screen *s, int y, const struct proc_row *r, const struct fig_proc **cols,
			  size_t n, const bool on[SCR_PCOLS_MAX])
{
	struct scr_line ln = { y, 0, COLS };
	enum scr_role role = screen_procs_role(r);
	char v[64];
	for (size_t c = 0; c < n; c++) {
		if (!on[c])
			continue;
		int w = cols[c]->screen.width;
		screen_procs_cell(cols[c], r, v, sizeof v);
		if (cols[c]->screen.left)
			screen_paint_addf(s, &ln, role, " %-*.*s", w - 1, w - 1, v);
		else
			screen_paint_addf(s, &ln, role, "%*s", w, v);
	}
	/* Names come from the processes: anything unprintable would break the row. */
	char cmd[sizeof r->cmdline + 16];
	procs_row_command(r, cmd, sizeof cmd);
	for (char *p = cmd; *p; p++)
		if ((unsigned char)*p < 32 || (unsigned char)*p > 126)
			*p = '?';
	screen_paint_add(s, &ln, role, " ");
	screen_paint_add(s, &ln, role, cmd);
}

static void screen_procs_none(struct screen *s, int y)
{
	const char *why = screen_title_is_replay(s) ? "this recording holds no process samples (recordings "
					     "keep devices, system figures and knobs)"
			  : !s->st.procs_sampled ? "processes cannot be sampled (out of memory)"
			  : "sampling processes: the first figures come with the next interval...";
	screen_paint_wrap(s, y, 2, SCR_DIM, why, 2);
}

void screen_procs_draw(struct screen *s, int y, int rows)
{
	screen_paint_rule(s, y, s->have_psum && s->psum.traced
		      ? "processes (p: close)   thr: paused in balance_dirty_pages   ms/s, held: how long, on which device"
		      : "processes (p: close)   thr: held by the dirty limits or the block layer");
	if (rows < 2)
		return;
	if (!s->have_psum) {
		screen_procs_none(s, y + 1);
		return;
	}
	screen_procs_totals(s, y + 1);
	if (rows < 3)
		return;
	const struct fig_proc *cols[SCR_PCOLS_MAX];
	size_t n = screen_procs_cols(cols);
	bool on[SCR_PCOLS_MAX];
	screen_procs_cols_layout(COLS, s->psum.traced, cols, n, on);
	screen_procs_header(s, y + 2, cols, n, on);
	for (size_t i = 0; i < s->nprows && (int)i < rows - 3; i++)
		screen_procs_row(s, y + 3 + (int)i, &s->prows[i], cols, n, on);
	if (!s->nprows) {
		struct scr_line ln = { y + 3, 0, COLS };
		screen_paint_add(s, &ln, SCR_DIM, "  no process wrote or waited in D state in this interval");
	}
}
