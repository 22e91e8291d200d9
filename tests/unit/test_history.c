/*
 * test_history.c - the in-memory ring of recent frames: wrap-around, holes
 * where a device had no figures, forgetting long-gone devices, marks.
 */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sink/history.h"

#define NOVAL (-1.0)	/* "NAN expected" in the tables below */

static void push_bo(struct history *h, double bo_kbps)
{
	struct hist_sys s = { .valid = true, .bo_kbps = bo_kbps };
	history_push(h, &s);
}

static void add_w(struct history *h, const char *key, double wkb_s, bool dip)
{
	struct hist_dev d = { .valid = true, .v[FIG_HIST_WKB_S] = (float)wkb_s, .dip = dip };
	ck_assert_int_eq(history_add_dev(h, key, &d), 0);
}

static void check_series(const double *got, const double *want, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (want[i] == NOVAL)
			ck_assert_msg(isnan(got[i]), "entry %zu: want NAN, got %g", i, got[i]);
		else
			ck_assert_msg(got[i] == want[i], "entry %zu: want %g, got %g", i, want[i], got[i]);
	}
}

/* The system ring keeps the last cap frames, oldest first in a series. */
static const struct {
	size_t cap, pushes, n;
	double want[8];
	size_t real;
} sys_cases[] = {
	{ 4, 0, 3, { NOVAL, NOVAL, NOVAL }, 0 },
	{ 4, 2, 3, { NOVAL, 1, 2 }, 2 },
	{ 4, 4, 4, { 1, 2, 3, 4 }, 4 },
	{ 4, 6, 5, { NOVAL, 3, 4, 5, 6 }, 4 },
	{ 4, 9, 2, { 8, 9 }, 2 },
	{ 2, 5, 3, { NOVAL, 4, 5 }, 2 },
};

START_TEST(test_sys_ring)
{
	struct history *h = history_new(sys_cases[_i].cap);
	ck_assert_ptr_nonnull(h);
	for (size_t k = 1; k <= sys_cases[_i].pushes; k++)
		push_bo(h, (double)k);
	double out[8];
	size_t real = history_series(h, NULL, HIST_SYS_BO_KBPS, out, sys_cases[_i].n);
	ck_assert_uint_eq(real, sys_cases[_i].real);
	check_series(out, sys_cases[_i].want, sys_cases[_i].n);
	size_t len = sys_cases[_i].pushes < sys_cases[_i].cap ? sys_cases[_i].pushes : sys_cases[_i].cap;
	ck_assert_uint_eq(history_len(h), len);
	ck_assert_ptr_null(history_sys(h, len));
	if (len)
		ck_assert(history_sys(h, 0)->bo_kbps == (double)sys_cases[_i].pushes);
	history_free(h);
}
END_TEST

/* A device present in some frames: figures where present, holes elsewhere,
 * including slots that held figures one ring ago. */
static const struct {
	const char *name;
	size_t cap;
	const char *present;	/* one char per frame: 'x' present, '.' absent */
	double want[8];		/* the last cap frames, oldest first */
	bool known;		/* the device is still held after the last frame */
} dev_cases[] = {
	{ "always", 4, "xxxx", { 1, 2, 3, 4 }, true },
	{ "gap", 8, "xx..x", { NOVAL, NOVAL, NOVAL, 1, 2, NOVAL, NOVAL, 5 }, true },
	{ "stale slots cleared", 4, "xxxx..x", { 4, NOVAL, NOVAL, 7 }, true },
	{ "gone lately", 4, "xxx.", { 1, 2, 3, NOVAL }, true },
	{ "gone a ring ago", 4, "xx....", { NOVAL, NOVAL, NOVAL, NOVAL }, false },
	{ "came back after a ring", 4, "x....x", { NOVAL, NOVAL, NOVAL, 6 }, true },
	{ "new late", 4, "...x", { NOVAL, NOVAL, NOVAL, 4 }, true },
};

START_TEST(test_dev_holes)
{
	struct history *h = history_new(dev_cases[_i].cap);
	const char *p = dev_cases[_i].present;
	for (size_t k = 0; p[k]; k++) {
		push_bo(h, 0);
		add_w(h, "other", 99, false);	/* a second device, always there */
		if (p[k] == 'x')
			add_w(h, "dev", (double)(k + 1), false);
	}
	const struct hist_series *s = history_find(h, "dev");
	ck_assert_msg((s != NULL) == dev_cases[_i].known, "%s: device held?", dev_cases[_i].name);
	double out[8];
	history_series(h, s, history_dev_field(&fig_dev_table[FIG_DEV_WKB_S]), out, dev_cases[_i].cap);
	check_series(out, dev_cases[_i].want, dev_cases[_i].cap);
	ck_assert_uint_eq(history_ndevs(h), dev_cases[_i].known ? 2 : 1);
	history_free(h);
}
END_TEST

START_TEST(test_add_before_push)
{
	struct history *h = history_new(8);
	struct hist_dev d = { .valid = true };
	ck_assert_int_eq(history_add_dev(h, "sda", &d), -EINVAL);
	ck_assert_uint_eq(history_ndevs(h), 0);
	history_free(h);
	ck_assert_ptr_null(history_new(1));
	history_free(NULL);
}
END_TEST

/* Many devices in no order: every one found, keys kept sorted. */
START_TEST(test_many_devices)
{
	struct history *h = history_new(4);
	push_bo(h, 0);
	char key[32];
	for (unsigned i = 0; i < 500; i++) {
		snprintf(key, sizeof key, "dev%u", (i * 7919u) % 500u);
		add_w(h, key, (double)((i * 7919u) % 500u), false);
	}
	ck_assert_uint_eq(history_ndevs(h), 500);
	for (unsigned i = 0; i < 500; i++) {
		snprintf(key, sizeof key, "dev%u", i);
		const struct hist_series *s = history_find(h, key);
		ck_assert_ptr_nonnull(s);
		ck_assert_str_eq(history_series_key(s), key);
		struct hist_dev d;
		ck_assert(history_dev(h, s, 0, &d));
		ck_assert(d.v[FIG_HIST_WKB_S] == (float)i);
	}
	ck_assert_ptr_null(history_find(h, "dev500"));
	history_free(h);
}
END_TEST

START_TEST(test_same_frame_twice)
{
	struct history *h = history_new(4);
	push_bo(h, 0);
	add_w(h, "a", 1, false);
	add_w(h, "a", 2, false);
	struct hist_dev d;
	ck_assert(history_dev(h, history_find(h, "a"), 0, &d));
	ck_assert(d.v[FIG_HIST_WKB_S] == 2.0f);
	ck_assert_uint_eq(history_ndevs(h), 1);
	history_free(h);
}
END_TEST

START_TEST(test_marks)
{
	struct history *h = history_new(8);
	for (int k = 0; k < 5; k++) {
		struct hist_sys s = { .valid = true, .dip = k == 3 };
		history_push(h, &s);
		add_w(h, "a", 10, k == 1);
		if (k == 2)
			history_mark_event(h);
	}
	bool dip[6], ev[6];
	const struct hist_series *a = history_find(h, "a");
	history_marks(h, NULL, false, dip, ev, 6);
	const bool want_sys[6] = { false, false, false, false, true, false };
	const bool want_ev[6] = { false, false, false, true, false, false };
	const bool want_dev[6] = { false, false, true, false, false, false };
	for (int i = 0; i < 6; i++) {
		ck_assert_msg(dip[i] == want_sys[i], "sys dip %d", i);
		ck_assert_msg(ev[i] == want_ev[i], "event %d", i);
	}
	history_marks(h, a, true, dip, NULL, 6);
	for (int i = 0; i < 6; i++)
		ck_assert_msg(dip[i] == want_dev[i], "dev dip %d", i);
	history_free(h);
}
END_TEST

START_TEST(test_clear)
{
	struct history *h = history_new(4);
	push_bo(h, 5);
	add_w(h, "a", 1, false);
	history_mark_event(h);
	history_clear(h);
	ck_assert_uint_eq(history_len(h), 0);
	ck_assert_uint_eq(history_frames(h), 0);
	ck_assert_uint_eq(history_ndevs(h), 0);
	ck_assert_ptr_null(history_find(h, "a"));
	history_mark_event(h);	/* no frame: a no-op */
	push_bo(h, 7);
	ck_assert(history_sys(h, 0)->bo_kbps == 7.0);
	ck_assert(!history_sys(h, 0)->event);
	history_free(h);
}
END_TEST

/* Figures from derived rates: a first sample keeps the gauges, not rates;
 * await is the I/O-weighted mean of reads and writes, as old iostat. */
START_TEST(test_from_rates)
{
	struct sys_rates r = { .status = RATE_FIRST, .bo_kbps = 100, .dirty_kb = 40,
			       .dirty_thresh_kb = 1000, .bg_thresh_kb = 500 };
	struct hist_sys s;
	history_sys_from_rates(&s, 123, &r, true, false);
	ck_assert(!s.valid);
	ck_assert(s.bo_kbps == 0);
	ck_assert_uint_eq(s.dirty_kb, 40);
	ck_assert_uint_eq(s.dirty_thresh_kb, 1000);
	ck_assert(s.dip);
	ck_assert_int_eq(s.wall_ns, 123);

	struct history *h = history_new(4);
	history_push(h, &s);
	double v;
	ck_assert_uint_eq(history_series(h, NULL, HIST_SYS_BO_KBPS, &v, 1), 0);
	ck_assert_uint_eq(history_series(h, NULL, HIST_SYS_DIRTY_KB, &v, 1), 1);
	ck_assert(v == 40);
	history_free(h);

	r.status = RATE_OK;
	history_sys_from_rates(&s, 0, &r, false, false);
	ck_assert(s.valid && s.bo_kbps == 100);

	struct dev_rates dr = { .status = RATE_OK, .r_s = 10, .r_await_ms = 2, .w_s = 30,
				.w_await_ms = 6, .wkb_s = 1024, .util_pct = 50 };
	struct hist_dev d;
	history_dev_from_rates(&d, &dr, true);
	ck_assert(d.valid && d.dip);
	ck_assert_double_eq_tol(d.v[FIG_HIST_AWAIT_MS], 5.0, 1e-6);
	ck_assert(d.v[FIG_HIST_WKB_S] == 1024.0f);
	dr.r_s = dr.w_s = 0;
	history_dev_from_rates(&d, &dr, false);
	ck_assert(d.v[FIG_HIST_AWAIT_MS] == 0.0f);
	dr.status = RATE_RESET;
	history_dev_from_rates(&d, &dr, true);
	ck_assert(!d.valid && !d.dip);
}
END_TEST

/* history_add_devs (with its hints) gives what history_add_dev one at a time gives: devices
 * that keep their place, swap places, lose their serial, get a serial that another device had
 * before, vanish long enough to be forgotten (the hints go with them) and come back. */
START_TEST(test_add_devs_as_one_by_one)
{
	struct history *a = history_new(4), *b = history_new(4);
	static const char *names[] = { "k0", "k1", "k2", "k3", "k4" };
	uint64_t last[5] = { 0 };	/* the frame each key last had figures in */
	for (int frame = 0; frame < 40; frame++) {
		const char *keys[5];
		uint64_t ids[5];
		struct dev_rates r[5];
		size_t n = frame % 9 == 8 ? 2 : 5;	/* now and then three devices are missing */
		for (size_t i = 0; i < n; i++) {
			size_t who = frame % 7 == 3 ? (i + 1) % n : i;	/* a frame with places swapped */
			keys[i] = names[who];
			ids[i] = frame % 5 == 1 && who == 2 ? 0 : 100 + who;	/* k2 without a serial */
			if (frame > 20 && who == 4)
				ids[i] = 101;	/* the serial k1 had before, now k4's */
			r[i] = (struct dev_rates){ .status = (frame + (int)who) % 11 == 5 ? RATE_RESET : RATE_OK,
						    .wkb_s = frame * 10 + (double)who, .rkb_s = frame * 0.7,
						    .util_pct = (double)who, .r_s = 1, .r_await_ms = 2,
						    .w_s = (double)who * 3 + frame, .w_await_ms = 1.5 * (double)who };
		}
		if (frame > 20) {
			for (size_t i = 0; i < n; i++)
				if (keys[i] == names[1])
					ids[i] = 0;	/* k1 lost its serial for good */
		}
		bool dips[5] = { frame % 3 == 0, false, true, false, false };
		struct hist_sys sys = { .valid = true };
		history_push(a, &sys);
		history_push(b, &sys);
		ck_assert_int_eq(history_add_devs(a, n, keys, ids, r, dips), 0);
		for (size_t i = 0; i < n; i++)
			last[keys[i][1] - '0'] = history_frames(a);
		/* each device of this frame found at its place as by its key */
		for (size_t i = 0; i < n; i++)
			ck_assert_ptr_eq(history_find_at(a, i, keys[i], ids[i]), history_find(a, keys[i]));
		if (n > 1)	/* a place that holds another device now: by key all the same */
			ck_assert_ptr_eq(history_find_at(a, 0, keys[1], ids[1]), history_find(a, keys[1]));
		ck_assert_ptr_eq(history_find_at(a, n + 3, keys[0], ids[0]), history_find(a, keys[0]));
		for (size_t i = 0; i < n; i++) {
			struct hist_dev d;
			history_dev_from_rates(&d, &r[i], dips[i]);
			ck_assert_int_eq(history_add_dev(b, keys[i], &d), 0);
		}
		if (frame == 30)
			for (int k = 0; k < 5; k++) {	/* a gap: everything forgotten, hints too */
				history_push(a, &sys);
				history_push(b, &sys);
			}
		ck_assert_uint_eq(history_ndevs(a), history_ndevs(b));
		/* held: exactly the keys given figures in the last ring's length of frames */
		size_t held = 0;
		for (int k = 0; k < 5; k++)
			held += last[k] && last[k] + history_cap(a) > history_frames(a);
		ck_assert_uint_eq(history_ndevs(a), held);
		for (size_t k = 0; k < 5; k++) {
			const struct hist_series *sa = history_find(a, names[k]), *sb = history_find(b, names[k]);
			ck_assert((sa == NULL) == (sb == NULL));
			double va[4], vb[4];
			bool da[4], db[4];
			for (int f = HIST_DEV_BASE; sa && f < HIST_DEV_BASE + FIG_NHIST; f++) {
				ck_assert_uint_eq(history_series(a, sa, (enum hist_field)f, va, 4),
						  history_series(b, sb, (enum hist_field)f, vb, 4));
				for (int j = 0; j < 4; j++)
					ck_assert(memcmp(&va[j], &vb[j], sizeof va[j]) == 0);
			}
			if (sa) {
				history_marks(a, sa, true, da, NULL, 4);
				history_marks(b, sb, true, db, NULL, 4);
				ck_assert(memcmp(da, db, sizeof da) == 0);
			}
		}
	}
	history_free(a);
	history_free(b);
}
END_TEST

/* Many new devices at once (the first frame of thousands) are merged into the order, and a
 * key given twice in one frame is one series holding the later figures, as one by one. */
START_TEST(test_add_devs_many_new)
{
	enum { N = 3000 };
	struct history *h = history_new(4);
	static char names[N][16];
	const char *keys[N + 1];
	uint64_t ids[N + 1];
	static struct dev_rates r[N + 1];
	for (int i = 0; i < N; i++) {
		snprintf(names[i], sizeof names[i], "k%05d", (i * 7919) % N);	/* not in order */
		keys[i] = names[i];
		ids[i] = 1000 + (uint64_t)i;
		r[i] = (struct dev_rates){ .status = RATE_OK, .wkb_s = (double)i };
	}
	keys[N] = names[5];	/* a second device with the key of the sixth */
	ids[N] = 0;
	r[N] = (struct dev_rates){ .status = RATE_OK, .wkb_s = 123456 };
	struct hist_sys sys = { .valid = true };
	history_push(h, &sys);
	ck_assert_int_eq(history_add_devs(h, N + 1, keys, ids, r, NULL), 0);
	ck_assert_uint_eq(history_ndevs(h), N);
	double v;
	for (int i = 0; i < N; i++) {
		const struct hist_series *hs = history_find(h, names[i]);
		ck_assert_ptr_nonnull(hs);
		ck_assert_uint_eq(history_series(h, hs, history_dev_field(&fig_dev_table[FIG_DEV_WKB_S]), &v, 1), 1);
		ck_assert(v == (i == 5 ? 123456.0 : (double)i));
	}
	/* next frame, the same devices: found at their places */
	history_push(h, &sys);
	ck_assert_int_eq(history_add_devs(h, N, keys, ids, r, NULL), 0);
	ck_assert_uint_eq(history_ndevs(h), N);
	ck_assert_uint_eq(history_series(h, history_find(h, names[5]), history_dev_field(&fig_dev_table[FIG_DEV_WKB_S]), &v, 1), 1);
	ck_assert(v == 5.0);
	history_free(h);
}
END_TEST

/* When a device last dipped: the newest frame it dipped in (a mark on a frame without rates
 * is none), by that frame's time, until the frame leaves the ring. */
START_TEST(test_last_dip)
{
	struct history *h = history_new(4);
	int64_t at = 0;
	ck_assert(!history_last_dip(h, NULL, &at));
	const bool dip[] = { false, true, false, true, false, false, false, false, true };
	const bool ok[] = { true, true, true, true, true, true, true, true, false };
	/* after each frame: the frame (1-based) whose time history_last_dip gives, 0 none */
	const int want[] = { 0, 2, 2, 4, 4, 4, 4, 0, 0 };
	for (size_t k = 0; k < sizeof dip / sizeof dip[0]; k++) {
		struct hist_sys sys = { .valid = true, .wall_ns = 1000 * (int64_t)(k + 1) + 7 };
		history_push(h, &sys);
		struct dev_rates r = { .status = ok[k] ? RATE_OK : RATE_RESET, .wkb_s = 100 };
		const char *key = "a";
		uint64_t id = 5;
		ck_assert_int_eq(history_add_devs(h, 1, &key, &id, &r, &dip[k]), 0);
		const struct hist_series *hs = history_find_at(h, 0, "a", 5);
		ck_assert_ptr_nonnull(hs);
		bool got = history_last_dip(h, hs, &at);
		ck_assert_msg(got == (want[k] != 0), "frame %zu: %d", k + 1, got);
		if (got)
			ck_assert_int_eq(at, 1000 * (int64_t)want[k] + 7);
	}
	history_clear(h);
	struct hist_sys sys = { .valid = true, .wall_ns = 99 };
	history_push(h, &sys);
	add_w(h, "a", 1, false);
	ck_assert(!history_last_dip(h, history_find(h, "a"), &at));	/* forgotten with the rest */
	/* a key given twice in one frame: the later's figures and mark, whether the key is new
	 * (two new series folded into one) or known */
	const char *twice[] = { "b", "b" };
	uint64_t no_ids[] = { 0, 0 };
	struct dev_rates ok2[] = { { .status = RATE_OK, .wkb_s = 1 }, { .status = RATE_OK, .wkb_s = 2 } };
	const bool first_dips[] = { true, false }, later_dips[] = { false, true };
	history_push(h, &(struct hist_sys){ .valid = true, .wall_ns = 200 });
	ck_assert_int_eq(history_add_devs(h, 2, twice, no_ids, ok2, first_dips), 0);
	ck_assert(!history_last_dip(h, history_find(h, "b"), &at));
	history_push(h, &(struct hist_sys){ .valid = true, .wall_ns = 300 });
	ck_assert_int_eq(history_add_devs(h, 2, twice, no_ids, ok2, later_dips), 0);
	ck_assert(history_last_dip(h, history_find(h, "b"), &at));
	ck_assert_int_eq(at, 300);
	const char *twice_new[] = { "c", "c" };
	ck_assert_int_eq(history_add_devs(h, 2, twice_new, no_ids, ok2, later_dips), 0);
	ck_assert(history_last_dip(h, history_find(h, "c"), &at));
	ck_assert_int_eq(at, 300);
	struct hist_dev d;
	ck_assert(history_dev(h, history_find(h, "c"), 0, &d));
	ck_assert(d.v[FIG_HIST_WKB_S] == 2.0f && d.dip);
	history_free(h);
}
END_TEST

Suite *history_suite(void)
{
	Suite *s = suite_create("history");
	TCase *tc = tcase_create("core");
	tcase_add_loop_test(tc, test_sys_ring, 0, (int)(sizeof sys_cases / sizeof sys_cases[0]));
	tcase_add_loop_test(tc, test_dev_holes, 0, (int)(sizeof dev_cases / sizeof dev_cases[0]));
	tcase_add_test(tc, test_add_before_push);
	tcase_add_test(tc, test_many_devices);
	tcase_add_test(tc, test_same_frame_twice);
	tcase_add_test(tc, test_marks);
	tcase_add_test(tc, test_clear);
	tcase_add_test(tc, test_from_rates);
	tcase_add_test(tc, test_add_devs_as_one_by_one);
	tcase_add_test(tc, test_add_devs_many_new);
	tcase_add_test(tc, test_last_dip);
	suite_add_tcase(s, tc);
	return s;
}
