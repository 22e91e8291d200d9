/*
 * control_rules.c - the pure half of control.h: the kernel's rules for the writeback knobs
 * (validation), what a write leaves behind (prediction), one line saying so (explanation),
 * which member of a pair or view puts a setting back, and how an event reads.
 *
 * Not: files, a clock or state; values in, values out.  control.c calls it; the rules
 * (mm/page-writeback.c, mm/backing-dev.c) are listed in doc/knobs.md.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/control.h"
#include "control_priv.h"
#include "core/snapshot.h"

#define CONTROL_FINE_SCALE 10000	/* BDI_RATIO_SCALE: millionths per per cent */
#define CONTROL_FINE_FULL 1000000	/* 100 % in millionths */

/* ------------------------------------------------------------------ */
/* small helpers                                                       */

void control_rules_cat(char *buf, size_t len, const char *fmt, ...)
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
void control_rules_clause(char *buf, size_t len, const char *text)
{
	control_rules_cat(buf, len, "%s%s", buf[0] ? "; " : "", text);
}

static uint64_t control_rules_page(const struct control_ctx *ctx)
{
	return ctx->page_size ? ctx->page_size : 4096;
}

const struct knob_def *control_rules_def(const struct control_ref *ref)
{
	if (ref->index < 0)
		return NULL;
	if (ref->bdi)
		return ref->index < KNOB_BDI_COUNT ? &knob_bdi_table[ref->index] : NULL;
	return ref->index < KNOB_VM_COUNT ? &knob_vm_table[ref->index] : NULL;
}

const char *control_rules_fmt(const struct knob_def *def, int64_t v, char *buf, size_t len)
{
	return knob_format_value(def->kind, v, buf, len);
}

/* Bytes for people; "~" marks an estimate, "?" an unknown (0). */
static const char *control_rules_fmt_bytes(uint64_t v, bool approx, char *buf, size_t len)
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
bool control_rules_bdi_group(int index, int *ratio, int *fine, int *bytes)
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
int64_t control_rules_bdi_fine(const int64_t bdi[KNOB_BDI_COUNT], int ratio, int fine)
{
	if (bdi[fine] >= 0)
		return bdi[fine];
	return bdi[ratio] >= 0 ? bdi[ratio] * CONTROL_FINE_SCALE : -1;
}

/* Millionths of the dirty limit that value (of kind) stands for; -1 if it
 * can't be known (bytes without a known limit). */
static int64_t control_rules_to_fine(enum knob_kind kind, int64_t value, const struct control_ctx *ctx)
{
	if (kind == KNOB_KIND_RATIO)
		return value * CONTROL_FINE_SCALE;
	if (kind == KNOB_KIND_RATIO_FINE)
		return value;
	uint64_t page = control_rules_page(ctx);
	uint64_t thresh_pages = ctx->dirty_thresh_bytes / page;
	if (!thresh_pages)
		return -1;
	/* bdi_ratio_from_pages(): pages * 100 * SCALE / dirty_thresh */
	unsigned __int128 f = (unsigned __int128)((uint64_t)value / page) * CONTROL_FINE_FULL;
	f /= thresh_pages;
	return f > INT64_MAX ? INT64_MAX : (int64_t)f;
}

static void control_rules_predict_bdi(int index, int64_t value, struct control_ctx *after)
{
	int r, f, b;
	if (!control_rules_bdi_group(index, &r, &f, &b)) {
		after->bdi[index] = value;
		return;
	}
	int64_t fine = control_rules_to_fine(knob_bdi_table[index].kind, value, after);
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

void control_rules_predict(const struct control_ref *ref, int64_t value,
			   const struct control_ctx *ctx, struct control_ctx *after)
{
	*after = *ctx;
	if (ref->bdi) {
		control_rules_predict_bdi(ref->index, value, after);
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
static uint64_t control_rules_pair_bytes(const struct control_ctx *ctx, const int64_t vm[KNOB_VM_COUNT],
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
static void control_rules_check_bg(const struct control_ctx *after, char *msg, size_t len)
{
	const int64_t *vm = after->vm;
	bool both_ratio = vm[KNOB_DIRTY_BYTES] <= 0 && vm[KNOB_DIRTY_BG_BYTES] <= 0;
	bool fg_approx, bg_approx;
	uint64_t fg = control_rules_pair_bytes(after, vm, false, &fg_approx);
	uint64_t bg = control_rules_pair_bytes(after, vm, true, &bg_approx);
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
			 control_rules_fmt_bytes(bg, bg_approx, a, sizeof a),
			 control_rules_fmt_bytes(fg, fg_approx, b, sizeof b));
	control_rules_clause(msg, len, t);
}

static int control_rules_validate_vm(int index, int64_t value, const struct control_ctx *ctx,
				     char *msg, size_t len)
{
	const struct knob_def *def = &knob_vm_table[index];
	uint64_t page = control_rules_page(ctx);
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
	control_rules_predict(&ref, value, ctx, &after);
	if (index == KNOB_DIRTY_RATIO && value == 0 && after.vm[KNOB_DIRTY_BYTES] <= 0)
		control_rules_clause(msg, len, "0% leaves no room for dirty data: every buffered writer is throttled");
	if (index == KNOB_DIRTY_BG_RATIO && value == 0 && after.vm[KNOB_DIRTY_BG_BYTES] <= 0)
		control_rules_clause(msg, len, "0%: background writeback runs all the time");
	if (index == KNOB_DIRTY_BYTES && ctx->mem_total_bytes && (uint64_t)value >= ctx->mem_total_bytes) {
		char t[128];
		snprintf(t, sizeof t, "at or above total memory (%s): writers are never throttled",
			 control_rules_fmt_bytes(ctx->mem_total_bytes, false, a, sizeof a));
		control_rules_clause(msg, len, t);
	}
	if (index == KNOB_DIRTY_WRITEBACK_CS && value == 0)
		control_rules_clause(msg, len, "0 disables periodic writeback: dirty data waits for the "
				     "thresholds or memory pressure");
	if (index == KNOB_DIRTY_EXPIRE_CS && value == 0)
		control_rules_clause(msg, len, "0: all dirty data counts as expired at every flusher wake-up");
	if (index <= KNOB_DIRTY_BG_BYTES)
		control_rules_check_bg(&after, msg, len);
	return msg[0] ? 1 : 0;
}

static int control_rules_validate_bdi(int index, int64_t value, const struct control_ctx *ctx,
				      char *msg, size_t len)
{
	int r, f, b;
	if (!control_rules_bdi_group(index, &r, &f, &b))
		return 0;
	char x[32], y[32];
	if (index == b && ctx->dirty_thresh_bytes &&
	    (uint64_t)value / control_rules_page(ctx) > ctx->dirty_thresh_bytes / control_rules_page(ctx)) {
		snprintf(msg, len, "more than the whole dirty limit (%s): the kernel refuses it",
			 control_rules_fmt_bytes(ctx->dirty_thresh_bytes, false, x, sizeof x));
		return -EINVAL;
	}
	struct control_ctx after;
	struct control_ref ref = { .bdi = true, .index = index };
	control_rules_predict(&ref, value, ctx, &after);
	int64_t min = control_rules_bdi_fine(after.bdi, BDI_MIN_RATIO, BDI_MIN_RATIO_FINE);
	int64_t max = control_rules_bdi_fine(after.bdi, BDI_MAX_RATIO, BDI_MAX_RATIO_FINE);
	if (min >= 0 && max >= 0 && min > max) {
		snprintf(msg, len, "min_ratio (%s) would be above max_ratio (%s): the kernel refuses it",
			 knob_format_value(KNOB_KIND_RATIO_FINE, min, x, sizeof x),
			 knob_format_value(KNOB_KIND_RATIO_FINE, max, y, sizeof y));
		return -EINVAL;
	}
	if (r == BDI_MAX_RATIO && max == 0)
		control_rules_clause(msg, len, "0%: this device gets no share of the dirty limit, "
				     "its writers are throttled at once");
	return msg[0] ? 1 : 0;
}

int control_rules_validate(const struct control_ref *ref, int64_t value,
			   const struct control_ctx *ctx, char *msg, size_t len)
{
	const struct knob_def *def = control_rules_def(ref);
	if (len)
		msg[0] = '\0';
	if (!def) {
		snprintf(msg, len, "no such knob");
		return -EINVAL;
	}
	if (value < def->min || value > def->max) {
		char lo[32], hi[32];
		snprintf(msg, len, "out of range: %s takes %s to %s", def->name,
			 control_rules_fmt(def, def->min, lo, sizeof lo),
			 def->max == INT64_MAX ? "any size" : control_rules_fmt(def, def->max, hi, sizeof hi));
		return -ERANGE;
	}
	return ref->bdi ? control_rules_validate_bdi(ref->index, value, ctx, msg, len)
			: control_rules_validate_vm(ref->index, value, ctx, msg, len);
}

/* The ratio/bytes pair clauses: the limit before and after, and the partner. */
static void control_rules_explain_pair(const struct control_ref *ref, const struct control_ctx *ctx,
				       const struct control_ctx *after, char *buf, size_t len)
{
	const struct knob_def *def = control_rules_def(ref);
	bool bg = ref->index == KNOB_DIRTY_BG_RATIO || ref->index == KNOB_DIRTY_BG_BYTES;
	bool a0, a1;
	uint64_t l0 = control_rules_pair_bytes(ctx, ctx->vm, bg, &a0);
	uint64_t l1 = control_rules_pair_bytes(ctx, after->vm, bg, &a1);
	char x[32], y[32];
	control_rules_cat(buf, len, ": %s %s -> %s", bg ? "background threshold" : "hard limit",
			  control_rules_fmt_bytes(l0, a0, x, sizeof x),
			  control_rules_fmt_bytes(l1, a1, y, sizeof y));

	int p = def->partner;
	const struct knob_def *pdef = &knob_vm_table[p];
	int64_t was = ctx->vm[p], now = after->vm[p];
	if (was == now)
		control_rules_cat(buf, len, "; %s (now %s) stays %s", pdef->file,
				  control_rules_fmt(pdef, was, x, sizeof x),
				  control_rules_fmt(pdef, now, y, sizeof y));
	else if (def->kind == KNOB_KIND_BYTES)
		control_rules_cat(buf, len, "; %s %s -> reads 0: bytes take over", pdef->file,
				  control_rules_fmt(pdef, was, x, sizeof x));
	else
		control_rules_cat(buf, len, "; %s %s -> 0: the ratio takes over", pdef->file,
				  control_rules_fmt(pdef, was, x, sizeof x));
}

static void control_rules_explain_bdi(const struct control_ref *ref, const struct control_ctx *after,
				      char *buf, size_t len)
{
	int r, f, b;
	char x[32], y[32];
	if (!control_rules_bdi_group(ref->index, &r, &f, &b)) {
		control_rules_cat(buf, len, ": %s", control_rules_def(ref)->help);
		return;
	}
	int64_t fine = control_rules_bdi_fine(after->bdi, r, f);
	if (fine < 0) {
		control_rules_cat(buf, len, ": %s", control_rules_def(ref)->help);
		return;
	}
	uint64_t share = (uint64_t)((unsigned __int128)after->dirty_thresh_bytes * (uint64_t)fine
				    / CONTROL_FINE_FULL);
	control_rules_cat(buf, len, r == BDI_MAX_RATIO ? ": this device may use at most %s of the dirty limit (%s)"
						 : ": %s of the dirty limit (%s) is kept for this device",
		    knob_format_value(KNOB_KIND_RATIO_FINE, fine, x, sizeof x),
		    control_rules_fmt_bytes(share, true, y, sizeof y));
	if (ref->index == b)
		control_rules_cat(buf, len, "; the kernel keeps it as that share, so it reads back "
				  "rounded and follows the limit");
}

const char *control_rules_explain(const struct control_ref *ref, const char *name, int64_t value,
				  const struct control_ctx *ctx, char *buf, size_t len)
{
	const struct knob_def *def = control_rules_def(ref);
	char x[32], y[32];
	if (!len)
		return buf;
	buf[0] = '\0';
	if (!def)
		return buf;
	int64_t old = ref->bdi ? ctx->bdi[ref->index] : ctx->vm[ref->index];
	control_rules_cat(buf, len, "%s %s -> %s", name, control_rules_fmt(def, old, x, sizeof x),
			  control_rules_fmt(def, value, y, sizeof y));
	struct control_ctx after;
	control_rules_predict(ref, value, ctx, &after);
	if (ref->bdi)
		control_rules_explain_bdi(ref, &after, buf, len);
	else if (def->partner >= 0)
		control_rules_explain_pair(ref, ctx, &after, buf, len);
	else
		control_rules_cat(buf, len, ": %s", def->help);
	if (old == value)
		control_rules_cat(buf, len, " (unchanged)");
	return buf;
}

void control_rules_ctx_from_snapshot(struct control_ctx *ctx, const struct snapshot *s)
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

struct control_ref control_rules_restore_member(const struct control_ref *ref,
						const int64_t before[CONTROL_SCOPE_MAX],
						int64_t *value)
{
	struct control_ref out = *ref;
	int r, f, b;
	if (!ref->bdi) {
		const struct knob_def *def = control_rules_def(ref);
		if (def && def->partner >= 0) {
			/* a pair: whichever member was in force, bytes when non-zero */
			int bytes = def->kind == KNOB_KIND_BYTES ? ref->index : def->partner;
			out.index = before[bytes] > 0 ? bytes : knob_vm_table[bytes].partner;
		}
	} else if (control_rules_bdi_group(ref->index, &r, &f, &b)) {
		/* the finest view is exact; bytes would be re-rounded against today's limit */
		out.index = before[f] >= 0 ? f : before[r] >= 0 ? r : b;
	}
	*value = before[out.index];
	return out;
}

static const struct knob_def *control_rules_def_by_name(const char *name)
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
static const char *control_rules_fmt_raw(const struct knob_def *def, int64_t v, char *buf, size_t len)
{
	char h[32];
	if (v < 0)
		snprintf(buf, len, "?");
	else if (def && (def->kind == KNOB_KIND_BYTES || def->kind == KNOB_KIND_KB) && v >= 1024)
		snprintf(buf, len, "%" PRId64 " (%s)", v, control_rules_fmt(def, v, h, sizeof h));
	else
		snprintf(buf, len, "%" PRId64, v);
	return buf;
}

const char *control_rules_format_event(const struct wb_event *e, char *buf, size_t len)
{
	const struct knob_def *def = control_rules_def_by_name(e->knob);
	char o[48], n[48], r[48];
	snprintf(buf, len, "%s %s -> %s: ", e->knob, control_rules_fmt_raw(def, e->old_value, o, sizeof o),
		 control_rules_fmt_raw(def, e->new_value, n, sizeof n));
	if (e->observed)
		control_rules_cat(buf, len, "changed outside wbtop");
	else if (e->result < 0 && e->result != -EIO)
		control_rules_cat(buf, len, "failed: %s", strerror(-e->result));
	else if (e->result == -EIO)
		control_rules_cat(buf, len, "MISMATCH, reads %s", control_rules_fmt_raw(def, e->read_back, r, sizeof r));
	else if (e->read_back != e->new_value)
		control_rules_cat(buf, len, "ok, reads %s", control_rules_fmt_raw(def, e->read_back, r, sizeof r));
	else
		control_rules_cat(buf, len, "ok");
	if (e->note[0])
		control_rules_cat(buf, len, " (%s)", e->note);
	return buf;
}

/* ---- the knob diff: what changed between two samples, and who did it ---- */

size_t control_rules_changes(const struct snapshot *prev, const struct snapshot *cur,
			   struct wb_event *out, size_t cap)
{
	size_t n = 0;
	if (!prev)
		return 0;
	for (int k = 0; k < KNOB_VM_COUNT && n < cap; k++) {
		if (prev->knob[k] == cur->knob[k] || prev->knob[k] < 0 || cur->knob[k] < 0)
			continue;
		struct wb_event *e = &out[n++];
		memset(e, 0, sizeof *e);
		e->wall_ns = cur->wall_ns;
		snprintf(e->knob, sizeof e->knob, "%s", knob_vm_table[k].name);
		e->old_value = prev->knob[k];
		e->new_value = e->read_back = cur->knob[k];
		e->observed = true;
	}
	return n;
}

/* Whether own, a write of wbtop's, explains a change of knob seen: the
 * same knob, or its ratio/bytes partner (writing one zeroes the other). */
static bool control_rules_explains(const struct wb_event *own, const char *knob)
{
	if (own->observed)
		return false;
	if (strcmp(own->knob, knob) == 0)
		return true;
	int a = knob_vm_find(own->knob), b = knob_vm_find(knob);
	return a >= 0 && b >= 0 && knob_vm_table[a].partner == b;
}

size_t control_rules_unexplained(struct wb_event *seen, size_t n, const struct wb_event *own,
			       size_t nown)
{
	size_t kept = 0;
	for (size_t i = 0; i < n; i++) {
		bool explained = false;
		for (size_t j = 0; j < nown && !explained; j++)
			explained = control_rules_explains(&own[j], seen[i].knob);
		if (!explained)
			seen[kept++] = seen[i];
	}
	return kept;
}
