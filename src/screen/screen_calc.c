/*
 * screen_calc.c - the pure part of the screen: formatting of figures and
 * the small sums behind the gauge, the sparklines and the graph.  No
 * curses here, so every rule is unit-tested (tests/unit/test_screen.c).
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "screen/screen_calc.h"

const char *screen_calc_fmt_kb(double kb, char *buf, size_t len)
{
	if (isnan(kb) || kb < 0) {
		snprintf(buf, len, "-");
		return buf;
	}
	if (kb < 0.5) {
		snprintf(buf, len, "0");
		return buf;
	}
	static const char units[] = "KMGTP";
	int u = 0;
	/* Divide at 999.5, not 1024, so the figure stays within 3 digits. */
	while (kb >= 999.5 && u < 4) {
		kb /= 1024.0;
		u++;
	}
	if (u > 0 && kb < 9.95)
		snprintf(buf, len, "%.1f%c", kb, units[u]);
	else
		snprintf(buf, len, "%.0f%c", kb, units[u]);
	return buf;
}

/* Powers of ten up to the most decimals the fast path writes; all exact as doubles. */
static const double screen_calc_pow10[] = { 1, 10, 100, 1e3, 1e4, 1e5, 1e6 };
static const uint64_t screen_calc_pow10_u[] = { 1, 10, 100, 1000, 10000, 100000, 1000000 };

/* The nearest integer to |v| * 10^prec, ties to even, from the exact product: y is the
 * rounded product and e (by fma) what rounding lost, so y + e is exact.  Below 2^50 a
 * fraction of y other than one half is at least an ulp of y from it, more than |e|, so
 * only at one half does e's sign decide. */
static uint64_t screen_calc_round_scaled(double a, int prec)
{
	double y = a * screen_calc_pow10[prec];
	double e = fma(a, screen_calc_pow10[prec], -y);
	double q = floor(y), fr = y - q;
	uint64_t n = (uint64_t)q;
	if (fr > 0.5 || (fr == 0.5 && (e > 0 || (e == 0 && (n & 1)))))
		n++;
	return n;
}

/* t (n bytes) into buf as snprintf would: cut to len - 1 bytes. */
static void screen_calc_copy_cut(char *buf, size_t len, const char *t, size_t n)
{
	if (!len)
		return;
	if (n >= len)
		n = len - 1;
	memcpy(buf, t, n);
	buf[n] = 0;
}

int screen_calc_fmt_fixed(double v, int prec, char *buf, size_t len)
{
	double a = fabs(v);
	if (prec < 0 || prec > 6 || !(a < 1e15 / screen_calc_pow10[prec]))
		return snprintf(buf, len, "%.*f", prec, v);	/* NAN, inf, huge: printf's own */
	uint64_t n = screen_calc_round_scaled(a, prec);
	uint64_t ip = n / screen_calc_pow10_u[prec], fp = n % screen_calc_pow10_u[prec];
	char tmp[24];
	int t = 0;
	for (int k = 0; k < prec; k++, fp /= 10)
		tmp[t++] = (char)('0' + fp % 10);
	if (prec)
		tmp[t++] = '.';
	do {
		tmp[t++] = (char)('0' + ip % 10);
		ip /= 10;
	} while (ip);
	if (signbit(v))	/* as printf: "-0.0" for a negative that rounds to zero */
		tmp[t++] = '-';
	char out[24];
	for (int k = 0; k < t; k++)
		out[k] = tmp[t - 1 - k];
	screen_calc_copy_cut(buf, len, out, (size_t)t);
	return t;
}

size_t screen_calc_pad_into(char *buf, size_t cap, size_t n, const char *text, int width, bool left)
{
	size_t len = strlen(text), w = width > 0 ? (size_t)width : 0;
	if (left && len > w)
		len = w;	/* cut as "%-*.*s" cuts: by bytes */
	size_t pad = len < w ? w - len : 0;
	/* what does not fit is cut, as a printf into the rest of buf would cut it */
	size_t room = cap - 1 - n;
	size_t lead = left ? 0 : pad, trail = left ? pad : 0;
	lead = lead < room ? lead : room;
	room -= lead;
	size_t take = len < room ? len : room;
	room -= take;
	trail = trail < room ? trail : room;
	memset(buf + n, ' ', lead);
	memcpy(buf + n + lead, text, take);
	memset(buf + n + lead + take, ' ', trail);
	n += lead + take + trail;
	buf[n] = 0;
	return n;
}

const char *screen_calc_fmt_num(double v, int width, int prec, char *buf, size_t len)
{
	if (isnan(v)) {
		snprintf(buf, len, "-");
		return buf;
	}
	for (int p = prec; p >= 0; p--) {
		int n = screen_calc_fmt_fixed(v, p, buf, len);
		if (n <= width)
			return buf;
	}
	static const char units[] = "kMGT";
	double x = v;
	for (int u = 0; u < 4; u++) {
		x /= 1000.0;
		char t[32];
		int n = screen_calc_fmt_fixed(x, 0, t, sizeof t);
		if (n < 0 || n > 30)
			n = snprintf(buf, len, "%.0f%c", x, units[u]);
		else {
			t[n++] = units[u];
			t[n] = 0;
			screen_calc_copy_cut(buf, len, t, (size_t)n);
		}
		if (n <= width)
			return buf;
	}
	return buf;
}

const char *screen_calc_fmt_duration(double s, char *buf, size_t len)
{
	if (isnan(s) || s < 0) {
		snprintf(buf, len, "-");
		return buf;
	}
	if (s < 10)
		snprintf(buf, len, "%.1fs", s);
	else if (s < 60)
		snprintf(buf, len, "%.0fs", s);
	else {
		uint64_t t = (uint64_t)(s + 0.5);
		if (t < 3600)
			snprintf(buf, len, "%um%02us", (unsigned)(t / 60), (unsigned)(t % 60));
		else if (t < 86400)
			snprintf(buf, len, "%uh%02um", (unsigned)(t / 3600), (unsigned)(t % 3600 / 60));
		else
			snprintf(buf, len, "%llud%02uh", (unsigned long long)(t / 86400),
				 (unsigned)(t % 86400 / 3600));
	}
	return buf;
}

static bool screen_calc_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* The run of digits at p: its length, and in *sig where its significant digits (those after
 * the leading zeros) begin. */
static size_t screen_calc_digit_run(const char *p, const char **sig)
{
	size_t n = 0;
	while (p[n] == '0' && screen_calc_is_digit(p[n + 1]))
		n++;
	*sig = p + n;
	while (screen_calc_is_digit(p[n]))
		n++;
	return n;
}

int screen_calc_name_cmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (!screen_calc_is_digit(*a) || !screen_calc_is_digit(*b)) {
			if (*a != *b)
				return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
			a++, b++;
			continue;
		}
		/* two numbers: by value (the longer of the significant digits, or the first digit
		 * that differs), then the one written shorter (fewer leading zeros) first */
		const char *sa, *sb;
		size_t na = screen_calc_digit_run(a, &sa), nb = screen_calc_digit_run(b, &sb);
		size_t la = na - (size_t)(sa - a), lb = nb - (size_t)(sb - b);
		if (la != lb)
			return la < lb ? -1 : 1;
		int by_digits = memcmp(sa, sb, la);
		if (by_digits)
			return by_digits < 0 ? -1 : 1;
		if (na != nb)
			return na < nb ? -1 : 1;
		a += na, b += nb;
	}
	return *a ? 1 : *b ? -1 : 0;
}

const char *screen_calc_fmt_uptime(double s, char *buf, size_t len)
{
	if (isnan(s) || s < 0) {
		snprintf(buf, len, "-");
		return buf;
	}
	uint64_t t = (uint64_t)s;
	unsigned days = (unsigned)(t / 86400);
	unsigned h = (unsigned)(t % 86400 / 3600), m = (unsigned)(t % 3600 / 60);
	if (days)
		snprintf(buf, len, "%u day%s, %u:%02u", days, days == 1 ? "" : "s", h, m);
	else
		snprintf(buf, len, "%u:%02u", h, m);
	return buf;
}

double screen_calc_time_to_limit_s(uint64_t used_kb, uint64_t limit_kb, double growth_kbps)
{
	if (limit_kb == 0)
		return -1;
	if (used_kb >= limit_kb)
		return 0;
	if (isnan(growth_kbps) || growth_kbps <= 0)
		return -1;
	return (double)(limit_kb - used_kb) / growth_kbps;
}

double screen_calc_drain_s(uint64_t pending_kb, double written_kbps)
{
	if (isnan(written_kbps) || written_kbps <= 0)
		return -1;
	return (double)pending_kb / written_kbps;
}

int screen_calc_spark_level(double v, double max, int levels)
{
	if (isnan(v) || v <= 0 || levels <= 0)
		return 0;
	if (!(max > 0) || v >= max)
		return levels;
	int l = (int)lround(v / max * levels);
	return l < 1 ? 1 : l;
}

int screen_calc_bar_eighths(double v, double max, int rows)
{
	if (isnan(v) || v <= 0 || !(max > 0) || rows <= 0)
		return 0;
	if (v >= max)
		return rows * 8;
	int e = (int)lround(v / max * rows * 8);
	return e < 1 ? 1 : e;	/* a little is not nothing */
}

int screen_calc_mark_pos(uint64_t value, uint64_t scale, int width)
{
	if (scale == 0 || width <= 0 || value > scale)
		return -1;
	int pos = (int)((double)value / (double)scale * width);
	return pos >= width ? width - 1 : pos;
}

/* ---- replay and history ---- */

enum screen_req_kind screen_calc_parse_seek(const char *text, double *seconds)
{
	static const struct {
		char unit;
		double s;
	} units[] = { { 's', 1 }, { 'm', 60 }, { 'h', 3600 }, { 'd', 86400 } };
	while (*text == ' ')
		text++;
	if (strcmp(text, "start") == 0 || strcmp(text, "begin") == 0)
		return SCREEN_REQ_SEEK_START;
	if (strcmp(text, "end") == 0)
		return SCREEN_REQ_SEEK_END;
	if (*text != '+' && *text != '-')
		return SCREEN_REQ_SEEK_TIME;
	char *end;
	double v = strtod(text, &end);
	if (end == text || !isfinite(v))
		return SCREEN_REQ_SEEK_TIME;	/* not an offset: let the time parser say no */
	double scale = 1;
	if (*end) {
		size_t u = 0;
		while (u < sizeof units / sizeof units[0] && units[u].unit != *end)
			u++;
		if (u == sizeof units / sizeof units[0] || end[1])
			return SCREEN_REQ_SEEK_TIME;
		scale = units[u].s;
	}
	*seconds = v * scale;
	return SCREEN_REQ_SEEK;
}

const char *screen_calc_fmt_speed(double speed, char *buf, size_t len)
{
	snprintf(buf, len, "%.3gx", speed);
	return buf;
}

const char *screen_calc_save_name(int64_t wall_ns, char *buf, size_t len)
{
	time_t t = (time_t)(wall_ns / 1000000000);
	struct tm tm;
	if (!localtime_r(&t, &tm) || !strftime(buf, len, "wbtop-%Y%m%d-%H%M%S.db", &tm))
		snprintf(buf, len, "wbtop-history.db");
	return buf;
}

int screen_calc_layout_parse(const char *text, bool *procs, char *why, size_t len)
{
	static const char *const panes[] = { "sys", "devices", "graph", "procs" };
	bool seen[4] = { false };
	const char *p = text;
	for (;;) {
		p += strspn(p, " \t,");
		size_t n = strcspn(p, " \t,");
		if (!n)
			break;
		size_t i = 0;
		while (i < 4 && !(strlen(panes[i]) == n && strncmp(p, panes[i], n) == 0))
			i++;
		if (i == 4) {
			snprintf(why, len, "unknown pane '%.*s' (sys, devices, graph, procs)", (int)n, p);
			return -EINVAL;
		}
		seen[i] = true;
		p += n;
	}
	if (seen[2] && seen[3]) {
		snprintf(why, len, "graph and procs share the bottom of the screen: give one");
		return -EINVAL;
	}
	*procs = seen[3];
	return 0;
}

const char *screen_calc_layout_name(bool procs)
{
	return procs ? "sys devices procs" : "sys devices graph";
}

bool screen_calc_seek_take_earlier(int64_t target_ns, int64_t earlier_ns, int64_t later_ns)
{
	if (earlier_ns < 0 || later_ns <= earlier_ns || earlier_ns >= target_ns)
		return false;
	return (target_ns - earlier_ns) * 10 < later_ns - earlier_ns;
}

bool screen_calc_trend(const double *dirtied_kbps, const double *written_kbps,
		       const double *dt_s, size_t n, double window_s, struct screen_calc_trend *out)
{
	double span = 0, dirtied_kb = 0, written_kb = 0;
	for (size_t i = 0; i < n && span < window_s; i++) {
		if (!(dt_s[i] > 0) || isnan(dirtied_kbps[i]) || isnan(written_kbps[i]))
			continue;
		/* the oldest frame counts only for the part inside the window */
		double dt = span + dt_s[i] > window_s ? window_s - span : dt_s[i];
		dirtied_kb += dirtied_kbps[i] * dt;
		written_kb += written_kbps[i] * dt;
		span += dt;
	}
	if (span <= 0)
		return false;
	out->dirtied_kbps = dirtied_kb / span;
	out->written_kbps = written_kb / span;
	out->span_s = span;
	return true;
}

int screen_calc_split_rows(int avail, int want, int *bars)
{
	int least = avail / 4;
	least = least < 2 ? 2 : least > 12 ? 12 : least;
	int most = avail - least - 2;	/* the rule above the graph, its axis below */
	int table = want < 3 ? 3 : want;
	if (table > most)
		table = most > 3 ? most : 3;
	*bars = avail - table - 2;
	if (*bars < 2)
		*bars = 2;
	return table;
}
