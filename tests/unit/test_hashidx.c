/*
 * test_hashidx.c - the hash index of positions and the recording's id map
 * built on it: every element found after growing past rebuilds, absent
 * keys not found, updates in place, ids a damaged file could hold.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "util/hashidx.h"
#include "rec/rec_idmap.h"

START_TEST(test_hashidx_finds_every_key)
{
	enum { N = 5000 };
	static char keys[N][16];
	struct hashidx x = { 0 };
	for (size_t i = 0; i < N; i++) {
		snprintf(keys[i], sizeof keys[i], "dm-%zu", i);
		if (x.cap < 2 * (i + 1)) {	/* grown: rebuild with everything so far */
			ck_assert_int_eq(hashidx_reset(&x, 2 * (i + 1), 16), 0);
			for (size_t k = 0; k < i; k++)
				hashidx_put(&x, hashidx_str(keys[k]), k);
		}
		hashidx_put(&x, hashidx_str(keys[i]), i);
	}
	for (size_t i = 0; i < N; i++) {
		size_t at = hashidx_start(&x, hashidx_str(keys[i])), pos, found = SIZE_MAX, probes = 0;
		while ((pos = hashidx_next(&x, &at)) != SIZE_MAX && found == SIZE_MAX) {
			probes++;
			if (!strcmp(keys[pos], keys[i]))
				found = pos;
		}
		ck_assert_uint_eq(found, i);
		ck_assert_uint_lt(probes, 64);
	}
	size_t at = hashidx_start(&x, hashidx_str("sda")), pos;
	while ((pos = hashidx_next(&x, &at)) != SIZE_MAX)
		ck_assert_str_ne(keys[pos], "sda");
	hashidx_free(&x);
	ck_assert_uint_eq(x.cap, 0);
}
END_TEST

START_TEST(test_idmap)
{
	struct rec_idmap m;
	memset(&m, 0, sizeof m);
	ck_assert_uint_eq(rec_idmap_get(&m, 1), SIZE_MAX);
	static const int64_t odd[] = { 0, -1, INT64_MIN, INT64_MAX, 1LL << 40 };
	for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++)
		ck_assert_int_eq(rec_idmap_put(&m, odd[i], 100 + i), 0);
	for (int64_t id = 1; id <= 3000; id++)
		ck_assert_int_eq(rec_idmap_put(&m, id * 7, (size_t)id), 0);
	ck_assert_int_eq(rec_idmap_put(&m, 70, 999), 0);	/* an update, not a second entry */
	ck_assert_uint_eq(m.n, 3000 + sizeof odd / sizeof odd[0]);
	for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++)
		ck_assert_uint_eq(rec_idmap_get(&m, odd[i]), 100 + i);
	for (int64_t id = 1; id <= 3000; id++)
		ck_assert_uint_eq(rec_idmap_get(&m, id * 7), id == 10 ? 999 : (size_t)id);
	ck_assert_uint_eq(rec_idmap_get(&m, 8), SIZE_MAX);
	rec_idmap_free(&m);
	ck_assert_uint_eq(rec_idmap_get(&m, 7), SIZE_MAX);
}
END_TEST

Suite *hashidx_suite(void)
{
	Suite *s = suite_create("hashidx");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_hashidx_finds_every_key);
	tcase_add_test(tc, test_idmap);
	suite_add_tcase(s, tc);
	return s;
}
