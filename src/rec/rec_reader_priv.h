/*
 * rec_reader_priv.h - the replay's state, shared by the files of the replay
 * only: rec_reader.c (statements, errors), rec_decode.c (frames into
 * snapshots), rec_marks.c (knob values, dips, events) and rec_replay.c
 * (the source, navigation).  Everyone else uses rec.h.  Functions that
 * can fail return 0 or -errno with "PATH: reason" in rp->src.errmsg unless
 * they say otherwise; none prints.
 */
#ifndef WBTOP_REC_READER_PRIV_H
#define WBTOP_REC_READER_PRIV_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/event.h"
#include "core/ident.h"
#include "rec/rec_buf.h"
#include "rec/rec_codec.h"
#include "rec/rec_idmap.h"
#include "core/snapshot.h"
#include "core/source.h"

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
struct rec_diprow { int64_t seq; int64_t dev; uint8_t cause; };	/* dev 0: system-wide */

enum rec_rstmt {
	RS_SAMPLE, RS_FRAMES, RS_WHERE, RS_DEV, RS_KEY, RS_MAX, RS_MIN, RS_WALL, RS_STATE,
	RS_KNOBS, RS_DIPS, RS_EVENTS,
	RS_PROCS,			/* NULL in a file written before the procs table */
	RS_EXTRAS,			/* NULL in a file written before the extras table */
	RS_CGROUPS,			/* NULL in a file written before the cgroups table */
	RS_COUNT
};

struct rec_replay {
	struct source src;
	sqlite3 *db;
	char *path;
	bool follow;
	bool tolerant;			/* unfinished file: its tail may be cut */
	int64_t wbtop_pid;		/* the recorder's own pid (meta wbtop_pid), 0 unknown */
	sqlite3_stmt *st[RS_COUNT];
	struct ident_table *idents;
	struct rec_row *rows;		/* devices rows read so far */
	size_t nrows, cap_rows;
	struct rec_idmap row_of_id;
	struct rec_rdev *act, *tmp;	/* decoded device list of state_seq */
	size_t nact, cap;
	int64_t *dev_ids;		/* ids of the delivered snapshot's devices */
	bool *dev_dips;
	uint8_t *dev_causes;		/* the causes of dev_dips, when has_causes */
	bool has_causes;		/* the dips table has them (a file written since they were) */
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

/* Prepare every statement of st[] (a table the file lacks leaves its
 * statement NULL); an SQLite result code. */
int rec_reader_prepare(struct rec_replay *rp);
/* Set rp->src.errmsg to "PATH: " and the printf text; returns err. */
int rec_reader_fail(struct rec_replay *rp, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* rec_reader_fail for SQLite result rc while reading sample seq (-EIO when rc
 * maps to no errno). */
int rec_reader_sqlfail(struct rec_replay *rp, int rc, int64_t seq);
/* One integer from statement stmt (enum rec_rstmt) with one optional int64
 * parameter: 0 with *v set, 1 when there is no row or the value is NULL,
 * or -errno (no message set). */
int rec_reader_int(struct rec_replay *rp, int stmt, const int64_t *arg, int64_t *v);
/* Text column col of st into dst (len bytes, terminated, cut to fit; NULL
 * gives ""). */
void rec_reader_text(char *dst, size_t len, sqlite3_stmt *st, int col);
/* The last seq of the replay as of now: rp->last, or for a followed
 * recording its newest sample if that comes first (-1 if it has none). */
int64_t rec_reader_last(struct rec_replay *rp);

#endif
