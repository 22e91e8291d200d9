/*
 * fuzz_diskstats.c - libFuzzer target: any bytes as /proc/diskstats text,
 * then derive rates between two parses (counters going anywhere).  Each
 * half is also parsed by the careful parser alone and by each fast way
 * (SIMD, scalar), with room after the text so that the fast paths try
 * every line: all must agree.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/derive.h"
#include "source/diskstats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Parse text (len bytes) each way, with 600 newlines after it so that no line is too near
 * the end for the fast path; abort if the fast ways (SIMD where the CPU has it, scalar)
 * differ from the careful one. */
static void fuzz_compare(const char *text, size_t len)
{
	char *padded = malloc(len + 601);
	if (!padded)
		return;
	memcpy(padded, text, len);
	memset(padded + len, '\n', 600);
	padded[len + 600] = '\0';
	struct snapshot c;
	snapshot_init(&c);
	size_t bad_c = 0;
	int rc = diskstats_parse_careful(padded, len + 600, &c, &bad_c);
	static const enum diskstats_way fast_ways[] = { DISKSTATS_FASTEST, DISKSTATS_SCALAR };
	for (size_t w = 0; w < sizeof fast_ways / sizeof fast_ways[0]; w++) {
		struct snapshot f;
		snapshot_init(&f);
		size_t bad_f = 0;
		int rf = diskstats_parse_way(padded, len + 600, &f, &bad_f, fast_ways[w]);
		if (rf != rc || bad_f != bad_c || f.ndev != c.ndev)
			abort();
		for (size_t i = 0; i < f.ndev; i++) {
			const struct dev_counters *a = &f.dev[i], *b = &c.dev[i];
			if (a->major != b->major || a->minor != b->minor || a->nfields != b->nfields ||
			    memcmp(a->name, b->name, sizeof a->name) || memcmp(a->f, b->f, sizeof a->f))
				abort();
		}
		snapshot_free(&f);
	}
	snapshot_free(&c);
	free(padded);
}

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
	fuzz_compare(text, half);
	fuzz_compare(text + half, size - half);
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
