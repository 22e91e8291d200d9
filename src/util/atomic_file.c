/*
 * atomic_file.c - replace a file atomically: temporary file beside it,
 * fsync, rename, fsync of the directory (atomic_file.h).  It writes no
 * format: the caller's fill callback does.  The flags keep what its two
 * users did (openmetrics: follow a symlink, write a FIFO or device directly,
 * 0666 less the umask; settings: keep the mode of the file it replaces).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/atomic_file.h"

/* "DIR/.NAME.XXXXXX" for path "DIR/NAME"; NULL if out of memory. */
static char *atomic_file_temp_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	const char *base = path + dirlen;
	size_t len = dirlen + 1 + strlen(base) + 8 + 1;
	char *tmp = malloc(len);
	if (tmp)
		snprintf(tmp, len, "%.*s.%s.XXXXXX", (int)dirlen, path, base);
	return tmp;
}

/* Make the rename itself durable: fsync the directory holding path.
 * Best effort: some filesystems refuse fsync on a directory. */
static void atomic_file_sync_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
	if (!dir)
		return;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
	}
	free(dir);
}

/* The mode the new file gets: the old file's when asked to keep it and
 * there is one, else mode less the umask. */
static mode_t atomic_file_mode(const char *path, unsigned flags, mode_t mode)
{
	struct stat st;
	if ((flags & ATOMIC_FILE_KEEP_MODE) && stat(path, &st) == 0)
		return st.st_mode & 07777;
	mode_t mask = umask(0);
	umask(mask);
	return mode & ~mask;
}

/* Run fill on fp, then flush, optionally fsync, and close fp (always).
 * 0 or -errno: fill's error first, then the stream's. */
static int atomic_file_fill(FILE *fp, bool sync, atomic_file_fill_fn fill, const void *arg)
{
	errno = 0;
	int rc = fill(fp, arg);
	if (rc == 0 && (fflush(fp) == EOF || ferror(fp)))
		rc = errno ? -errno : -EIO;
	if (rc == 0 && sync && fsync(fileno(fp)) < 0)
		rc = -errno;
	if (fclose(fp) == EOF && rc == 0)
		rc = errno ? -errno : -EIO;
	return rc;
}

/* Write the contents into the open temporary file fd (closed here). */
static int atomic_file_fill_temp(int fd, mode_t mode, atomic_file_fill_fn fill, const void *arg)
{
	/* mkstemp makes 0600; readers may be other users (node_exporter) */
	if (fchmod(fd, mode) < 0) {
		int e = errno;
		close(fd);
		return -e;
	}
	FILE *fp = fdopen(fd, "w");
	if (!fp) {
		int e = errno;
		close(fd);
		return -e;
	}
	return atomic_file_fill(fp, true, fill, arg);
}

/* Not a file to replace (a FIFO, /dev/stdout): write the contents into it. */
static int atomic_file_write_special(const char *path, atomic_file_fill_fn fill, const void *arg)
{
	FILE *fp = fopen(path, "we");
	if (!fp)
		return -errno;
	return atomic_file_fill(fp, false, fill, arg);
}

/* Write into a temporary file beside target, then rename it over target. */
static int atomic_file_replace(const char *target, unsigned flags, mode_t mode,
			       atomic_file_fill_fn fill, const void *arg)
{
	char *tmp = atomic_file_temp_name(target);
	if (!tmp)
		return -ENOMEM;
	mode_t new_mode = atomic_file_mode(target, flags, mode);
	int rc;
	int fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
	} else {
		rc = atomic_file_fill_temp(fd, new_mode, fill, arg);
		if (rc == 0 && rename(tmp, target) < 0)
			rc = -errno;
		if (rc < 0)
			unlink(tmp);
	}
	free(tmp);
	if (rc == 0)
		atomic_file_sync_dir(target);
	return rc;
}

/* The path a symbolic link names, relative to the link's directory; NULL
 * if path is no link.  realpath() would fail while the target is missing
 * (the first run), so one level is read by hand. */
static char *atomic_file_link_target(const char *path)
{
	char buf[PATH_MAX];	/* Linux keeps symlink targets below PATH_MAX */
	ssize_t n = readlink(path, buf, sizeof buf - 1);
	if (n < 0 || n == (ssize_t)sizeof buf - 1)
		return NULL;
	buf[n] = '\0';
	const char *slash = strrchr(path, '/');
	char *out = NULL;
	if (buf[0] == '/' || !slash)
		out = strdup(buf);
	else if (asprintf(&out, "%.*s/%s", (int)(slash - path), path, buf) < 0)
		out = NULL;
	return out;
}

int atomic_file_write(const char *path, unsigned flags, mode_t mode,
		      atomic_file_fill_fn fill, const void *arg, char *err, size_t errlen)
{
	struct stat st;
	char *real = NULL;
	int rc;
	if ((flags & ATOMIC_FILE_WRITE_SPECIAL) && stat(path, &st) == 0 &&
	    !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
		rc = atomic_file_write_special(path, fill, arg);
	} else {
		/* through a symlink, replace the file it names and keep the link */
		if (flags & ATOMIC_FILE_FOLLOW_LINK)
			real = atomic_file_link_target(path);
		rc = atomic_file_replace(real ? real : path, flags, mode, fill, arg);
	}
	free(real);
	if (rc < 0)
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
	return rc;
}
