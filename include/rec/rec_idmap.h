/*
 * rec_idmap.h - devices.id -> a small index, for ids read from files: a
 * damaged file may hold any id, so nothing is sized by the ids themselves.
 */
#ifndef WBTOP_REC_IDMAP_H
#define WBTOP_REC_IDMAP_H

#include <stddef.h>
#include <stdint.h>

#include "util/hashidx.h"

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

#endif
