/*
 * fuzz_cgpath.c - libFuzzer target: any bytes as a /proc/PID/cgroup file,
 * read as cgroup v1 and as v2.  A path found must lie inside the text, start
 * with '/', hold no line break, and be what a line of the text says: the
 * same text printed back as that one line alone gives the same path.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "source/cgpath.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_one(const uint8_t *data, size_t size, bool v2)
{
	char *text = malloc(size + 1);
	if (!text)
		return;
	memcpy(text, data, size);
	text[size] = '\0';
	char *p = cgpath_parse_task(text, v2);
	if (p) {
		if (p < text || p > text + size || p[0] != '/' || strchr(p, '\n'))
			abort();
		char line[64 + 4096];
		int n = snprintf(line, sizeof line, "%s:%s\n", v2 ? "0:" : "4:memory", p);
		if (n > 0 && (size_t)n < sizeof line) {
			char *again = cgpath_parse_task(line, v2);
			if (!again || strcmp(again, p) != 0)
				abort();
		}
	}
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_one(data, size, false);
	fuzz_one(data, size, true);
	return 0;
}
