/*
 * run_batch.c - batch mode: open the source (live or a replay) and the
 * sinks the options ask for (text, JSON Lines or OpenMetrics, the -P
 * tables, the -w recorder), then hand every frame to every sink until -n
 * intervals are out, the replay ends or a signal arrives.  The first
 * sample is only a baseline (iostat -y); a replay prints what the live run
 * printed; a recording that fails stops with one message while the output
 * goes on (doc/design.md, "Batch output").
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sink/batch.h"
#include "core/control.h"
#include "sink/jsonl.h"
#include "run/feed.h"
#include "run/knob_cli.h"
#include "sink/openmetrics.h"
#include "core/pipeline.h"
#include "sink/procs_view.h"
#include "rec/rec.h"
#include "run/run.h"
#include "sink/sink.h"
#include "core/source.h"
#include "util/ticker.h"

struct run_batch {
	const struct opts *o;
	struct source *src;
	struct pipeline *pipe;
	struct batch *sel;	/* --devices for openmetrics */
	FILE *out;
	const char *out_name;	/* for messages */
	bool live;
	struct feed *feed;	/* the recorder first, then the outputs in the order they print */
	struct sink *pending[3];	/* the recorder and outputs, until the feed is made */
	size_t npending;
	struct rec_writer *rec_w;	/* -w's writer (owned by its sink): for the note on the first frame */
	bool rec_failed;	/* the recording stopped on an error: exit status 1 */
	struct control *ctl;	/* live with --set, --restore-on-exit or --revert-after */
	/* what is missing of the kernel loop, for stderr once the first frame is out: an output
	 * that cannot be written then ends wbtop with its one error line, not after a note */
	char kloop_note[256];
	/* a replay's devices that share a key, said once (the same way) */
	char shared_note[768];
};

static void run_batch_close(struct run_batch *r)
{
	feed_free(r->feed);
	for (size_t i = 0; i < r->npending; i++)
		sink_close(r->pending[i], NULL, 0);
	batch_free(r->sel);
	control_free(r->ctl);
	pipeline_free(r->pipe);
	source_close(r->src);
	if (r->out && r->out != stdout)
		fclose(r->out);
}

/* Close the recording; a failure to finish it is worth a message (its
 * samples so far are safe: each was committed). */
static int run_batch_close_rec(struct run_batch *r)
{
	char err[512] = "";
	int rc = feed_close_recorder(r->feed, err, sizeof err);
	if (rc < 0) {
		fprintf(stderr, "wbtop: %s\n", err[0] ? err : strerror(-rc));
		return 1;
	}
	return 0;
}

static int run_batch_open_source(struct run_batch *r, const struct opts *o, char *err, size_t errlen)
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

static bool run_batch_keep(const struct dev_counters *d, const void *arg)
{
	return batch_dev_selected(arg, d);
}

static int run_batch_add(struct run_batch *r, struct sink *s)
{
	if (!s) {
		fprintf(stderr, "wbtop: out of memory\n");
		return 1;
	}
	r->pending[r->npending++] = s;
	return 0;
}

/* Fractions of a second in the time column when the interval has them
 * (two blocks at -d 0.5 must not share a time).  A replay's interval is
 * the one its recording says it was asked for; in a recording that does
 * not say, its mean one, give or take 5% of its last decimal. */
static int run_batch_time_decimals(struct run_batch *r, const struct opts *o)
{
	if (r->live)
		return batch_time_decimals(o->delay_s, 0);
	char asked[32], err[256], *end;
	if (rec_meta_get(o->replay_path, "interval", asked, sizeof asked, err, sizeof err) == 0 && asked[0]) {
		double v = strtod(asked, &end);
		if (end != asked && !*end && v > 0)
			return batch_time_decimals(v, 0);
	}
	int64_t n = rec_replay_count(r->src);
	if (n < 2)
		return 0;
	int64_t w0 = rec_replay_wall_ns(r->src, 0), w1 = rec_replay_wall_ns(r->src, n - 1);
	if (w0 < 0 || w1 <= w0)
		return 0;
	return batch_time_decimals((double)(w1 - w0) / 1e9 / (double)(n - 1), 0.05);
}

/* Live with --set: the knobs are written before the first sample, so every
 * interval printed is of the knobs asked for. */
static int run_batch_open_control(struct run_batch *r, const struct opts *o)
{
	if (!r->live || !(o->nsets || o->restore_on_exit || o->revert_after_s > 0))
		return 0;
	struct control_config cc = { .read_only = o->read_only, .revert_after_s = o->revert_after_s,
				     .log_syslog = true };
	if (!(r->ctl = control_new(&cc))) {
		fprintf(stderr, "wbtop: out of memory\n");
		return 1;
	}
	return o->nsets ? knob_cli_apply_sets(r->ctl, o->sets, o->nsets, "--set", NULL) : 0;
}

/* The output sinks of the format: text and -P, JSON Lines, or OpenMetrics
 * (to the stream, or replacing -o FILE at every frame). */
static int run_batch_open_outputs(struct run_batch *r, const struct opts *o, char *err, size_t errlen)
{
	if (o->quiet)
		return 0;
	if (o->format == FMT_TEXT) {
		struct sink *s = batch_sink_new(r->out, r->out_name, o->all_devices, o->devices_regex, err, errlen);
		if (!s) {
			fprintf(stderr, "wbtop: %s\n", err);
			return 2;
		}
		r->pending[r->npending++] = s;
		batch_sink_set_time(s, run_batch_time_decimals(r, o), o->iso_time);
		return o->procs ? run_batch_add(r, procs_view_sink_new(r->out, r->out_name)) : 0;
	}
	if (o->format == FMT_JSON)
		return run_batch_add(r, jsonl_sink_new(r->out, r->out_name));
	if (o->devices_regex && !(r->sel = batch_new(r->out, true, o->devices_regex, err, errlen))) {
		fprintf(stderr, "wbtop: %s\n", err);
		return 2;
	}
	struct om_options oo = { .dialect = OM_DIALECT_OPENMETRICS, .keep_dev = r->sel ? run_batch_keep : NULL,
				 .keep_arg = r->sel };
	bool file = o->output_path != NULL;
	return run_batch_add(r, openmetrics_sink_new(file ? NULL : r->out,
						 file ? o->output_path : r->out_name, &oo));
}

/* The feed of the sinks made so far: the recorder (when rec), then the outputs. */
static int run_batch_open_feed(struct run_batch *r, bool rec)
{
	if (!(r->feed = feed_new(r->pipe, r->ctl))) {
		fprintf(stderr, "wbtop: out of memory\n");
		return 1;
	}
	size_t n = r->npending;
	r->npending = 0;	/* the feed closes them from now on, or feed_add did */
	for (size_t i = 0; i < n; i++)
		if (feed_add(r->feed, r->pending[i], rec && i == 0 ? FEED_RECORDER : FEED_OUTPUT) < 0) {
			while (++i < n)
				sink_close(r->pending[i], NULL, 0);
			fprintf(stderr, "wbtop: out of memory\n");
			return 1;
		}
	return 0;
}

static int run_batch_open(struct run_batch *r, const struct opts *o)
{
	char err[256] = "";
	memset(r, 0, sizeof *r);
	r->o = o;
	r->out = stdout;
	r->out_name = o->output_path ? o->output_path : "standard output";
	/* openmetrics -o FILE: each exposition replaces FILE (openmetrics_write_file) */
	bool om_file = o->format == FMT_OPENMETRICS && o->output_path;
	if (o->output_path && !om_file && !(r->out = fopen(o->output_path, "we"))) {
		fprintf(stderr, "wbtop: %s: %s\n", o->output_path, strerror(errno));
		return 1;
	}
	/* Each interval is flushed whole (the sinks end it with fflush), so a
	 * pipe sees every line as soon as it is complete, as with line
	 * buffering, without a write() per device line. */
	setvbuf(r->out, NULL, _IOFBF, 1 << 16);
	int status = run_batch_open_source(r, o, err, sizeof err);
	if (status) {
		fprintf(stderr, "wbtop: %s\n", err);
		return status;
	}
	struct rec_writer *w = NULL;
	if (o->record_path && !(w = rec_writer_open(o->record_path, err, sizeof err))) {
		fprintf(stderr, "wbtop: %s\n", err);
		return 1;
	}
	if (w)
		rec_writer_set_sync(w, o->rec_sync_ms);
	/* the interval asked for, so that a replay prints the times as this run does */
	char interval[32];
	snprintf(interval, sizeof interval, "%g", o->delay_s);
	if (w && ((o->case_name && rec_writer_set_meta(w, "case", o->case_name) < 0) ||
		  rec_writer_set_meta(w, "interval", interval) < 0)) {
		fprintf(stderr, "wbtop: %s\n", rec_writer_errmsg(w));
		rec_writer_close(w, NULL, 0);
		return 1;
	}
	if (w && !(r->pending[r->npending++] = rec_writer_sink(w))) {
		fprintf(stderr, "wbtop: out of memory\n");
		return 1;
	}
	r->rec_w = w;
	/* A replay delivers the processes it recorded (-ENOTSUP here). */
	int rc = o->procs ? source_sample_procs(r->src, true) : 0;
	if (rc < 0 && rc != -ENOTSUP) {
		fprintf(stderr, "wbtop: -P: cannot sample processes: %s\n", strerror(-rc));
		return 1;
	}
	/* What is missing of the kernel's writeback loop goes where the
	 * output's reader sees it: a comment line of the text, else stderr. */
	if (r->live && !o->no_kernel_trace) {
		(void)source_kernel_loop(r->src, true, err, sizeof err);
		if (err[0] && !o->quiet && o->format == FMT_TEXT)
			fprintf(r->out, "# kernel writeback loop: %s\n", err);
		else if (err[0] && !o->quiet)
			snprintf(r->kloop_note, sizeof r->kloop_note, "%s", err);
		err[0] = '\0';
	}
	/* A recording whose devices share a key (made before a stack's members
	 * were kept apart): both are replayed, each by its name; said once. */
	if (!r->live && !o->quiet &&
	    rec_replay_shared_keys(r->src, r->shared_note, sizeof r->shared_note) > 0 &&
	    o->format == FMT_TEXT) {
		fprintf(r->out, "# recording: %s\n", r->shared_note);
		r->shared_note[0] = '\0';
	}
	if ((status = run_batch_open_outputs(r, o, err, sizeof err)))
		return status;
	if (!(r->pipe = pipeline_new(r->src, &o->dip, pipeline_marks_rule(o->dip_given)))) {
		fprintf(stderr, "wbtop: out of memory\n");
		return 1;
	}
	/* the knobs last: nothing is written for a run that could not start */
	if ((status = run_batch_open_control(r, o)))
		return status;
	return run_batch_open_feed(r, w != NULL);
}

/* --restore-on-exit: the writes are events like any other (printed, and
 * recorded with one more sample, so a replay ends as the host was left).
 * 0, or 1 if a knob could not be put back. */
static int run_batch_restore(struct run_batch *r)
{
	int rc = control_revert_all_why(r->ctl, "--restore-on-exit");
	feed_events_now(r->feed);
	if (rc < 0)
		fprintf(stderr, "wbtop: --restore-on-exit: %s\n", strerror(-rc));
	return rc < 0;
}

/* Once: a recording on a watched device adds its own writes and flushes
 * to that device's figures; say so on stderr (not in the output, which a
 * replay must reproduce byte for byte), unless -q. */
static void run_batch_self_note(struct run_batch *r, const struct frame *f)
{
	char note[512];
	if (feed_recording(r->feed) && !r->o->quiet && rec_writer_watched_note(r->rec_w, f->cur, note, sizeof note))
		fprintf(stderr, "wbtop: note: %s\n", note);
}

/* The kernel loop's note on stderr, once the output has taken a frame. */
static void run_batch_kloop_note(struct run_batch *r)
{
	if (!r->kloop_note[0])
		return;
	fprintf(stderr, "wbtop: kernel writeback loop: %s\n", r->kloop_note);
	r->kloop_note[0] = '\0';
}

/* A replay's shared keys on stderr, once the output has taken a frame. */
static void run_batch_shared_note(struct run_batch *r)
{
	if (!r->shared_note[0])
		return;
	fprintf(stderr, "wbtop: note: %s\n", r->shared_note);
	r->shared_note[0] = '\0';
}

/* After a frame went to the sinks: a recording that failed stops with one message (the
 * output goes on, and the exit status says the recording is short); 0, or the exit status
 * an output's failure stops with (-1: the reader went away, stop quietly). */
static int run_batch_failures(struct run_batch *r)
{
	struct feed_failure e;
	int status = 0;
	while (feed_failed(r->feed, &e)) {
		if (e.role == FEED_RECORDER)
			r->rec_failed = true;
		else if (e.rc == -EPIPE && !status)
			status = -1;
		else if (!status)
			status = 1;
		if (e.rc != -EPIPE || e.role == FEED_RECORDER)
			fprintf(stderr, "wbtop: %s\n", e.msg);
	}
	return status;
}

int run_batch(const struct opts *o)
{
	struct run_batch r;
	/* Before the source opens: a signal between its tracefs instance's making and
	 * the loop must end the loop, which removes the instance, not wbtop. */
	ticker_install_signals();
	int status = run_batch_open(&r, o);
	if (status) {
		run_batch_close(&r);
		return status;
	}
	uint64_t step_ns = (uint64_t)(o->delay_s * 1e9);
	uint64_t start_ns = ticker_now_ns();
	long printed = 0;
	while (!ticker_stop_signal() && (o->count == 0 || printed < o->count)) {
		const struct frame *f;
		int rc = feed_step(r.feed, &f);
		if (rc == 1)
			break;
		if (rc < 0) {
			fprintf(stderr, "wbtop: %s\n", r.src->errmsg[0] ? r.src->errmsg : strerror(-rc));
			status = 1;
			break;
		}
		int e = run_batch_failures(&r);
		if (!f->prev)
			run_batch_self_note(&r, f);
		if (r.rec_failed && o->quiet)
			break;	/* recording was all there was to do */
		if (e) {
			status = e < 0 ? 0 : e;
			break;
		}
		run_batch_kloop_note(&r);
		run_batch_shared_note(&r);
		/* -n counts intervals; openmetrics exports the first sample too */
		if (f->prev || o->format == FMT_OPENMETRICS)
			printed++;
		if (r.ctl)	/* --revert-after: nobody confirms in batch mode */
			control_tick(r.ctl, ticker_now_ns());
		if (r.live && (o->count == 0 || printed < o->count) &&
		    !ticker_sleep_until(ticker_next_deadline(start_ns, step_ns, ticker_now_ns())))
			break;
	}
	if (r.ctl && o->restore_on_exit && control_nchanges(r.ctl) && run_batch_restore(&r) && status == 0)
		status = 1;
	if (feed_recording(r.feed) && run_batch_close_rec(&r) && status == 0)
		status = 1;
	if (r.rec_failed && status == 0)
		status = 1;
	run_batch_close(&r);
	return status;
}
