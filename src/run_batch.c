/*
 * run_batch.c - batch mode: sample (or replay), derive, detect, print and
 * record, until -n intervals have been printed, the replay ends or a
 * signal arrives.
 *
 * The first sample is only a baseline (iostat -y): every printed line is a
 * real interval, never a since-boot average.  A replay (-r) prints exactly
 * what the live run printed: the same snapshots, the dip marks the live run
 * recorded.  A recording (-w) that fails stops with one message; the
 * output goes on.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "openmetrics.h"
#include "rec.h"
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
	struct batch *sel;	/* --devices for json and openmetrics */
	FILE *out;
	bool live;
	struct rec_writer *rec;	/* -w, NULL when not recording (or stopped) */
	bool rec_failed;	/* the recording stopped on an error: exit status 1 */
};

static void batch_run_close(struct batch_run *r)
{
	rec_writer_close(r->rec, NULL, 0);
	batch_free(r->text);
	batch_free(r->sel);
	pipeline_free(r->pipe);
	source_close(r->src);
	if (r->out && r->out != stdout)
		fclose(r->out);
}

/* Close the recording; a failure to finish it is worth a message (its
 * samples so far are safe: each was committed). */
static int batch_run_close_rec(struct batch_run *r)
{
	char err[512] = "";
	int rc = rec_writer_close(r->rec, err, sizeof err);
	r->rec = NULL;
	if (rc < 0) {
		fprintf(stderr, "wbtop: %s\n", err[0] ? err : strerror(-rc));
		return 1;
	}
	return 0;
}

static int batch_run_open_source(struct batch_run *r, const struct opts *o, char *err, size_t errlen)
{
	if (!o->replay_path) {
		r->src = source_live_open(err, errlen);
		r->live = true;
		return r->src ? 0 : 1;
	}
	r->src = rec_replay_open(o->replay_path, false, err, errlen);
	if (!r->src)
		return 1;
	if ((o->begin || o->end) && rec_replay_limit(r->src, o->begin, o->end, err, errlen) < 0)
		return 2;
	return 0;
}

static int batch_run_open(struct batch_run *r, const struct opts *o)
{
	char err[256] = "";
	memset(r, 0, sizeof *r);
	r->o = o;
	r->out = stdout;
	/* openmetrics -o FILE: each exposition replaces FILE (om_write_file) */
	bool om_file = o->format == FMT_OPENMETRICS && o->output_path;
	if (o->output_path && !om_file && !(r->out = fopen(o->output_path, "we"))) {
		fprintf(stderr, "wbtop: %s: %s\n", o->output_path, strerror(errno));
		return 1;
	}
	/* Each interval is flushed whole (batch_print ends with fflush), so a
	 * pipe sees every line as soon as it is complete, as with line
	 * buffering, without a write() per device line. */
	setvbuf(r->out, NULL, _IOFBF, 1 << 16);
	int status = batch_run_open_source(r, o, err, sizeof err);
	if (status) {
		fprintf(stderr, "wbtop: %s\n", err);
		return status;
	}
	if (o->record_path && !(r->rec = rec_writer_open(o->record_path, err, sizeof err))) {
		fprintf(stderr, "wbtop: %s\n", err);
		return 1;
	}
	if (r->rec)
		rec_writer_set_sync(r->rec, o->rec_sync_ms);
	if (r->rec && o->case_name && rec_writer_set_meta(r->rec, "case", o->case_name) < 0) {
		fprintf(stderr, "wbtop: %s\n", rec_writer_errmsg(r->rec));
		return 1;
	}
	/* A replay delivers the processes it recorded. */
	int rc = o->procs && r->live ? source_live_sample_procs(r->src, true) : 0;
	if (rc < 0) {
		fprintf(stderr, "wbtop: -P: cannot sample processes: %s\n", strerror(-rc));
		return 1;
	}
	if (!o->quiet && o->format == FMT_TEXT && !(r->text = batch_new(r->out, o->all_devices, o->devices_regex, err, sizeof err))) {
		fprintf(stderr, "wbtop: %s\n", err);
		return 2;
	}
	if (o->format != FMT_TEXT && o->devices_regex &&
	    !(r->sel = batch_new(r->out, true, o->devices_regex, err, sizeof err))) {
		fprintf(stderr, "wbtop: %s\n", err);
		return 2;
	}
	if (!(r->pipe = pipeline_new(r->src, &o->dip))) {
		fprintf(stderr, "wbtop: out of memory\n");
		return 1;
	}
	return 0;
}

static bool batch_run_keep(const struct dev_counters *d, const void *arg)
{
	return batch_dev_selected(arg, d);
}

/* One OpenMetrics exposition: to the stream, or replacing -o FILE.
 * -EEXIST: failed and already reported. */
static int batch_run_om(struct batch_run *r, const struct frame *f)
{
	char err[512];
	struct om_options oo = { OM_DIALECT_OPENMETRICS, NULL, NULL };
	if (r->sel) {
		oo.keep_dev = batch_run_keep;
		oo.keep_arg = r->sel;
	}
	if (!r->o->output_path)
		return om_write(r->out, f, &oo);
	if (om_write_file(r->o->output_path, f, &oo, err, sizeof err) < 0) {
		fprintf(stderr, "wbtop: %s\n", err);
		return -EEXIST;
	}
	return 0;
}

/* One JSON Lines object, the schema of --export json. */
static int batch_run_json(struct batch_run *r, const struct frame *f)
{
	struct wb_event ev[SNAP_NKNOBS];
	struct rec_marks m = { f->sys_dip, f->dev_dip, ev,
			       derive_knob_changes(f->prev, f->cur, ev, SNAP_NKNOBS) };
	int rc = rec_json_sample(r->out, f->cur, &f->sys, frame_dev_rates(f), &m);
	if (rc == 0 && fflush(r->out) == EOF)
		rc = errno ? -errno : -EIO;
	return rc;
}

/* Store one sample (the baseline too: a replay needs it).  A failing
 * recording stops with one message; the output goes on, and the exit
 * status says the recording is short. */
static void batch_run_record(struct batch_run *r, const struct frame *f)
{
	if (!r->rec || rec_writer_append(r->rec, f->cur, f->sys_dip, f->dev_dip) == 0)
		return;
	fprintf(stderr, "wbtop: %s\n", rec_writer_errmsg(r->rec));
	rec_writer_close(r->rec, NULL, 0);
	r->rec = NULL;
	r->rec_failed = true;
}

/* Once: a recording on a watched device adds its own writes and flushes
 * to that device's figures; say so on stderr (not in the output, which a
 * replay must reproduce byte for byte), unless -q. */
static void batch_run_self_note(struct batch_run *r, const struct frame *f)
{
	char note[512];
	if (r->rec && !r->o->quiet && rec_writer_watched_note(r->rec, f->cur, note, sizeof note))
		fprintf(stderr, "wbtop: note: %s\n", note);
}

/* A replay shows the marks the live run recorded, so that -r FILE -b
 * prints what the live run printed even from the middle of a recording
 * (--begin), where the detector would have no history. */
static void batch_run_recorded_marks(struct batch_run *r, struct frame *f)
{
	struct rec_marks m;
	if (r->live || rec_replay_marks(r->src, &m) < 0)
		return;
	f->sys_dip = m.sys_dip;
	if (m.dev_dips)
		f->dev_dip = m.dev_dips;
}

/* Print one frame; 0, or the exit status to stop with. */
static int batch_run_emit(struct batch_run *r, const struct frame *f)
{
	if (!r->o->quiet && (r->o->format == FMT_OPENMETRICS || r->o->format == FMT_JSON)) {
		int rc = r->o->format == FMT_JSON ? batch_run_json(r, f) : batch_run_om(r, f);
		if (rc == -EPIPE)
			return -1;	/* the reader went away: stop quietly */
		if (rc == -EEXIST)
			return 1;
		if (rc < 0) {
			fprintf(stderr, "wbtop: %s: %s\n",
				r->o->output_path ? r->o->output_path : "standard output", strerror(-rc));
			return 1;
		}
		return 0;
	}
	if (!r->text)
		return 0;
	struct wb_event ev[SNAP_NKNOBS];
	size_t nev = derive_knob_changes(f->prev, f->cur, ev, SNAP_NKNOBS);
	int rc = 0;
	for (size_t i = 0; i < nev && rc == 0; i++)
		rc = batch_print_event(r->text, &ev[i]);
	if (rc == 0)
		rc = batch_print(r->text, f->cur, &f->sys, frame_dev_rates(f), f->sys_dip, f->dev_dip);
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
		const struct frame *step;
		int rc = pipeline_step(r.pipe, &step);
		if (rc == 1)
			break;
		if (rc < 0) {
			fprintf(stderr, "wbtop: %s\n", r.src->errmsg[0] ? r.src->errmsg : strerror(-rc));
			status = 1;
			break;
		}
		struct frame frame = *step, *f = &frame;
		batch_run_recorded_marks(&r, f);
		batch_run_record(&r, f);
		if (first)
			batch_run_self_note(&r, f);
		if (r.rec_failed && o->quiet)
			break;	/* recording was all there was to do */
		/* counters need no baseline: openmetrics exports the first sample */
		if (!first || o->format == FMT_OPENMETRICS) {
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
	if (r.rec && batch_run_close_rec(&r) && status == 0)
		status = 1;
	if (r.rec_failed && status == 0)
		status = 1;
	batch_run_close(&r);
	return status;
}
