/*
 * test_cgview.c - an interval's cgroup rows: figures from two samples
 * (gauges as read, counters per second), busiest first (throttled, then
 * dirty and writeback pages), idle rows, and how a cgroup is named.
 */
#include <check.h>
#include <math.h>
#include <string.h>

#include "sink/cgview.h"

/* The column of the registry row of kind. */
static size_t cg_col(unsigned kind)
{
	for (size_t i = 0; i < fig_ncg; i++)
		if (fig_cg_table[i].kind == kind)
			return i;
	ck_abort_msg("no fig_cg row of kind %u", kind);
	return 0;
}

/* Two samples 2 s apart: three cgroups and one that only the second has. */
static void cg_samples(struct snapshot *prev, struct snapshot *cur)
{
	snapshot_init(prev);
	snapshot_init(cur);
	prev->mono_ns = 1000000000;
	cur->mono_ns = 3000000000;
	/* 10: dirty pages, not throttled; 20: throttled 300 ms in 2 s; 30: idle (a limit only) */
	ck_assert_int_eq(snapshot_add_x(cur, SNAP_XCG, SNAP_XCG_FILE_DIRTY_KB, 10, 5000), 0);
	ck_assert_int_eq(snapshot_add_x(cur, SNAP_XCG, SNAP_XCG_FILE_WRITEBACK_KB, 10, 100), 0);
	ck_assert_int_eq(snapshot_add_x(prev, SNAP_XCG, SNAP_XCG_WB_DIRTIED_KB, 10, 1000), 0);
	ck_assert_int_eq(snapshot_add_x(cur, SNAP_XCG, SNAP_XCG_WB_DIRTIED_KB, 10, 9000), 0);
	ck_assert_int_eq(snapshot_add_x(prev, SNAP_XCG, SNAP_XCG_TASK_THROTTLED_MS, 20, 100), 0);
	ck_assert_int_eq(snapshot_add_x(cur, SNAP_XCG, SNAP_XCG_TASK_THROTTLED_MS, 20, 400), 0);
	ck_assert_int_eq(snapshot_add_x(cur, SNAP_XCG, SNAP_XCG_FILE_DIRTY_KB, 20, 64), 0);
	ck_assert_int_eq(snapshot_add_x(cur, SNAP_XCG, SNAP_XCG_WB_THRESH_KB, 30, 4096), 0);
	ck_assert_int_eq(snapshot_add_x(cur, SNAP_XCG, SNAP_XCG_FILE_DIRTY_KB, 30, 0), 0);
	ck_assert_int_eq(snapshot_add_cg(cur, 20, "/jobs/fast", false), 0);
	ck_assert_int_eq(snapshot_add_cg(cur, 10, "/jobs/slow", true), 0);
	snapshot_sort_x(prev);
	snapshot_sort_x(cur);
}

START_TEST(test_cgview_rows_sorted)
{
	struct snapshot prev, cur;
	cg_samples(&prev, &cur);
	struct cgview v;
	cgview_init(&v);
	ck_assert_int_eq(cgview_build(&v, &prev, &cur, 2.0), 0);
	ck_assert_uint_eq(v.n, 3);
	/* the throttled one first, then the dirty one, the idle one last */
	ck_assert_uint_eq(v.row[0].ino, 20);
	ck_assert_uint_eq(v.row[1].ino, 10);
	ck_assert_uint_eq(v.row[2].ino, 30);
	size_t thr = cg_col(SNAP_XCG_TASK_THROTTLED_MS), dirtied = cg_col(SNAP_XCG_WB_DIRTIED_KB);
	size_t dirty = cg_col(SNAP_XCG_FILE_DIRTY_KB);
	ck_assert(v.row[0].have & 1u << thr);
	ck_assert(fabs(v.row[0].v[thr] - 150.0) < 1e-9);	/* 300 ms in 2 s */
	ck_assert(fabs(v.row[1].v[dirtied] - 4000.0) < 1e-9);	/* 8000 KiB in 2 s */
	ck_assert(fabs(v.row[1].v[dirty] - 5000.0) < 1e-9);	/* a gauge as read */
	ck_assert(!(v.row[1].have & 1u << thr));		/* none: not a zero */
	ck_assert(!v.row[0].idle && !v.row[1].idle);
	ck_assert(v.row[2].idle);	/* a limit alone is no activity */
	ck_assert(cgview_any_busy(&v));
	char buf[64];
	cgview_label(&v.row[0], buf, sizeof buf);
	ck_assert_str_eq(buf, "/jobs/fast");
	cgview_label(&v.row[1], buf, sizeof buf);
	ck_assert_str_eq(buf, "/jobs/slow (gone)");
	cgview_label(&v.row[2], buf, sizeof buf);
	ck_assert_str_eq(buf, "ino 30");	/* the sample has no name for it */
	cgview_free(&v);
	snapshot_free(&prev);
	snapshot_free(&cur);
}
END_TEST

/* Without a previous sample only gauges; a sample without cgroups has no rows. */
START_TEST(test_cgview_first_and_empty)
{
	struct snapshot prev, cur;
	cg_samples(&prev, &cur);
	struct cgview v;
	cgview_init(&v);
	ck_assert_int_eq(cgview_build(&v, NULL, &cur, 0.0), 0);
	ck_assert_uint_eq(v.n, 3);
	size_t thr = cg_col(SNAP_XCG_TASK_THROTTLED_MS);
	for (size_t i = 0; i < v.n; i++)
		ck_assert(!(v.row[i].have & 1u << thr));
	ck_assert_int_eq(cgview_build(&v, &cur, &prev, 2.0), 0);	/* prev has no gauges */
	ck_assert_uint_eq(v.n, 2);
	struct snapshot none;
	snapshot_init(&none);
	ck_assert_int_eq(cgview_build(&v, &prev, &none, 1.0), 0);
	ck_assert_uint_eq(v.n, 0);
	ck_assert(!cgview_any_busy(&v));
	cgview_free(&v);
	cgview_free(&v);	/* twice: a no-op */
	snapshot_free(&none);
	snapshot_free(&prev);
	snapshot_free(&cur);
}
END_TEST

/* A snapshot's copy has its own cgroup names (the screen's history and
 * the pipeline copy snapshots). */
START_TEST(test_cgview_names_copied)
{
	struct snapshot prev, cur, copy;
	cg_samples(&prev, &cur);
	snapshot_init(&copy);
	ck_assert_int_eq(snapshot_copy(&copy, &cur), 0);
	ck_assert_ptr_ne(copy.cg, cur.cg);
	ck_assert_uint_eq(copy.ncg, 2);
	ck_assert_str_eq(snapshot_find_cg(&copy, 20)->path, "/jobs/fast");
	ck_assert(snapshot_find_cg(&copy, 10)->gone);
	snapshot_free(&cur);
	ck_assert_str_eq(snapshot_find_cg(&copy, 20)->path, "/jobs/fast");
	snapshot_free(&copy);
	snapshot_free(&prev);
}
END_TEST

Suite *cgview_suite(void)
{
	Suite *s = suite_create("cgview");
	TCase *tc = tcase_create("rows");
	tcase_add_test(tc, test_cgview_rows_sorted);
	tcase_add_test(tc, test_cgview_first_and_empty);
	tcase_add_test(tc, test_cgview_names_copied);
	suite_add_tcase(s, tc);
	return s;
}
