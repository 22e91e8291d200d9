/*
 * ident.c - device identity: readable names, stable keys and BDI limits,
 * looked up once when a device appears.
 *
 * Sources of truth: /sys/class/block/NAME (dm/, md/, queue/, partition,
 * wwid, device/serial, loop/backing_file), /dev/md/ links, /sys/class/bdi,
 * /proc/self/mountinfo, and libblkid for the filesystem.  Anything that
 * cannot be read is left NULL (or -1): a device may vanish mid-lookup.
 */
#include <blkid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/grow.h"
#include "util/hashidx.h"
#include "source/ident.h"
#include "util/sysfs.h"

#define SYS_BLOCK "/sys/class/block"
#define SYS_BDI "/sys/class/bdi"

struct ident_slot {
	struct dev_ident id;
	unsigned gone_gen;	/* generation in which the device vanished; 0 = present */
};

/* One line of /proc/self/mountinfo, the parts we use. */
struct ident_mount {
	uint32_t major, minor;
	bool whole;		/* root "/": the whole filesystem, not a bind of a subtree */
	char *point, *fstype;
};

struct ident_table {
	struct ident_slot **slot;
	size_t n, cap;
	unsigned generation;
	size_t ngone;		/* slots with gone_gen set: the sweep has work only then */
	int mountinfo_fd;	/* polled for POLLPRI: the kernel signals mount changes */
	/* mountinfo parsed once, re-read only when the kernel says it changed:
	 * thousands of new devices must not mean thousands of reads of it. */
	struct ident_mount *mnt;
	size_t nmnt;
	bool mnt_loaded;
	/* major:minor -> index in slot[] (hashidx.h): thousands of devices
	 * appearing at once must not each search all the others. */
	struct hashidx index;
};

/* One line of a small sysfs file, trailing newline removed; NULL if absent. */
static char *ident_read_str(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	char buf[512];
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	if (!buf[0])
		return NULL;
	return strdup(buf);
}

static int64_t ident_read_int(const char *path)
{
	int64_t v;
	return sysfs_read_int(path, &v) == 0 ? v : -1;
}

static char *ident_read_attr(const char *kname, const char *attr)
{
	char path[PATH_MAX];
	snprintf(path, sizeof path, SYS_BLOCK "/%s/%s", kname, attr);
	return ident_read_str(path);
}

static bool ident_exists(const char *kname, const char *attr)
{
	char path[PATH_MAX];
	snprintf(path, sizeof path, SYS_BLOCK "/%s/%s", kname, attr);
	return access(path, F_OK) == 0;
}

/* /dev/md/NAME is a link to ../mdN: find the one pointing at kname. */
static char *ident_md_name(const char *kname)
{
	DIR *d = opendir("/dev/md");
	if (!d)
		return NULL;
	char *name = NULL;
	struct dirent *e;
	while (!name && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char path[PATH_MAX], target[PATH_MAX];
		snprintf(path, sizeof path, "/dev/md/%s", e->d_name);
		ssize_t n = readlink(path, target, sizeof target - 1);
		if (n <= 0)
			continue;
		target[n] = '\0';
		const char *base = strrchr(target, '/');
		if (strcmp(base ? base + 1 : target, kname) == 0)
			name = strdup(e->d_name);
	}
	closedir(d);
	return name;
}

/* Size in sectors; 0 for an unbound loop device, -1 if unreadable. */
static int64_t ident_size_sect(const struct dev_ident *id)
{
	char path[PATH_MAX];
	snprintf(path, sizeof path, SYS_BLOCK "/%s/size", id->kname);
	return ident_read_int(path);
}

static void ident_read_bdi(struct dev_ident *id)
{
	char dir[64];
	snprintf(dir, sizeof dir, SYS_BDI "/%" PRIu32 ":%" PRIu32, id->major, id->minor);
	id->has_bdi = access(dir, F_OK) == 0;
	for (int k = 0; k < KNOB_BDI_COUNT; k++) {
		char path[128];
		snprintf(path, sizeof path, "%s/%s", dir, knob_bdi_table[k].file);
		id->bdi[k] = id->has_bdi ? ident_read_int(path) : -1;
	}
}

/* Filesystem type, label and UUID from libblkid's superblock probe.  Only
 * devices with a size, and never a suspended dm device (reading it would
 * block until it is resumed). */
static void ident_probe_fs(struct dev_ident *id)
{
	free(id->fstype);
	free(id->fs_label);
	free(id->fs_uuid);
	id->fstype = id->fs_label = id->fs_uuid = NULL;
	if (ident_size_sect(id) <= 0)
		return;
	char *susp = id->dm_name ? ident_read_attr(id->kname, "dm/suspended") : NULL;
	bool suspended = susp && strcmp(susp, "1") == 0;
	free(susp);
	if (suspended)
		return;
	char devpath[PATH_MAX];
	snprintf(devpath, sizeof devpath, "/dev/%s", id->kname);
	blkid_probe pr = blkid_new_probe_from_filename(devpath);
	if (!pr)
		return;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_LABEL | BLKID_SUBLKS_UUID);
	if (blkid_do_safeprobe(pr) == 0) {
		const char *v;
		if (blkid_probe_lookup_value(pr, "TYPE", &v, NULL) == 0)
			id->fstype = strdup(v);
		if (blkid_probe_lookup_value(pr, "LABEL", &v, NULL) == 0)
			id->fs_label = strdup(v);
		if (blkid_probe_lookup_value(pr, "UUID", &v, NULL) == 0)
			id->fs_uuid = strdup(v);
	}
	blkid_free_probe(pr);
}

static void ident_append_word(char **out, size_t *len, const char *word)
{
	size_t add = strlen(word);
	char *grown = realloc(*out, *len + add + 2);
	if (!grown)
		return;
	*out = grown;
	if (*len)
		grown[(*len)++] = ' ';
	memcpy(grown + *len, word, add);
	*len += add;
	grown[*len] = '\0';
}

static void ident_mounts_clear(struct ident_table *t)
{
	for (size_t i = 0; i < t->nmnt; i++) {
		free(t->mnt[i].point);
		free(t->mnt[i].fstype);
	}
	free(t->mnt);
	t->mnt = NULL;
	t->nmnt = 0;
	t->mnt_loaded = false;
}

/* mountinfo: field 3 is MAJ:MIN, field 4 the root of the mount within the
 * filesystem, field 5 the mount point (octal escapes kept: findmnt prints
 * them too); the filesystem type is the first field after " - ". */
static bool ident_parse_mount(char *line, struct ident_mount *m)
{
	char *save = NULL, *tok = strtok_r(line, " ", &save);
	char *majmin = NULL, *root = NULL, *point = NULL;
	for (int field = 1; tok && field <= 5; field++, tok = strtok_r(NULL, " ", &save)) {
		if (field == 3)
			majmin = tok;
		else if (field == 4)
			root = tok;
		else if (field == 5)
			point = tok;
	}
	if (!majmin || !root || !point || sscanf(majmin, "%" SCNu32 ":%" SCNu32, &m->major, &m->minor) != 2)
		return false;
	/* strtok_r has consumed field 6 and the space after it */
	char *rest = NULL;
	if (save && strncmp(save, "- ", 2) == 0)
		rest = save + 2;
	else if (save && (rest = strstr(save, " - ")))
		rest += 3;
	if (rest)
		rest[strcspn(rest, " ")] = '\0';
	m->whole = strcmp(root, "/") == 0;
	m->point = strdup(point);
	m->fstype = rest ? strdup(rest) : NULL;
	return m->point != NULL;
}

static void ident_mounts_load(struct ident_table *t)
{
	ident_mounts_clear(t);
	t->mnt_loaded = true;
	FILE *f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return;
	char *line = NULL;
	size_t cap = 0, mcap = 0;
	while (getline(&line, &cap, f) > 0) {
		if (grow_array((void **)&t->mnt, &mcap, t->nmnt + 1, sizeof *t->mnt, 64) < 0)
			break;
		if (ident_parse_mount(line, &t->mnt[t->nmnt]))
			t->nmnt++;
	}
	free(line);
	fclose(f);
}

/* Mount points of major:minor, space separated.  Mounts of the whole
 * filesystem are listed; bind mounts of a subtree or a single file only
 * when there is no whole mount (btrfs subvolumes, say).  *fstype gets the
 * type of the first mount. */
static char *ident_mounts_of(struct ident_table *t, uint32_t major, uint32_t minor, char **fstype)
{
	if (!t->mnt_loaded)
		ident_mounts_load(t);
	char *whole = NULL, *partial = NULL;
	size_t whole_len = 0, partial_len = 0;
	for (size_t i = 0; i < t->nmnt; i++) {
		const struct ident_mount *m = &t->mnt[i];
		if (m->major != major || m->minor != minor)
			continue;
		if (!*fstype && m->fstype)
			*fstype = strdup(m->fstype);
		if (m->whole)
			ident_append_word(&whole, &whole_len, m->point);
		else
			ident_append_word(&partial, &partial_len, m->point);
	}
	if (whole) {
		free(partial);
		return whole;
	}
	return partial;
}

static char *ident_concat(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *s = malloc(la + lb + 1);
	if (s) {
		memcpy(s, a, la);
		memcpy(s + la, b, lb + 1);
	}
	return s;
}

/* The stable key a recording files the device under: the most stable name
 * the device has, never the minor number alone. */
/* A serial no identity has had: never 0, never reused. */
static uint64_t ident_new_serial(void)
{
	static _Atomic uint64_t last;
	return atomic_fetch_add(&last, 1) + 1;
}

char *ident_key_of(const struct dev_ident *id, bool stack_member, const char *loop_backing)
{
	char *key;
	/* A filesystem UUID names the top of its stack only: dm-linear, a
	 * multipath path and md members pass the signature below them through. */
	const char *fs = stack_member ? NULL : id->fs_uuid;
	if (id->dm_uuid || id->dm_name)
		key = ident_concat("dm:", id->dm_name ? id->dm_name : id->dm_uuid);
	else if (id->md_name)
		key = ident_concat("md:", id->md_name);
	else if (fs)
		key = ident_concat("fs:", fs);
	else if (id->wwid)
		key = ident_concat(id->partition ? "wwid-part:" : "wwid:", id->wwid);
	else if (id->serial)
		key = ident_concat(id->partition ? "serial-part:" : "serial:", id->serial);
	else if (loop_backing)
		key = ident_concat("loop:", loop_backing);
	else
		key = ident_concat("name:", id->kname);
	/* Two partitions of one disk share its wwid or serial, as do the paths
	 * of a multipath LUN: add the kernel name, stable for a partition of a
	 * given disk and for a path of a given map. */
	if (key && (id->partition || stack_member) && (id->wwid || id->serial) && !fs) {
		char *k = malloc(strlen(key) + strlen(id->kname) + 2);
		if (k)
			sprintf(k, "%s/%s", key, id->kname);
		free(key);
		key = k;
	}
	return key;
}

bool ident_udev_mpath_path(const char *udev_data_dir, uint32_t major, uint32_t minor)
{
	char path[PATH_MAX], line[256];
	snprintf(path, sizeof path, "%s/b%u:%u", udev_data_dir, major, minor);
	FILE *f = fopen(path, "re");
	if (!f)
		return false;
	bool yes = false;
	while (!yes && fgets(line, sizeof line, f))
		yes = strcmp(line, "E:DM_MULTIPATH_DEVICE_PATH=1\n") == 0 ||
		      strcmp(line, "E:DM_MULTIPATH_DEVICE_PATH=1") == 0;
	fclose(f);
	return yes;
}

/* Whether a directory of sysfs has an entry other than . and .. */
static bool ident_dir_has_entry(const char *path)
{
	DIR *d = opendir(path);
	if (!d)
		return false;
	struct dirent *e;
	bool any = false;
	while (!any && (e = readdir(d)))
		any = e->d_name[0] != '.';
	closedir(d);
	return any;
}

/* A device below another (a holder in sysfs: dm, md, bcache), a multipath
 * path, an md member, or a whole disk with partitions: what blkid finds on
 * it is the signature of the stack above, not its own. */
static bool ident_stack_member(const struct dev_ident *id)
{
	char path[PATH_MAX];
	snprintf(path, sizeof path, SYS_BLOCK "/%s/holders", id->kname);
	if (ident_dir_has_entry(path))
		return true;
	if (id->fstype && strcmp(id->fstype, "linux_raid_member") == 0)
		return true;
	if (ident_udev_mpath_path("/run/udev/data", id->major, id->minor))
		return true;
	if (id->partition)
		return false;
	snprintf(path, sizeof path, SYS_BLOCK "/%s", id->kname);
	DIR *d = opendir(path);
	bool parts = false;
	struct dirent *e;
	size_t klen = strlen(id->kname);
	while (d && !parts && (e = readdir(d))) {
		char attr[NAME_MAX + 16];
		snprintf(attr, sizeof attr, "%s/partition", e->d_name);
		parts = strncmp(e->d_name, id->kname, klen) == 0 && ident_exists(id->kname, attr);
	}
	if (d)
		closedir(d);
	return parts;
}

static void ident_make_key(struct dev_ident *id)
{
	char *loop = ident_read_attr(id->kname, "loop/backing_file");
	free(id->key);
	id->key = ident_key_of(id, ident_stack_member(id), loop);
	free(loop);
	id->key_serial = ident_new_serial();
}

static void ident_lookup(struct ident_table *t, struct dev_ident *id)
{
	id->partition = ident_exists(id->kname, "partition");
	id->dm_name = ident_read_attr(id->kname, "dm/name");
	id->dm_uuid = ident_read_attr(id->kname, "dm/uuid");
	if (ident_exists(id->kname, "md"))
		id->md_name = ident_md_name(id->kname);
	/* Queue attributes live on the whole disk, one level up from a partition. */
	const char *q = id->partition ? "../queue" : "queue";
	char attr[64];
	snprintf(attr, sizeof attr, "%s/rotational", q);
	char *rot = ident_read_attr(id->kname, attr);
	id->rotational = rot ? atoi(rot) != 0 : -1;
	free(rot);
	snprintf(attr, sizeof attr, "%s/write_cache", q);
	id->write_cache = ident_read_attr(id->kname, attr);
	id->wwid = ident_read_attr(id->kname, id->partition ? "../wwid" : "wwid");
	if (!id->wwid)
		id->wwid = ident_read_attr(id->kname, id->partition ? "../device/wwid" : "device/wwid");
	id->serial = ident_read_attr(id->kname, id->partition ? "../device/serial" : "device/serial");
	char *mnt_type = NULL;
	id->mounts = ident_mounts_of(t, id->major, id->minor, &mnt_type);
	ident_probe_fs(id);
	/* blkid cannot always probe (no /dev node, no permission): the
	 * mount table still knows the type. */
	if (!id->fstype)
		id->fstype = mnt_type;
	else
		free(mnt_type);
	ident_read_bdi(id);
	id->label_short = strdup(id->dm_name ? id->dm_name : id->md_name ? id->md_name : id->kname);
	ident_make_key(id);
}

static void ident_clear(struct dev_ident *id)
{
	free(id->kname);
	free(id->key);
	free(id->label_short);
	free(id->dm_name);
	free(id->dm_uuid);
	free(id->md_name);
	free(id->mounts);
	free(id->fstype);
	free(id->fs_label);
	free(id->fs_uuid);
	free(id->wwid);
	free(id->serial);
	free(id->write_cache);
}

struct ident_table *ident_table_new(void)
{
	struct ident_table *t = calloc(1, sizeof *t);
	if (!t)
		return NULL;
	t->mountinfo_fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
	t->generation = 1;
	return t;
}

void ident_table_free(struct ident_table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++) {
		ident_clear(&t->slot[i]->id);
		free(t->slot[i]);
	}
	free(t->slot);
	hashidx_free(&t->index);
	ident_mounts_clear(t);
	if (t->mountinfo_fd >= 0)
		close(t->mountinfo_fd);
	free(t);
}

static size_t ident_hash_of(uint32_t major, uint32_t minor)
{
	return hashidx_u64((uint64_t)major << 32 | minor);
}

static void ident_hash_put(struct ident_table *t, size_t i)
{
	hashidx_put(&t->index, ident_hash_of(t->slot[i]->id.major, t->slot[i]->id.minor), i);
}

/* Rebuild the index for slot[0..n) with room for cap slots; 0 or -ENOMEM
 * (then finds fall back to a linear search). */
static int ident_hash_rebuild(struct ident_table *t)
{
	if (hashidx_reset(&t->index, t->cap, 64) < 0)
		return -ENOMEM;
	for (size_t i = 0; i < t->n; i++)
		ident_hash_put(t, i);
	return 0;
}

static struct ident_slot *ident_find(struct ident_table *t, uint32_t major, uint32_t minor)
{
	if (!t->index.cap) {
		for (size_t i = 0; i < t->n; i++)
			if (t->slot[i]->id.major == major && t->slot[i]->id.minor == minor)
				return t->slot[i];
		return NULL;
	}
	size_t at = hashidx_start(&t->index, ident_hash_of(major, minor)), i;
	while ((i = hashidx_next(&t->index, &at)) != SIZE_MAX)
		if (t->slot[i]->id.major == major && t->slot[i]->id.minor == minor)
			return t->slot[i];
	return NULL;
}

/* Remove slot i (the last slot moves into its place: the caller rebuilds
 * the index once it has removed what it removes). */
/* The slot's device is present (again). */
static void ident_revive(struct ident_table *t, struct ident_slot *slot)
{
	if (slot->gone_gen) {
		slot->gone_gen = 0;
		t->ngone--;
	}
}

static void ident_remove(struct ident_table *t, size_t i)
{
	if (t->slot[i]->gone_gen)
		t->ngone--;
	ident_clear(&t->slot[i]->id);
	free(t->slot[i]);
	t->slot[i] = t->slot[--t->n];
}

static struct ident_slot *ident_append(struct ident_table *t)
{
	if (grow_array((void **)&t->slot, &t->cap, t->n + 1, sizeof *t->slot, 64) < 0)
		return NULL;
	struct ident_slot *slot = calloc(1, sizeof *slot);
	if (!slot)
		return NULL;
	t->slot[t->n++] = slot;
	return slot;
}

/* Index the slot just appended (its major:minor now set). */
static void ident_index_last(struct ident_table *t)
{
	if (t->index.cap < 2 * t->cap)
		ident_hash_rebuild(t);
	else
		ident_hash_put(t, t->n - 1);
}

const struct dev_ident *ident_table_get(struct ident_table *t, uint32_t major,
					uint32_t minor, const char *kname)
{
	/* Called only for devices new to the caller (the live source hands
	 * known identities on itself). */
	struct ident_slot *slot = ident_find(t, major, minor);
	if (slot && strcmp(slot->id.kname, kname) == 0) {
		ident_revive(t, slot);
		return &slot->id;
	}
	bool appended = !slot;
	if (slot) {	/* minor reused by another device: start afresh */
		ident_clear(&slot->id);
		memset(&slot->id, 0, sizeof slot->id);
	} else if (!(slot = ident_append(t))) {
		return NULL;
	}
	slot->id.major = major;
	slot->id.minor = minor;
	if (appended)
		ident_index_last(t);
	slot->id.kname = strdup(kname);
	if (!slot->id.kname)
		return NULL;
	ident_lookup(t, &slot->id);	/* its key, and so a new key_serial */
	ident_revive(t, slot);
	return &slot->id;
}

const struct dev_ident *ident_table_add(struct ident_table *t, const struct dev_ident *proto)
{
	struct ident_slot *slot = ident_append(t);
	if (!slot)
		return NULL;
	struct dev_ident *id = &slot->id;
	*id = *proto;
	ident_index_last(t);
#define DUP(f) id->f = proto->f ? strdup(proto->f) : NULL
	DUP(kname); DUP(key); DUP(label_short); DUP(dm_name); DUP(dm_uuid); DUP(md_name);
	DUP(mounts); DUP(fstype); DUP(fs_label); DUP(fs_uuid); DUP(wwid); DUP(serial);
	DUP(write_cache);
#undef DUP
	if (!id->kname)
		id->kname = strdup("?");
	if (!id->label_short)
		id->label_short = id->kname ? strdup(id->kname) : NULL;
	id->key_serial = ident_new_serial();
	return id;
}

void ident_table_refresh_mounts(struct ident_table *t)
{
	if (t->mountinfo_fd < 0)
		return;
	struct pollfd p = { .fd = t->mountinfo_fd, .events = POLLPRI };
	/* mountinfo reports POLLERR|POLLPRI once after each change in the
	 * mount table; reading it to the end re-arms that. */
	if (poll(&p, 1, 0) <= 0 || !(p.revents & (POLLPRI | POLLERR)))
		return;
	ident_mounts_load(t);
	for (size_t i = 0; i < t->n; i++) {
		struct dev_ident *id = &t->slot[i]->id;
		char *mnt_type = NULL;
		char *m = ident_mounts_of(t, id->major, id->minor, &mnt_type);
		bool same = (!m && !id->mounts) || (m && id->mounts && strcmp(m, id->mounts) == 0);
		if (same) {
			free(m);
			free(mnt_type);
			continue;
		}
		free(id->mounts);
		id->mounts = m;
		ident_probe_fs(id);	/* a new mount often means a new filesystem */
		if (!id->fstype)
			id->fstype = mnt_type;
		else
			free(mnt_type);
		/* A key once given stays for the device's life (recordings file
		 * it under that key), unless it was only the kernel name or a
		 * loop backing file: then the filesystem UUID is better. */
		if (!id->key || strncmp(id->key, "name:", 5) == 0 || strncmp(id->key, "loop:", 5) == 0)
			ident_make_key(id);
	}
}

void ident_table_refresh_bdi(struct ident_table *t, uint32_t major, uint32_t minor)
{
	struct ident_slot *slot = ident_find(t, major, minor);
	if (slot)
		ident_read_bdi(&slot->id);
}

void ident_table_release(struct ident_table *t, uint32_t major, uint32_t minor)
{
	struct ident_slot *slot = ident_find(t, major, minor);
	if (slot && !slot->gone_gen) {
		slot->gone_gen = t->generation;
		t->ngone++;
	}
}

void ident_table_sweep(struct ident_table *t)
{
	bool removed = false;
	t->generation++;
	if (!t->ngone)
		return;	/* the usual sample: nothing has gone */
	for (size_t i = 0; i < t->n;) {
		struct ident_slot *slot = t->slot[i];
		if (slot->gone_gen && t->generation - slot->gone_gen >= 2) {
			ident_remove(t, i);
			removed = true;
		} else {
			i++;
		}
	}
	if (removed && t->index.cap)
		ident_hash_rebuild(t);	/* slots moved */
}

const char *ident_dev_key_name(const struct dev_counters *d, char *buf, size_t len)
{
	snprintf(buf, len, "name:%.*s", (int)strnlen(d->name, sizeof d->name), d->name);
	return buf;
}
