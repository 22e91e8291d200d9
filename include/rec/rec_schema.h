/*
 * rec_schema.h - what the recording modules share and nobody else needs:
 * the schema text, the column tables, the packed counter codec, the
 * checksum, and the error wording.
 *
 * The codec is pure (buffers in, buffers out) so it can be tested and
 * fuzzed without a database.  Nothing here opens a file except
 * rec_db_open_read(), the one validating opener used by replay, export
 * and compare.
 */
#ifndef WBTOP_REC_SCHEMA_H
#define WBTOP_REC_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/hashidx.h"
#include "core/ident.h"
#include "core/snapshot.h"

struct sqlite3;
struct source;

#define REC_FORMAT_NAME "wbtop-recording"
#define REC_STR_(x) #x
#define REC_STR(x) REC_STR_(x)
/* A full keyframe once the delta frames since the last one add up to
 * REC_KEYFRAME_RATIO times its size, or after REC_KEYFRAME_MAX samples:
 * keyframes then cost about 1/RATIO of the file, and a seek decodes at
 * most RATIO keyframes' worth of bytes (busy devices: a keyframe every
 * few hundred samples; idle ones, whose deltas are a bit each: every MAX). */
#define REC_KEYFRAME_RATIO 64
#define REC_KEYFRAME_MAX 2048
/* The frames of all samples form one byte stream, stored in rows of
 * exactly this many bytes (the last one shorter, growing): four such rows
 * fill a 4 KiB page to the last few bytes, whatever the sample sizes (one
 * 2.1 KiB frame per row would leave half of every page empty). */
#define REC_CHUNK_BYTES 1008
/* The recorder grows the main file this much at a time. */
#define REC_GROW_BYTES (64 * 1024)
/* Processes stored per sample at most (the procs table): the writers, D-state
 * tasks, flush workers and kswapd that matter most (rec_write.c says how
 * they are chosen). */
#define REC_PROCS_MAX 32

/* The frame's first byte. */
enum {
	REC_FRAME_KEY = 1,	/* device list and absolute counters */
	REC_FRAME_NEWLIST = 2	/* delta frame whose device list changed */
};

extern const char rec_schema_sql[];

/* ---- Column tables ---------------------------------------------------- */

/* A uint64_t of struct snapshot stored as a samples column. */
struct rec_sys_col {
	const char *name;
	size_t offset;
};
extern const struct rec_sys_col rec_sys_cols[];
extern const size_t rec_nsys_cols;

/* A string of struct dev_ident stored as a devices column. */
struct rec_ident_col {
	const char *name;
	size_t offset;
};
extern const struct rec_ident_col rec_ident_cols[];
extern const size_t rec_nident_cols;
/* devices columns for the BDI limits, indexed by enum knob_bdi. */
extern const char *const rec_bdi_cols[KNOB_BDI_COUNT];

/* The columns of the samples table after its key (time, system counters,
 * where the sample's device frame is), in the order the writer binds and
 * the reader selects them, into cols; returns how many (about 40). */
size_t rec_sample_desc_cols(const char **cols);

/* The columns of the devices table that describe a device (name, numbers,
 * identity, BDI limits), in the order the writer stores and the reader
 * selects them, into cols; returns how many (about 30: the callers' arrays
 * of 64 leave room for their own). */
size_t rec_device_desc_cols(const char **cols);

uint64_t rec_sys_get(const struct snapshot *s, size_t col);
void rec_sys_set(struct snapshot *s, size_t col, uint64_t v);
const char *rec_ident_str(const struct dev_ident *id, size_t col);
/* Whether two identities have the same content (both may be NULL). */
bool rec_ident_equal(const struct dev_ident *a, const struct dev_ident *b);
/* Deep copy into dst (zeroed or cleared); 0 or -ENOMEM. */
int rec_ident_copy(struct dev_ident *dst, const struct dev_ident *src);
void rec_ident_clear(struct dev_ident *id);

/* ---- Byte buffer, varints, bits --------------------------------------- */

struct rec_buf {
	uint8_t *p;
	size_t len, cap;
	bool oom;		/* an append failed: the content is incomplete */
};
void rec_buf_free(struct rec_buf *b);
void rec_buf_put(struct rec_buf *b, const void *data, size_t n);
/* Make room for n more bytes (so appends do not reallocate). */
void rec_buf_reserve(struct rec_buf *b, size_t n);
void rec_buf_varint(struct rec_buf *b, uint64_t v);
/* Read a varint at *p (advanced); false past end or over 64 bits. */
bool rec_get_varint(const uint8_t **p, const uint8_t *end, uint64_t *v);

struct rec_bitw {
	struct rec_buf *b;
	uint64_t acc;
	unsigned nacc;
};
void rec_bitw_put(struct rec_bitw *w, uint64_t v, unsigned nbits);	/* nbits <= 64 */
void rec_bitw_flush(struct rec_bitw *w);

struct rec_bitr {
	const uint8_t *p, *end;
	uint64_t acc;
	unsigned nacc;
	bool bad;		/* read past the end */
};
uint64_t rec_bitr_get(struct rec_bitr *r, unsigned nbits);		/* nbits <= 64 */

/* ---- Counter codec ---------------------------------------------------- */

#define REC_NPRED 3

/* What encoder and decoder both remember of one device between samples.
 * Reset by every keyframe, so decoding can start at any keyframe.  Each
 * field is coded with one of up to REC_NPRED predictors of its delta (see
 * rec_schema.c), whichever has lately left the smallest residuals. */
struct rec_codec_dev {
	uint64_t prev[DS_NFIELDS];
	uint64_t delta[DS_NFIELDS];		/* last sample's deltas (mod 2^64) */
	uint16_t cost[REC_NPRED][DS_NFIELDS];	/* decaying sums of each predictor's residual widths */
	uint32_t mask;				/* fields that changed last time */
};

/* The most bytes one device's delta can take. */
#define REC_CODEC_MAX_BYTES (1 + (2 + DS_NFIELDS + DS_NFIELDS * (2 + 6 + 64)) / 8)

/* Encode f against st (updated) as delta bits. */
void rec_codec_put(struct rec_bitw *w, struct rec_codec_dev *st, const uint64_t f[DS_NFIELDS]);
/* Decode one device's delta into st->prev; false on malformed input. */
bool rec_codec_get(struct rec_bitr *r, struct rec_codec_dev *st);
/* Start a device's state from absolute counters (keyframe, new device). */
void rec_codec_reset(struct rec_codec_dev *st, const uint64_t f[DS_NFIELDS]);

/* ---- Id map ------------------------------------------------------------ */

/* devices.id -> a small index, for ids read from files: a damaged file may
 * hold any id, so nothing is sized by the ids themselves. */
struct rec_idmap {
	int64_t *ids;		/* n of them; vals[k] is ids[k]'s value */
	size_t *vals;
	size_t cap, n;		/* room in both arrays */
	struct hashidx index;	/* id -> k */
};
/* The value of id, or SIZE_MAX. */
size_t rec_idmap_get(const struct rec_idmap *m, int64_t id);
/* Set id's value; 0 or -ENOMEM. */
int rec_idmap_put(struct rec_idmap *m, int64_t id, size_t val);
void rec_idmap_free(struct rec_idmap *m);

/* ---- Checksum, errors, opening ---------------------------------------- */

uint32_t rec_crc32(uint32_t crc, const void *data, size_t n);
/* The checksum of a sample: its row values and its frame. */
uint32_t rec_sample_crc(int64_t seq, const struct snapshot *s, int keyframe, int64_t ndev,
			const uint8_t *frame, size_t nframe);

/* -errno for an SQLite result code. */
int rec_sqlite_errno(int rc);
/* snprintf into err when err is not NULL. */
void rec_set_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Open path read-only after checking it is a wbtop recording of a schema
 * this build reads.  follow: see other writers' new samples (no immutable
 * open).  *unfinished: the file was not closed by its writer (it is being
 * written, the writer died, or it is a copy taken mid-write), so its last
 * pages may be missing.  0 or -errno with "PATH: reason" in err. */
int rec_db_open_read(const char *path, bool follow, struct sqlite3 **out, bool *unfinished,
		     char *err, size_t errlen);

/* Inside the recording modules: the devices row id of each device of the
 * snapshot the replay source delivered last (NULL before the first). */
const int64_t *rec_replay_dev_ids(struct source *src);

#endif
