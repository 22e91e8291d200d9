/*
 * rec_replay.c - the replay source: a recording opened and checked, read
 * back as snapshots through struct source (next, close), and moved in
 * (count, seek, find a time, next mark, --begin/--end).  An unfinished
 * file ends at the last sample that decodes; a followed one grows.
 * Decoding is rec_decode.c, the marks rec_marks.c, the state and its
 * statements rec_reader.c.  Identities come from the devices table, never
 * /sys.  Nothing here prints.
 */
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ident.h"
#include "rec/rec.h"
#include "rec_decode_priv.h"
#include "rec_marks_priv.h"
#include "rec_reader_priv.h"
#include "rec/rec_buf.h"
#include "rec/rec_db.h"
#include "rec/rec_idmap.h"

static const struct source_ops rec_replay_ops;

static struct rec_replay *rec_replay_of(struct source *src)
{
	return src && src->ops == &rec_replay_ops ? src->impl : NULL;
}

bool rec_replay_is(const struct source *src)
{
	return src && src->ops == &rec_replay_ops;
}

/* ---- The source ------------------------------------------------------- */

/* Whether sample seq and its frame can be read (not: decoded). */
static bool rec_replay_readable(struct rec_replay *rp, int64_t seq)
{
	sqlite3_stmt *st = rp->st[RS_WHERE];
	sqlite3_bind_int64(st, 1, seq);
	bool row = sqlite3_step(st) == SQLITE_ROW;
	int64_t offset = row ? sqlite3_column_int64(st, 0) : -1;
	int64_t nbytes = row ? sqlite3_column_int64(st, 1) : 0;
	sqlite3_reset(st);
	int sqlrc;
	return row && rec_decode_read_stream(rp, offset, nbytes, &sqlrc) == 0;
}

/* The last sample of a file whose last pages are missing or stale (a copy
 * taken while a checkpoint was writing them): samples are appended in seq
 * order, so what is readable is a prefix.  -1 if nothing is. */
static int64_t rec_replay_probe_last(struct rec_replay *rp)
{
	int64_t lo = rp->first_seq, step = 1;
	if (!rec_replay_readable(rp, lo))
		return -1;
	while (step < INT64_MAX / 4 && rec_replay_readable(rp, lo + step)) {
		lo += step;
		step *= 2;
	}
	int64_t hi = lo + step;
	while (hi - lo > 1) {
		int64_t mid = lo + (hi - lo) / 2;
		if (rec_replay_readable(rp, mid))
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* The last sample at open: max(seq), or for an unfinished file whose
 * tail cannot be read, the end of what can. */
static int rec_replay_find_last(struct rec_replay *rp)
{
	if (rp->follow) {
		rp->last = INT64_MAX;
		return 0;
	}
	int64_t m = -1;
	int r = rec_reader_int(rp, RS_MAX, NULL, &m);
	if (r < 0 && rp->tolerant && (m = rec_replay_probe_last(rp)) >= 0)
		r = 0;
	if (r < 0)
		return rec_reader_fail(rp, r, "damaged or unreadable (%s)", sqlite3_errmsg(rp->db));
	if (rp->tolerant && m >= 0) {
		/* The newest samples may have come along without all of their
		 * pages: end at the last one that decodes. */
		struct snapshot s;
		snapshot_init(&s);
		for (int tries = 0; m >= rp->first_seq && tries < 64; tries++, m--)
			if (rec_decode_sample(rp, m, &s) == 0)
				break;
		snapshot_free(&s);
		rp->src.errmsg[0] = '\0';
		rp->state_seq = -1;
	}
	rp->last = m;
	return 0;
}

static bool rec_replay_writer_closed(struct rec_replay *rp)
{
	sqlite3_stmt *st = rp->st[RS_STATE];
	const unsigned char *v = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_text(st, 0) : NULL;
	bool closed = v && strcmp((const char *)v, "closed") == 0;
	sqlite3_reset(st);
	return closed;
}

static int rec_replay_next(struct source *src, struct snapshot *out)
{
	struct rec_replay *rp = src->impl;
	if (rp->pos > rp->last)
		return 1;
	int r = rec_decode_sample(rp, rp->pos, out);
	if (r == 1 && rp->follow) {
		/* Not there yet: the end once the writer has closed the file
		 * (look again: it may have added the sample just before). */
		if (!rec_replay_writer_closed(rp)) {
			snprintf(src->errmsg, sizeof src->errmsg, "%s: waiting for new samples", rp->path);
			return -EAGAIN;
		}
		r = rec_decode_sample(rp, rp->pos, out);
	}
	if (r != 0)
		return r;
	if (out->wall_ns > rp->end_ns)
		return 1;
	if (rp->pos > rp->marks_upto && (r = rec_marks_load(rp)) < 0)
		return r;
	rec_marks_knobs_at(rp, rp->pos, out->knob);
	out->lead = rp->pos < rp->base;
	rp->delivered = rp->pos++;
	return 0;
}

static void rec_replay_close(struct source *src)
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
	.next = rec_replay_next,
	.close = rec_replay_close,
	.marks = rec_replay_marks,
};

/* The pid of the wbtop that wrote the file (older recordings do not say). */
static void rec_replay_self_pid(struct rec_replay *rp)
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
	if (r == 0 && rec_reader_prepare(rp) != SQLITE_OK) {
		rec_db_set_err(err, errlen, "%s: damaged or unreadable (%s)", path, sqlite3_errmsg(rp->db));
		r = -EBADMSG;
	}
	if (r == 0) {
		if (rec_reader_int(rp, RS_MIN, NULL, &rp->first_seq) != 0)
			rp->first_seq = 0;
		rp->base = rp->pos = rp->first_seq;
		rec_replay_self_pid(rp);
		if ((r = rec_replay_find_last(rp)) < 0 || (r = rec_marks_load(rp)) < 0)
			rec_db_set_err(err, errlen, "%s", rp->src.errmsg);
	}
	if (r < 0) {
		rec_replay_close(&rp->src);
		return NULL;
	}
	return &rp->src;
}

int rec_replay_shared_keys(struct source *src, char *buf, size_t len)
{
	struct rec_replay *rp = rec_replay_of(src);
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

int rec_replay_marks(struct source *src, struct source_marks *out)
{
	struct rec_replay *rp = rec_replay_of(src);
	return rp ? rec_marks_of(rp, out) : -EINVAL;
}

const int64_t *rec_replay_dev_ids(struct source *src)
{
	struct rec_replay *rp = rec_replay_of(src);
	return rp && rp->delivered >= 0 ? rp->dev_ids : NULL;
}

/* ---- Navigation ------------------------------------------------------- */

int64_t rec_replay_count(struct source *src)
{
	struct rec_replay *rp = rec_replay_of(src);
	if (!rp)
		return -EINVAL;
	int64_t last = rec_reader_last(rp);
	return last >= rp->base ? last - rp->base + 1 : 0;
}

int64_t rec_replay_tell(struct source *src)
{
	struct rec_replay *rp = rec_replay_of(src);
	if (!rp)
		return -EINVAL;
	return rp->pos > rp->base ? rp->pos - rp->base : 0;	/* the lead (--begin) is before 0 */
}

int rec_replay_seek(struct source *src, int64_t index)
{
	struct rec_replay *rp = rec_replay_of(src);
	if (!rp)
		return -EINVAL;
	if (index < 0 || index > rec_replay_count(src))
		return -ERANGE;
	rp->pos = rp->base + index;
	return 0;
}

int64_t rec_replay_wall_ns(struct source *src, int64_t index)
{
	struct rec_replay *rp = rec_replay_of(src);
	if (!rp)
		return -EINVAL;
	int64_t seq = rp->base + index, w;
	int r = rec_reader_int(rp, RS_WALL, &seq, &w);
	return r == 0 ? w : r == 1 ? -ERANGE : r;
}

/* First seq in [lo, hi] with wall_ns >= t (hi + 1 if none); wall time is
 * taken to run forward, as it does but for clock steps. */
static int64_t rec_replay_seq_at(struct rec_replay *rp, int64_t lo, int64_t hi, int64_t t)
{
	hi++;
	while (lo < hi) {
		int64_t mid = lo + (hi - lo) / 2, w;
		int r = rec_reader_int(rp, RS_WALL, &mid, &w);
		if (r < 0)
			return r;
		if (r == 0 && w < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int64_t rec_replay_find_time(struct source *src, int64_t wall_ns)
{
	struct rec_replay *rp = rec_replay_of(src);
	if (!rp)
		return -EINVAL;
	int64_t s = rec_replay_seq_at(rp, rp->base, rec_reader_last(rp), wall_ns);
	return s < 0 ? s : s - rp->base;
}

int64_t rec_replay_next_mark(struct source *src, int64_t from, int dir, unsigned kinds)
{
	struct rec_replay *rp = rec_replay_of(src);
	if (!rp || !dir)
		return -EINVAL;
	int64_t last = rec_reader_last(rp);
	if (rp->follow && last > rp->marks_upto) {
		int r = rec_marks_load(rp);
		if (r < 0)
			return r;
	}
	int64_t best = rec_marks_nearest(rp, rp->base + from, dir, kinds);
	if (best < rp->base || best > last)
		return -ENOENT;
	return best - rp->base;
}

/* ---- Limits ----------------------------------------------------------- */

int rec_replay_limit(struct source *src, const char *begin, const char *end, char *err,
		     size_t errlen)
{
	struct rec_replay *rp = rec_replay_of(src);
	if (!rp)
		return -EINVAL;
	int64_t last = rec_reader_last(rp), start_ns, b_ns = INT64_MIN, e_ns = INT64_MAX;
	if (last < rp->base || rec_reader_int(rp, RS_WALL, &rp->base, &start_ns) != 0) {
		rec_db_set_err(err, errlen, "%s: no samples to limit with --begin/--end", rp->path);
		return -ERANGE;
	}
	const char *bad = begin && rec_time_parse(begin, start_ns, &b_ns) < 0 ? begin :
			  end && rec_time_parse(end, start_ns, &e_ns) < 0 ? end : NULL;
	if (bad) {
		rec_db_set_err(err, errlen, "%s '%s': not a time (use HH:MM:SS, 'YYYY-MM-DD HH:MM:SS' or "
			       "seconds since the epoch)", bad == begin ? "--begin" : "--end", bad);
		return -EINVAL;
	}
	/* An end given to the second covers that whole second. */
	if (end && !strchr(end, '.') && e_ns <= INT64_MAX - 999999999)
		e_ns += 999999999;
	int64_t from = begin ? rec_replay_seq_at(rp, rp->base, last, b_ns) : rp->base;
	int64_t to = end && e_ns < INT64_MAX ? rec_replay_seq_at(rp, rp->base, last, e_ns + 1) - 1 : last;
	if (from < 0 || to < -1) {
		rec_db_set_err(err, errlen, "%s", rp->src.errmsg);
		return (int)(from < 0 ? from : to);
	}
	if (from > to) {
		rec_db_set_err(err, errlen, "%s: no samples between %s and %s", rp->path,
			       begin ? begin : "the start", end ? end : "the end");
		return -ERANGE;
	}
	/* From the file's first sample: what comes before the part is its lead (snapshot.h) */
	rp->base = from;
	rp->pos = rp->first_seq < from ? rp->first_seq : from;
	if (!rp->follow || to < last)
		rp->last = to;
	rp->end_ns = e_ns;
	return 0;
}
