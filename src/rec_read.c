/*
 * rec_read.c - the replay source: a recording read back as snapshots, with
 * the navigation the screen needs (step, seek, find a time, jump to the
 * next dip or knob change) and the marks of each sample.
 *
 * Decoding a sample needs the state of the one before it (deltas), so the
 * source keeps the decoded device list of the last sample it read; a seek
 * lands on the keyframe at or before the target and decodes forward (at
 * most about REC_KEYFRAME_RATIO keyframes' worth of bytes).  Every sample's
 * checksum is verified: a damaged file gives an error naming the sample,
 * never wrong figures.
 * Knob values, dips and events are small and read into memory once (and
 * again as a followed recording grows).
 *
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
#include <time.h>

#include "ident.h"
#include "knob.h"
#include "rec.h"
#include "rec_schema.h"

/* A devices row, read when a frame first names it. */
struct rec_row {
	uint32_t major, minor;
	char name[sizeof ((struct dev_counters *)0)->name];
	uint8_t nfields;
	const struct dev_ident *ident;	/* NULL if recorded without one */
};

struct rec_rdev {
	int64_t id;
	size_t row;			/* in rows[] */
	struct rec_codec_dev st;
};

/* A decoded device list kept for seeking back. */
struct rec_state {
	int64_t seq;			/* -1: empty */
	struct rec_rdev *act;
	size_t nact, cap;
};
#define REC_CACHE_SLOTS 16
#define REC_CACHE_STEP 32

struct rec_knobrow { int64_t seq; int knob; int64_t value; };
struct rec_diprow { int64_t seq; int64_t dev; };	/* dev 0: system-wide */

enum rec_rstmt {
	RS_SAMPLE, RS_FRAMES, RS_WHERE, RS_DEV, RS_KEY, RS_MAX, RS_MIN, RS_WALL, RS_STATE,
	RS_KNOBS, RS_DIPS, RS_EVENTS, RS_COUNT
};

struct rec_replay {
	struct source src;
	sqlite3 *db;
	char *path;
	bool follow;
	bool tolerant;			/* unfinished file: its tail may be cut */
	sqlite3_stmt *st[RS_COUNT];
	struct ident_table *idents;
	struct rec_row *rows;		/* devices rows read so far */
	size_t nrows, cap_rows;
	struct rec_idmap row_of_id;
	struct rec_rdev *act, *tmp;	/* decoded device list of state_seq */
	size_t nact, cap;
	int64_t *dev_ids;		/* ids of the delivered snapshot's devices */
	bool *dev_dips;
	size_t ndelivered;
	int64_t state_seq;		/* seq decoded into act[]; -1 none */
	int64_t pos;			/* seq next() delivers */
	int64_t base, last;		/* the samples of the replay; last may grow */
	int64_t first_seq;		/* first sample of the file (knob rows there are not changes) */
	int64_t end_ns;			/* --end when following; INT64_MAX none */
	int64_t delivered;		/* seq delivered last; -1 none */
	struct rec_buf blob;
	/* marks, sorted by seq */
	struct rec_knobrow *knobs;
	size_t nknobs, cap_knobs;
	struct rec_diprow *dips;
	size_t ndips, cap_dips;
	struct wb_event *events;
	int64_t *event_seq;
	size_t nevents, cap_events;
	int64_t rowid[3];		/* last loaded rowid of knobs, dips, events */
	int64_t marks_upto;		/* marks are complete up to this seq */
	int64_t knob_cur[SNAP_NKNOBS];	/* knob values at knob_seq */
	int64_t knob_seq;
	size_t knob_next;		/* first knob row past knob_seq */
	struct rec_state cache[REC_CACHE_SLOTS];
	int cache_next;			/* slot to fill next */
};

static const struct source_ops rec_replay_ops;

static struct rec_replay *rec_rp(struct source *src)
{
	return src && src->ops == &rec_replay_ops ? src->impl : NULL;
}

bool rec_is_replay(const struct source *src)
{
	return src && src->ops == &rec_replay_ops;
}

static int rec_rp_fail(struct rec_replay *rp, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int rec_rp_fail(struct rec_replay *rp, int err, const char *fmt, ...)
{
	char why[200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	snprintf(rp->src.errmsg, sizeof rp->src.errmsg, "%s: %s", rp->path, why);
	return err;
}

static int rec_rp_sqlfail(struct rec_replay *rp, int rc, int64_t seq)
{
	return rec_rp_fail(rp, rec_sqlite_errno(rc) ? rec_sqlite_errno(rc) : -EIO,
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

static int rec_rp_prepare(struct rec_replay *rp)
{
	const char *cols[64];
	size_t n = 0;
	cols[n++] = "wall_ns";
	cols[n++] = "mono_ns";
	cols[n++] = "page_size";
	for (size_t c = 0; c < rec_nsys_cols; c++)
		cols[n++] = rec_sys_cols[c].name;
	cols[n++] = "keyframe";
	cols[n++] = "ndev";
	cols[n++] = "frame_offset";
	cols[n++] = "nbytes";
	cols[n++] = "crc";
	char *sample = rec_rp_select_sql("SELECT ", cols, n, " FROM samples WHERE seq = ?");
	n = 0;
	cols[n++] = "name";
	cols[n++] = "major";
	cols[n++] = "minor";
	cols[n++] = "nfields";
	cols[n++] = "has_ident";
	for (size_t c = 0; c < rec_nident_cols; c++)
		cols[n++] = rec_ident_cols[c].name;
	cols[n++] = "rotational";
	cols[n++] = "partition";
	cols[n++] = "has_bdi";
	for (size_t k = 0; k < KNOB_BDI_COUNT; k++)
		cols[n++] = rec_bdi_cols[k];
	char *dev = rec_rp_select_sql("SELECT ", cols, n, " FROM devices WHERE id = ?");
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
		[RS_DIPS] = "SELECT rowid, seq, device_id FROM dips WHERE rowid > ? ORDER BY rowid",
		[RS_EVENTS] = "SELECT id, seq, wall_ns, knob, old_value, new_value, read_back, result,"
			      " note FROM events WHERE id > ? ORDER BY id",
	};
	int rc = sample && dev ? SQLITE_OK : SQLITE_NOMEM;
	for (int i = 0; i < RS_COUNT && rc == SQLITE_OK; i++)
		rc = sqlite3_prepare_v3(rp->db, sql[i], -1, SQLITE_PREPARE_PERSISTENT, &rp->st[i], NULL);
	free(sample);
	free(dev);
	return rc;
}

/* One integer from a statement with one optional int64 parameter: 0 with
 * *v set, 1 when there is no row or the value is NULL, or -errno. */
static int rec_rp_int(struct rec_replay *rp, int stmt, const int64_t *arg, int64_t *v)
{
	sqlite3_stmt *st = rp->st[stmt];
	if (arg)
		sqlite3_bind_int64(st, 1, *arg);
	int rc = sqlite3_step(st), r = 1;
	if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
		*v = sqlite3_column_int64(st, 0);
		r = 0;
	} else if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		r = rec_sqlite_errno(rc);
	}
	sqlite3_reset(st);
	return r;
}

/* ---- Marks ------------------------------------------------------------ */

#define REC_DIP_SEQ(a, i) ((a)[i].seq)
#define REC_KNOB_SEQ(a, i) ((a)[i].seq)
#define REC_EVENT_SEQ(a, i) ((a)[i])

static bool rec_rp_grow(void **p, size_t *cap, size_t n, size_t size)
{
	if (n <= *cap)
		return true;
	size_t c = *cap ? *cap * 2 : 64;
	while (c < n)
		c *= 2;
	void *q = realloc(*p, c * size);
	if (!q)
		return false;
	*p = q;
	*cap = c;
	return true;
}

static int rec_rp_load_knobs(struct rec_replay *rp)
{
	sqlite3_stmt *st = rp->st[RS_KNOBS];
	sqlite3_bind_int64(st, 1, rp->rowid[0]);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		rp->rowid[0] = sqlite3_column_int64(st, 0);
		const char *name = (const char *)sqlite3_column_text(st, 2);
		int k = name ? knob_vm_find(name) : -1;
		if (k < 0 || k >= SNAP_NKNOBS)
			continue;	/* a knob this build does not know */
		if (!rec_rp_grow((void **)&rp->knobs, &rp->cap_knobs, rp->nknobs + 1, sizeof *rp->knobs)) {
			rc = SQLITE_NOMEM;
			break;
		}
		rp->knobs[rp->nknobs++] = (struct rec_knobrow){
			sqlite3_column_int64(st, 1), k, sqlite3_column_int64(st, 3) };
	}
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : rc;
}

static int rec_rp_load_dips(struct rec_replay *rp)
{
	sqlite3_stmt *st = rp->st[RS_DIPS];
	sqlite3_bind_int64(st, 1, rp->rowid[1]);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		rp->rowid[1] = sqlite3_column_int64(st, 0);
		if (!rec_rp_grow((void **)&rp->dips, &rp->cap_dips, rp->ndips + 1, sizeof *rp->dips)) {
			rc = SQLITE_NOMEM;
			break;
		}
		rp->dips[rp->ndips++] = (struct rec_diprow){
			sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2) };
	}
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : rc;
}

static void rec_rp_copy_text(char *dst, size_t len, sqlite3_stmt *st, int col)
{
	const unsigned char *t = sqlite3_column_text(st, col);
	snprintf(dst, len, "%s", t ? (const char *)t : "");
}

static int rec_rp_load_events(struct rec_replay *rp)
{
	sqlite3_stmt *st = rp->st[RS_EVENTS];
	sqlite3_bind_int64(st, 1, rp->rowid[2]);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		rp->rowid[2] = sqlite3_column_int64(st, 0);
		size_t n = rp->nevents + 1, cap = rp->cap_events;
		if (!rec_rp_grow((void **)&rp->events, &cap, n, sizeof *rp->events) ||
		    !rec_rp_grow((void **)&rp->event_seq, &rp->cap_events, n, sizeof *rp->event_seq)) {
			rc = SQLITE_NOMEM;
			break;
		}
		struct wb_event *e = &rp->events[rp->nevents];
		memset(e, 0, sizeof *e);
		rp->event_seq[rp->nevents++] = sqlite3_column_int64(st, 1);
		e->wall_ns = sqlite3_column_int64(st, 2);
		rec_rp_copy_text(e->knob, sizeof e->knob, st, 3);
		e->old_value = sqlite3_column_int64(st, 4);
		e->new_value = sqlite3_column_int64(st, 5);
		e->read_back = sqlite3_column_int64(st, 6);
		e->result = sqlite3_column_int(st, 7);
		rec_rp_copy_text(e->note, sizeof e->note, st, 8);
	}
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : rc;
}

/* The seq of the last row of a seq-sorted mark array, or fallback. */
#define REC_TAIL_SEQ(arr, n, getseq, fallback) ((n) ? getseq(arr, (n) - 1) : (fallback))

/* A mark table whose tail is cut: the samples after the last mark read
 * may lack marks, so the replay ends before them (never a sample shown
 * without the knob change or dip it had). */
static void rec_rp_clamp(struct rec_replay *rp, int64_t last_mark_seq)
{
	if (last_mark_seq - 1 < rp->last)
		rp->last = last_mark_seq - 1;
}

/* Read the marks written since the last call; they are complete up to
 * the newest sample seen before reading them (a sample and its marks are
 * one transaction). */
static int rec_rp_load_marks(struct rec_replay *rp)
{
	int64_t upto = rp->last;
	if (rp->follow) {
		int r = rec_rp_int(rp, RS_MAX, NULL, &upto);
		if (r < 0)
			return rec_rp_fail(rp, r, "damaged or unreadable (%s)", sqlite3_errmsg(rp->db));
	}
	int rc[3] = { rec_rp_load_knobs(rp), rec_rp_load_dips(rp), rec_rp_load_events(rp) };
	int64_t tail[3] = {
		REC_TAIL_SEQ(rp->knobs, rp->nknobs, REC_KNOB_SEQ, rp->first_seq),
		REC_TAIL_SEQ(rp->dips, rp->ndips, REC_DIP_SEQ, rp->first_seq),
		REC_TAIL_SEQ(rp->event_seq, rp->nevents, REC_EVENT_SEQ, rp->first_seq),
	};
	for (int k = 0; k < 3; k++) {
		if (rc[k] == SQLITE_OK)
			continue;
		if (!rp->tolerant || (rc[k] & 0xff) != SQLITE_CORRUPT)
			return rec_rp_fail(rp, rec_sqlite_errno(rc[k]), "reading marks: %s",
					   sqlite3_errstr(rc[k]));
		rec_rp_clamp(rp, tail[k]);
	}
	rp->marks_upto = upto;
	return 0;
}

/* First index in a seq-sorted array whose seq is >= seq. */
#define REC_LOWER_BOUND(arr, n, getseq, seq, out) do { \
		size_t lo_ = 0, hi_ = (n); \
		while (lo_ < hi_) { \
			size_t mid_ = lo_ + (hi_ - lo_) / 2; \
			if ((getseq(arr, mid_)) < (seq)) \
				lo_ = mid_ + 1; \
			else \
				hi_ = mid_; \
		} \
		(out) = lo_; \
	} while (0)

/* Knob values in force at sample seq (rows fold forward, in seq order). */
static void rec_rp_knobs_at(struct rec_replay *rp, int64_t seq, int64_t knob[SNAP_NKNOBS])
{
	if (seq < rp->knob_seq) {
		for (int k = 0; k < SNAP_NKNOBS; k++)
			rp->knob_cur[k] = -1;
		rp->knob_next = 0;
	}
	while (rp->knob_next < rp->nknobs && rp->knobs[rp->knob_next].seq <= seq) {
		rp->knob_cur[rp->knobs[rp->knob_next].knob] = rp->knobs[rp->knob_next].value;
		rp->knob_next++;
	}
	rp->knob_seq = seq;
	memcpy(knob, rp->knob_cur, sizeof rp->knob_cur);
}

/* ---- Devices ---------------------------------------------------------- */

/* The index in rows[] of devices row id, read now if new. */
static int rec_rp_load_row(struct rec_replay *rp, int64_t id, int64_t seq, size_t *out)
{
	if ((*out = rec_idmap_get(&rp->row_of_id, id)) != SIZE_MAX)
		return 0;
	if (!rec_rp_grow((void **)&rp->rows, &rp->cap_rows, rp->nrows + 1, sizeof *rp->rows))
		return rec_rp_fail(rp, -ENOMEM, "out of memory");
	*out = rp->nrows;
	sqlite3_stmt *st = rp->st[RS_DEV];
	sqlite3_bind_int64(st, 1, id);
	int rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		sqlite3_reset(st);
		if (rc == SQLITE_DONE)
			return rec_rp_fail(rp, -EBADMSG, "sample %" PRId64 ": device %" PRId64
					   " is not in the devices table", seq, id);
		return rec_rp_sqlfail(rp, rc, seq);
	}
	struct rec_row *row = &rp->rows[rp->nrows];
	int c = 0;
	rec_rp_copy_text(row->name, sizeof row->name, st, c++);
	row->major = (uint32_t)sqlite3_column_int64(st, c++);
	row->minor = (uint32_t)sqlite3_column_int64(st, c++);
	row->nfields = (uint8_t)sqlite3_column_int(st, c++);
	bool has_ident = sqlite3_column_int(st, c++);
	row->ident = NULL;
	if (has_ident) {
		struct dev_ident proto;
		memset(&proto, 0, sizeof proto);
		proto.major = row->major;
		proto.minor = row->minor;
		for (size_t k = 0; k < rec_nident_cols; k++) {
			const char *t = (const char *)sqlite3_column_text(st, c++);
			memcpy((char *)&proto + rec_ident_cols[k].offset, &t, sizeof t);
		}
		proto.rotational = sqlite3_column_int(st, c++);
		proto.partition = sqlite3_column_int(st, c++);
		proto.has_bdi = sqlite3_column_int(st, c++);
		for (size_t k = 0; k < KNOB_BDI_COUNT; k++)
			proto.bdi[k] = sqlite3_column_int64(st, c++);
		row->ident = ident_table_add(rp->idents, &proto);
	}
	sqlite3_reset(st);
	if ((has_ident && !row->ident) || rec_idmap_put(&rp->row_of_id, id, rp->nrows) < 0)
		return rec_rp_fail(rp, -ENOMEM, "out of memory");
	rp->nrows++;
	return 0;
}

/* Room for n devices in the device lists. */
static int rec_rp_grow_lists(struct rec_replay *rp, size_t n)
{
	if (n <= rp->cap)
		return 0;
	size_t cap = rp->cap ? rp->cap : 64;
	while (cap < n)
		cap *= 2;
	struct rec_rdev *a = realloc(rp->act, cap * sizeof *a);
	if (a)
		rp->act = a;
	struct rec_rdev *b = realloc(rp->tmp, cap * sizeof *b);
	if (b)
		rp->tmp = b;
	int64_t *ids = realloc(rp->dev_ids, cap * sizeof *ids);
	if (ids)
		rp->dev_ids = ids;
	bool *dips = realloc(rp->dev_dips, cap * sizeof *dips);
	if (dips)
		rp->dev_dips = dips;
	if (!a || !b || !ids || !dips)
		return rec_rp_fail(rp, -ENOMEM, "out of memory");
	rp->cap = cap;
	return 0;
}

/* Room for the n devices a frame announces (each takes a byte at least). */
static int rec_rp_reserve(struct rec_replay *rp, uint64_t n, int64_t seq)
{
	if (n > rp->blob.len)
		return rec_rp_fail(rp, -EBADMSG, "sample %" PRId64 ": bad device count", seq);
	return rec_rp_grow_lists(rp, (size_t)n);
}

/* ---- Frames ----------------------------------------------------------- */

static int rec_rp_bad(struct rec_replay *rp, int64_t seq)
{
	return rec_rp_fail(rp, -EBADMSG, "sample %" PRId64 ": damaged frame", seq);
}

static int rec_rp_parse_key(struct rec_replay *rp, int64_t seq)
{
	const uint8_t *p = rp->blob.p + 1, *end = rp->blob.p + rp->blob.len;
	uint64_t n;
	if (!rec_get_varint(&p, end, &n))
		return rec_rp_bad(rp, seq);
	int r = rec_rp_reserve(rp, n, seq);
	if (r < 0)
		return r;
	int64_t id = 0;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t z;
		if (!rec_get_varint(&p, end, &z))
			return rec_rp_bad(rp, seq);
		id += (int64_t)((z >> 1) ^ (z & 1 ? UINT64_MAX : 0));
		if ((r = rec_rp_load_row(rp, id, seq, &rp->act[i].row)) < 0)
			return r;
		rp->act[i].id = id;
	}
	for (uint64_t i = 0; i < n; i++) {
		uint64_t f[DS_NFIELDS];
		for (int k = 0; k < DS_NFIELDS; k++)
			if (!rec_get_varint(&p, end, &f[k]))
				return rec_rp_bad(rp, seq);
		rec_codec_reset(&rp->act[i].st, f);
	}
	rp->nact = n;
	return p == end ? 0 : rec_rp_bad(rp, seq);
}

/* A delta frame's new device list: each entry is an old entry (carrying
 * its codec state) or a new devices row starting from zero. */
static int rec_rp_parse_list(struct rec_replay *rp, int64_t seq, const uint8_t **p, const uint8_t *end)
{
	uint64_t n;
	if (!rec_get_varint(p, end, &n))
		return rec_rp_bad(rp, seq);
	int r = rec_rp_reserve(rp, n, seq);
	if (r < 0)
		return r;
	for (uint64_t j = 0; j < n; j++) {
		uint64_t src, id;
		if (!rec_get_varint(p, end, &src))
			return rec_rp_bad(rp, seq);
		if (src == 0) {
			if (!rec_get_varint(p, end, &id) || id > INT64_MAX)
				return rec_rp_bad(rp, seq);
			if ((r = rec_rp_load_row(rp, (int64_t)id, seq, &rp->tmp[j].row)) < 0)
				return r;
			rp->tmp[j].id = (int64_t)id;
			rec_codec_reset(&rp->tmp[j].st, NULL);
		} else if (src - 1 < rp->nact) {
			rp->tmp[j] = rp->act[src - 1];
		} else {
			return rec_rp_bad(rp, seq);
		}
	}
	struct rec_rdev *t = rp->act;
	rp->act = rp->tmp;
	rp->tmp = t;
	rp->nact = n;
	return 0;
}

static int rec_rp_parse_delta(struct rec_replay *rp, int64_t seq)
{
	const uint8_t *p = rp->blob.p + 1, *end = rp->blob.p + rp->blob.len;
	uint8_t flags = rp->blob.p[0];
	if (flags & ~REC_FRAME_NEWLIST)
		return rec_rp_bad(rp, seq);
	if (flags & REC_FRAME_NEWLIST) {
		int r = rec_rp_parse_list(rp, seq, &p, end);
		if (r < 0)
			return r;
	}
	struct rec_bitr br = { .p = p, .end = end };
	for (size_t i = 0; i < rp->nact; i++)
		if (!rec_codec_get(&br, &rp->act[i].st))
			return rec_rp_bad(rp, seq);
	return br.p == end ? 0 : rec_rp_bad(rp, seq);
}

/* The frame at offset of the frame stream, nbytes long, into rp->blob;
 * 0, or -EBADMSG (with no message) if rows are missing or short. */
static int rec_rp_read_stream(struct rec_replay *rp, int64_t offset, int64_t nbytes, int *sqlrc)
{
	*sqlrc = SQLITE_OK;
	rp->blob.len = 0;
	if (offset < 0 || nbytes <= 0 || nbytes > INT32_MAX || offset > INT64_MAX - nbytes)
		return -EBADMSG;
	sqlite3_stmt *st = rp->st[RS_FRAMES];
	int64_t first = offset / REC_CHUNK_BYTES, end = offset + nbytes;
	sqlite3_bind_int64(st, 1, first);
	sqlite3_bind_int64(st, 2, (end - 1) / REC_CHUNK_BYTES);
	int rc;
	int64_t at = first * REC_CHUNK_BYTES;	/* stream offset of the row */
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t len = sqlite3_column_bytes(st, 1);
		if (sqlite3_column_int64(st, 0) != at / REC_CHUNK_BYTES || len > REC_CHUNK_BYTES)
			break;
		const uint8_t *data = sqlite3_column_blob(st, 1);
		int64_t from = offset > at ? offset - at : 0, to = end - at < len ? end - at : len;
		if (to > from)
			rec_buf_put(&rp->blob, data + from, (size_t)(to - from));
		at += REC_CHUNK_BYTES;
	}
	sqlite3_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		*sqlrc = rc;
	return rc == SQLITE_DONE && (int64_t)rp->blob.len == nbytes && !rp->blob.oom ? 0 : -EBADMSG;
}

/* The frame of seq into rp->blob. */
static int rec_rp_read_frame(struct rec_replay *rp, int64_t seq, int64_t offset, int64_t nbytes)
{
	int sqlrc;
	if (rec_rp_read_stream(rp, offset, nbytes, &sqlrc) == 0)
		return 0;
	if (sqlrc != SQLITE_OK)
		return rec_rp_sqlfail(rp, sqlrc, seq);
	if (rp->blob.oom)
		return rec_rp_fail(rp, -ENOMEM, "out of memory");
	return rec_rp_fail(rp, -EBADMSG, "sample %" PRId64 ": frame missing or cut short", seq);
}

/* Read sample seq into out (its devices too when fill) and advance the
 * decoded state to it.  0, 1 if there is no such sample, or -errno. */
static int rec_rp_decode(struct rec_replay *rp, int64_t seq, struct snapshot *out, bool fill)
{
	sqlite3_stmt *st = rp->st[RS_SAMPLE];
	sqlite3_bind_int64(st, 1, seq);
	int rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		sqlite3_reset(st);
		return rc == SQLITE_DONE ? 1 : rec_rp_sqlfail(rp, rc, seq);
	}
	int c = 0;
	out->wall_ns = sqlite3_column_int64(st, c++);
	out->mono_ns = (uint64_t)sqlite3_column_int64(st, c++);
	out->page_size = (uint64_t)sqlite3_column_int64(st, c++);
	for (size_t k = 0; k < rec_nsys_cols; k++)
		rec_sys_set(out, k, (uint64_t)sqlite3_column_int64(st, c++));
	int keyframe = sqlite3_column_int(st, c++);
	int64_t ndev = sqlite3_column_int64(st, c++);
	int64_t offset = sqlite3_column_int64(st, c++);
	int64_t nbytes = sqlite3_column_int64(st, c++);
	uint32_t crc = (uint32_t)sqlite3_column_int64(st, c++);
	sqlite3_reset(st);
	rp->state_seq = -1;	/* until this sample decoded completely */
	int r = rec_rp_read_frame(rp, seq, offset, nbytes);
	if (r < 0)
		return r;
	if (rec_sample_crc(seq, out, keyframe, ndev, rp->blob.p, rp->blob.len) != crc)
		return rec_rp_fail(rp, -EBADMSG, "sample %" PRId64 ": checksum mismatch (damaged file)", seq);
	bool key = rp->blob.p[0] == REC_FRAME_KEY;
	if (key != (keyframe != 0))
		return rec_rp_bad(rp, seq);
	r = key ? rec_rp_parse_key(rp, seq) : rec_rp_parse_delta(rp, seq);
	if (r < 0)
		return r;
	if ((int64_t)rp->nact != ndev)
		return rec_rp_bad(rp, seq);
	rp->state_seq = seq;
	if (!fill)
		return 0;
	if (snapshot_reserve(out, rp->nact) < 0)
		return rec_rp_fail(rp, -ENOMEM, "out of memory");
	out->ndev = rp->nact;
	for (size_t i = 0; i < rp->nact; i++) {
		const struct rec_row *row = &rp->rows[rp->act[i].row];
		struct dev_counters *d = &out->dev[i];
		memset(d, 0, sizeof *d);
		d->major = row->major;
		d->minor = row->minor;
		memcpy(d->name, row->name, sizeof d->name);
		d->nfields = row->nfields;
		memcpy(d->f, rp->act[i].st.prev, sizeof d->f);
		d->ident = row->ident;
		rp->dev_ids[i] = rp->act[i].id;
	}
	rp->ndelivered = rp->nact;
	return 0;
}

/* Decode up to target: from the state if it is on the way, else from the
 * keyframe at or before target. */
/* The cached state nearest at or before seq, or NULL. */
static struct rec_state *rec_rp_cached(struct rec_replay *rp, int64_t seq)
{
	struct rec_state *best = NULL;
	for (int k = 0; k < REC_CACHE_SLOTS; k++) {
		struct rec_state *c = &rp->cache[k];
		if (c->seq >= 0 && c->seq <= seq && (!best || c->seq > best->seq))
			best = c;
	}
	return best;
}

/* Keep the decoded state of state_seq, over the oldest slot.  A sample's
 * state never changes, so entries stay valid; failure to keep one only
 * costs time. */
static void rec_rp_cache_put(struct rec_replay *rp)
{
	struct rec_state *c = &rp->cache[rp->cache_next];
	if (c->cap < rp->nact) {
		struct rec_rdev *a = realloc(c->act, rp->nact * sizeof *a);
		if (!a)
			return;
		c->act = a;
		c->cap = rp->nact;
	}
	if (rp->nact)
		memcpy(c->act, rp->act, rp->nact * sizeof *c->act);
	c->nact = rp->nact;
	c->seq = rp->state_seq;
	rp->cache_next = (rp->cache_next + 1) % REC_CACHE_SLOTS;
}

static int rec_rp_cache_get(struct rec_replay *rp, const struct rec_state *c)
{
	int r = rec_rp_grow_lists(rp, c->nact);
	if (r < 0)
		return r;
	if (c->nact)
		memcpy(rp->act, c->act, c->nact * sizeof *rp->act);
	rp->nact = c->nact;
	rp->state_seq = c->seq;
	return 0;
}

/* Decode up to target: from the decoded state if it is on the way, else
 * from the nearest cached state or keyframe before target.  Long runs
 * leave a state in the cache every REC_CACHE_STEP samples, so stepping
 * back through them decodes only a few frames each time. */
static int rec_rp_advance(struct rec_replay *rp, int64_t target, struct snapshot *out)
{
	int64_t start = target;
	if (rp->state_seq < 0 || rp->state_seq != target - 1) {
		int64_t key;
		int r = rec_rp_int(rp, RS_KEY, &target, &key);
		if (r < 0)
			return rec_rp_fail(rp, r, "sample %" PRId64 ": damaged or unreadable (%s)", target,
					   sqlite3_errmsg(rp->db));
		if (r == 1) {	/* no keyframe: no such sample, or damage */
			int64_t w;
			return rec_rp_int(rp, RS_WALL, &target, &w) == 1 ? 1 : rec_rp_bad(rp, target);
		}
		start = rp->state_seq >= key && rp->state_seq < target ? rp->state_seq + 1 : key;
		struct rec_state *c = rec_rp_cached(rp, target - 1);
		if (c && c->seq + 1 > start && (r = rec_rp_cache_get(rp, c)) == 0)
			start = c->seq + 1;
	}
	struct snapshot skip;
	snapshot_init(&skip);
	for (int64_t s = start; s < target; s++) {
		int r = rec_rp_decode(rp, s, &skip, false);
		if (r != 0)
			return r == 1 ? rec_rp_bad(rp, s) : r;
		if (target - start > REC_CACHE_STEP && (s - start) % REC_CACHE_STEP == REC_CACHE_STEP - 1)
			rec_rp_cache_put(rp);
	}
	return rec_rp_decode(rp, target, out, true);
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
static int64_t rec_rp_last(struct rec_replay *rp)
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
};

struct source *rec_replay_open(const char *path, bool follow, char *err, size_t errlen)
{
	struct rec_replay *rp = calloc(1, sizeof *rp);
	if (!rp || !(rp->path = strdup(path)) || !(rp->idents = ident_table_new())) {
		if (rp)
			free(rp->path);
		free(rp);
		rec_set_err(err, errlen, "%s: out of memory", path);
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
		rec_set_err(err, errlen, "%s: damaged or unreadable (%s)", path, sqlite3_errmsg(rp->db));
		r = -EBADMSG;
	}
	if (r == 0) {
		if (rec_rp_int(rp, RS_MIN, NULL, &rp->first_seq) != 0)
			rp->first_seq = 0;
		rp->base = rp->pos = rp->first_seq;
		if ((r = rec_rp_find_last(rp)) < 0 || (r = rec_rp_load_marks(rp)) < 0)
			rec_set_err(err, errlen, "%s", rp->src.errmsg);
	}
	if (r < 0) {
		rec_rp_close(&rp->src);
		return NULL;
	}
	return &rp->src;
}

const int64_t *rec_replay_dev_ids(struct source *src)
{
	struct rec_replay *rp = rec_rp(src);
	return rp && rp->delivered >= 0 ? rp->dev_ids : NULL;
}

/* ---- Navigation ------------------------------------------------------- */

int64_t rec_replay_count(struct source *src)
{
	struct rec_replay *rp = rec_rp(src);
	if (!rp)
		return -EINVAL;
	int64_t last = rec_rp_last(rp);
	return last >= rp->base ? last - rp->base + 1 : 0;
}

int64_t rec_replay_tell(struct source *src)
{
	struct rec_replay *rp = rec_rp(src);
	return rp ? rp->pos - rp->base : -EINVAL;
}

int rec_replay_seek(struct source *src, int64_t index)
{
	struct rec_replay *rp = rec_rp(src);
	if (!rp)
		return -EINVAL;
	if (index < 0 || index > rec_replay_count(src))
		return -ERANGE;
	rp->pos = rp->base + index;
	return 0;
}

int64_t rec_replay_wall_ns(struct source *src, int64_t index)
{
	struct rec_replay *rp = rec_rp(src);
	if (!rp)
		return -EINVAL;
	int64_t seq = rp->base + index, w;
	int r = rec_rp_int(rp, RS_WALL, &seq, &w);
	return r == 0 ? w : r == 1 ? -ERANGE : r;
}

/* First seq in [lo, hi] with wall_ns >= t (hi + 1 if none); wall time is
 * taken to run forward, as it does but for clock steps. */
static int64_t rec_rp_seq_at(struct rec_replay *rp, int64_t lo, int64_t hi, int64_t t)
{
	hi++;
	while (lo < hi) {
		int64_t mid = lo + (hi - lo) / 2, w;
		int r = rec_rp_int(rp, RS_WALL, &mid, &w);
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
	struct rec_replay *rp = rec_rp(src);
	if (!rp)
		return -EINVAL;
	int64_t s = rec_rp_seq_at(rp, rp->base, rec_rp_last(rp), wall_ns);
	return s < 0 ? s : s - rp->base;
}

/* Nearest seq after (dir > 0) or before s in a sorted seq array, or -1. */
static int64_t rec_rp_nearest(const int64_t *seqs, size_t n, size_t stride, int64_t s, int dir,
			      int64_t floor_seq)
{
	/* Arrays of structs start with their seq: walk them by stride. */
	const char *base = (const char *)seqs;
#define SEQ_AT(i) (*(const int64_t *)(const void *)(base + (i) * stride))
	size_t lo = 0, hi = n;
	int64_t want = dir > 0 ? s + 1 : s;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (SEQ_AT(mid) < want)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (dir > 0) {
		while (lo < n && SEQ_AT(lo) <= floor_seq)
			lo++;
		return lo < n ? SEQ_AT(lo) : -1;
	}
	return lo > 0 && SEQ_AT(lo - 1) > floor_seq ? SEQ_AT(lo - 1) : -1;
#undef SEQ_AT
}

static int64_t rec_rp_better(int64_t a, int64_t b, int dir)
{
	if (a < 0)
		return b;
	if (b < 0)
		return a;
	return (dir > 0) == (a < b) ? a : b;
}

int64_t rec_replay_next_mark(struct source *src, int64_t from, int dir, unsigned kinds)
{
	struct rec_replay *rp = rec_rp(src);
	if (!rp || !dir)
		return -EINVAL;
	int64_t last = rec_rp_last(rp);
	if (rp->follow && last > rp->marks_upto) {
		int r = rec_rp_load_marks(rp);
		if (r < 0)
			return r;
	}
	int64_t s = rp->base + from, best = -1;
	if (kinds & REC_MARK_DIP)
		best = rec_rp_nearest(rp->dips ? &rp->dips[0].seq : NULL, rp->ndips, sizeof *rp->dips, s,
				      dir, INT64_MIN);
	if (kinds & REC_MARK_KNOB) {
		/* Knob rows of the first sample are the starting values, not changes. */
		best = rec_rp_better(best, rec_rp_nearest(rp->knobs ? &rp->knobs[0].seq : NULL, rp->nknobs,
							  sizeof *rp->knobs, s, dir, rp->first_seq), dir);
		best = rec_rp_better(best, rec_rp_nearest(rp->event_seq, rp->nevents, sizeof *rp->event_seq,
							  s, dir, INT64_MIN), dir);
	}
	if (best < rp->base || best > last)
		return -ENOENT;
	return best - rp->base;
}

int rec_replay_marks(struct source *src, struct rec_marks *out)
{
	struct rec_replay *rp = rec_rp(src);
	if (!rp)
		return -EINVAL;
	memset(out, 0, sizeof *out);
	if (rp->delivered < 0)
		return -ENOENT;
	int64_t s = rp->delivered;
	size_t i;
	REC_LOWER_BOUND(rp->dips, rp->ndips, REC_DIP_SEQ, s, i);
	if (rp->ndelivered)
		memset(rp->dev_dips, 0, rp->ndelivered * sizeof *rp->dev_dips);
	for (; i < rp->ndips && rp->dips[i].seq == s; i++) {
		if (rp->dips[i].dev == 0)
			out->sys_dip = true;
		for (size_t d = 0; d < rp->ndelivered; d++)
			if (rp->dev_ids[d] == rp->dips[i].dev)
				rp->dev_dips[d] = true;
	}
	out->dev_dips = rp->ndelivered ? rp->dev_dips : NULL;
	REC_LOWER_BOUND(rp->event_seq, rp->nevents, REC_EVENT_SEQ, s, i);
	size_t j = i;
	while (j < rp->nevents && rp->event_seq[j] == s)
		j++;
	out->events = j > i ? &rp->events[i] : NULL;
	out->nevents = j - i;
	return 0;
}

/* ---- Time ------------------------------------------------------------- */

/* Exactly ndig digits at *p. */
static bool rec_take_digits(const char **p, int ndig, int *v)
{
	int x = 0;
	for (int i = 0; i < ndig; i++) {
		if ((*p)[i] < '0' || (*p)[i] > '9')
			return false;
		x = x * 10 + ((*p)[i] - '0');
	}
	*p += ndig;
	*v = x;
	return true;
}

static bool rec_take_char(const char **p, char c)
{
	if (**p != c)
		return false;
	(*p)++;
	return true;
}

/* "HH:MM:SS" or "HH:MM" at *p into tm. */
static bool rec_take_clock(const char **p, struct tm *tm)
{
	const char *q = *p;
	int h, m, s = 0;
	bool one = q[1] == ':';
	if (!rec_take_digits(&q, one ? 1 : 2, &h) || !rec_take_char(&q, ':') ||
	    !rec_take_digits(&q, 2, &m))
		return false;
	if (rec_take_char(&q, ':') && !rec_take_digits(&q, 2, &s))
		return false;
	if (h > 23 || m > 59 || s > 60)
		return false;
	tm->tm_hour = h;
	tm->tm_min = m;
	tm->tm_sec = s;
	*p = q;
	return true;
}

static bool rec_parse_epoch(const char *t, int64_t *out_ns)
{
	int64_t sec = 0, frac = 0, scale = 1000000000;
	const char *p = t;
	if (!*p)
		return false;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (sec > (INT64_MAX / 1000000000 - 10) / 10)
			return false;
		sec = sec * 10 + (*p - '0');
	}
	if (p == t)
		return false;
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++)
			if (scale > 1) {
				scale /= 10;
				frac += (*p - '0') * scale;
			}
	}
	if (*p)
		return false;
	*out_ns = sec * 1000000000 + frac;
	return true;
}

int rec_time_parse(const char *text, int64_t start_wall_ns, int64_t *out_ns)
{
	if (!text)
		return -EINVAL;
	while (*text == ' ')
		text++;
	if (!strchr(text, ':') && !strchr(text, '-'))
		return rec_parse_epoch(text, out_ns) ? 0 : -EINVAL;
	struct tm tm;
	time_t start_s = (time_t)(start_wall_ns / 1000000000);
	if (!localtime_r(&start_s, &tm))
		return -EINVAL;
	const char *p = text;
	bool dated = strchr(text, '-') != NULL;
	if (dated) {
		int y, mo, d;
		if (!rec_take_digits(&p, 4, &y) || !rec_take_char(&p, '-') ||
		    !rec_take_digits(&p, 2, &mo) || !rec_take_char(&p, '-') ||
		    !rec_take_digits(&p, 2, &d) || (*p != ' ' && *p != 'T') || mo < 1 || mo > 12 ||
		    d < 1 || d > 31)
			return -EINVAL;
		p++;
		tm.tm_year = y - 1900;
		tm.tm_mon = mo - 1;
		tm.tm_mday = d;
	}
	if (!rec_take_clock(&p, &tm) || *p)
		return -EINVAL;
	tm.tm_isdst = -1;
	time_t t = mktime(&tm);
	if (t == (time_t)-1)
		return -EINVAL;
	if (!dated && t < start_s) {	/* a clock time before the start: the next day */
		tm.tm_mday++;
		tm.tm_isdst = -1;
		t = mktime(&tm);
	}
	*out_ns = (int64_t)t * 1000000000;
	return 0;
}

int rec_replay_limit(struct source *src, const char *begin, const char *end, char *err,
		     size_t errlen)
{
	struct rec_replay *rp = rec_rp(src);
	if (!rp)
		return -EINVAL;
	int64_t last = rec_rp_last(rp), start_ns, b_ns = INT64_MIN, e_ns = INT64_MAX;
	if (last < rp->base || rec_rp_int(rp, RS_WALL, &rp->base, &start_ns) != 0) {
		rec_set_err(err, errlen, "%s: no samples to limit with --begin/--end", rp->path);
		return -ERANGE;
	}
	const char *bad = begin && rec_time_parse(begin, start_ns, &b_ns) < 0 ? begin :
			  end && rec_time_parse(end, start_ns, &e_ns) < 0 ? end : NULL;
	if (bad) {
		rec_set_err(err, errlen, "%s '%s': not a time (use HH:MM:SS, 'YYYY-MM-DD HH:MM:SS' or "
			    "seconds since the epoch)", bad == begin ? "--begin" : "--end", bad);
		return -EINVAL;
	}
	/* An end given to the second covers that whole second. */
	if (end && !strchr(end, '.') && e_ns <= INT64_MAX - 999999999)
		e_ns += 999999999;
	int64_t from = begin ? rec_rp_seq_at(rp, rp->base, last, b_ns) : rp->base;
	int64_t to = end && e_ns < INT64_MAX ? rec_rp_seq_at(rp, rp->base, last, e_ns + 1) - 1 : last;
	if (from < 0 || to < -1) {
		rec_set_err(err, errlen, "%s", rp->src.errmsg);
		return (int)(from < 0 ? from : to);
	}
	if (from > to) {
		rec_set_err(err, errlen, "%s: no samples between %s and %s", rp->path,
			    begin ? begin : "the start", end ? end : "the end");
		return -ERANGE;
	}
	rp->base = rp->pos = from;
	if (!rp->follow || to < last)
		rp->last = to;
	rp->end_ns = e_ns;
	return 0;
}
