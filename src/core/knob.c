/*
 * knob.c - the table of writeback knobs, and parsing and formatting of their
 * values.  Pure: reading and writing the files is done elsewhere.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/knob.h"

/* The BDI byte knobs, the _fine ratios and strict_limit came with Linux 6.2
 * (Debian 12's 6.1 has min_ratio, max_ratio and read_ahead_kb only: seen in
 * the lab, tests/lab/).
 *
 * Ranges are what the kernel accepts (mm/page-writeback.c): the ratios are
 * proc_dointvec_minmax over 0..100, the bytes knobs proc_doulongvec_minmax
 * with a minimum of 2 pages (checked by control, which knows the page size). */
const struct knob_def knob_vm_table[KNOB_VM_COUNT] = {
	[KNOB_DIRTY_RATIO] = { "vm.dirty_ratio", "dirty_ratio", KNOB_KIND_RATIO,
		0, 100, KNOB_DIRTY_BYTES, "%",
		"hard limit: writers are throttled above this share of available memory" },
	[KNOB_DIRTY_BG_RATIO] = { "vm.dirty_background_ratio", "dirty_background_ratio", KNOB_KIND_RATIO,
		0, 100, KNOB_DIRTY_BG_BYTES, "%",
		"background flushers start above this share of available memory" },
	[KNOB_DIRTY_BYTES] = { "vm.dirty_bytes", "dirty_bytes", KNOB_KIND_BYTES,
		0, INT64_MAX, KNOB_DIRTY_RATIO, "B",
		"hard limit in bytes; non-zero overrides dirty_ratio" },
	[KNOB_DIRTY_BG_BYTES] = { "vm.dirty_background_bytes", "dirty_background_bytes", KNOB_KIND_BYTES,
		0, INT64_MAX, KNOB_DIRTY_BG_RATIO, "B",
		"background threshold in bytes; non-zero overrides dirty_background_ratio" },
	[KNOB_DIRTY_EXPIRE_CS] = { "vm.dirty_expire_centisecs", "dirty_expire_centisecs", KNOB_KIND_CENTISECS,
		0, INT32_MAX, -1, "cs",
		"dirty data older than this is written out by the flushers" },
	[KNOB_DIRTY_WRITEBACK_CS] = { "vm.dirty_writeback_centisecs", "dirty_writeback_centisecs", KNOB_KIND_CENTISECS,
		0, INT32_MAX, -1, "cs",
		"how often the flushers wake up; 0 disables periodic writeback" },
	[KNOB_DIRTYTIME_EXPIRE_S] = { "vm.dirtytime_expire_seconds", "dirtytime_expire_seconds", KNOB_KIND_SECONDS,
		0, INT32_MAX, -1, "s",
		"lazytime inodes with only dirty timestamps are written after this" },
};

const struct knob_def knob_bdi_table[KNOB_BDI_COUNT] = {
	[BDI_MIN_RATIO] = { "min_ratio", "min_ratio", KNOB_KIND_RATIO, 0, 100, BDI_MIN_BYTES, "%",
		"share of the dirty limit reserved for this device" },
	[BDI_MAX_RATIO] = { "max_ratio", "max_ratio", KNOB_KIND_RATIO, 0, 100, BDI_MAX_BYTES, "%",
		"most of the dirty limit this device may use" },
	[BDI_MIN_BYTES] = { "min_bytes", "min_bytes", KNOB_KIND_BYTES, 0, INT64_MAX, BDI_MIN_RATIO, "B",
		"min_ratio expressed in bytes", "6.2" },
	[BDI_MAX_BYTES] = { "max_bytes", "max_bytes", KNOB_KIND_BYTES, 0, INT64_MAX, BDI_MAX_RATIO, "B",
		"max_ratio expressed in bytes", "6.2" },
	[BDI_STRICT_LIMIT] = { "strict_limit", "strict_limit", KNOB_KIND_BOOL, 0, 1, -1, "",
		"1: always hold this device to its share, even below the global limit", "6.2" },
	[BDI_MIN_RATIO_FINE] = { "min_ratio_fine", "min_ratio_fine", KNOB_KIND_RATIO_FINE, 0, 1000000, -1, "ppm",
		"min_ratio in millionths", "6.2" },
	[BDI_MAX_RATIO_FINE] = { "max_ratio_fine", "max_ratio_fine", KNOB_KIND_RATIO_FINE, 0, 1000000, -1, "ppm",
		"max_ratio in millionths", "6.2" },
	[BDI_READ_AHEAD_KB] = { "read_ahead_kb", "read_ahead_kb", KNOB_KIND_KB, 0, INT32_MAX, -1, "KiB",
		"read-ahead window" },
};

const char *knob_absent_text(const struct knob_def *def, char *buf, size_t len)
{
	if (def && def->since)
		snprintf(buf, len, "absent on this kernel (%s+)", def->since);
	else
		snprintf(buf, len, "absent on this kernel");
	return buf;
}

int knob_vm_find(const char *name)
{
	if (strncmp(name, "vm.", 3) == 0)
		name += 3;
	for (int i = 0; i < KNOB_VM_COUNT; i++)
		if (strcmp(knob_vm_table[i].file, name) == 0)
			return i;
	return -1;
}

int knob_bdi_find(const char *name)
{
	for (int i = 0; i < KNOB_BDI_COUNT; i++)
		if (strcmp(knob_bdi_table[i].file, name) == 0)
			return i;
	return -1;
}

static int knob_suffix_shift(char c)
{
	switch (toupper((unsigned char)c)) {
	case 'K': return 10;
	case 'M': return 20;
	case 'G': return 30;
	case 'T': return 40;
	default: return -1;
	}
}

int knob_parse_value(enum knob_kind kind, const char *text, int64_t *out)
{
	const char *p = text;
	while (isspace((unsigned char)*p))
		p++;
	if (!isdigit((unsigned char)*p))
		return -EINVAL;	/* no sign: no knob takes a negative value */
	errno = 0;
	char *end;
	unsigned long long v = strtoull(p, &end, 10);
	if (errno == ERANGE || v > INT64_MAX)
		return -ERANGE;
	/* "1.5G": a fraction of the unit, which needs a suffix to be one */
	long double frac = 0;
	bool sized = kind == KNOB_KIND_BYTES || kind == KNOB_KIND_KB;
	if (*end == '.' && sized && isdigit((unsigned char)end[1])) {
		long double scale = 1;
		for (end++; isdigit((unsigned char)*end); end++)
			frac += (long double)(*end - '0') * (scale /= 10);
		if (knob_suffix_shift(*end) < 0)
			return -EINVAL;
	}
	if (*end && sized) {
		int shift = knob_suffix_shift(*end);
		if (shift < 0)
			return -EINVAL;
		if (kind == KNOB_KIND_KB)
			shift -= 10;	/* "4M" of a KiB knob is 4096 */
		if (shift > 0 && v + (frac > 0) > ((unsigned long long)INT64_MAX >> shift))
			return -ERANGE;
		v = shift >= 0 ? v << shift : v >> -shift;
		v += (unsigned long long)(frac * (shift >= 0 ? (long double)(1ull << shift)
					   : 1.0L / (long double)(1ull << -shift)) + 0.5L);
		end++;
		if (toupper((unsigned char)*end) == 'B' || toupper((unsigned char)*end) == 'I')
			end++;	/* accept 64M, 64MB and 64Mi */
		if (toupper((unsigned char)*end) == 'B')
			end++;
	}
	while (isspace((unsigned char)*end))
		end++;
	if (*end)
		return -EINVAL;
	*out = (int64_t)v;
	return 0;
}

const char *knob_format_value(enum knob_kind kind, int64_t v, char *buf, size_t len)
{
	if (v < 0) {
		snprintf(buf, len, "-");
		return buf;
	}
	switch (kind) {
	case KNOB_KIND_RATIO:
		snprintf(buf, len, "%" PRId64 "%%", v);
		break;
	case KNOB_KIND_RATIO_FINE:
		snprintf(buf, len, "%.4f%%", (double)v / 10000.0);
		break;
	case KNOB_KIND_BYTES:
	case KNOB_KIND_KB: {
		double x = kind == KNOB_KIND_KB ? (double)v * 1024.0 : (double)v;
		const char *units = "BKMGTP";
		int u = 0;
		while (x >= 1024.0 && u < 5) {
			x /= 1024.0;
			u++;
		}
		if (u == 0)
			snprintf(buf, len, "%" PRId64, v);
		else
			snprintf(buf, len, "%.1f%c", x, units[u]);
		break;
	}
	case KNOB_KIND_CENTISECS:
		snprintf(buf, len, "%.2fs", (double)v / 100.0);
		break;
	case KNOB_KIND_SECONDS:
		snprintf(buf, len, "%" PRId64 "s", v);
		break;
	case KNOB_KIND_BOOL:
		snprintf(buf, len, "%s", v ? "on" : "off");
		break;
	}
	return buf;
}

bool knob_bytes_in_force(const int64_t vm[KNOB_VM_COUNT], bool background)
{
	int64_t bytes = vm[background ? KNOB_DIRTY_BG_BYTES : KNOB_DIRTY_BYTES];
	return bytes > 0;
}
