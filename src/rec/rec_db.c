/*
 * rec_db.c - what every reader and writer of a recording does with SQLite:
 * map its result codes to -errno, word an error for the caller, and open a
 * file read-only after checking that it is a recording this build reads
 * (rec_db_open_read, used by replay, export and meta).  Not the schema
 * (rec_schema.c) nor the statements of a replay (rec_reader.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rec/rec.h"
#include "rec/rec_db.h"
#include "rec/rec_schema.h"

int rec_db_errno(int rc)
{
	switch (rc & 0xff) {
	case SQLITE_OK:		return 0;
	case SQLITE_FULL:	return -ENOSPC;
	case SQLITE_NOMEM:	return -ENOMEM;
	case SQLITE_READONLY:	return -EROFS;
	case SQLITE_PERM:
	case SQLITE_AUTH:	return -EACCES;
	case SQLITE_BUSY:
	case SQLITE_LOCKED:	return -EBUSY;
	case SQLITE_CORRUPT:
	case SQLITE_NOTADB:
	case SQLITE_FORMAT:	return -EBADMSG;
	case SQLITE_CANTOPEN:	return -ENOENT;
	case SQLITE_TOOBIG:	return -E2BIG;
	default:		return -EIO;
	}
}

void rec_db_set_err(char *err, size_t errlen, const char *fmt, ...)
{
	if (!err || !errlen)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* ---- Opening for reading ---------------------------------------------- */

static uint32_t rec_db_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Look at the file before SQLite does: a clear word for an empty file, a
 * file that is no database at all, and a closed recording cut short (SQLite
 * itself would only fail later, on the first page past the end).  *wal is
 * set when the header says the file was left in WAL mode. */
static int rec_db_check_file(const char *path, bool *wal, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		rec_db_set_err(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	struct stat st;
	uint8_t h[100];
	ssize_t n = -1;
	bool dir = false;
	if (fstat(fd, &st) == 0 && !(dir = S_ISDIR(st.st_mode)))
		n = pread(fd, h, sizeof h, 0);
	int e = errno;
	close(fd);
	if (dir) {
		rec_db_set_err(err, errlen, "%s: is a directory", path);
		return -EISDIR;
	}
	if (n < 0) {
		rec_db_set_err(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	if (n == 0) {
		rec_db_set_err(err, errlen, "%s: empty file, not a wbtop recording", path);
		return -EINVAL;
	}
	if (n >= 16 && n < (ssize_t)sizeof h && memcmp(h, "SQLite format 3", 16) == 0) {
		rec_db_set_err(err, errlen, "%s: truncated: %zd bytes, not even a header", path, n);
		return -EBADMSG;
	}
	if (n < (ssize_t)sizeof h || memcmp(h, "SQLite format 3", 16) != 0) {
		rec_db_set_err(err, errlen, "%s: not a wbtop recording (not an SQLite database)", path);
		return -EINVAL;
	}
	uint32_t page = (uint32_t)h[16] << 8 | h[17];
	if (page == 1)
		page = 65536;
	*wal = h[18] == 2 || h[19] == 2;
	uint32_t npages = rec_db_be32(h + 28);
	/* The page count is valid when written by the same change as the
	 * counter at offset 92 (SQLite file format, "in-header database size"). */
	if (!*wal && npages && rec_db_be32(h + 24) == rec_db_be32(h + 92) &&
	    (uint64_t)st.st_size < (uint64_t)npages * page) {
		rec_db_set_err(err, errlen, "%s: truncated: %lld bytes, the file says %llu", path,
			       (long long)st.st_size, (unsigned long long)npages * page);
		return -EBADMSG;
	}
	return 0;
}

/* "file:" URI of path, with immutable=1 when nothing can change under us:
 * then SQLite takes no locks and creates no -wal/-shm beside a copy. */
static char *rec_db_uri(const char *path, bool immutable)
{
	size_t n = strlen(path);
	char *u = malloc(3 * n + 40);
	if (!u)
		return NULL;
	char *o = u + sprintf(u, "file:");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("/-_.~", *p))
			*o++ = (char)*p;
		else
			o += sprintf(o, "%%%02X", *p);
	}
	sprintf(o, "?mode=ro%s", immutable ? "&immutable=1" : "");
	return u;
}

static int rec_db_query_text(sqlite3 *db, const char *sql, char *out, size_t outlen, int *rc)
{
	sqlite3_stmt *st = NULL;
	*rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	out[0] = '\0';
	if (*rc == SQLITE_OK) {
		*rc = sqlite3_step(st);
		if (*rc == SQLITE_ROW) {
			const unsigned char *t = sqlite3_column_text(st, 0);
			snprintf(out, outlen, "%s", t ? (const char *)t : "");
			*rc = SQLITE_OK;
		} else if (*rc == SQLITE_DONE) {
			*rc = SQLITE_OK;
		}
	}
	sqlite3_finalize(st);
	return *rc == SQLITE_OK ? 0 : -1;
}

/* Is db a recording this build can read? */
static int rec_db_check_meta(sqlite3 *db, const char *path, char *err, size_t errlen)
{
	char fmt[64], ver[32];
	int rc;
	if (rec_db_query_text(db, "SELECT value FROM meta WHERE key = 'format'", fmt, sizeof fmt, &rc) < 0) {
		if ((rc & 0xff) == SQLITE_ERROR)
			rec_db_set_err(err, errlen, "%s: not a wbtop recording (no meta table)", path);
		else
			rec_db_set_err(err, errlen, "%s: damaged or unreadable (%s)", path, sqlite3_errstr(rc));
		return rc == SQLITE_ERROR ? -EINVAL : rec_db_errno(rc);
	}
	if (strcmp(fmt, REC_FORMAT_NAME) != 0) {
		rec_db_set_err(err, errlen, "%s: not a wbtop recording", path);
		return -EINVAL;
	}
	if (rec_db_query_text(db, "PRAGMA user_version", ver, sizeof ver, &rc) < 0) {
		rec_db_set_err(err, errlen, "%s: damaged or unreadable (%s)", path, sqlite3_errstr(rc));
		return rec_db_errno(rc);
	}
	long v = strtol(ver, NULL, 10);
	if (v > REC_SCHEMA_VERSION) {
		rec_db_set_err(err, errlen, "%s: recorded by a newer wbtop (format version %ld; this "
			       "wbtop reads versions up to %d)", path, v, REC_SCHEMA_VERSION);
		return -EPROTONOSUPPORT;
	}
	if (v < 1) {
		rec_db_set_err(err, errlen, "%s: not a wbtop recording (format version %ld)", path, v);
		return -EINVAL;
	}
	return 0;
}

static int rec_db_try_open(const char *path, bool immutable, sqlite3 **out, char *err,
			   size_t errlen)
{
	char *uri = rec_db_uri(path, immutable);
	if (!uri) {
		rec_db_set_err(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	sqlite3 *db = NULL;
	int rc = sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
	free(uri);
	if (rc != SQLITE_OK) {
		rec_db_set_err(err, errlen, "%s: %s", path, db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
		sqlite3_close(db);
		return rec_db_errno(rc);
	}
	sqlite3_busy_timeout(db, 2000);
	int r = rec_db_check_meta(db, path, err, errlen);
	if (r < 0) {
		sqlite3_close(db);
		return r;
	}
	*out = db;
	return 0;
}

int rec_db_open_read(const char *path, bool follow, sqlite3 **out, bool *unfinished, char *err,
		     size_t errlen)
{
	bool wal = false;
	*out = NULL;
	*unfinished = false;
	int r = rec_db_check_file(path, &wal, err, errlen);
	if (r < 0)
		return r;
	/* A -wal file beside it may hold samples not yet in the main file:
	 * read through SQLite's WAL then.  Without one (a closed recording, or
	 * a main file copied away alone) the file is all there is. */
	char walpath[4096];
	snprintf(walpath, sizeof walpath, "%s-wal", path);
	bool has_wal = wal && access(walpath, F_OK) == 0;
	*unfinished = wal;
	r = rec_db_try_open(path, !follow && !has_wal, out, err, errlen);
	if (r < 0 && r != -EINVAL && r != -EPROTONOSUPPORT && !follow && has_wal)
		r = rec_db_try_open(path, true, out, err, errlen);	/* no access to the -shm */
	return r;
}
