/*
 * rec.h - recordings: write a session to an SQLite file, replay it as a
 * source, export it as CSV or JSON Lines (comparing them is compare.h).
 * A recording keeps raw cumulative counters, never only rates, so replay
 * derives every figure as it was live (doc/recording.md: the schema).
 * Nothing here prints or exits: 0 or -errno and, where it says so, a
 * one-line reason naming the file.  A replay is a plain struct source
 * (source.h); the views consume it like a live one.
 */
#ifndef WBTOP_REC_H
#define WBTOP_REC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/derive.h"
#include "core/detect.h"
#include "core/event.h"
#include "core/pipeline.h"
#include "core/snapshot.h"
#include "core/source.h"

/* The schema this wbtop writes and the newest one it reads. */
#define REC_SCHEMA_VERSION 1

/* ---- Writing ---------------------------------------------------------- */

struct rec_writer;

/* Create a new recording at path; an existing non-empty file is refused
 * (never overwritten).  NULL on failure with "PATH: reason" in err. */
struct rec_writer *rec_writer_open(const char *path, char *err, size_t errlen);

/* How often the recording is made durable: the WAL copied into the main
 * file, with the two fsyncs that takes, at most once per every_ms of
 * sample time (0: after every sample; < 0: only at close).  Until then the
 * samples are committed to the WAL in the page cache: safe from a killed
 * wbtop, not from a power cut.  The default is REC_SYNC_DEFAULT_MS. */
#define REC_SYNC_DEFAULT_MS 5000
void rec_writer_set_sync(struct rec_writer *w, int64_t every_ms);

/* Append one sample in one transaction: s's counters, knob values that
 * changed, devices that appeared or vanished, and the dips of this interval
 * (dev_dips has s->ndev entries, same order, or is NULL), without causes (a
 * frame's sample has them: rec_sample_of, rec_writer_append_list).  0 or -errno;
 * after a failure the writer is stopped and every later call returns the
 * same error (rec_writer_errmsg says why). */
int rec_writer_append(struct rec_writer *w, const struct snapshot *s, bool sys_dip,
		      const bool *dev_dips);

/* One sample for rec_writer_append_list(). */
struct rec_sample {
	const struct snapshot *snap;
	bool sys_dip;
	const bool *dev_dips;	/* snap->ndev entries, or NULL */
	const uint8_t *dev_causes;	/* each mark's cause (enum dip_cause), or NULL: none known */
	uint8_t sys_cause;
};

/* A frame's sample with its marks and their causes (valid as the frame is). */
static inline struct rec_sample rec_sample_of(const struct frame *f)
{
	return (struct rec_sample){ f->cur, f->sys_dip, f->dev_dip, f->dev_cause, f->sys_cause };
}

/* Append n samples in one transaction (saving the screen's history). */
int rec_writer_append_list(struct rec_writer *w, const struct rec_sample *v, size_t n);

/* Store a knob-change event; it belongs to the next sample appended. */
int rec_writer_event(struct rec_writer *w, const struct wb_event *e);

/* When the recording's file lives on a device of s (the one st_dev names),
 * a one-line note saying so into buf, and true: what wbtop then reports
 * for that device includes its own writes and the flushes of making the
 * recording durable.  false (buf untouched) otherwise. */
bool rec_writer_watched_note(const struct rec_writer *w, const struct snapshot *s, char *buf,
			     size_t len);
/* Store a note about the run in the meta table (key "case", "command",
 * ...; doc/recording.md lists them), replacing an earlier value of key.
 * 0 or -errno; a failure stops the writer as an append does. */
int rec_writer_set_meta(struct rec_writer *w, const char *key, const char *value);

/* Samples stored so far. */
int64_t rec_writer_count(const struct rec_writer *w);

/* Why the writer stopped ("" while it works).  Valid until close. */
const char *rec_writer_errmsg(const struct rec_writer *w);

/* Finish the file (a self-contained file, no -wal beside it) and free w.
 * NULL is a no-op.  0 or -errno, with a reason in err (may be NULL). */
int rec_writer_close(struct rec_writer *w, char *err, size_t errlen);

/* The recorder as a sink (sink.h), owning w: every frame appended (the
 * baseline too) with its marks, every event kept with the next; closing it
 * closes w.  NULL when out of memory (w is closed then). */
struct sink;
struct sink *rec_writer_sink(struct rec_writer *w);

/* Write a whole list of samples to a new file at path (the screen's "save
 * history" key).  0 or -errno with a reason in err. */
int rec_writer_save(const char *path, const struct rec_sample *v, size_t n, char *err,
		    size_t errlen);

/* ---- Replay ----------------------------------------------------------- */

/* Open a recording as a source (ops->kind "replay").  Its snapshots are
 * bit-exact copies of the recorded ones (of their processes, the ones
 * stored: up to REC_PROCS_MAX, sorted by pid); dev[i].ident points into an
 * identity table the source owns.  follow: at the end, next() returns
 * -EAGAIN until the writer appends another sample (or 1 once it closed the
 * file); without it the source ends at the last sample present at open.
 * NULL on failure with "PATH: reason" in err (not a recording, newer
 * format, truncated, damaged). */
struct source *rec_replay_open(const char *path, bool follow, char *err, size_t errlen);

/* Devices of the recording that share an identity key (recorded before
 * wbtop kept a stack's members apart: a dm device and its disk under one
 * filesystem UUID; cloned filesystems), as one sentence into buf: "2 identity
 * keys shared by devices of this recording (fs:4a1b.. by dm-0 and vda; ...):
 * each is listed on its own, by its name (...)".  Both
 * devices of a key are replayed, each by its own name; this is to say it
 * once.  0 with buf empty when none is, 1 when some are, -errno. */
int rec_replay_shared_keys(struct source *src, char *buf, size_t len);

/* Whether src is a replay source. */
bool rec_replay_is(const struct source *src);

/* The devices row id of each device of the snapshot next() delivered last
 * (NULL before the first): what keys a device across a recording (export,
 * series). */
const int64_t *rec_replay_dev_ids(struct source *src);

/* Restrict the replay to samples from begin to end (either may be NULL);
 * see rec_time_parse for the forms.  Indices below then count from begin.
 * The samples before begin are still delivered first, as the lead
 * (snapshot.h), so that the detectors' marks and depths are the whole file's.
 * 0, or -EINVAL / -ERANGE with a reason in err. */
int rec_replay_limit(struct source *src, const char *begin, const char *end, char *err,
		     size_t errlen);

/* Navigation for the screen.  An index numbers the samples of the replay
 * (within the limit) from 0; next() delivers the sample at rec_replay_tell()
 * and advances it.  Negative returns are -errno. */
int64_t rec_replay_count(struct source *src);	/* samples now in the replay */
int64_t rec_replay_tell(struct source *src);	/* index next() delivers next */
/* Make next() deliver sample index (0..count; count = at the end). */
int rec_replay_seek(struct source *src, int64_t index);
/* Index of the first sample at or after wall_ns (count if none). */
int64_t rec_replay_find_time(struct source *src, int64_t wall_ns);
/* CLOCK_REALTIME of sample index. */
int64_t rec_replay_wall_ns(struct source *src, int64_t index);

/* What marks a sample, for rec_replay_next_mark(). */
enum rec_mark_kind {
	REC_MARK_DIP = 1,	/* a system-wide or device dip */
	REC_MARK_KNOB = 2	/* a knob changed value, or a knob-change event */
};
/* Index of the nearest sample after (dir > 0) or before (dir < 0) index
 * from with a mark of one of kinds; -ENOENT if there is none. */
int64_t rec_replay_next_mark(struct source *src, int64_t from, int dir, unsigned kinds);

/* The marks of the sample next() delivered last (struct source_marks,
 * source.h; what source_marks() asks of a replay); arrays are valid until
 * the next call on src.  0, or -ENOENT before the first next(). */
int rec_replay_marks(struct source *src, struct source_marks *out);

/* Parse a time for --begin/--end: "HH:MM:SS" (the first such local time at
 * or after start_wall_ns, the start of the recording), "YYYY-MM-DD
 * HH:MM:SS" (local time; a 'T' may replace the space), or seconds since the
 * epoch ("1714550400", fractions allowed).  0 or -EINVAL. */
int rec_time_parse(const char *text, int64_t start_wall_ns, int64_t *out_ns);

/* The meta value of key in the recording at path into buf ("" when the
 * recording has none).  0 or -errno with "PATH: reason" in err. */
int rec_meta_get(const char *path, const char *key, char *buf, size_t len, char *err, size_t errlen);

/* ---- Export and compare ----------------------------------------------- */

enum rec_format { REC_FMT_CSV, REC_FMT_JSON };

/* Write the recording at path, limited to begin..end (NULL = all), as CSV
 * (one row per interval, a fixed block of columns per stable device key)
 * or JSON Lines (jsonl.h: one object per interval) to out.  The dip
 * marks are the recorded ones, or with dip (--dip given) the detector's at
 * that sensitivity (pipeline.h: the rule of every sink).  0 or -errno with
 * "PATH: reason" in err. */
int rec_export(const char *path, enum rec_format fmt, const char *begin, const char *end,
	       const struct dip_params *dip, FILE *out, char *err, size_t errlen);

#endif
