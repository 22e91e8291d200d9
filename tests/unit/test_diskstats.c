/*
 * test_diskstats.c - the /proc/diskstats parser: every kernel's line
 * format, garbage lines, order, growth past the initial capacity.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diskstats.h"

static size_t parse(struct snapshot *s, const char *text)
{
	size_t bad = 0;
	ck_assert_int_eq(diskstats_parse(text, strlen(text), s, &bad), 0);
	return bad;
}

START_TEST(test_formats)
{
	struct snapshot s;
	snapshot_init(&s);
	const char *text =
		" 254       0 vda 5717 3233 522066 1887 697 1353 36408 277 0 788 2338 3698 6 79456 169 102 3\n"
		"   8       0 sda 1 2 3 4 5 6 7 8 9 10 11\n"
		"   8       1 sda1 10 20 30 40\n"
		"   8      16 sdb 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n";
	ck_assert_uint_eq(parse(&s, text), 0);
	ck_assert_uint_eq(s.ndev, 4);
	/* sorted by major:minor */
	ck_assert_str_eq(s.dev[0].name, "sda");
	ck_assert_str_eq(s.dev[1].name, "sda1");
	ck_assert_str_eq(s.dev[2].name, "sdb");
	ck_assert_str_eq(s.dev[3].name, "vda");
	ck_assert_uint_eq(s.dev[3].nfields, 17);
	ck_assert_uint_eq(s.dev[3].f[DS_WR_SECT], 36408);
	ck_assert_uint_eq(s.dev[3].f[DS_FL_MS], 3);
	ck_assert_uint_eq(s.dev[0].nfields, 11);
	ck_assert_uint_eq(s.dev[0].f[DS_QUEUE_MS], 11);
	ck_assert_uint_eq(s.dev[0].f[DS_DC_IOS], 0);
	/* the 4-field partition format: reads, read sectors, writes, write sectors */
	ck_assert_uint_eq(s.dev[1].f[DS_RD_IOS], 10);
	ck_assert_uint_eq(s.dev[1].f[DS_RD_SECT], 20);
	ck_assert_uint_eq(s.dev[1].f[DS_WR_IOS], 30);
	ck_assert_uint_eq(s.dev[1].f[DS_WR_SECT], 40);
	ck_assert_uint_eq(s.dev[2].nfields, 15);
	ck_assert_uint_eq(s.dev[2].f[DS_DC_MS], 15);
	snapshot_free(&s);
}
END_TEST

START_TEST(test_garbage_lines_skipped)
{
	struct snapshot s;
	snapshot_init(&s);
	const char *text =
		"garbage\n"
		"\n"
		"   8 0 sda 1 2 3\n"				/* too few fields */
		"   8 0 sdx 1 2 3 4 5 6 7 8 9 10 11 zz\n"	/* junk at the end */
		"   8 0 sdy 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18\n"	/* too many */
		"   8 0 sdz 99999999999999999999999 2 3 4 5 6 7 8 9 10 11\n"	/* overflow */
		"   8 0 waytoolongname_waytoolongname_waytoolongname 1 2 3 4 5 6 7 8 9 10 11\n"
		"   7 3 loop3 0 0 0 0 0 0 0 0 0 0 0";		/* no final newline: fine */
	ck_assert_uint_eq(parse(&s, text), 6);
	ck_assert_uint_eq(s.ndev, 1);
	ck_assert_str_eq(s.dev[0].name, "loop3");
	snapshot_free(&s);
}
END_TEST

START_TEST(test_twenty_digits)
{
	struct snapshot s;
	snapshot_init(&s);
	ck_assert_uint_eq(parse(&s, "8 0 sda 18446744073709551615 2 3 4 5 6 7 8 9 10 11\n"
				    "8 1 sda1 18446744073709551616 2 3 4 5 6 7 8 9 10 11\n"
				    "8 2 sda2 118446744073709551615 2 3 4 5 6 7 8 9 10 11\n"), 2);
	ck_assert_uint_eq(s.ndev, 1);
	ck_assert_uint_eq(s.dev[0].f[DS_RD_IOS], UINT64_MAX);
	snapshot_free(&s);
}
END_TEST

/* Every length of number, at every alignment against the end of the text:
 * the 8-digits-at-a-time path and the byte-by-byte tail agree. */
START_TEST(test_every_length)
{
	struct snapshot s;
	snapshot_init(&s);
	uint64_t want = 0;
	for (int digits = 1; digits <= 19; digits++) {
		want = want * 10 + (uint64_t)(digits % 10);
		for (int pad = 0; pad < 9; pad++) {
			char text[256];
			int len = snprintf(text, sizeof text, "8 0 sda %llu 1 2 3 4 5 6 7 8 9 %llu%*s",
					   (unsigned long long)want, (unsigned long long)want, pad, "");
			ck_assert_int_eq(diskstats_parse(text, (size_t)len, &s, NULL), 0);
			ck_assert_uint_eq(s.ndev, 1);
			ck_assert_uint_eq(s.dev[0].f[DS_RD_IOS], want);
			ck_assert_uint_eq(s.dev[0].f[DS_QUEUE_MS], want);
			ck_assert_uint_eq(s.dev[0].f[DS_WR_IOS], 4);
		}
	}
	snapshot_free(&s);
}
END_TEST

START_TEST(test_many_devices_and_reuse)
{
	struct snapshot s;
	snapshot_init(&s);
	size_t n = 5000, cap = n * 80;
	char *text = malloc(cap), *p = text;
	/* written in reverse order: the parser must sort */
	for (size_t i = n; i-- > 0;)
		p += sprintf(p, "7 %zu loop%zu %zu 0 0 0 %zu 0 0 0 0 0 0\n", i, i, i, 2 * i);
	ck_assert_int_eq(diskstats_parse(text, (size_t)(p - text), &s, NULL), 0);
	ck_assert_uint_eq(s.ndev, n);
	for (size_t i = 0; i < n; i++) {
		ck_assert_uint_eq(s.dev[i].minor, i);
		ck_assert_uint_eq(s.dev[i].f[DS_WR_IOS], 2 * i);
	}
	const struct dev_counters *d = snapshot_find_dev(&s, 7, 4321);
	ck_assert_ptr_nonnull(d);
	ck_assert_str_eq(d->name, "loop4321");
	ck_assert_ptr_null(snapshot_find_dev(&s, 8, 0));
	/* a shorter second parse reuses the array */
	struct dev_counters *before = s.dev;
	parse(&s, "8 0 sda 1 2 3 4 5 6 7 8 9 10 11\n");
	ck_assert_uint_eq(s.ndev, 1);
	ck_assert_ptr_eq(s.dev, before);
	free(text);
	snapshot_free(&s);
}
END_TEST

START_TEST(test_copy)
{
	struct snapshot a, b;
	snapshot_init(&a);
	snapshot_init(&b);
	parse(&a, "8 0 sda 1 2 3 4 5 6 7 8 9 10 11\n8 16 sdb 1 2 3 4 5 6 7 8 9 10 11\n");
	a.sys.ctxt = 42;
	ck_assert_int_eq(snapshot_copy(&b, &a), 0);
	ck_assert_uint_eq(b.ndev, 2);
	ck_assert_ptr_ne(b.dev, a.dev);
	ck_assert_str_eq(b.dev[1].name, "sdb");
	ck_assert_uint_eq(b.sys.ctxt, 42);
	snapshot_free(&a);
	snapshot_free(&b);
}
END_TEST

Suite *diskstats_suite(void)
{
	Suite *s = suite_create("diskstats");
	TCase *tc = tcase_create("parse");
	tcase_add_test(tc, test_formats);
	tcase_add_test(tc, test_garbage_lines_skipped);
	tcase_add_test(tc, test_twenty_digits);
	tcase_add_test(tc, test_every_length);
	tcase_add_test(tc, test_many_devices_and_reuse);
	tcase_add_test(tc, test_copy);
	suite_add_tcase(s, tc);
	return s;
}
