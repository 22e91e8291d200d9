/*
 * test_dips_corpus.c - the labelled scenarios of tests/dips/corpus.sh, simulated: writers held
 * at known rates, drops of known depth and length injected, requests counted the way a block
 * device counts them (a whole request completes in one interval or the next), the interval
 * edges jittering by up to 50 ms; and again with the work arriving as pv -L submits it, in
 * ticks of a tenth of a second's worth at a phase of their own, now and then one late (so that
 * a tick's work lands in the next interval: 40, 36, 44, 40 MiB/s), the edges then 2 ms. The
 * detector's marks are scored as tests/dips/score.py scores the live ones: drops found, missed,
 * false marks per 100 steady device-intervals.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/detect.h"

enum { CORPUS_DEVS = 3, CORPUS_MAX_T = 120, CORPUS_MAX_DROPS = 40 };

struct corpus_drop {
	int dev;
	double from_s, to_s;	/* wall-clock, seconds after the start */
	double depth;		/* 0.2: 20 % below the base rate; 1: stopped; < 0: a rise */
};

struct corpus_run {
	int n_s;				/* intervals */
	double base_kbps[CORPUS_DEVS];		/* 0: no writer */
	double req_kb[CORPUS_DEVS];
	struct corpus_drop drop[CORPUS_MAX_DROPS];
	int ndrop;
	bool paced;				/* work in ticks (pv -L), not continuous */
	/* results */
	bool mark[CORPUS_MAX_T][CORPUS_DEVS];
	bool sys_mark[CORPUS_MAX_T];
	double kbps[CORPUS_MAX_T][CORPUS_DEVS];
};

static uint64_t corpus_rng = 1;
static double corpus_uniform(void)
{
	corpus_rng = corpus_rng * 6364136223846793005ull + 1442695040888963407ull;
	return (double)(corpus_rng >> 11) / 9007199254740992.0;
}

/* KiB device d has written by time t: its base rate since it started (at 0, or lead seconds
 * before), less what its drops took; a drop from 0 on has held it since it started. */
static double corpus_written(const struct corpus_run *r, int d, double t, double lead)
{
	double kb = r->base_kbps[d] * (t + lead);
	for (int i = 0; i < r->ndrop; i++) {
		const struct corpus_drop *x = &r->drop[i];
		double from = x->from_s > 0 ? x->from_s : -lead;
		if (x->dev != d || t <= from)
			continue;
		double to = t < x->to_s ? t : x->to_s;
		kb -= r->base_kbps[d] * x->depth * (to - from);
	}
	return kb;
}

/* A number from 0 to 1 fixed by (a, b, c), for the ticks' lateness: the same tick is as late
 * whenever it is asked about. */
static double corpus_hash01(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t h = (a * 0x9e3779b97f4a7c15ull) ^ (b * 0xc2b2ae3d27d4eb4full) ^
		     (c + 0x165667b19e3779f9ull);
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 32;
	return (double)(h >> 11) / 9007199254740992.0;
}

/* Paced writers were started this long before the first sample, as pv is before wbtop in
 * tests/dips/corpus.sh: the first interval is a whole one. */
enum { CORPUS_TICKS_PER_S = 10, CORPUS_PACED_LEAD_S = 5 };

/* When tick j of device d arrives: at the device's own phase (pv's clock and the sampler's
 * keep theirs for a whole run), give or take 2 ms, one tick in fifteen late by 10-90 ms (never
 * past the next one). */
static double corpus_tick_at(uint64_t seed, int d, long j)
{
	double phase = 0.1 * corpus_hash01(seed, (uint64_t)d, 0x7068617365ull);
	double late = corpus_hash01(seed, (uint64_t)d, (uint64_t)j);
	double delay = late < 1.0 / 15 ? 0.01 + late * 15 * 0.08 : 0.004 * (late - 0.5);
	return (double)j / CORPUS_TICKS_PER_S + phase + delay;
}

/* KiB device d has written by time t with its work paced in ticks: what it was due to have
 * written at its last tick that has arrived. */
static double corpus_written_paced(const struct corpus_run *r, uint64_t seed, int d, double t)
{
	long j = (long)floor(t * CORPUS_TICKS_PER_S) + 1;
	while (corpus_tick_at(seed, d, j) > t)
		j--;
	return corpus_written(r, d, (double)j / CORPUS_TICKS_PER_S, CORPUS_PACED_LEAD_S);
}

/* Run the detector over the scenario: every interval's write rate and request count per
 * device (a group), and their sum (a lone series, as vmstat bo). */
static void corpus_simulate(struct corpus_run *r)
{
	struct dip_params p;
	detect_params_default(&p);
	struct dip_group *g = detect_group_new(&p);
	struct dip_series *s = detect_series_new(&p);
	detect_group_set_interval(g, 1.0);
	detect_series_set_interval(s, 1.0);
	const char *keys[CORPUS_DEVS] = {"loop0", "loop1", "loop2"};
	double prev_reqs[CORPUS_DEVS] = {0}, prev_t = 0.0;
	uint64_t seed = corpus_rng;
	for (int d = 0; d < CORPUS_DEVS && r->paced; d++)
		prev_reqs[d] = r->base_kbps[d] > 0 ?
			       floor(corpus_written_paced(r, seed, d, 0.0) / r->req_kb[d]) : 0;
	for (int k = 0; k < r->n_s; k++) {
		/* the sampler's edges: 50 ms either way (counting noise of continuous writers), 2 ms
		 * for paced ones, whose noise is their ticks */
		double edge = r->paced ? 0.002 : 0.05;
		double t = k + 1 + edge * (corpus_uniform() - 0.5) * 2.0;
		double v[CORPUS_DEVS], reqs[CORPUS_DEVS], sum = 0.0;
		for (int d = 0; d < CORPUS_DEVS; d++) {
			double kb = r->paced ? corpus_written_paced(r, seed, d, t) :
					       corpus_written(r, d, t, 0.0);
			double done = r->base_kbps[d] > 0 ? floor(kb / r->req_kb[d]) : 0;
			reqs[d] = done - prev_reqs[d];
			prev_reqs[d] = done;
			v[d] = reqs[d] * r->req_kb[d] / (t - prev_t);
			r->kbps[k][d] = v[d];
			sum += v[d];
		}
		prev_t = t;
		detect_group_feed_reqs(g, keys, NULL, v, reqs, CORPUS_DEVS, r->mark[k]);
		r->sys_mark[k] = detect_series_feed(s, sum, true);
	}
	detect_group_free(g);
	detect_series_free(s);
}

struct corpus_score {
	int found_big, big, found_mid, mid, found_all, all;
	int false_marks, steady;
};

static bool corpus_overlaps(double a0, double a1, double b0, double b1)
{
	return (a1 < b1 ? a1 : b1) - (a0 > b0 ? a0 : b0) > 0;
}

/* As tests/dips/score.py: interval k spans (k, k + 1]; warm-up of 3 intervals not scored. */
static struct corpus_score corpus_score(const struct corpus_run *r)
{
	struct corpus_score sc;
	memset(&sc, 0, sizeof sc);
	for (int i = 0; i < r->ndrop; i++) {
		const struct corpus_drop *x = &r->drop[i];
		if (x->depth < 0)
			continue;
		bool found = false;
		for (int k = 3; k < r->n_s; k++)
			found |= r->mark[k][x->dev] && corpus_overlaps(k, k + 1, x->from_s, x->to_s + 0.5);
		sc.all++;
		sc.found_all += found;
		if (x->depth >= 0.2 && x->to_s - x->from_s >= 1.9) {
			sc.big++;
			sc.found_big += found;
		} else if (x->depth >= 0.15) {
			sc.mid++;
			sc.found_mid += found;
		}
	}
	for (int d = 0; d < CORPUS_DEVS; d++) {
		if (r->base_kbps[d] <= 0)
			continue;
		for (int k = 3; k < r->n_s; k++) {
			bool near = false;
			for (int i = 0; i < r->ndrop; i++)
				near |= r->drop[i].dev == d &&
					corpus_overlaps(k, k + 1, r->drop[i].from_s - 0.25,
							r->drop[i].to_s + 1.5);
			if (near)
				continue;
			sc.steady++;
			sc.false_marks += r->mark[k][d];
		}
	}
	return sc;
}

static void corpus_add_drop(struct corpus_run *r, int dev, double from, double len, double depth)
{
	ck_assert_int_lt(r->ndrop, CORPUS_MAX_DROPS);
	r->drop[r->ndrop++] = (struct corpus_drop){ dev, from, from + len, depth };
}

/* The scenarios' writers are paced in ticks: each scenario is run both ways (Check's loop
 * index, 0 continuous, 1 paced). */
static bool corpus_paced;

static void corpus_writers(struct corpus_run *r, int n_s, double kbps, double req_kb)
{
	memset(r, 0, sizeof *r);
	r->n_s = n_s;
	r->paced = corpus_paced;
	for (int d = 0; d < CORPUS_DEVS; d++) {
		r->base_kbps[d] = kbps;
		r->req_kb[d] = req_kb;
	}
}

static struct corpus_run corpus_run;	/* large: not on the stack */

/* Sparse drops of 10-100 %, 2-4 s, one writer at a time; 32 MiB/s in 1 MiB requests. At least
 * 95 % of the drops of 20 % or more are found (the fitted rule found 100 % continuous, 89 of 90
 * paced), 90 % of the 15-20 % ones, at most 1 false mark per 100. */
START_TEST(test_corpus_sparse_drops)
{
	corpus_paced = _i;
	static const struct { int dev; double depth, len; } plan[] = {
		{0, .10, 3}, {1, .15, 3}, {2, .20, 3}, {0, .30, 2}, {1, .50, 2}, {2, 1.0, 3},
		{1, .10, 4}, {2, .15, 3}, {0, .20, 3}, {1, .30, 2}, {2, .50, 2}, {0, 1.0, 3},
		{2, .15, 3}, {0, .15, 3}, {1, .20, 2},
	};
	struct corpus_score tot;
	memset(&tot, 0, sizeof tot);
	for (uint64_t seed = 1; seed <= 10; seed++) {
		corpus_rng = seed;
		struct corpus_run *r = &corpus_run;
		corpus_writers(r, 96, 32768, 1024);
		double t = 12.3 + 0.1 * (double)seed;
		for (size_t i = 0; i < sizeof plan / sizeof plan[0]; i++) {
			corpus_add_drop(r, plan[i].dev, t, plan[i].len, plan[i].depth);
			t += plan[i].len + 2;
		}
		corpus_simulate(r);
		struct corpus_score sc = corpus_score(r);
		tot.found_big += sc.found_big;
		tot.big += sc.big;
		tot.found_mid += sc.found_mid;
		tot.mid += sc.mid;
		tot.false_marks += sc.false_marks;
		tot.steady += sc.steady;
	}
	ck_assert_msg(tot.found_big * 100 >= tot.big * 95, "paced %d: %d of %d drops >= 20%% found",
		      corpus_paced, tot.found_big, tot.big);
	ck_assert_msg(tot.found_mid * 10 >= tot.mid * 9, "paced %d: 15-20%%: %d of %d", corpus_paced,
		      tot.found_mid, tot.mid);
	ck_assert_msg(tot.false_marks * 100 <= tot.steady, "false %d in %d", tot.false_marks,
		      tot.steady);
}
END_TEST

/* An erratic writer: 40 MiB/s with drops of 20-45 % for 2-3 s, 3-6 s apart, next to two steady
 * writers. Drops past the cap (a third) are always found; the shallower ones are judged by a
 * noise their own frequency widens (the quartiles of its busy intervals take in the drops):
 * the fitted rule finds 67-68 of 80, and this holds it to 80 %. */
START_TEST(test_corpus_erratic_writer)
{
	corpus_paced = _i;
	int found = 0, all = 0, false_marks = 0, steady = 0;
	for (uint64_t seed = 1; seed <= 10; seed++) {
		corpus_rng = seed * 977;
		struct corpus_run *r = &corpus_run;
		corpus_writers(r, 70, 40960, 1024);
		for (double t = 8.4; t < 62;) {
			double depth = 0.20 + 0.25 * corpus_uniform();
			double len = 2 + floor(2 * corpus_uniform());
			corpus_add_drop(r, 0, t, len, depth);
			t += len + 3 + floor(4 * corpus_uniform());
		}
		corpus_simulate(r);
		struct corpus_score sc = corpus_score(r);
		found += sc.found_all;
		all += sc.all;
		false_marks += sc.false_marks;
		steady += sc.steady;
	}
	ck_assert_msg(found * 10 >= all * 8, "erratic: %d of %d found", found, all);
	ck_assert_msg(false_marks * 100 <= steady, "false %d in %d", false_marks, steady);
}
END_TEST

/* Counting noise: 10 MiB/s in 512 KiB requests (18, 20 or 22 a second) and 30 MiB/s in 1 MiB
 * are never marked, nor is their sum. */
START_TEST(test_corpus_counting_noise)
{
	corpus_paced = _i;
	for (uint64_t seed = 1; seed <= 20; seed++) {
		corpus_rng = seed;
		struct corpus_run *r = &corpus_run;
		corpus_writers(r, 60, 10240, 512);
		r->base_kbps[2] = 30720;
		r->req_kb[2] = 1024;
		corpus_simulate(r);
		for (int k = 0; k < r->n_s; k++)
			for (int d = 0; d < CORPUS_DEVS; d++)
				ck_assert_msg(!r->mark[k][d], "seed %llu t %d dev %d (%.0f KiB/s) marked",
					      (unsigned long long)seed, k, d, r->kbps[k][d]);
	}
}
END_TEST

/* A 30 MiB/s writer in 1 MiB requests that completes 27 and 33 in turn is not dipping; nor
 * is a 10 MiB/s one in 512 KiB requests completing 18 once, then 22. Its fourth interval may
 * be: the noise of three values, 33, 27, 33, is no spread yet (the rule's warm-up). */
START_TEST(test_corpus_alternating_counts)
{
	struct dip_params p;
	detect_params_default(&p);
	struct dip_group *g = detect_group_new(&p);
	const char *keys[2] = {"a", "b"};
	bool m[2];
	for (int t = 0; t < 80; t++) {
		double reqs[2] = {t % 2 ? 27 : 33, t % 17 == 9 ? 18 : (t % 17 == 10 ? 22 : 20)};
		double v[2] = {reqs[0] * 1024, reqs[1] * 512};
		bool dip = detect_group_feed_reqs(g, keys, NULL, v, reqs, 2, m);
		ck_assert_msg(!dip || t == 3, "t %d", t);
	}
	detect_group_free(g);
}
END_TEST

/* A burst that ends is not a dip: after 6 s at 400 MB/s on top of 30 MB/s, neither the
 * system line (the sum) nor the steady device is marked. The bursting device's own end may be
 * (the end of a workload, marked live until it has been idle for the end), never before. */
START_TEST(test_corpus_burst_ends)
{
	corpus_paced = _i;
	for (uint64_t seed = 1; seed <= 10; seed++) {
		corpus_rng = seed;
		struct corpus_run *r = &corpus_run;
		corpus_writers(r, 45, 0, 1024);
		r->base_kbps[0] = 30720;
		r->base_kbps[1] = 409600; /* bursts from 14 s to 20 s: a drop to nothing elsewhere */
		corpus_add_drop(r, 1, 0, 14.2, 1.0);
		corpus_add_drop(r, 1, 20.2, 100, 1.0);
		corpus_simulate(r);
		for (int k = 0; k < r->n_s; k++) {
			ck_assert_msg(!r->sys_mark[k], "seed %llu t %d: system line marked",
				      (unsigned long long)seed, k);
			ck_assert_msg(!r->mark[k][0], "seed %llu t %d: the steady device marked",
				      (unsigned long long)seed, k);
			ck_assert_msg(!r->mark[k][1] || k >= 20,
				      "seed %llu t %d: the bursting device marked", (unsigned long long)seed, k);
		}
	}
}
END_TEST

/* Three writers trading bandwidth: one falls to 40 % for 3 s while another takes up what it
 * lost. The one that fell is marked; the one that rose is not, nor is its return. */
START_TEST(test_corpus_trading)
{
	corpus_paced = _i;
	int false_marks = 0, steady = 0;
	for (uint64_t seed = 1; seed <= 10; seed++) {
		corpus_rng = seed;
		for (int trade = 0; trade < 3; trade++) {
			struct corpus_run *r = &corpus_run;
			corpus_writers(r, 40, 30720, 1024);
			int down = trade, up = (trade + 1) % 3;
			corpus_add_drop(r, down, 20.3, 3, 0.6);
			corpus_add_drop(r, up, 20.3, 3, -0.6);
			corpus_simulate(r);
			struct corpus_score sc = corpus_score(r);
			ck_assert_msg(sc.found_all == 1, "seed %llu: the fall not found",
				      (unsigned long long)seed);
			false_marks += sc.false_marks;
			steady += sc.steady;
			for (int k = 0; k < r->n_s; k++)
				ck_assert_msg(!r->mark[k][up], "seed %llu t %d: the rise marked",
					      (unsigned long long)seed, k);
		}
	}
	ck_assert_msg(false_marks * 100 <= steady, "false %d in %d", false_marks, steady);
}
END_TEST

/* A drop of a third in the fourth interval of a run, after three clean values, is a dip. */
START_TEST(test_corpus_early_verdict)
{
	struct dip_params p;
	detect_params_default(&p);
	struct dip_series *s = detect_series_new(&p);
	ck_assert(!detect_series_feed(s, 750000, true));
	ck_assert(!detect_series_feed(s, 742000, true));
	ck_assert(!detect_series_feed(s, 757000, true));
	ck_assert(detect_series_feed(s, 500000, true));
	detect_series_free(s);
}
END_TEST

Suite *dips_corpus_suite(void)
{
	Suite *s = suite_create("dips_corpus");
	TCase *tc = tcase_create("corpus");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_corpus_sparse_drops, 0, 2);
	tcase_add_loop_test(tc, test_corpus_erratic_writer, 0, 2);
	tcase_add_loop_test(tc, test_corpus_counting_noise, 0, 2);
	tcase_add_test(tc, test_corpus_alternating_counts);
	tcase_add_loop_test(tc, test_corpus_burst_ends, 0, 2);
	tcase_add_loop_test(tc, test_corpus_trading, 0, 2);
	tcase_add_test(tc, test_corpus_early_verdict);
	suite_add_tcase(s, tc);
	return s;
}
