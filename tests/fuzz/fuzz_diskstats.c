/*
 * fuzz_diskstats.c - libFuzzer target: any bytes as /proc/diskstats text,
 * then derive rates between two parses (counters going anywhere).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "derive.h"
#include "diskstats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);	/* the parser wants a NUL after the text */
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	struct snapshot a, b;
	snapshot_init(&a);
	snapshot_init(&b);
	size_t half = size / 2;
	char saved = text[half];
	text[half] = '\0';
	diskstats_parse(text, half, &a, NULL);
	text[half] = saved;
	diskstats_parse(text + half, size - half, &b, NULL);
	a.mono_ns = 1;
	b.mono_ns = 1000000001;
	struct dev_rates *r = calloc(b.ndev + 1, sizeof *r);
	if (r)
		derive_devs(&a, &b, r);
	free(r);
	free(text);
	snapshot_free(&a);
	snapshot_free(&b);
	return 0;
}
