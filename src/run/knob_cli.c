/*
 * knob_cli.c - --set and --sysctl-conf: knob changes without the screen.
 *
 * Parsing an assignment and naming a device are done here; the rules, the
 * writes and the roll-back are control.h's, so --set and the edit panel
 * cannot disagree.  Not a library: this prints and returns exit statuses.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/control.h"
#include "run/knob_cli.h"
#include "core/snapshot.h"
#include "core/source.h"

enum { KNOB_CLI_OK = 0, KNOB_CLI_FAILED = 1, KNOB_CLI_INVALID = 2 };

/* One parsed assignment. */
struct knob_cli_set {
	const char *text;		/* as given, for messages */
	struct control_ref ref;
	int64_t value;
};

/* Read "MAJ:MIN" from a sysfs dev file.  0 or -errno. */
static int knob_cli_read_devno(const char *path, uint32_t *major, uint32_t *minor)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return -errno;
	int n = fscanf(f, "%" SCNu32 ":%" SCNu32, major, minor);
	fclose(f);
	return n == 2 ? 0 : -EINVAL;
}

/* A device-mapper device by its name: scan /sys/block/dm-* /dm/name. */
static int knob_cli_find_dm(const char *name, uint32_t *major, uint32_t *minor)
{
	DIR *d = opendir(KNOB_CLI_SYS_BLOCK);
	if (!d)
		return -errno;
	struct dirent *e;
	int rc = -ENOENT;
	while (rc == -ENOENT && (e = readdir(d))) {
		if (strncmp(e->d_name, "dm-", 3) != 0)
			continue;
		char path[PATH_MAX], got[256];
		snprintf(path, sizeof path, "%s/%s/dm/name", KNOB_CLI_SYS_BLOCK, e->d_name);
		FILE *f = fopen(path, "re");
		if (!f)
			continue;
		bool match = fgets(got, sizeof got, f) && (got[strcspn(got, "\n")] = '\0', strcmp(got, name) == 0);
		fclose(f);
		if (match) {
			snprintf(path, sizeof path, "%s/%s/dev", KNOB_CLI_SYS_BLOCK, e->d_name);
			rc = knob_cli_read_devno(path, major, minor);
		}
	}
	closedir(d);
	return rc;
}

/* Turn DEV of bdi:DEV:FILE into major:minor; on failure why says what. */
static int knob_cli_resolve_dev(const char *dev, uint32_t *major, uint32_t *minor,
				char *why, size_t len)
{
	char tail;
	if (sscanf(dev, "%" SCNu32 ":%" SCNu32 "%c", major, minor, &tail) == 2)
		return 0;
	const char *name = dev;
	if (strncmp(name, "/dev/mapper/", 12) == 0)
		name += 12;
	else if (strncmp(name, "/dev/", 5) == 0)
		name += 5;
	if (!*name || strchr(name, '/') || strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
		snprintf(why, len, "\"%s\" is not a device name", dev);
		return -EINVAL;
	}
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/%s/dev", KNOB_CLI_CLASS_BLOCK, name);
	if (knob_cli_read_devno(path, major, minor) == 0) {
		snprintf(path, sizeof path, "%s/%s/partition", KNOB_CLI_CLASS_BLOCK, name);
		if (access(path, F_OK) == 0) {
			snprintf(why, len, "%s is a partition: the writeback limits belong to its disk", name);
			return -EINVAL;
		}
		return 0;
	}
	if (knob_cli_find_dm(name, major, minor) == 0)
		return 0;
	snprintf(why, len, "no block device \"%s\" (looked in %s and the device-mapper names)",
		 name, KNOB_CLI_CLASS_BLOCK);
	return -ENOENT;
}

/* "bdi:DEV:FILE" (DEV may hold a colon, as in 7:0) into ref. */
static int knob_cli_parse_bdi(struct control *c, const char *name, struct control_ref *ref,
			      char *why, size_t len)
{
	const char *file = strrchr(name, ':');
	char dev[256];
	size_t devlen = (size_t)(file - name) - 4;
	if (file <= name + 4 || devlen >= sizeof dev) {
		snprintf(why, len, "a BDI knob is bdi:DEVICE:KNOB");
		return -EINVAL;
	}
	memcpy(dev, name + 4, devlen);
	dev[devlen] = '\0';
	ref->bdi = true;
	ref->index = knob_bdi_find(file + 1);
	if (ref->index < 0) {
		snprintf(why, len, "no BDI knob \"%s\" (min_ratio, max_ratio, min_bytes, max_bytes, "
			 "strict_limit, min_ratio_fine, max_ratio_fine, read_ahead_kb)", file + 1);
		return -EINVAL;
	}
	int rc = knob_cli_resolve_dev(dev, &ref->major, &ref->minor, why, len);
	if (rc < 0)
		return rc;
	struct control_item items[KNOB_BDI_COUNT];
	size_t n;
	if (control_list_bdi(c, ref->major, ref->minor, items, &n) < 0) {
		snprintf(why, len, "%s (%u:%u) has no BDI in %s", dev, ref->major, ref->minor, CONTROL_BDI_DIR);
		return -ENOENT;
	}
	return 0;
}

/* One "KNOB=VALUE" into a; on failure why says what. */
static int knob_cli_parse(struct control *c, const char *text, struct knob_cli_set *a,
			  char *why, size_t len)
{
	char name[320];
	const char *eq = strchr(text, '=');
	a->text = text;
	if (!eq || eq == text || (size_t)(eq - text) >= sizeof name) {
		snprintf(why, len, "expected KNOB=VALUE");
		return -EINVAL;
	}
	memcpy(name, text, (size_t)(eq - text));
	name[eq - text] = '\0';
	int rc;
	if (strncmp(name, "bdi:", 4) == 0) {
		rc = knob_cli_parse_bdi(c, name, &a->ref, why, len);
	} else {
		a->ref = (struct control_ref){ .bdi = false, .index = knob_vm_find(name) };
		rc = a->ref.index < 0 ? -EINVAL : 0;
		if (rc < 0)
			snprintf(why, len, "unknown knob \"%s\" (vm.dirty_* sysctls, or bdi:DEVICE:KNOB)", name);
	}
	if (rc < 0)
		return rc;
	const struct knob_def *def = control_rules_def(&a->ref);
	rc = knob_parse_value(def->kind, eq + 1, &a->value);
	if (rc < 0)
		snprintf(why, len, "\"%s\" is not %s", eq + 1, rc == -ERANGE ? "in range" :
			 def->kind == KNOB_KIND_BYTES ? "a size (bytes, or with K/M/G/T)" : "a whole number");
	return rc;
}

static bool knob_cli_same_scope(const struct control_ref *a, const struct control_ref *b)
{
	return a->bdi == b->bdi && (!a->bdi || (a->major == b->major && a->minor == b->minor));
}

/* Whether two knobs are one setting in the kernel (the same knob, a
 * ratio/bytes pair, or two views of one BDI limit). */
static bool knob_cli_same_setting(const struct control_ref *a, const struct control_ref *b)
{
	if (!knob_cli_same_scope(a, b))
		return false;
	int64_t before[CONTROL_SCOPE_MAX] = { 0 }, v;
	/* both resolve to the same member to restore: the same setting */
	return control_rules_restore_member(a, before, &v).index == control_rules_restore_member(b, before, &v).index;
}

/* The values of set i's scope once sets [0, upto) of that scope are
 * written, as the kernel will leave them. */
static void knob_cli_state(const struct knob_cli_set *sets, size_t i, size_t upto,
			   struct control_ctx *ctx)
{
	struct control_ctx next;
	for (size_t j = 0; j < upto; j++) {
		if (!knob_cli_same_scope(&sets[i].ref, &sets[j].ref))
			continue;
		control_rules_predict(&sets[j].ref, sets[j].value, ctx, &next);
		*ctx = next;
	}
}

/* Validate set i: refusals against the values the earlier sets leave (the
 * kernel sees the writes in order), warnings against the values all of
 * them leave (an intermediate state does not last).  0 or -errno. */
static int knob_cli_check(struct control *c, const char *opt, const struct knob_cli_set *sets,
			  size_t i, size_t n, const struct snapshot *snap)
{
	struct control_ctx now, ctx;
	char name[96], other[96], msg[256];
	control_name(c, &sets[i].ref, name, sizeof name);
	if (control_ctx(c, &sets[i].ref, snap, &now) < 0) {
		char absent[64];
		if (control_absent(c, &sets[i].ref))
			fprintf(stderr, "wbtop: %s '%s': %s is %s; nothing written\n", opt, sets[i].text,
				name, knob_absent_text(control_rules_def(&sets[i].ref), absent, sizeof absent));
		else
			fprintf(stderr, "wbtop: %s '%s': this kernel has no %s\n", opt, sets[i].text, name);
		return -ENOENT;
	}
	for (size_t j = 0; j < i; j++) {
		if (knob_cli_same_setting(&sets[i].ref, &sets[j].ref)) {
			control_name(c, &sets[j].ref, other, sizeof other);
			fprintf(stderr, "wbtop: %s '%s': %s is given already as %s, and they are one "
				"setting (writing one replaces the other): give it once\n",
				opt, sets[i].text, name, other);
			return -EINVAL;
		}
	}
	ctx = now;
	knob_cli_state(sets, i, i, &ctx);
	int rc = control_rules_validate(&sets[i].ref, sets[i].value, &ctx, msg, sizeof msg);
	if (rc < 0) {
		fprintf(stderr, "wbtop: %s '%s': %s\n", opt, sets[i].text, msg);
		return rc;
	}
	ctx = now;
	knob_cli_state(sets, i, n, &ctx);
	if (control_rules_validate(&sets[i].ref, sets[i].value, &ctx, msg, sizeof msg) > 0)
		fprintf(stderr, "wbtop: warning: %s '%s': %s\n", opt, sets[i].text, msg);
	return 0;
}

/* One snapshot for the dirty limits that turn ratios into bytes; NULL if
 * the live source can't give one (validation then skips those checks). */
static bool knob_cli_sample(struct snapshot *snap)
{
	char err[256];
	snapshot_init(snap);
	struct source *src = source_live_open(err, sizeof err);
	if (!src)
		return false;
	bool ok = source_next(src, snap) == 0;
	source_close(src);
	return ok;
}

static void knob_cli_print_events(const struct control *c, size_t from, FILE *out)
{
	char line[512];
	for (size_t i = from; i < control_nevents(c); i++)
		fprintf(out, "%s\n", control_rules_format_event(control_event(c, i), line, sizeof line));
}

/* Write every set in order; on the first failure put the earlier ones back. */
static int knob_cli_apply(struct control *c, const struct knob_cli_set *sets, size_t n,
			  const struct snapshot *snap, const char *why, FILE *out)
{
	size_t from = control_nevents(c);
	for (size_t i = 0; i < n; i++) {
		int rc = control_apply_why(c, &sets[i].ref, sets[i].value, snap, why);
		if (rc == 0)
			continue;
		char name[96];
		control_name(c, &sets[i].ref, name, sizeof name);
		if (rc == -EIO)
			fprintf(stderr, "wbtop: %s: the kernel did not keep %s\n", name, sets[i].text);
		else
			fprintf(stderr, "wbtop: %s: write failed: %s\n", name, strerror(-rc));
		int rb = control_revert_all(c);
		knob_cli_print_events(c, from, out ? out : stderr);
		fprintf(stderr, "wbtop: %s\n", rb == 0 ? (i ? "earlier changes rolled back" : "nothing changed")
			: "ROLL-BACK FAILED: see the lines above for what the kernel holds now");
		return KNOB_CLI_FAILED;
	}
	if (out)
		knob_cli_print_events(c, from, out);
	return KNOB_CLI_OK;
}

int knob_cli_apply_sets(struct control *c, const char **assignments, size_t n, const char *why,
			FILE *out)
{
	struct knob_cli_set *sets = calloc(n ? n : 1, sizeof *sets);
	struct snapshot snap;
	bool have_snap = false;
	int status = KNOB_CLI_INVALID;
	if (!sets) {
		fprintf(stderr, "wbtop: --set: out of memory\n");
		return KNOB_CLI_FAILED;
	}
	char msg[384];
	for (size_t i = 0; i < n; i++) {
		if (knob_cli_parse(c, assignments[i], &sets[i], msg, sizeof msg) < 0) {
			fprintf(stderr, "wbtop: --set '%s': %s\n", assignments[i], msg);
			goto done;
		}
	}
	have_snap = knob_cli_sample(&snap);
	for (size_t i = 0; i < n; i++)
		if (knob_cli_check(c, "--set", sets, i, n, have_snap ? &snap : NULL) < 0)
			goto done;
	const char *reason;
	if (!control_can_write(c, &reason)) {
		fprintf(stderr, "wbtop: --set: cannot change knobs: %s; nothing written\n", reason);
		status = KNOB_CLI_FAILED;
		goto done;
	}
	status = knob_cli_apply(c, sets, n, have_snap ? &snap : NULL, why, out);
done:
	if (have_snap)
		snapshot_free(&snap);
	free(sets);
	return status;
}

int knob_cli_set(const char **assignments, size_t n, FILE *out)
{
	struct control_config cfg = { .log_syslog = true };
	struct control *c = control_new(&cfg);
	if (!c) {
		fprintf(stderr, "wbtop: --set: out of memory\n");
		return KNOB_CLI_FAILED;
	}
	int status = knob_cli_apply_sets(c, assignments, n, "", out);
	control_free(c);
	return status;
}

int knob_cli_validate(struct control *c, const char *opt, const char **assignments, size_t n,
		      struct control_ref *refs, int64_t *values)
{
	struct knob_cli_set *sets = calloc(n ? n : 1, sizeof *sets);
	if (!sets) {
		fprintf(stderr, "wbtop: %s: out of memory\n", opt);
		return KNOB_CLI_FAILED;
	}
	char why[384];
	int status = KNOB_CLI_OK;
	for (size_t i = 0; i < n && status == KNOB_CLI_OK; i++) {
		if (knob_cli_parse(c, assignments[i], &sets[i], why, sizeof why) < 0) {
			fprintf(stderr, "wbtop: %s '%s': %s\n", opt, assignments[i], why);
			status = KNOB_CLI_INVALID;
		}
	}
	struct snapshot snap;
	bool have_snap = status == KNOB_CLI_OK && knob_cli_sample(&snap);
	for (size_t i = 0; i < n && status == KNOB_CLI_OK; i++) {
		if (knob_cli_check(c, opt, sets, i, n, have_snap ? &snap : NULL) < 0)
			status = KNOB_CLI_INVALID;
		refs[i] = sets[i].ref;
		values[i] = sets[i].value;
	}
	if (have_snap)
		snapshot_free(&snap);
	free(sets);
	return status;
}

int knob_cli_sysctl_conf(FILE *out)
{
	struct control *c = control_new(NULL);
	if (!c) {
		fprintf(stderr, "wbtop: --sysctl-conf: out of memory\n");
		return KNOB_CLI_FAILED;
	}
	struct control_item items[KNOB_VM_COUNT];
	control_list_vm(c, items);
	control_free(c);
	for (int i = 0; i < KNOB_VM_COUNT; i++) {
		if (items[i].value < 0) {
			fprintf(stderr, "wbtop: %s/%s: cannot read it\n", CONTROL_VM_DIR, items[i].def->file);
			return KNOB_CLI_FAILED;
		}
	}
	fprintf(out, "# Linux writeback settings, as wbtop --sysctl-conf read them.\n"
		"# Put in /etc/sysctl.d/ (e.g. 60-writeback.conf); load with sysctl --system.\n"
		"# Each ratio/bytes pair is one setting: writing one member zeroes the other,\n"
		"# so only the member in force is listed (with both, the result would\n"
		"# depend on the order they are applied in).\n");
	for (int i = 0; i < KNOB_VM_COUNT; i++) {
		if (!items[i].in_force)
			continue;
		char human[32];
		/* sysctl.d has no trailing comments: the readable size goes above */
		if (items[i].def->kind == KNOB_KIND_BYTES)
			fprintf(out, "# %s\n", knob_format_value(KNOB_KIND_BYTES, items[i].value, human, sizeof human));
		fprintf(out, "%s = %" PRId64 "\n", items[i].def->name, items[i].value);
	}
	if (fflush(out) == EOF || ferror(out))	/* a reader gone (| head) is no failure */
		return errno == EPIPE ? KNOB_CLI_OK : KNOB_CLI_FAILED;
	return KNOB_CLI_OK;
}
