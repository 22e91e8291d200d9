/*
 * test_vmstat_text.c - the named counters of a /proc/vmstat text, held to a plain
 * reading of each line (its name up to the first space, its value by strtoul): names
 * that begin other names, a last line without its newline, a name given twice, lines
 * without a space, signs, spaces and numbers past 64 bits, and random texts.
 */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vmstat_text.h"

static const char *const names[] = {
	"pgpgin", "pgpgout", "nr_dirty", "nr_dirtied", "nr_dirty_threshold",
	"nr_dirty_background_threshold", "nr_written", "nr_writeback",
};
#define NNAMES (sizeof names / sizeof names[0])

/* The plain reading: every line, its name up to its first space, the value by strtoul. */
static size_t reference(const char *text, uint64_t *out)
{
	bool seen[NNAMES] = { false };
	memset(out, 0, NNAMES * sizeof *out);
	for (const char *p = text; *p;) {
		const char *eol = strchr(p, '\n');
		if (!eol)
			eol = p + strlen(p);
		const char *sp = memchr(p, ' ', (size_t)(eol - p));
		for (size_t k = 0; sp && k < NNAMES; k++)
			if (strlen(names[k]) == (size_t)(sp - p) && strncmp(names[k], p, (size_t)(sp - p)) == 0) {
				out[k] = strtoul(sp + 1, NULL, 10);
				seen[k] = true;
			}
		p = *eol ? eol + 1 : eol;
	}
	size_t had = 0;
	for (size_t k = 0; k < NNAMES; k++)
		had += seen[k];
	return had;
}

static void check_text(const char *text)
{
	uint64_t want[NNAMES], got[NNAMES];
	size_t wn = reference(text, want);
	size_t gn = vmstat_text_values(text, strlen(text), names, NNAMES, got);
	ck_assert_uint_eq(gn, wn);
	for (size_t k = 0; k < NNAMES; k++)
		ck_assert_msg(got[k] == want[k], "%s: %llu, want %llu in:\n%s", names[k],
			      (unsigned long long)got[k], (unsigned long long)want[k], text);
}

START_TEST(test_cases)
{
	static const char *const texts[] = {
		"nr_free_pages 812\nnr_dirty 17\nnr_writeback 3\nnr_dirtied 9911\nnr_written 9800\n"
		"nr_dirty_threshold 201054\nnr_dirty_background_threshold 100405\npgpgin 123456\n"
		"pgpgout 7654321\npswpin 0\n",
		"nr_dirty_threshold 5\nnr_dirty 6\nnr_dirtied 7",	/* last line without its newline */
		"pgpgin 1\npgpgin 2\n",				/* twice: the last */
		"garbage\npgpgin 4\nnr_dirty\n\n nr_written 5\n",	/* no space; a leading space */
		"pgpgin -5\npgpgout +7\nnr_dirty  12\nnr_written 99999999999999999999999\n",
		"nr_writeback 18446744073709551615\nnr_dirtied 1234567890123456789\nnr_dirty 12x\n",
		"pgpgin \npgpgout 3\n",				/* no value */
		"",
	};
	for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
		check_text(texts[i]);
	uint64_t v[NNAMES];
	ck_assert_uint_eq(vmstat_text_values(texts[0], strlen(texts[0]), names, NNAMES, v), NNAMES);
	ck_assert_uint_eq(v[0], 123456);
	ck_assert_uint_eq(v[4], 201054);
}
END_TEST

START_TEST(test_random)
{
	static const char *const parts[] = { "pgpgin", "pgpgout", "nr_dirty", "nr_dirtied",
					     "nr_dirty_threshold", "nr_written", "nr_writeback", "nr_",
					     " ", " ", " ", "\n", "\n", "0", "42", "18446744073709551616",
					     "-", "+", "x", "_threshold" };
	srandom(18);
	for (int t = 0; t < 20000; t++) {
		char text[512];
		size_t n = 0;
		int np = (int)(random() % 30);
		for (int k = 0; k < np; k++) {
			const char *p = parts[random() % (sizeof parts / sizeof parts[0])];
			size_t l = strlen(p);
			if (n + l >= sizeof text)
				break;
			memcpy(text + n, p, l);
			n += l;
		}
		text[n] = 0;
		check_text(text);
	}
}
END_TEST

Suite *vmstat_text_suite(void)
{
	Suite *s = suite_create("vmstat_text");
	TCase *tc = tcase_create("values");
	tcase_add_test(tc, test_cases);
	tcase_add_test(tc, test_random);
	suite_add_tcase(s, tc);
	return s;
}
