/*
 * fuzz_vmstat_text.c - libFuzzer target: any bytes as a /proc/vmstat text.
 * The reader must give a value for every name asked, never read past the text
 * (it ends with a NUL, as the source's read leaves it), crash or leak.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vmstat_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = { "pgpgin", "pgpgout", "nr_dirty", "nr_dirtied",
					     "nr_dirty_threshold", "nr_written" };
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	uint64_t v[sizeof names / sizeof names[0]];
	size_t had = vmstat_text_values(text, size, names, sizeof names / sizeof names[0], v);
	if (had > sizeof names / sizeof names[0])
		abort();
	free(text);
	return 0;
}
