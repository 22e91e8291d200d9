/*
 * rec_crc.h - the checksum of a recording's samples (CRC-32, IEEE).
 */
#ifndef WBTOP_REC_CRC_H
#define WBTOP_REC_CRC_H

#include <stddef.h>
#include <stdint.h>

struct snapshot;

/* crc updated with n bytes of data (start from 0). */
uint32_t rec_crc_bytes(uint32_t crc, const void *data, size_t n);
/* The checksum of a sample: its row values and its frame. */
uint32_t rec_crc_sample(int64_t seq, const struct snapshot *s, int keyframe, int64_t ndev,
			const uint8_t *frame, size_t nframe);

#endif
