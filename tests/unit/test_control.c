/*
 * test_control.c - the kernel's knob rules (table-driven, pure) and the
 * write / read-back / undo / revert / dead-man cycle against knob files in
 * a temporary directory (plain files: no root, no real knobs touched).
 */
#include <check.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/control.h"
#include "core/snapshot.h"

#define G (1024LL * 1024 * 1024)
#define M (1024LL * 1024)

/* vm knobs in enum knob_vm order: ratio, bg ratio, bytes, bg bytes, expire, wb, dirtytime */
#define VM_DEFAULT { 20, 10, 0, 0, 3000, 500, 43200 }

static struct control_ctx ctx_vm(const int64_t vm[KNOB_VM_COUNT], uint64_t dirtyable)
{
	struct control_ctx ctx;
	memset(&ctx, 0, sizeof ctx);
	memcpy(ctx.vm, vm, sizeof ctx.vm);
	for (int i = 0; i < KNOB_BDI_COUNT; i++)
		ctx.bdi[i] = -1;
	ctx.page_size = 4096;
	ctx.dirtyable_bytes = dirtyable;
	ctx.mem_total_bytes = 32 * G;
	return ctx;
}

/* ---- validation of vm knobs ---- */

static const struct vm_case {
	int index;
	int64_t value;
	int64_t vm[KNOB_VM_COUNT];
	uint64_t page;
	int rc;
	const char *msg;	/* substring of the message; NULL: empty */
} vm_cases[] = {
	{ KNOB_DIRTY_RATIO, 10, { 40, 5, 0, 0, 3000, 500, 43200 }, 4096, 0, NULL },
	{ KNOB_DIRTY_RATIO, 101, VM_DEFAULT, 4096, -ERANGE, "0% to 100%" },
	{ KNOB_DIRTY_RATIO, -1, VM_DEFAULT, 4096, -ERANGE, "out of range" },
	{ KNOB_DIRTY_RATIO, 10, VM_DEFAULT, 4096, 1, "background ratio (10%) at or above dirty_ratio (10%)" },
	{ KNOB_DIRTY_RATIO, 0, VM_DEFAULT, 4096, 1, "no room for dirty data" },
	{ KNOB_DIRTY_BG_RATIO, 30, VM_DEFAULT, 4096, 1, "half the hard limit" },
	{ KNOB_DIRTY_BG_RATIO, 0, VM_DEFAULT, 4096, 1, "runs all the time" },
	{ KNOB_DIRTY_BYTES, 0, VM_DEFAULT, 4096, -EINVAL, "set vm.dirty_ratio" },
	{ KNOB_DIRTY_BYTES, 4096, VM_DEFAULT, 4096, -EINVAL, "two pages (8192 bytes)" },
	{ KNOB_DIRTY_BYTES, 8191, VM_DEFAULT, 4096, -EINVAL, "two pages" },
	{ KNOB_DIRTY_BYTES, 65536, VM_DEFAULT, 65536, -EINVAL, "two pages (131072 bytes)" },
	{ KNOB_DIRTY_BYTES, 8192, { 0, 0, 0, 4096 * 2, 3000, 500, 43200 }, 4096, 1, "at or above the hard limit" },
	{ KNOB_DIRTY_BYTES, 4 * G, VM_DEFAULT, 4096, 0, NULL },
	{ KNOB_DIRTY_BYTES, 64 * G, VM_DEFAULT, 4096, 1, "total memory" },
	{ KNOB_DIRTY_BG_BYTES, 0, VM_DEFAULT, 4096, -EINVAL, "set vm.dirty_background_ratio" },
	{ KNOB_DIRTY_BG_BYTES, 1 * G, { 0, 10, 512 * M, 0, 3000, 500, 43200 }, 4096, 1, "(1.0G) at or above the hard limit (512.0M)" },
	{ KNOB_DIRTY_BG_BYTES, 256 * M, { 0, 10, 512 * M, 0, 3000, 500, 43200 }, 4096, 0, NULL },
	{ KNOB_DIRTY_WRITEBACK_CS, 0, VM_DEFAULT, 4096, 1, "disables periodic writeback" },
	{ KNOB_DIRTY_WRITEBACK_CS, 100, VM_DEFAULT, 4096, 0, NULL },
	{ KNOB_DIRTY_EXPIRE_CS, 0, VM_DEFAULT, 4096, 1, "expired" },
	{ KNOB_DIRTYTIME_EXPIRE_S, (int64_t)INT32_MAX + 1, VM_DEFAULT, 4096, -ERANGE, NULL },
};

START_TEST(test_validate_vm)
{
	const struct vm_case *t = &vm_cases[_i];
	struct control_ctx ctx = ctx_vm(t->vm, 16 * G);
	ctx.page_size = t->page;
	struct control_ref ref = { .index = t->index };
	char msg[256];
	int rc = control_rules_validate(&ref, t->value, &ctx, msg, sizeof msg);
	ck_assert_msg(rc == t->rc, "case %d: rc %d, want %d (%s)", _i, rc, t->rc, msg);
	if (t->msg)
		ck_assert_msg(strstr(msg, t->msg), "case %d: \"%s\" lacks \"%s\"", _i, msg, t->msg);
	else if (t->rc == 0)
		ck_assert_str_eq(msg, "");
}
END_TEST

/* ---- validation of BDI knobs ---- */

static const struct bdi_case {
	int index;
	int64_t value;
	int64_t min_fine, max_fine;	/* current limits; -1: kernel without _fine */
	int rc;
	const char *msg;
} bdi_cases[] = {
	{ BDI_MAX_RATIO, 50, 0, 1000000, 0, NULL },
	{ BDI_MAX_RATIO, 101, 0, 1000000, -ERANGE, NULL },
	{ BDI_MIN_RATIO, 60, 0, 500000, -EINVAL, "min_ratio (60.0000%) would be above max_ratio (50.0000%)" },
	{ BDI_MAX_RATIO, 40, 500000, 1000000, -EINVAL, "refuses" },
	{ BDI_MAX_RATIO, 40, -1, -1, 0, NULL },	/* min_ratio 0 from the ratio view */
	{ BDI_MAX_RATIO, 0, 0, 1000000, 1, "no share" },
	{ BDI_MAX_RATIO_FINE, 1000001, 0, 1000000, -ERANGE, NULL },
	{ BDI_MIN_RATIO_FINE, 5000, 0, 1000000, 0, NULL },
	{ BDI_MAX_BYTES, 8 * G + 4096, 0, 1000000, -EINVAL, "more than the whole dirty limit (8.0G)" },
	{ BDI_MAX_BYTES, 8 * G, 0, 1000000, 0, NULL },
	{ BDI_MAX_BYTES, 2 * G, 300000, 1000000, -EINVAL, "would be above" },	/* 25% < 30% */
	{ BDI_MIN_BYTES, 2 * G, 0, 300000, 0, NULL },
	{ BDI_STRICT_LIMIT, 2, 0, 1000000, -ERANGE, NULL },
	{ BDI_STRICT_LIMIT, 1, 0, 1000000, 0, NULL },
};

START_TEST(test_validate_bdi)
{
	const struct bdi_case *t = &bdi_cases[_i];
	int64_t vm[KNOB_VM_COUNT] = VM_DEFAULT;
	struct control_ctx ctx = ctx_vm(vm, 40 * G);
	ctx.dirty_thresh_bytes = 8 * G;
	ctx.bdi[BDI_MIN_RATIO] = t->min_fine < 0 ? 0 : t->min_fine / 10000;
	ctx.bdi[BDI_MAX_RATIO] = t->max_fine < 0 ? 100 : t->max_fine / 10000;
	ctx.bdi[BDI_MIN_RATIO_FINE] = t->min_fine;
	ctx.bdi[BDI_MAX_RATIO_FINE] = t->max_fine;
	ctx.bdi[BDI_MIN_BYTES] = 0;
	ctx.bdi[BDI_MAX_BYTES] = 8 * G;
	ctx.bdi[BDI_STRICT_LIMIT] = 0;
	struct control_ref ref = { .bdi = true, .index = t->index, .major = 7, .minor = 0 };
	char msg[256];
	int rc = control_rules_validate(&ref, t->value, &ctx, msg, sizeof msg);
	ck_assert_msg(rc == t->rc, "case %d: rc %d, want %d (%s)", _i, rc, t->rc, msg);
	if (t->msg)
		ck_assert_msg(strstr(msg, t->msg), "case %d: \"%s\" lacks \"%s\"", _i, msg, t->msg);
}
END_TEST

/* ---- the ratio/bytes interplay as the kernel applies it ---- */

static const struct predict_case {
	int index;
	int64_t value;
	int64_t before[4];	/* ratio, bg ratio, bytes, bg bytes */
	int64_t after[4];
} predict_cases[] = {
	{ KNOB_DIRTY_BYTES, 512 * M, { 20, 10, 0, 0 }, { 0, 10, 512 * M, 0 } },
	{ KNOB_DIRTY_RATIO, 10, { 0, 10, 512 * M, 0 }, { 10, 10, 0, 0 } },
	{ KNOB_DIRTY_RATIO, 10, { 40, 10, 0, 0 }, { 10, 10, 0, 0 } },
	/* dirty_ratio_handler zeroes dirty_bytes only when the ratio changes */
	{ KNOB_DIRTY_RATIO, 0, { 0, 10, 512 * M, 0 }, { 0, 10, 512 * M, 0 } },
	{ KNOB_DIRTY_BYTES, 512 * M, { 0, 10, 512 * M, 0 }, { 0, 10, 512 * M, 0 } },
	/* the background handlers zero the partner on every write */
	{ KNOB_DIRTY_BG_BYTES, 64 * M, { 20, 10, 0, 0 }, { 20, 0, 0, 64 * M } },
	{ KNOB_DIRTY_BG_RATIO, 5, { 20, 0, 0, 64 * M }, { 20, 5, 0, 0 } },
	{ KNOB_DIRTY_EXPIRE_CS, 1000, { 20, 10, 0, 0 }, { 20, 10, 0, 0 } },
};

START_TEST(test_predict_vm)
{
	const struct predict_case *t = &predict_cases[_i];
	int64_t vm[KNOB_VM_COUNT] = { t->before[0], t->before[1], t->before[2], t->before[3], 3000, 500, 43200 };
	struct control_ctx ctx = ctx_vm(vm, 16 * G), after;
	struct control_ref ref = { .index = t->index };
	control_rules_predict(&ref, t->value, &ctx, &after);
	for (int i = 0; i < 4; i++)
		ck_assert_msg(after.vm[i] == t->after[i], "case %d: %s = %" PRId64 ", want %" PRId64,
			      _i, knob_vm_table[i].name, after.vm[i], t->after[i]);
	if (t->index == KNOB_DIRTY_EXPIRE_CS)
		ck_assert_int_eq(after.vm[KNOB_DIRTY_EXPIRE_CS], 1000);
}
END_TEST

START_TEST(test_predict_bdi)
{
	int64_t vm[KNOB_VM_COUNT] = VM_DEFAULT;
	struct control_ctx ctx = ctx_vm(vm, 40 * G), after;
	ctx.dirty_thresh_bytes = 8 * G;
	int64_t bdi[KNOB_BDI_COUNT] = { 0, 100, 0, 8 * G, 0, 0, 1000000, 128 };
	memcpy(ctx.bdi, bdi, sizeof bdi);
	struct control_ref ref = { .bdi = true, .index = BDI_MAX_RATIO };
	control_rules_predict(&ref, 50, &ctx, &after);
	ck_assert_int_eq(after.bdi[BDI_MAX_RATIO], 50);
	ck_assert_int_eq(after.bdi[BDI_MAX_RATIO_FINE], 500000);
	ck_assert_int_eq(after.bdi[BDI_MAX_BYTES], 4 * G);
	ck_assert_int_eq(after.bdi[BDI_MIN_RATIO], 0);

	ref.index = BDI_MIN_BYTES;	/* bytes become a share of the limit */
	control_rules_predict(&ref, 2 * G, &ctx, &after);
	ck_assert_int_eq(after.bdi[BDI_MIN_RATIO_FINE], 250000);
	ck_assert_int_eq(after.bdi[BDI_MIN_RATIO], 25);
	ck_assert_int_eq(after.bdi[BDI_MIN_BYTES], 2 * G);
}
END_TEST

/* ---- what undo and revert write: the member in force, with its value ---- */

static const struct restore_case {
	bool bdi;
	int edited;
	int64_t before[CONTROL_SCOPE_MAX];
	int want_index;
	int64_t want_value;
} restore_cases[] = {
	{ false, KNOB_DIRTY_RATIO, VM_DEFAULT, KNOB_DIRTY_RATIO, 20 },
	/* the case that matters: bytes were set, the ratio was in force before */
	{ false, KNOB_DIRTY_BYTES, VM_DEFAULT, KNOB_DIRTY_RATIO, 20 },
	{ false, KNOB_DIRTY_RATIO, { 0, 10, 512 * M, 0, 3000, 500, 43200 }, KNOB_DIRTY_BYTES, 512 * M },
	{ false, KNOB_DIRTY_BG_BYTES, VM_DEFAULT, KNOB_DIRTY_BG_RATIO, 10 },
	{ false, KNOB_DIRTY_BG_RATIO, { 20, 0, 0, 64 * M, 3000, 500, 43200 }, KNOB_DIRTY_BG_BYTES, 64 * M },
	{ false, KNOB_DIRTY_EXPIRE_CS, VM_DEFAULT, KNOB_DIRTY_EXPIRE_CS, 3000 },
	{ true, BDI_MAX_BYTES, { 0, 100, 0, 8 * G, 0, 0, 1000000, 128 }, BDI_MAX_RATIO_FINE, 1000000 },
	{ true, BDI_MAX_RATIO, { 0, 100, -1, -1, 0, -1, -1, 128 }, BDI_MAX_RATIO, 100 },
	{ true, BDI_MIN_RATIO, { 3, 100, 0, 8 * G, 0, 31234, 1000000, 128 }, BDI_MIN_RATIO_FINE, 31234 },
	{ true, BDI_STRICT_LIMIT, { 0, 100, 0, 8 * G, 1, 0, 1000000, 128 }, BDI_STRICT_LIMIT, 1 },
};

START_TEST(test_restore_member)
{
	const struct restore_case *t = &restore_cases[_i];
	struct control_ref ref = { .bdi = t->bdi, .index = t->edited };
	int64_t value = -2;
	struct control_ref got = control_rules_restore_member(&ref, t->before, &value);
	ck_assert_msg(got.index == t->want_index, "case %d: index %d, want %d", _i, got.index, t->want_index);
	ck_assert_int_eq(value, t->want_value);
	ck_assert(got.bdi == t->bdi);
}
END_TEST

/* ---- what the preview says ---- */

static const struct explain_case {
	int index;
	int64_t value;
	int64_t vm[KNOB_VM_COUNT];
	const char *want;
} explain_cases[] = {
	/* Chinner's fix, on a machine with 16G the ratios apply to */
	{ KNOB_DIRTY_RATIO, 10, { 40, 5, 0, 0, 3000, 500, 43200 },
	  "vm.dirty_ratio 40% -> 10%: hard limit ~6.4G -> ~1.6G; dirty_bytes (now 0) stays 0" },
	{ KNOB_DIRTY_BYTES, 512 * M, VM_DEFAULT,
	  "vm.dirty_bytes 0 -> 512.0M: hard limit ~3.2G -> 512.0M; dirty_ratio 20% -> reads 0: bytes take over" },
	{ KNOB_DIRTY_RATIO, 10, { 0, 10, 512 * M, 0, 3000, 500, 43200 },
	  "vm.dirty_ratio 0% -> 10%: hard limit 512.0M -> ~1.6G; dirty_bytes 512.0M -> 0: the ratio takes over" },
	{ KNOB_DIRTY_BG_BYTES, 64 * M, VM_DEFAULT,
	  "vm.dirty_background_bytes 0 -> 64.0M: background threshold ~1.6G -> 64.0M; "
	  "dirty_background_ratio 10% -> reads 0: bytes take over" },
	{ KNOB_DIRTY_EXPIRE_CS, 1000, VM_DEFAULT,
	  "vm.dirty_expire_centisecs 30.00s -> 10.00s: dirty data older than this is written out by the flushers" },
	{ KNOB_DIRTY_RATIO, 20, VM_DEFAULT, "(unchanged)" },
};

START_TEST(test_explain)
{
	const struct explain_case *t = &explain_cases[_i];
	struct control_ctx ctx = ctx_vm(t->vm, 16 * G);
	struct control_ref ref = { .index = t->index };
	char buf[512];
	control_rules_explain(&ref, knob_vm_table[t->index].name, t->value, &ctx, buf, sizeof buf);
	ck_assert_msg(strstr(buf, t->want), "case %d:\n got  %s\n want %s", _i, buf, t->want);
}
END_TEST

START_TEST(test_explain_bdi)
{
	int64_t vm[KNOB_VM_COUNT] = VM_DEFAULT;
	struct control_ctx ctx = ctx_vm(vm, 40 * G);
	ctx.dirty_thresh_bytes = 8 * G;
	int64_t bdi[KNOB_BDI_COUNT] = { 0, 100, 0, 8 * G, 0, 0, 1000000, 128 };
	memcpy(ctx.bdi, bdi, sizeof bdi);
	struct control_ref ref = { .bdi = true, .index = BDI_MAX_RATIO };
	char buf[512];
	control_rules_explain(&ref, "bdi:sda:max_ratio", 50, &ctx, buf, sizeof buf);
	ck_assert_str_eq(buf, "bdi:sda:max_ratio 100% -> 50%: this device may use at most "
			 "50.0000% of the dirty limit (~4.0G)");
}
END_TEST

START_TEST(test_ctx_from_snapshot)
{
	struct snapshot s;
	snapshot_init(&s);
	s.page_size = 4096;
	s.sys.dirty_thresh_pages = 1000000;	/* 3.8G at ratio 20: 19.07G dirtyable */
	s.sys.bg_thresh_pages = 500000;
	s.sys.mem_total_kb = 32 * 1024 * 1024;
	s.knob[KNOB_DIRTY_RATIO] = 20;
	s.knob[KNOB_DIRTY_BYTES] = 0;
	int64_t vm[KNOB_VM_COUNT] = VM_DEFAULT;
	struct control_ctx ctx = ctx_vm(vm, 0);
	control_rules_ctx_from_snapshot(&ctx, &s);
	ck_assert_uint_eq(ctx.dirty_thresh_bytes, 4096000000ULL);
	ck_assert_uint_eq(ctx.dirtyable_bytes, 4096000000ULL / 20 * 100);
	ck_assert_uint_eq(ctx.mem_total_bytes, 32ULL * G);
	/* with bytes in force the threshold says nothing about memory */
	s.knob[KNOB_DIRTY_BYTES] = 512 * M;
	s.sys.free_kb = 1024;
	s.sys.cache_kb = 2048;
	control_rules_ctx_from_snapshot(&ctx, &s);
	ck_assert_uint_eq(ctx.dirtyable_bytes, 3072 * 1024);
}
END_TEST

START_TEST(test_format_event)
{
	struct wb_event e = { .old_value = 20, .new_value = 10, .read_back = 10 };
	char buf[384];
	snprintf(e.knob, sizeof e.knob, "vm.dirty_ratio");
	ck_assert_str_eq(control_rules_format_event(&e, buf, sizeof buf), "vm.dirty_ratio 20 -> 10: ok");
	e.result = -EACCES;
	ck_assert_str_eq(control_rules_format_event(&e, buf, sizeof buf),
			 "vm.dirty_ratio 20 -> 10: failed: Permission denied");
	e.result = -EIO;
	e.read_back = 20;
	snprintf(e.note, sizeof e.note, "kernel holds 20%%");
	ck_assert_str_eq(control_rules_format_event(&e, buf, sizeof buf),
			 "vm.dirty_ratio 20 -> 10: MISMATCH, reads 20 (kernel holds 20%)");
	struct wb_event b = { .old_value = 0, .new_value = 512 * M, .read_back = 512 * M };
	snprintf(b.knob, sizeof b.knob, "bdi:7:0:max_bytes");
	ck_assert_str_eq(control_rules_format_event(&b, buf, sizeof buf),
			 "bdi:7:0:max_bytes 0 -> 536870912 (512.0M): ok");
}
END_TEST

/* ---- the stateful part, on knob files in a temporary directory ---- */

struct fixture {
	char root[64], vm[96], bdi[96], dev[96];
	struct control_config cfg;
};

static void fx_write(const char *dir, const char *file, const char *text)
{
	char path[256];
	snprintf(path, sizeof path, "%s/%s", dir, file);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static int64_t fx_read(const char *dir, const char *file)
{
	char path[256];
	snprintf(path, sizeof path, "%s/%s", dir, file);
	FILE *f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	long long v = -1;
	ck_assert_int_eq(fscanf(f, "%lld", &v), 1);
	fclose(f);
	return v;
}

static void fx_setup(struct fixture *fx)
{
	snprintf(fx->root, sizeof fx->root, "/tmp/wbtop-control.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(fx->root));
	snprintf(fx->vm, sizeof fx->vm, "%s/vm", fx->root);
	snprintf(fx->bdi, sizeof fx->bdi, "%s/bdi", fx->root);
	snprintf(fx->dev, sizeof fx->dev, "%s/dev", fx->root);
	mkdir(fx->vm, 0755);
	mkdir(fx->bdi, 0755);
	mkdir(fx->dev, 0755);
	static const char *vm[][2] = {
		{ "dirty_ratio", "20\n" }, { "dirty_background_ratio", "10\n" },
		{ "dirty_bytes", "0\n" }, { "dirty_background_bytes", "0\n" },
		{ "dirty_expire_centisecs", "3000\n" }, { "dirty_writeback_centisecs", "500\n" },
		{ "dirtytime_expire_seconds", "43200\n" },
	};
	for (size_t i = 0; i < sizeof vm / sizeof vm[0]; i++)
		fx_write(fx->vm, vm[i][0], vm[i][1]);
	char b[128];
	snprintf(b, sizeof b, "%s/7:0", fx->bdi);
	mkdir(b, 0755);
	static const char *bdi[][2] = {
		{ "min_ratio", "0\n" }, { "max_ratio", "100\n" }, { "min_bytes", "0\n" },
		{ "max_bytes", "4999127040\n" }, { "strict_limit", "0\n" },
		{ "min_ratio_fine", "0\n" }, { "max_ratio_fine", "1000000\n" }, { "read_ahead_kb", "128\n" },
	};
	for (size_t i = 0; i < sizeof bdi / sizeof bdi[0]; i++)
		fx_write(b, bdi[i][0], bdi[i][1]);
	memset(&fx->cfg, 0, sizeof fx->cfg);
	fx->cfg.vm_dir = fx->vm;
	fx->cfg.bdi_dir = fx->bdi;
	fx->cfg.dev_dir = fx->dev;
}

static void fx_teardown(struct fixture *fx)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", fx->root);
	ck_assert_int_eq(system(cmd), 0);
}

static const struct control_ref REF_RATIO = { .index = KNOB_DIRTY_RATIO };
static const struct control_ref REF_BYTES = { .index = KNOB_DIRTY_BYTES };

START_TEST(test_apply_and_read_back)
{
	struct fixture fx;
	fx_setup(&fx);
	struct control *c = control_new(&fx.cfg);
	ck_assert(control_can_write(c, NULL));
	ck_assert_int_eq(control_apply(c, &REF_RATIO, 10, NULL), 0);
	ck_assert_int_eq(fx_read(fx.vm, "dirty_ratio"), 10);
	ck_assert_uint_eq(control_nevents(c), 1);
	const struct wb_event *e = control_event(c, 0);
	ck_assert_str_eq(e->knob, "vm.dirty_ratio");
	ck_assert_int_eq(e->old_value, 20);
	ck_assert_int_eq(e->new_value, 10);
	ck_assert_int_eq(e->read_back, 10);
	ck_assert_int_eq(e->result, 0);
	ck_assert(e->wall_ns > 0);
	/* refused by validation: nothing written, no event */
	ck_assert_int_eq(control_apply(c, &REF_BYTES, 4096, NULL), -EINVAL);
	ck_assert_int_eq(fx_read(fx.vm, "dirty_bytes"), 0);
	ck_assert_uint_eq(control_nevents(c), 1);
	ck_assert_uint_eq(control_nchanges(c), 1);
	control_free(c);
	fx_teardown(&fx);
}
END_TEST

START_TEST(test_undo_stack)
{
	struct fixture fx;
	fx_setup(&fx);
	struct control *c = control_new(&fx.cfg);
	ck_assert_int_eq(control_apply(c, &REF_RATIO, 15, NULL), 0);
	ck_assert_int_eq(control_apply(c, &REF_RATIO, 12, NULL), 0);
	ck_assert_int_eq(control_undo(c), 0);
	ck_assert_int_eq(fx_read(fx.vm, "dirty_ratio"), 15);
	ck_assert_int_eq(control_undo(c), 0);
	ck_assert_int_eq(fx_read(fx.vm, "dirty_ratio"), 20);
	ck_assert_int_eq(control_undo(c), -ENOENT);
	const struct wb_event *e = control_event(c, control_nevents(c) - 1);
	ck_assert_str_eq(e->note, "undo");
	ck_assert_int_eq(e->new_value, 20);
	control_free(c);
	fx_teardown(&fx);
}
END_TEST

/* The kernel zeroes dirty_ratio when dirty_bytes is written; these plain
 * files don't, so the test does it the way the kernel would. */
START_TEST(test_revert_writes_member_in_force)
{
	struct fixture fx;
	fx_setup(&fx);
	struct control *c = control_new(&fx.cfg);
	ck_assert_int_eq(control_apply(c, &REF_BYTES, 512 * M, NULL), 0);
	fx_write(fx.vm, "dirty_ratio", "0\n");
	ck_assert_int_eq(control_revert_all(c), 0);
	const struct wb_event *e = control_event(c, control_nevents(c) - 1);
	ck_assert_str_eq(e->knob, "vm.dirty_ratio");
	ck_assert_int_eq(e->new_value, 20);
	ck_assert_str_eq(e->note, "revert");
	ck_assert_int_eq(fx_read(fx.vm, "dirty_ratio"), 20);
	ck_assert_uint_eq(control_nchanges(c), 0);
	/* a second revert has nothing left to do */
	size_t n = control_nevents(c);
	ck_assert_int_eq(control_revert_all(c), 0);
	ck_assert_uint_eq(control_nevents(c), n);
	control_free(c);
	fx_teardown(&fx);
}
END_TEST

START_TEST(test_undo_bytes_restores_ratio)
{
	struct fixture fx;
	fx_setup(&fx);
	struct control *c = control_new(&fx.cfg);
	ck_assert_int_eq(control_apply(c, &REF_BYTES, 256 * M, NULL), 0);
	fx_write(fx.vm, "dirty_ratio", "0\n");	/* as the kernel would */
	ck_assert_int_eq(control_undo(c), 0);
	const struct wb_event *e = control_event(c, control_nevents(c) - 1);
	ck_assert_str_eq(e->knob, "vm.dirty_ratio");	/* not dirty_bytes=0: the kernel refuses that */
	ck_assert_int_eq(e->new_value, 20);
	ck_assert_int_eq(fx_read(fx.vm, "dirty_ratio"), 20);
	control_free(c);
	fx_teardown(&fx);
}
END_TEST

START_TEST(test_revert_leaves_untouched_knobs)
{
	struct fixture fx;
	fx_setup(&fx);
	struct control *c = control_new(&fx.cfg);
	ck_assert_int_eq(control_apply(c, &REF_RATIO, 10, NULL), 0);
	/* someone else changes a knob wbtop never wrote: revert leaves it */
	fx_write(fx.vm, "dirty_expire_centisecs", "1500\n");
	ck_assert_int_eq(control_revert_all(c), 0);
	ck_assert_int_eq(fx_read(fx.vm, "dirty_ratio"), 20);
	ck_assert_int_eq(fx_read(fx.vm, "dirty_expire_centisecs"), 1500);
	control_free(c);
	fx_teardown(&fx);
}
END_TEST

START_TEST(test_bdi_apply_revert)
{
	struct fixture fx;
	fx_setup(&fx);
	char b[128];
	snprintf(b, sizeof b, "%s/7:0", fx.bdi);
	struct control *c = control_new(&fx.cfg);
	struct control_item items[KNOB_BDI_COUNT];
	size_t n = 0;
	ck_assert_int_eq(control_list_bdi(c, 7, 0, items, &n), 0);
	ck_assert_uint_eq(n, 5);
	ck_assert_str_eq(items[1].name, "bdi:7:0:max_ratio");
	ck_assert_int_eq(items[1].value, 100);
	ck_assert_int_eq(control_list_bdi(c, 7, 9, items, &n), -ENOENT);

	struct control_ref max = { .bdi = true, .index = BDI_MAX_RATIO, .major = 7, .minor = 0 };
	struct control_ref min = { .bdi = true, .index = BDI_MIN_RATIO, .major = 7, .minor = 0 };
	ck_assert_int_eq(control_apply(c, &max, 50, NULL), 0);
	fx_write(b, "max_ratio_fine", "500000\n");	/* as the kernel would */
	ck_assert_int_eq(control_apply(c, &min, 60, NULL), -EINVAL);	/* above max */
	ck_assert_int_eq(fx_read(b, "min_ratio"), 0);
	ck_assert_int_eq(control_revert_all(c), 0);
	ck_assert_int_eq(fx_read(b, "max_ratio_fine"), 1000000);
	const struct wb_event *e = control_event(c, control_nevents(c) - 1);
	ck_assert_str_eq(e->knob, "bdi:7:0:max_ratio_fine");
	control_free(c);
	fx_teardown(&fx);
}
END_TEST

START_TEST(test_read_only)
{
	struct fixture fx;
	fx_setup(&fx);
	fx.cfg.read_only = true;
	struct control *c = control_new(&fx.cfg);
	const char *why = NULL;
	ck_assert(!control_can_write(c, &why));
	ck_assert_str_eq(why, "--read-only");
	ck_assert_int_eq(control_apply(c, &REF_RATIO, 10, NULL), -EPERM);
	ck_assert_int_eq(fx_read(fx.vm, "dirty_ratio"), 20);
	ck_assert_uint_eq(control_nevents(c), 0);
	control_free(c);
	control_free(NULL);
	fx_teardown(&fx);
}
END_TEST

START_TEST(test_failed_write_and_mismatch)
{
	struct fixture fx;
	fx_setup(&fx);
	char path[128];
	/* a read-only sysctl: it reads fine and refuses writes, even root's */
	snprintf(path, sizeof path, "%s/dirty_expire_centisecs", fx.vm);
	unlink(path);
	ck_assert_int_eq(symlink("/proc/sys/fs/file-nr", path), 0);
	/* oom_adj is kept as oom_score_adj (x 1000/17) and reads back rounded
	 * down: write 10, read 9, as a kernel that ignored a write would do */
	snprintf(path, sizeof path, "%s/dirty_writeback_centisecs", fx.vm);
	unlink(path);
	ck_assert_int_eq(symlink("/proc/self/oom_adj", path), 0);
	struct control *c = control_new(&fx.cfg);
	struct control_ref exp = { .index = KNOB_DIRTY_EXPIRE_CS };
	struct control_ref wb = { .index = KNOB_DIRTY_WRITEBACK_CS };
	ck_assert_int_eq(control_apply(c, &exp, 1000, NULL), -EACCES);
	ck_assert_int_eq(control_event(c, 0)->result, -EACCES);
	ck_assert_uint_eq(control_nchanges(c), 0);
	ck_assert_int_eq(control_apply(c, &wb, 10, NULL), -EIO);
	ck_assert_int_eq(control_event(c, 1)->read_back, 9);
	ck_assert_int_eq(control_event(c, 1)->result, -EIO);
	ck_assert_ptr_nonnull(strstr(control_event(c, 1)->note, "not what was written"));
	ck_assert_uint_eq(control_nchanges(c), 1);
	control_free(c);
	fx_teardown(&fx);
}
END_TEST

START_TEST(test_dead_man)
{
	struct fixture fx;
	fx_setup(&fx);
	fx.cfg.revert_after_s = 30;
	struct control *c = control_new(&fx.cfg);
	ck_assert(control_deadline_left_s(c, 0) < 0);
	ck_assert_int_eq(control_apply(c, &REF_RATIO, 10, NULL), 0);
	ck_assert_uint_eq(control_tick(c, 0), 0);	/* long before the deadline */
	ck_assert(control_deadline_left_s(c, 0) > 29);
	ck_assert_int_eq(fx_read(fx.vm, "dirty_ratio"), 10);
	control_confirm(c);
	ck_assert(control_deadline_left_s(c, 0) < 0);
	ck_assert_uint_eq(control_tick(c, UINT64_MAX), 0);	/* confirmed: kept */
	ck_assert_int_eq(fx_read(fx.vm, "dirty_ratio"), 10);

	ck_assert_int_eq(control_apply(c, &REF_RATIO, 5, NULL), 0);
	ck_assert_int_eq(control_apply(c, &REF_RATIO, 4, NULL), 0);
	ck_assert_uint_eq(control_tick(c, UINT64_MAX), 2);	/* both unconfirmed ones */
	ck_assert_int_eq(fx_read(fx.vm, "dirty_ratio"), 10);
	ck_assert_uint_eq(control_nchanges(c), 1);
	ck_assert_ptr_nonnull(strstr(control_event(c, control_nevents(c) - 1)->note, "not confirmed"));
	control_free(c);
	fx_teardown(&fx);
}
END_TEST

/* Linux 6.1 (Debian 12) has min_ratio, max_ratio and read_ahead_kb only:
 * the byte knobs, the _fine ratios and strict_limit came in 6.2.  The pane
 * lists them absent, --set and a write refuse them, saying so. */
START_TEST(test_bdi_knobs_absent_before_6_2)
{
	struct fixture fx;
	fx_setup(&fx);
	char b[160], f[200];
	snprintf(b, sizeof b, "%s/7:0", fx.bdi);
	static const char *const gone[] = { "min_bytes", "max_bytes", "strict_limit",
					     "min_ratio_fine", "max_ratio_fine" };
	for (size_t i = 0; i < sizeof gone / sizeof gone[0]; i++) {
		snprintf(f, sizeof f, "%s/%s", b, gone[i]);
		ck_assert_int_eq(unlink(f), 0);
	}
	struct control *c = control_new(&fx.cfg);
	struct control_item items[KNOB_BDI_COUNT];
	size_t n = 0;
	ck_assert_int_eq(control_list_bdi(c, 7, 0, items, &n), 0);
	ck_assert_uint_eq(n, 5);
	for (size_t i = 0; i < n; i++) {
		bool old = items[i].ref.index == BDI_MIN_RATIO || items[i].ref.index == BDI_MAX_RATIO;
		ck_assert_msg(items[i].absent == !old, "%s", items[i].name);
		if (!old)
			ck_assert_int_eq(items[i].value, -1);
	}
	struct control_ref max_bytes = { .bdi = true, .index = BDI_MAX_BYTES, .major = 7, .minor = 0 };
	struct control_ref max_ratio = { .bdi = true, .index = BDI_MAX_RATIO, .major = 7, .minor = 0 };
	struct control_ref strict = { .bdi = true, .index = BDI_STRICT_LIMIT, .major = 7, .minor = 0 };
	ck_assert(control_absent(c, &max_bytes));
	ck_assert(control_absent(c, &strict));
	ck_assert(!control_absent(c, &max_ratio));
	char why[64];
	ck_assert_str_eq(knob_absent_text(control_rules_def(&max_bytes), why, sizeof why),
			 "absent on this kernel (6.2+)");
	ck_assert_str_eq(knob_absent_text(control_rules_def(&strict), why, sizeof why),
			 "absent on this kernel (6.2+)");
	struct control_ctx ctx;
	ck_assert_int_eq(control_ctx(c, &max_bytes, NULL, &ctx), -ENOENT);
	ck_assert_int_eq(control_ctx(c, &max_ratio, NULL, &ctx), 0);
	/* nothing written, and no file made where the kernel has none */
	ck_assert_int_lt(control_apply(c, &strict, 1, NULL), 0);
	snprintf(f, sizeof f, "%s/strict_limit", b);
	ck_assert_int_ne(access(f, F_OK), 0);
	/* with the file there (6.2+), not absent */
	fx_write(b, "strict_limit", "0\n");
	ck_assert(!control_absent(c, &strict));
	control_free(c);
	fx_teardown(&fx);
}
END_TEST

START_TEST(test_list_and_preview)
{
	struct fixture fx;
	fx_setup(&fx);
	fx_write(fx.vm, "dirty_bytes", "536870912\n");
	fx_write(fx.vm, "dirty_ratio", "0\n");
	fx_write(fx.vm, "dirty_background_ratio", "5\n");
	struct control *c = control_new(&fx.cfg);
	struct control_item items[KNOB_VM_COUNT];
	ck_assert_uint_eq(control_list_vm(c, items), KNOB_VM_COUNT);
	ck_assert(!items[KNOB_DIRTY_RATIO].in_force);
	ck_assert(items[KNOB_DIRTY_BYTES].in_force);
	ck_assert(items[KNOB_DIRTY_BG_RATIO].in_force);
	ck_assert(!items[KNOB_DIRTY_BG_BYTES].in_force);
	ck_assert_int_eq(items[KNOB_DIRTY_BYTES].start, 536870912);

	char buf[512];
	int64_t v;
	ck_assert_int_eq(control_preview(c, &REF_RATIO, "10", NULL, &v, buf, sizeof buf), 0);
	ck_assert_int_eq(v, 10);
	ck_assert_ptr_nonnull(strstr(buf, "dirty_bytes 512.0M -> 0: the ratio takes over"));
	ck_assert_int_eq(control_preview(c, &REF_BYTES, "1G", NULL, &v, buf, sizeof buf), 0);
	ck_assert_int_eq(v, G);
	ck_assert_int_eq(control_preview(c, &REF_RATIO, "ten", NULL, &v, buf, sizeof buf), -EINVAL);
	ck_assert_ptr_nonnull(strstr(buf, "not a whole number"));
	ck_assert_int_eq(control_preview(c, &REF_RATIO, "101", NULL, &v, buf, sizeof buf), -ERANGE);
	ck_assert_ptr_nonnull(strstr(buf, "refused"));
	ck_assert_uint_eq(control_nevents(c), 0);	/* a preview writes nothing */
	ck_assert_int_eq(fx_read(fx.vm, "dirty_ratio"), 0);
	control_free(c);
	fx_teardown(&fx);
}
END_TEST

/* Sizes as people write them, fractions of a unit included ("1.5G"). */
static const struct { enum knob_kind kind; const char *text; int rc; int64_t v; } parse_cases[] = {
	{ KNOB_KIND_BYTES, "536870912", 0, 536870912 },
	{ KNOB_KIND_BYTES, "512M", 0, 512LL << 20 },
	{ KNOB_KIND_BYTES, "1.5G", 0, 3LL << 29 },
	{ KNOB_KIND_BYTES, "1.5GiB", 0, 3LL << 29 },
	{ KNOB_KIND_BYTES, "0.25M", 0, 1LL << 18 },
	{ KNOB_KIND_BYTES, "2.0T", 0, 2LL << 40 },
	{ KNOB_KIND_BYTES, " 64M ", 0, 64LL << 20 },
	{ KNOB_KIND_KB, "1.5M", 0, 1536 },
	{ KNOB_KIND_KB, "128", 0, 128 },
	{ KNOB_KIND_BYTES, "1.5", -EINVAL, 0 },	/* a fraction of a byte */
	{ KNOB_KIND_BYTES, "1.G", -EINVAL, 0 },
	{ KNOB_KIND_BYTES, ".5G", -EINVAL, 0 },
	{ KNOB_KIND_BYTES, "1.5X", -EINVAL, 0 },
	{ KNOB_KIND_BYTES, "-1G", -EINVAL, 0 },
	{ KNOB_KIND_BYTES, "8388607.5T", -ERANGE, 0 },
	{ KNOB_KIND_RATIO, "1.5", -EINVAL, 0 },	/* ratios are whole percent */
};

START_TEST(test_parse_value)
{
	int64_t v = -1;
	int rc = knob_parse_value(parse_cases[_i].kind, parse_cases[_i].text, &v);
	ck_assert_msg(rc == parse_cases[_i].rc, "'%s': rc %d", parse_cases[_i].text, rc);
	if (rc == 0)
		ck_assert_int_eq(v, parse_cases[_i].v);
}
END_TEST

Suite *control_suite(void)
{
	Suite *s = suite_create("control");
	TCase *pure = tcase_create("rules");
	tcase_add_loop_test(pure, test_validate_vm, 0, sizeof vm_cases / sizeof vm_cases[0]);
	tcase_add_loop_test(pure, test_validate_bdi, 0, sizeof bdi_cases / sizeof bdi_cases[0]);
	tcase_add_loop_test(pure, test_predict_vm, 0, sizeof predict_cases / sizeof predict_cases[0]);
	tcase_add_test(pure, test_predict_bdi);
	tcase_add_loop_test(pure, test_restore_member, 0, sizeof restore_cases / sizeof restore_cases[0]);
	tcase_add_loop_test(pure, test_explain, 0, sizeof explain_cases / sizeof explain_cases[0]);
	tcase_add_test(pure, test_explain_bdi);
	tcase_add_test(pure, test_ctx_from_snapshot);
	tcase_add_test(pure, test_format_event);
	tcase_add_loop_test(pure, test_parse_value, 0, sizeof parse_cases / sizeof parse_cases[0]);
	suite_add_tcase(s, pure);
	TCase *files = tcase_create("files");
	tcase_add_test(files, test_apply_and_read_back);
	tcase_add_test(files, test_undo_stack);
	tcase_add_test(files, test_revert_writes_member_in_force);
	tcase_add_test(files, test_undo_bytes_restores_ratio);
	tcase_add_test(files, test_revert_leaves_untouched_knobs);
	tcase_add_test(files, test_bdi_apply_revert);
	tcase_add_test(files, test_read_only);
	tcase_add_test(files, test_failed_write_and_mismatch);
	tcase_add_test(files, test_dead_man);
	tcase_add_test(files, test_list_and_preview);
	tcase_add_test(files, test_bdi_knobs_absent_before_6_2);
	suite_add_tcase(s, files);
	return s;
}
