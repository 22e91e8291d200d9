/*
 * procs_wdev.h - the block devices a process writes to, from the files it has open
 * for writing (fdinfo flags and mnt_id, the file's device, else its mount's source).
 *
 * Part of the live source; the parsers are pure, for the unit tests.  How, and what
 * it misses: doc/processes.md, "Which device".
 */
#ifndef WBTOP_PROCS_WDEV_H
#define WBTOP_PROCS_WDEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct procs_wdev;

/* NULL when out of memory. */
struct procs_wdev *procs_wdev_new(void);
void procs_wdev_free(struct procs_wdev *w);	/* NULL is a no-op */

/* The devices (MAJ << 32 | MIN) of pid's files open for writing, each once,
 * at most cap into dev; *n how many, *more whether there were more.  now_ns
 * (CLOCK_MONOTONIC) ages the mount table kept.  0, or -errno (the process
 * is gone, or its files are not ours to see). */
int procs_wdev_scan(struct procs_wdev *w, int32_t pid, uint64_t now_ns, uint64_t *dev, size_t cap,
		    uint8_t *n, bool *more);

/* ---- pure parsers ---- */

/* The flags (octal) and mnt_id of a /proc/PID/fdinfo/N text; false when
 * flags are missing (*mnt_id is -1 when it is). */
bool procs_wdev_parse_fdinfo(const char *text, unsigned *flags, int *mnt_id);
/* Whether a file opened with flags may be written. */
bool procs_wdev_writable(unsigned flags);
/* The line of mount mnt_id in a mountinfo text: its device (field 3) and
 * its source (after " - " and the type).  false when not there. */
bool procs_wdev_mount(const char *mountinfo, int mnt_id, uint32_t *major, uint32_t *minor, char *source,
		      size_t len);

#endif
