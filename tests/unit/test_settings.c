/*
 * test_settings.c - the settings file: a save read back gives the same
 * settings (strings with quotes, backslashes, '#', blanks; doubles exact);
 * each kind of malformed line gives one "wbtop: FILE:LINE: ..." warning and
 * leaves that key at its default while the other lines still apply; the
 * default path follows XDG_CONFIG_HOME and HOME; saving is atomic, keeps the
 * file's mode and names the path when it fails.
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/detect.h"
#include "run/settings.h"

/* Read text as a settings file named "rc"; the warnings go to *warnings. */
static int read_text(const char *text, struct settings *s, char **warnings)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	ck_assert_ptr_nonnull(in);
	size_t len = 0;
	FILE *warn = open_memstream(warnings, &len);
	settings_init(s);
	int rc = settings_read(in, "rc", s, warn);
	fclose(warn);
	fclose(in);
	return rc;
}

static char *make_temp_dir(void)
{
	char tmpl[] = "/tmp/wbtop-settings-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(tmpl));
	return strdup(tmpl);
}

static void remove_tree(const char *dir)
{
	char cmd[512];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

START_TEST(test_defaults)
{
	struct settings s;
	settings_init(&s);
	ck_assert_uint_eq(s.have, 0);
	ck_assert_double_eq(s.delay_s, 1.0);
	ck_assert_double_eq(s.dip_pct, DIP_DEFAULT_DROP_PCT);
	ck_assert(!s.show_idle);
	ck_assert_ptr_null(s.sort);
	ck_assert_ptr_null(s.filter);
	ck_assert_ptr_null(s.layout);
	settings_free(&s);
	settings_free(&s);	/* twice: s is back to the initial state */
	settings_free(NULL);
}
END_TEST

START_TEST(test_good_file)
{
	struct settings s;
	char *warnings;
	int rc = read_text("# saved by hand\n"
			   "\n"
			   "  delay=0.5\n"
			   "sort = wMB/s\r\n"
			   "filter = \"^(sd|nvme) #x\"\n"
			   "show_idle\t=\tYes\n"
			   "dip = 7.5%\n"
			   "layout = sys devices procs\n", &s, &warnings);
	ck_assert_int_eq(rc, 0);
	ck_assert_str_eq(warnings, "");
	ck_assert_uint_eq(s.have, SETTINGS_DELAY | SETTINGS_SORT | SETTINGS_FILTER | SETTINGS_SHOW_IDLE |
				  SETTINGS_DIP | SETTINGS_LAYOUT);
	ck_assert_double_eq(s.delay_s, 0.5);
	ck_assert_str_eq(s.sort, "wMB/s");
	ck_assert_str_eq(s.filter, "^(sd|nvme) #x");
	ck_assert(s.show_idle);
	ck_assert_double_eq(s.dip_pct, 7.5);
	ck_assert_str_eq(s.layout, "sys devices procs");
	free(warnings);
	settings_free(&s);
}
END_TEST

/* One malformed line each: the warning it must give, and the key it must
 * leave at its default.  Line 1 of every case sets sort, which must stick. */
static const struct {
	const char *line;
	const char *warning;	/* after "wbtop: rc:2: " */
	unsigned bit;		/* must not be in have afterwards */
} bad_lines[] = {
	{ "delay = abc", "delay 'abc': not a number of seconds between 0.01 and 86400; ignored", SETTINGS_DELAY },
	{ "delay = 0", "delay '0': not a number of seconds", SETTINGS_DELAY },
	{ "delay = 1e9", "delay '1e9': not a number of seconds", SETTINGS_DELAY },
	{ "delay = nan", "delay 'nan': not a number of seconds", SETTINGS_DELAY },
	{ "delay = 2s", "delay '2s': not a number of seconds", SETTINGS_DELAY },
	{ "dip = 150", "dip '150': not a percentage between 0 and 100", SETTINGS_DIP },
	{ "dip = 0", "dip '0': not a percentage", SETTINGS_DIP },
	{ "dip = -5", "dip '-5': not a percentage", SETTINGS_DIP },
	{ "show_idle = maybe", "show_idle 'maybe': expected yes or no", SETTINGS_SHOW_IDLE },
	{ "filter = (", "filter '(': ", SETTINGS_FILTER },
	{ "filter = \"a\\qb\"", "filter: unterminated or malformed quoted value", SETTINGS_FILTER },
	{ "layout = \"abc", "layout: unterminated or malformed quoted value", SETTINGS_LAYOUT },
	{ "layout = \"abc\" x", "layout: unterminated or malformed quoted value", SETTINGS_LAYOUT },
	{ "layout = a\x01z", "layout 'a\x01z': must be printable characters", SETTINGS_LAYOUT },
	{ "dip", "expected KEY = VALUE, got 'dip'", SETTINGS_DIP },
	{ "colour = red", "unknown setting 'colour'", 0 },
	{ "= 3", "unknown setting ''", 0 },
};

START_TEST(test_bad_line)
{
	char text[256], want[256];
	snprintf(text, sizeof text, "sort = r/s\n%s\nlayout2 = x\n", bad_lines[_i].line);
	struct settings s;
	char *warnings;
	int rc = read_text(text, &s, &warnings);
	ck_assert_int_eq(rc, 2);	/* the bad line and layout2 */
	snprintf(want, sizeof want, "wbtop: rc:2: %s", bad_lines[_i].warning);
	ck_assert_msg(strncmp(warnings, want, strlen(want)) == 0, "got: %s\nwant: %s", warnings, want);
	ck_assert_msg(strstr(warnings, "\nwbtop: rc:3: unknown setting 'layout2'; ignored\n"), "got: %s", warnings);
	ck_assert_uint_eq(s.have & bad_lines[_i].bit, 0);
	ck_assert(s.have & SETTINGS_SORT);
	ck_assert_str_eq(s.sort, "r/s");
	ck_assert_double_eq(s.delay_s, 1.0);
	ck_assert_double_eq(s.dip_pct, DIP_DEFAULT_DROP_PCT);
	free(warnings);
	settings_free(&s);
}
END_TEST

/* Word values: empty or with blanks are refused (a sort key is one column). */
START_TEST(test_bad_word)
{
	struct settings s;
	settings_init(&s);
	char err[256];
	ck_assert_int_eq(settings_set(&s, "sort", "", err, sizeof err), -EINVAL);
	ck_assert_str_eq(err, "sort '': must not be empty");
	ck_assert_int_eq(settings_set(&s, "sort", "a b", err, sizeof err), -EINVAL);
	ck_assert_int_eq(settings_set(&s, "nope", "1", err, sizeof err), -EINVAL);
	ck_assert_str_eq(err, "unknown setting 'nope'");
	ck_assert_uint_eq(s.have, 0);
	ck_assert_int_eq(settings_set(&s, "filter", "", err, sizeof err), 0);	/* "" = all devices */
	ck_assert_str_eq(s.filter, "");
	settings_free(&s);
}
END_TEST

/* A NUL byte in a line is an error, not a silently cut value. */
START_TEST(test_nul_byte)
{
	static const char text[] = "sort = a\0b\ndelay = 2\n";
	FILE *in = fmemopen((void *)text, sizeof text - 1, "r");
	char *warnings;
	size_t len;
	FILE *warn = open_memstream(&warnings, &len);
	struct settings s;
	settings_init(&s);
	ck_assert_int_eq(settings_read(in, "rc", &s, warn), 1);
	fclose(warn);
	fclose(in);
	ck_assert_str_eq(warnings, "wbtop: rc:1: contains a NUL byte; ignored\n");
	ck_assert_uint_eq(s.have, SETTINGS_DELAY);
	ck_assert_double_eq(s.delay_s, 2.0);
	free(warnings);
	settings_free(&s);
}
END_TEST

/* Later lines win; an invalid later line keeps the earlier valid value. */
START_TEST(test_last_valid_wins)
{
	struct settings s;
	char *warnings;
	ck_assert_int_eq(read_text("delay = 2\ndelay = 3\ndelay = x\n", &s, &warnings), 1);
	ck_assert_double_eq(s.delay_s, 3.0);
	free(warnings);
	settings_free(&s);
}
END_TEST

static const char *const round_trip_strings[] = {
	"plain",
	"\"quoted\" and \\backslash\\",
	"  leading and trailing blanks  ",
	"# not a comment",
	"\"",
	"caf\xc3\xa9 = \xe2\x9c\x93",
};

START_TEST(test_round_trip)
{
	char *dir = make_temp_dir();
	char path[512], err[512] = "";
	snprintf(path, sizeof path, "%s/wbtoprc", dir);
	struct settings a, b;
	settings_init(&a);
	const char *str = round_trip_strings[_i];
	ck_assert_int_eq(settings_set(&a, "layout", str, err, sizeof err), 0);
	ck_assert_int_eq(settings_set(&a, "sort", "w_await", err, sizeof err), 0);
	ck_assert_int_eq(settings_set(&a, "filter", "^dm-[0-9]+$|\"x\"", err, sizeof err), 0);
	ck_assert_int_eq(settings_set(&a, "show_idle", "no", err, sizeof err), 0);
	a.delay_s = 0.1;	/* not exact in binary: must come back bit for bit */
	a.dip_pct = 100.0 / 3.0;
	a.have |= SETTINGS_DELAY | SETTINGS_DIP;
	ck_assert_int_eq(settings_save(path, &a, err, sizeof err), 0);

	ck_assert_int_eq(settings_load(path, &b, stderr), 0);
	ck_assert_uint_eq(b.have, a.have);
	ck_assert_str_eq(b.layout, str);
	ck_assert_str_eq(b.sort, "w_await");
	ck_assert_str_eq(b.filter, "^dm-[0-9]+$|\"x\"");
	ck_assert(!b.show_idle);
	ck_assert(b.delay_s == 0.1);
	ck_assert(b.dip_pct == 100.0 / 3.0);
	settings_free(&a);
	settings_free(&b);
	remove_tree(dir);
	free(dir);
}
END_TEST

/* Only the keys in have are written: the rest stay defaults on reload. */
START_TEST(test_save_only_given)
{
	char *dir = make_temp_dir();
	char path[512], err[512] = "";
	snprintf(path, sizeof path, "%s/rc", dir);
	struct settings a, b;
	settings_init(&a);
	a.delay_s = 5;	/* not in have: not saved */
	ck_assert_int_eq(settings_set(&a, "show_idle", "on", err, sizeof err), 0);
	ck_assert_int_eq(settings_save(path, &a, err, sizeof err), 0);
	ck_assert_int_eq(settings_load(path, &b, stderr), 0);
	ck_assert_uint_eq(b.have, SETTINGS_SHOW_IDLE);
	ck_assert(b.show_idle);
	ck_assert_double_eq(b.delay_s, 1.0);
	settings_free(&a);
	settings_free(&b);
	remove_tree(dir);
	free(dir);
}
END_TEST

START_TEST(test_load_missing_and_unreadable)
{
	char *dir = make_temp_dir();
	char path[512];
	struct settings s;
	char *warnings;
	size_t len;

	snprintf(path, sizeof path, "%s/none", dir);
	FILE *warn = open_memstream(&warnings, &len);
	ck_assert_int_eq(settings_load(path, &s, warn), 1);	/* no file: quiet defaults */
	fclose(warn);
	ck_assert_str_eq(warnings, "");
	ck_assert_uint_eq(s.have, 0);
	free(warnings);

	warn = open_memstream(&warnings, &len);
	ck_assert_int_eq(settings_load(dir, &s, warn), -EISDIR);	/* a directory */
	fclose(warn);
	char want[600];
	snprintf(want, sizeof want, "wbtop: %s: Is a directory; using the defaults\n", dir);
	ck_assert_str_eq(warnings, want);
	ck_assert_uint_eq(s.have, 0);
	free(warnings);
	settings_free(&s);
	remove_tree(dir);
	free(dir);
}
END_TEST

static void restore_env(const char *name, char *saved)
{
	if (saved) {
		setenv(name, saved, 1);
		free(saved);
	} else {
		unsetenv(name);
	}
}

static char *save_env(const char *name)
{
	const char *v = getenv(name);
	return v ? strdup(v) : NULL;
}

START_TEST(test_default_path)
{
	char *xdg = save_env("XDG_CONFIG_HOME"), *home = save_env("HOME");
	setenv("HOME", "/home/u", 1);
	setenv("XDG_CONFIG_HOME", "/cfg", 1);
	char *p = settings_default_path();
	ck_assert_str_eq(p, "/cfg/wbtop/wbtoprc");
	free(p);
	setenv("XDG_CONFIG_HOME", "relative/cfg", 1);	/* invalid per the XDG spec */
	p = settings_default_path();
	ck_assert_str_eq(p, "/home/u/.config/wbtop/wbtoprc");
	free(p);
	unsetenv("XDG_CONFIG_HOME");
	p = settings_default_path();
	ck_assert_str_eq(p, "/home/u/.config/wbtop/wbtoprc");
	free(p);
	unsetenv("HOME");
	errno = 0;
	ck_assert_ptr_null(settings_default_path());
	ck_assert_int_eq(errno, ENOENT);
	struct settings s;
	ck_assert_int_eq(settings_load(NULL, &s, NULL), 1);
	settings_free(&s);
	restore_env("XDG_CONFIG_HOME", xdg);
	restore_env("HOME", home);
}
END_TEST

/* settings_save(NULL, ...) creates $XDG_CONFIG_HOME/wbtop (0700) and the
 * file; a second save replaces it and keeps a mode the user chose. */
START_TEST(test_save_default_path)
{
	char *dir = make_temp_dir();
	char *xdg = save_env("XDG_CONFIG_HOME");
	setenv("XDG_CONFIG_HOME", dir, 1);
	struct settings a, b;
	settings_init(&a);
	char err[512] = "", path[512];
	ck_assert_int_eq(settings_set(&a, "delay", "2.5", err, sizeof err), 0);
	ck_assert_int_eq(settings_save(NULL, &a, err, sizeof err), 0);
	snprintf(path, sizeof path, "%s/wbtop", dir);
	struct stat st;
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0700);
	snprintf(path, sizeof path, "%s/wbtop/wbtoprc", dir);
	ck_assert_int_eq(chmod(path, 0600), 0);
	ck_assert_int_eq(settings_set(&a, "delay", "3", err, sizeof err), 0);
	ck_assert_int_eq(settings_save(NULL, &a, err, sizeof err), 0);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0600);
	ck_assert_int_eq(settings_load(NULL, &b, stderr), 0);
	ck_assert_double_eq(b.delay_s, 3.0);
	/* nothing but the file in the directory: no temporary left */
	snprintf(path, sizeof path, "%s/wbtop", dir);
	DIR *d = opendir(path);
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	ck_assert_int_eq(n, 1);
	settings_free(&a);
	settings_free(&b);
	restore_env("XDG_CONFIG_HOME", xdg);
	remove_tree(dir);
	free(dir);
}
END_TEST

START_TEST(test_save_error_names_path)
{
	struct settings s;
	settings_init(&s);
	char err[512] = "";
	ck_assert_int_eq(settings_save("/nonexistent-dir/wbtoprc", &s, err, sizeof err), -ENOENT);
	ck_assert_str_eq(err, "/nonexistent-dir/wbtoprc: No such file or directory");
}
END_TEST

Suite *settings_suite(void)
{
	Suite *s = suite_create("settings");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_defaults);
	tcase_add_test(tc, test_good_file);
	tcase_add_loop_test(tc, test_bad_line, 0, (int)(sizeof bad_lines / sizeof bad_lines[0]));
	tcase_add_test(tc, test_bad_word);
	tcase_add_test(tc, test_nul_byte);
	tcase_add_test(tc, test_last_valid_wins);
	tcase_add_loop_test(tc, test_round_trip, 0,
			    (int)(sizeof round_trip_strings / sizeof round_trip_strings[0]));
	tcase_add_test(tc, test_save_only_given);
	tcase_add_test(tc, test_load_missing_and_unreadable);
	tcase_add_test(tc, test_default_path);
	tcase_add_test(tc, test_save_default_path);
	tcase_add_test(tc, test_save_error_names_path);
	suite_add_tcase(s, tc);
	return s;
}
