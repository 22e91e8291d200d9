/*
 * test_pipeline_causes.c - every mark a pipeline makes carries its cause, judged in the
 * pipeline from the interval's evidence against the device's usual figures (so that every
 * sink shows the same one): a writer that stops is "writers stopped", a device whose queue
 * fills and whose await climbs is "device slowed"; a source's recorded causes are taken as
 * they are, and a source with marks but no causes (an older recording) gets them judged; a
 * knob change that holds a buffered writer's writeback back is the cause while it does.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/cause.h"
#include "core/pipeline.h"
#include "script_source.h"

enum { CNDEV = 6, CSTEPS = 16, CEVENT = 12 };	/* the devices, the steps, the step that dips */

struct cscript {
	int step;
	bool with_marks, with_causes;	/* recorded marks (device 4), with or without causes */
};

/* One device's counters after step k: 100 writes of 100 KiB each a second, 1 ms each; at
 * CEVENT device 1 stops and device 2 halves with 40 ms a write and a full queue. */
static void cscript_dev(struct dev_counters *d, uint32_t i, int k)
{
	script_dev(d, i);
	uint64_t ios = 0, ms = 0;
	for (int j = 1; j <= k; j++) {
		bool ev = j == CEVENT;
		uint64_t n = ev && i == 1 ? 0 : ev && i == 2 ? 50 : 100;
		ios += n;
		ms += ev && i == 2 ? n * 40 : n;
	}
	d->f[DS_WR_IOS] = ios;
	d->f[DS_WR_SECT] = ios * 200;
	d->f[DS_WR_MS] = ms;
	d->f[DS_QUEUE_MS] = ms;
	d->f[DS_IO_MS] = ms;
}

static int cscript_next(struct source *src, struct snapshot *out)
{
	struct cscript *sc = src->impl;
	int k = sc->step++;
	if (k >= CSTEPS)
		return 1;
	if (script_snapshot(out, CNDEV, k) < 0)
		return -ENOMEM;
	for (uint32_t i = 0; i < CNDEV; i++)
		cscript_dev(&out->dev[i], i, k);
	return 0;
}

static bool cs_dips[CNDEV];
static uint8_t cs_causes[CNDEV];

/* Recorded: device 4 marked at step CEVENT with the cause "flushes" (when causes are kept). */
static int cscript_marks(struct source *src, struct source_marks *out)
{
	struct cscript *sc = src->impl;
	memset(out, 0, sizeof *out);
	memset(cs_dips, 0, sizeof cs_dips);
	memset(cs_causes, 0, sizeof cs_causes);
	/* step counts the samples delivered: the one at index CEVENT is the (CEVENT + 1)-th */
	cs_dips[4] = sc->step == CEVENT + 1;
	cs_causes[4] = DIP_CAUSE_FLUSH;
	out->dev_dips = cs_dips;
	out->dev_causes = sc->with_causes ? cs_causes : NULL;
	return 0;
}

static const struct source_ops cscript_ops = { .kind = "script", .next = cscript_next,
					       .close = script_source_close };
static const struct source_ops cscript_marked_ops = { .kind = "marked", .next = cscript_next,
						      .close = script_source_close, .marks = cscript_marks };

/* Step a pipeline on sc to the end; the frame of step CEVENT into what the caller keeps. */
static void run_to_event(struct pipeline *p, bool dips[CNDEV], uint8_t causes[CNDEV])
{
	const struct frame *f;
	for (int k = 0; k < CSTEPS; k++) {
		ck_assert_int_eq(pipeline_step(p, &f), 0);
		ck_assert_ptr_nonnull(f->dev_cause);
		if (k == CEVENT) {
			memcpy(dips, f->dev_dip, CNDEV * sizeof *dips);
			memcpy(causes, f->dev_cause, CNDEV * sizeof *causes);
		} else if (k > 4 && k < CEVENT) {
			for (int i = 0; i < CNDEV; i++)
				ck_assert_msg(!f->dev_dip[i], "step %d: device %d marked", k, i);
		}
	}
}

START_TEST(test_judged_causes)
{
	struct dip_params dp;
	detect_params_default(&dp);
	struct cscript sc = { 0, false, false };
	struct source src = { &cscript_ops, &sc, "" };
	struct pipeline *p = pipeline_new(&src, &dp, PIPELINE_MARKS_RECORDED);
	ck_assert_ptr_nonnull(p);
	bool dips[CNDEV];
	uint8_t causes[CNDEV];
	run_to_event(p, dips, causes);
	ck_assert(dips[1] && dips[2] && !dips[0] && !dips[3]);
	ck_assert_str_eq(cause_name(causes[1]), "writers stopped");
	ck_assert_str_eq(cause_name(causes[2]), "device slowed");
	pipeline_free(p);
}
END_TEST

START_TEST(test_recorded_causes)
{
	struct dip_params dp;
	detect_params_default(&dp);
	bool dips[CNDEV];
	uint8_t causes[CNDEV];
	/* kept as recorded: device 4's mark and its cause, though its figures say nothing */
	struct cscript kept = { 0, true, true };
	struct source a = { &cscript_marked_ops, &kept, "" };
	struct pipeline *p = pipeline_new(&a, &dp, PIPELINE_MARKS_RECORDED);
	run_to_event(p, dips, causes);
	ck_assert(dips[4] && !dips[1]);
	ck_assert_str_eq(cause_name(causes[4]), "flushes");
	pipeline_free(p);
	/* recorded marks without causes: judged from the figures, which show nothing unusual */
	struct cscript bare = { 0, true, false };
	struct source b = { &cscript_marked_ops, &bare, "" };
	p = pipeline_new(&b, &dp, PIPELINE_MARKS_RECORDED);
	run_to_event(p, dips, causes);
	ck_assert(dips[4]);
	ck_assert_str_eq(cause_name(causes[4]), "unknown");
	pipeline_free(p);
	/* --dip given: the detector's marks, and causes judged for them */
	struct cscript judged = { 0, true, true };
	struct source c = { &cscript_marked_ops, &judged, "" };
	p = pipeline_new(&c, &dp, PIPELINE_MARKS_JUDGED);
	run_to_event(p, dips, causes);
	ck_assert(dips[1] && !dips[4]);
	ck_assert_str_eq(cause_name(causes[1]), "writers stopped");
	pipeline_free(p);
}
END_TEST

/* A knob change that stops a buffered writer's writeback: three devices writing 32 MiB/s in
 * 1 MiB requests, device 0's pages dirtied at that rate (when kscript.dirtied: the kernel
 * loop's BdiDirtied; else none, a direct-I/O writer); at step KEVENT a dirty knob changes and
 * device 0 writes nothing for 4 steps while its writer goes on dirtying. */
enum { KNDEV = 3, KSTEPS = 24, KEVENT = 14, KHELD = 4 };

struct kscript {
	int step;
	bool dirtied;
};

static int kscript_next(struct source *src, struct snapshot *out)
{
	struct kscript *sc = src->impl;
	int k = sc->step++;
	if (k >= KSTEPS)
		return 1;
	if (script_snapshot(out, KNDEV, k) < 0)
		return -ENOMEM;
	for (int j = 0; j < SNAP_NKNOBS; j++)
		out->knob[j] = k >= KEVENT && j == 1 ? 2048 : 64;
	for (uint32_t i = 0; i < KNDEV; i++) {
		struct dev_counters *d = &out->dev[i];
		script_dev(d, i);
		uint64_t ios = 0;
		for (int j = 1; j <= k; j++)
			ios += i == 0 && j >= KEVENT && j < KEVENT + KHELD ? 0 : 32;
		d->f[DS_WR_IOS] = ios;
		d->f[DS_WR_SECT] = ios * 2048;
		d->f[DS_WR_MS] = d->f[DS_QUEUE_MS] = d->f[DS_IO_MS] = ios;
	}
	if (sc->dirtied &&
	    snapshot_add_x(out, SNAP_XDEV, SNAP_XDEV_WB_DIRTIED_KB, snapshot_xobj_dev(7, 0),
			   (uint64_t)k * 32768u) < 0)
		return -ENOMEM;
	return 0;
}

static const struct source_ops kscript_ops = { .kind = "script", .next = kscript_next,
					       .close = script_source_close };

/* Device 0's causes at the steps it is held back; each step marked. */
static void run_knob(bool dirtied, uint8_t causes[KHELD])
{
	struct dip_params dp;
	detect_params_default(&dp);
	struct kscript sc = { 0, dirtied };
	struct source src = { &kscript_ops, &sc, "" };
	struct pipeline *p = pipeline_new(&src, &dp, PIPELINE_MARKS_RECORDED);
	ck_assert_ptr_nonnull(p);
	const struct frame *f;
	for (int k = 0; k < KSTEPS; k++) {
		ck_assert_int_eq(pipeline_step(p, &f), 0);
		if (k < KEVENT || k >= KEVENT + KHELD)
			continue;
		ck_assert_msg(f->dev_dip[0], "step %d: device 0 not marked", k);
		causes[k - KEVENT] = f->dev_cause[0];
	}
	pipeline_free(p);
}

/* The knob's dip is the knob's for as long as it holds the writeback back, not only in the
 * change's interval and the next (the writer did not stop: it dirtied pages all along); a
 * direct-I/O writer's stop after that is "writers stopped", the knob holding none of its
 * pages. */
START_TEST(test_knob_held)
{
	uint8_t causes[KHELD];
	run_knob(true, causes);
	for (int k = 0; k < KHELD; k++)
		ck_assert_msg(causes[k] == DIP_CAUSE_KNOB, "held step %d: %s", k,
			      cause_name(causes[k]));
	run_knob(false, causes);
	ck_assert_str_eq(cause_name(causes[0]), "knob change");
	ck_assert_str_eq(cause_name(causes[1]), "knob change");
	ck_assert_str_eq(cause_name(causes[2]), "writers stopped");
	ck_assert_str_eq(cause_name(causes[3]), "writers stopped");
}
END_TEST

/* A name read back from a recording is the cause it was written for; a name this build does
 * not know is "unknown". */
START_TEST(test_cause_names_round_trip)
{
	for (unsigned c = 0; c < DIP_NCAUSES; c++)
		ck_assert_uint_eq(cause_by_name(cause_name((enum dip_cause)c)), c);
	ck_assert_uint_eq(cause_by_name("a cause from the future"), DIP_CAUSE_UNKNOWN);
	ck_assert_uint_eq(cause_by_name(NULL), DIP_CAUSE_UNKNOWN);
}
END_TEST

/* Devices that come and go: slots of a churning set (7:s), some there from the start, some
 * joining in the middle of the order from a later step, some leaving for a while and coming
 * back (with their usual figures learnt anew), now and then one whose counters reset; each
 * writing at its own rate with noise, now and then stopping, slowing (a full queue, a long
 * await) or flushing; a third of them with their pages dirtied beside the diskstats block;
 * some with their tasks' pauses at the dirty limit; a knob change, a failed step and a
 * restart on the way. */
enum { CH_SLOTS = 64, CH_STEPS = 420, CH_FAIL = 211, CH_RESTART = 300 };

struct chscript {
	int step, k;		/* calls, and the samples delivered */
	uint64_t rng;
	uint64_t f[CH_SLOTS][DS_NFIELDS];
	uint64_t dirtied_kb[CH_SLOTS];
	uint64_t pauses[CH_SLOTS];
};

static uint32_t ch_rnd(struct chscript *sc)
{
	sc->rng = sc->rng * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(sc->rng >> 33);
}

static bool ch_present(unsigned s, int k)
{
	if (s % 5 == 2 && k < 40 + (int)s)
		return false;	/* joins later, in the middle of the order */
	if (s % 7 == 3 && (k / 37) % 3 == 1)
		return false;	/* away for a while */
	return !(s % 11 == 6 && k % 29 == 5);	/* missing for one step */
}

/* Slot s's counters moved on by one second's work. */
static void ch_work(struct chscript *sc, unsigned s)
{
	uint64_t *f = sc->f[s];
	uint32_t ev = ch_rnd(sc) % 100;
	uint64_t n = 40 + 3 * s + ch_rnd(sc) % (4 + s / 4), lat = 1 + s % 3, q = n * lat;
	uint64_t fl = ch_rnd(sc) % 3, fl_ms = fl;
	if (ev < 3) {
		n = q = 0;	/* stopped */
	} else if (ev < 6) {
		n /= 2;	/* slowed */
		lat = 40;
		q = n * lat * 3;
	} else if (ev < 8) {
		n = n * 7 / 10;	/* flushes */
		fl = 30;
		fl_ms = 900;
	}
	f[DS_WR_IOS] += n;
	f[DS_WR_SECT] += n * (ev == 9 ? 100 : 200);
	f[DS_WR_MS] += n * lat;
	f[DS_QUEUE_MS] += q;
	f[DS_IO_MS] += n ? 900 : 0;
	f[DS_FL_IOS] += fl;
	f[DS_FL_MS] += fl_ms;
	f[DS_RD_IOS] += ch_rnd(sc) % 5;
	sc->dirtied_kb[s] += ev < 3 && s % 2 ? 0 : 100 * (40 + 3 * s);
	sc->pauses[s] += ev < 6 && s % 8 == 1;
	if (ch_rnd(sc) % 400 == 0)
		memset(f, 0, DS_NFIELDS * sizeof *f);	/* a reset */
}

static int chscript_next(struct source *src, struct snapshot *out)
{
	struct chscript *sc = src->impl;
	if (sc->step++ == CH_FAIL)
		return -EIO;
	int k = sc->k++;
	if (k >= CH_STEPS)
		return 1;
	if (script_snapshot(out, CH_SLOTS, k) < 0)
		return -ENOMEM;
	out->nx = 0;
	for (int j = 0; j < SNAP_NKNOBS; j++)
		out->knob[j] = j == 1 && k >= 120 && k < 250 ? 4096 : 64;
	size_t n = 0;
	for (unsigned s = 0; s < CH_SLOTS; s++) {
		ch_work(sc, s);
		if (!ch_present(s, k))
			continue;
		struct dev_counters *d = &out->dev[n++];
		script_dev(d, s);
		memcpy(d->f, sc->f[s], sizeof d->f);
		if (s % 3 == 0 && k % 53 != 7 &&
		    snapshot_add_x(out, SNAP_XDEV, SNAP_XDEV_WB_DIRTIED_KB, snapshot_xobj_dev(7, s),
				   sc->dirtied_kb[s]) < 0)
			return -ENOMEM;
		if (s % 9 == 0 &&
		    snapshot_add_x(out, SNAP_XDEV, SNAP_XDEV_WB_WRITTEN_KB, snapshot_xobj_dev(7, s),
				   sc->f[s][DS_WR_SECT] / 2) < 0)
			return -ENOMEM;
		if (s % 8 == 1 &&
		    snapshot_add_x(out, SNAP_XDEV, SNAP_XDEV_PAUSES, snapshot_xobj_dev(7, s),
				   sc->pauses[s]) < 0)
			return -ENOMEM;
	}
	out->ndev = n;
	snapshot_sort_x(out);
	return 0;
}

static const struct source_ops chscript_ops = { .kind = "script", .next = chscript_next,
						.close = script_source_close };

/* The causes of a churning run, hashed: taken before the learning of the usual figures was
 * made cheaper (kept in place while the devices stay where they were, the pages dirtied found
 * by a walk beside the devices); a speed-up must not change a cause. */
START_TEST(test_causes_with_churn_unchanged)
{
	struct dip_params dp;
	detect_params_default(&dp);
	static struct chscript sc;
	memset(&sc, 0, sizeof sc);
	sc.rng = 2024;
	struct source src = { &chscript_ops, &sc, "" };
	struct pipeline *p = pipeline_new(&src, &dp, PIPELINE_MARKS_RECORDED);
	ck_assert_ptr_nonnull(p);
	uint64_t h = 1469598103934665603ull;
	unsigned by_cause[DIP_NCAUSES] = { 0 }, steps = 0;
	const struct frame *f;
	int rc;
	while ((rc = pipeline_step(p, &f)) <= 0) {
		if (rc < 0)
			continue;	/* the failed step */
		for (size_t i = 0; i < f->cur->ndev; i++) {
			unsigned c = f->dev_dip[i] ? 1u + f->dev_cause[i] : 0;
			h = (h ^ (f->cur->dev[i].minor << 8 | c)) * 1099511628211ull;
			if (c)
				by_cause[c - 1]++;
		}
		if (++steps == CH_RESTART)
			pipeline_restart(p);
	}
	ck_assert_uint_eq(steps, CH_STEPS);
	/* marks of every cause the script makes, each judged against the usual figures */
	static const unsigned want[DIP_NCAUSES] = {
		[DIP_CAUSE_UNKNOWN] = 233, [DIP_CAUSE_KNOB] = 24, [DIP_CAUSE_THROTTLED] = 178,
		[DIP_CAUSE_STOPPED] = 522, [DIP_CAUSE_FLUSH] = 462, [DIP_CAUSE_SLOWED] = 586,
		[DIP_CAUSE_WRITERS_SLOWED] = 121,
	};
	char got[256] = "";
	bool same = true;
	for (unsigned c = 0; c < DIP_NCAUSES; c++) {
		size_t at = strlen(got);
		snprintf(got + at, sizeof got - at, "%s%u", c ? "," : "", by_cause[c]);
		same &= by_cause[c] == want[c];
	}
	ck_assert_msg(same, "marks by cause: %s", got);
	ck_assert_msg(h == 0x9091a5edc84405fcull, "hash 0x%llx", (unsigned long long)h);
	pipeline_free(p);
}
END_TEST

Suite *pipeline_causes_suite(void)
{
	Suite *s = suite_create("pipeline_causes");
	TCase *tc = tcase_create("causes");
	tcase_add_test(tc, test_judged_causes);
	tcase_add_test(tc, test_recorded_causes);
	tcase_add_test(tc, test_cause_names_round_trip);
	tcase_add_test(tc, test_knob_held);
	tcase_add_test(tc, test_causes_with_churn_unchanged);
	suite_add_tcase(s, tc);
	return s;
}
