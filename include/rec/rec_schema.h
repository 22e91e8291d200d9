/*
 * rec_schema.h - the recording format as its modules share it (nobody else
 * needs it): its name, the framing constants, and the column tables of
 * the samples and devices tables.  The codec is rec_codec.h, the checksum
 * rec_crc.h, opening a file rec_db.h.
 */
#ifndef WBTOP_REC_SCHEMA_H
#define WBTOP_REC_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/ident.h"
#include "core/snapshot.h"

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
 * tasks, flush workers and kswapd that matter most (rec_writer.c says how
 * they are chosen). */
#define REC_PROCS_MAX 32

/* The frame's first byte. */
enum {
	REC_FRAME_KEY = 1,	/* device list and absolute counters */
	REC_FRAME_NEWLIST = 2	/* delta frame whose device list changed */
};

/* ---- Column tables ---------------------------------------------------- */

/* A uint64_t of struct snapshot stored as a samples column. */
struct rec_sys_col {
	const char *name;
	size_t offset;
};
extern const struct rec_sys_col rec_schema_sys_cols[];
extern const size_t rec_schema_nsys_cols;

/* A string of struct dev_ident stored as a devices column. */
struct rec_ident_col {
	const char *name;
	size_t offset;
};
extern const struct rec_ident_col rec_schema_ident_cols[];
extern const size_t rec_schema_nident_cols;
/* devices columns for the BDI limits, indexed by enum knob_bdi. */
extern const char *const rec_schema_bdi_cols[KNOB_BDI_COUNT];

/* The columns of the samples table after its key (time, system counters,
 * where the sample's device frame is), in the order the writer binds and
 * the reader selects them, into cols; returns how many (about 40). */
size_t rec_schema_sample_cols(const char **cols);

/* The columns of the devices table that describe a device (name, numbers,
 * identity, BDI limits), in the order the writer stores and the reader
 * selects them, into cols; returns how many (about 30: the callers' arrays
 * of 64 leave room for their own). */
size_t rec_schema_device_cols(const char **cols);

uint64_t rec_schema_sys_get(const struct snapshot *s, size_t col);
void rec_schema_sys_set(struct snapshot *s, size_t col, uint64_t v);
const char *rec_schema_ident_str(const struct dev_ident *id, size_t col);
/* Whether two identities have the same content (both may be NULL). */
bool rec_schema_ident_equal(const struct dev_ident *a, const struct dev_ident *b);
/* Deep copy into dst (zeroed or cleared); 0 or -ENOMEM. */
int rec_schema_ident_copy(struct dev_ident *dst, const struct dev_ident *src);
void rec_schema_ident_clear(struct dev_ident *id);

#endif
