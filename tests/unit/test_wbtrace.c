/*
 * test_wbtrace.c - what the trace source says of a kernel from its event
 * formats (tests/unit/data/wbtrace-6.18: this machine's, kernel 6.18), with
 * no tracing: the real formats pass; the names kernels before 4.3 used
 * (bdi_setpoint, bdi_dirty) pass too; a renamed required field, a missing
 * balance_dirty_pages, no header page and an unparsable balance_dirty_pages
 * each give one line of reason; a missing or unparsable optional event or
 * field is a note, not a failure.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "source/wbtrace.h"

static char *slurp(const char *name)
{
	char path[512];
	const char *me = __FILE__, *cut = strstr(me, "tests/unit/");
	snprintf(path, sizeof path, "%.*stests/unit/data/wbtrace-6.18/%s", cut ? (int)(cut - me) : 0, me,
		 name);
	FILE *f = fopen(path, "r");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	char *buf = calloc(1, 1 << 16);
	ck_assert_ptr_nonnull(buf);
	size_t n = fread(buf, 1, (1 << 16) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

/* Replace the first from in s by to (s has room: the buffers are 64 KiB). */
static void edit(char *s, const char *from, const char *to)
{
	char *at = strstr(s, from);
	ck_assert_msg(at != NULL, "no '%s'", from);
	size_t fl = strlen(from), tl = strlen(to);
	memmove(at + tl, at + fl, strlen(at + fl) + 1);
	memcpy(at, to, tl);
}

struct kernel {
	char *header;
	char *fmt[WBTRACE_NEVENTS];
};

static void load(struct kernel *k)
{
	k->header = slurp("header_page");
	for (int e = 0; e < WBTRACE_NEVENTS; e++)
		k->fmt[e] = slurp(wbtrace_event_names[e]);
}

static void unload(struct kernel *k)
{
	free(k->header);
	for (int e = 0; e < WBTRACE_NEVENTS; e++)
		free(k->fmt[e]);
}

static int check(struct kernel *k, char *why, char *note)
{
	why[0] = note[0] = '\0';
	return wbtrace_check_formats(k->header, (const char *const *)k->fmt, why, 256, note, 256);
}

START_TEST(test_this_kernel)
{
	struct kernel k;
	char why[256], note[256];
	load(&k);
	ck_assert_int_eq(check(&k, why, note), 0);
	ck_assert_str_eq(note, "");
	unload(&k);
}
END_TEST

START_TEST(test_old_field_names)
{
	struct kernel k;
	char why[256], note[256];
	load(&k);
	char *bdp = k.fmt[0];
	edit(bdp, "field:unsigned long wb_setpoint;", "field:unsigned long bdi_setpoint;");
	edit(bdp, "field:unsigned long wb_dirty;", "field:unsigned long bdi_dirty;");
	edit(bdp, "wb_setpoint=%lu wb_dirty=%lu", "bdi_setpoint=%lu bdi_dirty=%lu");
	edit(bdp, "REC->wb_setpoint, REC->wb_dirty", "REC->bdi_setpoint, REC->bdi_dirty");
	ck_assert_int_eq(check(&k, why, note), 0);
	ck_assert_str_eq(note, "");
	unload(&k);
}
END_TEST

START_TEST(test_renamed_required_field)
{
	struct kernel k;
	char why[256], note[256];
	load(&k);
	edit(k.fmt[0], "field:long pause;", "field:long sleep_ms;");
	edit(k.fmt[0], "pause=%ld", "sleep_ms=%ld");
	edit(k.fmt[0], "REC->pause,", "REC->sleep_ms,");
	ck_assert_int_eq(check(&k, why, note), -ENOENT);
	ck_assert_str_eq(why, "writeback:balance_dirty_pages has no field pause (renamed in this kernel?)");
	unload(&k);
}
END_TEST

START_TEST(test_missing_events)
{
	struct kernel k;
	char why[256], note[256];
	load(&k);
	free(k.fmt[4]);
	k.fmt[4] = NULL;	/* no bdi_dirty_ratelimit */
	edit(k.fmt[0], "field:ino_t cgroup_ino;", "field:ino_t cgroup_id;");
	edit(k.fmt[0], "cgroup_ino=%lu\", REC->bdi", "cgroup_id=%lu\", REC->bdi");
	edit(k.fmt[0], "(unsigned long)REC->cgroup_ino", "(unsigned long)REC->cgroup_id");
	ck_assert_int_eq(check(&k, why, note), 0);
	ck_assert_str_eq(note, "balance_dirty_pages without cgroup_ino; "
			       "no event writeback:bdi_dirty_ratelimit in this kernel");
	free(k.fmt[0]);
	k.fmt[0] = NULL;	/* no balance_dirty_pages: nothing to trace */
	ck_assert_int_eq(check(&k, why, note), -ENOENT);
	ck_assert_str_eq(why, "no event writeback:balance_dirty_pages in this kernel");
	unload(&k);
}
END_TEST

START_TEST(test_broken_formats)
{
	struct kernel k;
	char why[256], note[256];
	load(&k);
	ck_assert_int_eq(wbtrace_check_formats(NULL, (const char *const *)k.fmt, why, sizeof why, note,
					       sizeof note), -EIO);
	ck_assert_str_eq(why, "cannot parse the writeback event formats");
	/* an optional event whose format makes no sense is left out, said so */
	strcpy(k.fmt[1], "name: global_dirty_state\nID: x\nformat:\n\tgarbage\n");
	ck_assert_int_eq(check(&k, why, note), 0);
	ck_assert_msg(strstr(note, "global_dirty_state") != NULL, "%s", note);
	/* the one that matters is not */
	strcpy(k.fmt[0], "name: balance_dirty_pages\nID: 985\nformat:\n\tgarbage\n");
	ck_assert_int_lt(check(&k, why, note), 0);
	ck_assert_msg(strstr(why, "balance_dirty_pages") != NULL, "%s", why);
	unload(&k);
}
END_TEST

Suite *wbtrace_suite(void)
{
	Suite *s = suite_create("wbtrace");
	TCase *tc = tcase_create("formats");
	tcase_add_test(tc, test_this_kernel);
	tcase_add_test(tc, test_old_field_names);
	tcase_add_test(tc, test_renamed_required_field);
	tcase_add_test(tc, test_missing_events);
	tcase_add_test(tc, test_broken_formats);
	suite_add_tcase(s, tc);
	return s;
}
