/*
 * rec_writer.c - the recorder: appends samples to an SQLite recording, one
 * transaction each, in WAL mode, checkpointed once per sync period
 * (rec_writer_set_sync); events at once.  Up to REC_PROCS_MAX processes a
 * sample go to the procs table (procs_rank).  A write error rolls the
 * sample back and stops the writer for good; the file stays valid.
 * doc/recording.md says why ("What is kept").  Nothing here prints.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "core/cause.h"
#include "util/grow.h"
#include "core/knob.h"
#include "core/procs.h"
#include "rec/rec.h"
#include "rec/rec_buf.h"
#include "rec/rec_codec.h"
#include "rec/rec_crc.h"
#include "rec/rec_db.h"
#include "rec/rec_schema.h"
#include "sink/sink.h"

/* One device of the current sample, as the writer remembers it. */
struct rec_wdev {
	int64_t id;			/* devices.id */
	uint32_t major, minor;
	char name[sizeof ((struct dev_counters *)0)->name];
	uint8_t nfields;
	bool has_ident;
	struct dev_ident ident;		/* our copy: identities change in place */
	struct rec_codec_dev st;
	bool used;			/* matched in the sample being written */
};

enum rec_stmt {
	ST_BEGIN, ST_COMMIT, ST_ROLLBACK, ST_SAMPLE, ST_FRAME, ST_DEV, ST_DEV_END,
	ST_KNOB, ST_EVENT, ST_DIP, ST_PROC, ST_EXTRA, ST_CGROUP, ST_COUNT
};

struct rec_writer {
	sqlite3 *db;
	char *path;
	sqlite3_stmt *st[ST_COUNT];
	int64_t seq;			/* seq of the next sample */
	int64_t last_key;		/* seq of the last keyframe; -1 none */
	size_t key_bytes;		/* its size */
	size_t bytes_since_key;		/* delta frames since */
	int64_t stream_bytes;		/* length of the frame stream */
	uint8_t tail[REC_CHUNK_BYTES];	/* its last, partial row */
	struct rec_wdev *dev, *next;	/* current list, list being built */
	size_t n, cap;
	long *src;			/* per new entry: index in the old list, -1 new */
	int64_t knob[SNAP_NKNOBS];
	bool have_knobs;
	struct rec_buf frame;
	struct snapshot prevp;		/* the last sample's processes (and values beside), no devices */
	int64_t prevp_seq;		/* its seq */
	bool prevp_unstored;		/* its processes are not stored yet: no interval ranked them */
	struct proc_row rank[REC_PROCS_MAX];	/* procs_rank's rows of the sample being written */
	int64_t sync_ms;		/* checkpoint period; 0 every sample, <0 only at close */
	uint64_t ckpt_mono_ns;		/* sample time of the last checkpoint; 0 none yet */
	int err;			/* the -errno that stopped the writer */
	char errmsg[512];
};

/* ---- Schema ----------------------------------------------------------- */

static char *rec_writer_schema_sql(void)
{
	char *sql = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&sql, &len);
	if (!f)
		return NULL;
	fputs("PRAGMA user_version = " REC_STR(REC_SCHEMA_VERSION) ";\n"
	      "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);\n"
	      "CREATE TABLE samples (seq INTEGER PRIMARY KEY, wall_ns INTEGER NOT NULL,"
	      " mono_ns INTEGER NOT NULL, page_size INTEGER NOT NULL", f);
	for (size_t c = 0; c < rec_schema_nsys_cols; c++)
		fprintf(f, ", %s INTEGER NOT NULL", rec_schema_sys_cols[c].name);
	fputs(", keyframe INTEGER NOT NULL, ndev INTEGER NOT NULL, frame_offset INTEGER NOT NULL,"
	      " nbytes INTEGER NOT NULL,"
	      " crc INTEGER NOT NULL);\n"
	      "CREATE TABLE frames (id INTEGER PRIMARY KEY, data BLOB NOT NULL);\n"
	      "CREATE TABLE devices (id INTEGER PRIMARY KEY, name TEXT NOT NULL,"
	      " major INTEGER NOT NULL, minor INTEGER NOT NULL, nfields INTEGER NOT NULL,"
	      " has_ident INTEGER NOT NULL", f);
	for (size_t c = 0; c < rec_schema_nident_cols; c++)
		fprintf(f, ", %s TEXT", rec_schema_ident_cols[c].name);
	fputs(", rotational INTEGER, partition INTEGER, has_bdi INTEGER", f);
	for (size_t k = 0; k < KNOB_BDI_COUNT; k++)
		fprintf(f, ", %s INTEGER", rec_schema_bdi_cols[k]);
	fputs(", first_seq INTEGER NOT NULL, last_seq INTEGER, appeared INTEGER NOT NULL,"
	      " vanished INTEGER NOT NULL DEFAULT 0);\n"
	      "CREATE INDEX devices_key ON devices(key);\n"
	      "CREATE TABLE knobs (seq INTEGER NOT NULL, knob TEXT NOT NULL, value INTEGER NOT NULL);\n"
	      "CREATE TABLE events (id INTEGER PRIMARY KEY, seq INTEGER NOT NULL,"
	      " wall_ns INTEGER NOT NULL, knob TEXT NOT NULL, old_value INTEGER,"
	      " new_value INTEGER, read_back INTEGER, result INTEGER, note TEXT);\n"
	      "CREATE TABLE dips (seq INTEGER NOT NULL, device_id INTEGER REFERENCES devices(id),"
	      " cause TEXT);\n"
	      "CREATE TABLE procs (seq INTEGER NOT NULL, pid INTEGER NOT NULL, comm TEXT NOT NULL,"
	      " state TEXT NOT NULL, kthread INTEGER NOT NULL, io_hidden INTEGER NOT NULL,"
	      " read_bytes INTEGER NOT NULL, write_bytes INTEGER NOT NULL,"
	      " cancelled_write_bytes INTEGER NOT NULL, utime_jif INTEGER NOT NULL,"
	      " stime_jif INTEGER NOT NULL, wchan TEXT NOT NULL, flush_major INTEGER NOT NULL,"
	      " flush_minor INTEGER NOT NULL, PRIMARY KEY (seq, pid)) WITHOUT ROWID;\n"
	      "CREATE TABLE extras (seq INTEGER NOT NULL, obj INTEGER NOT NULL, kind TEXT NOT NULL,"
	      " value INTEGER NOT NULL);\n"
	      "CREATE INDEX extras_seq ON extras(seq);\n"
	      "CREATE TABLE cgroups (seq INTEGER NOT NULL, ino INTEGER NOT NULL, path TEXT NOT NULL,"
	      " gone INTEGER NOT NULL, PRIMARY KEY (seq, ino)) WITHOUT ROWID;\n", f);
	if (fclose(f) != 0) {
		free(sql);
		return NULL;
	}
	return sql;
}

static char *rec_writer_insert_sql(const char *table, const char *const *cols, size_t n)
{
	char *sql = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&sql, &len);
	if (!f)
		return NULL;
	fprintf(f, "INSERT INTO %s (", table);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? ", " : "", cols[i]);
	fputs(") VALUES (", f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s?", i ? ", " : "");
	fputs(")", f);
	if (fclose(f) != 0) {
		free(sql);
		return NULL;
	}
	return sql;
}

/* The column lists of the two wide tables, in binding order. */
static size_t rec_writer_sample_cols(const char **cols)
{
	cols[0] = "seq";
	return 1 + rec_schema_sample_cols(cols + 1);
}

static size_t rec_writer_device_cols(const char **cols)
{
	size_t n = rec_schema_device_cols(cols);
	cols[n++] = "first_seq";
	cols[n++] = "appeared";
	return n;
}

static int rec_writer_prepare(struct rec_writer *w)
{
	const char *cols[64];
	char *ins_sample = rec_writer_insert_sql("samples", cols, rec_writer_sample_cols(cols));
	char *ins_dev = rec_writer_insert_sql("devices", cols, rec_writer_device_cols(cols));
	const char *sql[ST_COUNT] = {
		[ST_BEGIN] = "BEGIN",
		[ST_COMMIT] = "COMMIT",
		[ST_ROLLBACK] = "ROLLBACK",
		[ST_SAMPLE] = ins_sample,
		[ST_FRAME] = "INSERT OR REPLACE INTO frames (id, data) VALUES (?, ?)",
		[ST_DEV] = ins_dev,
		[ST_DEV_END] = "UPDATE devices SET last_seq = ?, vanished = ? WHERE id = ?",
		[ST_KNOB] = "INSERT INTO knobs (seq, knob, value) VALUES (?, ?, ?)",
		[ST_EVENT] = "INSERT INTO events (seq, wall_ns, knob, old_value, new_value,"
			     " read_back, result, note) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
		[ST_DIP] = "INSERT INTO dips (seq, device_id, cause) VALUES (?, ?, ?)",
		[ST_PROC] = "INSERT OR REPLACE INTO procs (seq, pid, comm, state, kthread, io_hidden,"
			    " read_bytes, write_bytes, cancelled_write_bytes, utime_jif, stime_jif,"
			    " wchan, flush_major, flush_minor)"
			    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
		[ST_EXTRA] = "INSERT INTO extras (seq, obj, kind, value) VALUES (?, ?, ?, ?)",
		[ST_CGROUP] = "INSERT OR REPLACE INTO cgroups (seq, ino, path, gone) VALUES (?, ?, ?, ?)",
	};
	int rc = SQLITE_NOMEM;
	if (ins_sample && ins_dev) {
		rc = SQLITE_OK;
		for (int i = 0; i < ST_COUNT && rc == SQLITE_OK; i++)
			rc = sqlite3_prepare_v3(w->db, sql[i], -1, SQLITE_PREPARE_PERSISTENT, &w->st[i], NULL);
	}
	free(ins_sample);
	free(ins_dev);
	return rc;
}

static int rec_writer_meta(struct rec_writer *w)
{
	struct utsname u;
	if (uname(&u) != 0)
		memset(&u, 0, sizeof u);
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	char created[32], key_ratio[16], key_max[16], chunk[16], version[16], procs_max[16], pid[16];
	snprintf(pid, sizeof pid, "%d", (int)getpid());	/* its own rows in the procs table */
	snprintf(created, sizeof created, "%lld", (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec);
	snprintf(key_ratio, sizeof key_ratio, "%d", REC_KEYFRAME_RATIO);
	snprintf(key_max, sizeof key_max, "%d", REC_KEYFRAME_MAX);
	snprintf(chunk, sizeof chunk, "%d", REC_CHUNK_BYTES);
	snprintf(version, sizeof version, "%d", REC_SCHEMA_VERSION);
	snprintf(procs_max, sizeof procs_max, "%d", REC_PROCS_MAX);
	const char *rows[][2] = {
		{ "format", REC_FORMAT_NAME },
		{ "schema_version", version },
		{ "min_reader_version", "1" },
		{ "created_wall_ns", created },
		{ "hostname", u.nodename },
		{ "kernel", u.release },
		{ "codec", "bitpack-1" },
		{ "keyframe_ratio", key_ratio },
		{ "keyframe_max", key_max },
		{ "chunk_bytes", chunk },
		{ "procs_max", procs_max },
		{ "wbtop_pid", pid },
		{ "state", "recording" },
	};
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(w->db, "INSERT INTO meta (key, value) VALUES (?, ?)", -1, &st, NULL);
	for (size_t i = 0; rc == SQLITE_OK && i < sizeof rows / sizeof rows[0]; i++) {
		sqlite3_bind_text(st, 1, rows[i][0], -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, rows[i][1], -1, SQLITE_STATIC);
		rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(w->db);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return rc;
}

static int rec_writer_checkpoint(struct rec_writer *w);

/* Settings first (page size and journal mode must precede the tables). */
static int rec_writer_init_db(struct rec_writer *w)
{
	char *schema = rec_writer_schema_sql();
	if (!schema)
		return SQLITE_NOMEM;
	int rc = sqlite3_exec(w->db, "PRAGMA page_size = 4096; PRAGMA journal_mode = WAL;"
			      " PRAGMA synchronous = NORMAL; PRAGMA wal_autocheckpoint = 0;"
			      " BEGIN", NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(w->db, schema, NULL, NULL, NULL);
	free(schema);
	if (rc == SQLITE_OK)
		rc = rec_writer_meta(w);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(w->db, "COMMIT", NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = rec_writer_prepare(w);
	if (rc == SQLITE_OK)	/* a copy of the main file is a recording from now on */
		rc = rec_writer_checkpoint(w);
	return rc;
}

/* ---- Open and close --------------------------------------------------- */

/* Create path, refusing to overwrite anything but an empty file. */
static int rec_writer_create(const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0 && errno == EEXIST) {
		struct stat st;
		bool known = stat(path, &st) == 0;
		if (known && S_ISREG(st.st_mode) && st.st_size == 0)
			return 0;
		if (known && S_ISDIR(st.st_mode)) {
			rec_db_set_err(err, errlen, "%s: is a directory: give the recording's file name", path);
			return -EISDIR;
		}
		rec_db_set_err(err, errlen, "%s: %s exists (wbtop does not overwrite recordings)", path,
			       !known || S_ISREG(st.st_mode) ? "file" : "something that is not a file");
		return -EEXIST;
	}
	if (fd < 0) {
		int e = errno;
		rec_db_set_err(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	close(fd);
	return 0;
}

static void rec_writer_free(struct rec_writer *w)
{
	for (int i = 0; i < ST_COUNT; i++)
		sqlite3_finalize(w->st[i]);
	sqlite3_close_v2(w->db);
	for (size_t i = 0; i < w->n; i++)
		rec_schema_ident_clear(&w->dev[i].ident);
	free(w->dev);
	free(w->next);
	free(w->src);
	snapshot_free(&w->prevp);
	rec_buf_free(&w->frame);
	free(w->path);
	free(w);
}

struct rec_writer *rec_writer_open(const char *path, char *err, size_t errlen)
{
	if (rec_writer_create(path, err, errlen) < 0)
		return NULL;
	struct rec_writer *w = calloc(1, sizeof *w);
	if (!w || !(w->path = strdup(path))) {
		free(w);
		rec_db_set_err(err, errlen, "%s: out of memory", path);
		return NULL;
	}
	w->last_key = -1;
	snapshot_init(&w->prevp);
	w->sync_ms = REC_SYNC_DEFAULT_MS;
	int rc = sqlite3_open_v2(path, &w->db, SQLITE_OPEN_READWRITE, NULL);
	/* Grow the main file ahead in chunks: a checkpoint then never writes
	 * the header of a file longer than the file is, so a copy taken in
	 * the middle of one still opens (only its newest pages are stale). */
	int chunk = REC_GROW_BYTES;
	if (rc == SQLITE_OK)
		sqlite3_file_control(w->db, "main", SQLITE_FCNTL_CHUNK_SIZE, &chunk);
	if (rc == SQLITE_OK)
		rc = rec_writer_init_db(w);
	if (rc != SQLITE_OK) {
		rec_db_set_err(err, errlen, "%s: cannot create the recording (%s)", path,
			       w->db ? sqlite3_errmsg(w->db) : sqlite3_errstr(rc));
		rec_writer_free(w);
		unlink(path);
		return NULL;
	}
	return w;
}

void rec_writer_set_sync(struct rec_writer *w, int64_t every_ms)
{
	w->sync_ms = every_ms;
}

bool rec_writer_watched_note(const struct rec_writer *w, const struct snapshot *s, char *buf,
			     size_t len)
{
	struct stat st;
	if (!w || !w->path || stat(w->path, &st) != 0)
		return false;
	const struct dev_counters *d = snapshot_find_dev(s, major(st.st_dev), minor(st.st_dev));
	if (!d)
		return false;
	char when[48];
	if (w->sync_ms < 0)
		snprintf(when, sizeof when, "at close");
	else if (w->sync_ms == 0)
		snprintf(when, sizeof when, "every sample");
	else
		snprintf(when, sizeof when, "every %gs", (double)w->sync_ms / 1000);
	snprintf(buf, len, "recording %s is on %s, a device wbtop watches: its writes and flushes"
		 " there are partly wbtop's own (made durable %s, --rec-sync)", w->path, d->name, when);
	return true;
}

int64_t rec_writer_count(const struct rec_writer *w)
{
	return w ? w->seq : 0;
}

const char *rec_writer_errmsg(const struct rec_writer *w)
{
	return w ? w->errmsg : "";
}

/* Stop for good: keep the first reason. */
static int rec_writer_fail(struct rec_writer *w, int rc)
{
	if (w->err)
		return w->err;
	w->err = rec_db_errno(rc);
	if (!w->err)
		w->err = -EIO;
	if (w->err == -ENOSPC)
		snprintf(w->errmsg, sizeof w->errmsg, "%s: disk full: recording stopped after %" PRId64
			 " samples", w->path, w->seq);
	else
		snprintf(w->errmsg, sizeof w->errmsg, "%s: write failed (%s): recording stopped after %"
			 PRId64 " samples", w->path, sqlite3_errmsg(w->db), w->seq);
	return w->err;
}

/* Bytes of the database proper (page count times page size); -1 if
 * unknown or still in WAL mode (where the -wal file may hold pages). */
static int64_t rec_writer_db_bytes(struct rec_writer *w)
{
	sqlite3_stmt *st = NULL;
	int64_t v = -1;
	if (sqlite3_prepare_v2(w->db, "SELECT page_count * page_size, journal_mode FROM"
			       " pragma_page_count(), pragma_page_size(), pragma_journal_mode()",
			       -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
		const unsigned char *mode = sqlite3_column_text(st, 1);
		if (mode && strcmp((const char *)mode, "delete") == 0)
			v = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	return v;
}

int rec_writer_close(struct rec_writer *w, char *err, size_t errlen)
{
	if (!w)
		return 0;
	int rc = SQLITE_OK;
	if (!w->err) {
		/* "closed" tells a follower the recording is complete; DELETE
		 * mode folds the WAL in and leaves one self-contained file. */
		int chunk = 0;	/* the closed file ends at its last page */
		sqlite3_file_control(w->db, "main", SQLITE_FCNTL_CHUNK_SIZE, &chunk);
		rc = sqlite3_exec(w->db, "UPDATE meta SET value = 'closed' WHERE key = 'state'",
				  NULL, NULL, NULL);
		if (rc == SQLITE_OK)
			rc = sqlite3_wal_checkpoint_v2(w->db, NULL, SQLITE_CHECKPOINT_TRUNCATE, NULL, NULL);
		if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED)
			rc = SQLITE_OK;	/* a follower is reading: its WAL stays */
		else if (rc == SQLITE_OK)
			sqlite3_exec(w->db, "PRAGMA journal_mode = DELETE", NULL, NULL, NULL);
	}
	int r = 0;
	if (rc != SQLITE_OK) {
		r = rec_db_errno(rc);
		rec_db_set_err(err, errlen, "%s: closing the recording: %s", w->path, sqlite3_errmsg(w->db));
	}
	int64_t size = w->err || r ? -1 : rec_writer_db_bytes(w);
	char *path = w->path;
	w->path = NULL;
	rec_writer_free(w);
	/* Drop the growth chunk past the last page (nothing refers to it). */
	if (size > 0 && truncate(path, size) != 0 && !r) {
		r = -errno;
		rec_db_set_err(err, errlen, "%s: closing the recording: %s", path, strerror(errno));
	}
	free(path);
	return r;
}

/* ---- Devices ---------------------------------------------------------- */

static bool rec_writer_dev_same(const struct rec_wdev *a, const struct dev_counters *d)
{
	return a->major == d->major && a->minor == d->minor && a->nfields == d->nfields &&
	       strncmp(a->name, d->name, sizeof a->name) == 0 &&
	       (a->has_ident ? rec_schema_ident_equal(&a->ident, d->ident) : d->ident == NULL);
}

static bool rec_writer_dev_same_name(const struct rec_wdev *a, const struct dev_counters *d)
{
	return a->major == d->major && a->minor == d->minor &&
	       strncmp(a->name, d->name, sizeof a->name) == 0;
}

static int rec_writer_grow(struct rec_writer *w, size_t n)
{
	const struct grow_part parts[] = {
		{ (void **)&w->dev, sizeof *w->dev }, { (void **)&w->next, sizeof *w->next },
		{ (void **)&w->src, sizeof *w->src },
	};
	return grow_arrays(parts, sizeof parts / sizeof parts[0], &w->cap, n, 64) < 0 ? SQLITE_NOMEM : 0;
}

static void rec_writer_bind_text(sqlite3_stmt *st, int col, const char *s)
{
	if (s)
		sqlite3_bind_text(st, col, s, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, col);
}

static int rec_writer_step(sqlite3 *db, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc == SQLITE_DONE || rc == SQLITE_ROW ? SQLITE_OK : (rc ? rc : sqlite3_errcode(db));
}

/* A devices row for d, which starts at sample seq. */
static int rec_writer_insert_dev(struct rec_writer *w, const struct dev_counters *d,
				 bool appeared, int64_t *id)
{
	sqlite3_stmt *st = w->st[ST_DEV];
	const struct dev_ident *ident = d->ident;
	int c = 1;
	sqlite3_bind_text(st, c++, d->name, (int)strnlen(d->name, sizeof d->name), SQLITE_STATIC);
	sqlite3_bind_int64(st, c++, d->major);
	sqlite3_bind_int64(st, c++, d->minor);
	sqlite3_bind_int(st, c++, d->nfields);
	sqlite3_bind_int(st, c++, ident != NULL);
	for (size_t k = 0; k < rec_schema_nident_cols; k++)
		rec_writer_bind_text(st, c++, ident ? rec_schema_ident_str(ident, k) : NULL);
	if (ident) {
		sqlite3_bind_int(st, c++, ident->rotational);
		sqlite3_bind_int(st, c++, ident->partition);
		sqlite3_bind_int(st, c++, ident->has_bdi);
		for (size_t k = 0; k < KNOB_BDI_COUNT; k++)
			sqlite3_bind_int64(st, c++, ident->bdi[k]);
	} else {
		c += 3 + KNOB_BDI_COUNT;	/* left NULL */
	}
	sqlite3_bind_int64(st, c++, w->seq);
	sqlite3_bind_int(st, c++, appeared);
	int rc = rec_writer_step(w->db, st);
	*id = sqlite3_last_insert_rowid(w->db);
	return rc;
}

static int rec_writer_end_dev(struct rec_writer *w, const struct rec_wdev *old, bool vanished)
{
	sqlite3_stmt *st = w->st[ST_DEV_END];
	sqlite3_bind_int64(st, 1, w->seq - 1);
	sqlite3_bind_int(st, 2, vanished);
	sqlite3_bind_int64(st, 3, old->id);
	return rec_writer_step(w->db, st);
}

/* Index of the unused old entry that is the same device as d, or -1.
 * Lists are usually in the same order, so try the hint first. */
static long rec_writer_match(struct rec_writer *w, const struct dev_counters *d, size_t hint)
{
	if (hint < w->n && !w->dev[hint].used && rec_writer_dev_same(&w->dev[hint], d))
		return (long)hint;
	for (size_t j = 0; j < w->n; j++)
		if (!w->dev[j].used && rec_writer_dev_same(&w->dev[j], d))
			return (long)j;
	return -1;
}

static int rec_writer_new_entry(struct rec_writer *w, struct rec_wdev *e, const struct dev_counters *d)
{
	bool appeared = true;
	for (size_t j = 0; j < w->n && appeared; j++)
		appeared = !rec_writer_dev_same_name(&w->dev[j], d);
	memset(e, 0, sizeof *e);
	e->major = d->major;
	e->minor = d->minor;
	memcpy(e->name, d->name, sizeof e->name);
	e->nfields = d->nfields;
	e->has_ident = d->ident != NULL;
	if (d->ident && rec_schema_ident_copy(&e->ident, d->ident) < 0)
		return SQLITE_NOMEM;
	int rc = rec_writer_insert_dev(w, d, appeared, &e->id);
	if (rc)
		rec_schema_ident_clear(&e->ident);
	return rc;
}

/* After a failure half-way through a new list: free what only it owns. */
static void rec_writer_drop_new(struct rec_writer *w, size_t upto)
{
	for (size_t i = 0; i < upto; i++)
		if (w->src[i] < 0)
			rec_schema_ident_clear(&w->next[i].ident);
}

/* Build w->next for s (moving matched entries over); *changed when the
 * device list differs from the previous sample's. */
static int rec_writer_devices(struct rec_writer *w, const struct snapshot *s, bool *changed)
{
	int rc = rec_writer_grow(w, s->ndev > w->n ? s->ndev : w->n);
	if (rc)
		return rc;
	*changed = s->ndev != w->n;
	size_t hint = 0;
	for (size_t i = 0; i < s->ndev; i++) {
		long j = rec_writer_match(w, &s->dev[i], hint);
		w->src[i] = j;
		if (j >= 0) {
			w->next[i] = w->dev[j];
			w->dev[j].used = true;
			hint = (size_t)j + 1;
			*changed |= (size_t)j != i;
		} else {
			*changed = true;
			rc = rec_writer_new_entry(w, &w->next[i], &s->dev[i]);
			if (rc) {
				rec_writer_drop_new(w, i);
				return rc;
			}
		}
	}
	for (size_t j = 0; j < w->n; j++) {
		if (w->dev[j].used) {
			w->dev[j].used = false;
			continue;
		}
		bool vanished = true;
		for (size_t i = 0; i < s->ndev && vanished; i++)
			vanished = !rec_writer_dev_same_name(&w->dev[j], &s->dev[i]);
		rc = rec_writer_end_dev(w, &w->dev[j], vanished);
		if (rc) {
			rec_writer_drop_new(w, s->ndev);
			return rc;
		}
		rec_schema_ident_clear(&w->dev[j].ident);
		w->dev[j].has_ident = false;
	}
	for (size_t i = 0; i < s->ndev; i++)
		w->next[i].used = false;
	struct rec_wdev *t = w->dev;
	w->dev = w->next;
	w->next = t;
	w->n = s->ndev;
	return SQLITE_OK;
}

/* ---- Frames ----------------------------------------------------------- */

static void rec_writer_encode_key(struct rec_writer *w, const struct snapshot *s)
{
	struct rec_buf *b = &w->frame;
	uint8_t flags = REC_FRAME_KEY;
	rec_buf_put(b, &flags, 1);
	rec_buf_put_varint(b, w->n);
	int64_t prev_id = 0;
	for (size_t i = 0; i < w->n; i++) {
		int64_t d = w->dev[i].id - prev_id;
		rec_buf_put_varint(b, (uint64_t)d << 1 ^ (d < 0 ? UINT64_MAX : 0));
		prev_id = w->dev[i].id;
	}
	for (size_t i = 0; i < w->n; i++) {
		for (int f = 0; f < DS_NFIELDS; f++)
			rec_buf_put_varint(b, s->dev[i].f[f]);
		rec_codec_reset(&w->dev[i].st, s->dev[i].f);
	}
}

static void rec_writer_encode_delta(struct rec_writer *w, const struct snapshot *s, bool changed)
{
	struct rec_buf *b = &w->frame;
	uint8_t flags = changed ? REC_FRAME_NEWLIST : 0;
	rec_buf_put(b, &flags, 1);
	if (changed) {
		rec_buf_put_varint(b, w->n);
		for (size_t i = 0; i < w->n; i++) {
			if (w->src[i] < 0) {
				rec_buf_put_varint(b, 0);
				rec_buf_put_varint(b, (uint64_t)w->dev[i].id);
				rec_codec_reset(&w->dev[i].st, NULL);
			} else {
				rec_buf_put_varint(b, (uint64_t)w->src[i] + 1);
			}
		}
	}
	struct rec_bitw bw = { .b = b };
	rec_buf_reserve(b, w->n * REC_CODEC_MAX_BYTES + 8);
	for (size_t i = 0; i < w->n; i++)
		rec_codec_put(&bw, &w->dev[i].st, s->dev[i].f);
	rec_codec_flush_bits(&bw);
}

/* Append the frame to the stream: full rows as they fill, then the
 * partial last row (rewritten by the next sample, in its transaction). */
static int rec_writer_stream(struct rec_writer *w, const uint8_t *p, size_t n)
{
	int rc = SQLITE_OK;
	sqlite3_stmt *st = w->st[ST_FRAME];
	while (rc == SQLITE_OK && n) {
		size_t used = (size_t)(w->stream_bytes % REC_CHUNK_BYTES);
		size_t take = REC_CHUNK_BYTES - used < n ? REC_CHUNK_BYTES - used : n;
		memcpy(w->tail + used, p, take);
		w->stream_bytes += (int64_t)take;
		p += take;
		n -= take;
		if (n && w->stream_bytes % REC_CHUNK_BYTES)
			continue;	/* cannot happen: take fills the row */
		sqlite3_bind_int64(st, 1, (w->stream_bytes - 1) / REC_CHUNK_BYTES);
		sqlite3_bind_blob(st, 2, w->tail, (int)(used + take), SQLITE_STATIC);
		rc = rec_writer_step(w->db, st);
	}
	return rc;
}

static int rec_writer_put_frame(struct rec_writer *w, const struct snapshot *s, int keyframe)
{
	sqlite3_stmt *st = w->st[ST_SAMPLE];
	const struct rec_buf *b = &w->frame;
	int c = 1;
	sqlite3_bind_int64(st, c++, w->seq);
	sqlite3_bind_int64(st, c++, s->wall_ns);
	sqlite3_bind_int64(st, c++, (int64_t)s->mono_ns);
	sqlite3_bind_int64(st, c++, (int64_t)s->page_size);
	for (size_t k = 0; k < rec_schema_nsys_cols; k++)
		sqlite3_bind_int64(st, c++, (int64_t)rec_schema_sys_get(s, k));
	sqlite3_bind_int(st, c++, keyframe);
	sqlite3_bind_int64(st, c++, (int64_t)w->n);
	sqlite3_bind_int64(st, c++, w->stream_bytes);
	sqlite3_bind_int64(st, c++, (int64_t)b->len);
	sqlite3_bind_int64(st, c++, rec_crc_sample(w->seq, s, keyframe, (int64_t)w->n, b->p, b->len));
	int rc = rec_writer_step(w->db, st);
	return rc == SQLITE_OK ? rec_writer_stream(w, b->p, b->len) : rc;
}

/* ---- Marks ------------------------------------------------------------ */

static int rec_writer_knobs(struct rec_writer *w, const struct snapshot *s)
{
	int rc = SQLITE_OK;
	for (int k = 0; k < SNAP_NKNOBS && rc == SQLITE_OK; k++) {
		if (w->have_knobs && w->knob[k] == s->knob[k])
			continue;
		sqlite3_stmt *st = w->st[ST_KNOB];
		sqlite3_bind_int64(st, 1, w->seq);
		sqlite3_bind_text(st, 2, knob_vm_table[k].name, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 3, s->knob[k]);
		rc = rec_writer_step(w->db, st);
		w->knob[k] = s->knob[k];
	}
	w->have_knobs = true;
	return rc;
}

/* A mark, with its cause by name (NULL: none known): names, not numbers, so that a build
 * with more causes, or fewer, reads it. */
static int rec_writer_dip(struct rec_writer *w, const int64_t *dev_id, const char *cause)
{
	sqlite3_stmt *st = w->st[ST_DIP];
	sqlite3_bind_int64(st, 1, w->seq);
	if (dev_id)
		sqlite3_bind_int64(st, 2, *dev_id);
	else
		sqlite3_bind_null(st, 2);
	if (cause)
		sqlite3_bind_text(st, 3, cause, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, 3);
	return rec_writer_step(w->db, st);
}

static int rec_writer_dips(struct rec_writer *w, const struct rec_sample *v)
{
	int rc = v->sys_dip ? rec_writer_dip(w, NULL, v->dev_causes ? cause_name(v->sys_cause)
								      : NULL)
			    : SQLITE_OK;
	for (size_t i = 0; v->dev_dips && i < w->n && rc == SQLITE_OK; i++)
		if (v->dev_dips[i])
			rc = rec_writer_dip(w, &w->dev[i].id,
					    v->dev_causes ? cause_name(v->dev_causes[i]) : NULL);
	return rc;
}

/* ---- Processes -------------------------------------------------------- */

static int rec_writer_proc_row(struct rec_writer *w, int64_t seq, const struct proc_counters *p)
{
	sqlite3_stmt *st = w->st[ST_PROC];
	char state[2] = { p->state, '\0' };
	int c = 1;
	sqlite3_bind_int64(st, c++, seq);
	sqlite3_bind_int64(st, c++, p->pid);
	sqlite3_bind_text(st, c++, p->comm, (int)strnlen(p->comm, sizeof p->comm), SQLITE_STATIC);
	sqlite3_bind_text(st, c++, state, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, c++, p->kthread);
	sqlite3_bind_int(st, c++, p->io_hidden);
	sqlite3_bind_int64(st, c++, (int64_t)p->read_bytes);
	sqlite3_bind_int64(st, c++, (int64_t)p->write_bytes);
	sqlite3_bind_int64(st, c++, (int64_t)p->cancelled_write_bytes);
	sqlite3_bind_int64(st, c++, (int64_t)p->utime_jif);
	sqlite3_bind_int64(st, c++, (int64_t)p->stime_jif);
	sqlite3_bind_text(st, c++, p->wchan, (int)strnlen(p->wchan, sizeof p->wchan), SQLITE_STATIC);
	sqlite3_bind_int64(st, c++, p->flush_major);
	sqlite3_bind_int64(st, c++, p->flush_minor);
	return rec_writer_step(w->db, st);
}

/* The rows of the n ranked processes as they are in s, under seq, in pid
 * order (as a replay delivers them). */
static int rec_writer_proc_rows(struct rec_writer *w, const struct snapshot *s, int64_t seq, size_t n)
{
	int32_t pids[REC_PROCS_MAX];
	for (size_t a = 0; a < n; a++) {	/* insertion sort: n <= REC_PROCS_MAX */
		size_t b = a;
		for (; b > 0 && pids[b - 1] > w->rank[a].pid; b--)
			pids[b] = pids[b - 1];
		pids[b] = w->rank[a].pid;
	}
	/* both in pid order: one walk; a ranked pid may be absent from s (the
	 * sample before the one that ranked it, where it did not run yet) */
	int rc = SQLITE_OK;
	size_t k = 0;
	for (size_t i = 0; i < s->nproc && k < n && rc == SQLITE_OK; i++) {
		while (k < n && pids[k] < s->proc[i].pid)
			k++;
		if (k < n && pids[k] == s->proc[i].pid) {
			rc = rec_writer_proc_row(w, seq, &s->proc[i]);
			k++;
		}
	}
	return rc;
}

/* The processes of s that matter: procs_rank's, the ranking the pane and -P
 * show, over the interval from the last sample, at most REC_PROCS_MAX.  A
 * sample with no processes before it has no interval to rank: its rows wait
 * for the next sample's ranking, which stores the same processes under both
 * (so a replay's first interval has the rates the live one had).  Then s's
 * processes become the previous ones (all of them: the next interval's
 * rates are measured for everyone). */
static int rec_writer_procs(struct rec_writer *w, const struct snapshot *s)
{
	int rc = SQLITE_OK;
	bool ranked = w->prevp.nproc && s->nproc;
	if (ranked) {
		double dt_s = s->mono_ns > w->prevp.mono_ns ? (double)(s->mono_ns - w->prevp.mono_ns) / 1e9 : 0.0;
		size_t n = procs_rank(&w->prevp, s, dt_s, w->rank, REC_PROCS_MAX, NULL);
		rc = rec_writer_proc_rows(w, s, w->seq, n);
		if (rc == SQLITE_OK && w->prevp_unstored)
			rc = rec_writer_proc_rows(w, &w->prevp, w->prevp_seq, n);
	}
	if (rc != SQLITE_OK)
		return rc;
	struct snapshot procs_only = *s;
	procs_only.ndev = 0;	/* procs_rank looks up no device of the previous sample */
	if (snapshot_copy(&w->prevp, &procs_only) < 0)
		return SQLITE_NOMEM;
	w->prevp_seq = w->seq;
	w->prevp_unstored = s->nproc && !ranked;
	return SQLITE_OK;
}

/* The values beside the fixed blocks, one row each, by kind name (a reader
 * that lacks a kind skips it).  A sample without any costs nothing. */
static int rec_writer_extras(struct rec_writer *w, const struct snapshot *s)
{
	sqlite3_stmt *st = w->st[ST_EXTRA];
	int rc = SQLITE_OK;
	for (size_t i = 0; i < s->nx && rc == SQLITE_OK; i++) {
		const struct snap_xkind *k = snapshot_xkind_find(s->x[i].scope, s->x[i].kind);
		if (!k)
			continue;
		sqlite3_bind_int64(st, 1, w->seq);
		sqlite3_bind_int64(st, 2, (int64_t)s->x[i].obj);	/* bits kept: read back as uint64_t */
		sqlite3_bind_text(st, 3, k->name, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 4, (int64_t)s->x[i].value);
		rc = rec_writer_step(w->db, st);
	}
	return rc;
}

/* The names of the cgroups the sample has values of, one row each: a
 * replay on another machine names them as they were. */
static int rec_writer_cgroups(struct rec_writer *w, const struct snapshot *s)
{
	sqlite3_stmt *st = w->st[ST_CGROUP];
	int rc = SQLITE_OK;
	for (size_t i = 0; i < s->ncg && rc == SQLITE_OK; i++) {
		sqlite3_bind_int64(st, 1, w->seq);
		sqlite3_bind_int64(st, 2, (int64_t)s->cg[i].ino);
		sqlite3_bind_text(st, 3, s->cg[i].path, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 4, s->cg[i].gone);
		rc = rec_writer_step(w->db, st);
	}
	return rc;
}

/* ---- Appending -------------------------------------------------------- */

/* Everything of one sample, inside the caller's transaction. */
static int rec_writer_put(struct rec_writer *w, const struct rec_sample *v)
{
	const struct snapshot *s = v->snap;
	bool changed;
	int rc = rec_writer_devices(w, s, &changed);
	if (rc)
		return rc;
	int keyframe = w->last_key < 0 || w->seq - w->last_key >= REC_KEYFRAME_MAX ||
		       w->bytes_since_key >= (size_t)REC_KEYFRAME_RATIO * w->key_bytes;
	w->frame.len = 0;
	if (keyframe)
		rec_writer_encode_key(w, s);
	else
		rec_writer_encode_delta(w, s, changed);
	if (w->frame.oom)
		return SQLITE_NOMEM;
	rc = rec_writer_put_frame(w, s, keyframe);
	if (rc == SQLITE_OK)
		rc = rec_writer_knobs(w, s);
	if (rc == SQLITE_OK)
		rc = rec_writer_dips(w, v);
	if (rc == SQLITE_OK && (s->nproc || w->prevp.nproc))
		rc = rec_writer_procs(w, s);
	if (rc == SQLITE_OK && s->nx)
		rc = rec_writer_extras(w, s);
	if (rc == SQLITE_OK && s->ncg)
		rc = rec_writer_cgroups(w, s);
	if (rc == SQLITE_OK) {
		if (keyframe) {
			w->last_key = w->seq;
			w->key_bytes = w->frame.len;
			w->bytes_since_key = 0;
		} else {
			w->bytes_since_key += w->frame.len;
		}
		w->seq++;
	}
	return rc;
}

/* Copy the WAL into the main file (see the top comment).  A reader in the
 * middle of a read only holds part of it back until next time. */
static int rec_writer_checkpoint(struct rec_writer *w)
{
	int rc = sqlite3_wal_checkpoint_v2(w->db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
	return rc == SQLITE_BUSY || rc == SQLITE_LOCKED ? SQLITE_OK : rc;
}

/* Checkpoint after the sample taken at mono_ns when the sync period says
 * so.  The first sample is checkpointed at once, so that a copy of the
 * main file holds an interval soon after the start; the period counts in
 * sample time, so a replayed or saved history behaves as the live run. */
static int rec_writer_sync_due(struct rec_writer *w, uint64_t mono_ns)
{
	if (w->sync_ms < 0)
		return SQLITE_OK;
	if (w->ckpt_mono_ns && mono_ns >= w->ckpt_mono_ns &&
	    mono_ns - w->ckpt_mono_ns < (uint64_t)w->sync_ms * 1000000u)
		return SQLITE_OK;
	w->ckpt_mono_ns = mono_ns ? mono_ns : 1;
	return rec_writer_checkpoint(w);
}

int rec_writer_append_list(struct rec_writer *w, const struct rec_sample *v, size_t n)
{
	if (w->err)
		return w->err;
	int64_t seq0 = w->seq;
	int rc = rec_writer_step(w->db, w->st[ST_BEGIN]);
	for (size_t i = 0; i < n && rc == SQLITE_OK; i++)
		rc = rec_writer_put(w, &v[i]);
	if (rc == SQLITE_OK)
		rc = rec_writer_step(w->db, w->st[ST_COMMIT]);
	if (rc != SQLITE_OK) {
		if (!sqlite3_get_autocommit(w->db))
			rec_writer_step(w->db, w->st[ST_ROLLBACK]);
		w->seq = seq0;	/* for the message: what the file holds */
		return rec_writer_fail(w, rc);
	}
	/* Committed: the samples are safe in the WAL even if copying them
	 * into the main file fails (then the writer stops all the same). */
	rc = n ? rec_writer_sync_due(w, v[n - 1].snap->mono_ns) : SQLITE_OK;
	return rc == SQLITE_OK ? 0 : rec_writer_fail(w, rc);
}

int rec_writer_append(struct rec_writer *w, const struct snapshot *s, bool sys_dip,
		      const bool *dev_dips)
{
	struct rec_sample one = { s, sys_dip, dev_dips, NULL, 0 };
	return rec_writer_append_list(w, &one, 1);
}

int rec_writer_event(struct rec_writer *w, const struct wb_event *e)
{
	if (w->err)
		return w->err;
	sqlite3_stmt *st = w->st[ST_EVENT];
	sqlite3_bind_int64(st, 1, w->seq);
	sqlite3_bind_int64(st, 2, e->wall_ns);
	sqlite3_bind_text(st, 3, e->knob, (int)strnlen(e->knob, sizeof e->knob), SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, e->old_value);
	sqlite3_bind_int64(st, 5, e->new_value);
	sqlite3_bind_int64(st, 6, e->read_back);
	sqlite3_bind_int(st, 7, e->result);
	sqlite3_bind_text(st, 8, e->note, (int)strnlen(e->note, sizeof e->note), SQLITE_STATIC);
	int rc = rec_writer_step(w->db, st);
	if (rc == SQLITE_OK)
		rc = rec_writer_checkpoint(w);
	return rc == SQLITE_OK ? 0 : rec_writer_fail(w, rc);
}

int rec_writer_set_meta(struct rec_writer *w, const char *key, const char *value)
{
	if (w->err)
		return w->err;
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(w->db, "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", -1,
				    &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, value, -1, SQLITE_STATIC);
		rc = rec_writer_step(w->db, st);
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_OK)
		rc = rec_writer_checkpoint(w);
	return rc == SQLITE_OK ? 0 : rec_writer_fail(w, rc);
}

int rec_writer_save(const char *path, const struct rec_sample *v, size_t n, char *err,
		    size_t errlen)
{
	struct rec_writer *w = rec_writer_open(path, err, errlen);
	if (!w)
		return -EIO;
	int r = rec_writer_append_list(w, v, n);
	if (r < 0) {
		rec_db_set_err(err, errlen, "%s", w->errmsg);
		rec_writer_close(w, NULL, 0);
		return r;
	}
	return rec_writer_close(w, err, errlen);
}

/* ---- the sink ------------------------------------------------------------ */

/* Every sample, the baseline too (a replay needs it), with its marks. */
static int rec_writer_sink_frame(struct sink *s, const struct frame *f)
{
	struct rec_sample one = rec_sample_of(f);
	int rc = rec_writer_append_list(s->impl, &one, 1);
	if (rc < 0)
		snprintf(s->errmsg, sizeof s->errmsg, "%s", rec_writer_errmsg(s->impl));
	return rc;
}

static int rec_writer_sink_event(struct sink *s, const struct wb_event *e)
{
	return rec_writer_event(s->impl, e);
}

static int rec_writer_sink_close(struct sink *s)
{
	return rec_writer_close(s->impl, s->errmsg, sizeof s->errmsg);
}

static const struct sink_ops rec_writer_sink_ops = {
	.kind = "recorder",
	.frame = rec_writer_sink_frame,
	.event = rec_writer_sink_event,
	.close = rec_writer_sink_close,
};

struct sink *rec_writer_sink(struct rec_writer *w)
{
	return sink_new(&rec_writer_sink_ops, w);
}
