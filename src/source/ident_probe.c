/*
 * ident_probe.c - looking up who a device is, once when it appears: names,
 * stable keys, BDI limits (into a core/ident.h table).
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/grow.h"
#include "core/ident.h"
#include "source/ident_probe.h"
#include "util/sysfs.h"

#define SYS_BLOCK "/sys/class/block"
#define SYS_BDI "/sys/class/bdi"

/* One line of /proc/self/mountinfo, the parts we use. */
struct ident_mount {
	uint32_t major, minor;
	bool whole;		/* root "/": the whole filesystem, not a bind of a subtree */
	char *point, *fstype;
};

struct ident_probe {
	int mountinfo_fd;	/* polled for POLLPRI: the kernel signals mount changes */
	/* mountinfo parsed once, re-read only when the kernel says it changed:
	 * thousands of new devices must not mean thousands of reads of it. */
	struct ident_mount *mnt;
	size_t nmnt;
	bool mnt_loaded;
};

/* One line of a small sysfs file, trailing newline removed; NULL if absent. */
static char *ident_probe_read_str(const char *path)
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

static int64_t ident_probe_read_int(const char *path)
{
	int64_t v;
	return sysfs_read_int(path, &v) == 0 ? v : -1;
}

static char *ident_probe_read_attr(const char *kname, const char *attr)
{
	char path[PATH_MAX];
	snprintf(path, sizeof path, SYS_BLOCK "/%s/%s", kname, attr);
	return ident_probe_read_str(path);
}

static bool ident_probe_exists(const char *kname, const char *attr)
{
	char path[PATH_MAX];
	snprintf(path, sizeof path, SYS_BLOCK "/%s/%s", kname, attr);
	return access(path, F_OK) == 0;
}

/* /dev/md/NAME is a link to ../mdN: find the one pointing at kname. */
static char *ident_probe_md_name(const char *kname)
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
static int64_t ident_probe_size_sect(const struct dev_ident *id)
{
	char path[PATH_MAX];
	snprintf(path, sizeof path, SYS_BLOCK "/%s/size", id->kname);
	return ident_probe_read_int(path);
}

static void ident_probe_read_bdi(struct dev_ident *id)
{
	char dir[64];
	snprintf(dir, sizeof dir, SYS_BDI "/%" PRIu32 ":%" PRIu32, id->major, id->minor);
	id->has_bdi = access(dir, F_OK) == 0;
	for (int k = 0; k < KNOB_BDI_COUNT; k++) {
		char path[128];
		snprintf(path, sizeof path, "%s/%s", dir, knob_bdi_table[k].file);
		id->bdi[k] = id->has_bdi ? ident_probe_read_int(path) : -1;
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
	if (ident_probe_size_sect(id) <= 0)
		return;
	char *susp = id->dm_name ? ident_probe_read_attr(id->kname, "dm/suspended") : NULL;
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

static void ident_probe_append_word(char **out, size_t *len, const char *word)
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

static void ident_probe_mounts_clear(struct ident_probe *p)
{
	for (size_t i = 0; i < p->nmnt; i++) {
		free(p->mnt[i].point);
		free(p->mnt[i].fstype);
	}
	free(p->mnt);
	p->mnt = NULL;
	p->nmnt = 0;
	p->mnt_loaded = false;
}

/* mountinfo: field 3 is MAJ:MIN, field 4 the root of the mount within the
 * filesystem, field 5 the mount point (octal escapes kept: findmnt prints
 * them too); the filesystem type is the first field after " - ". */
static bool ident_probe_parse_mount(char *line, struct ident_mount *m)
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

static void ident_probe_mounts_load(struct ident_probe *p)
{
	ident_probe_mounts_clear(p);
	p->mnt_loaded = true;
	FILE *f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return;
	char *line = NULL;
	size_t cap = 0, mcap = 0;
	while (getline(&line, &cap, f) > 0) {
		if (grow_array((void **)&p->mnt, &mcap, p->nmnt + 1, sizeof *p->mnt, 64) < 0)
			break;
		if (ident_probe_parse_mount(line, &p->mnt[p->nmnt]))
			p->nmnt++;
	}
	free(line);
	fclose(f);
}

/* Mount points of major:minor, space separated.  Mounts of the whole
 * filesystem are listed; bind mounts of a subtree or a single file only
 * when there is no whole mount (btrfs subvolumes, say).  *fstype gets the
 * type of the first mount. */
static char *ident_probe_mounts_of(struct ident_probe *p, uint32_t major, uint32_t minor, char **fstype)
{
	if (!p->mnt_loaded)
		ident_probe_mounts_load(p);
	char *whole = NULL, *partial = NULL;
	size_t whole_len = 0, partial_len = 0;
	for (size_t i = 0; i < p->nmnt; i++) {
		const struct ident_mount *m = &p->mnt[i];
		if (m->major != major || m->minor != minor)
			continue;
		if (!*fstype && m->fstype)
			*fstype = strdup(m->fstype);
		if (m->whole)
			ident_probe_append_word(&whole, &whole_len, m->point);
		else
			ident_probe_append_word(&partial, &partial_len, m->point);
	}
	if (whole) {
		free(partial);
		return whole;
	}
	return partial;
}




bool ident_probe_udev_mpath_path(const char *udev_data_dir, uint32_t major, uint32_t minor)
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
static bool ident_probe_dir_has_entry(const char *path)
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
static bool ident_probe_stack_member(const struct dev_ident *id)
{
	char path[PATH_MAX];
	snprintf(path, sizeof path, SYS_BLOCK "/%s/holders", id->kname);
	if (ident_probe_dir_has_entry(path))
		return true;
	if (id->fstype && strcmp(id->fstype, "linux_raid_member") == 0)
		return true;
	if (ident_probe_udev_mpath_path("/run/udev/data", id->major, id->minor))
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
		parts = strncmp(e->d_name, id->kname, klen) == 0 && ident_probe_exists(id->kname, attr);
	}
	if (d)
		closedir(d);
	return parts;
}

static void ident_probe_make_key(struct dev_ident *id)
{
	char *loop = ident_probe_read_attr(id->kname, "loop/backing_file");
	free(id->key);
	id->key = ident_key_of(id, ident_probe_stack_member(id), loop);
	free(loop);
	id->key_serial = ident_serial_new();
}

static void ident_probe_lookup(struct ident_probe *p, struct dev_ident *id)
{
	id->partition = ident_probe_exists(id->kname, "partition");
	id->dm_name = ident_probe_read_attr(id->kname, "dm/name");
	id->dm_uuid = ident_probe_read_attr(id->kname, "dm/uuid");
	if (ident_probe_exists(id->kname, "md"))
		id->md_name = ident_probe_md_name(id->kname);
	/* Queue attributes live on the whole disk, one level up from a partition. */
	const char *q = id->partition ? "../queue" : "queue";
	char attr[64];
	snprintf(attr, sizeof attr, "%s/rotational", q);
	char *rot = ident_probe_read_attr(id->kname, attr);
	id->rotational = rot ? atoi(rot) != 0 : -1;
	free(rot);
	snprintf(attr, sizeof attr, "%s/write_cache", q);
	id->write_cache = ident_probe_read_attr(id->kname, attr);
	id->wwid = ident_probe_read_attr(id->kname, id->partition ? "../wwid" : "wwid");
	if (!id->wwid)
		id->wwid = ident_probe_read_attr(id->kname, id->partition ? "../device/wwid" : "device/wwid");
	id->serial = ident_probe_read_attr(id->kname, id->partition ? "../device/serial" : "device/serial");
	char *mnt_type = NULL;
	id->mounts = ident_probe_mounts_of(p, id->major, id->minor, &mnt_type);
	ident_probe_fs(id);
	/* blkid cannot always probe (no /dev node, no permission): the
	 * mount table still knows the type. */
	if (!id->fstype)
		id->fstype = mnt_type;
	else
		free(mnt_type);
	ident_probe_read_bdi(id);
	id->label_short = strdup(id->dm_name ? id->dm_name : id->md_name ? id->md_name : id->kname);
	ident_probe_make_key(id);
}












struct ident_probe *ident_probe_new(void)
{
	struct ident_probe *p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	p->mountinfo_fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
	return p;
}

void ident_probe_free(struct ident_probe *p)
{
	if (!p)
		return;
	ident_probe_mounts_clear(p);
	if (p->mountinfo_fd >= 0)
		close(p->mountinfo_fd);
	free(p);
}

const struct dev_ident *ident_probe_get(struct ident_probe *p, struct ident_table *t, uint32_t major,
					uint32_t minor, const char *kname)
{
	/* Called only for devices new to the caller (the live source hands
	 * known identities on itself). */
	bool known;
	struct dev_ident *id = ident_table_take(t, major, minor, kname, &known);
	if (id && !known)
		ident_probe_lookup(p, id);	/* its key, and so a new key_serial */
	return id;
}

void ident_probe_refresh_mounts(struct ident_probe *p, struct ident_table *t)
{
	if (p->mountinfo_fd < 0)
		return;
	struct pollfd pfd = { .fd = p->mountinfo_fd, .events = POLLPRI };
	/* mountinfo reports POLLERR|POLLPRI once after each change in the
	 * mount table; reading it to the end re-arms that. */
	if (poll(&pfd, 1, 0) <= 0 || !(pfd.revents & (POLLPRI | POLLERR)))
		return;
	ident_probe_mounts_load(p);
	for (size_t i = 0; i < ident_table_count(t); i++) {
		struct dev_ident *id = ident_table_at(t, i);
		char *mnt_type = NULL;
		char *m = ident_probe_mounts_of(p, id->major, id->minor, &mnt_type);
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
			ident_probe_make_key(id);
	}
}

void ident_probe_refresh_bdi(struct ident_table *t, uint32_t major, uint32_t minor)
{
	struct dev_ident *id = ident_table_find(t, major, minor);
	if (id)
		ident_probe_read_bdi(id);
}



