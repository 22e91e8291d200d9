/*
 * control.h - changing writeback knobs: validate, explain, write, read back, undo.
 *
 * Every knob write (edit panel, --set) goes through here and becomes a struct wb_event;
 * changes stack up for undo and revert-all, a dead-man timer reverts what was not confirmed,
 * and undo writes the member of a pair that was in force (doc/knobs.md).
 * Not a view: never prints or exits; touches only the knob files.
 */
#ifndef WBTOP_CONTROL_H
#define WBTOP_CONTROL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/event.h"
#include "core/knob.h"

/* Where the knobs live.  control_config can point elsewhere (unit tests). */
#define CONTROL_VM_DIR	"/proc/sys/vm"
#define CONTROL_BDI_DIR	"/sys/class/bdi"		/* BDI knobs: CONTROL_BDI_DIR/MAJ:MIN/FILE */
#define CONTROL_DEV_DIR	"/sys/dev/block"	/* MAJ:MIN -> device, for names in events */

/* Enough room for the knobs of one scope (vm or one BDI). */
#define CONTROL_SCOPE_MAX ((int)KNOB_VM_COUNT > (int)KNOB_BDI_COUNT ? (int)KNOB_VM_COUNT : (int)KNOB_BDI_COUNT)

/* Names one knob: a vm sysctl, or a BDI knob of device major:minor. */
struct control_ref {
	bool bdi;
	int index;			/* enum knob_vm, or enum knob_bdi when bdi */
	uint32_t major, minor;		/* bdi only */
};

struct control_config {
	const char *vm_dir, *bdi_dir, *dev_dir;	/* NULL: the CONTROL_*_DIR above */
	bool read_only;			/* --read-only: no writes at all */
	double revert_after_s;		/* --revert-after; 0 = no dead-man timer */
	bool log_syslog;		/* also log each write to syslog (LOG_NOTICE) */
};

/* One editable knob as the edit panel lists it. */
struct control_item {
	struct control_ref ref;
	const struct knob_def *def;
	char name[96];			/* as in events: "vm.dirty_ratio", "bdi:sda:max_ratio" */
	int64_t value;			/* as read now; -1 if unreadable */
	int64_t start;			/* as found when control first saw it */
	bool in_force;			/* false: reads 0 because its ratio/bytes partner rules */
	bool absent;			/* the kernel has no such file (a BDI knob before 6.2) */
};

/* What validation and explanation look at: the scope's current values and
 * the system figures that turn ratios into bytes.  Pure data. */
struct control_ctx {
	int64_t vm[KNOB_VM_COUNT];	/* current vm knobs; -1 unknown */
	int64_t bdi[KNOB_BDI_COUNT];	/* current BDI knobs of the device; -1 absent */
	uint64_t page_size;		/* bytes; 0 unknown (4096 assumed) */
	uint64_t dirty_thresh_bytes;	/* the kernel's hard limit now (nr_dirty_threshold); 0 unknown */
	uint64_t bg_thresh_bytes;	/* the background threshold now; 0 unknown */
	uint64_t dirtyable_bytes;	/* the memory ratios are taken of; 0 unknown */
	uint64_t mem_total_bytes;	/* 0 unknown */
};

struct snapshot;
struct control;

/* ---- the pure part: no files, no clock ---- */

/* The knob table row of ref; NULL if ref's index is out of range. */
const struct knob_def *control_rules_def(const struct control_ref *ref);

/* Fill the system figures of ctx from a snapshot (knob values untouched).
 * The memory ratios apply to is worked back from nr_dirty_threshold and the
 * ratio in force when it can be, else estimated as free + cache. */
void control_rules_ctx_from_snapshot(struct control_ctx *ctx, const struct snapshot *s);

/* Check value for ref against the kernel's rules and ctx.  0: fine;
 * 1: fine but worth a warning (msg says why); -EINVAL or -ERANGE: refused,
 * msg says why.  msg is always a complete sentence fragment, "" when 0. */
int control_rules_validate(const struct control_ref *ref, int64_t value,
			   const struct control_ctx *ctx, char *msg, size_t len);

/* The scope's values after writing value to ref, as the kernel would leave
 * them (partners zeroed, BDI views recomputed): after = ctx with changes. */
void control_rules_predict(const struct control_ref *ref, int64_t value,
			   const struct control_ctx *ctx, struct control_ctx *after);

/* One line saying what writing value to ref will do, e.g.
 * "vm.dirty_ratio 40% -> 10%: hard limit ~6.2G -> ~1.6G; dirty_bytes (now 0) stays 0".
 * name is how to call the knob.  Returns buf. */
const char *control_rules_explain(const struct control_ref *ref, const char *name, int64_t value,
				  const struct control_ctx *ctx, char *buf, size_t len);

/* The knob to write, and its value, that puts ref's setting back as it was
 * in before[] (values of ref's scope): the member of a ratio/bytes pair that
 * was in force; for a BDI limit its finest view the kernel has. */
struct control_ref control_rules_restore_member(const struct control_ref *ref,
						const int64_t before[CONTROL_SCOPE_MAX],
						int64_t *value);

/* One line for an event, as batch output and --set print it:
 * "vm.dirty_ratio 20 -> 10: ok, reads 10" or "...: failed: Permission denied". */
const char *control_rules_format_event(const struct wb_event *e, char *buf, size_t len);

/* ---- the stateful part: owns the knob files ---- */

/* Read the vm knobs now and remember them as the start values.  cfg may be
 * NULL (defaults).  NULL only on allocation failure. */
struct control *control_new(const struct control_config *cfg);
/* Free; does not revert (call control_revert_all first for
 * --restore-on-exit).  NULL is a no-op. */
void control_free(struct control *c);

/* Whether knobs may be written.  When not, *reason (if reason is non-NULL)
 * says why in a few words ("not root", "--read-only", "/proc/sys is
 * read-only"); valid while c lives.  Show knobs read-only then. */
bool control_can_write(const struct control *c, const char **reason);

/* The vm knobs, read now, in enum knob_vm order; returns KNOB_VM_COUNT. */
size_t control_list_vm(struct control *c, struct control_item out[KNOB_VM_COUNT]);
/* The BDI limits of device major:minor (min_ratio, max_ratio, min_bytes,
 * max_bytes, strict_limit), read now, into out; one the kernel lacks (before
 * 6.2) is listed with absent set and value -1, one there but unreadable is
 * left out; *n set to how many.  0, or -ENOENT if the device has no BDI. */
int control_list_bdi(struct control *c, uint32_t major, uint32_t minor,
		     struct control_item out[KNOB_BDI_COUNT], size_t *n);
/* Whether the kernel has no file for ref's knob, where its scope (the BDI)
 * is there: min_bytes, max_bytes, strict_limit and the _fine ratios before
 * Linux 6.2.  control_list_bdi lists such a knob with absent set. */
bool control_absent(struct control *c, const struct control_ref *ref);
/* Current values of ref's scope into ctx (knobs) and snapshot figures (s may
 * be NULL).  0, or -ENOENT if the knob does not exist on this kernel. */
int control_ctx(struct control *c, const struct control_ref *ref,
		const struct snapshot *s, struct control_ctx *ctx);
/* The name events use for ref ("vm.dirty_ratio", "bdi:sda:max_ratio"). */
const char *control_name(struct control *c, const struct control_ref *ref, char *buf, size_t len);

/* Parse text as a value of ref, validate it against the current values and
 * explain it into buf.  *value gets the parsed value.  Same returns as
 * control_rules_validate; on a parse error buf says what was expected. */
int control_preview(struct control *c, const struct control_ref *ref, const char *text,
		    const struct snapshot *s, int64_t *value, char *buf, size_t len);

/* Validate, write, read back.  0: the kernel holds value; -EPERM, -EACCES
 * or -EROFS before trying (control_can_write is false: nothing attempted,
 * no event); -EINVAL/-ERANGE (refused by validation: nothing written, no
 * event); -ENOENT (no such knob here); another -errno (the write failed);
 * -EIO (written, but the kernel holds something else).  Every attempted
 * write adds an event.  A write that went through can be undone, and starts
 * or restarts the dead-man timer. */
int control_apply(struct control *c, const struct control_ref *ref, int64_t value,
		  const struct snapshot *s);
/* control_apply with the reason the event's note starts with ("--set"). */
int control_apply_why(struct control *c, const struct control_ref *ref, int64_t value,
		      const struct snapshot *s, const char *why);
/* Put back the setting the last change altered.  0, -ENOENT if there is
 * nothing to undo, or a write error (the change stays on the stack). */
int control_undo(struct control *c);
/* Put every knob changed since start back to its start value (the member
 * of each pair that was in force then).  0 or the first error; tries all. */
int control_revert_all(struct control *c);
/* control_revert_all with the reason for the events' notes ("--restore-on-exit"). */
int control_revert_all_why(struct control *c, const char *why);
/* Changes applied and not undone. */
size_t control_nchanges(const struct control *c);

/* Dead-man timer: confirm every change so far (stops the countdown). */
void control_confirm(struct control *c);
/* Call every interval with CLOCK_MONOTONIC ns: when unconfirmed changes
 * are older than --revert-after, undo them.  Returns how many were undone. */
size_t control_tick(struct control *c, uint64_t now_mono_ns);
/* Seconds until unconfirmed changes are reverted; -1 if none pending. */
double control_deadline_left_s(const struct control *c, uint64_t now_mono_ns);

/* Events so far, oldest first.  A pointer stays valid until the next call
 * that writes (apply, undo, revert, tick). */
size_t control_nevents(const struct control *c);
const struct wb_event *control_event(const struct control *c, size_t i);

/* Knob values that differ between prev and cur (changed by anyone: wbtop,
 * sysctl, a tuning daemon), as events stamped with cur's time; at most cap
 * of them into out.  Returns how many. */
size_t control_rules_changes(const struct snapshot *prev, const struct snapshot *cur,
			     struct wb_event *out, size_t cap);

/* Of n changes seen (control_rules_changes), keep in place those that none
 * of wbtop's own writes own[0..nown) explains: the changes someone else
 * made.  A write explains its knob and its ratio/bytes partner.  Returns
 * how many are kept. */
size_t control_rules_unexplained(struct wb_event *seen, size_t n, const struct wb_event *own,
				 size_t nown);

#endif
