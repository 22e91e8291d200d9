/*
 * settings.c - reading, validating and atomically saving the settings file.
 *
 * Each key is a row of settings_keys: its name, kind (how its text is
 * parsed and checked) and where it lives in struct settings.  Loading a file
 * and settings_set() go through the same row, so a value the screen can save
 * is exactly a value the loader accepts, and the other way round.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/atomic_file.h"
#include "core/detect.h"
#include "run/settings.h"

/* The range -d accepts (opts.c). */
#define SETTINGS_DELAY_MIN_S 0.01
#define SETTINGS_DELAY_MAX_S 86400.0

enum settings_kind {
	SK_SECONDS,	/* double, the -d range */
	SK_PERCENT,	/* double, as --dip */
	SK_BOOL,	/* yes/no, true/false, on/off, 1/0 */
	SK_WORD,	/* string: printable, no blanks, not empty */
	SK_REGEX,	/* string: a POSIX extended regex, or empty */
	SK_TEXT		/* string: printable, may be empty */
};

struct settings_key {
	const char *name;
	unsigned bit;
	enum settings_kind kind;
	size_t offset;		/* of a double, bool or char * in struct settings */
	const char *comment;	/* written above the key by settings_save */
};

#define SKEY(n, bit, kind, field, comment) { n, bit, kind, offsetof(struct settings, field), comment }
static const struct settings_key settings_keys[] = {
	SKEY("delay", SETTINGS_DELAY, SK_SECONDS, delay_s, "sampling interval in seconds (-d)"),
	SKEY("sort", SETTINGS_SORT, SK_WORD, sort, "device table sort column"),
	SKEY("filter", SETTINGS_FILTER, SK_REGEX, filter, "device filter, extended regex (--devices); \"\" = all"),
	SKEY("show_idle", SETTINGS_SHOW_IDLE, SK_BOOL, show_idle, "show idle devices (-a): yes or no"),
	SKEY("dip", SETTINGS_DIP, SK_PERCENT, dip_pct, "dip sensitivity in percent (--dip)"),
	SKEY("layout", SETTINGS_LAYOUT, SK_TEXT, layout, "panes shown on the screen"),
};
#define SETTINGS_NKEYS (sizeof settings_keys / sizeof settings_keys[0])

void settings_init(struct settings *s)
{
	memset(s, 0, sizeof *s);
	s->delay_s = 1.0;
	s->dip_pct = DIP_DEFAULT_DROP_PCT;
}

void settings_free(struct settings *s)
{
	if (!s)
		return;
	free(s->sort);
	free(s->filter);
	free(s->layout);
	settings_init(s);
}

char *settings_default_path(void)
{
	const char *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");
	char *path = NULL;
	int n;
	/* XDG base directory spec: a relative value is invalid, ignore it */
	if (xdg && xdg[0] == '/')
		n = asprintf(&path, "%s/wbtop/wbtoprc", xdg);
	else if (home && home[0])
		n = asprintf(&path, "%s/.config/wbtop/wbtoprc", home);
	else {
		errno = ENOENT;
		return NULL;
	}
	if (n < 0) {
		errno = ENOMEM;
		return NULL;
	}
	return path;
}

/* ---- values ---------------------------------------------------------------- */

static const struct settings_key *settings_find(const char *name)
{
	for (size_t i = 0; i < SETTINGS_NKEYS; i++)
		if (strcmp(settings_keys[i].name, name) == 0)
			return &settings_keys[i];
	return NULL;
}

static bool settings_printable(const char *v, bool blanks_ok)
{
	for (const unsigned char *p = (const unsigned char *)v; *p; p++)
		if (*p < 0x20 || *p == 0x7f || (!blanks_ok && *p == ' '))
			return false;
	return true;
}

static int settings_bad(char *err, size_t errlen, const char *key, const char *value, const char *why)
{
	snprintf(err, errlen, "%s '%s': %s", key, value, why);
	return -EINVAL;
}

/* Parse a double the way strtod does, but whole-string and finite. */
static bool settings_double(const char *text, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(text, &end);
	if (end == text || *end || errno || !isfinite(v))
		return false;
	*out = v;
	return true;
}

static int settings_parse_bool(const char *v, bool *out)
{
	static const char *const yes[] = { "yes", "true", "on", "1" };
	static const char *const no[] = { "no", "false", "off", "0" };
	for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) {
		if (strcasecmp(v, yes[i]) == 0) {
			*out = true;
			return 0;
		}
		if (strcasecmp(v, no[i]) == 0) {
			*out = false;
			return 0;
		}
	}
	return -EINVAL;
}

/* Check a string value of kind; NULL if fine, else why not. */
static const char *settings_check_string(enum settings_kind kind, const char *v, char *why, size_t len)
{
	if (kind == SK_WORD && !*v)
		return "must not be empty";
	if (!settings_printable(v, kind != SK_WORD))
		return kind == SK_WORD ? "must be one word of printable characters" :
					 "must be printable characters";
	if (kind == SK_REGEX && *v) {
		regex_t re;
		int rc = regcomp(&re, v, REG_EXTENDED | REG_NOSUB);
		if (rc != 0) {
			regerror(rc, &re, why, len);
			return why;
		}
		regfree(&re);
	}
	return NULL;
}

int settings_set(struct settings *s, const char *key, const char *value, char *err, size_t errlen)
{
	const struct settings_key *k = settings_find(key);
	if (!k) {
		snprintf(err, errlen, "unknown setting '%s'", key);
		return -EINVAL;
	}
	void *field = (char *)s + k->offset;
	double d;
	switch (k->kind) {
	case SK_SECONDS:
		if (!settings_double(value, &d) || d < SETTINGS_DELAY_MIN_S || d > SETTINGS_DELAY_MAX_S)
			return settings_bad(err, errlen, key, value, "not a number of seconds between 0.01 and 86400");
		memcpy(field, &d, sizeof d);
		break;
	case SK_PERCENT: {
		/* the same rule as --dip: one definition of a valid sensitivity */
		struct dip_params p;
		detect_params_default(&p);
		if (detect_params_parse(&p, value) < 0)
			return settings_bad(err, errlen, key, value, "not a percentage between 0 and 100");
		memcpy(field, &p.drop_pct, sizeof p.drop_pct);
		break;
	}
	case SK_BOOL: {
		bool b;
		if (settings_parse_bool(value, &b) < 0)
			return settings_bad(err, errlen, key, value, "expected yes or no");
		memcpy(field, &b, sizeof b);
		break;
	}
	case SK_WORD:
	case SK_REGEX:
	case SK_TEXT: {
		char why[128];
		const char *bad = settings_check_string(k->kind, value, why, sizeof why);
		if (bad)
			return settings_bad(err, errlen, key, value, bad);
		char *copy = strdup(value);
		if (!copy) {
			snprintf(err, errlen, "%s: out of memory", key);
			return -ENOMEM;
		}
		char *old;
		memcpy(&old, field, sizeof old);
		free(old);
		memcpy(field, &copy, sizeof copy);
		break;
	}
	}
	s->have |= k->bit;
	return 0;
}

/* ---- reading ---------------------------------------------------------------- */

static char *settings_trim(char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	char *end = p + strlen(p);
	while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r' || end[-1] == '\n'))
		*--end = '\0';
	return p;
}

/* Undo the quoting of a "..." value in place; false if it is malformed. */
static bool settings_unquote(char *v)
{
	char *out = v;
	const char *p = v + 1;
	for (; *p && *p != '"'; p++) {
		if (*p == '\\') {
			p++;
			if (*p != '\\' && *p != '"')
				return false;
		}
		*out++ = *p;
	}
	if (*p != '"' || p[1] != '\0')
		return false;	/* no closing quote, or text after it */
	*out = '\0';
	return true;
}

/* One line: blank, a comment, or "key = value".  0, or -EINVAL with why. */
static int settings_line(struct settings *s, char *line, char *err, size_t errlen)
{
	char *p = settings_trim(line);
	if (!*p || *p == '#')
		return 0;
	char *eq = strchr(p, '=');
	if (!eq) {
		snprintf(err, errlen, "expected KEY = VALUE, got '%s'", p);
		return -EINVAL;
	}
	*eq = '\0';
	char *key = settings_trim(p);
	char *value = settings_trim(eq + 1);
	if (value[0] == '"' && !settings_unquote(value)) {
		snprintf(err, errlen, "%s: unterminated or malformed quoted value", key);
		return -EINVAL;
	}
	return settings_set(s, key, value, err, errlen);
}

int settings_read(FILE *in, const char *name, struct settings *s, FILE *warn)
{
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	int nbad = 0;
	ssize_t len;
	errno = 0;
	while ((len = getline(&line, &cap, in)) >= 0) {
		lineno++;
		char err[512];
		int rc;
		if (strlen(line) != (size_t)len) {
			snprintf(err, sizeof err, "contains a NUL byte");
			rc = -EINVAL;
		} else {
			rc = settings_line(s, line, err, sizeof err);
		}
		if (rc < 0) {
			nbad++;
			if (warn)
				fprintf(warn, "wbtop: %s:%zu: %s; ignored\n", name, lineno, err);
		}
		errno = 0;
	}
	int e = ferror(in) ? (errno ? errno : EIO) : 0;
	free(line);
	return e ? -e : nbad;
}

int settings_load(const char *path_or_NULL, struct settings *out, FILE *warn)
{
	settings_init(out);
	char *own = NULL;
	const char *path = path_or_NULL;
	if (!path && !(path = own = settings_default_path()))
		return errno == ENOENT ? 1 : -errno;
	int rc;
	FILE *in = fopen(path, "re");
	if (!in) {
		rc = errno == ENOENT ? 1 : -errno;
	} else {
		struct stat st;
		if (fstat(fileno(in), &st) == 0 && S_ISDIR(st.st_mode))
			rc = -EISDIR;	/* fopen opens a directory; reading it fails later */
		else
			rc = settings_read(in, path, out, warn);
		fclose(in);
		if (rc > 0)
			rc = 0;		/* bad lines were warned about */
	}
	if (rc < 0) {
		if (warn)
			fprintf(warn, "wbtop: %s: %s; using the defaults\n", path, strerror(-rc));
		settings_free(out);
	}
	free(own);
	return rc;
}

/* ---- writing ---------------------------------------------------------------- */

/* The shortest %g that reads back as the same double. */
static void settings_put_double(FILE *out, double v)
{
	char buf[32];
	snprintf(buf, sizeof buf, "%.15g", v);
	if (strtod(buf, NULL) != v)
		snprintf(buf, sizeof buf, "%.17g", v);
	fputs(buf, out);
}

static void settings_put_string(FILE *out, const char *v)
{
	fputc('"', out);
	for (; v && *v; v++) {
		if (*v == '"' || *v == '\\')
			fputc('\\', out);
		fputc(*v, out);
	}
	fputc('"', out);
}

static void settings_write_keys(FILE *out, const struct settings *s)
{
	fputs("# wbtop settings, saved from the screen (key W).  Command-line options\n"
	      "# override them.  Lines: KEY = VALUE; see wbtop(1), FILES.\n", out);
	for (size_t i = 0; i < SETTINGS_NKEYS; i++) {
		const struct settings_key *k = &settings_keys[i];
		if (!(s->have & k->bit))
			continue;
		const void *field = (const char *)s + k->offset;
		fprintf(out, "\n# %s\n%s = ", k->comment, k->name);
		double d;
		bool b;
		const char *str;
		switch (k->kind) {
		case SK_SECONDS:
		case SK_PERCENT:
			memcpy(&d, field, sizeof d);
			settings_put_double(out, d);
			break;
		case SK_BOOL:
			memcpy(&b, field, sizeof b);
			fputs(b ? "yes" : "no", out);
			break;
		case SK_WORD:
		case SK_REGEX:
		case SK_TEXT:
			memcpy(&str, field, sizeof str);
			settings_put_string(out, str);
			break;
		}
		fputc('\n', out);
	}
}

/* mkdir -p for the directories above path, new ones 0700 (XDG spec). */
static int settings_make_dirs(const char *path)
{
	char *dir = strdup(path);
	if (!dir)
		return -ENOMEM;
	int rc = 0;
	for (char *p = dir + 1; *p && rc == 0; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0700) < 0 && errno != EEXIST)
			rc = -errno;
		*p = '/';
	}
	free(dir);
	return rc;
}

/* atomic_file_write's writer: the keys of the struct settings at arg. */
static int settings_fill(FILE *out, const void *arg)
{
	settings_write_keys(out, arg);
	return 0;
}

int settings_save(const char *path_or_NULL, const struct settings *s, char *err, size_t errlen)
{
	char *own = NULL;
	const char *path = path_or_NULL;
	if (!path && !(path = own = settings_default_path())) {
		int e = errno;
		snprintf(err, errlen, "settings file: %s",
			 e == ENOENT ? "neither XDG_CONFIG_HOME nor HOME is set" : strerror(e));
		return -e;
	}
	int rc = path_or_NULL ? 0 : settings_make_dirs(path);
	if (rc < 0)
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
	else	/* a mode the user gave the file is kept, a symlink (dotfile
		 * managers link wbtoprc into a repository) is followed */
		rc = atomic_file_write(path, ATOMIC_FILE_KEEP_MODE | ATOMIC_FILE_FOLLOW_LINK, 0666,
				       settings_fill, s, err, errlen);
	free(own);
	return rc;
}
