/*
 * test_ticker.c - the clock's arithmetic: deadlines and ages.
 */
#include <check.h>
#include <stdint.h>

#include "util/ticker.h"

/* An age is never negative: a stamp taken by another thread after now was read is no age
 * (the exporter's deadline thread cut such connections as centuries old). */
START_TEST(test_elapsed_of_a_later_stamp_is_zero)
{
	ck_assert_uint_eq(ticker_elapsed_ns(100, 105), 0);
	ck_assert_uint_eq(ticker_elapsed_ns(105, 100), 5);
	ck_assert_uint_eq(ticker_elapsed_ns(7, 7), 0);
	ck_assert_uint_eq(ticker_elapsed_ns(UINT64_MAX, 0), UINT64_MAX);
	uint64_t now = ticker_now_ns();
	ck_assert_uint_eq(ticker_elapsed_ns(now, now + 1000), 0);
}
END_TEST

/* The next deadline is on the grid, after now, missed ones skipped. */
START_TEST(test_next_deadline_skips_missed_ones)
{
	ck_assert_uint_eq(ticker_next_deadline(1000, 100, 1000), 1100);
	ck_assert_uint_eq(ticker_next_deadline(1000, 100, 1350), 1400);
	ck_assert_uint_eq(ticker_next_deadline(1000, 100, 1399), 1400);
}
END_TEST

Suite *ticker_suite(void)
{
	Suite *s = suite_create("ticker");
	TCase *tc = tcase_create("clock");
	tcase_add_test(tc, test_elapsed_of_a_later_stamp_is_zero);
	tcase_add_test(tc, test_next_deadline_skips_missed_ones);
	suite_add_tcase(s, tc);
	return s;
}
