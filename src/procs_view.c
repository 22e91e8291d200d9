/*
 * procs_view.c - per-process write rates, throttling and kernel writeback
 * threads from two snapshots; the -P batch table.  (What a thread name or
 * a wchan means is parsed in procs.c, with the sampler.)
 *
 * Pure: no files, no clock.  Both proc arrays are sorted by pid, so one
 * merge pass matches every task with its previous sample; rows are kept in
 * the caller's array by bounded insertion, so thousands of processes cost
 * O(n) and nothing is allocated.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "figure.h"
#include "procs_view.h"
#include "sink.h"

/* ---- labels ---- */

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

bool procs_wait_throttled(enum procs_wait w)
{
	return w == PROCS_WAIT_DIRTY || w == PROCS_WAIT_QOS;
}

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
	};
	return (unsigned)k < NELEM(names) ? names[k] : "?";
}

/* ---- rows ---- */

struct procs_ctx {
	const struct snapshot *prev, *cur;
	bool traced;		/* cur has the writeback trace (its system values) */
	double dt_s;
	bool have_prev;		/* the previous snapshot sampled processes */
	double bo_kbps;
};

/* The same task as in the previous sample?  A pid can be reused between
 * samples; without a start time the tell is a counter that went backwards
 * or a kernel thread turning into a process.  (A new comm is not: exec
 * keeps the pid and the counters.) */
static bool procs_same_task(const struct proc_counters *p, const struct proc_counters *c)
{
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
	if (derive_x(x->prev, x->cur, SNAP_XTASK, pid, SNAP_XTASK_THROTTLED_MS, x->dt_s, &v))
		r->paused_ms_s = v;
	if (derive_x(x->prev, x->cur, SNAP_XTASK, pid, SNAP_XTASK_PAUSES, x->dt_s, &v))
		r->pauses_s = v;
	if (derive_x(x->prev, x->cur, SNAP_XTASK, pid, SNAP_XTASK_RATELIMIT_KBPS, x->dt_s, &v))
		r->ratelimit_kbps = v;
	const struct snap_xval *b = snapshot_find_x(x->cur, SNAP_XTASK, pid);
	for (; b && b < x->cur->x + x->cur->nx && b->scope == SNAP_XTASK && b->obj == pid; b++)
		if (b->kind == SNAP_XTASK_BDI) {
			r->has_bdi = true;
			r->bdi_major = (uint32_t)(b->value >> 32);
			r->bdi_minor = (uint32_t)b->value;
		}
	/* exact now: held by the dirty limits in this interval or not */
	r->throttled = r->paused_ms_s > 0;
}

static void procs_row_fill(const struct procs_ctx *x, const struct proc_counters *p,
			   const struct proc_counters *c, struct proc_row *r)
{
	char devpart[32];
	memset(r, 0, sizeof *r);
	r->pid = c->pid;
	procs_copy_text(r->comm, c->comm, sizeof r->comm);
	procs_copy_text(r->cmdline, c->cmdline, sizeof r->cmdline);
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
	r->share_pct = -1;
	/* a task new since the last sample has the trace's figures already */
	if (x->traced && x->prev && x->dt_s > 0)
		procs_row_traced(x, r);
	if (x->dt_s <= 0) {
		r->status = RATE_NODATA;
		return;
	}
	if (!x->have_prev || !p) {
		r->status = RATE_FIRST;
		return;
	}
	r->status = RATE_OK;
	r->cpu_pct = (double)((c->utime_jif - p->utime_jif) + (c->stime_jif - p->stime_jif)) * 100.0 /
		     PROCS_USER_HZ / x->dt_s;
	if (r->io_hidden)
		return;
	r->write_kbps = (double)(c->write_bytes - p->write_bytes) / 1024.0 / x->dt_s;
	r->cancelled_kbps = (double)(c->cancelled_write_bytes - p->cancelled_write_bytes) / 1024.0 / x->dt_s;
	if (x->bo_kbps > 0)
		r->share_pct = r->write_kbps * 100.0 / x->bo_kbps;
}

static bool procs_row_kernel(const struct proc_row *r)
{
	return r->kind == PROCS_KIND_FLUSHER || r->kind == PROCS_KIND_KSWAPD;
}

/* Worth a row?  Writers: writing, or in D state.  Kernel writeback
 * threads: kswapd always, flush workers when they did or do something. */
static bool procs_row_wanted(const struct proc_row *r)
{
	if (procs_row_kernel(r))
		return r->kind == PROCS_KIND_KSWAPD || r->state == 'D' || r->state == 'R' ||
		       r->flush_active || r->cpu_pct > 0;
	return r->state == 'D' || r->write_kbps > 0 || r->cancelled_kbps > 0 || r->paused_ms_s > 0;
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

/* Keep the best `room` rows of a sorted array a[0..*n). */
static void procs_rows_insert(struct proc_row *a, size_t *n, size_t room, const struct proc_row *r,
			      int (*cmp)(const struct proc_row *, const struct proc_row *))
{
	if (room == 0 || (*n == room && cmp(r, &a[room - 1]) >= 0))
		return;
	size_t i = *n < room ? *n : room - 1;
	while (i > 0 && cmp(r, &a[i - 1]) < 0) {
		a[i] = a[i - 1];
		i--;
	}
	a[i] = *r;
	if (*n < room)
		(*n)++;
}

static void procs_summary_add(struct procs_summary *s, const struct proc_row *r)
{
	s->nthrottled += r->throttled;
	s->ndstate += r->state == 'D';
	s->nwait_unknown += r->wait == PROCS_WAIT_UNKNOWN;
	s->nhidden += r->io_hidden;
	s->nnew += r->status == RATE_FIRST && s->status == RATE_OK;	/* on a first sample all are */
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
static void procs_view_scan(const struct procs_ctx *x, const struct snapshot *prev,
			    struct procs_summary *s, size_t *nw, size_t *nk, struct procs_out *out)
{
	const struct snapshot *cur = x->cur;
	size_t np = x->have_prev ? prev->nproc : 0, j = 0;
	struct proc_row r;
	for (size_t i = 0; i < cur->nproc; i++) {
		const struct proc_counters *c = &cur->proc[i];
		while (j < np && prev->proc[j].pid < c->pid) {
			j++;
			s->ngone++;
		}
		const struct proc_counters *p = NULL;
		if (j < np && prev->proc[j].pid == c->pid) {
			p = &prev->proc[j++];
			if (!procs_same_task(p, c)) {
				p = NULL;
				s->ngone++;
			}
		}
		procs_row_fill(x, p, c, &r);
		if (!out)
			procs_summary_add(s, &r);
		if (!procs_row_wanted(&r))
			continue;
		bool kernel = procs_row_kernel(&r);
		if (!out)
			(*(kernel ? nk : nw))++;
		else if (kernel)
			procs_rows_insert(out->rows + out->w_room, &out->nk, out->k_room, &r, procs_cmp_kernel);
		else
			procs_rows_insert(out->rows, &out->nw, out->w_room, &r, procs_cmp_writer);
	}
	s->ngone += np - j;
}

static double procs_bo_kbps(const struct snapshot *prev, const struct snapshot *cur, double dt_s)
{
	if (!prev || dt_s <= 0 || cur->sys.pgpgout_kb < prev->sys.pgpgout_kb)
		return -1;
	return (double)(cur->sys.pgpgout_kb - prev->sys.pgpgout_kb) / dt_s;
}

size_t procs_view_build(const struct snapshot *prev, const struct snapshot *cur, double dt_s,
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
	procs_view_scan(&x, prev, s, &nw, &nk, NULL);
	/* Both groups get at least half the room when both need more. */
	size_t k_min = nk < cap / 2 ? nk : cap / 2;
	size_t w_room = nw < cap - k_min ? nw : cap - k_min;
	size_t k_room = nk < cap - w_room ? nk : cap - w_room;
	s->nomitted = nw + nk - w_room - k_room;
	struct procs_out out = { .rows = rows, .w_room = w_room, .k_room = k_room };
	memset(&scratch, 0, sizeof scratch);
	procs_view_scan(&x, prev, &scratch, &nw, &nk, &out);
	return out.nw + out.nk;
}

/* ---- batch text ---- */

static void procs_print_summary(FILE *out, const struct procs_summary *s)
{
	fprintf(out, "procs %zu tasks:", s->ntasks);
	if (s->status == RATE_OK)
		fprintf(out, " %zu writing %.1f kB/s (bo %.1f kB/s),", s->nwriting, s->write_kbps,
			s->bo_kbps < 0 ? 0.0 : s->bo_kbps);
	else
		fputs(" first process sample, rates from the next interval,", out);
	fprintf(out, " %zu throttled%s, %zu in D state", s->nthrottled,
		s->traced ? "" : " (a guess from wchan)", s->ndstate);
	if (s->nwait_unknown)
		fprintf(out, " (%zu waiting where wchan is unreadable)", s->nwait_unknown);
	if (s->status == RATE_OK)
		fprintf(out, ", kswapd %.1f%% cpu, flushers %.1f%% cpu, %zu new, %zu exited",
			s->kswapd_cpu_pct, s->flusher_cpu_pct, s->nnew, s->ngone);
	if (s->nhidden)
		fprintf(out, ", %zu hidden (/proc/PID/io unreadable: not root)", s->nhidden);
	if (s->nomitted)
		fprintf(out, ", %zu more not shown", s->nomitted);
	fputc('\n', out);
}

/* One cell of -P: the registry row's value, "-" where there is none. */
static void procs_print_cell(FILE *out, const struct fig_proc *f, const struct proc_row *r, bool first)
{
	char text[64] = "";
	double v = 0;
	enum fig_proc_have have = f->get(r, &v, text, sizeof text);
	const char *sep = first ? "" : " ";
	if (f->form != FIG_PROC_TEXT && have == FIG_PROC_OK) {
		fprintf(out, "%s%*.1f", sep, f->width, v);
		return;
	}
	const char *word = have == FIG_PROC_HIDDEN ? "hidden" : have == FIG_PROC_NONE ? "-" : text;
	if (f->width == 0)
		fprintf(out, "%s%s", sep, word);
	else
		fprintf(out, "%s%*s", sep, f->width, word);	/* a negative width aligns left */
}

/* The trace's columns only when the sample has it: text from a source
 * without it stays as it was. */
static void procs_print_row(FILE *out, const struct proc_row *r, bool traced)
{
	for (size_t k = 0; k < fig_nproc; k++)
		if (traced || !fig_proc_table[k].traced)
			procs_print_cell(out, &fig_proc_table[k], r, k == 0);
	fputc('\n', out);
}

static void procs_print_header(FILE *out, bool traced)
{
	for (size_t k = 0; k < fig_nproc; k++) {
		const struct fig_proc *f = &fig_proc_table[k];
		if (f->traced && !traced)
			continue;
		if (f->width == 0)
			fprintf(out, "%s%s", k ? " " : "", f->title);
		else
			fprintf(out, "%s%*s", k ? " " : "", f->width, f->title);
	}
	fputc('\n', out);
}

int procs_print_batch(FILE *out, const struct procs_summary *sum, const struct proc_row *rows, size_t n)
{
	procs_print_summary(out, sum);
	procs_print_header(out, sum->traced);
	for (size_t i = 0; i < n; i++)
		procs_print_row(out, &rows[i], sum->traced);
	fputc('\n', out);
	if (fflush(out) == EOF || ferror(out))
		return errno ? -errno : -EIO;
	return 0;
}

/* ---- the -P sink ---------------------------------------------------------- */

/* After the device table of each interval: the process table. */
static int procs_sink_frame(struct sink *s, const struct frame *f)
{
	struct sink_stream *st = s->impl;
	if (!f->prev)
		return 0;
	struct proc_row rows[PROCS_BATCH_ROWS];
	struct procs_summary sum;
	size_t n = procs_view_build(f->prev, f->cur, f->sys.dt_s, rows, PROCS_BATCH_ROWS, &sum);
	int rc = procs_print_batch(st->out, &sum, rows, n);
	if (rc < 0)
		snprintf(s->errmsg, sizeof s->errmsg, "%s: %s", st->name, strerror(-rc));
	return rc;
}

static const struct sink_ops procs_sink_ops = {
	.kind = "procs", .frame = procs_sink_frame, .close = sink_stream_close,
};

struct sink *procs_sink_new(FILE *out, const char *out_name)
{
	return sink_stream_new(&procs_sink_ops, out, out_name);
}

const char *procs_row_command(const struct proc_row *r, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", r->self ? "(this wbtop) " : "", r->cmdline[0] ? r->cmdline : r->comm);
	return buf;
}
