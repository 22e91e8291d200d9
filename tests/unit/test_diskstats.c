/*
 * test_diskstats.c - the /proc/diskstats parser: every kernel's line
 * format, garbage lines, order, growth past the initial capacity.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "source/diskstats.h"

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

/* Each fast way (SIMD where the CPU has it, and scalar) against the careful parser over the
 * same text: the same devices, fields, names (all 32 bytes: zero-padded) and count of bad
 * lines. */
static void assert_same_parse(const char *text, size_t len)
{
	static const enum diskstats_way fast_ways[] = { DISKSTATS_FASTEST, DISKSTATS_SCALAR };
	struct snapshot careful;
	snapshot_init(&careful);
	size_t bad_careful = 0;
	ck_assert_int_eq(diskstats_parse_careful(text, len, &careful, &bad_careful), 0);
	for (size_t w = 0; w < sizeof fast_ways / sizeof fast_ways[0]; w++) {
		struct snapshot fast;
		snapshot_init(&fast);
		size_t bad_fast = 0;
		ck_assert_int_eq(diskstats_parse_way(text, len, &fast, &bad_fast, fast_ways[w]), 0);
		ck_assert_uint_eq(bad_fast, bad_careful);
		ck_assert_uint_eq(fast.ndev, careful.ndev);
		for (size_t i = 0; i < fast.ndev; i++) {
			const struct dev_counters *a = &fast.dev[i], *b = &careful.dev[i];
			ck_assert_uint_eq(a->major, b->major);
			ck_assert_uint_eq(a->minor, b->minor);
			ck_assert_mem_eq(a->name, b->name, sizeof a->name);
			ck_assert_uint_eq(a->nfields, b->nfields);
			ck_assert_mem_eq(a->f, b->f, sizeof a->f);
		}
		snapshot_free(&fast);
	}
	snapshot_free(&careful);
}

/* Lines as the kernel writes them and every near miss (spacing, tabs, long
 * numbers and names, stray bytes), each far enough from the end of the
 * text for the fast path to try it: it must agree with the careful parser
 * on every one, taking it or handing it over. */
START_TEST(test_fast_path_agrees)
{
	static const char *const lines[] = {
		" 254       0 vda 5717 3233 522066 1887 697 1353 36408 277 0 788 2338 3698 6 79456 169 102 3\n",
		"   8       0 sda 1 2 3 4 5 6 7 8 9 10 11\n",
		"   8       1 sda1 10 20 30 40\n",
		"   8      16 sdb 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n",
		"8 0 sdc 1 2 3 4 5 6 7 8 9 10 11\n",
		"        8 0 sdd 1 2 3 4 5 6 7 8 9 10 11\n",		/* 8 spaces first */
		"   8         32 sde 1 2 3 4 5 6 7 8 9 10 11\n",	/* 9 before the minor */
		"   8      48 sdf  1 2 3 4 5 6 7 8 9 10 11\n",		/* two after the name */
		"   8      64 sdg 1  2 3 4 5 6 7 8 9 10 11\n",
		"   8      80 sdh 1 2 3 4 5 6 7 8 9 10 11 \n",		/* trailing space */
		"   8      96 sdi 1 2 3 4 5 6 7 8 9 10 11\r\n",
		"\t8\t112\tsdj\t1\t2\t3\t4\t5\t6\t7\t8\t9\t10\t11\n",
		"   8     128 sdk 1 2 3 4 5 6 7 8 9 10\n",		/* 10 fields */
		"   8     144 sdl 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18\n",
		"   8     160 sdm 1 2 3 4 5 6 7 8 9 10 11 x\n",
		/* the start of a line almost as the kernel prints it, "%4u %7u %s " */
		"12345  12345 sdw1 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n",	/* 5-digit major */
		"   8  1  234 sdw2 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n",	/* a space in the minor */
		" 1 8       3 sdw3 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n",	/* a space in the major */
		"   8      4  sdw4 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n",	/* the minor one left */
		"   8       5 sdw5\0011 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n",	/* no space after */
		"   8       6 \001dw6 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n",
		"   8       7 sdw7\t1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n",
		"   8 12345678 sdw8 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n",	/* 8-digit minor */
		"   8       9 1234567890123456789012345678901 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n",
		"   8      10 12345678901234567890123456789012 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n",
		/* 17 fields: the SIMD pass's near misses */
		"   8     161 sdm1 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 \n",	/* trailing space */
		"   8     162 sdm2 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\r\n",
		"   8     163 sdm3 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16  17\n",	/* empty field */
		"   8     164 sdm4 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 1\2007\n",
		"   8     165 sdm5 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 :7\n",	/* '9' + 1 */
		"   8     166 sdm6 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 /7\n",	/* '0' - 1 */
		"   8     167 sdm7 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 \n",
		"   8     168 sdm8 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n17\n",	/* one line short */
		"   8     169 sdm9 1234567890123456 1234567890123456 1234567890123456 1234567890123456 "
		"1234567890123456 1234567890123456 1234567890123456 1234567890123456 1234567890123456 "
		"1234567890123456 1234567890123456 1234567890123456 1234567890123456 1234567890123456 "
		"1234567890123456 1234567890123456 9999999999999999\n",	/* over 256 bytes of fields */
		"   8     170 sdmA 123456789012345 123456789012345 123456789012345 123456789012345 "
		"123456789012345 123456789012345 123456789012345 123456789012345 123456789012345 "
		"123456789012345 123456789012345 123456789012345 123456789012345 123456789012345 "
		"123456789012345 12345678901234 1\n",	/* 256 bytes of fields and the newline */
		"   8     176 sdn 1 2 3 4 5 6 7 8 9 10 1x\n",
		"   8     192 1234567890123456789012345678901 1 2 3 4 5 6 7 8 9 10 11\n",	/* 31 */
		"   8     208 12345678901234567890123456789012 1 2 3 4 5 6 7 8 9 10 11\n",	/* 32 */
		"   8     224 na\001me 1 2 3 4 5 6 7 8 9 10 11\n",
		"   8     240 n\xc3\xa4me 1 2 3 4 5 6 7 8 9 10 11\n",
		"4294967295 4294967295 big 1 2 3 4 5 6 7 8 9 10 11\n",
		"4294967296 0 toobig 1 2 3 4 5 6 7 8 9 10 11\n",
		"0 4294967296 toobig 1 2 3 4 5 6 7 8 9 10 11\n",
		"0000000000000000000007 1 zeros 1 2 3 4 5 6 7 8 9 10 11\n",
		"   9 0 md0\n",
		"   9 1\n",
		"   9 2 md2 1 2 3 4 5 6 7 8 9 10 11",			/* runs into the next */
		"\n",
		"   \n",
		"garbage\n",
	};
	size_t cap = 1 << 20, len = 0;
	char *text = malloc(cap);
	ck_assert_ptr_nonnull(text);
	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
		len += (size_t)sprintf(text + len, "%s", lines[i]);
	/* every length of number from 1 to 21 digits, in every field, and
	 * numbers around each power of ten */
	uint64_t v = 0;
	for (int digits = 1; digits <= 21; digits++) {
		v = v * 10 + (uint64_t)(digits % 10);
		for (int field = 0; field < 17; field++) {
			len += (size_t)sprintf(text + len, "  7 %5d loop%d", digits * 100 + field, field);
			for (int f = 0; f < 17; f++) {
				if (f == field)
					len += (size_t)sprintf(text + len, " %llu%s", (unsigned long long)v,
							       digits > 19 ? "9" : "");
				else
					len += (size_t)sprintf(text + len, " %d", f);
			}
			text[len++] = '\n';
		}
	}
	uint64_t p10 = 1;
	for (int k = 0; k < 20; k++, p10 *= 10) {
		len += (size_t)sprintf(text + len, " 11 %d sr%d %llu %llu 0 0 0 0 0 0 0 0 0\n", k, k,
				       (unsigned long long)(p10 - 1), (unsigned long long)p10);
	}
	/* room after every line, so that each may take the fast path */
	memset(text + len, '\n', 600);
	len += 600;
	text[len] = '\0';
	assert_same_parse(text, len);
	/* and as the last lines of a text, where only the careful parser reads */
	text[len - 600] = '\0';
	assert_same_parse(text, len - 600);
	/* a NUL inside a line */
	text[len - 600] = '\n';
	text[100] = '\0';
	assert_same_parse(text, len);
	free(text);
}
END_TEST

/* A name is zero-padded to 32 bytes, also where a longer one was before. */
START_TEST(test_names_zero_padded)
{
	struct snapshot s;
	snapshot_init(&s);
	char text[2048];
	size_t len = 0;
	for (int i = 0; i < 10; i++)
		len += (size_t)sprintf(text + len, "   7 %7d %s 1 2 3 4 5 6 7 8 9 10 11\n", i,
				       "a_rather_long_name_of_30_bytes");
	memset(text + len, '\n', 600);
	text[len + 600] = '\0';
	ck_assert_int_eq(diskstats_parse(text, len + 600, &s, NULL), 0);
	len = 0;
	for (int i = 0; i < 10; i++)
		len += (size_t)sprintf(text + len, "   7 %7d sd 1 2 3 4 5 6 7 8 9 10 11\n", i);
	memset(text + len, '\n', 600);
	text[len + 600] = '\0';
	ck_assert_int_eq(diskstats_parse(text, len + 600, &s, NULL), 0);
	char want[32] = "sd";
	ck_assert_uint_eq(s.ndev, 10);
	for (size_t i = 0; i < s.ndev; i++)
		ck_assert_mem_eq(s.dev[i].name, want, sizeof want);
	/* the careful parser pads too */
	ck_assert_int_eq(diskstats_parse(text, len, &s, NULL), 0);
	ck_assert_mem_eq(s.dev[9].name, want, sizeof want);
	snapshot_free(&s);
}
END_TEST

/* A device listed twice (a torn read, or the list changing between two
 * read() calls) is kept once and the other line counted as bad: every
 * consumer keys on major:minor. */
START_TEST(test_duplicates_dropped)
{
	struct snapshot s;
	snapshot_init(&s);
	ck_assert_uint_eq(parse(&s, "7 3 loop3 1 2 3 4 5 6 7 8 9 10 11\n"
				    "7 4 loop4 1 2 3 4 5 6 7 8 9 10 11\n"
				    "7 3 zz3 9 9 9 9 9 9 9 9 9 9 9\n"
				    "7 4 loop4 1 2 3 4 5 6 7 8 9 10 11\n"), 2);
	ck_assert_uint_eq(s.ndev, 2);
	ck_assert_uint_eq(s.dev[0].minor, 3);
	ck_assert_uint_eq(s.dev[1].minor, 4);
	snapshot_free(&s);
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
	tcase_add_test(tc, test_fast_path_agrees);
	tcase_add_test(tc, test_names_zero_padded);
	tcase_add_test(tc, test_duplicates_dropped);
	suite_add_tcase(s, tc);
	return s;
}
