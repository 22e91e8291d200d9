/*
 * test_procs_acct.c - a process's own write counters (procs_acct.h): a
 * reaped child's writes never move its parent, exited threads count with
 * their final figures, processes gone in the interval come back exited;
 * the taskstats and /proc parsers; the device parsers (procs_wdev.h); and
 * procs_rank on such samples (exited rows, new processes, devices).
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/taskstats.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "core/ident.h"
#include "core/procs.h"
#include "source/procs_acct.h"
#include "source/procs_wdev.h"

#define MiB (1024ull * 1024)

/* ---- a scripted /proc/PID/task ---- */

struct fake_proc {
	int32_t pid;
	size_t n;
	struct procs_thread thr[4];
};
struct fake {
	struct fake_proc p[8];
	size_t n;
	int reads;
};

static int fake_read(void *ctx, int32_t pid, struct procs_thread **thr, size_t *n, size_t *cap)
{
	struct fake *f = ctx;
	f->reads++;
	for (size_t i = 0; i < f->n; i++) {
		if (f->p[i].pid != pid)
			continue;
		if (*cap < f->p[i].n) {
			struct procs_thread *t = realloc(*thr, f->p[i].n * sizeof *t);
			ck_assert_ptr_nonnull(t);
			*thr = t;
			*cap = f->p[i].n;
		}
		memcpy(*thr, f->p[i].thr, f->p[i].n * sizeof **thr);
		*n = f->p[i].n;
		return 0;
	}
	return -ESRCH;
}

static void fake_set(struct fake *f, int32_t pid, size_t n, const int32_t *tids, const uint64_t *w)
{
	struct fake_proc *p = NULL;
	for (size_t i = 0; i < f->n && !p; i++)
		if (f->p[i].pid == pid)
			p = &f->p[i];
	if (!p) {
		ck_assert_uint_lt(f->n, 8);
		p = &f->p[f->n++];
	}
	p->pid = pid;
	p->n = n;
	for (size_t i = 0; i < n; i++)
		p->thr[i] = (struct procs_thread){ .tid = tids[i], .write_bytes = w[i] };
}

/* One sample: the listed processes (pid, /proc/PID/io write total), in pid
 * order, through the accounting; the snapshot gets their own totals and
 * the exited ones. */
struct listed {
	int32_t pid;
	uint64_t total;
	uint64_t start;
};

static void sample(struct procs_acct *a, struct fake *f, const struct listed *l, size_t n, struct snapshot *s)
{
	ck_assert_int_eq(snapshot_reserve_procs(s, n), 0);
	s->nproc = n;
	procs_acct_begin(a);
	for (size_t i = 0; i < n; i++) {
		struct proc_counters *c = &s->proc[i];
		memset(c, 0, sizeof *c);
		c->pid = l[i].pid;
		c->state = 'S';
		c->write_bytes = l[i].total;
		c->start_tics = l[i].start ? l[i].start : 1;
		snprintf(c->comm, sizeof c->comm, "p%d", (int)l[i].pid);
		ck_assert_ptr_nonnull(procs_acct_update(a, c, fake_read, f));
	}
	ck_assert_int_eq(procs_acct_end(a, s), 0);
}

static const struct proc_counters *find(const struct snapshot *s, int32_t pid)
{
	for (size_t i = 0; i < s->nproc; i++)
		if (s->proc[i].pid == pid)
			return &s->proc[i];
	return NULL;
}

/* The shell of the issue: its /proc/PID/io jumps by what its dd wrote when
 * it reaps it; its own threads wrote nothing. */
START_TEST(test_reaped_child_not_charged)
{
	struct procs_acct *a = procs_acct_new();
	struct fake f = { .n = 0 };
	struct snapshot s;
	snapshot_init(&s);
	fake_set(&f, 10, 1, (int32_t[]){ 10 }, (uint64_t[]){ 4096 });
	fake_set(&f, 11, 1, (int32_t[]){ 11 }, (uint64_t[]){ 100 * MiB });
	sample(a, &f, (struct listed[]){ { 10, 4096, 0 }, { 11, 100 * MiB, 0 } }, 2, &s);
	ck_assert_uint_eq(find(&s, 10)->write_bytes, 4096);
	ck_assert_uint_eq(find(&s, 11)->write_bytes, 100 * MiB);
	/* the dd writes 200 MiB more, exits (its record) and is reaped */
	struct procs_exit x = { .tid = 11, .tgid = 11, .write_bytes = 300 * MiB, .comm = "dd" };
	procs_acct_exit(a, &x);
	sample(a, &f, (struct listed[]){ { 10, 4096 + 300 * MiB, 0 } }, 1, &s);
	ck_assert_uint_eq(s.nproc, 2);
	ck_assert_uint_eq(find(&s, 10)->write_bytes, 4096);	/* not 300 MiB more */
	const struct proc_counters *dd = find(&s, 11);
	ck_assert_ptr_nonnull(dd);
	ck_assert_int_eq(dd->state, PROCS_STATE_EXITED);
	ck_assert_uint_eq(dd->write_bytes, 300 * MiB);		/* its last 200 MiB counted */
	/* next sample: gone for good */
	sample(a, &f, (struct listed[]){ { 10, 4096 + 300 * MiB, 0 } }, 1, &s);
	ck_assert_uint_eq(s.nproc, 1);
	snapshot_free(&s);
	procs_acct_free(a);
}
END_TEST

/* Threads that exit keep counting, with their final figures. */
START_TEST(test_exited_threads)
{
	struct procs_acct *a = procs_acct_new();
	struct fake f = { .n = 0 };
	struct snapshot s;
	snapshot_init(&s);
	fake_set(&f, 20, 2, (int32_t[]){ 20, 21 }, (uint64_t[]){ 1 * MiB, 2 * MiB });
	sample(a, &f, (struct listed[]){ { 20, 3 * MiB, 0 } }, 1, &s);
	ck_assert_uint_eq(s.proc[0].write_bytes, 3 * MiB);
	/* 21 writes 1 MiB more and exits: /proc/PID/io still has it */
	procs_acct_exit(a, &(struct procs_exit){ .tid = 21, .tgid = 20, .write_bytes = 3 * MiB });
	fake_set(&f, 20, 1, (int32_t[]){ 20 }, (uint64_t[]){ 1 * MiB });
	sample(a, &f, (struct listed[]){ { 20, 4 * MiB, 0 } }, 1, &s);
	ck_assert_uint_eq(s.proc[0].write_bytes, 4 * MiB);
	/* a thread gone without a record (not listening): its last value read
	 * stays; the total never goes backwards */
	fake_set(&f, 20, 2, (int32_t[]){ 20, 22 }, (uint64_t[]){ 1 * MiB, 5 * MiB });
	sample(a, &f, (struct listed[]){ { 20, 9 * MiB, 0 } }, 1, &s);
	ck_assert_uint_eq(s.proc[0].write_bytes, 9 * MiB);
	fake_set(&f, 20, 1, (int32_t[]){ 20 }, (uint64_t[]){ 2 * MiB });
	sample(a, &f, (struct listed[]){ { 20, 11 * MiB, 0 } }, 1, &s);
	ck_assert_uint_eq(s.proc[0].write_bytes, 10 * MiB);	/* 22's last 5 + 20's 2 + 3 */
	snapshot_free(&s);
	procs_acct_free(a);
}
END_TEST

/* A main thread that exits while others go on stays listed (a zombie) with
 * its figures: counted once. */
START_TEST(test_zombie_leader_once)
{
	struct procs_acct *a = procs_acct_new();
	struct fake f = { .n = 0 };
	struct snapshot s;
	snapshot_init(&s);
	fake_set(&f, 50, 2, (int32_t[]){ 50, 51 }, (uint64_t[]){ 1 * MiB, 1 * MiB });
	sample(a, &f, (struct listed[]){ { 50, 2 * MiB, 0 } }, 1, &s);
	procs_acct_exit(a, &(struct procs_exit){ .tid = 50, .tgid = 50, .write_bytes = 2 * MiB });
	fake_set(&f, 50, 2, (int32_t[]){ 50, 51 }, (uint64_t[]){ 2 * MiB, 3 * MiB });
	sample(a, &f, (struct listed[]){ { 50, 5 * MiB, 0 } }, 1, &s);
	ck_assert_uint_eq(s.proc[0].write_bytes, 5 * MiB);
	snapshot_free(&s);
	procs_acct_free(a);
}
END_TEST

/* Born and gone between two samples: a row of all it wrote; one that wrote
 * nothing: none.  Only processes whose /proc/PID/io moved are read. */
START_TEST(test_born_and_gone)
{
	struct procs_acct *a = procs_acct_new();
	struct fake f = { .n = 0 };
	struct snapshot s;
	snapshot_init(&s);
	fake_set(&f, 5, 1, (int32_t[]){ 5 }, (uint64_t[]){ 4096 });
	sample(a, &f, (struct listed[]){ { 5, 4096, 0 }, { 90, 0, 0 } }, 2, &s);
	int reads = f.reads;
	procs_acct_exit(a, &(struct procs_exit){ .tid = 30, .tgid = 30, .write_bytes = 64 * MiB, .comm = "dd" });
	procs_acct_exit(a, &(struct procs_exit){ .tid = 31, .tgid = 31, .comm = "true" });
	sample(a, &f, (struct listed[]){ { 5, 4096, 0 }, { 90, 0, 0 } }, 2, &s);
	ck_assert_int_eq(f.reads, reads);	/* nothing moved: nothing read */
	ck_assert_uint_eq(s.nproc, 3);
	ck_assert_int_eq(s.proc[0].pid, 5);
	ck_assert_int_eq(s.proc[1].pid, 30);
	ck_assert_int_eq(s.proc[2].pid, 90);
	ck_assert_int_eq(s.proc[1].state, PROCS_STATE_EXITED);
	ck_assert_str_eq(s.proc[1].comm, "dd");
	ck_assert_uint_eq(s.proc[1].write_bytes, 64 * MiB);
	snapshot_free(&s);
	procs_acct_free(a);
}
END_TEST

/* A reused pid (another start time) starts again from its own counters. */
START_TEST(test_reused_pid)
{
	struct procs_acct *a = procs_acct_new();
	struct fake f = { .n = 0 };
	struct snapshot s;
	snapshot_init(&s);
	fake_set(&f, 60, 1, (int32_t[]){ 60 }, (uint64_t[]){ 8 * MiB });
	sample(a, &f, (struct listed[]){ { 60, 8 * MiB, 100 } }, 1, &s);
	fake_set(&f, 60, 1, (int32_t[]){ 60 }, (uint64_t[]){ 1 * MiB });
	sample(a, &f, (struct listed[]){ { 60, 1 * MiB, 200 } }, 1, &s);
	const struct proc_counters *c = find(&s, 60);
	ck_assert_uint_eq(c->write_bytes, 1 * MiB);	/* not held at 8 MiB */
	ck_assert_int_ne(c->state, PROCS_STATE_EXITED);
	/* the one before exited after writing more, and its pid was taken at
	 * once: the listed process wins, one entry */
	procs_acct_exit(a, &(struct procs_exit){ .tid = 60, .tgid = 60, .write_bytes = 3 * MiB });
	fake_set(&f, 60, 1, (int32_t[]){ 60 }, (uint64_t[]){ 4096 });
	sample(a, &f, (struct listed[]){ { 60, 4096, 300 } }, 1, &s);
	ck_assert_uint_eq(s.nproc, 1);
	ck_assert_int_ne(s.proc[0].state, PROCS_STATE_EXITED);
	ck_assert_uint_eq(s.proc[0].write_bytes, 4096);
	snapshot_free(&s);
	procs_acct_free(a);
}
END_TEST

/* ---- parsers ---- */

START_TEST(test_parse_io)
{
	uint64_t w = 0, c = 0;
	ck_assert(procs_acct_parse_io("rchar: 1\nwchar: 2\nsyscr: 3\nsyscw: 4\nread_bytes: 5\n"
				      "write_bytes: 4096\ncancelled_write_bytes: 512\n", &w, &c));
	ck_assert_uint_eq(w, 4096);
	ck_assert_uint_eq(c, 512);
	ck_assert(!procs_acct_parse_io("rchar: 1\n", &w, &c));
	ck_assert(!procs_acct_parse_io("", &w, &c));
}
END_TEST

/* One generic netlink message of family 30 with an AGGR_PID record. */
static size_t build_exit(char *buf, size_t cap, uint16_t family, uint32_t tid, uint32_t tgid, uint16_t version,
			 uint64_t wb, size_t stats_len)
{
	memset(buf, 0, cap);
	struct nlmsghdr *n = (struct nlmsghdr *)buf;
	n->nlmsg_type = family;
	struct genlmsghdr *g = NLMSG_DATA(n);
	g->cmd = TASKSTATS_CMD_NEW;
	char *p = (char *)g + GENL_HDRLEN;
	struct nlattr *aggr = (struct nlattr *)p;
	aggr->nla_type = TASKSTATS_TYPE_AGGR_PID;
	char *q = p + NLA_HDRLEN;
	struct nlattr *pid = (struct nlattr *)q;
	pid->nla_type = TASKSTATS_TYPE_PID;
	pid->nla_len = NLA_HDRLEN + 4;
	memcpy(q + NLA_HDRLEN, &tid, 4);
	q += NLA_ALIGN(pid->nla_len);
	struct nlattr *st = (struct nlattr *)q;
	st->nla_type = TASKSTATS_TYPE_STATS;
	st->nla_len = (uint16_t)(NLA_HDRLEN + stats_len);
	struct taskstats ts;
	memset(&ts, 0, sizeof ts);
	ts.version = version;
	ts.write_bytes = wb;
	ts.cancelled_write_bytes = 7;
	ts.ac_tgid = tgid;
	snprintf(ts.ac_comm, sizeof ts.ac_comm, "dd");
	memcpy(q + NLA_HDRLEN, &ts, stats_len < sizeof ts ? stats_len : sizeof ts);
	q += NLA_ALIGN(st->nla_len);
	aggr->nla_len = (uint16_t)(q - p);
	n->nlmsg_len = (uint32_t)(q - buf);
	ck_assert_uint_le(n->nlmsg_len, cap);
	return n->nlmsg_len;
}

START_TEST(test_parse_exits)
{
	static char buf[2048];
	struct procs_exit x[4];
	size_t len = build_exit(buf, sizeof buf, 30, 1234, 1200, TASKSTATS_VERSION, 5 * MiB, sizeof(struct taskstats));
	ck_assert_uint_eq(procs_acct_parse_exits(buf, len, 30, x, 4), 1);
	ck_assert_int_eq(x[0].tid, 1234);
	ck_assert_int_eq(x[0].tgid, 1200);
	ck_assert_uint_eq(x[0].write_bytes, 5 * MiB);
	ck_assert_uint_eq(x[0].cancelled_bytes, 7);
	ck_assert_str_eq(x[0].comm, "dd");
	/* another family: not ours */
	ck_assert_uint_eq(procs_acct_parse_exits(buf, len, 31, x, 4), 0);
	/* before version 12 there is no thread group */
	len = build_exit(buf, sizeof buf, 30, 1234, 1200, 11, MiB, sizeof(struct taskstats));
	ck_assert_uint_eq(procs_acct_parse_exits(buf, len, 30, x, 4), 1);
	ck_assert_int_eq(x[0].tgid, 0);
	/* stats cut before the I/O figures: nothing */
	len = build_exit(buf, sizeof buf, 30, 1234, 1200, 13, MiB, 64);
	ck_assert_uint_eq(procs_acct_parse_exits(buf, len, 30, x, 4), 0);
	/* truncated buffer: nothing, no overread (ASan) */
	len = build_exit(buf, sizeof buf, 30, 1234, 1200, 13, MiB, sizeof(struct taskstats));
	for (size_t cut = 0; cut < len; cut += 7)
		(void)procs_acct_parse_exits(buf, cut, 30, x, 4);
}
END_TEST

static const struct fdinfo_case {
	const char *text;
	bool ok, writable;
	int mnt_id;
} fdinfo_cases[] = {
	{ "pos:\t0\nflags:\t0100001\nmnt_id:\t29\nino:\t12\n", true, true, 29 },	/* O_WRONLY|O_LARGEFILE */
	{ "pos:\t0\nflags:\t02100002\nmnt_id:\t31\n", true, true, 31 },		/* O_RDWR|O_CLOEXEC */
	{ "pos:\t0\nflags:\t02100000\nmnt_id:\t31\n", true, false, 31 },		/* O_RDONLY */
	{ "pos:\t0\nflags:\t0140001\nmnt_id:\t40\n", true, true, 40 },		/* O_DIRECT write */
	{ "pos:\t0\nflags:\t01\n", true, true, -1 },				/* old kernel: no mnt_id */
	{ "pos:\t0\n", false, false, -1 },
};

START_TEST(test_parse_fdinfo)
{
	const struct fdinfo_case *c = &fdinfo_cases[_i];
	unsigned flags = 0;
	int mnt = 0;
	ck_assert_int_eq(procs_wdev_parse_fdinfo(c->text, &flags, &mnt), c->ok);
	ck_assert_int_eq(mnt, c->mnt_id);
	if (c->ok)
		ck_assert_int_eq(procs_wdev_writable(flags), c->writable);
}
END_TEST

START_TEST(test_parse_mountinfo)
{
	const char *mi =
		"22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw\n"
		"35 22 0:31 / /mnt/b rw,relatime shared:7 master:2 - btrfs /dev/mapper/vg-data rw,space_cache\n"
		"36 22 0:32 / /var/lib/docker/overlay2/x/merged rw - overlay overlay rw,lowerdir=/a\n"
		"37 22 7:0 / /tmp/m rw - ext4 /dev/loop0 rw";
	uint32_t ma, mi_;
	char src[64];
	ck_assert(procs_wdev_mount(mi, 22, &ma, &mi_, src, sizeof src));
	ck_assert_uint_eq(ma, 254);
	ck_assert_str_eq(src, "/dev/vda");
	ck_assert(procs_wdev_mount(mi, 35, &ma, &mi_, src, sizeof src));
	ck_assert_uint_eq(ma, 0);
	ck_assert_uint_eq(mi_, 31);
	ck_assert_str_eq(src, "/dev/mapper/vg-data");
	ck_assert(procs_wdev_mount(mi, 36, &ma, &mi_, src, sizeof src));
	ck_assert_str_eq(src, "overlay");
	ck_assert(procs_wdev_mount(mi, 37, &ma, &mi_, src, sizeof src));	/* last line, no newline */
	ck_assert_str_eq(src, "/dev/loop0");
	ck_assert(!procs_wdev_mount(mi, 99, &ma, &mi_, src, sizeof src));
	ck_assert(!procs_wdev_mount("", 22, &ma, &mi_, src, sizeof src));
}
END_TEST

/* This process writing a file of its own: found on the file's device. */
START_TEST(test_wdev_scan_self)
{
	char path[] = "/tmp/wbtop-wdev-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	struct stat st;
	ck_assert_int_eq(fstat(fd, &st), 0);
	struct procs_wdev *w = procs_wdev_new();
	uint64_t dev[SNAP_WDEV_MAX];
	uint8_t n = 0;
	bool more = true;
	ck_assert_int_eq(procs_wdev_scan(w, getpid(), 1, dev, SNAP_WDEV_MAX, &n, &more), 0);
	unlink(path);
	close(fd);
	/* on a block device (not tmpfs): it is one of ours */
	if (major(st.st_dev) != 0) {
		bool found = false;
		for (uint8_t i = 0; i < n; i++)
			found |= dev[i] == ((uint64_t)major(st.st_dev) << 32 | minor(st.st_dev));
		ck_assert(found);
	}
	ck_assert_int_lt(procs_wdev_scan(w, -1, 1, dev, SNAP_WDEV_MAX, &n, &more), 0);
	procs_wdev_free(w);
	procs_wdev_free(NULL);
}
END_TEST

/* ---- procs_rank on such samples ---- */

START_TEST(test_rank_exited_new_devices)
{
	struct snapshot prev, cur;
	snapshot_init(&prev);
	snapshot_init(&cur);
	struct dev_counters devs[2] = { { .major = 7, .minor = 0, .name = "loop0" },
					{ .major = 253, .minor = 1, .name = "dm-1" } };
	struct dev_ident id = { .dm_name = (char *)"vg-data" };
	devs[1].ident = &id;
	cur.dev = devs;
	cur.ndev = 2;
	ck_assert_int_eq(snapshot_reserve_procs(&prev, 4), 0);
	ck_assert_int_eq(snapshot_reserve_procs(&cur, 4), 0);
	/* prev: 10 (the shell), 11 (a dd, seen) */
	prev.proc[0] = (struct proc_counters){ .pid = 10, .state = 'S', .start_tics = 5, .comm = "sh",
					       .cmdline = "sh -c dd" };
	prev.proc[1] = (struct proc_counters){ .pid = 11, .state = 'D', .start_tics = 6, .comm = "dd",
					       .cmdline = "dd of=/x", .write_bytes = 2 * MiB };
	prev.nproc = 2;
	/* cur: the shell; 11 exited (4 MiB since); 12 born since (2 MiB) writing
	 * two devices; 13 born and gone (2 MiB) */
	cur.proc[0] = (struct proc_counters){ .pid = 10, .state = 'S', .start_tics = 5, .comm = "sh" };
	cur.proc[1] = (struct proc_counters){ .pid = 11, .state = PROCS_STATE_EXITED, .start_tics = 6,
					      .comm = "dd", .write_bytes = 6 * MiB,
					      .nwdev = 1, .wdev = { 7ull << 32 } };
	cur.proc[2] = (struct proc_counters){ .pid = 12, .state = 'R', .start_tics = 9, .comm = "w",
					      .write_bytes = 2 * MiB, .nwdev = 2,
					      .wdev = { 7ull << 32, 253ull << 32 | 1 }, .wdev_more = true };
	cur.proc[3] = (struct proc_counters){ .pid = 13, .state = PROCS_STATE_EXITED, .comm = "dd",
					      .write_bytes = 2 * MiB };
	cur.nproc = 4;
	struct proc_row rows[8];
	struct procs_summary s;
	size_t n = procs_rank(&prev, &cur, 2.0, rows, 8, &s);
	ck_assert_uint_eq(n, 3);
	ck_assert_int_eq(rows[0].pid, 11);
	ck_assert(rows[0].exited);
	ck_assert_double_eq_tol(rows[0].write_kbps, 2048.0, 1e-9);
	ck_assert_str_eq(rows[0].cmdline, "dd of=/x");	/* its last sample's */
	ck_assert_str_eq(rows[0].dev, "loop0");
	ck_assert_double_eq_tol(rows[0].share_pct, 50.0, 1e-9);
	/* new since the last sample: counted from its birth */
	const struct proc_row *w = rows[1].pid == 12 ? &rows[1] : &rows[2];
	ck_assert_int_eq(w->pid, 12);
	ck_assert_int_eq(w->status, RATE_OK);
	ck_assert(w->born);
	ck_assert_double_eq_tol(w->write_kbps, 1024.0, 1e-9);
	ck_assert_str_eq(w->dev, "loop0,vg-data+");
	const struct proc_row *g = rows[1].pid == 13 ? &rows[1] : &rows[2];
	ck_assert_int_eq(g->pid, 13);
	ck_assert(g->exited);
	ck_assert_double_eq_tol(g->write_kbps, 1024.0, 1e-9);
	ck_assert_double_eq_tol(s.write_kbps, 4096.0, 1e-9);
	ck_assert_uint_eq(s.ngone, 2);
	ck_assert_uint_eq(s.nexited, 2);
	ck_assert_uint_eq(s.nnew, 1);
	/* the next interval: the exited ones are not counted gone again */
	n = procs_rank(&cur, &cur, 2.0, rows, 8, &s);
	(void)n;
	snapshot_free(&prev);
	cur.dev = NULL;
	cur.ndev = 0;
	snapshot_free(&cur);
}
END_TEST

Suite *procs_acct_suite(void)
{
	Suite *s = suite_create("procs_acct");
	TCase *tc = tcase_create("own");
	tcase_add_test(tc, test_reaped_child_not_charged);
	tcase_add_test(tc, test_exited_threads);
	tcase_add_test(tc, test_zombie_leader_once);
	tcase_add_test(tc, test_born_and_gone);
	tcase_add_test(tc, test_reused_pid);
	suite_add_tcase(s, tc);
	tc = tcase_create("parsers");
	tcase_add_test(tc, test_parse_io);
	tcase_add_test(tc, test_parse_exits);
	tcase_add_loop_test(tc, test_parse_fdinfo, 0, sizeof fdinfo_cases / sizeof fdinfo_cases[0]);
	tcase_add_test(tc, test_parse_mountinfo);
	tcase_add_test(tc, test_wdev_scan_self);
	suite_add_tcase(s, tc);
	tc = tcase_create("rank");
	tcase_add_test(tc, test_rank_exited_new_devices);
	suite_add_tcase(s, tc);
	return s;
}
