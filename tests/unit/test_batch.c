/*
 * test_batch.c - the batch text sink's time column: fractions of a second
 * when the interval has them, and the ISO form with date and zone (-t).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sink/batch.h"

static const struct { double interval_s, slack; int decimals; } decimal_cases[] = {
	{ 1, 0, 0 }, { 5, 0, 0 }, { 86400, 0, 0 }, { 0.5, 0, 1 }, { 1.5, 0, 1 }, { 0.1, 0, 1 },
	{ 0.25, 0, 2 }, { 0.01, 0, 2 }, { 0.05, 0, 2 }, { 0.125, 0, 3 }, { 0.001, 0, 3 },
	{ 1.0 / 3, 0, 3 }, { 1.004, 0, 3 },
	/* a recording's mean interval, stretched by a busy machine */
	{ 1.004, 0.05, 0 }, { 1.04, 0.05, 0 }, { 0.503, 0.05, 1 }, { 0.2504, 0.05, 2 },
	{ 0.0102, 0.05, 2 }, { 1.07, 0.05, 2 },
};

START_TEST(test_time_decimals)
{
	ck_assert_int_eq(batch_time_decimals(decimal_cases[_i].interval_s, decimal_cases[_i].slack),
			 decimal_cases[_i].decimals);
}
END_TEST

/* The time column as an event line shows it, in UTC. */
static void event_line(int decimals, bool iso, int64_t wall_ns, char *got, size_t len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *out = open_memstream(&buf, &n);
	ck_assert_ptr_nonnull(out);
	char err[128];
	struct batch *b = batch_new(out, false, NULL, err, sizeof err);
	ck_assert_ptr_nonnull(b);
	batch_set_time(b, decimals, iso);
	struct wb_event e = { .wall_ns = wall_ns, .knob = "vm.dirty_ratio", .old_value = 20, .new_value = 10,
			      .read_back = 10, .note = "--set" };
	ck_assert_int_eq(batch_print_event(b, &e), 0);
	batch_free(b);
	fclose(out);
	snprintf(got, len, "%s", buf);
	free(buf);
}

START_TEST(test_time_column)
{
	setenv("TZ", "UTC", 1);
	tzset();
	/* 2024-05-01 14:03:22.996 UTC */
	const int64_t t = 1714572202LL * 1000000000 + 996000000;
	char got[256];
	event_line(0, false, t, got, sizeof got);
	ck_assert_str_eq(got, "# 14:03:22 knob vm.dirty_ratio 20 -> 10: ok, --set\n");
	event_line(1, false, t, got, sizeof got);	/* cut, not rounded into the next second */
	ck_assert_str_eq(got, "# 14:03:22.9 knob vm.dirty_ratio 20 -> 10: ok, --set\n");
	event_line(2, false, t - 496000000, got, sizeof got);
	ck_assert_str_eq(got, "# 14:03:22.50 knob vm.dirty_ratio 20 -> 10: ok, --set\n");
	event_line(0, true, t, got, sizeof got);
	ck_assert_str_eq(got, "# 2024-05-01T14:03:22+0000 knob vm.dirty_ratio 20 -> 10: ok, --set\n");
	event_line(3, true, t, got, sizeof got);
	ck_assert_str_eq(got, "# 2024-05-01T14:03:22.996+0000 knob vm.dirty_ratio 20 -> 10: ok, --set\n");
}
END_TEST

Suite *batch_suite(void)
{
	Suite *s = suite_create("batch");
	TCase *tc = tcase_create("time");
	tcase_add_loop_test(tc, test_time_decimals, 0, (int)(sizeof decimal_cases / sizeof decimal_cases[0]));
	tcase_add_test(tc, test_time_column);
	suite_add_tcase(s, tc);
	return s;
}
