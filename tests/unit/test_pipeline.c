/*
 * test_pipeline.c - a step through a scripted source: the rates a view asks for
 * (frame_dev_rates, derived on first use) are those derive_devs gives for the same two
 * snapshots, once a frame; the detector is fed each device's write rate; and a step that
 * fails (its snapshot half written) leaves the last frame whole: a view still asking gets
 * that frame's rates, never garbage.
 */
#include <check.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/derive.h"
#include "core/pipeline.h"
#include "script_source.h"

enum { NDEV = 300, NSTEP = 6 };

/* Two devices' rates are the same figures (their padding aside). */
static bool rates_equal(const struct dev_rates *a, const struct dev_rates *b)
{
	if (a->status != b->status || a->has_discard != b->has_discard || a->has_flush != b->has_flush ||
	    a->active != b->active || a->x_have != b->x_have ||
	    memcmp(&a->r_s, &b->r_s, offsetof(struct dev_rates, has_discard) - offsetof(struct dev_rates, r_s)))
		return false;
	for (unsigned k = 0; k < 32 && k < sizeof a->x / sizeof a->x[0]; k++)
		if ((a->x_have >> k & 1) && memcmp(&a->x[k], &b->x[k], sizeof a->x[k]))
			return false;
	return true;
}

struct script {
	int step;
	int fail_at;		/* this step returns -EIO after spoiling out */
};

static int script_next(struct source *src, struct snapshot *out)
{
	struct script *sc = src->impl;
	int k = sc->step++;
	if (k >= NSTEP)
		return 1;
	if (script_snapshot(out, NDEV, k) < 0)
		return -ENOMEM;
	for (uint32_t i = 0; i < NDEV; i++) {
		struct dev_counters *d = &out->dev[i];
		script_dev(d, i);
		for (int f = 0; f < DS_NFIELDS; f++)
			d->f[f] = (uint64_t)(k + 1) * (i + 1) * (uint64_t)(f + 3);
		if (i % 50 == 7 && k == 3)
			d->f[DS_WR_IOS] = 0;	/* a reset: no rates this step */
	}
	if (k == sc->fail_at) {
		for (uint32_t i = 0; i < NDEV; i++)
			memset(out->dev[i].f, 0xff, sizeof out->dev[i].f);
		snprintf(src->errmsg, sizeof src->errmsg, "scripted failure");
		return -EIO;
	}
	return 0;
}

static const struct source_ops script_ops = { .kind = "script", .next = script_next, .close = script_source_close };

START_TEST(test_rates_on_first_use)
{
	struct script sc = { 0, -1 };
	struct source src = { &script_ops, &sc, "" };
	struct dip_params dp;
	detect_params_default(&dp);
	struct pipeline *p = pipeline_new(&src, &dp, PIPELINE_MARKS_RECORDED);
	ck_assert_ptr_nonnull(p);
	static struct dev_rates want[NDEV];
	const struct frame *f;
	int steps = 0;
	while (pipeline_step(p, &f) == 0) {
		derive_devs(f->prev, f->cur, want);
		const struct dev_rates *got = frame_dev_rates(f);
		ck_assert_ptr_nonnull(got);
		ck_assert_ptr_eq(frame_dev_rates(f), got);	/* once a step */
		int bad = -1;
		for (int i = 0; i < NDEV && bad < 0; i++)
			if (!rates_equal(&got[i], &want[i]))
				bad = i;
		ck_assert_msg(bad < 0, "step %d device %d", steps, bad);
		/* a copy of the frame asks the same pipeline */
		struct frame copy = *f;
		ck_assert_ptr_eq(frame_dev_rates(&copy), got);
		steps++;
	}
	ck_assert_int_eq(steps, NSTEP);
	pipeline_free(p);
}
END_TEST

START_TEST(test_failed_step_leaves_frame_whole)
{
	struct script sc = { 0, 3 };
	struct source src = { &script_ops, &sc, "" };
	struct dip_params dp;
	detect_params_default(&dp);
	struct pipeline *p = pipeline_new(&src, &dp, PIPELINE_MARKS_RECORDED);
	ck_assert_ptr_nonnull(p);
	pipeline_need(p, PIPELINE_NEED_KEEP);	/* a sink that keeps frames (the screen) */
	const struct frame *f, *shown = NULL;
	static struct dev_rates before[NDEV];
	for (int k = 0; k < 3; k++) {
		ck_assert_int_eq(pipeline_step(p, &f), 0);
		shown = f;
	}
	/* asked before the failed step: the rates stay as they were */
	memcpy(before, frame_dev_rates(shown), sizeof before);
	ck_assert_int_eq(pipeline_step(p, &f), -EIO);
	ck_assert_mem_eq(frame_dev_rates(shown), before, sizeof before);
	ck_assert_int_eq(pipeline_step(p, &f), 0);
	/* not asked before a failed step: the frame is whole all the same (the step filled
	 * another snapshot), its rates those of its own two samples */
	sc.fail_at = 5;
	ck_assert_int_eq(pipeline_step(p, &f), -EIO);
	static struct dev_rates want[NDEV];
	derive_devs(f->prev, f->cur, want);
	const struct dev_rates *r = frame_dev_rates(f);
	for (int i = 0; i < NDEV; i++) {
		ck_assert_int_eq(r[i].status, RATE_OK);
		ck_assert(r[i].wkb_s == want[i].wkb_s && r[i].util_pct == want[i].util_pct);
	}
	pipeline_free(p);
}
END_TEST

/* A sink may keep a frame until it is handed the next: the next step fills a third snapshot
 * and derives into the other frame's arrays, so the kept frame's samples and its rates, asked
 * for the first time after, are what they were. */
START_TEST(test_frame_kept_over_next_step)
{
	struct script sc = { 0, -1 };
	struct source src = { &script_ops, &sc, "" };
	struct dip_params dp;
	detect_params_default(&dp);
	struct pipeline *p = pipeline_new(&src, &dp, PIPELINE_MARKS_RECORDED);
	ck_assert_ptr_nonnull(p);
	pipeline_need(p, PIPELINE_NEED_KEEP);	/* a sink that keeps frames (the screen) */
	static struct dev_counters cur_was[NDEV], prev_was[NDEV];
	static struct dev_rates want[NDEV];
	const struct frame *kept, *f;
	ck_assert_int_eq(pipeline_step(p, &kept), 0);
	int checked = 0;
	for (;;) {
		memcpy(cur_was, kept->cur->dev, sizeof cur_was);
		if (kept->prev)
			memcpy(prev_was, kept->prev->dev, sizeof prev_was);
		derive_devs(kept->prev, kept->cur, want);
		if (pipeline_step(p, &f) != 0)
			break;
		ck_assert_ptr_ne(f, kept);	/* the next one, made: kept is kept */
		ck_assert_mem_eq(kept->cur->dev, cur_was, sizeof cur_was);
		if (kept->prev)
			ck_assert_mem_eq(kept->prev->dev, prev_was, sizeof prev_was);
		const struct dev_rates *r = frame_dev_rates(kept);	/* asked for the first time */
		for (int i = 0; i < NDEV; i++)
			ck_assert_msg(r[i].status == want[i].status && r[i].wkb_s == want[i].wkb_s &&
				      r[i].w_await_ms == want[i].w_await_ms, "frame %d device %d", checked, i);
		checked++;
		kept = f;
	}
	ck_assert_int_eq(checked, NSTEP - 1);
	pipeline_free(p);
}
END_TEST

/* Briefs a sink said it needs (PIPELINE_NEED_BRIEFS) are derived with the write rates in one
 * pass, up front: they are derive_dev_brief's, and the write rates, the detector's inputs and
 * its marks are bit for bit those of a pipeline that derives them when first asked. */
START_TEST(test_briefs_with_write_rates)
{
	struct script sa = { 0, -1 }, sb = { 0, -1 };
	struct source a = { &script_ops, &sa, "" }, b = { &script_ops, &sb, "" };
	struct dip_params dp;
	detect_params_default(&dp);
	struct pipeline *pa = pipeline_new(&a, &dp, PIPELINE_MARKS_RECORDED);
	struct pipeline *pb = pipeline_new(&b, &dp, PIPELINE_MARKS_RECORDED);
	ck_assert(pa && pb);
	pipeline_need(pa, PIPELINE_NEED_BRIEFS);
	static const struct dev_counters *pair[NDEV];
	const struct frame *fa, *fb;
	int steps = 0;
	while (pipeline_step(pa, &fa) == 0) {
		ck_assert_int_eq(pipeline_step(pb, &fb), 0);
		ck_assert_mem_eq(frame_dev_write_kbps(fa), frame_dev_write_kbps(fb), NDEV * sizeof(double));
		ck_assert_mem_eq(fa->dev_dip, fb->dev_dip, NDEV * sizeof(bool));
		const struct dev_rates *br = frame_dev_briefs(fa);
		ck_assert_ptr_nonnull(br);
		const struct dev_rates *brb = frame_dev_briefs(fb);	/* derived when asked */
		for (int i = 0; i < NDEV; i++)
			ck_assert_msg(memcmp(&br[i].r_s, &brb[i].r_s, offsetof(struct dev_rates, has_discard) -
					     offsetof(struct dev_rates, r_s)) == 0, "step %d device %d", steps, i);
		derive_pair_devs(fa->prev, fa->cur, pair);
		double dt = derive_dt_s(fa->prev, fa->cur);
		for (int i = 0; i < NDEV; i++) {
			struct dev_rates want;
			derive_dev_brief(pair[i], &fa->cur->dev[i], dt, &want);
			ck_assert_int_eq(br[i].status, want.status);
			ck_assert_int_eq(br[i].active, want.active);
			ck_assert_int_eq(br[i].x_have, 0);
			ck_assert_msg(memcmp(&br[i].r_s, &want.r_s, offsetof(struct dev_rates, has_discard) -
					     offsetof(struct dev_rates, r_s)) == 0, "step %d device %d", steps, i);
		}
		steps++;
	}
	ck_assert_int_eq(steps, NSTEP);
	pipeline_free(pa);
	pipeline_free(pb);
}
END_TEST

/* A source with recorded marks: device 3 and the system "dipped" at every
 * even step. */
static bool recorded_dev_dips[NDEV];

static int script_marks(struct source *src, struct source_marks *out)
{
	struct script *sc = src->impl;
	memset(out, 0, sizeof *out);
	memset(recorded_dev_dips, 0, sizeof recorded_dev_dips);
	recorded_dev_dips[3] = sc->step % 2 == 0;
	out->sys_dip = sc->step % 2 == 0;
	out->dev_dips = recorded_dev_dips;
	return 0;
}

static const struct source_ops marked_ops = { .kind = "marked", .next = script_next, .close = script_source_close,
					      .marks = script_marks };

/* The marks rule: a source's recorded marks replace the detector's unless
 * the pipeline judges (--dip given); a source without marks gets the
 * detector's either way. */
START_TEST(test_marks_rule)
{
	struct dip_params dp;
	detect_params_default(&dp);
	struct script sa = { 0, -1 }, sb = { 0, -1 }, sc = { 0, -1 };
	struct source a = { &marked_ops, &sa, "" }, b = { &marked_ops, &sb, "" }, c = { &script_ops, &sc, "" };
	struct pipeline *recorded = pipeline_new(&a, &dp, PIPELINE_MARKS_RECORDED);
	struct pipeline *judged = pipeline_new(&b, &dp, PIPELINE_MARKS_JUDGED);
	struct pipeline *live = pipeline_new(&c, &dp, PIPELINE_MARKS_RECORDED);
	const struct frame *fr, *fj, *fl;
	for (int k = 0; k < NSTEP; k++) {
		ck_assert_int_eq(pipeline_step(recorded, &fr), 0);
		ck_assert_int_eq(pipeline_step(judged, &fj), 0);
		ck_assert_int_eq(pipeline_step(live, &fl), 0);
		bool even = sa.step % 2 == 0;
		ck_assert(fr->recorded_marks);
		ck_assert(!fj->recorded_marks && !fl->recorded_marks);
		ck_assert(fr->sys_dip == even && fr->interval_dip == even);
		for (int i = 0; i < NDEV; i++)
			ck_assert(fr->dev_dip[i] == (i == 3 && even));
		/* judged: what the detector says of the same data, as without marks */
		ck_assert(fj->sys_dip == fl->sys_dip && fj->interval_dip == fl->interval_dip);
		ck_assert_mem_eq(fj->dev_dip, fl->dev_dip, NDEV * sizeof *fj->dev_dip);
	}
	pipeline_free(recorded);
	pipeline_free(judged);
	pipeline_free(live);
}
END_TEST

Suite *pipeline_suite(void)
{
	Suite *s = suite_create("pipeline");
	TCase *tc = tcase_create("frame");
	tcase_add_test(tc, test_rates_on_first_use);
	tcase_add_test(tc, test_failed_step_leaves_frame_whole);
	tcase_add_test(tc, test_frame_kept_over_next_step);
	tcase_add_test(tc, test_briefs_with_write_rates);
	tcase_add_test(tc, test_marks_rule);
	suite_add_tcase(s, tc);
	return s;
}
