/*
 * ident.c - who a block device is, as a value: the identity, its stable key,
 * and the table of identities a source or a recording owns (pure: the
 * lookups in /sys and libblkid are source/ident_probe.c).
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"
#include "util/hashidx.h"
#include "core/ident.h"

struct ident_slot {
	struct dev_ident id;
	unsigned gone_gen;	/* generation in which the device vanished; 0 = present */
};

struct ident_table {
	struct ident_slot **slot;
	size_t n, cap;
	unsigned generation;
	size_t ngone;		/* slots with gone_gen set: the sweep has work only then */
	/* major:minor -> index in slot[] (hashidx.h): thousands of devices
	 * appearing at once must not each search all the others. */
	struct hashidx index;
};

static char *ident_concat(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *s = malloc(la + lb + 1);
	if (s) {
		memcpy(s, a, la);
		memcpy(s + la, b, lb + 1);
	}
	return s;
}

/* A serial no identity has had: never 0, never reused. */
uint64_t ident_serial_new(void)
{
	static _Atomic uint64_t last;
	return atomic_fetch_add(&last, 1) + 1;
}

/* The stable key a recording files the device under: the most stable name
 * the device has, never the minor number alone. */
char *ident_key_of(const struct dev_ident *id, bool stack_member, const char *loop_backing)
{
	char *key;
	/* A filesystem UUID names the top of its stack only: dm-linear, a
	 * multipath path and md members pass the signature below them through. */
	const char *fs = stack_member ? NULL : id->fs_uuid;
	if (id->dm_uuid || id->dm_name)
		key = ident_concat("dm:", id->dm_name ? id->dm_name : id->dm_uuid);
	else if (id->md_name)
		key = ident_concat("md:", id->md_name);
	else if (fs)
		key = ident_concat("fs:", fs);
	else if (id->wwid)
		key = ident_concat(id->partition ? "wwid-part:" : "wwid:", id->wwid);
	else if (id->serial)
		key = ident_concat(id->partition ? "serial-part:" : "serial:", id->serial);
	else if (loop_backing)
		key = ident_concat("loop:", loop_backing);
	else
		key = ident_concat("name:", id->kname);
	/* Two partitions of one disk share its wwid or serial, as do the paths
	 * of a multipath LUN: add the kernel name, stable for a partition of a
	 * given disk and for a path of a given map. */
	if (key && (id->partition || stack_member) && (id->wwid || id->serial) && !fs) {
		char *k = malloc(strlen(key) + strlen(id->kname) + 2);
		if (k)
			sprintf(k, "%s/%s", key, id->kname);
		free(key);
		key = k;
	}
	return key;
}

void ident_clear(struct dev_ident *id)
{
	free(id->kname);
	free(id->key);
	free(id->label_short);
	free(id->dm_name);
	free(id->dm_uuid);
	free(id->md_name);
	free(id->mounts);
	free(id->fstype);
	free(id->fs_label);
	free(id->fs_uuid);
	free(id->wwid);
	free(id->serial);
	free(id->write_cache);
}

struct ident_table *ident_table_new(void)
{
	struct ident_table *t = calloc(1, sizeof *t);
	if (!t)
		return NULL;
	t->generation = 1;
	return t;
}

void ident_table_free(struct ident_table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++) {
		ident_clear(&t->slot[i]->id);
		free(t->slot[i]);
	}
	free(t->slot);
	hashidx_free(&t->index);
	free(t);
}

static size_t ident_hash_of(uint32_t major, uint32_t minor)
{
	return hashidx_u64((uint64_t)major << 32 | minor);
}

static void ident_hash_put(struct ident_table *t, size_t i)
{
	hashidx_put(&t->index, ident_hash_of(t->slot[i]->id.major, t->slot[i]->id.minor), i);
}

/* Rebuild the index for slot[0..n) with room for cap slots; 0 or -ENOMEM
 * (then finds fall back to a linear search). */
static int ident_hash_rebuild(struct ident_table *t)
{
	if (hashidx_reset(&t->index, t->cap, 64) < 0)
		return -ENOMEM;
	for (size_t i = 0; i < t->n; i++)
		ident_hash_put(t, i);
	return 0;
}

static struct ident_slot *ident_find(struct ident_table *t, uint32_t major, uint32_t minor)
{
	if (!t->index.cap) {
		for (size_t i = 0; i < t->n; i++)
			if (t->slot[i]->id.major == major && t->slot[i]->id.minor == minor)
				return t->slot[i];
		return NULL;
	}
	size_t at = hashidx_start(&t->index, ident_hash_of(major, minor)), i;
	while ((i = hashidx_next(&t->index, &at)) != SIZE_MAX)
		if (t->slot[i]->id.major == major && t->slot[i]->id.minor == minor)
			return t->slot[i];
	return NULL;
}

/* The slot's device is present (again). */
static void ident_revive(struct ident_table *t, struct ident_slot *slot)
{
	if (slot->gone_gen) {
		slot->gone_gen = 0;
		t->ngone--;
	}
}

/* Remove slot i (the last slot moves into its place: the caller rebuilds
 * the index once it has removed what it removes). */
static void ident_remove(struct ident_table *t, size_t i)
{
	if (t->slot[i]->gone_gen)
		t->ngone--;
	ident_clear(&t->slot[i]->id);
	free(t->slot[i]);
	t->slot[i] = t->slot[--t->n];
}

static struct ident_slot *ident_append(struct ident_table *t)
{
	if (grow_array((void **)&t->slot, &t->cap, t->n + 1, sizeof *t->slot, 64) < 0)
		return NULL;
	struct ident_slot *slot = calloc(1, sizeof *slot);
	if (!slot)
		return NULL;
	t->slot[t->n++] = slot;
	return slot;
}

/* Index the slot just appended (its major:minor now set). */
static void ident_index_last(struct ident_table *t)
{
	if (t->index.cap < 2 * t->cap)
		ident_hash_rebuild(t);
	else
		ident_hash_put(t, t->n - 1);
}

struct dev_ident *ident_table_find(struct ident_table *t, uint32_t major, uint32_t minor)
{
	struct ident_slot *slot = ident_find(t, major, minor);
	return slot ? &slot->id : NULL;
}

struct dev_ident *ident_table_take(struct ident_table *t, uint32_t major, uint32_t minor,
				   const char *kname, bool *known)
{
	struct ident_slot *slot = ident_find(t, major, minor);
	*known = slot && slot->id.kname && strcmp(slot->id.kname, kname) == 0;
	if (*known) {
		ident_revive(t, slot);
		return &slot->id;
	}
	bool appended = !slot;
	if (slot) {	/* minor reused by another device: start afresh */
		ident_clear(&slot->id);
		memset(&slot->id, 0, sizeof slot->id);
	} else if (!(slot = ident_append(t))) {
		return NULL;
	}
	slot->id.major = major;
	slot->id.minor = minor;
	if (appended)
		ident_index_last(t);
	slot->id.kname = strdup(kname);
	if (!slot->id.kname)
		return NULL;
	ident_revive(t, slot);
	return &slot->id;
}

size_t ident_table_count(const struct ident_table *t)
{
	return t->n;
}

struct dev_ident *ident_table_at(struct ident_table *t, size_t i)
{
	return i < t->n ? &t->slot[i]->id : NULL;
}

const struct dev_ident *ident_table_add(struct ident_table *t, const struct dev_ident *proto)
{
	struct ident_slot *slot = ident_append(t);
	if (!slot)
		return NULL;
	struct dev_ident *id = &slot->id;
	*id = *proto;
	ident_index_last(t);
#define DUP(f) id->f = proto->f ? strdup(proto->f) : NULL
	DUP(kname); DUP(key); DUP(label_short); DUP(dm_name); DUP(dm_uuid); DUP(md_name);
	DUP(mounts); DUP(fstype); DUP(fs_label); DUP(fs_uuid); DUP(wwid); DUP(serial);
	DUP(write_cache);
#undef DUP
	if (!id->kname)
		id->kname = strdup("?");
	if (!id->label_short)
		id->label_short = id->kname ? strdup(id->kname) : NULL;
	id->key_serial = ident_serial_new();
	return id;
}

void ident_table_release(struct ident_table *t, uint32_t major, uint32_t minor)
{
	struct ident_slot *slot = ident_find(t, major, minor);
	if (slot && !slot->gone_gen) {
		slot->gone_gen = t->generation;
		t->ngone++;
	}
}

void ident_table_sweep(struct ident_table *t)
{
	bool removed = false;
	t->generation++;
	if (!t->ngone)
		return;	/* the usual sample: nothing has gone */
	for (size_t i = 0; i < t->n;) {
		struct ident_slot *slot = t->slot[i];
		if (slot->gone_gen && t->generation - slot->gone_gen >= 2) {
			ident_remove(t, i);
			removed = true;
		} else {
			i++;
		}
	}
	if (removed && t->index.cap)
		ident_hash_rebuild(t);	/* slots moved */
}

const char *ident_dev_key_name(const struct dev_counters *d, char *buf, size_t len)
{
	snprintf(buf, len, "name:%.*s", (int)strnlen(d->name, sizeof d->name), d->name);
	return buf;
}
