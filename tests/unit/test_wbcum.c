/*
 * test_wbcum.c - interval sums into cumulative counters: totals over
 * intervals, tasks merged in pid order, an idle task dropped after keep_ms
 * and started over when it comes back, BDIs kept, reasons and lost events
 * summed, the last dirty limit kept, cgroups kept in inode order; many
 * random intervals against a brute-force model.
 */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "source/wbcum.h"

static void add(struct wbloop *w, int32_t pid, const char *bdi, int64_t pause)
{
	struct wbloop_bdp ev = { .pid = pid, .bdi = bdi, .pause_ms = pause, .task_ratelimit_kbps = 1000 + (uint64_t)pid };
	ck_assert_int_eq(wbloop_add_bdp(w, &ev), 0);
}

START_TEST(test_totals_and_order)
{
	struct wbloop w;
	struct wbcum c;
	wbloop_init(&w);
	wbcum_init(&c);
	add(&w, 30, "7:0", 8);
	add(&w, 10, "7:0", 4);
	add(&w, 30, "8:16", 2);
	ck_assert_int_eq(wbloop_add_written(&w, "7:0", 100, 0, 0), 0);
	wbloop_add_global(&w, 4096, 4096, 2048);
	w.lost_events = 3;
	ck_assert_int_eq(wbcum_add(&c, &w, 1000, 60000), 0);
	wbloop_reset(&w);
	add(&w, 20, "7:0", 6);
	add(&w, 30, "7:0", 1);
	ck_assert_int_eq(wbloop_add_written(&w, "7:0", 50, 3, 0), 0);
	ck_assert_int_eq(wbcum_add(&c, &w, 2000, 60000), 0);
	ck_assert_uint_eq(c.ntask, 3);
	ck_assert_int_eq(c.task[0].pid, 10);
	ck_assert_int_eq(c.task[1].pid, 20);
	ck_assert_int_eq(c.task[2].pid, 30);
	ck_assert_uint_eq(c.task[2].paused_ms, 11);
	ck_assert_uint_eq(c.task[2].pauses, 3);
	ck_assert(c.task[2].bdi_devt && c.task[2].bdi_major == 7 && c.task[2].bdi_minor == 0);
	ck_assert_uint_eq(c.task[2].last_ms, 2000);
	ck_assert_uint_eq(c.task[0].last_ms, 1000);
	ck_assert_uint_eq(c.nbdi, 2);
	ck_assert_str_eq(c.bdi[0].bdi, "7:0");
	ck_assert_uint_eq(c.bdi[0].throttled_ms, 19);
	ck_assert_uint_eq(c.bdi[0].written_pages, 150);
	ck_assert_uint_eq(c.bdi[1].throttled_ms, 2);
	ck_assert(c.bdi[1].devt && c.bdi[1].major == 8 && c.bdi[1].minor == 16);
	ck_assert_uint_eq(c.written_pages[0], 100);
	ck_assert_uint_eq(c.written_pages[3], 50);
	ck_assert_uint_eq(c.lost_events, 3);
	ck_assert(c.has_global);	/* kept from the first interval */
	ck_assert_uint_eq(c.dirty_limit_pages, 4096);
	ck_assert_ptr_eq(wbcum_find_task(&c, 20), &c.task[1]);
	/* the helper's decisions are all in cgroup 0 (not given): none kept;
	 * one in cgroup 9 and one in 3: kept in ino order, summed */
	ck_assert_uint_eq(c.ncg, 0);
	wbloop_reset(&w);
	struct wbloop_bdp ev = { .pid = 5, .bdi = "7:0", .pause_ms = 12, .cgroup_ino = 9 };
	ck_assert_int_eq(wbloop_add_bdp(&w, &ev), 0);
	ev.cgroup_ino = 3;
	ck_assert_int_eq(wbloop_add_bdp(&w, &ev), 0);
	ck_assert_int_eq(wbcum_add(&c, &w, 3000, 60000), 0);
	ck_assert_int_eq(wbcum_add(&c, &w, 4000, 60000), 0);
	ck_assert_uint_eq(c.ncg, 2);
	ck_assert_uint_eq(c.cg[0].ino, 3);
	ck_assert_uint_eq(c.cg[1].ino, 9);
	ck_assert_uint_eq(c.cg[1].throttled_ms, 24);
	ck_assert_uint_eq(c.cg[1].pauses, 2);
	ck_assert_ptr_null(wbcum_find_task(&c, 25));
	wbcum_free(&c);
	wbloop_free(&w);
}
END_TEST

START_TEST(test_idle_task_dropped_and_restarted)
{
	struct wbloop w;
	struct wbcum c;
	wbloop_init(&w);
	wbcum_init(&c);
	add(&w, 5, "7:0", 10);
	add(&w, 6, "7:0", 10);
	ck_assert_int_eq(wbcum_add(&c, &w, 0, 5000), 0);
	for (uint64_t t = 1000; t <= 5000; t += 1000) {
		wbloop_reset(&w);
		add(&w, 6, "7:0", 1);
		ck_assert_int_eq(wbcum_add(&c, &w, t, 5000), 0);
		ck_assert_ptr_nonnull(wbcum_find_task(&c, 5));	/* idle, not yet for long */
	}
	wbloop_reset(&w);
	ck_assert_int_eq(wbcum_add(&c, &w, 5001, 5000), 0);
	ck_assert_ptr_null(wbcum_find_task(&c, 5));
	ck_assert_uint_eq(wbcum_find_task(&c, 6)->paused_ms, 15);
	wbloop_reset(&w);
	add(&w, 5, "7:0", 3);
	ck_assert_int_eq(wbcum_add(&c, &w, 6000, 5000), 0);
	ck_assert_uint_eq(wbcum_find_task(&c, 5)->paused_ms, 3);	/* started over */
	ck_assert_uint_eq(c.bdi[0].throttled_ms, 28);	/* the BDI keeps everything */
	wbcum_free(&c);
	wbloop_free(&w);
}
END_TEST

START_TEST(test_random_against_model)
{
	enum { NPID = 300, ROUNDS = 200 };
	static uint64_t model[NPID], seen[NPID];
	memset(model, 0, sizeof model);
	memset(seen, 0, sizeof seen);
	struct wbloop w;
	struct wbcum c;
	wbloop_init(&w);
	wbcum_init(&c);
	uint64_t x = 99;
	for (uint64_t r = 1; r <= ROUNDS; r++) {
		wbloop_reset(&w);
		int n = (int)(x >> 60);
		for (int e = 0; e < n * 8; e++) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			int32_t pid = (int32_t)((x >> 33) % NPID) + 1;
			int64_t pause = (int64_t)((x >> 20) % 9);
			add(&w, pid, "7:0", pause);
			model[pid - 1] += (uint64_t)pause;
			seen[pid - 1] = r;
		}
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		ck_assert_int_eq(wbcum_add(&c, &w, r * 1000, 10000), 0);
		/* the model drops a task absent now and idle for more than 10 rounds */
		for (int p = 0; p < NPID; p++)
			if (seen[p] && r - seen[p] > 10)
				seen[p] = model[p] = 0;
		size_t live = 0;
		for (int32_t p = 1; p <= NPID; p++) {
			const struct wbcum_task *t = wbcum_find_task(&c, p);
			bool want = seen[p - 1] != 0;
			ck_assert_msg(!!t == want, "round %llu pid %d kept %d", (unsigned long long)r, p, !!t);
			if (t)
				ck_assert_uint_eq(t->paused_ms, model[p - 1]);
			live += want;
		}
		ck_assert_uint_eq(c.ntask, live);
		for (size_t i = 1; i < c.ntask; i++)
			ck_assert_int_lt(c.task[i - 1].pid, c.task[i].pid);
	}
	wbcum_free(&c);
	wbloop_free(&w);
}
END_TEST

Suite *wbcum_suite(void)
{
	Suite *s = suite_create("wbcum");
	TCase *tc = tcase_create("totals");
	tcase_add_test(tc, test_totals_and_order);
	tcase_add_test(tc, test_idle_task_dropped_and_restarted);
	tcase_add_test(tc, test_random_against_model);
	suite_add_tcase(s, tc);
	return s;
}
