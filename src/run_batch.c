/*
 * run_batch.c - batch mode: sample, derive, detect, print, until -n
 * intervals have been printed or a signal arrives.
 *
 * The first sample is only a baseline (iostat -y): every printed line is a
 * real interval, never a since-boot average.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "pipeline.h"
#include "procs_view.h"
#include "run.h"
#include "source.h"
#include "ticker.h"

struct batch_run {
	const struct opts *o;
	struct source *src;
	struct pipeline *pipe;
	struct batch *text;
	FILE *out;
	bool live;
};

static void batch_run_close(struct batch_run *r)
{
	batch_free(r->text);
	pipeline_free(r->pipe);
	source_close(r->src);
	if (r->out && r->out != stdout)
		fclose(r->out);
}

static int batch_run_open(struct batch_run *r, const struct opts *o)
{
	char err[256] = "";
	memset(r, 0, sizeof *r);
	r->o = o;
	r->out = stdout;
	if (o->output_path && !(r->out = fopen(o->output_path, "we"))) {
		fprintf(stderr, "wbtop: %s: %s\n", o->output_path, strerror(errno));
		return 1;
	}
	setvbuf(r->out, NULL, _IOLBF, 0);
	r->src = source_live_open(err, sizeof err);
	r->live = true;
	if (!r->src) {
		fprintf(stderr, "wbtop: %s\n", err);
		return 1;
	}
	int rc = o->procs ? source_live_sample_procs(r->src, true) : 0;
	if (rc < 0) {
		fprintf(stderr, "wbtop: -P: cannot sample processes: %s\n", strerror(-rc));
		return 1;
	}
	if (!o->quiet && !(r->text = batch_new(r->out, o->all_devices, o->devices_regex, err, sizeof err))) {
		fprintf(stderr, "wbtop: %s\n", err);
		return 2;
	}
	if (!(r->pipe = pipeline_new(r->src, &o->dip))) {
		fprintf(stderr, "wbtop: out of memory\n");
		return 1;
	}
	return 0;
}

/* Print one frame; 0, or the exit status to stop with. */
static int batch_run_emit(struct batch_run *r, const struct frame *f)
{
	if (!r->text)
		return 0;
	struct wb_event ev[SNAP_NKNOBS];
	size_t nev = derive_knob_changes(f->prev, f->cur, ev, SNAP_NKNOBS);
	int rc = 0;
	for (size_t i = 0; i < nev && rc == 0; i++)
		rc = batch_print_event(r->text, &ev[i]);
	if (rc == 0)
		rc = batch_print(r->text, f->cur, &f->sys, f->dev, f->sys_dip, f->dev_dip);
	if (rc == 0 && r->o->procs) {
		struct proc_row rows[PROCS_BATCH_ROWS];
		struct procs_summary sum;
		size_t n = procs_view_build(f->prev, f->cur, f->sys.dt_s, rows, PROCS_BATCH_ROWS, &sum);
		rc = procs_print_batch(r->out, &sum, rows, n);
	}
	if (rc == -EPIPE)
		return -1;	/* the reader went away: stop quietly */
	if (rc < 0) {
		fprintf(stderr, "wbtop: %s: %s\n", r->o->output_path ? r->o->output_path : "standard output",
			strerror(-rc));
		return 1;
	}
	return 0;
}

int run_batch(const struct opts *o)
{
	struct batch_run r;
	int status = batch_run_open(&r, o);
	if (status) {
		batch_run_close(&r);
		return status;
	}
	ticker_install_signals();
	uint64_t step_ns = (uint64_t)(o->delay_s * 1e9);
	uint64_t start_ns = ticker_now_ns();
	long printed = 0;
	bool first = true;
	while (!ticker_stop_signal() && (o->count == 0 || printed < o->count)) {
		const struct frame *f;
		int rc = pipeline_step(r.pipe, &f);
		if (rc == 1)
			break;
		if (rc < 0) {
			fprintf(stderr, "wbtop: %s\n", r.src->errmsg[0] ? r.src->errmsg : strerror(-rc));
			status = 1;
			break;
		}
		if (!first) {
			int e = batch_run_emit(&r, f);
			if (e) {
				status = e < 0 ? 0 : e;
				break;
			}
			printed++;
		}
		first = false;
		if (r.live && (o->count == 0 || printed < o->count) &&
		    !ticker_sleep_until(ticker_next_deadline(start_ns, step_ns, ticker_now_ns())))
			break;
	}
	batch_run_close(&r);
	return status;
}
