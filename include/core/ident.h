/*
 * ident.h - who a block device is: readable and stable names, as a value.
 *
 * The kernel name and major:minor say little ("dm-3", 253:3) and minors are
 * reused after a reboot: an identity adds what a person recognises and what
 * stays the same across reboots.  A table of them belongs to a source (or a
 * recording); source/ident_probe.h fills it from /sys and libblkid.
 */
#ifndef WBTOP_IDENT_H
#define WBTOP_IDENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/knob.h"
#include "core/snapshot.h"

struct dev_ident {
	uint32_t major, minor;
	char *kname;		/* kernel name, "dm-0" */
	char *key;		/* stable key for recordings: "dm:vg-home", "fs:<uuid>", "wwid:..", "name:sda" */
	uint64_t key_serial;	/* unique in the process, new whenever an identity or its key is
				 * made: equal serials are the same key (the dip detector matches
				 * devices on it, and compares strings only when it changed) */
	char *label_short;	/* what a table shows: dm/md name or kernel name */
	char *dm_name, *dm_uuid;	/* NULL unless device-mapper */
	char *md_name;		/* NULL unless md with a /dev/md/NAME link */
	char *mounts;		/* mount points, space separated; NULL if none */
	char *fstype, *fs_label, *fs_uuid;	/* from libblkid; NULL if unknown */
	char *wwid, *serial;	/* NULL if the device does not say */
	char *write_cache;	/* queue/write_cache: "write back" / "write through"; NULL if unknown */
	int rotational;		/* 1, 0, or -1 unknown */
	bool partition;
	bool has_bdi;		/* /sys/class/bdi/MAJ:MIN exists */
	int64_t bdi[KNOB_BDI_COUNT];	/* BDI limits at lookup time; -1 = not present */
};

/* A set of identities, owned by a source.  Pointers stay valid until
 * ident_table_free(), or until ident_table_sweep() drops a released device. */
struct ident_table;

/* Room for the key of a device without an identity: "name:" and a kernel name. */
#define IDENT_KEY_MAX 40

/* The key a device is filed under: its identity's stable key, else
 * "name:<kernel name>" (the identity's own last resort) written into buf
 * (IDENT_KEY_MAX bytes).  The history, the dip detector, the recorder and
 * the exports all use it.  Pure: no lookup. */
static inline const char *ident_dev_key(const struct dev_counters *d, char *buf, size_t len);
/* ident_dev_key's fallback, "name:<kernel name>" into buf. */
const char *ident_dev_key_name(const struct dev_counters *d, char *buf, size_t len);

struct ident_table *ident_table_new(void);
void ident_table_free(struct ident_table *t);	/* NULL is a no-op */

/* The device major:minor is gone from the current sample.  Its identity
 * stays valid for one more sample (the caller's previous snapshot may point
 * at it), then ident_table_sweep() frees it unless it came back. */
void ident_table_release(struct ident_table *t, uint32_t major, uint32_t minor);
/* Start a new sample: free identities released two samples ago. */
void ident_table_sweep(struct ident_table *t);

/* The stable key of an identity (malloc'd; NULL on allocation failure):
 * dm name or UUID, md name, filesystem UUID (only when the device is not
 * stack_member: below a holder, a multipath path, an md member, a disk
 * with partitions), WWID, serial, loop backing file (NULL if none), kernel
 * name.  Pure. */
char *ident_key_of(const struct dev_ident *id, bool stack_member, const char *loop_backing);
/* The identity of major:minor, present or released; NULL if none. */
struct dev_ident *ident_table_find(struct ident_table *t, uint32_t major, uint32_t minor);
/* The identity of major:minor named kname, present from now on: the one the table has
 * (*known true), else an empty one with only the numbers and kname set (*known false; an
 * identity of another name under the same numbers, a reused minor, is cleared for it) for
 * the caller to fill.  NULL on allocation failure. */
struct dev_ident *ident_table_take(struct ident_table *t, uint32_t major, uint32_t minor,
				   const char *kname, bool *known);
/* The identities one by one (to refresh them all): i below ident_table_count. */
size_t ident_table_count(const struct ident_table *t);
struct dev_ident *ident_table_at(struct ident_table *t, size_t i);
/* Free an identity's strings (not the identity). */
void ident_clear(struct dev_ident *id);
/* A serial no identity has had (key_serial): never 0, never reused. */
uint64_t ident_serial_new(void);

/* Build an identity from already-known fields (replay of a recording).
 * Takes copies of the strings; NULL on allocation failure. */
const struct dev_ident *ident_table_add(struct ident_table *t, const struct dev_ident *proto);

/* Inline: the dip detector asks it of every device every sample. */
static inline const char *ident_dev_key(const struct dev_counters *d, char *buf, size_t len)
{
	return d->ident && d->ident->key ? d->ident->key : ident_dev_key_name(d, buf, len);
}

#endif
