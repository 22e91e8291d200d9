/*
 * rec_decode.c - the replay's decoder: a sample's row and packed frame
 * turned back into a snapshot, with the devices rows it names, its
 * processes, cgroups and the values beside the fixed blocks.  A seek
 * decodes forward from the keyframe (or cached state) at or before it, and
 * every sample's checksum is checked: a damaged file gives an error, never
 * wrong figures.  The codec itself is rec_codec.c.  Nothing here prints.
 */
#include <errno.h>
#include <inttypes.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"
#include "core/ident.h"
#include "core/knob.h"
#include "rec_decode_priv.h"
#include "rec_reader_priv.h"
#include "rec/rec_buf.h"
#include "rec/rec_codec.h"
#include "rec/rec_crc.h"
#include "rec/rec_idmap.h"
#include "rec/rec_schema.h"
#include "core/snapshot.h"

/* ---- Devices ---------------------------------------------------------- */

/* The index in rows[] of devices row id, read now if new. */
static int rec_decode_load_row(struct rec_replay *rp, int64_t id, int64_t seq, size_t *out)
{
	if ((*out = rec_idmap_get(&rp->row_of_id, id)) != SIZE_MAX)
		return 0;
	if (grow_array((void **)&rp->rows, &rp->cap_rows, rp->nrows + 1, sizeof *rp->rows, 64) < 0)
		return rec_reader_fail(rp, -ENOMEM, "out of memory");
	*out = rp->nrows;
	sqlite3_stmt *st = rp->st[RS_DEV];
	sqlite3_bind_int64(st, 1, id);
	int rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		sqlite3_reset(st);
		if (rc == SQLITE_DONE)
			return rec_reader_fail(rp, -EBADMSG, "sample %" PRId64 ": device %" PRId64
					       " is not in the devices table", seq, id);
		return rec_reader_sqlfail(rp, rc, seq);
	}
	struct rec_row *row = &rp->rows[rp->nrows];
	int c = 0;
	rec_reader_text(row->name, sizeof row->name, st, c++);
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
		for (size_t k = 0; k < rec_schema_nident_cols; k++) {
			const char *t = (const char *)sqlite3_column_text(st, c++);
			memcpy((char *)&proto + rec_schema_ident_cols[k].offset, &t, sizeof t);
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
		return rec_reader_fail(rp, -ENOMEM, "out of memory");
	rp->nrows++;
	return 0;
}

/* Room for n devices in the device lists. */
static int rec_decode_grow_lists(struct rec_replay *rp, size_t n)
{
	const struct grow_part parts[] = {
		{ (void **)&rp->act, sizeof *rp->act }, { (void **)&rp->tmp, sizeof *rp->tmp },
		{ (void **)&rp->dev_ids, sizeof *rp->dev_ids }, { (void **)&rp->dev_dips, sizeof *rp->dev_dips },
		{ (void **)&rp->dev_causes, sizeof *rp->dev_causes },
	};
	if (grow_arrays(parts, sizeof parts / sizeof parts[0], &rp->cap, n, 64) < 0)
		return rec_reader_fail(rp, -ENOMEM, "out of memory");
	return 0;
}

/* Room for the n devices a frame announces (each takes a byte at least). */
static int rec_decode_reserve(struct rec_replay *rp, uint64_t n, int64_t seq)
{
	if (n > rp->blob.len)
		return rec_reader_fail(rp, -EBADMSG, "sample %" PRId64 ": bad device count", seq);
	return rec_decode_grow_lists(rp, (size_t)n);
}

/* ---- Frames ----------------------------------------------------------- */

static int rec_decode_bad(struct rec_replay *rp, int64_t seq)
{
	return rec_reader_fail(rp, -EBADMSG, "sample %" PRId64 ": damaged frame", seq);
}

static int rec_decode_key(struct rec_replay *rp, int64_t seq)
{
	const uint8_t *p = rp->blob.p + 1, *end = rp->blob.p + rp->blob.len;
	uint64_t n;
	if (!rec_buf_get_varint(&p, end, &n))
		return rec_decode_bad(rp, seq);
	int r = rec_decode_reserve(rp, n, seq);
	if (r < 0)
		return r;
	int64_t id = 0;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t z;
		if (!rec_buf_get_varint(&p, end, &z))
			return rec_decode_bad(rp, seq);
		id += (int64_t)((z >> 1) ^ (z & 1 ? UINT64_MAX : 0));
		if ((r = rec_decode_load_row(rp, id, seq, &rp->act[i].row)) < 0)
			return r;
		rp->act[i].id = id;
	}
	for (uint64_t i = 0; i < n; i++) {
		uint64_t f[DS_NFIELDS];
		for (int k = 0; k < DS_NFIELDS; k++)
			if (!rec_buf_get_varint(&p, end, &f[k]))
				return rec_decode_bad(rp, seq);
		rec_codec_reset(&rp->act[i].st, f);
	}
	rp->nact = n;
	return p == end ? 0 : rec_decode_bad(rp, seq);
}

/* A delta frame's new device list: each entry is an old entry (carrying
 * its codec state) or a new devices row starting from zero. */
static int rec_decode_list(struct rec_replay *rp, int64_t seq, const uint8_t **p,
			   const uint8_t *end)
{
	uint64_t n;
	if (!rec_buf_get_varint(p, end, &n))
		return rec_decode_bad(rp, seq);
	int r = rec_decode_reserve(rp, n, seq);
	if (r < 0)
		return r;
	for (uint64_t j = 0; j < n; j++) {
		uint64_t src, id;
		if (!rec_buf_get_varint(p, end, &src))
			return rec_decode_bad(rp, seq);
		if (src == 0) {
			if (!rec_buf_get_varint(p, end, &id) || id > INT64_MAX)
				return rec_decode_bad(rp, seq);
			if ((r = rec_decode_load_row(rp, (int64_t)id, seq, &rp->tmp[j].row)) < 0)
				return r;
			rp->tmp[j].id = (int64_t)id;
			rec_codec_reset(&rp->tmp[j].st, NULL);
		} else if (src - 1 < rp->nact) {
			rp->tmp[j] = rp->act[src - 1];
		} else {
			return rec_decode_bad(rp, seq);
		}
	}
	struct rec_rdev *t = rp->act;
	rp->act = rp->tmp;
	rp->tmp = t;
	rp->nact = n;
	return 0;
}

static int rec_decode_delta(struct rec_replay *rp, int64_t seq)
{
	const uint8_t *p = rp->blob.p + 1, *end = rp->blob.p + rp->blob.len;
	uint8_t flags = rp->blob.p[0];
	if (flags & ~REC_FRAME_NEWLIST)
		return rec_decode_bad(rp, seq);
	if (flags & REC_FRAME_NEWLIST) {
		int r = rec_decode_list(rp, seq, &p, end);
		if (r < 0)
			return r;
	}
	struct rec_bitr br = { .p = p, .end = end };
	for (size_t i = 0; i < rp->nact; i++)
		if (!rec_codec_get(&br, &rp->act[i].st))
			return rec_decode_bad(rp, seq);
	return br.p == end ? 0 : rec_decode_bad(rp, seq);
}

/* The frame at offset of the frame stream, nbytes long, into rp->blob;
 * 0, or -EBADMSG (with no message) if rows are missing or short. */
int rec_decode_read_stream(struct rec_replay *rp, int64_t offset, int64_t nbytes, int *sqlrc)
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
static int rec_decode_read_frame(struct rec_replay *rp, int64_t seq, int64_t offset, int64_t nbytes)
{
	int sqlrc;
	if (rec_decode_read_stream(rp, offset, nbytes, &sqlrc) == 0)
		return 0;
	if (sqlrc != SQLITE_OK)
		return rec_reader_sqlfail(rp, sqlrc, seq);
	if (rp->blob.oom)
		return rec_reader_fail(rp, -ENOMEM, "out of memory");
	return rec_reader_fail(rp, -EBADMSG, "sample %" PRId64 ": frame missing or cut short", seq);
}

/* ---- Values beside the fixed blocks ------------------------------------ */

/* The values stored for sample seq into out; a kind this build does not
 * know is skipped (a newer wbtop wrote it), and so is a device value whose
 * device is not in the sample.  None in a file without the extras table. */
static int rec_decode_extras(struct rec_replay *rp, int64_t seq, struct snapshot *out)
{
	sqlite3_stmt *st = rp->st[RS_EXTRAS];
	out->nx = 0;
	if (!st)
		return 0;
	sqlite3_bind_int64(st, 1, seq);
	int rc, r = 0;
	while (r == 0 && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 1);
		const struct snap_xkind *k = name ? snapshot_xkind_by_name(name) : NULL;
		uint64_t obj = (uint64_t)sqlite3_column_int64(st, 0);
		if (!k || (k->scope == SNAP_XDEV && !snapshot_find_dev(out, (uint32_t)(obj >> 32), (uint32_t)obj)))
			continue;
		if (snapshot_add_x(out, k->scope, k->kind, obj, (uint64_t)sqlite3_column_int64(st, 2)) < 0)
			r = rec_reader_fail(rp, -ENOMEM, "out of memory");
	}
	sqlite3_reset(st);
	if (r == 0 && rc != SQLITE_DONE)
		r = rec_reader_sqlfail(rp, rc, seq);
	return r;
}

/* The cgroups' names stored for sample seq into out; none in a file
 * without the cgroups table (its cgroups are then known by inode only). */
static int rec_decode_cgroups(struct rec_replay *rp, int64_t seq, struct snapshot *out)
{
	sqlite3_stmt *st = rp->st[RS_CGROUPS];
	out->ncg = 0;
	if (!st)
		return 0;
	sqlite3_bind_int64(st, 1, seq);
	int rc, r = 0;
	while (r == 0 && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *path = (const char *)sqlite3_column_text(st, 1);
		if (snapshot_add_cg(out, (uint64_t)sqlite3_column_int64(st, 0), path ? path : "",
				    sqlite3_column_int(st, 2) != 0) < 0)
			r = rec_reader_fail(rp, -ENOMEM, "out of memory");
	}
	sqlite3_reset(st);
	if (r == 0 && rc != SQLITE_DONE)
		r = rec_reader_sqlfail(rp, rc, seq);
	return r;
}

/* ---- Processes -------------------------------------------------------- */

/* The processes stored for sample seq into out (sorted by pid: the primary
 * key orders them); none in a file without the procs table. */
static int rec_decode_procs(struct rec_replay *rp, int64_t seq, struct snapshot *out)
{
	out->nproc = 0;
	sqlite3_stmt *st = rp->st[RS_PROCS];
	if (!st)
		return 0;
	sqlite3_bind_int64(st, 1, seq);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (snapshot_reserve_procs(out, out->nproc + 1) < 0) {
			sqlite3_reset(st);
			return rec_reader_fail(rp, -ENOMEM, "out of memory");
		}
		struct proc_counters *p = &out->proc[out->nproc];
		int64_t pid = sqlite3_column_int64(st, 0);
		if (pid <= 0 || pid > INT32_MAX) {
			sqlite3_reset(st);
			return rec_reader_fail(rp, -EBADMSG, "sample %" PRId64 ": bad process id %" PRId64,
					       seq, pid);
		}
		memset(p, 0, sizeof *p);
		p->pid = (int32_t)pid;
		rec_reader_text(p->comm, sizeof p->comm, st, 1);
		const unsigned char *state = sqlite3_column_text(st, 2);
		p->state = state ? (char)state[0] : '\0';
		p->kthread = sqlite3_column_int(st, 3) != 0;
		p->self = rp->wbtop_pid && pid == rp->wbtop_pid;
		p->io_hidden = sqlite3_column_int(st, 4) != 0;
		p->read_bytes = (uint64_t)sqlite3_column_int64(st, 5);
		p->write_bytes = (uint64_t)sqlite3_column_int64(st, 6);
		p->cancelled_write_bytes = (uint64_t)sqlite3_column_int64(st, 7);
		p->utime_jif = (uint64_t)sqlite3_column_int64(st, 8);
		p->stime_jif = (uint64_t)sqlite3_column_int64(st, 9);
		rec_reader_text(p->wchan, sizeof p->wchan, st, 10);
		p->flush_major = (uint32_t)sqlite3_column_int64(st, 11);
		p->flush_minor = (uint32_t)sqlite3_column_int64(st, 12);
		out->nproc++;
	}
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : rec_reader_sqlfail(rp, rc, seq);
}

/* ---- Samples ---------------------------------------------------------- */

/* Read sample seq into out (its devices and processes too when fill) and
 * advance the decoded state to it.  0, 1 if there is no such sample, or -errno. */
static int rec_decode_one(struct rec_replay *rp, int64_t seq, struct snapshot *out, bool fill)
{
	sqlite3_stmt *st = rp->st[RS_SAMPLE];
	sqlite3_bind_int64(st, 1, seq);
	int rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		sqlite3_reset(st);
		return rc == SQLITE_DONE ? 1 : rec_reader_sqlfail(rp, rc, seq);
	}
	int c = 0;
	out->wall_ns = sqlite3_column_int64(st, c++);
	out->mono_ns = (uint64_t)sqlite3_column_int64(st, c++);
	out->page_size = (uint64_t)sqlite3_column_int64(st, c++);
	for (size_t k = 0; k < rec_schema_nsys_cols; k++)
		rec_schema_sys_set(out, k, (uint64_t)sqlite3_column_int64(st, c++));
	int keyframe = sqlite3_column_int(st, c++);
	int64_t ndev = sqlite3_column_int64(st, c++);
	int64_t offset = sqlite3_column_int64(st, c++);
	int64_t nbytes = sqlite3_column_int64(st, c++);
	uint32_t crc = (uint32_t)sqlite3_column_int64(st, c++);
	sqlite3_reset(st);
	rp->state_seq = -1;	/* until this sample decoded completely */
	int r = rec_decode_read_frame(rp, seq, offset, nbytes);
	if (r < 0)
		return r;
	if (rec_crc_sample(seq, out, keyframe, ndev, rp->blob.p, rp->blob.len) != crc)
		return rec_reader_fail(rp, -EBADMSG, "sample %" PRId64 ": checksum mismatch (damaged file)", seq);
	bool key = rp->blob.p[0] == REC_FRAME_KEY;
	if (key != (keyframe != 0))
		return rec_decode_bad(rp, seq);
	r = key ? rec_decode_key(rp, seq) : rec_decode_delta(rp, seq);
	if (r < 0)
		return r;
	if ((int64_t)rp->nact != ndev)
		return rec_decode_bad(rp, seq);
	rp->state_seq = seq;
	if (!fill)
		return 0;
	if (snapshot_reserve(out, rp->nact) < 0)
		return rec_reader_fail(rp, -ENOMEM, "out of memory");
	out->ndev = rp->nact;
	out->devs_serial = 0;	/* not numbered: each device is paired by its numbers */
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
	r = rec_decode_procs(rp, seq, out);
	if (r == 0)
		r = rec_decode_extras(rp, seq, out);
	return r == 0 ? rec_decode_cgroups(rp, seq, out) : r;
}

/* The cached state nearest at or before seq, or NULL. */
static struct rec_state *rec_decode_cached(struct rec_replay *rp, int64_t seq)
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
static void rec_decode_cache_put(struct rec_replay *rp)
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

static int rec_decode_cache_get(struct rec_replay *rp, const struct rec_state *c)
{
	int r = rec_decode_grow_lists(rp, c->nact);
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
int rec_decode_sample(struct rec_replay *rp, int64_t target, struct snapshot *out)
{
	int64_t start = target;
	if (rp->state_seq < 0 || rp->state_seq != target - 1) {
		int64_t key;
		int r = rec_reader_int(rp, RS_KEY, &target, &key);
		if (r < 0)
			return rec_reader_fail(rp, r, "sample %" PRId64 ": damaged or unreadable (%s)", target,
					       sqlite3_errmsg(rp->db));
		if (r == 1) {	/* no keyframe: no such sample, or damage */
			int64_t w;
			return rec_reader_int(rp, RS_WALL, &target, &w) == 1 ? 1 : rec_decode_bad(rp, target);
		}
		start = rp->state_seq >= key && rp->state_seq < target ? rp->state_seq + 1 : key;
		struct rec_state *c = rec_decode_cached(rp, target - 1);
		if (c && c->seq + 1 > start && (r = rec_decode_cache_get(rp, c)) == 0)
			start = c->seq + 1;
	}
	struct snapshot skip;
	snapshot_init(&skip);
	for (int64_t s = start; s < target; s++) {
		int r = rec_decode_one(rp, s, &skip, false);
		if (r != 0)
			return r == 1 ? rec_decode_bad(rp, s) : r;
		if (target - start > REC_CACHE_STEP && (s - start) % REC_CACHE_STEP == REC_CACHE_STEP - 1)
			rec_decode_cache_put(rp);
	}
	return rec_decode_one(rp, target, out, true);
}
