/*
 * screen_types.h - what the screen and its loop hand each other: the
 * options it starts with, the view's state for the settings file, the
 * requests a key becomes, the loop's state for the top line and the knob
 * panel's contents.  Types only.
 */
#ifndef WBTOP_SCREEN_TYPES_H
#define WBTOP_SCREEN_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/control.h"

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

#endif
