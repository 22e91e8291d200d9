/*
 * rec_codec.c - the packed per-device counters of a delta frame: a bit
 * stream, least significant bit first, and the adaptive codec that writes
 * only the counters that changed, each as the miss of the predictor that
 * has lately missed least.  Pure: buffers in, buffers out.
 * doc/recording.md ("Frames") describes the bits.
 */
#include <string.h>

#include "rec/rec_codec.h"

/* ---- Bits, least significant first ------------------------------------ */

/* Move 32 finished bits to the buffer (the hot path: no call when the
 * buffer has room). */
static void rec_codec_emit32(struct rec_bitw *w)
{
	struct rec_buf *b = w->b;
	uint8_t t[4] = { (uint8_t)w->acc, (uint8_t)(w->acc >> 8), (uint8_t)(w->acc >> 16),
			 (uint8_t)(w->acc >> 24) };
	if (b->len + 4 <= b->cap) {
		memcpy(b->p + b->len, t, 4);
		b->len += 4;
	} else {
		rec_buf_put(b, t, 4);
	}
	w->acc >>= 32;
	w->nacc -= 32;
}

static void rec_codec_put_bits32(struct rec_bitw *w, uint64_t v, unsigned nbits)
{
	if (nbits < 64)
		v &= (UINT64_C(1) << nbits) - 1;
	w->acc |= v << w->nacc;	/* nacc < 32 here, nbits <= 32 */
	w->nacc += nbits;
	if (w->nacc >= 32)
		rec_codec_emit32(w);
}

void rec_codec_put_bits(struct rec_bitw *w, uint64_t v, unsigned nbits)
{
	if (nbits > 32) {
		rec_codec_put_bits32(w, v & 0xffffffffu, 32);
		rec_codec_put_bits32(w, v >> 32, nbits - 32);
	} else if (nbits) {
		rec_codec_put_bits32(w, v, nbits);
	}
}

void rec_codec_flush_bits(struct rec_bitw *w)
{
	while (w->nacc > 0) {
		uint8_t byte = (uint8_t)w->acc;
		rec_buf_put(w->b, &byte, 1);
		w->acc >>= 8;
		w->nacc = w->nacc > 8 ? w->nacc - 8 : 0;
	}
	w->acc = 0;
}

static uint64_t rec_codec_get_bits32(struct rec_bitr *r, unsigned nbits)
{
	while (r->nacc < nbits) {
		if (r->p >= r->end) {
			r->bad = true;
			return 0;
		}
		r->acc |= (uint64_t)*r->p++ << r->nacc;
		r->nacc += 8;
	}
	uint64_t v = r->acc & ((UINT64_C(1) << nbits) - 1);
	r->acc >>= nbits;
	r->nacc -= nbits;
	return v;
}

uint64_t rec_codec_get_bits(struct rec_bitr *r, unsigned nbits)
{
	if (nbits > 32) {
		uint64_t lo = rec_codec_get_bits32(r, 32);
		return lo | rec_codec_get_bits32(r, nbits - 32) << 32;
	}
	return nbits ? rec_codec_get_bits32(r, nbits) : 0;
}

/* ---- The counter codec ------------------------------------------------ */

static unsigned rec_codec_bitwidth(uint64_t v)
{
	return v ? 64 - (unsigned)__builtin_clzll(v) : 0;
}

/* A value u against the expected width k: "0" + k bits when it fits, "10"
 * + k bits when it is one bit wider (the top bit is implied), else "11" +
 * 6 bits of width-1 + the bits below the implied top bit. */
static void rec_codec_put_value(struct rec_bitw *w, uint8_t *k, uint64_t u)
{
	unsigned nb = rec_codec_bitwidth(u), kk = *k;
	/* Prefix and value go out together when they fit in 32 bits (the
	 * usual case; the bits are the same either way). */
	if (nb <= kk && kk < 32) {
		rec_codec_put_bits(w, (u & ((UINT64_C(1) << kk) - 1)) << 1, kk + 1);
	} else if (nb <= kk) {
		rec_codec_put_bits(w, 0, 1);
		rec_codec_put_bits(w, u, kk);
	} else if (nb == kk + 1 && kk < 31) {
		rec_codec_put_bits(w, 1 | (u & ((UINT64_C(1) << kk) - 1)) << 2, kk + 2);
	} else if (nb == kk + 1) {
		rec_codec_put_bits(w, 1, 2);
		rec_codec_put_bits(w, u, kk);
	} else {
		rec_codec_put_bits(w, 3 | (nb - 1) << 2, 8);
		rec_codec_put_bits(w, u, nb - 1);
	}
	*k = (uint8_t)nb;
}

static bool rec_codec_get_value(struct rec_bitr *r, uint8_t *k, uint64_t *u)
{
	unsigned kk = *k;
	if (!rec_codec_get_bits(r, 1)) {
		*u = rec_codec_get_bits(r, kk);
	} else if (!rec_codec_get_bits(r, 1)) {
		if (kk >= 64)
			return false;
		*u = UINT64_C(1) << kk | rec_codec_get_bits(r, kk);
	} else {
		unsigned nb = (unsigned)rec_codec_get_bits(r, 6) + 1;
		*u = UINT64_C(1) << (nb - 1) | rec_codec_get_bits(r, nb - 1);
	}
	*k = (uint8_t)rec_codec_bitwidth(*u);
	return !r->bad;
}

/* Requests in flight is a gauge: it goes down as often as up. */
static bool rec_codec_is_gauge(unsigned f)
{
	return f == DS_IN_FLIGHT;
}

static uint64_t rec_codec_zigzag(uint64_t d)
{
	return (d << 1) ^ (d >> 63 ? UINT64_MAX : 0);
}

static uint64_t rec_codec_unzigzag(uint64_t z)
{
	return (z >> 1) ^ (z & 1 ? UINT64_MAX : 0);
}

/* The count of requests a field's size or time goes with, plus one: their
 * ratio (request size, latency) changes slowly.  0: none. */
static const uint8_t rec_codec_ratio_base1[DS_NFIELDS] = {
	[DS_RD_SECT] = DS_RD_IOS + 1, [DS_RD_MS] = DS_RD_IOS + 1,
	[DS_WR_SECT] = DS_WR_IOS + 1, [DS_WR_MS] = DS_WR_IOS + 1,
	[DS_DC_SECT] = DS_DC_IOS + 1, [DS_DC_MS] = DS_DC_IOS + 1,
	[DS_FL_MS] = DS_FL_IOS + 1,
};

/* Fields in coding order: the weighted queue time comes last, because
 * since Linux 5.0 it is the sum of the four time fields (block/genhd.c
 * sums the same nanoseconds), so it is predicted from them. */
static const uint8_t rec_codec_order[DS_NFIELDS] = {
	DS_RD_IOS, DS_RD_MERGES, DS_RD_SECT, DS_RD_MS, DS_WR_IOS, DS_WR_MERGES, DS_WR_SECT,
	DS_WR_MS, DS_IN_FLIGHT, DS_IO_MS, DS_DC_IOS, DS_DC_MERGES, DS_DC_SECT, DS_DC_MS,
	DS_FL_IOS, DS_FL_MS, DS_QUEUE_MS,
};

/* b * x / y, exactly (y != 0); 0 if it does not fit. */
static uint64_t rec_codec_scale(uint64_t b, uint64_t x, uint64_t y)
{
	if ((b | x) >> 32 == 0)		/* the usual case: one 64-bit multiply */
		return b * x / y;
	unsigned __int128 q = (unsigned __int128)b * x / y;
	return q >> 64 ? 0 : (uint64_t)q;
}

/* The predictions of field i's delta, given this sample's deltas so far
 * (cur) and the last sample's (st->delta): 0 "no change", 1 "as last
 * time", 2 the field's model (ratio to its request count; queue time =
 * the sum of the time fields).  Returns how many apply. */
static unsigned rec_codec_guess(const struct rec_codec_dev *st, const uint64_t *cur, unsigned i,
				uint64_t pred[REC_NPRED])
{
	pred[0] = 0;
	pred[1] = st->delta[i];
	if (i == DS_QUEUE_MS) {
		pred[2] = cur[DS_RD_MS] + cur[DS_WR_MS] + cur[DS_DC_MS] + cur[DS_FL_MS];
		return 3;
	}
	unsigned base1 = rec_codec_ratio_base1[i];
	if (!base1)
		return 2;
	uint64_t last_base = st->delta[base1 - 1];
	pred[2] = last_base ? rec_codec_scale(cur[base1 - 1], st->delta[i], last_base) : 0;
	return 3;
}

/* The residual of delta d (never 0) under predictor p: "no change" sends
 * d - 1 for a counter (which only grows), zigzag for the gauge; the others
 * the zigzagged miss. */
static uint64_t rec_codec_residual(unsigned i, int p, const uint64_t pred[REC_NPRED], uint64_t d)
{
	if (p)
		return rec_codec_zigzag(d - pred[p]);
	return rec_codec_is_gauge(i) ? rec_codec_zigzag(d) - 1 : d - 1;
}

static uint64_t rec_codec_unresidual(unsigned i, int p, const uint64_t pred[REC_NPRED], uint64_t u)
{
	if (p)
		return rec_codec_unzigzag(u) + pred[p];
	return rec_codec_is_gauge(i) ? rec_codec_unzigzag(u + 1) : u + 1;
}

/* The width a residual is costed against: the recent average of the
 * predictor's residual widths (cost holds four times it), rounded up, so
 * one wider or narrower value does not move it. */
static uint8_t rec_codec_expected_width(const struct rec_codec_dev *st, int p, unsigned i)
{
	unsigned w = (st->cost[p][i] + 3u) / 4u;
	return (uint8_t)(w > 64 ? 64 : w);
}

/* The predictor that has lately missed least. */
static int rec_codec_predictor(const struct rec_codec_dev *st, unsigned i, unsigned npred)
{
	int best = 0;
	for (unsigned p = 1; p < npred; p++)
		if (st->cost[p][i] < st->cost[best][i])
			best = (int)p;
	return best;
}

/* Once a field's delta d is known on both sides: score every predictor on
 * it (the width of what each would have sent). */
static void rec_codec_learn(struct rec_codec_dev *st, unsigned i, unsigned npred,
			    const uint64_t pred[REC_NPRED], uint64_t d)
{
	for (unsigned p = 0; p < npred; p++) {
		unsigned w = rec_codec_bitwidth(rec_codec_residual(i, (int)p, pred, d));
		st->cost[p][i] = (uint16_t)(st->cost[p][i] - (st->cost[p][i] >> 2) + w);
	}
}

#define REC_MASK_BITS DS_NFIELDS

static uint32_t rec_codec_mask(const struct rec_codec_dev *st, const uint64_t f[DS_NFIELDS])
{
	uint32_t mask = 0;
	for (unsigned i = 0; i < DS_NFIELDS; i++)
		if (f[i] != st->prev[i])
			mask |= UINT32_C(1) << i;
	return mask;
}

void rec_codec_put(struct rec_bitw *w, struct rec_codec_dev *st, const uint64_t f[DS_NFIELDS])
{
	uint32_t mask = rec_codec_mask(st, f);
	if (!mask) {
		rec_codec_put_bits(w, 0, 1);
		memset(st->delta, 0, sizeof st->delta);
		return;
	}
	if (mask == st->mask) {
		rec_codec_put_bits(w, 3, 2);	/* changed, same fields */
	} else {
		rec_codec_put_bits(w, 1, 2);	/* changed, new field mask */
		rec_codec_put_bits(w, mask, REC_MASK_BITS);
		st->mask = mask;
	}
	uint64_t cur[DS_NFIELDS] = { 0 }, pred[REC_NPRED];
	for (unsigned k = 0; k < DS_NFIELDS; k++) {
		unsigned i = rec_codec_order[k];
		if (!(mask & UINT32_C(1) << i))
			continue;
		uint64_t d = f[i] - st->prev[i];	/* mod 2^64, never 0 */
		unsigned npred = rec_codec_guess(st, cur, i, pred);
		int p = rec_codec_predictor(st, i, npred);
		uint8_t width = rec_codec_expected_width(st, p, i);
		rec_codec_put_value(w, &width, rec_codec_residual(i, p, pred, d));
		rec_codec_learn(st, i, npred, pred, d);
		cur[i] = d;
		st->prev[i] = f[i];
	}
	memcpy(st->delta, cur, sizeof st->delta);
}

bool rec_codec_get(struct rec_bitr *r, struct rec_codec_dev *st)
{
	if (!rec_codec_get_bits(r, 1)) {
		memset(st->delta, 0, sizeof st->delta);
		return !r->bad;
	}
	if (!rec_codec_get_bits(r, 1)) {
		uint32_t mask = (uint32_t)rec_codec_get_bits(r, REC_MASK_BITS);
		if (!mask)
			return false;	/* the encoder never writes an empty mask */
		st->mask = mask;
	} else if (!st->mask) {
		return false;
	}
	uint64_t cur[DS_NFIELDS] = { 0 }, pred[REC_NPRED];
	for (unsigned k = 0; k < DS_NFIELDS; k++) {
		unsigned i = rec_codec_order[k];
		if (!(st->mask & UINT32_C(1) << i))
			continue;
		unsigned npred = rec_codec_guess(st, cur, i, pred);
		int p = rec_codec_predictor(st, i, npred);
		uint8_t width = rec_codec_expected_width(st, p, i);
		uint64_t u;
		if (!rec_codec_get_value(r, &width, &u))
			return false;
		uint64_t d = rec_codec_unresidual(i, p, pred, u);
		rec_codec_learn(st, i, npred, pred, d);
		cur[i] = d;
		st->prev[i] += d;
	}
	memcpy(st->delta, cur, sizeof st->delta);
	return !r->bad;
}

void rec_codec_reset(struct rec_codec_dev *st, const uint64_t f[DS_NFIELDS])
{
	memset(st, 0, sizeof *st);
	if (f)
		memcpy(st->prev, f, sizeof st->prev);
}
