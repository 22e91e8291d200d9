/*
 * rec_meta.c - reading one note of a recording's meta table (the case name,
 * the command a sweep ran): what a comparison labels a run with.
 */
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>

#include "rec/rec.h"
#include "rec/rec_db.h"

int rec_meta_get(const char *path, const char *key, char *buf, size_t len, char *err, size_t errlen)
{
	/* opened per call, read-only and validated as a replay opens it: the few
	 * notes a comparison reads are not worth a connection kept open */
	sqlite3 *db = NULL;
	bool unfinished;
	if (len)
		buf[0] = '\0';
	int r = rec_db_open_read(path, false, &db, &unfinished, err, errlen);
	if (r < 0)
		return r;
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = ?", -1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW) {
			const unsigned char *t = sqlite3_column_text(st, 0);
			snprintf(buf, len, "%s", t ? (const char *)t : "");
			rc = SQLITE_DONE;
		}
	}
	if (rc != SQLITE_OK && rc != SQLITE_DONE) {
		rec_db_set_err(err, errlen, "%s: reading meta %s: %s", path, key, sqlite3_errstr(rc));
		r = rec_db_errno(rc);
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	return r;
}
