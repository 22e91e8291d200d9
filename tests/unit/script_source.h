/*
 * script_source.h - what the unit tests' scripted sources share: a snapshot of n devices at
 * step k (a second apart), a device "loopI" (7:I) with all 17 fields zeroed for the script to
 * fill, and a close that has nothing to free.
 */
#ifndef WBTOP_TEST_SCRIPT_SOURCE_H
#define WBTOP_TEST_SCRIPT_SOURCE_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/snapshot.h"
#include "core/source.h"

/* out sized for n devices at step k's time; 0 or -ENOMEM. */
static inline int script_snapshot(struct snapshot *out, size_t n, int k)
{
	if (snapshot_reserve(out, n) < 0)
		return -ENOMEM;
	out->ndev = n;
	out->mono_ns = (uint64_t)(k + 1) * 1000000000u;
	return 0;
}

static inline void script_dev(struct dev_counters *d, uint32_t i)
{
	memset(d, 0, sizeof *d);
	d->major = 7;
	d->minor = i;
	d->nfields = 17;
	snprintf(d->name, sizeof d->name, "loop%u", i);
}

static inline void script_source_close(struct source *src)
{
	(void)src;
}

#endif
