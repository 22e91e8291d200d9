/*
 * test_ident.c - identity keys: a filesystem UUID names only the top of its
 * stack (dm-linear over a disk, md members, multipath paths, partitioned
 * disks keep keys of their own), dm devices without a UUID by their name,
 * and udev's mark of a multipath member path.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/ident.h"
#include "source/ident_probe.h"

START_TEST(test_key_top_of_stack)
{
	/* the lab's dm-0 (dmsetup create without a UUID) and the disk under it,
	 * both probed as the same XFS */
	struct dev_ident dm = { .major = 253, .minor = 0, .kname = (char *)"dm-0",
				.dm_name = (char *)"thread0",
				.fs_uuid = (char *)"40cfab9e-5a28-4e95-9cb0-d906faf6108f" };
	struct dev_ident vda = { .major = 254, .minor = 0, .kname = (char *)"vda",
				 .fs_uuid = dm.fs_uuid, .fstype = (char *)"xfs" };
	char *k1 = ident_key_of(&dm, false, NULL);
	char *k2 = ident_key_of(&vda, true, NULL);	/* it has a holder */
	ck_assert_str_eq(k1, "dm:thread0");
	ck_assert_str_eq(k2, "name:vda");
	free(k2);
	k2 = ident_key_of(&vda, false, NULL);		/* alone, the filesystem is its own */
	ck_assert_str_eq(k2, "fs:40cfab9e-5a28-4e95-9cb0-d906faf6108f");
	free(k1);
	free(k2);
	/* md members carry the array's UUID; with a serial they are told apart by it */
	struct dev_ident m1 = { .kname = (char *)"vdf", .fs_uuid = (char *)"ae79430b",
				.fstype = (char *)"linux_raid_member", .serial = (char *)"S1" };
	struct dev_ident m2 = m1;
	m2.kname = (char *)"vdg";
	m2.serial = (char *)"S2";
	k1 = ident_key_of(&m1, true, NULL);
	k2 = ident_key_of(&m2, true, NULL);
	ck_assert_str_eq(k1, "serial:S1/vdf");
	ck_assert_str_ne(k1, k2);
	free(k1);
	free(k2);
	/* two paths of one multipath LUN: one WWID, two keys */
	struct dev_ident pa = { .kname = (char *)"sdb", .wwid = (char *)"3600a0b8" };
	struct dev_ident pb = { .kname = (char *)"sdc", .wwid = (char *)"3600a0b8" };
	k1 = ident_key_of(&pa, true, NULL);
	k2 = ident_key_of(&pb, true, NULL);
	ck_assert_str_eq(k1, "wwid:3600a0b8/sdb");
	ck_assert_str_ne(k1, k2);
	free(k1);
	free(k2);
	/* two partitions of one disk, below an LVM PV: each its own key */
	struct dev_ident p1 = { .kname = (char *)"sda1", .partition = true, .wwid = (char *)"W",
				.fs_uuid = (char *)"pv-uuid" };
	k1 = ident_key_of(&p1, true, NULL);
	ck_assert_str_eq(k1, "wwid-part:W/sda1");
	free(k1);
	/* a loop device alone keeps the filesystem it holds, else its file */
	struct dev_ident lo = { .kname = (char *)"loop0" };
	k1 = ident_key_of(&lo, false, "/var/tmp/img");
	ck_assert_str_eq(k1, "loop:/var/tmp/img");
	free(k1);
}
END_TEST

START_TEST(test_udev_multipath_path)
{
	char dir[] = "/tmp/wbtop-udev.XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char p[300];
	snprintf(p, sizeof p, "%s/b8:16", dir);
	FILE *f = fopen(p, "w");
	ck_assert_ptr_nonnull(f);
	fputs("S:disk/by-id/wwn-0x5000\nE:ID_SERIAL=X\nE:DM_MULTIPATH_DEVICE_PATH=1\n", f);
	fclose(f);
	snprintf(p, sizeof p, "%s/b8:32", dir);
	f = fopen(p, "w");
	ck_assert_ptr_nonnull(f);
	fputs("E:DM_MULTIPATH_DEVICE_PATH=0\nE:ID_SERIAL=X\n", f);
	fclose(f);
	ck_assert(ident_probe_udev_mpath_path(dir, 8, 16));
	ck_assert(!ident_probe_udev_mpath_path(dir, 8, 32));
	ck_assert(!ident_probe_udev_mpath_path(dir, 8, 48));	/* no record: udev not running */
	char cmd[400];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

Suite *ident_suite(void)
{
	Suite *s = suite_create("ident");
	TCase *tc = tcase_create("keys");
	tcase_add_test(tc, test_key_top_of_stack);
	tcase_add_test(tc, test_udev_multipath_path);
	suite_add_tcase(s, tc);
	return s;
}
