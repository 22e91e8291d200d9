/*
 * rec_reader.c - what every file of the replay needs of its state (struct
 * rec_replay, rec_reader_priv.h): the prepared statements, one integer
 * or text from them, the newest sample, and the error wording "PATH:
 * reason".  Below decoding (rec_decode.c), the marks (rec_marks.c) and
 * the source (rec_replay.c); it calls none of them.  Nothing here prints.
 */
#include <errno.h>
#include <inttypes.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "rec/rec_db.h"
#include "rec/rec_schema.h"
#include "rec_reader_priv.h"

int rec_reader_fail(struct rec_replay *rp, int err, const char *fmt, ...)
{
	char why[200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	snprintf(rp->src.errmsg, sizeof rp->src.errmsg, "%s: %s", rp->path, why);
	return err;
}

int rec_reader_sqlfail(struct rec_replay *rp, int rc, int64_t seq)
{
	return rec_reader_fail(rp, rec_db_errno(rc) ? rec_db_errno(rc) : -EIO,
			       "sample %" PRId64 ": damaged or unreadable (%s)", seq, sqlite3_errmsg(rp->db));
}

/* ---- Statements ------------------------------------------------------- */

static char *rec_reader_select_sql(const char *head, const char *const *cols, size_t n,
				   const char *tail)
{
	char *sql = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&sql, &len);
	if (!f)
		return NULL;
	fputs(head, f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? ", " : "", cols[i]);
	fputs(tail, f);
	if (fclose(f) != 0) {
		free(sql);
		return NULL;
	}
	return sql;
}

static bool rec_reader_has_table(struct rec_replay *rp, const char *name)
{
	int64_t n = 0;
	sqlite3_stmt *q = NULL;
	if (sqlite3_prepare_v2(rp->db, "SELECT count(*) FROM sqlite_master WHERE type = 'table'"
			       " AND name = ?", -1, &q, NULL) == SQLITE_OK &&
	    sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC) == SQLITE_OK && sqlite3_step(q) == SQLITE_ROW)
		n = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	return n > 0;
}

/* Whether a query naming a column compiles: the column is there. */
static bool rec_reader_has_column(struct rec_replay *rp, const char *probe)
{
	sqlite3_stmt *q = NULL;
	bool has = sqlite3_prepare_v2(rp->db, probe, -1, &q, NULL) == SQLITE_OK;
	sqlite3_finalize(q);
	return has;
}

int rec_reader_prepare(struct rec_replay *rp)
{
	const char *cols[64];
	size_t n = rec_schema_sample_cols(cols);
	char *sample = rec_reader_select_sql("SELECT ", cols, n, " FROM samples WHERE seq = ?");
	n = rec_schema_device_cols(cols);
	char *dev = rec_reader_select_sql("SELECT ", cols, n, " FROM devices WHERE id = ?");
	/* Files written before processes (or the values beside the fixed
	 * blocks) were recorded lack that table: their samples replay without. */
	bool has_procs = rec_reader_has_table(rp, "procs"), has_extras = rec_reader_has_table(rp, "extras");
	bool has_cgroups = rec_reader_has_table(rp, "cgroups");
	/* the marks' causes came later still: a file without them replays its marks without */
	rp->has_causes = rec_reader_has_column(rp, "SELECT cause FROM dips LIMIT 0");
	const char *sql[RS_COUNT] = {
		[RS_SAMPLE] = sample,
		[RS_FRAMES] = "SELECT id, data FROM frames WHERE id BETWEEN ? AND ? ORDER BY id",
		[RS_WHERE] = "SELECT frame_offset, nbytes FROM samples WHERE seq = ?",
		[RS_DEV] = dev,
		[RS_KEY] = "SELECT seq FROM samples WHERE seq <= ? AND keyframe = 1 ORDER BY seq DESC LIMIT 1",
		[RS_MAX] = "SELECT max(seq) FROM samples",
		[RS_MIN] = "SELECT min(seq) FROM samples",
		[RS_WALL] = "SELECT wall_ns FROM samples WHERE seq = ?",
		[RS_STATE] = "SELECT value FROM meta WHERE key = 'state'",
		[RS_KNOBS] = "SELECT rowid, seq, knob, value FROM knobs WHERE rowid > ? ORDER BY rowid",
		[RS_DIPS] = rp->has_causes ? "SELECT rowid, seq, device_id, cause FROM dips"
					     " WHERE rowid > ? ORDER BY rowid"
					   : "SELECT rowid, seq, device_id, NULL FROM dips"
					     " WHERE rowid > ? ORDER BY rowid",
		[RS_EVENTS] = "SELECT id, seq, wall_ns, knob, old_value, new_value, read_back, result,"
			      " note FROM events WHERE id > ? ORDER BY id",
		[RS_PROCS] = has_procs ? "SELECT pid, comm, state, kthread, io_hidden, read_bytes,"
			     " write_bytes, cancelled_write_bytes, utime_jif, stime_jif, wchan,"
			     " flush_major, flush_minor FROM procs WHERE seq = ? ORDER BY pid" : NULL,
		[RS_EXTRAS] = has_extras ? "SELECT obj, kind, value FROM extras WHERE seq = ?" : NULL,
		[RS_CGROUPS] = has_cgroups ? "SELECT ino, path, gone FROM cgroups WHERE seq = ?" : NULL,
	};
	int rc = sample && dev ? SQLITE_OK : SQLITE_NOMEM;
	for (int i = 0; i < RS_COUNT && rc == SQLITE_OK; i++)
		if (sql[i])
			rc = sqlite3_prepare_v3(rp->db, sql[i], -1, SQLITE_PREPARE_PERSISTENT, &rp->st[i], NULL);
	free(sample);
	free(dev);
	return rc;
}

/* One integer from a statement with one optional int64 parameter: 0 with
 * *v set, 1 when there is no row or the value is NULL, or -errno. */
int rec_reader_int(struct rec_replay *rp, int stmt, const int64_t *arg, int64_t *v)
{
	sqlite3_stmt *st = rp->st[stmt];
	if (arg)
		sqlite3_bind_int64(st, 1, *arg);
	int rc = sqlite3_step(st), r = 1;
	if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
		*v = sqlite3_column_int64(st, 0);
		r = 0;
	} else if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		r = rec_db_errno(rc);
	}
	sqlite3_reset(st);
	return r;
}

/* ---- Helpers ---------------------------------------------------------- */

void rec_reader_text(char *dst, size_t len, sqlite3_stmt *st, int col)
{
	const unsigned char *t = sqlite3_column_text(st, col);
	snprintf(dst, len, "%s", t ? (const char *)t : "");
}

static int64_t rec_reader_max_seq(struct rec_replay *rp)
{
	int64_t v = -1;
	return rec_reader_int(rp, RS_MAX, NULL, &v) == 0 ? v : -1;
}

/* The last seq of the replay as of now. */
int64_t rec_reader_last(struct rec_replay *rp)
{
	if (!rp->follow)
		return rp->last;
	int64_t m = rec_reader_max_seq(rp);
	return m < rp->last ? m : rp->last;
}
