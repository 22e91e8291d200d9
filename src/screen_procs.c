/*
 * screen_procs.c - the process pane (p): who writes, who is held back by
 * the dirty limits, and the kernel's writeback threads, in place of the
 * throughput graph.
 *
 * The rows and totals are procs_view's (procs_view.h), from the frame's two
 * snapshots; this file only lays them out.  The loop samples processes
 * while the pane is open (a sample of them costs about 2 ms per 100
 * processes); a replay shows the processes its recording holds, if any.
 * Throttling is read from where a task sleeps (wchan): best effort, and the
 * pane says so.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "screen_priv.h"

/* One column of the table.  Columns with a level above 0 are added, in
 * level order, when the terminal is wide enough; the command takes the
 * rest of the row. */
struct scr_pcol {
	const char *title;
	int width;		/* including the space before it */
	bool left;		/* left-aligned text */
	int level;
	void (*fmt)(const struct proc_row *r, char *buf, size_t len);
};

#define SCR_PCMD_MIN 24	/* "kworker/u8:2+flush-254:0" */

static bool scr_p_rates(const struct proc_row *r)
{
	return r->status == RATE_OK && !r->io_hidden;
}

static void scr_p_pid(const struct proc_row *r, char *b, size_t n)
{
	snprintf(b, n, "%" PRId32, r->pid);
}

static void scr_p_state(const struct proc_row *r, char *b, size_t n)
{
	snprintf(b, n, "%c", r->state ? r->state : '?');
}

static void scr_p_kbps(const struct proc_row *r, double kbps, char *b, size_t n)
{
	if (r->io_hidden)
		snprintf(b, n, "hidden");
	else if (r->status != RATE_OK)
		snprintf(b, n, "-");
	else
		screen_fmt_kb(kbps, b, n);
}

static void scr_p_write(const struct proc_row *r, char *b, size_t n)
{
	scr_p_kbps(r, r->write_kbps, b, n);
}

static void scr_p_cancel(const struct proc_row *r, char *b, size_t n)
{
	scr_p_kbps(r, r->cancelled_kbps, b, n);
}

static void scr_p_share(const struct proc_row *r, char *b, size_t n)
{
	if (!scr_p_rates(r) || r->share_pct < 0)
		snprintf(b, n, "-");
	else
		screen_fmt_num(r->share_pct, 6, 1, b, n);
}

static void scr_p_cpu(const struct proc_row *r, char *b, size_t n)
{
	if (r->status != RATE_OK)
		snprintf(b, n, "-");
	else
		screen_fmt_num(r->cpu_pct, 5, 1, b, n);
}

/* "yes", or "?" when the task is in D state but will not say where. */
static void scr_p_thr(const struct proc_row *r, char *b, size_t n)
{
	snprintf(b, n, "%s", r->throttled ? "yes" : r->wait == PROCS_WAIT_UNKNOWN ? "?" : "");
}

static void scr_p_wait(const struct proc_row *r, char *b, size_t n)
{
	snprintf(b, n, "%s", r->wait == PROCS_WAIT_NONE ? "" : procs_wait_name(r->wait));
}

static void scr_p_dev(const struct proc_row *r, char *b, size_t n)
{
	snprintf(b, n, "%s", r->kind == PROCS_KIND_FLUSHER ? r->flush_dev : "");
}

static void scr_p_kind(const struct proc_row *r, char *b, size_t n)
{
	snprintf(b, n, "%s", procs_kind_name(r->kind));
}

static void scr_p_wchan(const struct proc_row *r, char *b, size_t n)
{
	snprintf(b, n, "%s", r->wchan);
}

static const struct scr_pcol scr_pcols[] = {
	{ "PID", 7, false, 0, scr_p_pid },
	{ "S", 2, false, 0, scr_p_state },
	{ "write/s", 8, false, 0, scr_p_write },
	{ "share%", 7, false, 0, scr_p_share },
	{ "cpu%", 6, false, 0, scr_p_cpu },
	{ "thr", 4, true, 0, scr_p_thr },
	{ "wait", 12, true, 0, scr_p_wait },
	{ "dev", 9, true, 0, scr_p_dev },
	{ "kind", 8, true, 1, scr_p_kind },
	{ "wchan", 25, true, 2, scr_p_wchan },
	{ "cancel/s", 9, false, 3, scr_p_cancel },
};
#define SCR_NPCOLS (sizeof scr_pcols / sizeof scr_pcols[0])
#define SCR_PCOL_MAX_LEVEL 3

/* The columns that fit width, leaving the command its minimum. */
static void scr_pcols_layout(int width, bool on[SCR_NPCOLS])
{
	int used = 0;
	for (size_t c = 0; c < SCR_NPCOLS; c++) {
		on[c] = scr_pcols[c].level == 0;
		used += on[c] ? scr_pcols[c].width : 0;
	}
	for (int level = 1; level <= SCR_PCOL_MAX_LEVEL; level++)
		for (size_t c = 0; c < SCR_NPCOLS; c++)
			if (scr_pcols[c].level == level && used + scr_pcols[c].width + 1 + SCR_PCMD_MIN <= width) {
				on[c] = true;
				used += scr_pcols[c].width;
			}
}

void scr_procs_free(struct screen *s)
{
	free(s->prows);
	s->prows = NULL;
	s->nprows = s->cap_prows = 0;
}

void scr_procs_update(struct screen *s, int rows)
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
	s->nprows = procs_view_build(s->f->prev, s->f->cur, s->f->sys.dt_s, s->prows, want, &s->psum);
}

void scr_procs_summary_field(struct screen *s, struct scr_line *ln)
{
	if (!s->procs_open || !s->have_psum)
		return;
	char b[24];
	snprintf(b, sizeof b, "%zu", s->psum.nthrottled);
	scr_field(s, ln, "thr", s->psum.nthrottled ? SCR_WARN : SCR_NORMAL, b);
}

/* The pane's first row below the rule: the totals over all processes. */
static void scr_procs_totals(struct screen *s, int y)
{
	const struct procs_summary *p = &s->psum;
	struct scr_line ln = { y, 0, COLS };
	char a[32], b[32], c[48];
	snprintf(a, sizeof a, "%zu", p->ntasks);
	scr_field(s, &ln, "tasks", SCR_NORMAL, a);
	/* first: it explains the zeros after it, and a narrow line drops the tail */
	if (p->nhidden) {
		snprintf(a, sizeof a, "%zu (not root)", p->nhidden);
		scr_field(s, &ln, " hidden", SCR_WARN, a);
	}
	if (p->status == RATE_OK) {
		snprintf(c, sizeof c, "%zu at %s/s", p->nwriting, screen_fmt_kb(p->write_kbps, a, sizeof a));
		scr_field(s, &ln, " writing", SCR_NORMAL, c);
		snprintf(c, sizeof c, "%s/s", p->bo_kbps < 0 ? "-" : screen_fmt_kb(p->bo_kbps, b, sizeof b));
		scr_field(s, &ln, " bo", SCR_NORMAL, c);
	} else {
		scr_add(s, &ln, SCR_DIM, "  first process sample: rates from the next interval");
	}
	snprintf(c, sizeof c, "%zu (wchan, best effort)", p->nthrottled);
	scr_field(s, &ln, " throttled", p->nthrottled ? SCR_WARN : SCR_NORMAL, c);
	snprintf(a, sizeof a, "%zu", p->ndstate);
	scr_field(s, &ln, " D", SCR_NORMAL, a);
	if (p->status == RATE_OK) {
		snprintf(a, sizeof a, "%.0f%%", p->flusher_cpu_pct);
		scr_field(s, &ln, " flushers cpu", SCR_NORMAL, a);
		snprintf(a, sizeof a, "%.0f%%", p->kswapd_cpu_pct);
		scr_field(s, &ln, " kswapd cpu", SCR_NORMAL, a);
	}
	if (p->nwait_unknown) {
		snprintf(a, sizeof a, "%zu", p->nwait_unknown);
		scr_field(s, &ln, " wait unknown", SCR_WARN, a);
	}
	if (p->nomitted) {
		snprintf(a, sizeof a, "%zu", p->nomitted);
		scr_field(s, &ln, " not shown", SCR_DIM, a);
	}
}

static void scr_procs_header(struct screen *s, int y, const bool on[SCR_NPCOLS])
{
	struct scr_line ln = { y, 0, COLS };
	attr_t a = scr_attr(s, SCR_HEADER);
	attron(a);
	mvhline(y, 0, ' ', COLS);
	attroff(a);
	for (size_t c = 0; c < SCR_NPCOLS; c++)
		if (on[c])
			scr_addf(s, &ln, SCR_HEADER, scr_pcols[c].left ? " %-*s" : "%*s",
				 scr_pcols[c].left ? scr_pcols[c].width - 1 : scr_pcols[c].width,
				 scr_pcols[c].title);
	scr_add(s, &ln, SCR_HEADER, " command");
}

static enum scr_role scr_procs_role(const struct proc_row *r)
{
	if (r->throttled)
		return SCR_WARN;
	if (r->status != RATE_OK)
		return SCR_DIM;
	return r->kind == PROCS_KIND_FLUSHER || r->kind == PROCS_KIND_KSWAPD ? SCR_LABEL : SCR_NORMAL;
}

static void scr_procs_row(struct screen *s, int y, const struct proc_row *r, const bool on[SCR_NPCOLS])
{
	struct scr_line ln = { y, 0, COLS };
	enum scr_role role = scr_procs_role(r);
	char v[64];
	for (size_t c = 0; c < SCR_NPCOLS; c++) {
		if (!on[c])
			continue;
		const struct scr_pcol *col = &scr_pcols[c];
		col->fmt(r, v, sizeof v);
		if (col->left)
			scr_addf(s, &ln, role, " %-*.*s", col->width - 1, col->width - 1, v);
		else
			scr_addf(s, &ln, role, "%*s", col->width, v);
	}
	/* Names come from the processes: anything unprintable would break the row. */
	char cmd[sizeof r->comm];
	snprintf(cmd, sizeof cmd, "%s", r->comm);
	for (char *p = cmd; *p; p++)
		if ((unsigned char)*p < 32 || (unsigned char)*p > 126)
			*p = '?';
	scr_add(s, &ln, role, " ");
	scr_add(s, &ln, role, cmd);
}

static void scr_procs_none(struct screen *s, int y)
{
	const char *why = scr_is_replay(s) ? "this recording holds no process samples (recordings "
					     "keep devices, system figures and knobs)"
			  : !s->st.procs_sampled ? "processes cannot be sampled (out of memory)"
			  : "sampling processes: the first figures come with the next interval...";
	scr_wrap(s, y, 2, SCR_DIM, why, 2);
}

void scr_draw_procs(struct screen *s, int y, int rows)
{
	scr_draw_rule(s, y, "processes (p: close)   thr: held by the dirty limits or the block layer");
	if (rows < 2)
		return;
	if (!s->have_psum) {
		scr_procs_none(s, y + 1);
		return;
	}
	scr_procs_totals(s, y + 1);
	if (rows < 3)
		return;
	bool on[SCR_NPCOLS];
	scr_pcols_layout(COLS, on);
	scr_procs_header(s, y + 2, on);
	for (size_t i = 0; i < s->nprows && (int)i < rows - 3; i++)
		scr_procs_row(s, y + 3 + (int)i, &s->prows[i], on);
	if (!s->nprows) {
		struct scr_line ln = { y + 3, 0, COLS };
		scr_add(s, &ln, SCR_DIM, "  no process wrote or waited in D state in this interval");
	}
}
