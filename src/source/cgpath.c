/*
 * cgpath.c - memory cgroup inode -> path, from a walk of the hierarchy.
 *
 * A walk fills a table in walk order and an index of it sorted by inode;
 * the paths live in one buffer per walk.  The walk before is compared with
 * the new one only to find the cgroups that went (kept, marked gone).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "source/cgpath.h"
#include "util/grow.h"
#include "util/sysfs.h"

struct cgpath_gone {
	uint64_t ino;
	char *path;
	uint64_t used_ms;	/* when it was last asked for */
};

/* One walk's table. */
struct cgpath_table {
	struct cgpath_entry *e;
	size_t n, cap;
	size_t *off;		/* each entry's path in buf, until the walk ends */
	size_t cap_off;
	uint32_t *byino;	/* indices of e sorted by inode */
	char *buf;
	size_t len, cap_buf;
	bool truncated;
};

struct cgpath {
	int root_fd;
	bool v2;
	char proc_dir[256];
	struct cgpath_table t;
	bool walked;
	uint64_t walk_ms;	/* when the last walk ran */
	struct cgpath_gone *gone;
	size_t ngone, cap_gone;
	char pbuf[4096];	/* the path being walked */
	char *line;		/* /proc/PID/cgroup's text */
	size_t cap_line;
};

static void cgpath_table_free(struct cgpath_table *t)
{
	free(t->e);
	free(t->off);
	free(t->byino);
	free(t->buf);
	memset(t, 0, sizeof *t);
}

/* Append the directory open at fd, named c->pbuf (plen bytes), then its
 * children.  0, or -ENOMEM. */
static int cgpath_walk_dir(struct cgpath *c, struct cgpath_table *t, int fd, size_t plen,
			   int depth)
{
	struct stat st;
	if (fstat(fd, &st) != 0)
		return 0;	/* gone since it was opened */
	if (t->n >= CGPATH_MAX) {
		t->truncated = true;
		return 0;
	}
	const char *name = plen ? c->pbuf : "/";
	size_t nlen = strlen(name) + 1;
	if (grow_array((void **)&t->e, &t->cap, t->n + 1, sizeof *t->e, 64) ||
	    grow_array((void **)&t->off, &t->cap_off, t->n + 1, sizeof *t->off, 64) ||
	    grow_array((void **)&t->buf, &t->cap_buf, t->len + nlen, 1, 4096))
		return -ENOMEM;
	size_t me = t->n++;
	t->e[me] = (struct cgpath_entry){ (uint64_t)st.st_ino, NULL, 0 };
	t->off[me] = t->len;
	memcpy(t->buf + t->len, name, nlen);
	t->len += nlen;
	int rc = 0;
	int sub = depth < CGPATH_DEPTH ? dup(fd) : -1;
	DIR *d = sub < 0 ? NULL : fdopendir(sub);
	if (depth >= CGPATH_DEPTH)
		t->truncated = true;
	if (!d && sub >= 0)
		close(sub);
	if (d) {
		rewinddir(d);	/* the dup shares fd's position */
		struct dirent *de;
		while (!rc && (de = readdir(d))) {
			if (de->d_name[0] == '.' || (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN))
				continue;
			size_t n = strlen(de->d_name);
			if (plen + 1 + n >= sizeof c->pbuf)
				continue;	/* longer than any path we can name */
			int cfd = openat(fd, de->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (cfd < 0)
				continue;	/* removed since the listing, or not a directory */
			c->pbuf[plen] = '/';
			memcpy(c->pbuf + plen + 1, de->d_name, n + 1);
			rc = cgpath_walk_dir(c, t, cfd, plen + 1 + n, depth + 1);
			c->pbuf[plen] = '\0';
			close(cfd);
		}
		closedir(d);
	}
	t->e[me].end = t->n;
	return rc;
}

struct cgpath_key {
	uint64_t ino;
	uint32_t i;
};

static int cgpath_cmp_ino(const void *a, const void *b)
{
	const struct cgpath_key *x = a, *y = b;
	return (x->ino > y->ino) - (x->ino < y->ino);
}

/* The index in t of ino, or -1. */
static long cgpath_find(const struct cgpath_table *t, uint64_t ino)
{
	size_t lo = 0, hi = t->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t k = t->e[t->byino[mid]].ino;
		if (k == ino)
			return t->byino[mid];
		if (k < ino)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static long cgpath_find_gone(const struct cgpath *c, uint64_t ino)
{
	for (size_t i = 0; i < c->ngone; i++)
		if (c->gone[i].ino == ino)
			return (long)i;
	return -1;
}

static void cgpath_drop_gone(struct cgpath *c, size_t i)
{
	free(c->gone[i].path);
	c->gone[i] = c->gone[--c->ngone];
}

/* Keep an entry of the old walk that the new one lacks, as gone. */
static int cgpath_keep_gone(struct cgpath *c, uint64_t ino, const char *path, uint64_t now_ms)
{
	if (cgpath_find_gone(c, ino) >= 0)
		return 0;
	if (c->ngone >= CGPATH_GONE_MAX) {
		size_t old = 0;
		for (size_t i = 1; i < c->ngone; i++)
			if (c->gone[i].used_ms < c->gone[old].used_ms)
				old = i;
		cgpath_drop_gone(c, old);
	}
	char *p = strdup(path);
	if (!p || grow_array((void **)&c->gone, &c->cap_gone, c->ngone + 1, sizeof *c->gone, 16)) {
		free(p);
		return -ENOMEM;
	}
	c->gone[c->ngone++] = (struct cgpath_gone){ ino, p, now_ms };
	return 0;
}

int cgpath_walk(struct cgpath *c, uint64_t now_ms)
{
	struct cgpath_table t = { 0 };
	c->pbuf[0] = '\0';
	int rc = cgpath_walk_dir(c, &t, c->root_fd, 0, 0);
	struct cgpath_key *key = NULL;
	if (!rc && t.n && (!(t.byino = malloc(t.n * sizeof *t.byino)) ||
			   !(key = malloc(t.n * sizeof *key))))
		rc = -ENOMEM;
	if (rc) {
		free(key);
		cgpath_table_free(&t);
		return rc;
	}
	for (size_t i = 0; i < t.n; i++) {
		t.e[i].path = t.buf + t.off[i];
		key[i] = (struct cgpath_key){ t.e[i].ino, (uint32_t)i };
	}
	if (t.n > 1)
		qsort(key, t.n, sizeof *key, cgpath_cmp_ino);
	for (size_t i = 0; i < t.n; i++)
		t.byino[i] = key[i].i;
	free(key);
	/* what the old walk had and this one lacks went; what is back is not gone */
	for (size_t i = 0; !rc && i < c->t.n; i++)
		if (cgpath_find(&t, c->t.e[i].ino) < 0)
			rc = cgpath_keep_gone(c, c->t.e[i].ino, c->t.e[i].path, now_ms);
	for (size_t i = 0; i < c->ngone;) {
		long k = cgpath_find(&t, c->gone[i].ino);
		if (k >= 0)
			cgpath_drop_gone(c, i);
		else
			i++;
	}
	cgpath_table_free(&c->t);
	c->t = t;
	c->walked = true;
	c->walk_ms = now_ms;
	return rc;
}

int cgpath_update(struct cgpath *c, uint64_t now_ms, uint64_t period_ms)
{
	if (c->walked && now_ms - c->walk_ms < period_ms)
		return 0;
	return cgpath_walk(c, now_ms);
}

int cgpath_memory_root(const char *dir, bool *v2)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	*v2 = faccessat(fd, "cgroup.controllers", F_OK, 0) == 0;
	if (*v2 || faccessat(fd, "memory.stat", F_OK, 0) == 0)
		return fd;
	int mfd = openat(fd, "memory", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	close(fd);
	if (mfd >= 0 && faccessat(mfd, "memory.stat", F_OK, 0) == 0)
		return mfd;
	if (mfd >= 0)
		close(mfd);
	errno = ENOENT;
	return -1;
}

int cgpath_open(struct cgpath **out, const char *cgroup_dir, const char *proc_dir, char *why,
		size_t whylen)
{
	*out = NULL;
	struct cgpath *c = calloc(1, sizeof *c);
	if (!c)
		return -ENOMEM;
	c->root_fd = cgpath_memory_root(cgroup_dir, &c->v2);
	if (c->root_fd < 0) {
		int err = errno ? errno : ENOENT;
		snprintf(why, whylen, "no memory cgroup hierarchy at %s (v2, %s/memory or a v1 memory mount)",
			 cgroup_dir, cgroup_dir);
		free(c);
		return -err;
	}
	snprintf(c->proc_dir, sizeof c->proc_dir, "%s", proc_dir);
	int rc = cgpath_walk(c, 0);
	if (rc) {
		snprintf(why, whylen, "cannot walk %s: %s", cgroup_dir, strerror(-rc));
		cgpath_close(c);
		return rc;
	}
	*out = c;
	return 0;
}

bool cgpath_v2(const struct cgpath *c)
{
	return c->v2;
}

int cgpath_root_fd(const struct cgpath *c)
{
	return c->root_fd;
}

const char *cgpath_lookup(struct cgpath *c, uint64_t ino, uint64_t now_ms, bool *gone)
{
	for (int pass = 0; pass < 2; pass++) {
		long k = cgpath_find(&c->t, ino);
		if (k >= 0) {
			*gone = false;
			return c->t.e[k].path;
		}
		k = cgpath_find_gone(c, ino);
		if (k >= 0) {
			*gone = true;
			c->gone[k].used_ms = now_ms;
			return c->gone[k].path;
		}
		/* new since the last walk (or never there): walk again, not too often */
		if (pass || (c->walked && now_ms - c->walk_ms < CGPATH_WALK_MS) ||
		    cgpath_walk(c, now_ms) != 0)
			break;
	}
	*gone = false;
	return NULL;
}

char *cgpath_parse_task(char *text, bool v2)
{
	for (char *line = text, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		char *c1 = strchr(line, ':');
		char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2)
			continue;
		*c2 = '\0';
		bool mine;
		if (v2) {
			mine = strcmp(line, "0:") == 0;	/* hierarchy 0, no controllers named */
		} else {
			mine = false;
			for (char *tok = c1 + 1; *tok && !mine;) {
				size_t n = strcspn(tok, ",");
				mine = n == 6 && strncmp(tok, "memory", 6) == 0;
				tok += n + (tok[n] == ',');
			}
		}
		if (mine && c2[1] == '/')
			return c2 + 1;
	}
	return NULL;
}

int cgpath_of_task(struct cgpath *c, int32_t pid, uint64_t *ino)
{
	char name[300];
	snprintf(name, sizeof name, "%s/%d/cgroup", c->proc_dir, (int)pid);
	int fd = open(name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	long rc = sysfs_read_fd(fd, &c->line, &c->cap_line);
	if (rc < 0)
		return rc == -ESRCH ? -ENOENT : (int)rc;
	char *path = cgpath_parse_task(c->line, c->v2);
	if (!path)
		return -ENOENT;	/* no memory controller line: not in this hierarchy */
	struct stat st;
	const char *rel = path[1] ? path + 1 : ".";
	if (fstatat(c->root_fd, rel, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return -errno;
	*ino = (uint64_t)st.st_ino;
	return 0;
}

const struct cgpath_entry *cgpath_entries(const struct cgpath *c, size_t *n)
{
	*n = c->t.n;
	return c->t.e;
}

long cgpath_index(const struct cgpath *c, uint64_t ino)
{
	return cgpath_find(&c->t, ino);
}

bool cgpath_truncated(const struct cgpath *c)
{
	return c->t.truncated;
}

void cgpath_close(struct cgpath *c)
{
	if (!c)
		return;
	if (c->root_fd >= 0)
		close(c->root_fd);
	cgpath_table_free(&c->t);
	for (size_t i = 0; i < c->ngone; i++)
		free(c->gone[i].path);
	free(c->gone);
	free(c->line);
	free(c);
}
