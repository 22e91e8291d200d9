/*
 * rec_read.c - the replay source: a recording opened, checked and read
 * back as snapshots through struct source (next, close), and the helpers
 * the other replay files share (prepared statements, error wording).
 *
 * Opening validates the file (rec_db_open_read), prepares every statement
 * once and finds the last sample: an unfinished file (its writer died, or
 * a copy was taken mid-write) ends at the last sample that decodes, and a
 * followed one grows, next() waiting for new samples until the writer
 * closes it.
 *
 * Not here: decoding the packed frames and reading the processes
 * (rec_decode.c), the marks of each sample (rec_marks.c), navigation and
 * --begin/--end (rec_nav.c), parsing their times (rec_time.c).  The replay's state is in rec_replay_priv.h.
 * It never touches /proc or /sys: identities come from the devices table
 * (ident_table_add).  Nothing here prints.
 */
#include <errno.h>
#include <inttypes.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"
#include "source/ident.h"
#include "core/knob.h"
#include "rec/rec.h"
#include "rec_replay_priv.h"
#include "rec/rec_buf.h"
#include "rec/rec_db.h"
#include "rec/rec_idmap.h"
#include "rec/rec_schema.h"

static const struct source_ops rec_replay_ops;

struct rec_replay *rec_rp(struct source *src)
{
	return src && src->ops == &rec_replay_ops ? src->impl : NULL;
}

bool rec_is_replay(const struct source *src)
{
	return src && src->ops == &rec_replay_ops;
}

int rec_rp_fail(struct rec_replay *rp, int err, const char *fmt, ...)
{
	char why[200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	snprintf(rp->src.errmsg, sizeof rp->src.errmsg, "%s: %s", rp->path, why);
	return err;
}

int rec_rp_sqlfail(struct rec_replay *rp, int rc, int64_t seq)
{
	return rec_rp_fail(rp, rec_db_errno(rc) ? rec_db_errno(rc) : -EIO,
			   "sample %" PRId64 ": damaged or unreadable (%s)", seq, sqlite3_errmsg(rp->db));
}

/* ---- Statements ------------------------------------------------------- */

static char *rec_rp_select_sql(const char *head, const char *const *cols, size_t n, const char *tail)
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

static bool rec_rp_has_table(struct rec_replay *rp, const char *name)
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
static bool rec_rp_has_column(struct rec_replay *rp, const char *probe)
{
	sqlite3_stmt *q = NULL;
	bool has = sqlite3_prepare_v2(rp->db, probe, -1, &q, NULL) == SQLITE_OK;
	sqlite3_finalize(q);
	return has;
}

static int rec_rp_prepare(struct rec_replay *rp)
{
	const char *cols[64];
	size_t n = rec_schema_sample_cols(cols);
	char *sample = rec_rp_select_sql("SELECT ", cols, n, " FROM samples WHERE seq = ?");
	n = rec_schema_device_cols(cols);
	char *dev = rec_rp_select_sql("SELECT ", cols, n, " FROM devices WHERE id = ?");
	/* Files written before processes (or the values beside the fixed
	 * blocks) were recorded lack that table: their samples replay without. */
	bool has_procs = rec_rp_has_table(rp, "procs"), has_extras = rec_rp_has_table(rp, "extras");
	bool has_cgroups = rec_rp_has_table(rp, "cgroups");
	/* the marks' causes came later still: a file without them replays its marks without */
	rp->has_causes = rec_rp_has_column(rp, "SELECT cause FROM dips LIMIT 0");
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
int rec_rp_int(struct rec_replay *rp, int stmt, const int64_t *arg, int64_t *v)
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

void rec_rp_copy_text(char *dst, size_t len, sqlite3_stmt *st, int col)
{
	const unsigned char *t = sqlite3_column_text(st, col);
	snprintf(dst, len, "%s", t ? (const char *)t : "");
}

/* ---- The source ------------------------------------------------------- */

static int64_t rec_rp_max_seq(struct rec_replay *rp)
{
	int64_t v = -1;
	return rec_rp_int(rp, RS_MAX, NULL, &v) == 0 ? v : -1;
}

/* Whether sample seq and its frame can be read (not: decoded). */
static bool rec_rp_readable(struct rec_replay *rp, int64_t seq)
{
	sqlite3_stmt *st = rp->st[RS_WHERE];
	sqlite3_bind_int64(st, 1, seq);
	bool row = sqlite3_step(st) == SQLITE_ROW;
	int64_t offset = row ? sqlite3_column_int64(st, 0) : -1;
	int64_t nbytes = row ? sqlite3_column_int64(st, 1) : 0;
	sqlite3_reset(st);
	int sqlrc;
	return row && rec_rp_read_stream(rp, offset, nbytes, &sqlrc) == 0;
}

/* The last sample of a file whose last pages are missing or stale (a copy
 * taken while a checkpoint was writing them): samples are appended in seq
 * order, so what is readable is a prefix.  -1 if nothing is. */
static int64_t rec_rp_probe_last(struct rec_replay *rp)
{
	int64_t lo = rp->first_seq, step = 1;
	if (!rec_rp_readable(rp, lo))
		return -1;
	while (step < INT64_MAX / 4 && rec_rp_readable(rp, lo + step)) {
		lo += step;
		step *= 2;
	}
	int64_t hi = lo + step;
	while (hi - lo > 1) {
		int64_t mid = lo + (hi - lo) / 2;
		if (rec_rp_readable(rp, mid))
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* The last sample at open: max(seq), or for an unfinished file whose
 * tail cannot be read, the end of what can. */
static int rec_rp_find_last(struct rec_replay *rp)
{
	if (rp->follow) {
		rp->last = INT64_MAX;
		return 0;
	}
	int64_t m = -1;
	int r = rec_rp_int(rp, RS_MAX, NULL, &m);
	if (r < 0 && rp->tolerant && (m = rec_rp_probe_last(rp)) >= 0)
		r = 0;
	if (r < 0)
		return rec_rp_fail(rp, r, "damaged or unreadable (%s)", sqlite3_errmsg(rp->db));
	if (rp->tolerant && m >= 0) {
		/* The newest samples may have come along without all of their
		 * pages: end at the last one that decodes. */
		struct snapshot s;
		snapshot_init(&s);
		for (int tries = 0; m >= rp->first_seq && tries < 64; tries++, m--)
			if (rec_rp_advance(rp, m, &s) == 0)
				break;
		snapshot_free(&s);
		rp->src.errmsg[0] = '\0';
		rp->state_seq = -1;
	}
	rp->last = m;
	return 0;
}

/* The last seq of the replay as of now. */
int64_t rec_rp_last(struct rec_replay *rp)
{
	if (!rp->follow)
		return rp->last;
	int64_t m = rec_rp_max_seq(rp);
	return m < rp->last ? m : rp->last;
}

static bool rec_rp_writer_closed(struct rec_replay *rp)
{
	sqlite3_stmt *st = rp->st[RS_STATE];
	const unsigned char *v = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_text(st, 0) : NULL;
	bool closed = v && strcmp((const char *)v, "closed") == 0;
	sqlite3_reset(st);
	return closed;
}

static int rec_rp_next(struct source *src, struct snapshot *out)
{
	struct rec_replay *rp = src->impl;
	if (rp->pos > rp->last)
		return 1;
	int r = rec_rp_advance(rp, rp->pos, out);
	if (r == 1 && rp->follow) {
		/* Not there yet: the end once the writer has closed the file
		 * (look again: it may have added the sample just before). */
		if (!rec_rp_writer_closed(rp)) {
			snprintf(src->errmsg, sizeof src->errmsg, "%s: waiting for new samples", rp->path);
			return -EAGAIN;
		}
		r = rec_rp_advance(rp, rp->pos, out);
	}
	if (r != 0)
		return r;
	if (out->wall_ns > rp->end_ns)
		return 1;
	if (rp->pos > rp->marks_upto && (r = rec_rp_load_marks(rp)) < 0)
		return r;
	rec_rp_knobs_at(rp, rp->pos, out->knob);
	rp->delivered = rp->pos++;
	return 0;
}

static void rec_rp_close(struct source *src)
{
	struct rec_replay *rp = src->impl;
	for (int i = 0; i < RS_COUNT; i++)
		sqlite3_finalize(rp->st[i]);
	sqlite3_close_v2(rp->db);
	ident_table_free(rp->idents);
	for (int k = 0; k < REC_CACHE_SLOTS; k++)
		free(rp->cache[k].act);
	free(rp->rows);
	rec_idmap_free(&rp->row_of_id);
	free(rp->act);
	free(rp->tmp);
	free(rp->dev_ids);
	free(rp->dev_dips);
	free(rp->dev_causes);
	rec_buf_free(&rp->blob);
	free(rp->knobs);
	free(rp->dips);
	free(rp->events);
	free(rp->event_seq);
	free(rp->path);
	free(rp);
}

static const struct source_ops rec_replay_ops = {
	.kind = "replay",
	.next = rec_rp_next,
	.close = rec_rp_close,
	.marks = rec_replay_marks,
};

/* The pid of the wbtop that wrote the file (older recordings do not say). */
static void rec_rp_self_pid(struct rec_replay *rp)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(rp->db, "SELECT value FROM meta WHERE key = 'wbtop_pid'", -1, &st,
			       NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		rp->wbtop_pid = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
}

struct source *rec_replay_open(const char *path, bool follow, char *err, size_t errlen)
{
	struct rec_replay *rp = calloc(1, sizeof *rp);
	if (!rp || !(rp->path = strdup(path)) || !(rp->idents = ident_table_new())) {
		if (rp)
			free(rp->path);
		free(rp);
		rec_db_set_err(err, errlen, "%s: out of memory", path);
		return NULL;
	}
	rp->src.ops = &rec_replay_ops;
	rp->src.impl = rp;
	rp->follow = follow;
	rp->state_seq = rp->delivered = -1;
	rp->end_ns = INT64_MAX;
	rp->knob_seq = INT64_MAX;	/* forces a fold from the start */
	for (int k = 0; k < REC_CACHE_SLOTS; k++)
		rp->cache[k].seq = -1;
	bool unfinished;
	int r = rec_db_open_read(path, follow, &rp->db, &unfinished, err, errlen);
	rp->tolerant = unfinished && !follow;
	if (r == 0 && rec_rp_prepare(rp) != SQLITE_OK) {
		rec_db_set_err(err, errlen, "%s: damaged or unreadable (%s)", path, sqlite3_errmsg(rp->db));
		r = -EBADMSG;
	}
	if (r == 0) {
		if (rec_rp_int(rp, RS_MIN, NULL, &rp->first_seq) != 0)
			rp->first_seq = 0;
		rp->base = rp->pos = rp->first_seq;
		rec_rp_self_pid(rp);
		if ((r = rec_rp_find_last(rp)) < 0 || (r = rec_rp_load_marks(rp)) < 0)
			rec_db_set_err(err, errlen, "%s", rp->src.errmsg);
	}
	if (r < 0) {
		rec_rp_close(&rp->src);
		return NULL;
	}
	return &rp->src;
}

int rec_replay_shared_keys(struct source *src, char *buf, size_t len)
{
	struct rec_replay *rp = rec_rp(src);
	if (len)
		buf[0] = '\0';
	if (!rp)
		return -EINVAL;
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(rp->db, "SELECT key, group_concat(name, ' and ') FROM"
				    " (SELECT DISTINCT key, name, major, minor FROM devices WHERE key IS NOT NULL"
				    " ORDER BY key, name) GROUP BY key"
				    " HAVING count(DISTINCT major * 4294967296 + minor) > 1 ORDER BY key",
				    -1, &st, NULL);
	if (rc != SQLITE_OK)
		return -EIO;
	size_t nkeys = 0, used = 0;
	char list[512] = "";
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *key = (const char *)sqlite3_column_text(st, 0);
		const char *names = (const char *)sqlite3_column_text(st, 1);
		if (used < sizeof list && nkeys < 3) {
			int n = snprintf(list + used, sizeof list - used, "%s%s by %s", nkeys ? "; " : "",
					 key ? key : "", names ? names : "");
			used += n > 0 ? (size_t)n : 0;
		}
		nkeys++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return -EIO;
	if (!nkeys)
		return 0;
	snprintf(buf, len, "%zu identity key%s shared by devices of this recording (%s%s): each is "
		 "listed on its own, by its name (a stack's devices recorded before wbtop kept them "
		 "apart, or cloned filesystems)", nkeys, nkeys == 1 ? "" : "s", list,
		 nkeys > 3 ? "; ..." : "");
	return 1;
}

const int64_t *rec_replay_dev_ids(struct source *src)
{
	struct rec_replay *rp = rec_rp(src);
	return rp && rp->delivered >= 0 ? rp->dev_ids : NULL;
}
