/*
 * test_cgpath.c - the cgroup inode -> path resolver on a real directory
 * tree made under /tmp: paths below the root, a new cgroup found by a walk
 * that an unknown inode starts (not more often than CGPATH_WALK_MS), a
 * removed one kept and marked gone, v1 and v2 roots, and the memory line
 * of a task's cgroup file.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "source/cgpath.h"

struct cgtree {
	char dir[64];
};

static void cgtree_mkdir(const struct cgtree *t, const char *rel)
{
	char p[256];
	snprintf(p, sizeof p, "%s/%s", t->dir, rel);
	ck_assert_int_eq(mkdir(p, 0755), 0);
}

static void cgtree_file(const struct cgtree *t, const char *rel, const char *text)
{
	char p[256];
	snprintf(p, sizeof p, "%s/%s", t->dir, rel);
	FILE *f = fopen(p, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

static uint64_t cgtree_ino(const struct cgtree *t, const char *rel)
{
	char p[256];
	struct stat st;
	snprintf(p, sizeof p, "%s/%s", t->dir, rel);
	ck_assert_int_eq(stat(p, &st), 0);
	return (uint64_t)st.st_ino;
}

static void cgtree_init(struct cgtree *t)
{
	snprintf(t->dir, sizeof t->dir, "/tmp/wbtop-cgpath-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(t->dir));
}

static void cgtree_done(struct cgtree *t)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", t->dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* A v2 root: cgroup.controllers in it; two cgroups, one nested. */
START_TEST(test_cgpath_v2_paths)
{
	struct cgtree t;
	cgtree_init(&t);
	cgtree_file(&t, "cgroup.controllers", "memory io\n");
	cgtree_mkdir(&t, "a");
	cgtree_mkdir(&t, "a/b");
	cgtree_mkdir(&t, "c");
	struct cgpath *c;
	char why[256];
	ck_assert_int_eq(cgpath_open(&c, t.dir, "/proc", why, sizeof why), 0);
	ck_assert(cgpath_v2(c));
	bool gone = true;
	ck_assert_str_eq(cgpath_lookup(c, cgtree_ino(&t, "."), 0, &gone), "/");
	ck_assert(!gone);
	ck_assert_str_eq(cgpath_lookup(c, cgtree_ino(&t, "a/b"), 0, &gone), "/a/b");
	ck_assert_str_eq(cgpath_lookup(c, cgtree_ino(&t, "c"), 0, &gone), "/c");
	/* walk order: a parent before its children, end after its last one */
	size_t n;
	const struct cgpath_entry *e = cgpath_entries(c, &n);
	ck_assert_uint_eq(n, 4);
	ck_assert_str_eq(e[0].path, "/");
	ck_assert_uint_eq(e[0].end, 4);
	for (size_t i = 0; i < n; i++)
		if (strcmp(e[i].path, "/a") == 0) {
			ck_assert_uint_eq(e[i].end, i + 2);
			ck_assert_str_eq(e[i + 1].path, "/a/b");
		}
	ck_assert(!cgpath_truncated(c));
	cgpath_close(c);
	cgtree_done(&t);
}
END_TEST

/* A cgroup made after the walk is found by the walk its unknown inode
 * starts, but not twice within CGPATH_WALK_MS; one removed is gone. */
START_TEST(test_cgpath_new_and_gone)
{
	struct cgtree t;
	cgtree_init(&t);
	cgtree_file(&t, "cgroup.controllers", "memory\n");
	cgtree_mkdir(&t, "old");
	struct cgpath *c;
	char why[256];
	ck_assert_int_eq(cgpath_open(&c, t.dir, "/proc", why, sizeof why), 0);
	uint64_t old = cgtree_ino(&t, "old");
	bool gone;
	ck_assert_str_eq(cgpath_lookup(c, old, 100, &gone), "/old");
	cgtree_mkdir(&t, "new");
	uint64_t fresh = cgtree_ino(&t, "new");
	/* the open's walk was at 0: too recent at 500 ms */
	ck_assert_ptr_null(cgpath_lookup(c, fresh, 500, &gone));
	ck_assert_str_eq(cgpath_lookup(c, fresh, 1500, &gone), "/new");
	ck_assert(!gone);
	/* one that never existed: NULL, and it does not walk again at once */
	ck_assert_ptr_null(cgpath_lookup(c, 1ull << 60, 1600, &gone));
	char p[256];
	snprintf(p, sizeof p, "%s/old", t.dir);
	ck_assert_int_eq(rmdir(p), 0);
	ck_assert_int_eq(cgpath_update(c, 2000, 10000), 0);	/* not due yet: no walk */
	ck_assert_str_eq(cgpath_lookup(c, old, 2000, &gone), "/old");
	ck_assert(!gone);
	ck_assert_int_eq(cgpath_update(c, 20000, 10000), 0);
	ck_assert_str_eq(cgpath_lookup(c, old, 20000, &gone), "/old");
	ck_assert(gone);
	size_t n;
	cgpath_entries(c, &n);
	ck_assert_uint_eq(n, 2);	/* the root and /new */
	cgpath_close(c);
	cgtree_done(&t);
}
END_TEST

/* v1: the memory hierarchy under dir/memory (memory.stat in it); a
 * task's memory line among the other controllers'. */
START_TEST(test_cgpath_v1_task)
{
	struct cgtree t;
	cgtree_init(&t);
	cgtree_mkdir(&t, "memory");
	cgtree_file(&t, "memory/memory.stat", "cache 0\ndirty 0\n");
	cgtree_mkdir(&t, "memory/job");
	cgtree_mkdir(&t, "proc");
	cgtree_mkdir(&t, "proc/42");
	cgtree_file(&t, "proc/42/cgroup",
		    "9:name=systemd:/\n5:blkio:/other\n4:memory:/job\n0::/\n");
	cgtree_mkdir(&t, "proc/43");
	cgtree_file(&t, "proc/43/cgroup", "3:cpu,memory:/\n");
	cgtree_mkdir(&t, "proc/44");
	cgtree_file(&t, "proc/44/cgroup", "3:memoryx:/job\n");
	char proc[128];
	snprintf(proc, sizeof proc, "%s/proc", t.dir);
	struct cgpath *c;
	char why[256];
	ck_assert_int_eq(cgpath_open(&c, t.dir, proc, why, sizeof why), 0);
	ck_assert(!cgpath_v2(c));
	uint64_t ino = 0;
	ck_assert_int_eq(cgpath_of_task(c, 42, &ino), 0);
	ck_assert_uint_eq(ino, cgtree_ino(&t, "memory/job"));
	ck_assert_int_eq(cgpath_of_task(c, 43, &ino), 0);
	ck_assert_uint_eq(ino, cgtree_ino(&t, "memory"));
	ck_assert_int_eq(cgpath_of_task(c, 44, &ino), -ENOENT);	/* no memory line */
	ck_assert_int_eq(cgpath_of_task(c, 45, &ino), -ENOENT);	/* no such task */
	bool gone;
	ck_assert_str_eq(cgpath_lookup(c, cgtree_ino(&t, "memory/job"), 0, &gone), "/job");
	cgpath_close(c);
	cgtree_done(&t);
}
END_TEST

/* The memory line of /proc/PID/cgroup, v1 and v2, table-driven. */
static const struct {
	const char *text;
	bool v2;
	const char *want;	/* NULL: none */
} task_cases[] = {
	{ "0::/user.slice/a.scope\n", true, "/user.slice/a.scope" },
	{ "4:memory:/job\n0::/other\n", true, "/other" },
	{ "4:memory:/job\n0::/other\n", false, "/job" },
	{ "3:cpu,memory,io:/x:y\n", false, "/x:y" },	/* co-mounted; a colon in the name */
	{ "3:memoryx:/x\n1:name=memory:/y\n", false, NULL },
	{ "0::/\n", true, "/" },
	{ "0::relative\n", true, NULL },
	{ "", false, NULL },
	{ "garbage without colons", true, NULL },
};

START_TEST(test_cgpath_parse_task)
{
	char buf[128];
	snprintf(buf, sizeof buf, "%s", task_cases[_i].text);
	const char *got = cgpath_parse_task(buf, task_cases[_i].v2);
	if (task_cases[_i].want)
		ck_assert_str_eq(got, task_cases[_i].want);
	else
		ck_assert_ptr_null(got);
}
END_TEST

/* No hierarchy: one line naming the directory, an error. */
START_TEST(test_cgpath_no_root)
{
	struct cgtree t;
	cgtree_init(&t);
	struct cgpath *c = (struct cgpath *)1;
	char why[256] = "";
	ck_assert_int_lt(cgpath_open(&c, t.dir, "/proc", why, sizeof why), 0);
	ck_assert_ptr_null(c);
	ck_assert_ptr_nonnull(strstr(why, t.dir));
	cgpath_close(NULL);
	cgtree_done(&t);
}
END_TEST

Suite *cgpath_suite(void)
{
	Suite *s = suite_create("cgpath");
	TCase *tc = tcase_create("resolve");
	tcase_add_test(tc, test_cgpath_v2_paths);
	tcase_add_test(tc, test_cgpath_new_and_gone);
	tcase_add_test(tc, test_cgpath_v1_task);
	tcase_add_test(tc, test_cgpath_no_root);
	tcase_add_loop_test(tc, test_cgpath_parse_task, 0, sizeof task_cases / sizeof task_cases[0]);
	suite_add_tcase(s, tc);
	return s;
}
