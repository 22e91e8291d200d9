/*
 * test_snapring.c - the ring of raw snapshots behind "save history": the
 * newest samples kept in order, the memory cap, identities that outlive
 * the source's, marks kept with their sample.
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/ident.h"
#include "sink/snapring.h"

/* s filled again (its arrays reused, as a source does) with ndev devices (minor = index), at
 * wall_ns = t. */
static void fill_snap(struct snapshot *s, size_t ndev, int64_t t)
{
	ck_assert_int_eq(snapshot_reserve(s, ndev), 0);
	s->ndev = ndev;
	s->wall_ns = t;
	s->mono_ns = (uint64_t)t;
	s->sys.pgpgout_kb = (uint64_t)t * 100;
	s->knob[0] = 20;
	for (size_t i = 0; i < ndev; i++) {
		memset(&s->dev[i], 0, sizeof s->dev[i]);
		s->dev[i].major = 8;
		s->dev[i].minor = (uint32_t)i;
		s->dev[i].nfields = 17;
		s->dev[i].f[DS_WR_SECT] = (uint64_t)t * 1000 + i;
	}
}

/* A snapshot of ndev devices (minor = index), at wall_ns = t. */
static void make_snap(struct snapshot *s, size_t ndev, int64_t t)
{
	snapshot_init(s);
	fill_snap(s, ndev, t);
}

/* The ring holds the last n of pushes samples of ndev devices, oldest first, as fill_snap
 * made them. */
static void check_kept(struct snapring *r, size_t n, size_t pushes, size_t ndev)
{
	struct rec_sample v[16];
	ck_assert_uint_eq(snapring_samples(r, v), n);
	for (size_t i = 0; i < n; i++) {
		int64_t t = (int64_t)(pushes - n + 1 + i);
		ck_assert_int_eq(v[i].snap->wall_ns, t);
		ck_assert_uint_eq(v[i].snap->sys.pgpgout_kb, (uint64_t)t * 100);
		ck_assert_int_eq(v[i].snap->knob[0], 20);
		ck_assert_uint_eq(v[i].snap->ndev, ndev);
		for (size_t d = 0; d < v[i].snap->ndev; d++)
			ck_assert_uint_eq(v[i].snap->dev[d].f[DS_WR_SECT], (uint64_t)t * 1000 + d);
		ck_assert_ptr_eq(snapring_get(r, n - 1 - i), v[i].snap);
	}
	ck_assert_ptr_null(snapring_get(r, n));
}

/* How many samples stay, by count and by the device-row cap. */
static const struct {
	size_t max, max_rows, ndev, pushes;
	size_t want_len;
	bool want_capped;
} keep_cases[] = {
	{ 4, 1000, 2, 0, 0, false },
	{ 4, 1000, 2, 3, 3, false },
	{ 4, 1000, 2, 6, 4, false },	/* by count: the last 4 */
	{ 1, 1000, 2, 5, 1, false },
	/* 20 devices take 20 rows a sample: 3 fit in 64 */
	{ 100, 64, 20, 5, 3, true },
	{ 100, 64, 16, 5, 4, true },	/* 16 rows each: exactly 4 */
	{ 100, 60, 20, 3, 3, false },	/* 60: exactly 3 */
	{ 100, 64, 0, 5, 5, false },	/* no devices, no rows */
	{ 3, 64, 16, 9, 3, false },	/* the count binds first */
};

START_TEST(test_keep)
{
	struct snapring *r = snapring_new(keep_cases[_i].max, keep_cases[_i].max_rows);
	ck_assert_ptr_nonnull(r);
	struct snapshot s;
	for (size_t k = 1; k <= keep_cases[_i].pushes; k++) {
		make_snap(&s, keep_cases[_i].ndev, (int64_t)k);
		ck_assert_int_eq(snapring_push(r, &(struct rec_sample){ &s, false, NULL, NULL, 0 }), 0);
		snapshot_free(&s);
	}
	size_t n = snapring_len(r);
	ck_assert_uint_eq(n, keep_cases[_i].want_len);
	ck_assert_int_eq(snapring_capped(r), keep_cases[_i].want_capped);
	/* the newest ones, oldest first, with their counters */
	check_kept(r, n, keep_cases[_i].pushes, keep_cases[_i].ndev);
	snapring_clear(r);
	ck_assert_uint_eq(snapring_len(r), 0);
	ck_assert(!snapring_capped(r));
	snapring_free(r);
}
END_TEST

/* Lent samples, as the screen's pipeline lends them: two snapshots filled in turn, each handed
 * to snapring_refill() before it is filled again.  The ring keeps the same samples as by copy,
 * without copying: a sample's devices stay where the lender filled them, and the lender fills
 * another array next time. */
START_TEST(test_keep_lent)
{
	size_t ndev = keep_cases[_i].ndev, pushes = keep_cases[_i].pushes;
	struct snapring *r = snapring_new(keep_cases[_i].max, keep_cases[_i].max_rows);
	ck_assert_ptr_nonnull(r);
	struct snapshot lender[2];
	snapshot_init(&lender[0]);
	snapshot_init(&lender[1]);
	for (size_t k = 1; k <= pushes; k++) {
		struct snapshot *s = &lender[k % 2];
		const struct dev_counters *had = s->dev;
		/* the sample two pushes back, if the ring still holds it */
		const struct snapshot *back = snapring_get(r, 1);
		bool held = k > 2 && back && back->wall_ns == (int64_t)k - 2;
		bool slack = s->cap_dev - s->ndev > s->ndev / 4;	/* the ring cuts it, may move it */
		snapring_refill(r, s);
		if (held) {
			/* the ring's now, where it was filled (no copy); the lender fills another */
			if (ndev && !slack)
				ck_assert_ptr_eq(snapring_get(r, 1)->dev, had);
			ck_assert(!ndev || s->dev != had);
			ck_assert_uint_eq(s->ndev, 0);
		} else if (k > 2) {
			ck_assert_ptr_eq(s->dev, had);	/* not the ring's: the lender keeps it */
		}
		fill_snap(s, ndev, (int64_t)k);
		ck_assert_int_eq(snapring_push_lent(r, &(struct rec_sample){ s, false, NULL, NULL, 0 }), 0);
		/* the newest is read where the lender has it */
		ck_assert_ptr_eq(snapring_get(r, 0)->dev, s->dev);
	}
	size_t n = snapring_len(r);
	ck_assert_uint_eq(n, keep_cases[_i].want_len);
	ck_assert_int_eq(snapring_capped(r), keep_cases[_i].want_capped);
	check_kept(r, n, pushes, ndev);
	/* the lenders go on: both take their samples back first, then write garbage */
	for (int j = 0; j < 2; j++) {
		snapring_refill(r, &lender[j]);
		if (lender[j].cap_dev)
			memset(lender[j].dev, 0xab, lender[j].cap_dev * sizeof *lender[j].dev);
		lender[j].ndev = lender[j].cap_dev;
	}
	ck_assert_uint_eq(snapring_len(r), n);
	check_kept(r, n, pushes, ndev);
	snapring_free(r);
	snapshot_free(&lender[0]);
	snapshot_free(&lender[1]);
}
END_TEST

/* A lent sample the ring dropped before its refill (a ring of one) is not taken: the lender
 * keeps its array.  Clearing or freeing a ring with lent samples frees nothing of the lender's
 * (ASan would see it). */
START_TEST(test_lent_dropped_and_cleared)
{
	struct snapring *r = snapring_new(1, 100);
	struct snapshot a, b;
	make_snap(&a, 3, 1);
	make_snap(&b, 3, 2);
	ck_assert_int_eq(snapring_push_lent(r, &(struct rec_sample){ &a, false, NULL, NULL, 0 }), 0);
	ck_assert_int_eq(snapring_push_lent(r, &(struct rec_sample){ &b, false, NULL, NULL, 0 }), 0);
	const struct dev_counters *had = a.dev;
	snapring_refill(r, &a);
	ck_assert_ptr_eq(a.dev, had);
	ck_assert_uint_eq(a.ndev, 3);
	ck_assert_uint_eq(snapring_len(r), 1);
	ck_assert_int_eq(snapring_get(r, 0)->wall_ns, 2);
	snapring_clear(r);
	snapring_refill(r, &b);
	ck_assert_uint_eq(b.ndev, 3);
	ck_assert_int_eq(snapring_push_lent(r, &(struct rec_sample){ &b, false, NULL, NULL, 0 }), 0);
	snapring_free(r);
	ck_assert_uint_eq(b.dev[2].f[DS_WR_SECT], 2002);
	snapshot_free(&a);
	snapshot_free(&b);
}
END_TEST

START_TEST(test_too_big_and_free_null)
{
	struct snapring *r = snapring_new(10, 8);
	struct snapshot s;
	make_snap(&s, 9, 1);
	ck_assert_int_eq(snapring_push(r, &(struct rec_sample){ &s, false, NULL, NULL, 0 }), -E2BIG);
	ck_assert_uint_eq(snapring_len(r), 0);
	snapshot_free(&s);
	make_snap(&s, 8, 2);
	ck_assert_int_eq(snapring_push(r, &(struct rec_sample){ &s, false, NULL, NULL, 0 }), 0);
	snapshot_free(&s);
	ck_assert_uint_eq(snapring_len(r), 1);
	snapring_free(r);
	snapring_free(NULL);
	ck_assert_ptr_null(snapring_new(0, 8));
}
END_TEST

/* Processes are not kept: recordings do not hold them. */
START_TEST(test_no_procs)
{
	struct snapring *r = snapring_new(4, 100);
	struct snapshot s;
	make_snap(&s, 1, 1);
	ck_assert_int_eq(snapshot_reserve_procs(&s, 3), 0);
	s.nproc = 3;
	ck_assert_int_eq(snapring_push(r, &(struct rec_sample){ &s, false, NULL, NULL, 0 }), 0);
	snapshot_free(&s);
	ck_assert_uint_eq(snapring_get(r, 0)->nproc, 0);
	snapring_free(r);
}
END_TEST

/* Marks stay with their sample; no marks given, none claimed. */
START_TEST(test_marks)
{
	struct snapring *r = snapring_new(2, 100);
	struct snapshot s;
	bool dips[3] = { false, true, false };
	make_snap(&s, 3, 1);
	ck_assert_int_eq(snapring_push(r, &(struct rec_sample){ &s, true, dips, NULL, 0 }), 0);
	dips[1] = false;	/* the caller's array is its own */
	ck_assert_int_eq(snapring_push(r, &(struct rec_sample){ &s, false, NULL, NULL, 0 }), 0);
	struct rec_sample v[2];
	ck_assert_uint_eq(snapring_samples(r, v), 2);
	ck_assert(v[0].sys_dip);
	ck_assert_ptr_nonnull(v[0].dev_dips);
	ck_assert(!v[0].dev_dips[0] && v[0].dev_dips[1] && !v[0].dev_dips[2]);
	ck_assert(!v[1].sys_dip);
	ck_assert_ptr_null(v[1].dev_dips);
	snapshot_free(&s);
	snapring_free(r);
}
END_TEST

static struct dev_ident *ident_make(uint32_t minor, const char *kname, const char *key)
{
	struct dev_ident *id = calloc(1, sizeof *id);
	id->major = 8;
	id->minor = minor;
	id->kname = strdup(kname);
	id->key = strdup(key);
	id->mounts = strdup("/mnt/x");
	id->rotational = -1;
	return id;
}

static void ident_drop(struct dev_ident *id)
{
	/* scribble first: a ring that kept the pointer would read garbage */
	memset(id->kname, 'X', strlen(id->kname));
	memset(id->key, 'X', strlen(id->key));
	free(id->kname);
	free(id->key);
	free(id->mounts);
	free(id);
}

/* An identity remade in place (ident.c reuses a slot when a minor names another device)
 * comes with a new key serial: the ring makes a new copy, and keeps the old one for the
 * samples before; the same serial at the same place is the same copy. */
START_TEST(test_identity_serial)
{
	struct snapring *r = snapring_new(8, 100);
	struct snapshot s;
	make_snap(&s, 1, 1);
	struct dev_ident *a = ident_make(0, "sda", "wwid:aaa");
	a->key_serial = 11;
	s.dev[0].ident = a;
	ck_assert_int_eq(snapring_push(r, &(struct rec_sample){ &s, false, NULL, NULL, 0 }), 0);
	const struct dev_ident *ca = snapring_get(r, 0)->dev[0].ident;
	ck_assert_int_eq(snapring_push(r, &(struct rec_sample){ &s, false, NULL, NULL, 0 }), 0);
	ck_assert_ptr_eq(snapring_get(r, 0)->dev[0].ident, ca);
	free(a->kname);
	free(a->key);
	a->kname = strdup("sdc");
	a->key = strdup("wwid:ccc");
	a->key_serial = 12;
	ck_assert_int_eq(snapring_push(r, &(struct rec_sample){ &s, false, NULL, NULL, 0 }), 0);
	const struct dev_ident *cc = snapring_get(r, 0)->dev[0].ident;
	ck_assert_ptr_ne(cc, ca);
	ck_assert_str_eq(cc->kname, "sdc");
	ck_assert_str_eq(cc->key, "wwid:ccc");
	ck_assert_str_eq(snapring_get(r, 1)->dev[0].ident->kname, "sda");
	ident_drop(a);
	snapshot_free(&s);
	snapring_free(r);
}
END_TEST

/* The source frees a vanished device's identity; the ring's copy lives
 * on.  The same device keeps one copy; a reused minor gets a new one. */
START_TEST(test_identity)
{
	struct snapring *r = snapring_new(8, 100);
	struct snapshot s;
	make_snap(&s, 2, 1);
	struct dev_ident *a = ident_make(0, "sda", "wwid:aaa"), *b = ident_make(1, "sdb", "wwid:bbb");
	s.dev[0].ident = a;
	s.dev[1].ident = b;
	ck_assert_int_eq(snapring_push(r, &(struct rec_sample){ &s, false, NULL, NULL, 0 }), 0);
	const struct dev_ident *ca = snapring_get(r, 0)->dev[0].ident;
	ck_assert_ptr_nonnull(ca);
	ck_assert_ptr_ne(ca, a);
	/* the next sample, same devices: the same copies */
	s.wall_ns = 2;
	ck_assert_int_eq(snapring_push(r, &(struct rec_sample){ &s, false, NULL, NULL, 0 }), 0);
	ck_assert_ptr_eq(snapring_get(r, 0)->dev[0].ident, ca);
	/* sda is gone and its identity freed; 8:0 now names another disk */
	ident_drop(a);
	struct dev_ident *c = ident_make(0, "sdc", "wwid:ccc");
	s.dev[0].ident = c;
	s.wall_ns = 3;
	ck_assert_int_eq(snapring_push(r, &(struct rec_sample){ &s, false, NULL, NULL, 0 }), 0);
	const struct dev_ident *cc = snapring_get(r, 0)->dev[0].ident;
	ck_assert_ptr_ne(cc, ca);
	ck_assert_str_eq(cc->key, "wwid:ccc");
	ck_assert_str_eq(snapring_get(r, 1)->dev[0].ident->key, "wwid:aaa");
	ck_assert_str_eq(snapring_get(r, 2)->dev[0].ident->kname, "sda");
	ck_assert_str_eq(snapring_get(r, 2)->dev[0].ident->mounts, "/mnt/x");
	ck_assert_str_eq(snapring_get(r, 0)->dev[1].ident->key, "wwid:bbb");
	/* a device without identity stays without */
	s.dev[1].ident = NULL;
	ck_assert_int_eq(snapring_push(r, &(struct rec_sample){ &s, false, NULL, NULL, 0 }), 0);
	ck_assert_ptr_null(snapring_get(r, 0)->dev[1].ident);
	ident_drop(b);
	ident_drop(c);
	snapshot_free(&s);
	snapring_free(r);
}
END_TEST

/* A lent sample's identities are the ring's copies once the lender refills: the source may
 * free its own after that. */
START_TEST(test_identity_lent)
{
	struct snapring *r = snapring_new(8, 100);
	struct snapshot lender;
	make_snap(&lender, 2, 1);
	struct dev_ident *a = ident_make(0, "sda", "wwid:aaa"), *b = ident_make(1, "sdb", "wwid:bbb");
	lender.dev[0].ident = a;
	lender.dev[1].ident = b;
	ck_assert_int_eq(snapring_push_lent(r, &(struct rec_sample){ &lender, false, NULL, NULL, 0 }), 0);
	ck_assert_ptr_eq(snapring_get(r, 0)->dev[0].ident, a);	/* the lender's, while lent */
	snapring_refill(r, &lender);
	ident_drop(a);
	ident_drop(b);
	const struct dev_ident *ca = snapring_get(r, 0)->dev[0].ident;
	ck_assert_str_eq(ca->kname, "sda");
	ck_assert_str_eq(ca->key, "wwid:aaa");
	ck_assert_str_eq(snapring_get(r, 0)->dev[1].ident->mounts, "/mnt/x");
	/* the same device again: the same copy */
	struct dev_ident *a2 = ident_make(0, "sda", "wwid:aaa");
	fill_snap(&lender, 1, 2);
	lender.dev[0].ident = a2;
	ck_assert_int_eq(snapring_push_lent(r, &(struct rec_sample){ &lender, false, NULL, NULL, 0 }), 0);
	snapring_refill(r, &lender);
	ck_assert_ptr_eq(snapring_get(r, 0)->dev[0].ident, ca);
	ident_drop(a2);
	snapshot_free(&lender);
	snapring_free(r);
}
END_TEST

#define NCASES(a) ((int)(sizeof(a) / sizeof((a)[0])))

Suite *snapring_suite(void)
{
	Suite *s = suite_create("snapring");
	TCase *tc = tcase_create("core");
	tcase_add_loop_test(tc, test_keep, 0, NCASES(keep_cases));
	tcase_add_loop_test(tc, test_keep_lent, 0, NCASES(keep_cases));
	tcase_add_test(tc, test_lent_dropped_and_cleared);
	tcase_add_test(tc, test_identity_lent);
	tcase_add_test(tc, test_too_big_and_free_null);
	tcase_add_test(tc, test_no_procs);
	tcase_add_test(tc, test_marks);
	tcase_add_test(tc, test_identity);
	tcase_add_test(tc, test_identity_serial);
	suite_add_tcase(s, tc);
	return s;
}
