/*
 * test_dips_rule.c - the dip rule of doc/dips.md, one test a statement: the level (a quantile of
 * the busy intervals), the noise (of steady changes), the threshold and its cap, holes, counting
 * noise, pacing ticks, the end of a workload, the depth of a mark, the group's share.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "core/detect.h"

Suite *dips_rule_suite(void);

/* Deterministic noise: xorshift64, uniform in [-1, 1). */
static double rule_noise(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return (double)(*state >> 11) / 4503599627370496.0 - 1.0;
}

/* The defaults, for rates in MiB/s (the idle floor 64 KiB/s). */
static struct dip_params rule_params(void)
{
	struct dip_params p;
	detect_params_default(&p);
	p.idle_floor = 0.0625;
	return p;
}

/* Feed v[0..n) to a new series of intervals of dt seconds (0: unknown); marks[i] and
 * depth[i] (either may be NULL); returns the number of marks. */
static int rule_run(const struct dip_params *p, double dt, const double *v, const double *reqs,
		    size_t n, bool *marks, double *depth)
{
	struct dip_series *s = detect_series_new(p);
	ck_assert_ptr_nonnull(s);
	detect_series_set_interval(s, dt);
	int marked = 0;
	for (size_t i = 0; i < n; i++) {
		bool m = detect_series_feed_reqs(s, v[i], reqs ? reqs[i] : -1.0, true);
		marked += m;
		if (marks)
			marks[i] = m;
		if (depth)
			depth[i] = detect_series_depth(s);
	}
	detect_series_free(s);
	return marked;
}

/* The level is a quantile of the busy intervals only: a series off half the time (the thread's
 * dirty_ratio 40, writeback turning on and off) keeps the level it has when on, and every
 * hole is a dip, however erratic the series. */
START_TEST(test_holes_in_an_on_off_series)
{
	struct dip_params p = rule_params();
	double v[120];
	bool m[120];
	uint64_t st = 5;
	for (size_t i = 0; i < 120; i++) {
		bool off = rule_noise(&st) < -0.1; /* off 45 % of the time */
		v[i] = off ? 0.0 : 55.0 * (1.0 + 0.4 * rule_noise(&st));
	}
	v[0] = v[1] = v[2] = v[3] = 50.0;
	rule_run(&p, 1.0, v, NULL, 120, m, NULL);
	for (size_t i = 4; i < 120; i++)
		if (v[i] == 0.0)
			ck_assert_msg(m[i], "interval %zu: a hole not marked", i);
}
END_TEST

/* The cap: however noisy the series, a fall of more than the cap (a quarter of the level by
 * default, never more than a third) is a dip; within the noise, less than that is not. */
START_TEST(test_cap_on_a_noisy_series)
{
	struct dip_params p = rule_params();
	double v[200], d[200];
	bool m[200];
	uint64_t st = 7;
	for (size_t i = 0; i < 200; i++)
		v[i] = 350.0 * (1.0 + 0.3 * rule_noise(&st));
	rule_run(&p, 0.0, v, NULL, 200, m, d);
	/* once the noise window is full (60 busy values): each mark is a fall of more than the
	 * cap (noise of +-30 % reaches that now and then), and each such fall is a mark */
	for (size_t i = 60; i < 200; i++)
		ck_assert_msg(m[i] == (d[i] > 100.0 * DIP_DEFAULT_CAP), "interval %zu: depth %.1f %s",
			      i, d[i], m[i] ? "marked" : "not marked");
	v[150] = 350.0 * 0.6;
	rule_run(&p, 0.0, v, NULL, 200, m, d);
	ck_assert_msg(m[150] && d[150] > 100.0 / 3.0, "depth %.1f", d[150]);
	/* a cap of a third, the most --dip-model takes: only falls past it */
	ck_assert_int_eq(detect_params_parse_model(&p, "c=0.3333333333"), 0);
	rule_run(&p, 0.0, v, NULL, 200, m, d);
	for (size_t i = 60; i < 200; i++)
		ck_assert_msg(m[i] == (d[i] > 100.0 / 3.0), "c=1/3: interval %zu: depth %.1f %s", i,
			      d[i], m[i] ? "marked" : "not marked");
}
END_TEST

/* A fall past the cap is a dip, never noise, from the first values on: the thread's iostat
 * trace (its three dm devices, MB/s at 5 s). In the 4th interval dm-0 falls 27 % and dm-2 26 %,
 * past the cap; in the 6th dm-2 falls 12 %, which the hand marks. Had those falls been learnt,
 * the devices' noises (of five values each, their median a floor for each) would put dm-2's
 * threshold past 12 %. */
START_TEST(test_fall_past_cap_not_learnt_early)
{
	struct dip_params p = rule_params();
	static const double v[][3] = {
		{498.4, 479.4, 514.5}, {501.7, 484.3, 523.0}, {490.3, 498.0, 498.4},
		{361.7, 543.9, 376.8}, {488.3, 542.2, 469.7}, {566.2, 560.7, 441.0},
		{469.8, 497.2, 499.7}, {512.6, 505.4, 487.8},
	};
	static const char *const keys[3] = {"dm-0", "dm-1", "dm-2"};
	struct dip_group *g = detect_group_new(&p);
	ck_assert_ptr_nonnull(g);
	detect_group_set_interval(g, 5.0);
	for (size_t t = 0; t < sizeof v / sizeof v[0]; t++) {
		bool m[3];
		double d[3];
		bool any = detect_group_feed_depth(g, keys, NULL, v[t], NULL, 3, m, d);
		if (t == 3)
			ck_assert_msg(m[0] && m[2] && d[0] > 100.0 * DIP_DEFAULT_CAP &&
				      d[2] > 100.0 * DIP_DEFAULT_CAP, "t 3: %.1f %.1f", d[0], d[2]);
		else if (t == 5)
			ck_assert_msg(m[2] && !m[0] && !m[1], "t 5: dm-2 %.1f %% low, %s", d[2],
				      m[2] ? "others marked" : "not marked");
		else
			ck_assert_msg(!any, "t %zu marked", t);
	}
	detect_group_free(g);
}
END_TEST

/* A quiet series (2 % noise) is judged by --dip: 12 % and 20 % drops are dips, 5 % ones are not,
 * and a higher --dip asks for deeper ones. */
START_TEST(test_quiet_series_judged_by_dip)
{
	struct dip_params p = rule_params();
	double v[60];
	bool m[60];
	uint64_t st = 42;
	for (size_t i = 0; i < 60; i++)
		v[i] = 740.0 * (1.0 + 0.02 * rule_noise(&st));
	ck_assert_int_eq(rule_run(&p, 0.0, v, NULL, 60, m, NULL), 0);
	v[20] = v[30] = 740.0 * 0.95;
	v[40] = 740.0 * 0.88;
	v[50] = 740.0 * 0.80;
	ck_assert_int_eq(rule_run(&p, 0.0, v, NULL, 60, m, NULL), 2);
	ck_assert(m[40] && m[50]);
	ck_assert_int_eq(detect_params_parse(&p, "15"), 0);
	ck_assert_int_eq(rule_run(&p, 0.0, v, NULL, 60, m, NULL), 1);
	ck_assert(m[50]);
}
END_TEST

/* The noise is symmetric and learnt from steady changes: a series that grows noisier (+-20 %)
 * stops being marked within two noise windows, while a fall past the cap still is. (Within
 * one, it is still marked now and then: the falls it marks are not learnt, so the noise
 * learns the new spread from its smaller falls and its rises.) */
START_TEST(test_noise_is_learnt)
{
	struct dip_params p = rule_params();
	enum { N = 300 };
	double v[N];
	bool m[N];
	uint64_t st = 11;
	for (size_t i = 0; i < N; i++)
		v[i] = 100.0 * (1.0 + (i < 100 ? 0.02 : 0.2) * rule_noise(&st));
	v[250] = 50.0;
	rule_run(&p, 0.0, v, NULL, N, m, NULL);
	int late = 0;
	for (size_t i = 100 + 2 * 60; i < N; i++)
		late += m[i] && i != 250;
	ck_assert_msg(late <= 1, "%d marks on plain noise after it was learnt", late);
	ck_assert(m[250]);
}
END_TEST

/* What is marked does not teach the noise: a writer steady within +-3 % whose drops of 30 % come
 * in 30 % of its intervals (loop/erratic's) has each of them marked, and none of its steady
 * intervals. Were the drops learnt, its interquartile range would reach down to them (some 22 %
 * as a sigma) and put all of them inside the cap. */
START_TEST(test_marked_drops_do_not_teach_the_noise)
{
	struct dip_params p = rule_params();
	enum { N = 300, CLEAN = 30 };
	double v[N];
	bool m[N];
	uint64_t st = 23;
	for (size_t i = 0; i < N; i++) {
		bool drop = i >= CLEAN && rule_noise(&st) < -0.4; /* 30 % of the intervals */
		v[i] = 40.0 * (drop ? 0.7 : 1.0) * (1.0 + 0.03 * rule_noise(&st));
	}
	rule_run(&p, 1.0, v, NULL, N, m, NULL);
	int drops = 0;
	for (size_t i = CLEAN; i < N; i++) {
		bool drop = v[i] < 40.0 * 0.8;
		drops += drop;
		ck_assert_msg(m[i] == drop, "interval %zu: %.1f MiB/s %s", i, v[i],
			      m[i] ? "marked" : "not marked");
	}
	ck_assert_int_ge(drops, 60);
}
END_TEST

/* Counting noise: a writer of 10 requests an interval that completes 3 fewer (30 %, past the cap)
 * is not dipping; 6 fewer is. */
START_TEST(test_counting_noise)
{
	struct dip_params p = rule_params();
	double v[40], r[40];
	bool m[40];
	for (size_t i = 0; i < 40; i++) {
		r[i] = 10.0;
		v[i] = 10.0;	/* 1 MiB requests, in MiB/s */
	}
	r[20] = v[20] = 7.0;
	r[30] = v[30] = 4.0;
	ck_assert_int_eq(rule_run(&p, 1.0, v, r, 40, m, NULL), 1);
	ck_assert(m[30]);
}
END_TEST

/* Counting noise is counted in the usual request, over this interval's length: one request of
 * 1.25 MiB where a writer completes five of 1 MiB is a fall of 3.75 requests, a dip (not of 3,
 * at the interval's own request size); after a late sample (2.8 s), an interval of 0.2 s with
 * no request is short by one request, no dip (not by 14, at the late interval's length), while a
 * whole second with none is. */
START_TEST(test_counting_noise_in_usual_requests)
{
	struct dip_params p = rule_params();
	struct dip_series *s = detect_series_new(&p);
	ck_assert_ptr_nonnull(s);
	detect_series_set_interval(s, 1.0);
	for (int i = 0; i < 30; i++)
		ck_assert(!detect_series_feed_reqs(s, 5.0, 5.0, true));
	ck_assert(detect_series_feed_reqs(s, 1.25, 1.0, true));
	for (int i = 0; i < 10; i++)
		ck_assert(!detect_series_feed_reqs(s, 5.0, 5.0, true));
	detect_series_set_interval(s, 2.8);
	ck_assert(!detect_series_feed_reqs(s, 5.0, 14.0, true));
	detect_series_set_interval(s, 0.2);
	ck_assert(!detect_series_feed_reqs(s, 0.0, 0.0, true));
	detect_series_set_interval(s, 1.0);
	for (int i = 0; i < 10; i++)
		ck_assert(!detect_series_feed_reqs(s, 5.0, 5.0, true));
	ck_assert(detect_series_feed_reqs(s, 0.0, 0.0, true));
	detect_series_free(s);
}
END_TEST

/* Pacing ticks: at 1 s intervals a single interval short by one tick (a tenth of a second of the
 * level) after a usual one is not a dip; the same fall held for two intervals is, at the second;
 * at 5 s ticks do not count. */
START_TEST(test_pacing_tick)
{
	struct dip_params p = rule_params();
	double v[40];
	bool m[40];
	for (size_t i = 0; i < 40; i++)
		v[i] = 40.0;
	v[20] = 36.0 * 0.99;	/* a tick and a little late: 11 % */
	ck_assert_int_eq(rule_run(&p, 1.0, v, NULL, 40, m, NULL), 0);
	v[21] = 36.0 * 0.99;
	ck_assert_int_eq(rule_run(&p, 1.0, v, NULL, 40, m, NULL), 1);
	ck_assert(m[21]);
	ck_assert_int_eq(rule_run(&p, 5.0, v, NULL, 40, m, NULL), 2);
}
END_TEST

/* The end of a workload: idle for 10 s in a row, the series has ended. Its idle intervals are
 * marked until then (no look-ahead), and none after; the next workload is learnt as new. */
START_TEST(test_end_of_a_workload)
{
	struct dip_params p = rule_params();
	enum { N = 80 };
	double v[N];
	bool m[N];
	for (size_t i = 0; i < N; i++)
		v[i] = i < 30 ? 60.0 + (double)(i % 3) : (i < 60 ? 0.0 : 20.0 + (double)(i % 2));
	int marked = rule_run(&p, 1.0, v, NULL, N, m, NULL);
	for (size_t i = 30; i < 40; i++)
		ck_assert_msg(m[i], "interval %zu: idle before the end, not marked", i);
	ck_assert_int_eq(marked, 10);
	/* at 5 s intervals two idle intervals end it; with the length unknown, five */
	ck_assert_int_eq(rule_run(&p, 5.0, v, NULL, N, m, NULL), 2);
	ck_assert_int_eq(rule_run(&p, 0.0, v, NULL, N, m, NULL), 5);
}
END_TEST

/* An idle or trickling series (at most the idle floor) is never judged. */
START_TEST(test_idle_series)
{
	struct dip_params p = rule_params();
	double v[50];
	for (size_t i = 0; i < 50; i++)
		v[i] = (i % 5 == 0) ? 0.06 : 0.0;
	ck_assert_int_eq(rule_run(&p, 1.0, v, NULL, 50, NULL, NULL), 0);
}
END_TEST

/* Each mark says how deep: the fall in percent of the level; no level, no depth. */
START_TEST(test_depth)
{
	struct dip_params p = rule_params();
	double v[30], d[30];
	bool m[30];
	for (size_t i = 0; i < 30; i++)
		v[i] = 100.0;
	v[20] = 70.0;
	v[25] = 0.0;
	rule_run(&p, 1.0, v, NULL, 30, m, d);
	ck_assert(isnan(d[0]) && isnan(d[1]));
	ck_assert(m[20] && fabs(d[20] - 30.0) < 1e-9);
	ck_assert(m[25] && fabs(d[25] - 100.0) < 1e-9);
	ck_assert(!m[22] && d[22] == 0.0);
}
END_TEST

/* The level's window: a burst shorter than the part of the window above the quantile does not
 * raise it (n=16, q=0.6: 6 intervals), so its end is no fall. */
START_TEST(test_burst_does_not_raise_the_level)
{
	struct dip_params p = rule_params();
	ck_assert_int_eq(detect_params_parse_model(&p, "q=0.6,n=16"), 0);
	double v[60];
	bool m[60];
	for (size_t i = 0; i < 60; i++)
		v[i] = (i >= 30 && i < 36) ? 400.0 : 30.0 + (double)(i % 2);
	ck_assert_int_eq(rule_run(&p, 1.0, v, NULL, 60, m, NULL), 0);
}
END_TEST

/* --dip-model: four named parameters, each checked; the cap no more than a third. */
START_TEST(test_model_parse)
{
	static const struct {
		const char *text;
		int rc;
	} cases[] = {
		{"q=0.6,n=16,k=3", 0}, {"k=4", 0}, {"n=32,q=1", 0}, {"q=0", -1}, {"q=1.5", -1},
		{"n=2", -1}, {"n=33", -1}, {"n=7.5", -1}, {"k=0", -1}, {"k=-1", -1}, {"x=1", -1},
		{"q=", -1}, {"q=0.5,", -1}, {"", -1}, {"q0.5", -1}, {"q=nan", -1},
		{"c=0.3", 0}, {"c=0.3333333333", 0}, {"c=0.34", -1}, {"c=0", -1}, {"c=-0.1", -1},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct dip_params p;
		detect_params_default(&p);
		int rc = detect_params_parse_model(&p, cases[i].text);
		ck_assert_msg((rc == 0) == (cases[i].rc == 0), "%s: %d", cases[i].text, rc);
		if (rc)
			ck_assert(p.level_q == DIP_DEFAULT_LEVEL_Q && p.level_n == DIP_DEFAULT_LEVEL_N &&
				  p.noise_k == DIP_DEFAULT_NOISE_K && p.cap == DIP_DEFAULT_CAP);
	}
	struct dip_params p;
	detect_params_default(&p);
	ck_assert_int_eq(detect_params_parse_model(&p, "k=4.5,n=20,c=0.3,q=0.75"), 0);
	ck_assert(p.level_q == 0.75 && p.level_n == 20 && p.noise_k == 4.5 && p.cap == 0.3);
}
END_TEST

/* In a group, a device whose level is under a quarter of the busy devices' mean is background
 * (a journal): its holes are not marked; a writer among them is judged. */
START_TEST(test_group_background_device)
{
	struct dip_params p = rule_params();
	struct dip_group *g = detect_group_new(&p);
	const char *keys[3] = {"a", "b", "log"};
	bool m[3];
	double depth[3];
	detect_group_set_interval(g, 1.0);
	for (int t = 0; t < 60; t++) {
		double v[3] = {100.0 + t % 3, 100.0 + (t + 1) % 3, t % 4 ? 0.0 : 2.0};
		if (t == 50)
			v[1] = 40.0;
		bool dip = detect_group_feed_depth(g, keys, NULL, v, NULL, 3, m, depth);
		ck_assert_msg(!m[2], "t %d: the background device marked", t);
		ck_assert_msg(dip == (t == 50) && m[1] == (t == 50), "t %d", t);
	}
	detect_group_free(g);
}
END_TEST

Suite *dips_rule_suite(void)
{
	Suite *s = suite_create("dips_rule");
	TCase *tc = tcase_create("rule");
	tcase_add_test(tc, test_holes_in_an_on_off_series);
	tcase_add_test(tc, test_cap_on_a_noisy_series);
	tcase_add_test(tc, test_fall_past_cap_not_learnt_early);
	tcase_add_test(tc, test_quiet_series_judged_by_dip);
	tcase_add_test(tc, test_noise_is_learnt);
	tcase_add_test(tc, test_marked_drops_do_not_teach_the_noise);
	tcase_add_test(tc, test_counting_noise);
	tcase_add_test(tc, test_counting_noise_in_usual_requests);
	tcase_add_test(tc, test_pacing_tick);
	tcase_add_test(tc, test_end_of_a_workload);
	tcase_add_test(tc, test_idle_series);
	tcase_add_test(tc, test_depth);
	tcase_add_test(tc, test_burst_does_not_raise_the_level);
	tcase_add_test(tc, test_model_parse);
	tcase_add_test(tc, test_group_background_device);
	suite_add_tcase(s, tc);
	return s;
}
