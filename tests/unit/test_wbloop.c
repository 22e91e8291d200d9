/*
 * test_wbloop.c - the interval sums of writeback decisions: pauses summed
 * only when positive, per task, per BDI and per cgroup; the last gauges
 * win; pages written by reason with an out-of-range reason in the last
 * slot; a reset that empties everything but keeps capacity; thousands of
 * tasks against a brute-force count; BDI names of every length.
 */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "source/wbloop.h"

static struct wbloop_bdp bdp(int32_t pid, const char *bdi, int64_t pause_ms, uint64_t ratelimit)
{
	struct wbloop_bdp ev = {
		.pid = pid, .bdi = bdi, .limit_pages = 4096, .setpoint_pages = 3584,
		.dirty_pages = 3600, .wb_setpoint_pages = 1800, .wb_dirty_pages = 1700,
		.dirty_ratelimit_kbps = 90000, .task_ratelimit_kbps = ratelimit,
		.pause_ms = pause_ms, .cgroup_ino = 1,
	};
	return ev;
}

START_TEST(test_pauses_sum_positive_only)
{
	struct wbloop w;
	wbloop_init(&w);
	int64_t pauses[] = { 8, 4, 0, -12, 6, -1, 8 };
	for (size_t i = 0; i < sizeof pauses / sizeof *pauses; i++) {
		struct wbloop_bdp ev = bdp(100, "7:3", pauses[i], 1000 + i);
		ck_assert_int_eq(wbloop_add_bdp(&w, &ev), 0);
	}
	struct wbloop_bdp other = bdp(200, "7:3", 10, 500);
	other.cgroup_ino = 77;
	ck_assert_int_eq(wbloop_add_bdp(&w, &other), 0);
	const struct wbloop_task *t = wbloop_find_task(&w, 100);
	ck_assert_ptr_nonnull(t);
	ck_assert_uint_eq(t->paused_ms, 26);
	ck_assert_uint_eq(t->pauses, 4);
	ck_assert_uint_eq(t->decisions, 7);
	ck_assert_uint_eq(t->task_ratelimit_kbps, 1006);	/* the last decision's */
	ck_assert_str_eq(t->bdi, "7:3");
	const struct wbloop_bdi *b = wbloop_find_bdi(&w, "7:3");
	ck_assert_ptr_nonnull(b);
	ck_assert_uint_eq(b->throttled_ms, 36);
	ck_assert_uint_eq(b->pauses, 5);
	ck_assert(b->has_bdp && !b->has_bw);
	ck_assert_uint_eq(b->limit_pages, 4096);
	ck_assert_uint_eq(b->wb_dirty_pages, 1700);
	ck_assert_uint_eq(w.ncg, 2);
	ck_assert_uint_eq(w.cg[0].ino, 1);
	ck_assert_uint_eq(w.cg[0].throttled_ms, 26);
	ck_assert_uint_eq(w.cg[1].ino, 77);
	ck_assert_uint_eq(w.cg[1].throttled_ms, 10);
	ck_assert_uint_eq(w.events, 8);
	ck_assert_ptr_null(wbloop_find_task(&w, 300));
	ck_assert_ptr_null(wbloop_find_bdi(&w, "8:0"));
	wbloop_free(&w);
}
END_TEST

START_TEST(test_written_by_reason)
{
	struct wbloop w;
	wbloop_init(&w);
	ck_assert_int_eq(wbloop_add_written(&w, "7:0", 100, 0, 1), 0);
	ck_assert_int_eq(wbloop_add_written(&w, "7:0", 50, 3, 1), 0);
	ck_assert_int_eq(wbloop_add_written(&w, "7:1", 7, 1, 0), 0);
	ck_assert_int_eq(wbloop_add_written(&w, "7:1", 5, 99, 0), 0);	/* a reason we do not know */
	ck_assert_int_eq(wbloop_add_written(&w, "7:1", -3, 2, 0), 0);	/* not a write */
	ck_assert_uint_eq(w.written_pages[0], 100);
	ck_assert_uint_eq(w.written_pages[3], 50);
	ck_assert_uint_eq(w.written_pages[1], 7);
	ck_assert_uint_eq(w.written_pages[WBLOOP_NREASON - 1], 5);
	ck_assert_uint_eq(w.written_pages[2], 0);
	ck_assert_uint_eq(wbloop_find_bdi(&w, "7:0")->written_pages, 150);
	ck_assert_uint_eq(wbloop_find_bdi(&w, "7:1")->written_pages, 12);
	ck_assert_uint_eq(w.ncg, 1);	/* cgroup 0 means "not given" */
	ck_assert_uint_eq(w.cg[0].written_pages, 150);
	wbloop_free(&w);
}
END_TEST

START_TEST(test_bandwidth_and_global)
{
	struct wbloop w;
	wbloop_init(&w);
	struct wbloop_bw bw = { "253:0", 120000, 110000, 90000, 80000, 85000, 3500 };
	ck_assert_int_eq(wbloop_add_bw(&w, &bw), 0);	/* a cgroup's: shown until the root's */
	ck_assert_uint_eq(wbloop_find_bdi(&w, "253:0")->write_bw_kbps, 120000);
	bw.cgroup_ino = 1;
	bw.write_bw_kbps = 130000;
	ck_assert_int_eq(wbloop_add_bw(&w, &bw), 0);
	bw.cgroup_ino = 3500;
	bw.write_bw_kbps = 99;
	ck_assert_int_eq(wbloop_add_bw(&w, &bw), 0);	/* after the root's: ignored */
	wbloop_add_global(&w, 4000, 4096, 2048);
	wbloop_add_global(&w, 4010, 4096, 2048);
	const struct wbloop_bdi *b = wbloop_find_bdi(&w, "253:0");
	ck_assert(b && b->has_bw && !b->has_bdp);
	ck_assert_uint_eq(b->write_bw_kbps, 130000);
	ck_assert_uint_eq(b->dirty_ratelimit_kbps, 80000);
	ck_assert(w.has_global);
	ck_assert_uint_eq(w.dirty_limit_pages, 4010);
	ck_assert_uint_eq(w.bg_thresh_pages, 2048);
	wbloop_free(&w);
}
END_TEST

START_TEST(test_reset_keeps_capacity)
{
	struct wbloop w;
	wbloop_init(&w);
	strcpy(w.reason_name[0], "background");
	for (int32_t pid = 1; pid <= 100; pid++) {
		struct wbloop_bdp ev = bdp(pid, "7:0", 4, 1);
		ck_assert_int_eq(wbloop_add_bdp(&w, &ev), 0);
	}
	wbloop_add_global(&w, 1, 2, 3);
	void *task = w.task;
	size_t cap = w.cap_task;
	wbloop_reset(&w);
	ck_assert_uint_eq(w.ntask, 0);
	ck_assert_uint_eq(w.nbdi, 0);
	ck_assert_uint_eq(w.ncg, 0);
	ck_assert(!w.has_global);
	ck_assert_uint_eq(w.events, 0);
	ck_assert_ptr_null(wbloop_find_task(&w, 5));
	ck_assert_ptr_null(wbloop_find_bdi(&w, "7:0"));
	ck_assert_str_eq(w.reason_name[0], "background");
	for (int32_t pid = 1; pid <= 100; pid++) {
		struct wbloop_bdp ev = bdp(pid, "7:0", 2, 1);
		ck_assert_int_eq(wbloop_add_bdp(&w, &ev), 0);
	}
	ck_assert_ptr_eq(w.task, task);	/* no allocation the second time */
	ck_assert_uint_eq(w.cap_task, cap);
	ck_assert_uint_eq(wbloop_find_bdi(&w, "7:0")->throttled_ms, 200);
	wbloop_free(&w);
	wbloop_free(&w);	/* twice is harmless */
}
END_TEST

START_TEST(test_many_tasks_and_bdis)
{
	enum { NTASK = 5000, NBDI = 300, NEV = 40000 };
	static uint64_t want_task[NTASK + 1], want_bdi[NBDI];
	memset(want_task, 0, sizeof want_task);
	memset(want_bdi, 0, sizeof want_bdi);
	struct wbloop w;
	wbloop_init(&w);
	uint64_t x = 7;
	for (int i = 0; i < NEV; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		int32_t pid = (int32_t)((x >> 20) % NTASK) + 1;
		unsigned b = (unsigned)((x >> 40) % NBDI);
		int64_t pause = (int64_t)((x >> 8) % 30) - 5;
		char name[32];
		snprintf(name, sizeof name, "%u:%u", 7 + b / 100, b);
		struct wbloop_bdp ev = bdp(pid, name, pause, 1);
		ev.cgroup_ino = (x >> 50) % 64 + 1;
		ck_assert_int_eq(wbloop_add_bdp(&w, &ev), 0);
		if (pause > 0) {
			want_task[pid] += (uint64_t)pause;
			want_bdi[b] += (uint64_t)pause;
		}
	}
	uint64_t total = 0, cg_total = 0;
	for (int32_t pid = 1; pid <= NTASK; pid++) {
		const struct wbloop_task *t = wbloop_find_task(&w, pid);
		ck_assert_uint_eq(t ? t->paused_ms : 0, want_task[pid]);
		total += want_task[pid];
	}
	for (unsigned b = 0; b < NBDI; b++) {
		char name[32];
		snprintf(name, sizeof name, "%u:%u", 7 + b / 100, b);
		const struct wbloop_bdi *r = wbloop_find_bdi(&w, name);
		ck_assert_uint_eq(r ? r->throttled_ms : 0, want_bdi[b]);
	}
	for (size_t i = 0; i < w.ncg; i++)
		cg_total += w.cg[i].throttled_ms;
	ck_assert_uint_eq(cg_total, total);
	ck_assert_uint_le(w.ncg, 64);
	wbloop_free(&w);
}
END_TEST

START_TEST(test_bdi_names)
{
	struct wbloop w;
	wbloop_init(&w);
	char longname[64];
	memset(longname, 'x', sizeof longname - 1);
	longname[sizeof longname - 1] = '\0';
	ck_assert_int_eq(wbloop_add_written(&w, longname, 1, 0, 0), 0);
	ck_assert_int_eq(wbloop_add_written(&w, longname, 1, 0, 0), 0);
	ck_assert_int_eq(wbloop_add_written(&w, "", 1, 0, 0), 0);
	ck_assert_uint_eq(w.nbdi, 2);	/* the long name kept as its first 31 bytes, once */
	ck_assert_uint_eq(strlen(w.bdi[0].bdi), 31);
	ck_assert_uint_eq(wbloop_find_bdi(&w, longname)->written_pages, 2);
	uint32_t ma, mi;
	ck_assert(wbloop_bdi_devt("259:12", &ma, &mi) && ma == 259 && mi == 12);
	ck_assert(wbloop_bdi_devt("0:53", &ma, &mi) && ma == 0 && mi == 53);
	const char *bad[] = { "", "7", "7:", ":3", "7:3x", "btrfs-1", "7:3:1", "4294967296:0", "a:b" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		ck_assert_msg(!wbloop_bdi_devt(bad[i], &ma, &mi), "%s", bad[i]);
	wbloop_free(&w);
}
END_TEST

/* Kernel 6.1 has no wb_stats: a device's bandwidth is its domains' last
 * bdi_dirty_ratelimit write_bw in the interval, summed; a cgroup's the same
 * over its devices. */
START_TEST(test_domain_bandwidth_sums)
{
	struct wbloop w;
	wbloop_init(&w);
	uint64_t bw;
	ck_assert(!wbloop_bdi_bw_kbps(&w, 0, &bw));
	struct wbloop_bw ev = { "253:0", 30000, 0, 0, 0, 0, 28 };
	ck_assert_int_eq(wbloop_add_bw(&w, &ev), 0);
	ev.write_bw_kbps = 31000;		/* the same domain later: replaces */
	ck_assert_int_eq(wbloop_add_bw(&w, &ev), 0);
	ev.cgroup_ino = 69;
	ev.write_bw_kbps = 12000;
	ck_assert_int_eq(wbloop_add_bw(&w, &ev), 0);
	ev.bdi = "253:1";
	ev.write_bw_kbps = 5000;
	ck_assert_int_eq(wbloop_add_bw(&w, &ev), 0);
	ck_assert(wbloop_bdi_bw_kbps(&w, 0, &bw));
	ck_assert_uint_eq(bw, 43000);
	ck_assert(wbloop_bdi_bw_kbps(&w, 1, &bw));
	ck_assert_uint_eq(bw, 5000);
	ck_assert(wbloop_cg_bw_kbps(&w, 69, &bw));
	ck_assert_uint_eq(bw, 17000);
	ck_assert(!wbloop_cg_bw_kbps(&w, 1, &bw));
	wbloop_reset(&w);
	ck_assert(!wbloop_bdi_bw_kbps(&w, 0, &bw));	/* a new interval starts empty */
	wbloop_free(&w);
}
END_TEST

Suite *wbloop_suite(void)
{
	Suite *s = suite_create("wbloop");
	TCase *tc = tcase_create("sums");
	tcase_add_test(tc, test_pauses_sum_positive_only);
	tcase_add_test(tc, test_domain_bandwidth_sums);
	tcase_add_test(tc, test_written_by_reason);
	tcase_add_test(tc, test_bandwidth_and_global);
	tcase_add_test(tc, test_reset_keeps_capacity);
	tcase_add_test(tc, test_many_tasks_and_bdis);
	tcase_add_test(tc, test_bdi_names);
	suite_add_tcase(s, tc);
	return s;
}
