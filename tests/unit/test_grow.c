/*
 * test_grow.c - growable arrays: doubling from the first size, contents
 * kept, and sizes that do not fit refused without touching the array.
 */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "util/grow.h"

START_TEST(test_grow_doubles_and_keeps)
{
	int *a = NULL;
	size_t cap = 0;
	ck_assert_int_eq(grow_array((void **)&a, &cap, 3, sizeof *a, 16), 0);
	ck_assert_uint_eq(cap, 16);
	for (int i = 0; i < 16; i++)
		a[i] = i;
	ck_assert_int_eq(grow_array((void **)&a, &cap, 16, sizeof *a, 16), 0);
	ck_assert_uint_eq(cap, 16);	/* room enough: nothing done */
	ck_assert_int_eq(grow_array((void **)&a, &cap, 70, sizeof *a, 16), 0);
	ck_assert_uint_eq(cap, 128);
	for (int i = 0; i < 16; i++)
		ck_assert_int_eq(a[i], i);
	free(a);
}
END_TEST

START_TEST(test_grow_refuses_overflow)
{
	char *a = NULL;
	size_t cap = 0;
	ck_assert_int_eq(grow_array((void **)&a, &cap, 8, 1, 0), 0);
	ck_assert_uint_eq(cap, 8);
	char *before = a;
	/* the element count doubles past SIZE_MAX, or its bytes do */
	ck_assert_int_eq(grow_array((void **)&a, &cap, SIZE_MAX, 1, 0), -ENOMEM);
	ck_assert_int_eq(grow_array((void **)&a, &cap, SIZE_MAX / 4 + 1, 8, 0), -ENOMEM);
	ck_assert_ptr_eq(a, before);
	ck_assert_uint_eq(cap, 8);
	free(a);
}
END_TEST

/* Arrays sharing a capacity grow together, each by its own element size;
 * one whose bytes would not fit stops them all before any is touched. */
START_TEST(test_grow_arrays_together)
{
	double *v = NULL;
	char *c = NULL;
	size_t cap = 0;
	const struct grow_part parts[] = { { (void **)&v, sizeof *v }, { (void **)&c, sizeof *c } };
	ck_assert_int_eq(grow_arrays(parts, 2, &cap, 5, 4), 0);
	ck_assert_uint_eq(cap, 8);
	for (int i = 0; i < 8; i++) {
		v[i] = i / 2.0;
		c[i] = (char)('a' + i);
	}
	ck_assert_int_eq(grow_arrays(parts, 2, &cap, 8, 4), 0);
	ck_assert_uint_eq(cap, 8);
	ck_assert_int_eq(grow_arrays(parts, 2, &cap, 9, 4), 0);
	ck_assert_uint_eq(cap, 16);
	for (int i = 0; i < 8; i++) {
		ck_assert_double_eq(v[i], i / 2.0);
		ck_assert_int_eq(c[i], 'a' + i);
	}
	double *vb = v;
	char *cb = c;
	/* c's bytes would fit, v's do not */
	ck_assert_int_eq(grow_arrays(parts, 2, &cap, SIZE_MAX / 8 + 1, 4), -ENOMEM);
	ck_assert_ptr_eq(v, vb);
	ck_assert_ptr_eq(c, cb);
	ck_assert_uint_eq(cap, 16);
	free(v);
	free(c);
}
END_TEST

Suite *grow_suite(void)
{
	Suite *s = suite_create("grow");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_grow_doubles_and_keeps);
	tcase_add_test(tc, test_grow_refuses_overflow);
	tcase_add_test(tc, test_grow_arrays_together);
	suite_add_tcase(s, tc);
	return s;
}
