/*
 * test_bdistat.c - the debugfs bdi stats, wb_stats and memory.stat parsers
 * on text as kernels print it (this one, one without the bandwidth line,
 * junk, numbers too large for 64 bits), and the reader on a fake debugfs
 * and cgroup tree made here (directories that are not devices, a device
 * without wb_stats, devices listed out of order).
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "source/bdistat.h"

static const char stats_618[] =
	"BdiWriteback:              112 kB\n"
	"BdiReclaimable:           5184 kB\n"
	"BdiDirtyThresh:           7864 kB\n"
	"DirtyThresh:             16384 kB\n"
	"BackgroundThresh:         8192 kB\n"
	"BdiDirtied:            3393456 kB\n"
	"BdiWritten:            3393432 kB\n"
	"BdiWriteBandwidth:      105996 kBps\n"
	"b_dirty:                     2\n"
	"b_io:                        0\n"
	"b_more_io:                   0\n"
	"b_dirty_time:                0\n"
	"bdi_list:                    1\n"
	"state:                       1\n";

START_TEST(test_stats_current_kernel)
{
	struct bdistat_dev d = { .major = 7, .minor = 3 };
	ck_assert_int_eq(bdistat_parse_stats(stats_618, strlen(stats_618), &d), 0);
	ck_assert_uint_eq(d.have, (1u << BDS_NFIELDS) - 1);
	ck_assert_uint_eq(d.kb[BDS_WRITEBACK], 112);
	ck_assert_uint_eq(d.kb[BDS_RECLAIMABLE], 5184);
	ck_assert_uint_eq(d.kb[BDS_BDI_THRESH], 7864);
	ck_assert_uint_eq(d.kb[BDS_DIRTY_THRESH], 16384);
	ck_assert_uint_eq(d.kb[BDS_BG_THRESH], 8192);
	ck_assert_uint_eq(d.kb[BDS_DIRTIED], 3393456);
	ck_assert_uint_eq(d.kb[BDS_WRITTEN], 3393432);
	ck_assert_uint_eq(d.kb[BDS_WRITE_BW], 105996);
	ck_assert_uint_eq(d.major, 7);	/* left as it was */
}
END_TEST

START_TEST(test_stats_partial_and_junk)
{
	/* an old kernel without the bandwidth line, tabs, no final newline */
	const char old[] = "BdiWriteback:\t0 kB\nBdiReclaimable:  12 kB\nBdiDirtyThresh: 99 kB";
	struct bdistat_dev d;
	ck_assert_int_eq(bdistat_parse_stats(old, strlen(old), &d), 0);
	ck_assert_uint_eq(d.have, 1u << BDS_WRITEBACK | 1u << BDS_RECLAIMABLE | 1u << BDS_BDI_THRESH);
	ck_assert_uint_eq(d.kb[BDS_BDI_THRESH], 99);
	ck_assert_uint_eq(d.kb[BDS_WRITE_BW], 0);
	/* a cut-off read: the length counts, not a NUL */
	size_t cut = (size_t)(strstr(stats_618, "5184") - stats_618) + 1;
	ck_assert_int_eq(bdistat_parse_stats(stats_618, cut, &d), 0);
	ck_assert_uint_eq(d.have, 1u << BDS_WRITEBACK | 1u << BDS_RECLAIMABLE);
	ck_assert_uint_eq(d.kb[BDS_RECLAIMABLE], 5);	/* "5" of "5184" before the cut */
	const char *bad[] = {
		"", "\n\n", "hello\n", "BdiWriteback 12 kB\n", "BdiWriteback: kB\n",
		"BdiWriteback: -5 kB\n", "BdiWriteback: 18446744073709551616 kB\n",
		"BdiWritebackX: 5 kB\n", "XBdiWriteback: 5 kB\n",
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		ck_assert_msg(bdistat_parse_stats(bad[i], strlen(bad[i]), &d) == -EINVAL, "%s", bad[i]);
	const char max[] = "BdiWritten: 18446744073709551615 kB\nBdiWritten: 7 kB\n";
	ck_assert_int_eq(bdistat_parse_stats(max, strlen(max), &d), 0);
	ck_assert_uint_eq(d.kb[BDS_WRITTEN], UINT64_MAX);	/* the first of a repeated key */
}
END_TEST

START_TEST(test_wb_stats_blocks)
{
	const char text[] =
		"WbCgIno:                    1\n"
		"WbWriteback:                0 kB\n"
		"WbReclaimable:             24 kB\n"
		"WbDirtyThresh:         607360 kB\n"
		"WbDirtied:            1846088 kB\n"
		"WbWritten:            1846112 kB\n"
		"WbWriteBandwidth:      104556 kBps\n"
		"b_dirty:                    0\n"
		"state:                      1\n"
		"\n"
		"WbCgIno:                 3500\n"
		"WbWriteback:               64 kB\n"
		"WbReclaimable:            128 kB\n"
		"WbDirtyThresh:           4000 kB\n"
		"WbWriteBandwidth:       50000 kBps\n";
	struct bdistat_wb *wb = NULL;
	size_t n = 0, cap = 0;
	ck_assert_int_eq(bdistat_parse_wb(text, strlen(text), 7, 3, &wb, &n, &cap), 2);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(wb[0].cg_ino, 1);
	ck_assert_uint_eq(wb[0].kb[BDS_BDI_THRESH], 607360);
	ck_assert_uint_eq(wb[0].kb[BDS_WRITE_BW], 104556);
	ck_assert_uint_eq(wb[0].kb[BDS_DIRTIED], 1846088);
	ck_assert_uint_eq(wb[1].cg_ino, 3500);
	ck_assert_uint_eq(wb[1].major, 7);
	ck_assert_uint_eq(wb[1].minor, 3);
	ck_assert_uint_eq(wb[1].kb[BDS_WRITEBACK], 64);
	ck_assert(!(wb[1].have & 1u << BDS_DIRTIED));
	/* appended: a second device's blocks go after the first's */
	ck_assert_int_eq(bdistat_parse_wb(text, strlen(text), 8, 0, &wb, &n, &cap), 2);
	ck_assert_uint_eq(n, 4);
	ck_assert_uint_eq(wb[2].major, 8);
	/* fields before any WbCgIno belong to no block */
	const char headless[] = "WbWriteback: 5 kB\n";
	ck_assert_int_eq(bdistat_parse_wb(headless, strlen(headless), 7, 3, &wb, &n, &cap), 0);
	ck_assert_uint_eq(n, 4);
	free(wb);
}
END_TEST

START_TEST(test_memstat_v1_v2)
{
	const char v2[] = "anon 4096\nfile 8192\nfile_mapped 0\nfile_dirty 12288\nfile_writeback 4096\n";
	const char v1[] = "cache 303722496\nrss 7045120\ndirty 36864\nwriteback 8192\ntotal_dirty 99\n";
	struct bdistat_cg c;
	ck_assert_int_eq(bdistat_parse_memstat(v2, strlen(v2), &c), 0);
	ck_assert_uint_eq(c.dirty_bytes, 12288);
	ck_assert_uint_eq(c.writeback_bytes, 4096);
	ck_assert(c.has_tree);	/* v2's counts are the subtree's */
	ck_assert_uint_eq(c.tree_bytes, 12288 + 4096);
	ck_assert_int_eq(bdistat_parse_memstat(v1, strlen(v1), &c), 0);
	ck_assert_uint_eq(c.dirty_bytes, 36864);
	ck_assert_uint_eq(c.writeback_bytes, 8192);
	ck_assert(c.has_tree);	/* total_dirty without total_writeback: that one 0 */
	ck_assert_uint_eq(c.tree_bytes, 99);
	const char v1old[] = "dirty 4096\nwriteback 0\n";
	ck_assert_int_eq(bdistat_parse_memstat(v1old, strlen(v1old), &c), 0);
	ck_assert(!c.has_tree);
	const char none[] = "anon 1\nwriteback 5\nfile_dirtyish 3\n";
	ck_assert_int_eq(bdistat_parse_memstat(none, strlen(none), &c), -EINVAL);
	ck_assert_uint_eq(c.dirty_bytes, 0);
	ck_assert_uint_eq(c.writeback_bytes, 0);
}
END_TEST

static void put(const char *dir, const char *name, const char *text)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

START_TEST(test_reader_fake_tree)
{
	char root[] = "/tmp/wbtop-bdistat.XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(root));
	char p[512];
	const char *dirs[] = { "dbg", "dbg/bdi", "dbg/bdi/8:16", "dbg/bdi/7:3", "dbg/bdi/btrfs-1",
			       "dbg/bdi/7:3x", "cg", "cg/a", "cg/a/b" };
	for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
		snprintf(p, sizeof p, "%s/%s", root, dirs[i]);
		ck_assert_int_eq(mkdir(p, 0700), 0);
	}
	snprintf(p, sizeof p, "%s/dbg/bdi/8:16", root);
	put(p, "stats", stats_618);
	put(p, "wb_stats", "WbCgIno: 1\nWbDirtyThresh: 10 kB\n\nWbCgIno: 42\nWbDirtyThresh: 5 kB\n");
	snprintf(p, sizeof p, "%s/dbg/bdi/7:3", root);
	put(p, "stats", "BdiReclaimable: 77 kB\n");	/* no wb_stats: before 6.11 */
	snprintf(p, sizeof p, "%s/dbg/bdi/btrfs-1", root);
	put(p, "stats", stats_618);
	snprintf(p, sizeof p, "%s/cg", root);
	put(p, "cgroup.controllers", "memory\n");
	put(p, "memory.stat", "file_dirty 1\nfile_writeback 2\n");
	snprintf(p, sizeof p, "%s/cg/a/b", root);
	put(p, "memory.stat", "file_dirty 300\nfile_writeback 400\n");

	char dbg[300], cg[300], why[256] = "";
	snprintf(dbg, sizeof dbg, "%s/dbg", root);
	snprintf(cg, sizeof cg, "%s/cg", root);
	struct bdistat_reader *r;
	ck_assert_int_eq(bdistat_open(&r, dbg, cg, why, sizeof why), 0);
	struct bdistat_sample s;
	bdistat_sample_init(&s);
	for (int round = 0; round < 2; round++) {	/* a second read reuses the arrays */
		ck_assert_int_eq(bdistat_read(r, &s, true), 0);
		ck_assert_uint_eq(s.ndev, 2);
		ck_assert_uint_eq(s.dev[0].major, 7);	/* sorted */
		ck_assert_uint_eq(s.dev[0].kb[BDS_RECLAIMABLE], 77);
		ck_assert_uint_eq(s.dev[1].major, 8);
		ck_assert_ptr_eq(bdistat_find(&s, 8, 16), &s.dev[1]);
		ck_assert_ptr_null(bdistat_find(&s, 8, 17));
		ck_assert_uint_eq(s.nwb, 2);
		ck_assert_uint_eq(s.wb[1].cg_ino, 42);
		ck_assert_uint_eq(s.ncg, 2);	/* cg/a has no memory.stat */
		ck_assert_str_eq(s.cg[0].path, "/");
		ck_assert_str_eq(s.cg[1].path, "/a/b");
		ck_assert_uint_eq(s.cg[1].dirty_bytes, 300);
	}
	bdistat_sample_free(&s);
	bdistat_close(r);
	bdistat_close(NULL);

	snprintf(p, sizeof p, "%s/nodebugfs", root);
	ck_assert_int_eq(bdistat_open(&r, p, cg, why, sizeof why), -ENOENT);
	ck_assert_ptr_null(r);
	ck_assert_msg(strstr(why, "debugfs is not mounted at") != NULL, "%s", why);

	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* Kernel 6.12 in the lab: dm-0's root domain idle at the initial 100 MB/s,
 * its writer's cgroup domain busy at 30 MB/s. */
START_TEST(test_device_from_domains)
{
	static const char wb[] =
		"WbCgIno:                    1\nWbWriteback:                0 kB\n"
		"WbReclaimable:              0 kB\nWbDirtyThresh:            900 kB\n"
		"WbDirtied:                320 kB\nWbWritten:                320 kB\n"
		"WbWriteBandwidth:      102400 kBps\n\n"
		"WbCgIno:                   28\nWbWriteback:             9216 kB\n"
		"WbReclaimable:           4096 kB\nWbDirtyThresh:          31308 kB\n"
		"WbDirtied:             200000 kB\nWbWritten:             190000 kB\n"
		"WbWriteBandwidth:       30720 kBps\n\n"
		"WbCgIno:                   69\nWbWriteback:                0 kB\n"
		"WbReclaimable:              0 kB\nWbDirtyThresh:           5000 kB\n"
		"WbDirtied:              50000 kB\nWbWritten:              50000 kB\n"
		"WbWriteBandwidth:       20000 kBps\n";
	struct bdistat_wb *arr = NULL;
	size_t n = 0, cap = 0;
	ck_assert_int_eq(bdistat_parse_wb(wb, sizeof wb - 1, 253, 0, &arr, &n, &cap), 3);
	struct bdistat_dev d;
	ck_assert_int_eq(bdistat_parse_stats(stats_618, sizeof stats_618 - 1, &d), 0);
	bdistat_dev_from_domains(&d, arr, n, NULL);
	ck_assert(d.per_domain);
	ck_assert_uint_eq(d.kb[BDS_RECLAIMABLE], 4096);		/* every domain's */
	ck_assert_uint_eq(d.kb[BDS_WRITEBACK], 9216);
	ck_assert_uint_eq(d.kb[BDS_DIRTIED], 250320);
	ck_assert_uint_eq(d.kb[BDS_WRITTEN], 240320);
	ck_assert_uint_eq(d.kb[BDS_BDI_THRESH], 31308);		/* the busy domain's only */
	ck_assert_uint_eq(bdistat_write_bw_kbps(&d), 30720);	/* never the root's 102400 */
	/* the third wrote since the last reading: active too, though clean now */
	uint64_t prev[3] = { 320, UINT64_MAX, 40000 };
	bdistat_dev_from_domains(&d, arr, n, prev);
	ck_assert_uint_eq(d.kb[BDS_BDI_THRESH], 36308);
	ck_assert_uint_eq(bdistat_write_bw_kbps(&d), 50720);
	ck_assert(!bdistat_wb_active(&arr[0], 320));
	ck_assert(!bdistat_wb_active(&arr[0], UINT64_MAX));
	ck_assert(bdistat_wb_active(&arr[2], 49996));
	/* all idle: threshold and bandwidth not had (absent, not 0 or 102400) */
	bdistat_dev_from_domains(&d, arr, 1, NULL);
	ck_assert(!(d.have & 1u << BDS_BDI_THRESH));
	ck_assert(!(d.have & 1u << BDS_WRITE_BW));
	ck_assert(d.have & 1u << BDS_RECLAIMABLE);
	free(arr);
}
END_TEST

/* Kernels before 6.10 have no wb_stats: found by the file at open; a second
 * reading knows which domains wrote since the first. */
START_TEST(test_reader_domains_by_file)
{
	char root[] = "/tmp/wbtop-bdistat.XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(root));
	char p[512], dbg[300], why[256] = "";
	const char *dirs[] = { "old", "old/bdi", "old/bdi/253:0", "new", "new/bdi", "new/bdi/253:0" };
	for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
		snprintf(p, sizeof p, "%s/%s", root, dirs[i]);
		ck_assert_int_eq(mkdir(p, 0700), 0);
	}
	snprintf(p, sizeof p, "%s/old/bdi/253:0", root);
	put(p, "stats", stats_618);
	snprintf(p, sizeof p, "%s/new/bdi/253:0", root);
	put(p, "stats", stats_618);
	put(p, "wb_stats", "WbCgIno: 1\nWbWritten: 5 kB\nWbDirtyThresh: 10 kB\n"
			   "WbWriteBandwidth: 102400 kBps\n\nWbCgIno: 42\nWbWritten: 7 kB\n"
			   "WbDirtyThresh: 20 kB\nWbWriteBandwidth: 3000 kBps\n");
	struct bdistat_reader *r;
	struct bdistat_sample s;
	bdistat_sample_init(&s);
	snprintf(dbg, sizeof dbg, "%s/old", root);
	ck_assert_int_eq(bdistat_open(&r, dbg, NULL, why, sizeof why), 0);
	ck_assert(!bdistat_has_domains(r));
	ck_assert(bdistat_root_only_is_device(r));	/* no cgroup v2 memory controller */
	ck_assert_int_eq(bdistat_read(r, &s, false), 0);
	ck_assert(!s.dev[0].per_domain);
	bdistat_close(r);
	snprintf(dbg, sizeof dbg, "%s/new", root);
	ck_assert_int_eq(bdistat_open(&r, dbg, NULL, why, sizeof why), 0);
	ck_assert(bdistat_has_domains(r));
	ck_assert_int_eq(bdistat_read(r, &s, false), 0);
	ck_assert(s.dev[0].per_domain);
	ck_assert(!(s.dev[0].have & 1u << BDS_WRITE_BW));	/* both idle, nothing known before */
	put(p, "wb_stats", "WbCgIno: 1\nWbWritten: 5 kB\nWbDirtyThresh: 10 kB\n"
			   "WbWriteBandwidth: 102400 kBps\n\nWbCgIno: 42\nWbWritten: 900 kB\n"
			   "WbDirtyThresh: 20 kB\nWbWriteBandwidth: 3000 kBps\n");
	ck_assert_int_eq(bdistat_read(r, &s, false), 0);
	ck_assert_uint_eq(bdistat_write_bw_kbps(&s.dev[0]), 3000);	/* 42 wrote since */
	ck_assert_uint_eq(s.dev[0].kb[BDS_BDI_THRESH], 20);
	ck_assert_uint_eq(s.dev[0].kb[BDS_WRITTEN], 905);
	bdistat_sample_free(&s);
	bdistat_close(r);
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

Suite *bdistat_suite(void)
{
	Suite *s = suite_create("bdistat");
	TCase *tc = tcase_create("parse");
	tcase_add_test(tc, test_stats_current_kernel);
	tcase_add_test(tc, test_stats_partial_and_junk);
	tcase_add_test(tc, test_wb_stats_blocks);
	tcase_add_test(tc, test_memstat_v1_v2);
	tcase_add_test(tc, test_reader_fake_tree);
	tcase_add_test(tc, test_device_from_domains);
	tcase_add_test(tc, test_reader_domains_by_file);
	suite_add_tcase(s, tc);
	return s;
}
