/*
 * rec_schema.c - the parts of the recording format that writer, reader and
 * exporter share: column tables, the packed counter codec, the checksum,
 * and the validating read-only open.
 *
 * The codec packs, per device and sample, only the counters that changed:
 * a "changed" bit, a "same fields as last time" bit (else a 17-bit mask),
 * then for each changed field the miss of a predicted delta, in a bit width
 * costed against the recent average width of such misses.  Each field
 * picks, from what both sides have already seen, the predictor that has
 * lately missed least: "no change", "the same delta as last time", or the
 * field's model (sectors and milliseconds as a ratio to the requests; the
 * weighted queue time as the sum of the four time fields, which is how the
 * kernel computes it).  Deltas are modulo 2^64, so a counter reset is just
 * a big delta, decoded exactly.  An idle device costs one bit.
 */
#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/grow.h"
#include "util/hashidx.h"
#include "rec/rec.h"
#include "rec/rec_schema.h"

#define SYS(n, f) { n, offsetof(struct snapshot, sys.f) }
const struct rec_sys_col rec_sys_cols[] = {
	SYS("procs_running", procs_running),
	SYS("procs_blocked", procs_blocked),
	SYS("mem_total_kb", mem_total_kb),
	SYS("mem_avail_kb", mem_avail_kb),
	SYS("swpd_kb", swpd_kb),
	SYS("free_kb", free_kb),
	SYS("buff_kb", buff_kb),
	SYS("cache_kb", cache_kb),
	SYS("dirty_kb", dirty_kb),
	SYS("writeback_kb", writeback_kb),
	SYS("nr_dirty_pages", nr_dirty_pages),
	SYS("nr_writeback_pages", nr_writeback_pages),
	SYS("dirty_thresh_pages", dirty_thresh_pages),
	SYS("bg_thresh_pages", bg_thresh_pages),
	SYS("pgpgin_kb", pgpgin_kb),
	SYS("pgpgout_kb", pgpgout_kb),
	SYS("pswpin_pages", pswpin_pages),
	SYS("pswpout_pages", pswpout_pages),
	SYS("nr_dirtied_pages", nr_dirtied_pages),
	SYS("nr_written_pages", nr_written_pages),
	SYS("intr", intr),
	SYS("ctxt", ctxt),
	SYS("cpu_user_jif", cpu_jif[CPU_USER]),
	SYS("cpu_nice_jif", cpu_jif[CPU_NICE]),
	SYS("cpu_system_jif", cpu_jif[CPU_SYSTEM]),
	SYS("cpu_idle_jif", cpu_jif[CPU_IDLE]),
	SYS("cpu_iowait_jif", cpu_jif[CPU_IOWAIT]),
	SYS("cpu_irq_jif", cpu_jif[CPU_IRQ]),
	SYS("cpu_softirq_jif", cpu_jif[CPU_SOFTIRQ]),
	SYS("cpu_steal_jif", cpu_jif[CPU_STEAL]),
	SYS("cpu_guest_jif", cpu_jif[CPU_GUEST]),
	SYS("cpu_guest_nice_jif", cpu_jif[CPU_GUEST_NICE]),
};
#undef SYS
const size_t rec_nsys_cols = sizeof rec_sys_cols / sizeof rec_sys_cols[0];

#define IDS(f) { #f, offsetof(struct dev_ident, f) }
const struct rec_ident_col rec_ident_cols[] = {
	IDS(key), IDS(kname), IDS(label_short), IDS(dm_name), IDS(dm_uuid), IDS(md_name),
	IDS(mounts), IDS(fstype), IDS(fs_label), IDS(fs_uuid), IDS(wwid), IDS(serial),
	IDS(write_cache),
};
#undef IDS
const size_t rec_nident_cols = sizeof rec_ident_cols / sizeof rec_ident_cols[0];

/* A new BDI knob needs a new column and so a new schema version. */
_Static_assert(KNOB_BDI_COUNT == 8, "BDI knobs changed: bump REC_SCHEMA_VERSION");
_Static_assert(DS_NFIELDS == 17, "diskstats fields changed: bump REC_SCHEMA_VERSION");
_Static_assert(SNAP_NKNOBS == KNOB_VM_COUNT, "snapshot knobs are the vm knob table");
const char *const rec_bdi_cols[KNOB_BDI_COUNT] = {
	"bdi_min_ratio", "bdi_max_ratio", "bdi_min_bytes", "bdi_max_bytes",
	"bdi_strict_limit", "bdi_min_ratio_fine", "bdi_max_ratio_fine", "bdi_read_ahead_kb",
};

uint64_t rec_sys_get(const struct snapshot *s, size_t col)
{
	uint64_t v;
	memcpy(&v, (const char *)s + rec_sys_cols[col].offset, sizeof v);
	return v;
}

void rec_sys_set(struct snapshot *s, size_t col, uint64_t v)
{
	memcpy((char *)s + rec_sys_cols[col].offset, &v, sizeof v);
}

const char *rec_ident_str(const struct dev_ident *id, size_t col)
{
	const char *v;
	memcpy(&v, (const char *)id + rec_ident_cols[col].offset, sizeof v);
	return v;
}

static void rec_ident_set_str(struct dev_ident *id, size_t col, char *v)
{
	memcpy((char *)id + rec_ident_cols[col].offset, &v, sizeof v);
}

static bool rec_str_equal(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

bool rec_ident_equal(const struct dev_ident *a, const struct dev_ident *b)
{
	if (!a || !b)
		return a == b;
	if (a->major != b->major || a->minor != b->minor || a->rotational != b->rotational ||
	    a->partition != b->partition || a->has_bdi != b->has_bdi ||
	    memcmp(a->bdi, b->bdi, sizeof a->bdi) != 0)
		return false;
	for (size_t c = 0; c < rec_nident_cols; c++)
		if (!rec_str_equal(rec_ident_str(a, c), rec_ident_str(b, c)))
			return false;
	return true;
}

void rec_ident_clear(struct dev_ident *id)
{
	for (size_t c = 0; c < rec_nident_cols; c++)
		free((char *)rec_ident_str(id, c));
	memset(id, 0, sizeof *id);
}

int rec_ident_copy(struct dev_ident *dst, const struct dev_ident *src)
{
	*dst = *src;
	for (size_t c = 0; c < rec_nident_cols; c++) {
		const char *s = rec_ident_str(src, c);
		char *d = s ? strdup(s) : NULL;
		rec_ident_set_str(dst, c, d);
		if (s && !d) {
			for (size_t k = c + 1; k < rec_nident_cols; k++)
				rec_ident_set_str(dst, k, NULL);
			rec_ident_clear(dst);
			return -ENOMEM;
		}
	}
	return 0;
}

/* ---- Byte buffer and varints ------------------------------------------ */

void rec_buf_free(struct rec_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof *b);
}

static bool rec_buf_room(struct rec_buf *b, size_t n)
{
	if (b->oom)
		return false;
	/* b->len + n cannot wrap: len is at most cap, n a frame's bytes */
	if (grow_array((void **)&b->p, &b->cap, b->len + n, 1, 256) < 0) {
		b->oom = true;
		return false;
	}
	return true;
}

void rec_buf_reserve(struct rec_buf *b, size_t n)
{
	rec_buf_room(b, n);
}

void rec_buf_put(struct rec_buf *b, const void *data, size_t n)
{
	if (n && rec_buf_room(b, n)) {
		memcpy(b->p + b->len, data, n);
		b->len += n;
	}
}

void rec_buf_varint(struct rec_buf *b, uint64_t v)
{
	uint8_t tmp[10];
	size_t n = 0;
	do {
		tmp[n] = (uint8_t)(v & 0x7f);
		v >>= 7;
		if (v)
			tmp[n] |= 0x80;
		n++;
	} while (v);
	rec_buf_put(b, tmp, n);
}

bool rec_get_varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	uint64_t x = 0;
	for (unsigned shift = 0; shift < 64; shift += 7) {
		if (*p >= end)
			return false;
		uint8_t c = *(*p)++;
		if (shift == 63 && (c & 0x7e))
			return false;	/* more than 64 bits */
		x |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80)) {
			*v = x;
			return true;
		}
	}
	return false;
}

/* ---- Bits, least significant first ------------------------------------ */

/* Move 32 finished bits to the buffer (the hot path: no call when the
 * buffer has room). */
static void rec_bitw_emit32(struct rec_bitw *w)
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

static void rec_bitw_put32(struct rec_bitw *w, uint64_t v, unsigned nbits)
{
	if (nbits < 64)
		v &= (UINT64_C(1) << nbits) - 1;
	w->acc |= v << w->nacc;	/* nacc < 32 here, nbits <= 32 */
	w->nacc += nbits;
	if (w->nacc >= 32)
		rec_bitw_emit32(w);
}

void rec_bitw_put(struct rec_bitw *w, uint64_t v, unsigned nbits)
{
	if (nbits > 32) {
		rec_bitw_put32(w, v & 0xffffffffu, 32);
		rec_bitw_put32(w, v >> 32, nbits - 32);
	} else if (nbits) {
		rec_bitw_put32(w, v, nbits);
	}
}

void rec_bitw_flush(struct rec_bitw *w)
{
	while (w->nacc > 0) {
		uint8_t byte = (uint8_t)w->acc;
		rec_buf_put(w->b, &byte, 1);
		w->acc >>= 8;
		w->nacc = w->nacc > 8 ? w->nacc - 8 : 0;
	}
	w->acc = 0;
}

static uint64_t rec_bitr_get32(struct rec_bitr *r, unsigned nbits)
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

uint64_t rec_bitr_get(struct rec_bitr *r, unsigned nbits)
{
	if (nbits > 32) {
		uint64_t lo = rec_bitr_get32(r, 32);
		return lo | rec_bitr_get32(r, nbits - 32) << 32;
	}
	return nbits ? rec_bitr_get32(r, nbits) : 0;
}

/* ---- The counter codec ------------------------------------------------ */

static unsigned rec_bitwidth(uint64_t v)
{
	return v ? 64 - (unsigned)__builtin_clzll(v) : 0;
}

/* A value u against the expected width k: "0" + k bits when it fits, "10"
 * + k bits when it is one bit wider (the top bit is implied), else "11" +
 * 6 bits of width-1 + the bits below the implied top bit. */
static void rec_codec_put_value(struct rec_bitw *w, uint8_t *k, uint64_t u)
{
	unsigned nb = rec_bitwidth(u), kk = *k;
	/* Prefix and value go out together when they fit in 32 bits (the
	 * usual case; the bits are the same either way). */
	if (nb <= kk && kk < 32) {
		rec_bitw_put(w, (u & ((UINT64_C(1) << kk) - 1)) << 1, kk + 1);
	} else if (nb <= kk) {
		rec_bitw_put(w, 0, 1);
		rec_bitw_put(w, u, kk);
	} else if (nb == kk + 1 && kk < 31) {
		rec_bitw_put(w, 1 | (u & ((UINT64_C(1) << kk) - 1)) << 2, kk + 2);
	} else if (nb == kk + 1) {
		rec_bitw_put(w, 1, 2);
		rec_bitw_put(w, u, kk);
	} else {
		rec_bitw_put(w, 3 | (nb - 1) << 2, 8);
		rec_bitw_put(w, u, nb - 1);
	}
	*k = (uint8_t)nb;
}

static bool rec_codec_get_value(struct rec_bitr *r, uint8_t *k, uint64_t *u)
{
	unsigned kk = *k;
	if (!rec_bitr_get(r, 1)) {
		*u = rec_bitr_get(r, kk);
	} else if (!rec_bitr_get(r, 1)) {
		if (kk >= 64)
			return false;
		*u = UINT64_C(1) << kk | rec_bitr_get(r, kk);
	} else {
		unsigned nb = (unsigned)rec_bitr_get(r, 6) + 1;
		*u = UINT64_C(1) << (nb - 1) | rec_bitr_get(r, nb - 1);
	}
	*k = (uint8_t)rec_bitwidth(*u);
	return !r->bad;
}

/* Requests in flight is a gauge: it goes down as often as up. */
static bool rec_field_is_gauge(unsigned f)
{
	return f == DS_IN_FLIGHT;
}

static uint64_t rec_zigzag(uint64_t d)
{
	return (d << 1) ^ (d >> 63 ? UINT64_MAX : 0);
}

static uint64_t rec_unzigzag(uint64_t z)
{
	return (z >> 1) ^ (z & 1 ? UINT64_MAX : 0);
}

/* The count of requests a field's size or time goes with, plus one: their
 * ratio (request size, latency) changes slowly.  0: none. */
static const uint8_t rec_ratio_base1[DS_NFIELDS] = {
	[DS_RD_SECT] = DS_RD_IOS + 1, [DS_RD_MS] = DS_RD_IOS + 1,
	[DS_WR_SECT] = DS_WR_IOS + 1, [DS_WR_MS] = DS_WR_IOS + 1,
	[DS_DC_SECT] = DS_DC_IOS + 1, [DS_DC_MS] = DS_DC_IOS + 1,
	[DS_FL_MS] = DS_FL_IOS + 1,
};

/* Fields in coding order: the weighted queue time comes last, because
 * since Linux 5.0 it is the sum of the four time fields (block/genhd.c
 * sums the same nanoseconds), so it is predicted from them. */
static const uint8_t rec_order[DS_NFIELDS] = {
	DS_RD_IOS, DS_RD_MERGES, DS_RD_SECT, DS_RD_MS, DS_WR_IOS, DS_WR_MERGES, DS_WR_SECT,
	DS_WR_MS, DS_IN_FLIGHT, DS_IO_MS, DS_DC_IOS, DS_DC_MERGES, DS_DC_SECT, DS_DC_MS,
	DS_FL_IOS, DS_FL_MS, DS_QUEUE_MS,
};

/* b * x / y, exactly (y != 0); 0 if it does not fit. */
static uint64_t rec_scale(uint64_t b, uint64_t x, uint64_t y)
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
static unsigned rec_guess(const struct rec_codec_dev *st, const uint64_t *cur, unsigned i,
			  uint64_t pred[REC_NPRED])
{
	pred[0] = 0;
	pred[1] = st->delta[i];
	if (i == DS_QUEUE_MS) {
		pred[2] = cur[DS_RD_MS] + cur[DS_WR_MS] + cur[DS_DC_MS] + cur[DS_FL_MS];
		return 3;
	}
	unsigned base1 = rec_ratio_base1[i];
	if (!base1)
		return 2;
	uint64_t last_base = st->delta[base1 - 1];
	pred[2] = last_base ? rec_scale(cur[base1 - 1], st->delta[i], last_base) : 0;
	return 3;
}

/* The residual of delta d (never 0) under predictor p: "no change" sends
 * d - 1 for a counter (which only grows), zigzag for the gauge; the others
 * the zigzagged miss. */
static uint64_t rec_residual(unsigned i, int p, const uint64_t pred[REC_NPRED], uint64_t d)
{
	if (p)
		return rec_zigzag(d - pred[p]);
	return rec_field_is_gauge(i) ? rec_zigzag(d) - 1 : d - 1;
}

static uint64_t rec_unresidual(unsigned i, int p, const uint64_t pred[REC_NPRED], uint64_t u)
{
	if (p)
		return rec_unzigzag(u) + pred[p];
	return rec_field_is_gauge(i) ? rec_unzigzag(u + 1) : u + 1;
}

/* The width a residual is costed against: the recent average of the
 * predictor's residual widths (cost holds four times it), rounded up, so
 * one wider or narrower value does not move it. */
static uint8_t rec_expected_width(const struct rec_codec_dev *st, int p, unsigned i)
{
	unsigned w = (st->cost[p][i] + 3u) / 4u;
	return (uint8_t)(w > 64 ? 64 : w);
}

/* The predictor that has lately missed least. */
static int rec_predictor(const struct rec_codec_dev *st, unsigned i, unsigned npred)
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
		unsigned w = rec_bitwidth(rec_residual(i, (int)p, pred, d));
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
		rec_bitw_put(w, 0, 1);
		memset(st->delta, 0, sizeof st->delta);
		return;
	}
	if (mask == st->mask) {
		rec_bitw_put(w, 3, 2);	/* changed, same fields */
	} else {
		rec_bitw_put(w, 1, 2);	/* changed, new field mask */
		rec_bitw_put(w, mask, REC_MASK_BITS);
		st->mask = mask;
	}
	uint64_t cur[DS_NFIELDS] = { 0 }, pred[REC_NPRED];
	for (unsigned k = 0; k < DS_NFIELDS; k++) {
		unsigned i = rec_order[k];
		if (!(mask & UINT32_C(1) << i))
			continue;
		uint64_t d = f[i] - st->prev[i];	/* mod 2^64, never 0 */
		unsigned npred = rec_guess(st, cur, i, pred);
		int p = rec_predictor(st, i, npred);
		uint8_t width = rec_expected_width(st, p, i);
		rec_codec_put_value(w, &width, rec_residual(i, p, pred, d));
		rec_codec_learn(st, i, npred, pred, d);
		cur[i] = d;
		st->prev[i] = f[i];
	}
	memcpy(st->delta, cur, sizeof st->delta);
}

bool rec_codec_get(struct rec_bitr *r, struct rec_codec_dev *st)
{
	if (!rec_bitr_get(r, 1)) {
		memset(st->delta, 0, sizeof st->delta);
		return !r->bad;
	}
	if (!rec_bitr_get(r, 1)) {
		uint32_t mask = (uint32_t)rec_bitr_get(r, REC_MASK_BITS);
		if (!mask)
			return false;	/* the encoder never writes an empty mask */
		st->mask = mask;
	} else if (!st->mask) {
		return false;
	}
	uint64_t cur[DS_NFIELDS] = { 0 }, pred[REC_NPRED];
	for (unsigned k = 0; k < DS_NFIELDS; k++) {
		unsigned i = rec_order[k];
		if (!(st->mask & UINT32_C(1) << i))
			continue;
		unsigned npred = rec_guess(st, cur, i, pred);
		int p = rec_predictor(st, i, npred);
		uint8_t width = rec_expected_width(st, p, i);
		uint64_t u;
		if (!rec_codec_get_value(r, &width, &u))
			return false;
		uint64_t d = rec_unresidual(i, p, pred, u);
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

/* ---- Id map: ids and values in arrays, a hash index over them ------------ */

static size_t rec_idmap_find(const struct rec_idmap *m, int64_t id)
{
	if (!m->index.cap)
		return SIZE_MAX;
	size_t at = hashidx_start(&m->index, hashidx_u64((uint64_t)id)), i;
	while ((i = hashidx_next(&m->index, &at)) != SIZE_MAX)
		if (m->ids[i] == id)
			return i;
	return SIZE_MAX;
}

size_t rec_idmap_get(const struct rec_idmap *m, int64_t id)
{
	size_t i = rec_idmap_find(m, id);
	return i == SIZE_MAX ? SIZE_MAX : m->vals[i];
}

int rec_idmap_put(struct rec_idmap *m, int64_t id, size_t val)
{
	size_t i = rec_idmap_find(m, id);
	if (i != SIZE_MAX) {
		m->vals[i] = val;
		return 0;
	}
	if (m->n == m->cap) {
		/* both arrays to the same room; cap changes only once both have it */
		size_t cv = m->cap, ci = m->cap;
		if (grow_array((void **)&m->vals, &cv, m->n + 1, sizeof *m->vals, 64) < 0 ||
		    grow_array((void **)&m->ids, &ci, cv, sizeof *m->ids, 64) < 0)
			return -ENOMEM;
		m->cap = cv;
	}
	m->ids[m->n] = id;
	m->vals[m->n] = val;
	i = m->n++;
	if (m->index.cap < 2 * m->n) {
		/* rebuilt at twice the ids' room: a rebuild per doubling */
		if (hashidx_reset(&m->index, m->cap, 64) < 0) {
			m->n--;
			return -ENOMEM;
		}
		for (size_t k = 0; k < m->n; k++)
			hashidx_put(&m->index, hashidx_u64((uint64_t)m->ids[k]), k);
	} else {
		hashidx_put(&m->index, hashidx_u64((uint64_t)id), i);
	}
	return 0;
}

void rec_idmap_free(struct rec_idmap *m)
{
	free(m->ids);
	free(m->vals);
	hashidx_free(&m->index);
	memset(m, 0, sizeof *m);
}

/* ---- Checksum --------------------------------------------------------- */

uint32_t rec_crc32(uint32_t crc, const void *data, size_t n)
{
	/* Bitwise CRC-32 (IEEE); a nibble table keeps it small and fast enough
	 * for a few kilobytes a sample. */
	static const uint32_t tab[16] = {
		0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac, 0x76dc4190, 0x6b6b51f4,
		0x4db26158, 0x5005713c, 0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c,
		0x9b64c2b0, 0x86d3d2d4, 0xa00ae278, 0xbdbdf21c,
	};
	const uint8_t *p = data;
	crc = ~crc;
	for (size_t i = 0; i < n; i++) {
		crc ^= p[i];
		crc = (crc >> 4) ^ tab[crc & 15];
		crc = (crc >> 4) ^ tab[crc & 15];
	}
	return ~crc;
}

static uint32_t rec_crc_u64(uint32_t crc, uint64_t v)
{
	uint8_t b[8];
	for (int i = 0; i < 8; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	return rec_crc32(crc, b, sizeof b);
}

uint32_t rec_sample_crc(int64_t seq, const struct snapshot *s, int keyframe, int64_t ndev,
			const uint8_t *frame, size_t nframe)
{
	uint32_t crc = rec_crc_u64(0, (uint64_t)seq);
	crc = rec_crc_u64(crc, (uint64_t)s->wall_ns);
	crc = rec_crc_u64(crc, s->mono_ns);
	crc = rec_crc_u64(crc, s->page_size);
	for (size_t c = 0; c < rec_nsys_cols; c++)
		crc = rec_crc_u64(crc, rec_sys_get(s, c));
	crc = rec_crc_u64(crc, (uint64_t)keyframe);
	crc = rec_crc_u64(crc, (uint64_t)ndev);
	crc = rec_crc_u64(crc, nframe);
	return rec_crc32(crc, frame, nframe);
}

/* ---- Errors ----------------------------------------------------------- */

int rec_sqlite_errno(int rc)
{
	switch (rc & 0xff) {
	case SQLITE_OK:		return 0;
	case SQLITE_FULL:	return -ENOSPC;
	case SQLITE_NOMEM:	return -ENOMEM;
	case SQLITE_READONLY:	return -EROFS;
	case SQLITE_PERM:
	case SQLITE_AUTH:	return -EACCES;
	case SQLITE_BUSY:
	case SQLITE_LOCKED:	return -EBUSY;
	case SQLITE_CORRUPT:
	case SQLITE_NOTADB:
	case SQLITE_FORMAT:	return -EBADMSG;
	case SQLITE_CANTOPEN:	return -ENOENT;
	case SQLITE_TOOBIG:	return -E2BIG;
	default:		return -EIO;
	}
}

void rec_set_err(char *err, size_t errlen, const char *fmt, ...)
{
	if (!err || !errlen)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* ---- Opening for reading ---------------------------------------------- */

static uint32_t rec_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Look at the file before SQLite does: a clear word for an empty file, a
 * file that is no database at all, and a closed recording cut short (SQLite
 * itself would only fail later, on the first page past the end).  *wal is
 * set when the header says the file was left in WAL mode. */
static int rec_check_file(const char *path, bool *wal, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		rec_set_err(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	struct stat st;
	uint8_t h[100];
	ssize_t n = -1;
	bool dir = false;
	if (fstat(fd, &st) == 0 && !(dir = S_ISDIR(st.st_mode)))
		n = pread(fd, h, sizeof h, 0);
	int e = errno;
	close(fd);
	if (dir) {
		rec_set_err(err, errlen, "%s: is a directory", path);
		return -EISDIR;
	}
	if (n < 0) {
		rec_set_err(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	if (n == 0) {
		rec_set_err(err, errlen, "%s: empty file, not a wbtop recording", path);
		return -EINVAL;
	}
	if (n >= 16 && n < (ssize_t)sizeof h && memcmp(h, "SQLite format 3", 16) == 0) {
		rec_set_err(err, errlen, "%s: truncated: %zd bytes, not even a header", path, n);
		return -EBADMSG;
	}
	if (n < (ssize_t)sizeof h || memcmp(h, "SQLite format 3", 16) != 0) {
		rec_set_err(err, errlen, "%s: not a wbtop recording (not an SQLite database)", path);
		return -EINVAL;
	}
	uint32_t page = (uint32_t)h[16] << 8 | h[17];
	if (page == 1)
		page = 65536;
	*wal = h[18] == 2 || h[19] == 2;
	uint32_t npages = rec_be32(h + 28);
	/* The page count is valid when written by the same change as the
	 * counter at offset 92 (SQLite file format, "in-header database size"). */
	if (!*wal && npages && rec_be32(h + 24) == rec_be32(h + 92) &&
	    (uint64_t)st.st_size < (uint64_t)npages * page) {
		rec_set_err(err, errlen, "%s: truncated: %lld bytes, the file says %llu", path,
			    (long long)st.st_size, (unsigned long long)npages * page);
		return -EBADMSG;
	}
	return 0;
}

/* "file:" URI of path, with immutable=1 when nothing can change under us:
 * then SQLite takes no locks and creates no -wal/-shm beside a copy. */
static char *rec_uri(const char *path, bool immutable)
{
	size_t n = strlen(path);
	char *u = malloc(3 * n + 40);
	if (!u)
		return NULL;
	char *o = u + sprintf(u, "file:");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("/-_.~", *p))
			*o++ = (char)*p;
		else
			o += sprintf(o, "%%%02X", *p);
	}
	sprintf(o, "?mode=ro%s", immutable ? "&immutable=1" : "");
	return u;
}

static int rec_query_text(sqlite3 *db, const char *sql, char *out, size_t outlen, int *rc)
{
	sqlite3_stmt *st = NULL;
	*rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	out[0] = '\0';
	if (*rc == SQLITE_OK) {
		*rc = sqlite3_step(st);
		if (*rc == SQLITE_ROW) {
			const unsigned char *t = sqlite3_column_text(st, 0);
			snprintf(out, outlen, "%s", t ? (const char *)t : "");
			*rc = SQLITE_OK;
		} else if (*rc == SQLITE_DONE) {
			*rc = SQLITE_OK;
		}
	}
	sqlite3_finalize(st);
	return *rc == SQLITE_OK ? 0 : -1;
}

/* Is db a recording this build can read? */
static int rec_check_meta(sqlite3 *db, const char *path, char *err, size_t errlen)
{
	char fmt[64], ver[32];
	int rc;
	if (rec_query_text(db, "SELECT value FROM meta WHERE key = 'format'", fmt, sizeof fmt, &rc) < 0) {
		if ((rc & 0xff) == SQLITE_ERROR)
			rec_set_err(err, errlen, "%s: not a wbtop recording (no meta table)", path);
		else
			rec_set_err(err, errlen, "%s: damaged or unreadable (%s)", path, sqlite3_errstr(rc));
		return rc == SQLITE_ERROR ? -EINVAL : rec_sqlite_errno(rc);
	}
	if (strcmp(fmt, REC_FORMAT_NAME) != 0) {
		rec_set_err(err, errlen, "%s: not a wbtop recording", path);
		return -EINVAL;
	}
	if (rec_query_text(db, "PRAGMA user_version", ver, sizeof ver, &rc) < 0) {
		rec_set_err(err, errlen, "%s: damaged or unreadable (%s)", path, sqlite3_errstr(rc));
		return rec_sqlite_errno(rc);
	}
	long v = strtol(ver, NULL, 10);
	if (v > REC_SCHEMA_VERSION) {
		rec_set_err(err, errlen, "%s: recorded by a newer wbtop (format version %ld; this "
			    "wbtop reads versions up to %d)", path, v, REC_SCHEMA_VERSION);
		return -EPROTONOSUPPORT;
	}
	if (v < 1) {
		rec_set_err(err, errlen, "%s: not a wbtop recording (format version %ld)", path, v);
		return -EINVAL;
	}
	return 0;
}

static int rec_try_open(const char *path, bool immutable, sqlite3 **out, char *err, size_t errlen)
{
	char *uri = rec_uri(path, immutable);
	if (!uri) {
		rec_set_err(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	sqlite3 *db = NULL;
	int rc = sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
	free(uri);
	if (rc != SQLITE_OK) {
		rec_set_err(err, errlen, "%s: %s", path, db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
		sqlite3_close(db);
		return rec_sqlite_errno(rc);
	}
	sqlite3_busy_timeout(db, 2000);
	int r = rec_check_meta(db, path, err, errlen);
	if (r < 0) {
		sqlite3_close(db);
		return r;
	}
	*out = db;
	return 0;
}

int rec_db_open_read(const char *path, bool follow, sqlite3 **out, bool *unfinished, char *err,
		     size_t errlen)
{
	bool wal = false;
	*out = NULL;
	*unfinished = false;
	int r = rec_check_file(path, &wal, err, errlen);
	if (r < 0)
		return r;
	/* A -wal file beside it may hold samples not yet in the main file:
	 * read through SQLite's WAL then.  Without one (a closed recording, or
	 * a main file copied away alone) the file is all there is. */
	char walpath[4096];
	snprintf(walpath, sizeof walpath, "%s-wal", path);
	bool has_wal = wal && access(walpath, F_OK) == 0;
	*unfinished = wal;
	r = rec_try_open(path, !follow && !has_wal, out, err, errlen);
	if (r < 0 && r != -EINVAL && r != -EPROTONOSUPPORT && !follow && has_wal)
		r = rec_try_open(path, true, out, err, errlen);	/* no access to the -shm */
	return r;
}

size_t rec_sample_desc_cols(const char **cols)
{
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
	return n;
}

size_t rec_device_desc_cols(const char **cols)
{
	size_t n = 0;
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
	return n;
}
