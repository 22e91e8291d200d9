/*
 * test_tally.c - the exporter's counters since its start (tally.h): deltas
 * of the trace's totals between samples, the first sample counted whole; a
 * task that is gone keeps what it counted under its name; a pid counted
 * again from 0 (reused) adds its new count, not a negative one; the top N
 * by throttled time, then "other", which only grows while rows move in and
 * out, and the sum over a family's rows never goes down; a row is shown at
 * 0 first and takes the counts it came in with one sample later (a new
 * series starts at 0); a sample without the trace counts nothing and says so.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/snapshot.h"
#include "sink/tally.h"

/* A sample with the trace: tasks (pid, comm, ms, pauses), then sorted. */
struct task { uint64_t pid; const char *comm; uint64_t ms, pauses; };

static void sample(struct snapshot *s, const struct task *t, size_t n, bool traced)
{
	s->nx = 0;
	s->ncomm = 0;
	if (traced)
		ck_assert_int_eq(snapshot_add_x(s, SNAP_XSYS, SNAP_XSYS_TRACE_LOST, 0, 0), 0);
	for (size_t i = 0; i < n; i++) {	/* in pid order, as the source adds them */
		ck_assert_int_eq(snapshot_add_x(s, SNAP_XTASK, SNAP_XTASK_THROTTLED_MS, t[i].pid, t[i].ms), 0);
		ck_assert_int_eq(snapshot_add_x(s, SNAP_XTASK, SNAP_XTASK_PAUSES, t[i].pid, t[i].pauses), 0);
		ck_assert_int_eq(snapshot_add_comm(s, t[i].pid, t[i].comm), 0);
	}
	snapshot_sort_x(s);
}

/* The family's rows and other as one sum, and one row's ms (UINT64_MAX: not shown). */
static uint64_t family(const struct tally *t, enum tally_family f, const char *key, uint64_t *row_ms,
		       uint64_t *other_ms)
{
	const struct tally_row *rows;
	struct tally_row other;
	size_t n = tally_rows(t, f, &rows, &other);
	uint64_t sum = other.ms;
	*row_ms = UINT64_MAX;
	for (size_t i = 0; i < n; i++) {
		sum += rows[i].ms;
		if (key && strcmp(rows[i].key, key) == 0)
			*row_ms = rows[i].ms;
	}
	*other_ms = other.ms;
	return sum;
}

START_TEST(test_tally_tasks_by_name)
{
	struct tally *t = tally_new(10);
	ck_assert_ptr_nonnull(t);
	struct snapshot a = { 0 }, b = { 0 }, c = { 0 };
	const struct task s1[] = { { 10, "dd", 100, 2 }, { 11, "dd", 50, 1 }, { 12, "cp", 30, 1 } };
	sample(&a, s1, 3, true);
	ck_assert_int_eq(tally_feed(t, NULL, &a), 0);	/* the first sample: all of it, at the next */
	uint64_t dd, other;
	ck_assert_uint_eq(family(t, TALLY_COMM, "dd", &dd, &other), 0);
	ck_assert_uint_eq(dd, 0);	/* shown, at 0 */
	/* pid 10 gone (its 100 ms stay), pid 11 on, pid 12 counted again from 0 (a new task) */
	const struct task s2[] = { { 11, "dd", 80, 2 }, { 12, "tar", 5, 1 } };
	sample(&b, s2, 2, true);
	ck_assert_int_eq(tally_feed(t, &a, &b), 0);
	ck_assert_uint_eq(family(t, TALLY_COMM, "dd", &dd, &other), 180 + 30);	/* tar's 5 wait */
	ck_assert_uint_eq(dd, 180);
	ck_assert_uint_eq(family(t, TALLY_COMM, "tar", &dd, &other), 210);
	ck_assert_uint_eq(dd, 0);
	ck_assert(tally_traced(t));
	/* no trace in the sample: nothing counted, and said */
	sample(&c, NULL, 0, false);
	ck_assert_int_eq(tally_feed(t, &b, &c), 0);
	ck_assert(!tally_traced(t));
	ck_assert_uint_eq(family(t, TALLY_COMM, "tar", &dd, &other), 215);
	ck_assert_uint_eq(dd, 5);
	snapshot_free(&a);
	snapshot_free(&b);
	snapshot_free(&c);
	tally_free(t);
}
END_TEST

START_TEST(test_tally_other_only_grows)
{
	/* Two rows shown of five commands whose totals overtake each other: at every sample
	 * the family's sum is all that was fed but what a row that came in holds back a sample,
	 * and neither it nor other ever goes down. */
	struct tally *t = tally_new(2);
	ck_assert_ptr_nonnull(t);
	struct snapshot s[2] = { { 0 }, { 0 } };
	static const char *const names[] = { "a", "b", "c", "d", "e" };
	uint64_t ms[5] = { 0 }, fed = 0, fed_before = 0, last_other = 0, last_sum = 0;
	for (int step = 0; step < 60; step++) {
		struct task tk[5];
		for (int i = 0; i < 5; i++) {
			/* each command's turn to write the most, ten samples at a time */
			uint64_t add = (uint64_t)((step / 10) % 5 == i ? 40 + i : 1 + i);
			if (i == 0)
				fed_before = fed;
			ms[i] += add;
			fed += add;
			tk[i] = (struct task){ (uint64_t)(100 + i), names[i], ms[i], ms[i] / 10 };
		}
		struct snapshot *cur = &s[step % 2], *prev = step ? &s[(step + 1) % 2] : NULL;
		sample(cur, tk, 5, true);
		ck_assert_int_eq(tally_feed(t, prev, cur), 0);
		const struct tally_row *rows;
		struct tally_row other;
		size_t n = tally_rows(t, TALLY_COMM, &rows, &other);
		ck_assert_uint_eq(n, 2);
		uint64_t sum = other.ms + rows[0].ms + rows[1].ms;
		ck_assert_uint_le(sum, fed);
		ck_assert_uint_ge(sum, fed_before);
		ck_assert_uint_ge(other.ms, last_other);
		ck_assert_uint_ge(sum, last_sum);
		ck_assert_str_eq(other.key, "other");
		last_other = other.ms;
		last_sum = sum;
	}
	ck_assert_uint_gt(last_other, 0);
	snapshot_free(&s[0]);
	snapshot_free(&s[1]);
	tally_free(t);
}
END_TEST

START_TEST(test_tally_devices_and_cgroups)
{
	struct tally *t = tally_new(1);
	ck_assert_ptr_nonnull(t);
	struct snapshot a = { 0 };
	ck_assert_int_eq(snapshot_reserve(&a, 2), 0);
	a.ndev = 2;
	memset(a.dev, 0, 2 * sizeof *a.dev);
	a.dev[0].major = 7, a.dev[0].minor = 0;
	snprintf(a.dev[0].name, sizeof a.dev[0].name, "loop0");
	a.dev[1].major = 8, a.dev[1].minor = 0;
	snprintf(a.dev[1].name, sizeof a.dev[1].name, "sda");
	ck_assert_int_eq(snapshot_add_x(&a, SNAP_XSYS, SNAP_XSYS_TRACE_LOST, 0, 0), 0);
	ck_assert_int_eq(snapshot_add_x(&a, SNAP_XDEV, SNAP_XDEV_THROTTLED_MS, snapshot_xobj_dev(7, 0), 900), 0);
	ck_assert_int_eq(snapshot_add_x(&a, SNAP_XDEV, SNAP_XDEV_PAUSES, snapshot_xobj_dev(7, 0), 9), 0);
	ck_assert_int_eq(snapshot_add_x(&a, SNAP_XDEV, SNAP_XDEV_THROTTLED_MS, snapshot_xobj_dev(8, 0), 40), 0);
	ck_assert_int_eq(snapshot_add_x(&a, SNAP_XDEV, SNAP_XDEV_THROTTLED_MS, snapshot_xobj_dev(9, 3), 7), 0);
	ck_assert_int_eq(snapshot_add_x(&a, SNAP_XCG, SNAP_XCG_THROTTLED_MS, 55, 12), 0);
	ck_assert_int_eq(snapshot_add_cg(&a, 55, "/system.slice/dd.service", false), 0);
	snapshot_sort_x(&a);
	ck_assert_int_eq(tally_feed(t, NULL, &a), 0);
	ck_assert_int_eq(tally_feed(t, &a, &a), 0);	/* nothing new: the rows take what they came in with */
	const struct tally_row *rows;
	struct tally_row other;
	ck_assert_uint_eq(tally_rows(t, TALLY_DEV, &rows, &other), 1);
	ck_assert_str_eq(rows[0].key, "loop0");
	ck_assert_uint_eq(rows[0].ms, 900);
	ck_assert_uint_eq(rows[0].pauses, 9);
	ck_assert_uint_eq(other.ms, 47);	/* sda, and 9:3 which the sample does not list */
	ck_assert_uint_eq(tally_rows(t, TALLY_CG, &rows, &other), 1);
	ck_assert_str_eq(rows[0].key, "/system.slice/dd.service");
	ck_assert_uint_eq(rows[0].ms, 12);
	snapshot_free(&a);
	tally_free(t);
}
END_TEST

Suite *tally_suite(void)
{
	Suite *s = suite_create("tally");
	TCase *tc = tcase_create("tally");
	tcase_add_test(tc, test_tally_tasks_by_name);
	tcase_add_test(tc, test_tally_other_only_grows);
	tcase_add_test(tc, test_tally_devices_and_cgroups);
	suite_add_tcase(s, tc);
	return s;
}
