/*
 * test_feed.c - the one feed of both loops: every sink gets every frame in the order it
 * was added; a failing recorder is dropped and said, a failing output stops the frame
 * there and is said, a keeper's failure is not; wbtop's own knob write is an event of the
 * interval that shows it, taken out of that frame's changes (others' changes stay), and
 * handed to the recorder before that frame.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/control.h"
#include "core/pipeline.h"
#include "run/feed.h"
#include "sink/sink.h"
#include "script_source.h"

enum { NSTEP = 5 };

/* Step k's knobs: dirty_ratio 20 then 10 from step 2 on (wbtop's write), and
 * dirty_background_ratio 10 then 5 from step 2 on (someone else's). */
static int script_next(struct source *src, struct snapshot *out)
{
	int *step = src->impl;
	int k = (*step)++;
	if (k >= NSTEP)
		return 1;
	if (script_snapshot(out, 1, k) < 0)
		return -ENOMEM;
	script_dev(&out->dev[0], 0);
	out->dev[0].f[DS_WR_SECT] = (uint64_t)k * 2048;
	for (int i = 0; i < SNAP_NKNOBS; i++)
		out->knob[i] = -1;
	out->knob[KNOB_DIRTY_RATIO] = k >= 2 ? 10 : 20;
	out->knob[KNOB_DIRTY_BG_RATIO] = k >= 2 ? 5 : 10;
	out->wall_ns = (int64_t)(k + 1) * 1000000000;
	return 0;
}

static const struct source_ops script_ops = { .kind = "script", .next = script_next, .close = script_source_close };

/* A sink that logs what it gets into a shared text, and fails from step fail_at on. */
struct probe {
	const char *name;
	char *log;		/* shared, 4096 bytes */
	int frames;
	int fail_at;		/* -1: never */
	int fail_rc;
};

static int probe_frame(struct sink *s, const struct frame *f)
{
	struct probe *p = s->impl;
	int k = p->frames++;
	size_t used = strlen(p->log);
	snprintf(p->log + used, 4096 - used, "%s:%d ev%zu ch%zu%s%s;", p->name, k, f->nevents, f->nchanges,
		 f->nchanges ? " " : "", f->nchanges ? f->changes[0].knob : "");
	if (p->fail_at >= 0 && k >= p->fail_at) {
		snprintf(s->errmsg, sizeof s->errmsg, "%s broke", p->name);
		return p->fail_rc;
	}
	return 0;
}

static int probe_event(struct sink *s, const struct wb_event *e)
{
	struct probe *p = s->impl;
	size_t used = strlen(p->log);
	snprintf(p->log + used, 4096 - used, "%s:event %s=%lld;", p->name, e->knob, (long long)e->new_value);
	return 0;
}

static int probe_close(struct sink *s)
{
	(void)s;	/* the probes are the test's */
	return 0;
}

static const struct sink_ops probe_ops = { .kind = "probe", .frame = probe_frame, .event = probe_event,
					   .close = probe_close };

START_TEST(test_order_and_failures)
{
	int step = 0;
	struct source src = { &script_ops, &step, "" };
	struct dip_params dp;
	detect_params_default(&dp);
	struct pipeline *p = pipeline_new(&src, &dp, PIPELINE_MARKS_JUDGED);
	struct feed *fd = feed_new(p, NULL);
	ck_assert_ptr_nonnull(fd);
	char log[4096] = "";
	struct probe keep = { "keep", log, 0, 0, -EIO }, rec = { "rec", log, 0, 2, -ENOSPC },
		     out = { "out", log, 0, 3, -EPIPE }, last = { "last", log, 0, -1, 0 };
	ck_assert_int_eq(feed_add(fd, sink_new(&probe_ops, &keep), FEED_KEEPER), 0);
	ck_assert_int_eq(feed_add(fd, sink_new(&probe_ops, &rec), FEED_RECORDER), 0);
	ck_assert_int_eq(feed_add(fd, sink_new(&probe_ops, &out), FEED_OUTPUT), 0);
	ck_assert_int_eq(feed_add(fd, sink_new(&probe_ops, &last), FEED_OUTPUT), 0);
	ck_assert(feed_recording(fd));
	const struct frame *f;
	struct feed_failure e;
	for (int k = 0; k < 3; k++) {
		ck_assert_int_eq(feed_step(fd, &f), 0);
		ck_assert(k == 2 || !feed_failed(fd, &e));
	}
	/* step 2: the recorder failed, was dropped, and is said with its reason */
	ck_assert_int_eq(rec.frames, 3);
	ck_assert(!feed_recording(fd));
	ck_assert_int_eq(feed_step(fd, &f), 0);		/* step 3: out fails with EPIPE */
	ck_assert(feed_failed(fd, &e));
	ck_assert_int_eq(e.role, FEED_RECORDER);
	ck_assert_int_eq(e.rc, -ENOSPC);
	ck_assert_str_eq(e.msg, "rec broke");
	ck_assert(feed_failed(fd, &e));
	ck_assert_int_eq(e.role, FEED_OUTPUT);
	ck_assert_int_eq(e.rc, -EPIPE);
	ck_assert(!feed_failed(fd, &e));
	ck_assert_int_eq(rec.frames, 3);	/* not fed after it failed */
	ck_assert_int_eq(out.frames, 4);
	ck_assert_int_eq(last.frames, 3);	/* after a failing output: nothing that frame */
	ck_assert_int_eq(keep.frames, 4);
	ck_assert_msg(strncmp(log, "keep:0 ev0 ch0;rec:0 ev0 ch0;out:0 ev0 ch0;last:0 ev0 ch0;keep:1", 64) == 0,
		      "order: %s", log);
	/* without a write of wbtop's, others' changes stay in the frame */
	ck_assert_msg(strstr(log, "keep:2 ev0 ch2 vm.dirty_ratio;") != NULL, "%s", log);
	feed_free(fd);
	pipeline_free(p);
}
END_TEST

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

START_TEST(test_own_write_rule)
{
	char root[] = "/tmp/wbtop-feed.XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(root));
	static const char *vm[][2] = {
		{ "dirty_ratio", "20\n" }, { "dirty_background_ratio", "10\n" },
		{ "dirty_bytes", "0\n" }, { "dirty_background_bytes", "0\n" },
		{ "dirty_expire_centisecs", "3000\n" }, { "dirty_writeback_centisecs", "500\n" },
		{ "dirtytime_expire_seconds", "43200\n" },
	};
	for (size_t i = 0; i < sizeof vm / sizeof vm[0]; i++)
		write_file(root, vm[i][0], vm[i][1]);
	struct control_config cc = { .vm_dir = root, .bdi_dir = root, .dev_dir = root };
	struct control *ctl = control_new(&cc);
	ck_assert_ptr_nonnull(ctl);

	int step = 0;
	struct source src = { &script_ops, &step, "" };
	struct dip_params dp;
	detect_params_default(&dp);
	struct pipeline *p = pipeline_new(&src, &dp, PIPELINE_MARKS_JUDGED);
	struct feed *fd = feed_new(p, ctl);
	char log[4096] = "";
	struct probe rec = { "rec", log, 0, -1, 0 }, out = { "out", log, 0, -1, 0 };
	ck_assert_int_eq(feed_add(fd, sink_new(&probe_ops, &rec), FEED_RECORDER), 0);
	ck_assert_int_eq(feed_add(fd, sink_new(&probe_ops, &out), FEED_OUTPUT), 0);
	const struct frame *f;
	ck_assert_int_eq(feed_step(fd, &f), 0);
	ck_assert_int_eq(feed_step(fd, &f), 0);
	/* wbtop writes dirty_ratio 10 here: the next sample shows it */
	const struct control_ref ratio = { .index = KNOB_DIRTY_RATIO };
	ck_assert_int_eq(control_apply(ctl, &ratio, 10, NULL), 0);
	log[0] = '\0';
	ck_assert_int_eq(feed_step(fd, &f), 0);
	ck_assert_uint_eq(f->nevents, 1);
	ck_assert_str_eq(f->events[0].knob, "vm.dirty_ratio");
	ck_assert_uint_eq(f->nchanges, 1);	/* the write explains its own change */
	ck_assert_str_eq(f->changes[0].knob, "vm.dirty_background_ratio");
	/* the recorder has the event before the frame; every sink the same frame */
	ck_assert_str_eq(log, "rec:event vm.dirty_ratio=10;rec:2 ev1 ch1 vm.dirty_background_ratio;"
			      "out:2 ev1 ch1 vm.dirty_background_ratio;");
	/* handed once: the next frame carries no event */
	ck_assert_int_eq(feed_step(fd, &f), 0);
	ck_assert_uint_eq(f->nevents, 0);
	/* at the end (--restore-on-exit): events to every sink at once, one more sample to
	 * the recorder alone */
	ck_assert_int_eq(control_revert_all_why(ctl, "test"), 0);
	log[0] = '\0';
	feed_events_now(fd);
	ck_assert_str_eq(log, "rec:event vm.dirty_ratio=20;out:event vm.dirty_ratio=20;rec:4 ev0 ch0;");
	feed_free(fd);
	pipeline_free(p);
	control_free(ctl);
	char cmd[64];
	snprintf(cmd, sizeof cmd, "rm -rf %s", root);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

Suite *feed_suite(void)
{
	Suite *s = suite_create("feed");
	TCase *tc = tcase_create("feed");
	tcase_add_test(tc, test_order_and_failures);
	tcase_add_test(tc, test_own_write_rule);
	suite_add_tcase(s, tc);
	return s;
}
