/*
 * test_sysfs.c - one integer from a knob file: the kernel's forms, what
 * follows white space ignored, garbage, overflow and a missing file refused.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "util/sysfs.h"

static const struct {
	const char *text;
	int rc;
	int64_t v;
} sysfs_cases[] = {
	{ "42\n", 0, 42 },
	{ "42", 0, 42 },
	{ "-5\n", 0, -5 },
	{ "1234\t0\t9223372036854775807\n", 0, 1234 },	/* /proc/sys/fs/file-nr */
	{ "", -EINVAL, 0 },
	{ "\n", -EINVAL, 0 },
	{ "abc\n", -EINVAL, 0 },
	{ "12abc\n", -EINVAL, 0 },
	{ "99999999999999999999\n", -ERANGE, 0 },
};

START_TEST(test_sysfs_read_int)
{
	char path[] = "/tmp/wbtop-i14-sysfs.XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	FILE *f = fdopen(fd, "w");
	fputs(sysfs_cases[_i].text, f);
	fclose(f);
	int64_t v = 7;
	ck_assert_int_eq(sysfs_read_int(path, &v), sysfs_cases[_i].rc);
	ck_assert_int_eq(v, sysfs_cases[_i].rc == 0 ? sysfs_cases[_i].v : 7);	/* untouched on error */
	unlink(path);
	ck_assert_int_eq(sysfs_read_int(path, &v), -ENOENT);
}
END_TEST

Suite *sysfs_suite(void)
{
	Suite *s = suite_create("sysfs");
	TCase *tc = tcase_create("core");
	tcase_add_loop_test(tc, test_sysfs_read_int, 0, sizeof sysfs_cases / sizeof sysfs_cases[0]);
	suite_add_tcase(s, tc);
	return s;
}
