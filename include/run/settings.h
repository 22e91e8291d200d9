/*
 * settings.h - the settings file: what the screen looked like when the user
 * saved it (top's W key), read again at the next start.  Where it lives,
 * its keys and syntax: doc/fleet.md, "The settings file".
 *
 * Parsing, validation and an atomic save of a plain struct; it applies
 * nothing (the caller copies the keys given, bits in have, into its options
 * before the command line is parsed).  It never exits; it prints only the
 * warnings settings_load() is asked for.
 */
#ifndef WBTOP_SETTINGS_H
#define WBTOP_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Bits of struct settings.have: which keys the file gave (or a caller set). */
enum settings_bit {
	SETTINGS_DELAY = 1u << 0,
	SETTINGS_SORT = 1u << 1,
	SETTINGS_FILTER = 1u << 2,
	SETTINGS_SHOW_IDLE = 1u << 3,
	SETTINGS_DIP = 1u << 4,
	SETTINGS_LAYOUT = 1u << 5
};

/* A field means something only when its bit is in have; the others hold
 * the built-in defaults.  Strings are owned by the struct (settings_free). */
struct settings {
	unsigned have;		/* enum settings_bit */
	double delay_s;		/* "delay": sampling interval, 0.01..86400 s, as -d */
	char *sort;		/* "sort": the screen's sort column name, e.g. "wMB/s" */
	char *filter;		/* "filter": device regex (POSIX extended), "" = all, as --devices */
	bool show_idle;		/* "show_idle": idle devices shown, as -a */
	double dip_pct;		/* "dip": dip sensitivity in percent, as --dip */
	char *layout;		/* "layout": the screen's own words for which panes are shown */
};

/* Defaults, nothing given (have = 0), no allocation. */
void settings_init(struct settings *s);
/* Free the strings and return s to settings_init's state; NULL is a no-op. */
void settings_free(struct settings *s);

/* The settings file's path: $XDG_CONFIG_HOME/wbtop/wbtoprc if that
 * variable is an absolute path, else $HOME/.config/wbtop/wbtoprc.  A new
 * string for free(), or NULL with errno set (ENOENT: neither is set). */
char *settings_default_path(void);

/* Set key (one of the names above) from its text form, exactly as a file
 * line would: validated, copied, its bit added to have.  0, or -EINVAL
 * (unknown key, bad value) / -ENOMEM with a reason in err; on error s is
 * unchanged. */
int settings_set(struct settings *s, const char *key, const char *value, char *err,
		 size_t errlen);

/* Read settings text from in; name is the file name for the warnings
 * ("wbtop: NAME:LINE: reason", one line each, to warn unless NULL).  s
 * must be initialised; keys given override what s holds.  Returns the
 * number of lines warned about, or -errno if reading failed. */
int settings_read(FILE *in, const char *name, struct settings *s, FILE *warn);

/* Load the settings file at path (NULL: settings_default_path()) into out,
 * which need not be initialised; release it with settings_free.  0 when the
 * file was read (bad lines warned about and skipped), 1 when there is no
 * file (out holds the defaults, nothing printed), or -errno when it exists
 * but cannot be read ("wbtop: FILE: reason" to warn; out holds defaults). */
int settings_load(const char *path_or_NULL, struct settings *out, FILE *warn);

/* Write the keys in s->have to path (NULL: settings_default_path(),
 * creating its directories 0700), replacing the file atomically (a
 * temporary file in the same directory, fsync, rename): a crash leaves the
 * old file or the new one.  An existing file keeps its mode.  0, or -errno
 * with "PATH: reason" in err. */
int settings_save(const char *path_or_NULL, const struct settings *s, char *err, size_t errlen);

#endif
