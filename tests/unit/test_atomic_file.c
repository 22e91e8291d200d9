/*
 * test_atomic_file.c - atomic replacement: the contents arrive whole, the
 * mode is the umask's or (ATOMIC_FILE_KEEP_MODE) the old file's, no
 * temporary file is left after success or failure, a failing writer or
 * stream leaves the old file alone and names the path in the error, a
 * symlink is followed or replaced as asked, a FIFO or device is written to
 * directly only when asked.
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/atomic_file.h"

/* Writes the string at arg. */
static int fill_text(FILE *f, const void *arg)
{
	fputs(arg, f);
	return 0;
}

/* Writes a little, then fails as a real writer might. */
static int fill_fail(FILE *f, const void *arg)
{
	(void)arg;
	fputs("half", f);
	return -ENOSPC;
}

struct tmpdir {
	char dir[64];
	char path[128];		/* DIR/file */
};

static void tmpdir_init(struct tmpdir *t)
{
	snprintf(t->dir, sizeof t->dir, "/tmp/wbtop-af-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(t->dir));
	snprintf(t->path, sizeof t->path, "%s/file", t->dir);
}

static void tmpdir_done(struct tmpdir *t)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", t->dir);
	ck_assert_int_eq(system(cmd), 0);
}

static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	ck_assert_ptr_nonnull(d);
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return n;
}

/* The file's contents (at most 255 bytes) into a static buffer. */
static const char *slurp(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");
	ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static int mode_of(const char *path)
{
	struct stat st;
	ck_assert_int_eq(stat(path, &st), 0);
	return (int)(st.st_mode & 07777);
}

START_TEST(test_new_and_replace)
{
	struct tmpdir t;
	tmpdir_init(&t);
	char err[256] = "";
	mode_t old = umask(022);
	ck_assert_int_eq(atomic_file_write(t.path, 0, 0666, fill_text, "one\n", err, sizeof err), 0);
	ck_assert_str_eq(slurp(t.path), "one\n");
	ck_assert_int_eq(mode_of(t.path), 0644);
	ck_assert_int_eq(atomic_file_write(t.path, 0, 0666, fill_text, "two\n", err, sizeof err), 0);
	umask(old);
	ck_assert_str_eq(slurp(t.path), "two\n");
	ck_assert_int_eq(count_entries(t.dir), 1);	/* no temporary file left */
	ck_assert_str_eq(err, "");
	tmpdir_done(&t);
}
END_TEST

/* Without KEEP_MODE the mode is always mode less the umask; with it an
 * existing file's mode survives and a new file gets mode less the umask. */
START_TEST(test_mode)
{
	struct tmpdir t;
	tmpdir_init(&t);
	char err[256] = "";
	mode_t old = umask(027);
	ck_assert_int_eq(atomic_file_write(t.path, ATOMIC_FILE_KEEP_MODE, 0666, fill_text, "a", err,
					   sizeof err), 0);
	ck_assert_int_eq(mode_of(t.path), 0640);
	ck_assert_int_eq(chmod(t.path, 0604), 0);
	ck_assert_int_eq(atomic_file_write(t.path, ATOMIC_FILE_KEEP_MODE, 0666, fill_text, "b", err,
					   sizeof err), 0);
	ck_assert_int_eq(mode_of(t.path), 0604);
	ck_assert_int_eq(atomic_file_write(t.path, 0, 0666, fill_text, "c", err, sizeof err), 0);
	ck_assert_int_eq(mode_of(t.path), 0640);
	umask(old);
	ck_assert_str_eq(slurp(t.path), "c");
	tmpdir_done(&t);
}
END_TEST

/* A writer's error: returned, named with the path, the old file intact. */
START_TEST(test_fill_error_keeps_old)
{
	struct tmpdir t;
	tmpdir_init(&t);
	char err[256] = "", want[256];
	ck_assert_int_eq(atomic_file_write(t.path, 0, 0666, fill_text, "old", err, sizeof err), 0);
	ck_assert_int_eq(atomic_file_write(t.path, 0, 0666, fill_fail, NULL, err, sizeof err), -ENOSPC);
	snprintf(want, sizeof want, "%s: %s", t.path, strerror(ENOSPC));
	ck_assert_str_eq(err, want);
	ck_assert_str_eq(slurp(t.path), "old");
	ck_assert_int_eq(count_entries(t.dir), 1);
	tmpdir_done(&t);
}
END_TEST

/* No such directory; a directory in the way (rename fails, the temporary
 * file goes). */
START_TEST(test_path_errors)
{
	struct tmpdir t;
	tmpdir_init(&t);
	char err[256] = "", path[192], want[256];
	snprintf(path, sizeof path, "%s/missing/file", t.dir);
	ck_assert_int_eq(atomic_file_write(path, 0, 0666, fill_text, "x", err, sizeof err), -ENOENT);
	snprintf(want, sizeof want, "%s: %s", path, strerror(ENOENT));
	ck_assert_str_eq(err, want);

	ck_assert_int_eq(mkdir(t.path, 0755), 0);
	unsigned all = ATOMIC_FILE_KEEP_MODE | ATOMIC_FILE_FOLLOW_LINK | ATOMIC_FILE_WRITE_SPECIAL;
	ck_assert_int_lt(atomic_file_write(t.path, all, 0666, fill_text, "x", err, sizeof err), 0);
	ck_assert_msg(strncmp(err, t.path, strlen(t.path)) == 0 && err[strlen(t.path)] == ':',
		      "err: %s", err);
	ck_assert_int_eq(count_entries(t.dir), 1);
	tmpdir_done(&t);
}
END_TEST

/* FOLLOW_LINK: a relative link (dangling on the first write) keeps
 * pointing at the file, which is created and then replaced.  Without it
 * the link itself is replaced by a file. */
START_TEST(test_symlink)
{
	struct tmpdir t;
	tmpdir_init(&t);
	char err[256] = "", link[192];
	snprintf(link, sizeof link, "%s/link", t.dir);
	ck_assert_int_eq(symlink("file", link), 0);
	for (int i = 0; i < 2; i++) {
		const char *text = i ? "second" : "first";
		ck_assert_int_eq(atomic_file_write(link, ATOMIC_FILE_FOLLOW_LINK, 0666, fill_text,
						   text, err, sizeof err), 0);
		struct stat st;
		ck_assert_int_eq(lstat(link, &st), 0);
		ck_assert(S_ISLNK(st.st_mode));
		ck_assert_int_eq(lstat(t.path, &st), 0);
		ck_assert(S_ISREG(st.st_mode));
		ck_assert_str_eq(slurp(t.path), text);
		ck_assert_int_eq(count_entries(t.dir), 2);
	}

	ck_assert_int_eq(atomic_file_write(link, 0, 0666, fill_text, "mine", err, sizeof err), 0);
	struct stat st;
	ck_assert_int_eq(lstat(link, &st), 0);
	ck_assert(S_ISREG(st.st_mode));
	ck_assert_str_eq(slurp(link), "mine");
	ck_assert_str_eq(slurp(t.path), "second");
	tmpdir_done(&t);
}
END_TEST

/* WRITE_SPECIAL: a FIFO is written into (no temporary file, no rename);
 * without it the FIFO is replaced by a file. */
START_TEST(test_fifo)
{
	struct tmpdir t;
	tmpdir_init(&t);
	char err[256] = "", buf[64];
	ck_assert_int_eq(mkfifo(t.path, 0600), 0);
	int rd = open(t.path, O_RDONLY | O_NONBLOCK);	/* a reader, so the writer's open succeeds */
	ck_assert_int_ge(rd, 0);
	ck_assert_int_eq(atomic_file_write(t.path, ATOMIC_FILE_WRITE_SPECIAL, 0666, fill_text,
					   "through the pipe\n", err, sizeof err), 0);
	ssize_t n = read(rd, buf, sizeof buf - 1);
	ck_assert_int_gt(n, 0);
	buf[n] = '\0';
	ck_assert_str_eq(buf, "through the pipe\n");
	close(rd);
	struct stat st;
	ck_assert_int_eq(lstat(t.path, &st), 0);
	ck_assert(S_ISFIFO(st.st_mode));
	ck_assert_int_eq(count_entries(t.dir), 1);

	ck_assert_int_eq(atomic_file_write(t.path, 0, 0666, fill_text, "file", err, sizeof err), 0);
	ck_assert_int_eq(lstat(t.path, &st), 0);
	ck_assert(S_ISREG(st.st_mode));
	ck_assert_str_eq(slurp(t.path), "file");
	tmpdir_done(&t);
}
END_TEST

/* A device: written to, and the stream's own error (ENOSPC from /dev/full
 * at the flush) is reported even though the writer returned 0. */
START_TEST(test_device)
{
	char err[256] = "";
	ck_assert_int_eq(atomic_file_write("/dev/null", ATOMIC_FILE_WRITE_SPECIAL, 0666, fill_text,
					   "gone", err, sizeof err), 0);
	struct stat st;
	ck_assert_int_eq(stat("/dev/null", &st), 0);
	ck_assert(S_ISCHR(st.st_mode));
	if (access("/dev/full", W_OK) == 0) {
		ck_assert_int_eq(atomic_file_write("/dev/full", ATOMIC_FILE_WRITE_SPECIAL, 0666, fill_text,
						   "no room", err, sizeof err), -ENOSPC);
		ck_assert_str_eq(err, "/dev/full: No space left on device");
	}
}
END_TEST

Suite *atomic_file_suite(void)
{
	Suite *s = suite_create("atomic_file");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_new_and_replace);
	tcase_add_test(tc, test_mode);
	tcase_add_test(tc, test_fill_error_keeps_old);
	tcase_add_test(tc, test_path_errors);
	tcase_add_test(tc, test_symlink);
	tcase_add_test(tc, test_fifo);
	tcase_add_test(tc, test_device);
	suite_add_tcase(s, tc);
	return s;
}
