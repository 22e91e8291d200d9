/*
 * screen_title.c - the top line: the program, the time, the uptime, the
 * interval or a replay's place, and at the right the flags that must show
 * (revert countdown, FOLLOWING, REC, PAUSED, !DIP).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "screen/screen_calc.h"
#include "screen_paint.h"
#include "screen_title.h"

/* A replay's date; below 100 columns without the year, so that the
 * position, speed, interval and file name still fit beside it. */
static void screen_title_fmt_time(int64_t wall_ns, bool date, char *buf, size_t len)
{
	time_t t = (time_t)(wall_ns / 1000000000);
	struct tm tm;
	localtime_r(&t, &tm);
	strftime(buf, len, !date ? "%H:%M:%S" : COLS < 100 ? "%m-%d %H:%M:%S" : "%Y-%m-%d %H:%M:%S", &tm);
}

bool screen_title_is_replay(const struct screen *s)
{
	return s->st.source_kind && strcmp(s->st.source_kind, "live") != 0;
}

/* A replay's place: "sample 12/40  speed 2x  interval 0.5s  replay FILE"
 * (the recorded interval of the sample shown); the file's base name when
 * its path does not fit, nothing when that does not either. */
static void screen_title_replay_pos(struct screen *s, struct scr_line *ln)
{
	char buf[64];
	snprintf(buf, sizeof buf, "%" PRId64 "/%" PRId64, s->st.replay_index + 1, s->st.replay_count);
	screen_paint_field(s, ln, " sample", SCR_NORMAL, buf);
	screen_paint_field(s, ln, " speed", SCR_NORMAL, screen_calc_fmt_speed(s->st.replay_speed, buf, sizeof buf));
	/* the interval before the file: the file is known, it was given */
	if (s->f && s->f->sys.status == RATE_OK) {
		snprintf(buf, sizeof buf, "%.3gs", s->f->sys.dt_s);
		screen_paint_field(s, ln, " interval", SCR_NORMAL, buf);
	}
	const char *path = s->st.source_label ? s->st.source_label : "";
	const char *base = strrchr(path, '/');
	if (!screen_paint_field(s, ln, " replay", SCR_NORMAL, path) && base)
		screen_paint_field(s, ln, " replay", SCR_NORMAL, base + 1);
}

void screen_title_draw(struct screen *s)
{
	/* Flags at the right: they must show even when the line is full, so
	 * the fields at the left get what they leave, whole or not at all. */
	bool dip = s->f && (s->f->sys_dip || s->f->interval_dip);
	char revert[48] = "";
	if (s->st.revert_in_s >= 0)
		snprintf(revert, sizeof revert, " c confirms, else revert in %.0fs ", s->st.revert_in_s);
	/* Following a recording that stopped growing: its writer may be gone (killed, or a copy
	 * of an unfinished file). Say how long it has been, once that is well past an interval. */
	char wait[48] = "";
	if (s->st.replay_waiting) {
		double interval = s->f && s->f->sys.dt_s > 0 ? s->f->sys.dt_s : 1.0;
		if (s->st.replay_idle_s >= 10.0 && s->st.replay_idle_s >= 3 * interval) {
			char idle[16];
			snprintf(wait, sizeof wait, " FOLLOWING, nothing new for %s ",
				 screen_calc_fmt_duration(s->st.replay_idle_s, idle, sizeof idle));
		} else {
			snprintf(wait, sizeof wait, " FOLLOWING ");
		}
	}
	int flags = (int)strlen(revert) + (int)strlen(wait) + (s->st.recording ? 5 : 0) +
		    (s->st.paused ? 8 : 0) + (dip ? 6 : 0);

	struct scr_line ln = { 0, 0, COLS - flags };
	char buf[64];
	bool replay = screen_title_is_replay(s);
	screen_paint_add(s, &ln, SCR_TITLE, "wbtop");
	if (s->f) {
		screen_title_fmt_time(s->f->cur->wall_ns, replay, buf, sizeof buf);
		screen_paint_addf(s, &ln, SCR_NORMAL, " %s", buf);
	}
	if (s->st.uptime_s >= 0)
		screen_paint_field(s, &ln, " up", SCR_NORMAL, screen_calc_fmt_uptime(s->st.uptime_s, buf, sizeof buf));
	if (replay) {
		screen_title_replay_pos(s, &ln);
	} else {
		snprintf(buf, sizeof buf, "%gs", s->st.delay_s);
		screen_paint_field(s, &ln, " interval", SCR_NORMAL, buf);
	}
	struct scr_line right = { 0, COLS - flags, COLS };
	screen_paint_add(s, &right, SCR_WARN, revert);
	screen_paint_add(s, &right, SCR_EVENT, wait);
	if (s->st.recording)
		screen_paint_add(s, &right, SCR_EVENT, " REC ");
	if (s->st.paused)
		screen_paint_add(s, &right, SCR_WARN, " PAUSED ");
	if (dip)
		screen_paint_add(s, &right, SCR_DIP, " !DIP ");
}
