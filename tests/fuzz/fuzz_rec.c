/*
 * fuzz_rec.c - libFuzzer target: any bytes as a recording file.  Opening,
 * replaying every sample and exporting must end in data or one clear error,
 * never a crash, a hang or a leak.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "rec/rec.h"
#include "core/source.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	static FILE *sink;
	if (!path[0]) {
		snprintf(path, sizeof path, "/tmp/wbtop-fuzz-rec.%d", (int)getpid());
		sink = fopen("/dev/null", "w");
	}
	FILE *f = fopen(path, "w");
	if (!f)
		return 0;
	fwrite(data, 1, size, f);
	fclose(f);
	char err[256];
	struct source *src = rec_replay_open(path, false, err, sizeof err);
	if (src) {
		struct snapshot s;
		snapshot_init(&s);
		for (int i = 0; i < 10000 && source_next(src, &s) == 0; i++)
			;
		snapshot_free(&s);
		source_close(src);
	}
	rec_export(path, REC_FMT_CSV, NULL, NULL, NULL, sink, err, sizeof err);
	unlink(path);
	return 0;
}
