/*
 * rec_crc.c - the checksum of each stored sample (CRC-32, IEEE): its row
 * values and its frame, so a damaged file gives an error, never wrong
 * figures.
 */
#include <stdint.h>

#include "rec/rec_crc.h"
#include "rec/rec_schema.h"

uint32_t rec_crc_bytes(uint32_t crc, const void *data, size_t n)
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
	return rec_crc_bytes(crc, b, sizeof b);
}

uint32_t rec_crc_sample(int64_t seq, const struct snapshot *s, int keyframe, int64_t ndev,
			const uint8_t *frame, size_t nframe)
{
	uint32_t crc = rec_crc_u64(0, (uint64_t)seq);
	crc = rec_crc_u64(crc, (uint64_t)s->wall_ns);
	crc = rec_crc_u64(crc, s->mono_ns);
	crc = rec_crc_u64(crc, s->page_size);
	for (size_t c = 0; c < rec_schema_nsys_cols; c++)
		crc = rec_crc_u64(crc, rec_schema_sys_get(s, c));
	crc = rec_crc_u64(crc, (uint64_t)keyframe);
	crc = rec_crc_u64(crc, (uint64_t)ndev);
	crc = rec_crc_u64(crc, nframe);
	return rec_crc_bytes(crc, frame, nframe);
}
