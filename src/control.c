/*
 * control.c - changing writeback knobs: the kernel's rules (pure), then the
 * writes, read-backs, events, undo, revert and the dead-man timer.
 *
 * The rules follow mm/page-writeback.c and mm/backing-dev.c:
 *  - dirty_ratio and dirty_background_ratio: 0..100.
 *  - dirty_bytes: at least 2 pages (proc_doulongvec_minmax, extra1 =
 *    dirty_bytes_min); 0 is refused, so the way back to a ratio is writing
 *    the ratio.  dirty_background_bytes: at least 1; we ask for 2 pages too,
 *    anything smaller means "always write back" and is a typo in practice.
 *  - writing dirty_ratio zeroes dirty_bytes when the ratio changes, writing
 *    dirty_bytes zeroes dirty_ratio when the bytes change; the background
 *    pair zeroes its partner on every write.
 *  - when the background threshold is at or above the hard limit the kernel
 *    uses half the hard limit instead (domain_dirty_limits).
 *  - a BDI's limits are kept in millionths (BDI_RATIO_SCALE 10000 per cent):
 *    min <= max is enforced, and *_bytes are turned into a share of the
 *    current dirty limit, so more than the whole limit is refused.
 * This file is not a view: it returns 0 or -errno, never prints.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "control.h"
#include "snapshot.h"

#define CONTROL_FINE_SCALE 10000	/* BDI_RATIO_SCALE: millionths per per cent */
#define CONTROL_FINE_FULL 1000000	/* 100 % in millionths */

/* ------------------------------------------------------------------ */
/* small helpers                                                       */

/* Append printf text to buf (always terminated, silently cut when full). */
static void control_cat(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void control_cat(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strnlen(buf, len);
	if (used + 1 >= len)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

/* "; " between clauses of a message. */
static void control_clause(char *buf, size_t len, const char *text)
{
	control_cat(buf, len, "%s%s", buf[0] ? "; " : "", text);
}

static uint64_t control_page(const struct control_ctx *ctx)
{
	return ctx->page_size ? ctx->page_size : 4096;
}

const struct knob_def *control_def(const struct control_ref *ref)
{
	if (ref->index < 0)
		return NULL;
	if (ref->bdi)
		return ref->index < KNOB_BDI_COUNT ? &knob_bdi_table[ref->index] : NULL;
	return ref->index < KNOB_VM_COUNT ? &knob_vm_table[ref->index] : NULL;
}

static const char *control_fmt(const struct knob_def *def, int64_t v, char *buf, size_t len)
{
	return knob_format_value(def->kind, v, buf, len);
}

/* Bytes for people; "~" marks an estimate, "?" an unknown (0). */
static const char *control_fmt_bytes(uint64_t v, bool approx, char *buf, size_t len)
{
	char num[24];
	if (!v && approx) {
		snprintf(buf, len, "?");
		return buf;
	}
	knob_format_value(KNOB_KIND_BYTES, v > INT64_MAX ? INT64_MAX : (int64_t)v, num, sizeof num);
	snprintf(buf, len, "%s%s", approx ? "~" : "", num);
	return buf;
}

/* ------------------------------------------------------------------ */
/* the pure part: groups, prediction, validation, explanation          */

/* Which BDI limit (min or max) an index belongs to: its three views. */
static bool control_bdi_group(int index, int *ratio, int *fine, int *bytes)
{
	switch (index) {
	case BDI_MIN_RATIO: case BDI_MIN_RATIO_FINE: case BDI_MIN_BYTES:
		*ratio = BDI_MIN_RATIO, *fine = BDI_MIN_RATIO_FINE, *bytes = BDI_MIN_BYTES;
		return true;
	case BDI_MAX_RATIO: case BDI_MAX_RATIO_FINE: case BDI_MAX_BYTES:
		*ratio = BDI_MAX_RATIO, *fine = BDI_MAX_RATIO_FINE, *bytes = BDI_MAX_BYTES;
		return true;
	default:
		return false;
	}
}

/* A BDI limit in millionths from whichever view is known; -1 unknown. */
static int64_t control_bdi_fine(const int64_t bdi[KNOB_BDI_COUNT], int ratio, int fine)
{
	if (bdi[fine] >= 0)
		return bdi[fine];
	return bdi[ratio] >= 0 ? bdi[ratio] * CONTROL_FINE_SCALE : -1;
}

/* Millionths of the dirty limit that value (of kind) stands for; -1 if it
 * can't be known (bytes without a known limit). */
static int64_t control_to_fine(enum knob_kind kind, int64_t value, const struct control_ctx *ctx)
{
	if (kind == KNOB_KIND_RATIO)
		return value * CONTROL_FINE_SCALE;
	if (kind == KNOB_KIND_RATIO_FINE)
		return value;
	uint64_t page = control_page(ctx);
	uint64_t thresh_pages = ctx->dirty_thresh_bytes / page;
	if (!thresh_pages)
		return -1;
	/* bdi_ratio_from_pages(): pages * 100 * SCALE / dirty_thresh */
	unsigned __int128 f = (unsigned __int128)((uint64_t)value / page) * CONTROL_FINE_FULL;
	f /= thresh_pages;
	return f > INT64_MAX ? INT64_MAX : (int64_t)f;
}

static void control_predict_bdi(int index, int64_t value, struct control_ctx *after)
{
	int r, f, b;
	if (!control_bdi_group(index, &r, &f, &b)) {
		after->bdi[index] = value;
		return;
	}
	int64_t fine = control_to_fine(knob_bdi_table[index].kind, value, after);
	if (fine < 0) {		/* bytes with no known limit: only that view is sure */
		after->bdi[index] = value;
		return;
	}
	if (after->bdi[f] >= 0)
		after->bdi[f] = fine;
	if (after->bdi[r] >= 0)
		after->bdi[r] = fine / CONTROL_FINE_SCALE;
	if (after->bdi[b] >= 0) {
		if (index == b)
			after->bdi[b] = value;
		else if (after->dirty_thresh_bytes)	/* bdi_get_bytes() */
			after->bdi[b] = (int64_t)((unsigned __int128)after->dirty_thresh_bytes
						  * (uint64_t)fine / CONTROL_FINE_FULL);
	}
}

void control_predict(const struct control_ref *ref, int64_t value,
		     const struct control_ctx *ctx, struct control_ctx *after)
{
	*after = *ctx;
	if (ref->bdi) {
		control_predict_bdi(ref->index, value, after);
		return;
	}
	int64_t *vm = after->vm;
	switch (ref->index) {
	case KNOB_DIRTY_RATIO:	/* dirty_ratio_handler: only when it changes */
		if (value != vm[KNOB_DIRTY_RATIO])
			vm[KNOB_DIRTY_BYTES] = 0;
		break;
	case KNOB_DIRTY_BYTES:
		if (value != vm[KNOB_DIRTY_BYTES])
			vm[KNOB_DIRTY_RATIO] = 0;
		break;
	case KNOB_DIRTY_BG_RATIO:	/* the background handlers: on every write */
		vm[KNOB_DIRTY_BG_BYTES] = 0;
		break;
	case KNOB_DIRTY_BG_BYTES:
		vm[KNOB_DIRTY_BG_RATIO] = 0;
		break;
	default:
		break;
	}
	vm[ref->index] = value;
}

/* The limit a ratio/bytes pair sets, in bytes; *approx when it is a share
 * of memory (an estimate), 0 with *approx when unknown. */
static uint64_t control_pair_bytes(const struct control_ctx *ctx, const int64_t vm[KNOB_VM_COUNT],
				   bool background, bool *approx)
{
	int64_t bytes = vm[background ? KNOB_DIRTY_BG_BYTES : KNOB_DIRTY_BYTES];
	int64_t ratio = vm[background ? KNOB_DIRTY_BG_RATIO : KNOB_DIRTY_RATIO];
	*approx = bytes <= 0;
	if (bytes > 0)
		return (uint64_t)bytes;
	if (ratio < 0)
		return 0;
	return ctx->dirtyable_bytes / 100 * (uint64_t)ratio;
}

/* Background at or above the hard limit: warn, the kernel uses half. */
static void control_check_bg(const struct control_ctx *after, char *msg, size_t len)
{
	const int64_t *vm = after->vm;
	bool both_ratio = vm[KNOB_DIRTY_BYTES] <= 0 && vm[KNOB_DIRTY_BG_BYTES] <= 0;
	bool fg_approx, bg_approx;
	uint64_t fg = control_pair_bytes(after, vm, false, &fg_approx);
	uint64_t bg = control_pair_bytes(after, vm, true, &bg_approx);
	bool above;
	if (both_ratio)	/* exact, no memory estimate needed */
		above = vm[KNOB_DIRTY_RATIO] >= 0 && vm[KNOB_DIRTY_BG_RATIO] >= vm[KNOB_DIRTY_RATIO];
	else
		above = fg && bg && bg >= fg;
	if (!above)
		return;
	char a[32], b[32], t[160];
	if (both_ratio)
		snprintf(t, sizeof t, "background ratio (%" PRId64 "%%) at or above dirty_ratio (%" PRId64
			 "%%): the kernel uses half the hard limit instead",
			 vm[KNOB_DIRTY_BG_RATIO], vm[KNOB_DIRTY_RATIO]);
	else
		snprintf(t, sizeof t, "background threshold (%s) at or above the hard limit (%s): "
			 "the kernel uses half the hard limit instead",
			 control_fmt_bytes(bg, bg_approx, a, sizeof a),
			 control_fmt_bytes(fg, fg_approx, b, sizeof b));
	control_clause(msg, len, t);
}

static int control_validate_vm(int index, int64_t value, const struct control_ctx *ctx,
			       char *msg, size_t len)
{
	const struct knob_def *def = &knob_vm_table[index];
	uint64_t page = control_page(ctx);
	char a[32];

	if (def->kind == KNOB_KIND_BYTES) {
		const char *ratio = knob_vm_table[def->partner].name;
		if (value == 0) {
			snprintf(msg, len, "the kernel refuses 0; to go back to a ratio set %s "
				 "(writing it zeroes %s)", ratio, def->file);
			return -EINVAL;
		}
		if ((uint64_t)value < 2 * page) {
			snprintf(msg, len, "below two pages (%" PRIu64 " bytes): the kernel refuses or ignores it",
				 2 * page);
			return -EINVAL;
		}
	}
	struct control_ctx after;
	struct control_ref ref = { .bdi = false, .index = index };
	control_predict(&ref, value, ctx, &after);
	if (index == KNOB_DIRTY_RATIO && value == 0 && after.vm[KNOB_DIRTY_BYTES] <= 0)
		control_clause(msg, len, "0% leaves no room for dirty data: every buffered writer is throttled");
	if (index == KNOB_DIRTY_BG_RATIO && value == 0 && after.vm[KNOB_DIRTY_BG_BYTES] <= 0)
		control_clause(msg, len, "0%: background writeback runs all the time");
	if (index == KNOB_DIRTY_BYTES && ctx->mem_total_bytes && (uint64_t)value >= ctx->mem_total_bytes) {
		char t[128];
		snprintf(t, sizeof t, "at or above total memory (%s): writers are never throttled",
			 control_fmt_bytes(ctx->mem_total_bytes, false, a, sizeof a));
		control_clause(msg, len, t);
	}
	if (index == KNOB_DIRTY_WRITEBACK_CS && value == 0)
		control_clause(msg, len, "0 disables periodic writeback: dirty data waits for the "
			       "thresholds or memory pressure");
	if (index == KNOB_DIRTY_EXPIRE_CS && value == 0)
		control_clause(msg, len, "0: all dirty data counts as expired at every flusher wake-up");
	if (index <= KNOB_DIRTY_BG_BYTES)
		control_check_bg(&after, msg, len);
	return msg[0] ? 1 : 0;
}

static int control_validate_bdi(int index, int64_t value, const struct control_ctx *ctx,
				char *msg, size_t len)
{
	int r, f, b;
	if (!control_bdi_group(index, &r, &f, &b))
		return 0;
	char x[32], y[32];
	if (index == b && ctx->dirty_thresh_bytes &&
	    (uint64_t)value / control_page(ctx) > ctx->dirty_thresh_bytes / control_page(ctx)) {
		snprintf(msg, len, "more than the whole dirty limit (%s): the kernel refuses it",
			 control_fmt_bytes(ctx->dirty_thresh_bytes, false, x, sizeof x));
		return -EINVAL;
	}
	struct control_ctx after;
	struct control_ref ref = { .bdi = true, .index = index };
	control_predict(&ref, value, ctx, &after);
	int64_t min = control_bdi_fine(after.bdi, BDI_MIN_RATIO, BDI_MIN_RATIO_FINE);
	int64_t max = control_bdi_fine(after.bdi, BDI_MAX_RATIO, BDI_MAX_RATIO_FINE);
	if (min >= 0 && max >= 0 && min > max) {
		snprintf(msg, len, "min_ratio (%s) would be above max_ratio (%s): the kernel refuses it",
			 knob_format_value(KNOB_KIND_RATIO_FINE, min, x, sizeof x),
			 knob_format_value(KNOB_KIND_RATIO_FINE, max, y, sizeof y));
		return -EINVAL;
	}
	if (r == BDI_MAX_RATIO && max == 0)
		control_clause(msg, len, "0%: this device gets no share of the dirty limit, "
			       "its writers are throttled at once");
	return msg[0] ? 1 : 0;
}

int control_validate(const struct control_ref *ref, int64_t value,
		     const struct control_ctx *ctx, char *msg, size_t len)
{
	const struct knob_def *def = control_def(ref);
	if (len)
		msg[0] = '\0';
	if (!def) {
		snprintf(msg, len, "no such knob");
		return -EINVAL;
	}
	if (value < def->min || value > def->max) {
		char lo[32], hi[32];
		snprintf(msg, len, "out of range: %s takes %s to %s", def->name,
			 control_fmt(def, def->min, lo, sizeof lo),
			 def->max == INT64_MAX ? "any size" : control_fmt(def, def->max, hi, sizeof hi));
		return -ERANGE;
	}
	return ref->bdi ? control_validate_bdi(ref->index, value, ctx, msg, len)
			: control_validate_vm(ref->index, value, ctx, msg, len);
}

/* The ratio/bytes pair clauses: the limit before and after, and the partner. */
static void control_explain_pair(const struct control_ref *ref, const struct control_ctx *ctx,
				 const struct control_ctx *after, char *buf, size_t len)
{
	const struct knob_def *def = control_def(ref);
	bool bg = ref->index == KNOB_DIRTY_BG_RATIO || ref->index == KNOB_DIRTY_BG_BYTES;
	bool a0, a1;
	uint64_t l0 = control_pair_bytes(ctx, ctx->vm, bg, &a0);
	uint64_t l1 = control_pair_bytes(ctx, after->vm, bg, &a1);
	char x[32], y[32];
	control_cat(buf, len, ": %s %s -> %s", bg ? "background threshold" : "hard limit",
		    control_fmt_bytes(l0, a0, x, sizeof x), control_fmt_bytes(l1, a1, y, sizeof y));

	int p = def->partner;
	const struct knob_def *pdef = &knob_vm_table[p];
	int64_t was = ctx->vm[p], now = after->vm[p];
	if (was == now)
		control_cat(buf, len, "; %s (now %s) stays %s", pdef->file,
			    control_fmt(pdef, was, x, sizeof x), control_fmt(pdef, now, y, sizeof y));
	else if (def->kind == KNOB_KIND_BYTES)
		control_cat(buf, len, "; %s %s -> reads 0: bytes take over", pdef->file,
			    control_fmt(pdef, was, x, sizeof x));
	else
		control_cat(buf, len, "; %s %s -> 0: the ratio takes over", pdef->file,
			    control_fmt(pdef, was, x, sizeof x));
}

static void control_explain_bdi(const struct control_ref *ref, const struct control_ctx *after,
				char *buf, size_t len)
{
	int r, f, b;
	char x[32], y[32];
	if (!control_bdi_group(ref->index, &r, &f, &b)) {
		control_cat(buf, len, ": %s", control_def(ref)->help);
		return;
	}
	int64_t fine = control_bdi_fine(after->bdi, r, f);
	if (fine < 0) {
		control_cat(buf, len, ": %s", control_def(ref)->help);
		return;
	}
	uint64_t share = (uint64_t)((unsigned __int128)after->dirty_thresh_bytes * (uint64_t)fine
				    / CONTROL_FINE_FULL);
	control_cat(buf, len, r == BDI_MAX_RATIO ? ": this device may use at most %s of the dirty limit (%s)"
						 : ": %s of the dirty limit (%s) is kept for this device",
		    knob_format_value(KNOB_KIND_RATIO_FINE, fine, x, sizeof x),
		    control_fmt_bytes(share, true, y, sizeof y));
	if (ref->index == b)
		control_cat(buf, len, "; the kernel keeps it as that share, so it reads back "
			    "rounded and follows the limit");
}

const char *control_explain(const struct control_ref *ref, const char *name, int64_t value,
			    const struct control_ctx *ctx, char *buf, size_t len)
{
	const struct knob_def *def = control_def(ref);
	char x[32], y[32];
	if (!len)
		return buf;
	buf[0] = '\0';
	if (!def)
		return buf;
	int64_t old = ref->bdi ? ctx->bdi[ref->index] : ctx->vm[ref->index];
	control_cat(buf, len, "%s %s -> %s", name, control_fmt(def, old, x, sizeof x),
		    control_fmt(def, value, y, sizeof y));
	struct control_ctx after;
	control_predict(ref, value, ctx, &after);
	if (ref->bdi)
		control_explain_bdi(ref, &after, buf, len);
	else if (def->partner >= 0)
		control_explain_pair(ref, ctx, &after, buf, len);
	else
		control_cat(buf, len, ": %s", def->help);
	if (old == value)
		control_cat(buf, len, " (unchanged)");
	return buf;
}

void control_ctx_from_snapshot(struct control_ctx *ctx, const struct snapshot *s)
{
	uint64_t page = s->page_size ? s->page_size : 4096;
	ctx->page_size = page;
	ctx->dirty_thresh_bytes = s->sys.dirty_thresh_pages * page;
	ctx->bg_thresh_bytes = s->sys.bg_thresh_pages * page;
	ctx->mem_total_bytes = s->sys.mem_total_kb * 1024;
	/* The kernel sets thresh = ratio * dirtyable / 100 (domain_dirty_limits),
	 * so with a ratio in force the memory it works from is thresh*100/ratio. */
	int64_t ratio = s->knob[KNOB_DIRTY_RATIO] >= 0 ? s->knob[KNOB_DIRTY_RATIO] : ctx->vm[KNOB_DIRTY_RATIO];
	int64_t bytes = s->knob[KNOB_DIRTY_BYTES] >= 0 ? s->knob[KNOB_DIRTY_BYTES] : ctx->vm[KNOB_DIRTY_BYTES];
	if (bytes == 0 && ratio > 0 && ctx->dirty_thresh_bytes)
		ctx->dirtyable_bytes = ctx->dirty_thresh_bytes / (uint64_t)ratio * 100;
	else	/* global_dirtyable_memory() is free + file pages, near free + cache */
		ctx->dirtyable_bytes = (s->sys.free_kb + s->sys.cache_kb) * 1024;
}

struct control_ref control_restore_member(const struct control_ref *ref,
					  const int64_t before[CONTROL_SCOPE_MAX],
					  int64_t *value)
{
	struct control_ref out = *ref;
	int r, f, b;
	if (!ref->bdi) {
		const struct knob_def *def = control_def(ref);
		if (def && def->partner >= 0) {
			/* a pair: whichever member was in force, bytes when non-zero */
			int bytes = def->kind == KNOB_KIND_BYTES ? ref->index : def->partner;
			out.index = before[bytes] > 0 ? bytes : knob_vm_table[bytes].partner;
		}
	} else if (control_bdi_group(ref->index, &r, &f, &b)) {
		/* the finest view is exact; bytes would be re-rounded against today's limit */
		out.index = before[f] >= 0 ? f : before[r] >= 0 ? r : b;
	}
	*value = before[out.index];
	return out;
}

static const struct knob_def *control_def_by_name(const char *name)
{
	if (strncmp(name, "bdi:", 4) == 0) {
		const char *file = strrchr(name, ':');
		int i = knob_bdi_find(file + 1);
		return i < 0 ? NULL : &knob_bdi_table[i];
	}
	int i = knob_vm_find(name);
	return i < 0 ? NULL : &knob_vm_table[i];
}

/* A value as scripts and people both read it: "536870912 (512.0M)". */
static const char *control_fmt_raw(const struct knob_def *def, int64_t v, char *buf, size_t len)
{
	char h[32];
	if (v < 0)
		snprintf(buf, len, "?");
	else if (def && (def->kind == KNOB_KIND_BYTES || def->kind == KNOB_KIND_KB) && v >= 1024)
		snprintf(buf, len, "%" PRId64 " (%s)", v, control_fmt(def, v, h, sizeof h));
	else
		snprintf(buf, len, "%" PRId64, v);
	return buf;
}

const char *control_format_event(const struct wb_event *e, char *buf, size_t len)
{
	const struct knob_def *def = control_def_by_name(e->knob);
	char o[48], n[48], r[48];
	snprintf(buf, len, "%s %s -> %s: ", e->knob, control_fmt_raw(def, e->old_value, o, sizeof o),
		 control_fmt_raw(def, e->new_value, n, sizeof n));
	if (e->result < 0 && e->result != -EIO)
		control_cat(buf, len, "failed: %s", strerror(-e->result));
	else if (e->result == -EIO)
		control_cat(buf, len, "MISMATCH, reads %s", control_fmt_raw(def, e->read_back, r, sizeof r));
	else if (e->read_back != e->new_value)
		control_cat(buf, len, "ok, reads %s", control_fmt_raw(def, e->read_back, r, sizeof r));
	else
		control_cat(buf, len, "ok");
	if (e->note[0])
		control_cat(buf, len, " (%s)", e->note);
	return buf;
}

/* ------------------------------------------------------------------ */
/* the stateful part: knob files, changes, events                      */

/* The knobs of one scope: the vm sysctls, or one BDI. */
struct control_scope {
	bool bdi;
	uint32_t major, minor;
	char label[64];			/* "sda", a dm name, or "MAJ:MIN" */
	int64_t start[CONTROL_SCOPE_MAX];	/* as first read */
	int64_t cur[CONTROL_SCOPE_MAX];		/* as last read; -1 unreadable */
	unsigned touched;		/* bit per knob index that we wrote */
};

/* One applied change: the scope's values just before it, for undo. */
struct control_change {
	struct control_ref ref;
	int64_t before[CONTROL_SCOPE_MAX];
};

struct control {
	char *vm_dir, *bdi_dir, *dev_dir;
	bool log_syslog;
	double revert_after_s;
	bool can_write;
	int ro_errno;			/* what a write gets when !can_write */
	char why_ro[160];
	struct control_scope vm;
	struct control_scope *bdis;
	size_t nbdi, cap_bdi;
	struct control_change *changes;
	size_t nchanges, cap_changes, nconfirmed;
	uint64_t deadline_ns;		/* CLOCK_MONOTONIC; 0: no countdown */
	struct wb_event *events;
	size_t nevents, cap_events;
};

/* Grow an array to hold n+1 items of size sz; 0 or -ENOMEM. */
static int control_grow(void **arr, size_t *cap, size_t n, size_t sz)
{
	if (n < *cap)
		return 0;
	size_t ncap = *cap ? *cap * 2 : 8;
	void *p = realloc(*arr, ncap * sz);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = ncap;
	return 0;
}

static uint64_t control_clock_ns(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Read a knob file: one integer.  0 or -errno (-EINVAL for garbage). */
static int control_file_read(const char *path, int64_t *out)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	char buf[64];
	ssize_t n = read(fd, buf, sizeof buf - 1);
	int err = n < 0 ? -errno : 0;
	close(fd);
	if (err)
		return err;
	buf[n] = '\0';
	char *end;
	errno = 0;
	long long v = strtoll(buf, &end, 10);
	if (end == buf || errno || (*end && !isspace((unsigned char)*end)))
		return -EINVAL;
	*out = v;
	return 0;
}

/* Write one integer to a knob file; the kernel reports refusal from write(). */
static int control_file_write(const char *path, int64_t value)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	char buf[32];
	int len = snprintf(buf, sizeof buf, "%" PRId64 "\n", value);
	ssize_t n = write(fd, buf, (size_t)len);
	int err = n < 0 ? -errno : n != len ? -EIO : 0;
	if (close(fd) < 0 && !err)
		err = -errno;
	return err;
}

static void control_path(const struct control *c, const struct control_scope *sc, int index,
			 char *buf, size_t len)
{
	if (sc->bdi)
		snprintf(buf, len, "%s/%u:%u/%s", c->bdi_dir, sc->major, sc->minor,
			 knob_bdi_table[index].file);
	else
		snprintf(buf, len, "%s/%s", c->vm_dir, knob_vm_table[index].file);
}

static int control_scope_n(const struct control_scope *sc)
{
	return sc->bdi ? KNOB_BDI_COUNT : KNOB_VM_COUNT;
}

static void control_scope_read(const struct control *c, struct control_scope *sc)
{
	char path[PATH_MAX];
	for (int i = 0; i < CONTROL_SCOPE_MAX; i++) {
		sc->cur[i] = -1;
		if (i >= control_scope_n(sc))
			continue;
		control_path(c, sc, i, path, sizeof path);
		if (control_file_read(path, &sc->cur[i]) < 0)
			sc->cur[i] = -1;
	}
}

/* A device's name for events: its dm name, else its kernel name, else MAJ:MIN. */
static void control_bdi_label(const struct control *c, uint32_t major, uint32_t minor,
			      char *buf, size_t len)
{
	char path[PATH_MAX], link[PATH_MAX];
	snprintf(buf, len, "%u:%u", major, minor);
	snprintf(path, sizeof path, "%s/%u:%u/dm/name", c->dev_dir, major, minor);
	FILE *f = fopen(path, "re");
	if (f) {
		char name[128];
		bool got = fgets(name, sizeof name, f) != NULL;
		fclose(f);
		if (got)
			name[strcspn(name, "\n")] = '\0';
		if (got && name[0]) {
			snprintf(buf, len, "%.63s", name);
			return;
		}
	}
	snprintf(path, sizeof path, "%s/%u:%u", c->dev_dir, major, minor);
	ssize_t n = readlink(path, link, sizeof link - 1);
	if (n > 0) {
		link[n] = '\0';
		const char *base = strrchr(link, '/');
		snprintf(buf, len, "%.63s", base ? base + 1 : link);
	}
}

/* The scope of ref, read on first use (that read gives its start values).
 * NULL: the BDI does not exist, or no memory (*err says which). */
static struct control_scope *control_scope_get(struct control *c, const struct control_ref *ref,
					       int *err)
{
	*err = 0;
	if (!ref->bdi)
		return &c->vm;
	for (size_t i = 0; i < c->nbdi; i++)
		if (c->bdis[i].major == ref->major && c->bdis[i].minor == ref->minor)
			return &c->bdis[i];
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/%u:%u", c->bdi_dir, ref->major, ref->minor);
	if (access(path, F_OK) < 0) {
		*err = -ENOENT;
		return NULL;
	}
	if (control_grow((void **)&c->bdis, &c->cap_bdi, c->nbdi, sizeof *c->bdis) < 0) {
		*err = -ENOMEM;
		return NULL;
	}
	struct control_scope *sc = &c->bdis[c->nbdi++];
	memset(sc, 0, sizeof *sc);
	sc->bdi = true;
	sc->major = ref->major;
	sc->minor = ref->minor;
	control_bdi_label(c, ref->major, ref->minor, sc->label, sizeof sc->label);
	control_scope_read(c, sc);
	memcpy(sc->start, sc->cur, sizeof sc->start);
	return sc;
}

static void control_scope_name(const struct control_scope *sc, int index, char *buf, size_t len)
{
	if (sc->bdi)
		snprintf(buf, len, "bdi:%s:%s", sc->label, knob_bdi_table[index].file);
	else
		snprintf(buf, len, "%s", knob_vm_table[index].name);
}

/* Why writes are impossible, decided once: --read-only, then the access
 * the kernel would grant to the vm directory. */
static void control_check_access(struct control *c, bool read_only)
{
	char path[PATH_MAX];
	c->can_write = false;
	c->ro_errno = EPERM;
	if (read_only) {
		snprintf(c->why_ro, sizeof c->why_ro, "--read-only");
		return;
	}
	snprintf(path, sizeof path, "%s/%s", c->vm_dir, knob_vm_table[KNOB_DIRTY_RATIO].file);
	if (faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) == 0) {
		c->can_write = true;
		c->why_ro[0] = '\0';
		return;
	}
	c->ro_errno = errno;
	if (errno == EROFS)
		snprintf(c->why_ro, sizeof c->why_ro, "%s is mounted read-only", c->vm_dir);
	else if ((errno == EACCES || errno == EPERM) && geteuid() != 0)
		snprintf(c->why_ro, sizeof c->why_ro, "not root");
	else
		snprintf(c->why_ro, sizeof c->why_ro, "%.100s: %s", path, strerror(errno));
}

struct control *control_new(const struct control_config *cfg)
{
	static const struct control_config defaults;
	if (!cfg)
		cfg = &defaults;
	struct control *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	c->vm_dir = strdup(cfg->vm_dir ? cfg->vm_dir : CONTROL_VM_DIR);
	c->bdi_dir = strdup(cfg->bdi_dir ? cfg->bdi_dir : CONTROL_BDI_DIR);
	c->dev_dir = strdup(cfg->dev_dir ? cfg->dev_dir : CONTROL_DEV_DIR);
	if (!c->vm_dir || !c->bdi_dir || !c->dev_dir) {
		control_free(c);
		return NULL;
	}
	c->log_syslog = cfg->log_syslog;
	c->revert_after_s = cfg->revert_after_s;
	control_check_access(c, cfg->read_only);
	control_scope_read(c, &c->vm);
	memcpy(c->vm.start, c->vm.cur, sizeof c->vm.start);
	return c;
}

void control_free(struct control *c)
{
	if (!c)
		return;
	free(c->vm_dir);
	free(c->bdi_dir);
	free(c->dev_dir);
	free(c->bdis);
	free(c->changes);
	free(c->events);
	free(c);
}

bool control_can_write(const struct control *c, const char **reason)
{
	if (reason)
		*reason = c->can_write ? "" : c->why_ro;
	return c->can_write;
}

static bool control_in_force(const struct control_scope *sc, int index)
{
	if (sc->bdi)
		return true;
	const struct knob_def *def = &knob_vm_table[index];
	if (def->partner < 0)
		return true;
	int bytes = def->kind == KNOB_KIND_BYTES ? index : def->partner;
	return (sc->cur[bytes] > 0) == (index == bytes);
}

static void control_item_fill(const struct control_scope *sc, int index, struct control_item *it)
{
	memset(it, 0, sizeof *it);
	it->ref = (struct control_ref){ .bdi = sc->bdi, .index = index,
					.major = sc->major, .minor = sc->minor };
	it->def = control_def(&it->ref);
	control_scope_name(sc, index, it->name, sizeof it->name);
	it->value = sc->cur[index];
	it->start = sc->start[index];
	it->in_force = control_in_force(sc, index);
}

size_t control_list_vm(struct control *c, struct control_item out[KNOB_VM_COUNT])
{
	control_scope_read(c, &c->vm);
	for (int i = 0; i < KNOB_VM_COUNT; i++)
		control_item_fill(&c->vm, i, &out[i]);
	return KNOB_VM_COUNT;
}

int control_list_bdi(struct control *c, uint32_t major, uint32_t minor,
		     struct control_item out[KNOB_BDI_COUNT], size_t *n)
{
	/* the limits the issue names; the _fine views and read-ahead are
	 * settable with --set but would only crowd the edit panel */
	static const int shown[] = { BDI_MIN_RATIO, BDI_MAX_RATIO, BDI_MIN_BYTES,
				     BDI_MAX_BYTES, BDI_STRICT_LIMIT };
	struct control_ref ref = { .bdi = true, .major = major, .minor = minor };
	int err;
	struct control_scope *sc = control_scope_get(c, &ref, &err);
	*n = 0;
	if (!sc)
		return err;
	control_scope_read(c, sc);
	for (size_t i = 0; i < sizeof shown / sizeof shown[0]; i++)
		if (sc->cur[shown[i]] >= 0)
			control_item_fill(sc, shown[i], &out[(*n)++]);
	return 0;
}

const char *control_name(struct control *c, const struct control_ref *ref, char *buf, size_t len)
{
	int err;
	struct control_scope *sc = control_def(ref) ? control_scope_get(c, ref, &err) : NULL;
	if (sc)
		control_scope_name(sc, ref->index, buf, len);
	else
		snprintf(buf, len, "bdi:%u:%u:%s", ref->major, ref->minor,
			 control_def(ref) ? control_def(ref)->file : "?");
	return buf;
}

int control_ctx(struct control *c, const struct control_ref *ref,
		const struct snapshot *s, struct control_ctx *ctx)
{
	memset(ctx, 0, sizeof *ctx);
	for (int i = 0; i < KNOB_BDI_COUNT; i++)
		ctx->bdi[i] = -1;
	if (!control_def(ref))
		return -EINVAL;
	control_scope_read(c, &c->vm);
	memcpy(ctx->vm, c->vm.cur, sizeof ctx->vm);
	int err = 0;
	if (ref->bdi) {
		struct control_scope *sc = control_scope_get(c, ref, &err);
		if (!sc)
			return err;
		control_scope_read(c, sc);
		memcpy(ctx->bdi, sc->cur, sizeof ctx->bdi);
	}
	long page = sysconf(_SC_PAGESIZE);
	ctx->page_size = page > 0 ? (uint64_t)page : 4096;
	if (s)
		control_ctx_from_snapshot(ctx, s);
	int64_t v = ref->bdi ? ctx->bdi[ref->index] : ctx->vm[ref->index];
	return v < 0 ? -ENOENT : 0;
}

int control_preview(struct control *c, const struct control_ref *ref, const char *text,
		    const struct snapshot *s, int64_t *value, char *buf, size_t len)
{
	const struct knob_def *def = control_def(ref);
	struct control_ctx ctx;
	char name[96], msg[256];
	int rc = control_ctx(c, ref, s, &ctx);
	control_name(c, ref, name, sizeof name);
	if (rc < 0) {
		snprintf(buf, len, "%s: not on this kernel", name);
		return rc;
	}
	rc = knob_parse_value(def->kind, text, value);
	if (rc < 0) {
		snprintf(buf, len, "%s: \"%s\" is not %s", name, text,
			 rc == -ERANGE ? "in range" :
			 def->kind == KNOB_KIND_BYTES ? "a size (bytes, or with K/M/G)" : "a whole number");
		return rc;
	}
	rc = control_validate(ref, *value, &ctx, msg, sizeof msg);
	if (rc < 0) {
		snprintf(buf, len, "%s=%s refused: %s", name, text, msg);
		return rc;
	}
	control_explain(ref, name, *value, &ctx, buf, len);
	if (rc > 0)
		control_cat(buf, len, "; warning: %s", msg);
	return rc;
}

static int control_add_event(struct control *c, const struct wb_event *ev)
{
	if (control_grow((void **)&c->events, &c->cap_events, c->nevents, sizeof *c->events) < 0)
		return -ENOMEM;
	c->events[c->nevents++] = *ev;
	if (c->log_syslog) {
		char line[384];
		/* the ident is the program name already */
		syslog(LOG_USER | LOG_NOTICE, "knob change: %s", control_format_event(ev, line, sizeof line));
	}
	return 0;
}

/* Whether what the kernel holds is what was written.  BDI bytes come back
 * re-derived from a share of the current dirty limit: within 1% is a match. */
static bool control_same(const struct control_ref *ref, int64_t asked, int64_t held, uint64_t page)
{
	if (asked == held)
		return true;
	if (!ref->bdi || control_def(ref)->kind != KNOB_KIND_BYTES || held < 0)
		return false;
	int64_t diff = asked > held ? asked - held : held - asked;
	return diff <= asked / 100 + (int64_t)(2 * page);
}

/* After a write: what else in the scope now reads differently. */
static void control_note_changes(const struct control_scope *sc, int written,
				 const int64_t before[CONTROL_SCOPE_MAX], char *note, size_t len)
{
	for (int i = 0; i < control_scope_n(sc); i++) {
		if (i == written || sc->cur[i] == before[i])
			continue;
		const struct knob_def *def = sc->bdi ? &knob_bdi_table[i] : &knob_vm_table[i];
		char v[32], t[96];
		snprintf(t, sizeof t, "%s now %s", def->file, control_fmt(def, sc->cur[i], v, sizeof v));
		control_clause(note, len, t);
	}
}

/* Write value to ref, read the whole scope back, record the event.
 * why starts the event's note ("undo", "revert", ...).  0, -errno of the
 * write, or -EIO when the kernel holds something else. */
static int control_write(struct control *c, const struct control_ref *ref, int64_t value,
			 const char *why)
{
	int err;
	struct control_scope *sc = control_scope_get(c, ref, &err);
	if (!sc)
		return err;
	if (value < 0)
		return -EINVAL;	/* a start value we could never read */
	char path[PATH_MAX];
	control_path(c, sc, ref->index, path, sizeof path);
	int64_t before[CONTROL_SCOPE_MAX];
	memcpy(before, sc->cur, sizeof before);

	struct wb_event ev = { .wall_ns = (int64_t)control_clock_ns(CLOCK_REALTIME),
			       .old_value = sc->cur[ref->index], .new_value = value };
	control_scope_name(sc, ref->index, ev.knob, sizeof ev.knob);
	snprintf(ev.note, sizeof ev.note, "%s", why ? why : "");

	int rc = control_file_write(path, value);
	sc->touched |= 1u << ref->index;
	control_scope_read(c, sc);
	ev.read_back = sc->cur[ref->index];
	long page = sysconf(_SC_PAGESIZE);
	if (rc == 0 && !control_same(ref, value, ev.read_back, page > 0 ? (uint64_t)page : 4096)) {
		char v[32], t[96];
		snprintf(t, sizeof t, "kernel holds %s, not what was written",
			 control_fmt(control_def(ref), ev.read_back, v, sizeof v));
		control_clause(ev.note, sizeof ev.note, t);
		rc = -EIO;
	}
	if (rc == 0 || rc == -EIO)
		control_note_changes(sc, ref->index, before, ev.note, sizeof ev.note);
	ev.result = rc;
	control_add_event(c, &ev);
	return rc;
}

int control_apply(struct control *c, const struct control_ref *ref, int64_t value,
		  const struct snapshot *s)
{
	if (!c->can_write)
		return -c->ro_errno;
	struct control_ctx ctx;
	char msg[256];
	int rc = control_ctx(c, ref, s, &ctx);
	if (rc < 0)
		return rc;
	rc = control_validate(ref, value, &ctx, msg, sizeof msg);
	if (rc < 0)
		return rc;
	if (control_grow((void **)&c->changes, &c->cap_changes, c->nchanges, sizeof *c->changes) < 0)
		return -ENOMEM;
	struct control_change ch = { .ref = *ref };
	memcpy(ch.before, ref->bdi ? ctx.bdi : ctx.vm,
	       (ref->bdi ? KNOB_BDI_COUNT : KNOB_VM_COUNT) * sizeof ch.before[0]);
	rc = control_write(c, ref, value, "");
	if (rc == 0 || rc == -EIO) {	/* something was written: it can be undone */
		c->changes[c->nchanges++] = ch;
		if (c->revert_after_s > 0)
			c->deadline_ns = control_clock_ns(CLOCK_MONOTONIC) +
					 (uint64_t)(c->revert_after_s * 1e9);
	}
	return rc;
}

static int control_undo_note(struct control *c, const char *why)
{
	if (!c->nchanges)
		return -ENOENT;
	if (!c->can_write)
		return -c->ro_errno;
	const struct control_change *ch = &c->changes[c->nchanges - 1];
	int64_t value;
	struct control_ref target = control_restore_member(&ch->ref, ch->before, &value);
	int rc = control_write(c, &target, value, why);
	if (rc < 0 && rc != -EIO)
		return rc;
	c->nchanges--;
	if (c->nconfirmed > c->nchanges)
		c->nconfirmed = c->nchanges;
	if (c->nchanges == c->nconfirmed)
		c->deadline_ns = 0;
	return rc;
}

int control_undo(struct control *c)
{
	return control_undo_note(c, "undo");
}

/* Put one setting of a scope back to its start value, if we touched it and
 * it is not already there. */
static int control_revert_one(struct control *c, struct control_scope *sc, int index,
			      const char *why)
{
	struct control_ref ref = { .bdi = sc->bdi, .index = index,
				   .major = sc->major, .minor = sc->minor };
	int r, f, b, p = sc->bdi ? -1 : knob_vm_table[index].partner;
	unsigned group = 1u << index;
	if (p >= 0)
		group |= 1u << p;
	else if (sc->bdi && control_bdi_group(index, &r, &f, &b))
		group = 1u << r | 1u << f | 1u << b;
	if (!(sc->touched & group))
		return 0;
	int64_t value;
	struct control_ref target = control_restore_member(&ref, sc->start, &value);
	bool same = sc->cur[target.index] == value && (p < 0 || sc->cur[p] == sc->start[p]);
	if (same)
		return 0;
	int rc = control_write(c, &target, value, why);
	return rc == -EIO ? rc : rc < 0 ? rc : 0;
}

static int control_revert_scope(struct control *c, struct control_scope *sc, const char *why)
{
	static const int vm_order[] = { KNOB_DIRTY_RATIO, KNOB_DIRTY_BG_RATIO, KNOB_DIRTY_EXPIRE_CS,
					KNOB_DIRTY_WRITEBACK_CS, KNOB_DIRTYTIME_EXPIRE_S };
	int bdi_order[] = { BDI_MIN_RATIO, BDI_MAX_RATIO, BDI_STRICT_LIMIT, BDI_READ_AHEAD_KB };
	control_scope_read(c, sc);
	if (sc->bdi) {
		/* min <= max holds at every step: when min goes up, max goes first */
		int64_t min_now = control_bdi_fine(sc->cur, BDI_MIN_RATIO, BDI_MIN_RATIO_FINE);
		int64_t min_start = control_bdi_fine(sc->start, BDI_MIN_RATIO, BDI_MIN_RATIO_FINE);
		if (min_start > min_now)
			bdi_order[0] = BDI_MAX_RATIO, bdi_order[1] = BDI_MIN_RATIO;
	}
	const int *order = sc->bdi ? bdi_order : vm_order;
	size_t n = sc->bdi ? sizeof bdi_order / sizeof bdi_order[0] : sizeof vm_order / sizeof vm_order[0];
	int first = 0;
	for (size_t i = 0; i < n; i++) {
		int rc = control_revert_one(c, sc, order[i], why);
		if (rc < 0 && !first)
			first = rc;
	}
	if (!first)
		sc->touched = 0;	/* back at start: nothing of ours left to revert */
	return first;
}

int control_revert_all(struct control *c)
{
	if (!c->can_write)
		return c->nchanges ? -c->ro_errno : 0;
	int first = control_revert_scope(c, &c->vm, "revert");
	for (size_t i = 0; i < c->nbdi; i++) {
		int rc = control_revert_scope(c, &c->bdis[i], "revert");
		if (rc < 0 && !first)
			first = rc;
	}
	if (!first) {
		c->nchanges = c->nconfirmed = 0;
		c->deadline_ns = 0;
	}
	return first;
}

size_t control_nchanges(const struct control *c)
{
	return c->nchanges;
}

void control_confirm(struct control *c)
{
	c->nconfirmed = c->nchanges;
	c->deadline_ns = 0;
}

size_t control_tick(struct control *c, uint64_t now_mono_ns)
{
	if (!c->deadline_ns || now_mono_ns < c->deadline_ns)
		return 0;
	char why[64];
	snprintf(why, sizeof why, "not confirmed within %gs: reverted", c->revert_after_s);
	size_t n = 0;
	while (c->nchanges > c->nconfirmed) {
		int rc = control_undo_note(c, why);
		if (rc < 0 && rc != -EIO)
			break;
		n++;
	}
	c->deadline_ns = 0;	/* a failed revert is in the events; don't retry every tick */
	return n;
}

double control_deadline_left_s(const struct control *c, uint64_t now_mono_ns)
{
	if (!c->deadline_ns)
		return -1;
	if (now_mono_ns >= c->deadline_ns)
		return 0;
	return (double)(c->deadline_ns - now_mono_ns) / 1e9;
}

size_t control_nevents(const struct control *c)
{
	return c->nevents;
}

const struct wb_event *control_event(const struct control *c, size_t i)
{
	return i < c->nevents ? &c->events[i] : NULL;
}
