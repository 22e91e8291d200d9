/*
 * sysfs.c - one integer from a kernel knob or attribute file.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "util/grow.h"
#include "util/sysfs.h"

int sysfs_read_int(const char *path, int64_t *out)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* a knob file is one short line: one read() gets it whole */
	char buf[64];
	ssize_t n = read(fd, buf, sizeof buf - 1);
	int err = n < 0 ? -errno : 0;
	close(fd);
	if (err)
		return err;
	buf[n] = '\0';
	char *end;
	errno = 0;
	long long v = strtoll(buf, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	/* the number ends at white space or the end: what a knob file holds
	 * after its first field (file-nr's others) is not ours to judge */
	if (end == buf || (*end && !isspace((unsigned char)*end)))
		return -EINVAL;
	*out = v;
	return 0;
}

long sysfs_read_fd(int fd, char **buf, size_t *cap)
{
	size_t len = 0;
	long rc = 0;
	for (;;) {
		if (grow_array((void **)buf, cap, len + 1024, 1, 4096)) {
			rc = -ENOMEM;
			break;
		}
		ssize_t n = read(fd, *buf + len, *cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			rc = -errno;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (rc)
		return rc;
	(*buf)[len] = '\0';
	return (long)len;
}
