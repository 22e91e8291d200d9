/*
 * cgpath.h - a memory cgroup's path from its inode number (a source).
 *
 * Walks the memory cgroup hierarchy once and keeps inode -> path; walks again for an
 * unknown inode (at most once per CGPATH_WALK_MS) or when the caller's period says so.
 * Bounded (CGPATH_MAX, CGPATH_DEPTH, CGPATH_GONE_MAX); a path stays valid until the
 * next call that can walk.  Not a view.  doc/kernel-loop.md, "Per cgroup".
 */
#ifndef WBTOP_CGPATH_H
#define WBTOP_CGPATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CGPATH_MAX 65536	/* directories a walk takes */
#define CGPATH_DEPTH 32		/* levels below the root */
#define CGPATH_GONE_MAX 1024	/* vanished cgroups kept */
#define CGPATH_WALK_MS 1000	/* an unknown inode walks again at most this often */

struct cgpath;

/* One cgroup of the last walk, in walk order (a directory before its
 * children): end is the index after its last descendant. */
struct cgpath_entry {
	uint64_t ino;
	const char *path;	/* "/" for the root, else "/a/b" */
	size_t end;
};

/* Open the memory cgroup hierarchy under cgroup_dir: cgroup v2 when it has
 * cgroup.controllers, else a v1 memory hierarchy at cgroup_dir itself or at
 * cgroup_dir/memory.  proc_dir is where /proc/PID/cgroup is read (normally
 * "/proc").  Walks it once.  0, or a negative errno and one line in why. */
int cgpath_open(struct cgpath **out, const char *cgroup_dir, const char *proc_dir, char *why,
		size_t whylen);

/* Whether the hierarchy is cgroup v2's. */
bool cgpath_v2(const struct cgpath *c);

/* The directory file descriptor of the hierarchy's root (owned by c). */
int cgpath_root_fd(const struct cgpath *c);

/* The memory cgroup hierarchy's root under dir (the cgroup mount): dir itself when it is v2
 * (cgroup.controllers; *v2 set) or a v1 memory hierarchy, else dir/memory (v1). An open
 * directory descriptor, or -1 with errno set when there is none. */
int cgpath_memory_root(const char *dir, bool *v2);

/* Walk again now (now_ms: the caller's clock).  0 or a negative errno
 * (then the last walk's table stays). */
int cgpath_walk(struct cgpath *c, uint64_t now_ms);

/* Walk again when the last walk is period_ms old or more. */
int cgpath_update(struct cgpath *c, uint64_t now_ms, uint64_t period_ms);

/* The path of cgroup ino, with *gone true when a walk since it was found
 * no longer finds it; NULL when no walk has found it (an unknown inode
 * walks again first, at most once per CGPATH_WALK_MS). */
const char *cgpath_lookup(struct cgpath *c, uint64_t ino, uint64_t now_ms, bool *gone);

/* The inode number of task pid's memory cgroup (its line of
 * /proc/PID/cgroup: "0::" on v2, the one naming memory on v1).  0, or
 * -ENOENT (the task or its cgroup is gone), another negative errno. */
int cgpath_of_task(struct cgpath *c, int32_t pid, uint64_t *ino);

/* The memory cgroup's path in text, a /proc/PID/cgroup file's text (NUL
 * terminated; cut into lines in place): the path of the "0::" line when v2,
 * else of the line whose controller list names memory.  NULL when there is
 * none.  Pure: fuzzed. */
char *cgpath_parse_task(char *text, bool v2);

/* The cgroups of the last walk, in walk order; *n set. */
const struct cgpath_entry *cgpath_entries(const struct cgpath *c, size_t *n);

/* The index of cgroup ino among the last walk's entries, or -1. */
long cgpath_index(const struct cgpath *c, uint64_t ino);

/* Whether the last walk stopped at CGPATH_MAX or CGPATH_DEPTH. */
bool cgpath_truncated(const struct cgpath *c);

void cgpath_close(struct cgpath *c);	/* NULL is a no-op */

#endif
