/*
 * procs.c - what a process did in an interval, from two samples (pure).
 *
 * The parsers of what the kernel says of a task (thread names, wchans,
 * stacks: tables, not chains of ifs), the rows of an interval and their one
 * ranking, and the labels every output shows.  Both samples' proc arrays are
 * sorted by pid: one merge pass pairs them, and nothing is allocated.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/procs.h"
#include "core/ident.h"

/* ---- parsing what the kernel says of a task: wchan, stack, thread name ---- */

/* Where a wait is decided by a function name prefix.  First match wins, so
 * longer, more specific prefixes come before shorter ones. */
struct procs_wait_rule {
	const char *prefix;
	enum procs_wait wait;
};

static const struct procs_wait_rule procs_wait_rules[] = {
	/* balance_dirty_pages (often inlined into ..._ratelimited_flags)
	 * sleeps TASK_KILLABLE: the dirtier pays for the dirty limits. */
	{ "balance_dirty_pages", PROCS_WAIT_DIRTY },
	{ "throttle_vm_writeout", PROCS_WAIT_DIRTY },	/* old kernels */
	{ "wbt_wait", PROCS_WAIT_QOS },
	{ "rq_qos_wait", PROCS_WAIT_QOS },
	{ "__rq_qos_throttle", PROCS_WAIT_QOS },
	{ "blkcg_maybe_throttle", PROCS_WAIT_QOS },
	{ "folio_wait_writeback", PROCS_WAIT_WRITEBACK },
	{ "__folio_wait_writeback", PROCS_WAIT_WRITEBACK },
	{ "folio_wait_stable", PROCS_WAIT_WRITEBACK },
	{ "wait_on_page_writeback", PROCS_WAIT_WRITEBACK },
	{ "wait_for_stable_page", PROCS_WAIT_WRITEBACK },
	{ "jbd2_log_wait_commit", PROCS_WAIT_SYNC },
	{ "jbd2_complete_transaction", PROCS_WAIT_SYNC },
	{ "filemap_fdatawait", PROCS_WAIT_SYNC },
	{ "__filemap_fdatawait", PROCS_WAIT_SYNC },
	{ "filemap_write_and_wait", PROCS_WAIT_SYNC },
	{ "file_write_and_wait", PROCS_WAIT_SYNC },
	{ "wb_wait_for_completion", PROCS_WAIT_SYNC },
	{ "sync_inodes_sb", PROCS_WAIT_SYNC },
	{ "xfs_log_force", PROCS_WAIT_SYNC },
	{ "blk_mq_get_tag", PROCS_WAIT_IO },
	{ "submit_bio_wait", PROCS_WAIT_IO },
	{ "folio_wait_bit", PROCS_WAIT_IO },
	{ "__folio_lock", PROCS_WAIT_IO },
	{ "__lock_page", PROCS_WAIT_IO },
	{ "wait_on_page_bit", PROCS_WAIT_IO },
	{ "__wait_on_buffer", PROCS_WAIT_IO },
	{ "bit_wait_io", PROCS_WAIT_IO },
	{ "io_schedule", PROCS_WAIT_IO },
};

/* Frames that only say "asleep": the kernel's own wchan skips these
 * (__sched functions), and so does the stack fallback. */
static const char *const procs_sched_prefixes[] = {
	"__schedule", "schedule", "io_schedule", "preempt_schedule", "__cond_resched",
	"wait_for_completion", "__wait_for_common", "do_wait_for_common",
	"bit_wait", "out_of_line_wait_on_bit", "__wait_on_bit", "usleep_range", "msleep",
	"rwsem_down", "down_", "__down", "__mutex_lock", "mutex_lock",
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static bool procs_has_prefix(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static enum procs_wait procs_wait_lookup(const char *fn)
{
	for (size_t i = 0; i < NELEM(procs_wait_rules); i++)
		if (procs_has_prefix(fn, procs_wait_rules[i].prefix))
			return procs_wait_rules[i].wait;
	return PROCS_WAIT_OTHER;
}

static bool procs_is_sched_frame(const char *fn)
{
	for (size_t i = 0; i < NELEM(procs_sched_prefixes); i++)
		if (procs_has_prefix(fn, procs_sched_prefixes[i]))
			return true;
	return false;
}

enum procs_wait procs_wait_of(char state, const char *wchan)
{
	if (state != 'D')
		return PROCS_WAIT_NONE;
	/* "0" is what the kernel prints when it will not say (not root, or
	 * the task woke up), "-" what libproc2 makes of it. */
	if (!wchan || !wchan[0] || strcmp(wchan, "0") == 0 || strcmp(wchan, "-") == 0)
		return PROCS_WAIT_UNKNOWN;
	return procs_wait_lookup(wchan);
}

/* One stack line: "[<0>] balance_dirty_pages+0x2a1/0xb80" (older kernels
 * print the address inside the brackets).  Copies the function name. */
static bool procs_stack_frame(const char *line, size_t linelen, char *fn, size_t fnlen)
{
	const char *end = line + linelen;
	const char *p = memchr(line, ']', linelen);
	if (!p)
		return false;
	p++;
	while (p < end && *p == ' ')
		p++;
	size_t n = 0;
	while (p + n < end && p[n] != '+' && p[n] != ' ')
		n++;
	if (n == 0 || n >= fnlen)
		return false;
	memcpy(fn, p, n);
	fn[n] = '\0';
	return true;
}

void procs_stack_wchan(const char *stack, char *wchan, size_t len)
{
	char fn[128], first[128] = "";
	if (len)
		wchan[0] = '\0';
	for (const char *line = stack; line && *line; ) {
		const char *nl = strchr(line, '\n');
		size_t n = nl ? (size_t)(nl - line) : strlen(line);
		if (procs_stack_frame(line, n, fn, sizeof fn) && !procs_is_sched_frame(fn)) {
			if (procs_wait_lookup(fn) != PROCS_WAIT_OTHER) {
				snprintf(wchan, len, "%s", fn);
				return;
			}
			if (!first[0])
				snprintf(first, sizeof first, "%s", fn);
		}
		line = nl ? nl + 1 : NULL;
	}
	snprintf(wchan, len, "%s", first);
}

/* "7:0" -> 7, 0; anything else (a bdi name like "btrfs-1") -> false. */
static bool procs_parse_devnum(const char *s, uint32_t *major, uint32_t *minor)
{
	char *end;
	if (*s < '0' || *s > '9')
		return false;
	unsigned long ma = strtoul(s, &end, 10);
	if (*end != ':' || end[1] < '0' || end[1] > '9')
		return false;
	unsigned long mi = strtoul(end + 1, &end, 10);
	if (*end != '\0' || ma > UINT32_MAX || mi > UINT32_MAX)
		return false;
	*major = (uint32_t)ma;
	*minor = (uint32_t)mi;
	return true;
}

/* Kernel thread names that do writeback or reclaim, across kernel
 * generations: 2.6.32-3.x had a "flush-MAJ:MIN" thread per device and a
 * "bdi-default" forker, earlier kernels a pool of "pdflush" threads;
 * today a workqueue worker describes its work after "+" (running) or "-"
 * (last ran): "kworker/u8:3+flush-7:0". */
struct procs_kind_rule {
	const char *prefix;
	enum procs_kind kind;
	bool dev_follows;	/* the device part follows the prefix */
};

static const struct procs_kind_rule procs_kind_rules[] = {
	{ "flush-", PROCS_KIND_FLUSHER, true },
	{ "pdflush", PROCS_KIND_FLUSHER, false },
	{ "bdi-default", PROCS_KIND_FLUSHER, false },
	{ "kswapd", PROCS_KIND_KSWAPD, false },
};

enum procs_kind procs_kind_of(const char *comm, bool kthread, uint32_t *major, uint32_t *minor,
			      char *dev, size_t devlen, bool *active)
{
	uint32_t ma = 0, mi = 0;
	bool act = false;
	const char *devpart = NULL;
	enum procs_kind kind = kthread ? PROCS_KIND_KTHREAD : PROCS_KIND_TASK;
	/* A user process may call itself "flush-8:0"; only kernel threads count. */
	if (kthread) {
		const char *name = comm;
		bool dedicated = true;
		if (procs_has_prefix(comm, "kworker/")) {
			const char *sep = strpbrk(comm + 8, "+-");
			name = sep ? sep + 1 : "";
			act = sep && *sep == '+';
			dedicated = false;
		}
		for (size_t i = 0; i < NELEM(procs_kind_rules); i++) {
			const struct procs_kind_rule *r = &procs_kind_rules[i];
			if (!procs_has_prefix(name, r->prefix) || (!dedicated && r->kind != PROCS_KIND_FLUSHER))
				continue;
			kind = r->kind;
			devpart = r->dev_follows ? name + strlen(r->prefix) : "";
			act = dedicated || act;
			break;
		}
	}
	if (kind == PROCS_KIND_FLUSHER && !procs_parse_devnum(devpart, &ma, &mi))
		ma = mi = 0;
	if (kind != PROCS_KIND_FLUSHER)
		act = false;
	if (major)
		*major = ma;
	if (minor)
		*minor = mi;
	if (dev && devlen)
		snprintf(dev, devlen, "%s", devpart ? devpart : "");
	if (active)
		*active = act;
	return kind;
}


bool procs_wait_throttled(enum procs_wait w)
{
	return w == PROCS_WAIT_DIRTY || w == PROCS_WAIT_QOS;
}

/* ---- an interval's rows and their ranking (pure) ---- */

struct procs_ctx {
	const struct snapshot *prev, *cur;
	bool traced;		/* cur has the writeback trace (its system values) */
	double dt_s;
	bool have_prev;		/* the previous snapshot sampled processes */
	double bo_kbps;
};

/* The same task as in the previous sample?  A pid can be reused between
 * samples: the start time tells, and where there is none (a replay) a
 * counter that went backwards or a kernel thread turning into a process.
 * (A new comm is not: exec keeps the pid and the counters.) */
static bool procs_same_task(const struct proc_counters *p, const struct proc_counters *c)
{
	if (p->start_tics && c->start_tics && p->start_tics != c->start_tics)
		return false;
	if (p->kthread != c->kthread || c->utime_jif < p->utime_jif || c->stime_jif < p->stime_jif)
		return false;
	if (p->io_hidden || c->io_hidden)
		return true;
	return c->write_bytes >= p->write_bytes && c->read_bytes >= p->read_bytes &&
	       c->cancelled_write_bytes >= p->cancelled_write_bytes;
}

static void procs_row_flush_dev(const struct procs_ctx *x, const struct proc_counters *c,
				const char *devpart, struct proc_row *r)
{
	/* The sampler parsed the full name; comm may have been cut short. */
	if (c->flush_major || c->flush_minor) {
		r->flush_major = c->flush_major;
		r->flush_minor = c->flush_minor;
	}
	const struct dev_counters *d = NULL;
	if ((r->flush_major || r->flush_minor) && x->cur->ndev)
		d = snapshot_find_dev(x->cur, r->flush_major, r->flush_minor);
	if (d)
		snprintf(r->flush_dev, sizeof r->flush_dev, "%s", d->name);
	else if (r->flush_major || r->flush_minor)
		snprintf(r->flush_dev, sizeof r->flush_dev, "%" PRIu32 ":%" PRIu32, r->flush_major, r->flush_minor);
	else
		snprintf(r->flush_dev, sizeof r->flush_dev, "%s", devpart[0] ? devpart : "*");
}

/* A process names itself, and a recording may hold anything: control
 * characters (a newline would forge a line of batch output, an escape
 * would move the cursor) become '?', and the source needs no NUL. */
static void procs_copy_text(char *dst, const char *src, size_t len)
{
	size_t i = 0;
	for (; i + 1 < len && src[i]; i++)
		dst[i] = (unsigned char)src[i] < 0x20 || src[i] == 0x7f ? '?' : src[i];
	dst[i] = '\0';
}

/* A task's figures from the writeback trace.  A task the trace has not
 * seen paused recently has none: it was not throttled. */
static void procs_row_traced(const struct procs_ctx *x, struct proc_row *r)
{
	uint64_t pid = (uint64_t)(uint32_t)r->pid;
	double v;
	r->traced = true;
	r->ratelimit_kbps = -1;
	const struct snap_xval *b = snapshot_find_x(x->cur, SNAP_XTASK, pid);
	if (!b) {	/* most tasks: none of the trace's values, nothing more to look up */
		r->throttled = false;
		return;
	}
	if (derive_x(x->prev, x->cur, SNAP_XTASK, pid, SNAP_XTASK_THROTTLED_MS, x->dt_s, &v))
		r->paused_ms_s = v;
	if (derive_x(x->prev, x->cur, SNAP_XTASK, pid, SNAP_XTASK_PAUSES, x->dt_s, &v))
		r->pauses_s = v;
	if (derive_x(x->prev, x->cur, SNAP_XTASK, pid, SNAP_XTASK_RATELIMIT_KBPS, x->dt_s, &v))
		r->ratelimit_kbps = v;
	for (; b < x->cur->x + x->cur->nx && b->scope == SNAP_XTASK && b->obj == pid; b++)
		if (b->kind == SNAP_XTASK_BDI) {
			r->has_bdi = true;
			r->bdi_major = (uint32_t)(b->value >> 32);
			r->bdi_minor = (uint32_t)b->value;
		}
	/* exact now: held by the dirty limits in this interval or not */
	r->throttled = r->paused_ms_s > 0;
}

/* A device's name as the rows show it: its dm name, else its kernel name,
 * else MAJ:MIN. */
static void procs_dev_name(const struct snapshot *cur, uint64_t dev, char *b, size_t n)
{
	uint32_t ma = (uint32_t)(dev >> 32), mi = (uint32_t)dev;
	const struct dev_counters *d = cur->ndev ? snapshot_find_dev(cur, ma, mi) : NULL;
	if (d && d->ident && d->ident->dm_name && d->ident->dm_name[0])
		snprintf(b, n, "%s", d->ident->dm_name);
	else if (d)
		snprintf(b, n, "%s", d->name);
	else
		snprintf(b, n, "%" PRIu32 ":%" PRIu32, ma, mi);
}

/* The devices a task writes to: the one the trace saw it held on while it
 * is throttled, else those of its files open for writing, else the one it
 * was last held on. */
static void procs_row_devs(const struct procs_ctx *x, const struct proc_counters *c, struct proc_row *r)
{
	uint64_t bdi = (uint64_t)r->bdi_major << 32 | r->bdi_minor;
	bool more = false;
	r->ndev = 0;
	if (r->has_bdi && (r->paused_ms_s > 0 || c->nwdev == 0)) {
		r->devs[r->ndev++] = bdi;
	} else {
		for (uint8_t i = 0; i < c->nwdev && i < SNAP_WDEV_MAX; i++)
			r->devs[r->ndev++] = c->wdev[i];
		more = c->wdev_more;
	}
	size_t at = 0;
	r->dev[0] = '\0';
	for (uint8_t i = 0; i < r->ndev && at + 1 < sizeof r->dev; i++) {
		char name[40];
		procs_dev_name(x->cur, r->devs[i], name, sizeof name);
		int w = snprintf(r->dev + at, sizeof r->dev - at, "%s%s", i ? "," : "", name);
		at = w < 0 ? at : at + (size_t)w < sizeof r->dev ? at + (size_t)w : sizeof r->dev - 1;
	}
	if (more && at + 2 < sizeof r->dev)
		snprintf(r->dev + at, sizeof r->dev - at, "+");
}

static void procs_row_fill(const struct procs_ctx *x, const struct proc_counters *p,
			   const struct proc_counters *c, struct proc_row *r)
{
	char devpart[32];
	memset(r, 0, sizeof *r);
	r->pid = c->pid;
	procs_copy_text(r->comm, c->comm, sizeof r->comm);
	/* r->cmdline: filled once the row is kept (procs_rows_insert's caller) */
	r->self = c->self;
	r->state = c->state;
	r->kind = procs_kind_of(r->comm, c->kthread, &r->flush_major, &r->flush_minor,
				devpart, sizeof devpart, &r->flush_active);
	if (r->kind == PROCS_KIND_FLUSHER)
		procs_row_flush_dev(x, c, devpart, r);
	procs_copy_text(r->wchan, c->wchan, sizeof r->wchan < sizeof c->wchan ? sizeof r->wchan : sizeof c->wchan);
	r->wait = procs_wait_of(c->state, r->wchan);
	r->throttled = procs_wait_throttled(r->wait);
	if (r->wait == PROCS_WAIT_NONE || r->wait == PROCS_WAIT_UNKNOWN)
		r->wchan[0] = '\0';
	r->io_hidden = c->io_hidden || (p && p->io_hidden);
	r->exited = c->state == PROCS_STATE_EXITED;
	r->share_pct = -1;	/* once the total is known (procs_rank) */
	/* a task new since the last sample has the trace's figures already */
	if (x->traced && x->prev && x->dt_s > 0)
		procs_row_traced(x, r);
	if (r->kind == PROCS_KIND_TASK || r->kind == PROCS_KIND_KTHREAD)
		procs_row_devs(x, c, r);
	if (x->dt_s <= 0) {
		r->status = RATE_NODATA;
		return;
	}
	r->born = !p;
	/* A process not in the previous sample was born since (fork starts its
	 * counters at zero), unless the sample is a replay's, which keeps only
	 * some processes (no start time): then its rates start next interval. */
	if (!x->have_prev || (!p && !r->exited && !c->start_tics)) {
		r->status = RATE_FIRST;
		return;
	}
	r->status = RATE_OK;
	uint64_t pu = p ? p->utime_jif + p->stime_jif : 0;
	if (!r->exited)	/* an exited one's time is its last read: not known */
		r->cpu_pct = (double)(c->utime_jif + c->stime_jif - pu) * 100.0 / PROCS_USER_HZ / x->dt_s;
	if (r->io_hidden)
		return;
	uint64_t pw = p ? p->write_bytes : 0, pc = p ? p->cancelled_write_bytes : 0;
	r->write_kbps = (double)(c->write_bytes - pw) / 1024.0 / x->dt_s;
	r->cancelled_kbps = (double)(c->cancelled_write_bytes - pc) / 1024.0 / x->dt_s;
}

static bool procs_row_kernel(const struct proc_row *r)
{
	return r->kind == PROCS_KIND_FLUSHER || r->kind == PROCS_KIND_KSWAPD;
}

/* Worth a row?  Writers: writing, or in D state.  Kernel writeback
 * threads: kswapd always, flush workers when they did or do something.
 * Any task that dirtied pages gets one: the rows add up to the summary
 * (an idle flush worker charged 4 kB did not). */
static bool procs_row_wanted(const struct proc_row *r)
{
	if (r->write_kbps > 0 || r->cancelled_kbps > 0)
		return true;
	if (procs_row_kernel(r))
		return r->kind == PROCS_KIND_KSWAPD || r->state == 'D' || r->state == 'R' ||
		       r->flush_active || r->cpu_pct > 0;
	return r->state == 'D' || r->paused_ms_s > 0;
}

/* Negative when a ranks before b. */
static int procs_cmp_writer(const struct proc_row *a, const struct proc_row *b)
{
	if (a->write_kbps != b->write_kbps)
		return a->write_kbps > b->write_kbps ? -1 : 1;
	if (a->throttled != b->throttled)
		return a->throttled ? -1 : 1;
	if ((a->state == 'D') != (b->state == 'D'))
		return a->state == 'D' ? -1 : 1;
	if (a->cpu_pct != b->cpu_pct)
		return a->cpu_pct > b->cpu_pct ? -1 : 1;
	return a->pid < b->pid ? -1 : a->pid > b->pid;
}

static int procs_cmp_kernel(const struct proc_row *a, const struct proc_row *b)
{
	if (a->cpu_pct != b->cpu_pct)
		return a->cpu_pct > b->cpu_pct ? -1 : 1;
	if (a->flush_active != b->flush_active)
		return a->flush_active ? -1 : 1;
	return a->pid < b->pid ? -1 : a->pid > b->pid;
}

/* Keep the best `room` rows of a sorted array a[0..*n).  Returns where r
 * went, NULL if it did not. */
static struct proc_row *procs_rows_insert(struct proc_row *a, size_t *n, size_t room, const struct proc_row *r,
					  int (*cmp)(const struct proc_row *, const struct proc_row *))
{
	if (room == 0 || (*n == room && cmp(r, &a[room - 1]) >= 0))
		return NULL;
	size_t i = *n < room ? *n : room - 1;
	while (i > 0 && cmp(r, &a[i - 1]) < 0) {
		a[i] = a[i - 1];
		i--;
	}
	a[i] = *r;
	if (*n < room)
		(*n)++;
	return &a[i];
}

static void procs_summary_add(struct procs_summary *s, const struct proc_row *r)
{
	s->nthrottled += r->throttled;
	s->ndstate += r->state == 'D';
	s->nwait_unknown += r->wait == PROCS_WAIT_UNKNOWN;
	s->nhidden += r->io_hidden;
	s->nnew += r->born && !r->exited && s->status == RATE_OK;	/* on a first sample all are */
	if (r->status != RATE_OK)
		return;
	s->nwriting += r->write_kbps > 0;
	s->write_kbps += r->write_kbps;
	s->cancelled_kbps += r->cancelled_kbps;
	if (r->kind == PROCS_KIND_FLUSHER)
		s->flusher_cpu_pct += r->cpu_pct;
	else if (r->kind == PROCS_KIND_KSWAPD)
		s->kswapd_cpu_pct += r->cpu_pct;
}

/* Where pass 2 puts the rows of each group. */
struct procs_out {
	struct proc_row *rows;
	size_t w_room, k_room, nw, nk;
};

/* One merge pass over prev and cur.  Pass 1 (out == NULL) counts the
 * wanted rows of each group and fills the summary; pass 2 places them. */
static void procs_rank_scan(const struct procs_ctx *x, const struct snapshot *prev,
			    struct procs_summary *s, size_t *nw, size_t *nk, struct procs_out *out)
{
	const struct snapshot *cur = x->cur;
	size_t np = x->have_prev ? prev->nproc : 0, j = 0;
	struct proc_row r;
	for (size_t i = 0; i < cur->nproc; i++) {
		const struct proc_counters *c = &cur->proc[i];
		/* an exited process is counted gone in the sample that shows it */
		while (j < np && prev->proc[j].pid < c->pid)
			s->ngone += prev->proc[j++].state != PROCS_STATE_EXITED;
		const struct proc_counters *p = NULL;
		if (j < np && prev->proc[j].pid == c->pid) {
			p = &prev->proc[j++];
			if (!procs_same_task(p, c)) {
				s->ngone += p->state != PROCS_STATE_EXITED;
				p = NULL;
			}
		}
		if (c->state == PROCS_STATE_EXITED) {
			s->ngone++;
			s->nexited++;
		}
		procs_row_fill(x, p, c, &r);
		if (!out)
			procs_summary_add(s, &r);
		if (!procs_row_wanted(&r))
			continue;
		bool kernel = procs_row_kernel(&r);
		if (!out) {
			(*(kernel ? nk : nw))++;
			continue;
		}
		struct proc_row *kept = kernel ?
			procs_rows_insert(out->rows + out->w_room, &out->nk, out->k_room, &r, procs_cmp_kernel) :
			procs_rows_insert(out->rows, &out->nw, out->w_room, &r, procs_cmp_writer);
		/* the longest text of a row, copied only for the rows kept */
		/* (an exited process's is its last sample's) */
		if (kept)
			procs_copy_text(kept->cmdline, !c->cmdline[0] && p ? p->cmdline : c->cmdline,
					sizeof kept->cmdline);
	}
	while (j < np)
		s->ngone += prev->proc[j++].state != PROCS_STATE_EXITED;
}

/* The row of the tasks not shown: what the summary counts and the rows do not. */
static void procs_row_other(const struct procs_summary *s, const struct proc_row *rows, size_t n,
			    struct proc_row *o)
{
	double w = s->write_kbps, c = s->cancelled_kbps;
	for (size_t i = 0; i < n; i++)
		if (rows[i].status == RATE_OK && !rows[i].io_hidden) {
			w -= rows[i].write_kbps;
			c -= rows[i].cancelled_kbps;
		}
	memset(o, 0, sizeof *o);
	o->kind = PROCS_KIND_OTHER;
	o->state = '-';
	o->status = s->status;
	o->nother = s->nomitted;
	o->share_pct = -1;
	snprintf(o->comm, sizeof o->comm, "other");
	/* rounding of the subtraction: never a negative rate */
	o->write_kbps = w > 0 ? w : 0;
	o->cancelled_kbps = c > 0 ? c : 0;
}

size_t procs_dev_writers(const struct snapshot *prev, const struct snapshot *cur, double dt_s, uint32_t major,
			 uint32_t minor)
{
	if (!prev || !prev->nproc || dt_s <= 0)
		return 0;
	struct procs_ctx x = {
		.prev = prev, .cur = cur, .dt_s = dt_s, .have_prev = true,
		.traced = snapshot_find_x(cur, SNAP_XSYS, 0) != NULL,
	};
	uint64_t dev = (uint64_t)major << 32 | minor;
	size_t n = 0, j = 0;
	struct proc_row r;
	for (size_t i = 0; i < cur->nproc; i++) {
		const struct proc_counters *c = &cur->proc[i];
		while (j < prev->nproc && prev->proc[j].pid < c->pid)
			j++;
		const struct proc_counters *p = NULL;
		if (j < prev->nproc && prev->proc[j].pid == c->pid && procs_same_task(&prev->proc[j], c))
			p = &prev->proc[j];
		/* most tasks wrote nothing: told before the row is made */
		if (c->io_hidden || (p && c->write_bytes == p->write_bytes) || (!p && !c->write_bytes))
			continue;
		procs_row_fill(&x, p, c, &r);
		if (r.status != RATE_OK || r.write_kbps <= 0 || r.kind == PROCS_KIND_FLUSHER)
			continue;
		for (uint8_t k = 0; k < r.ndev; k++)
			if (r.devs[k] == dev) {
				n++;
				break;
			}
	}
	return n;
}

static double procs_bo_kbps(const struct snapshot *prev, const struct snapshot *cur, double dt_s)
{
	if (!prev || dt_s <= 0 || cur->sys.pgpgout_kb < prev->sys.pgpgout_kb)
		return -1;
	return (double)(cur->sys.pgpgout_kb - prev->sys.pgpgout_kb) / dt_s;
}

size_t procs_rank(const struct snapshot *prev, const struct snapshot *cur, double dt_s,
			struct proc_row *rows, size_t cap, struct procs_summary *sum)
{
	struct procs_summary local, scratch;
	struct procs_summary *s = sum ? sum : &local;
	memset(s, 0, sizeof *s);
	struct procs_ctx x = {
		.prev = prev,
		.cur = cur,
		.traced = snapshot_find_x(cur, SNAP_XSYS, 0) != NULL,
		.dt_s = dt_s,
		.have_prev = prev && prev->nproc > 0,
		.bo_kbps = procs_bo_kbps(prev, cur, dt_s),
	};
	s->status = dt_s <= 0 ? RATE_NODATA : x.have_prev ? RATE_OK : RATE_FIRST;
	s->ntasks = cur->nproc;
	s->bo_kbps = x.bo_kbps;
	s->traced = x.traced;
	size_t nw = 0, nk = 0;
	procs_rank_scan(&x, prev, s, &nw, &nk, NULL);
	/* When not all fit, one row is the other tasks' (for a display: a
	 * caller without a summary, the recorder, wants processes only). */
	bool other = sum && nw + nk > cap && cap >= 2;
	size_t room = other ? cap - 1 : cap;
	/* Both groups get at least half the room when both need more. */
	size_t k_min = nk < room / 2 ? nk : room / 2;
	size_t w_room = nw < room - k_min ? nw : room - k_min;
	size_t k_room = nk < room - w_room ? nk : room - w_room;
	s->nomitted = nw + nk - w_room - k_room;
	struct procs_out out = { .rows = rows, .w_room = w_room, .k_room = k_room };
	memset(&scratch, 0, sizeof scratch);
	procs_rank_scan(&x, prev, &scratch, &nw, &nk, &out);
	size_t n = out.nw + out.nk;
	if (other) {	/* after the writers, before the kernel's threads */
		struct proc_row o;
		procs_row_other(s, rows, n, &o);
		memmove(rows + out.nw + 1, rows + out.nw, out.nk * sizeof *rows);
		rows[out.nw] = o;
		n++;
	}
	/* a share of all tasks' dirtying in the interval */
	for (size_t i = 0; i < n; i++)
		if (rows[i].status == RATE_OK && !rows[i].io_hidden && s->write_kbps > 0)
			rows[i].share_pct = rows[i].write_kbps * 100.0 / s->write_kbps;
	return n;
}

/* ---- labels ---- */

const char *procs_wait_name(enum procs_wait w)
{
	static const char *const names[] = {
		[PROCS_WAIT_NONE] = "-", [PROCS_WAIT_UNKNOWN] = "unknown",
		[PROCS_WAIT_DIRTY] = "dirty-limit", [PROCS_WAIT_QOS] = "blk-qos",
		[PROCS_WAIT_WRITEBACK] = "writeback", [PROCS_WAIT_SYNC] = "sync",
		[PROCS_WAIT_IO] = "io", [PROCS_WAIT_OTHER] = "other",
	};
	return (unsigned)w < NELEM(names) ? names[w] : "?";
}

const char *procs_kind_name(enum procs_kind k)
{
	static const char *const names[] = {
		[PROCS_KIND_TASK] = "task", [PROCS_KIND_KTHREAD] = "kthread",
		[PROCS_KIND_FLUSHER] = "flusher", [PROCS_KIND_KSWAPD] = "kswapd",
		[PROCS_KIND_OTHER] = "other",
	};
	return (unsigned)k < NELEM(names) ? names[k] : "?";
}

const char *procs_row_command(const struct proc_row *r, char *buf, size_t len)
{
	if (r->kind == PROCS_KIND_OTHER) {
		snprintf(buf, len, "(%zu more task%s)", r->nother, r->nother == 1 ? "" : "s");
		return buf;
	}
	snprintf(buf, len, "%s%s%s", r->self ? "(this wbtop) " : "", r->exited ? "(exited) " : "",
		 r->cmdline[0] ? r->cmdline : r->comm);
	return buf;
}
