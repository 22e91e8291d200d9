/*
 * fuzz_annotate.c - libFuzzer target: any bytes as a vmstat/iostat log.
 * annotate must answer with output or one error line, never crash or leak.
 */
#include <stdint.h>
#include <stdio.h>

#include "run/annotate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *sink;
	if (!sink)
		sink = fopen("/dev/null", "w");
	if (size == 0)
		return 0;
	FILE *in = fmemopen((void *)data, size, "r");
	if (!in)
		return 0;
	struct dip_params p;
	detect_params_default(&p);
	annotate_stream(in, "fuzz", sink, sink, &p);
	fclose(in);
	return 0;
}
