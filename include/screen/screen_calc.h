/*
 * screen_calc.h - the pure part of the screen (no curses): formatting of
 * figures and the small sums behind the gauge, the sparklines, the graph,
 * the layout and the replay prompts; kept apart so they can be unit-tested.
 */
#ifndef WBTOP_SCREEN_CALC_H
#define WBTOP_SCREEN_CALC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "screen/screen_types.h"

/* KiB as people read it: "0", "812K", "45.6M", "2.4G" (powers of 1024). */
const char *screen_calc_fmt_kb(double kb, char *buf, size_t len);
/* A number in at most width characters with at most prec decimals, as
 * precise as fits: "3.25", "123.4", "98765", "123k"; "-" for NAN. */
const char *screen_calc_fmt_num(double v, int width, int prec, char *buf, size_t len);
/* v with prec decimals into buf, byte for byte as snprintf(buf, len, "%.*f", prec, v)
 * (rounded to nearest, ties to even, on v's exact value), and the same return; without
 * printf for up to 6 decimals below 10^15 (a frame formats every cell it shows). */
int screen_calc_fmt_fixed(double v, int prec, char *buf, size_t len);
/* text right-aligned in width >= 0 ("%*s") or left-aligned and cut to width bytes ("%-*.*s"),
 * appended to buf at n (n < cap) and cut to fit as snprintf(buf + n, cap - n, ...) would
 * cut it; the new length.  A table row is put together with it and drawn in one call. */
size_t screen_calc_pad_into(char *buf, size_t cap, size_t n, const char *text, int width, bool left);
/* A duration: "0.4s", "12s", "4m20s", "2h05m", "3d04h"; "-" if < 0. */
const char *screen_calc_fmt_duration(double s, char *buf, size_t len);
/* Device names in the order people count them (as `ls -v`): a run of digits is a number, so
 * loop2 comes before loop10 and nvme2n1 before nvme10n1; the rest byte by byte.  A total
 * order: equal only for equal names. */
int screen_calc_name_cmp(const char *a, const char *b);
/* Uptime as top shows it: "3 days, 4:12", "1 day, 0:05", "4:12". */
const char *screen_calc_fmt_uptime(double s, char *buf, size_t len);

/* Seconds until used_kb grows to limit_kb at growth_kbps: 0 when already
 * there, -1 when not growing (or no limit known). */
double screen_calc_time_to_limit_s(uint64_t used_kb, uint64_t limit_kb, double growth_kbps);
/* How the rows below the summary are shared (avail rows: the device table
 * with its header, a rule, then the graph): the table gets the rows its
 * devices need (want, header included; at least 3), as long as the graph
 * keeps a quarter of the room (2 to 12 rows); the graph takes the rest, so
 * a large terminal shows a tall graph rather than blank rows.  Returns the
 * table's rows; *bars the graph's. */
int screen_calc_split_rows(int avail, int want, int *bars);
/* The trend the gauge's forecasts use: dirtied and written KiB/s averaged
 * over the last window_s seconds of frames (newest first: dirtied[0] is
 * now, dt_s[i] how long frame i lasted; frames without rates skipped), so
 * periodic writeback (every 5 s by default) does not flip them each
 * interval.  span_s is how many seconds the mean covers (less than
 * window_s early on); false when no frame has rates. */
struct screen_calc_trend {
	double dirtied_kbps, written_kbps, span_s;
};
bool screen_calc_trend(const double *dirtied_kbps, const double *written_kbps,
		       const double *dt_s, size_t n, double window_s, struct screen_calc_trend *out);
/* Seconds to write pending_kb at written_kbps; -1 if nothing is written. */
double screen_calc_drain_s(uint64_t pending_kb, double written_kbps);
/* The level 0..levels of v against max for a sparkline cell: 0 only for
 * nothing (v <= 0 or NAN); anything above 0 shows at least level 1. */
int screen_calc_spark_level(double v, double max, int levels);
/* Eighths of a bar of height rows cells for v against max (0..rows*8). */
int screen_calc_bar_eighths(double v, double max, int rows);
/* Where a threshold falls in a bar of width cells (0..width-1), or -1
 * when it lies beyond the bar's end. */
int screen_calc_mark_pos(uint64_t value, uint64_t scale, int width);

/* What the replay's time prompt asks for: "start" (or "begin"), "end",
 * an offset from the sample shown ("+30s", "-2m", "+1h", "-1.5d"; plain
 * "+10" is seconds) in *seconds, or else a time for rec_time_parse. */
enum screen_req_kind screen_calc_parse_seek(const char *text, double *seconds);
/* A seek to target_ns lands on the first sample at or after it (later_ns),
 * unless the sample before (earlier_ns) is short of it by less than a
 * tenth of the interval between them: clocks that sample "every 1 s" run a
 * few microseconds early, and +5s then means five samples, not six. */
bool screen_calc_seek_take_earlier(int64_t target_ns, int64_t earlier_ns, int64_t later_ns);
/* A replay speed as the top line shows it: "1x", "16x", "0.25x". */
const char *screen_calc_fmt_speed(double speed, char *buf, size_t len);
/* A layout as the settings file gives it: the panes shown, in any order,
 * of "sys", "devices", "graph" and "procs" (graph and procs share the
 * bottom of the screen: one of them).  0 with *procs set when the process
 * pane is to be open; -EINVAL with why saying what is wrong. */
int screen_calc_layout_parse(const char *text, bool *procs, char *why, size_t len);
/* The layout W saves: "sys devices graph" or "sys devices procs". */
const char *screen_calc_layout_name(bool procs);
/* The default file name for saved history, from a local time:
 * "wbtop-20240501-140322.db". */
const char *screen_calc_save_name(int64_t wall_ns, char *buf, size_t len);

#endif
