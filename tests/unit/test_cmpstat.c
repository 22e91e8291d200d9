/*
 * test_cmpstat.c - the comparison figures of small series worked out by
 * hand: equal and unequal intervals, the nearest-rank p5 below and above 20
 * intervals, intervals left out (no length, no rate), an idle series, no
 * series at all; and the change in percent with its zero and NAN cases.
 */
#include <check.h>
#include <math.h>

#include "core/cmpstat.h"

#define NONE NAN

static const struct {
	const char *what;
	size_t n, ndips;
	double kbps[40], dt[40];
	struct cmpstat want;
} cmpstat_cases[] = {
	{ "four equal intervals", 4, 2, { 10, 20, 30, 40 }, { 1, 1, 1, 1 },
	  { 4, 4, 25, 10, 10, 44.721359549995796, 30, 2 } },
	{ "a long interval weighs more", 2, 0, { 100, 200 }, { 3, 1 },
	  { 4, 2, 125, 100, 100, 34.641016151377549, 0, 0 } },
	{ "no length and no rate left out", 3, 1, { 50, NONE, 70 }, { 2, 1, 0 },
	  { 2, 1, 50, 50, 50, 0, 30, 1 } },
	{ "idle: no cv", 2, 0, { 0, 0 }, { 0.5, 0.5 },
	  { 1, 2, 0, 0, 0, NONE, 0, 0 } },
	{ "nothing", 0, 0, { 0 }, { 0 },
	  { 0, 0, NONE, NONE, NONE, NONE, NONE, 0 } },
};

static void cmpstat_check(double got, double want, const char *what, const char *field)
{
	if (isnan(want))
		ck_assert_msg(isnan(got), "%s: %s = %g, want NAN", what, field, got);
	else
		ck_assert_msg(fabs(got - want) < 1e-9, "%s: %s = %.12g, want %.12g", what, field, got, want);
}

START_TEST(test_cmpstat_table)
{
	const struct cmpstat *w = &cmpstat_cases[_i].want;
	struct cmpstat s;
	cmpstat_compute(cmpstat_cases[_i].kbps, cmpstat_cases[_i].dt, cmpstat_cases[_i].n,
			cmpstat_cases[_i].ndips, &s);
	const char *what = cmpstat_cases[_i].what;
	ck_assert_msg(s.n == w->n, "%s: n = %zu, want %zu", what, s.n, w->n);
	ck_assert_msg(s.dips == w->dips, "%s: dips = %zu", what, s.dips);
	cmpstat_check(s.secs, w->secs, what, "secs");
	cmpstat_check(s.mean_kbps, w->mean_kbps, what, "mean");
	cmpstat_check(s.min_kbps, w->min_kbps, what, "min");
	cmpstat_check(s.p5_kbps, w->p5_kbps, what, "p5");
	cmpstat_check(s.cv_pct, w->cv_pct, what, "cv");
	cmpstat_check(s.dips_per_min, w->dips_per_min, what, "dips/min");
}
END_TEST

/* The 5th percentile by nearest rank: the ceil(n/20)-th slowest interval,
 * whatever order the intervals came in. */
START_TEST(test_cmpstat_p5_rank)
{
	static const struct { size_t n; double want; } ranks[] = {
		{ 1, 1 }, { 19, 1 }, { 20, 1 }, { 21, 2 }, { 40, 2 }, { 41, 3 }, { 100, 5 }, { 101, 6 },
	};
	for (size_t k = 0; k < sizeof ranks / sizeof ranks[0]; k++) {
		double v[101], dt[101];
		for (size_t i = 0; i < ranks[k].n; i++) {
			v[i] = (double)((i * 37) % ranks[k].n + 1);	/* 1..n shuffled */
			dt[i] = 1;
		}
		struct cmpstat s;
		cmpstat_compute(v, dt, ranks[k].n, 0, &s);
		ck_assert_msg(s.p5_kbps == ranks[k].want, "n=%zu: p5 %g, want %g", ranks[k].n,
			      s.p5_kbps, ranks[k].want);
		ck_assert(s.min_kbps == 1);
		ck_assert(s.mean_kbps == (double)(ranks[k].n + 1) / 2);
	}
}
END_TEST

START_TEST(test_cmpstat_change)
{
	static const struct { double a, b, want; } changes[] = {
		{ 100, 150, 50 }, { 200, 100, -50 }, { 0, 0, 0 }, { 7, 7, 0 }, { 0, 5, NONE },
		{ NONE, 1, NONE }, { 1, NONE, NONE }, { -4, -2, 50 }, { 240, 200, -16.666666666666668 },
	};
	for (size_t k = 0; k < sizeof changes / sizeof changes[0]; k++)
		cmpstat_check(cmpstat_change_pct(changes[k].a, changes[k].b), changes[k].want,
			      "change", "pct");
}
END_TEST

START_TEST(test_cmpstat_fields)
{
	struct cmpstat s = { 60, 60, 2048, 1024, 1536, 12.5, 0.5, 1 };
	static const double want[] = { 60, 60, 2048, 1024, 1536, 12.5, 0.5 };
	ck_assert_uint_eq(cmpstat_nfields, sizeof want / sizeof want[0]);
	for (size_t k = 0; k < cmpstat_nfields; k++)
		ck_assert_msg(cmpstat_fields[k].get(&s) == want[k], "%s", cmpstat_fields[k].name);
	ck_assert_str_eq(cmpstat_fields[2].title, "mean MB/s");
	ck_assert(cmpstat_fields[2].get(&s) * cmpstat_fields[2].scale == 2);
}
END_TEST

Suite *cmpstat_suite(void);
Suite *cmpstat_suite(void)
{
	Suite *s = suite_create("cmpstat");
	TCase *c = tcase_create("core");
	tcase_add_loop_test(c, test_cmpstat_table, 0, sizeof cmpstat_cases / sizeof cmpstat_cases[0]);
	tcase_add_test(c, test_cmpstat_p5_rank);
	tcase_add_test(c, test_cmpstat_change);
	tcase_add_test(c, test_cmpstat_fields);
	suite_add_tcase(s, c);
	return s;
}
