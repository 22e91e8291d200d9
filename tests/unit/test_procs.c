/*
 * test_procs.c - the process view: kernel thread names, throttling from
 * wchan and stacks, per-process rates across exits, new and reused pids,
 * top-N selection, the -P text; and one live sample of /proc.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/procs.h"
#include "source/procs_reader.h"
#include "sink/procs_view.h"

#define S_NS 1000000000ull
#define MiB (1024ull * 1024)

/* ---- names of kernel threads ---- */

static const struct kind_case {
	const char *comm;
	bool kthread;
	enum procs_kind kind;
	uint32_t major, minor;
	const char *dev;
	bool active;
} kind_cases[] = {
	{ "kworker/u8:3+flush-7:0", true, PROCS_KIND_FLUSHER, 7, 0, "7:0", true },
	{ "kworker/u8:3-flush-259:12", true, PROCS_KIND_FLUSHER, 259, 12, "259:12", false },
	{ "kworker/u16:0+flush-btrfs-1", true, PROCS_KIND_FLUSHER, 0, 0, "btrfs-1", true },
	{ "kworker/u8:3+flush-7:", true, PROCS_KIND_FLUSHER, 0, 0, "7:", true },
	{ "kworker/u8:3+flush-99999999999:0", true, PROCS_KIND_FLUSHER, 0, 0, "99999999999:0", true },
	{ "flush-8:16", true, PROCS_KIND_FLUSHER, 8, 16, "8:16", true },
	{ "pdflush", true, PROCS_KIND_FLUSHER, 0, 0, "", true },
	{ "bdi-default", true, PROCS_KIND_FLUSHER, 0, 0, "", true },
	{ "kswapd0", true, PROCS_KIND_KSWAPD, 0, 0, "", false },
	{ "kswapd1", true, PROCS_KIND_KSWAPD, 0, 0, "", false },
	{ "kworker/u8:1+kswapd", true, PROCS_KIND_KTHREAD, 0, 0, "", false },
	{ "kworker/0:1H-kblockd", true, PROCS_KIND_KTHREAD, 0, 0, "", false },
	{ "kworker/R-writeback", true, PROCS_KIND_KTHREAD, 0, 0, "", false },
	{ "kworker/u8:0+loop0", true, PROCS_KIND_KTHREAD, 0, 0, "", false },
	{ "kworker/u8:2", true, PROCS_KIND_KTHREAD, 0, 0, "", false },
	{ "jbd2/loop0-8", true, PROCS_KIND_KTHREAD, 0, 0, "", false },
	/* only kernel threads count: a process may name itself anything */
	{ "kswapd0", false, PROCS_KIND_TASK, 0, 0, "", false },
	{ "flush-8:0", false, PROCS_KIND_TASK, 0, 0, "", false },
	{ "dd", false, PROCS_KIND_TASK, 0, 0, "", false },
	{ "", false, PROCS_KIND_TASK, 0, 0, "", false },
};

START_TEST(test_kind_of)
{
	const struct kind_case *c = &kind_cases[_i];
	uint32_t ma = 99, mi = 99;
	char dev[32] = "junk";
	bool active = !c->active;
	enum procs_kind k = procs_kind_of(c->comm, c->kthread, &ma, &mi, dev, sizeof dev, &active);
	ck_assert_msg(k == c->kind, "%s: kind %s, want %s", c->comm, procs_kind_name(k), procs_kind_name(c->kind));
	ck_assert_msg(ma == c->major && mi == c->minor, "%s: %u:%u", c->comm, ma, mi);
	ck_assert_str_eq(dev, c->dev);
	ck_assert_msg(active == c->active, "%s: active %d", c->comm, active);
	/* NULL outputs are allowed */
	ck_assert_int_eq(procs_kind_of(c->comm, c->kthread, NULL, NULL, NULL, 0, NULL), c->kind);
}
END_TEST

/* ---- throttling from wchan ---- */

static const struct wait_case {
	char state;
	const char *wchan;
	enum procs_wait wait;
	bool throttled;
} wait_cases[] = {
	{ 'D', "balance_dirty_pages", PROCS_WAIT_DIRTY, true },
	{ 'D', "balance_dirty_pages_ratelimited_flags", PROCS_WAIT_DIRTY, true },
	{ 'D', "balance_dirty_pages.isra.0", PROCS_WAIT_DIRTY, true },
	{ 'D', "throttle_vm_writeout", PROCS_WAIT_DIRTY, true },
	{ 'D', "wbt_wait", PROCS_WAIT_QOS, true },
	{ 'D', "rq_qos_wait", PROCS_WAIT_QOS, true },
	{ 'D', "folio_wait_writeback", PROCS_WAIT_WRITEBACK, false },
	{ 'D', "folio_wait_bit_common", PROCS_WAIT_IO, false },
	{ 'D', "blk_mq_get_tag", PROCS_WAIT_IO, false },
	{ 'D', "jbd2_log_wait_commit", PROCS_WAIT_SYNC, false },
	{ 'D', "wb_wait_for_completion", PROCS_WAIT_SYNC, false },
	{ 'D', "ext4_buffered_write_iter", PROCS_WAIT_OTHER, false },
	{ 'D', "0", PROCS_WAIT_UNKNOWN, false },
	{ 'D', "-", PROCS_WAIT_UNKNOWN, false },
	{ 'D', "", PROCS_WAIT_UNKNOWN, false },
	{ 'D', NULL, PROCS_WAIT_UNKNOWN, false },
	/* only D state is a wait: balance_dirty_pages sleeps TASK_KILLABLE */
	{ 'S', "balance_dirty_pages", PROCS_WAIT_NONE, false },
	{ 'R', "", PROCS_WAIT_NONE, false },
	{ 'Z', "0", PROCS_WAIT_NONE, false },
};

START_TEST(test_wait_of)
{
	const struct wait_case *c = &wait_cases[_i];
	enum procs_wait w = procs_wait_of(c->state, c->wchan);
	ck_assert_msg(w == c->wait, "%c %s: %s, want %s", c->state, c->wchan ? c->wchan : "(null)",
		      procs_wait_name(w), procs_wait_name(c->wait));
	ck_assert_int_eq(procs_wait_throttled(w), c->throttled);
}
END_TEST

/* ---- the stack fallback ---- */

static const struct {
	const char *stack;
	const char *wchan;
} stack_cases[] = {
	{ "[<0>] __schedule+0x2f0/0x8a0\n[<0>] schedule+0x27/0xa0\n[<0>] schedule_timeout+0x86/0x150\n"
	  "[<0>] io_schedule_timeout+0x4c/0x80\n[<0>] balance_dirty_pages+0x2a1/0xb80\n"
	  "[<0>] balance_dirty_pages_ratelimited_flags+0x2f5/0x3b0\n[<0>] generic_perform_write+0x1b6/0x260\n",
	  "balance_dirty_pages" },
	{ "[<0>] rwsem_down_write_slowpath+0x2a0/0x5a0\n[<0>] down_write+0x5b/0x60\n"
	  "[<0>] ext4_buffered_write_iter+0x3a/0x170\n[<0>] vfs_write+0x2a5/0x400\n",
	  "ext4_buffered_write_iter" },
	{ "[<ffffffff8110e2a9>] balance_dirty_pages_ratelimited_nr+0x2f9/0x420\n"
	  "[<ffffffff81104c7c>] generic_file_buffered_write+0x1ac/0x2a0\n",
	  "balance_dirty_pages_ratelimited_nr" },
	{ "[<0>] io_schedule+0x42/0x70\n[<0>] xfs_log_force+0x1/0x2 [xfs]\n", "xfs_log_force" },
	{ "[<0>] folio_wait_bit_common+0x13d/0x350\n[<0>] folio_wait_writeback+0x2b/0x80\n", "folio_wait_bit_common" },
	{ "[<0>] schedule+0x27/0xa0\n[<0>] io_schedule+0x42/0x70\n", "" },
	{ "no brackets here\n", "" },
	{ "", "" },
	{ "[<0>] \n[<0>] +0x1/0x2\n", "" },
	{ "[<0>] wb_wait_for_completion+0x1/0x2", "wb_wait_for_completion" },	/* no newline at the end */
};

START_TEST(test_stack_wchan)
{
	char w[40];
	memset(w, 'x', sizeof w);
	procs_stack_wchan(stack_cases[_i].stack, w, sizeof w);
	ck_assert_str_eq(w, stack_cases[_i].wchan);
}
END_TEST

START_TEST(test_stack_wchan_truncates)
{
	char w[8];
	procs_stack_wchan("[<0>] balance_dirty_pages+0x1/0x2\n", w, sizeof w);
	ck_assert_str_eq(w, "balance");
}
END_TEST

/* ---- rates ---- */

/* Snapshots under test: two, 2 s apart, with a few devices. */
struct fixture {
	struct snapshot prev, cur;
	struct dev_counters devs[2];
};

static void fx_init(struct fixture *fx)
{
	memset(fx, 0, sizeof *fx);
	snapshot_init(&fx->prev);
	snapshot_init(&fx->cur);
	fx->prev.mono_ns = 10 * S_NS;
	fx->cur.mono_ns = 12 * S_NS;
	fx->prev.sys.pgpgout_kb = 1000;
	fx->cur.sys.pgpgout_kb = 1000 + 20480;	/* bo = 10240 KiB/s */
	fx->devs[0].major = 7;
	snprintf(fx->devs[0].name, sizeof fx->devs[0].name, "loop0");
	fx->devs[1].major = 8;
	snprintf(fx->devs[1].name, sizeof fx->devs[1].name, "sda");
	fx->cur.dev = fx->devs;
	fx->cur.ndev = 2;
}

static void fx_free(struct fixture *fx)
{
	fx->cur.dev = NULL;	/* static */
	fx->cur.ndev = 0;
	snapshot_free(&fx->prev);
	snapshot_free(&fx->cur);
}

static struct proc_counters *fx_add(struct snapshot *s, int32_t pid, const char *comm, char state)
{
	ck_assert_int_eq(snapshot_reserve_procs(s, s->nproc + 1), 0);
	struct proc_counters *p = &s->proc[s->nproc++];
	memset(p, 0, sizeof *p);
	p->pid = pid;
	snprintf(p->comm, sizeof p->comm, "%s", comm);
	p->state = state;
	return p;
}

static const struct proc_row *find_row(const struct proc_row *rows, size_t n, int32_t pid)
{
	for (size_t i = 0; i < n; i++)
		if (rows[i].pid == pid)
			return &rows[i];
	return NULL;
}

START_TEST(test_rates_share_cpu)
{
	struct fixture fx;
	fx_init(&fx);
	struct proc_counters *a = fx_add(&fx.prev, 100, "dd", 'R');
	a->write_bytes = 1 * MiB;
	a->cancelled_write_bytes = 0;
	a->utime_jif = 10;
	a->stime_jif = 20;
	struct proc_counters *b = fx_add(&fx.cur, 100, "dd", 'D');
	*b = *a;
	b->state = 'D';
	b->write_bytes = 21 * MiB;		/* 20 MiB in 2 s = 10240 KiB/s */
	b->cancelled_write_bytes = 2 * MiB;	/* 1024 KiB/s */
	b->utime_jif = 30;
	b->stime_jif = 100;			/* 100 ticks in 2 s = 50% of a CPU */
	snprintf(b->wchan, sizeof b->wchan, "balance_dirty_pages");

	struct proc_row rows[8];
	struct procs_summary s;
	size_t n = procs_rank(&fx.prev, &fx.cur, 2.0, rows, 8, &s);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(rows[0].status, RATE_OK);
	ck_assert_double_eq_tol(rows[0].write_kbps, 10240.0, 1e-9);
	ck_assert_double_eq_tol(rows[0].cancelled_kbps, 1024.0, 1e-9);
	ck_assert_double_eq_tol(rows[0].share_pct, 100.0, 1e-9);
	ck_assert_double_eq_tol(rows[0].cpu_pct, 50.0, 1e-9);
	ck_assert(rows[0].throttled);
	ck_assert_int_eq(rows[0].wait, PROCS_WAIT_DIRTY);
	ck_assert_str_eq(rows[0].wchan, "balance_dirty_pages");
	ck_assert_str_eq(rows[0].comm, "dd");
	ck_assert_int_eq(s.status, RATE_OK);
	ck_assert_uint_eq(s.ntasks, 1);
	ck_assert_uint_eq(s.nwriting, 1);
	ck_assert_uint_eq(s.nthrottled, 1);
	ck_assert_uint_eq(s.ndstate, 1);
	ck_assert_double_eq_tol(s.bo_kbps, 10240.0, 1e-9);
	ck_assert_double_eq_tol(s.write_kbps, 10240.0, 1e-9);
	fx_free(&fx);
}
END_TEST

/* With the writeback trace in the samples: throttling is the trace's, not
 * the wchan guess; a task the trace has not seen paused is not throttled. */
START_TEST(test_traced_throttling)
{
	struct fixture fx;
	fx_init(&fx);
	const int32_t pids[] = { 100, 101, 102 };
	for (int k = 0; k < 2; k++) {
		struct snapshot *s = k ? &fx.cur : &fx.prev;
		for (size_t i = 0; i < 3; i++) {
			struct proc_counters *p = fx_add(s, pids[i], "dd", 'D');
			p->write_bytes = (uint64_t)(k + 1) * MiB;
			snprintf(p->wchan, sizeof p->wchan, "balance_dirty_pages");
		}
		ck_assert_int_eq(snapshot_add_x(s, SNAP_XSYS, SNAP_XSYS_TRACE_LOST, 0, 0), 0);
		/* 100 paused 300 ms in the 2 s on 7:3; 101 was seen but not paused */
		ck_assert_int_eq(snapshot_add_x(s, SNAP_XTASK, SNAP_XTASK_THROTTLED_MS, 100, 1000 + 300u * k), 0);
		ck_assert_int_eq(snapshot_add_x(s, SNAP_XTASK, SNAP_XTASK_PAUSES, 100, 50 + 40u * k), 0);
		ck_assert_int_eq(snapshot_add_x(s, SNAP_XTASK, SNAP_XTASK_RATELIMIT_KBPS, 100, 90000), 0);
		ck_assert_int_eq(snapshot_add_x(s, SNAP_XTASK, SNAP_XTASK_BDI, 100, snapshot_xobj_dev(7, 3)), 0);
		ck_assert_int_eq(snapshot_add_x(s, SNAP_XTASK, SNAP_XTASK_THROTTLED_MS, 101, 20), 0);
		/* 102 first throttled in this interval: from 0, since the trace ran before */
		if (k)
			ck_assert_int_eq(snapshot_add_x(s, SNAP_XTASK, SNAP_XTASK_THROTTLED_MS, 102, 40), 0);
		snapshot_sort_x(s);
	}
	struct proc_row rows[8];
	struct procs_summary sum;
	size_t n = procs_rank(&fx.prev, &fx.cur, 2.0, rows, 8, &sum);
	ck_assert_uint_eq(n, 3);
	ck_assert(sum.traced);
	ck_assert_uint_eq(sum.nthrottled, 2);
	const struct proc_row *a = find_row(rows, n, 100), *b = find_row(rows, n, 101),
			      *c = find_row(rows, n, 102);
	ck_assert(a && b && c);
	ck_assert(a->traced && a->throttled);
	ck_assert_double_eq_tol(a->paused_ms_s, 150.0, 1e-9);
	ck_assert_double_eq_tol(a->pauses_s, 20.0, 1e-9);
	ck_assert_double_eq(a->ratelimit_kbps, 90000);
	ck_assert(a->has_bdi && a->bdi_major == 7 && a->bdi_minor == 3);
	ck_assert(b->traced && !b->throttled);	/* in balance_dirty_pages by wchan, no pause */
	ck_assert(c->traced && c->throttled && c->ratelimit_kbps < 0 && !c->has_bdi);
	ck_assert_double_eq_tol(c->paused_ms_s, 20.0, 1e-9);
	/* without the trace in the previous sample, a new counter has no rate */
	for (size_t i = 0; i < fx.prev.nx; i++)
		if (fx.prev.x[i].scope == SNAP_XSYS)
			fx.prev.x[i].kind = SNAP_XSYS_DIRTY_LIMIT_KB;
	double v;
	ck_assert(!derive_x(&fx.prev, &fx.cur, SNAP_XTASK, 102, SNAP_XTASK_THROTTLED_MS, 2.0, &v));
	ck_assert(derive_x(&fx.prev, &fx.cur, SNAP_XTASK, 100, SNAP_XTASK_THROTTLED_MS, 2.0, &v));
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(procs_view_print_batch(f, &sum, rows, n), 0);
	fclose(f);
	ck_assert_msg(strstr(text, " 2 throttled, ") != NULL, "%s", text);	/* not called a guess */
	ck_assert_msg(strstr(text, "thr_ms/s pauses/s   rl_kB/s held_on  command") != NULL, "%s", text);
	ck_assert_msg(strstr(text, "   150.0     20.0   90000.0 7:3      dd") != NULL, "%s", text);
	free(text);
	fx_free(&fx);
}
END_TEST

START_TEST(test_top_n_by_write_rate)
{
	struct fixture fx;
	fx_init(&fx);
	/* pids 1..6 write 6, 1, 5, 2, 4, 3 MiB in 2 s; pid 7 idle */
	static const unsigned mib[] = { 6, 1, 5, 2, 4, 3, 0 };
	for (int32_t i = 0; i < 7; i++) {
		fx_add(&fx.prev, i + 1, "w", 'S');
		fx_add(&fx.cur, i + 1, "w", 'S')->write_bytes = mib[i] * MiB;
	}
	struct proc_row rows[3];
	struct procs_summary s;
	size_t n = procs_rank(&fx.prev, &fx.cur, 2.0, rows, 3, &s);
	ck_assert_uint_eq(n, 3);
	ck_assert_int_eq(rows[0].pid, 1);
	ck_assert_int_eq(rows[1].pid, 3);
	/* the last row is the other four's: the rows add up to the total */
	ck_assert_int_eq(rows[2].kind, PROCS_KIND_OTHER);
	ck_assert_uint_eq(rows[2].nother, 4);
	ck_assert_double_eq_tol(rows[2].write_kbps, 10 * 512.0, 1e-9);
	ck_assert_uint_eq(s.nwriting, 6);
	ck_assert_uint_eq(s.nomitted, 4);
	ck_assert_double_eq_tol(s.write_kbps, 21 * 512.0, 1e-9);
	/* shares of all tasks' dirtying: 6, 5 and 10 of 21 */
	ck_assert_double_eq_tol(rows[0].share_pct, 600.0 / 21, 1e-9);
	ck_assert_double_eq_tol(rows[1].share_pct, 500.0 / 21, 1e-9);
	ck_assert_double_eq_tol(rows[2].share_pct, 1000.0 / 21, 1e-9);
	/* cap 0: nothing written, the summary still complete */
	n = procs_rank(&fx.prev, &fx.cur, 2.0, NULL, 0, &s);
	ck_assert_uint_eq(n, 0);
	ck_assert_uint_eq(s.nomitted, 6);
	fx_free(&fx);
}
END_TEST

/* Table of two-sample stories for one pid: what the row and summary say. */
static const struct life_case {
	const char *name;
	bool in_prev, in_cur;
	bool prev_kthread, cur_kthread;
	const char *prev_comm, *cur_comm;
	uint64_t prev_wb, cur_wb, prev_utime, cur_utime;
	enum rate_status status;	/* of the row, when in_cur */
	double write_kbps;
	size_t nnew, ngone;
} life_cases[] = {
	{ "steady", true, true, false, false, "dd", "dd", MiB, 3 * MiB, 5, 7, RATE_OK, 1024.0, 0, 0 },
	{ "exited", true, false, false, false, "dd", "", MiB, 0, 5, 0, RATE_OK, 0, 0, 1 },
	{ "born", false, true, false, false, "", "dd", 0, 8 * MiB, 0, 1, RATE_FIRST, 0, 1, 0 },
	/* the pid was reused by a task with smaller counters: never a huge or negative rate */
	{ "reused, counters back", true, true, false, false, "dd", "dd", 9 * MiB, MiB, 5, 7, RATE_FIRST, 0, 1, 1 },
	{ "reused, cpu back", true, true, false, false, "dd", "cp", MiB, 2 * MiB, 50, 1, RATE_FIRST, 0, 1, 1 },
	{ "reused by a kthread", true, true, false, true, "dd", "kworker/u8:1", MiB, 2 * MiB, 5, 7, RATE_FIRST, 0, 1, 1 },
	/* exec keeps the pid and the counters: the same task with a new name */
	{ "exec", true, true, false, false, "bash", "dd", MiB, 5 * MiB, 5, 7, RATE_OK, 2048.0, 0, 0 },
};

START_TEST(test_lifecycle)
{
	const struct life_case *c = &life_cases[_i];
	struct fixture fx;
	fx_init(&fx);
	fx_add(&fx.prev, 1, "init", 'S');	/* so prev counts as a process sample */
	fx_add(&fx.cur, 1, "init", 'S');
	if (c->in_prev) {
		struct proc_counters *p = fx_add(&fx.prev, 42, c->prev_comm, 'R');
		p->kthread = c->prev_kthread;
		p->write_bytes = c->prev_wb;
		p->utime_jif = c->prev_utime;
	}
	if (c->in_cur) {
		struct proc_counters *p = fx_add(&fx.cur, 42, c->cur_comm, 'D');	/* D: always a row */
		p->kthread = c->cur_kthread;
		p->write_bytes = c->cur_wb;
		p->utime_jif = c->cur_utime;
		snprintf(p->wchan, sizeof p->wchan, "folio_wait_bit_common");
	}
	struct proc_row rows[4];
	struct procs_summary s;
	size_t n = procs_rank(&fx.prev, &fx.cur, 2.0, rows, 4, &s);
	const struct proc_row *r = find_row(rows, n, 42);
	ck_assert_msg((r != NULL) == c->in_cur, "%s: row %s", c->name, r ? "present" : "absent");
	if (r) {
		ck_assert_msg(r->status == c->status, "%s: status %d", c->name, r->status);
		ck_assert_msg(r->write_kbps == c->write_kbps, "%s: %.1f kB/s", c->name, r->write_kbps);
		ck_assert(r->cpu_pct >= 0);
	}
	ck_assert_msg(s.nnew == c->nnew && s.ngone == c->ngone, "%s: new %zu gone %zu", c->name, s.nnew, s.ngone);
	fx_free(&fx);
}
END_TEST

START_TEST(test_first_sample_and_dt_zero)
{
	struct fixture fx;
	fx_init(&fx);
	struct proc_counters *p = fx_add(&fx.cur, 10, "kswapd0", 'S');
	p->kthread = true;
	p->utime_jif = 1000;
	p = fx_add(&fx.cur, 20, "dd", 'D');
	p->write_bytes = 100 * MiB;
	snprintf(p->wchan, sizeof p->wchan, "balance_dirty_pages");
	fx_add(&fx.cur, 30, "idle", 'S')->write_bytes = 5 * MiB;
	struct proc_row rows[8];
	struct procs_summary s;
	/* no previous snapshot, and one without processes: the same */
	for (int k = 0; k < 2; k++) {
		size_t n = procs_rank(k ? &fx.prev : NULL, &fx.cur, 2.0, rows, 8, &s);
		ck_assert_int_eq(s.status, RATE_FIRST);
		ck_assert_uint_eq(n, 2);	/* the throttled dd (state is instantaneous) and kswapd */
		ck_assert_int_eq(rows[0].pid, 20);
		ck_assert_int_eq(rows[0].status, RATE_FIRST);
		ck_assert(rows[0].throttled);
		ck_assert_double_eq(rows[0].write_kbps, 0);
		ck_assert_int_eq(rows[1].kind, PROCS_KIND_KSWAPD);
		ck_assert_double_eq(rows[1].cpu_pct, 0);
		ck_assert_uint_eq(s.nthrottled, 1);
		ck_assert_uint_eq(s.nwriting, 0);
		ck_assert_double_eq(s.bo_kbps, k ? 10240.0 : -1);	/* bo needs no processes */
	}
	fx_add(&fx.prev, 20, "dd", 'R');
	size_t n = procs_rank(&fx.prev, &fx.cur, 0.0, rows, 8, &s);
	ck_assert_int_eq(s.status, RATE_NODATA);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(rows[0].status, RATE_NODATA);
	ck_assert_double_eq(rows[0].write_kbps, 0);
	fx_free(&fx);
}
END_TEST

START_TEST(test_comm_sanitized)
{
	struct fixture fx;
	fx_init(&fx);
	struct proc_counters *p = fx_add(&fx.cur, 9, "", 'D');
	memcpy(p->comm, "evil\nprocs 1 tasks:\033[2J", 23);
	memset(p->comm + 23, 'x', sizeof p->comm - 23);	/* and no NUL: a bad recording */
	memset(p->wchan, 'y', sizeof p->wchan);
	struct proc_row rows[2];
	size_t n = procs_rank(NULL, &fx.cur, 1.0, rows, 2, NULL);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(rows[0].comm, "evil?procs 1 tasks:?[2Jxxxxxxxx");
	ck_assert_uint_eq(strlen(rows[0].wchan), sizeof rows[0].wchan - 1);
	fx_free(&fx);
}
END_TEST

START_TEST(test_hidden_and_unknown)
{
	struct fixture fx;
	fx_init(&fx);
	fx_add(&fx.prev, 5, "other", 'S')->io_hidden = true;
	fx_add(&fx.cur, 5, "other", 'S')->io_hidden = true;
	fx_add(&fx.prev, 6, "blocked", 'D')->io_hidden = true;
	fx_add(&fx.cur, 6, "blocked", 'D')->io_hidden = true;	/* wchan "" : unreadable */
	/* io readable before, not now (setuid exec): unknown, not a negative rate */
	fx_add(&fx.prev, 7, "su", 'S')->write_bytes = 50 * MiB;
	fx_add(&fx.cur, 7, "su", 'D')->io_hidden = true;
	struct proc_row rows[8];
	struct procs_summary s;
	size_t n = procs_rank(&fx.prev, &fx.cur, 2.0, rows, 8, &s);
	ck_assert_uint_eq(s.nhidden, 3);
	ck_assert_uint_eq(s.nwait_unknown, 2);
	ck_assert_uint_eq(s.nthrottled, 0);
	ck_assert_uint_eq(s.nnew, 0);
	ck_assert_uint_eq(n, 2);
	const struct proc_row *r = find_row(rows, n, 6);
	ck_assert_ptr_nonnull(r);
	ck_assert(r->io_hidden);
	ck_assert_int_eq(r->wait, PROCS_WAIT_UNKNOWN);
	r = find_row(rows, n, 7);
	ck_assert_ptr_nonnull(r);
	ck_assert(r->io_hidden);
	ck_assert_double_eq(r->write_kbps, 0);
	ck_assert_double_eq(s.write_kbps, 0);
	fx_free(&fx);
}
END_TEST

START_TEST(test_flushers_and_kswapd)
{
	struct fixture fx;
	fx_init(&fx);
	static const struct { int32_t pid; const char *comm; char state; uint64_t dcpu; uint32_t fmaj, fmin; } t[] = {
		{ 50, "kworker/u8:3+flush-7:0", 'R', 4, 7, 0 },
		{ 51, "kworker/u8:4+flush-9:1", 'S', 2, 9, 1 },		/* no such device in the sample */
		{ 52, "kworker/u8:5-flush-8:0", 'I', 0, 8, 0 },		/* idle, did nothing: no row */
		{ 53, "kworker/u8:6-flush-8:0", 'I', 1, 8, 0 },		/* idle now, but worked */
		/* comm cut short by the sampler; the device it parsed stands */
		{ 54, "kworker/u256:12+flush-259:1234", 'R', 0, 259, 123456 },
		{ 55, "kworker/u8:7+flush-btrfs-1", 'R', 0, 0, 0 },
		{ 60, "kswapd0", 'S', 30, 0, 0 },
		{ 61, "kworker/u8:9+events", 'R', 50, 0, 0 },		/* not writeback */
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		struct proc_counters *p = fx_add(&fx.prev, t[i].pid, t[i].comm, 'S');
		p->kthread = true;
		p = fx_add(&fx.cur, t[i].pid, t[i].comm, t[i].state);
		p->kthread = true;
		p->stime_jif = t[i].dcpu;
		p->flush_major = t[i].fmaj;
		p->flush_minor = t[i].fmin;
	}
	struct proc_row rows[16];
	struct procs_summary s;
	size_t n = procs_rank(&fx.prev, &fx.cur, 2.0, rows, 16, &s);
	ck_assert_uint_eq(n, 6);	/* pids 52 (idle) and 61 (not writeback) left out */
	ck_assert_ptr_null(find_row(rows, n, 52));
	ck_assert_ptr_null(find_row(rows, n, 61));
	const struct proc_row *r;
	ck_assert_int_eq(rows[0].pid, 60);	/* by CPU: kswapd 15% */
	ck_assert_double_eq_tol(rows[0].cpu_pct, 15.0, 1e-9);
	ck_assert_int_eq(rows[1].pid, 50);
	r = find_row(rows, n, 50);
	ck_assert_str_eq(r->flush_dev, "loop0");
	ck_assert(r->flush_active);
	ck_assert_uint_eq(r->flush_major, 7);
	r = find_row(rows, n, 51);
	ck_assert_str_eq(r->flush_dev, "9:1");
	r = find_row(rows, n, 53);
	ck_assert(!r->flush_active);
	ck_assert_str_eq(r->flush_dev, "sda");
	r = find_row(rows, n, 54);
	ck_assert_str_eq(r->flush_dev, "259:123456");
	r = find_row(rows, n, 55);
	ck_assert_str_eq(r->flush_dev, "btrfs-1");
	ck_assert_double_eq_tol(s.kswapd_cpu_pct, 15.0, 1e-9);
	ck_assert_double_eq_tol(s.flusher_cpu_pct, 3.5, 1e-9);	/* 4 + 2 + 1 ticks in 2 s */
	fx_free(&fx);
}
END_TEST

/* An idle flush worker that dirtied a page (CI: a kworker charged 4 kB,
 * no CPU tick, state I) still gets a row: every table's rows add up to
 * its summary's writing total. */
START_TEST(test_idle_kernel_writer_has_row)
{
	struct fixture fx;
	fx_init(&fx);
	struct proc_counters *p = fx_add(&fx.prev, 70, "kworker/u8:2-flush-7:0", 'I');
	p->kthread = true;
	p->flush_major = 7;
	p = fx_add(&fx.cur, 70, "kworker/u8:2-flush-7:0", 'I');
	p->kthread = true;
	p->flush_major = 7;
	p->write_bytes = 4096;
	fx_add(&fx.prev, 80, "sh", 'S');
	fx_add(&fx.cur, 80, "sh", 'S');
	struct proc_row rows[8];
	struct procs_summary s;
	size_t n = procs_rank(&fx.prev, &fx.cur, 1.0, rows, 8, &s);
	ck_assert_uint_eq(s.nwriting, 1);
	ck_assert_double_eq_tol(s.write_kbps, 4.0, 1e-9);
	const struct proc_row *r = find_row(rows, n, 70);
	ck_assert_ptr_nonnull(r);
	ck_assert_double_eq_tol(r->write_kbps, 4.0, 1e-9);
	ck_assert_ptr_null(find_row(rows, n, 80));	/* idle, not writing: no row */
	fx_free(&fx);
}
END_TEST

/* When writers and kernel threads both want more room than there is,
 * each keeps half; a group that needs less leaves the rest to the other.
 * When not all fit, one row (after the writers) is the others'. */
static const struct budget_case { size_t cap, nw, nk, rows_w, rows_k; bool other; } budget_cases[] = {
	{ 4, 5, 3, 2, 1, true },
	{ 4, 1, 5, 1, 2, true },
	{ 4, 5, 1, 2, 1, true },
	{ 10, 3, 2, 3, 2, false },
	{ 1, 1, 1, 1, 0, false },	/* no room for it */
	{ 3, 0, 0, 0, 0, false },
};

START_TEST(test_group_budget)
{
	const struct budget_case *c = &budget_cases[_i];
	struct fixture fx;
	fx_init(&fx);
	int32_t pid = 1;
	for (size_t i = 0; i < c->nw; i++, pid++) {
		fx_add(&fx.prev, pid, "w", 'S');
		fx_add(&fx.cur, pid, "w", 'S')->write_bytes = (i + 1) * MiB;
	}
	for (size_t i = 0; i < c->nk; i++, pid++) {
		fx_add(&fx.prev, pid, "kswapd0", 'S')->kthread = true;
		fx_add(&fx.cur, pid, "kswapd0", 'S')->kthread = true;
	}
	struct proc_row rows[16];
	struct procs_summary s;
	size_t n = procs_rank(&fx.prev, &fx.cur, 1.0, rows, c->cap, &s);
	ck_assert_uint_eq(n, c->rows_w + c->rows_k + c->other);
	for (size_t i = 0; i < n; i++)
		ck_assert_int_eq(rows[i].kind, i < c->rows_w ? PROCS_KIND_TASK
					       : c->other && i == c->rows_w ? PROCS_KIND_OTHER : PROCS_KIND_KSWAPD);
	ck_assert_uint_eq(s.nomitted, c->nw + c->nk - c->rows_w - c->rows_k);
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += rows[i].write_kbps;
	if (c->other || c->nw + c->nk <= c->cap)
		ck_assert_double_eq_tol(sum, s.write_kbps, 1e-6);
	fx_free(&fx);
}
END_TEST

START_TEST(test_thousands)
{
	struct fixture fx;
	fx_init(&fx);
	enum { N = 20000 };
	for (int32_t i = 0; i < N; i++) {
		fx_add(&fx.prev, 300 + i, "p", 'S');
		struct proc_counters *p = fx_add(&fx.cur, 300 + i, "p", i % 97 == 0 ? 'D' : 'S');
		p->write_bytes = (uint64_t)((i * 7919) % N) * 1024;
	}
	struct proc_row rows[10];
	struct procs_summary s;
	size_t n = procs_rank(&fx.prev, &fx.cur, 1.0, rows, 10, &s);
	ck_assert_uint_eq(n, 10);
	ck_assert_uint_eq(s.ntasks, N);
	for (size_t i = 0; i + 1 < n; i++)
		ck_assert_double_eq(rows[i].write_kbps, (double)(N - 1 - i));
	ck_assert_int_eq(rows[9].kind, PROCS_KIND_OTHER);
	double sum = 0;
	for (size_t i = 0; i < n; i++) {
		sum += rows[i].write_kbps;
		ck_assert(rows[i].share_pct >= 0 && rows[i].share_pct <= 100);
	}
	ck_assert_double_eq_tol(sum, s.write_kbps, 1e-6 * s.write_kbps);
	fx_free(&fx);
}
END_TEST

/* ---- the -P text ---- */

START_TEST(test_print_batch)
{
	struct proc_row rows[3];
	memset(rows, 0, sizeof rows);
	rows[0] = (struct proc_row){ .pid = 4242, .comm = "dd", .state = 'D', .status = RATE_OK,
		.write_kbps = 51200, .share_pct = 98.5, .cpu_pct = 35, .wait = PROCS_WAIT_DIRTY,
		.throttled = true, .wchan = "balance_dirty_pages" };
	rows[1] = (struct proc_row){ .pid = 77, .comm = "secret", .state = 'D', .status = RATE_OK,
		.io_hidden = true, .wait = PROCS_WAIT_UNKNOWN, .share_pct = -1 };
	rows[2] = (struct proc_row){ .pid = 12, .comm = "kworker/u8:3+flush-7:0", .state = 'R',
		.status = RATE_OK, .kind = PROCS_KIND_FLUSHER, .cpu_pct = 2, .flush_dev = "loop0",
		.flush_active = true, .share_pct = -1 };
	struct procs_summary s = { .status = RATE_OK, .ntasks = 300, .nwriting = 1, .nthrottled = 1,
		.ndstate = 2, .nwait_unknown = 1, .nhidden = 40, .write_kbps = 51200, .bo_kbps = 52000 };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	ck_assert_int_eq(procs_view_print_batch(f, &s, rows, 3), 0);
	fclose(f);
	ck_assert_msg(strstr(text, "procs 300 tasks: 1 writing 51200.0 kB/s (bo 52000.0 kB/s), 1 throttled (a guess from wchan), 2 in D state") != NULL, "%s", text);
	ck_assert_msg(strstr(text, "40 hidden (/proc/PID/io unreadable: not root)") != NULL, "%s", text);
	ck_assert_msg(strstr(text, "   4242 D    51200.0       0.0   98.5   35.0 task    -        yes dirty-limit balance_dirty_pages      dd\n") != NULL, "%s", text);
	ck_assert_msg(strstr(text, "     77 D     hidden    hidden      -    0.0 task    -        ?   unknown     -                        secret\n") != NULL, "%s", text);
	ck_assert_msg(strstr(text, "     12 R        0.0       0.0      -    2.0 flusher loop0    -   -           -                        kworker/u8:3+flush-7:0\n") != NULL, "%s", text);
	free(text);

	/* the first interval: no rates, said once */
	s.status = RATE_FIRST;
	text = NULL;
	f = open_memstream(&text, &len);
	ck_assert_int_eq(procs_view_print_batch(f, &s, rows, 0), 0);
	fclose(f);
	ck_assert_msg(strstr(text, "first process sample") != NULL, "%s", text);
	ck_assert_msg(strstr(text, "writing") == NULL, "%s", text);
	free(text);

	/* a failed write is reported, not ignored */
	f = fopen("/dev/full", "we");
	if (f) {
		ck_assert_int_eq(procs_view_print_batch(f, &s, rows, 3), -ENOSPC);
		fclose(f);
	}
}
END_TEST

/* ---- the sampler, on this machine's /proc ---- */

START_TEST(test_sample_live)
{
	struct procs_reader *r = procs_reader_new();
	ck_assert_ptr_nonnull(r);
	struct snapshot s;
	snapshot_init(&s);
	for (int round = 0; round < 2; round++) {	/* the second reuses the arrays */
		ck_assert_int_eq(procs_reader_sample(r, &s), 0);
		ck_assert_uint_gt(s.nproc, 0);
		const struct proc_counters *self = NULL;
		for (size_t i = 0; i < s.nproc; i++) {
			if (i)
				ck_assert_int_lt(s.proc[i - 1].pid, s.proc[i].pid);
			if (s.proc[i].pid == getpid())
				self = &s.proc[i];
		}
		ck_assert_ptr_nonnull(self);
		ck_assert(!self->kthread);
		ck_assert(!self->io_hidden);	/* our own io is always readable */
		ck_assert(self->state == 'R');
	}
	snapshot_free(&s);
	procs_reader_free(r);
	procs_reader_free(NULL);
}
END_TEST

Suite *procs_suite(void)
{
	Suite *s = suite_create("procs");
	TCase *tc = tcase_create("names");
	tcase_add_loop_test(tc, test_kind_of, 0, sizeof kind_cases / sizeof kind_cases[0]);
	tcase_add_loop_test(tc, test_wait_of, 0, sizeof wait_cases / sizeof wait_cases[0]);
	tcase_add_loop_test(tc, test_stack_wchan, 0, sizeof stack_cases / sizeof stack_cases[0]);
	tcase_add_test(tc, test_stack_wchan_truncates);
	suite_add_tcase(s, tc);
	tc = tcase_create("view");
	tcase_add_test(tc, test_rates_share_cpu);
	tcase_add_test(tc, test_top_n_by_write_rate);
	tcase_add_test(tc, test_traced_throttling);
	tcase_add_loop_test(tc, test_lifecycle, 0, sizeof life_cases / sizeof life_cases[0]);
	tcase_add_test(tc, test_first_sample_and_dt_zero);
	tcase_add_test(tc, test_comm_sanitized);
	tcase_add_test(tc, test_hidden_and_unknown);
	tcase_add_test(tc, test_flushers_and_kswapd);
	tcase_add_test(tc, test_idle_kernel_writer_has_row);
	tcase_add_loop_test(tc, test_group_budget, 0, sizeof budget_cases / sizeof budget_cases[0]);
	tcase_add_test(tc, test_thousands);
	tcase_add_test(tc, test_print_batch);
	suite_add_tcase(s, tc);
	tc = tcase_create("sample");
	tcase_add_test(tc, test_sample_live);
	suite_add_tcase(s, tc);
	return s;
}
