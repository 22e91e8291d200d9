/*
 * rec_db.h - SQLite as the recording modules use it: result codes as
 * -errno, the caller's error text, and the one validating read-only open
 * (replay, export, meta).  Nothing else opens a recording for reading.
 */
#ifndef WBTOP_REC_DB_H
#define WBTOP_REC_DB_H

#include <stdbool.h>
#include <stddef.h>

struct sqlite3;

/* -errno for an SQLite result code. */
int rec_db_errno(int rc);
/* snprintf into err when err is not NULL. */
void rec_db_set_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Open path read-only after checking it is a wbtop recording of a schema
 * this build reads.  follow: see other writers' new samples (no immutable
 * open).  *unfinished: the file was not closed by its writer (it is being
 * written, the writer died, or it is a copy taken mid-write), so its last
 * pages may be missing.  0 or -errno with "PATH: reason" in err. */
int rec_db_open_read(const char *path, bool follow, struct sqlite3 **out, bool *unfinished,
		     char *err, size_t errlen);

#endif
