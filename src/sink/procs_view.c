/*
 * procs_view.c - the -P batch table of the rows procs_rank (procs.c)
 * chooses, its sink, and the labels of a row's kind and wait.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/figure.h"
#include "sink/procs_view.h"
#include "sink/sink.h"

/* ---- labels ---- */

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* ---- batch text ---- */

static void procs_view_print_summary(FILE *out, const struct procs_summary *s)
{
	fprintf(out, "procs %zu tasks:", s->ntasks);
	if (s->status == RATE_OK)
		fprintf(out, " %zu writing %.1f kB/s (bo %.1f kB/s),", s->nwriting, s->write_kbps,
			s->bo_kbps < 0 ? 0.0 : s->bo_kbps);
	else
		fputs(" first process sample, rates from the next interval,", out);
	fprintf(out, " %zu throttled%s, %zu in D state", s->nthrottled,
		s->traced ? "" : " (a guess from wchan)", s->ndstate);
	if (s->nwait_unknown)
		fprintf(out, " (%zu waiting where wchan is unreadable)", s->nwait_unknown);
	if (s->status == RATE_OK)
		fprintf(out, ", kswapd %.1f%% cpu, flushers %.1f%% cpu, %zu new, %zu exited",
			s->kswapd_cpu_pct, s->flusher_cpu_pct, s->nnew, s->ngone);
	if (s->nhidden)
		fprintf(out, ", %zu hidden (/proc/PID/io unreadable: not root)", s->nhidden);
	if (s->nomitted)
		fprintf(out, ", %zu more not shown", s->nomitted);
	fputc('\n', out);
}

/* One cell of -P: the registry row's value, "-" where there is none. */
static void procs_view_print_cell(FILE *out, const struct fig_proc *f, const struct proc_row *r, bool first)
{
	char text[64] = "";
	double v = 0;
	enum fig_proc_have have = f->get(r, &v, text, sizeof text);
	const char *sep = first ? "" : " ";
	if (f->form != FIG_PROC_TEXT && have == FIG_PROC_OK) {
		fprintf(out, "%s%*.1f", sep, f->width, v);
		return;
	}
	const char *word = have == FIG_PROC_HIDDEN ? "hidden" : have == FIG_PROC_NONE ? "-" : text;
	if (f->width == 0)
		fprintf(out, "%s%s", sep, word);
	else
		fprintf(out, "%s%*s", sep, f->width, word);	/* a negative width aligns left */
}

/* The trace's columns only when the sample has it: text from a source
 * without it stays as it was. */
static void procs_view_print_row(FILE *out, const struct proc_row *r, bool traced)
{
	for (size_t k = 0; k < fig_nproc; k++)
		if (traced || !fig_proc_table[k].traced)
			procs_view_print_cell(out, &fig_proc_table[k], r, k == 0);
	fputc('\n', out);
}

static void procs_view_print_header(FILE *out, bool traced)
{
	for (size_t k = 0; k < fig_nproc; k++) {
		const struct fig_proc *f = &fig_proc_table[k];
		if (f->traced && !traced)
			continue;
		if (f->width == 0)
			fprintf(out, "%s%s", k ? " " : "", f->title);
		else
			fprintf(out, "%s%*s", k ? " " : "", f->width, f->title);
	}
	fputc('\n', out);
}

int procs_view_print_batch(FILE *out, const struct procs_summary *sum, const struct proc_row *rows, size_t n)
{
	procs_view_print_summary(out, sum);
	procs_view_print_header(out, sum->traced);
	for (size_t i = 0; i < n; i++)
		procs_view_print_row(out, &rows[i], sum->traced);
	fputc('\n', out);
	if (fflush(out) == EOF || ferror(out))
		return errno ? -errno : -EIO;
	return 0;
}

/* ---- the -P sink ---------------------------------------------------------- */

/* After the device table of each interval: the process table. */
static int procs_view_sink_frame(struct sink *s, const struct frame *f)
{
	struct sink_stream *st = s->impl;
	if (!f->prev)
		return 0;
	struct proc_row rows[PROCS_BATCH_ROWS];
	struct procs_summary sum;
	size_t n = procs_rank(f->prev, f->cur, f->sys.dt_s, rows, PROCS_BATCH_ROWS, &sum);
	int rc = procs_view_print_batch(st->out, &sum, rows, n);
	if (rc < 0)
		snprintf(s->errmsg, sizeof s->errmsg, "%s: %s", st->name, strerror(-rc));
	return rc;
}

static const struct sink_ops procs_sink_ops = {
	.kind = "procs", .frame = procs_view_sink_frame, .close = sink_stream_close,
};

struct sink *procs_view_sink_new(FILE *out, const char *out_name)
{
	return sink_stream_new(&procs_sink_ops, out, out_name);
}

