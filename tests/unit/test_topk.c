/*
 * test_topk.c - the partial order against a full sort: many sizes, keys with many ties (idle
 * devices all at one key), infinities, ascending, reversed, asked once or in growing steps
 * (scrolling down a page at a time), and the rank count.
 */
#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/topk.h"

static struct topk_order cmp_order;

static int cmp_items(const void *a, const void *b)
{
	const struct topk_item *x = a, *y = b;
	return topk_before(&cmp_order, x, y) ? -1 : topk_before(&cmp_order, y, x) ? 1 : 0;
}

static unsigned long topk_seed = 7;
static unsigned topk_rand(void)
{
	topk_seed = topk_seed * 6364136223846793005ul + 1442695040888963407ul;
	return (unsigned)(topk_seed >> 33);
}

/* n items: keys from a few values (ties) or spread, some infinite; ranks a permutation. */
static void make_items(struct topk_item *v, size_t n, int shape)
{
	for (size_t i = 0; i < n; i++) {
		v[i].idx = (uint32_t)i;
		v[i].rank = (uint32_t)i;
		switch (shape) {
		case 0: v[i].key = topk_rand() % 1000; break;
		case 1: v[i].key = topk_rand() % 3; break;	/* mostly ties */
		case 2: v[i].key = (double)i; break;	/* sorted */
		case 3: v[i].key = (double)(n - i); break;	/* reversed */
		default: v[i].key = topk_rand() % 5 == 0 ? -INFINITY : topk_rand() % 100; break;
		}
	}
	for (size_t i = n; i > 1; i--) {	/* shuffle the ranks */
		size_t j = topk_rand() % i;
		uint32_t t = v[i - 1].rank;
		v[i - 1].rank = v[j].rank;
		v[j].rank = t;
	}
}

START_TEST(test_topk_matches_sorting)
{
	static const size_t sizes[] = { 0, 1, 2, 5, 16, 17, 31, 100, 1000, 2500 };
	int bad = 0, cases = 0;
	for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
		for (int shape = 0; shape < 5; shape++)
			for (int mode = 0; mode < 4; mode++) {
				size_t n = sizes[si];
				struct topk_item *v = malloc((n + 1) * sizeof *v);
				struct topk_item *want = malloc((n + 1) * sizeof *want);
				make_items(v, n, shape);
				struct topk_order o = { mode & 1, (mode & 2) != 0 };
				memcpy(want, v, n * sizeof *v);
				cmp_order = o;
				qsort(want, n, sizeof *want, cmp_items);
				/* a page of 30 at a time, as scrolling asks, then a jump to the end */
				size_t done = 0;
				for (size_t upto = 30; done < n; upto = upto + 30 > n / 2 ? n : upto + 30) {
					topk_select(&o, v, done, n, upto - done);
					done = upto < n ? upto : n;
					for (size_t k = 0; k < done; k++)
						bad += v[k].idx != want[k].idx;
				}
				/* the rank count agrees with the sorted place of a few items */
				for (size_t k = 0; k < n; k += n / 7 + 1)
					bad += topk_rank(&o, v, n, &want[k]) != k;
				cases++;
				free(v);
				free(want);
			}
	ck_assert_int_eq(cases, 200);
	ck_assert_int_eq(bad, 0);
}
END_TEST

START_TEST(test_topk_first_only)
{
	/* Asked for the first 3 of 2000: those three are right, and nothing is lost. */
	struct topk_item v[2000];
	make_items(v, 2000, 0);
	struct topk_order o = { false, false };
	topk_select(&o, v, 0, 2000, 3);
	for (size_t k = 3; k < 2000; k++) {
		ck_assert(!topk_before(&o, &v[k], &v[2]));
		ck_assert(topk_before(&o, &v[0], &v[1]) && topk_before(&o, &v[1], &v[2]));
	}
	bool seen[2000] = { false };
	for (size_t k = 0; k < 2000; k++)
		seen[v[k].idx] = true;
	for (size_t k = 0; k < 2000; k++)
		ck_assert(seen[k]);
	/* an item is never before itself, reversed or not */
	o.rev = true;
	ck_assert(!topk_before(&o, &v[5], &v[5]));
}
END_TEST

Suite *topk_suite(void)
{
	Suite *s = suite_create("topk");
	TCase *tc = tcase_create("select");
	tcase_add_test(tc, test_topk_matches_sorting);
	tcase_add_test(tc, test_topk_first_only);
	suite_add_tcase(s, tc);
	return s;
}
