/*
 * screen.h - the interactive monitor's view: every line of curses code.
 *
 * The screen draws what the loop hands it (a pipeline frame, the history of
 * recent frames, the loop's own state) and turns keys into requests.  View
 * matters (sorting, filtering, scrolling, the help page, a device's detail,
 * idle devices shown or not) it settles itself; anything that changes what
 * is sampled or what the system does (quit, pause, the interval, knob
 * writes, replay navigation) it returns as a struct screen_req for the loop
 * to carry out.  It reads no /proc or /sys file and writes no knob: the same
 * screen shows live data and replayed recordings.
 *
 * It is not a library module in one respect: it owns the terminal.
 * screen_new() puts it in curses mode, screen_free() restores it, and an
 * atexit handler restores it on any other way out.
 *
 * The second half of this header is pure (no curses): formatting and
 * arithmetic the screen shows, kept apart so they can be unit-tested.
 */
#ifndef WBTOP_SCREEN_H
#define WBTOP_SCREEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/control.h"
#include "core/derive.h"
#include "sink/history.h"
#include "core/pipeline.h"

struct screen_config {
	bool no_color;			/* --no-color or NO_COLOR */
	bool all_devices;		/* -a: idle devices shown from the start */
	const char *devices_regex;	/* --devices: the starting filter, or NULL */
	const char *sort;		/* starting sort column ("wMB/s", "util", "name"), or NULL */
	bool procs;			/* -P: the process pane open from the start */
};

/* The view's state, for the settings file (W). */
struct screen_view {
	const char *sort;		/* column title, or "name" */
	bool sort_reverse;
	const char *filter;		/* "" when none */
	bool show_idle;
	bool procs_open;		/* the process pane in place of the graph */
};

/* What the screen asks the loop to do. */
enum screen_req_kind {
	SCREEN_REQ_NONE,		/* the key was handled inside the view */
	SCREEN_REQ_QUIT,
	SCREEN_REQ_PAUSE,		/* toggle: stop or resume sampling */
	SCREEN_REQ_DELAY,		/* set the interval to value seconds */
	SCREEN_REQ_SAVE_SETTINGS,	/* W: save the view (screen_get_view) and interval */
	/* the knob panel; the loop calls control and answers with
	 * screen_set_knobs() / screen_set_preview() */
	SCREEN_REQ_KNOBS_OPEN,		/* the panel opened: list the knobs (ref.bdi: of ref's device) */
	SCREEN_REQ_KNOB_PREVIEW,	/* explain text as a value for ref */
	SCREEN_REQ_KNOB_APPLY,		/* write text as a value for ref */
	SCREEN_REQ_KNOB_UNDO,
	SCREEN_REQ_KNOB_REVERT_ALL,
	SCREEN_REQ_KNOB_CONFIRM,	/* keep the changes (stops --revert-after) */
	/* replay navigation (handled when the source is a recording) */
	SCREEN_REQ_STEP,		/* value frames forward (negative: back) */
	SCREEN_REQ_SEEK,		/* value seconds forward (negative: back) */
	SCREEN_REQ_SEEK_START,
	SCREEN_REQ_SEEK_END,
	SCREEN_REQ_SEEK_TIME,		/* to the time in text (rec_time_parse's forms) */
	SCREEN_REQ_DIP,			/* to the next (value > 0) or previous dip */
	SCREEN_REQ_KNOB_CHANGE,		/* to the next (value > 0) or previous knob change */
	SCREEN_REQ_SPEED,		/* multiply the replay speed by value */
	/* processes and history */
	SCREEN_REQ_PROCS,		/* the process pane opened (value 1) or closed (0) */
	SCREEN_REQ_SAVE_HISTORY		/* save the samples in memory to the recording text */
};

struct screen_req {
	enum screen_req_kind kind;
	double value;
	struct control_ref ref;		/* KNOB_* requests */
	char text[256];			/* KNOB_PREVIEW/APPLY, SEEK_TIME, SAVE_HISTORY: what was typed */
};

/* The loop's own state, shown on the top line. */
struct screen_state {
	double delay_s;
	bool paused;
	double uptime_s;		/* since boot; < 0 unknown (replay) */
	const char *source_kind;	/* "live", "replay" */
	const char *source_label;	/* recording name, or NULL */
	bool recording;			/* -w is writing a recording */
	double revert_in_s;		/* --revert-after: unconfirmed changes revert in; < 0 none */
	/* a replay: where it is */
	int64_t replay_index;		/* the sample shown, from 0 */
	int64_t replay_count;		/* samples in the recording (grows when it is followed) */
	double replay_speed;		/* x recorded time */
	bool replay_waiting;		/* caught up with a recording still being written: following it */
	double replay_idle_s;		/* following: seconds since the recording last grew */
	bool procs_sampled;		/* processes are sampled (the pane is open, live) */
};

/* The knob panel's contents, from control (the loop fills it). */
struct screen_knobs {
	const struct control_item *items;	/* vm knobs, or one device's BDI knobs */
	size_t n;
	bool bdi;
	uint32_t major, minor;			/* when bdi */
	bool can_write;
	const char *reason;			/* why not, when !can_write */
	size_t nchanges;			/* changes that undo can take back */
};

struct screen;

/* Take over the terminal (stdin/stdout).  NULL if it can't: not a
 * terminal, unknown TERM, a bad starting filter or sort column; err says
 * why. */
struct screen *screen_new(const struct screen_config *cfg, char *err, size_t errlen);
/* Give the terminal back as it was; NULL is a no-op. */
void screen_free(struct screen *s);

/* New data.  f and h must stay valid until the next screen_frame() or
 * screen_free(): the loop does not step the pipeline before that. */
void screen_frame(struct screen *s, const struct frame *f, const struct history *h);
/* The loop's state for the top line (copied; strings must outlive s). */
void screen_state(struct screen *s, const struct screen_state *st);
/* The answer to what the user just did, on the status line now, for a few seconds or until
 * the next key. */
void screen_message(struct screen *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Something that happened on its own (the kernel loop only partly readable, the recording
 * stopped): on the status line for as long as a message, once no other message is showing;
 * an answer does not take its time away (msgq.h). */
void screen_notice(struct screen *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Draw everything (ncurses sends only what changed). */
void screen_draw(struct screen *s);
/* Handle one pending key.  false when no key is waiting; otherwise true
 * with *req saying what the loop should do (often SCREEN_REQ_NONE). */
bool screen_key(struct screen *s, struct screen_req *req);

/* The view's state now; strings valid until the next call on s. */
void screen_get_view(const struct screen *s, struct screen_view *v);

/* The knob panel's list (copied). */
void screen_set_knobs(struct screen *s, const struct screen_knobs *k);
/* control's verdict on the value being typed: rc as control_preview. */
void screen_set_preview(struct screen *s, int rc, const char *text);

/* ---- pure helpers (no curses) ---- */

/* KiB as people read it: "0", "812K", "45.6M", "2.4G" (powers of 1024). */
const char *screen_fmt_kb(double kb, char *buf, size_t len);
/* A number in at most width characters with at most prec decimals, as
 * precise as fits: "3.25", "123.4", "98765", "123k"; "-" for NAN. */
const char *screen_fmt_num(double v, int width, int prec, char *buf, size_t len);
/* v with prec decimals into buf, byte for byte as snprintf(buf, len, "%.*f", prec, v)
 * (rounded to nearest, ties to even, on v's exact value), and the same return; without
 * printf for up to 6 decimals below 10^15 (a frame formats every cell it shows). */
int screen_fmt_fixed(double v, int prec, char *buf, size_t len);
/* text right-aligned in width >= 0 ("%*s") or left-aligned and cut to width bytes ("%-*.*s"),
 * appended to buf at n (n < cap) and cut to fit as snprintf(buf + n, cap - n, ...) would
 * cut it; the new length.  A table row is put together with it and drawn in one call. */
size_t screen_pad_into(char *buf, size_t cap, size_t n, const char *text, int width, bool left);
/* A duration: "0.4s", "12s", "4m20s", "2h05m", "3d04h"; "-" if < 0. */
const char *screen_fmt_duration(double s, char *buf, size_t len);
/* Device names in the order people count them (as `ls -v`): a run of digits is a number, so
 * loop2 comes before loop10 and nvme2n1 before nvme10n1; the rest byte by byte.  A total
 * order: equal only for equal names. */
int screen_name_cmp(const char *a, const char *b);
/* Uptime as top shows it: "3 days, 4:12", "1 day, 0:05", "4:12". */
const char *screen_fmt_uptime(double s, char *buf, size_t len);

/* Seconds until used_kb grows to limit_kb at growth_kbps: 0 when already
 * there, -1 when not growing (or no limit known). */
double screen_time_to_limit_s(uint64_t used_kb, uint64_t limit_kb, double growth_kbps);
/* How the rows below the summary are shared (avail rows: the device table
 * with its header, a rule, then the graph): the table gets the rows its
 * devices need (want, header included; at least 3), as long as the graph
 * keeps a quarter of the room (2 to 12 rows); the graph takes the rest, so
 * a large terminal shows a tall graph rather than blank rows.  Returns the
 * table's rows; *bars the graph's. */
int screen_split_rows(int avail, int want, int *bars);
/* The trend the gauge's forecasts use: dirtied and written KiB/s averaged
 * over the last window_s seconds of frames (newest first: dirtied[0] is
 * now, dt_s[i] how long frame i lasted; frames without rates skipped), so
 * periodic writeback (every 5 s by default) does not flip them each
 * interval.  span_s is how many seconds the mean covers (less than
 * window_s early on); false when no frame has rates. */
struct screen_trend {
	double dirtied_kbps, written_kbps, span_s;
};
bool screen_trend(const double *dirtied_kbps, const double *written_kbps, const double *dt_s,
		  size_t n, double window_s, struct screen_trend *out);
/* Seconds to write pending_kb at written_kbps; -1 if nothing is written. */
double screen_drain_s(uint64_t pending_kb, double written_kbps);
/* The level 0..levels of v against max for a sparkline cell: 0 only for
 * nothing (v <= 0 or NAN); anything above 0 shows at least level 1. */
int screen_spark_level(double v, double max, int levels);
/* Eighths of a bar of height rows cells for v against max (0..rows*8). */
int screen_bar_eighths(double v, double max, int rows);
/* Where a threshold falls in a bar of width cells (0..width-1), or -1
 * when it lies beyond the bar's end. */
int screen_mark_pos(uint64_t value, uint64_t scale, int width);

/* What the replay's time prompt asks for: "start" (or "begin"), "end",
 * an offset from the sample shown ("+30s", "-2m", "+1h", "-1.5d"; plain
 * "+10" is seconds) in *seconds, or else a time for rec_time_parse. */
enum screen_req_kind screen_parse_seek(const char *text, double *seconds);
/* A seek to target_ns lands on the first sample at or after it (later_ns),
 * unless the sample before (earlier_ns) is short of it by less than a
 * tenth of the interval between them: clocks that sample "every 1 s" run a
 * few microseconds early, and +5s then means five samples, not six. */
bool screen_seek_take_earlier(int64_t target_ns, int64_t earlier_ns, int64_t later_ns);
/* A replay speed as the top line shows it: "1x", "16x", "0.25x". */
const char *screen_fmt_speed(double speed, char *buf, size_t len);
/* A layout as the settings file gives it: the panes shown, in any order,
 * of "sys", "devices", "graph" and "procs" (graph and procs share the
 * bottom of the screen: one of them).  0 with *procs set when the process
 * pane is to be open; -EINVAL with why saying what is wrong. */
int screen_layout_parse(const char *text, bool *procs, char *why, size_t len);
/* The layout W saves: "sys devices graph" or "sys devices procs". */
const char *screen_layout_name(bool procs);
/* Whether name is a column of the device table the sort can use ("name" too). */
bool screen_sort_known(const char *name);
/* The default file name for saved history, from a local time:
 * "wbtop-20240501-140322.db". */
const char *screen_save_name(int64_t wall_ns, char *buf, size_t len);

#endif
