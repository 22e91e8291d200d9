/*
 * rec_idmap.c - devices.id -> a small index, for ids read from files: ids
 * and values in arrays, a hash index over them (a damaged file may hold any
 * id, so nothing is sized by the ids themselves).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"
#include "util/hashidx.h"
#include "rec/rec_idmap.h"

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
