/*
 * test_cause.c - the cause of a marked interval, table-driven: each row an interval's
 * evidence against a device whose usual figures are 64 w/s, a queue of 2, an await of 30 ms,
 * 1 flush a second of 5 ms, and the cause it must get.
 */
#include <check.h>
#include <math.h>
#include <string.h>

#include "core/cause.h"
#include "core/derive.h"
#include "core/figure.h"

static struct dip_evidence cause_test_usual(void)
{
	struct dip_evidence e;
	cause_evidence_init(&e);
	e.w_s = 64;
	e.aqu_sz = 2;
	e.w_await_ms = 30;
	e.f_s = 1;
	e.f_await_ms = 5;
	e.dirty_kb = 100000;
	e.dirty_thresh_kb = 4000000;
	return e;
}

enum cause_field { F_NONE, F_W_S, F_AQU, F_AWAIT, F_F_S, F_F_AWAIT, F_DIRTY, F_EXACT, F_WCHAN,
		   F_KNOB, F_RECLAIM, F_SIBLING };

static const struct {
	const char *what;
	enum cause_field f1;
	double v1;
	enum cause_field f2;
	double v2;
	enum dip_cause want;
} cause_cases[] = {
	{ "a paused writer: no writes, nothing queued", F_W_S, 0, F_AQU, 0, DIP_CAUSE_STOPPED },
	{ "a writer at a quarter, queue empty: slowed, not stopped", F_W_S, 16, F_AQU, 0.2,
	  DIP_CAUSE_WRITERS_SLOWED },
	{ "a writer at a twentieth, queue empty", F_W_S, 3, F_AQU, 0.1, DIP_CAUSE_STOPPED },
	{ "writes down but the queue full: not stopped", F_W_S, 16, F_AQU, 6, DIP_CAUSE_SLOWED },
	{ "await up fourfold", F_AWAIT, 120, F_NONE, 0, DIP_CAUSE_SLOWED },
	{ "await up a little: not slowed", F_AWAIT, 40, F_NONE, 0, DIP_CAUSE_UNKNOWN },
	{ "flushes up", F_F_S, 12, F_NONE, 0, DIP_CAUSE_FLUSH },
	{ "flush await up, await up with it", F_F_AWAIT, 80, F_AWAIT, 120, DIP_CAUSE_FLUSH },
	{ "dirty data at the limit, writers stopped", F_DIRTY, 3950000, F_W_S, 0,
	  DIP_CAUSE_THROTTLED_GUESS },
	{ "writers waiting in balance_dirty_pages", F_WCHAN, 3, F_NONE, 0,
	  DIP_CAUSE_THROTTLED_GUESS },
	{ "the kernel's own throttling record", F_EXACT, 2, F_DIRTY, 3950000, DIP_CAUSE_THROTTLED },
	{ "a knob change, queue empty too", F_KNOB, 1, F_W_S, 0, DIP_CAUSE_KNOB },
	{ "reclaim writing back", F_RECLAIM, 5000, F_NONE, 0, DIP_CAUSE_RECLAIM },
	{ "another device on the disk rose", F_SIBLING, 1, F_NONE, 0, DIP_CAUSE_SHARED_DISK },
	{ "nothing to say", F_NONE, 0, F_NONE, 0, DIP_CAUSE_UNKNOWN },
	{ "a writer at 70 %, nothing queued, await as usual", F_W_S, 45, F_AQU, 0.1,
	  DIP_CAUSE_WRITERS_SLOWED },
	{ "a writer at 70 %, the queue as usual: not the writers", F_W_S, 45, F_NONE, 0,
	  DIP_CAUSE_UNKNOWN },
};

static void cause_test_set(struct dip_evidence *e, enum cause_field f, double v)
{
	switch (f) {
	case F_NONE: break;
	case F_W_S: e->w_s = v; break;
	case F_AQU: e->aqu_sz = v; break;
	case F_AWAIT: e->w_await_ms = v; break;
	case F_F_S: e->f_s = v; break;
	case F_F_AWAIT: e->f_await_ms = v; break;
	case F_DIRTY: e->dirty_kb = v; break;
	case F_EXACT: e->throttled_exact = (int)v; break;
	case F_WCHAN: e->throttled_wchan = (int)v; break;
	case F_KNOB: e->knob_changed = v != 0; break;
	case F_RECLAIM: e->reclaim_kbps = v; break;
	case F_SIBLING: e->sibling_rose = v != 0; break;
	}
}

START_TEST(test_cause_table)
{
	struct dip_cause_base b;
	cause_base_init(&b);
	struct dip_evidence usual = cause_test_usual();
	for (int i = 0; i < 20; i++)
		cause_base_learn(&b, &usual);
	for (size_t i = 0; i < sizeof cause_cases / sizeof cause_cases[0]; i++) {
		struct dip_evidence e = cause_test_usual();
		cause_test_set(&e, cause_cases[i].f1, cause_cases[i].v1);
		cause_test_set(&e, cause_cases[i].f2, cause_cases[i].v2);
		enum dip_cause got = cause_of(&e, &b);
		ck_assert_msg(got == cause_cases[i].want, "%s: %s, not %s", cause_cases[i].what,
			      cause_name(got), cause_name(cause_cases[i].want));
	}
}
END_TEST

/* A writer at 70 % while every request took four times as long: with the device idle most of
 * the interval (a machine whose latency rose under a paced writer) that is its writers; with
 * half a request or more in flight, the device. */
START_TEST(test_cause_await_on_an_idle_device)
{
	struct dip_cause_base b;
	cause_base_init(&b);
	struct dip_evidence usual = cause_test_usual();
	usual.aqu_sz = 0.1;
	usual.w_await_ms = 1.0;
	for (int i = 0; i < 20; i++)
		cause_base_learn(&b, &usual);
	static const struct { double aqu; enum dip_cause want; } cases[] = {
		{ 0.2, DIP_CAUSE_WRITERS_SLOWED }, { 0.49, DIP_CAUSE_WRITERS_SLOWED },
		{ 0.6, DIP_CAUSE_SLOWED }, { 1.2, DIP_CAUSE_SLOWED },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct dip_evidence e = usual;
		e.w_s = 45;
		e.w_await_ms = 4.5;
		e.aqu_sz = cases[i].aqu;
		enum dip_cause got = cause_of(&e, &b);
		ck_assert_msg(got == cases[i].want, "aqu-sz %.2f: %s, not %s", cases[i].aqu,
			      cause_name(got), cause_name(cases[i].want));
	}
	/* as usual but for the writes: the writers either way */
	struct dip_evidence e = usual;
	e.w_s = 45;
	ck_assert_int_eq(cause_of(&e, &b), DIP_CAUSE_WRITERS_SLOWED);
}
END_TEST

/* A buffered writer's device: 32 MiB/s in 32 writes a second, nothing queued, its writer
 * dirtying its pages at the rate they are written. Whether the writers went on dirtying pages
 * tells a writer that stopped or slowed from writeback that fell behind it. */
static const struct {
	const char *what;
	double w_kbps, w_s, dirtied_kbps;	/* dirtied: -1 unknown */
	bool held;			/* the last interval a dip a knob change caused */
	enum dip_cause want;
} cause_buffered_cases[] = {
	{ "writeback stopped, the writer dirtying as usual: not 'writers stopped'", 0, 0, 32768,
	  false, DIP_CAUSE_UNKNOWN },
	{ "the same, in a dip a knob change began: the knob's still", 0, 0, 32768, true,
	  DIP_CAUSE_KNOB },
	{ "the same, the page-cache figures missing this once: the knob's still", 0, 0, -1, true,
	  DIP_CAUSE_KNOB },
	{ "a knob change began it, but the writer stopped dirtying: writers stopped", 0, 0, 0, true,
	  DIP_CAUSE_STOPPED },
	{ "writes at a quarter, dirtied as usual (a limit below the queue): not the writers", 8192,
	  8, 32768, false, DIP_CAUSE_UNKNOWN },
	{ "a writer held 30 % lower dirties 30 % less: writers slowed", 22938, 22, 22938, false,
	  DIP_CAUSE_WRITERS_SLOWED },
	{ "writes 30 % down, dirtied 20 % down (a limiter's flicker): writers slowed", 22938, 22,
	  26214, false, DIP_CAUSE_WRITERS_SLOWED },
	{ "a paused buffered writer: nothing dirtied, nothing written", 0, 0, 0, false,
	  DIP_CAUSE_STOPPED },
	{ "no page-cache figures at all: as before, writers stopped", 0, 0, -1, false,
	  DIP_CAUSE_STOPPED },
};

/* A device's usual figures: 32 MiB/s in 32 writes a second, nothing queued, its pages dirtied
 * and written back at dirtied KiB/s (-1: unknown, no debugfs), learnt from 20 intervals. */
static void cause_usual_writer(struct dip_evidence *usual, struct dip_cause_base *b,
			       double dirtied)
{
	cause_evidence_init(usual);
	usual->w_s = 32;
	usual->aqu_sz = 0.05;
	usual->w_await_ms = 1;
	usual->w_kbps = 32768;
	usual->dirtied_kbps = usual->written_kbps = dirtied;
	cause_base_init(b);
	for (int i = 0; i < 20; i++)
		cause_base_learn(b, usual);
}

START_TEST(test_cause_buffered)
{
	struct dip_evidence usual;
	struct dip_cause_base b;
	cause_usual_writer(&usual, &b, 32768);
	for (size_t i = 0; i < sizeof cause_buffered_cases / sizeof cause_buffered_cases[0]; i++) {
		struct dip_evidence e = usual;
		e.w_kbps = cause_buffered_cases[i].w_kbps;
		e.w_s = cause_buffered_cases[i].w_s;
		e.aqu_sz = 0.01;
		e.dirtied_kbps = cause_buffered_cases[i].dirtied_kbps;
		e.knob_held = cause_buffered_cases[i].held;
		enum dip_cause got = cause_of(&e, &b);
		ck_assert_msg(got == cause_buffered_cases[i].want, "%s: %s, not %s",
			      cause_buffered_cases[i].what, cause_name(got),
			      cause_name(cause_buffered_cases[i].want));
	}
	/* a direct-I/O writer (no pages dirtied) stopped in a dip a knob change began: no pages
	 * the knob could hold, whether this interval's page-cache figures are there or not */
	cause_usual_writer(&usual, &b, 0);
	struct dip_evidence e = usual;
	e.w_kbps = e.w_s = 0;
	e.aqu_sz = 0;
	e.knob_held = true;
	ck_assert_int_eq(cause_of(&e, &b), DIP_CAUSE_STOPPED);
	e.dirtied_kbps = -1;
	ck_assert_int_eq(cause_of(&e, &b), DIP_CAUSE_STOPPED);
	/* ... even while the system's other writers dirty pages its writeback falls behind on:
	 * the device's own figures say it dirties none */
	e.sys_dirtied_kbps = 32768;
	e.sys_written_kbps = 0;
	ck_assert_int_eq(cause_of(&e, &b), DIP_CAUSE_STOPPED);
}
END_TEST

/* No debugfs: a device whose pages dirtied were never known. In the live corpus' knob scenario
 * (dirty_bytes raised from 64 MiB to 2 GiB), its buffered writer's device wrote nothing for
 * 4 s while the system dirtied 32 MiB/s and wrote none of it back; the intervals after the
 * change's were "writers stopped". A knob change's dip stays the knob's while the system's
 * writers go on dirtying pages its writeback falls behind on, and no longer. */
START_TEST(test_cause_knob_held_without_debugfs)
{
	struct dip_evidence usual;
	struct dip_cause_base b;
	cause_usual_writer(&usual, &b, -1);
	struct dip_evidence e = usual;
	e.w_kbps = e.w_s = 0;
	e.aqu_sz = 0;
	e.knob_held = true;
	e.sys_dirtied_kbps = 32768;
	e.sys_written_kbps = 0;
	ck_assert_int_eq(cause_of(&e, &b), DIP_CAUSE_KNOB);
	e.sys_written_kbps = 30000;	/* the system's writeback keeps up: not held back */
	ck_assert_int_eq(cause_of(&e, &b), DIP_CAUSE_STOPPED);
	e.sys_written_kbps = -1;	/* unknown: no evidence that it holds */
	ck_assert_int_eq(cause_of(&e, &b), DIP_CAUSE_STOPPED);
	e.sys_written_kbps = 0;
	e.knob_held = false;		/* no knob change began it: as before */
	ck_assert_int_eq(cause_of(&e, &b), DIP_CAUSE_STOPPED);
}
END_TEST

/* The system line knows no usual figures: a knob change's dip stays the knob's while the
 * system writes back under half what it dirties, and no longer. */
START_TEST(test_cause_system_knob_held)
{
	struct dip_evidence e;
	cause_evidence_init(&e);
	e.knob_held = true;
	e.dirtied_kbps = 32768;
	e.written_kbps = 0;
	ck_assert_int_eq(cause_of(&e, NULL), DIP_CAUSE_KNOB);
	e.written_kbps = 30000;
	ck_assert_int_eq(cause_of(&e, NULL), DIP_CAUSE_UNKNOWN);
	e.written_kbps = -1;
	ck_assert_int_eq(cause_of(&e, NULL), DIP_CAUSE_UNKNOWN);
	e.written_kbps = 0;
	e.knob_held = false;
	ck_assert_int_eq(cause_of(&e, NULL), DIP_CAUSE_UNKNOWN);
	e.throttled_exact = 1;
	ck_assert_int_eq(cause_of(&e, NULL), DIP_CAUSE_THROTTLED);
}
END_TEST

/* Without a baseline only what needs none is said; unknown figures say nothing. */
START_TEST(test_cause_without_baseline)
{
	struct dip_evidence e;
	cause_evidence_init(&e);
	ck_assert_int_eq(cause_of(&e, NULL), DIP_CAUSE_UNKNOWN);
	e.w_s = 0;
	e.aqu_sz = 0;
	ck_assert_int_eq(cause_of(&e, NULL), DIP_CAUSE_STOPPED);
	e.w_s = 10;
	ck_assert_int_eq(cause_of(&e, NULL), DIP_CAUSE_UNKNOWN);
	e.w_await_ms = 500;
	ck_assert_int_eq(cause_of(&e, NULL), DIP_CAUSE_UNKNOWN);
	struct dip_cause_base b;
	cause_base_init(&b);
	ck_assert_int_eq(cause_of(&e, &b), DIP_CAUSE_UNKNOWN);
}
END_TEST

/* The baseline follows the usual figures and ignores unknown ones. */
START_TEST(test_cause_base_follows)
{
	struct dip_cause_base b;
	cause_base_init(&b);
	struct dip_evidence e = cause_test_usual();
	cause_base_learn(&b, &e);
	ck_assert_double_eq(b.w_s, 64);
	e.w_s = 128;
	e.f_s = -1;
	for (int i = 0; i < 60; i++)
		cause_base_learn(&b, &e);
	ck_assert(fabs(b.w_s - 128) < 1);
	ck_assert_double_eq(b.f_s, 1);
}
END_TEST

/* Learning from a device's own figures (cause_base_learn_dev) is learning the evidence the
 * registry gives of them (cause_evidence_dev over an unknown one), bit for bit: over figures with
 * and without flush counters, with and without its pages dirtied and written beside the
 * diskstats block, unknown (negative) ones, and devices without rates; from a fresh baseline
 * on, through a saturated count. */
START_TEST(test_cause_learn_dev_is_evidence)
{
	uint64_t x = 5;
	for (int t = 0; t < 40; t++) {
		struct dip_cause_base fast, slow;
		memset(&fast, 0, sizeof fast);	/* the padding too, for the memcmp */
		memset(&slow, 0, sizeof slow);
		cause_base_init(&fast);
		cause_base_init(&slow);
		for (int k = 0; k < 1200; k++) {
			struct dev_rates r;
			double *v[] = { &r.w_s, &r.wkb_s, &r.aqu_sz, &r.w_await_ms, &r.f_s,
					&r.f_await_ms, &r.r_s, &r.rkb_s };
			memset(&r, 0, sizeof r);
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			unsigned bits = (unsigned)(x >> 40);
			r.status = bits % 16 == 0 ? RATE_RESET : RATE_OK;
			r.has_flush = bits & 16;
			r.has_discard = bits & 32;
			for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
				*v[i] = (double)((x >> (3 * i)) & 0xfff) / 8.0 -
					(bits & 64 && i == 2 ? 600 : 0);	/* unknown */
			for (unsigned j = 0; j < SNAP_NXDEV; j++) {
				r.x[j] = (double)((x >> (j + 7)) & 0xffff);
				if (bits >> (8 + j) & 1)
					r.x_have |= 1u << j;
			}
			struct dip_evidence e;
			cause_evidence_init(&e);
			if (r.status == RATE_OK)
				cause_evidence_dev(&e, &r);
			cause_base_learn(&slow, &e);
			cause_base_learn_dev(&fast, &r);
			ck_assert_msg(memcmp(&fast, &slow, sizeof fast) == 0, "run %d at %d", t, k);
		}
	}
}
END_TEST

/* "Less written" is in bytes where they are known: a loop device's writer went from 1 MiB
 * requests (40 a second at 40 MiB/s) to 512 KiB ones, so that its usual w/s was half its new
 * one; its drop by 42 % (46 requests a second) is the writers slowing, and the same bytes in
 * half as many requests are not. */
START_TEST(test_cause_less_written_in_bytes)
{
	struct dip_cause_base b;
	cause_base_init(&b);
	struct dip_evidence usual = cause_test_usual();
	usual.w_s = 40;	/* and nothing queued: a loop device writing to a fast backing file */
	usual.w_kbps = 40960;
	usual.aqu_sz = 0.01;
	for (int i = 0; i < 20; i++)
		cause_base_learn(&b, &usual);
	struct dip_evidence e = usual;
	e.w_s = 46;
	e.w_kbps = 23552;
	ck_assert_str_eq(cause_name(cause_of(&e, &b)), "writers slowed");
	e.w_s = 20;
	e.w_kbps = 40960;
	ck_assert_str_eq(cause_name(cause_of(&e, &b)), "unknown");
}
END_TEST

START_TEST(test_cause_names)
{
	ck_assert_str_eq(cause_name(DIP_CAUSE_STOPPED), "writers stopped");
	ck_assert_str_eq(cause_name(DIP_CAUSE_THROTTLED_GUESS), "throttled (guess)");
	ck_assert_str_eq(cause_name(DIP_CAUSE_KNOB), "knob change");
	ck_assert_str_eq(cause_name(DIP_CAUSE_WRITERS_SLOWED), "writers slowed");
	ck_assert_str_eq(cause_name((enum dip_cause)99), "unknown");
}
END_TEST

Suite *cause_suite(void)
{
	Suite *s = suite_create("cause");
	TCase *tc = tcase_create("cause");
	tcase_add_test(tc, test_cause_table);
	tcase_add_test(tc, test_cause_await_on_an_idle_device);
	tcase_add_test(tc, test_cause_without_baseline);
	tcase_add_test(tc, test_cause_buffered);
	tcase_add_test(tc, test_cause_system_knob_held);
	tcase_add_test(tc, test_cause_knob_held_without_debugfs);
	tcase_add_test(tc, test_cause_base_follows);
	tcase_add_test(tc, test_cause_names);
	tcase_add_test(tc, test_cause_less_written_in_bytes);
	tcase_add_test(tc, test_cause_learn_dev_is_evidence);
	suite_add_tcase(s, tc);
	return s;
}
