/*
 * test_compare.c - recordings compared: two runs of one device with the
 * figures worked out by hand (steady and with a slow interval, dips), devices
 * matched by key, by mount point and by label when the keys differ, two
 * sets of runs case by case with the TOTAL line, one-sided cases and a
 * group pattern, the JSON of both, lines cut to --width, a case name
 * stored in the recording, and a missing file named in the error.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/compare.h"
#include "core/ident.h"
#include "rec/rec.h"
#include "rec/series.h"

static char cmp_dir[64];

static char *cmp_path(const char *name)
{
	if (!cmp_dir[0]) {
		snprintf(cmp_dir, sizeof cmp_dir, "/tmp/wbtop-cmp-XXXXXX");
		ck_assert_ptr_nonnull(mkdtemp(cmp_dir));
	}
	char *p;
	ck_assert_int_ge(asprintf(&p, "%s/%s", cmp_dir, name), 0);
	unlink(p);
	return p;
}

/* One device "sdz" (identity key, mounts and label as given, NULL for
 * none) writing kib[i] KiB/s in interval i (1 s each, nint of them),
 * vmstat bo the same; dips[i] marks an interval. */
struct cmp_run {
	const char *key, *mounts, *label, *case_name;
	int nint;
	unsigned kib[12];
	bool dips[12];
};

static void cmp_write(const char *path, const struct cmp_run *run)
{
	char err[256];
	struct rec_writer *w = rec_writer_open(path, err, sizeof err);
	ck_assert_msg(w != NULL, "%s", err);
	if (run->case_name)
		ck_assert_int_eq(rec_writer_set_meta(w, "case", run->case_name), 0);
	struct dev_ident id = { .major = 8, .kname = (char *)"sdz", .key = (char *)run->key,
				.label_short = (char *)"sdz", .mounts = (char *)run->mounts,
				.fs_label = (char *)run->label, .rotational = -1 };
	struct snapshot s;
	snapshot_init(&s);
	snapshot_reserve(&s, 1);
	s.ndev = 1;
	memset(&s.dev[0], 0, sizeof s.dev[0]);
	s.dev[0].major = 8;
	snprintf(s.dev[0].name, sizeof s.dev[0].name, "sdz");
	s.dev[0].nfields = 17;
	s.dev[0].ident = run->key ? &id : NULL;
	s.page_size = 4096;
	for (int k = 0; k < SNAP_NKNOBS; k++)
		s.knob[k] = 10 + k;
	uint64_t kb = 0;
	for (int n = 0; n <= run->nint; n++) {
		if (n > 0)
			kb += run->kib[n - 1];
		s.mono_ns = (uint64_t)n * 1000000000;
		s.wall_ns = 1714550400000000000LL + (int64_t)s.mono_ns;
		s.dev[0].f[DS_WR_SECT] = kb * 2;
		s.sys.pgpgout_kb = kb;
		bool dip = n > 0 && run->dips[n - 1];
		ck_assert_int_eq(rec_writer_append(w, &s, dip, &dip), 0);
	}
	ck_assert_int_eq(rec_writer_close(w, err, sizeof err), 0);
	snapshot_free(&s);
}

static char *cmp_text(const char *const *a, size_t na, const char *const *b, size_t nb,
		      const struct compare_opts *o, int *rc, char *err, size_t errlen)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	*rc = compare_sets_runs(a, na, b, nb, o, f, err, errlen);
	fclose(f);
	return buf;
}

#define MIB 1024u

/* A steady 100 MiB/s against 150 MiB/s with one slow interval and two dips. */
START_TEST(test_compare_pair_figures)
{
	char *a = cmp_path("a.wbrec"), *b = cmp_path("b.wbrec"), err[256] = "";
	struct cmp_run ra = { "fs:1111", "/mnt/x", NULL, NULL, 10,
			      { [0 ... 9] = 100 * MIB }, { 0 } };
	struct cmp_run rb = { "fs:1111", "/mnt/x", NULL, NULL, 10,
			      { [0 ... 9] = 150 * MIB }, { [4] = true, [5] = true } };
	rb.kib[4] = 50 * MIB;
	cmp_write(a, &ra);
	cmp_write(b, &rb);
	struct compare_opts o = { COMPARE_TEXT, 0, NULL, NULL };
	int rc;
	char *t = cmp_text((const char *const[]){ a }, 1, (const char *const[]){ b }, 1, &o, &rc, err, sizeof err);
	ck_assert_msg(rc == 0, "%s", err);
	/* b: nine intervals of 150 and one of 50: mean 140, min = p5 = 50,
	 * sd = sqrt((9 * 10^2 + 90^2) / 10) = 30, cv = 30 / 140 = 21.4%; 2 dips in 10 s */
	static const char *const want[] = {
		"sdz /mnt/x                                A            B    change\n"
		"  duration s                           10.0         10.0     +0.0%\n"
		"  intervals                              10           10     +0.0%\n"
		"  mean MB/s                          100.00       140.00    +40.0%\n"
		"  min MB/s                           100.00        50.00    -50.0%\n"
		"  p5 MB/s                            100.00        50.00    -50.0%\n"
		"  cv %                                  0.0         21.4         -\n"
		"  dips/min                             0.00        12.00         -\n",
		"TOTAL (vmstat bo)                         A            B    change\n"
		"  duration s                           10.0         10.0     +0.0%\n"
		"  intervals                              10           10     +0.0%\n"
		"  mean MB/s                          100.00       140.00    +40.0%\n",
		"  vm.dirty_ratio                        10%          10%\n",
		"A: a  ", "B: b  ",
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		ck_assert_msg(strstr(t, want[i]), "missing:\n%s\nin:\n%s", want[i], t);
	free(t);
	/* --devices: the device table keeps what it selects (by mount point here) */
	o.devices = "^/mnt/y$";
	t = cmp_text((const char *const[]){ a }, 1, (const char *const[]){ b }, 1, &o, &rc, err, sizeof err);
	ck_assert_msg(rc == 0 && !strstr(t, "\nsdz") && strstr(t, "\nTOTAL"), "%s", t);
	free(t);
	o.devices = "^sdz$|^/mnt/x$";
	t = cmp_text((const char *const[]){ a }, 1, (const char *const[]){ b }, 1, &o, &rc, err, sizeof err);
	ck_assert_msg(rc == 0 && strstr(t, "\nsdz /mnt/x  "), "%s", t);
	/* and its TOTAL is theirs, not the system's */
	ck_assert_msg(strstr(t, "TOTAL (the devices shown)                 A            B    change\n"
			     "  duration s                           10.0         10.0     +0.0%\n"
			     "  intervals                              10           10     +0.0%\n"
			     "  mean MB/s                          100.00       140.00    +40.0%\n"), "%s", t);
	free(t);
	free(a);
	free(b);
}
END_TEST

/* Fresh filesystems have new UUIDs: the same mount point, or else the same
 * label, still pairs them; different ones are one-sided. */
START_TEST(test_compare_pair_matching)
{
	static const struct { const char *key_b, *mount_b, *label_a, *label_b, *want; } cases[] = {
		{ "fs:2222", "/mnt/x", NULL, NULL, "sdz /mnt/x [same mount]" },
		{ "fs:2222", "/mnt/y", "data", "data", "sdz /mnt/x [same label]" },
		{ "fs:2222", "/mnt/y", "data", "other", "sdz /mnt/y [only in B]" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *a = cmp_path("ma.wbrec"), *b = cmp_path("mb.wbrec"), err[256] = "";
		struct cmp_run ra = { "fs:1111", "/mnt/x", cases[i].label_a, NULL, 3, { 10, 10, 10 }, { 0 } };
		struct cmp_run rb = { cases[i].key_b, cases[i].mount_b, cases[i].label_b, NULL, 3,
				      { 20, 20, 20 }, { 0 } };
		cmp_write(a, &ra);
		cmp_write(b, &rb);
		struct compare_opts o = { COMPARE_TEXT, 0, NULL, NULL };
		int rc;
		char *t = cmp_text((const char *const[]){ a }, 1, (const char *const[]){ b }, 1, &o, &rc,
				   err, sizeof err);
		ck_assert_msg(rc == 0, "%s", err);
		ck_assert_msg(strstr(t, cases[i].want), "case %zu: no \"%s\" in:\n%s", i, cases[i].want, t);
		bool paired = i < 2;
		ck_assert_msg(paired == !strstr(t, "sdz /mnt/x [only in A]"), "case %zu:\n%s", i, t);
		/* a device on one side only has no figures on the other */
		ck_assert_msg(paired == !strstr(t, "  mean MB/s                               -         0.02         -\n"), "case %zu:\n%s", i, t);
		free(t);
		free(a);
		free(b);
	}
}
END_TEST

/* Identity first; a mount point (or label) pairs devices left over only
 * where it names one on each side.  Side B pools two runs whose devices
 * have different keys and the same mount /mnt/x (as members of a stack that
 * shared a key in old recordings, or a remount): A's /mnt/x is not guessed
 * to be either of them, and all three are one-sided.  With A's key on one
 * of them, that one pairs by key and the other is left over. */
START_TEST(test_compare_pair_matching_unique)
{
	static const struct { const char *key_a, *want_paired, *want_one_sided; } cases[] = {
		{ "fs:1111", NULL, "sdz /mnt/x [only in A]" },
		{ "fs:2222", "\nsdz /mnt/x   ", "sdz /mnt/x [only in B]" },
	};
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		char *p[3] = { cmp_path("ua.wbrec"), cmp_path("ub1.wbrec"), cmp_path("ub2.wbrec") };
		char err[256] = "";
		const struct cmp_run runs[3] = {
			{ cases[c].key_a, "/mnt/x", NULL, NULL, 3, { 10, 10, 10 }, { 0 } },
			{ "fs:2222", "/mnt/x", NULL, NULL, 3, { 20, 20, 20 }, { 0 } },
			{ "fs:3333", "/mnt/x", NULL, NULL, 3, { 30, 30, 30 }, { 0 } },
		};
		struct series *sr[3];
		for (int i = 0; i < 3; i++) {
			cmp_write(p[i], &runs[i]);
			ck_assert_msg(series_load(p[i], &sr[i], err, sizeof err) == 0, "%s", err);
		}
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		struct compare_opts o = { COMPARE_TEXT, 0, NULL, NULL };
		ck_assert_int_eq(compare_print_pair(f, sr, 1, sr + 1, 2, &o), 0);
		fclose(f);
		ck_assert_msg(!strstr(buf, "[same mount]"), "case %zu:\n%s", c, buf);
		ck_assert_msg(strstr(buf, cases[c].want_one_sided), "case %zu:\n%s", c, buf);
		if (cases[c].want_paired)
			ck_assert_msg(strstr(buf, cases[c].want_paired), "case %zu:\n%s", c, buf);
		else
			ck_assert_msg(strstr(buf, "sdz /mnt/x [only in B]"), "case %zu:\n%s", c, buf);
		free(buf);
		for (int i = 0; i < 3; i++) {
			series_free(sr[i]);
			free(p[i]);
		}
	}
}
END_TEST

/* Two directories, cases by file name or by the stored case name. */
START_TEST(test_compare_sets)
{
	char *da = cmp_path("setA"), *db = cmp_path("setB"), err[256] = "";
	ck_assert_int_eq(mkdir(da, 0755), 0);
	ck_assert_int_eq(mkdir(db, 0755), 0);
	static const struct { const char *dir, *file, *case_name; unsigned mibs; } runs[] = {
		{ "setA", "ext4-1dd.wbrec", NULL, 100 }, { "setA", "xfs-1dd.wbrec", NULL, 200 },
		{ "setA", "ext4-only.wbrec", NULL, 10 },
		{ "setB", "ext4-1dd.wbrec", NULL, 110 }, { "setB", "run7.db", "xfs-1dd", 150 },
		{ "setB", "xfs-new.wbrec", NULL, 30 },
	};
	for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
		char name[128];
		snprintf(name, sizeof name, "%s/%s", runs[i].dir, runs[i].file);
		char *p = cmp_path(name);
		struct cmp_run r = { "fs:1", NULL, NULL, runs[i].case_name, 4, { [0 ... 3] = runs[i].mibs * MIB }, { 0 } };
		cmp_write(p, &r);
		free(p);
	}
	struct compare_opts o = { COMPARE_TEXT, 0, NULL, NULL };
	int rc;
	char *t = cmp_text((const char *const[]){ da }, 1, (const char *const[]){ db }, 1, &o, &rc, err, sizeof err);
	ck_assert_msg(rc == 0, "%s", err);
	static const char *const want[] = {
		"   100.00   100.00   0.0     +10.0%    110.00   110.00   0.0  ext4-1dd\n",
		"   200.00   200.00   0.0     -25.0%    150.00   150.00   0.0  xfs-1dd\n",
		"   300.00                    -13.3%    260.00                 TOTAL (sum of the means)\n",
		"only in A:     10.00    10.00   0.0  ext4-only\n",
		"only in B:     30.00    30.00   0.0  xfs-new\n",
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		ck_assert_msg(strstr(t, want[i]), "missing:\n%s\nin:\n%s", want[i], t);
	free(t);
	o.group = "^ext4";
	t = cmp_text((const char *const[]){ da }, 1, (const char *const[]){ db }, 1, &o, &rc, err, sizeof err);
	ck_assert_msg(rc == 0 && strstr(t, "ext4-1dd\n") && !strstr(t, "xfs"), "%s", t);
	ck_assert_msg(strstr(t, "   100.00                    +10.0%    110.00                 TOTAL"), "%s", t);
	free(t);
	o.group = NULL;
	o.format = COMPARE_JSON;
	t = cmp_text((const char *const[]){ da }, 1, (const char *const[]){ db }, 1, &o, &rc, err, sizeof err);
	ck_assert_msg(rc == 0, "%s", err);
	ck_assert_msg(strstr(t, "{\"case\":\"ext4-1dd\",\"runs_a\":1,\"runs_b\":1,\"stats_a\":{\"secs\":4,"
			     "\"intervals\":4,\"mean_kbps\":102400,"), "%s", t);
	ck_assert_msg(strstr(t, "\"only_a\":[\"ext4-only\"],\"only_b\":[\"xfs-new\"]}\n"), "%s", t);
	ck_assert_msg(strstr(t, "\"total\":{\"mean_kbps_a\":307200,\"mean_kbps_b\":266240,"), "%s", t);
	free(t);
	free(da);
	free(db);
}
END_TEST

START_TEST(test_compare_json_width_errors)
{
	char *a = cmp_path("ja.wbrec"), *b = cmp_path("jb.wbrec"), err[256] = "";
	struct cmp_run ra = { "fs:1", "/mnt/a-very-long-mount-point-name-for-the-width-test", NULL, "base", 2, { 10, 30 }, { 0 } };
	struct cmp_run rb = { "fs:1", "/mnt/a-very-long-mount-point-name-for-the-width-test", NULL, "new", 2, { 20, 20 }, { 0, 1 } };
	cmp_write(a, &ra);
	cmp_write(b, &rb);
	struct compare_opts o = { COMPARE_JSON, 0, NULL, NULL };
	int rc;
	char *t = cmp_text((const char *const[]){ a }, 1, (const char *const[]){ b }, 1, &o, &rc, err, sizeof err);
	ck_assert_msg(rc == 0, "%s", err);
	ck_assert_msg(strstr(t, "\"matched_by\":\"key\",\"stats_a\":{\"secs\":2,\"intervals\":2,\"mean_kbps\":20,"
			     "\"min_kbps\":10,\"p5_kbps\":10,\"cv_pct\":50,\"dips_per_min\":0,\"dips\":0}"), "%s", t);
	ck_assert_msg(strstr(t, "\"change_pct\":{\"secs\":0,\"intervals\":0,\"mean_kbps\":0,\"min_kbps\":100,"), "%s", t);
	ck_assert_msg(strstr(t, "{\"a\":{\"case\":\"base\",\"files\":[\""), "%s", t);
	free(t);
	o = (struct compare_opts){ COMPARE_TEXT, 60, NULL, NULL };
	t = cmp_text((const char *const[]){ a }, 1, (const char *const[]){ b }, 1, &o, &rc, err, sizeof err);
	ck_assert_msg(rc == 0, "%s", err);
	for (char *line = t, *nl; (nl = strchr(line, '\n')); line = nl + 1)
		ck_assert_msg(nl - line <= 60, "a line of %d columns: %.*s", (int)(nl - line), (int)(nl - line), line);
	ck_assert_ptr_nonnull(strstr(t, "A: base  "));
	free(t);
	free(cmp_text((const char *const[]){ a }, 1, (const char *const[]){ "/nonexistent.wbrec" }, 1, &o, &rc,
		      err, sizeof err));
	ck_assert_int_lt(rc, 0);
	ck_assert_msg(strstr(err, "/nonexistent.wbrec"), "%s", err);
	/* a recording of one sample has no interval: every figure unknown, no crash */
	char *one = cmp_path("one.wbrec");
	struct cmp_run r1 = { "fs:1", NULL, NULL, "one", 0, { 0 }, { 0 } };
	cmp_write(one, &r1);
	o.width = 0;
	t = cmp_text((const char *const[]){ one }, 1, (const char *const[]){ b }, 1, &o, &rc, err, sizeof err);
	ck_assert_msg(rc == 0, "%s", err);
	ck_assert_msg(strstr(t, "  mean MB/s                               -         0.02         -\n"), "%s", t);
	free(t);
	free(one);
	struct series *s;
	ck_assert_int_eq(series_load(b, &s, err, sizeof err), 0);
	ck_assert_str_eq(s->case_name, "new");
	ck_assert_uint_eq(s->total.n, 2);
	ck_assert_uint_eq(s->total.ndips, 1);
	series_free(s);
	free(a);
	free(b);
}
END_TEST

/* The end of a workload is not a dip of the run: the marks the detector gives live to an idle
 * stretch that then lasts 10 s, or reaches the end of the recording, are left out of dips/min;
 * a hole between busy intervals is counted. */
START_TEST(test_compare_end_marks_not_counted)
{
	char *a = cmp_path("ea.wbrec"), *b = cmp_path("eb.wbrec"), err[256] = "";
	/* a: a 2 s hole mid-run (counted), then the writers end: 3 idle intervals to the end,
	 * the first two marked live */
	struct cmp_run ra = { "fs:1", NULL, NULL, "a", 12,
			      { 100 * MIB, 100 * MIB, 0, 0, 100 * MIB, 100 * MIB, 100 * MIB, 100 * MIB,
				100 * MIB, 0, 0, 0 },
			      { [2] = true, [3] = true, [9] = true, [10] = true } };
	cmp_write(a, &ra);
	struct series *s;
	ck_assert_int_eq(series_load(a, &s, err, sizeof err), 0);
	const struct series_dev *d = &s->dev[0];
	ck_assert_uint_eq(d->n, 12);
	ck_assert_uint_eq(d->ndips, 2);
	ck_assert(!d->end[2] && !d->end[3] && d->end[9] && d->end[10] && !d->end[11]);
	ck_assert_uint_eq(s->total.ndips, 2);
	series_free(s);
	/* b: the idle stretch is followed by work again before 10 s: its marks count */
	struct cmp_run rb = ra;
	rb.kib[11] = 100 * MIB;
	cmp_write(b, &rb);
	ck_assert_int_eq(series_load(b, &s, err, sizeof err), 0);
	ck_assert_uint_eq(s->dev[0].ndips, 4);
	series_free(s);
	free(a);
	free(b);
}
END_TEST

/* A sweep's repeats: the runs of a side are pooled, interval by interval. */
START_TEST(test_compare_pooled_repeats)
{
	char *p[3] = { cmp_path("r1.wbrec"), cmp_path("r2.wbrec"), cmp_path("r3.wbrec") }, err[256] = "";
	static const unsigned mibs[3] = { 100, 200, 150 };
	struct series *runs[3];
	for (int i = 0; i < 3; i++) {
		struct cmp_run r = { "fs:1", NULL, NULL, i < 2 ? "vm.dirty_ratio=40" : "vm.dirty_ratio=10", 4,
				     { [0 ... 3] = mibs[i] * MIB }, { [2] = i == 1 } };
		cmp_write(p[i], &r);
		ck_assert_msg(series_load(p[i], &runs[i], err, sizeof err) == 0, "%s", err);
	}
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct compare_opts o = { COMPARE_TEXT, 0, NULL, NULL };
	ck_assert_int_eq(compare_print_pair(f, runs, 2, runs + 2, 1, &o), 0);
	fclose(f);
	/* A: 4 x 100 and 4 x 200 MiB/s over 8 s, sd 50, one dip: 7.5 a minute */
	static const char *const want[] = {
		"A: vm.dirty_ratio=40 (2 runs)  ",
		"B: vm.dirty_ratio=10  ",
		"  intervals                               8            4    -50.0%\n"
		"  mean MB/s                          150.00       150.00     +0.0%\n"
		"  min MB/s                           100.00       150.00    +50.0%\n"
		"  p5 MB/s                            100.00       150.00    +50.0%\n"
		"  cv %                                 33.3          0.0   -100.0%\n"
		"  dips/min                             7.50         0.00   -100.0%\n",
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		ck_assert_msg(strstr(buf, want[i]), "missing:\n%s\nin:\n%s", want[i], buf);
	free(buf);
	for (int i = 0; i < 3; i++) {
		series_free(runs[i]);
		free(p[i]);
	}
}
END_TEST

Suite *compare_suite(void);
Suite *compare_suite(void)
{
	Suite *s = suite_create("compare");
	TCase *c = tcase_create("core");
	tcase_set_timeout(c, 30);
	tcase_add_test(c, test_compare_pair_figures);
	tcase_add_test(c, test_compare_pair_matching);
	tcase_add_test(c, test_compare_pair_matching_unique);
	tcase_add_test(c, test_compare_sets);
	tcase_add_test(c, test_compare_json_width_errors);
	tcase_add_test(c, test_compare_pooled_repeats);
	tcase_add_test(c, test_compare_end_marks_not_counted);
	suite_add_tcase(s, c);
	return s;
}
