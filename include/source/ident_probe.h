/*
 * ident_probe.h - who a device is, looked up in /sys, /proc/self/mountinfo
 * and with libblkid (part of the live source) into a core/ident.h table.
 *
 * Done once when a device appears, not per sample: identity lookups cost far
 * more than reading counters.
 */
#ifndef WBTOP_IDENT_PROBE_H
#define WBTOP_IDENT_PROBE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/ident.h"

/* What lookups keep between calls: the mount table, read again only when it changed. */
struct ident_probe;

struct ident_probe *ident_probe_new(void);	/* NULL when out of memory */
void ident_probe_free(struct ident_probe *p);	/* NULL is a no-op */

/* The identity of major:minor named kname in t, looked up now if new (or if the
 * name changed: the minor was reused).  NULL only on allocation failure. */
const struct dev_ident *ident_probe_get(struct ident_probe *p, struct ident_table *t, uint32_t major,
					uint32_t minor, const char *kname);
/* Re-read mount points (and filesystem identity of devices whose mounts
 * changed) when /proc/self/mountinfo has changed since the last call. */
void ident_probe_refresh_mounts(struct ident_probe *p, struct ident_table *t);
/* Re-read the BDI limits of one device (after a knob write). */
void ident_probe_refresh_bdi(struct ident_table *t, uint32_t major, uint32_t minor);
/* Whether udev's database (udev_data_dir, normally /run/udev/data) marks
 * block device major:minor as a multipath member path
 * (E:DM_MULTIPATH_DEVICE_PATH=1). */
bool ident_probe_udev_mpath_path(const char *udev_data_dir, uint32_t major, uint32_t minor);

#endif
