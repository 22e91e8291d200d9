/*
 * rec_buf.h - a growing byte buffer and varints, for the recording modules
 * only: the frames a writer builds and a reader reads back.
 */
#ifndef WBTOP_REC_BUF_H
#define WBTOP_REC_BUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rec_buf {
	uint8_t *p;
	size_t len, cap;
	bool oom;		/* an append failed: the content is incomplete */
};
void rec_buf_free(struct rec_buf *b);
void rec_buf_put(struct rec_buf *b, const void *data, size_t n);
/* Make room for n more bytes (so appends do not reallocate). */
void rec_buf_reserve(struct rec_buf *b, size_t n);
void rec_buf_put_varint(struct rec_buf *b, uint64_t v);
/* Read a varint at *p (advanced); false past end or over 64 bits. */
bool rec_buf_get_varint(const uint8_t **p, const uint8_t *end, uint64_t *v);

#endif
