/*
 * vmstat_text.c - the named counters of a /proc/vmstat text.
 *
 * A line is a name, one space and a decimal number.  Each line's name is
 * measured once (memchr for the space) and compared only with the names of
 * its length; the kernel's digits are converted here, anything else (a sign,
 * spaces, a number too long for 64 bits) by strtoul, so that every value is
 * what strtoul gives.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "vmstat_text.h"

/* The number at p (the rest of its line up to end) as strtoul reads it. */
static uint64_t vmstat_text_number(const char *p, const char *end)
{
	uint64_t v = 0;
	const char *q = p;
	while (q < end && *q >= '0' && *q <= '9' && q - p < 19)
		v = v * 10 + (uint64_t)(*q++ - '0');
	if (q > p && (q == end || *q < '0' || *q > '9'))
		return v;	/* plain digits, as the kernel writes them */
	return strtoul(p, NULL, 10);	/* a sign, spaces, 19 digits or more */
}

size_t vmstat_text_values(const char *text, size_t len, const char *const *names, size_t n,
			  uint64_t *out)
{
	size_t name_len[64];
	bool seen[64] = { false };
	if (n > 64)
		n = 64;	/* more than any caller asks */
	for (size_t k = 0; k < n; k++) {
		name_len[k] = strlen(names[k]);
		out[k] = 0;
	}
	const char *p = text, *end = text + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		const char *sp = memchr(p, ' ', (size_t)(eol - p));
		if (sp) {
			size_t l = (size_t)(sp - p);
			for (size_t k = 0; k < n; k++)
				if (name_len[k] == l && memcmp(names[k], p, l) == 0) {
					out[k] = vmstat_text_number(sp + 1, eol);
					seen[k] = true;
				}
		}
		p = eol + 1;
	}
	size_t had = 0;
	for (size_t k = 0; k < n; k++)
		had += seen[k];
	return had;
}
