/*
 * test_sortwin.c - the sorted window against the obvious implementation
 * (a ring in arrival order, sorted afresh after each value): short windows
 * (values walked one by one) and long ones (binary search and block move),
 * with many equal values, NANs left out (the detector never feeds them).
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/sortwin.h"

static uint64_t rng = 88172645463325252ull;

static uint32_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)rng;
}

struct arrival {
	double v;
	unsigned seq;	/* arrival number */
};

static int by_value_then_seq(const void *a, const void *b)
{
	const struct arrival *x = a, *y = b;
	if (x->v != y->v)
		return x->v < y->v ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Push count values drawn from spread distinct levels into a window of cap
 * and into the reference; they must agree after every push, value and tag. */
static void check_against_reference(size_t cap, unsigned spread, unsigned count)
{
	double sorted[255];
	uint8_t tag[255], len = 0, next = 0;
	struct arrival ring[255], ref[255];
	for (unsigned i = 0; i < count; i++) {
		double x = (double)(next_rand() % spread) * 0.5;
		sortwin_push(sorted, tag, cap, &len, &next, x);
		ring[i % cap] = (struct arrival){ x, i };
		size_t n = i + 1 < cap ? i + 1 : cap;
		memcpy(ref, ring, n * sizeof *ref);
		qsort(ref, n, sizeof *ref, by_value_then_seq);
		/* plain comparisons: each Check assertion is a message to the runner, and
		 * there are hundreds of thousands of values to compare */
		if (len != n || next != (uint8_t)(i + 1))
			ck_abort_msg("cap %zu push %u: len %u next %u", cap, i, len, next);
		for (size_t k = 0; k < n; k++)
			if (sorted[k] != ref[k].v || tag[k] != (uint8_t)ref[k].seq)
				ck_abort_msg("cap %zu push %u rank %zu: %g tag %u, want %g tag %u", cap, i,
					     k, sorted[k], tag[k], ref[k].v, (uint8_t)ref[k].seq);
	}
}

START_TEST(test_short_windows)
{
	for (size_t cap = 1; cap <= 16; cap++) {
		check_against_reference(cap, 3, 700);
		check_against_reference(cap, 1000, 700);
	}
}
END_TEST

START_TEST(test_long_windows)
{
	static const size_t caps[] = { 17, 60, 255 };
	for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++) {
		check_against_reference(caps[i], 4, 600);
		check_against_reference(caps[i], 100000, 600);
	}
}
END_TEST

/* Rising and falling runs: the new value lands at either end. */
START_TEST(test_monotone_runs)
{
	double sorted[60];
	uint8_t tag[60], len = 0, next = 0;
	for (int i = 0; i < 300; i++)
		sortwin_push(sorted, tag, 60, &len, &next, (double)i);
	for (size_t k = 0; k < 60; k++)
		ck_assert(sorted[k] == 240.0 + (double)k);
	for (int i = 0; i < 60; i++)
		sortwin_push(sorted, tag, 60, &len, &next, (double)-i);
	for (size_t k = 0; k < 60; k++)
		ck_assert(sorted[k] == -59.0 + (double)k);
}
END_TEST

Suite *sortwin_suite(void)
{
	Suite *s = suite_create("sortwin");
	TCase *tc = tcase_create("push");
	tcase_add_test(tc, test_short_windows);
	tcase_add_test(tc, test_long_windows);
	tcase_add_test(tc, test_monotone_runs);
	suite_add_tcase(s, tc);
	return s;
}
