/*
 * run_screen.c - the interactive monitor's loop: sample on the clock, feed
 * the history and the screen, and carry out what the screen asks (quit,
 * pause, interval, knob edits, the process pane, saving the history);
 * moving through a replay is run_screen_replay.c's.  What can fail with a
 * message fails before the screen takes the terminal; a later failure
 * gives the terminal back first, then prints one line.  Signals end the
 * loop through the ticker's stop flag, so screen_free() always restores it.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/ident.h"
#include "source/ident_probe.h"
#include "run/knob_cli.h"
#include "run/run.h"
#include "run_screen_priv.h"
#include "screen/screen_sink.h"
#include "run/settings.h"
#include "sink/sink.h"
#include "util/ticker.h"

/* Frames of history kept: the widest graph and sparkline, plus slack. */
#define RUN_SCREEN_HISTORY 1024
/* The first interval (from the baseline sample, taken at start) is short so
 * that rates appear at once (top does the same). */
#define RUN_SCREEN_FIRST_NS 250000000ull
/* Raw samples kept for "save history": an hour at the default interval,
 * and at most 64 MiB of device counters (192 bytes a device-sample: some
 * 350,000 device-samples, e.g. 1000 devices for 6 minutes). */
#define RUN_SCREEN_KEEP_SAMPLES 3600
#define RUN_SCREEN_KEEP_BYTES (64u << 20)

/* ---- opening and closing ---- */

static int run_screen_open_source(struct screen_run *r)
{
	const struct opts *o = r->o;
	if (!o->replay_path) {
		r->src = source_live_open(r->err, sizeof r->err);
		r->live = true;
		return r->src ? 0 : 1;
	}
	/* Followed: a recording still being written shows its new samples. */
	r->src = rec_replay_open(o->replay_path, true, r->err, sizeof r->err);
	if (!r->src)
		return 1;
	r->replay = true;
	if ((o->begin || o->end) && rec_replay_limit(r->src, o->begin, o->end, r->err, sizeof r->err) < 0)
		return 2;
	return 0;
}

static int run_screen_open(struct screen_run *r, const struct opts *o)
{
	memset(r, 0, sizeof *r);
	r->o = o;
	int status = run_screen_open_source(r);
	if (status)
		return status;
	if (!(r->pipe = pipeline_new(r->src, &o->dip, pipeline_marks_rule(o->dip_given))) ||
	    !(r->hist = history_new(RUN_SCREEN_HISTORY)) ||
	    !(r->ring = snapring_new(RUN_SCREEN_KEEP_SAMPLES,
				     RUN_SCREEN_KEEP_BYTES / sizeof(struct dev_counters))) ||
	    !(r->feed = feed_new(r->pipe, NULL)) ||
	    feed_add(r->feed, history_sink_new(r->hist), FEED_KEEPER) < 0 ||
	    feed_add(r->feed, snapring_sink_new(r->ring, true), FEED_KEEPER) < 0) {
		snprintf(r->err, sizeof r->err, "out of memory");
		return 1;
	}
	/* the ring keeps the pipeline's own snapshots as they are retired, not a copy of each */
	pipeline_on_refill(r->pipe, snapring_refill, r->ring);
	struct rec_writer *w = NULL;
	if (o->record_path && !(w = rec_writer_open(o->record_path, r->err, sizeof r->err)))
		return 1;
	if (w)
		rec_writer_set_sync(w, o->rec_sync_ms);
	/* the interval at the start, so that a batch replay prints times as -b would */
	char interval[32];
	snprintf(interval, sizeof interval, "%g", o->delay_s);
	if (w && ((o->case_name && rec_writer_set_meta(w, "case", o->case_name) < 0) ||
		  rec_writer_set_meta(w, "interval", interval) < 0)) {
		snprintf(r->err, sizeof r->err, "%s", rec_writer_errmsg(w));
		rec_writer_close(w, NULL, 0);
		return 1;
	}
	r->rec_w = w;
	if (w && feed_add(r->feed, rec_writer_sink(w), FEED_RECORDER) < 0) {
		snprintf(r->err, sizeof r->err, "out of memory");
		return 1;
	}
	if (r->live) {
		struct control_config cc = { .read_only = o->read_only, .revert_after_s = o->revert_after_s };
		if (!(r->ctl = control_new(&cc))) {
			snprintf(r->err, sizeof r->err, "out of memory");
			return 1;
		}
		feed_control(r->feed, r->ctl);
	}
	r->st.delay_s = o->delay_s;
	r->st.source_kind = r->src->ops->kind;
	r->st.source_label = o->replay_path;
	r->st.uptime_s = -1;
	r->st.revert_in_s = -1;
	r->st.recording = w != NULL;
	r->st.replay_speed = 1;
	r->step_ns = (uint64_t)(o->delay_s * 1e9);
	if (o->procs && source_sample_procs(r->src, true) == 0)
		r->st.procs_sampled = true;	/* -P: the pane open from the start */
	r->kernel_loop = r->live && !o->no_kernel_trace;
	return 0;
}

/* The kernel's writeback loop (a tracefs instance, debugfs), started once the first frame
 * is drawn: making the instance takes tens of milliseconds the first frame need not wait
 * for.  Said on the status line; without it the process pane's throttling is the wchan
 * guess, labelled so. */
static void run_screen_kernel_loop(struct screen_run *r)
{
	if (!r->kernel_loop)
		return;
	r->kernel_loop = false;
	(void)source_kernel_loop(r->src, true, r->kloop_why, sizeof r->kloop_why);
	if (r->kloop_why[0]) {
		screen_notice(r->scr, "kernel writeback loop: %s", r->kloop_why);
		screen_draw(r->scr);
	}
}

/* --restore-on-exit: the writes are events like any other, and one more
 * sample shows the knobs back, so a replay ends as the host was left. */
static void run_screen_restore(struct screen_run *r)
{
	int rc = control_revert_all_why(r->ctl, "--restore-on-exit");
	if (rc < 0)
		fprintf(stderr, "wbtop: --restore-on-exit: %s\n", strerror(-rc));
	feed_events_now(r->feed);
}

static void run_screen_close(struct screen_run *r)
{
	screen_free(r->scr);	/* the terminal first: anything printed after must show */
	r->scr = NULL;
	if (r->ctl && r->o->restore_on_exit && control_nchanges(r->ctl))
		run_screen_restore(r);
	if (r->feed && feed_close_recorder(r->feed, r->err, sizeof r->err) < 0)
		fprintf(stderr, "wbtop: %s\n", r->err);
	feed_free(r->feed);	/* the screen's sink too: its screen is gone */
	control_free(r->ctl);
	snapring_free(r->ring);
	history_free(r->hist);
	pipeline_free(r->pipe);
	source_close(r->src);
}

/* ---- samples ---- */

static double run_screen_uptime_s(void)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_BOOTTIME, &ts) < 0)
		return -1;
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* -w failed: the recording stops, the screen goes on. */
static void run_screen_failures(struct screen_run *r)
{
	struct feed_failure e;
	while (feed_failed(r->feed, &e))
		if (e.role == FEED_RECORDER) {
			if (r->scr)
				screen_notice(r->scr, "recording stopped: %s", e.msg);
			r->st.recording = false;
		}
}

static void run_screen_after_write(struct screen_run *r, const struct control_ref *ref, size_t nev,
				   int rc);

/* Take one sample.  false when the loop must stop (r->status says how). */
static bool run_screen_sample(struct screen_run *r)
{
	const struct frame *f;
	int rc = feed_step(r->feed, &f);
	run_screen_failures(r);
	if (rc < 0 && rc != -EAGAIN && !r->replay) {
		snprintf(r->err, sizeof r->err, "%s", r->src->errmsg[0] ? r->src->errmsg : strerror(-rc));
		r->status = 1;
		return false;
	}
	if (rc == 0 && !r->self_noted) {
		char note[512];
		r->self_noted = true;
		if (r->st.recording && rec_writer_watched_note(r->rec_w, f->cur, note, sizeof note))
			screen_notice(r->scr, "%s", note);
	}
	if (rc == 0)
		r->f = f;
	if (r->replay)
		run_screen_replay_after_step(r, rc);	/* the end, a recording still growing, a bad sample */
	if (rc != 0)
		return true;
	f = r->f;
	if (r->o->count && ++r->shown >= r->o->count)
		r->quit = true;	/* -n: as top, after the last one is drawn */
	if (r->live)
		r->st.uptime_s = run_screen_uptime_s();
	if (r->ctl) {
		size_t nev = control_nevents(r->ctl);
		size_t undone = control_tick(r->ctl, ticker_now_ns());
		if (undone) {
			run_screen_after_write(r, NULL, nev, 0);
			/* in place of the write's own line: the count says it all */
			screen_message(r->scr, "--revert-after: %zu unconfirmed change%s reverted", undone,
				       undone == 1 ? "" : "s");
		}
		r->st.revert_in_s = control_deadline_left_s(r->ctl, ticker_now_ns());
	}
	return true;
}

/* ---- the knob panel's requests (control does the work) ---- */

static void run_screen_list_knobs(struct screen_run *r)
{
	struct control_item items[CONTROL_SCOPE_MAX];
	struct screen_knobs k = { .items = items, .bdi = r->kref.bdi,
				  .major = r->kref.major, .minor = r->kref.minor };
	if (!r->ctl) {
		k.reason = "replaying a recording";
		screen_set_knobs(r->scr, &k);
		return;
	}
	k.can_write = control_can_write(r->ctl, &k.reason);
	k.nchanges = control_nchanges(r->ctl);
	if (!r->kref.bdi)
		k.n = control_list_vm(r->ctl, items);
	else if (control_list_bdi(r->ctl, r->kref.major, r->kref.minor, items, &k.n) < 0)
		k.n = 0;
	screen_set_knobs(r->scr, &k);
}

/* Several writes at once (U, --revert-after, --set): each knob in a few
 * words, "revert: vm.dirty_ratio 10 -> 20, vm.dirty_bytes 0 -> 0: all ok",
 * the full line of any that did not go through. */
static const char *run_screen_events_line(struct screen_run *r, size_t from, size_t to, char *buf,
					  size_t len)
{
	const struct wb_event *first = control_event(r->ctl, from);
	bool all_ok = true;
	size_t used = (size_t)snprintf(buf, len, "%s%s%zu writes: ", first->note, first->note[0] ? ", " : "",
				       to - from);
	for (size_t i = from; i < to && used < len; i++) {
		const struct wb_event *e = control_event(r->ctl, i);
		char one[256];
		if (e->result == 0)
			snprintf(one, sizeof one, "%s %" PRId64 " -> %" PRId64, e->knob, e->old_value, e->read_back);
		else
			control_rules_format_event(e, one, sizeof one);
		all_ok = all_ok && e->result == 0;
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i > from ? ", " : "", one);
	}
	if (used < len && all_ok)
		snprintf(buf + used, len - used, ": all ok");
	return buf;
}

/* After a write (nev: events before it): the event on the status line,
 * a mark on the graph, fresh BDI limits in the device's identity, a fresh
 * list in the panel.  A vm knob change is marked by the next sample, which
 * sees the new value (as it sees changes made by anyone else); BDI values
 * are not in the samples, so those are marked now. */
static void run_screen_after_write(struct screen_run *r, const struct control_ref *ref, size_t nev,
				   int rc)
{
	size_t n = control_nevents(r->ctl);
	char line[256];
	if (n > nev) {	/* the next frame carries them to the history and the recording */
		const struct wb_event *e = control_event(r->ctl, n - 1);
		if (n - nev == 1)
			screen_message(r->scr, "%s", control_rules_format_event(e, line, sizeof line));
		else
			screen_message(r->scr, "%s", run_screen_events_line(r, nev, n, line, sizeof line));
	} else if (rc < 0) {
		screen_message(r->scr, "%s", strerror(-rc));
	}
	r->st.revert_in_s = control_deadline_left_s(r->ctl, ticker_now_ns());
	if (!ref)
		ref = &r->kref;	/* undo and revert: most likely the scope on show */
	if (ref->bdi && source_idents(r->src))
		ident_probe_refresh_bdi(source_idents(r->src), ref->major, ref->minor);
	run_screen_list_knobs(r);
}

static void run_screen_knob_apply(struct screen_run *r, const struct screen_req *q)
{
	char why[256];
	int64_t value;
	int rc = control_preview(r->ctl, &q->ref, q->text, r->f ? r->f->cur : NULL, &value, why, sizeof why);
	if (rc < 0) {
		screen_message(r->scr, "%s", why);
		return;
	}
	size_t nev = control_nevents(r->ctl);
	rc = control_apply(r->ctl, &q->ref, value, r->f ? r->f->cur : NULL);
	run_screen_after_write(r, &q->ref, nev, rc);
}

static void run_screen_knob_req(struct screen_run *r, const struct screen_req *q)
{
	if (!r->ctl) {
		screen_message(r->scr, "knobs can't be changed while replaying a recording");
		return;
	}
	char why[256];
	int64_t value;
	size_t nev = control_nevents(r->ctl);
	int rc;
	switch (q->kind) {
	case SCREEN_REQ_KNOB_PREVIEW:
		rc = control_preview(r->ctl, &q->ref, q->text, r->f ? r->f->cur : NULL, &value, why, sizeof why);
		screen_set_preview(r->scr, rc, why);
		break;
	case SCREEN_REQ_KNOB_APPLY:
		run_screen_knob_apply(r, q);
		break;
	case SCREEN_REQ_KNOB_UNDO:
		rc = control_undo(r->ctl);
		if (rc == -ENOENT)
			screen_message(r->scr, "nothing to undo");
		else
			run_screen_after_write(r, NULL, nev, rc);
		break;
	case SCREEN_REQ_KNOB_REVERT_ALL:
		if (!control_nchanges(r->ctl)) {
			screen_message(r->scr, "no knob changes to revert");
			break;
		}
		rc = control_revert_all(r->ctl);
		run_screen_after_write(r, NULL, nev, rc);
		break;
	case SCREEN_REQ_KNOB_CONFIRM:
		control_confirm(r->ctl);
		r->st.revert_in_s = -1;
		screen_message(r->scr, "knob changes confirmed");
		break;
	default:
		break;
	}
}

/* ---- requests ---- */

/* W: what the screen shows now becomes the next start's default. */
static void run_screen_save_settings(struct screen_run *r)
{
	struct screen_view v;
	screen_get_view(r->scr, &v);
	struct settings st;
	settings_init(&st);
	char delay[32], dip[32], err[320];
	snprintf(delay, sizeof delay, "%g", r->st.delay_s);
	snprintf(dip, sizeof dip, "%g", r->o->dip.drop_pct);
	const char *kv[][2] = {
		{ "delay", delay }, { "sort", v.sort }, { "filter", v.filter },
		{ "show_idle", v.show_idle ? "yes" : "no" }, { "dip", dip },
		{ "layout", screen_calc_layout_name(v.procs_open) },
	};
	int rc = 0;
	for (size_t i = 0; i < sizeof kv / sizeof kv[0] && rc == 0; i++)
		rc = settings_set(&st, kv[i][0], kv[i][1], err, sizeof err);
	if (rc == 0)
		rc = settings_save(NULL, &st, err, sizeof err);
	char *path = settings_default_path();
	if (rc == 0)
		screen_message(r->scr, "settings saved to %s", path ? path : "the settings file");
	else
		screen_message(r->scr, "settings not saved: %s", err);
	free(path);
	settings_free(&st);
}

/* w: what the ring holds becomes a recording, so a dip seen live can be
 * kept after the fact. */
static void run_screen_save_history(struct screen_run *r, const char *path)
{
	size_t n = snapring_len(r->ring);
	if (n == 0) {
		screen_message(r->scr, "history not saved: no sample in memory yet");
		return;
	}
	struct rec_sample *v = malloc(n * sizeof *v);
	if (!v) {
		screen_message(r->scr, "history not saved: out of memory");
		return;
	}
	snapring_samples(r->ring, v);
	char err[320], a[16], b[16];
	int rc = rec_writer_save(path, v, n, err, sizeof err);
	if (rc < 0) {
		screen_message(r->scr, "history not saved: %s", err);
	} else {
		struct tm tm;
		time_t t0 = (time_t)(v[0].snap->wall_ns / 1000000000);
		time_t t1 = (time_t)(v[n - 1].snap->wall_ns / 1000000000);
		strftime(a, sizeof a, "%H:%M:%S", localtime_r(&t0, &tm));
		strftime(b, sizeof b, "%H:%M:%S", localtime_r(&t1, &tm));
		char cap[64] = "";
		if (snapring_capped(r->ring))
			snprintf(cap, sizeof cap, "; older ones did not fit in the %u MiB kept",
				 RUN_SCREEN_KEEP_BYTES >> 20);
		screen_message(r->scr, "saved %zu samples (%s to %s) to %s%s", n, a, b, path, cap);
	}
	free(v);
}

/* p: processes are sampled only while the pane is open (they cost about
 * 2 ms per 100 processes a sample); a replay shows what it recorded. */
static void run_screen_procs(struct screen_run *r, bool on)
{
	int rc = source_sample_procs(r->src, on);
	if (rc == -ENOTSUP)
		return;	/* a replay: the processes it recorded */
	if (rc < 0) {
		screen_message(r->scr, "processes cannot be sampled: %s", strerror(-rc));
		on = false;
	}
	r->st.procs_sampled = on;
}

static void run_screen_set_delay(struct screen_run *r, double s)
{
	r->st.delay_s = s;
	r->step_ns = (uint64_t)(s * 1e9);
	r->start_ns = ticker_now_ns();
	r->deadline_ns = r->start_ns + r->step_ns;
	screen_message(r->scr, "interval %gs", s);
}

static void run_screen_do(struct screen_run *r, const struct screen_req *q)
{
	switch (q->kind) {
	case SCREEN_REQ_NONE:
		break;
	case SCREEN_REQ_QUIT:
		r->quit = true;
		break;
	case SCREEN_REQ_PAUSE:
		r->st.paused = !r->st.paused;
		if (!r->st.paused) {	/* resume: sample now, then on the usual beat */
			r->start_ns = ticker_now_ns();
			r->deadline_ns = r->start_ns;
		}
		break;
	case SCREEN_REQ_DELAY:
		if (r->replay)
			screen_message(r->scr, "a replay keeps its recorded intervals: + and - change the speed");
		else
			run_screen_set_delay(r, q->value);
		break;
	case SCREEN_REQ_PROCS:
		run_screen_procs(r, q->value != 0);
		break;
	case SCREEN_REQ_SAVE_HISTORY:
		run_screen_save_history(r, q->text);
		break;
	case SCREEN_REQ_SAVE_SETTINGS:
		run_screen_save_settings(r);
		break;
	case SCREEN_REQ_KNOBS_OPEN:
		r->kref = q->ref;
		run_screen_list_knobs(r);
		break;
	case SCREEN_REQ_KNOB_PREVIEW:
	case SCREEN_REQ_KNOB_APPLY:
	case SCREEN_REQ_KNOB_UNDO:
	case SCREEN_REQ_KNOB_REVERT_ALL:
	case SCREEN_REQ_KNOB_CONFIRM:
		run_screen_knob_req(r, q);
		break;
	case SCREEN_REQ_STEP:
	case SCREEN_REQ_SEEK:
	case SCREEN_REQ_SEEK_START:
	case SCREEN_REQ_SEEK_END:
	case SCREEN_REQ_SEEK_TIME:
	case SCREEN_REQ_DIP:
	case SCREEN_REQ_KNOB_CHANGE:
	case SCREEN_REQ_SPEED:
		if (r->replay)
			run_screen_replay_req(r, q);
		else
			screen_message(r->scr, "only when replaying a recording (wbtop -r FILE)");
		break;
	}
	screen_state(r->scr, &r->st);
}

/* ---- the loop ---- */

/* Wait for a key or the deadline.  false if the terminal went away. */
static bool run_screen_wait(struct screen_run *r)
{
	int timeout_ms = -1;
	if (!r->st.paused && !r->ended) {
		uint64_t now = ticker_now_ns();
		timeout_ms = r->deadline_ns > now ? (int)((r->deadline_ns - now + 999999) / 1000000) : 0;
	}
	struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
	int n = poll(&p, 1, timeout_ms);
	if (n > 0 && (p.revents & (POLLHUP | POLLERR | POLLNVAL)) && !(p.revents & POLLIN))
		return false;
	return true;	/* a signal (EINTR) is seen by the caller through the ticker */
}

static void run_screen_keys(struct screen_run *r)
{
	struct screen_req q;
	while (!r->quit && screen_key(r->scr, &q))
		run_screen_do(r, &q);
}

static void run_screen_loop(struct screen_run *r)
{
	uint64_t now = ticker_now_ns();
	uint64_t first = r->step_ns < RUN_SCREEN_FIRST_NS ? r->step_ns : RUN_SCREEN_FIRST_NS;
	r->start_ns = now + first;
	/* The baseline sample was taken before the screen: the first frame
	 * shows it at once, the first rates come a short interval later; a
	 * replay keeps its recorded pace from the start. */
	if (!r->replay)
		r->deadline_ns = r->start_ns;
	screen_state(r->scr, &r->st);
	screen_draw(r->scr);
	run_screen_kernel_loop(r);
	while (!r->quit && !ticker_stop_signal()) {
		if (!run_screen_wait(r))
			break;
		if (ticker_stop_signal())
			break;
		run_screen_keys(r);
		if (r->quit)
			break;
		now = ticker_now_ns();
		if (!r->st.paused && !r->ended && now >= r->deadline_ns) {
			if (!run_screen_sample(r))
				break;
			if (r->quit) {
				screen_draw(r->scr);
				break;
			}
			if (!r->replay)	/* a replay keeps the recording's pace (run_screen_replay_after_step) */
				r->deadline_ns = ticker_next_deadline(r->start_ns, r->step_ns, ticker_now_ns());
			screen_state(r->scr, &r->st);
		}
		screen_draw(r->scr);
	}
}

static int run_screen_main(const struct opts *o, const char *sort, const char *warnings);

/* What of the settings file the command line and the screen cannot check
 * for themselves: a sort column and a layout the screen knows. */
static void run_screen_check_settings(const struct settings *set, struct opts *eff, const char **sort,
				      FILE *warn)
{
	char *path = settings_default_path();
	const char *name = path ? path : "the settings file";
	if ((set->have & SETTINGS_SORT) && screen_sort_known(set->sort))
		*sort = set->sort;
	else if (set->have & SETTINGS_SORT)
		fprintf(warn, "wbtop: %s: sort '%s': not a column of the device table; ignored\n",
			name, set->sort);
	bool procs;
	char why[160];
	if ((set->have & SETTINGS_LAYOUT) && screen_calc_layout_parse(set->layout, &procs, why, sizeof why) < 0)
		fprintf(warn, "wbtop: %s: layout '%s': %s; ignored\n", name, set->layout, why);
	else if ((set->have & SETTINGS_LAYOUT) && procs)
		eff->procs = true;	/* -P only opens it: the command line cannot close it */
	free(path);
}

/* The settings file applies to the screen only (scripts and timers running
 * -b must not change because someone saved a view), and the command line
 * wins over it.  Its warnings go to stderr, and the first to the status
 * line: the screen hides what was printed before it. */
int run_screen(const struct opts *cmdline)
{
	struct settings set;
	char *warnings = NULL;
	size_t wlen = 0;
	FILE *warn = open_memstream(&warnings, &wlen);
	settings_load(NULL, &set, warn ? warn : stderr);
	struct opts eff = *cmdline;
	if ((set.have & SETTINGS_DELAY) && !cmdline->delay_given)
		eff.delay_s = set.delay_s;
	if ((set.have & SETTINGS_FILTER) && !cmdline->devices_regex)
		eff.devices_regex = set.filter[0] ? set.filter : NULL;
	if ((set.have & SETTINGS_SHOW_IDLE) && !cmdline->all_devices)
		eff.all_devices = set.show_idle;
	if ((set.have & SETTINGS_DIP) && !cmdline->dip_given)
		eff.dip.drop_pct = set.dip_pct;
	const char *sort = NULL;
	run_screen_check_settings(&set, &eff, &sort, warn ? warn : stderr);
	if (warn && fclose(warn) == 0 && warnings) {
		fputs(warnings, stderr);
	} else {
		free(warnings);	/* no memory stream: the warnings went to stderr at once */
		warnings = NULL;
	}
	int status = run_screen_main(&eff, sort, warnings && *warnings ? warnings : NULL);
	free(warnings);
	settings_free(&set);
	return status;
}

/* The first settings warning on the status line, "wbtop: " cut. */
static void run_screen_warn(struct screen_run *r, const char *warnings)
{
	if (!warnings)
		return;
	const char *first = strncmp(warnings, "wbtop: ", 7) == 0 ? warnings + 7 : warnings;
	int n = (int)strcspn(first, "\n");
	bool more = first[n] && first[n + 1];
	screen_message(r->scr, "%.*s%s", n, first, more ? " (more after quitting)" : "");
}

static int run_screen_main(const struct opts *o, const char *sort, const char *warnings)
{
	struct screen_run r;
	/* Before the source opens (see run_batch); again below, before curses starts. */
	ticker_install_signals();
	int status = run_screen_open(&r, o);
	if (status) {
		fprintf(stderr, "wbtop: %s\n", r.err);
		run_screen_close(&r);
		return status;
	}
	/* --set: written before the first sample, so every figure shown is
	 * of the knobs asked for; a refusal ends here, as --set alone does. */
	if (o->nsets && (status = knob_cli_apply_sets(r.ctl, o->sets, o->nsets, "--set", NULL))) {
		run_screen_close(&r);
		return status;
	}
	/* Ours before curses starts: ncurses then leaves SIGINT/SIGTERM alone. */
	ticker_install_signals();
	/* The first sample before the screen: if it fails, say so plainly. */
	const struct frame *f;
	int rc = feed_step(r.feed, &f);
	if (rc != 0) {
		fprintf(stderr, "wbtop: %s\n", rc == 1 ? "the recording holds no sample" :
			r.src->errmsg[0] ? r.src->errmsg : strerror(-rc));
		run_screen_close(&r);
		return 1;
	}
	struct screen_config sc = { .no_color = o->no_color, .all_devices = o->all_devices,
				    .devices_regex = o->devices_regex, .procs = o->procs, .sort = sort };
	if (!(r.scr = screen_new(&sc, r.err, sizeof r.err))) {
		fprintf(stderr, "wbtop: %s\n", r.err);
		run_screen_close(&r);
		return strncmp(r.err, "--devices", 9) == 0 ? 2 : 1;
	}
	r.f = f;
	if (feed_add(r.feed, r.scr_sink = screen_sink_new(r.scr, r.hist, r.live), FEED_OUTPUT) < 0) {
		r.scr_sink = NULL;
		screen_free(r.scr);
		r.scr = NULL;
		fprintf(stderr, "wbtop: out of memory\n");
		run_screen_close(&r);
		return 1;
	}
	screen_sink_quiet(r.scr_sink, true);	/* the baseline: nothing to say yet */
	sink_frame(r.scr_sink, f);
	screen_sink_quiet(r.scr_sink, false);
	run_screen_failures(&r);
	run_screen_warn(&r, warnings);
	/* --set's events on the status line, and in the recording with the
	 * first interval (the baseline before it is never an interval) */
	if (o->nsets)
		run_screen_after_write(&r, NULL, 0, 0);
	if (r.replay)
		run_screen_replay_start(&r);
	if (r.replay) {	/* devices of the recording that share a key: said once */
		char note[768];
		if (rec_replay_shared_keys(r.src, note, sizeof note) > 0)
			screen_message(r.scr, "%s", note);
	}
	if (r.live)
		r.st.uptime_s = run_screen_uptime_s();
	run_screen_loop(&r);
	status = r.status;
	run_screen_close(&r);
	if (status)
		fprintf(stderr, "wbtop: %s\n", r.err);
	return status;
}
