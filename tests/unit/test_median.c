/*
 * test_median.c - selection and medians against a sorted copy: short and long arrays (the long
 * way from 1024 values on), odd and even lengths, ties, runs of one value, sorted input, and
 * arrays whose sampled values are unlike the rest (the bracket misses and the long way must
 * fall back without losing a value).
 */
#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/median.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double sorted_median(const double *v, size_t n)
{
	double *s = malloc(n * sizeof *s);
	ck_assert_ptr_nonnull(s);
	memcpy(s, v, n * sizeof *s);
	qsort(s, n, sizeof *s, cmp_double);
	double m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2.0;
	free(s);
	return m;
}

static uint64_t lcg = 42;
static uint32_t rnd(void)
{
	lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(lcg >> 33);
}

enum shape { UNIFORM, TIES, TWO_VALUES, SORTED, REVERSED, SAMPLE_LOW, SAMPLE_HIGH, ZEROS, NSHAPES };

/* v[i] for an array of n values of a shape. SAMPLE_LOW / SAMPLE_HIGH put tiny or huge values
 * exactly where the long way samples (every n / 127th), so that its bracket misses. */
static double shaped(enum shape s, size_t i, size_t n)
{
	size_t step = n / 127 ? n / 127 : 1;
	switch (s) {
	case UNIFORM:
		return (double)rnd() / 4294967296.0;
	case TIES:
		return (double)(rnd() % 7) * 0.125;
	case TWO_VALUES:
		return rnd() % 2 ? 1.0 : 2.0;
	case SORTED:
		return (double)i;
	case REVERSED:
		return (double)(n - i);
	case SAMPLE_LOW:
		return i % step == 0 ? 1e-9 * (double)(rnd() % 100) : 1.0 + (double)rnd();
	case SAMPLE_HIGH:
		return i % step == 0 ? 1e12 + (double)rnd() : (double)(rnd() % 1000);
	case ZEROS:
		return 0.0;
	default:
		return 0.0;
	}
}

/* Compares plainly and asserts once: a Check assertion per value is slow. */
START_TEST(test_median_matches_sorting)
{
	static const size_t sizes[] = { 1, 2, 3, 4, 5, 10, 11, 60, 61, 1000, 1023, 1024, 1025,
					2047, 2048, 4095, 4096, 4097, 5000 };
	char failed[200] = "";
	double *v = malloc(5000 * sizeof *v), *copy = malloc(5000 * sizeof *copy);
	ck_assert_ptr_nonnull(v);
	ck_assert_ptr_nonnull(copy);
	for (size_t si = 0; si < sizeof sizes / sizeof sizes[0] && !failed[0]; si++) {
		size_t n = sizes[si];
		for (int s = 0; s < NSHAPES && !failed[0]; s++) {
			for (int rep = 0; rep < 5 && !failed[0]; rep++) {
				for (size_t i = 0; i < n; i++)
					v[i] = shaped((enum shape)s, i, n);
				double want = sorted_median(v, n);
				memcpy(copy, v, n * sizeof *v);
				double got = median_of(v, n);
				/* the same values, reordered: none lost or doubled */
				qsort(v, n, sizeof *v, cmp_double);
				qsort(copy, n, sizeof *copy, cmp_double);
				if (got != want || memcmp(v, copy, n * sizeof *v) != 0)
					snprintf(failed, sizeof failed, "n %zu shape %d rep %d: %g, want %g",
						 n, s, rep, got, want);
			}
		}
	}
	free(v);
	free(copy);
	ck_assert_msg(!failed[0], "%s", failed);
}
END_TEST

START_TEST(test_select_kth)
{
	char failed[200] = "";
	double v[300], s[300];
	for (size_t n = 1; n <= 300 && !failed[0]; n += 13) {
		for (size_t k = 0; k < n && !failed[0]; k += 7) {
			for (size_t i = 0; i < n; i++)
				v[i] = s[i] = (double)(rnd() % 50);
			qsort(s, n, sizeof *s, cmp_double);
			double got = median_select(v, n, k);
			bool ordered = got == s[k];
			for (size_t i = 0; i < n; i++)
				ordered &= i < k ? v[i] <= got : i == k ? v[i] == got : v[i] >= got;
			if (!ordered)
				snprintf(failed, sizeof failed, "n %zu k %zu: %g, want %g", n, k, got, s[k]);
		}
	}
	ck_assert_msg(!failed[0], "%s", failed);
}
END_TEST

Suite *median_suite(void)
{
	Suite *s = suite_create("median");
	TCase *tc = tcase_create("select");
	tcase_add_test(tc, test_median_matches_sorting);
	tcase_add_test(tc, test_select_kth);
	suite_add_tcase(s, tc);
	return s;
}
