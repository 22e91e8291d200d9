/*
 * sysfs.h - reading one integer from a kernel knob or attribute file
 * (under /proc/sys/vm, /sys/class/bdi, /sys/block), the one way every module
 * does it: one read(), a decimal integer that ends at white space or at the
 * end of the file.
 */
#ifndef WBTOP_SYSFS_H
#define WBTOP_SYSFS_H

#include <stddef.h>
#include <stdint.h>

/* The integer in the file at path into *out.  0, -errno of open or read,
 * -EINVAL for an empty file or a number followed by anything but white space,
 * -ERANGE for one outside int64_t. */
int sysfs_read_int(const char *path, int64_t *out);

/* The whole of the file open at fd (a kernel text file of any length: debugfs
 * stats, memory.stat, /proc/PID/cgroup) into *buf, NUL-terminated, *buf grown
 * as needed (its capacity in *cap); fd is closed.  Its length, or -errno of the
 * read (-ENOMEM when *buf cannot grow). */
long sysfs_read_fd(int fd, char **buf, size_t *cap);

#endif
