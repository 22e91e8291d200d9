/*
 * rec_codec.h - the packed per-device counters of a recording's delta
 * frames: a bit stream and the adaptive codec on it.  Pure (buffers in,
 * buffers out), so it can be tested and fuzzed without a database; for the
 * recording modules only.  doc/recording.md ("Frames") gives the bits.
 */
#ifndef WBTOP_REC_CODEC_H
#define WBTOP_REC_CODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/snapshot.h"
#include "rec/rec_buf.h"

/* ---- Bits, least significant first ------------------------------------ */

struct rec_bitw {
	struct rec_buf *b;
	uint64_t acc;
	unsigned nacc;
};
void rec_codec_put_bits(struct rec_bitw *w, uint64_t v, unsigned nbits);	/* nbits <= 64 */
void rec_codec_flush_bits(struct rec_bitw *w);

struct rec_bitr {
	const uint8_t *p, *end;
	uint64_t acc;
	unsigned nacc;
	bool bad;		/* read past the end */
};
uint64_t rec_codec_get_bits(struct rec_bitr *r, unsigned nbits);	/* nbits <= 64 */

/* ---- Counter codec ---------------------------------------------------- */

#define REC_NPRED 3

/* What encoder and decoder both remember of one device between samples.
 * Reset by every keyframe, so decoding can start at any keyframe.  Each
 * field is coded with one of up to REC_NPRED predictors of its delta (see
 * rec_codec.c), whichever has lately left the smallest residuals. */
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

#endif
