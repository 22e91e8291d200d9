/*
 * rec_buf.c - a growing byte buffer and the varints written into it (and
 * read back from bytes).  A failed append marks the buffer instead of
 * failing each call; the caller checks once.
 */
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"
#include "rec/rec_buf.h"

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

void rec_buf_put_varint(struct rec_buf *b, uint64_t v)
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

bool rec_buf_get_varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
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
