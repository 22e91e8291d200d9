/*
 * control.c - the stateful half of control.h: owns the knob files.  Reads each scope
 * and keeps its start values, writes a knob and reads the scope back, records each
 * write as an event, keeps the stack for undo, revert-all and the dead-man timer.
 * Not: the rules (control_rules.c decides, this file carries out), nor a view: it
 * returns 0 or -errno and never prints (syslog, when asked, aside).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "core/control.h"
#include "control_priv.h"
#include "util/grow.h"
#include "util/sysfs.h"

/* ------------------------------------------------------------------ */
/* state: scopes of knob files, changes, events                       */

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
	return grow_array(arr, cap, n + 1, sz, 8);
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
	return sysfs_read_int(path, out);
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

/* Whether the kernel has no file for the knob (a BDI knob before 6.2). */
static bool control_file_absent(const struct control *c, const struct control_scope *sc, int index)
{
	char path[PATH_MAX];
	control_path(c, sc, index, path, sizeof path);
	return access(path, F_OK) < 0 && errno == ENOENT;
}

static void control_item_fill(const struct control_scope *sc, int index, struct control_item *it)
{
	memset(it, 0, sizeof *it);
	it->ref = (struct control_ref){ .bdi = sc->bdi, .index = index,
					.major = sc->major, .minor = sc->minor };
	it->def = control_rules_def(&it->ref);
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
	for (size_t i = 0; i < sizeof shown / sizeof shown[0]; i++) {
		bool absent = sc->cur[shown[i]] < 0 && control_file_absent(c, sc, shown[i]);
		if (sc->cur[shown[i]] < 0 && !absent)
			continue;	/* there but unreadable: not offered */
		control_item_fill(sc, shown[i], &out[*n]);
		out[(*n)++].absent = absent;
	}
	return 0;
}

bool control_absent(struct control *c, const struct control_ref *ref)
{
	int err;
	struct control_scope *sc = control_rules_def(ref) ? control_scope_get(c, ref, &err) : NULL;
	return sc && control_file_absent(c, sc, ref->index);
}

const char *control_name(struct control *c, const struct control_ref *ref, char *buf, size_t len)
{
	int err;
	struct control_scope *sc = control_rules_def(ref) ? control_scope_get(c, ref, &err) : NULL;
	if (sc)
		control_scope_name(sc, ref->index, buf, len);
	else
		snprintf(buf, len, "bdi:%u:%u:%s", ref->major, ref->minor,
			 control_rules_def(ref) ? control_rules_def(ref)->file : "?");
	return buf;
}

int control_ctx(struct control *c, const struct control_ref *ref,
		const struct snapshot *s, struct control_ctx *ctx)
{
	memset(ctx, 0, sizeof *ctx);
	for (int i = 0; i < KNOB_BDI_COUNT; i++)
		ctx->bdi[i] = -1;
	if (!control_rules_def(ref))
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
		control_rules_ctx_from_snapshot(ctx, s);
	int64_t v = ref->bdi ? ctx->bdi[ref->index] : ctx->vm[ref->index];
	return v < 0 ? -ENOENT : 0;
}

int control_preview(struct control *c, const struct control_ref *ref, const char *text,
		    const struct snapshot *s, int64_t *value, char *buf, size_t len)
{
	const struct knob_def *def = control_rules_def(ref);
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
	rc = control_rules_validate(ref, *value, &ctx, msg, sizeof msg);
	if (rc < 0) {
		snprintf(buf, len, "%s=%s refused: %s", name, text, msg);
		return rc;
	}
	control_rules_explain(ref, name, *value, &ctx, buf, len);
	if (rc > 0)
		control_rules_cat(buf, len, "; warning: %s", msg);
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
		syslog(LOG_USER | LOG_NOTICE, "knob change: %s", control_rules_format_event(ev, line, sizeof line));
	}
	return 0;
}

/* Whether what the kernel holds is what was written.  BDI bytes come back
 * re-derived from a share of the current dirty limit: within 1% is a match. */
static bool control_same(const struct control_ref *ref, int64_t asked, int64_t held, uint64_t page)
{
	if (asked == held)
		return true;
	if (!ref->bdi || control_rules_def(ref)->kind != KNOB_KIND_BYTES || held < 0)
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
		snprintf(t, sizeof t, "%s now %s", def->file, control_rules_fmt(def, sc->cur[i], v, sizeof v));
		control_rules_clause(note, len, t);
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
			 control_rules_fmt(control_rules_def(ref), ev.read_back, v, sizeof v));
		control_rules_clause(ev.note, sizeof ev.note, t);
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
	return control_apply_why(c, ref, value, s, "");
}

int control_apply_why(struct control *c, const struct control_ref *ref, int64_t value,
		      const struct snapshot *s, const char *why)
{
	if (!c->can_write)
		return -c->ro_errno;
	struct control_ctx ctx;
	char msg[256];
	int rc = control_ctx(c, ref, s, &ctx);
	if (rc < 0)
		return rc;
	rc = control_rules_validate(ref, value, &ctx, msg, sizeof msg);
	if (rc < 0)
		return rc;
	if (control_grow((void **)&c->changes, &c->cap_changes, c->nchanges, sizeof *c->changes) < 0)
		return -ENOMEM;
	struct control_change ch = { .ref = *ref };
	memcpy(ch.before, ref->bdi ? ctx.bdi : ctx.vm,
	       (ref->bdi ? KNOB_BDI_COUNT : KNOB_VM_COUNT) * sizeof ch.before[0]);
	rc = control_write(c, ref, value, why);
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
	struct control_ref target = control_rules_restore_member(&ch->ref, ch->before, &value);
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
	else if (sc->bdi && control_rules_bdi_group(index, &r, &f, &b))
		group = 1u << r | 1u << f | 1u << b;
	if (!(sc->touched & group))
		return 0;
	int64_t value;
	struct control_ref target = control_rules_restore_member(&ref, sc->start, &value);
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
		int64_t min_now = control_rules_bdi_fine(sc->cur, BDI_MIN_RATIO, BDI_MIN_RATIO_FINE);
		int64_t min_start = control_rules_bdi_fine(sc->start, BDI_MIN_RATIO, BDI_MIN_RATIO_FINE);
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
	return control_revert_all_why(c, "revert");
}

int control_revert_all_why(struct control *c, const char *why)
{
	if (!c->can_write)
		return c->nchanges ? -c->ro_errno : 0;
	int first = control_revert_scope(c, &c->vm, why);
	for (size_t i = 0; i < c->nbdi; i++) {
		int rc = control_revert_scope(c, &c->bdis[i], why);
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
