/*
 * test_screen.c - the pure part of the screen (screen_calc.c): how figures
 * are written, the gauge's times, sparkline and bar levels, the replay's
 * time prompt, the default name of saved history.
 */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "screen/screen.h"

static const struct {
	double kb;
	const char *want;
} kb_cases[] = {
	{ 0, "0" }, { 0.4, "0" }, { 1, "1K" }, { 812, "812K" }, { 999, "999K" },
	{ 999.6, "1.0M" }, { 1024, "1.0M" }, { 10240, "10M" }, { 24576, "24M" },
	{ 800000, "781M" }, { 1048576, "1.0G" }, { 5.5 * 1024 * 1024 * 1024, "5.5T" },
	{ NAN, "-" }, { -1, "-" },
};

START_TEST(test_fmt_kb)
{
	char buf[16];
	ck_assert_str_eq(screen_calc_fmt_kb(kb_cases[_i].kb, buf, sizeof buf), kb_cases[_i].want);
}
END_TEST

static const struct {
	double v;
	int width, prec;
	const char *want;
} num_cases[] = {
	{ 3.14159, 7, 2, "3.14" }, { 3.14159, 7, 1, "3.1" }, { 0, 6, 1, "0.0" },
	{ 12345.678, 7, 2, "12345.7" }, { 123456.7, 7, 2, "123457" }, { 12345678, 7, 1, "12346k" },
	{ 98765, 5, 0, "98765" }, { 123456, 5, 0, "123k" }, { NAN, 7, 2, "-" },
};

START_TEST(test_fmt_num)
{
	char buf[32];
	ck_assert_str_eq(screen_calc_fmt_num(num_cases[_i].v, num_cases[_i].width, num_cases[_i].prec,
					buf, sizeof buf), num_cases[_i].want);
}
END_TEST

/* The fast "%.*f" against printf itself, byte for byte and in its return: decimal ties
 * (ties to even on the exact value), the doubles either side of each, negatives and -0,
 * short buffers, the edges of the fast path, and a spread of random magnitudes. */
static void fixed_check(double v, int prec, size_t len)
{
	char want[64], got[64];
	memset(got, 'x', sizeof got);
	int wn = snprintf(want, len, "%.*f", prec, v);
	int gn = screen_calc_fmt_fixed(v, prec, got, len);
	ck_assert_msg(wn == gn && (len == 0 || strcmp(want, got) == 0),
		      "%.17g prec %d len %zu: printf \"%s\" (%d), fast \"%s\" (%d)", v, prec, len,
		      want, wn, got, gn);
}

START_TEST(test_fmt_fixed)
{
	static const double edges[] = { 0, -0.0, 0.5, 1.5, 2.5, -2.5, 0.05, 0.15, 0.25, 0.35,
					0.125, 0.375, 1e-300, 5e-324, 999.95, 9.995, 1e15, 9.99e14,
					-9.99e14, 1e20, INFINITY, -INFINITY, NAN, 4503599627370495.5 };
	for (size_t k = 0; k < sizeof edges / sizeof edges[0]; k++)
		for (int p = 0; p <= 7; p++) {
			fixed_check(edges[k], p, 64);
			fixed_check(nextafter(edges[k], INFINITY), p, 64);
			fixed_check(nextafter(edges[k], -INFINITY), p, 64);
		}
	srandom(18);
	for (int i = 0; i < 200000; i++) {
		int p = i % 7;
		double v;
		if (i % 3 == 0) {	/* a decimal tie at this precision, and its neighbours */
			double t = ((double)(random() % 2000000) + 0.5) / pow(10, p);
			v = i % 2 ? t : nextafter(t, (i & 4) ? INFINITY : 0);
		} else {
			v = ldexp((double)random() / 2147483648.0, (int)(random() % 100) - 40);
		}
		if (i % 5 == 0)
			v = -v;
		fixed_check(v, p, i % 11 == 0 ? (size_t)(i % 9) : 64);
	}
}
END_TEST

/* Padding into a row: what "%*s" and "%-*.*s" print into the rest of the buffer, byte for
 * byte, cut where the buffer ends, for texts shorter than, as long as and longer than the
 * width, a width of 0, and every room left from none to plenty. */
START_TEST(test_pad_into)
{
	static const char *texts[] = { "", "7", "12.5", "abcdefgh", "a label that is long" };
	static const int widths[] = { 0, 1, 4, 8, 12 };
	for (size_t t = 0; t < sizeof texts / sizeof texts[0]; t++)
		for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++)
			for (int left = 0; left < 2; left++)
				for (size_t cap = 4; cap < 30; cap++) {
					char want[64] = "ab", got[64] = "ab";
					int width = widths[w];
					if (left)
						snprintf(want + 2, cap - 2, "%-*.*s", width, width, texts[t]);
					else
						snprintf(want + 2, cap - 2, "%*s", width, texts[t]);
					size_t n = screen_calc_pad_into(got, cap, 2, texts[t], width, left);
					ck_assert_msg(strcmp(want, got) == 0 && n == strlen(want),
						      "\"%s\" width %d left %d cap %zu: \"%s\", got \"%s\" (%zu)",
						      texts[t], width, left, cap, want, got, n);
				}
}
END_TEST

static const struct {
	double s;
	const char *want;
} dur_cases[] = {
	{ 0.42, "0.4s" }, { 9.9, "9.9s" }, { 12.4, "12s" }, { 61, "1m01s" }, { 541.25, "9m01s" },
	{ 3599.6, "1h00m" }, { 7500, "2h05m" }, { 3 * 86400 + 4 * 3600, "3d04h" }, { -1, "-" },
	{ NAN, "-" },
};

START_TEST(test_fmt_duration)
{
	char buf[24];
	ck_assert_str_eq(screen_calc_fmt_duration(dur_cases[_i].s, buf, sizeof buf), dur_cases[_i].want);
}
END_TEST

static const struct {
	double s;
	const char *want;
} up_cases[] = {
	{ 0, "0:00" }, { 4 * 3600 + 12 * 60 + 59, "4:12" }, { 86400 + 300, "1 day, 0:05" },
	{ 3 * 86400, "3 days, 0:00" }, { -1, "-" },
};

START_TEST(test_fmt_uptime)
{
	char buf[32];
	ck_assert_str_eq(screen_calc_fmt_uptime(up_cases[_i].s, buf, sizeof buf), up_cases[_i].want);
}
END_TEST

/* The gauge: time until Dirty+Writeback reaches the limit at the net
 * growth rate, and time to write out what is pending. */
static const struct {
	uint64_t used_kb, limit_kb;
	double growth_kbps, want;
} limit_cases[] = {
	{ 100, 1000, 10, 90 },
	{ 245760, 800000, 1024, 541.25 },
	{ 1000, 1000, 10, 0 },		/* at the limit */
	{ 1200, 1000, -5, 0 },		/* over it, even while shrinking */
	{ 100, 1000, 0, -1 },		/* not growing */
	{ 100, 1000, -5, -1 },
	{ 100, 0, 10, -1 },		/* limit unknown */
	{ 100, 1000, NAN, -1 },
};

START_TEST(test_time_to_limit)
{
	ck_assert_double_eq_tol(screen_calc_time_to_limit_s(limit_cases[_i].used_kb, limit_cases[_i].limit_kb,
						       limit_cases[_i].growth_kbps),
				limit_cases[_i].want, 1e-9);
}
END_TEST

START_TEST(test_drain)
{
	ck_assert_double_eq_tol(screen_calc_drain_s(1000, 100), 10, 1e-9);
	ck_assert_double_eq_tol(screen_calc_drain_s(0, 100), 0, 1e-9);
	ck_assert_double_eq_tol(screen_calc_drain_s(1000, 0), -1, 1e-9);
	ck_assert_double_eq_tol(screen_calc_drain_s(1000, NAN), -1, 1e-9);
}
END_TEST

static const struct {
	double v, max;
	int levels, want;
} spark_cases[] = {
	{ 0, 10, 8, 0 }, { NAN, 10, 8, 0 }, { -3, 10, 8, 0 }, { 10, 10, 8, 8 }, { 20, 10, 8, 8 },
	{ 0.01, 10, 8, 1 }, { 5, 10, 8, 4 }, { 5, 0, 8, 8 }, { 5, 10, 0, 0 },
};

START_TEST(test_spark_level)
{
	ck_assert_int_eq(screen_calc_spark_level(spark_cases[_i].v, spark_cases[_i].max, spark_cases[_i].levels),
			 spark_cases[_i].want);
}
END_TEST

START_TEST(test_bar_and_marks)
{
	ck_assert_int_eq(screen_calc_bar_eighths(5, 10, 4), 16);
	ck_assert_int_eq(screen_calc_bar_eighths(10, 10, 4), 32);
	ck_assert_int_eq(screen_calc_bar_eighths(11, 10, 4), 32);
	ck_assert_int_eq(screen_calc_bar_eighths(0.001, 10, 4), 1);
	ck_assert_int_eq(screen_calc_bar_eighths(0, 10, 4), 0);
	ck_assert_int_eq(screen_calc_bar_eighths(NAN, 10, 4), 0);
	ck_assert_int_eq(screen_calc_bar_eighths(5, 0, 4), 0);
	ck_assert_int_eq(screen_calc_mark_pos(50, 100, 10), 5);
	ck_assert_int_eq(screen_calc_mark_pos(0, 100, 10), 0);
	ck_assert_int_eq(screen_calc_mark_pos(100, 100, 10), 9);
	ck_assert_int_eq(screen_calc_mark_pos(101, 100, 10), -1);
	ck_assert_int_eq(screen_calc_mark_pos(5, 0, 10), -1);
}
END_TEST

/* The replay's time prompt: words, offsets from the sample shown, and
 * everything else left to the time parser (which says no to nonsense). */
static const struct {
	const char *text;
	enum screen_req_kind want;
	double seconds;
} seek_cases[] = {
	{ "start", SCREEN_REQ_SEEK_START, 0 }, { " begin", SCREEN_REQ_SEEK_START, 0 },
	{ "end", SCREEN_REQ_SEEK_END, 0 },
	{ "+30s", SCREEN_REQ_SEEK, 30 }, { "-2m", SCREEN_REQ_SEEK, -120 }, { "+1h", SCREEN_REQ_SEEK, 3600 },
	{ "-1.5d", SCREEN_REQ_SEEK, -129600 }, { "+10", SCREEN_REQ_SEEK, 10 }, { "+0.2s", SCREEN_REQ_SEEK, 0.2 },
	{ "14:03:22", SCREEN_REQ_SEEK_TIME, 0 }, { "2024-05-01 14:03:22", SCREEN_REQ_SEEK_TIME, 0 },
	{ "1714550400.5", SCREEN_REQ_SEEK_TIME, 0 },
	{ "+", SCREEN_REQ_SEEK_TIME, 0 }, { "+5x", SCREEN_REQ_SEEK_TIME, 0 }, { "+5ss", SCREEN_REQ_SEEK_TIME, 0 },
	{ "+inf", SCREEN_REQ_SEEK_TIME, 0 }, { "-nan", SCREEN_REQ_SEEK_TIME, 0 }, { "soon", SCREEN_REQ_SEEK_TIME, 0 },
	{ "", SCREEN_REQ_SEEK_TIME, 0 }, { "ending", SCREEN_REQ_SEEK_TIME, 0 },
};

START_TEST(test_parse_seek)
{
	double v = -12345;
	ck_assert_int_eq(screen_calc_parse_seek(seek_cases[_i].text, &v), seek_cases[_i].want);
	if (seek_cases[_i].want == SCREEN_REQ_SEEK)
		ck_assert_double_eq_tol(v, seek_cases[_i].seconds, 1e-9);
}
END_TEST

START_TEST(test_speed_and_save_name)
{
	char buf[64];
	ck_assert_str_eq(screen_calc_fmt_speed(1, buf, sizeof buf), "1x");
	ck_assert_str_eq(screen_calc_fmt_speed(16, buf, sizeof buf), "16x");
	ck_assert_str_eq(screen_calc_fmt_speed(0.25, buf, sizeof buf), "0.25x");
	ck_assert_str_eq(screen_calc_fmt_speed(1.0 / 64, buf, sizeof buf), "0.0156x");
	ck_assert_str_eq(screen_calc_fmt_speed(2.5 / 0.2, buf, sizeof buf), "12.5x");
	setenv("TZ", "UTC", 1);
	tzset();
	ck_assert_str_eq(screen_calc_save_name(1714572202000000000LL, buf, sizeof buf), "wbtop-20240501-140322.db");
	ck_assert_str_eq(screen_calc_save_name(0, buf, sizeof buf), "wbtop-19700101-000000.db");
}
END_TEST

/* The layouts the settings file may give, and what each opens. */
static const struct { const char *text; int rc; bool procs; const char *why; } layout_cases[] = {
	{ "sys devices graph", 0, false, NULL },
	{ "sys devices procs", 0, true, NULL },
	{ "procs,devices", 0, true, NULL },
	{ "", 0, false, NULL },
	{ "weird", -EINVAL, false, "unknown pane 'weird' (sys, devices, graph, procs)" },
	{ "sys devicesx", -EINVAL, false, "unknown pane 'devicesx' (sys, devices, graph, procs)" },
	{ "graph procs", -EINVAL, false, "graph and procs share the bottom of the screen: give one" },
};

START_TEST(test_layout)
{
	bool procs = !layout_cases[_i].procs;
	char why[160] = "";
	ck_assert_int_eq(screen_calc_layout_parse(layout_cases[_i].text, &procs, why, sizeof why),
			 layout_cases[_i].rc);
	if (layout_cases[_i].rc == 0)
		ck_assert(procs == layout_cases[_i].procs);
	else
		ck_assert_str_eq(why, layout_cases[_i].why);
	/* what W saves reads back as itself */
	ck_assert_int_eq(screen_calc_layout_parse(screen_calc_layout_name(true), &procs, why, sizeof why), 0);
	ck_assert(procs);
	ck_assert_int_eq(screen_calc_layout_parse(screen_calc_layout_name(false), &procs, why, sizeof why), 0);
	ck_assert(!procs);
}
END_TEST

/* A seek lands on the sample a few microseconds short of the time asked
 * for, not the one after it; a sample clearly before is not taken. */
START_TEST(test_seek_take_earlier)
{
	const int64_t s = 1000000000;
	ck_assert(screen_calc_seek_take_earlier(5 * s, 5 * s - 3000, 6 * s - 2000));	/* 3 us early */
	ck_assert(screen_calc_seek_take_earlier(5 * s, 5 * s - s / 20, 6 * s));	/* 50 ms of 1 s */
	ck_assert(!screen_calc_seek_take_earlier(5 * s, 5 * s - s / 5, 6 * s));	/* 200 ms: the next one */
	ck_assert(!screen_calc_seek_take_earlier(5 * s, 5 * s, 6 * s));		/* exact: it is "at or after" */
	ck_assert(!screen_calc_seek_take_earlier(5 * s, 5 * s + 1, 6 * s));	/* not before at all */
	ck_assert(!screen_calc_seek_take_earlier(5 * s, -1, 6 * s));		/* unknown time */
	ck_assert(!screen_calc_seek_take_earlier(5 * s, 6 * s, 6 * s));		/* no interval */
}
END_TEST

/* The gauge's trend: a time-weighted mean over the last window, newest
 * first, the oldest frame cut at the window's edge, frames without rates
 * skipped; periodic writeback's 5 s bursts average out. */
START_TEST(test_trend)
{
	/* written: one 5 s burst of 50M/s in each 10 s; dirtied: a steady 10M/s */
	double dirtied[40], written[40], dt[40];
	for (int i = 0; i < 40; i++) {
		dirtied[i] = 10240;
		written[i] = (i / 5) % 2 ? 0 : 51200;
		dt[i] = 1;
	}
	struct screen_calc_trend t;
	ck_assert(screen_calc_trend(dirtied, written, dt, 40, 30, &t));
	ck_assert_double_eq_tol(t.span_s, 30, 1e-9);
	ck_assert_double_eq_tol(t.dirtied_kbps, 10240, 1e-6);
	ck_assert_double_eq_tol(t.written_kbps, 25600, 1e-6);	/* half the time at 50M/s */
	/* early on: the mean of what there is, and how long that is */
	ck_assert(screen_calc_trend(dirtied, written, dt, 3, 30, &t));
	ck_assert_double_eq_tol(t.span_s, 3, 1e-9);
	ck_assert_double_eq_tol(t.written_kbps, 51200, 1e-6);
	/* the oldest frame counts for its part inside the window */
	double d2[2] = { 100, 400 }, w2[2] = { 0, 0 }, t2[2] = { 10, 40 };
	ck_assert(screen_calc_trend(d2, w2, t2, 2, 30, &t));
	ck_assert_double_eq_tol(t.span_s, 30, 1e-9);
	ck_assert_double_eq_tol(t.dirtied_kbps, (100 * 10 + 400 * 20) / 30.0, 1e-6);
	/* frames without rates are skipped; none at all: false */
	double dn[2] = { NAN, 50 }, wn[2] = { NAN, 5 }, tn[2] = { 1, 2 };
	ck_assert(screen_calc_trend(dn, wn, tn, 2, 30, &t));
	ck_assert_double_eq_tol(t.span_s, 2, 1e-9);
	ck_assert_double_eq_tol(t.dirtied_kbps, 50, 1e-9);
	ck_assert(!screen_calc_trend(dn, wn, tn, 1, 30, &t));
	ck_assert(!screen_calc_trend(dn, wn, tn, 0, 30, &t));
}
END_TEST

/* Rows below the summary: the table as its devices need, the graph the rest. */
static const struct { int avail, want, table, bars; } split_cases[] = {
	{ 16, 3, 3, 11 },	/* 80x24, two devices: the graph gets the room */
	{ 16, 30, 10, 4 },	/* many devices: the graph keeps a quarter */
	{ 42, 3, 3, 37 },	/* 200x50, two devices: no blank rows */
	{ 42, 20, 20, 20 },
	{ 42, 100, 30, 10 },	/* a quarter of the room for the graph */
	{ 8, 1, 3, 3 },		/* the smallest screen: 3 rows of table at least */
	{ 8, 9, 4, 2 },
};

START_TEST(test_split_rows)
{
	int bars = -1;
	int table = screen_calc_split_rows(split_cases[_i].avail, split_cases[_i].want, &bars);
	ck_assert_int_eq(table, split_cases[_i].table);
	ck_assert_int_eq(bars, split_cases[_i].bars);
	ck_assert_int_le(table + bars + 2, split_cases[_i].avail < 7 ? 7 : split_cases[_i].avail);
}
END_TEST

/* Names in the order people count them: each list is ascending. */
static const char *const name_orders[][8] = {
	{ "loop0", "loop1", "loop2", "loop9", "loop10", "loop11", "loop100", NULL },
	{ "nvme0n1", "nvme0n2", "nvme0n10", "nvme1n1", "nvme2n1", "nvme10n1", NULL },
	{ "dm-0", "dm-9", "dm-104", "dm-1000", "dm-1007", NULL },
	{ "md9", "md10", "mda", "sda", "sda1", "sda2", "sda10", NULL },
	/* the same number written longer comes after; digits before letters, as bytes */
	{ "a0", "a00", "a1", "a01", "a001", "a2", "aa", NULL },
	{ "", "1", "9", "10", "a", "b", NULL },
	{ "sd9", "sd18446744073709551616", "sd36893488147419103232", NULL },
};

START_TEST(test_name_cmp)
{
	const char *const *o = name_orders[_i];
	for (size_t i = 0; o[i]; i++)
		for (size_t j = 0; o[j]; j++) {
			int want = i < j ? -1 : i > j ? 1 : 0;
			int got = screen_calc_name_cmp(o[i], o[j]);
			ck_assert_msg((got > 0) - (got < 0) == want, "%s vs %s: %d, want %d",
				      o[i], o[j], got, want);
		}
}
END_TEST

/* A total order over names made of a few letters and digits: antisymmetric, transitive,
 * zero only for equal names (what a sort relies on), checked over every triple. */
START_TEST(test_name_cmp_total)
{
	static const char *const set[] = {
		"", "0", "00", "01", "1", "10", "9", "a", "a0", "a00", "a01", "a1", "a10", "a9",
		"a9b", "a10b", "ab", "b", "b1", "0a", "1a", "-", "a-1", "a-10", "a.1",
	};
	size_t n = sizeof set / sizeof set[0];
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			int ij = screen_calc_name_cmp(set[i], set[j]), ji = screen_calc_name_cmp(set[j], set[i]);
			ck_assert_int_eq((ij > 0) - (ij < 0), -((ji > 0) - (ji < 0)));
			ck_assert_int_eq(ij == 0, i == j);
			for (size_t k = 0; k < n; k++)
				if (ij < 0 && screen_calc_name_cmp(set[j], set[k]) < 0)
					ck_assert_int_lt(screen_calc_name_cmp(set[i], set[k]), 0);
		}
}
END_TEST

#define NCASES(a) (int)(sizeof a / sizeof a[0])

Suite *screen_suite(void)
{
	Suite *s = suite_create("screen");
	TCase *tc = tcase_create("calc");
	tcase_add_loop_test(tc, test_fmt_kb, 0, NCASES(kb_cases));
	tcase_add_loop_test(tc, test_fmt_num, 0, NCASES(num_cases));
	tcase_add_test(tc, test_fmt_fixed);
	tcase_add_test(tc, test_pad_into);
	tcase_add_loop_test(tc, test_fmt_duration, 0, NCASES(dur_cases));
	tcase_add_loop_test(tc, test_fmt_uptime, 0, NCASES(up_cases));
	tcase_add_loop_test(tc, test_time_to_limit, 0, NCASES(limit_cases));
	tcase_add_test(tc, test_drain);
	tcase_add_loop_test(tc, test_spark_level, 0, NCASES(spark_cases));
	tcase_add_test(tc, test_bar_and_marks);
	tcase_add_loop_test(tc, test_parse_seek, 0, NCASES(seek_cases));
	tcase_add_test(tc, test_speed_and_save_name);
	tcase_add_loop_test(tc, test_layout, 0, NCASES(layout_cases));
	tcase_add_test(tc, test_seek_take_earlier);
	tcase_add_test(tc, test_trend);
	tcase_add_loop_test(tc, test_split_rows, 0, NCASES(split_cases));
	tcase_add_loop_test(tc, test_name_cmp, 0, NCASES(name_orders));
	tcase_add_test(tc, test_name_cmp_total);
	suite_add_tcase(s, tc);
	return s;
}
