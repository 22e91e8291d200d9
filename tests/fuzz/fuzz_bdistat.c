/*
 * fuzz_bdistat.c - libFuzzer target: any bytes as a debugfs bdi stats file,
 * a wb_stats file and a memory.stat file.  The text is given without a NUL
 * after it (the parsers must keep to its length); what a parse finds,
 * printed back the way the kernel prints it, must parse to the same numbers.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "source/bdistat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const keys[BDS_NFIELDS] = {
	"BdiWriteback", "BdiReclaimable", "BdiDirtyThresh", "DirtyThresh",
	"BackgroundThresh", "BdiDirtied", "BdiWritten", "BdiWriteBandwidth",
};

static void fuzz_stats_roundtrip(const struct bdistat_dev *d)
{
	char text[1024];
	size_t len = 0;
	for (int f = 0; f < BDS_NFIELDS; f++)
		if (d->have & 1u << f)
			len += (size_t)snprintf(text + len, sizeof text - len, "%s:%*s%llu kB\n", keys[f],
						20 - (int)strlen(keys[f]), "",
						(unsigned long long)d->kb[f]);
	struct bdistat_dev again;
	if (bdistat_parse_stats(text, len, &again) != 0 || again.have != d->have ||
	    memcmp(again.kb, d->kb, sizeof d->kb))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size ? size : 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	struct bdistat_dev d;
	if (bdistat_parse_stats(text, size, &d) == 0)
		fuzz_stats_roundtrip(&d);
	struct bdistat_wb *wb = NULL;
	size_t n = 0, cap = 0;
	int blocks = bdistat_parse_wb(text, size, 7, 0, &wb, &n, &cap);
	if (blocks >= 0 && (size_t)blocks != n)
		abort();
	for (size_t i = 0; i < n; i++)
		if (wb[i].major != 7 || wb[i].minor != 0 || (wb[i].have & ~0xe7u))
			abort();	/* wb_stats has no DirtyThresh or BackgroundThresh */
	free(wb);
	struct bdistat_cg cg;
	cg.dirty_bytes = cg.writeback_bytes = 1;
	if (bdistat_parse_memstat(text, size, &cg) != 0 && (cg.dirty_bytes || cg.writeback_bytes))
		abort();	/* a failed parse leaves zeros, not half a cgroup */
	free(text);
	return 0;
}
