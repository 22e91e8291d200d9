/*
 * atomic_file.h - replace a file so that a reader sees the old contents or
 * the new, never a part: a hidden temporary file beside it (".NAME.XXXXXX",
 * which node_exporter's *.prom pattern skips), fsync, rename, fsync of the
 * directory.  The caller writes the contents through a callback; this module
 * owns the stream, the temporary file and the error text.  It creates no
 * directories, takes no lock, never prints or exits: 0 or a negative errno,
 * with "PATH: reason" in err.
 */
#ifndef WBTOP_ATOMIC_FILE_H
#define WBTOP_ATOMIC_FILE_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* What to do with what is at path now; 0 = replace path itself, new mode. */
enum atomic_file_flag {
	/* An existing file keeps its mode (stat() of path: through a link,
	 * the mode of the file it names); else mode less the umask. */
	ATOMIC_FILE_KEEP_MODE = 1u << 0,
	/* path is a symbolic link: replace the file it names (one level,
	 * relative to the link's directory, even if it does not exist yet)
	 * and keep the link.  Else the link itself is replaced. */
	ATOMIC_FILE_FOLLOW_LINK = 1u << 1,
	/* path is (or names) neither a regular file nor a directory, e.g. a
	 * FIFO or /dev/stdout: write into it directly, no temporary file. */
	ATOMIC_FILE_WRITE_SPECIAL = 1u << 2
};

/* Writes the contents to f, from arg (the caller's, read only).  Returns 0
 * or a negative errno; the stream's own errors need not be checked
 * (atomic_file_write flushes and checks). */
typedef int (*atomic_file_fill_fn)(FILE *f, const void *arg);

/* Replace path with what fill(f, arg) writes, as above; flags are enum
 * atomic_file_flag bits.  The new file gets mode (e.g. 0666) less the
 * umask, unless ATOMIC_FILE_KEEP_MODE keeps an existing file's.  0, or
 * -errno (of the write, the fsync, the rename, or fill's own) with
 * "PATH: reason" in err (path as given, err may be NULL if errlen is 0);
 * on failure the old file is untouched and no temporary file is left. */
int atomic_file_write(const char *path, unsigned flags, mode_t mode,
		      atomic_file_fill_fn fill, const void *arg, char *err, size_t errlen);

#endif
