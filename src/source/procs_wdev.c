/*
 * procs_wdev.c - the block devices a process has files open for writing on
 * (procs_wdev.h): fdinfo flags, the file's device, mountinfo where that
 * device is anonymous.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "source/procs_wdev.h"

#define PROCS_WDEV_MOUNTS_NS 1000000000ull	/* our mount table is read again after a second */

struct procs_wdev {
	char *mounts;			/* /proc/self/mountinfo */
	size_t cap_mounts;
	uint64_t mounts_ns;		/* when read; 0 never */
	char *other;			/* another process's mountinfo (another namespace) */
	size_t cap_other;
	char buf[4096];			/* an fdinfo */
};

struct procs_wdev *procs_wdev_new(void)
{
	return calloc(1, sizeof(struct procs_wdev));
}

void procs_wdev_free(struct procs_wdev *w)
{
	if (!w)
		return;
	free(w->mounts);
	free(w->other);
	free(w);
}

/* ---- parsers ---- */

bool procs_wdev_parse_fdinfo(const char *text, unsigned *flags, int *mnt_id)
{
	bool have = false;
	*mnt_id = -1;
	for (const char *line = text; line && *line;) {
		unsigned f;
		int m;
		if (sscanf(line, "flags: %o", &f) == 1) {
			*flags = f;
			have = true;
		} else if (sscanf(line, "mnt_id: %d", &m) == 1) {
			*mnt_id = m;
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return have;
}

bool procs_wdev_writable(unsigned flags)
{
	unsigned acc = flags & O_ACCMODE;
	return acc == O_WRONLY || acc == O_RDWR;
}

bool procs_wdev_mount(const char *mountinfo, int mnt_id, uint32_t *major, uint32_t *minor, char *source,
		      size_t len)
{
	for (const char *line = mountinfo; line && *line;) {
		const char *nl = strchr(line, '\n');
		size_t llen = nl ? (size_t)(nl - line) : strlen(line);
		int id, parent, used = 0;
		unsigned ma, mi;
		if (sscanf(line, "%d %d %u:%u %n", &id, &parent, &ma, &mi, &used) == 4 && used > 0 &&
		    id == mnt_id) {
			*major = ma;
			*minor = mi;
			/* optional fields end at " - "; then the type and the source */
			const char *sep = NULL;
			for (const char *p = line; p + 3 <= line + llen; p++)
				if (p[0] == ' ' && p[1] == '-' && p[2] == ' ') {
					sep = p + 3;
					break;
				}
			if (len)
				source[0] = '\0';
			if (sep) {
				const char *end = line + llen;
				const char *t = memchr(sep, ' ', (size_t)(end - sep));
				if (t) {
					const char *s = t + 1;
					const char *se = memchr(s, ' ', (size_t)(end - s));
					size_t n = (size_t)((se ? se : end) - s);
					if (len)
						snprintf(source, len, "%.*s", (int)n, s);
				}
			}
			return true;
		}
		line = nl ? nl + 1 : NULL;
	}
	return false;
}

/* ---- reading ---- */

/* The whole of path into *buf (grown); its length, or -errno. */
static ssize_t procs_wdev_slurp(const char *path, char **buf, size_t *cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	size_t n = 0;
	for (;;) {
		if (n + 1 >= *cap) {
			size_t want = *cap ? *cap * 2 : 16384;
			char *p = realloc(*buf, want);
			if (!p) {
				close(fd);
				return -ENOMEM;
			}
			*buf = p;
			*cap = want;
		}
		ssize_t got = read(fd, *buf + n, *cap - 1 - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int e = errno;
			close(fd);
			return -e;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	close(fd);
	(*buf)[n] = '\0';
	return (ssize_t)n;
}

/* The block device behind mount mnt_id of pid's namespace, or 0. */
static uint64_t procs_wdev_of_mount(struct procs_wdev *w, int32_t pid, int mnt_id, uint64_t now_ns)
{
	uint32_t ma, mi;
	char src[256];
	if (!w->mounts_ns || now_ns - w->mounts_ns >= PROCS_WDEV_MOUNTS_NS) {
		if (procs_wdev_slurp("/proc/self/mountinfo", &w->mounts, &w->cap_mounts) < 0)
			return 0;
		w->mounts_ns = now_ns ? now_ns : 1;
	}
	bool found = procs_wdev_mount(w->mounts, mnt_id, &ma, &mi, src, sizeof src);
	if (!found) {
		char path[64];
		snprintf(path, sizeof path, "/proc/%d/mountinfo", (int)pid);
		if (procs_wdev_slurp(path, &w->other, &w->cap_other) < 0)
			return 0;
		found = procs_wdev_mount(w->other, mnt_id, &ma, &mi, src, sizeof src);
	}
	if (!found)
		return 0;
	if (ma != 0)
		return (uint64_t)ma << 32 | mi;
	/* anonymous: btrfs names its device as the source; overlay, tmpfs none */
	struct stat st;
	if (src[0] != '/' || stat(src, &st) < 0 || !S_ISBLK(st.st_mode))
		return 0;
	return (uint64_t)major(st.st_rdev) << 32 | minor(st.st_rdev);
}

static void procs_wdev_add(uint64_t d, uint64_t *dev, size_t cap, uint8_t *n, bool *more)
{
	for (size_t i = 0; i < *n; i++)
		if (dev[i] == d)
			return;
	if (*n < cap)
		dev[(*n)++] = d;
	else
		*more = true;
}

int procs_wdev_scan(struct procs_wdev *w, int32_t pid, uint64_t now_ns, uint64_t *dev, size_t cap,
		    uint8_t *n, bool *more)
{
	char path[64];
	*n = 0;
	*more = false;
	if (cap > UINT8_MAX)
		cap = UINT8_MAX;
	snprintf(path, sizeof path, "/proc/%d/fdinfo", (int)pid);
	int infod = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (infod < 0)
		return -errno;
	snprintf(path, sizeof path, "/proc/%d/fd", (int)pid);
	int fdd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fdd < 0) {
		int e = errno;
		close(infod);
		return -e;
	}
	int dupd = dup(infod);
	DIR *dir = dupd >= 0 ? fdopendir(dupd) : NULL;
	if (!dir) {
		int e = errno;
		if (dupd >= 0)
			close(dupd);
		close(infod);
		close(fdd);
		return -e;
	}
	struct dirent *de;
	while ((de = readdir(dir))) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		int f = openat(infod, de->d_name, O_RDONLY | O_CLOEXEC);
		if (f < 0)
			continue;	/* closed since the listing */
		ssize_t got = read(f, w->buf, sizeof w->buf - 1);
		close(f);
		if (got <= 0)
			continue;
		w->buf[got] = '\0';
		unsigned flags = 0;
		int mnt_id;
		if (!procs_wdev_parse_fdinfo(w->buf, &flags, &mnt_id) || !procs_wdev_writable(flags))
			continue;
		struct stat st;
		if (fstatat(fdd, de->d_name, &st, 0) < 0)
			continue;
		uint64_t d = 0;
		if (S_ISBLK(st.st_mode))
			d = (uint64_t)major(st.st_rdev) << 32 | minor(st.st_rdev);
		else if (S_ISREG(st.st_mode) && major(st.st_dev) != 0)
			d = (uint64_t)major(st.st_dev) << 32 | minor(st.st_dev);
		else if (S_ISREG(st.st_mode) && mnt_id >= 0)
			d = procs_wdev_of_mount(w, pid, mnt_id, now_ns);
		if (d)
			procs_wdev_add(d, dev, cap, n, more);
	}
	closedir(dir);
	close(infod);
	close(fdd);
	return 0;
}
